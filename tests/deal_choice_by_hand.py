"""The deals of the dealer's choice between deal plans (`deal.choice`), worked out without the
engine. Nothing here imports the interpreter.

Furtwangen's dealer deals the Cego pack of 54 cards (rulesets/cego-pack.yaml, in its order) to
six players either as in Breitnau, players first (4 each, 6 to the Dapp, 3 each, 6 to the Dapp),
or the Dapp first (6 to the Dapp, 4 each, 6 to the Dapp, 3 each): dappen-en, Furtwangen version,
Variations. A seeded deal is the pack shuffled by `random.Random(seed).shuffle` (design.md), then
dealt packet by packet, each packet to every player in turn from Vorhand (the seat after the
dealer). The plans are written here as the source states them, not read from the ruleset.

Run it to see the hands of a seed by both plans: `python tests/deal_choice_by_hand.py 103`.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))

from tests.deal_plans_by_hand import dealt, pack  # the same pack and packets, no engine

PLANS = {
    "hands_first": [("each", 4), ("talon", 6), ("each", 3), ("talon", 6)],
    "dapp_first": [("talon", 6), ("each", 4), ("talon", 6), ("each", 3)],
}


def furtwangen_deal(seed: int, plan: str, players: int = 6, dealer: int = 0) -> tuple[list[list[str]], list[str]]:
    """The hands by seat and the Dapp of a seeded six-player deal by the plan the dealer chose."""
    cards = pack(set())
    random.Random(seed).shuffle(cards)
    by_position, talon = dealt(cards, players, PLANS[plan])
    # Position 0 is Vorhand, the seat after the dealer.
    return [by_position[(seat - dealer - 1) % players] for seat in range(players)], talon


if __name__ == "__main__":
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 103
    for name in PLANS:
        hands, talon = furtwangen_deal(seed, name)
        print(f"{name}: Dapp {' '.join(talon)}")
        for seat, hand in enumerate(hands):
            print(f"  seat {seat}: {' '.join(hand)}")
