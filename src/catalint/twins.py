"""Findings of unchanged tools, copied from a catalog linted already instead of found again.

`catalint diff` lints BASE, then HEAD with the same settings. A tool of HEAD whose object is
identical to its namesake in BASE (the same values of the same types, keys in the same order)
gets, from every tool rule that reads only the tool, the findings of its twin: each moved to the
tool's pointer in HEAD (and located in HEAD's text, when the lint locates findings). Its score
and token counts are its twin's. The rules that read the tool's siblings (Rule.siblings) and the
catalog rules run on HEAD as usual, so HEAD's findings are the ones a whole lint finds. Not
counted for the twins: the file's suppressed findings and the ignores' use, which diff does not
report.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from catalint.config import Settings
from catalint.model import UNPLACED, Catalog, Finding, Tool
from catalint.sourcemap import pointer_in_tool

if TYPE_CHECKING:
    from catalint.engine import FileResult, ToolResult


@dataclass(frozen=True)
class Twins:
    """Tools of a catalog identical to tools of `base`, linted with `settings`."""

    base: FileResult
    settings: Settings
    of: dict[int, ToolResult]  # index of a tool of the catalog -> its twin's result in base


# A twin holds fewer dicts and lists than this, so it nests less deep than diff's own recursive
# comparison of two tools (diff._change, up to two frames a level) could fail at: leaving a twin
# uncompared changes no outcome. Real tools hold up to about 170.
MAX_CONTAINERS = 200


def identical(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two parsed tool objects are one, and can be twins: equal as pickles (which tell 1 from
    1.0 and True, and keep the order of keys), with fewer than MAX_CONTAINERS dicts and lists. Each
    dict or list pickles one "}" or "]" opcode; other bytes (of a string, a number) only add to the count."""
    try:
        data = pickle.dumps(a, 5)
        return data.count(b"}") + data.count(b"]") < MAX_CONTAINERS and data == pickle.dumps(b, 5)
    except RecursionError:  # too deep to pickle: not a twin
        return False


def usable(twins: Twins, settings: Settings, catalog: Catalog, rules: list[tuple[str, bool]]) -> bool:
    """Whether the twins' findings are what linting catalog would find: base linted with these settings,
    none of its findings dropped past the cap, and every ignore covering both files alike. rules: each
    tool rule's code, and whether a per-file ignore covers it in catalog."""
    if twins.settings is not settings or twins.base.dropped:
        return False
    base = twins.base.catalog
    if settings.per_file_ignores:
        base_rel = settings.catalog_rel(base)
        path = base.path if base.path != "-" else None
        if any((settings.file_ignored(base_rel, code, path) is not None) != ignored for code, ignored in rules):
            return False
    return [id(e) for e in settings.tool_ignores(base)] == [id(e) for e in settings.tool_ignores(catalog)]


def copied(
    twin: ToolResult, tool: Tool, catalog: Catalog | None, codes: frozenset[str]
) -> dict[str, list[Finding]] | None:
    """The twin's findings of the rules in codes, by code, moved to tool and located in catalog (None:
    left UNPLACED); None if one lies outside its tool."""
    out: dict[str, list[Finding]] = {}
    for f in twin.findings:
        if f.code not in codes:
            continue
        inner = pointer_in_tool(f.pointer, twin.tool.pointer)
        if inner == f.pointer:  # unchanged: not inside its tool (a tool pointer is never empty)
            return None
        pointer = tool.pointer + inner
        span = catalog.locate(pointer) if catalog is not None else UNPLACED
        moved = Finding(f.code, f.severity, f.tool, pointer, f.message, span, f.suggestion)
        out.setdefault(f.code, []).append(moved)
    return out
