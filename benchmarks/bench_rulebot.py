"""Deals per CPU second played by the rule bot, and how much of that time is the bot's own.

    python benchmarks/bench_rulebot.py                       # Breitnau at six, 2,000 deals
    python benchmarks/bench_rulebot.py --ruleset cego --players 4
    python benchmarks/bench_rulebot.py --profile             # cProfile's top functions

Each deal is played as `tarock simulate NAME --bot rules` plays it: deal i shuffled from the seed
hashed from `--seed` and i, one `RuleBot` choosing for every seat through the public API
(`game.to_act`, `bot.choose(game, seat)`, `game.apply`). The same deals are then replayed twice
without the bot, its actions taken from the first run: once asking, at every turn, for what the
bot reads there (`game.legal_actions(seat)`, and `game.view(seat)` where it has a choice), once
with the engine alone (`Game` and `game.apply`). The three rows give the bot's own share of a
deal, the share of the views and legal actions it reads, and the engine's.

Times are CPU seconds of this process, taken as benchmarks/bench_random_deals.py takes them: in
slices of `--slice` deals, `--repeat` rounds, the three taking turns slice by slice, each
slice's best counted. Each slice is played by a new bot, which has met none of its hands
before (a bot keeps the estimates of the hands it met: a round played again would find them).
`--instructions` counts instructions instead, under valgrind's callgrind (as instructions.py
does): the rule bots' deals, a new bot for each slice, in a run with the deals and one without,
after the same warm-up.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_random_deals import Runner, measure, say_if_busy  # noqa: E402
from instructions import callgrind_count  # noqa: E402

from interpreter import Game, RuleBot, load_ruleset  # noqa: E402
from interpreter.engine.seeds import deal_seed  # noqa: E402

Actions = list[tuple[int, Any]]  # (seat, action), in the order taken


def bot_deal(ruleset: Any, players: int, seed: int, index: int, bot: RuleBot) -> Actions:
    """Deal `index` played by `bot` in every seat; its actions."""
    game = Game(ruleset, players=players, seed=deal_seed(seed, index))
    actions: Actions = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        action = bot.choose(game, seat)
        game.apply(seat, action)
        actions.append((seat, action))
    return actions


def _has_choice(legal: list[Any]) -> bool:
    """Whether the bot looks at its view: more than one action, or a template to fill."""
    first = legal[0]
    return len(legal) > 1 or (isinstance(first, dict) and any(isinstance(value, dict) for value in first.values()))


def replay(ruleset: Any, players: int, seed: int, index: int, actions: Actions, reads: bool) -> None:
    """Deal `index` again with `actions`; with `reads`, asking what the bot reads at each turn."""
    game = Game(ruleset, players=players, seed=deal_seed(seed, index))
    for seat, action in actions:
        if reads and _has_choice(game.legal_actions(seat)):
            game.view(seat)
        game.apply(seat, action)


def runners(name: str, players: int, seed: int, deals: int) -> dict[str, Runner]:
    ruleset = load_ruleset(name)
    warm = RuleBot()
    for index in range(10**6, 10**6 + 50):  # warm-up: the ruleset's and the bot's tables made
        bot_deal(ruleset, players, seed, index, warm)
    played = {index: bot_deal(ruleset, players, seed, index, RuleBot()) for index in range(deals)}

    def by_bot(indices: range) -> int:
        bot = RuleBot()  # a new bot for each slice: none of its hands met before
        return sum(len(bot_deal(ruleset, players, seed, index, bot)) for index in indices)

    def reading(indices: range) -> int:
        for index in indices:
            replay(ruleset, players, seed, index, played[index], True)
        return sum(len(played[index]) for index in indices)

    def engine(indices: range) -> int:
        for index in indices:
            replay(ruleset, players, seed, index, played[index], False)
        return sum(len(played[index]) for index in indices)

    return {"rule bots": by_bot, "engine, views, legal": reading, "engine alone": engine}


DRIVER = """
import sys
sys.path.insert(0, {here!r})
import bench_rulebot as bench
name, players, seed, deals, slice_ = {name!r}, {players!r}, {seed!r}, {deals!r}, {slice_!r}
ruleset = bench.load_ruleset(name)
warm = bench.RuleBot()
for index in range(10**6, 10**6 + 50):
    bench.bot_deal(ruleset, players, seed, index, warm)
for start in range(0, deals, slice_):
    bot = bench.RuleBot()
    for index in range(start, min(start + slice_, deals)):
        bench.bot_deal(ruleset, players, seed, index, bot)
"""


def instructions(name: str, players: int, seed: int, deals: int, slice_: int) -> int:
    """The instructions callgrind counts for the rule bots playing `deals` deals, as `by_bot`
    plays them (a new bot for each slice), after the warm-up of `runners`."""
    return callgrind_count(
        DRIVER.format(here=str(HERE), name=name, players=players, seed=seed, deals=deals, slice_=slice_)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="breitnau", help="ruleset name or file (default breitnau)")
    parser.add_argument("--players", type=int, help="at the table (default: the ruleset's usual table)")
    parser.add_argument("--seed", type=int, default=0, help="the deals' seed, as simulate's --seed (default 0)")
    parser.add_argument("--deals", type=int, default=2000, help="deals per measurement (default 2000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds; each slice's best counts (default 5)")
    parser.add_argument("--slice", type=int, default=50, help="deals timed together (default 50)")
    parser.add_argument("--profile", action="store_true", help="profile the rule bots' deals with cProfile instead")
    parser.add_argument("--instructions", action="store_true", help="count instructions under callgrind instead")
    args = parser.parse_args(argv)

    ruleset = load_ruleset(args.ruleset)
    players = args.players or ruleset.usual_table
    if args.profile:
        bot = RuleBot()
        profiler = cProfile.Profile()
        profiler.enable()
        for index in range(args.deals):
            bot_deal(ruleset, players, args.seed, index, bot)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return 0
    if args.instructions:
        counts = [instructions(args.ruleset, players, args.seed, deals, args.slice) for deals in (args.deals, 0)]
        print(
            f"{args.ruleset} ({players}) by rule bots, seed {args.seed}: "
            f"{(counts[0] - counts[1]) / args.deals:,.0f} instructions a deal",
            flush=True,
        )
        return 0

    best = measure(runners(args.ruleset, players, args.seed, args.deals), args.deals, args.repeat, args.slice)
    whole = best["rule bots"][0]
    print(
        f"{args.deals:,} deals of {args.ruleset} ({players}) by rule bots, seed {args.seed}, in slices of "
        f"{args.slice}, each slice's best of {args.repeat} rounds taking turns, per CPU second of one process"
    )
    print(f"{'':<24}{'deals/s':>10}{'µs/deal':>10}{'of a deal':>11}")
    for label, (cpu, _wall, _actions) in best.items():
        print(f"{label:<24}{args.deals / cpu:>10,.0f}{cpu / args.deals * 1e6:>10,.0f}{cpu / whole:>11.0%}")
    reading, engine = best["engine, views, legal"][0], best["engine alone"][0]
    print(
        f"of a deal by rule bots: the bot {1 - reading / whole:.0%}, the views and legal actions it reads "
        f"{(reading - engine) / whole:.0%}, the engine {engine / whole:.0%}"
    )
    say_if_busy(best)
    return 0


if __name__ == "__main__":
    sys.exit(main())
