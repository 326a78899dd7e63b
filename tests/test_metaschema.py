"""Values checked against schemas (metaschema.value_validator and problem): a long enum is checked by
catalint's hashed _Enum, with jsonschema-rs's own words, and answers as jsonschema-rs alone does."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema_rs
import pytest

from catalint import metaschema
from catalint.metaschema import LONG_ENUM, problem, value_validator

LONG = [f"v{i:04d}" for i in range(LONG_ENUM + 1)]
MIXED = [*range(LONG_ENUM), 1.0, True, None, {"a": [1, {"b": "c"}]}, [1, 2], "é\n", 3]  # 1.0 and 3 repeat

VALUES: list[Any] = [
    "v0000",
    "v0100",
    f"v{LONG_ENUM:04d}",
    "nope",
    "",
    "é\n",
    0,
    1,
    1.0,
    2.5,
    True,
    False,
    None,
    [],
    [1, 2],
    [2, 1],
    [1.0, 2.0],
    {},
    {"a": [1, {"b": "c"}]},
    {"a": [1.0, {"b": "c"}]},
    {"a": [1, {"b": "d"}]},
]

SCHEMAS: list[tuple[str, dict[str, Any]]] = [
    ("2020-12", {"enum": LONG}),
    ("2020-12", {"enum": MIXED}),
    ("draft-04", {"enum": MIXED}),
    ("draft-07", {"type": "string", "enum": LONG}),
    ("2020-12", {"anyOf": [{"enum": LONG}, {"type": "integer", "minimum": 5}]}),
    ("2020-12", {"$ref": "#/$defs/long", "$defs": {"long": {"enum": MIXED}}}),
    # beside a long enum, every enum goes through _Enum: short ones keep jsonschema-rs's words too
    *(("2019-09", {"allOf": [{"enum": LONG}, {"enum": LONG[:n]}]}) for n in (0, 1, 2, 3, 4, 5, 9)),
    ("2020-12", {"type": "object", "properties": {"v": {"enum": LONG}, "w": {"enum": [1, "x", None]}}}),
]


def native(schema: dict[str, Any], dialect: str) -> Any:
    """jsonschema-rs's validator as it stands, enum and all."""
    cls = getattr(jsonschema_rs, metaschema._CLASS[dialect])
    return cls(copy.deepcopy(schema), validate_formats=False, offline=True)


@pytest.mark.parametrize(("dialect", "schema"), SCHEMAS)
def test_a_long_enum_answers_as_jsonschema_rs_does(dialect: str, schema: dict[str, Any]) -> None:
    ours, theirs = value_validator(schema, dialect, schema, ""), native(schema, dialect)
    values = VALUES + [{"v": v, "w": w} for v in ("v0001", "nope", 3) for w in (1, 1.0, "y", None)]
    for value in values:
        assert ours.is_valid(value) == theirs.is_valid(value), value
        assert problem(ours, value) == problem(theirs, value), value


def test_a_long_enum_is_checked_by_catalint_not_turned_into_python_per_error(monkeypatch) -> None:
    """jsonschema-rs builds each error of an enum from all its options (20 ms for 500,000 options): a failing
    value is told by _Enum, which hashed the options once."""
    checked: list[Any] = []
    validate = metaschema._Enum.validate

    def spy(self: Any, instance: Any) -> None:
        checked.append(instance)
        validate(self, instance)

    monkeypatch.setattr(metaschema._Enum, "validate", spy)
    schema = {"type": "object", "properties": {"v": {"enum": [*LONG, "fresh"]}}}
    validator = value_validator(schema, "2020-12", schema, "")
    others = len(LONG) - 1
    why = f'fails at v: "nope" is not one of "v0000", "v0001" or {others} other candidates'
    assert problem(validator, {"v": "nope"}) == why
    assert problem(validator, {"v": "fresh"}) == ""
    assert checked == ["nope", "fresh"]


def test_an_enum_at_the_threshold_is_left_to_jsonschema_rs() -> None:
    schema = {"enum": LONG[:LONG_ENUM]}
    assert not metaschema._holds_long_enum(schema)
    assert metaschema._holds_long_enum({"properties": {"x": {"items": {"enum": LONG}}}})


def test_a_value_that_breaks_a_long_enum_and_another_keyword_is_told_a_true_error() -> None:
    # custom keywords run after jsonschema-rs's own: the maxLength error comes first (see _Enum)
    schema = {"enum": LONG, "maxLength": 4}
    ours, theirs = value_validator(schema, "2020-12", schema, ""), native(schema, "2020-12")
    assert not ours.is_valid("abcdef") and not theirs.is_valid("abcdef")
    told = {f"fails: {e.message}" for e in theirs.iter_errors("abcdef")}  # as problem() words them
    assert problem(ours, "abcdef") in told and problem(ours, "abcdef") == 'fails: "abcdef" is longer than 4 characters'
