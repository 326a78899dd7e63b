"""JSON Schema dialects and validation, through jsonschema-rs.

The official meta-schemas ship inside jsonschema-rs, so validation never reaches
the network (`offline=True`). One meta-schema validator is built per dialect per
process. jsonschema-rs was chosen over the pure-Python jsonschema package by
measurement (benchmarks/README.md): meta-validating 10,000 tool schemas took
45 s with jsonschema 4.26 and 0.15 s with jsonschema-rs 0.60.
"""

from __future__ import annotations

import json
import operator
import re
from collections import OrderedDict
from collections.abc import Callable, Iterator
from functools import lru_cache
from itertools import islice
from typing import Any, NamedTuple
from urllib.parse import quote

from catalint.memo import ByIdentity

DEFAULT_DIALECT = "2020-12"

# Canonical `$schema` URI (without the empty fragment) -> dialect name.
DIALECTS = {
    "https://json-schema.org/draft/2020-12/schema": "2020-12",
    "https://json-schema.org/draft/2019-09/schema": "2019-09",
    "http://json-schema.org/draft-07/schema": "draft-07",
    "http://json-schema.org/draft-06/schema": "draft-06",
    "http://json-schema.org/draft-04/schema": "draft-04",
}
_CLASS = {
    "2020-12": "Draft202012Validator",
    "2019-09": "Draft201909Validator",
    "draft-07": "Draft7Validator",
    "draft-06": "Draft6Validator",
    "draft-04": "Draft4Validator",
}
_URI = {name: uri for uri, name in DIALECTS.items()}
_META: dict[str, Any] = {}


class Dialect(NamedTuple):
    name: str | None  # None when `$schema` names no dialect catalint knows
    problem: str | None = None  # why `$schema` was not understood
    suggestion: str | None = None


def dialect_of(schema: dict[str, Any]) -> Dialect:
    """The dialect a schema's `$schema` names; 2020-12 when it names none."""
    if "$schema" not in schema:
        return Dialect(DEFAULT_DIALECT)
    uri = schema["$schema"]
    if not isinstance(uri, str):
        return Dialect(None, "$schema is not a string")
    name = DIALECTS.get(uri[:-1] if uri.endswith("#") else uri)
    if name is not None:
        return Dialect(name)
    near = _near_dialect(uri)
    hint = f"write {_URI[near]}{'#' if near.startswith('draft') else ''}" if near else None
    return Dialect(None, f"$schema {uri!r} is not a JSON Schema dialect catalint knows", hint)


def _near_dialect(uri: str) -> str | None:
    """A known dialect that uri seems to mean (wrong scheme, stray `www.`, trailing slash)."""
    bare = uri.lower().rstrip("#/").split("://", 1)[-1].removeprefix("www.")
    for known, name in DIALECTS.items():
        if known.split("://", 1)[1] == bare:
            return name
    return None


def meta_validator(dialect: str) -> Any:
    """A validator of schemas written in dialect, against that dialect's meta-schema. Its `format`s (a pattern's
    "regex", a $ref's "uri-reference") are annotations, as from 2019-09 on: jsonschema-rs would assert them for
    draft-07 and older, and read "regex" as Rust's regex crate does, refusing ECMA-262 patterns that every
    other dialect takes (a lone "]"). Patterns are checked as ECMA-262 in every dialect (regex_problem)."""
    validator = _META.get(dialect)
    if validator is None:
        import jsonschema_rs

        cls = getattr(jsonschema_rs, _CLASS[dialect])
        validator = _META[dialect] = cls({"$ref": _URI[dialect]}, offline=True, validate_formats=False)
    return validator


class SchemaError(NamedTuple):
    path: tuple[str | int, ...]  # where in the schema, as instance-path parts
    message: str


def schema_errors(schema: Any, dialect: str, declared: bool = True) -> Iterator[SchemaError]:
    """Why schema is not a valid schema in dialect: one error per place and message.

    declared is False when dialect is imposed whatever the schema's `$schema` says (a client that validates as
    2020-12): then no hint suggests declaring another dialect.
    """
    seen: set[tuple[tuple[str | int, ...], str]] = set()
    for path, error in _meta_errors(schema, dialect):
        message = _message(path, error) + _hint(path, error, dialect, declared)
        if (path, message) not in seen:
            seen.add((path, message))
            yield SchemaError(path, message)


MAX_ITEMS_DESCENT = 64  # items schemas looked into for the real error, at most, one inside another


