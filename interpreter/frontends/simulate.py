"""Play many seeded deals with bots and report what happened.

Reports the contracts bid and how often the lone player wins each, thrown-in deals, and the mean
and spread (standard deviation) of the payments at each seat position. Deal i is shuffled and
played from a seed derived from --seed and i alone, so the same --seed gives the same numbers
whatever --workers is, and on a Dask cluster (--cluster, the optional extra "cluster"). The
speed is reported too: deals per second of wall time and the CPU seconds the deals took, summed
over the workers. A progress bar goes to stderr when it is a terminal.

The deals go out in chunks, a few ahead of the workers, never listed up front (a trillion deals
take the memory of a thousand). A worker process that dies costs time only: its chunks are played
again from the same seeds. A Dask scheduler without workers, or lost on the way, ends the run with
a message saying so within --cluster-timeout seconds.

examples:
  tarock simulate NAME --deals 10000
  tarock simulate NAME --sessions 100 --session-deals 40
  tarock simulate NAME --deals 10000 --workers 4 --json > stats.json
  tarock simulate NAME --deals 1000 --bot random --pass-probability 0.8
  tarock simulate NAME --deals 1000000 --cluster tcp://scheduler:8786
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
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


def _setup_process(ref: str, options: dict[str, str]) -> None:
    """`_setup` in a worker process of this machine's pool. Ctrl-C reaches the workers too (the
    terminal signals its job's whole process group): a worker then ends at once and quietly,
    whatever it was doing, and the main process reports the chunks finished. (Left to Python, a
    worker waiting for its next chunk printed a traceback.)"""
    signal.signal(signal.SIGINT, _end_quietly)
    _setup(ref, options)


def _end_quietly(signum: int, frame: object) -> None:
    os._exit(128 + signum)


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
    from interpreter.bots.randombot import RandomBot, play_out
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
        play_out(game, dict(enumerate(choosers)))
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

CHUNK = 250  # deals in one task at most: a worker sends back one tally per chunk
AHEAD = 2  # chunks handed to each worker ahead of time (more would only wait in a queue)
RETRIES = 3  # pools of worker processes that may break in a row, no chunk finished between
CLUSTER_TIMEOUT = 60.0  # seconds to wait for a Dask scheduler to answer, or for a worker
TLS_NEEDS = (
    "{address}: a tls:// address needs the cluster's TLS certificates, and none are configured: "
    "set DASK_DISTRIBUTED__COMM__TLS__CA_FILE (the cluster's certificate authority), "
    "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT and DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY "
    "(this machine's certificate and its key), or the same keys under distributed.comm.tls in "
    "Dask's configuration file"
)


def chunks(deals: int, size: int) -> Iterator[tuple[int, int]]:
    """Deals 0 … deals-1 as (start, stop) chunks of `size`, made as they are needed: a run of
    10**12 deals is no list of 4·10⁹ chunks."""
    return ((start, min(start + size, deals)) for start in range(0, deals, size))


def chunk_size(deals: int, workers: int) -> int:
    """Eight chunks a worker at least, so that the last ones keep every worker busy."""
    return max(1, min(CHUNK, deals // (max(workers, 1) * 8)))


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
    cluster_timeout: float = CLUSTER_TIMEOUT,
    notice: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Play `deals` deals and return the statistics (see `report`). Deterministic in `seed`:
    everything but `speed` is the same for any `workers` and on a cluster. `cluster` is the
    address of a Dask scheduler (tcp://host:8786); the deals then run on its workers, and
    `cluster_timeout` is how long to wait for it to answer or to have a worker. `notice` is told
    of trouble overcome (a worker process that died: its deals are played again)."""
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
    chunk = chunk_size(deals, workers)
    args = (players, dealer, seed, bot, pass_probability)
    interrupted = False
    try:
        if cluster is not None:
            workers = _on_cluster(cluster, ref, options, deals, args, total, progress, cluster_timeout)
        elif workers <= 1 or deals <= chunk:
            workers = 1
            _setup(ref, options)
            for start, stop in chunks(deals, chunk):
                _merge(total, play_range(start, stop, *args))
                if progress:
                    progress(stop - start)
        else:
            # More processes than chunks or than the machine runs at once only cost memory (the
            # numbers do not depend on it): `--workers 100000` must not start 100000 processes.
            workers = min(workers, -(-deals // chunk), 4 * (os.cpu_count() or 1))
            _in_processes(ref, options, deals, chunk, workers, args, total, progress, notice)
    except KeyboardInterrupt:
        if not total["deals"]:
            raise
        # Ctrl-C in a long run: the figures of the chunks of deals finished are worth having.
        # (They are not those of the first deals of an undisturbed run: with several workers,
        # the chunks finish out of order.)
        interrupted = True
    stats = report(total, ruleset, probe, deals, seed, bot, pass_probability)
    if interrupted:
        stats["interrupted"] = {"asked": deals, "played": total["deals"]}
    played = total["deals"]
    wall = time.perf_counter() - wall_start
    stats["speed"] = {
        "deals_per_second": round(played / wall, 1) if wall > 0 else None,
        "wall_seconds": round(wall, 3),
        "cpu_seconds": round(total["cpu"], 3),
        "deals_per_cpu_second": round(played / total["cpu"], 1) if total["cpu"] > 0 else None,
        "workers": workers,
        **({"cluster": cluster} if cluster is not None else {}),
    }
    return stats


def _in_processes(
    ref: str,
    options: dict[str, str],
    deals: int,
    chunk: int,
    workers: int,
    args: tuple[int, int, int, str, float | None],
    total: dict[str, Any],
    progress: Callable[[int], None] | None,
    notice: Callable[[str], None] | None,
) -> None:
    """Play the deals in chunks on `workers` processes of this machine, a few chunks ahead of
    them. A process that dies (killed, out of memory) breaks the pool: the chunks it and the
    others had not finished are played again by a new pool, from the same seeds, so the numbers
    are those of an undisturbed run. A pool broken again and again before a chunk is done ends
    the run with an error."""
    todo = chunks(deals, chunk)
    lost: list[tuple[int, int]] = []  # chunks of a broken pool, played again first
    broken = 0  # pools broken in a row, no chunk finished in between
    while True:
        failed = False
        with ProcessPoolExecutor(max_workers=workers, initializer=_setup_process, initargs=(ref, options)) as pool:
            running: dict[Future[dict[str, Any]], tuple[int, int]] = {}
            while True:
                while not failed and len(running) < AHEAD * workers:
                    span = lost.pop() if lost else next(todo, None)
                    if span is None:
                        break
                    try:
                        running[pool.submit(play_range, span[0], span[1], *args)] = span
                    except BrokenProcessPool:
                        lost.append(span)
                        failed = True
                if not running:
                    break
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    span = running.pop(future)
                    try:
                        part = future.result()
                    except BrokenProcessPool:
                        lost.append(span)
                        failed = True
                        continue
                    _merge(total, part)
                    broken = 0
                    if progress:
                        progress(span[1] - span[0])
        if not failed:
            return
        broken += 1
        if broken > RETRIES:
            raise TarockError(
                f"the worker processes died {broken} times in a row before finishing a chunk of deals "
                f"(killed, or out of memory?); {total['deals']:,} of {deals:,} deals were played. "
                "Try fewer --workers"
            )
        if notice:
            again = sum(stop - start for start, stop in lost)
            notice(f"a worker process died; its deals and those under way ({again:,}) are played again")


class _TaskFailed(Exception):
    """A task on the cluster raised `args[0]`."""


def _on_cluster(
    address: str,
    ref: str,
    options: dict[str, str],
    deals: int,
    args: tuple[int, int, int, str, float | None],
    total: dict[str, Any],
    progress: Callable[[int], None] | None,
    timeout: float,
) -> int:
    """Play the deals as tasks on the Dask cluster at `address`, a few chunks ahead of its
    workers; returns the most threads it had. Dask itself plays again the tasks of a worker
    that died; a cluster without workers for `timeout` seconds, a scheduler that does not answer
    or goes away, end the run with an error that says so."""
    import importlib
    from concurrent.futures import CancelledError
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
    if address.startswith(("tls://", "wss://")):
        try:
            context = distributed.Security().get_connection_args("client").get("ssl_context")
        except (OSError, ValueError) as exc:  # a certificate configured that cannot be read
            raise TarockError(f"{address}: the TLS certificates configured for Dask cannot be used: {exc}") from None
        if context is None:  # Dask would fail with a TypeError, after a while
            raise TarockError(TLS_NEEDS.format(address=address))
    try:
        client = distributed.Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise TarockError(f"no Dask scheduler answers at {address}: {exc}") from None
    lost = f"lost the Dask scheduler at {address}"
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
            threads = most = int(sum(client.nthreads().values()))
        except TimeoutError:  # raised by Dask as WorkerStartTimeoutError
            raise TarockError(
                f"the Dask scheduler at {address} has no workers: none came within {timeout:g} s "
                f"(start some with `dask worker {address}`, or wait longer with --cluster-timeout)"
            ) from None
        todo = chunks(deals, chunk_size(deals, threads))
        running: dict[Any, tuple[int, int]] = {}
        idle_since: float | None = None  # when the cluster was last seen without workers
        while True:
            while len(running) < AHEAD * max(threads, 1):
                span = next(todo, None)
                if span is None:
                    break
                running[client.submit(cluster_range, ref, options, *span, *args, pure=False)] = span
            if not running:
                break
            try:
                done = distributed.wait(list(running), timeout=min(1.0, timeout), return_when="FIRST_COMPLETED").done
            except TimeoutError:
                done = ()
            for future in done:
                span = running.pop(future)
                if future.status == "error":  # the task's own failure, not the cluster's
                    raise _TaskFailed(future.exception())
                _merge(total, future.result())
                if progress:
                    progress(span[1] - span[0])
            if done:
                continue
            # Nothing finished for a while: the workers may have gone (their tasks wait for new ones).
            threads = int(sum(client.nthreads().values()))
            most = max(most, threads)
            if threads:
                idle_since = None
            elif idle_since is None:
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since > timeout:
                raise TarockError(
                    f"the Dask scheduler at {address} has had no workers for {timeout:g} s; "
                    f"{total['deals']:,} of {deals:,} deals were played (start workers with `dask worker {address}`)"
                )
    except CancelledError:  # Dask cancels every task when the client loses the scheduler
        raise TarockError(f"{lost}; {total['deals']:,} of {deals:,} deals were played") from None
    except OSError as exc:  # a scheduler that no longer answers (CommClosedError is an OSError)
        raise TarockError(f"{lost} ({exc}); {total['deals']:,} of {deals:,} deals were played") from None
    except _TaskFailed as failed:
        error = failed.args[0]
        if isinstance(error, distributed.KilledWorker):
            raise TarockError(
                f"Dask gave up on a chunk of deals: the workers that played it died ({error}); "
                f"{total['deals']:,} of {deals:,} deals were played"
            ) from None
        raise error from None  # as it was raised on the worker (a ruleset it cannot find, say)
    finally:
        client.close(timeout=min(timeout, 5.0))
    return most


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
    out = ", sits out" if seat in game.seats_out else ""  # (shown within the seat's parentheses)
    if seat == game.dealer:
        return "dealer" + out
    if seat == game.vorhand:
        return "Vorhand"
    return f"dealer+{(seat - game.dealer) % game.players}{out}"


def render(stats: dict[str, Any]) -> str:
    n = stats["deals"]
    lines = [
        f"{stats['title']}: {n:,} deals, {stats['players']} at the table, {stats['bot']} bots, seed {stats['seed']}"
    ]
    if "interrupted" in stats:
        asked = stats["interrupted"]["asked"]
        lines.append(f"interrupted: the figures are of the {n:,} deals finished of the {asked:,} asked for")
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
    """A one-line bar on a terminal (within 79 columns, however many the deals); silent otherwise."""

    WIDTH = 79

    def __init__(self, total: int, stream: TextIO | None = None):
        self.total, self.done = total, 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)()) and total > 0
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
        rate = self.done / max(now - self.start, 1e-9)
        left = (self.total - self.done) / rate if rate else 0.0
        text = f" {self.done:,}/{self.total:,} deals {rate:,.0f}/s, {_duration(left)} left"
        width = max(0, min(30, self.WIDTH - 2 - len(text)))
        filled = width * self.done // self.total
        bar = f"[{'#' * filled}{'.' * (width - filled)}]" if width >= 5 else ""
        self.stream.write(f"\r{bar}{text}"[: self.WIDTH + 1].ljust(self.WIDTH + 1))
        self.stream.flush()

    def note(self, text: str) -> None:
        """A line of news for the user (`tarock: TEXT`), on a line of its own above the bar."""
        if self.enabled:
            self.stream.write("\r" + " " * self.WIDTH + "\r")
            self.last = 0.0  # drawn again at the next step
        self.stream.write(f"tarock: {text}\n")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * self.WIDTH + "\r")
            self.stream.flush()


