"""The event reader (catalint.yaml_events) against the composer path it stands in for.

Every plain document must read to the same data and the same span for every pointer
as PyYAML's composer gives; every document that is not plain must be handed back
(None) so that the composer reads it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalint import loader, yaml_events
from catalint.sourcemap import YamlEventSourceMap, YamlSourceMap, join_pointer

pytestmark = pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML built without libyaml")

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def composed(text: str) -> tuple[Any, YamlSourceMap]:
    return loader._parse_yaml(text, "f.yaml", loader._fast_loader())


def read(text: str, max_values: int = loader.MAX_EXPANDED) -> tuple[Any, YamlEventSourceMap] | None:
    return yaml_events.read(text, loader._fast_loader(), max_values)


def pointers_of(data: Any, pointer: str = "") -> list[str]:
    """Every value's pointer, and for each container one member that is not there."""
    found = [pointer]
    if isinstance(data, dict):
        found.append(join_pointer(pointer, "no such key"))
        for key, value in data.items():
            found += pointers_of(value, join_pointer(pointer, key))
    elif isinstance(data, list):
        found += [join_pointer(pointer, len(data)), join_pointer(pointer, "x"), join_pointer(pointer, "01")]
        for i, value in enumerate(data):
            found += pointers_of(value, join_pointer(pointer, i))
    else:
        found.append(join_pointer(pointer, "past", "a", "scalar"))
    return found


def assert_agree(text: str) -> None:
    got = read(text)
    assert got is not None, text
    data, source = got
    want_data, want_source = composed(text)
    assert json.dumps(data) == json.dumps(want_data)  # same values, same key order, 1 stays 1 and 1.0 stays 1.0
    for pointer in pointers_of(want_data):
        assert source.span(pointer) == want_source.span(pointer), (pointer, text)
        assert source.start(pointer) == want_source.start(pointer), (pointer, text)


PLAIN = [
    "tools:\n- name: get_weather\n  description: Get the weather.\n  inputSchema: {type: object}\n",
    "tools: [{name: a, description: 'it''s', inputSchema: {type: object, properties: {x: {type: string}}}}]\n",
    'tools:\r\n  - name: "日本語 😀"\r\n    description: |\r\n      Line one.\r\n      Line two.\r\n\r\n    x: 1\r\n',
    "tools:\n  - name: a\n    description: >\n      folded\n      text\n\n    schema: {a/b: 1, c~d: [1, 2, 3]}\n",
    "# comment\ntools:\n- name: a  # trailing\n  n: null\n  e: ''\n  on: yes\n  2024-01-01: x\n  '200': y\n",
    "? name\n: value\nlist:\n- - nested\n  - deeper: [x, {y: z}]\n",
    "a: [1, 2.5, -3, 0x1f, 0o17, 1_000, .5, +1.0e3, ~, Null, TRUE, off, '', \"\", 2001-12-14t21:59:43.10-05:00]\n",
    "just a scalar\n",
    "---\n- 1\n- [ ]\n- { }\n- {a: []}\n...\n",
    "a:\n  b:\n    c: |+\n      kept\n\n\n  d: >-\n    stripped\n",
    "x: 'single\n\n  folded'\ny: \"esc\\t\\u00e9\"\nz: plain\n  continued\n",
    "'<<': quoted merge-looking key\n",
    "deep: " + "[" * 200 + "]" * 200 + "\n",
]


@pytest.mark.parametrize("text", PLAIN)
def test_a_plain_document_reads_as_the_composer_reads_it(text: str) -> None:
    assert_agree(text)


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: 2\n",  # an anchor
        "a: &x [1]\nb: *x\n",  # an alias
        "base: &b {x: 1}\nderived:\n  <<: *b\n  y: 2\n",  # a merge key
        "a: !!str 12\n",  # a tag on a scalar
        "a: !custom 12\n",
        "a: ! 12\n",  # the non-specific tag
        "a: !!map {b: 1}\n",  # a tag on a collection
        "a: 1\na: 2\n",  # a repeated key
        "outer: {a: {x: 1, x: 2}}\n",
        "? [a, b]\n: c\n",  # a collection as a key
        "? {a: 1}\n: c\n",
        "a: 1\n---\nb: 2\n",  # two documents
        "",  # no document
        "# only a comment\n",
        "a: =\n",  # the value tag
        "a: .inf\n",  # no JSON number
        "a: .nan\n",
        "a: 0x" + "f" * 5000 + "\n",  # an integer past what catalint reads
        "deep: " + "[" * (yaml_events.MAX_DEPTH + 1) + "]" * (yaml_events.MAX_DEPTH + 1) + "\n",
    ],
)
def test_what_is_not_plain_goes_to_the_composer(text: str) -> None:
    assert read(text) is None


