"""SCH-016: `$defs`/`definitions` entries of the input schema that nothing refers to."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from catalint.model import Tool
from catalint.registry import Hit, rule
from catalint.rules.schema.common import nodes, unused_entries, where_of
from catalint.schema_walk import Node

# The entry as a client sends it (tokens.py serialises the input schema the same way); default=str for the
# odd value a YAML file may hold.
_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, default=str).encode


@rule(
    "SCH-016",
    "unused-definition",
    "warning",
    "verbose",
    "A $defs or definitions entry of the input schema that no $ref reaches",
)
def unused_definition(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A `$defs` or `definitions` entry of the input schema
    that no `$ref` reaches from the root: nothing refers to it, or only other
    unused entries (itself included) do. What counts as used is what the SCH
    rules that skip unused definitions read (see Schemas in the README): a
    `$ref` to an entry or into it (`#/$defs/a/properties/b`) uses all of it,
    and a `$defs` nested in an entry is judged on its own. When a reference
    cannot be followed to a place in the schema (an `#anchor`, an `$id`,
    another document, a pointer that names nothing), or the walk stopped at its
    limits (64 levels, 20,000 subschemas), or a YAML alias puts one object in
    two places, every entry counts as used and nothing is reported. One
    finding per entry, at the entry, giving its size as compact JSON; entries
    nested in an unused entry go with it and are not reported again, and an
    unused entry `a` that holds a used one (only `#/$defs/a/$defs/b` is referred
    to) is not reported, since deleting it would break that reference; its
    other unused nested entries are. The `outputSchema` is not read.

    **Why.** JSON Schema 2020-12 (Core, section 8.2.4) reserves `$defs` as a
    place to inline schemas for reuse and says the keyword does not directly
    affect validation: an entry matters only through a reference to it. One
    that nothing refers to validates no argument and tells the model nothing
    about one, yet it is sent with the tool, in the model's context, on every
    call, and paid for in tokens. It is what comes of pasting one shared set of
    definitions into every tool: notion-mcp-server, one of the public catalogs
    catalint is tested on, sends the same nine with each of its 24 tools, and
    204 of those 216 entries are unused. OpenAPI linters report the same in
    `components` (Spectral's `oas3-unused-component`, a warning in its
    recommended rules).

    **Bad.** `{"type": "object", "properties": {"id": {"type": "string"}},
    "$defs": {"Filter": {"type": "object", "properties": {...}}}}`: no `$ref`
    names `Filter`.

    **Good.** The same schema without `$defs`, or with `"filter": {"$ref":
    "#/$defs/Filter"}` where the filter was meant to be an argument.

    **Fix.** Delete the entry, or refer to it where it was meant to apply. When
    the schemas are generated from one shared set of definitions, keep in each
    tool only those its arguments refer to.
    """
    unused = unused_entries(tool)
    if not unused:  # no entries, every one used, or use cannot be told: nearly every tool
        return
    gone = {id(node.schema) for node in unused}
    whole = gone - _holding_used(nodes(tool), gone)  # entries that can be deleted as they are
    for node in unused:
        if id(node.schema) in whole and not _inside(node, whole):
            size = _size(node.schema)
            sent = "it is" if size is None else f"its {size:,} characters of compact JSON are"
            yield Hit(
                node.pointer,
                f"{where_of(node)} is never used: no $ref reaches it, yet {sent} sent to the model with the tool "
                "on every call",
                f"delete it from {node.key}, or $ref it where it was meant to apply",
            )


def _holding_used(walked: list[Node], gone: set[int]) -> set[int]:
    """The ids of the entries that hold a used entry (a `$defs` nested in them that a `$ref` reaches)."""
    holding: set[int] = set()
    for node in walked:
        if node.role == "defs" and id(node.schema) not in gone:
            above = node.parent
            while above is not None:
                if above.role == "defs":
                    holding.add(id(above.schema))
                above = above.parent
    return holding


def _inside(node: Node, entries: set[int]) -> bool:
    """Whether one of entries holds node."""
    above = node.parent
    while above is not None:
        if id(above.schema) in entries:
            return True
        above = above.parent
    return False


def _size(schema: dict[str, Any]) -> int | None:
    """The entry's length as compact JSON, None when JSON cannot write it."""
    try:
        return len(_COMPACT(schema))
    except (TypeError, ValueError, RecursionError):
        return None
