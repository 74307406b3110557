"""Instructions a deal takes, counted by valgrind's callgrind: the benchmark's figures without the clock.

    python benchmarks/instructions.py                       # the five tables and the yardstick
    python benchmarks/instructions.py --ruleset koenigrufen --players 4 --deals 300

The clock of a shared machine drifts by a third within minutes; the instructions a deal takes
vary by about half a percent between builds (the layout of memory). Each table is run twice under
callgrind (`PYTHONHASHSEED=0`) by the benchmark's own driver (`bench_random_deals.public_deal`,
after its warm-up of 200 deals that fills the ruleset's caches): once with `--deals` deals and
once with none, so that start-up, loading and the warm-up cancel out; the difference divided by
the deals is the figure. The hand-coded Breitnau (`breitnau_by_hand.play_deal`) is counted the same
way. Needs valgrind; a run of 300 deals takes a minute or two.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_random_deals import TABLES  # noqa: E402

# Run under callgrind: warm up, then play the deals of seeds 0 .. deals - 1.
DRIVER = """
import sys
sys.path.insert(0, {here!r})
import bench_random_deals as bench
import breitnau_by_hand
name, players, deals = {name!r}, {players!r}, {deals!r}
if name == "by hand":
    for seed in range(10**6, 10**6 + 200):
        breitnau_by_hand.play_deal(seed)
    for seed in range(deals):
        breitnau_by_hand.play_deal(seed)
else:
    ruleset = bench.load_ruleset(name)
    for seed in range(10**6, 10**6 + 200):
        bench.public_deal(ruleset, players, seed)
    for seed in range(deals):
        bench.public_deal(ruleset, players, seed)
"""


def callgrind_count(script: str) -> int:
    """The instructions callgrind counts for this Python running `script`, with string hashing
    fixed (PYTHONHASHSEED=0: random play follows hash order, so a count would otherwise be of
    other deals at each run). The script is run once before, without callgrind, so that the
    modules it imports are compiled already: the first run after a change writes their compiled
    files, and a count of it would take the compiling in (200k instructions a deal and more)."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, check=True)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", script],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind said no count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def instructions(name: str, players: int, deals: int) -> int:
    """The instructions callgrind counts for the driver playing `deals` deals."""
    return callgrind_count(DRIVER.format(here=str(HERE), name=name, players=players, deals=deals))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", help="only this ruleset; 'by hand' for the yardstick (default: all six)")
    parser.add_argument("--players", type=int, default=None, help="with --ruleset: at the table")
    parser.add_argument("--deals", type=int, default=300, help="deals counted (default 300)")
    args = parser.parse_args(argv)
    tables: list[tuple[str, int]] = [("by hand", 6), *TABLES]
    if args.ruleset:
        tables = [(name, players) for name, players in tables if name == args.ruleset] or [
            (args.ruleset, args.players or 4)
        ]
        if args.players:
            tables = [(tables[0][0], args.players)]
    for name, players in tables:
        per_deal = (instructions(name, players, args.deals) - instructions(name, players, 0)) / args.deals
        print(f"{name} ({players}): {per_deal:,.0f} instructions a deal", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
