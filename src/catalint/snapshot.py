"""Take a `tools/list` snapshot from a live MCP server, through the official `mcp` SDK.

The SDK's models drop fields they do not know (newer spec fields, vendor
extensions), so the result of every `tools/list` page is read as raw JSON and
the tools are kept exactly as the server sent them. Every `nextCursor` page is
followed. The `mcp` package is imported only here.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from catalint.model import Catalog

DEFAULT_TIMEOUT = 30.0  # seconds for the whole exchange (the CLI's --help says 30)
MAX_PAGES = 1000  # a server that keeps returning cursors is stuck, not large
STDERR_LINES = 5  # how much of a failed server's stderr the error shows


class SnapshotError(Exception):
    """The snapshot failed; one line for the user, exit 2."""


@dataclass
class Server:
    command: list[str] = field(default_factory=list)  # stdio: the command and its arguments
    url: str | None = None  # or streamable HTTP
    headers: dict[str, str] = field(default_factory=dict)  # values may hold ${VAR}
    env: dict[str, str] = field(default_factory=dict)
    inherit_env: bool = False
    timeout: float = DEFAULT_TIMEOUT
    timeout_hint: str = ""  # how the user can give it longer, said when it times out

    def label(self) -> str:
        """The URL, or the command as a shell would take it back ('mcp<2' quoted)."""
        import shlex

        return self.url or shlex.join(self.command)


def expand_headers(headers: dict[str, str]) -> dict[str, str]:
    """${VAR} and $VAR in header values from the environment; an unset variable is an error."""
    out = {}
    for name, value in headers.items():
        for braced, bare in re.findall(r"\$\{(\w+)\}|\$(\w+)", value):
            variable = braced or bare
            if variable not in os.environ:
                raise SnapshotError(f"header {name}: environment variable {variable} is not set")
        out[name] = os.path.expandvars(value)
        if not _TOKEN.fullmatch(name):  # said here, not as the HTTP client's UnicodeEncodeError
            raise SnapshotError(f"header {name!r}: a header name is letters, digits and !#$%&'*+-.^_`|~ only")
        odd = next((c for c in out[name] if not (" " <= c <= "~" or c == "\t")), None)
        if odd is not None:
            raise SnapshotError(f"header {name}: its value holds {odd!r}; HTTP header values are printable ASCII")
    return out


_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # RFC 9110, section 5.6.2


def stdio_environment(server: Server) -> dict[str, str] | None:
    """What the server process gets: the SDK's small default set, or everything with inherit_env; plus --env."""
    if not server.inherit_env and not server.env:
        return None  # the SDK's default
    from mcp.client.stdio import get_default_environment

    env = dict(os.environ) if server.inherit_env else get_default_environment()
    for name, value in server.env.items():  # said here, not as the OS's "illegal environment variable name"
        if not name or "=" in name or "\0" in name:
            raise SnapshotError(f"env: {name!r} is no environment variable name (no '=' and not empty)")
        if "\0" in value:
            raise SnapshotError(f"env {name}: a value cannot hold a NUL character")
    env.update(server.env)
    return env


def take(server: Server, notes: list[str] | None = None) -> list[dict[str, Any]]:
    """Every tool the server lists, as raw JSON objects, as the server sent them.

    notes, if given, receives a line for what a client might trip on: lines on stdout that are not
    JSON-RPC, a tools/list the MCP SDK refuses."""
    import shutil
    import tempfile

    if not server.url:
        if not server.command:
            raise SnapshotError("no server: give a command after -- or --url")
        program = server.command[0]
        if os.path.splitext(program)[1].lower() in (".json", ".yaml", ".yml") and os.path.isfile(program):
            raise SnapshotError(f"{program!r} is a catalog file, not a server command: lint the file itself")
        if shutil.which(program) is None and not os.path.exists(program):
            raise SnapshotError(f"command not found: {program}")
    import anyio

    logging.getLogger("mcp").setLevel(logging.CRITICAL + 1)  # its tracebacks would bury our one line
    asyncio_log = logging.getLogger("asyncio")
    if not any(isinstance(f, _ClosedLoopNoise) for f in asyncio_log.filters):
        asyncio_log.addFilter(_ClosedLoopNoise())
    errlog = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
    seen = _Exchange(notes if notes is not None else [], errlog)
    try:
        try:
            tools = anyio.run(_take, server, seen)
        except (SnapshotError, KeyboardInterrupt):
            raise
        except BaseException as exc:  # the SDK and anyio raise many kinds; all end here as one line
            if seen.terminated:
                _end_as_terminated()
            raise SnapshotError(_explain(exc, server, seen)) from None
    finally:
        errlog.close()
        if os.name == "posix":
            _stop_leftovers(seen.server_pid)
    if seen.terminated:
        _end_as_terminated()
    try:  # what a snapshot holds must read back as JSON
        json.dumps(tools, allow_nan=False)
    except ValueError:
        raise SnapshotError(
            "the server sent a number JSON cannot hold (NaN, Infinity, or one out of range such as 1e999)"
        ) from None
    except RecursionError:
        raise SnapshotError("the server sent tools nested too deeply to save") from None
    return tools


