"""The bots of the web tables think away from the server's event loop, so that a table waiting
for a bot never delays another (issue 34).

A bot's turn is a `Decision`: the deal as dealt (`Game.record()` before its first action: the
ruleset's name and options, the cards), every action since, whose turn it is, the kind of bot,
its time budget and its seed. The game is rebuilt from it, apart from the table's own (which
people may change meanwhile: a call out of turn), and the bot chooses there, reading only its
seat's view and legal actions, as at the table. Where the choice is cheap (the rule bot's, and
the search bot's outside the card play, where it bids and exchanges as the rule bot does) it
runs in a thread, which keeps each table's rebuilt game from one choice to the next and only
applies the actions that came since; the search bot's card play, which takes its whole budget,
runs in a process of a pool sized to the cores, its priority lowered so that the server itself,
and the people's tables, come first.

The search bot remembers its own earlier turns of the deal (its hand as dealt, its exchange):
the rebuilt game shows it those turns again, as it saw them, before it chooses.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import sys
import threading
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any

from interpreter.bots.rulebot import RuleBot
from interpreter.bots.searchbot import SearchBot
from interpreter.engine.actions import ActionJson
from interpreter.engine.game import Game
from interpreter.language.model import Ruleset

WORLDS = 16  # deals a search bot samples for one card, at most (fewer when its time is up first)
NICE = 10  # how much lower the worker processes' priority is than the server's
WAIT = 60.0  # seconds a table waits for a worker's answer (its queue included); then the rule bot chooses
GAMES_KEPT = 256  # tables whose game the rule bot's thread keeps between choices


@dataclass(frozen=True)
class Decision:
    """One bot's turn at a table."""

    table: str  # the table's id
    deal: int  # the deal's number in the session
    start: dict[str, Any]  # the deal as dealt: Game.record() before its first action
    actions: list[list[Any]]  # every action of the deal so far, [seat, action]
    seat: int  # whose turn it is
    bots: str  # "rules" or "search"
    seconds: float  # the search bot's time for this choice
    seed: int | None  # its random stream (None: from the operating system)
    cheap: bool  # a choice the rule bot makes: no search

    @property
    def at(self) -> tuple[int, int]:
        """Where the table was: the table applies the choice only where it still is."""
        return self.deal, len(self.actions)


@dataclass(frozen=True)
class Choice:
    action: ActionJson
    searched: bool  # whether the search bot searched for it


def choose(decision: Decision, ruleset: Ruleset | None = None) -> Choice:
    """The bot's choice in the game rebuilt from the decision, the bot shown its own earlier
    turns. `ruleset`: the table's own (in a thread of the server); a worker process loads it by
    the name and options the record gives."""
    game = _dealt(decision, ruleset)
    if decision.bots == "rules":
        for acting, action in decision.actions:
            game.apply(acting, action)
        return Choice(_RULES.choose(game, decision.seat), False)
    bot = SearchBot(worlds=WORLDS, seconds=decision.seconds, seed=decision.seed)
    for acting, action in decision.actions:
        if acting == decision.seat and game.view(acting)["phase"] != "play":
            bot.choose(game, acting)  # the rule bot's choice, remembered as at the table
        game.apply(acting, action)
    action = bot.choose(game, decision.seat)
    return Choice(action, bot.searched > bot.fallbacks)


def _dealt(decision: Decision, ruleset: Ruleset | None) -> Game:
    """The decision's deal as dealt, before any action (or its seed, where the dealer's choice
    of how to deal it is the first action)."""
    start = decision.start
    if ruleset is None:
        ruleset = _ruleset(start["ruleset"], tuple(sorted((start.get("options") or {}).items())))
    return Game(
        ruleset,
        players=start["players"],
        dealer=start["dealer"],
        deal=start.get("deal"),
        seed=start.get("seed"),
        pot=start.get("pot"),
    )


_RULES = RuleBot()  # stateless between choices but for a bounded cache of its estimates
_LOADED: dict[tuple[str, tuple[tuple[str, str], ...]], Ruleset] = {}


def _ruleset(name: str, options: tuple[tuple[str, str], ...]) -> Ruleset:
    """A worker's rulesets, each loaded once."""
    if (name, options) not in _LOADED:
        from interpreter.language.loader import load_ruleset

        _LOADED[name, options] = load_ruleset(name, dict(options))
    return _LOADED[name, options]


def _start_worker() -> None:
    """A worker process: below the server in priority; Ctrl-C is the server's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(os, "nice"):
        os.nice(NICE)


def _warm(name: str, options: tuple[tuple[str, str], ...]) -> None:
    _ruleset(name, options)


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class Thinkers:
    """The bots' threads and the search bots' worker processes of one server (started when a
    table first needs them)."""

    def __init__(self, workers: int | None = None):
        self.workers = workers or cores()
        self.threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tarock-bot")
        self._pool: ProcessPoolExecutor | None = None
        # Each table's game as the rule bot last chose in it: (deal, game, actions applied). A
        # table's choices come one after another, never two at once.
        self._games: OrderedDict[str, tuple[int, Game, int]] = OrderedDict()
        self._lock = threading.Lock()

    def _rule_choice(self, decision: Decision, ruleset: Ruleset) -> Choice:
        """The rule bot's choice, in the table's game kept from its last choice (in a thread)."""
        with self._lock:
            kept = self._games.pop(decision.table, None)
        if kept is None or kept[0] != decision.deal or kept[2] > len(decision.actions):
            kept = (decision.deal, _dealt(decision, ruleset), 0)
        deal, game, applied = kept
        for acting, action in decision.actions[applied:]:
            game.apply(acting, action)
        choice = Choice(_RULES.choose(game, decision.seat), False)
        with self._lock:
            self._games[decision.table] = (deal, game, len(decision.actions))
            while len(self._games) > GAMES_KEPT:
                self._games.popitem(last=False)
        return choice

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Spawned, not forked: the server's threads and sockets are not copied into them.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_start_worker)
        return self._pool

    def warm(self, ruleset: Ruleset, options: dict[str, str]) -> None:
        """Start the workers, each loading the ruleset, before the first card is searched."""
        pool = self.pool()
        for _ in range(self.workers):
            pool.submit(_warm, ruleset.name, tuple(sorted(options.items())))

    async def choose(self, decision: Decision, ruleset: Ruleset) -> Choice:
        """The bot's choice, thought out in a thread or a worker process."""
        loop = asyncio.get_running_loop()
        if decision.cheap and decision.bots == "rules":
            return await loop.run_in_executor(self.threads, self._rule_choice, decision, ruleset)
        if decision.cheap:  # the search bot's bid or exchange: it is shown its own earlier turns
            return await loop.run_in_executor(self.threads, choose, decision, ruleset)
        for _ in range(2):  # a worker that died is replaced once
            pool = self.pool()
            try:
                return await asyncio.wait_for(loop.run_in_executor(pool, choose, decision), WAIT)
            except BrokenProcessPool:
                print("tarock web: a bot's worker process died; starting new ones", file=sys.stderr)
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            except TimeoutError:
                print(f"tarock web: no worker answered within {WAIT:g} s; the rule bot chooses", file=sys.stderr)
                break
        cheap = replace(decision, bots="rules", cheap=True)
        return await loop.run_in_executor(self.threads, self._rule_choice, cheap, ruleset)

    def forget(self, table: str) -> None:
        """Drop what is kept of a table that was closed."""
        with self._lock:
            self._games.pop(table, None)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self.threads.shutdown(wait=False, cancel_futures=True)
