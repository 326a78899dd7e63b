"""Map JSON pointers to 1-based line:column spans in the original text.

JSON: the file is parsed once by the C decoder for its data; positions are found
lazily, and only for pointers that have findings. Each container that a lookup
passes through is indexed once (its children's offsets: one regular-expression
match reads a separator and the next member's name, and the C decoder skips
each child it must step over), so the total cost stays linear in the file size.

YAML: read from libyaml's events, each container keeps its children's start and
end offsets (YamlEventSourceMap); a document that needs PyYAML's composer
(tags, anchors, merge keys) has its node tree's marks collected into a table
(YamlSourceMap).

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
# From an object's opening brace or just past a member's value: the separator and the next
# member's name and colon: group 1 is a plain name, or group 2 one that is still escaped or
# holds "~" or "/". No match: the object ends.
_NEXT_KEY = re.compile(r'[ \t\n\r]*[{,][ \t\n\r]*"(?:([^"\\~/]*)|([^"\\]*(?:\\.[^"\\]*)*))"[ \t\n\r]*:[ \t\n\r]*')
# The same for an array, up to the next item's start (the lookahead stops the spaces from
# backtracking onto an empty array's "]"). No match: the array ends.
_NEXT_ITEM = re.compile(r"[ \t\n\r]*[\[,][ \t\n\r]*(?![ \t\n\r\]])")
# How far LineIndex counts on from the last lookup before it looks for a nearer mark; its marks
# are about this far apart.
_NEAR = 4096
_SCAN_AGAIN = 256  # JsonSourceMap keeps the end of a value longer than this

Locator = Callable[[str], Span]


def split_pointer(pointer: str) -> list[str]:
    if not pointer:
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer[1:].split("/")]


_INDEX = re.compile(r"0|[1-9][0-9]*")


def is_index(part: str) -> bool:
    """An RFC 6901 array index: ASCII digits, no leading zero."""
    return _INDEX.fullmatch(part) is not None


def item_index(part: str, size: int) -> int | None:
    """The item an RFC 6901 array index names in a list of size items; None when part is no index or is past
    the end. A number of more than 18 digits is past the end of any list (and int() refuses 4,300 digits)."""
    if len(part) > 18 or not is_index(part):
        return None
    i = int(part)
    return i if i < size else None


_MISSING = object()


def resolve_pointer(doc: Any, pointer: str) -> Any:
    """The value at a JSON pointer inside already-parsed data, or None when there is none."""
    node: Any = doc
    for part in split_pointer(pointer):
        if isinstance(node, dict):
            node = node.get(part, _MISSING)
        elif isinstance(node, list) and (i := item_index(part, len(node))) is not None:
            node = node[i]
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


def pointer_in_tool(pointer: str, tool_pointer: str) -> str:
    """A finding's pointer relative to its tool (/tools/3/inputSchema -> /inputSchema), unchanged
    when it lies outside the tool. What matches findings across versions of a catalog (diff,
    --baseline, SARIF fingerprints): it does not move when tools are added or reordered."""
    if pointer == tool_pointer or pointer.startswith(tool_pointer + "/"):
        return pointer[len(tool_pointer) :]
    return pointer


class LineIndex:
    """Offset -> (line, column) over a text, both 1-based.

    When every line ends in LF, lines are counted on demand from the nearest known
    point: the last lookup (lookups mostly move forward a little) or a mark left on
    the way, so lookups in any order cost about the distance to one of those.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts: list[int] | None = None  # every line's start: only for text with \r line ends
        if "\r" in text:
            self.starts = [0] + [m.end() for m in _EOL.finditer(text)]
        # Otherwise lines are counted on demand (str.count runs at C speed), so a large catalog
        # does not pay for a table of all its lines before the first lookup.
        self._offsets = [0]
        self._marks = [(1, 0)]  # (line, start of that line) at each known offset
        self._last = (0, 1, 0)  # the last offset asked for, its line and that line's start

    def position(self, offset: int) -> tuple[int, int]:
        if self.starts is not None:
            line = bisect_right(self.starts, offset) - 1
            return line + 1, offset - self.starts[line] + 1
        at, line, start = self._last
        if at <= offset <= at + _NEAR:  # mostly a lookup lands a little after the last one
            newlines = self.text.count("\n", at, offset)
            if newlines:
                line += newlines
                start = self.text.rfind("\n", at, offset) + 1
            if offset - self._offsets[-1] > _NEAR:
                self._offsets.append(offset)
                self._marks.append((line, start))
        else:
            line, start = self._far(offset)
        self._last = (offset, line, start)
        return line, offset - start + 1

    def _far(self, offset: int) -> tuple[int, int]:
        """(line, line start) at an offset that is not just after the last lookup, counted from
        the nearest known point, below or above it; leaves a mark there if none is near."""
        text, offsets, marks = self.text, self._offsets, self._marks
        i = bisect_right(offsets, offset) - 1
        low, (line, start) = offsets[i], marks[i]  # the nearest known point at or below offset
        high = offsets[i + 1] if i + 1 < len(offsets) else -1  # the nearest above (-1: none)
        at, at_line, at_start = self._last
        if low < at <= offset:
            low, line, start = at, at_line, at_start
        elif offset < at and (high < 0 or at < high):
            high = at
        if high < 0 or offset - low <= high - offset:
            newlines = text.count("\n", low, offset)
            if newlines:
                line += newlines
                start = text.rfind("\n", low, offset) + 1
        else:  # count back from above
            high_line, high_start = (at_line, at_start) if high == at else marks[i + 1]
            newlines = text.count("\n", offset, high)
            if newlines:  # the line starts after the newline before offset, or where low's does
                line = high_line - newlines
                start = text.rfind("\n", low, offset) + 1 or start
            else:
                line, start = high_line, high_start
        if offset - offsets[i] > _NEAR and (i + 1 == len(offsets) or offsets[i + 1] - offset > _NEAR):
            offsets.insert(i + 1, offset)
            marks.insert(i + 1, (line, start))
        return line, start

    def span(self, start: int, end: int) -> Span:
        line, col = self.position(start)
        # The end is exclusive: place it just after the last character.
        last = end - 1
        if start < last <= start + _NEAR and self.starts is None:  # count on from the start
            newlines = self.text.count("\n", start, last)
            if not newlines:
                return Span(line, col, line, col + end - start)
            return Span(line, col, line + newlines, last - self.text.rfind("\n", start, last) + 1)
        if last <= start:  # one character, or none
            return Span(line, col, line, col + 1 if end > start else col)
        end_line, end_col = self.position(last)
        return Span(line, col, end_line, end_col + 1)


