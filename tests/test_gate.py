"""The quality gate: defaults, every target, matcher forms, precedence, errors and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalint.loader import load_text
from catalint.tokens import count
from conftest import write_catalog

GOOD = {
    "name": "get_time",
    "description": "Get the current time in UTC. Returns an ISO 8601 timestamp string.",
    "inputSchema": {"type": "object", "additionalProperties": False},
    "annotations": {"readOnlyHint": True},
}
# TDQS 0.7244; DESC-008, DESC-009, DESC-010, DESC-011 (warnings) and SCH-003 (critical)
DELETE = {
    "name": "delete_file",
    "description": "Delete the file at the given path from the workspace.",
    "inputSchema": {
        "type": "object",
        "properties": {"path": {"description": "Path of the file to delete, relative to the workspace root"}},
        "required": ["path"],
        "additionalProperties": False,
    },
    "annotations": {"readOnlyHint": "no"},
}
# TDQS 0.4944; DESC-006 (critical), DESC-009, DESC-010, DESC-012, SCH-002, SCH-004 (warnings)
PING = {
    "name": "ping_host",
    "description": "Ping a host on the network and report whether it answers.",
    "inputSchema": {"type": "object", "properties": {"host": {"type": "string"}}, "required": ["host"]},
}
# TDQS 0.6944 and only warnings (DESC-010, DESC-012): fails the default mean_score check alone
LOW = {
    "name": "ping_host",
    "description": "Ping a host on the network and report whether it answers.",
    "inputSchema": {"type": "object", "additionalProperties": False},
}
BAD = {"name": "bad", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}

# min 0.4944, mean 0.7396; critical_count 1, warning_count 7, schema_criticals 1, schema_warnings 2
MIXED = [GOOD, DELETE, PING]
MIXED_FIGURES = {
    "critical_count": 1,
    "warning_count": 7,
    "schema_criticals": 1,
    "schema_warnings": 2,
    "smell_total": 11,
    "smells.underspecified": 2,
    "smells.verbose": 1,
    "smells.uninformative": 0,
    "smells.brittle": 2,
    "smells.missing_examples": 2,
    "smells.missing_return_format": 2,
    "smells.missing_annotations": 1,
    "smells.invalid_annotation": 1,
}


def rows(stdout: str) -> list[str]:
    """The gate rows, checked to sit just before the notices and the summary line."""
    lines = [line for line in stdout.splitlines() if "notice: " not in line]
    found = [line for line in lines if line.startswith("gate [")]
    if found:
        assert lines[-1 - len(found) : -1] == found
    return found


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    return write_catalog(tmp_path / "tools.json", MIXED)


@pytest.fixture
def good(tmp_path: Path) -> Path:
    return write_catalog(tmp_path / "tools.json", [GOOD])


def one_error(result) -> str:
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def pyproject(tmp_path: Path, body: str) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.catalint]\n" + body, encoding="utf-8")


# ---------------------------------------------------------------- defaults


def test_default_gate_passes_a_good_catalog(cli, good: Path) -> None:
    result = cli("lint", "tools.json")
    assert rows(result.stdout) == [
        "gate [PASS] min_score 1.00 >= 0.50",
        "gate [PASS] mean_score 1.00 >= 0.70",
        "gate [PASS] critical_count 0 <= 0",
    ]
    assert result.exit_code == 0


def test_default_gate_fails_a_bad_catalog(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [GOOD, BAD])
    result = cli("lint", "tools.json")
    assert rows(result.stdout) == [
        "gate [FAIL] min_score 0.00 < 0.50",
        "gate [FAIL] mean_score 0.50 < 0.70",
        "gate [FAIL] critical_count 2 > 0",
    ]
    assert result.stdout.splitlines()[-1].endswith("; gate failed (3 of 3 checks).")
    assert result.exit_code == 1


def test_default_gate_rows_each_judged_on_their_own(cli, mixed: Path) -> None:
    assert rows(cli("lint", "tools.json").stdout) == [
        "gate [FAIL] min_score 0.49 < 0.50",
        "gate [PASS] mean_score 0.74 >= 0.70",
        "gate [FAIL] critical_count 1 > 0",
    ]


def test_default_mean_score_alone_fails_the_run(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [LOW])
    result = cli("lint", "tools.json")
    assert rows(result.stdout) == [
        "gate [PASS] min_score 0.69 >= 0.50",
        "gate [FAIL] mean_score 0.69 < 0.70",
        "gate [PASS] critical_count 0 <= 0",
    ]
    assert result.stdout.splitlines()[-1] == (
        "Found 2 findings (2 warning) in 1 tool in 1 file; TDQS min 0.69, mean 0.69 (D); gate failed (1 of 3 checks)."
    )
    assert result.exit_code == 1


# ---------------------------------------------------------------- every target, PASS and FAIL


def gate_row(cli, check: str, target: str) -> tuple[str, int]:
    result = cli("lint", "--gate", check, "tools.json")
    (row,) = [r for r in rows(result.stdout) if f"] {target} " in r]
    return row, result.exit_code


@pytest.mark.parametrize(
    ("check", "row"),
    [
        ("min_score>=0.49", "gate [PASS] min_score 0.49 >= 0.49"),
        ("min_score>=0.5", "gate [FAIL] min_score 0.49 < 0.50"),
        ("mean_score>=0.73", "gate [PASS] mean_score 0.74 >= 0.73"),
        ("mean_score>=0.75", "gate [FAIL] mean_score 0.74 < 0.75"),
        ('tool["delete_file"].score>=0.72', 'gate [PASS] tool["delete_file"].score 0.72 >= 0.72'),
        ('tool["delete_file"].score>=0.73', 'gate [FAIL] tool["delete_file"].score 0.72 < 0.73'),
        ("tool['get_time'].score==1", "gate [PASS] tool['get_time'].score 1.00 == 1.00"),
        ("tool['ping_host'].score>0.5", "gate [FAIL] tool['ping_host'].score 0.49 <= 0.50"),
        ("critical_count<=1", "gate [PASS] critical_count 1 <= 1"),
        ("critical_count<=0", "gate [FAIL] critical_count 1 > 0"),
        ("warning_count<=7", "gate [PASS] warning_count 7 <= 7"),
        ("warning_count<7", "gate [FAIL] warning_count 7 >= 7"),
        ("schema_criticals==1", "gate [PASS] schema_criticals 1 == 1"),
        ("schema_criticals<1", "gate [FAIL] schema_criticals 1 >= 1"),
        ("schema_warnings==2", "gate [PASS] schema_warnings 2 == 2"),
        ("schema_warnings<=1", "gate [FAIL] schema_warnings 2 > 1"),
        ("smell_total<=11", "gate [PASS] smell_total 11 <= 11"),
        ("smell_total<=10", "gate [FAIL] smell_total 11 > 10"),
    ],
)
def test_target_pass_and_fail(cli, mixed: Path, check: str, row: str) -> None:
    target = row.split("] ", 1)[1].split(" ")[0]
    assert gate_row(cli, check, target)[0] == row


@pytest.mark.parametrize(("target", "actual"), [(t, n) for t, n in MIXED_FIGURES.items() if t.startswith("smells.")])
def test_every_smell_target_pass_and_fail(cli, mixed: Path, target: str, actual: int) -> None:
    assert gate_row(cli, f"{target}<={actual}", target)[0] == f"gate [PASS] {target} {actual} <= {actual}"
    assert gate_row(cli, f"{target}=={actual + 1}", target)[0] == f"gate [FAIL] {target} {actual} != {actual + 1}"


def test_figures_in_json_match_the_gate(cli, mixed: Path) -> None:
    args = [a for target in MIXED_FIGURES for a in ("--gate", f"{target}>=0")]
    data = json.loads(cli("lint", "--output-format", "json", *args, "tools.json").stdout)
    actual = {c["target"]: c["actual"] for c in data["files"][0]["quality"]["gate"]["checks"]}
    assert {t: actual[t] for t in MIXED_FIGURES} == MIXED_FIGURES


def test_summary_counts_are_the_gate_counts(cli, mixed: Path) -> None:
    last = cli("lint", "tools.json").stdout.splitlines()[-1]
    f = MIXED_FIGURES
    assert last.startswith(
        f"Found {f['smell_total']} findings ({f['critical_count']} critical, {f['warning_count']} warning; "
        f"schema: {f['schema_criticals']} critical, {f['schema_warnings']} warning) in 3 tools in 1 file;"
    )


def mixed_tokens(path: Path) -> tuple[int, int]:
    catalog = load_text(path.read_text(), str(path), path.name)
    totals = [count(t).total for t in catalog.tools]
    return sum(totals), max(totals)


def test_token_targets_pass_and_fail(cli, mixed: Path) -> None:
    total, largest = mixed_tokens(mixed)
    assert 0 < largest < total
    assert gate_row(cli, f"tokens.total<={total}", "tokens.total")[0] == f"gate [PASS] tokens.total {total} <= {total}"
    assert gate_row(cli, f"tokens.total<{total}", "tokens.total")[0] == f"gate [FAIL] tokens.total {total} >= {total}"
    assert gate_row(cli, f"tokens.max_tool=={largest}", "tokens.max_tool")[0] == (
        f"gate [PASS] tokens.max_tool {largest} == {largest}"
    )
    assert gate_row(cli, f"tokens.max_tool<={largest - 1}", "tokens.max_tool")[0] == (
        f"gate [FAIL] tokens.max_tool {largest} > {largest - 1}"
    )


def test_token_targets_of_a_catalog_with_no_tools_are_zero(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [])
    result = cli("lint", "--gate", "tokens.max_tool<=0", "--gate", "tokens.total<=0", "tools.json")
    assert "gate [PASS] tokens.max_tool 0 <= 0" in rows(result.stdout)
    assert "gate [PASS] tokens.total 0 <= 0" in rows(result.stdout)
    data = json.loads(cli("lint", "--tokens", "--output-format", "json", "tools.json").stdout)
    tokens = data["files"][0]["quality"]["tokens"]
    assert (tokens["total"], tokens["max_tool"], tokens["whitespace_estimate"]) == (0, 0, 0)


def test_failing_target_alone_fails_the_run(cli, good: Path) -> None:
    assert cli("lint", "--gate", "smells.verbose<=0", "tools.json").exit_code == 0
    assert cli("lint", "--gate", "tokens.total<=1", "tools.json").exit_code == 1


# ---------------------------------------------------------------- matchers


@pytest.mark.parametrize(
    ("check", "row"),
    [
        ("mean_score>=1", "gate [PASS] mean_score 1.00 >= 1.00"),
        ("mean_score>0.5", "gate [PASS] mean_score 1.00 > 0.50"),
        ("mean_score>1", "gate [FAIL] mean_score 1.00 <= 1.00"),
        ("mean_score<=1", "gate [PASS] mean_score 1.00 <= 1.00"),
        ("mean_score<=0.5", "gate [FAIL] mean_score 1.00 > 0.50"),
        ("mean_score<1", "gate [FAIL] mean_score 1.00 >= 1.00"),
        ("mean_score==1", "gate [PASS] mean_score 1.00 == 1.00"),
        ("mean_score==0.5", "gate [FAIL] mean_score 1.00 != 0.50"),
        ("mean_score!=0.5", "gate [PASS] mean_score 1.00 != 0.50"),
        ("mean_score!=1", "gate [FAIL] mean_score 1.00 == 1.00"),
        ("  mean_score >= 0.8 ", "gate [PASS] mean_score 1.00 >= 0.80"),
    ],
)
def test_cli_gate_operators(cli, good: Path, check: str, row: str) -> None:
    result = cli("lint", "--gate", check, "tools.json")
    assert rows(result.stdout) == [
        "gate [PASS] min_score 1.00 >= 0.50",
        "gate [PASS] critical_count 0 <= 0",
        row,
    ]
    assert result.exit_code == (0 if "[PASS]" in row else 1)


def test_config_short_form(cli, mixed: Path, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.catalint.gate]\nmean_score = { ">=" = 0.7 }\n')
    result = cli("lint", "--exit-zero", "tools.json")
    assert rows(result.stdout) == ["gate [PASS] mean_score 0.74 >= 0.70"]


def test_config_short_form_with_two_comparisons(cli, mixed: Path, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.catalint.gate]\nmean_score = { ">=" = 0.7, "<" = 0.73 }\nwarning_count = { ">" = 1, "<=" = 7 }\n'
    )
    assert rows(cli("lint", "tools.json").stdout) == [
        "gate [FAIL] mean_score 0.74 >= 0.73",
        "gate [PASS] warning_count 7 > 1 and <= 7",
    ]


def test_config_long_form(cli, mixed: Path, tmp_path: Path) -> None:
    pyproject(
        tmp_path,
        "gate.expect = [\n"
        '  { target = "mean_score", matcher = { schema = { minimum = 0.7 } } },\n'
        '  { target = "schema_warnings", matcher = { schema = { maximum = 1 } } },\n'
        '  { target = \'tool["get_time"].score\', matcher = { "==" = 1 } },\n'
        "]\n",
    )
    result = cli("lint", "tools.json")
    assert rows(result.stdout) == [
        "gate [PASS] mean_score 0.74 >= 0.70",
        "gate [FAIL] schema_warnings 2 > 1",
        'gate [PASS] tool["get_time"].score 1.00 == 1.00',
    ]


def test_schema_matcher_that_is_not_a_comparison(cli, mixed: Path, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[tool.catalint.gate]\n"
        "critical_count = { schema = { multipleOf = 1 } }\n"
        "schema_warnings = { schema = { multipleOf = 3 } }\n"
        '"smells.brittle" = { schema = { enum = [0, 2] } }\n'
        "warning_count = { schema = { enum = [0, 1] } }\n"
    )
    result = cli("lint", "--exit-zero", "tools.json")
    found = rows(result.stdout)
    assert found[0] == 'gate [PASS] critical_count 1 matches {"multipleOf": 1}'
    assert found[1].startswith("gate [FAIL] schema_warnings 2 does not match: fails: ")
    assert found[2] == 'gate [PASS] smells.brittle 2 matches {"enum": [0, 2]}'
    assert found[3].startswith("gate [FAIL] warning_count 7 does not match: fails: ")
    assert len(found) == 4
    data = json.loads(cli("lint", "--exit-zero", "--output-format", "json", "tools.json").stdout)
    checks = data["files"][0]["quality"]["gate"]["checks"]
    assert [c["expected"] for c in checks[:2]] == ['matches {"multipleOf": 1}', 'matches {"multipleOf": 3}']
    assert [c["passed"] for c in checks] == [True, False, True, False]


def test_schema_matcher_on_a_score(cli, mixed: Path, tmp_path: Path) -> None:
    pyproject(
        tmp_path, 'gate.expect = [{ target = "min_score", matcher = { schema = { not = { maximum = 0.5 } } } }]\n'
    )
    assert rows(cli("lint", "tools.json").stdout)[0].startswith("gate [FAIL] min_score 0.49 does not match")
    pyproject(tmp_path, 'gate.expect = [{ target = "max_score", matcher = { schema = {} } }]\n')
    assert "unknown gate target 'max_score'" in one_error(cli("lint", "tools.json"))


def test_catalint_toml_gate_table(cli, mixed: Path, tmp_path: Path) -> None:
    (tmp_path / "catalint.toml").write_text('[gate]\nmin_score = { ">=" = 0.4 }\nsmell_total = { "<=" = 5 }\n')
    result = cli("lint", "tools.json")
    assert rows(result.stdout) == ["gate [PASS] min_score 0.49 >= 0.40", "gate [FAIL] smell_total 11 > 5"]
    assert result.exit_code == 1


# ---------------------------------------------------------------- precedence


def test_configured_gate_replaces_the_defaults(cli, mixed: Path, tmp_path: Path) -> None:
    pyproject(tmp_path, 'gate = { smell_total = { "<=" = 20 } }\n')
    assert rows(cli("lint", "tools.json").stdout) == ["gate [PASS] smell_total 11 <= 20"]


def test_empty_configured_gate_has_no_rows(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [LOW])
    pyproject(tmp_path, "gate = {}\n")
    result = cli("lint", "tools.json")
    assert rows(result.stdout) == []
    assert result.exit_code == 0


def test_cli_gate_replaces_the_config_check_on_its_target_and_adds_others(cli, mixed: Path, tmp_path: Path) -> None:
    pyproject(tmp_path, 'gate = { mean_score = { ">=" = 0.7 }, smell_total = { "<=" = 20 } }\n')
    result = cli("lint", "--gate", "mean_score>=0.9", "--gate", "schema_criticals<=5", "tools.json")
    assert rows(result.stdout) == [
        "gate [PASS] smell_total 11 <= 20",
        "gate [FAIL] mean_score 0.74 < 0.90",
        "gate [PASS] schema_criticals 1 <= 5",
    ]


def test_cli_gate_over_the_defaults(cli, mixed: Path) -> None:
    result = cli("lint", "--gate", "min_score>=0.4", "--gate", "critical_count<=1", "tools.json")
    assert rows(result.stdout) == [
        "gate [PASS] mean_score 0.74 >= 0.70",
        "gate [PASS] min_score 0.49 >= 0.40",
        "gate [PASS] critical_count 1 <= 1",
    ]


def test_repeated_cli_gate_on_one_target_keeps_both(cli, good: Path) -> None:
    found = rows(cli("lint", "--gate", "mean_score>=0.5", "--gate", "mean_score<=0.9", "tools.json").stdout)
    assert "gate [PASS] mean_score 1.00 >= 0.50" in found
    assert "gate [FAIL] mean_score 1.00 > 0.90" in found


def test_extend_gate_in_config(cli, mixed: Path, tmp_path: Path) -> None:
    pyproject(tmp_path, 'extend-gate = ["mean_score>=0.9", "smells.verbose<=1"]\n')
    assert rows(cli("lint", "tools.json").stdout) == [
        "gate [FAIL] min_score 0.49 < 0.50",
        "gate [FAIL] critical_count 1 > 0",
        "gate [FAIL] mean_score 0.74 < 0.90",
        "gate [PASS] smells.verbose 1 <= 1",
    ]


def test_extend_gate_applies_over_a_configured_gate(cli, mixed: Path, tmp_path: Path) -> None:
    pyproject(tmp_path, 'extend-gate = ["min_score>=0.4"]\n\n[tool.catalint.gate]\nmin_score = { ">=" = 0.6 }\n')
    assert rows(cli("lint", "tools.json").stdout) == ["gate [PASS] min_score 0.49 >= 0.40"]


def test_cli_gate_keeps_the_config_extend_gate_on_other_targets(cli, mixed: Path, tmp_path: Path) -> None:
    pyproject(tmp_path, 'extend-gate = ["mean_score>=0.1"]\n')
    found = rows(cli("lint", "--gate", "min_score>=0", "tools.json").stdout)
    assert "gate [PASS] mean_score 0.74 >= 0.10" in found
    assert "gate [PASS] min_score 0.49 >= 0.00" in found


def test_no_gate_removes_every_row_and_does_not_fail(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [LOW])
    assert cli("lint", "tools.json").exit_code == 1
    result = cli("lint", "--no-gate", "tools.json")
    assert rows(result.stdout) == []
    assert "gate" not in result.stdout
    assert result.exit_code == 0


def test_no_gate_beats_a_configured_gate(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [LOW])
    pyproject(tmp_path, 'gate = { mean_score = { ">=" = 0.99 } }\n')
    result = cli("lint", "--no-gate", "tools.json")
    assert rows(result.stdout) == [] and result.exit_code == 0


def test_gate_false_in_config(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [LOW])
    pyproject(tmp_path, "gate = false\n")
    result = cli("lint", "tools.json")
    assert rows(result.stdout) == []
    assert result.exit_code == 0
    data = json.loads(cli("lint", "--output-format", "json", "tools.json").stdout)
    assert data["files"][0]["quality"]["gate"] == {"passed": True, "checks": []}
    assert data["summary"]["gate_passed"] is True


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("check", "message"),
    [
        ("bogus>=1", "error: command line: --gate: unknown gate target 'bogus' (known: min_score, mean_score,"),
        ("max_score>=0.5", "unknown gate target 'max_score'"),
        ("smells.smelly<=0", "error: command line: --gate: unknown smell 'smelly' (known: underspecified,"),
        ("mean_score=0.8", "expected TARGET OP NUMBER such as 'mean_score>=0.8', got 'mean_score=0.8'"),
        ("mean_score~0.8", "expected TARGET OP NUMBER"),
        ("mean_score>=", "error: command line: --gate: the bound is missing after '>=' in 'mean_score>='"),
        ("mean_score <= ", "the bound is missing after '<=' in 'mean_score <= ' (such as 'mean_score>=0.8')"),
        ("mean_score>", "the bound is missing after '>' in 'mean_score>'"),
        ("mean_score==", "the bound is missing after '==' in 'mean_score=='"),
        (">=", "expected TARGET OP NUMBER"),
        (">=0.8", "expected TARGET OP NUMBER"),
        ("mean_score>=high", "error: command line: --gate: 'high' is not a number"),
        ("mean_score>=0.8.1", "'0.8.1' is not a number"),
    ],
)
def test_bad_cli_gate_is_exit_2(cli, good: Path, check: str, message: str) -> None:
    assert message in one_error(cli("lint", "--gate", check, "tools.json"))


@pytest.mark.parametrize(
    ("check", "message"),
    [
        ("mean_score>=70", "mean_score is a score from 0 to 1, not 70: did you mean 0.7?"),
        ("min_score>-0.5", "min_score is a score from 0 to 1, not -0.5"),
        ('tool["get_forecast"].score>=1.5', 'tool["get_forecast"].score is a score from 0 to 1, not 1.5'),
        ("min_score<=1.01", "min_score is a score from 0 to 1, not 1.01"),
        ("mean_score>=100", "mean_score is a score from 0 to 1, not 100: did you mean 1?"),
        ("mean_score>=100.005", "mean_score is a score from 0 to 1, not 100.005"),  # past 100: not a percent either
        ("mean_score>=10", "mean_score is a score from 0 to 1, not 10: did you mean 0.1?"),
        ("mean_score>=9.5", "mean_score is a score from 0 to 1, not 9.5"),
    ],
)
def test_a_bound_off_the_score_scale_is_exit_2(cli, good: Path, check: str, message: str) -> None:
    assert one_error(cli("lint", "--gate", check, "tools.json")) == f"error: command line: --gate: {message}"


def test_a_bound_off_the_score_scale_in_config(cli, good: Path) -> None:
    (good.parent / "pyproject.toml").write_text("[tool.catalint.gate]\nmean_score = { schema = { minimum = 80 } }\n")
    line = one_error(cli("lint", "tools.json"))
    assert line == (
        "error: pyproject.toml:2:1: gate.mean_score: mean_score is a score from 0 to 1, not 80: did you mean 0.8?"
    )


def test_the_ends_of_the_score_scale_and_counts_are_accepted(cli, good: Path) -> None:
    for check in ("mean_score>=0", "min_score<=1", "critical_count<=70", "tokens.total<=5000"):
        assert cli("lint", "--gate", check, "tools.json").exit_code in (0, 1), check


@pytest.mark.parametrize("check", ["mean_score>=nan", "mean_score>=NaN", "mean_score<=inf"])
def test_nan_bound_is_not_a_number(cli, good: Path, check: str) -> None:
    assert "is not a finite number" in one_error(cli("lint", "--gate", check, "tools.json"))


def test_toml_unquoted_dotted_targets_are_read_as_targets(cli, good: Path) -> None:
    (good.parent / "pyproject.toml").write_text(
        '[tool.catalint.gate]\nsmells.verbose = { "<=" = 0 }\ntokens.total = { "<=" = 1000000 }\n'
    )
    lines = cli("lint", "tools.json").stdout.splitlines()
    assert any(line.startswith("gate [PASS] smells.verbose 0 <= 0") for line in lines)
    assert any(line.startswith("gate [PASS] tokens.total ") for line in lines)


def test_gate_false_keeps_only_the_command_line_checks(cli, good: Path) -> None:
    (good.parent / "pyproject.toml").write_text("[tool.catalint]\ngate = false\n")
    rows = [
        line for line in cli("lint", "--gate", "mean_score>=0.1", "tools.json").stdout.splitlines() if "gate [" in line
    ]
    assert len(rows) == 1 and rows[0].startswith("gate [PASS] mean_score ") and rows[0].endswith(">= 0.10")


def test_failing_row_shows_the_digits_that_decide() -> None:
    from catalint.gate import Check, evaluate

    (row,) = evaluate([Check("mean_score", ((">=", 0.74),))], {"mean_score": 0.7396}, {}, "t.json")
    assert row.text == "mean_score 0.7396 < 0.7400"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '[tool.catalint.gate]\nbogus = { ">=" = 1 }\n',
            "error: pyproject.toml:2:1: gate: unknown gate target 'bogus'",
        ),
        ('[tool.catalint.gate]\n"smells.smelly" = { "<=" = 0 }\n', "gate: unknown smell 'smelly'"),
        ('[tool.catalint.gate]\nmean_score = { "=>" = 0.7 }\n', "gate.mean_score: unknown comparison '=>'"),
        ('[tool.catalint.gate]\nmean_score = { ">=" = "high" }\n', "gate.mean_score: >= needs a number, got 'high'"),
        ('[tool.catalint.gate]\nmean_score = { ">=" = true }\n', "gate.mean_score: >= needs a number"),
        ("[tool.catalint.gate]\nmean_score = 0.7\n", "gate.mean_score: a matcher is"),
        ("[tool.catalint.gate]\nmean_score = {}\n", "gate.mean_score: a matcher is"),
        ("[tool.catalint]\ngate = 0.7\n", "pyproject.toml:2:8: gate must be a table"),
        (
            '[tool.catalint.gate]\nmean_score = { schema = { minimum = "x" } }\n',
            'gate.mean_score: not a valid JSON Schema at minimum: "x" is not of type "number"',
        ),
        ('[tool.catalint.gate]\nmean_score = { schema = { type = "decimal" } }\n', "not a valid JSON Schema at type"),
        ('[tool.catalint.gate]\nmean_score = { schema = { minimum = 0.5 }, ">=" = 0.5 }\n', "schema matcher"),
        ('[tool.catalint.gate]\nexpect = { target = "mean_score" }\n', "gate.expect must be an array"),
        ('[tool.catalint.gate]\nexpect = [{ target = "mean_score" }]\n', "gate.expect[0] must be a table"),
        ("[tool.catalint.gate]\nexpect = [5]\n", "gate.expect[0] must be a table"),
        ('[tool.catalint.gate]\nexpect = [["target", "matcher"]]\n', "gate.expect[0] must be a table"),
        ('[tool.catalint]\nextend-gate = ["bogus>=1"]\n', "extend-gate: unknown gate target 'bogus'"),
    ],
)
def test_bad_config_gate_is_exit_2(cli, good: Path, tmp_path: Path, body: str, message: str) -> None:
    (tmp_path / "pyproject.toml").write_text(body, encoding="utf-8")
    assert message in one_error(cli("lint", "tools.json"))


def test_extend_gate_that_is_not_a_list_names_the_setting(cli, good: Path, tmp_path: Path) -> None:
    pyproject(tmp_path, "extend-gate = 5\n")
    assert "extend-gate" in one_error(cli("lint", "tools.json"))


def test_gate_on_a_missing_tool_is_exit_2(cli, good: Path) -> None:
    line = one_error(cli("lint", "--gate", 'tool["missing"].score>=0.5', "tools.json"))
    assert line == "error: tools.json: gate tool[\"missing\"].score: there is no tool named 'missing' in this catalog"


def test_a_hooks_gate_on_a_missing_tool_is_a_notice_under_pre_commit(cli, good: Path, monkeypatch) -> None:
    # args: [--gate, 'tool["get_time"].score>=0.9'] in .pre-commit-config.yaml: a commit touching only another
    # catalog (or a batch of files without that tool) must not fail on it
    monkeypatch.setenv("PRE_COMMIT", "1")
    result = cli("lint", "--gate", 'tool["missing"].score>=0.5', "tools.json")
    assert result.exit_code == 0, result.output
    assert "there is no tool named 'missing' in this catalog; not checked" in result.stdout


def test_config_gate_on_a_missing_tool_is_a_notice(cli, good: Path, tmp_path: Path) -> None:
    # pre-commit lints the changed files only: a config's check on a tool they lack must not block the commit
    pyproject(tmp_path, 'gate = { \'tool["nope"].score\' = { ">=" = 0.5 } }\n')
    result = cli("lint", "tools.json")
    assert result.exit_code == 0, result.output
    notice = "tools.json: notice: gate tool[\"nope\"].score: there is no tool named 'nope' in this catalog; not checked"
    assert notice in result.stdout.splitlines()


def test_gate_on_a_tool_applies_to_the_files_that_have_it(cli, good: Path, tmp_path: Path) -> None:
    other = {**GOOD, "name": "other_tool"}
    (tmp_path / "more").mkdir()
    write_catalog(tmp_path / "more" / "tools.json", [other])
    result = cli("lint", "--no-gate", "--gate", f'tool["{GOOD["name"]}"].score>=0.5', "tools.json", "more")
    assert result.exit_code == 0, result.stderr
    assert rows(result.stdout) == ["gate [PASS] every check in 1 file"]  # of several files, only failures in full
    data = json.loads(
        cli(
            "lint",
            "--no-gate",
            "--gate",
            f'tool["{GOOD["name"]}"].score>=0.5',
            "tools.json",
            "more",
            "--output-format",
            "json",
        ).stdout
    )
    assert [[row["target"] for row in f["quality"]["gate"]["checks"]] for f in data["files"]] == [
        [f'tool["{GOOD["name"]}"].score'],
        [],
    ]


def test_gate_on_a_tool_in_none_of_several_files_is_exit_2(cli, good: Path, tmp_path: Path) -> None:
    (tmp_path / "more").mkdir()
    write_catalog(tmp_path / "more" / "tools.json", [{**GOOD, "name": "other_tool"}])
    line = one_error(cli("lint", "--gate", 'tool["missing"].score>=0.5', "tools.json", "more"))
    assert line == "error: gate tool[\"missing\"].score: there is no tool named 'missing' in any of the 2 linted files"


# ---------------------------------------------------------------- exit codes and JSON


def test_failing_gate_without_findings_exits_1(cli, good: Path) -> None:
    result = cli("lint", "--gate", "min_score<0.5", "tools.json")
    assert "gate [FAIL] min_score 1.00 >= 0.50" in rows(result.stdout)
    assert result.stdout.splitlines()[-1] == (
        "No findings in 1 tool in 1 file; TDQS min 1.00, mean 1.00 (A); gate failed (1 of 3 checks)."
    )
    assert result.exit_code == 1


def test_exit_zero_ignores_a_failing_gate(cli, good: Path) -> None:
    result = cli("lint", "--exit-zero", "--gate", "min_score<0.5", "tools.json")
    assert "gate [FAIL] min_score 1.00 >= 0.50" in rows(result.stdout)
    assert result.exit_code == 0


def test_exit_zero_does_not_hide_a_gate_config_error(cli, good: Path) -> None:
    assert cli("lint", "--exit-zero", "--gate", "bogus>=1", "tools.json").exit_code == 2


def test_json_gate(cli, mixed: Path) -> None:
    data = json.loads(cli("lint", "--output-format", "json", "--gate", "schema_warnings<=2", "tools.json").stdout)
    gate = data["files"][0]["quality"]["gate"]
    assert gate["passed"] is False
    assert gate["checks"] == [
        {
            "target": "min_score",
            "actual": 0.4944,
            "expected": ">= 0.50",
            "passed": False,
            "message": "min_score 0.49 < 0.50",
        },
        {
            "target": "mean_score",
            "actual": 0.7396,
            "expected": ">= 0.70",
            "passed": True,
            "message": "mean_score 0.74 >= 0.70",
        },
        {
            "target": "critical_count",
            "actual": 1,
            "expected": "<= 0",
            "passed": False,
            "message": "critical_count 1 > 0",
        },
        {
            "target": "schema_warnings",
            "actual": 2,
            "expected": "<= 2",
            "passed": True,
            "message": "schema_warnings 2 <= 2",
        },
    ]
    assert data["summary"]["gate_passed"] is False
    assert data["summary"]["failed"] is True


def test_json_gate_passed(cli, good: Path) -> None:
    data = json.loads(cli("lint", "--output-format", "json", "tools.json").stdout)
    assert data["summary"]["gate_passed"] is True
    assert all(c["passed"] for c in data["files"][0]["quality"]["gate"]["checks"])
    assert data["summary"]["failed"] is False


def test_gate_rows_name_the_file_when_several_are_linted(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "a.tools.json", [GOOD])
    write_catalog(tmp_path / "b.tools.json", [LOW])
    result = cli("lint", "a.tools.json", "b.tools.json")
    found = rows(result.stdout)
    # the failed file's rows in full, then one line for the files that passed every check
    assert found == [
        "gate [PASS] min_score 0.69 >= 0.50 (b.tools.json)",
        "gate [FAIL] mean_score 0.69 < 0.70 (b.tools.json)",
        "gate [PASS] critical_count 0 <= 0 (b.tools.json)",
        "gate [PASS] every check in 1 file",
    ]
    assert result.exit_code == 1
    write_catalog(tmp_path / "c.tools.json", [GOOD])
    assert rows(cli("lint", "a.tools.json", "c.tools.json").stdout) == ["gate [PASS] every check in 2 files"]
    alone = rows(cli("lint", "a.tools.json").stdout)  # one file: every row, as before
    assert alone == [
        "gate [PASS] min_score 1.00 >= 0.50",
        "gate [PASS] mean_score 1.00 >= 0.70",
        "gate [PASS] critical_count 0 <= 0",
    ]


# ---------------------------------------------------------------- tools an ignore of ALL leaves out (of a tool, a file)


@pytest.fixture
def weather(tmp_path: Path) -> Path:
    import shutil

    from conftest import ROOT

    return Path(shutil.copy(ROOT / "examples" / "weather.tools.json", tmp_path / "weather.tools.json"))


def test_a_tool_ignored_for_all_rules_is_left_out_of_the_scores(cli, weather: Path) -> None:
    # the example's get_alerts (0.47) and set_unit (0.20) fail min_score; as internal tools they do not count
    args = ("--per-tool-ignores", "get_alerts:ALL", "--per-tool-ignores", "set_unit:ALL")
    result = cli("lint", "weather.tools.json", *args)
    assert result.exit_code == 0
    assert "gate [PASS] min_score 1.00 >= 0.50" in rows(result.stdout)
    assert result.stdout.splitlines()[-1].endswith("TDQS min 1.00, mean 1.00 (A).")
    assert ": 3 tools (2 left out by an ignore of ALL) in 1 file;" in result.stdout.splitlines()[-1]
    assert "matched no finding" not in result.stdout  # leaving a tool out is a use of the entry
    data = json.loads(cli("lint", "weather.tools.json", *args, "--output-format", "json").stdout)
    assert [(t["name"], t.get("scored", True), t["status"]) for t in data["files"][0]["tools"]] == [
        ("get_forecast", True, "clean"),
        ("get_alerts", False, "ignored"),  # not linted, so not known to be clean
        ("set_unit", False, "ignored"),
    ]
    assert (data["summary"]["min_score"], data["files"][0]["quality"]["mean_score"]) == (1.0, 1.0)
    # a client profile's CMP rules still run on such a tool (ALL leaves them out): it has findings, not "ignored"
    strict = ("--target", "openai-strict", "--output-format", "json")
    targeted = json.loads(cli("lint", "weather.tools.json", *args, *strict).stdout)
    alerts = next(t for t in targeted["files"][0]["tools"] if t["name"] == "get_alerts")
    assert alerts["finding_count"] > 0 and alerts["status"] == "findings" and alerts["scored"] is False
    table = cli("lint", "weather.tools.json", *args, "--scores").stdout
    assert "  left out of the scores (an ignore of ALL): get_alerts, set_unit" in table
    assert "  catalog: min 1.00, mean 1.00 (grade A)" in table


@pytest.mark.parametrize(
    "args",
    [
        ("--per-tool-ignores", "get_alerts:DESC", "--per-tool-ignores", "set_unit:DESC,SCH"),  # not every rule
        ("--per-tool-ignores", "get_alerts:ALL", "--per-tool-ignores", "get_forecast:ALL"),  # set_unit still counts
    ],
)
def test_a_tool_ignored_for_some_rules_still_counts(cli, weather: Path, args: tuple[str, ...]) -> None:
    result = cli("lint", "weather.tools.json", *args)
    assert "gate [FAIL] min_score 0.20 < 0.50" in rows(result.stdout)


def test_a_file_glob_limits_what_an_ignore_of_all_leaves_out(cli, weather: Path) -> None:
    config = '[[per-tool-ignores]]\ntools = ["get_alerts", "set_unit"]\nrules = ["ALL"]\nfiles = ["other/*.json"]\n'
    (weather.parent / "catalint.toml").write_text(config)
    assert "gate [FAIL] min_score 0.20 < 0.50" in rows(cli("lint", "weather.tools.json").stdout)
    (weather.parent / "catalint.toml").write_text(config.replace("other/*.json", "*.json"))
    assert "gate [PASS] min_score 1.00 >= 0.50" in rows(cli("lint", "weather.tools.json").stdout)


def test_a_file_parked_with_a_per_file_ignore_of_all_leaves_the_gate_too(cli, weather: Path) -> None:
    """As ruff users park a file ("legacy/*" = ["ALL"]): it said "No findings" and failed the gate on its scores."""
    (weather.parent / "legacy").mkdir()
    (weather.parent / "legacy" / "old.tools.json").write_text(weather.read_text())
    weather.unlink()
    config = '[per-file-ignores]\n"legacy/*" = ["ALL"]\n"nothing/*" = ["ALL"]\n'
    (weather.parent / "catalint.toml").write_text(config)
    result = cli("lint", ".")
    assert result.exit_code == 0, result.stdout
    assert "gate [PASS] min_score n/a (>= 0.50)" in rows(result.stdout)
    assert "3 tools (3 left out by an ignore of ALL)" in result.stdout.splitlines()[-1]
    assert "matched no finding" not in result.stdout  # leaving the tools out is a use of the entry
    data = json.loads(cli("lint", ".", "--output-format", "json").stdout)
    assert [t["status"] for t in data["files"][0]["tools"]] == ["ignored"] * 3
    # one that ignores only some rules, or covers another file, still counts
    for other in ('"legacy/*" = ["DESC", "SCH", "CAT", "SEC"]', '"legacy/new*" = ["ALL"]'):
        (weather.parent / "catalint.toml").write_text(f"[per-file-ignores]\n{other}\n")
        assert "gate [FAIL] min_score 0.20 < 0.50" in rows(cli("lint", ".").stdout)
    flag = cli("lint", ".", "--isolated", "--per-file-ignores", "legacy/*:ALL")
    assert flag.exit_code == 0 and "gate [PASS] min_score n/a (>= 0.50)" in rows(flag.stdout)
    # a per-tool ignore of ALL for a tool of the parked file still counts as used there (pre-commit passes
    # only that file): it was told "remove it"
    both = ["--per-file-ignores", "legacy/*:ALL", "--per-tool-ignores", "get_alerts:ALL"]
    parked = cli("lint", "legacy/old.tools.json", "--isolated", *both)
    assert parked.exit_code == 0 and "notice" not in parked.stdout, parked.stdout


def test_a_file_whose_tools_are_all_left_out_has_no_scores(cli, weather: Path) -> None:
    args = [a for name in ("get_forecast", "get_alerts", "set_unit") for a in ("--per-tool-ignores", f"{name}:ALL")]
    result = cli("lint", "weather.tools.json", *args, "--scores")
    assert result.exit_code == 0
    assert "gate [PASS] min_score n/a (>= 0.50)" in rows(result.stdout)
    assert "matched no finding" not in result.stdout  # get_forecast has no finding to suppress
    assert "TDQS" not in result.stdout.splitlines()[-1] and "  catalog: min" not in result.stdout
    markdown = cli("lint", "weather.tools.json", *args, "--output-format", "markdown").stdout
    assert "No tool scored (3 left out by an ignore of ALL)." in markdown
    assert "| `set_unit` | 0.20 | not scored |" in markdown


def test_a_baseline_leaves_out_its_own_ignored_tools(cli, tmp_path: Path) -> None:
    # the baseline's legacy tool was renamed since: it is left out by the glob, not by today's names
    good = {
        "name": "search_orders",
        "description": "Search the store's orders by customer email, status or date range. Returns up to 50 "
        "orders as JSON objects with id, status, total and created_at. Example: status='shipped'.",
        "inputSchema": {
            "type": "object",
            "properties": {"email": {"type": "string", "description": "Customer email address, e.g. dana@example.com"}},
            "required": ["email"],
            "additionalProperties": False,
        },
        "annotations": {"readOnlyHint": True},
    }
    weak = {**good, "description": "Finds orders"}
    legacy = {"description": "x", "inputSchema": {"type": "object", "properties": {"a": {}}}}
    write_catalog(tmp_path / "base.json", [good, {"name": "legacy_thing", **legacy}])
    write_catalog(tmp_path / "head.json", [weak, {"name": "legacy_thing_v2", **legacy}])
    (tmp_path / "catalint.toml").write_text(
        '[[per-tool-ignores]]\ntools = ["legacy_*"]\nrules = ["ALL"]\n[gate]\nmean_score = { ">=" = 0.99 }\n'
    )
    result = cli("lint", "head.json", "--baseline", "base.json")
    (row,) = rows(result.stdout)
    assert row.startswith("gate [FAIL] mean_score ")  # lower than the baseline's, which counts search_orders only
    assert result.exit_code == 1


def test_a_gate_check_naming_an_ignored_tool_still_applies(cli, weather: Path) -> None:
    args = ("--per-tool-ignores", "set_unit:ALL", "--gate", 'tool["set_unit"].score>=0.9')
    assert 'gate [FAIL] tool["set_unit"].score 0.20 < 0.90' in rows(cli("lint", "weather.tools.json", *args).stdout)
