"""Where a setting is written in a TOML config file, for errors that tomllib cannot place.

tomllib gives positions for syntax errors only; a bad value (`select = ["DESC-999"]`) is found
after parsing. This scans the text line by line for the table header or the key that holds it:
enough for config files as people write them (one key a line, inline tables on one line). When
it cannot tell, it says nothing rather than guess.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"\s*(\[\[?)\s*([^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"""\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=""")
_PART = re.compile(r"""[A-Za-z0-9_-]+|"[^"]*"|'[^']*'""")


def _parts(dotted: str) -> list[str]:
    return [p[1:-1] if p[:1] in "\"'" else p for p in _PART.findall(dotted)]


def locate(text: str, path: list[str | int], base: list[str], value: bool = False) -> tuple[int, int] | None:
    """1-based (line, column) of the setting at path (keys below the catalint table `base`, such as
    ["severity", "DESC-001"]; an int picks an element of an array of tables), or None. With value, the
    column of its value (`select = "DESC"`: the quote) when the key itself was found on a line."""
    table: list[str] = []
    seen: dict[tuple[str, ...], int] = {}  # array-of-tables headers met so far, by name
    best: tuple[int, int, int] | None = None  # (keys matched, line, column)
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header:
            table = _parts(header.group(2))
            if header.group(1) == "[[":
                key = tuple(table)
                seen[key] = seen.get(key, -1) + 1
                table = [*table, str(seen[key])]
            here = _depth(base, table, path)
            if here is not None:
                best = _better(best, (here, number, line.index("[") + 1))
            continue
        found = _KEY.match(line)
        if not found:
            continue
        keys = table + _parts(found.group(1))
        here = _depth(base, keys, path)
        if here is None:
            continue
        value_here = value and len(keys) - len(base) <= len(path)  # not `tool.other.x = 1` for "tool"
        column, after = found.start(1) + 1, found.end()
        if here < len(path):  # an inline table may hold the rest: `severity = { DESC-001 = "info" }`
            inline = _inline(line, found.end(), str(path[here]))  # an int: an array element, not a key
            if inline is not None:
                here, column, after = here + 1, inline[0], inline[1]
        if value_here and here == len(path):
            column = _value_column(line, after, column)
        best = _better(best, (here, number, column))
        if best[0] == len(path):
            break
    return (best[1], best[2]) if best is not None else None


def _depth(base: list[str], keys: list[str], path: list[str]) -> int | None:
    """How many of path's keys `keys` (a header or key, in full) reaches, if it lies on path; one that goes
    on below path (`[tool.other]` for an unknown setting 'tool') reaches all of it."""
    if keys[: len(base)] != base or len(keys) == len(base):
        return None
    below = keys[len(base) :][: len(path)]
    if below != [str(p) for p in path[: len(below)]]:
        return None
    return len(below)


def _inline(line: str, start: int, key: str) -> tuple[int, int] | None:
    """The column of `key = ` inside an inline table that starts after `start`, and the index just
    past its `=`."""
    k = re.escape(key)
    found = re.compile(rf"""[{{,]\s*("{k}"|'{k}'|{k})\s*=""").search(line, start)
    return (found.start(1) + 1, found.end()) if found else None


def _value_column(line: str, after: int, column: int) -> int:
    """The column of the value that starts after index `after` (just past its `=`); column when the
    line holds none there (a value on the next line)."""
    rest = line[after:]
    stripped = rest.lstrip(" \t")
    if not stripped or stripped.startswith("#"):
        return column
    return after + len(rest) - len(stripped) + 1


def _better(old: tuple[int, int, int] | None, new: tuple[int, int, int]) -> tuple[int, int, int]:
    return new if old is None or new[0] > old[0] else old
