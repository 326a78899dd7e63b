"""Where a setting is written in a TOML config file, for errors that tomllib cannot place.

tomllib gives positions for syntax errors only; a bad value (`select = ["DESC-999"]`) is found
after parsing. This scans the text line by line for the table header or the key that holds it:
enough for config files as people write them (one key a line, inline tables on one line). When
it cannot tell, it says nothing rather than guess.
"""

from __future__ import annotations

import json
import re

from catalint.text import lines_of

_BASIC = r'"(?:[^"\\]|\\.)*"'  # a basic string, escapes and all: "tool[\"x\"].score"
_PIECE = rf"""[A-Za-z0-9_-]+|{_BASIC}|'[^']*'"""
_HEADER = re.compile(r"\s*(\[\[?)\s*([^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(rf"""\s*((?:{_PIECE})(?:\s*\.\s*(?:{_PIECE}))*)\s*=""")
_PART = re.compile(_PIECE)


def _parts(dotted: str) -> list[str]:
    return [_unquote(p) for p in _PART.findall(dotted)]


def _unquote(piece: str) -> str:
    if piece[:1] == "'":
        return piece[1:-1]
    if piece[:1] == '"':
        try:  # TOML's escapes are JSON's, but for \UXXXXXXXX (and \e): those stay as written
            return str(json.loads(piece, strict=False))  # a tab may be written as it is
        except ValueError:
            return piece[1:-1]
    return piece


def locate(text: str, path: list[str | int], base: list[str], value: bool = False) -> tuple[int, int] | None:
    """1-based (line, column) of the setting at path (keys below the catalint table `base`, such as
    ["severity", "DESC-001"]; an int picks an element of an array of tables), or None. With value, the
    column of its value (`select = "DESC"`: the quote) when the key itself was found on a line."""
    table: list[str] = []
    seen: dict[tuple[str, ...], int] = {}  # array-of-tables headers met so far, by name
    best: tuple[int, int, int] | None = None  # (keys matched, line, column)
    full = [*base, *map(str, path)]
    for number, line in enumerate(lines_of(text), 1):
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
        reached = _reached(keys, full)
        if reached is None:
            continue
        column, after = found.start(1) + 1, found.end()
        # inline tables may hold the rest: `severity = { DESC-001 = "info" }`, even the catalint table
        # itself (`catalint = { select = 5 }` under [tool]); an int is an array element, not a key
        while reached < len(full) and len(keys) <= reached:
            inline = _inline(line, after, full[reached])
            if inline is None:
                break
            reached, column, after = reached + 1, inline[0], inline[1]
        here = reached - len(base)
        if here <= 0:
            continue
        if value and len(keys) <= len(full) and here == len(path):  # not `tool.other.x = 1` for "tool"
            column = _value_column(line, after, column)
        best = _better(best, (here, number, column))
        if best[0] == len(path):
            break
    return (best[1], best[2]) if best is not None else None


def _reached(keys: list[str], full: list[str]) -> int | None:
    """How many of full's keys a key line `keys` (in full) spells out, if it lies on that path; one that goes
    on below it (`[tool.other]` for an unknown setting 'tool') reaches all of it."""
    n = min(len(keys), len(full))
    return n if keys[:n] == full[:n] else None


def _depth(base: list[str], keys: list[str], path: list[str | int]) -> int | None:
    """How many of path's keys a header `keys` (in full) reaches, if it lies on path; one that goes on
    below path (`[tool.other]` for an unknown setting 'tool') reaches all of it."""
    if keys[: len(base)] != base or len(keys) == len(base):
        return None
    below = keys[len(base) :][: len(path)]
    if below != [str(p) for p in path[: len(below)]]:
        return None
    return len(below)


def _inline(line: str, start: int, key: str) -> tuple[int, int] | None:
    """The column of `key = ` inside an inline table that starts after `start`, and the index just
    past its `=`."""
    spelled = "|".join(re.escape(k) for k in dict.fromkeys([f'"{key}"', f"'{key}'", key, _basic(key)]))
    found = re.compile(rf"""[{{,]\s*({spelled})\s*=""").search(line, start)
    return (found.start(1) + 1, found.end()) if found else None


def _basic(key: str) -> str:
    """key as a TOML basic string with its quotes and backslashes escaped (JSON's escapes are TOML's)."""
    return json.dumps(key, ensure_ascii=False)


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
