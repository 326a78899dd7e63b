"""TDQS: the six heuristics, their weights, the cap, grades, and how the CLI shows them."""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from catalint.loader import load_text
from catalint.model import SMELLS
from catalint.tdqs import HEURISTICS, NO_DESCRIPTION_CAP, WEIGHTS, Score, grade, score
from conftest import write_catalog

GOOD_DESC = "Get the current weather for a city. Returns the temperature and conditions as a JSON object."
CITY = {"type": "string", "maxLength": 100, "description": "City name, such as Paris or Tokyo"}
KEYS = [key for key, _, _ in HEURISTICS]


def tool(**fields: Any) -> dict[str, Any]:
    """A complete, well-written tool; a field set to ... is removed."""
    base: dict[str, Any] = {
        "name": "get_weather",
        "description": GOOD_DESC,
        "inputSchema": {"type": "object", "properties": {"city": CITY}, "required": ["city"]},
        "annotations": {"readOnlyHint": True},
    }
    base.update(fields)
    return {k: v for k, v in base.items() if v is not ...}


def schema(props: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required or []}


def tdqs(t: dict[str, Any]) -> Score:
    catalog = load_text(json.dumps({"tools": [t]}), "t.json", "t.json")
    return score(catalog.tools[0])


def values(s: Score) -> dict[str, float]:
    return {p.key: p.value for p in s.parts}


def notes(s: Score, key: str) -> list[str]:
    return next(p.notes for p in s.parts if p.key == key)


def prose(n: int, breaks: str = "\n\n", every: int = 5, start: int = 1) -> str:
    """n characters of non-repeating sentences (no filler, no return words), a break every few sentences."""
    out = ""
    i = start - 1
    while len(out) < n + 40:
        i += 1
        sep = "" if i == start else (breaks if (i - start) % every == 0 else " ")
        out += f"{sep}Field {i} holds value {i * 7}."
    text = out[:n]
    if text[-1].isspace():
        text = text[:-1] + "x"
    assert len(text) == n and text == text.strip()
    return text


def assert_only(worse: dict[str, Any], better: dict[str, Any], key: str) -> tuple[Score, Score]:
    """better beats worse on key, on the score, and on nothing else."""
    w, b = tdqs(worse), tdqs(better)
    assert values(w)[key] < values(b)[key]
    assert w.score < b.score
    assert {k: v for k, v in values(w).items() if k != key} == {k: v for k, v in values(b).items() if k != key}
    return w, b


# ---------------------------------------------------------------- no description, and the cap


@pytest.mark.parametrize("desc", [..., None, "", "   \n\t ", 42])
def test_no_description_is_capped_even_when_the_rest_is_perfect(desc: Any) -> None:
    t = tool(description=desc, outputSchema={"type": "object"}, annotations={"readOnlyHint": True})
    s = tdqs(t)
    assert values(s)["presence"] == 0.0
    assert values(s)["parameters"] == values(s)["returns"] == values(s)["annotations"] == 1.0
    assert sum(WEIGHTS[k] * v for k, v in values(s).items()) > NO_DESCRIPTION_CAP  # the cap is what holds it
    assert s.capped
    assert s.score <= 0.2
    assert s.grade == "F"


def test_description_that_only_restates_the_name_is_capped() -> None:
    s = tdqs(tool(name="list_issues", description="List issues", outputSchema={"type": "object"}))
    assert values(s)["presence"] == 0.0
    assert notes(s, "presence") == ["the description only repeats the tool name"]
    assert s.capped and s.score <= 0.2


def test_low_score_without_description_is_not_raised_to_the_cap() -> None:
    s = tdqs({"name": "x", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}})
    assert notes(s, "length") == ["empty"]
    assert s.score == 0.0
    assert not s.capped
    # at the cap, not over it: nothing was held down (no arguments, so parameters alone gives 0.20)
    exact = tdqs({"name": "x", "inputSchema": {"type": "object"}})
    assert sum(WEIGHTS[k] * v for k, v in values(exact).items()) == NO_DESCRIPTION_CAP
    assert exact.score == 0.2 and not exact.capped


def test_complete_well_written_tool_scores_high() -> None:
    t = tool(
        inputSchema=schema(
            {"city": CITY, "units": {"type": "string", "enum": ["metric", "imperial"], "description": "Unit system"}},
            ["city"],
        )
    )
    s = tdqs(t)
    assert 60 <= len(GOOD_DESC) <= 500
    assert s.score >= 0.85
    assert values(s) == dict.fromkeys(KEYS, 1.0)
    assert s.grade == "A"


