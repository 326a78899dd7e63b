"""`catalint diff` and the baseline filter: tool matching, word and schema diffs, findings by rule+tool+pointer."""

from __future__ import annotations

import copy
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from catalint import diff as diff_module
from catalint.config import FileIgnore, Settings
from catalint.diff import (
    SCHEMA_POINTER_CAP,
    SchemaChange,
    compare,
    filter_baseline,
    load_side,
    new_findings,
    schema_changes,
    word_diff,
)
from catalint.diff_cli import diff_command
from catalint.engine import lint_catalog
from catalint.loader import LoadError, load_text
from catalint.model import Catalog
from catalint.tdqs import score
from catalint.tokens import count
from conftest import write_catalog

# No findings with the default rules.
CLEAN = {
    "name": "get_time",
    "description": "Get the current time in UTC. Returns an ISO 8601 timestamp string.",
    "inputSchema": {"type": "object", "additionalProperties": False},
    "annotations": {"readOnlyHint": True},
}
# One finding: DESC-006 on /inputSchema/properties/city.
WEATHER = {
    "name": "get_weather",
    "description": "Get the weather for a city. Returns a JSON object.",
    "inputSchema": {
        "type": "object",
        "properties": {"city": {"type": "string", "maxLength": 100, "examples": ["Paris"]}},
        "required": ["city"],
        "additionalProperties": False,
    },
    "annotations": {"readOnlyHint": True},
}