class _Scan:
    """How far one JSON container has been read: its members' start offsets so far."""

    __slots__ = ("end", "is_object", "kids", "pending", "pos", "repeat")

    def __init__(self, is_object: bool, pos: int) -> None:
        self.is_object = is_object
        # Each member's value start, by its pointer segment: an object's key escaped as in a
        # pointer ("a/b" -> "a~1b"), an array's index as digits; so a lookup needs no unescaping.
        self.kids: dict[str, int] = {}
        self.pos = pos  # where reading goes on: the opening bracket, or just past a member
        self.pending = -1  # start of the last member read, until it is stepped over
        self.end = -1  # offset just past the closing bracket, once read
        self.repeat: tuple[str, int] | None = None  # first key seen twice (unescaped), and where


class JsonSourceMap:
    """Pointer -> span for JSON text that has already parsed without error.

    Containers on a pointer's path are read member by member, only as far as the
    wanted member: one regular-expression match reads a separator and the next
    member's name, and a member that must be stepped over is skipped by the C
    decoder. So each lookup costs about one pass over the tool it falls in.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = LineIndex(text)
        self._scans: dict[int, _Scan] = {}
        self._spans: dict[int, Span] = {}  # by start offset
        self._root = _WS.match(text, 0).end()
        # The text parsed already, so the root value ends at its last non-space.
        self._ends: dict[int, int] = {self._root: len(text.rstrip(" \t\r\n"))}

    def _end(self, start: int) -> int:
        end = self._ends.get(start)
        if end is None:
            scan = self._scans.get(start)
            if scan is None:
                end = self._skip(start)
            else:  # finish reading it: cheaper than decoding it all again
                if scan.end < 0:
                    self._read(scan, None)
                end = scan.end
        return end

    def _read(self, scan: _Scan, part: str | None) -> int | None:
        """Read a container's members up to the one at pointer segment part (None: to its end).

        The member's value start, or None when there is no such member. A member's
        own end is found only when the next member is wanted, so a member that a
        pointer descends into is never decoded whole.
        """
        is_object = scan.is_object
        if not is_object and part is not None and not is_index(part):
            return None
        kids, text = scan.kids, self.text
        match, close = (_NEXT_KEY.match, "}") if is_object else (_NEXT_ITEM.match, "]")
        i = scan.pos if scan.pending < 0 else self._end(scan.pending)
        while True:
            m = match(text, i)
            if m is None:  # only the closing bracket is left
                scan.end = text.index(close, i) + 1
                scan.pending = -1
                return None
            i = m.end()
            if not is_object:
                key = str(len(kids))
                kids[key] = i
            else:
                key = m[1]
                if key is None:  # a name with an escape, "~" or "/"
                    key = m[2]
                    if "\\" in key:
                        key = json.loads(f'"{key}"')
                    if "~" in key or "/" in key:
                        key = key.replace("~", "~0").replace("/", "~1")
                if key in kids:
                    if scan.repeat is None:  # the decoded name, and where its opening quote is
                        scan.repeat = (key.replace("~1", "/").replace("~0", "~"), m.start() + m[0].index('"'))
                else:
                    kids[key] = i
            if key == part:
                scan.pending = i
                return i
            i = self._skip(i)

    def _skip(self, start: int) -> int:
        """End of a value with no member table (yet), found by letting the C decoder skip it."""
        end = _SCAN_ONCE(self.text, start)[1]
        if end - start > _SCAN_AGAIN:  # small values are cheaper to skip again than to keep
            self._ends[start] = end
        return end

    def _scan(self, start: int) -> _Scan:
        scan = self._scans.get(start)
        if scan is None:
            scan = self._scans[start] = _Scan(self.text[start] == "{", start)
        return scan

    def _start(self, pointer: str) -> int:
        """Start offset of the node at pointer, or of its closest existing ancestor."""
        node = self._root
        if not pointer:
            return node
        parts = pointer.split("/")
        if not parts[0]:  # the usual leading "/"
            del parts[0]
        scans = self._scans
        for part in parts:
            scan = scans.get(node)
            if scan is None:
                kind = self.text[node]
                if kind != "{" and kind != "[":  # a pointer into a scalar: the scalar
                    return node
                scan = scans[node] = _Scan(kind == "{", node)
            child = scan.kids.get(part)
            if child is None:
                if "~" in part:  # a "~" that escapes nothing ("~2") stands for itself, as "~0" does
                    part = part.replace("~1", "/").replace("~0", "~").replace("~", "~0").replace("/", "~1")
                    child = scan.kids.get(part)
                if child is None:
                    if scan.end >= 0:
                        return node
                    child = self._read(scan, part)
                    if child is None:
                        return node
            node = child
        return node

    def span(self, pointer: str) -> Span:
        start = self._start(pointer)
        span = self._spans.get(start)  # several pointers can fall on one node (a missing one's ancestor)
        if span is None:
            span = self._spans[start] = self.lines.span(start, self._end(start))
        return span

    def release(self) -> None:
        """Forget what lookups have read (they read it again if asked): a large catalog's
        member tables outweigh its text once every finding has its position."""
        self._scans.clear()
        self._spans.clear()
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
            if scan.end < 0:
                self._read(scan, None)  # every member
            if scan.repeat is not None:
                return pointer, *scan.repeat
            stack.extend((child, f"{pointer}/{part}") for part, child in scan.kids.items())
        return None


def block_scalar_end(text: str, start: int, end: int) -> int:
    """Where a `|` or `>` block scalar really ends: PyYAML's mark is past the line breaks and indentation after it."""
    while end > start and text[end - 1] in " \t\r\n":
        end -= 1
    return end


