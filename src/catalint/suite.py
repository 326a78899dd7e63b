"""`catalint check SUITE.yml`: the `tool_quality:` blocks and agent scenarios of an mcptest-style suite.

Each tool_quality block names a server (by a `servers:` entry: a command, a
URL or a saved catalog) or a catalog file, and the gate checks its catalog must
pass (the default gate when `expect:` is absent). The `agents:` and `tests:`
entries are scenarios: with `--traces DIR`, their trace blocks are scored
against the recorded runs (see trace_scenario). Other top-level blocks of a full
suite are not catalint's: they are skipped with a one-line notice.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalint.gate import DEFAULT_GATE, Check, GateError, Row, check_target, parse_expect, parse_matcher
from catalint.loader import LoadError, load_path, parse_document, special_kind
from catalint.model import Catalog
from catalint.sourcemap import join_pointer, resolve_pointer
from catalint.trace_scenario import Scenario, parse_scenario

TRACE_BLOCKS = (
    "equal_function_sets",
    "token_efficiency",
    "tool_selection",
    "distractors",
    "discovery",
    "orchestration",
)

KNOWN = ("servers", "tool_quality", "agents", "tests")


@dataclass
class Block:
    name: str
    kind: str  # "server" or "catalog"
    source: str  # the server's name, or the catalog path as written
    checks: list[Check]
    rows: list[Row] | None = None
    error: str | None = None

    @property
    def passed(self) -> bool:
        return self.error is None and all(r.passed for r in self.rows or [])


def _schema() -> dict[str, Any]:
    from importlib import resources

    return json.loads(resources.files("catalint").joinpath("schemas").joinpath("suite.schema.json").read_text("utf-8"))


@dataclass
class Suite:
    servers: dict[str, Any]
    blocks: list[Block]
    scenarios: list[Scenario]
    notices: list[str]


def _validated(path: str, what: str, pointer: str, misread: Callable[[Any], str | None]) -> tuple[Any, Any]:
    """The document at path, valid against the shipped schema's node at pointer; else a positioned LoadError.

    misread(data) names a document of the wrong kind as a whole, which says more than the schema's first error.
    """
    data, source = parse_document(path)
    from catalint.metaschema import spec_message, validation_errors, value_validator

    schema = _schema()
    validator = value_validator(resolve_pointer(schema, pointer), "2020-12", schema, pointer)
    try:
        errors = validation_errors(validator, data)
    except ValueError:  # jsonschema-rs refuses to follow nesting this deep
        raise LoadError(path, f"the {what} is nested too deeply to check") from None
    if errors:
        error = max(errors, key=lambda e: len(list(e.instance_path)))
        parts = [str(p) for p in error.instance_path]
        unexpected = getattr(error.kind, "unexpected", None)
        if type(error.kind).__name__ == "AdditionalProperties" and unexpected:
            parts.append(str(unexpected[0]))  # point at the unknown key itself
        where = "/".join(parts) or "the root"
        inner = "".join(f"/{p.replace('~', '~0').replace('/', '~1')}" for p in parts)
        span = source.span(inner)
        said = _one_of_message(error, resolve_pointer(schema, pointer), schema) or spec_message(error)
        message = misread(data) or f"invalid {what} at {where}: {said}"
        raise LoadError(path, message, span.line, span.col, inner)
    return data, source


def _one_of_message(error: Any, node: Any, schema: Any) -> str | None:
    """A oneOf failure in a user's words, read from the branches (the validator only says none or several
    matched): "give exactly one of server or catalog", "from: near_duplicate needs of"."""
    if type(error.kind).__name__ not in ("OneOfNotValid", "OneOfMultipleValid") or not isinstance(error.instance, dict):
        return None
    for key in error.schema_path:  # down to the oneOf, through the $refs on the way
        while isinstance(node, dict) and "$ref" in node and key != "$ref":
            node = resolve_pointer(schema, str(node["$ref"]).removeprefix("#"))
        if key == "$ref":
            continue
        try:
            node = node[int(key)] if isinstance(node, list) else node[key]
        except (KeyError, IndexError, TypeError, ValueError):
            return None
    if not isinstance(node, list) or not all(isinstance(b, dict) for b in node):
        return None
    given = error.instance
    for branch in node:  # branches told apart by a constant (from: catalog, from: near_duplicate)
        props = branch.get("properties", {})
        consts = {k: v["const"] for k, v in props.items() if isinstance(v, dict) and "const" in v}
        if consts and all(given.get(k) == v for k, v in consts.items()):
            missing = [r for r in branch.get("required", []) if r not in given]
            label = ", ".join(f"{k}: {v}" for k, v in consts.items())
            return f"{label} needs {' and '.join(missing)}" if missing else None
    keys = [b["required"][0] for b in node if len(b.get("required", [])) == 1]
    if len(keys) != len(node) or len(keys) < 2:
        return None
    named = ", ".join(keys[:-1]) + f" or {keys[-1]}"
    there = [k for k in keys if k in given]
    return f"give exactly one of {named}" + (f", not {' and '.join(there)}" if len(there) > 1 else ", none is given")


_SUITE_AS_SPEC = (
    "this is a suite (servers:, tool_quality:, agents: or tests:), not a trace spec: run `catalint check FILE "
    "--traces DIR`, or give one scenario's blocks at the top level"
)


def _suite_as_spec(data: Any) -> str | None:
    return _SUITE_AS_SPEC if isinstance(data, dict) and any(k in data for k in KNOWN) else None


def _empty_suite(data: Any) -> str | None:
    if isinstance(data, dict) and not any(k in data for k in KNOWN[1:]):
        return "the suite has no tool_quality:, agents: or tests: block, so there is nothing to check"
    return None


def load_spec(path: str) -> Scenario:
    """A `trace score --spec FILE`: one scenario, the shape of a suite's agent entry."""
    data, source = _validated(path, "trace spec", "/$defs/scenario", _suite_as_spec)

    def fail(message: str, pointer: str) -> LoadError:
        span = source.span(pointer)
        return LoadError(path, message, span.line, span.col, pointer)

    _check_typos(data, "", fail)
    if not any(block in data for block in TRACE_BLOCKS):
        if _suite_as_spec(data):
            raise fail(_SUITE_AS_SPEC, "")
        raise fail(f"the spec has no trace block ({', '.join(TRACE_BLOCKS)})", "")
    return parse_scenario({"name": Path(path).stem, **data}, path, fail)


