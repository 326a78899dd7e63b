"""SCH-003: properties that accept any value because nothing gives them a type."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from catalint.model import Tool
from catalint.registry import Hit, rule
from catalint.rules.schema.common import (
    root_of,
    through_branches,
    used_nodes,
)
from catalint.schema_walk import MAX_DEPTH, Node, resolve
from catalint.sourcemap import join_pointer

_TYPING = frozenset(("type", "enum", "const"))


def _supplies_type(
    schema: Any,
    root: dict[str, Any],
    resource: dict[str, Any],
    base: str = "",
    seen: set[int] | None = None,
    depth: int = 0,
) -> bool:
    """Whether a schema constrains the JSON type of its value, itself or through $ref/$dynamicRef,
    anyOf/oneOf/allOf or if/then/else."""
    if not isinstance(schema, dict):
        return schema is False
    if not _TYPING.isdisjoint(schema) or schema.get("not") in ({}, True):
        return True
    seen = seen if seen is not None else set()
    if id(schema) in seen or len(seen) > 256 or depth > MAX_DEPTH:
        return True  # a cycle, or too much (or too deep) to tell, as the schema walk stops: say nothing
    seen.add(id(schema))
    for key in _REFS:
        if key in schema:
            ref = "#" if key == "$recursiveRef" else schema[key]
            target = resolve(root, ref, resource, base)
            if target is None or _supplies_type(target, root, resource, base, seen, depth + 1):
                return True  # an unresolved reference is SCH-010's finding

    def typed(branch: Any) -> bool:
        return _supplies_type(branch, root, resource, base, seen, depth + 1)

    if "if" in schema and "else" in schema and typed(schema["else"]):
        # a value that passes `if` meets `then` too; one that fails meets `else`
        if typed(schema["if"]) or ("then" in schema and typed(schema["then"])):
            return True
    return through_branches(schema, typed, typed)


_REFS = ("$ref", "$dynamicRef", "$recursiveRef")


def _typed_by_parent(node: Node, name: str, root: dict[str, Any]) -> bool:
    """A branch property that only refines one an enclosing object already types (through any number of
    branches: `allOf: [{anyOf: [{properties: ...}]}]`)."""
    while node.role == "branch" and node.parent is not None:
        node = node.parent
        own = node.schema.get("properties")
        if isinstance(own, dict) and _supplies_type(own.get(name), root, node.resource, node.base):
            return True
    return False


@rule(
    "SCH-003",
    "untyped-property",
    "critical",
    "underspecified",
    "A property declares no type, enum or const, so any value is accepted",
)
def untyped_property(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A property (at any depth) whose schema has no `type`,
    `enum` or `const`, and no `$ref`, `$dynamicRef`, `anyOf`, `oneOf`, `allOf` or
    `if`/`then`/`else` that supplies one: every branch of an `anyOf`/`oneOf` must
    be typed, one `allOf` branch is enough, and `else` must be typed with `if` or
    `then`. `"prop": {}` and `"prop": true` are the usual forms. Not reported: a
    property inside a `not`/`if` test, a branch property that only narrows one
    an enclosing object already types (through any number of branches, as in
    `allOf: [{anyOf: [...]}]`), one whose description says it takes any
    value ("Any JSON value is accepted"), which is then a choice, not an omission,
    and one inside an unused definition (a `$defs`/`definitions` entry that no
    `$ref` reaches from the root), which takes no value at all.

    **Why.** The model has to guess whether to send a string, a number or an
    object, and the server accepts whatever comes. This rule is from the
    published tool-schema-lint checks; JSON Schema 2020-12 (Validation, section
    6.1) makes `type`, `enum` and `const` the keywords that restrict a value's kind.

    **Bad.** `"limit": {"description": "How many results"}`

    **Good.** `"limit": {"type": "integer", "minimum": 1, "maximum": 100,
    "description": "How many results"}`

    **Fix.** Give each property a `type` (or an `enum`/`const` of its values).
    """
    root = root_of(tool)
    for node in used_nodes(tool):
        props = node.schema.get("properties")
        if type(props) is not dict or node.condition:
            continue
        refines = node.role == "branch" and node.parent is not None
        for name, sub in props.items():
            if type(sub) is dict and not _TYPING.isdisjoint(sub):
                continue  # the common case: typed here
            if refines and _typed_by_parent(node, name, root):
                continue
            if sub is True or (
                isinstance(sub, dict)
                and not _supplies_type(sub, root, node.resource, node.base)
                and not _any_on_purpose(sub)
            ):
                yield Hit(
                    join_pointer(node.pointer, "properties", name),
                    f"property {name!r} declares no type, so any value is accepted",
                    'add "type" (or an "enum" of the allowed values)',
                )


_ANY_VALUE = re.compile(
    r"\bany\s+JSON\s+(?:value|type)s?\b|\b(?:accepts?|takes?|allows?)\s+any\s+(?:value|type)s?\b"
    r"|\bany\s+(?:value|type)s?\s+(?:is|are)\s+(?:accepted|allowed|valid)\b|\b(?:of|can\s+be)\s+any\s+type\b",
    re.IGNORECASE,
)


def _any_on_purpose(schema: dict[str, Any]) -> bool:
    """An untyped property whose description says it takes any value ("Any JSON value is accepted")."""
    text = schema.get("description")
    return isinstance(text, str) and _ANY_VALUE.search(text) is not None
