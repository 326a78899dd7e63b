"""catalint snapshot over stdio, through the official mcp SDK, against a fixture server."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT

pytest.importorskip("mcp")

SERVER = [sys.executable, str(ROOT / "tests" / "fixtures" / "mcp_stdio_server.py")]


def snap(cli, out: str, *args: str, mode: str = "normal", count: int = 5, page: int = 2):
    return cli("snapshot", "-o", out, *args, "--", *SERVER, mode, str(count), str(page))


def test_a_catalog_the_sdk_refuses_is_kept_as_sent_with_a_notice(cli, tmp_path: Path) -> None:
    """A tool whose inputSchema is not an object fails the SDK's validation of the whole page; the snapshot
    used to fail with 'ValidationError: 9 validation errors for ListToolsResult' (the reference GitLab
    server), so the catalog a linter most needs to read could not be read at all."""
    result = snap(cli, "tools.json", count=5, page=2, mode="invalid")
    assert result.exit_code == 0, result.stderr
    tools = json.loads((tmp_path / "tools.json").read_text())["tools"]
    assert [t["name"] for t in tools] == [f"tool_{i}" for i in range(5)]  # every page, refused or not
    assert tools[0]["inputSchema"] == {"$schema": "http://json-schema.org/draft-07/schema#"}
    assert tools[4]["inputSchema"] == {"type": "string"}
    notice, written = result.stderr.strip().splitlines()
    assert notice.endswith(
        "invalid 5 2: notice: the MCP SDK refuses this tools/list (2 problems; first: tools.0.inputSchema.type: "
        "Field required), so clients built on it may fail to load these tools; kept as the server sent it"
    )
    assert written.endswith("5 tools from " + " ".join([*SERVER, "invalid", "5", "2"]))


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        # request 1 is initialize
        ("nullresult", "the server's answer to request 2 is not valid JSON-RPC: result: Input should be an object"),
        ("bignumber", "the server wrote a JSON-RPC message that is not valid JSON: Invalid JSON: number out of range"),
        # a wrong envelope: found by a fuzz run, these waited for the timeout, quoting '1.0' as a stray line
        ("badversion", "the server's answer to request 2 is not valid JSON-RPC: jsonrpc: Input should be '2.0'"),
        ("floatid", "the server's answer to request 2.0 is not valid JSON-RPC: id: Input should be a valid integer"),
        ("errornumber", "the server's answer to request 2 is not valid JSON-RPC: error: Input should be an object"),
        ("bareanswer", "the server's answer to request 2 is not valid JSON-RPC: result: Field required"),
    ],
)
def test_a_broken_answer_fails_at_once_not_at_the_timeout(cli, tmp_path: Path, mode: str, said: str) -> None:
    # the SDK skips a line it cannot read, as if it were a log line: the request then waited for --timeout
    result = cli("snapshot", "-o", "tools.json", "--timeout", "60", "--", *SERVER, mode, "3", "2")
    assert result.exit_code == 2
    assert said in result.stderr and "timed out" not in result.stderr
    assert not (tmp_path / "tools.json").exists()


def test_a_cursor_that_is_not_a_string_is_named(cli, tmp_path: Path) -> None:
    result = cli("snapshot", "-o", "tools.json", "--", *SERVER, "intcursor", "5", "2")
    assert result.exit_code == 2
    assert result.stderr.rstrip().endswith("tools/list returned a nextCursor that is not a string: 2")
    assert not (tmp_path / "tools.json").exists()


def test_log_lines_on_stdout_are_skipped_with_a_notice(cli, tmp_path: Path) -> None:
    """The SDK's client logs such a line and goes on; elevenlabs-mcp, minimax-mcp and opensearch-mcp-server-py
    print 'Starting MCP server' on stdout and work in real clients, but catalint refused to snapshot them."""
    result = snap(cli, "tools.json", count=3, mode="garbage")
    assert result.exit_code == 0, result.stderr
    assert [t["name"] for t in json.loads((tmp_path / "tools.json").read_text())["tools"]] == [
        "tool_0",
        "tool_1",
        "tool_2",
    ]
    notice, written = result.stderr.strip().splitlines()
    assert notice.endswith(
        "garbage 3 2: notice: the server wrote 1 line that is not JSON-RPC on stdout (first: 'Server listening on"
        " port 8080...'); the MCP SDK skips such lines, but a client that reads stdout strictly fails on them"
        " (logs go to stderr)"
    )
    assert written.endswith("3 tools from " + " ".join([*SERVER, "garbage", "3", "2"]))
    args = ["lint", "--no-gate", "--output-format", "json", "--server", "--", *SERVER, "garbage", "3", "2"]
    (notice,) = json.loads(cli(*args).stdout)["notices"]
    assert "the server wrote 1 line that is not JSON-RPC on stdout" in notice


def test_a_message_after_the_last_page_does_not_fail_the_snapshot(cli, tmp_path: Path) -> None:
    # a log notification sent once the listing is done reached a closed session: BrokenResourceError, exit 2
    for attempt in range(3):  # it was a race the server won every time
        result = snap(cli, f"tools{attempt}.json", count=3, mode="notifyafter")
        assert result.exit_code == 0, result.stderr
        assert len(json.loads((tmp_path / f"tools{attempt}.json").read_text())["tools"]) == 3


def test_bytes_that_are_not_utf8_on_stdout_are_read_as_replacement_characters(cli, tmp_path: Path) -> None:
    # "strict" decoding waited out the whole timeout, then failed with a bare UnicodeDecodeError
    result = snap(cli, "log.json", count=3, mode="badutf8log")
    assert result.exit_code == 0, result.stderr
    assert "notice: the server wrote 1 line that is not JSON-RPC on stdout (first: 'log \ufffd\ufffd line')" in (
        result.stderr
    )
    result = snap(cli, "name.json", count=3, page=5, mode="badutf8name")
    assert result.exit_code == 0, result.stderr
    assert json.loads((tmp_path / "name.json").read_text())["tools"][0]["name"] == "tool_\ufffd"


def test_only_the_start_and_the_end_of_a_long_stderr_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # a server that wrote a gigabyte on stderr took a minute and 2 GB to explain
    import tempfile

    from catalint import snapshot

    monkeypatch.setattr(snapshot, "STDERR_READ", 64)
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as errlog:
        errlog.write("fatal: no API key\n" + "noise line\n" * 1000 + "last words\n")
        seen = snapshot._Exchange([], errlog)
        read = snapshot._stderr_read(seen)
        assert len(read) == 2 * 64 + 1 and read.startswith("fatal: no API key") and read.endswith("last words\n")
        assert snapshot._stderr_tail(read)[0] == "fatal: no API key"
        seen.stderr_size = 18  # what came before catalint stopped the server
        assert snapshot._stderr_read(seen) == "fatal: no API key\n"


def test_a_snapshot_always_reads_back(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 25,000 tools of 66 MB compact were written indented as 117 MB: a file `catalint lint` refused
    from catalint import loader

    assert snap(cli, "full.json", count=5, page=5).exit_code == 0
    full = (tmp_path / "full.json").read_text()
    one_line = json.dumps(json.loads(full), ensure_ascii=False, separators=(",", ":")) + "\n"
    assert len(one_line) < len(full)
    monkeypatch.setattr(loader, "MAX_FILE_BYTES", len(one_line) + 10)  # the compact file fits, the indented not
    result = snap(cli, "tools.json", count=5, page=5)
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "tools.json").read_text() == one_line
    assert cli("lint", "--no-gate", "tools.json").exit_code == 0
    result = snap(cli, "tools.yaml", count=5, page=5)
    assert result.exit_code == 2 and not (tmp_path / "tools.yaml").exists()
    assert result.stderr.strip() == "error: snapshot failed: the YAML file would be over 0 MiB, the most catalint reads"


@pytest.mark.skipif(os.name != "posix", reason="SIGTERM as POSIX sends it")
def test_sigterm_stops_the_server_before_catalint_ends(tmp_path: Path) -> None:
    # a CI step's timeout sends SIGTERM: catalint died at once and left the server (in a session of its own) running
    import signal
    import subprocess
    import time

    from test_hostile import _command

    pidfile = tmp_path / "server.pid"
    args = ["snapshot", "-o", "out.json", "--timeout", "60", "--env", f"FIXTURE_PIDFILE={pidfile}", "--"]
    proc = subprocess.Popen([*_command(), *args, *SERVER, "pidhang"], cwd=tmp_path, stderr=subprocess.PIPE)
    try:
        for _ in range(300):
            if pidfile.exists() and pidfile.read_text():
                break
            time.sleep(0.05)
        server = int(pidfile.read_text())
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == -signal.SIGTERM
    finally:
        proc.kill()
        proc.wait()
    assert _gone(server), "the server outlived catalint"
    assert not (tmp_path / "out.json").exists()


def _gone(pid: int) -> bool:
    """Whether pid ends within 5 s (reaped by now, or about to be); one still there is killed."""
    import time

    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    os.kill(pid, 9)
    return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="catalint finds the server's pid in /proc")
def test_what_the_server_started_and_left_running_is_stopped(cli, tmp_path: Path) -> None:
    # the SDK stops the server's process group only while the server runs: a process it left behind stayed
    pidfile = tmp_path / "child.pid"
    result = snap(cli, "tools.json", "--env", f"FIXTURE_PIDFILE={pidfile}", count=3, mode="forkleft")
    assert result.exit_code == 0, result.stderr
    assert _gone(int(pidfile.read_text())), "the server's child outlived the snapshot"


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="catalint finds the server's pid in /proc")
def test_a_server_that_exits_is_said_to_have_exited_though_its_child_holds_stdout(cli, tmp_path: Path) -> None:
    # its child kept the pipe open: catalint waited the whole --timeout, then said the server timed out
    pidfile = tmp_path / "child.pid"
    result = snap(cli, "tools.json", "--timeout", "60", "--env", f"FIXTURE_PIDFILE={pidfile}", mode="forkexit")
    assert result.exit_code == 2
    assert result.stderr.strip().endswith(
        "the server exited before answering, and a process it started keeps its stdout open;"
        " server stderr: fatal: config missing"
    )
    assert _gone(int(pidfile.read_text()))


def test_a_server_that_asks_more_than_it_answers_is_stopped(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each request from the server is a task waiting to answer it: endless pings took 704 MB in 10 s
    from catalint import snapshot

    assert snap(cli, "ten.json", count=3, mode="pings").exit_code == 0  # a few requests are answered and done
    monkeypatch.setattr(snapshot, "MAX_SERVER_REQUESTS", 5)
    result = snap(cli, "five.json", count=3, mode="pings")
    assert result.exit_code == 2 and not (tmp_path / "five.json").exists()
    assert result.stderr.strip().endswith("the server sent over 5 requests of its own before answering")


def test_lint_server_reports_what_the_sdk_refuses(cli) -> None:
    args = ["lint", "--no-gate", "--select", "SCH-005", "--output-format", "json", "--server", "--", *SERVER]
    report = json.loads(cli(*args, "invalid", "3", "2").stdout)
    assert [(f["tool"], f["code"]) for f in report["findings"]] == [("tool_0", "SCH-005"), ("tool_2", "SCH-005")]
    (notice,) = report["notices"]
    assert "notice: the MCP SDK refuses this tools/list (2 problems" in notice
    assert json.loads(cli(*args, "normal", "3", "2").stdout)["notices"] == []


def test_snapshot_follows_every_page_and_keeps_unknown_fields(cli, tmp_path: Path) -> None:
    result = snap(cli, "tools.json", count=5, page=2)
    assert result.exit_code == 0, result.stderr
    text = (tmp_path / "tools.json").read_text()
    tools = json.loads(text)["tools"]
    assert [t["name"] for t in tools] == [f"tool_{i}" for i in range(5)]
    assert tools[0]["x-extension"] == {"nested": [1, 2]}  # the SDK's models would drop these
    assert tools[1]["annotations"]["x-vendorHint"] == "kept"
    assert text.startswith('{\n  "tools": [\n    {') and text.endswith("}\n")
    assert "5 tools from" in result.stderr


def test_snapshot_is_stable_and_yaml_by_name(cli, tmp_path: Path) -> None:
    snap(cli, "a.json")
    snap(cli, "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert snap(cli, "tools.yaml").exit_code == 0
    assert yaml.safe_load((tmp_path / "tools.yaml").read_text()) == json.loads((tmp_path / "a.json").read_text())


def test_check_is_0_when_current_and_1_with_a_diff(cli, tmp_path: Path) -> None:
    snap(cli, "tools.json", count=3)
    current = snap(cli, "tools.json", "--check", count=3)
    assert current.exit_code == 0 and "up to date" in current.stdout
    stale = snap(cli, "tools.json", "--check", count=4)
    assert stale.exit_code == 1
    assert "out of date" in stale.stdout and "tool_3" in stale.stdout
    assert len(json.loads((tmp_path / "tools.json").read_text())["tools"]) == 3  # --check never writes


def test_check_ignores_the_order_of_the_tools(cli, tmp_path: Path) -> None:
    snap(cli, "tools.json", count=3)
    path = tmp_path / "tools.json"
    doc = json.loads(path.read_text())
    doc["tools"].reverse()
    path.write_text(json.dumps(doc, indent=2))
    result = snap(cli, "tools.json", "--check", count=3)
    assert result.exit_code == 0
    assert "up to date (3 tools; the server lists them in another order)" in result.stdout
    doc["tools"][0]["description"] += " Changed."
    path.write_text(json.dumps(doc, indent=2))
    assert snap(cli, "tools.json", "--check", count=3).exit_code == 1  # a real change still counts


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("crash", "before answering (did it exit?); server stderr: starting up | fatal: missing API_KEY"),
        (
            "garbageexit",
            "closed the connection before answering (did it exit?); it wrote 2 lines that are not JSON-RPC on"
            " stdout (first: 'Server listening on port 8080...')",
        ),
        ("error", ": the server answered tools/list with error -32603: database unavailable"),
        ("initerror", ": the server answered initialize with error -32602: unsupported protocol version"),  # line 1
        ("midcrash", "segmentation fault"),  # dies after the first page: nothing is written
    ],
)
def test_failures_are_one_line_and_leave_the_old_file(cli, tmp_path: Path, mode: str, words: str) -> None:
    (tmp_path / "tools.json").write_text('{"tools": []}\n')
    result = snap(cli, "tools.json", mode=mode)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: snapshot failed: ") and words in lines[0]
    assert (tmp_path / "tools.json").read_text() == '{"tools": []}\n'
    assert list(tmp_path.iterdir()) == [tmp_path / "tools.json"]  # no temporary file left behind


def test_a_hanging_server_times_out(cli, tmp_path: Path) -> None:
    result = snap(cli, "tools.json", "--timeout", "2", mode="hang")
    assert result.exit_code == 2 and "timed out after 2 s" in result.stderr
    assert not (tmp_path / "tools.json").exists()


def test_a_server_that_exits_after_the_event_loop_closed_adds_no_line(cli, tmp_path: Path, caplog) -> None:
    # Stopped at a timeout, a server may exit after the loop has closed; Python's child watcher then logged
    # 'Loop <...> that handles pid N is closed' on stderr, after catalint's one-line error (now and then).
    import logging

    result = snap(cli, "tools.json", "--timeout", "1", mode="hang")
    assert result.exit_code == 2
    caplog.clear()
    logging.getLogger("asyncio").warning("Loop %r that handles pid %r is closed", "<loop>", 4242)
    logging.getLogger("asyncio").warning("Something else %s", "kept")
    assert [r.getMessage() for r in caplog.records] == ["Something else kept"]


def test_a_silent_npx_at_a_timeout_may_still_be_installing(cli, tmp_path: Path, monkeypatch) -> None:
    # npx -y fetches the package on its first run; a short timeout then met silence, which read as a
    # transport problem only.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "npx"
    fake.write_text("#!/bin/sh\nsleep 30\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    result = cli("snapshot", "-o", "tools.json", "--timeout", "1", "--", "npx", "-y", "some-mcp-server")
    assert result.exit_code == 2
    assert "nothing came on stdout: npx may still have been installing the server on its first run" in result.stderr
    plain = snap(cli, "tools.json", "--timeout", "1", mode="hang")  # any other command: the transport question
    assert "installing" not in plain.stderr and "(does it serve MCP on stdio" in plain.stderr


def test_a_timeout_shows_the_stderr_from_before_the_server_was_stopped(cli, tmp_path: Path) -> None:
    """vectara-mcp serves SSE by default: the useful lines came first, and its shutdown chatter buried them."""
    result = snap(cli, "tools.json", "--timeout", "2", mode="sse")
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "timed out after 2 s" in line
    assert "nothing came on stdout (does it serve MCP on stdio, not on SSE or HTTP?)" in line
    assert line.endswith("server stderr: Starting server (SSE mode) | Uvicorn running on http://127.0.0.1:8000")


def test_command_not_found(cli) -> None:
    result = cli("snapshot", "-o", "tools.json", "--", "no-such-server-command")
    assert result.exit_code == 2 and "command not found: no-such-server-command" in result.stderr


def test_output_file_is_a_name_for_output(cli, tmp_path: Path) -> None:
    result = cli("snapshot", "--output-file", "named.json", "--", *SERVER, "normal", "3", "2")
    assert result.exit_code == 0, result.stderr
    assert len(json.loads((tmp_path / "named.json").read_text())["tools"]) == 3


def test_a_catalog_file_given_as_the_server_command(cli, tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text('{"tools": []}', encoding="utf-8")
    result = cli("lint", "--server", "tools.json")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: snapshot failed: 'tools.json' is a catalog file, not a server command: lint the file itself"
    ]


def test_lint_url_with_a_file(cli, tmp_path: Path) -> None:
    result = cli("lint", "--url", "http://127.0.0.1:9/mcp", "tools.json")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: --url lints the server at that address, not files: drop 'tools.json' (or drop --url)"
    ]


def test_a_server_command_that_is_not_executable(cli, tmp_path: Path) -> None:
    (tmp_path / "server.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    result = cli("snapshot", "-o", "out.json", "--", "./server.sh")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: snapshot failed: ./server.sh: cannot start './server.sh': permission denied (is it executable?)"
    ]
    assert not (tmp_path / "out.json").exists()


def test_env_reaches_the_server(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("FIXTURE_VAR", "from-parent")
    snap(cli, "plain.json", mode="env")
    assert "FIXTURE_VAR=None" in (tmp_path / "plain.json").read_text()  # the SDK passes only a few variables
    snap(cli, "env.json", "--env", "FIXTURE_VAR=given", mode="env")
    assert "FIXTURE_VAR=given" in (tmp_path / "env.json").read_text()
    snap(cli, "all.json", "--inherit-env", mode="env")
    assert "FIXTURE_VAR=from-parent" in (tmp_path / "all.json").read_text()


def test_an_http_server_that_prints_its_address_is_pointed_to_url(cli) -> None:
    result = snap(cli, "t.json", "--timeout", "3", mode="httpchatter")
    assert result.exit_code == 2
    line = result.stderr.splitlines()[0]
    assert "timed out after 3 s" in line
    assert "it printed the address http://localhost:8080/mcp: does it serve MCP over HTTP there (--url)?" in line


def test_a_live_catalog_with_a_nameless_tool_is_an_input_error_not_a_crash(cli, tmp_path: Path) -> None:
    """A tool with no name: the snapshot keeps it as sent (with the SDK's notice); lint --server reports it
    as it would an unreadable file, at its place in the snapshot it would write; --check cannot compare."""
    result = cli("lint", "--server", "--", *SERVER, "noname", "3", "2")
    assert result.exit_code == 2
    assert "internal error" not in result.stderr
    assert result.stderr.splitlines()[-1].endswith(':21:5: error: tool has no string "name" (at /tools/1)')
    assert "1 file could not be read" in result.stdout
    assert snap(cli, "ok.json").exit_code == 0
    result = cli("snapshot", "-o", "ok.json", "--check", "--", *SERVER, "noname", "3", "2")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == 'ok.json (live):21:5: error: tool has no string "name" (at /tools/1)'
    assert len(json.loads((tmp_path / "ok.json").read_text())["tools"]) == 5  # left as it was


def test_a_node_crash_shows_its_cause_not_the_error_object(cli) -> None:
    result = snap(cli, "t.json", mode="nodecrash")
    line = result.stderr.splitlines()[0]
    assert "server stderr: " in line
    stderr = line.split("server stderr: ", 1)[1]
    assert stderr.startswith('{"level":"fatal","message":"Authentication failed - check your tokens"}')
    assert "pid:" not in stderr and "Node.js v" not in stderr and " at " not in stderr
    assert stderr.endswith("Error: Command failed: server --transport stdio")


def test_a_certificate_failure_points_to_inherit_env(cli) -> None:
    line = snap(cli, "t.json", mode="tls").stderr.splitlines()[0]
    assert "the server could not verify a certificate" in line and "--inherit-env passes SSL_CERT_FILE" in line
    assert "--inherit-env passes" not in snap(cli, "t.json", "--inherit-env", mode="tls").stderr


def test_env_values_may_hold_equals_signs_or_be_empty(cli, tmp_path: Path) -> None:
    # base64 keys end in '=', DSNs hold them: split at the first '='
    snap(cli, "b64.json", "--env", "FIXTURE_VAR=ZHVtbXk=", mode="env")
    assert "FIXTURE_VAR=ZHVtbXk= " in (tmp_path / "b64.json").read_text()
    snap(cli, "dsn.json", "--env", "FIXTURE_VAR=postgres://h/db?sslmode=require", mode="env")
    assert "FIXTURE_VAR=postgres://h/db?sslmode=require " in (tmp_path / "dsn.json").read_text()
    snap(cli, "empty.json", "--env", "FIXTURE_VAR=", mode="env")
    assert "FIXTURE_VAR= HOME_SET" in (tmp_path / "empty.json").read_text()
    for bad in ("NOVALUE", "=x"):
        result = cli("snapshot", "-o", "x.json", "--env", bad, "--", *SERVER, "env", "1", "1")
        assert result.exit_code == 2 and f"expected NAME=VALUE, got {bad!r}" in result.stderr


def test_usage_errors(cli) -> None:
    both = cli("snapshot", "-o", "t.json", "--url", "http://127.0.0.1:9/mcp", "--", "server")
    assert both.exit_code == 2
    missing = cli("snapshot", "-o", "t.json")
    assert missing.exit_code == 2 and "no server" in missing.stderr


def test_snapshot_then_lint(cli, tmp_path: Path) -> None:
    snap(cli, "tools.json")
    result = cli("lint", "--no-gate", "tools.json")
    assert result.exit_code == 0, result.stdout


@pytest.fixture
def http_server():
    """The SDK-built fixture server on a free port of 127.0.0.1; yields its URL."""
    import socket
    import subprocess
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    script = ROOT / "tests" / "fixtures" / "mcp_http_server.py"
    proc = subprocess.Popen(
        [sys.executable, str(script), str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("the fixture HTTP server did not start")
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_snapshot_over_streamable_http_with_headers(cli, tmp_path: Path, http_server: str, monkeypatch) -> None:
    monkeypatch.setenv("FIXTURE_TOKEN", "s3cret-value")
    args = ["snapshot", "-o", "tools.json", "--url", http_server, "--header", "Authorization: Bearer ${FIXTURE_TOKEN}"]
    result = cli(*args)
    assert result.exit_code == 0, result.stderr
    tools = json.loads((tmp_path / "tools.json").read_text())["tools"]
    assert sorted(t["name"] for t in tools) == ["get_alerts", "get_forecast"]
    assert "s3cret-value" not in result.stdout + result.stderr


def test_an_http_answer_is_read_only_up_to_the_most_catalint_reads(
    cli, tmp_path: Path, http_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the SDK reads a body whole before looking at it: one that never ended took 7.6 GB before the timeout
    from catalint import loader

    monkeypatch.setattr(loader, "MAX_FILE_BYTES", 2**20 // 4)  # "0 MiB": the answers here are a few KB
    assert cli("snapshot", "-o", "tools.json", "--url", http_server).exit_code == 0
    monkeypatch.setattr(loader, "MAX_FILE_BYTES", 100)
    result = cli("snapshot", "-o", "small.json", "--url", http_server, "--timeout", "60")
    assert result.exit_code == 2 and not (tmp_path / "small.json").exists()
    assert result.stderr.strip().endswith(": an answer is over 0 MiB, the most catalint reads")


def test_a_wrong_path_says_http_404_not_a_made_up_json_rpc_error(cli, http_server: str) -> None:
    """The SDK turns an HTTP 404 into JSON-RPC error -32601 "Not Found"; that read as the server's answer."""
    result = cli("snapshot", "-o", "t.json", "--url", http_server.replace("/mcp", "/sse"))
    assert result.exit_code == 2
    assert result.stderr.strip().endswith(
        "/sse: the server answered initialize with HTTP 404 Not Found (is the URL the server's MCP endpoint?)"
    )


def test_nothing_listening_at_the_url(cli) -> None:
    import socket

    with socket.socket() as probe:  # a port that was free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = cli("snapshot", "-o", "t.json", "--url", f"http://127.0.0.1:{port}/mcp")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"error: snapshot failed: http://127.0.0.1:{port}/mcp: cannot connect: All connection attempts failed"
        " (is the server running, at this address?)"
    )


