"""Source positions: every finding and load error points at the exact node its JSON pointer names.

Spans are 1-based; the end column is exclusive (just after the last character);
columns count characters (code points), not bytes; a missing node is located at
its closest existing ancestor.
"""

from __future__ import annotations

import json
import random
import re
import time
from json.decoder import scanstring
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalint import sourcemap
from catalint.loader import LoadError, load_text
from catalint.model import Span
from catalint.sourcemap import JsonSourceMap, LineIndex, join_pointer

HERE = Path(__file__).resolve().parent / "fixtures" / "loader"

SELECT = ("--select", "DESC-001,DESC-012")


def where(text: str, needle: str, start: int = 0) -> Span:
    """Span of the first occurrence of needle (at or after offset start), computed naively."""
    offset = text.index(needle, start)
    last = offset + len(needle) - 1

    def pos(i: int) -> tuple[int, int]:
        line = text.count("\n", 0, i) + 1
        return line, i - (text.rfind("\n", 0, i) + 1) + 1

    line, col = pos(offset)
    end_line, end_col = pos(last)
    return Span(line, col, end_line, end_col + 1)


def test_where_helper_is_sane() -> None:
    # The helper the other tests rely on: 1-based, end exclusive, columns in characters.
    assert where('ab\n  "日本"x', '"日本"') == Span(2, 3, 2, 7)
    assert where("ab\r\ncd", "cd") == Span(2, 1, 2, 3)
    assert where("{\n  1\n}", "{\n  1\n}") == Span(1, 1, 3, 2)


def lint_findings(cli, *args: str, input: str | None = None) -> tuple[int, dict[str, tuple[int, int, int, int]]]:
    result = cli("lint", "--output-format", "json", *SELECT, *args, input=input)
    assert "Traceback" not in result.stderr
    doc = json.loads(result.stdout)
    spans = {f["pointer"]: (f["line"], f["column"], f["end_line"], f["end_column"]) for f in doc["findings"]}
    return result.exit_code, spans


# --------------------------------------------------------------------------------------
# Findings through the CLI: JSON and YAML, LF / CRLF / BOM, multibyte text.
# --------------------------------------------------------------------------------------

# Hand-counted from tests/fixtures/loader/positions.json.
JSON_EXPECTED = {
    # `      "description": "日本語の説明",` -> the string value, 8 characters (not 20 bytes).
    "/tools/0/description": (5, 22, 5, 30),
    # After `{"name": "検索", ` on the same line: the column counts characters.
    "/tools/1/description": (8, 35, 8, 39),
    # No annotations: the closest existing ancestor is the whole (multi-line) tool object.
    "/tools/2/annotations": (9, 5, 12, 6),
    # annotations is "yes": the exact node, at the end of a long line.
    "/tools/3/annotations": (13, 105, 13, 110),
}

# Hand-counted from tests/fixtures/loader/positions.yaml.
YAML_EXPECTED = {
    "/tools/0/description": (3, 18, 3, 24),
    "/tools/1/description": (5, 29, 5, 33),
    # The block mapping of the third tool: from `name` to just after the closing quote
    # of its description on line 7 (not into the `- name: bad_hints` line that follows).
    "/tools/2/annotations": (6, 5, 7, 82),
    "/tools/3/annotations": (10, 18, 10, 23),
}

