"""The search bot against the rule bot: mean payment per deal with a 95% confidence interval.

    python benchmarks/search_vs_rules.py breitnau --players 6 --deals 2000 --worlds 8
    python benchmarks/search_vs_rules.py cego --players 4 --deals 2000

Each deal is played twice from the same seed: once by rule bots at every seat, once with the
search bot at one seat (turning round the table from deal to deal) and rule bots at the others.
The difference of that seat's payment between the two plays is the search bot's gain on the
deal: paired on the same cards, so the luck of the deal cancels out. The interval is the mean
± 1.96 standard errors.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import Game, RuleBot, load_ruleset
from interpreter.bots.searchbot import SearchBot


def interval(values: list[float]) -> str:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    return f"{mean:+.2f} ± {half:.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name")
    parser.add_argument("--players", type=int)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--worlds", type=int, default=8)
    parser.add_argument("--rollout", default="rules", choices=("random", "rules"))
    parser.add_argument("--every", type=int, default=250, help="print the figures so far every N deals")
    args = parser.parse_args(argv)
    ruleset = load_ruleset(args.name)
    players = args.players or ruleset.table_sizes[0]
    rules, search = RuleBot(), SearchBot(worlds=args.worlds, rollout=args.rollout, seed=1)
    gains: list[float] = []
    searched: list[float] = []
    baseline: list[float] = []
    start = time.process_time()
    for seed in range(args.deals):
        plain = Game(ruleset, players=players, seed=seed)
        seats = [s for s in range(players) if s != plain.sitting_out]
        seat = seats[seed % len(seats)]
        while not plain.is_over:
            turn = plain.to_act
            plain.apply(turn, rules.choose(plain, turn))
        game = Game(ruleset, players=players, seed=seed)
        while not game.is_over:
            turn = game.to_act
            game.apply(turn, (search if turn == seat else rules).choose(game, turn))
        assert plain.result is not None and game.result is not None
        baseline.append(plain.result.payments[seat])
        searched.append(game.result.payments[seat])
        gains.append(searched[-1] - baseline[-1])
        if (seed + 1) % args.every == 0 or seed + 1 == args.deals:
            print(
                f"{args.name} ({players}), {seed + 1} deals, {args.worlds} worlds, {args.rollout} rollouts: "
                f"search seat {interval(searched)}; rule bot in that seat {interval(baseline)}; "
                f"gain {interval(gains)} per deal ({ruleset.settlement.unit}); "
                f"{search.searched} searches, {search.fallbacks} fell back; "
                f"{time.process_time() - start:.0f} CPU s",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
