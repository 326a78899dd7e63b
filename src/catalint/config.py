"""Settings from `[tool.catalint]` in pyproject.toml, catalint.toml or .catalint.toml.

The nearest config file up from a linted file applies to it (`--config` names
one for all files). Command-line flags are applied on top.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from catalint.model import Catalog, Severity
from catalint.registry import all_rules, check_selector, matches
from catalint.text import lines_of

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

CONFIG_NAMES = ("catalint.toml", ".catalint.toml", "pyproject.toml")

# Conventional catalog names, each as .json, .yaml and .yml (the pre-commit hook's files: pattern
# matches the same names).
DEFAULT_INCLUDE = [
    f"{name}.{ext}"
    for name in ("tools", "*.tools", "tools-list", "tools_list", "*.tools-list", "mcp-tools")
    for ext in ("json", "yaml", "yml")
]
DEFAULT_TOOL_TOKEN_BUDGET = 700  # TOK-001; see its docs for why
DEFAULT_EXCLUDE = [".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", ".tox", ".nox"]


class ConfigError(Exception):
    """A bad setting; rendered as one line, exit code 2."""


_WILDCARD = re.compile(r"[*?\[]")  # what makes a glob more than a name
# Tool globs with a wildcard in one config: each tool name is matched against them all (11,000 globs such
# as `*a*a*a*a*a*a*a*a*b1*` against 2,000 names took 25 s); real configs have a handful.
MAX_TOOL_WILDCARDS = 256


@dataclass
class ToolIgnore:
    """One per-tool suppression: rules ignored for tools whose name matches a glob."""

    tools: list[str]
    rules: list[str]
    reason: str | None
    files: list[str]
    label: str
    used: int = 0
    seen: bool = False  # some linted file is in its files and some of its rules ran: it could have matched
    matched: bool = False  # a linted file in its files has a tool it covers
    source: str = ""  # the config file that sets it (a notice names it), or COMMAND_LINE
    root: Path | None = None  # where its files globs are read from, when not the settings' folder (an extended file's)
    # names(): the globs without a wildcard, and the others compiled
    _literal: frozenset[str] | None = field(default=None, init=False, repr=False, compare=False)
    _wild: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def whole(self) -> bool:
        """Whether it ignores ALL rules: its tools are not linted, and are left out of the scores."""
        return any(r.upper() == "ALL" for r in self.rules)

    def names(self, tool: str) -> bool:
        """Whether a glob of its tools matches the tool name: names without a wildcard are a set, the others one
        compiled pattern (20,000 globs against 2,000 tools, one by one with fnmatch, took 39 s). ToolIgnoreIndex
        asks once a tool name."""
        if self._literal is None:
            wild = [g for g in self.tools if _WILDCARD.search(g)]
            self._literal = frozenset(self.tools).difference(wild)
            self._wild = re.compile("|".join(fnmatch.translate(g) for g in wild)) if wild else None
        return tool in self._literal or (self._wild is not None and self._wild.match(tool) is not None)


class ToolIgnoreIndex:
    """Per-tool ignores by tool name: each name's entries are looked up once, not found by asking every entry
    for every finding (4,000 tables of one name each on 4,000 tools took 45 s and 460 MB)."""

    def __init__(self, entries: list[ToolIgnore]) -> None:
        self.entries = entries
        self._named: dict[str, list[int]] = {}  # a glob without a wildcard: the entries that hold it
        self._wild: list[int] = []  # entries with a wildcard glob (at most MAX_TOOL_WILDCARDS of them)
        for i, e in enumerate(entries):
            for glob in e.tools:
                if _WILDCARD.search(glob):
                    if not self._wild or self._wild[-1] != i:
                        self._wild.append(i)
                else:
                    self._named.setdefault(glob, []).append(i)
        self._of: dict[str, list[ToolIgnore]] = {}

    def __bool__(self) -> bool:
        return bool(self.entries)

    def of(self, tool: str) -> list[ToolIgnore]:
        """The entries whose globs match the tool name, in their order."""
        got = self._of.get(tool)
        if got is None:
            found = set(self._named.get(tool, ())).union(i for i in self._wild if self.entries[i].names(tool))
            got = self._of[tool] = [self.entries[i] for i in sorted(found)]
        return got

    def first(self, tool: str, code: str) -> ToolIgnore | None:
        """The first entry that covers code for the tool."""
        return next((e for e in self.of(tool) if any(matches(r, code) for r in e.rules)), None)


@dataclass
class FileIgnore:
    pattern: str
    rules: list[str]
    label: str
    used: int = 0
    seen: bool = False  # a linted file matched its pattern while some of its rules ran
    matched: bool = False  # a linted file matched its pattern
    # where its glob is read from, when not the settings' folder: the working directory for --per-file-ignores,
    # an extended file's folder for its own
    root: Path | None = None
    source: str = ""  # the config file that sets it (a notice names it), or COMMAND_LINE


# One table's rule selection: (select, or None when it sets none; extend-select; ignore).
Layer = tuple[tuple[str, ...] | None, tuple[str, ...], tuple[str, ...]]


@dataclass
class Settings:
    path: Path | None = None  # the config file, None for built-in defaults
    # Settings built in code (Settings(select=[...])) say their rules here; tables laid from files and flags go
    # to rule_layers, these becoming its first layer (_as_built).
    select: list[str] | None = None  # None: every rule that is on by default
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    per_file_ignores: list[FileIgnore] = field(default_factory=list)
    per_tool_ignores: list[ToolIgnore] = field(default_factory=list)
    severity: dict[str, Severity] = field(default_factory=dict)
    fail_severity: Severity = Severity.CRITICAL
    include: list[str] = field(default_factory=lambda: list(DEFAULT_INCLUDE))
    exclude: list[str] = field(default_factory=lambda: list(DEFAULT_EXCLUDE))
    force_exclude: bool = False  # exclude also files named on the command line (pre-commit names each one)
    respect_gitignore: bool = True  # a directory argument's walk skips what git ignores, as in ruff
    # as in ruff, lists of their own, added up over the configs laid (an exclude, or --exclude, keeps them)
    extend_include: list[str] = field(default_factory=list)
    extend_exclude: list[str] = field(default_factory=list)
    # Each table that sets select/extend-select/ignore (a config, the one it extends, the flags), in the
    # order laid: (select or None, extend-select, ignore); and each one's [severity]. Worked out layer by
    # layer, as ruff does (enabled_codes, severity_of).
    rule_layers: list[Layer] = field(default_factory=list)
    severity_layers: list[dict[str, Severity]] = field(default_factory=list)
    # include/exclude given by a flag (--include, --exclude): a walk reads them from its directory argument
    flag_globs: dict[str, bool] = field(default_factory=dict)
    tool_token_budget: int = DEFAULT_TOOL_TOKEN_BUDGET
    catalog_token_budget: int | None = None  # TOK-002 is silent until one is set
    gate: list[Any] | None = None  # gate.Check entries; None: the default gate
    extend_gate: list[Any] = field(default_factory=list)  # replace or add checks by target (--gate)
    gate_enabled: bool = True
    targets: list[str] = field(default_factory=list)  # client profiles (--target): their CMP rules are on
    extends: list[Path] = field(default_factory=list)  # the config files under path's, by its extend: nearest first
    explicit: bool = False  # given with --config: its globs are read from the working directory, as in ruff
    _resolved_root: Path | None = field(default=None, init=False, repr=False, compare=False)
    _file_key: tuple[str, str | None] | None = field(default=None, init=False, repr=False, compare=False)
    _file_entries: list[FileIgnore] = field(default_factory=list, init=False, repr=False, compare=False)
    _rels: dict[tuple[str, Path], str] = field(default_factory=dict, init=False, repr=False, compare=False)

    def _layers(self) -> list[Layer]:
        """rule_layers; for Settings(select=[...]) built in code, with no table laid, its lists as they stand."""
        if self.rule_layers or (self.select is None and not self.extend_select and not self.ignore):
            return self.rule_layers
        return [(None if self.select is None else tuple(self.select), tuple(self.extend_select), tuple(self.ignore))]

    def levels(self) -> list[dict[str, Severity]]:
        """Each [severity] table in the order laid (for settings built in code, their severity)."""
        return self.severity_layers or ([self.severity] if self.severity else [])

    def _as_built(self) -> None:
        """Before a table is laid over settings built in code, their lists become the first layers."""
        self.rule_layers[:] = self._layers()
        self.severity_layers[:] = self.levels()

    def named_selectors(self) -> list[str]:
        """The select and extend-select selectors that still apply: those since the last select."""
        chosen: list[str] = []
        for select, extend, _ in self._layers():
            if select is not None:
                chosen = list(select)
            chosen += extend
        return chosen

    def severity_table(self) -> dict[str, Severity]:
        """The [severity] tables as one (--show-settings JSON): each one's entries replace those below it that
        they cover."""
        table: dict[str, Severity] = {}
        for levels in self.levels():
            table = {code: level for code, level in table.items() if _uncovered([code], list(levels))}
            table.update(levels)
        return table

    def gate_checks(self) -> list[Any]:
        """The checks that apply: the config's gate (else the defaults, or nothing when the gate is
        off), with extend-gate's checks replacing or adding checks by target."""
        from catalint.gate import DEFAULT_GATE, merge

        if not self.gate_enabled:  # gate = false drops the defaults; extend-gate checks still count
            return list(self.extend_gate)
        return merge(list(self.gate if self.gate is not None else DEFAULT_GATE), self.extend_gate)

    @property
    def root(self) -> Path:
        """Where the config's own globs are read from: its folder; for a --config, and for the built-in
        defaults, the working directory (ruff reads a --config's paths from there)."""
        return self.path.parent if self.path and not self.explicit else Path.cwd()

    def enabled_codes(self) -> list[str]:
        return list(_enabled_codes(tuple(self._layers()), tuple(self.targets)))

    def severity_of(self, code: str, default: Severity) -> Severity:
        """The override of the topmost [severity] that names code, its most specific entry; else default."""
        for levels in reversed(self.levels()):
            best = _specificity(list(levels), code)
            if best is not None:
                return next(sev for sel, sev in levels.items() if matches(sel, code) and _spec(sel) == best)
        return default

    def relative(self, file: str) -> str:
        """A file's (or a walked folder's) path for the config's own globs: from root (see _relative)."""
        if self._resolved_root is None:  # asked again for every linted file
            self._resolved_root = self.root.resolve()
        return _relative(file, self._resolved_root)

    def catalog_rel(self, catalog: Catalog) -> str:
        """The path the file globs of ignores match a catalog by: from the config's folder, or its display
        name when it came from standard input."""
        return self.relative(catalog.path) if catalog.path != "-" else catalog.display

    def excludes(self, file: str) -> bool:
        """Whether exclude covers a file named on the command line: the file or a folder above it, by its
        path relative to the config's folder, or to the working folder for an --exclude flag's globs, read
        where they were typed (where force-exclude is on)."""
        rel = _relative(file, Path.cwd().resolve()) if self.flag_globs.get("exclude") else self.relative(file)
        if self._excluded(rel, self.exclude):
            return True
        if self.extend_exclude and self._excluded(self.relative(file), self.extend_exclude):
            return True
        anchored = [g for g in (*self.exclude, *self.extend_exclude) if os.path.isabs(g)]  # an extended file's
        if anchored:
            where = _link_kept(file)
            return any(absolute_glob_match(p.as_posix(), anchored) for p in (where, *where.parents))
        return False

    def has_absolute_globs(self) -> bool:
        """Whether include/exclude hold an extended config's globs, made absolute from its folder."""
        return any(os.path.isabs(g) for g in (*self.include, *self.exclude, *self.extend_include, *self.extend_exclude))

    @staticmethod
    def _excluded(rel: str, globs: list[str]) -> bool:
        """Whether globs cover a path or a folder above it."""
        parts = rel.split("/")
        return any(glob_match("/".join(parts[:i]), globs) for i in range(1, len(parts) + 1))

    def file_ignored(self, file_rel: str, code: str, file: str | None = None) -> FileIgnore | None:
        """The per-file ignore that covers code in a file (file_rel: its path from the config's folder; file:
        as given, for an entry read from another folder)."""
        if self._file_key != (file_rel, file):  # asked for each rule in turn: match the globs once a file
            self._file_key = (file_rel, file)
            self._file_entries = [
                entry
                for entry in self.per_file_ignores
                if self._file_globs([entry.pattern], file_rel, file, entry.root)
            ]
            for entry in self._file_entries:
                entry.matched = True
        for entry in self._file_entries:
            if any(matches(r, code) for r in entry.rules):
                return entry
        return None

    def file_entries(self, file: str) -> list[FileIgnore]:
        """The per-file ignores whose globs take in a file named on the command line (--show-settings), without
        counting it as a match."""
        if file == "-":  # unnamed standard input: matched by its display name, as in a run
            return [e for e in self.per_file_ignores if glob_match(file, [e.pattern])]
        rel = self.relative(file)
        return [e for e in self.per_file_ignores if self._file_globs([e.pattern], rel, file, e.root)]

    def _file_globs(self, patterns: list[str], rel: str, file: str | None, root: Path | None) -> bool:
        """Whether file globs read from root (None: the settings' folder) take in a linted file (rel: its path
        from the settings' folder; file: as given, None for standard input). A glob that is absolute, or
        climbs out of its folder with '..', is made absolute from root and matches the file's whole path,
        as ruff reads such patterns."""
        base = root if root is not None else self.root
        anchored = [p for p in patterns if _anchored(p, base)]
        plain = [p for p in patterns if p not in anchored]
        if plain and glob_match(self._rel_from(rel, file, root), plain):
            return True
        if file is None or not anchored:
            return False
        where = _link_kept(file).as_posix()  # as _relative reads a file
        return any(fnmatch.fnmatch(where, _anchor(p, base)) for p in anchored)

    def _rel_from(self, rel: str, file: str | None, root: Path | None) -> str:
        """A linted file's path for the globs of an entry read from root (None: the settings' folder, where rel is
        from; file None: standard input, known by its display name rel)."""
        if root is None or file is None:
            return rel
        key = (file, root)
        found = self._rels.get(key)
        if found is None:
            if len(self._rels) > 4096:
                self._rels.clear()
            found = self._rels[key] = _relative(file, root)
        return found

    def tool_ignores(self, catalog: Catalog) -> list[ToolIgnore]:
        """The per-tool ignores whose files take in catalog (all that name no files)."""
        if not self.per_tool_ignores:
            return []
        rel = self.catalog_rel(catalog)
        file = catalog.path if catalog.path != "-" else None
        return [e for e in self.per_tool_ignores if not e.files or self._file_globs(e.files, rel, file, e.root)]

    def unscored(self, catalog: Catalog, names: Iterable[str]) -> set[str]:
        """Which of names (tools of catalog, or of a baseline standing for it) an ignore of ALL covers there, a
        per-file one (every tool of the file: a file parked as in ruff, `"legacy/*" = ["ALL"]`) or a per-tool
        one: not linted, so left out of the scores."""
        names = list(dict.fromkeys(names))
        out = set()
        if any(e.whole for e in self.per_tool_ignores):
            index = ToolIgnoreIndex([e for e in self.tool_ignores(catalog) if e.whole])
            for name in names:
                for e in index.of(name):
                    e.used += 1  # leaving a tool out of the scores is a use: not a stale entry
                    out.add(name)
        parked = [e for e in self.per_file_ignores if any(r.upper() == "ALL" for r in e.rules)]
        if parked:
            rel, file = self.catalog_rel(catalog), (catalog.path if catalog.path != "-" else None)
            for e in parked:
                if self._file_globs([e.pattern], rel, file, e.root):
                    e.used += 1  # leaving the file's tools out of the scores is a use: not a stale entry
                    e.matched = True
                    out.update(names)
        return out


