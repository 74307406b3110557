"""The first lead counted on from the declarer, Vorhand or the dealer (`play.first_lead`,
`play.first_lead_offset`, issue 30 item 9a).

tests/rulesets/breitnau-lead-after-declarer.yaml is Breitnau in which the player after the lone
player leads. Its record (tests/records/breitnau-lead-after-declarer.yaml) has seat 3 lead
after seat 2's Solo; here the same deal in Breitnau itself has seat 2 lead (the word is obeyed,
not ignored), random deals of the fixture are led by the seat after the declarer in the order of
play, the counting is checked case by case (a dealer who plays, one who sits out, wrapping round
the table), and a negative count is refused at its place.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

from interpreter import Game, RandomBot, load_ruleset
from interpreter.engine.phase import Phase
from interpreter.engine.plan import first_leader
from interpreter.frontends.cli import main
from interpreter.language.loader import check_ruleset

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "rulesets" / "breitnau-lead-after-declarer.yaml"
RECORD = HERE / "records" / "breitnau-lead-after-declarer.yaml"


def _to_lead(ruleset_ref: str) -> int | None:
    data = yaml.safe_load(RECORD.read_text(encoding="utf-8"))
    game = Game(load_ruleset(ruleset_ref), players=6, dealer=0, deal=data["deal"])
    for seat, action in data["actions"][:2]:  # the auction: seat 2's Solo
        game.apply(seat, action)
    assert game.phase is Phase.PLAY
    return game.to_act


def test_the_seat_after_the_lone_player_leads_and_in_breitnau_the_lone_player() -> None:
    assert _to_lead(str(FIXTURE)) == 3
    assert _to_lead("breitnau") == 2


def test_random_deals_are_led_by_the_seat_after_the_declarer() -> None:
    ruleset = load_ruleset(str(FIXTURE))
    led = 0
    for seed in range(200):
        game = Game(ruleset, players=6, dealer=seed % 6, seed=seed)
        bot = RandomBot(seed)
        while not game.is_over and game.phase is not Phase.PLAY:
            seat = game.to_act
            assert seat is not None
            game.apply(seat, bot.choose(game, seat))
        if game.phase is Phase.PLAY and game.declarer is not None:
            seats = game.seats  # the active seats in the order of play, from Vorhand
            assert game.to_act == seats[(seats.index(game.declarer) + 1) % len(seats)], seed
            led += 1
    assert led > 50


class _Play:
    """Just the two fields first_leader reads."""

    def __init__(self, first_lead: str, offset: int):
        self.first_lead, self.first_lead_offset = first_lead, offset


@pytest.mark.parametrize(
    "first_lead, offset, seats, declarer, dealer, leader",
    [
        # Four at the table, the dealer (0) plays: the order of play is 1, 2, 3, 0.
        ("vorhand", 0, [1, 2, 3, 0], 2, 0, 1),
        ("vorhand", 2, [1, 2, 3, 0], 2, 0, 3),
        ("declarer", 0, [1, 2, 3, 0], 2, 0, 2),
        ("declarer", 1, [1, 2, 3, 0], 2, 0, 3),
        ("declarer", 3, [1, 2, 3, 0], 2, 0, 1),  # round the table
        ("declarer", 1, [1, 2, 3, 0], None, 0, 2),  # no declarer: from Vorhand
        ("dealer", 0, [1, 2, 3, 0], 2, 0, 0),
        ("dealer", 1, [1, 2, 3, 0], 2, 0, 1),
        # Five at the table, the dealer (0) sits out: the order of play is 1, 2, 3, 4.
        ("dealer", 0, [1, 2, 3, 4], 2, 0, 1),  # the dealer does not play: the seat after
        ("dealer", 1, [1, 2, 3, 4], 2, 0, 1),
        ("dealer", 2, [1, 2, 3, 4], 2, 0, 2),
        ("dealer", 5, [1, 2, 3, 4], 2, 0, 1),
        ("declarer", 3, [1, 2, 3, 4], 2, 0, 1),  # round the table, past the dealer who sits out
    ],
)
def test_the_count_seat_by_seat(
    first_lead: str, offset: int, seats: list[int], declarer: int | None, dealer: int, leader: int
) -> None:
    assert first_leader(_Play(first_lead, offset), seats, declarer, dealer) == leader  # type: ignore[arg-type]


def test_a_negative_count_is_refused_at_its_place(tmp_path: Path) -> None:
    file = tmp_path / "variant.yaml"
    file.write_text(
        textwrap.dedent(
            """
            extends: breitnau
            play:
              first_lead_offset: -1
            """
        ).lstrip("\n"),
        encoding="utf-8",
    )
    problems = [str(p) for p in check_ruleset(str(file))]
    assert any(":3:22:" in p and "play.first_lead_offset" in p for p in problems), problems


def test_diff_says_it(capsys: pytest.CaptureFixture[str]) -> None:
    main(["diff", "breitnau", str(FIXTURE)])
    text = " ".join(capsys.readouterr().out.split())
    assert (
        "First lead, seats on from there: none: that seat itself (breitnau) vs 1 seat(s) further on in the order of play"
        in text
    )
