"""Hostile rulesets and expressions, generated from a fixed seed.

Whatever the input (lone surrogates, non-finite and huge numbers, wrong types in every field,
deep nesting, YAML tags and aliases, zero divisors, expensive expressions, broken text), loading
and validating a ruleset ends in a ruleset or in placed problems, compiling an expression in a
DslError, and evaluating one in its value or a RuleError: never another exception, a hang, or
the catch-all messages that say the interpreter itself failed. A ruleset that loads also plays a
deal without anything but a TarockError. The whole file runs in a few seconds.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import random
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from interpreter import Game, TarockError
from interpreter.bots.randombot import play_out
from interpreter.errors import Problem, RuleError, RulesetError
from interpreter.language.dsl import DslError, Scope, Type, compile_expression
from interpreter.language.loader import check_ruleset, load_ruleset, resolve
from interpreter.language.paths import rulesets_dir
from interpreter.language.source import dump_yaml, load_yaml

SEED = 20_261_122
SECONDS = 5  # for any one case: a case that takes longer is a hang

# The messages of the catch-alls that turn a failure of the interpreter itself into a problem.
INTERNAL = ("fault of the interpreter", "cannot read the YAML (", "cannot compile the expression (")

NESTED = "any a in cards: any b in cards: any c in cards: any d in cards: all e in cards: a == e"
HOSTILE = [
    '"\\ud800"',
    '"x\\udfffy"',
    ".inf",
    "-.inf",
    ".nan",
    "1e400",
    "9" * 5000,
    "123456789012345678901234567890",
    "-1",
    "0",
    "~",
    "true",
    "[]",
    "{}",
    "[" * 150 + "]" * 150,
    "{a: " * 120 + "1" + "}" * 120,
    "!!int abc",
    "!!float abc",
    "!!timestamp 2020-99-99",
    "!!binary abc",
    "!!python/name:os.system",
    "!foo bar",
    "&a [*a]",
    "*undefined",
    '"x // 0"',
    '"1 % (2 - 2)"',
    '"round_up(1, 0)"',
    '"rank(lowest({}))"',
    f'"{NESTED}"',
    '"' + "a" * 20_000 + '"',
    '"' + "(" * 3000 + '"',
    '"count(hand) >"',
    '"\\x00"',
    '"T99"',
    '"hand"',
    "[1, two, {x: y}]",
    "{source: 7, status: maybe}",
]


class Hang(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang(f"took more than {SECONDS} s")


def bounded(run: Callable[..., Any], *args: Any) -> Any:
    """`run(*args)`, failing with Hang if it takes more than SECONDS."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(SECONDS)
    try:
        return run(*args)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def assert_readable(problems: list[Problem], case: str) -> None:
    assert problems, case
    for problem in problems:
        text = str(problem)
        text.encode("utf-8")  # printable: no lone surrogate
        assert problem.message, case
        assert not any(marker in text for marker in INTERNAL), f"{case}\n{text}"


