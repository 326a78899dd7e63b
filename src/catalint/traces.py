"""Recorded agent runs: read trace files into runs of tool calls.

A trace is one run: `{"tool_calls": [{name, server?, args?, error?|is_error?,
result?}], "conversation": {"tokens": {"total": N}}, "cost": X, "prompt": ...}`.
A file holds one run (a JSON/YAML object), several (a JSON array of them), or
one run per line (JSON Lines: `.jsonl`, `.ndjson`); a folder holds such files.
What a trace records about a call is data to score, not an error: a call with
no name or with non-object args counts against `orchestration.syntax`. What
cannot be read as runs at all is a LoadError (exit 2) with file:line:col.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalint.folders import walk_folders
from catalint.loader import (
    LoadError,
    decode_bytes,
    looks_like_yaml,
    one_name_each,
    parse_json,
    parse_yaml,
    read_stdin,
    read_text,
    special_kind,
)
from catalint.model import Catalog
from catalint.text import lines_of

TRACE_SUFFIXES = (".json", ".jsonl", ".ndjson", ".yaml", ".yml")
# Runs read at once (a command's traces, or a scenario's): evaluations record thousands; 3.6 million empty
# runs, a 64 MB JSONL file, took 87 s and 7 GB.
MAX_RUNS = 100_000
JSONL_SUFFIXES = (".jsonl", ".ndjson")
_CLAUDE_NAME = re.compile(r"^mcp__(.+?)__(.+)$")  # mcp__SERVER__TOOL, as some agents record calls


@dataclass(frozen=True)
class Call:
    index: int  # 1-based within its run
    name: str  # "" when the trace gives no usable name
    server: str | None
    args: Any  # {} when the call records none
    errored: bool
    raw_name: Any = None  # the recorded name when it is not a non-empty string

    @property
    def id(self) -> str:
        return f"{self.server}.{self.name}" if self.server else self.name

    @property
    def shown(self) -> str:
        return self.id if self.name else f"<no name: {self.raw_name!r}>"


@dataclass
class Run:
    number: int  # 1-based over all inputs, in the order given
    label: str  # where it came from: "runs.jsonl:3", "run.json", "runs.json[2]"
    calls: list[Call]
    tokens: int | None = None  # conversation.tokens.total
    cost: float | None = None
    prompt: str | None = None
    file: str = ""  # the file it was read from, as its label names it ("runs[1].jsonl" for "runs[1].jsonl:3")


class Resolver:
    """Gives each call its server: the recorded one, else the one catalog that has the tool."""

    def __init__(self, catalogs: dict[str, Catalog], padding: list[dict[str, Any]] | None = None) -> None:
        self.catalogs = catalogs
        self.padding = {t["name"]: t for t in padding or []}  # distractors the agent saw, on any server
        self.owners: dict[str, list[str]] = {}
        self.by_id: dict[tuple[str, str], dict[str, Any]] = {}
        for server, catalog in catalogs.items():
            for tool in catalog.tools:
                if (server, tool.name) not in self.by_id:
                    self.owners.setdefault(tool.name, []).append(server)
                    self.by_id[(server, tool.name)] = tool.raw

    def resolve(self, name: str, server: str | None) -> tuple[str, str | None]:
        if server:
            return name, server
        found = _CLAUDE_NAME.match(name)
        if found:  # the agent recorded the server in the name, catalog or not
            return found.group(2), found.group(1)
        owners = self.owners.get(name, [])
        if len(owners) == 1:
            return name, owners[0]
        if not owners and len(self.catalogs) == 1:
            return name, next(iter(self.catalogs))
        return name, None

    def tool(self, call: Call) -> dict[str, Any] | None:
        """The catalog entry the call names, or None when no catalog has it."""
        servers = [call.server] if call.server else self.owners.get(call.name, [])
        for server in servers:
            found = self.by_id.get((server or "", call.name))
            if found is not None:
                return found
        return self.padding.get(call.name)


def resolved(runs: list[Run], resolver: Resolver) -> list[Run]:
    """The runs with each call's server filled in from the catalogs where the trace left it out."""
    from dataclasses import replace

    out = []
    for run in runs:
        calls = []
        for call in run.calls:
            name, server = resolver.resolve(call.name, call.server) if call.name else (call.name, call.server)
            calls.append(replace(call, name=name, server=server))
        out.append(replace(run, calls=calls))
    return out


