"""CAT rules: what is wrong with the catalog as a whole (or with a tool's name in it)."""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache

from catalint.model import Tool
from catalint.registry import CatalogHit, Hit, rule
from catalint.sourcemap import join_pointer
from catalint.text import casefold, fold_space

TOOL_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")


@rule(
    "CAT-001",
    "duplicate-tool-name",
    "critical",
    "brittle",
    "Two tools share a name (or names equal ignoring case)",
    scope="catalog",
)
def duplicate_tool_name(tools: list[Tool]) -> Iterator[CatalogHit]:
    """
    **What it catches.** A tool whose name repeats an earlier tool's name in the
    same file, exactly, ignoring case (`search` and `Search`, by Unicode case
    folding), or as the same text in another Unicode normalization form (`café`
    written with `é` and with `e` plus a combining accent, which look alike). The
    later tool is reported, naming the first.

    **Why.** `tools/call` names a tool by its name alone, so two tools with one
    name make one of them unreachable, and clients differ in which one they keep
    (the MCP specification, 2025-11-25, Server features, Tools, "Tool Names":
    names SHOULD be unique within a server). Names that differ only in case collide
    in clients that fold case and confuse the model in the rest.

    **Bad.** two tools named `search`, or `search` and `Search`

    **Good.** `search_issues` and `search_code`

    **Fix.** Rename one of them after what it does differently.
    """
    first: dict[str, Tool] = {}
    for tool in tools:
        name = tool.name if tool.name.isascii() else unicodedata.normalize("NFC", tool.name)
        key = name.casefold()
        earlier = first.get(key)
        if earlier is None:
            first[key] = tool
            continue
        if earlier.name == tool.name:
            how = "repeats"
        elif unicodedata.normalize("NFC", earlier.name) == name:
            how = "is the same text, in another Unicode normalization form, as"
        elif earlier.name.isascii() and tool.name.isascii():
            how = "differs only in case from"
        else:  # Unicode case folding: the Kelvin sign is a "k", "ß" is "ss"
            how = "equals, once case is folded,"
        yield CatalogHit(
            tool,
            Hit(
                join_pointer(tool.pointer, "name"),
                f"tool name {tool.name!r} {how} {earlier.name!r} at {earlier.pointer}",
                "give each tool a unique name",
            ),
        )


@rule(
    "CAT-002",
    "invalid-tool-name",
    "warning",
    "brittle",
    "A tool name falls outside the MCP spec's 1-128 characters of [A-Za-z0-9_.-]",
    scope="catalog",
)
def invalid_tool_name(tools: list[Tool]) -> Iterator[CatalogHit]:
    """
    **What it catches.** A tool name that is empty, longer than 128 characters, or
    contains anything other than ASCII letters, digits, `_`, `-` and `.` (spaces,
    `/`, `:`, `@`, non-ASCII letters).

    **Why.** The MCP specification (2025-11-25, Server features, Tools, "Tool
    Names") says names SHOULD be 1 to 128 characters of `A-Z a-z 0-9 _ - .`, with no
    spaces or other characters. Clients and model APIs that map tool names onto
    function names reject or rewrite the rest (the OpenAI tool API accepts at most
    64 of `[a-zA-Z0-9_-]`, the Anthropic API 128, its docs say 64: CMP-OAI-001,
    CMP-ANT-001), which breaks calls by name.

    **Bad.** `"name": "get weather"`, `"name": "weather/get"`

    **Good.** `"name": "get_weather"`

    **Fix.** Use letters, digits, `_`, `-` and `.` only.
    """
    for tool in tools:
        name = tool.name
        if TOOL_NAME.fullmatch(name) is not None:
            continue
        if not name:
            what = "is empty"
        elif len(name) > 128:
            what = f"is {len(name)} characters, over 128"
        else:
            bad = sorted({c for c in name if TOOL_NAME.fullmatch(c) is None})
            what = "contains " + ", ".join(_shown(c) for c in bad[:5])
        yield CatalogHit(
            tool,
            Hit(
                join_pointer(tool.pointer, "name"),
                f"tool name {name!r} {what}; MCP names are 1-128 characters of [A-Za-z0-9_.-]",
            ),
        )


