"""Run the enabled rules over catalogs and apply the settings to what they find.

Large runs are split across CPU cores with fork (Linux only; see forked.py): the
result is identical to a sequential run, crashes included; only the wall time differs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, NamedTuple

from catalint.config import FileIgnore, Settings, ToolIgnore, ToolIgnoreIndex, matches
from catalint.loader import LoadError
from catalint.model import UNPLACED, Catalog, Finding, Severity, Tool
from catalint.registry import CatalogHit, Hit, Rule, all_rules, set_options
from catalint.tdqs import Score
from catalint.tdqs import score as tdqs_score
from catalint.text import clip

if TYPE_CHECKING:
    from catalint.twins import Twins

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
    dropped: int = 0  # findings past MAX_FILE_FINDINGS, not reported
    tokens: bool = False  # whether each tool's tokens were counted (asked for, a TOK rule, a token gate)

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
    options: dict[str, Any]  # rule options from the settings (token budgets)
    tokens: bool = False  # count each tool's tokens as it is linted (kept in its cache for the report)
    twins: Twins | None = None  # findings to copy for unchanged tools (twins.py), when they apply here
    copied: frozenset[str] = frozenset()  # the codes of the rules whose findings are copied
    locate: bool = True  # look up each finding's span (else UNPLACED, for the caller to look up)
    tool_ignores: ToolIgnoreIndex = field(default_factory=lambda: ToolIgnoreIndex([]))  # those whose files take it in

    @property
    def ignores(self) -> list[FileIgnore | ToolIgnore]:
        return [*self.settings.per_file_ignores, *self.settings.per_tool_ignores]


def _enabled(settings: Settings) -> list[Rule]:
    codes = set(settings.enabled_codes())
    return [r for r in all_rules() if r.code in codes]


def lint_catalog(
    catalog: Catalog,
    settings: Settings,
    workers: int | None = None,
    tokens: bool = False,
    twins: Twins | None = None,
    locate: bool = True,
) -> FileResult:
    """Lint every tool; workers=None picks a process count from the catalog size; tokens: count them too;
    twins: tools identical to ones of a catalog linted already with these settings (see twins.py);
    locate=False: leave every finding's span UNPLACED."""
    result = lint_catalogs([(catalog, settings)], workers, tokens, [twins], locate)[0]
    if isinstance(result, RuleCrash):
        raise result
    return result


def lint_catalogs(
    jobs: list[tuple[Catalog, Settings]],
    workers: int | None = None,
    tokens: bool = False,
    twins: list[Twins | None] | None = None,
    locate: bool = True,
) -> list[FileResult | RuleCrash]:
    """Lint several catalogs as one body of work: forked workers take chunks of any of them.

    Each file's outcome, in order: its result, or the RuleCrash that stopped its rules
    (the other files still go on). workers=None picks a process count from the tool count.
    Each tool's tokens are counted on the way (tokens.count, kept in the tool's cache) when
    tokens is true, a TOK rule is on or the gate checks a token figure; the encoding is
    loaded first, here, so that a TokenError is raised before any work and workers share it.
    twins: for each job, the tools whose findings may be copied (twins.py), or None. locate=False
    leaves every finding's span UNPLACED, for a caller that shows only a few to look those up.
    """
    catalogs = [catalog for catalog, _ in jobs]
    rated: dict[int, list[tuple[Rule, Severity, bool]]] = {}
    plans = [
        _plan(catalog, settings, rated, tokens, pair, locate)
        for (catalog, settings), pair in zip(jobs, twins or [None] * len(jobs), strict=True)
    ]
    if any(plan.tokens for plan in plans):
        from catalint.tokens import encoding

        encoding()
    total = sum(len(catalog.tools) for catalog in catalogs)
    if workers is None:
        workers = default_workers(total)
    if workers > 1 and total > 1:
        from catalint.forked import lint_forked

        if any(a.rule.code.startswith(("SCH-", "CMP-")) for plan in plans for a in plan.rules):
            import jsonschema_rs  # noqa: F401  (the validators' library: imported once, here, the workers share it)

        def lint(number: int, start: int, end: int) -> tuple[list[ToolResult], int]:
            catalog = catalogs[number]
            return _lint_tools(catalog, catalog.tools[start:end], plans[number])

        ignores = list({id(entry): entry for plan in plans for entry in plan.ignores}.values())
        early: list[_CatalogOutcome | None] = [None] * len(plans)

        def first() -> None:  # in the parent, while the workers lint: the catalog rules that need no results
            for number, (catalog, plan) in enumerate(zip(catalogs, plans, strict=True)):
                if plan.catalog_rules and not plan.tokens:  # TOK-002 reads the token counts the workers make
                    early[number] = _catalog_hits(catalog, plan)

        outcomes = lint_forked(catalogs, ignores, lint, workers, first)
        return [_finish(c, p, o, e) for c, p, o, e in zip(catalogs, plans, outcomes, early, strict=True)]
    return [_finish(c, p, _outcome(c, p)) for c, p in zip(catalogs, plans, strict=True)]


