"""Compare two catalogs: tools added, removed, renamed and changed; scores, tokens and findings.

Findings are matched by (rule code, tool name, pointer inside the tool), never by
line: a tool that moves in the file, or to another place in the tools array,
keeps its findings. The same matching backs `catalint lint --baseline`.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import subprocess
from collections import Counter
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from catalint.arguments import top_level_properties
from catalint.config import Settings
from catalint.engine import FileResult, ToolResult, lint_catalog
from catalint.loader import MAX_FILE_BYTES, LoadError, decode_bytes, load_path, load_text, read_text
from catalint.model import Catalog, Finding, Tool
from catalint.sourcemap import join_pointer, pointer_in_tool, resolve_pointer
from catalint.tdqs import mean_score
from catalint.tdqs import score as tdqs_score
from catalint.text import casefold, clip_folded, fold_space, last_space, next_space, word_count
from catalint.tokens import count
from catalint.twins import Twins, identical

RENAME_SIMILARITY = 0.6  # word-level similarity of two descriptions from which a removed+added pair is a rename
# A rename whose schema also changed must look more alike: a description this similar, and at least
# this share of the argument names in common (of all names on either side; no arguments on both: 1).
EDITED_RENAME_SIMILARITY = 0.8
EDITED_RENAME_SHARED_ARGUMENTS = 0.5
MAX_RENAME_COMPARISONS = 50_000  # description pairs compared in one diff (about 2 s); past it only equal ones pair
# Words of one side times words of the other, summed over the groups compared: what comparing every pair
# may cost (long descriptions that are shuffles of one another took 29 s in 40,000 pairs).
MAX_RENAME_WORDS = 100_000_000  # 100 x 100 shuffles of 100 words: about 2 s
# Words of a description that rename matching compares (equal descriptions still pair on all their words):
# a list of every word of a 60 MB description took 700 MB.
RENAME_WORDS = 100_000
SCHEMA_POINTER_CAP = 20  # schema pointers kept per changed tool
DIFF_WIDTH = 200  # characters of a description word diff
CONTEXT_WORDS = 3  # unchanged words kept on each side of a change
CHANGE_WIDTH = 80  # characters kept of one removed or added run of words
LONG_DIFF = 1 << 17  # characters of both descriptions from which word_diff splits only what changed
MAX_DIFF_WORDS = 100_000  # words of a long description's changed part that are matched; past it, replaced whole
_BLOCK = 4096  # characters compared at once when looking for the start and end two texts share
# Work one comparison of two word lists may take (find_longest_match's loops, counted before they run):
# MATCH_WORK_PER_WORD for every word of either side, plus MATCH_WORK_BASE (a unit is about 70 ns). difflib's
# matching is cubic on repetitive text ("a b a b ..." against "b a c b a c ...": 1,600 and 2,400 words took
# 33 s); real descriptions take up to 25 a word (a 550-word one; 9 for the longest, 940 words).
MATCH_WORK_PER_WORD = 50
MATCH_WORK_BASE = 2_000
MAX_RENAME_MATCH_WORK = 5_000_000  # such work in the rename comparisons of one diff (about 0.4 s)
_ABSENT = ""  # canonical text of a missing member (no JSON value serialises to "")

Key = tuple[str, str, str]  # rule code, tool name, pointer inside the tool


# Loading a side ------------------------------------------------------------------------------------------------


def load_side(spec: str, cwd: Path) -> Catalog:
    """A catalog from a file path, '-' (standard input), or REV:path: the file at a git revision.

    X:Y is a revision only when no file X:Y exists and X is not a drive letter.
    """
    if spec == "-":
        return load_path("-")
    rev, colon, path = spec.partition(":")
    if colon and rev and not path.strip() and len(rev) > 1 and not os.path.exists(cwd / spec):
        raise LoadError(spec, f"no path after the revision {rev!r}: write REV:path, such as HEAD~1:tools.json")
    if not is_file_side(spec, cwd):
        rev, _, path = spec.partition(":")
        return _load_revision(rev, path, cwd, spec)
    return _load_file(spec, cwd)


def is_file_side(spec: str, cwd: Path) -> bool:
    """Whether a side is a file path (not '-', not REV:path)."""
    if spec == "-":
        return False
    rev, colon, path = spec.partition(":")
    is_drive = len(rev) == 1 and rev.isascii() and rev.isalpha()
    return not (
        colon and rev and path and not is_drive and not os.path.exists(cwd / spec)
    )  # os.path: no raise on a long name


def _load_file(spec: str, cwd: Path) -> Catalog:
    target = cwd / spec
    return load_text(read_text(str(target), spec), str(target), spec)


MAX_LINK_HOPS = 8  # symbolic links followed in a row at a revision


def _load_revision(rev: str, path: str, cwd: Path, spec: str, known: dict[str, str] | None = None) -> Catalog:
    """The file at path (relative to cwd, or absolute) as committed at rev; shown as path@rev. known: the
    repository's top and cwd's prefix in it, where a caller asks for many files (see _in_repository)."""
    if rev.startswith("-"):  # git would read it as an option of cat-file (--batch-check=..., --output=...)
        raise LoadError(spec, f"{rev!r} is not a git revision: a revision cannot begin with '-'")
    # git prints paths as the bytes the file system holds: decoded as Python decodes file names (os.fsdecode,
    # surrogateescape), a folder whose name is not UTF-8 goes back to git as the same bytes
    rel = _in_repository(path, cwd, spec, known)
    display = f"{path}@{rev}"
    for _ in range(MAX_LINK_HOPS + 1):
        obj = f"{rev}:{rel}"
        kind = _git(["cat-file", "-t", obj], cwd, spec).decode().strip()
        if kind != "blob":
            raise LoadError(spec, f"{path} is a {kind} at {rev}, not a file")
        size = int(_git(["cat-file", "-s", obj], cwd, spec).decode().strip() or 0)
        if size > MAX_FILE_BYTES:
            raise LoadError(display, f"file is over {MAX_FILE_BYTES // 2**20} MiB, the most catalint reads")
        data = _git(["cat-file", "blob", obj], cwd, spec)
        # a symbolic link is committed as a blob holding its target's path: read the target, as a checkout would
        maybe_link = size < 4096 and b"\n" not in data  # a link's blob is one line: its target's path
        mode = _git(["ls-tree", "-z", rev, "--", f":(top,literal){rel}"], cwd, spec)[:6] if maybe_link else b""
        if mode != b"120000":
            return load_text(decode_bytes(data, display), str(cwd / path), display)
        # the target from the top of the repository: relative to the link's folder, or a whole path into it
        top = _rev_parse("--show-toplevel", cwd, spec, known)
        target = posixpath.normpath(posixpath.join(top, posixpath.dirname(rel), os.fsdecode(data)))
        rel = posixpath.relpath(target, top)
        if rel == ".." or rel.startswith("../"):
            raise LoadError(display, f"a symbolic link at {rev} to {os.fsdecode(data)!r}, outside the repository")
    raise LoadError(display, f"more than {MAX_LINK_HOPS} symbolic links in a row at {rev}")


def _in_repository(path: str, cwd: Path, spec: str, known: dict[str, str] | None = None) -> str:
    """path (relative to cwd, or absolute) from the top of its git repository. known keeps what git said of
    the top and of cwd's prefix, for the next path."""
    if os.path.isabs(path):
        top = _rev_parse("--show-toplevel", cwd, spec, known)
        where = Path(path).parent.resolve() / Path(path).name  # git reports the top level with links resolved
        rel = Path(os.path.relpath(where, top)).as_posix()
    else:
        prefix = _rev_parse("--show-prefix", cwd, spec, known)
        rel = posixpath.normpath(posixpath.join(prefix, Path(path).as_posix()))
    if rel == ".." or rel.startswith("../"):
        raise LoadError(spec, f"{path} is outside the git repository")
    return rel


