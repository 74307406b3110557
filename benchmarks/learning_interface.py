"""The learning interface against the plain API: CPU time per action of the same random deals.

    python benchmarks/learning_interface.py                       # the five tables
    python benchmarks/learning_interface.py --ruleset breitnau --players 6 --deals 1000

A learner's step (`learning_deal`), as an OpenSpiel loop takes it: the seat to act, its legal
action ids, its observation vector, one id chosen at random and applied (`EncodedGame`, engine/
encoding.py). The plain API's (`bench_random_deals.public_deal`): the seat to act, its legal
actions, one chosen at random, applied. Both play the deals of the same seeds to the end; a discard
of twelve cards is one action of the game and twelve steps of the learner (one id per card), so
the figure compared is the time a deal takes, divided by the game's actions: what the learner's
observations and ids cost on top of playing the game.

With `--views`, a third loop is timed beside them: the plain API's deal that also reads, at
each action, the view of the seat to act (`game.view(seat)`), the plain API's own way to let a
program see what the seat sees: the learner's observations against the plain API's.

Timed as bench_random_deals.py times: slices of `--slice` deals taking turns, each slice's best of
`--repeat` rounds, CPU seconds of this process (so the load of a shared machine weighs on both
alike). `--instructions` counts instructions instead, under valgrind's callgrind (as
instructions.py does: a run with the deals and one without, after the same warm-up).
"""

from __future__ import annotations

import argparse
import random
import sys
from array import array
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_random_deals import TABLES, Runner, measure, public_deal, say_if_busy  # noqa: E402
from instructions import callgrind_count  # noqa: E402

from interpreter import Game, load_ruleset  # noqa: E402
from interpreter.engine.encoding import EncodedGame, Encoding  # noqa: E402


def learning_deal(ruleset: Any, players: int, seed: int, encoding: Encoding, copies: bool = False) -> int:
    """One deal by uniform random choices among the legal ids, with the observation of the seat
    to act at every step written into the learner's buffer (`observe_into`; with `copies`, each a
    new list: `observation`); returns the number of the game's actions (a discard counts once).

    The actions are counted as `public_deal` counts them, one at a time as each is completed (a
    step that leaves no discard or keep pending completes one), not by `len(game.history)` at the
    end: the history is handed out as a copy, whose making (about 900 bytecodes a Breitnau deal)
    would be timed in the learner's loop alone."""
    game = Game(ruleset, players=players, seed=seed)
    state = EncodedGame(game, encoding)
    choice = random.Random(seed).choice
    legal, apply = state.legal_actions, state.apply_action
    buffer = array("d", bytes(8 * encoding.observation_size))
    actions = 0
    if copies:
        observation = state.observation
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            observation(seat)
            apply(choice(legal()))
            actions += state.pending is None
        return actions
    observe_into = state.observe_into
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        observe_into(seat, buffer)
        apply(choice(legal()))
        actions += state.pending is None
    return actions


def viewing_deal(ruleset: Any, players: int, seed: int) -> int:
    """`public_deal` (the same choices, so the same deal), reading the view of the seat to act
    before each action; returns the number of actions."""
    game = Game(ruleset, players=players, seed=seed)
    rng = random.Random(seed)
    choice, sample = rng.choice, rng.sample
    legal_actions, apply, view = game.legal_actions, game.apply, game.view
    actions = 0
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view(seat)
        action = choice(legal_actions(seat))
        if type(action) is dict:  # a template, filled as public_deal fills it
            for kind in ("discard", "keep"):
                template = action.get(kind)
                if isinstance(template, dict):
                    action = {kind: sample(template["from"], template["count"])}
        apply(seat, action)
        actions += 1
    return actions


def viewing_runner(name: str, players: int) -> Runner:
    ruleset = load_ruleset(name)
    for seed in range(10**6, 10**6 + 200):
        viewing_deal(ruleset, players, seed)
    return lambda seeds: sum(viewing_deal(ruleset, players, seed) for seed in seeds)


