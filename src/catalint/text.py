"""Small text helpers for the description rules: words, verbs, script detection."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any


class LazyRegex:
    """A regular expression compiled on first use: keeps start-up lean for the
    patterns that cheap pre-checks usually make unnecessary."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._args = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        # Called only for a name not yet on the instance: the method is kept there, so later
        # calls skip this hook (which costs more than the match on a short string).
        if name.startswith("__"):
            raise AttributeError(name)
        if self._compiled is None:
            self._compiled = re.compile(*self._args)
        value = getattr(self._compiled, name)
        self.__dict__[name] = value
        return value


MATCH_TRIES = 20  # places match_near() tries: a real description names a key word a few times


def match_near(starts: LazyRegex, pattern: LazyRegex, text: str) -> bool:
    """Whether pattern matches where one of the first MATCH_TRIES matches of starts begins.

    For a pattern that reads a window after a key word ("convert ... to X"): searching with it
    would try that window at every occurrence, which a text repeating the word makes slow; this
    tries a bounded number of occurrences, each found at C speed.
    """
    for tries, found in enumerate(starts.finditer(text)):
        if tries == MATCH_TRIES:
            return False
        if pattern.match(text, found.start()):
            return True
    return False


_WORD = re.compile(r"[a-z]+(?:'[a-z]+)*")  # on lower-cased text: "don't", "agent's"
_ALNUM_RUN = re.compile(r"[^0-9a-z]+")
_NOT_LETTER_OR_DIGIT = re.compile(r"[\W_]+")  # letters and digits of any script are kept

# Base forms of verbs that tool descriptions use to say what a tool does.
# Inflected forms (gets, listed, creating, queries...) are matched by stemming.
VERBS = frozenset(
    """
    access accept acknowledge activate add adjust aggregate alert allow analyse analyze annotate answer append apply
    approve archive ask assign associate attach audit authenticate authorize autocomplete back backup ban batch
    benchmark bind block book browse build bulk buy calculate call cancel capture cast change charge check checkout
    choose classify clean clear click clone close collect combine comment commit compare compile complete compose
    compress compute configure confirm connect convert copy count crawl create crop debug decline decode decrypt
    dedupe deduplicate define delete deploy deposit describe divide detach detect determine diff disable disconnect
    discover dismiss display do download drag draft draw drop duplicate edit embed emit enable encode encrypt
    enqueue ensure enter escalate enumerate estimate evaluate execute exit expand explain explore export extract
    fetch fill filter find finish fix flag flip flush follow force forecast fork format forward generate geocode
    geolocate get give go grant grep group guess handle hash help hide highlight hover identify import improve index
    indicate initialize inject insert inspect install invalidate invite invoke join kill label launch leave let link
    lint list load locate lock log login logout look lookup maintain make manage map mark match measure merge
    migrate modify monitor mount move multiply mute navigate normalize notify obtain open optimize order output
    overwrite paginate parse paste patch pause pay perform pick pin ping place plan play plot populate post power
    predict prepend press preview print process produce profile promote protect provide provision prune publish pull
    purge push put query queue rank rate read rebase reboot rebuild receive rasterize recommend record redact
    redirect refresh refund register reject relate release reload remove rename render renew reopen reorder replace
    reply report request reschedule resend reserve reset resize resolve restart restore resume retrieve retry return
    reveal review revert revoke rollback rotate round route run sample save scale scan schedule scrape screenshot
    scroll search select sell send serve set share show shut shutdown sign simulate skip sleep snapshot solve sort
    specify split stage star start stop store stream style submit subscribe subtract suggest sum summarise summarize
    suspend swap swipe switch sync synchronize tag take tap terminate test think toggle tokenize trace track
    transcribe transfer transform transition translate trigger trim truncate type unarchive unassign unconfirm undo
    uninstall unlink unlock unmute unpin unprotect unstar unsubscribe unzip update upgrade upload upsert use
    validate verify view visit visualize wait watch withdraw write zip
    """.split()
)

# Irregular past forms seen in descriptions.
_IRREGULAR = {
    "built": "build",
    "found": "find",
    "gave": "give",
    "given": "give",
    "got": "get",
    "made": "make",
    "ran": "run",
    "read": "read",
    "sent": "send",
    "set": "set",
    "shown": "show",
    "taken": "take",
    "took": "take",
    "wrote": "write",
    "written": "write",
    "done": "do",
    "does": "do",
    "gone": "go",
}