def test_reading_stops_past_max_values_where_the_composer_stops() -> None:
    text = "a: [1, 2, 3]\nb: 4\n"  # the mapping, two keys, the sequence, four numbers: eight values
    assert read(text, max_values=8) is not None
    with pytest.raises(yaml_events.TooManyValues) as info:
        read(text, max_values=6)
    assert (info.value.args[0].line, info.value.args[0].column) == (1, 0)  # the key b, the seventh value
    composer = loader._fast_loader()(text)
    composer.composed = loader.MAX_EXPANDED - 6  # the composer's count, six values from its limit
    with pytest.raises(loader._TooManyValues) as stopped:
        composer.get_single_node()
    assert (stopped.value.args[0].line, stopped.value.args[0].column) == (1, 0)


def test_text_libyaml_refuses_is_unsure() -> None:
    with pytest.raises(yaml_events.Unsure):
        read("a: [b\n")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("a: 1\na: 2\n", "f.yaml:2:1: error: duplicate key 'a'"),
        ("a: .inf\n", "f.yaml:1:4: error: .inf is not a number JSON can hold"),
        ("? [a]\n: b\n", "f.yaml:1:3: error: a mapping key must be a string, not a collection"),
        ("a: 1\n---\nb: 2\n", "f.yaml:2:1: error: expected a single document in the stream, but found another"),
    ],
)
def test_the_composer_still_words_what_the_event_reader_hands_back(text: str, said: str) -> None:
    with pytest.raises(loader.LoadError) as info:
        loader.parse_yaml(text, "f.yaml")
    assert str(info.value).startswith(said), str(info.value)


def test_parse_yaml_takes_the_event_path_for_a_plain_document(monkeypatch) -> None:
    composer = []
    real = loader._parse_yaml
    monkeypatch.setattr(loader, "_parse_yaml", lambda t, d, cls, **kw: composer.append(cls) or real(t, d, cls, **kw))
    data, source = loader.parse_yaml("a: 1\n", "f.yaml")
    assert (data, type(source), composer) == ({"a": 1}, YamlEventSourceMap, [])
    data, source = loader.parse_yaml("a: &x 1\nb: *x\n", "f.yaml")
    assert (data, type(source), composer) == ({"a": 1, "b": 1}, YamlSourceMap, [loader._fast_loader()])


# Values as a catalog holds them, with the strings YAML finds hard: ones that look like other
# types, keys with "/" and "~", multi-line text, non-ASCII and astral characters.
_TEXT = st.one_of(
    st.sampled_from(["yes", "No", "null", "~", "1e3", "0x10", "2024-01-01", "<<", "=", "-", "a: b", "#x", "@", "'"]),
    st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12),
    st.text(st.sampled_from("ab /~\n\té😀:-#'\""), max_size=12),
)
_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=_VALUES,
    flow=st.sampled_from([None, True, False]),
    width=st.sampled_from([20, 80, 10**6]),
    block_text=st.booleans(),
    crlf=st.booleans(),
)
def test_generated_documents_read_as_the_composer_reads_them(
    data: Any, flow: bool | None, width: int, block_text: bool, crlf: bool
) -> None:
    class Dumper(yaml.SafeDumper):
        pass

    if block_text:  # multi-line strings as | blocks, as people write descriptions
        Dumper.add_representer(
            str,
            lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", s, style="|" if "\n" in s else None),
        )
    text = yaml.dump(data, Dumper=Dumper, default_flow_style=flow, width=width, allow_unicode=True, sort_keys=False)
    if crlf:
        text = text.replace("\n", "\r\n")
    if read(text) is None:  # a key the dumper wrote that the composer reads as a merge key, say
        return
    assert_agree(text)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no ../shared/corpus beside the checkout")
@pytest.mark.parametrize("style", [False, None])
def test_the_corpus_as_yaml_reads_as_the_composer_reads_it(style: bool | None) -> None:
    files = sorted(CORPUS.glob("*.json"))
    assert files
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeError):
            continue
        text = yaml.safe_dump(data, default_flow_style=style, allow_unicode=True, sort_keys=False, width=100)
        assert_agree(text)


def test_a_lone_surrogate_in_the_text_is_one_error_line() -> None:
    """libyaml takes UTF-8 only: CParser raised UnicodeEncodeError before the reader's error handling."""
    with pytest.raises(loader.LoadError) as info:
        loader.parse_yaml("a: \ud800\n", "f.yaml")
    assert str(info.value) == "f.yaml:1:4: error: special characters are not allowed (#xd800)"


def test_a_base_60_integer_too_long_to_hold_is_refused_before_it_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """YAML 1.1 reads 1:59:59 as an integer; building one of 100,000 parts took seconds (time squared), and the
    event reader then handed it to the composer, which built it again."""

    def never(*_: Any) -> Any:
        raise AssertionError("built")

    monkeypatch.setattr(yaml.constructor.SafeConstructor, "construct_yaml_int", never)
    for text in ("a: 1" + ":59" * 100_000 + "\n", "a: [1" + ":59" * 2_420 + "]\n"):
        with pytest.raises(loader.LoadError) as info:
            loader.parse_yaml(text, "f.yaml")
        assert "digits: catalint reads integers of up to 4,300 digits" in str(info.value)
    monkeypatch.undo()
    assert loader.parse_yaml("a: 1" + ":59" * 2_400 + "\n", "f.yaml")[0]["a"] > 60**2400  # 4,268 digits: read