def tool(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(base)
    out.update(changes)
    return out


def documented(t: dict[str, Any]) -> dict[str, Any]:
    """WEATHER with its city argument described (fixes DESC-006)."""
    out = copy.deepcopy(t)
    out["inputSchema"]["properties"]["city"]["description"] = "City name, e.g. Paris"
    return out


def catalog(tools: list[dict[str, Any]], name: str = "tools.json", indent: int | None = 2) -> Catalog:
    return load_text(json.dumps({"tools": tools}, indent=indent), name, name)


def keys(findings: list[Any]) -> list[tuple[str, str, str]]:
    return [(f.code, f.tool, f.pointer) for f in findings]


# Tool matching ---------------------------------------------------------------------------------------------------


def test_added_removed_and_unchanged() -> None:
    old_tool = tool(CLEAN, name="old_time")
    new_tool = tool(WEATHER, name="new_weather")
    diff = compare(catalog([CLEAN, old_tool]), catalog([new_tool, CLEAN]))
    assert [s.name for s in diff.added] == ["new_weather"]
    assert [s.name for s in diff.removed] == ["old_time"]
    assert diff.renamed == [] and diff.changes == []  # get_time moved to index 1 but did not change


def test_rename_needs_equal_schema_and_similar_description() -> None:
    renamed = tool(WEATHER, name="fetch_weather", description="Get the weather for a city. Returns a JSON object!")
    diff = compare(catalog([WEATHER]), catalog([renamed]))
    assert [(c.base.name, c.head.name) for c in diff.renamed] == [("get_weather", "fetch_weather")]
    assert diff.added == [] and diff.removed == []
    assert diff.renamed[0].description == "... Returns a JSON [-object.-] {+object!+}"


def test_a_rename_with_a_schema_edit_is_a_rename_with_its_schema_changes() -> None:
    schema = copy.deepcopy(WEATHER["inputSchema"])
    schema["properties"]["city"]["maxLength"] = 99
    schema["properties"]["units"] = {"type": "string", "enum": ["C", "F"]}  # 1 of 2 names new: half shared
    near = tool(WEATHER, name="fetch_weather", inputSchema=schema)
    diff = compare(catalog([WEATHER]), catalog([near]))
    assert [(c.base.name, c.head.name) for c in diff.renamed] == [("get_weather", "fetch_weather")]
    assert diff.added == [] and diff.removed == []
    assert [(c.pointer, c.kind) for c in diff.renamed[0].schema] == [
        ("/inputSchema/properties/city/maxLength", "changed"),
        ("/inputSchema/properties/units", "added"),
    ]
    assert ("DESC-006", "fetch_weather", "/inputSchema/properties/city") not in keys(diff.introduced)  # kept


def test_near_miss_with_a_schema_edit_and_a_looser_description_is_not_a_rename() -> None:
    schema = copy.deepcopy(WEATHER["inputSchema"])
    schema["properties"]["city"]["maxLength"] = 99
    # similar enough for an equal schema (0.6), not for an edited one (0.8)
    near = tool(WEATHER, name="fetch_weather", description="Get the weather for a town. Returns an object.")
    assert compare(catalog([WEATHER]), catalog([near])).renamed != []
    edited = tool(near, inputSchema=schema)
    diff = compare(catalog([WEATHER]), catalog([edited]))
    assert diff.renamed == []
    assert [s.name for s in diff.added] == ["fetch_weather"] and [s.name for s in diff.removed] == ["get_weather"]


def test_near_miss_with_the_same_description_and_other_arguments_is_not_a_rename() -> None:
    schema = {"type": "object", "properties": {"zip": {"type": "string"}, "country": {"type": "string"}}}
    other = tool(WEATHER, name="fetch_weather", inputSchema=schema)  # no argument name shared
    diff = compare(catalog([WEATHER]), catalog([other]))
    assert diff.renamed == [] and [s.name for s in diff.added] == ["fetch_weather"]


def test_near_miss_with_a_different_description_is_not_a_rename() -> None:
    other = tool(WEATHER, name="fetch_weather", description="Book a table at a restaurant for tonight.")
    assert compare(catalog([WEATHER]), catalog([other])).renamed == []


def test_near_miss_tools_without_descriptions_are_not_paired() -> None:
    bare = {"name": "get-problem", "inputSchema": {"type": "object", "properties": {}}}
    other = {"name": "delete-account", "inputSchema": {"type": "object", "properties": {}}}
    diff = compare(catalog([bare]), catalog([other]))
    assert diff.renamed == []
    assert [s.name for s in diff.removed] == ["get-problem"] and [s.name for s in diff.added] == ["delete-account"]


def test_schema_equality_is_json_equality() -> None:
    old = tool(WEATHER, inputSchema={**WEATHER["inputSchema"], "maxProperties": 1})
    new = tool(WEATHER, name="fetch_weather", inputSchema={"maxProperties": 1.0, **WEATHER["inputSchema"]})
    diff = compare(catalog([old]), catalog([new]))
    assert [(c.base.name, c.head.name) for c in diff.renamed] == [("get_weather", "fetch_weather")]


def test_rename_pairing_is_deterministic() -> None:
    a = tool(CLEAN, name="a_old", description="Get the current time in UTC as an ISO 8601 timestamp string.")
    b = tool(CLEAN, name="b_old", description="Get the current time in UTC. Returns an ISO 8601 timestamp string.")
    x = tool(CLEAN, name="x_new", description="Get the current time in UTC. Returns an ISO 8601 timestamp string.")
    y = tool(CLEAN, name="y_new", description="Get the current time in UTC as an ISO 8601 timestamp string.")
    pairs = {(c.base.name, c.head.name) for c in compare(catalog([a, b]), catalog([x, y])).renamed}
    assert pairs == {("a_old", "y_new"), ("b_old", "x_new")}  # most similar first
    swapped = {(c.base.name, c.head.name) for c in compare(catalog([b, a]), catalog([y, x])).renamed}
    assert swapped == pairs
    twins = [tool(CLEAN, name=n) for n in ("t1", "t2")]
    news = [tool(CLEAN, name=n) for n in ("u2", "u1")]
    assert [(c.base.name, c.head.name) for c in compare(catalog(twins), catalog(news)).renamed] == [
        ("t1", "u1"),
        ("t2", "u2"),
    ]


def test_a_mass_rename_compares_descriptions_only_within_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(diff_module, "MAX_RENAME_COMPARISONS", 1)
    olds = [tool(CLEAN, name=n, description=f"Get the time in zone {n}. Returns a timestamp.") for n in ("a", "b")]
    news = [tool(t, name=t["name"] + "_v2") for t in olds]
    assert len(compare(catalog(olds), catalog(news)).renamed) == 2  # equal descriptions need no comparison
    edited = [tool(t, description=t["description"] + " Fast.") for t in news]
    diff = compare(catalog(olds), catalog(edited))
    assert diff.renamed == [] and len(diff.added) == 2


def test_long_descriptions_are_compared_only_within_a_word_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # 2 x 2 pairs is within MAX_RENAME_COMPARISONS; their words (2 x 10 a side) are what the budget counts
    olds = [tool(CLEAN, name=n, description=f"Get the time in zone {n}. Returns a timestamp, fast.") for n in "ab"]
    edited = [tool(t, name=t["name"] + "_v2", description=t["description"] + " Cached.") for t in olds]
    monkeypatch.setattr(diff_module, "MAX_RENAME_WORDS", 20 * 22)
    assert len(compare(catalog(olds), catalog(edited)).renamed) == 2  # 20 x 22 words: at the budget
    monkeypatch.setattr(diff_module, "MAX_RENAME_WORDS", 20 * 22 - 1)
    diff = compare(catalog(olds), catalog(edited))
    assert diff.renamed == [] and len(diff.added) == 2 and len(diff.removed) == 2
    same = [tool(t, name=t["name"] + "_v2") for t in olds]
    assert len(compare(catalog(olds), catalog(same)).renamed) == 2  # equal descriptions need no comparison


def test_the_rename_budget_is_one_for_the_whole_diff_not_one_per_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    # two schema groups of 2 x 2 edited renames: each fits a budget of 4 pairs alone, not both together
    olds, news = [], []
    for group, schema in enumerate(({"type": "object"}, {"type": "object", "properties": {}})):
        for n in "ab":
            old = tool(CLEAN, name=f"{n}{group}", description=f"Get the time in zone {n}{group}. Returns a timestamp.")
            olds.append(tool(old, inputSchema=schema))
            news.append(tool(old, name=f"{n}{group}_v2", description=old["description"] + " Fast.", inputSchema=schema))
    assert len(compare(catalog(olds), catalog(news)).renamed) == 4
    monkeypatch.setattr(diff_module, "MAX_RENAME_COMPARISONS", 4)
    renamed = compare(catalog(olds), catalog(news)).renamed
    assert len(renamed) == 2 and {c.base.name[1] for c in renamed} == {"1"}  # the group first in canonical JSON


def test_repeated_names_pair_in_order() -> None:
    diff = compare(catalog([CLEAN, CLEAN]), catalog([CLEAN]))
    assert [s.tool.pointer for s in diff.removed] == ["/tools/1"]
    assert diff.added == [] and diff.changes == []


# Changes inside a tool -------------------------------------------------------------------------------------------


def test_word_diff() -> None:
    assert word_diff("List all orders", "List orders newest first") == "List [-all-] orders {+newest first+}"
    assert word_diff("a b c", "a x c") == "a [-b-] {+x+} c"
    assert word_diff("one  two", "one two") == "(no word changed)"


def test_word_diff_keeps_context_around_changes_and_stays_short() -> None:
    words = [f"w{i}" for i in range(200)]
    changed = [*words[:100], "NEW", *words[101:]]
    assert word_diff(" ".join(words), " ".join(changed)) == "... w97 w98 w99 [-w100-] {+NEW+} w101 w102 w103 ..."
    scattered = [w.upper() if i % 10 == 0 else w for i, w in enumerate(words)]
    text = word_diff(" ".join(words), " ".join(scattered))
    assert len(text) <= 204 and text.endswith(" ...")
    huge = word_diff("x", "y " * 500)
    assert len(huge) <= 100 and huge.startswith("[-x-] {+y y")


def test_description_change_reported_with_score_and_token_deltas() -> None:
    new = tool(WEATHER, description="Get the current weather for a city. Returns a JSON object with temperature.")
    diff = compare(catalog([WEATHER]), catalog([new]))
    (change,) = diff.changes
    assert change.description == (
        "Get the {+current+} weather for a ... Returns a JSON [-object.-] {+object with temperature.+}"
    )
    base_tool, head_tool = diff.base.tools[0], diff.head.tools[0]
    assert change.score_delta == round(score(head_tool).score - score(base_tool).score, 4)
    assert change.token_delta == count(head_tool).total - count(base_tool).total > 0
    assert change.schema == [] and change.fields == []


def test_schema_pointer_changes() -> None:
    old = copy.deepcopy(WEATHER)
    new = documented(WEATHER)
    new["inputSchema"]["required"].append("units")
    new["inputSchema"]["properties"]["city"]["maxLength"] = 50
    del new["inputSchema"]["additionalProperties"]
    changes = schema_changes(catalog([old]).tools[0], catalog([new]).tools[0])
    assert changes == [
        SchemaChange("/inputSchema/additionalProperties", "removed"),
        SchemaChange("/inputSchema/properties/city/description", "added"),
        SchemaChange("/inputSchema/properties/city/maxLength", "changed"),
        SchemaChange("/inputSchema/required", "added", '"units"'),
    ]


def test_set_like_lists_report_members_not_positions(cli, tmp_path) -> None:
    old = copy.deepcopy(WEATHER)
    old["inputSchema"]["properties"]["units"] = {"type": "string", "enum": ["metric", "imperial", "kelvin"]}
    old["inputSchema"]["required"] = ["units", "city"]
    new = copy.deepcopy(old)
    new["inputSchema"]["required"] = ["city"]  # units made optional: one change, not two positions
    new["inputSchema"]["properties"]["units"]["enum"] = ["kelvin", "metric"]  # reordered, imperial dropped
    changes = schema_changes(catalog([old]).tools[0], catalog([new]).tools[0])
    assert changes == [
        SchemaChange("/inputSchema/properties/units/enum", "removed", '"imperial"'),
        SchemaChange("/inputSchema/required", "removed", '"units"'),
    ]
    (tmp_path / "a.json").write_text(json.dumps({"tools": [old]}))
    (tmp_path / "b.json").write_text(json.dumps({"tools": [new]}))
    text = cli("diff", "a.json", "b.json").stdout
    assert '/properties/units/enum "imperial" removed, /required "units" removed' in text
    doc = json.loads(cli("diff", "a.json", "b.json", "--output-format", "json").stdout)
    assert doc["tools"]["changed"][0]["input_schema"]["changes"][1] == {
        "pointer": "/inputSchema/required",
        "change": "removed",
        "value": "units",
    }


def test_schema_appearing_or_disappearing_is_one_pointer() -> None:
    bare = {"name": "t", "description": "x"}
    with_schema = {**bare, "inputSchema": {"type": "object"}}
    a, b = catalog([bare]).tools[0], catalog([with_schema]).tools[0]
    assert schema_changes(a, b) == [SchemaChange("/inputSchema", "added")]
    assert schema_changes(b, a) == [SchemaChange("/inputSchema", "removed")]


def test_schema_pointers_are_capped() -> None:
    props = {f"p{i:02}": {"type": "string"} for i in range(30)}
    old = tool(CLEAN, inputSchema={"type": "object"})
    new = tool(CLEAN, inputSchema={"type": "object", "properties": props})
    (change,) = compare(catalog([old]), catalog([new])).changes
    assert change.schema_total == 1  # one pointer: /inputSchema/properties appeared
    many = tool(CLEAN, inputSchema={"type": "object", "properties": {k: {"type": "integer"} for k in props}})
    (change,) = compare(catalog([new]), catalog([many])).changes
    assert change.schema_total == 30 and len(change.schema) == SCHEMA_POINTER_CAP
    assert change.schema[0].pointer == "/inputSchema/properties/p00/type"


def test_other_members_and_totals() -> None:
    new = tool(CLEAN, annotations={"readOnlyHint": False}, title="Time")
    diff = compare(catalog([CLEAN, WEATHER]), catalog([new]))
    assert [c.fields for c in diff.changes] == [["annotations", "title"]]
    base_tools = diff.base.tools
    assert diff.mean_score_before == round(sum(score(t).score for t in base_tools) / 2, 4)
    assert diff.tokens_before == sum(count(t).total for t in base_tools)
    assert diff.tokens_after == count(diff.head.tools[0]).total
    assert compare(catalog([]), catalog([])).mean_score_before is None


def test_the_mean_score_leaves_out_a_tool_ignored_for_all_rules() -> None:
    from catalint.config import ToolIgnore

    settings = Settings(per_tool_ignores=[ToolIgnore([WEATHER["name"]], ["ALL"], None, [], "internal")])
    diff = compare(catalog([CLEAN, WEATHER]), catalog([CLEAN]), settings)
    assert diff.mean_score_before == diff.mean_score_after == score(diff.head.tools[0]).score
    assert [s.scored for s in diff.before] == [True, False]
    assert compare(catalog([CLEAN, WEATHER]), catalog([CLEAN])).mean_score_before != diff.mean_score_before


# Findings --------------------------------------------------------------------------------------------------------


def test_findings_introduced_and_fixed() -> None:
    broken = tool(CLEAN, inputSchema={"type": "object"})  # SCH-002 and no annotations change
    diff = compare(catalog([WEATHER, CLEAN]), catalog([documented(WEATHER), broken]))
    assert keys(diff.fixed) == [("DESC-006", "get_weather", "/tools/0/inputSchema/properties/city")]
    assert keys(diff.introduced) == [("SCH-002", "get_time", "/tools/1/inputSchema")]


def test_moving_a_tool_changes_no_findings() -> None:
    base = catalog([WEATHER, CLEAN])
    padding = tool(CLEAN, name="padding", description="Pad the catalog. Returns nothing at all, ever.")
    moved = catalog([CLEAN, padding, WEATHER], indent=None)  # other index, other line
    diff = compare(base, moved)
    assert diff.introduced == [] and diff.fixed == []
    assert [s.name for s in diff.added] == ["padding"]


def test_a_renamed_tool_keeps_its_findings() -> None:
    renamed = tool(WEATHER, name="fetch_weather")
    diff = compare(catalog([WEATHER]), catalog([renamed]))
    assert diff.introduced == [] and diff.fixed == []


def test_a_repeated_finding_key_counts_each_time() -> None:
    twin = tool(WEATHER, name="get_weather_2")
    diff = compare(catalog([WEATHER]), catalog([WEATHER, twin]))
    assert ("DESC-006", "get_weather_2", "/tools/1/inputSchema/properties/city") in keys(diff.introduced)


# Baseline --------------------------------------------------------------------------------------------------------


def test_new_findings_against_a_baseline() -> None:
    baseline = catalog([WEATHER])
    head = catalog([tool(CLEAN, inputSchema={"type": "object"}), WEATHER], indent=None)
    settings = Settings()
    result = lint_catalog(head, settings)
    assert keys(new_findings(result, baseline, settings)) == [("SCH-002", "get_time", "/tools/0/inputSchema")]
    assert filter_baseline(result, baseline, settings) == 1
    assert keys(result.findings) == [("SCH-002", "get_time", "/tools/0/inputSchema")]


def test_new_findings_uses_the_given_settings_and_leaves_ignore_counts_alone() -> None:
    ignore = FileIgnore("*", ["DESC-006"], "test")
    settings = Settings(select=["SCH"], per_file_ignores=[ignore])
    result = lint_catalog(catalog([tool(WEATHER, inputSchema={"type": "object"})]), settings)
    assert keys(new_findings(result, catalog([WEATHER]), settings)) == [
        ("SCH-002", "get_weather", "/tools/0/inputSchema")
    ]
    assert ignore.used == 0


# Loading sides ---------------------------------------------------------------------------------------------------


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository with sub/tools.json committed ([WEATHER]), then changed to [WEATHER, CLEAN]."""
    git(tmp_path, "init", "-q")
    git(tmp_path, "config", "user.email", "test@example.com")
    git(tmp_path, "config", "user.name", "Test")
    (tmp_path / "sub").mkdir()
    write_catalog(tmp_path / "sub" / "tools.json", [WEATHER])
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "first")
    write_catalog(tmp_path / "sub" / "tools.json", [WEATHER, CLEAN])
    return tmp_path


def test_load_side_reads_a_revision_relative_to_cwd(repo: Path) -> None:
    for cwd, path in ((repo, "sub/tools.json"), (repo / "sub", "tools.json"), (repo / "sub", "../sub/tools.json")):
        side = load_side(f"HEAD:{path}", cwd)
        assert [t.name for t in side.tools] == ["get_weather"]
        assert side.display == f"{path}@HEAD"
    assert load_side(f"HEAD:{repo / 'sub' / 'tools.json'}", repo).display.endswith("tools.json@HEAD")
    assert len(load_side("tools.json", repo / "sub").tools) == 2


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nope:sub/tools.json", "nope:sub/tools.json: error: git: invalid object name 'nope'."),
        (
            "HEAD:sub/missing.json",
            "HEAD:sub/missing.json: error: git: path 'sub/missing.json' does not exist in 'HEAD'",
        ),
        ("HEAD:sub", "HEAD:sub: error: sub is a tree at HEAD, not a file"),
        ("HEAD:../x.json", "HEAD:../x.json: error: ../x.json is outside the git repository"),
        ("missing.json", "missing.json: error: No such file or directory"),
        ("C:missing.json", "C:missing.json: error: No such file or directory"),
    ],
)
def test_load_side_errors_name_the_spec(repo: Path, spec: str, message: str) -> None:
    with pytest.raises(LoadError) as caught:
        load_side(spec, repo)
    assert str(caught.value) == message


def test_load_side_outside_a_repository(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match=r"^HEAD:tools\.json: error: git: not a git repository"):
        load_side("HEAD:tools.json", tmp_path)


def test_a_file_named_like_a_revision_is_a_file(tmp_path: Path) -> None:
    write_catalog(tmp_path / "HEAD:tools.json", [CLEAN])
    assert load_side("HEAD:tools.json", tmp_path).display == "HEAD:tools.json"


# The command -----------------------------------------------------------------------------------------------------


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Run `diff` in-process from tmp_path; returns the click Result."""
    monkeypatch.chdir(tmp_path)

    def invoke(*args: str):
        return CliRunner().invoke(diff_command, list(args), catch_exceptions=False)

    return invoke


@pytest.fixture
def pair(tmp_path: Path) -> tuple[str, str]:
    write_catalog(tmp_path / "base.json", [WEATHER, tool(CLEAN, name="old_time")])
    head = [  # new_time is no rename of old_time: another description (compare test_a_rename_with_a_schema_edit)
        tool(
            CLEAN,
            name="new_time",
            description="Get the server's uptime. Returns whole seconds.",
            inputSchema={"type": "object"},
        ),
        tool(documented(WEATHER), description="Get the weather for a city, now. Returns a JSON object."),
    ]
    write_catalog(tmp_path / "head.json", head)
    return "base.json", "head.json"


def test_text_report(run, pair: tuple[str, str]) -> None:
    result = run(*pair)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[:3] == [
        "catalint diff: base.json -> head.json",
        "tools: 2 -> 2 (+1 added, 1 removed, 0 renamed)",
        lines[2],
    ]
    assert lines[2].startswith("+ new_time (score ") and lines[2].endswith(" tokens)")
    assert lines[3] == "- old_time"
    assert lines[4].startswith(
        "~ get_weather: description: ... weather for a [-city.-] {+city, now.+} Returns a JSON ...; "
        "inputSchema: /properties/city/description added; score "
    )
    # each finding as lint prints it, at its place in the side it is on
    introduced = "head.json:6:22: SCH-002 [warning] new_time: the input schema accepts unexpected fields"
    fixed = "base.json:9:19: DESC-006 [critical] get_weather: required argument 'city' has no description"
    assert lines[5:8] == [
        "findings: 1 introduced, 1 fixed",
        f"  + {introduced} (additionalProperties is not false)",
        f"  - {fixed}",
    ]
    from catalint.cli import main

    for file, line in (("head.json", introduced), ("base.json", fixed)):
        linted = CliRunner().invoke(main, ["lint", "--select", "ALL", file]).stdout.splitlines()
        assert any(out.startswith(line) for out in linted), (line, linted)
    assert lines[8].startswith("totals: mean score ") and "; tokens " in lines[8]
    assert len(lines) == 9


def test_json_report(run, pair: tuple[str, str]) -> None:
    data = json.loads(run(*pair, "--output-format", "json").stdout)
    assert data["base"] == "base.json" and data["head"] == "head.json"
    assert [t["name"] for t in data["tools"]["added"]] == ["new_time"]
    assert [t["name"] for t in data["tools"]["removed"]] == ["old_time"]
    (changed,) = data["tools"]["changed"]
    assert changed["input_schema"] == {
        "changes": [{"pointer": "/inputSchema/properties/city/description", "change": "added"}],
        "total": 1,
    }
    assert changed["tokens"]["delta"] == changed["tokens"]["after"] - changed["tokens"]["before"]
    assert [f["code"] for f in data["findings"]["introduced"]] == ["SCH-002"]
    assert data["findings"]["fixed"][0]["file"] == "base.json"
    totals = data["totals"]
    assert totals["tokens_delta"] == totals["tokens_after"] - totals["tokens_before"]


def test_the_markdown_heading_shows_a_pipe_in_a_file_name_as_written(
    run, pair: tuple[str, str], tmp_path: Path
) -> None:
    # outside a table a backslash before a pipe is shown: the heading read `a\|b.json`
    (tmp_path / "a|b.json").write_text((tmp_path / pair[1]).read_text())
    out = run(pair[0], "a|b.json", "--output-format", "markdown").stdout
    assert out.startswith("### catalint diff: `base.json` → `a|b.json`\n")


def test_markdown_report(run, pair: tuple[str, str], tmp_path: Path) -> None:
    out = run(*pair, "--output-format", "markdown").stdout
    assert out.startswith("### catalint diff: `base.json` → `head.json`\n")
    assert "| `new_time` | added |" in out and "| `old_time` | removed | |" in out
    assert "**Findings introduced (1)**" in out and "<details>" not in out
    assert "- **SCH-002** `new_time` at `head.json:6:22`: the input schema accepts" in out
    assert "- **DESC-006** `get_weather` at `base.json:9:19`: required argument" in out
    many = [tool(CLEAN, name=f"t{i:02}", inputSchema={"type": "object"}) for i in range(12)]  # SCH-002 each
    write_catalog(tmp_path / "many.json", many)
    out = run("base.json", "many.json", "--output-format", "markdown").stdout
    assert "<details><summary>Findings introduced (" in out and "**Findings fixed (1)**" in out


def test_output_file(run, pair: tuple[str, str], tmp_path: Path) -> None:
    result = run(*pair, "-o", "report.md", "--output-format", "markdown")
    assert result.exit_code == 0 and result.stdout == ""
    assert (tmp_path / "report.md").read_text(encoding="utf-8").startswith("### catalint diff:")


def test_exit_code_flag(run, pair: tuple[str, str]) -> None:
    base, head = pair
    assert run(base, head, "--exit-code").exit_code == 1
    assert run(base, base, "--exit-code").exit_code == 0
    assert run(base, head).exit_code == 0


def test_exit_code_counts_introduced_findings_at_or_above_fail_severity(run, pair: tuple[str, str]) -> None:
    # a diff that introduced only warnings failed a "no new criticals" check: there was no way to say so
    base, head = pair
    introduced = json.loads(run(base, head, "--output-format", "json").stdout)["findings"]["introduced"]
    severities = {f["severity"] for f in introduced}
    assert "warning" in severities and "critical" not in severities
    assert run(base, head, "--exit-code", "--fail-severity", "critical").exit_code == 0
    assert run(base, head, "--exit-code", "--fail-severity", "WARNING").exit_code == 1
    assert run(base, head, "--fail-severity", "warning").exit_code == 0  # without --exit-code, always 0


def test_same_output_twice(run, pair: tuple[str, str]) -> None:
    for fmt in ("text", "json", "markdown"):
        assert run(*pair, "--output-format", fmt).stdout == run(*pair, "--output-format", fmt).stdout


def test_revision_against_working_tree(run, repo: Path) -> None:
    result = run("HEAD:sub/tools.json", "sub/tools.json")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:3] == [
        "catalint diff: sub/tools.json@HEAD -> sub/tools.json",
        "tools: 1 -> 2 (+1 added, 0 removed, 0 renamed)",
        result.stdout.splitlines()[2],
    ]
    assert result.stdout.splitlines()[2].startswith("+ get_time (score 1.00, ")


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("missing.json", "sub/tools.json"), "missing.json: error: No such file or directory"),
        (("nope:sub/tools.json", "sub/tools.json"), "nope:sub/tools.json: error: git: invalid object name 'nope'."),
    ],
)
def test_errors_exit_2_with_one_line(run, repo: Path, args: tuple[str, str], error: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == error + "\n"


def test_unparseable_side_exit_2(run, tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text('{"tools": [', encoding="utf-8")
    write_catalog(tmp_path / "ok.json", [CLEAN])
    result = run("ok.json", "bad.json")
    assert result.exit_code == 2
    assert result.stderr.startswith("bad.json:1:12: error: ") and result.stderr.count("\n") == 1


def test_unwritable_output_exit_2(run, pair: tuple[str, str]) -> None:
    Path(pair[0]).with_name("file").write_text("")
    target = str(Path(pair[0]).with_name("file") / "report.txt")
    result = run(*pair, "-o", target)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{target}: error: cannot write report: ")


def test_diff_lints_with_the_config_lint_would_use(cli, tmp_path: Path) -> None:
    """The Action's job summary showed findings the project ignores; now both sides follow HEAD's config."""
    write_catalog(tmp_path / "a.json", [CLEAN])
    write_catalog(tmp_path / "b.json", [{**CLEAN, "annotations": None, "description": "Time"}])

    def introduced(*args: str) -> set[str]:
        doc = json.loads(cli("diff", *args, "a.json", "b.json").stdout)
        return {f["code"] for f in doc["findings"]["introduced"]}

    args = ("--output-format", "json")
    assert {"DESC-001", "DESC-012"} <= introduced(*args)  # no config: the default rules
    (tmp_path / "pyproject.toml").write_text('[tool.catalint]\nignore = ["DESC-012"]\n')
    assert "DESC-012" not in introduced(*args) and "DESC-001" in introduced(*args)
    (tmp_path / "other.toml").write_text('ignore = ["DESC-001"]\n')
    assert "DESC-001" not in introduced(*args, "--config", "other.toml")
    assert "DESC-012" in introduced(*args, "--config", "other.toml")
    assert {"DESC-001", "DESC-012"} <= introduced(*args, "--isolated")  # no config: the default rules
    (tmp_path / "pyproject.toml").write_text('[tool.catalint]\nselct = ["DESC"]\n')
    bad = cli("diff", "a.json", "b.json")
    assert bad.exit_code == 2 and "unknown setting 'selct'" in bad.stderr


# ---------------------------------------------------------------- lint --baseline and --baseline-rev


def lint_codes(result) -> list[tuple[str, str]]:
    assert result.exit_code in (0, 1), result.stderr
    return [(f["code"], f["tool"]) for f in json.loads(result.stdout)["findings"]]


@pytest.fixture
def lint(monkeypatch: pytest.MonkeyPatch):
    from catalint.cli import main

    monkeypatch.delenv("CATALINT_OUTPUT_FORMAT", raising=False)

    def invoke(cwd: Path, *args: str):
        monkeypatch.chdir(cwd)
        return CliRunner().invoke(main, ["lint", "--no-gate", *args], catch_exceptions=False)

    return invoke


def test_lint_baseline_rev_reports_only_new_findings(lint, repo: Path) -> None:
    loose = tool(CLEAN, name="get_date", inputSchema={"type": "object"})  # SCH-002, new since HEAD
    write_catalog(repo / "sub" / "tools.json", [WEATHER, loose])
    everything = lint_codes(lint(repo, "--output-format", "json", "sub/tools.json"))
    assert ("DESC-006", "get_weather") in everything and ("SCH-002", "get_date") in everything
    new = lint_codes(lint(repo, "--output-format", "json", "--baseline-rev", "HEAD", "sub/tools.json"))
    assert new == [c for c in everything if c[1] == "get_date"]
    from_file = lint(repo / "sub", "--output-format", "json", "--baseline", "HEAD:tools.json", "tools.json")
    assert lint_codes(from_file) == new


@pytest.mark.parametrize("where", ["moved", "moved/deeper"])
def test_lint_baseline_rev_follows_a_catalog_git_sees_moved(lint, repo: Path, where: str) -> None:
    # committed at sub/tools.json, moved (and edited a little) since: compared with its old self, not new
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "two tools")
    loose = tool(CLEAN, name="get_date", inputSchema={"type": "object"})  # SCH-002, new since HEAD
    (repo / where).mkdir(parents=True)
    git(repo, "mv", "sub/tools.json", f"{where}/tools.json")
    write_catalog(repo / where / "tools.json", [WEATHER, CLEAN, loose])
    moved = f"{where}/tools.json"
    everything = lint_codes(lint(repo, "--output-format", "json", moved))
    new = lint_codes(lint(repo, "--output-format", "json", "--baseline-rev", "HEAD", moved))
    assert new and new == [c for c in everything if c[1] == "get_date"]
    assert lint_codes(lint(repo / where, "--output-format", "json", "--baseline-rev", "HEAD", "tools.json")) == new
    # a file git does not see as moved (nothing alike at the base) is new: every finding counts
    write_catalog(repo / where / "tools.json", [loose])
    git(repo, "add", ".")
    assert lint_codes(lint(repo, "--output-format", "json", "--baseline-rev", "HEAD", moved)) == lint_codes(
        lint(repo, "--output-format", "json", moved)
    )


def test_lint_baseline_rev_finds_moves_past_gits_rename_limit(lint, repo: Path) -> None:
    # 1,100 moved catalogs were past git's default limit of exhaustive rename detection: all counted as new
    git(repo, "config", "diff.renameLimit", "1")
    for n in range(3):
        write_catalog(repo / f"old{n}.json", [tool(WEATHER, name=f"get_weather_{n}")])
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "three")
    for n in range(3):
        git(repo, "mv", f"old{n}.json", f"moved_{n}.json")  # other names: no same-name shortcut
        write_catalog(repo / f"moved_{n}.json", [tool(WEATHER, name=f"get_weather_{n}", title=f"Weather {n}")])
    result = lint(repo, "--output-format", "json", "--baseline-rev", "HEAD", *(f"moved_{n}.json" for n in range(3)))
    assert lint_codes(result) == []


