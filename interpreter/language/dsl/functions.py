"""Built-in functions: signatures for the compiler, implementations for run time.

Run-time failures (empty set, unknown card, zero step) raise `Fault` with a
message a ruleset author can act on; the Expression turns it into a RuleError
that names the formula's place.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from .scope import Scope, Type

Impl = Callable[..., Any]
# Source text for a call in generated code, from its arguments' source texts and their values
# where constant (else None); None: call the implementation.
Inline = Callable[[list[str], list[object]], "str | None"]


class Fault(Exception):
    """An expression failed while it was evaluated: the reason, and the column (1-based, in
    the expression's text) of the part that failed, once known."""

    def __init__(self, reason: str, column: int | None = None) -> None:
        super().__init__(reason, column)
        self.reason = reason
        self.column = column

    def __str__(self) -> str:
        return self.reason

    def at(self, column: int) -> Fault:
        """This fault, placed at `column` unless a part inside already placed it."""
        if self.column is None:
            self.column = column
        return self


@dataclass(frozen=True)
class Function:
    name: str
    params: tuple[frozenset[Type], ...]  # accepted types per argument position
    result: Type
    takes: str  # what the arguments should be, for "count() takes a set of cards, got ..."
    build: Callable[[Scope, tuple[Type, ...]], Impl]  # scope tables + argument types -> implementation
    variadic: bool = False  # params[0] repeated, at least once
    reads: tuple[str, ...] = ()  # variables passed after the arguments (holds() reads hand)
    read_type: Type = Type.CARDS  # the type of those variables
    positive: int | None = None  # the argument that must be positive (a rounding's step)
    inline: Inline | None = None  # the call written out in generated source, where it can be
    may_fail: bool = True  # its implementation may raise Fault (placed at the call)
    # For generated source: scope tables + argument types + the call's column -> an
    # implementation that places its own failures there (no wrapper around `build`'s).
    placed: Callable[[Scope, tuple[Type, ...], int], Impl] | None = None


def _lookup(table: Mapping[str, int], what: str) -> Callable[[str], int]:
    def look(card: str) -> int:
        try:
            return table[card]
        except KeyError:
            raise Fault(f"no {what} known for card {card!r}") from None

    return look


def _lookup_placed(attribute: str, what: str) -> Callable[[Scope, tuple[Type, ...], int], Impl]:
    """rank() or points() for generated source: a card's number from the scope's table (a set's
    total, for points of a set), a card the table lacks failing at the call's column."""

    def placed(scope: Scope, types: tuple[Type, ...], column: int) -> Impl:
        table: Mapping[str, int] = getattr(scope, attribute)

        def look(card: str) -> int:
            try:
                return table[card]
            except KeyError:
                raise Fault(f"no {what} known for card {card!r}", column) from None

        if types[0] is Type.CARDS:
            return lambda cards: sum(map(look, cards))
        return look

    return placed


def _total(table: Mapping[str, int]) -> Callable[[Collection[str]], int]:
    look = _lookup(table, "points")
    return lambda cards: sum(map(look, cards))


def _extreme(name: str, pick: Callable[..., str], table: Mapping[str, int]) -> Callable[[Collection[str]], str]:
    look = _lookup(table, "rank")

    def run(cards: Collection[str]) -> str:
        if not cards:
            raise Fault(f"{name}() of an empty set of cards")
        # Cards of different suits share ranks; sorting first makes ties go to the
        # alphabetically first id instead of to set iteration order (which varies per process).
        return pick(sorted(cards), key=look)

    return run


def _step_checked(name: str, rounding: Callable[[int, int], int]) -> Impl:
    def run(x: int, step: int) -> int:
        if step <= 0:
            raise Fault(f"{name}() needs a positive step, got {step}")
        return rounding(x, step)

    return run


_ROUNDINGS: dict[str, Callable[[int, int], int]] = {
    "round_up": lambda x, n: -(-x // n) * n,  # ceil(x / n) * n in exact integer arithmetic
    "round_down": lambda x, n: x // n * n,
    # floor(x / n + 1/2) * n: halves go up, round_nearest(25, 10) == 30.
    "round_nearest": lambda x, n: (2 * x + n) // (2 * n) * n,
}
# The same roundings written out for generated source, for a step known when compiled (and
# so positive: the compiler refuses any other), which the text may then repeat.
_ROUNDINGS_WRITTEN: dict[str, str] = {
    "round_up": "(-(-{x} // {n}) * {n})",
    "round_down": "({x} // {n} * {n})",
    "round_nearest": "((2 * {x} + {n}) // (2 * {n}) * {n})",
}


def _written_rounding(name: str) -> Inline:
    def inline(codes: list[str], constants: list[object]) -> str | None:
        if constants[1] is None:
            return None  # a step known only when evaluated: the checked implementation is called
        return _ROUNDINGS_WRITTEN[name].format(x=codes[0], n=codes[1])

    return inline


def _written(template: str) -> Inline:
    """A call written out as `template`, with {0}, {1} … for the arguments' source texts and
    {all} for all of them separated by commas."""
    return lambda codes, constants: template.format(*codes, all=", ".join(codes))


# The tricks as the trick functions read them: per trick its cards, the winning card, and
# whether the side a formula is judged for won it.
TrickFacts = tuple[tuple[frozenset[str], str, bool], ...]


def _trick_at(n: int, tricks: TrickFacts) -> tuple[frozenset[str], str, bool]:
    index = n - 1 if n > 0 else len(tricks) + n
    if n == 0 or not 0 <= index < len(tricks):
        raise Fault(f"there is no trick {n} (the deal has {len(tricks)}; 1 is the first, -1 the last)")
    return tricks[index]


def _trick_part(part: int) -> Callable[[Scope, tuple[Type, ...], int], Impl]:
    """trick(), winning_card() or won_by_side() (`part` of a trick's facts) for generated source:
    what `_trick_at` does, its failure placed at the call's column."""

    def placed(scope: Scope, types: tuple[Type, ...], column: int) -> Impl:
        def at(n: int, tricks: TrickFacts) -> object:
            index = n - 1 if n > 0 else len(tricks) + n
            if n == 0 or not 0 <= index < len(tricks):
                raise Fault(f"there is no trick {n} (the deal has {len(tricks)}; 1 is the first, -1 the last)", column)
            return tricks[index][part]

        return at

    return placed


def _trick_of(card: str, tricks: TrickFacts) -> int:
    """The number of the trick `card` was played to (1 the first), 0 when it was not played: a
    card's fate (the Mond captured with the Sküs) read through trick(), winning_card() …"""
    for number, (cards, _, _) in enumerate(tricks, 1):
        if card in cards:
            return number
    return 0


_INT = frozenset({Type.INT})
_CARD = frozenset({Type.CARD})
_CARDS = frozenset({Type.CARDS})


def _fixed(impl: Impl) -> Callable[[Scope, tuple[Type, ...]], Impl]:
    """A function whose implementation does not depend on the scope or the argument types."""
    return lambda scope, types: impl


def _of_numbers(name: str, pick: Callable[[tuple[int, ...]], int]) -> Function:
    """`min` or `max` of any number of numbers (in generated code, Python's own of a tuple)."""
    return Function(
        name,
        (_INT,),
        Type.INT,
        "numbers",
        lambda s, t: lambda *xs: pick(xs),
        variadic=True,
        inline=_written(name + "(({all},))"),
        may_fail=False,
    )


def _functions() -> dict[str, Function]:
    functions = [
        Function(
            "count",
            (_CARDS,),
            Type.INT,
            "a set of cards",
            lambda s, t: len,
            inline=_written("len({0})"),
            may_fail=False,
        ),
        Function(
            "holds",
            (_CARD,),
            Type.BOOL,
            "a card",
            lambda s, t: lambda card, hand: card in hand,
            reads=("hand",),
            inline=_written("({0} in {1})"),
            may_fail=False,
        ),
        Function(
            "rank",
            (_CARD,),
            Type.INT,
            "a card",
            lambda s, t: _lookup(s.card_rank, "rank"),
            placed=_lookup_placed("card_rank", "rank"),
        ),
        Function(
            "points",
            (_CARD | _CARDS,),
            Type.INT,
            "a card or a set of cards",
            lambda s, t: _lookup(s.card_points, "points") if t[0] is Type.CARD else _total(s.card_points),
            placed=_lookup_placed("card_points", "points"),
        ),
        Function("highest", (_CARDS,), Type.CARD, "a set of cards", lambda s, t: _extreme("highest", max, s.card_rank)),
        Function("lowest", (_CARDS,), Type.CARD, "a set of cards", lambda s, t: _extreme("lowest", min, s.card_rank)),
        _of_numbers("min", min),
        _of_numbers("max", max),
        Function("abs", (_INT,), Type.INT, "a number", lambda s, t: abs, inline=_written("abs({0})"), may_fail=False),
        Function(
            "trick",
            (_INT,),
            Type.CARDS,
            "a trick's number (1 the first, -1 the last)",
            _fixed(lambda n, tricks: _trick_at(n, tricks)[0]),
            reads=("played_tricks",),
            read_type=Type.TRICKS,
            placed=_trick_part(0),
        ),
        Function(
            "winning_card",
            (_INT,),
            Type.CARD,
            "a trick's number (1 the first, -1 the last)",
            _fixed(lambda n, tricks: _trick_at(n, tricks)[1]),
            reads=("played_tricks",),
            read_type=Type.TRICKS,
            placed=_trick_part(1),
        ),
        Function(
            "won_by_side",
            (_INT,),
            Type.BOOL,
            "a trick's number (1 the first, -1 the last)",
            _fixed(lambda n, tricks: _trick_at(n, tricks)[2]),
            reads=("played_tricks",),
            read_type=Type.TRICKS,
            placed=_trick_part(2),
        ),
        Function(
            "trick_of",
            (_CARD,),
            Type.INT,
            "a card",
            _fixed(_trick_of),
            reads=("played_tricks",),
            read_type=Type.TRICKS,
            may_fail=False,
        ),
    ]
    for name, rounding in _ROUNDINGS.items():
        checked = _step_checked(name, rounding)
        functions.append(
            Function(
                name,
                (_INT, _INT),
                Type.INT,
                "two numbers",
                _fixed(checked),
                positive=1,
                inline=_written_rounding(name),
            )
        )
    return {f.name: f for f in functions}


FUNCTIONS: Mapping[str, Function] = _functions()
