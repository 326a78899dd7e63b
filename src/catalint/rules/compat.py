"""CMP rules: what a client refuses when it turns MCP tools into its own tool definitions.

One family per client, each turned on by a target (catalint.profiles), all off
by default: CMP-OAI OpenAI function calling, CMP-OAS OpenAI strict mode (on top
of CMP-OAI), CMP-ANT the Anthropic Messages API, CMP-GEM Gemini with the schema
sent as `parameters`. Facts were checked on 2026-11-22; each rule's Why names
its source. Critical means the client refuses the request (usually the whole
request, so every tool of every server is lost); warning marks a limit that is
documented but not, or not everywhere, enforced.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from catalint.metaschema import schema_errors
from catalint.model import Severity, Tool
from catalint.registry import CatalogHit, Hit, rule
from catalint.rules.schema import KEYWORDS, PROPERTY_NAME, input_schema_of, nodes
from catalint.schema_walk import Node, types_of
from catalint.sourcemap import join_pointer
from catalint.text import LazyRegex


def _reachable(tool: Tool, through: frozenset[str]) -> list[Node]:
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


def _name_problem(name: str, chars: str, limit: int) -> str | None:
    """Why a tool name breaks `[chars]{1,limit}`, or None."""
    if not name:
        return "is empty"
    allowed = re.compile(f"[{chars}]")
    bad = list(dict.fromkeys(c for c in name if allowed.fullmatch(c) is None))
    if bad:
        return "contains " + ", ".join(repr(c) for c in bad[:5])
    return f"is {len(name)} characters, over {limit}" if len(name) > limit else None


def _renamed(name: str, chars: str, limit: int) -> str:
    return f"rename it, e.g. {re.sub(f'[^{chars}]', '_', name)[:limit] or 'tool'!r}"


def _array_only(schema: dict[str, Any]) -> bool:
    """Typed as an array (or an array or null): a list of several other types is left alone."""
    return types_of(schema) - {"null"} == {"array"}


def _name_pointer(tool: Tool) -> str:
    return join_pointer(tool.pointer, "name")


def _root_type(schema: dict[str, Any]) -> str:
    return "has no type" if "type" not in schema else f"has type {json.dumps(schema['type'])}"


def _type_pointer(schema: dict[str, Any], base: str) -> str:
    return base + "/type" if "type" in schema else base


# --------------------------------------------------------------------------- CMP-OAI: OpenAI function calling

OPENAI_CHARS = "a-zA-Z0-9_-"
OPENAI_NAME_MAX = 64
OPENAI_TOOLS_MAX = 128


@rule(
    "CMP-OAI-001",
    "openai-tool-name",
    "critical",
    "brittle",
    "OpenAI: a tool name falls outside ^[a-zA-Z0-9_-]{1,64}$",
    default=False,
)
def openai_tool_name(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A tool name that is empty, longer than 64 characters, or
    uses anything but ASCII letters, digits, `_` and `-`: a dot, a space, a slash.

    **Why.** OpenAI function names must match `^[a-zA-Z0-9_-]{1,64}$` (OpenAI API
    reference, Chat Completions, `tools[].function.name`, checked 2026-11-22);
    anything else fails the whole request with `Invalid 'tools[0].function.name'`.
    The MCP specification allows more (128 characters, dots), so a name that is
    valid MCP can still be refused. Clients that prefix the server name leave even
    less room.

    **Bad.** `"name": "issues.search"`

    **Good.** `"name": "issues_search"`

    **Fix.** Use letters, digits, `_` and `-` only, at most 64 characters (fewer
    if your clients prefix the server name).
    """
    problem = _name_problem(tool.name, OPENAI_CHARS, OPENAI_NAME_MAX)
    if problem:
        yield Hit(
            _name_pointer(tool),
            f"OpenAI rejects tool name {tool.name!r}: it {problem} (allowed: 1-64 of [a-zA-Z0-9_-])",
            _renamed(tool.name, OPENAI_CHARS, OPENAI_NAME_MAX),
        )