def paths(data: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths(value, path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from paths(value, path + (index,))


@pytest.fixture(scope="module")
def standalone() -> dict[str, Any]:
    """Breitnau with its bases merged in: one file, so that any of its values can be replaced."""
    data = dict(resolve("breitnau").data)
    data.pop("base", None)
    return data


def hostile_variants(standalone: dict[str, Any], count: int) -> Iterator[tuple[str, str]]:
    """(description, YAML text): the ruleset with one value, or one key, replaced by a hostile one."""
    rng = random.Random(SEED)
    every = [p for p in paths(standalone) if p]
    for index in range(count):
        path = every[index * 7919 % len(every)] if index < len(every) else rng.choice(every)
        snippet = HOSTILE[index % len(HOSTILE)] if index < 2 * len(HOSTILE) else rng.choice(HOSTILE)
        data = copy.deepcopy(standalone)
        parent = data
        for part in path[:-1]:
            parent = parent[part]
        as_key = isinstance(parent, dict) and rng.random() < 0.15
        if as_key:
            parent["__HOSTILE__"] = parent.pop(path[-1])
        else:
            parent[path[-1]] = "__HOSTILE__"
        text = dump_yaml(data, sort_keys=False, allow_unicode=True, width=1_000_000)
        text = text.replace("__HOSTILE__", snippet if not as_key else f"? {snippet}\n  ", 1)
        yield f"{'key' if as_key else 'value'} at {path}: {snippet[:40]}", text


def test_hostile_values_in_every_field(tmp_path: Path, standalone: dict[str, Any]) -> None:
    loaded = 0
    for number, (case, text) in enumerate(hostile_variants(standalone, 320)):
        file = tmp_path / f"v{number}.yaml"
        file.write_text(text, encoding="utf-8")
        try:
            ruleset = bounded(load_ruleset, str(file))
        except RulesetError as exc:
            assert_readable(exc.problems, case)
        else:
            loaded += 1
            players = ruleset.active_players[0] if ruleset.active_players else 6
            # A formula that fails in play says so with a RuleError (a TarockError).
            with contextlib.suppress(TarockError):
                bounded(functools.partial(play_out, seed=number), Game(ruleset, players=players, seed=number))
        if number % 10 == 0:
            problems = bounded(check_ruleset, str(file))
            if problems:
                assert_readable(problems, case)
    assert loaded > 10  # some hostile values are harmless where they stand (a note, a title)


def _mutated(text: str, rng: random.Random) -> str:
    pieces = [
        "\x00",
        "\ud800",
        "\t",
        "\r",
        "[",
        "]",
        "{",
        "}",
        ":",
        "- ",
        "&a ",
        "*a",
        "!!int ",
        "<<: ",
        "'",
        '"',
        "\\",
        "#",
        "%YAML 1.1\n",
        "---\n",
        "\n  ",
        "\ufeff",
        "é",
        "9" * 5000,
    ]
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(chars) + 1)
        if rng.random() < 0.3 and chars:
            del chars[at : at + rng.randint(1, 30)]
        else:
            chars.insert(at, rng.choice(pieces))
    return "".join(chars)


def test_broken_yaml_text() -> None:
    rng = random.Random(SEED)
    texts = [(file.name, file.read_text(encoding="utf-8")) for file in sorted(rulesets_dir().glob("*.yaml"))]
    for number in range(400):
        name, text = texts[number % len(texts)]
        broken = _mutated(text, rng)
        case = f"{name} #{number}"
        try:
            bounded(load_yaml, broken, name)
        except RulesetError as exc:
            assert_readable(exc.problems, case)


# -- expressions -----------------------------------------------------------------------------------

CARDS = [f"T{n}" for n in range(1, 23)] + [s + r for s in "CSHD" for r in ("K", "Q", "N", "J", "10", "9", "8", "7")]
SCOPE = Scope(
    constants={
        **{card: (Type.CARD, card) for card in CARDS},
        "cards": (Type.CARDS, frozenset(CARDS)),
        "trumps": (Type.CARDS, frozenset(CARDS[:22])),
        "kings": (Type.CARDS, frozenset(c for c in CARDS if c.endswith("K") and c[0] != "T")),
    },
    variables={"hand": Type.CARDS, "taken": Type.CARDS, "points": Type.INT, "tricks": Type.INT, "won": Type.BOOL},
    card_rank={card: index % 22 + 1 for index, card in enumerate(CARDS)},
    card_points={card: index % 5 for index, card in enumerate(CARDS)},
)
TOKENS = (
    ["hand", "taken", "points", "tricks", "won", "cards", "trumps", "kings", "T22", "CK", "T99", "x"]
    + ["0", "1", "7", "9007199254740991", "99999999999999999999", '"s"', "true", "false"]
    + ["+", "-", "*", "//", "%", "&", "|", "==", "!=", "<", ">=", "and", "or", "not", "in", "not in"]
    + ["(", ")", "{", "}", ",", ":", "if", "then", "else", "any t in", "all u in", "any t in cards:"]
    + ["count(", "rank(", "points(", "highest(", "lowest(", "round_up(", "min(", "max(", "abs(", "holds("]
)


def _soup(rng: random.Random) -> str:
    """Tokens in any order: mostly not an expression at all."""
    return " ".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 14)))


