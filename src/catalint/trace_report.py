"""Reports of scored traces: text, JSON and markdown, and deltas against a saved JSON report."""

from __future__ import annotations

import json
import re
from typing import Any

from catalint import __version__
from catalint.gate import is_number
from catalint.text import one_line
from catalint.trace_scenario import ALL_TARGETS, Result

REPORT_VERSION = 1


def as_dict(result: Result) -> dict[str, Any]:
    s = result.scenario
    return {
        "scenario": s.name,
        "runs": len(result.runs),
        "sources": result.sources,
        "blocks": s.blocks,
        "figures": result.figures,
        **result.sections,
        "gates": [{"block": block, **row.as_dict()} for block, row in result.rows],
        "floor": result.floor.as_dict() if result.floor else None,
        "notices": result.notices,
        "passed": result.passed,
    }


def report_dict(results: list[Result], comparison: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "catalint": __version__,  # the version that wrote it
        "version": REPORT_VERSION,  # the report's layout
        "passed": all(r.passed for r in results),
        "scenarios": [as_dict(r) for r in results],
    }
    if comparison is not None:
        doc["comparison"] = comparison
    return doc


def to_json(results: list[Result], comparison: list[dict[str, Any]] | None = None) -> str:
    return json.dumps(report_dict(results, comparison), indent=2, ensure_ascii=False) + "\n"


def _p(value: Any) -> str:
    return "n/a" if value is None else str(value)


def to_text(results: list[Result], comparison: list[dict[str, Any]] | None = None) -> str:
    out: list[str] = []
    for result in results:
        sec = result.sections
        runs = len(result.runs)
        status = "PASS" if result.passed else "FAIL"
        head = f"scenario [{status}] {result.scenario.name}: {runs} run{'s' * (runs != 1)}"
        out.append(f"{head} from {', '.join(result.sources)}")
        sel = sec.get("tool_selection")
        if sel is None:
            out.append("  selection F1 n/a: no equal-function classes (equal_function_sets:, or --class)")
        else:
            out.append(
                f"  selection F1 {sel['f1']}, precision {sel['precision']}, recall {sel['recall']}"
                f" (true positives {sel['tp']}, false positives {sel['fp']}, false negatives {sel['fn']})"
            )
            if sel["missed"]:
                missed = ", ".join(_times(n, k, runs, "run") for k, n in sel["missed"].items())
                out.append(f"    missed classes: {missed}")
            if sel["unexpected"]:
                extra = ", ".join(_times(n, k, None, "call") for k, n in sel["unexpected"].items())
                out.append(f"    unexpected tools: {extra}")
        calls = sec["calls"]
        out.append(
            f"  calls {calls['calls']}: name validity {_p(calls['name_validity'])}, schema compliance "
            f"{_p(calls['schema_compliance'])}, execution success {calls['execution_success']}"
        )
        shown = calls["problems"][:10]
        out += [f"    {p}" for p in shown]
        if len(calls["problems"]) > len(shown):
            out.append(f"    ... and {len(calls['problems']) - len(shown)} more (see --output-format json)")
        orch = dict(sec["orchestration"])
        # orchestration reads the classes of either block (token_efficiency's are never empty)
        classes = bool(sec.get("tool_selection", {}).get("classes")) or "token_efficiency" in sec
        if not classes:  # discovery and efficiency are 0 by definition
            del orch["discovery"], orch["efficiency"]
        tail = "" if classes else " (discovery and efficiency need classes)"
        out.append("  orchestration " + ", ".join(f"{k} {v}" for k, v in orch.items()) + tail)
        if "distractors" in sec:
            d = sec["distractors"]
            tag = f", complexity {d['complexity']}" if d["complexity"] else ""
            out.append(
                f"  distractors ({d['count']} from {d['from']}{tag}): accuracy {d['accuracy']}"
                f" ({d['chose_correct']} correct, {d['chose_distractor']} distractor),"
                f" certified lower {d['certified_lower']:.2f}% ({d['clean_runs']} of {d['runs']} runs clean)"
            )
            out += [f"    {f}" for f in d["failures"][:10]]
        if "token_efficiency" in sec:
            te = sec["token_efficiency"]
            cost = "" if te["cost"] is None else f", cost ${te['cost']:g}"
            each = te["cost_per_correct"]
            cost += "" if each is None else f", ${each:g} per correct"
            out.append(
                f"  token efficiency grade {te['grade']}: F1 {te['f1']}, tool surface "
                f"{_p(te['tool_surface_tokens'])} tokens, {te['correct_selections']} correct selections, "
                f"{_p(te['tokens_per_correct'])} tokens per correct{cost}"
            )
        if result.floor:
            out += ["  " + line for line in result.floor.lines()]
        for notice in result.notices:
            out.append(f"  notice: {notice}")
        for _, row in result.rows:
            out.append(f"  {row.line()}")
    if comparison is not None:
        out += compare_lines(comparison)
    return "\n".join(one_line(line) for line in out) + "\n"  # names and sources come from suites and traces


