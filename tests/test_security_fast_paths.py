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
