"""Output formats for a lint run; each is a function Run -> str."""

from __future__ import annotations

from collections.abc import Callable

from catalint.formatters.json_format import format_json
from catalint.formatters.text import format_text
from catalint.run import Run

FORMATS: dict[str, Callable[..., str]] = {"text": format_text, "json": format_json}


def render(run: Run, fmt: str, statistics: bool = False) -> str:
    return FORMATS[fmt](run, statistics=statistics)