def _shown(char: str) -> str:
    """A character quoted; one that shows nothing on its own (a combining mark, a format character, a
    space other than ' ') as its escape, as repr() already gives a control or a zero-width space."""
    if char != " " and unicodedata.category(char)[0] in "MZC":
        return f"'\\u{ord(char):04x}'" if ord(char) <= 0xFFFF else f"'\\U{ord(char):08x}'"
    return repr(char)


def _normal(text: str) -> str:
    return fold_space(casefold(text))


@rule(
    "CAT-003",
    "duplicate-description",
    "warning",
    "uninformative",
    "Two tools have the same description, so the agent cannot tell them apart",
    scope="catalog",
)
def duplicate_description(tools: list[Tool]) -> Iterator[CatalogHit]:
    """
    **What it catches.** A tool whose description equals an earlier tool's once
    case and runs of whitespace are ignored. Empty descriptions are DESC-001's
    business and are not compared.

    **Why.** The model picks a tool by matching the request against descriptions;
    two identical ones leave it to guess from the names alone. Hasan et al. ("MCP
    Tool Descriptions Are Smelly!", arXiv:2602.14878) count a description that
    does not set the tool apart from its neighbours among the smells that lower
    selection accuracy.

    **Bad.** `list_open_issues` and `list_closed_issues` both described as "List
    issues in a repository."

    **Good.** "List the open issues of a repository, newest first." and "List the
    closed issues of a repository, most recently closed first."

    **Fix.** Say in each description what that tool does that the other does not.
    """
    first: dict[str, Tool] = {}
    for tool in tools:
        text = tool.description
        if not isinstance(text, str) or not text.strip():
            continue
        key = _normal(text)
        earlier = first.get(key)
        if earlier is None:
            first[key] = tool
            continue
        yield CatalogHit(
            tool,
            Hit(
                join_pointer(tool.pointer, "description"),
                f"description is the same as that of {earlier.name!r} ({earlier.pointer}); "
                "an agent cannot tell them apart",
                "say what this tool does that the other does not",
            ),
        )


_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
# Verbs that mean the same action; a catalog should pick one word per action.
SYNONYMS = (
    ("update", "set", "modify"),
    ("delete", "remove", "destroy", "erase"),
    ("fetch", "retrieve", "get"),
    ("search", "find", "lookup"),
)


_FROM = re.compile(r"\bfrom\b|\b(?:relation|link|association)s?\s+between\b", re.IGNORECASE)


def _unlinks(tool: Tool) -> bool:
    """A remove_* tool that takes a thing out of another ("Remove a label from an issue", "Removes the
    relation between two issues"): unlinking, not the deleting that delete_* means."""
    return isinstance(tool.description, str) and _FROM.search(tool.description) is not None


_CAMEL = re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+")
_PREFIX = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")
_DOTTED_SUFFIX = re.compile(r"_[a-z0-9]{1,3}(?=[A-Z0-9]|$)")  # "Node_js" in "startNode_jsBuild"


def _camel(part: str) -> bool:
    """camelCase, also with an underscore standing for a dot inside a word after an inner capital:
    Hostinger's `startNode_jsBuildV1` (from "Node.js")."""
    if _CAMEL.fullmatch(part):
        return True
    head, underscore, _ = part.partition("_")
    if not underscore or head[1:] == head[1:].lower() or part.count("_") != len(_DOTTED_SUFFIX.findall(part)):
        return False
    return bool(_CAMEL.fullmatch(part.replace("_", "")))


