"""The `catalint` command line."""

from __future__ import annotations

import errno
import io
import json
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from catalint import __version__
from catalint.cli_options import (
    Number,
    OneLineErrors,
    config_option,
    missing_folders,
    names_a_stream,
    output_option,
    output_problem,
    output_target,
    refuse_clobber,
    refuse_shared_outputs,
)
from catalint.diff_cli import diff_command
from catalint.trace_cli import trace_group

if TYPE_CHECKING:
    from catalint.engine import FileResult
    from catalint.model import Catalog

# formatters.NAMES, spelt out here so that start-up does not import the formatters (a test keeps them equal)
OUTPUT_FORMATS = [
    "text",
    "concise",
    "json",
    "github",
    "sarif",
    "markdown",
    "junit",
    "json-lines",
    "gitlab",
    "azure",
    "full",
]
TEXT_FORMATS = ("text", "concise", "full")  # the text report: what --scores, --statistics and -q shape
_NO_NOTICES = ("sarif", "junit", "json-lines", "gitlab")  # reports with no place for a notice: stderr has them


class _EnvChoice(click.Choice):
    """A Choice whose error names the environment variable when the bad value came from there."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            source = ctx.get_parameter_source(param.name) if ctx is not None and param and param.name else None
            if source is click.core.ParameterSource.ENVIRONMENT and isinstance(param, click.Option) and param.envvar:
                exc.param_hint = f"{param.envvar} (the environment variable)"
            raise


EXIT_ERROR = 2  # usage, config or input error (0 clean and 1 findings come from Run.exit_code)


def _split(values: tuple[str, ...]) -> list[str]:
    return [part.strip() for v in values for part in v.split(",") if part.strip()]


def _codes(values: tuple[str, ...], option: str, what: str = "rule code") -> list[str]:
    """A comma-separated list flag: each value must name something, so '--ignore ""' or
    '--per-file-ignores "*:,"' is an error instead of a silently empty list."""
    codes: list[str] = []
    for value in values:
        parts = _split((value,))
        if not parts:
            example = "e.g. mcp,anthropic" if what == "client" else "e.g. DESC,SCH-002, or ALL for every rule but CMP"
            fail(f"error: {option}: no {what} given in {value!r} ({example})")
        codes += parts
    return codes


_PAIR_SHAPES = {
    "--severity": "CODE=LEVEL",
    "--per-file-ignores": "GLOB:CODES",
    "--extend-per-file-ignores": "GLOB:CODES",
    "--per-tool-ignores": "GLOB:CODES",
}


def _pairs(values: tuple[str, ...], sep: str, option: str) -> list[tuple[str, str]]:
    pairs = []
    for value in values:
        key, found, rest = value.rpartition(sep)
        if not found or not key or not rest:
            fail(f"error: {option}: expected {_PAIR_SHAPES.get(option, 'KEY' + sep + 'VALUE')}, got {value!r}")
        pairs.append((key, rest))
    return pairs


def _env_pairs(values: tuple[str, ...]) -> dict[str, str]:
    """--env NAME=VALUE: split at the first '=' (values such as base64 keys and DSNs hold '='); a value
    may be empty."""
    pairs = {}
    for value in values:
        name, found, rest = value.partition("=")
        if not found or not name.strip() or "\0" in value:
            fail(f"error: --env: expected NAME=VALUE, got {value!r}")
        pairs[name] = rest
    return pairs


def _is_stream(output_file: str) -> bool:
    """A device or a pipe (/dev/null, /dev/stdout, a FIFO): written to as a stream, never replaced."""
    from catalint.loader import special_kind

    # /dev/stdout may lead to a regular file (a redirect): still a stream
    return names_a_stream(output_file) or special_kind(output_file) is not None


def _stage(chunks: Iterable[str], output_file: str, made: list[Path]) -> tuple[str, Path]:
    """chunks written to a temporary file beside output_file (beside its target, for a symbolic link, which
    then keeps pointing at it); (the temporary file, where it goes). The folders it lacks are made, as ruff
    makes them, and added to made for the caller to remove should the run fail. Nothing else is left behind
    on failure."""
    import errno
    import tempfile

    if output_file.endswith(("/", os.sep)):  # a folder's name, as the shell reads `> out/`: no file named "out"
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), output_file)
    target = Path(os.path.realpath(output_file))
    if target.is_symlink():  # a loop of links, which realpath leaves unresolved: the shell's `>` refuses it too
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), output_file)
    for folder in reversed(missing_folders(target.parent)):
        os.mkdir(folder)
        made.append(Path(folder))
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as fh:
            fh.writelines(chunks)
        _default_mode(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp, target


_OWN_STREAMS = {
    name: (lambda: sys.stdout) if fd == 1 else (lambda: sys.stderr)
    for fd, names in ((1, ("/dev/stdout",)), (2, ("/dev/stderr",)))
    for name in (*names, f"/dev/fd/{fd}", f"/proc/self/fd/{fd}")
}


def write_output(text: str | Iterable[str], output_file: str | None) -> None:
    """Print, or write to a stream: this process's own, a device or a pipe (-o /dev/null), written to, never
    replaced; text may come in chunks. Files are staged and renamed into place by save_all."""
    chunks = _chunks(text)
    if output_file is None:
        for chunk in chunks:  # not click.echo: it would scan a large report for colour codes
            sys.stdout.write(chunk)
        return
    if output_file in _OWN_STREAMS:  # this process's own stream: written as it is open (>> appends)
        own = _OWN_STREAMS[output_file]()
        own.flush()
        own.writelines(chunks)
        own.flush()
        return
    with open(output_file, "w", encoding="utf-8", errors="backslashreplace") as stream:
        stream.writelines(chunks)


def _remove_folders(made: list[Path]) -> None:
    """Remove the folders a failed write made for its output (the innermost first), those left empty."""
    for folder in reversed(made):
        try:
            folder.rmdir()
        except OSError:
            pass


def save(text: str | Iterable[str], output_file: str | None, what: str = "report") -> None:
    """One output, as save_all writes them: a failure is one line and exit 2; a reader that went away (| head)
    is no failure, and entry() ends the run quietly."""
    save_all([(output_file, lambda: text)], what)


class _Terminated(BaseException):
    """SIGTERM while outputs are written (a CI step's timeout, a cancelled job)."""


def _terminated(_signum: int, _frame: Any) -> None:
    raise _Terminated


def save_all(outputs: list[tuple[str | None, Callable[[], str | Iterable[str]]]], what: str = "report") -> None:
    """Several outputs of one run (each a target, None for standard output, and what renders it), all or
    none: files are written to temporary files first and renamed into place only once every output,
    standard output and devices included, has been written. A failure is one line naming its target,
    exit 2, and leaves no new file and every old one as it was; only a rename that fails after another
    succeeded (in the same folder: next to never) leaves the earlier ones in place. SIGTERM meanwhile
    (what a CI step's timeout sends) removes the temporary files too, as Ctrl-C does, and then ends
    catalint as SIGTERM ends it: a 100 MB half-written .report.sarif.XXXX was left beside the target."""
    import signal
    import threading

    previous = None  # only the main thread can take a signal, and a handler of the caller's own is left alone
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        _save_all(outputs, what)
    except _Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        if hasattr(signal, "pause"):
            signal.pause()  # the signal ends the process before this returns
        raise SystemExit(128 + signal.SIGTERM) from None  # where the signal does not end it (Windows)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _save_all(outputs: list[tuple[str | None, Callable[[], str | Iterable[str]]]], what: str) -> None:
    streams = [target is None or _is_stream(target) for target, _ in outputs]
    staged: list[tuple[str, Path, str]] = []  # (temporary file, where it goes, the target as given)
    made: list[Path] = []  # folders made for the files, removed again if the run fails
    target: str | None = None
    done = False
    try:
        try:
            for (target, make), stream in zip(outputs, streams, strict=True):
                if not stream and target is not None:
                    staged.append((*_stage(_chunks(make()), target, made), target))
            for (target, make), stream in zip(outputs, streams, strict=True):
                if stream:
                    write_output(make(), target)
                    if target is None:
                        sys.stdout.flush()  # a full disk says so now, before any file is put in place
        except BrokenPipeError:  # the reader of standard output went away: no failure, the files still count
            for tmp, path, _ in staged:
                os.replace(tmp, path)
            done = True
            raise
        except OSError as exc:
            if target is None:
                sys.exit(_stdout_error(exc))
            fail(f"{target}: error: cannot write {what}: {exc.strerror or exc}")
        for tmp, path, target in staged:
            try:
                os.replace(tmp, path)
            except OSError as exc:
                fail(f"{target}: error: cannot write {what}: {exc.strerror or exc}")
        done = True
    finally:
        for tmp, _, _ in staged:  # those not renamed
            Path(tmp).unlink(missing_ok=True)
        if not done:
            _remove_folders(made)


def _chunks(text: str | Iterable[str]) -> Iterable[str]:
    return [text] if isinstance(text, str) else text


_stdout_said = False


def _stdout_error(exc: OSError) -> int:
    """Say once that standard output cannot be written (a full disk, a closed stream); the exit code, 2."""
    global _stdout_said
    if not _stdout_said:
        _stdout_said = True
        try:
            sys.stderr.write(f"error: cannot write to standard output: {exc.strerror or exc}\n")
            sys.stderr.flush()
        except OSError:
            pass
    return EXIT_ERROR


class StdoutError(OSError):
    """Standard output refused a write: a full disk (> /dev/full), or a stream catalint was started without."""


class _Stdout(io.FileIO):
    """File descriptor 1, whose write errors say they are standard output's. A reader that went away
    (catalint rules | head -1) is no error: the rest of the output is dropped and the command ends with its
    own exit code (lint: 1 on findings), where click would end any EPIPE with exit 1."""

    reader_gone = False

    def write(self, data: Any) -> int:
        if self.reader_gone:
            return len(data)
        try:
            return super().write(data)
        except BrokenPipeError:
            self.reader_gone = True
            return len(data)
        except OSError as exc:
            raise StdoutError(exc.errno, exc.strerror) from None


class _ClosedStdout(io.RawIOBase):
    """Standard output when catalint was started with it closed (>&-)."""

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        raise StdoutError(errno.EBADF, "it is closed")


class _Stderr(io.FileIO):
    """File descriptor 2, which drops what it cannot write (2>/dev/full): the message is lost, and the exit code,
    which says what happened, is the command's own (a failed write ended any error with exit 1)."""

    def write(self, data: Any) -> int:
        try:
            return super().write(data)
        except OSError:
            return len(data)


class _NoStderr(io.RawIOBase):
    """Standard error when catalint was started with it closed (2>&-): what is said there goes nowhere."""

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        return len(data)


def _own_stream(name: str, fd: int, mine: type[io.FileIO], closed: type[io.RawIOBase]) -> None:
    """sys.stdout or sys.stderr (name) as Python set it up (buffered or not: python -u, PYTHONUNBUFFERED), its
    file descriptor written through mine; closed stands for it when catalint was started without it."""
    old = getattr(sys, name)
    if old is None:
        setattr(sys, name, io.TextIOWrapper(io.BufferedWriter(closed()), encoding="utf-8", line_buffering=fd == 2))
        return
    buffer = getattr(old, "buffer", None)
    raw = getattr(buffer, "raw", buffer)
    if not isinstance(old, io.TextIOWrapper) or type(raw) is not io.FileIO or raw.fileno() != fd:
        return  # not the process's own stream: leave it be
    stream = mine(fd, "w", closefd=False)
    wrapped = io.TextIOWrapper(
        stream if buffer is raw else io.BufferedWriter(stream),
        encoding=old.encoding,
        errors=old.errors,
        line_buffering=old.line_buffering,
        write_through=old.write_through,
    )
    setattr(sys, name, wrapped)


def _default_mode(tmp: str, target: Path) -> None:
    """mkstemp makes the file 0600: give it the mode the file had, or what the umask allows a new file."""
    try:
        mode = target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(tmp, mode)


def _line(text: str) -> str:
    """One line for stderr or a terminal: file names and catalog text are untrusted (see text.one_line)."""
    from catalint.text import one_line

    return one_line(text)


def fail(message: str) -> NoReturn:
    """One error line on stderr (a line break inside a quoted name is escaped), then exit 2."""
    click.echo(_line(message), err=True)
    sys.exit(EXIT_ERROR)


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="catalint")
def main() -> None:
    """Lint MCP tools/list catalogs: descriptions and schemas that agents read."""


