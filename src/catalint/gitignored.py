"""What git ignores below a directory argument, so that its walk skips it, as ruff's respect-gitignore does.

git itself is asked, for each directory argument (and again for each repository nested below it): the
.gitignore files at every level, .git/info/exclude and the global core.excludesFile all count, exactly as
they do for git. The folder may come from a stranger's pull request, so git is asked in a way its content
cannot steer: a committed folder laid out as a bare repository is not taken for one (its config could name
a command for core.fsmonitor to run), no fsmonitor runs, and GIT_DIR and its kin from the environment are
dropped (a hook's GIT_DIR would make the folder the top of a work tree and pass over the .gitignore above it).
"""

from __future__ import annotations

import os
import subprocess

GIT_TIMEOUT = 30.0  # seconds: a listing that takes longer is given up, and nothing is skipped
# variables that point git at another repository, work tree or index than the folder's own
_RELOCATING = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_PREFIX")
_SAFE = ("-c", "safe.bareRepository=explicit", "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false")


def ignored_below(directory: str) -> frozenset[str] | None:
    """The paths below directory that git ignores, relative to it with '/' (a folder ends with '/': what is
    in it is not listed). None when there is nothing to skip by: no git, not a work tree, or git refusing the
    folder (another user's). The directory itself is never among them: git says './' when all of it is
    ignored, or all it holds, and named on the command line it is walked, as ruff and ripgrep walk a folder
    named to them (by what git lists below it: a folder ignored whole is walked whole)."""
    command = ["git", *_SAFE, "-C", directory, "ls-files", "--others", "--ignored", "--exclude-standard"]
    env = {name: value for name, value in os.environ.items() if name not in _RELOCATING}
    try:
        done = subprocess.run(
            [*command, "--directory", "-z"],
            capture_output=True,
            timeout=GIT_TIMEOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return frozenset(os.fsdecode(p) for p in done.stdout.split(b"\0") if p and p != b"./")
