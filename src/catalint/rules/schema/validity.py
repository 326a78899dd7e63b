"""SCH-005..008, SCH-010, SCH-013: schemas that are invalid, or that a client reads otherwise than meant."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from catalint.loader import json_kind
from catalint.metaschema import (
    dialect_of,
    pattern_matches,
    regex_problem,
    schema_errors,
)
from catalint.model import Severity, Tool
from catalint.registry import Hit, option, rule
from catalint.rules.schema.common import (
    dialect,
    input_schema_of,
    nodes,
    reference_keywords,
    referrers,
    root_of,
    used_nodes,
    where_of,
)
from catalint.schema_walk import Node, has_scheme, is_network, property_names, resolve, walk
from catalint.sourcemap import join_pointer


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
    offending keyword: `"type": "strin"`, `"required": "city"`, `"minLength": -1`,
    also inside an array's `items` schema before 2020-12 (where the meta-schema's
    "a schema or an array of them" would place every mistake in it at `items`).
    A property's boolean `required` (draft 3) is left to SCH-008 when that rule
    is on, so it is reported once.
    A `pattern` or `patternProperties` name must be an ECMA-262 regular
    expression (Validation, section 6.3.3): one that neither reading accepts,
    with the `u` flag or without (`"(abc"`, `"a**"`, Python's `(?P<name>...)`),
    is reported at the keyword, alike in every dialect (draft-07 included, whose
    meta-schema's `format: regex` is read so, as a `format` is from 2019-09 on: a
    lone `]`, valid without the `u` flag, passes). ECMA syntax that Python's `re` lacks (`\\p{L}`, `(?<name>...)`,
    `\\u{1F600}`) is valid. The syntax is read by regress, an ECMA-262 engine
    (nothing is run); a pattern of over 10,000 characters is not read. A valid
    pattern too big to compile (`\\p{L}{65535}`) is not reported here: the rules
    that run patterns leave it out (SCH-007, SCH-009).

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
    left: set[str] | None = None  # the pointers whose errors SCH-008 reports, found on first need
    for error in schema_errors(schema, d.name):
        pointer = _path_pointer(base, error.path)
        if error.path and error.path[-1] == "required":
            if left is None:
                left = _draft3_pointers(tool) if "SCH-008" in option("rules", ()) else set()
            if pointer in left:
                continue  # a property's boolean required: SCH-008 says what it means
        where = "/".join(str(p) for p in error.path) or "the root"
        yield Hit(pointer, f"not valid {label} at {where}: {error.message}")
    for pointer, message in regex_errors(nodes(tool), base):
        yield Hit(pointer, f"not valid {label} at {message}")


def _draft3_pointers(tool: Tool) -> set[str]:
    """Where SCH-008 reports a property's boolean `required`."""
    return {node.pointer + "/required" for node in used_nodes(tool) if _draft3_required(node)}


def _draft3_required(node: Node) -> bool:
    return node.role == "property" and isinstance(node.schema.get("required"), bool)


def regex_errors(walked: list[Node], base: str) -> Iterator[tuple[str, str]]:
    """Each `pattern` and `patternProperties` name that is no ECMA-262 regular expression: its pointer, and
    where it is (relative to base) with why."""
    for node in walked:
        s = node.schema
        pattern = s.get("pattern")
        if type(pattern) is str and (why := regex_problem(pattern)):
            at = node.pointer + "/pattern"
            yield at, f"{at[len(base) + 1 :]}: {_regex_message(pattern, why)}"
        patterns = s.get("patternProperties")
        if type(patterns) is dict:
            for pattern in patterns:
                if why := regex_problem(pattern):
                    at = join_pointer(node.pointer, "patternProperties", pattern)
                    yield at, f"{at[len(base) + 1 :]}: {_regex_message(pattern, why)}"


_ENCODE = json.JSONEncoder(default=str).encode


def _may_hold_patterns(schema: dict[str, Any]) -> bool:
    """Whether a schema has a `pattern` or `patternProperties` key anywhere (True when it cannot tell)."""
    try:
        return '"pattern' in _ENCODE(schema)
    except (TypeError, ValueError, RecursionError):
        return True