class _LintCommand(click.Command):
    """lint, where a pre-commit hook's file named like an option ('-o.tools.json') stays a file."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if os.environ.get("PRE_COMMIT") == "1" and "--" not in args:
            args = _files_after_dashes(self, args)
        return super().parse_args(ctx, args)


def _files_after_dashes(command: click.Command, args: list[str]) -> list[str]:
    """pre-commit runs entry, then the hook's args, then the file names: the names are the longest run of
    existing paths at the end, less one that is the value of the option before it (--config c.toml). When
    one of them starts with '-', '--' goes before them, so that click does not read it as an option."""
    valued = {
        name
        for param in command.params
        if isinstance(param, click.Option) and not param.is_flag and not param.count
        for name in param.opts
    }
    start = len(args)
    while start > 0 and os.path.lexists(args[start - 1]):
        start -= 1
    while start < len(args) and start > 0 and args[start - 1] in valued:
        start += 1  # that path is the option's value, not a file of the hook's
    if any(arg.startswith("-") for arg in args[start:]):
        return [*args[:start], "--", *args[start:]]
    return args


def _given_url(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """An empty --url (a variable left unset: secrets are empty on a fork's pull request) is an error, not
    "no --url": lint would lint the working directory instead, and pass on finding nothing there."""
    if value is not None and not value.strip():
        fail("error: --url: give a URL, not an empty one (is the variable that holds it set?)")
    return value


@main.command(cls=_LintCommand)
@click.argument("paths", nargs=-1, type=click.Path(dir_okay=True, allow_dash=True, readable=False))
@config_option("Use this config file for every linted file instead of the nearest one.")
@click.option(
    "--select",
    multiple=True,
    metavar="CODES",
    help="Rules to enable (codes or prefixes, comma-separated); replaces the config's select.",
)
@click.option("--extend-select", multiple=True, metavar="CODES", help="Rules to enable on top of select.")
@click.option("--ignore", multiple=True, metavar="CODES", help="Rules to disable (added to the config's ignore).")
@click.option(
    "--per-file-ignores",
    multiple=True,
    metavar="GLOB:CODES",
    help="Ignore CODES in files matching GLOB (repeatable); replaces the config's per-file-ignores.",
)
@click.option(
    "--extend-per-file-ignores",
    multiple=True,
    metavar="GLOB:CODES",
    help="Like --per-file-ignores, but added to the config's per-file-ignores.",
)
@click.option(
    "--per-tool-ignores",
    multiple=True,
    metavar="GLOB:CODES",
    help="Ignore CODES for tools whose name matches GLOB (repeatable).",
)
@click.option(
    "--severity",
    "severities",
    multiple=True,
    metavar="CODE=LEVEL",
    help="Override a rule's severity: critical, warning or info (repeatable).",
)
@click.option(
    "--fail-severity",
    type=click.Choice(["critical", "warning", "info"], case_sensitive=False),  # as the config and --severity
    help="Lowest severity that makes the run fail (default: critical).",
)
@click.option(
    "--include",
    multiple=True,
    metavar="GLOB",
    help="File-name globs that directory arguments pick up (replaces the defaults).",
)
@click.option("--exclude", multiple=True, metavar="GLOB", help="Globs skipped in directories (replaces the defaults).")
@click.option(
    "--extend-exclude",
    multiple=True,
    metavar="GLOB",
    help="Globs skipped besides exclude (added to the config's extend-exclude; read from the working directory).",
)
@click.option(
    "--respect-gitignore/--no-respect-gitignore",
    default=None,
    help="Skip what git ignores (.gitignore, .git/info/exclude) in directories (default: on, as in ruff).",
)
@click.option(
    "--force-exclude/--no-force-exclude",
    default=None,
    help="Skip files named on the command line that exclude covers too (the pre-commit hook sets it).",
)
@click.option(
    "--output-format",
    type=_EnvChoice(OUTPUT_FORMATS),
    default="text",
    show_default=True,
    envvar="CATALINT_OUTPUT_FORMAT",
    help="Report format (also set by CATALINT_OUTPUT_FORMAT).",
)
@output_option()
@click.option(
    "--report",
    "reports",
    multiple=True,
    metavar="FORMAT:FILE",
    help="Also write the report in FORMAT to FILE (repeatable), e.g. sarif:catalint.sarif.",
)
@click.option(
    "--statistics",
    is_flag=True,
    help="Print the number of findings per rule instead of each finding (text; in json, a statistics list).",
)
@click.option(
    "-q",
    "--quiet",
    is_flag=True,
    help="Text format: print the findings (or --statistics rows) and failed gate checks, nothing else (ruff -q).",
)
@click.option(
    "-s",
    "--silent",
    is_flag=True,
    help="Print no report to standard output (-o and --report files are still written; errors still go to"
    " standard error); the exit code says it.",
)
@click.option(
    "--show-files", is_flag=True, help="Print the catalog files that would be linted, one a line, and lint nothing."
)
@click.option(
    "--show-settings",
    is_flag=True,
    help="Print the settings the first file would be linted with (its config file, rules, ignores, gate), and "
    "lint nothing.",
)
@click.option(
    "-e", "--exit-zero", is_flag=True, help="Exit 0 even when findings reach the fail severity (as ruff's -e)."
)
@click.option(
    "--gate",
    "gates",
    multiple=True,
    metavar="'TARGET OP N'",
    help="A gate check such as 'mean_score>=0.8' (repeatable); replaces the gate's check on that target.",
)
@click.option(
    "--no-gate",
    is_flag=True,
    help="Turn off the configured (or default) gate checks, as gate = false does; --gate checks given with it run.",
)
@click.option(
    "--target",
    "targets",
    multiple=True,
    metavar="CLIENT",
    help="Also check what a client accepts: mcp, openai, openai-strict, anthropic, gemini (repeatable, NAME@VERSION).",
)
@click.option("--scores", is_flag=True, help="Print a table of every tool's score, grade, smells and tokens.")
@click.option("--explain", "explain_tools", multiple=True, metavar="TOOL", help="Show how TOOL's score was reached.")
@click.option(
    "--tokens",
    "with_tokens",
    is_flag=True,
    help="Count tool-surface tokens (cl100k_base): the total on the summary line, per tool in JSON.",
)
@click.option("--tool-token-budget", type=click.IntRange(min=1), help="TOK-001's per-tool budget (default 700).")
@click.option("--catalog-token-budget", type=click.IntRange(min=1), help="TOK-002's catalog budget (default none).")
@click.option(
    "--server",
    "from_server",
    is_flag=True,
    help="PATHS is a server command (after --): snapshot it in memory and lint that.",
)
@click.option(
    "--url", "server_url", callback=_given_url, help="Snapshot this streamable HTTP server in memory and lint that."
)
@click.option("--header", "headers", multiple=True, metavar="'NAME: VALUE'", help="With --url: an HTTP header.")
@click.option("--env", "env", multiple=True, metavar="NAME=VALUE", help="With --server: set a variable for the server.")
@click.option("--inherit-env", is_flag=True, help="With --server: give the server this environment.")
@click.option("--timeout", type=Number(min=0.1), help="With --server or --url: seconds in all (30).")
@click.option(
    "--baseline",
    metavar="BASE",
    help="Report only findings that BASE (a catalog file, or REV:path at a git revision) does not have.",
)
@click.option(
    "--baseline-rev",
    metavar="REV",
    help="Report only findings each linted file did not have at git revision REV (a file new since REV keeps all).",
)
@click.option(
    "--stdin-filename",
    default="-",
    metavar="NAME",
    help=(
        "Name to report for standard input ('-'); given with no path, it reads standard input. "
        "A .yaml/.yml name reads it as YAML."
    ),
)
def lint(
    paths: tuple[str, ...],
    config_path: Path | None,
    isolated: bool,
    select: tuple[str, ...],
    extend_select: tuple[str, ...],
    ignore: tuple[str, ...],
    per_file_ignores: tuple[str, ...],
    extend_per_file_ignores: tuple[str, ...],
    per_tool_ignores: tuple[str, ...],
    severities: tuple[str, ...],
    fail_severity: str | None,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    extend_exclude: tuple[str, ...],
    force_exclude: bool | None,
    respect_gitignore: bool | None,
    output_format: str,
    output_file: str | None,
    reports: tuple[str, ...],
    statistics: bool,
    quiet: bool,
    silent: bool,
    show_files: bool,
    show_settings: bool,
    exit_zero: bool,
    gates: tuple[str, ...],
    no_gate: bool,
    targets: tuple[str, ...],
    scores: bool,
    explain_tools: tuple[str, ...],
    with_tokens: bool,
    tool_token_budget: int | None,
    catalog_token_budget: int | None,
    from_server: bool,
    server_url: str | None,
    headers: tuple[str, ...],
    env: tuple[str, ...],
    inherit_env: bool,
    timeout: float | None,
    baseline: str | None,
    baseline_rev: str | None,
    stdin_filename: str,
) -> None:
    """Lint catalog files, directories of them, or '-' for standard input.

    Settings come from [tool.catalint] in pyproject.toml, or from catalint.toml
    or .catalint.toml: the nearest one above each file. Flags win over them.

    Every file also gets a TDQS score per tool and goes through the quality
    gate (by default min_score >= 0.50, mean_score >= 0.70, critical_count <= 0;
    see 'catalint rule TDQS' and 'catalint rule GATE').

    Exit codes: 0 clean, 1 findings at or above the fail severity or a failed
    gate check, 2 usage, config or input error.
    """
    from catalint.config import ConfigError, Settings, SettingsResolver, flag_glob_notices, unused_notices
    from catalint.discover import expand, no_catalogs_notice
    from catalint.engine import MAX_FILE_FINDINGS, MAX_FILE_POINTER_CHARS, lint_catalogs
    from catalint.formatters import render
    from catalint.loader import LoadError, load_path
    from catalint.model import Catalog
    from catalint.run import Run

    overrides: dict[str, Any] = {}
    if select:  # --select '' would run no rule at all, silently
        overrides["select"] = _codes(select, "--select")
    if extend_select:
        overrides["extend-select"] = _codes(extend_select, "--extend-select")
    if ignore:
        overrides["ignore"] = _codes(ignore, "--ignore")
    if fail_severity:
        overrides["fail-severity"] = fail_severity.lower()
    if include:
        overrides["include"] = list(include)
    if exclude:
        overrides["exclude"] = list(exclude)
    if extend_exclude:
        overrides["extend-exclude"] = list(extend_exclude)
    if force_exclude is not None:
        overrides["force-exclude"] = force_exclude
    if respect_gitignore is not None:
        overrides["respect-gitignore"] = respect_gitignore
    if severities:
        # 'DESC-001 = info' as typed: the code without the spaces (a config key with them is an error)
        overrides["severity"] = {code.strip(): level for code, level in _pairs(severities, "=", "--severity")}
    for key, given in (("per-file-ignores", per_file_ignores), ("extend-per-file-ignores", extend_per_file_ignores)):
        if given:
            by_glob: dict[str, list[str]] = {}  # a glob given twice ignores the codes of both, as in ruff
            for g, c in _pairs(given, ":", f"--{key}"):
                by_glob.setdefault(g, []).extend(_codes((c,), f"--{key}"))
            overrides[key] = by_glob
    if per_tool_ignores:
        overrides["per-tool-ignores"] = [
            {"tools": [g], "rules": _codes((c,), "--per-tool-ignores")}
            for g, c in _pairs(per_tool_ignores, ":", "--per-tool-ignores")
        ]
    if gates:
        overrides["extend-gate"] = list(gates)
    if no_gate:
        overrides["gate"] = False
    if targets:
        overrides["targets"] = _codes(targets, "--target", "client")
    if tool_token_budget is not None:
        overrides["tool-token-budget"] = tool_token_budget
    if catalog_token_budget is not None:
        overrides["catalog-token-budget"] = catalog_token_budget
    extra_reports = []
    for value in reports:
        fmt, _, target = value.partition(":")  # the format comes first; the path may hold colons
        if not target:
            fail(f"error: --report: expected FORMAT:FILE, got {value!r}")
        if fmt not in OUTPUT_FORMATS:
            fail(f"error: --report: unknown format {fmt!r} (use {', '.join(OUTPUT_FORMATS)})")
        if target == "-":  # standard output, as for -o: only one report can go there
            if output_file is None:
                fail(f"error: --report {value}: the {output_format} report already goes to standard output (give -o)")
            if any(t is None for _, t in extra_reports):
                fail(f"error: --report {value}: another --report already goes to standard output")
            extra_reports.append((fmt, None))
            continue
        problem = output_problem(target)  # as -o's: before any work, so that a run that cannot end writes nothing
        if problem is not None:
            fail(f"{target}: error: cannot write report: {problem}")
        extra_reports.append((fmt, target))
    given = [(f"--report {fmt}:{target}", target) for fmt, target in extra_reports]
    refuse_shared_outputs([(f"-o {output_file}", output_file), *given])

    from catalint.quality import assess
    from catalint.tokens import TokenError

    if baseline is not None and baseline_rev is not None:
        fail("error: give --baseline or --baseline-rev, not both")
    base_catalog = None
    if baseline == "-" and not (from_server or server_url) and ("-" in paths or stdin_filename != "-"):
        fail("error: --baseline - and the catalog both read standard input: give one of them as a file")
    if baseline is not None:
        from catalint.diff import load_side

        try:
            base_catalog = load_side(baseline, Path.cwd())
        except LoadError as exc:
            fail(str(exc))
    at_revision = None
    if baseline_rev is not None:
        _check_revision(baseline_rev)
        from catalint.diff import AtRevision

        at_revision = AtRevision(baseline_rev, Path.cwd())

    run = Run(show_scores=scores, explain=list(explain_tools), quiet=quiet)
    count_tokens = with_tokens or scores or bool(explain_tools)
    if not (from_server or server_url) and (headers or env or inherit_env or timeout is not None):
        fail("error: --header, --env, --inherit-env and --timeout apply only with --server or --url")
    live = None
    if paths.count("-") > 1 and not from_server:
        fail("error: '-' (standard input) can be given only once")
    if not stdin_filename.strip():  # every finding would start ':35:5:', which no problem matcher reads
        fail("error: --stdin-filename: give a file name, not an empty one")
    if stdin_filename != "-" and "-" not in paths:
        if paths or from_server or server_url:
            fail("error: --stdin-filename names standard input: give - among the paths to read it")
        paths = ("-",)  # as ruff does: --stdin-filename alone reads standard input
    if baseline_rev is not None and (from_server or server_url):
        fail("error: --baseline-rev compares files with their version at a revision; a server has none: use --baseline")
    if baseline_rev is not None and "-" in paths and stdin_filename == "-":
        # as ruff's, --stdin-filename makes standard input that file: its version at REV is the baseline
        fail("error: --baseline-rev: standard input has no version at a revision: name its file with --stdin-filename")
    if server_url and paths:
        fail(f"error: --url lints the server at that address, not files: drop {paths[0]!r} (or drop --url)")
    if show_files and show_settings:
        fail("error: give --show-files or --show-settings, not both")
    if (show_files or show_settings) and (server_url or from_server):
        fail("error: --show-files and --show-settings look at files: drop --server and --url")
    if from_server or server_url:
        live = _live_catalog(_server(paths, server_url, headers, env, inherit_env, timeout), run.notices)
    try:
        resolver = SettingsResolver(config_path, overrides, isolated)
        resolver.for_dir(Path.cwd())  # report a bad config even when no file is linted
    except ConfigError as exc:
        fail(f"error: {exc}")
    # Every file is read first, so that the lint workers can share out the tools of all of them;
    # messages still come out in file order. A config error found on the way stops the reading:
    # the files before it are linted and reported, then the error ends the run.
    loaded: list[tuple[str, Settings, Catalog | LoadError]] = []

    def empty_dir(directory: str, settings: Settings) -> None:
        run.notices.append(no_catalogs_notice(directory, settings, resolver.for_dir))

    def odd_entry(where: str, problem: LoadError | str, settings: Settings) -> None:
        """A folder below a directory argument that cannot be listed (an error, as an unreadable file is), or
        a FIFO, socket or device skipped (a notice)."""
        if isinstance(problem, LoadError):
            loaded.append((where, settings, problem))
        else:
            run.notices.append(problem)

    config_error: ConfigError | None = None
    skipped: list[str] = []  # covered by exclude, with force-exclude on
    showing = show_files or show_settings  # checked before any server starts
    try:
        for file in ["-"] if live is not None else expand(list(paths) or ["."], resolver.for_dir, empty_dir, odd_entry):
            # as in ruff, standard input named by --stdin-filename is that file: its config, its exclude
            named = stdin_filename if file == "-" and live is None else file
            settings = resolver.for_file(named)
            if settings.force_exclude and named != "-" and settings.excludes(named):
                skipped.append(named)
                continue
            if showing:  # nothing is read; a path that is not there is an error, as it would be
                missing = file != "-" and not os.path.lexists(file)
                shown = LoadError(file, "No such file or directory") if missing else Catalog(named, named, [], None)
                loaded.append((named, settings, shown))
                if show_settings and not missing:  # the first file there is
                    break
                continue
            try:
                loaded.append((file, settings, live if live is not None else load_path(file, stdin_filename)))
            except LoadError as exc:
                loaded.append((file, settings, exc))
    except ConfigError as exc:
        config_error = exc
    if skipped:
        shown = ", ".join(skipped[:3]) + (", ..." if len(skipped) > 3 else "")
        run.notices.append(
            f"notice: {len(skipped)} file{'s' * (len(skipped) != 1)} skipped: exclude covers "
            f"{'them' if len(skipped) != 1 else 'it'} and force-exclude is on ({shown})"
        )
    outputs = [output_file, *(t for _, t in extra_reports)]
    refuse_clobber(outputs, (file for file, _, _ in loaded), "a catalog being linted")
    refuse_clobber(outputs, [config_path, *(s.path for s in resolver.all())], "a config file of this run")
    refuse_clobber(outputs, [baseline], "the baseline")
    if showing:
        _show(loaded, run.notices, config_error, show_settings, resolver, output_file, paths, output_format)
    try:
        linted = lint_catalogs([(c, s) for _, s, c in loaded if not isinstance(c, LoadError)], tokens=count_tokens)
    except TokenError as exc:
        fail(f"error: {exc}")
    outcomes = iter(linted)
    gated_tools: dict[str, list[FileResult]] = {}  # a per-tool gate check: the files it was checked on
    try:
        for file, settings, catalog in loaded:
            result = catalog if isinstance(catalog, LoadError) else next(outcomes)
            if isinstance(result, LoadError):  # unreadable, or its rules crashed: the others still count
                click.echo(_line(str(result)), err=True)
                run.errors.append(result)
                continue
            named = stdin_filename if file == "-" else file
            base = base_catalog if at_revision is None else at_revision(named)
            if at_revision is not None and named in at_revision.unread:  # not new, yet no baseline: say so
                run.notices.append(
                    f"{named}: notice: --baseline-rev: its version at {baseline_rev} could not be read"
                    f" ({at_revision.unread[named]}): every finding is kept"
                )
            base_result = None
            renamed: dict[int, str] = {}
            if base is not None:
                from catalint.diff import apply_baseline

                _, base_result, renamed = apply_baseline(result, base, settings)
            checks = settings.gate_checks()
            catalog = result.catalog
            unscored = settings.unscored(catalog, (t.tool.name for t in result.tools))
            result.quality = assess(result, checks, result.tokens, strict=False, unscored=unscored)
            if base_result is not None:  # the baseline stands for this file: its tools, this file's globs
                # a tool renamed since is known by its new name: its score, its per-tool ignore of ALL
                names = [renamed.get(t.tool.index, t.tool.name) for t in base_result.tools]
                left_out = settings.unscored(catalog, names)
                result.quality.gate = _gate_against(result.quality.gate, base_result, left_out, names)
            for check in checks:
                if check.tool is not None:
                    gated_tools.setdefault(check.target, []).append(result)
            run.files.append(result)
            run.notices += catalog_notices(result.catalog)
            if result.dropped:
                run.notices.append(
                    f"{result.catalog.display}: {result.dropped:,} more findings are not reported: catalint reports "
                    f"at most {MAX_FILE_FINDINGS:,} a file, with {MAX_FILE_POINTER_CHARS:,} characters of pointers"
                )
        if config_error is not None:
            raise config_error
        run.notices += _check_gated_tools(gated_tools, gates)
        if at_revision is not None and at_revision.problem is not None:
            run.notices.append(
                f"notice: --baseline-rev: git could not look for catalogs moved since {baseline_rev} "
                f"({at_revision.problem}): a catalog not at its own path there counts as new"
            )
        missing = [n for n in explain_tools if not any(t.tool.name == n for f in run.files for t in f.tools)]
        if missing and run.files:
            fail(f"error: --explain: no tool named {missing[0]!r} in the linted files")
    except ConfigError as exc:
        fail(f"error: {exc}")
    except TokenError as exc:
        fail(f"error: {exc}")
    run.notices += unused_notices(resolver.all())
    run.notices += flag_glob_notices(resolver.all())
    run.notices += _unused_flag_notices(
        output_format,
        resolver.all(),
        scores or bool(explain_tools) or statistics,
        tool_token_budget,
        catalog_token_budget,
        quiet,
    )
    from dataclasses import replace  # not at start-up (the lint's own modules have loaded it by now)
    from functools import partial

    # --report files are whole reports: --statistics and -q shape the one on standard output (or -o)
    whole = replace(run, quiet=False) if run.quiet else run
    outputs = [(target, partial(render, whole, fmt)) for fmt, target in extra_reports]
    if not (silent and output_file is None):  # -s: no report on standard output, as ruff -s
        outputs.append((output_file, partial(render, run, output_format, statistics=statistics)))
    save_all(outputs)
    if output_format in _NO_NOTICES and not silent:  # a report with no place for them: they go to stderr
        for notice in run.notices:
            click.echo(_line(notice), err=True)
    sys.exit(run.exit_code(exit_zero))


def catalog_notices(catalog: Catalog) -> list[str]:
    """Notices for a catalog that loaded but may not be what its author meant to lint."""
    notices = []
    if not catalog.tools:
        notices.append(f"{catalog.display}: notice: the catalog has no tools; nothing was checked")
    if catalog.more_pages:
        notices.append(
            f"{catalog.display}: notice: it has a nextCursor, so it is one page of tools/list; "
            "`catalint snapshot` takes every page"
        )
    return notices


def _named_in_select(settings: Any, code: str) -> bool:
    """Whether select or extend-select names code or a prefix of it (not only ALL, which takes every rule)."""
    from catalint.registry import matches

    return any(c.upper() != "ALL" and matches(c, code) for c in settings.named_selectors())


def _unused_flag_notices(
    output_format: str,
    settings: Iterable[Any],
    text_only: bool,
    tool_budget: int | None,
    catalog_budget: int | None,
    quiet: bool = False,
) -> list[str]:
    """Notices for flags this run had no use for, rather than silence."""
    notices = []
    if text_only and output_format not in (*TEXT_FORMATS, "json"):
        notices.append(
            f"notice: --scores, --explain and --statistics shape the text report; the {output_format} format"
            " does not show them (json carries every score)"
        )
    if quiet and output_format not in TEXT_FORMATS:  # -q shapes the text report only, as ruff's does its own
        notices.append(f"notice: -q shapes the text report; the {output_format} report is whole")
    enabled = {code for s in settings for code in s.enabled_codes()}
    for budget, code, flag in (
        (tool_budget, "TOK-001", "--tool-token-budget"),
        (catalog_budget, "TOK-002", "--catalog-token-budget"),
    ):
        if budget is not None and code not in enabled:
            notices.append(f"notice: {flag} is {code}'s budget, but {code} is not selected (--extend-select {code})")
    if "TOK-002" in enabled and any(
        s.catalog_token_budget is None and "TOK-002" in s.enabled_codes() and _named_in_select(s, "TOK-002")
        for s in settings
    ):
        notices.append(
            "notice: TOK-002 is selected but has no budget to check against: set catalog-token-budget "
            "(or --catalog-token-budget)"
        )
    return notices


def _gate_against(rows: list[Any], base: FileResult, unscored: set[str], names: list[str]) -> list[Any]:
    """The gate rows with score checks judged against the baseline's scores (gate.against_baseline),
    as its lint scored them. names: each baseline tool's name now (a tool renamed since is known by its new
    name, as its findings are); unscored: the names an ignore of ALL leaves out."""
    from catalint.gate import against_baseline
    from catalint.tdqs import mean_score, score

    kept = [
        (name, (tr.score or score(tr.tool)).score)
        for name, tr in zip(names, base.tools, strict=True)
        if name not in unscored
    ]
    if not kept:
        return rows
    values = [value for _, value in kept]  # every tool counts, two that now share a name too
    by_name: dict[str, float] = {}
    for name, value in kept:
        by_name[name] = min(value, by_name.get(name, value))
    # the mean rounded as the current one is: unrounded, an unchanged catalog fell below itself
    before = {"min_score": min(values), "mean_score": mean_score(values)}
    return against_baseline(rows, before, by_name)


def _check_gated_tools(gated: dict[str, list[FileResult]], given: tuple[str, ...]) -> list[str]:
    """A per-tool gate check counts on the files that have the tool. When none has it: a GateError for a
    check given with --gate (a misspelt name), a notice for one from the config, or from a hook's args
    under pre-commit (it lints only the changed files, in batches, which may not hold that tool)."""
    from catalint.gate import Check, GateError, parse_short

    under_pre_commit = os.environ.get("PRE_COMMIT") == "1"
    on_command_line = set() if under_pre_commit else {parse_short(g, "--gate").target for g in given}
    notices = []
    for target, results in gated.items():
        name = Check(target).tool
        if any(t.tool.name == name for r in results for t in r.tools):
            continue
        where = f"{results[0].catalog.display}: " if len(results) == 1 else ""
        place = "this catalog" if len(results) == 1 else f"any of the {len(results)} linted files"
        if target in on_command_line:
            raise GateError(f"{where}gate {target}: there is no tool named {name!r} in {place}")
        notices.append(f"{where}notice: gate {target}: there is no tool named {name!r} in {place}; not checked")
    return notices


@main.command("rules")
@click.option("--output-format", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
def rules_cmd(output_format: str) -> None:
    """List every rule: code, name, severity, smell and summary."""
    from catalint.docs import rule_dict, rules_table
    from catalint.registry import all_rules

    if output_format == "json":
        click.echo(json.dumps([rule_dict(r) for r in all_rules()], indent=2))
    elif output_format == "markdown":
        click.echo(rules_table(), nl=False)
    else:
        rules = all_rules()
        code_w = max(len(r.code) for r in rules)
        name_w = max(len(r.name) for r in rules)
        smell_w = max(len(r.smell) for r in rules)
        for r in rules:
            off = "" if r.default else " (off by default)"
            click.echo(
                f"{r.code:<{code_w}}  {r.name:<{name_w}}  {r.severity!s:<8}  {r.smell:<{smell_w}}  {r.summary}{off}"
            )


@main.command("rule")
@click.argument("code", required=False)
@click.option("--all", "every", is_flag=True, help="Explain every rule, in code order (as ruff's rule --all).")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rule_cmd(code: str | None, every: bool, output_format: str) -> None:
    """Explain one rule (by code such as DESC-009, or by name); TDQS, GATE and TRACE explain those topics."""
    from catalint.docs import explain, rule_dict
    from catalint.registry import all_rules, get_rule, matches

    if every == (code is not None):
        fail("error: give one rule CODE, or --all" if not every else "error: give a rule CODE or --all, not both")
    if every:
        rules = all_rules()
        if output_format == "json":
            click.echo(json.dumps([rule_dict(r) for r in rules], indent=2))
        else:
            click.echo("\n".join(explain(r) for r in rules), nl=False)
        return
    assert code is not None
    topic = _topic(code)
    if topic is not None:
        out = json.dumps({"code": code.strip().upper(), "explanation": topic}, indent=2)
        click.echo(out if output_format == "json" else topic, nl=output_format == "json")
        return
    r = get_rule(code)
    if r is None:
        family = [rule.code for rule in all_rules() if code.strip() and matches(code.strip(), rule.code)]
        if family:  # a prefix, as --select takes: DESC, SCH-00, ALL
            shown = ", ".join(family) if len(family) <= 16 else f"{', '.join(family[:16])}, ..."
            fail(
                f"error: {code!r} names {len(family)} rules, not one: {shown} "
                "('catalint rule CODE' explains one, 'catalint rule --all' every one)"
            )
        from difflib import get_close_matches

        words = {w.lower(): w for rule in all_rules() for w in (rule.code, rule.name)}
        words.update((w.replace("-", "_"), words[w]) for w in list(words))  # missing_description: missing-description
        near = get_close_matches(code.strip().lower(), words, n=1)
        hint = f"did you mean {words[near[0]]!r}? " if near else ""
        fail(f"error: unknown rule {code!r} ({hint}see 'catalint rules'; also TDQS, GATE and TRACE)")
        return
    if output_format == "json":
        click.echo(json.dumps(rule_dict(r), indent=2))
    else:
        click.echo(explain(r), nl=False)


@main.group("bench")
def bench_group() -> None:
    """Prove that descriptions carry selection signal: mutate them and watch selection drop."""


@bench_group.command("run")
@click.argument("spec", type=click.Path(dir_okay=True, readable=False))
@click.option(
    "--min-drop",
    type=Number(0.0, 1.0),
    metavar="FRACTION",
    help="Exit 1 unless some mutation drops accuracy by at least this much (0.1 = 10 points).",
)
@click.option(
    "--auto",
    is_flag=True,
    help="Mutate every gold tool with every kind instead of the spec's mutations (the default when it has none).",
)
@click.option("--output-format", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
@output_option()
def bench_run(spec: str, min_drop: float | None, auto: bool, output_format: str, output_file: str | None) -> None:
    """Run a bench SPEC (YAML or JSON; '-' reads standard input): baseline selection, then each mutation.

    Exit codes: 0 done (and --min-drop met), 1 --min-drop not met, 2 bad spec.
    'catalint bench explain' documents the selector; 'catalint bench schema'
    prints the spec's JSON Schema.
    """
    from catalint.bench import run
    from catalint.bench_spec import load_spec
    from catalint.formatters.bench_report import FORMATS, passed
    from catalint.loader import LoadError
    from catalint.tokens import TokenError

    refuse_clobber([output_file], [spec], "the bench spec")
    try:
        loaded = load_spec(spec)
        refuse_clobber([output_file], [loaded.catalog.path], "the spec's catalog")  # before the (long) run
        report = run(loaded, auto=auto)
    except LoadError as exc:
        fail(str(exc))
        return
    except TokenError as exc:
        fail(f"error: {exc}")
        return
    for notice in report.notices:
        click.echo(_line(notice), err=True)
    save(FORMATS[output_format](report, min_drop), output_file)
    sys.exit(1 if min_drop is not None and not passed(report, min_drop) else 0)


@bench_group.command("explain")
def bench_explain() -> None:
    """How the bench selector tokenises, scores and breaks ties."""
    from catalint.selector import EXPLANATION

    click.echo(EXPLANATION, nl=False)


@bench_group.command("schema")
def bench_schema() -> None:
    """Print the JSON Schema that bench specs are validated against."""
    from catalint.bench_spec import spec_schema

    click.echo(json.dumps(spec_schema(), indent=2))


@main.command("snapshot", context_settings={"ignore_unknown_options": True})
@click.option(
    "-o",
    "--output",
    "--output-file",
    "output",
    required=True,
    type=click.Path(),
    callback=output_target("the snapshot"),
    help="The snapshot file (--output-file as in the other commands).",
)
@click.option("--check", is_flag=True, help="Compare the live catalog with the file instead of writing it.")
@click.option("--url", callback=_given_url, help="A streamable HTTP server instead of a command.")
@click.option("--header", "headers", multiple=True, metavar="'NAME: VALUE'", help="HTTP header; ${VAR} expands.")
@click.option("--env", "env", multiple=True, metavar="NAME=VALUE", help="Set a variable for the server process.")
@click.option("--inherit-env", is_flag=True, help="Give the server process this environment, not the SDK's few.")
@click.option("--timeout", type=Number(min=0.1), help="Seconds in all.  [default: 30]")
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
def snapshot_cmd(
    output: str,
    check: bool,
    url: str | None,
    headers: tuple[str, ...],
    env: tuple[str, ...],
    inherit_env: bool,
    timeout: float | None,
    command: tuple[str, ...],
) -> None:
    """Save a live server's tools/list: catalint snapshot -o tools.json -- CMD [ARGS...], or --url URL.

    The tools are written exactly as the server sent them ({"tools": [...]}, JSON
    or YAML by the file name), and only after a complete snapshot. --check exits 1
    with a diff when the file is out of date. The SDK starts a stdio server with
    only a few environment variables (HOME, PATH, ...): pass what it needs with
    --env NAME=VALUE, or --inherit-env (CA certificates, API keys read at start-up).

    Exit codes: 0 written (or up to date), 1 --check found a difference, 2 error.
    """
    from catalint.snapshot import SnapshotError, is_yaml_name, render, take

    server = _server(command, url, headers, env, inherit_env, timeout)
    notes: list[str] = []
    try:
        tools = take(server, notes)
        text = render(tools, is_yaml_name(output))
    except SnapshotError as exc:
        fail(f"error: snapshot failed: {exc}")
        return
    for note in notes:
        click.echo(_line(f"{server.label()}: notice: {note}"), err=True)
    if check:
        sys.exit(_check_snapshot(output, text))
    save(text, output, "the snapshot")
    click.echo(_line(f"{output}: {len(tools)} tool{'s' * (len(tools) != 1)} from {server.label()}"), err=True)


@main.command("check")
@click.argument("suite", type=click.Path(dir_okay=False, readable=False))
@click.option(
    "--traces",
    "traces_dir",
    type=click.Path(exists=True, file_okay=False),
    help="Score the agent scenarios' runs here.",
)
@click.option(
    "--catalog",
    "catalogs",
    multiple=True,
    metavar="SERVER=PATH",
    help="A server's saved catalog, read instead of starting the server or reading its catalog: file; PATH alone"
    " names the server after the file, up to its first dot (repeatable).",
)
@click.option("--output-format", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
@output_option()
@click.option("--compare", "baseline", type=click.Path(dir_okay=False), help="A saved JSON report to diff against.")
@config_option("Use this config file for every catalog instead of the nearest one.")
def check_cmd(
    suite: str,
    traces_dir: str | None,
    catalogs: tuple[str, ...],
    output_format: str,
    output_file: str | None,
    baseline: str | None,
    config_path: Path | None,
    isolated: bool,
) -> None:
    """Run an mcptest-style SUITE (YAML or JSON): tool_quality blocks, and agent scenarios with --traces.

    Each tool_quality block lints a server's live catalog (servers: NAME: command
    or url), a saved one (servers: NAME: catalog: FILE, or --catalog NAME=FILE,
    which wins over both) or a catalog file, with
    the rules, ignores and severities of the config `catalint lint` would use
    there (beside the suite for a server), and gates it (expect:, or the default
    gate). With --traces DIR, each agents:/tests:
    entry with trace blocks (equal_function_sets, tool_selection, distractors,
    orchestration, token_efficiency) is scored against its recorded runs:
    DIR/NAME.json, .jsonl, .ndjson, .yaml or .yml, or the folder DIR/NAME/ (NAME as written, or
    lower-cased with dashes). One row per check; exit 1 when any fails, 2 for an
    invalid suite, an unreadable catalog or traces, or a server that could not be read.
    """
    from catalint.config import ConfigError, SettingsResolver
    from catalint.engine import lint_catalog
    from catalint.loader import LoadError
    from catalint.quality import assess
    from catalint.snapshot import SnapshotError
    from catalint.suite import catalog_files, catalog_for, load_suite
    from catalint.trace_cli import catalog_option, check_traces, parse_catalogs, suite_catalogs

    try:
        loaded = load_suite(suite)
    except LoadError as exc:
        fail(str(exc))
        return
    read = catalog_files(loaded, suite)
    refuse_clobber([output_file], [suite], "the suite")
    refuse_clobber([output_file], [*read, *(catalog_option(c)[1] for c in catalogs)], "a catalog the suite reads")
    refuse_clobber([output_file], [config_path], "the config file")
    for notice in loaded.notices:
        click.echo(_line(notice), err=True)
    given = parse_catalogs(catalogs)  # a bad --catalog stops the run before any server starts
    scored = bool(traces_dir and loaded.scenarios)
    served = {b.source for b in loaded.blocks if b.kind == "server"}
    for name in given:
        if name not in served and not scored:
            click.echo(_line(f"{suite}: notice: --catalog {name}: no tool_quality block reads that server"), err=True)
    if loaded.scenarios and not traces_dir:
        names = ", ".join(repr(s.name) for s in loaded.scenarios)
        if not loaded.blocks:  # nothing would be checked: no silent pass (an empty suite is an error too)
            fail(
                f"{suite}: error: nothing to check without recorded runs: the scenarios {names} are scored"
                " against them: give --traces DIR"
            )
        click.echo(_line(f"{suite}: notice: skipping the trace-scored scenarios {names}: give --traces DIR"), err=True)
    resolver = SettingsResolver(config_path, {}, isolated)
    quality: list[dict[str, Any]] = []
    said_before: set[str] = set()  # blocks that read one broken catalog: its error once, each block failed

    def read(block: Any, notes: list[str]) -> tuple[Any, set[str]]:
        """The block's catalog linted, and its tools left out of the scores."""
        if block.kind == "server" and block.source in given:
            catalog = given[block.source]  # the saved catalog given for the server, not the server
        else:
            catalog = catalog_for(block, loaded.servers, suite, notes)
        # the config `catalint lint` would use on the file (or, for a server, beside the suite);
        # the block's own checks are its gate
        where = catalog.path if os.path.isfile(catalog.path) else suite
        block_settings = resolver.for_file(where)
        linted = lint_catalog(catalog, block_settings)
        return linted, block_settings.unscored(catalog, (t.tool.name for t in linted.tools))

    # Blocks that read the same catalog or server share one reading and one lint (300 blocks on one
    # 1,500-tool catalog linted it 300 times: 2 minutes); each block applies its own checks.
    done: dict[tuple[str, str], tuple[Any, set[str]] | LoadError | SnapshotError] = {}
    for block in loaded.blocks:
        entry: dict[str, Any] = {"name": block.name, "kind": block.kind, "source": block.source}
        notes: list[str] = []
        try:
            key = (block.kind, block.source)
            if key not in done:
                try:
                    done[key] = read(block, notes)
                except (LoadError, SnapshotError) as exc:
                    done[key] = exc
            known = done[key]
            if isinstance(known, Exception):
                raise known
            linted, left_out = known
            rows = assess(linted, block.checks, False, unscored=left_out).gate
        except (LoadError, SnapshotError) as exc:  # on stderr as lint reports it, and as the block's row
            # a server's failure names the suite and the server, which the snapshot's own words do not
            said = f"{suite}: error: server {block.source!r}: {exc}" if isinstance(exc, SnapshotError) else str(exc)
            if said not in said_before:
                said_before.add(said)
                click.echo(_line(said), err=True)
            quality.append({**entry, "error": str(exc), "passed": False, "gates": []})
            continue
        except ConfigError as exc:
            fail(f"{suite}: error: {exc}")
            return
        for note in notes:
            click.echo(_line(f"<{block.source}>: notice: {note}"), err=True)
        quality.append({**entry, "passed": all(r.passed for r in rows), "gates": [r.as_dict() for r in rows]})
    results = []
    if scored:
        found = {**suite_catalogs(loaded.servers, suite, given), **given}
        results = check_traces(loaded.scenarios, traces_dir, found, output_file)
    elif traces_dir:
        click.echo(_line(f"{suite}: notice: --traces given, but no agents:/tests: entry has trace blocks"), err=True)
    from catalint.trace_cli import report_check

    report_check(quality, results, output_format, output_file, baseline)
    failed = not all(q["passed"] for q in quality) or not all(r.passed for r in results)
    unreadable = any("error" in q for q in quality)  # a catalog or server that could not be read: as lint does
    sys.exit(2 if unreadable else 1 if failed else 0)