def test_lint_baseline_rev_takes_a_revision_that_holds_a_colon(lint, repo: Path) -> None:
    # HEAD^{/base: first} was split at its colon: from a subfolder the baseline was dropped, every finding new
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base: first")
    loose = tool(CLEAN, name="get_date", inputSchema={"type": "object"})
    write_catalog(repo / "sub" / "tools.json", [WEATHER, CLEAN, loose])
    plain = lint_codes(lint(repo / "sub", "--output-format", "json", "--baseline-rev", "HEAD", "tools.json"))
    assert plain and all(tool_name == "get_date" for _, tool_name in plain)
    colon = lint(repo / "sub", "--output-format", "json", "--baseline-rev", "HEAD^{/base: first}", "tools.json")
    assert lint_codes(colon) == plain
    (repo / "sub" / "HEAD:tools.json").write_text('{"tools": []}')  # a file named like REV:path is no revision
    assert lint_codes(lint(repo / "sub", "--output-format", "json", "--baseline-rev", "HEAD", "tools.json")) == plain


def test_lint_baseline_rev_says_when_git_cannot_look_for_moves(
    lint, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from catalint import diff as diff_module

    real = diff_module._git

    def failing(args: list[str], cwd: Path, spec: str) -> bytes:
        if args[0] == "diff":
            raise LoadError(spec, "git: bad revision")
        return real(args, cwd, spec)

    monkeypatch.setattr(diff_module, "_git", failing)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "two tools")
    (repo / "moved").mkdir()
    git(repo, "mv", "sub/tools.json", "moved/tools.json")
    result = lint(repo, "--output-format", "json", "--baseline-rev", "HEAD", "moved/tools.json")
    assert lint_codes(result)  # counted as new
    assert json.loads(result.stdout)["notices"] == [
        "notice: --baseline-rev: git could not look for catalogs moved since HEAD (git: bad revision): a catalog"
        " not at its own path there counts as new"
    ]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("--baseline-rev", "nope"), "error: --baseline-rev: 'nope' is not a commit of this repository"),
        (("--baseline-rev", "HEAD", "--baseline", "x.json"), "error: give --baseline or --baseline-rev, not both"),
    ],
)
def test_lint_baseline_errors(lint, repo: Path, args: tuple[str, ...], error: str) -> None:
    result = lint(repo, *args, "sub/tools.json")
    assert (result.exit_code, result.stderr.splitlines()) == (2, [error])


