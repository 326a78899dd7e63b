"""Machine-readable output: every finding, every checked tool, errors and notices."""

from __future__ import annotations

import json
from typing import Any

from catalint import __version__
from catalint.model import Finding
from catalint.registry import get_rule
from catalint.run import Run


def finding_dict(f: Finding, file: str) -> dict[str, Any]:
    r = get_rule(f.code)
    span = f.span
    return {
        "code": f.code,
        "name": r.name if r else None,
        "severity": str(f.severity),
        "smell": r.smell if r else None,
        "tool": f.tool,
        "pointer": f.pointer,
        "message": f.message,
        "suggestion": f.suggestion,
        "file": file,
        "line": span.line if span else None,
        "column": span.col if span else None,
        "end_line": span.end_line if span else None,
        "end_column": span.end_col if span else None,
    }


def format_json(run: Run, statistics: bool = False) -> str:
    files = []
    for fr in run.files:
        tools = []
        for tr in fr.tools:
            line, column = fr.catalog.start(tr.tool.pointer)
            tools.append(
                {
                    "name": tr.tool.name,
                    "pointer": tr.tool.pointer,
                    "line": line,
                    "column": column,
                    "finding_count": len(tr.findings),
                    "codes": sorted({f.code for f in tr.findings}),
                    "status": "clean" if not tr.findings else "findings",
                }
            )
        files.append(
            {
                "file": fr.catalog.display,
                "tools": tools,
                "suppressed": fr.suppressed,
                "fail_severity": str(fr.fail_severity),
            }
        )
    doc = {
        "catalint": __version__,
        "findings": [finding_dict(f, fr.catalog.display) for fr, f in run.findings],
        "files": files,
        "errors": [
            {"file": e.path, "line": e.line, "column": e.col, "pointer": e.pointer, "message": e.message}
            for e in run.errors
        ],
        "notices": run.notices,
        "summary": {
            "files": len(run.files),
            "tools": run.tool_count,
            "findings": len(run.findings),
            "by_severity": dict(sorted(run.by_severity().items())),
            "by_rule": dict(sorted(run.by_rule().items())),
            "failed": run.failing(),
        },
    }
    return dumps(doc) + "\n"


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode  # no indent: the C encoder


def dumps(value: Any, indent: str = "", depth: int = 0) -> str:
    """Indented JSON in which each finding and each tool sits on one line.

    Objects are expanded at the top two levels and wherever they hold a list of
    objects; everything else goes through the C encoder in one call (indent=...
    would fall back to the much slower pure-Python one).
    """
    if not value or not isinstance(value, (dict, list)):
        return _ENCODE(value)
    inner = indent + "  "
    if isinstance(value, dict):
        holds_list = any(isinstance(v, list) and v and isinstance(v[0], dict) for v in value.values())
        if depth >= 2 and not holds_list:
            return _ENCODE(value)
        body = ",\n".join(f"{inner}{_ENCODE(k)}: {dumps(v, inner, depth + 1)}" for k, v in value.items())
        return "{\n" + body + "\n" + indent + "}"
    if not isinstance(value[0], (dict, list)):
        return _ENCODE(value)
    body = ",\n".join(inner + dumps(v, inner, depth + 1) for v in value)
    return "[\n" + body + "\n" + indent + "]"
