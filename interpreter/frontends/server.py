"""Speak the JSON-lines frontend protocol on stdin/stdout (docs/protocol.md).

One request object per line, one response object per line, in order. Several games are open at
once, each named by the id that `new` or `load` returns. Ops: rulesets, new, load, view, legal,
act, bot, events, record, games, close; for a game played as a session of deals (`new` with
`"session": true`), session and next_deal.

Requests look like {"id": 1, "op": "new", "ruleset": "NAME", "players": 6, "seed": 7}; responses
are {"id": 1, "ok": true, ...} or {"id": 1, "ok": false, "error": {"code": ..., "message": ...}}.
No input ends the server or corrupts a game: malformed JSON, unknown ops, wrong seats and
illegal actions are answered with an error and the server reads on. The server stops at the end
of its input.

The server is the umpire: `view` with a seat shows only what that seat may see, and events in
`act`, `bot` and `events` responses are public (a discard tells only how many cards), but
`view` with seat "all", `legal` for another seat and `record` show hidden cards. A frontend that
relays the game to people passes each of them only their own seat's answers, or opens the game
with `"tokens": true`: then each request carries a token and acts and sees only for the seat it
names (the umpire's token keeps the umpire's powers).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import re
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO, TypeVar, overload

from interpreter.errors import (
    IllegalActionError,
    InvalidActionError,
    RecordError,
    RulesetError,
    TarockError,
    UsageError,
    did_you_mean,
)

if TYPE_CHECKING:
    from interpreter.bots.randombot import RandomBot
    from interpreter.bots.rulebot import RuleBot
    from interpreter.bots.searchbot import SearchBot
    from interpreter.engine.game import Game
    from interpreter.engine.session import Session as TableSession
    from interpreter.language.model import Ruleset

MAX_LINE = 1 << 20  # bytes in one request line
MAX_LINE_LIMIT = 1 << 30  # the most --max-line may allow: a line is held in memory whole
MAX_GAMES = 1000  # games open at once in one session
MAX_MESSAGE = 600  # characters of an error message (they may quote the bad input)
MAX_DEPTH = 64  # arrays and objects nested in one request
MAX_DIGITS = 4300  # digits of one integer (Python's own limit for turning text into int)
MAX_SEED = 2**64
BOT_KINDS = ("random", "rules", "search")
UMPIRE = "umpire"

T = TypeVar("T")
Request = dict[str, Any]  # a request object as parsed from JSON
Response = dict[str, Any]  # a response object, ready to be encoded as JSON


# What each engine event may tell every seat. Fields not listed are dropped; an event type not
# listed keeps only the fields that name no card (see `public_event`).
PUBLIC_FIELDS: dict[str, tuple[str, ...]] = {
    "deal": ("dealer", "explicit", "plan"),  # not the seed: it determines every hand; `plan`: the dealer's choice
    "deal_chosen": ("seat", "plan"),  # the dealer's choice of a deal plan, said aloud before dealing
    "phase": ("phase", "name", "leader", "seat"),
    "call": ("seat", "call", "phase"),
    "thrown_in": ("seat", "reason"),  # `seat` where one seat threw the deal in; `reason`: a hand's redeal rule
    "contract": ("contract", "declarer"),
    "talon_taken": ("seat", "count", "part"),  # `part`: the half or third chosen of a talon laid out
    "discard": ("seat", "count", "shown"),  # face down: how many, never which, but those the rules show
    "forced_discard": ("seat", "count", "cards"),  # `cards` only where the rules show them
    "keep": ("seat", "count", "discarded", "exposed"),  # `exposed` only where the rules show them
    "claim": ("seat", "hand"),  # the rules lay the claimed hand open
    "announce": ("seat", "announcement", "cards"),  # the announced cards are laid out face up
    "breach": ("seat", "reason"),
    "offence": ("seat", "offence", "card", "reason"),  # the card was shown in playing it
    "accusation": ("seat", "guilty", "hands"),  # the hands are turned over to judge it
    "trumps": ("seat", "suit"),
    "call_card": ("seat", "card", "holder", "stays"),  # `stays`: it lay in the talon and stays there
    "call_partner": ("seat", "card", "choice"),  # the call is public; its holder is not in it
    "talon_shown": ("seat", "cards", "parts", "end"),  # emitted only where the rules lay the talon face up
    "talon_card": ("trick", "card", "winner"),  # turned up and added to a trick
    "kontra": ("seat", "item", "level", "title"),
    "concede": ("seat",),
    "give": ("seat", "to"),  # which card, only its receiver learns
    "open_hand": ("seat", "hand"),  # the rules lay the hand open (Bettel Ouvert)
    "play": ("seat", "card"),
    "forfeit": ("seat", "card", "bonus", "trick"),  # a kept-back card played early: its play is public
    "trick": ("number", "cards", "seats", "winner"),
    "play_ends": ("trick", "reason", "rest"),  # the contract is decided: the cards left stay unseen
    "settlement": (
        "outcome",
        "contract",
        "declarer",
        "declarer_won",
        "points",
        "tricks",
        "payments",
        "reason",
        "announcements",
    ),
}


class ProtocolError(Exception):
    """A request refused with a stable error code."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class NotJson(ValueError):
    """A line the parser read but the protocol does not take as JSON (NaN, 1e400, a huge integer)."""