VARIANTS = {
    "lf": lambda b: b,
    "crlf": lambda b: b.replace(b"\n", b"\r\n"),
    "bom": lambda b: b"\xef\xbb\xbf" + b,
    "bom-crlf": lambda b: b"\xef\xbb\xbf" + b.replace(b"\n", b"\r\n"),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize(
    ("fixture", "expected"),
    [("positions.json", JSON_EXPECTED), ("positions.yaml", YAML_EXPECTED)],
    ids=["json", "yaml"],
)
def test_finding_spans(cli, tmp_path: Path, fixture: str, expected: dict, variant: str) -> None:
    data = VARIANTS[variant]((HERE / fixture).read_bytes())
    (tmp_path / fixture).write_bytes(data)
    code, spans = lint_findings(cli, fixture)
    assert code == 1
    assert spans == expected


def test_finding_span_slices_out_the_value(cli) -> None:
    """For single-line JSON findings the span, cut out by characters, is exactly the value's source."""
    path = HERE / "positions.json"
    lines = path.read_text(encoding="utf-8").splitlines()
    catalog = json.loads(path.read_text(encoding="utf-8"))
    _, spans = lint_findings(cli, str(path))
    checked = 0
    for pointer, (line, col, end_line, end_col) in spans.items():
        parts = pointer.split("/")[1:]
        node = catalog
        try:
            for part in parts:
                node = node[int(part)] if isinstance(node, list) else node[part]
        except KeyError:
            continue  # missing node: located at an ancestor
        assert line == end_line
        assert lines[line - 1][col - 1 : end_col - 1] == json.dumps(node, ensure_ascii=False)
        checked += 1
    assert checked == 3


def test_text_report_uses_character_columns(cli) -> None:
    result = cli("lint", *SELECT, str(HERE / "positions.json"))
    assert result.exit_code == 1
    assert f"{HERE / 'positions.json'}:8:35: DESC-001" in result.stdout


def test_stdin_positions(cli) -> None:
    text = (HERE / "positions.yaml").read_text(encoding="utf-8").replace("\n", "\r\n")
    code, spans = lint_findings(cli, "-", input=text)
    assert code == 1
    assert spans == YAML_EXPECTED


def test_missing_description_is_located_at_the_tool(cli, tmp_path: Path) -> None:
    text = '{"tools": [\n  {"name": "x",\n   "annotations": {}}\n]}\n'
    (tmp_path / "t.json").write_text(text, encoding="utf-8")
    code, spans = lint_findings(cli, "t.json")
    assert code == 1
    assert spans == {"/tools/0/description": (2, 3, 3, 22)}


def test_positions_in_jsonrpc_and_bare_shapes(cli) -> None:
    code, spans = lint_findings(cli, str(HERE / "jsonrpc.tools.json"))
    assert code == 1
    assert spans == {
        "/result/tools/0/description": (8, 24, 8, 31),
        "/result/tools/1/annotations": (11, 7, 14, 8),
    }
    code, spans = lint_findings(cli, str(HERE / "bare.tools.yml"))
    assert code == 1
    assert spans == {"/0/description": (2, 16, 2, 21), "/1/annotations": (4, 3, 5, 85)}


# --------------------------------------------------------------------------------------
# JsonSourceMap directly.
# --------------------------------------------------------------------------------------

JSON_DOC = (
    "{\n"
    '  "tools": [\n'
    '    {"name": "a", "description": "say \\"hi\\" {not: [json]}, \\\\", "tags": []},\n'
    "    {\n"
    '      "name": "b",\n'
    '      "inputSchema": {\n'
    '        "properties": {"a/b": {"type": "string"}, "m~n": {}, "~1": 1, "": 0}\n'
    "      }\n"
    "    }\n"
    "  ]\n"
    "}\n"
)


@pytest.fixture(params=["lf", "crlf"])
def json_doc(request) -> str:
    return JSON_DOC if request.param == "lf" else JSON_DOC.replace("\n", "\r\n")


def test_json_root(json_doc: str) -> None:
    assert JsonSourceMap(json_doc).span("") == Span(1, 1, 11, 2)


def test_json_leading_whitespace_root() -> None:
    assert JsonSourceMap('\n\n   {"a": 1}  \n').span("") == Span(3, 4, 3, 12)


def test_json_array_and_elements(json_doc: str) -> None:
    m = JsonSourceMap(json_doc)
    tools_start = json_doc.index("[")
    assert m.span("/tools") == where(json_doc, json_doc[tools_start : json_doc.rindex("]") + 1])
    assert m.span("/tools") == Span(2, 12, 10, 4)
    first = '{"name": "a", "description": "say \\"hi\\" {not: [json]}, \\\\", "tags": []}'
    assert m.span("/tools/0") == where(json_doc, first)
    assert m.span("/tools/0") == Span(3, 5, 3, 5 + len(first))


def test_json_member_values(json_doc: str) -> None:
    m = JsonSourceMap(json_doc)
    assert m.span("/tools/0/name") == where(json_doc, '"a"')
    assert m.span("/tools/1/name") == where(json_doc, '"b"')


def test_json_string_with_escaped_quotes_and_braces(json_doc: str) -> None:
    m = JsonSourceMap(json_doc)
    value = '"say \\"hi\\" {not: [json]}, \\\\"'
    assert m.span("/tools/0/description") == where(json_doc, value)
    # The member after it is still found, so the escaped quote did not end the string early.
    assert m.span("/tools/0/tags") == where(json_doc, "[]")


def test_json_empty_containers(json_doc: str) -> None:
    m = JsonSourceMap(json_doc)
    assert m.span("/tools/0/tags") == where(json_doc, "[]")
    assert m.span("/tools/1/inputSchema/properties/m~0n") == where(json_doc, "{}")


def test_json_multi_line_value(json_doc: str) -> None:
    m = JsonSourceMap(json_doc)
    span = m.span("/tools/1")
    assert (span.line, span.col, span.end_line, span.end_col) == (4, 5, 9, 6)
    schema = m.span("/tools/1/inputSchema")
    assert (schema.line, schema.col, schema.end_line, schema.end_col) == (6, 22, 8, 8)


def test_json_nested_and_escaped_pointers(json_doc: str) -> None:
    m = JsonSourceMap(json_doc)
    props = "/tools/1/inputSchema/properties"
    assert m.span(props + "/a~1b") == where(json_doc, '{"type": "string"}')
    assert m.span(props + "/a~1b/type") == where(json_doc, '"string"')
    assert m.span("/tools/1/inputSchema/properties") == where(
        json_doc, '{"a/b": {"type": "string"}, "m~n": {}, "~1": 1, "": 0}'
    )


def test_json_tilde_and_slash_keys(json_doc: str) -> None:
    m = JsonSourceMap(json_doc)
    props = "/tools/1/inputSchema/properties"
    line7 = json_doc.splitlines()[6]
    # key "~1" is written "~01" in a pointer; its value 1
    col_one = line7.index('"~1": 1') + len('"~1": ') + 1
    assert m.span(props + "/~01") == Span(7, col_one, 7, col_one + 1)
    # key "" (empty string) is the pointer ending in "/"; its value 0
    col_zero = line7.index('"": 0') + len('"": ') + 1
    assert m.span(props + "/") == Span(7, col_zero, 7, col_zero + 1)
    # "a/b" unescaped means a then b -> neither exists -> ancestor
    assert m.span(props + "/a/b") == m.span(props)


def test_json_missing_leaf_is_the_parent(json_doc: str) -> None:
    m = JsonSourceMap(json_doc)
    assert m.span("/tools/0/annotations") == m.span("/tools/0")
    assert m.span("/nope") == m.span("")


def test_json_missing_middle_segment(json_doc: str) -> None:
    m = JsonSourceMap(json_doc)
    assert m.span("/tools/1/inputSchema/missing/deeper/still") == m.span("/tools/1/inputSchema")
    assert m.span("/tools/1/inputSchema/missing/deeper/still").end_line == 8


def test_json_pointer_into_a_scalar_is_the_scalar(json_doc: str) -> None:
    m = JsonSourceMap(json_doc)
    assert m.span("/tools/0/name/0") == m.span("/tools/0/name")


@pytest.mark.parametrize("index", ["2", "99", "-", "x", "-1", "01", "²", "1.0", ""])
def test_json_bad_array_index_is_the_array(json_doc: str, index: str) -> None:
    m = JsonSourceMap(json_doc)
    assert m.span(f"/tools/{index}") == m.span("/tools")
    assert m.span(f"/tools/{index}/name") == m.span("/tools")


def test_json_multibyte_columns() -> None:
    text = '{"名前": "日本語テキスト", "emoji": "😀😀", "n": 42}'
    m = JsonSourceMap(text)
    assert m.span("/名前") == Span(1, 8, 1, 17)
    assert m.span("/emoji") == Span(1, 28, 1, 32)
    assert m.span("/n") == Span(1, 39, 1, 41)


def test_json_escaped_key_is_decoded() -> None:
    text = '{"caf\\u00e9": {"x\\/y": true}}'
    m = JsonSourceMap(text)
    assert m.span("/café") == where(text, '{"x\\/y": true}')
    assert m.span("/café/x~1y") == where(text, "true")


def test_json_duplicate_key_is_an_input_error_at_the_repeat() -> None:
    # json.loads would silently keep the last value, and positions could point at the other.
    text = '{"tools": [{"name": "a",\n  "x": 1, "name": "b"}]}'
    with pytest.raises(LoadError) as caught:
        load_text(text, "t.json", "t.json")
    assert str(caught.value) == (
        "t.json:2:11: error: duplicate key 'name' in /tools/0: JSON would keep only the last one"
    )
    assert JsonSourceMap(text).duplicate_key() == ("/tools/0", "name", text.index('"name": "b"'))
    assert JsonSourceMap('{"a": {"b": 1}, "c": [{"b": 2}]}').duplicate_key() is None


def test_json_unusual_whitespace() -> None:
    text = '{ "a" :\t[ 1 ,\r\n\r\n  2 ] ,"b":{ } }'
    m = JsonSourceMap(text)
    assert m.span("/a") == Span(1, 9, 3, 6)
    assert m.span("/a/1") == Span(3, 3, 3, 4)
    assert m.span("/b") == Span(3, 12, 3, 15)


def test_json_lone_cr_ends_a_line() -> None:
    text = '{"a": 1,\r"b": 2}'
    assert JsonSourceMap(text).span("/b") == Span(2, 6, 2, 7)


def test_json_many_lookups_share_one_map() -> None:
    tools = [{"name": f"t{i}", "description": "x" * i} for i in range(300)]
    text = json.dumps({"tools": tools}, indent=1)
    m = JsonSourceMap(text)
    for i in (0, 1, 150, 299):
        assert m.span(f"/tools/{i}/name") == where(text, f'"t{i}"')


# --------------------------------------------------------------------------------------
# YamlSourceMap, through load_text(...).locate.
# --------------------------------------------------------------------------------------

YAML_DOC = """\
tools:
  - name: first
    description: "say \\"hi\\" {not: [yaml]}"
    tags: []
    annotations: {}
    inputSchema:
      type: object
      properties:
        a/b: {type: string}
        m~n: {}
        "~1": 1
  - name: second
    description: |
      line one
      line two
    annotations: {readOnlyHint: true}
  - {name: third, description: flow}
"""


@pytest.fixture(params=["lf", "crlf"])
def yaml_doc(request) -> str:
    return YAML_DOC if request.param == "lf" else YAML_DOC.replace("\n", "\r\n")


def ylocate(text: str, pointer: str, path: str = "t.yaml") -> Span:
    return load_text(text, path, path).locate(pointer)


def test_yaml_an_alias_and_what_lies_under_it_are_placed_at_the_alias() -> None:
    """The data holds the anchored node at an alias, but that part of the document is written as the alias:
    a finding on /tools/2/name, where tools[2] is `*t`, belongs at the `*t` (it was at tool 0's anchor)."""
    text = (
        "tools:\n"
        "  - &t\n    name: get_weather\n    inputSchema: &s {type: object, properties: {q: {type: string}}}\n"
        "  - name: b\n    inputSchema: *s\n"
        "  - *t\n"
        "  - {name: c, <<: *t}\n"
    )
    assert ylocate(text, "/tools/0/name") == where(text, "get_weather")  # the anchored node: where it is
    assert ylocate(text, "/tools/0/inputSchema/properties/q") == where(text, "{type: string}")
    alias_s = text.index("*s")
    assert ylocate(text, "/tools/1/inputSchema") == Span(6, 18, 6, 20)
    assert ylocate(text, "/tools/1/inputSchema/properties/q") == Span(6, 18, 6, 20)  # under it: the alias
    assert text[alias_s : alias_s + 2] == "*s"
    assert ylocate(text, "/tools/2") == Span(7, 5, 7, 7)
    assert ylocate(text, "/tools/2/name") == Span(7, 5, 7, 7)
    assert ylocate(text, "/tools/3/description") == where(text, "{name: c, <<: *t}")  # merged: the mapping


def test_yaml_root(yaml_doc: str) -> None:
    assert ylocate(yaml_doc, "") == Span(1, 1, 17, 37)


def test_yaml_member_values(yaml_doc: str) -> None:
    assert ylocate(yaml_doc, "/tools/0/name") == where(yaml_doc, "first")
    assert ylocate(yaml_doc, "/tools/1/name") == where(yaml_doc, "second")


def test_yaml_array_elements(yaml_doc: str) -> None:
    assert ylocate(yaml_doc, "/tools/2") == where(yaml_doc, "{name: third, description: flow}")
    assert ylocate(yaml_doc, "/tools").line == 2
    assert ylocate(yaml_doc, "/tools").col == 3


def test_yaml_string_with_escaped_quotes_and_braces(yaml_doc: str) -> None:
    assert ylocate(yaml_doc, "/tools/0/description") == where(yaml_doc, '"say \\"hi\\" {not: [yaml]}"')


def test_yaml_empty_containers(yaml_doc: str) -> None:
    assert ylocate(yaml_doc, "/tools/0/tags") == where(yaml_doc, "[]")
    assert ylocate(yaml_doc, "/tools/0/annotations") == where(yaml_doc, "{}")


def test_yaml_nested_and_escaped_pointers(yaml_doc: str) -> None:
    props = "/tools/0/inputSchema/properties"
    assert ylocate(yaml_doc, props + "/a~1b") == where(yaml_doc, "{type: string}")
    assert ylocate(yaml_doc, props + "/a~1b/type") == Span(9, 21, 9, 27)
    assert ylocate(yaml_doc, props + "/m~0n") == Span(10, 14, 10, 16)
    assert ylocate(yaml_doc, props + "/~01") == Span(11, 15, 11, 16)


def test_yaml_flow_mapping(yaml_doc: str) -> None:
    assert ylocate(yaml_doc, "/tools/2/name") == where(yaml_doc, "third")
    assert ylocate(yaml_doc, "/tools/2/description") == where(yaml_doc, "flow")
    assert ylocate(yaml_doc, "/tools/1/annotations/readOnlyHint") == where(yaml_doc, "true")


def test_yaml_block_scalar(yaml_doc: str) -> None:
    # From the `|` indicator to just after "line two"; not into the next key's line.
    assert ylocate(yaml_doc, "/tools/1/description") == Span(13, 18, 15, 15)


def test_yaml_missing_leaf_is_the_parent(yaml_doc: str) -> None:
    assert ylocate(yaml_doc, "/tools/2/annotations") == ylocate(yaml_doc, "/tools/2")
    assert ylocate(yaml_doc, "/nope") == ylocate(yaml_doc, "")


def test_yaml_missing_middle_segment(yaml_doc: str) -> None:
    props = "/tools/0/inputSchema/properties"
    assert ylocate(yaml_doc, props + "/a~1b/missing/deeper") == where(yaml_doc, "{type: string}")
    assert ylocate(yaml_doc, "/tools/2/missing/deeper") == ylocate(yaml_doc, "/tools/2")


@pytest.mark.parametrize("index", ["3", "99", "-", "x", "-1", "01", ""])
def test_yaml_bad_array_index_is_the_array(yaml_doc: str, index: str) -> None:
    assert ylocate(yaml_doc, f"/tools/{index}") == ylocate(yaml_doc, "/tools")
    assert ylocate(yaml_doc, f"/tools/{index}/name") == ylocate(yaml_doc, "/tools")


def test_yaml_multi_line_last_block_mapping(yaml_doc: str) -> None:
    # /tools spans from the first `-` to the end of the last line.
    assert ylocate(yaml_doc, "/tools") == Span(2, 3, 17, 37)


def test_yaml_block_mapping_followed_by_a_sibling_item(yaml_doc: str) -> None:
    # A tool in an indented block sequence ends after its own last character,
    # not at the `-` of the next tool.
    assert ylocate(yaml_doc, "/tools/0") == Span(2, 5, 11, 16)
    assert ylocate(yaml_doc, "/tools/1") == Span(12, 5, 16, 38)
    assert ylocate(yaml_doc, "/tools/0/inputSchema") == Span(7, 7, 11, 16)


def test_yaml_block_mapping_followed_by_a_blank_line() -> None:
    text = "- name: a\n  description: x\n\n- name: b\n"
    assert ylocate(text, "/0") == Span(1, 3, 2, 17)
    assert ylocate(text, "/1") == Span(4, 3, 4, 10)


def test_yaml_folded_block_scalar_followed_by_a_blank_line() -> None:
    text = "tools:\n- name: b\n  description: >\n    folded\n    text\n\n  annotations: {}\n"
    assert ylocate(text, "/tools/0/description") == Span(3, 16, 5, 9)
    assert ylocate(text, "/tools/0/annotations") == Span(7, 16, 7, 18)


def test_yaml_multibyte_columns() -> None:
    text = "tools:\n  - {name: 日本語, description: 説明😀テキスト, title: ok}\n"
    assert ylocate(text, "/tools/0/name") == Span(2, 12, 2, 15)
    assert ylocate(text, "/tools/0/description") == Span(2, 30, 2, 37)
    assert ylocate(text, "/tools/0/title") == Span(2, 46, 2, 48)


def test_yaml_root_sequence_of_flow_mappings() -> None:
    text = "[{name: a}, {name: b, description: '{x}'}]"
    assert ylocate(text, "/1") == where(text, "{name: b, description: '{x}'}")
    assert ylocate(text, "/1/description") == where(text, "'{x}'")


def test_json_source_used_for_json_text() -> None:
    # load_text on JSON text gives the JSON map: spans agree with JsonSourceMap.
    text = '{"tools": [{"name": "a", "description": "d"}]}'
    catalog = load_text(text, "t.json", "t.json")
    assert catalog.locate("/tools/0/description") == JsonSourceMap(text).span("/tools/0/description")
    assert catalog.locate("/tools/0/description") == where(text, '"d"')


def test_yaml_duplicate_key_is_an_input_error_at_the_repeat() -> None:
    text = "tools:\n  - name: a\n    description: x\n    name: b\n"
    with pytest.raises(LoadError) as caught:
        load_text(text, "t.yaml", "t.yaml")
    assert str(caught.value) == "t.yaml:4:5: error: duplicate key 'name' in /tools/0: YAML would keep only the last one"


@given(st.text(alphabet="ab\n", max_size=300), st.lists(st.integers(0, 300), max_size=40))
def test_line_index_counts_lines_on_demand_like_a_full_table(text: str, offsets: list[int]) -> None:
    """Lookups in any order give what a table of every line start gives."""
    index = LineIndex(text)
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    for offset in offsets:
        offset = min(offset, len(text))
        line = max(i for i, s in enumerate(starts) if s <= offset)
        assert index.position(offset) == (line + 1, offset - starts[line] + 1)


# --------------------------------------------------------------------------------------
# JsonSourceMap against a naive reading, and LineIndex in any lookup order.
# --------------------------------------------------------------------------------------

_BREAK = re.compile(r"\r\n|\r|\n")


def naive_offsets(text: str) -> dict[str, tuple[int, int]]:
    """(start, end) of every node, by pointer, read by a plain recursive descent."""
    table: dict[str, tuple[int, int]] = {}
    decode = json.JSONDecoder().raw_decode

    def skip(i: int) -> int:
        while text[i] in " \t\r\n":
            i += 1
        return i

    def value(i: int, pointer: str) -> int:
        start = i
        if text[i] in "{[":
            close = "}" if text[i] == "{" else "]"
            i, n = skip(i + 1), 0
            while text[i] != close:
                if close == "}":
                    key, i = scanstring(text, i + 1)
                    i = skip(skip(i) + 1)  # past the colon
                    child = join_pointer(pointer, key)
                else:
                    child, n = join_pointer(pointer, n), n + 1
                i = skip(value(i, child))
                if text[i] == ",":
                    i = skip(i + 1)
            end = i + 1
        else:
            end = decode(text, i)[1]
        table[pointer] = (start, end)
        return end

    value(skip(0), "")
    return table


def naive_span(text: str, start: int, end: int) -> Span:
    starts = [0] + [m.end() for m in _BREAK.finditer(text)]

    def pos(i: int) -> tuple[int, int]:
        line = max(n for n, s in enumerate(starts) if s <= i)
        return line + 1, i - starts[line] + 1

    line, col = pos(start)
    end_line, end_col = pos(end - 1)
    return Span(line, col, end_line, end_col + 1)


# Names that need care: a "/" or "~" (escaped in a pointer), a "~" that escapes nothing,
# one that is written with a \u escape when ensure_ascii is on, and digits.
ODD_KEYS = ["a", "a/b", "m~n", "~1", "x~2", "~", "", "é", "日本😀", "0", "01", 'q"q']
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text('ab"\\/é😀\n', max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(ODD_KEYS), inner, max_size=4),
    max_leaves=20,
)