def _regex_message(pattern: str, why: str) -> str:
    hint = " (Python's (?P<name>...) is (?<name>...) in ECMA-262)" if "(?P<" in pattern else ""
    return f"{json.dumps(pattern)} is not an ECMA-262 regular expression: {why}{hint}"


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
    names matched by `patternProperties` and, in an object that takes other
    properties, names its `propertyNames` lists in an `enum` or `const` (a map
    with fixed keys, as zod 4 writes `z.record(z.enum([...]), ...)`); so the common
    `"anyOf": [{"required": ["id"]}, {"required": ["url"]}]` passes. So does a
    definition that every `$ref` to it applies to an object declaring the name
    (a mixin: `"allOf": [{"$ref": "#/$defs/NeedsId"}]` with `NeedsId` holding
    only `"required": ["id"]`; a `$ref` inside an unused definition does not
    count). Nothing inside an unused definition (a `$defs`/`definitions` entry
    that no `$ref` reaches from the root) is reported: no value is ever validated
    against it. A `patternProperties` pattern is run by jsonschema-rs's engine,
    compiled once however many names it is tried on; one that cannot be read, or
    that compiles only past 1 MiB (`^\\p{L}{65535}$`, README: Limits), is not run,
    and the names it might match count as declared.

    **Why.** Usually a typo or a renamed argument. The model is told it must send
    an argument it was never described, and when `additionalProperties` is false
    no call can ever validate (JSON Schema 2020-12, Validation, section 6.5.3).

    **Bad.** `{"properties": {"city": {"type": "string"}}, "required": ["cty"]}`

    **Good.** `{"properties": {"city": {"type": "string"}}, "required": ["city"]}`

    **Fix.** Correct the name, or declare the property.
    """
    root = root_of(tool)
    for node in used_nodes(tool):
        required = node.schema.get("required")
        if type(required) is not list:
            continue
        own = node.schema.get("properties")
        own = own if type(own) is dict else {}
        declared: set[str] | frozenset[str] | None = None
        left: list[tuple[int, str]] = []
        for i, name in enumerate(required):
            if type(name) is not str or name in own:  # a property of its own: declared, the common case
                continue
            if declared is None:
                declared = _declared_at(node, root)
            if name not in declared and not _keys_declare(node.schema, name):
                left.append((i, name))
        if not left:
            continue
        left = _unmatched(node.schema, left)
        if not left:
            continue
        users = referrers(tool).get(id(node.schema))
        theirs = [_declared_at(user, root) for user in users] if users else []  # once a node, not once a name
        # did-you-mean: the declared names sorted once, for the first MAX_HINTS names (1,000 undeclared names
        # against 10,000 declared took 20 s)
        known = sorted(declared or ()) if len(declared or ()) <= MAX_HINT_NAMES else []
        said = 0
        for i, name in left:
            if theirs and all(name in names for names in theirs):
                continue  # a mixin (`allOf: [{"$ref": ...}]`): every object that applies it declares the name
            said += 1
            yield Hit(
                join_pointer(node.pointer, "required", i),
                f"{where_of(node)} requires {name!r}, which its properties do not declare",
                _closest_hint(name, known) if said <= MAX_HINTS else None,
            )


def _declared_at(node: Node, root: dict[str, Any]) -> set[str] | frozenset[str]:
    """The property names an object sees where node applies to it: node's own and its branches', and for a
    branch those of the object around it."""
    return property_names(node.schema, root, node.resource, node.base) | node.inherited


def _keys_declare(schema: dict[str, Any], name: str) -> bool:
    """Whether the object takes other properties and its propertyNames lists name (zod 4's
    z.record(z.enum([...]), V), a map with fixed keys)."""
    keys = schema.get("propertyNames")
    if isinstance(keys, dict) and schema.get("additionalProperties") is not False:
        enum = keys.get("enum")
        if (isinstance(enum, list) and name in enum) or ("const" in keys and keys["const"] == name):
            return True
    return False


def _unmatched(schema: dict[str, Any], left: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The names of left that no patternProperties pattern matches. A pattern that cannot be read or run
    gets the benefit of the doubt. Each pattern is tried on every name in turn, so it is compiled once a
    node however many patterns there are (name by name, 33 patterns cycled through a cache of 32: 2,000
    names against 2,000 patterns took 190 s)."""
    patterns = schema.get("patternProperties")
    if not isinstance(patterns, dict):
        return left
    if len(left) * len(patterns) > MAX_PATTERN_TESTS:
        return []  # too many to try: every name gets the benefit of the doubt, as for a pattern not run
    for pattern in patterns:
        left = [(i, name) for i, name in left if pattern_matches(pattern, name) is False]
        if not left:
            break
    return left


