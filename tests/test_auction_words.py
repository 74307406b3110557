"""The auction's words of issue 30 (item 7), each played against a deal worked out by hand:
payments on a deal the auction throws in (`auction.thrown_in`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.auction import throw_in_payments
from interpreter.language.loader import check_ruleset

RECORDS = Path(__file__).parent / "records"

TAPP_HANDS = {
    "hands": [
        ["DJ", "S10", "DA", "HQ", "S7", "C7", "C10", "H7", "C8", "H10", "S8"],
        ["SJ", "D8", "HK", "D6", "HA", "CQ", "C9", "SA", "S6", "SQ", "CA"],
        ["H6", "D10", "S9", "D7", "C6", "SK", "D9", "DK", "CK", "CJ", "DQ"],
    ],
    "talon": ["H8", "H9", "HJ"],
}


def _problems(tmp_path: Path, text: str) -> list[str]:
    file = tmp_path / "variant.yaml"
    file.write_text(text, encoding="utf-8")
    return [f"{p.path}: {p.message}" for p in check_ruleset(str(file))]


def _all_pass(game: Game) -> Game:
    while not game.is_over:
        assert game.to_act is not None
        game.apply(game.to_act, "pass")
    return game


# -- payments on a throw-in ---------------------------------------------------------------------


def test_without_the_word_a_throw_in_costs_only_the_dealers_ante() -> None:
    # The deal of tests/records/tapp-wuerttemberg-thrown-in-pays-the-pot.yaml at the same table
    # without `thrown_in`: only the dealer's ante of 2 goes into the pot.
    game = _all_pass(Game("tapp-wuerttemberg", 3, 0, deal=TAPP_HANDS, options={"pot": "kept"}, pot=10))
    assert game.result is not None and game.result.outcome == "thrown_in"
    assert (game.result.payments, game.result.pot) == ([-2, 0, 0], 2)


def test_with_the_word_each_player_pays_into_the_pot() -> None:
    rs = load_ruleset(str(Path(__file__).parent / "rulesets" / "tapp-thrown-in-pot.yaml"))
    game = _all_pass(Game(rs, 3, 0, deal=TAPP_HANDS, pot=10))
    assert game.result is not None and game.result.outcome == "thrown_in"
    # 2 + 1 from the dealer, 1 from each other player: see the record.
    assert (game.result.payments, game.result.pot) == ([-3, -1, -1], 5)


def test_the_dealer_pays_each_other_player_when_everybody_passes(tmp_path: Path) -> None:
    file = tmp_path / "dealer-pays.yaml"
    file.write_text(
        "title: Breitnau, the dealer pays a throw-in (a test)\nextends: breitnau\nstatus: assumed\n"
        'auction:\n  thrown_in: {payer: dealer, pays: "players - 4", to: others}\n',
        encoding="utf-8",
    )
    game = _all_pass(Game(load_ruleset(str(file)), 6, 2, seed=11))
    assert game.result is not None and game.result.outcome == "thrown_in"
    # Six players: the dealer, seat 2, pays 6 - 4 = 2 to each of the five others.
    assert game.result.payments == [2, 2, -10, 2, 2, 2] and game.result.pot == 0


def test_the_caller_pays_and_nobody_does_when_everybody_passed(tmp_path: Path) -> None:
    file = tmp_path / "caller-pays.yaml"
    file.write_text(
        "title: Breitnau, a caller pays (a test)\nextends: breitnau\nstatus: assumed\n"
        'auction:\n  thrown_in: {payer: caller, pays: "3", to: others}\n',
        encoding="utf-8",
    )
    rule = load_ruleset(str(file)).thrown_in
    assert rule is not None
    # Four seats, seat 0 deals and sits out; seat 2's call threw the deal in: it pays 3 to 1 and 3.
    assert throw_in_payments(rule, [1, 2, 3], 4, 0, 2, None) == ([0, 3, -6, 3], 0)
    assert throw_in_payments(rule, [1, 2, 3], 4, 0, None, None) == ([0, 0, 0, 0], 0)


def test_a_pot_pays_out_no_more_than_it_holds(tmp_path: Path) -> None:
    file = tmp_path / "pot-pays.yaml"
    file.write_text(
        "title: A pot that pays on a throw-in (a test)\nextends: tapp-wuerttemberg\nstatus: assumed\n"
        'options: {pot: null}\npot_ante: "0"\nauction:\n  thrown_in: {payer: each, pays: "0 - 5", to: pot}\n',
        encoding="utf-8",
    )
    game = _all_pass(Game(load_ruleset(str(file)), 3, 0, deal=TAPP_HANDS, pot=1))
    assert game.result is not None
    # Each would take 5 out of a pot of 1: the seats in order of play from Vorhand (1, 2, 0) take
    # what is left, so seat 1 takes the 1 and the others nothing; the pot is empty.
    assert (game.result.payments, game.result.pot) == ([0, 1, 0], -1)


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (
            '{payer: each, pays: "1", to: others}',
            "auction.thrown_in.to: each player paying each other player changes nothing: write `to: pot`",
        ),
        (
            '{payer: dealer, pays: "1"}',
            "auction.thrown_in.to: the table keeps no pot to pay into: keep one (`pot_ante`, or `session.pot`), "
            "or pay each other player (`to: others`)",
        ),
        ('{payer: dealer, pays: "tricks", to: others}', "auction.thrown_in.pays: "),
    ],
)
def test_a_wrong_throw_in_payment_names_its_place_and_the_fix(tmp_path: Path, rule: str, message: str) -> None:
    text = f"title: A wrong payment\nextends: breitnau\nstatus: assumed\nauction:\n  thrown_in: {rule}\n"
    problems = _problems(tmp_path, text)
    assert len(problems) == 1 and problems[0].startswith(message), problems
