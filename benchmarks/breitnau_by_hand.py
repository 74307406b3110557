"""Dappen as played in Breitnau, six at the table, written by hand: the yardstick of the benchmark.

The same game as rulesets/breitnau.yaml with six players and its default readings (a Solo won
1, lost 2; Stupfen 3), in plain Python with no ruleset and no interpreter: the 54-card Cego
pack dealt 4, talon 6, 3, talon 6 from Vorhand; a Solo round (the first Solo ends the auction),
then a Dappen round (dappen, strecken, stupfen with "selber" to hold, at most two bidders),
thrown in when everybody passes; the Dappen games take up the 12-card talon and discard 12 cards
that are not five-pointers; a hand with all seven five-pointers is shown instead of played
(scored as won in every trick); the declarer leads, players follow suit, else trump; the cards
counted in packets of two less one (an odd card less one), the Dapp or the discards for the
declarer unless the declarer took no trick; the declarer wins with the opponents under 40, and
each opponent pays or is paid round_up((40 - loser's points) × factor, 10).

Every choice is a uniform random pick among the legal actions, drawn from `random.Random(seed)`
in the order the interpreter lists them (hands in the order dealt, calls `pass` first), and the
deal is shuffled from its own `random.Random(seed)` as `Game(seed=seed)` shuffles. So for the
same seed this engine and the interpreter driven by `RandomBot(seed)` make the very same choices
and must end with the same payments: tests/test_bench_breitnau.py checks it deal by deal. The two
places where matching the interpreter's random draws shapes the code are marked "same draws".
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

TRUMPS = tuple(f"T{n}" for n in range(1, 23))
SUITS = {
    "C": ("K", "Q", "N", "J", "10", "9", "8", "7"),
    "S": ("K", "Q", "N", "J", "10", "9", "8", "7"),
    "H": ("K", "Q", "N", "J", "A", "2", "3", "4"),
    "D": ("K", "Q", "N", "J", "A", "2", "3", "4"),
}
PACK = TRUMPS + tuple(suit + rank for suit, ranks in SUITS.items() for rank in ranks)  # the order before the shuffle

FOLLOW = {card: "T" if card in TRUMPS else card[0] for card in PACK}
POWER = {f"T{n}": 1000 + n for n in range(1, 23)}
POWER.update({suit + rank: 8 - i for suit, ranks in SUITS.items() for i, rank in enumerate(ranks)})
FIVE_POINTERS = frozenset({"T22", "T21", "T1", "CK", "SK", "HK", "DK"})
POINTS = dict.fromkeys(PACK, 1)
POINTS.update(dict.fromkeys(FIVE_POINTERS, 5))
POINTS.update({suit + rank: value for suit in SUITS for rank, value in (("Q", 4), ("N", 3), ("J", 2))})

PLAYERS = 6
TRICKS = 7
DAPPEN_LADDER = ("dappen", "strecken", "stupfen")
Outcome = tuple[str, str | None, int | None, tuple[int, int] | None, list[int]]
FACTOR = {"solo": (1, 2), "dappen": (1, 1), "strecken": (2, 2), "stupfen": (3, 3)}  # (won, lost)


def points(cards: list[str]) -> int:
    """Packets of two cards, each one point less; an odd card left over, one less."""
    pairs, odd = divmod(len(cards), 2)
    return sum(POINTS[c] for c in cards) - pairs - odd


def play_deal(seed: int, dealer: int = 0, pass_probability: float | None = None) -> Outcome:
    """One deal with random play: (outcome, contract, declarer, (declarer's, defenders' points), payments).
    With `pass_probability`, a player passes that often when it may (as `RandomBot` does)."""
    cards = list(PACK)
    random.Random(seed).shuffle(cards)
    rng = random.Random(seed)
    choice = rng.choice
    seats = [(dealer + 1 + i) % PLAYERS for i in range(PLAYERS)]  # from Vorhand, in order of play
    hands: dict[int, list[str]] = {
        s: cards[4 * i : 4 * i + 4] + cards[30 + 3 * i : 33 + 3 * i] for i, s in enumerate(seats)
    }
    talon = cards[24:30] + cards[48:54]

    if pass_probability is None:

        def call(bid: str) -> str:
            return choice(("pass", bid))
    else:
        chance = rng.random

        def call(bid: str) -> str:
            return "pass" if chance() < pass_probability else choice((bid,))

    contract, declarer = auction(seats, call)
    if contract is None or declarer is None:
        return "thrown_in", None, None, None, [0] * PLAYERS
    hand = hands[declarer]
    aside: list[str] = []
    if contract != "solo":
        hand += talon
        talon = []
    if len(FIVE_POINTERS.intersection(hand)) == 7:
        return settle(contract, declarer, seats, list(PACK), [], "claimed")
    if contract != "solo":
        allowed = [c for c in hand if c not in FIVE_POINTERS]
        # Same draws: the interpreter lists a choice of at most 64 discards (13 cards to choose
        # 12 from) and hands out one template for more, which a random player fills by sampling.
        if len(allowed) == 13:
            aside = list(choice(list(combinations(allowed, 12))))
        else:
            choice((None,))
            aside = rng.sample(allowed, 12)
        for card in aside:
            hand.remove(card)

    declarer_cards: list[str] = []
    defender_cards: list[str] = []
    declarer_tricks = 0
    leader = declarer
    for _ in range(TRICKS):
        at = seats.index(leader)
        trick: list[str] = []
        led = ""
        for seat in seats[at:] + seats[:at]:
            hand = hands[seat]
            if trick:
                legal = [c for c in hand if FOLLOW[c] == led] or [c for c in hand if FOLLOW[c] == "T"] or hand
            else:
                legal = hand
            card = choice(legal)
            hand.remove(card)
            if not trick:
                led = FOLLOW[card]
            trick.append(card)
        best = max(range(PLAYERS), key=lambda i: POWER[trick[i]] if FOLLOW[trick[i]] in (led, "T") else 0)
        leader = seats[(at + best) % PLAYERS]
        if leader == declarer:
            declarer_cards += trick
            declarer_tricks += 1
        else:
            defender_cards += trick
    if declarer_tricks:  # the Dapp (or the discards) goes to the opponents when the declarer takes no trick
        declarer_cards += talon + aside
    else:
        defender_cards += talon + aside
    return settle(contract, declarer, seats, declarer_cards, defender_cards, "played")


def auction(seats: list[int], call: Callable[[str], str]) -> tuple[str | None, int | None]:
    """(contract, declarer), or (None, None) when everybody passes both rounds. `call(bid)` is a
    player's choice between passing and `bid`."""
    for seat in seats:
        if call("solo") == "solo":
            return "solo", seat  # nobody can outbid a Solo
    holder: int | None = None
    for seat in seats:
        if holder is None:
            if call("dappen") == "dappen":
                holder = seat
        elif call("strecken") == "strecken":
            # A duel between the first bidder (holder) and the second (challenger); no third bidder.
            challenger, level = seat, 1
            while True:
                if call("selber") == "pass":
                    return DAPPEN_LADDER[level], challenger
                if level == 2 or call("stupfen") == "pass":
                    return DAPPEN_LADDER[level], holder
                level = 2
    return ("dappen", holder) if holder is not None else (None, None)


def settle(
    contract: str, declarer: int, seats: list[int], declarer_cards: list[str], defender_cards: list[str], outcome: str
) -> Outcome:
    declarer_points, defender_points = points(declarer_cards), points(defender_cards)
    won = defender_points < 40
    loser_points = defender_points if won else declarer_points
    factor = FACTOR[contract][0 if won else 1]
    amount = -(-(40 - loser_points) * factor // 10) * 10  # round_up(…, 10)
    paid = amount if won else -amount  # by each opponent to the declarer
    payments = [0] * PLAYERS
    for seat in seats:
        if seat != declarer:
            payments[seat] -= paid
            payments[declarer] += paid
    return outcome, contract, declarer, (declarer_points, defender_points), payments


def run(deals: int, first_seed: int = 0) -> None:
    for seed in range(first_seed, first_seed + deals):
        play_deal(seed)
