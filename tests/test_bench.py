"""`catalint bench`: the lexical selector, description mutations, the report, and spec errors."""

from __future__ import annotations

import json
import math
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalint import selector, tokens
from catalint.bench import Bench, auto_mutations, mutate, run, smells_of, wilson
from catalint.bench_spec import Intent, Mutation, Spec, load_spec, spec_schema
from catalint.formatters.bench_report import as_dict, format_json, format_markdown, format_text
from catalint.model import SMELLS, Catalog, Tool
from catalint.selector import GENERIC_DESCRIPTION, Index, better, document
from catalint.tdqs import score as tdqs_score
from conftest import ROOT, write_catalog

EXAMPLE = ROOT / "examples" / "tool-description-bench"
Z = 1.959963984540054

# A small catalog whose picks follow from the words:
# "humidity" is only in weather_now; "city" is in weather_now's description and in city_guide's
# name (where it counts twice); "share"/"price" only in stock_quote; "museums"/"visit" only in city_guide.
WEATHER_TOOLS = [
    {"name": "weather_now", "description": "Report the humidity and wind for a city."},
    {"name": "city_guide", "description": "Sights, museums and restaurants worth a visit."},
    {"name": "stock_quote", "description": "Latest share price of a listed company."},
]
WEATHER_INTENTS = [
    {"query": "humidity in Lisbon", "gold": ["weather_now"]},
    {"query": "city humidity", "gold": ["weather_now"]},
    {"query": "share price of ACME", "gold": ["stock_quote"]},
    {"query": "museums to visit", "gold": ["city_guide"]},
]


def weather_spec(mutations: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {"catalog": {"tools": WEATHER_TOOLS}, "intents": WEATHER_INTENTS, **extra}
    if mutations is not None:
        spec["mutations"] = mutations
    return spec


def write_spec(directory: Path, data: dict[str, Any], name: str = "spec.json") -> Path:
    path = directory / name
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def run_json(cli, data: dict[str, Any], *args: str) -> dict[str, Any]:
    write_spec(Path.cwd(), data)
    result = cli("bench", "run", "spec.json", "--output-format", "json", *args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def tool(raw: dict[str, Any], index: int = 0) -> Tool:
    return Tool(index, f"/tools/{index}", raw)


# ---------------------------------------------------------------- mutations of one tool

WEATHER_TOOL = {
    "name": "get_weather",
    "description": "Weather report: the weather now. Ask the weatherman about WEATHER.",
    "inputSchema": {"type": "object"},
}


def test_blank_removes_the_description_key_and_keeps_the_rest():
    original = tool(WEATHER_TOOL)
    mutated = mutate(original, Mutation("get_weather", "blank"))
    assert "description" not in mutated.raw
    assert mutated.raw["name"] == "get_weather"
    assert mutated.raw["inputSchema"] == {"type": "object"}
    assert original.raw["description"] == WEATHER_TOOL["description"]  # the original is untouched


def test_genericize_sets_the_fixed_phrase_made_only_of_stop_words():
    mutated = mutate(tool(WEATHER_TOOL), Mutation("get_weather", "genericize"))
    assert mutated.raw["description"] == GENERIC_DESCRIPTION
    assert GENERIC_DESCRIPTION == "Use this tool to perform an operation."
    assert selector.tokens(GENERIC_DESCRIPTION) == []


@pytest.mark.parametrize(
    ("chars", "expected"),
    [(7, "Weather"), (0, ""), (1000, WEATHER_TOOL["description"])],
)
def test_truncate_keeps_the_first_n_characters(chars, expected):
    mutated = mutate(tool(WEATHER_TOOL), Mutation("get_weather", "truncate", chars=chars))
    assert mutated.raw["description"] == expected


def test_drop_keyword_removes_whole_words_case_insensitively():
    mutated = mutate(tool(WEATHER_TOOL), Mutation("get_weather", "drop_keyword", word="weather"))
    assert mutated.raw["description"] == "report: the now. Ask the weatherman about."
    assert "weatherman" in mutated.raw["description"]


def test_drop_keyword_given_in_capitals_removes_lower_case_occurrences():
    mutated = mutate(tool(WEATHER_TOOL), Mutation("get_weather", "drop_keyword", word="WEATHER"))
    assert re.findall(r"(?i)\bweather\b", mutated.raw["description"]) == []
    assert "weatherman" in mutated.raw["description"]


def test_drop_keyword_matches_the_word_literally_not_as_a_pattern():
    raw = {"name": "run_script", "description": "Runs node.js scripts, not nodexjs ones."}
    mutated = mutate(tool(raw), Mutation("run_script", "drop_keyword", word="node.js"))
    assert mutated.raw["description"] == "Runs scripts, not nodexjs ones."


@pytest.mark.parametrize(
    "mutation",
    [
        {"tool": "weather_now", "kind": "blank"},
        {"tool": "weather_now", "kind": "genericize"},
        {"tool": "weather_now", "kind": "truncate", "chars": 10},  # "Report the"
        {"tool": "weather_now", "kind": "drop_keyword", "word": "Humidity"},
    ],
)
def test_removing_the_only_matching_word_flips_the_intent(cli, mutation):
    report = run_json(cli, weather_spec([mutation]))
    assert report["baseline"]["correct"] == 4
    (result,) = report["mutations"]
    # "humidity in Lisbon": no tool has humidity any more, and none has lisbon: no pick.
    # "city humidity": city_guide's name says "city" twice, more than weather_now's description once.
    assert result["flips"] == [
        {"intent": 0, "query": "humidity in Lisbon", "before": "weather_now", "after": None, "correct_after": False},
        {"intent": 1, "query": "city humidity", "before": "weather_now", "after": "city_guide", "correct_after": False},
    ]
    assert result["correct"] == 2
    assert result["accuracy"] == 0.5
    assert result["drop"] == len(result["flips"]) / report["baseline"]["intents"] == 0.5


def test_a_mutation_that_keeps_the_matching_word_changes_nothing(cli):
    report = run_json(cli, weather_spec([{"tool": "city_guide", "kind": "drop_keyword", "word": "visit"}]))
    (result,) = report["mutations"]
    assert result["flips"] == []  # "museums" still matches city_guide only
    assert result["drop"] == 0.0
    assert result["correct"] == report["baseline"]["correct"]


# ---------------------------------------------------------------- Wilson interval


@pytest.mark.parametrize(
    ("correct", "total", "low", "high"),
    [
        (0, 10, 0.0, Z * Z / (10 + Z * Z)),  # 0.277533
        (10, 10, 10 / (10 + Z * Z), 1.0),  # 0.722467
        (1, 1, 1 / (1 + Z * Z), 1.0),  # 0.206549
        (0, 1, 0.0, Z * Z / (1 + Z * Z)),  # 0.793451
        (5, 10, 0.236593090512564, 0.763406909487436),
        (29, 34, 0.6987194350454783, 0.9355055855521752),
    ],
)
def test_wilson_matches_hand_computed_values(correct, total, low, high):
    got = wilson(correct, total)
    assert got == pytest.approx((low, high), abs=1e-12)


def test_wilson_hand_computed_values_to_six_places():
    assert [round(x, 6) for x in wilson(0, 10)] == [0.0, 0.277533]
    assert [round(x, 6) for x in wilson(10, 10)] == [0.722467, 1.0]
    assert [round(x, 6) for x in wilson(29, 34)] == [0.698719, 0.935506]


@pytest.mark.parametrize("total", [1, 2, 3, 7, 10, 16, 21, 34, 100, 1000])  # 16, 21: float residue past 1 / below 0
def test_wilson_stays_within_zero_and_one_and_contains_the_proportion(total):
    for correct in range(total + 1):
        low, high = wilson(correct, total)
        assert 0.0 <= low <= high <= 1.0
        assert low - 1e-12 <= correct / total <= high + 1e-12
        assert high - low > 0.0


@pytest.mark.parametrize("total", [3, 34, 100])
def test_wilson_is_exact_at_the_extremes(total):
    assert wilson(0, total)[0] == 0.0
    assert wilson(total, total)[1] == 1.0


def test_wilson_without_trials_is_the_whole_range():
    assert wilson(0, 0) == (0.0, 1.0)


def test_report_baseline_carries_the_wilson_interval(cli):
    report = run_json(cli, weather_spec([]))
    low, high = wilson(4, 4)
    assert report["baseline"]["wilson_95"] == [round(low, 6), round(high, 6)]
    assert report["baseline"]["wilson_95"] == [0.510109, 1.0]


# ---------------------------------------------------------------- tokenisation


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("search_email_inbox", ["search", "email", "inbox"]),
        ("getWeatherForecast", ["weather", "forecast"]),  # "get" is a stop word
        ("HTTPServer", ["http", "server"]),
        ("files.read-text", ["file", "read", "text"]),
        ("WEATHER Report", ["weather", "report"]),
        ("Use the tool to perform an operation on the things", []),
        ("the city of the weather", ["city", "weather"]),
    ],
)
def test_tokens_split_lower_case_and_drop_stop_words(text, expected):
    assert selector.tokens(text) == expected


