"""What the SCH rules share: the input schema's subschemas walked once per tool, its dialect, and small helpers."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from catalint.metaschema import (
    DEFAULT_DIALECT,
    Dialect,
    dialect_of,
)
from catalint.model import Tool
from catalint.schema_walk import Node, resolve, unused_definitions, walk, without_definitions
from catalint.sourcemap import join_pointer

PROPERTY_NAME = re.compile(r"[a-zA-Z0-9_.-]{1,64}")


def input_schema_of(tool: Tool) -> tuple[dict[str, Any], str] | None:
    schema = tool.input_schema
    return (schema, join_pointer(tool.pointer, "inputSchema")) if isinstance(schema, dict) else None


def nodes(tool: Tool) -> list[Node]:
    """Every subschema of the input schema, walked once per tool."""
    cached = tool.cache.get("schema_nodes")
    if cached is None:
        found = input_schema_of(tool)
        repeats: list[Node] = []
        cached = tool.cache["schema_nodes"] = walk(*found, repeats=repeats) if found else []
        tool.cache["schema_repeats"] = bool(repeats)
    return cached


def unused_entries(tool: Tool) -> list[Node]:
    """The `$defs`/`definitions` entries of the input schema that no reference reaches from the root, each
    one, nested ones too ([] when there is none, or when references the walk cannot follow may reach them;
    see unused_definitions)."""
    cached = tool.cache.get("schema_unused_entries")
    if cached is None:
        walked = nodes(tool)
        cached = unused_definitions(walked, root_of(tool), tool.cache["schema_repeats"])
        tool.cache["schema_unused_entries"] = cached
    return cached


def used_nodes(tool: Tool) -> list[Node]:
    """The subschemas some value can be validated against: every one but those inside an unused `$defs` or
    `definitions` entry (unused_entries). The rules about what validation does or what the agent fills in
    read these; those about the text the model reads, and about the schema's validity, read nodes()."""
    cached = tool.cache.get("schema_used_nodes")
    if cached is None:
        cached = tool.cache["schema_used_nodes"] = without_definitions(nodes(tool), unused_entries(tool))
    return cached


def referrers(tool: Tool) -> dict[int, list[Node]]:
    """The used subschemas (see used_nodes) that refer to each subschema with `$ref`, by the id of the one
    referred to: a reference in an unused definition never applies."""
    cached = tool.cache.get("schema_referrers")
    if cached is None:
        root = root_of(tool)
        cached = tool.cache["schema_referrers"] = {}
        for node in used_nodes(tool):
            ref = node.schema.get("$ref")
            if isinstance(ref, str):
                target = resolve(root, ref, node.resource, node.base)
                if isinstance(target, dict) and target is not node.schema:
                    cached.setdefault(id(target), []).append(node)
    return cached


def every_use(tool: Tool, node: Node, test: Callable[[Node], bool]) -> bool:
    """Whether node is a `$defs`/`definitions` entry that some used `$ref` names and every one (see
    referrers) passes test: what holds at every place the definition applies."""
    if node.role != "defs":
        return False
    users = referrers(tool).get(id(node.schema))
    return bool(users) and all(test(user) for user in users)


def dialect(tool: Tool) -> Dialect:
    cached = tool.cache.get("dialect")
    if cached is None:
        found = input_schema_of(tool)
        cached = tool.cache["dialect"] = dialect_of(found[0]) if found else Dialect(DEFAULT_DIALECT)
    return cached


def reference_keywords(dialect_name: str | None) -> tuple[str, ...]:
    """The keywords that must resolve for a schema of the dialect to be built: `$ref`, and `$dynamicRef` in
    2020-12 (an unknown keyword before it, which validators ignore)."""
    return ("$ref", "$dynamicRef") if dialect_name == "2020-12" else ("$ref",)


def root_of(tool: Tool) -> dict[str, Any]:
    schema = tool.input_schema
    return schema if isinstance(schema, dict) else {}


def where_of(node: Node) -> str:
    """How a message names a subschema: 'the input schema', "property 'city'", ..."""
    return node.label


def through_branches(schema: dict[str, Any], every: Callable[[Any], bool], some: Callable[[Any], bool]) -> bool:
    """What the applicators make true: every branch of a (non-empty) anyOf or oneOf passes `every`, or
    one allOf branch passes `some`."""
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and branches and all(every(b) for b in branches):
            return True
    branches = schema.get("allOf")
    return isinstance(branches, list) and any(some(b) for b in branches)


# Keywords that say something about a value without constraining it.
ANNOTATIONS = frozenset(
    ("title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly")
)


# Dialects without unevaluatedProperties (it came with 2019-09): there it is an unknown keyword.
BEFORE_2019 = frozenset({"draft-07", "draft-06", "draft-04"})


def is_map(schema: dict[str, Any], dialect: str | None = None) -> bool:
    """additionalProperties (or, from 2019-09 on, unevaluatedProperties) is a real schema: a deliberate map
    of typed values. One of annotations only (`{"description": "..."}`) takes any value, as `true` does."""
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict) and not ANNOTATIONS.issuperset(extra):
        return True
    extra = schema.get("unevaluatedProperties")
    return isinstance(extra, dict) and not ANNOTATIONS.issuperset(extra) and dialect not in BEFORE_2019