def _times(n: int, name: str, of: int | None, unit: str) -> str:
    if of is not None and of > 1:
        return f"{name} ({n} of {of} {unit}s)"
    return f"{name} ({n} {unit}{'s' * (n != 1)})" if unit == "call" else name


def to_markdown(
    results: list[Result], comparison: list[dict[str, Any]] | None = None, title: str = "# catalint trace report"
) -> str:
    """The report in markdown; below `title`, whose level sets the level of the headings under it."""
    from catalint.formatters.md import code, text

    sub = "#" * (len(title) - len(title.lstrip("#")) + 1)
    out = [title, ""]
    for result in results:
        status = "PASS" if result.passed else "FAIL"
        out += [
            f"{sub} {text(result.scenario.name)}: {status}",
            "",
            f"{len(result.runs)} run{'s' * (len(result.runs) != 1)} from {text(', '.join(result.sources))}.",
        ]
        out += ["", "| metric | value |", "|---|---|"]
        out += [f"| {code(k)} | {text(_p(v))} |" for k, v in result.figures.items()]
        sel = result.sections.get("tool_selection")
        if sel and (sel["missed"] or sel["unexpected"]):
            out.append("")
            if sel["missed"]:
                out.append("Missed classes: " + ", ".join(code(k, False) for k in sel["missed"]) + ".")
            if sel["unexpected"]:
                out.append("Unexpected tools: " + ", ".join(code(k, False) for k in sel["unexpected"]) + ".")
        if result.floor:
            out += ["", *(f"    {one_line(line)}" for line in result.floor.lines())]
        if result.rows:
            out += ["", "| gate | result |", "|---|---|"]
            out += [f"| {text(r.text)} | {'PASS' if r.passed else 'FAIL'} |" for _, r in result.rows]
        if result.notices:
            out += ["", *(f"- {text(n)}" for n in result.notices)]
        out.append("")
    if comparison is not None:
        lines = [one_line(line) for line in compare_lines(comparison)]
        fence = "`" * max([3, *(len(run) + 1 for line in lines for run in re.findall("`+", line))])  # none closes it
        out += [f"{sub} Compared with the baseline", "", fence, *lines, fence, ""]
    return "\n".join(out)


# ---- --compare BASELINE.json ----------------------------------------------------------------


class CompareError(Exception):
    pass


def load_baseline(path: str) -> dict[str, Any]:
    from catalint.loader import LoadError, parse_json, read_text

    try:
        data, _ = parse_json(read_text(path), path)
    except LoadError as exc:
        where = f"{path}:{exc.line}:{exc.col}" if exc.line is not None else path
        raise CompareError(f"{where}: error: not a catalint trace JSON report ({exc.message})") from None
    if not isinstance(data, dict) or not isinstance(data.get("scenarios"), list):
        raise CompareError(f"{path}: error: not a catalint trace JSON report (no scenarios array)")
    for i, entry in enumerate(data["scenarios"]):
        ok = isinstance(entry, dict) and isinstance(entry.get("scenario"), str)
        ok = ok and isinstance(entry.get("figures", {}), dict) and isinstance(entry.get("gates", []), list)
        ok = ok and all(isinstance(g, dict) for g in entry.get("gates", []))
        if not ok:
            raise CompareError(f"{path}: error: not a catalint trace JSON report (scenarios[{i}] is malformed)")
    return data


