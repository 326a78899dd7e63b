"""Scenarios: what a set of recorded runs is scored against, and the gates on the result.

A scenario is an agent entry of an mcptest-style suite (or a `--spec` file of
the same shape): `equal_function_sets:`, `token_efficiency:`, `tool_selection:`,
`distractors:`, `discovery:` and `orchestration:` blocks. Each block with
`expect:` gates its own targets (and the `calls.*` checks); an empty `expect:`
applies the block's default gate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from catalint.gate import SCALES, Check, GateError, Row, parse_matcher, parse_short, row_for
from catalint.model import Catalog, Tool
from catalint.trace_metrics import (
    EqClass,
    PassK,
    call_checks,
    distraction,
    named_in_prompt,
    orchestration,
    selection,
    token_efficiency,
)
from catalint.traces import Resolver, Run, resolved

TARGETS: dict[str, tuple[str, ...]] = {
    "tool_selection": ("f1", "precision", "recall", "selection_rate", "pass_k"),
    "calls": ("name_validity", "schema_compliance", "execution_success"),
    "orchestration": ("discovery", "parameterization", "syntax", "error_recovery", "efficiency"),
    "distractors": ("accuracy", "chose_correct", "chose_distractor", "certified_lower"),
    "token_efficiency": (
        "f1",
        "precision",
        "recall",
        "tool_surface_tokens",
        "correct_selections",
        "cost",
        "tokens_per_correct",
        "cost_per_correct",
    ),
}
ALL_TARGETS = tuple(f"{ns}.{name}" for ns, names in TARGETS.items() for name in names)
_NOT_PERCENT = {
    "distractors.chose_correct",
    "distractors.chose_distractor",
    "token_efficiency.tool_surface_tokens",
    "token_efficiency.correct_selections",
    "token_efficiency.cost",
    "token_efficiency.tokens_per_correct",
    "token_efficiency.cost_per_correct",
}
SCALES.update((t, "percent") for t in ALL_TARGETS if t not in _NOT_PERCENT)
# The namespace each block gates, and its default gate when expect: is empty.
BLOCKS = {
    "equal_function_sets": ("tool_selection", (Check("tool_selection.f1", ((">=", 50.0),)),)),
    "orchestration": ("orchestration", ()),
    "distractors": ("distractors", (Check("distractors.accuracy", ((">=", 50.0),)),)),
    "token_efficiency": ("token_efficiency", (Check("token_efficiency.f1", ((">=", 50.0),)),)),
}
# Why a figure can be absent, for the gate row that asked for it.
ABSENT = {
    "calls.name_validity": "no catalog: give --catalog SERVER=PATH",
    "calls.schema_compliance": "no catalog: give --catalog SERVER=PATH",
    "token_efficiency.tool_surface_tokens": "no catalog: give --catalog SERVER=PATH",
    "token_efficiency.tokens_per_correct": "undefined: no catalog, or no correct selection",
    "token_efficiency.cost": "no run recorded a cost",
    "token_efficiency.cost_per_correct": "undefined: a free run, or no correct selection",
}


@dataclass
class Distractors:
    count: int
    source: str  # "catalog" or "near_duplicate"
    of: list[str]
    correct: list[str]
    complexity: str | None


@dataclass
class Scenario:
    name: str
    prompt: str | None = None
    servers: list[str] | None = None
    classes: list[EqClass] | None = None  # equal_function_sets
    te_classes: list[EqClass] | None = None  # token_efficiency
    floor: dict[str, Any] | None = None  # tool_selection
    distractors: Distractors | None = None
    name_free: bool = False
    orchestration: bool = False
    checks: list[tuple[str, Check]] = field(default_factory=list)  # (block, check)
    runs: int | None = None  # the entry's runs: (how many runs it asks for), when it says
    # (message, pointer inside the entry) -> an error placed in the file the scenario came from; None without one
    locate: Callable[[str, str], Exception] | None = None

    @property
    def blocks(self) -> list[str]:
        found = [b for b in BLOCKS if getattr(self, _ATTR[b])]
        return found + (["tool_selection"] if self.floor else [])


_ATTR = {
    "equal_function_sets": "classes",
    "orchestration": "orchestration",  # a flag: the block has only expect:
    "distractors": "distractors",
    "token_efficiency": "te_classes",
}


def trace_target(text: str, block: str | None, where: str) -> str:
    target = text.strip()
    if target not in ALL_TARGETS:
        raise GateError(f"{where}: unknown trace target {target!r} (known: {', '.join(ALL_TARGETS)})")
    if block is not None:
        own = BLOCKS[block][0]
        if not (target.startswith(own + ".") or target.startswith("calls.")):
            home = next((b for b, (ns, _) in BLOCKS.items() if target.startswith(ns + ".")), None)
            where_to = f"; it belongs under {home}:" if home else ""
            raise GateError(f"{where}: {target} is not a {block}: target{where_to}")
    return target


def parse_item(item: Any, block: str | None, where: str) -> Check:
    """`- tool_selection.f1: {">=": 80}` or `- target: ... matcher: {...}`."""
    if isinstance(item, dict) and "target" in item:
        if set(item) != {"target", "matcher"} or not isinstance(item["target"], str):
            raise GateError(f"{where}: give exactly a string target and a matcher")
        return parse_matcher(trace_target(item["target"], block, where), item["matcher"], where)
    if not isinstance(item, dict) or len(item) != 1:
        raise GateError(f"{where}: give one TARGET: {{OP: N}} or target/matcher")
    ((target, matcher),) = item.items()
    return parse_matcher(trace_target(str(target), block, where), matcher, where)


def parse_gate_option(text: str) -> Check:
    """--gate 'tool_selection.f1>=80'."""
    return parse_short(text, "--gate", lambda target, where: trace_target(target, None, where), "tool_selection.f1>=80")


def parse_scenario(entry: dict[str, Any], where: str, fail: Any) -> Scenario:
    """A scenario from a schema-valid entry; fail(message, pointer) raises a positioned error."""
    s = Scenario(str(entry.get("name", "traces")), entry.get("prompt"), entry.get("servers"), locate=fail)
    if "equal_function_sets" in entry:
        s.classes = _classes(entry["equal_function_sets"]["classes"], "/equal_function_sets", fail)
    if "token_efficiency" in entry:
        s.te_classes = _classes(entry["token_efficiency"]["classes"], "/token_efficiency", fail)
    if "tool_selection" in entry:
        s.floor = dict(entry["tool_selection"])
    if "distractors" in entry:
        d = entry["distractors"]
        s.distractors = Distractors(
            d["count"], d["source"]["from"], list(d["source"].get("of", [])), list(d["correct"]), d.get("complexity")
        )
    declared = entry.get("runs")
    if isinstance(declared, int) and not isinstance(declared, bool):
        s.runs = declared  # the reference clamps runs: 0 up to 1; evaluate says so
    s.name_free = bool(entry.get("discovery", {}).get("name_free", False))
    s.orchestration = "orchestration" in entry
    for block, (_, default) in BLOCKS.items():
        if block not in entry:
            continue
        items = entry[block].get("expect") or []
        if not items:
            s.checks += [(block, c) for c in default]
        for j, item in enumerate(items):
            try:
                s.checks.append((block, parse_item(item, block, f"{where}.{block}.expect[{j}]")))
            except GateError as exc:
                raise fail(str(exc).split(": ", 1)[-1], f"/{block}/expect/{j}") from None
    return s


def _classes(items: list[dict[str, Any]], block: str, fail: Any) -> list[EqClass]:
    """The classes of a block; a name given twice is an error at the second (the report names missed classes
    by name, so two of one name would count two misses and show one)."""
    first: dict[str, int] = {}
    for j, c in enumerate(items):
        k = first.setdefault(c["name"], j)
        if k != j:
            raise fail(
                f"class name {c['name']!r} is given twice (classes[{k}] and classes[{j}]): name each class once",
                f"{block}/classes/{j}/name",
            )
    return [EqClass(c["name"], tuple(c["members"])) for c in items]


# ---- evaluation -----------------------------------------------------------------------------


@dataclass
class Result:
    scenario: Scenario
    runs: list[Run]
    sources: list[str]
    figures: dict[str, Any]
    sections: dict[str, Any]
    floor: PassK | None
    rows: list[tuple[str, Row]]
    notices: list[str]

    @property
    def passed(self) -> bool:
        return all(r.passed for _, r in self.rows) and (self.floor is None or self.floor.passed)


class ScenarioError(Exception):
    """A scenario that cannot be scored as written (exit 2); pointer is the place in its entry that says why."""

    def __init__(self, message: str, pointer: str | None = None) -> None:
        super().__init__(message)
        self.pointer = pointer


def evaluate(s: Scenario, runs: list[Run], catalogs: dict[str, Catalog], extra: list[Check] | None = None) -> Result:
    notices: list[str] = []
    scope = _scope(s, catalogs, notices)
    if s.distractors:
        scope = _unpadded(s.distractors, scope, notices)
    padding = distractor_tools(s.distractors, scope) if s.distractors else []
    if s.runs is not None and max(s.runs, 1) != len(runs):  # the figures are over what was recorded
        asked = f"runs: {s.runs}" + (" (read as 1)" if s.runs < 1 else "")
        notices.append(
            f"the scenario asks for {asked}, and {len(runs)} recorded run{'s were' if len(runs) != 1 else ' was'}"
            f" found: it is scored on {'those' if len(runs) != 1 else 'that one'}"
        )
    resolver = Resolver(scope, padding)
    runs = resolved(runs, resolver)  # calls name servers as the scenario's catalogs say
    sections: dict[str, Any] = {}

    classes = s.classes or []
    sel = selection(classes, runs)
    if s.classes is not None:
        sections["tool_selection"] = {
            "classes": [c.name for c in classes],
            "tp": sel.tp,
            "fp": sel.fp,
            "fn": sel.fn,
            "precision": sel.precision,
            "recall": sel.recall,
            "f1": sel.f1,
            "missed": sel.missed,
            "unexpected": sel.unexpected,
        }

    checks = call_checks(runs, resolver)
    sections["calls"] = {
        "calls": checks.calls,
        "name_validity": checks.name_validity,
        "schema_compliance": checks.schema_compliance,
        "execution_success": checks.execution_success,
        "problems": checks.problems,
    }
    if not scope:
        notices.append("no catalog given: name validity and schema compliance need --catalog SERVER=PATH")
        ids = [m for c in [*classes, *(s.te_classes or [])] for m in c.members]
        ids += list(s.distractors.correct) if s.distractors else []
        bare = {m for m in ids if "." not in m}
        qualified = {m.split(".", 1)[1] for m in ids if "." in m} - bare
        if any(call.server is None and call.name in qualified for r in runs for call in r.calls):
            # a call with no server resolves through a catalog only: without one, it matches no SERVER.TOOL id
            notices.append(
                "no catalog given: calls that name no server cannot match the SERVER.TOOL members of the classes"
                " (selection, discovery and distractor figures count them as misses): give --catalog SERVER=PATH"
            )
    else:
        notices += _unknown_members(s, scope, padding)

    orch = orchestration(classes or s.te_classes or [], runs)
    sections["orchestration"] = orch
    if s.name_free and s.prompt is None and not any(r.prompt for r in runs):
        notices.append("discovery.name_free is set, but there is no prompt to check (give prompt: or record it)")
    if s.name_free:
        names = _names(classes, s.te_classes or [], scope)
        prompts = ([("the scenario prompt", s.prompt)] if s.prompt else []) + [
            (f"run {r.number}'s prompt", r.prompt) for r in runs if r.prompt
        ]
        flagged = []
        for label, prompt in prompts:
            for name in named_in_prompt(prompt, names):
                flagged.append(f"{label} names {name!r}")
        sections["discovery"] = {"name_free": True, "prompt_names": flagged}
        notices += [f"discovery.name_free: {f}, so the scenario is not name-free" for f in flagged]

    floor = None
    if s.floor:
        f = s.floor
        floor = PassK(s.name, f["expected_tool"], f["min_selection_rate"], f.get("max_total_tokens"), runs)
        sections["pass_k"] = floor.as_dict()

    if s.distractors:
        dist = distraction(s.distractors.correct, {t["name"] for t in padding}, runs)
        sections["distractors"] = {
            "count": s.distractors.count,
            "from": s.distractors.source,
            "complexity": s.distractors.complexity,
            "distractor_tools": [t["name"] for t in padding],
            "correct": s.distractors.correct,
            "chose_correct": dist.chose_correct,
            "chose_distractor": dist.chose_distractor,
            "accuracy": dist.accuracy,
            "clean_runs": dist.clean_runs,
            "runs": dist.runs,
            "certified_lower": dist.certified_lower,
            "failures": dist.failures,
        }

    if s.te_classes is not None:
        surface = _surface_tokens(scope, padding) if scope else None
        te = token_efficiency(selection(s.te_classes, runs), surface, runs)
        sections["token_efficiency"] = te

    figures = _figures(sections)
    rows = [(block, _row(check, figures, s)) for block, check in s.checks]
    rows += [("gate", _row(check, figures, s)) for check in extra or []]
    sources = list(dict.fromkeys(r.file or r.label for r in runs))
    if not rows and floor is None:  # PASS would say nothing was wrong, where nothing was checked
        notices.append(
            "no check ran, so nothing can fail: give --class (equal-function classes bring the default gate),"
            " --gate or --expected-tool, or a scenario with --spec"
        )
    return Result(s, runs, sources, figures, sections, floor, rows, notices)


# Which section holds each namespace's figures, in report order.
_FIGURE_SOURCES = (
    ("tool_selection", "tool_selection"),
    ("calls", "calls"),
    ("orchestration", "orchestration"),
    ("tool_selection", "pass_k"),
    ("distractors", "distractors"),
    ("token_efficiency", "token_efficiency"),
)


def _figures(sections: dict[str, Any]) -> dict[str, Any]:
    """The gateable figures ("calls.name_validity": 75, ...): the sections' values of the known targets."""
    figures: dict[str, Any] = {}
    for namespace, source in _FIGURE_SOURCES:
        section = sections.get(source) or {}
        for name in TARGETS[namespace]:
            if name in section:
                figures[f"{namespace}.{name}"] = section[name]
    return figures


