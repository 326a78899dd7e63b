"""SARIF 2.1.0: one run, the rules from the registry, one result per finding."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from catalint import __version__
from catalint.formatters.github import file_of, repo_path
from catalint.formatters.json_format import encode_line
from catalint.model import Severity
from catalint.registry import Rule, all_rules
from catalint.run import Run
from catalint.sourcemap import pointer_in_tool
from catalint.text import one_line

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {Severity.CRITICAL: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _uri(path: str) -> str:
    """A path as SARIF's artifactLocation.uri wants it: percent-encoded ("my tools.json" ->
    "my%20tools.json"), and a file: URI when absolute (outside the repository). A file name that is not
    UTF-8 (its bytes kept as lone surrogates, as os.fsdecode keeps them) is encoded as the bytes it is."""
    from urllib.parse import quote

    try:  # a file name that is no UTF-8 (Linux) holds its bytes as surrogates: percent-encode those bytes
        data = path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate from a JSON escape (a suite's catalog name)
        data = path.encode("utf-8", "surrogatepass")
    encoded = quote(data, safe="/")
    return f"file://{encoded}" if path.startswith("/") else encoded


def _artifact(uri: str) -> dict[str, str]:
    """An artifactLocation: a relative uri is relative to the repository root, which SARIF names %SRCROOT%."""
    return {"uri": uri} if uri.startswith("file:") else {"uri": uri, "uriBaseId": "%SRCROOT%"}


def help_uri(code: str) -> str:
    """A stable identifier for the rule's documentation (the full text is embedded as help)."""
    return f"urn:catalint:rule:{code}"


def rule_descriptor(r: Rule) -> dict[str, Any]:
    return {
        "id": r.code,
        "name": r.name,
        "shortDescription": {"text": r.summary},
        "fullDescription": {"text": r.explanation.split("\n\n", 1)[0].replace("**What it catches.** ", "")},
        "help": {"text": r.explanation, "markdown": r.explanation},
        "helpUri": help_uri(r.code),
        "defaultConfiguration": {"level": LEVELS[r.severity], "enabled": r.default},
        "properties": {"tags": [r.smell], "smell": r.smell},
    }


# Stands in for the results array while the rest of the document is indented by json.dumps: with
# indent, json.dumps runs the pure-Python encoder, far too slow for tens of thousands of results,
# which are encoded one a line by the C encoder instead.
_RESULTS = "\u0000catalint-results\u0000"

FINGERPRINT = "catalintFinding/v2"


def fingerprints(fr: Any) -> dict[int, tuple[str, str]]:
    """Each finding of one file (by id) with its pointer inside its tool and its fingerprint.

    A fingerprint hashes what diff and --baseline match findings by (rule code, tool name, pointer
    inside the tool), never a line or the tool's place in the tools array: inserting or moving a tool
    leaves every other finding's fingerprint, and so its code scanning alert, as it was. Findings
    alike in all three (two tools of one name, CAT-001) are told apart by ':n', the nth of them in
    file order, as CodeQL numbers equal line hashes: code scanning keeps one alert per fingerprint.
    """
    tool_pointer = {id(f): tr.tool.pointer for tr in fr.tools for f in tr.findings}
    seen: Counter[str] = Counter()
    out: dict[int, tuple[str, str]] = {}
    for f in fr.findings:  # in file order
        inner = pointer_in_tool(f.pointer, tool_pointer[id(f)])
        key = json.dumps([f.code, f.tool, inner])  # ASCII, unambiguous whatever the tool's name holds
        seen[key] += 1
        out[id(f)] = (inner, f"{hashlib.sha256(key.encode()).hexdigest()[:32]}:{seen[key]}")
    return out


def format_sarif(run: Run, statistics: bool = False) -> Iterator[str]:
    """The SARIF document in pieces: the indented frame, then each result as one line, built and
    encoded one at a time, so that a run with many findings never holds them all as dicts or text."""
    rules = all_rules()
    index = {r.code: i for i, r in enumerate(rules)}
    uris = {id(fr): _uri(file_of(fr)) for fr in run.files}  # one per file: resolving a path is a system call or more
    current: list[Any] = [None, {}]  # the file whose fingerprints are at hand, and them

    def result(fr: Any, f: Any) -> dict[str, Any]:
        uri = uris[id(fr)]
        if current[0] is not fr:
            current[:] = [fr, fingerprints(fr)]
        inner, fingerprint = current[1][id(f)]
        span = f.span
        # A suggestion has no edit to carry (a SARIF fix needs artifactChanges): a property bag holds it.
        extra = {"properties": {"suggestion": f.suggestion}} if f.suggestion else {}
        return {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": LEVELS[f.severity],
            "message": {"text": one_line(f"{f.tool}: {f.message}")},  # code scanning shows it as written
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": _artifact(uri),
                        "region": {
                            "startLine": span.line,
                            "startColumn": span.col,
                            "endLine": span.end_line,
                            "endColumn": span.end_col,
                        },
                    },
                    "logicalLocations": [{"name": f.tool, "fullyQualifiedName": f"{f.tool}{inner}", "kind": "member"}],
                }
            ],
            "partialFingerprints": {FINGERPRINT: fingerprint},
            **extra,
        }

    notifications = [
        {
            "level": "error",
            "message": {"text": one_line(e.message)},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": _artifact(_uri(repo_path(e.path))),
                        **({"region": {"startLine": e.line, "startColumn": e.col or 1}} if e.line else {}),
                    }
                }
            ],
        }
        for e in run.errors
    ]
    doc = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "catalint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "rules": [rule_descriptor(r) for r in rules],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "invocations": [{"executionSuccessful": not run.errors, "toolExecutionNotifications": notifications}],
                "results": _RESULTS,
            }
        ],
    }
    before, after = (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").split(json.dumps(_RESULTS), 1)
    if not run.findings:
        yield before + "[]" + after
        return
    yield before + "[\n"
    inner = " " * 8  # results sit in runs[0], three levels down
    last = len(run.findings) - 1
    for i, (fr, f) in enumerate(run.findings):
        yield inner + encode_line(result(fr, f)) + (",\n" if i < last else "\n")
    yield "      ]" + after
