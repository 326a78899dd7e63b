"""SCH-001, SCH-002, SCH-011: objects that promise no argument, accept any extra field, or hide their shape."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from catalint.model import Tool
from catalint.registry import Hit, rule
from catalint.rules.schema.common import (
    ANNOTATIONS,
    BEFORE_2019,
    dialect,
    every_use,
    is_map,
    root_of,
    through_branches,
    used_nodes,
    where_of,
)
from catalint.schema_walk import Node, resolve, types_of


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
    `properties` but has no `required` keyword at all: not its own, nor in an
    `allOf`/`anyOf`/`oneOf` branch it applies (`"anyOf": [{"required": ["id"]},
    {"required": ["url"]}]` says what is required) or the schema its `$ref`
    names. A branch that refines its parent object (every `allOf` branch, and
    the other branches of an object that declares properties itself or closes
    with `unevaluatedProperties: false`, as SCH-002 reads them) is not reported:
    the parent's `required` speaks for it. Nor is anything inside an unused
    definition, a `$defs`/`definitions` entry that no `$ref` reaches from the
    root (see Schemas in the README): no argument is ever validated against it.

    **Why.** Without `required`, every argument is optional as far as the client
    and the model know, so the server cannot rely on any of them being sent, and
    the model cannot tell which ones it must fill in. This is the first rule of the
    published tool-schema-lint checks this project follows. A tool whose arguments
    are all optional says so with `"required": []`, which passes; so does an
    object whose every property declares a `default` or says in its description
    that it may be left out ("Optional repository owner", "(Optional, default
    true)", "If omitted, the chooser is cancelled"), which says as much already
    (and generators such as Pydantic, zod and Go's leave an empty `required` out).

    **Bad.** `{"type": "object", "properties": {"city": {"type": "string"}}}`

    **Good.** `{"type": "object", "properties": {"city": {"type": "string"}},
    "required": ["city"]}`

    **Fix.** List the arguments the tool cannot work without in `required`; write
    `"required": []` when every argument really is optional.
    """
    root = root_of(tool)
    for node in used_nodes(tool):
        props = node.schema.get("properties")
        if isinstance(props, dict) and props and "required" not in node.schema and not node.condition:
            if all(isinstance(p, dict) and ("default" in p or _said_optional(p)) for p in props.values()):
                continue  # every argument has a default or says it may be left out: optional, and said to be
            if _refines_parent(node) or _requires_through_subschemas(node, root):
                continue
            yield Hit(
                node.pointer + "/required",
                f"{where_of(node)} declares properties but no required list",
                'add "required": [...] naming the arguments the tool needs (or [] if none)',
            )


# A description that says its argument may be left out: "Optional repository owner", "Optional: only this topic",
# "(Optional, default true)", "... (optional). Default: Now", "If omitted, ...", "If not provided, ...".
_SAID_OPTIONAL = re.compile(
    r"^\W*optional\b|\(optional\b|\boptional\s*[),.;:]|\b(?:if|when)\s+(?:omitted|left\s+out"
    r"|not\s+(?:provided|given|specified|set|passed|supplied))\b",
    re.IGNORECASE,
)


# ... unless it also says it may not: "Required, not optional", "Non-optional: ...", or what leaving it out does is
# a failure ("If not given, the request is rejected with an error", "when not set the call fails").
_SAID_NEEDED = re.compile(r"\bnot\s+optional\b|\bnon-?optional\b|\bmandatory\b|^\W*required\b", re.IGNORECASE)
_FAILS = re.compile(r"\berrors?\b|\bfail(?:s|ed)?\b|\breject(?:s|ed)?\b|\brequired\b", re.IGNORECASE)


def _said_optional(schema: dict[str, Any]) -> bool:
    """Whether a property's description says it may be left out, and nothing that says it may not."""
    text = schema.get("description")
    if not isinstance(text, str):
        return False
    low = text.lower()  # most descriptions say none of it: substring tests in C first
    if "optional" not in low and "omitted" not in low and "left out" not in low and "not " not in low:
        return False
    if _SAID_NEEDED.search(text):
        return False
    for found in _SAID_OPTIONAL.finditer(text):
        clause = text[found.end() : found.end() + 200].split(".")[0]  # what follows, to the end of the sentence
        if not _FAILS.search(clause):
            return True
    return False


