"""SCH-015: a server's own parameters (a method's self, the framework's context) leaked into the input schema."""

from __future__ import annotations

from collections.abc import Iterator

from catalint.arguments import resolve_ref
from catalint.model import Tool
from catalint.registry import Hit, rule
from catalint.rules.schema.common import input_schema_of
from catalint.sourcemap import join_pointer

# Parameters a Python method or handler receives from the language, never from a caller.
RECEIVERS = frozenset({"self", "cls"})
# Types the MCP SDKs hand a handler themselves (lower case, spaces and underscores dropped): one of
# these as a parameter's type in the schema is one the framework did not recognise and strip.
FRAMEWORK_TYPES = frozenset(
    {"context", "ctx", "requestcontext", "calltoolresult", "serversession", "clientsession", "fastmcp"}
)


# Pydantic titles a parameter after its name (`context` -> "Context", `request_context` -> "Request Context"),
# so a title is evidence only for the types no real argument is named after, and only when it is not the
# property's own name.
_TITLE_ONLY = FRAMEWORK_TYPES - {"context", "ctx"}


# What the SDKs' context objects hold, as Pydantic writes their fields: a model named Context with none of
# these (a Kubernetes context of cluster and namespace) is the server's own argument type.
_CONTEXT_FIELDS = frozenset({"requestid", "meta", "session", "lifespancontext", "request", "fastmcp", "requestcontext"})


def _own_model(root: dict[str, object], ref: str) -> bool:
    """Whether a local $ref to a context-named definition reaches the server's own model: one with properties,
    none of them a field of the SDKs' context objects (FastMCP's Context has none at all)."""
    found = resolve_ref(root, ref)
    props = found[0].get("properties") if found is not None and isinstance(found[0], dict) else None
    return isinstance(props, dict) and bool(props) and not any(_key(p) in _CONTEXT_FIELDS for p in props)


def _framework_type(name: str, schema: dict[str, object], root: dict[str, object]) -> str | None:
    """The framework type the $ref (last segment) or title of the property name names, or None."""
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target = ref.rsplit("/", 1)[-1]
        if target.startswith(_QUALIFIED):  # Pydantic's name for colliding models: mcp__server__fastmcp__server__Context
            target = target.rsplit("__", 1)[-1]
        if _key(target) in ("context", "ctx") and _own_model(root, ref):
            return None
        return target if _key(target) in FRAMEWORK_TYPES else None
    title = schema.get("title")
    if not isinstance(title, str) or _key(title) == _key(name):
        return None
    return title if _key(title) in _TITLE_ONLY else None


# The modules of the MCP SDKs, as Pydantic prefixes a definition name with its module path.
_QUALIFIED = ("mcp__", "fastmcp__")


def _key(name: str) -> str:
    return name.replace(" ", "").replace("_", "").lower()


@rule(
    "SCH-015",
    "leaked-internal-argument",
    "critical",
    "brittle",
    "An argument is the server's own (self, cls, or the framework's context object), not the caller's",
)
def leaked_internal_argument(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A top-level property of the input schema that no caller
    can supply: `self` or `cls` (a Python method's receiver), or a property whose
    `$ref` or `title` names a type the MCP SDKs pass to a handler themselves:
    `Context`, `RequestContext`, `CallToolResult`, `ServerSession`,
    `ClientSession`, `FastMCP` (also under the module-qualified name Pydantic
    gives a colliding model, `mcp__server__fastmcp__server__Context`). A `title`
    counts only for the last five, and only when it is not the property's own
    name, since Pydantic titles a parameter after its name (`context` becomes
    "Context", `request_context` "Request Context").
    Properties merely named `context`, `ctx` or `request`, which servers use for
    real arguments (a kubeconfig context, a request body), are left alone, and so
    is a `$ref` to the server's own model named `Context`: a definition with
    properties, none of them a field of the SDKs' context objects (`cluster` and
    `namespace`, not `request_id`, `session` or `lifespan_context`; FastMCP's
    `Context` has no properties at all).

    **Why.** FastMCP builds the input schema from the handler's signature and
    drops the parameter annotated with its `Context` type; a parameter annotated
    with another type (a typo, a wrong import) stays in the schema. The agent is
    then asked for a server-side object it cannot know. Seen live in an AWS IAM
    server (2026): `list_users`, `get_user` and `create_user` required
    `ctx: {"$ref": "#/$defs/CallToolResult"}`, so no call could be valid.

    **Bad.** `"properties": {"ctx": {"$ref": "#/$defs/CallToolResult"}, "user": {...}}, "required": ["ctx", "user"]`

    **Good.** `"properties": {"user": {...}}, "required": ["user"]`

    **Fix.** Annotate the parameter with the framework's context type (FastMCP:
    `ctx: Context`) so that it is injected and left out of the schema, or make it
    a module-level or bound value rather than a parameter.
    """
    found = input_schema_of(tool)
    if found is None:
        return
    schema, pointer = found
    props = schema.get("properties")
    if not isinstance(props, dict):
        return
    required = schema.get("required")
    required = required if isinstance(required, list) else []
    for name, sub in props.items():
        kind = _framework_type(name, sub, schema) if isinstance(sub, dict) else None
        if name in RECEIVERS:
            what = f"argument {name!r} is a Python method's receiver leaked into the schema"
        elif kind is not None:
            what = f"argument {name!r} is typed {kind}, an object of the server's MCP framework, not of the caller"
        else:
            continue
        need = "; it is required, so no call can be valid" if name in required else "; no caller can supply it"
        yield Hit(join_pointer(pointer, "properties", name), what + need, "remove it from the schema")
