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

from catalint.config import DEFAULT_INCLUDE, Settings, glob_match


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


def expand(
    paths: list[str],
    settings_for_dir: Callable[[Path], Settings],
    on_empty: Callable[[str, Settings], None] | None = None,
) -> Iterator[str]:
    """Files to lint in order; a missing path is passed through for the loader to report.

    on_empty hears of each directory argument in which no file matched, with its settings.
    """
    seen: set[str] = set()
    for path in paths:
        candidate = Path(path)
        settings = None
        if path != "-" and candidate.is_dir():
            settings = settings_for_dir(candidate)
            found = walk_catalogs(candidate, settings)
        else:
            found = iter([path])
        matched = False
        for file in found:
            matched = True
            key = file if file == "-" else os.path.realpath(file)  # a link to a file already listed: once
            if key not in seen:
                seen.add(key)
                yield file
        if settings is not None and not matched and on_empty is not None:
            on_empty(path, settings)


def no_catalogs_notice(directory: str, settings: Settings) -> str:
    """What to tell a user whose directory argument matched no file: the globs, and how many JSON or YAML
    files they left out (with the --include that would take them)."""
    if settings.include == DEFAULT_INCLUDE:
        globs = "the default names: tools.json, *.tools.json, tools-list.json, ... and their .yaml/.yml"
    else:
        globs = ", ".join(settings.include) or "none"
    left = _documents(Path(directory), settings)
    hint = "name the files, or widen the globs with --include or the include setting"
    if left:
        kinds = sorted({Path(name).suffix for name in left})
        shown = " ".join(f"--include '*{k}'" for k in kinds)
        verb = "matches" if len(left) == 1 else "match"
        hint = f"{len(left)} JSON/YAML file{'s' * (len(left) != 1)} here {verb} none of them ({shown} lints them)"
    return f"{directory}: notice: no catalog files found (include: {globs}); {hint}"


def _documents(directory: Path, settings: Settings) -> list[str]:
    """The .json, .yaml and .yml files below a directory, less the excluded ones (walked as walk_catalogs does)."""
    wider = Settings(include=["*.json", "*.yaml", "*.yml"], exclude=settings.exclude)
    return list(walk_catalogs(directory, wider))
