"""The composite GitHub Action: its metadata, the script-injection rule, and its steps run by a harness."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from catalint.config import CONFIG_NAMES, DEFAULT_INCLUDE
from conftest import ROOT, write_catalog

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
BIN = Path(sys.executable).with_name("catalint")
INPUTS = [
    "paths",
    "config",
    "fail-severity",
    "gate",
    "only-new",
    "sarif-file",
    "summary",
    "suite",
    "traces",
    "python-version",
]
OUTPUTS = ["critical-count", "warning-count", "min-score", "mean-score", "sarif-file", "check-passed"]

GOOD = {
    "name": "get_time",
    "description": "Get the current time in UTC. Returns an ISO 8601 timestamp string.",
    "inputSchema": {"type": "object", "additionalProperties": False},
    "annotations": {"readOnlyHint": True},
}
OLD_FLAW = {
    "name": "get_date",
    "description": "Date",
    "inputSchema": {"type": "object", "additionalProperties": False},
    "annotations": {"readOnlyHint": True},
}
NEW_FLAW = {"name": "get_weather", "description": "Weather", "inputSchema": {"type": "object"}}


def test_action_metadata_is_valid() -> None:
    exe = Path(sys.executable).with_name("check-jsonschema")
    if not exe.exists():
        pytest.skip("check-jsonschema is not installed (pip install -e '.[test]')")
    result = subprocess.run(
        [str(exe), "--builtin-schema", "vendor.github-actions", str(ROOT / "action.yml")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_inputs_and_outputs() -> None:
    assert list(ACTION["inputs"]) == INPUTS
    for name, spec in ACTION["inputs"].items():
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", name)
        assert spec["description"] and "default" in spec, name
    assert list(ACTION["outputs"]) == OUTPUTS
    assert ACTION["runs"]["using"] == "composite"


def test_no_run_step_splices_an_expression() -> None:
    """Inputs reach scripts through env: only; `${{ inputs.x }}` inside run: is script injection."""
    for step in ACTION["runs"]["steps"]:
        assert "${{" not in step.get("run", ""), step.get("name")
    text = (ROOT / "action.yml").read_text(encoding="utf-8")
    runs = re.findall(r"^\s*run:\s*(.*)$", text, flags=re.M)
    assert runs and all("${{" not in r for r in runs)


def test_python_is_isolated_from_the_job() -> None:
    setup = next(s for s in ACTION["runs"]["steps"] if str(s.get("uses", "")).startswith("actions/setup-python"))
    assert setup["with"]["update-environment"] is False


# ---------------------------------------------------------------- the lint step, run by a harness


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def _new_repo(tmp_path: Path) -> Path:
    """An empty git repository at tmp_path/repo (the test is skipped without git)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    repo.mkdir()
    _git("init", "-q", cwd=repo)
    _git("config", "user.email", "test@example.com", cwd=repo)
    _git("config", "user.name", "test", cwd=repo)
    return repo


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, str]:
    """A repository whose base commit has one old flaw; the head adds a new one."""
    repo = _new_repo(tmp_path)
    write_catalog(repo / "tools.json", [GOOD, OLD_FLAW])
    _git("add", ".", cwd=repo)
    _git("commit", "-qm", "base", cwd=repo)
    base = _git("rev-parse", "HEAD", cwd=repo)
    write_catalog(repo / "tools.json", [GOOD, OLD_FLAW, NEW_FLAW])
    _git("commit", "-qam", "head", cwd=repo)
    return repo, base


def _run_step(
    repo: Path, tmp_path: Path, script: str = "lint.sh", **inputs: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, str], str]:
    exe = BIN if BIN.exists() else Path(shutil.which("catalint") or "catalint")
    output, summary = tmp_path / "output.txt", tmp_path / "summary.md"
    env = {
        **os.environ,
        "CATALINT_BIN": str(exe),
        "GITHUB_OUTPUT": str(output),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_WORKSPACE": str(repo),
        "GITHUB_ACTION_PATH": str(ROOT),
        "INPUT_PATHS": ".",
        "INPUT_SUMMARY": "true",
        "INPUT_ONLY_NEW": "false",
    }
    env.pop("CATALINT_OUTPUT_FORMAT", None)
    env.update({f"INPUT_{k.upper()}": v for k, v in inputs.items() if k != "base_sha"})
    if "base_sha" in inputs:
        env["BASE_SHA"] = inputs["base_sha"]
    proc = subprocess.run(
        ["bash", str(ROOT / "hooks" / "action" / script)], cwd=repo, env=env, capture_output=True, text=True
    )
    outputs = _outputs(output.read_text()) if output.exists() else {}
    return proc, outputs, summary.read_text() if summary.exists() else ""


def _outputs(text: str) -> dict[str, str]:
    """A GITHUB_OUTPUT file read as the runner reads it: NAME=VALUE lines, and NAME<<MARK, lines, MARK."""
    found: dict[str, str] = {}
    lines = iter(text.split("\n"))
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, mark = line.split("<<", 1)
            found[name] = "\n".join(iter(lines.__next__, mark))
        elif line:
            name, value = line.split("=", 1)
            found[name] = value
    return found