def _requires_through_subschemas(node: Node, root: dict[str, Any]) -> bool:
    """A `required` in what the object applies: an allOf/anyOf/oneOf branch (`"anyOf": [{"required": ["id"]},
    {"required": ["url"]}]`) or the schema its `$ref` names."""
    s = node.schema
    for key in ("allOf", "anyOf", "oneOf"):
        branches = s.get(key)
        if isinstance(branches, list) and any(isinstance(b, dict) and "required" in b for b in branches):
            return True
    if "$ref" in s:
        target = resolve(root, s["$ref"], node.resource, node.base)
        return isinstance(target, dict) and "required" in target
    return False


def _closed(schema: dict[str, Any], dialect: str | None) -> bool:
    if schema.get("additionalProperties", True) is False:
        return True
    # unevaluatedProperties exists from 2019-09 on; draft-07 and older ignore it
    return dialect not in BEFORE_2019 and schema.get("unevaluatedProperties", True) is False


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
    if _closed(schema, dialect) or is_map(schema, dialect):
        return True
    if "$ref" in schema and _closes(resolve(root, schema["$ref"], node.resource, node.base), root, node, dialect, seen):
        return True

    def closes(branch: Any) -> bool:
        return _closes(branch, root, node, dialect, seen)

    return through_branches(schema, closes, closes)


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
    not closed with `unevaluatedProperties: false` either). A nested object with
    no properties listed (`"properties": {}` or none) is "any object", which
    closing would turn into "only {}": SCH-011 speaks of those.

    **Why.** An open object accepts any extra field without complaint: a model that
    misspells an argument (`cty` for `city`) gets no validation error and the
    server silently ignores what it meant. The MCP specification (2025-11-25,
    Server features, Tools) recommends `{"type": "object", "additionalProperties":
    false}` as the input schema of a tool that takes no arguments; this rule is
    from the published tool-schema-lint checks.

    Not reported: an object whose `additionalProperties` (or, from 2019-09 on,
    `unevaluatedProperties`) is a schema that
    constrains the values (a deliberate map such as headers: string to string;
    one of annotations only, such as `{"description": "..."}`, takes any value
    as `true` does, and is reported); an object closed through
    what it applies (a `$ref` to a closed schema, every `anyOf`/`oneOf` branch
    closed, or one `allOf` branch closed); a branch that refines its
    parent (every `allOf` branch, and the `anyOf`/`oneOf`/`if`/`then`/`else`
    branches of an object that declares properties itself or closes with
    `unevaluatedProperties: false`), since closing it would reject the parent's own
    properties: close the parent instead (the same goes for a `$defs` entry that
    every `$ref` to it applies as such a branch: `"allOf": [{"$ref":
    "#/$defs/Paging"}]` beside `unevaluatedProperties: false`); and schemas inside a `not`, `if`,
    `contains` or `propertyNames`, which test values rather than describe them.
    `unevaluatedProperties: false` closes an object from 2019-09 on; draft-07 and
    older ignore it. Nothing inside an unused definition (a `$defs`/`definitions`
    entry that no `$ref` reaches from the root) is reported, as no argument is
    ever validated against it; nor does a `$ref` written there count as applying
    a definition.

    **Bad.** `{"type": "object", "properties": {"city": {"type": "string"}},
    "required": ["city"]}`

    **Good.** the same with `"additionalProperties": false`

    **Fix.** Add `"additionalProperties": false` to each object schema whose
    properties are all listed.
    """
    d = dialect(tool).name
    root = root_of(tool)
    for node in used_nodes(tool):
        s = node.schema
        if node.role == "root":
            candidate = "type" not in s or node.is_object()
        else:  # the cheap test first: most nodes have no properties; `properties: {}` lists none either
            props = s.get("properties")
            candidate = isinstance(props, dict) and bool(props) and node.is_object()
        if candidate and not node.condition and not _refines_parent(node):
            if (
                not _closed(s, d)
                and not is_map(s, d)
                and not _closed_by_subschemas(s, root, node, d)
                and not _a_base(node, tool)
            ):
                where = node.pointer + "/additionalProperties" if "additionalProperties" in s else node.pointer
                yield Hit(
                    where,
                    f"{where_of(node)} accepts unexpected fields (additionalProperties is not false)",
                    'add "additionalProperties": false',
                )


def _a_base(node: Node, tool: Tool) -> bool:
    """A definition that every `$ref` to it applies as a refining branch (`"allOf": [{"$ref":
    "#/$defs/Paging"}]`): closing it would reject the properties written beside it."""
    if node.role != "defs" or id(node.schema) not in _branch_targets(tool):
        return False  # no branch applies it: the common case, told without resolving every $ref
    return every_use(tool, node, _refines_parent)


def _branch_targets(tool: Tool) -> set[int]:
    """The ids of the subschemas that a branch's `$ref` names."""
    cached = tool.cache.get("sch002_branch_targets")
    if cached is None:
        root = root_of(tool)
        cached = tool.cache["sch002_branch_targets"] = {
            id(resolve(root, n.schema["$ref"], n.resource, n.base))
            for n in used_nodes(tool)
            if n.role == "branch" and "$ref" in n.schema
        }
    return cached


