"""Loading catalogs: accepted shapes, JSON/YAML detection, many paths, directories, and bad input.

Bad input never produces a traceback: it is reported as one line on stderr,
`FILE[:LINE:COL]: error: ...`, and the run exits 2 while other files are still linted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from catalint.config import DEFAULT_EXCLUDE, DEFAULT_INCLUDE
from catalint.loader import LoadError, load_text
from conftest import write

HERE = Path(__file__).resolve().parent / "fixtures" / "loader"

SELECT = ("--select", "DESC-001,DESC-012")
GOOD_TOOL = {"name": "get_weather", "description": "Short", "annotations": {"readOnlyHint": True}}


def run_json(cli, *args: str, input: str | bytes | None = None):
    result = cli("lint", "--output-format", "json", *SELECT, *args, input=input)
    assert "Traceback" not in result.stdout + result.stderr
    return result, json.loads(result.stdout)


def one_error(result, prefix: str) -> str:
    """The run failed with exit 2 and exactly one stderr line that starts with prefix."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(prefix), lines[0]
    return lines[0]


def catalog_text(*tools: dict) -> str:
    return json.dumps({"tools": list(tools)}, indent=2)


# --------------------------------------------------------------------------------------
# Accepted shapes and formats.
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fixture", "base"),
    [
        ("wrapped.tools.json", "/tools"),
        ("bare.tools.json", ""),
        ("jsonrpc.tools.json", "/result/tools"),
        ("wrapped.tools.yaml", "/tools"),
        ("bare.tools.yml", ""),
        ("jsonrpc.tools.yaml", "/result/tools"),
    ],
)
def test_accepted_shapes(cli, fixture: str, base: str) -> None:
    result, doc = run_json(cli, str(HERE / fixture))
    assert result.exit_code == 1
    assert result.stderr == ""
    assert doc["errors"] == []
    assert {(f["code"], f["tool"], f["pointer"]) for f in doc["findings"]} == {
        ("DESC-001", "get_weather", f"{base}/0/description"),
        ("DESC-012", "list_files", f"{base}/1/annotations"),
    }
    [file] = doc["files"]
    assert [(t["name"], t["pointer"]) for t in file["tools"]] == [
        ("get_weather", f"{base}/0"),
        ("list_files", f"{base}/1"),
    ]


def test_extra_top_level_fields_are_ignored(cli, tmp_path: Path) -> None:
    text = json.dumps(
        {"tools": [GOOD_TOOL], "nextCursor": None, "ttlMs": 5, "cacheScope": "global", "resultType": "complete"}
    )
    write(tmp_path / "t.json", text)
    result, doc = run_json(cli, "t.json")
    assert result.exit_code == 1
    assert result.stderr == ""
    assert [f["pointer"] for f in doc["findings"]] == ["/tools/0/description"]
    assert doc["summary"]["tools"] == 1


