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
_SCAN_ONCE = json.JSONDecoder().scan_once  # the C scanner: (value, end) from an offset
# A member name and its colon, in one match; group 1 is the raw (still escaped) name.
_KEY = re.compile(r'"((?:[^"\\]|\\.)*)"[ \t\n\r]*:[ \t\n\r]*')
_AFTER = re.compile(r"[ \t\n\r]*(?:,[ \t\n\r]*)?")

Locator = Callable[[str], Span]


def split_pointer(pointer: str) -> list[str]:
    if not pointer:
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer[1:].split("/")]


_INDEX = re.compile(r"0|[1-9][0-9]*")


def is_index(part: str) -> bool:
    """An RFC 6901 array index: ASCII digits, no leading zero."""
    return _INDEX.fullmatch(part) is not None


_MISSING = object()


def resolve_pointer(doc: Any, pointer: str) -> Any:
    """The value at a JSON pointer inside already-parsed data, or None when there is none."""
    node: Any = doc
    for part in split_pointer(pointer):
        if isinstance(node, dict):
            node = node.get(part, _MISSING)
        elif isinstance(node, list) and is_index(part) and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
        if node is _MISSING:
            return None
    return node


def join_pointer(pointer: str, *parts: str | int) -> str:
    for part in parts:
        text = str(part)
        if "~" in text or "/" in text:
            text = text.replace("~", "~0").replace("/", "~1")
        pointer += "/" + text
    return pointer


class LineIndex:
    """Offset -> (line, column) over a text, both 1-based."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts: list[int] | None = None  # every line's start: only for text with \r line ends
        if "\r" in text:
            self.starts = [0] + [m.end() for m in _EOL.finditer(text)]
        # Otherwise lines are counted on demand from the nearest known point (str.count runs at C
        # speed), so a large catalog does not pay for a table of all its lines before the first lookup.
        self._offsets = [0]
        self._marks = [(1, 0)]  # (line, start of that line) at each known offset

    def position(self, offset: int) -> tuple[int, int]:
        if self.starts is not None:
            line = bisect_right(self.starts, offset) - 1
            return line + 1, offset - self.starts[line] + 1
        i = bisect_right(self._offsets, offset) - 1
        base = self._offsets[i]
        line, start = self._marks[i]
        newlines = self.text.count("\n", base, offset)
        if newlines:
            line += newlines
            start = self.text.rfind("\n", base, offset) + 1
        if offset - base > 64:
            self._offsets.insert(i + 1, offset)
            self._marks.insert(i + 1, (line, start))
        return line, offset - start + 1

    def span(self, start: int, end: int) -> Span:
        line, col = self.position(start)
        # The end is exclusive: place it just after the last character.
        end_line, end_col = self.position(max(end - 1, start))
        return Span(line, col, end_line, end_col + (1 if end > start else 0))


class _Scan:
    """How far one JSON container has been read: its members' start offsets so far."""

    __slots__ = ("end", "is_object", "items", "keys", "pending", "pos", "repeat")

    def __init__(self, is_object: bool, pos: int) -> None:
        self.is_object = is_object
        self.keys: dict[str, int] = {}
        self.items: list[int] = []
        self.pos = pos  # where reading goes on
        self.pending = -1  # start of the last member read, until it is stepped over
        self.end = -1  # offset just past the closing bracket, once read
        self.repeat: tuple[str, int] | None = None  # first key seen twice, and where


