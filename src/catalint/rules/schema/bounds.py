"""SCH-004: strings and arrays with no bound on their size."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from catalint.model import Tool
from catalint.registry import Hit, rule
from catalint.rules.schema.common import (
    nodes,
    through_branches,
    where_of,
)
from catalint.schema_walk import Node, types_of

# String formats whose values have a bounded length, so SCH-004 does not ask for maxLength.
BOUNDED_FORMATS = frozenset({"date", "time", "date-time", "uuid", "ipv4", "ipv6", "duration"})


def _unbounded(node: Node) -> str | None:
    s = node.schema
    declared = s.get("type")
    if declared is None or node.condition or "enum" in s or "const" in s:
        return None
    kinds = (declared,) if isinstance(declared, str) else types_of(s)
    if "string" in kinds and not _bounded_string(s) and not _branches_bound(s):
        return "string"
    if "array" in kinds and "maxItems" not in s and not _closed_tuple(s):
        return "array"
    return None


def _bounded_string(s: dict[str, Any]) -> bool:
    """maxLength, enum, const, a fixed-size format, or a pattern that caps the length."""
    fmt = s.get("format")
    if "maxLength" in s or "enum" in s or "const" in s or (isinstance(fmt, str) and fmt in BOUNDED_FORMATS):
        return True
    pattern = s.get("pattern")
    return isinstance(pattern, str) and bounded_pattern(pattern)


def _branches_bound(s: dict[str, Any]) -> bool:
    """Every anyOf/oneOf branch bounds the string (`anyOf: [{"format": "ipv4"}, {"format": "ipv6"}]`),
    or some allOf branch does."""
    return through_branches(
        s,
        lambda b: isinstance(b, dict) and (_bounded_string(b) or _not_string(b)),
        lambda b: isinstance(b, dict) and _bounded_string(b),
    )


def _not_string(branch: dict[str, Any]) -> bool:
    kinds = types_of(branch)
    return bool(kinds) and "string" not in kinds


_OPEN_REPEAT = re.compile(r"\{\d*,\}")


def bounded_pattern(pattern: str) -> bool:
    """Whether every string a pattern accepts is of bounded length: anchored at both ends (`^...$`),
    no top-level `|` (which would free each side of one anchor), and no `*`, `+` or `{n,}` outside
    a character class. `^[A-Z]{2}-\\d{4}$` is bounded; `^\\d+$` and `^a|b$` are not."""
    if len(pattern) < 2 or not pattern.startswith("^") or not pattern.endswith("$"):
        return False
    body = pattern[1:-1]
    if (len(body) - len(body.rstrip("\\"))) % 2:  # the final $ is escaped: a literal dollar
        return False
    depth, in_class, i = 0, False, 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if body[i + 1 : i + 2] == "]":  # "[]...]": a ] first in a class is a literal
                i += 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c in "*+" or (c == "|" and depth == 0):
            return False
        elif c == "{" and _OPEN_REPEAT.match(body, i):
            return False
        i += 1
    return True


def _closed_tuple(s: dict[str, Any]) -> bool:
    """A tuple that admits no items past its listed ones is bounded already."""
    if isinstance(s.get("prefixItems"), list) and s.get("items") is False:
        return True
    return isinstance(s.get("items"), list) and s.get("additionalItems") is False


@rule(
    "SCH-004",
    "unbounded-input",
    "warning",
    "brittle",
    "A string has no maxLength or an array no maxItems",
)
def unbounded_input(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A string schema without `maxLength` or an array schema
    without `maxItems`, anywhere in the input schema (arguments, array items,
    nested objects, `$defs`, branches). Strings limited by `enum`, `const`, a
    fixed-size `format` (`date`, `date-time`, `time`, `uuid`, `ipv4`, `ipv6`,
    `duration`) or a `pattern` that caps the length (anchored `^...$`, no
    top-level `|`, no `*`, `+` or `{n,}`: `^[A-Z]{2}-\\d{4}$`) are bounded
    already and pass, also when every `anyOf`/`oneOf` branch bounds them; so does
    a tuple closed with `items: false` (or draft-07 `additionalItems: false`).

    **Why.** An unbounded input lets a model (or a prompt injection steering it)
    send megabytes into one argument; the server pays for it and the context
    window fills up. This rule is from the published tool-schema-lint checks; the
    OWASP API Security Top 10 (2023, API4: Unrestricted Resource Consumption)
    names missing size limits as the cause.

    **Bad.** `"query": {"type": "string"}`

    **Good.** `"query": {"type": "string", "maxLength": 500}`

    **Fix.** Add the largest size the tool really handles: `maxLength` on
    strings, `maxItems` on arrays.
    """
    for node in nodes(tool):
        declared = node.schema.get("type")
        if declared is None or (type(declared) is str and declared != "string" and declared != "array"):
            continue  # no type, or one with no size to bound (the common case): _unbounded says None
        kind = _unbounded(node)
        if kind == "string":
            yield Hit(node.pointer, f"{where_of(node)} is a string with no maxLength", 'add "maxLength"')
        elif kind == "array":
            yield Hit(node.pointer, f"{where_of(node)} is an array with no maxItems", 'add "maxItems"')