def trace_files(path: str, notice: Callable[[str], None] | None = None) -> list[str]:
    """A file as given, or the trace files below a folder (sorted, so run numbers are stable). A FIFO, a
    socket or a device below a folder is never opened (a FIFO would wait for a writer forever): it is
    skipped, and told to notice, as lint skips one below a directory."""
    if path == "-" or not os.path.isdir(path):  # Path.is_dir() raises on a name too long
        return [path]

    def unlisted(exc: OSError) -> None:  # a run left out would change every score, so it stops the run
        raise LoadError(str(exc.filename), f"cannot list this folder: {exc.strerror or exc}")

    children = []
    for root, _dirs, files in walk_folders(path, unlisted):
        children.extend(Path(root, name) for name in files if Path(name).suffix.lower() in TRACE_SUFFIXES)
    files: list[str] = []
    skipped: list[tuple[Path, str]] = []
    for child in sorted(children):
        kind = special_kind(child)
        if kind is not None:
            skipped.append((child, kind))
        elif child.is_file():
            files.append(str(child))
    kept = one_name_each(files)  # a symbolic link beside its target: read once, by the target's name
    found = [file for file in files if file in kept]
    if not found:  # one line, which says why when a file was skipped
        why = f"; {skipped[0][0]} is {skipped[0][1]}, not a regular file" if skipped else ""
        raise LoadError(path, f"no trace files ({', '.join('*' + s for s in TRACE_SUFFIXES)}) in this folder{why}")
    if notice is not None:
        for child, kind in skipped:
            notice(f"{child}: notice: skipped: {kind}, not a regular file")
    return found


def load_runs(
    paths: list[str], notice: Callable[[str], None] | None = None, read: list[str] | None = None
) -> list[Run]:
    """The runs recorded in paths, as recorded: resolved() gives calls their servers. notice hears of the
    files below a folder that are skipped (see trace_files); read, when given, gets every file read."""
    runs: list[Run] = []
    for path in paths:
        for file in trace_files(path, notice):
            if read is not None:
                read.append(file)
            for label, data, span in _documents(file):
                for sub_label, sub_pointer, value in _runs_of(label, data):
                    if len(runs) == MAX_RUNS:
                        line, col = span(sub_pointer)
                        message = f"more than {MAX_RUNS:,} runs: catalint scores at most {MAX_RUNS:,} runs at once"
                        raise LoadError(file, message, line, col, sub_pointer or None)
                    runs.append(_run(len(runs) + 1, sub_label, value, file, span, sub_pointer))
    return runs


def _documents(file: str) -> Iterator[tuple[str, Any, Any]]:
    """(label, data, span(pointer) -> (line, col)) for each document in the file, one at a time: a JSONL line
    is read when the one before it has been taken."""
    if file == "-":
        text = decode_bytes(read_stdin("-"), "-")
    else:
        text = read_text(file)
    if not text.strip():
        raise LoadError(file, "empty file")
    if file.lower().endswith(JSONL_SUFFIXES) or (file == "-" and _looks_like_jsonl(text)):
        for number, line in enumerate(lines_of(text), start=1):
            if not line.strip():
                continue
            try:
                data, _ = parse_json(line, file)
            except LoadError as exc:
                raise LoadError(file, exc.message, number, exc.col) from None
            yield f"{file}:{number}", data, _line_span(line, file, number)
        return
    data, source = parse_yaml(text, file) if looks_like_yaml(file, text) else parse_json(text, file)
    yield file, data, _doc_span(source)