def _past_limit(what: str) -> SnapshotError:
    """'{what} over 64 MiB, the most catalint reads': what snapshot says of anything past the file limit."""
    from catalint import loader

    return SnapshotError(f"{what} over {loader.MAX_FILE_BYTES // 2**20} MiB, the most catalint reads")


def _over_limit(text: str) -> bool:
    """Whether text takes more bytes than a file catalint reads (as UTF-8; a short text is not encoded)."""
    from catalint import loader

    return len(text) > loader.MAX_FILE_BYTES // 4 and len(text.encode("utf-8")) > loader.MAX_FILE_BYTES


def _capped_client(made: Any, seen: _Exchange) -> Any:
    """An HTTP client whose response bodies stop at the most catalint reads: the SDK reads a body whole
    before it looks at it, and one that never ended took 7.6 GB in the 30 s of the timeout. It has the settings
    of made, the SDK's client; made itself where that is not httpx2's."""
    if not type(made).__module__.startswith("httpx2"):
        return made
    import httpx2

    from catalint import loader

    class CappedStream(httpx2.AsyncByteStream):
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        async def __aiter__(self) -> Any:
            size = 0
            async for chunk in self.inner:
                size += len(chunk)
                if size > loader.MAX_FILE_BYTES:
                    seen.over_limit = True
                    if seen.stop is not None:
                        seen.stop.cancel()
                    raise _past_limit("an answer is")
                yield chunk

        async def aclose(self) -> None:
            await self.inner.aclose()

    class CappedTransport(httpx2.AsyncBaseTransport):
        def __init__(self) -> None:
            self.inner = httpx2.AsyncHTTPTransport()

        async def handle_async_request(self, request: Any) -> Any:
            response = await self.inner.handle_async_request(request)
            response.stream = CappedStream(response.stream)
            return response

        async def aclose(self) -> None:
            await self.inner.aclose()

    return httpx2.AsyncClient(headers=made.headers, timeout=made.timeout, transport=CappedTransport())


def _children() -> set[int] | None:
    """The pids of catalint's child processes (Linux's /proc); None where they cannot be listed."""
    me = str(os.getpid())
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    found = set()
    for name in names:
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if fields[1:2] == [me.encode()] and fields[0] != b"Z":  # state, parent; a zombie has exited
                found.add(int(name))
    return found


EXITED_GRACE = 1.0  # seconds an exchange may go on once the server has exited (its last answer in the pipe)


async def _watch_server(before: set[int] | None, seen: _Exchange) -> None:
    """Learns the server's pid (the new child) and watches it: a server that exited while a process it
    started keeps its stdout open would be waited for until --timeout, then said to have timed out."""
    import anyio

    if before is None:
        return
    while True:
        now = _children() or set()
        if seen.server_pid is None:
            _learn_server(before, now, seen)
        elif seen.server_pid not in now:
            await anyio.sleep(EXITED_GRACE)
            raise SnapshotError("the server exited before answering, and a process it started keeps its stdout open")
        await anyio.sleep(0.1)


def _learn_server(before: set[int] | None, now: set[int] | None, seen: _Exchange) -> None:
    """The server's pid: the child that was not there before it started."""
    new = sorted((now or set()) - (before or set()))
    if before is not None and new:
        seen.server_pid = new[0]


def _stop_leftovers(pid: int | None) -> None:
    """Stops what is left of the server's process group (it was its own session): processes it started and
    left running once it exited, which the SDK stops only while the server itself runs."""
    import signal
    import time

    if pid is None:
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pid, sig)
        except OSError:  # none left (or not ours to stop)
            return
        for _ in range(10):
            time.sleep(0.05)
            try:
                os.killpg(pid, 0)
            except OSError:
                return


