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
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).parent.parent))

from tests.deal_plans_by_hand import RECORDS, dealt, flow, pack  # the same pack and packets, no engine

PLANS = {
    "hands_first": [("each", 4), ("talon", 6), ("each", 3), ("talon", 6)],
    "dapp_first": [("talon", 6), ("each", 4), ("talon", 6), ("each", 3)],
}
# Seven players are dealt 3 and 3 (dappen-de §5; dappen-en: the Dapp first, "3 or 4 to each").
PLANS_OF_SEVEN = {
    "hands_first": [("each", 3), ("talon", 6), ("each", 3), ("talon", 6)],
    "dapp_first": [("talon", 6), ("each", 3), ("talon", 6), ("each", 3)],
}


def furtwangen_deal(seed: int, plan: str, players: int = 6, dealer: int = 0) -> tuple[list[list[str]], list[str]]:
    """The hands by seat and the Dapp of a seeded deal of six or seven by the plan the dealer chose."""
    cards = pack(set())
    random.Random(seed).shuffle(cards)
    by_position, talon = dealt(cards, players, (PLANS if players == 6 else PLANS_OF_SEVEN)[plan])
    # Position 0 is Vorhand, the seat after the dealer.
    return [by_position[(seat - dealer - 1) % players] for seat in range(players)], talon


# -- a record of seven at the default table, written by this script -----------------------------
FIVE_POINTERS = {"T22", "T21", "T1", "CK", "SK", "HK", "DK"}  # "Ser": never laid away (dappen-de)


def rank(card: str) -> int:
    """A trump's number (the Gstieß counts as the 22)."""
    return int(card[1:])


def holds_a_stop(hand: list[str]) -> bool:
    """A trump that takes a trick against the top trumps led in turn: the n-th highest trump with
    at least n - 1 others (dappen-en: Furtwangen version, Compulsory Dappen (a))."""
    trumps = [rank(c) for c in hand if c[0] == "T"]
    return any(len(trumps) - 1 >= 22 - r for r in trumps)


def follows(hand: list[str], led: str) -> list[str]:
    """Follow suit; void, trump; else any card."""
    same = [c for c in hand if c[0] == led[0]]
    return same or [c for c in hand if c[0] == "T"] or hand


def seven_record(seed: int, dealer: int = 3) -> dict[str, Any]:
    players = 7
    hands, talon = furtwangen_deal(seed, "dapp_first", players, dealer)
    order = [(dealer + 1 + i) % players for i in range(players)]  # Vorhand first, the dealer last
    stops = [seat for seat in order if holds_a_stop(hands[seat])]
    assert stops == [order[0]], f"seed {seed}: seats {stops} hold a stop; the record wants Vorhand's alone"
    declarer = order[0]
    held = hands[declarer] + talon
    # Its suit cards laid away first, then its lowest trumps; never a five-pointer.
    discard = sorted(
        (c for c in held if c not in FIVE_POINTERS), key=lambda c: (c[0] == "T", c[0] == "T" and rank(c), c)
    )[:12]
    kept = [c for c in held if c not in discard]
    led = max((c for c in kept if c[0] == "T"), key=rank)  # the lone player leads its highest trump
    actions: list[Any] = [[dealer, {"choose": "dapp_first"}]]
    actions += [[seat, "pass"] for seat in order]  # the Solo round: nobody
    actions += [[seat, "dappen" if seat == declarer else "pass"] for seat in order]
    actions += [[declarer, {"discard": discard}], [declarer, "pass"], [declarer, {"play": led}]]
    trick = [led]
    for seat in order[1:]:
        card = max(follows(hands[seat], led), key=lambda c: (c[0] == "T" and rank(c), c))
        trick.append(card)
        actions.append([seat, {"play": card}])
    winner = order[max(range(players), key=lambda i: rank(trick[i]) if trick[i][0] == "T" else 0)]
    shown = "; ".join(f"seat {seat}: {' '.join(hands[seat])}" for seat in range(players))
    return {
        "title": "Seven at the default table: the dealer, seat 3, chooses to deal the Dapp first (3 and 3 to each)",
        "source": "dappen-en: Furtwangen version, Variations (the dealer may deal the Dapp at the start and the middle); "
        "the deal worked out by tests/deal_choice_by_hand.py",
        "note": (
            f"Written by tests/deal_choice_by_hand.py (python tests/deal_choice_by_hand.py --write). The default "
            f"table (deal_order: dealer_chooses): before any card is dealt the dealer, seat {dealer}, says "
            f"{{choose: dapp_first}}, and the pack shuffled from seed {seed} is dealt 6 to the Dapp, 3 to each "
            f"player from seat {order[0]} (Vorhand) round to seat {dealer}, 6 more to the Dapp, 3 more to each. "
            f"Dapp: {' '.join(talon)}; {shown}. Nobody bids Solo. Only seat {declarer} holds a stop, so it "
            f"must dappen and does; the others pass. It takes the Dapp and lays away 12 cards that are no "
            f"five-pointers, its suit cards first, then its lowest trumps ({' '.join(discard)}), announces nothing, and leads {led}; each follows with "
            f"its highest card that follows the lead (a trump, holding one). Seat {winner} wins the first trick "
            f"({' '.join(trick)}). The record stops after it: each card named is one its seat holds only if "
            f"the deal was dealt Dapp first, as worked out here."
        ),
        "ruleset": "furtwangen",
        "players": players,
        "dealer": dealer,
        "seed": seed,
        "actions": actions,
        "expect": {"contract": "dappen", "declarer": declarer},
    }


def write_seven(seed: int) -> Path:
    data = seven_record(seed)
    actions, expect = data.pop("actions"), data.pop("expect")
    text = "# Written by tests/deal_choice_by_hand.py; do not edit by hand.\n"
    text += yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)
    text += "actions:\n" + "".join(f"  - {flow(a)}\n" for a in actions) + f"expect: {flow(expect)}\n"
    path = RECORDS / "furtwangen-seven-dealer-chooses-dapp-first.yaml"
    path.write_text(text, encoding="utf-8")
    return path


SEVEN_SEED = 12  # the first seed whose Vorhand (seat 4) alone holds a stop

if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        print(f"wrote {write_seven(SEVEN_SEED)}")
    else:
        seed = int(sys.argv[1]) if len(sys.argv) > 1 else 103
        for name in PLANS:
            hands, talon = furtwangen_deal(seed, name)
            print(f"{name}: Dapp {' '.join(talon)}")
            for seat, hand in enumerate(hands):
                print(f"  seat {seat}: {' '.join(hand)}")
