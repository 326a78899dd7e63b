"""Lint the tools of one or many catalogs across forked processes (Linux).

The tools of every catalog in the run are cut into chunks; a chunk may end one
small file and begin the next. The chunk numbers sit in a pipe written before
the fork: reading four bytes takes one (the kernel keeps two readers apart), and
a process that dies holds no lock. Whoever is faster takes more chunks, so all
finish together. Children send each chunk's results as they go, holding them
back while the pipe is full; the parent reads them between its own chunks.

A rule crash ends only its own file, and the crash reported is the one a
sequential run would meet first: every chunk before it has been linted, and a
process skips the later chunks of a file it knows has crashed.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from catalint import engine
from catalint.config import FileIgnore, ToolIgnore
from catalint.engine import RuleCrash, ToolResult, cap_findings
from catalint.model import Catalog, Finding, Severity, Span, Tool
from catalint.tdqs import HEURISTICS, Part, Score
from catalint.tokens import ToolTokens

# Chunks per worker: enough that the processes finish within a chunk of each other, few enough
# that taking one and sending its results back costs nothing to speak of.
_CHUNKS_PER_WORKER = 40
_MAX_CHUNKS = 1000  # their numbers must fit in a new pipe before any process reads it
_MIN_CHUNK = 16
_FRAME = struct.Struct("<I")  # each message from a worker: its length, then a pickle
_PIPE_SIZE = 1 << 20  # room for about a second of a worker's results between two reads

Segment = tuple[int, int, int]  # file number, first tool, end (exclusive)
LintSegment = Callable[[int, int, int], tuple[list[ToolResult], int]]
Outcome = tuple[list[ToolResult], int] | RuleCrash  # a file's results and suppressed count, or its crash
Done = tuple[list[ToolResult], int, int] | RuleCrash  # the same and how many findings were dropped (cap_findings)


def chunks(sizes: list[int], workers: int) -> list[list[Segment]]:
    """Cut files of these tool counts into chunks of about equal size, in file order."""
    total = sum(sizes)
    size = max(_MIN_CHUNK, -(-total // min(workers * _CHUNKS_PER_WORKER, _MAX_CHUNKS)))
    out: list[list[Segment]] = []
    current: list[Segment] = []
    room = size
    for number, count in enumerate(sizes):
        start = 0
        while start < count:
            take = min(room, count - start)
            current.append((number, start, start + take))
            start += take
            room -= take
            if not room:
                out.append(current)
                current, room = [], size
    if current:
        out.append(current)
    return out


def lint_forked(
    catalogs: list[Catalog],
    ignores: list[FileIgnore | ToolIgnore],
    lint: LintSegment,
    workers: int,
    first: Callable[[], None] | None = None,
) -> list[Done]:
    """Each catalog's outcome, in order: (results, suppressed) or the RuleCrash that ended it.

    lint(file, start, end) lints one segment; ignores are the ignore entries whose use
    counts the children must send back (each once, though several files may share one).
    first: work of the parent's own that needs no linted tool, done once the children have
    started (they take more chunks meanwhile).
    """
    table = chunks([len(c.tools) for c in catalogs], workers)
    queue, queue_in = os.pipe()
    os.write(queue_in, b"".join(i.to_bytes(4, "little") for i in range(len(table))))  # at most 4 KB
    os.close(queue_in)  # so that an empty queue reads as the end
    sys.stdout.flush()
    sys.stderr.flush()
    got = _Gathered(catalogs, ignores)
    children: list[_Worker] = []
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
                _child(table, lint, ignores, queue, write_fd)
            os.close(write_fd)
            children.append(_Worker(pid, read_fd, got))
        if first is not None:
            first()
        while (index := _take(queue)) is not None:
            got.chunk(index, _lint_chunk(table[index], lint, got.crashed))
            for child in children:
                child.receive(wait=False)
        for child in children:
            child.receive(wait=True)
    finally:
        os.close(queue)
        for child in children:
            child.close()
    return got.outcomes(table)


def _take(queue: int) -> int | None:
    """The next chunk's number, or None when the queue is empty."""
    data = os.read(queue, 4)
    return int.from_bytes(data, "little") if len(data) == 4 else None