# Names tried against patternProperties patterns, at most, in one object (README: Limits): 2,000 names
# against 2,000 patterns, 4 million tries, take over a second.
MAX_PATTERN_TESTS = 250_000


MAX_HINTS = 100  # undeclared names of one object given a did-you-mean, at most
MAX_HINT_NAMES = 2000  # declared names a hint is looked for among, at most


def _closest_hint(name: str, known: list[str]) -> str | None:
    from difflib import get_close_matches

    close = get_close_matches(name, known, n=1, cutoff=0.75) if known else []
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
    with an `optional` keyword. Not inside an unused definition (a
    `$defs`/`definitions` entry that no `$ref` reaches from the root), which
    holds no argument; SCH-006 still reports a boolean `required` there, as no
    dialect since draft 4 allows one. Where this rule reports a boolean
    `required`, SCH-006 leaves it out when this rule is on, so it is reported
    once; with this rule off, SCH-006 reports it as an invalid keyword.

    **Why.** Boolean `required` inside a property is JSON Schema draft 3; since
    draft 4 `required` is an array on the parent object, so a boolean one is
    invalid in the schema's dialect (the message names it), and `optional` was
    never a keyword. A client either rejects the schema or ignores both, so an
    argument the author believes is required is in fact optional, and the model
    is not told it must send it.

    **Bad.** `"city": {"type": "string", "required": true}`

    **Good.** `"required": ["city"]` on the object that holds `city`.

    **Fix.** Move the name into the parent object's `required` array and delete
    the property-level keyword.
    """
    name = dialect(tool).name
    invalid = f"is not valid JSON Schema {name}" if name else "no JSON Schema dialect since draft 4 allows"
    for node in used_nodes(tool):
        if node.role != "property":
            continue
        s = node.schema
        if _draft3_required(node):
            yield Hit(
                node.pointer + "/required",
                f"property {node.name!r} has a boolean required (draft 3), which {invalid}: a client rejects the "
                f"schema or ignores the keyword, so {node.name!r} is not required",
                f"list {node.name!r} in the parent object's required array",
            )
        if "optional" in s:
            yield Hit(
                node.pointer + "/optional",
                f"property {node.name!r} has an optional keyword, which JSON Schema ignores",
                f"leave {node.name!r} out of the parent object's required array instead",
            )


@rule(
    "SCH-010",
    "unresolvable-ref",
    "critical",
    "brittle",
    "A $ref does not resolve inside the document, or points at a network URI",
)
def unresolvable_ref(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A `$ref` (or a 2020-12 `$dynamicRef`, which first resolves
    as a `$ref` does) that names nothing inside the tool's own input
    schema (a missing `$defs` entry, a mistyped pointer, a file name, an anchor
    that only an embedded resource with its own `$id` holds: `#foo` from outside
    it does not reach it), and a `$ref` to an `http(s)://` address that no `$id`
    in the document claims.

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
    root = root_of(tool)
    keys = reference_keywords(dialect(tool).name)
    for node in nodes(tool):
        for key in keys:
            ref = node.schema.get(key)
            if not isinstance(ref, str) or resolve(root, ref, node.resource, node.base) is not None:
                continue
            at = f"{node.pointer}/{key}"
            if is_network(ref):
                yield Hit(
                    at,
                    f"{key} {ref!r} points at a network address; clients must not fetch it",
                    "copy the definition under $defs and point at it with #/$defs/...",
                )
            elif ref.startswith("#") or not has_scheme(ref):
                yield Hit(at, f"{key} {ref!r} does not resolve inside the schema")
            else:
                yield Hit(at, f"{key} {ref!r} names a document that is not part of the schema")


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
        if _may_hold_patterns(schema):
            for pointer, message in regex_errors(walk(schema, base, "the output schema"), base):
                yield Hit(pointer, f"outputSchema is not valid JSON Schema {d.name} at {message}")
    if schema.get("type") != "object":
        what = "has no root type" if "type" not in schema else f"has root type {json.dumps(schema['type'])}"
        yield Hit(
            base + "/type" if "type" in schema else base,
            f'outputSchema {what}; MCP up to {OUTPUT_OBJECT_UNTIL} requires "object" '
            f"(relaxed in {OUTPUT_RELAXED_IN}), so older clients reject it",
            'wrap the result in an object with "type": "object"',
            Severity.WARNING,
        )
