"""Hostile input to `catalint diff`: descriptions that make difflib's matching cubic.

`diff.word_diff` and the rename matching ran SequenceMatcher (autojunk off) over whole word lists with
no limit: "a b a b ..." (1,600 words) against "b a c b a c ..." (2,400 words) took 33 s, 65 s when the
tool was renamed too, and 12 KB descriptions over 120 s. Matching now has a work budget linear in the
words (diff.MATCH_WORK_PER_WORD), counted before the work is done.
"""

from __future__ import annotations

import json
import random
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import pytest

from catalint import diff as diff_module
from catalint.diff import CHANGE_WIDTH, DIFF_WIDTH, _clip, _context, _fit, compare, word_diff
from catalint.loader import load_text
from conftest import write
from test_hostile import catalint, no_crash

A_B = " ".join(["a b"] * 800)  # 1,600 words
B_A_C = " ".join(["b a c"] * 800)  # 2,400 words


def _catalog(tools: list[dict[str, Any]]) -> str:
    return json.dumps({"tools": tools})


def _tool(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": {"type": "object"}}


def _difflib_word_diff(old: str, new: str) -> str:
    """word_diff as it was: difflib over the whole word lists, no budget."""
    a, b = old.split(), new.split()
    ops = SequenceMatcher(None, a, b, False).get_opcodes()
    if all(tag == "equal" for tag, *_ in ops):
        return "(no word changed)"
    pieces: list[str] = []
    for n, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag == "equal":
            pieces.append(_context(a[i1:i2], first=n == 0, last=n == len(ops) - 1))
            continue
        if i2 > i1:
            pieces.append(f"[-{_clip(' '.join(a[i1:i2]), CHANGE_WIDTH)}-]")
        if j2 > j1:
            pieces.append(f"{{+{_clip(' '.join(b[j1:j2]), CHANGE_WIDTH)}+}}")
    return _fit(pieces, DIFF_WIDTH)


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
