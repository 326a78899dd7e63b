"""Every string of a tool, read once for the SEC rules: the walk, the joined prose and shared helpers."""

from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any, NamedTuple

from catalint.model import Tool
from catalint.sourcemap import join_pointer
from catalint.text import LazyRegex, clip_folded, fold_space, lower

MAX_TEXTS = 20_000  # strings read per tool: hostile catalogs stay cheap
MAX_DEPTH = 64


# A path from the tool object as a linked list, (parent, key or index), so the walk copies nothing.
Path = tuple[Any, "str | int"]


class Text(NamedTuple):
    """One string of a tool: a value, or a key (found at the pointer of its value)."""

    text: str
    path: Path
    is_key: bool
    base: str  # the tool's pointer

    @property
    def parts(self) -> tuple[str | int, ...]:
        found: list[str | int] = []
        node: Path | None = self.path
        while node is not None:
            found.append(node[1])
            node = node[0]
        return tuple(reversed(found))

    @property
    def pointer(self) -> str:
        return join_pointer(self.base, *self.parts)

    @property
    def field(self) -> str | None:
        """The key that holds a value ("description", "default", "enum"...); None for a key."""
        node: Path | None = None if self.is_key else self.path
        while node is not None and not isinstance(node[1], str):
            node = node[0]
        return None if node is None else str(node[1])

    @property
    def props(self) -> list[str]:
        """Names of the properties the string lies in, outermost first."""
        found: list[str] = []
        parts, i = self.parts, 0
        while i < len(parts) - 1:
            if parts[i] == "properties" and isinstance(parts[i + 1], str):
                found.append(str(parts[i + 1]))
                i += 2
            else:
                i += 1
        return found

    @property
    def prop(self) -> str | None:
        return ".".join(self.props) or None

    def is_property_name(self) -> bool:
        return self.is_key and self.path[0] is not None and self.path[0][1] == "properties"

    @property
    def label(self) -> str:
        """How a message names the string: "description", "default of property 'mode'"..."""
        side = "output " if self.parts[:1] == ("outputSchema",) else ""
        field = _FIELD_NAMES.get(str(self.field), str(self.field))
        if self.is_property_name():
            return f"{side}property name {_name(self.prop)}"
        if self.is_key:
            return f"key {_name(self.text)}"
        if self.prop:
            return f"{field} of {side}property {_name(self.prop)}"
        if self.parts[:1] in (("inputSchema",), ("outputSchema",)):
            return f"{field} of the {side or 'input '}schema"
        if self.parts == ("name",):
            return "tool name"
        return ".".join(str(p) for p in self.parts if isinstance(p, str)) or "tool"


# Values that are keywords or identifiers, not prose an agent reads as instructions...
_NOT_PROSE = frozenset({"type", "format", "$ref", "$schema", "$id", "$anchor", "pattern", "required"})
# ...though one that can only hold a name or URI is read when it holds a sentence (four words in a row): that is
# an instruction hidden where no one looks. A pattern may match a phrase, and required lists property names.
_NAMES_ONLY = frozenset({"type", "format", "$ref", "$schema", "$id", "$anchor"})
_SENTENCE_LIKE = re.compile(r"[A-Za-z]{2,}(?:[ ,]+[A-Za-z']{2,}){3}")

_FIELD_NAMES = {"enum": "enum value", "examples": "example", "example": "example"}


def texts(tool: Tool) -> list[Text]:
    """Every string in the tool object, keys included; built once per tool, for the rules that read them one by one."""
    cached = tool.cache.get("sec_texts")
    if cached is None:
        cached = tool.cache["sec_texts"] = _walk(tool, every=True)[2]
    return cached


def _name(text: str | None) -> str:
    """A name quoted for a message, hidden characters spelled out."""
    return repr(show(text or ""))


def _prose(tool: Tool) -> list[Text]:
    """Strings an agent reads as sentences: values with a space; keywords and the tool name left out."""
    return _strings(tool)[1]


_SEPARATOR = "\n\n"  # between joined strings: a paragraph break, where every pattern stops


def _strings(tool: Tool) -> tuple[list[str], list[Text]]:
    """The text of every item of texts(tool), and _prose(tool), from one walk that builds a Text only for prose."""
    cached = tool.cache.get("sec_strings")
    if cached is None:
        strings, prose, _ = _walk(tool, every=False)
        cached = tool.cache["sec_strings"] = strings, prose
    return cached


