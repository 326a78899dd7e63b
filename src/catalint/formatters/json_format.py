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
        display = fr.catalog.display
        tools = []
        for tr in fr.tools:
            span = fr.catalog.locate(tr.tool.pointer)
            tools.append(
                {
                    "name": tr.tool.name,
                    "pointer": tr.tool.pointer,
                    "line": span.line,
                    "column": span.col,
                    "finding_count": len(tr.findings),
                    "codes": sorted({f.code for f in tr.findings}),
                    "status": "clean" if not tr.findings else "findings",
                }
            )
        files.append(
            {
                "file": display,
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
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
