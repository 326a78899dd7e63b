"""CMP-OAS: what OpenAI strict mode refuses, on top of CMP-OAI: the supported subset of JSON Schema and its limits."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from catalint.model import Severity, Tool
from catalint.registry import Hit, rule
from catalint.rules.compat.openai import object_root, root_composition
from catalint.rules.compat.shared import (
    reachable,
)
from catalint.rules.schema import KEYWORDS, input_schema_of
from catalint.schema_walk import Node, types_of
from catalint.sourcemap import join_pointer

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
# Keywords outside the guide's subset that api.openai.com was seen to accept: a warning that says so, not a refusal.
_STRICT_DISPUTED = {
    "default": "api.openai.com accepts it, Azure OpenAI deployments were reported to reject it",
    "minLength": "api.openai.com accepted it in 2026 probes; other OpenAI-compatible servers may reject it",
    "maxLength": "api.openai.com accepted it in 2026 probes; other OpenAI-compatible servers may reject it",
}
_STRICT_HINTS = {
    "oneOf": "use anyOf",
    "allOf": "merge the branches into one schema",
    "default": "for Azure OpenAI, remove it and say the default in the description",
    "examples": "move the examples into the description",
    "minLength": "for a server that rejects it, remove it, say the limit in the description and check it in the server",
    "maxLength": "for a server that rejects it, remove it, say the limit in the description and check it in the server",
    "uniqueItems": "remove it and deduplicate in the server",
}


def _strict_nodes(tool: Tool) -> list[Node]:
    """The subschemas strict mode reads, less those below a root anyOf: that anyOf is rejected whole (CMP-OAS-005
    or CMP-OAI-006), and its branches are not checked one by one."""
    cached = tool.cache.get("strict_nodes")
    if cached is None:
        below: set[int] = set()
        cached = tool.cache["strict_nodes"] = []
        for node in reachable(tool, STRICT_WALK):
            parent = node.parent
            if parent is not None and (id(parent) in below or (parent.parent is None and node.key == "anyOf")):
                below.add(id(node))
            else:
                cached.append(node)
    return cached


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
    `examples`, `deprecated`, `readOnly`, ... (critical), and `default`,
    `minLength` and `maxLength` (warning, see Why).

    The subset is `type`, `properties`, `required`, `additionalProperties`,
    `items`, `anyOf`, `enum`, `const`, `$ref`, `$defs`/`definitions`, `title`,
    `description`, `pattern`, `format`, `multipleOf`, `minimum`, `maximum`,
    `exclusiveMinimum`, `exclusiveMaximum`, `minItems` and `maxItems`. Not
    reported: `$schema`, `$id` and `$comment`, which the guide does not mention,
    keys that are not JSON Schema keywords (`x-...`, `nullable`), and a root
    `oneOf`, `allOf` or `not` beside `"type": "object"`, which CMP-OAI-006
    reports. Nothing below a rejected keyword is checked.

    **Why.** The OpenAI Structured Outputs guide (Supported schemas, checked
    2026-11-22) lists the supported JSON Schema subset and says a strict request
    with anything else fails; the API answers `'uniqueItems' is not permitted`,
    `In context=(...), 'propertyNames' is not permitted` (can1357/oh-my-pi#209,
    2026-02), and refuses `prefixItems` (pydantic/pydantic-ai#7315, 2026-08).
    Three keywords outside the list are not refused by api.openai.com itself, so
    they are warnings. `default` was accepted in a maintainer's probe of
    api.openai.com (openai/openai-agents-python#4390, 2026-08; the change to
    strip it was held back in #4426 because only Azure failed); Azure OpenAI
    deployments were reported to answer `'default' is not permitted` (the same
    issue, closed still waiting for an isolated Azure probe). `minLength` and
    `maxLength` were accepted, and enforced, in live probes
    (pydantic/pydantic-ai#7315 and #7400, 2026-08), though OpenAI's own SDK docs
    still say they "can be rejected" (openai/openai-node#1988, 2026-07) and
    OpenAI-compatible servers such as DeepSeek document them as unsupported
    (noted in pydantic-ai#7400).

    **Bad.** `"ids": {"type": "array", "items": {"type": "string"},
    "uniqueItems": true}`

    **Good.** `"ids": {"type": "array", "items": {"type": "string"}}` (and
    deduplicate in the server)

    **Fix.** Remove the keyword, state the constraint in the description, and
    enforce it in the server.
    """
    found = object_root(tool)
    left_to_oai = frozenset(root_composition(found[0])) if found is not None else frozenset()
    for node in _strict_nodes(tool):
        for key in node.schema:
            if key not in KEYWORDS or key in STRICT_KEYWORDS or key in STRICT_UNSTATED:
                continue
            if node.parent is None and key in left_to_oai:
                continue
            hint = _STRICT_HINTS.get(key, "remove it and state the constraint in the description")
            disputed = _STRICT_DISPUTED.get(key)
            if disputed is None:
                yield Hit(join_pointer(node.pointer, key), f"OpenAI strict mode rejects {key!r} ({node.label})", hint)
            else:
                yield Hit(
                    join_pointer(node.pointer, key),
                    f"{key!r} is outside the subset OpenAI's strict-mode guide lists ({node.label}): {disputed}",
                    hint,
                    Severity.WARNING,
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
    and `uuid` on a string schema (or one with no type): most often `uri`, also
    `uri-reference`, `regex`. A `format` on a schema typed only as something else
    (`{"type": "integer", "format": "int32"}`) is not reported: the guide's list
    is of string formats and says nothing about the others.

    **Why.** These nine are the string formats the OpenAI Structured Outputs
    guide supports (Supported schemas, "Supported string properties", checked
    2026-11-22); any other fails the request with `'uri' is not a valid format`.
    JSON Schema 2020-12 defines `uri`, so MCP servers (Firecrawl, fetch) use it.

    **Bad.** `"url": {"type": "string", "format": "uri"}`

    **Good.** `"url": {"type": "string", "description": "An absolute http(s)
    URL."}`

    **Fix.** Drop the format (say it in the description), or use a supported one.
    """
    for node in _strict_nodes(tool):
        fmt = node.schema.get("format")
        if isinstance(fmt, str) and fmt not in STRICT_FORMATS and _may_be_string(node.schema):
            yield Hit(
                node.pointer + "/format",
                f"OpenAI strict mode rejects format {fmt!r} ({node.label})",
                "remove it and say it in the description (supported: " + ", ".join(STRICT_FORMATS) + ")",
            )


def _may_be_string(schema: dict[str, Any]) -> bool:
    """Typed as a string (alone or in a list), or not typed at all."""
    return "type" not in schema or "string" in types_of(schema)


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
    **What it catches.** Under OpenAI strict mode, an `anyOf` on an input schema
    whose root is not `"type": "object"` (a missing or wrong root type is
    CMP-OAI-002's finding). A root `anyOf` beside `"type": "object"` is
    CMP-OAI-006's finding, since OpenAI refuses it strict or not. The branches
    of a root `anyOf` are not checked by the other CMP-OAS rules: the keyword is
    refused whole.

    **Why.** "Root objects must not be anyOf and must be an object" (OpenAI
    Structured Outputs guide, Supported schemas, checked 2026-11-22). MCP servers
    write a root `anyOf` for "one of these argument sets" or "at least one of
    these", both valid JSON Schema.

    **Bad.** `{"anyOf": [{"type": "object", "properties": {"id": {...}},
    "required": ["id"]}, {"type": "object", "properties": {"url": {...}},
    "required": ["url"]}]}` (one of two argument sets, as a union of two models
    gives it)

    **Good.** `{"type": "object", "properties": {"id": {"type": ["string",
    "null"]}, "url": {"type": ["string", "null"]}}, ...}` and the check in the
    server

    **Fix.** Remove the root `anyOf`: nullable properties for "at least one of",
    or a property holding the alternatives.
    """
    found = input_schema_of(tool)
    if found is not None and "anyOf" in found[0] and object_root(tool) is None:
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
    `$ref`, `enum` or `const` to stand for one: `"prop": {}`, a property with
    only a description, or the boolean schema `true`, which JSON Schema defines
    as the same as `{}`. The root is CMP-OAI-002's, and a subschema made of
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
        for pointer, what in _true_subschemas(node):
            yield Hit(
                pointer,
                f"OpenAI strict mode rejects {what}: the schema true (any value) has no type",
                'write a schema with "type"',
            )


def _true_subschemas(node: Node) -> Iterator[tuple[str, str]]:
    """The boolean `true` subschemas in the places strict mode reads, which the schema walk does not visit."""
    s = node.schema
    for key in ("properties", "$defs", "definitions"):
        entries = s.get(key)
        if isinstance(entries, dict):
            for name, sub in entries.items():
                if sub is True:
                    path = f"{node.path}.{name}" if node.path else name
                    what = f"property {path!r}" if key == "properties" else f"definition {name!r}"
                    yield join_pointer(node.pointer, key, name), what
    if s.get("items") is True:
        yield node.pointer + "/items", f"items of {node.label}"
    branches = s.get("anyOf")
    if isinstance(branches, list) and node.parent is not None:  # a root anyOf is refused whole
        for i, sub in enumerate(branches):
            if sub is True:
                yield f"{node.pointer}/anyOf/{i}", f"anyOf branch {i} of {node.label}"


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
