"""Königrufen reckoned by hand from the rules text (pagat-koenig, the digest in
shared/digests/koenigrufen.md), without the interpreter: card values, counting in threes, who
wins a trick, the talon's halves, the game and each bonus for the side it belongs to, and the
payments. `score(record)` reads a game record (its deal and actions) and gives what the digest
says the deal is worth; the records under tests/records/ written for issue 28 take their
`expect` from it, and tests/test_koenigrufen_by_hand.py holds them to it. Nothing here imports
the engine.

The positive contracts with a talon or a called King are covered (Rufer, Besserrufer, Solo,
Dreier, Sechserdreier, Solodreier), with the readings the ruleset's defaults take:
- a made Valat counts beside the game and the other bonuses (§5, §11: "Game and bonuses are
  scored independently"; "Trull / 4 Kings count even if a card was in the rejected half of the
  talon" only matters if they count beside it);
- King ultimo is the declarer's side's (§5: "it is enough that either partner wins the last
  trick containing the called King"); the defenders' capture is paid by its own bonus;
- the declarer's discards stay in her trick pile (§8), whoever makes a Valat; only the talon is
  surrendered to the valat side (§5);
- a Mondfang is any capture of the opponents' XXI (§5's table);
and the other readings of King ultimo and the Valat when a record chooses them
(koenig_ultimo_defenders: announced; valat: replaces, where a Valat made scores alone).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# §2: suits high to low; Hearts and Diamonds count their pips the other way (1 2 3 4 below J).
SUIT_ORDER = {
    "C": ["K", "Q", "N", "J", "10", "9", "8", "7"],
    "S": ["K", "Q", "N", "J", "10", "9", "8", "7"],
    "H": ["K", "Q", "N", "J", "A", "2", "3", "4"],
    "D": ["K", "Q", "N", "J", "A", "2", "3", "4"],
}
KINGS = ("CK", "SK", "HK", "DK")
TRULL = ("T22", "T21", "T1")

# §4: the game's score won / lost; whether a King is called; how the talon is used.
CONTRACTS: dict[str, dict[str, Any]] = {
    "rufer": {"won": 1, "lost": 1, "calls": True, "talon": "halves"},
    "besserrufer": {"won": 1, "lost": 1, "calls": True, "talon": "halves"},
    "solo": {"won": 2, "lost": 2, "calls": True, "talon": "solo", "bonus_factor": 2},
    "dreier": {"won": 4, "lost": 4, "calls": False, "talon": "halves"},
    "sechserdreier": {"won": 2, "lost": 4, "calls": False, "talon": "all"},
    "solodreier": {"won": 8, "lost": 8, "calls": False, "talon": "defenders", "bonus_factor": 2},
}
# §5: (silent, announced) values; the birds' trick counted from the last (-1 the last).
BONUSES = {"trull": (1, 2), "koenige": (1, 2), "koenig_ultimo": (1, 2), "mondfang": (1, None)}
BIRDS = {"pagat": ("T1", -1, 1), "uhu": ("T2", -2, 2), "kakadu": ("T3", -3, 3), "marabu": ("T4", -4, 4)}


def value(card: str) -> int:
    """§2: Kings, Sküs, XXI and I 5; Queens 4; Knights 3; Jacks 2; every other card 1."""
    if card in TRULL:
        return 5
    if card.startswith("T"):
        return 1
    return {"K": 5, "Q": 4, "N": 3, "J": 2}.get(card[1:], 1)


def count(cards: Sequence[str]) -> int:
    """§2: groups of three less 2 each, one or two left over less 1."""
    full, rest = divmod(len(cards), 3)
    return sum(value(c) for c in cards) - 2 * full - (1 if rest else 0)


def strength(card: str, led: str) -> int:
    """§10: the highest trump wins, else the highest card of the suit led; others cannot (-1)."""
    if card.startswith("T"):
        return 100 + int(card[1:])
    if not led.startswith("T") and card[0] == led[0]:
        order = SUIT_ORDER[card[0]]
        return len(order) - order.index(card[1:])
    return -1


def play_out(plays: Sequence[tuple[int, str]], seats: int = 4) -> list[tuple[list[int], list[str], int]]:
    """The tricks from the plays in order: (seats, cards, winning seat) each."""
    tricks = []
    for start in range(0, len(plays), seats):
        chunk = plays[start : start + seats]
        cards = [c for _, c in chunk]
        best = max(range(len(cards)), key=lambda i: strength(cards[i], cards[0]))
        tricks.append(([s for s, _ in chunk], cards, chunk[best][0]))
    return tricks


def score(record: Mapping[str, Any]) -> dict[str, Any]:
    """What the digest makes of the record's deal: contract, declarer, sides, card points and
    tricks of each side, each bonus scored (name, side, value per payment) and the payments."""
    hands = [list(h) for h in record["deal"]["hands"]]
    talon = list(record["deal"]["talon"])
    players = record["players"]
    options = record.get("options") or {}
    calls: list[tuple[int, str]] = []
    plays: list[tuple[int, str]] = []
    called = None
    half = None
    discards: list[str] = []
    announced: dict[str, str] = {}  # bonus -> the side that announced it
    kontra: dict[str, int] = {}
    declarer = contract = None
    announcers: list[tuple[int, str]] = []
    for seat, action in record["actions"]:
        if isinstance(action, str):
            if not plays and not discards and called is None and half is None and not announcers:
                calls.append((seat, action))
            continue
        if "call_card" in action:
            called = action["call_card"]
        elif action.get("choose") == "fourth_king":
            called = next(k for k in KINGS if k not in hands[seat])
        elif action.get("choose") in ("first", "second"):
            half = action["choose"]
        elif "discard" in action:
            discards = list(action["discard"])
        elif "announce" in action:
            announcers.append((seat, action["announce"]))
        elif "kontra" in action:
            kontra[action["kontra"]] = kontra.get(action["kontra"], 0) + 1
        elif "play" in action:
            plays.append((seat, action["play"]))
    for seat, call in calls:
        if call not in ("pass", "mein_spiel"):
            declarer, contract = seat, call
    assert declarer is not None and contract is not None, "a positive contract is needed"
    rule = CONTRACTS[contract]
    # Where the cards are when play starts: the talon's half taken, the discards put aside.
    hand = hands[declarer]
    if rule["talon"] == "halves":
        taken = talon[:3] if half == "first" else talon[3:]
        rest = talon[3:] if half == "first" else talon[:3]
        hand += taken
    elif rule["talon"] == "all":
        hand += talon
        rest = []
    else:
        rest = talon
    for card in discards:
        hand.remove(card)
    partner = None
    if rule["calls"] and called is not None:
        holder = next((s for s in range(players) if called in hands[s]), None)
        partner = holder if holder != declarer else None
    team = {declarer} if partner is None else {declarer, partner}
    for seat, name in announcers:
        announced[name] = "declarer" if seat in team else "defenders"

    tricks = play_out(plays, players)
    side_of = {s: ("declarer" if s in team else "defenders") for s in range(players)}
    piles: dict[str, list[str]] = {"declarer": [], "defenders": []}
    won = {"declarer": 0, "defenders": 0}
    for _seats, cards, winner in tricks:
        piles[side_of[winner]] += cards
        won[side_of[winner]] += 1
    # §8: the discards go to the declarer's trick pile; the talon's other half (Solo: the whole
    # talon, unless the called King lies in it) to the defenders; §5: to the valat side.
    piles["declarer"] += discards
    if rest:
        if won["defenders"] == 0:
            to = "declarer"
        elif won["declarer"] == 0:
            to = "defenders"
        elif rule["talon"] == "solo" and called in rest:
            to = "declarer"
        else:
            to = "defenders"
        piles[to] += rest
    points = {side: count(cards) for side, cards in piles.items()}
    declarer_won = points["declarer"] >= 36
    game = rule["won"] if declarer_won else rule["lost"]
    per_payment = (game if declarer_won else -game) * 2 ** kontra.get("game", 0)

    bonus_factor = rule.get("bonus_factor", 1)
    scored: list[dict[str, Any]] = []

    def add(name: str, side: str, made: bool, worth: int, said: bool) -> None:
        signed = (worth if made else -worth) * bonus_factor * (2 ** kontra.get(name, 0) if said else 1)
        scored.append({"name": name, "side": side, "announced": said, "achieved": made, "value": signed})

    last = tricks[-1]
    played_by = {c: s for seats, cards, _ in tricks for s, c in zip(seats, cards, strict=True)}
    for side in ("declarer", "defenders"):
        mine = set(piles[side])
        # Trull and four Kings: in the side's tricks and its share of the talon.
        for name, cards in (("trull", TRULL), ("koenige", KINGS)):
            made, said = all(c in mine for c in cards), announced.get(name) == side
            if made or said:
                add(name, side, made, BONUSES[name][1 if said else 0], said)
        # The birds: the card itself wins its trick.
        for name, (card, number, silent) in BIRDS.items():
            seats, cards, winner = tricks[number]
            said = announced.get(name) == side
            in_trick = card in cards and side_of[played_by[card]] == side
            made = in_trick and cards[seats.index(winner)] == card
            if said or in_trick:
                add(name, side, made, silent * 2 if said else silent, said)
        # King ultimo: the declarer's side's; the called King in the last trick, won by either
        # partner. With the reading koenig_ultimo_defenders: announced, the defenders may announce
        # it too, and make it by taking the last trick with the called King in it.
        said = announced.get("koenig_ultimo") == side
        theirs = side == "declarer" or (said and options.get("koenig_ultimo_defenders") == "announced")
        if theirs and called is not None and rule["calls"]:
            in_last = called in last[1]
            made = in_last and side_of[last[2]] == side
            if said or in_last:
                add("koenig_ultimo", side, made, BONUSES["koenig_ultimo"][1 if said else 0], said)
        # Valat: every trick, 4 × the game silently, 8 × announced.
        said = announced.get("valat") == side
        made = won[side] == len(tricks)
        if made or said:
            add("valat", side, made, rule["won"] * (8 if said else 4), said)
        # Mondfang: the opponents' XXI in the side's tricks.
        theirs = "T21" in played_by and side_of[played_by["T21"]] != side
        if theirs and any("T21" in cards and side_of[w] == side for _, cards, w in tricks):
            add("mondfang", side, True, 1, False)
        # The called King captured: the defenders win the trick the declarer's side played it to.
        ours = called is not None and rule["calls"] and called in played_by and side_of[played_by[called]] == "declarer"
        if side == "defenders" and ours and any(called in c and side_of[w] == "defenders" for _, c, w in tricks):
            add("called_king_captured", side, True, 1, False)

    valat = [item for item in scored if item["name"] == "valat" and item["achieved"]]
    if valat and options.get("valat") == "replaces":
        # The reading valat = replaces: a Valat made scores alone (a lost one counts beside).
        scored, per_payment = valat, 0
    for item in scored:
        per_payment += item["value"] if item["side"] == "declarer" else -item["value"]
    payments = [0] * players
    defenders = [s for s in range(players) if s not in team]
    if partner is None:
        payments[declarer] = per_payment * len(defenders)
        for seat in defenders:
            payments[seat] = -per_payment
    else:
        for seat in range(players):
            payments[seat] = per_payment if seat in team else -per_payment
    return {
        "contract": contract,
        "declarer": declarer,
        "partner": partner,
        "declarer_won": declarer_won,
        "points": {"declarer": points["declarer"], "defenders": points["defenders"]},
        "tricks": {"declarer": won["declarer"], "defenders": won["defenders"]},
        "bonuses": scored,
        "payments": payments,
    }


if __name__ == "__main__":
    import sys

    import yaml

    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as handle:
            print(path, score(yaml.safe_load(handle)))