def unused_notices(all_settings: Iterable[Settings]) -> list[str]:
    """Suppressions that could have matched in this run and did not. One whose files were not linted, whose
    tools were not in them, or whose rules were not selected, says nothing: pre-commit passes only changed
    files. An entry that several settings hold (a shared config they extend, a --per-tool-ignores flag) is
    judged over all its copies, and noticed once."""
    copies: dict[tuple[str, str, str, tuple[str, ...]], list[FileIgnore | ToolIgnore]] = {}
    for settings in all_settings:
        where = shown_path(settings.path) if settings.path else COMMAND_LINE
        entries: list[FileIgnore | ToolIgnore] = [
            *(e for e in settings.per_file_ignores if e.source != COMMAND_LINE),  # flags': flag_glob_notices
            *settings.per_tool_ignores,
        ]
        for e in entries:
            files = tuple(e.files) if isinstance(e, ToolIgnore) else ()  # the label does not show them
            copies.setdefault((type(e).__name__, e.source or where, e.label, files), []).append(e)
    notices = []
    for (kind_of, source, label, _), group in copies.items():
        no_tool = kind_of == "ToolIgnore" and not any(e.matched for e in group)
        if no_tool and os.environ.get("PRE_COMMIT") == "1":
            continue  # pre-commit passes the changed files only (a hook's args too): the tool may live in another
        if no_tool and source == COMMAND_LINE:  # typed for this run: most likely a mistyped name
            notices.append(f"{source}: notice: {label} matched no tool in the linted files")
        elif any(e.seen for e in group) and not any(e.used for e in group):
            # a tool in no linted file may be in a file this run did not lint (pre-commit passes a few)
            advice = (
                "no tool in the linted files; remove it if no catalog has one" if no_tool else "no finding; remove it"
            )
            notices.append(f"{source}: notice: {label} matched {advice}")
    return notices


