"""Real catalogs from ../shared/corpus (skipped when that folder is absent)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalint.config import Settings
from catalint.engine import lint_catalog
from catalint.loader import load_path
from conftest import CORPUS

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")

CATALOGS = sorted(CORPUS.glob("*.json")) if CORPUS.is_dir() else []


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.name)
def test_every_real_catalog_lints_with_positions_inside_the_file(path: Path) -> None:
    catalog = load_path(str(path))
    result = lint_catalog(catalog, Settings())
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    assert len(result.tools) == len(json.loads(path.read_text(encoding="utf-8-sig"))["tools"])
    for f in result.findings:
        span = f.span
        assert span is not None
        assert 1 <= span.line <= span.end_line <= len(lines), (f.code, f.pointer)
        assert 1 <= span.col <= len(lines[span.line - 1]) + 1, (f.code, f.pointer)
        assert 1 <= span.end_col <= len(lines[span.end_line - 1]) + 1, (f.code, f.pointer)
        if span.line == span.end_line:
            assert span.col < span.end_col


def _found(name: str, prefix: str = "DESC") -> list[tuple[str, str, int, int]]:
    result = lint_catalog(load_path(str(CORPUS / name)), Settings(select=[prefix]))
    return [(f.code, f.tool, f.span.line, f.span.col) for f in result.findings]


def test_hand_checked_mcp_server_time() -> None:
    # Annotated, with outputSchemas and e.g. examples in the argument descriptions, so the only
    # findings are the inverted density ones: "Convert time between timezones" (30 chars) is
    # shorter than each of its argument descriptions, and the same for get_current_time.
    assert _found("mcp-server-time.json") == [
        ("DESC-008", "get_current_time", 14, 28),
        ("DESC-008", "convert_time", 66, 28),
        ("DESC-008", "convert_time", 71, 28),
        ("DESC-008", "convert_time", 76, 28),
    ]


def test_hand_checked_server_brave_search() -> None:
    # Good descriptions with defaults and result wording ("Returns detailed information",
    # "20 results per request"); the only gap is that neither tool declares annotations, and the
    # finding points at each tool object (the closest ancestor of the missing member).
    assert _found("server-brave-search.json") == [
        ("DESC-012", "brave_web_search", 3, 5),
        ("DESC-012", "brave_local_search", 29, 5),
    ]


def test_hand_checked_livemcpbench_whois() -> None:
    # Four one-argument tools: "Looksup whois information about the domain" names an action but
    # not what comes back (DESC-010); the single required argument makes the schema non-trivial
    # and nothing shows an example (DESC-009); the argument has no description (DESC-006);
    # "annotations": null is not an object (DESC-012).
    found = _found("livemcpbench__whois.json")
    expected = []
    for tool, line in (("whois_domain", 5), ("whois_tld", 24), ("whois_ip", 43), ("whois_as", 69)):
        expected += [("DESC-010", tool, line, 22), ("DESC-009", tool, line + 1, 22)]
    assert [f for f in found if f[0] in ("DESC-009", "DESC-010")] == expected
    assert [(c, t, line) for c, t, line, _ in found if c == "DESC-006"] == [
        ("DESC-006", "whois_domain", 9),
        ("DESC-006", "whois_tld", 28),
        ("DESC-006", "whois_ip", 47),
        ("DESC-006", "whois_as", 73),
    ]
    assert [(c, t) for c, t, _, _ in found if c == "DESC-012"] == [
        ("DESC-012", "whois_domain"),
        ("DESC-012", "whois_tld"),
        ("DESC-012", "whois_ip"),
        ("DESC-012", "whois_as"),
    ]
    assert len(found) == 16


# Schema and catalog rules, checked by hand against the files.


def test_hand_checked_schema_mcp_server_time() -> None:
    # Both input schemas are closed by nothing (no additionalProperties: false, SCH-002 at the
    # schema object) and the three timezone/time strings have no maxLength (SCH-004). Their
    # outputSchemas are valid object schemas (no SCH-013), and every property is typed and
    # required names only declared properties: nothing else applies.
    assert _found("mcp-server-time.json", "SCH") == [
        ("SCH-002", "get_current_time", 11, 22),
        ("SCH-004", "get_current_time", 13, 23),
        ("SCH-002", "convert_time", 63, 22),
        ("SCH-004", "convert_time", 65, 30),
        ("SCH-004", "convert_time", 70, 19),
        ("SCH-004", "convert_time", 75, 30),
    ]
    assert _found("mcp-server-time.json", "CAT") == []


def test_hand_checked_schema_pdf_reader() -> None:
    # read_pdf: `"exclusiveMinimum": true` beside `"minimum": 0` is the draft-04 form; with no
    # $schema the schema is 2020-12, where exclusiveMinimum must be a number (SCH-006, at the
    # `true` on line 30). The source object in `items` declares path/url/pages but no required
    # list (SCH-001). The sources array, the pages array branch and the path, url and pages
    # string branch are unbounded (SCH-004). Both objects are closed with additionalProperties:
    # false, so there is no SCH-002.
    found = _found("livemcpbench__pdf-reader-mcp.json", "SCH")
    assert ("SCH-006", "read_pdf", 30, 45) in found
    assert ("SCH-001", "read_pdf", 11, 22) in found
    assert sorted(line for code, _, line, _ in found if code == "SCH-004") == [9, 14, 19, 26, 35]
    assert len(found) == 7


def test_hand_checked_schema_scientific_computing() -> None:
    # Python servers that write `point: list = None` or annotate `grid: str = 200` publish a
    # default their own schema rejects: null for an array (curl, divergence), an array and an
    # integer for strings (plot_vector_field bounds, plot_function grid). Each is SCH-009 at
    # the default value.
    found = _found("mcpbench__scientific-computing.json", "SCH-009")
    assert found == [
        ("SCH-009", "curl", 427, 24),
        ("SCH-009", "divergence", 452, 24),
        ("SCH-009", "plot_vector_field", 529, 24),
        ("SCH-009", "plot_function", 599, 24),
    ]


def test_hand_checked_schema_notion_unused_definitions() -> None:
    # All 24 tools carry the same nine $defs; most refer to none. The SCH rules report inside the
    # definitions a tool uses only: those its arguments refer to, and those these refer to in turn
    # (parentRequest's oneOf names pageIdParentRequest and dataSourceIdParentRequest;
    # blockObjectRequest names the two block requests, which name richTextRequest). Before, every
    # tool got the same 13 findings in them: API-get-user, which takes only user_id, among them.
    # (SCH-016, which reports the unused entries themselves, has its own test below.)
    settings = Settings(select=["SCH"], ignore=["SCH-016"])
    result = lint_catalog(load_path(str(CORPUS / "notion-mcp-server.json")), settings)
    used: dict[str, set[str]] = {}
    for f in result.findings:
        parts = f.pointer.split("/")
        if parts[4:5] == ["$defs"]:
            used.setdefault(f.tool, set()).add(parts[5])
    assert used == {
        "API-patch-block-children": {"paragraphBlockRequest", "bulletedListItemBlockRequest", "richTextRequest"},
        "API-post-page": {"parentRequest", "pageIdParentRequest", "dataSourceIdParentRequest"},
        "API-query-data-source": {"sortObject"},
        "API-update-a-data-source": {"richTextRequest"},
        "API-create-a-data-source": {"pageIdParentRequest", "richTextRequest"},
        "API-move-page": {"movePageParentRequest"},
    }
    assert [(f.code, f.pointer) for f in result.findings if f.tool == "API-get-user"] == [
        ("SCH-002", "/tools/0/inputSchema")
    ]


def test_hand_checked_schema_notion_unused_definitions_reported() -> None:
    # SCH-016: every tool sends the same nine $defs, and a tool's arguments refer to a few at most, so
    # each entry a tool does not reach is one finding at the entry: 24 * 9 = 216 entries, 12 of them used,
    # 204 findings. The used ones, read from the file by hand: patch-block-children's `children` items
    # name blockObjectRequest, whose anyOf names the two block requests, which name richTextRequest;
    # post-page's parent is parentRequest, whose oneOf names the page-id and data-source-id parents;
    # create-a-data-source refers to pageIdParentRequest and richTextRequest, update-a-data-source to
    # richTextRequest, query-data-source's sorts to sortObject, move-page's parent to
    # movePageParentRequest. No tool's schema holds an anchor, an `$id` or a remote reference, so none
    # falls back to counting every entry used.
    path = CORPUS / "notion-mcp-server.json"
    result = lint_catalog(load_path(str(path)), Settings(select=["SCH-016"]))
    used = {
        "API-patch-block-children": {
            "blockObjectRequest",
            "paragraphBlockRequest",
            "bulletedListItemBlockRequest",
            "richTextRequest",
        },
        "API-post-page": {"parentRequest", "pageIdParentRequest", "dataSourceIdParentRequest"},
        "API-create-a-data-source": {"pageIdParentRequest", "richTextRequest"},
        "API-update-a-data-source": {"richTextRequest"},
        "API-query-data-source": {"sortObject"},
        "API-move-page": {"movePageParentRequest"},
    }
    tools = json.loads(path.read_text(encoding="utf-8"))["tools"]
    expected = {
        (t["name"], f"/tools/{i}/inputSchema/$defs/{name}")
        for i, t in enumerate(tools)
        for name in t["inputSchema"]["$defs"]
        if name not in used.get(t["name"], set())
    }
    assert len(tools) == 24 and len(expected) == 204
    assert {(f.tool, f.pointer) for f in result.findings} == expected
    assert len(result.findings) == 204
    first = result.findings[0]  # API-get-user's richTextRequest, the first entry of the file
    assert (first.span.line, first.span.col) == (8, 30)
    assert first.message.startswith("definition 'richTextRequest' is never used: no $ref reaches it, yet its 276 ")


def test_corpus_has_no_unknown_dialects_or_broken_refs() -> None:
    # Across every catalog: no $schema outside the known dialects, no dangling $ref, no
    # misspelt keyword. A regression in the walker or the resolver shows up here first.
    for path in CATALOGS:
        result = lint_catalog(load_path(str(path)), Settings(select=["SCH-010", "SCH-012"]))
        assert result.findings == [], path.name


# Scores, smells and tokens over the real catalogs.


def test_every_real_catalog_scores_and_gates() -> None:
    from catalint.quality import assess

    scores = []
    for path in CATALOGS:
        settings = Settings()
        quality = assess(lint_catalog(load_path(str(path)), settings), settings.gate_checks(), True)
        assert len(quality.gate) == 3, path.name
        for t in quality.tools:
            assert 0.0 <= t.score.score <= 1.0
            assert t.tokens.total >= t.tokens.name > 0
            assert sum(t.smells.values()) == len(t.result.findings)
        scores += [t.score.score for t in quality.tools]
    # the spread the TDQS weights were calibrated on (see the closing note of issue 4)
    scores.sort()
    assert scores[0] == 0.0 and scores[-1] == 1.0
    assert 0.60 <= scores[len(scores) // 2] <= 0.75


def test_hand_checked_scores() -> None:
    from catalint.tdqs import score

    def tool(file: str, name: str):
        return next(t for t in load_path(str(CORPUS / file)).tools if t.name == name)

    # An empty description, undocumented arguments, "annotations": null: nothing to score.
    assert score(tool("livemcpbench__investor.json", "get_earnings_history")).score == 0.0
    # A full description that says what it returns, every argument described, readOnlyHint set.
    assert score(tool("server-memory.json", "delete_entities")).score == 1.0
    # convert_time: "Convert time between timezones" is 30 characters, a quarter of the way from
    # 20 to 60 (length 0.5 + 0.5 * 10/40 = 0.625); it says nothing of the result, but the tool
    # declares an outputSchema; everything else is full: 1 - 0.15 * 0.375 = 0.94375.
    s = score(tool("mcp-server-time.json", "convert_time"))
    assert {p.key: p.value for p in s.parts}["length"] == 0.625
    assert s.score == round(1 - 0.15 * 0.375, 4)