def _row(check: Check, figures: dict[str, Any], s: Scenario) -> Row:
    target = check.target
    if target not in figures:
        block = next((b for b, (ns, _) in BLOCKS.items() if target.startswith(ns + ".")), "tool_selection")
        if target in ("tool_selection.selection_rate", "tool_selection.pass_k"):
            block = "tool_selection"
        why = f"the scenario has no {block}: block"
        return Row(check, None, False, f"{target} n/a ({why})")
    actual = figures[target]
    if actual is None:
        return Row(check, None, False, f"{target} n/a ({ABSENT.get(target, 'not measured')})")
    return row_for(check, actual)


def _scope(s: Scenario, catalogs: dict[str, Catalog], notices: list[str]) -> dict[str, Catalog]:
    if not s.servers:
        return catalogs
    missing = [name for name in s.servers if name not in catalogs]
    if missing and catalogs:
        notices.append(f"no catalog for server{'s' * (len(missing) > 1)} {', '.join(missing)}")
    return {name: catalogs[name] for name in s.servers if name in catalogs}


def _unknown_members(s: Scenario, scope: dict[str, Catalog], padding: list[dict[str, Any]]) -> list[str]:
    """Class members, correct ids and expected tools that name no tool the agent saw: likely typos."""
    known = {t["name"] for t in padding}
    for server, catalog in scope.items():
        for tool in catalog.tools:
            known.update((tool.name, f"{server}.{tool.name}"))
    ids: list[tuple[str, str]] = []
    for label, classes in (("equal_function_sets", s.classes), ("token_efficiency", s.te_classes)):
        ids += [(f"{label} class {c.name!r}", m) for c in classes or [] for m in c.members]
    if s.distractors:
        ids += [("distractors correct", m) for m in s.distractors.correct]
    if s.floor:
        ids.append(("tool_selection expected_tool", s.floor["expected_tool"]))
    return [f"{where} names {member!r}, which no catalog has" for where, member in ids if member not in known]