def _meta_errors(schema: Any, dialect: str) -> list[tuple[tuple[str | int, ...], Any]]:
    """The meta-schema's errors, each with its instance path. Before 2020-12 `items` is "a schema or an array of
    them" (an anyOf), so a typo anywhere inside an array's items schema fails that anyOf and is reported at
    `items` as "not valid under any of the schemas"; an items schema that is an object is then validated
    on its own, and its own errors, at their own places, stand instead."""
    found: list[tuple[tuple[str | int, ...], Any]] = []
    todo: list[tuple[tuple[str | int, ...], Any, int, Any]] = [((), schema, 0, None)]
    descend = MAX_ITEMS_DESCENT if dialect != "2020-12" else 0  # 2020-12's items is one schema: no anyOf
    validator = meta_validator(dialect)
    while todo:
        base, part, depth, outer = todo.pop()  # outer: the anyOf error that sent us into an items schema
        try:
            if validator.is_valid(part):  # most schemas are: skip building error objects
                if outer is not None:  # valid alone: the anyOf's own message is all there is to say
                    found.append((base, outer))
                continue
            errors = list(validator.iter_errors(part))
        except (ValueError, OverflowError, RecursionError):  # a value JSON cannot hold: nothing to say
            continue
        for error in errors:
            path = base + tuple(error.instance_path)
            nested = type(error.instance) is dict and "anyOf" in error.message
            if depth < descend and path[-1:] == ("items",) and nested:
                todo.append((path, error.instance, depth + 1, error))
            else:
                found.append((path, error))
    return found


_TYPES = "array, boolean, integer, null, number, object, string"
MAX_LISTED_OPTIONS = 12  # an enum this short is listed whole in a spec error


def spec_message(error: Any) -> str:
    """An error of a spec, suite or config document in a user's words: an enum lists its options
    ("is not one of "blank", "genericize", "truncate" or "drop_keyword""), where the validator names two."""
    kind = error.kind
    options = getattr(kind, "options", None)
    if type(kind).__name__ == "Enum" and isinstance(options, list) and 1 < len(options) <= MAX_LISTED_OPTIONS:
        shown = [json.dumps(o, ensure_ascii=False) for o in options]
        return f"{json.dumps(error.instance, ensure_ascii=False)} is not one of {', '.join(shown[:-1])} or {shown[-1]}"
    return str(error.message)


def _message(path: tuple[str | int, ...], error: Any) -> str:
    keyword = path[-1] if path else None
    text = str(error.message)
    if keyword == "type" and "anyOf" in text:  # the meta-schema's anyOf hides the real reason
        return f"{text.split(' is not', 1)[0]} is not a JSON type (expected {_TYPES}, or an array of them)"
    if keyword == "type" or (len(path) > 1 and path[-2] == "type"):
        if "is not one of" in text:
            return f"{text.split(' is not', 1)[0]} is not a JSON type (expected {_TYPES})"
    return text


def _hint(path: tuple[str | int, ...], error: Any, dialect: str, declared: bool = True) -> str:
    """A likely cause, for the mistakes that come from writing one dialect under another."""
    keyword = path[-1] if path else None
    if dialect in ("2020-12", "2019-09") and keyword == "items" and isinstance(error.instance, list):
        return " (the draft-07 tuple form: use prefixItems" + (", or declare a draft-07 $schema)" if declared else ")")
    if keyword in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(error.instance, bool):
        return " (the draft-04 boolean form: since draft-06 it is the bound itself, a number)"
    return ""


def value_validator(schema: dict[str, Any], dialect: str, root: dict[str, Any], pointer: str) -> Any:
    """A validator for values against schema, the node at pointer inside root; None when it cannot be built.

    References resolve inside root (the whole input schema). Validators of
    schemas without references are shared: catalogs repeat the same argument
    schema (a page size, a sort order) across many tools, with descriptions and
    defaults of their own (_without_annotations). `format` is an
    annotation, as 2019-09 on and python-jsonschema read it, in every dialect:
    jsonschema-rs would assert it for draft-07 and older.
    """
    built = compiled(schema, dialect, root, pointer)
    return None if isinstance(built, str) else built


