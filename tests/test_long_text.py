"""Long texts read a piece at a time: each piecewise helper gives what the whole-text code gives.

A description of megabytes made each step that split it into words hold one string per word
(about 60 bytes each): a 60 MB description of short words took 1.5 GB. The helpers below read it
in pieces instead; these tests shrink the piece size so that ordinary texts cross many cuts.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import catalint.diff as diff_module
import catalint.selector as selector_module
import catalint.tdqs as tdqs_module
import catalint.text as text_module
import catalint.tokens as tokens_module
from catalint.loader import load_text
from catalint.rules.security.strings import show
from catalint.tdqs import _BLOCK_BREAK, _longest_block, score
from catalint.text import clip, clip_folded, fold_space, foreign_latin, has_verb, pieces, says_what_returns, word_count
from conftest import write

# Texts rich in what the helpers must get right: runs of white space of every kind (the ones
# str.split() splits at, \x1c and \x85 among them), words that touch, CJK, contractions, digits.
_ALPHABET = [*"ab cd\n\t.,'s12é中😀\u3000\x1c\x85\r-_()", "  ", "\n\n", " word", "The ", "get ", "der ", "und "]
texts = st.lists(st.sampled_from(_ALPHABET), max_size=120).map("".join)


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text_module, "PIECE", 8)


@settings(max_examples=400, deadline=None)
@given(texts)
def test_pieces_cut_only_after_white_space_and_lose_nothing(text: str) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(text_module, "PIECE", 8)
        parts = list(pieces(text))
    assert "".join(parts) == text
    assert all(part and part[-1].isspace() for part in parts[:-1])
    # a piece is longer than PIECE only when one run of non-space characters needs it
    for part in parts:
        assert len(part) <= 8 or not any(c.isspace() for c in part[:8])


@settings(max_examples=400, deadline=None)
@given(texts, st.integers(min_value=1, max_value=30))
def test_folding_counting_and_quoting_a_piece_at_a_time_match_the_whole_text(text: str, width: int) -> None:
    whole = " ".join(text.split())
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(text_module, "PIECE", 8)
        assert fold_space(text) == whole
        assert word_count(text) == len(text.split())
    assert clip_folded(text, width) == clip(whole, width)
    assert clip_folded(text, width, show) == clip(" ".join(show(text).split()), width)


def test_a_quote_from_a_long_text_reads_only_its_start() -> None:
    text = "Returns   the weather\n" + " " * 5000 + "for a city. " * 100_000
    assert clip_folded(text, 30) == clip(" ".join(text.split()), 30) == "Returns the weather for a cit…"


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["get", "got", "cleanup", "the", "für", "der", "und", "el", "weather", "x1", "\n"]), max_size=60
    )
)
def test_verbs_and_language_read_a_piece_at_a_time_as_in_the_whole_text(words: list[str]) -> None:
    text = " ".join(words)
    whole = (text_module._has_verb(text), foreign_latin(text))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(text_module, "PIECE", 8)
        assert (has_verb.__wrapped__(text), foreign_latin(text)) == whole


def test_a_verb_late_in_a_long_description_still_counts() -> None:
    text = "weather data for cities " * 10_000 + "and it lists them"
    assert len(text) > text_module.PIECE
    assert has_verb.__wrapped__(text)
    assert not has_verb.__wrapped__(text[: -len("and it lists them")])


def test_foreign_function_words_are_summed_over_pieces(small_pieces: None) -> None:
    assert foreign_latin("das Wetter " * 3 + "the city")  # 3 German words (one per piece) beat 1 English
    assert not foreign_latin("das Wetter the city of the town")


@settings(max_examples=300, deadline=None)
@given(texts)
def test_the_longest_block_is_found_without_splitting(text: str) -> None:
    text = text.replace("c", "\n- ").replace("d", "\n1) ")  # list items, to break on
    expected = max(map(len, _BLOCK_BREAK.split(text))) if "\n" in text else len(text)
    assert _longest_block(text) == expected


def test_token_counts_of_long_texts_add_up_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    """cl100k_base starts a new piece at a space after a non-space character and reads no piece past
    it, so cutting there changes no count; checked on texts made to cut often, and everywhere."""
    enc = tokens_module.encoding()
    monkeypatch.setattr(tokens_module, "TOKEN_PIECE", 6)
    rng = random.Random(7)
    units = [*"ab cd\n\t.,'12é中😀\u3000\x1c\r-_()[]{}\"", "'s", "'ll", " 123", "  ", "\n\n", "The", " word", "   x"]
    for _ in range(3000):
        text = "".join(rng.choice(units) for _ in range(rng.randint(0, 200)))
        assert tokens_module.tokens_in(enc, text) == len(enc.encode_ordinary(text)), repr(text)


def test_a_long_description_is_counted_a_piece_at_a_time() -> None:
    enc = tokens_module.encoding()
    text = "Returns the weather, for a city; 42 times.\n" * 5000
    assert len(text) > tokens_module.TOKEN_PIECE
    assert tokens_module.tokens_in(enc, text) == len(enc.encode_ordinary(text))


def _conciseness_notes(description: str) -> list[str]:
    tool = {"name": "get_it", "description": description, "inputSchema": {"type": "object"}}
    result = score(load_text(json.dumps({"tools": [tool]}), "t.json", "t.json").tools[0])
    return next(p.notes for p in result.parts if p.key == "conciseness")


def test_repetition_is_looked_for_in_the_first_characters_only(monkeypatch: pytest.MonkeyPatch) -> None:
    said = "Returns the weather for a city. "
    monkeypatch.setattr(tdqs_module, "REPEAT_MAX_CHARS", 200)
    assert _conciseness_notes(said * 2 + "x" * 300) == ["repeats itself: 'Returns the weather for a city.'"]
    assert _conciseness_notes("Get it: " + "y" * 200 + said * 2) == []


def test_the_cut_does_not_make_a_repeat_of_a_sentence_or_word_it_stops_short(monkeypatch: pytest.MonkeyPatch) -> None:
    # cut after "city", the last sentence would read as the first; cut after "requests", the last
    # four words would be the sequence's third time
    first = "Returns the weather for a city. "
    text = first + "Get it now. " + first[:-2] + " and country."
    monkeypatch.setattr(tdqs_module, "REPEAT_MAX_CHARS", len(text) - len(" and country."))
    assert _conciseness_notes(text) == []
    monkeypatch.setattr(tdqs_module, "REPEAT_MAX_CHARS", 10**6)
    assert _conciseness_notes(first + "Get it now. " + first) != []
    said = "find open pull requests "
    text = "Get it: " + said * 2 + said[:-1] + "xyz and more words here"
    monkeypatch.setattr(tdqs_module, "REPEAT_MAX_CHARS", text.index("xyz"))
    assert _conciseness_notes(text) == []
    monkeypatch.setattr(tdqs_module, "REPEAT_MAX_CHARS", 10**6)
    assert _conciseness_notes("Get it: " + said * 3 + "and more") == ["repeats itself: 'find open pull requests'"]


@pytest.mark.parametrize(
    "text",
    ["Gives bac\u212a the weather for a city.", "Y\u0131elds the weather for a city."],  # Kelvin sign, dotless i
)
def test_return_words_ignore_case_in_any_script(text: str) -> None:
    # Python's patterns match K and k to the Kelvin sign and i to the dotless i when ignoring case;
    # the substring tests that spare ASCII text the pattern must not skip these
    assert says_what_returns(text)
    assert not says_what_returns("Weather for a city.")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in kilobytes is Linux's")
@pytest.mark.parametrize(
    ("description", "limit_mb"),
    [("word " * 2_000_000, 200), ("Returns the weather for a city.\n" * 300_000, 160)],
    ids=["words", "lines"],
)
def test_a_10mb_description_costs_a_few_times_its_size(tmp_path: Path, description: str, limit_mb: int) -> None:
    """Every default rule and TDQS over a 10 MB description: 285 MB of short words and 195 MB of
    short lines before the long-text helpers, 120 MB and 112 MB after."""
    tool = {"name": "x", "description": description, "inputSchema": {"type": "object"}}
    write(tmp_path / "t.json", json.dumps({"tools": [tool]}))
    assert _peak_mb([sys.executable, "-m", "catalint", "lint", "--exit-zero", "t.json"], tmp_path) < limit_mb


# -- diff and bench over long descriptions -------------------------------------------------------------------


def _distinct_words(rng: random.Random, n: int) -> list[str]:
    return [f"w{rng.randrange(10**6)}" for _ in range(n)]


def test_a_long_word_diff_shows_what_the_whole_word_lists_show(monkeypatch: pytest.MonkeyPatch) -> None:
    """With words that do not repeat, matching only the changed middle finds what difflib finds in the
    whole lists; LONG_DIFF is lowered so that short texts take the long path."""
    rng = random.Random(11)
    for _ in range(2000):
        words = _distinct_words(rng, rng.randint(0, 30))
        edited = list(words)
        for _ in range(rng.randint(0, 3)):
            at = rng.randint(0, len(edited))
            choice = rng.randint(0, 2)
            if choice == 0:
                edited.insert(at, f"new{rng.randrange(99)}")
            elif edited and choice == 1:
                del edited[min(at, len(edited) - 1)]
            elif edited:
                edited[min(at, len(edited) - 1)] += rng.choice(["x", "s"])
        old = rng.choice([" ", "  ", "\n"]).join(words) + rng.choice(["", " "])
        new = rng.choice(["", " "]) + " ".join(edited)
        monkeypatch.setattr(diff_module, "LONG_DIFF", 10**9)
        whole = diff_module.word_diff(old, new)
        monkeypatch.setattr(diff_module, "LONG_DIFF", 0)
        assert diff_module.word_diff(old, new) == whole, (old, new)


def test_a_long_changed_middle_is_shown_replaced_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(diff_module, "LONG_DIFF", 0)
    monkeypatch.setattr(diff_module, "MAX_DIFF_WORDS", 10)
    old = "Get the weather. " + " ".join(f"a{i}" for i in range(40)) + " Returns JSON for the city."
    new = "Get the weather. " + " ".join(f"b{i}" for i in range(40)) + " Returns JSON for the city."
    removed = " ".join(f"a{i}" for i in range(40))[:77].rstrip()
    added = " ".join(f"b{i}" for i in range(40))[:77].rstrip()
    shown = f"Get the weather. [-{removed}...-] {{+{added}...+}} Returns JSON for ..."
    assert diff_module.word_diff(old, new, width=400) == shown
    # white space changed only: no word changed, however long
    assert diff_module.word_diff(old, old.replace(" ", "\n  ")) == "(no word changed)"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in kilobytes is Linux's")
def test_diff_of_a_huge_description_reads_only_what_changed(tmp_path: Path) -> None:
    """Two 6.4 MB descriptions, 1.2 million words each: their word lists and difflib's index of them
    took 400 MB; now only the words around the change are split out."""
    text = "Returns the weather for a city. " * 200_000
    tools = [{"name": "w", "description": text, "inputSchema": {"type": "object"}}]
    write(tmp_path / "a.json", json.dumps({"tools": tools}))
    tools[0]["description"] = text[:3_200_000] + "Also the wind. " + text[3_200_000:]
    write(tmp_path / "b.json", json.dumps({"tools": tools}))
    command = [sys.executable, "-m", "catalint", "diff", "a.json", "b.json", "--output-format", "json", "-o", "d.json"]
    assert _peak_mb(command, tmp_path) < 250
    (changed,) = json.loads((tmp_path / "d.json").read_text())["tools"]["changed"]
    assert changed["description_diff"] == "... for a city. {+Also the wind.+} Returns the weather ..."


def _peak_mb(command: list[str], cwd: Path) -> int:
    """Peak resident memory of command, in MB (Linux's ru_maxrss is in kilobytes)."""
    probe = (
        "import resource, subprocess, sys; "
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, timeout=120); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    done = subprocess.run([sys.executable, "-c", probe, *command], cwd=cwd, capture_output=True, text=True, timeout=180)
    return int(done.stdout) // 1000


def test_rename_matching_compares_the_first_words_and_pairs_equal_ones_on_all(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(diff_module, "RENAME_WORDS", 5)

    def side(name: str, description: str) -> Any:
        tool = {"name": name, "description": description, "inputSchema": {"type": "object"}}
        return load_text(json.dumps({"tools": [tool]}), "t.json", "t.json")

    shared = "list the open issues of a repository"
    # the same first five words, different after: not equal, and 0.6 alike only on those five
    pairs = diff_module.compare(side("old", shared + " by label"), side("new", shared + " by author")).renamed
    assert [(c.base.name, c.head.name) for c in pairs] == [("old", "new")]
    assert diff_module._equal_key(side("a", "X  y").tools[0]) == diff_module._equal_key(side("b", "x\ny").tools[0])
    assert diff_module._equal_key(side("a", shared + " a").tools[0]) != diff_module._equal_key(
        side("b", shared + " b").tools[0]
    )


def test_bench_reads_a_long_description_a_piece_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from catalint.selector import document, tokens

    text = "getWeather for cities; list_forecasts, the URLsToFetch and queries. " * 40
    expected = Counter(tokens(text))
    monkeypatch.setattr(text_module, "PIECE", 16)
    monkeypatch.setattr(selector_module, "PIECE", 16)
    doc = document("", text)
    assert doc.tf == expected and list(doc.tf) == list(dict.fromkeys(tokens(text)))
    assert doc.length == len(tokens(text))


_CASED = [*"aΣσςİIıiΑß ẞﬁ \n\t.,'Ǆǅ", "ΌΣ ", "Σ.", " Σ", "ΣΑΣ ", "\u0345", "\u00ad", "A\u0301Σ "]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_CASED), max_size=80).map("".join))
def test_lower_and_casefold_a_piece_at_a_time_match_the_whole_text(text: str) -> None:
    # a final sigma is the one letter whose lower case depends on its neighbours; white space ends its word
    from catalint.text import casefold, lower

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(text_module, "PIECE", 8)
        assert lower(text) == text.lower()
        assert casefold(text) == text.casefold()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*"ab 天气获取ｒＡé中", " [tag] ", "`code`", "https://x.y/z ", "EnvId "]), max_size=60))
