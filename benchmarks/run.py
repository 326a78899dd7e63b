"""Run every catalint benchmark and write one table: benchmarks/results.md.

    python benchmarks/run.py [--only SECTIONS] [--quick] [--seed SEED] [-o FILE]

Sections (default: all): lint (start-up, lint of 5 / 1,000 / 10,000 generated
tools, of the 1,000 and 10,000 as YAML files and of a folder of 100 catalogs of 10, diff of the
10,000 against a version with 2% of its tools changed, slowest imports), shares (JSON Schema
validation and token counting in the 10,000-tool lint, and its time by part), bench (`catalint bench run`, 1,000
tools x 1,000 intents x 4,000 mutations), snapshot (`catalint snapshot` and `lint --server` of a local
stdio server with 1,000 tools). --quick runs each case fewer times.

A full run writes benchmarks/results.md; --only or --quick writes
benchmarks/out/results-partial.md instead (or FILE). The table is printed too.
Exits 1 if catalint crashes or exits 2 on any generated input.
Linux (os.wait4, /proc); elsewhere the memory columns are partial.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench_speed import make_spec
from edit import edit_catalog
from generate import write_catalog

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"
SERVER = ROOT / "tests" / "fixtures" / "mcp_stdio_server.py"
SECTIONS = ("lint", "shares", "bench", "snapshot")
SCHEMA_RULES = "SCH-006,SCH-009,SCH-013"
# One cheap rule: a run with only it selected costs what every lint pays besides the rules (reading
# the file, TDQS for the gate, positions of its few findings, quality and report).
ONE_RULE = "DESC-001"
BENCH_SIZE = (1_000, 1_000, 4_000)  # tools, intents, mutations
FOLDER = (100, 10)  # files, tools each: a repository of small servers
DIFF = (10_000, 0.02, 3, 1)  # BASE tools, share of them changed in HEAD (edit.py), runs, quick runs
# The 1,000- and 10,000-tool catalogs again, written as YAML: (tools, runs, quick runs, memory target MB)
YAML_SIZES: tuple[tuple[int, int, int, float | None], ...] = ((1_000, 5, 2, None), (10_000, 3, 1, 300.0))
SERVER_ARGS = ("normal", "1000", "100")  # MODE TOOLS PAGE
# (tools, runs, quick runs, wall target s, memory target MB)
SIZES: tuple[tuple[int, int, int, float | None, float | None], ...] = (
    (5, 7, 3, 0.25, None),
    (1_000, 5, 2, None, None),
    (10_000, 3, 1, 2.0, 300.0),
)
# Rule families selected alone on the largest catalog: the 13 DESC rules of the first lint, then with the
# schema and catalog rules that came next (CAT-005 is off by default).
FAMILIES = (("DESC", "13 rules"), ("DESC,SCH,CAT-001,CAT-002,CAT-003,CAT-004", "33 rules"))
LINT_IMPORTS = "import catalint.cli, catalint.config, catalint.discover, catalint.engine, catalint.formatters"
MB = 1_000_000  # memory in MB (10^6 bytes), as the targets are stated
SAMPLE_EVERY = 0.02  # s, /proc sampling of the process tree


# --- running one process ---------------------------------------------------------------------------


@dataclass
class Run:
    wall: float
    cpu: float  # user + system seconds of catalint and every descendant reaped
    code: int
    rss_bytes: int  # largest ru_maxrss of catalint and every descendant reaped (see launch.py)
    pss_bytes: int | None  # sampled peak of the tree's summed PSS (warm-up runs only)
    stdout: str = ""
    stderr: str = ""
    orphans: int = 0  # descendants catalint left un-reaped, reaped by the launcher
    subreaper: bool = False


PROC = Path("/proc/self/smaps_rollup").is_file() and any(Path("/proc/self/task").glob("*/children"))


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            out += [int(c) for c in (task / "children").read_text().split()]
    except OSError:
        pass
    return out


def _tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        todo += _children(p)
    return pids


def _pss_kib(pid: int) -> int:
    try:
        found = re.search(r"^Pss:\s+(\d+) kB", Path(f"/proc/{pid}/smaps_rollup").read_text(), re.MULTILINE)
    except OSError:
        return 0
    return int(found.group(1)) if found else 0


class TreeSampler(threading.Thread):
    """Summed PSS of the launcher's descendants (not the launcher), every SAMPLE_EVERY s.

    The peak is the largest value held over two consecutive samples: a process
    read in the instant between vfork and exec shares its parent's memory and
    would be counted twice, in one sample only.
    """

    def __init__(self, launcher: int) -> None:
        super().__init__(daemon=True)
        self.launcher, self.samples, self.done = launcher, [], threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            pids = [p for child in _children(self.launcher) for p in _tree(child)]
            self.samples.append(sum(_pss_kib(p) for p in pids))
            self.done.wait(SAMPLE_EVERY)

    @property
    def peak_kib(self) -> int:
        held = [min(a, b) for a, b in itertools.pairwise(self.samples)]
        return max(held or self.samples or [0])


def run_once(argv: list[str], *, capture: bool = False, sample: bool = False) -> Run:
    """One process, through launch.py: wall and CPU seconds, exit code, peak memory; output kept if capture."""
    out = tempfile.TemporaryFile() if capture else subprocess.DEVNULL
    err = tempfile.TemporaryFile() if capture else subprocess.DEVNULL
    with tempfile.TemporaryDirectory() as tmp:
        result = Path(tmp) / "result.json"
        launcher = [sys.executable, "-I", "-S", str(HERE / "launch.py"), str(result), *argv]
        proc = subprocess.Popen(launcher, stdin=subprocess.DEVNULL, stdout=out, stderr=err, cwd=ROOT)
        sampler = TreeSampler(proc.pid) if sample and PROC else None
        if sampler:
            sampler.start()
        proc.wait()
        if sampler:
            sampler.done.set()
            sampler.join()
        if proc.returncode != 0 or not result.is_file():
            raise SystemExit(f"benchmarks/launch.py failed (exit {proc.returncode}) on: {shown(argv)}")
        data = json.loads(result.read_text())
    run = Run(
        data["wall"],
        data["cpu"],
        data["code"],
        data["rss_bytes"],
        sampler.peak_kib * 1024 if sampler else None,
        orphans=data["orphans"],
        subreaper=data["subreaper"],
    )
    if capture:
        for stream, name in ((out, "stdout"), (err, "stderr")):
            stream.seek(0)  # type: ignore[union-attr]
            setattr(run, name, stream.read().decode("utf-8", "replace"))  # type: ignore[union-attr]
            stream.close()  # type: ignore[union-attr]
    return run


# --- cases -----------------------------------------------------------------------------------------


@dataclass
class Case:
    label: str
    argv: list[str]
    ok: frozenset[int] = frozenset({0, 1})
    wall_target: float | None = None
    mem_target: float | None = None  # MB
    result: str = "—"  # what the run produced: findings, accuracy, tools written
    warm: Run | None = None
    runs: list[Run] = field(default_factory=list)

    @property
    def walls(self) -> list[float]:
        return [r.wall for r in self.runs]

    @property
    def cpus(self) -> list[float]:
        return [r.cpu for r in self.runs]

    @property
    def all_runs(self) -> list[Run]:
        return ([self.warm] if self.warm else []) + self.runs

    @property
    def failed(self) -> bool:
        return any(r.code not in self.ok for r in self.all_runs)

    @property
    def peak_mb(self) -> float:
        return max(r.rss_bytes for r in self.all_runs) / MB

    def verdicts(self) -> str:
        out = []
        if self.wall_target is not None:
            ok = statistics.median(self.walls) < self.wall_target
            out.append(f"< {self.wall_target:g} s: " + ("PASS" if ok else "**MISS**"))
        if self.mem_target is not None:
            ok = self.peak_mb < self.mem_target
            out.append(f"< {self.mem_target:g} MB: " + ("PASS" if ok else "**MISS**"))
        return "; ".join(out) or "—"

    def row(self) -> str:
        pss = [r.pss_bytes for r in self.all_runs if r.pss_bytes is not None]
        codes = ",".join(str(c) for c in sorted({r.code for r in self.all_runs}))
        tree = f"{max(pss) / MB:.1f}" if pss else "—"
        return (
            f"| {self.label} | {len(self.runs)} | {statistics.median(self.walls):.3f} | {min(self.walls):.3f} "
            f"| {self.peak_mb:.1f} | {tree} | {codes} | {self.result} | {self.verdicts()} |"
        )


def measure(case: Case, reps: int, parse: Any = None) -> Case:
    """A warm-up run (output captured and parsed, process tree sampled), then reps timed runs."""
    case.warm = run_once(case.argv, capture=True, sample=True)
    if case.warm.code not in case.ok:
        print(f"exit {case.warm.code}: {shown(case.argv)}\n{case.warm.stderr[-2000:]}", file=sys.stderr)
    elif parse is not None:
        try:
            case.result = parse(case.warm.stdout)
        except (ValueError, KeyError, TypeError) as exc:
            case.result = "?"
            print(f"could not read the output of {shown(case.argv)}: {exc}", file=sys.stderr)
    for _ in range(reps):
        case.runs.append(run_once(case.argv))
    return case


def catalint_command() -> list[str]:
    exe = Path(sys.executable).parent / "catalint"
    if exe.is_file() and os.access(exe, os.X_OK):
        return [str(exe)]
    return [sys.executable, "-m", "catalint"]


def shown(argv: list[str]) -> str:
    """A command as a reader would type it: catalint, python and paths relative to the repository."""
    words = []
    for i, word in enumerate(argv):
        if i == 0 and word == catalint_command()[0]:
            word = "catalint"
        elif word == sys.executable:
            word = "python"
        elif word.startswith(str(ROOT) + os.sep):
            word = os.path.relpath(word, ROOT)
        words.append(word)
    return " ".join(words)


def _findings(stdout: str) -> str:
    return f"{int(json.loads(stdout)['summary']['findings']):,} findings"


# --- sections --------------------------------------------------------------------------------------


class Catalogs:
    def __init__(self, seed: int) -> None:
        self.seed, self.paths = seed, {}

    def __call__(self, tools: int) -> Path:
        if tools not in self.paths:
            self.paths[tools] = write_catalog(tools, OUT / f"tools-{tools}.json", self.seed)
        return self.paths[tools]

    def yaml(self, tools: int) -> Path:
        """The same catalog written as YAML (block style), for the YAML reader's share."""
        import yaml

        path = OUT / f"tools-{tools}.yaml"
        data = json.loads(self(tools).read_text(encoding="utf-8"))
        dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
        path.write_text(yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True), encoding="utf-8")
        return path

    def edited(self, tools: int, share: float) -> Path:
        """A later version of the catalog, share of its tools changed (edit.py), for `catalint diff`."""
        path = OUT / f"tools-{tools}-edited.json"
        data = edit_catalog(json.loads(self(tools).read_text(encoding="utf-8")), share, self.seed + 1)
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return path

    def folder(self, files: int, tools: int) -> Path:
        """A folder of small catalogs, as `catalint lint DIR` meets a repository of servers."""
        folder = OUT / f"folder-{files}x{tools}"
        for i in range(files):
            write_catalog(tools, folder / f"server{i:03d}.tools.json", self.seed + i)
        return folder