def _names(classes: list[EqClass], more: list[EqClass], scope: dict[str, Catalog]) -> list[str]:
    names = set(scope)
    for tool_catalog in scope.values():
        names.update(t.name for t in tool_catalog.tools)
    for c in [*classes, *more]:
        for member in c.members:
            names.add(member)
            if "." in member:
                server, tool = member.split(".", 1)
                names.update((server, tool))
    return sorted(names)


def distractor_tools(d: Distractors, scope: dict[str, Catalog]) -> list[dict[str, Any]]:
    from catalint.distractors import DistractorError, descriptions, from_catalog, near_duplicates

    real = [t.raw for c in scope.values() for t in c.tools]
    try:
        if d.source == "catalog":
            return from_catalog([t["name"] for t in real], d.count, descriptions(real))
        of = [_bare(name, scope) for name in d.of]
        if not real:  # no catalog: look-alikes of the names alone
            real = [{"name": name} for name in of]
        return near_duplicates(real, of, d.count)
    except DistractorError as exc:
        raise ScenarioError(f"distractors: {exc}", "/distractors") from None
    except RecursionError:  # a look-alike is a deep copy of its original, which can be hundreds of levels deep
        raise ScenarioError("distractors: a tool is nested too deeply to copy", "/distractors/source/of") from None


