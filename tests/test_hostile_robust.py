"""Hostile input, second round: wrong-typed values, deep configs, odd paths and files, full output
streams, and live servers that send too much (the audit of bad and hostile input).

The contract is that of test_hostile: never a traceback or an "internal error", never a hang;
bad input is one stderr line naming the file (and line:col where known) and exit 2, and the
other files of the same run are still linted. Each test has a near miss that must keep working.
"""

from __future__ import annotations

import builtins
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import write
from test_hostile import CLEAN_TOOL, catalint, catalog, no_crash, one_error

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
        ('select = [" "]', "error: catalint.toml:1:1: select: entry 1 is empty"),
        ('extend-select = [""]', "error: catalint.toml:1:1: extend-select: entry 1 is empty"),
        ('[severity]\n"" = "info"', "error: catalint.toml:1:1: severity: an empty key (no rule code given"),
        ('[per-file-ignores]\n"*.json" = [""]', "error: catalint.toml:2:1: per-file-ignores.*.json: entry 1 is empty"),
        (
            '[[per-tool-ignores]]\ntools = ["*"]\nrules = [""]',
            "error: catalint.toml:3:1: per-tool-ignores[0]: rules: entry 1 is empty",
        ),
        (
            '[severity]\n" DESC-001 " = "info"',
            "error: catalint.toml:1:1: severity: unknown rule or prefix ' DESC-001 '",
        ),
        ('[severity]\n"DESC-001 " = "info"', "error: catalint.toml:1:1: severity: unknown rule or prefix 'DESC-001 '"),
        ('select = [",,"]', "error: catalint.toml:1:1: select: unknown rule or prefix ',,'"),
        # an unknown code is placed at its key, as a bad level is (it was at the [severity] header)
        (
            '[severity]\nDESC-001 = "info"\nDESC-999 = "info"',
            "error: catalint.toml:3:1: severity.DESC-999: unknown rule or prefix 'DESC-999'",
        ),
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


# --------------------------------------------------------------------------------------
# Paths: a name over the OS limit, a file or folder that cannot be read, a FIFO in a folder.
# --------------------------------------------------------------------------------------

LONG = "b" * 300  # over NAME_MAX (255) on every common file system


def _errors_and_files(result: Any) -> tuple[list[str], list[str]]:
    report = json.loads(result.stdout)
    return [e["file"] for e in report["errors"]], [f["file"] for f in report["files"]]


@pytest.mark.parametrize("order", ["first", "last"])
def test_a_name_too_long_is_an_unreadable_file(cli, tmp_path: Path, order: str) -> None:
    write(tmp_path / "ok.tools.json", catalog(CLEAN_TOOL))
    paths = [f"{LONG}.json", "ok.tools.json"] if order == "first" else ["ok.tools.json", f"{LONG}.json"]
    result = cli("lint", "--output-format", "json", *paths)
    one_error(result, f"{LONG}.json: error: File name too long")
    assert _errors_and_files(result) == ([f"{LONG}.json"], ["ok.tools.json"])


@pytest.mark.parametrize(
    ("args", "prefix"),
    [
        (["trace", "score", f"{LONG}.json"], f"{LONG}.json: error: File name too long"),
        (["lint", "--config", f"{LONG}.toml", "ok.tools.json"], f"error: --config: {LONG}.toml: File name too long"),
        (["bench", "run", "spec.yaml"], f"spec.yaml:1:15: error: catalog_path '{LONG}.json': File name too long"),
        (["check", "suite.yml", "--traces", "runs"], f"runs: error: no recorded runs for scenario '{LONG}'"),
    ],
    ids=["trace-score", "config", "bench-catalog-path", "check-scenario-name"],
)
def test_a_name_too_long_elsewhere(cli, tmp_path: Path, args: list[str], prefix: str) -> None:
    write(tmp_path / "ok.tools.json", catalog(CLEAN_TOOL))
    write(tmp_path / "spec.yaml", f"catalog_path: {LONG}.json\nintents: [{{query: q, gold: [a]}}]\n")
    write(
        tmp_path / "suite.yml",
        f"servers:\n  s: {{catalog: ok.tools.json}}\nagents:\n  - name: {LONG}\n"
        "    servers: [s]\n    tool_selection: {expected_tool: get_forecast, min_selection_rate: 0.5}\n",
    )
    (tmp_path / "runs").mkdir()
    one_error(cli(*args), prefix)


