"""DESC rules: what a tool's description and argument descriptions tell an agent."""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from catalint.arguments import Argument, iter_arguments, top_level_properties
from catalint.model import Tool
from catalint.registry import Hit, rule
from catalint.sourcemap import join_pointer
from catalint.tdqs import says_returns
from catalint.text import (
    MATCH_TRIES,
    PIECE,
    WIDE_WEIGHT,
    LazyRegex,
    clip_folded,
    foreign_latin,
    has_verb,
    lower,
    match_near,
    mostly_latin,
    normalize,
    repeats_name,
    weighted_length,
)

MIN_DESCRIPTION = 20
MAX_DESCRIPTION = 500
MAX_ENUM_TO_MENTION = 12
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


def _description(tool: Tool) -> str:
    text = tool.description
    return text.strip() if isinstance(text, str) else ""


def _desc_pointer(tool: Tool) -> str:
    return join_pointer(tool.pointer, "description")


def _schema_pointer(tool: Tool) -> str:
    return join_pointer(tool.pointer, "inputSchema")


def _quote(text: str, limit: int = 60) -> str:
    return repr(clip_folded(text, limit))


@rule(
    "DESC-001",
    "missing-description",
    "critical",
    "underspecified",
    "Description is missing, empty, or under 20 characters",
)
def missing_description(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A tool whose `description` is absent, not a string, blank,
    or shorter than 20 characters once trimmed. A wide (CJK) character counts as
    three, since one carries about a word: `获取所有菜谱` (6 characters, "get all
    recipes") is short, `查询12306余票信息。` ("query remaining 12306 tickets") is not.

    **Why.** An agent chooses tools from their names and descriptions alone. Hasan
    et al. ("MCP Tool Descriptions Are Smelly!", arXiv:2602.14878) found that purpose
    is the component agents depend on most, and Wang et al. (arXiv:2602.18914)
    measured an 11.6-point rise in selection when the functionality of a tool was
    described. A name is not a description.

    **Bad.** `{"name": "get_weather", "description": "Weather"}`

    **Good.** `{"name": "get_weather", "description": "Get the current weather for a
    city: temperature, conditions and wind. Returns a JSON object."}`

    **Fix.** Say what the tool does, to what, and what it returns, in a sentence or two.
    """
    raw = tool.description
    text = _description(tool)
    if raw is None:
        what = "has no description" if "description" not in tool.raw else "has a null description"
        yield Hit(_desc_pointer(tool), what)
    elif not isinstance(raw, str):
        yield Hit(_desc_pointer(tool), "description is not a string")
    elif not text:
        yield Hit(_desc_pointer(tool), "description is empty")
    elif len(text) < MIN_DESCRIPTION and (weight := weighted_length(text)) < MIN_DESCRIPTION:
        size = f"{len(text)} character{'s' * (len(text) != 1)}"
        if weight != len(text):
            size += f" ({weight} counting a wide CJK character as {WIDE_WEIGHT})"
        yield Hit(_desc_pointer(tool), f"description is {size}, under {MIN_DESCRIPTION}: {_quote(text)}")


@rule(
    "DESC-002",
    "overlong-description",
    "warning",
    "verbose",
    "Description is over 500 characters (constraints probably belong in inputSchema)",
)
def overlong_description(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A description longer than 500 characters once trimmed.
    Where a tenth of it or more is the indentation a docstring left on every
    line, the finding says so: that is the first thing to cut.

    **Why.** Every tool description is sent with every request, so length is paid
    for in tokens on each turn. Long descriptions usually carry argument rules
    (formats, limits, allowed values) that belong in `inputSchema`, where clients
    can enforce them. Hasan et al. (arXiv:2602.14878) found that rewriting smelly
    descriptions helped task success but lengthened runs, so length has a cost.

    **Bad.** A 1,200-character description that explains pagination, date formats
    and every field of the result in prose.

    **Good.** Two sentences of purpose and result; `maxLength`, `enum`, `format` and
    per-argument descriptions in the schema.

    **Fix.** Move argument constraints into the schema and cut repetition.
    """
    text = _description(tool)
    if len(text) > MAX_DESCRIPTION:
        message = f"description is {len(text)} characters, over {MAX_DESCRIPTION}"
        indent = _indentation(text)
        if indent * 10 >= len(text):  # a tenth or more: the first thing to cut
            message += f" ({indent} of them the indentation of its lines: dedent it)"
            yield Hit(_desc_pointer(tool), message, "remove the indentation a docstring left on each line")
        else:
            yield Hit(_desc_pointer(tool), message)


def _indentation(text: str) -> int:
    """Characters of the indentation all the lines after the first share (a docstring's), blank lines' too."""
    lines = text.split("\n")[1:]
    widths = [len(line) - len(line.lstrip(" \t")) for line in lines if line.strip()]
    common = min(widths, default=0)
    return sum(common if line.strip() else len(line) for line in lines)


@rule("DESC-003", "description-repeats-name", "critical", "uninformative", "Description only repeats the tool name")
def description_repeats_name(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A description that is the tool name again, compared
    ignoring case, punctuation and the separators `_`, `-`, `.` and spaces, so
    `lookup_city_weather` and "Lookup city weather." are the same.

    **Why.** A description that restates the name adds tokens and no selection
    signal; Hasan et al. (arXiv:2602.14878) list an unstated purpose among the most
    common smells.

    **Bad.** `{"name": "list_issues", "description": "List issues"}`

    **Good.** `{"name": "list_issues", "description": "List open issues in a GitHub
    repository, newest first; returns number, title, labels and author."}`

    **Fix.** Say what the name cannot: scope, inputs, result, side effects.
    """
    text = _description(tool)
    if repeats_name(text, tool.name):
        yield Hit(_desc_pointer(tool), f"description {_quote(text)} only repeats the tool name")


@rule(
    "DESC-004",
    "no-action-verb",
    "warning",
    "uninformative",
    "Description contains no common verb, so the action is unclear",
)
def no_action_verb(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A description with no common action verb (get, list,
    create, search, send... in any inflection: gets, listed, creating).

    **Why.** The verb tells an agent what kind of operation the tool performs
    (read, write, search, delete); without one the agent cannot categorise the
    tool. Wang et al. (arXiv:2602.18914) found the functionality dimension the
    strongest lever on selection.

    The rule judges English only: a description whose letters are mostly
    non-Latin is skipped (a wide CJK character counts as three letters, and
    bracketed tags, code, URLs and identifiers such as `EnvId` are not English
    prose: "[application delivery] 创建部署单" is Chinese), and so is one in
    another language written in Latin letters (more of its function words are
    German, French, Spanish, Italian or Portuguese than English: "Obtiene el
    clima actual de una ciudad."); an empty one is left to DESC-001. A verb
    spelt the British way counts ("Normalises a postcode").

    **Bad.** `"Weather data for cities worldwide."`

    **Good.** `"Get current weather data for a city anywhere in the world."`

    **Fix.** Start with the verb that names the operation.
    """
    text = _description(tool)
    if text and mostly_latin(text) and not has_verb(text) and not foreign_latin(text):
        yield Hit(_desc_pointer(tool), "description names no action (no common verb such as get, list, create)")


_POSITIONAL = LazyRegex(
    r"""
    \b(?:
        (?P<always>
            (?<!suggested\s)(?<!recommended\s)  # "suggested next tool": a step of the conversation
            (?:
                (?:previous|preceding|prior|next|last)\s+tools?
                # a function or command is one of the catalog's only when called: not "the last command"
                # of a shell, "the previous function version" of a Lambda, "the next function" of a stack
              | (?=[cius])(?:(?<!then\s)|(?!\w+\s+(?:the\s+)?next\b))  # "then call the next functions": a time
                (?:call|calling|invoke|invoking|use|using|same\s+as)\s+(?:the\s+)?
                (?:previous|preceding|prior|next|last)\s+(?:function|command)s?
            )
            (?!\s+(?:calls?|results?|outputs?|responses?|invocations?|runs?|executions?)\b)  # a time, not a place
            # a machine's cutting tool or a tool's version: "the next tool in the magazine", "the previous tool version"
            (?!\s+(?:versions?|changes?|changer|used|wear|in\s+the\s+(?:magazine|spindle|holder|turret|carousel))\b)
          | (?:tool|function)s?\s+(?:above|below)
          | as\s+(?:mentioned|described|noted|stated|explained|shown)\s+(?:before|earlier|previously)
        )
      | (?P<back>
            (?:see|as|described|mentioned|noted|stated|explained|shown|listed|defined|given)\s+above
          | (?:the|see)\s+above
        )
      | (?P<forward>
            (?:see|described|mentioned|noted|explained|shown|listed|defined|given|detailed|outlined)\s+below
          | (?:the|see)\s+below
          | following\s+(?:tool|function|command)
        )
    )\b
    # "above" or "below" as a comparison or a compound, not a place in the text: "functions below a coverage
    # threshold", "listed below a given price", "given above ground level", "the above-ground biomass"
    # (but "the above-mentioned credentials" points back)
    (?!\s+(?:a|an|\d|given|certain|some|any|zero|average|ground|sea|freezing|threshold|the\s+(?:threshold|limit|fold))\b)
    (?!-(?!(?:mentioned|listed|named|described|given|noted|cited|stated|referenced)\b))
    """,
    re.IGNORECASE | re.VERBOSE,
)


def _may_be_positional(lowered: str) -> bool:
    """A cheap substring test that every phrase _POSITIONAL matches passes."""
    if "above" in lowered or "below" in lowered:
        return True
    if any(w in lowered for w in ("tool", "function", "command")) and any(
        w in lowered for w in ("previous", "preceding", "prior", "next", "following", "last")
    ):
        return True
    return "as " in lowered and any(w in lowered for w in ("before", "earlier", "previously"))


# A reference into the same description is fine when there is text for it to point at.
_OWN_TEXT = 80


@rule(
    "DESC-005",
    "positional-reference",
    "warning",
    "brittle",
    'Description uses positional phrases ("see above", "previous tool")',
)
def positional_reference(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** Phrases that point at a place: "see above", "as mentioned
    before", "the previous tool", "described below".

    **Why.** An agent sees the catalog as a flat, unordered list: clients reorder
    tools, merge servers and drop tools they filter out, so "above" and "the
    previous tool" point at nothing. Hasan et al. (arXiv:2602.14878) count such
    unstated dependencies among the guideline smells.

    "The previous tool call" (result, output, response) and "the suggested
    (recommended) next tool" are moments in the conversation, not places in the
    catalog, and are left alone. A function or command is taken for a tool only
    where it is called, used or likened to ("call the next function", "same as
    the previous command"): "re-run the last command" of a shell, "the previous
    function version" of a Lambda and "the next function" in a call stack are
    things in the tool's domain. After "then" the next function is the next
    step in time: "call this function first, and then call the next functions"
    (the next tool is still a place: "then call the next tool"). So is a machine's
    cutting tool or a tool's version ("the next tool in the magazine", "the
    previous tool version"), and "above" or "below" as a comparison or in a
    compound ("functions below a coverage threshold", "listed below a given
    price", "above ground level", "the above-ground biomass"; "the
    above-mentioned" and "below-listed" still point at a place).

    A reference into the description itself is allowed when there is text for it
    to point at: "listed below" or "run the following command" followed by the
    list or the command (80 characters or more), or "see above" after 80
    characters or more of the same description.

    **Bad.** `"Same as the previous tool, but for folders."`

    **Good.** `"Delete a folder and everything in it. Use delete_file for single files."`

    **Fix.** Name the other tool or repeat the needed fact.
    """
    text = _description(tool)
    if not _may_be_positional(lower(text)):
        return
    for match in _POSITIONAL.finditer(text):
        if match.group("back") and match.start() >= _OWN_TEXT:
            continue
        if match.group("forward") and len(text) - match.end() >= _OWN_TEXT:
            continue
        yield Hit(_desc_pointer(tool), f"positional phrase {match.group(0)!r} means nothing in a flat catalog")
        return


def _desc_or_schema(arg: Argument) -> str:
    return arg.description_pointer or arg.pointer


@rule(
    "DESC-006", "undocumented-required-argument", "critical", "underspecified", "A required argument has no description"
)
def undocumented_required_argument(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** An argument listed in its object's `required` array whose
    schema (after following a local `$ref`, or a one-branch `allOf` of one) has no
    non-empty `description`, nor one on an `anyOf`/`oneOf`/`allOf` branch or on the
    definition a branch's `$ref` names (Pydantic's optional model, `anyOf:
    [{"$ref": ...}, {"type": "null"}]`). Nested arguments count: properties of object
    arguments and of array items. A `const` (or one-value `enum`) argument is
    left alone: there is no choice to explain; so is an object whose every
    property has its own description (the `path`, `query` and `body` wrappers
    of servers generated from OpenAPI), or an array of such objects (the
    reference memory server's `relations`), since the agent fills it field by
    field.

    **Why.** The agent must supply a required argument on every call, and the
    name alone rarely says the format, unit or source of the value. Hasan et al.
    (arXiv:2602.14878) list missing parameter explanations among the most frequent
    smells in 856 real tools.

    **Bad.** `"city": {"type": "string"}` in `required`.

    **Good.** `"city": {"type": "string", "description": "City name in English,
    e.g. Paris"}`

    A tool description that explains the argument in a docstring-style parameter
    list ("Args: query: ...") still leaves the schema bare, where clients show
    and validate arguments; the message then says to move that text.

    **Fix.** Describe what the value is, its format, and where the agent gets it.
    """
    for arg in iter_arguments(tool):
        if not arg.required or arg.description is not None:
            continue
        if not _fixed_value(arg.schema) and not arg.by_fields:
            message = f"required argument {arg.name!r} has no description"
            if _listed_in_description(arg.name, _description(tool)):
                message += " (the tool description's parameter list covers it: move that text into the schema)"
            yield Hit(arg.pointer, message)


def _listed_in_description(name: str, text: str) -> bool:
    """Whether a docstring-style parameter list in the tool description starts a line with the
    argument: "query: The search text" (Args:), "scr : float" (numpy), "- `query` (str): ..."."""
    if name not in text:  # the common case, a substring test in C
        return False
    if _PLAIN_NAME.fullmatch(name):  # the lines of the list, read once a description (not once an argument)
        return name in _parameter_names(text)
    return len(text) <= PIECE and _parameter_line(name).search(text) is not None


_PLAIN_NAME = re.compile(r"[^\s`(:]+")
_PARAMETER_NAME = re.compile(r"(?m)^[ \t]*(?:[-*•][ \t]*)?`?([^\s`(:]+)`?[ \t]*(?:\([^)\n]*\)[ \t]*)?:")


@lru_cache(maxsize=2)  # the tool being linted: every argument asks of its description
def _parameter_names(text: str) -> frozenset[str]:
    """The names that start a line of a parameter list in text, as _parameter_line finds each."""
    return frozenset(m.group(1) for m in _PARAMETER_NAME.finditer(text)) if ":" in text else frozenset()


@lru_cache(maxsize=1024)
def _parameter_line(name: str) -> re.Pattern[str]:
    # Each run of spaces is read by one [ \t]* only, so a long run cannot make the search backtrack.
    return re.compile(rf"(?m)^[ \t]*(?:[-*•][ \t]*)?`?{re.escape(name)}`?[ \t]*(?:\([^)\n]*\)[ \t]*)?:")


def _fixed_value(schema: dict[str, Any]) -> bool:
    """A `const` or a one-value `enum`: there is nothing to choose, so nothing to explain."""
    enum = schema.get("enum")
    return "const" in schema or (isinstance(enum, list) and len(enum) == 1)


def _enum_values(arg: Argument) -> list[Any] | None:
    """The allowed values: the argument's `enum`, its items' `enum`, or the `enum`s of its
    anyOf/oneOf branches (an optional enum is often `anyOf: [{"enum": [...]}, {"type": "null"}]`)."""
    enum = arg.schema.get("enum")
    if not isinstance(enum, list):
        items = arg.schema.get("items")
        enum = items.get("enum") if isinstance(items, dict) else None
    if not isinstance(enum, list) and ("anyOf" in arg.schema or "oneOf" in arg.schema):
        enum = [v for branch in _branches(arg.schema) for v in _branch_enum(branch)] or None
    return enum if isinstance(enum, list) and enum else None


def _branches(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The object branches of a schema's anyOf and oneOf."""
    found = []
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            found += [b for b in branches if isinstance(b, dict)]
    return found


def _branch_enum(branch: dict[str, Any]) -> list[Any]:
    enum = branch.get("enum")
    if not isinstance(enum, list):
        items = branch.get("items")
        enum = items.get("enum") if isinstance(items, dict) else None
    return [v for v in enum if v is not None] if isinstance(enum, list) else []


# Abbreviated enum values and the words a description spells them out with: "sorted in ascending or
# descending order" names asc and desc.
_SPELLED_OUT = {
    "asc": ("ascending",),
    "desc": ("descending",),
    "enum": ("enumeration", "enumerated"),
    "num": ("number", "numeric"),
    "number": ("numeric",),
    "str": ("string",),
    "int": ("integer",),
    "bool": ("boolean",),
    "min": ("minimum",),
    "max": ("maximum",),
    "avg": ("average",),
    "dev": ("development",),
    "prod": ("production",),
}


LONG_DESCRIPTION = 4096  # characters: a shorter tool description is searched again, cheaper than a set of its words


class _Said(str):
    """A text read as f" {normalize(text)} ", with the set of its words: a long text (a tool description
    asked about by every enum argument) answers a one-word question without being searched again."""

    words: frozenset[str]


@lru_cache(maxsize=2)  # the tool being linted: every argument asks of its description
def _said_of(text: str) -> _Said:
    said = _Said(f" {normalize(text)} ")
    said.words = frozenset(said.split())
    return said


@lru_cache(maxsize=2)  # the tool being linted: every argument asks of its description
def _dehyphenated(text: str) -> _Said | None:
    """text read as _said_of() reads it with its hyphens dropped ("e-mail" as "email"), None without one."""
    return _said_of(text.replace("-", "")) if "-" in text else None


def _has(said: str, form: str) -> bool:
    """Whether said (f" {normalize(text)} ") holds the word sequence form."""
    if isinstance(said, _Said) and " " not in form:
        return form in said.words
    return f" {form} " in said


def _words_in(said: str, value: Any) -> bool:
    """mentions() of value in a text already read as f" {normalize(text)} " (read once for all values)."""
    needle = normalize(_enum_text(value))
    return bool(needle) and _has(said, needle)


def _mentioned(text: str, value: Any, said: str) -> bool:
    """Whether the description names a value that mentions() cannot see: one of other scripts (CJK
    words) or of punctuation only ("." or ",") as it is written; the empty string as '' or \"\";
    an abbreviation spelled out (asc as "ascending"); a plural (day as "days", box as "boxes", city as
    "cities", for a value of three letters or more), a camelCase value in words (inProgress as "in
    progress") or a value written with a hyphen (email as "e-mail").
    said: the text as f" {normalize(text)} "."""
    shown = _enum_text(value)
    if shown == "":
        return "''" in text or '""' in text
    full = _SPELLED_OUT.get(shown.lower())
    if full is not None:
        return any(_words_in(said, word) for word in full)
    if shown.isascii() and (plain := normalize(shown)):
        # "inProgress" -> "in progress"; a value with no capital has no hump to split at
        words = normalize(_CAMEL_HUMP.sub(" ", shown)) if shown != shown.lower() else plain
        forms = [words] if words != plain else []
        if len(words) >= 3 and words[-1].isalpha():
            forms += [words + "s", words + "es"]
            if words[-1] == "y" and words[-2] not in "aeiou":  # country as "countries"
                forms.append(words[:-1] + "ies")
        if any(_has(said, form) for form in forms):
            return True
        # a hyphen a word may be written with or without: email as "e-mail", webhook as "web-hook"
        if isinstance(said, _Said):
            joined: str | None = _dehyphenated(text)
        else:
            joined = f" {normalize(text.replace('-', ''))} " if "-" in text else None
        return joined is not None and any(_has(joined, form) for form in [plain, *forms])
    return shown.lower() in lower(text)


@rule(
    "DESC-007",
    "enum-values-unmentioned",
    "warning",
    "underspecified",
    "An enum argument's description mentions none of its values",
)
def enum_values_unmentioned(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** An argument with an `enum` (or array items with an
    `enum`, or `anyOf`/`oneOf` branches with one, as an optional enum is often
    written) whose description mentions none of the allowed values (nor the
    tool description all of them, see below), compared as whole words
    ignoring case and punctuation (`created_at` matches "created at");
    values in other scripts or of punctuation only are looked for as written,
    and a few abbreviations also count when spelled out (asc as "ascending",
    desc, enum, num, str, int, bool, min, max, avg, dev, prod), as do the
    plural of a value of three letters or more (day as "days", box as
    "boxes", city as "cities"), a camelCase value written as words
    (inProgress as "in progress") and a value written with a hyphen (email
    as "e-mail", webhook as "web-hook"); a plural that is the argument's own
    name ("Days" for days, "Entities" for entity) still names no value.
    Arguments without a description are not this rule's business (see DESC-006),
    nor is a one-value enum (nothing to choose), and enums of more than 12 values
    (units, locales) are left alone: nobody lists those in prose. A value that
    appears only inside the argument's own name is not mentioned: "Merge method"
    names none of merge_method's merge, squash and rebase.

    Values the tool description explains count too, but only all of them, each
    matched as above: "Available methods:" and a line for each of create,
    submit_pending and delete_pending ("- create: Create a new review."), or
    "Update the state of an issue (open or closed)", covers the enum, while
    "Create a review" names one value of three and does not. Every value is
    required whatever the enum's size (up to the 12 looked at). A value that
    any English prose holds (and, or, not, no, all, any, a, the, of, to, in,
    on, at, by, for, from, with, as, is, it, this, that) cannot be seen there,
    so an enum with one must be explained in its own description.

    **Why.** Many clients flatten or drop `enum` when they render tools for the
    model, and a description that explains the values tells the agent which to
    choose. A description that ignores them leaves the agent guessing what each
    value means. Part of the parameter-explanation component of Hasan et al.
    (arXiv:2602.14878).

    **Bad.** `{"enum": ["c", "f"], "description": "Temperature unit"}`

    **Good.** `{"enum": ["c", "f"], "description": "Temperature unit: c for Celsius,
    f for Fahrenheit"}`

    **Fix.** Name the values and say when to use each.
    """
    for arg in iter_arguments(tool):
        text = arg.description
        if text is None:
            continue
        values = _enum_values(arg)
        if values is None or len(values) > MAX_ENUM_TO_MENTION or len(values) == 1:
            continue
        # Whole words first (nearly every value is found so); the as-written fallback only after.
        if _names_a_value(text, values) and not _only_as_its_name(text, values, arg.name):
            continue
        if _names_every_value(_description(tool), values):
            continue  # the tool description explains them ("Available methods: - create: ...")
        distinct = list(dict.fromkeys(_enum_text(v) for v in values))  # branches may repeat one enum
        shown = ", ".join(distinct[:6]) + (", …" if len(distinct) > 6 else "")
        yield Hit(
            _desc_or_schema(arg),
            f"argument {arg.name!r} is an enum ({shown}) but its description mentions none of the values",
        )


def _names_a_value(text: str, values: list[Any]) -> bool:
    said = f" {normalize(text)} "
    return any(_words_in(said, v) for v in values) or any(_mentioned(text, v, said) for v in values)


# Words any English prose holds: as an enum value ("combine": and, or) the tool description cannot
# be seen to name them.
_PROSE_WORDS = frozenset("a an the and or not no all any of to in on at by for from with as is it this that".split())


def _names_every_value(text: str, values: list[Any]) -> bool:
    """Whether the tool description names each value, as _names_a_value() looks for one: a single
    common word ("Create a review") is no explanation of create, submit_pending and delete_pending."""
    if not text or any(normalize(_enum_text(v)) in _PROSE_WORDS for v in values):
        return False
    # a long one read once a tool, however many arguments ask (8 MB and 800 of them: 70 s)
    said = _said_of(text) if len(text) > LONG_DESCRIPTION else f" {normalize(text)} "
    return all(_words_in(said, v) or _mentioned(text, v, said) for v in values)


def _only_as_its_name(text: str, values: list[Any], name: str) -> bool:
    """Whether the values named are only words of the argument's own name: "Merge method" names no
    value of merge_method (merge, squash, rebase), "Merge method: merge or squash" does."""
    lowered = name.lower()
    stems = [t[:-1] if t.endswith("y") else t for v in values if (t := _enum_text(v).lower())]  # entity: entities
    if not any(stem in lowered for stem in stems):
        return False  # the common case, found with substring tests
    own = normalize(_CAMEL_HUMP.sub(" ", _LAST_STEP.split(name)[-1] or name))
    words = [w for v in values if (w := normalize(_enum_text(v)))]
    words += [w[:-1] + "ies" for w in words if w.endswith("y")]
    if not own or not any(f" {w}" in f" {own} " for w in words):  # a word of it, or its start: "days" holds day
        return False
    return not _names_a_value(f" {normalize(text)} ".replace(f" {own} ", " "), values)


_LAST_STEP = re.compile(r"[.\[\]]+(?=[^.\[\]]*$)")  # "filter.status" -> status, "items[].op" -> op
_CAMEL_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _enum_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


@rule(
    "DESC-008",
    "argument-outweighs-tool",
    "warning",
    "verbose",
    "An argument description is longer than the tool description",
)
def argument_outweighs_tool(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** An argument whose description is longer than the tool's
    own description, both measured as DESC-001 measures (a wide CJK character
    counts as three). A tool with no description is left to DESC-001.

    **Why.** Inverted information density: the detail sits where the agent reads
    it last. When an argument needs more words than the tool, the tool's purpose
    is usually under-described or the argument's prose should be schema
    constraints (Hasan et al., arXiv:2602.14878, on purpose versus parameter
    components).

    **Bad.** Tool: `"Run a query."` Argument `sql`: three sentences on dialect,
    limits and quoting.

    **Good.** Tool: `"Run a read-only SQL query against the analytics warehouse and
    return rows as JSON."` Argument `sql`: `"A single SELECT statement."`

    **Fix.** Move purpose into the tool description; turn argument prose into
    `enum`, `pattern`, `maxLength` and similar constraints.
    """
    own_text = _description(tool)
    own = weighted_length(own_text)
    if not own:
        return
    for arg in iter_arguments(tool):
        text = arg.description
        if text is not None and (size := weighted_length(text := text.strip())) > own:
            weighed = size != len(text) or own != len(own_text)
            unit = f"chars, counting a wide CJK character as {WIDE_WEIGHT}" if weighed else "chars"
            yield Hit(
                _desc_or_schema(arg),
                f"argument {arg.name!r} description ({size} {unit}) is longer than the tool description ({own} {unit})",
            )


# An example given in words: "e.g." (or "e.g", "eg:"), "for example/instance", "Example usage:", "an example
# id is ...", "examples of valid kinds are: ...", "such as `x`" and "like 'x'" before a quoted value, the
# Chinese and Japanese "for example", and a default value stated in prose, as a schema `default`
# would be ("defaults to 10", "defaulting to 25", "default: 'json'", "Defaults to false.", "a default
# timeout of 30 seconds", "50 by default"), not a default behaviour ("defaults to the last 24 hours",
# "the default is used", "sorted by default").
_LITERAL = r"""[-+~]?\d|["'`]|(?:true|false|null)\b"""  # a value written as such: "(default ~8)", "Default false."
# A word alone that names a point relative to the call, not a value: "defaults to latest" (commit),
# "Default: Now", "Default: last." (position). Quoted, it is a value: "defaults to 'latest'".
_RELATIVE = r"(?:latest|newest|oldest|now|today|current|last|first|next|previous|recent)\b"
_DEFAULT_VALUE = (
    r"""(?:[-+~]?\d|["'`\[{]|(?:true|false|null|none)\b"""
    rf"|(?!(?:the|a|an|used|applied|set|given|provided|ignored)\b)(?!{_RELATIVE}\s*(?:[.,;)]|$))[\w.-]+\s*(?:[.,;)]|$))"
)
_EG = LazyRegex(r"\beg[.:,]?\s+\S", re.IGNORECASE)
# (key word, pattern, window). Each form is looked for only in a text that holds its key word (a
# substring test in C), which is far cheaper than one search with every form in it. Without a window
# the pattern is searched; with one, the pattern finds where the key word starts and the window is
# tried at its first few occurrences only (match_near), so repeating the word costs little.
_EXAMPLE_FORMS = (
    ("g.", LazyRegex(r"\be\.\s?g\.", re.IGNORECASE), None),  # "g.", not "e.", which most sentences end in
    ("e.g", LazyRegex(r"\be\.g\b", re.IGNORECASE), None),  # "e.g AAPL", its last dot left out
    # "(eg AAPL)", "eg: AAPL"; not "egress", "PEG" (keyed by what follows "eg": "eg" alone is in "integer")
    *((key, _EG, None) for key in ("eg ", "eg.", "eg:", "eg,", "eg\t", "eg\n")),
    (
        "example",
        LazyRegex(r"(?<!\bno\s)\bexamples?\b", re.IGNORECASE),  # not "No examples are available"
        LazyRegex(r"examples?\b[^.\n]{0,40}?(?::|\b(?:is|are)\b|\n\s*```)", re.IGNORECASE),  # or a heading, then code
    ),
    ("such as", LazyRegex(r"""\bsuch as\s+[`'"]""", re.IGNORECASE), None),
    (
        "default",
        LazyRegex(r"\bdefault(?:s|ing)?\b", re.IGNORECASE),
        LazyRegex(
            # "The default size is 100": a word or two may name what defaults; before "of" or in
            # brackets only a literal is a value ("a default timeout of 30 seconds", "the bounded
            # default (12,000 chars)"), not "the default set of filters" or "the default (recommended)"
            rf"default(?:s|ing)?(?:\s+value)?(?:\s+(?:to|is)|\s*[:=]|\s+(?={_LITERAL})|(?:\s+[a-z]+){{1,2}}?(?:\s+is|\s*[:=])"
            rf"|(?:\s+[a-z]+){{0,2}}?\s+of\s+(?={_LITERAL})|\s*\(\s*(?={_LITERAL}))"
            rf"\s*{_DEFAULT_VALUE}",
            re.IGNORECASE,
        ),
    ),
    # a quoted value the text marks as the default: "`similar` (papers in the same niche; the default)",
    # not "`mode` (uses the server default)"
    (
        "default)",
        LazyRegex(
            r"""(?:`[^`\n]{1,40}`|'[^'\n]{1,40}'|"[^"\n]{1,40}")[ \t]*\((?:[^()\n]{0,120}?[;,:—–][ \t]*)?"""
            r"(?:the[ \t]+)?default\)",
            re.IGNORECASE,
        ),
        None,
    ),
    # a value before "by default": "Page size, 50 by default", "'json' by default" (not "sorted by default")
    (
        "by default",
        LazyRegex(r"""(?:[-+~]?\d[\w.]*|(["'`])[^"'`\n]{1,40}\1)\)?[ \t]+by[ \t]+default\b""", re.IGNORECASE),
        None,
    ),
    ("ex", LazyRegex(r"\bex\s*[:.]\s*\S", re.IGNORECASE), None),  # "Port or port range, ex: 1024:2048"
    # a specimen with digits after "format": "in the format '1234567890.123456'" (not 'YYYY-MM-DD')
    ("format", LazyRegex(r"""\bformat\s*:?\s*(['"`])[^'"`\n]*\d[^'"`\n]*\1""", re.IGNORECASE), None),
    # a worked value written inline: "Body: { shift: 'Up' }"
    ("{", LazyRegex(r"""\w:\s*\{\s*["']?\w+["']?\s*:\s*(?:'[^'\n]*'|"[^"\n]*"|-?\d|true\b|false\b)"""), None),
)
# "like 'x'" after a negation in the same sentence names a value to avoid, not an example: "Don't use
# first-person pronouns like "I" or "my"". The sentence is looked for in the 200 characters before.
_LIKE = LazyRegex(r"""\blike\s+[`'"]""", re.IGNORECASE)
_NEGATION = LazyRegex(r"\b(?:not|never|avoid(?:s|ing)?)\b|n['’]t\b", re.IGNORECASE)


def _like_example(text: str) -> bool:
    for tries, found in enumerate(_LIKE.finditer(text)):
        if tries == MATCH_TRIES:
            return False
        start = max(0, found.start() - 200)
        start = max(start, *(text.rfind(end, start, found.start()) + 1 for end in (". ", "! ", "? ", "\n")))
        if not _NEGATION.search(text, start, found.start()):
            return True
    return False


_EXAMPLE_PHRASES = ("for example", "for instance", "例如", "比如", "例えば")
# The bare Chinese "such as" before a quoted value or a list: "分类名称，如水产、早餐" (not 如果 "if", 如何 "how").
_RU = LazyRegex(
    r"""(?:^|(?<=[，,、：:；;（(\s]))如(?![果何下需此同今若期实意])[:：]?\s*(?:["'“「\[【`]|[^\s，。、,.]{1,10}、)"""
)


def _gives_example(text: str) -> bool:
    lowered = lower(text)
    for phrase in _EXAMPLE_PHRASES:
        if phrase in lowered:
            return True
    if "如" in text and _RU.search(text):
        return True
    if "like" in lowered and _like_example(text):
        return True
    for word, pattern, window in _EXAMPLE_FORMS:
        if word in lowered:
            if window is None and pattern.search(text) is not None:
                return True
            if window is not None and match_near(pattern, window, text):
                return True
    return False


def _has_examples(tool: Tool) -> bool:
    schema = tool.input_schema
    for examples in (tool.raw.get("examples"), schema.get("examples") if isinstance(schema, dict) else None):
        if isinstance(examples, list) and examples:  # whole calls
            return True
    if _gives_example(_description(tool)) or _calls_itself(tool):
        return True
    for arg in iter_arguments(tool):
        schema = arg.schema
        if "examples" in schema or "example" in schema or "default" in schema:
            return True
        if ("anyOf" in schema or "oneOf" in schema) and any(  # an optional argument: anyOf [{..., "default": 5}, null]
            "examples" in b or "example" in b or "default" in b for b in _branches(schema)
        ):
            return True
        items = schema.get("items")  # an array argument's element: "items": {"example": "Dividend"}
        if isinstance(items, dict) and ("examples" in items or "example" in items):
            return True
        if arg.description and _gives_example(arg.description):
            return True
    return _assigns_an_argument(tool)


# A worked call of the tool by its own name with a value, as a docstring shows one:
# '>> get_market_cap("20150720", "005930")', 'get_weather(city="Paris")'; not 'get_weather()' nor
# 'get_weather(city)'.
_CALL_VALUE = LazyRegex(
    r"""\([ \t]*(?:[A-Za-z_]\w*[ \t]*=[ \t]*)?(?:[-+]?\d|["'`\[{]|(?:true|false|null|none)\b)""", re.IGNORECASE
)


def _calls_itself(tool: Tool) -> bool:
    name, text = tool.name, _description(tool)
    if not isinstance(name, str) or not name or f"{name}(" not in text:
        return False
    at = text.find(f"{name}(")
    for _ in range(MATCH_TRIES):
        if at < 0:
            return False
        if not (at and (text[at - 1].isalnum() or text[at - 1] in "_-")) and _CALL_VALUE.match(text, at + len(name)):
            return True
        at = text.find(f"{name}(", at + 1)
    return False


# An argument given a literal value inline: "Set compact=true", "`replace_parent=true`",
# 'domain="article"'; the name is checked against the tool's own arguments.
_ASSIGNED = LazyRegex(
    r"(?<![\w.-])([A-Za-z_][\w.-]*)[ \t]?=[ \t]?"
    r"""(?:(?:true|false|null)\b|-?\d|'[^'\n]{1,40}'|"[^"\n]{1,40}"|`[^`\n]{1,40}`)"""
)


def _assigns_an_argument(tool: Tool) -> bool:
    """Whether the tool or an argument description sets one of the tool's arguments to a value:
    "IBW = 50 kg" names no argument, "start=next_start" gives no value."""
    arguments = iter_arguments(tool)
    texts = [t for t in (_description(tool), *(a.description for a in arguments)) if t and "=" in t]
    if not texts:
        return False
    names = {_LAST_STEP.split(a.name)[-1] for a in arguments}
    return any(
        m.group(1) in names or _LAST_STEP.split(m.group(1))[-1] in names
        for text in texts
        for m in _ASSIGNED.finditer(text)
    )


def _non_trivial(tool: Tool) -> bool:
    props = top_level_properties(tool)
    if len(props) > 1:
        return True
    if len(props) == 1:
        ((name, schema),) = props.items()
        required = tool.input_schema.get("required")
        if isinstance(required, list) and name in required:
            return True
        return not (isinstance(schema, dict) and schema.get("type") == "string")
    return False


@rule(
    "DESC-009",
    "no-usage-examples",
    "warning",
    "missing_examples",
    "A tool with a non-trivial input schema gives no usage examples",
)
def no_usage_examples(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A tool whose input schema is non-trivial (more than one
    top-level property, or one property that is required or not a plain string)
    and that shows no example anywhere. It counts as documented when the tool or
    its `inputSchema` has a non-empty `examples` array, when any argument (at any
    depth, or an `anyOf`/`oneOf` branch of one, or a field of an `allOf` part)
    declares `examples`, `example` or `default`, or when the tool or an argument
    description gives one in words: "e.g." (also "e.g", "eg" and "eg:"), "for
    example", "Example usage:", "examples of valid kinds are: ...",
    "such as `a`" or "like 'a'" before a quoted value (not "like" after a
    negation in the same sentence: "Don't use pronouns like "I""), 例如/比如/例えば, 如 before a
    quoted value or a list ("如水产、早餐"), "ex:", a specimen with digits after
    "format" ("in the format '1234567890.123456'"), a value written inline
    ("Body: { shift: 'Up' }"), a default value in prose ("defaults to 10",
    "defaulting to 25", "50 by default", "'json' by default", "default: 'json'",
    "(default ~8)", "The default size is 100", "a default
    timeout of 30 seconds", "the bounded default (12,000 chars)", or a quoted
    value marked as the default: "`similar` (papers in the same niche; the
    default)", "`json` (default)"; after "of" or in brackets only a number, a
    quoted string, true, false or null is a value), or one of the tool's own
    arguments given such a value ("Set compact=true", "`replace_parent=true`",
    'domain="article"'), or a worked call of the tool by its own name with a
    value ('>> get_market_cap("20150720", "005930")', 'get_weather(city="Paris")';
    not 'get_weather()' nor 'get_weather(city)'). Not a behaviour ("defaults to the last hour",
    "defaults to the user's settings", "By default, results are sorted", "sorted by default"; nor a
    bare word for a point relative to the call: "defaults to latest", "Default:
    now", "Default: last"; quoted it is a value: "defaults to 'latest'"), nor a
    default that marks no value ("`mode` (uses the server default)"), nor an
    assignment with no literal value ("start=next_start") or to a name that is
    no argument of the tool ("IBW = 50 kg"). An array argument's `items` with
    `examples` or `example` counts too; "No examples are available" does not.

    **Why.** Anthropic's advanced tool-use guidance reports that worked examples
    raised accuracy on complex parameter handling from 72% to 90%. Hasan et al.
    (arXiv:2602.14878) list examples as one of six description components, though
    removing them did not significantly hurt in their study, hence a warning.

    **Bad.** `create_event(title, start, end, attendees[])` with no example values.

    **Good.** `"start": {"type": "string", "format": "date-time", "examples":
    ["2026-03-01T09:00:00Z"]}`

    **Fix.** Add `examples` to the arguments whose format is not obvious.
    """
    if _non_trivial(tool) and not _has_examples(tool):
        yield Hit(
            _schema_pointer(tool),
            "non-trivial input schema but no usage examples (no examples, example or default on any argument)",
        )


@rule(
    "DESC-010",
    "no-return-format",
    "warning",
    "missing_return_format",
    "Description states an action but never says what the tool returns",
)
def no_return_format(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A description that names an action (it has a verb) but
    uses no return wording (returns, output, result, response, yields, produces,
    gives, comes or gets back;
    the nouns only where they are this tool's result, not in "Error Responses:",
    "the previous response", "your response", "an HTTP response", the agent's
    "final output" ("Provide a single answer as the final output") or the
    results it is told to deliver ("helps you deliver well-reasoned results",
    a list item "Deliver comprehensive results"), "will result in" or a
    setting such as "result limit" or "output directory"), names no format the
    result comes in ("as JSON", "as a PNG image"), says nothing it provides or
    shows ("Provides a summary of ...", "Shows the commit logs", "Shows changes
    that are staged", "will be displayed", or a sentence or list item that
    opens with "Shows", "Provides" or "Displays" whatever follows, as in
    "Shows swaps, adds, removes.", unless it names a means such as "Provides
    access to ...", "Provides programmatic access", "a way to" or "an easy way
    to"; the imperative "Provide direct links to the user" is no result),
    lists no fields ("details including: ...", or after a read verb
    "including a, b and c", "including abstract and formats", "with
    their id and name", where an item may carry a short bracketed note
    ("legacy keys (JWT-based) and publishable keys") and a clause may follow
    "and" ("their type and, for select fields, the options"), or a sentence
    that opens with "Includes" or "Contains" ("Gets an organization. Includes
    subscription plan."), or a noun for what it reads, information, info,
    details, data, metadata, statistics or stats, then "such as rank, win rate
    and history" or "such as a, b, c, etc.": "filters such as ..." lists no
    result, nor do the places it comes from, "data from sources such as S3, GCS
    and Azure") and names no conversion target ("Convert an address to
    coordinates"), while the tool declares no `outputSchema`. English only:
    mostly non-Latin descriptions, and other languages in Latin letters, are
    skipped, as DESC-004 reckons them.

    **Why.** The agent plans its next step from what the call gives back; a
    description that is silent on the result makes it call the tool just to find
    out. The MCP specification (2025-06-18 and later, Server features, Tools)
    added `outputSchema` so that a tool can declare its result; a description is
    the fallback when it does not. The heuristic is coarse: it sees whether the
    description gestures at a result at all, not whether the shape is right, so it
    stays a warning.

    **Bad.** `"Search orders by customer."`

    **Good.** `"Search orders by customer. Returns a list of orders, each with id,
    total and status."`

    **Fix.** Add a sentence on what comes back, or declare an `outputSchema`.
    """
    text = _description(tool)
    if not text or tool.raw.get("outputSchema") is not None or not mostly_latin(text):  # null declares none
        return
    if has_verb(text) and not says_returns(tool) and not foreign_latin(text):
        yield Hit(_desc_pointer(tool), "description never says what the tool returns and there is no outputSchema")


@rule(
    "DESC-011",
    "non-boolean-annotation-hint",
    "warning",
    "invalid_annotation",
    "An annotation hint holds a non-boolean value",
)
def non_boolean_annotation_hint(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** `readOnlyHint`, `destructiveHint`, `idempotentHint` or
    `openWorldHint` present in `annotations` with a value that is not `true` or
    `false` (a string "true", a number, null).

    **Why.** The MCP specification (2025-11-25, Tool annotations) defines the four
    hints as booleans. Clients that gate confirmations on them may read `"false"`
    as true, or ignore the hint, so a destructive tool can run unconfirmed.

    **Bad.** `"annotations": {"readOnlyHint": "true"}`

    **Good.** `"annotations": {"readOnlyHint": true}`

    **Fix.** Use JSON booleans.
    """
    annotations = tool.raw.get("annotations")
    if not isinstance(annotations, dict):
        return
    base = join_pointer(tool.pointer, "annotations")
    for hint in HINTS:
        if hint in annotations and not isinstance(annotations[hint], bool):
            shown = json.dumps(annotations[hint], ensure_ascii=False)
            yield Hit(join_pointer(base, hint), f"annotation {hint} is {shown}, not a boolean")


@rule("DESC-012", "missing-annotations", "warning", "missing_annotations", "The tool declares no annotations object")
def missing_annotations(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A tool with no `annotations` object (absent, null or not
    an object). An empty object passes: it states the defaults on purpose.

    **Why.** Without annotations a client cannot tell a read-only lookup from a
    destructive write, so it must either confirm every call or none. The MCP
    specification (2025-11-25) defines `readOnlyHint`, `destructiveHint`,
    `idempotentHint` and `openWorldHint` for exactly this.

    **Bad.** `{"name": "delete_repo", "description": "...", "inputSchema": {...}}`

    **Good.** `"annotations": {"readOnlyHint": false, "destructiveHint": true,
    "idempotentHint": true, "openWorldHint": false}`

    **Fix.** Add an `annotations` object with the hints that apply.
    """
    annotations = tool.raw.get("annotations", ...)
    if isinstance(annotations, dict):
        return
    if annotations is ...:
        message = "no annotations object (readOnlyHint, destructiveHint, ...)"
    elif annotations is None:
        message = "annotations is null, not an object"
    else:
        message = f"annotations is a {type(annotations).__name__}, not an object"
    yield Hit(join_pointer(tool.pointer, "annotations"), message)


_VALUE = r"""(?:'[^'\n]{1,40}'|"[^"\n]{1,40}"|`[^`\n]{1,40}`|[A-Za-z0-9_][\w.\-]{0,30})"""
_SEP = r"(?:\s*,\s*(?:or\s+|and\s+)?|\s*/\s*|\s*\|\s*|\s+or\s+|\s*,?\s+and\s+)"
# A quoted value in a list may carry a short note in brackets: "'range' (default) or 'instant'",
# '"profile" (flamegraph), "metrics" (time-series)'. It is cut off before the list is split.
_GLOSS = r"(?:[ \t]*\([^()\n]{1,40}\))?"
_QVALUE = r"""(?:'[^'\n]{1,40}'|"[^"\n]{1,40}"|`[^`\n]{1,40}`)"""
_LISTED_VALUE = rf"(?:{_QVALUE}{_GLOSS}|[A-Za-z0-9_][\w.\-]{{0,30}})"
_LIST = rf"{_LISTED_VALUE}(?:{_SEP}{_LISTED_VALUE})+"
_GLOSSES = LazyRegex(r"""(?<=['"`])[ \t]*\([^()\n]{1,40}\)""")
# A strong intro announces a closed set whatever the values look like; a weak one
# ("must be", "can be", "either") counts only before quoted values.
_STRONG = (
    r"(?:(?:must|can|should|may)\s+be\s+)?one\s+of(?:\s+the\s+following)?"
    r"|(?:allowed|valid|possible|accepted|supported|available)\s+(?:values?|options?)(?:\s+(?:are|is|include))?"
)
_WEAK = (
    r"(?:(?:must|can|should|may)\s+(?:only\s+)?be|either|one\s+of\s+the"
    r"|(?:allowed|valid|possible|accepted|supported|available)\s+[a-z]+(?=\s*:))"  # "Valid periods: "1d", "5d""
)
_END = r"(?=\s*(?:[.;)\n]|$|\s+(?:to|for|which|that|if|when)\b))"
_ENUM_PROSE = LazyRegex(
    rf"\b(?:{_STRONG})\b\s*:?\s*\(?(?P<list>{_LIST})\)?{_END}"
    rf"|\b{_WEAK}\s*:?\s*(?P<quoted>{_QVALUE}{_GLOSS}(?:{_SEP}{_QVALUE}{_GLOSS})+)(?=\s*(?:[.;)\n]|$))",
    re.IGNORECASE,
)
# A sentence that is a label for a kind of value, then the values: "Operation type: 'replace', 'add',
# 'remove'", "Recall status (ongoing, completed, terminated)", "State on execution error: NoData, OK".
_LABEL_WORDS = (
    "type kind status state mode level scope category operation action direction order method strategy unit"
    " frequency interval period priority severity granularity resolution timeframe"
).split()
_LABEL_HINT = LazyRegex("|".join(_LABEL_WORDS), re.IGNORECASE)
_LABELLED = LazyRegex(
    rf"(?:the\s+)?(?:[\w-]+\s+){{0,2}}?(?:{'|'.join(_LABEL_WORDS)})(?:\s+(?:of|on|when|for|to)(?:\s+[\w-]+){{1,4}}?)?"
    rf"\s*(?::|\()\s*(?P<list>{_LIST})\)?(?:\s*\([^)\n]*\))?(?=\s*(?:[.;\n]|$))",
    re.IGNORECASE,
)
# The argument's own name as the label, the description only the values: "type": "annotation or alert",
# "mode": "fast, balanced or thorough" (not "owner": "username or organization": kinds of value, no label).
_NAME_LABELS = LazyRegex(rf"(?:^|[._\[\]-])(?:{'|'.join(_LABEL_WORDS)})$", re.IGNORECASE)
_BARE_LIST = LazyRegex(r"\s*[a-z][\w-]*(?:\s*,\s*[a-z][\w-]*)*,?\s+or\s+[a-z][\w-]*\s*\.?\s*")


def _bare_values(text: str) -> list[str]:
    return [w for w in re.split(r"\s*,\s*|\s+or\s+", text.strip().rstrip(".")) if w and w != "or"]


# Each value quoted in brackets after the words it stands for, the last after "or": "local branches ('local'),
# remote branches ('remote') or all branches ('all')". A value its words do not hold is an example of a
# format, not a name for it ("the full name ('owner/repo') or the id ('123')").
_GLOSS = r"[A-Za-z][\w-]*(?:[ \t]+[\w-]+){0,3}?[ \t]*\([ \t]*(['\"`])[\w-]+\1[ \t]*\)"
_GLOSSED = LazyRegex(rf"{_GLOSS}(?:[ \t]*,[ \t]*{_GLOSS})*,?[ \t]+or[ \t]+{_GLOSS}")
_GLOSSED_ITEM = LazyRegex(r"([A-Za-z][\w-]*(?:[ \t]+[\w-]+){0,3}?)[ \t]*\([ \t]*(['\"`])([\w-]+)\2[ \t]*\)")


_GLOSSED_SENTENCE = 300  # characters: such a list is one sentence; the search is quadratic in what it is given


def _glossed_values(text: str) -> list[str] | None:
    """The values of a list that names each one in its own words (see _GLOSSED), or None. Read a sentence (or
    a line) at a time, those of at most _GLOSSED_SENTENCE characters: 22 KB of "word ('v'), " took 10 s whole."""
    if " or " not in text or ("('" not in text and '("' not in text and "(`" not in text):
        return None
    for sentence in _SENTENCES.split(text):
        if len(sentence) > _GLOSSED_SENTENCE or " or " not in sentence:
            continue
        for found in _GLOSSED.finditer(sentence):
            items = _GLOSSED_ITEM.findall(found.group())
            if all(value.lower() in re.findall(r"[\w-]+", words.lower()) for words, _, value in items):
                return [value for _, _, value in items]
    return None


_SENTENCES = LazyRegex(r"(?<=[.;!?])\s+|\n")


# "Options are:" followed by a bulleted line per value: "- 'add' - adds ...".
_BULLETS = LazyRegex(
    rf"\b(?:{_STRONG}|options?(?:\s+are)?)\s*:\s*\n"
    rf"(?P<bullets>(?:[ \t]*[-*•][ \t]*{_VALUE}[ \t]*(?:[-–:(][^\n]*)?(?:\n|$)){{2,}})",
    re.IGNORECASE,
)
_BULLET_VALUE = LazyRegex(rf"^[ \t]*[-*•][ \t]*({_VALUE})", re.MULTILINE)
# A condition before the list: its values hold only then ("for source=nixos with action=search, one of: ...").
_CONDITION = LazyRegex(
    r"\b(?:if|when|unless|whenever)\b|\b(?:for|with)\s+[\w.-]+\s*=|\bfor\s+[\w.-]+(?:\s+[\w.-]+)?\s*,", re.IGNORECASE
)  # "for databases, one of: table, view; for buckets, ..."
# The set is left open: "- Or provide a custom log group name", "or any other language code".
_OPEN_SET = LazyRegex(
    r"\bor\s+(?:(?:provide|use|pass|give|enter|specify|set)\s+)?(?:a|an|any)\s+(?:\w+\s+)?(?:custom|other|arbitrary)\b"
    # or a combination the string holds ("created,updated"): an enum would refuse it
    r"|\b(?:comma|space)[- ]separated\b|\bseparated\s+by\s+(?:a\s+)?(?:commas?|spaces?)\b|\bcan\s+be\s+combined\b"
    r"|\bmultiple\s+values\b"
    # or another clause opens it: "any other value is read as a username", "any Prometheus duration also
    # works", "Other Prometheus durations are accepted too" (not "any other value is rejected")
    r"|\bany\s+other\s+(?:\w+\s+)?(?:value|input|string|name)s?\s+(?:is|are)\s+(?:read|treated|taken|used|passed)\b"
    r"|\bany\s+(?:\w+\s+)?\w+\s+(?:also\s+)?works\b"
    r"|\bother\s+(?:\w+\s+)?\w+\s+(?:are|is)\s+(?:also\s+)?(?:accepted|allowed|supported|valid)\b"
    # or JSON whose inner field takes the values ("JSON string containing a list of view types")
    r"|\bJSON(?:[- ]encoded)?\s+(?:string|array|list|object)\b|\bserialized\s+JSON\b"
    # or a value may carry a prefix ("prefix with '-' for descending"), or the list is a sample ("'en',
    # 'de', 'fr' and more", "json, csv, etc.")
    r"|\bprefix(?:ed)?\s+(?:it\s+)?(?:with|by)\b"
    r"|\band\s+(?:many\s+)?more\b|\betc\b|\band\s+so\s+on\b",
    re.IGNORECASE,
)
_SENTENCE_START = LazyRegex(r"[.!?\n]\s")
_QUOTED = LazyRegex(_QVALUE)
# A date or time template: YYYY-MM-DD, HH:MM:SS, YYYY-MM-DDTHH:MM:SSZ (two or more of a letter in a row).
_FORMAT_TEMPLATE = LazyRegex(r"(?=.*(?:YY|MM|DD|HH|hh|mm|SS|ss))[YMDHhmsSTZ:.\-/ +]+")
_EXAMPLE_LEAD = LazyRegex(r"(?:e\.\s?g\.|for example|for instance|such as|like|example|examples)\W*$", re.I)
# An example given after the list, quoted: "for example, "Xi'an City" is better than ..."
_EXAMPLE_AFTER = LazyRegex(
    r"(?:e\.\s?g\.|for example|for instance|such as)[\s,:]*(?:'([^'\n]{1,40})'|\"([^\"\n]{1,40})\"|`([^`\n]{1,40})`)",
    re.I,
)
_SPLIT = LazyRegex(_SEP, re.IGNORECASE)
_ARTICLES = {"a", "an", "the", "any", "some", "your", "this", "that"}
_EXAMPLE_MARKS = {"e.g", "eg", "i.e", "ie", "ex"}  # "(e.g., image/png, image/jpeg)": samples, not the set


# Every match of _ENUM_PROSE or _BULLETS starts at one of these words; the big
# patterns are tried only there, which is much cheaper than searching with them.
_INTRO_WORDS = (
    "one",
    "must",
    "can",
    "should",
    "may",
    "either",
    "allowed",
    "valid",
    "possible",
    "accepted",
    "supported",
    "available",
    "option",
)
# The lookahead on the words' first letters lets the search skip most positions before trying them all.
_INTRO_HINT = re.compile(
    r"\b(?=[" + "".join(sorted({w[0] for w in _INTRO_WORDS})) + r"])(?:" + "|".join(_INTRO_WORDS) + r")", re.I
)


def _intro_positions(text: str) -> list[int]:
    if not any(map(lower(text).__contains__, _INTRO_WORDS)):
        return []
    return [m.start() for m in _INTRO_HINT.finditer(text)]


def _label_positions(text: str) -> list[int]:
    """Where a sentence starts, if a labelled list (after ':' or in brackets) may follow one."""
    if (":" not in text and "(" not in text) or _LABEL_HINT.search(text) is None:
        return []
    return [0, *(m.end() for m in _SENTENCE_START.finditer(text))]


class _Once:
    """What _spelled_out_values asks of the whole text, found once, however many lists it tries: where each
    sentence starts, and the next example after a place (a list of "one of: ..." sentences took time
    quadratic in the description's length)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None
        self._found: tuple[int, re.Match[str] | None] | None = None  # a search's start, and what it found

    def sentence_start(self, before: int) -> int:
        """Where the sentence that holds offset before starts (0 for the first)."""
        if self._starts is None:
            self._starts = [m.end() for m in _SENTENCE_START.finditer(self.text)]
        i = bisect_right(self._starts, before) - 1
        return self._starts[i] if i >= 0 else 0

    def example_after(self, at: int) -> re.Match[str] | None:
        """_EXAMPLE_AFTER.search(text, at): the last search stands for any place from its start to its match."""
        if self._found is not None:
            start, found = self._found
            if start <= at and (found is None or at <= found.start()):
                return found
        found = _EXAMPLE_AFTER.search(self.text, at)
        self._found = (at, found)
        return found


def _spelled_out_values(text: str, starts: list[int], labels: list[int]) -> list[str] | None:
    once = _Once(text)
    for at in starts:
        bullets = _BULLETS.match(text, at)
        if bullets:
            return [v.strip("'\"`") for v in _BULLET_VALUE.findall(bullets.group("bullets"))]
    tries = [(_ENUM_PROSE, at) for at in starts] + [(_LABELLED, at) for at in labels]
    for pattern, at in tries:
        match = pattern.match(text, at)
        if match is None:
            continue
        groups = match.groupdict()
        listed = groups["list"] or groups.get("quoted")
        before = text[max(0, match.start() - 30) : match.start()]
        if _EXAMPLE_LEAD.search(before):
            continue
        if _CONDITION.search(text, once.sentence_start(match.start()), match.start()):
            return None  # "if the field is a checkbox, the value must be 'true' or 'false'": the set depends
        if "(" in listed:
            listed = _GLOSSES.sub("", listed)
        if listed.lstrip().startswith(("'", '"', "`")):  # quoted values whole: 'image/png' is one value
            items = [q[1:-1].strip() for q in _QUOTED.findall(listed)]
        else:
            items = [i.strip().strip("'\"`").rstrip(".") for i in _SPLIT.split(listed) if i and i.strip()]
        if all(_FORMAT_TEMPLATE.fullmatch(i) for i in items):
            continue  # "'YYYY-MM' or 'YYYY-MM-DD'", "'HH:MM' or 'HH:MM:SS'": formats, not values
        items = [i for i in items if i and i.lower() not in ("or", "and")]
        if len(items) < 2 or any(i.lower() in _ARTICLES for i in items) or items[0].lower() in _EXAMPLE_MARKS:
            continue
        if not listed.lstrip().startswith(("'", '"', "`")):
            # Bare words: all must look like literal tokens, not prose.
            if any(" " in i for i in items) or len(items) > 12:
                continue
        example = once.example_after(match.end())
        if example and next(g for g in example.groups() if g is not None).lower() not in {i.lower() for i in items}:
            continue  # an example value outside the list: the list names kinds of value, not the values
        return items
    return None


@rule(
    "DESC-013",
    "enum-in-prose",
    "warning",
    "underspecified",
    "A string argument lists its allowed values in prose but declares no enum",
)
def enum_in_prose(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A string (or untyped) argument without `enum` or `const`
    whose description spells out a closed set: "one of open, closed or pending",
    "must be 'asc' or 'desc'", "allowed values: json, csv", "Valid periods: "1d",
    "5d"", "One of the '=' or '!='", or a sentence that labels a kind of value
    (type, kind, status, state, mode, level, scope, order, method, unit,
    interval, granularity, resolution, ...) and then only lists values: "Operation
    type: 'replace', 'add', 'remove'", "Recall status (ongoing, completed,
    terminated)", "Interval granularity: 1m, 5m, 1h", a list that quotes each
    value after the words it stands for ("local branches ('local'), remote
    branches ('remote') or all branches ('all')"; not "the full name
    ('owner/repo') or the id ('123')", examples of a format), or the argument's own name
    as that label with a description that is only the values ("type": "comment
    or reminder"; not "owner": "username or organization", which names kinds of
    value). A quoted value is one value whatever it holds ('image/png'), and may carry a short note in
    brackets: "Query type: 'range' (default) or 'instant'",
    '"profile" (flamegraph), "metrics" (time-series), or "both" (default)'.
    Lists introduced as
    examples ("e.g. Paris or Osaka", "such as ...", "(e.g., image/png,
    image/jpeg)") are not a closed set and do not fire, nor do values that
    another argument of the tool declares as its `enum`, the same set (the prose
    is about that one; a larger enum there does not excuse it), nor lists
    followed by a quoted example that is none of the listed values ("one of country, province or city, for
    example "Xi'an"": the list names kinds of value), nor a set left open ("or
    provide a custom log group name", "or any other code", "and more", "etc.",
    "prefix with '-' for descending", "any other value is read as a username",
    "any Prometheus duration also works", "other durations are accepted too"),
    date and time templates ("'YYYY-MM' or 'YYYY-MM-DD'", "'HH:MM' or 'HH:MM:SS'"),
    a string that holds
    several of them ("comma-separated", "space-separated", "can be combined": an `enum` would refuse
    "created,updated") or JSON holding them ("JSON string containing a list of
    ..."), or one that holds under a condition ("if ...", "for
    source=nixos, one of: ...", "For databases, one of: ..."). A description
    whose letters are mostly not ASCII ones (Chinese, Japanese, Cyrillic) is not
    read: the wordings above are English. The inverse of
    DESC-007.

    **Why.** Values in prose are a suggestion the agent may misspell; an `enum` is
    a constraint that clients validate and many render as a choice. Hasan et al.
    (arXiv:2602.14878) found parameter constraints stated only in prose among the
    common smells.

    **Bad.** `"status": {"type": "string", "description": "One of open, closed or pending"}`

    **Good.** `"status": {"type": "string", "enum": ["open", "closed", "pending"],
    "description": "Filter by status"}`

    **Fix.** Declare the `enum` and keep the prose for what each value means.
    """
    for arg in iter_arguments(tool):
        text = arg.description
        if text is None or "enum" in arg.schema or "const" in arg.schema:
            continue
        starts = _intro_positions(text)
        labels = _label_positions(text)
        glossed = _glossed_values(text)
        named = not starts and not labels and not glossed  # then only the name can be the label
        if named and (  # substring tests in C first
            " or " not in text
            or len(text) > 200
            or _NAME_LABELS.search(arg.name) is None
            or _BARE_LIST.fullmatch(text) is None
        ):
            continue
        types = arg.types()
        if (types and "string" not in types) or _branch_has_enum(arg.schema) or not mostly_latin(text):
            continue
        values = _spelled_out_values(text, starts, labels) or glossed or (_bare_values(text) if named else None)
        if values and not _enum_elsewhere(tool, arg, values) and not _OPEN_SET.search(text):
            shown = ", ".join(values[:6]) + (", …" if len(values) > 6 else "")
            yield Hit(
                _desc_or_schema(arg),
                f"argument {arg.name!r} lists allowed values in prose ({shown}) but declares no enum",
            )


def _enum_elsewhere(tool: Tool, arg: Argument, values: list[str]) -> bool:
    """Whether another argument of the tool declares exactly these values as its enum: the prose is
    about that argument ("filters by type of object (either `page` or `data_source`)")."""
    owners = tool.cache.get("enum_sets")
    if owners is None:  # each argument's enum, read once a tool (not once an argument that lists values)
        owners = tool.cache["enum_sets"] = {}
        for other in iter_arguments(tool):
            enum = _enum_values(other)
            if enum:
                owners.setdefault(frozenset(str(v).lower() for v in enum), []).append(other)
    return any(other is not arg for other in owners.get(frozenset(v.lower() for v in values), ()))


def _branch_has_enum(schema: dict[str, Any]) -> bool:
    return any("enum" in b or "const" in b for b in _branches(schema))