def _end_as_terminated() -> None:
    """The server stopped, catalint ends as SIGTERM would have ended it (exit status 143 in a shell)."""
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)
    signal.pause()  # the signal ends the process before this returns


class _ClosedLoopNoise(logging.Filter):
    """Drops asyncio's 'Loop ... that handles pid N is closed': a server stopped at a timeout may exit
    after the event loop has closed, and Python's child watcher then said so on stderr, after our error."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Loop %r that handles pid")


@dataclass
class _Exchange:
    """What the snapshot saw beside the SDK's results: its notices, the server's stderr, every result that
    carried a tools list as it arrived, the SDK's refusals of those, the HTTP errors of a --url server, and
    the lines on stdout that were not JSON-RPC."""

    notes: list[str]
    errlog: Any  # the server's stderr, a file (a stdio server writes to it)
    arrived: list[dict[str, Any]] = field(default_factory=list)
    refused: list[Any] = field(default_factory=list)  # pydantic ValidationErrors
    http_errors: list[tuple[int, str]] = field(default_factory=list)  # (status, reason)
    heard: bool = False  # anything arrived on the transport
    stderr_size: int | None = None  # how much stderr the server had written when catalint stopped waiting
    stray: int = 0  # lines on stdout that are not JSON-RPC
    first_stray: str = ""  # the first, as _stdout_line gives it
    answered: bool = False  # a JSON-RPC message came on stdout
    endpoint: str = ""  # a URL a stray line gave ("MCP endpoint available at http://localhost:8080/mcp")
    terminated: bool = False  # catalint got SIGTERM: the server was stopped, and catalint ends as SIGTERM ends it
    server_pid: int | None = None  # a stdio server's process (its group's id too), once seen
    over_limit: bool = False  # an HTTP answer passed the most catalint reads
    requests: int = 0  # requests the server sent the client (ping, roots/list, sampling, ...)
    stop: Any = None  # the cancel scope that ends the exchange early

    def stray_lines(self) -> str:
        """'2 lines that are not JSON-RPC on stdout (first: 'Starting...')'."""
        first = f" (first{self.first_stray})" if self.first_stray else ""
        lines = "1 line that is" if self.stray == 1 else f"{self.stray} lines that are"
        return f"{lines} not JSON-RPC on stdout{first}"


async def _take(server: Server, seen: _Exchange) -> list[dict[str, Any]]:
    """_exchange, stopped when catalint gets SIGTERM (a CI step's timeout): the server is stopped as at a
    timeout, where dying at once left it running (it is started in a session of its own, out of the
    signal's reach)."""
    import signal

    import anyio

    if os.name != "posix":
        return await _exchange(server, seen)
    tools: list[dict[str, Any]] = []
    async with anyio.create_task_group() as group:

        async def watch() -> None:
            with anyio.open_signal_receiver(signal.SIGTERM) as signals:
                async for _ in signals:
                    seen.terminated = True
                    group.cancel_scope.cancel()
                    return

        group.start_soon(watch)
        tools = await _exchange(server, seen)
        group.cancel_scope.cancel()
    return tools


async def _exchange(server: Server, seen: _Exchange) -> list[dict[str, Any]]:
    import anyio

    with anyio.fail_after(server.timeout):
        if server.url:
            from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

            async def status(response: Any) -> None:
                if response.status_code >= 400:
                    seen.http_errors.append((response.status_code, response.reason_phrase))

            made = create_mcp_http_client(headers=expand_headers(server.headers))  # the SDK's settings
            client = _capped_client(made, seen)
            client.event_hooks["response"].append(status)
            async with client, streamable_http_client(server.url, http_client=client) as streams:
                tools: list[dict[str, Any]] = []
                async with anyio.create_task_group() as group:
                    seen.stop = group.cancel_scope
                    tools = await _guarded(streams[0], streams[1], seen)
                    group.cancel_scope.cancel()
                if seen.over_limit:  # what the body said past the limit: the SDK does not pass our error on
                    raise _past_limit("an answer is")
                return tools
        from mcp.client.stdio import StdioServerParameters, stdio_client

        # bytes that are not UTF-8 are read as U+FFFD: a log line holding them is set aside as any stray line
        # is, where "strict" waited out the timeout and then failed with a bare UnicodeDecodeError
        params = StdioServerParameters(
            command=server.command[0],
            args=server.command[1:],
            env=stdio_environment(server),
            encoding_error_handler="replace",
        )
        before = _children()
        async with stdio_client(params, errlog=seen.errlog) as streams:
            tools: list[dict[str, Any]] = []
            async with anyio.create_task_group() as group:
                group.start_soon(_watch_server, before, seen)
                tools = await _guarded(streams[0], streams[1], seen)
                group.cancel_scope.cancel()
            if seen.server_pid is None:  # a quick exchange, over before the watch looked
                _learn_server(before, _children(), seen)
            return tools


_ENDPOINT = re.compile(r"https?://(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\])(?::\d+)?(?:/[^\s'\"]*)?")
# What in a failed server's stderr says why: the rest of a long dump is stack frames and error-object fields.
_CAUSE = re.compile(r"\b(?:error|fatal|exception|failed|refused|denied|not found|no such|invalid|cannot)\b", re.I)
_NOISE = re.compile(
    r"^\s*(?:at\s|File \"|\^+$|[}\]]\s*,?$|Node\.js v\d|Traceback \(most recent call last\)"
    r"|(?:status|signal|pid|stdout|stderr|output|code|errno|syscall|path|spawnargs|cmd)\s*:)"
)
_TLS = re.compile(
    r"certificate verify failed|UnknownIssuer|invalid peer certificate|self[- ]signed certificate"
    r"|unable to (?:get local issuer|verify the first) certificate",
    re.I,
)


def _broken_answer(exc: Exception) -> str | None:
    """What is wrong with a line the SDK could not read that is a JSON-RPC answer all the same (a result that is
    no object, an error that is none, no result nor error, a jsonrpc other than "2.0", an id that is no integer
    or string, a number too long, a lone surrogate, nesting too deep); None for any other line, a log line say."""
    try:
        errors = exc.errors()  # type: ignore[attr-defined]  # pydantic's ValidationError
        first = errors[0]
    except Exception:
        return None
    value = first.get("input")
    if first.get("type") == "json_invalid" and isinstance(value, str):
        head = value.lstrip()[:200]
        if head.startswith("{") and '"jsonrpc"' in head:
            return f"the server wrote a JSON-RPC message that is not valid JSON: {_cut(str(first.get('msg', '')))}"
        return None
    # The whole message is the input of a field found missing (some branch of the union always misses one:
    # an answer has no "method"); the other errors give the value of the field at fault.
    whole = next((e.get("input") for e in errors if e.get("type") == "missing" and len(e.get("loc") or ()) == 2), None)
    if not isinstance(whole, dict) or "id" not in whole or "method" in whole:
        return None  # a request, a notification, or other JSON (a log line): not an answer
    if "jsonrpc" not in whole and "result" not in whole:
        return None  # a log line may carry an id and an error ({"id": 1, "level": "error", "error": "..."})
    branch = "JSONRPCError" if "error" in whole and "result" not in whole else "JSONRPCResponse"
    for error in errors:
        loc = error.get("loc") or ()
        if loc[:1] == (branch,):
            what = ".".join(str(part) for part in loc[1:] if part not in ("int", "str")) or "the message"
            request = _cut(repr(whole["id"]))
            return f"the server's answer to request {request} is not valid JSON-RPC: {what}: {error.get('msg')}"
    return None


def _stdout_line(exc: Exception) -> str:
    """': <the line>' (cut to 100 characters) from the SDK's parse error, or "" when it does not say."""
    try:
        value = exc.errors()[0]["input"]  # type: ignore[attr-defined]  # pydantic's ValidationError
    except Exception:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if len(text) > 100:
        text = text[:100] + "..."
    return f": {text!r}"


async def _guarded(read: Any, write: Any, seen: _Exchange) -> list[dict[str, Any]]:
    """_list, with lines on stdout that are not JSON-RPC set aside (and noted), as the SDK's own client
    skips them, and every result that carries a tools list kept as it arrived, for a page the SDK refuses."""
    import anyio

    send, receive = anyio.create_memory_object_stream[Any](64)

    async def pump() -> None:
        async with send:
            async for item in read:
                seen.heard = True
                if isinstance(item, Exception):
                    broken = _broken_answer(item)
                    if broken is not None:  # the server did answer: waiting for the timeout would be for nothing
                        raise SnapshotError(broken)
                    seen.stray += 1
                    line = _stdout_line(item)
                    if seen.stray == 1:
                        seen.first_stray = line
                    if not seen.endpoint and (found := _ENDPOINT.search(line)):
                        seen.endpoint = found.group().rstrip(".,;:)'\"")
                    continue
                seen.answered = True
                message = getattr(item, "message", None)
                if getattr(message, "method", None) is not None and getattr(message, "id", None) is not None:
                    seen.requests += 1  # the server asks the client: each waits on an answer it may never read
                    if seen.requests > MAX_SERVER_REQUESTS:
                        raise SnapshotError(
                            f"the server sent over {MAX_SERVER_REQUESTS:,} requests of its own before answering"
                        )
                result = getattr(message, "result", None)
                if isinstance(result, dict) and "tools" in result:
                    seen.arrived.append(result)
                try:
                    await send.send(item)
                except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                    return  # the listing is done and the session gone: what the server says now is not read

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(pump)
            tools = await _list(receive, write, seen)
            group.cancel_scope.cancel()
    except anyio.get_cancelled_exc_class():  # timed out: what the server says once it is stopped is noise
        seen.stderr_size = os.fstat(seen.errlog.fileno()).st_size
        raise
    return tools


async def _page(request: Awaitable[Any], seen: _Exchange) -> Any:
    """One tools/list result. A result the SDK refuses (pydantic's ValidationError: a tool without an
    inputSchema of type object, say) is taken as it arrived, and the refusal kept: a linter must read a
    broken catalog, not stop at it."""
    from pydantic import ValidationError

    before = len(seen.arrived)
    try:
        return await _answered("tools/list", request, seen)
    except ValidationError as exc:
        if len(seen.arrived) == before:  # not the result of this request: the SDK failed on something else
            raise
        seen.refused.append(exc)
        return seen.arrived[-1]


def _refusal_note(refused: list[Any]) -> str:
    errors = [e for exc in refused for e in exc.errors()]
    first = errors[0] if errors else {"loc": (), "msg": "invalid"}
    where = ".".join(str(part) for part in first.get("loc", ())) or "the result"
    count = f"{len(errors)} problem{'s' * (len(errors) != 1)}"
    return (
        f"the MCP SDK refuses this tools/list ({count}; first: {where}: {first.get('msg', 'invalid')}), "
        "so clients built on it may fail to load these tools; kept as the server sent it"
    )


async def _list(read: Any, write: Any, seen: _Exchange) -> list[dict[str, Any]]:
    from mcp import ClientSession, types
    from pydantic import TypeAdapter

    raw = TypeAdapter(dict[str, Any])
    async with ClientSession(read, write) as session:
        await _answered("initialize", session.initialize(), seen)
        tools: list[dict[str, Any]] = []
        size = 0  # characters of the tools as compact JSON, a lower bound on the bytes of the file
        cursor: str | None = None
        for _ in range(MAX_PAGES):
            params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
            page = await _page(session.send_request(types.ListToolsRequest(params=params), raw), seen)
            items = page.get("tools")
            if not isinstance(items, list):
                raise SnapshotError("tools/list returned no tools array")
            tools.extend(items)
            size += _json_size(items)
            _within_limits(len(tools), size)
            cursor = page.get("nextCursor")
            if cursor is not None and not isinstance(cursor, str):  # the spec's cursor is an opaque string
                shown = _cut(json.dumps(cursor, ensure_ascii=False, default=str))
                raise SnapshotError(f"tools/list returned a nextCursor that is not a string: {shown}")
            if not cursor:
                if seen.stray:
                    seen.notes.append(
                        f"the server wrote {seen.stray_lines()}; the MCP SDK skips such lines, but a client"
                        " that reads stdout strictly fails on them (logs go to stderr)"
                    )
                if seen.refused:
                    seen.notes.append(_refusal_note(seen.refused))
                return tools
        raise SnapshotError(f"tools/list returned a next page {MAX_PAGES} times; giving up")


def _within_limits(count: int, size: int) -> None:
    """SnapshotError once the tools listed so far are past what catalint reads (MAX_TOOLS tools, MAX_FILE_BYTES),
    said as the loader says it, rather than collecting pages until the timeout."""
    from catalint import loader

    if count > loader.MAX_TOOLS:
        raise SnapshotError(f"{count:,} tools: catalint reads at most {loader.MAX_TOOLS:,} tools per catalog")
    if size > loader.MAX_FILE_BYTES:
        raise _past_limit("the tools are")


def _json_size(items: list[Any]) -> int:
    """Characters of items as compact JSON: a lower bound on the bytes they take in the snapshot file."""
    try:
        return len(json.dumps(items, ensure_ascii=False, separators=(",", ":")))
    except (ValueError, RecursionError):  # NaN or deep nesting: take() says so once the listing is done
        return 0


# The errors the SDK's HTTP transport makes up for a non-2xx answer that carries no JSON-RPC error.
_HTTP_STAND_INS = {(-32601, "Not Found"), (-32603, "Server returned an error response"), (-32600, "Session terminated")}


async def _answered(method: str, request: Awaitable[Any], seen: _Exchange) -> Any:
    """The request's result; a JSON-RPC error the server answered with becomes a SnapshotError that names
    the method and the server's code and message, or the HTTP status where the SDK made the error up
    (the SDK's word for a closed connection passes through)."""
    from mcp import MCPError
    from mcp.types import CONNECTION_CLOSED

    try:
        return await request
    except MCPError as exc:
        code, text = exc.error.code, exc.error.message
        if code == CONNECTION_CLOSED and text == "Connection closed":
            raise
        if seen.http_errors and (code, text) in _HTTP_STAND_INS:
            status, reason = seen.http_errors[-1]
            hint = " (is the URL the server's MCP endpoint?)" if status in (404, 405) else ""
            raise SnapshotError(f"the server answered {method} with HTTP {status} {reason}{hint}") from None
        message = _cut(text.strip().splitlines()[0]) if text.strip() else "no message"
        raise SnapshotError(f"the server answered {method} with error {code}: {message}") from None


# Commands that fetch and install the server on their first run, which can outlast a short timeout.
_INSTALLERS = frozenset({"npx", "pnpx", "bunx", "uvx", "pipx", "pnpm", "yarn", "deno"})


def _explain(exc: BaseException, server: Server, seen: _Exchange) -> str:
    exc = _innermost(exc)
    if isinstance(exc, SnapshotError):
        what = str(exc)
    elif isinstance(exc, TimeoutError) or type(exc).__name__ in ("CancelledError", "Cancelled"):
        what = f"timed out after {server.timeout:g} s" + (f" ({server.timeout_hint})" if server.timeout_hint else "")
        if seen.endpoint and not seen.answered and not server.url:
            what += f"; it printed the address {seen.endpoint}: does it serve MCP over HTTP there (--url)?"
        elif not seen.answered and not server.url:
            said = "nothing came on stdout" if not seen.heard else "no JSON-RPC came on stdout"
            runner = os.path.basename(server.command[0]) if server.command else ""
            if not seen.heard and runner.removesuffix(".cmd") in _INSTALLERS:
                what += (
                    f"; {said}: {runner} may still have been installing the server on its first run (try again,"
                    " or a longer --timeout); else, does it serve MCP on stdio, not on SSE or HTTP?"
                )
            else:
                what += f"; {said} (does it serve MCP on stdio, not on SSE or HTTP?)"
    elif str(exc).strip() == "Connection closed":  # the SDK's word for a server that went away
        what = "the server closed the connection before answering" + ("" if server.url else " (did it exit?)")
    elif isinstance(exc, (FileNotFoundError, PermissionError)) and not server.url and server.command:
        what = _cannot_start(server.command[0], exc)
    elif server.url and type(exc).__name__ == "ConnectError":  # the HTTP client's: nothing answered there
        what = f"cannot connect: {str(exc).strip() or 'no answer'} (is the server running, at this address?)"
    else:
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        what = f"{type(exc).__name__}: {detail}"
    written = _stderr_read(seen)
    tail = _stderr_tail(written)
    stderr = f"; server stderr: {' | '.join(tail)}" if tail else ""
    if not server.url and not server.inherit_env and _TLS.search(written):
        what += (
            "; the server could not verify a certificate: it was started with only a few environment"
            " variables (HOME, PATH, ...), and --inherit-env passes SSL_CERT_FILE and the rest"
        )
    stray = f"; it wrote {seen.stray_lines()}" if seen.stray else ""
    return f"{server.label()}: {what}{stray}{stderr}"


# Requests a server may send the client in one snapshot (a real one sends a few: roots/list, ping); each
# is a task that waits to write its answer: endless pings to a server that read none took 704 MB in 10 s.
MAX_SERVER_REQUESTS = 1_000
STDERR_READ = 1 << 16  # bytes of a server's stderr read from its start, and from its end


def _stderr_read(seen: _Exchange) -> str:
    """What the server wrote on stderr (up to where catalint stopped it, at a timeout): its first and last
    STDERR_READ bytes, so that a server that wrote a gigabyte there costs no more to explain than one line
    (reading it whole took a minute and 2 GB)."""
    seen.errlog.flush()
    raw = seen.errlog.buffer
    end = raw.seek(0, os.SEEK_END) if seen.stderr_size is None else seen.stderr_size
    raw.seek(0)
    if end <= 2 * STDERR_READ:
        data = raw.read(end)
    else:
        head = raw.read(STDERR_READ)
        raw.seek(end - STDERR_READ)
        data = head + b"\n" + raw.read(STDERR_READ)
    return data.decode("utf-8", "replace")


def _cannot_start(program: str, exc: OSError) -> str:
    """Why the command did not start."""
    if isinstance(exc, PermissionError):
        return f"cannot start {program!r}: permission denied (is it executable?)"
    return f"cannot start {program!r}: no such program (is it installed, and on PATH?)"


def _stderr_tail(written: str) -> list[str]:
    """The last STDERR_LINES lines of stderr that say something, stack frames and error-object fields left
    out, led by the first line that names a cause when the tail does not hold it."""
    lines = [line.rstrip() for line in written.splitlines() if line.strip()]
    telling = [line for line in lines if not _NOISE.match(line)] or lines
    tail = telling[-STDERR_LINES:]
    cause = next((line for line in telling if _CAUSE.search(line)), None)
    if cause is not None and cause not in tail:
        tail = [cause, "...", *tail[1:]]
    return [_cut(line) for line in tail]


MAX_QUOTED = 300  # characters of a server's line (its stderr, an error message) quoted in an error


def _cut(line: str) -> str:
    """line, cut to MAX_QUOTED characters with an ellipsis: a server may print megabytes on one line."""
    return line if len(line) <= MAX_QUOTED else line[:MAX_QUOTED] + "..."


def _innermost(exc: BaseException) -> BaseException:
    """The error inside exception groups: a SnapshotError if there is one, else the first."""
    while getattr(exc, "exceptions", None):
        inner = list(exc.exceptions)  # type: ignore[attr-defined]
        exc = next((e for e in inner if isinstance(_innermost(e), SnapshotError)), inner[0])
    return exc


def render(tools: list[dict[str, Any]], as_yaml: bool) -> str:
    """The snapshot file: {"tools": [...]}, 2-space JSON (or YAML), trailing newline; JSON on one line when
    the indentation would take it past the most catalint reads (a file it wrote must read back), and a
    SnapshotError when even that, or the YAML, is past it."""
    doc = {"tools": tools}
    if as_yaml:
        import yaml

        text = yaml.dump(doc, Dumper=_yaml_dumper(), sort_keys=False, allow_unicode=True, default_flow_style=False)
    else:
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        if _over_limit(text):
            text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
    if _over_limit(text):
        raise _past_limit("the YAML file would be" if as_yaml else "the file would be")
    return text


_DUMPER: Any = None


def _yaml_dumper() -> Any:
    r"""PyYAML's safe dumper, but a string holding NEL (U+0085) is double-quoted, where it is written as
    the escape \N: PyYAML writes it raw in single quotes, where YAML reads a line break and folds it to a
    space, so "city.\x85Returns" came back as "city. Returns" and SEC-002 no longer saw it."""
    global _DUMPER
    if _DUMPER is None:
        import yaml

        class SnapshotDumper(yaml.SafeDumper):
            def choose_scalar_style(self) -> Any:
                if "\x85" in self.event.value:
                    return '"'
                return super().choose_scalar_style()

        _DUMPER = SnapshotDumper
    return _DUMPER


def live_catalog(server: Server, notes: list[str], display: str) -> Catalog:
    """The server's catalog, snapshotted in memory and read as the snapshot file would be (so positions
    are those of that file), shown as display; what the snapshot notices goes to notes."""
    from catalint.loader import load_text

    return load_text(render(take(server, notes), False), "-", display)


def is_yaml_name(path: str) -> bool:
    return path.lower().endswith((".yaml", ".yml"))
