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
