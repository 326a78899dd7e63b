"""The bundled trace example, run the way the README shows: the installed `catalint` console script."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

EXAMPLE = ROOT / "examples" / "traces"


def catalint(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("catalint", path=str(Path(sys.executable).parent))
    command = [exe] if exe else [sys.executable, "-m", "catalint"]
    return subprocess.run([*command, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_readme_trace_example_passes_with_the_documented_lines() -> None:
    done = catalint("check", "examples/traces/suite.yml", "--traces", "examples/traces/runs")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = [
        "scenario [PASS] research agent: 3 runs from examples/traces/runs/research-agent.jsonl",
        "  selection F1 90, precision 100, recall 83 (true positives 5, false positives 0, false negatives 1)",
        "    missed classes: fetch (1 of 3 runs)",
        "  calls 7: name validity 100, schema compliance 85, execution success 85",
        '    run 3 call 2: search.web_search: arguments fail: "query" is a required property',
        "  orchestration discovery 83, parameterization 86, syntax 100, error_recovery 100, efficiency 89",
        "  tool-selection floor [PASS] weather selection: selection 9/10 (90%), pass^k 90%, "
        "tokens 1517.5 median / 1840 max",
    ]
    for line in shown:
        assert line in lines
        assert line in readme  # the README shows what the command prints
    assert "  gate [PASS] distractors.certified_lower 24.86 >= 20" in lines
    assert sum(line.startswith("scenario [PASS]") for line in lines) == 3


def test_example_json_report_and_a_breach(tmp_path: Path) -> None:
    shutil.copytree(EXAMPLE, tmp_path / "traces")
    shutil.copy(ROOT / "examples" / "weather.tools.json", tmp_path / "weather.tools.json")
    report = tmp_path / "base.json"
    done = catalint(
        "check",
        "traces/suite.yml",
        "--traces",
        "traces/runs",
        "--output-format",
        "json",
        "-o",
        str(report),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(report.read_text())
    assert data["passed"] is True and [q["passed"] for q in data["tool_quality"]] == [True]
    by_name = {s["scenario"]: s for s in data["scenarios"]}
    assert by_name["research agent"]["figures"]["tool_selection.f1"] == 90
    assert by_name["weather selection"]["floor"]["selection_rate"] == 90
    assert by_name["resists look-alikes"]["distractors"]["distractor_tools"] == [
        "web_search_v2",
        "web_search_internal",
        "webSearch",
    ]
    # one more run that calls the look-alike: the accuracy gate (>= 75) now fails, and --compare says so
    runs = tmp_path / "traces" / "runs" / "resists-look-alikes.json"
    recorded = json.loads(runs.read_text())
    recorded.append({"tool_calls": [{"server": "search", "name": "webSearch", "args": {"query": "x"}}]})
    runs.write_text(json.dumps(recorded))
    done = catalint("check", "traces/suite.yml", "--traces", "traces/runs", "--compare", str(report), cwd=tmp_path)
    assert done.returncode == 1
    out = done.stdout
    assert "scenario [FAIL] resists look-alikes: 5 runs" in out
    assert "  gate [FAIL] distractors.accuracy 60 < 75" in out
    assert "resists look-alikes: distractors.accuracy 75 -> 60 (-15)" in out
    assert "resists look-alikes: gate flipped PASS -> FAIL: distractors.accuracy >= 75" in out
    assert "research agent: no change" in out


def test_distract_writes_the_catalog_the_suite_scores_against(tmp_path: Path) -> None:
    out = tmp_path / "padded.json"
    done = catalint(
        "trace", "distract", "examples/traces/catalogs/search.json", "--count", "3",
        "--from", "near_duplicate", "--of", "web_search", "-o", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    names = [t["name"] for t in json.loads(out.read_text())["tools"]]
    assert names == ["web_search", "web_search_v2", "web_search_internal", "news_search", "webSearch"]
    assert "2 tools and 3 distractors (web_search_v2, web_search_internal, webSearch)" in done.stderr


def test_rule_trace_explains_the_definitions() -> None:
    done = catalint("rule", "TRACE")
    assert done.returncode == 0
    for needle in ("Selection F1", "Clopper-Pearson", "pass^k", "token_efficiency.{f1", "calls.{name_validity"):
        assert needle in done.stdout


def test_the_example_suite_pointed_at_its_padded_catalog_scores_as_before(tmp_path: Path) -> None:
    """'resists look-alikes' asks for 3 look-alikes of web_search: given the catalog trace distract padded with
    them, the run used to stop ('only 1 variant of web_search is available'); it is read as the unpadded one."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    here = tmp_path / "examples" / "traces"
    padded = catalint(
        "trace",
        "distract",
        "catalogs/search.json",
        "--count",
        "3",
        "--from",
        "near_duplicate",
        "--of",
        "web_search",
        "-o",
        "catalogs/search.padded.json",
        cwd=here,
    )
    assert padded.returncode == 0, padded.stderr
    before = json.loads(catalint("check", "suite.yml", "--traces", "runs", "--output-format", "json", cwd=here).stdout)
    suite = here / "suite.yml"
    suite.write_text(suite.read_text().replace("catalogs/search.json", "catalogs/search.padded.json"))
    done = catalint("check", "suite.yml", "--traces", "runs", "--output-format", "json", cwd=here)
    assert done.returncode == 0, done.stderr
    after = json.loads(done.stdout)
    old = next(s for s in before["scenarios"] if s["scenario"] == "resists look-alikes")
    new = next(s for s in after["scenarios"] if s["scenario"] == "resists look-alikes")
    assert new["figures"] == old["figures"]
    assert any("read as the catalog before padding" in n for n in new["notices"])