@rule(
    "CMP-OAI-002",
    "openai-root-not-object",
    "critical",
    "brittle",
    'OpenAI: the input schema\'s root type is not "object"',
    default=False,
)
def openai_root_not_object(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** An input schema whose root `type` is missing or anything
    but the string `"object"`: a bare `anyOf`/`oneOf` of objects, `["object",
    "null"]`, or no `type` at all.

    **Why.** OpenAI refuses function parameters that are not a JSON Schema of
    `type: "object"` (`schema must be a JSON Schema of 'type: "object"', got
    'type: "None"'`; OpenAI function calling guide, checked 2026-11-22), strict or
    not. The MCP specification requires the same root (SCH-005), but many servers
    omit it for a union of argument shapes.

    **Bad.** `{"anyOf": [{"type": "object", ...}, {"type": "object", ...}]}`

    **Good.** `{"type": "object", "properties": {...}, "required": [...]}`

    **Fix.** Declare `"type": "object"` at the root; move alternatives into a
    property or merge them into one object.
    """
    found = input_schema_of(tool)
    if found is None:
        return
    schema, base = found
    if schema.get("type") != "object":
        yield Hit(
            _type_pointer(schema, base),
            f'OpenAI rejects the input schema: it {_root_type(schema)}; parameters must be of type "object"',
            'set "type": "object" at the root',
        )


@rule(
    "CMP-OAI-003",
    "openai-array-without-items",
    "critical",
    "brittle",
    "OpenAI: an array schema has no items",
    default=False,
)
def openai_array_without_items(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A schema of type `array` (or `["array", "null"]`),
    anywhere in the input schema, with no `items`; a `prefixItems` tuple without
    `items` included. A type list of several kinds (any value) is not reported.

    **Why.** OpenAI's function-parameter validator refuses it with `In
    context=('properties', 'tags'), array schema missing items.` (OpenAI function
    calling guide; the error as reported by client projects, checked 2026-11-22).
    JSON Schema allows an array without `items` (any items), which is why such
    schemas pass elsewhere.

    **Bad.** `"tags": {"type": "array"}`

    **Good.** `"tags": {"type": "array", "items": {"type": "string"}}`

    **Fix.** Give every array an `items` schema.
    """
    for node in nodes(tool):
        if not node.condition and _array_only(node.schema) and "items" not in node.schema:
            yield Hit(node.pointer, f"OpenAI rejects {node.label}: an array schema needs items", 'add "items": {...}')


@rule(
    "CMP-OAI-004",
    "openai-too-many-tools",
    "critical",
    "verbose",
    "OpenAI: the catalog has more than 128 tools",
    scope="catalog",
    default=False,
)
def openai_too_many_tools(tools: list[Tool]) -> Iterator[CatalogHit]:
    """
    **What it catches.** A catalog of more than 128 tools. The 129th tool is
    reported, once.

    **Why.** OpenAI accepts at most 128 tools in one request (`Invalid 'tools':
    array too long. Expected an array with maximum length 128`; OpenAI API
    reference, Chat Completions, `tools`, checked 2026-11-22). A client that sends
    every tool of an MCP server fails every turn; one that combines servers reaches
    the limit sooner.

    **Bad.** a server that lists 150 tools

    **Good.** at most 128, better far fewer, or tools grouped behind a few general ones

    **Fix.** Merge tools that differ only by a parameter, or split the server.
    """
    if len(tools) > OPENAI_TOOLS_MAX:
        first = tools[OPENAI_TOOLS_MAX]
        yield CatalogHit(
            first,
            Hit(
                first.pointer,
                f"OpenAI accepts at most {OPENAI_TOOLS_MAX} tools per request; this catalog has {len(tools)}, "
                f"and {first.name!r} is the first past the limit",
                "merge tools that differ only by a parameter, or split the server",
            ),
        )


# --------------------------------------------------------------------------- CMP-OAS: OpenAI strict mode

STRICT_WALK = frozenset({"properties", "items", "anyOf", "$defs", "definitions"})
# The supported subset (Structured Outputs guide, "Supported schemas"); strict mode refuses the rest.
STRICT_KEYWORDS = frozenset(
    """
    type properties required additionalProperties items anyOf enum const $ref $defs definitions
    title description pattern format multipleOf minimum maximum exclusiveMinimum exclusiveMaximum minItems maxItems
    """.split()
)
# JSON Schema keywords the guide says nothing about either way: not reported.
STRICT_UNSTATED = frozenset({"$schema", "$id", "$comment"})
STRICT_FORMATS = ("date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid")
STRICT_DEPTH = 10
STRICT_PROPERTIES = 5000
STRICT_ENUM_VALUES = 1000
STRICT_STRING_TOTAL = 120_000
STRICT_BIG_ENUM = 250  # past this many values, one enum's strings may total at most STRICT_BIG_ENUM_CHARS
STRICT_BIG_ENUM_CHARS = 15_000
_STRICT_HINTS = {
    "oneOf": "use anyOf",
    "allOf": "merge the branches into one schema",
    "default": "remove it and say the default in the description",
    "examples": "move the examples into the description",
    "minLength": "remove it; say the limit in the description and check it in the server",
    "maxLength": "remove it; say the limit in the description and check it in the server",
    "uniqueItems": "remove it and deduplicate in the server",
}


def _strict_nodes(tool: Tool) -> list[Node]:
    return _reachable(tool, STRICT_WALK)


@rule(
    "CMP-OAS-001",
    "strict-open-object",
    "critical",
    "brittle",
    "OpenAI strict: an object schema lacks additionalProperties: false",
    default=False,
)
def strict_open_object(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** Under OpenAI strict mode, an object schema (the root, a
    property, array items, an `anyOf` branch, a `$defs` entry) whose
    `additionalProperties` is absent, `true` or a schema.

    **Why.** Strict mode requires `"additionalProperties": false` on every object
    (OpenAI Structured Outputs guide, Supported schemas, checked 2026-11-22) and
    refuses the request otherwise (`'additionalProperties' is required to be
    supplied and to be false`). So a map of free keys (`additionalProperties:
    {"type": "string"}`), valid JSON Schema, cannot be sent strict at all.

    **Bad.** `{"type": "object", "properties": {"city": {"type": "string"}},
    "required": ["city"]}`

    **Good.** the same with `"additionalProperties": false`

    **Fix.** Close every object; turn a free-form map into an array of
    `{"key": ..., "value": ...}` objects.
    """
    for node in _strict_nodes(tool):
        extra = node.schema.get("additionalProperties", True)
        if node.is_object() and extra is not False:
            where = node.pointer + "/additionalProperties" if "additionalProperties" in node.schema else node.pointer
            yield Hit(
                where,
                f'OpenAI strict mode rejects {node.label}: every object needs "additionalProperties": false',
                'add "additionalProperties": false',
            )


@rule(
    "CMP-OAS-002",
    "strict-optional-property",
    "critical",
    "brittle",
    "OpenAI strict: a property is not listed in required",
    default=False,
)
def strict_optional_property(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** Under OpenAI strict mode, a property that its object's
    `required` list does not name (every property, when there is no `required`).
    Each such property is reported at its own pointer.

    **Why.** Strict mode requires every property to be required (OpenAI
    Structured Outputs guide, "All fields must be required", checked 2026-11-22);
    an optional argument is written as a required one that may be null. MCP tools
    are usually written the JSON Schema way, with optional arguments left out of
    `required`, so this is the most common reason a catalog cannot be sent strict.

    **Bad.** `"properties": {"city": {...}, "units": {"type": "string"}},
    "required": ["city"]`

    **Good.** `"units": {"type": ["string", "null"]}` and `"required": ["city",
    "units"]`

    **Fix.** List every property in `required`; make the optional ones nullable
    (`"type": [..., "null"]`, or `anyOf` with `{"type": "null"}`) and treat null as
    "not given" in the server.
    """
    for node in _strict_nodes(tool):
        props = node.schema.get("properties")
        if not isinstance(props, dict):
            continue
        required = node.schema.get("required")
        listed = {r for r in required if isinstance(r, str)} if isinstance(required, list) else set()
        for name in props:
            if name not in listed:
                yield Hit(
                    join_pointer(node.pointer, "properties", name),
                    f"OpenAI strict mode rejects {node.label}: property {name!r} is not in required",
                    f'add {name!r} to required; to keep it optional, allow null ("type": [..., "null"])',
                )


@rule(
    "CMP-OAS-003",
    "strict-unsupported-keyword",
    "critical",
    "brittle",
    "OpenAI strict: a JSON Schema keyword outside the supported subset",
    default=False,
)
def strict_unsupported_keyword(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** Under OpenAI strict mode, a JSON Schema keyword outside
    the supported subset, once per occurrence: `allOf`, `oneOf`, `not`,
    `if`/`then`/`else`, `dependentRequired`, `dependentSchemas`,
    `patternProperties`, `propertyNames`, `unevaluatedProperties`,
    `minProperties`, `maxProperties`, `prefixItems`, `contains`, `uniqueItems`,
    `minLength`, `maxLength`, `default`, `examples`, `deprecated`, `readOnly`, ...

    The subset is `type`, `properties`, `required`, `additionalProperties`,
    `items`, `anyOf`, `enum`, `const`, `$ref`, `$defs`/`definitions`, `title`,
    `description`, `pattern`, `format`, `multipleOf`, `minimum`, `maximum`,
    `exclusiveMinimum`, `exclusiveMaximum`, `minItems` and `maxItems`. Not
    reported: `$schema`, `$id` and `$comment`, which the guide does not mention,
    and keys that are not JSON Schema keywords (`x-...`, `nullable`). Nothing
    below a rejected keyword is checked.

    **Why.** The OpenAI Structured Outputs guide (Supported schemas, checked
    2026-11-22) lists the supported JSON Schema subset and says a strict request
    with anything else fails; the API answers `'uniqueItems' is not permitted`,
    `'minLength' is not permitted`, `'default' is not permitted`.

    **Bad.** `"ids": {"type": "array", "items": {"type": "string"},
    "uniqueItems": true}`

    **Good.** `"ids": {"type": "array", "items": {"type": "string"}}` (and
    deduplicate in the server)

    **Fix.** Remove the keyword, state the constraint in the description, and
    enforce it in the server.
    """
    for node in _strict_nodes(tool):
        for key in node.schema:
            if key in KEYWORDS and key not in STRICT_KEYWORDS and key not in STRICT_UNSTATED:
                yield Hit(
                    join_pointer(node.pointer, key),
                    f"OpenAI strict mode rejects {key!r} ({node.label})",
                    _STRICT_HINTS.get(key, "remove it and state the constraint in the description"),
                )


@rule(
    "CMP-OAS-004",
    "strict-unsupported-format",
    "critical",
    "brittle",
    "OpenAI strict: a string format outside the supported list",
    default=False,
)
def strict_unsupported_format(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** Under OpenAI strict mode, a `format` other than
    `date-time`, `time`, `date`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`
    and `uuid`: most often `uri`, also `uri-reference`, `regex`, `int32`.

    **Why.** These nine are the formats the OpenAI Structured Outputs guide
    supports (Supported schemas, checked 2026-11-22); any other fails the request
    with `'uri' is not a valid format`. JSON Schema 2020-12 defines `uri`, so MCP
    servers (Firecrawl, fetch) use it.

    **Bad.** `"url": {"type": "string", "format": "uri"}`

    **Good.** `"url": {"type": "string", "description": "An absolute http(s)
    URL."}`

    **Fix.** Drop the format (say it in the description), or use a supported one.
    """
    for node in _strict_nodes(tool):
        fmt = node.schema.get("format")
        if isinstance(fmt, str) and fmt not in STRICT_FORMATS:
            yield Hit(
                node.pointer + "/format",
                f"OpenAI strict mode rejects format {fmt!r} ({node.label})",
                "remove it and say it in the description (supported: " + ", ".join(STRICT_FORMATS) + ")",
            )


@rule(
    "CMP-OAS-005",
    "strict-root-anyof",
    "critical",
    "brittle",
    "OpenAI strict: the input schema has anyOf at the root",
    default=False,
)
def strict_root_anyof(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** Under OpenAI strict mode, an `anyOf` on the input
    schema's root, with or without a root `type` (a missing or wrong root type is
    CMP-OAI-002's finding).

    **Why.** "Root objects must not be anyOf and must be an object" (OpenAI
    Structured Outputs guide, Supported schemas, checked 2026-11-22). MCP servers
    write a root `anyOf` for "one of these argument sets" or "at least one of
    these", both valid JSON Schema.

    **Bad.** `{"type": "object", "properties": {...}, "anyOf": [{"required":
    ["id"]}, {"required": ["url"]}]}`

    **Good.** `{"type": "object", "properties": {"id": {"type": ["string",
    "null"]}, "url": {"type": ["string", "null"]}}, ...}` and the check in the
    server

    **Fix.** Remove the root `anyOf`: nullable properties for "at least one of",
    or a property holding the alternatives.
    """
    found = input_schema_of(tool)
    if found is not None and "anyOf" in found[0]:
        yield Hit(
            found[1] + "/anyOf",
            "OpenAI strict mode rejects anyOf at the root of the input schema",
            "move the alternatives into a property, or use nullable properties and check in the server",
        )


def _object_depths(tool: Tool) -> dict[int, int]:
    """How many object schemas enclose each node, itself included (the root object is level 1)."""
    depths: dict[int, int] = {}
    for node in _strict_nodes(tool):
        above = depths.get(id(node.parent), 0) if node.parent is not None else 0
        depths[id(node)] = above + node.is_object()
    return depths


@rule(
    "CMP-OAS-006",
    "strict-too-deep",
    "critical",
    "brittle",
    "OpenAI strict: objects nest more than 10 levels deep",
    default=False,
)
def strict_too_deep(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** Under OpenAI strict mode, an object schema nested inside
    10 others. Levels count object schemas only (the root object is level 1; an
    array or an `anyOf` between two objects adds none), and the first object past
    the limit on each path is reported, not the ones below it. A `$defs` entry is
    counted from the root, so nesting reached through `$ref` is not seen.

    **Why.** A strict schema "may have up to 10 levels of nesting" (OpenAI
    Structured Outputs guide, Objects have limitations on nesting depth and size,
    checked 2026-11-22; earlier versions of the guide said 5). Deeper schemas
    fail the request. JSON Schema itself sets no limit.

    **Bad.** an object inside an object ... eleven deep

    **Good.** at most ten levels of objects

    **Fix.** Flatten: `address_city` next to `address_country` instead of an
    `address` object, or pass an identifier instead of the nested record.
    """
    depths = _object_depths(tool)
    for node in _strict_nodes(tool):
        if node.is_object() and depths[id(node)] == STRICT_DEPTH + 1:
            yield Hit(
                node.pointer,
                f"OpenAI strict mode allows {STRICT_DEPTH} levels of nested objects; {node.label} is level "
                f"{STRICT_DEPTH + 1}",
                "flatten the nested objects",
            )


def _string_total(node: Node) -> int:
    """Characters this node adds to strict mode's string budget: names, enum and const strings."""
    s = node.schema
    total = sum(len(name) for key in ("properties", "$defs", "definitions") for name in _keys(s.get(key)))
    enum = s.get("enum")
    if isinstance(enum, list):
        total += sum(len(v) for v in enum if isinstance(v, str))
    const = s.get("const")
    return total + (len(const) if isinstance(const, str) else 0)


def _keys(value: Any) -> list[str]:
    return list(value) if isinstance(value, dict) else []


@rule(
    "CMP-OAS-007",
    "strict-too-large",
    "critical",
    "verbose",
    "OpenAI strict: the schema exceeds a size limit (properties, enum values, string length)",
    default=False,
)
def strict_too_large(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** Under OpenAI strict mode, an input schema past one of the
    size limits, each reported once: more than 5,000 properties in all; more than
    1,000 enum values in all; more than 120,000 characters of property names,
    definition names, enum strings and const strings together (these three at the
    input schema); and one enum of more than 250 values whose strings total more
    than 15,000 characters (at that enum).

    **Why.** These are the limits of the OpenAI Structured Outputs guide (Objects
    have limitations on nesting depth and size; Limitations on total string size;
    Limitations on enum size; checked 2026-11-22). Past them the request fails.
    MCP servers generated from large APIs reach them with enums of every country,
    currency or field name.

    **Bad.** `"field": {"type": "string", "enum": [... 2,000 column names ...]}`

    **Good.** `"field": {"type": "string", "description": "A column name; see
    list_columns."}`

    **Fix.** Replace huge enums with a lookup tool and a described string; split
    very large tools.
    """
    found = input_schema_of(tool)
    if found is None:
        return
    base = found[1]
    props = enums = chars = 0
    for node in _strict_nodes(tool):
        props += len(_keys(node.schema.get("properties")))
        enum = node.schema.get("enum")
        if isinstance(enum, list):
            enums += len(enum)
            size = sum(len(v) for v in enum if isinstance(v, str))
            if len(enum) > STRICT_BIG_ENUM and size > STRICT_BIG_ENUM_CHARS:
                yield Hit(
                    node.pointer + "/enum",
                    f"OpenAI strict mode rejects {node.label}: an enum of {len(enum)} values (over "
                    f"{STRICT_BIG_ENUM}) may total {STRICT_BIG_ENUM_CHARS:,} characters, and this one has {size:,}",
                    "replace the enum with a described string and a lookup tool",
                )
        chars += _string_total(node)
    for count, limit, what in (
        (props, STRICT_PROPERTIES, "properties"),
        (enums, STRICT_ENUM_VALUES, "enum values"),
        (chars, STRICT_STRING_TOTAL, "characters of names, enum and const strings"),
    ):
        if count > limit:
            yield Hit(
                base,
                f"OpenAI strict mode allows {limit:,} {what} in a schema; this one has {count:,}",
                "replace big enums with described strings, or split the tool",
            )


_TYPED = frozenset({"type", "anyOf", "$ref", "enum", "const", "oneOf", "allOf", "not"})


@rule(
    "CMP-OAS-008",
    "strict-missing-type",
    "critical",
    "underspecified",
    "OpenAI strict: a subschema has no type",
    default=False,
)
def strict_missing_type(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** Under OpenAI strict mode, a subschema (a property, array
    items, an `anyOf` branch, a `$defs` entry) with no `type` and no `anyOf`,
    `$ref`, `enum` or `const` to stand for one: `"prop": {}` or a property with
    only a description. The root is CMP-OAI-002's, and a subschema made of
    `oneOf`, `allOf` or `not` is CMP-OAS-003's.

    **Why.** Strict mode refuses it: `In context=('properties', 'query'), schema
    must have a 'type' key` (OpenAI Structured Outputs guide, Supported schemas,
    which lists the types a schema may take; the error as reported by client
    projects, checked 2026-11-22). JSON Schema allows an untyped schema (any
    value), and SCH-003 already warns about untyped properties.

    **Bad.** `"value": {"description": "The value to set"}`

    **Good.** `"value": {"type": "string", "description": "The value to set"}`

    **Fix.** Give every subschema a `type` (an `anyOf` of types for a value that
    can take several).
    """
    for node in _strict_nodes(tool):
        if node.parent is not None and _TYPED.isdisjoint(node.schema):
            yield Hit(node.pointer, f"OpenAI strict mode rejects {node.label}: it has no type", 'add "type"')


@rule(
    "CMP-OAS-009",
    "strict-ref-with-siblings",
    "critical",
    "brittle",
    "OpenAI strict: a $ref has other keywords beside it",
    default=False,
)
def strict_ref_with_siblings(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** Under OpenAI strict mode, a schema with `$ref` and any
    other keyword next to it, even only a `description`.

    **Why.** Strict mode refuses it: `$ref cannot have keywords {'description'}`
    (the error as reported by client projects, checked 2026-11-22; OpenAI's own
    Python SDK inlines such references before sending, "we can't use `$ref`s if
    there are also other properties defined"). JSON Schema 2020-12 allows keywords
    beside `$ref`, and Pydantic and zod emit them for a described nested model.

    **Bad.** `"address": {"$ref": "#/$defs/Address", "description": "Where to
    ship"}`

    **Good.** `"address": {"$ref": "#/$defs/Address"}` with the description on
    `Address`, or the definition inlined

    **Fix.** Inline the referenced schema where it is described, or move the
    description into the definition.
    """
    for node in _strict_nodes(tool):
        others = [k for k in node.schema if k != "$ref"]
        if "$ref" in node.schema and others:
            yield Hit(
                node.pointer + "/$ref",
                f"OpenAI strict mode rejects {node.label}: $ref cannot have other keywords ({', '.join(others[:5])})",
                "inline the referenced schema, or move these keywords into the definition",
            )


# --------------------------------------------------------------------------- CMP-ANT: Anthropic Messages API

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
    problem = _name_problem(name, ANTHROPIC_CHARS, ANTHROPIC_NAME_MAX)
    if problem:
        yield Hit(
            _name_pointer(tool),
            f"Anthropic rejects tool name {name!r}: it {problem} (allowed: 1-128 of [a-zA-Z0-9_-])",
            _renamed(name, ANTHROPIC_CHARS, ANTHROPIC_NAME_DOCUMENTED),
        )
    elif len(name) > ANTHROPIC_NAME_DOCUMENTED:
        yield Hit(
            _name_pointer(tool),
            f"tool name {name!r} is {len(name)} characters; Anthropic documents at most "
            f"{ANTHROPIC_NAME_DOCUMENTED}, and tool search references allow no more",
            _renamed(name, ANTHROPIC_CHARS, ANTHROPIC_NAME_DOCUMENTED),
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
    fail here.

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
    for error in schema_errors(schema, "2020-12"):
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
    keys; nested keys are reported as a warning. SCH-014 gives the same advice for
    every client.

    **Bad.** `"properties": {"filter[id]": {"type": "string"}}`

    **Good.** `"properties": {"filter.id": {"type": "string"}}`

    **Fix.** Rename the property to letters, digits, `_`, `.` or `-`, at most 64
    characters, and map it back in the server.
    """
    for node in nodes(tool):
        props = node.schema.get("properties")
        if not isinstance(props, dict) or node.condition:
            continue
        for name in props:
            if PROPERTY_NAME.fullmatch(name) is None:
                why = _name_problem(name, "a-zA-Z0-9_.-", 64) or "is not allowed"
                yield Hit(
                    join_pointer(node.pointer, "properties", name),
                    f"Anthropic rejects property name {name!r} ({node.label}): it {why} "
                    "(allowed: 1-64 of [a-zA-Z0-9_.-])",
                    None,
                    None if node.parent is None else Severity.WARNING,
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
    if schema.get("type") != "object":
        yield Hit(
            _type_pointer(schema, base),
            f'Anthropic rejects input_schema: it {_root_type(schema)}; the root type must be "object"',
            'set "type": "object" at the root',
        )
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            yield Hit(
                f"{base}/{key}",
                f"Anthropic rejects input_schema: {key} is not allowed at the top level",
                "move the alternatives into a property, or check them in the server",
            )


# --------------------------------------------------------------------------- CMP-GEM: Gemini `parameters`

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
    return _reachable(tool, GEMINI_WALK)


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
    problem = _name_problem(name, GEMINI_CHARS, 64) or f"starts with {name[0]!r}, not a letter or _"
    yield Hit(
        _name_pointer(tool),
        f"Gemini rejects function name {name!r}: it {problem} (allowed: 1-64 of [a-zA-Z0-9_.-], first a letter or _)",
        _renamed(name if name[:1].isalpha() or name[:1] == "_" else "_" + name, GEMINI_CHARS, 64),
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
    "Gemini: an enum has values that are not strings",
    default=False,
)
def gemini_non_string_enum(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** An `enum` with a number, boolean, null, array or object
    among its values (`"enum": [1, 2, 3]`, `"enum": [true]`).

    **Why.** Gemini's Schema `enum` is a list of strings whatever the `type`
    (Gemini API reference, Schema, checked 2026-11-22); any other value fails the
    whole request with `Invalid value at '...enum[0]' (TYPE_STRING), 1`. JSON
    Schema allows any values, and zod turns `z.literal(true)` into `enum: [true]`.

    **Bad.** `"level": {"type": "integer", "enum": [1, 2, 3]}`

    **Good.** `"level": {"type": "integer", "minimum": 1, "maximum": 3}`, or a
    string enum `["1", "2", "3"]` parsed by the server

    **Fix.** Use bounds for numbers, a boolean type for `true`/`false`, or string
    values.
    """
    for node in _gemini_nodes(tool):
        enum = node.schema.get("enum")
        if isinstance(enum, list) and any(not isinstance(v, str) for v in enum):
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
        if _array_only(node.schema) and "items" not in node.schema:
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
    written with `additionalProperties`. The root is not reported: a tool without
    arguments cannot be written otherwise in MCP, and it is for the client to
    leave `parameters` out.

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
        if node.parent is not None and "object" in types_of(node.schema) and not props:
            yield Hit(
                node.pointer,
                f"Gemini rejects {node.label}: an object needs at least one property",
                "declare its properties, or take it as a JSON string",
            )
