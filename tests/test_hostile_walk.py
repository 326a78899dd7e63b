"""Hostile input: `$ref` graphs that reach one definition by exponentially many paths.

The argument walk (catalint.arguments, read by the DESC rules, TDQS, `diff` and `--explain`)
followed every path through the `$ref` graph: 24 definitions each `{"allOf": [{"$ref": next},
{"$ref": next}]}` (1.8 KB) took 126 s, 10 levels of 5 properties each naming the next level
(2.1 KB) 80 s and 7 GB. It now walks into one subschema at most MAX_VISITS times and does at most
MAX_STEPS steps of work a tool. The subprocess runs below guard against a hang; the in-process
tests pin down what is listed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from catalint.arguments import MAX_STEPS, MAX_VISITS, iter_arguments
from catalint.model import Tool
from conftest import write
from test_hostile import catalint, catalog, no_crash

DESCRIPTION = "Get the x of a thing. Returns JSON."


def _tool(schema: dict[str, Any], name: str = "t") -> dict[str, Any]:
    return {"name": name, "description": DESCRIPTION, "inputSchema": schema}


def _arguments(schema: dict[str, Any]) -> tuple[Any, ...]:
    return iter_arguments(Tool(0, "/tools/0", _tool(schema)))


def allof_diamond(levels: int) -> dict[str, Any]:
    """Each definition is the allOf of the next one twice: 2**levels paths to the last one."""
    defs: dict[str, Any] = {
        f"a{i}": {"allOf": [{"$ref": f"#/$defs/a{i + 1}"}, {"$ref": f"#/$defs/a{i + 1}"}]} for i in range(levels)
    }
    defs[f"a{levels}"] = {"type": "object", "properties": {"leaf": {"type": "string", "description": "A leaf."}}}
    return {"$ref": "#/$defs/a0", "$defs": defs}


def fanout(levels: int, width: int) -> dict[str, Any]:
    """levels of objects, each with width properties naming the next level: width**levels arguments."""
    defs: dict[str, Any] = {
        f"a{i}": {"type": "object", "properties": {f"p{j}": {"$ref": f"#/$defs/a{i + 1}"} for j in range(width)}}
        for i in range(levels)
    }
    defs[f"a{levels}"] = {"type": "string"}
    return {"type": "object", "properties": {"r": {"$ref": "#/$defs/a0"}}, "$defs": defs}


def layered(levels: int) -> dict[str, Any]:
    """Two definitions a level, each naming both of the next: every path has its own set of $refs."""
    defs: dict[str, Any] = {}
    for i in range(levels):
        for side in "xy":
            defs[f"{side}{i}"] = {
                "type": "object",
                "properties": {
                    "p": {"$ref": f"#/$defs/x{i + 1}"},
                    "q": {"$ref": f"#/$defs/y{i + 1}"},
                    "v": {"type": "string", "description": "One of open, closed or pending, for example 'open'"},
                },
            }
    defs[f"x{levels}"] = defs[f"y{levels}"] = {"type": "string"}
    return {"type": "object", "properties": {"r": {"$ref": "#/$defs/x0"}}, "$defs": defs}


def anyof_diamond(levels: int) -> dict[str, Any]:
    """An argument whose anyOf names the next definition twice, level after level."""
    defs: dict[str, Any] = {
        f"a{i}": {
            "anyOf": [
                {"$ref": f"#/$defs/a{i + 1}"},
                {"$ref": f"#/$defs/a{i + 1}"},
                {"type": "object", "properties": {"k": {"type": "string"}}},
            ]
        }
        for i in range(levels)
    }
    defs[f"a{levels}"] = {"type": "string"}
    return {"type": "object", "properties": {"r": {"$ref": "#/$defs/a0"}}, "$defs": defs}


def ref_chain(length: int) -> dict[str, Any]:
    """A $ref to a $ref to ... length times: more than Python's recursion limit."""
    defs: dict[str, Any] = {f"c{i}": {"$ref": f"#/$defs/c{i + 1}"} for i in range(length)}
    defs[f"c{length}"] = {"type": "object", "properties": {"x": {"type": "string", "description": "The x."}}}
    return {"type": "object", "properties": {"p": {"$ref": "#/$defs/c0", "description": "A p."}}, "$defs": defs}


SHAPES = {
    "allof-diamond-24": allof_diamond(24),  # 126 s before
    "fanout-10x5": fanout(10, 5),  # 80 s and 7 GB before
    "layered-30": layered(30),  # 2**30 paths: never finished before
    "anyof-diamond-30": anyof_diamond(30),  # never finished before
    "ref-chain-3000": ref_chain(3000),  # "nested too deeply for DESC-006 to check" before
}


