"""Hostile input: catalint runs on pull requests from strangers, so every file it reads is untrusted.

The contract: never a traceback, never a hang, never a partly written output file. Bad input
ends in one stderr line naming the file (and line:col where known) and exit code 2, and the
other files of the same run are still linted and reported.

Where a hang or a crash of the interpreter is the risk, the real console script runs in a
subprocess under a time limit (its process group is killed when the limit passes). Cases that
showed a bug were written as catalint should behave; the bugs are fixed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from catalint.loader import MAX_FILE_BYTES, MAX_TOOLS, LoadError
from conftest import ROOT, write

SERVER_SCRIPT = ROOT / "tests" / "fixtures" / "mcp_stdio_server.py"
EXAMPLE_RUNS = ROOT / "examples" / "traces" / "runs" / "research-agent.jsonl"
EXAMPLE_SEARCH = ROOT / "examples" / "traces" / "catalogs" / "search.json"
BIG_INT = "1" + "0" * 400  # 10**400: no float holds it
EVIL = "^(a+)+$"  # catastrophic backtracking for a backtracking engine
EVIL_TEXT = "a" * 49 + "b"  # 50 characters that make EVIL backtrack

GOOD_TOOL = {"name": "get_weather", "description": "Short", "annotations": {"readOnlyHint": True}}
CLEAN_TOOL = {
    "name": "get_forecast",
    "description": "Get the weather forecast for a city. Returns JSON with the temperature in Celsius.",
    "inputSchema": {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "City name, e.g. Paris", "maxLength": 80}},
        "required": ["city"],
        "additionalProperties": False,
    },
    "annotations": {"readOnlyHint": True},
}


# --------------------------------------------------------------------------------------
# Helpers.
# --------------------------------------------------------------------------------------


@dataclass
class Done:
    code: int
    stdout: str
    stderr: str
    seconds: float


def _command() -> list[str]:
    script = Path(sys.executable).with_name("catalint")
    return [str(script)] if script.exists() else [sys.executable, "-m", "catalint"]


def _limit_file_size(limit: int) -> Any:
    def apply() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def _limit_memory(limit: int) -> Any:
    def apply() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))  # past it an allocation fails

    return apply


def catalint(
    *args: str, cwd: Path, timeout: float = 60, max_file_size: int | None = None, max_memory: int | None = None
) -> Done:
    """Run the console script; fail the test (and kill its process group) when it outlives timeout."""
    env = {k: v for k, v in os.environ.items() if k not in ("CATALINT_OUTPUT_FORMAT", "CATALINT_DEBUG")}
    start = time.monotonic()
    proc = subprocess.Popen(
        [*_command(), *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,  # forked lint workers die with it on a timeout
        preexec_fn=_limit_file_size(max_file_size)
        if max_file_size
        else _limit_memory(max_memory)
        if max_memory
        else None,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"catalint {' '.join(args)[:200]} did not finish within {timeout} s (a hang)")
    return Done(
        proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.monotonic() - start
    )


def no_crash(result: Any) -> None:
    text = result.stdout + result.stderr
    assert "Traceback" not in text, text[-3000:]
    assert "internal error" not in text, text[-3000:]
    assert "RecursionError" not in text, text[-3000:]


def code_of(result: Any) -> int:
    return result.code if isinstance(result, Done) else result.exit_code


def one_error(result: Any, prefix: str) -> str:
    """Exit 2, no crash, and exactly one stderr line, starting with prefix."""
    no_crash(result)
    assert code_of(result) == 2, (code_of(result), result.stdout[-2000:], result.stderr[-2000:])
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr[-3000:]
    assert lines[0].startswith(prefix), lines[0]
    return lines[0]


def clean_or_one_error(result: Any, name: str) -> None:
    """A clean lint (0 or 1), or exit 2 with one stderr line that names the file."""
    no_crash(result)
    code = code_of(result)
    assert code in (0, 1, 2), (code, result.stderr[-2000:])
    if code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1, result.stderr[-3000:]
        assert lines[0].startswith(name) and ": error: " in lines[0], lines[0]


def catalog(*tools: dict[str, Any]) -> str:
    return json.dumps({"tools": list(tools)}, indent=2)


def tool_with_schema(schema_text: str, name: str = "get_x") -> str:
    """A catalog (JSON text) of one tool whose inputSchema is schema_text, spliced in as written."""
    head = json.dumps({"name": name, "description": "Get the x of a thing. Returns JSON."})[:-1]
    return '{"tools": [' + head + ', "inputSchema": ' + schema_text + "}]}"


def well_formed(text: str) -> None:
    """json.loads under a raised recursion limit: deep documents are what these tests are about."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        json.loads(text)
    finally:
        sys.setrecursionlimit(limit)


def listing(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


# --------------------------------------------------------------------------------------
# 1. Schema nesting 100,000 deep, and nesting just under what the parsers accept.
# --------------------------------------------------------------------------------------

DEEP = 100_000


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("deep.json", tool_with_schema('{"type": "object", "properties": {"a": ' * DEEP + "{}" + "}}" * DEEP)),
        ("deep.yaml", "tools:\n  - name: deep\n    inputSchema: " + "{properties: {a: " * DEEP + "{}" + "}}" * DEEP),
        ("dashes.yaml", "tools:\n  - name: deep\n    inputSchema:\n      default: " + "- " * DEEP + "x\n"),
        ("not.json", tool_with_schema('{"not": ' * DEEP + "{}" + "}" * DEEP)),
    ],
    ids=["json-properties", "yaml-flow", "yaml-block-sequences", "json-not-chain"],
)
def test_schema_nested_100k_deep(tmp_path: Path, name: str, text: str) -> None:
    write(tmp_path / name, text)
    done = catalint("lint", name, cwd=tmp_path, timeout=20)
    clean_or_one_error(done, name)
    assert "Recursion" not in done.stderr


def _nest_objects(n: int) -> str:
    return '{"a": ' * n + "1" + "}" * n


def _nest_arrays(n: int) -> str:
    return "[" * n + "1" + "]" * n


# ~700 levels: under the ~990 the JSON parser accepts, over what a recursive walk of Python can.
PARSEABLE = 700


def _in_property(inner: str) -> str:
    return '{"type": "object", "properties": {"p": ' + inner + "}}"


def _chain(key: str, n: int) -> str:
    return ('{"' + key + '": ') * n + "{}" + "}" * n


@pytest.mark.parametrize(
    ("schema", "command"),
    [
        pytest.param(_in_property(_chain("not", PARSEABLE)), "lint", id="lint-not-chain"),
        pytest.param(_in_property(_chain("items", PARSEABLE)), "lint", id="lint-items-chain"),
        pytest.param(_in_property(_chain("items", PARSEABLE)), "lint-tokens", id="lint-tokens-items-chain"),
        pytest.param(
            _in_property('{"const": ' + _nest_objects(PARSEABLE) + ', "default": ' + _nest_objects(PARSEABLE) + "}"),
            "lint",
            id="lint-const-objects",
        ),
        pytest.param(
            _in_property('{"enum": [' + _nest_arrays(PARSEABLE) + ", " + _nest_arrays(PARSEABLE) + "]}"),
            "lint",
            id="lint-enum-arrays",
        ),
        pytest.param(
            _in_property(_chain("not", PARSEABLE)),
            "diff",
            id="diff-not-chain",
        ),
        pytest.param(_in_property(_chain("not", PARSEABLE)), "diff-deep-base", id="diff-deep-base"),
        pytest.param(
            _in_property('{"type": "array", "default": ' + _nest_arrays(PARSEABLE) + "}"),
            "diff",
            id="diff-default-arrays",
        ),
        pytest.param(
            _in_property(_chain("items", PARSEABLE)),
            "distract",
            id="distract-near-duplicate",
        ),
        pytest.param(_in_property(_chain("items", PARSEABLE)), "distract-catalog", id="distract-from-catalog"),
    ],
)
def test_nesting_just_under_the_parser_limit(tmp_path: Path, schema: str, command: str) -> None:
    """Deep enough for a recursive Python walk to fail, shallow enough for the JSON parser to accept."""
    write(tmp_path / "deep.json", tool_with_schema(schema))
    well_formed((tmp_path / "deep.json").read_text())  # the case is the depth, not a syntax error
    write(tmp_path / "base.json", tool_with_schema(_in_property("{}")))  # the same tool, so diff compares schemas
    args = {
        "lint": ["lint", "deep.json"],
        "lint-tokens": ["lint", "--tokens", "--select", "ALL", "deep.json"],
        "diff": ["diff", "base.json", "deep.json"],
        "diff-deep-base": ["diff", "deep.json", "base.json"],  # the error names the deep side, not always HEAD
        "distract": ["trace", "distract", "deep.json", "--count", "1", "--from", "near_duplicate", "--of", "get_x"],
        "distract-catalog": ["trace", "distract", "deep.json", "--count", "2"],
    }[command]
    done = catalint(*args, cwd=tmp_path, timeout=20)
    clean_or_one_error(done, "deep.json")


_WRAPS: dict[str, Any] = {
    "anyOf": lambda s: {"anyOf": [s]},
    "oneOf": lambda s: {"oneOf": [{"type": "string"}, s]},
    "allOf": lambda s: {"allOf": [s]},
    "not": lambda s: {"not": s},
    "items": lambda s: {"type": "array", "items": s},
    "prefixItems": lambda s: {"type": "array", "prefixItems": [s]},
    "properties": lambda s: {"type": "object", "properties": {"a": s}},
    "additionalProperties": lambda s: {"type": "object", "additionalProperties": s},
    "if": lambda s: {"if": s, "then": {"type": "string"}, "else": {"type": "string"}},
    "else": lambda s: {"if": {"type": "string"}, "then": {"type": "string"}, "else": s},
    "contains": lambda s: {"type": "array", "contains": s},
    "dependentSchemas": lambda s: {"dependentSchemas": {"a": s}},
}


@pytest.mark.parametrize("key", [*_WRAPS, "$ref-chain"])
def test_a_schema_300_deep_is_linted_by_every_rule_without_an_error(key: str) -> None:
    """The schema walk stops at depth 64 (README, Limits); no rule may need more. SCH-003 followed a chain of
    anyOf, oneOf or allOf as far as 256 schemas, four Python frames each, and failed the file past about 250."""
    from catalint.config import Settings
    from catalint.engine import lint_catalog
    from catalint.loader import load_text

    depth = 300  # two JSON levels a step: 600, well under the parser's limit
    if key == "$ref-chain":
        defs: dict[str, Any] = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(depth)}
        defs[f"d{depth}"] = {"description": "the end"}
        schema: dict[str, Any] = {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs}
    else:
        inner: dict[str, Any] = {"description": "the end"}
        for _ in range(depth):
            inner = _WRAPS[key](inner)
        schema = {"type": "object", "properties": {"x": inner}}
    tool = {"name": "deep", "description": "Get a deep value. Returns it as JSON.", "inputSchema": schema}
    catalog = load_text(json.dumps({"tools": [{**tool, "outputSchema": schema}]}), "deep.json", "deep.json")
    result = lint_catalog(catalog, Settings(select=["ALL", "CMP"]), workers=1, tokens=True)  # raises a RuleCrash
    assert result.tools[0].tool.name == "deep"


def test_rule_crash_in_one_file_still_reports_the_others(tmp_path: Path) -> None:
    deep = _nest_objects(PARSEABLE)
    write(tmp_path / "deep.json", tool_with_schema(_in_property('{"const": ' + deep + ', "default": ' + deep + "}")))
    write(tmp_path / "good.json", catalog(GOOD_TOOL))
    done = catalint("lint", "--select", "DESC-001,SCH-009", "good.json", "deep.json", cwd=tmp_path, timeout=20)
    assert "good.json:5:22: DESC-001" in done.stdout, done.stderr
    clean_or_one_error(done, "deep.json")


@pytest.mark.parametrize(
    "command",
    ["check", "spec", "bench", "compare"],
)
def test_deep_documents_in_other_inputs(tmp_path: Path, command: str) -> None:
    text = _nest_arrays(800) if command != "compare" else "[" * DEEP + "]" * DEEP
    write(tmp_path / "doc.json", text)
    shutil.copy(EXAMPLE_RUNS, tmp_path / "runs.jsonl")
    args = {
        "check": ["check", "doc.json"],
        "spec": ["trace", "score", "--spec", "doc.json", "runs.jsonl"],
        "bench": ["bench", "run", "doc.json"],
        "compare": ["trace", "score", "--class", "s=search.web_search", "--compare", "doc.json", "runs.jsonl"],
    }[command]
    done = catalint(*args, cwd=tmp_path, timeout=20)
    one_error(done, "doc.json")


# --------------------------------------------------------------------------------------
# 2. $ref cycles.
# --------------------------------------------------------------------------------------