ERROR_CODES = {
    "bad_json": "the line is not one JSON value (or holds NaN / Infinity, or numbers too long)",
    "too_large": "the line is longer than the server accepts",
    "bad_request": "not an object, or a field is missing, of the wrong type or out of range",
    "unknown_op": "no such op",
    "unknown_game": "no open game has this id",
    "too_many_games": "the session already holds the most games it may; close some",
    "unknown_ruleset": "no ruleset of this name (or files are not served)",
    "bad_ruleset": "the ruleset does not load, or one of its rules failed while an action was applied (the message says which and where; the game is unchanged)",
    "bad_option": "no such reading or option, or no such choice",
    "bad_deal": "the explicit deal does not fit the ruleset",
    "bad_record": "the record is malformed",
    "bad_seat": "no such seat",
    "invalid_action": "not an action at all (wrong shape, unknown card or call)",
    "not_your_turn": "the action is well formed but it is another seat's turn",
    "illegal_action": "the action is well formed but the rules forbid it now",
    "game_over": "the deal is over",
    "forbidden": "the game binds seats to tokens, and this request's token (or its absence) does not allow it",
    "session_over": "the game's session of deals is over: no deal follows",
    "internal_error": "a fault in the server (please report it with the request); the session goes on",
}


@dataclass
class Slot:
    """One open game and the bots that play seats in it."""

    game: Game
    bots: dict[str, RandomBot | RuleBot | SearchBot] = field(default_factory=dict)
    # Where `new` issued tokens: token -> the seat it acts and sees for, or UMPIRE.
    tokens: dict[str, int | str] | None = None
    # A game played as a session of deals: the session, and its events so far (public).
    session: TableSession | None = None
    session_events: list[dict[str, Any]] = field(default_factory=list)


