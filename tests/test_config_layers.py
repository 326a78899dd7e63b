"""Rule selection and severities over a stack of layers (a config, a config that extends it, the flags) against
a plain model of ruff's documented algorithm, on random stacks.

The model, per layer in order: every rule a selector names gets True (select, extend-select) or False (ignore),
less specific selectors first, so the most specific decides and ignore wins a tie; a layer with select keeps
only its True rules, any other adds its True rules and drops its False ones; a layer of `select = []` with an
ignore and no extend-select adds that ignore to the next layer's. catalint's own terms: ALL is
every rule but the client profiles' CMP rules; a --target's rules are on unless the stack last ignored them;
per rule, the topmost [severity] that names it decides, by its most specific entry.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from catalint.config import SettingsResolver
from catalint.profiles import selectors as target_selectors
from catalint.registry import all_rules

RULES = all_rules()
CODES = [r.code for r in RULES]
PREFIXES = ["ALL", "C", "CM", "CMP", "CMP-GEM", "CMP-OA", "CAT", "CAT-00", "D", "DESC", "DESC-0", "DESC-01"]
PREFIXES += ["S", "SCH", "SCH-01", "SEC", "T", "TOK"]
SELECTOR = st.sampled_from(PREFIXES) | st.sampled_from(CODES)
LEVELS = ["critical", "warning", "info"]


def named(selector: str) -> list[str]:
    s = selector.upper()
    return [c for c in CODES if not c.startswith("CMP")] if s == "ALL" else [c for c in CODES if c.startswith(s)]


def spec(selector: str) -> int:
    return 0 if selector.upper() == "ALL" else len(selector)


@st.composite
def layers(draw: Any) -> dict[str, Any]:
    table: dict[str, Any] = {}
    if draw(st.booleans()):  # select = [] too: with an ignore, ruff hands that ignore to the next layer
        table["select"] = draw(st.lists(SELECTOR, min_size=0, max_size=3))
    for key in ("extend-select", "ignore"):
        if draw(st.booleans()):
            table[key] = draw(st.lists(SELECTOR, min_size=1, max_size=3))
    if draw(st.booleans()):
        table["severity"] = draw(st.dictionaries(SELECTOR, st.sampled_from(LEVELS), min_size=1, max_size=3))
    if draw(st.integers(0, 3)) == 0:
        table["targets"] = draw(st.lists(st.sampled_from(["openai-strict", "gemini", "anthropic"]), max_size=2))
    return table


def model(stack: list[dict[str, Any]]) -> tuple[list[str], dict[str, str]]:
    state = {r.code: "on" if r.default else "off" for r in RULES}
    levels = {r.code: r.severity.label for r in RULES}
    targets: list[str] = []
    carried: list[str] = []
    for table in stack:
        chosen = [*table.get("select", []), *table.get("extend-select", [])]
        ignore, carried = [*table.get("ignore", []), *carried], []
        said: dict[str, bool] = {}
        for size in sorted({spec(s) for s in [*chosen, *ignore]}):
            said.update((c, True) for s in chosen if spec(s) == size for c in named(s))
            said.update((c, False) for s in ignore if spec(s) == size for c in named(s))
        if "select" in table:
            state = {c: "off" for c in CODES}
            if not table["select"] and not table.get("extend-select") and table.get("ignore"):
                carried = table["ignore"]
        state.update((c, "on" if yes else "ignored") for c, yes in said.items())
        targets = table.get("targets", targets)
        for code in CODES:
            entries = [(spec(s), level) for s, level in table.get("severity", {}).items() if code in named(s)]
            if entries:
                levels[code] = max(entries, key=lambda e: e[0])[1]
    profile = target_selectors(targets) if targets else []
    on = [c for c in CODES if state[c] == "on" or (state[c] == "off" and any(c.startswith(p) for p in profile))]
    return on, levels


def toml(table: dict[str, Any]) -> str:
    lines = [f"{key} = {json.dumps(value)}" for key, value in table.items() if key != "severity"]
    if "severity" in table:
        lines += ["[severity]", *(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in table["severity"].items())]
    return "\n".join(lines) + "\n"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(base=layers(), child=st.none() | layers(), flags=st.none() | layers())
# ALL decides the CAT half of a lower C and leaves its CMP half: no dropping of whole selectors can say that
@example(base={"ignore": ["C"], "targets": ["gemini"]}, child=None, flags={"extend-select": ["ALL"]})
@example(base={"extend-select": ["C"], "severity": {"C": "info"}}, child={"ignore": ["ALL"]}, flags=None)
@example(base={"select": ["DESC-001"]}, child=None, flags={"ignore": ["DESC"], "severity": {"ALL": "info"}})
@example(base={"select": [], "ignore": ["DESC-001"]}, child={"select": ["DESC"]}, flags=None)
# a layer that names no rule still takes (and spends) the ignore a select = [] below it hands on
@example(base={"select": [], "ignore": ["DESC-001"]}, child={}, flags={"extend-select": ["DESC"]})
def test_a_stack_of_layers_selects_and_rates_as_the_model_says(
    tmp_path_factory: Any, base: dict[str, Any], child: dict[str, Any] | None, flags: dict[str, Any] | None
) -> None:
    root: Path = tmp_path_factory.mktemp("stack")
    (root / "base.toml").write_text(toml(base))
    config = root / "base.toml"
    if child is not None:
        config = root / "child.toml"
        config.write_text('extend = "base.toml"\n' + toml(child))
    resolved = SettingsResolver(config, flags or {}).for_dir(root)
    stack = [t for t in (base, child) if t is not None] + [flags or {}]  # the command line is a layer, flags or not
    on, levels = model(stack)
    assert resolved.enabled_codes() == on, stack
    for rule in RULES:
        assert resolved.severity_of(rule.code, rule.severity).label == levels[rule.code], (rule.code, stack)
