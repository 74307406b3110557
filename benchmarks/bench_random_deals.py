"""Deals per CPU second of the interpreter through its public API, against a hand-coded engine.

    python benchmarks/bench_random_deals.py                  # the five rulesets and the yardstick
    python benchmarks/bench_random_deals.py --deals 5000 --repeat 5
    python benchmarks/bench_random_deals.py --ruleset cego --players 4
    python benchmarks/bench_random_deals.py --ruleset breitnau --profile   # cProfile's top functions

Each deal is shuffled from its own seed and played to the end through the public API only:
`game.to_act`, `game.legal_actions(seat)` and `game.apply(seat, action)` for every turn, each
choice uniform among the legal actions and a template ({discard: {count, from}}) filled at
random, the deal, the auction, the exchange, the trick play and the settlement included. The
ruleset is loaded once, before timing, as a program that plays many deals would.

The yardstick is `breitnau_by_hand.py`: the same game as Breitnau with six players written
directly in Python (the same deal, auction, exchange, counting and settlement), which makes the
same random choices as the interpreter for the same seed (tests/test_bench_breitnau.py checks
that every deal ends with the same payments). Beside it, `breitnau_by_hand_api.py` times the same
hand-coded game behind the public API's contract (a new list of legal actions, the action checked,
the history and events written and returned): what any engine behind that API pays, so that the
interpreter's own cost can be told from the API's.

Times are CPU seconds of this process. The deals are timed in slices of `--slice` deals (the
same seeds every time), in `--repeat` rounds; the tables take turns slice by slice (the first
slice by hand, in Breitnau, Furtwangen, ..., then the second), and a table's time is the sum of
each slice's best. Other work on a shared machine, and the machine's own changes of speed,
come and go: they spoil a slice of one round rather than a whole run, and they weigh on every
table alike, on a slow one (whose runs last longer) no more than on a quick one.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import breitnau_by_hand  # noqa: E402
import breitnau_by_hand_api  # noqa: E402

from interpreter import Game, load_ruleset  # noqa: E402

# (ruleset, players): the four and Königrufen, each at a usual table.
TABLES = (("breitnau", 6), ("furtwangen", 6), ("cego", 4), ("tapp-modern", 4), ("koenigrufen", 4))


def public_deal(ruleset: Any, players: int, seed: int) -> int:
    """One deal by uniform random choices through the public API; returns the number of actions."""
    return play_at_random(Game(ruleset, players=players, seed=seed), seed)


def api_deal(seed: int) -> int:
    """The same for the hand-coded Breitnau behind the API (breitnau_by_hand_api.py)."""
    return play_at_random(breitnau_by_hand_api.HandGame(seed), seed)


def play_at_random(game: Any, seed: int) -> int:
    """Play `game` (the interpreter's, or any with its API) to the end by choices uniform among
    the legal actions, drawn from `random.Random(seed)`, a template filled at random; returns the
    number of actions. One loop for every engine timed, so that each pays the same driver."""
    rng = random.Random(seed)
    choice, sample = rng.choice, rng.sample
    legal_actions, apply = game.legal_actions, game.apply
    actions = 0
    while not game.is_over:
        seat = game.to_act
        action = choice(legal_actions(seat))
        if type(action) is dict:  # a template: {discard: {count, from}} or {keep: {count, from}}
            for kind in ("discard", "keep"):
                template = action.get(kind)
                if isinstance(template, dict):
                    action = {kind: sample(template["from"], template["count"])}
        apply(seat, action)
        actions += 1
    return actions


# Plays the deals of some seeds; returns the number of actions taken.
Runner = Callable[[range], int]


def cpu_seconds(run: Runner, seeds: range) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, actions) of one call of `run`."""
    start, start_cpu = time.perf_counter(), time.process_time()
    actions = run(seeds)
    return time.process_time() - start_cpu, time.perf_counter() - start, actions


def by_hand_runner(play: Callable[[int], object] = breitnau_by_hand.play_deal) -> Runner:
    for seed in range(10**6, 10**6 + 200):  # warm-up
        play(seed)

    def run(seeds: range) -> int:
        for seed in seeds:
            play(seed)
        return 0

    return run


def public_runner(name: str, players: int) -> Runner:
    ruleset = load_ruleset(name)
    for seed in range(10**6, 10**6 + 200):  # warm-up: the ruleset's caches filled
        public_deal(ruleset, players, seed)
    return lambda seeds: sum(public_deal(ruleset, players, seed) for seed in seeds)


def measure(runners: dict[str, Runner], deals: int, repeat: int, slice_: int) -> dict[str, tuple[float, float, int]]:
    """(CPU seconds, wall seconds, actions) of each runner's `deals` deals: the sum over slices
    of `slice_` deals of each slice's best (by CPU seconds) of `repeat` rounds. The runners
    take turns slice by slice, so that each slice of each is timed close to the others'."""
    slices = [range(start, min(start + slice_, deals)) for start in range(0, deals, slice_)]
    best: dict[str, list[tuple[float, float, int]]] = {label: [] for label in runners}
    for round_ in range(repeat):
        for i, seeds in enumerate(slices):
            for label, run in runners.items():
                result = cpu_seconds(run, seeds)
                if round_ == 0:
                    best[label].append(result)
                elif result[0] < best[label][i][0]:
                    best[label][i] = result
    return {
        label: (sum(r[0] for r in results), sum(r[1] for r in results), sum(r[2] for r in results))
        for label, results in best.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", help="only this ruleset (name or file); default: the five and the yardstick")
    parser.add_argument("--players", type=int, help="with --ruleset: at the table (default: the smallest allowed)")
    parser.add_argument("--deals", type=int, default=2000, help="deals per measurement (default 2000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds; each slice's best counts (default 5)")
    parser.add_argument("--slice", type=int, default=50, help="deals timed together (default 50)")
    parser.add_argument(
        "--profile", action="store_true", help="profile one run of --ruleset with cProfile and print the top functions"
    )
    args = parser.parse_args(argv)

    if args.ruleset:
        ruleset = load_ruleset(args.ruleset)
        tables: tuple[tuple[str, int], ...] = ((args.ruleset, args.players or ruleset.table_sizes[0]),)
    else:
        tables = TABLES
    if args.profile:
        name, players = tables[0]
        ruleset = load_ruleset(name)
        profiler = cProfile.Profile()
        profiler.enable()
        for seed in range(args.deals):
            public_deal(ruleset, players, seed)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return 0

    runners: dict[str, Runner] = {}
    if not args.ruleset:
        runners["by hand"] = by_hand_runner()
        runners["by hand, API"] = by_hand_runner(api_deal)
    for name, players in tables:
        runners[f"{name} ({players})"] = public_runner(name, players)
    best = measure(runners, args.deals, args.repeat, args.slice)
    yard = args.deals / best["by hand"][0] if "by hand" in best else None
    behind_api = args.deals / best["by hand, API"][0] if "by hand, API" in best else None
    rows = [(label, *result) for label, result in best.items() if not label.startswith("by hand")]
    base = rows[0][3] / rows[0][1]
    print(
        f"{args.deals:,} random deals each, in slices of {args.slice}, each slice's best of {args.repeat} rounds "
        "taking turns, per CPU second of one process"
    )
    print(f"{'':<24}{'deals/s':>10}{'actions/s':>11}{'actions/deal':>14}{'× by hand':>11}{'per action':>12}")
    for label, cpu, _wall, actions in rows:
        rate, action_rate = args.deals / cpu, actions / cpu
        ratio = f"{rate / yard:.2f}" if yard else "—"
        print(
            f"{label:<24}{rate:>10,.0f}{action_rate:>11,.0f}{actions / args.deals:>14.1f}{ratio:>11}"
            f"{base / action_rate:>11.2f}×"
        )
    if yard:
        print(f"{'breitnau by hand (6)':<24}{yard:>10,.0f}{'':>11}{'':>14}{1:>11.2f}")
        if behind_api:
            print(f"{'  behind the API':<24}{behind_api:>10,.0f}{'':>11}{'':>14}{behind_api / yard:>11.2f}")
        print("(× by hand: the interpreter's deals/s over the hand-coded Breitnau's; per action: CPU time per action")
        print(f" relative to {rows[0][0]} through the interpreter)")
        if behind_api and rows[0][0] == "breitnau (6)":
            print(
                f"breitnau (6) through the interpreter: {args.deals / rows[0][1] / behind_api:.2f}× the hand-coded "
                "Breitnau behind the same API (breitnau_by_hand_api.py)"
            )
    say_if_busy(best)
    return 0


def say_if_busy(best: dict[str, tuple[float, float, int]]) -> None:
    """A line when the machine was busy while measuring (wall time well above the CPU time):
    the figures are then to be taken with care."""
    busy = max(wall / cpu for cpu, wall, _ in best.values() if cpu > 0)
    if busy > 1.2:
        print(f"the machine is busy: wall time up to {busy:.1f}× the CPU time")


if __name__ == "__main__":
    sys.exit(main())
