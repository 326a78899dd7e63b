"""The quality gate: assertions on a catalog's scores and counts, one PASS/FAIL row each.

A check is a target (`mean_score`, `tool["read_file"].score`, `smells.verbose`,
...) and a matcher: either comparisons (`{">=": 0.7}`, or `mean_score>=0.7`
on the command line) or a JSON Schema fragment (`{"schema": {"minimum": 0.7}}`)
that the figure must validate against.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from catalint.config import ConfigError
from catalint.model import SMELLS
from catalint.text import LazyRegex

SCORE_TARGETS = ("min_score", "mean_score")
COUNT_TARGETS = (
    "critical_count",
    "warning_count",
    "schema_criticals",
    "schema_warnings",
    "smell_total",
    "tokens.total",
    "tokens.max_tool",
)
TARGETS = (*SCORE_TARGETS, 'tool["NAME"].score', *COUNT_TARGETS, *(f"smells.{s}" for s in SMELLS))
OPS = (">=", "<=", "==", "!=", ">", "<")
_NEGATE = {">=": "<", ">": "<=", "<=": ">", "<": ">=", "==": "!=", "!=": "=="}
_TOOL = LazyRegex(r"""tool\[(["'])(.+)\1\]\.score""")
_SHORT = LazyRegex(r"^\s*(.+?)\s*(>=|<=|==|!=|>|<)\s*(\S+)\s*$")
# A schema made of these keywords only is shown and checked as comparisons.
_SCHEMA_OPS = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<", "const": "=="}


# Targets with a fixed scale, by kind: a bound off the scale is a mistake (0.7 where 70 was meant).
# trace_scenario adds its percents.
SCALES: dict[str, str] = {"min_score": "score", "mean_score": "score"}
_SCALE = {"score": (1.0, "a score from 0 to 1"), "percent": (100.0, "a percent from 0 to 100")}


class GateError(ConfigError):
    """A gate that cannot be understood or applied: a config error (exit 2)."""


@dataclass(frozen=True)
class Check:
    target: str
    ops: tuple[tuple[str, float], ...] = ()  # comparisons, all of which must hold
    schema: dict[str, Any] | None = None  # or a JSON Schema the figure must match

    @property
    def tool(self) -> str | None:
        found = _TOOL.fullmatch(self.target)
        return found.group(2) if found else None

    def expected(self) -> str:
        if self.schema is not None:
            return "matches " + json.dumps(self.schema, sort_keys=True)
        return " and ".join(f"{op} {_number(self.target, v)}" for op, v in self.ops)


@dataclass(frozen=True)
class Row:
    check: Check
    actual: float | int | None
    passed: bool
    text: str  # "mean_score 0.64 < 0.70"

    def line(self, file: str | None = None) -> str:
        where = f" ({file})" if file else ""
        return f"gate [{'PASS' if self.passed else 'FAIL'}] {self.text}{where}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "target": self.check.target,
            "actual": self.actual,
            "expected": self.check.expected(),
            "passed": self.passed,
            "message": self.text,
        }


DEFAULT_GATE = (
    Check("min_score", ((">=", 0.50),)),
    Check("mean_score", ((">=", 0.70),)),
    Check("critical_count", (("<=", 0),)),
)


def check_target(text: str, where: str) -> str:
    target = text.strip()
    if target in SCORE_TARGETS or target in COUNT_TARGETS:
        return target
    if target.startswith("smells."):
        if target[7:] in SMELLS:
            return target
        raise GateError(f"{where}: unknown smell {target[7:]!r} (known: {', '.join(SMELLS)})")
    if _TOOL.fullmatch(target):
        return target
    raise GateError(f"{where}: unknown gate target {target!r} (known: {', '.join(TARGETS)})")


def parse_short(text: str, where: str, known: Callable[[str, str], str] | None = None, example: str = "") -> Check:
    """`mean_score>=0.8`, as --gate takes it; known checks the target (the lint targets by default)."""
    example = example or "mean_score>=0.8"
    stripped = text.rstrip()
    for op in OPS:  # `f1>=` would otherwise read as `f1 > "="`, and say '=' is not a number
        if stripped.endswith(op) and stripped[: -len(op)].strip(" =<>!"):
            raise GateError(f"{where}: the bound is missing after {op!r} in {text!r} (such as {example!r})")
    found = _SHORT.match(text)
    if not found:
        raise GateError(f"{where}: expected TARGET OP NUMBER such as {example!r}, got {text!r}")
    target, op, number = found.groups()
    if target[-1:] in "=<>!":
        raise GateError(f"{where}: bad comparison in {text!r} (use {', '.join(OPS)})")
    return on_scale(Check((known or check_target)(target, where), ((op, _parse_number(number, where)),)), where)


def parse_gate_table(value: Any, where: str) -> list[Check]:
    """A config gate: `{target = {">=" = 0.7}, ..., expect = [{target, matcher}]}`."""
    if not isinstance(value, dict):
        raise GateError(f"{where} must be a table of TARGET = {{OP = NUMBER}} (or false to turn the gate off)")
    checks: list[Check] = []
    for key, matcher in _dotted(value).items():
        if key == "expect":
            if not isinstance(matcher, list):
                raise GateError(f"{where}.expect must be an array of {{target, matcher}} tables")
            for i, entry in enumerate(matcher):
                checks.append(parse_expect(entry, f"{where}.expect[{i}]"))
        else:
            checks.append(parse_matcher(check_target(key, where), matcher, f"{where}.{key}"))
    return checks


def _dotted(table: dict[str, Any]) -> dict[str, Any]:
    """Undo TOML's reading of an unquoted `smells.verbose = {...}` as a nested table."""
    out: dict[str, Any] = {}
    for key, value in table.items():
        nested = key in ("smells", "tokens") and isinstance(value, dict) and value
        if nested and all(isinstance(v, dict) for v in value.values()) and not set(value) & {*OPS, "schema"}:
            out.update({f"{key}.{name}": matcher for name, matcher in value.items()})
        else:
            out[key] = value
    return out


def parse_expect(entry: Any, where: str) -> Check:
    """The long form: `{target = "mean_score", matcher = {schema = {minimum = 0.7}}}`."""
    if not isinstance(entry, dict) or set(entry) != {"target", "matcher"} or not isinstance(entry["target"], str):
        raise GateError(f"{where} must be a table with exactly a string 'target' and a 'matcher'")
    return parse_matcher(check_target(entry["target"], where), entry["matcher"], where)


def parse_matcher(target: str, matcher: Any, where: str) -> Check:
    if not isinstance(matcher, dict) or not matcher:
        raise GateError(f'{where}: a matcher is {{">=" = 0.7}} or {{schema = {{minimum = 0.7}}}}')
    if "schema" in matcher:
        if len(matcher) != 1 or not isinstance(matcher["schema"], dict):
            raise GateError(f"{where}: a schema matcher is {{schema = {{...}}}} and nothing else")
        schema = matcher["schema"]
        _check_schema(schema, where)
        if schema and set(schema) <= set(_SCHEMA_OPS) and all(is_number(v) for v in schema.values()):
            return on_scale(Check(target, tuple((_SCHEMA_OPS[k], float(v)) for k, v in schema.items())), where)
        return Check(target, schema=schema)
    ops = []
    for op, number in matcher.items():
        if op not in OPS:
            raise GateError(f"{where}: unknown comparison {op!r} (use {', '.join(OPS)} or schema)")
        if not is_number(number):
            raise GateError(f"{where}: {op} needs a number, got {number!r}")
        ops.append((op, float(number)))
    return on_scale(Check(target, tuple(ops)), where)


def on_scale(check: Check, where: str) -> Check:
    """check, unless a bound is off its target's scale: a score past 0..1, a percent past 0..100 or
    strictly between 0 and 1 (a fraction where a percent was meant: 0.95 for 95)."""
    kind = SCALES.get(check.target) or ("score" if check.tool is not None else None)
    if kind is None:
        return check
    top, scale = _SCALE[kind]
    for _, bound in check.ops:
        if 0.0 <= bound <= top and not (kind == "percent" and 0.0 < bound < 1.0):
            continue
        hint = ""
        if kind == "score" and 10.0 <= bound <= 100.0:  # a percent where a score was meant
            hint = f": did you mean {bound / 100:g}?"
        elif kind == "percent" and 0.0 < bound < 1.0:  # a fraction where a percent was meant
            hint = f": did you mean {bound * 100:g}?"
        raise GateError(f"{where}: {check.target} is {scale}, not {bound:g}{hint}")
    return check


def _check_schema(schema: dict[str, Any], where: str) -> None:
    from catalint.metaschema import schema_errors, unusable

    for error in schema_errors(schema, "2020-12"):
        place = "/".join(str(p) for p in error.path) or "the root"
        raise GateError(f"{where}: not a valid JSON Schema at {place}: {error.message}")
    reason = unusable(schema, "2020-12")  # valid, but no validator can be built: a $ref that goes nowhere
    if reason is not None:
        raise GateError(f"{where}: the schema cannot be used: {reason}")


def merge(base: list[Check], extra: list[Check]) -> list[Check]:
    """extra's checks replace base's checks on the same target; the rest are kept."""
    targets = {c.target for c in extra}
    return [c for c in base if c.target not in targets] + extra


def evaluate(
    checks: list[Check], figures: dict[str, Any], tool_scores: dict[str, float], file: str, *, strict: bool = True
) -> list[Row]:
    """One row per check. A check on a tool that is not in the catalog is a GateError, or with
    strict=False (one catalog of several) no row: the caller checks that some catalog had it."""
    rows = []
    for check in checks:
        name = check.tool
        if name is not None:
            if name not in tool_scores:
                if not strict:
                    continue
                raise GateError(f"{file}: gate {check.target}: there is no tool named {name!r} in this catalog")
            actual = tool_scores[name]
        else:
            actual = figures.get(check.target)
        rows.append(row_for(check, actual))
    return rows


def against_baseline(rows: list[Row], before: dict[str, float | None], tools: dict[str, float]) -> list[Row]:
    """Under a baseline, a failed score check (min_score, mean_score, a tool's score; >= or > only)
    passes when the score is no lower than the baseline's: legacy quality is not the change's to fix.
    before: the catalog's score figures at the baseline; tools: each tool's score there, by name (however
    a check quotes it: tool['x'].score or tool["x"].score)."""
    out = []
    for row in rows:
        tool = row.check.tool
        base = before.get(row.check.target) if tool is None else tools.get(tool)
        scored = row.check.target in SCORE_TARGETS or row.check.tool is not None
        rising = bool(row.check.ops) and all(op in (">=", ">") for op, _ in row.check.ops)
        if row.passed or base is None or row.actual is None or not (scored and rising) or row.actual < base:
            out.append(row)
            continue
        text = f"{row.text}, no lower than at the baseline ({_number(row.check.target, base)})"
        out.append(Row(row.check, row.actual, True, text))
    return out


def row_for(check: Check, actual: float | int | None) -> Row:
    shown = _number(check.target, actual) if actual is not None else "n/a"
    if actual is None:  # nothing to measure (no tools): nothing to fail
        return Row(check, None, True, f"{check.target} n/a ({check.expected()})")
    if check.schema is not None:
        problem = _schema_problem(check.schema, actual)
        if problem is None:
            return Row(check, actual, True, f"{check.target} {shown} {check.expected()}")
        return Row(check, actual, False, f"{check.target} {shown} does not match: {problem}")
    for op, bound in check.ops:
        if not _compare(actual, op, bound):
            limit = _number(check.target, bound)
            if limit == shown and actual != bound:  # two decimals would hide the difference
                shown, limit = f"{actual:.4f}", f"{bound:.4f}"
            return Row(check, actual, False, f"{check.target} {shown} {_NEGATE[op]} {limit}")
    return Row(check, actual, True, f"{check.target} {shown} {check.expected()}")


def _schema_problem(schema: dict[str, Any], actual: float | int) -> str | None:
    from catalint.metaschema import DEFAULT_DIALECT, problem, value_validator

    validator = value_validator(schema, DEFAULT_DIALECT, schema, "")
    if validator is None:
        return "the schema cannot be used"
    return problem(validator, actual) or None


def _compare(actual: float, op: str, bound: float) -> bool:
    if op == ">=":
        return actual >= bound
    if op == ">":
        return actual > bound
    if op == "<=":
        return actual <= bound
    if op == "<":
        return actual < bound
    if op == "==":
        return actual == bound
    return actual != bound


def _number(target: str, value: float | int | None) -> str:
    if value is None:
        return "n/a"
    if target in SCORE_TARGETS or target.endswith(".score"):
        from catalint.tdqs import shown

        return shown(value)
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _parse_number(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise GateError(f"{where}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise GateError(f"{where}: {text!r} is not a finite number")
    return value


def is_number(value: Any) -> bool:
    """A finite number a float can hold (an integer such as 10**400 cannot)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


EXPLANATION = f"""GATE (the quality gate)
=======================
Every linted file goes through the gate after its findings: one row per check,
`gate [PASS] min_score 0.62 >= 0.50` or `gate [FAIL] mean_score 0.64 < 0.70`.
A failed check makes the run exit 1 (as findings at the fail severity do);
--exit-zero turns that into 0. A gate on an unknown target is a config error
(exit 2). A check on one tool runs on the files that have that tool; when none
of the linted files has it, a --gate check is a config error (a misspelt name)
and a configured one a notice (pre-commit lints only the changed files), as is
a --gate check under pre-commit (a hook's args).

Default, when no gate is configured: min_score >= 0.50, mean_score >= 0.70,
critical_count <= 0.

Under --baseline or --baseline-rev the counts are of the new findings only, and
a failed score check (min_score, mean_score, a tool's score; >= or >) passes
when the score is no lower than the baseline's.

Targets:
  min_score, mean_score   the worst and the mean TDQS of the file's tools (0..1,
                          a bound off that scale is an error; see 'catalint rule TDQS')
  tool["NAME"].score      one tool's TDQS
  critical_count          findings at critical severity, schema rules excepted
  warning_count           findings at warning severity, schema rules excepted
  schema_criticals        SCH findings at critical severity
  schema_warnings         SCH findings at warning severity
  smells.NAME             findings of one smell: {", ".join(SMELLS[:4])},
                          {", ".join(SMELLS[4:])}
  smell_total             all findings (each belongs to one smell)
  tokens.total            the file's tool-surface tokens (cl100k_base; counting
                          them loads the encoding)
  tokens.max_tool         the largest tool's tokens

Matchers: comparisons ({", ".join(OPS)}), all of which must hold, or a JSON Schema
fragment the figure must validate against (JSON Schema 2020-12).

In pyproject.toml ([tool.catalint.gate]) or catalint.toml ([gate]); a configured
gate replaces the defaults:

  [tool.catalint.gate]
  min_score = {{ ">=" = 0.6 }}
  mean_score = {{ ">=" = 0.8 }}
  'tool["read_file"].score' = {{ ">=" = 0.9 }}
  expect = [{{ target = "schema_criticals", matcher = {{ schema = {{ maximum = 0 }} }} }}]

On the command line, --gate 'TARGET OP NUMBER' (repeatable) replaces the check on
that target or adds one, over the config's gate or the defaults; so does
extend-gate = ["mean_score>=0.8"] in the config. --no-gate (gate = false) turns the
gate off.
"""