# Findings reported for one file. A real catalog at the 25,000-tool limit has about 170,000 (6.8 a
# tool); a hostile one can be built to have tens of millions, each costing close to a kilobyte.
MAX_FILE_FINDINGS = 250_000
# Characters of the findings' JSON pointers reported for one file (a real 25,000-tool catalog has some 7
# million): a pointer repeats every name above its node, so properties under a name of 100,000 characters
# made a report of 100 MB from a file of 350 KB.
MAX_FILE_POINTER_CHARS = 1 << 25


def cap_findings(results: list[ToolResult]) -> int:
    """Keep the first findings, in tool order, up to MAX_FILE_FINDINGS of them and MAX_FILE_POINTER_CHARS
    characters of their pointers; returns how many were dropped."""
    room, chars, dropped = MAX_FILE_FINDINGS, MAX_FILE_POINTER_CHARS, 0
    for tr in results:
        found = tr.findings
        keep = min(len(found), room)
        size = sum([len(f.pointer) for f in found[:keep]])
        if size > chars:
            keep, size = _fitting(found, keep, chars)
            chars = size - 1  # past the cut nothing more is kept, however short
        chars -= size
        room -= keep
        if keep < len(found):
            dropped += len(found) - keep
            tr.findings = found[:keep]
    return dropped


def _fitting(found: list[Finding], keep: int, chars: int) -> tuple[int, int]:
    """How many of the first keep findings have pointers of at most chars characters together, and those
    pointers' size."""
    size = 0
    for i in range(keep):
        if size + len(found[i].pointer) > chars:
            return i, size
        size += len(found[i].pointer)
    return keep, size


def _plan(
    catalog: Catalog,
    settings: Settings,
    rated: dict[int, list[tuple[Rule, Severity, bool]]],
    tokens: bool,
    twins: Twins | None = None,
    locate: bool = True,
) -> _Plan:
    """What applies to one file. rated keeps, per settings object, each enabled rule with its
    severity and whether that is fixed: files below one config share them. twins are kept
    when their findings are what this file's rules would find (twins.usable)."""
    rel = settings.catalog_rel(catalog)
    rules = rated.get(id(settings))
    if rules is None:
        rules = rated[id(settings)] = [
            (
                r,
                settings.severity_of(r.code, r.severity),
                settings.severity_of(r.code, Severity.INFO) == settings.severity_of(r.code, Severity.CRITICAL),
            )
            for r in _enabled(settings)
        ]
    by_file = settings.file_ignored if settings.per_file_ignores else None
    path = catalog.path if catalog.path != "-" else None
    active = [
        _Active(r, severity, fixed, by_file(rel, r.code, path) if by_file else None) for r, severity, fixed in rules
    ]
    for a in active:
        if a.file_ignore is not None:
            a.file_ignore.seen = True
    tool_ignores = settings.tool_ignores(catalog)
    index = ToolIgnoreIndex(tool_ignores)
    for entry in tool_ignores:
        if not entry.seen:
            entry.seen = any(matches(r, a.rule.code) for a in active for r in entry.rules)
    waiting = {id(e) for e in tool_ignores if not e.matched}
    for tool in catalog.tools if waiting else ():  # which cover a tool here (a notice tells a gone tool apart)
        for entry in index.of(tool.name):
            if id(entry) in waiting:
                entry.matched = True
                waiting.discard(id(entry))
        if not waiting:
            break
    if not tokens:
        from catalint.quality import needs_tokens

        tokens = any(a.rule.code.startswith("TOK-") for a in active) or needs_tokens(settings.gate_checks())
    tool_rules = [a for a in active if a.rule.scope == "tool"]
    copied = frozenset(a.rule.code for a in tool_rules if not a.rule.siblings)
    if twins is not None:
        from catalint.twins import usable

        if not usable(twins, settings, catalog, [(a.rule.code, a.file_ignore is not None) for a in tool_rules]):
            twins = None
    return _Plan(
        tool_rules,
        [a for a in active if a.rule.scope == "catalog"],
        settings,
        rel,
        {
            "tool_token_budget": settings.tool_token_budget,
            "catalog_token_budget": settings.catalog_token_budget,
            # the tool's siblings, for rules that tell the server's own tools apart (registered siblings=True)
            "catalog_tools": catalog.tools,
            # the tool rules whose findings this file keeps, for a rule that leaves a case to another (SCH-006)
            "rules": frozenset(a.rule.code for a in tool_rules if a.file_ignore is None),
        },
        tokens,
        twins,
        copied,
        locate,
        index,
    )