CYCLES = [
    {"name": "direct", "description": "Direct cycle. Returns x.", "inputSchema": {"$ref": "#"}},
    {
        "name": "through_defs",
        "description": "Cycle through defs. Returns x.",
        "inputSchema": {
            "type": "object",
            "properties": {"x": {"$ref": "#/$defs/a"}},
            "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
        },
    },
    {
        "name": "self_property",
        "description": "Self-referencing property. Returns x.",
        "inputSchema": {
            "type": "object",
            "properties": {"child": {"$ref": "#"}, "name": {"type": "string", "default": 5}},
            "required": ["name"],
            "default": {"child": {"child": {"name": 1}}},
        },
    },
    {
        "name": "anchor",
        "description": "Cycle through an anchor. Returns x.",
        "inputSchema": {
            "$anchor": "top",
            "type": "object",
            "properties": {"p": {"$ref": "#top"}, "q": {"$dynamicRef": "#top"}},
            "examples": [{"p": {"p": 1}}],
        },
    },
    {
        "name": "by_id",
        "description": "Cycle through ids. Returns x.",
        "inputSchema": {
            "$id": "https://example.com/a",
            "type": "object",
            "properties": {
                "b": {"$id": "https://example.com/b", "$ref": "https://example.com/a"},
                "c": {"allOf": [{"$ref": "https://example.com/b"}], "default": 1},
            },
        },
    },
]


@pytest.mark.parametrize(
    "flags",
    [
        [],
        ["--target", "openai-strict", "--target", "anthropic", "--target", "gemini", "--target", "mcp", "--scores"],
        ["--output-format", "sarif", "--explain", "through_defs"],
    ],
    ids=["default", "targets", "sarif-explain"],
)
def test_ref_cycles_lint(tmp_path: Path, flags: list[str]) -> None:
    write(tmp_path / "cycles.json", catalog(*CYCLES))
    done = catalint("lint", *flags, "cycles.json", cwd=tmp_path, timeout=30)
    no_crash(done)
    assert done.code == 1, done.stderr
    # nothing but, for sarif, the notice that --explain shapes the text report (sarif has no place for it)
    assert all(line.startswith("notice: --scores, --explain") for line in done.stderr.splitlines()), done.stderr


def test_ref_cycles_in_diff_distract_and_trace_scoring(tmp_path: Path) -> None:
    write(tmp_path / "cycles.json", catalog(*CYCLES))
    write(tmp_path / "base.json", catalog(CYCLES[0]))
    calls = [
        {"name": "direct", "args": {"a": 1}},
        {"name": "through_defs", "args": {"x": {"y": 1}}},
        {"name": "self_property", "args": {"child": {"child": {"name": 1}}}},
        {"name": "anchor", "args": {"p": {"p": 1}}},
        {"name": "by_id", "args": {"b": 1, "c": 2}},
    ]
    write(tmp_path / "runs.jsonl", json.dumps({"tool_calls": calls}) + "\n")
    diff = catalint("diff", "base.json", "cycles.json", cwd=tmp_path, timeout=30)
    no_crash(diff)
    assert diff.code == 0
    padded = catalint(
        "trace", "distract", "cycles.json", "--count", "2", "--from", "near_duplicate", "--of", "anchor", cwd=tmp_path
    )
    no_crash(padded)
    assert padded.code == 0 and len(json.loads(padded.stdout)["tools"]) == len(CYCLES) + 2
    score = catalint(
        "trace", "score", "--catalog", "s=cycles.json", "--expected-tool", "s.direct", "runs.jsonl", cwd=tmp_path
    )
    no_crash(score)
    assert score.code in (0, 1)
    assert "schema compliance" in score.stdout


# --------------------------------------------------------------------------------------
# 3. File size: just under the limit is linted in bounded time, over it is refused.
# --------------------------------------------------------------------------------------


