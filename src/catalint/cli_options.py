"""Options that several commands share, declared once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click


def config_option(help_text: str) -> Callable[[Any], Any]:
    """--config FILE: a config file used instead of the nearest one; a missing file is an error (exit 2)."""

    def must_exist(_ctx: click.Context, _param: click.Parameter, value: Path | None) -> Path | None:
        if value is not None and not value.is_file():
            from catalint.cli import fail

            fail(f"error: --config: {value}: no such file")
        return value

    return click.option(
        "--config",
        "config_path",
        type=click.Path(dir_okay=False, path_type=Path),
        callback=must_exist,
        help=help_text,
    )
