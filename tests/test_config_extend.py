"""`extend`: a config file that builds on another, as in ruff."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import write_catalog
from test_config import TOOL as CLOSED

# test_config's tool without additionalProperties: false, so an undocumented required argument
# (DESC-006, critical), no annotations (DESC-012) and an open schema (SCH-002), and nothing else.
TOOL = {
    **CLOSED,
    "inputSchema": {k: v for k, v in CLOSED["inputSchema"].items() if k != "additionalProperties"},
}


def findings(result) -> list[tuple[str, str]]:
    return sorted((f["code"], f["severity"]) for f in json.loads(result.stdout)["findings"])


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    """servers/a/tools.json, with a catalint.toml beside it for each test to write."""
    (tmp_path / "servers" / "a").mkdir(parents=True)
    return write_catalog(tmp_path / "servers" / "a" / "tools.json", [TOOL])


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def lint(cli, catalog: Path, *args: str):
    return cli("lint", "--output-format", "json", "--no-gate", str(catalog), *args)


def test_the_extended_files_settings_apply_under_this_files(cli, tmp_path: Path, catalog: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        '[tool.catalint]\nselect = ["DESC"]\nignore = ["DESC-012"]\n[tool.catalint.severity]\nDESC-006 = "info"\n',
    )
    child = write(catalog.parent / "catalint.toml", 'extend = "../../pyproject.toml"\nextend-select = ["SCH-002"]\n')
    assert findings(lint(cli, catalog)) == [("DESC-006", "info"), ("SCH-002", "warning")]
    # without extend, the child alone is the whole config: the defaults plus SCH-002
    child.write_text('extend-select = ["SCH-002"]\n')
    assert findings(lint(cli, catalog)) == [("DESC-006", "critical"), ("DESC-012", "warning"), ("SCH-002", "warning")]


def test_a_select_here_replaces_the_selection_below_whole(cli, tmp_path: Path, catalog: Path) -> None:
    # as --select does over a file: the base's ignore and extend-select go with its select
    write(tmp_path / "pyproject.toml", '[tool.catalint]\nignore = ["DESC-006"]\nextend-select = ["TOK-001"]\n')
    write(catalog.parent / "catalint.toml", 'extend = "../../pyproject.toml"\nselect = ["DESC"]\n')
    assert findings(lint(cli, catalog)) == [("DESC-006", "critical"), ("DESC-012", "warning")]


def test_a_gate_table_here_replaces_the_checks_below_whole(cli, tmp_path: Path, catalog: Path) -> None:
    # as select over extend-select: the base's extend-gate goes with the checks it laid
    write(tmp_path / "base.toml", 'extend-gate = ["mean_score>=0.95"]\n')
    child = write(catalog.parent / "catalint.toml", 'extend = "../../base.toml"\n[gate]\nmean_score = { ">=" = 0.1 }\n')
    shown = json.loads(cli("lint", "--show-settings", "--output-format", "json", str(catalog)).stdout)
    assert shown["gate"] == [{"target": "mean_score", "expected": ">= 0.10"}]
    # an extend-gate here still adds to the base's
    child.write_text('extend = "../../base.toml"\nextend-gate = ["min_score>=0.2"]\n')
    gate = json.loads(cli("lint", "--show-settings", "--output-format", "json", str(catalog)).stdout)["gate"]
    assert {"target": "mean_score", "expected": ">= 0.95"} in gate and {
        "target": "min_score",
        "expected": ">= 0.20",
    } in gate


def test_ignores_add_up_and_a_severity_entry_replaces_only_its_own_code(cli, tmp_path: Path, catalog: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        '[tool.catalint]\nignore = ["SCH-002"]\n[tool.catalint.severity]\nDESC-006 = "info"\nDESC-012 = "info"\n',
    )
    write(
        catalog.parent / "catalint.toml",
        'extend = "../../pyproject.toml"\nignore = ["DESC-006"]\n[severity]\nDESC-012 = "critical"\n',
    )
    assert findings(lint(cli, catalog)) == [("DESC-012", "critical")]


def test_this_files_ignore_and_severity_decide_every_rule_they_name_below(cli, tmp_path: Path, catalog: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        '[tool.catalint]\nselect = ["DESC-006", "DESC-012"]\n[tool.catalint.severity]\nDESC-012 = "info"\n',
    )
    child = write(catalog.parent / "catalint.toml", 'extend = "../../pyproject.toml"\nignore = ["DESC-0"]\n')
    assert findings(lint(cli, catalog)) == []
    child.write_text('extend = "../../pyproject.toml"\n[severity]\nDESC = "warning"\n')
    assert findings(lint(cli, catalog)) == [("DESC-006", "warning"), ("DESC-012", "warning")]
    write(tmp_path / "pyproject.toml", '[tool.catalint]\nignore = ["DESC-006"]\n')
    child.write_text('extend = "../../pyproject.toml"\nextend-select = ["DESC"]\n')
    assert ("DESC-006", "critical") in findings(lint(cli, catalog))


def test_a_chain_of_extends_applies_the_farthest_first(cli, tmp_path: Path, catalog: Path) -> None:
    write(tmp_path / "base.toml", 'fail-severity = "info"\n[severity]\nDESC-012 = "info"\n')
    write(tmp_path / "servers" / "shared.toml", 'extend = "../base.toml"\n[severity]\nDESC-006 = "warning"\n')
    write(catalog.parent / "catalint.toml", 'extend = "../shared.toml"\nignore = ["SCH"]\n')
    result = lint(cli, catalog)
    assert findings(result) == [("DESC-006", "warning"), ("DESC-012", "info")]
    assert result.exit_code == 1  # fail-severity info, from the farthest file
    shown = cli("lint", "--show-settings", str(catalog)).output
    assert "config: servers/a/catalint.toml, extending servers/shared.toml, then base.toml" in shown


def test_an_extended_files_walk_globs_are_read_from_its_own_folder(cli, tmp_path: Path) -> None:
    """Its include/exclude globs with a folder, as its per-file-ignores: 'proj/legacy' in the root's file is the
    root's proj/legacy, for a walk and for a file named with force-exclude (read from proj/, it named nothing)."""
    for rel in ("proj/tools.json", "proj/legacy/tools.json"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        write_catalog(tmp_path / rel, [TOOL])
    write(tmp_path / "base.toml", 'extend-exclude = ["proj/legacy"]\n')
    write(tmp_path / "proj" / "catalint.toml", 'extend = "../base.toml"\n')

    def shown(*args: str) -> list[str]:
        return json.loads(cli("lint", "--show-files", "--output-format", "json", *args).stdout)

    assert shown("proj") == ["proj/tools.json"]
    assert shown("--force-exclude", "proj/legacy/tools.json", "proj/tools.json") == ["proj/tools.json"]
    # a glob without a folder, or one that starts with **/, matches at any depth, from anywhere, as before:
    # also from a base kept outside the project (configs/base.toml)
    write(tmp_path / "base.toml", 'extend-exclude = ["legacy"]\n')
    assert shown("proj") == ["proj/tools.json"]
    write(tmp_path / "configs" / "base.toml", 'extend-exclude = ["**/legacy"]\n')
    write(tmp_path / "proj" / "catalint.toml", 'extend = "../configs/base.toml"\n')
    assert shown("proj") == ["proj/tools.json"]
    assert shown("--force-exclude", "proj/legacy/tools.json", "proj/tools.json") == ["proj/tools.json"]
    write(tmp_path / "proj" / "catalint.toml", 'extend = "../base.toml"\n')
    # and the base's own folder reads it as before when it is the nearest config
    (tmp_path / "proj" / "catalint.toml").unlink()
    write(tmp_path / "catalint.toml", 'extend-exclude = ["proj/legacy"]\n')
    assert shown(".") == ["proj/tools.json"]


def test_an_extended_files_globs_are_read_from_its_own_folder(cli, tmp_path: Path) -> None:
    # as in ruff: servers/a/sub/tools.json is "servers/a/sub/tools.json" to the root's globs
    (tmp_path / "servers" / "a" / "sub").mkdir(parents=True)
    catalog = write_catalog(tmp_path / "servers" / "a" / "sub" / "tools.json", [TOOL])
    root = write(tmp_path / "pyproject.toml", "")
    write(tmp_path / "servers" / "a" / "catalint.toml", 'extend = "../../pyproject.toml"\n')
    codes = ["DESC-006", "DESC-012", "SCH-002"]
    for glob, left in [("sub/tools.json", codes), ("servers/a/sub/tools.json", ["DESC-012", "SCH-002"])]:
        root.write_text(f'[tool.catalint.per-file-ignores]\n"{glob}" = ["DESC-006"]\n')
        assert [c for c, _ in findings(lint(cli, catalog))] == left, glob
        # a per-tool ignore's files, the same
        root.write_text(
            f'[[tool.catalint.per-tool-ignores]]\ntools = ["get_*"]\nrules = ["DESC-006"]\nfiles = ["{glob}"]\n'
        )
        assert [c for c, _ in findings(lint(cli, catalog))] == left, glob
    # the extending file's own globs are read from its folder
    root.write_text("[tool.catalint]\n")
    write(
        tmp_path / "servers" / "a" / "catalint.toml",
        'extend = "../../pyproject.toml"\n[per-file-ignores]\n"sub/tools.json" = ["DESC-006"]\n',
    )
    assert [c for c, _ in findings(lint(cli, catalog))] == ["DESC-012", "SCH-002"]


def test_a_stale_suppression_is_named_in_the_file_it_is_in(cli, tmp_path: Path, catalog: Path) -> None:
    write(tmp_path / "pyproject.toml", '[[tool.catalint.per-tool-ignores]]\ntools = ["nothing_*"]\nrules = ["DESC"]\n')
    write(
        catalog.parent / "catalint.toml", 'extend = "../../pyproject.toml"\n[per-file-ignores]\n"x.json" = ["DESC"]\n'
    )
    notices = json.loads(lint(cli, catalog).stdout)["notices"]
    assert any(n.startswith("pyproject.toml: notice: per-tool ignore tools=nothing_*") for n in notices), notices
    # x.json matched no linted file: nothing to say of it
    assert not any("x.json" in n for n in notices), notices


def test_config_flag_and_a_home_relative_path(
    cli, tmp_path: Path, catalog: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    write(home / "catalint-base.toml", 'ignore = ["DESC-012", "SCH"]\n')
    monkeypatch.setenv("HOME", str(home))
    config = write(tmp_path / "elsewhere.toml", 'extend = "~/catalint-base.toml"\n')
    assert findings(lint(cli, catalog, "--config", str(config))) == [("DESC-006", "critical")]


@pytest.mark.parametrize(
    ("child", "files", "message"),
    [
        ('extend = "../nope.toml"\n', {}, "servers/a/catalint.toml:1:1: extend: '../nope.toml': no such file"),
        ("\nextend = 5\n", {}, "servers/a/catalint.toml:2:10: extend must be a string"),
        ('extend = " "\n', {}, "servers/a/catalint.toml:1:1: extend: an empty path"),
        ('extend = ".."\n', {}, "servers/a/catalint.toml:1:1: extend: '..': a folder"),
        ('extend = "a\\u0000b"\n', {}, "servers/a/catalint.toml:1:1: extend: 'a\\x00b': a path cannot hold a NUL"),
        ('extend = "/dev/null"\n', {}, "servers/a/catalint.toml:1:1: extend: '/dev/null': not a regular file"),
        (
            'extend = "catalint.toml"\n',
            {},
            "servers/a/catalint.toml:1:1: extend: 'catalint.toml' closes a loop"
            " (servers/a/catalint.toml -> servers/a/catalint.toml)",
        ),
        (
            'extend = "b.toml"\n',
            {"servers/a/b.toml": 'extend = "./catalint.toml"\n'},
            "servers/a/b.toml:1:1: extend: './catalint.toml' closes a loop"
            " (servers/a/catalint.toml -> servers/a/b.toml -> servers/a/catalint.toml)",
        ),
        (
            'extend = "../pyproject.toml"\n',
            {"servers/pyproject.toml": '[project]\nname = "x"\n'},
            "servers/a/catalint.toml:1:1: extend: servers/pyproject.toml has no [tool.catalint] table",
        ),
        (
            'extend = "../base.toml"\n',
            {"servers/base.toml": '\nselect = ["DESC-999"]\n'},
            "servers/base.toml:2:1: select: unknown rule or prefix 'DESC-999'",
        ),
        (
            'extend = "../base.toml"\n',
            {"servers/base.toml": "select = [\n"},
            "servers/base.toml:1:11: invalid TOML",
        ),
        (
            'extend = "../base.toml"\n',
            {"servers/base.toml": "[tool.catalint]\n"},
            "servers/base.toml:1:1: [tool.catalint] belongs in pyproject.toml",
        ),
    ],
)
def test_a_bad_extend_is_a_config_error_at_its_line(
    cli, tmp_path: Path, catalog: Path, child: str, files: dict[str, str], message: str
) -> None:
    write(catalog.parent / "catalint.toml", child)
    for name, text in files.items():
        write(tmp_path / name, text)
    result = lint(cli, catalog)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {message}"), result.output


def test_an_extend_into_a_loop_of_links_is_a_config_error(cli, tmp_path: Path, catalog: Path) -> None:
    (tmp_path / "one.toml").symlink_to(tmp_path / "two.toml")
    (tmp_path / "two.toml").symlink_to(tmp_path / "one.toml")
    write(catalog.parent / "catalint.toml", 'extend = "../../one.toml"\n')
    result = lint(cli, catalog)
    assert result.exit_code == 2
    assert result.output.startswith("error: servers/a/catalint.toml:1:1: extend: '../../one.toml': "), result.output
    assert len(result.output.strip().splitlines()) == 1


def test_per_file_ignores_here_replace_those_below_and_extend_per_file_ignores_add(
    cli, tmp_path: Path, catalog: Path
) -> None:
    # as in ruff: a shared base's per-file-ignores go when the file extending it sets its own
    write(tmp_path / "pyproject.toml", '[tool.catalint.per-file-ignores]\n"**/tools.json" = ["DESC-012"]\n')
    child = write(catalog.parent / "catalint.toml", 'extend = "../../pyproject.toml"\n')
    assert [c for c, _ in findings(lint(cli, catalog))] == ["DESC-006", "SCH-002"]
    child.write_text('extend = "../../pyproject.toml"\n[per-file-ignores]\n"tools.json" = ["SCH-002"]\n')
    assert [c for c, _ in findings(lint(cli, catalog))] == ["DESC-006", "DESC-012"]
    child.write_text('extend = "../../pyproject.toml"\n[extend-per-file-ignores]\n"tools.json" = ["SCH-002"]\n')
    assert [c for c, _ in findings(lint(cli, catalog))] == ["DESC-006"]
    # both in one file: its own two lists, and nothing of the base's
    child.write_text(
        'extend = "../../pyproject.toml"\n[per-file-ignores]\n"tools.json" = ["SCH-002"]\n'
        '[extend-per-file-ignores]\n"*.json" = ["DESC-006"]\n'
    )
    assert [c for c, _ in findings(lint(cli, catalog))] == ["DESC-012"]


def test_a_long_chain_of_relative_extends_is_followed(cli, tmp_path: Path, catalog: Path) -> None:
    # each hop joined "../<next>/catalint.toml" to the last: past about 4 KB the OS refused the path, and a
    # config that exists was reported missing
    names = [f"{i:03}" + "x" * 197 for i in range(25)]
    for i, name in enumerate(names):
        nxt = f'extend = "../{names[i + 1]}/catalint.toml"\n' if i + 1 < len(names) else 'ignore = ["DESC-012"]\n'
        write(tmp_path / "cfg" / name / "catalint.toml", nxt)
    write(catalog.parent / "catalint.toml", f'extend = "../../cfg/{names[0]}/catalint.toml"\n')
    assert [c for c, _ in findings(lint(cli, catalog))] == ["DESC-006", "SCH-002"]  # the last one's ignore holds
