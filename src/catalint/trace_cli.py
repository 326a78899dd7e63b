"""`catalint trace score|distract`, and the trace half of `catalint check SUITE --traces DIR`."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from catalint.cli_options import Number, output_option, refuse_clobber

if TYPE_CHECKING:
    from catalint.model import Catalog
    from catalint.trace_scenario import Result, Scenario

FORMATS = ["text", "json", "markdown"]


@click.group("trace")
def trace_group() -> None:
    """Score recorded agent runs against the catalog: selection F1, call checks, pass^k, distractors, tokens."""


@trace_group.command("score")
@click.argument("traces", nargs=-1, required=True)
@click.option(
    "--catalog",
    "catalogs",
    multiple=True,
    metavar="SERVER=PATH",
    help="A server's saved catalog; PATH alone names the server after the file, up to its first dot (repeatable).",
)
@click.option("--spec", type=click.Path(dir_okay=False), help="A scenario file: the blocks of a suite's agent entry.")
@click.option("--class", "classes", multiple=True, metavar="NAME=ID,ID", help="An equal-function class (repeatable).")
@click.option("--expected-tool", help="pass^k: the tool every run should select.")
@click.option("--min-selection-rate", type=Number(0, 1), help="pass^k: the floor (default 1.0).")
@click.option("--max-total-tokens", type=click.IntRange(min=0), help="pass^k: each run's token budget.")
@click.option(
    "--gate",
    "gates",
    multiple=True,
    metavar="'TARGET OP N'",
    help="A gate such as 'tool_selection.f1>=80'; replaces the spec's check on that target.",
)
@click.option("--output-format", type=click.Choice(FORMATS), default="text", show_default=True)
@output_option()
@click.option("--compare", "baseline", type=click.Path(dir_okay=False), help="A saved JSON report to diff against.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when a gate fails.")
def score_cmd(
    traces: tuple[str, ...],
    catalogs: tuple[str, ...],
    spec: str | None,
    classes: tuple[str, ...],
    expected_tool: str | None,
    min_selection_rate: float | None,
    max_total_tokens: int | None,
    gates: tuple[str, ...],
    output_format: str,
    output_file: str | None,
    baseline: str | None,
    exit_zero: bool,
) -> None:
    """Score TRACE files (JSON, YAML, JSON Lines, or folders of them) and print every metric.

    Each trace is one run: {"tool_calls": [{name, server?, args?, error?|is_error?}],
    "conversation": {"tokens": {"total": N}}, "cost": X}. A JSON array holds several
    runs, a JSON Lines file one per line. Calls resolve to SERVER.TOOL ids through
    the catalogs. What the runs are scored against comes from --spec (the blocks
    of a suite's agent entry) or from --class/--expected-tool; --gate adds a check,
    or replaces the spec's check on the same target (as lint's --gate does).

    Exit codes: 0 every gate passed, 1 a gate or floor failed, 2 input error.
    """
    from catalint.cli import fail
    from catalint.gate import GateError
    from catalint.trace_scenario import EqClass, Scenario, parse_gate_option

    refuse_clobber([output_file], [*traces, spec, *(catalog_option(c)[1] for c in catalogs)], "an input of this run")
    scenario: Scenario
    try:
        if spec:
            from catalint.loader import LoadError
            from catalint.suite import load_spec

            try:
                scenario = load_spec(spec)
            except LoadError as exc:
                fail(str(exc))
        else:
            scenario = Scenario("traces")
        if classes:
            parsed = []
            for value in classes:
                name, found, members = value.partition("=")
                ids = [m.strip() for m in members.split(",") if m.strip()]
                if not found or not name.strip() or not ids:
                    raise GateError(
                        f"--class: expected NAME=ID,ID such as search=brave.web_search,google.search, got {value!r}"
                    )
                parsed.append(EqClass(name.strip(), tuple(ids)))
            known = [c.name for c in scenario.classes or []]
            for c in parsed:
                if c.name in known:
                    raise GateError(f"--class: class name {c.name!r} is given twice: name each class once")
                known.append(c.name)
            scenario.classes = (scenario.classes or []) + parsed
            if not any(block == "equal_function_sets" for block, _ in scenario.checks):
                from catalint.trace_scenario import BLOCKS

                scenario.checks += [("equal_function_sets", c) for c in BLOCKS["equal_function_sets"][1]]
        if expected_tool:
            scenario.floor = {
                "expected_tool": expected_tool,
                "min_selection_rate": 1.0 if min_selection_rate is None else min_selection_rate,
                "max_total_tokens": max_total_tokens,
            }
        elif min_selection_rate is not None or max_total_tokens is not None:
            raise GateError("--min-selection-rate and --max-total-tokens set the pass^k floor: give --expected-tool")
        extra = [parse_gate_option(g) for g in gates]
        replaced = {c.target for c in extra}  # --gate replaces a check on the same target, as lint's does
        scenario.checks = [(b, c) for b, c in scenario.checks if c.target not in replaced]
    except GateError as exc:
        fail(f"error: {exc}")
    loaded = parse_catalogs(catalogs)
    runs = _runs(list(traces), output_file)
    result = _evaluate(scenario, runs, loaded, extra)
    _report([result], output_format, output_file, baseline)
    sys.exit(0 if exit_zero or result.passed else 1)


@trace_group.command("distract")
@click.argument("catalog")
@click.option("--count", type=click.IntRange(min=0), required=True, help="How many distractors to add.")
@click.option(
    "--from", "source", type=click.Choice(["catalog", "near_duplicate"]), default="catalog", show_default=True
)
@click.option("--of", "of", multiple=True, metavar="TOOL", help="near_duplicate: the real tools to imitate.")
@output_option("Write the padded catalog here.", "the catalog")
def distract_cmd(catalog: str, count: int, source: str, of: tuple[str, ...], output_file: str | None) -> None:
    """Write CATALOG padded with COUNT distractors, to present to an agent.

    --from catalog draws plausible but irrelevant tools from a bundled catalog;
    --from near_duplicate makes look-alikes of the --of tools (_v2 and _internal
    variants, casing, plural). The same arguments always give the same catalog,
    so `check --traces` knows which tools were distractors.
    """
    from catalint.cli import fail, save
    from catalint.cli_options import refuse_clobber
    from catalint.distractors import DistractorError, descriptions, from_catalog, near_duplicates, pad
    from catalint.loader import LoadError, load_path
    from catalint.text import one_line

    refuse_clobber([output_file], [catalog], "the catalog being padded", "padded catalog")
    if source == "catalog" and of:  # a usage error, not the catalog's: said before it is read
        fail("error: --of is for --from near_duplicate")
    try:
        loaded = load_path(catalog)
    except LoadError as exc:
        fail(str(exc))
    tools = [t.raw for t in loaded.tools]
    try:
        if source == "catalog":
            extra = from_catalog([t["name"] for t in tools], count, descriptions(tools))
        else:
            extra = near_duplicates(tools, list(of), count)
    except DistractorError as exc:
        fail(f"{catalog}: error: {exc}")
    except RecursionError:
        fail(f"{catalog}: error: a tool is nested too deeply to copy")
    from catalint.snapshot import SnapshotError, is_yaml_name, render

    try:  # written as a snapshot is: YAML for a .yaml/.yml name, else JSON
        text = render(pad(tools, extra), output_file is not None and is_yaml_name(output_file))
    except RecursionError:
        fail(f"{catalog}: error: a tool is nested too deeply to write")
    except SnapshotError as exc:  # the padded catalog past the most catalint reads
        fail(f"{catalog}: error: {exc}")
    save(text, output_file, "the catalog")
    names = ", ".join(t["name"] for t in extra) or "none"
    count = f"{len(extra)} distractor{'s' * (len(extra) != 1)}"
    click.echo(one_line(f"{output_file or '-'}: {len(tools)} tools and {count} ({names})"), err=True)


def check_traces(
    scenarios: list[Scenario], traces_dir: str, catalogs: dict[str, Catalog], output_file: str | None = None
) -> list[Result]:
    """Each scenario scored against its recorded runs in traces_dir (see scenario_traces); output_file
    may not be one of them."""
    from catalint.cli import fail

    results = []
    for scenario in scenarios:
        skipped: list[tuple[str, str]] = []
        found = scenario_traces(traces_dir, scenario.name, skipped)
        if skipped and not found:  # the scenario's runs were named, but cannot be read: say why, in one line
            path, kind = skipped[0]
            fail(f"{path}: error: {kind}, not a regular file, so scenario {scenario.name!r} has no recorded runs")
        for path, kind in skipped:
            _notice(f"{path}: notice: skipped: {kind}, not a regular file")
        if not found:
            slug = _slug(scenario.name)
            fail(
                f"{traces_dir}: error: no recorded runs for scenario {scenario.name!r} "
                f"(looked for {', '.join(slug + x for x in ('.json', '.jsonl', '.ndjson', '.yaml', '.yml'))}"
                f" or a folder {slug}/)"
            )
        results.append(_evaluate(scenario, _runs(found, output_file), catalogs, []))
    return results


def scenario_traces(traces_dir: str, name: str, skipped: list[tuple[str, str]] | None = None) -> list[str]:
    """The runs of scenario NAME: DIR/SLUG.json|.jsonl|.ndjson|.yaml|.yml, or the folder DIR/SLUG/. A FIFO,
    a socket or a device of such a name is never opened (a FIFO would wait for a writer forever): it goes
    to skipped as (path, what it is), as one below a folder is skipped."""
    from catalint.loader import special_kind

    root = Path(traces_dir)
    slug = _slug(name)
    found = []
    for stem in dict.fromkeys((name, slug)):
        for suffix in ("", ".json", ".jsonl", ".ndjson", ".yaml", ".yml"):
            candidate = root / f"{stem}{suffix}"
            if not os.path.exists(candidate) or str(candidate) in found:  # a long name: no raise
                continue
            kind = special_kind(candidate)
            if kind is None:
                found.append(str(candidate))
            elif skipped is not None:
                skipped.append((str(candidate), kind))
    return found


def _notice(message: str) -> None:
    from catalint.text import one_line

    click.echo(one_line(message), err=True)


def _slug(name: str) -> str:
    import re

    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "scenario"


def catalog_option(value: str) -> tuple[str, str]:
    """(server, path) of --catalog SERVER=PATH, or of PATH: the server is the file name up to its first dot."""
    server, found, path = value.partition("=")
    return (server, path) if found else (Path(value).name.split(".", 1)[0], value)


def parse_catalogs(values: tuple[str, ...]) -> dict[str, Catalog]:
    """--catalog SERVER=PATH (or PATH: the server is the file name up to its first dot)."""
    from catalint.cli import fail
    from catalint.loader import LoadError, load_path

    out: dict[str, Catalog] = {}
    for value in values:
        server, path = catalog_option(value)
        if not server or not path:
            fail(f"error: --catalog: expected SERVER=PATH, got {value!r}")
        if server in out:
            fail(f"error: --catalog: server {server!r} given twice")
        try:
            out[server] = load_path(path)
        except LoadError as exc:
            fail(str(exc))
    return out


def _runs(paths: list[str], output_file: str | None) -> list[Any]:
    """The runs recorded in paths; an output_file that is one of their files is refused before any work."""
    from catalint.cli import fail
    from catalint.loader import LoadError
    from catalint.traces import load_runs

    read: list[str] = []
    try:
        runs = load_runs(paths, _notice, read)
    except LoadError as exc:
        fail(str(exc))
    refuse_clobber([output_file], read, "a recorded trace")  # a file below a traces folder, too
    if not runs:
        fail(f"{paths[0]}: error: no recorded runs")
    return runs


def _evaluate(scenario: Scenario, runs: list[Any], catalogs: dict[str, Catalog], extra: list[Any]) -> Result:
    from catalint.cli import fail
    from catalint.tokens import TokenError
    from catalint.trace_scenario import ScenarioError, evaluate

    try:
        return evaluate(scenario, runs, catalogs, extra)
    except ScenarioError as exc:
        message = f"scenario {scenario.name!r}: {exc}"
        if scenario.locate is not None and exc.pointer is not None:  # placed in the spec or suite
            fail(str(scenario.locate(message, exc.pointer)))
        fail(f"error: {message}")
    except TokenError as exc:
        fail(f"error: scenario {scenario.name!r}: {exc}")


def _baseline(path: str | None) -> dict[str, Any] | None:
    """--compare BASELINE.json, read once a run; None without one; an unreadable one exits 2."""
    from catalint.cli import fail
    from catalint.trace_report import CompareError, load_baseline

    if not path:
        return None
    try:
        return load_baseline(path)
    except CompareError as exc:
        fail(str(exc))


def _comparison(results: list[Result], baseline: dict[str, Any] | None) -> list[dict[str, Any]] | None:
    """The scenarios' deltas against the baseline report, or None without one."""
    from catalint.trace_report import compare

    return None if baseline is None else compare(results, baseline)