def test_wide_letters_are_counted_once_per_character_in_a_long_text(parts: list[str]) -> None:
    from catalint.text import mostly_latin, weighted_length

    text = "".join(parts)
    whole = (weighted_length(text), mostly_latin.__wrapped__(text))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(text_module, "PIECE", 4)
        assert (weighted_length(text), mostly_latin.__wrapped__(text)) == whole


def test_prose_with_no_look_alike_letter_is_not_read_word_by_word() -> None:
    from catalint.rules.security.hidden import look_alike

    assert look_alike("获取 城市的 天气 weather " * 1000, prose=True) is None
    assert look_alike("天气 r\u0435ad the file", prose=True) == ("r\u0435ad", "\u0435")  # a Cyrillic е
    assert look_alike("Hᴇʟʟᴏ world", prose=True) is None  # small capitals are written in prose for real


# -- names of megabytes: walked once, quoted clipped ------------------------------------------------------------


def test_a_long_property_name_is_walked_but_not_copied_into_thousands_of_pointers() -> None:
    """5,000 properties under a 100,000-character name: every pointer repeats the name (500 MB). A pointer
    past LONG_POINTER characters costs the walk more than one node, so a few are walked."""
    from catalint.schema_walk import LONG_POINTER, MAX_NODES, walk

    name = "k" * 100_000
    inner = {"type": "object", "properties": {f"a{i}": {"type": "string"} for i in range(5000)}}
    nodes = walk({"type": "object", "properties": {name: inner}}, "/tools/0/inputSchema")
    assert [n.name for n in nodes[:3]] == [None, name, "a0"]
    assert 3 <= len(nodes) <= 20 and sum(len(n.pointer) for n in nodes) < 2_000_000
    # names of ordinary length cost nothing more: every property of a wide schema is walked
    wide = {
        "type": "object",
        "properties": {"p" * (LONG_POINTER - 60) + str(i): {"type": "string"} for i in range(5000)},
    }
    assert len(walk(wide, "/tools/0/inputSchema")) == 5001 < MAX_NODES
    # a name of megabytes is still walked: its own findings are reported
    assert [n.name for n in walk({"properties": {"x" * 5_000_000: {}}}, "")] == [None, "x" * 5_000_000]