# ---------------------------------------------------------------- presence


def test_presence_only_the_name_differs() -> None:
    w, b = assert_only(
        tool(name="list_issues", description="List issues"),
        tool(name="search_tracker", description="List issues"),
        "presence",
    )
    assert (values(w)["presence"], values(b)["presence"]) == (0.0, 1.0)
    assert w.capped and not b.capped


def test_restated_name_ignores_case_and_punctuation() -> None:
    assert values(tdqs(tool(name="list_issues", description="  List-Issues. ")))["presence"] == 0.0
    assert values(tdqs(tool(name="list_issues", description="List issues by label")))["presence"] == 1.0


# ---------------------------------------------------------------- length


def test_length_10_chars_scores_below_100_chars() -> None:
    w, b = assert_only(tool(description="Get issues"), tool(description=prose(100)), "length")
    assert values(w)["length"] == pytest.approx(0.25)  # 0.5 * 10 / 20
    assert values(b)["length"] == 1.0
    assert notes(w, "length") == ["10 characters, under 20"]


@pytest.mark.parametrize(("n", "expected"), [(19, 0.475), (20, 0.5), (40, 0.75), (60, 1.0), (500, 1.0)])
def test_length_curve_below_and_inside_the_good_range(n: int, expected: float) -> None:
    assert values(tdqs(tool(description=prose(n))))["length"] == pytest.approx(expected)


def test_overlong_descriptions_score_below_a_good_one() -> None:
    good, long_, longer = (tdqs(tool(description=prose(n))) for n in (300, 600, 2000))
    assert values(good)["length"] == 1.0
    assert values(long_)["length"] == pytest.approx(0.94)  # 1 - 0.6 * 100 / 1000
    assert values(longer)["length"] == pytest.approx(0.4)  # the floor
    assert values(good)["conciseness"] == values(long_)["conciseness"] == values(longer)["conciseness"] == 1.0
    assert good.score > long_.score > longer.score
    assert notes(longer, "length") == ["2000 characters, over 500"]


def test_length_floor_holds_past_1500() -> None:
    assert (
        values(tdqs(tool(description=prose(1500))))["length"] == values(tdqs(tool(description=prose(3000))))["length"]
    )


# ---------------------------------------------------------------- parameters


def test_required_undocumented_argument_weighs_more_than_optional() -> None:
    props = {"city": CITY, "country": {"type": "string", "maxLength": 2}}
    optional = tdqs(tool(inputSchema=schema(props, ["city"])))
    required = tdqs(tool(inputSchema=schema(props, ["city", "country"])))
    assert values(optional)["parameters"] == round(2 / 3, 4)  # city 2 of 3
    assert values(required)["parameters"] == 0.5  # city 2 of 4
    assert required.score < optional.score
    assert notes(required, "parameters") == ["undocumented: country (required)"]
    assert notes(optional, "parameters") == ["undocumented: country"]


def test_required_undocumented_costs_more_than_optional_undocumented() -> None:
    props = {"city": CITY, "country": {"type": "string"}}
    undocumented_required = tdqs(tool(inputSchema=schema(props, ["country"])))
    undocumented_optional = tdqs(tool(inputSchema=schema(props, ["city"])))
    assert values(undocumented_required)["parameters"] == round(1 / 3, 4)
    assert values(undocumented_optional)["parameters"] == round(2 / 3, 4)
    assert undocumented_required.score < undocumented_optional.score


@pytest.mark.parametrize(
    "desc",
    ["Repository", "repository.", "REPO-SITORY", "the rep", "   ", "short"],
)
def test_argument_description_that_is_its_name_or_short_does_not_count(desc: str) -> None:
    bad = {"repository": {"type": "string", "description": desc}}
    good = {"repository": {"type": "string", "description": "Repository as owner/name, e.g. octo/hello"}}
    w, b = assert_only(
        tool(inputSchema=schema(bad, ["repository"])), tool(inputSchema=schema(good, ["repository"])), "parameters"
    )
    assert (values(w)["parameters"], values(b)["parameters"]) == (0.0, 1.0)


def test_argument_description_of_eight_characters_counts() -> None:
    assert (
        values(tdqs(tool(inputSchema=schema({"q": {"type": "string", "description": "A search"}}))))["parameters"]
        == 1.0
    )
    assert (
        values(tdqs(tool(inputSchema=schema({"q": {"type": "string", "description": "A searc"}}))))["parameters"] == 0.0
    )


