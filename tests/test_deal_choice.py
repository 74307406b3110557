"""The dealer's choice between deal plans (`deal.choice`, issue 30 item 8): before any card is
dealt the dealer says `{choose: NAME}`, everybody sees it, and the pack is dealt by that plan.
The deals are held to tests/deal_choice_by_hand.py, which deals without the engine."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from interpreter import Game, IllegalActionError, load_ruleset
from interpreter.bots.randombot import RandomBot
from interpreter.bots.rulebot import RuleBot
from interpreter.engine.deal import DealError
from interpreter.engine.phase import Phase
from interpreter.engine.records import replay
from interpreter.ethnography.diff import compare
from interpreter.ethnography.semantic import read
from interpreter.language.loader import check_ruleset
from tests.deal_choice_by_hand import furtwangen_deal

RECORDS = Path(__file__).parent / "records"
CHOSEN = RECORDS / "furtwangen-dealer-chooses-dapp-first.yaml"
CHOOSING = {"deal_order": "dealer_chooses"}  # the table that plays the dealer's choice


def test_the_dealer_alone_chooses_before_anything_is_dealt() -> None:
    game = Game(load_ruleset("furtwangen", CHOOSING), players=6, dealer=2, seed=7)
    assert game.phase is Phase.DEAL and game.to_act == 2
    assert game.legal_actions() == [{"choose": "hands_first"}, {"choose": "dapp_first"}]
    assert game.legal_actions(3) == []
    assert all(hand == [] for hand in game.initial_hands) and game.initial_talon == []
    with pytest.raises(IllegalActionError, match=r"the dealer, seat 2, first chooses how the cards are dealt"):
        game.apply(3, "pass")
    with pytest.raises(IllegalActionError, match=r"choose one of|is no way of dealing here"):
        game.apply(2, {"choose": "players_first"})
    assert game.phase is Phase.DEAL and game.to_act == 2  # refused: nothing changed
    game.apply(2, {"choose": "dapp_first"})
    assert game.phase is Phase.AUCTION and game.to_act == 3
    chosen = [e for e in game.events if e["type"] in ("deal_chosen", "deal")]
    assert chosen == [
        {"type": "deal_chosen", "seat": 2, "plan": "dapp_first"},
        {"type": "deal", "dealer": 2, "seed": 7, "plan": "dapp_first"},
    ]
    # The choice is public: every seat and a spectator see it.
    assert all(game.view(seat)["deal_plan"] == "dapp_first" for seat in (*range(6), None))


@pytest.mark.parametrize("plan", ["hands_first", "dapp_first"])
def test_each_choice_deals_the_hands_of_its_plan_at_every_seed(plan: str) -> None:
    ruleset = load_ruleset("furtwangen", CHOOSING)
    for seed in range(100):
        game = Game(ruleset, players=6, dealer=0, seed=seed)
        game.apply(0, {"choose": plan})
        hands, talon = furtwangen_deal(seed, plan)
        assert game.initial_hands == hands and game.initial_talon == talon, seed


def test_the_record_fails_when_the_dealer_deals_the_other_way() -> None:
    # The record's deal with the word: its outcome computed by hand in its note.
    assert replay(CHOSEN).ok
    # The same seed dealt players first gives other hands: the record's actions are refused
    # before the deal ends (seat 2 does not hold the cards it discards, nor the game it plays).
    record = yaml.safe_load(CHOSEN.read_text(encoding="utf-8"))
    assert furtwangen_deal(103, "hands_first") != furtwangen_deal(103, "dapp_first")
    game = Game(load_ruleset("furtwangen", CHOOSING), players=6, dealer=0, seed=103)
    game.apply(0, {"choose": "hands_first"})
    with pytest.raises(IllegalActionError):
        for seat, action in record["actions"][1:]:
            game.apply(seat, action)


def test_the_option_fixes_one_plan_and_an_explicit_deal_offers_no_choice() -> None:
    # The table that always deals the Dapp first (the option, as before the word): no choice.
    fixed = Game(load_ruleset("furtwangen", {"deal_order": "dapp_first"}), players=6, dealer=0, seed=103)
    assert fixed.phase is Phase.AUCTION
    assert (fixed.initial_hands, fixed.initial_talon) == furtwangen_deal(103, "dapp_first")
    assert replay(RECORDS / "furtwangen-deal-order-dapp-first.yaml").ok
    hands, talon = furtwangen_deal(5, "dapp_first")
    given = Game(load_ruleset("furtwangen", CHOOSING), players=6, dealer=0, deal={"hands": hands, "talon": talon})
    assert given.phase is Phase.AUCTION and given.initial_hands == hands


def test_a_record_of_a_chosen_deal_holds_the_plan_with_the_cards_and_replays(tmp_path: Path) -> None:
    ruleset = load_ruleset("furtwangen", CHOOSING)
    for seed in (11, None):
        game = Game(ruleset, players=6, dealer=1, seed=seed)
        bot = RandomBot(3)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            game.apply(seat, bot.choose(game, seat))
        assert game.history[0] == (1, {"choose": game.deal_plan})
        record = game.record()
        # The cards as dealt, with the plan they were dealt by; the choice is no action of the
        # replay, since a deal given card by card was dealt already.
        assert record["deal"]["plan"] == game.deal_plan
        assert [list(a) for a in game.history[1:]] == [list(a) for a in record["actions"]]
        file = tmp_path / f"deal-{seed}.yaml"
        file.write_text(yaml.safe_dump(record), encoding="utf-8")
        report = replay(file)
        assert report.ok, report.failures
        assert report.game is not None and report.game.deal_plan == game.deal_plan
        assert report.game.view(None)["deal_plan"] == game.deal_plan
    hands, talon = furtwangen_deal(5, "dapp_first")
    with pytest.raises(DealError, match=r"deal\.plan: no deal plan 'dapp_last' to choose: the dealer chooses one of: "):
        Game(ruleset, players=6, deal={"hands": hands, "talon": talon, "plan": "dapp_last"})


def test_ids_bots_and_the_seven_player_table() -> None:
    ruleset = load_ruleset("furtwangen", CHOOSING)
    game = Game(ruleset, players=7, dealer=0, seed=1)
    ids = game.legal_ids()
    assert len(ids) == 2
    game.push(ids[1])
    assert game.deal_plan == "dapp_first" and game.phase is Phase.AUCTION
    # The rule bot takes the first plan offered; the random bot any, each some of the time.
    game = Game(ruleset, players=6, dealer=0, seed=1)
    assert RuleBot().choose(game, 0) == {"choose": "hands_first"}
    chosen = {str(RandomBot(seed).choose(Game(ruleset, players=6, seed=seed), 0)) for seed in range(20)}
    assert chosen == {str({"choose": "hands_first"}), str({"choose": "dapp_first"})}
    # Schollach plays the word with six only: with seven the dealer sits out and still chooses.
    schollach = Game(load_ruleset("schollach", CHOOSING), players=7, dealer=3, seed=2)
    assert schollach.to_act == 3 and len(schollach.legal_actions()) == 2


def test_diff_says_the_choice() -> None:
    lines = [d.message for d in compare(read("breitnau"), read("furtwangen", CHOOSING))]
    said = [line for line in lines if line.startswith("The dealer chooses the deal")]
    assert said and "hands_first (the plan above) or dapp_first (with 6:" in said[0], lines


def _problems(tmp_path: Path, text: str) -> list[str]:
    file = tmp_path / "choice.yaml"
    file.write_text(text, encoding="utf-8")
    return [f"{p.line}:{p.column}: {p.path}: {p.message}" for p in check_ruleset(str(file))]


BREITNAU_CHOICE = """\
title: a test
extends: breitnau
deal:
  choice:
    usual: hands_first
    plans:
"""


@pytest.mark.parametrize(
    ("plans", "expected"),
    [
        (
            '      hands_first: {"6": [{talon: 6}, {each: 4}, {talon: 6}, {each: 3}]}\n',
            "7:7: deal.choice.plans.hands_first: 'hands_first' is the name of the usual plan (deal.plans); "
            "give this plan another name",
        ),
        (
            '      dapp_first: {"8": [{talon: 6}, {each: 4}, {talon: 6}, {each: 3}]}\n',
            "7:20: deal.choice.plans.dapp_first.8: a plan for 8 players, but deal.plans has none for 8: "
            "write the usual plan for 8 players there first",
        ),
        (
            '      dapp_first: {"6": [{each: 4}, {talon: 6}, {each: 4}]}\n',
            "7:25: deal.choice.plans.dapp_first.6: this plan deals 8 cards to each player and 6 to the talon, "
            "the usual plan 7 and 12: a plan the dealer chooses deals the same cards in another order, so give it "
            "the same packets' sums",
        ),
    ],
)
def test_a_wrong_choice_is_refused_with_its_place_and_the_fix(tmp_path: Path, plans: str, expected: str) -> None:
    assert expected in _problems(tmp_path, BREITNAU_CHOICE + plans)
