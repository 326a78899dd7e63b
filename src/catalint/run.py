"""The outcome of one `catalint lint` run, as every formatter sees it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

from catalint.engine import FileResult
from catalint.loader import LoadError
from catalint.model import Finding, Severity


@dataclass
class Run:
    files: list[FileResult] = field(default_factory=list)
    errors: list[LoadError] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    show_scores: bool = False  # --scores
    explain: list[str] = field(default_factory=list)  # --explain TOOL
    quiet: bool = False  # -q: the text report is the findings only

    @cached_property
    def findings(self) -> list[tuple[FileResult, Finding]]:
        """Every finding in report order; read only once the run is complete."""
        return [(f, finding) for f in self.files for finding in f.findings]

    @property
    def tool_count(self) -> int:
        return sum(len(f.tools) for f in self.files)

    def by_severity(self) -> Counter[str]:
        return Counter(f.severity.label for _, f in self.findings)

    def schema_counts(self) -> tuple[int, int]:
        """Findings of the SCH rules: (critical, warning)."""
        sch = Counter(f.severity for _, f in self.findings if f.code.startswith("SCH-"))
        return sch[Severity.CRITICAL], sch[Severity.WARNING]

    def by_rule(self) -> Counter[str]:
        return Counter(f.code for _, f in self.findings)

    def statistics(self) -> list[tuple[str, int, list[str]]]:
        """--statistics: each rule with findings, most found first (then by code), with its count and the
        severities it was reported at, most serious first (a [severity] or a file's own may differ)."""
        levels: dict[str, set[str]] = {}
        for _, f in self.findings:
            levels.setdefault(f.code, set()).add(f.severity.label)
        counts = sorted(self.by_rule().items(), key=lambda kv: (-kv[1], kv[0]))
        return [(code, n, [s for s in ("critical", "warning", "info") if s in levels[code]]) for code, n in counts]

    def failing(self) -> bool:
        return any(f.failing() or f.gate_failed() for f in self.files)

    def gate_failed(self) -> bool:
        return any(f.gate_failed() for f in self.files)

    def scores(self) -> list[float]:
        return [t.score.score for f in self.files if f.quality is not None for t in f.quality.tools if t.scored]

    def exit_code(self, exit_zero: bool = False) -> int:
        if self.errors:
            return 2
        if self.failing() and not exit_zero:
            return 1
        return 0
