"""The round of announcements keeps from deal to deal what a seat may announce and double, keyed
by its side and the facts of it that the conditions read (engine/announcing.py). A deal must
offer and do the same whatever deals were played before it with the same ruleset: each deal is
played twice, once while the kept answers are still being found (the seeds in order) and once
with every answer kept (the seeds backwards), and both must agree at every action. And what a
seat is offered to announce must be what the ruleset's conditions say of it at that moment,
worked out here from the events and the hands."""

from __future__ import annotations

import random
from typing import Any

import pytest

from interpreter import Game, load_ruleset
from interpreter.language.model import Ruleset

DEALS = 60


def _played(ruleset: Ruleset, players: int, seed: int) -> tuple[list[Any], list[Any]]:
    """Every offer of a deal of random choices, and its events."""
    game = Game(ruleset, players=players, seed=seed)
    rng = random.Random(seed)
    offers: list[Any] = []
    while not game.is_over:
        seat = game.to_act
        legal = game.legal_actions(seat)
        offers.append((seat, legal))
        action = rng.choice(legal)
        if type(action) is dict:  # a template: {discard: {count, from}} or {keep: {count, from}}
            for kind in ("discard", "keep"):
                template = action.get(kind)
                if isinstance(template, dict):
                    action = {kind: rng.sample(template["from"], template["count"])}
        game.apply(seat, action)  # type: ignore[arg-type]  # (a seat acts while the deal lasts)
    return offers, list(game.events)


@pytest.mark.parametrize(("name", "players"), [("koenigrufen", 4), ("dreierles", 3)])
def test_a_deal_offers_the_same_whatever_was_played_before(name: str, players: int) -> None:
    ruleset = load_ruleset(name)
    first = {seed: _played(ruleset, players, seed) for seed in range(DEALS)}
    announcing = 0
    for seed in reversed(range(DEALS)):
        again = _played(ruleset, players, seed)
        assert again == first[seed], f"seed {seed}"
        announcing += any(e.get("type") in ("announce", "kontra") for e in again[1])
    assert announcing >= DEALS // 4  # (deals with something announced or doubled in them)


def _announceable(game: Game, seat: int) -> list[str] | None:
    """The bonuses `seat` may announce now by the rules as written, in the ruleset's order (None
    where the declarer must first announce one of some bonuses): the conditions on what the
    events say of the round (who has said something, who has ended a turn) and the seat's hand."""
    ruleset, contract, declarer, partner = game.ruleset, game.contract, game.declarer, game.partner
    assert contract is not None and ruleset.announcing is not None
    events = game.events[[e.get("phase") for e in game.events].index("announce") :]
    said = {e["seat"] for e in events if e["type"] in ("announce", "kontra")}
    spoken = {e["seat"] for e in events if e["type"] == "call" and e.get("phase") == "announcing"}
    announced = {e["announcement"]: e["seat"] for e in events if e["type"] == "announce"}
    side = "declarer" if seat in (declarer, partner) else "defenders"
    must = contract.must_announce
    first = seat == declarer and seat not in spoken
    if must is not None and first and not any(announced.get(name) in (declarer, partner) for name in must.one_of):
        return None
    env = {
        "hand": frozenset(game.hands[seat]),
        "is_declarer": seat == declarer,
        "is_partner": seat == partner,
        "revealed": seat in said or partner in said,
        "spoken": seat in spoken,
        "card_called": game.called_card is not None,
    }
    may = ruleset.announcing.may_announce
    if may is not None and not may(env):
        return []
    return [
        name
        for name, bonus in ruleset.bonuses.items()
        if bonus.announced is not None
        and (contract.bonuses is None or name in contract.bonuses)
        and name not in announced
        and bonus.whose in ("either", side)
        and (bonus.requires is None or bonus.requires(env))
    ]


@pytest.mark.parametrize(("name", "players"), [("koenigrufen", 4), ("dreierles", 3)])
def test_a_seat_is_offered_what_the_conditions_say_at_every_turn(name: str, players: int) -> None:
    ruleset = load_ruleset(name)
    turns = 0
    for seed in range(3 * DEALS):
        game = Game(ruleset, players=players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions(seat)
            if game.announcement is not None and game.phase.name == "ANNOUNCE" and ruleset.kontra_answer == "round":
                expected = _announceable(game, seat)
                if expected is not None:
                    offered = [a["announce"] for a in legal if isinstance(a, dict) and "announce" in a]
                    assert offered == expected, f"seed {seed}, seat {seat}"
                    turns += 1
            action = rng.choice(legal)
            if type(action) is dict:
                for kind in ("discard", "keep"):
                    template = action.get(kind)
                    if isinstance(template, dict):
                        action = {kind: rng.sample(template["from"], template["count"])}
            game.apply(seat, action)
    assert turns >= DEALS