def test_empty_tools_array_is_a_clean_catalog(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.json", '{"tools": []}')
    result, doc = run_json(cli, "t.json")
    assert result.exit_code == 0
    assert doc["summary"] == {**doc["summary"], "files": 1, "tools": 0, "findings": 0}


def test_load_text_shapes_give_the_same_tools() -> None:
    wrapped = load_text('{"tools": [{"name": "a"}, {"name": "b"}]}', "x.json", "x.json")
    bare = load_text("- name: a\n- name: b\n", "x.yaml", "x.yaml")
    rpc = load_text('{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a"}, {"name": "b"}]}}', "x", "x")
    assert [t.name for t in wrapped.tools] == [t.name for t in bare.tools] == [t.name for t in rpc.tools] == ["a", "b"]
    assert [t.pointer for t in wrapped.tools] == ["/tools/0", "/tools/1"]
    assert [t.pointer for t in bare.tools] == ["/0", "/1"]
    assert [t.pointer for t in rpc.tools] == ["/result/tools/0", "/result/tools/1"]
    assert [t.index for t in rpc.tools] == [0, 1]


@pytest.mark.parametrize("suffix", [".yaml", ".yml", ".YAML"])
def test_yaml_suffix_reads_yaml(cli, tmp_path: Path, suffix: str) -> None:
    # Starts with '{' but is only valid as YAML (unquoted keys).
    write(tmp_path / f"t{suffix}", "{tools: [{name: a, description: Short, annotations: {}}]}\n")
    result, doc = run_json(cli, f"t{suffix}")
    assert result.exit_code == 1
    assert [f["pointer"] for f in doc["findings"]] == ["/tools/0/description"]


def test_json_suffix_reads_json(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.json", "tools:\n  - name: a\n")
    one_error(cli("lint", "t.json"), "t.json:1:1: error:")


def test_stdin_json_is_sniffed(cli) -> None:
    result, doc = run_json(cli, "-", input='  \n[{"name": "a", "description": "Short", "annotations": {}}]')
    assert result.exit_code == 1
    assert [(f["file"], f["pointer"]) for f in doc["findings"]] == [("-", "/0/description")]


def test_stdin_starting_with_brace_is_json(cli) -> None:
    # Valid YAML, invalid JSON: the sniffer must pick JSON and report a JSON error.
    one_error(cli("lint", "-", input="{tools: [{name: a}]}"), "-:1:2: error:")


def test_stdin_yaml_is_sniffed(cli) -> None:
    result, doc = run_json(cli, "-", input="tools:\n  - name: a\n    description: Short\n    annotations: {}\n")
    assert result.exit_code == 1
    assert [(f["file"], f["pointer"], f["line"]) for f in doc["findings"]] == [("-", "/tools/0/description", 3)]


def test_stdin_filename_yaml_forces_yaml(cli) -> None:
    result, doc = run_json(cli, "-", "--stdin-filename", "x.yaml", input="{tools: [{name: a, annotations: {}}]}")
    assert result.exit_code == 1
    assert result.stderr == ""
    assert [(f["file"], f["pointer"]) for f in doc["findings"]] == [("x.yaml", "/tools/0/description")]


def test_stdin_filename_names_errors(cli) -> None:
    one_error(cli("lint", "-", "--stdin-filename", "x.json", input="tools:\n  - name: a\n"), "x.json:1:1: error:")


def test_stdin_bytes_with_bom_and_crlf(cli) -> None:
    data = b"\xef\xbb\xbftools:\r\n  - name: a\r\n    description: Short\r\n    annotations: {}\r\n"
    result, doc = run_json(cli, "-", input=data)
    assert result.exit_code == 1
    [f] = doc["findings"]
    assert (f["line"], f["column"], f["end_line"], f["end_column"]) == (3, 18, 3, 23)


# --------------------------------------------------------------------------------------
# Many paths in one call.
# --------------------------------------------------------------------------------------


def test_many_paths_and_stdin(cli) -> None:
    paths = [str(HERE / "wrapped.tools.json"), "-", str(HERE / "bare.tools.yml")]
    result, doc = run_json(cli, *paths, input='[{"name": "from_stdin", "annotations": {}}]')
    assert result.exit_code == 1
    assert [f["file"] for f in doc["files"]] == paths
    by_file = {(f["file"], f["pointer"]) for f in doc["findings"]}
    assert ("-", "/0/description") in by_file
    assert (paths[0], "/tools/0/description") in by_file
    assert (paths[2], "/0/description") in by_file
    assert doc["summary"]["tools"] == 5


def test_text_report_names_each_file(cli) -> None:
    a, b = str(HERE / "wrapped.tools.json"), str(HERE / "wrapped.tools.yaml")
    result = cli("lint", *SELECT, a, b)
    assert result.exit_code == 1
    assert f"{a}:5:22: DESC-001" in result.stdout
    assert f"{b}:4:18: DESC-001" in result.stdout
    assert "in 4 tools in 2 files" in result.stdout


# --------------------------------------------------------------------------------------
# Bad input: one line on stderr, exit 2, no traceback.
# --------------------------------------------------------------------------------------


def test_unparseable_json(cli) -> None:
    path = str(HERE / "unparseable.json")
    one_error(cli("lint", path), f"{path}:4:21: error: ")


@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_unparseable_json_position_after_multibyte_text(cli, tmp_path: Path, eol: str) -> None:
    text = eol.join(["{", '  "tools": [{"name": "日本語", "description": x}]', "}", ""])
    write(tmp_path / "t.json", text)
    one_error(cli("lint", "t.json"), "t.json:2:44: error: ")


def test_unparseable_json_crlf(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.json", (HERE / "unparseable.json").read_bytes().replace(b"\n", b"\r\n"))
    one_error(cli("lint", "t.json"), "t.json:4:21: error: ")


def test_unparseable_json_with_bom(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.json", b"\xef\xbb\xbf" + (HERE / "unparseable.json").read_bytes())
    one_error(cli("lint", "t.json"), "t.json:4:21: error: ")


def test_trailing_garbage_json(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.json", '{"tools": []}\n{"tools": []}\n')
    line = one_error(cli("lint", "t.json"), "t.json:2:1: error: ")
    assert "Extra data" in line


def test_unparseable_yaml(cli) -> None:
    path = str(HERE / "unparseable.yaml")
    one_error(cli("lint", path), f"{path}:3:27: error: ")


def test_unparseable_yaml_crlf_and_bom(cli, tmp_path: Path) -> None:
    data = b"\xef\xbb\xbf" + (HERE / "unparseable.yaml").read_bytes().replace(b"\n", b"\r\n")
    write(tmp_path / "t.yaml", data)
    one_error(cli("lint", "t.yaml"), "t.yaml:3:27: error: ")


def test_unparseable_yaml_after_multibyte_text(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.yaml", "tools:\n  - {name: 日本語, description: 説明] }\n")
    one_error(cli("lint", "t.yaml"), "t.yaml:2:32: error: ")


def test_multi_document_yaml(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.yaml", "tools: []\n---\ntools: []\n")
    line = one_error(cli("lint", "t.yaml"), "t.yaml:2:1: error: ")
    assert line.endswith("error: expected a single document in the stream, but found another document")


@pytest.mark.parametrize(
    ("name", "content"),
    [("t.json", ""), ("t.json", "  \n\t\n"), ("t.yaml", ""), ("t.yaml", "\n\n")],
)
def test_empty_file(cli, tmp_path: Path, name: str, content: str) -> None:
    write(tmp_path / name, content)
    line = one_error(cli("lint", name), f"{name}: error: ")
    assert "empty" in line


def test_yaml_with_only_comments_is_empty(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.yaml", "# nothing here\n# at all\n")
    line = one_error(cli("lint", "t.yaml"), "t.yaml: error: ")
    assert "empty" in line


def test_empty_stdin(cli) -> None:
    one_error(cli("lint", "-", input=""), "-: error: empty")


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("t.json", '{"tools": {"a": 1}}', 't.json:1:11: error: "tools" must be an array of tools, not an object'),
        ("t.json", '{"result": {"tools": null}}', 't.json:1:22: error: "tools" must be an array of tools, not null'),
        ("t.yaml", "tools:\n  name: x\n", 't.yaml:2:3: error: "tools" must be an array of tools, not an object'),
        ("t.yaml", "tools: 5\n", 't.yaml:1:8: error: "tools" must be an array of tools, not a number'),
    ],
)
def test_tools_that_is_not_an_array_is_pointed_at(cli, tmp_path: Path, name: str, text: str, expected: str) -> None:
    write(tmp_path / name, text)
    one_error(cli("lint", name), expected)


def test_yaml_null_document_is_not_a_catalog(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.yaml", "~\n")
    one_error(cli("lint", "t.yaml"), "t.yaml:1:1: error: no tools array")


@pytest.mark.parametrize(
    ("data", "position"),
    [
        (b'{"tools": [\n {"name": "\xff"}]}', "2:12"),
        (b'{"tools": [\r\n {"name": "\xff"}]}', "2:12"),
        ('{"tools": [{"name": "日本語", "description": "'.encode() + b'\xc3("}]}', "1:44"),
        (b'{"tools": [{"name": "truncated \xe6\x97"}]}', "1:32"),
        (b"tools:\n  - name: \x80\n", "2:11"),
    ],
    ids=["lf", "crlf", "after-multibyte", "truncated-sequence", "yaml"],
)
def test_invalid_utf8(cli, tmp_path: Path, data: bytes, position: str) -> None:
    name = "t.yaml" if data.startswith(b"tools:") else "t.json"
    write(tmp_path / name, data)
    line = one_error(cli("lint", name), f"{name}:{position}: error: ")
    assert "UTF-8" in line


def test_invalid_utf8_with_bom_reports_position(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.json", b'\xef\xbb\xbf{"tools": [\n {"name": "\xff"}]}')
    line = one_error(cli("lint", "t.json"), "t.json:2:12: error: ")
    assert "UTF-8" in line


def test_invalid_utf8_after_lone_cr_line_ends(cli, tmp_path: Path) -> None:
    # CR alone ends a line, as everywhere else in catalint's positions.
    write(tmp_path / "t.json", b'{"tools": [\r {"name": "\xff"}]}')
    one_error(cli("lint", "t.json"), "t.json:2:12: error: ")


def test_invalid_utf8_on_stdin(cli) -> None:
    line = one_error(cli("lint", "-", input=b'[{"name":\n "\xfe"}]'), "-:2:3: error: ")
    assert "UTF-8" in line


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_json_nan_and_infinity_rejected(cli, tmp_path: Path, constant: str) -> None:
    write(tmp_path / "t.json", '{"tools": [{"name": "a", "inputSchema": {"maximum": ' + constant + "}}]}")
    line = one_error(cli("lint", "t.json"), "t.json:")
    assert constant in line
    assert "error" in line


def test_json_nan_error_reports_position(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.json", '{"tools": [\n  {"name": "a", "x": NaN}\n]}')
    line = one_error(cli("lint", "t.json"), "t.json:2:22: error: ")
    assert "NaN" in line


def test_nan_is_only_a_string_in_yaml(cli, tmp_path: Path) -> None:
    # YAML has no bare NaN literal; "NaN" is a string there and the file loads.
    write(tmp_path / "t.yaml", "tools:\n  - name: NaN\n    annotations: {}\n")
    result, doc = run_json(cli, "t.yaml")
    assert result.exit_code == 1
    assert [f["tool"] for f in doc["findings"]] == ["NaN"]


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000, "[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000],
    ids=["unclosed", "closed", "objects"],
)
def test_deeply_nested_json(cli, tmp_path: Path, text: str) -> None:
    write(tmp_path / "t.json", text)
    line = one_error(cli("lint", "t.json"), "t.json")
    assert "error" in line
    assert "Recursion" not in line


def test_deeply_nested_yaml(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.yaml", "[" * 100_000 + "\n")
    line = one_error(cli("lint", "t.yaml"), "t.yaml")
    assert "error" in line


def test_huge_integer_is_not_a_traceback(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.json", '{"tools": [{"name": "a", "x": ' + "9" * 20_000 + "}]}")
    one_error(cli("lint", "t.json"), "t.json")


# Wrong shapes: the message names the file, the position, and the JSON pointer.


@pytest.mark.parametrize(
    ("text", "prefix", "pointer", "words"),
    [
        ('{"tools": [{"name": "a"}, 3]}', "t.json:1:27: error: ", "/tools/1", "not an object"),
        ('{"tools": [{"name": "a"}, null]}', "t.json:1:27: error: ", "/tools/1", "not an object"),
        ('{"tools": [{"name": "a"}, ["x"]]}', "t.json:1:27: error: ", "/tools/1", "not an object"),
        ('{"tools": [{"name": "a"}, {"description": "x"}]}', "t.json:1:27: error: ", "/tools/1", '"name"'),
        ('{"tools": [{"name": "a"}, {"name": 5}]}', "t.json:1:36: error: ", "/tools/1/name", '"name"'),
        ('{"tools": [{"name": null}]}', "t.json:1:21: error: ", "/tools/0/name", '"name"'),
        ('[{"name": "a"}, 7]', "t.json:1:17: error: ", "/1", "not an object"),
        ('{"result": {"tools": [{"name": "a"}, true]}}', "t.json:1:38: error: ", "/result/tools/1", "not an object"),
    ],
)
def test_wrong_shape_json(cli, tmp_path: Path, text: str, prefix: str, pointer: str, words: str) -> None:
    write(tmp_path / "t.json", text)
    line = one_error(cli("lint", "t.json"), prefix)
    assert line.endswith(f"(at {pointer})")
    assert words in line


def test_wrong_shape_yaml(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.yaml", "tools:\n  - name: a\n  - description: no name here\n")
    line = one_error(cli("lint", "t.yaml"), "t.yaml:3:5: error: ")
    assert line.endswith("(at /tools/1)")
    assert '"name"' in line


def test_wrong_shape_multiline_position(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.json", catalog_text({"name": "a"}, {"name": "b"}, "oops"))
    one_error(cli("lint", "t.json"), "t.json:9:5: error: ")


@pytest.mark.parametrize(
    "text",
    ['{"foo": 1}', '"just a string"', "42", '{"result": {}}'],
)
def test_no_tools_array(cli, tmp_path: Path, text: str) -> None:
    write(tmp_path / "t.json", text)
    line = one_error(cli("lint", "t.json"), "t.json:1:1: error: ")
    assert "tools" in line


def test_jsonrpc_error_response(cli) -> None:
    path = str(HERE / "rpc_error.json")
    line = one_error(cli("lint", path), f"{path}:1:38: error: ")
    assert "Method not found" in line
    assert "JSON-RPC error" in line
    assert line.endswith("(at /error)")


def test_an_error_object_without_a_message(cli, tmp_path: Path) -> None:
    # a registry's 404 saved in place of a catalog: its error says summary and code, not message
    write(tmp_path / "t.json", '{"error": {"code": "E404", "summary": "Not found: mcp-x"}}')
    line = one_error(cli("lint", "t.json"), "t.json:1:11: error: ")
    assert line.startswith("t.json:1:11: error: JSON-RPC error response, no tools: Not found: mcp-x")
    write(tmp_path / "t.json", '{"error": {"code": "E404"}}')
    assert "no tools: E404" in one_error(cli("lint", "t.json"), "t.json:1:11: error: ")


def test_missing_file(cli) -> None:
    line = one_error(cli("lint", "does-not-exist.json"), "does-not-exist.json: error: ")
    assert "No such file" in line


def test_load_error_has_position_and_pointer() -> None:
    with pytest.raises(LoadError) as info:
        load_text('{"tools": [\n  {"name": "a"},\n  {"name": 1}\n]}', "x.json", "shown.json")
    err = info.value
    assert (err.path, err.line, err.col, err.pointer) == ("shown.json", 3, 12, "/tools/1/name")
    assert str(err) == 'shown.json:3:12: error: tool has no string "name" (at /tools/1/name)'


def test_bad_file_does_not_stop_the_others(cli, tmp_path: Path) -> None:
    write(tmp_path / "good.json", catalog_text(GOOD_TOOL))
    write(tmp_path / "bad.json", '{"tools": [')
    write(tmp_path / "good.yaml", "- name: yaml_tool\n  description: Short\n  annotations: {}\n")
    result = cli("lint", *SELECT, "good.json", "bad.json", "good.yaml")
    line = one_error(result, "bad.json:1:12: error: ")
    assert "good.json:5:22: DESC-001 [critical] get_weather" in result.stdout
    assert "good.yaml:2:16: DESC-001 [critical] yaml_tool" in result.stdout
    assert "1 file could not be read" in result.stdout
    assert "bad.json" not in result.stdout
    assert line.count("bad.json") == 1


def test_bad_files_json_report(cli, tmp_path: Path) -> None:
    write(tmp_path / "good.json", catalog_text(GOOD_TOOL))
    write(tmp_path / "empty.json", "")
    result, doc = run_json(cli, "missing.json", "good.json", "empty.json")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 2
    assert [f["file"] for f in doc["files"]] == ["good.json"]
    assert [(f["file"], f["pointer"]) for f in doc["findings"]] == [("good.json", "/tools/0/description")]
    assert [e["file"] for e in doc["errors"]] == ["missing.json", "empty.json"]


def test_bad_file_wins_over_findings_exit_code(cli, tmp_path: Path) -> None:
    # Findings alone would exit 1; an unreadable file makes it 2 even so.
    write(tmp_path / "good.json", catalog_text(GOOD_TOOL))
    result = cli("lint", "good.json", "nope.json")
    assert result.exit_code == 2
    assert "DESC-001" in result.stdout


# --------------------------------------------------------------------------------------
# Directories.
# --------------------------------------------------------------------------------------

TREE = [
    "tools.json",
    "a.tools.json",
    "tools.yaml",
    "sub/tools.yml",
    "sub/b.tools.yaml",
    "sub/deeper/tools-list.json",
    "package.json",
    "notes.json",
    "catalog.yaml",
    "node_modules/tools.json",
    "sub/node_modules/x.tools.json",
    ".git/tools.json",
]


def make_tree(root: Path) -> None:
    for rel in TREE:
        write(root / rel, catalog_text(GOOD_TOOL))


def linted(doc: dict, root: str) -> set[str]:
    return {Path(f["file"]).relative_to(root).as_posix() for f in doc["files"]}


def test_defaults_cover_the_documented_names() -> None:
    assert {"tools.json", "*.tools.json", "tools.yaml"} <= set(DEFAULT_INCLUDE)
    assert {"node_modules", ".git"} <= set(DEFAULT_EXCLUDE)


def test_directory_default_include(cli, tmp_path: Path) -> None:
    make_tree(tmp_path / "proj")
    result, doc = run_json(cli, "proj")
    assert result.exit_code == 1
    assert result.stderr == ""
    assert linted(doc, "proj") == {
        "tools.json",
        "a.tools.json",
        "tools.yaml",
        "sub/tools.yml",
        "sub/b.tools.yaml",
        "sub/deeper/tools-list.json",
    }


def test_no_path_means_current_directory(cli, tmp_path: Path) -> None:
    make_tree(tmp_path)
    result, doc = run_json(cli)
    assert result.exit_code == 1
    names = {Path(f["file"]).as_posix().removeprefix("./") for f in doc["files"]}
    assert "tools.json" in names
    assert "package.json" not in names
    assert not any("node_modules" in n or ".git" in n for n in names)


# make_tree's JSON files outside the default excludes
EVERY_JSON = {"tools.json", "a.tools.json", "sub/deeper/tools-list.json", "package.json", "notes.json"}


def test_include_replaces_the_defaults(cli, tmp_path: Path) -> None:
    make_tree(tmp_path / "proj")
    result, doc = run_json(cli, "--include", "*.json", "proj")
    assert result.exit_code == 1
    assert linted(doc, "proj") == EVERY_JSON


def test_include_several_globs(cli, tmp_path: Path) -> None:
    make_tree(tmp_path / "proj")
    result, doc = run_json(cli, "--include", "catalog.yaml", "--include", "notes.json", "proj")
    assert result.exit_code == 1
    assert linted(doc, "proj") == {"catalog.yaml", "notes.json"}


def test_include_globs_with_a_slash(cli, tmp_path: Path) -> None:
    make_tree(tmp_path / "proj")
    _, doc = run_json(cli, "--include", "**/*.json", "proj")  # a leading **/ also matches at the top
    assert linted(doc, "proj") == EVERY_JSON
    _, doc = run_json(cli, "--include", "sub/*.json", "proj")  # * crosses /, as in fnmatch
    assert linted(doc, "proj") == {"sub/deeper/tools-list.json"}
    _, doc = run_json(cli, "--include", "**/deeper/*.json", "--include", "**/notes.json", "proj")
    assert linted(doc, "proj") == {"sub/deeper/tools-list.json", "notes.json"}


@pytest.mark.parametrize("folder", ["sub", "sub/", "./sub", "/sub", "./sub/"])
def test_an_exclude_names_a_folder_however_it_is_written(cli, tmp_path: Path, folder: str) -> None:
    make_tree(tmp_path / "proj")
    # --exclude replaces the default excludes, so the run to compare with excludes something absent
    _, every = run_json(cli, "--include", "*.json", "--exclude", "nothing-here", "proj")
    _, doc = run_json(cli, "--include", "*.json", "--exclude", folder, "proj")
    assert linted(doc, "proj") == {p for p in linted(every, "proj") if not p.startswith("sub/")}
    _, doc = run_json(cli, "--include", "./" + "sub/deeper/*.json", "proj")
    assert linted(doc, "proj") == {"sub/deeper/tools-list.json"}


def test_directory_with_a_bad_catalog(cli, tmp_path: Path) -> None:
    write(tmp_path / "proj/tools.json", catalog_text(GOOD_TOOL))
    write(tmp_path / "proj/broken.tools.json", "{")
    write(tmp_path / "proj/package.json", "{")  # not a catalog, never read
    result, doc = run_json(cli, "proj")
    one_error(result, str(Path("proj") / "broken.tools.json") + ":1:2: error: ")
    assert linted(doc, "proj") == {"tools.json"}


def test_directory_with_no_catalogs(cli, tmp_path: Path) -> None:
    write(tmp_path / "proj/package.json", "{}")
    result, doc = run_json(cli, "proj")
    assert result.exit_code == 0
    assert doc["files"] == []
    # Said, not silently passed: the globs it tried and how to widen them.
    [notice] = doc["notices"]
    assert notice.startswith("proj: notice: no catalog files found (include: the default names: tools.json,")
    assert "--include" in notice


def test_no_catalogs_notice_in_every_report(cli, tmp_path: Path) -> None:
    write(tmp_path / "empty/notes.json", "{}")
    write(tmp_path / "full/tools.json", catalog_text(GOOD_TOOL))
    text = cli("lint", "empty", "full").output
    assert "empty: notice: no catalog files found" in text
    assert cli("lint", "empty").output.splitlines()[-1] == "Nothing linted: no catalog files found."
    assert "full: notice" not in text  # a directory with a catalog is not mentioned
    github = cli("lint", "empty", "--output-format", "github").output
    assert github.startswith("::notice title=catalint::empty: notice: no catalog files found (include: ")
    markdown = cli("lint", "empty", "--output-format", "markdown").output
    assert "- ℹ️ empty: notice: no catalog files found" in markdown
    custom = cli("lint", "empty", "--include", "*.yaml").output
    assert "(include: *.yaml)" in custom
    # A file named on the command line, or a directory whose catalog is found, gives no notice.
    _, doc = run_json(cli, "full", str(Path("full") / "tools.json"))
    assert doc["notices"] == []


def test_no_catalogs_notice_counts_the_documents_it_left_out(cli, tmp_path: Path) -> None:
    write(tmp_path / "corpus/github-server.json", catalog_text(GOOD_TOOL))
    write(tmp_path / "corpus/sub/slack.yaml", "tools: []\n")
    write(tmp_path / "corpus/README.md", "# not a catalog\n")
    write(tmp_path / "corpus/vendor/skip.json", "{}")
    (tmp_path / "catalint.toml").write_text('exclude = ["vendor"]\n')
    [notice] = run_json(cli, "corpus")[1]["notices"]
    assert notice.endswith(
        "; 2 JSON/YAML files here match none of them (--include '*.json' --include '*.yaml' lints them)"
    )
    (tmp_path / "corpus/sub/slack.yaml").unlink()
    [notice] = run_json(cli, "corpus")[1]["notices"]
    assert notice.endswith("; 1 JSON/YAML file here matches none of them (--include '*.json' lints them)")
    write(tmp_path / "corpus/sub/slack.yaml", "tools: []\n")
    _, doc = run_json(cli, "corpus", "--include", "*.json", "--include", "*.yaml")
    assert len(doc["files"]) == 2  # the empty catalog's own notice only:
    assert doc["notices"] == ["corpus/sub/slack.yaml: notice: the catalog has no tools; nothing was checked"]


def test_no_catalogs_notice_leaves_out_what_a_nested_config_excludes(cli, tmp_path: Path) -> None:
    # excluded below, not unmatched: "--include '*.json' lints them" would be advice that does nothing
    write(tmp_path / "repo/sub/legacy/tools.json", catalog_text(GOOD_TOOL))
    write(tmp_path / "repo/sub/catalint.toml", 'extend-exclude = ["legacy"]\n')
    write(tmp_path / "repo/sub/notes.json", "{}")
    [notice] = run_json(cli, "repo")[1]["notices"]
    assert notice.endswith("; 1 JSON/YAML file here matches none of them (--include '*.json' lints them)")
    (tmp_path / "repo/sub/notes.json").unlink()
    [notice] = run_json(cli, "repo")[1]["notices"]
    assert notice.endswith("name the files, or widen the globs with --include or the include setting")


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_directory_symlink_loop_terminates(cli, tmp_path: Path) -> None:
    write(tmp_path / "proj/sub/tools.json", catalog_text(GOOD_TOOL))
    os.symlink(tmp_path / "proj", tmp_path / "proj/sub/loop")
    os.symlink("..", tmp_path / "proj/sub/up")
    result, doc = run_json(cli, "proj")
    assert result.exit_code == 1
    assert [Path(f["file"]).relative_to("proj").as_posix() for f in doc["files"]] == ["sub/tools.json"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_file_symlink_loop_is_an_error_not_a_hang(cli, tmp_path: Path) -> None:
    write(tmp_path / "proj/a.tools.json", catalog_text(GOOD_TOOL))
    os.symlink("b.tools.json", tmp_path / "proj/tools.json")
    os.symlink("tools.json", tmp_path / "proj/b.tools.json")
    result, doc = run_json(cli, "proj")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 2
    assert all(": error: " in line for line in lines)
    assert linted(doc, "proj") == {"a.tools.json"}


# --------------------------------------------------------------------------------------
# End to end, in a real subprocess.
# --------------------------------------------------------------------------------------


def run_catalint(*args: str, cwd: Path, input: bytes | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "CATALINT_OUTPUT_FORMAT"}
    return subprocess.run(
        [sys.executable, "-m", "catalint", "lint", *args],
        cwd=cwd,
        input=input,
        capture_output=True,
        timeout=120,
        env=env,
        check=False,
    )


def test_e2e_deep_nesting_and_bad_utf8(tmp_path: Path) -> None:
    write(tmp_path / "deep.json", "[" * 100_000)
    write(tmp_path / "bad.tools.json", b'{"tools": [\r\n{"name": "\xc0"}]}')
    proc = run_catalint("deep.json", "bad.tools.json", cwd=tmp_path)
    stderr = proc.stderr.decode()
    assert proc.returncode == 2
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("deep.json")
    assert lines[1].startswith("bad.tools.json:2:11: error: ")


def test_e2e_many_inputs_one_bad(tmp_path: Path) -> None:
    write(tmp_path / "a.json", catalog_text(GOOD_TOOL))
    write(tmp_path / "b.yaml", "tools: [\n")
    proc = run_catalint(
        "--output-format",
        "json",
        *SELECT,
        "a.json",
        "b.yaml",
        "-",
        cwd=tmp_path,
        input=b"tools:\n  - name: piped\n",
    )
    assert proc.returncode == 2
    stderr = proc.stderr.decode()
    assert "Traceback" not in stderr
    assert len(stderr.splitlines()) == 1
    assert stderr.startswith("b.yaml:2:1: error: ")
    doc = json.loads(proc.stdout)
    assert {(f["file"], f["tool"], f["code"]) for f in doc["findings"]} == {
        ("a.json", "get_weather", "DESC-001"),
        ("-", "piped", "DESC-001"),
        ("-", "piped", "DESC-012"),
    }


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_e2e_symlink_loop_directory(tmp_path: Path) -> None:
    write(tmp_path / "proj/inner/tools.yaml", "- name: looped\n  description: Short\n  annotations: {}\n")
    os.symlink(tmp_path / "proj", tmp_path / "proj/inner/back")
    os.symlink(tmp_path / "proj/inner", tmp_path / "proj/inner/self")
    proc = run_catalint("proj", cwd=tmp_path)
    assert proc.returncode == 1
    assert b"Traceback" not in proc.stderr
    out = proc.stdout.decode()
    assert out.count("DESC-001") == 1
    assert "in 1 tool in 1 file" in out


def test_yaml_with_a_character_yaml_forbids_is_one_error_line(cli, tmp_path: Path) -> None:
    # Found by tests/test_fuzz.py: PyYAML's reader raised before the parser's error handling.
    (tmp_path / "t.yaml").write_bytes(b"tools:\n  - name: a\x00\n")
    result = cli("lint", "t.yaml")
    assert result.exit_code == 2
    assert result.stderr == "t.yaml:2:12: error: special characters are not allowed (#x0000)\n"


# YAML reads as JSON would: keys stay the strings written, timestamps stay strings.


def test_yaml_keys_and_timestamps_stay_strings(tmp_path: Path) -> None:
    from catalint.loader import load_path

    write(
        tmp_path / "t.yaml",
        "tools:\n  - name: a\n    inputSchema:\n      type: object\n      properties:\n"
        "        on: {type: boolean}\n        200: {type: string}\n"
        "        since: {type: string, default: 2024-01-01}\n",
    )
    catalog = load_path(str(tmp_path / "t.yaml"))
    props = catalog.tools[0].input_schema["properties"]
    assert list(props) == ["on", "200", "since"]
    assert props["since"]["default"] == "2024-01-01"
    assert catalog.locate("/tools/0/inputSchema/properties/200").line == 7


def test_yaml_collection_key_is_one_clear_error(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.yaml", "tools:\n  - name: a\n    ? [x, y]\n    : 1\n")
    line = one_error(cli("lint", "t.yaml"), "t.yaml:3:7: error: ")
    assert "key must be a string" in line


def test_non_object_input_schema_is_a_finding_not_a_load_error(cli, tmp_path: Path) -> None:
    write(tmp_path / "t.yaml", "tools:\n  - name: a\n    inputSchema: [1, 2]\n")
    result = cli("lint", "--select", "SCH-005", "t.yaml")
    assert result.exit_code == 1
    assert result.stdout.startswith("t.yaml:3:18: SCH-005 [critical] a: inputSchema is an array, not an object")


def test_yaml_alias_bomb_is_one_clear_error(cli, tmp_path: Path) -> None:
    lines = ["tools:", "  - name: bomb", "    inputSchema:", "      a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"      a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    write(tmp_path / "t.yaml", "\n".join(lines) + "\n")
    line = one_error(cli("lint", "t.yaml"), "t.yaml: error: ")
    assert "alias" in line


def test_yaml_anchors_within_reason_are_fine(cli, tmp_path: Path) -> None:
    text = (
        "tools:\n  - name: a\n    inputSchema: &s\n      type: object\n      additionalProperties: false\n"
        "  - name: b\n    inputSchema: *s\n"
    )
    write(tmp_path / "t.yaml", text)
    result = cli("lint", "--no-gate", "--select", "SCH", "t.yaml")
    assert result.exit_code == 0, result.output


# --------------------------------------------------------------------------------------
# YAML goes through libyaml's C scanner where PyYAML has it, and through PyYAML's own
# reader where libyaml refuses the text (so errors read as before), has no libyaml, or the
# text starts with a BOM. The two must agree on every value and every position.
# --------------------------------------------------------------------------------------

libyaml = pytest.mark.skipif(not __import__("yaml").__with_libyaml__, reason="PyYAML built without libyaml")

YAML_SHAPES = [
    "tools:\n- name: get_weather\n  description: Get the weather.\n  inputSchema: {type: object}\n",
    "tools: [{name: a, description: 'it''s', inputSchema: {type: object, properties: {x: {type: string}}}}]\n",
    'tools:\r\n  - name: "日本語 😀"\r\n    description: |\r\n      Line one.\r\n      Line two.\r\n\r\n    x: 1\r\n',
    "tools:\n  - &t\n    name: a\n    description: >\n      folded\n      text\n\n"
    "    schema: {a/b: 1, c~d: [1, 2, 3]}\n  - *t\n",
    "# comment\ntools:\n- name: a  # trailing\n  n: null\n  e: ''\n  t: !!str 12\n"
    "  on: yes\n  2024-01-01: x\n  '200': y\n",
    "? name\n: value\nlist:\n- - nested\n  - deeper: [x, {y: z}]\n",
]


def _pointers(source) -> dict[str, object]:
    return {pointer: source.span(pointer) for pointer in source.table}


@libyaml
@pytest.mark.parametrize("text", YAML_SHAPES)
def test_yaml_fast_and_pure_readers_agree(text: str) -> None:
    from catalint import loader

    fast_data, fast_source = loader._parse_yaml(text, "f.yaml", loader._fast_loader())
    pure_data, pure_source = loader._parse_yaml(text, "f.yaml", loader._json_loader())
    assert fast_data == pure_data
    assert _pointers(fast_source) == _pointers(pure_source)
    assert len(fast_source.table) > 3


@libyaml
def test_yaml_uses_libyaml_when_present(monkeypatch) -> None:
    from catalint import loader

    used = []
    real = loader._parse_yaml
    monkeypatch.setattr(loader, "_parse_yaml", lambda t, d, cls, **kw: used.append(cls) or real(t, d, cls, **kw))
    loader.parse_yaml("a: &x 1\nb: *x\n", "f.yaml")  # an alias: composed (a plain document is read from events)
    assert used == [loader._fast_loader()]


def test_yaml_that_libyaml_refuses_is_read_by_pyyaml() -> None:
    from catalint.loader import parse_yaml

    # libyaml stops at "b:" with no value inside a flow sequence; PyYAML reads a one-pair mapping.
    data, source = parse_yaml("x:\n  [a, b:]\n", "f.yaml")
    assert data == {"x": ["a", {"b": None}]}
    assert (source.span("/x/1").line, source.span("/x/1").col) == (2, 7)


@pytest.mark.parametrize(("escape", "col"), [("\\U00110000", 12), ("\\U99999999", 12), ("\\Uffffffff", 12)])
def test_a_yaml_escape_past_the_last_code_point_is_one_error_line(escape: str, col: int) -> None:
    """libyaml refuses it; PyYAML's reader, which words the error, raised chr()'s ValueError (or OverflowError)."""
    with pytest.raises(LoadError) as info:
        load_text(f'tools:\n- name: "{escape}"\n', "bad.yaml", "bad.yaml")
    assert str(info.value).startswith(f"bad.yaml:2:{col}: error: an escape that names no character (")


def test_yaml_errors_read_as_pyyaml_words_them() -> None:
    # libyaml would say "mapping values are not allowed in this context"
    with pytest.raises(LoadError) as info:
        load_text("tools:\n- name: a: b\n", "bad.yaml", "bad.yaml")
    assert str(info.value) == "bad.yaml:2:10: error: mapping values are not allowed here"


def test_a_duplicate_yaml_anchor_says_what_is_wrong() -> None:
    # PyYAML's own last words were all it said: "second occurrence"
    with pytest.raises(LoadError) as info:
        load_text("tools:\n  - &a {name: x}\n  - &a {name: y}\n", "dup.yaml", "dup.yaml")
    assert str(info.value) == "dup.yaml:3:5: error: anchor 'a' is defined twice (first at 2:5)"


def test_yaml_positions_after_a_bom() -> None:
    from catalint.loader import parse_yaml

    data, source = parse_yaml("\ufeffa: 1\nb: [x, é, y]\n", "f.yaml")
    assert data == {"a": 1, "b": ["x", "é", "y"]}
    span = source.span("/b/2")
    assert (span.line, span.col, span.end_line, span.end_col) == (2, 11, 2, 12)


@libyaml
def test_yaml_tab_after_a_colon_is_read_with_libyaml() -> None:
    from catalint.loader import _json_loader, _parse_yaml, parse_yaml

    # YAML allows a tab as separating white space; PyYAML's own scanner refuses it, libyaml does not.
    assert parse_yaml("a:\t1\n", "f.yaml")[0] == {"a": 1}
    with pytest.raises(LoadError, match="cannot start any token"):
        _parse_yaml("a:\t1\n", "f.yaml", _json_loader())
