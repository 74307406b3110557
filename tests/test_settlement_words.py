"""The words of the settlement (issue 30, item 10), each on a deal computed by hand in its record
under tests/records/, played here once more without the word to show that the word decides the
outcome, and each refused in `tarock validate` with its place when written wrongly."""

from __future__ import annotations

from pathlib import Path

import yaml

from interpreter import replay
from interpreter.language.loader import check_ruleset

RECORDS = Path(__file__).parent / "records"


def _replayed_as(tmp_path: Path, record: str, ruleset: str, payments: list[int]) -> list[str]:
    """The failures of `record` replayed under another ruleset, expecting `payments`."""
    data = yaml.safe_load((RECORDS / record).read_text(encoding="utf-8"))
    data["ruleset"] = ruleset
    data["expect"] = {"payments": payments}
    file = tmp_path / record
    file.write_text(yaml.safe_dump(data), encoding="utf-8")
    return replay(file).failures


def _problems(tmp_path: Path, text: str) -> list[str]:
    file = tmp_path / "variant.yaml"
    file.write_text(text, encoding="utf-8")
    return [f"{p.line}:{p.column}: {p.path}: {p.message}" for p in check_ruleset(str(file))]


# -- a bonus doubled with the game: `kontra` in a bonus's value ---------------------------------


def test_a_bonus_reading_kontra_is_doubled_with_the_game() -> None:
    assert replay(RECORDS / "koenigrufen-bonus-doubled-with-the-game.yaml").ok


def test_without_kontra_in_its_value_a_bonus_is_not_doubled_with_the_game(tmp_path: Path) -> None:
    # The same deal under koenigrufen itself: the Pagat 2 x its own kontra 2 = 4, the game -2: +2.
    assert _replayed_as(tmp_path, "koenigrufen-bonus-doubled-with-the-game.yaml", "koenigrufen", [-2, 2, -2, 2]) == []


def test_a_misspelt_kontra_in_a_bonus_value_is_refused_at_its_place_with_the_name_to_use(tmp_path: Path) -> None:
    text = 'title: t\nextends: koenigrufen\nbonuses:\n  trull: {value: "1 * kontr"}\n'
    [problem] = _problems(tmp_path, text)
    assert problem.startswith("4:") and "bonuses.trull.value: unknown name 'kontr'; did you mean 'kontra'?" in problem