def _server(
    command: tuple[str, ...],
    url: str | None,
    headers: tuple[str, ...],
    env: tuple[str, ...],
    inherit: bool,
    timeout: float | None,
) -> Any:
    """The server that snapshot, or lint --server/--url, talks to, from their shared options.
    timeout None: snapshot.DEFAULT_TIMEOUT (read here, so that start-up does not import snapshot)."""
    from catalint.snapshot import DEFAULT_TIMEOUT, Server

    if url and command:
        fail("error: give a command after -- or --url, not both")
    header_map = {}
    for value in headers:
        name, sep, rest = value.partition(":")
        if not sep or not name.strip():
            fail("error: --header: expected 'NAME: VALUE', got a value without a name")
        header_map[name.strip()] = rest.strip()
    env_map = _env_pairs(env)
    seconds = DEFAULT_TIMEOUT if timeout is None else timeout
    return Server(list(command), url, header_map, env_map, inherit, seconds, "--timeout gives it longer")


def _live_catalog(server: Any, notices: list[str]) -> Any:
    """A server's catalog, snapshotted in memory; positions are those of the snapshot as it would be written.
    What the snapshot notices goes to notices. A catalog of the wrong shape (a tool with no name) comes back
    as its LoadError, reported as an unreadable file is."""
    from catalint.loader import LoadError
    from catalint.snapshot import SnapshotError, live_catalog

    notes: list[str] = []
    try:
        catalog = live_catalog(server, notes, f"<{server.label()}>")
    except SnapshotError as exc:
        fail(f"error: snapshot failed: {exc}")
    except LoadError as exc:
        catalog = exc
    notices.extend(f"<{server.label()}>: notice: {note}" for note in notes)
    return catalog


