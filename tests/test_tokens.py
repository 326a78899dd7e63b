"""Tool-surface token counts (cl100k_base, offline), the TOK rules, and --tokens output."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from catalint import tokens
from catalint.loader import load_text
from catalint.tokens import TokenError, ToolTokens, count, encoding, parse_ranks, surface_texts, window_share
from conftest import write_catalog

CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"  # tiktoken's published hash

SAMPLE = {
    "name": "get_weather",
    "description": "Get the current weather for a city.\nReturns the temperature in °C and the conditions.",
    "inputSchema": {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "Nom de la ville, par exemple Zürich"}},
        "required": ["city"],
    },
    "annotations": {"readOnlyHint": True},
}
CLEAN = {
    "name": "get_time",
    "description": "Get the current time in UTC. Returns an ISO 8601 timestamp string.",
    "inputSchema": {"type": "object", "additionalProperties": False},
    "annotations": {"readOnlyHint": True},
}


def loaded(*tools_: dict[str, Any]):
    return load_text(json.dumps({"tools": list(tools_)}), "t.json", "t.json").tools


def counted(t: dict[str, Any]) -> ToolTokens:
    return count(loaded(t)[0])


def n(text: str) -> int:
    return len(encoding().encode_ordinary(text))


def wordy(words: int, start: int = 0) -> str:
    """A description of many distinct words."""
    return "Look up " + " ".join(f"entry{i}" for i in range(start, start + words)) + "."


def findings(cli, *args: str) -> list[dict[str, Any]]:
    result = cli("lint", "--output-format", "json", *args, "tools.json")
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)["findings"]


def tok(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f for f in found if f["code"].startswith("TOK-")]


# ---------------------------------------------------------------- counting


def test_counts_are_the_three_texts_encoded_separately() -> None:
    compact = json.dumps(SAMPLE["inputSchema"], separators=(",", ":"), ensure_ascii=False)
    got = counted(SAMPLE)
    assert got.name == n("get_weather")
    assert got.description == n(SAMPLE["description"])
    assert got.input_schema == n(compact)
    assert got.total == got.name + got.description + got.input_schema
    # the compact, non-escaped serialisation is what counts: the others give other numbers
    assert got.input_schema != n(json.dumps(SAMPLE["inputSchema"], separators=(",", ":")))
    assert got.input_schema != n(json.dumps(SAMPLE["inputSchema"], ensure_ascii=False))
    assert got.as_dict() == {
        "total": got.total,
        "name": got.name,
        "description": got.description,
        "input_schema": got.input_schema,
        "whitespace_estimate": got.whitespace,
    }


def test_surface_texts() -> None:
    name, desc, compact = surface_texts(loaded(SAMPLE)[0])
    assert (name, desc) == ("get_weather", SAMPLE["description"])
    expected = (
        '{"type":"object","properties":{"city":{"type":"string",'
        '"description":"Nom de la ville, par exemple Zürich"}},"required":["city"]}'
    )
    assert compact == expected


def test_whitespace_estimate_counts_words_with_default_json_separators() -> None:
    spaced = json.dumps(SAMPLE["inputSchema"], ensure_ascii=False)
    expected = len("get_weather".split()) + len(SAMPLE["description"].split()) + len(spaced.split())
    assert counted(SAMPLE).whitespace == expected == 1 + 15 + 16


def test_tool_without_description_or_schema() -> None:
    got = counted({"name": "ping"})
    assert got == ToolTokens(name=n("ping"), description=0, input_schema=0, whitespace=1)
    assert got.total == n("ping")


def test_non_string_description_counts_nothing() -> None:
    assert counted({"name": "ping", "description": 42}).description == 0


def test_special_token_text_is_counted_as_text() -> None:
    desc = "Stop at <|endoftext|> or <|fim_prefix|> markers."
    with pytest.raises(ValueError):
        encoding().encode(desc)  # what a plain encode would do
    got = counted({"name": "cut", "description": desc})
    assert got.description == n(desc) > 2
    assert n("<|endoftext|>") == 7


def test_counts_are_cached_on_the_tool() -> None:
    t = loaded(SAMPLE)[0]
    assert count(t) is count(t)


# ---------------------------------------------------------------- the encoding itself


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("hello world", [15339, 1917]),
        ("tiktoken is great!", [83, 1609, 5963, 374, 2294, 0]),
        ("Get the current weather", [1991, 279, 1510, 9282]),
        ("", []),
    ],
)
def test_known_cl100k_base_ids(text: str, ids: list[int]) -> None:
    assert encoding().encode_ordinary(text) == ids
    assert encoding().decode(ids) == text


def test_encoding_is_cl100k_base() -> None:
    enc = encoding()
    assert enc.name == "cl100k_base"
    assert enc.n_vocab == 100277
    assert enc.eot_token == 100257
    assert encoding() is enc


def test_bundled_file_is_the_published_one() -> None:
    path = tokens._data_file()
    assert path.name == "cl100k_base.tiktoken"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == CL100K_SHA256


def test_parse_ranks() -> None:
    assert parse_ranks(b"YQ== 0\nYmM= 1\n\n") == {b"a": 0, b"bc": 1}


def test_window_share() -> None:
    assert window_share(1280) == {"128k": 1.0, "200k": 0.64}
    assert window_share(0) == {"128k": 0.0, "200k": 0.0}


OFFLINE = r"""
import json, socket, sys

