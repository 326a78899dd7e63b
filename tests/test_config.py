"""Config files, their discovery and precedence, and the CLI flags that mirror them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, write_catalog

# One tool with no annotations (DESC-012, warning) and an undocumented required
# argument (DESC-006, critical), and nothing else.
TOOL = {
    "name": "get_weather",
    "description": "Get the weather for a city, with examples. Returns a JSON object.",
    "inputSchema": {
        "type": "object",
        "properties": {"city": {"type": "string", "maxLength": 100, "examples": ["Paris"]}},
        "required": ["city"],
        "additionalProperties": False,
    },
}
DEBUG_TOOL = {**TOOL, "name": "debug_dump", "description": "Dump the weather cache for a city. Returns a JSON object."}


def codes(result) -> list[str]:
    return sorted(f["code"] for f in json.loads(result.stdout)["findings"])


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    return write_catalog(tmp_path / "tools.json", [TOOL])


def test_defaults_without_config(cli, catalog: Path) -> None:
    result = cli("lint", "--output-format", "json", str(catalog))
    assert codes(result) == ["DESC-006", "DESC-012"]
    assert result.exit_code == 1


def test_pyproject_ignore_and_select(cli, tmp_path: Path, catalog: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.catalint]\nignore = ["DESC-006"]\ngate = false\n')
    result = cli("lint", "--output-format", "json", str(catalog))
    assert codes(result) == ["DESC-012"]
    assert result.exit_code == 0  # only a warning left; fail severity is critical; no gate


def test_a_byte_order_mark_before_the_config_is_read_past(cli, tmp_path: Path, catalog: Path) -> None:
    # some Windows editors start a UTF-8 file with one; positions still count from the first key
    (tmp_path / "pyproject.toml").write_bytes(b'\xef\xbb\xbf[tool.catalint]\nignore = ["DESC-006"]\ngate = false\n')
    assert codes(cli("lint", "--output-format", "json", str(catalog))) == ["DESC-012"]
    (tmp_path / "pyproject.toml").write_bytes(b"\xef\xbb\xbf[tool.catalint]\nbogus = 1\n")
    result = cli("lint", str(catalog))
    assert result.exit_code == 2
    assert "pyproject.toml:2:1: unknown setting 'bogus'" in result.output


@pytest.mark.parametrize(
    ("key", "hint"), [("selec", "did you mean 'select'? "), ("per-tool-ignore", "did you mean 'per-tool-ignores'? ")]
)
def test_a_misspelt_setting_gets_a_suggestion(cli, tmp_path: Path, catalog: Path, key: str, hint: str) -> None:
    (tmp_path / "catalint.toml").write_text(f'{key} = ["DESC"]\n')
    result = cli("lint", str(catalog))
    assert result.exit_code == 2
    assert f"catalint.toml:1:1: unknown setting {key!r} ({hint}known: catalog-token-budget," in result.output
    (tmp_path / "catalint.toml").write_text('frobnicate = ["DESC"]\n')
    assert "unknown setting 'frobnicate' (known: " in cli("lint", str(catalog)).output


def test_prefix_selectors_and_specificity(cli, tmp_path: Path, catalog: Path) -> None:
    (tmp_path / "catalint.toml").write_text('select = ["DESC-012"]\nignore = ["DESC"]\n')
    result = cli("lint", "--output-format", "json", str(catalog))
    assert codes(result) == ["DESC-012"]  # the more specific selector wins


@pytest.mark.parametrize("name", ["catalint.toml", ".catalint.toml", "--config"])
@pytest.mark.parametrize(
    ("content", "place"),
    [
        ('[tool.catalint]\nignore = ["DESC-012"]\n', "1:1"),
        ('ignore = ["DESC-006"]\n\n[tool.catalint.severity]\nDESC-012 = "info"\n', "3:1"),
        ('tool = { catalint = { ignore = ["DESC-012"] } }\n', "1:1"),
        ('tool.catalint.ignore = ["DESC-012"]\n', "1:1"),
    ],
)
def test_a_tool_table_in_catalint_toml_is_an_error(
    cli, tmp_path: Path, catalog: Path, name: str, content: str, place: str
) -> None:
    """As [tool.ruff] in ruff.toml: settings there go at the top level. It was read, and hid any
    top-level settings beside it."""
    file = "other.toml" if name == "--config" else name
    (tmp_path / file).write_text(content, encoding="utf-8")
    result = cli("lint", *(["--config", file] if name == "--config" else []), str(catalog))
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {file}:{place}: [tool.catalint] belongs in pyproject.toml; in {file} the settings go at"
        " the top level: move them out of the table (or into pyproject.toml)\n"
    )


def test_an_empty_tool_table_in_pyproject_is_a_config(cli, tmp_path: Path) -> None:
    """[tool.catalint] with nothing in it is a config of defaults (as [tool.ruff] is): the search stops
    there, and a catalint.toml further up does not apply."""
    (tmp_path / "catalint.toml").write_text('ignore = ["DESC"]\n')
    sub = tmp_path / "server"
    sub.mkdir()
    (sub / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.catalint]\n')
    write_catalog(sub / "tools.json", [TOOL])
    assert codes(cli("lint", "--output-format", "json", "server/tools.json")) == ["DESC-006", "DESC-012"]
    assert cli("lint", "--config", "server/pyproject.toml", "server/tools.json").exit_code == 1


@pytest.mark.parametrize("table", ["", '\n[tool.catalint]\nignore = ["DESC-006"]\n'])
def test_catalint_toml_wins_over_a_pyproject_beside_it(cli, tmp_path: Path, catalog: Path, table: str) -> None:
    """README: in one folder catalint.toml comes first, then .catalint.toml, then pyproject.toml, and only
    that one is read; a pyproject.toml without [tool.catalint] is passed over either way."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n' + table)
    (tmp_path / ".catalint.toml").write_text('ignore = ["DESC-006"]\n')
    (tmp_path / "catalint.toml").write_text('ignore = ["DESC-012"]\n')
    assert codes(cli("lint", "--output-format", "json", str(catalog))) == ["DESC-006"]
    (tmp_path / "catalint.toml").unlink()
    assert codes(cli("lint", "--output-format", "json", str(catalog))) == ["DESC-012"]


def test_nearest_config_wins_and_pyproject_without_table_is_skipped(cli, tmp_path: Path) -> None:
    (tmp_path / "catalint.toml").write_text('ignore = ["DESC-012"]\n')
    sub = tmp_path / "server"
    sub.mkdir()
    (sub / "pyproject.toml").write_text('[project]\nname = "x"\n')  # no [tool.catalint]: keep looking up
    deeper = sub / "deeper"
    deeper.mkdir()
    (deeper / "catalint.toml").write_text('ignore = ["DESC-006"]\n')
    a = write_catalog(sub / "tools.json", [TOOL])
    b = write_catalog(deeper / "tools.json", [TOOL])
    result = json.loads(cli("lint", "--output-format", "json", str(a), str(b)).stdout)
    by_file = {(Path(f["file"]).parent.name, f["code"]) for f in result["findings"]}
    assert by_file == {("server", "DESC-006"), ("deeper", "DESC-012")}


def test_a_file_below_no_config_takes_the_working_directorys(cli, tmp_path: Path) -> None:
    """As in ruff: a snapshot written to a temporary folder, or <(catalint snapshot ...), is linted with the
    project's config, not the built-in defaults; a config above the file still comes first."""
    (tmp_path / "proj" / "sub").mkdir(parents=True)
    (tmp_path / "tmp").mkdir()
    (tmp_path / "proj" / "catalint.toml").write_text('select = ["DESC-001"]\n')
    outside = write_catalog(tmp_path / "tmp" / "snap.json", [{"name": "a", "description": "short", "inputSchema": {}}])
    os.chdir(tmp_path / "proj" / "sub")
    result = json.loads(cli("lint", "--output-format", "json", "--exit-zero", str(outside)).stdout)
    assert {f["code"] for f in result["findings"]} == {"DESC-001"}
    shown = json.loads(cli("lint", "--show-settings", "--output-format", "json", str(outside)).stdout)
    assert Path(shown["config"]).resolve() == (tmp_path / "proj" / "catalint.toml").resolve()
    (tmp_path / "tmp" / "catalint.toml").write_text('select = ["SCH"]\n')  # its own comes first
    result = json.loads(cli("lint", "--output-format", "json", "--exit-zero", str(outside)).stdout)
    assert {f["code"][:3] for f in result["findings"]} == {"SCH"}
    os.chdir(tmp_path)  # no config here nor above: the built-in defaults
    (tmp_path / "tmp" / "catalint.toml").unlink()
    result = json.loads(cli("lint", "--output-format", "json", "--exit-zero", str(outside)).stdout)
    assert {"DESC-001", "DESC-012"} <= {f["code"] for f in result["findings"]}


def test_config_given_twice_is_an_error_and_isolated_reads_no_config(cli, tmp_path: Path) -> None:
    """A second --config used to replace the first in silence (one in a hook's args, one added elsewhere); ruff
    refuses it. --isolated reads no config at all, as ruff's; with --config it is an error, in either order."""
    (tmp_path / "a.toml").write_text('select = ["DESC-001"]\n')
    (tmp_path / "b.toml").write_text('select = ["DESC-012"]\n')
    (tmp_path / "catalint.toml").write_text('select = ["DESC-001"]\n')
    catalog = write_catalog(tmp_path / "tools.json", [{"name": "a", "description": "short", "inputSchema": {}}])
    twice = cli("lint", "--config", "a.toml", "--config", "b.toml", str(catalog))
    assert (twice.exit_code, twice.stdout) == (2, "")
    assert twice.stderr == "error: --config given 2 times (a.toml, b.toml): give one config file\n"
    inline = cli("lint", "--config", "select=['DESC']", str(catalog))
    assert inline.exit_code == 2 and "--config takes a file, not inline settings: use --select" in inline.stderr
    assert codes(cli("lint", "--output-format", "json", str(catalog))) == ["DESC-001"]
    isolated = codes(cli("lint", "--output-format", "json", "--isolated", str(catalog)))
    assert {"DESC-001", "DESC-012", "SCH-005"} <= set(isolated)
    assert codes(cli("lint", "--output-format", "json", "--isolated", "--select", "DESC-012", str(catalog))) == [
        "DESC-012"
    ]
    shown = json.loads(cli("lint", "--isolated", "--show-settings", "--output-format", "json", str(catalog)).stdout)
    assert shown["config"] is None
    for args in (["--isolated", "--config", "a.toml"], ["--config", "a.toml", "--isolated"]):
        both = cli("lint", *args, str(catalog))
        assert (both.exit_code, both.stderr) == (2, "error: --isolated and --config cannot be given together\n")
    for command in ("diff", "check"):
        assert "--isolated" in cli(command, "--help").stdout


