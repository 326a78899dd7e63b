"""Shared test helpers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from catalint.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CORPUS = ROOT.parent / "shared" / "corpus"


def write(path: Path, content: str | bytes) -> Path:
    """Write text (UTF-8) or bytes to path, making its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def write_catalog(path: Path, tools: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"tools": tools}, indent=2), encoding="utf-8")
    return path


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Run the catalint CLI in-process from tmp_path; returns the click Result."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CATALINT_OUTPUT_FORMAT", raising=False)

    def run(*args: str, input: str | None = None):
        return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)

    return run