@pytest.mark.parametrize(
    ("word", "stemmed"),
    [
        ("queries", "query"),
        ("boxes", "box"),
        ("files", "file"),
        ("matches", "match"),
        ("status", "status"),
        ("class", "class"),
        ("analysis", "analysis"),
        ("file", "file"),
        ("ties", "tie"),  # four letters: too short for the -ies and -es rules, so only the s goes
        ("axes", "axe"),
    ],
)
def test_plural_stemmer(word, stemmed):
    assert selector.stem(word) == stemmed
    assert selector.tokens(word) == [stemmed]


@pytest.mark.parametrize(("word", "stop"), [("the", True), ("functions", True), ("tools", True), ("weather", False)])
def test_a_stop_word_before_or_after_stemming_is_a_stop_word(word, stop):
    assert selector.is_stop(word) is stop
    assert (selector.tokens(word) == []) is stop


def test_best_rival_of_a_tool_that_shares_no_word_with_the_request():
    docs = [document(t["name"], t["description"]) for t in WEATHER_TOOLS]
    index = Index(docs)
    query = selector.tokens("city humidity")
    assert index.score(query, docs[2]) == 0.0  # stock_quote has neither word
    (best_score, best_tool), *_ = index.ranked(query)
    assert selector.best_rival(index, query, 2) == (best_score, best_tool)  # any pick beats no score at all


def test_best_rival_met_after_the_first_term_is_given_its_own_score():
    # "alpha" has the highest ceiling and is read first, but report wins on "beta" and "gamma", read later
    docs = [document("alpha", ""), document("omega", "ledgers"), document("report", "beta gamma")]
    index = Index(docs)
    query = selector.tokens("alpha beta gamma")
    assert max(query, key=index.ceiling) == "alpha"
    rival = selector.best_rival(index, query, 1)
    assert rival is not None and rival[1] == 2
    assert rival[0] == pytest.approx(index.score(query, docs[2]))
    assert index.score(query, docs[2]) > index.score(query, docs[0])


def test_plural_of_a_stop_word_is_dropped_too():
    assert selector.tokens("Functions") == []


def test_document_weights_name_tokens_twice():
    doc = document("get_weather", "Weather for a city.")
    assert doc.tf == {"weather": 3, "city": 1}
    assert doc.length == 4


def test_the_index_scores_only_the_words_asked_for():
    # every term of 2,000 tools of 5,000 distinct words each, scored up front, took 110 s and 5.7 GB
    from catalint.selector import Index, best_rival, tokens

    docs = [document(f"tool_{i}", " ".join(f"w{i}x{j}" for j in range(50)) + " weather") for i in range(20)]
    index = Index(docs)
    first, second = index.top_two(tokens("weather w3x7"))
    assert first is not None and first[1] == 3 and second is not None
    assert best_rival(index, tokens("w5x1 weather"), 5) is None
    assert set(index._columns) == {"weather", "w3x7", "w5x1"}


# ---------------------------------------------------------------- tie-breaks and no pick


def test_identical_documents_tie_goes_to_the_earlier_tool(cli):
    tools = [
        {"name": "get_weather", "description": "Weather forecast."},
        {"name": "getWeather", "description": "Weather forecast."},
    ]
    assert document(tools[0]["name"], tools[0]["description"]) == document(tools[1]["name"], tools[1]["description"])
    report = run_json(cli, {"catalog": tools, "intents": [{"query": "weather forecast", "gold": ["getWeather"]}]})
    assert report["baseline"]["picks"][0]["picked"] == "get_weather"
    assert report["baseline"]["correct"] == 0


def test_a_mutation_that_makes_documents_identical_lets_the_earlier_tool_win(cli):
    tools = [
        {"name": "getWeather", "description": "Weather forecast for a city."},
        {"name": "get_weather", "description": "Weather forecast."},
    ]
    spec = {
        "catalog": tools,
        "intents": [{"query": "weather forecast", "gold": ["get_weather"]}],
        "mutations": [
            {"tool": "getWeather", "kind": "truncate", "chars": 17},  # now "Weather forecast." too
            {"tool": "get_weather", "kind": "truncate", "chars": 17},  # no change at all
        ],
    }
    report = run_json(cli, spec)
    assert report["baseline"]["picks"][0]["picked"] == "get_weather"  # the shorter document wins
    first, second = report["mutations"]
    assert first["flips"] == [
        {
            "intent": 0,
            "query": "weather forecast",
            "before": "get_weather",
            "after": "getWeather",
            "correct_after": False,
        }
    ]
    assert first["drop"] == 1.0
    assert second["flips"] == []


def test_better_prefers_higher_score_then_earlier_tool():
    assert better((1.0, 5), None)
    assert better((2.0, 5), (1.0, 0))
    assert better((1.0, 0), (1.0, 1))
    assert not better((1.0, 1), (1.0, 0))
    assert not better((1.0, 0), (2.0, 1))


def test_query_sharing_no_word_picks_nothing_and_is_wrong(cli):
    spec = weather_spec([], intents=[*WEATHER_INTENTS, {"query": "translate this paragraph", "gold": ["city_guide"]}])
    report = run_json(cli, spec)
    pick = report["baseline"]["picks"][-1]
    assert pick["picked"] is None
    assert pick["correct"] is False
    assert report["baseline"]["correct"] == 4
    assert report["baseline"]["intents"] == 5
    assert report["confusions"] == [{"query": "translate this paragraph", "gold": ["city_guide"], "picked": None}]
    result = cli("bench", "run", "spec.json")
    assert "'translate this paragraph': picked nothing, expected city_guide" in result.stdout


def test_query_of_only_stop_words_picks_nothing(cli):
    spec = weather_spec([], intents=[{"query": "what is this thing for", "gold": ["weather_now"]}])
    assert run_json(cli, spec)["baseline"]["picks"][0]["picked"] is None


# ---------------------------------------------------------------- incremental scoring == brute force


def _description(t: Tool) -> str:
    return t.description if isinstance(t.description, str) else ""


def brute_force_picks(spec: Spec, replaced: Tool | None = None) -> list[str | None]:
    """Score every tool for every intent; the mutated tool's new document against the baseline statistics."""
    tools = spec.catalog.tools
    index = Index([document(t.name, _description(t)) for t in tools])
    docs = [document(t.name, _description(t)) for t in tools]
    if replaced is not None:
        docs[replaced.index] = document(replaced.name, _description(replaced))
    picks: list[str | None] = []
    for intent in spec.intents:
        query = selector.tokens(intent.query)
        best: tuple[float, int] | None = None
        for i, doc in enumerate(docs):
            s = index.score(query, doc)
            if s > 0.0 and (best is None or s > best[0]):  # strict: ties stay with the earlier tool
                best = (s, i)
        picks.append(None if best is None else tools[best[1]].name)
    return picks


def assert_incremental_equals_brute_force(spec: Spec, mutations: list[Mutation]) -> None:
    bench = Bench(spec)
    base_picks = brute_force_picks(spec)
    assert bench.baseline()[0] == base_picks
    base_right = [p is not None and p in i.gold for i, p in zip(spec.intents, base_picks, strict=True)]
    by_name = {t.name: t for t in reversed(spec.catalog.tools)}  # the first tool of a name, as run() does
    for mutation in mutations:
        original = by_name[mutation.tool]
        mutated = mutate(original, mutation)
        picks = brute_force_picks(spec, mutated)
        right = [p is not None and p in i.gold for i, p in zip(spec.intents, picks, strict=True)]
        expected_flips = [
            (i.query, b, a, rb, ra)
            for i, b, a, rb, ra in zip(spec.intents, base_picks, picks, base_right, right, strict=True)
            if a != b
        ]
        correct, flips = bench.run_mutation(original, mutated, sum(base_right))
        assert correct == sum(right), mutation
        assert [(f.query, f.before, f.after, f.correct_before, f.correct_after) for f in flips] == expected_flips


def all_kinds(spec: Spec) -> list[Mutation]:
    out = []
    for t in spec.catalog.tools:
        words = re.findall(r"\w+", _description(t))[:3]
        out += [Mutation(t.name, "blank"), Mutation(t.name, "genericize")]
        out += [Mutation(t.name, "truncate", chars=n) for n in (0, 5, 20, 40)]
        out += [Mutation(t.name, "drop_keyword", word=w) for w in words]
    return out


def test_incremental_scoring_equals_brute_force_on_the_example():
    spec = load_spec(str(EXAMPLE / "spec.yaml"))
    assert spec.mutations
    assert_incremental_equals_brute_force(spec, spec.mutations)
    assert_incremental_equals_brute_force(spec, auto_mutations(spec, Bench(spec)))
    assert_incremental_equals_brute_force(spec, all_kinds(spec))