def test_a_web_server_that_is_not_mcp_says_its_http_status(cli) -> None:
    import threading
    from http.server import HTTPServer, SimpleHTTPRequestHandler

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    web = HTTPServer(("127.0.0.1", 0), Quiet)  # answers POST with 501
    threading.Thread(target=web.serve_forever, daemon=True).start()
    try:
        result = cli("snapshot", "-o", "t.json", "--timeout", "20", "--url", f"http://127.0.0.1:{web.server_port}/")
    finally:
        web.shutdown()
    assert result.exit_code == 2
    assert "the server answered initialize with HTTP 501 Unsupported method ('POST')" in result.stderr


def test_an_unset_header_variable_is_named_not_shown(cli, http_server: str, monkeypatch) -> None:
    monkeypatch.delenv("FIXTURE_MISSING", raising=False)
    result = cli("snapshot", "-o", "t.json", "--url", http_server, "--header", "X-Key: ${FIXTURE_MISSING}")
    assert result.exit_code == 2 and "FIXTURE_MISSING is not set" in result.stderr


def test_lint_a_live_server(cli) -> None:
    result = cli("lint", "--no-gate", "--select", "CAT-002,DESC-001", "--server", "--", *SERVER, "env", "3", "2")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "3 tools in 1 file" in result.stdout
    bad = cli("lint", "--server", "--", *SERVER, "crash")
    assert bad.exit_code == 2 and "snapshot failed" in bad.stderr


