"""`catalint bench`: how far tool selection drops when a description is damaged.

The baseline picks a tool for every intent with the lexical selector
(catalint.selector). Each mutation changes one tool's description; since the
selector's statistics stay those of the baseline, only that tool's scores move,
so a mutation is decided per intent from the baseline's best and runner-up picks
and the new score of the mutated tool. Cost grows with mutations x intents
(in practice, the intents that share a word with the tool), not with the tools.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from catalint.bench_spec import AUTO_TRUNCATE, KINDS, Intent, Mutation, Spec
from catalint.loader import LoadError
from catalint.model import SMELLS, Tool
from catalint.registry import all_rules, set_options
from catalint.selector import GENERIC_DESCRIPTION, Document, Index, better, document, tokens
from catalint.text import NAME_COLUMN, clip, pieces

Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal distribution
Pick = tuple[float, int]  # (score, tool index)


def wilson(correct: int, total: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (0, 1) when there are no trials."""
    if total <= 0:
        return 0.0, 1.0
    p = correct / total
    denom = 1.0 + z * z / total
    centre = (p + z * z / (2 * total)) / denom
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denom
    low = 0.0 if correct <= 0 else max(0.0, centre - half)  # exact at the ends, not 1e-18 off
    high = 1.0 if correct >= total else min(1.0, centre + half)
    return low, high


def mutate(tool: Tool, mutation: Mutation) -> Tool:
    """A copy of tool with its description changed as the mutation says."""
    raw = dict(tool.raw)
    text = raw.get("description") if isinstance(raw.get("description"), str) else ""
    if mutation.kind == "blank":
        raw.pop("description", None)
    elif mutation.kind == "genericize":
        raw["description"] = GENERIC_DESCRIPTION
    elif mutation.kind == "truncate":
        if isinstance(raw.get("description"), str):  # nothing to cut otherwise
            raw["description"] = text[: mutation.chars or 0]
    else:
        word = re.escape(mutation.word or "")
        dropped, n = re.subn(rf"(?<!\w){word}(?!\w)", "", text, flags=re.IGNORECASE)
        if n:  # else the word is absent and the description stays exactly as it was
            dropped = re.sub(r"[ \t]+([.,;:!?])", r"\1", re.sub(r"[ \t]{2,}", " ", dropped))
            raw["description"] = dropped.strip()
    return Tool(tool.index, tool.pointer, raw)


def catalog_smells(tools: list[Tool]) -> Counter[str]:
    """Findings of the catalog-scoped rules on by default (duplicate names and descriptions, naming), by smell:
    with every tool's smells_of, the count `catalint lint` gives the same catalog under default settings."""
    found: Counter[str] = Counter()
    for r in all_rules():
        if r.scope == "catalog" and r.default:
            hits = {(tool.index, hit.pointer) for tool, hit in r.check(tools)}  # type: ignore[arg-type]
            if hits:
                found[r.smell] += len(hits)
    return found


def smells_of(tool: Tool) -> Counter[str]:
    """Findings of the tool-scoped rules that are on by default, counted by smell."""
    found: Counter[str] = Counter()
    for r in _tool_rules():
        pointers = {hit.pointer for hit in r.check(tool)}  # type: ignore[arg-type]
        if pointers:
            found[r.smell] += len(pointers)
    return found


_TOOL_RULES: list[Any] = []


def _tool_rules() -> list[Any]:
    """The tool rules on by default, found once."""
    if not _TOOL_RULES:
        _TOOL_RULES.extend(r for r in all_rules() if r.scope == "tool" and r.default)
    return _TOOL_RULES


@dataclass
class Flip:
    query: str
    before: str | None
    after: str | None
    correct_before: bool
    correct_after: bool
    intent: int  # its index in the spec's intents (and the report's baseline picks)


@dataclass
class MutationResult:
    mutation: Mutation
    correct: int
    total: int
    baseline: int
    flips: list[Flip]
    smells_added: dict[str, int]
    tokens_removed: int | None
    whitespace_removed: int | None
    changed: bool = True  # False: the mutation left the tool as it was (a word it lacks, a cut past its end)

    @property
    def accuracy(self) -> float:
        return self.correct / self.total

    @property
    def drop(self) -> float:
        return (self.baseline - self.correct) / self.total


