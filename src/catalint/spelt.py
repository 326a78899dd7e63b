"""Which of many names a text spells out as whole words, ignoring case, in one pass over the text.

A name is spelt out where its lower-case form appears in the lower-cased text with no ASCII letter,
digit or underscore right before or right after it: `web_search` in "use web_search.", `search.web`
in "(search.web)", but not `search` in "web_search", nor `-x` in "a-x". Names may hold any
character (dots, dashes, spaces, any script).

Both sides are cut into tokens: each maximal run of word characters ([a-z0-9_] once lowered) is one
token, and every other character is a token of its own. A name that is spelt out covers whole
tokens of the text, so it is a run of the text's tokens. The conditions at its edges become tokens
too: _OPEN stands before a non-word token that follows no word token (or starts the text), _CLOSE
after one that precedes none (or ends it). A name is read as if alone, so one that starts (ends)
with a non-word character starts with _OPEN (ends with _CLOSE), and the text has that marker there
exactly when nothing from [a-z0-9_] touches the name: the name is spelt out if and only if its
token sequence occurs in the text's. An Aho-Corasick automaton over tokens finds every name in one
pass, in time linear in the text and the names' length, however many names share a prefix or
overlap.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator

_OPEN, _CLOSE = 0, 1  # markers: ints, never equal to a token (a string)
_TOKEN = re.compile(r"[a-z0-9_]+|[^a-z0-9_]")
_WORDS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")  # [A-Za-z0-9_], in lower-cased text
Item = str | int


def _items(tokens: list[tuple[str, bool]]) -> Iterator[Item]:
    """The tokens of a lone name (token, is a word run) with their edge markers."""
    last = len(tokens) - 1
    for i, (token, word) in enumerate(tokens):
        if not word and (i == 0 or not tokens[i - 1][1]):
            yield _OPEN
        yield token
        if not word and (i == last or not tokens[i + 1][1]):
            yield _CLOSE


class _Automaton:
    """Aho-Corasick over token sequences: which of the sequences occur in a stream of items."""

    def __init__(self, patterns: Iterable[list[Item]]) -> None:
        self.goto: list[dict[Item, int]] = [{}]
        self.ends: list[int] = []  # each pattern's final state
        for pattern in patterns:
            state = 0
            for item in pattern:
                nxt = self.goto[state].get(item)
                if nxt is None:
                    nxt = self.goto[state][item] = len(self.goto)
                    self.goto.append({})
                state = nxt
            self.ends.append(state)
        self.fail = [0] * len(self.goto)
        self.order: list[int] = []  # states, shallowest first
        queue = deque(self.goto[0].values())
        while queue:
            state = queue.popleft()
            self.order.append(state)
            for item, nxt in self.goto[state].items():
                back = self.fail[state]
                while back and item not in self.goto[back]:
                    back = self.fail[back]
                self.fail[nxt] = self.goto[back].get(item, 0)
                queue.append(nxt)

    def step(self, state: int, item: Item) -> int:
        goto, fail = self.goto, self.fail
        while state and item not in goto[state]:
            state = fail[state]
        return goto[state].get(item, 0)

    def reached(self, visited: set[int]) -> list[bool]:
        """For each state, whether the stream passed through it or through a state it is a suffix of."""
        hit = [False] * len(self.goto)
        for state in visited:
            hit[state] = True
        for state in reversed(self.order):  # deepest first: a state's fail link is shallower
            if hit[state]:
                hit[self.fail[state]] = True
        return hit


def spelt_out(text: str, names: Iterable[str]) -> set[str]:
    """The names (non-empty ones) that text spells out as whole words, ignoring case (see the module)."""
    by_lowered: dict[str, list[str]] = {}
    for name in names:
        if name:
            by_lowered.setdefault(name.lower(), []).append(name)
    if not by_lowered:
        return set()
    lowered_names = list(by_lowered)
    token_lists = [[(t, t[0] in _WORDS) for t in _TOKEN.findall(n)] for n in lowered_names]
    automaton = _Automaton(list(_items(tokens)) for tokens in token_lists)
    words = {t for tokens in token_lists for t, word in tokens if word}
    others = {t for tokens in token_lists for t, word in tokens if not word}
    visited = _scan(text.lower(), automaton, words, others)
    hit = automaton.reached(visited)
    found = [lowered for lowered, end in zip(lowered_names, automaton.ends, strict=True) if hit[end]]
    return {name for lowered in found for name in by_lowered[lowered]}


def _scan(text: str, automaton: _Automaton, words: set[str], others: set[str]) -> set[int]:
    """The automaton's states after each item of text's stream. Only the tokens some name holds are
    visited one by one; any other stretch of text resets the automaton, as no name runs across it."""
    chars = "".join(re.escape(c) for c in sorted(others))
    tokens = re.compile(r"[a-z0-9_]+" + (f"|[{chars}]" if chars else ""))
    size = len(text)
    visited: set[int] = set()
    step, seen = automaton.step, visited.add
    state, end = 0, -1
    for match in tokens.finditer(text):
        token = match.group()
        start = match.start()
        word = token[0] in _WORDS
        if word and token not in words:
            state = 0
            continue
        if start != end:  # something no name holds came between
            state = 0
        end = match.end()
        if word:
            state = step(state, token)
            seen(state)
            continue
        if start == 0 or text[start - 1] not in _WORDS:
            state = step(state, _OPEN)
            seen(state)
        state = step(state, token)
        seen(state)
        if end == size or text[end] not in _WORDS:
            state = step(state, _CLOSE)
            seen(state)
    return visited
