"""Time `catalint bench run` on 1,000 tools x 1,000 intents x 4,000 mutations (target: under 30 s).

    python benchmarks/bench_speed.py [--tools N] [--intents N] [--mutations N]

One run, for trying other sizes; `python benchmarks/run.py --only bench` times
the standard size with repetitions and peak memory, for results.md.

The catalog is benchmarks/generate.py's; each intent asks for one tool in words
taken from its name and description, and mutations cycle through the four kinds
over the tools. The spec goes to benchmarks/out/ and the whole `catalint`
process is timed (start-up and the token encoding included).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path

from generate import generate_catalog

HERE = Path(__file__).resolve().parent
KINDS = ("blank", "genericize", "truncate", "drop_keyword")


def make_spec(tools: int, intents: int, mutations: int, seed: int = 7, catalog_seed: int = 20260101) -> dict:
    rng = random.Random(seed)
    catalog = generate_catalog(tools, catalog_seed)
    names = [t["name"] for t in catalog["tools"]]
    words = {
        t["name"]: re.findall(r"[a-z]{4,}", (t.get("description") or "").lower()) or t["name"].split("_")
        for t in catalog["tools"]
    }
    spec_intents = []
    for i in range(intents):
        name = names[i % len(names)]
        picked = rng.sample(words[name], min(3, len(words[name])))
        spec_intents.append({"query": " ".join([*name.split("_")[1:], *picked]), "gold": [name]})
    spec_mutations = []
    for i in range(mutations):
        name = names[i % len(names)]
        kind = KINDS[(i // len(names)) % len(KINDS)]
        entry: dict = {"tool": name, "kind": kind}
        if kind == "truncate":
            entry["chars"] = 40
        elif kind == "drop_keyword":
            entry["word"] = words[name][0]
        spec_mutations.append(entry)
    return {"name": "speed", "catalog": catalog, "intents": spec_intents, "mutations": spec_mutations}


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tools", type=int, default=1_000)
    parser.add_argument("--intents", type=int, default=1_000)
    parser.add_argument("--mutations", type=int, default=4_000)
    args = parser.parse_args()
    out = HERE / "out" / f"bench-{args.tools}x{args.intents}x{args.mutations}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(make_spec(args.tools, args.intents, args.mutations)), encoding="utf-8")
    exe = Path(sys.executable).with_name("catalint")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "catalint"]
    start = time.perf_counter()
    proc = subprocess.run([*cmd, "bench", "run", str(out), "--output-format", "json"], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        print(proc.stderr, file=sys.stderr)
        return 1
    report = json.loads(proc.stdout)
    base = report["baseline"]
    print(
        f"{args.tools:,} tools x {args.intents:,} intents x {args.mutations:,} mutations: {wall:.2f} s "
        f"(baseline accuracy {base['accuracy']:.3f}, largest drop {report['largest_drop']['drop']:.3f}; "
        f"target < 30 s: {'PASS' if wall < 30 else 'MISS'})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