def _outcome(catalog: Catalog, plan: _Plan) -> tuple[list[ToolResult], int, int] | RuleCrash:
    try:
        results, suppressed = _lint_tools(catalog, catalog.tools, plan)
    except RuleCrash as exc:
        return exc
    return results, suppressed, 0


def _finish(
    catalog: Catalog,
    plan: _Plan,
    outcome: tuple[list[ToolResult], int, int] | RuleCrash,
    early: _CatalogOutcome | None = None,
) -> FileResult | RuleCrash:
    """Run the catalog-level rules over one file's linted tools, cap its findings and free its position tables.

    outcome: the tools' results, how many findings were suppressed and how many dropped on the way
    (a forked run caps as results arrive, to bound the memory they take). early: the catalog rules'
    hits, when they were found while the tools were linted; a crash of a tool rule still comes first."""
    if not isinstance(outcome, RuleCrash) and plan.catalog_rules:
        results, suppressed, dropped = outcome
        found = early if early is not None else _catalog_hits(catalog, plan)
        if isinstance(found, RuleCrash):
            outcome = found
        else:
            outcome = results, suppressed + _emit_catalog_hits(catalog, plan, results, found), dropped
    release = getattr(catalog.source, "release", None)
    if release is not None:
        release()
    if isinstance(outcome, RuleCrash):
        return outcome
    results, suppressed, dropped = outcome
    dropped += cap_findings(results)
    return FileResult(catalog, results, suppressed, plan.settings.fail_severity, dropped=dropped, tokens=plan.tokens)


def default_workers(tool_count: int) -> int:
    """Processes for a catalog of this size; CATALINT_WORKERS=N caps it (1: never fork)."""
    if tool_count < PARALLEL_MIN_TOOLS or not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return 1
    cap = os.environ.get("CATALINT_WORKERS", "")
    limit = int(cap) if cap.isascii() and cap.isdigit() and 0 < len(cap) <= 6 and int(cap) > 0 else 4
    return min(limit, len(os.sched_getaffinity(0)))


def _lint_tools(catalog: Catalog, tools: list[Tool], plan: _Plan) -> tuple[list[ToolResult], int]:
    set_options(plan.options)  # files linted in one run may set different budgets
    results: list[ToolResult] = []
    suppressed = 0
    if plan.tokens:
        from catalint.tokens import count
    checks = [(active, active.rule.check, active.rule.code) for active in plan.rules]
    twins = plan.twins.of if plan.twins is not None else None
    start_of = catalog.start
    for tool in tools:
        found: list[Finding] = []
        twin = twins.get(tool.index) if twins is not None else None
        reused = _reuse(catalog, plan, tool, twin) if twin is not None else None
        for active, check, code in checks:
            if reused is not None and code in plan.copied:
                found += reused.get(code, ())
                continue
            try:
                found_by_rule = check(tool)  # type: ignore[arg-type]
                hits = list(islice(found_by_rule, FEW_HITS))
                if len(hits) == FEW_HITS:  # maybe more: counted, and their pointers measured, one by one
                    hits = _at_most(hits, found_by_rule, tool)
            except RecursionError:  # nesting the parser accepted but a rule's walk cannot follow
                line, col = catalog.start(tool.pointer)
                message = f"tool {tool.name!r} is nested too deeply for {code} to check"
                raise RuleCrash(catalog.display, message, line, col, tool.pointer) from None
            except Exception as exc:
                raise RuleCrash(
                    catalog.display,
                    f"internal error in {code} on tool {tool.name!r}: {type(exc).__name__}: {exc} (please report this)",
                ) from exc
            if hits:
                suppressed += _emit(catalog, plan, active, tool, hits, found)
        try:
            score = tdqs_score(tool)
        except RecursionError:
            line, col = catalog.start(tool.pointer)
            raise RuleCrash(catalog.display, f"tool {tool.name!r} is nested too deeply to score", line, col) from None
        if plan.tokens:
            try:
                count(tool)
            except RecursionError:
                line, col = catalog.start(tool.pointer)
                message = f"tool {tool.name!r} is nested too deeply to count its tokens"
                raise RuleCrash(catalog.display, message, line, col) from None
        results.append(ToolResult(tool, found, start_of(tool.pointer), score))
        _release(tool)
    return results, suppressed


_KEEP = frozenset({"tdqs", "tokens"})  # small, and read again by the reports