@pytest.mark.parametrize(
    ("name", "desc", "counts"),
    [
        ("key_name", "\u212aEY  NAME!!", False),  # the Kelvin sign lower-cases to k
        ("id_number", "\u0130D--NUMBER", False),  # "İ" lower-cases to i and a combining dot
        ("id_number", "\u0130D--NUMBERS", True),
        ("k\u00e9y", "KEY!!!!!!", True),  # é is a letter of its own: the name squashes to "kéy", not "key"
        ("k\u00e9y", "K\u00c9Y!!!!!!", False),
        ("k\u00e9y", "KY!!!!!!!", True),  # an ASCII description against a name that is not: the é is kept
    ],
)
def test_argument_description_that_is_its_name_beyond_ascii(name: str, desc: str, counts: bool) -> None:
    s = tdqs(tool(inputSchema=schema({name: {"type": "string", "description": desc}})))
    assert values(s)["parameters"] == (1.0 if counts else 0.0)


@pytest.mark.parametrize("input_schema", [{"type": "object"}, {"type": "object", "properties": {}}, ...])
def test_no_arguments_scores_full_parameters(input_schema: Any) -> None:
    assert values(tdqs(tool(inputSchema=input_schema)))["parameters"] == 1.0


def test_nested_arguments_count() -> None:
    def with_status(status: dict[str, Any]) -> dict[str, Any]:
        flt = {"type": "object", "description": "Filters applied to the search", "properties": {"status": status}}
        return tool(inputSchema=schema({"filter": flt}))

    w, _ = assert_only(
        with_status({"type": "string"}),
        with_status({"type": "string", "description": "Issue status to match"}),
        "parameters",
    )
    assert values(w)["parameters"] == pytest.approx(0.5)  # filter documented, filter.status not
    assert notes(w, "parameters") == ["undocumented: filter.status"]


def test_array_item_properties_count() -> None:
    items = {
        "type": "array",
        "description": "Issues to create",
        "items": {"type": "object", "properties": {"id": {"type": "string"}}},
    }
    s = tdqs(tool(inputSchema=schema({"issues": items})))
    assert values(s)["parameters"] == pytest.approx(0.5)
    assert notes(s, "parameters") == ["undocumented: issues[].id"]


def test_parameters_notes_show_five_and_count_the_rest() -> None:
    props = {f"arg{i}": {"type": "string"} for i in range(7)}
    s = tdqs(tool(inputSchema=schema(props)))
    assert values(s)["parameters"] == 0.0
    assert notes(s, "parameters") == ["undocumented: arg0, arg1, arg2, arg3, arg4 and 2 more"]


# ---------------------------------------------------------------- conciseness

CLEAN_SEARCH = "Search the issue tracker of a repository for open issues that match the words of a query."
FILLER_SEARCH = "This tool allows you to simply search the issue tracker, basically for open issues of a repository."


def test_filler_phrases_lower_conciseness() -> None:
    w, b = assert_only(tool(description=FILLER_SEARCH), tool(description=CLEAN_SEARCH), "conciseness")
    assert values(w)["conciseness"] == pytest.approx(0.7)  # four fillers, capped at 0.3
    assert notes(w, "conciseness") == ["filler: 'allows you to', 'basically', 'simply', 'this tool'"]
    assert values(b)["conciseness"] == 1.0


def test_one_filler_costs_a_tenth() -> None:
    s = tdqs(tool(description="Simply search the issue tracker of a repository for open issues matching a query."))
    assert values(s)["conciseness"] == pytest.approx(0.9)


@pytest.mark.parametrize("phrase", ["note that", "please note", "it is important to", "etc.", "in order to"])
def test_each_filler_phrase_is_found(phrase: str) -> None:
    s = tdqs(tool(description=f"Search the issue tracker of a repo, {phrase} matching open issues and pull requests."))
    assert notes(s, "conciseness") == [f"filler: {phrase!r}"]


def test_filler_is_matched_as_whole_words() -> None:
    s = tdqs(tool(description="Search every issue in the tracker of a repository, using the given query words."))
    assert values(s)["conciseness"] == 1.0  # "every" is not "very"


