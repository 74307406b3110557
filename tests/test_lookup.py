"""Rulesets of one's own are found by name: in the working directory's rulesets/, then in the
folders of TAROCK_PATH, then among the built-in ones (first match wins); `tarock list` says where
each comes from; built-in files are named short in messages; a problem the user's file causes
in a base is reported at the user's line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import ROOT, tarock

from interpreter.errors import RulesetError
from interpreter.language.loader import check_ruleset, display_path, find_ruleset_file, load_ruleset, ruleset_origins
from interpreter.language.paths import ENV_PATH, ruleset_folders, rulesets_dir

VILLAGE = """\
title: Dappen (my village)
extends: breitnau
source: "my-notes: interview of 3 May"
status: reported
sources:
  my-notes: {title: "Field notes, May 2026"}
contracts:
  solo: {factor: {won: 2, lost: 2}}
readings:
  solo_factor: null
"""


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    file = folder / f"{name}.yaml"
    file.write_text(text, encoding="utf-8")
    return file


def test_folders_in_order_here_then_tarock_path_then_built_in(
    elsewhere: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (elsewhere / "rulesets").mkdir()
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    monkeypatch.setenv(ENV_PATH, os.pathsep.join([str(first), str(tmp_path / "missing"), str(second)]))
    folders = ruleset_folders()
    assert [f.path.resolve() for f in folders] == [
        (elsewhere / "rulesets").resolve(),
        first.resolve(),
        second.resolve(),
        rulesets_dir().resolve(),
    ]
    assert [f.label for f in folders] == ["./rulesets", f"{ENV_PATH}: {first}", f"{ENV_PATH}: {second}", "built in"]


def test_first_match_wins_and_list_says_where(elsewhere: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shelf = tmp_path / "shelf"
    _write(shelf, "my-village", VILLAGE.replace("my village", "from the shelf"))
    _write(shelf, "other-village", VILLAGE.replace("my village", "other village"))
    _write(elsewhere / "rulesets", "my-village", VILLAGE)
    monkeypatch.setenv(ENV_PATH, str(shelf))
    assert find_ruleset_file("my-village") == elsewhere / "rulesets" / "my-village.yaml"
    assert find_ruleset_file("other-village") == shelf / "other-village.yaml"
    assert find_ruleset_file("breitnau") == rulesets_dir() / "breitnau.yaml"
    assert load_ruleset("my-village").title == "Dappen (my village)"
    origins = ruleset_origins()
    assert origins["my-village"] == "./rulesets"
    assert origins["other-village"] == f"{ENV_PATH}: {shelf}"
    assert origins["breitnau"] == "built in"
    out = tarock("list", cwd=elsewhere)
    assert out.returncode == 0, out.stderr
    rows = {line.split()[0]: line for line in out.stdout.splitlines()}
    assert rows["my-village"].endswith("./rulesets") and "Dappen (my village)" in rows["my-village"]
    assert rows["other-village"].endswith(f"{ENV_PATH}: {shelf}")
    assert rows["breitnau"].endswith("built in")


def test_a_file_of_ones_own_shadows_a_built_in_name(elsewhere: Path) -> None:
    _write(elsewhere / "rulesets", "breitnau", VILLAGE.replace("extends: breitnau", "extends: furtwangen"))
    # The name finds the user's file; its `extends: furtwangen` still finds the built-in one.
    assert load_ruleset("breitnau").title == "Dappen (my village)"


def test_every_command_sees_the_users_ruleset(elsewhere: Path, tmp_path: Path) -> None:
    _write(elsewhere / "rulesets", "my-village", VILLAGE)
    played = tarock("play", "my-village", "--seed", "3", cwd=elsewhere)
    assert played.returncode == 0, played.stderr
    assert "Dappen (my village)" in played.stdout
    assert tarock("validate", cwd=elsewhere).returncode == 0
    assert "my-village" in tarock("validate", cwd=elsewhere).stdout
    out = tmp_path / "pages"
    written = tarock("doc", "--all", "--out", str(out), cwd=elsewhere)
    assert written.returncode == 0, written.stderr
    assert (out / "my-village.md").is_file() and (out / "breitnau.md").is_file()
    assert "Dappen (my village)" in (out / "my-village.md").read_text(encoding="utf-8")
    assert "my-village" in tarock("matrix", "my-village", "breitnau", cwd=elsewhere).stdout
    assert tarock("diff", "breitnau", "my-village", "--brief", cwd=elsewhere).returncode == 1  # they differ
    assert "Dappen (my village)" in tarock("show", "my-village", "--own", cwd=elsewhere).stdout
    assert "stupfen_factor" in tarock("options", "my-village", cwd=elsewhere).stdout  # inherited, still asked
    assert tarock("tree", "my-village", "--format", "text", cwd=elsewhere).stdout.count("my-village") >= 1
    simulated = tarock("simulate", "my-village", "--deals", "3", "--json", cwd=elsewhere)
    assert simulated.returncode == 0 and '"deals": 3' in simulated.stdout, simulated.stderr
    (elsewhere / "games").mkdir()
    observed = tarock("observe", "my-village", "-o", "games/one.yaml", cwd=elsewhere, stdin="pass\npass\nsave\n")
    assert observed.returncode == 0, observed.stderr
    assert "ruleset: my-village" in (elsewhere / "games" / "one.yaml").read_text(encoding="utf-8")
    checked = tarock("check", "my-village", "games", cwd=elsewhere)
    assert checked.returncode == 0 and "Dappen (my village) against 1 observed game" in checked.stdout, checked.stderr


def test_built_in_files_are_named_short_in_messages(elsewhere: Path) -> None:
    assert display_path(rulesets_dir() / "breitnau.yaml") == "breitnau.yaml (built in)"
    assert display_path(elsewhere / "rulesets" / "x.yaml") == "rulesets/x.yaml"


@pytest.mark.parametrize(
    "slip",
    [
        # `factor` slipped out from under `solo:`, which is then null and removes Breitnau's Solo
        "contracts:\n  solo:\n  factor: {won: 2, lost: 2}\n",
        "contracts:\n  solo: null\n",
    ],
    ids=["indentation", "null"],
)
def test_a_removal_in_the_users_file_is_reported_at_the_users_line(elsewhere: Path, slip: str) -> None:
    text = VILLAGE.replace("contracts:\n  solo: {factor: {won: 2, lost: 2}}\n", slip)
    _write(elsewhere / "rulesets", "my-village", text)
    problems = check_ruleset("my-village")
    removal = [p for p in problems if p.path == "contracts.solo"]
    assert removal, problems
    assert removal[0].file == "rulesets/my-village.yaml" and removal[0].line == 8, removal[0]
    assert "breitnau.yaml (built in):" in removal[0].message and "still uses 'solo'" in removal[0].message
    # Nothing is blamed on the built-in base.
    assert not [p for p in problems if p.file.startswith("breitnau.yaml")], problems
    with pytest.raises(RulesetError) as caught:
        load_ruleset("my-village")
    assert any(p.file == "rulesets/my-village.yaml" and p.line == 8 for p in caught.value.problems)


def test_from_another_working_directory_in_a_process(tmp_path: Path) -> None:
    """The command as a user runs it, outside the repository: the built-in rulesets, the user's
    own beside it and on TAROCK_PATH, and the built-in file named short in a message."""
    work, shelf = tmp_path / "village", tmp_path / "shelf"
    _write(work / "rulesets", "my-village", VILLAGE)
    _write(
        shelf,
        "bad-village",
        VILLAGE.replace("contracts:\n  solo: {factor: {won: 2, lost: 2}}\n", "contracts:\n  solo:\n"),
    )
    env = {k: v for k, v in os.environ.items() if k != ENV_PATH} | {ENV_PATH: str(shelf)}
    run = subprocess.run(
        [sys.executable, "-m", "interpreter", "list"], cwd=work, env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert "my-village" in run.stdout and "bad-village" in run.stdout and "breitnau" in run.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "interpreter", "validate", "bad-village"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 1
    assert f"{shelf / 'bad-village.yaml'}:8:3: contracts.solo: this removes contracts.solo" in bad.stderr
    assert "breitnau.yaml (built in):" in bad.stderr and str(ROOT) not in bad.stderr.replace(str(shelf), "")
