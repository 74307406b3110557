"""Shorter deal plans (issue 30, item 11): a packet repeated with `times`, `deal.remove` written
once for every table size, and a reading that patches the rules for one number of players. The
deals are held to tests/deal_plans_by_hand.py, which deals without the engine."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.ethnography.diff import compare, plan_text, removed_text
from interpreter.ethnography.semantic import read
from interpreter.language.loader import check_ruleset
from interpreter.language.model import Packet
from tests.deal_plans_by_hand import dealt, pack

SHORT_PACK = str(Path(__file__).parent / "rulesets" / "carneval-short-pack.yaml")


def _seated(players: int, by_position: list[list[str]]) -> list[list[str]]:
    """Hands by seat, from hands by position in the order of play (Vorhand, seat 1, first) with
    seat 0 dealing."""
    return [by_position[(seat - 1) % players] for seat in range(players)]


def test_times_deals_the_packet_that_many_times_in_a_row_at_every_seed() -> None:
    ruleset = load_ruleset("carneval")
    plan = [("talon", 6), *[("each", 3)] * 4]
    for seed in range(200):
        cards = pack(set())
        random.Random(seed).shuffle(cards)
        hands, talon = dealt(cards, 4, plan)
        game = Game(ruleset, players=4, seed=seed, dealer=0)
        assert game.initial_hands == _seated(4, hands)
        assert game.initial_talon == talon
        # Not one packet of twelve: Vorhand does not hold the twelve cards after the talon.
        assert set(game.initial_hands[1]) != set(cards[6:18])


def test_a_plan_written_with_times_compiles_to_the_packets_it_repeats() -> None:
    carneval = load_ruleset("carneval")
    assert carneval.deal_plans[3] == (Packet("talon", 6), *[Packet("each", 3)] * 4, Packet("each", 4))
    assert load_ruleset("dreierles").deal_plans[3] == (Packet("talon", 6), Packet("each", 8), Packet("each", 8))


def test_remove_written_once_takes_the_cards_out_at_every_table_size() -> None:
    ruleset = load_ruleset(SHORT_PACK)
    assert ruleset.removed == {3: frozenset({"C7", "S7"}), 4: frozenset({"C7", "S7"})}
    for players, plan in (
        (3, [("talon", 4), *[("each", 3)] * 4, ("each", 4)]),
        (4, [("talon", 4), *[("each", 3)] * 4]),
    ):
        for seed in range(50):
            cards = pack({"C7", "S7"})
            random.Random(seed).shuffle(cards)
            hands, talon = dealt(cards, players, plan)
            game = Game(ruleset, players=players, seed=seed, dealer=0)
            assert game.initial_hands == _seated(players, hands)
            assert game.initial_talon == talon


def _problems(tmp_path: Path, text: str) -> list[str]:
    file = tmp_path / "plan.yaml"
    file.write_text(text, encoding="utf-8")
    return [f"{p.line}:{p.column}: {p.path}: {p.message}" for p in check_ruleset(str(file))]


CARNEVAL_FOUR = """\
title: a test
extends: carneval
players: {active: [4]}
deal:
  plans:
    "3": null
    "5": null
    "6": null
    "7": null
