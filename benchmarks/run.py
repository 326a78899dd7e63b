"""Time `catalint lint` as a whole process on generated catalogs of 5, 1,000 and 10,000 tools.

    python benchmarks/run.py [--seed SEED]

Writes benchmarks/results.md and prints it. Exits 1 if catalint exits 2 (or
crashes) on any generated catalog: every generated file is valid input.
Needs a Unix (os.wait4 gives each child's own peak RSS).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from generate import write_catalog

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
# (tools, repetitions, target median wall seconds)
SIZES: tuple[tuple[int, int, float | None], ...] = ((5, 7, 0.25), (1_000, 5, None), (10_000, 3, 2.0))
FORMATS = ("json", "text")
# The modules `catalint lint` imports, for the import-time breakdown.
LINT_IMPORTS = "import catalint.cli, catalint.config, catalint.discover, catalint.engine, catalint.formatters"


@dataclass
class Measurement:
    label: str
    tools: int | None
    fmt: str
    target: float | None
    walls: list[float] = field(default_factory=list)
    rss_kib: list[int] = field(default_factory=list)
    codes: set[int] = field(default_factory=set)
    findings: int | None = None

    def row(self) -> str:
        median, best = statistics.median(self.walls), min(self.walls)
        rss = max(self.rss_kib) / 1024
        if self.target is None:
            verdict = "—"
        else:
            verdict = f"< {self.target:g} s: " + ("PASS" if median < self.target else "**MISS**")
        tools = "—" if self.tools is None else f"{self.tools:,}"
        findings = "—" if self.findings is None else f"{self.findings:,}"
        codes = ",".join(str(c) for c in sorted(self.codes))
        return (
            f"| {self.label} | {tools} | {self.fmt} | {len(self.walls)} | {median:.3f} | {best:.3f} "
            f"| {rss:.1f} | {codes} | {findings} | {verdict} |"
        )


def catalint_command() -> list[str]:
    exe = Path(sys.executable).parent / "catalint"
    if exe.is_file() and os.access(exe, os.X_OK):
        return [str(exe)]
    return [sys.executable, "-m", "catalint"]


def run_once(argv: list[str]) -> tuple[float, int, int]:
    """Wall seconds, exit code and peak RSS (KiB) of one child process, output discarded."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    rss = usage.ru_maxrss // 1024 if sys.platform == "darwin" else usage.ru_maxrss  # bytes on macOS
    return wall, proc.returncode, rss


def measure(m: Measurement, argv: list[str], reps: int) -> Measurement:
    run_once(argv)  # warm-up: page cache, .pyc files
    for _ in range(reps):
        wall, code, rss = run_once(argv)
        m.walls.append(wall)
        m.rss_kib.append(rss)
        m.codes.add(code)
    return m


def count_findings(argv: list[str]) -> int | None:
    """Run once with output captured; the JSON report must parse."""
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    if proc.returncode not in (0, 1):
        print(f"catalint exited {proc.returncode}: {' '.join(argv)}\n{proc.stderr}", file=sys.stderr)
        return None
    return int(json.loads(proc.stdout)["summary"]["findings"])


def import_times(top: int = 8) -> list[tuple[str, int, int]]:
    """(module, self µs, cumulative µs) of the slowest imports of `catalint lint`."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", LINT_IMPORTS], capture_output=True, text=True, check=False
    )
    rows = []
    for line in proc.stderr.splitlines():
        found = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
        if found:
            rows.append((found.group(4), int(found.group(1)), int(found.group(2))))
    return sorted(rows, key=lambda r: -r[2])[:top]


def speed_probe() -> float:
    """Seconds for a fixed pure-Python loop: how fast this machine runs Python right now.

    Shared virtual machines vary by 2x from hour to hour; read the table against this.
    """
    start = time.perf_counter()
    total = 0
    for i in range(5_000_000):
        total += i
    return time.perf_counter() - start


def machine_info() -> list[str]:
    cpu = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        found = re.search(r"^model name\s*:\s*(.+)$", cpuinfo.read_text(), re.MULTILINE)
        cpu = found.group(1) if found else cpu
    version = subprocess.run([*catalint_command(), "--version"], capture_output=True, text=True, check=False)
    return [
        f"- Date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}",
        f"- CPUs (nproc): {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}",
        f"- CPU: {cpu}",
        f"- OS: {platform.system()} {platform.release()}",
        f"- Python: {platform.python_version()} ({sys.executable})",
        f"- Version: {version.stdout.strip()}, run as `{' '.join(catalint_command())}`",
        f"- Speed probe (5M-step Python loop, lower is faster): {speed_probe():.2f} s",
    ]


def report(results: list[Measurement], imports: list[tuple[str, int, int]], seed: int) -> str:
    lines = ["# catalint benchmark results", "", *machine_info(), f"- Catalog seed: {seed}", ""]
    lines += [
        "Wall time of the whole `catalint` process (start-up included), output to /dev/null, after one warm-up run.",
        "Peak RSS is the child's own `ru_maxrss` (the largest over the runs).",
        "",
        "| Case | Tools | Format | Runs | Median (s) | Min (s) | Peak RSS (MiB) | Exit | Findings | Target |",
        "|---|---:|---|---:|---:|---:|---:|---|---:|---|",
        *(m.row() for m in results),
        "",
        "## Slowest imports (`python -X importtime`, catalint lint's modules)",
        "",
        "One run; `-X importtime` adds its own overhead, so compare rows rather than totals.",
        "",
        "| Module | Self (ms) | Cumulative (ms) |",
        "|---|---:|---:|",
        *(f"| `{name}` | {own / 1000:.1f} | {cum / 1000:.1f} |" for name, own, cum in imports),
    ]
    return "\n".join(lines) + "\n"


def compile_bytecode() -> None:
    """Write catalint's .pyc files first, as `pip install` does for a regular install.

    An editable install compiles on first import, and not at all under
    PYTHONDONTWRITEBYTECODE; each run would then time compiling the sources.
    """
    found = subprocess.run(
        [sys.executable, "-c", "import catalint, os; print(os.path.dirname(catalint.__file__))"],
        capture_output=True,
        text=True,
        check=True,
    )
    subprocess.run([sys.executable, "-m", "compileall", "-q", found.stdout.strip()], check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=20260101)
    args = parser.parse_args(argv)
    cmd = catalint_command()
    compile_bytecode()
    results = [measure(Measurement("start-up (`--version`)", None, "—", None), [*cmd, "--version"], 7)]
    failed = False
    for tools, reps, target in SIZES:
        path = write_catalog(tools, OUT / f"tools-{tools}.json", args.seed)
        findings = count_findings([*cmd, "lint", str(path), "--output-format", "json"])
        failed |= findings is None
        for fmt in FORMATS:
            m = Measurement("lint", tools, fmt, target, findings=findings)
            measure(m, [*cmd, "lint", str(path), "--output-format", fmt], reps)
            failed |= not m.codes <= {0, 1}
            results.append(m)
    text = report(results, import_times(), args.seed)
    (HERE / "results.md").write_text(text, encoding="utf-8")
    print(text, end="")
    if failed:
        print("FAILED: catalint exited 2 or crashed on a generated catalog (a bug)", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