def learning_runner(name: str, players: int, copies: bool = False) -> Runner:
    ruleset = load_ruleset(name)
    encoding = Encoding.of(ruleset, players)
    for seed in range(10**6, 10**6 + 200):  # warm-up, as the plain API's runner has
        learning_deal(ruleset, players, seed, encoding, copies)
    return lambda seeds: sum(learning_deal(ruleset, players, seed, encoding, copies) for seed in seeds)


def plain_runner(name: str, players: int) -> Runner:
    ruleset = load_ruleset(name)
    for seed in range(10**6, 10**6 + 200):
        public_deal(ruleset, players, seed)
    return lambda seeds: sum(public_deal(ruleset, players, seed) for seed in seeds)


DRIVER = """
import sys
sys.path.insert(0, {here!r})
import learning_interface as bench
name, players, deals, learning, copies = {name!r}, {players!r}, {deals!r}, {learning!r}, {copies!r}
run = bench.learning_runner(name, players, copies) if learning else bench.plain_runner(name, players)
run(range(deals))
"""


def instructions(name: str, players: int, deals: int, learning: bool, copies: bool) -> int:
    return callgrind_count(
        DRIVER.format(here=str(HERE), name=name, players=players, deals=deals, learning=learning, copies=copies)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", help="only this ruleset (default: the five tables of bench_random_deals)")
    parser.add_argument("--players", type=int, help="with --ruleset: at the table (default: the smallest allowed)")
    parser.add_argument("--deals", type=int, default=500, help="deals per measurement (default 500)")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds; each slice's best counts (default 5)")
    parser.add_argument("--slice", type=int, default=50, help="deals timed together (default 50)")
    parser.add_argument("--instructions", action="store_true", help="count instructions under callgrind instead")
    parser.add_argument(
        "--copies", action="store_true", help="the learner takes each observation as a new list (observation)"
    )
    parser.add_argument(
        "--views",
        action="store_true",
        help="also time the plain API reading the view of the seat to act at each action",
    )
    args = parser.parse_args(argv)
    if args.ruleset:
        players = args.players or load_ruleset(args.ruleset).table_sizes[0]
        tables: tuple[tuple[str, int], ...] = ((args.ruleset, players),)
    else:
        tables = TABLES
    if args.instructions:
        for name, players in tables:
            plain, learner = (
                (
                    instructions(name, players, args.deals, learn, args.copies)
                    - instructions(name, players, 0, learn, args.copies)
                )
                / args.deals
                for learn in (False, True)
            )
            print(
                f"{name} ({players}): plain {plain:,.0f}, learning {learner:,.0f} instructions a deal: "
                f"{learner / plain:.2f}×",
                flush=True,
            )
        return 0
    runners: dict[str, Runner] = {}
    for name, players in tables:
        runners[f"{name} ({players}) plain"] = plain_runner(name, players)
        runners[f"{name} ({players}) learning"] = learning_runner(name, players, args.copies)
        if args.views:
            runners[f"{name} ({players}) viewing"] = viewing_runner(name, players)
    best = measure(runners, args.deals, args.repeat, args.slice)
    print(f"{args.deals:,} random deals each, in slices of {args.slice}, each slice's best of {args.repeat} rounds")
    print(f"{'':<24}{'µs/action plain':>17}{'µs/action learning':>20}{'learning/plain':>16}")
    for name, players in tables:
        plain, learner = best[f"{name} ({players}) plain"], best[f"{name} ({players}) learning"]
        per_plain, per_learner = plain[0] / plain[2] * 1e6, learner[0] / learner[2] * 1e6
        print(f"{f'{name} ({players})':<24}{per_plain:>17.2f}{per_learner:>20.2f}{per_learner / per_plain:>15.2f}×")
        if args.views:
            viewing = best[f"{name} ({players}) viewing"]
            per_viewing = viewing[0] / viewing[2] * 1e6
            print(
                f"{'':<24}{'with views':>17}{per_viewing:>20.2f}{per_learner / per_viewing:>15.2f}×"
                "  (the plain API reading the seat's view at each action; learning/that)"
            )
    say_if_busy(best)
    return 0


if __name__ == "__main__":
    sys.exit(main())
