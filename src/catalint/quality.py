"""Scores, smells, token cost and the gate for one linted file: what CI decides on."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from catalint.engine import FileResult, ToolResult
from catalint.gate import Check, Row, evaluate
from catalint.model import SMELLS, Severity
from catalint.registry import get_rule
from catalint.tdqs import Score, grade, mean_score, score

TOKEN_TARGETS = ("tokens.total", "tokens.max_tool")


@dataclass
class ToolQuality:
    result: ToolResult
    score: Score
    smells: Counter[str]
    tokens: Any = None  # tokens.ToolTokens, when counted
    scored: bool = True  # False: an ignore of ALL covers it, and the file's scores leave it out

    @property
    def name(self) -> str:
        return self.result.tool.name

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            **self.score.as_dict(),
            **({} if self.scored else {"scored": False}),
            "smells": {s: self.smells[s] for s in SMELLS},
            "smell_total": sum(self.smells.values()),
        }
        if self.tokens is not None:
            from catalint.tokens import window_share

            out["tokens"] = {**self.tokens.as_dict(), "context_share_percent": window_share(self.tokens.total)}
        return out


@dataclass
class FileQuality:
    tools: list[ToolQuality]
    counts: dict[str, int]
    smells: Counter[str]
    tokens: bool  # whether token figures were counted
    gate: list[Row] = field(default_factory=list)

    @property
    def min_score(self) -> float | None:
        return min((t.score.score for t in self.tools if t.scored), default=None)

    @property
    def mean_score(self) -> float | None:
        return mean_score([t.score.score for t in self.tools if t.scored])

    @property
    def grade(self) -> str | None:
        mean = self.mean_score
        return None if mean is None else grade(mean)

    @property
    def token_total(self) -> int | None:
        return sum(t.tokens.total for t in self.tools) if self.tokens else None

    @property
    def token_max_tool(self) -> int | None:
        return max((t.tokens.total for t in self.tools), default=0) if self.tokens else None

    def passed(self) -> bool:
        return all(row.passed for row in self.gate)

    def figures(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "min_score": self.min_score,
            "mean_score": self.mean_score,
            **self.counts,
            "smell_total": sum(self.smells.values()),
            "tokens.total": self.token_total,
            "tokens.max_tool": self.token_max_tool,
        }
        out.update({f"smells.{s}": self.smells[s] for s in SMELLS})
        return out

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "min_score": self.min_score,
            "mean_score": self.mean_score,
            "grade": self.grade,
            **self.counts,
            "smells": {s: self.smells[s] for s in SMELLS},
            "smell_total": sum(self.smells.values()),
        }
        if self.tokens:
            from catalint.tokens import window_share

            total = self.token_total or 0
            out["tokens"] = {
                "total": total,
                "max_tool": self.token_max_tool,
                "whitespace_estimate": sum(t.tokens.whitespace for t in self.tools),
                "context_share_percent": window_share(total),
            }
        out["gate"] = {"passed": self.passed(), "checks": [row.as_dict() for row in self.gate]}
        return out


def needs_tokens(checks: list[Check]) -> bool:
    return any(c.target in TOKEN_TARGETS for c in checks)


def _adds(code: str, severity: Severity) -> tuple[str | None, str | None]:
    """The smell and the count a finding of this rule and severity adds to."""
    rule = get_rule(code)
    prefix = "schema_" if code.startswith("SCH-") else ""
    if severity == Severity.CRITICAL:
        name: str | None = f"{prefix}criticals" if prefix else "critical_count"
    elif severity == Severity.WARNING:
        name = f"{prefix}warnings" if prefix else "warning_count"
    else:
        name = None
    return (rule.smell if rule is not None else None), name


def assess(
    result: FileResult,
    checks: list[Check],
    with_tokens: bool,
    *,
    strict: bool = True,
    unscored: set[str] | frozenset[str] = frozenset(),
) -> FileQuality:
    """Score every tool, count smells and findings, count tokens if asked, and run the gate
    (strict: as gate.evaluate). The tools named in unscored stay listed but out of the file's scores."""
    counts = {"critical_count": 0, "warning_count": 0, "schema_criticals": 0, "schema_warnings": 0}
    total_smells: Counter[str] = Counter()
    tools = []
    with_tokens = with_tokens or needs_tokens(checks)
    if with_tokens:
        from catalint.tokens import count
    tally: dict[tuple[str, Severity], tuple[str | None, str | None]] = {}  # what one finding adds to
    for tr in result.tools:
        smells: Counter[str] = Counter()
        for f in tr.findings:
            key = (f.code, f.severity)
            adds = tally.get(key)
            if adds is None:
                adds = tally[key] = _adds(f.code, f.severity)
            smell, count_name = adds
            if smell is not None:
                smells[smell] += 1
            if count_name is not None:
                counts[count_name] += 1
        total_smells += smells
        tdqs = tr.score if tr.score is not None else score(tr.tool)
        scored = tr.tool.name not in unscored
        tools.append(ToolQuality(tr, tdqs, smells, count(tr.tool) if with_tokens else None, scored))
    quality = FileQuality(tools, counts, total_smells, with_tokens)
    tool_scores = {t.name: t.score.score for t in tools}
    quality.gate = evaluate(checks, quality.figures(), tool_scores, result.catalog.display, strict=strict)
    return quality
