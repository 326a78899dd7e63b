"""catalint trace score|distract, and catalint check SUITE --traces DIR: the command line, end to end."""

from __future__ import annotations

import json
import math
import os
import re
import statistics
from pathlib import Path
from typing import Any

import pytest

from conftest import write, write_catalog

CLASSES = ("--class", "search=brave.web_search,google.search", "--class", "fetch=http.get")
HIT = {"tool_calls": [{"name": "web_search", "server": "brave"}, {"name": "get", "server": "http"}]}
MISS = {"tool_calls": [{"name": "search", "server": "google"}, {"name": "exec", "server": "shell"}]}


def one_arg_tool(name: str, description: str, arg: str, arg_description: str, **extra: Any) -> dict[str, Any]:
    """A tool with a closed input schema of one required, described string argument."""
    properties = {arg: {"type": "string", "description": arg_description}}
    schema = {"type": "object", "properties": properties, "required": [arg], "additionalProperties": False}
    return {"name": name, "description": description, "inputSchema": schema, **extra}


WEATHER = one_arg_tool(
    "get_weather",
    "Get the current weather for a city. Returns the temperature in Celsius.",
    "city",
    "The city name.",
)
SEARCH = {
    "name": "search",
    "description": "Search the web for pages matching a query. Returns result URLs.",
    "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
}


def write_json(path: Path, data: Any) -> Path:
    return write(path, json.dumps(data, indent=2))


def write_jsonl(path: Path, runs: list[Any]) -> Path:
    return write(path, "".join(json.dumps(r) + "\n" for r in runs))


def scenario(result: Any, index: int = 0) -> dict[str, Any]:
    """The index-th scenario of a JSON report printed on stdout."""
    return json.loads(result.stdout)["scenarios"][index]


def lines_of(result: Any) -> list[str]:
    return [line.strip() for line in result.stdout.splitlines()]


def position(text: str, marker: str) -> str:
    """'line:col' (1-based) of the first occurrence of marker in text."""
    offset = text.index(marker)
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"{line}:{col}"


def one_error_line(result: Any) -> str:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


# ---- 1. selection F1 over equal-function sets: the worked examples -------------------------------


def test_worked_example_one_scores_100_and_passes_the_default_gate(cli, tmp_path: Path) -> None:
    write_json(tmp_path / "run.json", HIT)
    result = cli("trace", "score", "run.json", *CLASSES)
    assert result.exit_code == 0, result.stdout + result.stderr
    text = lines_of(result)
    assert any(line.startswith("selection F1 100, precision 100, recall 100") for line in text), result.stdout
    assert "(true positives 2, false positives 0, false negatives 0)" in result.stdout
    assert "missed classes" not in result.stdout and "unexpected tools" not in result.stdout
    assert "gate [PASS] tool_selection.f1 100 >= 50" in text


def test_server_qualified_classes_without_a_catalog_say_why_calls_do_not_match(cli, tmp_path: Path) -> None:
    # a call with no server resolves through a catalog only: F1 0 without one, with only a notice about names
    write_jsonl(tmp_path / "q.jsonl", [{"tool_calls": [{"name": "checkout", "args": {}}]}])
    bare = cli("trace", "score", "q.jsonl", "--class", "buy=shop.checkout")
    assert "calls that name no server cannot match the SERVER.TOOL members of the classes" in bare.stdout
    write_catalog(tmp_path / "shop.json", [{"name": "checkout", "description": "Pay for the cart.", "inputSchema": {}}])
    given = cli("trace", "score", "q.jsonl", "--class", "buy=shop.checkout", "--catalog", "shop=shop.json")
    assert "SERVER.TOOL members" not in given.stdout and "selection F1 100" in given.stdout
    unqualified = cli("trace", "score", "q.jsonl", "--class", "buy=checkout")
    assert "SERVER.TOOL members" not in unqualified.stdout
    both = cli("trace", "score", "q.jsonl", "--class", "buy=shop.checkout,checkout")  # the bare name matches
    assert "SERVER.TOOL members" not in both.stdout and "selection F1 100" in both.stdout
    (tmp_path / "d.yaml").write_text(
        "distractors: {count: 2, source: {from: near_duplicate, of: [checkout]}, correct: [shop.checkout]}\n"
    )
    distracted = cli("trace", "score", "q.jsonl", "--spec", "d.yaml")  # a qualified correct id, the same
    assert "SERVER.TOOL members" in distracted.stdout


def test_a_score_with_no_check_says_that_nothing_can_fail(cli, tmp_path: Path) -> None:
    # "scenario [PASS]" with no gate row read as a pass of something
    write_json(tmp_path / "run.json", HIT)
    result = cli("trace", "score", "run.json")
    assert result.exit_code == 0 and "notice: no check ran, so nothing can fail" in result.stdout
    assert "no check ran" not in cli("trace", "score", "run.json", *CLASSES).stdout


def test_worked_example_two_names_the_missed_class_and_the_unexpected_tool(cli, tmp_path: Path) -> None:
    write_json(tmp_path / "run.json", MISS)
    result = cli("trace", "score", "run.json", *CLASSES)
    assert result.exit_code == 0, result.stdout + result.stderr  # 50 >= the default 50
    text = lines_of(result)
    assert any(line.startswith("selection F1 50, precision 50, recall 50") for line in text), result.stdout
    assert "(true positives 1, false positives 1, false negatives 1)" in result.stdout
    assert "missed classes: fetch" in text
    assert "unexpected tools: shell.exec (1 call)" in text
    assert "gate [PASS] tool_selection.f1 50 >= 50" in text


def test_a_stricter_gate_fails_worked_example_two(cli, tmp_path: Path) -> None:
    write_json(tmp_path / "run.json", MISS)
    result = cli("trace", "score", "run.json", *CLASSES, "--gate", "tool_selection.f1>=80")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "gate [FAIL] tool_selection.f1 50 < 80" in lines_of(result)
    assert lines_of(result)[0].startswith("scenario [FAIL] traces:")
    passing = cli("trace", "score", "run.json", *CLASSES, "--gate", "tool_selection.f1 >= 50")
    assert passing.exit_code == 0
    assert cli("trace", "score", "run.json", *CLASSES, "--gate", "tool_selection.f1>=80", "--exit-zero").exit_code == 0


def test_the_default_gate_needs_classes(cli, tmp_path: Path) -> None:
    write_json(tmp_path / "run.json", MISS)
    result = cli("trace", "score", "run.json", "--output-format", "json")
    assert result.exit_code == 0
    report = scenario(result)
    assert report["gates"] == []
    assert "tool_selection" not in report and "tool_selection.f1" not in report["figures"]
    assert "gate [" not in cli("trace", "score", "run.json").stdout


def _array(tmp_path: Path) -> list[str]:
    write_json(tmp_path / "runs.json", [HIT, MISS])
    return ["runs.json"]


def _jsonl(tmp_path: Path) -> list[str]:
    write_jsonl(tmp_path / "runs.jsonl", [HIT, MISS])
    return ["runs.jsonl"]


def _folder(tmp_path: Path) -> list[str]:
    write_json(tmp_path / "runs" / "1.json", HIT)
    write_json(tmp_path / "runs" / "2.json", MISS)
    return ["runs"]


def _two_files(tmp_path: Path) -> list[str]:
    write_json(tmp_path / "a.json", HIT)
    (tmp_path / "b.yaml").write_text(
        "tool_calls:\n  - {name: search, server: google}\n  - {name: exec, server: shell}\n"
    )
    return ["a.json", "b.yaml"]


@pytest.mark.parametrize("layout", [_array, _jsonl, _folder, _two_files], ids=["array", "jsonl", "folder", "files"])
def test_both_worked_examples_together_are_micro_averaged(cli, tmp_path: Path, layout: Any) -> None:
    result = cli("trace", "score", *layout(tmp_path), *CLASSES, "--output-format", "json")
    assert result.exit_code == 0, result.stdout + result.stderr
    report = scenario(result)
    assert report["runs"] == 2
    figures = report["figures"]
    assert (figures["tool_selection.f1"], figures["tool_selection.precision"], figures["tool_selection.recall"]) == (
        75,
        75,
        75,
    )
    sel = report["tool_selection"]
    assert (sel["tp"], sel["fp"], sel["fn"]) == (3, 1, 1)
    assert (sel["precision"], sel["recall"], sel["f1"]) == (75, 75, 75)
    assert sel["classes"] == ["search", "fetch"]
    assert sel["missed"] == {"fetch": 1}
    assert sel["unexpected"] == {"shell.exec": 1}
    assert report["gates"][0]["target"] == "tool_selection.f1" and report["gates"][0]["passed"] is True
    assert json.loads(result.stdout)["passed"] is True