def _walk(tool: Tool, every: bool) -> tuple[list[str], list[Text], list[Text]]:
    """Every string of the tool, keys that could hide a character included (a plain ASCII key cannot):
    their texts, the prose among them as Text, and (if every) all of them as Text.

    Each container carries its field (the nearest string key) along, for the prose test.
    """
    strings: list[str] = []
    prose: list[Text] = []
    out: list[Text] = []
    base = tool.pointer
    stack: list[tuple[Any, Path | None, int, str | None]] = [(tool.raw, None, 0, None)]
    while stack and len(strings) < MAX_TEXTS:
        value, path, depth, field = stack.pop()
        if depth >= MAX_DEPTH:
            continue
        spaced = False  # some key holds a space: it may be a sentence
        if isinstance(value, dict):
            items = value.items()
            try:
                keys = "".join(value)
                clean = keys.isascii() and keys.isprintable()  # no key to report: the common case
                spaced = " " in keys
            except TypeError:  # a key that is not a string
                clean = False
        else:
            items, clean = enumerate(value), True
        for key, sub in items:
            if not clean and isinstance(key, str) and not (key.isascii() and key.isprintable()):
                strings.append(key)
                if every:
                    out.append(Text(key, (path, key), True, base))
            if spaced and isinstance(key, str) and " " in key and _SENTENCE_LIKE.search(key):
                prose.append(Text(key, (path, key), True, base))  # a property named with an order
            if isinstance(sub, str):
                strings.append(sub)
                if every:
                    out.append(Text(sub, (path, key), False, base))
                name = key if isinstance(key, str) else field
                if (  # prose: any value but a keyword's, or a sentence where only a name belongs
                    name not in _NOT_PROSE
                    or (name in _NAMES_ONLY and " " in sub and _SENTENCE_LIKE.search(sub) is not None)
                ) and (path is not None or key != "name"):
                    text = sub
                    if ("&" in text and ";" in text) or "%20" in text or "\\u00" in text:
                        text = _unescaped(text)  # "Ignore&nbsp;all", "Ignore%20all", "Ignore\\u0020all"
                    if not (text.isascii() and text.isprintable()) and _reshaped(text):
                        if _ODD_SPACE.search(text):
                            text = _ODD_SPACE.sub(_one_space, text)  # a no-break space, a tab, a CR...
                        if _WIDE.search(text):
                            text = _WIDE.sub(_narrow, text)  # fullwidth or mathematical letters
                        text = text.translate(_AS_SPELT)  # ’, “ ” and small capitals as the patterns write them
                        text = _unmarked(text)  # "prevíous ínstructions": accents a reader looks through
                    if "*" in text or "_" in text or "<" in text:
                        text = _EMPHASIS.sub(_blank, text)  # "**Ignore** all", "<b>previous</b>"
                    if " " in text or "\n" in text:
                        prose.append(Text(text, (path, key), False, base))
            elif isinstance(sub, (dict, list)):
                stack.append((sub, (path, key), depth + 1, key if isinstance(key, str) else field))
    return strings, prose, out


# Whitespace other than a plain space: read as one, so that words split by a no-break space, a tab or an
# ideographic space are still words (a line break stays one: sentences and lists end there).
_ODD_SPACES = "\t\x0b\x0c\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_ODD_SPACE = re.compile(f"\r\n?|[{_ODD_SPACES}]")


# Fullwidth ASCII, mathematical and circled letters and digits and small Roman numerals: read as the ASCII they
# stand for, so that an order written in them is read as written ("Ｉｇｎｏｒｅ ａｌｌ ...", "Ⓘⓖⓝⓞⓡⓔ"), while
# other text keeps its own letters.
_WIDE_LETTERS = "\uff01-\uff5e\U0001d400-\U0001d7ff\u24b6-\u24e9\u2170-\u217f"
_WIDE = re.compile(f"[{_WIDE_LETTERS}]")


# Latin small capitals and the IPA alpha, and the plain letters they pass for (NFKC keeps them: "ɪɢɴᴏʀᴇ ᴀʟʟ").
SMALL_CAPITALS = "ᴀʙᴄᴅᴇɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢɑ"
SMALL_CAPITALS_AS = "abcdeghijklmnoprstuvwyza"
# Typographic quotes and apostrophes, as editors and language models write them, and small capitals: read as the
# straight quotes and plain letters the patterns spell ("Don’t tell the user", "as ‘sidenote’").
_AS_SPELT = str.maketrans("‘’‚‛′“”„‟″" + SMALL_CAPITALS, "'''''\"\"\"\"\"" + SMALL_CAPITALS_AS)
# Markdown emphasis at a word's edge (**ignore**, *all*, _user_; not the _ inside read_file, not a "* " bullet)
# and inline HTML formatting tags: read as spaces, so that emphasis cannot split a phrase a pattern reads.
# Each branch starts with its literal * _ or < (the look-behinds come after it, and look back past it), so
# that the search skips to those characters instead of trying every branch at every offset (13x faster on
# the benchmark's strings).
_EMPHASIS = re.compile(
    r"\*\*{0,2}(?=\w)|\*(?<=\w\*)\*{0,2}|_(?<![\w*]_)_{0,2}(?=[^\W_])|_(?<=[^\W_]_)_{0,2}(?!\w)"
    r"|</?(?:b|i|u|s|em|strong|mark|ins|del|small|big|span)\s*>",
    re.IGNORECASE,
)