attempts = []

class NoSocket(socket.socket):
    def __init__(self, *args, **kwargs):
        attempts.append("socket")
        raise OSError("network disabled by the test")

def refuse(*args, **kwargs):
    attempts.append("connect")
    raise OSError("network disabled by the test")

socket.socket = NoSocket
socket.create_connection = refuse
socket.getaddrinfo = refuse
assert "catalint" not in sys.modules and "tiktoken" not in sys.modules

from click.testing import CliRunner
from catalint.cli import main
from catalint.loader import load_text
from catalint.tokens import count, encoding

tool = json.loads(sys.argv[1])
catalog = load_text(json.dumps({"tools": [tool]}), "t.json", "t.json")
counted = count(catalog.tools[0]).as_dict()
result = CliRunner().invoke(main, ["lint", "--tokens", "--output-format", "json", sys.argv[2]])
print(json.dumps({
    "counted": counted,
    "hello": encoding().encode_ordinary("hello world"),
    "exit": result.exit_code,
    "stdout": result.stdout,
    "attempts": attempts,
}))
"""


def test_counting_works_offline_and_downloads_nothing(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    path = write_catalog(tmp_path / "tools.json", [CLEAN])
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(cache), "DATA_GYM_CACHE_DIR": str(cache)}
    env.pop("CATALINT_OUTPUT_FORMAT", None)
    proc = subprocess.run(
        [sys.executable, "-c", OFFLINE, json.dumps(SAMPLE), str(path)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["attempts"] == []
    assert out["hello"] == [15339, 1917]
    assert out["counted"] == counted(SAMPLE).as_dict()
    assert out["exit"] == 0
    report = json.loads(out["stdout"])
    assert report["files"][0]["tools"][0]["tokens"]["total"] == counted(CLEAN).total
    assert report["files"][0]["quality"]["tokens"]["total"] == counted(CLEAN).total
    assert list(cache.iterdir()) == []


def test_corrupted_data_file_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import tiktoken_ext.openai_public as official

    original = official.load_tiktoken_bpe
    bad = tmp_path / "cl100k_base.tiktoken"
    bad.write_bytes(tokens._data_file().read_bytes()[:-10] + b"AAAA= 1\n")
    monkeypatch.setattr(tokens, "_data_file", lambda: bad)
    monkeypatch.setattr(tokens, "_ENCODING", None)
    with pytest.raises(TokenError, match="SHA-256"):
        encoding()
    assert tokens._ENCODING is None
    assert official.load_tiktoken_bpe is original  # the download hook is put back


@pytest.mark.parametrize("flags", [["--tokens"], ["--select", "TOK-001"]], ids=["tokens", "tok-rule"])
def test_corrupted_data_file_is_exit_2_on_the_command_line(
    cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, flags: list[str]
) -> None:
    """With TOK-001 on, the error came from inside the rule, reported as an internal error."""
    bad = tmp_path / "bad.tiktoken"
    bad.write_bytes(b"not a bpe file\n")
    monkeypatch.setattr(tokens, "_data_file", lambda: bad)
    monkeypatch.setattr(tokens, "_ENCODING", None)
    write_catalog(tmp_path / "tools.json", [CLEAN])
    result = cli("lint", *flags, "tools.json")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: the bundled cl100k_base.tiktoken does not match tiktoken's published SHA-256"
    ]
    assert cli("lint", "tools.json").exit_code == 0  # without token counting, nothing needs the file


# ---------------------------------------------------------------- TOK-001


@pytest.fixture
def no_encoding(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make loading the encoding fail loudly: what does not need it must not ask for it."""

    def refuse() -> Any:
        raise AssertionError("the encoding was loaded")

    monkeypatch.setattr(tokens, "_ENCODING", None)
    monkeypatch.setattr(tokens, "_load", refuse)


