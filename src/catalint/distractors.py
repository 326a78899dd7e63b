"""Distractor tools: plausible but irrelevant tools to present beside a catalog's real ones.

Everything here is deterministic: the same input always gives the same output.
Two sources of distractors:

- `from_catalog`: unrelated tools from the bundled `data/distractors.json`
  (weather, currency, calendar, maps, ...), taken in file order, skipping any on
  the topic of a catalog tool (a word of its name, such as weather or stock, that
  the catalog's names or descriptions use);
- `near_duplicates`: look-alikes of named real tools (`NAME_v2`, `NAME_internal`,
  a casing variant, a pluralization variant) with the original's description and schema.

`pad` interleaves distractors among the real tools.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from typing import Any

SHOWN_NAMES = 10  # known tool names listed in an unknown-name error before "and N more"


class DistractorError(Exception):
    """A distractor request that cannot be met; the message is one user-facing line."""


@lru_cache(maxsize=1)
def _bundled_text() -> str:
    return resources.files("catalint").joinpath("data").joinpath("distractors.json").read_text("utf-8")


def bundled() -> list[dict[str, Any]]:
    """The bundled distractor tools in file order (the file is read once; each call returns fresh copies)."""
    tools: list[dict[str, Any]] = json.loads(_bundled_text())["tools"]
    return tools


def _check_count(count: int) -> None:
    if count < 0:
        raise DistractorError(f"the number of distractors must be 0 or more, not {count}")


# Words of a tool name that say what it does rather than what it is about: a bundled tool is kept
# out only when one of its topic words (weather, calendar, stock) is in a catalog tool's name or description.
_GENERIC_WORDS = frozenset(
    """get list set create update delete remove add search find fetch read write run query make generate calculate
    convert check detect define evaluate decode encode track draft solve shorten translate the a an of in on by to for
    and or current details detail info data history""".split()
)


def _topic_words(name: str) -> set[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    # two letters are enough for a topic: qr, tv, ip
    return {_singular(w) for w in re.split(r"[^a-z0-9]+", spaced.lower()) if len(w) > 1 and w not in _GENERIC_WORDS}


def _singular(word: str) -> str:
    """alerts -> alert, so that a plural and its singular are one topic (address stays)."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _text_words(text: str) -> set[str]:
    return {_singular(w) for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 1}


def descriptions(tools: Iterable[dict[str, Any]]) -> list[str]:
    """The tools' descriptions that are strings, for from_catalog."""
    return [t["description"] for t in tools if isinstance(t.get("description"), str)]


