"""Output formats for a lint run; each is a function Run -> str (or an iterable of chunks to write in turn)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from catalint.formatters.json_format import format_json_chunks
from catalint.formatters.text import format_text
from catalint.run import Run

FORMATS: dict[str, Callable[..., str | Iterable[str]]] = {
    "text": format_text,
    "concise": format_text,  # another name for text, as ruff's concise
    "json": format_json_chunks,
}
LAZY = {  # formats for CI, imported only when asked for
    "github": ("catalint.formatters.github", "format_github"),
    "sarif": ("catalint.formatters.sarif", "format_sarif"),
    "markdown": ("catalint.formatters.markdown", "format_markdown"),
    "junit": ("catalint.formatters.junit", "format_junit"),
    "json-lines": ("catalint.formatters.json_lines", "format_json_lines"),
    "gitlab": ("catalint.formatters.gitlab", "format_gitlab"),
    "azure": ("catalint.formatters.azure", "format_azure"),
    "full": ("catalint.formatters.full", "format_full"),
}
NAMES = [*FORMATS, *LAZY]


def render(run: Run, fmt: str, statistics: bool = False) -> str | Iterable[str]:
    if fmt in LAZY:
        from importlib import import_module

        module, name = LAZY[fmt]
        return getattr(import_module(module), name)(run, statistics=statistics)
    return FORMATS[fmt](run, statistics=statistics)
