"""Property-based tests: no input makes catalint raise, hang or answer outside 0/1/2."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalint.cli import main
from catalint.config import Settings
from catalint.engine import lint_catalog
from catalint.loader import LoadError, load_text
from catalint.registry import all_rules

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)),
    max_leaves=20,
)
# Schema-shaped values: the keywords the rules read, holding anything.
schema_keys = st.sampled_from(
    [
        "type",
        "properties",
        "required",
        "items",
        "enum",
        "const",
        "description",
        "examples",
        "example",
        "default",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
        "$defs",
        "additionalProperties",
        "$schema",
        "$id",
        "$anchor",
        "prefixItems",
        "patternProperties",
        "unevaluatedProperties",
        "if",
        "then",
        "not",
        "maxLength",
        "minimum",
        "exclusiveMinimum",
        "pattern",
        "dependencies",
        "optional",
    ]
)
schemas = st.recursive(
    st.dictionaries(schema_keys, scalars, max_size=4),
    lambda inner: st.one_of(
        st.dictionaries(schema_keys, st.one_of(inner, st.lists(inner, max_size=3), scalars, json_values), max_size=5),
        st.fixed_dictionaries(
            {"type": st.just("object"), "properties": st.dictionaries(st.text(max_size=8), inner, max_size=4)}
        ),
    ),
    max_leaves=25,
)
tools = st.fixed_dictionaries(
    {"name": st.text(max_size=20)},
    optional={
        "description": st.one_of(st.text(max_size=200), scalars),
        "inputSchema": schemas,
        "annotations": st.one_of(
            json_values,
            st.dictionaries(
                st.sampled_from(["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint", "title"]),
                scalars,
            ),
        ),
        "outputSchema": st.one_of(json_values, schemas),
        "examples": json_values,
    },
)


EVERY_RULE = Settings(select=["ALL", "CMP"])  # the off-by-default rules too: TOK, CAT-005 and every client's CMP


@FUZZ
@given(st.lists(tools, max_size=5))
def test_rules_never_raise_on_any_tool_shape(items: list[dict[str, Any]]) -> None:
    catalog = load_text(json.dumps({"tools": items}), "t.json", "t.json")
    result = lint_catalog(catalog, EVERY_RULE, workers=1)
    for finding in result.findings:
        assert finding.span is not None and finding.span.line >= 1


def test_every_rule_is_fuzzed() -> None:
    assert set(EVERY_RULE.enabled_codes()) == {r.code for r in all_rules()}


@FUZZ
@given(json_values)
def test_any_json_document_loads_or_fails_cleanly(doc: Any) -> None:
    text = json.dumps(doc)
    try:
        catalog = load_text(text, "t.json", "t.json")
    except LoadError as exc:
        assert str(exc).startswith("t.json")
        assert "\n" not in str(exc)
    else:
        lint_catalog(catalog, Settings(), workers=1)


@FUZZ
@given(st.binary(max_size=300), st.sampled_from(["t.json", "t.yaml"]))
def test_any_bytes_through_the_cli_end_in_0_1_or_2(data: bytes, name: str) -> None:
    result = CliRunner().invoke(main, ["lint", "--stdin-filename", name, "-"], input=data, catch_exceptions=False)
    assert result.exit_code in (0, 1, 2)
    if result.exit_code == 2:
        assert result.stderr.startswith(name), result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


VALID = json.dumps(
    {
        "tools": [
            {
                "name": "get_weather",
                "description": "Get the weather. Returns JSON.",
                "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            }
        ]
    },
    indent=2,
)


@FUZZ
@given(st.integers(0, len(VALID)), st.integers(0, 40), st.text(max_size=6))
def test_mutated_catalogs_end_in_0_1_or_2(at: int, cut: int, insert: str) -> None:
    text = VALID[:at] + insert + VALID[at + cut :]
    result = CliRunner().invoke(
        main,
        ["lint", "--output-format", "json", "--stdin-filename", "tools.json", "-"],
        input=text,
        catch_exceptions=False,
    )
    assert result.exit_code in (0, 1, 2)
    if result.exit_code != 2:
        json.loads(result.stdout)