def flag_glob_notices(all_settings: list[Settings]) -> list[str]:
    """Notices for --per-file-ignores entries, each once however many config files it was applied to: one
    that no linted file matched (most likely a mistyped glob), or that matched files where its rules ran but
    no finding. One whose rules were not selected says nothing, as in a config."""
    seen: dict[str, list[FileIgnore]] = {}
    for settings in all_settings:
        for entry in settings.per_file_ignores:
            if entry.source == COMMAND_LINE:
                seen.setdefault(entry.label, []).append(entry)
    notices = []
    for label, copies in seen.items():
        if not any(e.matched for e in copies):
            notices.append(
                f"{COMMAND_LINE}: notice: {label} matched no linted file"
                " (a glob given on the command line is read from the working directory)"
            )
        elif any(e.seen for e in copies) and not any(e.used for e in copies):
            notices.append(f"{COMMAND_LINE}: notice: {label} matched no finding; remove it")
    return notices


def _link_kept(file: str) -> Path:
    """file's whole path, its folders resolved and its own name kept: a link is matched by its own name, not
    by where it points."""
    path = Path(file)
    return path.parent.resolve() / path.name if path.name not in ("", ".", "..") else path.resolve()


def _relative(file: str, root: Path) -> str:
    """file's path from root, with / between parts. A file outside root (a --config kept in .github/) is
    read from the working folder, as ruff reads a --config's globs, else by its whole path: the same
    whatever spelling named it (servers, $PWD/servers, or legacy from inside servers)."""
    resolved = _link_kept(file)
    # a folder link below root as named (lnk/tools.json, lnk -> real) is matched by that name, as ruff does;
    # a path that only resolves below root (a linked workspace) by the resolved one
    spelt = Path(os.path.abspath(file))
    for base in (root, Path.cwd().resolve()):
        for candidate in (spelt, resolved) if spelt != resolved else (resolved,):
            try:
                return candidate.relative_to(base).as_posix()
            except ValueError:
                continue
    return resolved.as_posix()


