"""The CLI end to end: output formats, exit codes, rules/rule, stdin, output files."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from catalint.registry import all_rules
from conftest import ROOT, write_catalog

WEATHER = {
    "name": "get_weather",
    "description": "Get the weather for a city. Returns a JSON object.",
    "inputSchema": {
        "type": "object",
        "properties": {"city": {"type": "string", "maxLength": 100, "examples": ["Paris"]}},
        "required": ["city"],
        "additionalProperties": False,
    },
    "annotations": {"readOnlyHint": True},
}
CLEAN = {
    "name": "get_time",
    "description": "Get the current time in UTC. Returns an ISO 8601 timestamp string.",
    "inputSchema": {"type": "object", "additionalProperties": False},
    "annotations": {"readOnlyHint": True},
}


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    return write_catalog(tmp_path / "tools.json", [WEATHER, CLEAN])


def test_text_output_line_format_and_summary(cli, catalog: Path) -> None:
    result = cli("lint", "tools.json")
    lines = result.stdout.splitlines()
    # "city": {...} sits on line 9, column 19 of the indent=2 file
    assert lines[0] == "tools.json:9:19: DESC-006 [critical] get_weather: required argument 'city' has no description"
    assert lines[-4:] == [
        "gate [PASS] min_score 0.78 >= 0.50",
        "gate [PASS] mean_score 0.89 >= 0.70",
        "gate [FAIL] critical_count 1 > 0",
        "Found 1 finding (1 critical) in 2 tools in 1 file; TDQS min 0.78, mean 0.89 (B);"
        " 1 at or above the fail severity (critical); gate failed (1 of 3 checks).",
    ]
    assert result.exit_code == 1


def test_the_summary_says_why_a_run_whose_gate_passed_failed(cli, tmp_path: Path) -> None:
    # an SCH critical is no part of the gate's critical_count: every gate row said PASS, and the run exited 1
    bad_default = {"type": "integer", "maximum": 5, "default": 50, "description": "How many, at most five"}
    schema = {"type": "object", "properties": {"n": bad_default}, "required": ["n"], "additionalProperties": False}
    write_catalog(tmp_path / "tools.json", [{**CLEAN, "inputSchema": schema}])
    result = cli("lint", "--select", "SCH-009", "tools.json")
    assert result.exit_code == 1
    assert all(line.startswith("gate [PASS]") for line in result.stdout.splitlines() if line.startswith("gate"))
    assert result.stdout.splitlines()[-1].endswith("; 1 at or above the fail severity (critical).")
    relaxed = cli("lint", "--select", "SCH-009", "--severity", "SCH-009=warning", "tools.json")
    assert relaxed.exit_code == 0 and "at or above" not in relaxed.stdout


def test_clean_run_exit_0(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [CLEAN])
    result = cli("lint", "tools.json")
    assert result.exit_code == 0
    assert result.stdout.strip().splitlines() == [
        "gate [PASS] min_score 1.00 >= 0.50",
        "gate [PASS] mean_score 1.00 >= 0.70",
        "gate [PASS] critical_count 0 <= 0",
        "All checks passed: 1 tool in 1 file; TDQS min 1.00, mean 1.00 (A).",
    ]


def test_exit_zero(cli, catalog: Path) -> None:
    assert cli("lint", "--exit-zero", "tools.json").exit_code == 0
    assert cli("lint", "-e", "tools.json").exit_code == 0  # ruff's short form


def test_exit_zero_does_not_hide_input_errors(cli, tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{")
    assert cli("lint", "--exit-zero", "bad.json").exit_code == 2


def test_statistics(cli, tmp_path: Path) -> None:
    no_ann = {k: v for k, v in WEATHER.items() if k != "annotations"}
    write_catalog(tmp_path / "tools.json", [no_ann, {**no_ann, "name": "get_weather2"}])
    out = cli("lint", "--statistics", "tools.json").stdout
    assert "tools.json:" not in out  # the counts stand in for the findings, as in ruff
    assert out.splitlines()[0] == "     2  DESC-006  [critical]  undocumented-required-argument"
    assert out.splitlines()[-1].startswith("Found ")
    assert "     2  DESC-012  [warning]   missing-annotations" in out  # columns line up
    rows = [line for line in out.splitlines() if line.startswith("     ")]
    assert len(rows) > 2 and len({row.index("[") for row in rows}) == 1
    assert len({row.rindex(" ") for row in rows}) == 1  # the rule names start in one column


def test_quiet_prints_the_findings_and_failed_gate_checks_only(cli, tmp_path: Path) -> None:
    no_ann = {k: v for k, v in WEATHER.items() if k != "annotations"}
    write_catalog(tmp_path / "tools.json", [no_ann])
    full = cli("lint", "tools.json").stdout.splitlines()
    quiet = cli("lint", "-q", "tools.json")
    assert quiet.exit_code == 1
    findings = [line for line in full if line.startswith("tools.json:")]
    failed = [line for line in full if line.startswith("gate [FAIL]")]
    assert findings and quiet.stdout.splitlines() == findings + failed  # no PASS rows, notices or summary
    assert cli("lint", "--quiet", "--statistics", "tools.json").stdout.splitlines()[0].startswith("     1  DESC-006")
    clean = write_catalog(tmp_path / "clean.tools.json", [WEATHER | {"inputSchema": {"type": "object"}}])
    assert cli("lint", "-q", "--no-gate", "--select", "DESC-006", str(clean)).stdout == ""


def test_silent_prints_nothing_and_exits_as_the_lint_does(cli, tmp_path: Path) -> None:
    no_ann = {k: v for k, v in WEATHER.items() if k != "annotations"}
    write_catalog(tmp_path / "tools.json", [no_ann])
    silent = cli("lint", "-s", "tools.json", "--report", "json:report.json")
    assert (silent.exit_code, silent.stdout) == (1, "")
    assert json.loads((tmp_path / "report.json").read_text())["summary"]["findings"] == 2  # files still written
    cli("lint", "--silent", "tools.json", "-o", "out.txt")
    assert (tmp_path / "out.txt").read_text().splitlines()[-1].startswith("Found 2 findings")
    assert cli("lint", "-s", "tools.json", "--select", "DESC-012", "--no-gate", "--exit-zero").exit_code == 0


def test_statistics_name_every_severity_a_rules_findings_have(cli, tmp_path: Path) -> None:
    # a file's config may lower a rule: the row must not say only the first severity it met
    no_ann = {k: v for k, v in WEATHER.items() if k != "annotations"}
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        write_catalog(tmp_path / sub / "tools.json", [no_ann])
    (tmp_path / "a" / "catalint.toml").write_text('[severity]\nDESC-006 = "info"\n')
    out = cli("lint", "--statistics", "a/tools.json", "b/tools.json").stdout
    assert "     2  DESC-006  [critical/info]  undocumented-required-argument" in out
    assert "     2  DESC-012  [warning]        missing-annotations" in out
    # in JSON, as in ruff's: a statistics list in place of the findings; the rest of the report stands
    result = cli("lint", "--statistics", "--output-format", "json", "a/tools.json", "b/tools.json")
    data = json.loads(result.stdout)
    assert "findings" not in data and data["summary"]["findings"] == sum(s["count"] for s in data["statistics"])
    rows = {s["code"]: s for s in data["statistics"]}
    assert rows["DESC-006"] == {
        "code": "DESC-006",
        "name": "undocumented-required-argument",
        "severities": ["critical", "info"],
        "count": 2,
    }
    assert [s["count"] for s in data["statistics"]] == sorted((s["count"] for s in data["statistics"]), reverse=True)
    assert result.exit_code == 1 and len(data["files"]) == 2  # the gate and the exit code are the run's
    # a --report file is a whole report: --statistics (and -q) shape the one on standard output
    both = cli(
        "lint",
        "--statistics",
        "-q",
        "a/tools.json",
        "b/tools.json",
        "--report",
        "json:r.json",
        "--report",
        "text:r.txt",
    )
    assert "statistics" not in json.loads((tmp_path / "r.json").read_text())
    assert len(json.loads((tmp_path / "r.json").read_text())["findings"]) == data["summary"]["findings"]
    assert (tmp_path / "r.txt").read_text().splitlines()[-1].startswith("Found ")
    assert "Found " not in both.stdout and "a/tools.json:" not in both.stdout


def test_json_output_has_every_field_and_every_tool(cli, catalog: Path) -> None:
    data = json.loads(cli("lint", "--output-format", "json", "tools.json").stdout)
    (finding,) = data["findings"]
    assert finding == {
        "code": "DESC-006",
        "name": "undocumented-required-argument",
        "severity": "critical",
        "smell": "underspecified",
        "tool": "get_weather",
        "pointer": "/tools/0/inputSchema/properties/city",
        "message": "required argument 'city' has no description",
        "suggestion": None,
        "file": "tools.json",
        "line": 9,
        "column": 19,
        "end_line": 15,
        "end_column": 12,
    }
    tools = data["files"][0]["tools"]
    assert [(t["name"], t["status"], t["finding_count"]) for t in tools] == [
        ("get_weather", "findings", 1),
        ("get_time", "clean", 0),
    ]
    assert data["summary"]["tools"] == 2
    assert data["summary"]["failed"] is True
    assert data["errors"] == []


def test_json_summary_failed_follows_the_exit_code_when_a_catalog_cannot_be_read(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "ok.json", [WEATHER])
    (tmp_path / "bad.json").write_text("{")
    clean = ["lint", "--output-format", "json", "--no-gate", "--exit-zero", "--select", "DESC-001", "ok.json"]
    result = cli(*clean)
    assert result.exit_code == 0 and json.loads(result.stdout)["summary"]["failed"] is False
    result = cli(*clean, "bad.json")  # nothing failing but a file that could not be read
    assert result.exit_code == 2 and json.loads(result.stdout)["summary"]["failed"] is True


def test_fail_severity_takes_any_case_as_the_config_does(cli, catalog: Path) -> None:
    for level in ("Warning", "CRITICAL", "info"):
        result = cli("lint", "--no-gate", "--fail-severity", level, "tools.json")
        assert result.exit_code == 1, result.output  # DESC-006 is critical
    assert cli("lint", "--fail-severity", "bogus", "tools.json").exit_code == 2


def test_dash_as_output_file_is_standard_output(cli, catalog: Path, tmp_path: Path) -> None:
    result = cli("lint", "--output-format", "json", "-o", "-", "tools.json")
    assert json.loads(result.stdout)["summary"]["findings"] == 1
    result = cli("lint", "-o", "out.txt", "--report", "json:-", "tools.json")
    assert json.loads(result.stdout)["summary"]["findings"] == 1 and (tmp_path / "out.txt").exists()
    assert not (tmp_path / "-").exists()
    result = cli("lint", "--report", "json:-", "tools.json")  # the text report is there already
    assert result.exit_code == 2 and "already goes to standard output" in result.stderr
    result = cli("lint", "-o", "out.txt", "--report", "json:-", "--report", "sarif:-", "tools.json")
    assert result.exit_code == 2 and "another --report already goes to standard output" in result.stderr


def test_output_format_from_environment(cli, catalog: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CATALINT_OUTPUT_FORMAT", "json")
    assert json.loads(cli("lint", "tools.json").stdout)["summary"]["findings"] == 1


def test_bad_output_format_from_environment_names_the_variable(
    cli, catalog: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CATALINT_OUTPUT_FORMAT", "xml")
    result = cli("lint", "tools.json")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: CATALINT_OUTPUT_FORMAT (the environment variable): 'xml' is not one of")
    assert cli("lint", "--output-format", "xml", "tools.json").stderr.startswith("error: --output-format: 'xml'")


def test_flags_the_run_has_no_use_for_are_noticed(cli, catalog: Path) -> None:
    unused = cli("lint", "--no-gate", "--tool-token-budget", "50", "tools.json").stdout
    assert "notice: --tool-token-budget is TOK-001's budget, but TOK-001 is not selected" in unused
    used = cli("lint", "--no-gate", "--tool-token-budget", "50", "--extend-select", "TOK-001", "tools.json").stdout
    assert "notice: --tool-token-budget" not in used
    github = cli("lint", "--no-gate", "--scores", "--output-format", "github", "tools.json").stdout
    assert "--scores, --explain and --statistics shape the text report; the github format does not show them" in github
    assert "notice" not in cli("lint", "--no-gate", "--scores", "tools.json").stdout
    quiet = json.loads(cli("lint", "--no-gate", "-q", "--output-format", "json", "tools.json").stdout)
    assert "notice: -q shapes the text report; the json report is whole" in quiet["notices"]
    assert quiet["findings"]  # whole indeed


def test_tok002_without_a_budget_is_noticed(cli, catalog: Path) -> None:
    # TOK-002 is silent until a catalog budget is set: selecting it alone checks nothing
    silent = cli("lint", "--no-gate", "--extend-select", "TOK-002", "tools.json").stdout
    assert "notice: TOK-002 is selected but has no budget to check against: set catalog-token-budget" in silent
    budgeted = cli("lint", "--no-gate", "--extend-select", "TOK-002", "--catalog-token-budget", "9", "tools.json")
    assert "TOK-002 [" in budgeted.stdout and "no budget" not in budgeted.stdout
    assert "no budget" not in cli("lint", "--no-gate", "tools.json").stdout
    assert "no budget" not in cli("lint", "--no-gate", "--select", "ALL", "tools.json").stdout  # ALL: every rule
    assert "no budget" in cli("lint", "--no-gate", "--select", "TOK", "tools.json").stdout  # TOK names it


def test_empty_select_is_an_error(cli, catalog: Path) -> None:
    for value in ("", " , "):
        result = cli("lint", "--select", value, "tools.json")
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr.startswith("error: --select: no rule code given")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--ignore", ""), "error: --ignore: no rule code given in ''"),
        (("--ignore", "DESC", "--ignore", ","), "error: --ignore: no rule code given in ','"),
        (("--extend-select", " "), "error: --extend-select: no rule code given in ' '"),
        (("--per-file-ignores", "*.json:,"), "error: --per-file-ignores: no rule code given in ','"),
        (("--per-tool-ignores", "get_*: "), "error: --per-tool-ignores: no rule code given in ' '"),
        (("--target", ","), "error: --target: no client given in ','"),
    ],
)
def test_an_empty_code_list_flag_is_an_error(cli, catalog: Path, args: tuple[str, ...], said: str) -> None:
    """Before, each of these ran as if the flag were absent: '--ignore ""' ignored nothing, silently."""
    result = cli("lint", *args, "tools.json")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(said)
    assert len(result.stderr.splitlines()) == 1


def test_a_trailing_comma_in_a_code_list_is_fine(cli, catalog: Path) -> None:
    assert cli("lint", "--ignore", "DESC,", "--no-gate", "tools.json").exit_code == 0


def test_output_file(cli, catalog: Path, tmp_path: Path) -> None:
    result = cli("lint", "--output-format", "json", "-o", "report.json", "tools.json")
    assert result.stdout == ""
    assert json.loads((tmp_path / "report.json").read_text())["summary"]["findings"] == 1
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".report")] == []


def test_output_to_a_pipe_writes_to_it_and_leaves_it_a_pipe(cli, catalog: Path, tmp_path: Path) -> None:
    # -o /dev/null or a FIFO is a stream to write to: replacing it with a file (as root, /dev/null itself) is a bug
    import stat
    import threading

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text(encoding="utf-8")))
    reader.start()
    result = cli("lint", "-o", str(fifo), "tools.json")
    reader.join(10)
    assert result.exit_code == 1 and got and got[0].startswith("tools.json:")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_output_through_a_symbolic_link_keeps_the_link(cli, catalog: Path, tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    (tmp_path / "latest.txt").symlink_to(Path("reports") / "report.txt")
    cli("lint", "-o", "latest.txt", "tools.json")
    assert (tmp_path / "latest.txt").is_symlink()
    assert (tmp_path / "reports" / "report.txt").read_text(encoding="utf-8").startswith("tools.json:")


@pytest.mark.parametrize(
    ("args", "what"),
    [
        (["lint", "-", "-o", "tools.json"], "a catalog being linted"),
        (["diff", "-", "other.json", "-o", "tools.json"], "an input of this run"),
        (["trace", "distract", "-", "--count", "1", "-o", "tools.json"], "the catalog being padded"),
    ],
)
def test_output_over_the_file_standard_input_reads_is_refused(tmp_path: Path, args: list[str], what: str) -> None:
    """`catalint lint - -o tools.json < tools.json`: '-' names no file, but the redirect does."""
    write_catalog(tmp_path / "tools.json", [WEATHER])
    write_catalog(tmp_path / "other.json", [WEATHER])
    before = (tmp_path / "tools.json").read_bytes()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    with open(tmp_path / "tools.json", "rb") as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "catalint", *args], stdin=stdin, capture_output=True, cwd=tmp_path, env=env
        )
    assert done.returncode == 2
    assert done.stderr.decode().strip().startswith(f"error: tools.json: is {what}; write the ")
    assert (tmp_path / "tools.json").read_bytes() == before
    with open(tmp_path / "other.json", "rb") as stdin:  # another file on standard input: written
        done = subprocess.run(
            [sys.executable, "-m", "catalint", *args], stdin=stdin, capture_output=True, cwd=tmp_path, env=env
        )
    assert done.returncode in (0, 1), done.stderr
    assert (tmp_path / "tools.json").read_bytes() != before
    piped = subprocess.run(  # a pipe on standard input names no file: a device output is still written
        [sys.executable, "-m", "catalint", *args[:-1], "/dev/null"],
        input=before,
        capture_output=True,
        cwd=tmp_path,
        env=env,
    )
    assert piped.returncode in (0, 1), piped.stderr


def test_an_output_that_is_a_loop_of_links_is_an_error_not_replaced(cli, catalog: Path, tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to("loop")
    for args in (["-o", "loop"], ["--report", "sarif:loop", "-o", "out.txt"]):
        result = cli("lint", *args, "tools.json")
        assert result.exit_code == 2
        assert result.stderr.strip() == "loop: error: cannot write report: Too many levels of symbolic links"
        assert (tmp_path / "loop").is_symlink() and os.readlink(tmp_path / "loop") == "loop"
        assert not (tmp_path / "out.txt").exists()  # all outputs or none


def test_output_over_a_linted_catalog_is_refused(cli, catalog: Path, tmp_path: Path) -> None:
    before = catalog.read_text(encoding="utf-8")
    for args in (["-o", "tools.json"], ["--report", "sarif:./tools.json"]):
        result = cli("lint", *args, "tools.json")
        assert result.exit_code == 2 and result.stdout == ""
        assert "is a catalog being linted; write the report elsewhere" in result.stderr
    assert catalog.read_text(encoding="utf-8") == before


def test_unwritable_output_file_is_exit_2(cli, catalog: Path) -> None:
    result = cli("lint", "-o", "tools.json/report.txt", "tools.json")
    assert result.exit_code == 2
    assert result.stderr == "tools.json/report.txt: error: cannot write report: Not a directory\n"


def test_an_output_files_missing_folders_are_made_as_ruff_makes_them(cli, catalog: Path, tmp_path: Path) -> None:
    result = cli("lint", "-o", "out/a/report.txt", "--report", "sarif:out/b/report.sarif", "tools.json", "-e")
    assert result.exit_code == 0 and result.stderr == ""
    assert (tmp_path / "out/a/report.txt").read_text().startswith("tools.json:")
    assert json.loads((tmp_path / "out/b/report.sarif").read_text())["version"] == "2.1.0"
    # a run that fails to write one of its outputs leaves none of the folders it made
    if Path("/dev/full").exists():
        failed = cli("lint", "-o", "new/a/report.txt", "--report", "sarif:/dev/full", "tools.json", "-e")
        assert failed.exit_code == 2 and not (tmp_path / "new").exists()


def test_stdin_json_and_yaml(cli) -> None:
    text = json.dumps({"tools": [WEATHER]})
    result = cli("lint", "-", input=text)
    assert result.stdout.startswith("-:1:")
    assert result.exit_code == 1
    yaml_text = (
        "tools:\n  - name: t\n    description: Get it now and return it.\n    annotations: {}\n"
        "    inputSchema: {type: object, additionalProperties: false}\n"
    )
    result = cli("lint", "--stdin-filename", "snap.yaml", "-", input=yaml_text)
    assert result.exit_code == 0, result.output
    assert "1 tool in 1 file" in result.stdout


def test_stdin_filename_alone_reads_stdin(cli, catalog: Path) -> None:
    text = json.dumps({"tools": [WEATHER]})
    result = cli("lint", "--stdin-filename", "in.json", input=text)
    assert result.stdout.startswith("in.json:1:") and "in 1 tool in 1 file" in result.stdout
    named = cli("lint", "--stdin-filename", "in.json", "tools.json", input=text)
    assert (named.exit_code, named.stdout) == (2, "")
    assert named.stderr == "error: --stdin-filename names standard input: give - among the paths to read it\n"


@pytest.mark.parametrize("command", [["lint"], ["snapshot", "-o", "x.json"]])
def test_an_empty_url_is_refused_not_taken_for_no_url(cli, tmp_path: Path, command: list[str]) -> None:
    # an unset $MCP_URL (secrets are empty on a fork's pull request): lint linted the working directory
    # instead, and passed on finding no catalog there
    result = cli(*command, "--url", "")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "error: --url: give a URL, not an empty one (is the variable that holds it set?)\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["", "  "])
def test_an_empty_stdin_filename_is_refused(cli, name: str) -> None:
    # every finding would start ':35:5:', which no problem matcher reads
    result = cli("lint", "--stdin-filename", name, "-", input=json.dumps({"tools": [WEATHER]}))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "error: --stdin-filename: give a file name, not an empty one\n"


def test_bad_file_does_not_stop_the_others(cli, catalog: Path, tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text('{"tools": [\n  {"name": }\n]}')
    result = cli("lint", "broken.json", "tools.json")
    assert result.exit_code == 2
    assert result.stderr.startswith("broken.json:2:")
    assert "tools.json:9:19: DESC-006" in result.stdout
    assert "1 file could not be read" in result.stdout


def test_rules_lists_every_rule(cli) -> None:
    lines = cli("rules").stdout.splitlines()
    assert len(lines) == len(all_rules())
    for r, line in zip(all_rules(), lines, strict=True):  # code, name, severity, smell, summary, in columns
        assert line.split()[:4] == [r.code, r.name, str(r.severity), r.smell], line
        assert line.index(r.summary) == lines[0].index(all_rules()[0].summary)
    data = json.loads(cli("rules", "--output-format", "json").stdout)
    assert [d["code"] for d in data] == [r.code for r in all_rules()]
    assert {"code", "name", "severity", "smell", "summary", "explanation"} <= set(data[0])


def test_rule_explains_one(cli) -> None:
    out = cli("rule", "DESC-009").stdout
    assert out.startswith("DESC-009 (no-usage-examples)")
    assert "Severity: warning" in out and "Smell: missing_examples" in out
    for section in ("**What it catches.**", "**Why.**", "**Bad.**", "**Good.**", "**Fix.**"):
        assert section in out
    assert cli("rule", "no-usage-examples").stdout == out
    assert json.loads(cli("rule", "desc-009", "--output-format", "json").stdout)["code"] == "DESC-009"


def test_unknown_rule_is_exit_2(cli) -> None:
    result = cli("rule", "DESC-999")
    assert result.exit_code == 2
    assert "unknown rule 'DESC-999'" in result.stderr


@pytest.mark.parametrize(("asked", "count"), [("DESC", 13), ("sch-00", 9), ("CAT-00", 5)])
def test_a_rule_family_names_its_rules(cli, asked: str, count: int) -> None:
    # it used to answer "did you mean 'DESC-013'?"
    result = cli("rule", asked)
    assert (result.exit_code, result.stdout) == (2, "")
    family = [r.code for r in all_rules() if r.code.startswith(asked.upper())]
    assert len(family) == count
    assert result.stderr.startswith(f"error: {asked!r} names {count} rules, not one: {', '.join(family)} (")
    assert "did you mean" not in result.stderr


def test_rule_all_explains_every_rule(cli) -> None:
    text = cli("rule", "--all").stdout
    assert text == "\n".join(cli("rule", r.code).stdout for r in all_rules())
    data = json.loads(cli("rule", "--all", "--output-format", "json").stdout)
    assert [d["code"] for d in data] == [r.code for r in all_rules()]
    assert data[0] == json.loads(cli("rule", all_rules()[0].code, "--output-format", "json").stdout)
    for args, said in ((["--all", "DESC-001"], "not both"), ([], "give one rule CODE, or --all")):
        result = cli("rule", *args)
        assert result.exit_code == 2 and said in result.stderr


@pytest.mark.parametrize(
    ("asked", "near"),
    [("DESC-99", "DESC-009"), ("sch-0011", "SCH-011"), ("invalid_tool_name", "invalid-tool-name"), ("zzzz", None)],
)
def test_an_unknown_rule_suggests_the_nearest(cli, asked: str, near: str | None) -> None:
    [line] = cli("rule", asked).stderr.splitlines()
    assert (f"did you mean {near!r}? " in line) if near else "did you mean" not in line


def test_every_rule_documents_what_why_examples_and_fix() -> None:
    for r in all_rules():
        for section in ("**What it catches.**", "**Why.**", "**Bad.**", "**Good.**", "**Fix.**"):
            assert section in r.explanation, (r.code, section)
        assert r.name == r.name.lower() and " " not in r.name


def test_usage_error_is_exit_2(cli) -> None:
    result = cli("lint", "--output-format", "xml", "x.json")
    assert result.exit_code == 2


def _run(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("CATALINT_OUTPUT_FORMAT", None)
    return subprocess.run(
        [sys.executable, "-m", "catalint", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_python_dash_m_end_to_end(catalog: Path, tmp_path: Path) -> None:
    proc = _run("lint", "tools.json", cwd=tmp_path)
    assert proc.returncode == 1
    assert "tools.json:9:19: DESC-006 [critical]" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_bundled_examples_end_to_end(tmp_path: Path) -> None:
    proc = _run("lint", "--output-format", "json", str(ROOT / "examples"), cwd=tmp_path)
    data = json.loads(proc.stdout)
    assert proc.returncode == 1
    assert {Path(f["file"]).name for f in data["files"]} == {"weather.tools.json", "weather.tools.yaml"}
    by_tool = {t["name"]: t["status"] for f in data["files"] for t in f["tools"]}
    assert by_tool["get_forecast"] == "clean"
    assert by_tool["search_cities"] == "clean"
    assert by_tool["set_unit"] == "findings"


def test_closed_pipe_is_not_a_traceback(tmp_path: Path) -> None:
    tools = [{**WEATHER, "name": f"t{i}"} for i in range(3000)]
    write_catalog(tmp_path / "tools.json", tools)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "catalint", "lint", "tools.json"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # like `catalint lint ... | head -1`
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert first.startswith(b"tools.json:")
    assert "Traceback" not in err and "BrokenPipe" not in err


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["rules"], 0),
        (["rules", "--output-format", "json"], 0),
        (["rule", "DESC-001"], 0),
        (["--help"], 0),
        (["lint", "--exit-zero", "-"], 0),
        (["lint", "-"], 1),  # its findings still fail the run
        (["lint", "--output-format", "json", "-"], 1),
    ],
)
def test_a_reader_gone_before_the_first_line_is_not_an_error(args: list[str], code: int) -> None:
    # `catalint rules | head -1` under `set -o pipefail`: the pipe closes before catalint writes, so the
    # write fails mid-command or only at the final flush (a short report); either way the rest is dropped,
    # silently, and the command ends with its own code (click would end any EPIPE with exit 1).
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "catalint", *args],
            input=json.dumps({"tools": [WEATHER]}).encode(),
            stdout=write_end,
            stderr=subprocess.PIPE,
            env=env,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert (proc.returncode, proc.stderr.decode()) == (code, "")


@pytest.mark.parametrize("args", [["--baseline", "-", "-"], ["--baseline", "-", "--stdin-filename", "t.json"]])
def test_the_baseline_and_the_catalog_cannot_both_be_standard_input(cli, args: list[str]) -> None:
    result = cli("lint", *args, input='{"tools": []}')
    assert result.exit_code == 2
    said = "error: --baseline - and the catalog both read standard input: give one of them as a file"
    assert result.stderr.strip() == said


def test_lint_reads_standard_input_once(cli) -> None:
    result = cli("lint", "-", "-", input='{"tools": []}')
    assert result.exit_code == 2
    assert result.output.strip() == "error: '-' (standard input) can be given only once"


@pytest.mark.parametrize(
    "command",
    [
        ["lint", "-o", "OUT", "tools.json"],
        ["diff", "-o", "OUT", "tools.json", "tools.json"],
        ["trace", "score", "-o", "OUT", "--catalog", "tools.json", "runs.json"],
        ["snapshot", "-o", "OUT", "--", "true"],  # the server is never started
    ],
)
def test_an_output_file_that_cannot_be_written_is_one_line_before_any_work(cli, tmp_path, command) -> None:
    write_catalog(tmp_path / "tools.json", [])
    (tmp_path / "outdir").mkdir()
    what = "the snapshot" if command[0] == "snapshot" else "report"
    for target, why in (("outdir", "Is a directory"), ("tools.json/x.out", "Not a directory")):
        result = cli(*[target if arg == "OUT" else arg for arg in command])
        assert result.exit_code == 2
        assert result.stderr.splitlines() == [f"{target}: error: cannot write {what}: {why}"]


# Every flag with a value that cannot be taken gives one `error: FLAG: ...` line and exit 2, whether
# catalint checks the value (--report, --gate) or click does (a choice, a range): not click's usage
# text, a "Try ... --help" hint and "Error: Invalid value for ...".
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["lint", "tools.json", "--per-file-ignores", "foo"],
            "error: --per-file-ignores: expected GLOB:CODES, got 'foo'",
        ),
        (
            ["lint", "tools.json", "--per-tool-ignores", "foo"],
            "error: --per-tool-ignores: expected GLOB:CODES, got 'foo'",
        ),
        (["lint", "tools.json", "--severity", "DESC-001"], "error: --severity: expected CODE=LEVEL, got 'DESC-001'"),
        (["lint", "tools.json", "--severity", "DESC-001=loud"], "error: command line: --severity DESC-001: unknown"),
        (["lint", "tools.json", "--per-file-ignores", "x:NOPE"], "error: command line: --per-file-ignores x: unknown"),
        (["lint", "tools.json", "--per-tool-ignores", "x:NOPE"], "error: command line: --per-tool-ignores x: rules:"),
        (["lint", "tools.json", "--target", "bogus"], "error: command line: --target: unknown target 'bogus'"),
        (["lint", "tools.json", "--report", "sarif"], "error: --report: expected FORMAT:FILE, got 'sarif'"),
        (["lint", "tools.json", "--gate", "x=>1"], "error: command line: --gate: bad comparison in 'x=>1'"),
        (["lint", "tools.json", "--fail-severity", "bogus"], "error: --fail-severity: 'bogus' is not one of"),
        (["lint", "tools.json", "--output-format", "bogus"], "error: --output-format: 'bogus' is not one of"),
        (["lint", "tools.json", "--tool-token-budget", "0"], "error: --tool-token-budget: 0 is not in the range x>=1"),
        (["lint", "tools.json", "--catalog-token-budget", "x"], "error: --catalog-token-budget: 'x' is not a valid"),
        (["lint", "--url", "http://x", "--timeout", "0"], "error: --timeout: 0.0 is not in the range x>=0.1"),
        (["lint", "--server", "--env", "FOO", "--", "true"], "error: --env: expected NAME=VALUE, got 'FOO'"),
        (["check", "s.yml", "--output-format", "bogus"], "error: --output-format: 'bogus' is not one of"),
        (["check", "s.yml", "--traces", "nowhere"], "error: --traces: Directory 'nowhere' does not exist"),
        (["diff", "tools.json", "tools.json", "--output-format", "x"], "error: --output-format: 'x' is not one of"),
        (["bench", "run", "x.yml", "--min-drop", "2"], "error: --min-drop: 2.0 is not in the range 0.0<=x<=1.0"),
        (["bench", "run", "x.yml", "--output-format", "x"], "error: --output-format: 'x' is not one of"),
        (["rules", "--output-format", "x"], "error: --output-format: 'x' is not one of"),
        (["rule", "DESC-001", "--output-format", "x"], "error: --output-format: 'x' is not one of"),
        (["snapshot", "-o", "out.json", "--timeout", "0", "--", "true"], "error: --timeout: 0.0 is not in the range"),
        (["snapshot", "-o", "out.json", "--env", "FOO", "--", "true"], "error: --env: expected NAME=VALUE"),
        (["trace", "score", "t.json", "--min-selection-rate", "2"], "error: --min-selection-rate: 2.0 is not in"),
        (["trace", "score", "t.json", "--max-total-tokens", "-1"], "error: --max-total-tokens: -1 is not in"),
        (["trace", "score", "t.json", "--output-format", "x"], "error: --output-format: 'x' is not one of"),
        (["trace", "distract", "tools.json", "--count", "-1"], "error: --count: -1 is not in the range x>=0"),
        (["trace", "distract", "tools.json", "--count", "1", "--from", "x"], "error: --from: 'x' is not one of"),
        # nan compares false with every bound, so click's FloatRange took it
        (["trace", "score", "t.json", "--min-selection-rate", "nan"], "error: --min-selection-rate: 'nan' is not a"),
        (["lint", "--url", "http://x", "--timeout", "NaN"], "error: --timeout: 'NaN' is not a number"),
        (["bench", "run", "x.yml", "--min-drop", "nan"], "error: --min-drop: 'nan' is not a number"),
    ],
)
def test_a_bad_flag_value_is_one_error_line(cli, catalog: Path, args: list[str], expected: str) -> None:
    result = cli(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith(expected), result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert not result.stderr.rstrip().endswith("."), result.stderr


def test_unknown_options_and_missing_arguments_keep_clicks_usage_text(cli, catalog: Path) -> None:
    for args in (["lint", "--bogus-flag"], ["snapshot"], ["trace", "distract", "tools.json"]):
        result = cli(*args)
        assert result.exit_code == 2
        assert result.stderr.startswith("Usage: "), result.stderr


# ---- --show-files and --show-settings ------------------------------------------------------------------------------


def test_show_files_lists_what_a_run_would_lint_and_reads_none_of_it(cli, tmp_path: Path) -> None:
    for folder in ("proj", "proj/node_modules"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    write_catalog(tmp_path / "proj" / "a.tools.json", [WEATHER])
    (tmp_path / "proj" / "b.tools.yaml").write_text("{ not: [yaml")  # never read: no error
    write_catalog(tmp_path / "proj" / "notes.json", [WEATHER])  # not a catalog name
    write_catalog(tmp_path / "proj" / "node_modules" / "x.tools.json", [WEATHER])  # excluded
    result = cli("lint", "--show-files", "proj")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == ["proj/a.tools.json", "proj/b.tools.yaml"]
    widened = cli("lint", "--show-files", "proj", "--include", "*.json")
    assert widened.stdout.splitlines() == ["proj/a.tools.json", "proj/notes.json"]
    forced = cli(
        "lint",
        "--show-files",
        "--force-exclude",
        "--exclude",
        "a.*",
        "--exclude",
        "node_modules",
        "proj/a.tools.json",
        "proj",
    )
    assert forced.stdout.splitlines() == ["proj/b.tools.yaml"]
    assert "1 file skipped: exclude covers it and force-exclude is on" in forced.stderr
    cli("lint", "--show-files", "proj", "-o", "files.txt")
    assert (tmp_path / "files.txt").read_text().splitlines() == ["proj/a.tools.json", "proj/b.tools.yaml"]


def test_show_settings_resolves_the_first_files_config_and_the_flags(cli, tmp_path: Path) -> None:
    (tmp_path / "proj").mkdir()
    write_catalog(tmp_path / "proj" / "tools.json", [WEATHER])
    (tmp_path / "proj" / "catalint.toml").write_text(
        'select = ["DESC"]\nignore = ["DESC-012"]\n[severity]\nDESC-010 = "info"\n'
        '[[per-tool-ignores]]\ntools = ["get_*"]\nrules = ["DESC-001"]\nreason = "legacy"\n'
    )
    result = cli("lint", "--show-settings", "proj")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == ["file: proj/tools.json", "config: proj/catalint.toml"]
    rules = next(line for line in lines if line.startswith("rules "))
    assert rules.startswith("rules (12 on): DESC-001, ") and "DESC-012" not in rules and "SCH" not in rules
    assert "severity: DESC-010 = info" in lines and "fail-severity: critical" in lines
    assert 'per-tool-ignores: tools = ["get_*"], rules = ["DESC-001"], reason = "legacy"' in lines
    assert "gate: min_score >= 0.50, mean_score >= 0.70, critical_count <= 0" in lines
    flagged = cli("lint", "--show-settings", "proj", "--fail-severity", "warning", "--no-gate", "--target", "openai")
    assert "config: proj/catalint.toml, with command-line flags on top" in flagged.stdout.splitlines()
    assert "fail-severity: warning" in flagged.stdout and "gate: off" in flagged.stdout
    assert "CMP-OAI-001" in flagged.stdout and 'targets: ["openai"]' in flagged.stdout
    # tables laid over one another are shown in order: the topmost that names a rule decides it
    laid = cli("lint", "--show-settings", "proj", "--severity", "DESC=critical").stdout.splitlines()
    assert "severity: DESC-010 = info; then DESC = critical" in laid
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "catalint.toml").write_text("")
    bare = cli("lint", "--show-settings", "empty")
    assert bare.exit_code == 0, bare.stderr
    assert bare.stdout.splitlines()[:2] == [
        "file: (no catalog found: the settings of the folder empty)",
        "config: empty/catalint.toml",
    ]


def test_show_settings_says_which_per_file_ignores_take_in_the_file(cli, tmp_path: Path) -> None:
    (tmp_path / "proj" / "sub").mkdir(parents=True)
    write_catalog(tmp_path / "proj" / "sub" / "tools.json", [WEATHER])
    (tmp_path / "proj" / "catalint.toml").write_text(
        'select = ["DESC", "SCH-001"]\n[per-file-ignores]\n"sub/*.json" = ["DESC"]\n"other/*.json" = ["SCH"]\n'
    )
    lines = cli("lint", "--show-settings", "proj/sub/tools.json").stdout.splitlines()
    assert 'per-file-ignores: ["sub/*.json"] = ["DESC"] (takes in this file)' in lines
    assert 'per-file-ignores: ["other/*.json"] = ["SCH"]' in lines
    assert "rules for this file (1 on, after per-file-ignores): SCH-001" in lines
    shown = json.loads(cli("lint", "--show-settings", "proj/sub/tools.json", "--output-format", "json").stdout)
    assert shown["file_rules"] == ["SCH-001"] and len(shown["rules"]) == 14
    # the run agrees: no DESC rule reports on that file, though they do on the same catalog elsewhere
    run = json.loads(cli("lint", "proj/sub/tools.json", "--output-format", "json", "--exit-zero").stdout)
    assert not [f for f in run["findings"] if f["code"].startswith("DESC")]
    # a glob typed on the command line is read from the working directory, in the view as in a run
    typed = cli("lint", "--show-settings", "proj/sub/tools.json", "--extend-per-file-ignores", "proj/sub/*:SCH-001")
    assert "rules for this file (0 on, after per-file-ignores): none" in typed.stdout.splitlines()
    # --per-file-ignores replaces the config's, as in ruff: the DESC rules are back
    typed = cli("lint", "--show-settings", "proj/sub/tools.json", "--per-file-ignores", "proj/sub/*:SCH-001")
    assert "rules for this file (13 on, after per-file-ignores): DESC-001" in typed.stdout
    assert 'per-file-ignores: ["sub/*.json"]' not in typed.stdout
    # no glob takes the file in: no line for it, and the JSON's list is the whole one
    (tmp_path / "proj" / "tools.json").write_text((tmp_path / "proj" / "sub" / "tools.json").read_text())
    top = cli("lint", "--show-settings", "proj/tools.json")
    there = json.loads(cli("lint", "proj/tools.json", "--output-format", "json", "--exit-zero").stdout)
    assert [f for f in there["findings"] if f["code"].startswith("DESC")]
    assert "rules for this file" not in top.stdout and "(takes in this file)" not in top.stdout
    whole = json.loads(cli("lint", "--show-settings", "proj/tools.json", "--output-format", "json").stdout)
    assert whole["file_rules"] == whole["rules"]


def test_show_flags_refuse_what_they_cannot_do(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [WEATHER])
    missing = cli("lint", "--show-files", "tools.json", "nowhere.json")
    assert missing.exit_code == 2 and missing.stdout == "tools.json\n"
    assert missing.stderr.strip() == "nowhere.json: error: No such file or directory"
    # the settings of the first file there is; a bad config in a folder is one error line, not a crash
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "catalint.toml").write_text('select = "DESC"\n')
    shown = cli("lint", "--show-settings", "missing.json", "tools.json")
    assert shown.exit_code == 2 and "file: tools.json" in shown.stdout
    assert shown.stderr.strip() == "missing.json: error: No such file or directory"
    crashed = cli("lint", "--show-settings", "missing.json", "bad")
    assert (
        crashed.exit_code == 2 and "internal error" not in crashed.stderr and "bad/catalint.toml:1:10" in crashed.stderr
    )
    # a server is never started for them
    started = tmp_path / "started"
    server = cli("lint", "--show-files", "--server", "--", sys.executable, "-c", f"open({str(started)!r}, 'w')")
    assert server.exit_code == 2 and not started.exists()
    assert server.stderr.strip() == "error: --show-files and --show-settings look at files: drop --server and --url"
    before = (tmp_path / "tools.json").read_text()
    onto = cli("lint", "--show-files", "tools.json", "-o", "tools.json")  # the list never replaces a catalog
    assert onto.exit_code == 2 and (tmp_path / "tools.json").read_text() == before
    both = cli("lint", "--show-files", "--show-settings", "tools.json")
    assert both.exit_code == 2 and both.stderr.strip() == "error: give --show-files or --show-settings, not both"
    (tmp_path / "catalint.toml").write_text('select = "DESC"\n')
    bad = cli("lint", "--show-settings", "tools.json")
    assert bad.exit_code == 2 and len(bad.stderr.splitlines()) == 1 and "catalint.toml:1:10" in bad.stderr


# Every command with a report, on the bundled examples (paths from the repository root).
REPORTING = {
    "lint": ["lint", "examples/weather.tools.json", "--exit-zero"],
    "diff": ["diff", "examples/weather.tools.json", "examples/weather.tools.yaml"],
    "bench run": ["bench", "run", "examples/tool-description-bench/spec.yaml"],
    "trace score": [
        *("trace", "score", "examples/traces/runs/research-agent.jsonl"),
        *("--catalog", "search=examples/traces/catalogs/search.json", "--class", "search=search.web_search"),
    ],
    "check": ["check", "examples/traces/suite.yml", "--traces", "examples/traces/runs"],
}


def _from_root(command: list[str]) -> list[str]:
    return [re.sub(r"^(\w+=)?(examples/)", lambda m: (m[1] or "") + f"{ROOT}/examples/", a) for a in command]


@pytest.mark.parametrize("name", list(REPORTING))
def test_every_json_report_opens_with_the_version_that_wrote_it(cli, name: str) -> None:
    from catalint import __version__

    result = cli(*_from_root(REPORTING[name]), "--output-format", "json")
    assert result.exit_code in (0, 1), result.output
    doc = json.loads(result.stdout)
    assert next(iter(doc.items())) == ("catalint", __version__)


@pytest.mark.parametrize("name", ["diff", "trace score", "check"])  # lint, bench: elsewhere
def test_every_markdown_report_stays_within_one_step_summary(cli, name: str, monkeypatch) -> None:
    from catalint.formatters import markdown

    args = _from_root(REPORTING[name])
    whole = cli(*args, "--output-format", "markdown").stdout
    monkeypatch.setattr(markdown, "MAX_BYTES", len(whole.encode()) // 2)
    cut = cli(*args, "--output-format", "markdown").stdout
    assert len(cut.encode()) <= len(whole.encode()) // 2
    assert cut.rstrip().endswith(f"run `catalint {name} --output-format json` for all of it.")


@pytest.mark.parametrize(
    ("text", "notice"),
    [
        ('{"tools": []}', "cat.json: notice: the catalog has no tools; nothing was checked"),
        ("[]", "cat.json: notice: the catalog has no tools; nothing was checked"),
        (
            '{"tools": [{"name": "get_time", "description": "Returns the current time in a zone, as ISO 8601."}],'
            ' "nextCursor": "page-2"}',
            "cat.json: notice: it has a nextCursor, so it is one page of tools/list; `catalint snapshot` takes",
        ),
        (
            '{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "get_time", "description": "Time now."}],'
            ' "nextCursor": "2"}}',
            "cat.json: notice: it has a nextCursor, so it is one page",
        ),
    ],
)
def test_an_empty_catalog_or_one_page_of_tools_is_noticed(cli, tmp_path: Path, text: str, notice: str) -> None:
    (tmp_path / "cat.json").write_text(text)
    result = cli("lint", "--no-gate", "cat.json")
    assert result.exit_code in (0, 1)
    assert notice in result.stdout


@pytest.mark.parametrize("cursor", ["null", '""', "false", "0", "{}"])
def test_a_last_page_is_not_noticed(cli, tmp_path: Path, cursor: str) -> None:
    text = '{"tools": [{"name": "get_time", "description": "Returns the time."}], "nextCursor": ' + cursor + "}"
    (tmp_path / "cat.json").write_text(text)
    assert "notice" not in cli("lint", "--no-gate", "cat.json").stdout


def test_show_settings_and_show_files_as_json(cli, tmp_path: Path) -> None:
    (tmp_path / "proj").mkdir()
    write_catalog(tmp_path / "proj" / "tools.json", [WEATHER])
    (tmp_path / "base.toml").write_text('ignore = ["DESC-012"]\n[per-file-ignores]\n"x/*.json" = ["SCH"]\n')
    (tmp_path / "proj" / "catalint.toml").write_text('extend = "../base.toml"\n[severity]\nDESC-010 = "info"\n')
    result = cli("lint", "--show-settings", "--output-format", "json", "proj", "--no-gate")
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["file"] == "proj/tools.json" and shown["folder"] is None
    assert shown["config"] == "proj/catalint.toml" and shown["extends"] == ["base.toml"]
    assert shown["command_line_flags"] is True and shown["gate"] == []
    assert "DESC-001" in shown["rules"] and "DESC-012" not in shown["rules"]
    assert shown["severity"] == {"DESC-010": "info"} and shown["fail-severity"] == "critical"
    assert shown["per-file-ignores"] == [{"glob": "x/*.json", "rules": ["SCH"], "in": "base.toml"}]
    files = cli("lint", "--show-files", "--output-format", "json", "proj")
    assert files.exit_code == 0 and json.loads(files.stdout) == ["proj/tools.json"]
    # any other format shows the text, as before
    assert cli("lint", "--show-files", "--output-format", "sarif", "proj").stdout == "proj/tools.json\n"
