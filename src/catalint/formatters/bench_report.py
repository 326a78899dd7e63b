"""`catalint bench run` reports: text for a terminal, JSON for machines, markdown for a PR comment."""

from __future__ import annotations

import json
from typing import Any

from catalint import __version__
from catalint.bench import Report, wilson
from catalint.model import SMELLS
from catalint.tdqs import shown
from catalint.text import NAME_COLUMN, clip, one_line

# A flipped intent is listed once per mutation that flips it: its query is cut at this length there, so
# that a report stays linear in the spec (the whole query is in the baseline's picks, once).
FLIP_QUERY = 100
# The tools a flip names, likewise: in JSON at the MCP specification's longest tool name (128), so a valid
# name is whole; in text and markdown at the table's name column.
FLIP_NAME = 128


def _name(name: str | None, width: int = NAME_COLUMN) -> str | None:
    """A picked tool's name in a flip, cut at width (None: no pick)."""
    return None if name is None else clip(name, width)


def _flipped(query: str) -> str:
    return repr(clip(query, FLIP_QUERY))


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _interval(correct: int, total: int) -> str:
    low, high = wilson(correct, total)
    return f"{_pct(low)}-{_pct(high)}"


def _pts(drop: float) -> str:
    return f"{100 * drop:+.1f} pts".replace("+-", "-") if drop else "0.0 pts"


def _smells(added: dict[str, int]) -> str:
    return ", ".join(f"+{n} {s}" for s, n in added.items()) or "none"


def as_dict(report: Report, min_drop: float | None = None) -> dict[str, Any]:
    spec = report.spec
    low, high = wilson(report.baseline_correct, report.total)
    largest = report.largest_drop()
    intents = spec.intents
    baseline: dict[str, Any] = {
        "correct": report.baseline_correct,
        "intents": report.total,
        "accuracy": round(report.baseline_correct / report.total, 6),
        "wilson_95": [round(low, 6), round(high, 6)],
        "tdqs_mean": report.tdqs_mean,
        "tdqs_min": report.tdqs_min,
        "smells": {s: report.smells[s] for s in SMELLS},
        "smell_total": sum(report.smells.values()),
        "tokens": report.tokens,
        "whitespace_tokens": report.whitespace_tokens,
        "picks": [
            {"query": i.query, "gold": list(i.gold), "picked": p, "correct": c}
            for i, p, c in zip(intents, report.picks, report.correct, strict=True)
        ],
    }
    mutations = []
    for m in report.mutations:
        m_low, m_high = wilson(m.correct, m.total)
        mutations.append(
            {
                **m.mutation.as_dict(),
                "correct": m.correct,
                "accuracy": round(m.accuracy, 6),
                "wilson_95": [round(m_low, 6), round(m_high, 6)],
                "drop": round(m.drop, 6),
                "flips": [
                    {
                        "intent": f.intent,
                        "query": clip(f.query, FLIP_QUERY),
                        "before": _name(f.before, FLIP_NAME),
                        "after": _name(f.after, FLIP_NAME),
                        "correct_after": f.correct_after,
                    }
                    for f in m.flips
                ],
                "smells_added": m.smells_added,
                "tokens_removed": m.tokens_removed,
                "whitespace_tokens_removed": m.whitespace_removed,
                "changed": m.changed,
            }
        )
    out: dict[str, Any] = {
        "spec": spec.path,
        "name": spec.name,
        "tools": len(spec.catalog.tools),
        "auto": report.auto,
        "baseline": baseline,
        "confusions": [
            {"query": i.query, "gold": list(i.gold), "picked": p}
            for i, p, c in zip(intents, report.picks, report.correct, strict=True)
            if not c
        ],
        "mutations": mutations,
        "largest_drop": None if largest is None else {**largest.mutation.as_dict(), "drop": round(largest.drop, 6)},
        "ranking": [{"tool": t, "largest_drop": round(d, 6), "mutation": label} for t, d, label in report.ranking()],
    }
    if min_drop is not None:
        out["min_drop"] = min_drop
        out["passed"] = passed(report, min_drop)
    return out


