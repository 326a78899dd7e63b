"""The engine: a forked, parallel run must give exactly what a sequential run gives."""

from __future__ import annotations

import gc
import json
import os
import sys

import pytest

from catalint import forked
from catalint.config import FileIgnore, Settings, ToolIgnore
from catalint.engine import PARALLEL_MIN_TOOLS, RuleCrash, default_workers, lint_catalog, lint_catalogs
from catalint.gate import Check
from catalint.loader import load_text
from catalint.registry import get_rule
from conftest import ROOT, write

needs_fork = pytest.mark.skipif(
    not (sys.platform.startswith("linux") and hasattr(os, "fork")), reason="parallel linting forks (Linux)"
)


def catalog_text(count: int) -> str:
    tools = []
    for i in range(count):
        tool = {
            "name": f"tool_{i}" if i % 3 else f"debug_{i}",
            "description": "Get it." if i % 2 else f"Get record {i} from the store. Returns it as JSON.",
            "inputSchema": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "unit": {"enum": ["c", "f"], "description": "Unit"}},
                "required": ["id"],
            },
        }
        if i % 4 == 0:
            tool["annotations"] = {"readOnlyHint": "yes"}
        if i == 38:  # a case-only duplicate of tool_1, in the last slice (CAT-001)
            tool["name"] = "TOOL_1"
        tools.append(tool)
    return json.dumps({"tools": tools}, indent=2)


def settings() -> Settings:
    s = Settings()
    s.per_tool_ignores.append(ToolIgnore(["debug_*"], ["DESC-012"], "internal", [], "debug tools"))
    s.per_file_ignores.append(FileIgnore("*.json", ["DESC-007"], "unit enum"))
    return s


def summary(result) -> list[tuple]:
    return [
        (tr.tool.name, tr.start, [(f.code, f.pointer, f.span, f.severity) for f in tr.findings]) for tr in result.tools
    ]


@needs_fork
@pytest.mark.parametrize("workers", [2, 3, 7])
def test_forked_run_equals_sequential_run(workers: int) -> None:
    text = catalog_text(40)
    seq_settings, par_settings = settings(), settings()
    sequential = lint_catalog(load_text(text, "t.json", "t.json"), seq_settings, workers=1)
    parallel = lint_catalog(load_text(text, "t.json", "t.json"), par_settings, workers=workers)
    assert summary(parallel) == summary(sequential)
    assert [t.tool.index for t in parallel.tools] == list(range(40))
    assert parallel.suppressed == sequential.suppressed > 0
    # usage of ignores counted in the children comes back to the parent
    assert [e.used for e in par_settings.per_tool_ignores] == [e.used for e in seq_settings.per_tool_ignores]
    assert [e.used for e in par_settings.per_file_ignores] == [e.used for e in seq_settings.per_file_ignores]
    assert par_settings.per_tool_ignores[0].used > 0
    codes = {f.code for tr in parallel.tools for f in tr.findings}
    assert {"CAT-001", "CAT-003", "SCH-002", "SCH-004"} <= codes


def test_catalog_rule_findings_join_their_tool() -> None:
    result = lint_catalog(load_text(catalog_text(40), "t.json", "t.json"), Settings(select=["CAT"]), workers=1)
    by_tool = {tr.tool.name: [f.code for f in tr.findings] for tr in result.tools}
    assert by_tool["TOOL_1"] == ["CAT-001"]
    assert by_tool["tool_1"] == []  # the first of the two is not reported
    assert by_tool["tool_5"] == ["CAT-003"]  # "Get it." again


def test_a_catalog_rule_crash_is_reported() -> None:
    rule = get_rule("CAT-001")
    original = rule.check

    def explode(tools):
        raise KeyError("boom")

    object.__setattr__(rule, "check", explode)
    try:
        with pytest.raises(RuleCrash, match=r"internal error in CAT-001: KeyError"):
            lint_catalog(load_text(catalog_text(3), "t.json", "t.json"), Settings(), workers=1)
    finally:
        object.__setattr__(rule, "check", original)


@needs_fork
@pytest.mark.parametrize("workers", [1, 2, 3])
def test_a_catalog_rule_crash_in_a_forked_run_is_reported_as_in_one_process(workers: int) -> None:
    # Forked, the parent runs the catalog rules while the workers lint the tools; the outcome is the same.
    def explode(tools, original):
        raise KeyError("boom")

    with _patched("CAT-001", explode), pytest.raises(RuleCrash, match=r"internal error in CAT-001: KeyError"):
        lint_catalog(load_text(catalog_text(300), "t.json", "t.json"), Settings(), workers=workers)