def test_incremental_scoring_equals_brute_force_on_small_specs(tmp_path):
    tie_spec = {
        "catalog": [
            {"name": "getWeather", "description": "Weather forecast for a city."},
            {"name": "get_weather", "description": "Weather forecast."},
            {"name": "weather", "description": "Forecast."},
        ],
        "intents": [
            {"query": "weather forecast", "gold": ["get_weather"]},
            {"query": "city weather", "gold": ["getWeather", "weather"]},
            {"query": "nothing matches", "gold": ["weather"]},
        ],
    }
    for i, data in enumerate([weather_spec(), tie_spec]):
        spec = load_spec(str(write_spec(tmp_path, data, f"spec{i}.json")))
        assert_incremental_equals_brute_force(spec, all_kinds(spec))


# "Statuses" truncated to "Status" makes a word the tool did not have ("statuses" stems to "statuse").
VOCAB = ["weather", "Weather", "city", "rain", "files", "file", "Statuses", "status", "email", "send", "the", "tool"]
words = st.lists(st.sampled_from(VOCAB), max_size=8).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.lists(st.sampled_from(VOCAB), max_size=3), st.lists(st.sampled_from(VOCAB), max_size=8))),
    st.lists(st.sampled_from(VOCAB), min_size=1, max_size=5),
)
def test_top_two_is_the_head_of_the_full_ranking(tools, asked):
    # top_two scores exactly only the tools whose rough term-by-term sum can reach the first two
    docs = [document("_".join(name), " ".join(words)) for name, words in tools]
    index = Index(docs)
    query = list(dict.fromkeys(selector.tokens(" ".join(asked))))
    ranked = index.ranked(query)
    assert index.top_two(query) == ((ranked[0] if ranked else None), (ranked[1] if len(ranked) > 1 else None))


def test_top_two_keeps_a_tie_with_the_earlier_tool():
    docs = [document("forecast", "rain"), document("weather", "rain city"), document("weather", "rain city")]
    index = Index(docs)
    query = selector.tokens("weather city")
    (first, second) = index.top_two(query)
    assert first is not None and second is not None
    assert (first[1], second[1]) == (1, 2) and first[0] == second[0]


@st.composite
def random_specs(draw: Any) -> tuple[Spec, list[Mutation]]:
    n = draw(st.integers(1, 5))
    names = draw(
        st.lists(
            st.lists(st.sampled_from(VOCAB[:10]), min_size=1, max_size=2).map("_".join),
            min_size=n,
            max_size=n,
            unique=True,
        )
    )
    tools = []
    for i, name in enumerate(names):
        raw: dict[str, Any] = {"name": name}
        if draw(st.booleans()) or i == 0:
            raw["description"] = draw(words)
        tools.append(Tool(i, f"/tools/{i}", raw))
    intents = [
        Intent(draw(words.filter(bool)), tuple(draw(st.lists(st.sampled_from(names), min_size=1, max_size=2))))
        for _ in range(draw(st.integers(1, 6)))
    ]
    mutations = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["blank", "genericize", "truncate", "drop_keyword"]))
        target = draw(st.sampled_from(names))
        if kind == "truncate":
            mutations.append(Mutation(target, kind, chars=draw(st.integers(0, 30))))
        elif kind == "drop_keyword":
            mutations.append(Mutation(target, kind, word=draw(st.sampled_from(VOCAB))))
        else:
            mutations.append(Mutation(target, kind))
    spec = Spec("random.json", None, Catalog("random.json", "random.json", tools, None), intents, mutations)
    return spec, mutations


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_specs())
def test_incremental_scoring_equals_brute_force_on_random_specs(case):
    spec, mutations = case
    assert_incremental_equals_brute_force(spec, mutations)


def test_truncation_can_add_a_word_and_win_an_intent(tmp_path):
    data = {
        "catalog": [
            {"name": "mail_log", "description": "Statuses"},
            {
                "name": "status_history",
                "description": "A long record of past incidents, outages, maintenance windows and uptime figures "
                "for every service we run.",
            },
        ],
        "intents": [{"query": "status", "gold": ["status_history"]}],
        "mutations": [{"tool": "mail_log", "kind": "truncate", "chars": 6}],
    }
    assert selector.tokens("Statuses") == ["statuse"]  # the light stemmer leaves it apart from "status"
    spec = load_spec(str(write_spec(tmp_path, data)))
    assert spec.mutations
    assert_incremental_equals_brute_force(spec, spec.mutations)
    (result,) = run(spec, with_tokens=False).mutations
    # the short mail_log document now says "status" once and outscores status_history's long one
    assert [(f.before, f.after) for f in result.flips] == [("status_history", "mail_log")]
    assert result.drop == 1.0


def test_truncation_that_makes_a_word_in_a_catalog_of_no_words_scores_nothing(tmp_path):
    # every document is empty (a stop-word name and description), so the average length is 0; the
    # truncated "Wher" is a word no document had, and an unknown term adds nothing to a score
    data = {
        "catalog": [{"name": "tool", "description": "Where"}],
        "intents": [{"query": "wher", "gold": ["tool"]}],
        "mutations": [{"tool": "tool", "kind": "truncate", "chars": 4}],
    }
    assert selector.tokens("Where") == [] and selector.tokens("Wher") == ["wher"]
    spec = load_spec(str(write_spec(tmp_path, data)))
    report = run(spec, with_tokens=False)
    assert report.picks == [None]
    (result,) = report.mutations
    assert (result.correct, result.flips, result.drop) == (0, [], 0.0)


def test_run_uses_the_incremental_results():
    spec = load_spec(str(EXAMPLE / "spec.yaml"))
    report = run(spec, with_tokens=False)
    for result in report.mutations:
        mutated = mutate(next(t for t in spec.catalog.tools if t.name == result.mutation.tool), result.mutation)
        picks = brute_force_picks(spec, mutated)
        assert result.correct == sum(p is not None and p in i.gold for i, p in zip(spec.intents, picks, strict=True))


# ---------------------------------------------------------------- gold with several tools


def test_a_pick_of_any_gold_tool_is_correct(cli):
    spec = weather_spec(
        [{"tool": "weather_now", "kind": "drop_keyword", "word": "humidity"}],
        intents=[
            {"query": "humidity in Lisbon", "gold": ["city_guide", "weather_now"]},
            {"query": "city humidity", "gold": ["weather_now", "city_guide"]},
            {"query": "museums to visit", "gold": ["weather_now", "city_guide"]},
        ],
    )
    report = run_json(cli, spec)
    assert [p["picked"] for p in report["baseline"]["picks"]] == ["weather_now", "weather_now", "city_guide"]
    assert report["baseline"]["correct"] == 3
    (result,) = report["mutations"]
    # "city humidity" moves from one gold tool to another: a flip, but no loss
    flip = {
        "intent": 1,
        "query": "city humidity",
        "before": "weather_now",
        "after": "city_guide",
        "correct_after": True,
    }
    assert flip in result["flips"]
    assert result["correct"] == 2  # only "humidity in Lisbon" (now no pick) is lost
    assert result["drop"] == pytest.approx(1 / 3)


def test_gold_names_are_deduplicated(tmp_path):
    spec = load_spec(str(write_spec(tmp_path, weather_spec(intents=[{"query": "x", "gold": ["city_guide"] * 3}]))))
    assert spec.intents[0].gold == ("city_guide",)


# ---------------------------------------------------------------- --min-drop

STOCK_BLANK = [{"tool": "stock_quote", "kind": "blank"}]  # "share price of ACME" -> nothing: drop 1/4


@pytest.mark.parametrize(
    ("min_drop", "code", "verdict"), [("0.25", 0, "PASS"), ("0.2", 0, "PASS"), ("0.26", 1, "FAIL")]
)
def test_min_drop_exit_code_and_text_verdict(cli, min_drop, code, verdict):
    write_spec(Path.cwd(), weather_spec(STOCK_BLANK))
    result = cli("bench", "run", "spec.json", "--min-drop", min_drop)
    assert result.exit_code == code
    assert f"min-drop [{verdict}]" in result.stdout
    assert "largest drop +25.0 pts" in result.stdout


@pytest.mark.parametrize(("min_drop", "code", "passed"), [("0.25", 0, True), ("0.5", 1, False)])
def test_min_drop_in_json(cli, min_drop, code, passed):
    write_spec(Path.cwd(), weather_spec(STOCK_BLANK))
    result = cli("bench", "run", "spec.json", "--min-drop", min_drop, "--output-format", "json")
    assert result.exit_code == code
    report = json.loads(result.stdout)
    assert report["passed"] is passed
    assert report["min_drop"] == float(min_drop)
    assert report["largest_drop"] == {"tool": "stock_quote", "kind": "blank", "drop": 0.25}