@pytest.mark.parametrize("how", ["parent-is-a-file", "permission"])
def test_an_unreadable_file_named_on_the_command_line_is_one_error(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """Root reads a mode-000 file, so the permission case is also mocked: click's readable check
    (os.access) and the open both refuse it, as they do for a user without the right."""
    write(tmp_path / "ok.tools.json", catalog(CLEAN_TOOL))
    if how == "parent-is-a-file":
        write(tmp_path / "plain", "a file")
        locked, reason = "plain/tools.json", "Not a directory"
    else:
        locked, reason = "locked.tools.json", "Permission denied"
        write(tmp_path / locked, catalog(CLEAN_TOOL))
        real_access, real_open = os.access, builtins.open

        def access(path: Any, mode: int, *args: Any, **kwargs: Any) -> bool:
            return False if str(path).endswith(locked) else real_access(path, mode, *args, **kwargs)

        def refuse(path: Any, *args: Any, **kwargs: Any) -> Any:
            if str(path).endswith(locked):
                raise PermissionError(13, "Permission denied", str(path))
            return real_open(path, *args, **kwargs)

        monkeypatch.setattr(os, "access", access)
        monkeypatch.setattr(builtins, "open", refuse)
    result = cli("lint", "--output-format", "json", locked, "ok.tools.json")
    one_error(result, f"{locked}: error: {reason}")
    assert _errors_and_files(result) == ([locked], ["ok.tools.json"])


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root and Windows ignore mode 000")
def test_an_unreadable_file_and_folder_for_real(tmp_path: Path) -> None:
    write(tmp_path / "ok.tools.json", catalog(CLEAN_TOOL))
    write(tmp_path / "locked.tools.json", catalog(CLEAN_TOOL))
    write(tmp_path / "sub" / "tools.json", catalog(CLEAN_TOOL))
    (tmp_path / "locked.tools.json").chmod(0)
    (tmp_path / "sub").chmod(0)
    try:
        done = catalint("lint", "--output-format", "json", "locked.tools.json", ".", cwd=tmp_path, timeout=60)
    finally:
        (tmp_path / "sub").chmod(0o755)
        (tmp_path / "locked.tools.json").chmod(0o644)
    no_crash(done)
    assert done.code == 2
    assert done.stderr.splitlines() == [
        "locked.tools.json: error: Permission denied",
        "sub: error: cannot list this folder: Permission denied",
    ]


def _unlistable(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """os.walk cannot list folders called name, as for a user without the right (root lists anything)."""
    real = os.scandir

    def scandir(path: Any = ".") -> Any:
        if os.path.basename(os.fspath(path)) == name:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


def test_an_unreadable_folder_below_a_directory_argument_is_an_error(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "d" / "tools.json", catalog(CLEAN_TOOL))
    write(tmp_path / "d" / "sub" / "tools.json", catalog(CLEAN_TOOL))
    write(tmp_path / "d" / "z" / "tools.json", catalog(CLEAN_TOOL))
    _unlistable(monkeypatch, "sub")
    result = cli("lint", "--output-format", "json", "d")
    one_error(result, "d/sub: error: cannot list this folder: Permission denied")
    assert _errors_and_files(result) == (["d/sub"], ["d/tools.json", "d/z/tools.json"])


def test_an_unreadable_directory_argument_is_an_error_not_an_empty_folder(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "sub" / "tools.json", catalog(CLEAN_TOOL))
    write(tmp_path / "ok.tools.json", catalog(CLEAN_TOOL))
    _unlistable(monkeypatch, "sub")
    result = cli("lint", "--output-format", "json", "sub", "ok.tools.json")
    one_error(result, "sub: error: cannot list this folder: Permission denied")
    assert json.loads(result.stdout)["notices"] == []  # not "no catalog files found"


def test_a_readable_folder_near_miss(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "d" / "sub" / "tools.json", catalog(CLEAN_TOOL))
    _unlistable(monkeypatch, "other")
    result = cli("lint", "d")
    no_crash(result)
    assert result.exit_code == 0 and result.stderr == ""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo_in_a_directory_is_skipped_with_a_notice(tmp_path: Path) -> None:
    """It used to block in open() forever; the console script runs under a time limit."""
    write(tmp_path / "d" / "tools.json", catalog(CLEAN_TOOL))
    os.mkfifo(tmp_path / "d" / "p.tools.json")
    os.symlink("p.tools.json", tmp_path / "d" / "link.tools.json")  # a link to it: the same
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "d" / "s.tools.json"))
        done = catalint("lint", "--output-format", "json", "d", cwd=tmp_path, timeout=30)
    finally:
        sock.close()
    no_crash(done)
    assert done.code == 0, done.stderr
    report = json.loads(done.stdout)
    assert [f["file"] for f in report["files"]] == ["d/tools.json"]
    assert report["notices"] == [
        "d/link.tools.json: notice: skipped: a named pipe (FIFO), not a regular file",
        "d/p.tools.json: notice: skipped: a named pipe (FIFO), not a regular file",
        "d/s.tools.json: notice: skipped: a socket, not a regular file",
    ]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo_named_on_the_command_line_is_still_read_as_a_stream(tmp_path: Path) -> None:
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    os.mkfifo(tmp_path / "p.tools.json")
    import subprocess
    import threading

    def feed() -> None:
        with open(tmp_path / "p.tools.json", "w", encoding="utf-8") as fh:
            fh.write(catalog(CLEAN_TOOL))

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        done = catalint("lint", "--output-format", "json", "p.tools.json", cwd=tmp_path, timeout=30)
    finally:
        if writer.is_alive():  # unblock the writer if catalint never opened the pipe
            subprocess.run(["cat", str(tmp_path / "p.tools.json")], capture_output=True, timeout=5, check=False)
    assert done.code == 0, done.stderr
    assert [f["file"] for f in json.loads(done.stdout)["files"]] == ["p.tools.json"]