class YamlSourceMap:
    """Pointer -> span table built from a composed PyYAML node tree.

    Marks carry character indexes into the text, so YAML positions go through
    the same LineIndex as JSON. PyYAML ends a block collection or block scalar
    at the next token (often on a later line); such spans are pulled back to
    the last character they really cover.
    """

    def __init__(self, text: str, root: Any, alias_spans: dict[tuple[int, int], tuple[int, int]] | None = None) -> None:
        self.text = text
        self.lines = LineIndex(text)
        self.table: dict[str, tuple[int, int]] = {}
        self._done: dict[int, tuple[int, int]] = {}
        self.duplicate: tuple[str, str, int] | None = None  # first repeated key, as in JsonSourceMap
        # Where the composer met each alias (its container's id and key node's id or item number): an alias
        # and what lies under it are placed there, where that part of the document is written.
        self._alias_spans = alias_spans or {}
        self._walk(root, "")
        self._done.clear()  # only the walk needs it: one entry a node, as many as the table has

    def _walk(self, node: Any, pointer: str) -> tuple[int, int]:
        import yaml

        known = self._done.get(id(node))
        if known is not None:  # a node met again (an alias the composer did not place): not expanded again
            self.table[pointer] = known
            return known
        self._done[id(node)] = (node.start_mark.index, node.end_mark.index)  # cut cycles
        start, end = node.start_mark.index, node.end_mark.index
        children: list[tuple[str, Any, int]] = []  # (pointer, node, its key node's id or its item number)
        if isinstance(node, yaml.MappingNode):
            for k, _ in node.value:
                if not isinstance(k, yaml.ScalarNode):  # JSON keys are strings
                    raise yaml.constructor.ConstructorError(
                        None, None, "a mapping key must be a string, not a collection", k.start_mark
                    )
            children = [(join_pointer(pointer, k.value), v, id(k)) for k, v in node.value]
            if self.duplicate is None and len({k.value for k, _ in node.value}) != len(node.value):
                seen: set[str] = set()
                for k, _ in node.value:
                    if k.value in seen:
                        self.duplicate = (pointer, k.value, k.start_mark.index)
                        break
                    seen.add(k.value)
        elif isinstance(node, yaml.SequenceNode):
            children = [(join_pointer(pointer, i), v, i) for i, v in enumerate(node.value)]
        last_end = end
        aliased = self._alias_spans
        for child_pointer, child, where in children:
            alias = aliased.get((id(node), where)) if aliased else None
            if alias is not None:
                self.table[child_pointer] = alias
                last_end = alias[1]
            else:
                last_end = self._walk(child, child_pointer)[1]
        if children and not node.flow_style:
            end = last_end
        elif isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
            end = block_scalar_end(self.text, start, end)
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