# Runs of words joined by an escaped space or letter, which a model reads through as it would the plain text; not
# one inside a URL, a query or a quoted example (`ignore%20previous%20rules%20file`, "a\u0020b"), where it is data.
_ESCAPED_RUN = re.compile(r"(?<![\w`'\"=/?&%\\])(?:[A-Za-z]+(?:%20|\\u00[2-7][0-9a-fA-F]))+[A-Za-z]+")
_ESCAPE = re.compile(r"%20|\\u00([2-7][0-9a-fA-F])")
# Combining marks (after NFD), on letters the patterns spell plainly; not the dot above, so that İ stays the
# letter a case-blind pattern already reads as an i.
_MARKS = re.compile("[\u0300-\u0306\u0308-\u036f]")
_LATIN_AND_MARKS = "\u00c0-\u024f\u0300-\u036f\u1e00-\u1eff"
_ACCENTED = re.compile(f"[{_LATIN_AND_MARKS}]")  # where such marks are: Latin letters
# Every character that _walk's steps for text other than printable ASCII read differently (_ODD_SPACE, _WIDE,
# _AS_SPELT, _unmarked): a text with none, such as most non-Latin prose, skips them all after this one search.
_RESHAPED = re.compile(f"[\r{_ODD_SPACES}{_WIDE_LETTERS}{''.join(map(chr, _AS_SPELT))}{_LATIN_AND_MARKS}]")
_RESHAPED_ASCII = "\t\x0b\x0c\r"  # the ASCII characters among them


def holds_any(text: str, parts: Iterable[str]) -> bool:
    """Whether text holds one of parts: substring tests in a plain loop, cheaper than any() over a
    generator, and in C each one skips through the text many times faster than a regex class does."""
    for part in parts:
        if part in text:
            return True
    return False


def _reshaped(text: str) -> bool:
    """Whether _RESHAPED finds a character in text (in ASCII text, a description on several lines, by
    substring tests)."""
    if text.isascii():
        return holds_any(text, _RESHAPED_ASCII)
    return _RESHAPED.search(text) is not None


def _unescaped(text: str) -> str:
    """HTML character references decoded, and escaped spaces and letters inside runs of words."""
    if "&" in text and ";" in text:
        text = html.unescape(text)
    if "%20" in text or "\\u00" in text:
        text = _ESCAPED_RUN.sub(lambda m: _ESCAPE.sub(_escaped_character, m.group()), text)
    return text


def _escaped_character(m: re.Match[str]) -> str:
    return " " if m.group(1) is None else chr(int(m.group(1), 16))


def _unmarked(text: str) -> str:
    """text without combining marks on its letters (as composed characters again), or text itself if it has none."""
    if not _ACCENTED.search(text):
        return text
    decomposed = unicodedata.normalize("NFD", text)
    if not _MARKS.search(decomposed):
        return text
    return unicodedata.normalize("NFC", _MARKS.sub("", decomposed))


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group())


def _narrow(m: re.Match[str]) -> str:
    return unicodedata.normalize("NFKC", m.group())


def _one_space(m: re.Match[str]) -> str:
    return "\n" if m.group() in ("\r", "\r\n", "\x85", "\u2028", "\u2029") else " "


def _everything(tool: Tool) -> str:
    """Every string of the tool, keys included, joined."""
    cached = tool.cache.get("sec_everything")
    if cached is None:
        cached = tool.cache["sec_everything"] = _SEPARATOR.join(_strings(tool)[0])
    return cached


class Spans:
    """Where a pattern matches in a text, found once, for asking whether it matches inside a part of the text:
    searching the part for every match of another pattern made long texts quadratic (SEC-001 on a 180 KB
    description, 51 s; SEC-003 on a 35 KB sentence, 10 s)."""

    def __init__(self, pattern: LazyRegex, text: str) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        for m in pattern.finditer(text):
            self.starts.append(m.start())
            self.ends.append(m.end())

    def any_within(self, lo: int, hi: int) -> bool:
        """Whether a match lies inside text[lo:hi] (its first match from lo, as a search from lo finds it)."""
        k = bisect_left(self.starts, lo)
        return k < len(self.starts) and self.ends[k] <= hi


