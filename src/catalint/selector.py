"""The deterministic lexical tool selector behind `catalint bench`.

It is a reproducible lower bound on how much selection signal a catalog's
names and descriptions carry, not a model of any agent: a real model reads
more than words. EXPLANATION below is the one place its rules are written down
(`catalint bench explain` prints it).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from catalint.text import PIECE, pieces

K1 = 1.2  # BM25 term-frequency saturation
B = 0.75  # BM25 length normalisation
NAME_WEIGHT = 2  # a name token counts as this many description tokens
STOP_WORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each either else etc few for from
    further get gets had has have having he her here hers herself him himself his how i if in into is it
    its itself just let lets may me might more most must my myself no nor not now of off on once only
    or other our ours ourselves out over own please same shall she should so some such than that the
    their theirs them themselves then there these they this those through to too under until up upon
    us use used uses using very via was we were what when where which while who whom why will with
    would you your yours yourself yourselves
    """.split()
)
# Words every tool could claim of itself: stop words too.
TOOL_WORDS = frozenset("tool tools thing things something operation operations perform performs function".split())
STOP_WORDS |= TOOL_WORDS
# A contentless description: every word of it is a stop word (the genericize mutation).
GENERIC_DESCRIPTION = "Use this tool to perform an operation."

# camelCase and an acronym before a word split ("getHTTPServer": get, http, server); an acronym's plural
# does not ("IDs", "DEXes", "URLsToFetch": ids, dexes, urls, to, fetch).
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])(?![A-Z]e?s(?![a-z]))")
_SPLIT = re.compile(r"[^0-9A-Za-z]+")


def stem(word: str) -> str:
    """A light plural stemmer: 'queries' -> 'query', 'boxes' -> 'box', 'files' -> 'file'."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def words(text: str) -> list[str]:
    """Lower-cased words of text, stop words kept; snake_case, camelCase, dots and hyphens split."""
    return [part.lower() for chunk in _SPLIT.split(text) if chunk for part in _CAMEL.split(chunk) if part]


def is_stop(word: str) -> bool:
    """Whether tokens() drops the (lower-cased) word: a stop word before or after stemming."""
    return word in STOP_WORDS or stem(word) in STOP_WORDS  # "functions" is a stop word too


def tokens(text: str) -> list[str]:
    """Lower-cased, stemmed content words of text; snake_case, camelCase, dots and hyphens split."""
    out = []
    for word in words(text):
        if word not in STOP_WORDS:
            stemmed = stem(word)
            if stemmed not in STOP_WORDS:
                out.append(stemmed)
    return out


@dataclass
class Document:
    """One tool as the selector sees it: weighted term counts and length."""

    tf: Counter[str]
    length: int


def document(name: str, description: str) -> Document:
    tf: Counter[str] = Counter()
    for word in tokens(name):
        tf[word] += NAME_WEIGHT
    if len(description) <= PIECE:
        tf.update(tokens(description))
        return Document(tf, sum(tf.values()))
    # A long text a piece at a time (no run of letters and digits crosses a cut), each distinct run split
    # and stemmed once, in the order of first use (so tf's terms come in the same order): no list of all
    # its words, and a repetitive text is quick.
    runs: Counter[str] = Counter()
    for piece in pieces(description):
        runs.update(_SPLIT.split(piece))
    for run, n in runs.items():
        if run:
            for word in tokens(run):
                tf[word] += n
    return Document(tf, sum(tf.values()))


class Index:
    """BM25 over a fixed set of documents. Statistics (document frequency, average
    length) are those of the documents it was built from; scoring a changed
    document against them is what lets a mutation re-score one tool only."""

    def __init__(self, docs: list[Document]) -> None:
        self.docs = docs
        n = len(docs)
        df: Counter[str] = Counter()
        for doc in docs:
            df.update(doc.tf.keys())
        self.idf = {t: math.log(1.0 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}
        self.avgdl = (sum(d.length for d in docs) / n) if n else 0.0
        self._columns: dict[str, dict[int, float]] = {}
        self._ceilings: dict[str, float] = {}
        self.postings: dict[str, list[int]] = {}
        for i, doc in enumerate(docs):
            for term in doc.tf:
                self.postings.setdefault(term, []).append(i)

    def column(self, term: str) -> dict[int, float]:
        """What term adds to the score of each document holding it (empty for a term none holds), for
        term-at-a-time scoring: made on first need and kept, so only the words of queries cost anything (every
        term of 2,000 tools of 5,000 distinct words each, made up front, took 110 s and 5.7 GB)."""
        found = self._columns.get(term)
        if found is None:
            docs = self.docs
            found = self._columns[term] = {i: self.score([term], docs[i]) for i in self.postings.get(term, ())}
        return found

    def ceiling(self, term: str) -> float:
        """The most term adds to any document's score, kept: a word in every tool has a value for each."""
        top = self._ceilings.get(term)
        if top is None:
            top = self._ceilings[term] = max(self.column(term).values(), default=0.0)
        return top

    def score(self, query: list[str], doc: Document) -> float:
        """BM25 of doc for the query's distinct terms; unknown terms add nothing."""
        norm = self._norm(doc)
        if norm is None:
            return 0.0
        total = 0.0
        for term in dict.fromkeys(query):
            tf = doc.tf.get(term)
            if tf:
                total += self.idf.get(term, 0.0) * tf * (K1 + 1.0) / (tf + norm)
        return total

    def _norm(self, doc: Document) -> float | None:
        """BM25's length normalisation of doc against the catalog's average; None when either is empty."""
        if not doc.length or not self.avgdl:
            return None
        return K1 * (1.0 - B + B * doc.length / self.avgdl)

    def term_scores(self, doc: Document) -> dict[str, float]:
        """What each of doc's terms adds to the score of a query that holds it (score sums these)."""
        norm = self._norm(doc)
        if norm is None:
            return {}
        idf = self.idf
        return {term: idf.get(term, 0.0) * tf * (K1 + 1.0) / (tf + norm) for term, tf in doc.tf.items()}

    def ranked(self, query: list[str]) -> list[tuple[float, int]]:
        """(score, tool index) of every tool sharing a term with the query, best first."""
        return self._best_first(query, {i for term in dict.fromkeys(query) for i in self.postings.get(term, ())})

    def _best_first(self, query: list[str], candidates: Iterable[int]) -> list[tuple[float, int]]:
        """(score, tool index) of the candidates that score above 0, best first, ties by index."""
        scored = [(self.score(query, self.docs[i]), i) for i in sorted(candidates)]
        scored = [(s, i) for s, i in scored if s > 0.0]
        scored.sort(key=lambda pair: (-pair[0], pair[1]))
        return scored

    def top_two(self, query: list[str]) -> tuple[tuple[float, int] | None, tuple[float, int] | None]:
        """The first two of ranked(query), scoring exactly only the tools that can be among them.

        Sums are first made term by term from the kept columns; they differ from score()
        only in the order of the additions, far less than the 1e-9 margin, so a tool whose rough sum is
        below the second-highest less that margin is beaten by two others and is not scored.
        """
        rough: dict[int, float] = {}
        for term in dict.fromkeys(query):
            for i, part in self.column(term).items():
                rough[i] = rough.get(i, 0.0) + part
        if len(rough) > 2:
            cut = sorted(rough.values(), reverse=True)[1] * (1.0 - 1e-9)
            rough = {i: v for i, v in rough.items() if v >= cut}
        scored = self._best_first(query, rough)
        return (scored[0] if scored else None), (scored[1] if len(scored) > 1 else None)


