"""Records of the words of shorter deal plans (`times`, `deal.remove` for every table size), their
deals worked out without the interpreter. Nothing here imports the engine.

A seeded deal is the pack, in its order (trumps T1 to T22, then each suit's ranks as the pack
lists them), shuffled by `random.Random(seed).shuffle` (design.md: a seed names that shuffle), then
dealt packet by packet as the plan says, each packet to every active player in turn from
Vorhand (the seat after the dealer). The plans are written here as the source states them, packet
after packet, not read from the ruleset: `{each: 3, times: 4}` in the ruleset must deal what four
packets of three in a row deal here.

Each record plays the Carneval auction (Vorhand passes, the next seat takes the Écart), a discard
of cards that are no honours, and the first trick by the rules of play (follow suit, else trump,
else any card): every card named is one the seat holds only if the engine dealt what is worked
out here.

Run it to write the records again: `python tests/deal_plans_by_hand.py`.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).parent
RECORDS = HERE / "records"
HONOURS = {"T22", "T21", "T1", "CK", "SK", "HK", "DK"}  # the five-pointers (Carneval's default reading)


def pack(removed: set[str]) -> list[str]:
    """The cards of the Cego pack in the pack's order (rulesets/cego-pack.yaml), without `removed`."""
    data = yaml.safe_load((HERE.parent / "rulesets" / "cego-pack.yaml").read_text(encoding="utf-8"))
    deck = data["deck"]
    cards = [f"T{n}" for n in range(1, deck["trumps"]["count"] + 1)]
    cards += [f"{suit['id']}{rank}" for suit in deck["suits"] for rank in suit["ranks"]]
    return [c for c in cards if c not in removed]


def dealt(cards: list[str], players: int, plan: list[tuple[str, int]]) -> tuple[list[list[str]], list[str]]:
    """The hands by position in the order of play (Vorhand first) and the talon."""
    hands: list[list[str]] = [[] for _ in range(players)]
    talon: list[str] = []
    top = 0
    for to, count in plan:
        for target in hands if to == "each" else [talon]:
            target += cards[top : top + count]
            top += count
    assert top == len(cards), (top, len(cards))
    return hands, talon


def suit(card: str) -> str:
    return card[0]


def legal(hand: list[str], led: str) -> list[str]:
    """Follow suit; void, trump if able; else any card (Carneval's play, must_beat false)."""
    same = [c for c in hand if suit(c) == suit(led)]
    if same:
        return same
    trumps = [c for c in hand if suit(c) == "T"]
    return trumps or hand


def record(
    title: str,
    note: str,
    ruleset: str,
    players: int,
    seed: int,
    plan: list[tuple[str, int]],
    removed: set[str],
    options: dict[str, str] | None = None,
) -> dict[str, Any]:
    cards = pack(removed)
    random.Random(seed).shuffle(cards)
    by_position, talon = dealt(cards, players, plan)
    order = [(1 + i) % players for i in range(players)]  # dealer 0: Vorhand is seat 1
    hands = {seat: list(by_position[i]) for i, seat in enumerate(order)}
    declarer = 2
    held = hands[declarer] + talon
    # The lowest cards to lay away first: suit cards, then trumps, never an honour.
    discard = sorted((c for c in held if c not in HONOURS), key=lambda c: suit(c) == "T")[: len(talon)]
    hands[declarer] = [c for c in held if c not in discard]
    actions: list[Any] = [[1, "pass"], [2, "dappen"], [2, {"discard": discard}]]
    led = hands[declarer][0]
    actions.append([declarer, {"play": led}])
    for k in range(1, players):
        seat = (declarer + k) % players
        actions.append([seat, {"play": legal(hands[seat], led)[0]}])
    return {
        "title": title,
        "source": "dappen-en: Possible variant: Mainz Carneval Tarot (deal); the deal worked out by tests/deal_plans_by_hand.py",
        "note": note
        + f" Seed {seed}: the pack shuffled by random.Random({seed}).shuffle; hands as dealt "
        + "(seat: cards): "
        + "; ".join(f"{seat}: {' '.join(by_position[order.index(seat)])}" for seat in range(players))
        + f"; talon: {' '.join(talon)}. The record stops after the first trick.",
        "ruleset": ruleset,
        **({"options": options} if options else {}),
        "players": players,
        "dealer": 0,
        "seed": seed,
        "actions": actions,
        "expect": {"contract": "dappen", "declarer": declarer},
    }


def flow(value: Any) -> str:
    return yaml.safe_dump(value, default_flow_style=True, width=1000).strip()


def main() -> None:
    threes = [("each", 3)] * 4
    records = {
        "carneval-four-players-dealt-in-threes": record(
            "Four players, dealt in threes: six to the Écart, then four packets of three to each in turn",
            "The plan `[{talon: 6}, {each: 3, times: 4}]` is four packets of three to each player in turn "
            "after the Écart, not one packet of twelve: Vorhand (seat 1) holds the cards 7-9, 19-21, 31-33 "
            "and 43-45 of the shuffled pack.",
            "carneval",
            4,
            2026,
            [("talon", 6), *threes],
            set(),
        ),
        "carneval-short-pack-three-players": record(
            "Three players of a Carneval table without C7 and S7, taken out at every table size",
            "`deal.remove: '{C7, S7}'` takes the two cards out whatever the number of players: 52 cards, "
            "4 to the Écart, four packets of three and one of four to each.",
            "../rulesets/carneval-short-pack.yaml",
            3,
            30,
            [("talon", 4), *threes, ("each", 4)],
            {"C7", "S7"},
        ),
        "carneval-reading-dealt-singly-four-players": record(
            "Four players, dealt one card at a time by a reading's rules for four players",
            "The reading four_deal = singly patches the rules for four players only (`by_players`): "
            "`[{each: 1, times: 12}, {talon: 6}]`, one card to each in turn twelve times, then the last "
            "six to the Écart. Vorhand (seat 1) holds every fourth card of the shuffled pack from the first.",
            "../rulesets/carneval-dealt-singly.yaml",
            4,
            12,
            [*[("each", 1)] * 12, ("talon", 6)],
            set(),
            {"four_deal": "singly"},
        ),
    }
    for name, data in records.items():
        text = "# Written by tests/deal_plans_by_hand.py; do not edit by hand.\n"
        actions, expect = data.pop("actions"), data.pop("expect")
        text += yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)
        text += "actions:\n" + "".join(f"  - {flow(a)}\n" for a in actions) + f"expect: {flow(expect)}\n"
        (RECORDS / f"{name}.yaml").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