class Blob(NamedTuple):
    """Strings of a tool joined into one, so that a pattern runs once per tool instead of once per string."""

    text: str
    lower: str  # for pre-checks only: lower() may change lengths, so offsets are into text
    starts: list[int]  # where each string begins in text
    items: list[Text]
    plain: bool  # _plain_case(text): lower keeps text's offsets, so _anchors may narrow a search

    def locate(self, start: int, end: int) -> int | None:
        """Index of the string a match lies in, or None when it runs across two."""
        i = bisect_right(self.starts, start) - 1
        return i if end <= self.starts[i] + len(self.items[i].text) else None


def _prose_blob(tool: Tool) -> Blob:
    cached = tool.cache.get("sec_prose_blob")
    if cached is None:
        items = _prose(tool)
        starts, at = [], 0
        for t in items:
            starts.append(at)
            at += len(t.text) + len(_SEPARATOR)
        text = _SEPARATOR.join([t.text for t in items])
        cached = tool.cache["sec_prose_blob"] = Blob(text, lower(text), starts, items, _plain_case(text))
    return cached


_SENTENCE_END = LazyRegex(
    r"(?<=[.!?])(?<!e\.g\.)(?<!i\.e\.)(?<!etc\.)\s+|\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)"
    r"|(?<=[。！？；])\s*"  # Chinese and Japanese end a sentence with no space after it
)
# Within one sentence (as _sentences splits): anything but its end; the dot in ~/.ssh or mcp.json is no end.
_IN_SENTENCE = r"(?:[^.\n]|\.(?=\S)|\n(?!\s*\n|\s*(?:[-*•]|\d+[.)])\s))"
# The rest of a sentence, up to 2,000 characters: Python's engine keeps state for each round of a repeated
# group like this one, about 180 bytes a character, so an unbounded one over a sentence of megabytes (a
# hostile description with no full stop) took gigabytes.
_SENTENCE_REST = _IN_SENTENCE + "{0,2000}"


def _sentences(text: str) -> list[str]:
    """Split on sentence ends, blank lines and list items; a wrapped line stays in its sentence."""
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


def _sentences_at(text: str) -> Iterator[tuple[int, str]]:
    """_sentences(text), each with the offset in text where it starts."""
    at = 0
    for sentence in _sentences(text):
        at = text.find(sentence, at)
        yield at, sentence
        at += len(sentence)


class Words:
    """A cheap pre-check for a costly pattern: does a text contain any of some |-separated literal words?

    A few words: substring tests, which run in C and beat a regular expression alternation of the
    same words. Many (MANY_WORDS or more): one search for them all (_any_of), which stops only at
    the rare characters the words are looked for from, instead of reading the text once a word.
    A phrase ("from now on") matches across any run of whitespace, as the patterns behind it read
    it ("from  now\non"): lists that hold one search the text with its runs folded to one space.
    With tells, only a text that holds a word of each phrase (its longest: a tell) is folded: in
    any other no phrase can match, and the other words are found as in its folded form, which keeps
    each run of non-space characters as it was. For a list searched in texts that no other list
    folds (and _folded keeps): folding costs as much as some twenty substring tests.
    """

    __slots__ = ("_any", "_fold", "_tells", "words")

    def __init__(self, alternatives: str, tells: bool = False) -> None:
        self.words = tuple(alternatives.split("|"))
        self._any = LazyRegex(_any_of(self.words)) if len(self.words) >= MANY_WORDS else None
        self._fold = any(" " in w for w in self.words)
        spaced = [w.split() for w in self.words if w.split() != [w]]  # phrases, and any word with white space
        self._tells = tuple(max(parts, key=len) for parts in spaced) if tells and all(spaced) else None

    def search(self, text: str) -> bool:
        if self._fold and (self._tells is None or holds_any(text, self._tells)):
            text = _folded(text)
        if self._any is not None:
            return self._any.search(text) is not None
        for w in self.words:  # a loop: cheaper than any() over a generator
            if w in text:
                return True
        return False


@lru_cache(maxsize=8)  # the gates of one tool read a few texts, each several times (a str keeps its hash)
def _folded(text: str) -> str:
    """text with each run of white space as one space, and none at either end."""
    return fold_space(text)