def test_lint_a_live_server_takes_the_snapshot_options(cli, monkeypatch) -> None:
    monkeypatch.setenv("FIXTURE_VAR", "from-parent")

    def first_name(*args: str) -> str:
        argv = ["lint", "--no-gate", "--output-format", "json", *args, "--server", "--", *SERVER, "env", "1", "1"]
        result = cli(*argv)
        assert result.exit_code in (0, 1), result.stderr
        return json.loads(result.stdout)["files"][0]["tools"][0]["name"]

    assert first_name() == "env_None"  # the SDK passes only a few variables
    assert first_name("--env", "FIXTURE_VAR=given") == "env_given"
    assert first_name("--inherit-env") == "env_from-parent"
    hang = cli("lint", "--timeout", "2", "--server", "--", *SERVER, "hang")
    assert hang.exit_code == 2 and "timed out after 2 s (--timeout gives it longer)" in hang.stderr


def test_lint_a_live_http_server_with_a_header(cli, http_server: str, monkeypatch) -> None:
    monkeypatch.delenv("FIXTURE_MISSING", raising=False)
    unset = cli("lint", "--url", http_server, "--header", "X-Key: ${FIXTURE_MISSING}")
    assert unset.exit_code == 2 and "FIXTURE_MISSING is not set" in unset.stderr
    monkeypatch.setenv("FIXTURE_TOKEN", "s3cret-value")
    result = cli("lint", "--no-gate", "--url", http_server, "--header", "Authorization: Bearer ${FIXTURE_TOKEN}")
    assert result.exit_code in (0, 1), result.stderr
    assert "2 tools in 1 file" in result.stdout and "s3cret-value" not in result.stdout + result.stderr


