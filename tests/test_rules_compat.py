"""CMP rules (client compatibility) and the client profiles that turn them on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import catalint.rules.compat  # noqa: F401  (registers the CMP rules until the rules package imports them)
from catalint.config import Settings
from catalint.engine import lint_catalog
from catalint.loader import load_text
from catalint.model import Finding, Severity
from catalint.profiles import PROFILES, ProfileError, profile_table, resolve, selectors
from catalint.registry import all_rules
from conftest import write_catalog

IS = "/tools/0/inputSchema"
STR = {"type": "string"}
NULLABLE = {"type": ["string", "null"]}


def obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """A closed object that requires every property unless told otherwise: strict-mode clean."""
    out: dict[str, Any] = {"type": "object", "properties": props}
    out["required"] = list(props) if required is None else required
    out["additionalProperties"] = False
    out.update(extra)
    return out


def tool(schema: Any = ..., name: str = "get_weather") -> dict[str, Any]:
    return {
        "name": name,
        "description": "Get the current weather for a city.",
        "inputSchema": obj({"city": STR}) if schema is ... else schema,
    }


def run(code: str, *tools: dict[str, Any]) -> list[Finding]:
    catalog = load_text(json.dumps({"tools": list(tools)}, indent=2), "t.json", "t.json")
    return lint_catalog(catalog, Settings(select=[code])).findings


def run_target(target: str, *tools: dict[str, Any]) -> list[Finding]:
    """The findings a --target run reports (every rule family the target enables)."""
    catalog = load_text(json.dumps({"tools": list(tools)}, indent=2), "t.json", "t.json")
    return lint_catalog(catalog, Settings(select=selectors([target]))).findings


def pointers(code: str, schema: Any) -> list[str]:
    return sorted(f.pointer for f in run(code, tool(schema)))


def only(code: str, t: dict[str, Any]) -> Finding:
    findings = run(code, t)
    assert len(findings) == 1, findings
    assert findings[0].code == code
    return findings[0]


# ---------------------------------------------------------------- registration


def test_cmp_rules_are_off_by_default_and_documented() -> None:
    cmp = [r for r in all_rules() if r.code.startswith("CMP-")]
    assert {r.code[:7] for r in cmp} == {"CMP-OAI", "CMP-OAS", "CMP-ANT", "CMP-GEM"}
    assert {"CMP-OAI-005", "CMP-OAI-006", "CMP-GEM-007"} <= {r.code for r in cmp}
    assert not any(r.default for r in cmp)
    assert not set(Settings().enabled_codes()) & {r.code for r in cmp}
    for r in cmp:
        for section in ("**What it catches.**", "**Why.**", "**Bad.**", "**Good.**", "**Fix.**"):
            assert section in r.explanation, (r.code, section)
        assert "checked 2026-11-22" in " ".join(r.explanation.split()), r.code


# ---------------------------------------------------------------- CMP-OAI


@pytest.mark.parametrize(
    ("name", "why"),
    [("issues.search", "contains '.'"), ("get weather", "contains ' '"), ("x" * 65, "65 characters, over 64")],
)
def test_oai001_fires_on_names_openai_refuses(name: str, why: str) -> None:
    f = only("CMP-OAI-001", tool(name=name))
    assert f.pointer == "/tools/0/name"
    assert f.severity == Severity.CRITICAL
    assert "OpenAI" in f.message and why in f.message
    assert f.suggestion and "rename" in f.suggestion


def test_oai001_near_miss_64_characters_of_the_allowed_set() -> None:
    assert not run("CMP-OAI-001", tool(name="a-B_9" + "x" * 59))


def test_oai002_fires_on_a_root_that_is_not_an_object() -> None:
    union = {"anyOf": [obj({"id": STR}), obj({"url": STR})]}
    assert only("CMP-OAI-002", tool(union)).pointer == IS
    f = only("CMP-OAI-002", tool({"type": ["object", "null"], "properties": {}}))
    assert f.pointer == f"{IS}/type"
    assert '["object", "null"]' in f.message


def test_oai002_near_miss_object_root() -> None:
    assert not run("CMP-OAI-002", tool())


def test_oai003_fires_on_each_array_without_items() -> None:
    schema = obj({"tags": {"type": "array"}, "rows": {"type": "array", "items": {"type": "array"}}})
    assert pointers("CMP-OAI-003", schema) == [f"{IS}/properties/rows/items", f"{IS}/properties/tags"]


def test_oai003_fires_on_a_nullable_array_and_a_bare_tuple() -> None:
    pair = {"type": "array", "prefixItems": [STR, STR]}
    schema = obj({"tags": {"type": ["array", "null"]}, "pair": pair})
    assert pointers("CMP-OAI-003", schema) == [f"{IS}/properties/pair", f"{IS}/properties/tags"]


def test_oai003_near_miss_array_with_items_or_any_value() -> None:
    anything = {"type": ["string", "number", "array", "object", "null"]}
    assert not run("CMP-OAI-003", tool(obj({"tags": {"type": "array", "items": STR}, "value": anything})))


def test_oai004_reports_the_first_tool_past_128_once() -> None:
    tools = [tool(name=f"t{i}") for i in range(130)]
    findings = run("CMP-OAI-004", *tools)
    assert [(f.tool, f.pointer) for f in findings] == [("t128", "/tools/128")]
    assert "130" in findings[0].message


def test_oai004_near_miss_exactly_128_tools() -> None:
    assert not run("CMP-OAI-004", *[tool(name=f"t{i}") for i in range(128)])


@pytest.mark.parametrize("schema", [{"type": "object"}, {"type": "object", "additionalProperties": False}])
def test_oai005_fires_on_an_object_root_without_properties(schema: dict[str, Any]) -> None:
    f = only("CMP-OAI-005", tool(schema))
    assert f.pointer == IS and f.severity == Severity.CRITICAL
    assert "missing properties" in f.message
    assert f.suggestion and '"properties": {}' in f.suggestion


def test_oai005_near_miss_empty_properties_or_a_root_other_rules_report() -> None:
    assert run("CMP-OAI-005", tool({"type": "object"}))  # the bare object is reported ...
    assert not run("CMP-OAI-005", tool({"type": "object", "properties": {}}))  # ... an empty properties is not
    assert not run("CMP-OAI-005", tool({"additionalProperties": False}))  # CMP-OAI-002's: no type
    assert not run("CMP-OAI-005", tool({"type": "object", "anyOf": [obj({"a": STR})]}))  # CMP-OAI-006's


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("anyOf", [{"required": ["id"]}, {"required": ["url"]}]),
        ("oneOf", [{"required": ["id"]}, {"required": ["url"]}]),
        ("allOf", [{"if": {"required": ["id"]}, "then": {"required": ["url"]}}]),
        ("enum", [{"id": "a", "url": "b"}]),
        ("const", {"id": "a", "url": "b"}),
        ("not", {"required": ["id", "url"]}),
    ],
)
def test_oai006_fires_on_composition_beside_an_object_root(key: str, value: Any) -> None:
    schema = {"type": "object", "properties": {"id": STR, "url": STR}, key: value}
    f = only("CMP-OAI-006", tool(schema))
    assert f.pointer == f"{IS}/{key}" and f.severity == Severity.CRITICAL
    assert f"{key} is not allowed at the top level" in f.message


def test_oai006_near_miss_nested_composition_or_an_untyped_root() -> None:
    assert run("CMP-OAI-006", tool(obj({"v": STR}, anyOf=[{"required": ["v"]}])))  # at the root: reported
    assert not run("CMP-OAI-006", tool(obj({"v": {"anyOf": [STR, {"type": "null"}]}, "e": {"enum": ["a"]}})))
    assert not run("CMP-OAI-006", tool({"anyOf": [obj({"id": STR}), obj({"url": STR})]}))  # CMP-OAI-002's


def test_openai_targets_report_an_object_root_without_properties_or_with_a_root_enum() -> None:
    bare = run_target("openai", tool({"type": "object"}))
    assert [(f.code, f.pointer) for f in bare] == [("CMP-OAI-005", IS)]
    root_enum = obj({"a": STR}, enum=[{"a": "x"}])
    strict = [(f.code, f.pointer, f.severity) for f in run_target("openai-strict", tool(root_enum))]
    assert strict == [("CMP-OAI-006", f"{IS}/enum", Severity.CRITICAL)]


# ---------------------------------------------------------------- CMP-OAS


def test_oas001_fires_on_each_object_that_is_not_closed() -> None:
    inner = {"type": "object", "properties": {"x": STR}, "required": ["x"]}
    schema = {
        "type": "object",
        "properties": {"a": inner, "m": {"type": "object", "additionalProperties": STR}},
        "required": ["a", "m"],
    }
    assert pointers("CMP-OAS-001", schema) == [
        IS,
        f"{IS}/properties/a",
        f"{IS}/properties/m/additionalProperties",
    ]


def test_oas001_near_miss_every_object_closed() -> None:
    assert not run("CMP-OAS-001", tool(obj({"a": obj({"x": STR})})))


def test_oas002_fires_per_property_missing_from_required() -> None:
    schema = obj({"city": STR, "units": STR, "days": {"type": "integer"}}, required=["city"])
    assert pointers("CMP-OAS-002", schema) == [f"{IS}/properties/days", f"{IS}/properties/units"]
    f = run("CMP-OAS-002", tool(schema))[0]
    assert "null" in (f.suggestion or "")


def test_oas002_survives_a_required_list_of_non_strings() -> None:
    schema = {"type": "object", "properties": {"a": STR}, "required": [{"a": 1}, ["a"], "a"]}
    assert not run("CMP-OAS-002", tool(schema))


def test_oas002_near_miss_optional_written_as_required_and_nullable() -> None:
    assert not run("CMP-OAS-002", tool(obj({"city": STR, "units": NULLABLE})))


def test_oas003_fires_on_each_unsupported_keyword() -> None:
    ids = {"type": "array", "items": {"type": "string", "maxLength": 20}, "uniqueItems": True}
    schema = obj({"ids": ids, "n": {"type": "integer", "default": 3}}, dependentRequired={"n": ["ids"]})
    assert pointers("CMP-OAS-003", schema) == [
        f"{IS}/dependentRequired",
        f"{IS}/properties/ids/items/maxLength",
        f"{IS}/properties/ids/uniqueItems",
        f"{IS}/properties/n/default",
    ]
    # a root allOf beside "type": "object" is CMP-OAI-006's (refused strict or not); without that type, this rule's
    assert not run("CMP-OAS-003", tool(obj({"a": STR}, allOf=[{"required": ["a"]}])))
    assert pointers("CMP-OAS-003", {"allOf": [obj({"a": STR})]}) == [f"{IS}/allOf"]


def test_oas003_default_and_string_lengths_are_warnings_that_say_who_refuses() -> None:
    schema = obj({"n": {"type": "integer", "default": 3}, "q": {"type": "string", "minLength": 1, "maxLength": 9}})
    findings = {f.pointer.rsplit("/", 1)[-1]: f for f in run("CMP-OAS-003", tool(schema))}
    assert findings.keys() == {"default", "minLength", "maxLength"}
    assert all(f.severity == Severity.WARNING for f in findings.values())
    assert all("rejects" not in f.message.split(":", 1)[0] for f in findings.values())
    assert (
        "api.openai.com accepts it, Azure OpenAI deployments were reported to reject it" in findings["default"].message
    )
    assert "api.openai.com accepted it in 2026 probes" in findings["minLength"].message
    assert "outside the subset OpenAI's strict-mode guide lists" in findings["maxLength"].message


def test_oas003_near_miss_other_keywords_stay_critical_refusals() -> None:
    pair = {"type": "array", "prefixItems": [STR, STR], "items": False}
    ids = {"type": "array", "items": STR, "uniqueItems": True, "default": []}
    findings = {f.pointer.rsplit("/", 1)[-1]: f for f in run("CMP-OAS-003", tool(obj({"pair": pair, "ids": ids})))}
    assert {k: f.severity for k, f in findings.items()} == {
        "prefixItems": Severity.CRITICAL,
        "uniqueItems": Severity.CRITICAL,
        "default": Severity.WARNING,
    }
    assert "OpenAI strict mode rejects 'prefixItems'" in findings["prefixItems"].message


def test_oas003_reports_a_rejected_keyword_and_nothing_below_it() -> None:
    schema = obj({"a": {"not": {"type": "string", "minLength": 1}}})
    assert pointers("CMP-OAS-003", schema) == [f"{IS}/properties/a/not"]


def test_oas003_near_miss_supported_subset_and_unstated_metadata() -> None:
    schema = obj(
        {
            "q": {"type": "string", "pattern": "^a", "format": "email", "title": "Q", "description": "d"},
            "n": {"type": "number", "minimum": 0, "exclusiveMaximum": 9, "multipleOf": 0.5},
            "l": {"type": "array", "items": STR, "minItems": 1, "maxItems": 3},
            "e": {"anyOf": [{"$ref": "#/$defs/E"}, {"type": "null"}]},
        },
        **{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"E": {"enum": ["a"]}}},
    )
    assert not run("CMP-OAS-003", tool(schema))


def test_oas004_fires_on_an_unsupported_format() -> None:
    f = only("CMP-OAS-004", tool(obj({"url": {"type": "string", "format": "uri"}})))
    assert f.pointer == f"{IS}/properties/url/format"
    assert "'uri'" in f.message


def test_oas004_near_miss_supported_formats() -> None:
    schema = obj({k: {"type": "string", "format": k} for k in ("date-time", "uuid", "hostname")})
    assert not run("CMP-OAS-004", tool(schema))


def test_oas004_fires_on_untyped_and_nullable_strings_not_on_an_integer() -> None:
    schema = obj(
        {
            "n": {"type": "integer", "format": "int32"},  # not a string: the guide's list says nothing of it
            "a": {"format": "uri"},  # untyped: may be a string
            "b": {"type": ["string", "null"], "format": "uri-reference"},
        }
    )
    assert pointers("CMP-OAS-004", schema) == [f"{IS}/properties/a/format", f"{IS}/properties/b/format"]


def test_oas004_near_miss_a_format_on_a_number_or_integer() -> None:
    schema = obj({"n": {"type": "integer", "format": "int32"}, "x": {"type": "number", "format": "double"}})
    assert not run("CMP-OAS-004", tool(schema))


def test_oas005_fires_on_root_anyof_without_an_object_type() -> None:
    union = {"anyOf": [obj({"id": STR}), obj({"url": STR})]}
    assert only("CMP-OAS-005", tool(union)).pointer == f"{IS}/anyOf"


def test_oas005_near_miss_nested_anyof_or_one_beside_an_object_root() -> None:
    assert not run("CMP-OAS-005", tool(obj({"v": {"anyOf": [STR, {"type": "null"}]}})))
    beside = obj({"id": STR, "url": STR}, anyOf=[{"required": ["id"]}, {"required": ["url"]}])
    assert not run("CMP-OAS-005", tool(beside))  # CMP-OAI-006's, strict or not


def test_openai_strict_reports_root_composition_beside_an_object_root_once() -> None:
    schema = obj({"id": STR, "url": STR}, anyOf=[{"required": ["id"]}, {"required": ["url"]}])
    assert [(f.code, f.pointer) for f in run_target("openai-strict", tool(schema))] == [("CMP-OAI-006", f"{IS}/anyOf")]
    schema = obj({"id": STR, "url": STR}, oneOf=[{"required": ["id"]}, {"required": ["url"]}])
    assert [(f.code, f.pointer) for f in run_target("openai-strict", tool(schema))] == [("CMP-OAI-006", f"{IS}/oneOf")]


def test_strict_rules_do_not_check_the_branches_of_a_root_anyof() -> None:
    branches = [{"required": ["id"]}, {"properties": {"url": {}}, "default": {}}]
    typed = obj({"id": STR, "url": STR}, anyOf=branches)
    assert [f.code for f in run_target("openai-strict", tool(typed))] == ["CMP-OAI-006"]
    union = {"anyOf": [{"type": "object", "properties": {"id": STR}}, {"type": "object", "properties": {"u": {}}}]}
    assert sorted(f.code for f in run_target("openai-strict", tool(union))) == ["CMP-OAI-002", "CMP-OAS-005"]


def test_strict_rules_near_miss_nested_anyof_branches_are_still_checked() -> None:
    branches = [{"type": "object", "properties": {"x": STR}}, {"description": "untyped"}]
    schema = obj({"v": {"anyOf": branches}}, anyOf=[{"description": "untyped"}])
    codes = sorted((f.code, f.pointer) for f in run_target("openai-strict", tool(schema)))
    assert codes == [
        ("CMP-OAI-006", f"{IS}/anyOf"),  # the root anyOf, and nothing in its branch
        ("CMP-OAS-001", f"{IS}/properties/v/anyOf/0"),
        ("CMP-OAS-002", f"{IS}/properties/v/anyOf/0/properties/x"),
        ("CMP-OAS-008", f"{IS}/properties/v/anyOf/1"),
    ]


def nested(levels: int) -> dict[str, Any]:
    """An object `levels` objects deep, an array between each two."""
    schema = obj({"leaf": STR})
    for _ in range(levels - 1):
        schema = obj({"child": {"type": "array", "items": schema}})
    return schema


def test_oas006_fires_once_at_the_first_object_past_ten_levels() -> None:
    findings = run("CMP-OAS-006", tool(nested(12)))
    assert len(findings) == 1
    assert findings[0].pointer.count("/child/items") == 10
    assert "level 11" in findings[0].message


def test_oas006_near_miss_ten_levels() -> None:
    assert not run("CMP-OAS-006", tool(nested(10)))


def test_oas007_fires_on_each_exceeded_limit() -> None:
    big = {"type": "string", "enum": [f"value-{i:03d}-" + "x" * 60 for i in range(300)]}
    many = {f"p{i}": {"type": "integer", "enum": [1, 2, 3, 4]} for i in range(200)}
    findings = run("CMP-OAS-007", tool(obj({"big": big, **many})))
    assert sorted(f.pointer for f in findings) == [IS, f"{IS}/properties/big/enum"]
    assert next(f.message for f in findings if f.pointer == IS).endswith(
        "1,000 enum values in a schema; this one has 1,100"
    )


def test_oas007_near_miss_big_enum_of_short_strings() -> None:
    assert not run("CMP-OAS-007", tool(obj({"big": {"type": "string", "enum": [f"v{i}" for i in range(900)]}})))


def test_oas008_fires_on_an_untyped_subschema() -> None:
    schema = obj({"value": {"description": "The value"}, "tags": {"type": "array", "items": {}}})
    assert pointers("CMP-OAS-008", schema) == [f"{IS}/properties/tags/items", f"{IS}/properties/value"]


def test_oas008_fires_on_a_true_subschema() -> None:
    schema = obj(
        {"a": True, "l": {"type": "array", "items": True}, "u": {"anyOf": [STR, True]}},
        **{"$defs": {"D": True}},
    )
    assert pointers("CMP-OAS-008", schema) == [
        f"{IS}/$defs/D",
        f"{IS}/properties/a",
        f"{IS}/properties/l/items",
        f"{IS}/properties/u/anyOf/1",
    ]
    f = next(f for f in run("CMP-OAS-008", tool(schema)) if f.pointer == f"{IS}/properties/a")
    assert "property 'a'" in f.message and "true" in f.message


def test_oas008_near_miss_a_false_subschema_or_true_below_a_root_anyof() -> None:
    assert pointers("CMP-OAS-008", obj({"a": True, "b": False})) == [f"{IS}/properties/a"]
    assert not run("CMP-OAS-008", tool({"anyOf": [True, obj({"a": STR})]}))  # the root anyOf is refused whole


def test_oas008_near_miss_typed_by_anyof_ref_enum_or_left_to_oas003() -> None:
    schema = obj(
        {
            "a": {"anyOf": [STR, {"type": "null"}]},
            "b": {"$ref": "#/$defs/B"},
            "c": {"enum": ["x"]},
            "d": {"oneOf": [STR, {"type": "integer"}]},  # CMP-OAS-003's finding
        },
        **{"$defs": {"B": STR}},
    )
    assert not run("CMP-OAS-008", tool(schema))


def test_oas009_fires_on_ref_with_a_description() -> None:
    schema = obj({"a": {"$ref": "#/$defs/A", "description": "Where"}}, **{"$defs": {"A": obj({"x": STR})}})
    f = only("CMP-OAS-009", tool(schema))
    assert f.pointer == f"{IS}/properties/a/$ref"
    assert "description" in f.message


def test_oas009_near_miss_bare_ref() -> None:
    schema = obj({"a": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": obj({"x": STR})}})
    assert not run("CMP-OAS-009", tool(schema))


# ---------------------------------------------------------------- CMP-ANT


def test_ant001_fires_critical_on_bad_characters_and_over_128() -> None:
    assert only("CMP-ANT-001", tool(name="issues.search")).severity == Severity.CRITICAL
    f = only("CMP-ANT-001", tool(name="x" * 129))
    assert f.severity == Severity.CRITICAL and "129 characters, over 128" in f.message


def test_ant001_warns_between_65_and_128() -> None:
    f = only("CMP-ANT-001", tool(name="x" * 100))
    assert f.severity == Severity.WARNING
    assert "documents at most 64" in f.message


def test_ant001_near_miss_64_characters() -> None:
    assert not run("CMP-ANT-001", tool(name="a_" * 32))


def test_ant002_validates_as_2020_12_whatever_schema_says() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"point": {"type": "array", "items": [{"type": "number"}, {"type": "number"}]}},
    }
    f = only("CMP-ANT-002", tool(schema))
    assert f.pointer == f"{IS}/properties/point/items"
    assert "2020-12" in f.message


def test_ant002_hint_for_a_draft07_tuple_does_not_suggest_declaring_draft07() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"point": {"type": "array", "items": [{"type": "number"}, {"type": "number"}]}},
    }
    message = only("CMP-ANT-002", tool(schema)).message
    assert "use prefixItems" in message and "declare" not in message


def test_ant002_near_miss_sch006_keeps_the_draft07_hint_for_its_declared_dialect() -> None:
    point = {"type": "array", "items": [{"type": "number"}, {"type": "number"}]}
    schema = obj({"point": point}, **{"$schema": "https://json-schema.org/draft/2020-12/schema"})
    assert "declare a draft-07 $schema" in only("SCH-006", tool(schema)).message  # declaring helps SCH-006 ...
    assert "declare" not in only("CMP-ANT-002", tool(schema)).message  # ... not Anthropic


def test_ant002_near_miss_valid_2020_12() -> None:
    point = {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": False}
    assert not run("CMP-ANT-002", tool(obj({"point": point})))


def test_ant003_critical_at_the_top_warning_nested() -> None:
    schema = obj({"filter[id]": STR, "opts": obj({"$top": {"type": "integer"}})})
    findings = {f.pointer: f for f in run("CMP-ANT-003", tool(schema))}
    assert findings.keys() == {f"{IS}/properties/filter[id]", f"{IS}/properties/opts/properties/$top"}
    assert findings[f"{IS}/properties/filter[id]"].severity == Severity.CRITICAL
    assert findings[f"{IS}/properties/opts/properties/$top"].severity == Severity.WARNING


def test_ant003_nested_warning_says_may_reject_top_level_says_rejects() -> None:
    schema = obj({"filter[id]": STR, "opts": obj({"$top": {"type": "integer"}})})
    findings = {f.pointer: f.message for f in run("CMP-ANT-003", tool(schema))}
    nested = findings[f"{IS}/properties/opts/properties/$top"]
    assert nested.startswith("Anthropic may reject property name '$top'") and "rejects" not in nested
    assert findings[f"{IS}/properties/filter[id]"].startswith("Anthropic rejects property name 'filter[id]'")


def test_ant003_near_miss_dots_and_dashes() -> None:
    assert not run("CMP-ANT-003", tool(obj({"filter.id": STR, "page-size": STR, "a" * 64: STR})))


def test_ant004_fires_on_root_type_and_each_root_composition() -> None:
    schema = {"properties": {"id": STR}, "anyOf": [{"required": ["id"]}], "allOf": [{"required": ["id"]}]}
    assert pointers("CMP-ANT-004", schema) == [IS, f"{IS}/allOf", f"{IS}/anyOf"]


def test_ant004_near_miss_nested_composition() -> None:
    assert not run("CMP-ANT-004", tool(obj({"v": {"oneOf": [STR, {"type": "integer"}]}})))


# ---------------------------------------------------------------- CMP-GEM


@pytest.mark.parametrize(
    ("name", "why"),
    [("2fa-verify", "starts with '2'"), ("repo/search", "contains '/'"), ("x" * 65, "over 64"), ("-x", "starts")],
)
def test_gem001_fires_on_names_gemini_refuses(name: str, why: str) -> None:
    f = only("CMP-GEM-001", tool(name=name))
    assert "Gemini" in f.message and why in f.message


def test_gem001_near_miss_dots_dashes_and_leading_underscore() -> None:
    assert not run("CMP-GEM-001", tool(name="_repo.search-v2"))


def test_gem002_fires_on_each_unknown_key_and_not_below_it() -> None:
    schema = obj(
        {"n": {"type": "integer", "exclusiveMinimum": 0}, "k": {"const": "x"}, "u": {"not": {"const": 1}}},
        **{"$schema": "https://json-schema.org/draft/2020-12/schema"},
    )
    assert pointers("CMP-GEM-002", schema) == [
        f"{IS}/$schema",
        f"{IS}/additionalProperties",
        f"{IS}/properties/k/const",
        f"{IS}/properties/n/exclusiveMinimum",
        f"{IS}/properties/u/not",
    ]


def test_gem002_near_miss_the_openapi_subset() -> None:
    schema = {
        "type": "object",
        "properties": {
            "q": {"type": "string", "nullable": True, "minLength": 1, "maxLength": 9, "example": "a"},
            "v": {"anyOf": [STR, {"type": "integer", "minimum": 0}]},
            "l": {"type": "array", "items": STR, "maxItems": 3},
        },
        "required": ["q"],
        "propertyOrdering": ["q", "v", "l"],
    }
    assert not run("CMP-GEM-002", tool(schema))


def test_gem003_fires_on_a_type_list() -> None:
    f = only("CMP-GEM-003", tool(obj({"units": NULLABLE})))
    assert f.pointer == f"{IS}/properties/units/type"
    assert f.suggestion and '"nullable": true' in f.suggestion


def test_gem003_near_miss_nullable() -> None:
    assert not run("CMP-GEM-003", tool({"type": "object", "properties": {"u": {"type": "string", "nullable": True}}}))


def test_gem004_fires_on_non_string_enum_values() -> None:
    f = only("CMP-GEM-004", tool({"type": "object", "properties": {"level": {"type": "integer", "enum": [1, 2]}}}))
    assert f.pointer == f"{IS}/properties/level/enum"


def test_gem004_near_miss_string_enum() -> None:
    assert not run("CMP-GEM-004", tool({"type": "object", "properties": {"u": {"type": "string", "enum": ["C"]}}}))


@pytest.mark.parametrize(
    ("prop", "says"),
    [({"type": "integer", "enum": ["1", "2"]}, 'has type "integer"'), ({"enum": ["asc", "desc"]}, "has no type")],
)
def test_gem004_fires_on_an_enum_not_on_a_string(prop: dict[str, Any], says: str) -> None:
    f = only("CMP-GEM-004", tool({"type": "object", "properties": {"p": prop}}))
    assert f.pointer == f"{IS}/properties/p/enum"
    assert 'enum is allowed only on type "string"' in f.message and says in f.message


def test_gem004_near_miss_a_type_list_is_left_to_gem003() -> None:
    props = {"p": {"type": ["string", "null"], "enum": ["a", "b"]}, "q": {"type": "boolean", "enum": ["true"]}}
    assert pointers("CMP-GEM-004", {"type": "object", "properties": props}) == [f"{IS}/properties/q/enum"]


def test_gem005_fires_on_array_without_items() -> None:
    f = only("CMP-GEM-005", tool({"type": "object", "properties": {"tags": {"type": "array"}}}))
    assert f.pointer == f"{IS}/properties/tags"


def test_gem005_near_miss_array_with_items() -> None:
    assert not run("CMP-GEM-005", tool({"type": "object", "properties": {"t": {"type": "array", "items": STR}}}))


def test_gem006_fires_on_a_nested_object_without_properties() -> None:
    schema = {"type": "object", "properties": {"options": {"type": "object"}}}
    assert only("CMP-GEM-006", tool(schema)).pointer == f"{IS}/properties/options"


def test_gem006_near_miss_root_without_arguments() -> None:
    assert not run("CMP-GEM-006", tool({"type": "object", "properties": {}}))


def test_gem006_nullable_object_still_fires_but_a_list_of_other_types_is_left_to_gem003() -> None:
    any_value = {"type": ["string", "number", "boolean", "object", "array", "null"]}
    schema = {"type": "object", "properties": {"o": {"type": ["object", "null"]}, "v": any_value}}
    assert only("CMP-GEM-006", tool(schema)).pointer == f"{IS}/properties/o"
    assert {f.pointer for f in run("CMP-GEM-003", tool(schema))} == {f"{IS}/properties/{p}/type" for p in "ov"}


def test_gem007_fires_on_object_keywords_without_an_object_type() -> None:
    untyped = {"description": "The page", "properties": {"page_id": STR}, "required": ["page_id"]}
    schema = {"type": "object", "properties": {"data": untyped, "s": {"type": "string", "required": ["x"]}}}
    findings = {f.pointer: f.message for f in run("CMP-GEM-007", tool(schema))}
    assert findings.keys() == {f"{IS}/properties/data/properties", f"{IS}/properties/s/required"}
    assert (
        'properties and required are allowed only on type "object", and it has no type'
        in findings[f"{IS}/properties/data/properties"]
    )
    assert (
        'required is allowed only on type "object", and it has type "string"' in findings[f"{IS}/properties/s/required"]
    )


def test_gem007_near_miss_typed_objects_type_lists_and_required_only_branches() -> None:
    props = {
        "o": {"type": "object", "properties": {"x": STR}},
        "n": {"type": ["object", "null"], "properties": {"x": STR}},  # CMP-GEM-003's
        "u": {"properties": {"x": STR}},  # no type: reported
    }
    schema = {"type": "object", "properties": props, "anyOf": [{"required": ["o"]}, {"required": ["n"]}]}
    assert pointers("CMP-GEM-007", schema) == [f"{IS}/properties/u/properties"]


# ---------------------------------------------------------------- profiles


@pytest.mark.parametrize("name", ["mcp", "openai", "openai-strict", "anthropic", "gemini"])
def test_every_profile_resolves_by_name_and_version(name: str) -> None:
    profile = resolve(name)
    assert profile.name == name and profile.version == "2026-11"
    assert resolve(f"{name}@2026-11") is profile
    assert profile.description and profile.sources
    assert all(s.checked == "2026-11-22" and s.url.startswith("https://") for s in profile.sources)
    assert all(any(r.code.startswith(sel) for r in all_rules()) for sel in profile.judged_by())


def test_profile_names_are_the_documented_five() -> None:
    assert list(PROFILES) == ["mcp", "openai", "openai-strict", "anthropic", "gemini"]


@pytest.mark.parametrize(("target", "says"), [("claude", "unknown target"), ("openai@2025-01", "unknown version")])
def test_unknown_target_or_version_is_an_error(target: str, says: str) -> None:
    with pytest.raises(ProfileError, match=says):
        resolve(target)


def test_selectors_combine_targets_once_each() -> None:
    assert selectors(["mcp"]) == []
    assert selectors(["openai-strict"]) == ["CMP-OAI", "CMP-OAS"]
    assert selectors(["openai", "openai-strict@2026-11", "gemini"]) == ["CMP-OAI", "CMP-OAS", "CMP-GEM"]
    with pytest.raises(ProfileError):
        selectors(["openai", "bogus"])


def test_openai_strict_target_enables_openai_rules_too() -> None:
    codes = Settings(extend_select=selectors(["openai-strict"])).enabled_codes()
    assert "CMP-OAI-001" in codes and "CMP-OAS-001" in codes and "CMP-ANT-001" not in codes


def test_profile_table_marks_passes_and_counts_criticals(tmp_path: Path) -> None:
    clean = obj({"city": STR})
    good = write_catalog(tmp_path / "good.json", [tool(clean)])
    dotted = write_catalog(tmp_path / "dotted.json", [tool(clean, name="weather.get")])
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    table = profile_table([good, dotted, broken]).splitlines()
    assert table[0] == "| catalog | mcp | openai | openai-strict | anthropic | gemini |"
    assert table[2] == "| good.json | ✅ | ✅ | ✅ | ✅ | ❌ 1 |"  # Gemini: additionalProperties
    assert table[3] == "| dotted.json | ✅ | ❌ 1 | ❌ 1 | ❌ 1 | ❌ 1 |"
    assert table[4] == "| broken.json | load error | load error | load error | load error | load error |"
    assert table[5] == "| **passing** (of 3) | 2 | 1 | 1 | 1 | 0 |"
