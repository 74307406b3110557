"""Play many seeded deals with bots and report what happened.

Reports the contracts bid and how often the lone player wins each, thrown-in deals, and the mean
and spread (standard deviation) of the payments at each seat position. Deal i is shuffled and
played from a seed derived from --seed and i alone, so the same --seed gives the same numbers
whatever --workers is. A progress bar goes to stderr when it is a terminal.

examples:
  tarock simulate NAME --deals 10000
  tarock simulate NAME --deals 10000 --workers 4 --json > stats.json
  tarock simulate NAME --deals 1000 --bot random --pass-probability 0.8
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TYPE_CHECKING, Any, TextIO

from interpreter.errors import InvalidActionError, TarockError

if TYPE_CHECKING:
    from interpreter.bots.randombot import RandomBot
    from interpreter.bots.rulebot import RuleBot
    from interpreter.engine.game import Game
    from interpreter.engine.settlement import Result
    from interpreter.language.model import Ruleset

BOTS = ("rules", "random")


def deal_seed(base: int, index: int) -> int:
    """The shuffle seed of deal `index`: a hash of the base seed and the index."""
    digest = hashlib.blake2b(f"{base}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


# -- one worker's share --------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _setup(ref: str, options: dict[str, str]) -> None:
    from interpreter.language.loader import load_ruleset

    _WORKER["ruleset"] = load_ruleset(ref, options)
    _WORKER.pop("rulebot", None)


def _empty(players: int) -> dict[str, Any]:
    return {
        "deals": 0,
        "outcomes": {},
        "contracts": {},
        "pay_sum": [0] * players,
        "pay_sq": [0] * players,
        "declarer": [0] * players,
        "declarer_won": [0] * players,
    }


def play_range(
    start: int, stop: int, players: int, dealer: int, seed: int, bot: str, pass_probability: float | None
) -> dict[str, Any]:
    """Play deals start … stop-1 and return their statistics as integer sums (order-free)."""
    from interpreter.bots.randombot import RandomBot
    from interpreter.bots.rulebot import RuleBot
    from interpreter.engine.game import Game

    ruleset = _WORKER["ruleset"]
    stats = _empty(players)
    rulebot = _WORKER.setdefault("rulebot", RuleBot())
    for index in range(start, stop):
        s = deal_seed(seed, index)
        game = Game(ruleset, players=players, dealer=dealer, seed=s)
        chooser: RandomBot | RuleBot = rulebot if bot == "rules" else RandomBot(s, pass_probability)
        while not game.is_over:
            turn = game.to_act
            assert turn is not None  # somebody is to act until the deal is over
            game.apply(turn, chooser.choose(game, turn))
        assert game.result is not None
        _add(stats, game.result)
    return stats


def _add(stats: dict[str, Any], result: Result) -> None:
    stats["deals"] += 1
    stats["outcomes"][result.outcome] = stats["outcomes"].get(result.outcome, 0) + 1
    for seat, pay in enumerate(result.payments):
        stats["pay_sum"][seat] += pay
        stats["pay_sq"][seat] += pay * pay
    if result.contract is None:
        return
    c = stats["contracts"].setdefault(result.contract, {"bid": 0, "won": 0, "points": 0, "counted": 0, "lone": 0})
    c["bid"] += 1
    if result.declarer is None:
        return  # everybody for themselves (a Räuber, a Ramsch): no lone player
    c["lone"] += 1
    stats["declarer"][result.declarer] += 1
    if result.declarer_won:
        c["won"] += 1
        stats["declarer_won"][result.declarer] += 1
    if isinstance(result.points, dict) and isinstance(result.points.get("declarer"), int):
        c["points"] += result.points["declarer"]
        c["counted"] += 1


def _merge(into: dict[str, Any], part: dict[str, Any]) -> None:
    into["deals"] += part["deals"]
    for k, v in part["outcomes"].items():
        into["outcomes"][k] = into["outcomes"].get(k, 0) + v
    for name, c in part["contracts"].items():
        mine = into["contracts"].setdefault(name, {"bid": 0, "won": 0, "points": 0, "counted": 0, "lone": 0})
        for k, v in c.items():
            mine[k] += v
    for key in ("pay_sum", "pay_sq", "declarer", "declarer_won"):
        into[key] = [a + b for a, b in zip(into[key], part[key], strict=False)]


# -- the whole run -------------------------------------------------------------------------


def simulate(
    ref: str,
    deals: int,
    players: int | None = None,
    seed: int = 0,
    workers: int = 1,
    bot: str = "rules",
    options: dict[str, str] | None = None,
    dealer: int = 0,
    pass_probability: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play `deals` deals and return the statistics (see `report`). Deterministic in `seed`."""
    from interpreter.engine.game import Game
    from interpreter.language.loader import load_ruleset

    options = dict(options or {})
    ruleset = load_ruleset(ref, options)
    probe = Game(ruleset, players=players, dealer=dealer, seed=0)  # checks players and dealer
    players = probe.players
    if deals < 0:
        raise TarockError("--deals must be 0 or more")
    if bot not in BOTS:
        raise TarockError(f"--bot is one of {', '.join(BOTS)}, not '{bot}'")
    total = _empty(players)
    chunk = max(1, min(250, deals // (max(workers, 1) * 8) or 1))
    ranges = [(i, min(i + chunk, deals)) for i in range(0, deals, chunk)]
    args = (players, dealer, seed, bot, pass_probability)
    if workers <= 1 or len(ranges) <= 1:
        _setup(ref, options)
        for start, stop in ranges:
            _merge(total, play_range(start, stop, *args))
            if progress:
                progress(stop - start)
    else:
        # More processes than chunks or than the machine runs at once only cost memory (the
        # numbers do not depend on it): `--workers 100000` must not start 100000 processes.
        workers = min(workers, len(ranges), 4 * (os.cpu_count() or 1))
        with ProcessPoolExecutor(max_workers=workers, initializer=_setup, initargs=(ref, options)) as pool:
            futures = {pool.submit(play_range, start, stop, *args): stop - start for start, stop in ranges}
            for future in as_completed(futures):
                _merge(total, future.result())
                if progress:
                    progress(futures[future])
    return report(total, ruleset, probe, deals, seed, bot, pass_probability)


def report(
    total: dict[str, Any],
    ruleset: Ruleset,
    probe: Game,
    deals: int,
    seed: int,
    bot: str,
    pass_probability: float | None,
) -> dict[str, Any]:
    """The statistics of `total` (integer sums over the deals) in the shape `simulate` returns."""
    n = total["deals"]
    outcomes = dict(sorted(total["outcomes"].items()))
    contracts = {}
    for name in ruleset.contracts:  # in the ruleset's order
        c = total["contracts"].get(name)
        if c is None:
            continue
        contracts[name] = {
            "title": ruleset.contracts[name].title,
            "bid": c["bid"],
            "share": _ratio(c["bid"], n),
            "declarer_won": c["won"],
            "win_rate": _ratio(c["won"], c["lone"]),
            "mean_declarer_points": _ratio(c["points"], c["counted"]),
        }
    seats = []
    for seat in range(probe.players):
        s, sq = total["pay_sum"][seat], total["pay_sq"][seat]
        mean = s / n if n else 0.0
        var = (sq - s * s / n) / (n - 1) if n > 1 else 0.0
        seats.append(
            {
                "seat": seat,
                "position": _position(seat, probe),
                "mean": round(mean, 4),
                "stdev": round(math.sqrt(max(var, 0.0)), 4),
                "total": s,
                "declarer": total["declarer"][seat],
                "declarer_won": total["declarer_won"][seat],
            }
        )
    thrown = outcomes.get("thrown_in", 0)
    return {
        "ruleset": ruleset.name,
        "title": ruleset.title,
        "options": dict(ruleset.choices),
        "players": probe.players,
        "dealer": probe.dealer,
        "deals": n,
        "seed": seed,
        "bot": bot,
        **({"pass_probability": pass_probability} if bot == "random" and pass_probability is not None else {}),
        "unit": ruleset.settlement.unit,
        "outcomes": outcomes,
        "thrown_in": {"count": thrown, "share": _ratio(thrown, n)},
        "contracts": contracts,
        "seats": seats,
    }


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def _position(seat: int, game: Game) -> str:
    if seat == game.dealer:
        return "dealer (sits out)" if seat == game.sitting_out else "dealer"
    if seat == game.vorhand:
        return "Vorhand"
    return f"dealer+{(seat - game.dealer) % game.players}"


def render(stats: dict[str, Any], elapsed: float | None = None) -> str:
    n = stats["deals"]
    lines = [
        f"{stats['title']}: {n:,} deals, {stats['players']} at the table, {stats['bot']} bots, seed {stats['seed']}"
    ]
    chosen = ", ".join(f"{k}={v}" for k, v in stats["options"].items())
    if chosen:
        lines.append(f"readings and options: {chosen}")
    lines.append("")
    lines.append(f"{'contract':<22}{'bid':>8}{'share':>9}{'lone player wins':>19}{'mean points':>13}")
    for _name, c in stats["contracts"].items():
        win = f"{c['declarer_won']:,} ({_pct(c['win_rate'])})" if c["win_rate"] is not None else "no lone player"
        points = f"{c['mean_declarer_points']:.1f}" if c["mean_declarer_points"] is not None else "—"
        lines.append(f"  {c['title']:<20}{c['bid']:>8,}{_pct(c['share']):>9}{win:>19}{points:>13}")
    thrown = stats["thrown_in"]
    lines.append(f"  {'thrown in':<20}{thrown['count']:>8,}{_pct(thrown['share']):>9}")
    others = {k: v for k, v in stats["outcomes"].items() if k not in ("played", "thrown_in")}
    if others:
        lines.append(
            "  other outcomes: " + ", ".join(f"{k} {v:,} ({_pct(v / n if n else None)})" for k, v in others.items())
        )
    lines.append("")
    lines.append(f"payments per deal ({stats['unit']}), by seat:")
    lines.append(f"  {'seat':<22}{'mean':>9}{'spread (sd)':>13}{'lone player':>13}{'won':>8}")
    for s in stats["seats"]:
        label = f"{s['seat']} ({s['position']})"
        lines.append(f"  {label:<22}{s['mean']:>+9.2f}{s['stdev']:>13.2f}{s['declarer']:>13,}{s['declarer_won']:>8,}")
    if elapsed is not None and elapsed > 0:
        lines.append("")
        lines.append(f"{n:,} deals in {elapsed:.1f} s ({n / elapsed:,.0f} deals/s)")
    return "\n".join(lines)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


class ProgressBar:
    """A one-line bar on a terminal; silent otherwise."""

    def __init__(self, total: int, stream: TextIO | None = None):
        self.total, self.done = total, 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = bool(getattr(stream, "isatty", lambda: False)()) and total > 0
        self.start = time.perf_counter()
        self.last = 0.0

    def __call__(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.last < 0.1 and self.done < self.total:
            return
        self.last = now
        width = 30
        filled = int(width * self.done / self.total)
        rate = self.done / max(now - self.start, 1e-9)
        left = (self.total - self.done) / rate if rate else 0
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done:,}/{self.total:,} deals "
            f"{rate:,.0f}/s, {left:.0f} s left "
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * 79 + "\r")
            self.stream.flush()


# -- the command ---------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", help="ruleset name or file")
    parser.add_argument("--deals", type=int, default=1000, help="how many deals (default 1000)")
    parser.add_argument("--players", type=int, help="people at the table (default: the smallest allowed)")
    parser.add_argument("--dealer", type=int, default=0, help="the dealer's seat in every deal (default 0)")
    parser.add_argument("--seed", type=int, default=0, help="base seed; deal i is seeded from it and i (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="processes to spread the deals over (default 1)")
    parser.add_argument("--bot", choices=BOTS, default="rules", help="who plays every seat (default: rules)")
    parser.add_argument(
        "--pass-probability",
        type=float,
        metavar="P",
        help="random bots pass this often when they may (default: uniform over the legal actions)",
    )
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=CHOICE", help="choose a reading or option"
    )
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")


def run(args: argparse.Namespace) -> int:
    from interpreter.frontends.options import parse_options

    if args.deals < 1:
        raise TarockError("--deals must be at least 1")
    if args.workers < 1:
        raise TarockError("--workers must be at least 1")
    if args.pass_probability is not None and not 0 <= args.pass_probability <= 1:
        raise TarockError("--pass-probability must be from 0 to 1")
    if args.pass_probability is not None and args.bot != "random":
        raise TarockError("--pass-probability is for --bot random")
    bar = ProgressBar(args.deals)
    start = time.perf_counter()
    try:
        stats = simulate(
            args.name,
            args.deals,
            players=args.players,
            seed=args.seed,
            workers=args.workers,
            bot=args.bot,
            options=parse_options(args.option),
            dealer=args.dealer,
            pass_probability=args.pass_probability,
            progress=bar,
        )
    except InvalidActionError as exc:  # a table size or dealer the ruleset does not allow
        raise TarockError(str(exc)) from None
    finally:
        bar.close()
    elapsed = time.perf_counter() - start
    if args.json:
        print(json.dumps(stats, indent=2, ensure_ascii=False))
    else:
        print(render(stats, elapsed))
    return 0