def compiled(schema: dict[str, Any], dialect: str, root: dict[str, Any], pointer: str) -> Any:
    """value_validator's validator, or why jsonschema-rs cannot build one (a string).

    A schema that holds patterns is built first with room for SMALL_REGEX_SIZE a pattern, which nearly all
    fit; when that fails (a pattern needs more room, cannot be read, or the schema is not valid), it is built
    again without the patterns catalint does not evaluate (regex_cost), each given MAX_REGEX_SIZE.
    """
    import jsonschema_rs

    cls = getattr(jsonschema_rs, _CLASS[dialect])
    bare, notes = _without_annotations(schema)
    try:
        text = _ENCODE(bare)
        if notes:
            _ENCODE(notes)  # the whole schema must be JSON, as before
    except (TypeError, ValueError):
        return "the schema holds a value JSON cannot"
    if '"$ref"' not in text and '"$dynamicRef"' not in text and '"$recursiveRef"' not in text:
        key = (dialect, text)
        kept = _VALUES.get(key)
        if kept is not None:
            return kept[0]
        keywords = _LONG_ENUM_KEYWORDS if _holds_long_enum(bare) else None

        def build(data: Any, limit: int) -> Any:
            options = _regex_options(limit)
            return _build(
                lambda: cls(data, validate_formats=False, offline=True, keywords=keywords, pattern_options=options)
            )

        weight = 0
        if '"pattern' not in text:  # the common case: no pattern to compile
            built = build(bare, MAX_REGEX_SIZE)
        else:
            patterns = _patterns_in(text)
            built = build(bare, SMALL_REGEX_SIZE) if max(map(len, patterns), default=0) <= MAX_REGEX_CHECKED else ""
            weight = SMALL_REGEX_SIZE * len(patterns)
            if isinstance(built, str):
                changed, data, costs = _evaluable(text)
                built = build(data if changed else bare, MAX_REGEX_SIZE)
                weight = sum(max(cost, 0) for cost in costs.values())
        _keep(key, built, weight)
        return built
    # a name may hold a lone surrogate (a JSON escape such as "\udfff"), which UTF-8 cannot encode: passed
    # through as its three bytes, the reference stays well formed, and jsonschema-rs refuses the document
    # that holds the name as it refuses any schema that holds one (_build says why), never a crash
    ref = {"$ref": _DOC + "#" + quote(pointer, safe="/~!$&'()*+,;=:@", errors="surrogatepass")}
    keywords = _LONG_ENUM_KEYWORDS if _root_holds_long_enum(root) else None

    def build_ref(whole: Any, limit: int) -> Any:
        options = _regex_options(limit)
        return _build(
            lambda: cls(
                ref,
                registry=jsonschema_rs.Registry([(_DOC, whole)], retriever=_elsewhere),  # it too can refuse whole
                validate_formats=False,
                offline=True,
                keywords=keywords,
                pattern_options=options,
            )
        )

    patterns = _root_patterns(root)
    if not patterns:  # the common case: no pattern to compile (or a value JSON cannot hold: _build says so)
        return build_ref(root, MAX_REGEX_SIZE)
    built = build_ref(root, SMALL_REGEX_SIZE) if max(map(len, patterns)) <= MAX_REGEX_CHECKED else ""
    return build_ref(_evaluable_root(root), MAX_REGEX_SIZE) if isinstance(built, str) else built


# Keywords that annotate a value and never decide whether it is valid. A validator is keyed and built without
# them, so that schemas alike but for their default, examples or description (a catalog's properties) share one,
# and their patterns compile once: 300 properties with one pattern and 300 defaults built 300 validators. Each is
# taken out only when it holds what every dialect's meta-schema allows, so a schema fails to build, or not, as
# it would with them.
_TEXT_NOTES = frozenset(("title", "description", "$comment"))
_FLAG_NOTES = frozenset(("deprecated", "readOnly", "writeOnly"))
_NOTES = frozenset(("default", "examples", *_TEXT_NOTES, *_FLAG_NOTES))


def _without_annotations(schema: Any) -> tuple[Any, dict[str, Any] | None]:
    """schema less its annotations (itself when it has none), and the annotations taken out."""
    if type(schema) is not dict or _NOTES.isdisjoint(schema):
        return schema, None
    bare, notes = dict(schema), {}
    for key in _NOTES.intersection(schema):
        value = schema[key]
        kind = type(value)
        if (
            key == "default"
            or (key == "examples" and kind is list)
            or (kind is str and key in _TEXT_NOTES)
            or (kind is bool and key in _FLAG_NOTES)
        ):
            notes[key] = bare.pop(key)
    return bare, notes


LONG_ENUM = 256  # a schema with an enum longer than this has its enums checked by _Enum


