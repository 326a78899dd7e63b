"""Machine-readable output: every finding, every checked tool, errors and notices."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from catalint import __version__
from catalint.model import Finding, Severity
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
        "line": span.line,
        "column": span.col,
        "end_line": span.end_line,
        "end_column": span.end_col,
    }


class FindingEncoder:
    """_ENCODE(finding_dict(f, file)), built from pieces: a large report has many findings but few
    distinct rules, tools and files, whose encodings are kept; only the message and the pointer
    are encoded each time. Several times cheaper than building and encoding a dict per finding."""

    def __init__(self) -> None:
        self._heads: dict[tuple[str, Severity], str] = {}
        self._names: dict[str, str] = {}
        self._files: dict[str, str] = {}

    def __call__(self, f: Finding, file: str) -> str:
        head = self._heads.get((f.code, f.severity))
        if head is None:
            r = get_rule(f.code)
            fields = {"code": f.code, "name": r.name if r else None, "severity": str(f.severity)}
            head = self._heads[(f.code, f.severity)] = _ENCODE({**fields, "smell": r.smell if r else None})[:-1]
        tool = self._names.get(f.tool)
        if tool is None:
            tool = self._names[f.tool] = _STRING(f.tool)
        where = self._files.get(file)
        if where is None:
            where = self._files[file] = _STRING(file)
        span = f.span
        suggestion = "null" if f.suggestion is None else _STRING(f.suggestion)
        return (
            f'{head}, "tool": {tool}, "pointer": {_STRING(f.pointer)}, "message": {_STRING(f.message)}, '
            f'"suggestion": {suggestion}, "file": {where}, "line": {span.line}, "column": {span.col}, '
            f'"end_line": {span.end_line}, "end_column": {span.end_col}}}'
        )


def format_json_chunks(run: Run, statistics: bool = False) -> Iterator[str]:
    """Indented JSON in which each finding and each tool sits on one line, yielded piece by piece.

    Each such line is one call to the C encoder; json.dumps(indent=...) would
    fall back to the pure-Python one, several times slower on big catalogs.
    The findings, the largest part, are encoded one at a time as the writer
    asks for them, so the report is never held whole.
    """
    files = []
    for fr in run.files:
        tools = []
        quality = fr.quality.tools if fr.quality is not None else [None] * len(fr.tools)
        for tr, tq in zip(fr.tools, quality, strict=True):
            line, column = tr.start
            entry: dict[str, Any] = {
                "name": tr.tool.name,
                "pointer": tr.tool.pointer,
                "line": line,
                "column": column,
                "finding_count": len(tr.findings),
                "codes": sorted({f.code for f in tr.findings}),
                "status": "clean" if not tr.findings else "findings",
            }
            if tq is not None:
                entry.update(tq.as_dict())
                if not tq.scored and not tr.findings:  # an ignore of ALL: not linted (CMP rules aside)
                    entry["status"] = "ignored"
            tools.append(entry)
        sch = Counter(f.severity for tr in fr.tools for f in tr.findings if f.code.startswith("SCH-"))
        head = {
            "file": fr.catalog.display,
            "suppressed": fr.suppressed,
            "fail_severity": str(fr.fail_severity),
            "schema_criticals": sch[Severity.CRITICAL],
            "schema_warnings": sch[Severity.WARNING],
        }
        if fr.quality is not None:
            head["quality"] = fr.quality.as_dict()
        files.append("    {\n" + _members(head, "      ") + ",\n" + _array("tools", tools, "      ") + "\n    }")
    errors = [
        {"file": e.path, "line": e.line, "column": e.col, "pointer": e.pointer, "message": e.message}
        for e in run.errors
    ]
    schema_criticals, schema_warnings = run.schema_counts()
    summary = {
        "files": len(run.files),
        "tools": run.tool_count,
        "findings": len(run.findings),
        "by_severity": dict(sorted(run.by_severity().items())),
        "schema_criticals": schema_criticals,
        "schema_warnings": schema_warnings,
        "by_rule": dict(sorted(run.by_rule().items())),
        **_quality_summary(run),
        "failed": run.failing() or bool(run.errors),  # as the exit code: a catalog that could not be read fails
    }
    rest = [
        '  "files": [\n' + ",\n".join(files) + "\n  ]" if files else '  "files": []',
        _array("errors", errors, "  "),
        f'  "notices": {_ENCODE(run.notices)}',
        '  "summary": {\n' + _members(summary, "    ") + "\n  }",
    ]
    yield f'{{\n  "catalint": {_ENCODE(__version__)},\n'
    if statistics:  # the counts stand in for the findings, as in ruff's JSON statistics
        counts = [
            {"code": code, "name": r.name if (r := get_rule(code)) else None, "severities": levels, "count": n}
            for code, n, levels in run.statistics()
        ]
        yield _array("statistics", counts, "  ") + ",\n"
    elif run.findings:
        yield '  "findings": [\n'
        last = len(run.findings) - 1
        encode = FindingEncoder()
        for i, (fr, f) in enumerate(run.findings):
            yield f"    {encode(f, fr.catalog.display)}" + ("\n  ],\n" if i == last else ",\n")
    else:
        yield '  "findings": [],\n'
    yield ",\n".join(rest) + "\n}\n"


def format_json(run: Run, statistics: bool = False) -> str:
    return "".join(format_json_chunks(run, statistics))


def _quality_summary(run: Run) -> dict[str, Any]:
    from catalint.model import SMELLS
    from catalint.tdqs import grade

    scores = run.scores()
    mean = round(sum(scores) / len(scores), 4) if scores else None
    smells = {s: 0 for s in SMELLS}
    for fr in run.files:
        if fr.quality is not None:
            for s, n in fr.quality.smells.items():
                smells[s] += n
    out: dict[str, Any] = {
        "min_score": min(scores) if scores else None,
        "mean_score": mean,
        "grade": grade(mean) if mean is not None else None,
        "smells": smells,
        "smell_total": sum(smells.values()),
        "gate_passed": not run.gate_failed(),
    }
    totals = [fr.quality.token_total for fr in run.files if fr.quality is not None and fr.quality.tokens]
    if totals:
        from catalint.tokens import window_share

        out["tokens"] = {"total": sum(totals), "context_share_percent": window_share(sum(totals))}
    return out


def _c_encoder() -> Any:
    """One C encoder for the whole report: JSONEncoder.encode builds a new one on every call."""
    from json import encoder

    fallback = json.JSONEncoder(ensure_ascii=False).encode
    make = getattr(encoder, "c_make_encoder", None)
    if make is None:  # no C accelerator (another Python implementation)
        return fallback
    try:
        run = make(None, _unencodable, encoder.encode_basestring, None, ": ", ", ", False, False, True)
        if "".join(run({"a": [1, "é"]}, 0)) != fallback({"a": [1, "é"]}):
            return fallback
    except TypeError:  # a Python whose C encoder takes other arguments
        return fallback
    return lambda value: "".join(run(value, 0))


def _unencodable(value: Any) -> Any:
    raise TypeError(f"cannot encode {type(value).__name__} as JSON")


_ENCODE = _c_encoder()  # no indent: the C encoder
encode_line = _ENCODE  # for other formatters: a value as one line of JSON, at C speed
_STRING: Any = getattr(json.encoder, "c_encode_basestring", None) or json.encoder.py_encode_basestring  # one string


def _members(obj: dict[str, Any], indent: str) -> str:
    return ",\n".join(f"{indent}{_ENCODE(k)}: {_ENCODE(v)}" for k, v in obj.items())


def _array(key: str, items: Iterable[dict[str, Any]], indent: str) -> str:
    """One item a line; items may be a generator, so that no list of all the dicts is ever held."""
    inner = indent + "  "
    lines = [inner + _ENCODE(i) for i in items]
    if not lines:
        return f"{indent}{_ENCODE(key)}: []"
    return f"{indent}{_ENCODE(key)}: [\n" + ",\n".join(lines) + f"\n{indent}]"