def test_lint_baseline_rev_outside_git(lint, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_catalog(tmp_path / "tools.json", [WEATHER])
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))  # git looks no further up
    result = lint(tmp_path, "--baseline-rev", "HEAD", "tools.json")
    assert result.stderr.splitlines() == ["error: --baseline-rev: the current directory is not in a git repository"]
    assert result.exit_code == 2


def test_lint_baseline_gates_scores_on_regressions_only(lint, repo: Path) -> None:
    # a legacy catalog below the score bar: the change is not asked to fix what it did not touch
    poor = tool(WEATHER, description="Weather")
    write_catalog(repo / "sub" / "tools.json", [poor])
    subprocess.run(["git", "commit", "-qam", "poor"], cwd=repo, check=True)
    gate = ["--gate", "mean_score>=0.9"]
    unchanged = lint(repo, "--baseline-rev", "HEAD", *gate, "sub/tools.json")
    assert unchanged.exit_code == 0, unchanged.stdout
    assert "no lower than at the baseline" in unchanged.stdout
    assert lint(repo, *gate, "sub/tools.json").exit_code == 1  # without a baseline the bar holds
    worse = {k: v for k, v in tool(WEATHER, description="W").items() if k != "annotations"}  # shorter, no hints
    write_catalog(repo / "sub" / "tools.json", [worse])
    regressed = lint(repo, "--baseline-rev", "HEAD", *gate, "sub/tools.json")
    assert regressed.exit_code == 1 and "gate [FAIL] mean_score" in regressed.stdout