def _bare_glob(pattern: str) -> str:
    """A glob without a leading ./ or / and a trailing /, as _glob_match reads it ("./sub/", "/sub": "sub")."""
    while pattern.startswith("./"):
        pattern = pattern[2:]
    return pattern.strip("/")


def _has_folder(pattern: str) -> bool:
    """Whether a walk glob names a path (a slash inside it) rather than a name matched at any depth."""
    return "/" in _bare_glob(pattern)


def _any_depth(pattern: str) -> bool:
    """Whether a glob starts with **/: it matches at any depth from anywhere, wherever it is read from."""
    return _bare_glob(pattern).startswith("**/")


def absolute_glob_match(path: str, patterns: list[str]) -> bool:
    """Whether an absolute path matches one of the absolute patterns among patterns (fnmatch: `*` crosses
    `/`); the others are for glob_match."""
    return any(fnmatch.fnmatch(path, p.rstrip("/")) for p in patterns if os.path.isabs(p))


def _anchored(pattern: str, base: Path) -> bool:
    """Whether a file glob climbs out of its folder ('../legacy/*.json') or is a whole path: one that starts
    with its folder's path, or the working directory's ('/home/me/proj/sub/*.json'). Any other leading '/'
    is read past, as in a .gitignore ('/sub/*.json' is the folder's sub), the same on every machine."""
    posix = pattern.replace("\\", "/")
    if ".." in posix.split("/"):
        return True
    if not os.path.isabs(pattern):
        return False
    places = {Path(base).resolve().as_posix(), Path(base).absolute().as_posix(), Path.cwd().resolve().as_posix()}
    return any(posix == p or posix.startswith(p.rstrip("/") + "/") for p in places)


def _anchor(pattern: str, base: Path) -> str:
    """An absolute glob for pattern read from base: its folders up to the first wildcard resolved (as the
    files it is matched with are), the rest kept."""
    joined = os.path.normpath(os.path.join(base, pattern)).replace(os.sep, "/")
    parts = joined.split("/")
    fixed = next((i for i, part in enumerate(parts) if _WILDCARD.search(part)), len(parts) - 1)
    head = "/".join(parts[:fixed]) or "/"
    return "/".join([Path(head).resolve().as_posix().rstrip("/"), *parts[fixed:]])


def glob_match(rel: str, patterns: list[str]) -> bool:
    """Patterns with a slash match the relative path (fnmatch: `*` crosses `/`, and a leading `**/` also
    matches at the top, so `**/*.json` takes `tools.json`); others match the file name."""
    name = rel.rsplit("/", 1)[-1]
    return any(_glob_match(rel, name, p) for p in patterns)


def _glob_match(rel: str, name: str, pattern: str) -> bool:
    # "/sub", "./sub" and "sub/" name the folder sub, as they would in a .gitignore
    while pattern.startswith("./"):
        pattern = pattern[2:]
    pattern = pattern.strip("/")
    while pattern.startswith("**/**/"):  # "**/**/x" is "**/x": read them as one, not one call each
        pattern = pattern[3:]
    if "/" not in pattern:
        return fnmatch.fnmatch(name, pattern)
    if rel.startswith("/") or (os.name == "nt" and rel[1:3] == ":/"):  # a folder named "c:" is one elsewhere
        return False  # a whole path, outside the folder the glob is read from: as ruff anchors it there, never
    if fnmatch.fnmatch(rel, pattern):
        return True
    return pattern.startswith("**/") and _glob_match(rel, name, pattern[3:])


def _uncovered(selectors: list[str], over: list[str]) -> list[str]:
    """The selectors that none of over covers: a selector is covered by one that matches every rule it does
    (DESC-009 and DESC by DESC; CMP by no ALL, which leaves the profile rules out)."""
    if not over:
        return selectors
    return [s for s in selectors if not any(_covers(o, s) for o in over)]


def _covers(outer: str, inner: str) -> bool:
    outer, inner = outer.upper(), inner.upper()
    if outer == "ALL":  # not C, CM, CMP...: they also name the profile rules ALL leaves out
        return not ("CMP".startswith(inner) or inner.startswith("CMP"))
    return inner != "ALL" and inner.startswith(outer)


def _spec(selector: str) -> int:
    return 0 if selector.upper() == "ALL" else len(selector)


def _specificity(selectors: list[str], code: str) -> int | None:
    """How specifically the best of selectors matches code (None: none does)."""
    return max((_spec(s) for s in selectors if matches(s, code)), default=None)


# ---------------------------------------------------------------- parsing

_KEYS = {
    "extend",
    "select",
    "extend-select",
    "ignore",
    "per-file-ignores",
    "extend-per-file-ignores",
    "per-tool-ignores",
    "severity",
    "fail-severity",
    "include",
    "extend-include",
    "exclude",
    "extend-exclude",
    "force-exclude",
    "respect-gitignore",
    "tool-token-budget",
    "catalog-token-budget",
    "gate",
    "extend-gate",
    "targets",
}