def _lint_chunk(chunk: list[Segment], lint: LintSegment, crashed: set[int]) -> list[tuple[int, int, Outcome | None]]:
    """Each segment's (file, start, outcome), the outcome None where the file had crashed before."""
    out: list[tuple[int, int, Outcome | None]] = []
    for number, start, end in chunk:
        if number in crashed:  # a later part of a file that has crashed: nothing to add
            out.append((number, start, None))
            continue
        try:
            out.append((number, start, lint(number, start, end)))
        except RuleCrash as exc:
            crashed.add(number)
            out.append((number, start, exc))
    return out


@dataclass
class _Gathered:
    """What the processes have linted so far."""

    catalogs: list[Catalog]
    ignores: list[FileIgnore | ToolIgnore]  # whose use counts the children send back
    parts: dict[int, list[tuple[int, list[ToolResult]]]] = field(default_factory=dict)  # file -> (start, results)
    crashes: dict[int, tuple[int, RuleCrash]] = field(default_factory=dict)  # file -> (chunk, its first crash)
    crashed: set[int] = field(default_factory=set)  # files this process knows have crashed
    completed: set[int] = field(default_factory=set)  # chunks whose results are all in
    failure: str | None = None  # a worker ended without finishing: every file is in doubt
    # By file: findings suppressed, findings held, and findings past the cap (in tool order, among the
    # parts received so far).
    suppressed: list[int] = field(init=False)
    findings: list[int] = field(init=False)
    dropped: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.suppressed, self.findings, self.dropped = ([0] * len(self.catalogs) for _ in range(3))

    def chunk(self, index: int, segments: list[tuple[int, int, Outcome | None]]) -> None:
        """Take in one linted chunk, from this process or a child: each segment's outcome."""
        for number, start, outcome in segments:
            if isinstance(outcome, RuleCrash):
                self.crashed.add(number)
                known = self.crashes.get(number)
                if known is None or index < known[0]:
                    self.crashes[number] = (index, outcome)
            elif outcome is not None:
                results, suppressed = outcome
                self.parts.setdefault(number, []).append((start, results))
                self.suppressed[number] += suppressed
                self.findings[number] += sum(len(tr.findings) for tr in results)
                if self.findings[number] > engine.MAX_FILE_FINDINGS:
                    self._cap(number)
        self.completed.add(index)

    def _cap(self, number: int) -> None:
        """Drop the findings past the cap among the parts received so far. Parts yet to come can only
        move the cut earlier, so what goes now would go in the end too."""
        parts = sorted(self.parts[number], key=lambda part: part[0])
        dropped = cap_findings([tr for _, results in parts for tr in results])
        self.dropped[number] += dropped
        self.findings[number] -= dropped

    def outcomes(self, table: list[list[Segment]]) -> list[Done]:
        missing = {number for i, chunk in enumerate(table) if i not in self.completed for number, _, _ in chunk}
        out: list[Done] = []
        for number, catalog in enumerate(self.catalogs):
            if number in self.crashes:
                out.append(self.crashes[number][1])
            elif self.failure is not None or number in missing:
                out.append(RuleCrash(catalog.display, self.failure or "a lint worker process died"))
            else:
                parts = sorted(self.parts.get(number, []), key=lambda part: part[0])
                out.append(
                    ([tr for _, results in parts for tr in results], self.suppressed[number], self.dropped[number])
                )
        return out


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
        while True:
            try:
                data = os.read(self.fd, _PIPE_SIZE)
            except BlockingIOError:
                data = None
            if data:
                self.buffer += data
            self._messages()
            if data == b"":
                break
            if data is None and not wait:
                return
        self.close()
        if not self.finished and self.got.failure is None:
            self.got.failure = "a lint worker process died"

    def _messages(self) -> None:
        got = self.got
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
                got.failure = "a lint worker process died"
                continue
            kind = message[0]
            if kind == "chunk":
                _, index, segments = message
                got.chunk(index, [(n, start, _unflat_outcome(got.catalogs[n], flat)) for n, start, flat in segments])
            elif kind == "fail":
                got.failure = message[1]
            else:  # "done": how often each ignore matched, in this child
                for entry, extra in zip(got.ignores, message[1], strict=True):
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


