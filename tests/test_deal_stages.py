"""The stages a contract goes through from its last call to its first card, bound once per
ruleset and contract (`game._stages`), are those its rules give.

For random deals of every shipped ruleset at every table size, the stage the deal enters when
the auction is over is worked out here from the compiled rules alone (an exchange where the
contract exchanges cards, chooses trumps or the declarer may accuse; else the doubling; else a
round of announcements, or the declarer's announcement where the contract allows one; else
play) and held to the game's; where play begins at once, so is its first leader.
"""

from __future__ import annotations

import pytest

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import RandomBot
from interpreter.engine.announcements import DeclarerAnnouncement
from interpreter.engine.announcing import AnnouncementRound, DoublingRound
from interpreter.engine.game import Phase
from interpreter.engine.plan import first_leader, play_plan
from interpreter.language.loader import ruleset_names

DEALS = 40


def _expected(game: Game) -> str:
    """The stage after the auction by the compiled rules, without the engine's binding."""
    contract, ruleset = game.contract, game.ruleset
    assert contract is not None
    accusation = ruleset.accusation
    if contract.exchange or contract.trump_choice or (accusation and accusation.phase in game.auction.passed_out):
        return "exchange"
    if ruleset.claim is not None and ruleset.claim.when({"hand": frozenset(game.initial_hands[game.declarer])}):
        return "over"
    if contract.doubling is not None:
        return "doubling"
    if game.declarer is not None and ruleset.announcing is not None and contract.individual is None:
        return "round"
    if game.declarer is not None and any(
        a.contracts is None or contract.name in a.contracts for a in ruleset.announcements.values()
    ):
        return "declarer"
    return "play"


def _entered(game: Game) -> str:
    """The stage the game entered after the auction."""
    if game.exchange is not None:
        return "exchange"
    if game.is_over:
        return "over"
    if isinstance(game.announcement, DoublingRound):
        return "doubling"
    if isinstance(game.announcement, AnnouncementRound):
        return "round"
    if isinstance(game.announcement, DeclarerAnnouncement):
        return "declarer"
    assert game.phase is Phase.PLAY
    return "play"


@pytest.mark.parametrize("name", ruleset_names())
def test_a_contract_enters_the_stage_its_rules_give(name: str) -> None:
    table = load_ruleset(name)
    seen = set()
    for players in table.table_sizes:
        for seed in range(DEALS):
            game = Game(table, players=players, seed=seed, dealer=seed % players)
            bot = RandomBot(seed)
            while game.phase in (Phase.DEAL, Phase.AUCTION) and not game.is_over:
                seat = game.to_act
                assert seat is not None
                game.apply(seat, bot.choose(game, seat))
            if game.contract is None or (game.result is not None and game.result.outcome != "claimed"):
                continue  # (thrown in, a breach, a misdeal: no contract's stages)
            stage = _entered(game)
            assert stage == _expected(game), (name, players, seed, game.contract.name)
            seen.add(stage)
            if stage == "play":  # (the first leader, kept per course of play: as worked out afresh)
                plan = play_plan(game.ruleset, game.contract, game.trump_suit)
                leader = first_leader(plan.play, game.seats, game.declarer, game.dealer)
                assert game.to_act == leader, (name, players, seed)
    assert seen  # (some deal of the ruleset reached a contract: the test is not vacuous)