def _strings(value: Any, where: str) -> list[str]:
    """A list of strings, as written: a lone string is a type error, as it is in ruff (`select = "DESC"`)."""
    if not isinstance(value, list):
        hint = ""
        if isinstance(value, str):
            parts = [p.strip() for p in value.split(",") if p.strip()] or [value]
            hint = f": write [{', '.join(json.dumps(p) for p in parts)}]"
        raise ConfigError(f"{where} must be a list of strings, not {kind(value)}{hint}")
    for i, v in enumerate(value):
        if not isinstance(v, str):
            raise ConfigError(f"{where}: entry {i + 1} must be a string, not {kind(v)}")
    return value


_TOML_KINDS = {
    bool: "a boolean",
    int: "an integer",
    float: "a float",
    str: "a string",
    list: "an array",
    dict: "a table",
}


def kind(value: Any) -> str:
    """A TOML value's type, as a message names it (tomllib gives these types exactly, or a date or time)."""
    import datetime

    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return "a date or time"
    return _TOML_KINDS.get(type(value), type(value).__name__)


def _codes(value: Any, where: str) -> list[str]:
    codes = [c.strip().upper() for c in _strings(value, where)]
    for i, code in enumerate(codes):
        if not code:  # a prefix of every code: ignore = [""] would turn every rule off
            raise ConfigError(f"{where}: entry {i + 1} is empty ({_EMPTY})")
        if not _known(code):
            parts = [c.strip() for c in code.split(",") if c.strip()]
            if "," in code and parts and all(check_selector(c) for c in parts):
                listed = ", ".join(f'"{c}"' for c in parts)
                raise ConfigError(f"{where}: {code!r} is one string; write a list of codes: [{listed}]")
            raise ConfigError(f"{where}: unknown rule or prefix {code!r} (see 'catalint rules')")
    return codes


def _known(code: str) -> bool:
    """check_selector, remembered: a config may give the same codes for thousands of globs."""
    key = (code, len(all_rules()))
    if key not in _KNOWN:
        if len(_KNOWN) > 4096:
            _KNOWN.clear()
        _KNOWN[key] = check_selector(code)
    return _KNOWN[key]


_KNOWN: dict[tuple[str, int], bool] = {}
_EMPTY = "no rule code given; write a code or prefix such as DESC or SCH-002, or ALL for every rule but CMP"


COMMAND_LINE = "command line"
_FLAGS = {"extend-gate": "--gate", "targets": "--target", "gate": "--no-gate"}


def _named(where: str, key: str) -> str:
    """How a message names a setting: by its key in a config file, by its flag on the command line."""
    if where == COMMAND_LINE:
        return f"{where}: {_FLAGS.get(key, '--' + key)}"
    return f"{where}: {key}"


def _entry(where: str, key: str, sub: str) -> str:
    """How a message names one entry of a setting: `severity.DESC-001` in a file, `--severity DESC-001`
    on the command line."""
    if where == COMMAND_LINE:
        return f"{_named(where, key)} {sub}"
    # a key with a space, a colon or a quote is quoted, as TOML writes it (and placed() finds it)
    return f"{where}: {key}.{json.dumps(sub, ensure_ascii=False) if _UNQUOTED.search(sub) else sub}"


