"""What git ignores below a directory argument, so that its walk skips it, as ruff's respect-gitignore does.

git itself is asked, once a directory argument: the .gitignore files at every level, .git/info/exclude and
the global core.excludesFile all count, exactly as they do for git.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

GIT_TIMEOUT = 30.0  # seconds: a listing that takes longer is given up, and nothing is skipped


def ignored_below(directory: Path) -> frozenset[str] | None:
    """The paths below directory that git ignores, relative to it with '/' (a folder ends with '/': what is
    in it is not listed). None when there is nothing to skip by: no git, not a work tree, or git refusing the
    folder (another user's). The directory itself is never among them: git says './' when all of it is
    ignored, or all it holds, and named on the command line it is walked, as ruff and ripgrep walk a folder
    named to them (by what git lists below it: a folder ignored whole is walked whole)."""
    command = ["git", "-C", str(directory), "ls-files", "--others", "--ignored", "--exclude-standard", "--directory"]
    try:
        done = subprocess.run(
            [*command, "-z"], capture_output=True, timeout=GIT_TIMEOUT, stdin=subprocess.DEVNULL, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return frozenset(os.fsdecode(p) for p in done.stdout.split(b"\0") if p and p != b"./")
