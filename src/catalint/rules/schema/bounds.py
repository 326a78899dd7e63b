"""SCH-004: strings and arrays with no bound on their size."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from catalint.model import Tool
from catalint.registry import Hit, rule
from catalint.rules.schema.common import (
    every_use,
    root_of,
    through_branches,
    used_nodes,
    where_of,
)
from catalint.schema_walk import Node, resolve, types_of

# String formats whose values have a bounded length, so SCH-004 does not ask for maxLength.
BOUNDED_FORMATS = frozenset({"date", "time", "date-time", "uuid", "ipv4", "ipv6", "duration"})


def _unbounded(node: Node, root: dict[str, Any]) -> str | None:
    s = node.schema
    declared = s.get("type")
    if declared is None or node.condition or "enum" in s or "const" in s:
        return None
    kinds = (declared,) if isinstance(declared, str) else types_of(s)
    if "string" in kinds and not _bounded_string(s) and not _bounded_around(node, _bounded_string, root):
        return None if _inside_bounded_content(node) else "string"
    if "array" in kinds and not _bounded_array(s) and not _bounded_around(node, _bounded_array, root):
        return None if _inside_bounded_content(node) else "array"
    return None


def _inside_bounded_content(node: Node) -> bool:
    """Whether node describes the decoded content of a string with a maxLength (`contentSchema`, as Pydantic
    writes `Json[list[str]]`): the string's bound bounds what it decodes to."""
    at: Node | None = node
    while at is not None:
        if at.key == "contentSchema":
            return at.parent is not None and "maxLength" in at.parent.schema
        at = at.parent
    return False


def _bounded_array(s: dict[str, Any]) -> bool:
    return "maxItems" in s or _closed_tuple(s)


def _bound(schema: Any, bounds: Callable[[dict[str, Any]], bool], root: dict[str, Any], node: Node, depth: int) -> bool:
    """Whether schema bounds the value: itself, what its $ref names, or its branches (to a depth of 8).

    A module-level function, not a closure: a closure that calls itself is a reference cycle, which the
    console script (its cycle collector off) would keep for every node checked."""
    if not isinstance(schema, dict) or depth > 8:  # deeper, or a $ref cycle: no bound found
        return False
    if bounds(schema):
        return True
    if "$ref" in schema and _bound(
        resolve(root, schema["$ref"], node.resource, node.base), bounds, root, node, depth + 1
    ):
        return True
    return through_branches(
        schema,
        lambda b: _bound(b, bounds, root, node, depth + 1) or _not_kind(b, bounds),
        lambda b: _bound(b, bounds, root, node, depth + 1),
    )


def _bounded_around(node: Node, bounds: Callable[[dict[str, Any]], bool], root: dict[str, Any]) -> bool:
    """A bound that applies to the same value from elsewhere: what the node's $ref names, its branches
    (every anyOf/oneOf branch, or one allOf branch), an allOf sibling, an object it is a branch of
    (`{"maxLength": 64, "anyOf": [{"type": "string"}, {"type": "null"}]}`), or, for a property of a
    branch, the same property of an enclosing object, which it refines."""
    s = node.schema
    parent = node.parent
    if (
        (parent is None or (parent.role != "branch" and node.role != "branch"))
        and "$ref" not in s
        and _BRANCHES.isdisjoint(s)
    ):
        return False  # nothing around it applies to the same value: the common case
    if (
        "$ref" in s and _bound(resolve(root, s["$ref"], node.resource, node.base), bounds, root, node, 0)
    ) or through_branches(
        s,
        lambda b: _bound(b, bounds, root, node, 0) or _not_kind(b, bounds),
        lambda b: _bound(b, bounds, root, node, 0),
    ):
        return True
    name = node.name if node.role == "property" else None
    at = node.parent if name is not None else node
    while at is not None and at.role == "branch" and at.parent is not None:
        around = at.parent.schema
        if name is not None:
            props = around.get("properties")
            if isinstance(props, dict) and _bound(props.get(name), bounds, root, node, 0):
                return True
        else:
            if bounds(around):
                return True
            siblings = around.get("allOf") if at.key == "allOf" else None
            if isinstance(siblings, list) and any(
                b is not at.schema and _bound(b, bounds, root, node, 0) for b in siblings
            ):
                return True
        at = at.parent
    return False


_BRANCHES = frozenset(("allOf", "anyOf", "oneOf"))


def _bounded_by_uses(node: Node, kind: str, tool: Tool, root: dict[str, Any]) -> bool:
    """A definition (or a branch of one) that every `$ref` to it bounds where it applies it:
    `{"$ref": "#/$defs/Handle", "maxLength": 32}`. Told once per definition and kind."""
    at = node
    while at.role == "branch" and at.parent is not None:  # a branch takes the same value as what holds it
        at = at.parent
    if at.role != "defs":
        return False  # the common case
    key = ("sch004_uses", id(at.schema), kind)
    known = tool.cache.get(key)
    if known is None:
        bounds = _bounded_string if kind == "string" else _bounded_array
        known = tool.cache[key] = every_use(tool, at, lambda user: _bounded_use(user, bounds, root))
    return known


def _bounded_use(user: Node, bounds: Callable[[dict[str, Any]], bool], root: dict[str, Any]) -> bool:
    return bounds(user.schema) or _bounded_around(user, bounds, root)