def test_a_walk_below_the_configs_folder_reads_its_globs_from_that_folder(cli, tmp_path: Path) -> None:
    """As ruff reads them: `lint sub/deeper` skips sub's exclude = ["deeper/gen"] as `lint sub` and the hook
    do (it read them from the directory argument, as sub/deeper/deeper/gen)."""
    (tmp_path / "sub" / "deeper" / "gen").mkdir(parents=True)
    (tmp_path / "sub" / "catalint.toml").write_text('exclude = ["deeper/gen"]\n')
    write_catalog(tmp_path / "sub" / "deeper" / "tools.json", [TOOL])
    write_catalog(tmp_path / "sub" / "deeper" / "gen" / "tools.json", [TOOL])
    for where, arg, expected in (
        (tmp_path, "sub", ["sub/deeper/tools.json"]),
        (tmp_path, "sub/deeper", ["sub/deeper/tools.json"]),
        (tmp_path / "sub", "deeper", ["deeper/tools.json"]),
        (tmp_path / "sub" / "deeper", ".", ["tools.json"]),
    ):
        os.chdir(where)
        assert cli("lint", "--show-files", arg).output.splitlines() == expected, (where, arg)
    os.chdir(tmp_path)
    both = ["sub/deeper/tools.json", "sub/deeper/gen/tools.json"]
    hook = cli("lint", "--force-exclude", "--show-files", "sub/deeper/gen/tools.json", "sub/deeper/tools.json")
    assert hook.stdout.splitlines() == ["sub/deeper/tools.json"]
    # a --config kept elsewhere (.github/): its globs are read from the working directory, as its per-file-ignores
    # are, and as ruff reads a --config's
    (tmp_path / "elsewhere").mkdir()
    for glob, expected in (("sub/deeper/gen/*", ["sub/deeper/tools.json"]), ("gen/*", both)):
        (tmp_path / "elsewhere" / "c.toml").write_text(f'exclude = ["{glob}"]\n')
        assert cli("lint", "--config", "elsewhere/c.toml", "--show-files", "sub/deeper").output.splitlines() == expected
    os.chdir(tmp_path / "elsewhere")  # a folder outside the working directory: its globs (there) take none of it
    (tmp_path / "elsewhere" / "c.toml").write_text('exclude = ["deeper/gen/*"]\n')
    shown = cli("lint", "--config", "c.toml", "--show-files", "../sub").output.splitlines()
    assert shown == ["../sub/deeper/tools.json", "../sub/deeper/gen/tools.json"]
    # nor those of the working directory's config, taken for a folder with none above it (as the hook's would)
    (tmp_path / "elsewhere" / "catalint.toml").write_text('extend-exclude = ["gen/*"]\n')
    (tmp_path / "sub" / "catalint.toml").unlink()
    assert cli("lint", "--show-files", "../sub").output.splitlines() == shown
    named = cli("lint", "--force-exclude", "--show-files", "../sub/deeper/tools.json", "../sub/deeper/gen/tools.json")
    assert named.output.splitlines() == shown


def test_a_glob_with_a_folder_takes_nothing_outside_the_folder_it_is_read_from(cli, tmp_path: Path) -> None:
    """ruff anchors such a glob at the config's folder: matched against the whole path of a file outside it,
    `**/tmp/**` took every catalog below /tmp (a snapshot linted from the project said 'no catalog files')."""
    (tmp_path / "proj").mkdir()
    config = '[per-file-ignores]\n"**/tmp/**" = ["ALL"]\n'
    (tmp_path / "proj" / "catalint.toml").write_text('extend-exclude = ["**/tmp/**", "**/snap/*"]\n' + config)
    (tmp_path / "snap").mkdir()
    write_catalog(tmp_path / "snap" / "tools.json", [TOOL])
    os.chdir(tmp_path / "proj")
    snap = str(tmp_path / "snap" / "tools.json")
    assert cli("lint", "--show-files", str(tmp_path / "snap")).output.splitlines() == [snap]
    assert cli("lint", "--show-files", "--force-exclude", snap).output.splitlines() == [snap]
    assert codes(cli("lint", "--output-format", "json", snap))  # the per-file ignore of ALL is not its
    # a folder named like a drive ("c:") is a folder here, not a whole path
    (tmp_path / "proj" / "c:").mkdir()
    write_catalog(tmp_path / "proj" / "c:" / "tools.json", [TOOL])
    (tmp_path / "proj" / "catalint.toml").write_text('[per-file-ignores]\n"c:/*" = ["ALL"]\n')
    assert codes(cli("lint", "--output-format", "json", "c:/tools.json")) == []


def test_a_walk_takes_each_folders_include_and_exclude_from_its_own_config(cli, tmp_path: Path, monkeypatch) -> None:
    # as ruff does: `lint .`, `lint b` and `cd b && lint .` pick the same files in b
    (tmp_path / "catalint.toml").write_text('exclude = ["top-only"]\n')
    (tmp_path / "b" / "deep").mkdir(parents=True)
    (tmp_path / "b" / "catalint.toml").write_text('include = ["*.json"]\nexclude = ["skip", "deep/gen"]\n')
    for rel in (
        "b/skip/tools.json",
        "b/keep/tools.json",
        "b/extra.json",
        "b/deep/gen/tools.json",
        "top-only/tools.json",
    ):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        write_catalog(tmp_path / rel, [TOOL])
    (tmp_path / "b" / "top-only").mkdir()
    write_catalog(tmp_path / "b" / "top-only" / "x.json", [TOOL])  # the root's exclude is not b's
    write_catalog(tmp_path / "a.json", [TOOL])  # the root's include is the default: no *.json
    expected = ["b/extra.json", "b/keep/tools.json", "b/top-only/x.json"]
    assert cli("lint", "--show-files", ".").output.splitlines() == expected
    assert cli("lint", "--show-files", "b").output.splitlines() == expected
    monkeypatch.chdir(tmp_path / "b")
    assert cli("lint", "--show-files", ".").output.splitlines() == [p.removeprefix("b/") for p in expected]
    # --exclude and --include are read from the directory argument, nested configs or not (and replace
    # every config's: top-only, skip and deep/gen are back)
    monkeypatch.chdir(tmp_path)
    assert cli("lint", "--show-files", ".", "--exclude", "b/keep").output.splitlines() == [
        "b/extra.json",
        "b/deep/gen/tools.json",
        "b/skip/tools.json",
        "b/top-only/x.json",
        "top-only/tools.json",
    ]
    shown = cli("lint", "--show-files", ".", "--include", "b/*.json").output.splitlines()  # fnmatch: * crosses /
    assert shown == ["b/extra.json", "b/keep/tools.json", "b/top-only/x.json"]
    # one --config for everything: its globs, from the directory argument, as before
    monkeypatch.chdir(tmp_path)
    shown = cli("lint", "--show-files", "--config", "catalint.toml", ".").output.splitlines()
    assert shown == ["b/deep/gen/tools.json", "b/keep/tools.json", "b/skip/tools.json"]


def test_standard_input_named_by_stdin_filename_takes_that_files_config_and_exclude(cli, tmp_path: Path) -> None:
    # as ruff does: an editor or a staged-content hook pipes the buffer in and names its file
    (tmp_path / "catalint.toml").write_text('select = ["DESC-012"]\n')
    (tmp_path / "b" / "skip").mkdir(parents=True)
    (tmp_path / "b" / "catalint.toml").write_text('select = ["DESC-006"]\nexclude = ["skip"]\n')
    text = json.dumps({"tools": [TOOL]})
    args = ("lint", "--output-format", "json", "--no-gate", "-", "--stdin-filename")
    assert codes(cli(*args, "b/tools.json", input=text)) == ["DESC-006"]
    assert codes(cli(*args, "tools.json", input=text)) == ["DESC-012"]
    assert codes(cli(*args, "b/skip/tools.json", input=text)) == ["DESC-006"]  # exclude alone: still linted
    result = cli(*args, "b/skip/tools.json", "--force-exclude", input=text)
    report = json.loads(result.stdout)
    assert report["files"] == [] and result.exit_code == 0
    assert report["notices"] == [
        "notice: 1 file skipped: exclude covers it and force-exclude is on (b/skip/tools.json)"
    ]
    shown = cli("lint", "-", "--stdin-filename", "b/tools.json", "--show-settings", input=text).output
    assert shown.startswith("file: b/tools.json\nconfig: b/catalint.toml\n")


def test_a_walk_through_a_linked_directory_argument_reads_nested_globs_from_the_config(cli, tmp_path: Path) -> None:
    (tmp_path / "proj" / "sub" / "gen").mkdir(parents=True)
    (tmp_path / "proj" / "sub" / "catalint.toml").write_text('exclude = ["gen/*"]\n')  # a slash glob
    write_catalog(tmp_path / "proj" / "sub" / "tools.json", [TOOL])
    write_catalog(tmp_path / "proj" / "sub" / "gen" / "tools.json", [TOOL])
    (tmp_path / "link").symlink_to(tmp_path / "proj")
    assert cli("lint", "--show-files", "link").output.splitlines() == ["link/sub/tools.json"]
    assert cli("lint", "--show-files", "proj").output.splitlines() == ["proj/sub/tools.json"]


