"""The text report with, under each finding, the catalog line it points at and a caret line under its span, as
ruff's full output.

The source is the text the catalog was read from (its source map keeps it; standard input's too), never read
again. It is untrusted, and printed as catalog text is in the text report: controls are spelled out (a tab as
\\t) and ##[ and ##vso[ are escaped. The carets stay under the span: each character's escape is as wide as it
prints, and a wide (East Asian) character takes two columns. A line longer than WINDOW characters (a one-line
50 MB catalog) is cut to a window around the span's start, with … where it was cut.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from catalint.formatters.text import format_text
from catalint.run import Run
from catalint.text import LOG_COMMAND_OPENERS, inline, one_line

if TYPE_CHECKING:
    from catalint.engine import FileResult
    from catalint.model import Finding

WINDOW = 120  # characters of a long line that are shown
BEFORE = 40  # of them, before the span's start when the line is cut
_BREAK = re.compile(r"\r\n|\r|\n")  # CR, LF and CRLF end a line, as the source map counts lines
_OPENERS = re.compile("|".join(map(re.escape, LOG_COMMAND_OPENERS)))  # inline() escapes their second '#'


def line_bounds(text: str, wanted: list[int]) -> dict[int, tuple[int, int]]:
    """Where each wanted line (1-based, sorted) starts and ends (before its line break) in text: one pass, up
    to the last of them."""
    bounds: dict[int, tuple[int, int]] = {}
    lf_only = "\r" not in text
    line, start = 1, 0
    for n in wanted:
        while line < n:
            if lf_only:
                at = text.find("\n", start)
                if at < 0:
                    return bounds
                start = at + 1
            else:
                m = _BREAK.search(text, start)
                if m is None:
                    return bounds
                start = m.end()
            line += 1
        if lf_only:
            end = text.find("\n", start)
        else:
            m = _BREAK.search(text, start)
            end = m.start() if m is not None else -1
        bounds[n] = (start, len(text) if end < 0 else end)
    return bounds


def _width(shown: str) -> int:
    """Columns a terminal gives shown: two for a wide character, none for a combining mark or a format character."""
    if shown.isascii():
        return len(shown)
    total = 0
    for c in shown:
        if unicodedata.east_asian_width(c) in "WF":
            total += 2
        elif unicodedata.category(c) not in ("Mn", "Me", "Cf"):
            total += 1
    return total


def shown_pieces(text: str) -> list[str]:
    """Each character of text as inline(text) prints it: "".join(shown_pieces(text)) == inline(text)."""
    pieces = [inline(c) if not c.isprintable() else c for c in text]
    for m in _OPENERS.finditer(text):  # non-overlapping, from the left, as str.replace finds them
        pieces[m.start() + 1] = "\\x23"
    return pieces


def snippet(text: str, start: int, end: int, col: int, end_col: int | None) -> tuple[str, str]:
    """The line text[start:end] as shown, and the caret line under columns col (1-based) to end_col (exclusive;
    None: to the end of the line)."""
    size = end - start
    first = min(max(col - 1, 0), size)
    last = size if end_col is None else min(max(end_col - 1, first), size)
    a, b = 0, size
    if size > WINDOW:
        a = max(0, min(first - BEFORE, size - WINDOW))
        b = a + WINDOW
    window = text[start + a : start + b]
    lead = "…" if a else ""
    tail = "…" if b < size else ""
    stop = max(min(last, b) - a, 0)
    if window.isascii() and window.isprintable() and "##" not in window:  # most lines: each character one column
        return lead + window + tail, " " * (len(lead) + first - a) + "^" * (stop - (first - a) or 1)
    pieces = shown_pieces(window)
    widths = [_width(p) for p in pieces]
    offset = len(lead) + sum(widths[: first - a])
    carets = sum(widths[first - a : stop]) or 1  # an empty span, or one at the line's end
    return lead + "".join(pieces) + tail, " " * offset + "^" * carets


class Sources:
    """The lines under each finding; each file's needed lines are found in one pass over its text."""

    def __init__(self) -> None:
        self._file: FileResult | None = None
        self._bounds: dict[int, tuple[int, int]] = {}
        self._text: str | None = None

    def __call__(self, fr: FileResult, f: Finding) -> list[str]:
        if fr is not self._file:
            self._file = fr
            text = getattr(fr.catalog.source, "text", None)
            self._text = text if isinstance(text, str) else None
            wanted = sorted({g.span.line for g in fr.findings if g.span.line > 0})
            self._bounds = line_bounds(self._text, wanted) if self._text is not None else {}
        span = f.span
        lines: list[str] = []
        if self._text is not None and span.line in self._bounds:
            start, end = self._bounds[span.line]
            code, carets = snippet(
                self._text, start, end, span.col, span.end_col if span.end_line == span.line else None
            )
            number = str(span.line)
            gutter = " " * len(number)
            lines += [f"{gutter} |", f"{number} | {code}".rstrip(), f"{gutter} | {carets}"]
            if f.suggestion:
                lines.append(f"{gutter} = help: {one_line(f.suggestion)}")
        elif f.suggestion:
            lines.append(f"  = help: {one_line(f.suggestion)}")
        lines.append("")
        return lines


def format_full(run: Run, statistics: bool = False) -> str:
    return format_text(run, statistics, below=Sources())
