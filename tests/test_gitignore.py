"""respect-gitignore: what a directory walk skips because git ignores it, asked of git in a way a pull request's
content cannot steer (a review found the first version ran a command a committed folder chose)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import write_catalog as write_one

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

TOOL = {"name": "get_time", "description": "Get the current time. Returns an ISO 8601 string.", "inputSchema": {}}


def write_catalog(path: Path, tools: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_one(path, tools)


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def shown(cli, *args: str) -> list[str]:
    result = cli("lint", "--show-files", "--output-format", "json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_a_committed_folder_laid_out_as_a_bare_repository_runs_nothing(cli, tmp_path: Path) -> None:
    """git takes such a folder for a repository and obeys its config: core.fsmonitor names a command that
    `git ls-files` ran, from a plain clone of the pull request."""
    marker = tmp_path / "ran"
    git("init", "-q", str(tmp_path / "repo"), cwd=tmp_path)
    payload = tmp_path / "repo" / "payload"
    for part in ("objects", "refs"):
        (payload / part).mkdir(parents=True)
        (payload / part / ".keep").write_text("")
    (payload / "HEAD").write_text("ref: refs/heads/main\n")
    (payload / "config").write_text(
        "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n"
        f'\tfsmonitor = "touch {marker}; false"\n'
    )
    write_catalog(payload / "tools.json", [TOOL])
    os.chdir(tmp_path / "repo")
    assert shown(cli, "payload") == ["payload/tools.json"]
    assert not marker.exists()
    # nor does the repository's own config (a developer's clone, a runner's) run one for a walk
    git("config", "core.fsmonitor", f"touch {marker}; false", cwd=tmp_path / "repo")
    assert shown(cli, ".") == ["payload/tools.json"]
    assert not marker.exists()


def test_git_dir_in_the_environment_does_not_move_the_top_of_the_work_tree(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a hook's GIT_DIR made the walked folder the top of the work tree: the root's .gitignore was passed over
    git("init", "-q", str(tmp_path), cwd=tmp_path)
    (tmp_path / ".gitignore").write_text("dist/\n")
    for rel in ("sub/tools.json", "sub/dist/tools.json"):
        write_catalog(tmp_path / rel, [TOOL])
    assert shown(cli, "sub") == ["sub/tools.json"]
    for value in (str(tmp_path / ".git"), ".git"):
        monkeypatch.setenv("GIT_DIR", value)
        assert shown(cli, "sub") == ["sub/tools.json"]


def test_a_config_file_git_ignores_still_applies(cli, tmp_path: Path) -> None:
    # as in ruff: `lint .` passed over sub's ignored catalint.toml, which `lint sub` read
    git("init", "-q", str(tmp_path), cwd=tmp_path)
    (tmp_path / ".gitignore").write_text("catalint.toml\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "catalint.toml").write_text('exclude = ["gen"]\n')
    for rel in ("sub/tools.json", "sub/gen/tools.json"):
        write_catalog(tmp_path / rel, [TOOL])
    assert shown(cli, ".") == shown(cli, "sub") == ["sub/tools.json"]


def test_a_repository_nested_below_the_walk_has_its_own_gitignore_read(cli, tmp_path: Path) -> None:
    # git, asked from above, does not look inside another repository: inner/dist was linted from the top only
    git("init", "-q", str(tmp_path), cwd=tmp_path)
    git("init", "-q", str(tmp_path / "inner"), cwd=tmp_path)
    (tmp_path / "inner" / ".gitignore").write_text("dist/\n")
    for rel in ("tools.json", "inner/tools.json", "inner/dist/tools.json"):
        write_catalog(tmp_path / rel, [TOOL])
    assert shown(cli, ".") == ["tools.json", "inner/tools.json"]
    assert shown(cli, "inner") == ["inner/tools.json"]
    assert shown(cli, ".", "--no-respect-gitignore") == ["tools.json", "inner/tools.json", "inner/dist/tools.json"]


def test_a_nested_partial_clone_fetches_nothing(cli, tmp_path: Path, allow_file: bool = False) -> None:
    """A .git folder below the walk (from an archive, a cache) may be a partial clone whose index names a
    .gitignore it lacks: git fetched it through the config's uploadpack, a command of the folder's choosing."""
    marker = tmp_path / "ran"
    git("init", "-q", str(tmp_path), cwd=tmp_path)
    nested = tmp_path / "nested"
    git("init", "-q", str(nested), cwd=tmp_path)
    (nested / ".gitignore").write_text("x.json\n")
    git("add", ".gitignore", cwd=nested)
    git("update-index", "--skip-worktree", ".gitignore", cwd=nested)
    (nested / ".gitignore").unlink()
    blob = subprocess.run(["git", "ls-files", "-s", ".gitignore"], cwd=nested, capture_output=True, text=True)
    oid = blob.stdout.split()[1]
    (nested / ".git" / "objects" / oid[:2] / oid[2:]).unlink()
    for key, value in (
        ("core.repositoryformatversion", "1"),
        ("extensions.partialClone", "origin"),
        ("remote.origin.url", str(tmp_path)),
        ("remote.origin.promisor", "true"),
        ("remote.origin.uploadpack", f"touch {marker}; false"),
        *([("protocol.file.allow", "always")] if allow_file else []),
    ):
        git("config", key, value, cwd=nested)
    write_catalog(nested / "tools.json", [TOOL])
    os.chdir(tmp_path)
    assert shown(cli, ".") == ["nested/tools.json"]
    assert not marker.exists()


def test_a_repositorys_config_cannot_allow_a_transport_back(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """protocol.file.allow=always in the nested config beat a -c protocol.allow=never; on a git older than
    2.39.4, which does not know GIT_NO_LAZY_FETCH, the fetch then ran (here: that variable left out)."""
    from catalint import gitignored

    monkeypatch.setattr(gitignored, "_NO_TRANSPORT", {"GIT_ALLOW_PROTOCOL": "none"})
    test_a_nested_partial_clone_fetches_nothing(cli, tmp_path, allow_file=True)


def test_repositories_nested_below_a_walk_are_asked_within_a_bound(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from catalint import gitignored

    monkeypatch.setattr(gitignored, "NESTED_REPOSITORIES", 1)
    git("init", "-q", str(tmp_path), cwd=tmp_path)
    for name in ("a", "b"):
        git("init", "-q", str(tmp_path / name), cwd=tmp_path)
        (tmp_path / name / ".gitignore").write_text("dist/\n")
        write_catalog(tmp_path / name / "dist" / "tools.json", [TOOL])
    assert shown(cli, ".") == ["b/dist/tools.json"]  # a was asked; b, past the bound, was not


def test_the_bound_on_nested_repositories_holds_for_the_whole_run(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # it held for each walk: a folder with no catalog was walked twice (the notice's count), each time afresh
    from catalint import gitignored

    monkeypatch.setattr(gitignored, "NESTED_REPOSITORIES", 1)
    asked: list[str] = []
    real = gitignored._ask
    monkeypatch.setattr(gitignored, "_ask", lambda folder, timeout: asked.append(folder) or real(folder, timeout))
    git("init", "-q", str(tmp_path), cwd=tmp_path)
    for name in ("d1/a", "d1/b", "d2/c"):
        git("init", "-q", str(tmp_path / name), cwd=tmp_path)
    result = cli("lint", "d1", "d2")
    assert result.exit_code == 0 and "no catalog files found" in result.stdout
    assert sorted(Path(p).name for p in asked) == ["a", "d1", "d2"]  # each once; one nested in all


def test_no_git_where_there_is_a_repository_is_said(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git("init", "-q", str(tmp_path), cwd=tmp_path)
    (tmp_path / ".gitignore").write_text("dist/\n")
    write_catalog(tmp_path / "dist" / "tools.json", [TOOL])
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    result = cli("lint", "--show-files", ".")
    assert result.stdout.splitlines() == ["dist/tools.json"]  # nothing to skip it by
    assert result.stderr.startswith(".: notice: what git ignores here is linted: git cannot be run (")
    os.chdir(tmp_path / "dist")
    (tmp_path / ".git").rename(tmp_path / "was-git")  # no repository: nothing to say
    assert cli("lint", "--show-files", ".").stderr == ""


def test_a_git_notice_leaves_no_catalogs_found_said_and_is_said_once_a_cause(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It counted as an entry skipped, and hid the notice with the --include hint; and a checkout git refused
    said it again for every submodule (GitHub shows 10 notices a step)."""
    git("init", "-q", str(tmp_path), cwd=tmp_path)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "other.json").write_text("{}")
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    result = cli("lint", "a", "b")
    said = result.stdout + result.stderr
    assert "a: notice: no catalog files found (include: " in said and "--include '*.json' lints them" in said
    assert said.count("what git ignores here is linted: git cannot be run") == 1


def test_a_nested_repository_is_asked_quietly_and_on_a_clock_of_its_own(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from catalint import gitignored

    git("init", "-q", str(tmp_path), cwd=tmp_path)
    git("init", "-q", str(tmp_path / "inner"), cwd=tmp_path)
    (tmp_path / "inner" / ".gitignore").write_text("dist/\n")
    write_catalog(tmp_path / "inner" / "dist" / "tools.json", [TOOL])
    write_catalog(tmp_path / "bad" / "gen" / "tools.json", [TOOL])
    (tmp_path / "bad" / ".git").write_text("not a gitfile\n")  # git, from above, reads bad/ as a folder
    (tmp_path / ".gitignore").write_text("bad/gen/\n")
    real, clock = gitignored._ask, [0.0]
    monkeypatch.setattr(gitignored, "_now", lambda: clock[0])

    def slow_top(folder: str, timeout: float) -> tuple[frozenset[str] | None, str | None]:
        if Path(folder) == tmp_path:
            clock[0] += gitignored.NESTED_SECONDS + 1  # the top's listing took longer than the nested bound
        return real(folder, timeout)

    monkeypatch.setattr(gitignored, "_ask", slow_top)
    result = cli("lint", "--show-files", str(tmp_path))
    assert result.stdout.splitlines() == []  # inner/dist still skipped: the nested clock starts at inner
    assert "what git ignores" not in result.stderr  # bad/'s refusal is not said: the listing from above covered it


def test_a_folder_asked_quietly_as_a_nested_repository_is_asked_again_as_an_argument(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `lint . sub`: sub's quiet answer as a nested repository stood for the argument, whose notice was lost
    from catalint import gitignored

    real = gitignored._ask

    def refusing_sub(folder: str, timeout: float) -> tuple[frozenset[str] | None, str | None]:
        return (
            (None, "git refused the folder (detected dubious ownership)")
            if folder.endswith("sub")
            else real(folder, timeout)
        )

    monkeypatch.setattr(gitignored, "_ask", refusing_sub)
    git("init", "-q", str(tmp_path), cwd=tmp_path)
    git("init", "-q", str(tmp_path / "sub"), cwd=tmp_path)
    write_catalog(tmp_path / "sub" / "tools.json", [TOOL])
    for args in ((".", "sub"), ("sub", ".")):
        result = cli("lint", "--show-files", *args)
        assert result.stderr.count("sub: notice: what git ignores here is linted: git refused the folder") == 1


def test_a_folder_named_twice_is_said_once(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git("init", "-q", str(tmp_path), cwd=tmp_path)
    write_catalog(tmp_path / "a" / "tools.json", [TOOL])
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    for args in (("a", "./a/"), ("a", "a"), ("a", str(tmp_path / "a"))):
        assert cli("lint", "--show-files", *args).stderr.count("git cannot be run") == 1, args


def test_the_nested_bound_counts_the_time_spent_asking_nested_repositories_only(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a later argument's slow listing of its own used up the clock: b's nested repository went unasked
    from catalint import gitignored

    real, clock = gitignored._ask, [0.0]
    monkeypatch.setattr(gitignored, "_now", lambda: clock[0])

    def slow_b(folder: str, timeout: float) -> tuple[frozenset[str] | None, str | None]:
        if Path(folder).name == "b":
            clock[0] += gitignored.NESTED_SECONDS + 1
        return real(folder, timeout)

    monkeypatch.setattr(gitignored, "_ask", slow_b)
    git("init", "-q", str(tmp_path), cwd=tmp_path)
    for name in ("a", "b"):
        git("init", "-q", str(tmp_path / name / "inner"), cwd=tmp_path)
        (tmp_path / name / "inner" / ".gitignore").write_text("dist/\n")
        write_catalog(tmp_path / name / "inner" / "dist" / "tools.json", [TOOL])
        write_catalog(tmp_path / name / "tools.json", [TOOL])
    assert cli("lint", "--show-files", "a", "b").stdout.splitlines() == ["a/tools.json", "b/tools.json"]
