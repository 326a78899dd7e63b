"""Each CAT rule: cases that must fire, near misses that must not, and per-tool ignores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from catalint.config import Settings, ToolIgnore
from catalint.engine import lint_catalog
from catalint.loader import load_text
from catalint.model import Finding, Severity
from conftest import write_catalog


def tool(name: str, description: Any = ..., **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": name,
        "description": f"Do the {name} thing for a repository and return the result as JSON."
        if description is ...
        else description,
        "inputSchema": {"type": "object", "additionalProperties": False},
    }
    base.update(fields)
    return {k: v for k, v in base.items() if v is not ...}


def run(code: str, *tools: dict[str, Any], **settings: Any) -> list[Finding]:
    catalog = load_text(json.dumps({"tools": list(tools)}, indent=2), "t.json", "t.json")
    return lint_catalog(catalog, Settings(select=[code], **settings)).findings


def where(findings: list[Finding]) -> list[tuple[str, str]]:
    return [(f.tool, f.pointer) for f in findings]


# ---------------------------------------------------------------- CAT-001


def test_cat001_fires_on_exact_duplicate_at_the_later_tool() -> None:
    findings = run("CAT-001", tool("search"), tool("search", "Search code in a repository by keyword."))
    assert where(findings) == [("search", "/tools/1/name")]
    f = findings[0]
    assert f.severity == Severity.CRITICAL
    assert "repeats 'search'" in f.message
    assert "/tools/0" in f.message


def test_cat001_fires_on_case_only_duplicate() -> None:
    findings = run("CAT-001", tool("search"), tool("Search"))
    assert where(findings) == [("Search", "/tools/1/name")]
    assert findings[0].severity == Severity.CRITICAL
    assert "differs only in case from 'search'" in findings[0].message


def test_cat001_fires_on_the_same_name_in_another_normalization_form() -> None:
    """'café' with a precomposed é and with e + a combining accent look the same but are different strings."""
    findings = run("CAT-001", tool("caf\u00e9"), tool("cafe\u0301"))
    assert where(findings) == [("cafe\u0301", "/tools/1/name")]
    assert "is the same text, in another Unicode normalization form, as 'café'" in findings[0].message


def test_cat001_says_case_folding_for_names_beyond_ascii() -> None:
    findings = run("CAT-001", tool("kelvin"), tool("\u212aelvin"), tool("straße"), tool("STRASSE"))
    assert [f.message.split(" at ")[0] for f in findings] == [
        "tool name '\u212aelvin' equals, once case is folded, 'kelvin'",
        "tool name 'STRASSE' equals, once case is folded, 'straße'",
    ]


def test_cat001_every_later_repeat_names_the_first() -> None:
    findings = run("CAT-001", tool("search"), tool("other"), tool("SEARCH"), tool("search"))
    assert where(findings) == [("SEARCH", "/tools/2/name"), ("search", "/tools/3/name")]
    assert all("'search' at /tools/0" in f.message for f in findings)


def test_cat001_near_miss_distinct_names() -> None:
    assert run("CAT-001", tool("search_issues"), tool("search_code"), tool("search-issues")) == []


def test_cat001_near_miss_single_tool() -> None:
    assert run("CAT-001", tool("search")) == []


# ---------------------------------------------------------------- CAT-002


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("get weather", "contains ' '"),
        ("weather/get", "contains '/'"),
        ("ns:tool", "contains ':'"),
        ("a" * 129, "is 129 characters, over 128"),
        ("", "is empty"),
        ("météo", "contains 'é'"),
        ("me\u0301teo", "contains '\\u0301'"),  # a combining accent, which shows nothing on its own
        ("get\u200bweather", "contains '\\u200b'"),
        ("get\u00a0weather", "contains '\\u00a0'"),  # a no-break space
        ("tool\U000e0041", "contains '\\U000e0041'"),  # a tag character
    ],
)
def test_cat002_fires_on_invalid_name(name: str, fragment: str) -> None:
    findings = run("CAT-002", tool(name))
    assert where(findings) == [(name, "/tools/0/name")]
    assert findings[0].severity == Severity.WARNING
    assert fragment in findings[0].message
    assert "1-128 characters" in findings[0].message


@pytest.mark.parametrize("name", ["a.b-c_D9", "a" * 128, "x", "get_weather"])
def test_cat002_near_miss_valid_name(name: str) -> None:
    assert run("CAT-002", tool(name)) == []


def test_cat002_points_at_each_bad_tool() -> None:
    findings = run("CAT-002", tool("ok_one"), tool("bad one"), tool("ok_two"), tool("bad/two"))
    assert [f.pointer for f in findings] == ["/tools/1/name", "/tools/3/name"]


# ---------------------------------------------------------------- CAT-003


def test_cat003_fires_on_same_description_after_normalising() -> None:
    findings = run(
        "CAT-003",
        tool("list_open_issues", "List issues in a repository."),
        tool("list_closed_issues", "  list   ISSUES in a\n repository. "),
    )
    assert where(findings) == [("list_closed_issues", "/tools/1/description")]
    f = findings[0]
    assert f.severity == Severity.WARNING
    assert "same as that of 'list_open_issues' (/tools/0)" in f.message
    assert "/tools/0" in f.message


def test_cat003_every_later_copy_is_reported() -> None:
    text = "List issues in a repository."
    findings = run("CAT-003", tool("a", text), tool("b", "Different."), tool("c", text), tool("d", text))
    assert [f.pointer for f in findings] == ["/tools/2/description", "/tools/3/description"]


@pytest.mark.parametrize("empty", ["", "   ", None, ...])
def test_cat003_near_miss_empty_descriptions_are_not_compared(empty: Any) -> None:
    assert run("CAT-003", tool("a", empty), tool("b", empty)) == []


def test_cat003_near_miss_non_string_descriptions_are_not_compared() -> None:
    assert run("CAT-003", tool("a", 42), tool("b", 42)) == []


def test_cat003_near_miss_different_descriptions() -> None:
    assert (
        run(
            "CAT-003",
            tool("a", "List the open issues of a repository, newest first."),
            tool("b", "List the closed issues of a repository, most recently closed first."),
            tool("c", "List the open issues of a repository, newest first!"),
        )
        == []
    )


# ---------------------------------------------------------------- settings


def test_catalog_rules_honour_per_tool_ignores() -> None:
    ignore = ToolIgnore(["*earch"], ["CAT-001"], "legacy alias", [], "search tools")
    tools = [tool("search", "Search issues."), tool("Search", "Search code."), tool("bad name", "Do it.")]
    findings = run("CAT", *tools, per_tool_ignores=[ignore])
    assert [(f.code, f.pointer) for f in findings] == [("CAT-002", "/tools/2/name")]
    assert ignore.used == 1


def test_catalog_rules_per_tool_ignore_only_matches_its_tools() -> None:
    ignore = ToolIgnore(["other*"], ["CAT"], None, [], "other tools")
    findings = run("CAT", tool("search", "Search issues."), tool("search", "Search code."), per_tool_ignores=[ignore])
    assert [f.code for f in findings] == ["CAT-001"]
    assert ignore.used == 0


def test_catalog_rules_severity_override() -> None:
    findings = run("CAT-001", tool("search"), tool("search"), severity={"CAT": Severity.INFO})
    assert [f.severity for f in findings] == [Severity.INFO]


def test_per_tool_ignore_of_catalog_rule_through_the_cli(cli, tmp_path: Path) -> None:
    tools = [tool("name_a", "One."), tool("name_a", "Two."), tool("other", "Three."), tool("other", "Four.")]
    write_catalog(tmp_path / "tools.json", tools)
    result = cli(
        "lint", "--output-format", "json", "--select", "CAT", "--per-tool-ignores", "name_*:CAT-001", "tools.json"
    )
    data = json.loads(result.stdout)
    assert [(f["code"], f["tool"], f["pointer"]) for f in data["findings"]] == [("CAT-001", "other", "/tools/3/name")]
    assert data["files"][0]["suppressed"] == 1
    assert result.exit_code == 1


def test_a_well_written_catalog_is_clean_under_cat() -> None:
    tools = [
        tool("list_open_issues", "List the open issues of a repository, newest first."),
        tool("list_closed_issues", "List the closed issues of a repository, most recently closed first."),
        tool("get_issue", "Get one issue by number, with its comments."),
    ]
    assert run("CAT", *tools) == []


# ---------------------------------------------------------------- CAT-004


def _named(*names: str) -> list[dict]:
    return [{"name": n, "description": f"Handle {n.replace('_', ' ')} requests for the workspace."} for n in names]


def test_cat004_a_prefixed_camel_case_name_beside_snake_case_is_still_mixed() -> None:
    (found,) = run("CAT-004", *_named("list_issues", "get_issue", "create_issue", "issues_closeIssue"))
    assert found.tool == "issues_closeIssue"
    assert "is camelCase; 3 of the catalog's 4 tools use snake_case" in found.message


def test_cat004_a_mixed_name_with_underscored_words_is_not_camel_case() -> None:
    (found,) = run("CAT-004", *_named("getUser", "listUsers", "createUser", "fooBar_baz_qux"))
    assert found.tool == "fooBar_baz_qux" and "is snake_case" in found.message


def test_cat004_flags_the_minority_naming_style() -> None:
    found = run("CAT-004", *_named("list_users", "create_user", "getUser", "delete-user"))
    assert [(f.tool, f.pointer) for f in found] == [("getUser", "/tools/2/name"), ("delete-user", "/tools/3/name")]
    assert "camelCase" in found[0].message and "snake_case" in found[0].message


def test_cat004_flags_the_minority_verb_of_a_synonym_group() -> None:
    found = run("CAT-004", *_named("delete_file", "delete_repo", "remove_label", "update_issue", "set_project"))
    by_tool = {f.tool: f.message for f in found}
    assert set(by_tool) == {"remove_label", "set_project"}
    assert "'remove' where other tools say 'delete'" in by_tool["remove_label"]
    assert "'set' where another tool says 'update' (update_issue)" in by_tool["set_project"]  # one is not "tools"


def test_cat004_remove_from_is_unlinking_not_deleting() -> None:
    tools = [
        *_named("delete_file", "delete_repo"),
        tool("remove_sub_issue", "Remove a sub-issue from its parent issue; the sub-issue itself is kept."),
    ]
    assert run("CAT-004", *tools) == []
    tools[2] = tool("remove_related_issue", "Removes the relation between an issue and a related issue.")
    assert run("CAT-004", *tools) == []
    tools[2] = tool("remove_link", "Removes the association between two issues.")
    assert run("CAT-004", *tools) == []
    tools[2] = tool("remove_comment", "Remove a comment for good; it cannot be restored.")
    assert [f.tool for f in run("CAT-004", *tools)] == ["remove_comment"]


def test_cat004_a_remove_tool_without_a_description_is_still_compared() -> None:
    tools = [*_named("delete_file"), {"name": "remove_dir", "description": None}]
    assert [f.tool for f in run("CAT-004", *tools)] == ["remove_dir"]


def test_cat004_a_verb_several_tools_share_is_a_convention() -> None:
    names = ("search_events", "search_docs", "search_issues", "search_traces", "find_projects", "find_teams")
    names += ("find_dsns",)
    assert run("CAT-004", *_named(*names)) == []
    # One odd tool among many is still a slip; so is one of two (a tie).
    found = run("CAT-004", *_named("search_code", "search_issues", "search_users", "search_commits", "find_duplicate"))
    assert [f.tool for f in found] == ["find_duplicate"]
    assert [f.tool for f in run("CAT-004", *_named("update_issue", "set_project"))] == ["set_project"]


def test_cat004_a_verb_of_exactly_a_third_of_its_group_is_no_convention() -> None:
    found = run("CAT-004", *_named("get_user", "get_repo", "fetch_issue", "fetch_pull", "fetch_commit", "fetch_branch"))
    assert [f.tool for f in found] == ["get_user", "get_repo"]
    # the examples are tools that use the common verb
    assert "where other tools say 'fetch' (fetch_branch, fetch_commit, fetch_issue)" in found[0].message


def test_cat004_a_number_is_a_word_of_the_name() -> None:
    assert [f.tool for f in run("CAT-004", *_named("fetch_user", "get_2"))] == ["get_2"]


def test_cat004_an_underscore_for_a_dot_after_a_prefix_stays_camel_case() -> None:
    # 'iCloud_jsSync' (from "iCloud.js") after the prefix 'hosting_': the capital right after the first letter counts
    found = run("CAT-004", *_named("list_users", "get_user", "hosting_iCloud_jsSync"))
    assert [f.tool for f in found] == ["hosting_iCloud_jsSync"]
    assert "is camelCase" in found[0].message


def test_cat004_compares_the_verbs_after_a_namespace_prefix() -> None:
    # 'hosting_' before camelCase is a namespace, as for the style: get beside fetch, not 'hosting' twice
    names = ("hosting_getDomain", "hosting_getRecord", "hosting_getUser", "hosting_fetchZone")
    found = run("CAT-004", *_named(*names))
    assert [f.tool for f in found] == ["hosting_fetchZone"]
    assert "says 'fetch' where other tools say 'get'" in found[0].message
    # near miss: snake_case words after the underscore are no namespace; the first word stays the verb
    assert run("CAT-004", *_named("hosting_get_domain", "hosting_fetch_zone")) == []


def test_cat004_a_tie_names_the_same_side_whatever_the_order() -> None:
    # the group's first verb and snake_case win a tie, not the tool that comes first
    for names in (("update_issue", "set_project"), ("set_project", "update_issue")):
        assert [f.tool for f in run("CAT-004", *_named(*names))] == ["set_project"]
    for names in (("list_users", "getUser"), ("getUser", "list_users")):
        assert [f.tool for f in run("CAT-004", *_named(*names))] == ["getUser"]


@pytest.mark.parametrize(
    "names",
    [
        ("list_users", "create_user", "delete_user"),  # one style, one verb per action
        ("github.search_issues", "github.create_issue", "ping"),  # namespaces and one-word names
        ("my-server.list_issues", "get_user"),  # only the part after the last dot has a style
        # no inner capital before the underscore: 'get_jsBuild' is snake_case words, not 'get.jsBuild'
        ("list_get_jsBuild", "get_user", "list_repos"),
        ("edit_note", "set_config_value"),  # editing is not setting
        ("getUser", "listUsers", "createUser"),  # consistently camelCase
        # a category prefix before camelCase is a namespace (Hostinger's 401 tools)
        ("hosting_listWebsites", "domains_getDomainList", "agency-hosting_deployNodeStaticWebsite"),
        ("find", "aggregate", "search_knowledge", "list_databases"),  # a one-word name is an operation's own name
        # an underscore for the dot of "Node.js" inside a camelCase name
        ("hosting_listWebsites", "hosting_startNode_jsBuildV1", "hosting_getNode_jsRuntimeLogsV1"),
        ("find_text", "search_and_replace"),  # a compound name's first verb is not what it is named for
    ],
)
def test_cat004_near_misses(names: tuple[str, ...]) -> None:
    assert run("CAT-004", *_named(*names)) == []


# ---------------------------------------------------------------- CAT-005


def test_cat005_reports_a_tool_that_loses_its_own_name() -> None:
    tools = [
        {"name": "search_issues", "description": "Look things up by text in the tracker."},
        {
            "name": "search_issue_events",
            "description": "Search issue events: search the issues of a project for events.",
        },
    ]
    (found,) = run("CAT-005", *tools)
    assert (found.tool, found.pointer) == ("search_issues", "/tools/0/description")
    assert "picks 'search_issue_events' over 'search_issues'" in found.message
    assert "they share issues, search" in found.message


def test_cat005_lists_the_weightiest_words_first_and_numbers_last() -> None:
    tools = [
        {"name": "search_issues", "description": "Look up text in the tracker; rate limited (429, 503)."},
        {
            "name": "search_issue_events",
            "description": "Search issue events: search the issues of a project for events, by text.",
        },
        {"name": "get_project", "description": "Get a project of the tracker."},
    ]
    (found,) = run("CAT-005", *tools)
    # rare words of its own before the ones another tool has too ('tracker'), numbers last
    assert found.message.endswith("only limited, look, rate, tracker, 429, 503 set 'search_issues' apart")
    assert "they share issues, search, text" in found.message


def test_cat005_says_when_nothing_sets_the_tool_apart() -> None:
    text = "Get the links contained within an article. Returns a list of links."
    tools = [
        {"name": "get_article_links", "description": text},
        {"name": "article_links", "description": text},  # an alias that says nothing more
        {"name": "get_summary", "description": "Get a short summary of a page."},
        {"name": "search_pages", "description": "Search pages that match a query."},
    ]
    (found,) = run("CAT-005", *tools)
    assert found.tool == "article_links"
    assert found.message.endswith("; nothing sets 'article_links' apart")


def test_cat005_near_miss_when_descriptions_set_them_apart() -> None:
    tools = [
        {"name": "search_issues", "description": "Search issues by label, state and text. Returns issue numbers."},
        {"name": "search_pull_requests", "description": "Search pull requests by branch and review state."},
    ]
    assert run("CAT-005", *tools) == []


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        (("power_on_droplet", "Power a droplet on."), ("power_off_droplet", "Power a droplet off.")),
        (  # aws-s3tables
            ("get_table_metadata_location", "Get the S3 URI location of the table metadata."),
            ("update_table_metadata_location", "Update the metadata location of a table: the metadata location."),
        ),
    ],
)
def test_cat005_skips_names_set_apart_only_by_a_stop_word(mine: tuple[str, str], theirs: tuple[str, str]) -> None:
    # The selector drops 'on', 'off' and 'get' from the query; the names still tell the tools apart.
    tools = [{"name": mine[0], "description": mine[1]}, {"name": theirs[0], "description": theirs[1]}]
    assert run("CAT-005", *tools) == []


def test_cat005_judges_a_name_with_a_content_word_the_other_name_lacks() -> None:
    tools = [
        {"name": "power_on_droplet_size", "description": "Power a droplet."},
        {"name": "power_off_droplet", "description": "Power a droplet off. Size, size: the droplet size, power."},
    ]
    assert [f.tool for f in run("CAT-005", *tools)] == ["power_on_droplet_size"]


def test_cat005_skips_a_more_specific_rival_named_so_when_the_description_says_the_name() -> None:
    """list_issues beside list_issue_types: the longer name holds every word of the shorter and more, and
    list_issues says "list issues" itself, so a model reading the names tells them apart."""
    own = "List issues in a repository. For pagination, pass the cursor of the previous page; at most 100 a page."
    tools = [
        {"name": "list_issues", "description": own},
        {"name": "list_issue_types", "description": "List issue types: the issue types to list issues by."},
        {"name": "get_user", "description": "Get a user's profile: name, email and role."},
    ]
    assert run("CAT-005", *tools) == []
    # the same rival against a description that does not say what the name says is still reported
    tools[0]["description"] = "Page through the tracker of a repository; pass the cursor of the previous page."
    assert [f.tool for f in run("CAT-005", *tools)] == ["list_issues"]


def test_cat005_skips_a_tool_whose_description_says_the_name_word_the_rival_lacks() -> None:
    """mcp-grafana's list_pyroscope_label_names beside list_pyroscope_label_values: sibling texts share
    wording and the shorter one wins the score, but 'names' is in this name, not the other's, and this
    description says it: name and description set the two apart."""
    own = (
        "List the label {w} of a Pyroscope datasource for a time range. Label {w} come from the profiles a"
        " Pyroscope datasource holds, over a time range; they filter the profiles of a service, a pod or a"
        " cluster, and each label {w} can be passed on to list label values in that time range."
    )
    tools = [
        {"name": "list_pyroscope_label_names", "description": own.format(w="names")},
        {
            "name": "list_pyroscope_label_values",
            "description": "List the label values of a Pyroscope datasource for a label name and a time range.",
        },
        {"name": "get_user", "description": "Get a user's profile: name, email and role."},
    ]
    assert run("CAT-005", *tools) == []
    # the same pair, with a description that never says 'names', is reported
    tools[0]["description"] = own.format(w="keys")
    assert [f.tool for f in run("CAT-005", *tools)] == ["list_pyroscope_label_names"]


def test_cat005_a_more_specific_rival_is_still_reported_when_the_description_has_nothing_of_its_own() -> None:
    # "List issues." says the name, but every word of it is in the rival's text too
    tools = [
        {"name": "list_issues", "description": "List issues."},
        {"name": "list_issue_labels", "description": "List issues, list issues and issue labels. Issues issues list."},
    ]
    (found,) = run("CAT-005", *tools)
    assert found.tool == "list_issues"
    assert found.message.endswith("nothing sets 'list_issues' apart")


def test_cat005_a_rival_with_the_same_name_words_is_not_more_specific() -> None:
    tools = [
        {"name": "list_issues", "description": "List issues in a repository with labels."},
        {"name": "list-issues", "description": "List issues in a repository."},
    ]
    (found,) = run("CAT-005", *tools)
    assert found.tool == "list_issues"
    assert "picks 'list-issues' over 'list_issues'" in found.message


@pytest.mark.parametrize(
    ("description", "fires"),
    [
        (
            "Fetch the PDF for an arXiv identifier and convert it to markdown, storing the result locally so that "
            "later calls can use it without network access.",
            True,
        ),
        (
            "Download a paper: fetch its PDF by arXiv identifier and store it as markdown, for read_paper to read.",
            False,
        ),
    ],
)
def test_cat005_the_documented_bad_and_good_examples(description: str, fires: bool) -> None:
    tools = [
        {"name": "download_paper", "description": description},
        {
            "name": "read_paper",
            "description": "Read the text of a paper. A paper must be downloaded first; "
            "download the paper if it is missing.",
        },
        {"name": "get_user", "description": "Get a user's profile: name, email and role."},
        {"name": "list_projects", "description": "List the projects of the workspace, newest first."},
    ]
    assert [f.tool for f in run("CAT-005", *tools)] == (["download_paper"] if fires else [])


def test_cat005_skips_names_with_one_content_word() -> None:
    tools = [
        {"name": "get_config", "description": "Read the configuration of the server, every key and value."},
        {"name": "set_config_value", "description": "Set one config value of the server, by key."},
    ]
    assert [f.tool for f in run("CAT-005", *tools)] == []


def _brute_rival(index: Any, query: list[str], own: int) -> tuple[float, int] | None:
    """best_rival without pruning: every tool that shares a word, scored whole."""
    from catalint.selector import better

    mine = (index.score(query, index.docs[own]), own)
    best = None
    for score, i in index.ranked(query):
        if i != own and better((score, i), best):
            best = (score, i)
    return best if best is not None and better(best, mine) else None


@pytest.mark.parametrize("seed", range(6))
def test_cat005_pruned_rival_is_the_brute_force_one(seed: int) -> None:
    import random

    from catalint.selector import Index, best_rival, document, tokens

    rnd = random.Random(seed)
    words = ["issue", "pull", "request", "label", "comment", "repo", "search", "list", "file", "branch"]
    docs = []
    for _ in range(40):
        name = "_".join(rnd.sample(words, rnd.randint(2, 3)))
        docs.append((name, document(name, " ".join(rnd.choices(words, k=rnd.randint(0, 8))))))
    index = Index([d for _, d in docs])
    rivals = 0
    for i, (name, _) in enumerate(docs):
        query = tokens(name)
        pruned, brute = best_rival(index, query, i), _brute_rival(index, query, i)
        assert (pruned and pruned[1]) == (brute and brute[1])
        rivals += brute is not None
    assert 0 < rivals < len(docs)  # both outcomes are compared


class _Counted(dict):  # type: ignore[type-arg]
    """Counts the values read from it: one a get, all of them a pass over values() or items()."""

    reads = 0

    def get(self, key, default=None):  # type: ignore[no-untyped-def]
        _Counted.reads += 1
        return super().get(key, default)

    def values(self):  # type: ignore[no-untyped-def]
        _Counted.reads += len(self)
        return super().values()

    def items(self):  # type: ignore[no-untyped-def]
        _Counted.reads += len(self)
        return super().items()


def test_cat005_reads_a_word_every_tool_shares_a_bounded_number_of_times() -> None:
    """With names like get_item_N, "item" is in every tool. Reading all its tools again for each tool's
    query made CAT-005 quadratic: 20,000 such tools took 11.7 s, 5,000 took 1.4 s."""
    from catalint.selector import Index, best_rival, document, tokens

    names = [f"get_item_{i}" for i in range(400)]
    index = Index([document(n, f"Get item number {i}.") for i, n in enumerate(names)])
    index._columns["item"] = _Counted(index.column("item"))
    _Counted.reads = 0
    for i, name in enumerate(names):
        best_rival(index, tokens(name), i)
    assert _Counted.reads < 10 * len(names)


OTHERS = [
    {"name": "get_user", "description": "Get a user's profile: name, email and role."},
    {"name": "list_projects", "description": "List the projects of the workspace, newest first."},
]


@pytest.mark.parametrize(("spelt", "fires"), [("resolve-library-id", False), ("resolve library id", True)])
def test_cat005_reads_a_description_without_the_other_tools_names(spelt: str, fires: bool) -> None:
    # context7: the rival's "call resolve-library-id first" routes the agent; it is not a description of it
    tools = [
        {"name": "resolve-library-id", "description": "Turns a package name into what the docs tool needs."},
        {
            "name": "get-library-docs",
            "description": f"Fetches up-to-date documentation for a library. You must call {spelt} first: "
            f"{spelt}, then fetch the library docs for that library id.",
        },
        *OTHERS,
    ]
    assert [f.tool for f in run("CAT-005", *tools)] == (["resolve-library-id"] if fires else [])


def test_cat005_a_name_the_tool_itself_says_stays_in_its_description() -> None:
    from catalint.model import Tool
    from catalint.rules.catalog import _without_other_names

    tools = [Tool(0, "/tools/0", {"name": "read_file"}), Tool(1, "/tools/1", {"name": "search"})]
    texts = ["Use read_file, then search_files or search; not read_file_v2.", "Call read_file (see read_file)."]
    # own name kept, another tool's identifier-like name blanked, a plain-word name ("search") left alone
    assert _without_other_names(texts, tools) == [texts[0], "Call   (see  )."]


@pytest.mark.parametrize("second", ["List everyone in the workspace, with their roles.", "Retrieve a user by ID."])
def test_cat005_names_read_alike_are_judged_only_when_the_descriptions_match(second: str) -> None:
    # notion: API-get-user and API-get-users ask the same query; one of them always loses it
    tools = [
        {"name": "API-get-user", "description": "Retrieve a user by ID."},
        {"name": "API-get-users", "description": second},
        *OTHERS,
    ]
    assert [f.tool for f in run("CAT-005", *tools)] == ([] if second.startswith("List") else ["API-get-users"])


def test_cat005_a_longer_form_of_a_name_word_counts_as_saying_it() -> None:
    # server-filesystem: "listing" says list, so list_directory is beside a more specific tool named so
    tools = [
        {"name": "list_directory", "description": "A detailed listing of every file and folder in a path."},
        {
            "name": "list_allowed_directories",
            "description": "Returns the list of directories that this server is allowed to access.",
        },
        *OTHERS,
    ]
    assert run("CAT-005", *tools) == []


def test_cat005_a_description_that_says_its_name_is_judged_against_a_similar_one_only() -> None:
    # arxiv: watch_topic says "topic watch" at length and loses to unwatch_topic's short text on length
    long = (
        "Save or update a persistent research topic watch. When checked, returns only papers published since "
        "the last check, acting as a standing alert for new work on a topic. New watches start at creation "
        "time so the first check does not dump historical matches; the topic string uses the search syntax."
    )
    tools = [
        {"name": "watch_topic", "description": long},
        {
            "name": "unwatch_topic",
            "description": "Delete a saved topic watch by exact topic string. The watch must exist.",
        },
        *OTHERS,
    ]
    assert run("CAT-005", *tools) == []
    # grafana: label names and label values, described alike; the names tool loses its own name
    where = "found in the profiles of a data source within a time range, with optional label matchers"
    tools = [
        {
            "name": "list_label_names",
            "description": f"Lists the label keys {where}. Keys with two leading underscores are internal and "
            "rarely useful; without a time range the last hour is used.",
        },
        {
            "name": "list_label_values",
            "description": f"Lists the label values of one label name {where}; without a time range the last "
            "hour is used.",
        },
        *OTHERS,
    ]
    (found,) = run("CAT-005", *tools)
    assert found.tool == "list_label_names"


def test_cat005_message_shows_the_words_as_written_not_their_stems() -> None:
    tools = [
        {"name": "get_mars_rover_photos", "description": "Images taken on one day."},
        {"name": "get_mars_rover_manifest", "description": "Mars rover photos: counts of photos taken per day."},
        *OTHERS,
    ]
    (found,) = run("CAT-005", *tools)
    assert found.message.startswith("asked for 'mars rover photos', the bench selector picks")
    assert "; they share mars, photos, rover, day, taken;" in found.message  # not "mar" and "photo"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("IDs", ["ids"]),
        ("getNetworkDexes", ["get", "network", "dexes"]),
        ("ListIDsByTag", ["list", "ids", "by", "tag"]),
        ("getHTTPServer", ["get", "http", "server"]),
        ("XMLSchemas", ["xml", "schemas"]),
    ],
)
def test_an_acronym_plural_is_one_word(text: str, expected: list[str]) -> None:
    from catalint.selector import words

    assert words(text) == expected
