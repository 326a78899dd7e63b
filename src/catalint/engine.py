"""Run the enabled rules over a catalog and apply the settings to what they find.

Large catalogs are split across CPU cores with fork (Linux only): the tools are
cut into chunks, which the parent and its forked workers take in turn from a
shared queue and lint against the same parsed catalog; workers send each
chunk's findings back through a pipe. The result is identical to a sequential
run, crashes included; only the wall time differs.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import sys
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from catalint.config import FileIgnore, Settings, ToolIgnore
from catalint.loader import LoadError
from catalint.model import Catalog, Finding, Severity, Span, Tool
from catalint.registry import CatalogHit, Hit, Rule, all_rules, set_options
from catalint.tdqs import HEURISTICS, Part, Score
from catalint.tdqs import score as tdqs_score

PARALLEL_MIN_TOOLS = 200  # below this, forking saves too little (2 cores: 200 tools -9%, 300 -21%, 1,000 -34%)


class RuleCrash(LoadError):
    """A rule could not finish on a file: reported in one line, exit code 2; the other files go on."""

    def fields(self) -> tuple[str, str, int | None, int | None, str | None]:
        return self.path, self.message, self.line, self.col, self.pointer


@dataclass
class ToolResult:
    tool: Tool
    findings: list[Finding]
    start: tuple[int, int]  # line and column of the tool object
    score: Score | None = None  # TDQS, computed beside the rules (in the worker that linted the tool)


@dataclass
class FileResult:
    catalog: Catalog
    tools: list[ToolResult]
    suppressed: int = 0
    fail_severity: Severity = Severity.CRITICAL
    quality: Any = None  # quality.FileQuality, once assessed

    def failing(self) -> bool:
        return any(f.severity >= self.fail_severity for t in self.tools for f in t.findings)

    def gate_failed(self) -> bool:
        return self.quality is not None and not self.quality.passed()

    @property
    def findings(self) -> list[Finding]:
        out = [f for t in self.tools for f in t.findings]
        out.sort(key=lambda f: (f.span.line, f.span.col, f.code))
        return out


class _Active(NamedTuple):
    """One enabled rule as it applies to one file."""

    rule: Rule
    severity: Severity
    fixed: bool  # the severity comes from the settings, so a hit's own severity does not count
    file_ignore: FileIgnore | None


@dataclass
class _Plan:
    """What applies to one file, worked out once: rules with their severity and file ignore."""

    rules: list[_Active]  # per-tool rules
    catalog_rules: list[_Active]
    settings: Settings
    rel: str

    @property
    def ignores(self) -> list[FileIgnore | ToolIgnore]:
        return [*self.settings.per_file_ignores, *self.settings.per_tool_ignores]


def _enabled(settings: Settings) -> list[Rule]:
    codes = set(settings.enabled_codes())
    return [r for r in all_rules() if r.code in codes]


def lint_catalog(catalog: Catalog, settings: Settings, workers: int | None = None) -> FileResult:
    """Lint every tool; workers=None picks a process count from the catalog size."""
    rel = settings.relative(catalog.path) if catalog.path != "-" else catalog.display
    set_options(
        {"tool_token_budget": settings.tool_token_budget, "catalog_token_budget": settings.catalog_token_budget}
    )
    active = [
        _Active(
            r,
            settings.severity_of(r.code, r.severity),
            settings.severity_of(r.code, Severity.INFO) == settings.severity_of(r.code, Severity.CRITICAL),
            settings.file_ignored(rel, r.code),
        )
        for r in _enabled(settings)
    ]
    plan = _Plan(
        [a for a in active if a.rule.scope == "tool"], [a for a in active if a.rule.scope == "catalog"], settings, rel
    )
    if workers is None:
        workers = default_workers(len(catalog.tools))
    if workers > 1 and len(catalog.tools) > 1:
        results, suppressed = _lint_forked(catalog, plan, workers)
    else:
        results, suppressed = _lint_tools(catalog, catalog.tools, plan)
    if plan.catalog_rules:
        suppressed += _lint_catalog_rules(catalog, plan, results)
    release = getattr(catalog.source, "release", None)
    if release is not None:
        release()
    return FileResult(catalog, results, suppressed, settings.fail_severity)


def default_workers(tool_count: int) -> int:
    """Processes for a catalog of this size; CATALINT_WORKERS=N caps it (1: never fork)."""
    if tool_count < PARALLEL_MIN_TOOLS or not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return 1
    cap = os.environ.get("CATALINT_WORKERS", "")
    limit = int(cap) if cap.isdigit() and int(cap) > 0 else 4
    return min(limit, len(os.sched_getaffinity(0)))


def _lint_tools(catalog: Catalog, tools: list[Tool], plan: _Plan) -> tuple[list[ToolResult], int]:
    results: list[ToolResult] = []
    suppressed = 0
    for tool in tools:
        found: list[Finding] = []
        for active in plan.rules:
            try:
                hits = list(active.rule.check(tool))  # type: ignore[arg-type]
            except RecursionError:  # nesting the parser accepted but a rule's walk cannot follow
                line, col = catalog.start(tool.pointer)
                message = f"tool {tool.name!r} is nested too deeply for {active.rule.code} to check"
                raise RuleCrash(catalog.display, message, line, col, tool.pointer) from None
            except Exception as exc:
                raise RuleCrash(
                    catalog.display,
                    f"internal error in {active.rule.code} on tool {tool.name!r}: "
                    f"{type(exc).__name__}: {exc} (please report this)",
                ) from exc
            if hits:
                suppressed += _emit(catalog, plan, active, tool, hits, found)
        try:
            score = tdqs_score(tool)
        except RecursionError:
            line, col = catalog.start(tool.pointer)
            raise RuleCrash(catalog.display, f"tool {tool.name!r} is nested too deeply to score", line, col) from None
        results.append(ToolResult(tool, found, catalog.start(tool.pointer), score))
        _release(tool)
    return results, suppressed


_KEEP = frozenset({"tdqs", "tokens"})  # small, and read again by the reports


def _release(tool: Tool) -> None:
    """Drop the derived views the rules built (joined texts, schema walks): they would otherwise
    live as long as the run, several times the tool's own size. Anything read later is rebuilt."""
    for key in [k for k in tool.cache if k not in _KEEP]:
        del tool.cache[key]


