"""SCH rules: whether a tool's input schema (and output schema) can be trusted by an agent and a client."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from catalint.loader import json_kind
from catalint.metaschema import (
    DEFAULT_DIALECT,
    Dialect,
    dialect_of,
    json_key,
    pattern_matches,
    problem,
    quick_problem,
    schema_errors,
    value_validator,
)
from catalint.model import Severity, Tool
from catalint.registry import Hit, rule
from catalint.schema_walk import Node, has_scheme, is_network, property_names, resolve, types_of, walk
from catalint.sourcemap import join_pointer

PROPERTY_NAME = re.compile(r"[a-zA-Z0-9_.-]{1,64}")
# String formats whose values have a bounded length, so SCH-004 does not ask for maxLength.
BOUNDED_FORMATS = frozenset({"date", "time", "date-time", "uuid", "ipv4", "ipv6", "duration"})


def input_schema_of(tool: Tool) -> tuple[dict[str, Any], str] | None:
    schema = tool.input_schema
    return (schema, join_pointer(tool.pointer, "inputSchema")) if isinstance(schema, dict) else None


def nodes(tool: Tool) -> list[Node]:
    """Every subschema of the input schema, walked once per tool."""
    cached = tool.cache.get("schema_nodes")
    if cached is None:
        found = input_schema_of(tool)
        cached = tool.cache["schema_nodes"] = walk(*found) if found else []
    return cached


def dialect(tool: Tool) -> Dialect:
    cached = tool.cache.get("dialect")
    if cached is None:
        found = input_schema_of(tool)
        cached = tool.cache["dialect"] = dialect_of(found[0]) if found else Dialect(DEFAULT_DIALECT)
    return cached


def _root_of(tool: Tool) -> dict[str, Any]:
    schema = tool.input_schema
    return schema if isinstance(schema, dict) else {}


def _where(node: Node) -> str:
    """How a message names a subschema: 'the input schema', "property 'city'", ..."""
    return node.label


# --------------------------------------------------------------------------- SCH-001..004


@rule(
    "SCH-001",
    "missing-required-list",
    "warning",
    "underspecified",
    "An object schema declares properties but no required list",
)
def missing_required(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** An object schema (the input schema itself, an object
    argument, an array's item object, a `$defs` entry or a branch) that declares
    `properties` but has no `required` keyword at all.

    **Why.** Without `required`, every argument is optional as far as the client
    and the model know, so the server cannot rely on any of them being sent, and
    the model cannot tell which ones it must fill in. This is the first rule of the
    published tool-schema-lint checks this project follows. A tool whose arguments
    are all optional says so with `"required": []`, which passes.

    **Bad.** `{"type": "object", "properties": {"city": {"type": "string"}}}`

    **Good.** `{"type": "object", "properties": {"city": {"type": "string"}},
    "required": ["city"]}`

    **Fix.** List the arguments the tool cannot work without in `required`; write
    `"required": []` when every argument really is optional.
    """
    for node in nodes(tool):
        props = node.schema.get("properties")
        if isinstance(props, dict) and props and "required" not in node.schema and not node.condition:
            yield Hit(
                node.pointer + "/required",
                f"{_where(node)} declares properties but no required list",
                'add "required": [...] naming the arguments the tool needs (or [] if none)',
            )


def _closed(schema: dict[str, Any], dialect: str | None) -> bool:
    if schema.get("additionalProperties", True) is False:
        return True
    # unevaluatedProperties exists from 2019-09 on; draft-07 and older ignore it
    return dialect not in _BEFORE_2019 and schema.get("unevaluatedProperties", True) is False


_BEFORE_2019 = frozenset({"draft-07", "draft-06", "draft-04"})


def _through_branches(schema: dict[str, Any], every: Callable[[Any], bool], some: Callable[[Any], bool]) -> bool:
    """What the applicators make true: every branch of a (non-empty) anyOf or oneOf passes `every`, or
    one allOf branch passes `some`."""
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and branches and all(every(b) for b in branches):
            return True
    branches = schema.get("allOf")
    return isinstance(branches, list) and any(some(b) for b in branches)


