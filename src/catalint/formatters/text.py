"""One line a finding, ruff-style, then a summary line."""

from __future__ import annotations

from catalint.registry import get_rule
from catalint.run import Run


def format_text(run: Run, statistics: bool = False) -> str:
    lines: list[str] = []
    severities: dict[str, str] = {}  # first severity seen per rule, for --statistics
    for file_result, f in run.findings:
        lines.append(
            f"{file_result.catalog.display}:{f.span.line}:{f.span.col}: {f.code} [{f.severity}] {f.tool}: {f.message}"
        )
        severities.setdefault(f.code, str(f.severity))
    if statistics and run.findings:
        lines.append("")
        for code, count in sorted(run.by_rule().items(), key=lambda kv: (-kv[1], kv[0])):
            r = get_rule(code)
            lines.append(f"{count:>6}  {code}  [{severities[code]}]  {r.name if r else ''}")
    lines.extend(run.notices)
    lines.append(summary(run))
    return "\n".join(lines) + "\n"


def summary(run: Run) -> str:
    files = len(run.files)
    scope = f"{run.tool_count} tool{'s' * (run.tool_count != 1)} in {files} file{'s' * (files != 1)}"
    errors = f"; {len(run.errors)} file{'s' * (len(run.errors) != 1)} could not be read" if run.errors else ""
    total = len(run.findings)
    if not total:
        return f"No findings in {scope}{errors}." if errors else f"All checks passed: {scope}."
    sev = run.by_severity()
    parts = ", ".join(f"{sev[s]} {s}" for s in ("critical", "warning", "info") if sev[s])
    criticals, warnings = run.schema_counts()
    schema = f"; schema: {criticals} critical, {warnings} warning" if criticals or warnings else ""
    return f"Found {total} finding{'s' * (total != 1)} ({parts}{schema}) in {scope}{errors}."
