"""Turn command-line paths into the list of catalog files to lint.

A file named on the command line is always linted. A directory is walked
(symlinked folders are not followed, so link loops cannot hang the walk) and
the files whose names match the `include` globs are linted, skipping folders
and files that match `exclude`. A glob with a `/` matches the path relative to
the directory argument; one without matches the file name. Below a config file
of its own, a folder is walked by that file's globs, read from its folder.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from catalint.config import CONFIG_NAMES, DEFAULT_INCLUDE, ConfigError, Settings, absolute_glob_match, glob_match
from catalint.folders import walk_folders
from catalint.loader import LoadError, one_name_each, special_kind
from catalint.text import one_line

CONFIG_NAMES_SET = frozenset(CONFIG_NAMES)


def walk_catalogs(
    directory: Path,
    settings: Settings,
    on_problem: Callable[[str, LoadError | str], None] | None = None,
    settings_for_dir: Callable[[Path], Settings] | None = None,
) -> Iterator[str]:
    """The catalog files below directory. A FIFO, socket or device is never yielded (opening a FIFO would
    wait for a writer forever), and a folder that cannot be listed is not passed over in silence: each is
    told to on_problem, with a notice (str) or a LoadError.

    settings_for_dir, when given, finds the config of each folder: below a config file of its own a folder
    is walked by that file's include and exclude, its globs read from that file's folder, as ruff does (so
    `lint .` and `lint sub` pick the same files in sub). Elsewhere settings apply, read from directory."""

    def unlisted(exc: OSError) -> None:
        if on_problem is not None:
            what = exc.strerror or str(exc)
            on_problem(str(exc.filename), LoadError(str(exc.filename), f"cannot list this folder: {what}"))

    below: dict[str, Settings] = {}  # each folder's settings, handed to its subfolders
    ignored: set[str] | None = None  # what git ignores, by the path from the directory argument (a folder's with '/')
    if settings.respect_gitignore:
        from catalint.gitignored import ignored_below

        found, notice = ignored_below(str(directory))
        ignored = set(found or ())
        if notice is not None and on_problem is not None:
            on_problem(str(directory), notice)
    for root, dirs, files in walk_folders(directory, unlisted):
        base = Path(root)
        has_config = not CONFIG_NAMES_SET.isdisjoint(files)  # one git ignores still applies, as in ruff
        if ignored is not None:
            at = "" if root == str(directory) else base.relative_to(directory).as_posix() + "/"
            # a repository of its own: git, asked from above, does not look in
            if at and (".git" in dirs or ".git" in files):
                ignored.update(at + path for path in ignored_below(root, nested=True)[0] or ())
            if ignored:
                dirs[:] = [d for d in dirs if f"{at}{d}/" not in ignored]
                files = [name for name in files if at + name not in ignored]
        here = below.pop(root, settings)
        if settings_for_dir is not None and root != str(directory) and has_config:
            try:  # a config file here (a pyproject.toml may have no table: it says)
                here = settings_for_dir(base)
            except ConfigError:  # said when a catalog below it is linted; a folder of none is no error
                pass
        rel_inc = _rel_root(base, directory, here, "include")
        rel_exc = _rel_root(base, directory, here, "exclude")
        rel_ext = _rel_root(base, directory, here, "extend-exclude")  # a config's, never a flag's

        # an extended config's globs with a folder are absolute (read from its own folder): the walked
        # folder's real path for them, once a folder
        real = os.path.realpath(root) if here.has_absolute_globs() else None
        dirs[:] = sorted(d for d in dirs if not _excluded(d, here, rel_exc, rel_ext, real))
        below.update((os.path.join(root, d), here) for d in dirs)
        for name in sorted(files):
            if _included(name, here, rel_inc, rel_ext, real) and not _excluded(name, here, rel_exc, rel_ext, real):
                kind = special_kind(base / name)
                if kind is None:
                    yield str(base / name)
                elif on_problem is not None:
                    on_problem(
                        str(base / name), one_line(f"{base / name}: notice: skipped: {kind}, not a regular file")
                    )


def _excluded(name: str, here: Settings, rel_exc: str, rel_ext: str, real: str | None = None) -> bool:
    """Whether exclude or extend-exclude covers a name in a walked folder (rel_*: that folder's path for each;
    real: its real path, for the absolute globs of an extended config)."""
    return _takes(name, here.exclude, here.extend_exclude, rel_exc, rel_ext, real)


def _included(name: str, here: Settings, rel_inc: str, rel_ext: str, real: str | None = None) -> bool:
    """Whether include or extend-include takes in a file name in a walked folder."""
    return _takes(name, here.include, here.extend_include, rel_inc, rel_ext, real)


def _takes(name: str, globs: list[str], extended: list[str], rel: str, rel_ext: str, real: str | None) -> bool:
    """Whether a list of globs, or its extend- list (read from rel_ext), takes in a name; absolute globs match
    the real path."""
    return (
        glob_match(rel + name, globs)
        or (bool(extended) and glob_match(rel_ext + name, extended))
        or (real is not None and absolute_glob_match(f"{real}/{name}", [*globs, *extended]))
    )


def _rel_root(base: Path, directory: Path, here: Settings, which: str) -> str:
    """The path of a walked folder that which's globs (include or exclude) with a slash match, "" or ending in
    "/". A config's own, as ruff reads them and as its per-file-ignores are read: from its folder (`lint
    sub/deeper` and `lint sub` skip sub's `deeper/gen` alike; a folder outside it by its whole path), a
    --config's from the working directory. A flag's, or the built-in defaults': from the directory argument."""
    if here.path is not None and not here.flag_globs.get(which):
        rel = here.relative(str(base))
    else:
        rel = base.relative_to(directory).as_posix()
    return "" if rel == "." else rel + "/"


def expand(
    paths: list[str],
    settings_for_dir: Callable[[Path], Settings],
    on_empty: Callable[[str, Settings], None] | None = None,
    on_problem: Callable[[str, LoadError | str, Settings], None] | None = None,
) -> Iterator[str]:
    """Files to lint in order; a missing or unreadable path (one too long to look at, too) is passed
    through for the loader to report.

    on_empty hears of each directory argument in which no file matched, with its settings; on_problem,
    in order among the files, of a folder below one that cannot be listed (a LoadError) and of a FIFO,
    socket or device skipped (a notice).
    """
    if any(p != "-" and os.path.isdir(p) for p in paths):  # only a walk asks git (pre-commit names files)
        from catalint.gitignored import start_run

        start_run()  # git is asked once a run for each folder
    seen: set[str] = set()
    # files named on the command line under several names (a link beside its target, in the order pre-commit or
    # a shell gives them): the one that is not a link, as in a walk, so that its per-file-ignores apply
    named = [p for p in paths if p != "-" and not os.path.isdir(p)]
    kept = one_name_each(named) if len(named) > 1 else set(named)
    for path in paths:
        candidate = Path(path)
        settings = None
        problems = _Problems(on_problem)
        if path != "-" and os.path.isdir(path):  # Path.is_dir() raises on a name too long (Python 3.11)
            settings = problems.settings = settings_for_dir(candidate)
            found = _real_names_first(candidate, settings, problems, settings_for_dir)
        elif path != "-" and path not in kept:
            continue  # another name of the same file comes later
        else:
            found = iter([path])
        matched = False
        for file in found:
            matched = True
            key = file if file == "-" else os.path.realpath(file)  # a link to a file already listed: once
            if key not in seen:
                seen.add(key)
                yield file
        if settings is not None and not matched and not problems.count and on_empty is not None:
            on_empty(path, settings)


def _real_names_first(
    directory: Path,
    settings: Settings,
    problems: Callable[[str, LoadError | str], None],
    settings_for_dir: Callable[[Path], Settings],
) -> Iterator[str]:
    """walk_catalogs, problems told in their place among the files, but where the walk meets one file under
    several names (a symbolic link beside its target), only the first that is not a link: the report names
    the file a user edits, whatever the link's name sorts as."""
    met: list[str | tuple[str, LoadError | str]] = []
    for file in walk_catalogs(directory, settings, lambda where, what: met.append((where, what)), settings_for_dir):
        met.append(file)
    kept = one_name_each([entry for entry in met if isinstance(entry, str)])
    for entry in met:
        if isinstance(entry, str):
            if entry in kept:
                yield entry
        else:
            problems(*entry)


class _Problems:
    """Passes what walk_catalogs finds amiss in one directory argument on, with its settings, and counts it."""

    def __init__(self, on_problem: Callable[[str, LoadError | str, Settings], None] | None) -> None:
        self.on_problem = on_problem
        self.settings = Settings()
        self.count = 0

    def __call__(self, where: str, what: LoadError | str) -> None:
        from catalint.gitignored import Aside

        if not isinstance(what, Aside):  # git not asked is no entry skipped: "no catalog files found" still holds
            self.count += 1
        if self.on_problem is not None:
            self.on_problem(where, what, self.settings)


def no_catalogs_notice(
    directory: str, settings: Settings, settings_for_dir: Callable[[Path], Settings] | None = None
) -> str:
    """What to tell a user whose directory argument matched no file: the globs, and how many JSON or YAML
    files they left out (with the --include that would take them). settings_for_dir: as for the walk, so
    that a file a nested config excludes is not counted."""
    if settings.include == DEFAULT_INCLUDE:
        globs = "the default names: tools.json, *.tools.json, tools-list.json, ... and their .yaml/.yml"
        globs += "".join(", " + g for g in settings.extend_include)
    else:
        globs = ", ".join([*settings.include, *settings.extend_include]) or "none"
    left = _documents(Path(directory), settings, settings_for_dir)
    hint = "name the files, or widen the globs with --include or the include setting"
    if left:
        kinds = sorted({Path(name).suffix for name in left})
        shown = " ".join(f"--include '*{k}'" for k in kinds)
        verb = "matches" if len(left) == 1 else "match"
        hint = f"{len(left)} JSON/YAML file{'s' * (len(left) != 1)} here {verb} none of them ({shown} lints them)"
    if settings.respect_gitignore:  # what git ignores is not walked: say so, without walking it to count
        from catalint.gitignored import ignored_below

        hidden = len(ignored_below(directory)[0] or ())
        if hidden:
            paths = "1 path" if hidden == 1 else f"{hidden} paths"
            hint += f"; git ignores {paths} here, not walked (--no-respect-gitignore walks them)"
    return f"{directory}: notice: no catalog files found (include: {globs}); {hint}"


def _documents(
    directory: Path, settings: Settings, settings_for_dir: Callable[[Path], Settings] | None = None
) -> list[str]:
    """The .json, .yaml and .yml files below a directory, less the excluded ones (walked as walk_catalogs does,
    each folder below a config of its own by that config's exclude)."""

    def wider(s: Settings) -> Settings:
        return replace(s, include=["*.json", "*.yaml", "*.yml"], extend_include=[])

    nested = (lambda folder: wider(settings_for_dir(folder))) if settings_for_dir is not None else None
    return list(walk_catalogs(directory, wider(settings), settings_for_dir=nested))