def test_50mb_description_completes_and_reports_desc_002(tmp_path: Path) -> None:
    sentence = "Get the weather forecast for a city. Returns JSON with the temperature. "
    text = (sentence * (50 * 2**20 // len(sentence) + 1))[: 50 * 2**20]
    tool = {"name": "get_forecast", "description": text, "annotations": {"readOnlyHint": True}}
    write(tmp_path / "big.json", json.dumps({"tools": [tool]}))
    assert (tmp_path / "big.json").stat().st_size < MAX_FILE_BYTES
    # about 25 s alone on a 2-CPU machine (every rule reads 50 MB): the guard is for a hang, not speed
    done = catalint("lint", "big.json", cwd=tmp_path, timeout=240)
    no_crash(done)
    assert done.code == 1
    assert "DESC-002" in done.stdout
    assert done.stderr == ""


@pytest.mark.parametrize("unit", ["a", "aB", "a_", "a.", "a-", "Ab1_-."])
def test_one_long_word_in_every_rule_takes_linear_time(tmp_path: Path, unit: str) -> None:
    # CAT-005 cut other tools' names out with a regular expression of nested repeats: a 40,000-letter
    # word took 45 s, a million letters hours. Every rule reads this text; the guard is for a hang.
    word = (unit * (600_000 // len(unit)))[:600_000]
    prop = {"type": "string", "description": word}
    tools = [
        {"name": "read_file", "description": word, "inputSchema": {"type": "object", "properties": {"p": prop}}},
        {"name": "get-library-docs", "description": f"Read a file: {word[:1000]} (see read_file)."},
    ]
    write(tmp_path / "word.json", json.dumps({"tools": tools}))
    done = catalint("lint", "--select", "ALL,CMP", "--exit-zero", "word.json", cwd=tmp_path, timeout=60)
    no_crash(done)
    assert done.code == 0 and "DESC-002" in done.stdout


def _letters(i: int) -> str:
    out = ""
    while True:
        out, i = chr(97 + i % 26) + out, i // 26
        if not i:
            return out


@pytest.mark.parametrize("shape", ["long name, many words", "one wordy rival of many"])
def test_cat005_stays_linear_on_crafted_catalogs(tmp_path: Path, shape: str) -> None:
    # CAT-005 tested each name word against every description word (1,000 x 200,000: 55 s), and
    # tokenized a rival's description again for every tool that lost to it (200 tools: 42 s)
    if shape == "long name, many words":
        name = "_".join("w" + _letters(i) for i in range(1000))
        words = " ".join("x" + _letters(i) for i in range(200_000))
        tools = [{"name": name, "description": words}, {"name": name + "_zz", "description": "short"}]
    else:
        names = ["alpha_beta" + "_beta" * i for i in range(200)]
        tools = [{"name": n, "description": "alpha"} for n in names]
        tools.append({"name": "zz_yy", "description": "alpha beta " * 100_000})
    write(tmp_path / "crafted.json", json.dumps({"tools": tools}))
    done = catalint("lint", "--select", "CAT-005", "--no-gate", "crafted.json", cwd=tmp_path, timeout=30)
    no_crash(done)
    assert done.code in (0, 1)


@pytest.fixture(scope="module")
def over_limit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 70 MB file: a catalog of one tool whose description pads it past MAX_FILE_BYTES."""
    path = tmp_path_factory.mktemp("big") / "huge.json"
    with path.open("wb") as fh:
        fh.write(b'{"tools": [{"name": "x", "description": "')
        fh.write(b"a" * (70 * 2**20))
        fh.write(b'"}]}')
    return path


LIMIT_MESSAGE = "error: file is over 64 MiB, the most catalint reads"


@pytest.mark.parametrize("command", ["lint", "stdin", "diff", "bench", "check", "trace", "catalog", "distract"])
def test_70mb_file_is_refused(cli, tmp_path: Path, over_limit: Path, command: str) -> None:
    write(tmp_path / "good.json", catalog(GOOD_TOOL))
    shutil.copy(EXAMPLE_RUNS, tmp_path / "runs.jsonl")
    huge = str(over_limit)
    if command == "stdin":
        result = cli("lint", "-", input=over_limit.read_bytes())
        huge = "-"
    else:
        args = {
            "lint": ["lint", huge],
            "diff": ["diff", "good.json", huge],
            "bench": ["bench", "run", huge],
            "check": ["check", huge],
            "trace": ["trace", "score", huge],
            "catalog": ["trace", "score", "--catalog", f"s={huge}", "runs.jsonl"],
            "distract": ["trace", "distract", huge, "--count", "1"],
        }[command]
        result = cli(*args)
    assert one_error(result, huge).endswith(LIMIT_MESSAGE)


def test_70mb_file_at_a_git_revision_is_refused(tmp_path: Path) -> None:
    git = shutil.which("git")
    if git is None:
        pytest.skip("needs git")
    # Mostly whitespace: cheap to parse, so the missing limit shows as a wrong exit code, not a slow test.
    write(tmp_path / "huge.json", '{"tools": []}' + " " * (70 * 2**20))
    write(tmp_path / "good.json", catalog(GOOD_TOOL))
    for step in (["init", "-q", "."], ["add", "huge.json"], ["commit", "-qm", "huge"]):
        subprocess.run([git, "-c", "user.email=t@example.com", "-c", "user.name=t", *step], cwd=tmp_path, check=True)
    for args in (["diff", "HEAD:huge.json", "good.json"], ["lint", "--baseline", "HEAD:huge.json", "good.json"]):
        line = one_error(catalint(*args, cwd=tmp_path, timeout=60), "")
        assert "huge.json" in line.split(": error: ")[0]  # HEAD:huge.json or huge.json@HEAD
        assert line.endswith(LIMIT_MESSAGE.removeprefix("error: "))


# --------------------------------------------------------------------------------------
# 4. Tool count.
# --------------------------------------------------------------------------------------


def test_100k_tools_is_the_max_tools_error(tmp_path: Path) -> None:
    write(tmp_path / "many.json", json.dumps({"tools": [{"name": f"t{i}"} for i in range(100_000)]}, indent=1))
    done = catalint("lint", "many.json", cwd=tmp_path, timeout=30)
    line = one_error(done, "many.json:2:11: error: ")
    assert f"100,000 tools: catalint reads at most {MAX_TOOLS:,} tools per catalog (at /tools)" in line


def test_25k_tiny_tools_are_linted(tmp_path: Path) -> None:
    write(tmp_path / "many.json", json.dumps({"tools": [{"name": f"t{i}"} for i in range(MAX_TOOLS)]}))
    done = catalint("lint", "many.json", cwd=tmp_path, timeout=60)
    no_crash(done)
    assert done.code == 1
    assert done.stderr == ""
    assert f"in {MAX_TOOLS} tools in 1 file" in done.stdout


# --------------------------------------------------------------------------------------
# 5. Encodings.
# --------------------------------------------------------------------------------------

CLEAN_TEXT = catalog(CLEAN_TOOL)


@pytest.mark.parametrize(
    ("bom", "codec"),
    [(b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")],
    ids=["utf8-bom", "utf16-le-bom", "utf16-be-bom"],
)
@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_boms_lint_fine(cli, tmp_path: Path, bom: bytes, codec: str, suffix: str) -> None:
    text = CLEAN_TEXT if suffix == ".json" else "tools:\n" + "".join(f"  {line}\n" for line in _yaml_tool())
    write(tmp_path / f"t{suffix}", bom + text.encode(codec))
    result = cli("lint", "--output-format", "json", f"t{suffix}")
    no_crash(result)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert json.loads(result.stdout)["summary"]["tools"] == 1


def _yaml_tool() -> list[str]:
    return [
        "- name: get_forecast",
        "  description: Get the weather forecast for a city. Returns JSON with the temperature in Celsius.",
        "  inputSchema:",
        "    type: object",
        "    properties:",
        "      city: {type: string, description: 'City name, e.g. Paris', maxLength: 80}",
        "    required: [city]",
        "    additionalProperties: false",
        "  annotations: {readOnlyHint: true}",
    ]


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("name", ["t.json", "t.yaml", "t.tools.json"])
def test_utf16_without_bom_is_a_clean_error(cli, tmp_path: Path, codec: str, name: str) -> None:
    write(tmp_path / name, CLEAN_TEXT.encode(codec))
    line = one_error(cli("lint", name), f"{name}:1:1: error: ")
    assert f"looks like {codec.upper()} text without a byte-order mark" in line


@pytest.mark.parametrize("codec", ["utf-32-le", "utf-32-be"])
def test_utf32_without_bom_is_named(cli, tmp_path: Path, codec: str) -> None:
    write(tmp_path / "t.json", CLEAN_TEXT.encode(codec))
    assert f"looks like {codec.upper()} text" in one_error(cli("lint", "t.json"), "t.json:1:1: error: ")


def test_utf16_with_bom_broken_is_a_clean_error(cli, tmp_path: Path) -> None:
    write(tmp_path / "odd.json", b"\xff\xfe" + CLEAN_TEXT.encode("utf-16-le") + b"\x00")
    write(tmp_path / "lone.json", b"\xff\xfe" + b'{\x00"\x00\x00\xd8"\x00}\x00')
    assert "invalid UTF-16" in one_error(cli("lint", "odd.json"), "odd.json: error: ")
    assert "invalid UTF-16" in one_error(cli("lint", "lone.json"), "lone.json: error: ")


@pytest.mark.parametrize(
    ("name", "data", "args", "prefix"),
    [
        (
            "t.yaml",
            "tools:\n  - name: 日本\n    description: |\n      ok\n      bad ".encode() + b"\xe9!\n",
            [],
            "t.yaml:5:11",
        ),
        (
            "runs.jsonl",
            b'{"tool_calls": []}\n\n{"tool_calls": [{"name": "\xc3("}]}\n',
            ["trace", "score"],
            "runs.jsonl:3:27",
        ),
        (
            "spec.yaml",
            b"catalog: {tools: [{name: a}]}\nintents:\n  - {query: \xff, gold: [a]}\n",
            ["bench", "run"],
            "spec.yaml:3:13",
        ),
        ("suite.yml", b"tool_quality:\n  - {name: \x80, catalog: x.json}\n", ["check"], "suite.yml:2:12"),
    ],
    ids=["lint-yaml-block", "trace-jsonl", "bench-spec", "suite"],
)
def test_invalid_utf8_reports_the_byte_position(cli, tmp_path: Path, name: str, data: bytes, args, prefix) -> None:
    write(tmp_path / name, data)
    line = one_error(cli(*(args or ["lint"]), name), f"{prefix}: error: ")
    assert "invalid UTF-8" in line


# --------------------------------------------------------------------------------------
# 6. Duplicate keys.
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "prefix", "key"),
    [
        ("t.json", '{"tools": [\n  {"name": "a",\n   "name": "b"}]}', "t.json:3:4", "'name' in /tools/0"),
        ("t.json", '{"tools": [{"name": "a", "na\\u006de": "b"}]}', "t.json:1:26", "'name' in /tools/0"),
        (
            "t.json",
            '{"tools": [{"name": "a", "inputSchema": {"properties": {"x": {}, "x": {}}}}]}',
            "t.json:1:66",
            "'x' in /tools/0/inputSchema/properties",
        ),
        ("t.yaml", "tools:\n  - name: a\n    description: x\n    name: b\n", "t.yaml:4:5", "'name' in /tools/0"),
        ("t.yaml", 'tools:\n  - {name: a, "name": b}\n', "t.yaml:2:15", "'name' in /tools/0"),
        (
            "t.yaml",
            "tools:\n  - name: a\n    inputSchema:\n      properties:\n        x: {}\n        ? x\n        : {}\n",
            "t.yaml:6:11",
            "'x' in /tools/0/inputSchema/properties",
        ),
    ],
    ids=["json", "json-escaped", "json-schema", "yaml", "yaml-flow-quoted", "yaml-explicit-key"],
)
def test_duplicate_keys_are_reported(cli, tmp_path: Path, name: str, text: str, prefix: str, key: str) -> None:
    write(tmp_path / name, text)
    line = one_error(cli("lint", name), f"{prefix}: error: duplicate key ")
    assert key in line


@pytest.mark.parametrize(
    ("name", "text", "args", "prefix"),
    [
        ("runs.jsonl", '{"tool_calls": []}\n{"tool_calls": [], "cost": 1, "cost": 2}\n', ["trace", "score"], "2:31"),
        ("spec.json", '{"catalog": {"tools": []}, "catalog": {"tools": []}}', ["bench", "run"], "1:28"),
        ("suite.yml", "tool_quality: []\ntool_quality: []\n", ["check"], "2:1"),
    ],
    ids=["trace", "bench", "suite"],
)
def test_duplicate_keys_in_other_inputs(cli, tmp_path: Path, name: str, text: str, args, prefix: str) -> None:
    write(tmp_path / name, text)
    assert "duplicate key" in one_error(cli(*args, name), f"{name}:{prefix}: error: ")


# --------------------------------------------------------------------------------------
# 7. NaN, Infinity, huge numbers.
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize(
    ("name", "template", "args", "position"),
    [
        ("runs.jsonl", '{"tool_calls": []}\n{"tool_calls": [], "cost": %s}\n', ["trace", "score"], "2:28"),
        ("runs.json", '[{"tool_calls": []},\n {"tool_calls": [], "cost": %s}]', ["trace", "score"], "2:29"),
        ("spec.json", '{"catalog": {"tools": [{"name": "a", "x": %s}]}}', ["bench", "run"], "1:43"),
        ("head.json", '{"tools": [{"name": "a", "x": %s}]}', ["diff", "base.json"], "1:31"),
        (
            "suite.json",
            '{"tool_quality": [{"name": "a", "catalog": "x.json", "expect": [{"x": %s}]}]}',
            ["check"],
            "1:71",
        ),
    ],
    ids=["trace-jsonl", "trace-json", "bench", "diff", "suite"],
)
def test_json_constants_are_clean_errors_with_position(
    cli, tmp_path: Path, constant: str, name: str, template: str, args: list[str], position: str
) -> None:
    write(tmp_path / "base.json", catalog(GOOD_TOOL))
    write(tmp_path / name, template % constant)
    line = one_error(cli(*args, name), f"{name}:{position}: error: ")
    assert constant.lstrip("-") in line


def test_huge_integers_in_a_schema_lint(cli, tmp_path: Path) -> None:
    schema = (
        '{"type": "object", "properties": {'
        f'"s": {{"type": "string", "description": "s", "maxLength": {BIG_INT}, "default": {BIG_INT}, '
        f'"minLength": -{BIG_INT}, "examples": [{BIG_INT}]}}, '
        f'"n": {{"type": "integer", "description": "n", "maximum": {BIG_INT}, "default": {BIG_INT}, '
        f'"multipleOf": {BIG_INT}, "enum": [{BIG_INT}, 1]}}'
        '}, "additionalProperties": false}'
    )
    write(tmp_path / "t.json", tool_with_schema(schema))
    for flags in (
        [],
        ["--target", "openai-strict", "--target", "anthropic", "--target", "gemini", "--scores", "--tokens"],
        ["--output-format", "sarif"],
        ["--output-format", "json"],
    ):
        result = cli("lint", *flags, "t.json")
        no_crash(result)
        assert result.exit_code == 1, result.stderr
        assert result.stderr == ""
    diff = cli("diff", "t.json", "t.json")
    assert diff.exit_code == 0
    assert (
        cli("trace", "distract", "t.json", "--count", "1", "--from", "near_duplicate", "--of", "get_x").exit_code == 0
    )


def test_number_beyond_float_range_is_not_called_null(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.json", tool_with_schema('{"type": "object", "properties": {"n": {"maximum": 1e309}}}'))
    result = cli("lint", "--select", "SCH-006", "t.json")
    no_crash(result)
    assert "null" not in result.stdout


@pytest.mark.parametrize(
    ("name", "text", "args"),
    [
        pytest.param(
            "suite.yml",
            f'tool_quality:\n  - {{name: g, catalog: good.json, expect: [{{min_score: {{">=": {BIG_INT}}}}}]}}\n',
            ["check"],
            id="suite-expect",
        ),
        pytest.param(
            "suite.yml",
            "tool_quality:\n  - {name: g, catalog: good.json, expect: "
            f"[{{target: min_score, matcher: {{schema: {{minimum: {BIG_INT}}}}}}}]}}\n",
            ["check"],
            id="suite-schema-matcher",
        ),
        pytest.param(
            "runs.jsonl",
            f'{{"tool_calls": [], "conversation": {{"tokens": {{"total": {BIG_INT}}}}}}}\n',
            ["trace", "score"],
            id="trace-tokens",
        ),
        pytest.param(
            "spec.yml",
            "token_efficiency:\n  classes: [{name: s, members: [web_search]}]\n"
            f'  expect:\n    - token_efficiency.f1: {{">=": {BIG_INT}}}\n',
            ["trace", "score", "--spec"],
            id="trace-spec",
        ),
        pytest.param(
            "catalint.toml",
            f'[gate]\nmean_score = {{">=" = {BIG_INT}}}\n',
            ["lint", "good.json"],
            id="config-gate",
        ),
        pytest.param(
            "spec.yml",
            "catalog: {tools: [{name: a}]}\nintents: [{query: q, gold: [a]}]\n"
            f"mutations: [{{tool: a, kind: truncate, chars: {BIG_INT}}}]\n",
            ["bench", "run"],
            id="bench-chars",
        ),
    ],
)
def test_huge_integers_in_other_inputs(cli, tmp_path: Path, name: str, text: str, args: list[str]) -> None:
    write(tmp_path / "good.json", catalog(GOOD_TOOL))
    shutil.copy(EXAMPLE_RUNS, tmp_path / "other.jsonl")
    write(tmp_path / name, text)
    if args[-1] == "--spec":
        argv = [*args, name, "other.jsonl"]
    elif name.endswith(".toml"):
        argv = args
    else:
        argv = [*args, name]
    result = cli(*argv)
    no_crash(result)
    assert result.exit_code in (0, 1, 2)
    if result.exit_code == 2:
        assert len(result.stderr.splitlines()) == 1, result.stderr
        assert name in result.stderr


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("t.json", tool_with_schema('{"type": "object", "properties": {"n": {"maximum": 1e400}}}')),
        ("t.yaml", "tools:\n  - name: a\n    inputSchema: {properties: {n: {default: .nan, maximum: .inf}}}\n"),
    ],
    ids=["json-1e400", "yaml-nan-inf"],
)
def test_distract_output_is_strict_json(cli, tmp_path: Path, name: str, text: str) -> None:
    write(tmp_path / name, text)
    result = cli("trace", "distract", name, "--count", "1", "-o", "out.json")
    if result.exit_code == 2:  # refusing the value is fine too
        one_error(result, f"{name}:")
        assert not (tmp_path / "out.json").exists()
    else:
        assert result.exit_code == 0, result.stderr
        assert cli("lint", "--no-gate", "out.json").exit_code in (0, 1)  # catalint reads what it wrote


def test_trace_report_is_strict_json(cli, tmp_path: Path) -> None:
    """Costs that add up past the float range: refused, or reported as strict JSON (no Infinity)."""
    write(tmp_path / "search.json", EXAMPLE_SEARCH.read_text())
    write(tmp_path / "spec.yml", "token_efficiency:\n  classes: [{name: s, members: [web_search]}]\n")
    write(tmp_path / "runs.jsonl", '{"tool_calls": [{"name": "web_search"}], "cost": 1e308}\n' * 2)
    result = cli(
        "trace", "score", "--spec", "spec.yml", "--output-format", "json", "--catalog", "search.json", "runs.jsonl"
    )
    if result.exit_code == 2:
        one_error(result, "runs.jsonl:1:")
    else:
        no_crash(result)
        json.loads(result.stdout, parse_constant=lambda c: pytest.fail(f"{c} in a JSON report"))


@pytest.mark.parametrize(
    "figure",
    [
        pytest.param(BIG_INT),
        "Infinity",
        '"text"',
        "[1]",
        "true",
    ],
)
def test_hostile_compare_baseline(cli, tmp_path: Path, figure: str) -> None:
    shutil.copy(EXAMPLE_RUNS, tmp_path / "runs.jsonl")
    base = cli("trace", "score", "--class", "s=search.web_search", "--output-format", "json", "runs.jsonl").stdout
    doc = json.loads(base)
    names = list(doc["scenarios"][0]["figures"])
    text = json.dumps(doc).replace(f'"{names[0]}": ', f'"{names[0]}": {figure}, "x-": ', 1)
    write(tmp_path / "base.json", text)
    for fmt in ("text", "json", "markdown"):
        result = cli(
            "trace",
            "score",
            "--class",
            "s=search.web_search",
            "--compare",
            "base.json",
            "--output-format",
            fmt,
            "runs.jsonl",
        )
        no_crash(result)
        assert result.exit_code in (0, 1, 2)
        if fmt == "json" and result.exit_code != 2:
            json.loads(result.stdout, parse_constant=lambda c: pytest.fail(f"{c} in a JSON report"))


# --------------------------------------------------------------------------------------
# 8. YAML alias bombs.
# --------------------------------------------------------------------------------------


def _bomb(levels: int, width: int, mapping: bool) -> str:
    if mapping:
        lines = ["x0: &x0 {" + ", ".join(f"k{j}: lol" for j in range(width)) + "}"]
        lines += [
            f"x{i}: &x{i} {{" + ", ".join(f"k{j}: *x{i - 1}" for j in range(width)) + "}" for i in range(1, levels)
        ]
        return "\n".join(lines) + f"\ntools:\n  - name: lol\n    inputSchema: {{properties: *x{levels - 1}}}\n"
    lines = ["a0: &a0 [" + ", ".join(["lol"] * width) + "]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]" for i in range(1, levels)]
    return "\n".join(lines) + f"\ntools:\n  - name: lol\n    description: *a{levels - 1}\n"


@pytest.mark.parametrize("mapping", [False, True], ids=["sequences", "mappings"])
def test_billion_laughs_is_a_quick_clean_error(tmp_path: Path, mapping: bool) -> None:
    write(tmp_path / "lol.yaml", _bomb(10, 10, mapping))
    done = catalint("lint", "lol.yaml", cwd=tmp_path, timeout=20)
    line = one_error(done, "lol.yaml: error: ")
    assert line == "lol.yaml: error: YAML aliases expand to more than 1,000,000 values (an alias bomb?)"
    assert f"`FILE: error: {line.removeprefix('lol.yaml: error: ')}`" in (ROOT / "README.md").read_text()  # Limits
    assert done.seconds < 10


def test_a_long_string_aliased_many_times_is_refused_by_its_expanded_text(tmp_path: Path) -> None:
    """A 100 KB description aliased by 3,000 tools (a 214 KB file) is 300 MB of text to lint: 55 s. Counted
    as expanded, it is over what a file catalint reads may hold, and refused at once."""
    words = " ".join(f"word{i}" for i in range(15_000))
    lines = [f'  - {{name: t0, description: &d "Get {words}. Returns it."}}']
    lines += [f"  - {{name: t{i}, description: *d}}" for i in range(1, 700)]
    write(tmp_path / "many.yaml", "tools:\n" + "\n".join(lines) + "\n")
    done = catalint("lint", "many.yaml", cwd=tmp_path, timeout=20)
    line = one_error(done, "many.yaml: error: ")
    reason = "YAML aliases expand to more than 64 MiB of text, the most a file catalint reads holds"
    assert line == f"many.yaml: error: {reason} (an alias bomb?)"
    assert f"`FILE: error: {reason} (an alias bomb?)`" in (ROOT / "README.md").read_text()  # Limits
    assert done.seconds < 10
    write(tmp_path / "few.yaml", "tools:\n" + "\n".join(lines[:20]) + "\n")  # 2 MB of text: read
    done = catalint("lint", "--no-gate", "--select", "CAT-003", "few.yaml", cwd=tmp_path, timeout=60)
    assert code_of(done) == 0 and "19 findings" in done.stdout


def test_a_long_key_aliased_many_times_is_refused_before_anything_is_built(tmp_path: Path) -> None:
    """A 100 KB property name used as a key by 700 tools was never counted (only value aliases were), and
    every pointer below each one repeated it: 1.6 GB before any rule ran."""
    key = "k" * 100_000
    lines = (
        ["defs: [&n " + key + "]"]
        + ["tools:"]
        + [
            f"  - {{name: t{i}, inputSchema: {{type: object, properties: {{*n : {{type: string}}}}}}}}"
            for i in range(700)
        ]
    )
    write(tmp_path / "keys.yaml", "\n".join(lines) + "\n")
    done = catalint("lint", "keys.yaml", cwd=tmp_path, timeout=60)
    line = one_error(done, "keys.yaml: error: ")
    assert line.endswith(
        "YAML aliases expand to more than 64 MiB of text, the most a file catalint reads holds (an alias bomb?)"
    )


def test_a_chain_of_merge_keys_is_refused_before_it_is_copied_out(tmp_path: Path) -> None:
    """Each mapping `{<<: *prev, kN: 1}` holds all before it: PyYAML copies them out level by level, so 8,000
    links (307 KB) took 27 s and 1.2 GB before the count refused them; the count now reads the nodes first."""
    lines = ["chain:", "  - &m0 {k0: 1}"] + [f"  - &m{i} {{<<: *m{i - 1}, k{i}: 1}}" for i in range(1, 8000)]
    write(tmp_path / "merge.yaml", "\n".join(lines) + "\ntools: []\n")
    done = catalint("lint", "merge.yaml", cwd=tmp_path, timeout=60)
    line = one_error(done, "merge.yaml: error: ")
    assert line.endswith("YAML aliases expand to more than 1,000,000 values (an alias bomb?)")
    assert done.seconds < 10


def test_expanded_size_counts_the_text_of_every_alias() -> None:
    import yaml

    from catalint.loader import expanded_size

    shared = "- &s {key: xxxxxxxxxx}\n- *s\n- xxxxxxxxxx\n"  # 3 bytes of key, 10 of value, twice; 10 more
    assert expanded_size(yaml.compose(shared), 100, 100) == (6, 36)  # the list, each mapping and value, the string
    many = "- &s {key: xxxxxxxxxx}\n" + "- *s\n" * 19
    assert expanded_size(yaml.compose(many), 1000, 50)[1] > 50  # stops once past the text's limit
    long = "日本" * 40  # 80 characters, 240 bytes as UTF-8: CJK costs the rules what its bytes would
    assert expanded_size(yaml.compose(f"- &l {long}\n- *l\n- é\n"), 100, 10**6) == (4, 482)
    keys = "- &k " + "x" * 100 + "\n" + "- {*k : 1}\n" * 3  # an alias used as a key counts each time too
    assert expanded_size(yaml.compose(keys), 100, 10**6) == (8, 403)


@pytest.mark.parametrize("command", ["bench", "check", "trace", "spec"])
def test_billion_laughs_in_other_inputs(cli, tmp_path: Path, command: str) -> None:
    write(tmp_path / "lol.yaml", _bomb(10, 10, False))
    shutil.copy(EXAMPLE_RUNS, tmp_path / "runs.jsonl")
    args = {
        "bench": ["bench", "run", "lol.yaml"],
        "check": ["check", "lol.yaml"],
        "trace": ["trace", "score", "lol.yaml"],
        "spec": ["trace", "score", "--spec", "lol.yaml", "runs.jsonl"],
    }[command]
    assert "alias" in one_error(cli(*args), "lol.yaml: error: ")


def test_a_yaml_document_of_too_many_values_stops_early(tmp_path: Path) -> None:
    """4 million one-letter items (16 MB) cost about 3 GB and a minute to compose; composing stops at
    1,000,000 nodes, with the position where it stopped."""
    write(tmp_path / "big.yaml", "tools:\n- name: x\n  inputSchema:\n    enum:\n" + "    - a\n" * 4_000_000)
    done = catalint("lint", "big.yaml", cwd=tmp_path, timeout=60)
    line = one_error(done, "big.yaml:999995:7: error: ")
    assert line.endswith("a YAML document of more than 1,000,000 values: catalint reads at most that many")


@pytest.mark.parametrize("fast", [True, False], ids=["libyaml", "pyyaml"])
def test_both_yaml_readers_count_values(monkeypatch, fast: bool) -> None:
    from catalint import loader

    monkeypatch.setattr(loader, "MAX_EXPANDED", 50)
    text = "tools:\n" + "- a\n" * 50  # the mapping, its key, the sequence and 50 items: 53 nodes
    cls = loader._fast_loader() if fast else loader._json_loader()
    if cls is None:
        pytest.skip("PyYAML built without libyaml")
    with pytest.raises(LoadError, match="more than 50 values") as info:
        loader._parse_yaml(text, "t.yaml", cls)
    assert (info.value.line, info.value.col) == (49, 3)
    assert loader._parse_yaml("tools:\n" + "- a\n" * 47, "t.yaml", cls)[0]["tools"] == ["a"] * 47


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in kilobytes is Linux's")
def test_a_sentence_of_megabytes_costs_no_more_memory_than_its_text(tmp_path: Path) -> None:
    """A 5 MB description with no full stop: SEC-003 read 'the rest of the sentence' with a repeated
    group, for which Python's engine keeps state at every character (870 MB here)."""
    text = "before calling any tool, " * 200_000
    write(tmp_path / "t.json", catalog({"name": "x", "description": text, "inputSchema": {"type": "object"}}))
    probe = (
        "import resource, subprocess, sys; "
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, timeout=120); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *_command(), "lint", "--select", "SEC-003", "t.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert int(done.stdout) < 300_000, f"{int(done.stdout) // 1000} MB"


def test_many_secret_paths_in_one_sentence_stay_linear(tmp_path: Path) -> None:
    """SEC-004 checked every secret noun against every secret path of the sentence: 40,000 of each (1.3 MB)
    took about two minutes; a 64 MiB description would have taken days."""
    text = "read ~/.aws/credentials and pass " * 40_000
    write(tmp_path / "t.json", catalog({"name": "x", "description": text, "inputSchema": {"type": "object"}}))
    done = catalint("lint", "--no-gate", "--select", "SEC-004", "t.json", cwd=tmp_path, timeout=60)
    assert code_of(done) == 0 and "1 tool in 1 file" in done.stdout


def test_aliases_under_the_cap_stay_cheap(tmp_path: Path) -> None:
    """~640,000 values once expanded: under MAX_EXPANDED, and every command stays quick."""
    pre = ["x: [&a0 [" + ", ".join(["lol lol lol"] * 8) + "]"]
    pre += [f"  , &a{i} [" + ", ".join([f"*a{i - 1}"] * 8) + "]" for i in range(1, 5)]
    pre[-1] += "]"
    text = "\n".join(pre) + (
        "\ntools:\n  - name: lol\n    description: Get lol. Returns lol.\n"
        "    inputSchema: {type: object, properties: {p: {type: array, default: &a5 ["
        + ", ".join(["*a4"] * 8)
        + "]}}}\n"
        "    annotations: {title: *a5}\n"
    )
    write(tmp_path / "under.yaml", text)
    write(tmp_path / "base.json", catalog(GOOD_TOOL))
    for args in (
        ["lint", "--target", "openai-strict", "--target", "gemini", "--scores", "--tokens", "under.yaml"],
        ["diff", "base.json", "under.yaml"],
        ["trace", "distract", "under.yaml", "--count", "1", "-o", "out.json"],
    ):
        done = catalint(*args, cwd=tmp_path, timeout=30)
        no_crash(done)
        assert done.code in (0, 1), done.stderr
        assert done.seconds < 20


# --------------------------------------------------------------------------------------
# 9. YAML keys that are not strings, and tags JSON cannot hold.
# --------------------------------------------------------------------------------------

NON_STRING_KEYS = """tools:
  - name: a
    1: x
    true: y
    null: z
    description: Get a thing for you. Returns it.
    inputSchema:
      type: object
      1: x
      ~: w
      properties:
        1: {type: string}
        true: {type: boolean}
        null: {type: string}
        2024-01-01: {type: string}
        0x1F: {type: string}
        1.5: {type: number}
      required: [1, true, null]
"""


def test_yaml_non_string_keys_lint(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.yaml", NON_STRING_KEYS)
    result = cli("lint", "--output-format", "json", "--no-gate", "t.yaml")
    no_crash(result)
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    pointers = {f["pointer"] for f in doc["findings"]}
    assert "/tools/0/inputSchema/properties/0x1F" in pointers  # SCH-004: keys stay as written
    required = [f for f in doc["findings"] if f["code"] == "SCH-006"]
    assert [f["line"] for f in required] == [18, 18, 18]


@pytest.mark.parametrize(
    ("name", "text", "args", "prefix"),
    [
        (
            "t.yaml",
            "tools:\n  - name: a\n    inputSchema:\n      properties:\n        ? [a, b]\n        : {}\n",
            ["lint"],
            "t.yaml:5:11",
        ),
        ("t.yaml", "tools:\n  - name: a\n    inputSchema:\n      ? {x: 1}\n      : 2\n", ["lint"], "t.yaml:4:9"),
        ("t.yaml", "? [a]\n: 1\ntools: []\n", ["lint"], "t.yaml:1:3"),
        ("runs.yaml", "tool_calls:\n  - name: a\n    ? [x]\n    : b\n", ["trace", "score"], "runs.yaml:3:7"),
        ("spec.yaml", "catalog: {tools: [{name: a}]}\nintents:\n  - {? [q]: 1}\n", ["bench", "run"], "spec.yaml:3:8"),
        ("suite.yml", "tool_quality:\n  - {name: a, catalog: x.json, ? [1]: 2}\n", ["check"], "suite.yml:2:34"),
    ],
    ids=["schema-sequence-key", "schema-mapping-key", "top-level", "trace", "bench", "suite"],
)
def test_yaml_collection_keys_are_clean_errors(cli, tmp_path: Path, name: str, text: str, args, prefix) -> None:
    write(tmp_path / name, text)
    assert "key must be a string" in one_error(cli(*args, name), f"{prefix}: error: ")


@pytest.mark.parametrize(
    "args",
    [
        ["lint", "--output-format", "json", "--no-gate", "keys.yaml"],
        ["bench", "run", "keys.yaml"],
        ["check", "keys.yaml"],
    ],
    ids=["lint", "bench", "check"],
)
def test_yaml_non_string_keys_in_every_input(cli, tmp_path: Path, args: list[str]) -> None:
    write(
        tmp_path / "keys.yaml",
        "1: x\ntrue: y\nnull: z\ntools: [{name: a, 1: b}]\nintents: [{query: q, gold: [a], 2: c}]\n",
    )
    result = cli(*args)
    no_crash(result)
    assert result.exit_code in (0, 1, 2)
    if result.exit_code == 2:
        assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("keys.yaml")


@pytest.mark.parametrize(
    "args",
    [
        ["lint", "--tokens", "set.yaml"],
        ["diff", "set.yaml", "set.yaml"],
        ["trace", "distract", "set.yaml", "--count", "1"],
    ],
    ids=["lint-tokens", "diff", "distract"],
)
def test_yaml_set_tag(cli, tmp_path: Path, args: list[str]) -> None:
    write(tmp_path / "set.yaml", "tools:\n  - name: a\n    inputSchema: {properties: {p: {default: !!set {x, y}}}}\n")
    result = cli(*args)
    clean_or_one_error(result, "set.yaml")


@pytest.mark.parametrize(
    "value",
    [
        "!!int abc",
        "!!int 0b102",
        "!!float abc",
        "!!bool maybe",
        "!!set x",
        "!!map [1]",
        "!!seq {a: 1}",
        "!!str [1]",
        "!!omap x",
        "!!pairs [{a: 1, b: 2}]",
        "!!int 1_0",
        "!!float 1e99999",
    ],
)
def test_yaml_tag_on_a_value_it_cannot_build(cli, tmp_path: Path, value: str) -> None:
    write(tmp_path / "t.yaml", f"tools:\n  - name: a\n    x: {value}\n")
    result = cli("lint", "--no-gate", "t.yaml")
    clean_or_one_error(result, "t.yaml")
    if result.exit_code == 2:
        assert result.stderr.startswith("t.yaml:3:")


@pytest.mark.parametrize(
    ("name", "text", "args"),
    [
        ("spec.yaml", "catalog: {tools: [{name: a}]}\nintents: [{query: !!int q, gold: [a]}]\n", ["bench", "run"]),
        ("suite.yml", "tool_quality:\n  - {name: !!float g, catalog: x.json}\n", ["check"]),
        ("runs.yaml", "tool_calls:\n  - {name: !!bool a}\n", ["trace", "score"]),
    ],
    ids=["bench", "check", "trace"],
)
def test_yaml_tag_on_a_value_it_cannot_build_in_other_inputs(cli, tmp_path: Path, name, text, args) -> None:
    write(tmp_path / name, text)
    one_error(cli(*args, name), f"{name}:")


@pytest.mark.parametrize(
    "value",
    [
        "!!omap [{a: 1}, {b: 2}]",
        "!!pairs [{a: 1}, {a: 2}]",
        "!!binary aGVsbG8=",
        "!!timestamp 2001-12-14",
        "!!python/name:os.system",
    ],
)
def test_yaml_tags(cli, tmp_path: Path, value: str) -> None:
    write(
        tmp_path / "tag.yaml",
        "tools:\n  - name: a\n    description: Get a thing for you. Returns it.\n"
        f"    inputSchema: {{type: object, properties: {{p: {{enum: {value}, default: {value}}}}}}}\n",
    )
    for args in (["lint", "--tokens", "--target", "openai-strict", "tag.yaml"], ["diff", "tag.yaml", "tag.yaml"]):
        clean_or_one_error(cli(*args), "tag.yaml")


@pytest.mark.parametrize(
    ("name", "text", "args"),
    [
        ("t.json", '{"tools": [{"name": "a\\ud800", "description": "Get \\udfff it. Returns it."}]}', ["lint"]),
        ("t.json", '{"tools": [{"name": "a\\ud800"}]}', ["lint", "--output-format", "sarif"]),
        ("t.json", '{"tools": [{"name": "a\\ud800"}]}', ["lint", "--output-format", "markdown"]),
        ("t.json", '{"tools": [{"name": "a\\ud800"}]}', ["diff", "t.json", "--output-format", "markdown"]),
        ("t.yaml", 'tools:\n  - name: "a\\ud800"\n', ["lint", "--output-format", "json"]),
        ("t.json", '{"tools": [{"name": "a\\ud800"}]}', ["trace", "distract", "--count", "1"]),
        ("runs.jsonl", '{"tool_calls": [{"name": "web\\ud800"}]}\n', ["trace", "score", "--class", "a=x.y"]),
    ],
    ids=["lint-text", "lint-sarif", "lint-markdown", "diff-markdown", "lint-yaml-json", "distract", "trace-score"],
)
def test_lone_surrogate_escapes(tmp_path: Path, name: str, text: str, args: list[str]) -> None:
    """Through the console script: how it writes to a real stdout is the point."""
    write(tmp_path / name, text)
    if args[:2] == ["trace", "distract"]:
        args = [*args[:2], name, *args[2:]]
    else:
        args = [*args, name]
    clean_or_one_error(catalint(*args, cwd=tmp_path, timeout=30), name)
    with_file = catalint(*args, "-o", "out.txt", cwd=tmp_path, timeout=30)
    clean_or_one_error(with_file, name)
    if with_file.code != 2:
        (tmp_path / "out.txt").read_text(encoding="utf-8")  # written, and valid UTF-8


# --------------------------------------------------------------------------------------
# 10. Regexes built for catastrophic backtracking.
# --------------------------------------------------------------------------------------

EVIL_TOOL = {
    "name": "get_code",
    "description": "Get the record for a code. Returns JSON.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "code": {
                "type": "string",
                "description": "The code",
                "maxLength": 100,
                "pattern": EVIL,
                "default": EVIL_TEXT,
                "examples": [EVIL_TEXT, EVIL_TEXT + "c"],
            },
            "map": {
                "type": "object",
                "description": "Values by name",
                "patternProperties": {EVIL: {"type": "string"}, "(x+x+)+y": {"type": "string"}},
                "propertyNames": {"pattern": EVIL},
                "default": {EVIL_TEXT: "v", "x" * 40: "v"},
                "examples": [{EVIL_TEXT: 1}],
            },
            "words": {"type": "string", "description": "Words", "pattern": "^(\\w+\\s?)*$", "default": "a" * 60 + "!"},
        },
        "required": ["code"],
        "additionalProperties": False,
    },
    "annotations": {"readOnlyHint": True},
}


def test_catastrophic_patterns_in_defaults_and_examples(tmp_path: Path) -> None:
    write(tmp_path / "evil.json", catalog(EVIL_TOOL))
    done = catalint("lint", "--target", "openai-strict", "--target", "gemini", "evil.json", cwd=tmp_path, timeout=20)
    no_crash(done)
    assert done.code == 1
    assert done.seconds < 10
    assert "does not match" in done.stdout  # SCH-009 still judges the default against the pattern


def test_catastrophic_patterns_in_trace_argument_validation(tmp_path: Path) -> None:
    write(tmp_path / "evil.json", catalog(EVIL_TOOL))
    args = {"code": EVIL_TEXT, "map": {EVIL_TEXT: "v", "x" * 60: "v"}, "words": "a" * 60 + "!"}
    runs = [{"tool_calls": [{"server": "evil", "name": "get_code", "args": args}]} for _ in range(3)]
    write(tmp_path / "runs.json", json.dumps(runs))
    write(tmp_path / "runs.jsonl", "".join(json.dumps(r) + "\n" for r in runs))
    done = catalint(
        "trace",
        "score",
        "--catalog",
        "evil.json",
        "--expected-tool",
        "evil.get_code",
        "--gate",
        "calls.schema_compliance>=100",
        "runs.json",
        "runs.jsonl",
        cwd=tmp_path,
        timeout=20,
    )
    no_crash(done)
    assert done.code == 1  # the arguments fail the pattern, so the gate fails
    assert done.seconds < 10
    assert "schema compliance 0" in done.stdout


def test_a_long_pattern_is_never_compiled(tmp_path: Path) -> None:
    # jsonschema-rs compiles every pattern of a schema it builds a validator for: a megabyte of \p{L} took
    # 1.2 GB, and five took 5.6 GB. Past 10,000 characters a pattern is neither compiled nor run.
    huge = "\\p{L}" * 200_000
    tool = {
        "name": "set_code",
        "description": "Set the code and return the record as JSON.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "code": {"type": "string", "maxLength": 9, "pattern": huge, "default": "x", "examples": ["y"]},
                "map": {"type": "object", "patternProperties": {huge: {"type": "string"}}, "default": {"k": "v"}},
            },
            "required": ["code", "zz"],
            "additionalProperties": False,
        },
    }
    write(tmp_path / "big.json", catalog(tool))
    args = {"code": "abc", "map": {"k": "v"}}
    write(tmp_path / "runs.json", json.dumps([{"tool_calls": [{"server": "s", "name": "set_code", "args": args}]}]))
    for command in (
        ("lint", "big.json", "--exit-zero"),
        ("trace", "score", "--catalog", "big.json", "--expected-tool", "s.set_code", "runs.json"),
    ):
        done = catalint(*command, cwd=tmp_path, timeout=60, max_memory=1_000_000_000)
        no_crash(done)
        assert done.code in (0, 1), done.stderr[-500:]


def test_a_large_enum_is_linted_in_bounded_time(tmp_path: Path) -> None:
    # 10,000 values (about 100 KB) take ~35 s today; 20,000 take ~2 minutes; 1,000,000 (10 MB) would take days.
    enum = [f"v{i}" for i in range(10_000)]
    schema = {"type": "object", "properties": {"p": {"type": "string", "enum": enum}}}
    write(tmp_path / "enum.json", tool_with_schema(json.dumps(schema)))
    done = catalint("lint", "enum.json", cwd=tmp_path, timeout=8)
    no_crash(done)


# --------------------------------------------------------------------------------------
# 11. Binary, empty and whitespace-only files.
# --------------------------------------------------------------------------------------

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
RANDOM = bytes((i * 197 + 89) % 256 for i in range(4096))  # fixed "random" bytes, most not UTF-8


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (RANDOM, "invalid UTF-8"),
        (PNG, "invalid UTF-8"),
        (b"\x1f\x8b\x08\x00\x00\x00\x00\x00", "invalid UTF-8"),
        (b"", "empty file"),
        (b" \n\t \r\n ", "empty file"),
        (b"\xef\xbb\xbf \n", "empty file"),
        (b"\xff\xfe \x00\n\x00", "empty file"),
        (b"\x00\x00\x00\x00", "error"),
    ],
    ids=["random", "png", "gzip", "empty", "whitespace", "bom-whitespace", "utf16-whitespace", "nul"],
)
@pytest.mark.parametrize("command", ["lint-json", "lint-yaml", "bench", "check", "trace", "spec", "diff", "catalog"])
def test_binary_and_empty_files(cli, tmp_path: Path, data: bytes, words: str, command: str) -> None:
    name = "f.yaml" if command in ("lint-yaml", "spec") else "f.json"
    write(tmp_path / name, data)
    write(tmp_path / "good.json", catalog(GOOD_TOOL))
    shutil.copy(EXAMPLE_RUNS, tmp_path / "runs.jsonl")
    args = {
        "lint-json": ["lint", name],
        "lint-yaml": ["lint", name],
        "bench": ["bench", "run", name],
        "check": ["check", name],
        "trace": ["trace", "score", name],
        "spec": ["trace", "score", "--spec", name, "runs.jsonl"],
        "diff": ["diff", "good.json", name],
        "catalog": ["trace", "score", "--catalog", f"s={name}", "runs.jsonl"],
    }[command]
    line = one_error(cli(*args), name)
    assert words in line