@given(
    json_values,
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.sampled_from([None, 0, 2]),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_json_spans_match_a_naive_reading(
    doc: object, eol: str, indent: int | None, ascii: bool, rnd: random.Random
) -> None:
    """Every node, missing children (closest ancestor) and bad indexes, looked up in any order:
    LF, CRLF and lone CR line ends, multibyte text, names escaped in the source and in pointers."""
    text = json.dumps(doc, indent=indent, ensure_ascii=ascii).replace("\n", eol) + eol
    table = naive_offsets(text)
    expected = {p: naive_span(text, *offsets) for p, offsets in table.items()}
    for p in list(table):  # a missing node is located at its closest existing ancestor
        for missing in ("/nope", "/nope/deeper", "/-", "/01", "/99", "/x~2y"):
            if p + missing not in table:
                expected[p + missing] = expected[p]
    pointers = sorted(expected)
    rnd.shuffle(pointers)
    m = JsonSourceMap(text)
    for p in pointers:
        assert m.span(p) == expected[p], p
        assert m.start(p) == (expected[p].line, expected[p].col), p
    m.release()
    for p in reversed(pointers):
        assert m.span(p) == expected[p], p


def test_json_escaped_and_odd_names() -> None:
    text = '{"a/b": 1, "m~n": 2, "\\u0041\\u00e9": 3, "x~2": 4, "~": [[5, [6]]], "q\\"q": 7}'
    m = JsonSourceMap(text)
    assert m.span("/a~1b") == where(text, "1")
    assert m.span("/m~0n") == where(text, "2")
    assert m.span("/Aé") == where(text, "3")  # written with \u escapes, named decoded
    assert m.span("/x~2") == m.span("/x~02") == where(text, "4", text.index("x~2"))  # "~2" escapes nothing
    assert m.span("/~/0/1/0") == where(text, "6")  # nested arrays
    assert m.span("/~0/0/1") == where(text, "[6]")
    assert m.span('/q"q') == where(text, "7")
    assert m.span("/a/b") == m.span("")  # "a/b" unescaped is a then b: neither exists


def test_json_duplicate_key_is_found_after_lookups() -> None:
    # Lookups may already know where containers end; the duplicate search still reads them.
    text = '[1, [[{"A": 1, "\\u0041": 2}]]]'
    m = JsonSourceMap(text)
    assert m.span("/1/0/0") == where(text, '{"A": 1, "\\u0041": 2}')
    assert m.duplicate_key() == ("/1/0/0", "A", text.index('"\\u0041"'))


@given(
    st.text(alphabet="ab\n", max_size=400),
    st.lists(st.integers(0, 400), max_size=60),
    st.sampled_from([1, 3, 16, 4096]),
)
def test_line_index_from_marks_and_the_last_lookup(text: str, offsets: list[int], near: int) -> None:
    """With marks close together, lookups in any order are counted forward or back from the
    nearest known point (the last lookup or a mark) and still agree with a full table."""
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    with patch.object(sourcemap, "_NEAR", near):
        index = LineIndex(text)
        for offset in offsets:
            offset = min(offset, len(text))
            line = max(i for i, s in enumerate(starts) if s <= offset)
            assert index.position(offset) == (line + 1, offset - starts[line] + 1)
        for start in offsets[:10]:  # spans just shorter and longer than the counting distance
            for end in (start + near, start + near + 2):
                if end <= len(text):
                    assert index.span(start, end) == naive_span(text, start, end)


def test_lookups_in_reverse_order_stay_linear() -> None:
    """Every tool of a large catalog looked up from the last to the first (and alternating
    between the ends): each lookup counts lines from a nearby point, not from the top."""
    tools = [{"name": f"t{i}", "description": "d" * 40, "annotations": {"a": i}} for i in range(20_000)]
    for indent in (None, 1):
        text = json.dumps({"tools": tools}, indent=indent)
        m = JsonSourceMap(text)
        began = time.process_time()
        for i in reversed(range(20_000)):
            m.span(f"/tools/{i}/annotations/a")
        for i in range(10_000):
            m.span(f"/tools/{i if i % 2 else 19_999 - i}/name")
        assert time.process_time() - began < 10  # counting lines from the top each time took over 30 s
        assert m.span("/tools/19999/annotations/a") == where(text, "19999", text.index('"t19999"') + 7)


@pytest.mark.parametrize("odd", ["\u2028", "\u2029", "\u0085"])
def test_yaml_errors_count_lines_as_findings_do(odd: str) -> None:
    """YAML also ends a line at U+2028, U+2029 and NEL; catalint, its findings and editors read them as
    characters of the line, so an error after one is placed as a finding there would be."""
    text = f'tools:\n  - name: "a{odd}b{odd}c"\n    description: !!int abc\n'
    with pytest.raises(LoadError) as caught:
        load_text(text, "t.yaml", "t.yaml")
    assert (caught.value.line, caught.value.col) == (3, 18)
    unclosed = f'tools: [{{name: "a{odd}b"}},\n  {{name: c}}\n'
    with pytest.raises(LoadError) as caught:
        load_text(unclosed, "t.yaml", "t.yaml")
    assert (caught.value.line, caught.value.col) == (3, 1)
