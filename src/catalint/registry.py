"""The rule registry: every rule's metadata and its check, in one place.

`catalint rules`, `catalint rule CODE` and the README rule table are all
generated from what is registered here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from catalint.model import SMELLS, Severity, Tool


class Hit(NamedTuple):
    """What a check reports: the JSON pointer of the node and a message."""

    pointer: str
    message: str
    suggestion: str | None = None


Check = Callable[[Tool], Iterable[Hit]]


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    smell: str
    summary: str
    explanation: str
    check: Check

    @property
    def prefix(self) -> str:
        return self.code.split("-")[0]


_RULES: dict[str, Rule] = {}


def rule(code: str, name: str, severity: str, smell: str, summary: str) -> Callable[[Check], Check]:
    """Register a check function; its docstring is the rule's explanation."""

    def register(check: Check) -> Check:
        if code in _RULES:
            raise ValueError(f"duplicate rule code {code}")
        if smell not in SMELLS:
            raise ValueError(f"{code}: unknown smell {smell!r}")
        doc = inspect.cleandoc(check.__doc__ or "")
        if not doc:
            raise ValueError(f"{code}: a rule needs a docstring explanation")
        _RULES[code] = Rule(code, name, Severity.parse(severity), smell, summary, doc, check)
        return check

    return register


def all_rules() -> list[Rule]:
    import catalint.rules  # noqa: F401  (registers the built-in rules)

    return sorted(_RULES.values(), key=lambda r: r.code)


def get_rule(code_or_name: str) -> Rule | None:
    wanted = code_or_name.strip()
    for r in all_rules():
        if r.code.lower() == wanted.lower() or r.name == wanted:
            return r
    return None


def matches(selector: str, code: str) -> bool:
    """A selector is ALL, a rule prefix (DESC, DESC-00) or a full code."""
    selector = selector.upper()
    return selector == "ALL" or code == selector or code.startswith(selector)


def check_selector(selector: str) -> bool:
    return any(matches(selector, r.code) for r in all_rules())


def iter_rules(codes: Iterable[str]) -> Iterator[Rule]:
    wanted = set(codes)
    return (r for r in all_rules() if r.code in wanted)
