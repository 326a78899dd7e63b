"""Map JSON pointers to 1-based line:column spans in the original text.

JSON: the file is parsed once by the C decoder for its data; positions are found
lazily, and only for pointers that have findings. Each container that a lookup
passes through is indexed once (its children's offsets, found by letting the
C decoder skip each child), so the total cost stays linear in the file size.

YAML: PyYAML's node tree already carries start and end marks; they are
collected into a table while the document is composed.

Columns count characters (code points), not bytes. CR, LF and CRLF all end a line.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Callable
from typing import Any

from catalint.model import Span

_WS = re.compile(r"[ \t\n\r]*")
_EOL = re.compile(r"\r\n|\r|\n")
_DECODER = json.JSONDecoder()

Locator = Callable[[str], Span]


def split_pointer(pointer: str) -> list[str]:
    if not pointer:
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer[1:].split("/")]


_INDEX = re.compile(r"0|[1-9][0-9]*")


def is_index(part: str) -> bool:
    """An RFC 6901 array index: ASCII digits, no leading zero."""
    return _INDEX.fullmatch(part) is not None


def join_pointer(pointer: str, *parts: str | int) -> str:
    for part in parts:
        pointer += "/" + str(part).replace("~", "~0").replace("/", "~1")
    return pointer


class LineIndex:
    """Offset -> (line, column) over a text, both 1-based."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in _EOL.finditer(text)]

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1

    def span(self, start: int, end: int) -> Span:
        line, col = self.position(start)
        # The end is exclusive: place it just after the last character.
        end_line, end_col = self.position(max(end - 1, start))
        return Span(line, col, end_line, end_col + (1 if end > start else 0))


class JsonSourceMap:
    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = LineIndex(text)
        self._children: dict[int, Any] = {}
        start = _WS.match(text, 0).end()
        self._root = (start, self._skip(start))

    def _skip(self, start: int) -> int:
        return _DECODER.raw_decode(self.text, start)[1]

    def _index(self, start: int) -> dict[str, tuple[int, int]] | list[tuple[int, int]]:
        cached = self._children.get(start)
        if cached is not None:
            return cached
        text = self.text
        ws = _WS.match
        i = ws(text, start + 1).end()
        result: Any
        if text[start] == "{":
            result = {}
            while text[i] != "}":
                key, i = json.decoder.scanstring(text, i + 1)
                i = ws(text, ws(text, i).end() + 1).end()  # skip ':'
                end = self._skip(i)
                result[key] = (i, end)
                i = ws(text, end).end()
                if text[i] == ",":
                    i = ws(text, i + 1).end()
        else:
            result = []
            while text[i] != "]":
                end = self._skip(i)
                result.append((i, end))
                i = ws(text, end).end()
                if text[i] == ",":
                    i = ws(text, i + 1).end()
        self._children[start] = result
        return result

    def offsets(self, pointer: str) -> tuple[int, int]:
        """Offsets of the node at pointer, or of its closest existing ancestor."""
        node = self._root
        for part in split_pointer(pointer):
            if self.text[node[0]] not in "{[":
                break
            children = self._index(node[0])
            if isinstance(children, dict):
                child = children.get(part)
            else:
                child = children[int(part)] if is_index(part) and int(part) < len(children) else None
            if child is None:
                break
            node = child
        return node

    def span(self, pointer: str) -> Span:
        return self.lines.span(*self.offsets(pointer))


class YamlSourceMap:
    """Pointer -> span table built from a composed PyYAML node tree.

    Marks carry character indexes into the text, so YAML positions go through
    the same LineIndex as JSON. PyYAML ends a block collection or block scalar
    at the next token (often on a later line); such spans are pulled back to
    the last character they really cover.
    """

    def __init__(self, text: str, root: Any) -> None:
        self.text = text
        self.lines = LineIndex(text)
        self.table: dict[str, tuple[int, int]] = {}
        self._done: dict[int, tuple[int, int]] = {}
        self._walk(root, "")

    def _walk(self, node: Any, pointer: str) -> tuple[int, int]:
        import yaml

        known = self._done.get(id(node))
        if known is not None:  # an alias: the anchored node, not expanded again
            self.table[pointer] = known
            return known
        self._done[id(node)] = (node.start_mark.index, node.end_mark.index)  # cut cycles
        start, end = node.start_mark.index, node.end_mark.index
        children: list[tuple[str, Any]] = []
        if isinstance(node, yaml.MappingNode):
            children = [(join_pointer(pointer, k.value), v) for k, v in node.value]
        elif isinstance(node, yaml.SequenceNode):
            children = [(join_pointer(pointer, i), v) for i, v in enumerate(node.value)]
        last_end = end
        for child_pointer, child in children:
            last_end = self._walk(child, child_pointer)[1]
        if children and not node.flow_style:
            end = last_end
        elif isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
            while end > start and self.text[end - 1] in " \t\r\n":
                end -= 1
        self.table[pointer] = self._done[id(node)] = (start, end)
        return start, end

    def span(self, pointer: str) -> Span:
        parts = split_pointer(pointer)
        while True:
            offsets = self.table.get(join_pointer("", *parts))
            if offsets is not None or not parts:
                break
            parts.pop()
        if offsets is None:
            return Span(1, 1, 1, 1)
        return self.lines.span(*offsets)
