"""Docs generated from the registry stay in step with it; README and CI agree."""

from __future__ import annotations

from catalint.docs import README_BEGIN, README_END, readme_with_table, rules_table
from catalint.registry import all_rules
from conftest import ROOT


def test_readme_rule_table_is_current() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert README_BEGIN in readme and README_END in readme
    assert readme_with_table(readme) == readme, "stale rule table: run `python -m catalint.docs README.md`"


def test_rules_table_has_a_row_per_rule() -> None:
    rows = [line for line in rules_table().splitlines() if line.startswith("| DESC") or line.startswith("| SCH")]
    assert len(rows) == len(all_rules())


def test_readme_opens_with_the_two_commands_and_ci_runs_the_second() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    fence = readme.index("```sh")
    run_example, run_tests = readme[fence + 1], readme[fence + 2]
    assert fence < 4
    assert "catalint lint examples/" in run_example
    assert "pytest" in run_tests and "[test]" in run_tests
    assert run_tests in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