def test_extend_exclude_and_extend_include_add_to_the_defaults(cli, tmp_path: Path) -> None:
    # exclude = ["vendor"] replaces the defaults, so node_modules came back; ruff users reach for extend-exclude
    for rel in ("node_modules/x/tools.json", "vendor/tools.json", "servers/tools.json"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        write_catalog(tmp_path / rel, [TOOL])
    (tmp_path / "servers" / "extra.data").write_text((tmp_path / "servers" / "tools.json").read_text())
    os.chdir(tmp_path)
    config = tmp_path / "pyproject.toml"

    def shown() -> list[str]:
        return json.loads(cli("lint", "--show-files", "--output-format", "json", ".").stdout)

    config.write_text('[tool.catalint]\nextend-exclude = ["vendor"]\n')
    assert shown() == ["servers/tools.json"]
    config.write_text('[tool.catalint]\nexclude = ["vendor"]\n')  # replaces: node_modules is walked again
    assert shown() == ["node_modules/x/tools.json", "servers/tools.json"]
    config.write_text('[tool.catalint]\nextend-include = ["*.data"]\n')
    assert shown() == ["servers/extra.data", "servers/tools.json", "vendor/tools.json"]
    config.write_text('[tool.catalint]\nextend-exclude = "vendor"\n')
    result = cli("lint", ".")
    assert result.exit_code == 2 and "extend-exclude must be a list of strings" in result.stderr


def test_an_exclude_replaces_only_its_own_list_not_extend_exclude(cli, tmp_path: Path) -> None:
    """As in ruff, exclude and extend-exclude are two lists: --exclude, or a nested config's exclude, replaces
    the first and keeps the second (CI adding --exclude build used to lint the vendored catalogs again)."""
    for rel in ("vendor/x/tools.json", "build/tools.json", "tools.json", "proj/tools.json", "proj/vendor/tools.json"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        write_catalog(tmp_path / rel, [TOOL])
    (tmp_path / "catalint.toml").write_text('extend-exclude = ["vendor"]\n')

    def shown(*args: str) -> list[str]:
        return json.loads(cli("lint", "--show-files", "--output-format", "json", *args).stdout)

    assert shown(".", "--exclude", "build") == ["tools.json", "proj/tools.json"]
    (tmp_path / "proj" / "catalint.toml").write_text('extend = "../catalint.toml"\nexclude = [".git"]\n')
    assert shown("proj") == ["proj/tools.json"]
    # named on the command line with force-exclude (the pre-commit hook), the same
    assert shown("--force-exclude", "--exclude", "build", "vendor/x/tools.json", "tools.json") == ["tools.json"]
    settings = json.loads(cli("lint", "--show-settings", "--output-format", "json", "proj/tools.json").stdout)
    assert (settings["exclude"], settings["extend-exclude"]) == ([".git"], ["vendor"])


def test_an_extend_exclude_flag_adds_to_the_configs_and_reads_folder_globs_from_the_working_folder(
    cli, tmp_path: Path
) -> None:
    """As ruff's --extend-exclude: added to every config's extend-exclude (vendor stays out, exclude's defaults
    too), a glob with a folder in it read from where it was typed, a bare name matched at any depth."""
    for rel in ("vendor/tools.json", "node_modules/tools.json", "sub/tools.json", "sub/gen/tools.json", "tools.json"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        write_catalog(tmp_path / rel, [TOOL])
    (tmp_path / "catalint.toml").write_text('extend-exclude = ["vendor"]\n')
    (tmp_path / "sub" / "catalint.toml").write_text('extend = "../catalint.toml"\n')  # a nested config takes it too

    def shown(*args: str) -> list[str]:
        result = cli("lint", "--show-files", "--output-format", "json", *args)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    assert shown(".") == ["tools.json", "sub/tools.json", "sub/gen/tools.json"]
    assert shown(".", "--extend-exclude", "sub/gen") == ["tools.json", "sub/tools.json"]
    assert shown("sub", "--extend-exclude", "sub/gen") == ["sub/tools.json"]
    assert shown(".", "--extend-exclude", "gen", "--extend-exclude", "sub/tools.json") == ["tools.json"]
    assert shown(".", "--extend-exclude", str(tmp_path / "sub" / "gen")) == ["tools.json", "sub/tools.json"]  # typed
    os.chdir(tmp_path / "sub")  # typed here, gen is this folder's gen
    assert shown(".", "--extend-exclude", "./gen/") == ["tools.json"]
    assert shown("..", "--extend-exclude", "sub/gen") == ["../tools.json", "../sub/tools.json", "../sub/gen/tools.json"]
    # named on the command line with force-exclude (the pre-commit hook), the same
    assert shown("--force-exclude", "--extend-exclude", "gen", "gen/tools.json", "tools.json") == ["tools.json"]
    asked = ("--show-settings", "--output-format", "json", "--extend-exclude", "gen/*", "tools.json")
    settings = json.loads(cli("lint", *asked).stdout)
    assert settings["extend-exclude"] == ["vendor", (tmp_path / "sub" / "gen").resolve().as_posix() + "/*"]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_walk_skips_what_git_ignores_as_ruffs_respect_gitignore(cli, tmp_path: Path) -> None:
    """A local `lint .` linted generated and vendored catalogs that CI, cloning the repository, never sees."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("dist/\n*.gen.json\n!keep.gen.json\n")
    (tmp_path / ".git" / "info" / "exclude").write_text("private/\n")
    for rel in ("dist/tools.json", "sub/local/tools.json", "sub/tools.json", "private/tools.json", "tools.json"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        write_catalog(tmp_path / rel, [TOOL])
    (tmp_path / "sub" / ".gitignore").write_text("local/\n")
    for name in ("a.gen.json", "keep.gen.json"):
        write_catalog(tmp_path / name, [TOOL])

    def shown(*args: str) -> list[str]:
        result = cli("lint", "--show-files", "--output-format", "json", *args)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    everything = ["tools.json", "dist/tools.json", "private/tools.json", "sub/tools.json", "sub/local/tools.json"]
    assert shown(".") == ["tools.json", "sub/tools.json"]
    assert shown(".", "--include", "*.json") == ["keep.gen.json", "tools.json", "sub/tools.json"]
    assert shown(".", "--no-respect-gitignore") == everything
    assert shown("dist") == ["dist/tools.json"]  # a folder named on the command line is walked, as in ruff
    assert shown("dist/tools.json", "sub") == ["dist/tools.json", "sub/tools.json"]  # a named file is linted
    (tmp_path / "catalint.toml").write_text("respect-gitignore = false\n")
    assert shown(".") == everything
    settings = json.loads(cli("lint", "--show-settings", "--output-format", "json", "tools.json").stdout)
    assert settings["respect-gitignore"] is False
    assert shown(".", "--respect-gitignore") == ["tools.json", "sub/tools.json"]
    (tmp_path / "catalint.toml").write_text('respect-gitignore = "yes"\n')
    bad = cli("lint", ".")
    assert bad.exit_code == 2 and "respect-gitignore must be true or false, not a string" in bad.stderr
    (tmp_path / "catalint.toml").unlink()
    # a folder where nothing is found says what git ignores there is not walked, without walking it to count
    (tmp_path / "sub" / "tools.json").unlink()
    result = cli("lint", "sub")
    assert result.exit_code == 0
    assert "sub: notice: no catalog files found (include: " in result.stdout
    assert "; git ignores 1 path here, not walked (--no-respect-gitignore walks them)" in result.stdout
    result = cli("lint", "private")  # named, it is walked; nothing below it is ignored
    assert result.exit_code == 1 and "git ignores" not in result.stdout
    assert "git ignores" not in cli("lint", "sub", "--no-respect-gitignore").stdout


def test_force_exclude_reads_an_exclude_flag_from_the_working_folder(cli, tmp_path: Path) -> None:
    # as the walk from there does; the nearest config's folder is where its own globs are read from
    (tmp_path / "sub" / "gen" / "x").mkdir(parents=True)
    (tmp_path / "sub" / "catalint.toml").write_text("")
    write_catalog(tmp_path / "sub" / "gen" / "x" / "tools.json", [TOOL])
    named = ["lint", "--force-exclude", "--output-format", "json", "sub/gen/x/tools.json"]
    assert json.loads(cli(*named, "--exclude", "sub/gen/x").stdout)["files"] == []
    assert len(json.loads(cli(*named, "--exclude", "gen/x").stdout)["files"]) == 1
    assert cli("lint", "--show-files", "--exclude", "sub/gen/x", ".").output.startswith(".: notice: no catalog")


def test_a_broken_config_in_a_folder_of_no_catalogs_does_not_stop_a_walk(cli, tmp_path: Path) -> None:
    # a Python subproject's test fixture, say; its config is an error only where a catalog below it is linted
    (tmp_path / "fixtures" / "bad").mkdir(parents=True)
    (tmp_path / "fixtures" / "bad" / "pyproject.toml").write_text("[tool.catalint\nselect = 1\n")
    write_catalog(tmp_path / "tools.json", [TOOL])
    result = cli("lint", "--output-format", "json", ".")
    assert result.exit_code == 1 and codes(result) == ["DESC-006", "DESC-012"]
    write_catalog(tmp_path / "fixtures" / "bad" / "tools.json", [TOOL])
    result = cli("lint", ".")
    assert result.exit_code == 2 and "fixtures/bad/pyproject.toml:1:15: invalid TOML" in result.stderr


def test_a_linked_catalog_is_matched_by_its_own_name_not_its_targets(cli, tmp_path: Path) -> None:
    # a link into a shared folder outside the project: per-file-ignores and force-exclude go by vendor/tools.json
    (tmp_path / "shared").mkdir()
    write_catalog(tmp_path / "shared" / "tools.json", [TOOL])
    (tmp_path / "proj" / "vendor").mkdir(parents=True)
    (tmp_path / "proj" / "vendor" / "tools.json").symlink_to(tmp_path / "shared" / "tools.json")
    config = tmp_path / "proj" / "catalint.toml"
    config.write_text('[per-file-ignores]\n"vendor/*.json" = ["ALL"]\n')
    os.chdir(tmp_path / "proj")
    assert codes(cli("lint", "--output-format", "json", "vendor/tools.json")) == []
    assert codes(cli("lint", "--output-format", "json", ".", "--include", "*.json")) == []
    config.write_text('exclude = ["vendor"]\nforce-exclude = true\n')
    assert json.loads(cli("lint", "--output-format", "json", "vendor/tools.json").stdout)["files"] == []


def test_a_file_named_twice_through_a_link_is_linted_under_the_name_that_is_not_a_link(cli, tmp_path: Path) -> None:
    """As a walk does: named on the command line in either order (pre-commit passes both), x/tools.json ->
    ../real/tools.json was linted under whichever came first, and real/*'s per-file-ignores held only then."""
    (tmp_path / "real").mkdir()
    (tmp_path / "x").mkdir()
    write_catalog(tmp_path / "real" / "tools.json", [TOOL])
    (tmp_path / "x" / "tools.json").symlink_to(Path("..") / "real" / "tools.json")
    for order in (("x/tools.json", "real/tools.json"), ("real/tools.json", "x/tools.json")):
        assert cli("lint", "--show-files", *order).output.splitlines() == ["real/tools.json"]
    assert cli("lint", "--show-files", "x/tools.json").output.splitlines() == ["x/tools.json"]  # named alone


def test_explicit_config_overrides_discovery(cli, tmp_path: Path, catalog: Path) -> None:
    (tmp_path / "catalint.toml").write_text('ignore = ["DESC-012"]\n')
    other = tmp_path / "other.toml"
    other.write_text('ignore = ["DESC-006"]\n')
    assert codes(cli("lint", "--output-format", "json", "--config", str(other), str(catalog))) == ["DESC-012"]


def test_cli_flags_win_over_config(cli, tmp_path: Path, catalog: Path) -> None:
    (tmp_path / "catalint.toml").write_text('select = ["DESC-006"]\n[severity]\n"DESC-006" = "warning"\n')
    assert codes(cli("lint", "--output-format", "json", str(catalog))) == ["DESC-006"]
    result = cli("lint", "--output-format", "json", "--select", "DESC-012", str(catalog))
    assert codes(result) == ["DESC-012"]
    # config made DESC-006 a warning (exit 0); the flag makes it critical again (exit 1)
    assert cli("lint", "--no-gate", str(catalog)).exit_code == 0
    assert cli("lint", "--no-gate", "--severity", "DESC-006=critical", str(catalog)).exit_code == 1


def test_in_one_folder_catalint_toml_comes_before_the_others(cli, tmp_path: Path, catalog: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.catalint]\nselect = ["DESC-012"]\n')
    (tmp_path / ".catalint.toml").write_text('select = ["DESC-006"]\n')
    assert codes(cli("lint", "--output-format", "json", str(catalog))) == ["DESC-006"]
    (tmp_path / "catalint.toml").write_text('select = ["SCH-002"]\n')
    assert codes(cli("lint", "--output-format", "json", str(catalog))) == []  # the catalog has no SCH-002
    (tmp_path / "catalint.toml").unlink()
    (tmp_path / ".catalint.toml").unlink()
    assert codes(cli("lint", "--output-format", "json", str(catalog))) == ["DESC-012"]


def test_cli_select_wins_over_the_configs_ignore(cli, tmp_path: Path, catalog: Path) -> None:
    # as in ruff: --select replaces the selection, the config's ignore and extend-select with it
    (tmp_path / "catalint.toml").write_text('ignore = ["DESC-012"]\nextend-select = ["CAT-005"]\n')
    assert "DESC-012" not in codes(cli("lint", "--output-format", "json", str(catalog)))
    assert codes(cli("lint", "--output-format", "json", "--select", "DESC-012", str(catalog))) == ["DESC-012"]
    # without --select the config's ignore holds, and a flag's --ignore adds to it
    result = cli("lint", "--output-format", "json", "--ignore", "DESC-006", str(catalog))
    assert not {"DESC-012", "DESC-006"} & set(codes(result))


def test_a_flag_decides_every_rule_it_names_however_specifically_the_config_named_it(
    cli, tmp_path: Path, catalog: Path
) -> None:
    # as in ruff, each layer is laid over the one below: the file's more specific entry does not outlast a flag
    config = tmp_path / "catalint.toml"
    config.write_text('select = ["DESC-006", "DESC-012"]\n')
    assert codes(cli("lint", "--output-format", "json", "--ignore", "DESC", str(catalog))) == []
    assert codes(cli("lint", "--output-format", "json", "--ignore", "DESC-0", str(catalog))) == []
    config.write_text('ignore = ["DESC-012"]\n')
    assert "DESC-012" in codes(cli("lint", "--output-format", "json", "--extend-select", "DESC-012", str(catalog)))
    assert "DESC-012" in codes(cli("lint", "--output-format", "json", "--extend-select", "DESC", str(catalog)))
    config.write_text('ignore = ["DESC"]\n')  # a flag more specific than the file's ignore wins too
    assert codes(cli("lint", "--output-format", "json", "--extend-select", "DESC-012", str(catalog))) == ["DESC-012"]
    config.write_text('select = ["DESC-012"]\n[severity]\nDESC-012 = "info"\n')
    result = cli("lint", "--output-format", "json", "--no-gate", "--severity", "DESC=critical", str(catalog))
    assert [f["severity"] for f in json.loads(result.stdout)["findings"]] == ["critical"]
    assert result.exit_code == 1
    # ALL names every rule but the profiles' (ruff: --extend-select ALL turns on what the file ignores)
    config.write_text('select = ["ALL"]\nignore = ["DESC-012"]\n')
    assert "DESC-012" in codes(cli("lint", "--output-format", "json", "--extend-select", "ALL", str(catalog)))
    assert "DESC-012" not in codes(cli("lint", "--output-format", "json", "--extend-select", "CMP", str(catalog)))
    # C and CM name profile rules too, which ALL leaves out: ALL does not decide them
    from catalint.config import _covers

    assert not any(_covers("ALL", p) for p in ("C", "CM", "CMP", "CMP-GEM", "cm"))
    assert all(_covers("ALL", p) for p in ("CAT", "DESC-001", "ALL", "SEC"))
    # ALL decides the CAT rules a layer below named by C, and leaves its CMP rules as they were
    config.write_text('ignore = ["C"]\n')
    shown = cli("lint", "--show-settings", "--output-format", "json", "--extend-select", "ALL", str(catalog)).output
    rules = json.loads(shown)["rules"]
    assert "CAT-001" in rules and not any(r.startswith("CMP") for r in rules)
    config.write_text('extend-select = ["C"]\n[severity]\nC = "info"\n')
    shown = cli("lint", "--show-settings", "--output-format", "json", "--ignore", "ALL", str(catalog)).output
    assert {r[:3] for r in json.loads(shown)["rules"]} == {"CMP"}
    from catalint.config import SettingsResolver
    from catalint.model import Severity

    settings = SettingsResolver(config, {"severity": {"ALL": "critical"}}).for_dir(tmp_path)
    assert settings.severity_of("CAT-001", Severity.WARNING) is Severity.CRITICAL
    assert settings.severity_of("CMP-GEM-006", Severity.CRITICAL) is Severity.INFO
    # within one layer the more specific of select and ignore still wins
    result = cli("lint", "--output-format", "json", "--ignore", "DESC", "--extend-select", "DESC-012", str(catalog))
    assert [c for c in codes(result) if c.startswith("DESC")] == ["DESC-012"]


def test_extend_select_and_ignore_flags(cli, catalog: Path) -> None:
    result = cli("lint", "--output-format", "json", "--select", "DESC-001", "--extend-select", "DESC-012", str(catalog))
    assert codes(result) == ["DESC-012"]
    result = cli("lint", "--output-format", "json", "--ignore", "DESC-012,DESC-006", str(catalog))
    assert codes(result) == []


def test_severity_override_and_fail_severity(cli, tmp_path: Path, catalog: Path) -> None:
    (tmp_path / "catalint.toml").write_text('ignore = ["DESC-006"]\nfail-severity = "warning"\n')
    assert cli("lint", str(catalog)).exit_code == 1
    assert cli("lint", "--no-gate", "--fail-severity", "critical", str(catalog)).exit_code == 0
    (tmp_path / "catalint.toml").write_text('ignore = ["DESC-006"]\n[severity]\nDESC = "critical"\n')
    result = cli("lint", "--output-format", "json", str(catalog))
    assert json.loads(result.stdout)["findings"][0]["severity"] == "critical"
    assert result.exit_code == 1


def test_per_file_ignores(cli, tmp_path: Path) -> None:
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    write_catalog(legacy / "tools.json", [TOOL])
    write_catalog(tmp_path / "tools.json", [TOOL])
    (tmp_path / "catalint.toml").write_text('[per-file-ignores]\n"legacy/*" = ["DESC-012"]\n')
    result = json.loads(cli("lint", "--output-format", "json", ".").stdout)
    found = sorted((f["file"], f["code"]) for f in result["findings"])
    assert found == [
        ("legacy/tools.json", "DESC-006"),
        ("tools.json", "DESC-006"),
        ("tools.json", "DESC-012"),
    ]
    assert result["notices"] == []


def test_per_tool_ignores_with_reason(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [TOOL, DEBUG_TOOL])
    (tmp_path / "catalint.toml").write_text(
        '[[per-tool-ignores]]\ntools = ["debug_*"]\nrules = ["DESC"]\n'
        'reason = "internal tools, never shown to agents"\n'
    )
    result = json.loads(cli("lint", "--output-format", "json", "tools.json").stdout)
    assert {f["tool"] for f in result["findings"]} == {"get_weather"}
    assert result["files"][0]["suppressed"] == 2
    assert result["notices"] == []


def test_per_tool_ignores_are_found_by_tool_name_not_by_asking_every_table(cli, tmp_path: Path, monkeypatch) -> None:
    """A finding once asked every table whether it covered its tool, and each table kept every tool's answer:
    4,000 tables of one name each on 4,000 tools took 45 s and 460 MB. Names without a wildcard are now looked
    up; only the tables with a wildcard (at most 256 globs) are asked, once a tool. The first table in order
    that covers the rule wins, and a table that covered nothing is still stale."""
    from catalint.config import ToolIgnore

    tools = [{**TOOL, "name": f"get_item_{i}"} for i in range(300)]
    write_catalog(tmp_path / "tools.json", tools)
    tables = [f'[[per-tool-ignores]]\ntools = ["get_item_{i}"]\nrules = ["DESC-012"]\n' for i in range(0, 300, 2)]
    tables.append('[[per-tool-ignores]]\ntools = ["get_item_1?"]\nrules = ["DESC-012", "ALL"]\n')  # 10..19
    tables.append('[[per-tool-ignores]]\ntools = ["get_item_0", "gone"]\nrules = ["DESC-012"]\n')  # after [0]
    (tmp_path / "catalint.toml").write_text("".join(tables))
    asked: list[str] = []
    names = ToolIgnore.names
    monkeypatch.setattr(ToolIgnore, "names", lambda self, tool: asked.append(tool) or names(self, tool))
    monkeypatch.setenv("CATALINT_WORKERS", "1")
    result = json.loads(cli("lint", "--output-format", "json", "--select", "DESC-012", "tools.json").stdout)
    kept = {f["tool"] for f in result["findings"]}
    assert kept == {f"get_item_{i}" for i in range(1, 300, 2)} - {f"get_item_1{i}" for i in range(10)}
    assert len(asked) == 600 and len(set(asked)) == 300  # only the wildcard table: for the scores, for findings
    assert [n for n in result["notices"] if "matched no finding" in n] == [
        "catalint.toml: notice: per-tool ignore tools=get_item_0,gone rules=DESC-012 matched no finding; remove it"
    ]


def test_per_tool_ignore_flag(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [TOOL, DEBUG_TOOL])
    result = json.loads(
        cli("lint", "--output-format", "json", "--per-tool-ignores", "debug_*:DESC", "tools.json").stdout
    )
    assert {f["tool"] for f in result["findings"]} == {"get_weather"}


def test_stale_ignores_are_reported_as_notices(cli, tmp_path: Path, catalog: Path) -> None:
    (tmp_path / "old").mkdir()
    write_catalog(tmp_path / "old" / "tools.json", [TOOL])  # no DESC-001 finding to suppress
    (tmp_path / "catalint.toml").write_text(
        '[per-file-ignores]\n"old/*.json" = ["DESC-001"]\n'
        '[[per-tool-ignores]]\ntools = ["gone_tool"]\nrules = ["DESC-012"]\nreason = "removed last year"\n'
    )
    result = cli("lint", str(catalog), "old/tools.json")
    notices = [line for line in result.stdout.splitlines() if "notice" in line]
    assert len(notices) == 2
    assert "old/*.json" in notices[0] and "matched no finding" in notices[0]
    assert "gone_tool" in notices[1] and notices[1].endswith(
        "matched no tool in the linted files; remove it if no catalog has one"
    )
    data = json.loads(cli("lint", "--output-format", "json", str(catalog), "old/tools.json").stdout)
    assert len(data["notices"]) == 2


def test_ignores_that_could_not_match_in_this_run_are_not_stale(cli, tmp_path: Path, catalog: Path) -> None:
    """pre-commit passes only the changed files, and --select can leave an ignore's rules out."""
    (tmp_path / "legacy").mkdir()
    write_catalog(tmp_path / "legacy" / "tools.json", [TOOL])
    (tmp_path / "catalint.toml").write_text(
        '[per-file-ignores]\n"legacy/*.json" = ["DESC-012"]\n'
        '[[per-tool-ignores]]\ntools = ["get_weather"]\nrules = ["DESC-006"]\nfiles = ["legacy/*.json"]\n'
        '[[per-tool-ignores]]\ntools = ["gone_tool"]\nrules = ["DESC"]\n'
    )
    result = cli("lint", "--select", "SCH", "tools.json")  # legacy/ not linted, no DESC rule on
    assert "notice" not in result.stdout, result.stdout
    # legacy/ linted: its file ignore and its file-scoped tool ignore are used; gone_tool is stale
    result = cli("lint", "tools.json", "legacy/tools.json")
    notices = [line for line in result.stdout.splitlines() if "notice" in line]
    assert len(notices) == 1 and "gone_tool" in notices[0], result.stdout


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ('selct = ["DESC"]\n', "unknown setting 'selct'"),
        ('select = ["DESC-999"]\n', "unknown rule or prefix 'DESC-999'"),
        ('ignore = ["XYZ"]\n', "unknown rule or prefix 'XYZ'"),
        (
            'select = ["DESC, SCH-002"]\n',
            'select: \'DESC, SCH-002\' is one string; write a list of codes: ["DESC", "SCH-002"]',
        ),
        ('select = "DESC, SCH-002"\n', 'select must be a list of strings, not a string: write ["DESC", "SCH-002"]'),
        ('ignore = ["DESC,XYZ"]\n', "unknown rule or prefix 'DESC,XYZ'"),
        ('fail-severity = "fatal"\n', "unknown severity 'fatal'"),
        ('[severity]\nDESC-001 = "loud"\n', "unknown severity 'loud'"),
        ('[[per-tool-ignores]]\ntools = ["x"]\n', "needs both 'tools'"),
        ('[[per-tool-ignores]]\ntools = ["x"]\nrules = ["DESC"]\nwhy = "?"\n', "unknown key 'why'"),
        ("select = [\n", "invalid TOML"),
        ("select = 3\n", "must be a list of strings"),
    ],
)
def test_bad_config_is_exit_2_with_one_clear_line(cli, tmp_path: Path, catalog: Path, content: str, fragment: str):
    (tmp_path / "catalint.toml").write_text(content)
    result = cli("lint", str(catalog))
    assert result.exit_code == 2
    assert fragment in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "catalint.toml" in result.stderr


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        (
            "pyproject.toml",
            '[project]\nname = "x"\n\n[tool.catalint]\nselect = ["DESC-999"]\n',
            "pyproject.toml:5:1: select:",
        ),
        (
            "pyproject.toml",
            "[tool.catalint]\nfail-severity = 'high'\nselct = []\n",
            "pyproject.toml:3:1: unknown setting",
        ),
        ("pyproject.toml", '[tool.catalint.severity]\nDESC-001 = "loud"\n', "pyproject.toml:2:1: severity.DESC-001:"),
        (
            "catalint.toml",
            'severity = { SCH-002 = "info", "DESC-001" = "loud" }\n',
            "catalint.toml:1:32: severity.DESC-001:",
        ),
        (
            "catalint.toml",
            'per-file-ignores = { "a/*.json" = ["XYZ"] }\n',
            "catalint.toml:1:22: per-file-ignores.a/*.json:",
        ),
        (  # a glob with a space or a colon is quoted, as TOML writes it, and found at its own line
            "catalint.toml",
            '[per-file-ignores]\n"ok.json" = ["DESC"]\n"my file.json" = ["XYZ"]\n',
            'catalint.toml:3:1: per-file-ignores."my file.json": unknown rule or prefix',
        ),
        ("catalint.toml", '[severity]\n"a:b" = "info"\n', 'catalint.toml:2:1: severity."a:b": unknown rule'),
        # U+2028 and U+0085 end no TOML line: the entries after them keep their line numbers
        (
            "catalint.toml",
            '# see the docs\u2028for details\nselect = ["DESC"]\nignore = ["X-1"]\n',
            "catalint.toml:3:1: ignore:",
        ),
        ("catalint.toml", '[per-file-ignores]\n"a\u0085b.json" = ["DESC"]\n"x.json" = ["N-1"]\n', "catalint.toml:3:1:"),
        (
            "catalint.toml",
            '[[per-tool-ignores]]\ntools = ["a"]\nrules = ["DESC"]\n\n'
            '[[per-tool-ignores]]\ntools = ["b"]\nrules = ["DESC"]\nwhy = 1\n',
            "catalint.toml:8:1: per-tool-ignores[1]: unknown key 'why'",
        ),
        # a table of another tool: the header of the unknown setting
        ("catalint.toml", 'select = ["DESC"]\n\n[tool.ruff]\nx = 1\n', "catalint.toml:3:1: unknown setting 'tool'"),
        ("catalint.toml", "select = [\n  'DESC',,\n]\n", "catalint.toml:2:10: invalid TOML: "),
        # the parser's "at end of document": the end of the last line with text on it
        ("catalint.toml", "select = [\n", "catalint.toml:1:11: invalid TOML: Invalid value (at end of document)"),
        (
            "pyproject.toml",
            '[tool.catalint]\nselect = [\n  "DESC",\n\n\n',
            "pyproject.toml:3:10: invalid TOML: Invalid value (at end of document)",
        ),
        (
            "catalint.toml",
            'select = ["DESC',
            "catalint.toml:1:16: invalid TOML: Unterminated string (at end of document)",
        ),
        # nothing to point at: the message names the file alone
        ("pyproject.toml", '[project]\nname = "x"\n', "pyproject.toml: no [tool.catalint] table"),
    ],
)
def test_config_errors_give_the_line_and_column(
    cli, tmp_path: Path, catalog: Path, name: str, content: str, expected: str
):
    (tmp_path / name).write_text(content, encoding="utf-8")
    result = cli("lint", "--config", name, str(catalog))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {expected}"), result.stderr
    assert len(result.stderr.splitlines()) == 1


# A value of the wrong type is an error at the value, as ruff's is: a string where a list belongs is
# not read as a one-entry list.
@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('select = "DESC"\n', 'catalint.toml:1:10: select must be a list of strings, not a string: write ["DESC"]'),
        ("extend-select = 3\n", "catalint.toml:1:17: extend-select must be a list of strings, not an integer"),
        ("ignore = { DESC = 1 }\n", "catalint.toml:1:10: ignore must be a list of strings, not a table"),
        (
            'include = "*.json"\n',
            'catalint.toml:1:11: include must be a list of strings, not a string: write ["*.json"]',
        ),
        ("exclude = true\n", "catalint.toml:1:11: exclude must be a list of strings, not a boolean"),
        ('targets = "mcp"\n', 'catalint.toml:1:11: targets must be a list of strings, not a string: write ["mcp"]'),
        (
            'extend-gate = "mean_score>=0.8"\n',
            "catalint.toml:1:15: extend-gate must be a list of strings, not a string",
        ),
        ('select = ["DESC", 3]\n', "catalint.toml:1:10: select: entry 2 must be a string, not an integer"),
        (
            "fail-severity = 1\n",
            "catalint.toml:1:17: fail-severity must be one of critical, warning, info, not an integer",
        ),
        ('force-exclude = "yes"\n', "catalint.toml:1:17: force-exclude must be true or false, not a string"),
        (
            'tool-token-budget = "700"\n',
            "catalint.toml:1:21: tool-token-budget must be a positive whole number of tokens, not a string",
        ),
        (
            "catalog-token-budget = 1.5\n",
            "catalint.toml:1:24: catalog-token-budget must be a positive whole number of tokens, not a float",
        ),
        ('severity = "info"\n', "catalint.toml:1:12: severity must be a table of"),
        (
            "[severity]\nDESC-001 = 3\n",
            "catalint.toml:2:12: severity.DESC-001 must be one of critical, warning, info, not an integer",
        ),
        ('per-file-ignores = ["a"]\n', "catalint.toml:1:20: per-file-ignores must be a table of"),
        (
            '[per-file-ignores]\n"a/*.json" = "DESC"\n',
            'catalint.toml:2:14: per-file-ignores.a/*.json must be a list of strings, not a string: write ["DESC"]',
        ),
        (
            'per-tool-ignores = { tools = ["a"] }\n',
            "catalint.toml:1:20: per-tool-ignores must be an array of tables, not a table",
        ),
        (
            '[[per-tool-ignores]]\ntools = "debug_*"\nrules = ["DESC"]\n',
            'catalint.toml:2:9: per-tool-ignores[0]: tools must be a list of strings, not a string: write ["debug_*"]',
        ),
        (
            '[[per-tool-ignores]]\ntools = ["a"]\nrules = "DESC"\n',
            "catalint.toml:3:9: per-tool-ignores[0]: rules must be a list of strings, not a string",
        ),
        (
            '[[per-tool-ignores]]\ntools = ["a"]\nrules = ["DESC"]\nfiles = "x.json"\n',
            "catalint.toml:4:9: per-tool-ignores[0]: files must be a list of strings",
        ),
        (
            '[[per-tool-ignores]]\ntools = ["a"]\nrules = ["DESC"]\nreason = 1\n',
            "catalint.toml:4:10: per-tool-ignores[0]: reason must be a string, not an integer",
        ),
        ("gate = 0.7\n", "catalint.toml:1:8: gate must be a table of"),
        ("[gate]\nmean_score = 0.7\n", "catalint.toml:2:14: gate.mean_score: a matcher is"),
        (
            '[gate]\nmean_score = { ">=" = "high" }\n',
            "catalint.toml:2:14: gate.mean_score: >= needs a number, got 'high'",
        ),
    ],
)
def test_a_setting_of_the_wrong_type_is_an_error_at_its_value(
    cli, tmp_path: Path, catalog: Path, content: str, expected: str
) -> None:
    (tmp_path / "catalint.toml").write_text(content, encoding="utf-8")
    result = cli("lint", str(catalog))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {expected}"), result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_per_tool_ignore_flag_is_still_one_glob(cli, tmp_path: Path) -> None:
    """The flag hands its glob on as a list now that a config's lone string is an error."""
    write_catalog(tmp_path / "tools.json", [TOOL, DEBUG_TOOL])
    result = json.loads(
        cli("lint", "--output-format", "json", "--per-tool-ignores", "debug_*:DESC", "tools.json").stdout
    )
    assert {f["tool"] for f in result["findings"]} == {"get_weather"}


def test_bad_cli_selector_is_exit_2(cli, catalog: Path) -> None:
    result = cli("lint", "--select", "NOPE", str(catalog))
    assert result.exit_code == 2
    assert "NOPE" in result.stderr


def test_missing_config_file_is_exit_2(cli, catalog: Path) -> None:
    result = cli("lint", "--config", "nowhere.toml", str(catalog))
    assert result.exit_code == 2
    assert "nowhere.toml" in result.stderr


def test_directory_include_patterns_from_config(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "server.json", [TOOL])
    write_catalog(tmp_path / "tools.json", [TOOL])
    (tmp_path / "package.json").write_text('{"name": "x"}')
    default = json.loads(cli("lint", "--output-format", "json", ".").stdout)
    assert [f["file"] for f in default["files"]] == ["tools.json"]
    (tmp_path / "catalint.toml").write_text('include = ["server.json"]\n')
    configured = json.loads(cli("lint", "--output-format", "json", ".").stdout)
    assert [f["file"] for f in configured["files"]] == ["server.json"]


def test_targets_turn_on_client_rules_from_config_and_flags(cli, tmp_path: Path) -> None:
    tool = {**TOOL, "name": "weather.get"}  # a dot: OpenAI and Anthropic refuse it, Gemini accepts it
    write_catalog(tmp_path / "tools.json", [tool])
    plain = codes(cli("lint", "--output-format", "json", "--no-gate", "tools.json"))
    assert not any(c.startswith("CMP-") for c in plain)
    (tmp_path / "catalint.toml").write_text('targets = ["openai@2026-11"]\n')
    from_config = codes(cli("lint", "--output-format", "json", "--no-gate", "tools.json"))
    assert "CMP-OAI-001" in from_config and not any(c.startswith("CMP-ANT") for c in from_config)
    from_flag = codes(cli("lint", "--output-format", "json", "--no-gate", "--target", "anthropic", "tools.json"))
    assert any(c.startswith("CMP-ANT") for c in from_flag) and "CMP-OAI-001" not in from_flag  # the flag wins
    (tmp_path / "catalint.toml").unlink()
    everything = codes(cli("lint", "--output-format", "json", "--no-gate", "--select", "ALL", "tools.json"))
    assert not any(c.startswith("CMP-") for c in everything)  # ALL leaves the client profiles to --target


def test_an_ignore_turns_off_a_targets_rules_whatever_its_length(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [{**TOOL, "name": "weather.get"}])
    args = ["lint", "--output-format", "json", "--no-gate", "--target", "anthropic", "tools.json"]
    assert any(c.startswith("CMP-ANT") for c in codes(cli(*args)))
    for family in ("CMP", "CMP-ANT", "CMP-ANT-001"):
        assert "CMP-ANT-001" not in codes(cli(*args, "--ignore", family)), family
    # a rule selected by name still beats a broader ignore, as selectors do
    assert "CMP-ANT-001" in codes(cli(*args, "--ignore", "CMP", "--extend-select", "CMP-ANT-001"))


def test_unknown_target_is_a_config_error(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [TOOL])
    (tmp_path / "catalint.toml").write_text('targets = ["openai@1999-01"]\n')
    result = cli("lint", "tools.json")
    assert result.exit_code == 2 and "targets" in result.stderr


def test_messages_name_the_config_file_by_its_path_not_just_its_name(cli, tmp_path: Path, monkeypatch) -> None:
    # with a config in several folders, "pyproject.toml: ..." would not say which one
    (tmp_path / "pyproject.toml").write_text(
        '[tool.catalint]\nper-tool-ignores = [{tools = ["nothing_*"], rules = ["DESC-001"]}]\n', encoding="utf-8"
    )
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "pyproject.toml").write_text('[tool.catalint]\nselectt = ["DESC"]\n', encoding="utf-8")
    write_catalog(tmp_path / "bad" / "tools.json", [{"name": "a", "description": "Get the thing. Returns it."}])
    result = cli("lint", "bad/tools.json")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: bad/pyproject.toml:2:1: unknown setting 'selectt'")
    (tmp_path / "bad" / "pyproject.toml").unlink()
    (tmp_path / "sub").mkdir()
    write_catalog(tmp_path / "sub" / "tools.json", [{"name": "a", "description": "Get the thing. Returns it."}])
    monkeypatch.chdir(tmp_path / "sub")  # the config is above the working directory: named in full
    result = cli("lint", "tools.json", "--exit-zero")
    assert f"{tmp_path / 'pyproject.toml'}: notice: per-tool ignore" in result.stdout


def test_a_missing_config_file_is_one_line_and_exit_2(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [TOOL])
    result = cli("lint", "--config", "nope.toml", "tools.json")
    assert result.exit_code == 2
    assert result.stderr == "error: --config: nope.toml: no such file\n"


# ---------------------------------------------------------------- force-exclude


BARE = {"name": "get_weather", "description": "Weather", "inputSchema": {"type": "object"}}


def _vendored(tmp_path: Path, config: str) -> None:
    (tmp_path / "vendor" / "x").mkdir(parents=True)
    (tmp_path / "src").mkdir()
    write_catalog(tmp_path / "vendor" / "x" / "tools.json", [BARE])
    write_catalog(tmp_path / "src" / "tools.json", [BARE])
    (tmp_path / "pyproject.toml").write_text(f"[tool.catalint]\n{config}", encoding="utf-8")


@pytest.mark.parametrize("pattern", ["vendor", "vendor/*", "x", "**/x/tools.json", "tools.json"])
def test_force_exclude_skips_named_files_exclude_covers(cli, tmp_path: Path, pattern: str) -> None:
    # pre-commit names every changed file: without force-exclude, exclude applies only inside directories
    _vendored(tmp_path, f'exclude = ["{pattern}"]\nforce-exclude = true\n')
    result = cli("lint", "vendor/x/tools.json")
    assert result.exit_code == 0, result.output
    assert "notice: 1 file skipped: exclude covers it and force-exclude is on (vendor/x/tools.json)" in result.output
    assert "Nothing linted" in result.output
    assert cli("lint", "vendor/x/tools.json", "--no-force-exclude").exit_code == 1  # the flag wins


def test_force_exclude_keeps_the_other_files(cli, tmp_path: Path) -> None:
    _vendored(tmp_path, 'exclude = ["vendor"]\n')
    assert cli("lint", "vendor/x/tools.json").exit_code == 1  # off by default, as in ruff
    result = cli("lint", "vendor/x/tools.json", "src/tools.json", "--force-exclude", "--output-format", "json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert [f["file"] for f in report["files"]] == ["src/tools.json"]
    assert report["notices"] == [
        "notice: 1 file skipped: exclude covers it and force-exclude is on (vendor/x/tools.json)"
    ]


def test_force_exclude_matches_from_the_configs_folder(cli, tmp_path: Path, monkeypatch) -> None:
    _vendored(tmp_path, 'exclude = ["vendor/*"]\nforce-exclude = true\n')
    monkeypatch.chdir(tmp_path / "src")
    assert "Nothing linted" in cli("lint", "../vendor/x/tools.json").output
    assert cli("lint", "tools.json").exit_code == 1  # src/tools.json: not under vendor/


def test_force_exclude_must_be_a_boolean(cli, tmp_path: Path) -> None:
    _vendored(tmp_path, 'force-exclude = "yes"\n')
    result = cli("lint", "src/tools.json")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: pyproject.toml:2:17: force-exclude must be true or false, not a string"


# ---------------------------------------------------------------- --per-file-ignores on the command line


def _two_servers(tmp_path: Path) -> None:
    for sub in ("a", "b"):
        (tmp_path / "servers" / sub).mkdir(parents=True)
        write_catalog(tmp_path / "servers" / sub / "tools.json", [BARE])
        (tmp_path / "servers" / sub / "catalint.toml").write_text('select = ["DESC"]\n', encoding="utf-8")


def test_a_per_file_ignores_flag_reads_its_glob_from_the_working_directory(cli, tmp_path: Path) -> None:
    # Typed at the repository's top, the glob names files from there, whichever config each file has.
    _two_servers(tmp_path)
    args = ["lint", "servers", "--no-gate", "--output-format", "json"]
    report = json.loads(cli(*args, "--per-file-ignores", "servers/a/*.json:DESC-001").output)
    by_file = {f["file"]: {x["code"] for x in report["findings"] if x["file"] == f["file"]} for f in report["files"]}
    assert "DESC-001" not in by_file["servers/a/tools.json"] and "DESC-001" in by_file["servers/b/tools.json"]
    assert report["notices"] == []  # it matched in one of the two configs: no notice from the other


def test_a_per_file_ignores_flag_replaces_the_configs_and_extend_per_file_ignores_adds(cli, tmp_path: Path) -> None:
    # as in ruff's --per-file-ignores and --extend-per-file-ignores
    _two_servers(tmp_path)
    (tmp_path / "servers" / "a" / "catalint.toml").write_text(
        'select = ["DESC"]\n[per-file-ignores]\n"*" = ["DESC-001"]\n'
    )
    args = ["lint", "servers/a", "--no-gate", "--output-format", "json"]

    def codes(*flags: str) -> set[str]:
        return {f["code"] for f in json.loads(cli(*args, *flags).output)["findings"]}

    alone = codes()
    assert "DESC-001" not in alone and {"DESC-004", "DESC-012"} <= alone
    assert codes("--per-file-ignores", "servers/*:DESC-012") == alone - {"DESC-012"} | {"DESC-001"}
    assert codes("--extend-per-file-ignores", "servers/*:DESC-012") == alone - {"DESC-012"}
    both = ["--per-file-ignores", "servers/*:DESC-012", "--extend-per-file-ignores", "servers/*:DESC-004"]
    assert codes(*both) == alone - {"DESC-012", "DESC-004"} | {"DESC-001"}
    bad = cli(*args, "--extend-per-file-ignores", "nocolon")
    assert bad.exit_code == 2 and "error: --extend-per-file-ignores: expected GLOB:CODES, got 'nocolon'" in bad.stderr


def test_a_per_file_ignores_flag_that_matches_no_file_says_so_once(cli, tmp_path: Path) -> None:
    _two_servers(tmp_path)
    report = json.loads(
        cli("lint", "servers", "--no-gate", "--output-format", "json", "--per-file-ignores", "srv/*.json:DESC").output
    )
    assert report["notices"] == [
        "command line: notice: per-file-ignores 'srv/*.json' (DESC) matched no linted file"
        " (a glob given on the command line is read from the working directory)"
    ]
    stale = json.loads(
        cli(
            "lint", "servers", "--no-gate", "--output-format", "json", "--per-file-ignores", "servers/*:DESC-005"
        ).output
    )
    assert stale["notices"] == [
        "command line: notice: per-file-ignores 'servers/*' (DESC-005) matched no finding; remove it"
    ]


def test_a_per_file_ignores_flag_matching_only_the_baseline_still_says_it_matched_no_linted_file(
    cli, tmp_path: Path
) -> None:
    _two_servers(tmp_path)
    (tmp_path / "old").mkdir()
    write_catalog(tmp_path / "old" / "tools.json", [BARE])
    args = ["lint", "servers/a/tools.json", "--no-gate", "--output-format", "json", "--baseline", "old/tools.json"]
    report = json.loads(cli(*args, "--per-file-ignores", "old/*:DESC").output)
    assert report["notices"] == [
        "command line: notice: per-file-ignores 'old/*' (DESC) matched no linted file"
        " (a glob given on the command line is read from the working directory)"
    ]


def test_a_per_file_ignores_flag_whose_rules_are_off_says_nothing(cli, tmp_path: Path) -> None:
    # it matched the file: "matched no linted file" would send the user after a glob that is right
    _two_servers(tmp_path)
    report = json.loads(
        cli("lint", "servers", "--no-gate", "--output-format", "json", "--per-file-ignores", "servers/*:TOK").output
    )
    assert report["notices"] == []


def test_a_config_kept_elsewhere_reads_its_globs_from_the_working_folder_whatever_the_spelling(
    cli, tmp_path: Path, monkeypatch
) -> None:
    # as ruff reads a --config's globs (the Action's config: .github/catalint.toml)
    _two_servers(tmp_path)
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "catalint.toml").write_text(
        'select = ["DESC"]\n[per-file-ignores]\n"servers/a/*.json" = ["DESC"]\n'
    )
    args = ["--no-gate", "--output-format", "json", "--config"]

    def files_with_desc(*paths: str, config: str = "ci/catalint.toml") -> set[str]:
        report = json.loads(cli("lint", *paths, *args, config).output)
        return {Path(f["file"]).parent.name for f in report["findings"] if f["code"].startswith("DESC")}

    assert files_with_desc("servers") == {"b"}
    assert files_with_desc(str(tmp_path / "servers")) == {"b"}  # an absolute path: the same file
    assert files_with_desc("servers/a/../a", "servers/b") == {"b"}
    monkeypatch.chdir(tmp_path / "servers")  # from there the glob names no file, as in ruff
    assert files_with_desc("a", "b", config="../ci/catalint.toml") == {"a", "b"}


def test_a_per_tool_ignore_matches_names_as_fnmatch_does() -> None:
    """ToolIgnore.names looks names up in a set and compiles the wildcard globs into one pattern (20,000
    globs against 2,000 tools took 39 s one fnmatch at a time): the same answers as fnmatchcase."""
    import fnmatch
    import random

    from catalint.config import ToolIgnore

    rng = random.Random(7)
    pieces = ["a", "b", "_", ".", "-", "*", "?", "[ab]", "[!a]", "[", "]", "\\", "(", "|", "é"]
    globs = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 5))) for _ in range(300)]
    names = ["".join(rng.choice("ab_.-[]()|\\é") for _ in range(rng.randint(0, 6))) for _ in range(2000)]
    names += globs  # a glob's own text as a name: literal globs must match it
    entry = ToolIgnore(globs, ["ALL"], None, [], "label")
    for name in names:
        assert entry.names(name) == any(fnmatch.fnmatchcase(name, g) for g in globs), name
    assert ToolIgnore(["get_*"], ["ALL"], None, [], "l").names("get_x")
    assert not ToolIgnore(["get_x"], ["ALL"], None, [], "l").names("get_y")


