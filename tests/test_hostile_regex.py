"""Hostile input, regular expressions: patterns whose compiling costs far more than their few characters.

jsonschema-rs compiles each pattern of a schema it builds a validator for, and the regex crate builds
`\\p{L}{65535}` (12 characters) up to its 10 MiB limit before it gives up: 0.1 s, paid again for every
validator that held the pattern. SCH-009 built one validator per property (to check a default against
it) and SCH-007 one per (pattern, required name) pair: 22 KB took 17 s, 3 KB took 20 s. Each pattern
is now compiled once a run, schemas alike but for their annotations share a validator, and a pattern
that needs more than 1 MiB compiled is not evaluated (README, Limits). The contract is that of
test_hostile: no crash, no hang, and findings as before for ordinary patterns.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from catalint import metaschema
from catalint.config import Settings
from catalint.engine import lint_catalog
from catalint.loader import load_text
from catalint.metaschema import BROKEN, MAX_REGEX_SIZE, NOT_EVALUATED, SMALL_REGEX_SIZE, regex_cost
from catalint.model import Finding
from conftest import write
from test_hostile import catalint, catalog, no_crash

HEAVY = "\\p{L}{65535}"  # valid ECMA-262; the regex crate refuses it past 10 MiB, after 0.1 s
# Patterns whose compiled size lies between 64 KiB and 1 MiB, and past 1 MiB, in jsonschema-rs 0.61.0 and 0.61.2
# alike (0.61.2 compiles "^.{0,1000}$", and anchored Unicode classes, within 64 KiB: engines differ, not these)
MIDDLE = "\\p{L}{20}"
OVER = "\\p{L}{40}"
DESCRIPTION = "Looks up a thing and returns it as JSON."


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    """Every test compiles its patterns anew: what one test compiled must not make another look fast."""

    def clear() -> None:
        metaschema.regex_cost.cache_clear()
        metaschema._matcher.cache_clear()
        metaschema._VALUES.clear()
        metaschema._kept_regex = 0

    clear()
    yield
    clear()


def lint(schema: dict[str, Any], select: str = "SCH") -> list[Finding]:
    tool = {"name": "t", "description": DESCRIPTION, "inputSchema": schema}
    loaded = load_text(json.dumps({"tools": [tool]}), "t.json", "t.json")
    return lint_catalog(loaded, Settings(select=select.split(","))).findings


class Counted:
    """How many times jsonschema-rs was asked to compile a pattern or build a validator."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.patterns = 0
        self.validators = 0
        compiles, build = metaschema._compiles, metaschema._build

        def counting_compiles(pattern: str, limit: int) -> Any:
            self.patterns += 1
            return compiles(pattern, limit)

        def counting_build(make: Any) -> Any:
            self.validators += 1
            return build(make)

        monkeypatch.setattr(metaschema, "_compiles", counting_compiles)
        monkeypatch.setattr(metaschema, "_build", counting_build)


def test_one_heavy_pattern_in_300_properties_is_compiled_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # fuzz repro-2/tools.json: 300 validators, each compiling HEAVY to the limit: 17 s
    props = {f"p{i}": {"type": "string", "pattern": HEAVY, "default": f"v{i}"} for i in range(300)}
    props["p7"]["default"] = 7  # the rest of the schema still checks the defaults
    counted = Counted(monkeypatch)
    start = time.monotonic()
    findings = lint({"type": "object", "properties": props})
    assert time.monotonic() - start < 5
    sch009 = [f for f in findings if f.code == "SCH-009"]
    assert [f.pointer for f in sch009] == ["/tools/0/inputSchema/properties/p7/default"]
    assert 'is not of type "string"' in sch009[0].message
    assert not any("cannot be checked" in f.message for f in findings)  # HEAVY is not evaluated, nor blamed
    assert counted.validators <= 3  # one shared validator (and its retry without HEAVY), not 300
    assert counted.patterns <= 4  # HEAVY told once: within 64 KiB, within 1 MiB, and lighter


