"""TDQS: a deterministic 0..1 tool-description quality score.

Every weight, threshold and formula lives in this module; `catalint rule TDQS`
prints EXPLANATION, which is generated from the same constants.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from catalint.arguments import iter_arguments
from catalint.model import Tool
from catalint.text import (
    WIDE_WEIGHT,
    LazyRegex,
    one_line,
    repeats_name,
    says_what_returns,
    squash,
    weighted_length,
)

# (key, label, weight); the weights sum to 1.
HEURISTICS: tuple[tuple[str, str, float], ...] = (
    ("presence", "description presence", 0.25),
    ("length", "description length", 0.15),
    ("parameters", "parameter documentation", 0.20),
    ("conciseness", "conciseness", 0.10),
    ("returns", "return-format signal", 0.15),
    ("annotations", "annotation signal", 0.15),
)
WEIGHTS = {key: weight for key, _, weight in HEURISTICS}

NO_DESCRIPTION_CAP = 0.20  # the most a tool without a usable description can score
SHORT = 20  # below this many characters a description is a label, not a description
GOOD_FROM = 60  # full length marks from here ...
GOOD_TO = 500  # ... up to here (DESC-002's limit)
LONG_FLOOR_AT = 1500  # past GOOD_TO the length mark falls linearly to LONG_FLOOR here
LONG_FLOOR = 0.4
REQUIRED_WEIGHT = 2.0  # a required argument counts twice an optional one
MIN_ARGUMENT_DESCRIPTION = 8  # characters: shorter ones ("id", "the x") are not documentation
FILLER_PENALTY = 0.1  # per distinct filler phrase, up to FILLER_MAX
FILLER_MAX = 0.3
REPEAT_PENALTY = 0.3  # a sentence said twice, or a word sequence said three times
REPEAT_MIN_TEXT = 60  # characters: shorter descriptions are not checked for repetition
REPEAT_MIN_SENTENCE = 15  # characters: a shorter sentence said twice ("See below.") is no padding
REPEAT_MAX_WORDS = 50_000  # a word sequence said three times is looked for in the first 50,000 words (memory)
REPEAT_MAX_CHARS = 1_000_000  # repetition is looked for in the first 1,000,000 characters (memory)
WALL_AT = 500  # characters without a paragraph break or list: a wall of text ...
WALL_PENALTY = 0.2
WALL_HEAVY_AT = 1000  # ... and a heavier one
WALL_HEAVY_PENALTY = 0.4
GRADES = ((0.9, "A"), (0.8, "B"), (0.7, "C"), (0.6, "D"))

FILLER = (
    "this tool",
    "this function",
    "this endpoint",
    "allows you to",
    "enables you to",
    "lets you",
    "is used to",
    "can be used to",
    "in order to",
    "please note",
    "note that",
    "it is important to",
    "simply",
    "basically",
    "very",
    "really",
    "and so on",
    "etc.",
)
_FILLER = LazyRegex(r"(?<![\w])(?:" + "|".join(re.escape(f) for f in FILLER) + r")(?![\w])", re.IGNORECASE)
_SENTENCE = LazyRegex(r"(?<=[.!?])\s+|\n+")
# Where _SENTENCE splits, taking the . ! or ? before a space too: the same cuts, found faster.
_SENTENCE_END = LazyRegex(r"[.!?\n](?:(?<=\n)\n*|\s+)")
_NOT_WORD_OR_BREAK = LazyRegex(r"[^a-z0-9\n]+")
_ASCII_SPACED = bytes(c if chr(c) in "abcdefghijklmnopqrstuvwxyz0123456789\n" else 32 for c in range(256))
_BLOCK_BREAK = LazyRegex(r"\n\s*\n|\n\s*[-*•]|\n\s*\d+[.)]")
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


@dataclass
class Part:
    key: str
    value: float  # 0..1
    notes: list[str] = field(default_factory=list)  # what lowered it


@dataclass
class Score:
    score: float
    parts: list[Part]
    capped: bool = False

    @property
    def grade(self) -> str:
        return grade(self.score)

    def as_dict(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "grade": self.grade,
            "heuristics": {p.key: p.value for p in self.parts},
            "lowered_by": {p.key: p.notes for p in self.parts if p.notes},
            "capped": self.capped,
        }


def grade(score: float) -> str:
    return next((letter for floor, letter in GRADES if score >= floor), "F")


def mean_score(scores: list[float]) -> float | None:
    """The mean of some scores, rounded to four places as every report and gate gives it; None for none."""
    return round(sum(scores) / len(scores), 4) if scores else None


def shown(score: float) -> str:
    """A score to two decimals, or to four where two would round it up onto a tenth, where the grades and the
    default gate's bounds lie (0.6997 is a D and fails mean_score >= 0.70: it is not shown as 0.70)."""
    text = f"{score:.2f}"
    return f"{score:.4f}" if int(float(text) * 10 + 1e-9) > int(score * 10 + 1e-9) else text


