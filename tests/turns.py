"""Random deals turn by turn, for tests that look at the game before each action."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter import Game, RandomBot, load_ruleset


def random_turns(name: str, players: int, seeds: range) -> Iterator[tuple[int, Game, int]]:
    """(seed, game, seat to act) at every turn of a deal of `name` for each seed, played by
    `RandomBot(seed)`. The bot has chosen (and so asked for the legal actions, as a player does)
    when a turn is yielded; its action is applied when the caller asks for the next turn."""
    ruleset = load_ruleset(name)
    for seed in seeds:
        game = Game(ruleset, players=players, seed=seed)
        bot = RandomBot(seed)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            action: Any = bot.choose(game, seat)
            yield seed, game, seat
            game.apply(seat, action)
