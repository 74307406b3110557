"""The auction's steps bound once per ruleset are what its general steps give.

A phase started with nobody holding a bid goes to its first speaker without `settle` where the
phase's rules alone let that speaker change its outcome (`AuctionTables.opens`): held here to what
`settle` and `whose_turn` find, for every phase of every shipped ruleset at every table size,
and for phases made to end at once (no level to bid, no room for a bidder).
"""

from __future__ import annotations

import dataclasses

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.auction import Auction
from interpreter.language.loader import ruleset_names
from interpreter.language.model import AuctionPhase, Ruleset


def _starts_alike(ruleset: Ruleset, phase: AuctionPhase, seats: list[int], hands: dict[int, list[str]]) -> bool:
    """Whether `phase`, started first, has the same turn (or is over alike) by `start` as by
    the general steps (`settle`, then `whose_turn`); returns whether `start` found it open."""
    quick = Auction((phase,), seats, hands, len(seats), suit_of=ruleset.deck.suit)
    over = quick.start()
    general = Auction((phase,), seats, hands, len(seats), suit_of=ruleset.deck.suit)
    outcome = general.settle()
    assert over == (outcome is not None), phase.name
    if outcome is None:
        assert quick.to_act == general.whose_turn(), phase.name
    assert quick.state.next_entrant == general.state.next_entrant, phase.name
    return quick.tables.opens[phase.name]


@pytest.mark.parametrize("name", ruleset_names())
def test_a_phase_that_opens_has_the_turn_settle_finds(name: str) -> None:
    table = load_ruleset(name)
    opened = 0
    for players in table.table_sizes:
        for dealer in range(players):
            game = Game(table, players=players, dealer=dealer, seed=players * 10 + dealer)
            ruleset = game.ruleset
            for phase in ruleset.phases:
                opened += _starts_alike(ruleset, phase, game.seats, game.hands)
    assert opened  # (every ruleset has a phase that opens: the test is not vacuous)


def test_a_phase_with_nothing_to_bid_ends_at_its_start_as_settle_says() -> None:
    game = Game(load_ruleset("breitnau"), players=6, seed=3)
    ruleset = game.ruleset
    duel = dataclasses.replace(
        next(p for p in ruleset.phases if p.style == "duel" and not p.interrupts), pass_out="throw_in"
    )
    for closed in (dataclasses.replace(duel, ladder=()), dataclasses.replace(duel, max_bidders=0)):
        assert not _starts_alike(ruleset, closed, game.seats, game.hands)