def _rev_parse(option: str, cwd: Path, spec: str, known: dict[str, str] | None) -> str:
    """git rev-parse option (--show-toplevel, --show-prefix), from known when it holds it."""
    if known is not None and option in known:
        return known[option]
    said = _git_path(_git(["rev-parse", option], cwd, spec))
    if known is not None:
        known[option] = said
    return said


class AtRevision:
    """Each linted file as it was at a git revision, for --baseline-rev: at its own path, or at the one git
    sees it moved from since (its rename detection, from rev to the working tree: the same content, or
    mostly, under a new name). None for a file new since rev. problem says why git could not be asked
    about moves, when it could not (each moved file then counts as new)."""

    def __init__(self, rev: str, cwd: Path) -> None:
        self.rev = rev
        self.cwd = cwd
        self.problem: str | None = None
        self.unread: dict[str, str] = {}  # a linted file whose version at rev is there but could not be read: why
        self._known: dict[str, str] = {}  # the repository's top and cwd's prefix, asked once a run
        self._renames: dict[str, str] | None = None  # new path -> old path, from the top of the repository

    def __call__(self, file: str) -> Catalog | None:
        try:
            rel = self._rel(file)
        except LoadError as exc:  # outside the repository: every finding is new, and the run says why
            self.unread[file] = exc.message
            return None
        try:
            return self._load(rel)  # its own version: no git diff for an unmoved file
        except LoadError as exc:
            if _git_succeeds(["cat-file", "-e", f"{self.rev}:{rel}"], self.cwd):  # there, and unreadable
                self.unread[file] = exc.message
                return None
        try:
            old = self.renames().get(rel)
            return None if old is None else self._load(old)
        except LoadError as exc:
            self.unread[file] = exc.message
            return None

    def path_at(self, file: str) -> str | None:
        """The absolute path whose version at rev stands for file: its own, or the one git sees it moved
        from; None for a file new since rev (or outside the repository)."""
        try:
            rel = self._rel(file)
            if not _git_succeeds(["cat-file", "-e", f"{self.rev}:{rel}"], self.cwd):
                rel = self.renames().get(rel, "")
            return os.path.join(self.top(), rel) if rel else None
        except LoadError:
            return None

    def _rel(self, file: str) -> str:
        return _in_repository(file, self.cwd, file, self._known)

    def top(self) -> str:
        """The repository's top folder (git asked once a run)."""
        return _rev_parse("--show-toplevel", self.cwd, self.rev, self._known)

    def _load(self, rel: str) -> Catalog:
        return _load_revision(self.rev, os.path.join(self.top(), rel), self.cwd, f"{self.rev}:{rel}", self._known)

    def renames(self) -> dict[str, str]:
        if self._renames is None:
            self._renames = {}
            # -z: paths as they are; -l0: no limit on the pairs compared (1,100 moved catalogs were past git's
            # default, and counted as new), so only JSON and YAML files are compared; a user's git config (an
            # external diff, diff.relative, diff.orderFile) changes nothing
            args = ["diff", "--no-ext-diff", "--no-relative", "--no-color", f"-O{os.devnull}", "--find-renames"]
            args += ["-l0", "--name-status", "-z", self.rev, "--", *_CATALOG_PATHSPECS]
            try:
                fields = _git(args, self.cwd, self.rev).split(b"\0")
            except LoadError as exc:
                self.problem = exc.message
                return self._renames
            at = 0
            while at + 1 < len(fields):
                status = fields[at][:1]
                if status in (b"R", b"C"):  # status, old path, new path
                    if status == b"R" and at + 2 < len(fields):
                        self._renames[os.fsdecode(fields[at + 2])] = os.fsdecode(fields[at + 1])
                    at += 3
                else:
                    at += 2
        return self._renames


