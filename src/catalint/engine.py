"""Run the enabled rules over a catalog and apply the settings to what they find."""

from __future__ import annotations

from dataclasses import dataclass, field

from catalint.config import Settings
from catalint.model import Catalog, Finding, Severity, Tool
from catalint.registry import Rule, all_rules


class RuleCrash(Exception):
    """A rule raised: a catalint bug, reported in one line with exit code 2."""


@dataclass
class ToolResult:
    tool: Tool
    findings: list[Finding] = field(default_factory=list)


@dataclass
class FileResult:
    catalog: Catalog
    tools: list[ToolResult]
    suppressed: int = 0
    fail_severity: Severity = Severity.CRITICAL

    def failing(self) -> bool:
        return any(f.severity >= self.fail_severity for t in self.tools for f in t.findings)

    @property
    def findings(self) -> list[Finding]:
        out = [f for t in self.tools for f in t.findings]
        out.sort(key=lambda f: (f.span.line, f.span.col, f.code) if f.span else (0, 0, f.code))
        return out


def _enabled(settings: Settings) -> list[Rule]:
    codes = set(settings.enabled_codes())
    return [r for r in all_rules() if r.code in codes]


def lint_catalog(catalog: Catalog, settings: Settings) -> FileResult:
    rel = settings.relative(catalog.path) if catalog.path != "-" else catalog.display
    # Per rule, once: its severity, and whether a per-file ignore drops it here.
    plan = []
    for r in _enabled(settings):
        file_ignore = settings.file_ignored(rel, r.code)
        plan.append((r, settings.severity_of(r.code, r.severity), file_ignore))
    tool_ignores = bool(settings.per_tool_ignores)
    locate = catalog.locate
    results: list[ToolResult] = []
    suppressed = 0
    for tool in catalog.tools:
        result = ToolResult(tool)
        found = result.findings
        for r, severity, file_ignore in plan:
            try:
                hits = list(r.check(tool))
            except Exception as exc:
                raise RuleCrash(
                    f"{catalog.display}: error: internal error in {r.code} on tool {tool.name!r}: "
                    f"{type(exc).__name__}: {exc} (please report this)"
                ) from exc
            if not hits:
                continue
            if file_ignore is not None:
                file_ignore.used += len(hits)
                suppressed += len(hits)
                continue
            seen: set[str] = set()
            for hit in hits:
                if hit.pointer in seen:  # e.g. one $defs schema reached from two arguments
                    continue
                seen.add(hit.pointer)
                if tool_ignores:
                    tool_ignore = settings.tool_ignored(tool.name, r.code, rel)
                    if tool_ignore is not None:
                        tool_ignore.used += 1
                        suppressed += 1
                        continue
                found.append(
                    Finding(r.code, severity, tool.name, hit.pointer, hit.message, locate(hit.pointer), hit.suggestion)
                )
        results.append(result)
    return FileResult(catalog, results, suppressed, settings.fail_severity)
