"""Deterministic metrics over recorded runs: no model, the same numbers every time.

Percents are integers 0..100 taken from exact fractions, so the output is
byte-stable across platforms. As in the reference, most are the integer
division part * 100 // whole (rounded down); the orchestration diagnostics but
discovery (the class recall) round to the nearest (the reference's worked
example: two classes over three calls is 67).
Several runs are micro-averaged: the counts are summed over the runs, then the
percent is taken; efficiency alone is a mean of per-run ratios.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from catalint.traces import Call, Resolver, Run


def pct(part: int, whole: int) -> int:
    """part * 100 // whole, rounded down as the reference's integer percents are; 0 when whole is 0."""
    if whole <= 0:
        return 0
    return 100 * part // whole


def pct_nearest(part: int, whole: int) -> int:
    """round(100 * part / whole), halves up, in integers; 0 when whole is 0."""
    if whole <= 0:
        return 0
    return (200 * part + whole) // (2 * whole)


@dataclass(frozen=True)
class EqClass:
    name: str
    members: tuple[str, ...]


def member_matches(member: str, call: Call) -> bool:
    """`server.tool` matches that qualified id only; a bare `tool` matches it on any server."""
    return bool(call.name) and (member == call.id or member == call.name)


# ---- 1. selection F1 over equal-function sets -------------------------------------------


