"""Read a saved tools/list snapshot (JSON or YAML) into a Catalog."""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from typing import Any

from catalint.model import Catalog, Tool
from catalint.sourcemap import JsonSourceMap, LineIndex, YamlEventSourceMap, YamlSourceMap, join_pointer
from catalint.text import one_line  # an error line names a file and quotes its keys: both untrusted

YAML_SUFFIXES = (".yaml", ".yml")
# Limits on untrusted input (see the README's "Limits"): each is one clear error, exit 2.
MAX_FILE_BYTES = 64 * 1024 * 1024  # a catalog of 10,000 rich tools is about 17 MB
MAX_TOOLS = 25_000  # per catalog; the largest public servers advertise a few hundred
NUL_IN_NAME = "a file name cannot hold a NUL byte"


class LoadError(Exception):
    """Input that cannot be linted; rendered as one line, exit code 2."""

    def __init__(
        self,
        path: str,
        message: str,
        line: int | None = None,
        col: int | None = None,
        pointer: str | None = None,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.message = message
        self.line = line
        self.col = col
        self.pointer = pointer

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}:{self.col}"
        text = f"{where}: error: {self.message}"
        if self.pointer:  # the root pointer "" needs no mention
            text += f" (at {self.pointer})"
        return one_line(text)


# Strings are matched too, so that a NaN inside a string is skipped.
_STRING = r'"(?:[^"\\]|\\.)*"'  # a JSON string literal, skipped where a bare token is looked for
_CONSTANT = re.compile(_STRING + r"|(-?Infinity|NaN)")