@lru_cache(maxsize=1 << 14)  # asked twice a tool: for its style and its verb
def _unprefixed(name: str) -> str:
    """A name's last dotted part, less a prefix before an underscore when camelCase follows it (a namespace
    like a dotted one: `hosting_getDomain` is `getDomain`)."""
    last = name.rsplit(".", 1)[-1]
    prefix, underscore, rest = last.partition("_")
    return rest if underscore and _PREFIX.fullmatch(prefix) and _camel(rest) else last


def naming_style(name: str) -> str | None:
    """snake_case, camelCase, PascalCase or kebab-case of a name's last dotted part; None for one plain word.

    A prefix before an underscore, with camelCase after it, is a namespace like a dotted one:
    Hostinger's `hosting_generateFreeSubdomain` and `agency-hosting_deployWebsite` are camelCase."""
    last = _unprefixed(name)
    if _camel(last):
        return "camelCase"
    if "_" in last and "-" not in last:
        return "snake_case"
    if "-" in last and "_" not in last:
        return "kebab-case"
    if "_" in last or "-" in last:
        return "mixed separators"
    if _CAMEL.fullmatch(last):
        return "camelCase"
    if re.fullmatch(r"(?:[A-Z][a-z0-9]+){2,}", last):
        return "PascalCase"
    return None


def _verb(name: str) -> str | None:
    """The first word of a name's last dotted part, less a namespace prefix (`hosting_getDomain`: get, as
    naming_style reads it); None for a one-word name (`find`), which names an operation of its own (a
    database's verb), not an action on a thing that another tool might word differently."""
    words = _WORDS.findall(_unprefixed(name))
    return words[0].lower() if len(words) > 1 else None


@rule(
    "CAT-004",
    "inconsistent-naming",
    "warning",
    "uninformative",
    "The catalog mixes naming styles, or different verbs for the same action",
    scope="catalog",
)
def inconsistent_naming(tools: list[Tool]) -> Iterator[CatalogHit]:
    """
    **What it catches.** A catalog whose tool names mix styles (`snake_case`
    beside `camelCase`, `PascalCase` or `kebab-case`), reported on the tools in
    the less common styles; and one that names the same action with different
    verbs (`update_user` beside `set_project`, `remove_tag` beside `delete_file`,
    `get_issue` beside `fetch_pull_request`), reported on the tools whose verb is
    the less common one. On a tie, snake_case (for styles) and the verb listed
    first in its group (for verbs) count as the common one, so one side is
    always named. Synonym groups: update/set/modify,
    delete/remove/destroy/erase, fetch/retrieve/get, search/find/lookup ("edit"
    and "change" are left out: editing a document is not setting a value). Not
    reported: a `remove_*` tool whose description says "from" or "the relation
    (link, association) between" (removing a label from an issue unlinks it; it
    deletes nothing), the first verb of a compound name (`search_and_replace`
    edits), and a verb that at least two
    tools and more than a third of its group use, which is a convention of the
    catalog (`find_*` to list, `search_*` to query) rather than a slip. A
    namespace before a dot is ignored, for the style and the verb alike, and
    so is a prefix before an underscore when camelCase follows
    (`hosting_listDomains`, `agency-hosting_deployWebsite`: `hosting_getDomain`
    and `hosting_fetchZone` say get and fetch), and an underscore standing for a dot
    inside a camelCase name (`startNode_jsBuild`, from "Node.js") keeps it
    camelCase; one-word names have no style, and their
    verb is not compared: `find` beside `search_knowledge` in mongodb-mcp-server
    is the database's own operation name.

    **Why.** Agents guess tool names from patterns they have seen in the same
    list; a catalog that says `delete` in one place and `remove` in another makes
    them look for a distinction that is not there, and mixed styles look like tools
    from different servers. Hasan et al. (arXiv:2602.14878) count names and
    descriptions that do not help an agent tell tools apart among the common
    smells; the MCP specification (2025-11-25, Tools, "Tool Names") leaves style to
    the server, so consistency is the author's job.

    **Bad.** `create_issue`, `updateIssue`, `remove_comment`, `delete_label`
    ("Remove a comment": it deletes one, as `delete_label` does)

    **Good.** `create_issue`, `update_issue`, `delete_comment`, `delete_label`

    **Fix.** Pick one style and one verb per action, and rename the odd ones out
    (keep the old names as deprecated aliases if clients depend on them).
    """
    styles = [(naming_style(t.name), t) for t in tools]
    counts = Counter(style for style, _ in styles if style)
    if len(counts) > 1:
        main, main_n = max(counts.items(), key=lambda kv: (kv[1], kv[0] == "snake_case"))
        for style, tool in styles:
            if style and style != main:
                yield CatalogHit(
                    tool,
                    Hit(
                        join_pointer(tool.pointer, "name"),
                        f"tool name {tool.name!r} is {style}; {main_n} of the catalog's {len(tools)} tools use {main}",
                        "use one naming style for every tool",
                    ),
                )
    # `search_and_replace` edits: its first verb is not the one it is named for
    verbs = [(None if "_and_" in t.name else _verb(t.name), t) for t in tools]
    verbs = [(None if v == "remove" and _unlinks(t) else v, t) for v, t in verbs]
    for group in SYNONYMS:
        used = Counter(v for v, _ in verbs if v in group)
        if len(used) < 2:
            continue
        main_verb = max(used.items(), key=lambda kv: (kv[1], -group.index(kv[0])))[0]
        total = sum(used.values())
        # A verb that several tools share, a good part of the group, is a convention of the catalog (find_*
        # to list entities, search_* to run a query), not a slip.
        convention = {v for v, n in used.items() if n >= 2 and 3 * n > total}
        examples = ", ".join(sorted(t.name for v, t in verbs if v == main_verb)[:3])
        others = f"other tools say {main_verb!r}" if used[main_verb] > 1 else f"another tool says {main_verb!r}"
        for verb, tool in verbs:
            if verb in used and verb != main_verb and verb not in convention:
                yield CatalogHit(
                    tool,
                    Hit(
                        join_pointer(tool.pointer, "name"),
                        f"tool name {tool.name!r} says {verb!r} where {others} ({examples})",
                        f"use {main_verb!r} for this action throughout the catalog",
                    ),
                )