class _Enum:
    """The `enum` keyword, in a validator of a schema that holds a long enum.

    For each error jsonschema-rs reports, it turns every option of the failing enum into a Python object
    (20 ms an error for 500,000 options, under an `anyOf` too), and it compares a value with an enum of
    mixed types one option at a time. Here the options are hashed once, and the message is jsonschema-rs's
    own for the first four options, with the count of the others put right: the same words for any enum.
    One difference: jsonschema-rs runs custom keywords after its own, so a value that breaks both the enum
    and another keyword of the same schema (maxLength) is told the other one's error first, a true one too.
    """

    def __init__(self, parent_schema: dict[str, Any], value: list[Any], schema_path: list[str | int]) -> None:
        import jsonschema_rs

        # the meta-schema, checked before any keyword is built, makes value an array
        self._keys = frozenset(json_key(v) for v in value)
        self._others = len(value) - 2  # jsonschema-rs names two options and counts the rest, from four options on
        self._sample = jsonschema_rs.Draft202012Validator({"enum": value[:4]}, offline=True)

    def validate(self, instance: Any) -> None:
        if json_key(instance) in self._keys:
            return
        message = next(iter(self._sample.iter_errors(instance))).message
        if self._others > 2:
            message = message.removesuffix(" or 2 other candidates") + f" or {self._others} other candidates"
        raise ValueError(message)


_LONG_ENUM_KEYWORDS = {"enum": _Enum}


def _holds_long_enum(document: Any) -> bool:
    """Whether some object in document has an `enum` array of over LONG_ENUM values (a schema's or not: an
    `enum` in a `const` only makes _Enum check the real enums)."""
    stack = [document]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            enum = value.get("enum")
            if isinstance(enum, list) and len(enum) > LONG_ENUM:
                return True
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


_root_holds_long_enum = ByIdentity(_holds_long_enum, 1)  # once per input schema, however many nodes refer into it


def unusable(schema: dict[str, Any], dialect: str) -> str | None:
    """Why value_validator cannot build a validator for a whole schema (a `$ref` to a place it does not
    have, or to another document, which catalint never fetches); None when it can. For a schema the user
    wrote (a gate, a suite's expect): value_validator reads a reference to another document as any value,
    which would make a check pass unseen, so here it is refused."""
    import jsonschema_rs

    try:
        text = _ENCODE(schema)
    except (TypeError, ValueError):
        return "it holds a value JSON cannot (a date?)"
    try:
        getattr(jsonschema_rs, _CLASS[dialect])(json.loads(text), offline=True)
    except Exception as exc:
        return str(exc).strip().split("\n", 1)[0] or type(exc).__name__
    return None if value_validator(schema, dialect, schema, "") is not None else "it cannot be built"


def _patterns_in(text: str) -> set[str]:
    """Every `pattern` and `patternProperties` name in the schema text (and in data that looks like a schema)."""
    seen: set[str] = set()

    def hook(value: dict[str, Any]) -> dict[str, Any]:
        pattern = value.get("pattern")
        if isinstance(pattern, str):
            seen.add(pattern)
        patterns = value.get("patternProperties")
        if isinstance(patterns, dict):
            seen.update(patterns)
        return value

    json.loads(text, object_hook=hook)
    return seen


def _evaluable(text: str) -> tuple[bool, Any, dict[str, int]]:
    """The schema text as data less every pattern catalint does not evaluate, whether it took one out, and the
    regex_cost of each pattern it holds.

    jsonschema-rs compiles every `pattern` and `patternProperties` name when it builds a validator. An object
    that is data (a `const` that looks like a schema) loses its pattern too: only a hostile one is taken out.
    """
    costs: dict[str, int] = {}
    changed = False

    def cost(pattern: str) -> int:
        known = costs.get(pattern)
        if known is None:
            known = costs[pattern] = regex_cost(pattern)
        return known

    def hook(value: dict[str, Any]) -> dict[str, Any]:
        nonlocal changed
        pattern = value.get("pattern")
        if isinstance(pattern, str) and cost(pattern) == NOT_EVALUATED:
            del value["pattern"]
            changed = True
        patterns = value.get("patternProperties")
        if isinstance(patterns, dict) and [cost(p) for p in patterns].count(NOT_EVALUATED):
            value["patternProperties"] = {p: s for p, s in patterns.items() if costs[p] != NOT_EVALUATED}
            changed = True
        return value

    data = json.loads(text, object_hook=hook)
    return changed, data, costs


def _text_of(root: dict[str, Any]) -> str | None:
    """A whole input schema as JSON text; None when it holds a value JSON cannot (compiled() says so for the node)."""
    try:
        return _ENCODE(root)
    except (TypeError, ValueError):
        return None