# --------------------------------------------------------------------------------------
# 12. Directory loops through symlinks.
# --------------------------------------------------------------------------------------

needs_symlinks = pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")


@needs_symlinks
def test_symlink_loop_directory_lint(tmp_path: Path) -> None:
    write(tmp_path / "d" / "tools.json", catalog(GOOD_TOOL))
    write(tmp_path / "d" / "sub" / "b.tools.yaml", "- name: b\n  description: Short\n  annotations: {}\n")
    os.symlink(tmp_path / "d", tmp_path / "d" / "loop")
    os.symlink("..", tmp_path / "d" / "sub" / "up")
    os.symlink("self.tools.json", tmp_path / "d" / "self.tools.json")  # a file link to itself
    done = catalint("lint", "--output-format", "json", "--select", "DESC-001", "d", cwd=tmp_path, timeout=20)
    no_crash(done)
    files = sorted(Path(f["file"]).as_posix() for f in json.loads(done.stdout)["files"])
    assert files == ["d/sub/b.tools.yaml", "d/tools.json"]
    one_error(done, "d/self.tools.json: error: ")


@needs_symlinks
def test_symlink_loop_directory_trace_score(tmp_path: Path) -> None:
    shutil.copy(EXAMPLE_RUNS, write(tmp_path / "d" / "sub" / "a.jsonl", ""))
    os.symlink(tmp_path / "d", tmp_path / "d" / "loop")
    os.symlink("..", tmp_path / "d" / "sub" / "up")
    os.symlink("sub/a.jsonl", tmp_path / "d" / "alias.jsonl")
    os.symlink("x2.json", tmp_path / "d" / "x1.json")
    os.symlink("x1.json", tmp_path / "d" / "x2.json")
    done = catalint("trace", "score", "--output-format", "json", "d", cwd=tmp_path, timeout=20)
    no_crash(done)
    assert done.code == 0, done.stderr
    [scenario] = json.loads(done.stdout)["scenarios"]
    assert scenario["runs"] == 3  # the one file of three runs, read once


