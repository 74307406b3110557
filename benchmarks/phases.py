"""Breitnau through the interpreter against the same game written by hand behind the same API
(breitnau_by_hand_api.py), phase by phase: where the interpreter's own cost lies.

    python benchmarks/phases.py                 # 1,000 deals, best of 3 rounds
    python benchmarks/phases.py --deals 3000 --repeat 5

Both engines play the same deals with the same choices (tests/test_bench_breitnau.py), driven as
`bench_random_deals.public_deal` drives them. Every call is timed by `time.perf_counter_ns`
(which adds about the same to both) and filed under the step it is: making the game (`Game()`,
the shuffle included), a call of the auction, the call that ends it (and so starts the exchange
or play), a card (the last excepted), the last card (with the settlement). A step's time is the
best of `--repeat` rounds, in µs a deal.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import breitnau_by_hand_api  # noqa: E402

from interpreter import Game, load_ruleset  # noqa: E402

# The steps a deal is divided into, in the order printed.
STEPS = ("making the game", "a call of the auction", "the auction's last call", "a card", "the last card", "other")

Times = Counter[str]  # ns by step, summed over the deals
Counts = Counter[str]  # calls by step


def _step(kind: str, after: str) -> str:
    """The step of an action of `kind` (what was offered: "call", "card" or "other") that left
    the deal in `after` (what is offered next, or "over")."""
    if kind == "call":
        return "a call of the auction" if after == "call" else "the auction's last call"
    if kind == "card":
        return "a card" if after == "card" else "the last card"
    return "other"


def _kind(offer: list[Any]) -> str:
    """What an offer is of: calls (strings), cards to play, or anything else (a discard)."""
    first = offer[0] if offer else None
    if type(first) is str:
        return "call"
    if isinstance(first, dict) and "play" in first:
        return "card"
    return "other"


def _timed_deal(make: Callable[[], Any], seed: int, times: Times, counts: Counts) -> None:
    """One deal of `make()` (an object with the public API), every call timed and filed."""
    clock = time.perf_counter_ns
    start = clock()
    game = make()
    times["making the game"] += clock() - start
    counts["making the game"] += 1
    rng = random.Random(seed)
    choice, sample = rng.choice, rng.sample
    legal_actions, apply = game.legal_actions, game.apply
    # An action's step depends on what follows it, known once the next offer is listed (listing
    # it sooner, untimed, would take its cost off the next call): it is filed then.
    last: tuple[str, int] | None = None  # (what the last action was of, its ns)
    while not game.is_over:
        seat = game.to_act
        start = clock()
        offer = legal_actions(seat)
        listed = clock() - start
        kind = _kind(offer)
        if last is not None:
            _file(_step(last[0], kind), last[1], times, counts)
        action = choice(offer)
        if type(action) is dict:  # a template, filled as public_deal fills it
            for template_kind in ("discard", "keep"):
                template = action.get(template_kind)
                if isinstance(template, dict):
                    action = {template_kind: sample(template["from"], template["count"])}
        start = clock()
        apply(seat, action)
        last = (kind, listed + clock() - start)
    if last is not None:
        _file(_step(last[0], "over"), last[1], times, counts)


def _file(step: str, ns: int, times: Times, counts: Counts) -> None:
    times[step] += ns
    counts[step] += 1


def phase_times(deals: int, repeat: int) -> dict[str, tuple[Times, Counts]]:
    """For each engine, the best over `repeat` rounds of each step's ns (summed over `deals`
    deals), and the calls of each step."""
    ruleset = load_ruleset("breitnau")
    engines: dict[str, Callable[[int], Callable[[], Any]]] = {
        "by hand, API": lambda seed: lambda: breitnau_by_hand_api.HandGame(seed),
        "interpreter": lambda seed: lambda: Game(ruleset, players=6, seed=seed),
    }
    best: dict[str, tuple[Times, Counts]] = {}
    for maker in engines.values():
        for seed in range(10**6, 10**6 + 200):  # warm-up
            _timed_deal(maker(seed), seed, Counter(), Counter())
    for _ in range(repeat):
        for name, maker in engines.items():  # (the engines take turns round by round)
            times: Times = Counter()
            counts: Counts = Counter()
            for seed in range(deals):
                _timed_deal(maker(seed), seed, times, counts)
            if name not in best:
                best[name] = (times, counts)
            else:
                kept = best[name][0]
                for step, ns in times.items():
                    kept[step] = min(kept[step], ns)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per round (default 1000)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; each step's best counts (default 3)")
    args = parser.parse_args(argv)
    best = phase_times(args.deals, args.repeat)
    (hand, hand_counts), (ours, our_counts) = best["by hand, API"], best["interpreter"]
    print(f"Breitnau (6), {args.deals:,} deals, each step's best of {args.repeat} rounds, µs a deal")
    print(f"{'':<26}{'by hand, API':>14}{'interpreter':>13}{'difference':>12}{'calls a deal':>14}")
    for step in STEPS:
        if not hand_counts[step] and not our_counts[step]:
            continue
        a, b = hand[step] / args.deals / 1000, ours[step] / args.deals / 1000
        print(f"{step:<26}{a:>14.1f}{b:>13.1f}{b - a:>+12.1f}{our_counts[step] / args.deals:>14.1f}")
    a, b = sum(hand.values()) / args.deals / 1000, sum(ours.values()) / args.deals / 1000
    print(f"{'the whole deal':<26}{a:>14.1f}{b:>13.1f}{b - a:>+12.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
