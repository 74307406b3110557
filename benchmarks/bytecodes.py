"""Python bytecodes a deal executes, by function: the benchmark's work in a count that does not move.

    python benchmarks/bytecodes.py                         # the five tables and the yardstick
    python benchmarks/bytecodes.py --ruleset breitnau --players 6 --deals 300 --top 25

Callgrind's instructions (instructions.py) change by ±10-25k a deal with the layout of memory,
so a change smaller than that cannot be seen in them. Bytecodes do not change that way: the same
code and the same deals run the same bytecodes, run after run. Every opcode the interpreter
executes in Python code is counted by `sys.settrace` with opcode events, keyed by the function
it belongs to. The deals are the benchmark's own (`bench_random_deals.public_deal`, after a
warm-up that fills the ruleset's caches); the hand-coded Breitnau (`breitnau_by_hand.play_deal`)
is counted the same way.

A bytecode's cost is not fixed. A call, an object made or a C function such as `sorted` is one
bytecode, and code a deal runs once runs colder than code it runs at every card. So read the
counts beside the clock and the instructions, not instead of them. Tracing makes a deal some
twenty times slower: 300 deals of a table take a few seconds.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import breitnau_by_hand  # noqa: E402
from bench_random_deals import TABLES, public_deal  # noqa: E402

from interpreter import load_ruleset  # noqa: E402

BY_HAND = "by hand"


def count(play: Callable[[int], object], seeds: range) -> Counter[str]:
    """The bytecodes `play(seed)` executes for each seed of `seeds`, summed, by function
    ("file:function")."""
    counts: Counter[str] = Counter()

    def call(frame: FrameType, event: str, arg: Any) -> Callable[..., Any]:
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        key = f"{Path(frame.f_code.co_filename).name}:{frame.f_code.co_name}"

        def step(frame: FrameType, event: str, arg: Any) -> Callable[..., Any]:
            if event == "opcode":
                counts[key] += 1
            return step

        return step

    sys.settrace(call)
    try:
        for seed in seeds:
            play(seed)
    finally:
        sys.settrace(None)
    return counts


def player(name: str, players: int) -> Callable[[int], object]:
    """One deal of the table by its seed, warmed up as the benchmark warms it up."""
    if name == BY_HAND:
        play: Callable[[int], object] = breitnau_by_hand.play_deal
    else:
        ruleset = load_ruleset(name)

        def play(seed: int) -> object:
            return public_deal(ruleset, players, seed)

    for seed in range(10**6, 10**6 + 100):
        play(seed)
    return play


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", help=f"only this ruleset; {BY_HAND!r} for the yardstick (default: all six)")
    parser.add_argument("--players", type=int, help="with --ruleset: at the table (default: the benchmark's)")
    parser.add_argument("--deals", type=int, default=300, help="deals counted (default 300)")
    parser.add_argument("--top", type=int, default=0, help="also the functions that run the most bytecodes")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    tables = [(BY_HAND, 6), *TABLES]
    if args.ruleset:
        usual = dict(tables).get(args.ruleset)
        players = args.players or usual
        if players is None:
            parser.error(f"--players is needed for {args.ruleset!r} (the benchmark has no usual table for it)")
        tables = [(args.ruleset, players)]
    for name, players in tables:
        counts = count(player(name, players), range(args.deals))
        print(f"{name} ({players}): {sum(counts.values()) / args.deals:,.0f} bytecodes a deal", flush=True)
        for function, n in counts.most_common(args.top):
            print(f"  {n / args.deals:10,.1f}  {function}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