def lint_cases(cmd: list[str], catalogs: Catalogs, quick: bool) -> list[Case]:
    cases = [measure(Case("start-up: `--version`", [*cmd, "--version"], ok=frozenset({0})), 3 if quick else 7)]
    for tools, reps, quick_reps, wall, mem in SIZES:
        path = catalogs(tools)
        findings = "—"
        for fmt in ("json", "text"):
            argv = [*cmd, "lint", str(path), "--output-format", fmt]
            case = Case(f"lint {tools:,} tools, {fmt}", argv, wall_target=wall, mem_target=mem)
            measure(case, quick_reps if quick else reps, _findings if fmt == "json" else None)
            findings = case.result if fmt == "json" else findings
            case.result = findings  # the text row has the json row's findings
            cases.append(case)
    largest = SIZES[-1]
    for select, what in FAMILIES:  # the same catalog with fewer rules: what each later family adds
        argv = [*cmd, "lint", str(catalogs(largest[0])), "--output-format", "text", "--select", select]
        case = Case(f"lint {largest[0]:,} tools, text, `--select {select}` ({what})", argv)
        cases.append(measure(case, largest[2] if quick else largest[1]))
    for tools, reps, quick_reps, mem in YAML_SIZES:
        path = catalogs.yaml(tools)
        argv = [*cmd, "lint", str(path), "--output-format", "json"]
        case = Case(f"lint {tools:,} tools, YAML file, json", argv, mem_target=mem)
        cases.append(measure(case, quick_reps if quick else reps, _findings))
    files, tools = FOLDER
    folder = catalogs.folder(files, tools)
    case = Case(
        f"lint a folder of {files} files x {tools} tools, json", [*cmd, "lint", str(folder), "--output-format", "json"]
    )
    cases.append(measure(case, 2 if quick else 5, _findings))
    cases.append(diff_case(cmd, catalogs, quick))
    return cases