def _closed_by_subschemas(schema: dict[str, Any], root: dict[str, Any], node: Node, dialect: str | None) -> bool:
    """Closed through what it applies: a `$ref` to a closed schema (`{"type": "object", "$ref":
    "#/$defs/Args"}`), every anyOf/oneOf branch closed, or one allOf branch closed."""
    if "$ref" not in schema and "anyOf" not in schema and "oneOf" not in schema and "allOf" not in schema:
        return False  # the common case
    return _closes(schema, root, node, dialect, set())


def _closes(schema: Any, root: dict[str, Any], node: Node, dialect: str | None, seen: set[int]) -> bool:
    if not isinstance(schema, dict) or id(schema) in seen or len(seen) > 64:
        return False
    seen.add(id(schema))
    if _closed(schema, dialect) or _is_map(schema):
        return True
    if "$ref" in schema and _closes(resolve(root, schema["$ref"], node.resource, node.base), root, node, dialect, seen):
        return True

    def closes(branch: Any) -> bool:
        return _closes(branch, root, node, dialect, seen)

    return _through_branches(schema, closes, closes)


def _refines_parent(node: Node) -> bool:
    """A branch that adds to its parent object's properties rather than standing alone.

    Closing such a branch would reject the parent's own properties, so it is the
    parent that should be closed: every allOf branch, and any other branch of an
    object that declares properties itself or closes with unevaluatedProperties.
    """
    if node.role != "branch" or node.parent is None:
        return False
    parent = node.parent.schema
    return (
        node.key == "allOf"
        or isinstance(parent.get("properties"), dict)
        or parent.get("unevaluatedProperties", True) is False
    )


def _is_map(schema: dict[str, Any]) -> bool:
    """additionalProperties is a real schema: a deliberate map of typed values."""
    extra = schema.get("additionalProperties")
    return isinstance(extra, dict) and bool(extra)