@dataclass
class Report:
    spec: Spec
    picks: list[str | None]
    correct: list[bool]
    tdqs_mean: float
    tdqs_min: float
    smells: Counter[str]
    tokens: int | None
    whitespace_tokens: int | None
    mutations: list[MutationResult] = field(default_factory=list)
    auto: bool = False
    notices: list[str] = field(default_factory=list)  # for stderr: spec mutations that change nothing

    @property
    def baseline_correct(self) -> int:
        return sum(self.correct)

    @property
    def total(self) -> int:
        return len(self.correct)

    def largest_drop_value(self) -> float:
        """The largest drop, 0 when there are no mutations."""
        largest = self.largest_drop()
        return 0.0 if largest is None else largest.drop

    def largest_drop(self) -> MutationResult | None:
        return max(self.mutations, key=lambda m: m.drop, default=None)

    def ranking(self) -> list[tuple[str, float, str]]:
        """Tools by how much selection depends on their description: (tool, largest drop, mutation)."""
        best: dict[str, MutationResult] = {}
        for m in self.mutations:
            held = best.get(m.mutation.tool)
            if held is None or m.drop > held.drop:
                best[m.mutation.tool] = m
        order = {t.name: t.index for t in self.spec.catalog.tools}
        rows = [(tool, m.drop, m.mutation.label()) for tool, m in best.items()]
        rows.sort(key=lambda r: (-r[1], order.get(r[0], 0)))
        return rows


# The most postings a bench reads: for each intent, the tools holding each of its words (the baseline), and
# for each mutation, the intents holding each word of its tool (mutations re-score only those). Selection
# is exact, so this grows with tools x intents where they share words: 7,000 tools and 7,000 intents that
# all share one word (a 640 KB spec) read 49,007,000 and took a minute. The published benchmark (1,000
# tools x 1,000 intents x 4,000 mutations) reads 2,487,505 in 3 s.
MAX_WORK = 20_000_000
# The most flipped picks a report lists, over all its mutations. Each is a line of the report, so this bounds
# its size (100,000 flips of short queries make 18 MB of JSON): 1,900 mutations blanking a tool that 10,000
# intents picked (a 500 KB spec) read 19,000,000 postings, under MAX_WORK, and flipped every pick of every
# one: 24 GB, then killed. The published benchmark lists 1,345.
MAX_FLIPS = 100_000
# The most description text a spec's mutations leave, summed: each mutation tokenises, lints and counts the text
# it leaves (a truncation's first characters, the rest of a dropped keyword's description). 100 truncations that
# each kept most of a 1 MB description (a 1.1 MB spec) took 36 s. The published benchmark's leave 260,333.
# --auto is not held to it: it drops one keyword a gold tool, so its text is at most the catalog's.
MAX_MUTATED_TEXT = 16_000_000


def _too_much(spec: Spec, work: int, what: str) -> LoadError:
    return LoadError(
        spec.path,
        f"this bench would read {work:,} postings ({what}); catalint reads at most {MAX_WORK:,}: use fewer"
        " intents or mutations, or intents whose words fewer tools share",
    )