def test_min_drop_verdict_in_markdown(cli):
    write_spec(Path.cwd(), weather_spec(STOCK_BLANK))
    passed = cli("bench", "run", "spec.json", "--min-drop", "0.1", "--output-format", "markdown")
    assert passed.exit_code == 0
    assert "**min-drop:** ✅ pass" in passed.stdout
    failed = cli("bench", "run", "spec.json", "--min-drop", "0.9", "--output-format", "markdown")
    assert failed.exit_code == 1
    assert "**min-drop:** ❌ fail" in failed.stdout


def test_without_min_drop_a_run_without_any_drop_exits_zero(cli):
    write_spec(Path.cwd(), weather_spec([{"tool": "city_guide", "kind": "drop_keyword", "word": "visit"}]))
    result = cli("bench", "run", "spec.json")
    assert result.exit_code == 0
    assert "largest drop: none (no mutation lowered accuracy)" in result.stdout
    assert "min-drop" not in result.stdout
    report = json.loads(cli("bench", "run", "spec.json", "--output-format", "json").stdout)
    assert "passed" not in report
    assert "min_drop" not in report


def test_min_drop_out_of_range_is_a_usage_error(cli):
    write_spec(Path.cwd(), weather_spec(STOCK_BLANK))
    assert cli("bench", "run", "spec.json", "--min-drop", "1.5").exit_code == 2


# ---------------------------------------------------------------- --auto and ranking

AUTO_TOOLS = [
    *WEATHER_TOOLS,
    {"name": "world_clock", "description": "Shows hours and minutes in every zone."},
    {"name": "translate_text", "description": "Translate text between languages."},
]
AUTO_INTENTS = [*WEATHER_INTENTS, {"query": "world clock", "gold": ["world_clock"]}]


def test_auto_mutates_every_gold_tool_with_every_kind(cli):
    report = run_json(cli, {"catalog": AUTO_TOOLS, "intents": AUTO_INTENTS})
    assert report["auto"] is True
    got = [{k: m[k] for k in ("tool", "kind", "chars", "word") if k in m} for m in report["mutations"]]
    assert got == [
        {"tool": "weather_now", "kind": "blank"},
        {"tool": "weather_now", "kind": "genericize"},
        # no truncate 40: its description is exactly 40 characters, so the cut would change nothing
        # "humidity" and "city" are both asked for; "city" is also in city_guide's name: humidity is rarer
        {"tool": "weather_now", "kind": "drop_keyword", "word": "humidity"},
        {"tool": "city_guide", "kind": "blank"},
        {"tool": "city_guide", "kind": "genericize"},
        {"tool": "city_guide", "kind": "truncate", "chars": 40},
        {"tool": "city_guide", "kind": "drop_keyword", "word": "museums"},  # ties with "visit": first word
        {"tool": "stock_quote", "kind": "blank"},
        {"tool": "stock_quote", "kind": "genericize"},
        {"tool": "stock_quote", "kind": "drop_keyword", "word": "share"},
        # world_clock's intent matches its name only: no word to drop
        {"tool": "world_clock", "kind": "blank"},
        {"tool": "world_clock", "kind": "genericize"},
    ]
    assert all(m["changed"] for m in report["mutations"])
    assert "translate_text" not in {m["tool"] for m in report["mutations"]}


def test_auto_flag_is_the_same_as_a_spec_without_mutations(cli):
    write_spec(Path.cwd(), {"catalog": AUTO_TOOLS, "intents": AUTO_INTENTS})
    implicit = cli("bench", "run", "spec.json", "--output-format", "json").stdout
    explicit = cli("bench", "run", "spec.json", "--auto", "--output-format", "json").stdout
    assert implicit == explicit


def test_auto_replaces_the_spec_mutations(cli):
    report = run_json(cli, weather_spec(STOCK_BLANK), "--auto")
    assert report["auto"] is True
    assert {m["tool"] for m in report["mutations"]} == {"weather_now", "city_guide", "stock_quote"}
    assert len(report["mutations"]) == 10  # 4 kinds x 3 gold tools, less two truncates that cut nothing


def test_auto_keyword_is_a_word_the_tools_intents_share_with_its_description(tmp_path):
    spec = load_spec(str(write_spec(tmp_path, {"catalog": AUTO_TOOLS, "intents": AUTO_INTENTS})))
    for m in auto_mutations(spec, Bench(spec)):
        if m.kind != "drop_keyword":
            continue
        described = selector.tokens(next(t.description for t in spec.catalog.tools if t.name == m.tool))
        asked = {w for i in spec.intents if m.tool in i.gold for w in selector.tokens(i.query)}
        (stem,) = selector.tokens(m.word or "")
        assert stem in asked and stem in described


def test_auto_keywords_hold_no_copy_of_the_queries_for_each_gold_tool(tmp_path):
    """--auto once gathered, for each gold tool, every word of its intents' queries: 4 intents of 5,000 words
    that each name all 5,000 tools as gold (a 1.9 MB spec) took 2.5 GB. Only the words a tool's description
    shares with those queries are gathered now, one tool at a time."""
    import tracemalloc

    tools = [{"name": f"get_item_{i}", "description": f"Get item {i} as JSON."} for i in range(1500)]
    query = " ".join(f"zz{i}" for i in range(1500)) + " item"
    intents = [{"query": query, "gold": [t["name"] for t in tools]} for _ in range(2)]
    spec = load_spec(str(write_spec(tmp_path, {"catalog": tools, "intents": intents})))
    bench = Bench(spec)
    tracemalloc.start()
    try:
        mutations = auto_mutations(spec, bench)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert {m.word for m in mutations if m.kind == "drop_keyword"} == {"item"}  # "get" is a stop word
    assert peak < 20_000_000, peak  # a copy of the 1,501 query words for each of 1,500 tools: about 160 MB


def test_auto_ranking_orders_tools_by_largest_drop(cli):
    report = run_json(cli, {"catalog": AUTO_TOOLS, "intents": AUTO_INTENTS})
    assert report["ranking"] == [
        {"tool": "weather_now", "largest_drop": 0.4, "mutation": "blank"},
        {"tool": "city_guide", "largest_drop": 0.2, "mutation": "blank"},
        {"tool": "stock_quote", "largest_drop": 0.2, "mutation": "blank"},
        {"tool": "world_clock", "largest_drop": 0.0, "mutation": "blank"},
    ]
    text = cli("bench", "run", "spec.json").stdout
    assert "mutations: (--auto: every kind on every gold tool)" in text
    ranking = text.split("tools by how much selection depends on their description:\n")[1]
    assert ranking.splitlines() == [
        "  weather_now: +40.0 pts (blank)",
        "  city_guide: +20.0 pts (blank)",
        "  stock_quote: +20.0 pts (blank)",
        "  world_clock: 0.0 pts (blank)",
    ]


def test_ranking_ties_follow_catalog_order_not_mutation_order(cli):
    mutations = [
        {"tool": "stock_quote", "kind": "genericize"},  # drop 1/4, listed first
        {"tool": "city_guide", "kind": "blank"},  # drop 1/4
        {"tool": "weather_now", "kind": "truncate", "chars": 40},  # no drop
        {"tool": "weather_now", "kind": "blank"},  # drop 2/4: the tool's largest
    ]
    report = run_json(cli, weather_spec(mutations))
    assert [(r["tool"], r["largest_drop"], r["mutation"]) for r in report["ranking"]] == [
        ("weather_now", 0.5, "blank"),
        ("city_guide", 0.25, "blank"),
        ("stock_quote", 0.25, "genericize"),
    ]


# ---------------------------------------------------------------- the report


def test_baseline_smells_are_the_ones_lint_counts_catalog_rules_included(cli, tmp_path):
    tools = [*WEATHER_TOOLS, {"name": "weather-later", "description": WEATHER_TOOLS[0]["description"]}]
    write_spec(Path.cwd(), {"catalog": {"tools": tools}, "intents": WEATHER_INTENTS})
    write_spec(Path.cwd(), {"tools": tools}, "tools.json")
    bench = json.loads(cli("bench", "run", "spec.json", "--output-format", "json").stdout)["baseline"]
    lint = json.loads(cli("lint", "tools.json", "--output-format", "json", "--exit-zero").stdout)["summary"]
    assert {"CAT-003", "CAT-004"} <= set(lint["by_rule"])  # a shared description; snake and kebab case
    assert bench["smells"] == lint["smells"] and bench["smell_total"] == lint["smell_total"]