@needs_symlinks
def test_a_linked_alias_is_linted_once_by_its_targets_name(cli, tmp_path: Path) -> None:
    # the alias sorts first, but the report names the file a user edits
    write(tmp_path / "d" / "tools.json", catalog(GOOD_TOOL))
    os.symlink("tools.json", tmp_path / "d" / "alias.tools.json")
    result = cli("lint", "--output-format", "json", "--select", "DESC-001", "d")
    [finding] = json.loads(result.stdout)["findings"]
    assert finding["file"] == "d/tools.json"
    # named on the command line, the name given first is the one reported
    result = cli("lint", "--output-format", "json", "--select", "DESC-001", "d/alias.tools.json", "d")
    [finding] = json.loads(result.stdout)["findings"]
    assert finding["file"] == "d/alias.tools.json"


# --------------------------------------------------------------------------------------
# 13. No half-written output.
# --------------------------------------------------------------------------------------

OLD = "previous report\n"


def _temp_files(directory: Path) -> list[str]:
    return [name for name in listing(directory) if name.startswith(".")]


@pytest.mark.parametrize("fmt", ["json", "sarif", "gitlab"])
def test_report_on_bad_input_is_whole_and_names_the_error(cli, tmp_path: Path, fmt: str) -> None:
    """A file that cannot be read is part of the report (the others are still linted): the report is whole."""
    write(tmp_path / "bad.json", '{"tools": [')
    write(tmp_path / f"out.{fmt}", OLD)
    result = cli("lint", "--output-format", fmt, "-o", f"out.{fmt}", "--report", f"{fmt}:second.{fmt}", "bad.json")
    one_error(result, "bad.json:1:12: error: ")
    for name in (f"out.{fmt}", f"second.{fmt}"):
        text = (tmp_path / name).read_text()
        assert "bad.json" in text
        json.loads(text)
    assert _temp_files(tmp_path) == []