def _not_kind(branch: Any, bounds: Callable[[dict[str, Any]], bool]) -> bool:
    """A branch that admits no value of the kind bounds is about (an anyOf's null beside the string)."""
    if not isinstance(branch, dict):
        return False
    kinds = types_of(branch)
    return bool(kinds) and ("string" if bounds is _bounded_string else "array") not in kinds


def _bounded_string(s: dict[str, Any]) -> bool:
    """maxLength, enum, const, a fixed-size format, or a pattern that caps the length."""
    fmt = s.get("format")
    if "maxLength" in s or "enum" in s or "const" in s or (isinstance(fmt, str) and fmt in BOUNDED_FORMATS):
        return True
    pattern = s.get("pattern")
    return isinstance(pattern, str) and bounded_pattern(pattern)


_OPEN_REPEAT = re.compile(r"\{\d*,\}")
_BACKREFERENCE = re.compile(r"(?<!\\)(?:\\\\)*\\(?:[1-9]|k<)")


def bounded_pattern(pattern: str) -> bool:
    """Whether every string a pattern accepts is of bounded length: each top-level alternative anchored at
    both ends (`^...$`, or `^ab$|^cd$`), and no `*`, `+` or `{n,}` outside a character class or a lookaround
    (which tests the string without taking any of it). `^[A-Z]{2}-\\d{4}$`, `^(ab|cd)$` and
    `^(?=.*\\d)\\w{8,64}$` are bounded; `^\\d+$` and `^a|b$` (an unanchored end on each side) are not."""
    if len(pattern) < 2 or pattern[0] != "^":
        return False
    depth, in_class, i = 0, False, 0
    looking: list[int] = []  # depths of the lookaround groups that are open
    open_in_lookaround = False  # a *, + or {n,} inside one
    starts = [0]  # where each top-level alternative starts
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if pattern[i + 1 : i + 2] == "]":  # "[]...]": a ] first in a class is a literal
                i += 1
        elif c == "(":
            depth += 1
            if pattern.startswith(("(?=", "(?!", "(?<=", "(?<!"), i):
                looking.append(depth)
        elif c == ")":
            if looking and looking[-1] == depth:
                looking.pop()
            depth -= 1
        elif c == "|" and depth == 0:
            starts.append(i + 1)
        elif c in "*+" or (c == "{" and _OPEN_REPEAT.match(pattern, i)):
            if not looking:
                return False
            open_in_lookaround = True
        i += 1
    if open_in_lookaround and _BACKREFERENCE.search(pattern):
        return False  # ^(?=(a+))\1$: a group caught inside a lookaround, then matched for real
    ends = [at - 1 for at in starts[1:]] + [len(pattern)]
    return all(_anchored(pattern, a, b) for a, b in zip(starts, ends, strict=True))


def _anchored(pattern: str, start: int, end: int) -> bool:
    """pattern[start:end] begins with ^ and ends with a $ that is not escaped."""
    part = pattern[start:end]
    if len(part) < 2 or part[0] != "^" or part[-1] != "$":
        return False
    return (len(part) - 1 - len(part[:-1].rstrip("\\"))) % 2 == 0


def _closed_tuple(s: dict[str, Any]) -> bool:
    """A tuple that admits no items past its listed ones is bounded already (`items: false` alone admits only [])."""
    if s.get("items") is False:
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
    `duration`) or a `pattern` that caps the length (each top-level
    alternative anchored `^...$`, no `*`, `+` or `{n,}` outside a class or a
    lookaround: `^[A-Z]{2}-\\d{4}$`, `^ab$|^cd$`) are bounded
    already and pass; so does an array with `items: false` (a closed tuple, or
    only `[]`; draft-07 `additionalItems: false` too). The bound counts wherever
    it applies to the same value: on the schema itself, in what its `$ref`
    names, in every `anyOf`/`oneOf` branch or one `allOf` branch, in an `allOf`
    sibling, on a schema the string is a branch of (`{"maxLength": 64, "anyOf":
    [{"type": "string"}, {"type": "null"}]}`), for a property of a branch,
    on the same property of an enclosing object, which it only refines, and,
    for a `$defs`/`definitions` entry (or a branch of one), at every `$ref`
    that applies it (`{"$ref": "#/$defs/Handle", "maxLength": 32}` wherever
    `Handle` is used; one use without a bound, and the entry is reported). A
    `$defs`/`definitions` entry counts only when used: one that no `$ref`
    reaches from the root takes no value, so nothing inside it is reported.
    Nor is the decoded content (`contentSchema`) of a string with a
    `maxLength`, as Pydantic writes `Json[list[str]]`: the string bounds it.

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
    root = root_of(tool)
    for node in used_nodes(tool):
        declared = node.schema.get("type")
        if declared is None or (type(declared) is str and declared != "string" and declared != "array"):
            continue  # no type, or one with no size to bound (the common case): _unbounded says None
        kind = _unbounded(node, root)
        if kind is not None and _bounded_by_uses(node, kind, tool, root):
            continue
        if kind == "string":
            yield Hit(node.pointer, f"{where_of(node)} is a string with no maxLength", 'add "maxLength"')
        elif kind == "array":
            yield Hit(node.pointer, f"{where_of(node)} is an array with no maxItems", 'add "maxItems"')