@pytest.mark.parametrize("option", [["--env", "A=1"], ["--inherit-env"], ["--timeout", "5"], ["--header", "A: b"]])
def test_server_options_without_a_server_are_a_usage_error(cli, tmp_path: Path, option: list[str]) -> None:
    (tmp_path / "tools.json").write_text('{"tools": []}')
    result = cli("lint", *option, "tools.json")
    assert result.exit_code == 2 and "apply only with --server or --url" in result.stderr


def test_lint_a_live_server_positions_follow_the_snapshot_text(cli, tmp_path: Path) -> None:
    snap(cli, "tools.json", count=3)
    saved = cli("lint", "--no-gate", "--output-format", "json", "tools.json").stdout
    live = cli("lint", "--no-gate", "--output-format", "json", "--server", "--", *SERVER, "normal", "3", "2").stdout

    def where(out: str) -> list[tuple[str, int, int]]:
        return [(t["name"], t["line"], t["column"]) for t in json.loads(out)["files"][0]["tools"]]

    assert where(live) == where(saved) and len(where(saved)) == 3


def test_lint_a_live_http_server(cli, http_server: str) -> None:
    result = cli("lint", "--no-gate", "--url", http_server)
    assert result.exit_code in (0, 1), result.stderr
    assert "2 tools in 1 file" in result.stdout