_CATALOG_PATHSPECS = (":(top,icase)*.json", ":(top,icase)*.yaml", ":(top,icase)*.yml")


def _git_succeeds(args: list[str], cwd: Path) -> bool:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False).returncode == 0
    except OSError:
        return False


def _git_path(output: bytes) -> str:
    """A path git printed on a line of its own."""
    return os.fsdecode(output.removesuffix(b"\n").removesuffix(b"\r"))


def _git(args: list[str], cwd: Path, spec: str) -> bytes:
    """git's standard output; its failure becomes a LoadError naming spec."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as exc:
        raise LoadError(spec, f"cannot run git: {exc.strerror or exc}") from None
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines() or [f"git {args[0]} failed"]
        message = next((line for line in lines if line.startswith("fatal: ")), lines[0])
        raise LoadError(spec, f"git: {message.removeprefix('fatal: ')}")
    return done.stdout


# Comparing -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolState:
    """One tool on one side of the diff."""

    result: ToolResult
    tokens: int
    scored: bool = True  # False: an ignore of ALL covers it, and the mean leaves it out

    @property
    def tool(self) -> Tool:
        return self.result.tool

    @property
    def name(self) -> str:
        return self.result.tool.name

    @property
    def score(self) -> float:
        return (self.result.score or tdqs_score(self.tool)).score


@dataclass(frozen=True)
class SchemaChange:
    pointer: str  # inside the tool: /inputSchema/properties/q
    kind: str  # added, removed or changed
    value: str | None = None  # a set-like list's (required, enum, type) member added or removed, as JSON text


@dataclass
class ToolChange:
    """A tool on both sides (under one name, or renamed) and what differs."""

    base: ToolState
    head: ToolState
    description: str | None  # word diff; None when the description is unchanged
    schema: list[SchemaChange]  # the first SCHEMA_POINTER_CAP pointers
    schema_total: int
    fields: list[str]  # other members of the tool object that differ

    @property
    def renamed(self) -> bool:
        return self.base.name != self.head.name

    @property
    def changed(self) -> bool:
        return self.renamed or self.description is not None or bool(self.schema_total or self.fields)

    @property
    def score_delta(self) -> float:
        return round(self.head.score - self.base.score, 4)

    @property
    def token_delta(self) -> int:
        return self.head.tokens - self.base.tokens


@dataclass
class CatalogDiff:
    base: Catalog
    head: Catalog
    before: list[ToolState]  # every tool of base, in file order
    after: list[ToolState]
    added: list[ToolState]
    removed: list[ToolState]
    changes: list[ToolChange]  # renames, and tools under one name that differ
    introduced: list[Finding]  # findings of head
    fixed: list[Finding]  # findings of base

    @property
    def renamed(self) -> list[ToolChange]:
        return [c for c in self.changes if c.renamed]

    @property
    def mean_score_before(self) -> float | None:
        return _mean(self.before)

    @property
    def mean_score_after(self) -> float | None:
        return _mean(self.after)

    @property
    def tokens_before(self) -> int:
        return sum(s.tokens for s in self.before)

    @property
    def tokens_after(self) -> int:
        return sum(s.tokens for s in self.after)


def _mean(states: list[ToolState]) -> float | None:
    return mean_score([s.score for s in states if s.scored])


@dataclass
class _Matching:
    same: list[tuple[Tool, Tool]]  # base and head tool under one name
    renamed: list[tuple[Tool, Tool]]
    removed: list[Tool]
    added: list[Tool]

    def new_names(self) -> dict[int, str]:
        """Head name of each renamed base tool, by base index."""
        return {old.index: new.name for old, new in self.renamed}


def compare(base: Catalog, head: Catalog, settings: Settings | None = None) -> CatalogDiff:
    """Everything that differs from base to head, each side linted with settings (the defaults if None).

    Only the findings introduced and fixed are located in their file (the others keep model.UNPLACED).
    """
    settings = settings or Settings()
    base_result, head_result, named, unchanged = lint_sides(base, head, settings, locate=False)
    states = []
    for side, result in ((as_file_of(base, head), base_result), (head, head_result)):
        left_out = settings.unscored(side, (tr.tool.name for tr in result.tools))
        states.append([ToolState(tr, count(tr.tool).total, tr.tool.name not in left_out) for tr in result.tools])
    before, after = states
    old_states = {s.tool.index: s for s in before}
    new_states = {s.tool.index: s for s in after}
    matching = _with_renames(named)
    changes = [
        _change(old_states[o.index], new_states[n.index])
        for o, n in matching.same + matching.renamed
        if n.index not in unchanged  # a twin has nothing to show
    ]
    changes = sorted((c for c in changes if c.changed), key=lambda c: (c.head.name, c.head.tool.index))
    introduced, fixed = _finding_delta(base_result, head_result, matching.new_names())
    for side, findings in ((head, introduced), (base, fixed)):
        for f in findings:
            f.span = side.locate(f.pointer)
    return CatalogDiff(
        base,
        head,
        before,
        after,
        sorted((new_states[t.index] for t in matching.added), key=_by_name),
        sorted((old_states[t.index] for t in matching.removed), key=_by_name),
        changes,
        introduced,
        fixed,
    )


def lint_sides(
    base: Catalog, head: Catalog, settings: Settings, locate: bool = True
) -> tuple[FileResult, FileResult, _Matching, set[int]]:
    """Both sides linted (tokens counted), the tools paired by name, and the indexes of head's twins:
    tools identical to their namesake in base, which take base's findings and are not linted again
    (twins.py). locate=False: the findings' spans are left UNPLACED."""
    named = _pair_names(base.tools, head.tools)
    pairs = {new.index: old.index for old, new in named.same if identical(old.raw, new.raw)}
    base_result = lint_catalog(as_file_of(base, head), settings, tokens=True, locate=locate)
    by_index = {tr.tool.index: tr for tr in base_result.tools}
    twins = Twins(base_result, settings, {new: by_index[old] for new, old in pairs.items()})
    head_result = lint_catalog(head, settings, tokens=True, twins=twins, locate=locate)
    return base_result, head_result, named, set(pairs)