def test_filler_is_found_in_any_case_and_beside_non_ascii_text() -> None:
    """ASCII text is pre-checked by lower-casing; other text goes straight to the pattern."""
    upper = tdqs(tool(description="SIMPLY search the issue tracker of a repository for issues matching a query."))
    assert notes(upper, "conciseness") == ["filler: 'simply'"]
    accented = tdqs(tool(description="Simply search the issue tracker of a café’s repository for matching issues."))
    assert notes(accented, "conciseness") == ["filler: 'simply'"]
    long_s = tdqs(tool(description="\u017fimply search the issue tracker of a repository for open matching issues."))
    assert notes(long_s, "conciseness") == ["filler: '\u017fimply'"]  # the pattern ignores case as Unicode does
    clean = tdqs(tool(description="Search the simplified issue tracker of a café’s repository for matching issues."))
    assert values(clean)["conciseness"] == 1.0


def test_repeated_sentence_lowers_conciseness() -> None:
    sentence = "Search the issue tracker for open issues."
    w, _ = assert_only(
        tool(description=f"{sentence} {sentence}"),
        tool(description=f"{sentence} Sort the matches by their last update."),
        "conciseness",
    )
    assert values(w)["conciseness"] == pytest.approx(0.7)
    assert notes(w, "conciseness") == [f"repeats itself: {sentence!r}"]


def test_a_short_sentence_said_twice_and_a_filler_said_twice_are_counted_as_the_rule_text_says() -> None:
    # `catalint rule TDQS`: a sentence of 15 characters or more; a penalty per distinct filler phrase
    short = tdqs(tool(description="Read the file. Read the file. Returns the contents of the file at the path."))
    assert values(short)["conciseness"] == 1.0  # "read the file" is 13 characters
    longer = tdqs(tool(description="Read the whole file. Read the whole file. Returns the contents at the path."))
    assert values(longer)["conciseness"] == pytest.approx(0.7)
    twice = tdqs(tool(description="Search the index very, very fast for issues matching a query and a label."))
    assert values(twice)["conciseness"] == pytest.approx(0.9)
    assert notes(twice, "conciseness") == ["filler: 'very'"]


def test_four_words_said_three_times_lower_conciseness() -> None:
    text = "Find open pull requests by author, find open pull requests by label, or find open pull requests by team."
    varied = "Find open pull requests by author, list merged ones by label, or view draft changes by their team."
    w, _ = assert_only(tool(description=text), tool(description=varied), "conciseness")
    assert values(w)["conciseness"] == pytest.approx(0.7)
    assert notes(w, "conciseness") == ["repeats itself: 'find open pull requests'"]


def test_repeated_sentence_is_found_when_lower_casing_changes_lengths() -> None:
    # "İ" lower-cases to two characters; the sentence quoted is still the one said second.
    first = "\u0130stanbul weather for the old city."
    again = "\u0130STANBUL   Weather, for the OLD city!"
    s = tdqs(tool(description=f"{first} Sort the matches by their last update.\n{again} Done."))
    assert notes(s, "conciseness") == [f"repeats itself: {again!r}"]
    near = tdqs(tool(description=f"{first} Sort the matches by their last update.\nIstanbul weather for a new city."))
    assert values(near)["conciseness"] == 1.0


@pytest.mark.parametrize(
    ("text", "repeated"),
    [
        ("Search the issue tracker of the repo\nSearch the issue tracker of the repo", True),  # a newline ends one
        ("Search the issue tracker of the repo?\t\n  Search the issue tracker of the repo", True),
        ("Search the issue tracker of the repo.Search the issue tracker of the repo.", False),  # no space: one
        ("Search the issue tracker of the repo, search the issue tracker of the repo.", False),
    ],
)
def test_where_sentences_end(text: str, repeated: bool) -> None:
    found = notes(tdqs(tool(description=text)), "conciseness")
    assert found == (["repeats itself: 'Search the issue tracker of the repo'"] if repeated else [])


def test_overlapping_four_word_sequence_said_three_times() -> None:
    six = "Keep going: go go go go go go, then stop once the queue of jobs is empty."
    five = "Keep going: go go go go go, then stop once the queue of jobs is empty now."
    assert notes(tdqs(tool(description=six)), "conciseness") == ["repeats itself: 'go go go go'"]
    assert values(tdqs(tool(description=five)))["conciseness"] == 1.0


def test_a_lone_newline_does_not_break_a_block() -> None:
    text = prose(600, breaks="  ")
    middle = text.index("  ", 300)
    lone = text[:middle] + " \n" + text[middle + 2 :]
    broken = text[:middle] + "\n\n" + text[middle + 2 :]
    assert notes(tdqs(tool(description=lone)), "conciseness") == [f"a {len(lone)}-character block without a break"]
    assert values(tdqs(tool(description=broken)))["conciseness"] == 1.0