def test_a_real_third_party_server(cli, tmp_path: Path) -> None:
    """mcp-server-time (a test extra) started by its console script, snapshotted and linted."""
    exe = Path(sys.executable).with_name("mcp-server-time")
    if not exe.exists():
        pytest.skip("mcp-server-time is a test extra (pip install -e '.[test]')")
    result = cli("snapshot", "-o", "time.json", "--timeout", "60", "--", str(exe))
    assert result.exit_code == 0, result.stderr
    tools = json.loads((tmp_path / "time.json").read_text())["tools"]
    assert {t["name"] for t in tools} == {"get_current_time", "convert_time"}
    assert all(t.get("outputSchema") for t in tools)  # fields a hand-made fixture would not think of survive
    lint = cli("lint", "--output-format", "json", "time.json")
    assert lint.exit_code in (0, 1)
    assert json.loads(lint.stdout)["summary"]["tools"] == 2


def test_the_offending_stdout_line_is_quoted_and_cut() -> None:
    from mcp import types

    from catalint.snapshot import _stdout_line

    def error(line: str) -> Exception:
        try:
            types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except ValueError as exc:
            return exc
        raise AssertionError("the line parsed")

    assert _stdout_line(error('{"log": "x"}')) == ': \'{"log": "x"}\''  # JSON, but not JSON-RPC
    assert _stdout_line(error("y" * 150)) == f": '{'y' * 100}...'"
    assert _stdout_line(RuntimeError("no input to show")) == ""