def _weightiest(words: set[str], tf: Counter[str], idf: dict[str, float], most: int = 6) -> list[str]:
    """The words that weigh most in this tool's score (rare in the catalog, frequent here), words before
    numbers: "429" and "503" are true differences but not what a description should stress."""
    return sorted(words, key=lambda w: (w.isdigit(), -idf.get(w, 0.0) * tf[w], w))[:most]


@rule(
    "CAT-005",
    "indistinguishable-tools",
    "warning",
    "uninformative",
    "Two tools are so alike that the bench selector picks the other one for a tool's own name",
    scope="catalog",
    default=False,
)
def indistinguishable_tools(tools: list[Tool]) -> Iterator[CatalogHit]:
    """
    **What it catches.** A tool that loses its own name: asked with the words of
    its name as the query, the bench selector (`catalint bench explain`) picks a
    different tool of the catalog, or ties with one that comes earlier. The
    finding names the other tool, the words they share and the words that set
    this tool apart, which are what its description should stress (at most six
    of each, those that weigh most in the selector's score first, numbers last). Off by
    default, because it runs the selector once per tool: about 0.1 s for the
    1,000 tools of `benchmarks/` and 2.5 s for its 10,000 (more than tenfold:
    tools whose names share words are compared with each other). Turn it on with
    `extend-select = ["CAT-005"]`.

    Each description is read without the names of the catalog's other tools
    (names spelt like identifiers: `read_paper`, `get-library-docs`): "call
    get-library-docs next" routes the agent, it does not describe this tool.
    A tool whose description says a word of its name (a longer form counts:
    "listing" for `list`) is reported only when its description and the other's
    are alike, a cosine similarity of at least 0.35 between their words
    weighted by how rare each is in the catalog (tf-idf): a long description
    that loses to a short one about something else has lost on length, not on
    sense. Not judged either:
    - names that leave fewer than two content words once stop words go
      (`get_config` asks for "config");
    - a tool whose name holds every content word of the other's and differs
      from it only by a stop word the query drops (`get_table` and
      `update_table`, `power_on_droplet` and `power_off_droplet`);
    - names the selector reads alike though they differ (`API-get-user` and
      `API-get-users`) when the descriptions differ: one of them always loses;
    - a tool whose name holds a content word the other's lacks, when its
      description says that word (`list_pyroscope_label_names`, "lists the
      label names …", beside `list_pyroscope_label_values`): the name and the
      description tell them apart, whichever wins the score (on the corpus of
      real catalogs, the eight tools this rule reported before were all such);
    - a tool whose rival is a more specific tool named so, its name holding
      every content word of this one's and more (`list_issues` beside
      `list_issue_types`, `create_pull_request` beside
      `create_pull_request_review`), when this tool's description says the
      words of its name too and something of its own: the names tell them
      apart where the selector cannot look.

    **Why.** If a lexical match on a tool's own name lands on a tool whose
    description reads alike, or on any other tool while this one's description
    never says what its name says, a model choosing between them has little
    more to go on than the selector. Wang et al. (arXiv:2602.18914)
    found that a well-described server among five equivalents was picked 72% of
    the time: the description is what separates look-alikes.

    **Bad.** `download_paper` "Fetch the PDF for an arXiv identifier and convert
    it to markdown, storing the result locally so that later calls can use it
    without network access." beside `read_paper` "Read the text of a paper. A
    paper must be downloaded first; download the paper if it is missing.": asked
    for "download paper", the selector picks `read_paper`.

    **Good.** `download_paper` "Download a paper: fetch its PDF by arXiv
    identifier and store it as markdown, for read_paper to read."

    **Fix.** Say in each description what the tool does that the other does not,
    with the words a user would use for it.
    """
    from catalint.selector import Index, best_rival, document, is_stop, tokens, words

    if len(tools) < 2:
        return
    texts = _without_other_names([t.description if isinstance(t.description, str) else "" for t in tools], tools)
    docs = [document(t.name, text) for t, text in zip(tools, texts, strict=True)]
    index = Index(docs)
    # each tool's name words, name terms and description terms, read once however often it is a rival
    read: dict[int, tuple[list[str], set[str], _Said]] = {}

    def of(j: int) -> tuple[list[str], set[str], _Said]:
        if j not in read:
            read[j] = words(tools[j].name), set(tokens(tools[j].name)), _Said(tokens(texts[j]))
        return read[j]

    for i, tool in enumerate(tools):
        query = tokens(tool.name)
        if len(set(query)) < 2:  # "get_config" asks for "config": too little to judge
            continue
        rival = best_rival(index, query, i)
        if rival is None:
            continue
        r = rival[1]
        other = tools[r]
        if other.name == tool.name:
            continue
        (mine, _, said), (theirs_words, named, their_said) = of(i), of(r)
        asked = set(query)
        if asked <= named and any(is_stop(w) for w in set(mine) - set(theirs_words)):
            continue  # what sets the name apart is only a word the query cannot carry (get/update, on/off)
        own, theirs = docs[i].tf, docs[r].tf
        if asked == named and mine != theirs_words and own.keys() - theirs.keys():
            continue  # names the selector reads alike (API-get-user, API-get-users), descriptions that differ
        if asked < named and all(said.says(w) for w in asked) and own.keys() - theirs.keys():
            continue  # a more specific tool, named so (list_issues, list_issue_types); this one says what it is
        if any(said.says(w) for w in asked - named):
            continue  # a word of its name the other's lacks, and its description says it: the two are told apart
        if any(said.says(w) for w in asked) and _alike(said.counts, their_said.counts, index.idf) < ALIKE:
            continue  # a description that says its name and reads unlike the other's: lost on length, not sense
        surface = _surface(f"{tool.name} {texts[i]}")
        shared = ", ".join(surface[w] for w in _weightiest(own.keys() & theirs.keys(), own, index.idf)) or "nothing"
        apart = ", ".join(surface[w] for w in _weightiest(own.keys() - theirs.keys(), own, index.idf))
        apart = f"only {apart} set {tool.name!r} apart" if apart else f"nothing sets {tool.name!r} apart"
        asked_for = " ".join(w for w in words(tool.name) if not is_stop(w))
        yield CatalogHit(
            tool,
            Hit(
                join_pointer(tool.pointer, "description"),
                f"asked for {asked_for!r}, the bench selector picks {other.name!r} over {tool.name!r}; "
                f"they share {shared}; {apart}",
                "say in the description what this tool does that the other does not",
            ),
        )


