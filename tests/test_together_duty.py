"""The duty of tricks played together (Cego's Zwei Leere), worked out over the cards' grade
profiles, gives what the plain enumeration of every placing of the hand's cards gives.

`reference_together_duty` is the engine's earlier way, kept here as the reference (with its
grading of a card, card by card): every
ordered choice of the hand's cards for the open tricks, its grade vector, the vectors no other
beats in every trick, and the cards that can start a best choice after the cards placed."""

from __future__ import annotations

import itertools

from turns import random_turns

from interpreter.engine.play import TrickPlay
from interpreter.language.model import TRUMP


def reference_grade(play: TrickPlay, card: str, before: list[str], number: int) -> int:
    """How well `card` meets the duty of a trick holding the cards `before` it: 3 follows, 2
    trumps, 1 follows the card that fixes the suit after an exposed lead, 0 does not."""
    follow = play.tables.follow
    led = [c for c in before if c not in play.suitless(number)]
    if play.tables.play.follow_suit and follow[card] == follow[led[0]]:
        return 3
    if play.tables.play.must_trump and follow[card] == TRUMP:
        return 2
    if len(led) > 1 and led[0] in play.exposed and follow[card] == follow[led[1]]:
        return 1
    return 0


def reference_together_duty(play: TrickPlay, seat: int, usable: list[str]) -> list[str]:
    open_tricks = play.open_tricks()
    first = len(play.tricks) - len(open_tricks) + 1
    position = open_tricks.index(play.trick)
    placed = [t.cards[t.seats.index(seat)] for t in open_tricks[:position]]
    hand = placed + usable
    before = [t.cards[: t.seats.index(seat)] if seat in t.seats else t.cards for t in open_tricks]
    grades = {
        (card, i): reference_grade(play, card, before[i], first + i) for card in hand for i in range(len(open_tricks))
    }
    choices = [
        (combo, tuple(grades[card, i] for i, card in enumerate(combo)))
        for combo in itertools.permutations(hand, len(open_tricks))
    ]
    vectors = {v for _, v in choices}
    best = {v for v in vectors if not any(w != v and all(a >= b for a, b in zip(w, v, strict=True)) for w in vectors)}
    allowed = {combo[position] for combo, v in choices if v in best and list(combo[:position]) == placed}
    return [c for c in usable if c in allowed]


def test_the_together_duty_agrees_with_the_enumeration() -> None:
    checked = 0
    for seed, game, seat in random_turns("cego", 4, range(400)):
        play = game.trickplay
        together = play is not None and play.together > 1 and len(play.tricks) <= play.together
        if play is not None and together and play.trick.cards and seat == play.to_act:
            usable = play.usable(seat)
            assert play.together_duty(seat, usable) == reference_together_duty(play, seat, usable), (seed, seat)
            checked += 1
    assert checked > 100, f"only {checked} turns in tricks played together"