@pytest.mark.parametrize("text", ["city.\x85Returns JSON.", "a\x85", "\x85", "l1\nl2\x85x", "a\u2028b\u2029c"])
def test_a_yaml_snapshot_keeps_line_separators_as_sent(text: str) -> None:
    """PyYAML wrote NEL raw in single quotes, where YAML folds a line break to a space: "city.\\x85Returns"
    came back as "city. Returns", and SEC-002 no longer saw the control character."""
    from catalint.loader import load_text
    from catalint.snapshot import render

    tools = [{"name": "t", "description": text, "inputSchema": {"type": "object", "properties": {text: {}}}}]
    catalog = load_text(render(tools, True), "t.yaml", "t.yaml")
    assert catalog.tools[0].raw == tools[0]


def test_a_number_out_of_range_is_named_as_such(cli, tmp_path: Path) -> None:
    """1e999 reads as Infinity, which a JSON snapshot cannot hold; the message said only 'NaN or Infinity'."""
    result = cli("snapshot", "-o", "tools.json", "--", *SERVER, "hugefloat", "3", "2")
    assert result.exit_code == 2
    assert result.stderr.strip().endswith(
        "the server sent a number JSON cannot hold (NaN, Infinity, or one out of range such as 1e999)"
    )
    assert not (tmp_path / "tools.json").exists()


