"""spelt_out, the one-pass search behind discovery.name_free, answers as one regex search per name did."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from catalint.spelt import spelt_out
from catalint.trace_metrics import named_in_prompt


def one_search_per_name(prompt: str, names: list[str]) -> list[str]:
    """The definition, as named_in_prompt read it before: a regex search of the whole prompt per name."""
    found = []
    lowered = prompt.lower()
    for name in sorted(set(names)):
        pattern = r"(?<![A-Za-z0-9_])" + re.escape(name.lower()) + r"(?![A-Za-z0-9_])"
        if name and re.search(pattern, lowered):
            found.append(name)
    return found


NAMES = [
    "web_search",
    "web",
    "search",
    "web_search_v2",
    "search.web_search",
    "search.web",
    "web_search.",
    ".web",
    "-x",
    "x-",
    "a-x",
    "get-weather",
    "get weather",
    "get  weather",
    "Get_Weather",
    "GET_WEATHER",
    "météo",
    "MÉTÉO",
    "天气",
    "天",
    "İstanbul",
    "istanbul",
    "\u212aelvin",  # the Kelvin sign lowers to an ASCII k
    "kelvin",
    "straße",
    "a.b",
    "b.c",
    "a.b.c",
    "--",
    "-",
    ".",
    " ",
    "x\ny",
    "_",
    "_x_",
    "0",
    "42",
    "",
    "a" * 40,
    "a-a-a-a",
    "a-a",
]

PROMPTS = [
    "",
    "Use web_search to find it",
    "use WEB_SEARCH.",
    "(search.web_search)",
    "search.web_search_v2 and search.web",
    "web_searcher websearch _web_search web_search_",
    "call .web or -x, not a-x; x- is fine; a-x too",
    "get-weather, get weather, get  weather, get   weather",
    "la MÉTÉO de Paris, météo!",
    "今天天气很好",
    "İSTANBUL istanbul Istanbul",
    "\u212aELVIN and kelvin",
    "STRASSE straße",
    "a.b.c a.b. b.c",
    "---- - -- . ..",
    "x\ny x\r\ny",
    "_ __ _x_ x_",
    "042 0 42",
    "a" * 40 + " " + "a" * 41,
    "a-a-a-a-a-a-a",
]


def test_the_same_names_as_one_search_per_name_on_varied_names_and_prompts() -> None:
    for prompt in PROMPTS:
        assert named_in_prompt(prompt, NAMES) == one_search_per_name(prompt, NAMES), prompt
        for name in NAMES:  # alone too: a name found only beside another would show here
            assert named_in_prompt(prompt, [name]) == one_search_per_name(prompt, [name]), (prompt, name)


ALPHABET = "aAbB0_.- \né天\u212a"


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet=ALPHABET, max_size=40),
    st.lists(st.text(alphabet=ALPHABET, max_size=6), max_size=12),
    st.lists(st.tuples(st.integers(0, 40), st.integers(1, 8)), max_size=6),
)
def test_the_same_names_as_one_search_per_name_on_any_text(prompt: str, names: list[str], cuts: list) -> None:
    names = names + [prompt[i : i + n] for i, n in cuts]  # pieces of the prompt, so that names are found
    assert named_in_prompt(prompt, names) == one_search_per_name(prompt, names)


def test_every_spelling_of_a_name_is_reported() -> None:
    assert spelt_out("call WEB_SEARCH", ["web_search", "Web_Search", "web"]) == {"web_search", "Web_Search"}
    assert spelt_out("anything", []) == set() and spelt_out("anything", [""]) == set()
