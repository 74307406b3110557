"""Play many seeded deals with bots and report what happened.

Reports the contracts bid and how often the lone player wins each, thrown-in deals, and the mean
and spread (standard deviation) of the payments at each seat position. Deal i is shuffled and
played from a seed derived from --seed and i alone, so the same --seed gives the same numbers
whatever --workers is, and on a Dask cluster (--cluster, the optional extra "cluster"). The
speed is reported too: deals per second of wall time and the CPU seconds the deals took, summed
over the workers. A progress bar goes to stderr when it is a terminal.

examples:
  tarock simulate NAME --deals 10000
  tarock simulate NAME --deals 10000 --workers 4 --json > stats.json
  tarock simulate NAME --deals 1000 --bot random --pass-probability 0.8
  tarock simulate NAME --deals 1000000 --cluster tcp://scheduler:8786
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TYPE_CHECKING, Any, TextIO

from interpreter.engine.seeds import bot_seed, deal_seed
from interpreter.errors import InvalidActionError, TarockError

if TYPE_CHECKING:
    from interpreter.bots.randombot import RandomBot
    from interpreter.bots.rulebot import RuleBot
    from interpreter.engine.game import Game
    from interpreter.engine.settlement import Result
    from interpreter.language.model import Ruleset

BOTS = ("rules", "random")


# -- one worker's share --------------------------------------------------------------------

_WORKER: dict[str, Any] = {}
_SETUP = threading.Lock()  # a Dask worker may run several tasks in threads of one process


def _setup(ref: str, options: dict[str, str], reuse: bool = False) -> None:
    """Load the ruleset in this process; with `reuse`, only if another one is loaded (a Dask
    worker runs many tasks of one simulation)."""
    from interpreter.language.loader import load_ruleset

    key = (ref, tuple(sorted(options.items())))
    with _SETUP:
        if reuse and _WORKER.get("key") == key:
            return
        _WORKER["ruleset"] = load_ruleset(ref, options)
        _WORKER["key"] = key
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
        "cpu": 0.0,  # CPU seconds the deals took (not a statistic: it differs from run to run)
    }


def play_range(
    start: int, stop: int, players: int, dealer: int, seed: int, bot: str, pass_probability: float | None
) -> dict[str, Any]:
    """Play deals start … stop-1 and return their statistics as integer sums (order-free)."""
    from interpreter.bots.randombot import RandomBot
    from interpreter.bots.rulebot import RuleBot
    from interpreter.engine.game import Game

    started = time.thread_time()
    ruleset = _WORKER["ruleset"]
    stats = _empty(players)
    rulebot = _WORKER.setdefault("rulebot", RuleBot())
    for index in range(start, stop):
        game = Game(ruleset, players=players, dealer=dealer, seed=deal_seed(seed, index))
        # Random bots: one per seat, each with a stream of its own (never the shuffle's).
        choosers: list[RandomBot] | list[RuleBot] = (
            [rulebot] * players
            if bot == "rules"
            else [RandomBot(bot_seed(seed, index, s), pass_probability) for s in range(players)]
        )
        while not game.is_over:
            turn = game.to_act
            assert turn is not None  # somebody is to act until the deal is over
            game.apply(turn, choosers[turn].choose(game, turn))
        assert game.result is not None
        _add(stats, game.result)
    stats["cpu"] = time.thread_time() - started
    return stats


def cluster_range(
    ref: str,
    options: dict[str, str],
    start: int,
    stop: int,
    players: int,
    dealer: int,
    seed: int,
    bot: str,
    pass_probability: float | None,
) -> dict[str, Any]:
    """`play_range` as a task on a Dask worker, which loads the ruleset first (once per process)."""
    _setup(ref, options, reuse=True)
    return play_range(start, stop, players, dealer, seed, bot, pass_probability)


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
    into["cpu"] += part["cpu"]


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
    cluster: str | None = None,
) -> dict[str, Any]:
    """Play `deals` deals and return the statistics (see `report`). Deterministic in `seed`:
    everything but `speed` is the same for any `workers` and on a cluster. `cluster` is the
    address of a Dask scheduler (tcp://host:8786); the deals then run on its workers."""
    from interpreter.engine.game import Game
    from interpreter.language.loader import load_ruleset

    wall_start = time.perf_counter()
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
    if cluster is not None:
        workers = _on_cluster(cluster, ref, options, deals, args, total, progress)
    elif workers <= 1 or len(ranges) <= 1:
        workers = 1
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
    stats = report(total, ruleset, probe, deals, seed, bot, pass_probability)
    wall = time.perf_counter() - wall_start
    stats["speed"] = {
        "deals_per_second": round(deals / wall, 1) if wall > 0 else None,
        "wall_seconds": round(wall, 3),
        "cpu_seconds": round(total["cpu"], 3),
        "deals_per_cpu_second": round(deals / total["cpu"], 1) if total["cpu"] > 0 else None,
        "workers": workers,
        **({"cluster": cluster} if cluster is not None else {}),
    }
    return stats


def _on_cluster(
    address: str,
    ref: str,
    options: dict[str, str],
    deals: int,
    args: tuple[int, int, int, str, float | None],
    total: dict[str, Any],
    progress: Callable[[int], None] | None,
) -> int:
    """Play the deals as tasks on the Dask cluster at `address`; returns how many threads it has."""
    import importlib
    from pathlib import Path

    try:
        # Imported by name: an optional extra, and untyped; CI checks types without it too.
        distributed: Any = importlib.import_module("dask.distributed")
    except ImportError:
        raise TarockError(
            'the Dask cluster needs the optional extra "cluster": pip install "tarock[cluster]" '
            '(or pip install ".[cluster]" in the repository)'
        ) from None
    if Path(ref).is_file():
        ref = str(Path(ref).resolve())  # the workers find a ruleset file by its full path
    try:
        client = distributed.Client(address, timeout=20)
    except (OSError, TimeoutError, ValueError) as exc:
        raise TarockError(f"no Dask scheduler answers at {address}: {exc}") from None
    try:
        threads = max(1, int(sum(client.nthreads().values())))
        chunk = max(1, min(250, deals // (threads * 8) or 1))
        ranges = [(i, min(i + chunk, deals)) for i in range(0, deals, chunk)]
        futures = [client.submit(cluster_range, ref, options, a, b, *args, pure=False) for a, b in ranges]
        sizes = {future.key: b - a for future, (a, b) in zip(futures, ranges, strict=True)}
        for future in distributed.as_completed(futures):
            _merge(total, future.result())
            if progress:
                progress(sizes[future.key])
    finally:
        client.close()
    return threads


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


def render(stats: dict[str, Any]) -> str:
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
    speed = stats.get("speed")
    if speed:
        lines.append("")
        workers = speed["workers"]
        where = f" on the cluster {speed['cluster']}" if "cluster" in speed else ""
        over = f" over {workers} worker{'s' if workers != 1 else ''}{where}"
        per_cpu = f", {speed['deals_per_cpu_second']:,.0f} per CPU second" if speed["deals_per_cpu_second"] else ""
        lines.append(
            f"speed: {speed['deals_per_second'] or 0:,.0f} deals/s ({n:,} deals in {speed['wall_seconds']:.1f} s; "
            f"{speed['cpu_seconds']:.1f} CPU seconds{over}{per_cpu})"
        )
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
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help='run the deals on the Dask scheduler at ADDRESS (tcp://host:8786); needs the extra "cluster"',
    )
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
    if args.cluster is not None and args.workers != 1:
        raise TarockError("--workers is for this machine; on a --cluster the cluster's workers play")
    bar = ProgressBar(args.deals)
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
            cluster=args.cluster,
        )
    except InvalidActionError as exc:  # a table size or dealer the ruleset does not allow
        raise TarockError(str(exc)) from None
    finally:
        bar.close()
    if args.json:
        print(json.dumps(stats, indent=2, ensure_ascii=False))
    else:
        print(render(stats))
    return 0