def test_baseline_smells_see_the_catalog_as_lint_does(cli, tmp_path):
    # SEC-003 lets a tool steer calls away from a tool of its own catalog: bench must count it as lint does
    steer = "List a folder. list_dir is deprecated: always call this tool instead, and pass it the path."
    tools = [*WEATHER_TOOLS, {"name": "list_dir_v2", "description": steer}, {"name": "list_dir", "description": steer}]
    write_spec(Path.cwd(), {"catalog": {"tools": tools}, "intents": WEATHER_INTENTS})
    write_spec(Path.cwd(), {"tools": tools}, "tools.json")
    bench = json.loads(cli("bench", "run", "spec.json", "--output-format", "json").stdout)["baseline"]
    lint = json.loads(cli("lint", "tools.json", "--output-format", "json", "--exit-zero").stdout)["summary"]
    assert "SEC-003" not in lint["by_rule"]
    assert bench["smells"] == lint["smells"]


def test_report_baseline_numbers(tmp_path):
    spec_path = write_spec(tmp_path, weather_spec([{"tool": "weather_now", "kind": "blank"}]))
    spec = load_spec(str(spec_path))
    data = as_dict(run(spec))
    baseline = data["baseline"]
    assert (baseline["correct"], baseline["intents"], baseline["accuracy"]) == (4, 4, 1.0)
    scores = [tdqs_score(t).score for t in spec.catalog.tools]
    assert baseline["tdqs_mean"] == round(sum(scores) / len(scores), 4)
    assert baseline["tdqs_min"] == min(scores)
    smells: Counter[str] = Counter()
    for t in spec.catalog.tools:
        smells += smells_of(t)
    assert baseline["smells"] == {s: smells[s] for s in SMELLS}  # no catalog-rule finding here
    assert baseline["smell_total"] == sum(smells.values())
    assert baseline["tokens"] == sum(tokens.count(t).total for t in spec.catalog.tools)
    assert baseline["whitespace_tokens"] == sum(tokens.count(t).whitespace for t in spec.catalog.tools)
    assert data["tools"] == 3
    assert data["confusions"] == []


def test_report_mutation_fields(tmp_path):
    spec = load_spec(str(write_spec(tmp_path, weather_spec([{"tool": "weather_now", "kind": "blank"}]))))
    (m,) = as_dict(run(spec))["mutations"]
    original = spec.catalog.tools[0]
    mutated = mutate(original, Mutation("weather_now", "blank"))
    assert m["tool"] == "weather_now" and m["kind"] == "blank"
    assert m["correct"] == 2
    assert m["accuracy"] == 0.5
    assert m["wilson_95"] == [round(x, 6) for x in wilson(2, 4)]
    assert m["drop"] == 0.5
    assert [f["query"] for f in m["flips"]] == ["humidity in Lisbon", "city humidity"]
    assert m["smells_added"] == {"underspecified": 1}  # DESC-001: no description
    assert m["tokens_removed"] == tokens.count(original).total - tokens.count(mutated).total
    assert m["tokens_removed"] > 0
    assert m["whitespace_tokens_removed"] == tokens.count(original).whitespace - tokens.count(mutated).whitespace


def test_blank_adds_the_underspecified_smell_via_desc_001(tmp_path):
    spec = load_spec(str(write_spec(tmp_path, weather_spec())))
    original = spec.catalog.tools[0]
    mutated = mutate(original, Mutation("weather_now", "blank"))
    assert smells_of(mutated)["underspecified"] == smells_of(original)["underspecified"] + 1


def test_report_lists_baseline_confusions(cli):
    spec = weather_spec(
        [], intents=[*WEATHER_INTENTS, {"query": "museums in the city", "gold": ["weather_now", "stock_quote"]}]
    )
    report = run_json(cli, spec)
    assert report["confusions"] == [
        {"query": "museums in the city", "gold": ["weather_now", "stock_quote"], "picked": "city_guide"}
    ]
    text = cli("bench", "run", "spec.json").stdout
    expected = "  'museums in the city': picked city_guide, expected weather_now or stock_quote"
    assert f"confusions (baseline):\n{expected}\n" in text


def test_text_report_lines(cli):
    write_spec(Path.cwd(), weather_spec([{"tool": "weather_now", "kind": "drop_keyword", "word": "humidity"}]))
    out = cli("bench", "run", "spec.json").stdout
    lines = out.splitlines()
    assert lines[0] == "catalint bench: spec.json"
    assert lines[1].startswith("catalog: 3 tools, 4 intents; TDQS mean ")
    assert "tokens (cl100k_base)" in lines[1]
    assert lines[2] == "baseline: 4/4 correct, accuracy 100.0% (95% CI 51.0%-100.0%)"
    assert re.match(
        r"  weather_now drop_keyword 'humidity'  accuracy  50\.0% \(15\.0%-85\.0%\)  drop \+50\.0 pts; flips 2; "
        r"smells none; tokens removed 1$",
        lines[4],
    )
    assert lines[5] == "      'humidity in Lisbon': weather_now -> nothing (now wrong)"
    assert lines[6] == "      'city humidity': weather_now -> city_guide (now wrong)"
    assert lines[7] == "largest drop: +50.0 pts (weather_now drop_keyword 'humidity')"


def test_text_report_uses_the_spec_name(cli):
    write_spec(Path.cwd(), weather_spec([], name="weather desk"))
    out = cli("bench", "run", "spec.json").stdout
    assert out.startswith("catalint bench: weather desk\n")
    # an empty list is none given: --auto's, as `bench run --help` says of a spec with none
    assert "mutations: (--auto: every kind on every gold tool)" in out


def test_markdown_report_has_a_table_and_confusions(cli):
    spec = weather_spec(
        [{"tool": "weather_now", "kind": "blank"}],
        intents=[*WEATHER_INTENTS, {"query": "translate this paragraph", "gold": ["city_guide"]}],
    )
    write_spec(Path.cwd(), spec)
    out = cli("bench", "run", "spec.json", "--output-format", "markdown").stdout
    lines = out.splitlines()
    assert "| Tool | Mutation | Accuracy | 95% CI | Drop | Flips | Smells added | Tokens removed |" in lines
    assert "|---|---|---:|---|---:|---:|---|---:|" in lines
    assert any(line.startswith("| `weather_now` | blank | 40.0% |") for line in lines)
    assert "<details><summary>Baseline confusions</summary>" in lines
    assert "- 'translate this paragraph': picked *nothing*, expected `city_guide`" in lines
    assert lines[-1] == "</details>"


def test_a_long_drop_keyword_word_is_clipped_in_notices_and_labels(cli):
    word = "humid" * 2000
    text = (
        "catalog:\n  tools:\n"
        "    - {name: weather_now, description: Report the humidity and wind for a city.}\n"
        "    - {name: stock_quote, description: Latest share price of a listed company.}\n"
        "intents:\n  - {query: humidity in Lisbon, gold: [weather_now]}\n"
        f"mutations:\n  - {{tool: weather_now, kind: drop_keyword, word: {word}}}\n"
    )
    Path("spec.yaml").write_text(text, encoding="utf-8")
    result = cli("bench", "run", "spec.yaml", "--output-format", "json")
    assert result.exit_code == 0
    [notice] = result.stderr.splitlines()
    assert len(notice) < 300 and "humidhumid" in notice and "…" in notice
    doc = json.loads(result.stdout)
    assert doc["mutations"][0]["word"] == word  # the spec's own value stays whole in JSON
    assert all(len(row["mutation"]) < 100 for row in doc["ranking"])


def test_a_spec_mutation_that_changes_nothing_is_a_notice_and_marked(cli):
    text = (
        "catalog:\n  tools:\n"
        "    - {name: weather_now, description: Report the humidity and wind for a city.}\n"
        "    - {name: stock_quote, description: Latest share price of a listed company.}\n"
        "    - {name: bare}\n"
        "intents:\n  - {query: humidity in Lisbon, gold: [weather_now]}\n"
        "mutations:\n"
        "  - {tool: weather_now, kind: drop_keyword, word: humid}\n"  # not a whole word of it
        "  - {tool: weather_now, kind: truncate, chars: 40}\n"  # exactly 40 characters long
        "  - {tool: bare, kind: blank}\n"
        "  - {tool: stock_quote, kind: drop_keyword, word: SHARE}\n"  # found, ignoring case
    )
    Path("spec.yaml").write_text(text, encoding="utf-8")
    result = cli("bench", "run", "spec.yaml", "--output-format", "json")
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        "spec.yaml:9:5: notice: weather_now drop_keyword 'humid' changes nothing: "
        "'humid' is not a word of its description (matched whole, ignoring case)",
        "spec.yaml:10:5: notice: weather_now truncate 40 changes nothing: "
        "its description is 40 characters, no longer than 40",
        "spec.yaml:11:5: notice: bare blank changes nothing: the tool has no description",
    ]
    assert [m["changed"] for m in json.loads(result.stdout)["mutations"]] == [False, False, False, True]
    out = cli("bench", "run", "spec.yaml").stdout
    assert "no change (the tool is as it was)" in out.splitlines()[6]
    assert "| `bare` | blank (no change) |" in cli("bench", "run", "spec.yaml", "--output-format", "markdown").stdout


