"""Azure Pipelines logging commands: a task.logissue per critical or warning finding, which the build's summary
lists with its file and line.

Azure has two issue types, error and warning: critical -> error, warning -> warning. It has no notice, and an
info finding made a warning would stand among the warnings in the summary; info findings are plain log lines
instead, as the text format writes them. Files that could not be read and failed gate checks are errors and
come first, as in the github format.
"""

from __future__ import annotations

import os

from catalint.formatters.github import file_of, repo_path
from catalint.model import Finding, Severity
from catalint.run import Run
from catalint.text import inline, one_line

ROOT_VARIABLE = "BUILD_SOURCESDIRECTORY"  # where the agent checks the repository out: paths are relative to it
TYPES = {Severity.CRITICAL: "error", Severity.WARNING: "warning"}  # info: a plain line


def escape_data(text: str) -> str:
    """A command's message, as the agent decodes it (azure-pipelines-task-lib escapes the same): % as %AZP25
    first, CR as %0D, LF as %0A; other controls, and ##vso[ and ##[, escaped as in the text report."""
    return inline(text.replace("%", "%AZP25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    """A property's value: what escape_data does, and ; (which ends a property) as %3B and ] (which ends the
    properties) as %5D: a value cannot add a property or end the command's head."""
    return escape_data(text).replace(";", "%3B").replace("]", "%5D")


def logissue(kind: str, message: str, path: str | None = None, line: int | None = None, col: int | None = None,
             code: str | None = None) -> str:  # fmt: skip
    props = [f"type={kind}"]
    if path is not None:
        props.append(f"sourcepath={escape_property(path)}")
    if line is not None:
        props.append(f"linenumber={line}")
    if col is not None:
        props.append(f"columnnumber={col}")
    if code is not None:
        props.append(f"code={escape_property(code)}")
    return f"##vso[task.logissue {';'.join(props)};]{escape_data(message)}"


def issue(file: str, f: Finding) -> str:
    return logissue(TYPES[f.severity], f"{f.code} {f.tool}: {f.message}", file, f.span.line, f.span.col, f.code)


def format_azure(run: Run, statistics: bool = False) -> str:
    root = os.environ.get(ROOT_VARIABLE) or None
    files = {id(fr): file_of(fr, root) for fr in run.files}  # one path resolution per file
    lines = [logissue("error", e.message, repo_path(e.path, root), e.line, e.col, "load-error") for e in run.errors]
    for fr in run.files:
        for row in fr.quality.gate if fr.quality is not None else []:
            if not row.passed:
                lines.append(logissue("error", row.line(), files[id(fr)], code="gate"))
    ordered = sorted(run.findings, key=lambda pair: -pair[1].severity)  # stable: file order within a severity
    lines += [issue(files[id(fr)], f) for fr, f in ordered if f.severity in TYPES]
    for fr, f in run.findings:
        if f.severity not in TYPES:
            span = f.span
            where = one_line(fr.catalog.display)
            lines.append(
                f"{where}:{span.line}:{span.col}: {f.code} [{f.severity.label}] {inline(f.tool)}: {inline(f.message)}"
            )
    lines += [one_line(notice) for notice in run.notices]
    from catalint.formatters.text import summary

    lines.append(summary(run))
    return "\n".join(lines) + "\n"