def _round(value: float) -> float:
    return round(value + 0.0, 4)


def _text(tool: Tool) -> str:
    raw = tool.description
    return raw.strip() if isinstance(raw, str) else ""


def presence(tool: Tool, text: str) -> Part:
    if not text:
        return Part("presence", 0.0, ["no description"])
    if repeats_name(text, tool.name):
        return Part("presence", 0.0, ["the description only repeats the tool name"])
    return Part("presence", 1.0)


def length(text: str) -> Part:
    n = weighted_length(text)
    size = f"{n} characters" + (f" (a wide character counted as {WIDE_WEIGHT})" if n != len(text) else "")
    if n == 0:
        return Part("length", 0.0, ["empty"])
    if n < SHORT:
        return Part("length", 0.5 * n / SHORT, [f"{size}, under {SHORT}"])
    if n < GOOD_FROM:
        return Part("length", 0.5 + 0.5 * (n - SHORT) / (GOOD_FROM - SHORT), [f"{size}, under {GOOD_FROM}"])
    if n <= GOOD_TO:
        return Part("length", 1.0)
    over = min(n, LONG_FLOOR_AT) - GOOD_TO
    value = 1.0 - (1.0 - LONG_FLOOR) * over / (LONG_FLOOR_AT - GOOD_TO)
    return Part("length", value, [f"{size}, over {GOOD_TO}"])


def parameters(tool: Tool) -> Part:
    args = iter_arguments(tool)
    if not args:
        return Part("parameters", 1.0)
    total = documented = 0.0
    missing: list[str] = []
    for arg in args:
        weight = REQUIRED_WEIGHT if arg.required else 1.0
        total += weight
        text = arg.description  # None when there is none
        if text is None and arg.by_fields:  # a wrapper whose fields say it all (as DESC-006)
            documented += weight
            continue
        if text is not None:
            text = text.strip()
            last = arg.name.rsplit(".", 1)[-1].removesuffix("[]")
            if weighted_length(text) >= MIN_ARGUMENT_DESCRIPTION and not _same_alnum(text, last):
                documented += weight
                continue
        missing.append(arg.name + (" (required)" if arg.required else ""))
    notes = []
    if missing:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        notes.append(f"undocumented: {shown}")
    return Part("parameters", documented / total, notes)


# For ASCII text, squash() is: drop all but letters and digits, lower-case the rest.
_ASCII_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
_ASCII_NOT_ALNUM = bytes(b for b in range(256) if not chr(b).isascii() or not chr(b).isalnum())


def _same_alnum(text: str, name: str) -> bool:
    """squash(text) == squash(name); through bytes, many times cheaper, when both are ASCII."""
    if text.isascii() and name.isascii():
        return text.encode().translate(_ASCII_LOWER, _ASCII_NOT_ALNUM) == name.encode().translate(
            _ASCII_LOWER, _ASCII_NOT_ALNUM
        )
    return squash(text) == squash(name)


def conciseness(text: str) -> Part:
    if not text:
        return Part("conciseness", 0.0, ["no description"])
    value, notes = 1.0, []
    fillers = sorted({m.group(0).lower() for m in _FILLER.finditer(text)}) if _may_have_filler(text) else []
    if fillers:
        value -= min(FILLER_MAX, FILLER_PENALTY * len(fillers))
        notes.append("filler: " + ", ".join(repr(f) for f in fillers))
    repeated = _repetition(text)
    if repeated:
        value -= REPEAT_PENALTY
        notes.append(f"repeats itself: {repeated!r}")
    block = _longest_block(text)
    if block > WALL_HEAVY_AT:
        value -= WALL_HEAVY_PENALTY
        notes.append(f"a {block}-character block without a break")
    elif block > WALL_AT:
        value -= WALL_PENALTY
        notes.append(f"a {block}-character block without a break")
    return Part("conciseness", max(0.0, value), notes)


def _longest_block(text: str) -> int:
    """Characters in the longest stretch of text between paragraph breaks or list items."""
    if "\n" not in text:  # every break starts at a newline
        return len(text)
    longest = end = 0
    for found in _BLOCK_BREAK.finditer(text):  # not split(): no string for each block of a long text
        longest = max(longest, found.start() - end)
        end = found.end()
    return max(longest, len(text) - end)


def _may_have_filler(text: str) -> bool:
    """False when no filler can match: for ASCII text, ignoring case is lower-casing, and a plain
    substring test is many times cheaper than the pattern. Other text always goes to the pattern."""
    if not text.isascii():
        return True
    lower = text.lower()
    return any(map(lower.__contains__, FILLER))