def _check_snapshot(saved: str, live_text: str) -> int:
    """0 when the saved snapshot matches the live catalog; else print what changed and return 1."""
    from catalint.diff import canonical, compare
    from catalint.diff_cli import format_text
    from catalint.loader import LoadError, load_path, load_text

    try:
        base = load_path(saved)
        live = load_text(live_text, saved, f"{saved} (live)")  # a tool with no name: placed as in the snapshot
    except LoadError as exc:
        fail(str(exc))
    if [t.raw for t in base.tools] == [t.raw for t in live.tools]:
        click.echo(_line(f"{saved}: up to date ({len(live.tools)} tools)"))
        return 0
    if sorted(canonical(t.raw) for t in base.tools) == sorted(canonical(t.raw) for t in live.tools):
        # The same tools in another order: what an agent sees is unchanged (a server may list them in any order).
        click.echo(_line(f"{saved}: up to date ({len(live.tools)} tools; the server lists them in another order)"))
        return 0
    click.echo(_line(f"{saved}: out of date; run the same command without --check to update it"))
    click.echo(format_text(compare(base, live)), nl=False)
    return 1


def _check_revision(rev: str) -> None:
    import subprocess

    if rev.startswith("-"):  # git would read it as an option
        fail(f"error: --baseline-rev: {rev!r} is not a git revision: a revision cannot begin with '-'")
    try:
        done = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], capture_output=True)
    except OSError as exc:
        fail(f"error: --baseline-rev: cannot run git: {exc.strerror or exc}")
        return
    if done.returncode != 0:
        inside = subprocess.run(["git", "rev-parse", "--git-dir"], capture_output=True).returncode == 0
        if not inside:
            fail("error: --baseline-rev: the current directory is not in a git repository")
        fail(f"error: --baseline-rev: {rev!r} is not a commit of this repository")