class Session:
    """Games by id, and one request handled at a time: `handle(dict) -> dict`."""

    def __init__(self, max_games: int = MAX_GAMES, allow_files: bool = False):
        self.max_games = max_games
        self.allow_files = allow_files
        self.games: dict[str, Slot] = {}
        self._counter = 0
        self._rulesets: list[dict[str, Any]] | None = None
        self._names: list[str] | None = None
        self.ops: dict[str, Callable[[Request], Response]] = {
            "rulesets": self.op_rulesets,
            "new": self.op_new,
            "load": self.op_load,
            "view": self.op_view,
            "legal": self.op_legal,
            "act": self.op_act,
            "bot": self.op_bot,
            "events": self.op_events,
            "record": self.op_record,
            "games": self.op_games,
            "close": self.op_close,
            "session": self.op_session,
            "next_deal": self.op_next_deal,
        }

    # -- entry points ------------------------------------------------------------------------
    def respond(self, line: str | bytes) -> str:
        """One protocol line in, the response line out (without its newline). Never raises, and
        the line it returns can always be written as UTF-8."""
        return encode(self.handle_line(line))

    def handle_line(self, line: str | bytes) -> Response:
        """One protocol line in, one response out. Never raises."""
        try:
            request = parse_line(line)
        except NotJson as exc:
            return _error(None, "bad_json", f"not a JSON line: {exc}")
        return self.handle(request)

    def handle(self, request: Any) -> Response:
        """One request object in, one response object out. Never raises: whatever goes wrong in
        handling it becomes an error response."""
        rid = request.get("id") if isinstance(request, dict) else None
        try:
            if not isinstance(request, dict):
                raise ProtocolError("bad_request", f"a request is a JSON object, not {_kind(request)}")
            if _deeper_than(request, MAX_DEPTH):
                if _deeper_than(rid, MAX_DEPTH - 1):
                    rid = None  # the id itself is what is too deep: it is not echoed
                raise ProtocolError("bad_request", f"the request nests arrays and objects more than {MAX_DEPTH} deep")
            op = request.get("op")
            if not isinstance(op, str):
                raise ProtocolError("bad_request", 'the request needs "op": one of ' + ", ".join(self.ops))
            handler = self.ops.get(op)
            if handler is None:
                raise ProtocolError("unknown_op", f"no op {_short(op)}; the ops are: {', '.join(self.ops)}")
            return {"id": rid, "ok": True, **handler(request)}
        except ProtocolError as exc:
            return _error(rid, exc.code, exc.message)
        except RecursionError:
            return _error(rid, "bad_request", "the request is nested too deeply")
        except Exception as exc:  # a fault of ours: the session goes on, the traceback goes to stderr
            traceback.print_exc(file=sys.stderr)
            return _error(rid, "internal_error", f"{type(exc).__name__}: {exc}")

    # -- ops ---------------------------------------------------------------------------------
    def op_rulesets(self, req: Request) -> Response:
        if self._rulesets is None:
            from interpreter.language.loader import load_ruleset

            found: list[dict[str, Any]] = []
            for name in self.names():
                try:
                    rs = load_ruleset(name)
                except RulesetError as exc:
                    found.append({"name": name, "loads": False, "problems": len(exc.problems)})
                    continue
                found.append(
                    {
                        "name": name,
                        "title": rs.title,
                        "family": rs.family,
                        "loads": True,
                        "players": list(rs.table_sizes),
                        "active_players": list(rs.active_players),
                        "sit_out": {str(n): list(out) for n, out in rs.sit_out.items()},
                        "choices": [
                            {
                                "name": g.name,
                                "kind": g.kind,
                                "question": g.question,
                                "default": g.default,
                                "choices": list(g.choices),
                            }
                            for g in rs.groups
                        ],
                    }
                )
            self._rulesets = found
        return {"rulesets": self._rulesets}

    def op_new(self, req: Request) -> Response:
        from interpreter.engine.game import Game

        self._room()
        ref = _need(req, "ruleset", str)
        players = _may(req, "players", int)
        dealer = _may(req, "dealer", int, 0)
        seed = _may(req, "seed", int)
        deal = _may(req, "deal", dict)
        options = _options(req)
        tokens = _may(req, "tokens", bool, False)
        as_session = _may(req, "session", bool, False)
        pots = _may(req, "pots", dict)
        if pots is not None and not as_session:
            raise ProtocolError(
                "bad_request", '"pots" are what a session\'s pots hold as it starts: give "session": true'
            )
        if seed is not None and not 0 <= seed < MAX_SEED:
            raise ProtocolError("bad_request", f'"seed" must be from 0 to 2**64 - 1, not {_short(seed)}')
        if seed is not None and deal is not None:
            raise ProtocolError("bad_request", 'give "seed" or "deal", not both')
        if players is not None and not 0 < players < 1000:
            raise ProtocolError("bad_request", f'"players" out of range: {_short(players)}')
        ruleset = self._ruleset(ref, options)
        if deal is not None:
            _check_deal_size(deal, ruleset)
        table: TableSession | None = None
        started: dict[str, Any] = {}
        try:
            if as_session:
                from interpreter.engine.session import Session as TableSession

                # The session's seed deals every deal of it (deal i from a seed hashed from it).
                table = TableSession(ruleset, players=players, dealer=dealer, seed=seed, pots=pots)
                started = {
                    "type": "session_start",
                    "players": table.players,
                    "dealer": dealer,
                    "pots": table.pots_left(),
                }
                game = table.next_deal(deal=deal)
            else:
                game = Game(ruleset, players=players, dealer=dealer, seed=seed, deal=deal)
        except RecordError as exc:
            raise ProtocolError("bad_deal", "; ".join(p.message for p in exc.problems)) from None
        except InvalidActionError as exc:
            raise ProtocolError("bad_request", str(exc)) from None
        except TarockError as exc:  # a rule of the session failed as it started (an ante's formula)
            raise ProtocolError("bad_ruleset", str(exc)) from None
        response = self._open(game)
        if table is not None:
            slot = self.games[response["game"]]
            slot.session = table
            slot.session_events.append(started)
            self._deal_started(slot)
            response["session"] = session_state(table)
        if tokens:
            import secrets

            seat_tokens = [secrets.token_urlsafe(16) for _ in range(game.players)]
            umpire = secrets.token_urlsafe(16)
            slot = self.games[response["game"]]
            slot.tokens = {token: seat for seat, token in enumerate(seat_tokens)}
            slot.tokens[umpire] = UMPIRE
            response["tokens"] = seat_tokens
            response["umpire"] = umpire
        return response

    def op_load(self, req: Request) -> Response:
        from interpreter.engine.records import game_from_record, replay_document
        from interpreter.language.source import Document, load_yaml
        from interpreter.language.validation import schema_problems

        self._room()
        record = req.get("record")
        doc: Document
        if isinstance(record, str):
            _check_yaml_text(record)
            try:
                doc = load_yaml(record, "<record>")
            except RulesetError as exc:
                raise ProtocolError("bad_record", "; ".join(str(p) for p in exc.problems)) from None
            except RecursionError:
                raise ProtocolError("bad_record", "the record is nested too deeply") from None
        elif isinstance(record, dict):
            # Already plain data: no YAML to parse (it would be slow, and its line:col would point
            # into a text the client never wrote); problems are placed by their path instead.
            doc = Document(json.loads(json.dumps(record)), file="<record>")
        else:
            raise ProtocolError(
                "bad_request", f'"record" must be a record object (or its YAML text), not {_kind(record)}'
            )
        problems = schema_problems(doc, "record.schema.json")
        if problems:
            raise ProtocolError("bad_record", "; ".join(str(p) for p in problems))
        data = doc.data
        seed = data.get("seed")
        if isinstance(seed, int) and not 0 <= seed < MAX_SEED:
            raise ProtocolError("bad_record", f"seed must be from 0 to 2**64 - 1, not {_short(seed)}")
        # The ruleset and its options first, so that a wrong name is told apart from a wrong record.
        self._ruleset(data["ruleset"], data.get("options") or {})
        try:
            game = game_from_record(doc)
        except RecordError as exc:
            raise ProtocolError("bad_record", "; ".join(p.message for p in exc.problems)) from None
        report = replay_document(doc, game)
        response = self._open(game)
        response["replayed"] = len(game.history)
        response["check"] = {
            "ok": report.ok,
            "failures": [_short(f) for f in report.failures],
            "refused_at": report.refused_at,
        }
        return response

    def op_view(self, req: Request) -> Response:
        slot = self._slot(req)
        bound = self._bound(slot, req)
        if bound is not None:
            return {"game": req["game"], "view": public_view(slot.game, bound)}
        seat: int | str = "all" if req.get("seat") == "all" else self._seat(slot.game, req)
        return {"game": req["game"], "view": public_view(slot.game, seat)}

    def op_legal(self, req: Request) -> Response:
        slot = self._slot(req)
        game = slot.game
        bound = self._bound(slot, req)
        seat = bound if bound is not None else self._maybe_seat(game, req)
        if seat is None:
            seat = game.to_act
        return {
            "game": req["game"],
            "seat": seat,
            "to_act": game.to_act,
            "actions": game.legal_actions(seat) if seat is not None else [],
        }

    def op_act(self, req: Request) -> Response:
        slot = self._slot(req)
        bound = self._bound(slot, req)
        seat = bound if bound is not None else self._seat(slot.game, req)
        if "action" not in req:
            raise ProtocolError(
                "bad_request", 'the request needs "action": a call such as "pass" or an object such as {"play": "T21"}'
            )
        return self._told(slot, {"game": req["game"], **self._apply(slot.game, seat, req["action"])})

    def op_bot(self, req: Request) -> Response:
        slot = self._slot(req)
        game = slot.game
        kind = _may(req, "kind", str, "rules")
        apply = _may(req, "apply", bool, False)
        if kind not in BOT_KINDS:
            raise ProtocolError("bad_request", f'"kind" is one of {", ".join(BOT_KINDS)}, not {_short(kind)}')
        bound = self._bound(slot, req)
        asked = bound if bound is not None else self._maybe_seat(game, req)
        seat = game.to_act
        if seat is None:
            raise ProtocolError("game_over", "the deal is over")
        if asked is not None and asked != seat:
            raise ProtocolError("not_your_turn", f"it is seat {seat}'s turn, not seat {asked}'s")
        bot = slot.bots.get(kind)
        if bot is None:
            from interpreter.engine.seeds import bot_seed

            # A stream of its own, never the shuffle's (engine/seeds.py): the game's seed would
            # have a random bot draw the very numbers that dealt the cards.
            bot = slot.bots[kind] = _make_bot(kind, bot_seed(game.seed, kind))
        action = bot.choose(game, seat)
        response: Response = {"game": req["game"], "seat": seat, "action": action}
        if apply:
            response.update(self._apply(game, seat, action))
            self._told(slot, response)
        return response

    def op_events(self, req: Request) -> Response:
        slot = self._slot(req)
        # Public events, but only for the game's own tokens; a seat's token reads them as the seat
        # may look at the tricks again (None: the umpire, who may look at every trick).
        seat = self._bound(slot, req)
        since = _may(req, "since", int, 0)
        if since < 0:
            raise ProtocolError("bad_request", '"since" counts events already seen: 0 or more')
        game = slot.game
        seen = (
            events_seen(game, seat, since) if seat is not None else [public_event(e, game) for e in game.events[since:]]
        )
        return {"game": req["game"], "events": seen, "next": len(game.events)}

    def op_record(self, req: Request) -> Response:
        slot = self._slot(req)
        self._umpire_only(slot, req, "the record shows every hand")
        return {"game": req["game"], "record": slot.game.record()}

    def op_games(self, req: Request) -> Response:
        return {
            "games": [
                {
                    "game": gid,
                    "ruleset": s.game.ruleset.name,
                    "players": s.game.players,
                    "phase": s.game.phase.value,
                    "to_act": s.game.to_act,
                    "session": s.session is not None,
                }
                for gid, s in self.games.items()
            ]
        }

    def op_session(self, req: Request) -> Response:
        """Where a game's session of deals stands, and its events from `since` on (public)."""
        slot = self._slot(req)
        self._bound(slot, req)  # public, but only for the game's own tokens
        table = self._table(slot, req)
        since = _may(req, "since", int, 0)
        if since < 0:
            raise ProtocolError("bad_request", '"since" counts session events already seen: 0 or more')
        return {
            "game": req["game"],
            "session": session_state(table),
            "events": slot.session_events[since:],
            "next": len(slot.session_events),
        }

    def op_next_deal(self, req: Request) -> Response:
        """The next deal of a game's session, once the deal before is over: with the cards
        `deal`, shuffled from `seed`, or from the session's own seed; before it, `signal` starts a
        round the ruleset plays at a signal, `request_end` has a seat ask to end the session."""
        slot = self._slot(req)
        self._umpire_only(slot, req, "the next deal is dealt for every seat")
        table = self._table(slot, req)
        seed = _may(req, "seed", int)
        deal = _may(req, "deal", dict)
        signal = _may(req, "signal", str)
        asking = _may(req, "request_end", int)
        if seed is not None and not 0 <= seed < MAX_SEED:
            raise ProtocolError("bad_request", f'"seed" must be from 0 to 2**64 - 1, not {_short(seed)}')
        if seed is not None and deal is not None:
            raise ProtocolError("bad_request", 'give "seed" or "deal", not both')
        if not slot.game.is_over:
            raise ProtocolError("illegal_action", "the deal under way is not over: finish it first")
        if table.over:
            raise ProtocolError("session_over", f"the session is over after {len(table.deals)} deals")
        if asking is not None:
            self._checked_seat(slot.game, asking)
        if deal is not None:
            _check_deal_size(deal, slot.game.ruleset)
        before = len(slot.session_events)
        try:
            # The two requests are checked before either changes the session.
            if asking is not None:
                table.request_end(asking)
                slot.session_events.append({"type": "session_end_requested", "seat": asking})
            if signal is not None:
                table.signal(signal)
                slot.session_events.append({"type": "session_signal", "round": signal})
            game = table.next_deal(deal=deal, seed=seed)
        except RecordError as exc:
            raise ProtocolError("bad_deal", "; ".join(p.message for p in exc.problems)) from None
        except IllegalActionError as exc:
            del slot.session_events[before:]
            raise ProtocolError("illegal_action", str(exc)) from None
        except TarockError as exc:
            raise ProtocolError("bad_ruleset", str(exc)) from None
        slot.game, slot.bots = game, {}
        self._deal_started(slot)
        return {
            **{k: v for k, v in self._described(game).items() if k != "game"},
            "game": req["game"],
            "session": session_state(table),
            "session_events": slot.session_events[before:],
        }

    def op_close(self, req: Request) -> Response:
        gid = _need(req, "game", str)
        slot = self.games.get(gid)
        if slot is None:
            raise ProtocolError("unknown_game", f"no open game {_short(gid)}")
        self._umpire_only(slot, req, "closing the game ends it for every seat")
        del self.games[gid]
        return {"game": gid, "closed": True}

    # -- helpers -----------------------------------------------------------------------------
    def _bound(self, slot: Slot, req: Request) -> int | None:
        """The seat a request's token binds it to; None where it may act as the umpire (a game
        without tokens, or the umpire's token). A seat named besides must be the token's own."""
        if slot.tokens is None:
            return None
        token = req.get("token")
        holder = slot.tokens.get(token) if isinstance(token, str) else None
        if holder is None:
            raise ProtocolError(
                "forbidden",
                'this game binds each seat to a token: send "token", one of those `new` issued'
                if token is None
                else "that token is not one of this game's",
            )
        if holder == UMPIRE:
            return None
        assert isinstance(holder, int)
        named = req.get("seat")
        if named is not None and named != holder:
            raise ProtocolError(
                "forbidden", f"this token acts and sees for seat {holder} only, not seat {_short(named)}"
            )
        return holder

    def _umpire_only(self, slot: Slot, req: Request, why: str) -> None:
        if slot.tokens is not None and self._bound(slot, req) is not None:
            raise ProtocolError("forbidden", f"only the umpire's token may do this: {why}")

    def _room(self) -> None:
        if len(self.games) >= self.max_games:
            raise ProtocolError(
                "too_many_games", f"{len(self.games)} games are open, the most this session holds; close one first"
            )

    def _open(self, game: Game) -> Response:
        self._counter += 1
        gid = f"g{self._counter}"
        self.games[gid] = Slot(game)
        return {**self._described(game), "game": gid}

    @staticmethod
    def _described(game: Game) -> Response:
        return {
            "ruleset": game.ruleset.name,
            "players": game.players,
            "dealer": game.dealer,
            "seats": list(game.seats),
            "seats_out": list(game.seats_out),
            "phase": game.phase.value,
            "to_act": game.to_act,
        }

    @staticmethod
    def _table(slot: Slot, req: Request) -> TableSession:
        if slot.session is None:
            raise ProtocolError(
                "bad_request", f'game {_short(req.get("game"))} is a single deal: start a session with "session": true'
            )
        return slot.session

    @staticmethod
    def _deal_started(slot: Slot) -> None:
        table = slot.session
        assert table is not None
        slot.session_events.append(
            {
                "type": "session_deal",
                "deal": len(table.deals),
                "dealer": slot.game.dealer,
                "round": table.rounds_of_deals[-1],  # a round of its own, or null
            }
        )

    def _told(self, slot: Slot, response: Response) -> Response:
        """An action's response, with the session's new standing and events once it ended a
        deal of a session."""
        events = self._deal_over(slot)
        if events:
            assert slot.session is not None
            response["session"] = session_state(slot.session)
            response["session_events"] = events
        return response

    @staticmethod
    def _deal_over(slot: Slot) -> list[dict[str, Any]]:
        """Once a session's deal is over: add it up, and the events that tell the table."""
        table = slot.session
        if table is None or not slot.game.is_over or table.finished == len(table.deals):
            return []
        before = len(slot.session_events)
        round_before = table.current
        table.finish_deal()
        state = session_state(table)
        slot.session_events.append(
            {"type": "session_score", "deal": len(table.deals), **{k: state[k] for k in SCORE_FIELDS}}
        )
        if round_before is not None and table.current is None:
            slot.session_events.append({"type": "session_round_over", "round": round_before.name})
        if table.over:
            slot.session_events.append(
                {"type": "session_end", "deals": len(table.deals), "totals": state["totals"], "pots": state["pots"]}
            )
        return slot.session_events[before:]

    def _slot(self, req: Request) -> Slot:
        gid = _need(req, "game", str)
        slot = self.games.get(gid)
        if slot is None:
            raise ProtocolError(
                "unknown_game",
                f"no open game {_short(gid)}"
                + (f"; open games: {', '.join(list(self.games)[:10])}" if self.games else '; start one with "new"'),
            )
        return slot

    def _seat(self, game: Game, req: Request) -> int:
        return self._checked_seat(game, _need(req, "seat", int))

    def _maybe_seat(self, game: Game, req: Request) -> int | None:
        seat = _may(req, "seat", int)
        return None if seat is None else self._checked_seat(game, seat)

    @staticmethod
    def _checked_seat(game: Game, seat: int) -> int:
        if not 0 <= seat < game.players:
            raise ProtocolError("bad_seat", f"no seat {_short(seat)}: seats are 0 to {game.players - 1}")
        return seat

    def names(self) -> list[str]:
        """The built-in rulesets, read once per session."""
        if self._names is None:
            from interpreter.language.loader import ruleset_names

            self._names = ruleset_names()
        return self._names

    def _check_ref(self, ref: str) -> None:
        if ref in self.names():
            return
        is_file = "/" in ref or "\\" in ref or ref.endswith((".yaml", ".yml"))
        if is_file and self.allow_files:
            return
        hint = " (start the server with --allow-files to play ruleset files)" if is_file else ""
        raise ProtocolError(
            "unknown_ruleset",
            f"no ruleset named {_short(ref)}{hint}"
            + did_you_mean(ref[:100], self.names(), otherwise=f"; this server plays: {', '.join(self.names())}"),
        )

    def _ruleset(self, ref: str, options: dict[str, str]) -> Ruleset:
        """The ruleset `ref` with `options`, or the refusal that says which of the two is wrong."""
        from interpreter.language.loader import find_ruleset_file, load_ruleset

        self._check_ref(ref)
        try:
            found = find_ruleset_file(ref)
        except (OSError, ValueError) as exc:  # a path the system refuses (too long, a NUL byte)
            raise ProtocolError(
                "unknown_ruleset", f"no ruleset file {_short(ref)}: {getattr(exc, 'strerror', None) or exc}"
            ) from None
        if found is None:
            raise ProtocolError("unknown_ruleset", f"no ruleset named {_short(ref)}")
        # As published first: a UsageError then says that the file is no game to play (a base);
        # once that loads, a UsageError with the options can only be about the options.
        for chosen in ({}, options) if options else ({},):
            try:
                ruleset = load_ruleset(ref, chosen)
            except UsageError as exc:
                code = "bad_option" if chosen else "unknown_ruleset"
                raise ProtocolError(code, _problems(exc)) from None
            except RulesetError as exc:
                raise ProtocolError("bad_ruleset", _problems(exc)) from None
        return ruleset

    def _apply(self, game: Game, seat: int, action: Any) -> Response:
        try:
            events = game.apply(seat, action)
        except InvalidActionError as exc:
            raise ProtocolError("invalid_action", str(exc)) from None
        except IllegalActionError as exc:
            if game.is_over:
                raise ProtocolError("game_over", str(exc)) from None
            if seat != game.to_act:
                raise ProtocolError("not_your_turn", str(exc)) from None
            raise ProtocolError("illegal_action", str(exc)) from None
        except TarockError as exc:  # a rule of the ruleset failed in applying a legal action
            raise ProtocolError("bad_ruleset", f"the action was not applied: {exc}") from None
        response: Response = {
            "events": [public_event(e, game) for e in events],
            "phase": game.phase.value,
            "to_act": game.to_act,
        }
        if game.result is not None:
            response["result"] = game.result.as_dict()
        return response