def test_single_block_of_1200_characters_scores_below_paragraphs() -> None:
    wall = prose(1200, breaks="  ")
    paragraphs = prose(1200, breaks="\n\n")
    assert len(wall) == len(paragraphs) and "\n" not in wall
    w, b = assert_only(tool(description=wall), tool(description=paragraphs), "conciseness")
    assert values(w)["conciseness"] == pytest.approx(0.6)
    assert notes(w, "conciseness") == ["a 1200-character block without a break"]
    assert values(b)["conciseness"] == 1.0


def test_block_between_500_and_1000_characters_costs_less() -> None:
    s = tdqs(tool(description=prose(600, breaks="  ")))
    assert values(s)["conciseness"] == pytest.approx(0.8)


@pytest.mark.parametrize(("n", "expected"), [(500, 1.0), (501, 0.8), (1000, 0.8), (1001, 0.6)])
def test_block_penalties_start_over_500_and_over_1000_characters(n: int, expected: float) -> None:
    assert values(tdqs(tool(description=prose(n, breaks="  "))))["conciseness"] == pytest.approx(expected)


def test_list_items_break_a_block() -> None:
    parts = [prose(400, breaks=" ", start=s) for s in (1, 100, 200)]
    listed = "\n- ".join(parts)
    numbered = f"{parts[0]}\n1. {parts[1]}\n2) {parts[2]}"
    wall = "  ".join(parts)
    assert values(tdqs(tool(description=listed)))["conciseness"] == 1.0
    assert values(tdqs(tool(description=numbered)))["conciseness"] == 1.0
    assert values(tdqs(tool(description=wall)))["conciseness"] == pytest.approx(0.6)


def test_conciseness_with_every_penalty_at_its_most_is_zero() -> None:
    # 1 - 0.3 (three fillers) - 0.3 (a sentence said twice) - 0.4 (a block over 1000 characters): never below 0
    sentence = "Search the issue tracker for open issues."
    text = f"This tool simply and basically searches. {sentence} {sentence} " + prose(1100, breaks="  ")
    s = tdqs(tool(description=text))
    assert len(notes(s, "conciseness")) == 3
    assert values(s)["conciseness"] == 0.0


# ---------------------------------------------------------------- returns

NO_RETURN = "Look up the weather for a city and give its temperature in degrees Celsius."


def test_output_schema_gives_the_return_signal() -> None:
    w, b = assert_only(
        tool(description=NO_RETURN), tool(description=NO_RETURN, outputSchema={"type": "object"}), "returns"
    )
    assert (values(w)["returns"], values(b)["returns"]) == (0.0, 1.0)
    assert notes(w, "returns") == ["neither an outputSchema nor a word on what comes back"]


def test_returns_wording_gives_the_return_signal() -> None:
    worded = "Look up the weather for a city. Returns its temperature in degrees Celsius."
    _, b = assert_only(tool(description=NO_RETURN), tool(description=worded), "returns")
    assert values(b)["returns"] == 1.0


def test_chinese_and_japanese_are_weighed_as_english_is() -> None:
    # the same tool in English and in Chinese (Yunxiao's style) scores the same
    english = tool(
        description="List all release workflows of an application; returns the workflow list as JSON.",
        inputSchema=schema({"appName": {"type": "string", "description": "Application name"}}, ["appName"]),
    )
    chinese = tool(
        description="查询应用下所有发布流程，返回流程列表（JSON 格式）。",
        inputSchema=schema({"appName": {"type": "string", "description": "应用名称"}}, ["appName"]),
    )
    assert values(tdqs(chinese)) == values(tdqs(english)) == dict.fromkeys(KEYS, 1.0)
    # a short Japanese argument description counts as a description ("room ID", Chatwork)
    room = tool(inputSchema=schema({"room_id": {"type": "string", "description": "ルームID"}}, ["room_id"]))
    assert values(tdqs(room))["parameters"] == 1.0
    short = tdqs(tool(description="获取菜谱"))  # 4 wide characters: 12, under 20
    assert notes(short, "length") == ["12 characters (a wide character counted as 3), under 20"]
    assert notes(short, "returns") == ["neither an outputSchema nor a word on what comes back"]


def test_output_schema_that_is_not_an_object_gives_no_signal() -> None:
    assert values(tdqs(tool(description=NO_RETURN, outputSchema=True)))["returns"] == 0.0


# ---------------------------------------------------------------- annotations


