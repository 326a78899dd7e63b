"""CMP-OAI: what OpenAI function calling refuses (tool names, the root schema, arrays, tool count)."""

from __future__ import annotations

from collections.abc import Iterator

from catalint.model import Tool
from catalint.registry import CatalogHit, Hit, rule
from catalint.rules.compat.shared import (
    array_only,
    name_pointer,
    name_problem,
    renamed,
    root_not_object,
)
from catalint.rules.schema import input_schema_of, nodes

OPENAI_CHARS = "a-zA-Z0-9_-"
OPENAI_NAME_MAX = 64
OPENAI_TOOLS_MAX = 128


@rule(
    "CMP-OAI-001",
    "openai-tool-name",
    "critical",
    "brittle",
    "OpenAI: a tool name falls outside ^[a-zA-Z0-9_-]{1,64}$",
    default=False,
)
def openai_tool_name(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A tool name that is empty, longer than 64 characters, or
    uses anything but ASCII letters, digits, `_` and `-`: a dot, a space, a slash.

    **Why.** OpenAI function names must match `^[a-zA-Z0-9_-]{1,64}$` (OpenAI API
    reference, Chat Completions, `tools[].function.name`, checked 2026-11-22);
    anything else fails the whole request with `Invalid 'tools[0].function.name'`.
    The MCP specification allows more (128 characters, dots), so a name that is
    valid MCP can still be refused. Clients that prefix the server name leave even
    less room.

    **Bad.** `"name": "issues.search"`

    **Good.** `"name": "issues_search"`

    **Fix.** Use letters, digits, `_` and `-` only, at most 64 characters (fewer
    if your clients prefix the server name).
    """
    problem = name_problem(tool.name, OPENAI_CHARS, OPENAI_NAME_MAX)
    if problem:
        yield Hit(
            name_pointer(tool),
            f"OpenAI rejects tool name {tool.name!r}: it {problem} (allowed: 1-64 of [a-zA-Z0-9_-])",
            renamed(tool.name, OPENAI_CHARS, OPENAI_NAME_MAX),
        )


@rule(
    "CMP-OAI-002",
    "openai-root-not-object",
    "critical",
    "brittle",
    'OpenAI: the input schema\'s root type is not "object"',
    default=False,
)
def openai_root_not_object(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** An input schema whose root `type` is missing or anything
    but the string `"object"`: a bare `anyOf`/`oneOf` of objects, `["object",
    "null"]`, or no `type` at all.

    **Why.** OpenAI refuses function parameters that are not a JSON Schema of
    `type: "object"` (`schema must be a JSON Schema of 'type: "object"', got
    'type: "None"'`; OpenAI function calling guide, checked 2026-11-22), strict or
    not. The MCP specification requires the same root (SCH-005), but many servers
    omit it for a union of argument shapes.

    **Bad.** `{"anyOf": [{"type": "object", ...}, {"type": "object", ...}]}`

    **Good.** `{"type": "object", "properties": {...}, "required": [...]}`

    **Fix.** Declare `"type": "object"` at the root; move alternatives into a
    property or merge them into one object.
    """
    found = input_schema_of(tool)
    if found is None:
        return
    hit = root_not_object(*found, "OpenAI rejects the input schema", 'parameters must be of type "object"')
    if hit is not None:
        yield hit


@rule(
    "CMP-OAI-003",
    "openai-array-without-items",
    "critical",
    "brittle",
    "OpenAI: an array schema has no items",
    default=False,
)
def openai_array_without_items(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A schema of type `array` (or `["array", "null"]`),
    anywhere in the input schema, with no `items`; a `prefixItems` tuple without
    `items` included. A type list of several kinds (any value) is not reported.

    **Why.** OpenAI's function-parameter validator refuses it with `In
    context=('properties', 'tags'), array schema missing items.` (OpenAI function
    calling guide; the error as reported by client projects, checked 2026-11-22).
    JSON Schema allows an array without `items` (any items), which is why such
    schemas pass elsewhere.

    **Bad.** `"tags": {"type": "array"}`

    **Good.** `"tags": {"type": "array", "items": {"type": "string"}}`

    **Fix.** Give every array an `items` schema.
    """
    for node in nodes(tool):
        if not node.condition and array_only(node.schema) and "items" not in node.schema:
            yield Hit(node.pointer, f"OpenAI rejects {node.label}: an array schema needs items", 'add "items": {...}')


@rule(
    "CMP-OAI-004",
    "openai-too-many-tools",
    "critical",
    "verbose",
    "OpenAI: the catalog has more than 128 tools",
    scope="catalog",
    default=False,
)
def openai_too_many_tools(tools: list[Tool]) -> Iterator[CatalogHit]:
    """
    **What it catches.** A catalog of more than 128 tools. The 129th tool is
    reported, once.

    **Why.** OpenAI accepts at most 128 tools in one request (`Invalid 'tools':
    array too long. Expected an array with maximum length 128`; OpenAI API
    reference, Chat Completions, `tools`, checked 2026-11-22). A client that sends
    every tool of an MCP server fails every turn; one that combines servers reaches
    the limit sooner.

    **Bad.** a server that lists 150 tools

    **Good.** at most 128, better far fewer, or tools grouped behind a few general ones

    **Fix.** Merge tools that differ only by a parameter, or split the server.
    """
    if len(tools) > OPENAI_TOOLS_MAX:
        first = tools[OPENAI_TOOLS_MAX]
        yield CatalogHit(
            first,
            Hit(
                first.pointer,
                f"OpenAI accepts at most {OPENAI_TOOLS_MAX} tools per request; this catalog has {len(tools)}, "
                f"and {first.name!r} is the first past the limit",
                "merge tools that differ only by a parameter, or split the server",
            ),
        )
