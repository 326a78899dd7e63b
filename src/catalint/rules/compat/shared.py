"""What the CMP rule families share: the subschemas a client reads, tool-name checks, small wording helpers."""

from __future__ import annotations

import json
import re
from typing import Any

from catalint.model import Tool
from catalint.registry import Hit
from catalint.rules.schema import nodes
from catalint.schema_walk import Node, types_of
from catalint.sourcemap import join_pointer


def reachable(tool: Tool, through: frozenset[str]) -> list[Node]:
    """The subschemas a client reads: those reached from the root through `through` keywords only.

    Below a keyword the client rejects there is nothing more to report: the
    keyword itself is the finding.
    """
    key = "reach:" + ",".join(sorted(through))
    cached = tool.cache.get(key)
    if cached is None:
        kept: set[int] = set()
        cached = tool.cache[key] = []
        for node in nodes(tool):
            if node.parent is None or (id(node.parent) in kept and node.key in through):
                kept.add(id(node))
                cached.append(node)
    return cached


def name_problem(name: str, chars: str, limit: int) -> str | None:
    """Why a tool name breaks `[chars]{1,limit}`, or None."""
    if not name:
        return "is empty"
    allowed = re.compile(f"[{chars}]")
    bad = list(dict.fromkeys(c for c in name if allowed.fullmatch(c) is None))
    if bad:
        return "contains " + ", ".join(repr(c) for c in bad[:5])
    return f"is {len(name)} characters, over {limit}" if len(name) > limit else None


def renamed(name: str, chars: str, limit: int) -> str:
    return f"rename it, e.g. {re.sub(f'[^{chars}]', '_', name)[:limit] or 'tool'!r}"


def array_only(schema: dict[str, Any]) -> bool:
    """Typed as an array (or an array or null): a list of several other types is left alone."""
    return types_of(schema) - {"null"} == {"array"}


def name_pointer(tool: Tool) -> str:
    return join_pointer(tool.pointer, "name")


def root_type(schema: dict[str, Any]) -> str:
    return "has no type" if "type" not in schema else f"has type {json.dumps(schema['type'])}"


def type_pointer(schema: dict[str, Any], base: str) -> str:
    return base + "/type" if "type" in schema else base


def root_not_object(schema: dict[str, Any], base: str, rejects: str, must: str) -> Hit | None:
    """The finding when the root schema is not of type object, in one client's words, or None."""
    if schema.get("type") == "object":
        return None
    return Hit(
        type_pointer(schema, base), f"{rejects}: it {root_type(schema)}; {must}", 'set "type": "object" at the root'
    )