@rule(
    "SCH-002",
    "open-object",
    "warning",
    "brittle",
    "additionalProperties is not false, so unexpected fields are accepted",
)
def open_object(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** The input schema, or a nested object schema that declares
    `properties`, whose `additionalProperties` is absent or `true` (and which is
    not closed with `unevaluatedProperties: false` either).

    **Why.** An open object accepts any extra field without complaint: a model that
    misspells an argument (`cty` for `city`) gets no validation error and the
    server silently ignores what it meant. The MCP specification (2025-11-25,
    Server features, Tools) recommends `{"type": "object", "additionalProperties":
    false}` as the input schema of a tool that takes no arguments; this rule is
    from the published tool-schema-lint checks.

    Not reported: an object whose `additionalProperties` is a non-empty schema (a
    deliberate map such as headers: string to string); an object closed through
    what it applies (a `$ref` to a closed schema, every `anyOf`/`oneOf` branch
    closed, or one `allOf` branch closed); a branch that refines its
    parent (every `allOf` branch, and the `anyOf`/`oneOf`/`if`/`then`/`else`
    branches of an object that declares properties itself or closes with
    `unevaluatedProperties: false`), since closing it would reject the parent's own
    properties: close the parent instead; and schemas inside a `not`, `if`,
    `contains` or `propertyNames`, which test values rather than describe them.
    `unevaluatedProperties: false` closes an object from 2019-09 on; draft-07 and
    older ignore it.

    **Bad.** `{"type": "object", "properties": {"city": {"type": "string"}},
    "required": ["city"]}`

    **Good.** the same with `"additionalProperties": false`

    **Fix.** Add `"additionalProperties": false` to each object schema whose
    properties are all listed.
    """
    d = dialect(tool).name
    for node in nodes(tool):
        s = node.schema
        if node.role == "root":
            candidate = "type" not in s or node.is_object()
        else:  # the cheap test first: most nodes have no properties
            candidate = isinstance(s.get("properties"), dict) and node.is_object()
        if candidate and not node.condition and not _refines_parent(node):
            if not _closed(s, d) and not _is_map(s) and not _closed_by_subschemas(s, _root_of(tool), node, d):
                where = node.pointer + "/additionalProperties" if "additionalProperties" in s else node.pointer
                yield Hit(
                    where,
                    f"{_where(node)} accepts unexpected fields (additionalProperties is not false)",
                    'add "additionalProperties": false',
                )


_TYPING = frozenset(("type", "enum", "const"))
_SHAPED = frozenset(("$ref", "anyOf", "oneOf", "allOf", "enum", "const"))
_ANY_JSON = frozenset(("string", "number", "boolean", "object", "array", "null"))


def _supplies_type(
    schema: Any, root: dict[str, Any], resource: dict[str, Any], base: str = "", seen: set[int] | None = None
) -> bool:
    """Whether a schema constrains the JSON type of its value, itself or through $ref/anyOf/oneOf/allOf."""
    if not isinstance(schema, dict):
        return schema is False
    if not _TYPING.isdisjoint(schema) or schema.get("not") in ({}, True):
        return True
    seen = seen if seen is not None else set()
    if id(schema) in seen or len(seen) > 256:
        return True  # a cycle, or too much to tell: say nothing
    seen.add(id(schema))
    if "$ref" in schema:
        target = resolve(root, schema["$ref"], resource, base)
        if target is None or _supplies_type(target, root, resource, base, seen):
            return True  # an unresolved $ref is SCH-010's finding

    def typed(branch: Any) -> bool:
        return _supplies_type(branch, root, resource, base, seen)

    return _through_branches(schema, typed, typed)


def _typed_by_parent(node: Node, name: str, root: dict[str, Any]) -> bool:
    """A branch property that only refines one its enclosing object already types."""
    parent = node.parent
    if node.role != "branch" or parent is None:
        return False
    own = parent.schema.get("properties")
    return isinstance(own, dict) and _supplies_type(own.get(name), root, parent.resource, parent.base)


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
    `enum` or `const`, and no `$ref`, `anyOf`, `oneOf` or `allOf` that supplies
    one: every branch of an `anyOf`/`oneOf` must be typed, one `allOf` branch is
    enough. `"prop": {}` and `"prop": true` are the usual forms. Not reported: a
    property inside a `not`/`if` test, a branch property that only narrows one
    its parent object already types, and one whose description says it takes any
    value ("Any JSON value is accepted"), which is then a choice, not an omission.

    **Why.** The model has to guess whether to send a string, a number or an
    object, and the server accepts whatever comes. This rule is from the
    published tool-schema-lint checks; JSON Schema 2020-12 (Validation, section
    6.1) makes `type`, `enum` and `const` the keywords that restrict a value's kind.

    **Bad.** `"limit": {"description": "How many results"}`

    **Good.** `"limit": {"type": "integer", "minimum": 1, "maximum": 100,
    "description": "How many results"}`

    **Fix.** Give each property a `type` (or an `enum`/`const` of its values).
    """
    root = _root_of(tool)
    for node in nodes(tool):
        props = node.schema.get("properties")
        if not isinstance(props, dict) or node.condition:
            continue
        for name, sub in props.items():
            if _typed_by_parent(node, name, root):
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
    return _through_branches(
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
        kind = _unbounded(node)
        if kind == "string":
            yield Hit(node.pointer, f"{_where(node)} is a string with no maxLength", 'add "maxLength"')
        elif kind == "array":
            yield Hit(node.pointer, f"{_where(node)} is an array with no maxItems", 'add "maxItems"')


# --------------------------------------------------------------------------- SCH-005..008


@rule(
    "SCH-005",
    "input-schema-not-object",
    "critical",
    "underspecified",
    'inputSchema is missing, not an object, or its root type is not "object"',
)
def input_schema_not_object(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A tool with no `inputSchema`, an `inputSchema` that is not
    a JSON object (null, a list, a string, a boolean schema), or one whose root
    `type` is anything but the string `"object"`.

    **Why.** The MCP specification (2025-06-18 and 2025-11-25, Server features,
    Tools, "Tool") makes `inputSchema` required and a JSON Schema object with
    `type: "object"`, because tool arguments are always sent as a JSON object;
    several clients drop or reject a tool whose schema is anything else.

    **Bad.** `{"name": "ping", "description": "Check the server is up."}`

    **Good.** `{"name": "ping", "description": "Check the server is up.",
    "inputSchema": {"type": "object", "additionalProperties": false}}`

    **Fix.** Give every tool an object input schema, even when it takes no
    arguments.
    """
    pointer = join_pointer(tool.pointer, "inputSchema")
    schema = tool.input_schema
    if "inputSchema" not in tool.raw:
        yield Hit(pointer, "tool has no inputSchema", 'add "inputSchema": {"type": "object"}')
    elif not isinstance(schema, dict):
        yield Hit(pointer, f"inputSchema is {json_kind(schema)}, not an object")
    elif schema.get("type") != "object":
        what = "has no type" if "type" not in schema else f"has type {json.dumps(schema['type'])}"
        yield Hit(
            pointer + "/type" if "type" in schema else pointer,
            f'inputSchema {what}; the root type must be "object"',
            'set "type": "object" at the root',
        )


def _path_pointer(base: str, path: tuple[str | int, ...]) -> str:
    return join_pointer(base, *path)


@rule(
    "SCH-006",
    "invalid-json-schema",
    "critical",
    "brittle",
    "The input schema is not valid JSON Schema under its dialect",
)
def invalid_json_schema(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** An input schema that does not validate against the
    official meta-schema of its dialect: JSON Schema 2020-12 when it has no
    `$schema`, otherwise the dialect `$schema` names (2019-09, draft-07, draft-06
    and draft-04 are known). A `$schema` that names none of these is itself
    reported, and nothing else is checked against it. Each finding points at the
    offending keyword: `"type": "strin"`, `"required": "city"`, `"minLength": -1`.

    **Why.** The MCP specification (2025-11-25, Server features, Tools) reads a
    schema without `$schema` as JSON Schema 2020-12 (SEP-1613). Clients validate
    schemas before use: the Anthropic Messages API rejects a tool whose
    `input_schema` is not valid 2020-12, so one bad keyword can take every tool of
    the server out of a conversation.

    **Bad.** `{"type": "object", "properties": {"tags": {"type": "array",
    "items": [{"type": "string"}]}}}` (a draft-07 tuple under 2020-12)

    **Good.** `"items": {"type": "string"}` (or `"prefixItems"` for a tuple),
    or declare `"$schema": "http://json-schema.org/draft-07/schema#"`.

    **Fix.** Correct the keyword the finding points at, or declare the dialect
    the schema was written for.
    """
    found = input_schema_of(tool)
    if found is None:
        return
    schema, base = found
    d = dialect(tool)
    if d.name is None:
        yield Hit(base + "/$schema", d.problem or "unknown $schema", d.suggestion)
        return
    label = "JSON Schema " + d.name
    for error in schema_errors(schema, d.name):
        where = "/".join(str(p) for p in error.path) or "the root"
        yield Hit(_path_pointer(base, error.path), f"not valid {label} at {where}: {error.message}")


@rule(
    "SCH-007",
    "undeclared-required",
    "critical",
    "brittle",
    "required names a property that properties does not declare",
)
def undeclared_required(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A name in a `required` list that no `properties` of the
    same object declares. Names declared by the object's `allOf`/`anyOf`/`oneOf`
    branches (and, for a branch, by the object around it) count as declared, as do
    names matched by `patternProperties`; so the common
    `"anyOf": [{"required": ["id"]}, {"required": ["url"]}]` passes.

    **Why.** Usually a typo or a renamed argument. The model is told it must send
    an argument it was never described, and when `additionalProperties` is false
    no call can ever validate (JSON Schema 2020-12, Validation, section 6.5.3).

    **Bad.** `{"properties": {"city": {"type": "string"}}, "required": ["cty"]}`

    **Good.** `{"properties": {"city": {"type": "string"}}, "required": ["city"]}`

    **Fix.** Correct the name, or declare the property.
    """
    root = _root_of(tool)
    for node in nodes(tool):
        required = node.schema.get("required")
        if not isinstance(required, list):
            continue
        declared: set[str] | None = None
        for i, name in enumerate(required):
            if not isinstance(name, str):
                continue
            if declared is None:
                declared = property_names(node.schema, root) | node.inherited
            if name not in declared and not _pattern_declares(node.schema, name):
                yield Hit(
                    join_pointer(node.pointer, "required", i),
                    f"{_where(node)} requires {name!r}, which its properties do not declare",
                    _closest_hint(name, declared),
                )


def _pattern_declares(schema: dict[str, Any], name: str) -> bool:
    patterns = schema.get("patternProperties")
    if not isinstance(patterns, dict):
        return False
    # a pattern that cannot be read or run gets the benefit of the doubt
    return any(pattern_matches(pattern, name) is not False for pattern in patterns)


def _closest_hint(name: str, declared: set[str]) -> str | None:
    from difflib import get_close_matches

    close = get_close_matches(name, sorted(declared), n=1, cutoff=0.75)
    return f"did you mean {close[0]!r}?" if close else None


@rule(
    "SCH-008",
    "draft3-required",
    "critical",
    "brittle",
    "A property carries a boolean required or an optional keyword",
)
def draft3_required(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A property schema with `"required": true` (or false) or
    with an `optional` keyword.

    **Why.** Boolean `required` inside a property is JSON Schema draft 3; since
    draft 4 `required` is an array on the parent object, and `optional` was never a
    keyword. JSON Schema 2020-12 ignores both, so an argument the author believes
    is required is in fact optional, and the model is not told it must send it.

    **Bad.** `"city": {"type": "string", "required": true}`

    **Good.** `"required": ["city"]` on the object that holds `city`.

    **Fix.** Move the name into the parent object's `required` array and delete
    the property-level keyword.
    """
    for node in nodes(tool):
        if node.role != "property":
            continue
        s = node.schema
        if isinstance(s.get("required"), bool):
            yield Hit(
                node.pointer + "/required",
                f"property {node.name!r} has a boolean required (draft 3), which JSON Schema 2020-12 ignores",
                f"list {node.name!r} in the parent object's required array",
            )
        if "optional" in s:
            yield Hit(
                node.pointer + "/optional",
                f"property {node.name!r} has an optional keyword, which JSON Schema ignores",
                f"leave {node.name!r} out of the parent object's required array instead",
            )


# --------------------------------------------------------------------------- SCH-009..012


@rule(
    "SCH-009",
    "invalid-value",
    "critical",
    "brittle",
    "An enum is empty or repeats, or a default, const, example or enum value breaks its own schema",
)
def invalid_value(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** In any subschema: an empty `enum` (no value can ever
    validate), an `enum` that lists one value twice (JSON equality: `1` and `1.0`
    are the same value), or a `default`, `const`, `examples` entry or `enum` value
    that does not validate against the very schema it sits in (a string default
    on an integer, a default outside the enum, an example longer than `maxLength`).

    **Why.** Models copy defaults and examples into calls; a value that breaks
    its own schema teaches them a call that fails. JSON Schema 2020-12
    (Validation, section 6.1.2) says `enum` SHOULD have at least one element and
    its elements SHOULD be unique, and (Meta-data, sections 9.2 and 9.5)
    recommends that `default` and `examples` be valid against the schema they
    annotate.

    **Bad.** `"units": {"type": "string", "enum": ["metric", "imperial"],
    "default": "celsius"}`

    **Good.** `"units": {"type": "string", "enum": ["metric", "imperial"],
    "default": "metric"}`

    **Fix.** Correct the value, or the schema that rejects it.
    """
    d = dialect(tool)
    root = _root_of(tool)
    base = join_pointer(tool.pointer, "inputSchema")
    for node in nodes(tool):
        s = node.schema
        if _VALUED.isdisjoint(s):  # nothing here to check
            continue
        enum = s.get("enum")
        if isinstance(enum, list):
            if not enum:
                yield Hit(node.pointer + "/enum", f"{_where(node)} has an empty enum, so no value is valid")
            else:
                seen: dict[Any, int] = {}
                for i, value in enumerate(enum):
                    key = json_key(value)
                    if key in seen:
                        yield Hit(
                            join_pointer(node.pointer, "enum", i),
                            f"{_where(node)} lists {json.dumps(value)} twice in its enum",
                            "remove the repeat",
                        )
                    seen.setdefault(key, i)
        checks = _values_to_check(s)
        if not checks or d.name is None:
            continue
        validator: Any = None
        for pointer_part, what, value in checks:
            why = quick_problem(s, value)
            if why is None:
                if validator is None:
                    validator = value_validator(s, d.name, root, node.pointer[len(base) :]) or False
                why = problem(validator, value) if validator is not False else ""
            if why:
                yield Hit(node.pointer + pointer_part, f"{_where(node)}: {what} {_short(value)} {why}")


# Keywords whose values SCH-009 checks.
_VALUED = frozenset(("enum", "default", "const", "examples"))
# Keywords besides enum that can reject an enum value.
VALUE_KEYWORDS = frozenset(
    "type const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern "
    "maxItems minItems uniqueItems items prefixItems contains maxProperties minProperties required properties "
    "patternProperties additionalProperties propertyNames allOf anyOf oneOf not if $ref format".split()
)


def _values_to_check(s: dict[str, Any]) -> list[tuple[str, str, Any]]:
    out: list[tuple[str, str, Any]] = []
    if "default" in s:
        out.append(("/default", "default", s["default"]))
    if "const" in s and not VALUE_KEYWORDS.isdisjoint(k for k in s if k != "const"):
        out.append(("/const", "const", s["const"]))
    examples = s.get("examples")
    if isinstance(examples, list):
        out.extend((f"/examples/{i}", "example", v) for i, v in enumerate(examples))
    enum = s.get("enum")
    if isinstance(enum, list) and not VALUE_KEYWORDS.isdisjoint(s):
        out.extend((f"/enum/{i}", "enum value", v) for i, v in enumerate(enum))
    return out


def _short(value: Any, limit: int = 40) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@rule(
    "SCH-010",
    "unresolvable-ref",
    "critical",
    "brittle",
    "A $ref does not resolve inside the document, or points at a network URI",
)
def unresolvable_ref(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A `$ref` that names nothing inside the tool's own input
    schema (a missing `$defs` entry, a mistyped pointer, a file name), and a `$ref`
    to an `http(s)://` address that no `$id` in the document claims.

    **Why.** A tool's schema travels alone inside a `tools/list` response: there
    is no other document to resolve against. Clients must not fetch schemas from
    the network while listing tools (a privacy and availability risk, and many run
    offline), so an external reference is an argument the model cannot see. JSON
    Schema 2020-12 (Core, section 8.2.3.1) defines `$ref` resolution against the
    document's base URI.

    **Bad.** `"address": {"$ref": "#/$defs/Adress"}` with `$defs` holding `Address`;
    `"$ref": "https://example.com/schemas/address.json"`

    **Good.** `"address": {"$ref": "#/$defs/Address"}`, the definition inlined
    under `$defs`.

    **Fix.** Point the reference at a definition inside the schema, or inline it.
    """
    root = _root_of(tool)
    for node in nodes(tool):
        ref = node.schema.get("$ref")
        if not isinstance(ref, str):
            continue
        if resolve(root, ref, node.resource, node.base) is not None:
            continue
        if is_network(ref):
            yield Hit(
                node.pointer + "/$ref",
                f"$ref {ref!r} points at a network address; clients must not fetch it",
                "copy the definition under $defs and point at it with #/$defs/...",
            )
        elif ref.startswith("#") or not has_scheme(ref):
            yield Hit(node.pointer + "/$ref", f"$ref {ref!r} does not resolve inside the schema")
        else:
            yield Hit(node.pointer + "/$ref", f"$ref {ref!r} names a document that is not part of the schema")


@rule(
    "SCH-011",
    "opaque-structure",
    "warning",
    "underspecified",
    "An array has no items, or an object property has no properties nor additionalProperties schema",
)
def opaque_structure(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** An array schema with neither `items` nor `prefixItems`,
    and an object-typed argument (a property or an array's items) with no
    `properties`, `patternProperties` or `additionalProperties` schema:
    `additionalProperties: true` and `{}` say "anything", which leaves the agent
    guessing just as much. A schema that gets its shape elsewhere (`$ref`,
    `anyOf`, `oneOf`, `allOf`) passes, and so does a `type` that lists every JSON
    type (any value, on purpose).

    **Why.** The model sees "an array" or "an object" and must guess what goes
    inside; its guess fails validation on the server, or worse, passes and is
    misread. Describing the elements (JSON Schema 2020-12, Applicator, sections
    10.3.1.2 and 10.3.2) turns that guess into a contract.

    **Bad.** `"tags": {"type": "array"}`; `"filter": {"type": "object"}`

    **Good.** `"tags": {"type": "array", "items": {"type": "string"}}`;
    `"filter": {"type": "object", "properties": {"status": {"type": "string"}}}`

    **Fix.** Describe the elements with `items`, and the members with
    `properties` (or `additionalProperties: {schema}` for a map).
    """
    for node in nodes(tool):
        s = node.schema
        if node.condition or not _SHAPED.isdisjoint(s):
            continue
        kinds = types_of(s)
        if _ANY_JSON <= kinds:
            continue  # every JSON type listed: "any value", on purpose
        if "array" in kinds and "items" not in s and "prefixItems" not in s:
            yield Hit(node.pointer, f"{_where(node)} is an array with no items schema", 'add "items": {...}')
        elif (
            "object" in kinds
            and node.role in ("property", "items")
            and not any(k in s for k in ("properties", "patternProperties"))
            and not _is_map(s)
            and s.get("additionalProperties") is not False
        ):
            yield Hit(
                node.pointer,
                f"{_where(node)} is an object with no properties or additionalProperties schema",
                'add "properties" (or "additionalProperties": {schema} for a map)',
            )


KEYWORDS = frozenset(
    """
    $schema $id $ref $anchor $dynamicRef $dynamicAnchor $vocabulary $comment $defs $recursiveRef $recursiveAnchor
    definitions dependencies id
    allOf anyOf oneOf not if then else dependentSchemas prefixItems items contains additionalItems
    properties patternProperties additionalProperties propertyNames unevaluatedItems unevaluatedProperties
    type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern
    maxItems minItems uniqueItems maxContains minContains maxProperties minProperties required dependentRequired
    title description default deprecated readOnly writeOnly examples format
    contentEncoding contentMediaType contentSchema
    """.split()
)
# Keywords of neighbouring specifications that are deliberate, not misspelt.
FOREIGN = frozenset({"example", "nullable", "discriminator", "xml", "externalDocs", "enumNames"})
_LOWER = {k.lower(): k for k in KEYWORDS}


def _norm(word: str) -> str:
    w = word.lower().replace("_", "").replace("-", "")
    if w.endswith("ies"):
        return w[:-3] + "y"
    return w[:-1] if w.endswith("s") and len(w) > 3 else w


_NORMAL = {}
for _k in sorted(KEYWORDS):
    _NORMAL.setdefault(_norm(_k), _k)


def _distance(a: str, b: str, limit: int) -> int:
    """Damerau-Levenshtein (optimal string alignment) distance, or limit + 1 when above limit."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


def misspelt_keyword(word: str) -> str | None:
    """The real keyword an unknown one probably means, or None."""
    if word in KEYWORDS or word in FOREIGN or word.startswith(("x-", "x_")):
        return None
    lower = word.lower()
    if lower in _LOWER:
        return _LOWER[lower]
    normal = _NORMAL.get(_norm(word))
    if normal is not None:
        return normal
    if len(word) < 5:
        return None
    limit = 2 if len(word) >= 9 else 1
    best = min(KEYWORDS, key=lambda k: (_distance(lower, k.lower(), limit), k))
    return best if _distance(lower, best.lower(), limit) <= limit else None


@rule(
    "SCH-012",
    "misspelt-keyword",
    "warning",
    "brittle",
    "An unknown keyword looks like a misspelling of a real one",
)
def misspelt_keyword_rule(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A key in a schema object that is not a JSON Schema
    keyword of any dialect but is one edit (two for long words), a case change, or
    a singular/plural away from one: `descripton`, `requried`, `enums`,
    `maxlength`, `additionalProperty`. Keys of `properties` and `$defs` are names,
    not keywords, and are not checked; nor are `x-` extensions and the OpenAPI
    keywords `example`, `nullable` and `discriminator`.

    **Why.** JSON Schema 2020-12 (Core) treats a keyword it does not know as an
    annotation that asserts nothing, so a misspelt one fails silently: `"maxlength": 100` bounds nothing and
    `"requried": ["city"]` requires nothing.

    **Bad.** `"city": {"type": "string", "descripton": "City name"}`

    **Good.** `"city": {"type": "string", "description": "City name"}`

    **Fix.** Spell the keyword as the specification does; keywords are
    case-sensitive.
    """
    for node in nodes(tool):
        for key in node.schema:
            if key in KEYWORDS:
                continue
            meant = misspelt_keyword(key)
            if meant is not None:
                yield Hit(
                    join_pointer(node.pointer, key),
                    f"{_where(node)} has unknown keyword {key!r}; JSON Schema ignores it (did you mean {meant!r}?)",
                    f"rename it to {meant!r}",
                )


# --------------------------------------------------------------------------- SCH-013..014

OUTPUT_OBJECT_UNTIL = "2025-11-25"
OUTPUT_RELAXED_IN = "2026-07-28"


@rule(
    "SCH-013",
    "invalid-output-schema",
    "critical",
    "missing_return_format",
    "outputSchema is present but is not a valid JSON Schema object",
)
def invalid_output_schema(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** An `outputSchema` that is not a JSON object, or that does
    not validate against its dialect's meta-schema (as SCH-006 does for the input
    schema). An output schema whose root `type` is not `"object"` is reported as a
    warning: the MCP specification required an object root up to revision
    2025-11-25 (Server features, Tools, "Output Schema"), and revision 2026-07-28
    relaxed it (see SEP-2106), so clients written for the older revisions reject it.

    **Why.** The MCP specification (2025-06-18 and later, Server features, Tools,
    "Output Schema") has servers conform `structuredContent` to `outputSchema` and
    clients SHOULD validate against it; an invalid schema makes every structured
    result fail, or makes the client drop the tool.

    **Bad.** `"outputSchema": {"type": "object", "properties": {"temp":
    {"type": "float"}}}`

    **Good.** `"outputSchema": {"type": "object", "properties": {"temp":
    {"type": "number"}}, "required": ["temp"]}`

    **Fix.** Correct the keyword the finding points at; wrap a non-object result
    in an object (`{"result": ...}`) for clients of the older revisions.
    """
    if "outputSchema" not in tool.raw:
        return
    schema = tool.raw["outputSchema"]
    base = join_pointer(tool.pointer, "outputSchema")
    if not isinstance(schema, dict):
        yield Hit(base, f"outputSchema is {json_kind(schema)}, not a JSON Schema object")
        return
    d = dialect_of(schema)
    if d.name is None:
        yield Hit(base + "/$schema", d.problem or "unknown $schema", d.suggestion)
    else:
        for error in schema_errors(schema, d.name):
            where = "/".join(str(p) for p in error.path) or "the root"
            yield Hit(
                _path_pointer(base, error.path),
                f"outputSchema is not valid JSON Schema {d.name} at {where}: {error.message}",
            )
    if schema.get("type") != "object":
        what = "has no root type" if "type" not in schema else f"has root type {json.dumps(schema['type'])}"
        yield Hit(
            base + "/type" if "type" in schema else base,
            f'outputSchema {what}; MCP up to {OUTPUT_OBJECT_UNTIL} requires "object" '
            f"(relaxed in {OUTPUT_RELAXED_IN}), so older clients reject it",
            'wrap the result in an object with "type": "object"',
            Severity.WARNING,
        )


@rule(
    "SCH-014",
    "property-name-rejected",
    "warning",
    "brittle",
    "A property name falls outside ^[a-zA-Z0-9_.-]{1,64}$, which common clients reject",
)
def property_name_rejected(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A property name (at any depth) that is empty, longer than
    64 characters, or uses a character other than ASCII letters, digits, `_`, `.`
    and `-`: spaces, `$`, `@`, `/`, non-ASCII letters.

    **Why.** The Anthropic Messages API requires `input_schema` property keys to
    match `^[a-zA-Z0-9_.-]{1,64}$` and refuses the request otherwise, and other
    clients map arguments onto identifiers with similar limits; one such name
    can keep the whole server's tools out of a request.

    **Bad.** `"properties": {"user name": {"type": "string"}}`

    **Good.** `"properties": {"user_name": {"type": "string"}}`

    **Fix.** Rename the property to letters, digits, `_`, `.` or `-`, at most 64
    characters.
    """
    for node in nodes(tool):
        props = node.schema.get("properties")
        if not isinstance(props, dict):
            continue
        for name in props:
            if PROPERTY_NAME.fullmatch(name) is None:
                why = "is empty" if not name else ("is over 64 characters" if len(name) > 64 else "has characters")
                yield Hit(
                    join_pointer(node.pointer, "properties", name),
                    f"property name {name!r} {why} outside [a-zA-Z0-9_.-]{{1,64}}, which common clients reject"
                    if why == "has characters"
                    else f"property name {name!r} {why}; common clients require [a-zA-Z0-9_.-]{{1,64}}",
                )