def test_required_names_against_one_heavy_pattern_compile_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # fuzz repro-2/required.tools.json: a validator per (pattern, name) pair, 400 names: 20 s
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "patternProperties": {HEAVY: {"type": "string"}, "^x_[a-z]+$": {"type": "string"}},
        "required": [f"q{i}" for i in range(400)] + ["x_ok", "b"],
    }
    counted = Counted(monkeypatch)
    start = time.monotonic()
    findings = lint(schema, "SCH-007")
    assert time.monotonic() - start < 5
    assert findings == []  # a pattern not evaluated gets the benefit of the doubt, as one that cannot be read
    assert counted.patterns <= 4
    # the near miss: without the heavy pattern, the ordinary one is still run on each name
    del schema["patternProperties"][HEAVY]
    assert [f.pointer.rsplit("/", 1)[1] for f in lint(schema, "SCH-007")] == [str(i) for i in range(400)] + ["401"]


def test_distinct_heavy_patterns_cost_a_bounded_time_each() -> None:
    # 200 patterns, each refused by the regex crate past 10 MiB: 0.1 s apiece before, about 5 ms now
    props = {f"p{i}": {"type": "string", "pattern": f"\\p{{L}}{{{300 + i}}}", "default": "v"} for i in range(200)}
    start = time.monotonic()
    findings = lint({"type": "object", "properties": props}, "SCH-006,SCH-009")
    assert time.monotonic() - start < 8
    assert findings == []  # valid ECMA-262 (no SCH-006), and the defaults meet the rest of their schemas


def test_a_heavy_pattern_behind_a_ref_is_not_compiled_by_every_referrer(monkeypatch: pytest.MonkeyPatch) -> None:
    props = {f"p{i}": {"$ref": "#/$defs/code", "default": f"v{i}"} for i in range(200)}
    props["p9"]["default"] = 9
    schema = {"type": "object", "$defs": {"code": {"type": "string", "pattern": HEAVY}}, "properties": props}
    counted = Counted(monkeypatch)
    start = time.monotonic()
    findings = lint(schema, "SCH-009")
    assert time.monotonic() - start < 5
    assert [f.pointer for f in findings] == ["/tools/0/inputSchema/properties/p9/default"]
    assert counted.patterns <= 4


def test_schemas_alike_but_for_their_annotations_share_a_validator() -> None:
    base = {"type": "string", "pattern": "^[a-z]+$", "maxLength": 9}
    first = metaschema.compiled({**base, "default": "a", "description": "x"}, "2020-12", {}, "")
    second = metaschema.compiled(
        {**base, "default": "b", "examples": ["c"], "title": "t", "$comment": "c", "deprecated": True},
        "2020-12",
        {},
        "",
    )
    assert first is second and not isinstance(first, str)
    assert metaschema.problem(first, "abc1") == 'fails: "abc1" does not match "^[a-z]+$"'
    # an annotation the meta-schema refuses is kept, so the schema is refused as before
    refused = metaschema.compiled({**base, "description": 5}, "2020-12", {}, "")
    assert isinstance(refused, str) and "5 is not of type" in refused
    # and a value JSON cannot hold is still said to be one, wherever it sits
    assert metaschema.compiled({**base, "default": float("nan")}, "2020-12", {}, "") == (
        "the schema holds a value JSON cannot"
    )


def test_the_validators_kept_are_bounded_by_what_their_patterns_cost() -> None:
    # 1,000 distinct patterns, a validator each: before, every one was kept (333 MB for 3,000)
    for i in range(1000):
        built = metaschema.compiled({"type": "string", "pattern": f"\\p{{L}}{i}"}, "2020-12", {}, "")
        assert not isinstance(built, str)
    assert metaschema._kept_regex <= metaschema.MAX_KEPT_REGEX
    assert len(metaschema._VALUES) <= metaschema.MAX_KEPT_REGEX // SMALL_REGEX_SIZE
    assert metaschema._kept_regex == SMALL_REGEX_SIZE * len(metaschema._VALUES)