def passed(report: Report, min_drop: float) -> bool:
    return report.largest_drop_value() >= min_drop


def format_json(report: Report, min_drop: float | None = None) -> str:
    doc = {"catalint": __version__, **as_dict(report, min_drop)}  # the version that wrote it, as lint's report
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def format_text(report: Report, min_drop: float | None = None) -> str:
    spec = report.spec
    n, k = report.total, report.baseline_correct
    lines = [f"catalint bench: {spec.name or spec.path}"]
    tokens = ""
    if report.tokens is not None:
        tokens = f"; {report.tokens:,} tokens (cl100k_base), {report.whitespace_tokens:,} whitespace-separated"
    lines.append(
        f"catalog: {len(spec.catalog.tools)} tools, {n} intent{'s' * (n != 1)}; TDQS mean {shown(report.tdqs_mean)}, "
        f"min {shown(report.tdqs_min)}; {sum(report.smells.values())} smells{tokens}"
    )
    lines.append(f"baseline: {k}/{n} correct, accuracy {_pct(k / n)} (95% CI {_interval(k, n)})")
    confusions = [(i, p) for i, p, c in zip(spec.intents, report.picks, report.correct, strict=True) if not c]
    if confusions:
        lines.append("confusions (baseline):")
        for intent, picked in confusions:
            lines.append(f"  {intent.query!r}: picked {picked or 'nothing'}, expected {' or '.join(intent.gold)}")
    if report.mutations:
        lines.append("mutations:" + (" (--auto: every kind on every gold tool)" if report.auto else ""))
        # clipped, not padded to: a long tool name or drop_keyword word would widen every row
        labels = [clip(f"{m.mutation.tool} {m.mutation.label()}", NAME_COLUMN) for m in report.mutations]
        width = max(map(len, labels))
        for m, label in zip(report.mutations, labels, strict=True):
            removed = ""
            if m.tokens_removed is not None:
                removed = f"; tokens {'removed' if m.tokens_removed >= 0 else 'added'} {abs(m.tokens_removed)}"
            unchanged = "" if m.changed else "; no change (the tool is as it was)"
            lines.append(
                f"  {label:<{width}}  accuracy {_pct(m.accuracy):>6} ({_interval(m.correct, m.total)})  "
                f"drop {_pts(m.drop)}; flips {len(m.flips)}; smells {_smells(m.smells_added)}{removed}{unchanged}"
            )
            for f in m.flips:
                lines.append(
                    f"      {_flipped(f.query)}: {_name(f.before) or 'nothing'} -> {_name(f.after) or 'nothing'} "
                    f"({_flip_mark(f)})"
                )
        largest = report.largest_drop()
        if largest is not None and largest.drop > 0:
            label = clip(f"{largest.mutation.tool} {largest.mutation.label()}", NAME_COLUMN)  # as in the table
            lines.append(f"largest drop: {_pts(largest.drop)} ({label})")
        elif largest is not None:
            lines.append("largest drop: none (no mutation lowered accuracy)")
        if report.auto:
            lines.append("tools by how much selection depends on their description:")
            for tool, drop, label in report.ranking():
                lines.append(f"  {tool}: {_pts(drop)} ({label})")
    else:
        lines.append("mutations: none")
    if min_drop is not None:
        verdict = "PASS" if passed(report, min_drop) else "FAIL"
        lines.append(f"min-drop [{verdict}] largest drop {_largest_pts(report)} vs required {_pts(min_drop)}")
    return "\n".join(one_line(line) for line in lines) + "\n"  # the spec path, tool names and words are untrusted


def _largest_pts(report: Report) -> str:
    return _pts(report.largest_drop_value())


def _flip_mark(f: Any) -> str:
    return "now right" if f.correct_after else ("now wrong" if f.correct_before else "still wrong")


def _pick(name: str | None) -> str:
    """A picked tool for markdown; no pick shows as an italic *nothing*, never a tool's name."""
    from catalint.formatters.md import code

    return "*nothing*" if name is None else code(clip(name, NAME_COLUMN), False)