def _unpadded(d: Distractors, scope: dict[str, Catalog], notices: list[str]) -> dict[str, Catalog]:
    """The catalogs less the tools trace distract adds, when they hold as many of them as the block asks for:
    the padded catalog, whose distractors would otherwise count as the server's own (the block pads the
    catalog itself). Read so, with a notice; fewer than that is a real catalog's alias, left alone."""
    from catalint.distractors import already_padded

    of = [_bare(name, scope) for name in d.of]
    # each catalog on its own: trace distract pads one, and another server's real tool of the same name stays
    found = {name: set(already_padded([t.raw for t in c.tools], d.source, of)) for name, c in scope.items()}
    padded = [tool for names in found.values() for tool in names]
    if len(padded) < max(d.count, 1):
        return scope
    shown = ", ".join(padded[:3]) + (f" and {len(padded) - 3} more" if len(padded) > 3 else "")
    notices.append(
        f"distractors: the catalog already holds {len(padded)} tools trace distract adds ({shown}): read as the"
        " catalog before padding (the distractors: block adds them itself; name that one to drop this notice)"
    )
    return {
        name: replace(c, tools=[t for t in c.tools if t.name not in found[name]]) if found[name] else c
        for name, c in scope.items()
    }


def _bare(name: str, scope: dict[str, Catalog]) -> str:
    """`server.tool` -> `tool` (when server is a known one, or no catalog says otherwise)."""
    server, _, tool = name.partition(".")
    return tool if tool and (server in scope or not scope) else name