@pytest.mark.parametrize(
    ("annotations", "expected", "why"),
    [
        (..., 0.0, ["no annotations object"]),
        ("readOnly", 0.0, ["no annotations object"]),
        ({"readOnlyHint": "yes"}, 0.25, ["non-boolean readOnlyHint"]),
        ({"readOnlyHint": True, "openWorldHint": 1}, 0.25, ["non-boolean openWorldHint"]),
        ({}, 0.5, ["an annotations object without hints"]),
        ({"title": "Weather"}, 0.5, ["an annotations object without hints"]),
        ({"destructiveHint": False, "idempotentHint": True}, 0.75, ["no readOnlyHint"]),
        ({"readOnlyHint": False}, 0.75, ["readOnlyHint false without destructiveHint"]),
        ({"readOnlyHint": True}, 1.0, []),
        ({"readOnlyHint": False, "destructiveHint": True}, 1.0, []),
        ({"readOnlyHint": False, "destructiveHint": False}, 1.0, []),
    ],
)
def test_annotation_values(annotations: Any, expected: float, why: list[str]) -> None:
    s = tdqs(tool(annotations=annotations))
    assert values(s)["annotations"] == expected
    assert notes(s, "annotations") == why


def test_annotation_ladder_raises_the_score_step_by_step() -> None:
    ladder = [..., {"readOnlyHint": "yes"}, {}, {"destructiveHint": False}, {"readOnlyHint": True}]
    scored = [tdqs(tool(annotations=a)) for a in ladder]
    for w, b in itertools.pairwise(scored):
        assert values(w)["annotations"] < values(b)["annotations"]
        assert w.score < b.score
        assert {k: v for k, v in values(w).items() if k != "annotations"} == {
            k: v for k, v in values(b).items() if k != "annotations"
        }


# ---------------------------------------------------------------- arithmetic, determinism, grades


def test_weights_sum_to_one() -> None:
    assert sum(w for _, _, w in HEURISTICS) == pytest.approx(1.0, abs=1e-12)
    assert [k for k, _, _ in HEURISTICS] == [
        "presence",
        "length",
        "parameters",
        "conciseness",
        "returns",
        "annotations",
    ]
    assert WEIGHTS == {
        "presence": 0.25,
        "length": 0.15,
        "parameters": 0.20,
        "conciseness": 0.10,
        "returns": 0.15,
        "annotations": 0.15,
    }


def test_score_is_the_weighted_sum_rounded_to_four_decimals() -> None:
    t = tool(
        description="Get the weather for a city, today.",
        annotations={},
        inputSchema=schema({"city": CITY, "days": {"type": "integer"}}, ["city"]),
    )
    s = tdqs(t)
    raw = sum(WEIGHTS[k] * v for k, v in values(s).items())
    assert raw != round(raw, 4)  # rounding has something to do here
    assert s.score == round(raw, 4)
    assert all(v == round(v, 4) for v in values(s).values())


def test_same_tool_scores_identically_in_fresh_catalogs() -> None:
    t = tool(description=FILLER_SEARCH, annotations={"destructiveHint": False})
    first, second = tdqs(t), tdqs(json.loads(json.dumps(t)))
    assert first.score == second.score
    assert first is not second
    assert [(p.key, p.value, p.notes) for p in first.parts] == [(p.key, p.value, p.notes) for p in second.parts]


def test_key_order_does_not_change_the_score() -> None:
    t = tool(description=FILLER_SEARCH)
    reordered = dict(reversed(list(t.items())))
    assert tdqs(t).score == tdqs(reordered).score


@pytest.mark.parametrize(
    ("value", "letter"),
    [
        (1.0, "A"),
        (0.9, "A"),
        (0.8999, "B"),
        (0.8, "B"),
        (0.7999, "C"),
        (0.7, "C"),
        (0.6999, "D"),
        (0.6, "D"),
        (0.5999, "F"),
        (0.0, "F"),
    ],
)
def test_grade_boundaries(value: float, letter: str) -> None:
    assert grade(value) == letter
    assert Score(value, []).grade == letter


# ---------------------------------------------------------------- catalint rule TDQS


def test_rule_tdqs_lists_every_heuristic_and_weight(cli) -> None:
    result = cli("rule", "TDQS")
    assert result.exit_code == 0
    for key, _, weight in HEURISTICS:
        assert re.search(rf"^\s+{key}\s+{weight:.2f}\s", result.stdout, re.MULTILINE), key
    assert f"{NO_DESCRIPTION_CAP:.2f}" in result.stdout


def test_rule_tdqs_json(cli) -> None:
    text = cli("rule", "TDQS").stdout
    data = json.loads(cli("rule", "tdqs", "--output-format", "json").stdout)
    assert data == {"code": "TDQS", "explanation": text}


