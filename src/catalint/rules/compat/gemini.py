"""CMP-GEM: what Gemini refuses in a schema sent as `parameters`.

Function names, keywords outside its Schema object, type lists, enums that are not strings or not on a string,
arrays without items, objects without properties, and object keywords on a schema that is not an object.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from catalint.model import Tool
from catalint.registry import Hit, rule
from catalint.rules.compat.shared import (
    array_only,
    name_pointer,
    name_problem,
    reachable,
    renamed,
    root_type,
)
from catalint.schema_walk import Node, types_of
from catalint.sourcemap import join_pointer
from catalint.text import LazyRegex

GEMINI_NAME = LazyRegex(r"[a-zA-Z_][a-zA-Z0-9_.-]{0,63}")
GEMINI_CHARS = "a-zA-Z0-9_.-"
GEMINI_WALK = frozenset({"properties", "items", "anyOf"})
# The fields of the Gemini API's Schema object; the request fails on any other key.
GEMINI_FIELDS = frozenset(
    """
    type format title description nullable enum maxItems minItems properties required minProperties maxProperties
    minLength maxLength pattern example anyOf propertyOrdering default items minimum maximum
    """.split()
)
_GEMINI_HINTS = {
    "additionalProperties": "remove it (Gemini objects are closed to the model anyway)",
    "const": 'use "enum": [value]',
    "oneOf": "use anyOf",
    "exclusiveMinimum": "use minimum",
    "exclusiveMaximum": "use maximum",
    "examples": 'use "example" (one value), or the description',
    "$ref": "inline the referenced schema",
    "$defs": "inline the definitions where they are used",
    "$schema": "remove it",
}


def _gemini_nodes(tool: Tool) -> list[Node]:
    return reachable(tool, GEMINI_WALK)


@rule(
    "CMP-GEM-001",
    "gemini-function-name",
    "critical",
    "brittle",
    "Gemini: a function name does not start with a letter or _, or falls outside [a-zA-Z0-9_.-]{1,64}",
    default=False,
)
def gemini_function_name(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A tool name that is empty, longer than 64 characters,
    starts with anything but a letter or `_`, or uses anything but ASCII letters,
    digits, `_`, `.` and `-`.

    **Why.** A Gemini function name "must start with a letter or an underscore"
    and "be a-z, A-Z, 0-9, or contain underscores, dots and dashes, with a maximum
    length of 64" (Vertex AI API reference, FunctionDeclaration; the Gemini API
    reference, FunctionDeclaration, also allows colons; checked 2026-11-22): this
    rule checks what both accept. MCP allows 128 characters and a leading digit or
    dash.

    **Bad.** `"name": "2fa-verify"`, `"name": "repo/search"`

    **Good.** `"name": "verify_2fa"`, `"name": "repo_search"`

    **Fix.** Start with a letter or `_`; use letters, digits, `_`, `.` and `-`; at
    most 64 characters.
    """
    name = tool.name
    if GEMINI_NAME.fullmatch(name) is not None:
        return
    problem = name_problem(name, GEMINI_CHARS, 64) or f"starts with {name[0]!r}, not a letter or _"
    yield Hit(
        name_pointer(tool),
        f"Gemini rejects function name {name!r}: it {problem} (allowed: 1-64 of [a-zA-Z0-9_.-], first a letter or _)",
        renamed(name if name[:1].isalpha() or name[:1] == "_" else "_" + name, GEMINI_CHARS, 64),
    )