@dataclass
class Selection:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    missed: dict[str, int] = field(default_factory=dict)  # class -> runs that missed it
    unexpected: dict[str, int] = field(default_factory=dict)  # tool id -> calls in no class

    @property
    def vacuous(self) -> bool:
        return self.tp == self.fp == self.fn == 0

    @property
    def precision(self) -> int:
        return 100 if self.vacuous else pct(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> int:
        return 100 if self.vacuous else pct(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> int:
        return 100 if self.vacuous else pct(2 * self.tp, 2 * self.tp + self.fp + self.fn)

    def add(self, other: Selection) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        for name, n in other.missed.items():
            self.missed[name] = self.missed.get(name, 0) + n
        for name, n in other.unexpected.items():
            self.unexpected[name] = self.unexpected.get(name, 0) + n


class ClassIndex:
    """Which classes a call belongs to, by a lookup of its qualified id and its bare name."""

    def __init__(self, classes: list[EqClass]) -> None:
        self.classes = classes
        self.by_member: dict[str, list[int]] = {}
        for i, c in enumerate(classes):
            for member in dict.fromkeys(c.members):
                self.by_member.setdefault(member, []).append(i)

    def of(self, call: Call) -> list[int]:
        """Indexes of the classes the call is a member of, in declared order."""
        if not call.name:
            return []
        found = self.by_member.get(call.id, [])
        if call.id != call.name:
            bare = self.by_member.get(call.name, [])
            if bare:
                found = sorted({*found, *bare})
        return found


def select_run(classes: list[EqClass], calls: list[Call], index: ClassIndex | None = None) -> Selection:
    """The counting rule: each class is consumed at most once.

    A class is a true positive the first time a call names one of its members;
    a call that names a member of two classes satisfies both (nothing depends on
    the order the classes are declared in). A later call to a satisfied class
    is a repeat and counts for nothing. A call in no class is a false positive.
    A class no call named is a false negative.
    """
    index = index or ClassIndex(classes)
    consumed: set[int] = set()
    result = Selection()
    for call in calls:
        hits = index.of(call)
        if not hits:
            result.fp += 1
            result.unexpected[call.shown] = result.unexpected.get(call.shown, 0) + 1
            continue
        consumed.update(hits)
    result.tp = len(consumed)
    for i, c in enumerate(classes):
        if i not in consumed:
            result.fn += 1
            result.missed[c.name] = 1
    return result


def selection(classes: list[EqClass], runs: list[Run]) -> Selection:
    total = Selection()
    index = ClassIndex(classes)
    for run in runs:
        total.add(select_run(classes, run.calls, index))
    return total


# ---- 2. rule-based call checks (MCP-Bench) -----------------------------------------------


@dataclass
class CallChecks:
    calls: int
    valid_names: int | None  # None without a catalog
    compliant: int | None
    checked: int | None  # calls with a valid name whose schema could be used
    succeeded: int
    problems: list[str]  # "run 2 call 1: shell.exec: not in any catalog"

    @property
    def name_validity(self) -> int | None:
        return None if self.valid_names is None else (100 if not self.calls else pct(self.valid_names, self.calls))

    @property
    def schema_compliance(self) -> int | None:
        if self.compliant is None or self.checked is None:
            return None
        return 100 if not self.checked else pct(self.compliant, self.checked)

    @property
    def execution_success(self) -> int:
        return 100 if not self.calls else pct(self.succeeded, self.calls)


def call_checks(runs: list[Run], resolver: Resolver) -> CallChecks:
    """Name validity, schema compliance (of calls with a valid name) and execution success."""
    from catalint.metaschema import problem

    have_catalog = bool(resolver.catalogs)
    calls = valid = compliant = checked = succeeded = 0
    problems: list[str] = []
    validators: dict[int, Any] = {}  # by the id of an inputSchema: its validator, or why there is none
    for run in runs:
        for call in run.calls:
            calls += 1
            succeeded += not call.errored
            if not have_catalog:
                continue
            where = f"run {run.number} call {call.index}: {call.shown}"
            tool = resolver.tool(call) if call.name else None
            if tool is None:
                problems.append(f"{where}: no such tool in the catalog")
                continue
            valid += 1
            schema = tool.get("inputSchema")
            if not isinstance(schema, dict):
                continue
            key = id(schema)
            if key not in validators:  # one validator per tool, however many calls it gets
                validators[key] = _argument_validator(schema)
            validator = validators[key]
            if isinstance(validator, str):
                because = f": {validator}" if validator else ""
                problems.append(f"{where}: the tool's inputSchema cannot be used to check arguments{because}")
                continue
            checked += 1
            if not isinstance(call.args, dict):
                why = "arguments are not an object"
            else:
                why = problem(validator, call.args).replace("fails", "arguments fail", 1)
            if why:
                problems.append(f"{where}: {why}")
            else:
                compliant += 1
    if not have_catalog:
        return CallChecks(calls, None, None, None, succeeded, problems)
    return CallChecks(calls, valid, compliant, checked, succeeded, problems)


def _argument_validator(schema: dict[str, Any]) -> Any:
    """A validator of a tool's arguments, or why there is none (a string): the `$schema` problem when it names
    no dialect catalint knows (SCH-006 reports it and checks nothing against it; nor is anything checked
    here), "" for a schema jsonschema-rs cannot build (SCH-006 or SCH-010 says why)."""
    from catalint.metaschema import dialect_of, value_validator

    dialect = dialect_of(schema)
    if dialect.name is None:
        return dialect.problem or "its $schema names no dialect catalint knows"
    built = value_validator(schema, dialect.name, schema, "")
    return "" if built is None else built


# ---- 3. orchestration diagnostics ----------------------------------------------------------


def orchestration(classes: list[EqClass], runs: list[Run]) -> dict[str, int]:
    calls = [call for run in runs for call in run.calls]
    n = len(calls)
    parameterized = sum(isinstance(c.args, dict) and bool(c.args) for c in calls)
    well_formed = sum(bool(c.name) and isinstance(c.args, dict) for c in calls)
    errored = recovered = 0
    index = ClassIndex(classes)
    for run in runs:
        # walking back, the ids and classes some later call reached without an error
        ok_ids: set[str] = set()
        ok_classes: set[int] = set()
        for call in reversed(run.calls):
            if call.errored:
                errored += 1
                if call.name and (call.id in ok_ids or ok_classes.intersection(index.of(call))):
                    recovered += 1
            elif call.name:
                ok_ids.add(call.id)
                ok_classes.update(index.of(call))
    return {
        "discovery": selection(classes, runs).recall,
        "parameterization": 100 if not n else pct_nearest(parameterized, n),
        "syntax": 100 if not n else pct_nearest(well_formed, n),
        "error_recovery": 100 if not errored else pct_nearest(recovered, errored),
        "efficiency": efficiency(len(classes), runs),
    }


def efficiency(classes: int, runs: list[Run]) -> int:
    """The mean over runs of classes / calls, each run's ratio capped at 1 first (so one short run cannot
    hide another run's extra calls), as a percent rounded to the nearest; no classes, or no calls: 0."""
    if not classes or not runs:
        return 0
    total = sum((min(Fraction(1), Fraction(classes, len(r.calls))) for r in runs if r.calls), Fraction(0))
    mean = total / len(runs)
    return pct_nearest(mean.numerator, mean.denominator)


def named_in_prompt(prompt: str, names: list[str]) -> list[str]:
    """The tool or server names a prompt spells out (as whole words, ignoring case), sorted: one pass over
    the prompt, however many names (see catalint.spelt)."""
    from catalint.spelt import spelt_out

    return sorted(spelt_out(prompt, names))


# ---- 4. distractor accuracy and the Clopper-Pearson floor ------------------------------------


@dataclass
class Distraction:
    chose_correct: int
    chose_distractor: int
    clean_runs: int  # runs that chose a correct tool and no distractor
    runs: int
    declared_correct: int
    failures: list[str]  # "run 3: chose get_weather_v2"

    @property
    def accuracy(self) -> int:
        in_scope = self.chose_correct + self.chose_distractor
        if not in_scope:
            return 100 if not self.declared_correct else 0
        return pct(self.chose_correct, in_scope)

    @property
    def certified_lower(self) -> float:
        return clopper_pearson_lower(self.clean_runs, self.runs)


def distraction(correct: list[str], distractors: set[str], runs: list[Run]) -> Distraction:
    """Per run, each distinct chosen tool counts once: correct, distractor, or out of scope."""
    good = bad = clean = 0
    failures = []
    wanted = set(correct)
    for run in runs:
        seen: set[str] = set()
        run_good = run_bad = 0
        chose_bad = []
        for call in run.calls:
            if not call.name or call.id in seen:
                continue
            seen.add(call.id)
            if call.id in wanted or call.name in wanted:  # as member_matches, by lookup
                run_good += 1
            elif call.name in distractors:
                run_bad += 1
                chose_bad.append(call.shown)
        good += run_good
        bad += run_bad
        if run_good and not run_bad:
            clean += 1
        elif run_bad:
            failures.append(f"run {run.number}: chose distractor {', '.join(chose_bad)}")
        else:
            failures.append(f"run {run.number}: chose no correct tool")
    return Distraction(good, bad, clean, len(runs), len(correct), failures)


def clopper_pearson_lower(successes: int, trials: int, alpha: tuple[int, int] = (1, 20)) -> float:
    """The one-sided exact (Clopper-Pearson) lower confidence bound, in percent, floored to 0.01.

    The bound is the p at which P(X >= successes | trials, p) = alpha (0.05 by
    default); the tail grows with p, so the answer is the largest grid point
    j/10000 whose tail is still <= alpha. A floating-point bisection finds the
    neighbourhood; each grid point tried is settled by the float tail where it is
    clearly on one side of alpha, else by exact integer arithmetic:
    sum C(n,i) j^i (10000-j)^(n-i) * den <= num * 10000^n.
    """
    if trials <= 0 or successes <= 0:
        return 0.0
    if successes > trials:
        raise ValueError("more successes than trials")
    grid = 10_000
    log_combs = _log_combs(successes, trials)
    j = min(grid, max(0, int(_float_lower(successes, trials, alpha[0] / alpha[1], log_combs) * grid)))

    def within(j: int) -> bool:
        """_tail_within, from the float tail where it is clearly on one side of alpha (the exact sum grows with
        trials squared: 50,000 runs took 7.6 s), exactly where it is close."""
        tail, bound = _float_tail(log_combs, successes, trials, j / grid), alpha[0] / alpha[1]
        if tail <= bound * (1 - NEAR):
            return True
        if tail >= bound * (1 + NEAR):
            return False
        return _tail_within(successes, trials, j, grid, alpha)

    while j > 0 and not within(j):
        j -= 1
    while j < grid and within(j + 1):
        j += 1
    return j / 100


# How close the float tail may come to alpha, relatively, before the exact sum decides: the float tail is off
# by far less (its log terms hold about 15 digits; 1e-8 of a term at a million trials).
NEAR = 1e-6


def _tail_within(k: int, n: int, j: int, grid: int, alpha: tuple[int, int]) -> bool:
    """Exactly: P(X >= k | n, j/grid) <= alpha, as sum C(n,i) j^i q^(n-i) * den <= num * grid^n.

    The terms are made from the last one down, each from the one after by a small multiplication and an
    exact small division (term(i-1) = term(i) * i * q / ((n-i+1) * j)), so no big number meets another
    but in the sum: 16,000 runs took 56 s and 280 MB with a table of powers and a C(n,i) a term.
    """
    q = grid - j
    total = 0
    if j > 0:
        term = j**n  # i = n
        total = term
        for i in range(n, k, -1):  # term(i) -> term(i-1), down to term(k)
            term = term * (i * q) // ((n - i + 1) * j)
            total += term
    num, den = alpha
    return total * den <= num * grid**n


def _log_combs(k: int, n: int) -> list[float]:
    """log C(n, i) for i from k to n."""
    from math import lgamma

    base = lgamma(n + 1)
    return [base - lgamma(i + 1) - lgamma(n - i + 1) for i in range(k, n + 1)]


def _float_tail(log_combs: list[float], k: int, n: int, p: float) -> float:
    """P(X >= k | n, p) in floating point, from the log-space terms."""
    from math import exp, log

    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    lp, lq = log(p), log(1.0 - p)
    return sum(exp(c + i * lp + (n - i) * lq) for i, c in enumerate(log_combs, k))


def _float_lower(k: int, n: int, alpha: float, log_combs: list[float]) -> float:
    """The bound by bisection on a log-space binomial tail: close, not exact."""
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if _float_tail(log_combs, k, n, mid) <= alpha:
            lo = mid
        else:
            hi = mid
    return lo


# ---- 5. pass^k ---------------------------------------------------------------------------------


@dataclass
class PassK:
    name: str
    expected_tool: str
    min_rate: float
    max_tokens: int | None
    runs: list[Run]
    selected: list[bool] = field(default_factory=list)
    within: list[bool] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.selected = [any(member_matches(self.expected_tool, c) for c in r.calls) for r in self.runs]
        cap = self.max_tokens
        self.within = [cap is None or (r.tokens is not None and r.tokens <= cap) for r in self.runs]

    @property
    def n(self) -> int:
        return len(self.runs)

    @property
    def rate(self) -> int:
        return pct(sum(self.selected), self.n)

    @property
    def pass_k(self) -> int:
        return pct(sum(s and w for s, w in zip(self.selected, self.within, strict=True)), self.n)

    @property
    def tokens(self) -> list[int]:
        return [r.tokens for r in self.runs if r.tokens is not None]

    @property
    def rate_ok(self) -> bool:
        return sum(self.selected) >= Fraction(str(self.min_rate)) * self.n  # exact, no float division

    @property
    def passed(self) -> bool:
        return self.n > 0 and self.rate_ok and all(self.within)

    def lines(self) -> list[str]:
        tokens = self.tokens
        if tokens:
            spend = f"tokens {_num(_median(tokens))} median / {max(tokens)} max"
        else:
            spend = "tokens n/a"
        chosen = sum(self.selected)
        head = (
            f"tool-selection floor [{'PASS' if self.passed else 'FAIL'}] {self.name}: "
            f"selection {chosen}/{self.n} ({self.rate}%), pass^k {self.pass_k}%, {spend}"
        )
        out = [head]
        if self.passed:
            return out
        tool = f"`{self.expected_tool}`"
        if not self.n:  # nothing to rate: the floor fails, and says why
            out.append(f"FLOOR {self.name}: no runs recorded, so no run selected {tool}")
        elif not self.rate_ok:
            floor = _num(self.min_rate * 100)
            out.append(
                f"FLOOR {self.name}: selection rate {self.rate}% is below the {floor}% floor "
                f"({chosen} of {self.n} runs selected {tool})"
            )
        missed = [r for r, w in zip(self.runs, self.within, strict=True) if not w]
        over = [r.tokens for r in missed if r.tokens is not None]
        if over:
            budget = f"the {self.max_tokens}-token budget (worst run {max(over)} tokens)"
            out.append(f"FLOOR {self.name}: {len(over)} of {self.n} runs exceeded {budget}")
        if len(over) < len(missed):
            out.append(
                f"FLOOR {self.name}: {len(missed) - len(over)} of {self.n} runs recorded no token count, "
                f"so cannot be held to the {self.max_tokens}-token budget"
            )
        for run, s, w in zip(self.runs, self.selected, self.within, strict=True):
            if not w:
                spent = f"{run.tokens} tokens, over budget" if run.tokens is not None else "no token count recorded"
                out.append(f"run {run.number}: {spent}")
            if not s:
                called = ", ".join(dict.fromkeys(c.shown for c in run.calls)) or "nothing"
                out.append(f"run {run.number}: did not select {tool}, called {called}")
        return out

    def as_dict(self) -> dict[str, Any]:
        tokens = self.tokens
        return {
            "name": self.name,
            "expected_tool": self.expected_tool,
            "min_selection_rate": self.min_rate,
            "max_total_tokens": self.max_tokens,
            "runs": self.n,
            "selected": sum(self.selected),
            "selection_rate": self.rate,
            "pass_k": self.pass_k,
            "tokens_median": _median(tokens) if tokens else None,
            "tokens_max": max(tokens) if tokens else None,
            "passed": self.passed,
            "per_run": [
                {"run": r.number, "source": r.label, "selected": s, "within_budget": w, "tokens": r.tokens}
                for r, s, w in zip(self.runs, self.selected, self.within, strict=True)
            ],
        }


def _median(values: list[int]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return float(ordered[mid]) if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# ---- 6. token efficiency ---------------------------------------------------------------------


def grade(f1: int) -> str:
    for letter, floor in (("A", 90), ("B", 80), ("C", 70), ("D", 60)):
        if f1 >= floor:
            return letter
    return "F"


def token_efficiency(sel: Selection, surface_tokens: int | None, runs: list[Run]) -> dict[str, Any]:
    costs = [r.cost for r in runs if r.cost is not None]
    cost = round(sum(costs), 6) if costs else None
    correct = sel.tp
    per_token = round(surface_tokens / correct, 2) if surface_tokens is not None and correct else None
    per_cost = round(cost / correct, 6) if cost and correct else None
    return {
        "f1": sel.f1,
        "precision": sel.precision,
        "recall": sel.recall,
        "grade": grade(sel.f1),
        "tool_surface_tokens": surface_tokens,
        "correct_selections": correct,
        "cost": cost,
        "tokens_per_correct": per_token,
        "cost_per_correct": per_cost,
    }