# Measured on the 10,000-tool benchmark: from about 15 words one search is faster (SEC-005's 45 secret prefixes
# 3x, SEC-001's 132 gate words 3.5x); below, the substring tests are as fast or faster.
MANY_WORDS = 15
# Characters by how often English prose uses them, the most common first; any other (a capital, a digit,
# punctuation) counts as rarer than all of them.
_BY_FREQUENCY = " etaoinshrdlcumwfgypbvkjxqz"
_COMMONNESS = {c: i for i, c in enumerate(reversed(_BY_FREQUENCY))}
_Node = dict[str, "_Node"]  # a trie: each next character; under "", the look-behinds of the words that end there


def _any_of(words: tuple[str, ...]) -> str:
    """A pattern that matches where one of words ends, looking for each from its rarest character.

    A word is its rarest character c, the rest of the word, then a look-behind that the whole word ends
    there ("_(?<=sk_)", "gnore(?<=ignore)"), so the search stops only where a text has one of those
    characters. The words are put in a trie from c on, sharing prefixes; a word that ends where a
    longer one goes on ends the branch, as the search needs only the shorter.
    """
    if "" in words:
        return ""
    root: _Node = {}
    for word in words:
        at = min(range(len(word)), key=lambda i: _COMMONNESS.get(word[i], -1))
        node = root
        for c in word[at:]:
            node = node.setdefault(c, {})
        node.setdefault("", {})[f"(?<={re.escape(word)})" if at else ""] = {}  # "": the word begins at c

    def branch(node: _Node) -> str:
        ends = node.get("", {})
        if "" in ends:
            return ""
        alternatives = [*ends, *(re.escape(c) + branch(sub) for c, sub in node.items() if c)]
        return alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"

    return branch(root)


def _offsets(lower: str, starts: tuple[str, ...]) -> list[int]:
    """Every offset where one of starts begins in lower, in order."""
    found: set[int] = set()
    for w in starts:
        at = lower.find(w)
        while at >= 0:
            found.add(at)
            at = lower.find(w, at + 1)
    return sorted(found)


def _finditer(pattern: LazyRegex, text: str, offsets: list[int] | None) -> Iterator[re.Match[str]]:
    """pattern.finditer(text), trying only the offsets given (None: everywhere).

    Exact when every match begins at one of the offsets: finditer takes the
    first place, from where it stands, at which the pattern matches, which is
    then one of them; and match() there reads what finditer would, as word
    boundaries and look-behinds still see the text before it. (No pattern
    passed here matches an empty string, after which finditer would step on.)
    """
    if offsets is None:
        yield from pattern.finditer(text)
        return
    end = 0
    for at in offsets:
        if at >= end:
            m = pattern.match(text, at)
            if m:
                yield m
                end = m.end()


# What a case-blind pattern matches to an ASCII letter that lower() does not turn into it: İ and ı (i), ſ (s).
# İ is also the one character that lower() turns into two. (The Kelvin sign, a k too, lowers to k.)
_ODD_CASE = "\u0130\u0131\u017f"


def _plain_case(text: str) -> bool:
    """Whether lower() keeps text's offsets and shows each letter that a case-blind pattern reads as ASCII."""
    if text.isascii():
        return True
    for c in _ODD_CASE:
        if c in text:
            return False
    return True


def _anchors(lower: str, plain: bool, starts: tuple[str, ...]) -> list[int] | None:
    """Offsets for _finditer: where a case-blind pattern whose matches all begin with one of starts may match.

    None (try everywhere) unless plain (see _plain_case), as offsets are found in lower.
    """
    return _offsets(lower, starts) if plain else None


# Characters show() writes out: ASCII controls, variation selectors, Hangul fillers (letters that draw nothing),
# the combining grapheme joiner and the braille blank.
_FILLERS = frozenset({0x115F, 0x1160, 0x3164, 0xFFA0})  # Hangul fillers: letters that draw nothing
_ASCII_CONTROL = LazyRegex(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_ASCII_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])  # the same characters


def _has_ascii_control(text: str) -> bool:
    """Whether _ASCII_CONTROL matches in text, which must be ASCII: the bytes dropped in C, under half the cost."""
    data = text.encode("ascii")
    return len(data.translate(None, _ASCII_CONTROL_BYTES)) != len(data)


def _is_vs(cp: int) -> bool:
    return 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF


def show(text: str) -> str:
    """Text with every invisible or control character written as <U+XXXX>."""
    if text.isascii():
        return _ASCII_CONTROL.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)
    return "".join(f"<U+{ord(c):04X}>" if _hidden(c) else c for c in text)


def _hidden(c: str) -> bool:
    cat = unicodedata.category(c)
    return (cat in ("Cf", "Cc") and c not in "\n\t\r") or _is_vs(ord(c)) or ord(c) in _FILLERS or c in "\u034f\u2800"


def _quote(text: str, limit: int = 70) -> str:
    return repr(clip_folded(text, limit, show))