def test_a_finding_keeps_at_most_max_shown_characters_of_a_name_or_message() -> None:
    from catalint.config import Settings
    from catalint.engine import MAX_SHOWN, lint_catalog

    name, key = "t" * 5000, "k" * 5000
    tool = {"name": name, "description": "Get it.", "inputSchema": {"type": "object", "properties": {key: {}}}}
    catalog = load_text(json.dumps({"tools": [tool]}), "t.json", "t.json")
    result = lint_catalog(catalog, Settings())
    assert result.findings
    for finding in result.findings:
        assert finding.tool == name[: MAX_SHOWN - 1] + "…"
        assert len(finding.message) <= MAX_SHOWN and len(finding.suggestion or "") <= MAX_SHOWN
    long = [f for f in result.findings if len(f.message) == MAX_SHOWN]
    assert all(f.message.endswith("…") for f in long) and any(key[:100] in f.message for f in long)
    assert any(f.pointer.endswith("/" + key) for f in result.findings)  # pointers stay whole: they locate


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in kilobytes is Linux's")
@pytest.mark.parametrize("shape", ["long name, many findings", "long key over many properties"])
def test_a_long_name_does_not_multiply_into_the_report(tmp_path: Path, shape: str) -> None:
    """A 5 MB tool name quoted by 60 findings made a 635 MB report and took 1.9 GB; 5,000 properties under
    a 100 KB key (a 244 KB file) took 820 MB and wrote 100 MB."""
    if shape.startswith("long name"):
        props = {f"a{i}": {"type": "string"} for i in range(60)}
        tool = {
            "name": "t" * 5_000_000,
            "description": "Get it.",
            "inputSchema": {"properties": props, "required": list(props)},
        }
    else:
        inner = {"type": "object", "properties": {f"a{i}": {"type": "string"} for i in range(5_000)}}
        tool = {"name": "t", "description": "Get it.", "inputSchema": {"properties": {"k" * 100_000: inner}}}
    write(tmp_path / "t.json", json.dumps({"tools": [tool]}))
    command = [
        sys.executable,
        "-m",
        "catalint",
        "lint",
        "--exit-zero",
        "--output-format",
        "json",
        "-o",
        "r.json",
        "t.json",
    ]
    assert _peak_mb(command, tmp_path) < 150
    assert (tmp_path / "r.json").stat().st_size < 30_000_000


