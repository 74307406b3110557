"""More of the lookup (see test_lookup.py): an ethnographer's own rulesets are found by name: in ./rulesets/ of the working directory, then
in the folders of TAROCK_PATH, then among the built-in ones (first match wins); `tarock list` says
where each comes from, and messages name a built-in file short, not by where it is installed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from clirun import tarock

from interpreter.language.loader import find_ruleset_file, load_ruleset, ruleset_origins
from interpreter.language.paths import ENV_PATH

VILLAGE = "title: My village\nextends: breitnau\n"


def _village(folder: Path, title: str = "My village") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    file = folder / "my-village.yaml"
    file.write_text(VILLAGE.replace("My village", title), encoding="utf-8")
    return file


def test_a_ruleset_in_the_working_directorys_rulesets_folder_is_found(elsewhere: Path) -> None:
    _village(elsewhere / "rulesets")
    assert load_ruleset("my-village").title == "My village"
    assert ruleset_origins()["my-village"] == "./rulesets"
    ran = tarock("list", cwd=elsewhere)
    assert ran.returncode == 0
    line = next(line for line in ran.stdout.splitlines() if line.startswith("my-village"))
    assert "My village" in line and "./rulesets" in line
    assert tarock("play", "my-village", "--seed", "1", cwd=elsewhere).returncode == 0


def test_tarock_path_is_searched_after_the_working_directory(
    elsewhere: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    _village(second, "From the second folder")
    first.mkdir()
    monkeypatch.setenv(ENV_PATH, os.pathsep.join([str(first), str(second)]))
    assert load_ruleset("my-village").title == "From the second folder"
    assert ruleset_origins()["my-village"] == f"{ENV_PATH}: {second}"
    # The working directory's own folder comes first, and the same name finds the other file
    # (the cache does not hand out the ruleset found before).
    _village(elsewhere / "rulesets", "From here")
    assert load_ruleset("my-village").title == "From here"


def test_a_users_file_shadows_a_built_in_one_of_the_same_name(elsewhere: Path) -> None:
    (elsewhere / "rulesets").mkdir()
    (elsewhere / "rulesets" / "tapp.yaml").write_text("title: Our Tapp\nextends: breitnau\n", encoding="utf-8")
    assert ruleset_origins()["tapp"] == "./rulesets"
    assert load_ruleset("tapp").title == "Our Tapp"


def test_a_built_in_file_is_named_short_in_messages(elsewhere: Path) -> None:
    bad = elsewhere / "bad.yaml"
    bad.write_text("title: x\nextends: breitnau\ncontracts:\n  solo: {factor: {won: 3, lost: 3}}\n", encoding="utf-8")
    ran = tarock("validate", str(bad), cwd=elsewhere)
    assert ran.returncode == 1
    assert "breitnau.yaml (built in):" in ran.stdout + ran.stderr
    assert "site-packages" not in ran.stdout + ran.stderr


def test_a_name_found_nowhere_says_where_it_was_looked_for(elsewhere: Path) -> None:
    ran = tarock("play", "atlantis", cwd=elsewhere)
    assert ran.returncode == 2
    assert "no ruleset named 'atlantis'" in ran.stderr
    assert "your own rulesets go in ./rulesets/ or a folder of TAROCK_PATH" in ran.stderr


def test_the_repository_is_not_listed_twice() -> None:
    # Run from the repository, ./rulesets is the built-in folder: one entry, marked built in.
    assert all(origin == "built in" for origin in ruleset_origins(include_bases=True).values())
    assert find_ruleset_file("breitnau") is not None
