"""Every subschema of a JSON Schema document, each once, at the pointer where it is written.

Unlike `arguments`, which follows `$ref`s to present an agent's view of the
arguments, this walk is the author's view: `$defs`, `anyOf` branches, array
`items` and every other subschema position are visited where they are written,
and references are left to the rules that resolve them. The walk stops at
MAX_DEPTH levels and MAX_NODES nodes, and at long pointers it cannot pay for
(LONG_POINTER), so that hostile schemas stay cheap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from operator import attrgetter
from typing import Any
from urllib.parse import unquote, urljoin

from catalint.memo import ByIdentity
from catalint.sourcemap import resolve_pointer

MAX_DEPTH = 64
MAX_NODES = 20_000
# A subschema whose pointer is longer than this (only a hostile name makes one: real pointers take a few
# dozen characters) is charged to a second budget of MAX_NODES (_length_cost), and none is walked past
# what it can pay for: 5,000 properties under a 100 KB name took 500 MB.
LONG_POINTER = 1024

# Keywords whose value is one subschema, a map of subschemas, or an array of them.
_ONE = {
    "items": "items",
    "additionalItems": "items",
    "unevaluatedItems": "items",
    "contains": "items",
    "additionalProperties": "additional",
    "unevaluatedProperties": "additional",
    "propertyNames": "names",
    "if": "branch",
    "then": "branch",
    "else": "branch",
    "not": "not",
    "contentSchema": "other",
}
_MAP = {
    "properties": "property",
    "patternProperties": "pattern",
    "$defs": "defs",
    "definitions": "defs",
    "dependentSchemas": "branch",
    "dependencies": "branch",  # draft-07: a value may also be a list of names
}
_ARRAY = {"allOf": "branch", "anyOf": "branch", "oneOf": "branch", "prefixItems": "items", "items": "items"}
BRANCHES = ("allOf", "anyOf", "oneOf")
_CONDITIONS = frozenset({"not", "if", "propertyNames", "contains"})
_INHERITING = frozenset((*BRANCHES, "if", "then", "else", "not", "dependentSchemas", "dependencies"))
_SUBSCHEMA_KEYS = frozenset((*_ONE, *_MAP, *_ARRAY))
_ROLE = {**_ONE, **_MAP, **_ARRAY}  # each keyword's role ("items" is one either way)


@dataclass(slots=True, eq=False)
class Node:
    pointer: str  # JSON pointer of this subschema in the catalog file
    schema: dict[str, Any]
    role: str  # root, property, pattern, items, additional, names, branch, not, defs, other
    key: str | None  # the keyword that holds it ("properties", "anyOf", ...), None at the root
    name: str | None  # property or $defs name, where there is one
    depth: int
    inherited: frozenset[str]  # property names an enclosing object declares (for a branch's `required`)
    resource: dict[str, Any]  # the nearest enclosing schema with an `$id`, else the root
    condition: bool = False  # inside not, if, propertyNames or contains: a test, not a shape to fill in
    base: str = ""  # base URI for `$ref`s here: the `$id`s above, resolved in turn ("" when none)
    parent: Node | None = None
    index: int = 0  # position in the array that holds it (allOf, prefixItems, ...)
    # path and label, named on first use: most nodes never appear in a message
    _path: str | None = None
    _label: str | None = None

    @property
    def path(self) -> str:
        """Argument path as the DESC rules print it: "filter.status", "tags[]"."""
        if self._path is None:
            self._path, self._label = _naming(self)
        return self._path

    @property
    def label(self) -> str:
        """How a message names this subschema: 'the input schema', "property 'city'", ..."""
        if self._label is None:
            self._path, self._label = _naming(self)
        return self._label

    def is_object(self) -> bool:
        return "object" in types_of(self.schema) or (
            "type" not in self.schema and isinstance(self.schema.get("properties"), dict)
        )


def types_of(schema: dict[str, Any]) -> set[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list):
        return {t for t in declared if isinstance(t, str)}
    return set()


def property_names(
    schema: dict[str, Any], root: dict[str, Any], resource: dict[str, Any] | None = None, base: str = ""
) -> set[str]:
    """Names declared by properties here or in allOf/anyOf/oneOf branches (refs inside the document followed,
    each read against the `$id`s around it: resource and base are those of schema itself, as on its Node)."""
    names: set[str] = set()
    stack: list[tuple[Any, dict[str, Any], str]] = [(schema, root if resource is None else resource, base)]
    seen: set[int] = set()
    while stack and len(seen) < 256:
        s, resource, base = stack.pop()
        if not isinstance(s, dict) or id(s) in seen:
            continue
        seen.add(id(s))
        props = s.get("properties")
        if isinstance(props, dict):
            names.update(props)
        ref = s.get("$ref")
        if isinstance(ref, str):
            target = resolve(root, ref, resource, base)
            if isinstance(target, dict):
                there, at = resource, base
                full = _without_fragment(urljoin(base, ref) if base else ref)
                if full and full != base:  # the ref leaves this resource: the target is read in its own
                    there, at = _index(root)[1].get(full, root), full
                stack.append((target, *scope(target, there, at)))
        for key in BRANCHES:
            branches = s.get(key)
            if isinstance(branches, list):
                stack.extend((b, *scope(b, resource, base)) for b in branches if isinstance(b, dict))
    return names


def scope(schema: dict[str, Any], resource: dict[str, Any], base: str) -> tuple[dict[str, Any], str]:
    """The resource and base URI inside schema: its own when it carries an `$id` (not a bare `#anchor`), else those
    around it."""
    own_id = schema.get("$id")
    if isinstance(own_id, str) and not own_id.startswith("#"):
        return schema, _without_fragment(urljoin(base, own_id) if base else own_id)
    return resource, base


_EMPTY: frozenset[str] = frozenset()


def walk(
    schema: dict[str, Any], pointer: str, root_label: str = "the input schema", repeats: list[Node] | None = None
) -> list[Node]:
    """Every subschema of schema (schema itself first), in document order; repeats, when given, collects the
    places not walked because their object was walked at another place already (a YAML alias)."""
    out: list[Node] = []
    root_id = schema.get("$id")
    base = _without_fragment(root_id) if isinstance(root_id, str) else ""
    root = Node(pointer, schema, "root", None, None, 0, _EMPTY, schema, False, base, None, 0, "", root_label)
    stack: list[Node] = [root]
    seen: set[int] = set()
    budget = [MAX_NODES - _length_cost(pointer)]  # what long pointers may still cost
    while stack and len(out) < MAX_NODES:
        node = stack.pop()
        s = node.schema
        if id(s) in seen:  # YAML aliases can share one object: walk it once
            if repeats is not None:
                repeats.append(node)
            continue
        seen.add(id(s))
        out.append(node)
        if node.depth < MAX_DEPTH and not _SUBSCHEMA_KEYS.isdisjoint(s):  # most nodes are leaves
            stack.extend(reversed(_children(node, schema, budget)))
    return out


def _spent(budget: list[int], pointer: str) -> bool:
    """Charge budget for a long pointer, or tell that too little is left for it (then nothing is charged)."""
    cost = _length_cost(pointer)
    if cost > budget[0]:
        return True
    budget[0] -= cost
    return False


def _length_cost(pointer: str) -> int:
    """What a pointer costs this walk: long_pointer_steps, at most a quarter of MAX_NODES and one (so that a
    property with a name of megabytes is still walked, with a few of its subschemas: the long pointers of
    a walk hold a few times the longest name, or some 1.3 MB)."""
    return min(long_pointer_steps(pointer), MAX_NODES // 4 + 1)


def long_pointer_steps(pointer: str) -> int:
    """Steps of work a walk charges for keeping a pointer: 0 up to LONG_POINTER characters, then 1 and 1
    for every 64 more."""
    return 0 if len(pointer) <= LONG_POINTER else 1 + (len(pointer) - LONG_POINTER) // 64


# The keywords whose reference validation follows (`$dynamicRef` and `$recursiveRef` in any dialect: more
# references can only keep more definitions).
_REFERENCES = ("$ref", "$dynamicRef", "$recursiveRef")
_ROLE_OF = attrgetter("role")
_DEPTH_OF = attrgetter("depth")


def unused_definitions(walked: list[Node], root: dict[str, Any], repeats: bool = False) -> list[Node]:
    """The `$defs`/`definitions` entries of walked (a walk of root) that no value is ever validated against:
    those no reference reaches from the root, outside unused entries; in walk order, [] when there is none.

    A reference to an entry, or into it (`#/$defs/a/properties/b`), makes the whole entry used, and its own
    references count in turn; a `$defs` nested in an entry is an entry of its own. Only a JSON pointer
    fragment read from the root resource (`#/$defs/a`; `~1` and percent escapes undone) is followed: any
    other reference (an anchor, an `$id`, another document), one that names nothing or no subschema the walk
    visited, a walk cut at MAX_DEPTH or MAX_NODES, or an object walked once for several places (repeats)
    leaves every entry used.
    """
    if "defs" not in map(_ROLE_OF, walked):
        return []  # no entries: the common case, told at C speed
    entries = {id(node.schema): node for node in walked if node.role == "defs"}
    referring: dict[int, list[Node]] = {}  # id of an entry (0 outside any) -> its subschemas that reference
    for node in [n for n in walked if not n.schema.keys().isdisjoint(_REFERENCES)]:
        held = _entry_of(node)
        referring.setdefault(0 if held is None else id(held.schema), []).append(node)
    used: set[int] = set()
    todo = list(referring.get(0, ()))
    placed: dict[int, Node] | None = None  # every subschema by id, built for a reference into an entry
    while todo and len(used) < len(entries):
        node = todo.pop()
        for key in _REFERENCES:
            if key not in node.schema:
                continue
            target = _pointer_target(node, node.schema[key], root)
            if target is None:
                return []
            held = entries.get(id(target))
            if held is None:  # not an entry itself: the entry it lies in, if any
                if placed is None:
                    placed = {id(n.schema): n for n in walked}
                at = placed.get(id(target))
                if at is None:
                    return []
                held = _entry_of(at)
            if held is not None and id(held.schema) not in used:
                used.add(id(held.schema))
                todo.extend(referring.get(id(held.schema), ()))
    if len(used) == len(entries) or repeats or len(walked) >= MAX_NODES or max(map(_DEPTH_OF, walked)) >= MAX_DEPTH:
        return []  # every entry used, or references the walk did not see may use them
    return [node for key, node in entries.items() if key not in used]


def without_definitions(walked: list[Node], dropped: list[Node]) -> list[Node]:
    """walked less the subschemas whose innermost `$defs`/`definitions` entry is one of dropped (entries of
    walked, as unused_definitions gives them); walked itself when dropped is empty."""
    if not dropped:
        return walked
    gone = {id(node.schema) for node in dropped}
    kept: list[Node] = []
    holder: dict[int, Node | None] = {}  # id of each subschema -> the innermost entry holding it
    for node in walked:
        if node.role == "defs":
            held = node
        else:
            held = holder[id(node.parent.schema)] if node.parent is not None else None
        holder[id(node.schema)] = held
        if held is None or id(held.schema) not in gone:
            kept.append(node)
    return kept


def _entry_of(node: Node | None) -> Node | None:
    """The innermost `$defs`/`definitions` entry that holds node (node itself when it is one), or None."""
    while node is not None and node.role != "defs":
        node = node.parent
    return node


def _pointer_target(node: Node, ref: Any, root: dict[str, Any]) -> dict[str, Any] | None:
    """The subschema a reference names when it is a JSON pointer fragment (or `#`) read from the root
    resource; None for any other reference, or one that names no object."""
    if type(ref) is not str or ref[:1] != "#" or node.resource is not root:
        return None
    if len(ref) > 1 and unquote(ref[1:])[:1] != "/":
        return None  # an anchor: `#name`
    target = resolve(root, ref, root, node.base)
    return target if isinstance(target, dict) else None


def _children(node: Node, root: dict[str, Any], budget: list[int]) -> list[Node]:
    """The subschemas written directly in node, in document order (JSON data: dicts and lists only). A long
    pointer lowers budget[0] by what it costs (_length_cost); no child is made past one it cannot pay for."""
    s = node.schema
    pointer = node.pointer
    depth = node.depth + 1
    condition = node.condition
    declared: frozenset[str] | None = None  # what a branch inherits, found on first need

    def inherited(inherits: bool) -> frozenset[str]:
        nonlocal declared
        if not inherits:
            return _EMPTY
        if declared is None:
            declared = _declared(node, root)
        return declared

    children: list[Node] = []
    append = children.append
    for key, value in s.items():
        role = _ROLE.get(key)
        if role is None:
            continue
        kind = type(value)
        if kind is dict:
            if key in _MAP:
                names = inherited(role == "branch")
                prefix = pointer + "/" + key + "/"  # no map keyword needs escaping
                for name, sub in value.items():
                    if type(sub) is dict:
                        at = prefix + (_escape(name) if "~" in name or "/" in name else name)
                        if len(at) > LONG_POINTER and _spent(budget, at):
                            return children
                        append(_child(node, sub, at, role, key, name, names, condition, depth, 0))
                continue
            if key not in _ONE:
                continue
            test = condition or key in _CONDITIONS
            names = inherited(role == "branch" or role == "not")
            at = pointer + "/" + key
            if len(at) > LONG_POINTER and _spent(budget, at):
                return children
            append(_child(node, value, at, role, key, None, names, test, depth, 0))
        elif kind is list and key in _ARRAY:
            names = inherited(role == "branch")
            prefix = pointer + "/" + key + "/"
            for i, sub in enumerate(value):  # no array keyword is a condition: the node's own flag holds
                if type(sub) is dict:
                    at = prefix + str(i)
                    if len(at) > LONG_POINTER and _spent(budget, at):
                        return children
                    append(_child(node, sub, at, role, key, None, names, condition, depth, i))
    return children


def _declared(node: Node, root: dict[str, Any]) -> frozenset[str]:
    """The property names a branch of node sees declared: its own and those node inherits."""
    if _INHERITING.isdisjoint(node.schema):
        return node.inherited
    return node.inherited | property_names(node.schema, root, node.resource, node.base)


def _child(
    parent: Node,
    value: dict[str, Any],
    pointer: str,
    role: str,
    key: str,
    name: str | None,
    inherited: frozenset[str],
    condition: bool,
    depth: int,
    index: int,
) -> Node:
    resource, base = scope(value, parent.resource, parent.base) if "$id" in value else (parent.resource, parent.base)
    return Node(pointer, value, role, key, name, depth, inherited, resource, condition, base, parent, index)


def _naming(node: Node) -> tuple[str, str]:
    """The argument path and the message label of a child subschema."""
    parent, role, key, name, i = node.parent, node.role, node.key, node.name, node.index
    if parent is None or key is None:
        return "", "the input schema"
    if role == "property":
        path = f"{parent.path}.{name}" if parent.path else str(name)
        return path, f"property {path!r}"
    if role == "defs":
        return f"{key}/{name}", f"definition {name!r}"
    if role == "items":
        tuple_item = key == "prefixItems" or isinstance(parent.schema.get(key), list)
        suffix = f"[{i}]" if tuple_item else "[]"
        return parent.path + suffix, f"{key} of {parent.label}"
    if key in ("allOf", "anyOf", "oneOf", "prefixItems"):
        return parent.path, f"{key} branch {i} of {parent.label}"
    if role == "pattern" or (role == "branch" and name is not None):
        return parent.path, f"{key} {name!r} of {parent.label}"
    return parent.path, f"{key} of {parent.label}"


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1") if ("~" in part or "/" in part) else part


_NETWORK = re.compile(r"^(?:https?|ftp|wss?)://|^//", re.IGNORECASE)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def is_network(ref: str) -> bool:
    return _NETWORK.match(ref) is not None


def resolve(root: dict[str, Any], ref: Any, resource: dict[str, Any], base: str = "") -> Any:
    """The subschema a `$ref` names inside this document, or None.

    The reference is resolved against base (the `$id`s around it) and must land
    on the document itself or on a subschema whose `$id` names that URI; the
    fragment is then a JSON pointer (percent-decoded) or an anchor. Without any
    `$id`, `#...` is read against the enclosing resource, then the root.
    """
    if not isinstance(ref, str):
        return None
    full = urljoin(base, ref) if base else ref
    doc_part, _, fragment = full.partition("#")
    fragment = unquote(fragment)
    if not doc_part or (base and doc_part == base and resource is not None):
        target: Any = resource
    else:
        target = _index(root)[1].get(doc_part)
        if target is None:
            root_id = root.get("$id")
            if not (isinstance(root_id, str) and _without_fragment(root_id) == doc_part):
                return None
            target = root
    found = _fragment(target, fragment)
    if found is None and not doc_part and target is not root:
        found = _fragment(root, fragment)
    return found


def _without_fragment(uri: str) -> str:
    return uri.partition("#")[0]


def _fragment(doc: dict[str, Any], fragment: str) -> Any:
    if not fragment:
        return doc
    if fragment.startswith("/"):
        return resolve_pointer(doc, fragment)
    return _index(doc)[0].get((_own_base(doc), fragment))


def _own_base(doc: dict[str, Any]) -> str:
    doc_id = doc.get("$id")
    return _without_fragment(doc_id) if isinstance(doc_id, str) else ""


def _build_index(doc: dict[str, Any]) -> tuple[dict[tuple[str, str], Any], dict[str, Any]]:
    """Anchors (by the base URI of the resource that holds them, and name) and absolute `$id`s of every
    object below doc. An anchor belongs to its resource: `#foo` from outside an embedded `$id` does not
    reach one inside it (JSON Schema 2020-12, Core, section 8.2.2)."""
    anchors: dict[tuple[str, str], Any] = {}
    ids: dict[str, Any] = {}
    stack: list[tuple[Any, str]] = [(doc, _own_base(doc))]
    count = 0
    while stack and count < MAX_NODES:
        value, base = stack.pop()
        count += 1
        if isinstance(value, dict):
            found = value.get("$id")
            if isinstance(found, str) and not found.startswith("#"):
                base = _without_fragment(urljoin(base, found) if base else found)
                ids.setdefault(base, value)
            for key in ("$anchor", "$dynamicAnchor"):
                if isinstance(value.get(key), str):
                    anchors.setdefault((base, value[key]), value)
            if isinstance(found, str) and found.startswith("#"):  # draft-07 and older name anchors this way
                anchors.setdefault((base, found[1:]), value)
            stack.extend((v, base) for v in value.values() if isinstance(v, (dict, list)))
        else:
            stack.extend((v, base) for v in value if isinstance(v, (dict, list)))
    return anchors, ids


_index = ByIdentity(_build_index, 65)  # _build_index, once per document


def has_scheme(ref: str) -> bool:
    return _SCHEME.match(ref) is not None