def test_standard_input_can_be_only_one_side(cli) -> None:
    result = cli("diff", "-", "-", input='{"tools": []}')
    assert result.exit_code == 2
    assert result.output.strip() == "error: '-' (standard input) can be only one side of a diff"


def test_a_revision_without_a_path_says_so(cli) -> None:
    result = cli("diff", "HEAD:", "tools.json")
    assert result.exit_code == 2
    assert result.output.strip() == (
        "HEAD:: error: no path after the revision 'HEAD': write REV:path, such as HEAD~1:tools.json"
    )


def _ping(name: str, description: str) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"host": {"type": "string"}}, "required": ["host"]}
    return {"name": name, "description": description, "inputSchema": schema, "annotations": {"readOnlyHint": True}}


def test_lint_baseline_an_unchanged_catalog_never_falls_below_itself(lint, tmp_path: Path) -> None:
    # scores 0.6444 and 0.6219: the mean 0.63315 was compared unrounded with the current mean rounded to
    # 0.6331, so the unchanged catalog failed mean_score against itself; a tool check quoted with ' found no
    # baseline figure, stored only under tool["..."]
    tools = [
        _ping("ping_host", "Ping a host on the network and report whether it answers."),
        _ping("ping_back", "Ping the host on the network and report back."),
    ]
    write_catalog(tmp_path / "tools.json", tools)
    write_catalog(tmp_path / "base.json", tools)
    plain = lint(tmp_path, "--baseline", "base.json", "--gate", "mean_score>=0.7", "tools.json")
    assert plain.exit_code == 0, plain.stdout
    assert "gate [PASS] mean_score 0.63 < 0.70, no lower than at the baseline (0.63)" in plain.stdout.splitlines()
    for quote in ("'", '"'):
        gate = f"tool[{quote}ping_host{quote}].score>=0.7"
        result = lint(tmp_path, "--baseline", "base.json", "--gate", gate, "tools.json")
        assert result.exit_code == 0, result.stdout
        assert f"gate [PASS] {gate.replace('>=', ' 0.64 < ').replace('0.7', '0.70')}" in result.stdout