def _child(
    table: list[list[Segment]], lint: LintSegment, ignores: list[FileIgnore | ToolIgnore], queue: int, write_fd: int
) -> None:
    code = 0
    out = _Sender(write_fd)
    try:
        try:
            before = [entry.used for entry in ignores]
            crashed: set[int] = set()
            while (index := _take(queue)) is not None:
                segments = _lint_chunk(table[index], lint, crashed)
                out.send(("chunk", index, [(n, start, _flat_outcome(outcome)) for n, start, outcome in segments]))
            out.send(("done", [entry.used - b for entry, b in zip(ignores, before, strict=True)]))
        except BaseException as exc:  # sent to the parent, which reports it on every file
            out.send(("fail", f"internal error: {type(exc).__name__}: {exc} (please report this)"))
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


def _flat_outcome(outcome: Outcome | None) -> Any:
    """A segment's outcome as plain tuples for the pipe: None, ("crash", fields) or (rows, suppressed)."""
    if outcome is None:
        return None
    if isinstance(outcome, RuleCrash):
        return ("crash", outcome.fields())
    results, suppressed = outcome
    rows = [
        (tr.tool.index, [_flat(f) for f in tr.findings], tr.start, _flat_score(tr.score), _flat_tokens(tr.tool))
        for tr in results
    ]
    return rows, suppressed


def _unflat_outcome(catalog: Catalog, flat: Any) -> Outcome | None:
    if flat is None:
        return None
    if flat[0] == "crash":
        return RuleCrash(*flat[1])
    rows, suppressed = flat
    tools = catalog.tools
    results = []
    for i, found, where, score, tokens in rows:
        if tokens is not None:
            tools[i].cache["tokens"] = ToolTokens(*tokens)
        results.append(ToolResult(tools[i], [_unflat(row) for row in found], where, _unflat_score(score)))
    return results, suppressed


# Findings cross the pipe as plain tuples: pickling dataclasses costs several times more.
FlatFinding = tuple[str, int, str, str, str, int, int, int, int, "str | None"]
FlatScore = tuple[float, bool, tuple[tuple[float, list[str]], ...]]


def _flat(f: Finding) -> FlatFinding:
    span = f.span
    return (
        f.code,
        int(f.severity),
        f.tool,
        f.pointer,
        f.message,
        span.line,
        span.col,
        span.end_line,
        span.end_col,
        f.suggestion,
    )


_SEVERITIES = {int(s): s for s in Severity}  # Severity(n) costs a microsecond a call


def _unflat(row: FlatFinding) -> Finding:
    code, severity, tool, pointer, message, line, col, end_line, end_col, suggestion = row
    span = Span(line, col, end_line, end_col)
    return Finding(code, _SEVERITIES[severity], tool, pointer, message, span, suggestion)


def _flat_tokens(tool: Tool) -> tuple[int, int, int, int] | None:
    """The tool's token counts, when the worker counted them (engine._Plan.tokens)."""
    counted = tool.cache.get("tokens")
    return None if counted is None else (counted.name, counted.description, counted.input_schema, counted.whitespace)


def _flat_score(score: Score | None) -> FlatScore | None:
    return None if score is None else (score.score, score.capped, tuple((p.value, p.notes) for p in score.parts))


def _unflat_score(row: FlatScore | None) -> Score | None:
    if row is None:
        return None
    total, capped, parts = row
    return Score(
        total, [Part(key, v, notes) for (key, _, _), (v, notes) in zip(HEURISTICS, parts, strict=True)], capped
    )