class JsonSourceMap:
    """Pointer -> span for JSON text that has already parsed without error.

    Containers on a pointer's path are read member by member, only as far as the
    wanted member; a member that must be stepped over is skipped by the C
    decoder. So each lookup costs about one pass over the tool it falls in.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = LineIndex(text)
        self._scans: dict[int, _Scan] = {}
        self._memo: dict[str, tuple[int, bool]] = {}
        self._root = _WS.match(text, 0).end()
        # The text parsed already, so the root value ends at its last non-space.
        self._ends: dict[int, int] = {self._root: len(text.rstrip(" \t\r\n"))}

    def _end(self, start: int) -> int:
        end = self._ends.get(start)
        if end is None:
            scan = self._scans.get(start)
            if scan is None:
                end = _SCAN_ONCE(self.text, start)[1]
            else:  # finish reading it: cheaper than decoding it all again
                while self._step(scan):
                    pass
                end = scan.end
            self._ends[start] = end
        return end

    def _step(self, scan: _Scan) -> bool:
        """Read one more member of a container; False once it is finished.

        The member's own end is found only when the next member is wanted, so a
        member that a pointer descends into is never decoded whole.
        """
        if scan.end >= 0:
            return False
        text, i = self.text, scan.pos
        if scan.pending >= 0:
            i = _AFTER.match(text, self._end(scan.pending)).end()
            scan.pending = -1
        if text[i] in "}]":
            scan.end = i + 1
            return False
        if scan.is_object:
            m = _KEY.match(text, i)
            key = m.group(1)
            if "\\" in key:
                key = json.loads(f'"{key}"')
            if key in scan.keys:
                scan.repeat = scan.repeat or (key, i)
            else:
                scan.keys[key] = m.end()
            i = m.end()
        else:
            scan.items.append(i)
        scan.pending = scan.pos = i
        return True

    def _scan(self, start: int) -> _Scan:
        scan = self._scans.get(start)
        if scan is None:
            scan = self._scans[start] = _Scan(self.text[start] == "{", _WS.match(self.text, start + 1).end())
        return scan

    def _child(self, start: int, part: str) -> int | None:
        scan = self._scan(start)
        if scan.is_object:
            while part not in scan.keys and self._step(scan):
                pass
            return scan.keys.get(part)
        if not is_index(part):
            return None
        index = int(part)
        while len(scan.items) <= index and self._step(scan):
            pass
        return scan.items[index] if index < len(scan.items) else None

    def _start(self, pointer: str) -> int:
        """Start offset of the node at pointer, or of its closest existing ancestor."""
        return self._resolve(pointer)[0]

    def _resolve(self, pointer: str) -> tuple[int, bool]:
        """(start offset, whether the node itself exists), memoised per pointer."""
        known = self._memo.get(pointer)
        if known is not None:
            return known
        if not pointer:
            return self._root, True
        parent, _, last = pointer.rpartition("/")
        node, exists = self._resolve(parent)
        if exists and self.text[node] in "{[":
            child = self._child(node, last.replace("~1", "/").replace("~0", "~") if "~" in last else last)
            found = (child, True) if child is not None else (node, False)
        else:
            found = (node, False)
        self._memo[pointer] = found
        return found

    def span(self, pointer: str) -> Span:
        start = self._start(pointer)
        return self.lines.span(start, self._end(start))

    def release(self) -> None:
        """Forget what lookups have read (they read it again if asked): a large catalog's
        member tables outweigh its text once every finding has its position."""
        self._scans.clear()
        self._memo.clear()
        self._ends = {self._root: self._ends[self._root]}

    def start(self, pointer: str) -> tuple[int, int]:
        return self.lines.position(self._start(pointer))

    def duplicate_key(self) -> tuple[str, str, int] | None:
        """The first key repeated within one object: (object pointer, key, offset of the repeat).

        Only called when the parser has seen a repeat, so it may read the whole text.
        """
        stack = [(self._root, "")]
        while stack:
            start, pointer = stack.pop()
            if self.text[start] not in "{[":
                continue
            scan = self._scan(start)
            while self._step(scan):
                pass
            if scan.repeat is not None:
                return pointer, *scan.repeat
            children = scan.keys.items() if scan.is_object else enumerate(scan.items)
            stack.extend((child, join_pointer(pointer, part)) for part, child in children)
        return None


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
        self.duplicate: tuple[str, str, int] | None = None  # first repeated key, as in JsonSourceMap
        self.aliases = False  # whether some node is reached through an alias
        self._walk(root, "")

    def _walk(self, node: Any, pointer: str) -> tuple[int, int]:
        import yaml

        known = self._done.get(id(node))
        if known is not None:  # an alias: the anchored node, not expanded again
            self.table[pointer] = known
            self.aliases = True
            return known
        self._done[id(node)] = (node.start_mark.index, node.end_mark.index)  # cut cycles
        start, end = node.start_mark.index, node.end_mark.index
        children: list[tuple[str, Any]] = []
        if isinstance(node, yaml.MappingNode):
            for k, _ in node.value:
                if not isinstance(k, yaml.ScalarNode):  # JSON keys are strings
                    raise yaml.constructor.ConstructorError(
                        None, None, "a mapping key must be a string, not a collection", k.start_mark
                    )
            children = [(join_pointer(pointer, k.value), v) for k, v in node.value]
            if self.duplicate is None and len({k.value for k, _ in node.value}) != len(node.value):
                seen: set[str] = set()
                for k, _ in node.value:
                    if k.value in seen:
                        self.duplicate = (pointer, k.value, k.start_mark.index)
                        break
                    seen.add(k.value)
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

    def _offsets(self, pointer: str) -> tuple[int, int]:
        parts = split_pointer(pointer)
        while True:
            offsets = self.table.get(join_pointer("", *parts))
            if offsets is not None or not parts:
                break
            parts.pop()
        return offsets if offsets is not None else (0, 0)

    def span(self, pointer: str) -> Span:
        return self.lines.span(*self._offsets(pointer))

    def start(self, pointer: str) -> tuple[int, int]:
        return self.lines.position(self._offsets(pointer)[0])
