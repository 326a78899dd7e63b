"""Options that several commands share, declared once."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from os import PathLike
from pathlib import Path
from typing import Any

import click


def config_option(help_text: str) -> Callable[[Any], Any]:
    """--config FILE: a config file used instead of the nearest one (a missing file, or two of them, is an error,
    exit 2); and --isolated: no config file at all, as in ruff."""

    def must_exist(ctx: click.Context, _param: click.Parameter, values: tuple[Path, ...]) -> Path | None:
        from catalint.cli import fail

        if len(values) > 1:  # click would keep the last in silence: one in a hook's args, one added elsewhere
            shown = ", ".join(str(v) for v in values)
            fail(f"error: --config given {len(values)} times ({shown}): give one config file")
        if not values:
            return None
        if ctx.params.get("isolated"):  # each of the two callbacks checks the other: whichever comes second
            fail("error: --isolated and --config cannot be given together")
        value = values[0]
        from catalint.loader import file_problem

        problem = file_problem(value)  # a directory, a FIFO or /dev/zero too: one line, not a usage error
        if problem is not None:
            if "=" in str(value) and not value.exists():  # ruff's inline --config "select=['E']"
                problem += " (--config takes a file, not inline settings: use --select, --ignore and the other flags)"
            fail(f"error: --config: {value}: {problem}")
        return value

    def alone(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
        if value and ctx.params.get("config_path") is not None:
            from catalint.cli import fail

            fail("error: --isolated and --config cannot be given together")
        return value

    def both(command: Any) -> Any:
        command = click.option(
            "--isolated",
            is_flag=True,
            callback=alone,
            help="Read no config file: the built-in defaults and the flags only (as ruff's --isolated).",
        )(command)
        return click.option(
            "--config",
            "config_path",
            multiple=True,
            type=click.Path(path_type=Path, readable=False),  # must_exist and the reader say what is wrong
            callback=must_exist,
            help=help_text,
        )(command)

    return both


class Number(click.FloatRange):
    """click.FloatRange that refuses nan: every comparison with it is false, so FloatRange took it for any range
    (trace score --min-selection-rate nan ended in an internal error, --timeout nan in a raw ValueError)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if number != number:
            self.fail(f"{value!r} is not a number", param, ctx)
        return number


