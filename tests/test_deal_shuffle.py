"""The engine's own shuffle (interpreter/engine/deal.py) must put the cards in the very order
`random.Random(seed).shuffle` does, since a seed names a deal in records, tests and simulations:
on another Python whose shuffle draws differently this fails rather than deal other cards."""

from __future__ import annotations

import random

from interpreter import Game, load_ruleset
from interpreter.engine.deal import shuffle


def test_the_same_order_as_random_shuffle() -> None:
    for size in (0, 1, 2, 3, 17, 32, 40, 54, 78):
        for seed in (*range(200), 2**64 - 1, 123456789012345678):
            expected = [f"c{i}" for i in range(size)]
            random.Random(seed).shuffle(expected)
            cards = [f"c{i}" for i in range(size)]
            shuffle(cards, seed)
            assert cards == expected, (size, seed)


def test_a_seeded_deal_is_the_pack_shuffled_by_random() -> None:
    ruleset = load_ruleset("breitnau")
    for seed in range(20):
        cards = list(ruleset.pack(6))
        random.Random(seed).shuffle(cards)
        game = Game(ruleset, players=6, seed=seed)
        # dealt 4 each from Vorhand (seat 1), 6 to the talon, 3 each, 6 to the talon
        order = [1, 2, 3, 4, 5, 0]
        for i, seat in enumerate(order):
            assert game.initial_hands[seat] == cards[4 * i : 4 * i + 4] + cards[30 + 3 * i : 33 + 3 * i]
        assert game.initial_talon == cards[24:30] + cards[48:54]
