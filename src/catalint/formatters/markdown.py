"""A job summary a reviewer reads: totals and gate first, then tools per catalog, then findings."""

from __future__ import annotations

from catalint.formatters import md
from catalint.model import SMELLS, Severity
from catalint.run import Run
from catalint.tdqs import shown

MAX_BYTES = 1024 * 1024  # GitHub's limit for one step summary
_TRUNCATED = "\n\n> The report was cut here to stay under 1 MiB; run `catalint lint` for every finding.\n"


def format_markdown(run: Run, statistics: bool = False) -> str:
    from catalint.formatters.text import summary

    out = ["## catalint", "", summary(run), ""]
    gate_rows = [(fr, row) for fr in run.files if fr.quality is not None for row in fr.quality.gate]
    if gate_rows:
        out += ["| Gate | Check | File |", "|---|---|---|"]
        for fr, row in gate_rows:
            mark = "✅ PASS" if row.passed else "❌ FAIL"
            out.append(f"| {mark} | {md.code(row.text)} | {md.text(fr.catalog.display)} |")
        out.append("")
    for error in run.errors:
        out.append(f"- ⚠️ {md.code(str(error), table=False)}")
    for notice in run.notices:
        out.append(f"- ℹ️ {md.text(notice)}")
    if run.errors or run.notices:
        out.append("")
    for fr in run.files:
        q = fr.quality
        out += [f"### {md.text(fr.catalog.display)}", ""]
        if q is not None and q.tools:
            tokens = f", {q.token_total:,} tokens" if q.token_total is not None else ""
            left = sum(not t.scored for t in q.tools)
            out_of = f" ({left} left out by an ignore of ALL)" if left else ""
            if q.min_score is None:
                out.append(f"No tool scored{out_of}{tokens}.")
            else:
                out.append(
                    f"TDQS min {shown(q.min_score)}, mean {shown(q.mean_score)} (grade {q.grade}){out_of}{tokens}."
                )
            out += [
                "",
                "| Tool | Score | Grade | Critical | Warning | Smells | Tokens |",
                "|---|---:|:---:|---:|---:|---|---:|",
            ]
            for t in q.tools:
                crit = sum(f.severity == Severity.CRITICAL for f in t.result.findings)
                warn = sum(f.severity == Severity.WARNING for f in t.result.findings)
                smells = ", ".join(f"{s} {t.smells[s]}" for s in SMELLS if t.smells[s]) or "-"
                tokens_cell = str(t.tokens.total) if t.tokens is not None else "-"
                score = f"{shown(t.score.score)} | {t.score.grade if t.scored else 'not scored'}"
                out.append(f"| {md.code(t.name)} | {score} | {crit} | {warn} | {smells} | {tokens_cell} |")
        findings = fr.findings
        if findings:
            out += ["", f"<details><summary>{len(findings)} finding{'s' * (len(findings) != 1)}</summary>", ""]
            out += ["| Line | Rule | Severity | Tool | Message |", "|---:|---|---|---|---|"]
            for f in findings:
                where = f"{f.span.line}:{f.span.col}"
                out.append(f"| {where} | {f.code} | {f.severity} | {md.code(f.tool)} | {md.text(f.message)} |")
            out += ["", "</details>"]
        out.append("")
    text = "\n".join(out) + "\n"
    return limit(text)


def cut_note(command: str) -> str:
    """The note a report cut by limit() ends with, naming the command that gives all of it."""
    return f"\n\n> The report was cut here to stay under 1 MiB; run `{command}` for all of it.\n"


def limit(text: str, note: str = _TRUNCATED) -> str:
    """text cut at a line end to fit one step summary (MAX_BYTES), then note; unchanged if it fits.

    The Action's lint step also runs its whole summary (this report and what a pull request changed) through it."""
    data = text.encode("utf-8", "backslashreplace")  # a lone surrogate (from a JSON escape) as written out
    if len(data) <= MAX_BYTES:
        return text
    budget = MAX_BYTES - len(note.encode("utf-8")) - len(_CLOSE)  # room for both, whether or not it closes
    cut = data[:budget].decode("utf-8", errors="ignore")
    cut = cut[: cut.rfind("\n")] if "\n" in cut else cut
    if cut.count("<details>") > cut.count("</details>"):
        cut += _CLOSE
    return cut + note


_CLOSE = "\n\n</details>"
