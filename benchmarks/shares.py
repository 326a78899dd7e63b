"""Time JSON Schema validation and token counting inside one `catalint lint` process.

    python benchmarks/shares.py FILE [LINT OPTIONS...]      # e.g. FILE --tokens

Runs `catalint lint FILE -o /dev/null ...` in this process with one worker
(CATALINT_WORKERS=1, so no work hides in forked children) and the garbage
collector off, as the console script does. Before the run it wraps, with
wall-clock timers that count only the outermost call of each group:

- schema: the checks of SCH-006, SCH-009 and SCH-013 and every function of
  catalint.metaschema (calls from other code are reported apart);
- tokens: every function of catalint.tokens (counting, and loading the
  cl100k_base encoding, also shown on its own).

A generator (every rule check is one) is timed step by step while it is
consumed, so the time is the rule's work, not the caller's. Prints one JSON
object: import and lint seconds, seconds and calls per part, lint exit code;
each in wall-clock time (`_s`) and in this process's CPU time (`_cpu_s`, which
other load on the machine disturbs less).
run.py uses it for the in-process column of the shares table.
"""

from __future__ import annotations

import gc
import inspect
import json
import os
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from typing import Any

SCHEMA_RULES = ("SCH-006", "SCH-009", "SCH-013")
OTHER_METASCHEMA = "metaschema.py, other callers"


class Group:
    """A set of functions timed together: nested calls count once, in the outermost one."""

    def __init__(self) -> None:
        self.depth = 0
        self.seconds: defaultdict[str, float] = defaultdict(float)  # wall clock
        self.cpu: defaultdict[str, float] = defaultdict(float)  # this process's CPU time
        self.calls: Counter[str] = Counter()

    def add(self, key: str, start: float, cpu: float) -> None:
        self.seconds[key] += time.perf_counter() - start
        self.cpu[key] += time.process_time() - cpu

    def wrap(self, fn: Callable[..., Any], key: str) -> Callable[..., Any]:
        group = self

        def step(it: Iterator[Any]) -> Iterator[Any]:
            while True:
                outer = group.depth == 0
                group.depth += 1
                start, cpu = time.perf_counter(), time.process_time()
                try:
                    value = next(it)
                except StopIteration:
                    return
                finally:
                    group.depth -= 1
                    if outer:
                        group.add(key, start, cpu)
                yield value

        if inspect.isgeneratorfunction(fn):

            def gen_wrapper(*args: Any, **kwargs: Any) -> Iterator[Any]:
                if group.depth == 0:
                    group.calls[key] += 1
                return step(fn(*args, **kwargs))

            return gen_wrapper

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            outer = group.depth == 0
            if outer:
                group.calls[key] += 1
            group.depth += 1
            start, cpu = time.perf_counter(), time.process_time()
            try:
                value = fn(*args, **kwargs)
            finally:
                group.depth -= 1
                if outer:
                    group.add(key, start, cpu)
            if isinstance(value, Iterator) and not isinstance(value, (str, bytes)):
                return step(value)  # a lazy iterator: time its consumption too
            return value

        return wrapper


def _patch_module(module: Any, group: Group, key: str) -> int:
    """Wrap every function defined in module, there and wherever another catalint module imported it."""
    originals = {
        name: fn for name, fn in vars(module).items() if inspect.isfunction(fn) and fn.__module__ == module.__name__
    }
    wrapped = {name: group.wrap(fn, key) for name, fn in originals.items()}
    for name, fn in wrapped.items():
        setattr(module, name, fn)
    for other in list(sys.modules.values()):
        if other is None or other is module or not getattr(other, "__name__", "").startswith("catalint"):
            continue
        for name, value in list(vars(other).items()):
            for orig_name, orig in originals.items():
                if value is orig:
                    setattr(other, name, wrapped[orig_name])
    return len(originals)


def in_one_process(argv: list[str], doc: str | None) -> bool:
    """Set up a timing run as the console script runs (no lint workers, no garbage collector);
    False, after printing the usage (doc), when no file was given."""
    if not argv:
        print(doc, file=sys.stderr)
        return False
    os.environ["CATALINT_WORKERS"] = "1"
    gc.disable()
    return True


def timed_lint(argv: list[str]) -> tuple[int, float, float]:
    """`catalint lint ARGV -o /dev/null` in this process: (exit code, wall seconds, CPU seconds)."""
    import catalint.cli

    start, cpu = time.perf_counter(), time.process_time()
    try:
        code = catalint.cli.main.main(["lint", *argv, "-o", os.devnull], prog_name="catalint", standalone_mode=False)
    except SystemExit as exc:
        code = exc.code
    return (code if isinstance(code, int) else 0), time.perf_counter() - start, time.process_time() - cpu


def report(data: dict[str, Any]) -> None:
    """Print the JSON line run.py reads, then leave as the console script does (no heap teardown)."""
    print(json.dumps(data))
    sys.stdout.flush()
    os._exit(0)


def main(argv: list[str]) -> int:
    if not in_one_process(argv, __doc__):
        return 2
    start, cpu = time.perf_counter(), time.process_time()
    import catalint.cli
    import catalint.metaschema
    import catalint.rules  # registers the rules
    import catalint.tokens
    from catalint.registry import all_rules

    imported, imported_cpu = time.perf_counter() - start, time.process_time() - cpu

    schema, tokens, load = Group(), Group(), Group()
    found = {r.code: r for r in all_rules()}
    missing = [code for code in SCHEMA_RULES if code not in found]
    for code in SCHEMA_RULES:
        if code in found:
            object.__setattr__(found[code], "check", schema.wrap(found[code].check, code))  # Rule is frozen
    patched = _patch_module(catalint.metaschema, schema, OTHER_METASCHEMA)
    patched += _patch_module(catalint.tokens, tokens, "tokens.py")
    loader = getattr(catalint.tokens, "_load", None)
    if loader is not None:  # loading cl100k_base, also inside the tokens group
        catalint.tokens._load = load.wrap(loader, "load cl100k_base")

    code, linted, linted_cpu = timed_lint(argv)
    parts = {**schema.seconds, **tokens.seconds, **load.seconds}
    parts_cpu = {**schema.cpu, **tokens.cpu, **load.cpu}
    calls = {**schema.calls, **tokens.calls, **load.calls}
    report(
        {
            "import_s": imported,
            "lint_s": linted,
            "parts_s": parts,
            "import_cpu_s": imported_cpu,
            "lint_cpu_s": linted_cpu,
            "parts_cpu_s": parts_cpu,
            "calls": calls,
            "functions_patched": patched,
            "rules_missing": missing,
            "exit": code,
        }
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
