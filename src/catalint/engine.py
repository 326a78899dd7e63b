"""Run the enabled rules over a catalog and apply the settings to what they find.

Large catalogs are split across CPU cores with fork (Linux only): each worker
lints a contiguous slice of the tools against the same parsed catalog and
sends its findings back through a pipe. The result is identical to a
sequential run; only the wall time differs.
"""

from __future__ import annotations

import os
import pickle
import sys
from dataclasses import dataclass
from typing import Any, NamedTuple

from catalint.config import FileIgnore, Settings, ToolIgnore
from catalint.loader import LoadError
from catalint.model import Catalog, Finding, Severity, Span, Tool
from catalint.registry import CatalogHit, Hit, Rule, all_rules, set_options
from catalint.tdqs import HEURISTICS, Part, Score
from catalint.tdqs import score as tdqs_score

PARALLEL_MIN_TOOLS = 500  # below this, forking saves less than it costs (measured: 1,000 tools -25%)


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


def _lint_forked(catalog: Catalog, plan: _Plan, workers: int) -> tuple[list[ToolResult], int]:
    """Lint the first slice here and the others in forked children."""
    tools = catalog.tools
    size = -(-len(tools) // workers)
    slices = [tools[i : i + size] for i in range(0, len(tools), size)]
    sys.stdout.flush()
    sys.stderr.flush()
    pending: list[tuple[int, int] | tuple[list[ToolResult], int]] = []
    for part in slices[1:]:
        read_fd, write_fd = os.pipe()
        try:
            pid = os.fork()
        except OSError:  # no process to spare: lint this slice here
            os.close(read_fd)
            os.close(write_fd)
            pending.append(_lint_tools(catalog, part, plan))
            continue
        if pid == 0:  # the child: lint its slice, report, leave without cleanup
            os.close(read_fd)
            _child(catalog, part, plan, write_fd)
        os.close(write_fd)
        pending.append((pid, read_fd))
    results, suppressed = _lint_tools(catalog, slices[0], plan)
    for item in pending:
        part_results, part_suppressed = _collect(catalog, plan, *item) if isinstance(item[0], int) else item
        results += part_results
        suppressed += part_suppressed
    return results, suppressed


def _child(catalog: Catalog, tools: list[Tool], plan: _Plan, write_fd: int) -> None:
    code = 0
    try:
        before = [entry.used for entry in plan.ignores]
        results, suppressed = _lint_tools(catalog, tools, plan)
        used = [entry.used - b for entry, b in zip(plan.ignores, before, strict=True)]
        rows = [(tr.tool.index, [_flat(f) for f in tr.findings], tr.start, _flat_score(tr.score)) for tr in results]
        payload: Any = ("ok", rows, suppressed, used)
    except RuleCrash as exc:
        payload = ("crash", exc.fields())
    except BaseException as exc:  # sent to the parent, which reports it
        payload = ("crash", (catalog.display, f"internal error: {type(exc).__name__}: {exc}", None, None, None))
    try:
        with os.fdopen(write_fd, "wb") as out:
            out.write(pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL))
    except BaseException:  # the parent sees a short read
        code = 1
    os._exit(code)


def _collect(catalog: Catalog, plan: _Plan, pid: int, read_fd: int) -> tuple[list[ToolResult], int]:
    with os.fdopen(read_fd, "rb") as source:
        data = source.read()
    os.waitpid(pid, 0)
    try:
        payload = pickle.loads(data)
    except Exception:
        raise RuleCrash(catalog.display, "a lint worker process died") from None
    if payload[0] != "ok":
        raise RuleCrash(*payload[1])
    _, rows, suppressed, used = payload
    for entry, extra in zip(plan.ignores, used, strict=True):
        entry.used += extra
    return [
        ToolResult(catalog.tools[index], [_unflat(row) for row in findings], start, _unflat_score(score))
        for index, findings, start, score in rows
    ], suppressed


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


def _unflat(row: FlatFinding) -> Finding:
    code, severity, tool, pointer, message, line, col, end_line, end_col, suggestion = row
    return Finding(code, Severity(severity), tool, pointer, message, Span(line, col, end_line, end_col), suggestion)