def _emit(catalog: Catalog, plan: _Plan, active: _Active, tool: Tool, hits: list[Hit], found: list[Finding]) -> int:
    """Turn one rule's hits on one tool into findings; returns how many were suppressed."""
    if len(hits) > 1:  # one $defs schema reached from two arguments is one finding
        unique: dict[str, Hit] = {}
        for hit in hits:
            unique.setdefault(hit.pointer, hit)
        hits = list(unique.values())
    if active.file_ignore is not None:
        active.file_ignore.used += len(hits)
        return len(hits)
    settings, code = plan.settings, active.rule.code
    suppressed = 0
    for hit in hits:
        if settings.per_tool_ignores:
            tool_ignore = settings.tool_ignored(tool.name, code, plan.rel)
            if tool_ignore is not None:
                tool_ignore.used += 1
                suppressed += 1
                continue
        severity = hit.severity if hit.severity is not None and not active.fixed else active.severity
        found.append(
            Finding(code, severity, tool.name, hit.pointer, hit.message, catalog.locate(hit.pointer), hit.suggestion)
        )
    return suppressed


def _lint_catalog_rules(catalog: Catalog, plan: _Plan, results: list[ToolResult]) -> int:
    """Rules over the whole file (duplicate names, ...): their findings join each tool's own."""
    by_index = {tr.tool.index: tr for tr in results}
    suppressed = 0
    for active in plan.catalog_rules:
        try:
            pairs: list[CatalogHit] = list(active.rule.check(catalog.tools))  # type: ignore[arg-type]
        except RecursionError:
            raise RuleCrash(
                catalog.display, f"the catalog is nested too deeply for {active.rule.code} to check"
            ) from None
        except Exception as exc:
            raise RuleCrash(
                catalog.display,
                f"internal error in {active.rule.code}: {type(exc).__name__}: {exc} (please report this)",
            ) from exc
        for tool, hit in pairs:
            tr = by_index[tool.index]
            suppressed += _emit(catalog, plan, active, tool, [hit], tr.findings)
    return suppressed


# Chunks per worker: enough that the processes finish within a chunk of each other, few enough
# that taking one and sending its results back costs nothing to speak of.
_CHUNKS_PER_WORKER = 40
_MIN_CHUNK = 16
_FRAME = struct.Struct("<I")  # each message from a worker: its length, then a pickle
_PIPE_SIZE = 1 << 20  # room for about a second of a worker's results between two reads


