"""Built-in functions: signatures for the compiler, implementations for run time.

Run-time failures (empty set, unknown card, zero step) raise ValueError with a
message a ruleset author can act on.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from .scope import Scope, Type

Impl = Callable[..., object]


@dataclass(frozen=True)
class Function:
    name: str
    params: tuple[frozenset[Type], ...]  # accepted types per argument position
    result: Type
    takes: str  # what the arguments should be, for "count() takes a set of cards, got ..."
    build: Callable[[Scope, tuple[Type, ...]], Impl]  # scope tables + argument types -> implementation
    variadic: bool = False  # params[0] repeated, at least once
    reads: tuple[str, ...] = ()  # variables passed after the arguments (holds() reads hand)


def _lookup(table: Mapping[str, int], what: str) -> Callable[[str], int]:
    def look(card: str) -> int:
        try:
            return table[card]
        except KeyError:
            raise ValueError(f"no {what} known for card {card!r}") from None

    return look


def _total(table: Mapping[str, int]) -> Callable[[Collection[str]], int]:
    look = _lookup(table, "points")
    return lambda cards: sum(map(look, cards))


def _extreme(name: str, pick: Callable, table: Mapping[str, int]) -> Callable[[Collection[str]], str]:
    look = _lookup(table, "rank")

    def run(cards: Collection[str]) -> str:
        if not cards:
            raise ValueError(f"{name}() of an empty set of cards")
        # Cards of different suits share ranks; sorting first makes ties go to the
        # alphabetically first id instead of to set iteration order (which varies per process).
        return pick(sorted(cards), key=look)

    return run


def _step_checked(name: str, rounding: Callable[[int, int], int]) -> Impl:
    def run(x: int, step: int) -> int:
        if step <= 0:
            raise ValueError(f"{name}() needs a positive step, got {step}")
        return rounding(x, step)

    return run


_ROUNDINGS: dict[str, Callable[[int, int], int]] = {
    "round_up": lambda x, n: -(-x // n) * n,  # ceil(x / n) * n in exact integer arithmetic
    "round_down": lambda x, n: x // n * n,
    # floor(x / n + 1/2) * n: halves go up, round_nearest(25, 10) == 30.
    "round_nearest": lambda x, n: (2 * x + n) // (2 * n) * n,
}

_INT = frozenset({Type.INT})
_CARD = frozenset({Type.CARD})
_CARDS = frozenset({Type.CARDS})


def _functions() -> dict[str, Function]:
    functions = [
        Function("count", (_CARDS,), Type.INT, "a set of cards", lambda s, t: len),
        Function("holds", (_CARD,), Type.BOOL, "a card", lambda s, t: lambda card, hand: card in hand, reads=("hand",)),
        Function("rank", (_CARD,), Type.INT, "a card", lambda s, t: _lookup(s.card_rank, "rank")),
        Function(
            "points",
            (_CARD | _CARDS,),
            Type.INT,
            "a card or a set of cards",
            lambda s, t: _lookup(s.card_points, "points") if t[0] is Type.CARD else _total(s.card_points),
        ),
        Function("highest", (_CARDS,), Type.CARD, "a set of cards", lambda s, t: _extreme("highest", max, s.card_rank)),
        Function("lowest", (_CARDS,), Type.CARD, "a set of cards", lambda s, t: _extreme("lowest", min, s.card_rank)),
        Function("min", (_INT,), Type.INT, "numbers", lambda s, t: lambda *xs: min(xs), variadic=True),
        Function("max", (_INT,), Type.INT, "numbers", lambda s, t: lambda *xs: max(xs), variadic=True),
        Function("abs", (_INT,), Type.INT, "a number", lambda s, t: abs),
    ]
    for name, rounding in _ROUNDINGS.items():
        checked = _step_checked(name, rounding)
        functions.append(Function(name, (_INT, _INT), Type.INT, "two numbers", lambda s, t, f=checked: f))
    return {f.name: f for f in functions}


FUNCTIONS: Mapping[str, Function] = _functions()