"""


@pytest.mark.parametrize(
    ("deal", "expected"),
    [
        (
            '    "4": [{talon: 2, times: 3}, {each: 3, times: 4}]\n',
            "10:29: deal.plans.4[0].times: cards to the talon in a row are one packet: write {talon: 6} "
            "instead of repeating {talon: 2} 3 times",
        ),
        (
            '    "4": [{talon: 6}, {each: 3, times: 0}]\n',
            "10:40: deal.plans.4[1].times: 0 is less than the minimum of 1",
        ),
        ('    "4": [{talon: 6}, {times: 4}]\n', "10:23: deal.plans.4[1]: needs `each` or `talon`"),
        (
            '    "4": [{talon: 6}, {each: 3, times: 5}]\n',
            "10:10: deal.plans.4: the packets deal 66 cards (4 × 15 to the players + 6 to the talon) but the pack has 54",
        ),
        (
            '    "4": [{talon: 6}, {each: 3, times: 1000000000000}]\n',
            "10:40: deal.plans.4[1].times: 1000000000000 times 3 cards to each player is more than the pack's 54 cards",
        ),
        (
            '    "4": [{talon: 4}, {each: 3, times: 4}]\n  remove: "{C7, C6}"\n',
            "11:17: deal.remove: unknown card 'C6' (in \"{C7, C6}\", column 6)",
        ),
        (
            '    "4": [{talon: 6}, {each: 3, times: 4}]\n  remove: "{C7, S7}"\n',
            "10:10: deal.plans.4: the packets deal 54 cards (4 × 12 to the players + 6 to the talon) "
            "but the pack has 52 without the 2 removed",
        ),
    ],
)
def test_a_wrong_plan_or_removal_is_a_placed_problem(tmp_path: Path, deal: str, expected: str) -> None:
    assert _problems(tmp_path, CARNEVAL_FOUR + deal) == [expected]


def test_the_prose_says_a_repeated_packet_once() -> None:
    four = [{"talon": 6}, *[{"each": 3}] * 4]
    assert plan_text(four) == "6 to the talon, 3 each 4 times (12 cards each, talon 6)"
    assert (
        plan_text([{"talon": 6}, {"each": 8}, {"each": 8}]) == "6 to the talon, 8 each twice (16 cards each, talon 6)"
    )
    assert (
        plan_text([{"each": 4}, {"talon": 6}, {"each": 3}]) == "4 each, 6 to the talon, 3 each (7 cards each, talon 6)"
    )
    assert removed_text({"3": ["C7", "S7"], "4": ["C7", "S7"], "5": ["C7"]}) == (
        "with 3 or 4 players C7 S7; with 5 players C7"
    )


def test_a_plan_written_out_and_one_written_with_times_are_the_same_rules(tmp_path: Path) -> None:
    out = tmp_path / "written-out.yaml"
    out.write_text(
        "title: a test\nextends: carneval\ndeal:\n  plans:\n"
        '    "4": [{talon: 6}, {each: 3}, {each: 3}, {each: 3}, {each: 3}]\n',
        encoding="utf-8",
    )
    assert [c.message for c in compare(read("carneval"), read(str(out)))] == []
    other = tmp_path / "in-sixes.yaml"
    other.write_text(
        'title: a test\nextends: carneval\ndeal:\n  plans:\n    "4": [{talon: 6}, {each: 6, times: 2}]\n',
        encoding="utf-8",
    )
    [change] = [c.message for c in compare(read("carneval"), read(str(other)))]
    assert "Deal with 4 players" in change and "3 each 4 times" in change and "6 each twice" in change


SINGLY = str(Path(__file__).parent / "rulesets" / "carneval-dealt-singly.yaml")


def test_a_reading_may_patch_the_rules_for_one_number_of_players() -> None:
    assert check_ruleset(SINGLY) == []
    singly = load_ruleset(SINGLY, {"four_deal": "singly"})
    assert Game(singly, players=4, seed=1).ruleset.deal_plans[4] == (*[Packet("each", 1)] * 12, Packet("talon", 6))
    # Other table sizes keep the ruleset's own plan, and the default reading keeps the threes.
    assert Game(singly, players=3, seed=1).ruleset.deal_plans[3] == load_ruleset("carneval").deal_plans[3]
    threes = load_ruleset(SINGLY)
    assert Game(threes, players=4, seed=1).ruleset.deal_plans[4] == load_ruleset("carneval").deal_plans[4]
    cards = pack(set())
    random.Random(5).shuffle(cards)
    hands, talon = dealt(cards, 4, [*[("each", 1)] * 12, ("talon", 6)])
    game = Game(singly, players=4, seed=5, dealer=0)
    assert game.initial_hands == _seated(4, hands)
    assert game.initial_talon == talon == cards[48:]
    assert game.initial_hands[1] == cards[0:48:4]  # one card at a time: every fourth card


def test_the_docs_say_cards_out_at_every_table_size_once() -> None:
    from interpreter.ethnography.docgen import render

    text = render(SHORT_PACK)
    assert "- **Cards taken out of the pack:** C7 S7, with every number of players" in text
    assert "Cards removed with 3 players" not in text
    # Cego takes cards out with three players only: said for three.
    assert "- **Cards removed with 3 players:** C7 S7 D4" in render("cego")