@pytest.mark.parametrize(
    ("make", "problem"),
    [("dir", "is a directory"), ("fifo", "not a regular file"), ("missing", "no such file")],
)
def test_config_and_catalog_path_that_are_not_files(cli, tmp_path: Path, make: str, problem: str) -> None:
    if make == "dir":
        (tmp_path / "x").mkdir()
    elif make == "fifo":
        os.mkfifo(tmp_path / "x")
    write(tmp_path / "ok.tools.json", catalog(CLEAN_TOOL))
    one_error(cli("lint", "--config", "x", "ok.tools.json"), f"error: --config: x: {problem}")
    write(tmp_path / "spec.yaml", "catalog_path: x\nintents: [{query: q, gold: [a]}]\n")
    one_error(cli("bench", "run", "spec.yaml"), f"spec.yaml:1:15: error: catalog_path 'x': {problem} (x)")


def test_config_device_is_not_a_regular_file(cli, tmp_path: Path) -> None:
    write(tmp_path / "ok.tools.json", catalog(CLEAN_TOOL))
    one_error(
        cli("lint", "--config", os.devnull, "ok.tools.json"), f"error: --config: {os.devnull}: not a regular file"
    )


# --------------------------------------------------------------------------------------
# Standard output that refuses writes: a full disk, or a stream the run was started without.
# --------------------------------------------------------------------------------------