def _report(results: list[Result], output_format: str, output_file: str | None, baseline: str | None) -> None:
    from catalint.cli import save
    from catalint.trace_report import to_json, to_markdown, to_text

    comparison = _comparison(results, _baseline(baseline))
    render = {"text": to_text, "json": to_json, "markdown": to_markdown}[output_format]
    text = render(results, comparison)
    if output_format == "markdown":
        from catalint.formatters.markdown import cut_note, limit

        text = limit(text, cut_note("catalint trace score --output-format json"))
    save(text, output_file)


def suite_catalogs(servers: dict[str, Any], suite: str, given: dict[str, Catalog]) -> dict[str, Catalog]:
    """The saved catalogs a suite's servers: entries name (servers: NAME: catalog: FILE, beside the suite)."""
    from catalint.cli import fail
    from catalint.loader import LoadError, load_path
    from catalint.suite import beside

    out: dict[str, Catalog] = {}
    for name, spec in servers.items():
        if "catalog" in spec and name not in given:
            try:
                out[name] = load_path(beside(suite, spec["catalog"]))
            except LoadError as exc:
                fail(str(exc))
    return out


def _quality_markdown(quality: list[dict[str, Any]]) -> str:
    """The tool_quality blocks as a table: one row per gate check (or the block's error)."""
    if not quality:
        return ""
    from catalint.formatters.md import code
    from catalint.formatters.md import text as cell

    rows = ["## tool_quality", "", "| Block | Source | Result | Check |", "|---|---|---|---|"]
    for q in quality:
        name = cell(q["name"])
        if "error" in q:
            rows.append(f"| {name} | {q['kind']} {cell(q['source'])} | ❌ FAIL | {cell(q['error'])} |")
            continue
        for gate in q["gates"]:
            mark = "✅ PASS" if gate["passed"] else "❌ FAIL"
            rows.append(f"| {name} | {q['kind']} {cell(q['source'])} | {mark} | {code(gate['message'])} |")
    return "\n".join(rows) + "\n\n"


