"""Every expression is compiled twice: to one function from generated Python source (what the
engine calls) and to nested closures (the reference). Both must give the same value, or fail
with the same error, for every expression of every bundled ruleset, on the environments its
formulas meet in seeded deals (and on those its ruleset's other formulas meet, where they hold
every name it reads)."""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import play_out
from interpreter.errors import RuleError
from interpreter.language.dsl import Expression, Scope, Type, compile_expression
from interpreter.language.loader import ruleset_names
from interpreter.language.model import Ruleset

DEALS = 6  # per table size
SAMPLES = 40  # environments kept per expression


def _expressions(value: object, seen: set[int]) -> Iterator[Expression[Any]]:
    """Every Expression inside a compiled ruleset (its caches aside)."""
    if id(value) in seen or value is None or isinstance(value, (str, int, float, bool)):
        return
    seen.add(id(value))
    if isinstance(value, Expression):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.name != "derived":
                yield from _expressions(getattr(value, f.name), seen)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _expressions(item, seen)
    elif isinstance(value, (list, tuple, frozenset, set)):
        for item in value:
            yield from _expressions(item, seen)


def _outcome(function: Any, expression: Expression[Any], env: Mapping[str, object]) -> tuple[str, object]:
    try:
        value = function(env)
    except Exception as exc:
        return "error", str(expression.failure(exc))
    return type(value).__name__, value


def _met(ruleset: Ruleset, players: int) -> dict[int, list[dict[str, object]]]:
    """The environments each expression (by id) is called with in a few seeded deals."""
    met: dict[int, list[dict[str, object]]] = {}
    called = Expression.__call__

    def recording(self: Expression[Any], env: Mapping[str, object]) -> Any:
        kept = met.setdefault(id(self), [])
        if len(kept) < SAMPLES:
            kept.append(dict(env))
        return called(self, env)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(Expression, "__call__", recording)
        for seed in range(DEALS):
            play_out(Game(ruleset, players=players, seed=seed), seed=seed)
    return met


@functools.cache
def _tables() -> list[tuple[str, Ruleset, list[Expression[Any]], dict[int, list[dict[str, object]]]]]:
    """Each bundled ruleset at each table size: its expressions and what the deals met."""
    tables = []
    for name in ruleset_names():
        table = load_ruleset(name)
        for players in table.table_sizes:
            ruleset = table.for_players(table.active_at(players))
            expressions = {id(e): e for e in [*_expressions(ruleset, set()), *_expressions(table, set())]}
            tables.append((name, ruleset, list(expressions.values()), _met(table, players)))
    return tables


@functools.cache
def _values() -> dict[str, list[object]]:
    """Values the deals gave each name, across every ruleset: to fill in a name that no deal
    of a ruleset gave (a formula for a case the random deals did not reach)."""
    values: dict[str, list[object]] = {}
    for _, _, _, met in _tables():
        for envs in met.values():
            for env in envs:
                for key, value in env.items():
                    seen = values.setdefault(key, [])
                    if len(seen) < SAMPLES and value not in seen:
                        seen.append(value)
    return values


# For a name no deal gave: a value of each type (most make the formula fail, which it must
# do alike both ways).
ANY_TYPE: list[object] = [0, 3, -2, True, False, "T22", "CK", frozenset({"T22", "T1", "CK"}), frozenset()]


@pytest.mark.parametrize("name", ruleset_names())
def test_the_compiled_source_gives_what_the_closures_give(name: str) -> None:
    compared = 0
    values = _values()
    for table_name, _, expressions, met in _tables():
        if table_name != name:
            continue
        pool = [env for envs in met.values() for env in envs]
        for expression in expressions:
            assert expression.reference is not None
            own = met.get(id(expression), [])
            others = [env for env in pool if expression.names <= env.keys()][:SAMPLES]
            filled = []
            for i, base in enumerate([*pool[:SAMPLES], {}]):
                env = dict(base)
                for variable in sorted(expression.names - env.keys()):
                    choices = values.get(variable) or ANY_TYPE
                    env[variable] = choices[i % len(choices)]
                filled.append(env)
            for env in own + others + filled:
                flat = _outcome(expression._run, expression, env)
                assert flat == _outcome(expression.reference, expression, env), (expression.source, env)
                compared += 1
    assert compared >= 100


SCOPE = Scope(
    {"T22": (Type.CARD, "T22"), "T1": (Type.CARD, "T1"), "trumps": (Type.CARDS, frozenset({"T22", "T1", "T21"}))},
    {"hand": Type.CARDS, "x": Type.INT, "flag": Type.BOOL, "card": Type.CARD, "played_tricks": Type.TRICKS},
    {"T22": 22, "T21": 21, "T1": 1},
    {"T22": 5, "T21": 1, "T1": 5},
)

TEXTS = [
    "round_up((40 - x) * 2, 10) + round_down(x, 3) - round_nearest(x, 4)",
    "round_up(x, x)",
    "x // (x - 3) + x % 2",
    "min(x, 3, -x) + max(x) + abs(-x)",
    "count(hand & trumps) >= 2 or not flag",
    "card in hand and {T22, T1} in hand and hand not in trumps",
    "card not in (hand - trumps)",
    "if flag then points(hand | trumps) else rank(card)",
    "any a in hand: all b in trumps: rank(a) >= rank(b)",
    "(any a in hand: a == T22) and (all a in trumps + hand: points(a) > 0)",
    "any a in (if (any c in hand: c == T1) then hand else trumps): holds(a) and a != card",
    "highest(hand) == T22 and lowest(hand & trumps) != card",
    "points(card) + rank(highest(trumps))",
    "count(trick(-1) & hand) > 0 or winning_card(2) == card or won_by_side(x % 5 - 2)",
    "trick_of(card) == 1 and won_by_side(-1)",
]


@pytest.mark.parametrize("text", TEXTS)
def test_every_construct_gives_the_same_value_or_the_same_error(text: str) -> None:
    expression = compile_expression(text, SCOPE)
    assert expression.reference is not None and expression._run is not expression.reference
    rng = random.Random(text)
    cards = ["T22", "T21", "T1", "X9"]  # X9: a card the tables do not know
    for _ in range(300):
        env: dict[str, object] = {
            "hand": frozenset(rng.sample(cards, rng.randint(0, 4))),
            "x": rng.randint(-5, 60),
            "flag": rng.random() < 0.5,
            "card": rng.choice(cards),
            "played_tricks": tuple(
                (frozenset(rng.sample(cards, 2)), rng.choice(cards), rng.random() < 0.5)
                for _ in range(rng.randint(0, 3))
            ),
        }
        if rng.random() < 0.05:
            del env[rng.choice(list(env))]  # a value the engine failed to give
        flat = _outcome(expression._run, expression, env)
        assert flat == _outcome(expression.reference, expression, env), env
        try:
            expression(env)
        except RuleError as exc:
            assert flat == ("error", str(exc))


def test_source_too_deep_for_python_falls_back_on_the_closures() -> None:
    text = "- " * 300 + "x + 1"
    expression = compile_expression(text, SCOPE)
    assert expression._run is expression.reference
    assert expression({"x": 2}) == 3
