"""Hostile input to `trace score` and `check`, third round (the red-team report on the trace commands).

The contract is that of test_hostile: on any input a command works or prints one stderr line naming
the file (line:col where known) and exits 2; never a traceback or an "internal error", never a hang.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import write
from test_hostile import catalint, no_crash, one_error

SUITE = "servers:\n  s: {catalog: cat.json}\nagents:\n  - name: a\n    servers: [s]\n    orchestration: {}\n"


# --------------------------------------------------------------------------------------
# A called tool whose `$schema` names no dialect catalint knows: its arguments are not checked,
# as SCH-006 checks nothing against it (it was a KeyError).
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("declared", ["https://json-schema.org/draft-07/schema", "", 5])
def test_a_called_tool_of_an_unknown_dialect_is_not_checked(cli, tmp_path: Path, declared: object) -> None:
    tool = {"name": "get_x", "description": "Get the x.", "inputSchema": {"$schema": declared, "type": "object"}}
    write(tmp_path / "cat.json", json.dumps({"tools": [tool]}))
    write(tmp_path / "runs" / "a.json", json.dumps({"tool_calls": [{"name": "get_x", "args": {}}]}))
    write(tmp_path / "suite.yml", SUITE)
    score = cli("trace", "score", "--catalog", "s=cat.json", "runs/a.json")
    for result in (score, cli("check", "suite.yml", "--traces", "runs")):
        no_crash(result)
        assert result.exit_code == 0, result.output
        assert "s.get_x: the tool's inputSchema cannot be used to check arguments: $schema " in result.stdout


# --------------------------------------------------------------------------------------
# Near-duplicate distractors of a tool nested hundreds of levels deep: one placed error line, as
# `trace distract` gives (it was a RecursionError from copy.deepcopy).
# --------------------------------------------------------------------------------------

DISTRACTORS = "distractors:\n  count: 1\n  source: {from: near_duplicate, of: [OF]}\n  correct: [s.web_search]\n"


def deep_search_catalog(depth: int) -> str:
    default = "[" * depth + "]" * depth
    return (
        '{"tools": [{"name": "web_search", "description": "Search the web for pages. Returns results.", '
        '"inputSchema": {"type": "object", "properties": {"q": {"type": "string", "default": ' + default + "}}}}]}"
    )


def distractor_case(tmp_path: Path, depth: int, of: str = "web_search") -> None:
    write(tmp_path / "cat.json", deep_search_catalog(depth))
    write(tmp_path / "spec.yml", DISTRACTORS.replace("OF", of))
    entry = "".join("    " + line + "\n" for line in DISTRACTORS.replace("OF", of).splitlines())
    head = "servers:\n  s: {catalog: cat.json}\nagents:\n  - name: a\n    servers: [s]\n"
    write(tmp_path / "suite.yml", head + entry)
    write(tmp_path / "runs" / "a.json", json.dumps({"tool_calls": [{"name": "web_search", "args": {"q": "x"}}]}))


def test_near_duplicates_of_a_deeply_nested_tool_are_one_placed_error(cli, tmp_path: Path) -> None:
    distractor_case(tmp_path, 500)
    tail = "distractors: a tool is nested too deeply to copy"
    score = cli("trace", "score", "--spec", "spec.yml", "--catalog", "s=cat.json", "runs/a.json")
    line = one_error(score, "spec.yml:3:")
    assert f"scenario 'spec': {tail} (at /distractors/source/of)" in line
    line = one_error(cli("check", "suite.yml", "--traces", "runs"), "suite.yml:8:")
    assert f"scenario 'a': {tail} (at /agents/0/distractors/source/of)" in line


def test_near_duplicates_of_a_shallow_tool_are_scored(cli, tmp_path: Path) -> None:
    distractor_case(tmp_path, 20)
    result = cli("check", "suite.yml", "--traces", "runs")
    no_crash(result)
    assert result.exit_code == 0 and "distractor" in result.stdout


def test_a_distractor_request_that_cannot_be_met_is_placed_in_the_suite(cli, tmp_path: Path) -> None:
    distractor_case(tmp_path, 1, of="nope")
    line = one_error(cli("check", "suite.yml", "--traces", "runs"), "suite.yml:7:7:")
    assert "scenario 'a': distractors: unknown tool 'nope'; known tools: web_search (at /agents/0/distractors)" in line


# --------------------------------------------------------------------------------------
# FIFOs named in a suite or found in --traces: never opened (reading one waits for a writer forever).
# Run as a process with a timeout, so that a regression fails instead of hanging the suite.
# --------------------------------------------------------------------------------------

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this platform")
RUN = json.dumps({"tool_calls": [{"name": "get_x", "args": {}}]})


@needs_fifo
@pytest.mark.parametrize(
    ("text", "place", "pointer"),
    [
        (
            "servers:\n  s: {catalog: fifo.json}\ntool_quality:\n  - {name: a, server: s}\n",
            "2:16",
            "/servers/s/catalog",
        ),
        ("tool_quality:\n  - {name: a, catalog: fifo.json}\n", "2:24", "/tool_quality/0/catalog"),
    ],
)
def test_a_fifo_named_as_a_suite_catalog_is_refused_at_its_key(
    tmp_path: Path, text: str, place: str, pointer: str
) -> None:
    os.mkfifo(tmp_path / "fifo.json")
    write(tmp_path / "suite.yml", text)
    done = catalint("check", "suite.yml", cwd=tmp_path, timeout=30)
    line = one_error(done, f"suite.yml:{place}: error: catalog 'fifo.json': a named pipe (FIFO), not a regular file")
    assert line.endswith(f"(fifo.json) (at {pointer})")


def test_a_suite_catalog_that_is_a_regular_file_or_missing_is_read_as_before(cli, tmp_path: Path) -> None:
    write(tmp_path / "cat.json", json.dumps({"tools": [{"name": "get_x", "description": "Get the x. Returns it."}]}))
    write(tmp_path / "suite.yml", "tool_quality:\n  - {name: a, catalog: cat.json}\n  - {name: b, catalog: no.json}\n")
    result = cli("check", "suite.yml")
    no_crash(result)
    assert result.exit_code == 2 and "tool_quality [FAIL] b: no.json: error: No such file" in result.stdout


@needs_fifo
def test_a_fifo_found_as_a_scenario_trace_is_one_error(tmp_path: Path) -> None:
    write(tmp_path / "suite.yml", "agents:\n  - name: a\n    orchestration: {}\n")
    (tmp_path / "runs").mkdir()
    os.mkfifo(tmp_path / "runs" / "a.jsonl")
    done = catalint("check", "suite.yml", "--traces", "runs", cwd=tmp_path, timeout=30)
    one_error(
        done, "runs/a.jsonl: error: a named pipe (FIFO), not a regular file, so scenario 'a' has no recorded runs"
    )
    write(tmp_path / "runs" / "a.json", RUN)  # beside a readable trace of the scenario: skipped, with a notice
    done = catalint("check", "suite.yml", "--traces", "runs", cwd=tmp_path, timeout=30)
    no_crash(done)
    assert done.code == 0 and "1 run from runs/a.json" in done.stdout
    assert done.stderr == "runs/a.jsonl: notice: skipped: a named pipe (FIFO), not a regular file\n"


@needs_fifo
def test_a_fifo_in_a_trace_folder_is_skipped_with_a_notice(tmp_path: Path) -> None:
    (tmp_path / "runs" / "a").mkdir(parents=True)
    os.mkfifo(tmp_path / "runs" / "a" / "p.jsonl")
    done = catalint("trace", "score", "runs/a", cwd=tmp_path, timeout=30)
    one_error(done, "runs/a: error: no trace files (*.json, *.jsonl, *.ndjson, *.yaml, *.yml) in this folder; ")
    assert done.stderr.rstrip().endswith("runs/a/p.jsonl is a named pipe (FIFO), not a regular file")
    write(tmp_path / "runs" / "a" / "x.json", RUN)
    write(tmp_path / "suite.yml", "agents:\n  - name: a\n    orchestration: {}\n")
    for args in (["trace", "score", "runs/a"], ["check", "suite.yml", "--traces", "runs"]):
        done = catalint(*args, cwd=tmp_path, timeout=30)
        no_crash(done)
        assert done.code == 0 and "1 run from runs/a/x.json" in done.stdout, done.stderr
        assert done.stderr == "runs/a/p.jsonl: notice: skipped: a named pipe (FIFO), not a regular file\n"


# --------------------------------------------------------------------------------------
# A --gate with no bound said "'=' is not a number" (read as `f1 > "="`).
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("op", [">=", "<=", ">", "<", "==", "!="])
def test_a_trace_gate_without_a_bound_says_so(cli, tmp_path: Path, op: str) -> None:
    write(tmp_path / "run.json", RUN)
    line = one_error(cli("trace", "score", "--gate", f"tool_selection.f1{op}", "run.json"), "error: --gate: ")
    said = f"the bound is missing after {op!r} in 'tool_selection.f1{op}' (such as 'tool_selection.f1>=80')"
    assert line == f"error: --gate: {said}"
