"""Compare JSON Schema libraries on the work SCH-006 does: meta-validating every input schema.

    python benchmarks/validators.py [N]      # N tools, default 10,000

Times, in this process: importing the library, building a 2020-12 meta-schema
validator once, and collecting every error for the input schema of each of N
generated tools. The pure-Python `jsonschema` package is measured only when it
is installed (`pip install jsonschema`); catalint itself uses jsonschema-rs.
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable
from typing import Any

from generate import generate_catalog


def _time(step: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = step()
    return time.perf_counter() - start, value


def measure_jsonschema(schemas: list[Any]) -> tuple[float, float, float, int] | None:
    try:
        imported, module = _time(lambda: importlib.import_module("jsonschema"))
    except ImportError:
        return None
    cls = module.Draft202012Validator
    built, validator = _time(lambda: cls(cls.META_SCHEMA))
    ran, errors = _time(lambda: sum(1 for s in schemas for _ in validator.iter_errors(s)))
    return imported, built, ran, errors


def measure_jsonschema_rs(schemas: list[Any]) -> tuple[float, float, float, int]:
    imported, module = _time(lambda: importlib.import_module("jsonschema_rs"))
    uri = "https://json-schema.org/draft/2020-12/schema"
    built, validator = _time(lambda: module.Draft202012Validator({"$ref": uri}, offline=True))
    ran, errors = _time(lambda: sum(1 for s in schemas for _ in validator.iter_errors(s)))
    return imported, built, ran, errors


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    tools = generate_catalog(n)["tools"]
    schemas = [t["inputSchema"] for t in tools if isinstance(t.get("inputSchema"), dict)]
    print(f"Meta-validating {len(schemas):,} input schemas (JSON Schema 2020-12)\n")
    print("| Library | Import (s) | Build validator (s) | Validate all (s) | Per schema (ms) | Errors |")
    print("|---|---:|---:|---:|---:|---:|")
    rows = [("jsonschema-rs", measure_jsonschema_rs(schemas)), ("jsonschema", measure_jsonschema(schemas))]
    for name, row in rows:
        if row is None:
            print(f"| {name} | not installed | | | | |")
            continue
        imported, built, ran, errors = row
        per = ran / max(len(schemas), 1) * 1000
        print(f"| {name} | {imported:.3f} | {built:.3f} | {ran:.3f} | {per:.3f} | {errors:,} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
