"""Fixtures shared by several test files."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.language.paths import ENV_PATH


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory outside the repository, with no TAROCK_PATH: where a new user runs
    `tarock` on rulesets of their own."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.delenv(ENV_PATH, raising=False)
    return work