def report_check(
    quality: list[dict[str, Any]],
    results: list[Result],
    output_format: str,
    output_file: str | None,
    baseline: str | None,
) -> None:
    """check's report: the tool_quality rows, then the scored scenarios."""
    from catalint.cli import save
    from catalint.formatters.md import text as md_text
    from catalint.text import one_line
    from catalint.trace_report import compare_quality, quality_compare_lines, report_dict, to_markdown, to_text

    before = _baseline(baseline)
    comparison = _comparison(results, before)
    # the tool_quality blocks, against the same report
    blocks_compared = compare_quality(quality, before) if before is not None and quality else None
    if output_format == "json":
        doc = report_dict(results, comparison)
        doc["passed"] = doc["passed"] and all(q["passed"] for q in quality)
        doc = {"catalint": doc.pop("catalint"), "version": doc.pop("version"), "tool_quality": quality, **doc}
        if blocks_compared is not None:
            doc["tool_quality_comparison"] = blocks_compared
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    else:
        lines = []
        for q in quality:
            if "error" in q:
                lines.append(f"tool_quality [FAIL] {q['name']}: {q['error']}")
                continue
            lines.append(f"tool_quality [{'PASS' if q['passed'] else 'FAIL'}] {q['name']} ({q['kind']} {q['source']})")
            for gate in q["gates"]:
                lines.append(f"  gate [{'PASS' if gate['passed'] else 'FAIL'}] {gate['message']}")
        if blocks_compared:
            lines += quality_compare_lines(blocks_compared)
        head = "".join(one_line(line) + "\n" for line in lines)  # block names and errors come from the suite
        if output_format == "markdown":
            head = "# catalint check\n\n" + _quality_markdown(quality)
            if blocks_compared:
                shown = quality_compare_lines(blocks_compared)
                head += f"**{md_text(shown[0])}**\n\n" + "".join(f"- {md_text(x.strip())}\n" for x in shown[1:])
            body = to_markdown(results, comparison, "## Agent scenarios") if results or comparison else ""
        else:
            body = to_text(results, comparison) if results or comparison else ""
        text = head + body
        if output_format == "markdown":
            from catalint.formatters.markdown import cut_note, limit

            text = limit(text, cut_note("catalint check --output-format json"))  # the Action puts it in the job summary
    save(text, output_file)