def as_file_of(base: Catalog, head: Catalog) -> Catalog:
    """base, to be linted as head's file: the globs of per-file ignores and of per-tool `files` match it by
    head's path, as the config does head (an old copy, or the file before a rename, is the same catalog).
    Its report name and positions stay its own."""
    if head.path == "-" or base.path == head.path:
        return base
    return replace(base, path=head.path)


def _by_name(state: ToolState) -> tuple[str, int]:
    return state.name, state.tool.index


def _match(base: list[Tool], head: list[Tool]) -> _Matching:
    """Pair tools by name (the n-th tool of a repeated name with the n-th), then renames among the rest."""
    return _with_renames(_pair_names(base, head))


def _pair_names(base: list[Tool], head: list[Tool]) -> _Matching:
    """Pair tools by name (the n-th tool of a repeated name with the n-th); no renames yet."""
    unpaired: dict[str, list[Tool]] = {}
    for tool in head:
        unpaired.setdefault(tool.name, []).append(tool)
    same: list[tuple[Tool, Tool]] = []
    removed: list[Tool] = []
    for tool in base:
        namesakes = unpaired.get(tool.name)
        if namesakes:
            same.append((tool, namesakes.pop(0)))
        else:
            removed.append(tool)
    added = sorted((t for ts in unpaired.values() for t in ts), key=lambda t: t.index)
    return _Matching(same, [], removed, added)


def _with_renames(named: _Matching) -> _Matching:
    """A pairing by name, with the renames found among its removed and added tools."""
    renamed = _renames(named.removed, named.added)
    gone = {old.index for old, _ in renamed}
    came = {new.index for _, new in renamed}
    return _Matching(
        named.same,
        renamed,
        [t for t in named.removed if t.index not in gone],
        [t for t in named.added if t.index not in came],
    )


def _renames(removed: list[Tool], added: list[Tool]) -> list[tuple[Tool, Tool]]:
    """Removed and added tools with JSON-equal inputSchemas and similar descriptions, most similar first;
    then, among the rest, renames whose schema changed too (see _edited_renames).

    Equal descriptions pair first, in name order, without comparing words (a mass rename stays linear).
    Tools without a description are never paired: an equal schema alone does not make two tools one.
    """
    described = [t for t in removed if _word_key(t)], [t for t in added if _word_key(t)]
    olds, news = _by_schema(described[0]), _by_schema(described[1])
    pairs: list[tuple[Tool, Tool]] = []
    # what is left for the whole diff, groups in key order: pairs, words times words, matching work
    budget = [MAX_RENAME_COMPARISONS, MAX_RENAME_WORDS, MAX_RENAME_MATCH_WORK]
    for key in sorted(olds.keys() & news.keys()):
        equal, left_old, left_new = _equal_descriptions(olds[key], news[key])
        pairs += equal
        if not _too_many(left_old, left_new, budget):
            pairs += _most_similar(left_old, left_new, budget=budget)
    gone = {old.index for old, _ in pairs}
    came = {new.index for _, new in pairs}
    rest_old = sorted((t for t in described[0] if t.index not in gone), key=lambda t: (t.name, t.index))
    rest_new = sorted((t for t in described[1] if t.index not in came), key=lambda t: (t.name, t.index))
    return pairs + _edited_renames(rest_old, rest_new, budget)


def _edited_renames(olds: list[Tool], news: list[Tool], budget: list[int]) -> list[tuple[Tool, Tool]]:
    """Renames whose schema changed as well: a description at least EDITED_RENAME_SIMILARITY alike and
    at least EDITED_RENAME_SHARED_ARGUMENTS of the argument names shared; the most similar pair first."""
    if _too_many(olds, news, budget):
        return []
    allowed = {
        (old.index, new.index)
        for old in olds
        for new in news
        if _shared_arguments(old, new) >= EDITED_RENAME_SHARED_ARGUMENTS
    }
    return _most_similar(olds, news, EDITED_RENAME_SIMILARITY, allowed, budget)


def _shared_arguments(old: Tool, new: Tool) -> float:
    a, b = set(top_level_properties(old)), set(top_level_properties(new))
    return 1.0 if not (a or b) else len(a & b) / len(a | b)