def output_target(what: str = "report") -> Callable[[click.Context, click.Parameter, str | None], str | None]:
    """A callback for -o FILE: a folder, or a file in a folder that does not exist, is one error line (exit 2),
    worded as a failed write of `what` is, before any work is done (not click's usage text, and not after a
    server has been listed)."""

    def check(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
        if value is None:
            return value
        problem = output_problem(value)
        if problem is not None:
            from catalint.cli import fail

            fail(f"{value}: error: cannot write {what}: {problem}")
        return value

    return check


def output_problem(value: str) -> str | None:
    """Why an output file cannot be written, as far as can be told before any work: a folder, or a path
    through a file; None when it looks writable. Missing folders are made when it is written, as ruff
    makes them for --output-file."""
    import errno
    import os

    if os.path.isdir(value):
        return os.strerror(errno.EISDIR)
    folder = os.path.dirname(os.path.abspath(value))
    missing = missing_folders(folder)
    if not os.path.isdir(os.path.dirname(missing[-1]) if missing else folder):
        return os.strerror(errno.ENOTDIR)
    return None


def missing_folders(folder: str | PathLike[str]) -> list[str]:
    """The folders of folder's path that are not there yet, innermost first (a link, even a broken one, is)."""
    import os

    missing = []
    folder = os.fspath(folder)
    while not os.path.lexists(folder) and os.path.dirname(folder) != folder:
        missing.append(folder)
        folder = os.path.dirname(folder)
    return missing


def output_option(
    help_text: str = "Write the report here instead of stdout.", what: str = "report"
) -> Callable[[Any], Any]:
    """-o/--output-file FILE, checked by output_target; `-o -` is standard output, as `-` is standard input."""
    check = output_target(what)

    def target(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        return None if value == "-" else check(ctx, param, value)

    return click.option("-o", "--output-file", type=click.Path(), callback=target, help=help_text)


def bad_value_line(exc: click.BadParameter) -> str:
    """click's error for a value it could not take (a --fail-severity outside the choices, a
    --timeout below its range), as the one line catalint gives for its own: `error: --timeout: 0.0 is
    not in the range x>=0.1` instead of the usage text, a hint and `Error: Invalid value for ...`."""
    hint = exc.param_hint
    if hint is None and isinstance(exc.param, click.Option):
        hint = max(exc.param.opts, key=len)  # -o, --output-file: the long name
    elif hint is None and exc.param is not None:
        hint = exc.param.human_readable_name  # an argument: its metavar, such as SUITE
    if hint is not None and not isinstance(hint, str):
        hint = " / ".join(hint)
    message = exc.format_message() if hint is None else f"{hint}: {exc.message}"
    return f"error: {message.rstrip('.')}"


class OneLineErrors(click.Group):
    """The top-level group: a bad value for any option or argument of any command below it is one
    error line and exit 2 (see bad_value_line). Unknown options, missing arguments and missing
    commands keep click's usage text."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.BadParameter as exc:
            if isinstance(exc, click.MissingParameter):
                raise
            from catalint.cli import fail

            fail(bad_value_line(exc))


_DESCRIPTOR = re.compile(r"/dev/(?:stdin|stdout|stderr|fd/\d+)|/proc/self/fd/\d+")


def names_a_stream(path: str) -> bool:
    """Whether path, as given, names an open descriptor (/dev/stdout, /dev/fd/1, /proc/self/fd/1): written
    to, never replaced, even where it leads to a regular file (a redirect). Other devices are told by what
    they are (/dev/shm holds plain files)."""
    return _DESCRIPTOR.fullmatch(path) is not None


def _identity(path: str | int) -> tuple[object, ...] | None:
    """What tells a file apart: its device and inode when it is there (through links, hard links too), else
    the real path it would get; None for a device, a pipe or a folder, which no output replaces. A file
    descriptor (0: standard input) is the file it reads, if a regular one."""
    import os
    import stat

    if isinstance(path, str) and names_a_stream(path):
        return None
    try:
        mode = os.stat(path)
    except FileNotFoundError:
        return ("new", os.path.realpath(path))
    except (OSError, ValueError):
        return None
    return ("file", mode.st_dev, mode.st_ino) if stat.S_ISREG(mode.st_mode) else None


def refuse_clobber(
    outputs: Iterable[str | None], inputs: Iterable[str | PathLike[str] | None], what: str, written: str = "report"
) -> None:
    """One error line and exit 2 when an output file is one of the run's inputs (what names them, "the
    suite"): the report (or what is written) would replace the file it was made from. None is skipped; '-'
    stands for the file standard input is redirected from, if any."""
    inputs = list(inputs)
    read = {_identity(str(p)) for p in inputs if p is not None and str(p) not in ("", "-")} - {None}
    if any(p is not None and str(p) == "-" for p in inputs) and (stdin := _identity(0)) is not None:
        read.add(stdin)  # `catalint lint - -o tools.json < tools.json`; a pipe names no file
    for output in outputs:
        if output is not None and _identity(output) in read:
            from catalint.cli import fail

            fail(f"error: {output}: is {what}; write the {written} elsewhere")


def refuse_shared_outputs(outputs: Iterable[tuple[str, str | None]]) -> None:
    """One error line and exit 2 when two outputs of a run, (the option as given, its file), are the same
    file: one would silently replace the other. Devices and pipes (/dev/null twice) are written to, so they
    may repeat."""
    seen: dict[tuple[object, ...], str] = {}
    for option, output in outputs:
        key = None if output is None else _identity(output)
        if key is None:
            continue
        if key in seen:
            from catalint.cli import fail

            fail(f"error: {option}: writes the same file as {seen[key]}; give each output its own file")
        seen[key] = option