def _looks_like_jsonl(text: str) -> bool:
    """Standard input holding one JSON object a line (a pretty-printed document has lines of other kinds)."""
    lines = [line.strip() for line in lines_of(text) if line.strip()]
    return len(lines) > 1 and all(line.startswith("{") and line.endswith("}") for line in lines)


def _doc_span(source: Any) -> Any:
    def span(pointer: str) -> tuple[int, int]:
        where = source.span(pointer)
        return where.line, where.col

    return span


def _line_span(line: str, file: str, number: int) -> Any:
    """A JSONL line's positions, its source map made only when an error needs one (a map a line held
    100,000 runs to 7 GB)."""

    def span(pointer: str) -> tuple[int, int]:
        return number, parse_json(line, file)[1].span(pointer).col

    return span


def _runs_of(label: str, data: Any) -> list[tuple[str, str, Any]]:
    if isinstance(data, list):
        return [(f"{label}[{i}]", f"/{i}", item) for i, item in enumerate(data)]
    return [(label, "", data)]


def _run(number: int, label: str, data: Any, file: str, span: Any, base: str) -> Run:
    def fail(message: str, pointer: str) -> LoadError:
        line, col = span(base + pointer)
        return LoadError(file, message, line, col, base + pointer or None)

    if not isinstance(data, dict):
        raise fail(f"a trace must be an object with a tool_calls array, got {_kind(data)}", "")
    calls_data = data.get("tool_calls")
    if not isinstance(calls_data, list):
        what = "no tool_calls array" if calls_data is None else f"tool_calls is {_kind(calls_data)}, not an array"
        raise fail(f"a trace needs a tool_calls array: {what}", "/tool_calls" if "tool_calls" in data else "")
    calls = []
    for i, item in enumerate(calls_data):
        pointer = f"/tool_calls/{i}"
        if not isinstance(item, dict):
            raise fail(f"a tool call must be an object, got {_kind(item)}", pointer)
        server = item.get("server")
        if server is not None and not isinstance(server, str):
            raise fail(f"a call's server must be a string, got {_kind(server)}", pointer + "/server")
        raw_name = item.get("name")
        name = raw_name if isinstance(raw_name, str) else ""
        for flag in ("is_error", "isError"):  # a string "true" must not read as a success
            if item.get(flag) is not None and not isinstance(item[flag], bool):
                raise fail(f"a call's {flag} must be true or false, got {_kind(item[flag])}", f"{pointer}/{flag}")
        key = "args" if "args" in item else "arguments"
        args = item.get(key, {})
        calls.append(Call(i + 1, name, server or None, args, _errored(item), None if name else raw_name))
    tokens = _number(data, ("conversation", "tokens", "total"), fail, integer=True)
    cost = _number(data, ("cost",), fail, integer=False)
    prompt = data.get("prompt")
    if prompt is not None and not isinstance(prompt, str):
        raise fail(f"prompt must be a string, got {_kind(prompt)}", "/prompt")
    return Run(number, label, calls, tokens, cost, prompt, file)


def _errored(call: dict[str, Any]) -> bool:
    if call.get("is_error") is True or call.get("isError") is True:
        return True
    error = call.get("error")
    if error not in (None, False, "", {}, []):
        return True
    result = call.get("result")
    return isinstance(result, dict) and result.get("isError") is True


def _number(data: dict[str, Any], path: tuple[str, ...], fail: Any, integer: bool) -> Any:
    value: Any = data
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    if value is None:
        return None
    pointer = "/" + "/".join(path)
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 10**18
    if not ok or (integer and not float(value).is_integer()):
        want = "a non-negative integer" if integer else "a non-negative number"
        want += " below 10**18"
        raise fail(f"{'.'.join(path)} must be {want}, got {value!r}", pointer)
    return int(value) if integer else float(value)


def _kind(value: Any) -> str:
    from catalint.loader import json_kind

    return json_kind(value)
