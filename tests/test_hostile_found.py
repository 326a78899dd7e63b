"""Hostile inputs a fuzz campaign found (each crashed, hung or misled before its fix)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from conftest import write
from test_hostile import code_of, no_crash, one_error

TOOL = {
    "name": "get_weather",
    "description": "Get the weather for a city. Returns a JSON object.",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
CATALOG = json.dumps({"tools": [TOOL]})


def test_a_yaml_omap_of_tools_is_named_as_pairs_not_as_an_object(cli, tmp_path: Path) -> None:
    # was "tool is an object, not an object": an !!omap item is a (key, value) pair
    write(tmp_path / "u.yaml", "tools: !!omap [name: a]\n")
    error = one_error(cli("lint", "u.yaml"), "u.yaml:1:")
    assert "tool is a YAML pair (of !!omap or !!pairs), not an object (at /tools/0)" in error


@pytest.mark.parametrize("setting", ["per-file-ignores", "include", "exclude"])
def test_a_glob_of_a_thousand_leading_double_stars_is_read_as_one(cli, tmp_path: Path, setting: str) -> None:
    # each "**/" was one more recursive call (quadratic, then RecursionError at about 1,000)
    glob = "**/" * 5000 + "*.json"
    value = f'{{"{glob}" = ["DESC"]}}' if setting == "per-file-ignores" else f'["{glob}"]'
    write(tmp_path / "catalint.toml", f"{setting} = {value}\nextend-select = []\n")
    write(tmp_path / "sub" / "tools.json", CATALOG)
    result = cli("lint", "--output-format", "json", "--no-gate", ".")
    no_crash(result)
    report = json.loads(result.stdout)
    codes = {f["code"] for f in report["findings"]}
    if setting == "per-file-ignores":  # DESC ignored in sub/tools.json, the rest still found
        assert codes == {"SCH-002", "SCH-004"}, codes
    elif setting == "include":  # the glob takes sub/tools.json
        assert {"DESC-006", "SCH-002"} <= codes, codes
    else:  # ... and leaves it out
        assert report["files"] == [], report["files"]


@pytest.mark.skipif(sys.platform != "linux", reason="a file name that is not UTF-8 needs a byte file system")
def test_sarif_names_a_file_whose_name_is_not_utf8_by_its_bytes(cli, tmp_path: Path) -> None:
    # git stores any bytes in a name, so a pull request can add one; SARIF's uri crashed on it
    name = os.fsdecode(b"a\xff.tools.json")
    write(tmp_path / name, CATALOG)
    result = cli("lint", ".", "--output-format", "sarif", "-o", "out.sarif")
    no_crash(result)
    assert code_of(result) == 1
    sarif = json.loads((tmp_path / "out.sarif").read_text())
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    assert uris == {"a%FF.tools.json"}


@pytest.mark.parametrize("target", ["out/", "new/"])
def test_an_output_path_ending_in_a_slash_names_a_folder(cli, tmp_path: Path, target: str) -> None:
    # `-o out/` wrote a file named "out"; as the shell's `> out/`, it names a folder: no file is written
    write(tmp_path / "tools.json", CATALOG)
    one_error(cli("lint", "tools.json", "-o", target), f"{target}: error: cannot write report: Is a directory")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tools.json"]


@pytest.mark.parametrize("unit", ["one of: the, a. ", "status: a, b. ", "one of: e.g, eg. "])
def test_many_lists_desc013_passes_over_are_read_in_linear_time(cli, tmp_path: Path, unit: str) -> None:
    # each list looked for its sentence's start from the top of the text: 100 KB took 12 s, 1 MB over 60 s
    text = unit * (200_000 // len(unit))
    tool = {**TOOL, "inputSchema": {"type": "object", "properties": {"x": {"type": "string", "description": text}}}}
    write(tmp_path / "t.json", json.dumps({"tools": [tool]}))
    result = cli("lint", "--select", "DESC-013", "--output-format", "json", "t.json")
    no_crash(result)
    assert json.loads(result.stdout)["findings"] == []  # an article, a unit, an example mark: no closed set
    # the same lists, one at a time, still fire where they name a closed set
    tool["inputSchema"]["properties"]["x"]["description"] = "Sort order. One of: asc, desc."
    write(tmp_path / "t.json", json.dumps({"tools": [tool]}))
    found = json.loads(cli("lint", "--select", "DESC-013", "--output-format", "json", "t.json").stdout)["findings"]
    assert [f["code"] for f in found] == ["DESC-013"]


def _patterned(pattern: str, examples: list[str]) -> str:
    prop = {"type": "string", "description": "A code made of a and b.", "pattern": pattern, "examples": examples}
    tool = {**TOOL, "inputSchema": {"type": "object", "properties": {"code": prop}}}
    return json.dumps({"tools": [tool]})


def _sch009(cli) -> list[str]:
    result = cli("lint", "--select", "SCH-009", "--output-format", "json", "t.json")
    no_crash(result)
    return [f["pointer"].rsplit("/", 1)[-1] for f in json.loads(result.stdout)["findings"]]


def test_long_values_are_not_matched_against_a_catalogs_patterns(cli, tmp_path: Path) -> None:
    # 400 examples of 2 KB against (?:a|b|c){2000}x took 20 s; one of 5,000 characters against (a|b) x 1,998, 400 MB
    write(tmp_path / "t.json", _patterned("(?:a|b|c){2000}x", ["a" * 2000 + str(i) for i in range(400)]))
    assert _sch009(cli) == []
    write(tmp_path / "t.json", _patterned("(a|b)" * 1998 + "0", ["a" * 5000 + "!"]))
    assert _sch009(cli) == []
    # near miss: a value of up to 1,000 characters is still checked, and one that fails is reported
    write(tmp_path / "t.json", _patterned("^[ab]+$", ["ab", "a" * 999 + "!", "a" * 1001 + "!"]))
    assert _sch009(cli) == ["1"]


def test_values_matched_against_patterns_are_bounded_a_catalog(cli, tmp_path: Path) -> None:
    from catalint.rules.schema.values import PATTERN_CHARS_A_CATALOG, PATTERN_VALUE_CHARS

    count = PATTERN_CHARS_A_CATALOG // PATTERN_VALUE_CHARS  # the values the budget takes, and then one more
    examples = ["c" * PATTERN_VALUE_CHARS] + ["a" * PATTERN_VALUE_CHARS] * (count - 1) + ["c" * PATTERN_VALUE_CHARS]
    write(tmp_path / "t.json", _patterned("^[ab]+$", examples))
    assert _sch009(cli) == ["0"]  # the first is checked, the last is past the budget