def _topic(code: str) -> str | None:
    """The documentation that `catalint rule` shows besides rules: the score and the gate."""
    wanted = code.strip().upper()
    if wanted == "TDQS":
        from catalint.tdqs import EXPLANATION

        return EXPLANATION
    if wanted == "GATE":
        from catalint.gate import EXPLANATION as GATE

        return GATE
    if wanted == "TRACE":
        from catalint.trace_scenario import EXPLANATION as TRACE

        return TRACE
    return None


main.add_command(diff_command)
main.add_command(trace_group)


def entry() -> None:
    """Console-script entry: run the CLI, then leave without tearing the heap down.

    Freeing every parsed object one by one at interpreter exit can take longer
    than reading a large catalog did; the report is flushed first. The cycle
    collector is off too: a run is short, makes no cycles worth collecting, and
    the collector would only rescan the parsed catalogs over and over.
    """
    import gc

    gc.disable()
    _own_stream("stdout", 1, _Stdout, _ClosedStdout)  # write errors marked as standard output's
    _own_stream("stderr", 2, _Stderr, _NoStderr)  # never fails a write: an error still ends with exit 2
    for stream in (sys.stdout, sys.stderr):  # a lone surrogate from a JSON escape is shown as \udXXX
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        main.main(prog_name="catalint")
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BrokenPipeError:  # the reader went away (catalint lint ... | head): not an error
        os._exit(0)
    except Exception as exc:  # a catalint bug: one line, not a traceback (CATALINT_DEBUG=1 shows it)
        if isinstance(exc, StdoutError):  # catalint rules > /dev/full: no bug
            code = _stdout_error(exc)
        elif os.environ.get("CATALINT_DEBUG"):
            raise
        else:
            message = f"catalint: internal error: {type(exc).__name__}: {exc} (please report this)"
            sys.stderr.write(_line(message) + "\n")
            code = EXIT_ERROR
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away before the last of a short report: not an error either
        pass
    except OSError as exc:  # a short report waits in the buffer until now
        code = _stdout_error(exc)
    try:
        sys.stderr.flush()
    except OSError:
        code = code or 1
    os._exit(code)