@pytest.mark.parametrize("shape", list(SHAPES), ids=list(SHAPES))
def test_ref_graph_blowup_lints_diffs_and_explains_in_bounded_time(tmp_path: Path, shape: str) -> None:
    write(tmp_path / "base.json", catalog(_tool({"type": "object"})))
    write(tmp_path / "head.json", catalog(_tool(SHAPES[shape])))
    runs = [
        ["lint", "--select", "ALL", "--exit-zero", "head.json"],
        ["lint", "--exit-zero", "--explain", "t", "head.json"],
        ["diff", "base.json", "head.json"],
        ["diff", "head.json", "base.json"],
    ]
    for args in runs:
        done = catalint(*args, cwd=tmp_path, timeout=30)
        no_crash(done)
        assert done.code == 0, (args, done.stderr[-2000:])
        assert done.stderr == "", (args, done.stderr[-2000:])


def test_a_definition_used_in_several_places_is_listed_at_each() -> None:
    address = {
        "type": "object",
        "properties": {"street": {"type": "string"}, "city": {"type": "string", "description": "City."}},
    }
    schema = {
        "type": "object",
        "properties": {
            "billing": {"$ref": "#/$defs/Address", "description": "Billing address."},
            "shipping": {"$ref": "#/$defs/Address"},
            "more": {"type": "array", "items": {"$ref": "#/$defs/Address"}},
        },
        "$defs": {"Address": address},
    }
    names = [a.name for a in _arguments(schema)]
    assert names == [
        "billing",
        "billing.street",
        "billing.city",
        "shipping",
        "shipping.street",
        "shipping.city",
        "more",
        "more[].street",
        "more[].city",
    ]
    described = {a.name: a.description for a in _arguments(schema)}
    assert described["billing"] == "Billing address." and described["shipping.city"] == "City."


def test_a_definition_reached_by_many_paths_is_walked_at_most_max_visits_times() -> None:
    args = _arguments(fanout(5, 5))  # 5**5 = 3,125 paths to the last level
    names = [a.name for a in args]
    assert names[:6] == ["r", "r.p0", "r.p0.p0", "r.p0.p0.p0", "r.p0.p0.p0.p0", "r.p0.p0.p0.p0.p0"]
    for level in range(5):
        walked = [a for a in args if a.pointer.startswith(f"/tools/0/inputSchema/$defs/a{level}/")]
        assert len(walked) <= MAX_VISITS * 5, (level, len(walked))
    assert len(args) < 5 * 5 * MAX_VISITS
    # the allOf diamond holds one argument, reached by 2**24 paths: listed once
    leaf = [a.name for a in _arguments(allof_diamond(24))]
    assert leaf == ["leaf"]


def test_the_argument_walk_stops_after_max_steps() -> None:
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(MAX_STEPS + 5_000)}}
    args = _arguments(wide)
    assert 0 < len(args) <= MAX_STEPS
    assert [a.name for a in args[:3]] == ["p0", "p1", "p2"]


def test_a_long_description_shared_by_many_arguments_is_charged_at_each_repeat() -> None:
    # 500 arguments sharing one 64 KB description: the rules would read 32 MB of text
    text = "Sets the value used by the call and returns it. " * 1_400
    schema = {
        "type": "object",
        "properties": {f"p{i}": {"$ref": "#/$defs/D"} for i in range(500)},
        "$defs": {"D": {"type": "string", "description": text}},
    }
    args = _arguments(schema)
    assert 1 < len(args) < 500
    assert args[0].name == "p0" and args[0].description == text
    assert args[0].description_pointer == "/tools/0/inputSchema/$defs/D/description"


def test_a_ref_chain_is_followed_without_recursion_and_a_long_one_is_cut() -> None:
    args = _arguments(ref_chain(100))
    assert [(a.name, a.description) for a in args] == [("p", "A p."), ("p.x", "The x.")]
    assert args[1].pointer == "/tools/0/inputSchema/$defs/c100/properties/x"
    # past Python's recursion limit (a RecursionError before): the chain costs a step for every $ref
    # already on it, so the budget ends it; the argument itself is still listed
    assert [(a.name, a.description) for a in _arguments(ref_chain(3000))] == [("p", "A p.")]


def test_the_repro_catalogs_lint_with_every_rule(tmp_path: Path) -> None:
    """The fuzz campaign's two files, as written, through every output and the scores."""
    tools = [_tool(allof_diamond(24), "diamond"), _tool(fanout(10, 5), "fanout")]
    write(tmp_path / "tools.json", json.dumps({"tools": tools}))
    done = catalint(
        "lint", "--select", "ALL", "--exit-zero", "--output-format", "json", "--scores", "tools.json", cwd=tmp_path
    )
    no_crash(done)
    assert done.code == 0, done.stderr[-2000:]
    assert {r["name"] for r in json.loads(done.stdout)["files"][0]["tools"]} == {"diamond", "fanout"}