# A name spelt like an identifier (a separator, or a capital after a small letter): a plain word such as
# "search" is not one, and is left in the text. Runs of such characters are cut out of the text in one
# linear pass (a regular expression with nested repeats took minutes on a 40,000-letter word).
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_RUN = re.compile(r"[A-Za-z0-9_.\-]+")
_CAMEL_STEP = re.compile(r"[a-z0-9][A-Z]")


def _identifier(name: str) -> bool:
    return (
        bool(name)
        and name == name.strip("._-")
        and set(name) <= _NAME_CHARS
        and (any(c in name for c in "_.-") or _CAMEL_STEP.search(name) is not None)
    )


def _without_other_names(texts: list[str], tools: list[Tool]) -> list[str]:
    """Each description with the names of the catalog's other tools blanked out: "call get-library-docs
    next" routes the agent to that tool, it does not describe this one."""
    names = {t.name.lower() for t in tools if _identifier(t.name)}
    if not names:
        return texts
    out = []
    for tool, text in zip(tools, texts, strict=True):
        own = tool.name.lower()

        def blank(match: re.Match[str], own: str = own) -> str:
            run = match.group()
            core = run.strip("._-")  # "read_file." at the end of a sentence
            low = core.lower()
            if low not in names or low == own:
                return run
            start = run.index(core)
            return f"{run[:start]} {run[start + len(core) :]}"

        out.append(_RUN.sub(blank, text) if text else text)
    return out


