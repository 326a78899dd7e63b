"""Output injection: file names and every string from a catalog, suite, trace or bench spec are untrusted.

catalint runs in CI on pull requests from strangers. A file name or a tool name holding a line break could
start a log line of its own, and GitHub's runner reads a line that begins with '::' (after white space) as a
workflow command (::error::, ::add-mask::, ::stop-commands::), and '##[command]' anywhere in a line. An ESC
recolours the log; a bidirectional control reorders what a reviewer sees. Each test below runs a command end
to end on hostile input and checks every line of its standard output and standard error.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import Result

from catalint.text import one_line
from conftest import write, write_catalog

# What a stranger's pull request can put in a file name or a catalog string.
EVIL = "x\n::error file=x::pwned\x1b[31m\r::add-mask::y\u202e##[warning]z\x85\u2028##vso[task.setvariable variable=v]1"
EVIL_INLINE = "::error::y\x1b[31m\u202e##[warning]z"  # no line break: a gate check can name it
EVIL_FILE = "a\n::error file=x::pwned\x1b[31m\x1b]0;t\x07\u202e\r.tools.json"  # no '/' and no NUL: a legal file name
RUNNER_LINE_BREAKS = re.compile("\r\n|\r|\n")  # how GitHub's runner reads lines (StreamReader.ReadLine)
RAW_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
OWN_COMMAND = re.compile(r"::(error|warning|notice) [^:\n]*title=catalint[^:\n]*::")  # the github format's own
OWN_AZURE_COMMAND = "##vso[task.logissue type="  # the azure format's own


def assert_clean(text: str, github: bool = False, azure: bool = False) -> None:
    """No line of text opens a workflow command that catalint did not write, and no raw control is left."""
    found = RAW_CONTROLS.search(text)
    assert found is None, f"raw {found.group()!r} in {text!r}"
    for line in RUNNER_LINE_BREAKS.split(text):
        stripped = line.lstrip()
        if github and OWN_COMMAND.match(stripped):
            continue
        assert not stripped.startswith("::"), f"a line opens a workflow command: {line!r}"
        assert "##[" not in line, f"a legacy workflow command: {line!r}"
        if azure and line.startswith(OWN_AZURE_COMMAND):  # the agent reads the first ##vso[ in a line only
            line = line[len(OWN_AZURE_COMMAND) :]
        assert "##vso[" not in line, f"an Azure Pipelines logging command: {line!r}"


def assert_result_clean(result: Result, github: bool = False) -> None:
    assert_clean(result.stdout, github)
    assert_clean(result.stderr)


def evil_tool(name: str = EVIL) -> dict[str, object]:
    return {"name": name, "description": f"Reads a thing. {EVIL}", "inputSchema": {"type": "object"}}


OK_TOOL = {
    "name": "get_weather",
    "description": "Get the current weather for a city. Returns the temperature in Celsius.",
    "inputSchema": {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "City name", "maxLength": 80}},
        "required": ["city"],
        "additionalProperties": False,
    },
}


def test_one_line_leaves_ordinary_text_alone_and_escapes_the_rest() -> None:
    for plain in ("get_weather", "tools.json", "ok/tools.yaml", "naïve 天気 🌦", "a::b", "see ## [1]", ""):
        assert one_line(plain) == plain
    assert one_line("a\n::error::x\x1b[31m\u202e") == "a\\n::error::x\\x1b[31m\\u202e"
    assert one_line("::error::x") == "\\x3a:error::x"
    assert one_line(" \u00a0\t::warning::x") == " \u00a0\\t::warning::x"  # the tab is escaped: no longer white
    assert one_line("  ::warning::x") == "  \\x3a:warning::x"
    assert one_line("say ##[error]x") == "say #\\x23[error]x"
    # the Azure Pipelines agent runs the first ##vso[ anywhere in a line (case-sensitive)
    assert one_line("a ##vso[task.setvariable variable=x]y") == "a #\\x23vso[task.setvariable variable=x]y"
    assert one_line("###vso[##[") == "##\\x23vso[#\\x23["
    assert one_line("##VSO[ and # #vso[") == "##VSO[ and # #vso["
    for hostile in (EVIL, EVIL_FILE, "::x", " ::x", "##[##[", "##vso[##vso[", "###vso["):
        assert one_line(one_line(hostile)) == one_line(hostile)  # its own escape
        assert_clean(one_line(hostile))


@pytest.mark.parametrize(
    "args",
    [
        ["--scores", "--statistics"],
        ["--explain", EVIL],
        ["--output-format", "markdown"],
        ["--output-format", "github"],
        ["--gate", f'tool["{EVIL_INLINE}"].score>=0.9'],
        ["--output-format", "azure"],
        ["--output-format", "json-lines"],
        ["--output-format", "concise"],
        ["--output-format", "full"],
    ],
    ids=["text-scores", "text-explain", "markdown", "github", "gate-on-tool", "azure", "json-lines", "concise", "full"],
)
def test_lint_hostile_file_and_tool_names(cli, tmp_path: Path, args: list[str]) -> None:
    write_catalog(tmp_path / EVIL_FILE, [evil_tool(), evil_tool(EVIL_INLINE), OK_TOOL])
    write_catalog(tmp_path / "ok.tools.json", [OK_TOOL])
    write(tmp_path / "::error::broken.tools.json", "{")  # unreadable: its error line names it, on stderr
    result = cli("lint", ".", *args)
    assert result.exit_code in (1, 2), result.output
    assert "pwned" in result.stdout  # the name is shown, escaped
    assert_clean(result.stdout, github="github" in args, azure="azure" in args)
    assert_clean(result.stderr)


def test_lint_stdin_filename_and_a_finding_line_that_starts_with_the_file(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "ok.tools.json", [OK_TOOL])
    catalog = json.dumps({"tools": [evil_tool()]})
    result = cli("lint", "--stdin-filename", "::error::" + EVIL_FILE, "-", "ok.tools.json", input=catalog)
    assert result.exit_code == 1
    assert "\\x3a:error::a\\n::error file=x::pwned\\x1b[31m\\x1b]0;t\\x07\\u202e" in result.stdout
    assert_result_clean(result)


def test_lint_empty_directory_notice(cli, tmp_path: Path) -> None:
    (tmp_path / "d\n::warning::dirinj\x1b[0m").mkdir()
    for fmt in ("text", "markdown", "github"):
        result = cli("lint", "--output-format", fmt, "d\n::warning::dirinj\x1b[0m")
        assert "dirinj" in result.output
        assert_result_clean(result, github=fmt == "github")


def test_lint_sarif_and_json_messages_hold_no_raw_control(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / EVIL_FILE, [evil_tool()])
    sarif = json.loads(cli("lint", "--output-format", "sarif", EVIL_FILE).stdout)
    texts = [r["message"]["text"] for r in sarif["runs"][0]["results"]]
    assert texts
    for text in texts:  # what GitHub code scanning shows: as written, on one line
        assert_clean(text)
    report = cli("lint", "--output-format", "json", EVIL_FILE).stdout
    assert re.search("[\x00-\x1f]", report.replace("\n", "")) is None  # JSON escapes C0; the name is kept as it is
    assert json.loads(report)["files"][0]["file"] == EVIL_FILE


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_diff_hostile_names(cli, tmp_path: Path, fmt: str) -> None:
    write_catalog(tmp_path / EVIL_FILE, [evil_tool(), evil_tool("old" + EVIL)])
    write_catalog(tmp_path / "ok.tools.json", [{**evil_tool(), "description": "Reads a thing, now \x1b[2J."}, OK_TOOL])
    result = cli("diff", "--output-format", fmt, EVIL_FILE, "ok.tools.json")
    assert result.exit_code == 0, result.output
    assert "pwned" in result.stdout
    assert_result_clean(result)


def test_diff_error_line_names_a_hostile_file(cli, tmp_path: Path) -> None:
    write(tmp_path / EVIL_FILE, "{")
    write_catalog(tmp_path / "ok.tools.json", [OK_TOOL])
    result = cli("diff", EVIL_FILE, "ok.tools.json")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1
    assert_result_clean(result)


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_check_hostile_suite_and_catalog(cli, tmp_path: Path, fmt: str) -> None:
    write_catalog(tmp_path / EVIL_FILE, [evil_tool()])
    suite = {
        "tool_quality": [
            {"name": f"quality {EVIL}", "catalog": EVIL_FILE},
            {"name": f"missing {EVIL}", "catalog": "::error::nothere.json"},
        ],
        f"extra {EVIL}": {},  # skipped with a notice
    }
    write(tmp_path / "suite.yml", json.dumps(suite))
    result = cli("check", "--output-format", fmt, "suite.yml")
    assert result.exit_code == 2, result.output
    assert "quality" in result.stdout
    assert_result_clean(result)


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_trace_score_hostile_call_names(cli, tmp_path: Path, fmt: str) -> None:
    calls = [{"name": f"x{EVIL}", "server": "s"}, {"name": "::error::bare", "server": "::warning::srv"}]
    write(tmp_path / "trace.json", json.dumps({"tool_calls": calls}))
    result = cli("trace", "score", "--output-format", fmt, "trace.json", "--class", "c=s.x")
    assert result.exit_code in (0, 1), result.output
    assert "bare" in result.stdout
    assert_result_clean(result)


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_bench_run_hostile_spec_path_and_names(cli, tmp_path: Path, fmt: str) -> None:
    name = f"a{EVIL}"
    spec = {
        "name": f"bench {EVIL}",
        "catalog": [evil_tool(name), {"name": "b", "description": "Writes a thing", "inputSchema": {"type": "object"}}],
        "intents": [{"query": f"read {EVIL}", "gold": [name]}, {"query": "write a thing", "gold": ["b"]}],
        "mutations": [
            {"tool": name, "kind": "drop_keyword", "word": "zzz"},  # changes nothing: a notice on stderr
            {"tool": name, "kind": "blank"},
        ],
    }
    spec_file = "s\n::error::specinj\x1b[0m.json"
    write(tmp_path / spec_file, json.dumps(spec))
    result = cli("bench", "run", "--output-format", fmt, spec_file)
    assert result.exit_code == 0, result.output
    assert "changes nothing" in result.stderr
    assert_result_clean(result)
    spec["name"] = ""  # the report is then titled by the spec's path
    write(tmp_path / spec_file, json.dumps(spec))
    result = cli("bench", "run", "--output-format", fmt, spec_file)
    assert "specinj" in result.stdout
    assert_result_clean(result)


def test_trace_distract_stderr_names_the_output(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "ok.tools.json", [OK_TOOL])
    result = cli("trace", "distract", "ok.tools.json", "--count", "2", "-o", "::error::" + EVIL_FILE)
    assert result.exit_code == 0, result.output
    assert_result_clean(result)


def _git_repo(tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [OK_TOOL])
    commit = ["-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "x"]
    for args in (["init", "-q", "."], ["add", "."], commit):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)


@pytest.mark.parametrize(
    "args",
    [
        ["diff", "--", "--batch-check=%(objectname):tools.json", "tools.json"],
        ["diff", "--", "--output=x:tools.json", "tools.json"],
        ["lint", "--baseline", "--output=x:tools.json", "tools.json"],
        ["lint", "--baseline-rev", "--output=x", "tools.json"],
    ],
    ids=["diff-batch-check", "diff-output", "baseline", "baseline-rev"],
)
def test_a_revision_that_looks_like_an_option_is_refused(cli, tmp_path: Path, args: list[str]) -> None:
    _git_repo(tmp_path)
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1
    assert "is not a git revision: a revision cannot begin with '-'" in result.stderr
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_full_shows_hostile_catalog_source_escaped(cli, tmp_path: Path, suffix: str) -> None:
    """The full format prints catalog lines as they are written: raw bidirectional controls and separators (JSON
    and YAML allow them in strings), '::error::', '##vso[' and '##['."""
    hostile = "::error::pwned ##vso[task.setvariable variable=v]1 ##[warning]w \u202e end"
    tool = {"name": "x", "description": hostile + " \u2028 \x85", "inputSchema": {"type": "object"}}
    if suffix == ".json":
        text = json.dumps({"tools": [tool]}, ensure_ascii=False, indent=2)
    else:  # U+2028 and U+0085 would end a YAML line
        text = f"tools:\n  - name: x\n    description: '{hostile}'\n    inputSchema: {{type: object}}\n"
    write(tmp_path / f"c{suffix}", text)
    result = cli("lint", "--output-format", "full", "--select", "DESC", f"c{suffix}")
    assert result.exit_code in (0, 1), result.output
    assert "pwned #\\x23vso[task" in result.stdout and "\\u202e" in result.stdout  # the source line, escaped
    assert_result_clean(result)