class Bench:
    """The baseline selection of a spec, ready to score mutations against."""

    def __init__(self, spec: Spec, select: bool = True) -> None:
        """select=False leaves the baseline selection to select(), for a caller that first checks the work
        its mutations will add."""
        self.spec = spec
        self.tools = spec.catalog.tools
        self.names = [t.name for t in self.tools]
        self.docs = [document(t.name, _text(t)) for t in self.tools]
        self.index = Index(self.docs)
        # distinct terms, in order: all BM25 reads, and not re-counted per mutation (a long query times many)
        self.queries = [list(dict.fromkeys(tokens(i.query))) for i in spec.intents]
        postings = self.index.postings
        self.work = sum(len(postings.get(term, ())) for query in self.queries for term in query)
        if self.work > MAX_WORK:
            raise _too_much(spec, self.work, "the tools holding each word of each intent")
        self.by_term: dict[str, list[int]] = {}
        for qi, query in enumerate(self.queries):
            for term in query:
                self.by_term.setdefault(term, []).append(qi)
        self.best: list[Pick | None] = []
        self.second: list[Pick | None] = []
        self.won: dict[int, list[int]] = {}  # tool index: the intents it is picked for
        if select:
            self.select()

    def select(self) -> None:
        """The baseline: each intent's best and second pick."""
        for qi, query in enumerate(self.queries):
            best, second = self.index.top_two(query)
            self.best.append(best)
            self.second.append(second)
            if best is not None:
                self.won.setdefault(best[1], []).append(qi)

    def name(self, pick: Pick | None) -> str | None:
        return None if pick is None else self.names[pick[1]]

    def is_correct(self, intent: Intent, pick: Pick | None) -> bool:
        return pick is not None and self.names[pick[1]] in intent.gold

    def baseline(self) -> tuple[list[str | None], list[bool]]:
        intents = self.spec.intents
        return [self.name(p) for p in self.best], [
            self.is_correct(i, p) for i, p in zip(intents, self.best, strict=True)
        ]

    def run_mutation(self, tool: Tool, mutated: Tool, baseline_correct: int) -> tuple[int, list[Flip]]:
        """Correct picks after the mutation, and the intents whose pick changed."""
        ti = tool.index
        new_doc: Document = document(mutated.name, _text(mutated))
        # A pick can change only where the tool was picked or where its new text matches: elsewhere it
        # scores 0 after the mutation and the pick stays (idf and average length are the catalog's).
        # Each matching intent's score is first summed term by term; one that stays clearly below the
        # pick it would have to beat is left there, the others are scored exactly (summed in query order).
        rough: dict[int, float] = dict.fromkeys(self.won.get(ti, ()), 0.0)
        parts = self.index.term_scores(new_doc)
        for term, part in parts.items():
            for qi in self.by_term.get(term, ()):
                rough[qi] = rough.get(qi, 0.0) + part
        correct = baseline_correct
        flips = []
        names, bests, seconds, queries = self.names, self.best, self.second, self.queries
        for qi in sorted(rough):
            best, second = bests[qi], seconds[qi]
            if best is not None and best[1] != ti and rough[qi] < best[0] * (1.0 - 1e-9):
                continue
            score = 0.0  # as Index.score sums it, in query order, from the same parts
            for term in queries[qi]:
                part = parts.get(term)
                if part is not None:
                    score += part
            mine = (score, ti) if score > 0.0 else None
            if best is not None and best[1] == ti:
                after = mine if mine is not None and better(mine, second) else second
            else:
                after = mine if mine is not None and better(mine, best) else best
            if after == best or (after is not None and best is not None and names[after[1]] == names[best[1]]):
                continue
            intent = self.spec.intents[qi]
            was, now = self.is_correct(intent, best), self.is_correct(intent, after)
            correct += int(now) - int(was)
            flips.append(Flip(intent.query, self.name(best), self.name(after), was, now, qi))
        return correct, flips


def _text(tool: Tool) -> str:
    return tool.description if isinstance(tool.description, str) else ""


def _left(tool: Tool, mutation: Mutation) -> int:
    """The most characters of description the mutation leaves the tool (what it then reads again)."""
    if mutation.kind == "blank":
        return 0
    if mutation.kind == "genericize":
        return len(GENERIC_DESCRIPTION)
    if mutation.kind == "truncate":
        return min(len(_text(tool)), mutation.chars or 0)
    return len(_text(tool))


def auto_mutations(spec: Spec, bench: Bench) -> list[Mutation]:
    """Every mutation kind on every gold tool; drop_keyword takes the description word that the
    tool's own intents share with it and that is rarest in the catalog."""
    asked: dict[str, list[int]] = {}  # each gold tool's intents, by index: not a copy of their words for each
    for i, intent in enumerate(spec.intents):
        for name in intent.gold:
            asked.setdefault(name, []).append(i)
    terms = [frozenset(query) for query in bench.queries]
    out: list[Mutation] = []
    for tool in spec.catalog.tools:
        if tool.name not in asked:
            continue
        for kind in KINDS:
            if kind == "truncate":
                out.append(Mutation(tool.name, kind, chars=AUTO_TRUNCATE))
            elif kind == "drop_keyword":
                word = _key_word(bench, tool, [terms[i] for i in asked[tool.name]])
                if word is not None:
                    out.append(Mutation(tool.name, kind, word=word))
            else:
                out.append(Mutation(tool.name, kind))
    return out


_WORD = re.compile(r"\w+")


def _key_word(bench: Bench, tool: Tool, queries: list[frozenset[str]]) -> str | None:
    """The word of tool's description that its intents' queries (their terms) use and that is rarest in the
    catalog."""
    words: list[tuple[str, str]] = []  # each word once, with its one stem: a word said again cannot beat itself
    seen: set[str] = set()
    for piece in pieces(_text(tool)):  # no word crosses a cut: no list of every word of a long text
        for word in _WORD.findall(piece):
            if word in seen:
                continue
            seen.add(word)
            stems = tokens(word)
            if len(stems) == 1:
                words.append((word, stems[0]))
    own = {stem for _, stem in words}
    # the stems the queries share with the description; & reads the smaller side: 4 intents of 5,000 words, each
    # naming all 5,000 tools as gold, once held a copy of every query for each tool (2.5 GB)
    used: set[str] = set()
    for query in queries:
        used |= query & own
    best: tuple[float, str] | None = None
    for word, stem in words:
        if stem in used:
            idf = bench.index.idf.get(stem, 0.0)
            if best is None or idf > best[0]:
                best = (idf, word.lower())
    return None if best is None else best[1]


