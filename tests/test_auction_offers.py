"""The calls the auction offers from its tables made once per ruleset are what its general steps give.

A duel's entrant or challenger in a phase without calls out of turn or a compulsion, whose bids
ask nothing of a hand, is offered pass and the bids above from `AuctionTables.free_offers`. Held
here, at every turn of the auctions of many deals of every shipped ruleset at every table size,
to the offer worked out by the steps of each feature (`_bids`, the interrupts, the compulsions)
with that table taken away. The calls are chosen at random with passes favoured, so that later
phases, challengers and full rooms of bidders (`max_bidders`) are reached too.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.auction import PASS, Auction
from interpreter.engine.phase import Phase
from interpreter.language.loader import ruleset_names


def _afresh(auction: Auction, seat: int) -> None:
    """Have the auction work out `seat`'s offer afresh when next asked: it keeps the last seat's
    offer only, so another seat is asked first."""
    auction.legal(next(s for s in auction.seats if s != seat))


def _general_offer(auction: Auction, seat: int) -> list[str]:
    """The calls `seat` may make now by the feature steps alone (no offer kept in the tables)."""
    tables = auction.tables
    none = {name: (None,) * len(offers) for name, offers in tables.free_offers.items()}
    auction.tables = dataclasses.replace(tables, free_offers=none)
    try:
        _afresh(auction, seat)
        return list(auction.legal(seat))
    finally:
        auction.tables = tables
        _afresh(auction, seat)


def _auction_turns(game: Game, rng: random.Random) -> int:
    """Play `game`'s auction by random calls (pass three times in four where it may), checking
    every offer against the general steps; returns the turns the tables' offer was asked for."""
    from_tables = 0
    if game.phase is Phase.DEAL:  # the dealer chooses how the cards are dealt first (deal.choice)
        game.apply(game.dealer, rng.choice(game.legal_actions()))
    while game.phase is Phase.AUCTION and not game.is_over:
        seat = game.to_act
        assert seat is not None
        offer = game.legal_actions(seat)
        auction = game.auction
        general = _general_offer(auction, seat)
        assert list(offer) == general, (game.ruleset.name, seat, auction.state.phase.name, auction.state.awaiting)
        st = auction.state
        if st.phase.style == "duel" and st.awaiting in ("entrant", "challenger"):
            from_tables += auction.tables.free_offers[st.phase.name][st.level + 1] is not None
        calls = [c for c in offer if isinstance(c, str)]
        call = PASS if PASS in calls and rng.random() < 0.75 else rng.choice(calls or offer)
        game.apply(seat, call)
    return from_tables


@pytest.mark.parametrize("name", ruleset_names())
def test_the_offers_kept_in_the_tables_are_what_the_general_steps_give(name: str) -> None:
    table = load_ruleset(name)
    from_tables = 0
    for players in table.table_sizes:
        for seed in range(120):
            game = Game(table, players=players, dealer=seed % players, seed=seed)
            from_tables += _auction_turns(game, random.Random(seed))
    # (not vacuous where the ruleset has such a phase)
    has_free = any(
        offer is not None for offers in Auction.tables_of(table.phases).free_offers.values() for offer in offers
    )
    assert from_tables > 0 or not has_free


def test_a_full_room_of_bidders_leaves_an_entrant_only_pass() -> None:
    """Breitnau's Dappen round takes at most two bidders: an entrant who is not one of them may
    only pass, though the table's offer for the level bid holds the next bid. (The rules never
    give such an entrant the turn, as the phase is over then: here its state is set by hand.)"""
    game = Game(load_ruleset("breitnau"), players=6, seed=7)
    ruleset, seats = game.ruleset, game.seats
    dappen = next(p for p in ruleset.phases if p.max_bidders == 2)
    auction = Auction((dappen,), seats, game.hands, len(seats), suit_of=ruleset.deck.suit)
    auction.start()
    st = auction.state
    st.bidders = {seats[0], seats[1]}
    st.passed = {seats[1]}
    st.holder, st.level, st.next_entrant = seats[0], 1, 2
    auction.to_act = seats[2]
    assert auction.tables.free_offers[dappen.name][st.level + 1] == (PASS, "stupfen")
    assert list(auction.legal(seats[2])) == [PASS] == _general_offer(auction, seats[2])
    # Its bid is refused with the rule that refuses it (rulesets/breitnau.yaml: the Dappen round
    # takes at most two bidders).
    assert auction.why_not(seats[2], "stupfen") == "at most 2 players may bid in the Dappen round; you may say: pass"
    st.bidders = {seats[0]}  # room for one more: the table's offer
    _afresh(auction, seats[2])
    assert list(auction.legal(seats[2])) == [PASS, "stupfen"] == _general_offer(auction, seats[2])
