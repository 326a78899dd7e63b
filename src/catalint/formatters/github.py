"""GitHub Actions workflow commands: one annotation per finding, most severe first.

GitHub shows at most 10 annotations of each level per step (50 per job), so
findings are ordered by severity, then by how many findings their rule has in
the run (rare rules first: they are the surprises), then by position; a final
notice says how many were left for the job summary.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from catalint.engine import FileResult
from catalint.model import Finding, Severity
from catalint.run import Run
from catalint.text import one_line

LEVELS = {Severity.CRITICAL: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
SHOWN_PER_LEVEL = 10  # what GitHub displays per level and step


def escape_data(text: str) -> str:
    """A command's message: %, CR and LF encoded as the runner decodes them; other controls (an ESC that would
    recolour the log, a bidirectional control) escaped as in the text report."""
    return one_line(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def escape_file(path: str) -> str:
    """A file= property: what the runner decodes (%, CR, LF, colon, comma) encoded first, so that a name such
    as '::x.tools.json' comes back whole rather than as '\\x3a:x.tools.json'. Other controls and '##[' are still
    escaped as in a message (a file so named gets no annotation on it, but cannot act on the log)."""
    for char, code in (("%", "%25"), ("\r", "%0D"), ("\n", "%0A"), (":", "%3A"), (",", "%2C")):
        path = path.replace(char, code)
    return one_line(path)


def repo_path(path: str, root_dir: str | None = None) -> str:
    """path relative to the repository root (root_dir, which another CI's format takes from its own variable;
    else $GITHUB_WORKSPACE, else the working directory); absolute when outside it."""
    if path == "-":
        return path
    root = Path(root_dir or os.environ.get("GITHUB_WORKSPACE") or Path.cwd())
    where = Path(path).resolve()
    # resolved, then as named: a link inside the repository to a file outside it is named by the link
    for inside, base in ((where, root.resolve()), (Path(os.path.abspath(path)), Path(os.path.abspath(root)))):
        try:
            return inside.relative_to(base).as_posix()
        except ValueError:
            continue
    return where.as_posix()  # outside the repository: absolute, so that SARIF makes a file: URI of it


def file_of(result: FileResult, root_dir: str | None = None) -> str:
    """The catalog's path relative to the repository (standard input keeps its display name)."""
    catalog = result.catalog
    return repo_path(catalog.path, root_dir) if catalog.path != "-" else catalog.display


def annotation(file: str, f: Finding) -> str:
    span = f.span
    props = [f"file={escape_file(file)}", f"line={span.line}"]
    if span.line == span.end_line:  # the runner drops columns on multi-line annotations
        props += [f"col={span.col}", f"endLine={span.end_line}", f"endColumn={span.end_col}"]
    else:
        props.append(f"endLine={span.end_line}")
    props.append(f"title={escape_property(f'catalint ({f.code})')}")
    return f"::{LEVELS[f.severity]} {','.join(props)}::{escape_data(f'{f.tool}: {f.message}')}"


def format_github(run: Run, statistics: bool = False) -> str:
    rule_counts = Counter(f.code for _, f in run.findings)
    ordered = sorted(
        run.findings,
        key=lambda pair: (-pair[1].severity, rule_counts[pair[1].code], pair[0].catalog.display, pair[1].span.line),
    )
    files = {id(fr): file_of(fr) for fr in run.files}  # one path resolution per file, not per finding
    # Files that could not be read and failed gate checks first: GitHub shows only the first
    # SHOWN_PER_LEVEL annotations of a level, and these are what failed the run.
    lines = []
    for error in run.errors:
        props = f"file={escape_file(repo_path(error.path))}"
        if error.line is not None:
            props += f",line={error.line}" + (f",col={error.col}" if error.col is not None else "")
        lines.append(f"::error {props},title=catalint::{escape_data(error.message)}")
    for fr in run.files:
        for row in fr.quality.gate if fr.quality is not None else []:
            if not row.passed:
                file = escape_file(files[id(fr)])
                lines.append(f"::error file={file},title=catalint gate::{escape_data(row.line())}")
    # The run's notices (each said once) come before the info findings' notices, and the count of what GitHub
    # hides before both: past SHOWN_PER_LEVEL a notice placed last was hidden itself, with the loss it told of.
    notices = [f"::notice title=catalint::{escape_data(n.removeprefix('notice: '))}" for n in run.notices]
    per_level = Counter(LEVELS[f.severity] for _, f in run.findings)
    per_level["error"] += len(lines)
    per_level["notice"] += len(notices)
    hidden = sum(max(0, n - SHOWN_PER_LEVEL) for n in per_level.values())
    if hidden:
        per_level["notice"] += 1  # the count takes a place of its own
        hidden = sum(max(0, n - SHOWN_PER_LEVEL) for n in per_level.values())
        notices.insert(
            0,
            f"::notice title=catalint::{hidden} more annotation{'s' * (hidden != 1)} than GitHub shows "
            f"({SHOWN_PER_LEVEL} of each level a step); the job summary (or a text report) has all of them",
        )
    findings = [(LEVELS[f.severity], annotation(files[id(fr)], f)) for fr, f in ordered]
    lines += [line for level, line in findings if level != "notice"] + notices
    lines += [line for level, line in findings if level == "notice"]
    from catalint.formatters.text import summary

    lines.append(summary(run))
    return "\n".join(lines) + "\n"
