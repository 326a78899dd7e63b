"""Plain data types shared by the loader, the rules and the reporters."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any


class Severity(IntEnum):
    """Finding severity; higher is worse, so comparisons read naturally."""

    INFO = 1
    WARNING = 2
    CRITICAL = 3

    label: str  # "info", "warning", "critical": set on each member below, read without a call

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (expected critical, warning or info)") from None

    def __str__(self) -> str:
        return self.label


for _severity in Severity:
    _severity.label = _severity.name.lower()


SMELLS = (
    "underspecified",
    "verbose",
    "uninformative",
    "brittle",
    "missing_examples",
    "missing_return_format",
    "missing_annotations",
    "invalid_annotation",
)


@dataclass(frozen=True, slots=True)
class Span:
    """A 1-based region of a file; the end column is exclusive (as in SARIF)."""

    line: int
    col: int
    end_line: int
    end_col: int


UNPLACED = Span(0, 0, 0, 0)  # a finding's span before it is looked up (diff looks up only those it reports)


@dataclass(frozen=True)
class Tool:
    index: int
    pointer: str  # JSON pointer of the tool object, e.g. "/tools/3"
    raw: dict[str, Any]
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)  # derived views

    @property
    def name(self) -> str:
        return self.raw["name"]

    @property
    def description(self) -> Any:
        return self.raw.get("description")

    @property
    def input_schema(self) -> Any:
        return self.raw.get("inputSchema")


@dataclass
class Catalog:
    path: str  # as given on the command line ("-" for standard input)
    display: str  # how reports name it
    tools: list[Tool]
    source: Any  # a source map (see sourcemap): span(pointer), start(pointer)
    more_pages: bool = False  # it carries a nextCursor: one page of a longer tools/list

    def locate(self, pointer: str) -> Span:
        """Region of the node at pointer, or of its closest existing ancestor."""
        try:
            return self.source.span(pointer)
        except RecursionError:  # hundreds of levels down: the nearest ancestor the source map can reach
            parts = pointer.split("/")
            while len(parts) > 1:
                parts = parts[: len(parts) // 2 + 1] if len(parts) > 2 else parts[:1]
                try:
                    return self.source.span("/".join(parts))
                except RecursionError:
                    continue
            return self.source.span("")

    def start(self, pointer: str) -> tuple[int, int]:
        """Line and column where that node starts (cheaper than its whole span)."""
        return self.source.start(pointer)


@dataclass(slots=True)
class Finding:
    code: str
    severity: Severity
    tool: str
    pointer: str
    message: str
    span: Span
    suggestion: str | None = None