_SHAPED = frozenset(("$ref", "anyOf", "oneOf", "allOf", "enum", "const"))


_ANY_JSON = frozenset(("string", "number", "boolean", "object", "array", "null"))


@rule(
    "SCH-011",
    "opaque-structure",
    "warning",
    "underspecified",
    "An array has no items, or an object property has no properties nor additionalProperties schema",
)
def opaque_structure(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** An array schema with neither `items` nor `prefixItems`
    (an `items` of `true`, `{}` or annotations only takes any value, and counts
    as none; `items: false`, only `[]`, says enough), and an object-typed
    argument with no `properties`, `patternProperties` (an empty one of
    either lists no member) or `additionalProperties` schema
    (`unevaluatedProperties` serves as well from 2019-09 on):
    `additionalProperties: true`, `{}` and a schema of annotations only
    (`{"description": "..."}`) say "anything", which leaves the agent guessing
    just as much. An argument is a property, an array's items, an
    `anyOf`/`oneOf` alternative of one (Pydantic's `dict | None` is
    `anyOf: [{"type": "object", "additionalProperties": true}, {"type": "null"}]`),
    or a `$defs` entry one of these refers to. A schema that gets its shape
    elsewhere (`$ref`, `anyOf`, `oneOf`, `allOf`) passes, as does a branch that
    narrows an object with a shape of its own (every `allOf` branch, and the
    `anyOf`/`oneOf` branches of an object with `properties`,
    `patternProperties`, `additionalProperties` or `unevaluatedProperties`), and
    a `type` that lists every JSON type (any value, on purpose). So does an
    object that is itself a JSON Schema, named `schema`, `jsonSchema`, `...Schema` or
    `..._schema` (an extraction tool's `schema`, a `responseSchema`) or
    described as one ("a JSON Schema the result must follow"): any schema is its
    shape, which no tool should spell out. Nothing inside an
    unused definition (a `$defs`/`definitions` entry that no `$ref` reaches from
    the root) is reported: the agent never fills it in, and a `$ref` written there
    makes no argument of the entry it names.

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
    arguments: set[int] | None = None  # the $defs entries that stand for an argument, found on first need
    for node in used_nodes(tool):
        s = node.schema
        declared = s.get("type")
        if declared is None or (type(declared) is str and declared != "array" and declared != "object"):
            continue  # no type, or a scalar one: nothing inside to describe (the common case)
        if node.condition or not _SHAPED.isdisjoint(s):
            continue
        kinds = types_of(s)
        if _ANY_JSON <= kinds:
            continue  # every JSON type listed: "any value", on purpose
        items = s.get("items", ...)
        if "array" in kinds and "prefixItems" not in s and _says_nothing(items):
            said = ""
            if items is True or items == {}:
                said = f" (items: {json.dumps(items)} takes any value)"
            elif items is not ...:
                said = " (an items schema of annotations only takes any value)"
            yield Hit(node.pointer, f"{where_of(node)} is an array with no items schema{said}", 'add "items": {...}')
        elif (
            "object" in kinds
            and not s.get("properties")  # `properties: {}` lists no member either
            and not s.get("patternProperties")
            and s.get("additionalProperties") is not False
            and not _members_said(s, tool)
        ):
            if _is_a_json_schema(node):
                continue
            if node.role not in ("property", "items"):
                top = _alternative_of(node)
                if top is None or (top.role != "property" and top.role != "items" and top.role != "defs"):
                    continue
                if top.role == "defs":
                    if arguments is None:
                        arguments = _argument_defs(tool)
                    if id(top.schema) not in arguments:
                        continue
            extra = s.get("additionalProperties", None)
            said = ""
            if extra is True or extra == {}:
                said = f" (additionalProperties: {json.dumps(extra)} takes any field)"
            elif isinstance(extra, dict):
                said = " (an additionalProperties of annotations only takes any field)"
            yield Hit(
                node.pointer,
                f"{where_of(node)} is an object that lists no properties and gives no additionalProperties schema"
                + said,
                'add "properties" (or "additionalProperties": {schema} for a map)',
            )


def _is_a_json_schema(node: Node) -> bool:
    """An argument that is itself a JSON Schema (an extraction tool's `schema`, a `responseSchema`): any schema
    is its shape, which no tool should spell out. Told by its name, or by its description."""
    name = node.name if node.role == "property" else None
    if name and (
        name.lower() in _SCHEMA_NAMES
        or name.lower().endswith(("_schema", "-schema"))
        or (name.endswith("Schema") and name[-7:-6].isalnum())
    ):
        return True
    described = node.schema.get("description")
    return isinstance(described, str) and "json schema" in described.lower().replace("-", " ")


_SCHEMA_NAMES = frozenset({"schema", "jsonschema"})


def _says_nothing(items: Any) -> bool:
    """No items keyword (...), or one that takes any value: true, {} or annotations only (`{"description": ...}`)."""
    return items is ... or items is True or (isinstance(items, dict) and ANNOTATIONS.issuperset(items))


def _members_said(schema: dict[str, Any], tool: Tool) -> bool:
    """A map of typed values, or (from 2019-09 on) an object closed with unevaluatedProperties: false."""
    if "additionalProperties" not in schema and "unevaluatedProperties" not in schema:
        return False  # the common case, told without reading the dialect
    d = dialect(tool).name
    return is_map(schema, d) or (d not in BEFORE_2019 and schema.get("unevaluatedProperties") is False)


def _alternative_of(node: Node) -> Node | None:
    """What an anyOf/oneOf branch (at any depth) is an alternative of, or node itself when it is no branch;
    None for a branch that only narrows an object with a shape of its own, or for any other branch.
    Pydantic's `dict | None` is an argument's alternative; a $defs entry stands for an argument when one
    refers to it."""
    while node.role == "branch" and node.parent is not None:
        if node.key not in ("anyOf", "oneOf") or _shaped_object(node.parent.schema):
            return None
        node = node.parent
    return node


def _shaped_object(schema: dict[str, Any]) -> bool:
    return (
        bool(schema.get("properties"))
        or bool(schema.get("patternProperties"))
        or "additionalProperties" in schema
        or "unevaluatedProperties" in schema
    )


def _argument_defs(tool: Tool) -> set[int]:
    """The $defs entries that an argument's schema refers to: from a property, an array's items, or an
    alternative of one (a `$ref` in an allOf only adds to a shape written beside it), outside unused entries."""
    root = root_of(tool)
    found: set[int] = set()
    for node in used_nodes(tool):
        ref = node.schema.get("$ref")
        if isinstance(ref, str) and not node.condition:
            top = _alternative_of(node)
            if top is not None and (top.role == "property" or top.role == "items"):
                target = resolve(root, ref, node.resource, node.base)
                if isinstance(target, dict):
                    found.add(id(target))
    return found
