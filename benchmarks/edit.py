"""Make a later version of a benchmark catalog, for timing `catalint diff BASE HEAD`.

    python benchmarks/edit.py BASE.json HEAD.json [--share 0.02] [--seed SEED]

About `share` of the tools change, as between two releases of a server: descriptions
reworded, an argument dropped, tools renamed (some with a reworded description too),
tools removed and new ones added. The same input, share and seed always give
byte-identical output.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from generate import FILLER, generate_tool

# Of the tools that change, the part of each kind (they add up to 1).
KINDS = (
    ("reword", 0.4),  # the description gains or loses a sentence
    ("drop_argument", 0.2),  # one property of the inputSchema goes (and its `required` entry)
    ("rename", 0.1),  # the same tool under a new name
    ("rename_reword", 0.05),  # renamed, and its description reworded
    ("remove", 0.1),
    ("add", 0.15),  # a new tool, inserted next to a changed one
)


def edit_catalog(catalog: dict[str, Any], share: float = 0.02, seed: int = 20260102) -> dict[str, Any]:
    """A copy of catalog with about share of its tools changed."""
    rng = random.Random(f"{seed}:{share}")
    tools = json.loads(json.dumps(catalog["tools"]))
    used: set[str] = {t["name"] for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)}
    picked = sorted(rng.sample(range(len(tools)), round(len(tools) * share)))
    out: list[Any] = []
    kinds = rng.choices([k for k, _ in KINDS], weights=[w for _, w in KINDS], k=len(picked))
    plan = dict(zip(picked, kinds, strict=True))
    for i, tool in enumerate(tools):
        kind = plan.get(i)
        if kind == "remove":
            continue
        if kind in ("reword", "rename_reword"):
            _reword(rng, tool)
        if kind == "drop_argument":
            _drop_argument(rng, tool)
        if kind in ("rename", "rename_reword"):
            tool["name"] = _new_name(tool["name"], used)
        out.append(tool)
        if kind == "add":
            out.append(generate_tool(rng, used))
    return {**catalog, "tools": out}


def _reword(rng: random.Random, tool: dict[str, Any]) -> None:
    text = tool.get("description")
    if not isinstance(text, str) or not text.strip():
        tool["description"] = rng.choice(FILLER)
    elif rng.random() < 0.5 and ". " in text:
        tool["description"] = text.rsplit(". ", 1)[0] + "."  # its last sentence dropped
    else:
        tool["description"] = f"{text} {rng.choice(FILLER)}"


def _drop_argument(rng: random.Random, tool: dict[str, Any]) -> None:
    schema = tool.get("inputSchema")
    props = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(props, dict) or not props:
        _reword(rng, tool)
        return
    gone = rng.choice(sorted(props))
    del props[gone]
    required = schema.get("required")
    if isinstance(required, list) and gone in required:
        required.remove(gone)


def _new_name(name: str, used: set[str]) -> str:
    new, i = f"{name}_renamed", 2
    while new in used:
        new, i = f"{name}_renamed{i}", i + 1
    used.add(new)
    return new


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("base", type=Path, help="the catalog to start from (benchmarks/generate.py's output)")
    parser.add_argument("out", type=Path, help="where to write the edited catalog")
    parser.add_argument("--share", type=float, default=0.02, help="share of the tools changed (default 0.02)")
    parser.add_argument("--seed", type=int, default=20260102)
    args = parser.parse_args(argv)
    if not 0 <= args.share <= 1:
        parser.error("--share must be between 0 and 1")
    catalog = json.loads(args.base.read_text(encoding="utf-8"))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(edit_catalog(catalog, args.share, args.seed), indent=2, ensure_ascii=False) + "\n"
    args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
