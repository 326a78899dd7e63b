"""What git ignores below a directory argument, so that its walk skips it, as ruff's respect-gitignore does.

git itself is asked, for each directory argument (and again for each repository nested below it): the
.gitignore files at every level, .git/info/exclude and the global core.excludesFile all count, exactly as
they do for git. The folder may come from a stranger's pull request, so git is asked in a way its content
cannot steer: a committed folder laid out as a bare repository is not taken for one (its config could name
a command for core.fsmonitor to run), no fsmonitor runs, no transport is used (a nested partial clone would
fetch a missing .gitignore through its config's uploadpack), and GIT_DIR and its kin from the environment are
dropped (a hook's GIT_DIR would make the folder the top of a work tree and pass over the .gitignore above it).
Repositories nested below a walk are asked within a bound (NESTED_REPOSITORIES, NESTED_SECONDS).
"""

from __future__ import annotations

import os
import subprocess
import time

GIT_TIMEOUT = 30.0  # seconds: a listing that takes longer is given up, and nothing is skipped
# variables that point git at another repository, work tree or index than the folder's own
_RELOCATING = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_PREFIX")
# a folder laid out as a bare repository is not one; no fsmonitor command, and no transport at all (a partial
# clone fetches what its index lacks, running the config's uploadpack)
_SAFE = (
    *("-c", "safe.bareRepository=explicit", "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false"),
    *("-c", "protocol.allow=never"),
)
NESTED_REPOSITORIES = 64  # repositories nested below a walk that are asked too; the others' .gitignore is not read
NESTED_SECONDS = 10.0  # nor once asking them has taken this long in all (a .git folder from an archive is untrusted)


def ignored_below(directory: str, timeout: float = GIT_TIMEOUT) -> frozenset[str] | None:
    """The paths below directory that git ignores, relative to it with '/' (a folder ends with '/': what is
    in it is not listed). None when there is nothing to skip by: no git, not a work tree, or git refusing the
    folder (another user's). The directory itself is never among them: git says './' when all of it is
    ignored, or all it holds, and named on the command line it is walked, as ruff and ripgrep walk a folder
    named to them (by what git lists below it: a folder ignored whole is walked whole)."""
    command = ["git", *_SAFE, "-C", directory, "ls-files", "--others", "--ignored", "--exclude-standard"]
    env = {name: value for name, value in os.environ.items() if name not in _RELOCATING}
    env["GIT_NO_LAZY_FETCH"] = "1"
    try:
        done = subprocess.run(
            [*command, "--directory", "-z"],
            capture_output=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
            env=env,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return frozenset(os.fsdecode(p) for p in done.stdout.split(b"\0") if p and p != b"./")


class Nested:
    """Asks git about the repositories nested below one walk, within NESTED_REPOSITORIES and NESTED_SECONDS."""

    def __init__(self) -> None:
        self.asked = 0
        self.deadline = time.monotonic() + NESTED_SECONDS

    def ignored_below(self, folder: str) -> frozenset[str]:
        left = self.deadline - time.monotonic()
        if self.asked >= NESTED_REPOSITORIES or left <= 0:
            return frozenset()
        self.asked += 1
        return ignored_below(folder, timeout=left) or frozenset()