def test_many_per_tool_globs_cost_a_lookup_a_name(cli, tmp_path: Path) -> None:
    globs = [f"tool_{i}" for i in range(20_000)] + ["other_*"]
    write_catalog(tmp_path / "tools.json", [{"name": f"tool_{i}", "description": "x"} for i in range(0, 4000, 2)])
    toml = "[[per-tool-ignores]]\ntools = " + json.dumps(globs) + '\nrules = ["DESC"]\n'
    (tmp_path / "catalint.toml").write_text(toml, encoding="utf-8")
    result = cli("lint", "--no-gate", "--select", "DESC-001", "tools.json")
    assert result.exit_code == 0, result.output
    assert "All checks passed" in result.stdout


def test_too_many_wildcard_tool_globs_are_a_config_error(cli, tmp_path: Path) -> None:
    """Each tool name is matched against every wildcard glob (11,000 such as `*a*a*a*a*a*a*a*a*b1*` against
    2,000 names took 25 s); names without a wildcard are a set lookup, so they may be many."""
    from catalint.config import MAX_TOOL_WILDCARDS

    write_catalog(tmp_path / "tools.json", [{"name": "tool_1", "description": "x"}])
    wild = [f"*a*b{i}*" for i in range(MAX_TOOL_WILDCARDS + 1)]
    toml = "[[per-tool-ignores]]\ntools = " + json.dumps(wild) + '\nrules = ["DESC"]\n'
    (tmp_path / "catalint.toml").write_text(toml, encoding="utf-8")
    result = cli("lint", "tools.json")
    assert result.exit_code == 2
    message = (
        f"per-tool-ignores: {len(wild):,} tool globs with a wildcard; catalint takes at most {MAX_TOOL_WILDCARDS:,}"
    )
    assert message in result.stderr
    assert message in (ROOT / "README.md").read_text(encoding="utf-8").replace("11,000", f"{len(wild):,}")
    toml = "[[per-tool-ignores]]\ntools = " + json.dumps(wild[:-1] + ["tool_1"] * 5000) + '\nrules = ["DESC"]\n'
    (tmp_path / "catalint.toml").write_text(toml, encoding="utf-8")
    assert cli("lint", "--no-gate", "tools.json").exit_code in (0, 1)