@pytest.mark.parametrize(
    ("pattern", "cost"),
    [
        ("^[a-z0-9_-]{1,64}$", SMALL_REGEX_SIZE),
        ("^(a+)+$", SMALL_REGEX_SIZE),
        (MIDDLE, MAX_REGEX_SIZE),  # between 64 KiB and 1 MiB: still evaluated
        (HEAVY, NOT_EVALUATED),
        (OVER, NOT_EVALUATED),  # past 1 MiB
        ("\\p{L}" * 30, NOT_EVALUATED),  # no repetition, just size
        ("\\P{Greek}{9999}", NOT_EVALUATED),
        ("x" * 10_001, NOT_EVALUATED),  # over MAX_REGEX_CHECKED characters: never compiled
        ("(", BROKEN),
        ("\\p{Foo}", BROKEN),  # an unknown property is broken, not heavy
        ("\\p{Foo}{99999}", BROKEN),
        ("a{2,1}", BROKEN),
        ("a{99999999999}", BROKEN),  # past 32 bits
        ("a{" + "9" * 5000 + "}", BROKEN),  # past what int() reads at once: no ValueError
        ("(?<y>a)\\k<y>", BROKEN),  # ECMA-262, but jsonschema-rs refuses it: as before
    ],
)
def test_what_a_pattern_costs(pattern: str, cost: int) -> None:
    assert regex_cost(pattern) == cost


def test_sch006_still_judges_pattern_syntax_alone() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string", "pattern": HEAVY},
            "b": {"type": "string", "pattern": "(unclosed"},
            "c": {"type": "string", "pattern": OVER, "default": "1"},
        },
    }
    findings = lint(schema, "SCH-006,SCH-009")
    assert [f.pointer for f in findings] == ["/tools/0/inputSchema/properties/b/pattern"]  # c is not evaluated
    schema["properties"]["c"]["pattern"] = MIDDLE  # the near miss: a big pattern under the limit
    findings = lint(schema, "SCH-006,SCH-009")
    assert [f.pointer for f in findings] == [
        "/tools/0/inputSchema/properties/b/pattern",
        "/tools/0/inputSchema/properties/c/default",
    ]
    assert "does not match" in findings[1].message


def test_repro_catalogs_through_the_console_script(tmp_path: Path) -> None:
    props = {f"p{i}": {"type": "string", "pattern": HEAVY, "default": f"v{i}"} for i in range(300)}
    schema = {"type": "object", "properties": props}
    write(tmp_path / "tools.json", catalog({"name": "t", "description": DESCRIPTION, "inputSchema": schema}))
    required = {
        "type": "object",
        "properties": {"a": {"type": "string", "description": "x"}},
        "patternProperties": {f"^{HEAVY}$": {"type": "string"}},
        "required": [f"q{i}" for i in range(400)],
    }
    write(tmp_path / "required.json", catalog({"name": "t", "description": DESCRIPTION, "inputSchema": required}))
    args = {"p1": "abc"}
    write(tmp_path / "runs.json", json.dumps([{"tool_calls": [{"server": "tools", "name": "t", "args": args}]}]))
    for command in (
        ("lint", "tools.json", "required.json", "--select", "ALL", "--exit-zero"),
        ("trace", "score", "--catalog", "tools.json", "--expected-tool", "tools.t", "runs.json"),
    ):
        done = catalint(*command, cwd=tmp_path, timeout=60)
        no_crash(done)
        assert done.code in (0, 1), done.stderr[-500:]
        assert done.seconds < 10
        assert "cannot be checked" not in done.stdout
    assert "schema compliance 100" in done.stdout  # "abc" meets the rest of its schema
