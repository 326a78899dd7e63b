"""Read and check a `catalint bench` spec: catalog, intents, mutations.

The spec is validated against schemas/bench-spec.schema.json (shipped in the
package); every error names the spec file and the line and column of the
offending value.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from catalint.loader import LoadError, build_catalog, file_problem, load_path, parse_document
from catalint.model import Catalog, Span

KINDS = ("blank", "genericize", "truncate", "drop_keyword")
AUTO_TRUNCATE = 40  # characters kept by --auto's truncate mutation


@dataclass(frozen=True)
class Intent:
    query: str
    gold: tuple[str, ...]


@dataclass(frozen=True)
class Mutation:
    tool: str
    kind: str
    chars: int | None = None
    word: str | None = None

    def label(self) -> str:
        if self.kind == "truncate":
            return f"truncate {self.chars}"
        if self.kind == "drop_keyword":
            from catalint.text import NAME_COLUMN, clip

            return f"drop_keyword {clip(self.word or '', NAME_COLUMN)!r}"  # a label, one line however long the word
        return self.kind

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tool": self.tool, "kind": self.kind}
        if self.chars is not None:
            out["chars"] = self.chars
        if self.word is not None:
            out["word"] = self.word
        return out


@dataclass
class Spec:
    path: str
    name: str | None
    catalog: Catalog
    intents: list[Intent]
    mutations: list[Mutation] | None  # None: none were given (bench --auto makes them)
    mutation_starts: list[tuple[int, int]] = field(default_factory=list)  # line, column of each in the spec


_SCHEMA: Any = None


def spec_schema() -> dict[str, Any]:
    """The shipped JSON Schema of a bench spec."""
    global _SCHEMA
    if _SCHEMA is None:
        from importlib import resources

        text = resources.files("catalint").joinpath("schemas").joinpath("bench-spec.schema.json").read_text("utf-8")
        _SCHEMA = json.loads(text)
    return _SCHEMA


class _Prefixed:
    """A source map seen from a sub-document (the inline catalog at /catalog)."""

    def __init__(self, source: Any, prefix: str) -> None:
        self.source, self.prefix = source, prefix

    def span(self, pointer: str) -> Span:
        return self.source.span(self.prefix + pointer)

    def start(self, pointer: str) -> tuple[int, int]:
        return self.source.start(self.prefix + pointer)


def load_spec(path: str) -> Spec:
    """Parse, validate and resolve a spec; LoadError (exit 2) on any problem."""
    display = path
    data, source = parse_document(path)

    def fail(message: str, pointer: str) -> LoadError:
        span = source.span(pointer)
        return LoadError(display, message, span.line, span.col, pointer)

    known = spec_schema()["properties"]
    if isinstance(data, dict) and all(k in known for k in data) and ("catalog" in data) == ("catalog_path" in data):
        raise fail("give exactly one of catalog (inline) and catalog_path", "")  # the schema's oneOf says less
    _validate(data, fail)
    if "catalog" in data:
        try:
            catalog = build_catalog(data["catalog"], _Prefixed(source, "/catalog"), path, display)
        except LoadError as exc:  # its pointer is inside the catalog: make it the spec's
            pointer = "/catalog" + (exc.pointer or "")
            raise LoadError(display, exc.message, exc.line, exc.col, pointer) from None
    else:
        target = Path(path).parent / data["catalog_path"]
        problem = file_problem(target)
        if problem is not None:
            raise fail(f"catalog_path {data['catalog_path']!r}: {problem} ({target})", "/catalog_path")
        catalog = load_path(str(target))
    names = {t.name for t in catalog.tools}
    if len(names) < len(catalog.tools):  # a pick, a gold name or a mutation of that name would be ambiguous
        first = {t.name: t.index for t in reversed(catalog.tools)}  # each name's first tool
        twin = next(t for t in catalog.tools if first[t.name] != t.index)
        message = f"the catalog has two tools named {twin.name!r} (CAT-001): a pick or mutation of it is ambiguous"
        if "catalog" in data:
            raise fail(message, "/catalog" + twin.pointer + "/name")
        line, col = catalog.start(twin.pointer + "/name")
        raise LoadError(catalog.display, message, line, col, twin.pointer + "/name")
    intents = []
    for i, raw in enumerate(data["intents"]):
        for j, name in enumerate(raw["gold"]):
            if name not in names:
                raise fail(f"gold names {name!r}, which is not a tool of the catalog", f"/intents/{i}/gold/{j}")
        intents.append(Intent(raw["query"], tuple(dict.fromkeys(raw["gold"]))))
    mutations = None
    if data.get("mutations"):  # absent or empty: none given, so bench run makes them (--auto)
        mutations = []
        for i, raw in enumerate(data["mutations"]):
            if raw["tool"] not in names:
                raise fail(f"mutation of {raw['tool']!r}, which is not a tool of the catalog", f"/mutations/{i}/tool")
            chars = raw.get("chars")  # JSON Schema counts 5.0 as an integer: a slice index must be an int
            mutations.append(Mutation(raw["tool"], raw["kind"], None if chars is None else int(chars), raw.get("word")))
    starts = [source.start(f"/mutations/{i}") for i in range(len(mutations or []))]
    return Spec(path, data.get("name"), catalog, intents, mutations, starts)


_FIELDS = {"truncate": ("chars",), "drop_keyword": ("word",), "blank": (), "genericize": ()}


def _mutation_fields(data: Any, fail: Any) -> None:
    """Clear messages for a mutation's kind-specific fields (the schema's would be raw)."""
    mutations = data.get("mutations") if isinstance(data, dict) else None
    for i, m in enumerate(mutations if isinstance(mutations, list) else []):
        # kind may be any value here (the schema is checked after): a list or an object cannot be looked up
        if not isinstance(m, dict) or not isinstance(m.get("kind"), str) or m["kind"] not in _FIELDS:
            continue
        wanted = _FIELDS[m["kind"]]
        for key in ("chars", "word"):
            if key in wanted and key not in m:
                raise fail(f"a {m['kind']} mutation needs {key!r}", f"/mutations/{i}")
            if key not in wanted and key in m:
                raise fail(f"a {m['kind']} mutation takes no {key!r}", f"/mutations/{i}/{key}")


def _validate(data: Any, fail: Any) -> None:
    from catalint.metaschema import spec_message, validation_errors, value_validator

    _mutation_fields(data, fail)
    schema = spec_schema()
    validator = value_validator(schema, "2020-12", schema, "")
    try:
        errors = validation_errors(validator, data)
    except (ValueError, OverflowError, RecursionError):
        raise fail("the spec holds values JSON cannot (check for dates or binary data)", "") from None
    if errors:
        # the deepest error says most: "intents/2/gold: [] has less than 1 item" over "is not valid"
        error = max(errors, key=lambda e: len(list(e.instance_path)))
        path = [str(p) for p in error.instance_path]
        unexpected = getattr(error.kind, "unexpected", None)
        if unexpected:  # an unknown key: point at it, not at the object around it
            inside = f" in {'/'.join(path)}" if path else ""
            path.append(str(unexpected[0]))
            raise fail(f"unknown key {unexpected[0]!r}{inside}", "/" + "/".join(_esc(p) for p in path))
        pointer = "".join("/" + _esc(p) for p in path)
        where = "/".join(path) or "the spec"
        raise fail(f"invalid bench spec at {where}: {spec_message(error)}", pointer)


def _esc(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")
