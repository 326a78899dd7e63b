"""JSON Lines: one finding a line, each the object the json format lists under findings, and nothing else (as
ruff's json-lines): a stream that a tool can read a line at a time, or append to."""

from __future__ import annotations

import re
from collections.abc import Iterator

from catalint.formatters.json_format import FindingEncoder
from catalint.run import Run
from catalint.text import LOG_COMMAND_OPENERS

# What JSON may leave raw in a string but a reader of lines or a CI log must not meet raw: C1 controls and DEL
# (U+0085 ends a line for Python's splitlines), the line and paragraph separators, the bidirectional controls.
# Written as \uXXXX escapes they decode to the same strings.
_RAW = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# Log commands a CI system reads anywhere in a line (GitHub's ##[, Azure Pipelines' ##vso[): their second '#'
# is written \u0023, which decodes to '#'. In JSON text a '#' can only be inside a string.
_OPENERS = tuple((o, "#\\u0023" + o[2:]) for o in LOG_COMMAND_OPENERS)


def _escaped(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def safe_line(line: str) -> str:
    """A line of JSON that parses to the same value, with nothing in it that a CI log or a reader of lines
    would act on (the JSON encoder has escaped C0 controls already)."""
    if not line.isprintable():
        line = _RAW.sub(_escaped, line)
    if "##" in line:
        for opener, escaped in _OPENERS:
            line = line.replace(opener, escaped)
    return line


def format_json_lines(run: Run, statistics: bool = False) -> Iterator[str]:
    """Each finding encoded as it is written. --statistics does not apply (a notice says so, as for the other
    formats that are not text or json): the lines are the findings."""
    encode = FindingEncoder()
    for fr, f in run.findings:
        yield safe_line(encode(f, fr.catalog.display)) + "\n"