def diff_case(cmd: list[str], catalogs: Catalogs, quick: bool) -> Case:
    tools, share, reps, quick_reps = DIFF
    base, head = catalogs(tools), catalogs.edited(tools, share)
    argv = [*cmd, "diff", str(base), str(head), "--output-format", "json"]
    case = Case(f"diff {tools:,} tools, {share:.0%} of them changed, json", argv, ok=frozenset({0}))
    return measure(case, quick_reps if quick else reps, _diff_result)


def _diff_result(stdout: str) -> str:
    report = json.loads(stdout)
    tools, findings = report["tools"], report["findings"]
    return (
        f"{len(tools['added'])} added, {len(tools['removed'])} removed, {len(tools['renamed'])} renamed, "
        f"{len(tools['changed'])} changed; findings {len(findings['introduced'])} introduced, "
        f"{len(findings['fixed'])} fixed"
    )


def bench_cases(cmd: list[str], seed: int, quick: bool) -> list[Case]:
    tools, intents, mutations = BENCH_SIZE
    spec = OUT / f"bench-{tools}x{intents}x{mutations}.json"
    spec.parent.mkdir(parents=True, exist_ok=True)
    spec.write_text(json.dumps(make_spec(tools, intents, mutations, catalog_seed=seed)), encoding="utf-8")

    def parse(stdout: str) -> str:
        report = json.loads(stdout)
        return f"accuracy {report['baseline']['accuracy']:.3f}, largest drop {report['largest_drop']['drop']:.3f}"

    label = f"bench run {tools:,} tools x {intents:,} intents x {mutations:,} mutations"
    case = Case(label, [*cmd, "bench", "run", str(spec), "--output-format", "json"], wall_target=30.0)
    return [measure(case, 1 if quick else 3, parse)]