def _repetition(text: str) -> str | None:
    """A sentence said twice, or a four-word sequence said three times."""
    if len(text) < REPEAT_MIN_TEXT:
        return None
    cut = len(text) > REPEAT_MAX_CHARS
    if cut:
        text = text[:REPEAT_MAX_CHARS]
    # Lower-casing keeps every . ! ? and space and makes none, so the sentences of the lowered
    # text match those of the text one for one; each becomes its words, and one newline
    # marks where a sentence ends.
    lowered = _SENTENCE_END.sub("\n", text.lower())
    if lowered.isascii():  # the same words, split at C speed: all but a-z, 0-9 and newlines become spaces
        spaced = lowered.encode().translate(_ASCII_SPACED).decode()
    else:
        spaced = _NOT_WORD_OR_BREAK.sub(" ", lowered)  # a string, not a list of every word
    keys = [" ".join(sentence.split()) for sentence in spaced.split("\n")]
    words = spaced.split(maxsplit=REPEAT_MAX_WORDS)[:REPEAT_MAX_WORDS]
    if cut:  # the last sentence, and the last word if the cut came first, may stop short
        keys.pop()
        if len(words) < REPEAT_MAX_WORDS and words:
            words.pop()
    if len(set(keys)) < len(keys):  # some sentence key comes twice
        seen: set[str] = set()
        for i, key in enumerate(keys):
            if len(key) >= REPEAT_MIN_SENTENCE and key in seen:
                return _SENTENCE.split(text)[i].strip()[:60]
            seen.add(key)
    # A sequence said three times needs its first word said three times: two repeats at least.
    if len(words) < 6 or len(words) - len(set(words)) < 2:
        return None
    grams = Counter(zip(words, words[1:], words[2:], words[3:], strict=False))
    if max(grams.values()) < 3:
        return None  # the common case, counted at C speed; the loop below names the first to reach 3
    counts: dict[tuple[str, ...], int] = {}
    for i in range(len(words) - 3):
        gram = tuple(words[i : i + 4])
        counts[gram] = counts.get(gram, 0) + 1
        if counts[gram] == 3:
            return " ".join(gram)
    return None


def says_returns(tool: Tool) -> bool:
    """says_what_returns of the tool's trimmed description, found once per tool: DESC-010 asks too."""
    cached = tool.cache.get("says_returns")
    if cached is None:
        cached = tool.cache["says_returns"] = says_what_returns(_text(tool))
    return cached


# What comes back, in Chinese and Japanese: return(s), result, output, return value.
_CJK_RETURNS = ("返回", "返す", "返し", "返却", "戻り値", "结果", "結果", "输出", "出力")


def returns(tool: Tool, text: str) -> Part:
    if isinstance(tool.raw.get("outputSchema"), dict):
        return Part("returns", 1.0)
    if text and says_returns(tool):
        return Part("returns", 1.0)
    if text and not text.isascii() and any(word in text for word in _CJK_RETURNS):
        return Part("returns", 1.0)
    return Part("returns", 0.0, ["neither an outputSchema nor a word on what comes back"])


def annotations(tool: Tool) -> Part:
    ann = tool.raw.get("annotations")
    if not isinstance(ann, dict):
        return Part("annotations", 0.0, ["no annotations object"])
    bad = [h for h in HINTS if h in ann and not isinstance(ann[h], bool)]
    if bad:
        return Part("annotations", 0.25, ["non-boolean " + ", ".join(bad)])
    valid = [h for h in HINTS if isinstance(ann.get(h), bool)]
    if not valid:
        return Part("annotations", 0.5, ["an annotations object without hints"])
    read_only = ann.get("readOnlyHint")
    if read_only is True or (read_only is False and isinstance(ann.get("destructiveHint"), bool)):
        return Part("annotations", 1.0)
    what = "no readOnlyHint" if read_only is None else "readOnlyHint false without destructiveHint"
    return Part("annotations", 0.75, [what])


def score(tool: Tool) -> Score:
    """The tool's TDQS, cached on the tool."""
    cached = tool.cache.get("tdqs")
    if cached is not None:
        return cached
    text = _text(tool)
    parts = [
        presence(tool, text),
        length(text),
        parameters(tool),
        conciseness(text),
        returns(tool, text),
        annotations(tool),
    ]
    for part in parts:
        part.value = _round(part.value)
    total = sum(WEIGHTS[p.key] * p.value for p in parts)
    capped = parts[0].value == 0.0 and total > NO_DESCRIPTION_CAP
    result = Score(_round(min(total, NO_DESCRIPTION_CAP) if capped else total), parts, capped)
    tool.cache["tdqs"] = result
    return result


