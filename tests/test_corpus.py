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


def _found(name: str) -> list[tuple[str, str, int, int]]:
    result = lint_catalog(load_path(str(CORPUS / name)), Settings())
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