def test_a_score_move_two_decimals_would_hide_is_shown_to_four() -> None:
    from catalint.diff_cli import _score_move, _signed

    assert _score_move(0.6997, 0.7) == "0.6997 -> 0.70 (+0.0003)"  # not "(+0.00)" beside a real change
    assert _signed(0.0) == "+0.00" and _signed(-0.00001) == "+0.00" and _signed(-0.25) == "-0.25"


def test_both_sides_are_matched_by_heads_path_for_file_globs(cli, tmp_path: Path) -> None:
    """A per-file ignore (or a per-tool one's files) written for the head's path covers the base too: an
    old copy or the file before a rename is the same catalog. Identical files showed 1 'fixed' finding."""
    (tmp_path / "sub").mkdir()
    write_catalog(tmp_path / "sub" / "tools.json", [WEATHER])
    write_catalog(tmp_path / "old.json", [WEATHER])
    (tmp_path / "catalint.toml").write_text('[per-file-ignores]\n"sub/*.json" = ["DESC-006"]\n')
    doc = json.loads(cli("diff", "old.json", "sub/tools.json", "--output-format", "json").stdout)
    assert (doc["findings"]["introduced"], doc["findings"]["fixed"]) == ([], [])
    (tmp_path / "catalint.toml").write_text(
        '[[per-tool-ignores]]\ntools = ["get_weather"]\nrules = ["ALL"]\nfiles = ["sub/*.json"]\n'
    )
    doc = json.loads(cli("diff", "old.json", "sub/tools.json", "--output-format", "json").stdout)
    # the one tool is left out of the scores on both sides, not only on head's
    assert (doc["totals"]["mean_score_before"], doc["totals"]["mean_score_after"]) == (None, None)