def _by_schema(tools: list[Tool]) -> dict[str, list[Tool]]:
    groups: dict[str, list[Tool]] = {}
    for tool in sorted(tools, key=lambda t: (t.name, t.index)):
        groups.setdefault(_member(tool, "inputSchema"), []).append(tool)
    return groups


def _equal_descriptions(olds: list[Tool], news: list[Tool]) -> tuple[list[tuple[Tool, Tool]], list[Tool], list[Tool]]:
    """Pair tools whose descriptions have the same words (both lists in name order); then the rest of each."""
    waiting: dict[str, list[Tool]] = {}
    for new in news:
        waiting.setdefault(_equal_key(new), []).append(new)
    pairs: list[tuple[Tool, Tool]] = []
    left_old: list[Tool] = []
    for old in olds:
        same = waiting.get(_equal_key(old))
        if same:
            pairs.append((old, same.pop(0)))
        else:
            left_old.append(old)
    paired = {new.index for _, new in pairs}
    return pairs, left_old, [t for t in news if t.index not in paired]


def _most_similar(
    olds: list[Tool],
    news: list[Tool],
    least: float = RENAME_SIMILARITY,
    allowed: set[tuple[int, int]] | None = None,
    budget: list[int] | None = None,
) -> list[tuple[Tool, Tool]]:
    """Greedy pairing by description similarity (at least `least`; only `allowed` index pairs when given),
    ties broken by names then positions. The caller has checked the cost (_too_many); the matching work
    is taken from budget[2] as it is done, and once that is spent the other pairs are not similar."""
    candidates: list[tuple[float, str, str, int, int, Tool, Tool]] = []
    matcher = _BoundedMatcher()
    left = budget[2] if budget is not None else MAX_RENAME_MATCH_WORK
    for new in news:
        matcher.set_seq2(_word_key(new))  # difflib caches what it learns about the second sequence
        for old in olds:
            if allowed is not None and (old.index, new.index) not in allowed:
                continue
            matcher.set_seq1(_word_key(old))
            if matcher.real_quick_ratio() < least or matcher.quick_ratio() < least:
                continue  # upper bounds of ratio(), much cheaper
            if matcher.spent >= left:
                continue  # no matching work left: only quick_ratio() is told
            try:
                ratio = matcher.ratio()
            except _TooCostly:  # repetitive text: not similar, as past MAX_RENAME_WORDS
                continue
            if ratio >= least:
                candidates.append((-ratio, old.name, new.name, old.index, new.index, old, new))
    if budget is not None:
        budget[2] -= matcher.spent
    candidates.sort(key=lambda c: c[:5])
    pairs: list[tuple[Tool, Tool]] = []
    used_old: set[int] = set()
    used_new: set[int] = set()
    for *_, old, new in candidates:
        if old.index not in used_old and new.index not in used_new:
            used_old.add(old.index)
            used_new.add(new.index)
            pairs.append((old, new))
    return pairs


def _too_many(olds: list[Tool], news: list[Tool], budget: list[int]) -> bool:
    """Whether comparing every pair would pass what is left of budget (pairs, words of one side times words
    of the other); if not, what it costs is taken from budget."""
    pairs = len(olds) * len(news)
    if pairs > budget[0]:
        return True
    words = sum(len(_word_key(t)) for t in olds) * sum(len(_word_key(t)) for t in news)
    if words > budget[1]:
        return True
    budget[0] -= pairs
    budget[1] -= words
    return False


def _word_key(tool: Tool) -> tuple[str, ...]:
    """The case-folded words of the tool's description, its first RENAME_WORDS, cached on the tool."""
    key = tool.cache.get("diff_words")
    if key is None:
        key = tool.cache["diff_words"] = tuple(casefold(_text(tool)).split(maxsplit=RENAME_WORDS)[:RENAME_WORDS])
    return key


def _equal_key(tool: Tool) -> str:
    """The case-folded words of the whole description, one space apart: equal exactly when the words are."""
    key = tool.cache.get("diff_text")
    if key is None:
        key = tool.cache["diff_text"] = fold_space(casefold(_text(tool)))
    return key


def _text(tool: Tool) -> str:
    """The description, or "" when it is missing or not a string."""
    return tool.description if isinstance(tool.description, str) else ""


def _member(tool: Tool, key: str) -> str:
    """Canonical JSON of a member of the tool object, _ABSENT when it is missing."""
    return canonical(tool.raw[key]) if key in tool.raw else _ABSENT


def canonical(value: Any) -> str:
    """JSON text that is equal exactly when two values are JSON-equal: keys sorted, 1.0 written as 1."""
    return json.dumps(_normal(value), sort_keys=True, ensure_ascii=False)


