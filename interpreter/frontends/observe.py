"""`tarock observe NAME`: write down a game as it is played at a table, checked as it comes.

Type what happens, in the order it happens: a call (`pass`, a bid), a card played (`T21`,
`hk`), each by the seat whose turn it is, or with the seat first (`3 pass`, `2 CJ`) for a call
out of turn. Other actions: `discard C7 H4 …` and `keep T6 T4` (cards seen laid away or kept; ones nobody saw are left out),
`announce NAME CARD…`, `choose clubs`, or any action as YAML (`{call_card: CK}`). Where the
dealer chooses how to deal (deal.choice), that choice comes first: `choose dapp_first`. The hands are
not asked for: each entry is checked against everything known so far (engine/observation.py),
so a seat that did not follow suit is caught as soon as it plays that suit. On a departure from
the ruleset you are asked whether it was a slip of entry (the entry is dropped; type it again)
or what the table does (kept in the record under `departures:`, with your note).

Commands: `undo` (drop the last entry), `talon CARDS` (the talon, if it was seen afterwards),
`hand SEAT CARDS` (cards known to be in a seat's hand), `record` (the record so far), `help`,
`save` / `quit` (write the record to -o FILE, or print it).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from interpreter.engine.game import Game
from interpreter.engine.observation import Departure, Observation, ObservedGame, shown_action
from interpreter.engine.phase import Phase
from interpreter.engine.records import dump_record
from interpreter.errors import RulesetError
from interpreter.frontends.options import parse_options
from interpreter.frontends.output import check_writable
from interpreter.language.loader import load_ruleset
from interpreter.language.model import Ruleset
from interpreter.language.source import load_yaml

SUMMARY = "write down a game observed at a table, checked as it comes"
HELP = __doc__.split("\n\n", 1)[1] if __doc__ else ""
MAX_ENTRY = 2000  # characters of one entry; an action written out whole takes a few dozen


def read_entry(text: str) -> Any:
    """An action written as YAML or JSON (`{call_card: CK}`), read as rulesets and records are
    (`source.load_yaml`: nesting, size and number limits, no Python tags, keys that are names).
    Raises ValueError with the column and the reason; nothing else, whatever the text."""
    if len(text) > MAX_ENTRY:
        raise ValueError(f"an entry of {len(text):,} characters is too long (at most {MAX_ENTRY:,})")
    try:
        return load_yaml(text, "entry").data
    except RulesetError as exc:
        problem = exc.problems[0]
        where = f"column {problem.column}: " if problem.line == 1 and problem.column is not None else ""
        raise ValueError(f"{where}{problem.path + ': ' if problem.path else ''}{problem.message}") from None


def _number(word: str) -> int | None:
    """A seat typed as a number (ASCII digits, a few of them), or None if `word` is none."""
    return int(word) if re.fullmatch(r"[0-9]{1,6}", word) else None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", metavar="NAME", help="the ruleset the table is thought to play (a name or file)")
    parser.add_argument("--players", type=int, help="people at the table (default: the variant's usual table)")
    parser.add_argument("--dealer", type=int, default=0, help="the dealer's seat (default 0)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=CHOICE", help="a reading or option")
    parser.add_argument("-o", "--output", metavar="FILE", help="where the record is written (default: printed)")
    parser.add_argument("--by", help="who observed the game (kept in the record)")
    parser.add_argument("--where", help="where and when it was played (kept in the record)")


class Scribe:
    """The record being written and its checks; `entry` takes one line of input."""

    def __init__(
        self,
        ref: str,
        ruleset: Ruleset,
        players: int,
        dealer: int,
        options: dict[str, str],
        ask: Any,
        say: Any,
        observed: dict[str, Any] | None = None,
    ):
        # A table the ruleset does not allow is refused (TableError) before anything is sized by it.
        probe = Game(ruleset, players, dealer, seed=0)
        # Where the dealer first chooses how to deal (deal.choice), the plans to choose from, and
        # who speaks first once dealt: an entry without a seat that is no choice is that seat's
        # (the choice was not heard, or the deal was given).
        self.plans = (
            [a["choose"] for a in probe.legal_actions() if isinstance(a, dict)] if probe.phase is Phase.DEAL else []
        )
        if self.plans:
            probe.apply(dealer, probe.legal_actions()[0])
        self.first_speaker = probe.to_act
        self.ref, self.ruleset, self.players, self.dealer, self.options = ref, ruleset, players, dealer, options
        self.ask, self.say = ask, say
        self.actions: list[list[Any]] = []
        self.departures: list[dict[str, Any]] = []
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.talon: list[str] | None = None
        self.observed: dict[str, Any] = dict(observed or {})
        self.found: Observation = self.check()

    # -- the checks ------------------------------------------------------------------------------
    def check(self, actions: list[list[Any]] | None = None) -> Observation:
        game = ObservedGame(
            self.ruleset,
            self.players,
            self.dealer,
            self.actions if actions is None else actions,
            hands=self.hands,
            talon=self.talon,
            noted={d["at"] for d in self.departures},
        )
        return game.replay()

    def parse(self, line: str) -> tuple[int | None, Any]:
        """An entry: the seat (None: whose turn it is) and the action."""
        words = line.split()
        seat: int | None = None
        if words and words[0].isdigit():
            seat = self.seat(words[0], "3 pass")
            words = words[1:]
            line = line.split(None, 1)[1] if len(line.split(None, 1)) > 1 else ""
        if not words:
            raise ValueError("an action is missing")
        deck = self.ruleset.deck
        ids = {c.upper(): c for c in deck.cards}
        first = words[0]
        if line.lstrip().startswith("{"):
            return seat, read_entry(line.strip())
        if first in ("discard", "keep"):
            return seat, {first: [self.card(w, ids) for w in words[1:]]}
        if first == "announce" and len(words) >= 2:
            return seat, {"announce": words[1], "cards": [self.card(w, ids) for w in words[2:]]}
        if first in ("choose", "call_card", "give") and len(words) == 2:
            return seat, {first: words[1] if first == "choose" else self.card(words[1], ids)}
        if len(words) == 1 and first.upper() in ids:
            return seat, {"play": ids[first.upper()]}
        if len(words) == 1:
            return seat, first
        raise ValueError(f"cannot read '{line}' (type help)")

    def seat(self, word: str, example: str) -> int:
        """A seat typed as a number; ValueError saying which seats there are otherwise."""
        seat = _number(word)
        if seat is None or not 0 <= seat < self.players:
            shown = word if len(word) <= 12 else word[:11] + "…"
            raise ValueError(f"no seat '{shown}': the seats are 0 to {self.players - 1} ({example})")
        return seat

    @staticmethod
    def card(word: str, ids: dict[str, str]) -> str:
        if word.upper() not in ids:
            raise ValueError(f"no card '{word}'")
        return ids[word.upper()]

    def to_act(self) -> int | None:
        game = self.found.game
        return game.to_act if game is not None and self.found.stopped_at is None else None

    def prompt(self) -> str:
        game = self.found.game
        if game is None:
            return "> "
        if game.is_over:
            return "the deal is over (talon CARDS, save) > "
        phase = game.phase.value
        if game.phase is Phase.DEAL:
            plans = " or ".join(f"choose {name}" for name in self.plans)
            return f"{phase}: seat {game.to_act}, the dealer, chooses ({plans}) > "
        if game.phase is Phase.EXCHANGE:
            return f"{phase}: seat {game.to_act} (leave out a discard nobody saw) > "
        trick = ""
        if game.current_trick is not None:
            shown = " ".join(game.current_trick.cards)
            trick = f" trick {game.trick_number}{': ' + shown if shown else ''},"
        return f"{phase}:{trick} seat {game.to_act} > "

    # -- an entry --------------------------------------------------------------------------------
    def enter(self, seat: int | None, action: Any) -> None:
        """Take one action: checked with everything known; a departure asked about."""
        if seat is None:
            seat = self.to_act()
            game = self.found.game
            if game is not None and game.phase is Phase.DEAL and not (isinstance(action, dict) and "choose" in action):
                seat = self.first_speaker  # the dealer's choice not written down: the deal starts dealt
            if seat is None:
                self.say("whose action is it? type the seat first (e.g. `3 pass`)")
                return
        trial = [*self.actions, [seat, action]]
        found = self.check(trial)
        known = {d["at"] for d in self.departures}
        new = [d for d in found.departures if d.at not in known]
        other = [(at, text) for at, text in found.failures if at not in {d.at for d in new}]
        if other:
            at, text = other[0]
            if at is None or at < len(self.actions):
                # The entry typed is what is refused, though the check stopped earlier: with it,
                # no deal agreeing with everything seen lets the earlier entries be played.
                entry = f"action {len(self.actions)} {_shown(seat, action)}"
                text = f"{entry} does not fit what was entered before it: {text}"
            self.say(f"not taken: {text}")
            return
        for departure in new:
            if not departure.certain:
                if departure.at == len(self.actions):  # said once, when the card is entered
                    self.say(f"taken, with a doubt: {departure.reason}")
                continue
            if not self.judge(departure):
                return
        self.actions = trial
        # The same facts give the same replay (its draws are seeded): checked again only when a
        # departure was kept as the table's rule, which the replay then lets pass.
        self.found = self.check() if new else found
        game = self.found.game
        if game is not None and game.is_over and game.result is not None:
            self.say(f"the deal is over: {game.result.outcome}; payments {game.result.payments}")

    def judge(self, departure: Departure) -> bool:
        """Ask whether a departure was a slip of entry (False: the entry is dropped) or the
        table's rule (True: kept, with a note)."""
        self.say(f"departure at action {departure.at}: {departure.reason}")
        while True:
            answer = self.ask("a slip of entry (s), or does the table play so (t)? ").strip().lower()
            if answer in ("s", "slip"):
                self.say("dropped; type the entry again")
                return False
            if answer in ("t", "table"):
                note = self.ask("what the table says (a note, may be empty): ").strip()
                self.departures.append(departure.as_record(note))
                self.departures.sort(key=lambda d: int(d["at"]))
                return True
            self.say("answer s or t")

    def record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"ruleset": self.ref}
        if self.options:
            record["options"] = dict(self.options)
        observed = dict(self.observed)
        if any(self.hands):
            observed["hands"] = self.hands
        if self.talon is not None:
            observed["talon"] = self.talon
        record.update(players=self.players, dealer=self.dealer, observed=observed, actions=self.actions)
        if self.departures:
            record["departures"] = self.departures
        game = self.found.game
        if game is not None and game.is_over and game.result is not None and self.found.stopped_at is None:
            expect: dict[str, Any] = {"outcome": game.result.outcome}
            if game.result.contract:
                expect["contract"] = game.result.contract
            if game.result.declarer is not None:
                expect["declarer"] = game.result.declarer
            record["expect"] = expect
        return record

    def command(self, line: str) -> bool | None:
        """A command (True: go on, False: stop), or None if `line` is an entry."""
        words = line.split()
        ids = {c.upper(): c for c in self.ruleset.deck.cards}
        if words[0] == "help":
            self.say(HELP)
        elif words[0] == "undo":
            if self.actions:
                dropped = self.actions.pop()
                self.departures = [d for d in self.departures if d["at"] < len(self.actions)]
                self.found = self.check()
                self.say(f"dropped {dropped}")
        elif words[0] == "talon":
            talon = [self.card(w, ids) for w in words[1:]]
            old_talon = self.talon

            def put_talon(cards: list[str] | None) -> Callable[[], None]:
                return lambda: setattr(self, "talon", cards)

            self.learn(put_talon(talon), put_talon(old_talon))
        elif words[0] == "hand" and len(words) >= 2:
            seat = self.seat(words[1], "hand SEAT CARDS")
            hand = [self.card(w, ids) for w in words[2:]]
            old_hand = self.hands[seat]
            self.learn(lambda: self.hands.__setitem__(seat, hand), lambda: self.hands.__setitem__(seat, old_hand))
        elif words[0] == "record":
            self.say(dump_record(self.record()).rstrip())
        elif words[0] in ("save", "quit", "end"):
            return False
        else:
            return None
        return True

    def learn(self, apply: Callable[[], None], undo: Callable[[], None]) -> None:
        """Take a fact (the talon, a known hand) if the game so far still agrees with it;
        otherwise say why and keep what was known before."""
        before = self.found
        apply()
        found = self.check()
        fresh = [text for _, text in found.failures if text not in {t for _, t in before.failures}]
        if fresh:
            undo()
            self.say(f"not taken: {fresh[0]}")
            return
        self.found = found
        self.say("taken")