@pytest.mark.parametrize(
    "option",
    [["-o", "out/report.json"], ["--report", "sarif:out/report.json"]],
    ids=["output-file", "report"],
)
@pytest.mark.parametrize("where", ["parent-is-a-file", "read-only-dir"])
def test_unwritable_output(cli, tmp_path: Path, option: list[str], where: str) -> None:
    write(tmp_path / "good.json", catalog(GOOD_TOOL))
    if where == "parent-is-a-file":
        write(tmp_path / "out", "not a directory")
    elif where == "read-only-dir":
        if os.geteuid() == 0:
            pytest.skip("root writes to read-only directories")
        (tmp_path / "out").mkdir()
        (tmp_path / "out").chmod(0o500)
    try:
        result = cli("lint", "--output-format", "json", *option, "good.json")
    finally:
        if (tmp_path / "out").is_dir():
            (tmp_path / "out").chmod(0o700)
    line = one_error(result, "out/report.json: error: cannot write report: ")
    assert not (tmp_path / "out" / "report.json").exists()
    assert line.count("\n") == 0
    if (tmp_path / "out").is_dir():
        assert listing(tmp_path / "out") == []
    assert _temp_files(tmp_path) == []


@pytest.mark.parametrize(
    "option",
    [["-o", "out/deeper/report.json"], ["--report", "sarif:out/deeper/report.json"]],
    ids=["output-file", "report"],
)
def test_a_missing_folder_is_made_only_for_a_report_that_is_written(cli, tmp_path: Path, option: list[str]) -> None:
    # as ruff makes --output-file's folders; a run that cannot write all its outputs leaves none of them
    write(tmp_path / "good.json", catalog(GOOD_TOOL))
    if Path("/dev/full").exists():
        other = ["--report", "json:/dev/full"] if option[0] == "-o" else ["-o", "/dev/full"]
        one_error(cli("lint", "--output-format", "json", *option, *other, "good.json"), "/dev/full: error: ")
        assert listing(tmp_path) == ["good.json"]
    result = cli("lint", "--output-format", "json", *option, "good.json", "--exit-zero")
    assert result.exit_code == 0 and json.loads((tmp_path / "out" / "deeper" / "report.json").read_text())
    assert _temp_files(tmp_path / "out" / "deeper") == []
    # a report on bad input is written whole, naming the error, as ever: its folders are made for it
    write(tmp_path / "bad.json", '{"tools": [')
    option = [option[0], option[1].replace("deeper", "bad")]
    one_error(cli("lint", "--output-format", "json", *option, "bad.json"), "bad.json:1:12: error: ")
    assert "bad.json" in (tmp_path / "out" / "bad" / "report.json").read_text()


@pytest.mark.parametrize("option", ["-o", "--report"])
def test_a_full_disk_leaves_the_old_report(tmp_path: Path, option: str) -> None:
    """RLIMIT_FSIZE makes writes past 4 KiB fail with EFBIG, as a full disk would."""
    pytest.importorskip("resource")
    write(tmp_path / "good.json", catalog(GOOD_TOOL))
    write(tmp_path / "out.sarif", OLD)
    target = "out.sarif" if option == "-o" else "sarif:out.sarif"
    done = catalint(
        "lint", "--output-format", "sarif", option, target, "good.json", cwd=tmp_path, timeout=30, max_file_size=4096
    )
    one_error(done, "out.sarif: error: cannot write report: ")
    assert (tmp_path / "out.sarif").read_text() == OLD
    assert listing(tmp_path) == ["good.json", "out.sarif"]


def test_a_reader_that_went_away_is_not_an_error(tmp_path: Path) -> None:
    """`catalint lint ... | true`: entry() treats a broken pipe as the end of the run, not an error."""
    write(tmp_path / "good.json", catalog(GOOD_TOOL))
    proc = subprocess.Popen(
        [*_command(), "lint", "good.json"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None
    proc.stdout.close()  # long before the report is written
    _, err = proc.communicate(timeout=30)
    assert err.decode() == ""
    assert proc.returncode in (0, 1)


def test_a_fatal_error_leaves_the_old_report(cli, tmp_path: Path) -> None:
    """A bad config file (also untrusted) stops the run before any report: the old ones stay as they were."""
    write(tmp_path / "good.json", catalog(GOOD_TOOL))
    write(tmp_path / "catalint.toml", 'severity = {DESC-001 = "loud"}\n')
    write(tmp_path / "out.json", OLD)
    write(tmp_path / "out.sarif", OLD)
    result = cli("lint", "--output-format", "json", "-o", "out.json", "--report", "sarif:out.sarif", "good.json")
    one_error(result, "error: catalint.toml:1:13: severity.DESC-001: unknown severity 'loud'")
    assert (tmp_path / "out.json").read_text() == OLD
    assert (tmp_path / "out.sarif").read_text() == OLD
    assert listing(tmp_path) == ["catalint.toml", "good.json", "out.json", "out.sarif"]


def test_bad_bench_spec_writes_no_report(cli, tmp_path: Path) -> None:
    write(tmp_path / "spec.yaml", "intents: [\n")
    write(tmp_path / "old.json", OLD)
    one_error(cli("bench", "run", "spec.yaml", "-o", "new.json"), "spec.yaml:2:1: error: ")
    one_error(cli("bench", "run", "spec.yaml", "-o", "old.json"), "spec.yaml:2:1: error: ")
    assert listing(tmp_path) == ["old.json", "spec.yaml"]
    assert (tmp_path / "old.json").read_text() == OLD


def test_trace_distract_output_on_bad_input_and_unwritable_dir(cli, tmp_path: Path) -> None:
    write(tmp_path / "bad.json", b"\x89PNG\r\n")
    write(tmp_path / "good.json", catalog(CLEAN_TOOL))
    write(tmp_path / "padded.json", OLD)
    one_error(cli("trace", "distract", "bad.json", "--count", "2", "-o", "padded.json"), "bad.json:1:1: error: ")
    one_error(cli("trace", "distract", "bad.json", "--count", "2", "-o", "new.json"), "bad.json:1:1: error: ")
    result = cli("trace", "distract", "good.json", "--count", "2", "-o", "good.json/padded.json")
    one_error(result, "good.json/padded.json: error: cannot write the catalog: ")
    assert (tmp_path / "padded.json").read_text() == OLD
    assert listing(tmp_path) == ["bad.json", "good.json", "padded.json"]


def test_trace_distract_full_disk(tmp_path: Path) -> None:
    pytest.importorskip("resource")
    write(tmp_path / "good.json", catalog(CLEAN_TOOL))
    write(tmp_path / "padded.json", OLD)
    done = catalint(
        "trace", "distract", "good.json", "--count", "20", "-o", "padded.json", cwd=tmp_path, max_file_size=2048
    )
    one_error(done, "padded.json: error: cannot write the catalog: ")
    assert (tmp_path / "padded.json").read_text() == OLD
    assert listing(tmp_path) == ["good.json", "padded.json"]


def _snapshot_args(out: str, mode: str) -> list[str]:
    return ["snapshot", "-o", out, "--timeout", "20", "--", sys.executable, str(SERVER_SCRIPT), mode, "5", "2"]


@pytest.mark.parametrize("out", ["tools.json", "sub/tools.yaml"])
def test_snapshot_crash_writes_nothing(cli, tmp_path: Path, out: str) -> None:
    pytest.importorskip("mcp")
    (tmp_path / "sub").mkdir()
    result = cli(*_snapshot_args(out, "crash"))
    one_error(result, "error: snapshot failed: ")
    assert listing(tmp_path) == ["sub"] and listing(tmp_path / "sub") == []


def test_snapshot_into_an_unwritable_place(cli, tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    (tmp_path / "file").write_text("")
    result = cli(*_snapshot_args("file/tools.json", "normal"))
    one_error(result, "file/tools.json: error: cannot write the snapshot: ")
    assert listing(tmp_path) == ["file"]


def test_snapshot_full_disk_leaves_the_old_file(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    pytest.importorskip("resource")
    write(tmp_path / "tools.json", OLD)
    done = catalint(*_snapshot_args("tools.json", "normal"), cwd=tmp_path, timeout=60, max_file_size=512)
    one_error(done, "tools.json: error: cannot write the snapshot: ")
    assert (tmp_path / "tools.json").read_text() == OLD
    assert listing(tmp_path) == ["tools.json"]


HOSTILE_SERVER = r"""
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    head = '{"jsonrpc": "2.0", "id": %s, "result": ' % json.dumps(msg["id"])
    if msg.get("method") == "initialize":
        version = json.dumps(msg["params"]["protocolVersion"])
        body = ('{"protocolVersion": %s, "capabilities": {"tools": {}}, '
                '"serverInfo": {"name": "h", "version": "1"}}' % version)
    elif msg.get("method") == "tools/list":
        body = ('{"tools": [{"name": "a", "description": "Get a. Returns b.", "inputSchema": {"type": "object", '
                '"properties": {"p": {"type": "number", "default": NaN, "maximum": Infinity, "minimum": 1e400}}}}]}')
    else:
        body = "{}"
    sys.stdout.write(head + body + "}\n")
    sys.stdout.flush()
"""


def test_snapshot_of_a_server_sending_nan_is_readable(cli, tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    write(tmp_path / "server.py", HOSTILE_SERVER)
    result = cli("snapshot", "-o", "tools.json", "--timeout", "20", "--", sys.executable, "server.py")
    if result.exit_code == 0:
        assert cli("lint", "--no-gate", "tools.json").exit_code in (0, 1)  # catalint reads what it wrote
    else:
        one_error(result, "error: snapshot failed: ")
        assert not (tmp_path / "tools.json").exists()


# --------------------------------------------------------------------------------------
# 14. One hostile file among good ones.
# --------------------------------------------------------------------------------------

HOSTILE_FILES: dict[str, bytes] = {
    "binary.json": PNG,
    "empty.json": b"",
    "deep.json": b"[" * DEEP,
    "bomb.yaml": _bomb(10, 10, False).encode(),
    "dup.json": b'{"tools": [{"name": "a", "name": "b"}]}',
    "nan.json": b'{"tools": [{"name": "a", "x": NaN}]}',
    "utf8.json": b'{"tools": [{"name": "\xff"}]}',
    "utf16.json": catalog(GOOD_TOOL).encode("utf-16-le"),
    "keys.yaml": b"tools:\n  - name: a\n    ? [x]\n    : 1\n",
    "shape.json": b'{"tools": [{"name": 5}]}',
    "many.json": json.dumps({"tools": [{"name": "t"}] * (MAX_TOOLS + 1)}).encode(),
    "missing.json": b"",  # deleted below: a path that does not exist
}


def test_hostile_files_among_good_ones(cli, tmp_path: Path) -> None:
    write(tmp_path / "a.json", catalog(GOOD_TOOL))
    write(tmp_path / "z.yaml", "- name: yaml_tool\n  description: Short\n  annotations: {}\n")
    for name, data in HOSTILE_FILES.items():
        write(tmp_path / name, data)
    (tmp_path / "missing.json").unlink()
    names = ["a.json", *HOSTILE_FILES, "z.yaml"]
    result = cli("lint", "--select", "DESC-001", *names)
    no_crash(result)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert [line.split(":")[0] for line in lines] == list(HOSTILE_FILES)
    assert all(": error: " in line for line in lines)
    assert "a.json:5:22: DESC-001 [critical] get_weather" in result.stdout
    assert "z.yaml:2:16: DESC-001 [critical] yaml_tool" in result.stdout
    assert f"{len(HOSTILE_FILES)} files could not be read" in result.stdout


def test_hostile_files_in_a_directory_json_report(cli, tmp_path: Path) -> None:
    write(tmp_path / "proj" / "a.tools.json", catalog(GOOD_TOOL))
    for name, data in HOSTILE_FILES.items():
        if name != "missing.json":
            write(tmp_path / "proj" / "bad" / name.replace(".", ".tools."), data)
    result = cli("lint", "--output-format", "json", "--select", "DESC-001", "proj")
    no_crash(result)
    assert result.exit_code == 2
    doc = json.loads(result.stdout)
    assert [f["file"] for f in doc["files"]] == [str(Path("proj") / "a.tools.json")]
    assert len(doc["errors"]) == len(HOSTILE_FILES) - 1 == len(result.stderr.splitlines())
    assert [(f["tool"], f["code"]) for f in doc["findings"]] == [("get_weather", "DESC-001")]


# --------------------------------------------------------------------------------------
# Property-based: every command, generated or mutated input, ends in 0, 1 or 2, and an
# exit 2 has one stderr line per bad file. NASTY leaves out what has its own tests above:
# 10**400, 800-deep nesting, YAML tags such as !!set, and lone surrogate escapes (in-process,
# CliRunner's output would refuse them where the console script's stdout escapes them).
# --------------------------------------------------------------------------------------

PROPERTY = settings(
    max_examples=int(os.environ.get("CATALINT_FUZZ_EXAMPLES", "60")),  # raise it for a longer campaign
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)

NASTY = [
    "NaN",
    "-Infinity",
    "1e309",
    "9" * 30,
    "\x00",
    "\ufeff",
    "\u202e",
    "&a ",
    "*a",
    "!!str ",
    "!!binary ",
    "!!python/name:os.system ",
    "? [x]\n: ",
    "<<: ",
    "\n---\n",
    '"',
    "'",
    "{",
    "}",
    "[",
    "]",
    ",",
    ": ",
    "\n  - ",
    "\t",
    "\\u0000",
    "#",
    "~",
    "null",
    "true",
    ".inf",
    "%YAML 1.1\n",
    "\r",
]


@st.composite
def mutated(draw: Any, text: str) -> str:
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 12))
        insert = draw(st.one_of(st.text(max_size=6), st.sampled_from(NASTY)))
        text = text[:at] + insert + text[at + cut :]
    return text


def contract(result: Any, bad_files: int = 1) -> None:
    no_crash(result)
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.stderr[-2000:])
    if result.exit_code == 2:
        errors = [line for line in result.stderr.splitlines() if ": notice: " not in line]
        assert len(errors) == bad_files, result.stderr[-3000:]


GOOD_JSON = catalog(
    CLEAN_TOOL,
    {
        "name": "list_files",
        "description": "List the files in a folder. Returns their names.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "pattern": "^/", "default": "/tmp", "maxLength": 200},
                "kind": {"enum": ["file", "dir"], "default": "file"},
                "depth": {"type": "integer", "minimum": 0, "maximum": 10, "examples": [1, 2]},
            },
            "required": ["path"],
            "$defs": {"node": {"$ref": "#/$defs/node"}},
        },
    },
)
GOOD_YAML = """tools:
  - &t
    name: get_forecast
    description: Get the weather forecast for a city. Returns JSON.
    inputSchema:
      type: object
      properties:
        city: {type: string, description: City name, maxLength: 80, default: Paris}
        days: {type: integer, enum: [1, 3, 7]}
      required: [city]
      additionalProperties: false
    annotations: {readOnlyHint: true}
  - <<: *t
    name: get_alerts
"""