def test_the_nearest_config_is_searched_once_a_folder(tmp_path: Path, monkeypatch) -> None:
    """Each folder of a tree once looked for a config in every folder up to the root: 500 nested folders took
    13 s. Answers are kept by folder, so a tree is searched once a folder, and still finds the nearest file."""
    import catalint.config as config_module
    from catalint.config import CONFIG_NAMES, find_config

    (tmp_path / "catalint.toml").write_text('ignore = ["DESC-012"]\n')
    folders = [tmp_path]
    for i in range(40):
        folders.append(folders[-1] / f"d{i}")
    folders[-1].mkdir(parents=True)
    (folders[20] / ".catalint.toml").write_text('ignore = ["DESC-001"]\n')
    looked: list[str] = []
    isfile = os.path.isfile
    monkeypatch.setattr(config_module.os.path, "isfile", lambda p: looked.append(p) or isfile(p))
    known: dict[Path, Path | None] = {}
    found = {folder: find_config(folder, known) for folder in reversed(folders)}
    assert found[folders[40]] == found[folders[20]] == (folders[20] / ".catalint.toml").resolve()
    assert found[folders[19]] == found[tmp_path] == (tmp_path / "catalint.toml").resolve()
    assert len(looked) <= len(folders) * len(CONFIG_NAMES)  # once a folder, not once a folder below it


