"""Hostile input, third round: paths with a NUL byte, names and queries of a megabyte in report
tables, and outputs that would be left half-done or written over the run's own inputs.

The contract is that of test_hostile: one stderr line naming the file (line:col where known) and
exit 2, never a traceback or an "internal error"; output linear in the input; a failed run leaves
no new output file and clobbers none.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from catalint.cli import OUTPUT_FORMATS
from conftest import ROOT, write
from test_hostile import catalog, no_crash, one_error

WEATHER = {
    "name": "weather_now",
    "description": "Get the current weather for a city. Returns temperature and humidity as JSON.",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}

# --------------------------------------------------------------------------------------
# A NUL byte in a path read from a suite or a bench spec: Python's open() and os.stat() raise
# ValueError for it, which came out as an internal error.
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "suite",
    [
        {"tool_quality": [{"name": "a", "catalog": "x\u0000.json"}]},
        {"servers": {"s": {"catalog": "x\u0000.json"}}, "tool_quality": [{"name": "a", "server": "s"}]},
    ],
)
def test_a_nul_byte_in_a_suites_catalog_path(cli, tmp_path: Path, suite: dict[str, object]) -> None:
    write(tmp_path / "suite.json", json.dumps(suite))
    one_error(cli("check", "suite.json"), "x\\x00.json: error: a file name cannot hold a NUL byte")
    # a lone surrogate, which JSON can write and no file name can: UnicodeEncodeError, an internal error. In a
    # process of its own, whose standard streams catalint sets to backslashreplace (the runner's are strict).
    write(tmp_path / "suite.json", json.dumps(suite).replace("\\u0000", "\\udfff"))
    done = subprocess.run(
        [sys.executable, "-m", "catalint", "check", "suite.json"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        "x\\udfff.json: error: a file name cannot hold the character U+DFFF (a lone surrogate)"
    ]


YAML_SPEC = 'catalog_path: "x\\0.json"\nintents: [{query: q, gold: [t]}]\n'


@pytest.mark.parametrize("name", ["spec.json", "spec.yaml"])
def test_a_nul_byte_in_a_bench_specs_catalog_path(cli, tmp_path: Path, name: str) -> None:
    spec = {"catalog_path": "x\u0000.json", "intents": [{"query": "q", "gold": ["t"]}]}
    write(tmp_path / name, json.dumps(spec) if name.endswith("json") else YAML_SPEC)
    line = one_error(cli("bench", "run", name), f"{name}:1:")
    assert "catalog_path 'x\\x00.json': a file name cannot hold a NUL byte" in line
    assert "(at /catalog_path)" in line
    if name.endswith("json"):
        write(tmp_path / name, json.dumps(spec).replace("\\u0000", "\\udfff"))
        line = one_error(cli("bench", "run", name), f"{name}:1:")
        assert "catalog_path 'x\\udfff.json': a file name cannot hold the character U+DFFF" in line


def test_a_bench_specs_catalog_path_near_miss_runs(cli, tmp_path: Path) -> None:
    write(tmp_path / "x0.json", catalog(WEATHER))
    spec = {"catalog_path": "x0.json", "intents": [{"query": "weather in Paris", "gold": ["weather_now"]}]}
    write(tmp_path / "spec.json", json.dumps(spec))
    result = cli("bench", "run", "spec.json")
    no_crash(result)
    assert result.exit_code == 0 and "baseline: 1/1 correct" in result.stdout


# --------------------------------------------------------------------------------------
# Text tables padded every row to the longest name: one name of a megabyte in 5,000 rows
# was 5 GB. A long name is clipped in the table (it stays whole in findings and JSON).
# --------------------------------------------------------------------------------------


def tool(name: str) -> dict[str, object]:
    return {**WEATHER, "name": name}


def test_a_long_tool_name_does_not_widen_the_score_table(cli, tmp_path: Path) -> None:
    long = "x" * 20_000
    write(tmp_path / "tools.json", catalog(tool(long), *(tool(f"t{i}") for i in range(200))))
    result = cli("lint", "--scores", "--no-gate", "tools.json")
    no_crash(result)
    lines = result.stdout.splitlines()
    table = lines[lines.index("tools.json:") + 1 : -1]  # the summary line ends the report
    assert table and all(len(line) < 200 for line in table), max(map(len, table))  # before: 20,000 each
    assert table[1].startswith("  " + "x" * 59 + "…  ")
    assert table[2].startswith("  t0" + " " * 59)  # padded to the clipped width: columns still line up


def test_a_name_of_sixty_characters_is_shown_whole(cli, tmp_path: Path) -> None:
    name = "n" * 60
    write(tmp_path / "tools.json", catalog(tool(name), tool("t")))
    result = cli("lint", "--scores", "--no-gate", "tools.json")
    no_crash(result)
    assert f"\n  {name}  " in result.stdout and "…" not in result.stdout


def test_a_long_mutation_label_does_not_widen_the_bench_table(cli, tmp_path: Path) -> None:
    word = "w" * 20_000
    mutations = [{"tool": "weather_now", "kind": "drop_keyword", "word": word}]
    mutations += [{"tool": "weather_now", "kind": "blank"}] * 100
    spec = {"catalog": [WEATHER], "intents": [{"query": "humidity", "gold": ["weather_now"]}], "mutations": mutations}
    write(tmp_path / "spec.json", json.dumps(spec))
    result = cli("bench", "run", "spec.json")
    no_crash(result)
    assert result.exit_code == 0
    rows = [line for line in result.stdout.splitlines() if line.startswith("  weather_now ")]
    assert len(rows) == 101 and all(len(line) < 300 for line in rows), max(map(len, rows))
    assert rows[0].startswith("  weather_now drop_keyword 'www") and "…  accuracy" in rows[0]
    assert rows[1].startswith("  weather_now blank" + " " * 43 + "  accuracy")


# --------------------------------------------------------------------------------------
# Bench reports repeated each flipped query in full once per mutation: a 1 MB query flipped by
# 3,000 mutations was 3 GB. Flip lists cut the query; JSON names the intent by index too.
# --------------------------------------------------------------------------------------

LONG_QUERY = "humidity wind city " * 1000  # 19,000 characters


def flip_spec(tmp_path: Path, count: int) -> None:
    spec = {
        "catalog": [WEATHER],
        "intents": [{"query": LONG_QUERY, "gold": ["weather_now"]}],
        "mutations": [{"tool": "weather_now", "kind": "blank"}] * count,
    }
    write(tmp_path / "spec.json", json.dumps(spec))


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_a_long_query_flipped_by_many_mutations_is_cut_in_the_flip_lists(cli, tmp_path: Path, fmt: str) -> None:
    flip_spec(tmp_path, 100)
    result = cli("bench", "run", "spec.json", "--output-format", fmt)
    no_crash(result)
    assert result.exit_code == 0
    assert len(result.stdout) < 120_000, len(result.stdout)  # before: 100 copies of the query, 1.9 MB
    cut = LONG_QUERY[:99] + "…"
    if fmt == "json":
        report = json.loads(result.stdout)
        assert report["baseline"]["picks"][0]["query"] == LONG_QUERY  # whole, once
        flips = [f for m in report["mutations"] for f in m["flips"]]
        assert len(flips) == 100
        assert all(f["intent"] == 0 and f["query"] == cut for f in flips)
    else:
        assert result.stdout.count(repr(cut)) == 100


def test_a_short_flipped_query_is_whole_in_json(cli, tmp_path: Path) -> None:
    spec = {
        "catalog": [WEATHER],
        "intents": [{"query": "temperature", "gold": ["weather_now"]}, {"query": "humidity", "gold": ["weather_now"]}],
        "mutations": [{"tool": "weather_now", "kind": "blank"}],
    }
    write(tmp_path / "spec.json", json.dumps(spec))
    result = cli("bench", "run", "spec.json", "--output-format", "json")
    (mutation,) = json.loads(result.stdout)["mutations"]
    assert [(f["intent"], f["query"]) for f in mutation["flips"]] == [(0, "temperature"), (1, "humidity")]


def test_the_bench_markdown_report_is_cut_as_a_job_summary(cli, tmp_path: Path, monkeypatch) -> None:
    from catalint.formatters import markdown

    monkeypatch.setattr(markdown, "MAX_BYTES", 4000)  # as 1 MiB, without writing one
    flip_spec(tmp_path, 100)
    out = cli("bench", "run", "spec.json", "--output-format", "markdown").stdout
    assert len(out.encode()) <= 4000
    assert out.endswith("stay under 1 MiB; run `catalint bench run` for all of it.\n")
    assert out.count("<details>") == out.count("</details>")


# --------------------------------------------------------------------------------------
# --report targets: checked before any work as -o is, and written all or none: a run that fails
# to write one of its outputs leaves no new file and every old one as it was.
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "problem"),
    [
        ("tools.json/missing/x.sarif", "Not a directory"),
        ("out", "Is a directory"),
        ("tools.json/x", "Not a directory"),
    ],
)
def test_a_report_target_that_cannot_be_written_is_refused_before_linting(
    cli, tmp_path: Path, target: str, problem: str
) -> None:
    write(tmp_path / "tools.json", catalog(WEATHER))
    (tmp_path / "out").mkdir()
    result = cli("lint", "--report", "json:out/a.json", "--report", f"sarif:{target}", "tools.json")
    one_error(result, f"{target}: error: cannot write report: {problem}")
    assert result.stdout == "" and list((tmp_path / "out").iterdir()) == []  # before: out/a.json was left


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("option", ["--report", "-o"])
def test_a_failed_write_leaves_no_new_report_and_keeps_the_old_one(cli, tmp_path: Path, option: str) -> None:
    write(tmp_path / "tools.json", catalog(WEATHER))
    full = "sarif:/dev/full" if option == "--report" else "/dev/full"
    result = cli("lint", "--report", "json:a.json", option, full, "tools.json")
    one_error(result, "/dev/full: error: cannot write report: No space left on device")
    assert not (tmp_path / "a.json").exists()
    write(tmp_path / "a.json", "old")
    one_error(cli("lint", "--report", "json:a.json", option, full, "tools.json"), "/dev/full: error:")
    assert (tmp_path / "a.json").read_text() == "old"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


def test_every_report_of_a_run_is_written(cli, tmp_path: Path) -> None:
    write(tmp_path / "tools.json", catalog(WEATHER))
    result = cli("lint", "--report", "json:a.json", "--report", "sarif:b.sarif", "-o", "c.txt", "tools.json")
    no_crash(result)
    assert result.exit_code in (0, 1) and result.stdout == ""
    assert json.loads((tmp_path / "a.json").read_text())["files"][0]["file"] == "tools.json"
    assert json.loads((tmp_path / "b.sarif").read_text())["version"] == "2.1.0"
    assert "tools.json" in (tmp_path / "c.txt").read_text()


# --------------------------------------------------------------------------------------
# Outputs that would replace each other or the run's own inputs: one usage error line, exit 2,
# before any work, and every file as it was (lint already refused to write over a linted catalog).
# --------------------------------------------------------------------------------------

RUN = {"tool_calls": [{"name": "weather_now", "args": {"city": "Paris"}}], "conversation": {"tokens": {"total": 10}}}


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    write(tmp_path / "w.json", catalog(WEATHER))
    write(tmp_path / "w2.json", catalog(WEATHER, {**WEATHER, "name": "weather_later"}))
    write(tmp_path / "spec.yaml", "catalog_path: w.json\nintents:\n  - {query: humidity, gold: [weather_now]}\n")
    write(tmp_path / "suite.yml", "tool_quality:\n  - {name: a, catalog: w.json}\n")
    write(tmp_path / "runs.jsonl", json.dumps(RUN) + "\n")
    write(tmp_path / "scenario.yml", "tool_selection:\n  expected_tool: weather_now\n  min_selection_rate: 1\n")
    write(tmp_path / "catalint.toml", 'select = ["DESC"]\n')
    return tmp_path


def _unchanged(directory: Path, run: object) -> None:
    before = {p.name: p.read_bytes() for p in directory.iterdir()}
    run()
    assert {p.name: p.read_bytes() for p in directory.iterdir()} == before


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["lint", "-o", "r.json", "--report", "sarif:r.json", "w.json"], "--report sarif:r.json: writes the same"),
        (["lint", "--report", "json:r.json", "--report", "sarif:./r.json", "w.json"], "--report sarif:./r.json: "),
        (["lint", "--config", "catalint.toml", "-o", "catalint.toml", "w.json"], "catalint.toml: is a config file"),
        (["lint", "-o", "catalint.toml", "w.json"], "catalint.toml: is a config file of this run"),  # found, not given
        (["diff", "w.json", "w2.json", "-o", "w2.json"], "w2.json: is an input of this run"),
        (["diff", "w.json", "w2.json", "-o", "./w.json"], "./w.json: is an input of this run"),
        (["bench", "run", "spec.yaml", "-o", "spec.yaml"], "spec.yaml: is the bench spec"),
        (["bench", "run", "spec.yaml", "-o", "w.json"], "w.json: is the spec's catalog"),
        (["check", "suite.yml", "-o", "suite.yml"], "suite.yml: is the suite"),
        (["check", "suite.yml", "-o", "w.json"], "w.json: is a catalog the suite reads"),
        (["trace", "score", "runs.jsonl", "-o", "runs.jsonl"], "runs.jsonl: is an input of this run"),
        (["trace", "score", "runs.jsonl", "--spec", "scenario.yml", "-o", "scenario.yml"], "scenario.yml: is an"),
        (["trace", "score", "runs.jsonl", "--catalog", "s=w.json", "-o", "w.json"], "w.json: is an input"),
        (["trace", "score", "runs.jsonl", "--catalog", "w.json", "-o", "w.json"], "w.json: is an input"),  # PATH alone
        (["check", "suite.yml", "--catalog", "w2.json", "-o", "w2.json"], "w2.json: is a catalog the suite reads"),
    ],
)
def test_an_output_over_another_output_or_an_input_is_refused(cli, inputs: Path, args: list[str], line: str) -> None:
    _unchanged(inputs, lambda: one_error(cli(*args), f"error: {line}"))


def test_an_output_hard_linked_to_an_input_is_refused(cli, inputs: Path) -> None:
    (inputs / "same.json").hardlink_to(inputs / "w.json")
    _unchanged(inputs, lambda: one_error(cli("diff", "w.json", "w2.json", "-o", "same.json"), "error: same.json: is"))


@pytest.mark.parametrize(
    "args",
    [
        ["lint", "-o", "/dev/null", "--report", "json:/dev/null", "w.json"],  # a device is written to, not replaced
        ["diff", "w.json", "w2.json", "-o", "out.txt"],
        ["bench", "run", "spec.yaml", "-o", "out.txt"],
        ["check", "suite.yml", "-o", "out.txt"],
        ["trace", "score", "runs.jsonl", "--spec", "scenario.yml", "-o", "out.txt"],
    ],
)
def test_outputs_of_their_own_near_miss(cli, inputs: Path, args: list[str]) -> None:
    result = cli(*args)
    no_crash(result)
    assert result.exit_code in (0, 1), result.stderr
    assert args[-2] != "-o" or (inputs / "out.txt").stat().st_size > 0


# --------------------------------------------------------------------------------------
# --baseline-rev with standard input applied no baseline, silently. As ruff's, --stdin-filename
# makes standard input that file: its version at the revision is the baseline.
# --------------------------------------------------------------------------------------

LOOSE = {**WEATHER, "name": "get_date", "inputSchema": {"type": "object"}}  # SCH-002
NAMED = {"NAME": "Test", "EMAIL": "test@example.com"}


@pytest.fixture
def committed(tmp_path: Path) -> Path:
    """A git repository with tools.json committed as [WEATHER, LOOSE]."""
    import subprocess

    write(tmp_path / "tools.json", catalog(WEATHER, LOOSE))
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "first"]):
        env = {
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@x",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@x",
        }
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True, env={**os.environ, **env})
    return tmp_path


def _codes(result: object) -> list[tuple[str, str]]:
    assert result.exit_code in (0, 1), result.stderr  # type: ignore[attr-defined]
    return [(f["code"], f["tool"]) for f in json.loads(result.stdout)["findings"]]  # type: ignore[attr-defined]


def test_baseline_rev_with_stdin_filename_uses_that_file_at_the_revision(cli, committed: Path) -> None:
    text = (committed / "tools.json").read_text()
    args = ["lint", "--no-gate", "--output-format", "json", "--stdin-filename", "tools.json"]
    assert ("SCH-002", "get_date") in _codes(cli(*args, input=text))
    args += ["--baseline-rev", "HEAD"]
    assert _codes(cli(*args, input=text)) == []  # before: every finding, the baseline silently skipped
    new = catalog(WEATHER, LOOSE, {**LOOSE, "name": "get_time"})
    found = _codes(cli(*args, input=new))
    assert ("SCH-002", "get_time") in found and {t for _, t in found} == {"get_time"}  # only the new tool's


def test_baseline_rev_with_unnamed_stdin_is_refused(cli, committed: Path) -> None:
    text = (committed / "tools.json").read_text()
    result = cli("lint", "--baseline-rev", "HEAD", "-", input=text)
    one_error(result, "error: --baseline-rev: standard input has no version at a revision: name its file with")


def test_baseline_rev_with_a_server_is_refused_before_it_starts(cli, committed: Path) -> None:
    result = cli("lint", "--baseline-rev", "HEAD", "--url", "http://127.0.0.1:9/mcp")
    one_error(result, "error: --baseline-rev compares files with their version at a revision; a server has none")


# --------------------------------------------------------------------------------------
# Config errors that named no line: a key written as a basic string with escapes, a catalint
# table that is no table, and settings inside an inline catalint table.
# --------------------------------------------------------------------------------------

MATCHER = 'gate.tool["x"].score: a matcher is'


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        ("catalint.toml", '[gate]\n"tool[\\"x\\"].score" = 1\n', f"catalint.toml:2:23: {MATCHER}"),
        ("catalint.toml", "[gate]\n'tool[\"x\"].score' = 1\n", f"catalint.toml:2:21: {MATCHER}"),  # near miss
        ("catalint.toml", 'gate = { "tool[\\"x\\"].score" = 1 }\n', f"catalint.toml:1:32: {MATCHER}"),
        ("pyproject.toml", '[tool.catalint.gate]\n"tool[\\"x\\"].score" = 1\n', f"pyproject.toml:2:23: {MATCHER}"),
        ("pyproject.toml", '# c\ntool.catalint = "x"\n', "pyproject.toml:2:17: [tool.catalint] must be a table"),
        ("pyproject.toml", "[tool]\ncatalint = 5\n", "pyproject.toml:2:12: [tool.catalint] must be a table"),
        ("pyproject.toml", "tool = {catalint = 5}\n", "pyproject.toml:1:20: [tool.catalint] must be a table"),
        ("pyproject.toml", "[tool]\ncatalint = { select = 5 }\n", "pyproject.toml:2:23: select must be a list"),
        ("pyproject.toml", "tool = { catalint = { select = {a = 1} } }\n", "pyproject.toml:1:32: select must be"),
        ("pyproject.toml", "[tool.catalint]\nselect = { a = 1 }\n", "pyproject.toml:2:10: select must be"),  # near miss
    ],
)
def test_a_config_error_is_placed_at_its_line(cli, tmp_path: Path, name: str, text: str, where: str) -> None:
    write(tmp_path / "tools.json", catalog(WEATHER))
    write(tmp_path / name, text)
    one_error(cli("lint", "tools.json"), f"error: {where}")


def test_an_output_over_a_trace_below_a_traces_folder_is_refused(cli, inputs: Path) -> None:
    (inputs / "runs").mkdir()
    (inputs / "runs.jsonl").rename(inputs / "runs" / "a.jsonl")
    _unchanged(
        inputs / "runs",
        lambda: one_error(cli("trace", "score", "runs", "-o", "runs/a.jsonl"), "error: runs/a.jsonl: is a recorded"),
    )
    result = cli("trace", "score", "runs", "--spec", "scenario.yml", "-o", "runs.txt")  # near miss: beside it
    assert result.exit_code in (0, 1) and (inputs / "runs.txt").stat().st_size > 0


def test_check_refuses_an_output_over_a_recorded_trace(cli, tmp_path: Path) -> None:
    import shutil

    shutil.copytree(ROOT / "examples" / "traces", tmp_path / "traces")
    shutil.copy(ROOT / "examples" / "weather.tools.json", tmp_path)  # the suite's tool_quality catalog
    runs = tmp_path / "traces" / "runs"
    target = next(p for p in sorted(runs.iterdir()) if p.suffix == ".jsonl")
    _unchanged(
        runs,
        lambda: one_error(
            cli("check", "traces/suite.yml", "--traces", "traces/runs", "-o", f"traces/runs/{target.name}"),
            f"error: traces/runs/{target.name}: is a recorded trace",
        ),
    )


def test_dev_stdout_and_stderr_are_this_runs_streams_even_when_redirected_to_a_file(inputs: Path) -> None:
    import subprocess
    import sys

    log = inputs / "o.log"
    log.write_text("before\n")
    command = [sys.executable, "-m", "catalint", "lint", "w.json", "--exit-zero"]
    with log.open("a") as out:  # `>> o.log 2>&1`: the report is appended, the file is not replaced
        inode = log.stat().st_ino
        subprocess.run(
            [*command, "-o", "/dev/stdout", "--report", "json:/dev/stderr"],
            cwd=inputs,
            stdout=out,
            stderr=out,
            check=True,
        )
    text = log.read_text()
    assert log.stat().st_ino == inode and text.startswith("before\n")
    assert "w.json:" in text and '"catalint"' in text  # both reports, neither over the other


@pytest.mark.parametrize(
    ("path", "stream"),
    [
        ("/dev/stdout", True),
        ("/dev/stderr", True),
        ("/dev/fd/1", True),
        ("/proc/self/fd/2", True),
        ("/dev/shm/report.json", False),  # a plain file on a tmpfs: replaced atomically, compared with inputs
        ("/dev/null", False),  # a device, told by what it is (stat), not by its name
        ("out/dev/stdout", False),
    ],
)
def test_only_descriptor_names_are_streams_by_name(path: str, stream: bool) -> None:
    from catalint.cli_options import names_a_stream

    assert names_a_stream(path) is stream


# --------------------------------------------------------------------------------------
# A lone surrogate (a "\udfff" escape) in a property name whose schema has a $ref and a default:
# SCH-009 built its reference with urllib's quote, which cannot encode it, and the run ended
# in an internal error (27 fuzz hits, in JSON, YAML and stdin). A SARIF report of a file whose
# name is no UTF-8 (Linux holds its bytes as surrogates) ended the same way in quote.
# --------------------------------------------------------------------------------------

SURROGATE_JSON = (
    '{"tools": [{"name": "t", "description": "Looks up a thing and returns it.", "inputSchema": {"type": "object",'
    ' "$defs": {"s": {"type": "string"}}, "properties": {"\\udfff": {"$ref": "#/$defs/s", "default": "x"}}}}]}'
)
SURROGATE_YAML = (
    "tools:\n  - name: t\n    description: Looks up a thing and returns it.\n    inputSchema:\n"
    "      type: object\n      $defs: {s: {type: string}}\n"
    '      properties:\n        "\\udfff": {$ref: "#/$defs/s", default: x}\n'
)


@pytest.mark.parametrize("fmt", OUTPUT_FORMATS)
@pytest.mark.parametrize("name", ["t.json", "t.yaml", "-"])
def test_a_lone_surrogate_name_with_a_ref_and_a_default(cli, tmp_path: Path, name: str, fmt: str) -> None:
    text = SURROGATE_YAML if name.endswith("yaml") else SURROGATE_JSON
    if name != "-":
        write(tmp_path / name, text)
    args = ["lint", name, "--output-format", fmt, "--select", "ALL", "--tokens", "--exit-zero", "-o", "out.txt"]
    result = cli(*args, input=text if name == "-" else None)
    no_crash(result)
    assert result.exit_code == 0, result.stderr
    report = (tmp_path / "out.txt").read_text(encoding="utf-8")
    assert "SCH-009" in report
    if fmt == "text":  # said plainly, as for any schema jsonschema-rs cannot hold
        assert "cannot be checked" in report and "lone surrogate" in report and "UnicodeEncodeError" not in report


def test_a_lone_surrogate_name_in_a_ref_pointer_is_refused_in_words() -> None:
    from catalint.metaschema import compiled, value_validator

    root = json.loads(SURROGATE_JSON)["tools"][0]["inputSchema"]
    pointer = "/properties/\udfff"
    why = compiled(root["properties"]["\udfff"], "2020-12", root, pointer)
    assert isinstance(why, str) and "lone surrogate" in why
    assert value_validator(root["properties"]["\udfff"], "2020-12", root, pointer) is None
    # a name without one, beside it, is still checked
    root["properties"]["ok"] = {"$ref": "#/$defs/s", "default": 1}
    del root["properties"]["\udfff"]
    assert value_validator(root["properties"]["ok"], "2020-12", root, "/properties/ok").is_valid("x")


def test_a_sarif_report_of_a_file_name_that_is_no_utf8(tmp_path: Path) -> None:
    """Through the console script: the name reaches catalint as bytes, held as surrogates."""
    from test_hostile import catalint

    name = os.fsdecode(b"\xff.json")  # "\udcff.json"
    write(tmp_path / name, SURROGATE_JSON)
    done = catalint("lint", name, "--output-format", "sarif", "--exit-zero", "-o", "out.sarif", cwd=tmp_path)
    no_crash(done)
    assert done.code == 0, done.stderr
    sarif = json.loads((tmp_path / "out.sarif").read_text(encoding="utf-8"))
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    assert uris == {"%FF.json"}  # the file's own bytes, percent-encoded


def test_a_sarif_uri_of_ordinary_names_near_miss() -> None:
    from catalint.formatters.sarif import _uri

    assert _uri("my tools.json") == "my%20tools.json"
    assert _uri("/abs/é.json") == "file:///abs/%C3%A9.json"
    assert _uri("a\udfff.json") == "a%ED%BF%BF.json"  # a lone surrogate from a suite's catalog name