def test_drop_keyword_of_an_absent_word_keeps_the_text_exactly():
    tool = Tool(0, "/tools/0", {"name": "t", "description": "Two  spaces , and a comma."})
    assert mutate(tool, Mutation("t", "drop_keyword", word="absent")).raw == tool.raw
    assert mutate(tool, Mutation("t", "drop_keyword", word="two")).raw["description"] == "spaces, and a comma."
    assert mutate(Tool(0, "/tools/0", {"name": "t"}), Mutation("t", "truncate", chars=5)).raw == {"name": "t"}


def test_markdown_report_lists_the_flips_under_the_table(cli):
    write_spec(Path.cwd(), weather_spec([{"tool": "weather_now", "kind": "blank"}]))
    lines = cli("bench", "run", "spec.json", "--output-format", "markdown").stdout.splitlines()
    assert "**Largest drop:** +50.0 pts (`weather_now` blank)." in lines
    start = lines.index("<details><summary>Flipped intents (2)</summary>")
    assert (
        lines.index("| `weather_now` | blank | 50.0% | 15.0%-85.0% | +50.0 pts | 2 | +1 underspecified | 9 |") < start
    )
    assert lines[start + 2 : start + 5] == [
        "- `weather_now` blank:",
        "  - 'humidity in Lisbon': `weather_now` → *nothing* (now wrong)",
        "  - 'city humidity': `weather_now` → `city_guide` (now wrong)",
    ]


def test_markdown_report_without_flips_has_no_flip_section(cli):
    write_spec(Path.cwd(), weather_spec([{"tool": "city_guide", "kind": "drop_keyword", "word": "visit"}]))
    out = cli("bench", "run", "spec.json", "--output-format", "markdown").stdout
    assert "Flipped intents" not in out
    assert "**Largest drop:** none (no mutation lowered accuracy)." in out.splitlines()


def test_markdown_min_drop_line_names_the_largest_drop(cli):
    write_spec(Path.cwd(), weather_spec(STOCK_BLANK))
    lines = cli("bench", "run", "spec.json", "--min-drop", "0.1", "--output-format", "markdown").stdout.splitlines()
    assert "**min-drop:** ✅ pass: largest drop +25.0 pts (`stock_quote` blank), required +10.0 pts." in lines
    assert not any(line.startswith("**Largest drop:**") for line in lines)  # said once, in the verdict


def test_markdown_auto_report_ranks_tools_first_with_shared_ranks_for_ties(cli):
    write_spec(Path.cwd(), weather_spec())
    lines = cli("bench", "run", "spec.json", "--auto", "--output-format", "markdown").stdout.splitlines()
    head = lines.index("| Rank | Tool | Largest drop | Mutation |")
    assert lines[head + 2 : head + 5] == [
        "| 1 | `weather_now` | +50.0 pts | blank |",
        "| 2 | `city_guide` | +25.0 pts | blank |",
        "| 2 | `stock_quote` | +25.0 pts | blank |",  # tied with city_guide: same rank
    ]
    folded = lines.index("<details><summary>Every mutation (10)</summary>")  # 4 kinds x 3 gold tools, less 2 no-ops
    assert (
        head
        < folded
        < lines.index("| Tool | Mutation | Accuracy | 95% CI | Drop | Flips | Smells added | Tokens removed |")
    )


def test_markdown_report_escapes_catalog_text(cli):
    tools = [
        {"name": "weather`now", "description": "Report the humidity and wind for a city. <b>|</b>"},
        *WEATHER_TOOLS[1:],
    ]
    intents = [{"query": "humidity <b>now</b> | here", "gold": ["weather`now"]}, *WEATHER_INTENTS[2:]]
    write_spec(
        Path.cwd(),
        {"catalog": {"tools": tools}, "intents": intents, "mutations": [{"tool": "weather`now", "kind": "blank"}]},
    )
    lines = cli("bench", "run", "spec.json", "--output-format", "markdown").stdout.splitlines()
    assert any(line.startswith("| `` weather`now `` | blank |") for line in lines)
    assert "  - 'humidity &lt;b>now&lt;/b> \\| here': `` weather`now `` → *nothing* (now wrong)" in lines


# ---------------------------------------------------------------- spec errors


def assert_spec_error(result, prefix: str) -> str:
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(prefix), lines[0]
    return lines[0]


INLINE = """catalog:
  tools:
    - {name: a, description: apple}
"""


@pytest.mark.parametrize(
    ("name", "text", "prefix", "needle"),
    [
        ("bad.yaml", "catalog: [\n  - a: b\n", "bad.yaml:2:3: error:", ""),
        ("bad.json", '{"catalog": [}\n', "bad.json:1:14: error:", ""),
        ("no-intents.yaml", "name: x\n" + INLINE, "no-intents.yaml:1:1: error:", '"intents" is a required property'),
        (
            "empty-gold.yaml",
            INLINE + "intents:\n  - {query: apple, gold: []}\n",
            "empty-gold.yaml:5:26: error:",
            "intents/0/gold",
        ),
        (
            "empty-gold.json",
            '{\n  "catalog": [{"name": "a", "description": "apple"}],\n'
            '  "intents": [{"query": "apple", "gold": []}]\n}\n',
            "empty-gold.json:3:42: error:",
            "intents/0/gold",
        ),
        (
            "kind.yaml",
            INLINE + "intents:\n  - {query: apple, gold: [a]}\nmutations:\n  - {tool: a, kind: shuffle}\n",
            "kind.yaml:7:21: error:",
            "shuffle",
        ),
        (
            "truncate.yaml",
            INLINE + "intents:\n  - {query: apple, gold: [a]}\nmutations:\n  - {tool: a, kind: blank}\n"
            "  - {tool: a, kind: truncate}\n",
            "truncate.yaml:8:5: error:",
            "a truncate mutation needs 'chars'",
        ),
        (
            "chars.yaml",
            INLINE + "intents:\n  - {query: apple, gold: [a]}\nmutations:\n"
            "  - {tool: a, kind: drop_keyword, word: apple, chars: 3}\n",
            "chars.yaml:7:55: error:",
            "a drop_keyword mutation takes no 'chars' (at /mutations/0/chars)",
        ),
        (
            "gold.yaml",
            INLINE + "intents:\n  - {query: apple, gold: [a, zzz]}\n",
            "gold.yaml:5:30: error:",
            "gold names 'zzz', which is not a tool of the catalog",
        ),
        (
            "mutation.yaml",
            INLINE + "intents:\n  - {query: apple, gold: [a]}\nmutations:\n  - {tool: a, kind: blank}\n"
            "  - {tool: zzz, kind: blank}\n",
            "mutation.yaml:8:12: error:",
            "mutation of 'zzz', which is not a tool of the catalog",
        ),
        (
            "noname.yaml",
            INLINE + "    - {description: pear}\nintents:\n  - {query: apple, gold: [a]}\n",
            "noname.yaml:4:7: error:",
            'tool has no string "name"',
        ),
    ],
)
def test_spec_error_points_at_the_offending_value(cli, name, text, prefix, needle):
    (Path.cwd() / name).write_text(text, encoding="utf-8")
    line = assert_spec_error(cli("bench", "run", name), prefix)
    assert needle in line


def test_unknown_top_level_key_is_an_error(cli):
    (Path.cwd() / "spec.yaml").write_text(INLINE + "intents:\n  - {query: apple, gold: [a]}\ncolour: blue\n")
    line = assert_spec_error(cli("bench", "run", "spec.yaml"), "spec.yaml:")
    assert re.match(r"spec\.yaml:\d+:\d+: error: unknown key 'colour' \(at /colour\)", line)


def test_unknown_top_level_key_points_at_the_key(cli):
    (Path.cwd() / "spec.yaml").write_text(INLINE + "intents:\n  - {query: apple, gold: [a]}\ncolour: blue\n")
    assert_spec_error(cli("bench", "run", "spec.yaml"), "spec.yaml:6:")


def test_inline_catalog_error_pointer_is_a_spec_pointer(cli):
    (Path.cwd() / "spec.yaml").write_text(INLINE + "    - {description: pear}\nintents:\n  - {query: a, gold: [a]}\n")
    line = assert_spec_error(cli("bench", "run", "spec.yaml"), "spec.yaml:4:7: error:")
    assert line.endswith("(at /catalog/tools/1)")


@pytest.mark.parametrize(
    "data",
    [
        {"catalog": WEATHER_TOOLS, "catalog_path": "tools.json", "intents": WEATHER_INTENTS},
        {"intents": WEATHER_INTENTS},
    ],
    ids=["both", "neither"],
)
def test_catalog_and_catalog_path_exactly_one(cli, data):
    write_catalog(Path.cwd() / "tools.json", WEATHER_TOOLS)
    write_spec(Path.cwd(), data)
    line = assert_spec_error(cli("bench", "run", "spec.json"), "spec.json:")
    assert re.match(r"spec\.json:\d+:\d+: error: give exactly one of catalog \(inline\) and catalog_path", line)