_LINE_FILE = re.compile(r"^(.*?)(?::\d+:\d+)?: error: ")


@PROPERTY
@given(st.data())
def test_lint_a_directory_of_mutated_catalogs(cli, tmp_path: Path, data: st.DataObject) -> None:
    root = tmp_path / "proj"
    shutil.rmtree(root, ignore_errors=True)
    files = {
        "a.tools.json": data.draw(mutated(GOOD_JSON)),
        "b.tools.yaml": data.draw(mutated(GOOD_YAML)),
        "sub/tools.yml": data.draw(mutated(GOOD_YAML)),
        "sub/deeper/tools.json": GOOD_JSON,
    }
    for rel, text in files.items():
        write(root / rel, text.encode("utf-8", "surrogatepass"))
    result = cli("lint", "--output-format", "json", "--no-gate", "proj")
    no_crash(result)
    assert result.exit_code in (0, 1, 2)
    doc = json.loads(result.stdout)
    linted = {Path(f["file"]).relative_to("proj").as_posix() for f in doc["files"]}
    failed = []
    for line in result.stderr.splitlines():
        found = _LINE_FILE.match(line)
        assert found, line
        failed.append(Path(found.group(1)).relative_to("proj").as_posix())
    assert len(failed) == len(set(failed))  # one line per bad file
    assert linted.isdisjoint(failed) and linted | set(failed) == set(files)
    assert (result.exit_code == 2) == bool(failed)


@PROPERTY
@given(mutated(GOOD_YAML), st.sampled_from(["t.yaml", "t.yml", "-"]))
def test_lint_mutated_yaml(cli, tmp_path: Path, text: str, name: str) -> None:
    if name == "-":
        result = cli("lint", "--no-gate", "--stdin-filename", "in.yaml", "-", input=text)
        name = "in.yaml"
    else:
        write(tmp_path / name, text)
        result = cli("lint", "--no-gate", "--target", "openai-strict", "--target", "gemini", name)
    contract(result)
    if result.exit_code == 2:
        assert result.stderr.startswith(name)


def test_rules_in_every_format(cli) -> None:
    for fmt in ("text", "json", "markdown"):
        result = cli("rules", "--output-format", fmt)
        no_crash(result)
        assert result.exit_code == 0 and result.stderr == ""


@PROPERTY
@given(st.one_of(st.text(max_size=40), st.sampled_from(["TDQS", " gate ", "trace", "DESC-001", "desc-001 ", "*", ""])))
def test_rule_with_any_code(cli, code: str) -> None:
    result = cli("rule", "--", code)
    contract(result)
    if result.exit_code == 2:  # an unknown code, or a prefix that names several rules (DESC, C)
        assert result.stderr.startswith(("error: unknown rule ", f"error: {code!r} names "))
    else:
        assert result.exit_code == 0 and result.stdout


BENCH_YAML = """name: weather
catalog:
  tools:
    - {name: weather_now, description: Report the humidity and wind for a city.}
    - {name: city_guide, description: "Sights, museums and restaurants worth a visit."}
    - {name: stock_quote, description: Latest share price of a listed company.}
intents:
  - {query: humidity in Lisbon, gold: [weather_now]}
  - {query: share price of ACME, gold: [stock_quote]}
  - {query: museums to visit, gold: [city_guide, weather_now]}
mutations:
  - {tool: weather_now, kind: truncate, chars: 10}
  - {tool: city_guide, kind: drop_keyword, word: museums}
  - {tool: stock_quote, kind: blank}
  - {tool: stock_quote, kind: genericize}
"""
BENCH_JSON = json.dumps(
    {
        "catalog_path": "catalog.json",
        "intents": [
            {"query": "weather in Paris", "gold": ["get_forecast"]},
            {"query": "files", "gold": ["list_files"]},
        ],
        "mutations": [{"tool": "get_forecast", "kind": "drop_keyword", "word": "weather"}],
    },
    indent=2,
)


@PROPERTY
@given(
    st.one_of(mutated(BENCH_YAML).map(lambda t: ("spec.yaml", t)), mutated(BENCH_JSON).map(lambda t: ("spec.json", t)))
)
def test_bench_run_mutated_specs(cli, tmp_path: Path, spec: tuple[str, str]) -> None:
    name, text = spec
    write(tmp_path / "catalog.json", GOOD_JSON)
    write(tmp_path / name, text)
    result = cli("bench", "run", "--output-format", "json", name)
    contract(result)
    if result.exit_code != 2:
        json.loads(result.stdout)


@PROPERTY
@given(
    st.one_of(mutated(GOOD_JSON).map(lambda t: ("head.json", t)), mutated(GOOD_YAML).map(lambda t: ("head.yaml", t))),
    st.sampled_from(["text", "json", "markdown"]),
)
def test_diff_with_a_mutated_head(cli, tmp_path: Path, head: tuple[str, str], fmt: str) -> None:
    name, text = head
    write(tmp_path / "base.json", GOOD_JSON)
    write(tmp_path / name, text)
    result = cli("diff", "--output-format", fmt, "--exit-code", "base.json", name)
    contract(result)
    if result.exit_code == 2:
        assert result.stderr.startswith(name)
    elif fmt == "json":
        json.loads(result.stdout)


SUITE = """tool_quality:
  - name: good one
    catalog: good.json
    expect:
      - min_score: {">=": 0.1}
      - target: mean_score
        matcher: {schema: {minimum: 0.1}}
      - tool["get_forecast"].score: {"<=": 1}
  - {name: yaml one, catalog: good.yaml}
agents:
  - name: research agent
    prompt: How many people live in Paris?
    equal_function_sets:
      classes:
        - {name: search, members: [search.web_search, search.news_search]}
      expect:
        - tool_selection.f1: {">=": 50}
    orchestration:
      expect:
        - target: calls.schema_compliance
          matcher: {schema: {minimum: 10}}
"""


def _has_two_key_expect_item(text: str) -> bool:
    """The known bug of test_suite_expect_item_with_two_keys, kept out of the property test below."""
    import yaml

    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError:
        return False
    blocks = doc.get("tool_quality") if isinstance(doc, dict) else None
    for block in blocks if isinstance(blocks, list) else []:
        items = block.get("expect") if isinstance(block, dict) else None
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and len(item) > 1 and "target" not in item:
                return True
    return False


def test_suite_expect_item_with_two_keys(cli, tmp_path: Path) -> None:
    write(tmp_path / "good.json", catalog(GOOD_TOOL))
    write(
        tmp_path / "suite.yml",
        "tool_quality:\n  - name: g\n    catalog: good.json\n    expect:\n"
        '      - {min_score: {">=": 0.1}, mean_score: {">=": 0.1}}\n',
    )
    one_error(cli("check", "suite.yml"), "suite.yml:5:")


@PROPERTY
@given(mutated(SUITE), st.booleans())
def test_check_mutated_suites(cli, tmp_path: Path, text: str, with_traces: bool) -> None:
    assume(not _has_two_key_expect_item(text))
    write(tmp_path / "good.json", GOOD_JSON)
    write(tmp_path / "good.yaml", GOOD_YAML)
    write(tmp_path / "search.json", EXAMPLE_SEARCH.read_text())
    (tmp_path / "runs").mkdir(exist_ok=True)
    shutil.copy(EXAMPLE_RUNS, tmp_path / "runs" / "research-agent.jsonl")
    write(tmp_path / "suite.yml", text)
    extra = ["--traces", "runs", "--catalog", "search=search.json"] if with_traces else []
    result = cli("check", "suite.yml", *extra)
    contract(result)


TRACE_SPEC = """equal_function_sets:
  classes:
    - {name: search, members: [search.web_search, search.news_search]}
    - {name: fetch, members: [fetch.fetch]}
  expect:
    - tool_selection.f1: {">=": 50}
orchestration:
  expect:
    - target: calls.schema_compliance
      matcher: {schema: {minimum: 10}}
token_efficiency:
  classes:
    - {name: search, members: [web_search]}
"""
RUNS_JSONL = EXAMPLE_RUNS.read_text(encoding="utf-8")
RUNS_JSON = json.dumps([json.loads(line) for line in RUNS_JSONL.splitlines()], indent=1)


@PROPERTY
@given(
    st.one_of(mutated(RUNS_JSONL).map(lambda t: ("runs.jsonl", t)), mutated(RUNS_JSON).map(lambda t: ("runs.json", t))),
    st.sampled_from(["text", "json"]),
)
def test_trace_score_mutated_traces(cli, tmp_path: Path, trace: tuple[str, str], fmt: str) -> None:
    name, text = trace
    write(tmp_path / "search.json", EXAMPLE_SEARCH.read_text())
    write(tmp_path / "spec.yml", TRACE_SPEC)
    write(tmp_path / name, text)
    result = cli("trace", "score", "--spec", "spec.yml", "--catalog", "search.json", "--output-format", fmt, name)
    contract(result)
    if result.exit_code == 2:
        assert result.stderr.startswith(name)


@PROPERTY
@given(mutated(TRACE_SPEC))
def test_trace_score_mutated_specs(cli, tmp_path: Path, text: str) -> None:
    write(tmp_path / "search.json", EXAMPLE_SEARCH.read_text())
    write(tmp_path / "runs.jsonl", RUNS_JSONL)
    write(tmp_path / "spec.yml", text)
    result = cli("trace", "score", "--spec", "spec.yml", "--catalog", "search.json", "runs.jsonl")
    contract(result)


# --------------------------------------------------------------------------------------
# Patterns that read a window after a key word try only its first few occurrences.
# --------------------------------------------------------------------------------------