def _check_typos(entry: dict[str, Any], pointer: str, fail: Any) -> None:
    """A scenario's other keys belong to the agent runner; one that looks like a misspelt trace block is an error."""
    import difflib

    for key in entry:
        if key in TRACE_BLOCKS or not isinstance(key, str):
            continue
        close = difflib.get_close_matches(key, TRACE_BLOCKS, n=1, cutoff=0.8)
        if close:
            raise fail(f"unknown key {key!r}: did you mean {close[0]!r}?", f"{pointer}/{key}")


def load_suite(path: str) -> Suite:
    """The suite's servers, blocks, scenarios and notices; LoadError (exit 2) on an invalid suite."""
    data, source = _validated(path, "suite", "", _empty_suite)

    def fail(message: str, pointer: str) -> LoadError:
        span = source.span(pointer)
        return LoadError(path, message, span.line, span.col, pointer)

    servers = data.get("servers", {})
    _refuse_special_catalogs(data, path, fail)
    notices = [
        f"{path}: notice: skipping {key!r}: catalint checks tool_quality, agents and tests"
        for key in data
        if key not in KNOWN
    ]
    scenarios = _scenarios(data, path, fail, notices)
    blocks = []
    for i, entry in enumerate(data.get("tool_quality", [])):
        if "server" in entry and entry["server"] not in servers:
            message = f"tool_quality {entry['name']!r} names server {entry['server']!r}, which servers: does not define"
            raise fail(message, f"/tool_quality/{i}/server")
        checks = []
        for j, item in enumerate(entry.get("expect", [])):
            where = f"{path}: tool_quality[{i}].expect[{j}]"
            try:
                if "target" in item:
                    checks.append(parse_expect(item, where))
                else:
                    if len(item) != 1:
                        raise GateError(f"{where}: give one TARGET: {{OP: N}} or target/matcher")
                    ((target, matcher),) = item.items()
                    checks.append(parse_matcher(check_target(target, where), matcher, where))
            except GateError as exc:
                span = source.span(f"/tool_quality/{i}/expect/{j}")
                raise LoadError(path, str(exc).split(": ", 2)[-1], span.line, span.col) from None
        kind = "server" if "server" in entry else "catalog"
        blocks.append(Block(entry["name"], kind, entry[kind], checks or list(DEFAULT_GATE)))
    return Suite(servers, blocks, scenarios, notices)