def explain(tool: Tool) -> str:
    """How a tool's score was reached, heuristic by heuristic."""
    s = score(tool)
    lines = [f"{one_line(tool.name)}: TDQS {shown(s.score)} (grade {s.grade})", ""]
    lines.append(f"  {'heuristic':<25} {'value':>5}  {'weight':>6}  {'points':>6}  what lowered it")
    for part in s.parts:
        label = next(lbl for key, lbl, _ in HEURISTICS if key == part.key)
        points = WEIGHTS[part.key] * part.value
        why = one_line("; ".join(part.notes)) or "-"
        lines.append(f"  {label:<25} {part.value:>5.2f}  {WEIGHTS[part.key]:>6.2f}  {points:>6.3f}  {why}")
    weighted = sum(WEIGHTS[p.key] * p.value for p in s.parts)
    lines.append(f"  {'weighted sum':<25} {'':>5}  {'':>6}  {weighted:>6.3f}")
    if s.capped:
        lines.append(f"  capped at {NO_DESCRIPTION_CAP:.2f}: without a usable description the rest cannot count")
    return "\n".join(lines) + "\n"


def _wrap(text: str) -> str:
    import textwrap

    return textwrap.fill(text, width=92, initial_indent=" " * 23, subsequent_indent=" " * 23)


EXPLANATION = f"""TDQS (tool description quality score)
======================================
A deterministic 0..1 score per tool: the weighted mean of six heuristics, each
0..1, rounded to four decimals. The catalog's figures are min_score (the worst
tool) and mean_score; the letter grade is A >= 0.90, B >= 0.80, C >= 0.70,
D >= 0.60, F below. The same input gives the same score everywhere.

Heuristics and weights:
  presence       {WEIGHTS["presence"]:.2f}  1 when the tool has a non-blank description that is more than its
                       name restated (DESC-003's test); else 0.
  length         {WEIGHTS["length"]:.2f}  n = characters of the trimmed description, a wide (CJK) character
                       counted as {WIDE_WEIGHT} (it carries about a word). 0 when empty;
                       0.5*n/{SHORT} under {SHORT}; rising from 0.5 to 1 between {SHORT} and {GOOD_FROM};
                       1 from {GOOD_FROM} to {GOOD_TO}; falling linearly to {LONG_FLOOR} at {LONG_FLOOR_AT} and
                       staying there.
  parameters     {WEIGHTS["parameters"]:.2f}  share of arguments (nested ones included) whose description has
                       at least {MIN_ARGUMENT_DESCRIPTION} characters (counted as for length) and is more than
                       the argument name; a required argument weighs {REQUIRED_WEIGHT:g}, an optional one 1.
                       An object whose every field is described counts as described
                       (as for DESC-006). 1 when there are no arguments.
  conciseness    {WEIGHTS["conciseness"]:.2f}  1 minus {FILLER_PENALTY} per filler phrase (once each), max {FILLER_MAX}:
{_wrap(", ".join(FILLER) + ";")}
                       minus {REPEAT_PENALTY} when a sentence of {REPEAT_MIN_SENTENCE} characters or more (its
                       words, lower-cased, one space apart) is said twice or a four-word
                       sequence three times (checked from {REPEAT_MIN_TEXT} characters, in the first
                       {REPEAT_MAX_CHARS:,}; sequences in the first {REPEAT_MAX_WORDS:,} words), minus
                       {WALL_PENALTY} for a block over {WALL_AT} characters without a paragraph break
                       or list ({WALL_HEAVY_PENALTY} over {WALL_HEAVY_AT}); never below 0; 0 when there is
                       no description.
  returns        {WEIGHTS["returns"]:.2f}  1 when the tool declares an outputSchema object or its description
                       says what comes back (DESC-010's words: returns, output, result,
                       response, yields, produces, ...; in Chinese or Japanese 返回, 结果,
                       输出, 戻り値, 出力, ...); else 0.
  annotations    {WEIGHTS["annotations"]:.2f}  0 without an annotations object; 0.25 when a hint is not a boolean;
                       0.5 for an object with no hints; 0.75 with boolean hints but no
                       readOnlyHint (or readOnlyHint false without destructiveHint); 1 when
                       readOnlyHint is true, or false with a boolean destructiveHint.

Cap: a tool whose presence is 0 scores at most {NO_DESCRIPTION_CAP:.2f}, whatever the rest: agents read
the schema and annotations through the description, and a score that rewarded
them without one would rank a nameless tool above a described one.

Why these signals: Hasan et al. ("MCP Tool Descriptions Are Smelly!",
arXiv:2602.14878) found purpose, parameter explanation and length/completeness
among the components agents rely on, and that 97.1% of descriptions carry a smell;
Wang et al. (arXiv:2602.18914) measured an 11.6-point rise in selection when the
functionality was described. Return format and annotations are the MCP
specification's own channels (outputSchema, readOnlyHint/destructiveHint).

`catalint lint --scores` prints every tool's score, grade, smells and tokens;
`catalint lint --explain TOOL` shows each heuristic, its weight and what lowered it.
"""