def run(spec: Spec, auto: bool = False, with_tokens: bool = True) -> Report:
    """The whole benchmark: baseline, then every mutation (the spec's, or --auto's)."""
    from catalint.tdqs import mean_score, score

    bench = Bench(spec, select=False)
    tools = spec.catalog.tools
    auto = auto or spec.mutations is None
    mutations = auto_mutations(spec, bench) if auto else (spec.mutations or [])
    by_name = {}
    for t in tools:
        by_name.setdefault(t.name, t)
    by_term = bench.by_term
    work = bench.work + sum(
        len(by_term.get(term, ())) for m in mutations for term in bench.docs[by_name[m.tool].index].tf
    )
    if work > MAX_WORK:  # before any selection
        raise _too_much(spec, work, "with the intents holding each word of each mutated tool")
    text = 0 if auto else sum(_left(by_name[m.tool], m) for m in mutations)
    if text > MAX_MUTATED_TEXT:
        raise LoadError(
            spec.path,
            f"this bench's mutations would leave {text:,} characters of description to read (each lints and"
            f" counts what it leaves); catalint reads at most {MAX_MUTATED_TEXT:,}: use fewer mutations of long"
            " descriptions",
        )
    bench.select()
    picks, correct = bench.baseline()
    # as `catalint lint` gives the tool rules, with default budgets and the rules on by default
    set_options({"catalog_tools": tools, "rules": frozenset(r.code for r in _tool_rules())})
    scores = [score(t).score for t in tools]
    smells: Counter[str] = Counter()
    original_smells = {}
    for t in tools:
        original_smells[t.index] = smells_of(t)
        smells += original_smells[t.index]
    smells += catalog_smells(tools)
    count = None
    total_tokens = whitespace = None
    if with_tokens:
        from catalint.tokens import count

        total_tokens = sum(count(t).total for t in tools)
        whitespace = sum(count(t).whitespace for t in tools)
    report = Report(
        spec,
        picks,
        correct,
        mean_score(scores) if scores else 0.0,
        round(min(scores), 4) if scores else 0.0,
        smells,
        total_tokens,
        whitespace,
        auto=auto,
    )
    baseline_correct = sum(correct)
    listed = 0  # flips so far
    for i, mutation in enumerate(mutations):
        tool = by_name[mutation.tool]
        mutated = mutate(tool, mutation)
        changed = mutated.raw != tool.raw
        if not changed:
            if report.auto:  # --auto's own no-ops (a short description, none at all) are noise
                continue
            line, col = spec.mutation_starts[i] if i < len(spec.mutation_starts) else (1, 1)
            report.notices.append(
                f"{spec.path}:{line}:{col}: notice: {mutation.tool} {mutation.label()} changes nothing: "
                f"{_why_unchanged(tool, mutation)}"
            )
        right, flips = bench.run_mutation(tool, mutated, baseline_correct) if changed else (baseline_correct, [])
        listed += len(flips)
        if listed > MAX_FLIPS:  # refused as soon as it is over, before the rest run
            where = spec.mutation_starts[i] if not report.auto and i < len(spec.mutation_starts) else (None, None)
            label = clip(f"{mutation.tool} {mutation.label()}", NAME_COLUMN)
            raise LoadError(
                spec.path,
                f"this bench would list over {MAX_FLIPS:,} flipped picks ({listed:,} by mutation {i + 1:,},"
                f" {label}); catalint lists at most {MAX_FLIPS:,}: use fewer intents or mutations",
                *where,
            )
        after = smells_of(mutated)
        added = {
            s: after[s] - original_smells[tool.index][s] for s in SMELLS if after[s] > original_smells[tool.index][s]
        }
        removed = whitespace_removed = None
        if count is not None:
            before_tokens, after_tokens = count(tool), count(mutated)  # a tool's own count is kept in its cache
            removed = before_tokens.total - after_tokens.total
            whitespace_removed = before_tokens.whitespace - after_tokens.whitespace
        report.mutations.append(
            MutationResult(
                mutation, right, len(correct), baseline_correct, flips, added, removed, whitespace_removed, changed
            )
        )
    return report


def _why_unchanged(tool: Tool, mutation: Mutation) -> str:
    if mutation.kind == "blank":
        return "the tool has no description"
    if mutation.kind == "truncate":
        return f"its description is {len(_text(tool))} characters, no longer than {mutation.chars}"
    if mutation.kind == "drop_keyword":
        word = clip(mutation.word or "", NAME_COLUMN)  # a notice is one line, however long the word
        return f"{word!r} is not a word of its description (matched whole, ignoring case)"
    return "its description is already the generic one"