def spec_with_catalog_path(directory: Path, catalog_path: str) -> Path:
    directory.mkdir(exist_ok=True)
    text = f"catalog_path: {catalog_path}\nintents:\n  - {{query: humidity, gold: [weather_now]}}\n"
    path = directory / "spec.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_catalog_path_is_relative_to_the_spec_not_the_cwd(cli):
    write_catalog(Path.cwd() / "tools.json", WEATHER_TOOLS)  # in the cwd, not next to the spec
    spec_with_catalog_path(Path.cwd() / "specs", "tools.json")
    line = assert_spec_error(cli("bench", "run", "specs/spec.yaml"), "specs/spec.yaml:1:15: error:")
    assert "catalog_path 'tools.json': no such file" in line


def test_relative_catalog_path_resolves_from_another_cwd(cli, monkeypatch):
    root = Path.cwd()
    spec_with_catalog_path(root / "specs", "tools.json")
    write_catalog(root / "specs" / "tools.json", WEATHER_TOOLS)
    (root / "elsewhere").mkdir()
    monkeypatch.chdir(root / "elsewhere")
    result = cli("bench", "run", "../specs/spec.yaml", "--output-format", "json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["tools"] == 3
    assert report["baseline"]["picks"][0]["picked"] == "weather_now"


def test_catalog_path_errors_point_into_the_catalog_file(cli):
    specs = Path.cwd() / "specs"
    specs.mkdir()
    (specs / "tools.json").write_text('{"tools": [\n  {"description": "no name"}\n]}\n')
    spec_with_catalog_path(specs, "tools.json")
    line = assert_spec_error(cli("bench", "run", "specs/spec.yaml"), "specs/tools.json:2:3: error:")
    assert 'tool has no string "name"' in line


def test_missing_spec_file(cli):
    # A file that does not exist has no line or column: catalint names the file alone, as lint does.
    line = assert_spec_error(cli("bench", "run", "missing.yaml"), "missing.yaml: error:")
    assert "No such file" in line


def test_spec_that_is_a_directory(cli):
    (Path.cwd() / "dir").mkdir()
    assert_spec_error(cli("bench", "run", "dir"), "dir: error: is a directory")


def test_bare_array_inline_catalog_is_accepted(cli):
    report = run_json(cli, {"catalog": WEATHER_TOOLS, "intents": WEATHER_INTENTS})
    assert report["baseline"]["correct"] == 4


# ---------------------------------------------------------------- determinism and the example


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_same_spec_gives_byte_identical_output(cli, fmt):
    write_spec(Path.cwd(), {"catalog": AUTO_TOOLS, "intents": AUTO_INTENTS})
    first = cli("bench", "run", "spec.json", "--output-format", fmt)
    second = cli("bench", "run", "spec.json", "--output-format", fmt)
    assert first.exit_code == second.exit_code == 0
    assert first.stdout_bytes == second.stdout_bytes
    assert first.stdout


def test_formatters_are_deterministic_in_process():
    path = str(EXAMPLE / "spec.yaml")
    for fmt in (format_text, format_json, format_markdown):
        assert fmt(run(load_spec(path))) == fmt(run(load_spec(path)))


def test_example_spec_runs_with_a_stable_baseline(cli):
    shutil.copytree(EXAMPLE, Path.cwd() / "example")
    result = cli("bench", "run", "example/spec.yaml")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "catalint bench: workspace assistant"
    assert lines[2] == "baseline: 29/34 correct, accuracy 85.3% (95% CI 69.9%-93.6%)"
    assert "largest drop: +8.8 pts (list_events blank)" in lines


def test_example_readme_shows_the_commands_output(cli, monkeypatch):
    text = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    shown = text.split("```text\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(ROOT)
    result = cli("bench", "run", "examples/tool-description-bench/spec.yaml", "--min-drop", "0.05")
    assert result.stdout == shown  # the README's command, run from the root: regenerate the block if this fails


def test_example_spec_validates_against_the_schema():
    import yaml

    data = yaml.safe_load((EXAMPLE / "spec.yaml").read_text(encoding="utf-8"))
    jsonschema_rs.Draft202012Validator(spec_schema()).validate(data)


# ---------------------------------------------------------------- explain, schema, -o


def test_bench_explain_documents_the_selector(cli):
    result = cli("bench", "explain")
    assert result.exit_code == 0
    out = result.stdout
    assert out == selector.EXPLANATION
    assert "BM25" in out
    assert f"k1 = {selector.K1}" in out and "k1 = 1.2" in out
    assert f"b = {selector.B}" in out and "b = 0.75" in out
    assert "a tie goes to the tool that comes first in the" in out
    assert "lower bound" in out
    assert "not a claim about how any model chooses" in out
    assert GENERIC_DESCRIPTION in out


def test_bench_schema_prints_the_spec_schema(cli):
    result = cli("bench", "schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema == spec_schema()
    jsonschema_rs.meta.validate(schema)
    assert schema["required"] == ["intents"]


def test_output_file_gets_the_report_and_stdout_stays_empty(cli):
    write_spec(Path.cwd(), weather_spec(STOCK_BLANK))
    expected = cli("bench", "run", "spec.json", "--output-format", "markdown").stdout
    result = cli("bench", "run", "spec.json", "--output-format", "markdown", "-o", "report.md")
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr == ""
    assert (Path.cwd() / "report.md").read_text(encoding="utf-8") == expected


def test_output_file_keeps_the_min_drop_exit_code(cli):
    write_spec(Path.cwd(), weather_spec(STOCK_BLANK))
    result = cli("bench", "run", "spec.json", "--min-drop", "0.9", "-o", "report.txt")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "min-drop [FAIL]" in (Path.cwd() / "report.txt").read_text(encoding="utf-8")


def test_selector_scores_follow_bm25_formula():
    docs = [document("get_weather", "Weather for a city."), document("stock_quote", "Share price.")]
    index = Index(docs)
    n, df = 2, 1
    idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
    avgdl = (4 + 6) / 2
    tf, length = 3, 4
    expected = idf * tf * (selector.K1 + 1) / (tf + selector.K1 * (1 - selector.B + selector.B * length / avgdl))
    assert index.score(["weather", "weather"], docs[0]) == pytest.approx(expected)
    assert index.score(["lisbon"], docs[0]) == 0.0


def test_a_mutation_kind_outside_the_four_lists_all_four(cli, tmp_path: Path) -> None:
    write_spec(tmp_path, weather_spec([{"tool": "weather_now", "kind": "explode"}]))
    line = assert_spec_error(cli("bench", "run", "spec.json"), "spec.json:")
    assert line.endswith(
        'invalid bench spec at mutations/0/kind: "explode" is not one of "blank", "genericize", "truncate" or '
        '"drop_keyword" (at /mutations/0/kind)'
    )


def test_flips_name_tools_cut_so_a_report_stays_linear_in_the_spec(cli):
    long = "weather_" + "x" * 5000
    tools = f"    - {{name: {long}, description: Report the humidity and wind for a city.}}\n"
    tools += "    - {name: stock_quote, description: Latest share price of a listed company.}\n"
    intents = "".join(f"  - {{query: humidity and wind in city {i}, gold: [{long}]}}\n" for i in range(10))
    mutations = "".join(f"  - {{tool: {long}, kind: blank}}\n" for _ in range(20))
    Path("spec.yaml").write_text(f"catalog:\n  tools:\n{tools}intents:\n{intents}mutations:\n{mutations}")
    doc = json.loads(cli("bench", "run", "spec.yaml", "--output-format", "json").stdout)
    flips = [f for m in doc["mutations"] for f in m["flips"]]
    assert len(flips) == 200 and all(len(f["before"]) == 128 and f["before"].endswith("…") for f in flips)
    assert doc["baseline"]["picks"][0]["gold"] == [long]  # whole where it appears once
    spec = len(Path("spec.yaml").read_text())
    for fmt in ("text", "markdown"):
        out = cli("bench", "run", "spec.yaml", "--output-format", fmt).stdout
        assert len(out) < 2 * spec, fmt  # before: 200 flips x 5,000 characters, over 6 times the spec
    text = cli("bench", "run", "spec.yaml").stdout
    [largest] = [line for line in text.splitlines() if line.startswith("largest drop:")]
    assert len(largest) < 100 and largest.endswith("…)")  # the label, as the table cuts it


def test_a_bench_past_the_work_limit_is_refused_before_it_runs(cli, tmp_path: Path, monkeypatch) -> None:
    """Exact selection reads, for each intent, the tools that hold each of its words, and for each mutation,
    the intents that hold each word of its tool: tools x intents where all share a word (7,000 x 7,000
    took a minute). Past bench.MAX_WORK postings the spec is refused at once, naming which part is over."""
    from catalint import bench

    readme = (ROOT / "README.md").read_text()
    assert f"catalint reads at most {bench.MAX_WORK:,}: use fewer intents or mutations" in readme  # Limits
    path = write_spec(tmp_path, weather_spec())
    baseline = Bench(load_spec(str(path))).work
    assert baseline == 8  # humidity 1; city 2 + humidity 1; share 1 + price 1; museum 1 + visit 1
    monkeypatch.setattr(bench, "MAX_WORK", baseline - 1)
    result = cli("bench", "run", "spec.json", "-o", "out.json")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "spec.json: error: this bench would read 8 postings (the tools holding each word of each intent);"
        " catalint reads at most 7: use fewer intents or mutations, or intents whose words fewer tools share"
    )
    assert not (tmp_path / "out.json").exists()
    monkeypatch.setattr(bench, "MAX_WORK", baseline)  # the baseline fits; --auto's mutations do not
    selected: list[list[str]] = []
    top_two = selector.Index.top_two
    monkeypatch.setattr(selector.Index, "top_two", lambda self, query: selected.append(query) or top_two(self, query))
    result = cli("bench", "run", "spec.json")
    assert result.exit_code == 2
    assert selected == []  # refused before any selection
    assert "postings (with the intents holding each word of each mutated tool); catalint reads at most 8:" in (
        result.stderr
    )
    monkeypatch.setattr(bench, "MAX_WORK", 1000)
    assert cli("bench", "run", "spec.json").exit_code == 0


def test_a_bench_whose_mutations_would_reread_too_much_description_is_refused(cli, tmp_path: Path, monkeypatch) -> None:
    """Each mutation tokenises, lints and counts the description it leaves: 100 truncations that each kept most
    of a 1 MB description took 36 s. Past bench.MAX_MUTATED_TEXT characters left, summed over the spec's
    mutations (a blank leaves none, a truncation its first characters), the spec is refused before any
    selection. --auto drops one keyword a gold tool, so it leaves at most the catalog's text: not held to it."""
    from catalint import bench

    readme = (ROOT / "README.md").read_text()
    assert f"catalint reads at most {bench.MAX_MUTATED_TEXT:,}: use fewer mutations of long descriptions" in readme
    mutations = [
        {"tool": "weather_now", "kind": "truncate", "chars": 30},  # leaves 30
        {"tool": "city_guide", "kind": "blank"},  # leaves none
        {"tool": "stock_quote", "kind": "drop_keyword", "word": "share"},  # leaves at most its whole text
    ]
    write_spec(tmp_path, weather_spec(mutations))
    left = 30 + len(WEATHER_TOOLS[2]["description"])
    monkeypatch.setattr(bench, "MAX_MUTATED_TEXT", left - 1)
    result = cli("bench", "run", "spec.json", "-o", "out.json")
    assert result.exit_code == 2 and not (tmp_path / "out.json").exists()
    assert result.stderr.strip() == (
        f"spec.json: error: this bench's mutations would leave {left} characters of description to read (each"
        f" lints and counts what it leaves); catalint reads at most {left - 1}: use fewer mutations of long"
        " descriptions"
    )
    assert cli("bench", "run", "spec.json", "--auto").exit_code == 0
    monkeypatch.setattr(bench, "MAX_MUTATED_TEXT", left)
    assert cli("bench", "run", "spec.json").exit_code == 0


def test_a_bench_that_would_list_too_many_flips_is_refused_at_the_mutation_that_goes_over(
    cli, tmp_path: Path, monkeypatch
) -> None:
    """Each flipped pick is a line of the report: 1,900 mutations blanking a tool that 10,000 intents picked
    (a 500 KB spec) flipped 19,000,000 picks under MAX_WORK and took 24 GB. Past bench.MAX_FLIPS the run
    stops at the mutation that goes over, with its place in the spec, and writes nothing. A mutation that
    changes nothing flips nothing and is not run."""
    from catalint import bench

    readme = (ROOT / "README.md").read_text()
    assert f"catalint lists at most {bench.MAX_FLIPS:,}: use fewer intents or mutations" in readme  # Limits
    mutations = [
        {"tool": "weather_now", "kind": "blank"},  # 2 flips
        {"tool": "weather_now", "kind": "truncate", "chars": 500},  # no change: not run
        {"tool": "city_guide", "kind": "blank"},  # 1
        {"tool": "stock_quote", "kind": "blank"},  # 1: 4 in all
    ]
    write_spec(tmp_path, weather_spec(mutations))
    ran: list[str] = []
    run_mutation = Bench.run_mutation

    def recorded(self: Bench, t: Tool, *rest: Any) -> Any:
        ran.append(t.name)
        return run_mutation(self, t, *rest)

    monkeypatch.setattr(Bench, "run_mutation", recorded)
    monkeypatch.setattr(bench, "MAX_FLIPS", 3)
    result = cli("bench", "run", "spec.json", "-o", "out.json")
    assert result.exit_code == 2
    lines = (tmp_path / "spec.json").read_text().splitlines()
    line = next(n for n, text in enumerate(lines, 1) if '"tool": "stock_quote"' in text) - 1  # its opening brace
    assert result.stderr.strip() == (
        f"spec.json:{line}:5: error: this bench would list over 3 flipped picks (4 by mutation 4,"
        " stock_quote blank); catalint lists at most 3: use fewer intents or mutations"
    )
    assert not (tmp_path / "out.json").exists()
    assert ran == ["weather_now", "city_guide", "stock_quote"]
    ran.clear()
    result = cli("bench", "run", "spec.json", "--auto")  # --auto's mutations have no place in the spec
    assert result.exit_code == 2
    assert result.stderr.startswith("spec.json: error: this bench would list over 3 flipped picks (4 by mutation ")
    monkeypatch.setattr(bench, "MAX_FLIPS", 4)
    assert cli("bench", "run", "spec.json").exit_code == 0


def test_a_spec_with_both_or_neither_catalog_fails_the_schema_too(cli, tmp_path: Path) -> None:
    """bench schema is what specs are checked against: an editor using it flags what bench run refuses."""
    import jsonschema

    from catalint.bench_spec import spec_schema

    intents = [{"query": "weather in Paris", "gold": ["weather_now"]}]
    validator = jsonschema.Draft202012Validator(spec_schema())
    assert not validator.is_valid({"intents": intents})
    assert not validator.is_valid({"intents": intents, "catalog": [], "catalog_path": "x.json"})
    assert validator.is_valid({"intents": intents, "catalog_path": "x.json"})
    (tmp_path / "neither.json").write_text(json.dumps({"intents": intents}))
    line = cli("bench", "run", str(tmp_path / "neither.json")).stderr.strip()
    assert line.endswith("error: give exactly one of catalog (inline) and catalog_path")


@pytest.mark.parametrize("inline", [True, False])
def test_a_bench_catalog_with_two_tools_of_one_name_is_refused(cli, tmp_path: Path, inline: bool) -> None:
    tools = [
        {"name": "a_tool", "description": "Look up the weather for a city.", "inputSchema": {"type": "object"}},
        {"name": "a_tool", "description": "Translate a paragraph of text.", "inputSchema": {"type": "object"}},
    ]
    spec: dict[str, Any] = {"intents": [{"query": "weather", "gold": ["a_tool"]}]}
    if inline:
        spec["catalog"] = tools
    else:
        (tmp_path / "cat.json").write_text(json.dumps({"tools": tools}, indent=2))
        spec["catalog_path"] = "cat.json"
    (tmp_path / "spec.json").write_text(json.dumps(spec, indent=2))
    result = cli("bench", "run", str(tmp_path / "spec.json"))
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    where = "spec.json" if inline else "cat.json"
    assert re.search(rf"{where}:\d+:\d+: error: the catalog has two tools named 'a_tool' \(CAT-001\)", result.stderr)


def test_bench_run_and_check_read_standard_input(cli, tmp_path: Path) -> None:
    """'-' is standard input, as for lint, diff and trace score (it was 'No such file or directory');
    relative paths in it are read from the working directory."""
    write_spec(tmp_path, weather_spec([{"tool": "weather_now", "kind": "blank"}], name="piped"))
    text = (tmp_path / "spec.json").read_text()
    piped = cli("bench", "run", "-", input=text)
    assert piped.exit_code == 0 and piped.stdout == cli("bench", "run", "spec.json").stdout
    (tmp_path / "good.json").write_text(
        json.dumps({"tools": [{"name": "get_time", "description": "Get the current UTC time as ISO 8601 text."}]})
    )
    suite = "tool_quality:\n  - {name: g, catalog: good.json, expect: [{min_score: {'>=': 0.1}}]}\n"
    checked = cli("check", "-", input=suite)
    assert checked.exit_code == 0, checked.output
    assert "g" in checked.stdout and "error" not in checked.stderr
