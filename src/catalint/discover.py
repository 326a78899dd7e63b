"""Turn command-line paths into the list of catalog files to lint.

A file named on the command line is always linted. A directory is walked
(symlinked folders are not followed, so link loops cannot hang the walk) and
the files whose names match the `include` globs are linted, skipping folders
and files that match `exclude`. A glob with a `/` matches the path relative to
the directory argument; one without matches the file name.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from catalint.config import Settings, glob_match


def walk_catalogs(directory: Path, settings: Settings) -> Iterator[str]:
    for root, dirs, files in os.walk(directory, followlinks=False):
        base = Path(root)
        rel_root = base.relative_to(directory).as_posix()
        rel_root = "" if rel_root == "." else rel_root + "/"
        dirs[:] = sorted(d for d in dirs if not glob_match(rel_root + d, settings.exclude))
        for name in sorted(files):
            rel = rel_root + name
            if glob_match(rel, settings.include) and not glob_match(rel, settings.exclude):
                yield str(base / name)


def expand(paths: list[str], settings_for_dir: Callable[[Path], Settings]) -> Iterator[str]:
    """Files to lint in order; a missing path is passed through for the loader to report."""
    seen: set[str] = set()
    for path in paths:
        candidate = Path(path)
        if path != "-" and candidate.is_dir():
            found = walk_catalogs(candidate, settings_for_dir(candidate))
        else:
            found = iter([path])
        for file in found:
            key = file if file == "-" else os.path.realpath(file)  # a link to a file already listed: once
            if key not in seen:
                seen.add(key)
                yield file