def best_rival(index: Index, query: list[str], own: int) -> tuple[float, int] | None:
    """The best pick other than tool own when it beats own (higher, or tied and earlier), else None.

    Scores are summed term by term from the kept columns; a term adds at
    most its ceiling (its largest contribution), so once the ceilings of the
    terms not yet read sum below own's score, a tool met only there cannot win
    and is not scored.
    """
    terms = [t for t in dict.fromkeys(query) if t in index.postings]
    ceilings = {t: index.ceiling(t) for t in terms}
    terms.sort(key=lambda t: -ceilings[t])
    mine = index.score(query, index.docs[own])
    rest = sum(ceilings.values())
    totals: dict[int, float] = {}
    for term in terms:
        column = index.column(term)
        if rest < mine:  # the rest cannot lift a tool not met yet to own's score
            for i in totals:
                totals[i] += column.get(i, 0.0)
        elif not totals:
            totals = dict(column)  # 0.0 + value is value: the same sums as below
        else:
            for i, value in column.items():
                totals[i] = totals.get(i, 0.0) + value
        rest -= ceilings[term]
    own_total = totals.pop(own, None)
    top = max(totals.values(), default=0.0)
    if top <= 0.0:
        return None
    best = (top, min(i for i, total in totals.items() if total == top))
    if own_total is not None and not better(best, (own_total, own)):
        return None  # summed in the same order as the rival's, so ties compare exactly
    return best


def better(a: tuple[float, int], b: tuple[float, int] | None) -> bool:
    """Whether pick a beats pick b: a higher score, or the same score earlier in the catalog."""
    return b is None or a[0] > b[0] or (a[0] == b[0] and a[1] < b[1])


EXPLANATION = f"""The bench selector
==================
A deterministic lexical selector: for each intent it picks the tool whose name
and description best match the request. It is a reproducible lower bound on the
selection signal a catalog carries, not a claim about how any model chooses.

Tokens: names, descriptions and queries are split on everything but ASCII
letters and digits, snake_case, camelCase, dots and hyphens included (an
acronym's plural stays whole: "IDs", "DEXes"), then lower-cased; stop words
are dropped, before and after stemming ({len(STOP_WORDS - TOOL_WORDS)} common English words plus
{len(TOOL_WORDS)} that every tool could claim: "tool(s)", "thing(s)", "something",
"operation(s)", "perform(s)" and "function"); a light plural stemmer maps
"queries" to "query", "boxes" to "box" and "files" to "file". Nothing else is
normalised.

Document: a tool's name tokens count {NAME_WEIGHT} times each, its description tokens
once; the document length is that weighted count.

Score: BM25 with k1 = {K1} and b = {B} over the query's distinct tokens:
  idf(t) = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))
  score  = sum over t of idf(t) * tf(t) * (k1 + 1) / (tf(t) + k1 * (1 - b + b * len / avglen))
where N, df and avglen come from the unmutated catalog. A mutation changes one
tool's document and is scored against those same statistics, so it moves that
tool's scores and nothing else.

Pick: the highest score; a tie goes to the tool that comes first in the
catalog. A request that shares no token with any tool (every score 0) picks
nothing and counts as a miss. One pick per intent, so accuracy equals
selection F1. Mutations: blank removes the description; genericize replaces it
with "{GENERIC_DESCRIPTION}" (all stop words); truncate keeps the first
N characters; drop_keyword removes every whole-word, case-insensitive
occurrence of a word.

Accuracy comes with a 95% Wilson score interval (z = 1.959964).
"""