def _surface_tokens(scope: dict[str, Catalog], padding: list[dict[str, Any]]) -> int:
    from catalint.tokens import count

    tools = [t for c in scope.values() for t in c.tools]
    tools += [Tool(i, "", raw) for i, raw in enumerate(padding)]
    return sum(count(t).total for t in tools)


def _targets_block() -> str:
    return "\n".join(f"  {ns}.{{{', '.join(names)}}}" for ns, names in TARGETS.items())


EXPLANATION = f"""TRACE (scoring recorded runs)
=============================
`catalint trace score TRACE... --catalog SERVER=PATH` and `catalint check SUITE
--traces DIR` read recorded agent runs and score them against the catalog. No
model runs: the same traces always give the same numbers. Percents are integers
0..100 taken from exact fractions, and so are their gate bounds: a bound past
100, or a fraction such as 0.95, is a config error. As in the reference they
are rounded down (part x 100 // whole), but for the orchestration diagnostics
other than discovery (the class recall), which round to the nearest (two
classes over three calls: efficiency 67).
Several runs are micro-averaged: counts are summed over the runs before any
percent is taken (efficiency, a mean of per-run ratios, aside).

A run: {{"tool_calls": [{{"name", "server"?, "args"?, "error"? | "is_error"?,
"result"?}}], "conversation": {{"tokens": {{"total": N}}}}, "cost": X, "prompt"?}}.
A call without a server takes it from the one catalog that has the tool (or
from an mcp__SERVER__TOOL name); with a single catalog, a tool none has is
taken as that server's too, so a misspelt name is reported as
server.misspelt, no such tool. Missing args count as {{}}. A call errored when
error is set, is_error is true, or result.isError is true.

Selection F1 (equal_function_sets:; MSC-Bench, arXiv:2510.19423). Classes of
interchangeable tools; a member `server.tool` matches that qualified id, a bare
`tool` matches it on any server. A class is a true positive the first time a
call names one of its members (one call to a tool in two classes satisfies
both); later calls to a satisfied class are repeats and count for nothing; a
call in no class is a false positive; a class no call named is a false negative.
precision = TP/(TP+FP), recall = TP/(TP+FN), F1 = 2TP/(2TP+FP+FN). No classes and
no calls scores 100; any other zero denominator scores 0. Default gate:
tool_selection.f1 >= 50.

Call checks (the rule-based checks of MCP-Bench, arXiv:2508.20453), with a
catalog: name_validity = calls naming a tool in the catalog; schema_compliance =
of those, calls whose args validate against the tool's inputSchema (the
dialect it declares, 2020-12 by default; a call to a tool whose $schema names
no dialect catalint knows, which SCH-006 reports, or whose inputSchema cannot be
built, is listed and not counted); execution_success = calls without an
error. An empty trace scores 100 on each.

Orchestration (orchestration:; MCP-Atlas, arXiv:2602.00933): discovery = the
class recall; parameterization = calls with a non-empty object as args;
syntax = calls with a non-empty name and object args; error_recovery = errored
calls followed later in the run by a successful call to the same tool or to a
tool in a class with it (no errors: 100); efficiency = classes / calls of each
run, capped at 100 in each run before the mean over runs, so a short run does not
hide another's extra calls (no classes: 0; a run with no calls: 0). Empty traces
score 100 on parameterization and syntax. discovery: name_free: true records
the promise that the prompt names no tool or server; catalint flags a scenario
or recorded prompt that does.

Distractors (distractors:; MCPAgentBench, arXiv:2512.24565). count tools from
a bundled catalog of plausible but irrelevant tools (source: {{from: catalog}};
one whose name has a topic word that a catalog tool's name or description uses,
such as weather, is left out) or look-alikes of the `of` tools (_v2, _internal, casing, plural; source:
{{from: near_duplicate, of: [...]}}), generated deterministically: `catalint
trace distract` writes the same padded catalog to present to the agent. Each
distinct tool a run chose is correct (in correct:), a distractor, or out of
scope. accuracy = correct x 100 / (correct + distractor), each counted over
all the runs (a run that chose nothing in scope adds nothing there; it is not
clean, so certified_lower counts it); nothing in scope in any run scores 0,
or 100 when correct: is empty. A run is clean when it chose a correct
tool and no distractor; certified_lower is the one-sided Clopper-Pearson exact
95% lower bound on the clean-run rate, in percent, floored to 0.01 (a
floating-point tail settles each grid point, exact integer arithmetic the
ones where it comes within a millionth of 5%; one clean run of one
certifies 5.00; see LLMCert-T, arXiv:2510.03992). Default gate:
distractors.accuracy >= 50.

pass^k (tool_selection: expected_tool, min_selection_rate, max_total_tokens).
A run selects the tool when any call names it. selection rate = selecting runs
/ runs; pass^k = runs that selected it and stayed within the token budget (a
run without a recorded token count is not within a budget; FLOOR says so). The
floor passes when the rate reaches min_selection_rate and every run is within
budget:
  tool-selection floor [PASS] NAME: selection 9/10 (90%), pass^k 90%, tokens 1520 median / 1840 max
On a breach, FLOOR lines name the condition and each run that missed.

Token efficiency (token_efficiency:): the selection F1 over its own classes,
tool_surface_tokens (cl100k_base tokens of the name, description and compact
inputSchema of every tool the agent saw, distractors included),
correct_selections (true positives over all runs), cost (sum of the runs'
cost), tokens_per_correct and cost_per_correct (absent when nothing was
selected correctly, and cost_per_correct on a free run). A grade rides along:
A >= 90, B >= 80, C >= 70, D >= 60, else F. Default gate: token_efficiency.f1 >= 50.

Targets, for expect: (each block takes its own and calls.*) and --gate:
{_targets_block()}
Both forms work in expect:
  - tool_selection.f1: {{">=": 80}}
  - target: orchestration.efficiency
    matcher: {{schema: {{minimum: 50}}}}
A gate on a figure that is absent (no catalog, undefined per-correct figures)
fails, saying why.

Reports: --output-format text, json or markdown; --compare BASELINE.json (a
saved JSON report) prints each figure's change and every gate that flipped.
"""
