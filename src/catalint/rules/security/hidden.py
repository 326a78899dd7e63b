"""SEC-002: invisible, bidi-control or tag characters, and look-alike letters inside words."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from catalint.model import Tool
from catalint.registry import Hit, rule
from catalint.rules.security.strings import (
    _ASCII_CONTROL,
    _FILLERS,
    SMALL_CAPITALS,
    SMALL_CAPITALS_AS,
    _everything,
    _has_ascii_control,
    _is_vs,
    _quote,
    texts,
)
from catalint.text import LazyRegex

_BIDI_CONTROLS = frozenset([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])  # embeddings, overrides, isolates
_BIDI_MARKS = frozenset({0x200E, 0x200F, 0x061C})  # LRM, RLM, ALM: fine beside right-to-left text
_TAG_FIRST, _TAG_LAST = 0xE0000, 0xE007F
_BLACK_FLAG = "\U0001f3f4"  # starts an emoji tag sequence (subdivision flags)


def _is_tag(cp: int) -> bool:
    return _TAG_FIRST <= cp <= _TAG_LAST


class Oddity(NamedTuple):
    start: int
    end: int
    kind: str  # "tag", "bidi", "invisible", "control"


# Every character oddities() may report: controls, format (Cf) characters, variation selectors, Hangul
# fillers and tags. Left out: the prepended concatenation marks (U+0600-U+0605, U+06DD, U+070F, U+0890,
# U+0891, U+08E2, U+110BD, U+110CD), Cf characters that draw a visible sign in Arabic, Syriac and Kaithi text.
_CANDIDATES = LazyRegex(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2800"
    "\u2060-\u2064\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e007f\U000e0100-\U000e01ef]+"
)


def oddities(text: str) -> list[Oddity]:
    """Characters that hide or reorder text, skipping the legitimate uses documented in SEC-002."""
    if text.isascii():
        return [Oddity(m.start(), m.end(), "control") for m in _ASCII_CONTROL.finditer(text)]
    out: list[Oddity] = []
    rtl: bool | None = None  # worked out on first need
    skip: set[int] = set()  # the PDI closing a proper isolate
    for run in _CANDIDATES.finditer(text):
        i = run.start()
        while i < run.end():
            cp = ord(text[i])
            if _is_tag(cp):
                end = i
                while end < run.end() and _is_tag(ord(text[end])):
                    end += 1
                if not _flag_sequence(text, i, end):
                    out.append(Oddity(i, end, "tag"))
                i = end
                continue
            if cp in _ISOLATES:
                close = _proper_isolate(text, i, cp)
                if close is not None:  # one word of the other direction, isolated as Unicode asks
                    skip.add(close)
                    i += 1
                    continue
            if i in skip:
                i += 1
                continue
            if cp in _BIDI_MARKS and rtl is None:
                rtl = _has_rtl(text)
            kind = _odd_char(text, i, cp, bool(rtl))
            if kind:
                out.append(Oddity(i, i + 1, kind))
            i += 1
    return out


def _odd_char(text: str, i: int, cp: int, rtl: bool) -> str | None:
    c = text[i]
    if cp in _BIDI_CONTROLS:
        return "bidi"
    if cp in _BIDI_MARKS:
        return None if rtl else "invisible"
    if cp == 0x200D:  # zero width joiner: emoji sequences and joining scripts use it
        return None if _emoji_join(text, i) or _script_join(text, i) else "invisible"
    if cp == 0x200C:  # zero width non-joiner: Persian and Indic spelling use it
        return None if _script_join(text, i) else "invisible"
    if _is_vs(cp):  # one selector picks a glyph; a run of them smuggles bytes, and so does one after each letter
        before = text[i - 1] if i > 0 else ""
        return "invisible" if before and (_is_vs(ord(before)) or (before.isascii() and before.isalpha())) else None
    if cp in _FILLERS:
        return "invisible"
    if cp == 0x034F:  # combining grapheme joiner: its one use is to keep two combining marks in order
        return None if i + 1 < len(text) and unicodedata.category(text[i + 1]) in ("Mn", "Mc") else "invisible"
    if cp == 0x2800:  # braille blank: a space between braille words, and a blank that is no space anywhere else
        return None if _braille(text, i - 1) or _braille(text, i + 1) else "invisible"
    return "control" if unicodedata.category(c) == "Cc" else "invisible"


_ISOLATES = {0x2066: "L", 0x2067: "R", 0x2068: ""}  # LRI, RLI, FSI: the direction their content must have
_PDI = "\u2069"
_ISOLATE_REACH = 200


def _proper_isolate(text: str, i: int, cp: int) -> int | None:
    """Where the PDI closing the isolate opened at i is, when the isolate is the legitimate kind: it closes
    within reach, holds no other bidi control and no digits, and its letters all run one way, the way it
    says (LRI: left to right, RLI: right to left, FSI: either), against the text around it (right-to-left
    words anywhere, left-to-right ones in text with right-to-left letters). Then nothing is reordered but
    that one run. None otherwise."""
    close = text.find(_PDI, i + 1, i + 1 + _ISOLATE_REACH)
    if close < 0:
        return None
    directions = set()
    for c in text[i + 1 : close]:
        if ord(c) in _BIDI_CONTROLS or ord(c) in _BIDI_MARKS:
            return None
        kind = unicodedata.bidirectional(c)
        if kind in ("EN", "AN"):  # numbers inside could be shown in another order
            return None
        if kind in ("L", "R", "AL"):
            directions.add("L" if kind == "L" else "R")
    if len(directions) != 1 or (_ISOLATES[cp] and directions != {_ISOLATES[cp]}):
        return None
    # Left-to-right words need isolating only inside right-to-left text.
    return close if directions == {"R"} or _has_rtl(text) else None


def _braille(text: str, i: int) -> bool:
    return 0 <= i < len(text) and 0x2801 <= ord(text[i]) <= 0x28FF


def _has_rtl(text: str) -> bool:
    """Whether the text has right-to-left letters (a mark such as RLM or ALM is R or AL too, but no letter)."""
    return any(
        unicodedata.bidirectional(c) in ("R", "AL") and unicodedata.category(c)[0] == "L"
        for c in text
        if ord(c) >= 0x590
    )


def _pictographic(c: str) -> bool:
    return 0x1F000 <= ord(c) < 0x20000 or unicodedata.category(c) == "So"


def _emoji_join(text: str, i: int) -> bool:
    """A ZWJ between two emoji (after an optional VS16 or skin tone): 👩‍💻."""
    j = i - 1
    while j >= 0 and (text[j] == "\ufe0f" or 0x1F3FB <= ord(text[j]) <= 0x1F3FF):
        j -= 1
    return j >= 0 and i + 1 < len(text) and _pictographic(text[j]) and _pictographic(text[i + 1])


def _script_join(text: str, i: int) -> bool:
    """A joiner between two non-ASCII letters or marks, as Persian and Indic text use it, or right after a
    virama (the old-style Malayalam chillu ends a word with virama + ZWJ)."""
    if i == 0:
        return False
    if unicodedata.combining(text[i - 1]) == 9:  # canonical combining class 9: a virama
        return True
    if i + 1 >= len(text):
        return False
    return all(not c.isascii() and unicodedata.category(c)[0] in "LM" for c in (text[i - 1], text[i + 1]))


def _flag_sequence(text: str, start: int, end: int) -> bool:
    """An emoji subdivision flag: U+1F3F4, two to six tag letters or digits, then CANCEL TAG."""
    inner = [chr(ord(c) - _TAG_FIRST) for c in text[start : end - 1]]
    return (
        start > 0
        and text[start - 1] == _BLACK_FLAG
        and ord(text[end - 1]) == _TAG_LAST
        and 2 <= len(inner) <= 6
        and all(ch.isascii() and (ch.islower() or ch.isdigit()) for ch in inner)
    )


def _code_name(c: str) -> str:
    return f"U+{ord(c):04X} {unicodedata.name(c, 'control character')}"


def _snippet(text: str, start: int, end: int, around: int = 20) -> str:
    return _quote(text[max(0, start - around) : end + around], 90)


def _hidden_message(label: str, text: str, found: list[Oddity]) -> str:
    tags = [o for o in found if o.kind == "tag"]
    if tags:
        hidden = "".join(chr(ord(c) - _TAG_FIRST) for o in tags for c in text[o.start : o.end])
        return f"{label} hides text in Unicode tag characters (U+E0000–U+E007F): {_quote(hidden)}"
    kinds = {o.kind for o in found}
    what = (
        "bidi control characters that reorder how it displays"
        if "bidi" in kinds
        else "control characters"
        if kinds == {"control"}
        else "invisible characters"
    )
    codes = list(dict.fromkeys(_code_name(text[o.start]) for o in found))
    listed = ", ".join(codes[:3]) + (f" and {len(codes) - 3} more" if len(codes) > 3 else "")
    first = found[0]
    return f"{label} contains {what} ({listed}): {_snippet(text, first.start, first.end)}"


# Cyrillic, Greek and Armenian letters drawn like Latin ones, and Latin small capitals and IPA letters that
# pass for plain ones inside a word, with the letter they imitate.
CONFUSABLES = {
    **dict(zip("аеорсухѕіјԁԛԝһӏүАВЕКМНОРСТХЅІЈҮԚԜ", "aeopcyxsijdqwhlyABEKMHOPCTXSIJYQW", strict=True)),
    **dict(zip("οαικνρυχϲϳΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "oaikvpuxcjABEZHIKMNOPTYX", strict=True)),
    **dict(zip("օսհոց", "ouhng", strict=True)),
    **dict(zip(SMALL_CAPITALS, SMALL_CAPITALS_AS, strict=True)),
}
# Latin letters among them: prose writes small capitals ("Hᴇʟʟᴏ") and IPA ("/ˈfɑːðər/") for real, names do not.
_LATIN_LOOKS = frozenset(SMALL_CAPITALS)
_LETTERS = LazyRegex(r"[^\W\d_]+")
# Any look-alike that prose may hide in a word (a character class: one search, in C)
_PROSE_FAKES = LazyRegex("[" + "".join(sorted(set(CONFUSABLES) - _LATIN_LOOKS)) + "]")


# Greek letters that science writes beside Latin ones on purpose: Cα, ERα, NF-κB, IκBα, Gαq, hν, χ².
_SYMBOL_GREEK = frozenset("ακνρχ")


def _greek_notation(word: str, fakes: list[str]) -> bool:
    """Whether a prose word that mixes Greek look-alikes with Latin is scientific notation, not a disguise:
    its look-alikes are symbol letters, and it also holds a Greek letter like no Latin one (αvβ3), or is
    two letters (hν), or an abbreviation of at most three Latin letters, capitals but for one (ERα, κB, Gαq).
    A word written in English (Ignοre, cαll, αll) is not."""
    if not all(ch in _SYMBOL_GREEK for ch in fakes):
        return False
    latin = [ch for ch in word if ch.isascii()]
    if len(latin) > 3:  # an English word (ραsswordλ): no notation holds so many
        return False
    if any(not ch.isascii() and ch not in CONFUSABLES and "GREEK" in unicodedata.name(ch, "") for ch in word):
        return True
    if len(latin) + len(fakes) != len(word):  # another script's letter too
        return False
    if word[0] == "α":  # "αs", "αPI": α passes for the a of an English word or an acronym
        return False
    if len(word) == 2:
        return True
    return any(ch.isupper() for ch in latin) and sum(ch.islower() for ch in latin) <= 1


def _latin(ch: str) -> str | None:
    """The ASCII letter a character passes for: a Cyrillic or Greek look-alike, or one whose
    compatibility form is ASCII (fullwidth ｒ, mathematical bold 𝐫)."""
    if ch in CONFUSABLES:
        return CONFUSABLES[ch]
    plain = unicodedata.normalize("NFKC", ch)
    return plain if len(plain) == 1 and plain.isascii() and plain.isalpha() else None


def look_alike(name: str, prose: bool = False) -> tuple[str, str] | None:
    """The first word of name that mixes Latin with Cyrillic or Greek look-alikes, and the letter that passes for Latin.

    A word counts when it mixes scripts itself (`rеad` with a Cyrillic е), or, in a
    name, is made only of look-alikes next to a Latin word (`сору_file`); prose may
    put a Russian word beside an English one, so there only the first kind counts.
    """
    if prose and not _PROSE_FAKES.search(name):
        return None
    # prose (a description, perhaps of megabytes) is read word by word: only its first such word is wanted
    words: Iterable[str] = (m.group() for m in _LETTERS.finditer(name)) if prose else _LETTERS.findall(name)
    if not prose:
        for word in words:  # fullwidth or mathematical letters: ASCII in disguise, whatever the rest
            ch = next((c for c in word if not c.isascii() and _latin(c) is not None and c not in CONFUSABLES), None)
            if ch is not None:
                return word, ch
    has_latin_word = not prose and any(any(ch.isascii() for ch in w) for w in words)
    for word in words:
        fakes = [ch for ch in word if ch in CONFUSABLES and not (prose and ch in _LATIN_LOOKS)]
        if not fakes:
            continue
        mixed = any(ch.isascii() for ch in word)
        all_fake = len(word) >= 2 and len(fakes) == len(word) and has_latin_word
        if mixed and prose and _greek_notation(word, fakes):
            continue
        if mixed or all_fake:
            return word, fakes[0]
    return None


@rule(
    "SEC-002",
    "hidden-characters",
    "critical",
    "brittle",
    "Invisible, bidi-control or tag characters in the catalog, or a look-alike letter inside a word",
)
def hidden_characters(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** In any string of a tool (its name, description, title,
    property names, argument descriptions, enum values, defaults, examples):
    Unicode tag characters (U+E0000–U+E007F, which render as nothing and can spell
    out a whole hidden sentence, decoded in the message), bidi embeddings,
    overrides and isolates (U+202A–U+202E, U+2066–U+2069), zero-width and other
    format (Cf) characters such as U+200B, U+2060, U+FEFF and the soft hyphen,
    Hangul filler letters, the braille blank outside braille text (U+2800, a blank
    that is no space), the combining grapheme joiner anywhere but before a combining
    mark (U+034F), runs of variation selectors and a selector after an ASCII letter
    (no variation sequence starts with one: spread one a letter, they still carry bytes), and control characters
    other than tab and newline (an ESC starts a terminal escape sequence). In tool
    and property names it also catches a word that mixes Latin with Cyrillic, Greek
    or Armenian look-alikes or (in names only) with Latin small capitals and IPA letters
    (`rеad_file` with a Cyrillic е, `օpen_file` with an Armenian օ, `reɑd_file`), a word made only of
    look-alikes beside Latin ones (`сору_file`), or fullwidth or mathematical
    letters that stand for ASCII ones (`ｒｅａｄ_file`); in any other text, a word that
    mixes them ("Іgnore" with a Ukrainian І: a disguise that slips an order past
    word lists, which no one types by accident).

    Legitimate uses are left alone: right-to-left letters themselves, LRM, RLM and
    ALM in text that has right-to-left letters, an isolate (LRI, RLI or FSI, closed
    by PDI) around one run of the other direction with no digits and nothing else inside
    (a Hebrew word between RLI and PDI in English, "Paris" between LRI and PDI in
    Arabic: what Unicode's bidi algorithm asks for), ZWJ inside an emoji sequence
    (👩‍💻), between letters of a joining script or right after a virama (the
    Malayalam chillu), ZWNJ in Persian or Indic words,
    a single variation selector (⚠️), an emoji subdivision flag (🏴 followed by
    tag letters and CANCEL TAG), the prepended concatenation marks (U+0600–U+0605,
    U+06DD, …, format characters that draw a visible sign in Arabic and Syriac),
    names written wholly in one script, and Greek letters that science writes
    beside Latin ones on purpose (NF-κB, Cα, ERα, Gαq, αvβ3, hν: α, κ, ν, ρ or χ
    in an abbreviation, not in an English word such as "cαll").

    **Why.** The model reads every code point; a person reviewing the catalog sees
    only what renders. Boucher and Anderson ("Trojan Source", arXiv:2111.00169,
    CVE-2021-42574) showed bidi controls making reviewed text mean something else,
    and tag-character "ASCII smuggling" hides instructions that models still
    follow (OWASP LLM01:2025, prompt injection). Mixed-script names are the
    confusable identifiers of Unicode TS #39; a shadowing tool can pose as a
    trusted one. The MCP specification (Tools, 2025-11-25) recommends tool names of
    ASCII letters, digits, `_`, `-` and `.` only.

    **Bad.** `"description": "Adds two numbers.\\u200b\\U000e0049\\U000e0067..."`,
    `"name": "sеnd_email"` (Cyrillic е).

    **Good.** `"description": "Adds two numbers."`, `"name": "send_email"`.

    **Fix.** Delete the hidden characters (they carry nothing a reader can see);
    spell names in ASCII. If the server did not put them there, treat it as
    compromised.
    """
    everything = _everything(tool)
    if everything.isascii() and not _has_ascii_control(everything):
        return  # nothing outside printable ASCII: the common case, settled in one pass
    for t in texts(tool):
        found = oddities(t.text)
        if found:
            yield Hit(t.pointer, _hidden_message(t.label, t.text, found), "delete the hidden characters")
        is_name = t.path == (None, "name") or t.is_property_name()
        fake = look_alike(t.text, prose=not is_name) if is_name or not t.text.isascii() else None
        if fake:
            word, ch = fake
            script = unicodedata.name(ch).split()[0].title()
            # a small capital or IPA letter is Latin already: it passes for a plain one
            script, like = ("", "a plain") if script == "Latin" else (f"{script} ", "Latin")
            shown = f" {t.text!r}" if t.path == (None, "name") else ""  # a property name is in its label
            yield Hit(
                t.pointer,
                f"{t.label}{shown} spells {word!r} with {script}{_code_name(ch)}, which looks like {like}"
                f" {_latin(ch)!r}",
                "spell the name in ASCII letters" if is_name else "retype the word in Latin letters",
            )