_ISE = re.compile(r"is(e|es|ed|ing)$")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


# A text longer than this is cut into pieces for the steps that would otherwise hold one
# object per word of it (a Python string is about 50 bytes before its first character).
PIECE = 1 << 16
_SPACE_RUN = re.compile(r"\s+")  # \s is str.isspace(), which str.split() splits at too


def lines_of(text: str) -> list[str]:
    """text's lines as JSON Lines and TOML end them: at LF, or CRLF. Not str.splitlines(), which also ends a line
    at U+2028, U+2029, U+0085 and others, which those formats allow inside a string or a comment (JavaScript's
    JSON.stringify writes them raw)."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def fold_space(text: str) -> str:
    """text with each run of white space as one space and none at either end: " ".join(text.split()),
    a piece at a time on a long text, so that no list of every word of it is made (a regular
    expression's sub() would make one too)."""
    if len(text) <= PIECE:
        return " ".join(text.split())
    return " ".join(filter(None, (" ".join(piece.split()) for piece in pieces(text))))


def pieces(text: str) -> Iterator[str]:
    """text in pieces of about PIECE characters, each cut just after white space, so no run of
    non-space characters (a word) is split; a run longer than PIECE stays whole."""
    start, end = 0, len(text)
    while end - start > PIECE:
        cut = last_space(text, start, start + PIECE)
        if cut < 0:  # one long run: up to the next white space
            cut = next_space(text, start + PIECE)
        yield text[start : cut + 1]
        start = cut + 1
    if start < end:
        yield text[start:]


def lower(text: str) -> str:
    """text.lower(), a piece at a time for a long text that is not ASCII (see _by_pieces); a short one
    without the extra call (this runs thousands of times a run)."""
    return text.lower() if len(text) <= PIECE else _by_pieces(text, str.lower)


def casefold(text: str) -> str:
    """text.casefold(), as lower()."""
    return text.casefold() if len(text) <= PIECE else _by_pieces(text, str.casefold)


def _by_pieces(text: str, change: Callable[[str], str]) -> str:
    """change(text) for a case change: CPython changes the case of text that is not ASCII through a
    buffer of 12 bytes a character (a 7-million-character one took 97 MB each time), so a long one is
    changed a piece at a time. A cut after white space changes nothing: only a final sigma looks at its
    neighbours, and white space ends its word."""
    if text.isascii():
        return change(text)
    return "".join([change(piece) for piece in pieces(text)])


def word_count(text: str) -> int:
    """len(text.split()), a piece at a time on a long text (no list of all its words)."""
    if len(text) <= PIECE:
        return len(text.split())
    return sum(len(piece.split()) for piece in pieces(text))


def next_space(text: str, start: int) -> int:
    """Offset of the first white space character at or after start, or len(text)."""
    found = _SPACE_RUN.search(text, start)
    return found.start() if found else len(text)


def last_space(text: str, start: int, end: int) -> int:
    """Offset of the last white space character in text[start:end], or -1."""
    for i in range(end - 1, max(start, end - 256) - 1, -1):  # prose has a space every few characters
        if text[i].isspace():
            return i
    found = -1
    for found_match in _SPACE_RUN.finditer(text, start, end):
        found = found_match.end() - 1
    return found


@lru_cache(maxsize=8192)
def verb_base(word: str) -> str | None:
    """The base verb a word is a form of, or None."""
    word = word.lower()
    if word in VERBS:
        return word
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    candidates: list[str] = []
    if word.endswith("ies"):
        candidates.append(word[:-3] + "y")
    if word.endswith("es"):
        candidates.append(word[:-2])
    if word.endswith("s"):
        candidates.append(word[:-1])
    for suffix in ("ed", "ing"):
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            candidates += [stem, stem + "e"]
            if len(stem) > 2 and stem[-1] == stem[-2]:
                candidates.append(stem[:-1])  # stopped -> stop, running -> run
            if suffix == "ed" and stem.endswith("i"):
                candidates.append(stem[:-1] + "y")  # copied -> copy
    for candidate in candidates:
        if candidate in VERBS:
            return candidate
    if "is" in word and (spelt := _ISE.sub(r"iz\1", word)) != word:
        return verb_base(spelt)  # British spelling: "normalises" -> normalize
    if word.endswith("up") and len(word) > 4:
        return verb_base(word[:-2])  # "looksup", "setup", "cleanup"
    return None


def _inflections(base: str) -> set[str]:
    forms = {base, base + "s", base + "es", base + "ed", base + "ing", base + base[-1] + "ed", base + base[-1] + "ing"}
    if base.endswith("e"):
        forms |= {base + "d", base[:-1] + "ing"}
    if base.endswith("y"):
        forms |= {base[:-1] + "ies", base[:-1] + "ied"}
    return forms


@lru_cache(maxsize=1)
def verb_forms() -> frozenset[str]:
    """Every inflected form of VERBS, so most descriptions need one set test."""
    forms: set[str] = set(_IRREGULAR)
    for base in VERBS:
        forms |= _inflections(base)
        if base.endswith("ize"):
            forms |= _inflections(base[:-3] + "ise")  # normalise, visualises, tokenising
    return frozenset(forms)


@lru_cache(maxsize=1024)
def has_verb(text: str) -> bool:
    return any(map(_has_verb, pieces(text))) if len(text) > PIECE else _has_verb(text)


def _has_verb(text: str) -> bool:
    found = set(words(text))
    if not found.isdisjoint(verb_forms()):
        return True
    return any(verb_base(w) for w in found if w.endswith("up"))


# What carries no English in a mostly CJK text: a bracketed tag ("[application delivery]"), code,
# a URL, an identifier (createRoute, env_id, v2).
_NOT_PROSE = re.compile(
    r"\[[^\]\n]{0,60}\]|`[^`\n]*`|https?://\S+|[A-Za-z0-9]*(?:_|\d|[a-z][A-Z])[A-Za-z0-9_]*|[A-Z]{2,}[a-z]+[A-Za-z]*"
)
WIDE_WEIGHT = 3  # a wide (CJK) character carries about a word: '获取所有菜谱' (6) says 'Get all recipes' (15)


# Characters that would start a new line, act on a terminal, or reorder what a reader sees when a catalog's text is
# printed: C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the bidirectional controls.
_UNPRINTABLE = {c: f"\\x{c:02x}" for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)]}
_UNPRINTABLE.update({ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"})
_UNPRINTABLE.update(
    {c: f"\\u{c:04x}" for c in (0x061C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A))}
)
# Log commands read anywhere in a line: GitHub's runner reads ##[error]..., the Azure Pipelines agent the first
# ##vso[...] (case-sensitive). Whoever writes text into a line escapes the second '#' of each (here \x23).
LOG_COMMAND_OPENERS = ("##[", "##vso[")
_COMMAND_OPENERS = tuple((o, "#\\x23" + o[2:]) for o in LOG_COMMAND_OPENERS)


def inline(text: str) -> str:
    """Untrusted text made safe to print inside a line (not at its start; see one_line). Controls (C0, C1, DEL),
    line separators and bidirectional controls are written as escapes (\\n, \\x1b, \\u202e): the text cannot
    end the line, act on a terminal or reorder what is around it. Nor can it open a log command that a CI system
    reads anywhere in a line: '##[' (GitHub) becomes #\\x23[, '##vso[' (Azure Pipelines) #\\x23vso[. Escaping
    twice changes nothing."""
    if not text.isprintable():
        text = text.translate(_UNPRINTABLE)
    if "##" in text:
        for opener, escaped in _COMMAND_OPENERS:
            text = text.replace(opener, escaped)
    return text


def one_line(text: str) -> str:
    """Untrusted text (a file or tool name, a message quoting a catalog) made safe to print as, or in, one line of
    a report or a log: inline(text), and it cannot open a GitHub workflow command at the start of a line either: a
    leading '::' (the runner skips white space first) becomes \\x3a:. Other text is unchanged; escaping twice
    changes nothing."""
    text = inline(text)
    if text[:1] == ":" or text[:1].isspace():
        start = len(text) - len(text.lstrip())
        if text.startswith("::", start):
            text = f"{text[:start]}\\x3a{text[start + 1 :]}"
    return text


NAME_COLUMN = 60  # a text table's name column: a longer name is clipped there (it is whole in findings and JSON)


def clip(text: str, width: int) -> str:
    """text, or its first width - 1 characters and an ellipsis: a quote or a table column stays that
    wide whatever the input."""
    return text if len(text) <= width else text[: width - 1] + "…"


def clip_folded(text: str, width: int, shown: Callable[[str], str] | None = None) -> str:
    """clip(fold_space(text), width), of shown(text) when given (a function that maps each character
    on its own), reading only as much of text as that needs: a quote from a long text costs little."""
    size = 2 * width + 16
    while True:
        head = text[:size]
        folded = " ".join((shown(head) if shown else head).split())  # a prefix of the whole text's
        if len(folded) > width or size >= len(text):
            return clip(folded, width)
        size *= 4


def weighted_length(text: str) -> int:
    """Length in Latin-letter equivalents: a wide (CJK) letter counts WIDE_WEIGHT (an emoji, wide too,
    is no word)."""
    if text.isascii():
        return len(text)
    wide = sum(n for c, n in Counter(text).items() if _wide_letter(c))  # each distinct character looked up once
    return len(text) + (WIDE_WEIGHT - 1) * wide


def _wide_letter(c: str) -> bool:
    return unicodedata.east_asian_width(c) in "WF" and unicodedata.category(c).startswith("L")


@lru_cache(maxsize=1024)
def mostly_latin(text: str) -> bool:
    """True when most of the prose is in ASCII letters: the English heuristics can judge the text.
    A wide (CJK) character counts as WIDE_WEIGHT letters, and tags, code, URLs and identifiers
    between the CJK words are not English prose."""
    if text.isascii():
        return True
    # each distinct character looked up once (counted in C)
    letters = [(ch, n) for ch, n in Counter(_NOT_PROSE.sub(" ", text)).items() if ch.isalpha()]
    other = sum((WIDE_WEIGHT if _wide_letter(ch) else 1) * n for ch, n in letters if not ch.isascii())
    return sum(n for ch, n in letters if ch.isascii()) >= other


# Function words that tell English prose from other languages written in Latin letters ("Ruft das
# aktuelle Wetter für eine Stadt ab.", "Obtiene el clima actual de una ciudad."). None is an English word.
_ENGLISH_WORDS = frozenset("the of to for and or in on with by from is are this that it its as at an".split())
_OTHER_WORDS = frozenset(
    """
    der das und für ein eine einen einer mit von zu zum zur dem ist auf nicht oder wird werden
    el los las del de para una uno con por lo se
    le les du pour avec dans sur au aux ou qui est une des
    di della delle degli che nel il gli
    um uma com não dos em
    """.split()
)
_LETTERS = re.compile(r"[^\W\d_]+")


def foreign_latin(text: str) -> bool:
    """Whether Latin-letter prose reads as another language than English: more of its function words
    are other languages' than English's, two at least. A long text is read a piece at a time (no word
    crosses a cut)."""
    parts = (text,) if len(text) <= PIECE else None  # None: pieces(text), made anew for each pass
    if all(_OTHER_WORDS.isdisjoint(part.lower().split()) for part in parts or pieces(text)):
        return False  # English text mostly has none, and this test runs in C
    other = english = 0
    for part in parts or pieces(text):
        found = _LETTERS.findall(part.lower())
        other += sum(1 for w in found if w in _OTHER_WORDS)
        english += sum(1 for w in found if w in _ENGLISH_WORDS)
    return other >= 2 and other > english


@lru_cache(maxsize=4096)
def normalize(text: str) -> str:
    """Lower-case alphanumeric words joined by single spaces."""
    return _ALNUM_RUN.sub(" ", text.lower()).strip()


def squash(text: str) -> str:
    """Lower-case letters and digits only, of any script: 'Lookup city-weather.' -> 'lookupcityweather',
    '查询天气。' -> '查询天气'."""
    return _NOT_LETTER_OR_DIGIT.sub("", text.lower())


def mentions(text: str, value: str) -> bool:
    """Whether value appears in text as a whole word sequence, ignoring case and punctuation."""
    needle = normalize(value)
    if not needle:
        return False
    return f" {needle} " in f" {normalize(text)} "


# Wording that says what a tool gives back (DESC-010, TDQS return-format signal): a return word;
# a data format it comes in ("as JSON", "in a PNG image"); a list of what it holds ("details
# including: ...", "including a, b and c"); what it shows or provides ("Provides a summary of ...");
# or what a conversion turns its input into ("Convert an address to coordinates").
# All but the first are tried only in a text holding their key words (substring tests run in C).
# The nouns output, result and response count only as this tool's: not under "Error Responses:",
# an earlier call's ("the previous response's cursor"), the agent's ("start your response with"), an HTTP
# exchange ("wait for an HTTP response"), another tool's ("use read_output() to get responses"), the
# agent's final answer ("Provide a single answer as the final output"), a
# consequence ("will result in an error") or a word naming a setting ("result limit", "output directory",
# "page number for results").
RETURN_WORDS = LazyRegex(
    r"\b(?:return(?:s|ed|ing)?|responds|yields?|produces?|gives back|sends back|com(?:es|e) back|gets? back"
    r"|echo(?:es|ed)? back"
    r"|(?=[orOR])(?!(?<=error\s)responses?\s*:)(?<!previous\s)(?<!preceding\s)(?<!prior\s)(?<!earlier\s)(?<!your\s)"
    r"(?<!final\s)"
    r"(?<!http\s)(?<!\)\sto\sget\s)(?<!number\sof\s)(?<!number\sfor\s)(?<!page\sfor\s)"
    r"(?:outputs?|responses?|results?(?<!will\sresult)(?<!\bmay\sresult)(?<!\bcan\sresult)(?<!could\sresult)"
    r"(?<!would\sresult)(?<!might\sresult))"
    r"(?!\s+(?:limits?|count|dir|directory|path|folder|location)\b))\b",
    re.IGNORECASE,
)
# What the agent is to deliver is its own answer: "helps you deliver well-reasoned results", a list item
# "5. Deliver comprehensive results" (biomcp's think). The bare verb after a clause start, a list mark or
# "you"; "Delivers results in 100 ms" is the tool's.
_AGENT_DELIVERS = LazyRegex(
    r"(?:^|[.!?:]\s|\n|\byou\s|(?:^|\n)[ \t]*(?:\d+[.)]|[-*+\u2022])\s)[ \t]*deliver\s+(?:[\w,'-]+\s+){0,4}$",
    re.IGNORECASE,
)
_RETURN_KEYS = ("return", "respon", "yield", "produce", "back", "output", "result")
_FORMATS = ("json", "markdown", "csv", "xml", "yaml", "html", "png", "jpg", "jpeg", "svg", "base64")
_IN_FORMAT = LazyRegex(
    r"\b(?:as|in)\s+(?:an?\s+)?(?:JSON|markdown|CSV|XML|YAML|HTML|PNG|JPE?G|SVG|base64)\b", re.IGNORECASE
)
_FIELD_LIST = LazyRegex(r"\b(?:including|includes|containing|contains)\s*:", re.IGNORECASE)
# "a, b, and c", "a and b"; an item may carry a short bracketed note ("anon keys (JWT-based) and
# publishable keys"), and a clause may follow "and" ("their type and, for select fields, the options").
_ITEM = r"[\w -]{1,40}(?:\([^()\n]{1,30}\))?"
_LISTED = rf"{_ITEM}(?:,\s*{_ITEM})*,?\s+and(?:\s+|\s*,\s*)\w"
# The same list with no colon, in a description that starts with a read verb (after "Delete" or
# "Manage", "including a, b and c" is what is affected, not what comes back): "Get a place's details
# including contact details, reviews, and hours", "Get a paper including abstract and formats", "List
# categories with their id and name", "Get the performance of a campaign: opens, clicks and ...".
_READ_START = LazyRegex(
    r"\s*(?:get|list|fetch|retrieve|describe|show|search|find|read|query|view|look\s+up)(?:s|es)?\b", re.IGNORECASE
)
# Fields given as a sample of what a read returns, after a noun for it ("Retrieves information about
# a summoner, such as their rank, win rate, and match history", "..., such as a, b, c, etc."); not
# after any noun ("Fetch annotations using filters such as dashboard UID, time range and tags").
_SAMPLED = (
    # the list is of what the noun names, not of a place it comes from ("data from sources such as S3")
    r"\b(?:information|info|details|data|metadata|statistics|stats)\b(?:(?!\bfrom\b)[^.\n]){0,60}?\bsuch\s+as\s+"
    r"(?:" + _LISTED + r"|[\w -]{1,40}(?:,\s*[\w -]{1,40})+,?\s*etc\b)"
)
# A sentence that says what a read's result holds: "Gets details for an organization. Includes
# subscription plan."
_INCLUDES = LazyRegex(r"(?:[.!?]\s|\n)\s*(?:includes|contains)\s+\w", re.IGNORECASE)
_FIELDS_NAMED = LazyRegex(
    rf"\b(?:including|containing)\s+{_LISTED}|\bwith\s+(?:its|their)\s+{_LISTED}|{_SAMPLED}"
    rf"|^[^.:\n]{{0,80}}:\s*[\w -]{{1,40}},\s*{_LISTED}",
    re.IGNORECASE,
)
# What is shown or provided is the result: "Provides a summary of revenue", "A progress table will be
# displayed", "Shows the contents of a commit", "Shows changes that are staged", "... as an image".
# A sentence that opens with the third person says so whatever the object ("Get transactions.
# Shows swaps, adds, removes."), unless it is a means ("Provides access to ..."); the imperative
# "Provide direct links to the user" is an instruction to the agent.
_SHOWN = LazyRegex(
    r"\b(?:provides?|shows?|displays?)\s+(?:(?:a|an|the|its|their)\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?:lists?|summary|overviews?|details|information|snapshots?|states?|contents?|tables?|status"
    r"|reports?|diffs?|logs?|changes|differences|comments|history)\b"
    r"|(?:^|[.!?]\s|\n)[ \t]*(?:[-*+\u2022][ \t]+)?(?:shows|provides|displays)\s+"
    r"(?!(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,2}?(?:ways?|access"
    r"|ability|support|means|tools?|functionality|functions?|interfaces?|options?|capabilit(?:y|ies))\b)\w"
    r"|\bwill\s+be\s+(?:displayed|shown|listed|printed)\b|\bas\s+an?\s+(?:image|screenshot)\b",
    re.IGNORECASE,
)
# A conversion names its result by its target: "Convert an address to coordinates", "Convert power
# between units", "Translate text between English and French" (two names: not "takes between 5 and 30
# seconds"), "Rounds a number down to the nearest integer" (unit-converter, time, math-mcp).
_CONVERSIONS = ("convert", "translate", "transform", "encode", "decode", "round")
_CONVERSION = LazyRegex(r"\b(?:convert|translate|transform|encode|decode|round)s?\b", re.IGNORECASE)
_CONVERTS_TO = LazyRegex(
    r"(?:convert|translate|transform|encode|decode)s?\b[^.\n]{1,80}?"
    r"(?:\b(?:to|into)\s+\w|\bbetween\s+(?:(?:[\w-]+\s+){0,2}?(?:units|time\s*zones|encodings|formats|currencies"
    r"|languages|scales|bases)\b|(?-i:[A-Z])[\w-]*\s+and\s+(?-i:[A-Z])))"
    r"|rounds?\s+(?:[\w-]+\s+){0,3}?to\s+(?:the\s+nearest|\w+\s+decimal\s+places?)\b",
    re.IGNORECASE,
)


def says_what_returns(text: str) -> bool:
    """Whether a description says anything about what the tool gives back."""
    lowered = lower(text)
    # An ASCII text without any of these holds none of RETURN_WORDS (a few substring tests in C are much
    # cheaper than the pattern); in other text, ignoring case also matches the Kelvin sign and a long s.
    if (not text.isascii() or any(word in lowered for word in _RETURN_KEYS)) and any(
        not _AGENT_DELIVERS.search(text, max(0, m.start() - 80), m.start()) for m in RETURN_WORDS.finditer(text)
    ):
        return True
    if any(word in lowered for word in _FORMATS) and _IN_FORMAT.search(text):
        return True
    if ":" in text and ("includ" in lowered or "contain" in lowered) and _FIELD_LIST.search(text):
        return True
    if (
        (" and " in lowered or " and," in lowered or " etc" in lowered)
        and _READ_START.match(text)
        and _FIELDS_NAMED.search(text)
    ):
        return True
    if ("includes " in lowered or "contains " in lowered) and _READ_START.match(text) and _INCLUDES.search(text):
        return True
    if any(word in lowered for word in ("provide", "show", "display", "will be", " as a")) and _SHOWN.search(text):
        return True
    return any(word in lowered for word in _CONVERSIONS) and match_near(_CONVERSION, _CONVERTS_TO, text)


def repeats_name(text: str, name: str) -> bool:
    """Whether a (stripped) description only restates the tool name (DESC-003, TDQS presence)."""
    if not text or len(text) > 2 * len(name) + 8:
        return False
    squashed = squash(text)
    # Text with no letter or digit (emoji, punctuation) repeats the name only when it is the name.
    return squashed == squash(name) if squashed else text.lower() == name.strip().lower()
