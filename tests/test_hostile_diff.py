"""Hostile input to `catalint diff`: descriptions that make difflib's matching cubic, and git revisions
read from a folder whose name is not UTF-8.

`diff.word_diff` and the rename matching ran SequenceMatcher (autojunk off) over whole word lists with
no limit: "a b a b ..." (1,600 words) against "b a c b a c ..." (2,400 words) took 33 s, 65 s when the
tool was renamed too, and 12 KB descriptions over 120 s. Matching now has a work budget linear in the
words (diff.MATCH_WORK_PER_WORD), counted before the work is done.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import pytest

from catalint import diff as diff_module
from catalint.diff import compare, load_side, shown_word_diff, word_diff
from catalint.loader import load_text
from conftest import write
from test_hostile import catalint, no_crash, one_error

A_B = " ".join(["a b"] * 800)  # 1,600 words
B_A_C = " ".join(["b a c"] * 800)  # 2,400 words


def _catalog(tools: list[dict[str, Any]]) -> str:
    return json.dumps({"tools": tools})


def _tool(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": {"type": "object"}}


def _difflib_word_diff(old: str, new: str) -> str:
    """word_diff as it was: difflib over the whole word lists, no budget."""
    a, b = old.split(), new.split()
    return shown_word_diff(a, b, SequenceMatcher(None, a, b, False).get_opcodes())


def test_word_diff_of_repetitive_descriptions_is_shown_replaced_whole() -> None:
    assert word_diff(A_B, B_A_C) == f"[-{A_B[:77]}...-] {{+{B_A_C[:77]}...+}}"


def test_word_diff_matches_the_words_between_common_ends_alone() -> None:
    old = f"Search the index. {A_B} Returns JSON."
    new = f"Search the index. {B_A_C} Returns JSON."
    assert word_diff(old, new) == f"Search the index. [-{A_B[:77]}...-] {{+{B_A_C[:77]}...+}} ..."
    assert word_diff(old, new, width=400).endswith("...+} Returns JSON.")
    # a small change amid repetitive text: the middle is matched as difflib matches it
    mid = A_B.split()
    mid[801] = "CHANGED"
    assert word_diff(A_B, " ".join(mid)) == "... a b a [-b-] {+CHANGED+} a b a ..."


def test_word_diff_is_unchanged_for_ordinary_descriptions() -> None:
    rng = random.Random(5)
    vocabulary = [f"w{i}" for i in range(300)] + ["the", "a", "of", "to", "and", "is"] * 20
    for _ in range(300):
        words = [rng.choice(vocabulary) for _ in range(rng.randrange(1, 400))]
        edited = list(words)
        for _ in range(rng.randrange(1, 6)):
            i = rng.randrange(len(edited) + 1)
            kind = rng.randrange(3)
            if kind == 0:
                edited.insert(i, rng.choice(vocabulary))
            elif kind == 1 and edited:
                del edited[min(i, len(edited) - 1)]
            elif edited:
                edited[min(i, len(edited) - 1)] = "NEW"
        old, new = " ".join(words), " ".join(edited)
        assert word_diff(old, new) == _difflib_word_diff(old, new), (old, new)


def test_a_renamed_tool_with_repetitive_descriptions_is_not_compared_past_its_budget() -> None:
    base = load_text(_catalog([_tool("t", A_B)]), "base.json", "base.json")
    head = load_text(_catalog([_tool("t_renamed", B_A_C)]), "head.json", "head.json")
    result = compare(base, head)
    assert result.renamed == [] and len(result.added) == 1 and len(result.removed) == 1


def test_rename_matching_stops_at_its_matching_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    olds = [_tool(f"old{i}", "Get the time in zone a. Returns a timestamp.") for i in range(2)]
    news = [_tool(f"new{i}", "Get the time in zone b. Returns a timestamp.") for i in range(2)]
    base, head = load_text(_catalog(olds), "b.json", "b.json"), load_text(_catalog(news), "h.json", "h.json")
    assert len(compare(base, head).renamed) == 2
    monkeypatch.setattr(diff_module, "MAX_RENAME_MATCH_WORK", 0)
    assert compare(base, head).renamed == []


@pytest.mark.parametrize("renamed", [False, True], ids=["changed", "renamed"])
def test_diff_of_repetitive_descriptions_finishes(tmp_path: Path, renamed: bool) -> None:
    # repro-8: 33 s (65 s renamed) before; 6,000 and 12,000 words (12 KB and 24 KB) took over 120 s
    olds = [_tool(f"t{i}", " ".join(["a b"] * 3000)) for i in range(3)]
    olds += [_tool(f"r{i}", " ".join(["a a b"] * 47)) for i in range(70)]
    news = [_tool(f"t{i}" + ("_v2" if renamed else ""), " ".join(["b a c"] * 4000)) for i in range(3)]
    news += [_tool(f"r{i}" + ("_v2" if renamed else ""), " ".join(["a b b"] * 47)) for i in range(70)]
    write(tmp_path / "base.json", _catalog(olds))
    write(tmp_path / "head.json", _catalog(news))
    done = catalint("diff", "base.json", "head.json", cwd=tmp_path, timeout=30)
    no_crash(done)
    assert done.code == 0 and done.stderr == ""
    assert ("tools: 73 -> 73 (+73 added, 73 removed" if renamed else "(+0 added, 0 removed, 0 renamed)") in done.stdout


# --------------------------------------------------------------------------------------
# A folder whose name is not UTF-8 (git allows any bytes): `git rev-parse --show-prefix` and
# `--show-toplevel` print it as it is, and decoding that strictly was an internal UnicodeDecodeError.
# --------------------------------------------------------------------------------------

WEATHER = {
    "name": "get_weather",
    "description": "Get the current weather for a city. Returns JSON with the temperature in Celsius.",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


@pytest.fixture
def odd_repo(tmp_path: Path) -> Path:
    """A git repository with 'sub\\xff/tools.json' committed ([WEATHER]) and changed since (a second tool);
    the folder's name, as Python names it (os.fsdecode: the byte 0xff as a lone surrogate)."""
    root = os.fsencode(tmp_path)
    folder = os.path.join(root, b"sub\xff")
    os.mkdir(folder)
    for args in (["init", "-q"], ["config", "user.email", "a@b.c"], ["config", "user.name", "n"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    with open(os.path.join(folder, b"tools.json"), "w", encoding="utf-8") as f:
        f.write(_catalog([WEATHER]))
    subprocess.run(["git", "add", "."], cwd=root, check=True, capture_output=True)
    subprocess.run(["git", "commit", "-q", "-m", "x"], cwd=root, check=True, capture_output=True)
    with open(os.path.join(folder, b"tools.json"), "w", encoding="utf-8") as f:
        f.write(_catalog([WEATHER, {**WEATHER, "name": "get_forecast", "description": "x"}]))
    return Path(os.fsdecode(folder))


def test_load_side_reads_a_revision_from_a_folder_whose_name_is_not_utf8(odd_repo: Path) -> None:
    for cwd, path in ((odd_repo, "tools.json"), (odd_repo.parent, odd_repo.name + "/tools.json")):
        side = load_side(f"HEAD:{path}", cwd)
        assert [t.name for t in side.tools] == ["get_weather"] and side.display == f"{path}@HEAD"
    absolute = load_side(f"HEAD:{odd_repo / 'tools.json'}", odd_repo)
    assert [t.name for t in absolute.tools] == ["get_weather"]


@pytest.mark.parametrize(
    "args",
    [
        ["diff", "HEAD:tools.json", "tools.json"],
        ["diff", "--output-format", "json", "HEAD:tools.json", "tools.json"],
        ["lint", "tools.json", "--baseline", "HEAD:tools.json"],
        ["lint", "tools.json", "--baseline-rev", "HEAD"],
        ["lint", ".", "--baseline-rev", "HEAD", "--output-format", "sarif"],
    ],
    ids=["diff", "diff-json", "lint-baseline", "lint-baseline-rev", "lint-baseline-rev-sarif"],
)
def test_revisions_work_in_a_folder_whose_name_is_not_utf8(odd_repo: Path, args: list[str]) -> None:
    done = catalint(*args, cwd=odd_repo, timeout=30)
    no_crash(done)
    assert done.stderr == ""
    if args[0] == "diff":
        assert done.code == 0 and "get_forecast" in done.stdout
    else:  # only get_forecast's findings are new
        assert done.code == 1 and "get_forecast:" in done.stdout and "get_weather:" not in done.stdout
    absolute = [
        str(odd_repo / "tools.json")
        if a == "tools.json"
        else a.replace(":tools.json", ":" + str(odd_repo / "tools.json"))
        for a in args
    ]
    done = catalint(*absolute, cwd=odd_repo, timeout=30)
    no_crash(done)
    assert done.stderr == "" and done.code == (0 if args[0] == "diff" else 1)


def test_a_missing_file_at_a_revision_in_a_folder_whose_name_is_not_utf8_is_one_error(odd_repo: Path) -> None:
    done = catalint("diff", "HEAD:nope.json", "tools.json", cwd=odd_repo, timeout=30)
    one_error(done, "HEAD:nope.json: error: git: path 'sub")


def test_sarif_names_a_file_whose_name_is_not_utf8_by_its_bytes(tmp_path: Path) -> None:
    with open(os.path.join(os.fsencode(tmp_path), b"n\xfe.tools.json"), "w", encoding="utf-8") as f:
        f.write(_catalog([{**WEATHER, "description": "x"}]))
    done = catalint("lint", ".", "--output-format", "sarif", cwd=tmp_path, timeout=30)
    no_crash(done)
    assert done.code == 1 and done.stderr == ""
    uris = {
        loc["physicalLocation"]["artifactLocation"]["uri"]
        for r in json.loads(done.stdout)["runs"][0]["results"]
        for loc in r["locations"]
    }
    assert uris == {"n%FE.tools.json"}