# ---------------------------------------------------------------- lint --explain, --scores, JSON

MIXED = [
    {
        "name": "get_time",
        "description": "Get the current time in UTC. Returns an ISO 8601 timestamp string.",
        "inputSchema": {"type": "object", "additionalProperties": False},
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "delete_file",
        "description": "Delete the file at the given path from the workspace.",
        "inputSchema": {
            "type": "object",
            "properties": {"path": {"description": "Path of the file to delete, relative to the workspace root"}},
            "required": ["path"],
            "additionalProperties": False,
        },
        "annotations": {"readOnlyHint": "no"},
    },
    {
        "name": "ping_host",
        "description": "Ping a host on the network and report whether it answers.",
        "inputSchema": {"type": "object", "properties": {"host": {"type": "string"}}, "required": ["host"]},
    },
]


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    return write_catalog(tmp_path / "tools.json", MIXED)


def test_explain_shows_each_heuristic_and_what_lowered_it(cli, mixed: Path) -> None:
    result = cli("lint", "--explain", "ping_host", "tools.json")
    out = result.stdout
    assert "ping_host: TDQS 0.49 (grade F)" in out
    for _, label, weight in HEURISTICS:
        assert re.search(rf"^  {label}\s+\d\.\d\d\s+{weight:.2f}\s+\d\.\d{{3}}  ", out, re.MULTILINE), label
    assert re.search(r"^  parameter documentation\s+0\.00 .*undocumented: host \(required\)$", out, re.MULTILINE)
    assert re.search(r"^  return-format signal\s+0\.00 .*neither an outputSchema nor a word", out, re.MULTILINE)
    assert re.search(r"^  annotation signal\s+0\.00 .*no annotations object$", out, re.MULTILINE)
    assert re.search(r"^  description length\s+0\.96 .*57 characters, under 60$", out, re.MULTILINE)
    assert re.search(r"^  description presence\s+1\.00 .* -$", out, re.MULTILINE)
    assert "delete_file: TDQS" not in out  # only the tool asked for


def test_explain_mentions_the_cap(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [tool(name="list_issues", description="List issues")])
    out = cli("lint", "--explain", "list_issues", "tools.json").stdout
    assert "list_issues: TDQS 0.20 (grade F)" in out
    assert "capped at 0.20" in out


def test_explain_unknown_tool_is_exit_2_with_one_line(cli, mixed: Path) -> None:
    result = cli("lint", "--explain", "no_such_tool", "tools.json")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["error: --explain: no tool named 'no_such_tool' in the linted files"]
    assert result.stdout == ""


def test_scores_table_has_every_tool_and_the_catalog_line(cli, mixed: Path) -> None:
    out = cli("lint", "--scores", "tools.json").stdout
    data = json.loads(cli("lint", "--output-format", "json", "tools.json").stdout)
    rows = {
        m.group(1): (m.group(2), m.group(3))
        for m in re.finditer(r"^  (\w+)\s+(\d\.\d\d)\s+([A-F])\s+\d+\s+\S", out, re.MULTILINE)
    }
    expected = {t["name"]: (f"{t['score']:.2f}", t["grade"]) for t in data["files"][0]["tools"]}
    assert rows == expected == {"get_time": ("1.00", "A"), "delete_file": ("0.72", "C"), "ping_host": ("0.49", "F")}
    assert re.search(r"^  tool\s+score  grade  tokens  smells$", out, re.MULTILINE)
    assert "  catalog: min 0.49, mean 0.74 (grade C), 11 smells;" in out


def test_json_carries_scores_heuristics_and_smells_per_tool(cli, mixed: Path) -> None:
    data = json.loads(cli("lint", "--output-format", "json", "tools.json").stdout)
    tools = data["files"][0]["tools"]
    for t in tools:
        assert isinstance(t["score"], float) and 0.0 <= t["score"] <= 1.0
        assert t["grade"] == grade(t["score"])
        assert list(t["heuristics"]) == KEYS
        assert list(t["smells"]) == list(SMELLS)
        assert t["smell_total"] == sum(t["smells"].values())
    ping = next(t for t in tools if t["name"] == "ping_host")
    assert ping["score"] == tdqs(MIXED[2]).score == 0.4944
    assert ping["heuristics"] == values(tdqs(MIXED[2]))
    assert ping["lowered_by"] == {  # the heuristics below 1, each with what lowered it
        "length": ["57 characters, under 60"],
        "parameters": ["undocumented: host (required)"],
        "returns": ["neither an outputSchema nor a word on what comes back"],
        "annotations": ["no annotations object"],
    }
    assert next(t for t in tools if t["name"] == "get_time")["lowered_by"] == {}