def test_a_shared_configs_suppressions_are_judged_over_every_config_that_extends_it(cli, tmp_path: Path) -> None:
    """Two folders extend one shared file: each gets its own copy of its entries. A copy unused in one
    folder is not stale when the other folder's copy suppressed a finding; a stale entry is noticed once."""
    for sub, tools in (("a", [TOOL]), ("b", [DEBUG_TOOL])):
        (tmp_path / sub).mkdir()
        write_catalog(tmp_path / sub / "tools.json", tools)
        (tmp_path / sub / "catalint.toml").write_text('extend = "../shared.toml"\n')
    (tmp_path / "shared.toml").write_text(
        '[[per-tool-ignores]]\ntools = ["get_weather"]\nrules = ["DESC-006"]\n'
        '[[per-tool-ignores]]\ntools = ["debug_dump"]\nrules = ["DESC-001"]\n'  # nothing to suppress
        '[per-file-ignores]\n"a/*.json" = ["DESC-012"]\n'
    )
    data = json.loads(cli("lint", "--output-format", "json", "--no-gate", "a", "b").stdout)
    assert {(f["tool"], f["code"]) for f in data["findings"]} == {
        ("debug_dump", "DESC-012"),
        ("debug_dump", "DESC-006"),
    }
    assert data["notices"] == [
        "shared.toml: notice: per-tool ignore tools=debug_dump rules=DESC-001 matched no finding; remove it"
    ]


