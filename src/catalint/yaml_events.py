"""Read a plain YAML catalog straight from libyaml's event stream.

Composing a node tree first (PyYAML's composer, then a pointer table built from
it, then the constructor) costs about 1 KB and 10 microseconds a value: a
10,000-tool catalog took 4.3 s and 520 MB before any rule ran. Here the data and
each container's child offsets are built in one pass over the events, with no
node objects and no pointer strings.

Only plain documents take this path: no tags, anchors, aliases or merge keys, no
repeated key, no scalar that needs more than the JSON types, and nesting of at
most MAX_DEPTH; past max_values values it stops, as the composer would. For
anything else `read` returns None and the caller composes the document as
before, so errors, and what such documents mean, stay as they were.
"""

from __future__ import annotations

from array import array
from typing import Any

from catalint.sourcemap import YamlEventSourceMap, block_scalar_end

MAX_DEPTH = 256  # deeper documents go through the composer, which reports what it cannot nest

_STR = "tag:yaml.org,2002:str"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"  # kept as the text written, as the composer path does
_BUILT = frozenset(
    ("tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
)


class Unsure(Exception):
    """libyaml refused the text: the caller reads it again to word the error."""


class TooManyValues(Exception):
    """The document holds more than max_values values; args: the mark of the first value past them,
    where the composer would stop too."""


def read(text: str, loader_class: Any, max_values: int) -> tuple[Any, YamlEventSourceMap] | None:
    """(data, source map) for a plain document, or None when it needs the composer.

    loader_class: the libyaml loader whose scalar constructors give null, bool, int and
    float values. Raises Unsure when libyaml cannot parse the text, and TooManyValues
    past max_values values (counting keys, as the composer does).
    """
    import yaml
    from yaml._yaml import CParser

    events = yaml.events
    mapping_start, sequence_start = events.MappingStartEvent, events.SequenceStartEvent
    scalar, end_kinds = events.ScalarEvent, (events.MappingEndEvent, events.SequenceEndEvent)
    resolvers = yaml.resolver.Resolver.yaml_implicit_resolvers
    constructors = loader_class.yaml_constructors
    constructor = yaml.constructor.SafeConstructor()
    scalar_node = yaml.ScalarNode

    try:
        parser = CParser(text)
    except UnicodeError:  # a lone surrogate: libyaml takes UTF-8 only; PyYAML's reader says where it is
        raise Unsure from None
    try:
        get = parser.get_event
        try:
            if type(get()) is not events.StreamStartEvent or type(get()) is not events.DocumentStartEvent:
                return None  # no document at all: the composer says so
            # One frame per open container: [container, its kids' offsets, start, flow style, pending key]
            # (pending key: in a mapping, the key read whose value comes next; None while a key is due).
            stack: list[list[Any]] = []
            # Every container's children's (start, end) offsets, one container after another in the order they
            # close, and where each container's run begins. "I" (4 bytes) holds any offset: files are at most
            # loader.MAX_FILE_BYTES (64 MiB) long.
            offsets: array[int] = array("I")
            begins: dict[int, int] = {}
            keys: dict[str, str] = {}  # one string per distinct key, as json.loads shares them
            values = 0
            while True:
                event = get()
                kind = type(event)
                if kind is scalar:
                    if event.anchor is not None or event.tag is not None:
                        return None
                    values += 1
                    if values > max_values:
                        raise TooManyValues(event.start_mark)
                    written = event.value
                    if stack and stack[-1][4] is None and type(stack[-1][0]) is dict:
                        # a mapping key: kept as written (`200:` stays "200"), as the composer path keeps it
                        if written in stack[-1][0] or (written == "<<" and event.implicit[0]):
                            return None  # a repeated key, or a merge key
                        stack[-1][4] = keys.setdefault(written, written)
                        continue
                    start, end = event.start_mark.index, event.end_mark.index
                    if event.style == "|" or event.style == ">":
                        end = block_scalar_end(text, start, end)
                    value: Any = written
                    if event.implicit[0]:  # plain: resolved as the composer resolves it
                        tag = _STR
                        for candidate, pattern in resolvers.get(written[0] if written else "", ()):
                            if pattern.match(written):
                                tag = candidate
                                break
                        if tag in _BUILT:
                            node = scalar_node(tag, written, event.start_mark, event.end_mark)
                            try:
                                value = constructors[tag](constructor, node)
                            except Exception:
                                return None  # out of range or not finite: the composer path says where
                        elif tag != _STR and tag != _TIMESTAMP:
                            return None  # a merge key or `=` where a value goes
                elif kind is mapping_start or kind is sequence_start:
                    if event.anchor is not None or event.tag is not None or len(stack) >= MAX_DEPTH:
                        return None
                    values += 1
                    if values > max_values:
                        raise TooManyValues(event.start_mark)
                    if stack and stack[-1][4] is None and type(stack[-1][0]) is dict:
                        return None  # a collection as a mapping key
                    container = {} if kind is mapping_start else []
                    stack.append([container, array("I"), event.start_mark.index, event.flow_style, None])
                    continue
                elif kind in end_kinds:
                    container, kids, start, flow, _ = stack.pop()
                    # a block collection ends where its last value does; PyYAML's mark is at the next token
                    end = kids[-1] if kids and not flow else event.end_mark.index
                    begins[id(container)] = len(offsets)
                    offsets.extend(kids)
                    value = container
                else:
                    return None  # an alias, or a second document
                if not stack:
                    root, root_span = value, (start, end)
                    break
                top = stack[-1]
                if type(top[0]) is dict:
                    top[0][top[4]] = value
                    top[4] = None
                else:
                    top[0].append(value)
                top[1].append(start)
                top[1].append(end)
            if type(get()) is not events.DocumentEndEvent or type(get()) is not events.StreamEndEvent:
                return None  # a second document: the composer says so
        except (yaml.YAMLError, UnicodeError):
            raise Unsure from None
    finally:
        parser.dispose()
    return root, YamlEventSourceMap(text, root, root_span, offsets, begins)