def _normal(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


def _change(base: ToolState, head: ToolState) -> ToolChange:
    old, new = base.tool, head.tool
    description: str | None = None
    if _member(old, "description") != _member(new, "description"):
        description = word_diff(_text(old), _text(new))
    schema, changed = _schema_changes(old, new, SCHEMA_POINTER_CAP)
    others = (old.raw.keys() | new.raw.keys()) - {"name", "description", "inputSchema"}
    fields = sorted(k for k in others if _member(old, k) != _member(new, k))
    return ToolChange(base, head, description, schema, changed, fields)


def schema_changes(old: Tool, new: Tool) -> list[SchemaChange]:
    """Pointers under /inputSchema whose value differs, appears or disappears between two tools."""
    return _schema_changes(old, new, None)[0]


class _Changes:
    """Schema changes as found: the first `keep` kept (None: all), every one counted (a pointer repeats
    every name above it: 5,000 changes under a 100 KB name would hold 500 MB)."""

    __slots__ = ("keep", "kept", "total")

    def __init__(self, keep: int | None) -> None:
        self.keep = keep
        self.kept: list[SchemaChange] = []
        self.total = 0

    def add(self, pointer: str, kind: str, value: str | None = None) -> None:
        self.total += 1
        if self.keep is None or len(self.kept) < self.keep:
            self.kept.append(SchemaChange(pointer, kind, value))


def _schema_changes(old: Tool, new: Tool, keep: int | None) -> tuple[list[SchemaChange], int]:
    """The first keep of schema_changes (all for None), and how many there are."""
    if _member(old, "inputSchema") == _member(new, "inputSchema"):
        return [], 0
    out = _Changes(keep)
    _walk(_schema_only(old.raw), _schema_only(new.raw), "", out)
    return out.kept, out.total


def _schema_only(raw: dict[str, Any]) -> dict[str, Any]:
    return {"inputSchema": raw["inputSchema"]} if "inputSchema" in raw else {}


# Lists whose order means nothing: a change is a member added or removed, not a position that differs.
_SET_LIKE = frozenset({"required", "enum", "type"})


def _walk(old: Any, new: Any, pointer: str, out: _Changes) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(old.keys() | new.keys()):
            _child(old, new, key, key in old, key in new, pointer, out)
    elif isinstance(old, list) and isinstance(new, list) and pointer.rsplit("/", 1)[-1] in _SET_LIKE:
        before, after = {canonical(v): v for v in old}, {canonical(v): v for v in new}
        for key in before:
            if key not in after:
                out.add(pointer, "removed", key)
        for key in after:
            if key not in before:
                out.add(pointer, "added", key)
    elif isinstance(old, list) and isinstance(new, list):
        for i in range(max(len(old), len(new))):
            _child(old, new, i, i < len(old), i < len(new), pointer, out)
    elif canonical(old) != canonical(new):
        out.add(pointer, "changed")


def _child(old: Any, new: Any, key: Any, in_old: bool, in_new: bool, pointer: str, out: _Changes) -> None:
    child = join_pointer(pointer, key)
    if not in_new:
        out.add(child, "removed")
    elif not in_old:
        out.add(child, "added")
    else:
        _walk(old[key], new[key], child, out)


class _TooCostly(Exception):
    """Matching two word lists would pass its work budget."""


class _BoundedMatcher(SequenceMatcher):
    """difflib's SequenceMatcher (autojunk off) that raises _TooCostly, before the work is done, once
    matching one pair would pass MATCH_WORK_PER_WORD a word of either side plus MATCH_WORK_BASE. Each call
    of find_longest_match over a[alo:ahi] is charged ahi - alo plus the places in b of every word of
    a[alo:ahi] (what its loops may visit), from sums over a made once a pair; `spent` adds up every pair's."""

    def __init__(self, a: Any = (), b: Any = ()) -> None:
        self._sums: list[int] = []
        self._left = 0
        self.spent = 0
        super().__init__(None, a, b, False)

    def get_matching_blocks(self) -> Any:
        if self.matching_blocks is None:
            b2j = self.b2j
            total = 0
            sums = [0]
            for word in self.a:
                places = b2j.get(word)
                total += 1 if places is None else 1 + len(places)
                sums.append(total)
            self._sums = sums
            self._left = MATCH_WORK_BASE + MATCH_WORK_PER_WORD * (len(self.a) + len(self.b))
        return super().get_matching_blocks()

    def find_longest_match(self, alo: int = 0, ahi: int | None = None, blo: int = 0, bhi: int | None = None) -> Any:
        if ahi is None:
            ahi = len(self.a)
        cost = self._sums[ahi] - self._sums[alo]
        if cost > self._left:
            raise _TooCostly
        self._left -= cost
        self.spent += cost
        return super().find_longest_match(alo, ahi, blo, bhi)


def word_diff(old: str, new: str, width: int = DIFF_WIDTH) -> str:
    """Removed words in [-...-], added ones in {+...+}, unchanged runs cut to CONTEXT_WORDS either side."""
    if len(old) + len(new) > LONG_DIFF:
        return _long_word_diff(old, new, width)
    a, b = old.split(), new.split()
    return shown_word_diff(a, b, _word_opcodes(a, b), width)


def _long_word_diff(old: str, new: str, width: int) -> str:
    """word_diff of long texts, without a list of all their words: the words both texts share at the
    start and at the end (found comparing characters) are matched as unchanged, and only CONTEXT_WORDS + 1
    of them are split out on each side, which shows the same; a changed middle of more than MAX_DIFF_WORDS
    words is shown replaced whole."""
    start = last_space(old, 0, _common_start(old, new)) + 1  # back to the start of the word they part in
    end = _common_end(old, new, len(old) - start, len(new) - start)
    at_old, at_new = len(old) - end, len(new) - end
    if end and not old[at_old].isspace() and not (_spaced(old, at_old, start) and _spaced(new, at_new, start)):
        end -= next_space(old, at_old) - at_old  # on past the end of the word they meet again in
    at_old, at_new = len(old) - end, len(new) - end
    kept = CONTEXT_WORDS + 1
    head, tail = _words_before(old, start, kept + 1), _words_after(old, at_old, kept + 1)
    more = len(head) > kept, len(tail) > kept  # unchanged words left out
    head, tail = head[-kept:], tail[:kept]
    middle_old, middle_new = old[start:at_old], new[start:at_new]
    if word_count(middle_old) + word_count(middle_new) <= MAX_DIFF_WORDS:
        a, b = [*head, *middle_old.split(), *tail], [*head, *middle_new.split(), *tail]
        return shown_word_diff(a, b, _word_opcodes(a, b), width, *more)
    if fold_space(middle_old) == fold_space(middle_new):
        return "(no word changed)"
    removed, added = (clip_folded(text, CHANGE_WIDTH + 1) for text in (middle_old, middle_new))  # what _clip keeps
    a, b = [*head, *filter(None, [removed]), *tail], [*head, *filter(None, [added]), *tail]
    ops = _framed(len(head), len(tail), len(a), len(b), None)
    return shown_word_diff(a, b, ops, width, *more)


def _common_start(a: str, b: str) -> int:
    """How many characters a and b share at the start, compared a block at a time (in C)."""
    i, n = 0, min(len(a), len(b))
    while i + _BLOCK <= n and a[i : i + _BLOCK] == b[i : i + _BLOCK]:
        i += _BLOCK
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _common_end(a: str, b: str, most_a: int, most_b: int) -> int:
    """How many characters a and b share at the end, at most the smaller of most_a and most_b."""
    i, n, la, lb = 0, min(most_a, most_b), len(a), len(b)
    while i + _BLOCK <= n and a[la - i - _BLOCK : la - i] == b[lb - i - _BLOCK : lb - i]:
        i += _BLOCK
    while i < n and a[la - 1 - i] == b[lb - 1 - i]:
        i += 1
    return i


def _spaced(text: str, i: int, start: int) -> bool:
    """Whether a word starts at i: white space (or where the changed part starts) comes before it."""
    return i == start or text[i - 1].isspace()


def _words_before(text: str, end: int, n: int) -> list[str]:
    """The last n words of text[:end], which ends at white space (or is empty), reading back from end."""
    size = 64 * n
    while True:
        low = max(0, end - size)
        words = text[low:end].split()  # the first may be part of a word when low > 0
        if len(words) > n or low == 0:
            return words[-n:]
        size *= 4


def _words_after(text: str, start: int, n: int) -> list[str]:
    """The first n words of text[start:], which starts at a word's start or white space."""
    size = 64 * n
    while True:
        words = text[start : start + size].split()  # the last may be part of a word
        if len(words) > n or start + size >= len(text):
            return words[:n]
        size *= 4


def shown_word_diff(
    a: list[str],
    b: list[str],
    ops: list[Any],
    width: int = DIFF_WIDTH,
    more_before: bool = False,
    more_after: bool = False,
) -> str:
    """word_diff's text for the words a and b and the opcodes from one to the other; more_before and
    more_after: unchanged words that a and b leave out come before (after) them."""
    if all(tag == "equal" for tag, *_ in ops):
        return "(no word changed)"
    pieces: list[str] = []
    for n, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag == "equal":
            first, last = n == 0, n == len(ops) - 1
            pieces.append(_context(a[i1:i2], first, last, first and more_before, last and more_after))
            continue
        if i2 > i1:
            pieces.append(f"[-{_clip(' '.join(a[i1:i2]), CHANGE_WIDTH)}-]")
        if j2 > j1:
            pieces.append(f"{{+{_clip(' '.join(b[j1:j2]), CHANGE_WIDTH)}+}}")
    return _fit(pieces, width)


Opcode = tuple[str, int, int, int, int]


def _word_opcodes(a: list[str], b: list[str]) -> list[Opcode]:
    """difflib's opcodes from a to b; when matching would cost too much (repetitive text), those of the
    words between the common first and last words, and past that budget too, those words replaced whole."""
    try:
        return _BoundedMatcher(a, b).get_opcodes()
    except _TooCostly:
        pass
    la, lb = len(a), len(b)
    start = 0
    while start < la and start < lb and a[start] == b[start]:
        start += 1
    end = 0
    while end < la - start and end < lb - start and a[la - 1 - end] == b[lb - 1 - end]:
        end += 1
    middle: list[Opcode] | None = None
    if start or end:  # else the same words again
        try:
            middle = [
                (tag, i1 + start, i2 + start, j1 + start, j2 + start)
                for tag, i1, i2, j1, j2 in _BoundedMatcher(a[start : la - end], b[start : lb - end]).get_opcodes()
            ]
        except _TooCostly:
            pass
    return _framed(start, end, la, lb, middle)


def _framed(start: int, end: int, la: int, lb: int, middle: list[Opcode] | None) -> list[Opcode]:
    """Opcodes for words a (la of them) and b (lb) that share their first start and last end words: those
    equal, and between them middle, or (None) the rest of a replaced by the rest of b."""
    head: list[Opcode] = [("equal", 0, start, 0, start)] if start else []
    tail: list[Opcode] = [("equal", la - end, la, lb - end, lb)] if end else []
    return head + (middle if middle is not None else [("replace", start, la - end, start, lb - end)]) + tail


def _context(words: list[str], first: bool, last: bool, more_before: bool = False, more_after: bool = False) -> str:
    n = CONTEXT_WORDS
    if first and (len(words) > n or more_before):
        return "... " + " ".join(words[-n:])
    if last and (len(words) > n or more_after):
        return " ".join(words[:n]) + " ..."
    if not first and not last and len(words) > 2 * n:
        return " ".join(words[:n]) + " ... " + " ".join(words[-n:])
    return " ".join(words)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3].rstrip() + "..."