# What a session's `session_score` event tells after each deal.
SCORE_FIELDS = ("scores", "sheet", "totals", "pot", "pots", "over")


def session_state(table: TableSession) -> dict[str, Any]:
    """Where a session of deals stands, as every seat may know it: the deal under way (its
    number from 1, its dealer, its round of its own), the dealers so far, complete rounds, the
    running scores, the score sheet, the totals (the sheet settled, the pots' antes and
    pay-outs), the pot and the pots of their own, and whether it is over."""
    return {
        "deal": len(table.deals),
        "dealer": table.dealer,
        "dealers": [g.dealer for g in table.deals],
        "round": table.rounds_of_deals[-1] if table.rounds_of_deals else None,
        "rounds": table.rounds,
        "scores": list(table.scores),
        "sheet": list(table.sheet) if table.sheet is not None else None,
        "totals": table.totals(),
        "pot": table.pot_left(),
        "pots": table.pots_left(),
        "ending": table.end_reached,  # the end is reached: the closing rounds are under way
        "over": table.over,
    }


def public_view(game: Game, seat: int | str | None) -> dict[str, Any]:
    """What `seat` may see (None: a spectator, the public facts alone), less the talon and the
    discards when the deal ended without counting them (thrown in, abandoned): nobody turns them
    over then."""
    from interpreter.engine.views import view_of

    view = view_of(game, seat)
    if seat != "all" and game.is_over and game.result is not None and game.result.points is None:
        for key in ("talon", "aside"):
            if view.get(key) and not (key == "aside" and seat == game.declarer):
                view[key] = []
    return view


