"""Bots that choose legal actions. The random bot is the baseline for tests and simulations."""

from __future__ import annotations

import random
from typing import Any

from interpreter.engine.game import Game


def expand(action: Any, rng: random.Random) -> Any:
    """A concrete action from a legal action, drawing at random where it is a template."""
    if type(action) is not dict or "play" in action:
        return action
    for kind in ("discard", "keep"):
        if isinstance(action, dict) and isinstance(action.get(kind), dict):
            template = action[kind]
            # Every choice holds the cards the template says it must include; the rest at random.
            including = list(template.get("including", ()))
            rest = [c for c in template["from"] if c not in including]
            return {kind: including + rng.sample(rest, template["count"] - len(including))}
    return action


class RandomBot:
    """Picks uniformly among the legal actions (a template counts as one).

    With `pass_probability`, it passes that often when it may, so that simulations reach the
    contracts that need everybody before to pass (uniform bots nearly always bid the first one)."""

    def __init__(self, seed: int | None = None, pass_probability: float | None = None):
        self.rng = random.Random(seed)
        self.pass_probability = pass_probability

    def choose(self, game: Game, seat: int) -> Any:
        legal = game.legal_actions(seat)
        if self.pass_probability is not None and "pass" in legal and len(legal) > 1:
            if self.rng.random() < self.pass_probability:
                return "pass"
            legal = [a for a in legal if a != "pass"]
        action = self.rng.choice(legal)
        # A template ({discard: {count, from}}) is a plain dict; a card to play never is.
        return expand(action, self.rng) if type(action) is dict else action


def play_out(
    game: Game, bots: dict[int, Any] | None = None, seed: int | None = None, pass_probability: float | None = None
) -> Game:
    """Play the deal to its end, every seat by its bot in `bots`, the others by one RandomBot."""
    chooser = {seat: bot.choose for seat, bot in (bots or {}).items()}
    if len(chooser) < game.players:
        choose = RandomBot(seed, pass_probability).choose
        chooser = {seat: chooser.get(seat, choose) for seat in range(game.players)}
    apply = game.apply
    while not game.is_over:
        seat = game.to_act
        assert seat is not None  # somebody is to act until the deal is over
        apply(seat, chooser[seat](game, seat))
    return game