@needs_fork
@pytest.mark.parametrize("workers", [1, 2])
def test_a_tool_rule_crash_comes_before_a_catalog_rule_crash(workers: int) -> None:
    def tool_boom(tool, original):
        if tool.index == 250:
            raise ValueError("tool boom")
        return original(tool)

    def catalog_boom(tools, original):
        raise KeyError("catalog boom")

    with (
        _patched("DESC-001", tool_boom),
        _patched("CAT-001", catalog_boom),
        pytest.raises(RuleCrash, match=r"internal error in DESC-001 on tool 'tool_250': ValueError"),
    ):
        lint_catalog(load_text(catalog_text(300), "t.json", "t.json"), Settings(), workers=workers)


@needs_fork
def test_catalog_rules_run_in_the_parent_while_the_workers_lint() -> None:
    parent, where = os.getpid(), []

    def spy(tools, original):  # where it runs, and whether this process had linted (scored) any tool by then
        where.append((os.getpid(), any("tdqs" in t.cache for t in tools)))
        return original(tools)

    text = catalog_text(300)
    with _patched("CAT-003", spy):
        parallel = lint_catalog(load_text(text, "t.json", "t.json"), Settings(select=["CAT", "DESC"]), workers=2)
    assert where == [(parent, False)]  # before the parent took its first chunk
    sequential = lint_catalog(load_text(text, "t.json", "t.json"), Settings(select=["CAT", "DESC"]), workers=1)
    assert summary(parallel) == summary(sequential)
    assert {"CAT-001", "CAT-003"} <= {f.code for tr in parallel.tools for f in tr.findings}


def _patched(code: str, check):
    """Swap a rule's check for the length of a with block (Rule is frozen)."""
    rule = get_rule(code)
    original = rule.check

    class Patch:
        def __enter__(self):
            object.__setattr__(rule, "check", lambda tool: check(tool, original))

        def __exit__(self, *exc):
            object.__setattr__(rule, "check", original)

    return Patch()


@needs_fork
def test_a_rule_crash_in_a_child_is_reported() -> None:
    parent = os.getpid()

    def explode(tool, original):
        if os.getpid() != parent:
            raise ValueError("boom")
        return original(tool)

    with (
        _patched("DESC-001", explode),
        pytest.raises(RuleCrash, match=r"internal error in DESC-001 on tool '\w+': ValueError: boom"),
    ):
        lint_catalog(load_text(catalog_text(200), "t.json", "t.json"), Settings(), workers=2)
    with pytest.raises(ChildProcessError):  # every worker was reaped
        os.waitpid(-1, os.WNOHANG)


@needs_fork
@pytest.mark.parametrize("workers", [2, 3])
def test_the_crash_reported_is_the_one_a_sequential_run_meets_first(workers: int) -> None:
    def explode(tool, original):
        if tool.index in (21, 150, 199):
            raise ValueError(f"boom {tool.index}")
        return original(tool)

    text = catalog_text(200)
    with _patched("DESC-001", explode):
        for n in (1, workers, workers):
            with pytest.raises(RuleCrash, match=r"on tool 'debug_21': ValueError: boom 21 \(please"):
                lint_catalog(load_text(text, "t.json", "t.json"), Settings(), workers=n)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


@needs_fork
def test_a_worker_that_dies_is_an_error_not_a_hang() -> None:
    parent = os.getpid()

    def die(tool, original):
        if os.getpid() != parent:
            os._exit(3)
        return original(tool)

    with _patched("DESC-001", die), pytest.raises(RuleCrash, match="a lint worker process died"):
        lint_catalog(load_text(catalog_text(200), "t.json", "t.json"), Settings(), workers=2)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


@needs_fork
def test_results_larger_than_the_pipe_arrive_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "_PIPE_SIZE", 4096)  # the smallest pipe: workers must hold results back
    text = catalog_text(600)
    sequential = lint_catalog(load_text(text, "t.json", "t.json"), Settings(select=["ALL"]), workers=1)
    parallel = lint_catalog(load_text(text, "t.json", "t.json"), Settings(select=["ALL"]), workers=3)
    assert summary(parallel) == summary(sequential)
    assert sum(len(tr.findings) for tr in parallel.tools) > 2000  # far more than 4 KB of findings
    assert [tr.score for tr in parallel.tools] == [tr.score for tr in sequential.tools]


