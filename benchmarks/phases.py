"""Where one `catalint lint` process spends its time, part by part, and what a bare walk costs.

    python benchmarks/phases.py FILE [LINT OPTIONS...]

Runs `catalint lint FILE -o /dev/null ...` in this process with one worker
(CATALINT_WORKERS=1) and the garbage collector off, as the console script does,
with timers (one group: a part called inside another counts in the outer
one) around: loading the file, each tool rule's check, each catalog rule's
check, TDQS, finding positions (Catalog.locate), the quality pass and the
report. A rule that first builds a view other rules share (a schema walk, the
joined texts) is charged for building it. What is left over is the engine's
own loop ("engine"), less what the timers themselves cost, measured on an
empty check and reported apart ("timers").

Then, for scale, the floor: the same file read and parsed with json.loads, and
every value of every tool visited once by a plain recursive walk, the least any
Python linter that looks at every node must do.

Prints one JSON object. run.py uses it for the "by part" table.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from shares import in_one_process, report, timed_lint


class Timers:
    """Seconds per part; a part called inside another counts in the outer one.

    One clock read per step (perf_counter, which costs far less than a CPU-time read), so the
    timers disturb little; the process is alone on its core when run.py runs it.
    """

    def __init__(self) -> None:
        self.depth = 0
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}

    def _timed(self, key: str, call: Callable[[], Any]) -> Any:
        outer = self.depth == 0
        self.depth += 1
        start = time.perf_counter()
        try:
            return call()
        finally:
            self.depth -= 1
            if outer:
                self.seconds[key] = self.seconds.get(key, 0.0) + time.perf_counter() - start

    def _steps(self, key: str, it: Iterator[Any]) -> Iterator[Any]:
        done = object()
        while (value := self._timed(key, lambda: next(it, done))) is not done:
            yield value

    def wrap(self, fn: Callable[..., Any], key: str) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if self.depth == 0:
                self.calls[key] = self.calls.get(key, 0) + 1
            value = self._timed(key, lambda: fn(*args, **kwargs))
            if isinstance(value, Iterator):  # a rule's check, a report in chunks: time the consumption too
                return self._steps(key, value)
            return value

        return wrapper


def _floor(path: str) -> dict[str, float]:
    start = time.perf_counter()
    with open(path, encoding="utf-8") as fh:
        data = json.loads(fh.read())
    parsed = time.perf_counter() - start
    tools = data["tools"] if isinstance(data, dict) else data
    nodes = 0

    def walk(value: Any) -> None:
        nonlocal nodes
        nodes += 1
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    start = time.perf_counter()
    for tool in tools:
        walk(tool)
    return {"parse_s": parsed, "walk_s": time.perf_counter() - start, "nodes": nodes}


def _timer_cost(calls: int = 50_000) -> float:
    """Seconds one timed check with no findings adds: subtracted from the engine's rest."""

    def check() -> Iterator[Any]:
        yield from ()

    timed = Timers().wrap(check, "x")
    best = []
    for fn in (check, timed, check, timed):
        start = time.perf_counter()
        for _ in range(calls):
            list(fn())
        best.append(time.perf_counter() - start)
    return max(0.0, (min(best[1], best[3]) - min(best[0], best[2])) / calls)


def main(argv: list[str]) -> int:
    if not in_one_process(argv, __doc__):
        return 2
    import catalint.cli
    import catalint.engine
    import catalint.formatters
    import catalint.loader
    import catalint.quality
    import catalint.rules  # registers the rules
    from catalint.model import Catalog
    from catalint.registry import all_rules

    group = Timers()
    for rule in all_rules():
        object.__setattr__(rule, "check", group.wrap(rule.check, rule.code))  # Rule is frozen
    catalint.loader.load_path = group.wrap(catalint.loader.load_path, "load")
    catalint.engine.tdqs_score = group.wrap(catalint.engine.tdqs_score, "TDQS")
    Catalog.locate = group.wrap(Catalog.locate, "positions")  # type: ignore[method-assign]
    catalint.quality.assess = group.wrap(catalint.quality.assess, "quality")
    catalint.formatters.render = group.wrap(catalint.formatters.render, "report")
    catalint.cli.write_output = group.wrap(catalint.cli.write_output, "report")

    code, lint_s, lint_cpu = timed_lint(argv)
    scope = {r.code: r.scope for r in all_rules()}
    parts = dict(group.seconds)
    timers = _timer_cost() * sum(group.calls.values())
    parts["engine"] = lint_s - sum(parts.values()) - timers
    parts["timers"] = timers
    report(
        {
            "lint_s": lint_s,
            "lint_cpu_s": lint_cpu,
            "parts_s": parts,
            "calls": dict(group.calls),
            "scope": {k: scope.get(k, "") for k in parts},
            "floor": _floor(argv[0]),
            "exit": code,
        }
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