def test_tok_rules_are_off_by_default_and_need_no_encoding(cli, tmp_path: Path, no_encoding: None) -> None:
    write_catalog(tmp_path / "tools.json", [{**CLEAN, "description": wordy(600)}])
    found = findings(cli)
    assert found and tok(found) == []
    assert "tokens" not in json.loads(cli("lint", "--output-format", "json", "tools.json").stdout)["summary"]
    with pytest.raises(AssertionError, match="the encoding was loaded"):
        cli("lint", "--tokens", "tools.json")  # the patch does bite when counting is needed


def test_tok001_fires_over_the_budget(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [CLEAN])
    c = counted(CLEAN)
    assert c.total > 10
    (found,) = tok(findings(cli, "--extend-select", "TOK", "--tool-token-budget", "10"))
    assert found["code"] == "TOK-001"
    assert found["severity"] == "warning"
    assert found["smell"] == "verbose"
    assert found["tool"] == "get_time"
    assert found["message"] == (
        f"tool surface is {c.total} tokens (name {c.name}, description {c.description}, "
        f"inputSchema {c.input_schema}), over the budget of 10"
    )
    assert found["pointer"] == "/tools/0/description"  # the description is the larger part


def test_tok001_at_or_under_the_budget_is_silent(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [CLEAN])
    total = counted(CLEAN).total
    assert tok(findings(cli, "--extend-select", "TOK", "--tool-token-budget", str(total))) == []
    assert [f["code"] for f in tok(findings(cli, "--extend-select", "TOK", "--tool-token-budget", str(total - 1)))] == [
        "TOK-001"
    ]


def test_tok001_points_at_the_tool_when_the_schema_is_larger(cli, tmp_path: Path) -> None:
    props = {f"field_{i}": {"type": "string", "maxLength": 10, "description": f"Value {i}"} for i in range(20)}
    big_schema = {**CLEAN, "inputSchema": {"type": "object", "properties": props, "additionalProperties": False}}
    write_catalog(tmp_path / "tools.json", [big_schema])
    c = counted(big_schema)
    assert c.input_schema > c.description
    (found,) = tok(findings(cli, "--extend-select", "TOK-001", "--tool-token-budget", "10"))
    assert found["pointer"] == "/tools/0"


def test_tok001_default_budget_is_700(cli, tmp_path: Path) -> None:
    big = {**CLEAN, "name": "big", "description": wordy(400)}
    medium = {**CLEAN, "name": "medium", "description": wordy(200, start=1000)}
    assert counted(big).total > 700 > counted(medium).total > 300
    write_catalog(tmp_path / "tools.json", [big, medium])
    found = tok(findings(cli, "--extend-select", "TOK"))
    assert [(f["code"], f["tool"]) for f in found] == [("TOK-001", "big")]
    assert found[0]["message"].endswith("over the budget of 700")


def test_tok001_budget_from_config(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [CLEAN])
    (tmp_path / "pyproject.toml").write_text('[tool.catalint]\nextend-select = ["TOK"]\ntool-token-budget = 10\n')
    (found,) = tok(findings(cli))
    assert found["message"].endswith("over the budget of 10")
    (tmp_path / "pyproject.toml").write_text("[tool.catalint]\ntool-token-budget = 0\n")
    result = cli("lint", "tools.json")
    assert result.exit_code == 2
    assert "tool-token-budget must be a positive whole number of tokens" in result.stderr


@pytest.mark.parametrize("flag", ["--tool-token-budget", "--catalog-token-budget"])
def test_budget_flags_must_be_positive(cli, tmp_path: Path, flag: str) -> None:
    write_catalog(tmp_path / "tools.json", [CLEAN])
    assert cli("lint", flag, "0", "tools.json").exit_code == 2


# ---------------------------------------------------------------- TOK-002

