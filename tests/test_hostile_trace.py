"""Hostile input to `trace score` and `check`, third round (the red-team report on the trace commands).

The contract is that of test_hostile: on any input a command works or prints one stderr line naming
the file (line:col where known) and exits 2; never a traceback or an "internal error", never a hang.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import write
from test_hostile import no_crash

SUITE = "servers:\n  s: {catalog: cat.json}\nagents:\n  - name: a\n    servers: [s]\n    orchestration: {}\n"


# --------------------------------------------------------------------------------------
# A called tool whose `$schema` names no dialect catalint knows: its arguments are not checked,
# as SCH-006 checks nothing against it (it was a KeyError).
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("declared", ["https://json-schema.org/draft-07/schema", "", 5])
def test_a_called_tool_of_an_unknown_dialect_is_not_checked(cli, tmp_path: Path, declared: object) -> None:
    tool = {"name": "get_x", "description": "Get the x.", "inputSchema": {"$schema": declared, "type": "object"}}
    write(tmp_path / "cat.json", json.dumps({"tools": [tool]}))
    write(tmp_path / "runs" / "a.json", json.dumps({"tool_calls": [{"name": "get_x", "args": {}}]}))
    write(tmp_path / "suite.yml", SUITE)
    score = cli("trace", "score", "--catalog", "s=cat.json", "runs/a.json")
    for result in (score, cli("check", "suite.yml", "--traces", "runs")):
        no_crash(result)
        assert result.exit_code == 0, result.output
        assert "s.get_x: the tool's inputSchema cannot be used to check arguments: $schema " in result.stdout