def test_step_annotates_summarises_and_sets_outputs(repo: tuple[Path, str], tmp_path: Path) -> None:
    path, _ = repo
    proc, outputs, summary = _run_step(path, tmp_path, sarif_file=str(tmp_path / "out.sarif"))
    assert proc.returncode == 1, proc.stderr
    annotations = [line for line in proc.stdout.splitlines() if line.startswith("::error file=tools.json")]
    assert any("get_weather" in a for a in annotations) and any("get_date" in a for a in annotations)
    assert outputs["critical-count"] == "2"  # DESC-001 on get_date and on get_weather
    assert float(outputs["min-score"]) < float(outputs["mean-score"]) < 1
    assert outputs["sarif-file"] == str(tmp_path / "out.sarif")
    assert json.loads((tmp_path / "out.sarif").read_text())["version"] == "2.1.0"
    assert summary.startswith("## catalint") and "| `get_weather` |" in summary


def test_an_output_with_a_line_break_cannot_set_another(repo: tuple[Path, str], tmp_path: Path) -> None:
    path, _ = repo
    sarif = str(tmp_path / "out.sarif") + "\ncritical-count=0"
    _, outputs, _ = _run_step(path, tmp_path, sarif_file=sarif, summary="false")
    assert outputs["sarif-file"] == sarif and outputs["critical-count"] == "2"


def test_step_passes_when_the_cli_would(repo: tuple[Path, str], tmp_path: Path) -> None:
    path, _ = repo
    write_catalog(path / "tools.json", [GOOD])
    proc, outputs, _ = _run_step(path, tmp_path, gate="mean_score>=0.9\n  min_score>=0.9  \n")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert outputs["critical-count"] == "0"
    assert "gate [" not in proc.stdout  # annotations only for failures


def test_count_outputs_mean_what_action_yml_says(tmp_path: Path) -> None:
    # critical-count counts SCH findings; the gate's critical_count does not (and is per file):
    # action.yml says so, and the numbers add up as it says
    for name in ("critical-count", "warning-count"):
        description = ACTION["outputs"][name]["description"]
        assert "SCH" in description and "over all linted files" in description, name
    assert "critical_count plus schema_criticals" in ACTION["outputs"]["critical-count"]["description"]
    assert "warning_count plus schema_warnings" in ACTION["outputs"]["warning-count"]["description"]
    repo = tmp_path / "repo"
    repo.mkdir()
    untyped = {**GOOD, "name": "get_it", "inputSchema": {"type": "object", "properties": {"x": {}}}}
    write_catalog(repo / "a.tools.json", [GOOD, OLD_FLAW, untyped])  # DESC-001, SCH-003
    write_catalog(repo / "b.tools.json", [NEW_FLAW, untyped])
    proc, outputs, _ = _run_step(repo, tmp_path)
    assert proc.returncode == 1, proc.stderr
    report = subprocess.run(
        [str(BIN if BIN.exists() else "catalint"), "lint", ".", "--output-format", "json"],
        cwd=repo,
        capture_output=True,
        text=True,
    )
    files = [f["quality"] for f in json.loads(report.stdout)["files"]]
    assert len(files) == 2 and all(q["schema_criticals"] and q["critical_count"] for q in files)
    assert int(outputs["critical-count"]) == sum(q["critical_count"] + q["schema_criticals"] for q in files)
    assert int(outputs["warning-count"]) == sum(q["warning_count"] + q["schema_warnings"] for q in files)
    assert int(outputs["critical-count"]) > max(q["critical_count"] for q in files)


def test_paths_input_expands_globs(tmp_path: Path) -> None:
    # `paths: servers/*.json` once reached catalint as a file name ("servers/*.json: error: No such
    # file or directory"); a paths input is expected to take patterns, as other actions' do
    repo = tmp_path / "repo"
    for name in ("a.json", "b c.json", "sub/d.json", "with space/e.json", "--gate=min_score>=0.json"):
        (repo / "servers" / name).parent.mkdir(parents=True, exist_ok=True)
        write_catalog(repo / "servers" / name, [GOOD, OLD_FLAW])
    write_catalog(repo / "other.tools.json", [NEW_FLAW])

    def linted(paths: str) -> tuple[int, set[str]]:
        proc, _, _ = _run_step(repo, tmp_path, paths=paths, summary="false")
        files = {m for m in re.findall(r"^::error file=([^,]+),", proc.stdout, flags=re.M)}
        return proc.returncode, files

    # one level, names with spaces kept whole; a file named like an option is still a file
    assert linted("servers/*.json") == (1, {"servers/a.json", "servers/b c.json", "servers/--gate=min_score>=0.json"})
    every = {f"servers/{n}" for n in ("a.json", "b c.json", "sub/d.json", "with space/e.json")}
    assert linted("servers/**/*.json\nother.tools.json")[1] == every | {
        "servers/--gate=min_score>=0.json",
        "other.tools.json",
    }
    assert linted("other.tools.json servers/[ab]*.json")[1] == {
        "other.tools.json",
        "servers/a.json",
        "servers/b c.json",
    }
    proc, _, _ = _run_step(repo / "servers", tmp_path, paths="*.json", summary="false")  # matches '--gate=...'
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "::error file=--gate=min_score>=0.json,title=catalint gate::" in proc.stdout
    (tmp_path / "output.txt").unlink()  # the step appends to it
    proc, outputs, _ = _run_step(repo, tmp_path, paths="other.tools.json servers/*.yaml")
    assert proc.returncode == 2 and outputs == {}
    assert proc.stdout == "::error title=catalint::paths: servers/*.yaml matches no file or folder\n"
    write_catalog(repo / "odd[1].tools.json", [GOOD])  # an existing name is taken as it is, not as a pattern
    assert linted("odd[1].tools.json")[0] == 0
    # a literal path that starts with a dash is a file too, not the --gate option it looks like
    (tmp_path / "output.txt").unlink(missing_ok=True)
    proc, _, _ = _run_step(repo / "servers", tmp_path, paths="--gate=min_score>=0.json", summary="false")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "::error file=--gate=min_score>=0.json,title=catalint gate::" in proc.stdout