def test_a_finding_whose_list_entry_moved_is_neither_introduced_nor_fixed() -> None:
    """An item put before it in required moves SCH-007's pointer from /required/1 to /required/2: the same
    finding, which only-new used to report as new (and so fail on a legacy critical)."""
    props = {"query": {"type": "string", "description": "Text"}, "limit": {"type": "integer", "description": "N"}}
    old = {
        "name": "find",
        "description": "Find things by text. Returns ids.",
        "inputSchema": {"type": "object", "properties": props, "required": ["query", "ghost"]},
    }
    new = copy.deepcopy(old)
    new["inputSchema"]["required"] = ["limit", "query", "ghost"]
    result = compare(catalog([old]), catalog([new]))
    assert not [f for f in result.introduced if f.code == "SCH-007"]
    assert not [f for f in result.fixed if f.code == "SCH-007"]
    # a second ghost is new all the same
    new["inputSchema"]["required"] = ["limit", "query", "ghost", "phantom"]
    result = compare(catalog([old]), catalog([new]))
    assert [f.pointer.rsplit("/", 1)[-1] for f in result.introduced if f.code == "SCH-007"] == ["3"]
    assert not [f for f in result.fixed if f.code == "SCH-007"]


def test_diff_of_two_revisions_uses_the_config_of_heads_folder(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """HEAD given as REV:path took the working directory's config, so an ignored rule showed as introduced."""
    loose = tool(CLEAN, name="get_date", description="Date")  # DESC-001, new in the second commit
    write_catalog(repo / "sub" / "tools.json", [WEATHER, loose])
    (repo / "sub" / "catalint.toml").write_text('ignore = ["DESC"]\n')
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "second")
    monkeypatch.chdir(repo)
    runner = CliRunner()
    for head in ("HEAD:sub/tools.json", "sub/tools.json"):
        out = runner.invoke(diff_command, ["HEAD~1:sub/tools.json", head, "--output-format", "json"])
        assert out.exit_code == 0, out.output
        codes = {f["code"] for f in json.loads(out.stdout)["findings"]["introduced"]}
        assert not any(c.startswith("DESC") for c in codes), (head, codes)


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_committed_symbolic_link_is_read_through_at_a_revision(lint, repo: Path) -> None:
    """git keeps a link as a blob holding its target's path: read as a catalog it failed, so every finding of
    an unchanged linked catalog counted as new under --baseline-rev, and diff stopped."""
    (repo / "link.json").symlink_to("sub/tools.json")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "link")
    result = lint(repo, "--output-format", "json", "--baseline-rev", "HEAD", "link.json")
    assert lint_codes(result) == []
    side = load_side("HEAD:link.json", repo)
    assert side.display == "link.json@HEAD" and [t.name for t in side.tools] == ["get_weather", "get_time"]
    # a whole path into the repository, a link to a link, and a target whose name starts with '['
    (repo / "[v2]").mkdir()
    (repo / "[v2]" / "tools.json").write_text((repo / "sub" / "tools.json").read_text())
    (repo / "abs.json").symlink_to(repo / "sub" / "tools.json")
    (repo / "again.json").symlink_to("link.json")
    (repo / "bracket.json").symlink_to("[v2]/tools.json")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "more links")
    for name in ("abs.json", "again.json", "bracket.json"):
        assert [t.name for t in load_side(f"HEAD:{name}", repo).tools] == ["get_weather", "get_time"], name


