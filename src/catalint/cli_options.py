"""Options that several commands share, declared once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click


def config_option(help_text: str) -> Callable[[Any], Any]:
    """--config FILE: a config file used instead of the nearest one; a missing file is an error (exit 2)."""

    def must_exist(_ctx: click.Context, _param: click.Parameter, value: Path | None) -> Path | None:
        if value is None:
            return value
        from catalint.loader import file_problem

        problem = file_problem(value)  # a directory, a FIFO or /dev/zero too: one line, not a usage error
        if problem is not None:
            from catalint.cli import fail

            fail(f"error: --config: {value}: {problem}")
        return value

    return click.option(
        "--config",
        "config_path",
        type=click.Path(path_type=Path, readable=False),  # must_exist and the reader say what is wrong
        callback=must_exist,
        help=help_text,
    )