def _outside_strings(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first match of pattern's group 1 outside JSON strings (pattern: _STRING | (token))."""
    found = pattern.search(text)
    while found and not found.group(1):
        found = pattern.search(text, found.end())
    return found


class _OutOfRange(ValueError):
    def __init__(self, literal: str) -> None:
        super().__init__(f"{literal} is beyond the range of numbers catalint can hold")
        self.literal = literal


def _finite_float(literal: str) -> float:
    value = float(literal)
    if value in (float("inf"), float("-inf")):
        raise _OutOfRange(literal)
    return value


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _wide_codec(head: bytes) -> str | None:
    """UTF-16/32 without a BOM, told by where the NUL bytes of its first characters fall (JSON and
    YAML never hold a raw NUL, so UTF-8 catalog text cannot look like this)."""
    nul = [b == 0 for b in head]
    if len(head) == 4 and nul == [False, True, True, True]:
        return "UTF-32-LE"
    if len(head) == 4 and nul == [True, True, True, False]:
        return "UTF-32-BE"
    if len(head) >= 2 and nul[:2] == [False, True] and (len(head) < 4 or nul[2:] == [False, True]):
        return "UTF-16-LE"
    if len(head) >= 2 and nul[:2] == [True, False] and (len(head) < 4 or nul[2:] == [True, False]):
        return "UTF-16-BE"
    return None


def decode_bytes(data: bytes, display: str) -> str:
    """Decode UTF-8 (with or without BOM) or BOM-marked UTF-16/32."""
    for bom, codec in (
        (b"\xff\xfe\x00\x00", "utf-32"),
        (b"\x00\x00\xfe\xff", "utf-32"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
    ):
        if data.startswith(bom):
            try:
                return data.decode(codec)
            except UnicodeDecodeError as exc:
                raise LoadError(display, f"invalid {codec.upper()} text: {exc.reason}") from None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    wide = _wide_codec(data[:4])
    if wide is not None:
        message = f"looks like {wide} text without a byte-order mark: save it as UTF-8 (or add the BOM)"
        raise LoadError(display, message, 1, 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8", "replace")
        line, col = LineIndex(before).position(len(before))
        raise LoadError(display, f"invalid UTF-8 (byte 0x{data[exc.start]:02x})", line, col) from None


def looks_like_yaml(path: str, text: str) -> bool:
    if path.lower().endswith(YAML_SUFFIXES):
        return True
    if path.lower().endswith(".json"):
        return False
    head = text.lstrip()[:1]
    return head not in ("{", "[")


def parse_json(text: str, display: str) -> tuple[Any, JsonSourceMap]:
    repeats: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(items)
        if len(obj) != len(items):
            repeats.append("")
        return obj

    try:
        data = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=pairs, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        line, col = LineIndex(text).position(exc.pos)
        raise LoadError(display, exc.msg, line, col) from None
    except _OutOfRange as exc:  # 1e309: Python would read it as infinity
        pattern = re.compile(_STRING + "|(" + re.escape(exc.literal) + r")(?![0-9eE.+-])")
        found = _outside_strings(pattern, text)
        where = LineIndex(text).position(found.start(1)) if found else (None, None)
        raise LoadError(display, str(exc), *where) from None
    except ValueError as exc:  # NaN / Infinity, or an integer of too many digits
        long = _outside_strings(_LONG_DIGITS, text) if "integer string conversion" in str(exc) else None
        if long is not None:
            digits = len(long.group(1).lstrip("-"))
            line, col = LineIndex(text).position(long.start(1))
            raise LoadError(display, f"an integer of {digits:,} digits: {_TOO_LONG}", line, col) from None
        found = _outside_strings(_CONSTANT, text)
        where = LineIndex(text).position(found.start(1)) if found else (None, None)
        raise LoadError(display, str(exc), *where) from None
    except RecursionError:
        raise LoadError(display, "JSON nested too deeply") from None
    source = JsonSourceMap(text)
    if repeats:
        found = source.duplicate_key()
        if found is not None:
            raise _duplicate_error(display, source, *found, "JSON")
    return data, source


def _duplicate_error(display: str, source: Any, pointer: str, key: str, offset: int, kind: str) -> LoadError:
    line, col = source.lines.position(offset)
    where = f" in {pointer}" if pointer else ""
    return LoadError(display, f"duplicate key {key!r}{where}: {kind} would keep only the last one", line, col)


class _Unsure(Exception):
    """libyaml's scanner refused the text: let PyYAML's own read it again and word the error."""


class _TooManyValues(Exception):
    """The document holds more than MAX_EXPANDED values; args: the mark where composing stopped."""


def parse_yaml(text: str, display: str) -> tuple[Any, YamlSourceMap | YamlEventSourceMap]:
    fast = _fast_loader()
    if fast is not None and not text.startswith("\ufeff"):  # libyaml's offsets skip a BOM
        from catalint import yaml_events

        try:
            plain = yaml_events.read(text, fast, MAX_EXPANDED)
            if plain is not None:
                return plain
            return _parse_yaml(text, display, fast, unsure=True)  # tags, anchors, merge keys: composed
        except yaml_events.TooManyValues as exc:
            raise _too_many(display, text, exc.args[0]) from None
        except (yaml_events.Unsure, _Unsure):
            pass
    return _parse_yaml(text, display, _json_loader())


def _too_many(display: str, text: str, mark: Any) -> LoadError:
    message = f"a YAML document of more than {MAX_EXPANDED:,} values: catalint reads at most that many"
    return LoadError(display, message, *_place(text, mark))


def _place(text: str, mark: Any) -> tuple[int, int]:
    """A YAML mark's 1-based line and column as findings count them: YAML also ends a line at U+0085,
    U+2028 and U+2029, which catalint (and editors) read as characters of the line."""
    return LineIndex(text).position(mark.index)


def _parse_yaml(text: str, display: str, loader_class: Any, unsure: bool = False) -> tuple[Any, YamlSourceMap]:
    """unsure: a text the loader cannot compose raises _Unsure instead of its error."""
    import yaml

    loader = node = None
    try:
        loader = loader_class(text)
        try:
            node = loader.get_single_node()
        except (yaml.YAMLError, UnicodeError):
            if unsure:
                raise _Unsure from None
            raise
        except (ValueError, OverflowError) as exc:  # PyYAML's scanner on "\U00110000": chr() refuses the escape
            if unsure:
                raise _Unsure from None
            at = loader.get_mark()
            what = f"an escape that names no character ({exc})"
            raise LoadError(display, what, *_place(text, at)) from None
        if node is None:
            raise LoadError(display, "empty document")
        # Checked before the source map and the data are built: a merge key (`<<: *prev`) is copied out as
        # the data is built, and an aliased key is repeated in every pointer below it.
        if loader.saw_alias:
            values, size = expanded_size(node, MAX_EXPANDED, MAX_EXPANDED_TEXT)
            if values > MAX_EXPANDED:
                raise LoadError(display, f"YAML aliases expand to more than {MAX_EXPANDED:,} values (an alias bomb?)")
            if size > MAX_EXPANDED_TEXT:
                raise LoadError(
                    display,
                    f"YAML aliases expand to more than {MAX_EXPANDED_TEXT // 2**20} MiB of text, the most"
                    " a file catalint reads holds (an alias bomb?)",
                )
        source = YamlSourceMap(text, node, loader.alias_spans)
        if source.duplicate is not None:
            raise _duplicate_error(display, source, *source.duplicate, "YAML")
        try:
            data = loader.construct_document(node)
        except (ValueError, TypeError, KeyError, AttributeError, OverflowError, IndexError) as exc:
            # an explicit tag the value does not fit (`!!int abc`, `!!set x`): PyYAML does not say where
            bad = _failing_node(loader, node)
            where = _place(text, bad.start_mark) if bad is not None else (None, None)
            tag = bad.tag.rsplit(":", 1)[-1] if bad is not None else "tagged"
            raise LoadError(display, f"cannot read this value as {tag}: {exc}", *where) from None
        return data, source
    except _TooManyValues as exc:
        raise _too_many(display, text, exc.args[0]) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        what = exc.problem or exc.context or "invalid YAML"
        if exc.context and exc.problem and exc.problem.startswith("but "):  # the problem only finishes the context
            what = f"{exc.context}, {exc.problem}"  # "expected a single document in the stream, but found another"
        elif exc.context and exc.problem == "second occurrence" and exc.context_mark is not None:
            # "found duplicate anchor 'a'; first occurrence" ... "second occurrence": said whole, with the first
            name = exc.context.split("anchor", 1)[-1].split(";", 1)[0].strip()
            line, col = _place(text, exc.context_mark)
            what = f"anchor {name} is defined twice (first at {line}:{col})"
        if mark is None:
            raise LoadError(display, what) from None
        raise LoadError(display, what, *_place(text, mark)) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow
        line, col = LineIndex(text).position(exc.position)
        raise LoadError(display, f"{exc.reason} (#x{exc.character:04x})", line, col) from None
    except yaml.YAMLError as exc:
        raise LoadError(display, str(exc).splitlines()[0]) from None
    except RecursionError:
        loop = _contains_itself(node) if node is not None else None
        if loop is not None:  # `a: &x {b: *x}`: an alias to a node that holds it
            where = _place(text, loop.start_mark)
            raise LoadError(display, "this anchored node holds an alias to itself: no JSON form", *where) from None
        raise LoadError(display, "YAML nested too deeply") from None
    finally:
        if loader is not None:
            loader.dispose()


def _yaml_children(node: Any) -> list[Any]:
    """A composed node's children in document order: a mapping's keys and values, a sequence's items."""
    import yaml

    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


def _contains_itself(root: Any) -> Any:
    """The first node, depth first, that an alias inside it points back to; None for a tree."""
    path: set[int] = {id(root)}
    stack = [(root, iter(_yaml_children(root)))]
    done: set[int] = set()
    while stack:
        node, kids = stack[-1]
        kid = next(kids, None)
        if kid is None:
            stack.pop()
            path.discard(id(node))
            done.add(id(node))
        elif id(kid) in path:
            return kid
        elif id(kid) not in done:
            path.add(id(kid))
            stack.append((kid, iter(_yaml_children(kid))))
    return None


def _failing_node(loader: Any, root: Any) -> Any:
    """The first node, in document order, that the loader cannot build (a leaf before its parents)."""
    import yaml

    order, stack, seen = [], [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:  # an alias to an enclosing node (a recursive document) is one node
            continue
        seen.add(id(node))
        order.append(node)
        stack.extend(reversed(_yaml_children(node)))
    leaves = [n for n in order if isinstance(n, yaml.ScalarNode)]
    for node in [*leaves, *(n for n in reversed(order) if not isinstance(n, yaml.ScalarNode))]:
        loader.constructed_objects, loader.recursive_objects, loader.state_generators = {}, {}, []
        try:
            loader.construct_object(node, deep=True)
        except Exception:
            return node
    return None


MAX_EXPANDED = 1_000_000  # values in a YAML document once its aliases are expanded, as JSON would have them
# Bytes of its strings (keys included, as UTF-8) once expanded: a 100 KB description aliased by 3,000 tools
# is 300 MB of text to read, from a 214 KB file. No more than a file catalint reads could hold.
MAX_EXPANDED_TEXT = MAX_FILE_BYTES


def expanded_size(root: Any, limit: int, text_limit: int) -> tuple[int, int]:
    """How many values, and bytes of text (scalars and keys, as UTF-8), a composed YAML document holds once
    built, with every aliased node counted each time it is reached, a merge key's mappings included.

    Read from the node tree before anything is built, so that neither an alias bomb nor a chain of merge
    keys (each `{<<: *prev, k: 1}`, which PyYAML copies out level by level) costs its expansion. Sizes are
    memoised per node, so this is linear in the distinct nodes; it stops counting past either limit.
    """
    import yaml

    sizes: dict[int, tuple[int, int]] = {}
    busy: set[int] = set()  # nodes being counted: an alias to one of them holds its own container

    def text(value: str) -> int:
        return len(value) if value.isascii() else len(value.encode("utf-8", "surrogatepass"))

    def size(node: Any, depth: int) -> tuple[int, int]:
        known = sizes.get(id(node))
        if known is not None:
            return known
        if isinstance(node, yaml.ScalarNode):
            known = (1, text(node.value))
            sizes[id(node)] = known
            return known
        if id(node) in busy:  # an alias to an enclosing node: no JSON form, reported where it loops
            raise RecursionError
        if depth > 1000:
            return limit + 1, 0
        busy.add(id(node))
        total, written = 1, 0
        if isinstance(node, yaml.MappingNode):
            pairs = node.value
        else:
            pairs = [(None, child) for child in node.value]
        for key, child in pairs:
            if isinstance(key, yaml.ScalarNode):
                written += size(key, depth + 1)[1]  # a key is text, not a value of its own
            values, part = size(child, depth + 1)
            total += values
            written += part
            if total > limit or written > text_limit:
                break
        busy.discard(id(node))
        sizes[id(node)] = total, written
        return total, written

    return size(root, 0)


_LOADER: Any = None
_FAST: Any = None  # the libyaml loader, once _json_loader() has run; False: PyYAML was built without libyaml
MAX_INT_DIGITS = 4300  # Python's default limit on converting integers to and from decimal text
MAX_INT_BITS = int(MAX_INT_DIGITS * 3.3219)  # log2(10) bits a digit: an integer this wide has about 4,300 digits
_TOO_LONG = f"catalint reads integers of up to {MAX_INT_DIGITS:,} digits"
_DIGITS_PER_SEXAGESIMAL_PART = 1.7782  # log10(60)
# Past this many base-60 parts the integer is over MAX_INT_DIGITS whatever they are (the first part is at least 1).
_SEXAGESIMAL_PARTS = int(MAX_INT_DIGITS / _DIGITS_PER_SEXAGESIMAL_PART) + 2
_LONG_DIGITS = re.compile(_STRING + rf"|(-?\d{{{MAX_INT_DIGITS + 1},}})")


def _fast_loader() -> Any:
    """_json_loader() reading through libyaml's C scanner and parser, where PyYAML ships with it. A plain
    document is built from its events by yaml_events.read, which takes this loader's scalar constructors;
    any other is composed by PyYAML's Python composer, so anchors, tags and deep nesting (a RecursionError,
    not a crash in C) behave as they do with the pure loader. Both read only character offsets, which
    libyaml counts as PyYAML does. None without libyaml.
    """
    _json_loader()  # builds both
    return _FAST or None


def _json_loader() -> Any:
    """A safe YAML loader that builds only what JSON can hold.

    Mapping keys stay the strings written (`on:`, `200:` and `2024-01-01:` are
    not turned into a boolean, an int or a date), and timestamps and binary
    scalars stay strings; so a YAML catalog means what the same catalog in JSON
    means, and every key is one the source map knows.
    """
    global _LOADER, _FAST
    if _LOADER is None:
        import yaml

        class Bounded(yaml.composer.Composer):
            """Stops composing past MAX_EXPANDED nodes: a document that large (16 MB of "- a" lines
            would be 4 million) costs about 700 bytes of memory a node before any rule runs."""

            composed = 0
            saw_alias = False  # some alias in the document: its expanded size is checked before it is built
            # Where each alias is written, by (its container, its key node or item number): the data holds
            # the anchored node there, but a finding under it belongs at the alias.
            alias_spans: dict[tuple[int, int], tuple[int, int]] | None = None

            def compose_node(self, parent: Any, index: Any) -> Any:
                self.composed += 1
                if self.composed > MAX_EXPANDED:
                    raise _TooManyValues(self.peek_event().start_mark)
                if self.check_event(yaml.AliasEvent):
                    self.saw_alias = True
                    if parent is not None and index is not None:  # a value or an item, not a key
                        event = self.peek_event()
                        if self.alias_spans is None:
                            self.alias_spans = {}
                        where = index if type(index) is int else id(index)
                        self.alias_spans[id(parent), where] = (event.start_mark.index, event.end_mark.index)
                return super().compose_node(parent, index)

        class JsonConstructor(yaml.constructor.SafeConstructor):
            def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
                self.flatten_mapping(node)
                mapping: dict[Any, Any] = {}
                for key_node, value_node in node.value:
                    if not isinstance(key_node, yaml.ScalarNode):
                        raise yaml.constructor.ConstructorError(
                            None, None, "a mapping key must be a string, not a collection", key_node.start_mark
                        )
                    mapping[key_node.value] = self.construct_object(value_node, deep=deep)
                return mapping

        for tag in ("timestamp", "binary"):
            JsonConstructor.add_constructor(
                f"tag:yaml.org,2002:{tag}", yaml.constructor.SafeConstructor.construct_yaml_str
            )

        def no_set(loader: Any, node: Any) -> Any:
            raise yaml.constructor.ConstructorError(None, None, "a YAML !!set has no JSON form", node.start_mark)

        def finite_float(loader: Any, node: Any) -> float:
            value = yaml.constructor.SafeConstructor.construct_yaml_float(loader, node)
            if value != value or value in (float("inf"), float("-inf")):
                raise yaml.constructor.ConstructorError(
                    None, None, f"{node.value} is not a number JSON can hold", node.start_mark
                )
            return value

        def bounded_int(loader: Any, node: Any) -> int:
            # Hex, octal and binary literals are not bound by Python's 4,300-digit limit for decimal text, so
            # one could build an integer that every later str() or JSON output of it would fail on.
            parts = node.value.count(":") + 1
            if parts > _SEXAGESIMAL_PARTS:  # YAML 1.1's base 60 (1:30:00): building it costs time squared
                digits = int(parts * _DIGITS_PER_SEXAGESIMAL_PART) + 1
                raise yaml.constructor.ConstructorError(
                    None, None, f"an integer of about {digits:,} digits: {_TOO_LONG}", node.start_mark
                )
            try:
                value: int = yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)
            except ValueError as exc:
                if "integer string conversion" not in str(exc):
                    raise  # not an integer at all (`!!int abc`): said where the value cannot be built
                digits = len(node.value.lstrip("+-").replace("_", ""))  # a decimal literal past the limit
                raise yaml.constructor.ConstructorError(
                    None, None, f"an integer of {digits:,} digits: {_TOO_LONG}", node.start_mark
                ) from None
            if value.bit_length() > MAX_INT_BITS:
                digits = int(value.bit_length() * 0.30103) + 1
                raise yaml.constructor.ConstructorError(
                    None, None, f"an integer of about {digits:,} digits: {_TOO_LONG}", node.start_mark
                )
            return value

        JsonConstructor.add_constructor("tag:yaml.org,2002:set", no_set)
        JsonConstructor.add_constructor("tag:yaml.org,2002:float", finite_float)
        JsonConstructor.add_constructor("tag:yaml.org,2002:int", bounded_int)

        class JsonCompatibleLoader(Bounded, yaml.SafeLoader, JsonConstructor):  # JsonConstructor before SafeConstructor
            pass

        _LOADER = JsonCompatibleLoader
        try:
            from yaml._yaml import CParser
        except ImportError:
            _FAST = False
        else:

            class FastJsonLoader(Bounded, CParser, JsonConstructor, yaml.resolver.Resolver):
                def __init__(self, stream: str) -> None:
                    CParser.__init__(self, stream)
                    Bounded.__init__(self)
                    JsonConstructor.__init__(self)
                    yaml.resolver.Resolver.__init__(self)

            _FAST = FastJsonLoader
    return _LOADER


def find_tools(data: Any) -> tuple[list[Any], str] | None:
    """The tools array and its JSON pointer, for every accepted shape."""
    if isinstance(data, list):
        return data, ""
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("tools"), list):
        return data["tools"], "/tools"
    result = data.get("result")
    if isinstance(result, dict) and isinstance(result.get("tools"), list):
        return result["tools"], "/result/tools"
    return None


_JSON_KIND = {
    dict: "an object",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
}


def _get(data: Any, key: str) -> Any:
    return data.get(key) if isinstance(data, dict) else None


def build_catalog(data: Any, source: Any, path: str, display: str) -> Catalog:
    def fail(message: str, pointer: str) -> LoadError:
        span = source.span(pointer)
        return LoadError(display, message, span.line, span.col, pointer)

    found = find_tools(data)
    if found is None:
        if isinstance(data, dict) and isinstance(data.get("error"), dict):
            error = data["error"]  # JSON-RPC says message; npm's registry, for one, says summary
            detail = next((str(error[k]) for k in ("message", "summary", "code") if error.get(k)), "no message")
            return_error = f"JSON-RPC error response, no tools: {detail}"
            raise fail(return_error, "/error")
        for pointer, holder in (("/tools", data), ("/result/tools", _get(data, "result"))):
            if isinstance(holder, dict) and "tools" in holder:
                value = holder["tools"]
                kind = _JSON_KIND.get(type(value), f"a {type(value).__name__}")
                raise fail(f'"tools" must be an array of tools, not {kind}', pointer)
        raise fail(
            'no tools array: expected {"tools": [...]}, a JSON-RPC result with result.tools, or a bare array of tools',
            "",
        )
    items, base = found
    if len(items) > MAX_TOOLS:
        raise fail(f"{len(items):,} tools: catalint reads at most {MAX_TOOLS:,} tools per catalog", base)
    tools: list[Tool] = []
    for i, raw in enumerate(items):
        pointer = join_pointer(base, i)
        if not isinstance(raw, dict):
            raise fail(f"tool is {json_kind(raw)}, not an object", pointer)
        if not isinstance(raw.get("name"), str):
            where = join_pointer(pointer, "name") if "name" in raw else pointer
            raise fail('tool has no string "name"', where)
        tools.append(Tool(i, pointer, raw))
    holder = data if base == "/tools" else _get(data, "result") if base == "/result/tools" else None
    cursor = _get(holder, "nextCursor")
    more = isinstance(cursor, str) and cursor != ""  # a server with more pages sends a cursor (a string)
    return Catalog(path=path, display=display, tools=tools, source=source, more_pages=more)


def json_kind(value: Any) -> str:
    """JSON type of a value with its article: 'an array', 'null'."""
    if value is None:
        return "null"
    kinds = {bool: "a boolean", str: "a string", int: "a number", float: "a number", list: "an array"}
    found = kinds.get(type(value))
    if found is not None:
        return found
    if isinstance(value, tuple):  # YAML's !!omap and !!pairs read as lists of (key, value) pairs
        return "a YAML pair (of !!omap or !!pairs)"
    return "an object"


def load_text(text: str, path: str, display: str) -> Catalog:
    if not text.strip():
        raise LoadError(display, "empty file")
    if looks_like_yaml(path, text):
        data, source = parse_yaml(text, display)
    else:
        data, source = parse_json(text, display)
    return build_catalog(data, source, path, display)


def name_problem(path: str | os.PathLike[str]) -> str | None:
    """Why no file can have this name (a NUL byte; a lone surrogate that JSON's "\\udfff" can write but the
    file system's encoding cannot), or None."""
    name = os.fspath(path)
    if "\0" in name:
        return NUL_IN_NAME
    try:
        os.fsencode(name)
    except UnicodeEncodeError as exc:
        return f"a file name cannot hold the character U+{ord(name[exc.start]):04X} (a lone surrogate)"
    return None


def read_text(path: str, display: str | None = None) -> str:
    """A file's text, decoded as catalogs are; LoadError (naming display, else path) when it cannot be read."""
    label = display or path
    problem = name_problem(path)  # a name from a spec or a suite; open() would raise ValueError
    if problem:
        raise LoadError(label, problem)
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except IsADirectoryError:
        raise LoadError(label, "is a directory") from None
    except OSError as exc:
        raise LoadError(label, exc.strerror or str(exc)) from None
    return decode_bytes(within_limit(data, label), label)


def file_problem(path: str | os.PathLike[str]) -> str | None:
    """Why path is not a regular file, for a file named in a setting (--config, a spec's catalog_path) that
    must be one: a pipe or a device would block or never end; None for a regular file."""
    problem = name_problem(path)  # os.stat would raise ValueError
    if problem:
        return problem
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:  # a name too long, a parent that is a file, a folder that cannot be searched
        return exc.strerror or str(exc)
    if stat.S_ISDIR(mode):
        return "is a directory"
    return None if stat.S_ISREG(mode) else "not a regular file"


def within_limit(data: bytes, label: str) -> bytes:
    if len(data) > MAX_FILE_BYTES:
        raise LoadError(label, f"file is over {MAX_FILE_BYTES // 2**20} MiB, the most catalint reads")
    return data


def parse_document(path: str) -> tuple[Any, Any]:
    """Any JSON or YAML document catalint reads (a bench spec, a suite): its data and source map; '-' reads
    standard input (its relative paths are then read from the working directory)."""
    text = decode_bytes(read_stdin(path), path) if path == "-" else read_text(path)
    if not text.strip():
        raise LoadError(path, "empty file")
    return parse_yaml(text, path) if looks_like_yaml(path, text) else parse_json(text, path)


def load_path(path: str, stdin_name: str = "-") -> Catalog:
    """Load a catalog file, or standard input when path is '-'."""
    if path == "-":
        return load_text(decode_bytes(read_stdin(stdin_name), stdin_name), stdin_name, stdin_name)
    return load_text(read_text(path), path, path)


def read_stdin(name: str = "-") -> bytes:
    """Standard input's bytes, up to the limit; closed or unreadable, a LoadError naming it."""
    if sys.stdin is None:  # started with standard input closed (<&-)
        raise LoadError(name, "cannot read standard input: it is closed")
    try:
        return within_limit(sys.stdin.buffer.read(MAX_FILE_BYTES + 1), name)
    except OSError as exc:  # opened for writing only, a device that fails, ...
        raise LoadError(name, f"cannot read standard input: {exc.strerror or exc}") from None


def one_name_each(paths: list[str]) -> set[str]:
    """Of paths, one for each file they name: where a file is met under several (a symbolic link beside its
    target), the first that is not a link, so that a report names the file a user edits; else the first."""
    names: dict[str, list[str]] = {}
    for path in paths:
        names.setdefault(os.path.realpath(path), []).append(path)
    return {next((n for n in group if not os.path.islink(n)), group[0]) for group in names.values()}


def special_kind(path: str | os.PathLike[str]) -> str | None:
    """What path is when it is a FIFO, a socket or a device (through a symbolic link), which a reader must
    not open unasked (a FIFO waits for a writer forever, /dev/zero never ends); None for anything else, a
    file or what cannot be looked at (reading it says why)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):  # ValueError: a NUL byte in the name
        return None
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return None