def compare(results: list[Result], baseline: dict[str, Any]) -> list[dict[str, Any]]:
    """Per scenario: each figure's baseline, current value and delta; gates whose result flipped.

    The baseline is read defensively: parts of it that are not what a report holds count as absent.
    """
    old: dict[str, dict[str, Any]] = {}
    for entry in baseline["scenarios"]:
        if isinstance(entry, dict) and isinstance(entry.get("scenario"), str):
            old.setdefault(entry["scenario"], entry)
    out = []
    for result in results:
        before = old.get(result.scenario.name)
        if before is None:
            out.append({"scenario": result.scenario.name, "new": True, "deltas": [], "flipped": []})
            continue
        figures = before.get("figures")
        figures = figures if isinstance(figures, dict) else {}
        deltas = []
        for key in ALL_TARGETS:
            if key not in figures and key not in result.figures:
                continue
            a, b = figures.get(key), result.figures.get(key)
            a = a if a is None or is_number(a) else None
            delta = round(b - a, 6) if is_number(a) and is_number(b) else None
            deltas.append({"metric": key, "baseline": a, "current": b, "delta": delta})
        gates = _gates_of(before)
        flipped = []
        for _, row in result.rows:
            key = (row.check.target, row.check.expected())
            if key in gates and gates[key]["passed"] is not row.passed:
                was = gates[key]["passed"]
                flipped.append({"target": key[0], "expected": key[1], "baseline": was, "current": row.passed})
        floor = before.get("floor")
        floor_before = floor.get("passed") if isinstance(floor, dict) else None
        if result.floor and isinstance(floor_before, bool) and floor_before is not result.floor.passed:
            flipped.append(
                {
                    "target": "tool_selection floor",
                    "expected": "",
                    "baseline": floor_before,
                    "current": result.floor.passed,
                }
            )
        out.append({"scenario": result.scenario.name, "new": False, "deltas": deltas, "flipped": flipped})
    return out


def compare_quality(quality: list[dict[str, Any]], baseline: dict[str, Any]) -> list[dict[str, Any]]:
    """check --compare for the tool_quality blocks: per block (by name), each gate's actual value before and
    now, and the gates whose result flipped; read as defensively as compare() reads the scenarios."""
    old: dict[str, dict[str, Any]] = {}
    blocks = baseline.get("tool_quality")
    for entry in blocks if isinstance(blocks, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            old.setdefault(entry["name"], entry)
    out = []
    for block in quality:
        before = old.get(block["name"])
        if before is None:
            out.append({"block": block["name"], "new": True, "deltas": [], "flipped": []})
            continue
        gates = _gates_of(before)
        deltas, flipped = [], []
        for row in block.get("gates", []):
            key = (row["target"], row["expected"])
            was = gates.get(key)
            if was is None:
                continue
            a, b = was.get("actual"), row.get("actual")
            if is_number(a) and is_number(b) and a != b:
                deltas.append({"metric": row["target"], "baseline": a, "current": b, "delta": round(b - a, 6)})
            if was["passed"] is not row["passed"]:
                flipped.append(
                    {"target": key[0], "expected": key[1], "baseline": was["passed"], "current": row["passed"]}
                )
        out.append({"block": block["name"], "new": False, "deltas": deltas, "flipped": flipped})
    return out


def _gates_of(entry: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """A baseline entry's gate rows by (target, expected), those that say whether they passed."""
    rows = entry.get("gates")
    return {
        (str(g.get("target")), str(g.get("expected"))): g
        for g in (rows if isinstance(rows, list) else [])
        if isinstance(g, dict) and isinstance(g.get("passed"), bool)
    }


def quality_compare_lines(comparison: list[dict[str, Any]]) -> list[str]:
    return _change_lines("tool_quality compared with the baseline:", comparison, "block")


def compare_lines(comparison: list[dict[str, Any]]) -> list[str]:
    return _change_lines("compared with the baseline:", comparison, "scenario")


def _change_lines(title: str, comparison: list[dict[str, Any]], key: str) -> list[str]:
    """A comparison's lines: per scenario or block (its name under key), the figures that changed and the
    gates that flipped."""
    out = [title]
    for entry in comparison:
        name = entry[key]
        if entry["new"]:
            out.append(f"  {name}: not in the baseline")
            continue
        changed = [d for d in entry["deltas"] if d["baseline"] != d["current"]]
        if not changed and not entry["flipped"]:
            out.append(f"  {name}: no change")
        for d in changed:
            delta = "" if d["delta"] is None else f" ({d['delta']:+g})"
            out.append(f"  {name}: {d['metric']} {_p(d['baseline'])} -> {_p(d['current'])}{delta}")
        for f in entry["flipped"]:
            was, now = ("PASS" if f["baseline"] else "FAIL"), ("PASS" if f["current"] else "FAIL")
            gate = f"{f['target']} {f['expected']}".strip()
            out.append(f"  {name}: gate flipped {was} -> {now}: {gate}")
    return out
