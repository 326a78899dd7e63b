"""One line a finding, ruff-style; then gate rows, optional score tables, and a summary line."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from catalint.model import SMELLS
from catalint.registry import get_rule
from catalint.run import Run
from catalint.tdqs import grade, mean_score, shown
from catalint.text import NAME_COLUMN, clip, one_line

if TYPE_CHECKING:
    from catalint.engine import FileResult
    from catalint.model import Finding


def format_text(
    run: Run, statistics: bool = False, below: Callable[[FileResult, Finding], list[str]] | None = None
) -> str:
    """The text report (also named concise); below, when given, adds lines under each finding (the full format's
    source lines)."""
    lines: list[str] = []
    # File names and catalog text never start a line of their own; each file and tool name is escaped once.
    names: dict[str, str] = {}
    for file_result, f in [] if statistics else run.findings:  # the counts stand in for the findings, as in ruff
        span = f.span
        display = file_result.catalog.display
        where = names.get(display) or names.setdefault(display, one_line(display))
        tool = names.get(f.tool) or names.setdefault(f.tool, one_line(f.tool))
        lines.append(f"{where}:{span.line}:{span.col}: {f.code} [{f.severity.label}] {tool}: {one_line(f.message)}")
        if below is not None:
            lines += below(file_result, f)
    counts = run.statistics() if statistics else []
    if counts:
        tags = {code: "[" + "/".join(levels) + "]" for code, _, levels in counts}
        code_width = max(len(code) for code, _, _ in counts)
        tag_width = max(len(tag) for tag in tags.values())
        for code, count, _ in counts:
            r = get_rule(code)
            tag = tags[code]
            lines.append(f"{count:>6}  {code:<{code_width}}  {tag:<{tag_width}}  {r.name if r else ''}".rstrip())
    if run.quiet:  # -q: the findings and the failed gate checks (what fails the run), as ruff -q
        lines += [line for line in gate_rows(run) if line.startswith("gate [FAIL]")]
        return "".join(line + "\n" for line in lines)
    if run.show_scores:
        lines += score_tables(run)
    if run.explain:
        lines += explanations(run)
    lines += gate_rows(run)
    lines += [one_line(notice) for notice in run.notices]  # they name files, tools and globs
    lines.append(summary(run))
    return "\n".join(lines) + "\n"


def gate_rows(run: Run) -> list[str]:
    """Every row of one file's gate; of many files, the rows of those that failed a check, then how many
    passed every one (as ruff says nothing of a clean file: 129 catalogs made 387 lines of PASS)."""
    gated = [fr for fr in run.files if fr.quality is not None and fr.quality.gate]
    if len(run.files) <= 1:
        return [one_line(row.line(None)) for fr in gated for row in fr.quality.gate]
    failed = [fr for fr in gated if not fr.quality.passed()]
    lines = [one_line(row.line(fr.catalog.display)) for fr in failed for row in fr.quality.gate]
    passed = len(gated) - len(failed)
    if passed:
        lines.append(f"gate [PASS] every check in {passed} file{'s' * (passed != 1)}")
    return lines


def score_tables(run: Run) -> list[str]:
    from catalint.tokens import window_share

    lines: list[str] = []
    for fr in run.files:
        q = fr.quality
        if q is None:
            continue
        # a long name is clipped, not padded to: 5,000 rows padded to one 1 MB name would be 5 GB
        names = [one_line(clip(t.name, NAME_COLUMN)) for t in q.tools]
        width = max([len("tool"), *map(len, names)])
        scores = [shown(t.score.score) for t in q.tools]
        wide = max([len("score"), *map(len, scores)])  # 0.6997 takes six places
        header = f"  {'tool':<{width}}  {'score':>{wide}}  grade  tokens  smells"
        lines += ["", f"{one_line(fr.catalog.display)}:", header]
        for t, name, score in zip(q.tools, names, scores, strict=True):
            smells = ", ".join(f"{s} {t.smells[s]}" for s in SMELLS if t.smells[s]) or "-"
            tokens = f"{t.tokens.total:>6}" if t.tokens is not None else f"{'-':>6}"
            mark = t.score.grade if t.scored else "-"
            lines.append(f"  {name:<{width}}  {score:>{wide}}  {mark:^5}  {tokens}  {smells}")
        left = [name for t, name in zip(q.tools, names, strict=True) if not t.scored]
        if left:
            lines.append(f"  left out of the scores (an ignore of ALL): {', '.join(left)}")
        if q.min_score is not None:
            total = q.token_total
            cost = ""
            if total is not None:
                share = window_share(total)
                cost = f"; {total:,} tokens ({share['128k']}% of a 128k context window, {share['200k']}% of 200k)"
            lines.append(
                f"  catalog: min {shown(q.min_score)}, mean {shown(q.mean_score)} (grade {q.grade}), "
                f"{sum(q.smells.values())} smells{cost}"
            )
    lines.append("")
    return lines


def explanations(run: Run) -> list[str]:
    from catalint.tdqs import explain

    lines: list[str] = [""]
    for fr in run.files:
        if fr.quality is None:
            continue
        for t in fr.quality.tools:
            if t.name in run.explain:
                prefix = f"{one_line(fr.catalog.display)}: " if len(run.files) > 1 else ""
                lines.append(prefix + explain(t.result.tool).rstrip("\n"))
                smells = ", ".join(f"{s} {t.smells[s]}" for s in SMELLS if t.smells[s]) or "none"
                lines.append(f"  smells: {smells}")
                if t.tokens is not None:
                    tk = t.tokens
                    lines.append(
                        f"  tokens: {tk.total} (name {tk.name}, description {tk.description}, "
                        f"inputSchema {tk.input_schema}); whitespace estimate {tk.whitespace}"
                    )
                lines.append("")
    return lines


def summary(run: Run) -> str:
    files = len(run.files)
    ignored = sum(not t.scored for fr in run.files if fr.quality is not None for t in fr.quality.tools)
    # a tool an ignore of ALL covers is listed, not linted
    apart = f" ({ignored} left out by an ignore of ALL)" if ignored else ""
    scope = f"{run.tool_count} tool{'s' * (run.tool_count != 1)}{apart} in {files} file{'s' * (files != 1)}"
    errors = f"; {len(run.errors)} file{'s' * (len(run.errors) != 1)} could not be read" if run.errors else ""
    scores = run.scores()
    quality = ""
    if scores:
        mean = mean_score(scores) or 0.0  # scores is not empty
        quality = f"; TDQS min {shown(min(scores))}, mean {shown(mean)} ({grade(mean)})"
    counted = [fr.quality.token_total for fr in run.files if fr.quality is not None and fr.quality.tools]
    if counted and None not in counted:  # --tokens (or --scores, --explain) counted them
        from catalint.tokens import window_share

        tokens = sum(t for t in counted if t is not None)
        quality += f"; {tokens:,} tokens (cl100k_base, {window_share(tokens)['128k']}% of a 128k context window)"
    rows = [row for fr in run.files if fr.quality is not None for row in fr.quality.gate]
    failed = sum(not row.passed for row in rows)
    gate = f"; gate failed ({failed} of {len(rows)} check{'s' * (len(rows) != 1)})" if failed else ""
    # what fails the run besides the gate: findings at or above the fail severity (SCH criticals, which the
    # gate's critical_count leaves out, too)
    failing = {fr.fail_severity.label: 0 for fr in run.files}  # count per fail severity
    for fr in run.files:
        failing[fr.fail_severity.label] += sum(f.severity >= fr.fail_severity for t in fr.tools for f in t.findings)
    levels = [label for label, n in failing.items() if n]
    if levels:
        level = levels[0] if len(levels) == 1 else "each file's"
        gate = f"; {sum(failing.values())} at or above the fail severity ({level}){gate}"
    total = len(run.findings)
    if not total:
        if not files and not errors:
            return "Nothing linted: no catalog files found."
        if errors or failed:
            return f"No findings in {scope}{quality}{errors}{gate}."
        return f"All checks passed: {scope}{quality}."
    # Two disjoint groups, as the gate counts them: critical_count/warning_count, then the SCH rules'.
    schema = Counter(f.severity.label for _, f in run.findings if f.code.startswith("SCH-"))
    rest = run.by_severity() - schema
    groups = [
        prefix + ", ".join(f"{c[s]} {s}" for s in ("critical", "warning", "info") if c[s])
        for prefix, c in (("", rest), ("schema: ", schema))
        if c
    ]
    return f"Found {total} finding{'s' * (total != 1)} ({'; '.join(groups)}) in {scope}{quality}{errors}{gate}."
