"""CMP-ANT: what the Anthropic Messages API refuses (tool names, invalid schemas, property names, the root)."""

from __future__ import annotations

from collections.abc import Iterator

from catalint.metaschema import schema_errors
from catalint.model import Severity, Tool
from catalint.registry import Hit, rule
from catalint.rules.compat.shared import (
    name_pointer,
    name_problem,
    renamed,
    root_not_object,
)
from catalint.rules.schema import PROPERTY_NAME, input_schema_of, nodes
from catalint.sourcemap import join_pointer

ANTHROPIC_CHARS = "a-zA-Z0-9_-"
ANTHROPIC_NAME_MAX = 128  # what the API enforces; the tool-use docs still say 64
ANTHROPIC_NAME_DOCUMENTED = 64


@rule(
    "CMP-ANT-001",
    "anthropic-tool-name",
    "critical",
    "brittle",
    "Anthropic: a tool name falls outside ^[a-zA-Z0-9_-]{1,128}$ (64 documented)",
    default=False,
)
def anthropic_tool_name(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A tool name that is empty, longer than 128 characters, or
    uses anything but ASCII letters, digits, `_` and `-` (critical), and a name of
    65 to 128 characters (warning).

    **Why.** The Anthropic Messages API refuses the whole request with
    `tools.N.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`
    (Anthropic API reference, Errors, as the API answered in 2026, checked
    2026-11-22). The tool-use docs (Define tools) still give `{1,64}`, and a tool
    found through tool search is named in a `tool_reference` that allows 64, so
    names past 64 are a risk. MCP allows dots, which Anthropic does not.

    **Bad.** `"name": "issues.search"`

    **Good.** `"name": "issues_search"`

    **Fix.** Use letters, digits, `_` and `-` only, at most 64 characters.
    """
    name = tool.name
    problem = name_problem(name, ANTHROPIC_CHARS, ANTHROPIC_NAME_MAX)
    if problem:
        yield Hit(
            name_pointer(tool),
            f"Anthropic rejects tool name {name!r}: it {problem} (allowed: 1-128 of [a-zA-Z0-9_-])",
            renamed(name, ANTHROPIC_CHARS, ANTHROPIC_NAME_DOCUMENTED),
        )
    elif len(name) > ANTHROPIC_NAME_DOCUMENTED:
        yield Hit(
            name_pointer(tool),
            f"tool name {name!r} is {len(name)} characters; Anthropic documents at most "
            f"{ANTHROPIC_NAME_DOCUMENTED}, and tool search references allow no more",
            renamed(name, ANTHROPIC_CHARS, ANTHROPIC_NAME_DOCUMENTED),
            Severity.WARNING,
        )


@rule(
    "CMP-ANT-002",
    "anthropic-invalid-schema",
    "critical",
    "brittle",
    "Anthropic: input_schema is not valid JSON Schema 2020-12",
    default=False,
)
def anthropic_invalid_schema(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** An input schema that does not validate against the JSON
    Schema 2020-12 meta-schema, whatever its `$schema` says: a draft-07 tuple
    (`"items": [...]`), a draft-04 boolean `exclusiveMinimum`, `"type":
    "strin"`, a duplicated `required` entry. Each finding points at the keyword.

    **Why.** The Anthropic Messages API validates every tool's `input_schema` as
    JSON Schema draft 2020-12 and refuses the whole request otherwise
    (`input_schema: JSON schema is invalid. It must match JSON Schema draft
    2020-12`; Anthropic docs, Tool use: Define tools, checked 2026-11-22). A schema
    that declares draft-07 and is valid draft-07 (SCH-006 passes it) can still
    fail here: a draft-07 tuple is refused this way (hyperdxio/hyperdx#2925,
    2026-08), and a schema that declares a draft-07 `$schema` gets no exception
    (anthropics/claude-code#586, 2025-07). So, unlike SCH-006, the message never
    suggests declaring draft-07.

    **Bad.** `"$schema": "http://json-schema.org/draft-07/schema#", ... "point":
    {"type": "array", "items": [{"type": "number"}, {"type": "number"}]}`

    **Good.** `"point": {"type": "array", "prefixItems": [{"type": "number"},
    {"type": "number"}], "items": false}`

    **Fix.** Write the schema as 2020-12 (or in the subset where draft-07 and
    2020-12 agree).
    """
    found = input_schema_of(tool)
    if found is None:
        return
    schema, base = found
    for error in schema_errors(schema, "2020-12", declared=False):
        where = "/".join(str(p) for p in error.path) or "the root"
        yield Hit(
            join_pointer(base, *error.path),
            f"Anthropic rejects input_schema: not valid JSON Schema 2020-12 at {where}: {error.message}",
        )


@rule(
    "CMP-ANT-003",
    "anthropic-property-name",
    "critical",
    "brittle",
    "Anthropic: a property name falls outside ^[a-zA-Z0-9_.-]{1,64}$",
    default=False,
)
def anthropic_property_name(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A property name that is empty, longer than 64
    characters, or uses anything but ASCII letters, digits, `_`, `.` and `-`:
    `filter[id]`, `$top`, `@odata.type`, `user name`. Critical for the input
    schema's own properties, warning for nested ones.

    **Why.** The Anthropic Messages API refuses the whole request with
    `tools.N.custom.input_schema.properties: Property keys should match pattern
    '^[a-zA-Z0-9_.-]{1,64}$'` (Anthropic API reference, Errors, as the API
    answered in 2026, checked 2026-11-22). The reported refusals are of top-level
    keys; nested keys are reported as a warning that says the API may reject them.
    SCH-014 gives the same advice for every client.

    **Bad.** `"properties": {"filter[id]": {"type": "string"}}`

    **Good.** `"properties": {"filter.id": {"type": "string"}}`

    **Fix.** Rename the property to letters, digits, `_`, `.` or `-`, at most 64
    characters, and map it back in the server.
    """
    for node in nodes(tool):
        props = node.schema.get("properties")
        if not isinstance(props, dict) or node.condition:
            continue
        top = node.parent is None
        for name in props:
            if PROPERTY_NAME.fullmatch(name) is None:
                why = name_problem(name, "a-zA-Z0-9_.-", 64) or "is not allowed"
                yield Hit(
                    join_pointer(node.pointer, "properties", name),
                    f"Anthropic {'rejects' if top else 'may reject'} property name {name!r} ({node.label}): it {why} "
                    "(allowed: 1-64 of [a-zA-Z0-9_.-]"
                    + (")" if top else "; the reported refusals are of top-level names)"),
                    None,
                    None if top else Severity.WARNING,
                )


@rule(
    "CMP-ANT-004",
    "anthropic-root",
    "critical",
    "brittle",
    'Anthropic: input_schema\'s root is not type "object", or has anyOf/oneOf/allOf',
    default=False,
)
def anthropic_root(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** An input schema whose root `type` is missing or not
    `"object"`, and each `anyOf`, `oneOf` or `allOf` on the root.

    **Why.** The Anthropic Messages API requires `input_schema.type` to be
    `"object"` (`tools.N.custom.input_schema.type: Field required`) and refuses
    composition at the root (`input_schema does not support oneOf, allOf, or anyOf
    at the top level`), failing the whole request (Anthropic docs, Tool use: Define
    tools; Anthropic API reference, Errors; checked 2026-11-22). Nested
    composition is fine.

    **Bad.** `{"type": "object", "properties": {...}, "anyOf": [{"required":
    ["id"]}, {"required": ["url"]}]}`

    **Good.** the same without the root `anyOf`, and the check in the server

    **Fix.** Declare `"type": "object"` at the root and move any alternatives into
    a property.
    """
    found = input_schema_of(tool)
    if found is None:
        return
    schema, base = found
    hit = root_not_object(schema, base, "Anthropic rejects input_schema", 'the root type must be "object"')
    if hit is not None:
        yield hit
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            yield Hit(
                f"{base}/{key}",
                f"Anthropic rejects input_schema: {key} is not allowed at the top level",
                "move the alternatives into a property, or check them in the server",
            )