def _duration(seconds: float) -> str:
    """A time left in the unit a person reads it in: 42 s, 35 min, 17 h, 28,935 days."""
    for unit, size, up_to in (("s", 1, 100), ("min", 60, 120 * 60), ("h", 3600, 48 * 3600)):
        if seconds < up_to:
            return f"{seconds / size:.0f} {unit}"
    return f"{seconds / 86400:,.0f} days"


# -- the command ---------------------------------------------------------------------------


def run_sessions(args: argparse.Namespace) -> int:
    from interpreter.frontends.options import parse_options
    from interpreter.frontends.simulate_sessions import parse_signals, render_sessions, simulate_sessions
    from interpreter.language.loader import load_ruleset

    if args.sessions < 1:
        raise TarockError("--sessions must be at least 1")
    if args.session_deals is not None and args.session_deals < 1:
        raise TarockError("--session-deals must be at least 1")
    if args.cluster is not None or args.workers != 1:
        raise TarockError("--sessions are played in this process, one after another: leave out --workers and --cluster")
    if args.pass_probability is not None and not 0 <= args.pass_probability <= 1:
        raise TarockError("--pass-probability must be from 0 to 1")
    ruleset = load_ruleset(args.name, parse_options(args.option))
    players = args.players if args.players is not None else ruleset.table_sizes[0]
    if players not in ruleset.table_sizes:
        raise TarockError(
            f"--players {players}: {ruleset.title} is played by {', '.join(map(str, ruleset.table_sizes))}"
        )
    if not 0 <= args.dealer < players:
        raise TarockError(f"--dealer must be from 0 to {players - 1}, not {args.dealer}")
    stats = simulate_sessions(
        ruleset,
        args.sessions,
        players,
        seed=args.seed,
        dealer=args.dealer,
        bot=args.bot,
        pass_probability=args.pass_probability,
        cap=args.session_deals,
        signals=parse_signals(args.signal),
    )
    print(json.dumps(stats, indent=2, ensure_ascii=False) if args.json else render_sessions(stats))
    return 0


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
    parser.add_argument(
        "--cluster-timeout",
        type=float,
        default=CLUSTER_TIMEOUT,
        metavar="SECONDS",
        help=f"how long to wait for the scheduler to answer and for a worker (default {CLUSTER_TIMEOUT:g})",
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
    parser.add_argument(
        "--sessions",
        type=int,
        metavar="N",
        help="play N whole sessions as the ruleset's session says (who deals, its rounds, its end, its score "
        "sheet) and report each seat's totals over a session, instead of --deals single deals",
    )
    parser.add_argument(
        "--session-deals",
        type=int,
        metavar="N",
        help="with --sessions: after N deals a player asks to stop, and the session ends as its rule says "
        "(needed where sessions end only when a player asks); a session with an end of its own is cut there",
    )
    parser.add_argument(
        "--signal",
        action="append",
        default=[],
        metavar="NAME@DEAL",
        help="with --sessions: give the signal for the round NAME before deal DEAL (from 1) of each session",
    )
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")


def run(args: argparse.Namespace) -> int:
    from interpreter.frontends.options import parse_options

    if args.sessions is not None:
        return run_sessions(args)
    if args.session_deals is not None or args.signal:
        raise TarockError("--session-deals and --signal are for --sessions")
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
    if not args.cluster_timeout > 0:  # not NaN either
        raise TarockError("--cluster-timeout must be a number of seconds above 0")
    bar = ProgressBar(args.deals)
    # Dask's client logs its own lines when it loses the scheduler; the error below says it in one.
    client_log = logging.getLogger("distributed.client")
    level = client_log.level
    client_log.setLevel(logging.CRITICAL)
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
            cluster_timeout=args.cluster_timeout,
            notice=bar.note,
        )
    except InvalidActionError as exc:  # a table size or dealer the ruleset does not allow
        raise TarockError(str(exc)) from None
    finally:
        bar.close()
        client_log.setLevel(level)
    if args.json:
        print(json.dumps(stats, indent=2, ensure_ascii=False))
    else:
        print(render(stats))
    if "interrupted" in stats:
        print("tarock: interrupted", file=sys.stderr)
        return 130  # as the shell says of a command stopped by Ctrl-C
    return 0
