"""catalint check SUITE.yml: the tool_quality blocks of an mcptest-style suite."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import ROOT, write_catalog

SERVER = [sys.executable, str(ROOT / "tests" / "fixtures" / "mcp_stdio_server.py"), "normal", "3", "2"]
GOOD = {
    "name": "get_time",
    "description": "Get the current time in UTC. Returns an ISO 8601 timestamp string.",
    "inputSchema": {"type": "object", "additionalProperties": False},
    "annotations": {"readOnlyHint": True},
}
BAD = {"name": "get_weather", "description": "Weather", "inputSchema": {"type": "object"}}


def suite(tmp_path: Path, text: str) -> str:
    (tmp_path / "suite.yml").write_text(text)
    return "suite.yml"


def test_catalog_blocks_pass_and_fail_with_the_default_gate(cli, tmp_path: Path) -> None:
    (tmp_path / "cat").mkdir()
    write_catalog(tmp_path / "cat" / "good.json", [GOOD])
    write_catalog(tmp_path / "cat" / "bad.json", [BAD])
    name = suite(
        tmp_path,
        "tool_quality:\n  - {name: good one, catalog: cat/good.json}\n  - {name: bad one, catalog: cat/bad.json}\n",
    )
    result = cli("check", name)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "tool_quality [PASS] good one (catalog cat/good.json)"
    assert len([line for line in lines if line.startswith("  gate [")]) == 6  # three default checks each
    assert "tool_quality [FAIL] bad one (catalog cat/bad.json)" in lines


def test_check_lints_with_the_nearest_config_and_isolated_with_none(cli, tmp_path: Path) -> None:
    (tmp_path / "cat").mkdir()
    write_catalog(tmp_path / "cat" / "bad.json", [BAD])
    (tmp_path / "catalint.toml").write_text('ignore = ["DESC-001"]\n')
    gate = "    expect:\n      - {target: critical_count, matcher: {schema: {maximum: 0}}}\n"
    name = suite(tmp_path, f"tool_quality:\n  - name: bad one\n    catalog: cat/bad.json\n{gate}")
    assert cli("check", name).exit_code == 0  # DESC-001, its one critical, is ignored
    isolated = cli("check", "--isolated", name)
    assert isolated.exit_code == 1 and "critical_count 1 > 0" in isolated.stdout


def test_a_server_block_with_expect_in_both_forms(cli, tmp_path: Path) -> None:
    name = suite(
        tmp_path,
        f"servers:\n  fixture:\n    command: {SERVER!r}\n"
        "tool_quality:\n  - name: live\n    server: fixture\n    expect:\n"
        "      - target: min_score\n        matcher: {schema: {minimum: 0.5}}\n"
        '      - target: tool["tool_1"].score\n        matcher: {schema: {minimum: 0.6}}\n'
        '      - mean_score: {">=": 0.9}\n',
    )
    result = cli("check", name)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stdout.count("gate [PASS]") == 3


def test_a_server_block_the_sdk_refuses_is_checked_with_a_notice(cli, tmp_path: Path) -> None:
    invalid = [*SERVER[:2], "invalid", "3", "2"]
    text = f"servers:\n  broken:\n    command: {invalid!r}\n" + "tool_quality:\n  - {name: b, server: broken}\n"
    name = suite(tmp_path, text)
    result = cli("check", name)
    assert result.exit_code == 0  # the default gate leaves schema findings to schema_criticals
    assert "tool_quality [PASS] b (server broken)" in result.stdout
    assert "<broken>: notice: the MCP SDK refuses this tools/list (2 problems;" in result.stderr


def test_a_server_block_whose_catalog_has_a_nameless_tool_fails_its_block(cli, tmp_path: Path) -> None:
    noname = [*SERVER[:2], "noname", "3", "2"]
    text = f"servers:\n  broken:\n    command: {noname!r}\n" + "tool_quality:\n  - {name: b, server: broken}\n"
    result = cli("check", suite(tmp_path, text))
    assert result.exit_code == 2, result.stderr
    assert "internal error" not in result.stderr
    assert '<broken>:21:5: error: tool has no string "name" (at /tools/1)' in result.stderr.splitlines()


def test_unknown_blocks_and_tests_without_trace_blocks_are_skipped_with_a_notice(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "good.json", [GOOD])
    text = "judges: {a: {}}\nrecord: []\nagents: [{name: plain, model: m}]\n"
    text += "tests:\n  - {name: asks the time, agent: plain, prompt: hi}\n"
    text += "tool_quality:\n  - {name: g, catalog: good.json}\n"
    result = cli("check", suite(tmp_path, text))
    assert result.exit_code == 0
    assert "skipping 'judges'" in result.stderr and "skipping 'record'" in result.stderr
    assert "notice: skipping tests[0] 'asks the time': it has no trace block (equal_function_sets," in result.stderr
    assert "skipping 'agents'" not in result.stderr  # an agent entry without trace blocks is the runner's, not a skip
    assert "agents[0]" not in result.stderr


def test_trace_scenarios_without_traces_are_skipped_with_a_notice(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "good.json", [GOOD])
    text = (
        "agents:\n  - name: picks time\n    tool_selection: {expected_tool: get_time, min_selection_rate: 1}\n"
        "tool_quality:\n  - {name: g, catalog: good.json}\n"
    )
    result = cli("check", suite(tmp_path, text))
    assert result.exit_code == 0
    assert "skipping the trace-scored scenarios 'picks time': give --traces DIR" in result.stderr
    # with nothing else in the suite, nothing would be checked: an error, as an empty suite is, not a pass
    only = cli("check", suite(tmp_path, text.split("tool_quality:")[0]), "--output-format", "json")
    assert only.exit_code == 2 and only.stdout == ""
    assert only.stderr.strip() == (
        "suite.yml: error: nothing to check without recorded runs: the scenarios 'picks time' are scored"
        " against them: give --traces DIR"
    )


def test_a_traces_folder_that_does_not_exist_is_an_error(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "good.json", [GOOD])
    text = "tool_quality:\n  - {name: g, catalog: good.json}\n"
    result = cli("check", suite(tmp_path, text), "--traces", "runz")
    assert result.exit_code == 2
    assert result.stderr == "error: --traces: Directory 'runz' does not exist\n"


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("tool_quality:\n  - {name: x}\n", "suite.yml:2:5: error:", "invalid suite"),
        ("tool_quality:\n  - {name: x, server: nope}\n", "suite.yml:2:23: error:", "which servers: does not define"),
        (
            "tool_quality:\n  - {name: x, catalog: c.json, expect: [{target: bogus, matcher: {'>=': 1}}]}\n",
            "suite.yml:2:",
            "bogus",
        ),
        ("servers: 3\ntool_quality: []\n", "suite.yml:1:10: error:", "invalid suite at servers"),
    ],
)
def test_invalid_suites_are_exit_2_with_a_position(cli, tmp_path: Path, text: str, where: str, words: str) -> None:
    result = cli("check", suite(tmp_path, text))
    assert result.exit_code == 2, result.stdout
    assert result.stderr.startswith(where) and words in result.stderr


def test_a_missing_catalog_fails_its_block(cli, tmp_path: Path) -> None:
    result = cli("check", suite(tmp_path, "tool_quality:\n  - {name: gone, catalog: none.json}\n"))
    assert result.exit_code == 2 and result.stdout.startswith("tool_quality [FAIL] gone:")  # unreadable: as lint
    assert result.stderr.splitlines() == ["none.json: error: No such file or directory"]  # and one line on stderr


def test_blocks_that_read_one_broken_catalog_each_fail_with_its_error_said_once(cli, tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text('{"tools": 5}')
    blocks = "".join(f"  - {{name: {n}, catalog: bad.json}}\n" for n in "abc")
    result = cli("check", suite(tmp_path, "tool_quality:\n" + blocks))
    assert result.exit_code == 2
    rows = [line.split(":")[0] for line in result.stdout.splitlines()[:3]]
    assert rows == [f"tool_quality [FAIL] {n}" for n in "abc"]
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("bad.json:1:")


@pytest.mark.parametrize(
    "text",
    [
        'tool_quality:\n  - {name: a, catalog: "-"}\n',
        'servers:\n  s: {catalog: "-"}\ntool_quality:\n  - {name: a, server: s}\n',
    ],
)
def test_a_catalog_named_dash_is_a_file_beside_the_suite_never_standard_input(cli, tmp_path: Path, text: str) -> None:
    piped = json.dumps({"tools": [GOOD]})
    result = cli("check", suite(tmp_path, text), input=piped)
    assert result.exit_code == 2 and result.stderr.splitlines() == ["./-: error: No such file or directory"]
    (tmp_path / "-").write_text(piped)
    assert cli("check", "suite.yml", input="not read").exit_code == 0


def test_a_server_that_cannot_start_names_the_suite_and_the_server(cli, tmp_path: Path) -> None:
    text = "servers:\n  s: {command: [/nonexistent/bin]}\ntool_quality:\n  - {name: q, server: s}\n"
    result = cli("check", suite(tmp_path, text))
    assert result.exit_code == 2 and result.stdout.startswith("tool_quality [FAIL] q:")
    assert result.stderr.splitlines() == ["suite.yml: error: server 's': command not found: /nonexistent/bin"]


def test_markdown_report_is_tables_and_nested_headings(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cat").mkdir()
    write_catalog(tmp_path / "cat" / "good.json", [GOOD])
    text = "tool_quality:\n  - {name: good one, catalog: cat/good.json}\n  - {name: lost, catalog: cat/none.json}\n"
    result = cli("check", suite(tmp_path, text), "--output-format", "markdown")
    assert result.exit_code == 2  # cat/none.json cannot be read
    out = result.stdout
    assert out.startswith("# catalint check\n\n## tool_quality\n\n| Block | Source | Result | Check |\n")
    assert "| good one | catalog cat/good.json | ✅ PASS | `min_score" in out
    assert "| lost | catalog cat/none.json | ❌ FAIL |" in out
    assert "    tool_quality" not in out  # no indented (code-block) text
    # With traces: the scenarios sit below, one level down, under a single top heading.
    example = ROOT / "examples" / "traces"
    monkeypatch.chdir(example)
    out = cli("check", "suite.yml", "--traces", "runs", "--output-format", "markdown").stdout
    assert out.count("\n# ") == 0 and out.startswith("# catalint check\n")
    assert "\n## Agent scenarios\n\n### research agent: PASS\n" in out


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "tool_quality:\n  - name: x\n",
            "2:5: error: invalid suite at tool_quality/0: give exactly one of server or catalog, none is given",
        ),
        (
            "tool_quality:\n  - {name: x, server: a, catalog: b.json}\n",
            "2:5: error: invalid suite at tool_quality/0:"
            " give exactly one of server or catalog, not server and catalog",
        ),
        (
            "servers:\n  shop: {}\ntool_quality:\n  - {name: x, server: shop}\n",
            "2:9: error: invalid suite at servers/shop: give exactly one of command, url or catalog, none is given",
        ),
        (
            "agents:\n  - name: x\n    distractors: {count: 2, source: {from: near_duplicate}, correct: [a]}\n",
            "3:37: error: invalid suite at agents/0/distractors/source: from: near_duplicate needs of",
        ),
    ],
)
def test_a_oneof_mistake_is_said_in_the_suites_words(cli, tmp_path: Path, text: str, said: str) -> None:
    # the validator's own words were "... is not valid under any of the schemas listed in the 'oneOf' keyword"
    result = cli("check", suite(tmp_path, text), "--traces", ".")
    assert result.exit_code == 2 and result.stderr.startswith(f"suite.yml:{said}"), result.stderr


def test_a_suite_with_nothing_to_check_says_so(cli, tmp_path: Path) -> None:
    result = cli("check", suite(tmp_path, "servers:\n  a: {command: [x]}\n"))
    assert result.exit_code == 2
    assert result.stderr == (
        "suite.yml:1:1: error: the suite has no tool_quality:, agents: or tests: block, so there is nothing to check\n"
    )


@pytest.mark.parametrize(
    "text",
    [
        "servers:\n  a: {command: [x]}\nagents:\n  - {name: x, tool_selection: {expected_tool: a}}\n",
        "agents:\n  - name: x\n    tool_selection: {expected_tool: a}\n",
    ],
)
def test_a_suite_given_as_a_trace_spec_points_at_check(cli, tmp_path: Path, text: str) -> None:
    (tmp_path / "runs.jsonl").write_text('{"tool_calls": []}\n')
    result = cli("trace", "score", "--spec", suite(tmp_path, text), "runs.jsonl")
    assert result.exit_code == 2
    assert "this is a suite (servers:, tool_quality:, agents: or tests:), not a trace spec: run `catalint check" in (
        result.stderr
    )


def test_compare_with_something_that_is_not_a_report(cli, tmp_path: Path) -> None:
    (tmp_path / "runs.jsonl").write_text('{"tool_calls": []}\n{"tool_calls": []}\n')
    result = cli("trace", "score", "runs.jsonl", "--class", "a=b", "--compare", "runs.jsonl")
    assert result.exit_code == 2
    assert result.stderr.startswith("runs.jsonl:2:1: error: not a catalint trace JSON report (Extra data")


def test_a_catalog_block_follows_the_config_lint_would_use(cli, tmp_path: Path) -> None:
    """lint passed 'critical_count<=0' with DESC ignored, while check failed it on the same file."""
    bad = {**BAD, "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
    write_catalog(tmp_path / "tools.json", [bad])
    name = suite(
        tmp_path,
        "tool_quality:\n  - name: q\n    catalog: tools.json\n    expect:\n      - critical_count: {'<=': 0}\n",
    )
    assert "gate [FAIL] critical_count 2 > 0" in cli("check", name).stdout  # DESC-001, DESC-006
    (tmp_path / "pyproject.toml").write_text('[tool.catalint]\nignore = ["DESC"]\n')
    result = cli("check", name)
    assert result.exit_code == 0 and "gate [PASS] critical_count 0 <= 0" in result.stdout
    (tmp_path / "strict.toml").write_text("ignore = []\n")
    assert cli("check", name, "--config", "strict.toml").exit_code == 1


def test_a_tool_ignored_for_all_rules_is_left_out_of_a_blocks_scores(cli, tmp_path: Path) -> None:
    # check reads the config lint would use: a per-tool ignore of ALL leaves the tool out of the scores
    write_catalog(tmp_path / "tools.json", [GOOD, {**BAD, "name": "legacy_weather"}])
    (tmp_path / "catalint.toml").write_text('[[per-tool-ignores]]\ntools = ["legacy_*"]\nrules = ["ALL"]\n')
    name = suite(tmp_path, 'tool_quality:\n  - {name: q, catalog: tools.json, expect: [{min_score: {">=": 0.6}}]}\n')
    result = cli("check", name)
    assert result.exit_code == 0, result.stdout
    (tmp_path / "catalint.toml").unlink()
    assert cli("check", name).exit_code == 1


def test_blocks_that_read_one_catalog_lint_it_once(cli, tmp_path: Path, monkeypatch) -> None:
    """300 blocks on one 1,500-tool catalog linted it 300 times (2 minutes); each block still has its checks."""
    from catalint import engine

    calls: list[str] = []
    real = engine.lint_catalog

    def counted(catalog, settings, *args, **kwargs):
        calls.append(catalog.path)
        return real(catalog, settings, *args, **kwargs)

    monkeypatch.setattr(engine, "lint_catalog", counted)
    write_catalog(tmp_path / "good.json", [GOOD])
    text = "tool_quality:\n"
    text += "  - {name: loose, catalog: good.json, expect: [{mean_score: {'>=': 0.5}}]}\n"
    text += "  - {name: strict, catalog: good.json, expect: [{mean_score: {'<=': 0.5}}]}\n"
    text += "  - {name: again, catalog: good.json}\n"
    text += "  - {name: gone, catalog: missing.json}\n  - {name: gone again, catalog: missing.json}\n"
    result = cli("check", suite(tmp_path, text))
    assert result.exit_code == 2  # a catalog that cannot be read fails its blocks, as lint would
    assert len(calls) == 1
    lines = result.stdout.splitlines()
    assert "tool_quality [PASS] loose (catalog good.json)" in lines
    assert "tool_quality [FAIL] strict (catalog good.json)" in lines
    assert "tool_quality [PASS] again (catalog good.json)" in lines
    assert len([line for line in result.stderr.splitlines() if "missing.json" in line]) == 1


def test_a_scenario_that_asks_for_more_runs_than_were_recorded_says_so(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "good.json", [GOOD])
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "picks-time.jsonl").write_text('{"tool_calls": [{"name": "get_time"}]}\n' * 2)
    text = (
        "servers:\n  s: {catalog: good.json}\nagents:\n  - name: picks time\n    servers: [s]\n    runs: N\n"
        "    equal_function_sets: {classes: [{name: t, members: [get_time]}]}\n"
    )
    asked = cli("check", suite(tmp_path, text.replace("N", "10")), "--traces", "runs")
    assert asked.exit_code == 0, asked.output
    said = "the scenario asks for runs: 10, and 2 recorded runs were found: it is scored on those"
    assert f"  notice: {said}" in asked.stdout.splitlines()
    doc = json.loads(cli("check", "suite.yml", "--traces", "runs", "--output-format", "json").stdout)
    assert said in doc["scenarios"][0]["notices"]  # in the report, not only on the screen
    zero = cli("check", suite(tmp_path, text.replace("N", "0")), "--traces", "runs")
    assert "asks for runs: 0 (read as 1), and 2 recorded runs were found" in zero.stdout
    matched = cli("check", suite(tmp_path, text.replace("N", "2")), "--traces", "runs")
    assert "asks for runs" not in matched.output
    # trace score --spec reads the same entry
    (tmp_path / "spec.yml").write_text(
        "name: picks time\nruns: 10\nequal_function_sets: {classes: [{name: t, members: [get_time]}]}\n"
    )
    spec = cli("trace", "score", "runs/picks-time.jsonl", "--spec", "spec.yml", "--catalog", "s=good.json")
    assert said in spec.stdout


def test_check_compare_reports_tool_quality_gates_that_flipped(cli, tmp_path: Path) -> None:
    """--compare read only the scenarios: a tool_quality gate that went from PASS to FAIL was not said."""
    open_schema = {**GOOD, "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}}
    write_catalog(tmp_path / "cat.json", [open_schema])
    text = "tool_quality:\n  - name: strict\n    catalog: cat.json\n    expect:\n      - schema_warnings: {'<=': 0}\n"
    name = suite(tmp_path, text)
    (tmp_path / "catalint.toml").write_text('ignore = ["SCH"]\n')
    assert cli("check", name, "--output-format", "json", "-o", "base.json").exit_code == 0
    (tmp_path / "catalint.toml").unlink()
    result = cli("check", name, "--compare", "base.json")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    at = lines.index("tool_quality compared with the baseline:")
    assert lines[at + 1].startswith("  strict: schema_warnings 0 -> ")
    assert "  strict: gate flipped PASS -> FAIL: schema_warnings <= 0" in lines[at:]
    doc = json.loads(cli("check", name, "--compare", "base.json", "--output-format", "json").stdout)
    (entry,) = doc["tool_quality_comparison"]
    assert entry["flipped"] == [{"target": "schema_warnings", "expected": "<= 0", "baseline": True, "current": False}]
    markdown = cli("check", name, "--compare", "base.json", "--output-format", "markdown").stdout
    assert "- strict: gate flipped PASS -> FAIL: schema_warnings &lt;= 0" in markdown
    same = cli("check", name, "--compare", "base.json", "--output-format", "json", "-o", "now.json")
    assert same.exit_code == 1
    assert "  strict: no change" in cli("check", name, "--compare", "now.json").stdout
