"""GitLab Code Quality: the JSON array of issues (the subset of the Code Climate spec that GitLab reads) that a
job names under artifacts:reports:codequality, for the merge request widget and the pipeline's Code Quality tab.

Severities: GitLab has info, minor, major, critical and blocker. A critical finding (what fails the run by
default) is critical, a warning minor and an info finding info; a file that could not be read is a blocker
(nothing in it was checked). major is left free: a warning does not fail the run, so it is not put a step from
what does.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

from catalint.formatters.github import file_of, repo_path
from catalint.formatters.json_format import encode_line
from catalint.formatters.json_lines import safe_line
from catalint.model import Severity
from catalint.run import Run
from catalint.sourcemap import pointer_in_tool
from catalint.text import one_line

ROOT_VARIABLE = "CI_PROJECT_DIR"  # where GitLab checks the repository out: paths are relative to it
SEVERITIES = {Severity.CRITICAL: "critical", Severity.WARNING: "minor", Severity.INFO: "info"}
UNREADABLE = "blocker"
LOAD_ERROR = "load-error"  # the check_name of a file that could not be read
GATE, GATE_SEVERITY = "gate", "critical"  # a failed gate check: it fails the run, as a critical finding does


class Fingerprints:
    """A fingerprint a finding keeps while the catalog is edited around it: a hash of its file (relative to the
    repository), rule, tool and pointer inside the tool, never its line, its tool's place in the tools array or
    its message (which may count or place other tools: "at /tools/2", "2 of the catalog's 3 tools", or quote a
    description being edited). Findings alike in all of them (two tools of one name) are told apart by the nth
    of them in report order: GitLab shows one issue per fingerprint."""

    def __init__(self) -> None:
        self._seen: Counter[str] = Counter()

    def __call__(self, *parts: str) -> str:
        key = json.dumps(parts)  # ASCII (lone surrogates escaped too), unambiguous whatever the parts hold
        self._seen[key] += 1
        return hashlib.sha256(f"{key}\n{self._seen[key]}".encode()).hexdigest()[:32]


def _issue(description: str, check: str, fingerprint: str, severity: str, path: str, begin: int, end: int) -> str:
    issue: dict[str, Any] = {
        "description": one_line(description),  # shown in the widget as written: on one line, no bidi reordering
        "check_name": check,
        "fingerprint": fingerprint,
        "severity": severity,
        "location": {"path": path, "lines": {"begin": begin, "end": end}},
    }
    return safe_line(encode_line(issue))  # nothing a CI log would act on, should the report be printed


def format_gitlab(run: Run, statistics: bool = False) -> Iterator[str]:
    """The array one issue a line; each issue is built and encoded as it is written."""
    root = os.environ.get(ROOT_VARIABLE) or None
    fingerprint = Fingerprints()
    first = True

    def item(encoded: str) -> str:
        nonlocal first
        head, first = ("[\n  " if first else ",\n  "), False
        return head + encoded

    for error in run.errors:
        path = repo_path(error.path, root)
        line = error.line or 1
        yield item(_issue(error.message, LOAD_ERROR, fingerprint(path, LOAD_ERROR), UNREADABLE, path, line, line))
    paths = {id(fr): file_of(fr, root) for fr in run.files}  # one path resolution per file
    for fr in run.files:  # a failed gate check fails the job: the widget says why, at the catalog's first line
        for row in fr.quality.gate if fr.quality is not None else []:
            if not row.passed:
                path = paths[id(fr)]
                check = f"gate {row.check.target}"
                yield item(_issue(row.line(), GATE, fingerprint(path, check), GATE_SEVERITY, path, 1, 1))
    for fr in run.files:
        if not fr.tools:
            continue
        path = paths[id(fr)]
        tool_pointer = {id(f): tr.tool.pointer for tr in fr.tools for f in tr.findings}
        for f in fr.findings:  # in report order
            inner = pointer_in_tool(f.pointer, tool_pointer[id(f)])
            yield item(
                _issue(
                    f"{f.code} {f.tool}: {f.message}",
                    f.code,
                    fingerprint(path, f.code, f.tool, inner),
                    SEVERITIES[f.severity],
                    path,
                    f.span.line,
                    f.span.end_line,
                )
            )
    yield "[]\n" if first else "\n]\n"