def _show(
    loaded: list[tuple[str, Any, Any]],
    notices: list[str],
    config_error: Exception | None,
    settings_wanted: bool,
    resolver: Any,
    output_file: str | None,
    paths: tuple[str, ...],
    output_format: str = "text",
) -> None:
    """lint --show-files / --show-settings: what a run would lint, or with what, as ruff shows them; as JSON with
    --output-format json (a list of files, or one object of settings), else as text."""
    from catalint.config import ConfigError
    from catalint.loader import LoadError
    from catalint.settings_view import describe, describe_json

    errors = [c for _, _, c in loaded if isinstance(c, LoadError)]
    for error in errors:  # a path that is not there, or a folder that cannot be listed
        click.echo(_line(str(error)), err=True)
    for notice in notices:
        click.echo(_line(notice), err=True)
    if config_error is not None:
        fail(f"error: {config_error}")
    found = [(f, s) for f, s, c in loaded if not isinstance(c, LoadError)]
    files = [f for f, _ in found]
    if settings_wanted:
        # no catalog found: the settings of the first folder given (else of the working directory)
        folder = next((p for p in paths if os.path.isdir(p)), ".")
        try:
            settings = found[0][1] if found else resolver.for_dir(Path(folder))
        except ConfigError as exc:
            fail(f"error: {exc}")
        view = describe_json if output_format == "json" else describe
        text = view(settings, files[0] if files else None, bool(resolver.overrides), folder)
    elif output_format == "json":
        text = json.dumps(files, indent=2, ensure_ascii=False) + "\n"
    else:
        text = "".join(_line(f) + "\n" for f in files)
    save(text, output_file, "the settings" if settings_wanted else "the list")
    sys.exit(2 if errors else 0)
