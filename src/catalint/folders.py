"""Walking a folder tree without recursion."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator


def walk_folders(
    top: str | os.PathLike[str], onerror: Callable[[OSError], None]
) -> Iterator[tuple[str, list[str], list[str]]]:
    """os.walk(top, followlinks=False), top-down, with a stack of its own: os.walk recurses once a level
    before Python 3.12, so a tree about 1,000 folders deep (a short path, which git commits and clones)
    ended the run in a RecursionError. As there, the caller may prune the folder names it is given, a
    folder that cannot be listed goes to onerror and is not given, and a link to a folder is not entered."""
    stack = [os.fspath(top)]
    while stack:
        root = stack.pop()
        dirs: list[str] = []
        files: list[str] = []
        links: set[str] = set()  # folders named by a link: listed, not entered (told by scandir, no lstat each)
        try:
            with os.scandir(root) as entries:
                for entry in entries:
                    try:
                        is_dir = entry.is_dir()
                    except OSError:
                        is_dir = False
                    (dirs if is_dir else files).append(entry.name)
                    if is_dir and entry.is_symlink():
                        links.add(entry.name)
        except OSError as error:
            onerror(error)
            continue
        yield root, dirs, files
        stack.extend(os.path.join(root, name) for name in reversed(dirs) if name not in links)