def apply_table(settings: Settings, table: dict[str, Any], where: str, root: Path | None = None) -> None:
    """Lay a [tool.catalint] table (or the same keys from the CLI) over settings: a config over the one it
    extends, the flags over a config. Its rule selection and [severity] are a layer of their own (as in ruff,
    its select replaces the selection whole), the rest replace or add to what is there. root: the folder its
    globs are read from, when not the settings' own (an extended file's)."""
    if where == COMMAND_LINE:  # a flag's glob: from where it was typed
        root = Path.cwd().resolve()
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        from difflib import get_close_matches

        near = get_close_matches(unknown[0], sorted(_KEYS), n=1)
        hint = f"did you mean {near[0]!r}? " if near else ""
        raise ConfigError(f"{where}: unknown setting {unknown[0]!r} ({hint}known: {', '.join(sorted(_KEYS))})")
    settings._as_built()
    select = _codes(table["select"], _named(where, "select")) if "select" in table else None
    extend = _codes(table["extend-select"], _named(where, "extend-select")) if "extend-select" in table else []
    ignore = _codes(table["ignore"], _named(where, "ignore")) if "ignore" in table else []
    # as in ruff, every table is a layer, deciding every rule it names (one that names none still takes the
    # ignore a `select = []` below it hands on)
    settings.rule_layers.append((None if select is None else tuple(select), tuple(extend), tuple(ignore)))
    if "fail-severity" in table:
        settings.fail_severity = _severity(table["fail-severity"], _named(where, "fail-severity"))

    def walk_globs(key: str) -> list[str]:
        """A list of include/exclude globs; an extended file's with a slash made absolute from its folder, as
        in ruff (read from the folder of the file that extends it, 'proj/legacy' named nothing)."""
        globs = _strings(table[key], _named(where, key))
        if root is None or (where == COMMAND_LINE and not key.startswith("extend-")):
            return globs  # a config's own, or --include/--exclude's: read from the directory argument, as ever
        # an extended file's, or --extend-exclude's: from that file's folder, or where the flag was typed; in a
        # file "/legacy" names the folder's own legacy, as in a .gitignore, on the command line the path typed
        typed = where == COMMAND_LINE
        return [
            _anchor(g if typed else g.lstrip("/"), root) if _has_folder(g) and not _any_depth(g) else g for g in globs
        ]

    if "include" in table:
        settings.include = walk_globs("include")
        settings.flag_globs["include"] = where == COMMAND_LINE
    if "exclude" in table:
        settings.exclude = walk_globs("exclude")
        settings.flag_globs["exclude"] = where == COMMAND_LINE
    # as in ruff: lists of their own, checked beside include and exclude, added to those of the config this
    # one extends; an include or exclude (a config's, a flag's) replaces only its own list
    if "extend-include" in table:
        settings.extend_include = [*settings.extend_include, *walk_globs("extend-include")]
    if "extend-exclude" in table:
        settings.extend_exclude = [*settings.extend_exclude, *walk_globs("extend-exclude")]
    for key in ("force-exclude", "respect-gitignore"):
        if key in table:
            if not isinstance(table[key], bool):
                raise ConfigError(f"{_named(where, key)} must be true or false, not {kind(table[key])}")
            setattr(settings, key.replace("-", "_"), table[key])
    if "severity" in table:
        sev = table["severity"]
        if not isinstance(sev, dict):
            raise ConfigError(f'{where}: severity must be a table of RULE = "critical|warning|info", not {kind(sev)}')
        levels: dict[str, Severity] = {}
        for code, value in sev.items():
            if not code.strip():  # "" = "info" would match every rule
                raise ConfigError(f"{_named(where, 'severity')}: an empty key ({_EMPTY})")
            if code != code.strip():  # " DESC-001 " is no code, and stored as written it would match none
                raise ConfigError(
                    f"{_named(where, 'severity')}: unknown rule or prefix {code!r} (see 'catalint rules')"
                )
            _codes([code], _entry(where, "severity", code))  # placed at its key, as a bad level is
            levels[code.upper()] = _severity(value, _entry(where, "severity", code))
        settings.severity_layers.append(levels)  # --severity DESC=critical decides DESC-009 too, whatever the file says
    # as in ruff: per-file-ignores replaces those of the file extended (and --per-file-ignores every
    # config's), extend-per-file-ignores adds to them
    for key in ("per-file-ignores", "extend-per-file-ignores"):
        if key not in table:
            continue
        pfi = table[key]
        if not isinstance(pfi, dict):
            raise ConfigError(f'{_named(where, key)} must be a table of "GLOB" = [RULES], not {kind(pfi)}')
        own = []
        for pattern, rules in pfi.items():
            codes = _codes(rules, _entry(where, key, pattern))
            label = f"{key} {pattern!r} ({', '.join(codes)})"
            own.append(FileIgnore(pattern, codes, label, root=root, source=where))
        settings.per_file_ignores = own if key == "per-file-ignores" else [*settings.per_file_ignores, *own]
    for key in ("tool-token-budget", "catalog-token-budget"):
        if key in table:
            value = table[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                got = value if isinstance(value, int) and not isinstance(value, bool) else kind(value)
                raise ConfigError(f"{where}: {key} must be a positive whole number of tokens, not {got}")
            setattr(settings, key.replace("-", "_"), value)
    if "gate" in table:
        from catalint.gate import parse_gate_table

        value = table["gate"]
        if value is False:
            settings.gate_enabled = False
            settings.extend_gate = []
        elif value is True:
            settings.gate_enabled = True
        else:  # a gate table replaces the checks below it whole, extend-gate's of the file it extends too
            settings.gate = parse_gate_table(value, _named(where, "gate"))
            settings.gate_enabled = True
            settings.extend_gate = []
    if "extend-gate" in table:
        from catalint.gate import merge, parse_short

        where_key = _named(where, "extend-gate")
        extra = [parse_short(g, where_key) for g in _strings(table["extend-gate"], where_key)]
        settings.extend_gate = merge(settings.extend_gate, extra)
    if "targets" in table:
        from catalint.profiles import resolve

        targets = _strings(table["targets"], _named(where, "targets"))
        for target in targets:
            try:
                resolve(target)
            except ValueError as exc:
                raise ConfigError(f"{_named(where, 'targets')}: {exc}") from None
        settings.targets = targets
    if "per-tool-ignores" in table:
        entries = table["per-tool-ignores"]
        if not isinstance(entries, list):
            raise ConfigError(f"{where}: per-tool-ignores must be an array of tables, not {kind(entries)}")
        for i, entry in enumerate(entries):
            if where == COMMAND_LINE:  # one glob a flag
                label = f"{_named(where, 'per-tool-ignores')} {entry['tools'][0]}"
            else:
                label = f"{where}: per-tool-ignores[{i}]"
            settings.per_tool_ignores.append(_tool_ignore(entry, label, where, root))
        wild = sum(1 for e in settings.per_tool_ignores for g in e.tools if _WILDCARD.search(g))
        if wild > MAX_TOOL_WILDCARDS:
            raise ConfigError(
                f"{where}: per-tool-ignores: {wild:,} tool globs with a wildcard; catalint takes at most"
                f" {MAX_TOOL_WILDCARDS:,} (every tool name is matched against each; names without one cost nothing)"
            )


def _tool_ignore(entry: Any, where: str, source: str, root: Path | None) -> ToolIgnore:
    if not isinstance(entry, dict):
        raise ConfigError(f"{where} must be a table with tools, rules and an optional reason, not {kind(entry)}")
    extra = sorted(set(entry) - {"tools", "rules", "reason", "files"})
    if extra:
        raise ConfigError(f"{where}: unknown key {extra[0]!r} (known: tools, rules, reason, files)")
    if "tools" not in entry or "rules" not in entry:
        raise ConfigError(f"{where} needs both 'tools' (name globs) and 'rules'")
    reason = entry.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise ConfigError(f"{where}: reason must be a string, not {kind(reason)}")
    tools = _strings(entry["tools"], f"{where}: tools")
    codes = _codes(entry["rules"], f"{where}: rules")
    files = _strings(entry.get("files", []), f"{where}: files")
    label = f"per-tool ignore tools={','.join(tools)} rules={','.join(codes)}"
    if files:  # two entries told apart only by their files must read apart in a notice
        label += f" files={','.join(files)}"
    return ToolIgnore(tools, codes, reason, files, label, source=source, root=root)


def _severity(value: Any, where: str) -> Severity:
    if not isinstance(value, str):
        raise ConfigError(f"{where} must be one of critical, warning, info, not {kind(value)}")
    try:
        return Severity.parse(value)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def read_table(path: Path) -> dict[str, Any] | None:
    """The catalint table of a config file; None for a pyproject.toml without one."""
    shown = shown_path(path)
    try:
        with path.open("rb") as fh:
            raw = fh.read()
        # A UTF-8 byte order mark, as some Windows editors write one, is no TOML statement: read past it.
        text = raw.decode("utf-8").removeprefix("\ufeff")
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r" \(at line (\d+), column (\d+)\)$", str(exc))
        if found is not None:
            detail = str(exc)[: found.start()]
            raise ConfigError(f"{shown}:{found.group(1)}:{found.group(2)}: invalid TOML: {detail}") from None
        if str(exc).endswith(" (at end of document)"):  # `select = [` with nothing after it
            line, column = _end_of(text)
            detail = str(exc).removesuffix(" (at end of document)")
            raise ConfigError(f"{shown}:{line}:{column}: invalid TOML: {detail} (at end of document)") from None
        raise ConfigError(f"{shown}: invalid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{shown}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{shown}: invalid TOML: not UTF-8") from None
    except RecursionError:  # tomllib parses arrays and inline tables by recursion, with no limit of its own
        raise ConfigError(f"{shown}: invalid TOML: nested too deeply") from None
    if path.name == "pyproject.toml":
        tool = doc.get("tool", {})
        table = tool.get("catalint") if isinstance(tool, dict) else None
        if table is None:
            return None
    else:
        # catalint.toml holds the keys at top level; a [tool.catalint] there is an error, as [tool.ruff] is
        # in ruff.toml (read, it would hide any top-level keys beside it; passed over, all of its own).
        tool = doc.get("tool")
        if isinstance(tool, dict) and "catalint" in tool:
            raise ConfigError(
                f"{_tool_table_place(text, shown)}: [tool.catalint] belongs in pyproject.toml; in {path.name}"
                " the settings go at the top level: move them out of the table (or into pyproject.toml)"
            )
        table = doc
    if not isinstance(table, dict):  # tool.catalint = 5, or tool = {catalint = 5}: at its value
        from catalint.toml_position import locate

        found = locate(text, ["catalint"], ["tool"], value=True)
        where = shown if found is None else f"{shown}:{found[0]}:{found[1]}"
        raise ConfigError(f"{where}: [tool.catalint] must be a table, not {kind(table)}")
    return table


