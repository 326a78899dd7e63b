"""Walk a tool's input schema and yield every argument, nested ones included.

An argument is a property of an object schema: the root, an object-typed
argument, the item schema of an array argument, or a branch of
anyOf/oneOf/allOf. Local `$ref`s (`#/...`) are followed; cycles are cut and the
walk stops at MAX_DEPTH levels so that hostile schemas stay cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from catalint.model import Tool
from catalint.sourcemap import join_pointer, resolve_pointer

MAX_DEPTH = 32
_BRANCHES = ("anyOf", "oneOf", "allOf")


@dataclass(slots=True)
class Argument:
    name: str  # display path: "city", "filter.status", "items[].id"
    pointer: str  # JSON pointer of the property schema as written
    schema: dict[str, Any]  # the property schema with a local $ref merged in
    required: bool
    description_pointer: str | None  # where the description lives, if any
    description: str | None  # the non-blank description, or None
    by_fields: bool = False  # an object (or every non-null alternative) whose every field describes itself

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

    def merged(
        self, schema: dict[str, Any], pointer: str, refs: frozenset[str]
    ) -> tuple[dict[str, Any], str, frozenset[str] | None]:
        """Follow a local $ref; keys written beside the $ref win.

        The ref set comes back as None when the $ref closes a cycle: the schema
        is still merged (for its description) but must not be walked again.
        """
        if "$ref" not in schema:
            return schema, pointer, refs
        ref = schema["$ref"]
        target = resolve_ref(self.root, ref)
        if target is None or not isinstance(target[0], dict):
            return schema, pointer, refs
        target_schema, target_rel = target
        own = {k: v for k, v in schema.items() if k != "$ref"}
        if ref in refs:
            return {**{k: v for k, v in target_schema.items() if k != "$ref"}, **own}, pointer, None
        inner, inner_ptr, inner_refs = self.merged(target_schema, self.root_pointer + target_rel, refs | {ref})
        return {**inner, **own}, inner_ptr, inner_refs

    def object(self, schema: dict[str, Any], pointer: str, prefix: str, depth: int, refs: frozenset[str]) -> None:
        if depth > MAX_DEPTH:
            return
        own_refs: frozenset[str] | None = refs
        if "$ref" in schema:
            schema, pointer, own_refs = self.merged(schema, pointer, refs)
            if own_refs is None:
                return
        props = schema.get("properties")
        if type(props) is dict:
            required = schema.get("required")
            required_names = {r for r in required if isinstance(r, str)} if type(required) is list else _NONE
            props_pointer = pointer + "/properties"
            seen, out = self.seen, self.out
            for name, sub in props.items():
                if type(sub) is not dict:
                    continue
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
                    by_fields = text is None and self.by_fields(merged, merged_ptr, own_refs)
                    out.append(Argument(path, sub_pointer, merged, name in required_names, desc_ptr, text, by_fields))
                if sub_refs is not None and (
                    "properties" in merged or "items" in merged or "anyOf" in merged or "oneOf" in merged
                ):  # the argument may hold further arguments
                    self.value(merged, merged_ptr, path, depth + 1, sub_refs)
        for key in _BRANCHES:
            if key in schema:
                branches = schema[key]
                if type(branches) is list:
                    for i, branch in enumerate(branches):
                        if type(branch) is dict:
                            self.object(branch, join_pointer(pointer, key, i), prefix, depth + 1, own_refs)

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
                    branch_ptr = join_pointer(pointer, key, i)
                    if "$ref" in branch and "description" not in branch:
                        branch, branch_ptr, _ = self.merged(branch, branch_ptr, refs or _NONE)
                    text = branch.get("description")
                    if isinstance(text, str) and text.strip():
                        return text, branch_ptr + "/description"
        return None, None

    def by_fields(self, schema: dict[str, Any], pointer: str, refs: frozenset[str] | None) -> bool:
        """filled_by_fields(schema), or, for an anyOf/oneOf, of every alternative but null (at least one),
        a local $ref followed: Pydantic's optional model, `anyOf: [{"$ref": ...}, {"type": "null"}]`."""
        if filled_by_fields(schema):
            return True
        found = False
        for key in ("anyOf", "oneOf"):
            branches = schema.get(key)
            if not isinstance(branches, list):
                continue
            for i, branch in enumerate(branches):
                if not isinstance(branch, dict) or branch.get("type") == "null":
                    continue
                if "$ref" in branch:
                    branch, _, _ = self.merged(branch, join_pointer(pointer, key, i), refs or _NONE)
                if not filled_by_fields(branch):
                    return False
                found = True
        return found

    def value(self, schema: dict[str, Any], pointer: str, name: str, depth: int, refs: frozenset[str] | None) -> None:
        """Arguments nested inside one argument's schema (none past a $ref cycle)."""
        if depth > MAX_DEPTH or refs is None:
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
        for key in ("anyOf", "oneOf"):
            if key in schema:
                branches = schema[key]
                if type(branches) is list:
                    for i, branch in enumerate(branches):
                        if type(branch) is dict:
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