class _Writer:
    """Random expressions that mostly compile: each kind of value written from the others."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.bound: list[str] = []

    def pick(self, depth: int, *options: Callable[[int], str]) -> str:
        return self.rng.choice(options[:2] if depth <= 0 else options)(depth - 1)

    def number(self, depth: int) -> str:
        r = self.rng
        return self.pick(
            depth,
            lambda d: r.choice(["0", "1", "7", "9007199254740991", "points", "tricks"]),
            lambda d: f"count({self.cards(d)})",
            lambda d: f"({self.number(d)} {r.choice(['+', '-', '*', '//', '%'])} {self.number(d)})",
            lambda d: f"{r.choice(['round_up', 'round_down', 'round_nearest'])}({self.number(d)}, {self.number(d)})",
            lambda d: f"rank({self.card(d)})",
            lambda d: f"points({self.cards(d)})",
            lambda d: f"{r.choice(['min', 'max'])}({self.number(d)}, {self.number(d)})",
            lambda d: f"(if {self.condition(d)} then {self.number(d)} else {self.number(d)})",
        )

    def condition(self, depth: int) -> str:
        r = self.rng
        return self.pick(
            depth,
            lambda d: r.choice(["won", "true", "false"]),
            lambda d: f"{self.number(d)} {r.choice(['==', '!=', '<', '>='])} {self.number(d)}",
            lambda d: f"({self.condition(d)} {r.choice(['and', 'or'])} {self.condition(d)})",
            lambda d: f"{self.card(d)} {r.choice(['in', 'not in'])} {self.cards(d)}",
            lambda d: f"holds({self.card(d)})",
            lambda d: self.quantified(d),
        )

    def quantified(self, depth: int) -> str:
        name = f"c{len(self.bound)}"
        source = self.cards(depth)
        self.bound.append(name)
        body = self.condition(depth)
        self.bound.pop()
        return f"({self.rng.choice(['any', 'all'])} {name} in {source}: {body})"

    def cards(self, depth: int) -> str:
        r = self.rng
        return self.pick(
            depth,
            lambda d: r.choice(["hand", "taken", "cards", "trumps", "kings", "{}"]),
            lambda d: "{" + ", ".join(self.card(d) for _ in range(r.randint(1, 3))) + "}",
            lambda d: f"({self.cards(d)} {r.choice(['&', '|', '-'])} {self.cards(d)})",
            lambda d: f"(if {self.condition(d)} then {self.cards(d)} else {self.cards(d)})",
        )

    def card(self, depth: int) -> str:
        r = self.rng
        return self.pick(
            depth,
            lambda d: r.choice(["T22", "CK", "T1", *self.bound[-1:]]),
            lambda d: f"{r.choice(['highest', 'lowest'])}({self.cards(d)})",
        )


def _expression(rng: random.Random) -> str:
    if rng.random() < 0.3:
        return _soup(rng)
    writer = _Writer(rng)
    kind = rng.choice([writer.number, writer.condition, writer.cards, writer.card])
    return kind(rng.randint(0, 4))


def test_random_expressions_compile_to_a_dsl_error_or_evaluate_to_a_rule_error() -> None:
    rng = random.Random(SEED)
    compiled = 0
    for _ in range(4000):
        text = _expression(rng)
        try:
            expression = compile_expression(text, SCOPE)
        except DslError as exc:
            assert exc.message and not exc.message.startswith(INTERNAL[2]), text
            continue
        compiled += 1
        env = {
            "hand": frozenset(rng.sample(CARDS, rng.randint(0, 12))),
            "taken": frozenset(rng.sample(CARDS, rng.randint(0, 3))),
            "points": rng.choice([0, 1, -3, 35, 2**53 - 1]),
            "tricks": rng.choice([0, 1, 7]),
            "won": rng.random() < 0.5,
        }
        try:
            bounded(expression, env)
        except RuleError as exc:
            assert exc.reason and exc.expression == text
    assert compiled > 2000