def format_markdown(report: Report, min_drop: float | None = None) -> str:
    from catalint.formatters.md import code, text

    spec = report.spec
    n, k = report.total, report.baseline_correct
    lines = [f"### catalint bench: {text(spec.name or spec.path)}", ""]
    tokens = f", {report.tokens:,} tokens (cl100k_base)" if report.tokens is not None else ""
    lines.append(
        f"**Baseline:** {k}/{n} intents, accuracy **{_pct(k / n)}** (95% CI {_interval(k, n)}); "
        f"{len(spec.catalog.tools)} tools, TDQS mean {shown(report.tdqs_mean)}, min {shown(report.tdqs_min)}{tokens}."
    )
    largest = report.largest_drop()
    what = _largest_pts(report)
    if largest is not None and largest.drop > 0:
        what += f" ({code(largest.mutation.tool, False)} {text(largest.mutation.label())})"
    if min_drop is not None:
        verdict = "✅ pass" if passed(report, min_drop) else "❌ fail"
        lines += ["", f"**min-drop:** {verdict}: largest drop {what}, required {_pts(min_drop)}."]
    elif largest is not None:
        lines += ["", f"**Largest drop:** {what if largest.drop > 0 else 'none (no mutation lowered accuracy)'}."]
    if report.auto and report.mutations:
        lines += [
            "",
            "Tools by how much selection depends on their description:",
            "",
            "| Rank | Tool | Largest drop | Mutation |",
            "|---:|---|---:|---|",
        ]
        rank, last = 0, None
        for place, (tool, drop, label) in enumerate(report.ranking(), 1):
            if drop != last:  # ties share a rank: 1, 1, 3
                rank, last = place, drop
            lines.append(f"| {rank} | {code(tool)} | {_pts(drop)} | {text(label)} |")
    if report.mutations:
        table = [
            "| Tool | Mutation | Accuracy | 95% CI | Drop | Flips | Smells added | Tokens removed |",
            "|---|---|---:|---|---:|---:|---|---:|",
        ]
        for m in report.mutations:
            removed = "" if m.tokens_removed is None else str(m.tokens_removed)
            label = text(m.mutation.label()) + ("" if m.changed else " (no change)")
            table.append(
                f"| {code(m.mutation.tool)} | {label} | {_pct(m.accuracy)} "
                f"| {_interval(m.correct, m.total)} | {_pts(m.drop)} | {len(m.flips)} | {_smells(m.smells_added)} "
                f"| {removed} |"
            )
        if report.auto:  # one row per kind per gold tool: folded under the ranking
            lines += ["", f"<details><summary>Every mutation ({len(report.mutations)})</summary>", "", *table]
            lines += ["", "</details>"]
        else:
            lines += ["", *table]
        flipped = [m for m in report.mutations if m.flips]
        if flipped:
            count = sum(len(m.flips) for m in flipped)
            lines += ["", f"<details><summary>Flipped intents ({count})</summary>", ""]
            for m in flipped:
                lines.append(f"- {code(m.mutation.tool, False)} {text(m.mutation.label())}:")
                lines += [
                    f"  - {text(_flipped(f.query))}: {_pick(f.before)} → {_pick(f.after)} ({_flip_mark(f)})"
                    for f in m.flips
                ]
            lines += ["", "</details>"]
    confusions = [(i, p) for i, p, c in zip(spec.intents, report.picks, report.correct, strict=True) if not c]
    if confusions:
        lines += ["", "<details><summary>Baseline confusions</summary>", ""]
        lines += [
            f"- {text(repr(i.query))}: picked {_pick(p)}, expected {' or '.join(code(g, False) for g in i.gold)}"
            for i, p in confusions
        ]
        lines += ["", "</details>"]
    from catalint.formatters.markdown import cut_note, limit

    return limit("\n".join(lines) + "\n", cut_note("catalint bench run"))  # a PR comment or a job summary, as lint's


FORMATS = {"text": format_text, "json": format_json, "markdown": format_markdown}
