"""`catalint check SUITE.yml`: the `tool_quality:` blocks of an mcptest-style suite.

Each block names a server (by a `servers:` entry: a command, or a URL) or a
catalog file, and the gate checks its catalog must pass (the default gate when
`expect:` is absent). Other top-level blocks of a full suite (agents, tests,
...) are not catalint's: they are skipped with a one-line notice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalint.gate import DEFAULT_GATE, Check, GateError, Row, check_target, parse_expect, parse_matcher
from catalint.loader import LoadError, load_path, load_text, parse_document
from catalint.model import Catalog

KNOWN = ("servers", "tool_quality")


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


def load_suite(path: str) -> tuple[dict[str, Any], list[Block], list[str]]:
    """The suite's servers, its blocks and notices; LoadError (exit 2) on an invalid suite."""
    data, source = parse_document(path)

    def fail(message: str, pointer: str) -> LoadError:
        span = source.span(pointer)
        return LoadError(path, message, span.line, span.col, pointer)

    from catalint.metaschema import value_validator

    schema = _schema()
    errors = list(value_validator(schema, "2020-12", schema, "").iter_errors(data))
    if errors:
        error = max(errors, key=lambda e: len(list(e.instance_path)))
        parts = [str(p) for p in error.instance_path]
        where = "/".join(parts) or "the root"
        raise fail(f"invalid suite at {where}: {error.message}", "".join(f"/{p}" for p in parts))
    servers = data.get("servers", {})
    notices = [
        f"{path}: notice: skipping {key!r}: catalint checks only tool_quality" for key in data if key not in KNOWN
    ]
    blocks = []
    for i, entry in enumerate(data["tool_quality"]):
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
                    ((target, matcher),) = item.items() if len(item) == 1 else (None, None)
                    if target is None:
                        raise GateError(f"{where}: give one TARGET: {{OP: N}} or target/matcher")
                    checks.append(parse_matcher(check_target(target, where), matcher, where))
            except GateError as exc:
                span = source.span(f"/tool_quality/{i}/expect/{j}")
                raise LoadError(path, str(exc).split(": ", 2)[-1], span.line, span.col) from None
        kind = "server" if "server" in entry else "catalog"
        blocks.append(Block(entry["name"], kind, entry[kind], checks or list(DEFAULT_GATE)))
    return servers, blocks, notices


def catalog_for(block: Block, servers: dict[str, Any], suite_path: str) -> Catalog:
    if block.kind == "catalog":
        return load_path(str(Path(suite_path).parent / block.source))
    from catalint.snapshot import Server, render, take

    spec = servers[block.source]
    headers, env = dict(spec.get("headers", {})), dict(spec.get("env", {}))
    server = Server(list(spec.get("command", [])), spec.get("url"), headers, env)
    return load_text(render(take(server), False), "-", f"<{block.source}>")