def _fit(pieces: list[str], width: int) -> str:
    """Join whole pieces while they fit in width (always the first), then '...'."""
    out = pieces[0]
    for piece in pieces[1:]:
        if len(out) + 1 + len(piece) > width:
            return out + " ..."
        out += " " + piece
    return out


# Findings ------------------------------------------------------------------------------------------------------


def _keyed(result: FileResult, new_names: dict[int, str]) -> list[tuple[Key, Finding]]:
    """Each finding with its key, renamed tools under their new name; sorted by tool, pointer, code."""
    out: list[tuple[Key, Finding]] = []
    for tr in result.tools:
        name = new_names.get(tr.tool.index, tr.tool.name)
        out += [((f.code, name, pointer_in_tool(f.pointer, tr.tool.pointer)), f) for f in tr.findings]
    out.sort(key=lambda kf: (kf[0][1], kf[0][2], kf[0][0], kf[1].message))
    return out


def _unmatched(ours: list[tuple[Key, Finding]], theirs: list[tuple[Key, Finding]]) -> list[Finding]:
    """Our findings beyond the number of theirs with the same key."""
    left = Counter(key for key, _ in theirs)
    out: list[Finding] = []
    for key, f in ours:
        if left[key]:
            left[key] -= 1
        else:
            out.append(f)
    return out


