"""`catalint diff BASE HEAD`: what changed between two catalogs, as text, JSON, or markdown for a PR comment."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from catalint.cli_options import config_option, output_option, refuse_clobber

if TYPE_CHECKING:  # kept out of `catalint --help` and every other command's start-up
    from catalint.diff import CatalogDiff, ToolChange, ToolState
    from catalint.model import Finding

DETAILS_FROM = 10  # markdown finding lists this long fold into <details>


def _depth(value: Any) -> int:
    """How deeply a document nests (iteratively, so a deep one cannot exhaust the stack here)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(node, dict):
            stack += [(v, depth + 1) for v in node.values()]
        elif isinstance(node, list):
            stack += [(v, depth + 1) for v in node]
    return deepest


@click.command("diff")
@click.argument("base")
@click.argument("head")
@click.option("--output-format", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
@output_option()
@click.option("--exit-code", is_flag=True, help="Exit 1 when HEAD introduces findings.")
@click.option(
    "--fail-severity",
    type=click.Choice(["critical", "warning", "info"], case_sensitive=False),
    default="info",
    show_default=True,
    help="With --exit-code: the lowest severity of an introduced finding that makes it exit 1.",
)
@config_option("Use this config file instead of the nearest one to HEAD.")
def diff_command(
    base: str,
    head: str,
    output_format: str,
    output_file: str | None,
    exit_code: bool,
    fail_severity: str,
    config_path: Path | None,
    isolated: bool,
) -> None:
    """Compare two catalogs: tools added, removed, renamed and changed; TDQS scores, tokens and findings.

    BASE and HEAD are files, '-' for standard input, or REV:path for a file at a
    git revision (HEAD~1:tools.json). Both sides are linted with the config that
    `catalint lint HEAD` would use (its rules, ignores and severities; file
    globs match BASE by HEAD's path), and
    findings are matched by rule, tool and pointer inside the tool, so moving a
    tool changes nothing.

    Exit codes: 0 done, 1 findings introduced (with --exit-code), 2 input error.
    """
    from catalint.cli import fail, save  # here: cli imports this module to register the command
    from catalint.config import ConfigError, SettingsResolver
    from catalint.diff import compare, is_file_side, load_side
    from catalint.engine import RuleCrash
    from catalint.loader import LoadError
    from catalint.tokens import TokenError

    refuse_clobber([output_file], [base, head, config_path], "an input of this run")
    if base == head == "-":
        fail("error: '-' (standard input) can be only one side of a diff")
        return
    sides = []
    cwd = Path.cwd()
    try:
        resolver = SettingsResolver(config_path, {}, isolated)
        # the config lint would use on HEAD's file: for REV:path, the one of path's folder in the work tree
        if head == "-":
            settings = resolver.for_dir(cwd)
        else:
            settings = resolver.for_file(head if is_file_side(head, cwd) else head.partition(":")[2])
    except ConfigError as exc:
        fail(f"error: {exc}")
        return
    try:
        sides = [load_side(base, cwd), load_side(head, cwd)]
        result = compare(*sides, settings)
    except (LoadError, RuleCrash) as exc:
        fail(str(exc))
        return
    except RecursionError:
        depths = [_depth([t.raw for t in side.tools]) for side in sides]
        fail(f"{base if len(depths) == 2 and depths[0] > depths[1] else head}: error: nested too deeply to compare")
        return
    except TokenError as exc:
        fail(f"error: {exc}")
        return
    save(FORMATS[output_format](result), output_file)
    from catalint.model import Severity

    lowest = Severity.parse(fail_severity)
    sys.exit(1 if exit_code and any(f.severity >= lowest for f in result.introduced) else 0)


def _score(value: float | None) -> str:
    from catalint.tdqs import shown

    return "n/a" if value is None else shown(value)


def _signed(delta: float) -> str:
    text = f"{delta:+.2f}"
    if text in ("+0.00", "-0.00") and abs(delta) >= 0.00005:  # a move two decimals hide: 0.6997 -> 0.70
        return f"{delta:+.4f}"
    return "+0.00" if text == "-0.00" else text


def _score_move(before: float | None, after: float | None) -> str:
    if before is None or after is None:
        return f"{_score(before)} -> {_score(after)}"
    return f"{_score(before)} -> {_score(after)} ({_signed(after - before)})"


def _token_move(before: int, after: int) -> str:
    return f"{before:,} -> {after:,} ({after - before:+,})"


def _schema_text(change: ToolChange) -> str:
    parts = [
        f"{c.pointer.removeprefix('/inputSchema')}{'' if c.value is None else ' ' + c.value} {c.kind}".lstrip()
        for c in change.schema
    ]
    more = change.schema_total - len(change.schema)
    return ", ".join(parts) + (f" (+{more} more)" if more else "")


def _details(change: ToolChange) -> list[str]:
    """What changed in a tool besides its name, one phrase each."""
    parts: list[str] = []
    if change.description is not None:
        parts.append(f"description: {change.description}")
    if change.schema_total:
        parts.append(f"inputSchema: {_schema_text(change)}")
    if change.fields:
        parts.append(f"changed: {', '.join(change.fields)}")
    if change.score_delta:
        parts.append(f"score {_score_move(change.base.score, change.head.score)}")
    if change.token_delta:
        parts.append(f"tokens {_token_move(change.base.tokens, change.head.tokens)}")
    return parts


def _counts(diff: CatalogDiff) -> str:
    return f"{len(diff.added)} added, {len(diff.removed)} removed, {len(diff.renamed)} renamed"


# text ----------------------------------------------------------------------------------------------------------


def format_text(diff: CatalogDiff) -> str:
    from catalint.text import one_line

    lines = [
        one_line(f"catalint diff: {diff.base.display} -> {diff.head.display}"),  # file names, REV:path untrusted
        f"tools: {len(diff.before)} -> {len(diff.after)} (+{_counts(diff)})",
    ]
    lines += [one_line(f"+ {s.name} (score {_score(s.score)}, {s.tokens:,} tokens)") for s in diff.added]
    lines += [one_line(f"- {s.name}") for s in diff.removed]
    for c in diff.changes:
        label = f"{c.base.name} -> {c.head.name} (renamed)" if c.renamed else c.head.name
        details = _details(c)
        lines.append(one_line(f"~ {label}" + (": " + "; ".join(details) if details else "")))
    lines.append(f"findings: {len(diff.introduced)} introduced, {len(diff.fixed)} fixed")
    lines += [f"  + {_finding_text(f, diff.head.display)}" for f in diff.introduced]
    lines += [f"  - {_finding_text(f, diff.base.display)}" for f in diff.fixed]
    lines.append(
        f"totals: mean score {_score_move(diff.mean_score_before, diff.mean_score_after)}; "
        f"tokens {_token_move(diff.tokens_before, diff.tokens_after)}"
    )
    return "\n".join(lines) + "\n"


def _finding_text(f: Finding, file: str) -> str:
    """As lint prints it: at its place in the side it is on (the head's if introduced, the base's if fixed)."""
    from catalint.text import one_line

    return one_line(f"{file}:{f.span.line}:{f.span.col}: {f.code} [{f.severity.label}] {f.tool}: {f.message}")


# JSON ----------------------------------------------------------------------------------------------------------


def as_dict(diff: CatalogDiff) -> dict[str, Any]:
    from catalint.formatters.json_format import finding_dict

    before, after = diff.mean_score_before, diff.mean_score_after
    return {
        "base": diff.base.display,
        "head": diff.head.display,
        "tools": {
            "before": len(diff.before),
            "after": len(diff.after),
            "added": [_state_dict(s) for s in diff.added],
            "removed": [_state_dict(s) for s in diff.removed],
            "renamed": [{"from": c.base.name, "to": c.head.name} for c in diff.renamed],
            "changed": [_change_dict(c) for c in diff.changes],
        },
        "findings": {
            "introduced": [finding_dict(f, diff.head.display) for f in diff.introduced],
            "fixed": [finding_dict(f, diff.base.display) for f in diff.fixed],
        },
        "totals": {
            "mean_score_before": before,
            "mean_score_after": after,
            "mean_score_delta": None if before is None or after is None else round(after - before, 4),
            "tokens_before": diff.tokens_before,
            "tokens_after": diff.tokens_after,
            "tokens_delta": diff.tokens_after - diff.tokens_before,
        },
    }


def _state_dict(s: ToolState) -> dict[str, Any]:
    return {"name": s.name, "pointer": s.tool.pointer, "score": s.score, "tokens": s.tokens}


def _change_dict(c: ToolChange) -> dict[str, Any]:
    return {
        "name": c.head.name,
        "previous_name": c.base.name if c.renamed else None,
        "base_pointer": c.base.tool.pointer,
        "head_pointer": c.head.tool.pointer,
        "description_diff": c.description,
        "input_schema": {
            "changes": [
                {"pointer": s.pointer, "change": s.kind, **({} if s.value is None else {"value": json.loads(s.value)})}
                for s in c.schema
            ],
            "total": c.schema_total,
        },
        "fields": c.fields,
        "score": {"before": c.base.score, "after": c.head.score, "delta": c.score_delta},
        "tokens": {"before": c.base.tokens, "after": c.head.tokens, "delta": c.token_delta},
    }


def format_json(diff: CatalogDiff) -> str:
    from catalint import __version__

    doc = {"catalint": __version__, **as_dict(diff)}  # the version that wrote it, as lint's report
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


# markdown ------------------------------------------------------------------------------------------------------


def format_markdown(diff: CatalogDiff) -> str:
    from catalint.formatters import md

    before, after = diff.mean_score_before, diff.mean_score_after
    score_delta = "" if before is None or after is None else _signed(after - before)
    lines = [
        f"### catalint diff: {md.code(diff.base.display, table=False)} → {md.code(diff.head.display, table=False)}",
        "",
        "| | Before | After | Change |",
        "|---|---:|---:|---:|",
        f"| Tools | {len(diff.before)} | {len(diff.after)} | {_counts(diff)} |",
        f"| Mean TDQS | {_score(before)} | {_score(after)} | {score_delta} |",
        f"| Tokens | {diff.tokens_before:,} | {diff.tokens_after:,} | {diff.tokens_after - diff.tokens_before:+,} |",
        f"| Findings | | | {len(diff.introduced)} introduced, {len(diff.fixed)} fixed |",
    ]
    if diff.added or diff.removed or diff.changes:
        lines += ["", "| Tool | Change | Details |", "|---|---|---|"]
        lines += [f"| {md.code(s.name)} | added | score {_score(s.score)}, {s.tokens:,} tokens |" for s in diff.added]
        lines += [f"| {md.code(s.name)} | removed | |" for s in diff.removed]
        for c in diff.changes:
            name = f"{md.code(c.base.name)} → {md.code(c.head.name)}" if c.renamed else md.code(c.head.name)
            lines.append(f"| {name} | {'renamed' if c.renamed else 'changed'} | {md.text('; '.join(_details(c)))} |")
    lines += _finding_list("Findings introduced", diff.introduced, diff.head.display)
    lines += _finding_list("Findings fixed", diff.fixed, diff.base.display)
    from catalint.formatters.markdown import cut_note, limit

    return limit("\n".join(lines) + "\n", cut_note("catalint diff --output-format json"))


def _finding_list(title: str, findings: list[Finding], file: str) -> list[str]:
    from catalint.formatters import md

    if not findings:
        return []
    items = [
        f"- **{f.code}** {md.code(f.tool, False)} at {md.code(f'{file}:{f.span.line}:{f.span.col}', False)}: "
        f"{md.text(f.message)}"
        for f in findings
    ]
    if len(findings) < DETAILS_FROM:
        return ["", f"**{title} ({len(findings)})**", "", *items]
    return ["", f"<details><summary>{title} ({len(findings)})</summary>", "", *items, "", "</details>"]


FORMATS = {"text": format_text, "json": format_json, "markdown": format_markdown}
