"""SCH-009: enum, default, const and examples values that break their own schema."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from catalint.metaschema import (
    compiled,
    holds_patterns,
    json_key,
    problem,
    quick_check,
    schema_errors,
)
from catalint.model import Tool
from catalint.registry import Hit, option, rule
from catalint.rules.schema.common import (
    dialect,
    nodes,
    reference_keywords,
    root_of,
    used_nodes,
    where_of,
)
from catalint.schema_walk import resolve
from catalint.sourcemap import join_pointer
from catalint.text import clip


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
    Not inside an unused definition (a `$defs`/`definitions` entry that no `$ref`
    reaches from the root): no argument takes its values, and none is validated
    against it.

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

    A `default` of null on a single non-null type is how some generators (newer
    FastMCP, for one) write Python's `x: str | None = None`: the finding says so
    and suggests the nullable type.

    Values are checked as jsonschema-rs checks them, under the schema's dialect
    (in draft-04, `1.0` is no integer), with `$ref`s read against the `$id`s
    around them; `format` is an annotation and asserts nothing, in every
    dialect, as in 2019-09 and later. A reference to a document the schema does not hold is never
    fetched: it counts as the empty schema, which takes any value (SCH-010
    reports the reference), so the rest of the schema is still checked. A value
    whose schema jsonschema-rs cannot build is not checked: SCH-006 or SCH-010
    says why, or, when neither does, this rule says so at the value (a schema
    holding a lone surrogate, a `"\\udfff"` escape, is one). A `pattern` that
    compiles only past 1 MiB (`\\p{L}{65535}`: 12 characters, README: Limits), or
    is over 10,000 characters, is not evaluated: values are checked against the
    rest of their schema. Schemas alike but for their annotations (`default`,
    `examples`, `description`, `title`) share one validator, and each pattern is
    compiled once a run. In a tool whose input schema holds a `pattern`, a value
    of over 1,000 characters (as JSON) is not checked, nor is any once 500,000
    characters of such values have been in one catalog: matching a long value
    against a hostile pattern (`(?:a|b|c){2000}x`) costs without bound.

    **Fix.** Correct the value, or the schema that rejects it.
    """
    d = dialect(tool)
    root = root_of(tool)
    base = join_pointer(tool.pointer, "inputSchema")
    for node in used_nodes(tool):
        s = node.schema
        if _VALUED.isdisjoint(s):  # nothing here to check
            continue
        enum = s.get("enum")
        if isinstance(enum, list):
            if not enum:
                yield Hit(node.pointer + "/enum", f"{where_of(node)} has an empty enum, so no value is valid")
            elif not _distinct(enum):
                seen: dict[Any, int] = {}
                for i, value in enumerate(enum):
                    key = json_key(value)
                    if key in seen:
                        yield Hit(
                            join_pointer(node.pointer, "enum", i),
                            f"{where_of(node)} lists {json.dumps(value)} twice in its enum",
                            "remove the repeat",
                        )
                    seen.setdefault(key, i)
        checks = _values_to_check(s)
        if not checks or d.name is None:
            continue
        validator: Any = None
        quick = quick_check(s, d.name)
        for pointer_part, what, value in checks:
            why = quick(value) if quick is not None else None
            if why is None:
                if not _may_match(root, value):
                    continue  # a long value against a catalog's regular expressions: not checked (README: Limits)
                if validator is None:
                    validator = compiled(s, d.name, root, node.pointer[len(base) :])
                    if isinstance(validator, str):
                        if not _explained(tool, d.name):  # no other finding says why: say it here, once
                            yield Hit(
                                node.pointer + pointer_part,
                                f"{where_of(node)}: {what} {_short(value)} cannot be checked, as jsonschema-rs "
                                f"cannot build its schema: {validator}",
                            )
                        break
                why = problem(validator, value)
            if why and what == "default" and value is None and isinstance(s.get("type"), str) and s["type"] != "null":
                # Python's `x: str | None = None` through a generator that drops the None from the type
                yield Hit(
                    node.pointer + pointer_part,
                    f"{where_of(node)}: default null is not of type {json.dumps(s['type'])}: the type leaves out the "
                    "null it defaults to",
                    f'declare "type": ["{s["type"]}", "null"], or remove "default": null',
                )
            elif why:
                yield Hit(node.pointer + pointer_part, f"{where_of(node)}: {what} {_short(value)} {why}")


# A value is matched against a catalog's `pattern`s by jsonschema-rs, whose engine bounds backtracking but
# not the work of trying a pattern such as `(?:a|b|c){900}x` at every offset: 16 ms for a 1,000-character
# value, 20 s for 400 values of 2 KB (and 400 MB to match one of 5,000 characters against `(a|b)` x 1,998).
# In a tool whose input schema holds a pattern, a value longer than this (as JSON) is not checked, nor is
# any once this many characters of values have been, in one catalog.
PATTERN_VALUE_CHARS = 1_000
PATTERN_CHARS_A_CATALOG = 500_000
_spent: list[Any] = [None, 0]  # the catalog (its tools list) the budget is spent on, and what is spent


def _may_match(root: Any, value: Any) -> bool:
    """Whether value is checked, as far as the patterns go (PATTERN_VALUE_CHARS, PATTERN_CHARS_A_CATALOG)."""
    if not holds_patterns(root):
        return True  # the common case
    try:
        size = len(value) if isinstance(value, str) else len(json.dumps(value))
    except (TypeError, ValueError):
        return True
    catalog = option("catalog_tools")
    if _spent[0] is not catalog:
        _spent[0], _spent[1] = catalog, 0
    if size > PATTERN_VALUE_CHARS or _spent[1] + size > PATTERN_CHARS_A_CATALOG:
        return False
    _spent[1] += size
    return True


def _explained(tool: Tool, dialect: str) -> bool:
    """Whether another finding says why a schema of this tool cannot be built: SCH-006 (the schema is not
    valid) or SCH-010 (a reference names nothing here)."""
    known = tool.cache.get("sch009_explained")
    if known is None:
        root = root_of(tool)
        known = tool.cache["sch009_explained"] = next(iter(schema_errors(root, dialect)), None) is not None or any(
            isinstance(ref := node.schema.get(key), str) and resolve(root, ref, node.resource, node.base) is None
            for node in nodes(tool)
            for key in reference_keywords(dialect)
        )
    return known


def _distinct(enum: list[Any]) -> bool:
    """True when no two values are equal, told at C speed for scalars; False means "look closer".

    JSON-equal values (json_key) are equal in Python too, so a set that loses none rules repeats
    out; one that does (1 and true) or cannot be built (a list value) goes to json_key.
    """
    try:
        return len(set(enum)) == len(enum)
    except TypeError:
        return False


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
    if "const" in s and len(VALUE_KEYWORDS.intersection(s)) > 1:  # a keyword besides const itself
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
    return clip(text, limit)