class YamlEventSourceMap:
    """Pointer -> span for a YAML document read from its events: every container's children's
    (start, end) character offsets, in document order, found by the container's identity.

    A lookup walks the data along the pointer, so the map holds no pointer strings, and
    the data must not change while the map is in use.
    """

    def __init__(self, text: str, root: Any, root_span: tuple[int, int], offsets: Any, begins: dict[int, int]) -> None:
        self.text = text
        self.lines = LineIndex(text)
        self._root = root
        self._root_span = root_span
        self._offsets_of = offsets  # start, end, start, end, ... of each container's children in turn
        self._begins = begins  # id(container) -> where its children's offsets begin in that array
        self._order: dict[int, dict[str, int]] = {}  # a large mapping's keys -> their places, once asked

    def _place(self, mapping: dict[str, Any], key: str) -> int:
        if len(mapping) <= 16:
            for i, k in enumerate(mapping):
                if k == key:
                    return i
        order = self._order.get(id(mapping))
        if order is None:
            order = self._order[id(mapping)] = {k: i for i, k in enumerate(mapping)}
        return order[key]

    def _offsets(self, pointer: str) -> tuple[int, int]:
        node, span = self._root, self._root_span
        for part in split_pointer(pointer):
            if isinstance(node, dict):
                if part not in node:
                    break  # no such member: the closest node there is
                i, child = self._place(node, part), node[part]
            elif isinstance(node, list) and (i := item_index(part, len(node))) is not None:
                child = node[i]
            else:  # past a scalar, or no such item
                break
            at = self._begins[id(node)] + 2 * i
            span = (self._offsets_of[at], self._offsets_of[at + 1])
            node = child
        return span

    def span(self, pointer: str) -> Span:
        return self.lines.span(*self._offsets(pointer))

    def start(self, pointer: str) -> tuple[int, int]:
        return self.lines.position(self._offsets(pointer)[0])

    def release(self) -> None:
        """Forget the key orders that lookups built."""
        self._order.clear()
