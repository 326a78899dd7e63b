"""Docs generated from the registry stay in step with it; README and CI agree."""

from __future__ import annotations

import pytest

from catalint.docs import README_BEGIN, README_END, REFERENCE, readme_with_table, rules_reference, rules_table
from catalint.registry import all_rules
from conftest import ROOT


def test_readme_rule_table_is_current() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert README_BEGIN in readme and README_END in readme
    assert readme_with_table(readme) == readme, "stale rule table: run `python -m catalint.docs README.md`"


def test_rules_table_has_a_row_per_rule() -> None:
    rows = rules_table().splitlines()[2:]
    assert [row.split(" | ")[0].removeprefix("| ") for row in rows] == [r.code for r in all_rules()]
    assert {r.code[:3] for r in all_rules()} >= {"CAT", "CMP", "DES", "SCH", "TOK"}


def test_rule_reference_is_current_and_complete() -> None:
    path = ROOT / REFERENCE
    assert path.read_text(encoding="utf-8") == rules_reference(), "stale docs/rules.md: run `python -m catalint.docs`"
    for r in all_rules():
        assert f'<a id="{r.code.lower()}"></a>' in rules_reference()
        assert f"]({REFERENCE}#{r.code.lower()})" in rules_table(REFERENCE)


def test_every_explanation_has_its_sections_and_a_source() -> None:
    for r in all_rules():
        for section in ("**What it catches.**", "**Why.**", "**Bad.**", "**Good.**", "**Fix.**"):
            assert section in r.explanation, (r.code, section)
        why = " ".join(r.explanation.split("**Why.**", 1)[1].split("**Bad.**", 1)[0].split())
        assert any(src in why for src in ("MCP", "JSON Schema", "arXiv", "OWASP", "Anthropic", "tool-schema-lint")), (
            r.code
        )


def test_readme_opens_with_the_two_commands_and_ci_runs_the_second() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    fence = readme.index("```sh")
    run_example, run_tests = readme[fence + 1], readme[fence + 2]
    assert fence < 4
    assert "catalint lint examples/" in run_example
    assert "pytest" in run_tests and "[test]" in run_tests
    assert run_tests in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_bench_example_readme_shows_the_real_output(cli) -> None:
    example = ROOT / "examples" / "tool-description-bench"
    readme = (example / "README.md").read_text(encoding="utf-8")
    shown = readme.split("```text\n", 1)[1].split("```", 1)[0]
    result = cli("bench", "run", str(example / "spec.yaml"), "--min-drop", "0.05")
    assert result.exit_code == 0
    # the report names the spec by its `name:`, so it does not depend on where it runs from
    assert result.stdout == shown, "stale example output: rerun the command in its README"


def test_readme_profile_table_is_current() -> None:
    from catalint.docs import PROFILES_BEGIN, PROFILES_END, readme_with_profiles
    from conftest import CORPUS

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert PROFILES_BEGIN in readme and PROFILES_END in readme
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    assert readme_with_profiles(readme, CORPUS) == readme, (
        "stale profile table: run `python -m catalint.docs README.md --corpus ../shared/corpus`"
    )


def test_readme_sample_output_is_what_catalint_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's first example shows the head and tail of a real run, cut at '...'."""
    from click.testing import CliRunner

    from catalint.cli import main

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = "$ catalint lint examples/weather.tools.json\n"
    block = readme[readme.index(command) + len(command) :].split("```", 1)[0]
    head, tail = (part.strip("\n").splitlines() for part in block.split("...\n"))
    monkeypatch.chdir(ROOT)
    printed = CliRunner().invoke(main, ["lint", "examples/weather.tools.json"]).stdout.splitlines()
    assert printed[: len(head)] == head
    assert printed[-len(tail) :] == tail


def test_ci_example_readme_shows_the_first_annotations_the_action_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    """examples/ci/README.md once said the Action's first line was a DESC-006 finding; the failed
    gate checks come first. The block is the real first lines of the command it names."""
    from click.testing import CliRunner

    from catalint.cli import main

    readme = (ROOT / "examples" / "ci" / "README.md").read_text(encoding="utf-8")
    command = "catalint lint examples/weather.tools.json --output-format github"
    assert f"```sh\n{command}\n```" in readme
    shown = readme.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("CATALINT_OUTPUT_FORMAT", raising=False)
    printed = CliRunner().invoke(main, command.split()[1:]).stdout.splitlines()
    assert shown and printed[: len(shown)] == shown, "stale example: rerun the command in examples/ci/README.md"
    assert shown[0].startswith("::error file=examples/weather.tools.json,title=catalint gate::gate [FAIL]")


def test_the_readme_config_example_is_a_valid_config(cli, tmp_path) -> None:
    """Every setting the Configuration section shows reads as it says (its extend line aside: no file there)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Configuration", 1)[1]
    example = section.split("```toml\n", 1)[1].split("```", 1)[0]
    assert "[tool.catalint]" in example and "targets = " in example
    (tmp_path / "pyproject.toml").write_text(
        "\n".join(line for line in example.splitlines() if not line.startswith("extend =")), encoding="utf-8"
    )
    (tmp_path / "tools.json").write_text('{"tools": []}', encoding="utf-8")
    result = cli("lint", "--show-settings", "tools.json")
    assert result.exit_code == 0, result.output
    assert 'targets: ["openai-strict"]' in result.output and "severity: DESC-009 = info" in result.output
