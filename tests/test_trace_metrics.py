"""The trace metrics: every worked example of the definitions, and every empty and zero-denominator case."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalint.loader import load_text
from catalint.trace_metrics import (
    EqClass,
    PassK,
    call_checks,
    clopper_pearson_lower,
    distraction,
    grade,
    named_in_prompt,
    orchestration,
    pct,
    pct_nearest,
    select_run,
    selection,
    token_efficiency,
)
from catalint.traces import Call, Resolver, Run, resolved

CLASSES = [EqClass("search", ("brave.web_search", "google.search")), EqClass("fetch", ("http.get",))]


def call(name: str, server: str | None = None, args: object = None, errored: bool = False, i: int = 1) -> Call:
    return Call(i, name, server, {} if args is None else args, errored)


def run(*calls: Call, number: int = 1, tokens: int | None = None, cost: float | None = None) -> Run:
    return Run(number, f"run{number}.json", list(calls), tokens, cost)


# ---- selection F1 -----------------------------------------------------------------------------


def test_worked_example_one_both_classes_hit() -> None:
    s = select_run(CLASSES, [call("web_search", "brave"), call("get", "http")])
    assert (s.tp, s.fp, s.fn) == (2, 0, 0)
    assert (s.precision, s.recall, s.f1) == (100, 100, 100)
    assert s.missed == {} and s.unexpected == {}


def test_worked_example_two_fetch_missed_shell_unexpected() -> None:
    s = select_run(CLASSES, [call("search", "google"), call("exec", "shell")])
    assert (s.tp, s.fp, s.fn) == (1, 1, 1)
    assert (s.precision, s.recall, s.f1) == (50, 50, 50)
    assert s.missed == {"fetch": 1}
    assert s.unexpected == {"shell.exec": 1}


def test_repeated_interchangeable_members_neither_inflate_nor_penalize() -> None:
    calls = [call("web_search", "brave"), call("search", "google"), call("web_search", "brave"), call("get", "http")]
    s = select_run(CLASSES, calls)
    assert (s.tp, s.fp, s.fn) == (2, 0, 0)
    assert s.f1 == 100


def test_every_call_outside_the_classes_is_a_false_positive() -> None:
    s = select_run(CLASSES, [call("exec", "shell"), call("exec", "shell")])
    assert (s.tp, s.fp, s.fn) == (0, 2, 2)
    assert s.unexpected == {"shell.exec": 2}
    assert (s.precision, s.recall, s.f1) == (0, 0, 0)


def test_server_prefixed_member_matches_only_its_server() -> None:
    classes = [EqClass("search", ("brave.web_search",))]
    assert select_run(classes, [call("web_search", "other")]).tp == 0
    assert select_run(classes, [call("web_search")]).tp == 0  # no server recorded: not brave's tool
    assert select_run(classes, [call("web_search", "brave")]).tp == 1


def test_a_call_without_a_name_is_in_no_class() -> None:
    # its id is "brave." (the server and an empty name): it names no member, not even one spelt so
    s = select_run([EqClass("odd", ("brave.",))], [call("", "brave")])
    assert (s.tp, s.fp, s.fn) == (0, 1, 1)


def test_bare_member_matches_that_tool_on_any_server() -> None:
    classes = [EqClass("search", ("web_search",))]
    for server in ("brave", "other", None):
        assert select_run(classes, [call("web_search", server)]).tp == 1


def test_a_call_in_two_classes_satisfies_both() -> None:
    # the reference: a class is a true positive the first time a call names one of its members
    classes = [EqClass("a", ("x",)), EqClass("b", ("x", "y"))]
    first = select_run(classes, [call("x")])
    assert (first.tp, first.fp, first.fn, first.missed) == (2, 0, 0, {})
    # repeating the call neither inflates nor penalizes the score
    again = select_run(classes, [call("x"), call("x")])
    assert (again.tp, again.fp, again.fn) == (2, 0, 0)
    # nor does the order the classes are declared in
    calls = [call("x"), call("y")]
    assert select_run(classes, calls).f1 == select_run(classes[::-1], calls).f1 == 100
    only_b = select_run([EqClass("b", ("x", "y")), EqClass("c", ("z",))], [call("y"), call("x")])
    assert (only_b.tp, only_b.fp, only_b.fn, only_b.missed) == (1, 0, 1, {"c": 1})


def test_no_classes_and_no_calls_is_vacuously_perfect() -> None:
    s = select_run([], [])
    assert (s.precision, s.recall, s.f1) == (100, 100, 100)


def test_zero_denominators_score_zero() -> None:
    no_calls = select_run(CLASSES, [])  # precision: 0 / 0
    assert (no_calls.precision, no_calls.recall, no_calls.f1) == (0, 0, 0)
    no_classes = select_run([], [call("exec", "shell")])  # recall: 0 / 0
    assert (no_classes.precision, no_classes.recall, no_classes.f1) == (0, 0, 0)


def test_micro_average_sums_counts_before_dividing() -> None:
    runs = [
        run(call("web_search", "brave"), call("get", "http"), number=1),
        run(call("search", "google"), call("exec", "shell"), number=2),
    ]
    s = selection(CLASSES, runs)
    assert (s.tp, s.fp, s.fn) == (3, 1, 1)
    assert (s.precision, s.recall, s.f1) == (75, 75, 75)
    # a macro average of the per-run F1s (100, 50) would also be 75; this case tells them apart:
    lopsided = [run(call("web_search", "brave"), call("get", "http")), run(*[call("exec", "shell")] * 8)]
    m = selection(CLASSES, lopsided)
    assert (m.tp, m.fp, m.fn) == (2, 8, 2)
    assert m.f1 == pct(4, 14) == 28  # micro; the macro mean would be 50
    assert selection(CLASSES, list(reversed(lopsided))).f1 == m.f1  # order-independent


def test_efficiency_caps_each_run_before_the_mean() -> None:
    classes = CLASSES  # two classes
    wasteful = run(call("web_search", "brave"), call("get", "http"), call("exec", "shell"), number=1)  # 2 / 3
    short = run(call("web_search", "brave"), number=2)  # 2 / 1, capped at 1
    assert orchestration(classes, [wasteful])["efficiency"] == 67  # the reference's worked example
    # pooled (4 classes over 4 calls) this was 100: the short run hid the wasteful run's extra call
    assert orchestration(classes, [wasteful, short])["efficiency"] == 83  # (2/3 + 1) / 2
    assert orchestration(classes, [short, wasteful])["efficiency"] == 83
    assert orchestration(classes, [wasteful, run(number=2)])["efficiency"] == 33  # a run with no calls: 0
    assert orchestration([], [wasteful])["efficiency"] == 0
    assert orchestration(classes, [])["efficiency"] == 0


def test_micro_average_of_empty_runs_is_vacuous() -> None:
    s = selection([], [run(), run(number=2)])
    assert s.f1 == 100


@pytest.mark.parametrize(
    ("part", "whole", "expected"),
    [(2, 3, 66), (1, 3, 33), (1, 2, 50), (1, 8, 12), (0, 5, 0), (5, 5, 100), (3, 0, 0), (1, 200, 0), (199, 200, 99)],
)
def test_percent_is_the_integer_division_the_reference_gives(part: int, whole: int, expected: int) -> None:
    # the reference: "the integer percent chose_correct * 100 / chose_in_scope"
    assert pct(part, whole) == expected


@pytest.mark.parametrize(
    ("part", "whole", "expected"),
    [(2, 3, 67), (1, 3, 33), (1, 8, 13), (3, 0, 0), (1, 200, 1), (1, 201, 0)],
)
def test_orchestration_percents_round_half_up(part: int, whole: int, expected: int) -> None:
    # the reference: two classes over three calls "rounds efficiency to 67"
    assert pct_nearest(part, whole) == expected


# ---- call checks (MCP-Bench) -------------------------------------------------------------------

CATALOG = load_text(
    '{"tools": [{"name": "get_weather", "description": "Get the weather.", "inputSchema": {"type": "object",'
    ' "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false}}]}',
    "w.json",
    "w.json",
)


def test_call_checks_name_validity_schema_compliance_execution_success() -> None:
    resolver = Resolver({"weather": CATALOG})
    runs = resolved(
        [
            run(
                call("get_weather", args={"city": "Paris"}, i=1),
                call("get_weather", args={"town": "Paris"}, i=2),
                call("get_wether", args={"city": "Paris"}, errored=True, i=3),
                call("get_weather", args=[1], i=4),
            )
        ],
        resolver,
    )
    checks = call_checks(runs, resolver)
    assert (checks.calls, checks.valid_names, checks.checked, checks.compliant, checks.succeeded) == (4, 3, 3, 1, 3)
    assert (checks.name_validity, checks.schema_compliance, checks.execution_success) == (75, 33, 75)
    text = "\n".join(checks.problems)
    assert "run 1 call 3: weather.get_wether: no such tool" in text
    assert "run 1 call 2: weather.get_weather: arguments fail: Additional properties" in text
    assert "run 1 call 4: weather.get_weather: arguments are not an object" in text


def test_call_checks_check_arguments_holding_a_lone_surrogate() -> None:
    # JSON allows "\udfff"; jsonschema-rs refuses such a string, which once counted the call as compliant
    catalog = load_text(
        '[{"name": "find", "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "maxLength": 2,'
        ' "pattern": "^.+$"}}, "required": ["q"], "additionalProperties": false}}]',
        "s.json",
        "s.json",
    )
    resolver = Resolver({"s": catalog})
    calls = [call("find", args={"q": "\udfffabc"}), call("find", args={"\udfff": 1, "q": "a"}, i=2)]
    calls.append(call("find", args={"q": "\udfff"}, i=3))  # valid: one character
    checks = call_checks(resolved([run(*calls)], resolver), resolver)
    assert (checks.checked, checks.compliant) == (3, 1)
    assert checks.problems[0].startswith("run 1 call 1: s.find: arguments fail at q:")
    assert "longer than 2 characters" in checks.problems[0]
    assert "Additional properties are not allowed" in checks.problems[1]


def test_call_checks_without_a_catalog_measure_only_execution() -> None:
    checks = call_checks([run(call("x", errored=True), call("y"))], Resolver({}))
    assert checks.name_validity is None and checks.schema_compliance is None
    assert checks.execution_success == 50


def test_call_checks_on_an_empty_trace_are_vacuous() -> None:
    checks = call_checks([run()], Resolver({"weather": CATALOG}))
    assert (checks.name_validity, checks.schema_compliance, checks.execution_success) == (100, 100, 100)


@pytest.mark.parametrize(
    ("declared", "why"),
    [
        ('"https://json-schema.org/draft-07/schema"', "$schema 'https://json-schema.org/draft-07/schema' is not a"),
        ('"http://json-schema.org/draft-03/schema#"', "$schema 'http://json-schema.org/draft-03/schema#' is not a"),
        ('""', "$schema '' is not a JSON Schema dialect catalint knows"),
        ("5", "$schema is not a string"),
    ],
)
def test_call_checks_do_not_check_arguments_against_an_unknown_dialect(declared: str, why: str) -> None:
    # as SCH-006, which reports such a $schema and checks nothing against it
    catalog = load_text(
        f'[{{"name": "get_x", "inputSchema": {{"$schema": {declared}, "type": "object"}}}}]', "x.json", "x.json"
    )
    resolver = Resolver({"s": catalog})
    checks = call_checks(resolved([run(call("get_x"), call("get_x", i=2))], resolver), resolver)
    assert (checks.valid_names, checks.checked, checks.compliant) == (2, 0, 0)
    assert checks.schema_compliance == 100  # nothing could be checked, as for a schema that cannot be built
    assert len(checks.problems) == 2
    assert checks.problems[0].startswith(
        f"run 1 call 1: s.get_x: the tool's inputSchema cannot be used to check arguments: {why}"
    )


def test_call_checks_report_a_schema_that_cannot_be_built_without_a_reason() -> None:
    catalog = load_text('[{"name": "get_x", "inputSchema": {"$ref": "#/nowhere"}}]', "x.json", "x.json")
    resolver = Resolver({"s": catalog})
    checks = call_checks(resolved([run(call("get_x"))], resolver), resolver)
    assert checks.problems == ["run 1 call 1: s.get_x: the tool's inputSchema cannot be used to check arguments"]


def test_resolver_fills_servers_from_the_catalogs() -> None:
    other = load_text('[{"name": "search"}]', "s.json", "s.json")
    resolver = Resolver({"weather": CATALOG, "web": other})
    assert resolver.resolve("get_weather", None) == ("get_weather", "weather")
    assert resolver.resolve("search", None) == ("search", "web")
    assert resolver.resolve("mcp__web__search", None) == ("search", "web")
    assert resolver.resolve("unknown", None) == ("unknown", None)  # two catalogs, neither has it
    assert resolver.resolve("search", "elsewhere") == ("search", "elsewhere")  # a recorded server wins
    assert Resolver({"weather": CATALOG}).resolve("unknown", None) == ("unknown", "weather")


def test_resolver_reads_the_server_from_an_mcp_name_without_a_catalog() -> None:
    assert Resolver({}).resolve("mcp__github__create_issue", None) == ("create_issue", "github")
    # with catalogs of other servers too: the name says which server the agent called
    assert Resolver({"weather": CATALOG}).resolve("mcp__github__create_issue", None) == ("create_issue", "github")


# ---- orchestration --------------------------------------------------------------------------


def test_two_classes_over_three_calls_is_efficiency_67() -> None:
    r = run(call("web_search", "brave", {"q": 1}), call("search", "google", {"q": 1}), call("get", "http", {"u": 1}))
    assert orchestration(CLASSES, [r])["efficiency"] == 67


def test_one_call_per_class_is_efficiency_100_and_fewer_calls_cap_at_100() -> None:
    assert orchestration(CLASSES, [run(call("web_search", "brave"), call("get", "http"))])["efficiency"] == 100
    assert orchestration(CLASSES, [run(call("web_search", "brave"))])["efficiency"] == 100


def test_orchestration_empty_and_zero_cases() -> None:
    empty = orchestration(CLASSES, [run()])
    assert empty == {"discovery": 0, "parameterization": 100, "syntax": 100, "error_recovery": 100, "efficiency": 0}
    no_classes = orchestration([], [run(call("x"))])
    assert no_classes["efficiency"] == 0 and no_classes["discovery"] == 0
    assert orchestration([], [run()])["discovery"] == 100  # no classes, no calls: vacuous recall


def test_parameterization_and_syntax_count_argument_shapes() -> None:
    calls = [call("a", args={"k": 1}), call("b", args={}), call("c", args=[1]), Call(4, "", None, {"k": 1}, False, 7)]
    o = orchestration([], [run(*calls)])
    assert o["parameterization"] == 50  # {"k": 1} twice out of four
    assert o["syntax"] == 50  # named with object args: a and b


def test_error_recovery_same_tool_or_class_equivalent_later() -> None:
    recovered_same = run(call("web_search", "brave", errored=True), call("web_search", "brave"))
    recovered_class = run(call("web_search", "brave", errored=True), call("search", "google"))
    not_later = run(call("search", "google"), call("web_search", "brave", errored=True))
    other_tool = run(call("web_search", "brave", errored=True), call("get", "http"))
    assert orchestration(CLASSES, [recovered_same])["error_recovery"] == 100
    assert orchestration(CLASSES, [recovered_class])["error_recovery"] == 100
    assert orchestration(CLASSES, [not_later])["error_recovery"] == 0
    assert orchestration(CLASSES, [other_tool])["error_recovery"] == 0
    failing_again = run(call("get", "http", errored=True), call("get", "http", errored=True))
    assert orchestration(CLASSES, [failing_again])["error_recovery"] == 0
    assert orchestration(CLASSES, [recovered_same, other_tool])["error_recovery"] == 50


def test_discovery_is_the_class_recall() -> None:
    r = run(call("web_search", "brave"), call("exec", "shell"))
    assert orchestration(CLASSES, [r])["discovery"] == selection(CLASSES, [r]).recall == 50


def test_prompts_that_name_a_tool_or_server_are_flagged() -> None:
    names = ["web_search", "brave", "get"]
    assert named_in_prompt("Use brave to find it", names) == ["brave"]
    assert named_in_prompt("call WEB_SEARCH please", names) == ["web_search"]
    assert named_in_prompt("Find the population of Paris and get the source", names) == ["get"]
    assert named_in_prompt("bravely together", names) == []  # whole words only


# ---- distractors and the Clopper-Pearson floor ---------------------------------------------


def test_distractor_accuracy_counts_distinct_choices_per_run() -> None:
    correct = ["catalog.search_products"]
    distractors = {"search_products_v2", "searchProducts"}
    runs = [
        run(call("search_products", "catalog"), call("search_products", "catalog"), number=1),
        run(call("search_products_v2", "catalog"), call("search_products", "catalog"), number=2),
        run(call("unrelated", "catalog"), number=3),
    ]
    d = distraction(correct, distractors, runs)
    assert (d.chose_correct, d.chose_distractor, d.clean_runs, d.runs) == (2, 1, 1, 3)
    assert d.accuracy == 66  # 2 * 100 // 3, the reference's integer percent
    assert d.failures == ["run 2: chose distractor catalog.search_products_v2", "run 3: chose no correct tool"]


def test_distractor_accuracy_edge_cases() -> None:
    assert distraction(["a"], {"b"}, [run(call("c"))]).accuracy == 0  # nothing in scope
    assert distraction([], {"b"}, [run(call("c"))]).accuracy == 100  # no declared correct ids
    assert distraction([], {"b"}, [run(call("b"))]).accuracy == 0  # ... unless a distractor was chosen
    assert distraction(["a"], set(), [run(call("a"))]).accuracy == 100


@pytest.mark.parametrize("n", [1, 2, 3, 5, 10, 20, 50])
def test_clopper_pearson_all_successes_is_alpha_to_the_one_over_n(n: int) -> None:
    # P(X >= n) = p^n = 0.05  =>  p = 0.05^(1/n); the bound is floored to 0.01 percent
    assert clopper_pearson_lower(n, n) == math.floor(0.05 ** (1 / n) * 10_000) / 100


def test_one_perfect_run_certifies_five_percent() -> None:
    assert clopper_pearson_lower(1, 1) == 5.0


@pytest.mark.parametrize("n", [1, 5, 100])
def test_clopper_pearson_no_successes_certifies_nothing(n: int) -> None:
    assert clopper_pearson_lower(0, n) == 0.0


def test_clopper_pearson_no_runs_certifies_nothing() -> None:
    assert clopper_pearson_lower(0, 0) == 0.0


@pytest.mark.parametrize(
    ("k", "n", "expected"),
    [
        # by hand: P(X >= 1 | n, p) = 1 - (1-p)^n = 0.05  =>  p = 1 - 0.95^(1/n)
        (1, 2, math.floor((1 - 0.95**0.5) * 10_000) / 100),
        (1, 10, math.floor((1 - 0.95**0.1) * 10_000) / 100),
        # published tables (one-sided 95%, i.e. the lower end of the two-sided 90% interval)
        (8, 10, 49.30),
        (3, 4, 24.86),
        (5, 10, 22.23),
    ],
)
def test_clopper_pearson_k_of_n_against_hand_computed_values(k: int, n: int, expected: float) -> None:
    assert clopper_pearson_lower(k, n) == pytest.approx(expected, abs=0.011)


def test_clopper_pearson_is_exact_at_the_grid() -> None:
    # k = n - 1 of n: tail(p) = n p^(n-1) (1-p) + p^n; the bound must satisfy tail <= 0.05 < tail(+0.01%)
    for k, n in [(8, 10), (3, 4), (19, 20), (2, 7)]:
        lower = clopper_pearson_lower(k, n) / 100

        def tail(p: float, k: int = k, n: int = n) -> float:
            return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))

        assert tail(lower) <= 0.05 + 1e-12 < tail(lower + 0.0001)


def exact_only_lower(k: int, n: int, alpha: tuple[int, int]) -> float:
    """The bound from the exact sum alone, grid point by grid point from the bottom (slow: small n only)."""
    from catalint.trace_metrics import _tail_within

    if n <= 0 or k <= 0:
        return 0.0
    j = 0
    while j < 10_000 and _tail_within(k, n, j + 1, 10_000, alpha):
        j += 1
    return j / 100


@given(
    st.integers(1, 60).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
    st.sampled_from([(1, 20), (1, 100), (1, 2)]),
)
def test_clopper_pearson_settles_the_grid_point_the_exact_sum_gives(
    kn: tuple[int, int], alpha: tuple[int, int]
) -> None:
    """The float tail decides where it is clearly on one side of alpha, the exact sum where it is close: the
    answer is the exact one (136,650 (k, n, alpha) up to n = 4,000 agreed with the exact-only code)."""
    k, n = kn
    assert clopper_pearson_lower(k, n, alpha) == exact_only_lower(k, n, alpha)


def test_clopper_pearson_sums_exactly_only_near_alpha(monkeypatch) -> None:
    """The exact sum grows with the trials squared (50,000 runs took 7.6 s): far from alpha, the float tail
    decides."""
    from catalint import trace_metrics

    exact: list[int] = []
    tail_within = trace_metrics._tail_within
    monkeypatch.setattr(trace_metrics, "_tail_within", lambda *a: exact.append(a[2]) or tail_within(*a))
    assert clopper_pearson_lower(18_000, 20_000) == pytest.approx(89.6, abs=0.1)
    assert exact == []


def test_clopper_pearson_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError):
        clopper_pearson_lower(3, 2)


def test_certified_lower_counts_clean_runs() -> None:
    clean = [run(call("a"), number=i) for i in range(1, 4)]
    assert distraction(["a"], {"b"}, clean).certified_lower == clopper_pearson_lower(3, 3)
    one_bad = [*clean, run(call("a"), call("b"), number=4)]
    assert distraction(["a"], {"b"}, one_bad).certified_lower == clopper_pearson_lower(3, 4)


# ---- pass^k -------------------------------------------------------------------------------


def runs_for_floor() -> list[Run]:
    tokens = [1500, 1520, 1510, 2400, 1490, 1530, 1840, 1520, 1505, 1500]
    out = []
    for i, t in enumerate(tokens, start=1):
        name = "search" if i == 7 else "get_weather"
        out.append(run(call(name), number=i, tokens=t))
    return out


def test_pass_k_floor_line_and_breach_lines() -> None:
    floor = PassK("weather selection", "get_weather", 0.8, 2000, runs_for_floor())
    assert (floor.rate, floor.pass_k) == (90, 80)
    assert not floor.passed  # one run over budget fails the floor even at 90%
    assert floor.lines() == [
        "tool-selection floor [FAIL] weather selection: selection 9/10 (90%), pass^k 80%, "
        "tokens 1515 median / 2400 max",
        "FLOOR weather selection: 1 of 10 runs exceeded the 2000-token budget (worst run 2400 tokens)",
        "run 4: 2400 tokens, over budget",
        "run 7: did not select `get_weather`, called search",
    ]


def test_pass_k_floor_passes_and_prints_one_line() -> None:
    floor = PassK("weather selection", "get_weather", 0.8, 3000, runs_for_floor())
    assert floor.passed
    assert floor.lines() == [
        "tool-selection floor [PASS] weather selection: selection 9/10 (90%), pass^k 90%, tokens 1515 median / 2400 max"
    ]


def test_pass_k_rate_below_the_floor() -> None:
    floor = PassK("w", "get_weather", 0.95, None, runs_for_floor())
    assert not floor.passed
    assert (
        floor.lines()[1] == "FLOOR w: selection rate 90% is below the 95% floor (9 of 10 runs selected `get_weather`)"
    )


def test_pass_k_rate_exactly_at_the_floor_passes() -> None:
    floor = PassK("w", "get_weather", 0.9, None, runs_for_floor())
    assert floor.passed and floor.rate_ok
    assert PassK("w", "get_weather", 0.7, None, runs_for_floor()[:10]).passed


def test_pass_k_run_without_a_token_count_is_not_within_a_budget() -> None:
    floor = PassK("w", "get_weather", 0.5, 100, [run(call("get_weather"))])
    assert not floor.passed and floor.pass_k == 0
    assert "run 1: no token count recorded" in floor.lines()
    # said as what it is, not as a run over the budget
    assert "FLOOR w: 1 of 1 runs recorded no token count, so cannot be held to the 100-token budget" in floor.lines()
    assert not any("exceeded" in line for line in floor.lines())


def test_pass_k_budget_lines_tell_runs_over_it_from_runs_without_a_count() -> None:
    runs = [
        run(call("get_weather"), number=1, tokens=150),
        run(call("get_weather"), number=2),
        run(number=3, tokens=90),
    ]
    lines = PassK("w", "get_weather", 0.5, 100, runs).lines()
    assert "FLOOR w: 1 of 3 runs exceeded the 100-token budget (worst run 150 tokens)" in lines
    assert "FLOOR w: 1 of 3 runs recorded no token count, so cannot be held to the 100-token budget" in lines


def test_pass_k_floor_line_never_shows_the_rate_equal_to_the_floor() -> None:
    # 2 of 3 is below a 0.67 floor: shown rounded half up it read "67% is below the 67% floor"
    runs = [run(call("get_weather"), number=1), run(call("get_weather"), number=2), run(number=3)]
    floor = PassK("w", "get_weather", 0.67, None, runs)
    assert not floor.rate_ok and floor.rate == 66
    assert floor.lines()[1].startswith("FLOOR w: selection rate 66% is below the 67% floor")
    assert PassK("w", "get_weather", 0.5, None, [run(call("get_weather"))]).lines()[0].endswith("tokens n/a")


def test_pass_k_with_no_runs_fails() -> None:
    # nothing ran, so nothing was selected: a floor cannot pass on no evidence
    floor = PassK("w", "get_weather", 0.0, None, [])
    assert floor.rate_ok and all(floor.within)  # 0 >= 0.0 x 0, and no run over a budget
    assert not floor.passed
    assert floor.lines()[0] == "tool-selection floor [FAIL] w: selection 0/0 (0%), pass^k 0%, tokens n/a"
    assert floor.lines()[1:] == ["FLOOR w: no runs recorded, so no run selected `get_weather`"]  # says why


def test_pass_k_qualified_expected_tool_is_selected_by_its_server_only() -> None:
    # as a class member: `server.tool` matches that qualified id, a bare name matches on any server
    runs = [run(call("web_search", "brave"), number=1), run(call("web_search", "other"), number=2)]
    assert PassK("w", "brave.web_search", 0.5, None, runs).selected == [True, False]
    assert PassK("w", "web_search", 0.5, None, runs).selected == [True, True]


def test_pass_k_median_of_an_even_count() -> None:
    floor = PassK("w", "x", 0.0, None, [run(number=1, tokens=1000), run(number=2, tokens=1001)])
    assert floor.as_dict()["tokens_median"] == 1000.5
    assert "tokens 1000.5 median / 1001 max" in floor.lines()[0]


# ---- token efficiency -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("f1", "letter"), [(100, "A"), (90, "A"), (89, "B"), (80, "B"), (70, "C"), (60, "D"), (59, "F")]
)
def test_grade_is_keyed_on_f1(f1: int, letter: str) -> None:
    assert grade(f1) == letter


def test_token_efficiency_per_correct_figures() -> None:
    runs = [run(call("web_search", "brave"), call("get", "http"), cost=0.02), run(call("get", "http"), cost=0.01)]
    te = token_efficiency(selection(CLASSES, runs), 1200, runs)
    assert te["correct_selections"] == 3 and te["f1"] == 85 and te["grade"] == "B"  # 6 / 7
    assert te["tokens_per_correct"] == 400.0
    assert te["cost"] == 0.03 and te["cost_per_correct"] == 0.01


def test_token_efficiency_undefined_figures_are_absent() -> None:
    nothing = [run(call("exec", "shell"))]
    te = token_efficiency(selection(CLASSES, nothing), 1200, nothing)
    assert te["correct_selections"] == 0
    assert te["tokens_per_correct"] is None and te["cost_per_correct"] is None and te["cost"] is None
    free = [run(call("get", "http"), cost=0.0)]
    te = token_efficiency(selection(CLASSES, free), 1200, free)
    assert te["cost"] == 0.0 and te["cost_per_correct"] is None  # a free run has no cost per correct
    te = token_efficiency(selection(CLASSES, free), None, free)
    assert te["tool_surface_tokens"] is None and te["tokens_per_correct"] is None


@given(n=st.integers(1, 80), data=st.data())
def test_the_exact_tail_test_is_the_binomial_tail_itself(n: int, data: st.DataObject) -> None:
    """_tail_within builds each term from the next by a small multiplication and an exact division; it must
    agree with the tail summed term by term from C(n,i) j^i q^(n-i), at the edges of p too."""
    from catalint.trace_metrics import _tail_within

    k = data.draw(st.integers(1, n))
    j = data.draw(st.one_of(st.sampled_from([0, 1, 9_999, 10_000]), st.integers(0, 10_000)))
    alpha = data.draw(st.sampled_from([(1, 20), (1, 100), (1, 2), (3, 7)]))
    tail = sum(math.comb(n, i) * j**i * (10_000 - j) ** (n - i) for i in range(k, n + 1))
    assert _tail_within(k, n, j, 10_000, alpha) == (tail * alpha[1] <= alpha[0] * 10_000**n)


def test_clopper_pearson_of_many_runs_is_the_smallest_bound_that_holds() -> None:
    """16,000 runs (a trace file of 288 KB) took 56 s and 280 MB; the bound must still be the grid's."""
    from catalint.trace_metrics import _tail_within

    bound = clopper_pearson_lower(40, 16_000)
    j = round(bound * 100)
    assert _tail_within(40, 16_000, j, 10_000, (1, 20)) and not _tail_within(40, 16_000, j + 1, 10_000, (1, 20))