def test_gate_and_fail_severity_inputs(repo: tuple[Path, str], tmp_path: Path) -> None:
    path, _ = repo
    write_catalog(path / "tools.json", [GOOD])
    proc, _, _ = _run_step(path, tmp_path, gate="mean_score>=0.99\nmin_score>1")
    assert proc.returncode == 1
    assert "::error file=tools.json,title=catalint gate::gate [FAIL] min_score 1.00 <= 1.00" in proc.stdout
    proc, _, _ = _run_step(path, tmp_path, fail_severity="warning")
    assert proc.returncode == 0  # the good catalog has no warning either


def test_pull_request_summary_shows_what_changed(repo: tuple[Path, str], tmp_path: Path) -> None:
    path, base = repo
    proc, _, summary = _run_step(path, tmp_path, base_sha=base)
    assert proc.returncode == 1
    assert "get_weather" in summary.split("## catalint", 1)[1]
    assert summary.count("tools.json") >= 2  # the lint report and the diff against the base


def test_pull_request_summary_names_a_new_catalog_whatever_its_name(repo: tuple[Path, str], tmp_path: Path) -> None:
    path, base = repo
    odd = "odd\n::error::x.tools.json"  # git allows a line break in a file name
    write_catalog(path / odd, [GOOD])
    _git("add", ".", cwd=path)
    _git("commit", "-qm", "odd", cwd=path)
    proc, _, summary = _run_step(path, tmp_path, base_sha=base)
    assert proc.returncode == 1, proc.stderr
    assert "### `odd ::error::x.tools.json`" in summary  # one heading: the line break read as a space
    assert "No catalog at this path in the base commit, nor one git sees moved here: new in this pull request." in (
        summary
    )
    assert not any(line.startswith("::") for line in summary.splitlines())
    assert "### error::x.tools.json" not in summary and "### odd\n" not in summary


def test_config_input_reaches_the_pull_request_diff_too(repo: tuple[Path, str], tmp_path: Path) -> None:
    # the summary's `catalint diff` once ran without the config input, so findings it ignores
    # showed up there as "Findings introduced" while the lint report above left them out
    path, base = repo
    _, _, summary = _run_step(path, tmp_path, base_sha=base)
    assert "**DESC-001** `get_weather`" in summary.split("## catalint", 1)[1]  # the diff's list
    for step_file in ("summary.md", "output.txt"):  # the step appends to them
        (tmp_path / step_file).unlink()
    (path / "ci").mkdir()
    (path / "ci" / "catalint.toml").write_text('ignore = ["DESC-001"]\n')
    proc, outputs, summary = _run_step(path, tmp_path, base_sha=base, config="ci/catalint.toml")
    assert "Findings introduced" in summary and "(DESC-" in proc.stdout, proc.stderr
    assert "DESC-001" not in summary and "(DESC-001)" not in proc.stdout
    assert outputs["critical-count"] == "0"


def test_pull_request_summary_diffs_a_catalog_named_like_an_option(tmp_path: Path) -> None:
    # the summary's `catalint diff BASE:f f` read a head side named '--exit-code.tools.json' (a name
    # the default include picks up) as an option, failed, and left that catalog's diff out
    repo = _new_repo(tmp_path)
    write_catalog(repo / "--exit-code.tools.json", [GOOD])
    _git("add", "--", ".", cwd=repo)
    _git("commit", "-qm", "base", cwd=repo)
    base = _git("rev-parse", "HEAD", cwd=repo)
    write_catalog(repo / "--exit-code.tools.json", [GOOD, NEW_FLAW])
    _git("commit", "-qam", "head", cwd=repo)
    proc, _, summary = _run_step(repo, tmp_path, base_sha=base)
    assert proc.returncode == 1 and "No such option" not in proc.stderr, proc.stderr
    assert "Findings introduced" in summary and "get_weather" in summary.split("## catalint", 1)[1]


def test_only_new_annotates_only_what_the_pull_request_introduced(repo: tuple[Path, str], tmp_path: Path) -> None:
    path, base = repo
    proc, _, _ = _run_step(path, tmp_path, base_sha=base, only_new="true")
    annotations = [line for line in proc.stdout.splitlines() if line.startswith("::") and "(DESC-" in line]
    assert annotations and all("get_weather" in a for a in annotations)
    assert proc.returncode == 1


