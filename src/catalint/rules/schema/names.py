"""SCH-012 and SCH-014: misspelt keywords and property names that clients reject."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from catalint.model import Tool
from catalint.registry import Hit, rule
from catalint.rules.schema.common import (
    PROPERTY_NAME,
    nodes,
    used_nodes,
    where_of,
)
from catalint.sourcemap import join_pointer

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


@lru_cache(maxsize=1024)  # catalogs repeat their unknown keys; the edit distances are the cost
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
    keywords `example`, `nullable` and `discriminator`, nor anything inside an
    unused definition (a `$defs`/`definitions` entry that no `$ref` reaches from
    the root), where a keyword that asserts nothing changes nothing.

    **Why.** JSON Schema 2020-12 (Core) treats a keyword it does not know as an
    annotation that asserts nothing, so a misspelt one fails silently: `"maxlength": 100` bounds nothing and
    `"requried": ["city"]` requires nothing.

    **Bad.** `"city": {"type": "string", "descripton": "City name"}`

    **Good.** `"city": {"type": "string", "description": "City name"}`

    **Fix.** Spell the keyword as the specification does; keywords are
    case-sensitive.
    """
    for node in used_nodes(tool):
        if KEYWORDS.issuperset(node.schema):  # the common case, told at C speed
            continue
        for key in node.schema:
            if key in KEYWORDS:
                continue
            meant = misspelt_keyword(key)
            if meant is not None:
                yield Hit(
                    join_pointer(node.pointer, key),
                    f"{where_of(node)} has unknown keyword {key!r}; JSON Schema ignores it (did you mean {meant!r}?)",
                    f"rename it to {meant!r}",
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
        if type(props) is not dict or all(map(PROPERTY_NAME.fullmatch, props)):  # every name fits: the common case
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