def _lint_forked(catalog: Catalog, plan: _Plan, workers: int) -> tuple[list[ToolResult], int]:
    """Lint the tools in chunks that this process and forked children take from a shared queue.

    The queue is a pipe holding every chunk's number, written before the fork: reading four
    bytes takes one chunk (the kernel keeps two readers apart), and a process that dies holds
    no lock. Whoever is faster takes more chunks, so all finish together. Children send each
    chunk's results as they go; this process reads them between its own chunks.
    """
    tools = catalog.tools
    size = max(_MIN_CHUNK, -(-len(tools) // (workers * _CHUNKS_PER_WORKER)))
    count = -(-len(tools) // size)
    queue, queue_in = os.pipe()
    os.write(queue_in, b"".join(i.to_bytes(4, "little") for i in range(count)))  # a few hundred bytes
    os.close(queue_in)  # so that an empty queue reads as the end
    sys.stdout.flush()
    sys.stderr.flush()
    children: list[_Worker] = []
    got = _Gathered(catalog, plan)
    try:
        for _ in range(workers - 1):
            read_fd, write_fd = os.pipe()
            try:
                pid = os.fork()
            except OSError:  # no process to spare: the chunks it would have taken stay here
                os.close(read_fd)
                os.close(write_fd)
                break
            if pid == 0:  # the child: lint chunks, report, leave without cleanup
                os.close(read_fd)
                for other in children:
                    os.close(other.fd)
                _child(catalog, plan, queue, size, write_fd)
            os.close(write_fd)
            children.append(_Worker(pid, read_fd, got))
        while (index := _take(queue)) is not None:
            try:
                results, suppressed = _lint_tools(catalog, tools[index * size : (index + 1) * size], plan)
            except RuleCrash as exc:
                got.crashes.append((index, exc))
                break
            got.done[index] = results
            got.suppressed += suppressed
            for child in children:
                child.receive(wait=False)
        if got.crashes:  # the chunks after a crash need no linting: empty the queue
            while _take(queue) is not None:
                pass
        for child in children:
            child.receive(wait=True)
    finally:
        os.close(queue)
        for child in children:
            child.close()
    if got.crashes:  # the crash a sequential run meets first: every chunk before it was linted
        raise min(got.crashes, key=lambda c: c[0])[1]
    if len(got.done) != count:
        raise RuleCrash(catalog.display, "a lint worker process died")
    return [tr for index in range(count) for tr in got.done[index]], got.suppressed


def _take(queue: int) -> int | None:
    """The next chunk's number, or None when the queue is empty."""
    data = os.read(queue, 4)
    return int.from_bytes(data, "little") if len(data) == 4 else None


@dataclass
class _Gathered:
    """What the processes have linted so far, by chunk number."""

    catalog: Catalog
    plan: _Plan
    done: dict[int, list[ToolResult]] = field(default_factory=dict)
    crashes: list[tuple[int, RuleCrash]] = field(default_factory=list)  # (chunk, its first crash)
    suppressed: int = 0


class _Worker:
    """A forked child, seen from the parent: the pipe its messages arrive on."""

    def __init__(self, pid: int, fd: int, got: _Gathered) -> None:
        self.pid = pid
        self.fd = fd
        self.got = got
        self.buffer = bytearray()
        self.finished = False  # its last message arrived
        self.reaped = False
        import fcntl  # Unix only, as fork is

        try:
            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_SIZE)
        except OSError:  # capped lower by the system: the child keeps the rest until read
            pass
        os.set_blocking(fd, False)

    def receive(self, wait: bool) -> None:
        """Take in the messages that have arrived (wait: all of them, to the child's end)."""
        if self.reaped:
            return
        if wait:
            os.set_blocking(self.fd, True)
        ended = False
        while not ended:
            try:
                data = os.read(self.fd, _PIPE_SIZE)
            except BlockingIOError:
                data = None
            if data == b"":
                ended = True
            elif data:
                self.buffer += data
            self._messages()
            if not wait and data is None:
                return
        self.close()
        if not self.finished and not self.got.crashes:
            raise RuleCrash(self.got.catalog.display, "a lint worker process died")

    def _messages(self) -> None:
        got, catalog = self.got, self.got.catalog
        buffer, at = self.buffer, 0
        while len(buffer) - at >= _FRAME.size:
            (length,) = _FRAME.unpack_from(buffer, at)
            if len(buffer) - at - _FRAME.size < length:
                break
            body = bytes(memoryview(buffer)[at + _FRAME.size : at + _FRAME.size + length])
            at += _FRAME.size + length
            try:
                message = pickle.loads(body)
            except Exception:
                raise RuleCrash(catalog.display, "a lint worker process died") from None
            kind = message[0]
            if kind == "chunk":
                _, index, rows, part_suppressed = message
                got.done[index] = [
                    ToolResult(catalog.tools[i], [_unflat(row) for row in findings], start, _unflat_score(score))
                    for i, findings, start, score in rows
                ]
                got.suppressed += part_suppressed
            elif kind == "crash":
                got.crashes.append((message[1], RuleCrash(*message[2])))
            else:  # "done": how often each ignore matched, in this child
                for entry, extra in zip(got.plan.ignores, message[1], strict=True):
                    entry.used += extra
                self.finished = True
        del buffer[:at]

    def close(self) -> None:
        """Stop the child if it still runs, and reap it."""
        if self.reaped:
            return
        self.reaped = True
        os.close(self.fd)
        if not self.finished:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except OSError:
                pass
        os.waitpid(self.pid, 0)


def _child(catalog: Catalog, plan: _Plan, queue: int, size: int, write_fd: int) -> None:
    code = 0
    index = 1 << 31  # outside any chunk
    out = _Sender(write_fd)
    try:
        try:
            before = [entry.used for entry in plan.ignores]
            tools = catalog.tools
            while (taken := _take(queue)) is not None:
                index = taken
                results, suppressed = _lint_tools(catalog, tools[index * size : (index + 1) * size], plan)
                rows = [
                    (tr.tool.index, [_flat(f) for f in tr.findings], tr.start, _flat_score(tr.score)) for tr in results
                ]
                out.send(("chunk", index, rows, suppressed))
            out.send(("done", [entry.used - b for entry, b in zip(plan.ignores, before, strict=True)]))
        except RuleCrash as exc:
            out.send(("crash", index, exc.fields()))
        except BaseException as exc:  # sent to the parent, which reports it
            out.send(
                ("crash", index, (catalog.display, f"internal error: {type(exc).__name__}: {exc}", None, None, None))
            )
        out.finish()
    except BaseException:  # the parent sees the messages stop short
        code = 1
    os._exit(code)


class _Sender:
    """A child's side of its pipe: messages wait here while the pipe is full, so the child
    goes on linting while the parent is busy with its own chunk."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending = bytearray()
        os.set_blocking(fd, False)

    def send(self, message: Any) -> None:
        body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        self.pending += _FRAME.pack(len(body))
        self.pending += body
        self._flush()

    def _flush(self) -> None:
        written = 0
        view = memoryview(self.pending)
        try:
            while written < len(view):
                written += os.write(self.fd, view[written:])
        except BlockingIOError:
            pass
        finally:
            view.release()
        del self.pending[:written]

    def finish(self) -> None:
        os.set_blocking(self.fd, True)
        self._flush()
        os.close(self.fd)


FlatScore = tuple[float, bool, tuple[tuple[float, list[str]], ...]]


def _flat_score(score: Score | None) -> FlatScore | None:
    return None if score is None else (score.score, score.capped, tuple((p.value, p.notes) for p in score.parts))


def _unflat_score(row: FlatScore | None) -> Score | None:
    if row is None:
        return None
    total, capped, parts = row
    return Score(
        total, [Part(key, v, notes) for (key, _, _), (v, notes) in zip(HEURISTICS, parts, strict=True)], capped
    )


# Findings cross the pipe as plain tuples: pickling dataclasses costs several times more.
FlatFinding = tuple[str, int, str, str, str, int, int, int, int, "str | None"]


def _flat(f: Finding) -> FlatFinding:
    span = f.span
    return (f.code, int(f.severity), f.tool, f.pointer, f.message, *span_tuple(span), f.suggestion)


def span_tuple(span: Span) -> tuple[int, int, int, int]:
    return span.line, span.col, span.end_line, span.end_col


_SEVERITIES = {int(s): s for s in Severity}  # Severity(n) costs a microsecond a call


def _unflat(row: FlatFinding) -> Finding:
    code, severity, tool, pointer, message, line, col, end_line, end_col, suggestion = row
    span = Span(line, col, end_line, end_col)
    return Finding(code, _SEVERITIES[severity], tool, pointer, message, span, suggestion)
