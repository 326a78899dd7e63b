"""Generate a deterministic, realistic MCP `tools/list` catalog for benchmarks.

    python benchmarks/generate.py N OUT.json [--seed SEED]

or, as a module: `generate_catalog(n, seed)` / `write_catalog(n, path, seed)`.
The same N and seed always give byte-identical output.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

Schema = dict[str, Any]

VERBS = (
    "get", "list", "create", "update", "delete", "search", "fetch", "send", "upload", "download",
    "archive", "restore", "sync", "export", "import", "validate", "schedule", "cancel", "approve",
    "assign", "merge", "publish", "render", "summarize", "translate", "resolve", "tag", "move",
    "rename", "count",
)  # fmt: skip
NOUNS = (
    "issue", "pull_request", "commit", "branch", "file", "folder", "message", "channel", "user",
    "team", "invoice", "payment", "customer", "order", "product", "ticket", "event", "calendar",
    "document", "page", "record", "table", "query", "dashboard", "alert", "metric", "log", "deployment",
    "container", "secret", "webhook", "subscription", "report", "contact", "lead", "task", "project",
    "comment", "label", "release",
)  # fmt: skip
QUALIFIERS = (
    "", "", "", "", "recent", "all", "draft", "shared", "archived", "pending", "team", "org", "bulk",
    "remote", "local", "public", "private",
)  # fmt: skip
ACCESSES = ("by id", "by name", "in a workspace", "for the current user", "in a project", "across all accounts")
FIELDS = ("id", "title", "status", "author", "created_at", "updated_at", "url", "owner", "size", "tags")
FORMATS = ("date-time", "email", "uri", "uuid", "date")
ENUMS = (
    ("asc", "desc"),
    ("open", "closed", "all"),
    ("low", "medium", "high", "urgent"),
    ("json", "csv", "markdown"),
    ("created_at", "updated_at", "priority"),
    ("draft", "published", "archived"),
    ("c", "f", "k"),
)
PROP_NAMES = (
    "id", "query", "limit", "offset", "cursor", "page_size", "sort", "order", "status", "owner", "repo",
    "path", "content", "title", "body", "tags", "labels", "since", "until", "timezone", "dry_run",
    "include_archived", "recursive", "format", "priority", "assignee", "email", "url", "filter", "options",
    "metadata", "workspace_id", "project_id", "branch", "message", "force", "locale", "fields",
)  # fmt: skip
FILLER = (
    "Results are paginated; pass the cursor from the previous page to continue.",
    "Requires the caller to have write access to the workspace.",
    "Rate limited to 60 requests per minute per token; back off on HTTP 429.",
    "Times are interpreted in UTC unless a timezone is given.",
    "Deleted items are kept for 30 days and can be restored during that window.",
    "Large payloads are streamed and may take several seconds to complete.",
    "The operation is idempotent when the same request id is supplied.",
    "Only the first 10,000 matches are considered; narrow the query for more.",
    "Markdown in text fields is preserved as written and rendered by the client.",
    "Webhooks are fired asynchronously after the change is committed.",
)


def _tool_name(rng: random.Random, used: set[str]) -> str:
    verb, noun, qual = rng.choice(VERBS), rng.choice(NOUNS), rng.choice(QUALIFIERS)
    if verb in ("list", "search", "count", "export", "sync"):
        noun = _plural(noun)
    name = "_".join(p for p in (verb, qual, noun) if p)
    base, i = name, 2
    while name in used:
        name, i = f"{base}_v{i}", i + 1
    used.add(name)
    return name


def _plural(noun: str) -> str:
    if noun.endswith(("ch", "sh", "s", "x")):
        return noun + "es"
    if noun.endswith("y") and noun[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def _human(name: str) -> str:
    return name.replace("_", " ")


def _description(rng: random.Random, name: str) -> str | None:
    """A tool description; None means the key is left out."""
    words = name.split("_")
    verb, obj = words[0], " ".join(words[1:])
    good = f"{verb.capitalize()} {obj} {rng.choice(ACCESSES)}."
    returns = f" Returns {', '.join(rng.sample(FIELDS, rng.randint(2, 5)))} as JSON."
    kind = rng.choices(
        ("missing", "empty", "short", "repeat", "good", "no_return", "long", "positional", "bullets", "cjk"),
        weights=(4, 3, 6, 3, 42, 20, 9, 3, 6, 2),
    )[0]
    if kind == "missing":
        return None
    if kind == "empty":
        return rng.choice(("", "   "))
    if kind == "short":
        return rng.choice((obj.capitalize(), f"{verb} {obj}", "Does stuff.", "TODO"))
    if kind == "repeat":
        return rng.choice((_human(name), name, _human(name).title() + "."))
    if kind == "good":
        extra = " ".join(rng.sample(FILLER, rng.randint(0, 2)))
        return f"{good}{returns} {extra}".strip()
    if kind == "no_return":
        return f"{good} {rng.choice(FILLER)}"
    if kind == "long":
        body = " ".join(rng.sample(FILLER, rng.randint(7, 10)))
        return f"{good}{returns} {body}\n\nNotes:\n" + "\n".join(f"- {f}" for f in rng.sample(FILLER, 3))
    if kind == "positional":
        return f"{good} Use the same filters as the previous tool; see above for the cursor format."
    if kind == "bullets":
        values = rng.choice(ENUMS)
        bullets = "\n".join(f"- '{v}' - {rng.choice(FILLER).lower()}" for v in values)
        return f"{good}{returns}\n\nOptions are:\n{bullets}"
    return f"{obj}を取得し、結果をJSONで返します。ページングに対応しています。"


def _prop_description(rng: random.Random, prop: str, kind: str, enum: tuple[str, ...] | None) -> str | None:
    roll = rng.random()
    if roll < 0.22:
        return None
    if roll < 0.25:
        return ""
    text = f"The {_human(prop)} to use."
    if enum is not None:
        if rng.random() < 0.6:
            text = f"Which {_human(prop)}: {', '.join(enum)}."
        else:
            text = f"Controls the {_human(prop)} of the result."
    elif kind == "string" and rng.random() < 0.15:
        values = rng.choice(ENUMS)
        text = f"The {_human(prop)}; must be one of {', '.join(values[:-1])} or {values[-1]}."
    elif rng.random() < 0.2:
        sample = {"string": rng.choice(("2026-01-31", "acme/widgets", "Berlin")), "boolean": "true"}.get(kind, "42")
        text += f" For example {sample}."
    if rng.random() < 0.06:
        text += " " + " ".join(rng.sample(FILLER, 4))  # argument longer than its tool
    return text


def _leaf(rng: random.Random, prop: str) -> Schema:
    kind = rng.choices(("string", "integer", "number", "boolean", "enum", "array"), weights=(40, 15, 5, 12, 15, 13))[0]
    enum: tuple[str, ...] | None = None
    schema: Schema
    if kind == "string":
        schema = {"type": "string"}
        if rng.random() < 0.2:
            schema["format"] = rng.choice(FORMATS)
        if rng.random() < 0.1:
            schema["maxLength"] = rng.choice((64, 256, 4096))
    elif kind in ("integer", "number"):
        schema = {"type": kind, "minimum": 0}
        if rng.random() < 0.5:
            schema["maximum"] = rng.choice((10, 100, 1000))
    elif kind == "boolean":
        schema = {"type": "boolean"}
    elif kind == "enum":
        enum = rng.choice(ENUMS)
        schema = {"type": "string", "enum": list(enum)}
    else:
        items: Schema = {"type": "string"}
        if rng.random() < 0.25:
            enum = rng.choice(ENUMS)
            items["enum"] = list(enum)
        schema = {"type": "array", "items": items}
        if rng.random() < 0.3:
            schema["maxItems"] = rng.choice((10, 50, 100))
    desc = _prop_description(rng, prop, kind, enum)
    if desc is not None:
        schema = {**schema, "description": desc}
    if rng.random() < 0.12:
        schema["examples"] = [_example(schema, enum)]
    if rng.random() < 0.18 and kind != "array":
        schema["default"] = _example(schema, enum)
    return schema


def _example(schema: Schema, enum: tuple[str, ...] | None) -> Any:
    if enum is not None:
        return [enum[0]] if schema["type"] == "array" else enum[0]
    return {"string": "example", "integer": 10, "number": 1.5, "boolean": False, "array": ["a", "b"]}[schema["type"]]


def _object(rng: random.Random, n_props: int, depth: int, defs: Schema) -> Schema:
    props: Schema = {}
    for prop in rng.sample(PROP_NAMES, n_props):
        roll = rng.random()
        if depth < 2 and roll < 0.1:
            sub = _object(rng, rng.randint(1, 4), depth + 1, defs)
            if rng.random() < 0.7:
                sub["description"] = f"Options for {_human(prop)}."
            props[prop] = sub
        elif depth < 3 and roll < 0.16:
            name = rng.choice(("Filter", "Pagination", "Author", "Attachment"))
            if name not in defs:
                defs[name] = _object(rng, rng.randint(1, 3), depth + 1, defs)
                if name == "Filter" and rng.random() < 0.5:  # a recursive definition
                    defs[name]["properties"]["and"] = {"type": "array", "items": {"$ref": "#/$defs/Filter"}}
            ref: Schema = {"$ref": f"#/$defs/{name}"}
            if rng.random() < 0.3:
                ref = {"type": "array", "items": ref, "description": f"List of {name.lower()} objects."}
            props[prop] = ref
        elif roll < 0.2:
            props[prop] = {"anyOf": [_leaf(rng, prop), {"type": "null"}]}
        else:
            props[prop] = _leaf(rng, prop)
    schema: Schema = {"type": "object", "properties": props}
    if props and rng.random() < 0.65:
        schema["required"] = sorted(rng.sample(list(props), rng.randint(1, min(3, len(props)))))
    if rng.random() < 0.3:
        schema["additionalProperties"] = False
    return schema


def _input_schema(rng: random.Random) -> Schema:
    defs: Schema = {}
    schema = _object(rng, rng.choices(range(9), weights=(8, 14, 16, 16, 14, 12, 10, 6, 4))[0], 0, defs)
    if defs:
        schema["$defs"] = defs
    return schema


def _annotations(rng: random.Random, name: str) -> Any:
    roll = rng.random()
    if roll < 0.35:
        return ...  # no annotations key
    if roll < 0.37:
        return None
    if roll < 0.40:
        return {}
    read_only = name.split("_")[0] in ("get", "list", "search", "fetch", "count", "export", "download")
    hints: dict[str, Any] = {"title": _human(name).capitalize(), "readOnlyHint": read_only}
    if not read_only:
        hints["destructiveHint"] = name.startswith(("delete", "archive", "merge"))
        hints["idempotentHint"] = rng.random() < 0.5
    hints["openWorldHint"] = rng.random() < 0.3
    if rng.random() < 0.08:  # a bad, non-boolean hint
        hint = rng.choice(("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"))
        hints[hint] = rng.choice(("true", "false", 1, 0, None, "yes"))
    return hints


def _output_schema(rng: random.Random) -> Schema:
    fields = rng.sample(FIELDS, rng.randint(2, 6))
    return {
        "type": "object",
        "properties": {f: {"type": "string"} for f in fields},
        "required": fields[:1],
    }


SCHEMA_DEFECTS = (
    "draft07", "bad_type", "typo", "bad_default", "dangling_ref", "network_ref", "bool_required",
    "bad_name", "undeclared_required", "untyped", "opaque", "empty_enum", "output_array", "no_schema",
)  # fmt: skip


def _schema_defect(rng: random.Random, tool: dict[str, Any]) -> None:
    """Give about one tool in ten one schema problem, so that every SCH rule fires somewhere."""
    schema = tool["inputSchema"]
    props = schema["properties"]
    kind = rng.choice(SCHEMA_DEFECTS)
    if kind == "draft07":  # valid: a draft-07 tuple
        schema["$schema"] = "http://json-schema.org/draft-07/schema#"
        props["pair"] = {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "maxItems": 2}
    elif kind == "bad_type":
        props["count"] = {"type": "int", "description": "How many."}
    elif kind == "typo":
        props["note"] = {"type": "string", "maxLength": 200, "descripton": "A note."}
    elif kind == "bad_default":
        props["page"] = {"type": "integer", "minimum": 1, "default": "first"}
    elif kind == "dangling_ref":
        props["author"] = {"$ref": "#/$defs/Person"}
    elif kind == "network_ref":
        props["address"] = {"$ref": "https://example.com/schemas/address.json"}
    elif kind == "bool_required":
        props["token"] = {"type": "string", "maxLength": 64, "required": True}
    elif kind == "bad_name":
        props["user name"] = {"type": "string", "maxLength": 64}
    elif kind == "undeclared_required":
        schema["required"] = [*schema.get("required", []), "identifier"]
    elif kind == "untyped":
        props["value"] = {"description": "Any value."}
    elif kind == "opaque":
        props["payload"] = {"type": "object", "description": "The payload."}
    elif kind == "empty_enum":
        props["mode"] = {"type": "string", "enum": []}
    elif kind == "output_array":
        tool["outputSchema"] = {"type": "array", "items": {"type": "string"}}
    else:
        del tool["inputSchema"]


def generate_tool(rng: random.Random, used: set[str]) -> dict[str, Any]:
    name = _tool_name(rng, used)
    tool: dict[str, Any] = {"name": name}
    if rng.random() < 0.3:
        tool["title"] = _human(name).title()
    desc = _description(rng, name)
    if desc is not None:
        tool["description"] = desc
    tool["inputSchema"] = _input_schema(rng)
    if rng.random() < 0.2:
        tool["outputSchema"] = _output_schema(rng)
    annotations = _annotations(rng, name)
    if annotations is not ...:
        tool["annotations"] = annotations
    if rng.random() < 0.03:
        tool["examples"] = [{"arguments": {}}]
    if rng.random() < 0.1:
        _schema_defect(rng, tool)
    return tool


def generate_catalog(n: int, seed: int = 20260101) -> dict[str, Any]:
    rng = random.Random(f"{seed}:{n}")
    used: set[str] = set()
    tools = [generate_tool(rng, used) for _ in range(n)]
    for i in range(7, n, 97):  # now and then a name that differs from another only in case (CAT-001)
        tools[i]["name"] = tools[i - 5]["name"].upper()
    return {"tools": tools}


def write_catalog(n: int, path: Path, seed: int = 20260101) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(generate_catalog(n, seed), indent=2, ensure_ascii=False) + "\n"
    path.write_text(text, encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("n", type=int, help="number of tools")
    parser.add_argument("out", type=Path, help="output JSON file")
    parser.add_argument("--seed", type=int, default=20260101)
    args = parser.parse_args(argv)
    if args.n < 0:
        parser.error("N must be >= 0")
    write_catalog(args.n, args.out, args.seed)


if __name__ == "__main__":
    main()