def _with_stdout(args: list[str], cwd: Path, stdout: str, unbuffered: bool = False) -> tuple[int, str]:
    """The console script with stdout on /dev/full, closed, or /dev/null; (exit code, stderr)."""
    import subprocess

    from test_hostile import _command

    env = {k: v for k, v in os.environ.items() if k not in ("CATALINT_OUTPUT_FORMAT", "CATALINT_DEBUG")}
    env.pop("PYTHONUNBUFFERED", None)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    target = subprocess.DEVNULL if stdout != "full" else open("/dev/full", "wb")
    try:
        done = subprocess.run(
            [*_command(), *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=target,
            stderr=subprocess.PIPE,
            env=env,
            timeout=60,
            preexec_fn=(lambda: os.close(1)) if stdout == "closed" else None,
        )
    finally:
        if stdout == "full":
            target.close()  # type: ignore[union-attr]
    return done.returncode, done.stderr.decode("utf-8", "replace")


COMMANDS = [
    ["rules"],
    ["rules", "--output-format", "json"],
    ["rule", "DESC-001"],
    ["bench", "explain"],
    ["bench", "schema"],
    ["--help"],
    ["--version"],
    ["lint", "tools.json"],
    ["lint", "--output-format", "sarif", "tools.json"],
    ["diff", "tools.json", "tools.json"],
]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: "-".join(a).strip("-"))
@pytest.mark.parametrize("stdout", ["full", "closed"])
def test_standard_output_that_refuses_writes(tmp_path: Path, args: list[str], stdout: str) -> None:
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    code, err = _with_stdout(args, tmp_path, stdout)
    reason = "No space left on device" if stdout == "full" else "it is closed"
    assert (code, err) == (2, f"error: cannot write to standard output: {reason}\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [["rules"], ["lint", "tools.json"]], ids=["rules", "lint"])
def test_standard_output_full_when_unbuffered(tmp_path: Path, args: list[str]) -> None:
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    assert _with_stdout(args, tmp_path, "full", unbuffered=True) == (
        2,
        "error: cannot write to standard output: No space left on device\n",
    )


@pytest.mark.parametrize("args", [["rules"], ["lint", "tools.json"], ["lint", "-o", "out.json", "tools.json"]])
def test_standard_output_near_miss(tmp_path: Path, args: list[str]) -> None:
    """/dev/null takes everything; -o writes elsewhere, so a full stdout is no concern of the run."""
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    assert _with_stdout(args, tmp_path, "null") == (0, "")
    if "-o" in args and os.path.exists("/dev/full"):
        assert _with_stdout(args, tmp_path, "full") == (0, "")


def _with_streams(args: list[str], cwd: Path, stdin: str = "null", stderr: str = "pipe") -> tuple[int, str]:
    """The console script with stdin null, closed or opened for writing only, and stderr piped, closed or on
    /dev/full; (exit code, stderr when piped)."""
    import subprocess

    from test_hostile import _command

    env = {k: v for k, v in os.environ.items() if k not in ("CATALINT_OUTPUT_FORMAT", "CATALINT_DEBUG")}
    closing = [fd for fd, how in ((0, stdin), (2, stderr)) if how == "closed"]
    full = open("/dev/full", "wb") if stderr == "full" else None
    write_only = open(cwd / "in.txt", "wb") if stdin == "write-only" else None
    try:
        done = subprocess.run(
            [*_command(), *args],
            cwd=cwd,
            stdin=write_only or subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=full or subprocess.PIPE,
            env=env,
            timeout=60,
            preexec_fn=(lambda: _close(closing)) if closing else None,
        )
    finally:
        for stream in (full, write_only):
            if stream is not None:
                stream.close()
    return done.returncode, (done.stderr or b"").decode("utf-8", "replace")


def _close(fds: list[int]) -> None:
    for fd in fds:
        os.close(fd)


@pytest.mark.parametrize("stdin", ["closed", "write-only"])
@pytest.mark.parametrize(
    "args",
    [["lint", "-"], ["lint", "--baseline", "-", "tools.json"], ["diff", "-", "tools.json"], ["trace", "score", "-"]],
    ids=lambda a: "-".join(a),
)
def test_standard_input_that_cannot_be_read_is_an_error_naming_it(tmp_path: Path, args: list[str], stdin: str) -> None:
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    if args[0] == "trace":
        args = [*args, "--catalog", "w=tools.json"]
    code, err = _with_streams(args, tmp_path, stdin=stdin)
    reason = "it is closed" if stdin == "closed" else "Bad file descriptor"
    assert code == 2 and f"-: error: cannot read standard input: {reason}" in err.splitlines(), err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("stderr", ["closed", "full"])
@pytest.mark.parametrize(
    ("args", "expected"),
    [(["rules"], 0), (["lint", "tools.json"], 0), (["lint", "missing.json"], 2), (["rule", "NOPE"], 2)],
    ids=["rules", "clean", "missing", "unknown-rule"],
)
def test_standard_error_that_refuses_writes_leaves_the_exit_code_alone(
    tmp_path: Path, args: list[str], expected: int, stderr: str
) -> None:
    # the message is lost, but an error still ends with 2 and a clean run with 0 (both ended with 1)
    write(tmp_path / "tools.json", catalog(CLEAN_TOOL))
    assert _with_streams(args, tmp_path, stderr=stderr)[0] == expected


# --------------------------------------------------------------------------------------
# snapshot: a server that lists more than a catalog may hold is stopped at the limit, not at the timeout.
# --------------------------------------------------------------------------------------

SERVER = [sys.executable, str(Path(__file__).resolve().parent / "fixtures" / "mcp_stdio_server.py")]


@pytest.mark.parametrize(
    ("limit", "count", "error"),
    [
        ("MAX_TOOLS", 11, "11 tools: catalint reads at most 10 tools per catalog"),
        ("MAX_FILE_BYTES", 11, "the tools are over 0 MiB, the most catalint reads"),
    ],
)
@pytest.mark.parametrize("command", ["snapshot", "lint"])
def test_a_server_listing_too_much_is_stopped_at_the_limit(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: str, count: int, error: str, command: str
) -> None:
    """Limits made small: the fixture pages 3 tools at a time, so the fourth page passes 10 tools (or 1,000
    characters). The server keeps no state, so nothing else stops it before the timeout."""
    from catalint import loader

    monkeypatch.setattr(loader, limit, 10 if limit == "MAX_TOOLS" else 1000)
    write(tmp_path / "out.json", "old\n")
    head = ["snapshot", "-o", "out.json"] if command == "snapshot" else ["lint", "--server"]
    result = cli(*head, "--timeout", "60", "--", *SERVER, "normal", str(count), "3")
    line = one_error(result, "error: snapshot failed: ")
    assert line.endswith(error) or f"{error};" in line, line
    assert (tmp_path / "out.json").read_text() == "old\n"


def test_a_server_listing_up_to_the_limit_is_snapshotted(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from catalint import loader

    monkeypatch.setattr(loader, "MAX_TOOLS", 10)
    result = cli("snapshot", "-o", "out.json", "--", *SERVER, "normal", "10", "3")
    assert result.exit_code == 0, result.stderr
    assert len(json.loads((tmp_path / "out.json").read_text())["tools"]) == 10


# --------------------------------------------------------------------------------------
# per-file-ignores: each glob is matched once a file, not once a rule (100,000 globs took minutes).
# --------------------------------------------------------------------------------------


def test_per_file_ignore_globs_are_matched_once_a_file(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from catalint import config

    calls = []
    real = config._glob_match

    def counting(rel: str, name: str, pattern: str) -> bool:
        calls.append(pattern)
        return real(rel, name, pattern)

    monkeypatch.setattr(config, "_glob_match", counting)
    globs = "".join(f'"nothing{i}*" = ["DESC"]\n' for i in range(200))
    write(tmp_path / "catalint.toml", '[per-file-ignores]\n"a.tools.json" = ["SCH"]\n' + globs + '"*" = ["DESC-001"]\n')
    write(tmp_path / "a.tools.json", catalog(SEVERE))
    write(tmp_path / "b.tools.json", catalog(SEVERE))
    result = cli("lint", "--no-gate", "--output-format", "json", "a.tools.json", "b.tools.json")
    no_crash(result)
    per_file = [c for c in calls if c.startswith("nothing")]
    assert len(per_file) == 2 * 200  # before: once per rule as well
    findings = json.loads(result.stdout)["findings"]
    assert not any(f["code"] == "DESC-001" for f in findings)  # the last glob still applies
    assert not any(f["code"].startswith("SCH") and f["file"] == "a.tools.json" for f in findings)
    assert any(f["code"].startswith("SCH") and f["file"] == "b.tools.json" for f in findings)


# --------------------------------------------------------------------------------------
# A server's line quoted in an error is cut: a server may print megabytes on one line.
# --------------------------------------------------------------------------------------

FLOOD_SERVER = """
import json, sys
MODE = sys.argv[1]
if MODE == "stderr":
    sys.stderr.write("fatal: " + "E" * LENGTH + "\\n")
    sys.exit(3)
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        error = {"code": -32000, "message": "boom " + "M" * LENGTH}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "error": error}) + "\\n")
        sys.stdout.flush()
"""


@pytest.mark.parametrize(("mode", "length"), [("stderr", 200_000), ("error", 200_000), ("stderr", 50), ("error", 50)])
def test_a_servers_long_line_is_cut_in_the_error(cli, tmp_path: Path, mode: str, length: int) -> None:
    write(tmp_path / "server.py", FLOOD_SERVER.replace("LENGTH", str(length)))
    result = cli("snapshot", "-o", "out.json", "--timeout", "30", "--", sys.executable, "server.py", mode)
    line = one_error(result, "error: snapshot failed: ")
    letter = "E" if mode == "stderr" else "M"
    if length > 300:
        assert len(line) < 1000 and letter * 290 + "..." in line, line[:2000]
    else:
        assert letter * length in line and letter * length + "..." not in line  # near miss: whole


def test_a_folder_tree_a_thousand_levels_deep_is_walked(cli, tmp_path: Path) -> None:
    """os.walk recurses once a level before Python 3.12: a tree about 990 folders deep (a 2 KB path, which
    git commits and clones) ended lint, trace score and check in an internal RecursionError, and no catalog
    of the run was linted."""
    import subprocess

    def deep_tree(top: Path) -> Path:
        top.mkdir()
        for _ in range(1100):  # one at a time: Path.mkdir(parents=True) recurses once a level too
            top /= "a"
            top.mkdir()
        return top

    try:
        bottom = deep_tree(tmp_path / "repo")
        write(tmp_path / "repo" / "tools.json", catalog(CLEAN_TOOL))
        write(bottom / "tools.json", catalog(CLEAN_TOOL))
        shown = cli("lint", "repo", "--show-files", "--output-format", "json")
        assert shown.exit_code == 0 and len(json.loads(shown.stdout)) == 2
        write(deep_tree(tmp_path / "runs") / "run.json", json.dumps({"tool_calls": [{"name": CLEAN_TOOL["name"]}]}))
        scored = cli("trace", "score", "runs", "--catalog", "repo/tools.json", "--output-format", "json")
        assert scored.exit_code == 0 and json.loads(scored.stdout)["scenarios"][0]["runs"] == 1
    finally:  # shutil.rmtree recurses once a level as well: pytest could not clear the folder away
        subprocess.run(["rm", "-rf", str(tmp_path / "repo"), str(tmp_path / "runs")], check=False)
