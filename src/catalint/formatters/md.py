"""Text from catalogs, specs and traces made safe for the markdown reports (job summaries, PR comments).

Catalog text is untrusted: a description may hold `<IMPORTANT>`, `</details>` or a pipe. GitHub drops
tags it does not know, so an unescaped tag would vanish from the very finding that quotes it, and a
pipe or line break would split a table row.
"""

from __future__ import annotations

import re

from catalint.text import one_line

_BACKTICKS = re.compile(r"`+")
# Markdown that text from a catalog could use: emphasis ("_" only where it can open or close one: not between
# letters or digits), code, links and images ([d](url); ![x](url) loads a picture), strikethrough, @mentions (a
# PR comment notifies them); each is shown as written. "<" is &lt;, so ">" can close no tag.
_ACTIVE = re.compile(r"[\\`*\[\]~@]|(?<![^\W_])_|_(?![^\W_])")
_LEADING = re.compile(r"^(\s*\d*)([-+=.)#>])")  # at the start: a list item, heading, quote or setext underline


def _flat(value: str) -> str:
    """Value on one line: each line break a space, other controls escaped as in the text report (an ESC, a
    bidirectional control), so that a report printed to a CI log runs no workflow command either."""
    return one_line(value.replace("\r\n", " ").replace("\r", " ").replace("\n", " "))


def text(value: str) -> str:
    """Plain text for a table cell or a list item: shown as written, on one line, never as HTML or markdown."""
    value = _LEADING.sub(r"\1\\\2", _ACTIVE.sub(r"\\\g<0>", value), count=1)
    return _flat(value.replace("&", "&amp;").replace("<", "&lt;").replace("|", "\\|"))


def code(value: str, table: bool = True) -> str:
    """A code span on one line that shows value as written, backticks included.

    In a table its pipes are escaped (GitHub removes the backslash again inside code).
    """
    value = _flat(value)
    if table:
        value = value.replace("|", "\\|")
    runs = [len(r) for r in _BACKTICKS.findall(value)]
    if not runs:
        return f"`{value}`" if value else "` `"
    fence = "`" * (max(runs) + 1)
    return f"{fence} {value} {fence}"