def public_event(event: dict[str, Any], game: Game) -> dict[str, Any]:
    """The event as every seat may know it: only the fields listed for its type in
    PUBLIC_FIELDS; an unknown type keeps the fields that name no card, and lists the others
    under "redacted"."""
    kind = event.get("type")
    allowed = PUBLIC_FIELDS.get(kind) if isinstance(kind, str) else None
    if allowed is not None:
        return {"type": kind, **{k: event[k] for k in allowed if k in event}}
    cards = game.ruleset.deck.points
    public: dict[str, Any] = {"type": kind}
    hidden = []
    for key, value in event.items():
        if key == "type":
            continue
        if _names_a_card(value, cards):
            hidden.append(key)
        else:
            public[key] = value
    if hidden:
        public["redacted"] = hidden
    return public


def events_seen(game: Game, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
    """The public events from `since` on as `seat` (None: a spectator) may read them again now:
    where the rules let it look again only at some finished tricks (`play.tricks_seen`), the
    cards of the others are left out of their `play`, `trick` and `talon_card` events (listed
    under "redacted"). The seat saw them fall; it may not turn those tricks over again."""
    from interpreter.engine.views import tricks_hidden

    events = [public_event(e, game) for e in game.events[since:]]
    hidden = tricks_hidden(game, seat)
    if not hidden:
        return events
    tricks = game.tricks
    cards = {c for i in hidden for c in tricks[i].cards}  # (each card is in one trick only)
    numbers = {i + 1 for i in hidden}
    for at, event in enumerate(events):
        kind = event["type"]
        if kind == "play" and event.get("card") in cards:
            events[at] = {"type": kind, "seat": event["seat"], "redacted": ["card"]}
        elif kind == "trick" and event.get("number") in numbers:
            events[at] = {**{k: v for k, v in event.items() if k != "cards"}, "redacted": ["cards"]}
        elif kind == "talon_card" and event.get("trick") in numbers:
            events[at] = {**{k: v for k, v in event.items() if k != "card"}, "redacted": ["card"]}
    return events


def _names_a_card(value: Any, cards: dict[str, int]) -> bool:
    if isinstance(value, str):
        return value in cards
    if isinstance(value, dict):
        return any(_names_a_card(k, cards) or _names_a_card(v, cards) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(_names_a_card(v, cards) for v in value)
    return False


def _check_deal_size(deal: dict[str, Any], ruleset: Ruleset) -> None:
    """A deal names each card of the pack once: refuse one far larger before looking at it."""
    hands = deal.get("hands")
    parts = [deal.get("talon"), *(hands if isinstance(hands, list) else [])]
    named = sum(len(p) if isinstance(p, list) else 1 for p in parts)
    if named > 2 * len(ruleset.deck.cards) + 100:
        raise ProtocolError("bad_deal", f"the deal names {named} cards; the pack has {len(ruleset.deck.cards)}")


def _check_yaml_text(text: str) -> None:
    """Refuse, before parsing, the YAML that would make the parser slow or blow up: anchors and
    aliases (a few lines of them expand to billions of nodes) and collections nested more than
    MAX_DEPTH deep (the scanners take time quadratic in the depth of `[[[…`, and the parser
    recurses). Brackets are counted in quoted text too: no record needs that many."""
    import yaml

    depth = most = 0
    for bracket in re.sub(r"[^\[\]{}]", "", text):
        depth = depth + 1 if bracket in "[{" else max(depth - 1, 0)
        most = max(most, depth)
    if most > MAX_DEPTH:
        raise ProtocolError("bad_record", f"the record nests brackets more than {MAX_DEPTH} deep")
    opening = (yaml.BlockSequenceStartToken, yaml.BlockMappingStartToken)
    closing = yaml.BlockEndToken
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C scanner where there is one: fast
    depth = 0
    try:
        for token in yaml.scan(text, Loader=loader):
            if isinstance(token, (yaml.AliasToken, yaml.AnchorToken)):
                raise ProtocolError("bad_record", "a record may not use YAML anchors or aliases (&name, *name)")
            if isinstance(token, opening):
                depth += 1
                if depth > MAX_DEPTH:
                    raise ProtocolError("bad_record", f"the record nests more than {MAX_DEPTH} deep")
            elif isinstance(token, closing):
                depth -= 1
    except (yaml.YAMLError, UnicodeError):
        return  # malformed, or a character YAML does not allow: load_yaml says where, before parsing


def _make_bot(kind: str, seed: int | None) -> RandomBot | RuleBot | SearchBot:
    if kind == "random":
        from interpreter.bots.randombot import RandomBot

        return RandomBot(seed)
    if kind == "search":
        from interpreter.bots.searchbot import SearchBot

        return SearchBot(seed=seed)
    from interpreter.bots.rulebot import RuleBot

    return RuleBot()


def _need(req: Request, name: str, kind: type[T]) -> T:
    """The field `name` of the request, which must be there and of type `kind`."""
    if name not in req:
        raise ProtocolError("bad_request", f'the request needs "{name}" ({_type_word(kind)})')
    return _checked(name, req[name], kind)


@overload
def _may(req: Request, name: str, kind: type[T]) -> T | None: ...
@overload
def _may(req: Request, name: str, kind: type[T], default: T) -> T: ...
def _may(req: Request, name: str, kind: type[T], default: T | None = None) -> T | None:
    """The field `name` of the request, of type `kind`, or `default` when it is missing or null."""
    value = req.get(name)
    return default if value is None else _checked(name, value, kind)


def _checked(name: str, value: Any, kind: type[T]) -> T:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):  # a bool is no integer here
        raise ProtocolError("bad_request", f'"{name}" must be {_type_word(kind)}, not {_kind(value)}')
    return value


def _options(req: Request) -> dict[str, str]:
    options: dict[str, Any] = _may(req, "options", dict, {})
    bad = [k for k, v in options.items() if not isinstance(v, str)]
    if bad:
        raise ProtocolError(
            "bad_request", f'"options" maps names to choice names (text); not: {_short(", ".join(bad))}'
        )
    if len(options) > 100:
        raise ProtocolError("bad_option", "too many options")
    return options


def _problems(exc: RulesetError) -> str:
    return "; ".join(str(p) for p in exc.problems[:20])


def _type_word(kind: type[Any]) -> str:
    return {str: "text", int: "an integer", bool: "true or false", dict: "an object", list: "a list"}.get(
        kind, kind.__name__
    )


def _kind(value: Any) -> str:
    return {
        type(None): "null",
        bool: "true/false",
        int: "a number",
        float: "a number",
        str: "text",
        list: "a list",
        dict: "an object",
    }.get(type(value), type(value).__name__)


def _short(value: Any, limit: int = 80) -> str:
    """`value` as JSON, cut to `limit` characters: error messages may quote hostile input."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest in `value` more than `limit` deep (without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


def _error(rid: Any, code: str, message: str) -> Response:
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + "…"
    return {"id": rid, "ok": False, "error": {"code": code, "message": message}}


# -- the line boundary: text in, text out ------------------------------------------------------


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise NotJson(f"{text[:20]} is too large for a number")
    return number


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise NotJson(f"a number has more than {MAX_DIGITS} digits")
    return int(text)


def _constant(name: str) -> Any:
    raise NotJson(f"{name} is not JSON")


def parse_line(line: str | bytes) -> Any:
    """The JSON value of one request line. Raises NotJson for anything the protocol does not take
    as JSON: bytes that are not UTF-8, malformed text, NaN and Infinity, numbers too large to be
    finite or with more than MAX_DIGITS digits, nesting too deep for the parser."""
    try:
        text = line.decode("utf-8") if isinstance(line, bytes) else line
        return json.loads(text, parse_constant=_constant, parse_float=_finite, parse_int=_integer)
    except NotJson:
        raise
    except UnicodeDecodeError as exc:
        raise NotJson(f"byte {exc.start + 1} is not UTF-8") from None
    except RecursionError:
        raise NotJson("nested too deeply") from None
    except ValueError as exc:  # json.JSONDecodeError, and whatever else the parser refuses
        raise NotJson(str(exc)) from None


def encode(response: Response) -> str:
    """One response as one line of JSON that can always be written as UTF-8: no NaN, no raw
    newline, and a lone surrogate (JSON allows "\\ud800" in a string) escaped as it came."""
    try:
        return _dumps(response)
    except (TypeError, ValueError, RecursionError) as exc:
        # A fault of ours (a value JSON cannot hold): answer for the request all the same.
        fallback = _error(None, "internal_error", f"the response could not be encoded: {type(exc).__name__}: {exc}")
        rid = response.get("id")
        if _encodable(rid):
            fallback["id"] = rid
        return _dumps(fallback)


def _dumps(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # only a lone surrogate cannot be: \u-escapes say it in ASCII
        text = json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return text


def _encodable(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


# -- the command -----------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-games", type=int, default=MAX_GAMES, metavar="N", help=f"games open at once (default {MAX_GAMES})"
    )
    parser.add_argument(
        "--max-line",
        type=int,
        default=MAX_LINE,
        metavar="BYTES",
        help=f"longest request line accepted (default {MAX_LINE}, at most {MAX_LINE_LIMIT})",
    )
    parser.add_argument(
        "--allow-files",
        action="store_true",
        help="let `new` and `load` name ruleset files, not only the built-in rulesets",
    )


def run(args: argparse.Namespace) -> int:
    if args.max_games < 1:
        raise TarockError(f"--max-games must be at least 1, not {args.max_games}")
    if not 64 <= args.max_line <= MAX_LINE_LIMIT:
        raise TarockError(f"--max-line must be from 64 to {MAX_LINE_LIMIT} bytes, not {args.max_line}")
    if sys.stdin is None:
        raise TarockError("standard input is closed: `tarock serve` reads its requests there")
    if sys.stdout is None:
        raise TarockError("standard output is closed: `tarock serve` writes its answers there")
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.encoding.lower().replace("-", "") != "utf8":
        sys.stdout.reconfigure(encoding="utf-8")  # the protocol is UTF-8, whatever the locale says
    session = Session(max_games=args.max_games, allow_files=args.allow_files)
    serve(session, sys.stdin.buffer, sys.stdout, args.max_line)
    return 0


def serve(session: Session, stdin: BinaryIO, stdout: TextIO, max_line: int = MAX_LINE) -> None:
    """Read request lines from the binary stream `stdin` until it ends; answer each on `stdout`.
    Only the streams themselves can end it early: a closed pipe ends it quietly, and any other
    failure to read or write (a full disk) is raised as the OSError it is."""
    while True:
        line = stdin.readline(max_line + 1)
        if not line:
            return
        if len(line) > max_line and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # skip the rest without keeping it
                line = stdin.readline(max_line)
            answer = encode(_error(None, "too_large", f"a request line may hold at most {max_line} bytes"))
        elif not line.strip():
            continue
        else:
            answer = session.respond(line)
        try:
            stdout.write(answer + "\n")
            stdout.flush()
        except BrokenPipeError:
            return
