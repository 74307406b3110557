"""Whose a withheld card is once played to the last trick (`play.withhold.goes_to`, issue 30
item 9e), in an everyone-for-themselves contract.

tests/rulesets/cego-raeuber-gstiess-withheld.yaml is Cego with Gstiesieren allowed to anyone; its
record (tests/records/cego-raeuber-gstiess-withheld-stays-with-its-holder.yaml) plays a Räuber in
which seat 3 withholds the Gstieß and shows it in the last trick, won by seat 2. Here the same
deal is played with the card going with the last trick (the word is obeyed, not ignored: another
loser), and with the holder making the last trick whole (`compensation`); every figure is worked
out by hand in the comments, from the card values and the counting in threes (each three less 2,
one or two cards left over less 1). A compensation with nothing to make up is refused at its place.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.frontends.cli import main
from interpreter.language.loader import check_ruleset

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "rulesets" / "cego-raeuber-gstiess-withheld.yaml"
RECORD = HERE / "records" / "cego-raeuber-gstiess-withheld-stays-with-its-holder.yaml"


def _variant(tmp_path: Path, withhold: str) -> str:
    """The fixture with its `withhold` rule's last lines written as `withhold`."""
    file = tmp_path / "variant.yaml"
    text = FIXTURE.read_text(encoding="utf-8").replace(
        "    goes_to: holder\n    compensation: {gives: none}\n", textwrap.indent(withhold, "    ")
    )
    assert text != FIXTURE.read_text(encoding="utf-8")
    file.write_text(text, encoding="utf-8")
    return str(file)


def _played(ruleset_ref: str) -> Any:
    record = yaml.safe_load(RECORD.read_text(encoding="utf-8"))
    game = Game(load_ruleset(ruleset_ref), players=4, dealer=0, deal=record["deal"])
    for seat, action in record["actions"]:
        game.apply(seat, action)
    assert game.is_over
    return game.result


def test_the_withheld_card_stays_with_its_holder() -> None:
    result = _played(str(FIXTURE))
    # Seat 3: trick 2 (10) and the Gstieß (5), 5 cards: 15 - 2 - 1 = 12; seat 2: tricks 8, 10
    # and 11 without the Gstieß, 11 cards: 24 - 6 - 1 = 17. Seat 1 (Vorhand) loses with 19.
    assert result.points == {"seats": [12, 19, 17, 12]}
    assert result.payments == [60, -180, 60, 60]


def test_the_same_deal_with_the_card_going_with_the_last_trick_has_another_loser(tmp_path: Path) -> None:
    result = _played(_variant(tmp_path, "goes_to: last_trick\ncompensation: {gives: none}\n"))
    # Seat 2 keeps the whole last trick: 12 cards worth 29, less 2 for each of 4 threes = 21;
    # seat 3 has trick 2 only: 4 cards worth 10, less 2 and 1 = 7. Seat 2 has the most and is not
    # Vorhand: it pays 30 to each.
    assert result.points == {"seats": [12, 19, 21, 7]}
    assert result.payments == [30, 30, -90, 30]


def test_the_holder_makes_the_last_trick_whole_with_its_least_valuable_card(tmp_path: Path) -> None:
    result = _played(_variant(tmp_path, "compensation: {gives: lowest_value}\n"))
    # Seat 3 gives seat 2, who won the last trick, a 1-point card of its trick 2 (D3 or DA): seat 3
    # keeps DK, DN, a 1-point card and the Gstieß, 4 cards worth 14, less 2 and 1 = 11; seat 2 has
    # 12 cards worth 25, less 8 = 17. Seat 1 still loses.
    assert result.points == {"seats": [12, 19, 17, 11]}
    assert result.payments == [60, -180, 60, 60]


def test_a_compensation_with_nothing_to_make_up_is_refused_at_its_place(tmp_path: Path) -> None:
    file = tmp_path / "variant.yaml"
    file.write_text(
        textwrap.dedent(
            """
            extends: furtwangen
            play:
              withhold:
                card: T22
                by: defenders
                goes_to: last_trick
                compensation: {gives: lowest_value}
            """
        ).lstrip("\n"),
        encoding="utf-8",
    )
    problems = [str(p) for p in check_ruleset(str(file))]
    assert any(
        "play.withhold.compensation" in p and "goes_to: last_trick" in p and "gives: none" in p for p in problems
    ), problems


def test_a_wrong_value_is_refused_at_its_place(tmp_path: Path) -> None:
    problems = [str(p) for p in check_ruleset(_variant(tmp_path, "goes_to: winner\ncompensation: {gives: none}\n"))]
    assert any("play.withhold.goes_to" in p and "holder" in p and "last_trick" in p for p in problems), problems


def test_diff_says_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["diff", str(FIXTURE), _variant(tmp_path, "goes_to: last_trick\ncompensation: {gives: none}\n")])
    text = " ".join(capsys.readouterr().out.split())
    assert "going with the last trick to its winner" in text, text