def test_match_near_tries_a_bounded_number_of_places() -> None:
    from catalint.text import MATCH_TRIES, LazyRegex, match_near

    tried: list[int] = []

    class Counting:
        def match(self, text: str, pos: int) -> None:
            tried.append(pos)

    starts = LazyRegex(r"\bconvert\b")
    assert not match_near(starts, Counting(), "convert " * 100_000)  # type: ignore[arg-type]
    assert len(tried) == MATCH_TRIES
    window = LazyRegex(r"convert\b[^.\n]{1,80}?\bto\s+\w")
    assert match_near(starts, window, "Convert it. convert an address to coordinates")
    assert not match_near(starts, window, "convert. " * MATCH_TRIES + "convert an address to coordinates")


@pytest.mark.parametrize("word", ["convert ", "example ", "default ", "like ", "such as "])
def test_a_description_repeating_a_key_word_is_linted(tmp_path: Path, word: str) -> None:
    text = "Get the weather. " + word * (2_000_000 // len(word))
    tool = {"name": "get_weather", "description": text, "inputSchema": {"type": "object", "properties": {}}}
    write(tmp_path / "w.tools.json", json.dumps({"tools": [tool]}))
    done = catalint("lint", "w.tools.json", "--select", "DESC-010", "--no-gate", cwd=tmp_path, timeout=60)
    no_crash(done)
    assert done.code == 0
    # None of these words says what comes back, however often it is repeated.
    assert "DESC-010 [warning] get_weather: description never says what the tool returns" in done.stdout


# --------------------------------------------------------------------------------------
# Integers past Python's 4,300-digit limit for decimal text: JSON, and YAML hex literals
# (which the limit does not cover, so every later str() of the value would fail).
# --------------------------------------------------------------------------------------


def test_a_json_integer_of_too_many_digits_is_a_clean_error(cli, tmp_path: Path) -> None:
    text = '{"tools": [{"name": "a", "description": "1' + "1" * 5000 + '", "inputSchema": {"maxProperties": '
    write(tmp_path / "t.json", text + "9" * 5000 + "}}]}")
    line = one_error(cli("lint", "t.json"), "t.json:1:")
    assert line.endswith("error: an integer of 5,000 digits: catalint reads integers of up to 4,300 digits")
    assert line.startswith(f"t.json:1:{len(text) + 1}:")  # the number, not the digits in the string before it


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("t.yaml", ["lint", "--tokens", "--select", "ALL"]),
        ("t.yaml", ["diff", "t.yaml"]),
        ("spec.yaml", ["bench", "run"]),
        ("runs.yaml", ["trace", "score", "--class", "a=b"]),
    ],
)
def test_a_yaml_hex_integer_past_the_limit_is_a_clean_error(cli, tmp_path: Path, name: str, args: list[str]) -> None:
    big = "0x" + "f" * 5000
    schema = f"inputSchema: {{maxProperties: {big}}}"
    write(tmp_path / "t.yaml", f"tools:\n- name: a\n  description: Get a thing.\n  {schema}\n")
    write(tmp_path / "spec.yaml", f"catalog: t.yaml\nintents:\n- {{query: a, gold: [a], weight: {big}}}\n")
    write(tmp_path / "runs.yaml", f"tool_calls:\n- {{name: a, args: {{n: {big}}}}}\n")
    line = one_error(cli(*args, name), name)
    assert "an integer of about 6,021 digits: catalint reads integers of up to 4,300 digits" in line


# --------------------------------------------------------------------------------------
# YAML documents that hold themselves (an alias to an enclosing anchor): no JSON form.
# --------------------------------------------------------------------------------------

RECURSIVE_YAML = {
    "mapping": "tools:\n- name: a\n  description: Get a thing.\n  inputSchema: &s\n    properties:\n      loop: *s\n",
    "sequence": "tools:\n- name: a\n  description: Get a thing.\n  inputSchema: {enum: &e [1, *e]}\n",
    "beside-tools": "meta: &m {self: *m}\ntools:\n- name: a\n  description: Get a thing.\n",
    # a recursive node and a tag the loader cannot build: looking for the failing node once looped forever
    "with-bad-tag": "tools:\n- name: a\n  inputSchema: &s\n    x: !!int abc\n    loop: *s\n",
}


@pytest.mark.parametrize("case", RECURSIVE_YAML)
@pytest.mark.parametrize("command", [["lint"], ["bench", "run"], ["trace", "score", "--class", "a=b"], ["check"]])
def test_a_recursive_yaml_document_is_a_quick_clean_error(tmp_path: Path, case: str, command: list[str]) -> None:
    write(tmp_path / "t.yaml", RECURSIVE_YAML[case])
    done = catalint(*command, "t.yaml", cwd=tmp_path, timeout=20)
    line = one_error(done, "t.yaml:")
    assert "holds an alias to itself" in line or "cannot read this value" in line


def test_a_yaml_decimal_integer_past_the_limit_says_so(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.yaml", "tools:\n- name: a\n  inputSchema: {maxLength: " + "9" * 4401 + "}\n")
    line = one_error(cli("lint", "t.yaml"), "t.yaml:3:")
    assert line.endswith("error: an integer of 4,401 digits: catalint reads integers of up to 4,300 digits")


def test_a_finding_hundreds_of_levels_down_is_placed_at_a_reachable_ancestor(cli, tmp_path: Path) -> None:
    schema: dict[str, Any] = {"type": "null"}
    for _ in range(250):
        schema = {"anyOf": [schema]}
    write(
        tmp_path / "t.json",
        json.dumps({"tools": [{"name": "deep", "description": "Deep tool.", "inputSchema": schema}]}),
    )
    result = cli("lint", "t.json", "--target", "anthropic", "--output-format", "json")
    assert result.exit_code == 1, result.stderr
    doc = json.loads(result.stdout)
    assert doc["findings"] and all(f["line"] >= 1 for f in doc["findings"])


@pytest.mark.parametrize("value", ['!!int ""', "!!int -", '!!float ""', "!!float _"])
def test_a_yaml_number_tag_on_an_empty_or_sign_only_value(cli, tmp_path: Path, value: str) -> None:
    write(tmp_path / "t.yaml", f"tools: [{{name: t, inputSchema: {{maximum: {value}}}}}]\n")
    assert "cannot read this value as" in one_error(cli("lint", "t.yaml"), "t.yaml:1:")


@pytest.mark.parametrize("brk", ["\x85", "\u2028", "\x0b", "\x1e"])
def test_an_error_naming_a_key_with_a_line_break_stays_one_line(cli, tmp_path: Path, brk: str) -> None:
    # found by the property test of bench specs: U+0085 in a key split the error in two for splitlines()
    (tmp_path / "spec.json").write_text(
        json.dumps({f"{brk}catalog_path": "c.json", "intents": [{"query": "q", "gold": ["t"]}]}), encoding="utf-8"
    )
    result = cli("bench", "run", str(tmp_path / "spec.json"))
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert repr(brk)[1:-1] in result.stderr


def test_every_command_error_is_one_line(cli) -> None:
    result = cli("lint", "--config", "no\u2028such.toml", "x.json")  # the path is printed as given
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and "no\\u2028such.toml" in result.stderr


# --------------------------------------------------------------------------------------
# Config files: a pull request can change them too.
# --------------------------------------------------------------------------------------

GOOD_CONFIG = """\
select = ["DESC", "SCH"]
extend-select = ["CAT-004"]
ignore = ["DESC-012"]
fail-severity = "warning"
include = ["*.tools.json"]
tool-token-budget = 600
targets = ["openai"]

[severity]
DESC-010 = "info"

[per-file-ignores]
"legacy/*.json" = ["DESC-004"]

[gate]
min_score = 0.4
mean_score = { ">=" = 0.6 }

[[per-tool-ignores]]
tools = ["debug_*"]
rules = ["DESC-001"]
reason = "internal tools"
"""

CONFIG_KEYS = [
    *"select extend-select ignore per-file-ignores per-tool-ignores severity fail-severity include".split(),
    *"exclude force-exclude tool-token-budget catalog-token-budget gate extend-gate targets extend".split(),
    *"extend-include extend-exclude respect-gitignore".split(),
    "tool",
    "selekt",
]


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string (but for DEL)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{_toml_value(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=8)  # TOML holds no lone surrogate
_scalars = st.one_of(
    st.booleans(),
    st.integers(-5, 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(["DESC", "DESC-001", "SCH-004", "ALL", "warning", "critical", "*.json", "openai", "", "x"]),
    _text,
)
_toml_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_text, inner, max_size=3)),
    max_leaves=6,
)
_codes = st.lists(st.sampled_from(["DESC", "SCH-004", "ALL", "CAT", "DESC-001", "CMP", "SEC-001"]), max_size=3)
_VALID: dict[str, Any] = {  # values each setting takes, so that runs get past the first key to the lint
    "select": _codes,
    "extend-select": _codes,
    "ignore": _codes,
    "per-file-ignores": st.dictionaries(st.sampled_from(["*.json", "cfg/*", "x"]), _codes, max_size=2),
    "per-tool-ignores": st.lists(
        st.fixed_dictionaries({"tools": st.just(["get_*"]), "rules": _codes}, optional={"reason": _text}), max_size=2
    ),
    "severity": st.dictionaries(st.sampled_from(["DESC-001", "SCH"]), st.sampled_from(["info", "critical"])),
    "fail-severity": st.sampled_from(["critical", "warning", "info"]),
    "include": st.lists(st.sampled_from(["*.json", "*.tools.json"]), max_size=2),
    "exclude": st.lists(st.sampled_from(["vendor", "*.yaml"]), max_size=2),
    "force-exclude": st.booleans(),
    "extend-include": st.lists(st.sampled_from(["*.json", "sub/*.json"]), max_size=2),
    "extend-exclude": st.lists(st.sampled_from(["vendor", "cfg/*.json", "**/gen"]), max_size=2),
    "respect-gitignore": st.booleans(),
    "tool-token-budget": st.integers(1, 2000),
    "catalog-token-budget": st.integers(1, 10**6),
    "gate": st.one_of(st.booleans(), st.dictionaries(st.sampled_from(["min_score", "mean_score"]), st.floats(0, 1))),
    "extend-gate": st.lists(st.sampled_from(["warning_count<=9", "mean_score>=0.1"]), max_size=2),
    "targets": st.lists(st.sampled_from(["openai", "anthropic", "gemini", "mcp"]), max_size=2),
    # base.toml is written beside it (ignore = ["DESC-012"]); the rest: itself, missing, a folder, a device
    "extend": st.sampled_from(["base.toml", "./base.toml", "catalint.toml", "nope.toml", "", ".", "/dev/null"]),
}
_settings = st.lists(st.sampled_from(sorted(_VALID)), max_size=3, unique=True).flatmap(
    lambda keys: st.fixed_dictionaries({k: st.one_of(*[_VALID[k]] * 4, _toml_values) for k in keys})
)  # each key's own kind of value four times in five, so that most runs get to the lint
_configs = st.one_of(
    _settings,
    _settings,
    _settings,
    st.dictionaries(st.sampled_from(CONFIG_KEYS), _toml_values, max_size=4),  # anything, unknown keys too
)


@settings(PROPERTY, max_examples=PROPERTY.max_examples * 5)  # a run takes a few milliseconds
@given(st.one_of(mutated(GOOD_CONFIG), _configs), st.sampled_from(["cfg/a.tools.json", "cfg", "."]))
def test_any_config_file_is_read_or_refused_in_one_line(cli, tmp_path: Path, config: Any, target: str) -> None:
    root = tmp_path / "cfg"
    shutil.rmtree(root, ignore_errors=True)
    text = config if isinstance(config, str) else "".join(f"{k} = {_toml_value(v)}\n" for k, v in config.items())
    write(root / "catalint.toml", text.encode("utf-8", "surrogatepass"))
    write(root / "a.tools.json", GOOD_JSON)
    write(root / "base.toml", b'ignore = ["DESC-012"]\n')
    result = cli("lint", target)  # a named file, or a walk (include, exclude, respect-gitignore)
    no_crash(result)
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.stderr[-2000:])
    if result.exit_code == 2:  # a config error: one line naming the config file, and no report
        errors = [line for line in result.stderr.splitlines() if ": notice: " not in line]
        assert len(errors) == 1, result.stderr[-3000:]
        assert "catalint.toml" in errors[0], errors[0]
        assert result.stdout == ""


def test_sigterm_while_reports_are_written_leaves_no_temporary_file(tmp_path: Path) -> None:
    """SIGTERM (a CI step's timeout) left a half-written .report.sarif.XXXX beside the target, up to 100 MB;
    Ctrl-C already removed it. The signal is sent while the second output renders, the first one staged."""
    script = (
        "import os, signal\n"
        "from catalint.cli import save_all\n"
        "def second():\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    return 'b'\n"
        "save_all([('out/a.sarif', lambda: 'a' * 100_000), ('out/b.json', second)])\n"
        "print('not reached')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == -signal.SIGTERM and "not reached" not in done.stdout  # ended as SIGTERM ends it
    assert listing(tmp_path) == []  # no temporary file, and no folder made for the reports