def _end_of(text: str) -> tuple[int, int]:
    """1-based line and column just past the last character of the last line with any text on it."""
    lines = lines_of(text)
    number = max((i for i, line in enumerate(lines) if line.strip()), default=0)
    return number + 1, len(lines[number].rstrip()) + 1


def _tool_table_place(text: str, shown: str) -> str:
    """FILE:LINE:COL of the first [tool.catalint...] header or tool.catalint key in the config's text, else FILE."""
    for number, line in enumerate(lines_of(text), 1):
        found = _TOOL_TABLE.match(line)
        if found:
            return f"{shown}:{number}:{found.start(1) + 1}"
    return shown


_TOOL_TABLE = re.compile(r"""\s*(\[*\s*["']?tool["']?\s*(?:\.\s*["']?catalint["']?|=\s*\{\s*["']?catalint["']?\s*=))""")


def shown_path(path: Path) -> str:
    """How messages name a config file: relative to the working directory when it is below it
    (there may be one in several folders), else in full."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (OSError, ValueError):
        return str(path)


def find_config(start: Path, known: dict[Path, Path | None] | None = None) -> Path | None:
    """The nearest config file at or above the directory start. known: each folder's answer, read and added
    to, so that a tree is searched once a folder (500 nested folders, each asking again up to the root, took
    13 s)."""
    # the folders above start as named, as ruff walks them: a catalog reached through a folder link takes the
    # config above the link, not above its target
    directory = Path(os.path.abspath(start))
    walked: list[Path] = []
    found: Path | None = None
    for folder in (directory, *directory.parents):
        if known is not None and folder in known:
            found = known[folder]
            break
        walked.append(folder)
        for name in CONFIG_NAMES:
            candidate = folder / name
            # os.path: Path.is_file() raises in a folder that cannot be searched (the walk reports it)
            if os.path.isfile(candidate) and read_table(candidate) is not None:
                found = candidate
                break
        if found is not None:
            break
    if known is not None:
        known.update(dict.fromkeys(walked, found))
    return found


def load_settings(config_path: Path | None) -> Settings:
    settings = Settings(path=config_path)
    if config_path is not None:
        chain = _chain(config_path)
        settings.extends = [path for path, _ in chain[-2::-1]]
        home = config_path.parent.resolve()
        for path, table in chain:
            where = shown_path(path)
            folder = path.parent.resolve()
            try:  # an extended file's globs are read from its own folder, as in ruff
                apply_table(settings, table, where, root=None if folder == home else folder)
            except ConfigError as exc:
                raise ConfigError(placed(str(exc), where, path)) from None
    return settings


def _chain(config_path: Path) -> list[tuple[Path, dict[str, Any]]]:
    """The config file and those it extends, each with its table: the one extended first."""
    chain: list[tuple[Path, dict[str, Any]]] = []
    seen = [config_path.resolve()]  # and each file _extended resolves
    path = config_path
    while True:
        table = read_table(path)
        if table is None:
            if chain:  # named by an extend
                where = shown_path(chain[-1][0])
                message = f"{where}: extend: {shown_path(path)} has no [tool.catalint] table"
                raise ConfigError(placed(message, where, chain[-1][0]))
            raise ConfigError(f"{shown_path(path)}: no [tool.catalint] table")
        chain.append((path, table))
        if "extend" not in table:
            return chain[::-1]
        where = shown_path(path)
        try:
            path = _extended(table["extend"], path, seen)
        except ConfigError as exc:
            raise ConfigError(placed(f"{where}: {exc}", where, path)) from None


MAX_SHOWN_EXTEND = 1024  # characters of an extended file's path as joined; past them, its real path is used


def _extended(value: Any, path: Path, seen: list[Path]) -> Path:
    """The config file an extend setting names: read from the folder of the file that names it."""
    if not isinstance(value, str):
        raise ConfigError(f"extend must be a string: the path of a config file, not {kind(value)}")
    if not value.strip():
        raise ConfigError("extend: an empty path; name a pyproject.toml, catalint.toml or .catalint.toml")
    if "\0" in value:
        raise ConfigError(f"extend: {value!r}: a path cannot hold a NUL character")
    target = path.parent / os.path.expanduser(value)
    try:
        real = target.resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a loop of symbolic links
        raise ConfigError(f"extend: {value!r}: {getattr(exc, 'strerror', None) or exc}") from None
    if real in seen:
        loop = " -> ".join([*(shown_path(p) for p in seen), shown_path(target)])
        raise ConfigError(f"extend: {value!r} closes a loop ({loop})")
    seen.append(real)
    if len(os.fspath(target)) > MAX_SHOWN_EXTEND:  # a chain of "../x" hops grew it: the OS would refuse it
        target = real
    # os.path: a FIFO or device is no config (reading one could wait or run on forever)
    if not os.path.isfile(target):
        what = "no such file"
        if os.path.exists(target):
            what = "a folder" if os.path.isdir(target) else "not a regular file"
        raise ConfigError(f"extend: {value!r}: {what} ({shown_path(target)})")
    return target


_UNKNOWN = re.compile(r"unknown (?:setting|key|gate target|smell) '([^']+)'")
_SETTING = re.compile(r"([a-z-]+)(?:\[(\d+)\])?(?:\.(.+?))?(?:\[\d+\])?$")
_TOOL_IGNORE_KEY = re.compile(r" (tools|rules|reason|files)[:\s]")
_UNQUOTED = re.compile(r'[\s:"\\]')  # what a key in a message must be quoted for
_QUOTED_KEY = re.compile(r'([a-z-]+)\.("(?:[^"\\]|\\.)*")')
_TYPE_ERRORS = (" must be ", ": a matcher is ", " needs a number")


def placed(message: str, where: str, path: Path) -> str:
    """message ('FILE: select: ...') with the line:col of the setting it names after FILE, when
    the text shows where that is."""
    from catalint.toml_position import locate

    if not message.startswith(f"{where}: "):
        return message
    rest = message[len(where) + 2 :]
    unknown = _UNKNOWN.search(rest)
    keys: list[str | int] = []
    quoted = _QUOTED_KEY.match(rest)
    if rest.startswith("unknown setting") and unknown:
        keys = [unknown.group(1)]
    elif quoted:  # per-file-ignores."my file.json": ...
        keys = [quoted.group(1), json.loads(quoted.group(2))]
    else:
        token = _SETTING.match(re.split(r"[:\s]", rest, maxsplit=1)[0])
        if token is None:
            return message
        keys = [token.group(1)]
        if token.group(2) is not None:
            keys.append(int(token.group(2)))
        if token.group(3) is not None:
            keys.append(token.group(3))
        elif unknown:
            keys.append(unknown.group(1))
        elif token.group(2) is not None and (sub := _TOOL_IGNORE_KEY.match(rest, token.end() + 1)):
            keys.append(sub.group(1))  # per-tool-ignores[1]: tools must be ...: the tools line
    try:
        text = path.read_text(encoding="utf-8").removeprefix("\ufeff")
    except (OSError, UnicodeDecodeError):
        return message
    value = any(phrase in rest for phrase in _TYPE_ERRORS)  # a value of the wrong type: point at the value
    found = locate(text, keys, ["tool", "catalint"] if path.name == "pyproject.toml" else [], value)
    if found is not None:
        return f"{where}:{found[0]}:{found[1]}: {rest}"
    return message


def _enabled_codes(layers: tuple[Layer, ...], targets: tuple[str, ...]) -> tuple[str, ...]:
    """The rules these layers turn on, worked out once per distinct stack (a run over many files asks again for
    each file). As ruff does: starting from the rules on by default, each layer in turn sets every rule it names,
    its most specific selector deciding (ignore at equal specificity); a layer with select starts afresh, but
    `select = []` with an ignore (and no extend-select) hands its ignore on to the next layer.
    A --target's rule is on too unless an ignore since the last select covers it (ignore = CMP)."""
    rules = all_rules()
    key = (layers, targets, len(rules))
    known = _ENABLED.get(key)
    if known is not None:
        return known
    on = {r.code for r in rules if r.default}
    ignores: list[str] = []
    carried: tuple[str, ...] = ()  # as ruff: `select = []` with an ignore hands the ignore to the next layer
    for select, extend, own_ignore in layers:
        ignore, carried = (*own_ignore, *carried), ()
        chosen = [*(select or ()), *extend]
        said = {}
        for r in rules:
            sel = _specificity(chosen, r.code)
            ign = _specificity(list(ignore), r.code)
            if sel is not None or ign is not None:
                said[r.code] = sel is not None and (ign is None or sel > ign)
        if select is not None:
            on, ignores = {c for c, yes in said.items() if yes}, []
            if not select and not extend and own_ignore:
                carried = own_ignore
        else:
            on = (on | {c for c, yes in said.items() if yes}) - {c for c, yes in said.items() if not yes}
        ignores += ignore
    if targets:
        from catalint.profiles import selectors

        profile = selectors(list(targets))
        on |= {
            r.code for r in rules if _specificity(profile, r.code) is not None and _specificity(ignores, r.code) is None
        }
    if len(_ENABLED) > 64:
        _ENABLED.clear()
    _ENABLED[key] = found = tuple(r.code for r in rules if r.code in on)
    return found


