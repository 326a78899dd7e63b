"""CMP-OAI: what OpenAI function calling refuses (tool names, the root schema, arrays, tool count)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

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
# Keywords OpenAI refuses beside a root "type": "object", strict or not, in the order its error names them.
OPENAI_ROOT_COMPOSITION = ("oneOf", "anyOf", "allOf", "enum", "const", "not")


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
    "null"]`, or no `type` at all. A root of type `"object"` can still be
    refused: see CMP-OAI-005 (no `properties`) and CMP-OAI-006 (composition
    beside it).

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


def object_root(tool: Tool) -> tuple[dict[str, Any], str] | None:
    """The input schema and its pointer when its root is typed "object" (else CMP-OAI-002 has the finding)."""
    found = input_schema_of(tool)
    return found if found is not None and found[0].get("type") == "object" else None


def root_composition(schema: dict[str, Any]) -> list[str]:
    """The keywords beside a root "type": "object" that OpenAI refuses at the top level."""
    return [key for key in OPENAI_ROOT_COMPOSITION if key in schema]


@rule(
    "CMP-OAI-005",
    "openai-root-without-properties",
    "critical",
    "brittle",
    'OpenAI: the input schema\'s "type": "object" root has no properties',
    default=False,
)
def openai_root_without_properties(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** An input schema whose root is `"type": "object"` with no
    `properties` key at all: `{"type": "object"}`, or `{"type": "object",
    "additionalProperties": false}` for a tool that takes no arguments. An empty
    `"properties": {}` is not reported, nor is a root that CMP-OAI-002 (no object
    type) or CMP-OAI-006 (composition at the root) already reports.

    **Why.** OpenAI refuses such a function, strict or not, and with it the whole
    request: `Invalid schema for function '...': In context=(), object schema
    missing properties.` (code `invalid_function_parameters`). The error as
    reported by client projects sending MCP tools, checked 2026-11-22:
    github/copilot-cli#1825 (2026-03, a root of only `type` and
    `additionalProperties: false`), posit-dev/mcptools#89 (2026-02, GPT-4.1),
    everruns/everruns#984 (2026-03, the Responses API), github/github-mcp-server#1548
    (2025-12). JSON Schema and MCP allow the bare object, and MCP SDKs emit it for
    a tool without arguments, so the server passes every other check.

    **Bad.** `"inputSchema": {"type": "object"}`

    **Good.** `"inputSchema": {"type": "object", "properties": {}}`

    **Fix.** Always write `properties`, empty for a tool without arguments.
    """
    found = object_root(tool)
    if found is not None and "properties" not in found[0] and not root_composition(found[0]):
        yield Hit(
            found[1],
            'OpenAI rejects the input schema: a "type": "object" root needs "properties" (object schema missing '
            "properties)",
            'add "properties": {} (empty for a tool without arguments)',
        )


@rule(
    "CMP-OAI-006",
    "openai-root-composition",
    "critical",
    "brittle",
    'OpenAI: the input schema has oneOf, anyOf, allOf, enum, const or not beside its "object" root type',
    default=False,
)
def openai_root_composition(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** Each `oneOf`, `anyOf`, `allOf`, `enum`, `const` or
    `not` on an input schema whose root is `"type": "object"`: "one of these
    argument sets", "at least one of these", an `allOf` of `if`/`then`
    conditions. A root without that type is CMP-OAI-002's finding, whatever else
    it holds; the same keywords inside a property are not reported here.

    **Why.** OpenAI refuses the function, strict or not, and with it the whole
    request: `Invalid schema for function '...': schema must have type 'object'
    and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level.` (code
    `invalid_function_parameters`). The error as reported by client projects
    sending MCP tools, checked 2026-11-22: nspady/google-calendar-mcp#39 (Chat
    Completions), langchain-ai/langchainjs#9804 (a root `allOf`),
    Dicklesworthstone/flywheel_connectors#49 (2026-05, Codex, a root `anyOf`
    beside `"type": "object"`); feigeCode/navop#247 (2026-09) quotes the current
    wording, which also names `'const'`. JSON Schema allows these keywords at the
    root, and MCP servers write them for arguments that depend on each other.

    **Bad.** `{"type": "object", "properties": {"id": {...}, "url": {...}},
    "anyOf": [{"required": ["id"]}, {"required": ["url"]}]}`

    **Good.** the same without the root `anyOf`, "give id or url" in the
    description, and the check in the server

    **Fix.** Remove the keyword from the root: move alternatives into a property,
    or make the properties optional and check the combination in the server.
    """
    found = object_root(tool)
    if found is None:
        return
    schema, base = found
    for key in root_composition(schema):
        yield Hit(
            f"{base}/{key}",
            f"OpenAI rejects the input schema: {key} is not allowed at the top level, strict or not",
            "move the alternatives into a property, or check them in the server"
            if key.endswith("Of") or key == "not"
            else "remove it: the root must be an object of properties",
        )