def _finding_delta(
    base: FileResult, head: FileResult, new_names: dict[int, str]
) -> tuple[list[Finding], list[Finding]]:
    """Findings introduced in head and fixed from base. One left on each side that differs only by the index
    of a list entry on its way (an item inserted before it in required, anyOf, enum), with the same message,
    is the same finding moved, and is neither."""
    old, new = _keyed(base, new_names), _keyed(head, {})
    introduced, fixed = _unmatched(new, old), _unmatched(old, new)
    if not introduced or not fixed:
        return introduced, fixed
    keys = {id(f): key for key, f in [*old, *new]}
    raws = {id(f): tr.tool.raw for r in (base, head) for tr in r.tools for f in tr.findings}

    def loose(f: Finding) -> tuple[str, str, str, str]:
        code, tool, pointer = keys[id(f)]
        return code, tool, _INDEX.sub("/*", pointer), f.message

    waiting: dict[tuple[str, str, str, str], list[Finding]] = {}
    for f in fixed:
        waiting.setdefault(loose(f), []).append(f)
    paired: set[int] = set()
    kept = []
    for f in introduced:
        twin = next((g for g in waiting.get(loose(f), []) if id(g) not in paired and _moved(g, f, keys, raws)), None)
        if twin is None:
            kept.append(f)
        else:
            paired.add(id(twin))
    return kept, [f for f in fixed if id(f) not in paired]


def _moved(was: Finding, now: Finding, keys: dict[int, Key], raws: dict[int, Any]) -> bool:
    """Whether a finding went from one list entry to another because the entry itself moved: the entry at the
    first index where the two pointers part is the same value before and after (an item put before it),
    not another entry that came to have the same problem (one anyOf branch fixed, another broken)."""
    a, b = keys[id(was)][2].split("/"), keys[id(now)][2].split("/")
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
    if at is None or not (a[at].isdigit() and b[at].isdigit()):
        return False
    before = resolve_pointer(raws[id(was)], "/".join(a[: at + 1]))
    return before is not None and before == resolve_pointer(raws[id(now)], "/".join(b[: at + 1]))


_INDEX = re.compile(r"/\d+(?=/|$)")  # an array index in a JSON pointer


def new_findings(result: FileResult, baseline: Catalog, settings: Settings) -> list[Finding]:
    """Findings of result that the baseline, linted with the same settings, does not have."""
    base_result = _lint_baseline(as_file_of(baseline, result.catalog), settings)
    return _finding_delta(base_result, result, _renamed(base_result, result))[0]


def _renamed(base_result: FileResult, result: FileResult) -> dict[int, str]:
    """Each baseline tool renamed in result: its new name, by baseline index (as diff pairs them)."""
    return _match(base_result.catalog.tools, result.catalog.tools).new_names()


def filter_baseline(result: FileResult, baseline: Catalog, settings: Settings) -> int:
    """Keep in result only the findings that the baseline does not have; returns how many were dropped."""
    return apply_baseline(result, baseline, settings)[0]


def apply_baseline(result: FileResult, baseline: Catalog, settings: Settings) -> tuple[int, FileResult, dict[int, str]]:
    """filter_baseline, the baseline's own lint result (its scores judge the gate's), and the tools renamed
    since (a baseline tool's new name, by its index), paired once for both."""
    base_result = _lint_baseline(as_file_of(baseline, result.catalog), settings)
    renamed = _renamed(base_result, result)
    keep = {id(f) for f in _finding_delta(base_result, result, renamed)[0]}
    dropped = 0
    for tr in result.tools:
        kept = [f for f in tr.findings if id(f) in keep]
        dropped += len(tr.findings) - len(kept)
        tr.findings = kept
    return dropped, base_result, renamed


def _lint_baseline(baseline: Catalog, settings: Settings) -> FileResult:
    """Lint the baseline without counting it toward the settings' unused-ignore notices."""
    by_file = [(e, e.used, e.seen, e.matched) for e in settings.per_file_ignores]
    by_tool = [(e, e.used, e.seen, e.matched) for e in settings.per_tool_ignores]
    result = lint_catalog(baseline, settings)
    for file_entry, used, seen, matched in by_file:
        file_entry.used, file_entry.seen, file_entry.matched = used, seen, matched
    for tool_entry, used, seen, matched in by_tool:
        tool_entry.used, tool_entry.seen, tool_entry.matched = used, seen, matched
    return result
