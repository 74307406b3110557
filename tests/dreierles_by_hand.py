"""Dreierles reckoned by hand from the rules text (pagat-dreierles, the digest in
shared/digests/dreierles.md), without the interpreter: card values, counting in threes, who wins
a trick, the scoring formula and the printed table. The tests hold the engine to it, and the
records' expected outcomes were worked out with it (and checked by hand where the source gives
a worked example). Nothing here imports the engine."""

from __future__ import annotations

from collections.abc import Sequence

# §2: suits high to low; Hearts and Diamonds have reversed pips (A 2 3 4 from high to low).
SUIT_ORDER = {
    "C": ["K", "Q", "N", "J", "10", "9", "8", "7"],
    "S": ["K", "Q", "N", "J", "10", "9", "8", "7"],
    "H": ["K", "Q", "N", "J", "A", "2", "3", "4"],
    "D": ["K", "Q", "N", "J", "A", "2", "3", "4"],
}
MULTIPLIER = {"dreier": 1, "zweier": 2, "einer": 3, "solo": 4}

# §9: the declarer's score per opponent before knocks, by the declarer's card points (the printed
# table, row by row: lowest points of the row, highest, then Dreier, Zweier, Einer, Solo; None:
# impossible).
TABLE: list[tuple[int, int, tuple[int | None, int | None, int, int]]] = [
    (65, 69, (7, 14, 21, 28)),
    (60, 64, (6, 12, 18, 24)),
    (55, 59, (5, 10, 15, 20)),
    (50, 54, (4, 8, 12, 16)),
    (45, 49, (3, 6, 9, 12)),
    (40, 44, (2, 4, 6, 8)),
    (36, 39, (1, 2, 3, 4)),
    (31, 35, (-1, -2, -3, -4)),
    (26, 30, (-2, -4, -6, -8)),
    (21, 25, (-3, -6, -9, -12)),
    (16, 20, (-4, -8, -12, -16)),
    (11, 15, (-5, -10, -15, -20)),
    (6, 10, (-6, -12, -18, -24)),
    (1, 5, (-7, -14, -21, -28)),
    (0, 0, (None, None, -24, -32)),
]


def value(card: str) -> int:
    """§3: Stiess, 21, 1 and Kings 5; Queens 4; Cavaliers 3; Jacks 2; everything else 1."""
    if card in ("T22", "T21", "T1"):
        return 5
    if card.startswith("T"):
        return 1
    return {"K": 5, "Q": 4, "N": 3, "J": 2}.get(card[1:], 1)


def count(cards: Sequence[str]) -> int:
    """§3: groups of three less 2 each, one or two left over less 1."""
    full, rest = divmod(len(cards), 3)
    return sum(value(c) for c in cards) - 2 * full - (1 if rest else 0)


def strength(card: str, led: str) -> int:
    """How high `card` stands in a trick whose first card is `led`: trumps above all, then the
    suit led high to low; other cards cannot win (-1)."""
    if card.startswith("T"):
        return 100 + int(card[1:])
    if card[0] == led[0] and not led.startswith("T"):
        return len(SUIT_ORDER[card[0]]) - SUIT_ORDER[card[0]].index(card[1:])
    return -1


def winner(cards: Sequence[str]) -> int:
    """§8: the highest trump wins, else the highest card of the suit led. The index in `cards`."""
    return max(range(len(cards)), key=lambda i: strength(cards[i], cards[0]))


def table_score(points: int, bid: str) -> int | None:
    """The printed table: the declarer's score per opponent for `points` card points."""
    for low, high, scores in TABLE:
        if low <= points <= high:
            return scores[list(MULTIPLIER).index(bid)]
    raise ValueError(points)


def formula_score(points: int, bid: str) -> int:
    """§9's formula: (⌊(W − 35) / 5⌋ + 1) × multiplier from the winning side's W, plus for the
    declarer, minus against."""
    won = points >= 36
    w = points if won else 70 - points
    game = ((w - 35) // 5 + 1) * MULTIPLIER[bid]
    return game if won else -game


def play_out(plays: Sequence[tuple[int, str]], seats: int = 3) -> list[tuple[list[int], list[str], int]]:
    """The tricks of a deal from its plays in order: (seats, cards, winning seat) each."""
    tricks = []
    for start in range(0, len(plays), seats):
        chunk = plays[start : start + seats]
        cards = [c for _, c in chunk]
        tricks.append(([s for s, _ in chunk], cards, chunk[winner(cards)][0]))
    return tricks