def catalog_files(suite: Suite, suite_path: str) -> list[str]:
    """The catalog files the suite reads: its catalog blocks' and its servers' saved catalogs."""
    named = [b.source for b in suite.blocks if b.kind == "catalog"]
    named += [s["catalog"] for s in suite.servers.values() if "catalog" in s]
    return [beside(suite_path, value) for value in named]


def beside(suite_path: str, value: str) -> str:
    """A file a suite names, from the suite's folder; '-' is a file here ('./-'), never standard input."""
    folder = os.path.dirname(suite_path)
    return os.path.join(folder, value) if folder else "./-" if value == "-" else value


def _refuse_special_catalogs(data: dict[str, Any], path: str, fail: Any) -> None:
    """A catalog: that names a FIFO, a socket or a device is an invalid suite, at its key: reading it would
    wait for a writer forever, or never end (as for --config and a bench spec's catalog_path). A catalog
    that is missing or unreadable fails its block when it is read."""
    named = [
        (join_pointer("", "servers", name, "catalog"), spec["catalog"])
        for name, spec in data.get("servers", {}).items()
        if "catalog" in spec
    ]
    named += [
        (f"/tool_quality/{i}/catalog", e["catalog"])
        for i, e in enumerate(data.get("tool_quality", []))
        if "catalog" in e
    ]
    for pointer, value in named:
        kind = special_kind(Path(beside(path, value)))
        if kind is not None:
            raise fail(f"catalog {value!r}: {kind}, not a regular file ({beside(path, value)})", pointer)


def _scenarios(data: dict[str, Any], path: str, fail: Any, notices: list[str]) -> list[Scenario]:
    """agents: entries, and tests: entries (which take servers and prompt from the agent they name);
    a tests: entry with no trace block is skipped with a notice."""
    agents = {a["name"]: a for a in data.get("agents", [])}
    found: list[Scenario] = []
    names: dict[str, str] = {}
    for key in ("agents", "tests"):
        for i, entry in enumerate(data.get(key, [])):
            pointer = f"/{key}/{i}"
            if key == "tests" and "agent" in entry:
                if entry["agent"] not in agents:
                    raise fail(
                        f"test {entry['name']!r} names agent {entry['agent']!r}, which agents: does not define",
                        pointer + "/agent",
                    )
                base = agents[entry["agent"]]
                entry = {**{k: base[k] for k in ("servers", "prompt") if k in base}, **entry}
            _check_typos(entry, pointer, fail)
            if not any(block in entry for block in TRACE_BLOCKS):
                if key == "tests":  # an agents: entry without one is a definition that tests use
                    notices.append(
                        f"{path}: notice: skipping tests[{i}] {entry.get('name')!r}: it has no trace block "
                        f"({', '.join(TRACE_BLOCKS)}), and catalint scores only recorded runs"
                    )
                continue
            if entry["name"] in names:
                raise fail(
                    f"two scenarios are named {entry['name']!r} ({names[entry['name']]} and {pointer})",
                    pointer + "/name",
                )
            names[entry["name"]] = pointer
            for j, server in enumerate(entry.get("servers", [])):
                if server not in data.get("servers", {}):
                    raise fail(
                        f"scenario {entry['name']!r} names server {server!r}, which servers: does not define",
                        f"{pointer}/servers/{j}",
                    )

            def at(message: str, inner: str, base: str = pointer) -> LoadError:
                return fail(message, base + inner)

            found.append(parse_scenario(entry, f"{path}: {key}[{i}]", at))
    return found


def catalog_for(block: Block, servers: dict[str, Any], suite_path: str, notes: list[str]) -> Catalog:
    """The block's catalog: a file, or its server snapshotted in memory (what the snapshot notices goes
    to notes)."""
    if block.kind == "catalog":
        return load_path(beside(suite_path, block.source))
    from catalint.snapshot import Server, live_catalog

    spec = servers[block.source]
    if "catalog" in spec:
        return load_path(beside(suite_path, spec["catalog"]))
    headers, env = dict(spec.get("headers", {})), dict(spec.get("env", {}))
    server = Server(list(spec.get("command", [])), spec.get("url"), headers, env)
    return live_catalog(server, notes, f"<{block.source}>")
