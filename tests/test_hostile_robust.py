"""Hostile input, second round: wrong-typed values, deep configs, odd paths and files, full output
streams, and live servers that send too much (the audit of bad and hostile input).

The contract is that of test_hostile: never a traceback or an "internal error", never a hang;
bad input is one stderr line naming the file (and line:col where known) and exit 2, and the
other files of the same run are still linted. Each test has a near miss that must keep working.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import write
from test_hostile import CLEAN_TOOL, catalog, no_crash, one_error

BENCH_CATALOG = [{"name": "a", "description": "Reads a thing and returns it", "inputSchema": {"type": "object"}}]


def bench_spec(mutation: dict[str, object]) -> str:
    return json.dumps(
        {"catalog": BENCH_CATALOG, "intents": [{"query": "read a thing", "gold": ["a"]}], "mutations": [mutation]}
    )


# --------------------------------------------------------------------------------------
# Values of the wrong type where a string is looked up (a list or an object is unhashable).
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [["blank"], {"x": 1}, [], 5])
def test_a_bench_mutation_kind_of_the_wrong_type(cli, tmp_path: Path, kind: object) -> None:
    write(tmp_path / "spec.json", bench_spec({"tool": "a", "kind": kind}))
    line = one_error(cli("bench", "run", "spec.json"), "spec.json:1:")
    assert "invalid bench spec at mutations/0/kind" in line and "(at /mutations/0/kind)" in line


def test_a_bench_mutation_kind_near_miss_runs(cli, tmp_path: Path) -> None:
    write(tmp_path / "spec.json", bench_spec({"tool": "a", "kind": "blank"}))
    result = cli("bench", "run", "spec.json")
    no_crash(result)
    assert result.exit_code == 0 and "a blank" in result.stdout


@pytest.mark.parametrize("value", ["[1]", '"s"', "[[1]]", "1979-05-27"])
def test_a_config_array_of_tables_entry_of_the_wrong_type_is_placed(cli, tmp_path: Path, value: str) -> None:
    """`per-tool-ignores = [1]`: the message names the entry by its index, which the position finder
    read as a key (re.escape of an int)."""
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    write(tmp_path / "catalint.toml", f"per-tool-ignores = [{value}]\n")
    line = one_error(cli("lint", "tools.json"), "error: catalint.toml:1:1: per-tool-ignores[0] must be a table")
    assert "with tools, rules" in line


def test_a_config_array_of_tables_near_miss_is_placed(cli, tmp_path: Path) -> None:
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    write(tmp_path / "catalint.toml", 'per-tool-ignores = [{tools = ["a"], rules = ["DESC-999"]}]\n')
    one_error(cli("lint", "tools.json"), "error: catalint.toml:1:1: per-tool-ignores[0]: rules: unknown rule")


# --------------------------------------------------------------------------------------
# bench `chars: 5.0`: JSON Schema counts an integral float as an integer, and so does catalint.
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("spec.json", bench_spec({"tool": "a", "kind": "truncate", "chars": 5.0})),
        (
            "spec.yaml",
            "catalog: [{name: a, description: Reads a thing and returns it, inputSchema: {type: object}}]\n"
            "intents: [{query: read a thing, gold: [a]}]\nmutations: [{tool: a, kind: truncate, chars: 5.0}]\n",
        ),
    ],
)
def test_a_bench_truncate_of_an_integral_float_runs_as_the_integer(cli, tmp_path: Path, name: str, text: str) -> None:
    write(tmp_path / name, text)
    result = cli("bench", "run", "--output-format", "json", name)
    no_crash(result)
    assert result.exit_code == 0, result.stderr
    write(tmp_path / "int.json", bench_spec({"tool": "a", "kind": "truncate", "chars": 5}))
    same = cli("bench", "run", "--output-format", "json", "int.json")
    assert json.loads(result.stdout)["mutations"] == json.loads(same.stdout)["mutations"]


@pytest.mark.parametrize("chars", [5.5, -1, True, "5"])
def test_a_bench_truncate_of_a_fraction_is_an_error(cli, tmp_path: Path, chars: object) -> None:
    write(tmp_path / "spec.json", bench_spec({"tool": "a", "kind": "truncate", "chars": chars}))
    line = one_error(cli("bench", "run", "spec.json"), "spec.json:1:")
    assert "invalid bench spec at mutations/0/chars" in line


# --------------------------------------------------------------------------------------
# A config nested too deeply for the TOML parser (which recurses, with no limit of its own).
# --------------------------------------------------------------------------------------


def _deep_gate_schema(levels: int) -> str:
    return "[gate]\nmin_score = {schema = " + "{allOf = [" * levels + "{minimum = 0}" + "]}" * levels + "}\n"


@pytest.mark.parametrize(
    "text",
    [
        "select = " + "[" * 1000 + '"DESC"' + "]" * 1000 + "\n",
        "gate = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n",
        _deep_gate_schema(400),
    ],
    ids=["array-1000", "inline-table-5000", "gate-schema-400"],
)
@pytest.mark.parametrize("name", ["catalint.toml", "pyproject.toml", "--config"])
def test_a_config_nested_too_deeply_names_the_file(cli, tmp_path: Path, text: str, name: str) -> None:
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    if name == "pyproject.toml":
        text = text.replace("[gate]", "[tool.catalint.gate]") if "[gate]" in text else "[tool.catalint]\n" + text
    write(tmp_path / ("deep.toml" if name == "--config" else name), text)
    args = ["--config", "deep.toml"] if name == "--config" else []
    shown = "deep.toml" if name == "--config" else name
    one_error(cli("lint", *args, "tools.json"), f"error: {shown}: invalid TOML: nested too deeply")


def test_a_config_nested_too_deeply_in_check(cli, tmp_path: Path) -> None:
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    write(tmp_path / "suite.yml", "tool_quality:\n  - {name: q, catalog: tools.json}\n")
    write(tmp_path / "catalint.toml", _deep_gate_schema(400))
    one_error(cli("check", "suite.yml"), "suite.yml: error: catalint.toml: invalid TOML: nested too deeply")


def test_a_deep_gate_schema_the_parser_reads_is_used(cli, tmp_path: Path) -> None:
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    write(tmp_path / "catalint.toml", _deep_gate_schema(100))
    result = cli("lint", "tools.json")
    no_crash(result)
    assert result.exit_code == 0, result.output
    assert "gate [PASS] min_score" in result.stdout


# --------------------------------------------------------------------------------------
# A gate schema no validator can be built for is a config error, not a failed check.
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "reason"),
    [
        ('{"$ref" = "#/nope"}', "Pointer '/nope' does not exist"),
        ('{allOf = [{"$ref" = "#/$defs/b"}], "$defs" = {a = {}}}', "Pointer '/$defs/b' does not exist"),
        ('{"$ref" = "http://127.0.0.1:9/s.json"}', "Retrieval is disabled"),
        ("{minimum = 1979-05-27}", "a value JSON cannot"),
    ],
    ids=["pointer", "nested", "remote", "date"],
)
def test_an_unusable_gate_schema_is_a_config_error(cli, tmp_path: Path, schema: str, reason: str) -> None:
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    write(tmp_path / "catalint.toml", f"[gate]\nmin_score = {{schema = {schema}}}\n")
    line = one_error(cli("lint", "tools.json"), "error: catalint.toml:2:1: gate.min_score: the schema cannot be used: ")
    assert reason in line


def test_an_unusable_schema_in_a_suite_expect_is_a_suite_error(cli, tmp_path: Path) -> None:
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    suite = "tool_quality:\n  - name: q\n    catalog: tools.json\n    expect:\n"
    write(
        tmp_path / "suite.yml",
        suite + "      - {target: min_score, matcher: {schema: {$ref: 'http://127.0.0.1:9/s'}}}\n",
    )
    one_error(cli("check", "suite.yml"), "suite.yml:5:9: error: the schema cannot be used: Resource")


def test_a_gate_schema_with_a_local_ref_is_used(cli, tmp_path: Path) -> None:
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    write(
        tmp_path / "catalint.toml",
        '[gate]\nmin_score = {schema = {"$ref" = "#/$defs/a", "$defs" = {a = {maximum = 0.1}}}}\n',
    )
    result = cli("lint", "tools.json")
    no_crash(result)
    assert result.exit_code == 1 and "gate [FAIL] min_score" in result.stdout and "fails" in result.stdout


# --------------------------------------------------------------------------------------
# Config selectors: an empty one would match every rule; a severity key with spaces none.
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "prefix"),
    [
        ('ignore = [""]', "error: catalint.toml:1:1: ignore: entry 1 is empty (no rule code given"),
        ('ignore = ["DESC-002", " "]', "error: catalint.toml:1:1: ignore: entry 2 is empty"),
        ('select = " "', "error: catalint.toml:1:1: select: entry 1 is empty"),
        ('extend-select = [""]', "error: catalint.toml:1:1: extend-select: entry 1 is empty"),
        ('[severity]\n"" = "info"', "error: catalint.toml:1:1: severity: an empty key (no rule code given"),
        ('[per-file-ignores]\n"*.json" = [""]', "error: catalint.toml:2:1: per-file-ignores.*.json: entry 1 is empty"),
        (
            '[[per-tool-ignores]]\ntools = ["*"]\nrules = [""]',
            "error: catalint.toml:1:1: per-tool-ignores[0]: rules: entry 1 is empty",
        ),
        (
            '[severity]\n" DESC-001 " = "info"',
            "error: catalint.toml:1:1: severity: unknown rule or prefix ' DESC-001 '",
        ),
        ('[severity]\n"DESC-001 " = "info"', "error: catalint.toml:1:1: severity: unknown rule or prefix 'DESC-001 '"),
        ('select = [",,"]', "error: catalint.toml:1:1: select: unknown rule or prefix ',,'"),
    ],
)
def test_empty_and_spaced_selectors_in_a_config_are_errors(cli, tmp_path: Path, text: str, prefix: str) -> None:
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    write(tmp_path / "catalint.toml", text + "\n")
    one_error(cli("lint", "--no-gate", "tools.json"), prefix)


def test_a_comma_list_in_one_string_suggests_no_empty_codes(cli, tmp_path: Path) -> None:
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    write(tmp_path / "catalint.toml", 'select = ["DESC,,SCH"]\n')
    line = one_error(cli("lint", "tools.json"), "error: catalint.toml:1:1: select: 'DESC,,SCH' is one string")
    assert line.endswith('write a list of codes: ["DESC", "SCH"]')


SEVERE = {"name": "x", "inputSchema": {"type": "object"}}  # no description: DESC-001, critical


@pytest.mark.parametrize(
    "setting",
    ['[severity]\nDESC-001 = "info"', '[severity]\n"desc-001" = "info"', '[severity]\nDESC = "info"'],
)
def test_a_severity_key_near_miss_applies(cli, tmp_path: Path, setting: str) -> None:
    write(tmp_path / "tools.json", catalog(SEVERE))
    write(tmp_path / "catalint.toml", 'select = ["DESC-001"]\n' + setting + "\n")
    result = cli("lint", "--no-gate", "tools.json")
    no_crash(result)
    assert result.exit_code == 0 and "DESC-001 [info]" in result.stdout


@pytest.mark.parametrize("flag", [" DESC-001 =info", "DESC-001 = info"])
def test_a_severity_flag_with_spaces_around_the_code_applies(cli, tmp_path: Path, flag: str) -> None:
    write(tmp_path / "tools.json", catalog(SEVERE))
    result = cli("lint", "--no-gate", "--select", "DESC-001", "--severity", flag, "tools.json")
    no_crash(result)
    assert result.exit_code == 0 and "DESC-001 [info]" in result.stdout


def test_an_empty_severity_flag_code_is_an_error(cli, tmp_path: Path) -> None:
    write(tmp_path / "tools.json", catalog(SEVERE))
    one_error(cli("lint", "--severity", " =info", "tools.json"), "error: command line: --severity: an empty key")
