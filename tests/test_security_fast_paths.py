"""The SEC rules' faster forms of a pattern or a check read what their plain forms read."""

from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from catalint.rules.security import strings as s

# _EMPHASIS as first written: each look-behind before the run it guards.
EMPHASIS_AS_WRITTEN = re.compile(
    r"\*{1,3}(?=\w)|(?<=\w)\*{1,3}|(?<![\w*])_{1,3}(?=[^\W_])|(?<=[^\W_])_{1,3}(?!\w)"
    r"|</?(?:b|i|u|s|em|strong|mark|ins|del|small|big|span)\s*>",
    re.IGNORECASE,
)
EMPHASIS_PIECES = ["*", "_", "<", "</", ">", "b", "B", "span", " ", "\t", "\n", "a", "é", "1", "-", "İ", "ſ", "/"]


def spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


def test_emphasis_matches_where_it_did_as_written_on_every_short_text() -> None:
    for n in range(5):
        for parts in itertools.product(EMPHASIS_PIECES, repeat=n):
            text = "".join(parts)
            assert spans(s._EMPHASIS, text) == spans(EMPHASIS_AS_WRITTEN, text), text


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from([*EMPHASIS_PIECES, "**", "___", "strong", "<b >", "</EM>", "x_y"]), max_size=16))
def test_emphasis_matches_where_it_did_as_written(parts: list[str]) -> None:
    text = "".join(parts)
    assert spans(s._EMPHASIS, text) == spans(EMPHASIS_AS_WRITTEN, text)


EVERY_CHARACTER = "".join(map(chr, range(0x110000)))


def test_the_character_classes_built_from_parts_are_those_written_out() -> None:
    odd_space = re.compile(r"\r\n?|[\t\x0b\x0c\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
    wide = re.compile("[\uff01-\uff5e\U0001d400-\U0001d7ff\u24b6-\u24e9\u2170-\u217f]")
    accented = re.compile("[\u00c0-\u024f\u0300-\u036f\u1e00-\u1eff]")
    for built, written in ((s._ODD_SPACE, odd_space), (s._WIDE, wide), (s._ACCENTED, accented)):
        for text in (EVERY_CHARACTER, "a\r\nb\r\rc\n\r"):
            assert spans(built, text) == spans(written, text)


def test_reshaped_holds_each_character_that_a_step_it_guards_reads_differently() -> None:
    # _walk skips _ODD_SPACE, _WIDE, _AS_SPELT and _unmarked for a text in which _RESHAPED finds nothing.
    guarded = (
        set(s._ODD_SPACE.findall(EVERY_CHARACTER))
        | set(s._WIDE.findall(EVERY_CHARACTER))
        | set(map(chr, s._AS_SPELT))
        | set(s._ACCENTED.findall(EVERY_CHARACTER))
    )
    assert set(s._RESHAPED.findall(EVERY_CHARACTER)) == guarded


def test_words_with_tells_find_what_words_without_find() -> None:
    from catalint.rules.security.secrets import _SECRET_HINT

    lists = ["|".join(_SECRET_HINT.words), "set aside|no longer|void", "if |a\tb|x", "PRIVATE KEY|key"]
    pieces = ["secret", "access", "key", "Secret Access Key", "PRIVATE", "KEY", " ", "  ", "\n", "\t", "\xa0", "x"]
    pieces += ["set", "aside", "no", "longer", "if", "a", "b", "sk-", "ghp_", "mongodb", "void"]
    for alternatives in lists:
        told, plain = s.Words(alternatives, tells=True), s.Words(alternatives)
        assert told._tells is not None or " " not in alternatives
        for n in range(4):
            for parts in itertools.product(pieces, repeat=n):
                text = "".join(parts)
                assert told.search(text) == plain.search(text), (alternatives, text)


def test_the_ascii_control_check_in_bytes_agrees_with_the_pattern() -> None:
    ascii_characters = [chr(c) for c in range(128)]
    assert bytes(s._ASCII_CONTROL_BYTES).decode() == "".join(c for c in ascii_characters if s._ASCII_CONTROL.search(c))
    for n in range(3):
        for parts in itertools.product(["", "a", " ", "\n", "\t", "\r", "\x00", "\x1b", "\x7f", "~"], repeat=n):
            text = "".join(parts) * 3
            assert s._has_ascii_control(text) == (s._ASCII_CONTROL.search(text) is not None), text
    for c in ascii_characters:
        assert s._has_ascii_control(f"Adds two numbers.\n\n{c}") == (s._ASCII_CONTROL.search(c) is not None)


def test_reshaped_ascii_lists_the_ascii_characters_of_reshaped() -> None:
    ascii_characters = "".join(map(chr, range(128)))
    assert set(s._RESHAPED.findall(ascii_characters)) == set(s._RESHAPED_ASCII)
    for text in ["", "a b", "a\nb", "a\tb", "a\r\nb", "x\x0by", "x\x0cy", "\x1f", "é\t", "ｘ", "a’b"]:
        assert s._reshaped(text) == (s._RESHAPED.search(text) is not None), text


# SEC-001 and SEC-003 ask, for every match, about the text around it. Asked by reading that text again each time,
# long texts were quadratic (a 35 KB sentence of steers, 10 s; 768 KB of `<IMPORTANT>`, 25 s); the marks are now
# found once a text and looked up. These hold the lookups to the plain reading they replace.


def in_code_as_written(before: str) -> bool:
    if before.count("```") % 2:
        return True
    line = before[before.rfind("\n") + 1 :]
    return line.count("`") % 2 == 1


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(["`", "``", "```", "````", "\n", "a", " ", "<IMPORTANT>", "\n\n"]), max_size=24))
def test_code_marks_answer_as_counting_the_text_before(parts: list[str]) -> None:
    from catalint.rules.security.instructions import _CodeMarks

    text = "".join(parts)
    marks = _CodeMarks(text)
    for at in range(len(text) + 1):
        assert marks.before(at) == in_code_as_written(text[:at]), (text, at)


def inside_a_word(text: str, at: int) -> bool:
    return 0 < at < len(text) and bool(re.match(r"\w\w", text[at - 1 : at + 1]))


SPAN_PIECES = ["may", "can", "always", "never", " ", ",", "x", "mayor", "every time", "\n", "cannot", "_"]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(SPAN_PIECES), max_size=14))
def test_spans_answer_as_a_search_of_the_part(parts: list[str]) -> None:
    from catalint.rules.security.cross_tool import _ABSOLUTE, _HEDGE

    text = "".join(parts)
    for pattern in (_HEDGE, _ABSOLUTE):
        found = s.Spans(pattern, text)
        for lo in range(len(text) + 1):
            for hi in range(lo, len(text) + 1):
                # a part cut inside a word is searched as a text of its own: only cuts at word edges compare
                if inside_a_word(text, lo) or inside_a_word(text, hi):
                    continue
                assert found.any_within(lo, hi) == (pattern.search(text, lo, hi) is not None), (text, lo, hi)


CLAUSE_PIECES = ["a", " ", ";", ":", "(", " - ", ", which", " since ", ", but", "use", "x"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(CLAUSE_PIECES), max_size=20))
def test_clause_bounds_from_marks_are_those_of_a_search(parts: list[str]) -> None:
    from catalint.rules.security.cross_tool import _CLAUSE_END, _clause_at

    text = "".join(parts)
    ends = s.Spans(_CLAUSE_END, text)
    for start in range(len(text) + 1):
        if inside_a_word(text, start):
            continue  # a steer starts at a word's start
        for end in range(start, len(text) + 1):
            assert _clause_at(text, start, end, ends) == _clause_at(text, start, end), (text, start, end)
