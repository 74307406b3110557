"""The base value tables of the Cego source, row by row, against the rulesets' own formulas."""

import pytest

from interpreter import load_ruleset
from interpreter.language.compiler import OUTCOME_NAMES


def amount(ruleset, contract: str, declarer_points: int, total: int) -> tuple[bool, int]:
    c = ruleset.contracts[contract]
    env = dict.fromkeys(OUTCOME_NAMES, 0)
    env.update(
        declarer_points=declarer_points,
        defender_points=total - declarer_points,
        declarer_tricks=1,
        defender_tricks=1,
        last_trick_won_with=frozenset(),
    )
    won = bool(c.declarer_wins(env))
    env.update(
        declarer_won=won,
        winner_points=env["declarer_points"] if won else env["defender_points"],
        loser_points=env["defender_points"] if won else env["declarer_points"],
        factor=c.factor_won if won else c.factor_lost,
    )
    return won, int(c.amount(env))


# cego-en, Oberwolfach Version: points won by the bidder -> base value (bidder wins / loses).
OBERWOLFACH = [
    (70, True, 8),
    (65, True, 7),
    (69, True, 7),
    (60, True, 6),
    (55, True, 5),
    (50, True, 4),
    (45, True, 3),
    (40, True, 2),
    (44, True, 2),
    (36, True, 1),
    (39, True, 1),
    (35, False, 1),
    (31, False, 1),
    (30, False, 2),
    (26, False, 2),
    (25, False, 3),
    (20, False, 4),
    (15, False, 5),
    (10, False, 6),
    (5, False, 7),
    (1, False, 7),
    (0, False, 8),
]


@pytest.mark.parametrize("points, won, base", OBERWOLFACH)
def test_oberwolfach_base_values(points: int, won: bool, base: int) -> None:
    rs = load_ruleset("cego-oberwolfach", {}, 4)
    assert amount(rs, "cego", points, 70) == (won, base)  # Cego: factor 1


# cego-en, Cards counted in twos: points won by the bidder -> base value.
TWOS = [
    (79, True, 8),
    (75, True, 8),
    (74, True, 7),
    (70, True, 7),
    (65, True, 6),
    (60, True, 5),
    (55, True, 4),
    (50, True, 3),
    (45, True, 2),
    (40, True, 1),
    (44, True, 1),
    (39, False, 1),
    (35, False, 1),
    (34, False, 2),
    (30, False, 2),
    (25, False, 3),
    (20, False, 4),
    (15, False, 5),
    (10, False, 6),
    (5, False, 7),
    (4, False, 8),
    (0, False, 8),
]


@pytest.mark.parametrize("points, won, base", TWOS)
def test_counting_in_twos_base_values(points: int, won: bool, base: int) -> None:
    rs = load_ruleset("cego", {"counting": "twos"}, 4)
    assert amount(rs, "cego", points, 79) == (won, base)


@pytest.mark.parametrize(
    "contract, points, won, pays",
    [
        ("solo", 41, True, 15),
        ("solo", 29, False, 10),
        ("zwei_leere", 39, True, 20),
        ("gegensolo", 27, False, 20),
        ("gegensolo", 0, False, 70),
        ("cego", 35, False, 5),
    ],
)
def test_the_loewen_scoring_examples(contract: str, points: int, won: bool, pays: int) -> None:
    assert amount(load_ruleset("cego", {}, 4), contract, points, 70) == (won, pays)
