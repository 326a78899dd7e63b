"""The pre-commit hook, in the check-jsonschema style: its definition, its entry, its files pattern."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from catalint.config import DEFAULT_INCLUDE, glob_match
from conftest import ROOT, write_catalog

HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
HOOK = next(h for h in HOOKS if h["id"] == "catalint")
BIN = Path(sys.executable).with_name("catalint")

GOOD = {
    "name": "get_time",
    "description": "Get the current time in UTC. Returns an ISO 8601 timestamp string.",
    "inputSchema": {"type": "object", "additionalProperties": False},
    "annotations": {"readOnlyHint": True},
}
BAD = {"name": "get_weather", "description": "Weather", "inputSchema": {"type": "object"}}

MATCH = [
    "tools.json",
    "tools.yaml",
    "tools.yml",
    "servers/tools.json",
    "weather.tools.json",
    "a/b/weather.tools.yaml",
    "tools-list.json",
    "tools_list.json",
    "mcp-tools.json",
    "server.tools-list.json",
    "tools-list.yaml",
    "tools_list.yml",
    "mcp-tools.yaml",
    "a/server.tools-list.yml",
    ".tools.json",  # fnmatch's * matches an empty stem: `catalint lint DIR` takes these too
    "a/.tools-list.yaml",
]
NO_MATCH = [
    ".mcp.json",
    "package.json",
    "tsconfig.json",
    "mytools.json",
    "tools.json.bak",
    "tools/list.json",
    "docs/tools.md",
    "tools.jsonl",
]


def test_snapshot_hook_definition(tmp_path: Path) -> None:
    hook = next(h for h in HOOKS if h["id"] == "catalint-snapshot")
    assert hook["entry"] == "catalint snapshot --check" and hook["pass_filenames"] is False
    server = [sys.executable, str(ROOT / "tests" / "fixtures" / "mcp_stdio_server.py"), "normal", "2", "2"]
    exe = str(BIN) if BIN.exists() else shutil.which("catalint")
    run = [exe, *hook["entry"].split()[1:], "-o", "tools.json", "--", *server]
    subprocess.run([exe, "snapshot", "-o", "tools.json", "--", *server], cwd=tmp_path, check=True, capture_output=True)
    assert subprocess.run(run, cwd=tmp_path, capture_output=True).returncode == 0
    (tmp_path / "tools.json").write_text('{"tools": []}\n')
    assert subprocess.run(run, cwd=tmp_path, capture_output=True).returncode == 1


def test_hook_definition() -> None:
    assert [h["id"] for h in HOOKS] == ["catalint", "catalint-snapshot"]
    assert HOOK["language"] == "python"
    assert HOOK["entry"] == "catalint lint --force-exclude"
    assert HOOK["types_or"] == ["json", "yaml"]


@pytest.mark.parametrize("name", MATCH)
def test_files_pattern_matches_conventional_names(name: str) -> None:
    assert re.search(HOOK["files"], name), name


@pytest.mark.parametrize("name", NO_MATCH)
def test_files_pattern_leaves_other_files_alone(name: str) -> None:
    assert not re.search(HOOK["files"], name), name


@pytest.mark.parametrize("name", MATCH + NO_MATCH)
def test_hook_pattern_and_directory_defaults_agree(name: str) -> None:
    """What the hook passes is what `catalint lint DIR` picks up."""
    assert bool(re.search(HOOK["files"], name)) == glob_match(name, DEFAULT_INCLUDE), name


def _entry(*files: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    exe = str(BIN) if BIN.exists() else shutil.which("catalint")
    assert exe, "catalint is not installed next to the test interpreter"
    command = [exe, *HOOK["entry"].split()[1:], *files]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)


def test_entry_passes_a_good_catalog(tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [GOOD])
    result = _entry("tools.json", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_entry_fails_a_bad_catalog_and_names_it(tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [GOOD])
    write_catalog(tmp_path / "bad.tools.json", [BAD])
    result = _entry("tools.json", "bad.tools.json", cwd=tmp_path)
    assert result.returncode == 1
    assert "bad.tools.json:" in result.stdout and "DESC-001" in result.stdout


def test_entry_leaves_alone_what_the_config_excludes(tmp_path: Path) -> None:
    (tmp_path / "vendor").mkdir()
    write_catalog(tmp_path / "vendor" / "tools.json", [BAD])
    write_catalog(tmp_path / "tools.json", [GOOD])
    (tmp_path / "catalint.toml").write_text('exclude = ["vendor"]\n')
    result = _entry("tools.json", "vendor/tools.json", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "skipped: exclude covers it" in result.stdout and "DESC-001" not in result.stdout


def test_entry_exits_2_on_a_broken_file(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text('{"tools": [')
    result = _entry("tools.json", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("tools.json:1:")


def test_entry_under_pre_commit_reads_files_named_like_options_as_files(tmp_path: Path) -> None:
    """pre-commit runs entry, the hook's args, then the file names, with no '--' between: click read a
    committed '-o.tools.json' as `-o .tools.json` (it linted '.' and wrote its report there) and
    '--exit-zero.tools.json' as an unknown option. Under pre-commit (PRE_COMMIT=1) the trailing file names
    are put after '--'; an option's value that is a file (--config c.toml) stays the option's."""
    write_catalog(tmp_path / "-o.tools.json", [BAD])
    write_catalog(tmp_path / "--exit-zero.tools.json", [GOOD])
    (tmp_path / "c.toml").write_text('ignore = ["DESC-009"]\n')
    exe = str(BIN) if BIN.exists() else shutil.which("catalint")
    assert exe
    command = [exe, *HOOK["entry"].split()[1:], "--config", "c.toml", "-o.tools.json", "--exit-zero.tools.json"]
    env = {**os.environ, "PRE_COMMIT": "1"}
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False, env=env)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "-o.tools.json:" in result.stdout and "DESC-009" not in result.stdout
    assert "in 2 tools in 2 files" in result.stdout and not (tmp_path / ".tools.json").exists()
    env.pop("PRE_COMMIT")  # by hand, click's reading stands, as for any command line
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False, env=env)
    assert result.returncode == 2 and "No such option" in result.stderr


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_pre_commit_try_repo_end_to_end(tmp_path: Path) -> None:
    pre_commit = Path(sys.executable).with_name("pre-commit")
    if not pre_commit.exists():
        pytest.skip("pre-commit is not installed (pip install -e '.[test]')")
    repo = tmp_path / "project"
    repo.mkdir()
    _git("init", "-q", cwd=repo)
    _git("config", "user.email", "test@example.com", cwd=repo)
    _git("config", "user.name", "test", cwd=repo)
    write_catalog(repo / "tools.json", [GOOD])
    write_catalog(repo / "bad.tools.json", [BAD])
    write_catalog(repo / "-o.tools.json", [BAD])  # a file, not `-o .tools.json`
    (repo / "package.json").write_text("{}")  # not a catalog: the pattern keeps it out
    _git("add", "--", ".", cwd=repo)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("VIRTUAL_ENV", None)
    run = [str(pre_commit), "try-repo", str(ROOT), "catalint", "--all-files"]
    failing = subprocess.run(run, cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "bad.tools.json:" in failing.stdout and "package.json" not in failing.stdout
    assert "-o.tools.json:" in failing.stdout and not (repo / ".tools.json").exists()
    (repo / "bad.tools.json").unlink()
    (repo / "-o.tools.json").unlink()
    _git("add", "-A", cwd=repo)
    passing = subprocess.run(run, cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout
