"""What git ignores below a directory argument, so that its walk skips it, as ruff's respect-gitignore does.

git itself is asked, once a run for each directory argument and for each repository nested below one: the
.gitignore files at every level, .git/info/exclude and the global core.excludesFile all count, exactly as
they do for git. The folder may come from a stranger's pull request, so git is asked in a way its content
cannot steer: a committed folder laid out as a bare repository is not taken for one (its config could name
a command for core.fsmonitor to run), no fsmonitor runs, no transport is allowed whatever a repository's
config says (a nested partial clone would fetch a missing .gitignore through its config's uploadpack), and
GIT_DIR and its kin from the environment are dropped (a hook's GIT_DIR would make the folder the top of a work
tree and pass over the .gitignore above it). Repositories nested below the walks are asked within one bound a
run (NESTED_REPOSITORIES, NESTED_SECONDS).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from time import monotonic as _now

from catalint.text import one_line

GIT_TIMEOUT = 30.0  # seconds: a listing that takes longer is given up, and nothing is skipped for git's sake
# variables that point git at another repository, work tree or index than the folder's own
_RELOCATING = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_PREFIX")
# a folder laid out as a bare repository is not one; no fsmonitor command
_SAFE = ("-c", "safe.bareRepository=explicit", "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false")
# no transport: GIT_ALLOW_PROTOCOL names the only protocols allowed, over any protocol.<name>.allow of a
# repository's config (a -c protocol.allow=never is not: protocol.file.allow=always in the config wins), and
# GIT_NO_LAZY_FETCH stops a partial clone's fetch where git knows it (2.39.4 and later)
_NO_TRANSPORT = {"GIT_ALLOW_PROTOCOL": "none", "GIT_NO_LAZY_FETCH": "1"}
NESTED_REPOSITORIES = 64  # repositories nested below the walks that are asked; the others' .gitignore is not read
NESTED_SECONDS = 10.0  # nor once asking them has taken this long in all: a .git folder from an archive is untrusted


class Aside(str):
    """A notice about the walk (git could not be asked), not about a file: it does not stand for one skipped."""


class _Run:
    """What one run asked git: each folder's answer (as a directory argument, and as a nested repository: asked
    quietly, it is no answer for the other), the time spent asking nested repositories and how many, and the
    causes already said (a dubious-ownership checkout would say it once a submodule)."""

    def __init__(self) -> None:
        self.answers: dict[tuple[str, bool], frozenset[str] | None] = {}
        self.nested = 0
        self.nested_seconds = 0.0
        self.said: set[str] = set()


_run = _Run()


def start_run() -> None:
    """Forget what earlier runs in this process asked (tests run many), and start the nested bound anew."""
    global _run
    _run = _Run()


def ignored_below(directory: str, nested: bool = False) -> tuple[frozenset[str] | None, Aside | None]:
    """The paths below directory that git ignores, relative to it with '/' (a folder ends with '/': what is in
    it is not listed), and a notice when git should have been asked about a directory argument and could not
    be, once a cause a run (None for none). The paths are None when there is nothing to skip by: not a work
    tree, no git, git refusing the folder. A nested repository is asked on a best-effort basis: past the bound,
    or when git fails there, nothing is said (the walk goes on as git, asked from above, left it). The
    directory itself is never among them: git says './' when all of it is ignored, or all it holds, and named
    on the command line it is walked, as ruff and ripgrep walk a folder named to them (by what git lists below
    it: a folder ignored whole is walked whole)."""
    key = (os.path.abspath(directory), nested)
    if key in _run.answers:
        return _run.answers[key], None  # a notice was said the first time
    timeout = GIT_TIMEOUT
    if nested:
        timeout = NESTED_SECONDS - _run.nested_seconds
        if _run.nested >= NESTED_REPOSITORIES or timeout <= 0:
            return None, None
        _run.nested += 1
    started = _now()
    found, cause = _ask(directory, timeout)
    if nested:
        _run.nested_seconds += _now() - started
    _run.answers[key] = found
    if cause is None or nested or cause in _run.said:
        return found, None
    _run.said.add(cause)
    return found, Aside(one_line(f"{directory}: notice: what git ignores here is linted: {cause}"))


def _ask(directory: str, timeout: float) -> tuple[frozenset[str] | None, str | None]:
    """git's list, or why there is none worth a notice (None for none: not a repository)."""
    command = ["git", *_SAFE, "-C", directory, "ls-files", "--others", "--ignored", "--exclude-standard"]
    env = {name: value for name, value in os.environ.items() if name not in _RELOCATING} | _NO_TRANSPORT
    try:
        done = subprocess.run(
            [*command, "--directory", "-z"], capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL, env=env
        )
    except subprocess.TimeoutExpired:
        return None, f"git did not list it within {timeout:.0f} s"
    except OSError as exc:  # no git: worth saying only where there is a repository to ask about
        return None, (f"git cannot be run ({exc.strerror or exc})" if _in_work_tree(directory) else None)
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        fatal = next((line.removeprefix("fatal: ") for line in lines if line.startswith("fatal: ")), "")
        if not fatal or fatal.startswith("not a git repository"):
            return None, None
        if "dubious ownership" in fatal:  # git's own hint, in short
            fatal += "; git config --global --add safe.directory FOLDER allows it"
        return None, f"git refused the folder ({fatal})"
    return frozenset(os.fsdecode(p) for p in done.stdout.split(b"\0") if p and p != b"./"), None


def _in_work_tree(directory: str) -> bool:
    """Whether a folder at or above directory holds a .git (a work tree's, or a submodule's file)."""
    folder = Path(os.path.abspath(directory))
    return any((place / ".git").exists() for place in (folder, *folder.parents))
