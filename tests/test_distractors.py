"""Distractor generation: the bundled catalog, from_catalog, near_duplicates and pad."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from catalint.distractors import (
    DistractorError,
    bundled,
    from_catalog,
    near_duplicates,
    pad,
    toggle_plural,
    variants,
)
from catalint.loader import load_path, load_text
from catalint.text import mentions, verb_base

DATA = Path(str(resources.files("catalint").joinpath("data").joinpath("distractors.json")))
NAME = re.compile(r"[a-z0-9_]{1,64}")


def _tool(name: str, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "description": f"Do the {name} thing. Returns a JSON object.",
        "inputSchema": {
            "type": "object",
            "properties": {"q": {"type": "string", "maxLength": 10, "description": "The query text."}},
            "required": ["q"],
            "additionalProperties": False,
        },
        **extra,
    }


def _names(tools: list[dict[str, Any]]) -> list[str]:
    return [t["name"] for t in tools]


# --- the bundled catalog ---------------------------------------------------------------------------------


def test_bundled_catalog_loads_with_the_loader() -> None:
    catalog = load_path(str(DATA))
    assert [t.name for t in catalog.tools] == _names(bundled())
    assert len(catalog.tools) == 48
    same = load_text(DATA.read_text("utf-8"), str(DATA), "distractors.json")
    assert [t.name for t in same.tools] == [t.name for t in catalog.tools]


def test_bundled_matches_the_file_in_order() -> None:
    assert bundled() == json.loads(DATA.read_text("utf-8"))["tools"]


def test_bundled_names_are_unique_snake_case() -> None:
    names = _names(bundled())
    assert all(NAME.fullmatch(n) for n in names), [n for n in names if not NAME.fullmatch(n)]
    assert len({n.casefold() for n in names}) == len(names)


@pytest.mark.parametrize("tool", bundled(), ids=lambda t: t["name"])
def test_bundled_tool_has_every_field(tool: dict[str, Any]) -> None:
    description = tool["description"]
    assert 60 <= len(description) <= 300
    assert verb_base(description.split()[0]) is not None, "description must start with a verb"
    assert "Returns " in description
    schema = tool["inputSchema"]
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    props = schema["properties"]
    assert props
    assert set(schema["required"]) <= set(props)
    for name, prop in props.items():
        assert isinstance(prop.get("type"), str), name
        assert len(prop.get("description", "")) >= 8, name
        if prop["type"] == "string" and "enum" not in prop:
            assert isinstance(prop.get("maxLength"), int), name
        if prop["type"] == "array":
            assert isinstance(prop.get("maxItems"), int) and isinstance(prop.get("items"), dict), name
        for value in prop.get("enum", []):
            assert mentions(prop["description"], value), (name, value)
    assert tool.get("examples") or any(p.get("examples") for p in props.values())
    annotations = tool["annotations"]
    assert isinstance(annotations["readOnlyHint"], bool)
    assert isinstance(annotations["openWorldHint"], bool)
    assert all(isinstance(v, bool) for v in annotations.values())


def test_bundled_descriptions_are_distinct() -> None:
    descriptions = [t["description"].casefold() for t in bundled()]
    assert len(set(descriptions)) == len(descriptions)


def test_bundled_catalog_lints_clean(cli) -> None:
    result = cli("lint", "--output-format", "json", str(DATA))
    data = json.loads(result.stdout)
    assert data["errors"] == []
    assert data["summary"]["tools"] == 48
    assert [f for f in data["findings"] if f["severity"] == "critical"] == []
    assert min(t["score"] for t in data["files"][0]["tools"]) >= 0.7
    assert result.exit_code == 0


def test_bundled_returns_fresh_copies() -> None:
    first = bundled()
    first[0]["name"] = "changed"
    first[1]["inputSchema"]["properties"].clear()
    del first[2:]
    second = bundled()
    assert second[0]["name"] == "get_current_weather"
    assert second[1]["inputSchema"]["properties"]
    assert len(second) == 48


def test_import_stays_light() -> None:
    code = (
        "import sys, catalint.distractors as d; d.bundled(); "
        "print(sorted(m for m in ('jsonschema_rs', 'tiktoken', 'yaml', 'click') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# --- from_catalog ----------------------------------------------------------------------------------------


def test_from_catalog_takes_the_first_in_file_order() -> None:
    assert _names(from_catalog([], 3)) == _names(bundled())[:3]
    assert _names(from_catalog([], 48)) == _names(bundled())


def test_from_catalog_skips_collisions_ignoring_case() -> None:
    picked = _names(from_catalog(["TRANSLATE_TEXT", "unrelated_tool"], 47))
    assert "translate_text" not in picked and len(picked) == 47


def test_from_catalog_skips_tools_on_a_catalog_tools_topic() -> None:
    # A weather catalog gets no weather distractors: picking one would not be picking an irrelevant tool.
    assert _names(from_catalog(["get_weather"], 2)) == ["convert_currency", "get_exchange_rates"]
    assert "get_stock_quote" not in _names(from_catalog(["stockPrice"], 40))  # camelCase names split too
    assert _names(from_catalog(["get_data", "list_items"], 1)) == ["get_current_weather"]  # generic words only
    with pytest.raises(DistractorError, match=r"\(2 are on a catalog tool's topic\)$"):
        from_catalog(["weather"], 47)


def test_from_catalog_skips_topics_the_descriptions_use() -> None:
    # The weather example names no tool 'weather'; its descriptions say it.
    names = ["get_forecast", "get_alerts", "set_unit"]
    assert _names(from_catalog(names, 1)) == ["get_current_weather"]
    picked = _names(from_catalog(names, 3, ["Get the weather forecast for a place."]))
    assert picked == ["convert_currency", "get_exchange_rates", "create_calendar_event"]
    # a plural and its singular are one topic: 'events' keeps out create_calendar_event
    assert "create_calendar_event" not in _names(from_catalog([], 40, ["Lists upcoming events."]))
    assert "convert_units" not in _names(from_catalog(["set_unit"], 40))


def test_from_catalog_two_letter_topics_count() -> None:
    # A QR scanner gets no QR distractors, whether its name or its description says QR.
    qr_tools = {"generate_qr_code", "decode_qr_code"}
    assert not qr_tools & set(_names(from_catalog(["scan_qr"], 40)))
    assert not qr_tools & set(_names(from_catalog(["scan"], 40, ["Reads a QR image from the camera."])))
    # 'in' (get_time_in_zone) is a function word, not a topic
    assert "get_time_in_zone" in _names(from_catalog(["check_in"], 48 - 2))


def test_from_catalog_accepts_any_iterable() -> None:
    assert _names(from_catalog(iter(["get_moon_phase"]), 1)) == [_names(bundled())[0]]


def test_from_catalog_zero_is_empty() -> None:
    assert from_catalog(["anything"], 0) == []


def test_from_catalog_negative_count() -> None:
    with pytest.raises(DistractorError, match=r"^the number of distractors must be 0 or more, not -1$"):
        from_catalog([], -1)


def test_from_catalog_too_many() -> None:
    with pytest.raises(DistractorError) as info:
        from_catalog([], 49)
    assert str(info.value) == "asked for 49 bundled distractors, but only 48 of 48 are available"


def test_from_catalog_too_many_after_collisions() -> None:
    names = _names(bundled())[:2]
    assert len(from_catalog(names, 46)) == 46
    with pytest.raises(DistractorError) as info:
        from_catalog(names, 47)
    assert str(info.value) == (
        "asked for 47 bundled distractors, but only 46 of 48 are available (2 share a name with a catalog tool)"
    )
    with pytest.raises(DistractorError, match=r"\(1 shares a name"):
        from_catalog(names[:1], 48)


# --- near_duplicates -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("search_products", ["search_products_v2", "search_products_internal", "searchProducts", "search_product"]),
        ("get_product", ["get_product_v2", "get_product_internal", "getProduct", "get_products"]),
        ("query", ["query_v2", "query_internal", "Query", "queries"]),
        ("address", ["address_v2", "address_internal", "Address", "addresses"]),
        ("list_boxes", ["list_boxes_v2", "list_boxes_internal", "listBoxes", "list_box"]),
        ("search", ["search_v2", "search_internal", "Search", "searches"]),
        ("getProduct", ["getProduct_v2", "getProduct_internal", "GetProduct", "getProducts"]),
        ("get_user_by_id", ["get_user_by_id_v2", "get_user_by_id_internal", "getUserById", "get_user_by_ids"]),
    ],
)
def test_variants_in_their_fixed_order(name: str, expected: list[str]) -> None:
    assert variants(name) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("search_products", ["search_products_v2", "search_products_internal", "searchProducts", "search_product"]),
        ("get_product", ["get_product_v2", "get_product_internal", "getProduct", "get_products"]),
        ("list_boxes", ["list_boxes_v2", "list_boxes_internal", "listBoxes", "list_box"]),
        # a name without "_" is capitalized: a look-alike that differs only in case
        ("getProduct", ["getProduct_v2", "getProduct_internal", "GetProduct", "getProducts"]),
        ("query", ["query_v2", "query_internal", "Query", "queries"]),
        ("address", ["address_v2", "address_internal", "Address", "addresses"]),
        ("search", ["search_v2", "search_internal", "Search", "searches"]),
    ],
)
def test_near_duplicates_of_one_name(name: str, expected: list[str]) -> None:
    assert _names(near_duplicates([_tool(name)], [name], len(expected))) == expected
    with pytest.raises(DistractorError, match=rf"only {len(expected)} variants of {name} are available$"):
        near_duplicates([_tool(name)], [name], len(expected) + 1)


@pytest.mark.parametrize(
    ("word", "toggled"),
    [
        ("get_product", "get_products"),
        ("search_products", "search_product"),
        ("query", "queries"),
        ("list_queries", "list_query"),
        ("address", "addresses"),
        ("list_addresses", "list_address"),
        ("list_boxes", "list_box"),
        ("match", "matches"),
        ("list_matches", "list_match"),
        ("get_status", "get_statuses"),
        ("run_analysis", "run_analyses"),
        ("get_day", "get_days"),
        ("GET_URL", "GET_URLS"),
        ("LIST_ENTRY", "LIST_ENTRIES"),
        ("get_y", "get_ys"),  # a lone y has no consonant before it
        ("y", "ys"),
    ],
)
def test_toggle_plural(word: str, toggled: str) -> None:
    assert toggle_plural(word) == toggled


def test_near_duplicates_round_robin() -> None:
    tools = [_tool("get_product"), _tool("search_items"), _tool("other")]
    assert _names(near_duplicates(tools, ["get_product", "search_items"], 8)) == [
        "get_product_v2",
        "search_items_v2",
        "get_product_internal",
        "search_items_internal",
        "getProduct",
        "searchItems",
        "get_products",
        "search_item",
    ]
    assert _names(near_duplicates(tools, ["search_items", "get_product"], 3)) == [
        "search_items_v2",
        "get_product_v2",
        "search_items_internal",
    ]


def test_near_duplicates_round_robin_skips_within_a_round() -> None:
    tools = [_tool("search"), _tool("get_product")]
    assert _names(near_duplicates(tools, ["search", "get_product"], 7)) == [
        "search_v2",
        "get_product_v2",
        "search_internal",
        "get_product_internal",
        "Search",
        "getProduct",
        "searches",
    ]


def test_near_duplicates_skip_real_names_exactly() -> None:
    tools = [_tool("get_product"), _tool("get_products"), _tool("get_product_v2"), _tool("getProduct")]
    assert _names(near_duplicates(tools, ["get_product"], 1)) == ["get_product_internal"]
    # get_product's _v2, casing and plural variants are real tools already: all skipped
    with pytest.raises(DistractorError, match=r"but only 1 variant of get_product is available$"):
        near_duplicates(tools, ["get_product"], 2)
    # names compare exactly (as MCP tool names do): a variant differing from a real name in case is kept
    cased = [_tool("get_product"), _tool("GET_PRODUCT_V2")]
    assert _names(near_duplicates(cased, ["get_product"], 1)) == ["get_product_v2"]


def test_near_duplicates_skip_already_chosen_variants() -> None:
    # get_box and get_boxe both pluralize to get_boxes: the second one is skipped
    got = _names(near_duplicates([_tool("get_box"), _tool("get_boxe")], ["get_box", "get_boxe"], 7))
    assert got == [
        "get_box_v2",
        "get_boxe_v2",
        "get_box_internal",
        "get_boxe_internal",
        "getBox",
        "getBoxe",
        "get_boxes",
    ]
    with pytest.raises(DistractorError, match=r"only 7 variants of get_box, get_boxe are available"):
        near_duplicates([_tool("get_box"), _tool("get_boxe")], ["get_box", "get_boxe"], 8)


def test_near_duplicates_variants_differing_in_case_are_distinct() -> None:
    tools = [_tool("Get_product"), _tool("get_Product")]
    got = _names(near_duplicates(tools, ["Get_product", "get_Product"], 6))
    assert got == [
        "Get_product_v2",
        "get_Product_v2",
        "Get_product_internal",
        "get_Product_internal",
        "GetProduct",
        "getProduct",
    ]


def test_near_duplicates_repeated_name_gives_each_variant_once() -> None:
    repeated = _names(near_duplicates([_tool("get_item")], ["get_item", "get_item"], 4))
    assert repeated == ["get_item_v2", "get_item_internal", "getItem", "get_items"]
    with pytest.raises(DistractorError, match=r"only 4 variants of get_item, get_item are available"):
        near_duplicates([_tool("get_item")], ["get_item", "get_item"], 5)


def test_near_duplicates_copy_everything_but_the_name() -> None:
    original = _tool("get_product", annotations={"readOnlyHint": True}, title="Get product")
    before = copy.deepcopy(original)
    (dup,) = near_duplicates([original], ["get_product"], 1)
    assert dup == {**before, "name": "get_product_v2"}
    assert list(dup) == list(original)
    dup["inputSchema"]["properties"]["q"]["maxLength"] = 99
    dup["annotations"]["readOnlyHint"] = False
    assert original == before


def test_near_duplicates_zero_count() -> None:
    assert near_duplicates([_tool("search")], ["search"], 0) == []


def test_near_duplicates_unknown_name_lists_known_tools() -> None:
    tools = [_tool("alpha"), _tool("beta")]
    with pytest.raises(DistractorError) as info:
        near_duplicates(tools, ["alpha", "gamma"], 1)
    assert str(info.value) == "unknown tool 'gamma'; known tools: alpha, beta"


def test_near_duplicates_unknown_name_lists_only_tools_with_a_string_name() -> None:
    tools = [{"name": 5}, {"name": None}, {"description": "no name"}, _tool("alpha")]
    with pytest.raises(DistractorError) as info:
        near_duplicates(tools, ["gamma"], 1)
    assert str(info.value) == "unknown tool 'gamma'; known tools: alpha"


def test_near_duplicates_unknown_name_truncates_a_long_list() -> None:
    tools = [_tool(f"tool_{i:02}") for i in range(13)]
    with pytest.raises(DistractorError) as info:
        near_duplicates(tools, ["nope"], 1)
    shown = ", ".join(f"tool_{i:02}" for i in range(10))
    assert str(info.value) == f"unknown tool 'nope'; known tools: {shown} and 3 more"


def test_near_duplicates_unknown_name_in_an_empty_catalog() -> None:
    with pytest.raises(DistractorError, match=r"^unknown tool 'x': the catalog has no tools$"):
        near_duplicates([], ["x"], 1)


def test_near_duplicates_names_are_case_sensitive() -> None:
    with pytest.raises(DistractorError, match=r"unknown tool 'Search'"):
        near_duplicates([_tool("search")], ["Search"], 1)


def test_near_duplicates_empty_of() -> None:
    with pytest.raises(DistractorError, match=r"^name at least one tool to make near-duplicates of$"):
        near_duplicates([_tool("search")], [], 1)


def test_near_duplicates_too_many() -> None:
    tools = [_tool("search_items"), _tool("get_product")]
    assert len(near_duplicates(tools, ["search_items", "get_product"], 8)) == 8
    with pytest.raises(DistractorError) as info:
        near_duplicates(tools, ["search_items", "get_product"], 9)
    assert str(info.value) == (
        "asked for 9 near-duplicates, but only 8 variants of search_items, get_product are available"
    )


def test_near_duplicates_negative_count() -> None:
    with pytest.raises(DistractorError, match=r"must be 0 or more, not -2"):
        near_duplicates([_tool("search")], ["search"], -2)


# --- pad -------------------------------------------------------------------------------------------------


def _layout(real: int, fake: int) -> str:
    tools = [{"name": f"R{i}"} for i in range(real)]
    fakes = [{"name": f"d{i}"} for i in range(fake)]
    return " ".join(_names(pad(tools, fakes)))


@pytest.mark.parametrize(
    ("real", "fake", "expected"),
    [
        (2, 4, "R0 d0 d1 R1 d2 d3"),
        (3, 4, "R0 d0 d1 R1 d2 R2 d3"),
        (4, 2, "R0 d0 R1 R2 d1 R3"),
        (5, 1, "R0 d0 R1 R2 R3 R4"),
        (4, 6, "R0 d0 d1 R1 d2 R2 d3 d4 R3 d5"),
        (1, 3, "R0 d0 d1 d2"),
        (3, 3, "R0 d0 R1 d1 R2 d2"),
        (3, 0, "R0 R1 R2"),
        (0, 2, "d0 d1"),
        (0, 0, ""),
    ],
)
def test_pad_layouts(real: int, fake: int, expected: str) -> None:
    assert _layout(real, fake) == expected


@pytest.mark.parametrize(("real", "fake"), [(n, m) for n in range(7) for m in range(13)])
def test_pad_keeps_both_orders_and_spreads_evenly(real: int, fake: int) -> None:
    tools = [{"name": f"R{i}"} for i in range(real)]
    fakes = [{"name": f"d{i}"} for i in range(fake)]
    presented = pad(tools, fakes)
    assert len(presented) == real + fake
    assert [t for t in presented if t in tools] == tools
    assert [t for t in presented if t in fakes] == fakes
    if real:
        assert presented[0] is tools[0]
        groups = " ".join(_names(presented)).split("R")[1:]
        sizes = [len(g.split()) - 1 for g in groups]
        assert max(sizes) - min(sizes) <= 1


def test_pad_returns_the_same_objects_in_a_new_list() -> None:
    tools, fakes = [_tool("a")], [_tool("b")]
    presented = pad(tools, fakes)
    assert presented[0] is tools[0] and presented[1] is fakes[0]
    presented.append(_tool("c"))
    assert len(tools) == 1 and len(fakes) == 1
    only = pad([], fakes)
    assert only == fakes and only is not fakes


# --- determinism -----------------------------------------------------------------------------------------


def test_same_input_same_output() -> None:
    real = [_tool("search_products"), _tool("get_product"), _tool("query")]
    runs = []
    for _ in range(3):
        fakes = from_catalog(_names(real), 5) + near_duplicates(real, ["query", "get_product"], 6)
        runs.append(json.dumps(pad(real, fakes)))
    assert runs[0] == runs[1] == runs[2]
    assert _names(json.loads(runs[0])) == [
        "search_products",
        "get_current_weather",
        "get_weather_forecast",
        "convert_currency",
        "get_exchange_rates",
        "get_product",
        "create_calendar_event",
        "query_v2",
        "get_product_v2",
        "query_internal",
        "query",
        "get_product_internal",
        "Query",
        "getProduct",
    ]