def snapshot_cases(cmd: list[str], quick: bool) -> list[Case]:
    if not SERVER.is_file():
        print(f"skipping snapshot: {SERVER} not found", file=sys.stderr)
        return []
    server = [sys.executable, str(SERVER), *SERVER_ARGS]
    snap = OUT / "snapshot-1000.json"

    def written(_: str) -> str:
        return f"{len(json.loads(snap.read_text(encoding='utf-8'))['tools']):,} tools written"

    reps = 2 if quick else 5
    snapshot = Case("snapshot, server with 1,000 tools", [*cmd, "snapshot", "-o", str(snap), "--", *server])
    snapshot.ok = frozenset({0})
    lint = Case("lint --server, same server", [*cmd, "lint", "--server", "--output-format", "json", "--", *server])
    return [measure(snapshot, reps, written), measure(lint, reps, _findings)]


@dataclass
class Shares:
    variants: list[Case]
    inproc: dict[str, Any] | None  # benchmarks/shares.py's report
    phases: dict[str, Any] | None = None  # benchmarks/phases.py's report

    @property
    def failed(self) -> bool:
        bad = [r is None or r.get("exit") not in (0, 1) for r in (self.inproc, self.phases)]
        return any(bad) or any(c.failed for c in self.variants)


def measure_shares(cmd: list[str], catalogs: Catalogs, quick: bool) -> Shares:
    """Ablation (whole processes, interleaved) and in-process timers (benchmarks/shares.py) on 10,000 tools."""
    path = str(catalogs(10_000))
    variants = [
        Case("`lint FILE`", [*cmd, "lint", path]),
        Case(f"`lint FILE --ignore {SCHEMA_RULES}`", [*cmd, "lint", path, "--ignore", SCHEMA_RULES]),
        Case("`lint FILE --tokens`", [*cmd, "lint", path, "--tokens"]),
        Case(f"`lint FILE --select {ONE_RULE}`", [*cmd, "lint", path, "--select", ONE_RULE]),
    ]
    for case in variants:
        measure(case, 0)
    for _ in range(1 if quick else 5):  # interleaved, so that a slow minute hits every variant alike
        for case in variants:
            case.runs.append(run_once(case.argv))
    return Shares(variants, _report_of("shares.py", path, "--tokens"), _report_of("phases.py", path))