def test_json_log_lines_with_an_id_and_an_error_are_skipped_not_taken_for_answers(cli, tmp_path: Path) -> None:
    """Such lines claim no JSON-RPC (no "jsonrpc", no "result"): the SDK skips them, and so does snapshot."""
    result = snap(cli, "tools.json", count=3, mode="jsonlog")
    assert result.exit_code == 0, result.stderr
    assert "2 lines that are not JSON-RPC on stdout" in result.stderr
    assert len(json.loads((tmp_path / "tools.json").read_text())["tools"]) == 3


def test_a_header_or_env_no_request_can_carry_is_said_in_catalints_words() -> None:
    # they surfaced as the HTTP client's UnicodeEncodeError and the OS's "illegal environment variable name"
    from catalint.snapshot import Server, SnapshotError, expand_headers, stdio_environment

    assert expand_headers({"Authorization": "Bearer abc", "X-Trace": "a\tb"}) == {
        "Authorization": "Bearer abc",
        "X-Trace": "a\tb",
    }
    with pytest.raises(SnapshotError, match="header X-Name: its value holds 'ë'; HTTP header values are printable"):
        expand_headers({"X-Name": "Zoë"})
    with pytest.raises(SnapshotError, match="header 'Café': a header name is letters, digits and"):
        expand_headers({"Café": "1"})
    with pytest.raises(SnapshotError, match=r"env: 'A=B' is no environment variable name"):
        stdio_environment(Server(["true"], None, {}, {"A=B": "x"}))
    assert stdio_environment(Server(["true"], None, {}, {"A": "x"}))["A"] == "x"