def test_only_new_follows_a_catalog_the_pull_request_moved(tmp_path: Path) -> None:
    repo = _new_repo(tmp_path)
    write_catalog(repo / "tools.json", [GOOD, OLD_FLAW])
    _git("add", ".", cwd=repo)
    _git("commit", "-qm", "base", cwd=repo)
    base = _git("rev-parse", "HEAD", cwd=repo)
    (repo / "servers").mkdir()
    _git("mv", "tools.json", "servers/tools.json", cwd=repo)
    write_catalog(repo / "servers" / "tools.json", [GOOD, OLD_FLAW, NEW_FLAW])
    _git("commit", "-qam", "moved", cwd=repo)
    proc, _, summary = _run_step(repo, tmp_path, base_sha=base, only_new="true")
    annotations = [line for line in proc.stdout.splitlines() if line.startswith("::") and "(DESC-" in line]
    assert annotations and all("get_weather" in a and "file=servers/tools.json" in a for a in annotations)
    # the summary diffs it against the file it was: one tool added, not a new catalog
    assert "No catalog at this path" not in summary and "Findings introduced" in summary
    assert "tools.json@" in summary and "get_weather" in summary.split("## catalint", 1)[1]


def test_only_new_still_writes_every_finding_to_the_sarif(repo: tuple[Path, str], tmp_path: Path) -> None:
    """Code scanning takes an upload as all there is on its ref and compares a pull request's with the base
    branch's itself: a SARIF of the new findings alone would show every other alert as fixed."""
    path, base = repo
    sarif = tmp_path / "out.sarif"
    proc, outputs, _ = _run_step(path, tmp_path, base_sha=base, only_new="true", sarif_file=str(sarif))
    assert proc.returncode == 1, proc.stderr
    annotated = {line.split("::")[2].split(":")[0] for line in proc.stdout.splitlines() if "(DESC-" in line}
    assert annotated == {"get_weather"}  # only the new ones are annotated and counted
    assert outputs["critical-count"] == "1" and outputs["sarif-file"] == str(sarif)
    results = json.loads(sarif.read_text())["runs"][0]["results"]
    assert {r["message"]["text"].split(":")[0] for r in results if r["ruleId"] == "DESC-001"} == {
        "get_date",
        "get_weather",
    }
    full = json.loads(
        subprocess.run(
            [str(BIN), "lint", "tools.json", "--output-format", "sarif", "--exit-zero"],
            cwd=path,
            capture_output=True,
            text=True,
        ).stdout
    )
    assert len(results) == len(full["runs"][0]["results"])


def test_a_base_commit_missing_from_a_shallow_clone_is_fetched(repo: tuple[Path, str], tmp_path: Path) -> None:
    """actions/checkout fetches one commit by default: the step fetches the base from the clone's own
    remote, so the summary shows the diff rather than calling every catalog new."""
    origin, base = repo
    clone = tmp_path / "clone"
    _git("clone", "-q", "--depth", "1", f"file://{origin}", str(clone), cwd=tmp_path)
    assert subprocess.run(["git", "cat-file", "-e", f"{base}^{{commit}}"], cwd=clone).returncode != 0
    proc, _, summary = _run_step(clone, tmp_path, base_sha=base, only_new="true")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Findings introduced" in summary and "No catalog at this path" not in summary


def test_fetching_the_base_into_a_full_clone_leaves_it_full(tmp_path: Path) -> None:
    """A base branch that moved on after the pull request branched is not in a single-branch clone: fetched
    with --depth=1, that complete clone became shallow and lost the merge base. Only a shallow clone gets it."""
    origin = _new_repo(tmp_path)
    write_catalog(origin / "tools.json", [GOOD, OLD_FLAW])
    _git("add", ".", cwd=origin)
    _git("commit", "-qm", "start", cwd=origin)
    _git("branch", "-M", "main", cwd=origin)
    _git("checkout", "-qb", "feature", cwd=origin)
    write_catalog(origin / "tools.json", [GOOD, OLD_FLAW, NEW_FLAW])
    _git("commit", "-qam", "feature", cwd=origin)
    _git("checkout", "-q", "main", cwd=origin)
    (origin / "README").write_text("moved on\n")
    _git("add", ".", cwd=origin)
    _git("commit", "-qm", "main moves on", cwd=origin)
    base = _git("rev-parse", "HEAD", cwd=origin)
    clone = tmp_path / "clone"
    _git("clone", "-q", "--no-local", "--single-branch", "--branch", "feature", str(origin), str(clone), cwd=tmp_path)
    proc, _, summary = _run_step(clone, tmp_path, base_sha=base)
    assert proc.returncode == 1, proc.stderr
    assert "Findings introduced" in summary
    assert _git("rev-parse", "--is-shallow-repository", cwd=clone) == "false"
    assert _git("merge-base", "HEAD", base, cwd=clone)