THREE = [
    CLEAN,
    {**CLEAN, "name": "get_date", "description": "Get the current date in UTC. Returns an ISO 8601 date string."},
    {**CLEAN, "name": "get_zone", "description": wordy(30)},
]


def catalog_total() -> tuple[int, int]:
    totals = [counted(t).total for t in THREE]
    assert totals[2] == max(totals) and totals.count(totals[2]) == 1
    return sum(totals), totals[2]


def test_tok002_is_silent_without_a_catalog_budget(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", THREE)
    assert tok(findings(cli, "--extend-select", "TOK")) == []


def test_tok002_fires_once_on_the_largest_tool(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", THREE)
    total, largest = catalog_total()
    found = tok(findings(cli, "--extend-select", "TOK", "--catalog-token-budget", str(total - 1)))
    assert len(found) == 1
    assert (found[0]["code"], found[0]["tool"], found[0]["pointer"]) == ("TOK-002", "get_zone", "/tools/2")
    assert found[0]["message"] == (
        f"the catalog's 3 tools come to {total} tokens, over the catalog budget of {total - 1} "
        f"(the largest, this one, is {largest})"
    )


def test_tok002_at_the_budget_is_silent(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", THREE)
    total, _ = catalog_total()
    assert tok(findings(cli, "--extend-select", "TOK", "--catalog-token-budget", str(total))) == []


def test_tok002_needs_selecting(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", THREE)
    assert tok(findings(cli, "--catalog-token-budget", "1")) == []


# ---------------------------------------------------------------- --tokens and --scores output


def test_tokens_in_json(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [SAMPLE, CLEAN])
    data = json.loads(cli("lint", "--tokens", "--output-format", "json", "tools.json").stdout)
    per_tool = [t["tokens"] for t in data["files"][0]["tools"]]
    for entry, source in zip(per_tool, [SAMPLE, CLEAN], strict=True):
        c = counted(source)
        assert entry == {**c.as_dict(), "context_share_percent": window_share(c.total)}
        assert set(entry["context_share_percent"]) == {"128k", "200k"}
    total = sum(t["total"] for t in per_tool)
    assert data["files"][0]["quality"]["tokens"] == {
        "total": total,
        "max_tool": max(t["total"] for t in per_tool),
        "whitespace_estimate": sum(t["whitespace_estimate"] for t in per_tool),
        "context_share_percent": window_share(total),
    }
    assert data["summary"]["tokens"] == {"total": total, "context_share_percent": window_share(total)}


def test_tokens_on_the_text_summary_line(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [SAMPLE, CLEAN])
    total = counted(SAMPLE).total + counted(CLEAN).total
    share = window_share(total)["128k"]
    last = cli("lint", "--tokens", "tools.json").stdout.splitlines()[-1]
    assert last.endswith(f"; {total:,} tokens (cl100k_base, {share}% of a 128k context window).")
    assert "tokens" not in cli("lint", "tools.json").stdout.splitlines()[-1]


def test_no_tokens_in_json_without_the_flag(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [CLEAN])
    data = json.loads(cli("lint", "--output-format", "json", "tools.json").stdout)
    assert "tokens" not in data["files"][0]["tools"][0]
    assert "tokens" not in data["files"][0]["quality"]


def test_scores_text_shows_tokens(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [SAMPLE, CLEAN])
    out = cli("lint", "--scores", "tools.json").stdout
    shown = dict(re.findall(r"^  (get_\w+)\s+\d\.\d\d\s+[A-F]\s+(\d+)  ", out, re.MULTILINE))
    assert shown == {"get_weather": str(counted(SAMPLE).total), "get_time": str(counted(CLEAN).total)}
    total = counted(SAMPLE).total + counted(CLEAN).total
    share = window_share(total)
    assert f"; {total:,} tokens ({share['128k']}% of a 128k context window, {share['200k']}% of 200k)" in out


def test_explain_shows_tokens(cli, tmp_path: Path) -> None:
    write_catalog(tmp_path / "tools.json", [SAMPLE])
    c = counted(SAMPLE)
    out = cli("lint", "--explain", "get_weather", "tools.json").stdout
    assert (
        f"  tokens: {c.total} (name {c.name}, description {c.description}, inputSchema {c.input_schema}); "
        f"whitespace estimate {c.whitespace}"
    ) in out