def _evaluable_whole(root: dict[str, Any]) -> Any:
    """root less the patterns catalint does not evaluate (root itself when it holds none)."""
    text = _root_text(root)
    if text is None or '"pattern' not in text:
        return root
    changed, data, _ = _evaluable(text)
    return data if changed else root


def _patterns_of_root(root: dict[str, Any]) -> set[str]:
    """The patterns of a whole input schema (none when it holds a value JSON cannot)."""
    text = _root_text(root)
    return _patterns_in(text) if text is not None and '"pattern' in text else set()


# once per input schema, however many nodes refer into it
_root_text = ByIdentity(_text_of, 1)
_evaluable_root = ByIdentity(_evaluable_whole, 1)
_root_patterns = ByIdentity(_patterns_of_root, 1)


def holds_patterns(root: dict[str, Any]) -> bool:
    """Whether a whole input schema holds a `pattern` or `patternProperties` name (read once a schema)."""
    return bool(_root_patterns(root))


MAX_KEPT = 4096  # validators kept for reuse
MAX_KEPT_REGEX = 32 << 20  # and what the patterns compiled into those validators may cost, in bytes (regex_cost)
_VALUES: OrderedDict[tuple[str, str], tuple[Any, int]] = OrderedDict()
_kept_regex = 0


def _keep(key: tuple[str, str], built: Any, weight: int) -> None:
    """Keep a validator for reuse, dropping the oldest past MAX_KEPT of them or MAX_KEPT_REGEX of their patterns:
    memory stays bounded however many distinct patterns a catalog holds."""
    global _kept_regex
    if weight > MAX_KEPT_REGEX:
        return  # used once, and let go
    while _VALUES and (len(_VALUES) >= MAX_KEPT or _kept_regex + weight > MAX_KEPT_REGEX):
        _kept_regex -= _VALUES.popitem(last=False)[1][1]
    _VALUES[key] = (built, weight)
    _kept_regex += weight


def _build(make: Any) -> Any:
    try:
        return make()
    except Exception as error:  # an invalid schema, or a reference that names nothing
        why = str(error).split("\n", 1)[0] or type(error).__name__
        if "surrogates not allowed" in why:  # Python's words, through jsonschema-rs's, for a "\ud800" escape
            return "it holds a lone surrogate (a \\ud800-\\udfff escape), which is not Unicode text"
        return why


def _elsewhere(uri: str) -> Any:
    """A document the schema refers to but does not hold: never fetched, read as the empty schema (any value)."""
    return {}


_ENCODE = json.JSONEncoder(sort_keys=True, allow_nan=False).encode
# The document's base URI: hierarchical, so that a relative `$id` inside it ("a.json") resolves; the
# .invalid top-level domain (RFC 2606) names no host, and the retriever above never fetches anyway.
_DOC = "https://catalint.invalid/schema.json"


def validation_errors(validator: Any, value: Any, most: int | None = None) -> list[Any]:
    """validator's errors for value (the first most of them). jsonschema-rs takes no string with a lone
    surrogate (JSON's "\\udfff"): such a value is checked with U+FFFD in the surrogate's place."""
    try:
        return list(islice(validator.iter_errors(value), most))
    except UnicodeEncodeError:
        return list(islice(validator.iter_errors(without_surrogates(value)), most))


def problem(validator: Any, value: Any) -> str:
    """Why value fails validator ("" when it passes, or when it cannot be told)."""
    try:
        errors = validation_errors(validator, value, 1)
    except (ValueError, OverflowError, RecursionError):
        return ""
    if not errors:
        return ""
    error = errors[0]
    path = "/".join(str(p) for p in error.instance_path)
    return f"fails at {path}: {error.message}" if path else f"fails: {error.message}"