def test_a_base_commit_that_cannot_be_had_is_said_not_taken_for_a_new_catalog(
    repo: tuple[Path, str], tmp_path: Path
) -> None:
    path, _ = repo
    gone = "0123456789abcdef0123456789abcdef01234567"
    proc, _, summary = _run_step(path, tmp_path, base_sha=gone)
    assert proc.returncode == 1, proc.stderr
    assert f"The base commit {gone} is not in this clone" in summary and "fetch-depth: 0" in summary
    assert "No catalog at this path" not in summary and "Findings introduced" not in summary
    (tmp_path / "summary.md").unlink()
    proc, _, _ = _run_step(path, tmp_path, base_sha=gone, only_new="true")
    assert proc.returncode == 2
    assert proc.stdout.startswith(f"::error title=catalint::only-new: the base commit {gone} is not in this clone")


def test_pull_request_summary_diffs_a_catalog_given_by_absolute_path(repo: tuple[Path, str], tmp_path: Path) -> None:
    path, base = repo
    _, _, summary = _run_step(path, tmp_path, base_sha=base, paths=str(path / "tools.json"))
    assert "Findings introduced" in summary and "No catalog at this path" not in summary


def test_pull_request_summary_diffs_a_catalog_named_through_a_linked_workspace(
    repo: tuple[Path, str], tmp_path: Path
) -> None:
    # the path was made relative without resolving the link: git found no such file at the base, "new"
    path, base = repo
    link = tmp_path / "link"
    link.symlink_to(path)
    _, _, summary = _run_step(link, tmp_path, base_sha=base, paths=str(link / "tools.json"))
    assert "Findings introduced" in summary and "No catalog at this path" not in summary


def test_a_sarif_over_code_scannings_limit_gets_a_warning(tmp_path: Path) -> None:
    repo = _new_repo(tmp_path)
    write_catalog(repo / "tools.json", [{**NEW_FLAW, "name": f"tool_{i}"} for i in range(2600)])
    sarif = tmp_path / "big.sarif"
    proc, _, _ = _run_step(repo, tmp_path, sarif_file=str(sarif), summary="false")
    results = len(json.loads(sarif.read_text())["runs"][0]["results"])
    assert results > 5000
    warning = f"::warning title=catalint::the SARIF report holds {results:,} results"
    # first, before the findings' annotations: GitHub shows only the first 10 warnings of a step
    assert proc.stdout.startswith(warning)
    write_catalog(repo / "tools.json", [{**NEW_FLAW, "name": f"tool_{i}"} for i in range(10)])
    proc, _, _ = _run_step(repo, tmp_path, sarif_file=str(sarif), summary="false")
    assert "SARIF report holds" not in proc.stdout


def test_the_sarif_warning_heads_the_job_summary_too(tmp_path: Path) -> None:
    repo = _new_repo(tmp_path)
    write_catalog(repo / "tools.json", [{**NEW_FLAW, "name": f"tool_{i}"} for i in range(2600)])
    _, _, summary = _run_step(repo, tmp_path, sarif_file=str(tmp_path / "big.sarif"))
    assert summary.startswith("> **Warning:** the SARIF report holds ")


def test_the_sarif_file_output_names_only_a_report_that_was_written(repo: tuple[Path, str], tmp_path: Path) -> None:
    path, base = repo
    (tmp_path / "a-file").write_text("")
    nowhere = str(tmp_path / "a-file" / "out.sarif")
    annotation = f"::error title=catalint::{nowhere}: error: cannot write report: Not a directory"
    proc, outputs, _ = _run_step(path, tmp_path, base_sha=base, only_new="true", sarif_file=nowhere)
    assert proc.returncode == 2 and "out.sarif" in proc.stderr
    assert outputs["sarif-file"] == ""  # the upload step of the example workflow would look for it
    assert annotation in proc.stdout.splitlines()  # a plain stderr line is easy to miss in the log
    proc, outputs, _ = _run_step(path, tmp_path, sarif_file=nowhere)
    assert proc.returncode == 2 and outputs.get("sarif-file", "") == ""
    assert annotation in proc.stdout.splitlines()
    # a folder that is not there is made, as ruff makes --output-file's
    made = tmp_path / "reports" / "catalint.sarif"
    proc, outputs, _ = _run_step(path, tmp_path, sarif_file=str(made))
    assert outputs["sarif-file"] == str(made) and json.loads(made.read_text())["version"] == "2.1.0"


def test_a_config_error_in_the_lint_step_is_annotated_at_its_line(repo: tuple[Path, str], tmp_path: Path) -> None:
    path, _ = repo
    (path / "catalint.toml").write_text('select = "DESC"\n')
    proc, _, _ = _run_step(path, tmp_path)
    assert proc.returncode == 2
    assert "::error file=catalint.toml,line=1,col=10,title=catalint::select must be a list of strings" in proc.stdout
    assert "error: catalint.toml:1:10: select must be a list" in proc.stderr  # the log keeps the plain line
    (path / "catalint.toml").unlink()
    proc, _, _ = _run_step(path, tmp_path, gate="bogus>=1")
    assert proc.returncode == 2
    assert "::error title=catalint::command line: --gate: unknown gate target 'bogus'" in proc.stdout
    # a catalog's own error is annotated once, by the github format
    (path / "tools.json").write_text("{bad")
    proc, _, _ = _run_step(path, tmp_path)
    assert proc.returncode == 2 and proc.stdout.count("::error file=tools.json") == 1


