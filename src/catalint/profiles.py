"""Client profiles: what a `--target` turns on, and where each fact behind it comes from.

A profile names a client (a model API that receives MCP tools as its own tool
definitions), a version (the month its facts were last checked), the rule
selectors it enables and its sources. Targets are written `name` (the newest
version) or `name@version`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

CHECKED = "2026-11-22"  # when the facts behind every current profile were last checked


class ProfileError(ValueError):
    """An unknown target or version; the caller reports it as a config error."""


@dataclass(frozen=True)
class Source:
    title: str
    url: str
    checked: str = CHECKED


@dataclass(frozen=True)
class Profile:
    name: str
    version: str
    description: str
    enables: tuple[str, ...]  # rule selectors the target adds to the run
    sources: tuple[Source, ...]
    verdict: tuple[str, ...] = ()  # rules whose critical findings decide "passes"; `enables` when empty

    @property
    def target(self) -> str:
        return f"{self.name}@{self.version}"

    def judged_by(self) -> tuple[str, ...]:
        return self.verdict or self.enables


_MCP_TOOLS = Source(
    "MCP specification 2025-11-25, Server features, Tools",
    "https://modelcontextprotocol.io/specification/2025-11-25/server/tools",
)
_OPENAI_FUNCTIONS = Source(
    "OpenAI API reference, Chat Completions, tools[].function",
    "https://platform.openai.com/docs/api-reference/chat/create",
)
_OPENAI_GUIDE = Source("OpenAI function calling guide", "https://platform.openai.com/docs/guides/function-calling")
_OPENAI_STRUCTURED = Source(
    "OpenAI Structured Outputs guide, Supported schemas",
    "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas",
)
_ANTHROPIC_TOOLS = Source(
    "Anthropic docs, Tool use: Define tools",
    "https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
)
_ANTHROPIC_ERRORS = Source("Anthropic API reference, Errors", "https://docs.claude.com/en/api/errors")
_GEMINI_DECLARATION = Source(
    "Gemini API reference, FunctionDeclaration", "https://ai.google.dev/api/caching#FunctionDeclaration"
)
_GEMINI_SCHEMA = Source("Gemini API reference, Schema", "https://ai.google.dev/api/caching#Schema")
_VERTEX_DECLARATION = Source(
    "Vertex AI API reference, FunctionDeclaration",
    "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Tool#FunctionDeclaration",
)

_ALL = (
    Profile(
        "mcp",
        "2026-11",
        "The MCP specification itself: the SCH and CAT rules, which are on already.",
        (),
        (_MCP_TOOLS,),
        verdict=("SCH", "CAT"),
    ),
    Profile(
        "openai",
        "2026-11",
        "OpenAI function calling (Chat Completions and Responses), strict off.",
        ("CMP-OAI",),
        (_OPENAI_FUNCTIONS, _OPENAI_GUIDE),
    ),
    Profile(
        "openai-strict",
        "2026-11",
        'OpenAI function calling with "strict": true (Structured Outputs), on top of openai.',
        ("CMP-OAI", "CMP-OAS"),
        (_OPENAI_FUNCTIONS, _OPENAI_GUIDE, _OPENAI_STRUCTURED),
    ),
    Profile(
        "anthropic",
        "2026-11",
        "The Anthropic Messages API: tools[].name and input_schema.",
        ("CMP-ANT",),
        (_ANTHROPIC_TOOLS, _ANTHROPIC_ERRORS),
    ),
    Profile(
        "gemini",
        "2026-11",
        "Gemini function calling with the schema sent as `parameters` (the OpenAPI subset).",
        ("CMP-GEM",),
        (_GEMINI_DECLARATION, _GEMINI_SCHEMA, _VERTEX_DECLARATION),
    ),
)
PROFILES: dict[str, dict[str, Profile]] = {}
for _p in _ALL:
    PROFILES.setdefault(_p.name, {})[_p.version] = _p


def resolve(target: str) -> Profile:
    """The profile a target names: `name` (its newest version) or `name@version`."""
    name, _, version = target.strip().partition("@")
    versions = PROFILES.get(name.lower())
    if versions is None:
        raise ProfileError(f"unknown target {target!r} (expected one of {', '.join(PROFILES)})")
    if not version:
        return versions[max(versions)]
    found = versions.get(version)
    if found is None:
        raise ProfileError(f"unknown version {version!r} of target {name!r} (known: {', '.join(sorted(versions))})")
    return found


def selectors(targets: Iterable[str]) -> list[str]:
    """The rule selectors a list of targets enables, each once, in order."""
    out: list[str] = []
    for target in targets:
        out.extend(s for s in resolve(target).enables if s not in out)
    return out


def profile_table(paths: Iterable[str | Path]) -> str:
    """A markdown table: one row per catalog file, one column per profile, and a count of passes.

    A catalog passes a profile when that profile's rules (for `mcp`, the SCH and
    CAT rules) raise no critical finding: critical is what the client refuses
    outright. A failing cell shows how many critical findings there were.
    """
    profiles = [resolve(name) for name in PROFILES]
    rows = ["| catalog | " + " | ".join(p.name for p in profiles) + " |", "|---" * (len(profiles) + 1) + "|"]
    passes = [0] * len(profiles)
    paths = list(paths)
    for path in paths:
        counts = _criticals(str(path), profiles)
        cells = ["load error" if n is None else "✅" if n == 0 else f"❌ {n}" for n in counts]
        passes = [total + (n == 0) for total, n in zip(passes, counts, strict=True)]
        rows.append(f"| {Path(path).name} | " + " | ".join(cells) + " |")
    rows.append(f"| **passing** (of {len(paths)}) | " + " | ".join(str(n) for n in passes) + " |")
    return "\n".join(rows) + "\n"


def _criticals(path: str, profiles: list[Profile]) -> list[int | None]:
    """Critical findings per profile in one file; None for each when the file cannot be loaded."""
    from catalint.config import Settings
    from catalint.engine import lint_catalog
    from catalint.loader import LoadError, load_path
    from catalint.model import Severity

    try:
        catalog = load_path(path)
    except LoadError:
        return [None] * len(profiles)
    counts: list[int | None] = []
    for profile in profiles:
        findings = lint_catalog(catalog, Settings(select=list(profile.judged_by()))).findings
        counts.append(sum(f.severity >= Severity.CRITICAL for f in findings))
    return counts