_ENABLED: dict[tuple[object, ...], tuple[str, ...]] = {}


class SettingsResolver:
    """Settings for each linted file: --config, else the nearest file (none above it: the working directory's,
    as in ruff); then CLI overrides."""

    def __init__(self, explicit: Path | None, overrides: dict[str, Any], isolated: bool = False) -> None:
        self.explicit = explicit
        self.overrides = overrides
        self.isolated = isolated  # --isolated: no config file, only the defaults and the flags
        self._by_config: dict[Path | None, Settings] = {}
        self._by_dir: dict[Path, Path | None] = {}
        self._found: dict[Path, Path | None] = {}  # find_config's answers, by resolved folder

    def _settings(self, config: Path | None) -> Settings:
        if config not in self._by_config:
            settings = load_settings(config)
            settings.explicit = config is not None and config == self.explicit
            apply_table(settings, self.overrides, COMMAND_LINE)
            self._by_config[config] = settings
        return self._by_config[config]

    def for_dir(self, directory: Path) -> Settings:
        if self.explicit is not None or self.isolated:
            return self._settings(self.explicit)
        if directory not in self._by_dir:
            found = find_config(directory, self._found)
            if found is None:  # as in ruff: a file below no config (a snapshot in a temp folder) takes the
                found = find_config(Path.cwd(), self._found)  # working directory's
            self._by_dir[directory] = found
        return self._settings(self._by_dir[directory])

    def for_file(self, file: str) -> Settings:
        return self.for_dir(Path.cwd() if file == "-" else Path(file).parent)

    def all(self) -> list[Settings]:
        return list(self._by_config.values())
