"""The learning interface's benchmark (benchmarks/learning_interface.py) divides a deal's time by
its actions, as the plain API's benchmark does: the learner's loop must count the game's actions,
a discard or keep chosen card by card once, as the game's history has them."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.encoding import EncodedGame, Encoding
from interpreter.language.model import Ruleset

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_random_deals
import learning_interface


def steps_and_history(ruleset: Ruleset, players: int, seed: int, encoding: Encoding) -> tuple[int, int]:
    """The learner's deal of `seed` (the same draws as learning_deal's): its steps, and the
    actions in the game's history at its end."""
    game = Game(ruleset, players=players, seed=seed)
    state = EncodedGame(game, encoding)
    choice = random.Random(seed).choice
    steps = 0
    while not game.is_over:
        state.apply_action(choice(state.legal_actions()))
        steps += 1
    return steps, len(game.history)


@pytest.mark.parametrize(("name", "players"), bench_random_deals.TABLES)
def test_the_learners_loop_counts_the_games_actions(name: str, players: int) -> None:
    ruleset = load_ruleset(name)
    encoding = Encoding.of(ruleset, players)
    card_by_card = 0
    for seed in range(30):
        steps, actions = steps_and_history(ruleset, players, seed, encoding)
        card_by_card += steps > actions
        for copies in (False, True):
            assert learning_interface.learning_deal(ruleset, players, seed, encoding, copies) == actions, seed
    if name in ("breitnau", "cego"):  # (their discards and keeps come card by card in these seeds)
        assert card_by_card, "no deal chose a discard or keep card by card: the count was not put to the test"