def test_json_lines_on_standard_input(cli) -> None:
    lines = json.dumps(HIT) + "\n" + json.dumps(MISS) + "\n"
    result = cli("trace", "score", "-", *CLASSES, "--output-format", "json", input=lines)
    assert result.exit_code == 0, result.stderr
    assert scenario(result)["runs"] == 2
    pretty = json.dumps([HIT, MISS], indent=2)  # one document over many lines is still one document
    assert scenario(cli("trace", "score", "-", *CLASSES, "--output-format", "json", input=pretty))["runs"] == 2


# ---- 2. orchestration --------------------------------------------------------------------------


def test_two_classes_over_three_calls_is_efficiency_67(cli, tmp_path: Path) -> None:
    calls = [
        {"name": "web_search", "server": "brave"},
        {"name": "search", "server": "google"},  # a repeat of the search class: counts for nothing
        {"name": "get", "server": "http"},
    ]
    write_json(tmp_path / "run.json", {"tool_calls": calls})
    result = cli("trace", "score", "run.json", *CLASSES, "--output-format", "json")
    assert result.exit_code == 0
    report = scenario(result)
    assert report["figures"]["orchestration.efficiency"] == 67
    assert report["figures"]["tool_selection.f1"] == 100
    assert (report["tool_selection"]["tp"], report["tool_selection"]["fp"]) == (2, 0)


def test_a_nameless_call_or_non_object_args_lower_syntax_and_are_not_an_error(cli, tmp_path: Path) -> None:
    calls = [
        {"name": "a", "args": {"x": 1}},
        {"args": {"x": 1}},  # no name
        {"name": "b", "args": [1]},  # args not an object
        {"name": "c", "arguments": {"y": 2}},
    ]
    write_json(tmp_path / "run.json", {"tool_calls": calls})
    result = cli("trace", "score", "run.json", "--output-format", "json")
    assert result.exit_code == 0, result.stderr
    report = scenario(result)
    assert report["calls"]["calls"] == 4
    assert report["figures"]["orchestration.syntax"] == 50
    assert report["figures"]["orchestration.parameterization"] == 75
    clean = write_json(tmp_path / "clean.json", {"tool_calls": [calls[0], calls[3]]})
    assert (
        scenario(cli("trace", "score", clean.name, "--output-format", "json"))["figures"]["orchestration.syntax"] == 100
    )


# ---- 3. pass^k -----------------------------------------------------------------------------------

TOKENS = [1500, 1520, 1560, 1600, 1640, 1680, 1720, 1760, 1800, 1840]
FLOOR = ("--expected-tool", "get_weather", "--min-selection-rate", "0.8", "--max-total-tokens", "2000")


def weather_runs(tokens: list[int], misses: set[int]) -> list[dict[str, Any]]:
    """One run per token count; the 1-based runs in misses call search instead of get_weather."""
    return [
        {
            "tool_calls": [{"name": "search" if i in misses else "get_weather", "args": {"city": "Oslo"}}],
            "conversation": {"tokens": {"total": t}},
        }
        for i, t in enumerate(tokens, start=1)
    ]