def _reuse(catalog: Catalog, plan: _Plan, tool: Tool, twin: ToolResult) -> dict[str, list[Finding]] | None:
    """The findings of tool's twin (twins.py) by rule, its score and token counts cached on tool; None
    if they do not apply (a finding outside the twin), and tool is linted."""
    from catalint.twins import copied

    found = copied(twin, tool, catalog if plan.locate else None, plan.copied)
    if found is not None:
        for key in _KEEP & twin.tool.cache.keys():
            tool.cache[key] = twin.tool.cache[key]
        if twin.score is not None:
            tool.cache["tdqs"] = twin.score
    return found


# Findings of one rule on one tool. Real tools have a few dozen at most (27 in the corpus); a catalog
# built to have millions (an enum of 30 million repeats) would otherwise hold them all in memory.
MAX_HITS = 1000
# Characters of pointers in one rule's findings on one tool: real ones take some 40 each, but a pointer
# repeats every name above its node (1,000 findings under a 100 KB name held 100 MB).
MAX_HIT_CHARS = 1 << 18
FEW_HITS = 16  # hits most rules never reach on a tool: from here on they are counted one by one


def _at_most(hits: list[Hit], rest: Iterator[Hit], tool: Tool) -> list[Hit]:
    """Hits at distinct pointers, at most MAX_HITS of them with MAX_HIT_CHARS characters of pointers, then
    one that says more were left out; the rule's work stops there."""
    unique: dict[str, Hit] = {}
    chars = MAX_HIT_CHARS
    for hit in chain(hits, rest):
        if hit.pointer in unique:
            continue
        chars -= len(hit.pointer)
        if len(unique) == MAX_HITS or chars < 0:  # only a hostile catalog gets here
            what = f"more than {MAX_HITS:,}" if len(unique) == MAX_HITS else f"{len(unique):,} and more"
            more = f"{what} findings of this rule on this tool: the rest are not reported"
            return [*unique.values(), Hit(tool.pointer, more)]
        unique[hit.pointer] = hit
    return list(unique.values())


def _release(tool: Tool) -> None:
    """Drop the derived views the rules built (joined texts, schema walks): they would otherwise
    live as long as the run, several times the tool's own size. Anything read later is rebuilt."""
    cache = tool.cache
    kept = {key: cache[key] for key in _KEEP if key in cache}
    cache.clear()
    cache.update(kept)


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
    code = active.rule.code
    suppressed = 0
    name = tool.name if len(tool.name) <= MAX_SHOWN else clip(tool.name, MAX_SHOWN)
    for hit in hits:
        if plan.tool_ignores:
            tool_ignore = plan.tool_ignores.first(tool.name, code)
            if tool_ignore is not None:
                tool_ignore.used += 1
                suppressed += 1
                continue
        severity = hit.severity if hit.severity is not None and not active.fixed else active.severity
        span = catalog.locate(hit.pointer) if plan.locate else UNPLACED
        message, suggestion = hit.message, hit.suggestion  # clip() only past the bound: this runs per finding
        if len(message) > MAX_SHOWN or (suggestion is not None and len(suggestion) > MAX_SHOWN):
            message = clip(message, MAX_SHOWN)
            suggestion = None if suggestion is None else clip(suggestion, MAX_SHOWN)
        found.append(Finding(code, severity, name, hit.pointer, message, span, suggestion))
    return suppressed


# Characters of a tool name, message or suggestion a finding keeps (real ones take under 300): a name or
# property name of megabytes, quoted in each finding on it, made reports of gigabytes.
MAX_SHOWN = 1000


_CatalogOutcome = list[tuple[_Active, list[CatalogHit]]] | RuleCrash  # each catalog rule's hits, or its crash


def _catalog_hits(catalog: Catalog, plan: _Plan) -> _CatalogOutcome:
    """Rules over the whole file (duplicate names, ...): each one's hits, or the crash that stopped them."""
    set_options(plan.options)
    out: list[tuple[_Active, list[CatalogHit]]] = []
    for active in plan.catalog_rules:
        try:
            out.append((active, list(active.rule.check(catalog.tools))))  # type: ignore[arg-type]
        except RecursionError:
            return RuleCrash(catalog.display, f"the catalog is nested too deeply for {active.rule.code} to check")
        except Exception as exc:
            return RuleCrash(
                catalog.display,
                f"internal error in {active.rule.code}: {type(exc).__name__}: {exc} (please report this)",
            )
    return out


def _emit_catalog_hits(
    catalog: Catalog, plan: _Plan, results: list[ToolResult], found: list[tuple[_Active, list[CatalogHit]]]
) -> int:
    """Add the catalog rules' findings to each tool's own; returns how many were suppressed."""
    by_index = {tr.tool.index: tr for tr in results}
    suppressed = 0
    for active, pairs in found:
        for tool, hit in pairs:
            tr = by_index[tool.index]
            suppressed += _emit(catalog, plan, active, tool, [hit], tr.findings)
    return suppressed