def test_diff_keeps_the_pointers_it_shows_and_counts_the_rest() -> None:
    """5,000 changed properties under a 100,000-character name: every change's pointer held the name (500 MB)."""
    key = "k" * 100_000

    def side(kind: str) -> Any:
        props = {key: {"type": "object", "properties": {f"a{i}": {"type": kind} for i in range(5_000)}}}
        tool = {"name": "t", "description": "Get it.", "inputSchema": {"type": "object", "properties": props}}
        return load_text(json.dumps({"tools": [tool]}), "t.json", "t.json").tools[0]

    old, new = side("string"), side("integer")
    kept, total = diff_module._schema_changes(old, new, diff_module.SCHEMA_POINTER_CAP)
    assert total == 5_000 and kept == diff_module.schema_changes(old, new)[: diff_module.SCHEMA_POINTER_CAP]
    assert len(kept) == diff_module.SCHEMA_POINTER_CAP
    assert kept[0].pointer == f"/inputSchema/properties/{key}/properties/a0/type"


def test_one_rules_findings_on_a_tool_stop_at_max_hit_chars_of_pointers() -> None:
    """SCH-007's names under a 100 KB property name: 1,000 findings held 100 MB of pointers."""
    from catalint.config import Settings
    from catalint.engine import MAX_HIT_CHARS, lint_catalog

    key = "k" * 100_000
    inner = {"type": "object", "properties": {}, "required": [f"r{i}" for i in range(3000)]}
    tool = {"name": "t", "description": "Get it.", "inputSchema": {"type": "object", "properties": {key: inner}}}
    result = lint_catalog(load_text(json.dumps({"tools": [tool]}), "t.json", "t.json"), Settings(select=["SCH-007"]))
    (more,) = [f for f in result.findings if f.pointer == "/tools/0"]
    kept = [f for f in result.findings if f is not more]
    assert kept and sum(len(f.pointer) for f in kept) <= MAX_HIT_CHARS
    assert more.message == f"{len(kept)} and more findings of this rule on this tool: the rest are not reported"


def test_the_argument_walk_charges_long_pointers_it_keeps() -> None:
    """3,000 anyOf branches under a 100 KB property name: a pointer kept for each took 300 MB."""
    import tracemalloc

    from catalint.arguments import iter_arguments

    key = "k" * 100_000
    schema = {"type": "object", "properties": {key: {"anyOf": [{"type": "string"} for _ in range(3000)]}}}
    tool = load_text(json.dumps({"tools": [{"name": "t", "inputSchema": schema}]}), "t.json", "t.json").tools[0]
    tracemalloc.start()
    try:
        (argument,) = iter_arguments(tool)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert argument.name == key and peak < 20_000_000