def _report_of(script: str, *args: str) -> dict[str, Any] | None:
    """The JSON line an in-process timing script prints, or None (and why, on stderr)."""
    run = run_once([sys.executable, str(HERE / script), *args], capture=True)
    try:
        return json.loads(run.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        print(f"benchmarks/{script} failed (exit {run.code}):\n{run.stderr[-2000:]}", file=sys.stderr)
        return None


def phases_section(data: dict[str, Any] | None) -> list[str]:
    if data is None:
        return ["## By part", "", "benchmarks/phases.py failed (see stderr).", ""]
    parts, total = data["parts_s"], data["lint_s"]
    rules = {k: v for k, v in parts.items() if data["scope"].get(k)}
    rows = sorted(((v, k) for k, v in parts.items() if k not in rules), reverse=True)
    top = sorted(((v, k) for k, v in rules.items()), reverse=True)
    floor = data["floor"]
    return [
        "## Where the 10,000-tool lint's time goes, by part",
        "",
        "`benchmarks/phases.py` runs `lint FILE` once in one process (CATALINT_WORKERS=1, so the parts",
        "add up to the whole; the default run splits the tool rules, TDQS and positions over the cores)",
        "with a timer around each part. A rule that first builds a view other rules share (a schema",
        "walk, the joined texts) is charged for it. *engine* is the rest (the loop, findings, ignores);",
        "*timers* is what the timers themselves added, measured on an empty check.",
        "",
        "| Part | Seconds | Share |",
        "|---|---:|---:|",
        *(f"| {k} | {v:.2f} | {v / total:.1%} |" for v, k in rows),
        f"| {len(rules)} rules, together | {sum(rules.values()):.2f} | {sum(rules.values()) / total:.1%} |",
        f"| **whole lint** | **{total:.2f}** | 100% |",
        "",
        "Slowest rules: " + ", ".join(f"{k} {v:.2f} s" for v, k in top[:8]) + ".",
        "",
        f"For scale, the floor of any pure-Python linter that looks at every node: `json.loads` of the "
        f"file {floor['parse_s']:.2f} s, and one plain recursive walk over all {floor['nodes']:,} values "
        f"of the tools {floor['walk_s']:.2f} s.",
        "",
    ]


def shares_section(shares: Shares) -> list[str]:
    med = statistics.median
    plain, no_schema, tokens, one_rule = shares.variants
    n = len(plain.runs)

    def cell(part: float, whole: float) -> str:
        return f"{part:.2f} s = {part / whole:.1%} of {whole:.2f} s"

    schema_row = [
        cell(min(plain.walls) - min(no_schema.walls), min(plain.walls)),
        cell(min(plain.cpus) - min(no_schema.cpus), min(plain.cpus)),
    ]
    token_row = [
        cell(min(tokens.walls) - min(plain.walls), min(tokens.walls)),
        cell(min(tokens.cpus) - min(plain.cpus), min(tokens.cpus)),
    ]
    base_row = [cell(min(one_rule.walls), min(plain.walls)), cell(min(one_rule.cpus), min(plain.cpus)), "—"]
    rules_row = [
        cell(min(plain.walls) - min(one_rule.walls), min(plain.walls)),
        cell(min(plain.cpus) - min(one_rule.cpus), min(plain.cpus)),
        "—",
    ]
    detail = "In-process timers failed (see stderr)."
    data = shares.inproc
    if data is not None:
        parts = data["parts_cpu_s"]
        total = data["import_cpu_s"] + data["lint_cpu_s"]
        tok = parts.get("tokens.py", 0.0)
        keys = [*SCHEMA_RULES.split(","), "metaschema.py, other callers"]
        schema = sum(parts.get(k, 0.0) for k in keys)
        schema_row.append(cell(schema, total - tok))
        token_row.append(cell(tok, total))
        load = parts.get("load cl100k_base")
        detail = (
            "In-process detail (CPU s): "
            + ", ".join(f"{k} {parts.get(k, 0.0):.2f}" for k in keys)
            + f"; tokens.py {tok:.2f}"
            + (f", of which loading cl100k_base {load:.2f}" if load is not None else "")
            + f". That run took {data['import_s'] + data['lint_s']:.2f} s wall, {total:.2f} s CPU."
        )
        if data.get("rules_missing"):
            detail += f" Not found, so not timed: {', '.join(data['rules_missing'])}."
    else:
        schema_row.append("—")
        token_row.append("—")
    return [
        "## Where the 10,000-tool lint's time goes",
        "",
        f"JSON Schema validation: rules {SCHEMA_RULES.replace(',', ', ')} and the catalint.metaschema calls they",
        "make. Token counting: what `--tokens` adds (catalint.tokens, loading cl100k_base included).",
        f"Everything but the rules: the whole run with one cheap rule ({ONE_RULE}) selected: start-up,",
        "reading the file, TDQS (the default gate needs it), quality and report; the default rules are",
        "the rest. The first bounds from below what the default lint can take, however cheap its rules become.",
        f"**Ablation**: {n} interleaved whole-process runs of each command below (default workers, text",
        "report); the part is the difference of the fastest runs (other load only adds time), the share is",
        "of the larger command, in wall time and in CPU time (user + system of catalint and its workers).",
        "**In-process**: `benchmarks/shares.py` runs `lint FILE --tokens` once in one process",
        "(CATALINT_WORKERS=1) with CPU timers around those functions; the schema share is of that run less",
        "its token time, the token share of the whole run. It is the steadiest column: the ablation",
        "subtracts two noisy runs, so a part smaller than the spread between Median and Min below is noise.",
        "",
        "| Part | Ablation, wall | Ablation, CPU | In-process, CPU |",
        "|---|---:|---:|---:|",
        f"| JSON Schema validation | {' | '.join(schema_row)} |",
        f"| Token counting (`--tokens`) | {' | '.join(token_row)} |",
        f"| Everything but the rules (`--select {ONE_RULE}`) | {' | '.join(base_row)} |",
        f"| The default rules (`lint FILE` less that) | {' | '.join(rules_row)} |",
        "",
        detail,
        "",
        "| Ablation command (10,000 tools) | Runs | Median (s) | Min (s) | Min CPU (s) | Peak RSS (MB) | Exit |",
        "|---|---:|---:|---:|---:|---:|---|",
        *(
            f"| {c.label} | {len(c.runs)} | {med(c.walls):.3f} | {min(c.walls):.3f} | {min(c.cpus):.2f} "
            f"| {c.peak_mb:.1f} | {','.join(str(x) for x in sorted({r.code for r in c.all_runs}))} |"
            for c in shares.variants
        ),
        "",
    ]


# --- report ----------------------------------------------------------------------------------------


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


def machine_info(probes: list[float], loads: list[str]) -> list[str]:
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
        "- Speed probe (5M-step Python loop, lower is faster), start / end: "
        + " / ".join(f"{p:.2f} s" for p in probes),
        f"- Load average (1 min), start / end: {' / '.join(loads)}",
    ]


