"""Walk a tool's input schema and yield every argument, nested ones included.

An argument is a property of an object schema: the root, an object-typed
argument, the item schema of an array argument, or a branch of
anyOf/oneOf/allOf. Local `$ref`s (`#/...`) are followed; cycles are cut.

A `$ref` graph can reach one definition by exponentially many paths (24 definitions
each `{"allOf": [{"$ref": next}, {"$ref": next}]}`, or 10 levels of 5 properties each
naming the next level), so the walk is bounded three ways: at MAX_DEPTH levels, by
walking into any one subschema at most MAX_VISITS times, and by MAX_STEPS steps of
work a tool. Real schemas come nowhere near: in the corpus no subschema is walked
into more than 3 times, and no tool takes more than a few hundred steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from catalint.model import Tool
from catalint.schema_walk import LONG_POINTER, long_pointer_steps
from catalint.sourcemap import join_pointer, resolve_pointer

MAX_DEPTH = 32
MAX_VISITS = 16  # walks into one subschema (a $ref target reached by several paths), for its arguments
MAX_STEPS = 20_000  # work a tool: arguments listed, subschemas walked, $refs followed, keys merged
_BRANCHES = ("anyOf", "oneOf", "allOf")


@dataclass(slots=True)
class Argument:
    name: str  # display path: "city", "filter.status", "items[].id"
    pointer: str  # JSON pointer of the property schema as written
    schema: dict[str, Any]  # the property schema with a local $ref merged in
    required: bool
    description_pointer: str | None  # where the description lives, if any
    description: str | None  # the non-blank description, or None
    # an object (or its every non-null alternative, or an array's items) whose every field describes itself
    by_fields: bool = False

    def types(self) -> set[str]:
        """Declared JSON types, looking into anyOf/oneOf branches too."""
        return schema_types(self.schema)


def filled_by_fields(schema: dict[str, Any]) -> bool:
    """An object whose every property describes itself (an OpenAPI server's `path`, `query` or `body`): the
    agent fills it field by field from the fields' own descriptions, so it needs none of its own."""
    properties = schema.get("properties")
    return (
        isinstance(properties, dict)
        and bool(properties)
        and all(
            isinstance(p, dict) and isinstance(p.get("description"), str) and bool(p["description"].strip())
            for p in properties.values()
        )
    )


def schema_types(schema: dict[str, Any]) -> set[str]:
    found: set[str] = set()
    declared = schema.get("type")
    if isinstance(declared, str):
        found.add(declared)
    elif isinstance(declared, list):
        found.update(t for t in declared if isinstance(t, str))
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            for branch in branches:
                if isinstance(branch, dict):
                    found |= schema_types(branch)
    return found


def resolve_ref(root: dict[str, Any], ref: Any) -> tuple[Any, str] | None:
    """Resolve a local reference such as '#/$defs/Item' inside root."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    node = resolve_pointer(root, ref[1:])
    return None if node is None else (node, ref[1:])


class _Walker:
    def __init__(self, root: dict[str, Any], root_pointer: str) -> None:
        self.root = root
        self.root_pointer = root_pointer
        self.out: list[Argument] = []
        self.seen: set[tuple[str, str]] = set()  # (pointer, name): allOf branches may repeat one
        self.left = MAX_STEPS  # work left: once it is spent, the walk stops where it is
        self.objects: dict[str, int] = {}  # walks into each subschema (by pointer) for its properties
        self.values: dict[str, int] = {}  # ... and for the arguments an argument's schema holds
        self.texts: dict[int, str] = {}  # the descriptions listed so far, by identity (held: no id reused)

    def merged(
        self, schema: dict[str, Any], pointer: str, refs: frozenset[str]
    ) -> tuple[dict[str, Any], str, frozenset[str] | None]:
        """Follow a local $ref (and the $ref its target holds, in turn); keys written beside a $ref win.

        The ref set comes back as None when a $ref closes a cycle: the schema
        is still merged (for its description) but must not be walked again;
        the same when the work budget runs out along a chain of $refs.
        """
        if "$ref" not in schema:
            return schema, pointer, refs
        owns: list[dict[str, Any]] = []  # the keys beside each $ref followed, outermost first
        out_refs: frozenset[str] | None = refs
        while True:
            ref = schema["$ref"]
            target = resolve_ref(self.root, ref)
            if target is None or not isinstance(target[0], dict):
                break  # the schema stands as written, $ref and all
            self.left -= 1 + len(schema) + len(refs)
            target_schema, target_rel = target
            owns.append({k: v for k, v in schema.items() if k != "$ref"})
            if ref in refs or self.left < 0:  # a cycle, or no work left: merged but not walked
                schema, out_refs = {k: v for k, v in target_schema.items() if k != "$ref"}, None
                break
            schema, pointer = target_schema, self.root_pointer + target_rel
            refs = out_refs = refs | {ref}
            if "$ref" not in schema:
                break
        if any(owns):  # {**target, **own} at each $ref, innermost first
            self.left -= len(schema) + sum(map(len, owns))
            schema = dict(schema)
            for own in reversed(owns):
                schema.update(own)
        return schema, pointer, out_refs

    def object(self, schema: dict[str, Any], pointer: str, prefix: str, depth: int, refs: frozenset[str]) -> None:
        if depth > MAX_DEPTH or self.left < 0:
            return
        own_refs: frozenset[str] | None = refs
        if "$ref" in schema:
            schema, pointer, own_refs = self.merged(schema, pointer, refs)
            if own_refs is None:
                return
        if not self.visit(self.objects, pointer):
            return
        props = schema.get("properties")
        if type(props) is dict:
            required = schema.get("required")
            required_names = {r for r in required if isinstance(r, str)} if type(required) is list else _NONE
            props_pointer = pointer + "/properties"
            seen, out, texts = self.seen, self.out, self.texts
            for name, sub in props.items():
                if type(sub) is not dict:
                    continue
                if self.left < 0:
                    return
                if "/" in name or "~" in name:
                    sub_pointer = join_pointer(props_pointer, name)
                else:
                    sub_pointer = props_pointer + "/" + name
                if "$ref" in sub:
                    merged, merged_ptr, sub_refs = self.merged(sub, sub_pointer, own_refs)
                elif "allOf" in sub and (lifted := _lift_ref(sub)) is not None:
                    merged, merged_ptr, sub_refs = self.merged(lifted, sub_pointer, own_refs)
                else:
                    merged, merged_ptr, sub_refs = sub, sub_pointer, own_refs
                text = merged.get("description")
                if type(text) is not str:
                    text = desc_ptr = None
                else:
                    if merged is sub or type(sub.get("description")) is str:
                        desc_ptr = sub_pointer + "/description"
                    else:
                        desc_ptr = merged_ptr + "/description"
                    if not text.strip():
                        text = None
                if text is None and ("anyOf" in merged or "oneOf" in merged or "allOf" in merged):
                    text, desc_ptr = self.branch_description(merged, merged_ptr, own_refs)
                path = prefix + name
                key = (sub_pointer, path)
                if key not in seen:
                    seen.add(key)
                    # a step an argument, and one for every 64 characters of its name and of a description
                    # that an argument listed before has already (the rules read each argument's text)
                    self.left -= 1 + (len(path) >> 6)
                    if text is not None:
                        if id(text) in texts:
                            self.left -= len(text) >> 6
                        else:
                            texts[id(text)] = text
                    by_fields = text is None and self.by_fields(merged, merged_ptr, own_refs)
                    out.append(Argument(path, sub_pointer, merged, name in required_names, desc_ptr, text, by_fields))
                if sub_refs is not None and (
                    "properties" in merged
                    or "items" in merged
                    or "anyOf" in merged
                    or "oneOf" in merged
                    or "allOf" in merged
                ):  # the argument may hold further arguments
                    self.value(merged, merged_ptr, path, depth + 1, sub_refs)
        for key in _BRANCHES:
            if key in schema:
                branches = schema[key]
                if type(branches) is list:
                    for i, branch in enumerate(branches):
                        if type(branch) is dict:
                            self.object(branch, join_pointer(pointer, key, i), prefix, depth + 1, own_refs)

    def visit(self, visits: dict[str, int], pointer: str) -> bool:
        """Count one more walk into the subschema at pointer: False past MAX_VISITS (a $ref reached by ever
        more paths) and once the work budget is spent."""
        seen = visits.get(pointer, 0)
        if seen >= MAX_VISITS:
            return False
        visits[pointer] = seen + 1
        # a pointer is kept for each subschema walked into: a long one (a name of kilobytes above it) costs
        # what the schema walk charges for it (3,000 anyOf branches under a 100 KB name held 300 MB)
        self.left -= 1 if len(pointer) <= LONG_POINTER else long_pointer_steps(pointer)
        return True

    def branch_description(
        self, schema: dict[str, Any], pointer: str, refs: frozenset[str] | None
    ) -> tuple[str | None, str | None]:
        """The first non-blank description on an anyOf/oneOf/allOf branch, or on the definition a branch's
        local $ref names, and its pointer: `anyOf: [{"type": "object", "description": ...}, {"type":
        "string"}]` and Pydantic's optional model, `anyOf: [{"$ref": ...}, {"type": "null"}]`, are described."""
        for key in _BRANCHES:
            branches = schema.get(key)
            if isinstance(branches, list):
                for i, branch in enumerate(branches):
                    if not isinstance(branch, dict):
                        continue
                    self.left -= 1
                    if self.left < 0:
                        return None, None
                    branch_ptr = join_pointer(pointer, key, i)
                    if "$ref" in branch and "description" not in branch:
                        branch, branch_ptr, _ = self.merged(branch, branch_ptr, refs or _NONE)
                    text = branch.get("description")
                    if isinstance(text, str) and text.strip():
                        return text, branch_ptr + "/description"
        return None, None

    def by_fields(self, schema: dict[str, Any], pointer: str, refs: frozenset[str] | None) -> bool:
        """filled_by_fields(schema), or of an array's items (server-memory's `relations`: a list of objects
        whose fields describe themselves), or, for an anyOf/oneOf, of every alternative but null (at least
        one), a local $ref followed: Pydantic's optional model, `anyOf: [{"$ref": ...}, {"type": "null"}]`."""
        if self.filled(schema):
            return True
        items = schema.get("items")
        if type(items) is dict and "properties" not in schema:
            if "$ref" in items:
                items, _, _ = self.merged(items, pointer + "/items", refs or _NONE)
            if self.filled(items):
                return True
        found = False
        for key in ("anyOf", "oneOf"):
            branches = schema.get(key)
            if not isinstance(branches, list):
                continue
            for i, branch in enumerate(branches):
                if not isinstance(branch, dict) or branch.get("type") == "null":
                    continue
                self.left -= 1
                if self.left < 0:
                    return False
                if "$ref" in branch:
                    branch, _, _ = self.merged(branch, join_pointer(pointer, key, i), refs or _NONE)
                if not self.filled(branch):
                    return False
                found = True
        return found

    def filled(self, schema: dict[str, Any]) -> bool:
        """filled_by_fields(schema), a step a property."""
        properties = schema.get("properties")
        if type(properties) is dict:
            self.left -= len(properties)
        return filled_by_fields(schema)

    def value(self, schema: dict[str, Any], pointer: str, name: str, depth: int, refs: frozenset[str] | None) -> None:
        """Arguments nested inside one argument's schema (none past a $ref cycle)."""
        if depth > MAX_DEPTH or refs is None or self.left < 0 or not self.visit(self.values, pointer):
            return
        if type(schema.get("properties")) is dict:
            self.object(schema, pointer, name + ".", depth + 1, refs)
        items = schema.get("items")
        if type(items) is dict:
            if "$ref" in items:
                merged, merged_ptr, item_refs = self.merged(items, pointer + "/items", refs)
                self.value(merged, merged_ptr, name + "[]", depth + 1, item_refs)
            else:
                self.value(items, pointer + "/items", name + "[]", depth + 1, refs)
        for key in ("anyOf", "oneOf", "allOf"):  # allOf: an intersection's parts (zod's z.intersection) hold its fields
            if key in schema:
                branches = schema[key]
                if type(branches) is list:
                    for i, branch in enumerate(branches):
                        if type(branch) is dict:
                            if self.left < 0:
                                return
                            merged, merged_ptr, b_refs = self.merged(branch, join_pointer(pointer, key, i), refs)
                            self.value(merged, merged_ptr, name, depth + 1, b_refs)


_NONE: frozenset[str] = frozenset()


def _lift_ref(schema: dict[str, Any]) -> dict[str, Any] | None:
    """`{"allOf": [{"$ref": ...}], ...}` (one branch, as Pydantic v1 wrote a described $ref) written as the
    plain `$ref` it means, or None for any other schema."""
    branches = schema["allOf"]
    if type(branches) is not list or len(branches) != 1 or type(branches[0]) is not dict or "$ref" not in branches[0]:
        return None
    return {**branches[0], **{k: v for k, v in schema.items() if k != "allOf"}}


def iter_arguments(tool: Tool) -> tuple[Argument, ...]:
    """Every argument of the tool, walked once and cached on the tool."""
    cached = tool.cache.get("arguments")
    if cached is None:
        schema = tool.input_schema
        walker = _Walker(schema if isinstance(schema, dict) else {}, tool.pointer + "/inputSchema")
        if isinstance(schema, dict):
            walker.object(schema, walker.root_pointer, "", 0, frozenset())
        cached = tool.cache["arguments"] = tuple(walker.out)
    return cached


def top_level_properties(tool: Tool) -> dict[str, Any]:
    schema = tool.input_schema
    props = schema.get("properties") if isinstance(schema, dict) else None
    return props if isinstance(props, dict) else {}