def test_only_new_outside_a_repository_says_so(tmp_path: Path) -> None:
    """actions/checkout with path: leaves the workspace root outside the repository: fetch-depth is no cure."""
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    write_catalog(workspace / "tools.json", [GOOD])
    env_ceiling = os.environ.get("GIT_CEILING_DIRECTORIES")
    os.environ["GIT_CEILING_DIRECTORIES"] = str(tmp_path)  # git must not find a repository above tmp_path
    try:
        base = "0123456789abcdef0123456789abcdef01234567"
        proc, _, _ = _run_step(workspace, tmp_path, base_sha=base, only_new="true")
        assert proc.returncode == 2
        assert proc.stdout.startswith("::error title=catalint::only-new: the workspace is not a git repository")
        assert "fetch-depth" not in proc.stdout
        _, _, summary = _run_step(workspace, tmp_path, base_sha=base)
        assert "What each catalog changed is not shown: the workspace is not a git repository" in summary
        assert "fetch-depth" not in summary
    finally:
        if env_ceiling is None:
            os.environ.pop("GIT_CEILING_DIRECTORIES")
        else:
            os.environ["GIT_CEILING_DIRECTORIES"] = env_ceiling


def test_a_git_that_refuses_the_repository_is_quoted_not_taken_for_no_repository(
    repo: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a container job git may refuse a checkout owned by another user: its words, not 'not a repository'."""
    path, base = repo
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "git").write_text(
        "#!/bin/sh\necho \"fatal: detected dubious ownership in repository at '$PWD'\" >&2\nexit 128\n"
    )
    (fake / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ['PATH']}")
    proc, _, _ = _run_step(path, tmp_path, base_sha=base, only_new="true")
    assert proc.returncode == 2
    assert proc.stdout.startswith("::error title=catalint::only-new: git cannot read the repository: fatal: detected")
    assert "not a git repository" not in proc.stdout


def test_pull_request_summary_diffs_only_the_catalogs_that_changed(tmp_path: Path) -> None:
    repo = _new_repo(tmp_path)
    for i in range(5):
        (repo / f"s{i}").mkdir()
        write_catalog(repo / f"s{i}" / "tools.json", [GOOD, {**OLD_FLAW, "name": f"get_date_{i}"}])
    (repo / "broken").mkdir()
    write_catalog(repo / "broken" / "tools.json", [GOOD])
    _git("add", ".", cwd=repo)
    _git("commit", "-qm", "base", cwd=repo)
    base = _git("rev-parse", "HEAD", cwd=repo)
    write_catalog(repo / "s2" / "tools.json", [GOOD, {**OLD_FLAW, "name": "get_date_2"}, NEW_FLAW])
    (repo / "broken" / "tools.json").write_text("{not json at the base")
    _git("add", ".", cwd=repo)
    _git("commit", "-qm", "base broken", cwd=repo)
    broken_base = _git("rev-parse", "HEAD", cwd=repo)
    write_catalog(repo / "broken" / "tools.json", [GOOD])
    _git("commit", "-qam", "head", cwd=repo)
    _, _, summary = _run_step(repo, tmp_path, base_sha=base)
    diffs = [line for line in summary.splitlines() if line.startswith("### catalint diff:")]
    assert len(diffs) == 1 and "`s2/tools.json`" in diffs[0]  # the others are unchanged: no diff to show
    assert "5 linted catalogs unchanged since the base commit." in summary
    (tmp_path / "summary.md").unlink()
    # a base version that does not parse is said, not dropped
    _, _, summary = _run_step(repo, tmp_path, base_sha=broken_base)
    section = summary.split("### `broken/tools.json`", 1)[1]
    assert section.lstrip().startswith("What it changed could not be shown: ")


# ---------------------------------------------------------------- the check step (input suite)


def test_check_step_runs_only_with_a_suite_and_after_a_failed_lint() -> None:
    step = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "check")
    assert step["if"] == "${{ !cancelled() && inputs.suite != '' }}"  # also when the lint step failed
    assert step["env"]["INPUT_SUITE"] == "${{ inputs.suite }}" and step["run"].endswith('check.sh"')
    assert ACTION["outputs"]["check-passed"]["value"] == "${{ steps.check.outputs.check-passed }}"


@pytest.fixture
def traces_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "examples", repo)  # the suite also reads ../weather.tools.json
    return repo / "traces"


def test_check_step_scores_traces_into_the_summary(traces_repo: Path, tmp_path: Path) -> None:
    proc, outputs, summary = _run_step(traces_repo, tmp_path, "check.sh", suite="suite.yml", traces="runs")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert outputs == {"check-passed": "true"}
    assert summary.startswith("# catalint check") and "### research agent: PASS" in summary
    assert "| `tool_selection.f1` | 90 |" in proc.stdout  # the report is in the log too
    assert "::error" not in proc.stdout


def test_check_step_fails_and_annotates_when_a_gate_fails(traces_repo: Path, tmp_path: Path) -> None:
    suite = traces_repo / "suite.yml"
    suite.write_text(suite.read_text().replace('tool_selection.f1: {">=": 70}', 'tool_selection.f1: {">=": 95}'))
    proc, outputs, summary = _run_step(traces_repo, tmp_path, "check.sh", suite="suite.yml", traces="runs")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert outputs == {"check-passed": "false"}
    assert "### research agent: FAIL" in summary and "| tool_selection.f1 90 &lt; 95 | FAIL |" in summary
    assert "::error file=suite.yml,title=catalint check::a check of suite.yml failed (see the job summary)" in (
        proc.stdout.splitlines()
    )


def test_check_step_uses_the_config_input(traces_repo: Path, tmp_path: Path) -> None:
    # config: is "for every catalog": the suite's catalogs too, not only the lint step's
    (traces_repo / "ci.toml").write_text(
        'extend-select = ["TOK-002"]\ncatalog-token-budget = 10\n[severity]\nTOK-002 = "critical"\n'
    )
    proc, outputs, summary = _run_step(traces_repo, tmp_path, "check.sh", suite="suite.yml", traces="runs")
    assert proc.returncode == 0 and "`critical_count 0 <= 0`" in summary, proc.stdout + proc.stderr
    for step_file in ("summary.md", "output.txt"):  # the step appends to them
        (tmp_path / step_file).unlink()
    proc, outputs, summary = _run_step(
        traces_repo, tmp_path, "check.sh", suite="suite.yml", traces="runs", config="ci.toml"
    )
    assert proc.returncode == 1 and outputs == {"check-passed": "false"}, proc.stdout + proc.stderr
    assert "`critical_count 1 > 0`" in summary


def test_check_step_turns_errors_into_annotations_at_their_position(traces_repo: Path, tmp_path: Path) -> None:
    (traces_repo / "suite.yml").write_text("tool_quality:\n  - {name: x, catalog: none.json}\n  - 3\n")
    proc, outputs, summary = _run_step(traces_repo, tmp_path, "check.sh", suite="suite.yml")
    assert proc.returncode == 2
    assert outputs == {"check-passed": "false"} and summary == ""
    errors = [line for line in proc.stdout.splitlines() if line.startswith("::error")]
    assert len(errors) == 1 and errors[0].startswith("::error file=suite.yml,line=3,col=5,title=catalint check::")


def test_check_step_annotates_an_unreadable_catalog_without_a_position(traces_repo: Path, tmp_path: Path) -> None:
    (traces_repo / "suite.yml").write_text("tool_quality:\n  - {name: gone, catalog: 'no,ne:.json'}\n")
    proc, _, summary = _run_step(traces_repo, tmp_path, "check.sh", suite="suite.yml")
    assert proc.returncode == 2
    assert "::error file=no%2Cne%3A.json,title=catalint check::No such file or directory" in proc.stdout
    assert "❌ FAIL" in summary  # the block's row still reaches the summary


def test_check_step_places_a_server_failure_at_the_suite_whatever_the_servers_stderr_says(
    traces_repo: Path, tmp_path: Path
) -> None:
    # argparse's own "prog: error: ..." is quoted in the line after the suite's: the first ': error: ' ends the file
    (traces_repo / "srv.py").write_text("import sys\nsys.exit('srv.py: error: the --token argument is required')\n")
    suite = "servers:\n  s: {command: ['" + sys.executable + "', srv.py]}\ntool_quality:\n  - {name: s, server: s}\n"
    (traces_repo / "servers.yml").write_text(suite)
    proc, _, _ = _run_step(traces_repo, tmp_path, "check.sh", suite="servers.yml")
    assert proc.returncode == 2
    [error] = [line for line in proc.stdout.splitlines() if line.startswith("::error")]
    assert error.startswith("::error file=servers.yml,title=catalint check::server 's': ")
    assert error.endswith("srv.py: error: the --token argument is required")


def test_check_step_names_no_file_rather_than_a_name_shown_escaped(traces_repo: Path, tmp_path: Path) -> None:
    # the error line shows '::x.json' as '\x3a:x.json' (no line may open a workflow command): that is no file here
    (traces_repo / "::x.json").write_text("{")
    (traces_repo / "suite.yml").write_text("tool_quality:\n  - {name: x, catalog: '::x.json'}\n")
    proc, _, _ = _run_step(traces_repo, tmp_path, "check.sh", suite="suite.yml")
    assert proc.returncode == 2
    [error] = [line for line in proc.stdout.splitlines() if line.startswith("::error")]
    assert error.startswith("::error title=catalint check::\\x3a:x.json:1:2: error: ")


def test_check_step_annotates_an_error_about_its_inputs(traces_repo: Path, tmp_path: Path) -> None:
    proc, outputs, _ = _run_step(traces_repo, tmp_path, "check.sh", suite="suite.yml", traces="no%where")
    assert proc.returncode == 2 and outputs == {"check-passed": "false"}
    errors = [line for line in proc.stdout.splitlines() if line.startswith("::error")]
    assert errors == ["::error title=catalint check::--traces: Directory 'no%25where' does not exist"]


def test_install_script_builds_its_own_environment(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "CATALINT_PYTHON": sys.executable,
        "GITHUB_ACTION_PATH": str(ROOT),
        "RUNNER_TEMP": str(tmp_path),
        "GITHUB_ENV": str(tmp_path / "env.txt"),
    }
    env.pop("VIRTUAL_ENV", None)
    proc = subprocess.run(
        ["bash", str(ROOT / "hooks" / "action" / "install.sh")], env=env, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1].startswith("catalint, version ")
    assert (tmp_path / "env.txt").read_text().strip() == f"CATALINT_BIN={tmp_path}/catalint-venv/bin/catalint"


def test_install_script_says_on_a_windows_runner_that_it_runs_on_linux_and_macos(tmp_path: Path) -> None:
    env = {**os.environ, "RUNNER_OS": "Windows", "RUNNER_TEMP": str(tmp_path), "GITHUB_ENV": str(tmp_path / "env")}
    proc = subprocess.run(
        ["bash", str(ROOT / "hooks" / "action" / "install.sh")], env=env, capture_output=True, text=True
    )
    assert proc.returncode == 2 and proc.stdout.startswith("::error title=catalint::the catalint action runs on Linux")
    assert list(tmp_path.iterdir()) == []  # no environment made, nothing set for later steps


def test_the_action_installs_nothing_from_the_package_index_by_name() -> None:
    # a `version` input installed catalint==X from the index, where the name is nobody's yet: anyone could fill it
    action = (ROOT / "action.yml").read_text()
    install = (ROOT / "hooks" / "action" / "install.sh").read_text()
    assert "inputs.version" not in action and "catalint==" not in install


def test_example_workflow_and_pre_commit_config_are_valid() -> None:
    check = Path(sys.executable).with_name("check-jsonschema")
    pre_commit = Path(sys.executable).with_name("pre-commit")
    if not (check.exists() and pre_commit.exists()):
        pytest.skip("check-jsonschema and pre-commit are test extras")
    example = ROOT / "examples" / "ci"
    workflow = subprocess.run(
        [str(check), "--builtin-schema", "vendor.github-workflows", str(example / "catalint.yml")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert workflow.returncode == 0, workflow.stdout + workflow.stderr
    config = subprocess.run(
        [str(pre_commit), "validate-config", str(example / "pre-commit-config.yaml")], capture_output=True, text=True
    )
    assert config.returncode == 0, config.stdout + config.stderr
    workflow_doc = yaml.safe_load((example / "catalint.yml").read_text())
    # a pull request that touches any catalog catalint would lint, or its config, runs the workflow
    paths = workflow_doc[True]["pull_request"]["paths"]  # YAML 1.1 reads the key on as True
    assert {f"**/{name}" for name in (*DEFAULT_INCLUDE, *CONFIG_NAMES)} <= set(paths)
    steps = workflow_doc["jobs"]["catalint"]["steps"]
    used = next(s for s in steps if s.get("id") == "catalint")
    assert set(used["with"]) <= set(INPUTS)


def test_job_summary_stays_under_githubs_limit(tmp_path: Path) -> None:
    # GitHub drops a step summary over 1 MiB whole; the lint report is capped on its own, and what a pull
    # request changed comes after it, so the step cuts the two together.
    repo = tmp_path / "big"
    repo.mkdir()
    _git("init", "-q", cwd=repo)
    _git("config", "user.email", "test@example.com", cwd=repo)
    _git("config", "user.name", "test", cwd=repo)
    flawed = [{"name": f"tool_{i}", "description": f"Tool {i}", "inputSchema": {"type": "object"}} for i in range(1500)]
    write_catalog(repo / "tools.json", flawed)
    _git("add", ".", cwd=repo)
    _git("commit", "-qm", "base", cwd=repo)
    base = _git("rev-parse", "HEAD", cwd=repo)
    write_catalog(repo / "tools.json", [{**t, "name": "renamed_" + t["name"]} for t in flawed])
    _git("commit", "-qam", "head", cwd=repo)
    proc, _, summary = _run_step(repo, tmp_path, base_sha=base)
    assert proc.returncode == 1, proc.stderr
    size = len(summary.encode("utf-8"))
    assert 1024 * 1024 - 4096 < size <= 1024 * 1024  # full, not over
    assert summary.startswith("## catalint")
    assert summary.rstrip().endswith("run `catalint lint` and `catalint diff` for the rest.")


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_an_unchanged_linked_catalog_counts_as_unchanged_in_the_summary(tmp_path: Path) -> None:
    """git keeps a link as its target's path: compared with the target's bytes, it always looked changed."""
    repo = _new_repo(tmp_path)
    (repo / "data").mkdir()
    write_catalog(repo / "data" / "real.json", [GOOD])
    (repo / "tools.json").symlink_to("data/real.json")
    _git("add", ".", cwd=repo)
    _git("commit", "-qm", "base", cwd=repo)
    base = _git("rev-parse", "HEAD", cwd=repo)
    _git("commit", "-q", "--allow-empty", "-m", "head", cwd=repo)
    _, _, summary = _run_step(repo, tmp_path, base_sha=base, paths="tools.json")
    assert "### catalint diff:" not in summary
    assert "1 linted catalog unchanged since the base commit." in summary
