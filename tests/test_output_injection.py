"""Output injection: file names and every string from a catalog, suite, trace or bench spec are untrusted.

catalint runs in CI on pull requests from strangers. A file name or a tool name holding a line break could
start a log line of its own, and GitHub's runner reads a line that begins with '::' (after white space) as a
workflow command (::error::, ::add-mask::, ::stop-commands::), and '##[command]' anywhere in a line. An ESC
recolours the log; a bidirectional control reorders what a reviewer sees. Each test below runs a command end
to end on hostile input and checks every line of its standard output and standard error.
"""

from __future__ import annotations

import re

from click.testing import Result

from catalint.text import one_line

# What a stranger's pull request can put in a file name or a catalog string.
EVIL = "x\n::error file=x::pwned\x1b[31m\r::add-mask::y\u202e##[warning]z\x85\u2028"
EVIL_INLINE = "::error::y\x1b[31m\u202e##[warning]z"  # no line break: a gate check can name it
EVIL_FILE = "a\n::error file=x::pwned\x1b[31m\x1b]0;t\x07\u202e\r.tools.json"  # no '/' and no NUL: a legal file name
RUNNER_LINE_BREAKS = re.compile("\r\n|\r|\n")  # how GitHub's runner reads lines (StreamReader.ReadLine)
RAW_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
OWN_COMMAND = re.compile(r"::(error|warning|notice) [^:\n]*title=catalint[^:\n]*::")  # the github format's own


def assert_clean(text: str, github: bool = False) -> None:
    """No line of text opens a workflow command that catalint did not write, and no raw control is left."""
    found = RAW_CONTROLS.search(text)
    assert found is None, f"raw {found.group()!r} in {text!r}"
    for line in RUNNER_LINE_BREAKS.split(text):
        stripped = line.lstrip()
        if github and OWN_COMMAND.match(stripped):
            continue
        assert not stripped.startswith("::"), f"a line opens a workflow command: {line!r}"
        assert "##[" not in line, f"a legacy workflow command: {line!r}"


def assert_result_clean(result: Result, github: bool = False) -> None:
    assert_clean(result.stdout, github)
    assert_clean(result.stderr)


def evil_tool(name: str = EVIL) -> dict[str, object]:
    return {"name": name, "description": f"Reads a thing. {EVIL}", "inputSchema": {"type": "object"}}


OK_TOOL = {
    "name": "get_weather",
    "description": "Get the current weather for a city. Returns the temperature in Celsius.",
    "inputSchema": {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "City name", "maxLength": 80}},
        "required": ["city"],
        "additionalProperties": False,
    },
}


def test_one_line_leaves_ordinary_text_alone_and_escapes_the_rest() -> None:
    for plain in ("get_weather", "tools.json", "ok/tools.yaml", "naïve 天気 🌦", "a::b", "see ## [1]", ""):
        assert one_line(plain) == plain
    assert one_line("a\n::error::x\x1b[31m\u202e") == "a\\n::error::x\\x1b[31m\\u202e"
    assert one_line("::error::x") == "\\x3a:error::x"
    assert one_line(" \u00a0\t::warning::x") == " \u00a0\\t::warning::x"  # the tab is escaped: no longer white
    assert one_line("  ::warning::x") == "  \\x3a:warning::x"
    assert one_line("say ##[error]x") == "say #\\x23[error]x"
    for hostile in (EVIL, EVIL_FILE, "::x", " ::x", "##[##["):
        assert one_line(one_line(hostile)) == one_line(hostile)  # its own escape
        assert_clean(one_line(hostile))
