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
    rules = _enabled(settings)
    rel = settings.relative(catalog.path) if catalog.path != "-" else catalog.display
    results: list[ToolResult] = []
    suppressed = 0
    for tool in catalog.tools:
        result = ToolResult(tool)
        for r in rules:
            try:
                hits = list(r.check(tool))
            except Exception as exc:
                raise RuleCrash(
                    f"{catalog.display}: error: internal error in {r.code} on tool {tool.name!r}: "
                    f"{type(exc).__name__}: {exc} (please report this)"
                ) from exc
            seen: set[str] = set()
            for hit in hits:
                if hit.pointer in seen:  # e.g. one $defs schema reached from two arguments
                    continue
                seen.add(hit.pointer)
                file_ignore = settings.file_ignored(rel, r.code)
                tool_ignore = settings.tool_ignored(tool.name, r.code, rel)
                if file_ignore or tool_ignore:
                    for entry in (file_ignore, tool_ignore):
                        if entry is not None:
                            entry.used += 1
                    suppressed += 1
                    continue
                result.findings.append(
                    Finding(
                        code=r.code,
                        severity=settings.severity_of(r.code, r.severity),
                        tool=tool.name,
                        pointer=hit.pointer,
                        message=hit.message,
                        span=catalog.locate(hit.pointer),
                        suggestion=hit.suggestion,
                    )
                )
        results.append(result)
    return FileResult(catalog, results, suppressed, settings.fail_severity)
