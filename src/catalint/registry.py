"""The rule registry: every rule's metadata and its check, in one place.

`catalint rules`, `catalint rule CODE` and the README rule table are all
generated from what is registered here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from catalint.model import SMELLS, Severity, Tool


class Hit(NamedTuple):
    """What a check reports: the JSON pointer of the node and a message.

    A rule may lower or raise one hit's severity below its default (SCH-013
    reports a non-object output root as a warning); a configured severity
    override still wins.
    """

    pointer: str
    message: str
    suggestion: str | None = None
    severity: Severity | None = None


class CatalogHit(NamedTuple):
    """A catalog rule's finding, attributed to one tool."""

    tool: Tool
    hit: Hit


Check = Callable[[Tool], Iterable[Hit]]
CatalogCheck = Callable[[list[Tool]], Iterable[CatalogHit]]


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    smell: str
    summary: str
    explanation: str
    check: Check | CatalogCheck
    scope: str = "tool"  # "tool": check(tool); "catalog": check(all tools of a file)
    default: bool = True  # on without being selected; off ones need select/extend-select
    siblings: bool = False  # reads the other tools of the file (option "catalog_tools"), not only its own


_RULES: dict[str, Rule] = {}
_SORTED: list[Rule] = []  # all_rules() cache, cleared on registration


def rule(
    code: str,
    name: str,
    severity: str,
    smell: str,
    summary: str,
    scope: str = "tool",
    default: bool = True,
    siblings: bool = False,
) -> Callable[[Any], Any]:
    """Register a check function; its docstring is the rule's explanation. A tool rule that reads
    option("catalog_tools") must say siblings=True: `catalint diff` copies the findings of the
    other tool rules from a tool that has not changed (see twins.py)."""
    if scope not in ("tool", "catalog"):
        raise ValueError(f"{code}: unknown scope {scope!r}")

    def register(check: Any) -> Any:
        if code in _RULES:
            raise ValueError(f"duplicate rule code {code}")
        if smell not in SMELLS:
            raise ValueError(f"{code}: unknown smell {smell!r}")
        doc = inspect.cleandoc(check.__doc__ or "")
        if not doc:
            raise ValueError(f"{code}: a rule needs a docstring explanation")
        _RULES[code] = Rule(code, name, Severity.parse(severity), smell, summary, doc, check, scope, default, siblings)
        _SORTED.clear()
        return check

    return register


def _registered() -> list[Rule]:
    if not _SORTED:
        import catalint.rules  # noqa: F401  (registers the built-in rules)

        _SORTED.extend(sorted(_RULES.values(), key=lambda r: r.code))
    return _SORTED


def all_rules() -> list[Rule]:
    return list(_registered())


def get_rule(code_or_name: str) -> Rule | None:
    found = _RULES.get(code_or_name) if _SORTED else None  # the common case: an exact code
    if found is not None:
        return found
    wanted = code_or_name.strip()
    _registered()
    found = _RULES.get(wanted.upper())
    if found is None:
        found = next((r for r in _RULES.values() if r.name == wanted), None)
    return found


def matches(selector: str, code: str) -> bool:
    """A selector is ALL, a rule prefix (DESC, DESC-00) or a full code.

    ALL leaves out the client-profile rules (CMP): they contradict each other by
    design (OpenAI strict mode wants type lists that Gemini refuses), so only
    --target, or selecting CMP by name, turns them on.
    """
    selector = selector.upper()
    if selector == "ALL":
        return not code.startswith("CMP-")
    return code == selector or code.startswith(selector)


def check_selector(selector: str) -> bool:
    return any(matches(selector, r.code) for r in all_rules())


# Settings a rule may read (token budgets), set by the engine for the file being linted.
_OPTIONS: dict[str, Any] = {}


def set_options(options: dict[str, Any]) -> None:
    _OPTIONS.clear()
    _OPTIONS.update(options)


def option(name: str, default: Any = None) -> Any:
    return _OPTIONS.get(name, default)