def run(args: argparse.Namespace) -> int:
    if args.output:
        check_writable(args.output, "-o")  # before the first entry, not after an evening's work
    options = parse_options(args.option)
    ruleset = load_ruleset(args.ruleset, options)
    players = args.players if args.players is not None else ruleset.usual_table
    observed = {k: v for k, v in (("by", args.by), ("where", args.where)) if v}
    out: TextIO = sys.stdout

    def say(text: str) -> None:
        print(text, file=out)

    def ask(question: str) -> str:
        out.write(question)
        out.flush()
        line = sys.stdin.readline() if sys.stdin is not None else ""
        if not line:
            raise EOFError
        return line

    # A table the ruleset does not allow raises TableError: one line on stderr, exit 2 (cli.main).
    scribe = Scribe(args.ruleset, ruleset, players, args.dealer, options, ask, say, observed)
    say(f"{ruleset.title}, {players} at the table, dealer seat {args.dealer}: type the calls and cards (help)")
    try:
        while True:
            line = ask(scribe.prompt()).strip()
            if not line:
                continue
            try:
                done = scribe.command(line)
                if done is False:
                    break
                if done is None:
                    scribe.enter(*scribe.parse(line))
            except ValueError as exc:
                say(f"not taken: {exc}")
    except EOFError:
        say("")
    text = dump_record(scribe.record(), to=args.output)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:  # the folder went away meanwhile, the disk is full: the game is not lost
            sys.stdout.write(text)
            raise OSError(exc.errno, f"{exc.strerror}; the record is printed above instead", exc.filename) from None
        say(f"written to {args.output}")
    else:
        sys.stdout.write(text)
    return 0


def _shown(seat: int, action: Any) -> str:
    return shown_action(seat, action)
