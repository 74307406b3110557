"""The search bot against the rule bot: mean payment per deal with a 95% confidence interval.

    python benchmarks/search_vs_rules.py breitnau --players 6 --deals 2000 --worlds 8
    python benchmarks/search_vs_rules.py cego --players 4 --deals 2000 --worlds 8

Deal i is played twice from seed i (i = 0 … deals-1): once by rule bots at every seat, once with
the search bot at one seat (turning round the table from deal to deal) and rule bots at the
others. The difference of that seat's payment between the two plays is the search bot's gain on
the deal: paired on the same cards, so the luck of the deal cancels out. The interval is the mean
± 1.96 standard errors.

Every deal's search bot is seeded afresh from the deal's seed, as the protocol's `bot` op seeds
it (interpreter/engine/seeds.py), so a deal plays the same whatever was played before it: the
first N deals of a long run are a run of N deals, and the figures do not depend on the machine,
the clock or PYTHONHASHSEED (tests/test_searchbot.py reruns the README's short run).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import Game, RuleBot, load_ruleset
from interpreter.bots.searchbot import SearchBot
from interpreter.engine.seeds import bot_seed
from interpreter.language.model import Ruleset


@dataclass
class Paired:
    """One deal played twice: the search bot's seat, its payment, the rule bot's in that seat."""

    seat: int
    searched: int
    baseline: int
    searches: int
    fallbacks: int

    @property
    def gain(self) -> int:
        return self.searched - self.baseline


def play_pair(ruleset: Ruleset, players: int, seed: int, worlds: int, rollout: str) -> Paired:
    """Deal `seed` played by rule bots, then with the search bot at seat `seed` mod the playing seats."""
    rules = RuleBot()
    search = SearchBot(worlds=worlds, rollout=rollout, seed=bot_seed(seed, "search"))
    plain = Game(ruleset, players=players, seed=seed)
    seats = [s for s in range(players) if s not in plain.seats_out]
    seat = seats[seed % len(seats)]
    while not plain.is_over:
        turn = plain.to_act
        assert turn is not None
        plain.apply(turn, rules.choose(plain, turn))
    game = Game(ruleset, players=players, seed=seed)
    while not game.is_over:
        turn = game.to_act
        assert turn is not None
        game.apply(turn, (search if turn == seat else rules).choose(game, turn))
    assert plain.result is not None and game.result is not None
    return Paired(seat, game.result.payments[seat], plain.result.payments[seat], search.searched, search.fallbacks)


def interval(values: list[int]) -> str:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    return f"{mean:+.2f} ± {half:.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"


def summary(name: str, players: int, worlds: int, rollout: str, unit: str, pairs: list[Paired]) -> str:
    """One line of figures over the deals so far (without the CPU time, which varies)."""
    return (
        f"{name} ({players}), {len(pairs)} deals (seeds 0 to {len(pairs) - 1}), {worlds} worlds, "
        f"{rollout} rollouts: search seat {interval([p.searched for p in pairs])}; "
        f"rule bot in that seat {interval([p.baseline for p in pairs])}; "
        f"gain {interval([p.gain for p in pairs])} per deal ({unit}); "
        f"{sum(p.searches for p in pairs)} searches, {sum(p.fallbacks for p in pairs)} fell back"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("name")
    parser.add_argument("--players", type=int)
    parser.add_argument("--deals", type=int, default=2000, help="deals played, from seed 0 on (default 2000)")
    parser.add_argument("--worlds", type=int, default=8, help="worlds the search bot draws per card (default 8)")
    parser.add_argument("--rollout", default="rules", choices=("random", "rules"))
    parser.add_argument("--every", type=int, default=250, help="print the figures so far every N deals")
    args = parser.parse_args(argv)
    ruleset = load_ruleset(args.name)
    players = args.players or ruleset.table_sizes[0]
    pairs: list[Paired] = []
    start = time.process_time()
    for seed in range(args.deals):
        pairs.append(play_pair(ruleset, players, seed, args.worlds, args.rollout))
        if (seed + 1) % args.every == 0 or seed + 1 == args.deals:
            figures = summary(args.name, players, args.worlds, args.rollout, ruleset.settlement.unit, pairs)
            print(f"{figures}; {time.process_time() - start:.0f} CPU s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