def test_a_per_tool_ignore_flag_is_judged_over_every_config(cli, tmp_path: Path) -> None:
    for sub, tools in (("a", [TOOL]), ("b", [DEBUG_TOOL])):
        (tmp_path / sub).mkdir()
        write_catalog(tmp_path / sub / "tools.json", tools)
        (tmp_path / sub / "catalint.toml").write_text("")
    used = cli("lint", "--no-gate", "a/tools.json", "b/tools.json", "--per-tool-ignores", "get_weather:DESC-006")
    assert (
        "notice" not in used.stdout
        and "a/tools.json:" in used.stdout
        and "DESC-006" not in used.stdout.split("b/tools.json")[0]
    )
    typo = cli("lint", "--no-gate", "a/tools.json", "b/tools.json", "--per-tool-ignores", "get_wether:DESC-006")
    assert [line for line in typo.stdout.splitlines() if "notice" in line] == [
        "command line: notice: per-tool ignore tools=get_wether rules=DESC-006 matched no tool in the linted files"
    ]


def test_a_per_tool_ignore_of_a_tool_in_another_file_is_not_called_stale(cli, tmp_path: Path, monkeypatch) -> None:
    """pre-commit passes the changed files only: an ignore for a tool of another catalog must not read as
    stale there, while one for a tool present that suppressed nothing is."""
    write_catalog(tmp_path / "a.tools.json", [TOOL])
    write_catalog(tmp_path / "b.tools.json", [DEBUG_TOOL])
    (tmp_path / "catalint.toml").write_text(
        '[[per-tool-ignores]]\ntools = ["debug_dump"]\nrules = ["DESC-006"]\n'
        '[[per-tool-ignores]]\ntools = ["get_weather"]\nrules = ["DESC-001"]\n'
    )
    notices = [line for line in cli("lint", "--no-gate", "a.tools.json").stdout.splitlines() if "notice" in line]
    assert notices == [
        "catalint.toml: notice: per-tool ignore tools=debug_dump rules=DESC-006 matched no tool in the linted files;"
        " remove it if no catalog has one",
        "catalint.toml: notice: per-tool ignore tools=get_weather rules=DESC-001 matched no finding; remove it",
    ]
    # under pre-commit (it passes the changed files only) a tool in another file is no news at all
    monkeypatch.setenv("PRE_COMMIT", "1")
    hooked = [line for line in cli("lint", "--no-gate", "a.tools.json").stdout.splitlines() if "notice" in line]
    assert hooked == [notices[1]]
    monkeypatch.delenv("PRE_COMMIT")
    everything = cli("lint", "--no-gate", "a.tools.json", "b.tools.json").stdout
    assert (
        "debug_dump rules=DESC-006" not in everything and "get_weather rules=DESC-001 matched no finding" in everything
    )