def test_json_tool_smells_match_the_findings(cli, mixed: Path) -> None:
    data = json.loads(cli("lint", "--output-format", "json", "tools.json").stdout)
    assert data["findings"]
    for t in data["files"][0]["tools"]:
        counted = Counter(f["smell"] for f in data["findings"] if f["tool"] == t["name"])
        assert t["smells"] == {s: counted[s] for s in SMELLS}, t["name"]
        assert t["smell_total"] == t["finding_count"]
    everything = Counter(f["smell"] for f in data["findings"])
    assert data["summary"]["smells"] == {s: everything[s] for s in SMELLS}
    assert data["summary"]["smell_total"] == len(data["findings"])


def test_json_file_quality(cli, mixed: Path) -> None:
    data = json.loads(cli("lint", "--output-format", "json", "tools.json").stdout)
    q = data["files"][0]["quality"]
    scores = [t["score"] for t in data["files"][0]["tools"]]
    assert q["min_score"] == min(scores) == 0.4944
    assert q["mean_score"] == round(sum(scores) / len(scores), 4) == 0.7396
    assert q["grade"] == "C"
    assert (q["critical_count"], q["warning_count"], q["schema_criticals"], q["schema_warnings"]) == (1, 7, 1, 2)
    assert q["smells"] == {
        "underspecified": 2,
        "verbose": 1,
        "uninformative": 0,
        "brittle": 2,
        "missing_examples": 2,
        "missing_return_format": 2,
        "missing_annotations": 1,
        "invalid_annotation": 1,
    }
    assert q["smell_total"] == 11
    assert q["gate"]["passed"] is False
    assert [c["target"] for c in q["gate"]["checks"]] == ["min_score", "mean_score", "critical_count"]
    summary = data["summary"]
    assert (summary["min_score"], summary["mean_score"], summary["grade"]) == (0.4944, 0.7396, "C")
    assert summary["gate_passed"] is False


def test_json_mean_score_is_rounded_to_four_decimals(cli, tmp_path: Path) -> None:
    annotated = {"annotations": {"readOnlyHint": True}, "inputSchema": MIXED[2]["inputSchema"]}
    tools = [
        {"name": "ping_host", "description": "Ping a host on the network and report whether it answers.", **annotated},
        {"name": "ping_again", "description": "Ping the host on the network and report back.", **annotated},
    ]
    write_catalog(tmp_path / "tools.json", tools)
    data = json.loads(cli("lint", "--output-format", "json", "tools.json").stdout)
    assert [t["score"] for t in data["files"][0]["tools"]] == [0.6444, 0.6219]
    assert data["files"][0]["quality"]["mean_score"] == data["summary"]["mean_score"] == 0.6331  # of 0.63315


def test_an_object_whose_fields_are_described_counts_as_described() -> None:
    # as for DESC-006: an OpenAPI server's `path` wrapper is filled field by field from the fields' own text
    path = {"type": "object", "properties": {"id": {"type": "string", "description": "The order's ID"}}}
    assert values(tdqs(tool(inputSchema=schema({"path": path}, ["path"]))))["parameters"] == 1.0
    assert notes(tdqs(tool(inputSchema=schema({"path": path}, ["path"]))), "parameters") == []
    bare = {"type": "object", "properties": {"id": {"type": "string"}}}
    assert values(tdqs(tool(inputSchema=schema({"path": bare}, ["path"]))))["parameters"] == 0.0


@pytest.mark.parametrize("script", ["ascii", "other"])
def test_word_sequences_are_looked_for_in_the_first_50000_words(script: str) -> None:
    # a 16 MB description of short lines built 3 million four-word tuples (780 MB); now a bounded prefix
    from catalint.tdqs import REPEAT_MAX_WORDS

    filler = " ".join(f"w{i}" for i in range(REPEAT_MAX_WORDS))  # distinct words, no sentence ends
    said = "find open pull requests " * 3
    mark = " é" if script == "other" else ""  # a text that is not ASCII takes the other path
    early = tdqs(tool(description=f"Get it{mark}: {said}{filler}"))
    late = tdqs(tool(description=f"Get it{mark}: {filler} {said}"))
    assert notes(early, "conciseness")[0] == "repeats itself: 'find open pull requests'"
    assert not any(n.startswith("repeats itself") for n in notes(late, "conciseness"))