@rule(
    "CMP-GEM-002",
    "gemini-unsupported-keyword",
    "critical",
    "brittle",
    "Gemini: a schema key that the OpenAPI-subset Schema object does not have",
    default=False,
)
def gemini_unsupported_keyword(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A key in the input schema or a subschema that Gemini's
    Schema object does not have, once per occurrence: `additionalProperties`,
    `$schema`, `$ref`, `$defs`, `const`, `oneOf`, `allOf`, `not`,
    `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `patternProperties`,
    `propertyNames`, `examples`, `x-...` extensions and any other. The fields
    that exist are `type`, `format`, `title`, `description`, `nullable`, `enum`,
    `items`, `minItems`, `maxItems`, `properties`, `required`, `minProperties`,
    `maxProperties`, `minLength`, `maxLength`, `pattern`, `example`, `anyOf`,
    `propertyOrdering`, `default`, `minimum` and `maximum`. Nothing below an
    unknown key is checked.

    **Why.** A client that sends the MCP input schema as a function declaration's
    `parameters` sends it as Gemini's Schema object, "a select subset of an
    OpenAPI 3.0 schema object" (Gemini API reference, Schema, checked 2026-11-22);
    any other key fails the whole request: `Invalid JSON payload received. Unknown
    name "additionalProperties" at 'tools[0].function_declarations[3].parameters':
    Cannot find field.` These are valid JSON Schema, so MCP servers use them
    freely. Clients that send `parametersJsonSchema` instead are not affected.

    **Bad.** `{"type": "object", "properties": {...}, "additionalProperties":
    false}`

    **Good.** `{"type": "object", "properties": {...}}`

    **Fix.** Keep the input schema inside the subset (inline `$ref`s, `enum`
    instead of `const`, `anyOf` instead of `oneOf`, no `additionalProperties`), or
    rely on clients that convert it.
    """
    for node in _gemini_nodes(tool):
        for key in node.schema:
            if key not in GEMINI_FIELDS:
                yield Hit(
                    join_pointer(node.pointer, key),
                    f"Gemini rejects {key!r} ({node.label}): its Schema object has no such field",
                    _GEMINI_HINTS.get(key, "remove it and state the constraint in the description"),
                )


@rule(
    "CMP-GEM-003",
    "gemini-type-array",
    "critical",
    "brittle",
    'Gemini: a type is a list ("type": ["string", "null"])',
    default=False,
)
def gemini_type_array(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A `type` written as a list, usually `["string",
    "null"]` for an optional value.

    **Why.** Gemini's Schema `type` is a single value (Gemini API reference,
    Schema, checked 2026-11-22); a list fails the whole request with `Unknown name
    "type" at '...parameters.properties[1].value': Proto field is not repeating,
    cannot start list.` JSON Schema allows the list, and OpenAI strict mode asks
    for it, so one schema cannot please both as sent.

    **Bad.** `"units": {"type": ["string", "null"]}`

    **Good.** `"units": {"type": "string", "nullable": true}`, or `"anyOf":
    [{"type": "string"}, {"type": "null"}]`

    **Fix.** Use one type, with `nullable: true` for null, or an `anyOf` of types.
    """
    for node in _gemini_nodes(tool):
        declared = node.schema.get("type")
        if isinstance(declared, list):
            kinds = [k for k in declared if k != "null"]
            hint = f'"type": {json.dumps(kinds[0] if kinds else "null")}' + (
                ', "nullable": true' if "null" in declared else ""
            )
            yield Hit(
                node.pointer + "/type",
                f"Gemini rejects {node.label}: type {json.dumps(declared)} is a list, and Gemini takes one type",
                f"write {hint}" + (" (or an anyOf of types)" if len(kinds) > 1 else ""),
            )


@rule(
    "CMP-GEM-004",
    "gemini-non-string-enum",
    "critical",
    "brittle",
    'Gemini: an enum has values that are not strings, or is not on a "string" schema',
    default=False,
)
def gemini_non_string_enum(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** An `enum` with a number, boolean, null, array or object
    among its values (`"enum": [1, 2, 3]`, `"enum": [true]`), and an `enum` on a
    schema whose `type` is not `"string"` or is missing (`{"type": "integer",
    "enum": ["1", "2"]}`, `{"enum": ["asc", "desc"]}`). One finding per `enum`. A
    `type` list is left to CMP-GEM-003.

    **Why.** Gemini's Schema `enum` is a list of strings for `Type.STRING` (Gemini
    API reference, Schema, checked 2026-11-22). Any other value fails the whole
    request with `Invalid value at '...enum[0]' (TYPE_STRING), 1`, and an enum on
    any other type, or on no type, with `...enum: only allowed for STRING type`:
    diegosouzapw/OmniRoute#760 (2026-03, an integer enum from an MCP tool),
    decolua/9router#380 (2026-03, an enum without a type),
    sbroenne/mcp-server-excel#607 (2026-04). JSON Schema allows any values on any
    type, and zod turns `z.literal(true)` into `enum: [true]`.

    **Bad.** `"level": {"type": "integer", "enum": [1, 2, 3]}`, `"order":
    {"enum": ["asc", "desc"]}`

    **Good.** `"level": {"type": "integer", "minimum": 1, "maximum": 3}`, or
    `"order": {"type": "string", "enum": ["asc", "desc"]}`

    **Fix.** Give an enum `"type": "string"` and string values; use bounds for
    numbers and a boolean type for `true`/`false`.
    """
    for node in _gemini_nodes(tool):
        enum = node.schema.get("enum")
        if not isinstance(enum, list):
            continue
        declared = node.schema.get("type")
        if declared is None or (isinstance(declared, str) and declared != "string"):
            yield Hit(
                node.pointer + "/enum",
                f'Gemini rejects {node.label}: enum is allowed only on type "string", and it {root_type(node.schema)}',
                'add "type": "string" (with string values)'
                if declared is None
                else "use minimum/maximum for numbers, a boolean type, or a string type with string values",
            )
        elif any(not isinstance(v, str) for v in enum):
            first = next(v for v in enum if not isinstance(v, str))
            yield Hit(
                node.pointer + "/enum",
                f"Gemini rejects {node.label}: enum values must be strings, and {json.dumps(first)} is not",
                "use minimum/maximum for numbers, a boolean type, or string values",
            )


@rule(
    "CMP-GEM-005",
    "gemini-array-without-items",
    "critical",
    "brittle",
    "Gemini: an array schema has no items",
    default=False,
)
def gemini_array_without_items(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A schema of type `array` (or `["array", "null"]`) with
    no `items`; a `prefixItems` tuple included, since Gemini has no such field.

    **Why.** Gemini requires `items` for an array (Gemini API reference, Schema:
    "items: Schema of the elements of Type.ARRAY", checked 2026-11-22) and fails
    the whole request with `...properties[tags].items: missing field.` JSON
    Schema allows an array without `items` (any items), so MCP servers send one.

    **Bad.** `"tags": {"type": "array"}`

    **Good.** `"tags": {"type": "array", "items": {"type": "string"}}`

    **Fix.** Give every array an `items` schema.
    """
    for node in _gemini_nodes(tool):
        if array_only(node.schema) and "items" not in node.schema:
            yield Hit(node.pointer, f"Gemini rejects {node.label}: an array needs items", 'add "items": {...}')


@rule(
    "CMP-GEM-006",
    "gemini-empty-object",
    "critical",
    "underspecified",
    "Gemini: a nested object schema has no properties",
    default=False,
)
def gemini_empty_object(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A nested schema of type `object` (a property, array
    items, an `anyOf` branch) with no properties: a free-form object or a map
    written with `additionalProperties`, also when nullable (`"type": ["object",
    "null"]`). The root is not reported: a tool without arguments cannot be
    written otherwise in MCP, and it is for the client to leave `parameters`
    out. Nor is a type list that offers other types too (`["string", "object",
    "array"]`, any JSON value): CMP-GEM-003 reports the list, and the one type
    that replaces it need not be an object.

    **Why.** Gemini refuses an object with no properties: `parameters.properties
    [filter].properties: should be non-empty for OBJECT type` (Gemini API
    reference, Schema; the error as reported by client projects, checked
    2026-11-22). JSON Schema allows any object, so MCP servers use one for
    "arbitrary options".

    **Bad.** `"options": {"type": "object", "additionalProperties": true}`

    **Good.** `"options": {"type": "object", "properties": {"timeout": {"type":
    "integer"}}}`, or a JSON string argument

    **Fix.** Declare the properties the tool reads, or take the free-form value as
    a JSON-encoded string.
    """
    for node in _gemini_nodes(tool):
        props = node.schema.get("properties")
        if node.parent is not None and types_of(node.schema) - {"null"} == {"object"} and not props:
            yield Hit(
                node.pointer,
                f"Gemini rejects {node.label}: an object needs at least one property",
                "declare its properties, or take it as a JSON string",
            )


@rule(
    "CMP-GEM-007",
    "gemini-object-keyword-without-object-type",
    "critical",
    "brittle",
    'Gemini: properties or required on a schema whose type is not "object"',
    default=False,
)
def gemini_object_keyword_without_object_type(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A schema, the input schema's root included, with
    `properties` and no `type`, or with `properties` or `required` and a `type`
    other than `"object"`: most often a nested object written without its type
    (`"data": {"properties": {...}}`), which JSON Schema reads as an object
    anyway. One finding per schema, at `properties` (else `required`). A `type`
    list is left to CMP-GEM-003; an untyped schema with only `required` (an
    `anyOf` branch naming required properties) is not reported, as no refusal of
    that shape has been seen.

    **Why.** Gemini's Schema has `properties` and `required` for `Type.OBJECT`
    only (Gemini API reference, Schema, checked 2026-11-22) and fails the whole
    request otherwise: `...parameters.properties[data].properties: only allowed
    for OBJECT type` and `...required: only allowed for OBJECT type`
    (anomalyco/opencode#11889, 2026-02, Notion MCP tools on gemini-3-flash;
    anomalyco/opencode#13150, 2026-02, for the same schema with no type at all).

    **Bad.** `"data": {"properties": {"page_id": {"type": "string"}}, "required":
    ["page_id"]}`

    **Good.** `"data": {"type": "object", "properties": {"page_id": {"type":
    "string"}}, "required": ["page_id"]}`

    **Fix.** Declare `"type": "object"` on every schema that has `properties` or
    `required`.
    """
    for node in _gemini_nodes(tool):
        s = node.schema
        declared = s.get("type")
        keys = [key for key in ("properties", "required") if key in s]
        if declared is None and "properties" not in s:  # required alone, untyped: no refusal seen
            keys = []
        elif declared is not None and (not isinstance(declared, str) or declared == "object"):
            keys = []  # an object, or a type list (CMP-GEM-003's)
        if keys:
            yield Hit(
                join_pointer(node.pointer, keys[0]),
                f"Gemini rejects {node.label}: {' and '.join(keys)} {'are' if len(keys) > 1 else 'is'} allowed only on "
                f'type "object", and it {root_type(s)}',
                'add "type": "object"' if declared is None else 'move these keywords into a "type": "object" schema',
            )