def test_a_per_file_ignores_flag_given_twice_for_one_glob_ignores_both(cli, catalog: Path) -> None:
    args = ("lint", "--output-format", "json", "--no-gate", "tools.json")
    both = cli(*args, "--per-file-ignores", "tools.json:DESC-006", "--per-file-ignores", "tools.json:DESC-012")
    assert json.loads(both.stdout)["findings"] == []  # the second pair used to replace the first
    shown = cli(
        "lint",
        "--show-settings",
        "tools.json",
        "--per-file-ignores",
        "*.json:DESC-006",
        "--per-file-ignores",
        "*.json:DESC-012",
    )
    assert 'per-file-ignores: ["*.json"] = ["DESC-006", "DESC-012"] (takes in this file)' in shown.stdout.splitlines()


def test_a_file_glob_that_is_absolute_or_climbs_out_is_read_from_its_folder(cli, tmp_path: Path) -> None:
    """As ruff makes such patterns absolute: '../sub/*.json' typed in another folder, an absolute glob in a
    config, and a per-tool ignore's files glob; they used to match nothing, with a misleading notice."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "other").mkdir()
    write_catalog(tmp_path / "sub" / "tools.json", [TOOL])
    (tmp_path / "catalint.toml").write_text("")

    def codes_of(*args: str) -> set[str]:
        out = json.loads(cli("lint", "--output-format", "json", "--no-gate", *args).stdout)
        assert out["notices"] == []  # "matched no linted file" was the old answer to such a glob
        return {f["code"] for f in out["findings"]}

    assert codes_of("sub/tools.json") == {"DESC-006", "DESC-012"}
    os.chdir(tmp_path / "other")
    assert codes_of("../sub/tools.json", "--per-file-ignores", "../sub/*.json:DESC-006") == {"DESC-012"}
    os.chdir(tmp_path)
    (tmp_path / "catalint.toml").write_text(f'[per-file-ignores]\n"{tmp_path.as_posix()}/sub/*.json" = ["DESC-006"]\n')
    assert codes_of("sub/tools.json") == {"DESC-012"}
    (tmp_path / "catalint.toml").write_text(
        f'[[per-tool-ignores]]\ntools = ["get_weather"]\nrules = ["DESC-012"]\nfiles = ["../{tmp_path.name}/sub/*"]\n'
    )
    assert codes_of("sub/tools.json") == {"DESC-006"}
    # a leading '/' is read past, as in a .gitignore: "/sub/*.json" is the folder's sub; so is "/lib/..." though
    # the machine has a /lib, and from a config kept in .github/ (files matched from the working directory)
    (tmp_path / "catalint.toml").write_text('[per-file-ignores]\n"/sub/*.json" = ["DESC-006"]\n')
    assert codes_of("sub/tools.json") == {"DESC-012"}
    (tmp_path / "lib").mkdir()
    write_catalog(tmp_path / "lib" / "tools.json", [TOOL])
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "catalint.toml").write_text(
        '[per-file-ignores]\n"/sub/*.json" = ["DESC-006"]\n"/lib/*.json" = ["DESC-006"]\n'
    )
    assert codes_of("sub/tools.json", "lib/tools.json", "--config", ".github/catalint.toml") == {"DESC-012"}
    (tmp_path / "catalint.toml").write_text('[per-file-ignores]\n"../elsewhere/*.json" = ["DESC-006"]\n')
    elsewhere = json.loads(cli("lint", "--output-format", "json", "--no-gate", "sub/tools.json").stdout)
    assert {f["code"] for f in elsewhere["findings"]} == {"DESC-006", "DESC-012"}  # a glob for files elsewhere


def test_two_per_tool_ignores_told_apart_only_by_their_files_are_judged_apart(cli, tmp_path: Path) -> None:
    """The notice's label shows tools and rules, not files: a used entry must not hide a stale twin."""
    write_catalog(tmp_path / "tools.json", [TOOL])
    (tmp_path / "catalint.toml").write_text(
        '[[per-tool-ignores]]\ntools = ["get_weather"]\nrules = ["DESC-006"]\nfiles = ["tools.json"]\n'
        '[[per-tool-ignores]]\ntools = ["get_weather"]\nrules = ["DESC-006"]\nfiles = ["*.json"]\n'
    )
    notices = json.loads(cli("lint", "--output-format", "json", "--no-gate", "tools.json").stdout)["notices"]
    assert notices == [
        "catalint.toml: notice: per-tool ignore tools=get_weather rules=DESC-006 files=*.json matched no finding;"
        " remove it"
    ]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_catalog_named_through_a_folder_link_is_matched_by_that_name(cli, tmp_path: Path) -> None:
    """As ruff reads paths: lnk/tools.json (lnk -> real) is lnk/tools.json to the globs, not real/tools.json."""
    (tmp_path / "real").mkdir()
    write_catalog(tmp_path / "real" / "tools.json", [TOOL])
    (tmp_path / "lnk").symlink_to("real")
    (tmp_path / "catalint.toml").write_text('[per-file-ignores]\n"lnk/*.json" = ["DESC-006"]\n')

    def codes_of(path: str) -> set[str]:
        out = json.loads(cli("lint", "--output-format", "json", "--no-gate", path).stdout)
        return {f["code"] for f in out["findings"]}

    assert codes_of("lnk/tools.json") == {"DESC-012"}
    assert codes_of("real/tools.json") == {"DESC-006", "DESC-012"}


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_catalog_through_a_folder_link_takes_the_config_above_the_link(cli, tmp_path: Path) -> None:
    """As ruff walks the folders as named: ext -> ../outside/real is linted with the project's config, not
    the built-in defaults of the target's folders."""
    (tmp_path / "outside" / "real").mkdir(parents=True)
    write_catalog(tmp_path / "outside" / "real" / "tools.json", [TOOL])
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "ext").symlink_to(tmp_path / "outside" / "real")
    (tmp_path / "proj" / "catalint.toml").write_text('select = ["DESC-006"]\n')
    os.chdir(tmp_path / "proj")
    shown = cli("lint", "--show-settings", "ext/tools.json").stdout.splitlines()
    assert shown[1] == "config: catalint.toml"
    out = json.loads(cli("lint", "--output-format", "json", "--no-gate", "ext/tools.json").stdout)
    assert {f["code"] for f in out["findings"]} == {"DESC-006"}