_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(value: Any) -> Any:
    """value with each lone surrogate (JSON allows "\\udfff") replaced by U+FFFD, one character for one."""
    if isinstance(value, str):
        return value if value.isascii() else _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [without_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {without_surrogates(k): without_surrogates(v) for k, v in value.items()}
    return value


# Keywords quick_problem understands; a schema with any other validation keyword goes to jsonschema-rs.
_QUICK = frozenset(
    "type enum const minimum maximum exclusiveMinimum exclusiveMaximum minLength maxLength maxItems minItems "
    "title description default examples format deprecated readOnly writeOnly $comment".split()
)
_JSON_TYPES = frozenset(("array", "boolean", "integer", "null", "number", "object", "string"))
_TEXT_KEYS = frozenset(("title", "description", "$comment", "format"))
_FLAG_KEYS = ("deprecated", "readOnly", "writeOnly")
_OTHER_KEYS = frozenset((*_FLAG_KEYS, "examples"))


def quick_problem(schema: dict[str, Any], value: Any, dialect: str = DEFAULT_DIALECT) -> str | None:
    """Why value breaks a simple schema ("" when it does not), checked in Python; None when the schema is not simple."""
    check = quick_check(schema, dialect)
    return None if check is None else check(value)


def quick_check(schema: dict[str, Any], dialect: str = DEFAULT_DIALECT) -> Callable[[Any], str] | None:
    """A check that says why a value breaks a simple schema ("" when it does not), in Python; None when
    the schema is not simple. The schema is read once, however many values are checked.

    Catalogs check thousands of defaults and enum values, nearly all against
    schemas of type, enum and bounds only; this skips building a validator for them.
    It answers as value_validator's validator would, and leaves to it (None) any schema
    jsonschema-rs would refuse to build: a keyword of the wrong kind, the draft-04 bounds.
    """
    if not _QUICK.issuperset(schema):
        return None
    draft04 = dialect == "draft-04"
    if draft04 and ("exclusiveMinimum" in schema or "exclusiveMaximum" in schema or "const" in schema):
        return None  # booleans that modify minimum and maximum, and a const draft-04 does not know
    declared = schema.get("type")
    if declared is not None:
        if isinstance(declared, str):
            if declared not in _JSON_TYPES:
                return None
        elif not (
            isinstance(declared, list)
            and declared
            and all(isinstance(k, str) and k in _JSON_TYPES for k in declared)
            and len(set(declared)) == len(declared)
        ):
            return None
    for key in _TEXT_KEYS.intersection(schema):
        if type(schema[key]) is not str:
            return None
    if not _OTHER_KEYS.isdisjoint(schema):
        for key in _FLAG_KEYS:
            if key in schema and type(schema[key]) is not bool:
                return None
        if "examples" in schema and type(schema["examples"]) is not list:
            return None
    has_enum, enum = "enum" in schema, schema.get("enum")
    if has_enum and not isinstance(enum, list):
        return None
    has_const, const = "const" in schema, schema.get("const")
    bounds = []
    if not _BOUND_KEYS.isdisjoint(schema):
        for key, ok in _BOUNDS:
            if key in schema:
                bound = schema[key]
                if not _is_number(bound):
                    return None
                bounds.append((key, ok, bound))
    sizes: dict[str, int] = {}
    if not _LENGTH_KEYS.isdisjoint(schema):
        for key in _LENGTH_KEYS:
            if key in schema:
                size = schema[key]
                # a non-negative integer; from draft-06 on, 3.0 is one
                if type(size) is float and not draft04 and size.is_integer():
                    size = int(size)
                if type(size) is not int or size < 0:
                    return None
                sizes[key] = size
    integer = _is_draft04_integer if draft04 else _is_integer
    low_str, high_str = sizes.get("minLength"), sizes.get("maxLength")
    low_list, high_list = sizes.get("minItems"), sizes.get("maxItems")

    def why(value: Any) -> str:
        if declared is not None:
            if isinstance(declared, str):
                typed = integer(value) if declared == "integer" else is_type(value, declared)
            else:
                typed = any(integer(value) if k == "integer" else is_type(value, k) for k in declared)
            if not typed:
                return f"is not of type {json.dumps(declared)}"
        if has_enum and not in_enum(value, enum):
            return "is not one of the enum values"
        if has_const and not json_equal(value, const):
            return "is not the const value"
        kind = type(value)  # JSON data: no subclasses but bool's of int
        if kind is int or kind is float:
            for key, ok, bound in bounds:
                if not ok(value, bound):
                    return f"breaks {key} {bound}"
        elif kind is str or kind is list:
            low, high = (low_str, high_str) if kind is str else (low_list, high_list)
            if low is not None or high is not None:
                # string length in code points, as JSON Schema counts it (Python's len does)
                sized = len(value)
                if low is not None and sized < low:
                    return f"breaks {'minLength' if kind is str else 'minItems'} {low}"
                if high is not None and sized > high:
                    return f"breaks {'maxLength' if kind is str else 'maxItems'} {high}"
        return ""

    return why


def _is_number(value: Any) -> bool:
    return (type(value) is int or type(value) is float) and value == value


def _is_integer(value: Any) -> bool:
    return type(value) is int or (type(value) is float and value.is_integer())


def _is_draft04_integer(value: Any) -> bool:
    return type(value) is int  # draft-04 has no integral floats: 1.0 is a number, not an integer


_BOUNDS = (
    ("minimum", operator.ge),
    ("maximum", operator.le),
    ("exclusiveMinimum", operator.gt),
    ("exclusiveMaximum", operator.lt),
)
_BOUND_KEYS = frozenset(key for key, _ in _BOUNDS)
_LENGTH_KEYS = frozenset(("minLength", "maxLength", "minItems", "maxItems"))


def is_type(value: Any, kind: str) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "null":
        return value is None
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    if isinstance(value, bool):
        return False
    if kind == "number":
        return isinstance(value, (int, float))
    if kind == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    return False


def json_key(value: Any) -> Any:
    """A key under which JSON-equal values collide (1 and 1.0 do; 1 and true do not)."""
    if isinstance(value, bool) or value is None:
        return (type(value), value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ("array", tuple(json_key(v) for v in value))
    if isinstance(value, dict):
        return ("object", tuple(sorted((k, json_key(v)) for k, v in value.items())))
    return ("other", repr(value))


_enum_keys = ByIdentity(lambda enum: frozenset(json_key(v) for v in enum), 257)  # a long enum, hashed once


def in_enum(value: Any, enum: list[Any]) -> bool:
    """JSON-equal membership; a long enum is hashed once, so checking each of its values stays linear."""
    if len(enum) <= 16:
        if type(value) is str:  # == is JSON equality for a string, and the list's `in` runs at C speed
            return value in enum
        return any(json_equal(value, v) for v in enum)
    return json_key(value) in _enum_keys(enum)


def json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON Schema defines it: 1 == 1.0, but true != 1."""
    if type(a) is str:  # the common case
        return type(b) is str and a == b
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


# Longer patterns are not checked: regress's parse costs some 80 bytes a character.
MAX_REGEX_CHECKED = 10_000
# A Unicode property escape (\p{L}, \P{Lu}) outside an escaped backslash; every other escape is kept as written.
_PROPERTY_OR_ESCAPE = re.compile(r"\\[pP]\{[^{}]*\}|\\.", re.DOTALL)


@lru_cache(maxsize=1024)
def regex_problem(pattern: str) -> str | None:
    r"""Why pattern is no ECMA-262 regular expression, read with the u flag or without; None when it is one
    under either reading, or is too long to tell.

    The parser is regress's, an ECMA-262 engine: Python's `re` is another dialect (it rejects `\p{L}`),
    and jsonschema-rs translates to Rust's regex crate, which refuses valid ECMA such as
    `(?<y>a)\k<y>` and `a{100000}`. Nothing is run. The u-flag reading takes each `\p{...}` as `\d`:
    regress builds the property's whole character set, which a pattern of thousands could make costly,
    and a property name only matters when the pattern is broken anyway.
    """
    if len(pattern) > MAX_REGEX_CHECKED:
        return None
    import regress

    try:
        regress.Regex(pattern, "")
        return None  # valid as written, in the reading without the u flag (ECMA-262 Annex B)
    except Exception as error:
        why = str(error) or type(error).__name__
    try:
        regress.Regex(_PROPERTY_OR_ESCAPE.sub(_as_digit, pattern), "u")
        return None
    except Exception:
        return why


def _as_digit(match: re.Match[str]) -> str:
    escape = match.group()
    return "\\d" if len(escape) > 2 else escape


def pattern_matches(pattern: str, text: str) -> bool | None:
    """Whether an ECMA-262 `pattern` matches text, by jsonschema-rs's regex engine (None: cannot tell).

    Python's `re` backtracks without limit, so a hostile pattern such as
    `(a+)+$` could hang the run; jsonschema-rs bounds backtracking. Each
    pattern is compiled once (regex_cost, _matcher), however many names it is
    tried on: 400 names against `^\\p{L}{65535}$` compiled it 400 times, 20 s.
    """
    if regex_cost(pattern) <= BROKEN:
        return None  # not evaluated, or jsonschema-rs cannot read it
    matcher = _matcher(pattern)
    if matcher is None:
        return None
    try:
        return bool(matcher.is_valid(text))
    except Exception:
        return None


# A pattern is evaluated only when jsonschema-rs compiles it within this many bytes, the regex crate's own measure
# of the program it builds (the crate's default limit is 10 MiB). Compiling costs some 5 ms a megabyte, and a
# dozen characters can ask for more than the crate allows: `\p{L}{65535}` took 0.1 s to be refused, each time it
# was built. Past the limit a pattern is not evaluated (README, Limits), as one over MAX_REGEX_CHECKED characters.
MAX_REGEX_SIZE = 1 << 20
SMALL_REGEX_SIZE = 64 << 10  # most patterns compile within this: what each counts against the validators kept
NOT_EVALUATED = -1
BROKEN = 0
_OPTIONS: dict[int, Any] = {}


def _regex_options(limit: int) -> Any:
    """jsonschema-rs's options for its default engine (fancy-regex), with room for limit bytes a pattern."""
    options = _OPTIONS.get(limit)
    if options is None:
        import jsonschema_rs

        options = _OPTIONS[limit] = jsonschema_rs.FancyRegexOptions(size_limit=limit)
    return options


def _compiles(pattern: str, limit: int) -> Any:
    """A validator of strings against pattern, its program built within limit bytes; None when it cannot be."""
    import jsonschema_rs

    try:
        return jsonschema_rs.Draft202012Validator(
            {"pattern": pattern}, offline=True, pattern_options=_regex_options(limit)
        )
    except Exception:
        return None


@lru_cache(maxsize=32)  # each holds up to MAX_REGEX_SIZE
def _matcher(pattern: str) -> Any:
    return _compiles(pattern, MAX_REGEX_SIZE)


@lru_cache(maxsize=1024)
def regex_cost(pattern: str) -> int:
    r"""What pattern costs a validator that holds it, in bytes: SMALL_REGEX_SIZE or MAX_REGEX_SIZE. BROKEN when
    jsonschema-rs cannot read it at all (it stays in the schema, whose validator fails to build as before);
    NOT_EVALUATED when it is over MAX_REGEX_CHECKED characters, or compiles only past MAX_REGEX_SIZE.

    Told by jsonschema-rs, once a pattern: compiled within SMALL_REGEX_SIZE, then MAX_REGEX_SIZE. A pattern
    that fails both is read again lighter (_lighter: `\p{L}{65535}` as `\d{1}`): when that compiles, size alone
    refused it, so it is not evaluated; otherwise it is broken.
    """
    if len(pattern) > MAX_REGEX_CHECKED:
        return NOT_EVALUATED
    if _compiles(pattern, SMALL_REGEX_SIZE) is not None:
        return SMALL_REGEX_SIZE
    if _matcher(pattern) is not None:
        return MAX_REGEX_SIZE
    light = _lighter(pattern)
    if light is not None and _compiles(light, MAX_REGEX_SIZE) is not None:
        return NOT_EVALUATED
    return BROKEN


_COUNTED = re.compile(r"\{(\d+)(,(\d*))?\}")
_MAX_COUNT = 0xFFFF_FFFF  # the regex crate reads a count as a 32-bit number: a larger one is a syntax error


def _lighter(pattern: str) -> str | None:
    r"""pattern with each counted repetition cut to at most one ({0}, {1}, {1,}, {0,1}, {1,1}) and each Unicode
    property escape (`\p{L}`, each compiled alone first) made `\d`: what it would be but for its size. None when
    nothing changes, or when a count or a property is one the engine refuses. A pair out of order ({3,2}) is
    kept, and stays an error."""
    broken = False

    def fewer(match: re.Match[str]) -> str:
        nonlocal broken
        digits, comma, high_digits = match.groups()
        if len(digits) > 10 or len(high_digits or "") > 10:  # past 32 bits (and past what int() reads at once)
            broken = True
            return match.group()
        low, high = int(digits), int(high_digits) if high_digits else None
        if low > _MAX_COUNT or (high is not None and high > _MAX_COUNT):
            broken = True
        if high is not None and high < low:
            return match.group()
        cut = f"{min(low, 1)}"
        if comma:
            cut += "," + (f"{min(high, 1)}" if high is not None else "")
        return "{" + cut + "}"

    def plain(match: re.Match[str]) -> str:
        nonlocal broken
        escape = match.group()
        if len(escape) <= 2:
            return escape
        if not _known_property(escape):
            broken = True
        return "\\d"

    light = _PROPERTY_OR_ESCAPE.sub(plain, _COUNTED.sub(fewer, pattern))
    return None if broken or light == pattern else light


@lru_cache(maxsize=256)
def _known_property(escape: str) -> bool:
    """Whether jsonschema-rs reads a Unicode property escape (`\\p{L}`, `\\P{Greek}`) on its own."""
    return _compiles(escape, MAX_REGEX_SIZE) is not None