def test_baseline_rev_says_when_the_version_at_rev_cannot_be_read(lint, repo: Path) -> None:
    (repo / "sub" / "tools.json").write_text("{not json")
    git(repo, "commit", "-qam", "broken")
    write_catalog(repo / "sub" / "tools.json", [WEATHER])
    result = lint(repo, "--output-format", "json", "--baseline-rev", "HEAD", "sub/tools.json")
    notices = json.loads(result.stdout)["notices"]
    assert any(
        n.startswith("sub/tools.json: notice: --baseline-rev: its version at HEAD could not be read (")
        and n.endswith("): every finding is kept")
        for n in notices
    ), notices
    assert lint_codes(result) == [("DESC-006", "get_weather")]  # all kept, as for a new file


def test_a_tool_score_check_follows_a_rename_to_its_baseline_score(lint, repo: Path) -> None:
    """Findings followed a renamed tool, its baseline score did not: tool["fetch_weather"].score failed where
    the same tool unrenamed passed as 'no lower than at the baseline'."""
    poor = tool(WEATHER, description="Weather for a city")
    write_catalog(repo / "sub" / "tools.json", [poor])
    git(repo, "commit", "-qam", "poor")
    write_catalog(repo / "sub" / "tools.json", [tool(poor, name="fetch_weather")])
    gate = ["--gate", 'tool["fetch_weather"].score>=0.95']
    result = lint(repo, "--baseline-rev", "HEAD", *gate, "sub/tools.json")
    assert result.exit_code == 0, result.stdout
    assert (
        'gate [PASS] tool["fetch_weather"].score' in result.stdout and "no lower than at the baseline" in result.stdout
    )


def test_a_finding_in_another_branch_is_new_though_its_message_is_the_same() -> None:
    """Fix one oneOf branch and break another the same way: the entry did not move, so it is one fixed and one
    introduced (the moved-entry pairing hid it: diff said 0 and 0, only-new passed a new critical)."""

    def branch(kind: str, described: bool) -> dict[str, Any]:
        ident = {"type": "string", "maxLength": 9, **({"description": "Its id."} if described else {})}
        return {"type": "object", "properties": {"kind": {"const": kind}, "id": ident}, "required": ["kind", "id"]}

    def catalog_of(first: bool, second: bool) -> Catalog:
        schema = {
            "type": "object",
            "properties": {
                "target": {"description": "What.", "oneOf": [branch("user", first), branch("team", second)]}
            },
            "required": ["target"],
        }
        return catalog([{"name": "fetch", "description": "Fetch a record by id. Returns it.", "inputSchema": schema}])

    result = compare(catalog_of(False, True), catalog_of(True, False))
    assert [f.code for f in result.introduced if f.code == "DESC-006"] == ["DESC-006"]
    assert [f.code for f in result.fixed if f.code == "DESC-006"] == ["DESC-006"]


def test_baseline_scores_count_every_tool_when_a_rename_takes_an_existing_name(lint, repo: Path) -> None:
    """x renamed to y beside a y: the baseline's min and mean had lost one of the two tools."""
    poor = tool(WEATHER, name="y_weather", description="Weather")
    good = tool(CLEAN, name="x_time")
    write_catalog(repo / "sub" / "tools.json", [poor, good])
    git(repo, "commit", "-qam", "two")
    write_catalog(repo / "sub" / "tools.json", [poor, tool(good, name="y_weather")])
    gate = ["--gate", "min_score>=0.9", "--gate", "mean_score>=0.9"]
    result = lint(repo, "--baseline-rev", "HEAD", "--select", "DESC-001", *gate, "sub/tools.json")
    rows = [line for line in result.stdout.splitlines() if line.startswith("gate ")]
    assert rows and all(r.startswith("gate [PASS]") and "no lower than at the baseline" in r for r in rows), rows
