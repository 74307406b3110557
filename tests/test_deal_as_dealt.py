"""A deal's cards as dealt, kept once and copied where asked, and nothing of one deal shared with another.

A shuffled deal keeps the packets it was dealt by (`Dealt.as_dealt`) rather than a copy of every
hand: `initial_hands` and `initial_talon` are made from them when asked. Held here to what the
general way gives (a deal given card by card, whose cards are copied as laid), unchanged by play
and by changes to the lists handed out; and two games of one ruleset played in turn to give the
events each gives alone, so that nothing made once per ruleset, table or contract is changed by
a deal.
"""

from __future__ import annotations

import random

import pytest

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import RandomBot
from interpreter.engine.game import Phase

TABLES = (("breitnau", 6), ("furtwangen", 6), ("cego", 4), ("tapp-modern", 4), ("koenigrufen", 4))


def _play(game: Game, bot: RandomBot, actions: int | None = None) -> None:
    """Random actions of the seats to act (`actions` of them, or to the end of the deal)."""
    while not game.is_over and actions != 0:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, bot.choose(game, seat))
        actions = None if actions is None else actions - 1


def _after_deal(events: list[dict[str, object]]) -> list[dict[str, object]]:
    """The events from the auction's start on."""
    return events[next(i for i, e in enumerate(events) if e.get("phase") == "auction") :]


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_cards_as_dealt_are_those_a_deal_given_card_by_card_keeps(name: str, players: int) -> None:
    ruleset = load_ruleset(name)
    for seed in range(12):
        game = Game(ruleset, players=players, seed=seed)
        if game.phase is Phase.DEAL:  # (the dealer chooses how the cards are dealt, then they are)
            _play(game, RandomBot(seed), actions=1)
        hands, talon = game.initial_hands, game.initial_talon
        assert hands == [list(game.hands[s]) for s in range(players)] and talon == list(game.talon)
        plan = {"plan": game.deal_plan} if game.deal_plan is not None else {}
        given = Game(ruleset, players=players, deal={"hands": hands, "talon": talon, **plan})
        _play(game, RandomBot(seed))
        _play(given, RandomBot(seed))
        assert game.initial_hands == given.initial_hands == hands
        assert game.initial_talon == given.initial_talon == talon
        assert _after_deal(game.events) == _after_deal(given.events)  # (dealt by a seed, or given)
        # The lists handed out are the caller's: changing them changes nothing of the game.
        game.initial_hands[game.seats[0]].clear()
        game.initial_talon.append("X")
        assert game.initial_hands == hands and game.initial_talon == talon
        assert game.record()["deal"] == {"hands": hands, "talon": talon, **plan}


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_two_games_played_in_turn_give_the_events_each_gives_alone(name: str, players: int) -> None:
    ruleset = load_ruleset(name)
    for seed in range(0, 40, 2):
        alone = []
        for s in (seed, seed + 1):
            game = Game(ruleset, players=players, seed=s)
            _play(game, RandomBot(s))
            alone.append(game.events)
        games = [Game(ruleset, players=players, seed=s) for s in (seed, seed + 1)]
        bots = [RandomBot(s) for s in (seed, seed + 1)]
        while not all(g.is_over for g in games):
            for game, bot in zip(games, bots, strict=True):
                _play(game, bot, actions=1)
        assert [g.events for g in games] == alone


def test_a_game_keeps_its_attributes_in_the_fastest_form() -> None:
    """CPython 3.11 keeps an instance's attributes in its fastest form (no dict of its own)
    only where its class's instances set at most 29 names between them, each set first early
    on: past that, every game made after the first few pays for a dict, and every attribute
    it reads goes through it. Held here for the attributes a game sets through a deal played
    by a learner (`legal_ids`, `push_listed`), with a pot and with the dealer's choice of plan."""
    names: set[str] = set()
    for name, players, pot in (
        ("breitnau", 6, None),
        ("furtwangen", 6, None),
        ("cego", 4, 10),
        ("koenigrufen", 4, None),
    ):
        for seed in range(6):
            game = Game(load_ruleset(name), players=players, seed=seed, pot=pot)
            rng, bot = random.Random(seed), RandomBot(seed)
            while not game.is_over:
                ids = game.legal_ids()
                if not game.push_listed(rng.choice(ids)):
                    _play(game, bot, actions=1)
            names |= set(vars(game))
    assert len(names) <= 29, sorted(names)