def _shown(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def test_pass_k_floor_line_is_exact(cli, tmp_path: Path) -> None:
    write_jsonl(tmp_path / "runs.jsonl", weather_runs(TOKENS, {7}))
    result = cli("trace", "score", "runs.jsonl", *FLOOR)
    assert result.exit_code == 0, result.stdout + result.stderr
    median = _shown(statistics.median(TOKENS))
    assert median == "1660"
    expected = (
        f"tool-selection floor [PASS] traces: selection 9/10 (90%), pass^k 90%, tokens {median} median / 1840 max"
    )
    assert expected in lines_of(result)
    assert not any(line.startswith(("FLOOR", "run ")) for line in lines_of(result))
    report = scenario(cli("trace", "score", "runs.jsonl", *FLOOR, "--output-format", "json"))
    assert report["figures"]["tool_selection.selection_rate"] == 90
    assert report["figures"]["tool_selection.pass_k"] == 90
    assert report["floor"]["passed"] is True and report["floor"]["tokens_max"] == 1840


def test_pass_k_breach_names_each_run(cli, tmp_path: Path) -> None:
    tokens = list(TOKENS)
    tokens[3] = 2400  # run 4
    write_jsonl(tmp_path / "runs.jsonl", weather_runs(tokens, {7, 9}))
    args = ("--expected-tool", "get_weather", "--min-selection-rate", "0.9", "--max-total-tokens", "2000")
    result = cli("trace", "score", "runs.jsonl", *args)
    assert result.exit_code == 1, result.stdout + result.stderr
    median = _shown(statistics.median(tokens))
    expected = [
        f"tool-selection floor [FAIL] traces: selection 8/10 (80%), pass^k 70%, tokens {median} median / 2400 max",
        "FLOOR traces: selection rate 80% is below the 90% floor (8 of 10 runs selected `get_weather`)",
        "FLOOR traces: 1 of 10 runs exceeded the 2000-token budget (worst run 2400 tokens)",
        "run 4: 2400 tokens, over budget",
        "run 7: did not select `get_weather`, called search",
        "run 9: did not select `get_weather`, called search",
    ]
    text = lines_of(result)
    start = text.index(expected[0])
    assert text[start : start + len(expected)] == expected
    assert cli("trace", "score", "runs.jsonl", *args, "--exit-zero").exit_code == 0


def test_pass_k_budget_alone_fails_the_floor(cli, tmp_path: Path) -> None:
    tokens = list(TOKENS)
    tokens[3] = 2400
    write_jsonl(tmp_path / "runs.jsonl", weather_runs(tokens, set()))
    result = cli("trace", "score", "runs.jsonl", *FLOOR)
    assert result.exit_code == 1
    text = lines_of(result)
    assert any(
        line.startswith("tool-selection floor [FAIL] traces: selection 10/10 (100%), pass^k 90%") for line in text
    )
    assert "run 4: 2400 tokens, over budget" in text
    assert not any("did not select" in line for line in text)


# ---- 4. MCP-Bench call checks ----------------------------------------------------------------------


def test_call_checks_with_a_catalog(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "wx.json", [WEATHER, SEARCH])
    calls = [
        {"name": "get_weather", "args": {"city": "Paris"}},
        {"name": "get_weather", "arguments": {"city": 3}},  # violates the inputSchema
        {"name": "no_such_tool", "args": {}},  # not in the catalog
    ]
    write_json(tmp_path / "run.json", {"tool_calls": calls})
    result = cli("trace", "score", "run.json", "--catalog", "wx=wx.json", "--output-format", "json")
    assert result.exit_code == 0, result.stderr
    report = scenario(result)
    assert report["figures"]["calls.name_validity"] == 66  # 2 of 3, rounded down
    assert report["figures"]["calls.schema_compliance"] == 50  # 1 of the 2 with a valid name
    assert report["figures"]["calls.execution_success"] == 100
    problems = report["calls"]["problems"]
    assert any("call 2" in p and "get_weather" in p and "city" in p for p in problems), problems
    assert any("call 3" in p and "no_such_tool" in p for p in problems), problems
    assert not any("no catalog" in n for n in report["notices"])
    text = cli("trace", "score", "run.json", "--catalog", "wx=wx.json")
    assert "calls 3: name validity 66, schema compliance 50, execution success 100" in lines_of(text)


@pytest.mark.parametrize(
    ("failed", "ok"),
    [
        ({"error": "boom"}, {"error": None}),
        ({"is_error": True}, {"is_error": False}),
        ({"result": {"isError": True}}, {"result": {"isError": False}}),
    ],
    ids=["error", "is_error", "result.isError"],
)
def test_each_way_of_recording_a_failed_call_counts(
    cli, tmp_path: Path, failed: dict[str, Any], ok: dict[str, Any]
) -> None:
    calls = [
        {"name": "get_weather", "args": {"city": "Paris"}, **ok},
        {"name": "get_weather", "args": {"city": "Rome"}, **failed},
    ]
    write_json(tmp_path / "run.json", {"tool_calls": calls})
    report = scenario(cli("trace", "score", "run.json", "--output-format", "json"))
    assert report["figures"]["calls.execution_success"] == 50
    write_json(tmp_path / "clean.json", {"tool_calls": [calls[0]]})
    assert (
        scenario(cli("trace", "score", "clean.json", "--output-format", "json"))["figures"]["calls.execution_success"]
        == 100
    )


def test_without_a_catalog_name_and_schema_checks_are_null_with_a_notice(cli, tmp_path: Path) -> None:
    write_json(tmp_path / "run.json", {"tool_calls": [{"name": "get_weather", "args": {"city": 3}}]})
    report = scenario(cli("trace", "score", "run.json", "--output-format", "json"))
    assert report["figures"]["calls.name_validity"] is None
    assert report["figures"]["calls.schema_compliance"] is None
    assert report["calls"]["problems"] == []
    assert any("--catalog" in n for n in report["notices"])
    text = cli("trace", "score", "run.json")
    assert "calls 1: name validity n/a, schema compliance n/a, execution success 100" in lines_of(text)
    assert any(line.startswith("notice:") and "--catalog" in line for line in lines_of(text))


def test_a_gate_on_a_figure_that_needs_a_catalog_fails_as_n_a(cli, tmp_path: Path) -> None:
    write_json(tmp_path / "run.json", {"tool_calls": [{"name": "get_weather", "args": {"city": "Oslo"}}]})
    result = cli("trace", "score", "run.json", "--gate", "calls.name_validity>=90")
    assert result.exit_code == 1
    assert any(line.startswith("gate [FAIL] calls.name_validity n/a") for line in lines_of(result))


# ---- 5. distractors ----------------------------------------------------------------------------------

DISTRACTOR_SPEC = """\
distractors:
  count: 2
  source: {from: near_duplicate, of: [get_weather]}
  correct: [get_weather]
"""


def test_a_look_alike_call_counts_as_chose_distractor(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "wx.json", [WEATHER, SEARCH])
    (tmp_path / "weather.yaml").write_text(DISTRACTOR_SPEC)
    clean = {"tool_calls": [{"name": "get_weather", "args": {"city": "Paris"}}]}
    fooled = {"tool_calls": [{"name": "get_weather_v2", "args": {"city": "Paris"}}]}
    write_jsonl(tmp_path / "runs.jsonl", [clean, fooled, clean, clean])
    args = ("trace", "score", "runs.jsonl", "--spec", "weather.yaml", "--catalog", "wx=wx.json")
    result = cli(*args, "--output-format", "json")
    assert result.exit_code == 0, result.stdout + result.stderr  # 75 >= the default 50
    report = scenario(result)
    assert report["scenario"] == "weather"
    d = report["distractors"]
    assert d["distractor_tools"] == ["get_weather_v2", "get_weather_internal"]
    assert (d["chose_correct"], d["chose_distractor"], d["accuracy"]) == (3, 1, 75)
    assert (d["clean_runs"], d["runs"]) == (3, 4)
    assert report["figures"]["distractors.chose_distractor"] == 1
    assert report["figures"]["distractors.accuracy"] == 75
    assert any("run 2" in f and "get_weather_v2" in f for f in d["failures"]), d["failures"]
    text = lines_of(cli(*args))
    assert "gate [PASS] distractors.accuracy 75 >= 50" in text
    assert any(line.startswith("distractors (2 from near_duplicate): accuracy 75") for line in text)


@pytest.mark.parametrize("source", ["near_duplicate", "catalog"])
def test_scoring_against_the_padded_catalog_says_so(cli, tmp_path: Path, source: str) -> None:
    """The distractors: block pads the catalog itself: given the one trace distract padded, its distractors
    counted as the server's own tools and accuracy went from 50 to 100 without a word. A notice, not an
    error: a real catalog may hold a look-alike of its own (an alias)."""
    write_catalog(tmp_path / "wx.json", [WEATHER, SEARCH])
    spec = DISTRACTOR_SPEC.replace("{from: near_duplicate, of: [get_weather]}", f"{{from: {source}}}")
    if source == "near_duplicate":
        spec = DISTRACTOR_SPEC
    (tmp_path / "weather.yaml").write_text(spec)
    write_jsonl(tmp_path / "runs.jsonl", [{"tool_calls": [{"name": "get_weather", "args": {"city": "Paris"}}]}])
    of = ["--of", "get_weather"] if source == "near_duplicate" else []
    cli("trace", "distract", "wx.json", "--count", "2", "--from", source, *of, "-o", "padded.json")
    args = ("trace", "score", "runs.jsonl", "--spec", "weather.yaml")
    plain = cli(*args, "--catalog", "wx=wx.json", "--output-format", "json")
    assert plain.exit_code == 0 and "trace distract adds" not in plain.stdout
    padded = cli(*args, "--catalog", "wx=padded.json", "--output-format", "json")
    assert padded.exit_code == 0, padded.output
    (said,) = scenario(padded)["notices"]
    assert said.startswith("distractors: the catalog already holds 2 tools trace distract adds (")
    assert "read as the catalog before padding" in said
    # read so, it scores as the catalog before padding did (it used to count its distractors as real tools)
    assert scenario(padded)["figures"] == scenario(plain)["figures"]


def test_unpadding_one_server_leaves_another_servers_tool_of_the_same_name(cli, tmp_path: Path) -> None:
    """A bundled distractor's name may be a real tool of another server: only the padded catalog loses it."""
    write_catalog(tmp_path / "wx.json", [WEATHER, SEARCH])
    cli("trace", "distract", "wx.json", "--count", "2", "-o", "padded.json")
    added = [t for t in json.loads((tmp_path / "padded.json").read_text())["tools"] if t not in (WEATHER, SEARCH)]
    first = added[0]  # a distractor trace distract put in wx, and a real tool of other's by the same name
    mine = {"name": first["name"], "description": "My own, different text.", "inputSchema": {"type": "object"}}
    write_catalog(tmp_path / "other.json", [mine])
    (tmp_path / "s.yaml").write_text(
        "servers: [wx, other]\ndistractors: {count: 2, source: {from: catalog}, correct: [wx.get_weather]}\n"
    )
    run = {"tool_calls": [{"name": first["name"], "server": "other", "args": {}}]}
    write_jsonl(tmp_path / "runs.jsonl", [run])
    args = ("trace", "score", "runs.jsonl", "--spec", "s.yaml", "--catalog", "other=other.json")
    result = cli(*args, "--catalog", "wx=padded.json", "--output-format", "json")
    calls = scenario(result)["calls"]
    # other's own tool is still there to call, and its schema is the one the call is checked against
    assert (calls["name_validity"], calls["schema_compliance"]) == (100, 100), calls
    assert any("read as the catalog before padding" in n for n in scenario(result)["notices"])


def test_a_catalog_with_an_alias_of_its_own_is_not_taken_for_a_padded_one(cli, tmp_path: Path) -> None:
    # camelCase of a name without '_' is the name itself; and one alias is fewer than the two asked for
    search = {**SEARCH, "name": "Search"}
    write_catalog(tmp_path / "wx.json", [WEATHER, search, {**WEATHER, "name": "getWeather"}])
    (tmp_path / "s.yaml").write_text(DISTRACTOR_SPEC.replace("of: [get_weather]", "of: [get_weather, Search]"))
    write_jsonl(tmp_path / "runs.jsonl", [{"tool_calls": [{"name": "get_weather", "args": {"city": "Paris"}}]}])
    result = cli("trace", "score", "runs.jsonl", "--spec", "s.yaml", "--catalog", "wx=wx.json")
    assert result.exit_code == 0 and "trace distract adds" not in result.stdout
    # a description that is no string is no crash
    write_catalog(tmp_path / "odd.json", [WEATHER, {**SEARCH, "description": ["a", "list"]}])
    (tmp_path / "c.yaml").write_text(
        DISTRACTOR_SPEC.replace("{from: near_duplicate, of: [get_weather]}", "{from: catalog}")
    )
    assert cli("trace", "score", "runs.jsonl", "--spec", "c.yaml", "--catalog", "wx=odd.json").exit_code == 0


def test_three_clean_runs_certify_alpha_to_the_one_third(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "wx.json", [WEATHER, SEARCH])
    (tmp_path / "weather.yaml").write_text(DISTRACTOR_SPEC)
    clean = {"tool_calls": [{"name": "get_weather", "args": {"city": "Paris"}}]}
    write_jsonl(tmp_path / "runs.jsonl", [clean, clean, clean])
    result = cli(
        "trace",
        "score",
        "runs.jsonl",
        "--spec",
        "weather.yaml",
        "--catalog",
        "wx=wx.json",
        "-o",
        "r.json",
        "--output-format",
        "json",
    )
    assert result.exit_code == 0
    report = json.loads((tmp_path / "r.json").read_text())["scenarios"][0]
    expected = math.floor(0.05 ** (1 / 3) * 10_000) / 100
    assert expected == 36.84
    assert report["distractors"]["certified_lower"] == expected
    assert report["figures"]["distractors.certified_lower"] == expected
    assert report["figures"]["distractors.accuracy"] == 100
    assert report["distractors"]["clean_runs"] == 3


def test_a_qualified_of_name_finds_the_look_alike_without_a_catalog(cli, tmp_path: Path) -> None:
    (tmp_path / "weather.yaml").write_text(
        "distractors:\n  count: 2\n  source: {from: near_duplicate, of: [wx.get_weather]}\n"
        "  correct: [wx.get_weather]\n"
    )
    write_json(tmp_path / "run.json", {"tool_calls": [{"name": "get_weather_v2", "server": "wx"}]})
    report = scenario(cli("trace", "score", "run.json", "--spec", "weather.yaml", "--output-format", "json"))
    assert report["distractors"]["chose_distractor"] == 1  # as it is when --catalog wx=... is given


def test_trace_distract_writes_the_padded_catalog(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "wx.json", [WEATHER, SEARCH])
    (tmp_path / "padded.json").write_text("stale")
    result = cli(
        "trace",
        "distract",
        "wx.json",
        "--count",
        "3",
        "--from",
        "near_duplicate",
        "--of",
        "get_weather",
        "-o",
        "padded.json",
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    tools = json.loads((tmp_path / "padded.json").read_text())["tools"]
    names = [t["name"] for t in tools]
    assert sorted(names) == sorted(["get_weather", "search", "get_weather_v2", "get_weather_internal", "getWeather"])
    assert tools[names.index("get_weather")] == WEATHER and tools[names.index("search")] == SEARCH
    assert tools[names.index("get_weather_v2")]["inputSchema"] == WEATHER["inputSchema"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["padded.json", "wx.json"]  # no temporary file left
    assert "3 distractors" in result.stderr
    again = cli("trace", "distract", "wx.json", "--count", "3", "--from", "near_duplicate", "--of", "get_weather")
    assert json.loads(again.stdout)["tools"] == tools  # deterministic, and stdout without -o


def test_trace_distract_from_the_bundled_catalog(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "wx.json", [SEARCH])
    result = cli("trace", "distract", "wx.json", "--count", "2")
    assert result.exit_code == 0, result.stderr
    names = [t["name"] for t in json.loads(result.stdout)["tools"]]
    assert len(names) == 3 and "search" in names


@pytest.mark.parametrize("output", ["wx.json", "./wx.json", "link.json"])
def test_trace_distract_never_writes_over_the_catalog_it_pads(cli, tmp_path: Path, output: str) -> None:
    write_catalog(tmp_path / "wx.json", [SEARCH])
    (tmp_path / "link.json").symlink_to("wx.json")
    before = (tmp_path / "wx.json").read_bytes()
    result = cli("trace", "distract", "wx.json", "--count", "1", "-o", output)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: {output}: is the catalog being padded; write the padded catalog elsewhere"
    assert (tmp_path / "wx.json").read_bytes() == before


def test_trace_distract_writes_yaml_for_a_yaml_name(cli, tmp_path: Path) -> None:
    import yaml

    write_catalog(tmp_path / "wx.json", [SEARCH])
    assert cli("trace", "distract", "wx.json", "--count", "1", "-o", "padded.yaml").exit_code == 0
    text = (tmp_path / "padded.yaml").read_text(encoding="utf-8")
    assert text.startswith("tools:\n") and len(yaml.safe_load(text)["tools"]) == 2


def test_trace_distract_output_file_gets_the_usual_permissions(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "wx.json", [SEARCH])
    previous = os.umask(0o022)
    try:
        assert cli("trace", "distract", "wx.json", "--count", "1", "-o", "padded.json").exit_code == 0
    finally:
        os.umask(previous)
    assert (tmp_path / "padded.json").stat().st_mode & 0o777 == 0o644  # as open(..., "w") would make it


@pytest.mark.parametrize(
    ("args", "said"),
    [
        # a tool the catalog lacks: the catalog's error; a flag that does not fit: the command line's
        (("--from", "near_duplicate", "--of", "nope"), "wx.json: error: unknown tool 'nope'"),
        (("--of", "search"), "error: --of is for --from near_duplicate"),
    ],
    ids=["unknown-of", "of-without-near-duplicate"],
)
def test_trace_distract_bad_requests_exit_2_with_one_line(
    cli, tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    write_catalog(tmp_path / "wx.json", [WEATHER, SEARCH])
    line = one_error_line(cli("trace", "distract", "wx.json", "--count", "2", *args, "-o", "out.json"))
    assert line.startswith(said), line
    assert not (tmp_path / "out.json").exists()


# ---- 6. token efficiency -------------------------------------------------------------------------------

TE_SPEC = "token_efficiency:\n  classes:\n    - {name: weather, members: [get_weather]}\n"


def test_token_efficiency_with_a_catalog_and_no_cost(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "wx.json", [WEATHER, SEARCH])
    (tmp_path / "te.yaml").write_text(TE_SPEC)
    run = {"tool_calls": [{"name": "get_weather", "args": {"city": "Oslo"}}]}
    write_jsonl(tmp_path / "runs.jsonl", [run, run, run])
    args = ("trace", "score", "runs.jsonl", "--spec", "te.yaml", "--catalog", "wx=wx.json")
    result = cli(*args, "--output-format", "json")
    assert result.exit_code == 0, result.stderr
    te = scenario(result)["token_efficiency"]
    surface = te["tool_surface_tokens"]
    assert isinstance(surface, int) and not isinstance(surface, bool) and surface > 0
    assert te["correct_selections"] == 3
    assert te["tokens_per_correct"] == round(surface / 3, 2)
    assert te["cost"] is None and te["cost_per_correct"] is None
    assert te["grade"] == "A"
    figures = scenario(result)["figures"]
    assert figures["token_efficiency.tool_surface_tokens"] == surface
    assert "token_efficiency.grade" not in figures
    text = cli(*args)
    assert any(line.startswith("token efficiency grade A: F1 100") for line in lines_of(text)), text.stdout
    assert "gate [PASS] token_efficiency.f1 100 >= 50" in lines_of(text)


def test_token_efficiency_cost_per_correct_and_a_poor_grade(cli, tmp_path: Path) -> None:
    (tmp_path / "te.yaml").write_text(TE_SPEC)
    good = {"tool_calls": [{"name": "get_weather", "args": {"city": "Oslo"}}], "cost": 0.25}
    bad = {"tool_calls": [{"name": "search", "args": {"q": "weather"}}], "cost": 0.25}
    write_jsonl(tmp_path / "runs.jsonl", [good, bad, bad, bad])
    result = cli("trace", "score", "runs.jsonl", "--spec", "te.yaml", "--output-format", "json")
    assert result.exit_code == 1  # F1 of tp 1, fp 3, fn 3 is 25 < the default 50
    te = scenario(result)["token_efficiency"]
    assert te["f1"] == 25 and te["grade"] == "F"
    assert te["cost"] == 1.0 and te["cost_per_correct"] == 1.0
    assert te["tool_surface_tokens"] is None and te["tokens_per_correct"] is None  # no catalog
    assert any(
        line.startswith("token efficiency grade F:")
        for line in lines_of(cli("trace", "score", "runs.jsonl", "--spec", "te.yaml"))
    )


# ---- 7. --compare ----------------------------------------------------------------------------------------


def test_compare_reports_flipped_gates_and_deltas(cli, tmp_path: Path) -> None:
    gate = ("--gate", "tool_selection.f1>=80")
    write_json(tmp_path / "run.json", HIT)
    saved = cli("trace", "score", "run.json", *CLASSES, *gate, "--output-format", "json", "-o", "base.json")
    assert saved.exit_code == 0 and saved.stdout == ""
    assert json.loads((tmp_path / "base.json").read_text())["scenarios"][0]["figures"]["tool_selection.f1"] == 100

    same = cli("trace", "score", "run.json", *CLASSES, *gate, "--compare", "base.json")
    assert same.exit_code == 0
    assert "traces: no change" in lines_of(same)

    write_json(tmp_path / "run.json", MISS)
    result = cli("trace", "score", "run.json", *CLASSES, *gate, "--compare", "base.json")
    assert result.exit_code == 1
    text = lines_of(result)
    assert "compared with the baseline:" in text
    assert "traces: gate flipped PASS -> FAIL: tool_selection.f1 >= 80" in text
    assert "traces: tool_selection.f1 100 -> 50 (-50)" in text
    assert "traces: tool_selection.recall 100 -> 50 (-50)" in text

    as_json = json.loads(
        cli("trace", "score", "run.json", *CLASSES, *gate, "--compare", "base.json", "--output-format", "json").stdout
    )
    (entry,) = as_json["comparison"]
    assert entry["scenario"] == "traces" and entry["new"] is False
    f1 = next(d for d in entry["deltas"] if d["metric"] == "tool_selection.f1")
    assert (f1["baseline"], f1["current"], f1["delta"]) == (100, 50, -50)
    assert entry["flipped"] == [
        {"target": "tool_selection.f1", "expected": ">= 80", "baseline": True, "current": False}
    ]
    assert "comparison" not in json.loads(cli("trace", "score", "run.json", *CLASSES, "--output-format", "json").stdout)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("trace.json", json.dumps(HIT)),
        ("broken.json", "{\n"),
        ("list.json", "[1, 2]"),
        ("missing.json", None),
    ],
    ids=["a-trace", "invalid-json", "a-list", "missing"],
)
def test_compare_with_a_file_that_is_not_a_report_is_exit_2(cli, tmp_path: Path, name: str, text: str | None) -> None:
    write_json(tmp_path / "run.json", HIT)
    if text is not None:
        (tmp_path / name).write_text(text)
    line = one_error_line(cli("trace", "score", "run.json", *CLASSES, "--compare", name))
    assert re.match(rf"{re.escape(name)}(:\d+:\d+)?: error:", line), line  # with line:col when the JSON breaks


def test_compare_with_a_malformed_report_is_exit_2(cli, tmp_path: Path) -> None:
    write_json(tmp_path / "run.json", HIT)
    write_json(tmp_path / "base.json", {"scenarios": [{"scenario": "traces", "figures": [1], "gates": [1]}]})
    line = one_error_line(cli("trace", "score", "run.json", *CLASSES, "--compare", "base.json"))
    assert line.startswith("base.json: error:")


# ---- 8. bad input -------------------------------------------------------------------------------------------

NEGATIVE_TOKENS = '{\n  "tool_calls": [],\n  "conversation": {\n    "tokens": {\n      "total": -5\n    }\n  }\n}\n'
STRING_TOKENS = '{\n  "tool_calls": [],\n  "conversation": {\n    "tokens": {\n      "total": "12"\n    }\n  }\n}\n'
BAD_TRACES = [
    # (id, file name, content, marker whose line:col the error names, or None, words in the message)
    ("invalid-json", "t.json", '{"tool_calls": [\n  {"name": "a",}\n]}\n', "}\n]", "Expecting"),
    ("jsonl-line-3", "t.jsonl", '{"tool_calls": []}\n{"tool_calls": []}\n{"tool_calls": [oops]}\n', "oops", ""),
    ("no-tool-calls", "t.json", '{\n  "conversation": {}\n}\n', "{", "tool_calls"),
    ("tool-calls-object", "t.json", '{\n  "tool_calls": {"name": "a"}\n}\n', '{"name"', "not an array"),
    ("call-not-object", "t.json", '{\n  "tool_calls": [\n    "a"\n  ]\n}\n', '"a"', "must be an object"),
    ("call-not-object-yaml", "t.yaml", "tool_calls:\n  - name: a\n  - 3\n", "3", "must be an object"),
    ("run-not-object", "t.json", '[\n  {"tool_calls": []},\n  7\n]\n', "7", "must be an object"),
    ("negative-tokens", "t.json", NEGATIVE_TOKENS, "-5", "conversation.tokens.total"),
    ("string-tokens", "t.json", STRING_TOKENS, '"12"', "conversation.tokens.total"),
    # a string "true" read as no error: execution success came out 100
    (
        "string-is-error",
        "t.json",
        '{"tool_calls": [\n  {"name": "a", "is_error": "true"}\n]}\n',
        '"true"',
        "true or false",
    ),
    ("number-isError", "t.jsonl", '{"tool_calls": [{"name": "a", "isError": 1}]}\n', "1}", "isError must be"),
    ("empty-file", "t.json", "", None, "empty"),
    ("blank-jsonl", "t.jsonl", "\n\n", None, "empty"),
]


@pytest.mark.parametrize(
    ("name", "content", "marker", "words"), [c[1:] for c in BAD_TRACES], ids=[c[0] for c in BAD_TRACES]
)
def test_bad_traces_are_exit_2_with_one_positioned_line(
    cli, tmp_path: Path, name: str, content: str, marker: str | None, words: str
) -> None:
    (tmp_path / name).write_text(content)
    line = one_error_line(cli("trace", "score", name, *CLASSES))
    where = name if marker is None else f"{name}:{position(content, marker)}"
    assert line.startswith(f"{where}: error: "), line
    assert words in line


def test_the_broken_jsonl_line_is_reported_by_its_number(cli, tmp_path: Path) -> None:
    write_jsonl(tmp_path / "t.jsonl", [HIT, MISS])
    with (tmp_path / "t.jsonl").open("a") as fh:
        fh.write('{"tool_calls": [}\n')
    assert one_error_line(cli("trace", "score", "t.jsonl")).startswith("t.jsonl:3:")


def test_a_folder_with_no_trace_files_is_exit_2(cli, tmp_path: Path) -> None:
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "notes.txt").write_text("nothing here")
    line = one_error_line(cli("trace", "score", "runs"))
    assert line.startswith("runs: error: ") and "no trace files" in line


def test_a_subfolder_that_cannot_be_listed_stops_the_run(cli, tmp_path: Path, monkeypatch) -> None:
    """A folder of traces with one subfolder unreadable: scoring the rest would change every figure
    without a word, so it is one error line naming that folder (before, it was skipped silently).
    The refusal is simulated: the tests may run as root, whom permissions do not stop."""
    import os

    (tmp_path / "runs" / "a").mkdir(parents=True)
    (tmp_path / "runs" / "b").mkdir()
    write_json(tmp_path / "runs" / "a" / "one.json", HIT)
    write_json(tmp_path / "runs" / "b" / "two.json", MISS)
    assert cli("trace", "score", "runs").exit_code in (0, 1)
    real_scandir = os.scandir

    def refusing(path: Any = ".") -> Any:
        if Path(path).name == "b":
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    line = one_error_line(cli("trace", "score", "runs"))
    assert line == f"{Path('runs', 'b')}: error: cannot list this folder: Permission denied", line


def test_trace_files_in_a_folder_come_in_path_order(tmp_path: Path) -> None:
    from catalint.traces import trace_files

    for rel in ("b.json", "a/z.jsonl", "a/b/c.yaml", "c.txt", "A.JSON"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("{}")
    (tmp_path / "link.json").symlink_to(tmp_path / "b.json")
    (tmp_path / "0.json").symlink_to("b.json")  # sorts first, but b.json is the file a user edits
    (tmp_path / "1.json").symlink_to("nowhere.json")  # a dangling link is no trace file
    got = [Path(f).relative_to(tmp_path).as_posix() for f in trace_files(str(tmp_path))]
    assert got == ["A.JSON", "a/b/c.yaml", "a/z.jsonl", "b.json"]


def test_more_runs_than_catalint_scores_at_once_is_an_error_where_they_pass_the_limit(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from catalint import traces

    monkeypatch.setattr(traces, "MAX_RUNS", 3)
    (tmp_path / "runs.jsonl").write_text("\n".join([json.dumps(HIT)] * 3) + "\n\n" + json.dumps(HIT) + "\n")
    assert one_error_line(cli("trace", "score", "runs.jsonl", *CLASSES)) == (
        "runs.jsonl:5:1: error: more than 3 runs: catalint scores at most 3 runs at once"
    )
    write_json(tmp_path / "runs.json", [HIT] * 4)
    line = one_error_line(cli("trace", "score", "runs.json", *CLASSES))
    assert line.startswith("runs.json:") and line.endswith(
        "error: more than 3 runs: catalint scores at most 3 runs at once (at /3)"
    )
    write_json(tmp_path / "runs.json", [HIT] * 3)  # at the limit: scored
    assert cli("trace", "score", "runs.json", *CLASSES).exit_code == 0


def test_a_missing_trace_file_is_exit_2(cli, tmp_path: Path) -> None:
    assert one_error_line(cli("trace", "score", "nowhere.json")).startswith("nowhere.json: error:")


def test_a_spec_with_an_unknown_target_names_its_position(cli, tmp_path: Path) -> None:
    spec = (
        "equal_function_sets:\n  classes:\n    - {name: a, members: [x]}\n"
        '  expect:\n    - tool_selection.bogus: {">=": 1}\n'
    )
    (tmp_path / "spec.yaml").write_text(spec)
    write_json(tmp_path / "run.json", HIT)
    line = one_error_line(cli("trace", "score", "run.json", "--spec", "spec.yaml"))
    assert line.startswith(f"spec.yaml:{position(spec, 'tool_selection.bogus')}: error: "), line
    assert "'tool_selection.bogus'" in line


def test_a_spec_target_of_another_block_names_its_home(cli, tmp_path: Path) -> None:
    spec = (
        "equal_function_sets:\n  classes:\n    - {name: a, members: [x]}\n"
        '  expect:\n    - distractors.accuracy: {">=": 1}\n'
    )
    (tmp_path / "spec.yaml").write_text(spec)
    write_json(tmp_path / "run.json", HIT)
    line = one_error_line(cli("trace", "score", "run.json", "--spec", "spec.yaml"))
    assert line.startswith(f"spec.yaml:{position(spec, 'distractors.accuracy')}: error: ")
    assert "distractors:" in line


@pytest.mark.parametrize("block", ["equal_function_sets", "token_efficiency"])
def test_a_class_name_given_twice_is_an_error_at_the_second(cli, tmp_path: Path, block: str) -> None:
    # two classes of one name counted two misses and the report named one
    spec = f"{block}:\n  classes:\n    - {{name: search, members: [a.s]}}\n    - {{name: search, members: [b.s]}}\n"
    (tmp_path / "spec.yaml").write_text(spec)
    write_json(tmp_path / "run.json", HIT)
    line = one_error_line(cli("trace", "score", "run.json", "--spec", "spec.yaml"))
    assert line.startswith("spec.yaml:4:14: error: class name 'search' is given twice (classes[0] and classes[1])")
    line = one_error_line(cli("trace", "score", "run.json", "--class", "a=x.y", "--class", "a=x.z"))
    assert line == "error: --class: class name 'a' is given twice: name each class once"


UNKNOWN_KEY_SPEC = "distractors:\n  count: 1\n  source: {from: catalog}\n  correct: [a]\n  bogus: 1\n"


def test_a_spec_with_an_unknown_key_is_exit_2(cli, tmp_path: Path) -> None:
    (tmp_path / "spec.yaml").write_text(UNKNOWN_KEY_SPEC)
    write_json(tmp_path / "run.json", HIT)
    line = one_error_line(cli("trace", "score", "run.json", "--spec", "spec.yaml"))
    assert re.match(r"spec\.yaml:\d+:\d+: error: ", line), line
    assert "'bogus'" in line


def test_a_spec_with_an_unknown_key_names_the_key_position(cli, tmp_path: Path) -> None:
    (tmp_path / "spec.yaml").write_text(UNKNOWN_KEY_SPEC)
    write_json(tmp_path / "run.json", HIT)
    line = one_error_line(cli("trace", "score", "run.json", "--spec", "spec.yaml"))
    key_line = position(UNKNOWN_KEY_SPEC, "bogus").split(":")[0]
    assert line.startswith(f"spec.yaml:{key_line}:"), line  # the unknown key's line (its value's column)
    assert "'bogus' was unexpected" in line and "(at /distractors/bogus)" in line


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--gate", "bogus>=1"), "'bogus'"),
        (("--gate", "tool_selection.f1 >= lots"), "'lots'"),
        (("--gate", "tool_selection.f1"), "--gate"),
        (("--catalog", "wx=nowhere.json"), "nowhere.json: error:"),
        (("--spec", "nowhere.yaml"), "nowhere.yaml: error:"),
    ],
    ids=["unknown-target", "not-a-number", "no-operator", "missing-catalog", "missing-spec"],
)
def test_bad_options_are_exit_2_with_one_line(cli, tmp_path: Path, args: tuple[str, ...], words: str) -> None:
    write_json(tmp_path / "run.json", HIT)
    assert words in one_error_line(cli("trace", "score", "run.json", *args))


def test_a_class_without_members_is_exit_2(cli, tmp_path: Path) -> None:
    write_json(tmp_path / "run.json", HIT)
    for value in ("nope", "nope=", "=a.b"):
        result = cli("trace", "score", "run.json", "--class", value)
        assert result.exit_code == 2, value
        assert "--class" in result.stderr and repr(value) in result.stderr
        assert "Traceback" not in result.stderr


def test_a_class_without_members_is_one_line(cli, tmp_path: Path) -> None:
    write_json(tmp_path / "run.json", HIT)
    one_error_line(cli("trace", "score", "run.json", "--class", "nope"))


# ---- 9. check SUITE --traces DIR ---------------------------------------------------------------------------

READ_ONLY = {"readOnlyHint": True}
BRAVE = one_arg_tool(
    "web_search",
    "Search the web with Brave. Returns a list of result URLs and snippets.",
    "query",
    "The search query.",
    annotations=READ_ONLY,
)
HTTP = one_arg_tool(
    "get",
    "Fetch a URL over HTTP GET. Returns the response body as text.",
    "url",
    "The URL to fetch.",
    annotations=READ_ONLY,
)
SUITE = """\
servers:
  brave: {catalog: cats/brave.json}
  http: {catalog: cats/http.json}
tool_quality:
  - {name: brave tools, server: brave}
agents:
  - name: Research agent
    servers: [brave, http]
    prompt: Find the latest release notes.
    equal_function_sets:
      classes:
        - {name: search, members: [brave.web_search]}
        - {name: fetch, members: [http.get]}
tests:
  - name: picks search
    type: agent
    agent: Research agent
    runs: 2
    tool_selection:
      expected_tool: web_search
      min_selection_rate: 1
"""
SEARCH_CALL = {"name": "web_search", "args": {"query": "release notes"}}
GET_CALL = {"name": "get", "args": {"url": "https://example.com"}}


def project(tmp_path: Path, suite: str = SUITE) -> Path:
    """The suite in tmp_path/proj (so its catalog: paths are relative to it, not to the working directory)."""
    root = tmp_path / "proj"
    (root / "cats").mkdir(parents=True)
    write_catalog(root / "cats" / "brave.json", [BRAVE])
    write_catalog(root / "cats" / "http.json", [HTTP])
    (root / "suite.yml").write_text(suite)
    return root


def research_traces(root: Path, research: str = "research-agent.jsonl") -> None:
    write_jsonl(root / "traces" / research, [{"tool_calls": [SEARCH_CALL, GET_CALL]}])
    write_json(root / "traces" / "picks-search" / "a.json", {"tool_calls": [SEARCH_CALL]})
    write_json(root / "traces" / "picks-search" / "b.json", {"tool_calls": [SEARCH_CALL, GET_CALL]})


def test_check_names_each_trace_file_whole_whatever_its_name(cli, tmp_path: Path) -> None:
    # the file was found by cutting the run's label at its first '[' and last ':': run[1].jsonl was "run"
    root = project(tmp_path)
    write_jsonl(root / "traces" / "research-agent" / "run[1]:a.jsonl", [{"tool_calls": [SEARCH_CALL, GET_CALL]}])
    write_json(root / "traces" / "picks-search" / "b[2].json", [{"tool_calls": [SEARCH_CALL]}] * 2)
    result = cli("check", "proj/suite.yml", "--traces", "proj/traces", "--output-format", "json")
    sources = {s["scenario"]: s["sources"] for s in json.loads(result.stdout)["scenarios"]}
    assert sources == {
        "Research agent": ["proj/traces/research-agent/run[1]:a.jsonl"],
        "picks search": ["proj/traces/picks-search/b[2].json"],
    }
    markdown = cli("check", "proj/suite.yml", "--traces", "proj/traces", "--output-format", "markdown").stdout
    assert "1 run from proj/traces/research-agent/run\\[1\\]:a.jsonl." in markdown  # one run, not "1 runs"


@pytest.mark.parametrize("research", ["research-agent.jsonl", "Research agent.json", "research-agent/run.yaml"])
def test_check_scores_agents_and_tests_against_their_traces(cli, tmp_path: Path, research: str) -> None:
    root = project(tmp_path)
    if research.endswith(".yaml"):
        (root / "traces" / "research-agent").mkdir(parents=True)
        (root / "traces" / research).write_text(
            "tool_calls:\n  - {name: web_search, args: {query: q}}\n  - {name: get, args: {url: u}}\n"
        )
        write_json(root / "traces" / "picks-search" / "a.json", {"tool_calls": [SEARCH_CALL]})
        write_json(root / "traces" / "picks-search" / "b.json", {"tool_calls": [SEARCH_CALL, GET_CALL]})
    else:
        research_traces(root, research)
    result = cli("check", "proj/suite.yml", "--traces", "proj/traces")
    assert result.exit_code == 0, result.stdout + result.stderr
    text = lines_of(result)
    assert text[0] == "tool_quality [PASS] brave tools (server brave)"
    assert any(line.startswith("scenario [PASS] Research agent: 1 run from ") for line in text), result.stdout
    assert any(line.startswith("scenario [PASS] picks search: 2 runs from ") for line in text), result.stdout
    assert "gate [PASS] tool_selection.f1 100 >= 50" in text
    assert any(line.startswith("tool-selection floor [PASS] picks search: selection 2/2 (100%)") for line in text)

    as_json = cli("check", "proj/suite.yml", "--traces", "proj/traces", "--output-format", "json")
    doc = json.loads(as_json.stdout)
    assert {"tool_quality", "scenarios"} <= set(doc) and doc["passed"] is True
    assert doc["tool_quality"][0]["name"] == "brave tools" and doc["tool_quality"][0]["passed"] is True
    by_name = {s["scenario"]: s for s in doc["scenarios"]}
    assert set(by_name) == {"Research agent", "picks search"}
    research_report = by_name["Research agent"]
    assert research_report["figures"]["tool_selection.f1"] == 100
    # the suite's servers: catalog: files (relative to the suite) were loaded: the calls were checked and resolved
    assert research_report["figures"]["calls.name_validity"] == 100
    assert research_report["figures"]["calls.schema_compliance"] == 100
    assert by_name["picks search"]["figures"]["tool_selection.selection_rate"] == 100


def test_check_fails_on_a_miss(cli, tmp_path: Path) -> None:
    root = project(tmp_path)
    research_traces(root)
    write_json(root / "traces" / "picks-search" / "b.json", {"tool_calls": [GET_CALL]})
    write_jsonl(root / "traces" / "research-agent.jsonl", [{"tool_calls": [{"name": "exec", "server": "shell"}]}])
    result = cli("check", "proj/suite.yml", "--traces", "proj/traces")
    assert result.exit_code == 1, result.stdout + result.stderr
    text = lines_of(result)
    assert any(line.startswith("scenario [FAIL] Research agent:") for line in text)
    assert any(line.startswith("gate [FAIL] tool_selection.f1 0 < 50") for line in text), result.stdout
    assert any(line.startswith("scenario [FAIL] picks search:") for line in text)
    assert "run 2: did not select `web_search`, called http.get" in text
    assert (
        json.loads(cli("check", "proj/suite.yml", "--traces", "proj/traces", "--output-format", "json").stdout)[
            "passed"
        ]
        is False
    )


def test_check_with_a_scenario_without_traces_is_exit_2(cli, tmp_path: Path) -> None:
    root = project(tmp_path)
    write_jsonl(root / "traces" / "research-agent.jsonl", [{"tool_calls": [SEARCH_CALL, GET_CALL]}])
    line = one_error_line(cli("check", "proj/suite.yml", "--traces", "proj/traces"))
    assert "picks search" in line
    assert "picks-search.json" in line and "picks-search.jsonl" in line and "picks-search/" in line


def test_check_without_traces_skips_the_scenarios_with_a_notice(cli, tmp_path: Path) -> None:
    project(tmp_path)
    result = cli("check", "proj/suite.yml")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "--traces" in result.stderr and "'Research agent'" in result.stderr and "'picks search'" in result.stderr
    assert "scenario [" not in result.stdout
    assert lines_of(result)[0] == "tool_quality [PASS] brave tools (server brave)"


def test_check_with_an_unknown_server_in_an_agent_is_exit_2(cli, tmp_path: Path) -> None:
    suite = SUITE.replace("servers: [brave, http]", "servers: [brave, nope]")
    project(tmp_path, suite)
    (tmp_path / "proj" / "traces").mkdir(exist_ok=True)
    line = one_error_line(cli("check", "proj/suite.yml", "--traces", "proj/traces"))
    where = position(suite, "nope").split(":")[0]
    assert re.match(rf"proj/suite\.yml:{where}:\d+: error: ", line), line
    assert "'nope'" in line


def test_check_with_an_unknown_agent_in_a_test_is_exit_2(cli, tmp_path: Path) -> None:
    suite = SUITE.replace("agent: Research agent", "agent: Nobody")
    project(tmp_path, suite)
    (tmp_path / "proj" / "traces").mkdir(exist_ok=True)
    line = one_error_line(cli("check", "proj/suite.yml", "--traces", "proj/traces"))
    assert line.startswith(f"proj/suite.yml:{position(suite, 'Nobody')}: error: "), line


def test_check_compare_against_a_saved_check_report(cli, tmp_path: Path) -> None:
    root = project(tmp_path)
    research_traces(root)
    saved = cli("check", "proj/suite.yml", "--traces", "proj/traces", "--output-format", "json", "-o", "base.json")
    assert saved.exit_code == 0
    write_jsonl(root / "traces" / "research-agent.jsonl", [{"tool_calls": [SEARCH_CALL]}])
    result = cli("check", "proj/suite.yml", "--traces", "proj/traces", "--compare", "base.json")
    assert result.exit_code == 0  # F1 66 still passes the default gate
    assert "Research agent: tool_selection.f1 100 -> 66 (-34)" in lines_of(result)
    assert "picks search: no change" in lines_of(result)


# ---- 10. markdown -------------------------------------------------------------------------------------------------


def test_markdown_has_a_metrics_table_and_a_gate_table(cli, tmp_path: Path) -> None:
    write_json(tmp_path / "run.json", HIT)
    result = cli("trace", "score", "run.json", *CLASSES, "--output-format", "markdown")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "| metric | value |" in lines
    assert "| `tool_selection.f1` | 100 |" in lines
    assert "| `calls.name_validity` | n/a |" in lines
    assert "| tool_selection.f1 100 >= 50 | PASS |" in lines


def test_markdown_shows_recorded_tool_names_as_written(cli, tmp_path: Path) -> None:
    odd = {"tool_calls": [{"name": "web_search", "server": "brave"}, {"name": "run`it|<b>", "server": "shell"}]}
    write_json(tmp_path / "run.json", odd)
    result = cli("trace", "score", "run.json", *CLASSES, "--output-format", "markdown")
    lines = result.stdout.splitlines()
    assert "Unexpected tools: `` shell.run`it|<b> ``." in lines  # a recorded name is untrusted text
    assert "Missed classes: `fetch`." in lines


# ---- what a user gets wrong ------------------------------------------------------------------------------


def test_a_misspelt_block_in_a_spec_is_an_error_with_a_suggestion(cli, tmp_path: Path) -> None:
    text = "model: m\nequal_function_set:\n  classes: [{name: s, members: [a]}]\n"
    (tmp_path / "spec.yaml").write_text(text)
    write_json(tmp_path / "run.json", HIT)
    line = one_error_line(cli("trace", "score", "run.json", "--spec", "spec.yaml"))
    assert line.startswith(f"spec.yaml:{position(text, 'classes')}: error:") or line.startswith("spec.yaml:2:")
    assert "did you mean 'equal_function_sets'?" in line


def test_a_spec_without_trace_blocks_is_an_error(cli, tmp_path: Path) -> None:
    (tmp_path / "spec.yaml").write_text("model: m\nprompt: hello\n")
    write_json(tmp_path / "run.json", HIT)
    assert "the spec has no trace block" in one_error_line(cli("trace", "score", "run.json", "--spec", "spec.yaml"))


def test_a_misspelt_block_in_a_suite_agent_is_an_error(cli, tmp_path: Path) -> None:
    (tmp_path / "suite.yml").write_text("agents:\n  - name: a\n    tool_selections: {expected_tool: x}\n")
    line = one_error_line(cli("check", "suite.yml"))
    assert line.startswith("suite.yml:3:") and "did you mean 'tool_selection'?" in line


def test_floor_options_need_an_expected_tool(cli, tmp_path: Path) -> None:
    write_json(tmp_path / "run.json", HIT)
    line = one_error_line(cli("trace", "score", "run.json", "--max-total-tokens", "10"))
    assert "give --expected-tool" in line


def test_gate_option_replaces_the_default_check_on_the_same_target(cli, tmp_path: Path) -> None:
    write_json(tmp_path / "run.json", MISS)
    result = cli("trace", "score", "run.json", *CLASSES, "--gate", "tool_selection.f1>=80")
    assert result.exit_code == 1
    rows = [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("gate [")]
    assert rows == ["gate [FAIL] tool_selection.f1 50 < 80"]


@pytest.mark.parametrize(
    ("check", "message"),
    [
        ("tool_selection.f1>=0.95", "tool_selection.f1 is a percent from 0 to 100, not 0.95: did you mean 95?"),
        ("calls.schema_compliance>=101", "calls.schema_compliance is a percent from 0 to 100, not 101"),
        ("distractors.certified_lower>-1", "distractors.certified_lower is a percent from 0 to 100, not -1"),
    ],
)
def test_a_gate_bound_off_the_percent_scale_is_a_config_error(cli, tmp_path: Path, check: str, message: str) -> None:
    write_json(tmp_path / "run.json", MISS)
    assert one_error_line(cli("trace", "score", "run.json", *CLASSES, "--gate", check)) == f"error: --gate: {message}"


def test_a_gate_bound_on_a_count_or_cost_is_not_a_percent(cli, tmp_path: Path) -> None:
    write_json(tmp_path / "run.json", MISS)
    for check in ("tool_selection.f1>=0", "tool_selection.f1<=100", "token_efficiency.cost<=0.5"):
        assert cli("trace", "score", "run.json", *CLASSES, "--gate", check).exit_code in (0, 1), check


def test_a_fraction_in_a_suite_gate_is_reported_at_its_line(cli, tmp_path: Path) -> None:
    (tmp_path / "suite.yml").write_text(
        "agents:\n  - name: a\n    prompt: p\n    equal_function_sets:\n"
        "      classes: [{name: s, members: [web_search]}]\n"
        '      expect:\n        - tool_selection.f1: {">=": 0.7}\n'
    )
    line = one_error_line(cli("check", "suite.yml"))
    assert line.startswith("suite.yml:7:")
    assert "tool_selection.f1 is a percent from 0 to 100, not 0.7: did you mean 70?" in line


def test_orchestration_uses_token_efficiency_classes_when_there_are_no_others(cli, tmp_path: Path) -> None:
    (tmp_path / "spec.yaml").write_text("token_efficiency:\n  classes: [{name: s, members: [web_search]}]\n")
    write_json(tmp_path / "run.json", HIT)
    result = cli("trace", "score", "run.json", "--spec", "spec.yaml", "--output-format", "json")
    figures = json.loads(result.stdout)["scenarios"][0]["figures"]
    assert figures["orchestration.discovery"] == 100 and figures["orchestration.efficiency"] == 50
    # the text report shows the two figures the gates read, instead of saying they need classes
    text = cli("trace", "score", "run.json", "--spec", "spec.yaml")
    line = next(x for x in lines_of(text) if x.startswith("orchestration "))
    assert "discovery 100" in line and line.endswith("efficiency 50") and "need classes" not in line


def test_an_empty_class_list_is_the_reference_vacuous_case(cli, tmp_path: Path) -> None:
    # equal_function_sets: classes: [] is allowed (token_efficiency's must not be empty): no classes and no
    # calls scores 100, no classes with calls scores 0
    (tmp_path / "spec.yaml").write_text("equal_function_sets:\n  classes: []\n")
    write_json(tmp_path / "none.json", {"tool_calls": []})
    result = cli("trace", "score", "none.json", "--spec", "spec.yaml", "--output-format", "json")
    assert result.exit_code == 0, result.stderr
    assert scenario(result)["figures"]["tool_selection.f1"] == 100
    write_json(tmp_path / "some.json", HIT)
    result = cli("trace", "score", "some.json", "--spec", "spec.yaml", "--output-format", "json")
    assert result.exit_code == 1 and scenario(result)["figures"]["tool_selection.f1"] == 0
    orchestration = next(x for x in lines_of(cli("trace", "score", "some.json", "--spec", "spec.yaml")) if "orch" in x)
    assert orchestration.endswith("(discovery and efficiency need classes)")  # an empty list is no classes
    (tmp_path / "te.yaml").write_text("token_efficiency:\n  classes: []\n")
    assert cli("trace", "score", "none.json", "--spec", "te.yaml").exit_code == 2


def test_a_class_member_no_catalog_has_is_a_notice(cli, tmp_path: Path) -> None:
    write_json(tmp_path / "http.json", {"tools": [{"name": "get"}]})
    write_json(tmp_path / "run.json", {"tool_calls": [{"name": "get", "server": "http"}]})
    result = cli("trace", "score", "run.json", "--catalog", "http=http.json", "--class", "fetch=http.gett,http.get")
    assert "notice: equal_function_sets class 'fetch' names 'http.gett', which no catalog has" in result.stdout
    assert "http.get'" not in result.stdout.split("notice:", 1)[1].split("\n", 1)[0]


def test_lint_report_files_get_the_usual_permissions(cli, tmp_path: Path) -> None:
    import os

    write_json(tmp_path / "tools.json", {"tools": [WEATHER]})
    old = os.umask(0o022)
    try:
        cli("lint", "tools.json", "--output-format", "json", "-o", "out.json", "--exit-zero")
    finally:
        os.umask(old)
    assert (tmp_path / "out.json").stat().st_mode & 0o777 == 0o644
    (tmp_path / "out.json").chmod(0o600)  # an existing file keeps its mode
    cli("lint", "tools.json", "--output-format", "json", "-o", "out.json", "--exit-zero")
    assert (tmp_path / "out.json").stat().st_mode & 0o777 == 0o600


# ---- check --catalog ----------------------------------------------------------------------------------------------


def test_check_catalog_flag_replaces_the_server_in_tool_quality_blocks(cli, tmp_path: Path) -> None:
    suite = "servers:\n  live: {command: [nosuch-command-catalint-test]}\ntool_quality:\n  - {name: q, server: live}\n"
    (tmp_path / "suite.yml").write_text(suite)
    write_catalog(tmp_path / "saved.json", [BRAVE])
    result = cli("check", "suite.yml", "--catalog", "live=saved.json", "--output-format", "json")
    assert result.exit_code == 0, result.stderr  # the server is not started: the saved catalog is linted
    assert json.loads(result.stdout)["tool_quality"][0]["passed"] is True
    # it wins over a catalog: file too, and a flawed one fails the gate
    root = project(tmp_path)
    write_catalog(tmp_path / "bad.json", [{"name": "web_search", "inputSchema": {"type": "object"}}])
    failed = cli("check", "proj/suite.yml", "--catalog", "brave=bad.json")
    assert failed.exit_code == 1 and "tool_quality [FAIL] brave tools (server brave)" in lines_of(failed)
    assert cli("check", "proj/suite.yml").exit_code == 0  # the suite's own catalog passes
    assert root.exists()


def test_check_catalog_flag_errors_and_unused_servers(cli, tmp_path: Path) -> None:
    project(tmp_path)
    missing = cli("check", "proj/suite.yml", "--catalog", "brave=missing.json")
    assert missing.exit_code == 2 and missing.stderr.strip() == "missing.json: error: No such file or directory"
    write_catalog(tmp_path / "x.json", [HTTP])
    unused = cli("check", "proj/suite.yml", "--catalog", "nosuch=x.json")
    assert unused.exit_code == 0
    assert "proj/suite.yml: notice: --catalog nosuch: no tool_quality block reads that server" in unused.stderr


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_a_json_lines_string_may_hold_a_unicode_line_separator_raw(cli, tmp_path: Path, separator: str) -> None:
    # JavaScript's JSON.stringify writes U+2028 and U+2029 raw; str.splitlines() cut the line inside the string
    run = {"prompt": f"weather{separator}today", "tool_calls": [{"name": "checkout", "args": {}}]}
    (tmp_path / "r.jsonl").write_text(json.dumps(run, ensure_ascii=False) + "\r\n" + json.dumps(run) + "\n")
    result = cli("trace", "score", "r.jsonl", "--output-format", "json")
    assert result.exit_code == 0, result.stderr
    assert scenario(result)["runs"] == 2
    (tmp_path / "r.jsonl").write_text(json.dumps(run, ensure_ascii=False) + "\n{oops\n")
    broken = cli("trace", "score", "r.jsonl")
    assert broken.exit_code == 2 and broken.stderr.startswith("r.jsonl:2:2: error: ")  # placed at its own line