def _load() -> str:
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "?"


def report(
    cases: list[Case], shares: Shares | None, imports: list[tuple[str, int, int]] | None, head: list[str]
) -> str:
    lines = ["# catalint benchmark results", "", *head, ""]
    if cases:
        orphans = sum(r.orphans for c in cases for r in c.all_runs)
        subreaper = all(r.subreaper for c in cases for r in c.all_runs)
        lines += [
            "## Wall time and memory",
            "",
            "Each case: one warm-up run (its output read for the Result column, its process tree sampled), then",
            "the timed runs of the whole process, start-up included, output to /dev/null.",
            "**Peak RSS**: the largest `ru_maxrss` over all runs, from `os.wait4` in a small launcher",
            "(`benchmarks/launch.py`, so that run.py's own memory does not leak into the child's maximum).",
            "Linux folds into it the peak of every child catalint reaped (its lint workers, forked for",
            ">= 200 tools; the snapshot's server), so it is the largest single process, not a sum. The",
            "launcher is a child subreaper; "
            + (
                f"{orphans} descendant(s) were left un-reaped by catalint (counted)."
                if orphans
                else "no descendant was left un-reaped by catalint."
            )
            if subreaper
            else "launcher could not become a subreaper: a child catalint left un-reaped would not count.",
            "**Tree PSS**: peak of the summed proportional set size (shared pages split, not counted twice) of",
            f"catalint and all its descendants, sampled every {SAMPLE_EVERY * 1000:.0f} ms from /proc during the",
            "warm-up run (held over two samples): the tree's real footprint, a lower bound. MB = 10^6 bytes.",
            "",
            "| Case | Runs | Median (s) | Min (s) | Peak RSS (MB) | Tree PSS (MB) | Exit | Result | Target |",
            "|---|---:|---:|---:|---:|---:|---|---|---|",
            *(c.row() for c in cases),
            "",
            "Commands (from the repository root):",
            "",
            *(f"- {c.label}: `{shown(c.argv)}`" for c in cases),
            "",
        ]
    if shares is not None:
        lines += shares_section(shares)
        lines += phases_section(shares.phases)
    if imports is not None:
        lines += [
            "## Slowest imports (`python -X importtime`, catalint lint's modules)",
            "",
            "One run; `-X importtime` adds its own overhead, so compare rows rather than totals.",
            "",
            "| Module | Self (ms) | Cumulative (ms) |",
            "|---|---:|---:|",
            *(f"| `{name}` | {own / 1000:.1f} | {cum / 1000:.1f} |" for name, own, cum in imports),
            "",
        ]
    return "\n".join(lines)


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
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated subset of {','.join(SECTIONS)}")
    parser.add_argument("--quick", action="store_true", help="fewer runs per case, for iterating")
    parser.add_argument("--seed", type=int, default=20260101, help="catalog seed")
    parser.add_argument("-o", "--output", type=Path, help="the markdown file to write")
    args = parser.parse_args(argv)
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in only if s not in SECTIONS]
    if unknown or not only:
        parser.error(f"--only: unknown section(s) {', '.join(unknown) or '(none)'}; use {', '.join(SECTIONS)}")
    full = set(only) == set(SECTIONS) and not args.quick
    output = args.output or (HERE / "results.md" if full else OUT / "results-partial.md")

    started = time.perf_counter()
    probes, loads = [speed_probe()], [_load()]
    cmd = catalint_command()
    compile_bytecode()
    catalogs = Catalogs(args.seed)
    cases: list[Case] = []
    shares = imports = None
    if "lint" in only:
        cases += lint_cases(cmd, catalogs, args.quick)
        imports = import_times()
    if "bench" in only:
        cases += bench_cases(cmd, args.seed, args.quick)
    if "snapshot" in only:
        cases += snapshot_cases(cmd, args.quick)
    if "shares" in only:
        shares = measure_shares(cmd, catalogs, args.quick)
    probes.append(speed_probe())
    loads.append(_load())
    took = time.perf_counter() - started
    flags = " ".join(argv if argv is not None else sys.argv[1:])
    head = [
        *machine_info(probes, loads),
        f"- Catalog seed: {args.seed}",
        f"- Command: `python benchmarks/run.py{' ' + flags if flags else ''}`, took {took:.0f} s",
    ]
    text = report(cases, shares, imports, head)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    print(text, end="")
    print(f"\nwritten to {os.path.relpath(output)}", file=sys.stderr)
    failed = [c.label for c in cases if c.failed]
    if shares is not None and shares.failed:
        failed.append("shares")
    if failed:
        print(f"FAILED: catalint crashed or exited 2 on generated input: {'; '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