def from_catalog(existing: Iterable[str], count: int, descriptions: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The first `count` bundled tools, in file order, that differ (ignoring case) from every `existing` name
    and whose name has no topic word that a catalog tool's name or description uses: a weather catalog gets
    no weather tools, which would not be irrelevant."""
    _check_count(count)
    if count == 0:
        return []
    names = list(existing)
    taken = {name.casefold() for name in names}
    topics = set().union(*(_topic_words(name) for name in names), *(_text_words(d) for d in descriptions))
    tools = bundled()
    same_name = [tool for tool in tools if tool["name"].casefold() in taken]
    available = [
        tool for tool in tools if tool["name"].casefold() not in taken and not (_topic_words(tool["name"]) & topics)
    ]
    if count > len(available):
        clash, topical = len(same_name), len(tools) - len(available) - len(same_name)
        whys = [f"{clash} {'shares' if clash == 1 else 'share'} a name with a catalog tool"] if clash else []
        whys += [f"{topical} {'is' if topical == 1 else 'are'} on a catalog tool's topic"] if topical else []
        why = f" ({'; '.join(whys)})" if whys else ""
        raise DistractorError(
            f"asked for {count} bundled distractors, but only {len(available)} of {len(tools)} are available{why}"
        )
    return available[:count]


def camel_case(name: str) -> str:
    """`search_products` -> `searchProducts`; a name without `_` is capitalized: `search` -> `Search`."""
    if "_" not in name:
        return name[:1].upper() + name[1:]
    first, *rest = name.split("_")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)


def toggle_plural(name: str) -> str:
    """Toggle the plural of a name's last word, by suffix rules only.

    Plural endings, made singular: `ies` -> `y` (queries), `sses`/`shes`/`ches`/`xes`/`zzes` drop `es`
    (addresses, pushes, matches, boxes, buzzes), any other `s` except `ss`/`us`/`is` is dropped (products).
    Otherwise the word is singular and made plural: consonant + `y` -> `ies` (query), `is` -> `es`
    (analysis), `s`/`x`/`z`/`ch`/`sh` add `es` (address, status, box, match), anything else adds `s`.
    An all-capitals word gets a capital suffix (`GET_URL` -> `GET_URLS`).
    """
    head, sep, word = name.rpartition("_")
    lower = word.lower()

    def fix(suffix: str) -> str:
        return suffix.upper() if word.isupper() else suffix

    if len(lower) > 3 and lower.endswith("ies"):
        word = word[:-3] + fix("y")
    elif lower.endswith(("sses", "shes", "ches", "xes", "zzes")):
        word = word[:-2]
    elif lower.endswith("s") and not lower.endswith(("ss", "us", "is")):
        word = word[:-1]
    elif len(lower) > 1 and lower.endswith("y") and lower[-2] not in "aeiou":
        word = word[:-1] + fix("ies")
    elif lower.endswith("is"):
        word = word[:-2] + fix("es")
    elif lower.endswith(("s", "x", "z", "ch", "sh")):
        word += fix("es")
    else:
        word += fix("s")
    return head + sep + word


def variants(name: str) -> list[str]:
    """A name's look-alikes in their fixed order: `_v2`, `_internal`, casing, pluralization."""
    return [f"{name}_v2", f"{name}_internal", camel_case(name), toggle_plural(name)]


def _unknown(name: str, known: list[str]) -> DistractorError:
    if not known:
        return DistractorError(f"unknown tool {name!r}: the catalog has no tools")
    shown = ", ".join(known[:SHOWN_NAMES])
    if len(known) > SHOWN_NAMES:
        shown += f" and {len(known) - SHOWN_NAMES} more"
    return DistractorError(f"unknown tool {name!r}; known tools: {shown}")


def near_duplicates(tools: list[dict[str, Any]], of: list[str], count: int) -> list[dict[str, Any]]:
    """`count` look-alikes of the tools named in `of`.

    Variants (see `variants`) are taken round-robin: the first variant of each name in `of`, then the
    second of each, and so on. A variant equal to a real tool's name or to an earlier chosen variant
    is skipped; names compare exactly, as MCP tool names do, so `Search` is a look-alike of `search`.
    Each look-alike is a deep copy of its original with only `name` changed.
    """
    if not of:
        raise DistractorError("name at least one tool to make near-duplicates of")
    by_name: dict[str, dict[str, Any]] = {}
    for tool in tools:
        if isinstance(tool, dict) and isinstance(tool.get("name"), str):
            by_name.setdefault(tool["name"], tool)
    for name in of:
        if name not in by_name:
            raise _unknown(name, list(by_name))
    _check_count(count)
    taken = set(by_name)
    chosen: list[tuple[str, str]] = []  # (variant, original name)
    for round_ in zip(*(variants(name) for name in of), strict=True):
        for variant, original in zip(round_, of, strict=True):
            if variant not in taken:
                taken.add(variant)
                chosen.append((variant, original))
    if count > len(chosen):
        raise DistractorError(
            f"asked for {count} near-duplicates, but only {len(chosen)} {'variant' if len(chosen) == 1 else 'variants'}"
            f" of {', '.join(of)} {'is' if len(chosen) == 1 else 'are'} available"
        )
    return [_renamed(by_name[original], variant) for variant, original in chosen[:count]]


def _renamed(tool: dict[str, Any], name: str) -> dict[str, Any]:
    return {key: name if key == "name" else copy.deepcopy(value) for key, value in tool.items()}


def already_padded(tools: list[dict[str, Any]], source: str, of: list[str]) -> list[str]:
    """The names of tools that `trace distract` would have added, found among tools already: a bundled tool
    word for word (from: catalog), or a look-alike of a tool in of with the original's text (near_duplicate).
    A suite that names the padded catalog has its distractors chosen again among the rest."""
    named = [t for t in tools if isinstance(t.get("name"), str)]
    if source == "catalog":
        known = {(t["name"], t["description"]) for t in bundled()}
        return [
            t["name"] for t in named if isinstance(t.get("description"), str) and (t["name"], t["description"]) in known
        ]
    by_name = {t["name"]: t for t in named}
    found = []
    for name in of:
        original = by_name.get(name)
        if original is None:
            continue
        rest = {k: v for k, v in original.items() if k != "name"}
        for v in variants(name):  # a variant may be the name itself (camelCase of 'Search'): not a look-alike
            if v != name and v in by_name and {k: x for k, x in by_name[v].items() if k != "name"} == rest:
                found.append(v)
    return found


def pad(tools: list[dict[str, Any]], distractors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The presented list: the real tools with the distractors spread evenly among them.

    With n real tools and m distractors, real tool i (from 0) is followed by distractors
    ceil(i*m/n) up to, not including, ceil((i+1)*m/n): each real tool is followed by
    floor(m/n) or ceil(m/n) of them, the larger groups spread evenly and the first real
    tool first. 2 tools, 4 distractors: R D D R D D; 3 and 4: R D D R D R D; 4 and 2:
    R D R R D R. With no real tools the list is the distractors. Neither list is
    reordered, and the same objects are returned (not copies).
    """
    n, m = len(tools), len(distractors)
    if n == 0:
        return list(distractors)
    presented: list[dict[str, Any]] = []
    for i, tool in enumerate(tools):
        presented.append(tool)
        presented.extend(distractors[-(-i * m // n) : -(-(i + 1) * m // n)])
    return presented