def test_default_workers_only_for_large_catalogs() -> None:
    assert default_workers(PARALLEL_MIN_TOOLS - 1) == 1
    assert default_workers(5) == 1
    if sys.platform.startswith("linux") and len(os.sched_getaffinity(0)) > 1:
        assert default_workers(PARALLEL_MIN_TOOLS) > 1


def test_workers_can_be_capped_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CATALINT_WORKERS", "1")
    assert default_workers(PARALLEL_MIN_TOOLS * 10) == 1


def test_a_large_worker_cap_is_capped_by_the_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CATALINT_WORKERS", "1000")
    if sys.platform.startswith("linux"):
        assert default_workers(PARALLEL_MIN_TOOLS * 10) == len(os.sched_getaffinity(0))


@pytest.mark.parametrize("value", ["\u00b2", "9" * 5000, "-1", "0", "x", ""])
def test_a_worker_cap_that_is_no_small_number_is_ignored(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    """'²' passed str.isdigit() and then failed int(), and 5,000 nines failed it too: both were internal errors."""
    monkeypatch.setenv("CATALINT_WORKERS", value)
    assert default_workers(5) == 1
    assert default_workers(PARALLEL_MIN_TOOLS * 10) >= 1


def test_chunks_cover_every_tool_once_in_order_and_may_span_files() -> None:
    sizes = [0, 5, 40, 0, 1, 300, 7]
    table = forked.chunks(sizes, workers=2)
    flat = [(f, i) for chunk in table for f, start, end in chunk for i in range(start, end)]
    assert flat == [(f, i) for f, n in enumerate(sizes) for i in range(n)]
    assert any(len({f for f, _, _ in chunk}) > 1 for chunk in table)  # small files share a chunk
    assert all(end > start for chunk in table for _, start, end in chunk)
    assert len(forked.chunks([1] * 100_000, workers=64)) <= 1001  # the numbers fit in a new pipe


def _shared_settings() -> Settings:
    s = Settings()
    s.per_tool_ignores.append(ToolIgnore(["debug_*"], ["DESC-012"], "internal", [], "debug tools"))
    return s


@needs_fork
def test_many_files_forked_equal_each_file_linted_alone() -> None:
    texts = [catalog_text(n) for n in (0, 3, 40, 150, 17)]
    shared = _shared_settings()  # three files share one settings object, as files below one config do
    other = settings()
    other.tool_token_budget = 40
    other.extend_select.append("TOK")
    jobs = [(load_text(t, f"f{i}.json", f"f{i}.json"), shared if i % 2 == 0 else other) for i, t in enumerate(texts)]
    together = lint_catalogs(jobs, workers=3)
    alone_shared, alone_other = _shared_settings(), settings()
    alone_other.tool_token_budget = 40
    alone_other.extend_select.append("TOK")
    for i, (text, result) in enumerate(zip(texts, together, strict=True)):
        alone = lint_catalog(
            load_text(text, f"f{i}.json", f"f{i}.json"), alone_shared if i % 2 == 0 else alone_other, workers=1
        )
        assert summary(result) == summary(alone)
        assert result.suppressed == alone.suppressed
    assert [e.used for e in shared.per_tool_ignores] == [e.used for e in alone_shared.per_tool_ignores] != [0]
    assert [e.used for e in other.per_file_ignores] == [e.used for e in alone_other.per_file_ignores] != [0]
    assert any(f.code.startswith("TOK-") for f in together[1].findings)  # the budget of its own settings
    assert not any(f.code.startswith("TOK-") for f in together[2].findings)


@needs_fork
def test_a_crash_ends_only_its_own_file() -> None:
    def explode(tool, original):
        if tool.name == "tool_100":
            raise ValueError("boom")
        return original(tool)

    texts = [catalog_text(150), catalog_text(150).replace("tool_", "item_"), catalog_text(30)]
    with _patched("DESC-001", explode):
        for workers in (1, 2, 3):
            jobs = [(load_text(t, f"f{i}.json", f"f{i}.json"), Settings()) for i, t in enumerate(texts)]
            first, second, third = lint_catalogs(jobs, workers=workers)
            assert isinstance(first, RuleCrash) and "on tool 'tool_100'" in str(first)
            assert not isinstance(second, RuleCrash) and len(second.tools) == 150
            assert not isinstance(third, RuleCrash) and len(third.tools) == 30
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


@needs_fork
@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_a_directory_linted_forked_reads_exactly_as_one_process(cli, tmp_path, monkeypatch, fmt: str) -> None:
    from catalint import engine

    for i, n in enumerate((120, 0, 7, 90)):
        write(tmp_path / f"s{i}" / "tools.json", catalog_text(n))
    write(tmp_path / "s1" / "broken.tools.json", '{"tools": [')
    write(tmp_path / "s2" / "pyproject.toml", '[tool.catalint]\nignore = ["SCH"]\nextend-select = ["TOK"]\n')
    write(tmp_path / "s3" / "yaml.tools.yaml", "tools:\n  - name: a\n    description: Get it.\n")
    outputs = []
    for workers in (1, 3):
        monkeypatch.setattr(engine, "default_workers", lambda count, w=workers: w)
        result = cli("lint", ".", "--output-format", fmt, "--scores")
        outputs.append((result.exit_code, result.stdout, result.stderr))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == 2 and "broken.tools.json:1:" in outputs[0][2]


def _enum_tools(values: list[int], tools: int = 1) -> str:
    """Tools whose one required argument is an enum of values (repeats make SCH-009 findings)."""
    schema = {"type": "object", "properties": {"n": {"enum": values}}, "required": ["n"], "additionalProperties": False}
    pick = "Pick a number. Returns it."
    return json.dumps({"tools": [{"name": f"t{i}", "description": pick, "inputSchema": schema} for i in range(tools)]})


def test_findings_of_one_rule_on_one_tool_stop_at_the_cap() -> None:
    from catalint.engine import MAX_HITS

    # An enum of one value repeated: SCH-009 would report every repeat (millions, in a hostile catalog).
    catalog = load_text(_enum_tools([1] * (MAX_HITS + 500)), "t.json", "t.json")
    found = lint_catalog(catalog, Settings(select=["SCH-009"])).findings
    (more,) = [f for f in found if f.pointer == "/tools/0"]
    assert more.code == "SCH-009"
    assert more.message == "more than 1,000 findings of this rule on this tool: the rest are not reported"
    repeats = [f.pointer for f in found if f is not more]
    assert repeats == [f"/tools/0/inputSchema/properties/n/enum/{i}" for i in range(1, MAX_HITS + 1)]


def test_findings_up_to_the_cap_are_all_reported() -> None:
    from catalint.engine import MAX_HITS

    catalog = load_text(_enum_tools([1] * (MAX_HITS + 1)), "t.json", "t.json")  # exactly MAX_HITS repeats
    found = lint_catalog(catalog, Settings(select=["SCH-009"])).findings
    assert len(found) == MAX_HITS and "more than" not in found[-1].message


def test_the_cap_counts_distinct_pointers() -> None:
    from catalint.engine import MAX_HITS, _at_most
    from catalint.registry import Hit

    tool = load_text(_enum_tools([1]), "t.json", "t.json").tools[0]
    twice = [Hit(f"/p/{i // 2}", "x") for i in range(2 * MAX_HITS)]  # MAX_HITS pointers, each twice
    assert len(_at_most(twice[:10], iter(twice[10:]), tool)) == MAX_HITS


@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=needs_fork), pytest.param(3, marks=needs_fork)])
def test_findings_of_one_file_stop_at_the_cap_in_tool_order(monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    from catalint import engine

    monkeypatch.setattr(engine, "MAX_FILE_FINDINGS", 1000)
    catalog = load_text(_enum_tools([1] * 8, 300), "t.json", "t.json")  # 2,100 findings of SCH-009
    result = lint_catalog(catalog, Settings(select=["SCH-009"]), workers=workers)
    assert result.dropped == 1100
    kept = [len(tr.findings) for tr in result.tools]
    assert kept == [7] * 142 + [6] + [0] * 157  # the first 1,000 in tool order, then none
    assert len(result.tools) == 300  # every tool is still scored and listed


def test_the_cli_says_how_many_findings_were_not_reported(cli, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    from catalint import engine

    monkeypatch.setattr(engine, "MAX_FILE_FINDINGS", 10)
    write(tmp_path / "t.json", _enum_tools([1] * 6, 3))
    result = cli("lint", "--select", "SCH-009", "--output-format", "json", str(tmp_path / "t.json"))
    doc = json.loads(result.stdout)
    assert len(doc["findings"]) == 10
    assert doc["notices"] == [
        f"{tmp_path / 't.json'}: 5 more findings are not reported: catalint reports at most 10 a file, "
        f"with {engine.MAX_FILE_POINTER_CHARS:,} characters of pointers"
    ]


@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=needs_fork)])
def test_findings_of_one_file_stop_at_the_pointer_characters_cap(monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    """A pointer repeats every name above its node: findings under a long name are cut by their size."""
    from catalint import engine

    catalog = load_text(_enum_tools([1] * 8, 300), "t.json", "t.json")  # 2,100 findings of SCH-009
    whole = lint_catalog(catalog, Settings(select=["SCH-009"]), workers=workers)
    sizes = [len(f.pointer) for f in whole.findings]
    monkeypatch.setattr(engine, "MAX_FILE_POINTER_CHARS", sum(sizes[:500]) + sizes[500] - 1)
    catalog = load_text(_enum_tools([1] * 8, 300), "t.json", "t.json")
    result = lint_catalog(catalog, Settings(select=["SCH-009"]), workers=workers)
    assert result.dropped == 1600
    assert [(f.tool, f.pointer) for f in result.findings] == [(f.tool, f.pointer) for f in whole.findings[:500]]
    assert len(result.tools) == 300


def _no_encoding(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on, counting a token fails: whatever the report reads must be counted already."""
    from catalint import tokens

    def refuse() -> None:
        raise AssertionError("tokens counted after the lint")

    monkeypatch.setattr(tokens, "encoding", refuse)


@needs_fork
@pytest.mark.parametrize("workers", [1, 3])
def test_tokens_are_counted_by_whoever_lints_the_tool(monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    """--tokens at 10,000 tools counted every tool in the parent after the workers were done (about 1.2 s
    of one core); the workers now count their own tools and send the counts back."""
    from catalint.quality import assess
    from catalint.tokens import count

    text = catalog_text(40)
    expected = [count(tool).as_dict() for tool in load_text(text, "t.json", "t.json").tools]
    result = lint_catalog(load_text(text, "t.json", "t.json"), Settings(select=["DESC-001"]), workers, tokens=True)
    _no_encoding(monkeypatch)
    quality = assess(result, [], with_tokens=True)
    assert [t.tokens.as_dict() for t in quality.tools] == expected


@needs_fork
@pytest.mark.parametrize(
    ("select", "gate"),
    [(["TOK-001"], []), (["DESC-001"], [Check("tokens.total", (("<=", 1e9),))])],
    ids=["tok-rule", "gate-on-tokens"],
)
def test_a_tok_rule_or_a_token_gate_has_the_workers_count(monkeypatch: pytest.MonkeyPatch, select, gate) -> None:
    from catalint.quality import assess

    settings = Settings(select=select, gate=gate)
    result = lint_catalog(load_text(catalog_text(40), "t.json", "t.json"), settings, workers=3)
    _no_encoding(monkeypatch)
    quality = assess(result, settings.gate_checks(), with_tokens=select == ["TOK-001"])  # as the CLI asks
    assert quality.token_total is not None and quality.token_total > 0


def test_a_missing_encoding_stops_the_lint_before_it_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Raised where the encoding is loaded, not from inside TOK-001 (which made it an internal error)."""
    from catalint import tokens

    def broken() -> None:
        raise tokens.TokenError("no encoding")

    monkeypatch.setattr(tokens, "encoding", broken)
    with pytest.raises(tokens.TokenError, match="no encoding"):
        lint_catalog(load_text(catalog_text(3), "t.json", "t.json"), Settings(select=["TOK-001"]), workers=1)


def test_a_tool_too_deep_to_count_is_a_crash_of_its_file(monkeypatch: pytest.MonkeyPatch) -> None:
    from catalint import tokens

    def too_deep(tool) -> None:  # type: ignore[no-untyped-def]
        raise RecursionError

    monkeypatch.setattr(tokens, "count", too_deep)
    with pytest.raises(RuleCrash, match="'debug_0' is nested too deeply to count its tokens"):
        lint_catalog(load_text(catalog_text(3), "t.json", "t.json"), Settings(select=["DESC-001"]), 1, tokens=True)


def test_a_lint_leaves_no_reference_cycles() -> None:
    # The console script turns the cycle collector off (a run is short), so a cycle made for each tool or node,
    # such as a nested function that calls itself, is kept to the end: SCH-004's held 20 MB on 10,000 tools.
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from generate import generate_catalog
    finally:
        sys.path.pop(0)
    text = json.dumps(generate_catalog(300))
    every_rule = Settings(select=["ALL"])
    lint_catalog(load_text(text, "t.json", "t.json"), every_rule, workers=1)  # caches filled once
    catalog = load_text(text, "t.json", "t.json")
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        lint_catalog(catalog, every_rule, workers=1)
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
