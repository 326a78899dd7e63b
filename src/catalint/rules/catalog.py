"""CAT rules: what is wrong with the catalog as a whole (or with a tool's name in it)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from catalint.model import Tool
from catalint.registry import CatalogHit, Hit, rule
from catalint.sourcemap import join_pointer

TOOL_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")


@rule(
    "CAT-001",
    "duplicate-tool-name",
    "critical",
    "brittle",
    "Two tools share a name (or names equal ignoring case)",
    scope="catalog",
)
def duplicate_tool_name(tools: list[Tool]) -> Iterator[CatalogHit]:
    """
    **What it catches.** A tool whose name repeats an earlier tool's name in the
    same file, exactly or ignoring case (`search` and `Search`). The later tool is
    reported, naming the first.

    **Why.** `tools/call` names a tool by its name alone, so two tools with one
    name make one of them unreachable, and clients differ in which one they keep
    (the MCP specification, 2025-11-25, Server features, Tools, "Tool Names":
    names SHOULD be unique within a server). Names that differ only in case collide
    in clients that fold case and confuse the model in the rest.

    **Bad.** two tools named `search`, or `search` and `Search`

    **Good.** `search_issues` and `search_code`

    **Fix.** Rename one of them after what it does differently.
    """
    first: dict[str, Tool] = {}
    for tool in tools:
        key = tool.name.casefold()
        earlier = first.get(key)
        if earlier is None:
            first[key] = tool
            continue
        how = "repeats" if earlier.name == tool.name else "differs only in case from"
        yield CatalogHit(
            tool,
            Hit(
                join_pointer(tool.pointer, "name"),
                f"tool name {tool.name!r} {how} {earlier.name!r} at {earlier.pointer}",
                "give each tool a unique name",
            ),
        )


@rule(
    "CAT-002",
    "invalid-tool-name",
    "warning",
    "brittle",
    "A tool name falls outside the MCP spec's 1-128 characters of [A-Za-z0-9_.-]",
    scope="catalog",
)
def invalid_tool_name(tools: list[Tool]) -> Iterator[CatalogHit]:
    """
    **What it catches.** A tool name that is empty, longer than 128 characters, or
    contains anything other than ASCII letters, digits, `_`, `-` and `.` (spaces,
    `/`, `:`, `@`, non-ASCII letters).

    **Why.** The MCP specification (2025-11-25, Server features, Tools, "Tool
    Names") says names SHOULD be 1 to 128 characters of `A-Z a-z 0-9 _ - .`, with no
    spaces or other characters. Clients and model APIs that map tool names onto
    function names reject or rewrite the rest (the Anthropic and OpenAI tool APIs
    accept at most 64 of `[a-zA-Z0-9_-]`), which breaks calls by name.

    **Bad.** `"name": "get weather"`, `"name": "weather/get"`

    **Good.** `"name": "get_weather"`

    **Fix.** Use letters, digits, `_`, `-` and `.` only.
    """
    for tool in tools:
        name = tool.name
        if TOOL_NAME.fullmatch(name) is not None:
            continue
        if not name:
            what = "is empty"
        elif len(name) > 128:
            what = f"is {len(name)} characters, over 128"
        else:
            bad = sorted({c for c in name if TOOL_NAME.fullmatch(c) is None})
            what = "contains " + ", ".join(repr(c) for c in bad[:5])
        yield CatalogHit(
            tool,
            Hit(
                join_pointer(tool.pointer, "name"),
                f"tool name {name!r} {what}; MCP names are 1-128 characters of [A-Za-z0-9_.-]",
            ),
        )


def _normal(text: str) -> str:
    return " ".join(text.casefold().split())


@rule(
    "CAT-003",
    "duplicate-description",
    "warning",
    "uninformative",
    "Two tools have the same description, so the agent cannot tell them apart",
    scope="catalog",
)
def duplicate_description(tools: list[Tool]) -> Iterator[CatalogHit]:
    """
    **What it catches.** A tool whose description equals an earlier tool's once
    case and runs of whitespace are ignored. Empty descriptions are DESC-001's
    business and are not compared.

    **Why.** The model picks a tool by matching the request against descriptions;
    two identical ones leave it to guess from the names alone. Hasan et al. ("MCP
    Tool Descriptions Are Smelly!", arXiv:2602.14878) count a description that
    does not set the tool apart from its neighbours among the smells that lower
    selection accuracy.

    **Bad.** `list_open_issues` and `list_closed_issues` both described as "List
    issues in a repository."

    **Good.** "List the open issues of a repository, newest first." and "List the
    closed issues of a repository, most recently closed first."

    **Fix.** Say in each description what that tool does that the other does not.
    """
    first: dict[str, Tool] = {}
    for tool in tools:
        text = tool.description
        if not isinstance(text, str) or not text.strip():
            continue
        key = _normal(text)
        earlier = first.get(key)
        if earlier is None:
            first[key] = tool
            continue
        yield CatalogHit(
            tool,
            Hit(
                join_pointer(tool.pointer, "description"),
                f"description is the same as {earlier.name!r}'s ({earlier.pointer}); an agent cannot tell them apart",
                "say what this tool does that the other does not",
            ),
        )