# How alike two descriptions must be (cosine of their tf-idf vectors) for a tool whose description says
# its name's words to be reported: 0.35 parts near-copies (get_epic_imagery and get_epic_imagery_by_date,
# 0.96) from tools that share a topic (get_dashboard_by_uid and search_dashboards, 0.09) in the corpus.
ALIKE = 0.35


def _alike(a: Counter[str], b: Counter[str], idf: dict[str, float]) -> float:
    """The cosine similarity of two term counts, each term weighted by its count times its idf."""
    dot = sum(n * b[t] * idf.get(t, 0.0) ** 2 for t, n in a.items() if t in b)
    norm_a = sum((n * idf.get(t, 0.0)) ** 2 for t, n in a.items()) ** 0.5
    norm_b = sum((n * idf.get(t, 0.0)) ** 2 for t, n in b.items()) ** 0.5
    return dot / (norm_a * norm_b) if norm_a and norm_b else 0.0


class _Said:
    """The terms of a description, for asking whether it says a word or a longer form of it ("listing"
    for list): the terms sorted, so the longer forms of a word follow it and one bisection finds them."""

    def __init__(self, terms: list[str]) -> None:
        self.counts = Counter(terms)
        self._sorted = sorted(self.counts)

    def says(self, word: str) -> bool:
        if word in self.counts:
            return True
        at = bisect_left(self._sorted, word)
        return at < len(self._sorted) and self._sorted[at].startswith(word)


def _surface(text: str) -> dict[str, str]:
    """Each selector term of text, as the first word of text that gives it ("photos" for photo)."""
    from catalint.selector import tokens, words

    out: dict[str, str] = {}
    for word in words(text):
        for term in tokens(word):
            out.setdefault(term, word)
    return out
