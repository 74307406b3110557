"""A table of the web frontend: a session of deals, its seats and their secret tokens, the bots
that play the empty seats, and what each seat is told.

Everything a browser learns comes from `Table.state_for(seat)`: the seat's own `view` (the
engine's information boundary, `game.view(seat)`), the public form of the events (the same
filter as the JSON-lines protocol, `server.public_event`), the seat's own legal actions, and the
table's public facts (names, scores, finished deals). A spectator (no seat) gets the engine's
spectator view: what every seat at the table sees, and nothing one seat knows before the others.
This module has no web framework in it: the app only carries its messages, and tests read them
directly.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.records import dump_record
from interpreter.engine.seeds import bot_seed
from interpreter.engine.session import Session
from interpreter.errors import IllegalActionError, InvalidActionError, TarockError, either
from interpreter.frontends.log import describe_event
from interpreter.frontends.server import events_seen, public_event, public_view
from interpreter.frontends.web.downloads import record_for
from interpreter.frontends.web.store import Saved, Store, digest
from interpreter.frontends.web.thinking import Choice, Decision, choose
from interpreter.frontends.words import (
    action_label,
    card_choice,
    choice_task,
    explain_result,
    legend,
    partner_call,
    partner_game,
    seat_hints,
    shown_parts,
    sides_line,
    tally,
)
from interpreter.language.model import TRUMP, Ruleset

MAX_NAME = 24  # characters of a player's name
DEALS_PAGE = 50  # rows of the score sheet in one `deals` message
TOKEN_FORM = re.compile(r"[A-Za-z0-9_-]{16,64}")  # what new_token makes, with room: nothing else is compared
# Characters a name may not hold: lone surrogates (no UTF-8 can carry them), control and format
# characters (a bidi override would turn the names after it around), private and unassigned ones.
_NOT_IN_NAMES = frozenset(("Cs", "Cc", "Cf", "Co", "Cn"))


def new_token() -> str:
    """A seat's secret: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def clean_text(value: object, limit: int) -> str | None:
    """Text from outside fit to show and store: `value` if it is text, without the characters
    of _NOT_IN_NAMES, its runs of white space made one space, cut to `limit` characters; None
    when nothing is left (or it is no text)."""
    if not isinstance(value, str):
        return None
    kept = "".join(ch for ch in value[: limit * 4] if unicodedata.category(ch) not in _NOT_IN_NAMES)
    text = " ".join(kept.split())[:limit].strip()
    return text or None


@dataclass
class Finished:
    """A deal of the session that is over: what the table shows of it afterwards."""

    number: int
    dealer: int
    lines: list[str]  # the settlement explained (public, as the settlement event is)
    payments: list[int]
    log: list[str]  # what happened, in the public events' words
    record: dict[str, Any] = field(repr=False)
    # What was downloaded, by requester (None: the spectators; "full": the whole record).
    downloads: dict[int | str | None, str] = field(default_factory=dict, repr=False)

    def summary(self) -> dict[str, Any]:
        """The deal in the score sheet: public, the same for every seat."""
        return {"number": self.number, "dealer": self.dealer, "payments": self.payments, "lines": self.lines}


BOTS = ("rules", "search")  # the rule bot, or the search bot (tarock play --bot)
SEARCH_SECONDS = 0.4  # a search bot's time for one card, unless the table sets another
MIN_SECONDS, MAX_SECONDS = 0.05, 5.0  # what a table may set
STAND_IN = 120.0  # seconds a person's seat stays empty before a bot plays it, unless the table sets another
MIN_STAND_IN, MAX_STAND_IN = 5.0, 3600.0  # what a table may set (or None: never)


class Table:
    """One table: `players` seats, `people` of them played by people holding a token each, the
    others by bots (`bots`: the rule bot or the search bot, which searches each card for
    `seconds`); a session of `deals` deals (or the ruleset's own end). A seeded table deals
    alike every time, and its bots draw from streams of their own (engine/seeds.py: derived
    from the seed apart from the shuffle's); without a seed, both come from the operating
    system's randomness."""

    def __init__(
        self,
        ruleset: Ruleset,
        players: int,
        people: list[int],
        deals: int,
        seed: int | None = None,
        names: dict[int, str] | None = None,
        bots: str = "rules",
        seconds: float = SEARCH_SECONDS,
        stand_in: float | None = STAND_IN,
        store: Store | None = None,
        *,
        saved: Saved | None = None,
    ):
        if bots not in BOTS:
            raise InvalidActionError(f"the bots play by {' or '.join(BOTS)}, not {bots[:20]!r}")
        if not MIN_SECONDS <= seconds <= MAX_SECONDS:
            raise InvalidActionError(
                f"a search bot thinks from {MIN_SECONDS:g} to {MAX_SECONDS:g} seconds a card, not {seconds:g}"
            )
        if stand_in is not None and not MIN_STAND_IN <= stand_in <= MAX_STAND_IN:
            raise InvalidActionError(
                f"a bot takes over a seat left for {MIN_STAND_IN:g} to {MAX_STAND_IN:g} seconds (or never), not {stand_in:g}"
            )
        if players not in ruleset.table_sizes:
            sizes = either(ruleset.table_sizes)
            raise InvalidActionError(f"{ruleset.title} is played by {sizes} at the table, not {players}")
        bad = [s for s in people if not 0 <= s < players]
        if bad:
            raise InvalidActionError(f"no seat {bad[0]}: the seats are 0 to {players - 1}")
        if not 1 <= deals <= 1000:
            raise InvalidActionError(f"a session has from 1 to 1000 deals, not {deals}")
        self.ruleset = ruleset
        self.players = players
        self.people = sorted(set(people))
        self.deals_planned = deals
        # The seats' secret tokens are kept as digests (what the database holds too); the tokens
        # themselves only while the lobby hands them out, never once the table is brought back.
        self.seat_tokens: dict[int, str] = {}
        self.spectator_token: str | None = None
        if saved is None:
            self.id = _new_id(store)
            self.seat_tokens = {seat: new_token() for seat in self.people}
            self.spectator_token = new_token()
            self.tokens = {digest(token): seat for seat, token in self.seat_tokens.items()}
            self.spectators = digest(self.spectator_token)
        else:
            self.id, self.tokens, self.spectators = saved.id, dict(saved.tokens), saved.spectators
        self.names = {
            s: clean_text((names or {}).get(s), MAX_NAME) or (f"Seat {s}" if s in self.people else f"Bot {s}")
            for s in range(players)
        }
        self.seed = seed
        self.session = Session(ruleset, players=players, seed=seed)
        self.bots, self.seconds = bots, seconds
        # People come and go: the browsers at each seat, the seats a bot plays while their person
        # is away (after `stand_in` seconds; None: never), and who is ready for the next deal.
        self.stand_in_after = stand_in
        self.browsers: dict[int, int] = dict.fromkeys(self.people, 0)
        self.standing_in: set[int] = set()
        self.ready: set[int] = set()  # for the next deal
        self.searches = 0  # the search bots' cards found by searching (not the rule bot's choice)
        self.finished: list[Finished] = []
        self.version = 0  # counts every change, so that a client can tell a new state from an old one
        self.store: Store | None = None  # where each change is written (attached once the table stands)
        if saved is None:
            self._deal()
        else:
            self._replay(saved)
        self.store = store
        if store is not None and saved is None:
            store.opened(self.saved())

    @classmethod
    def restore(cls, saved: Saved, ruleset: Ruleset, store: Store | None = None) -> Table:
        """The table `saved` brought back where it was: every deal replayed from its record, the
        deal under way from its cards and its actions so far (a deal is fully determined by them)."""
        return cls(
            ruleset,
            saved.players,
            saved.people,
            saved.deals_planned,
            saved.seed,
            saved.names,
            saved.bots,
            saved.seconds,
            saved.stand_in,
            store,
            saved=saved,
        )

    def _deal(self, cards: dict[str, Any] | None = None, seed: int | None = None) -> None:
        """The session's next deal: shuffled, or the `cards` as dealt (a deal brought back), or
        shuffled from `seed` (a deal brought back before its dealer chose how to deal it)."""
        if cards is None and seed is None and self.seed is None and self.ruleset.deal_choice is not None:
            # Where the dealer first chooses how to deal (deal.choice), nothing is dealt yet and
            # the record of the deal so far is its seed: an unseeded table draws one here, as
            # secret as the cards it will deal (no event, view or message shows a seed), so that
            # the bots and a restart rebuild the same deal once the choice is made.
            seed = secrets.randbits(64)
        self.game = self.session.next_deal(cards, seed)
        self.start = self.game.record()  # the deal as dealt (or its seed, before the dealer's choice), for the bots
        self.actions: list[list[Any]] = []  # the deal's actions so far, [seat, action]
        self.ready = set()

    def _replay(self, saved: Saved) -> None:
        deals = [(r["dealer"], r["deal"], None, r["actions"]) for r in saved.records]
        if saved.dealt is not None:  # the deal under way: as dealt, or its seed before the dealer's choice
            dealt = saved.dealt
            deals.append((dealt["dealer"], dealt.get("deal"), dealt.get("seed"), saved.actions))
        for dealer, cards, seed, actions in deals:
            self._deal(cards, seed)
            if self.game.dealer != dealer:
                raise TarockError(f"deal {len(self.session.deals)} was dealt by seat {dealer}, not {self.game.dealer}")
            for seat, action in actions:
                self.game.apply(seat, action)
                self._moved(seat, action)
        self.version = saved.version

    def saved(self) -> Saved:
        """The table as the database keeps it (the deals as their records and actions)."""
        under_way = not self.finished or self.finished[-1].number < len(self.session.deals)
        return Saved(
            self.id,
            self.ruleset.name,
            dict(self.ruleset.choices),
            self.players,
            list(self.people),
            self.deals_planned,
            self.seed,
            self.bots,
            self.seconds,
            self.stand_in_after,
            dict(self.names),
            dict(self.tokens),
            self.spectators,
            self.version,
            self.session_over,
            [deal.record for deal in self.finished],
            self.start if under_way else None,
            [list(a) for a in self.actions] if under_way else [],
        )

    # -- who is who ----------------------------------------------------------------------------
    def seat_of(self, token: object) -> int | bool | None:
        """The seat a token names, None for the spectators' token, False for no token of this table."""
        return _seat_of(token, self.tokens, self.spectators)

    def rename(self, seat: int, name: object) -> str | None:
        """Name `seat` as its player asks (see clean_text); the reason when nothing is left of it."""
        cleaned = clean_text(name, MAX_NAME)
        if cleaned is None:
            return "a name has at least one letter, digit or sign"
        if cleaned != self.names[seat]:
            self.names[seat] = cleaned
            self.version += 1
            if self.store is not None:
                self.store.renamed(self.id, self.names, self.version)
        return None

    def _changed(self) -> None:
        """A change that only the version records (who is at the table, who is ready)."""
        self.version += 1
        if self.store is not None:
            self.store.changed(self.id, self.version)

    # -- people come and go ----------------------------------------------------------------------
    def joined(self, seat: int) -> None:
        """A browser joined at a person's seat: the person is back, and plays the seat again."""
        self.browsers[seat] += 1
        self.standing_in.discard(seat)
        self._changed()

    def left(self, seat: int) -> None:
        """A browser at a person's seat went away (the seat may still have another). Where the
        others at the table are ready for the next deal and only this person was not, it is dealt."""
        self.browsers[seat] -= 1
        self._changed()
        if self.ready and not self.waiting_for() and self.game.is_over and not self.session_over:
            self.next_deal()

    def present(self, seat: int) -> bool:
        """Whether a browser is at a person's seat."""
        return self.browsers.get(seat, 0) > 0

    def stand_in(self, seat: int) -> bool:
        """Let a bot play a person's seat that nobody is at (app.py calls it once the table's
        time is up); whether it did."""
        if seat not in self.people or self.present(seat) or seat in self.standing_in:
            return False
        self.standing_in.add(seat)
        self._changed()
        return True

    def waiting_for(self) -> list[int]:
        """The people at the table the next deal waits for: at the table, and not ready yet."""
        return [s for s in self.people if self.present(s) and s not in self.ready]

    def get_ready(self, seat: int) -> str | None:
        """`seat`'s person is ready for the next deal, which is dealt once everybody at the table
        is (a person away, or played by a bot for now, is not waited for); the reason when no
        deal is to come."""
        if not self.game.is_over:
            return "the deal is still being played"
        if self.session_over:
            return "the session is over"
        self.ready.add(seat)
        self._changed()
        if not self.waiting_for():
            return self.next_deal()
        return None

    @property
    def session_over(self) -> bool:
        return self.game.is_over and (len(self.finished) >= self.deals_planned or self.session.over)

    # -- moves ---------------------------------------------------------------------------------
    def act(self, seat: int, action: Any) -> str | None:
        """Apply a person's action; the reason when it is refused (the game is then unchanged)."""
        if self.game.is_over:
            return "the deal is over: deal the next one" if not self.session_over else "the session is over"
        try:
            self.game.apply(seat, action)
        except (IllegalActionError, InvalidActionError) as exc:
            return str(exc)
        except TarockError as exc:  # a rule of the ruleset failed: the action was undone
            return f"the action was not applied: {exc}"
        self._moved(seat, action)
        return None

    def bot_to_act(self) -> int | None:
        """The seat a bot is to play now, if any: a bot's seat, or a person's while it stands in."""
        seat = self.game.to_act
        return seat if seat is not None and (seat not in self.people or seat in self.standing_in) else None

    def bot_decision(self) -> Decision | None:
        """The turn of the bot to play now, as a job for thinking.choose (None: no bot's turn).
        A search bot draws from a stream of its own for each choice, derived from the table's
        seed, the deal and the step (engine/seeds.bot_seed): never the shuffle's."""
        seat = self.bot_to_act()
        if seat is None:
            return None
        deal = len(self.session.deals)
        cheap = (
            self.bots == "rules"
            or self.game.view(seat)["phase"] != "play"  # it bids and exchanges as the rule bot
            or len(self.game.legal_actions(seat)) == 1
        )
        return Decision(
            self.id,
            deal,
            self.start,
            list(self.actions),
            seat,
            self.bots,
            self.seconds,
            bot_seed(self.seed, self.bots, deal, self.step),
            cheap,
        )

    def bot_move(self, decision: Decision, choice: Choice) -> bool:
        """Apply a bot's choice if the table is still where the bot thought it out (a person's
        call out of turn may have come first); whether it did."""
        if decision.at != (len(self.session.deals), self.step) or self.bot_to_act() != decision.seat:
            return False
        self.game.apply(decision.seat, choice.action)
        self.searches += choice.searched
        self._moved(decision.seat, choice.action)
        return True

    def bot_step(self) -> bool:
        """Let the bot play the seat whose turn it is, when that seat is a bot's, thinking here
        and now (the server thinks away from its event loop: thinking.Thinkers); whether it did."""
        decision = self.bot_decision()
        return decision is not None and self.bot_move(decision, choose(decision, self.ruleset))

    def next_deal(self) -> str | None:
        """Deal the next deal of the session; the reason when it cannot be dealt now."""
        if not self.game.is_over:
            return "the deal is still being played"
        if self.session_over:
            return "the session is over"
        self._deal()
        self.version += 1
        if self.store is not None:
            self.store.dealt(self.id, len(self.session.deals), self.start, self.version)
        return None

    @property
    def step(self) -> int:
        """The actions of the deal so far."""
        return len(self.actions)

    def _moved(self, seat: int, action: Any) -> None:
        self.actions.append([seat, action])
        self.version += 1
        game = self.game
        number = len(self.session.deals)
        if game.is_over and game.result is not None and len(self.finished) < number:
            self.session.finish_deal()
            lines = explain_result(game.result.as_dict(), game.ruleset, game.players, game.seats_out, self._name)
            record = game.record()
            self.finished.append(Finished(number, game.dealer, lines, list(game.result.payments), _log(game), record))
            if self.store is not None:
                self.store.finished(self.id, number, record, self.session_over, self.version)
        elif self.store is not None:
            self.store.acted(self.id, number, len(self.actions) - 1, seat, action, self.version)

    def record_text(self, number: int) -> str | None:
        """The full record of finished deal `number` (from 1) as YAML, or None: the umpire's,
        with every hand as dealt."""
        for deal in self.finished:
            if deal.number == number:
                return dump_record(deal.record)
        return None

    def download(self, number: int, seat: int | None) -> str | None:
        """The record of finished deal `number` as `seat` (None: a spectator) may have it, as
        YAML, or None: a seat's full record once the session is over; until then, and for a
        spectator always, the deal as it saw it (downloads.record_for)."""
        deal = next((d for d in self.finished if d.number == number), None)
        if deal is None:
            return None
        full = seat is not None and self.session_over
        key = "full" if full else seat
        if key not in deal.downloads:
            deal.downloads[key] = _download(self.ruleset, deal.record, seat, full, self.names)
        return deal.downloads[key]

    def _name(self, seat: int) -> str:
        return self.names.get(seat, f"seat {seat}")

    # -- finished deals, on request ------------------------------------------------------------
    def deals_page(self, start: object) -> dict[str, Any] | str:
        """The score sheet's rows from deal `start` on (at most DEALS_PAGE of them), as the
        `deals` message; the reason when `start` is no deal's number."""
        if type(start) is not int or not 1 <= start <= len(self.finished) + 1:
            return f"from is the number of a finished deal, 1 to {len(self.finished)}, not {_short(start)}"
        rows = self.finished[start - 1 : start - 1 + DEALS_PAGE]
        following = start + len(rows)
        return {
            "type": "deals",
            "from": start,
            "deals": [deal.summary() for deal in rows],
            "next": following if following <= len(self.finished) else None,
        }

    def finished_deal(self, number: object, seat: int | None) -> dict[str, Any] | str:
        """Finished deal `number` as `seat` (None: a spectator) saw it at its end, as the
        `deal` message: the settlement explained, the public log, and the seat's own view of
        the table when the deal was over (rebuilt from the record: public_view, as the state
        at that moment showed it); the reason when there is no such deal."""
        deal = next((d for d in self.finished if d.number == number), None) if type(number) is int else None
        if deal is None:
            return f"no finished deal {_short(number)}: the deals finished are 1 to {len(self.finished)}"
        record = deal.record
        game = Game(
            self.ruleset, players=record["players"], dealer=record["dealer"], deal=record["deal"], pot=record.get("pot")
        )
        for acting, action in record["actions"]:
            game.apply(acting, action)
        return {"type": "deal", "you": seat, **deal.summary(), "log": deal.log, "view": public_view(game, seat)}

    # -- what a seat is told ---------------------------------------------------------------------
    def welcome(self, seat: int | None) -> dict[str, Any]:
        """What a browser needs once: the pack's names and the words of the ruleset (public)."""
        rs = self.ruleset
        deck = rs.deck
        cards = {}
        for card in deck.cards:
            suit = deck.suit[card]
            trump = suit == TRUMP
            cards[card] = {
                "name": deck.name_of(card),
                "suit": suit,
                "symbol": "" if trump else deck.suit_symbols.get(suit, suit),
                "rank": card[1:],
                "trump": trump,
                "red": deck.suit_symbols.get(suit, "") in ("♥", "♦"),
            }
        return {
            "type": "welcome",
            "table": self.id,
            "you": seat,
            "title": rs.title,
            "cards": cards,
            "order": sorted(deck.cards, key=deck.sort_key),  # as a hand is sorted
            "legend": legend(deck),
            "calls": dict(rs.call_titles),
            "contracts": {name: c.title for name, c in rs.contracts.items()},
            "announcements": {name: a.title for name, a in rs.announcements.items()},
            "unit": rs.settlement.unit,
        }

    def state_for(self, seat: int | None) -> dict[str, Any]:
        """Everything `seat` (None: a spectator) may know now, as one message."""
        game = self.game
        rs = game.ruleset
        view = public_view(game, seat)
        public = [public_event(e, game) for e in game.events if e["type"] in ("call_partner", "talon_shown")]
        call = partner_call(public)
        parts = shown_parts(view, public)
        legal: list[dict[str, Any]] = []
        if seat is not None and not game.is_over:
            legal = self._legal(seat, view, parts)
        session = self.session
        totals = session.totals()  # the sheet settled and the pot's antes and shares: what each seat wins
        result = None
        if game.is_over and self.finished and self.finished[-1].number == len(self.session.deals):
            result = self.finished[-1].lines
        return {
            "type": "state",
            "version": self.version,
            "you": seat,
            "deal": len(self.session.deals),
            "step": self.step,
            "deals_planned": self.deals_planned,
            "session_over": self.session_over,
            # the round of its own this deal is played in (a closing round, a round at a signal), or None
            "round": self._round_title(),
            "seats": [
                {
                    "seat": s,
                    "name": self._name(s),
                    "person": s in self.people,
                    "present": self.present(s) if s in self.people else None,  # a browser is at the seat
                    "stand_in": s in self.standing_in,  # a bot plays it while its person is away
                    "ready": s in self.ready,  # for the next deal
                    "score": session.scores[s],  # the deals' payments added up
                    "sheet": session.sheet[s] if session.sheet is not None else None,  # a score sheet's entry
                    "total": totals[s],
                }
                for s in range(self.players)
            ],
            "windows": self.browsers.get(seat, 0) if seat is not None else None,  # this seat's own browsers
            "view": view,
            "legal": legal,
            "sides": sides_line(view, rs, self._name, call),  # the contract and who plays with whom
            "partner_game": partner_game(rs, view["contract"]),
            "hints": seat_hints(view, rs, self._name, call, public_view(game, None) if seat is not None else None),
            "talon_parts": parts,
            "tally": tally(view, rs, self._name),
            "log": _log(game, seat),
            "result": result,
            "pot": session.pot_left(),  # what a session's pot holds (None: it keeps none)
            "pots": session.pots_left(),  # what each of the session's pots of their own holds, by name
            "deals_finished": len(self.finished),  # their rows and logs: the `deals` and `deal` messages
        }

    def _round_title(self) -> str | None:
        played = self.session.rounds_of_deals[-1] if self.session.rounds_of_deals else None
        found = {r.name: r.title for r in self.ruleset.session.special_rounds}
        return found.get(played, played) if played is not None else None

    def _legal(self, seat: int, view: dict[str, Any], parts: list[list[str]] | None) -> list[dict[str, Any]]:
        """The seat's choices with their labels. A choice of several cards (a discard or keep) is
        one entry to choose by tapping the cards, whether the rules send a template or list every
        set (`sets`): never a button for each combination."""
        rs = self.game.ruleset
        actions = self.game.legal_actions(seat)
        cards = card_choice(actions, view["hand"])
        if cards is not None:
            kind, spec, sets = cards
            task, forbidden = choice_task(kind, spec, view["hand"], rs.deck)
            return [
                {
                    "choice": kind,
                    "count": spec["count"],
                    "from": list(spec["from"]),
                    "forbidden": forbidden,
                    "including": list(spec.get("including", ())),
                    "sets": None if sets is None else sorted(sorted(s, key=view["hand"].index) for s in sets),
                    "label": task,
                }
            ]
        return [
            {"action": action, "label": action_label(action, rs, legal=actions, view=view, talon_parts=parts)}
            for action in actions
        ]


@dataclass(frozen=True)
class ClosedTable:
    """A table kept in the database but not open (closed after a time with nobody at it, or
    before a restart): its finished deals can be downloaded, each as its requester may have it
    (Table.download), without bringing the table back."""

    id: str
    ruleset: Ruleset
    names: dict[int, str]
    tokens: dict[str, int]  # digest → seat
    spectators: str  # digest
    session_over: bool
    store: Store = field(repr=False)

    def seat_of(self, token: object) -> int | bool | None:
        return _seat_of(token, self.tokens, self.spectators)

    def download(self, number: int, seat: int | None) -> str | None:
        record = self.store.record(self.id, number)
        if record is None:
            return None
        return _download(self.ruleset, record, seat, seat is not None and self.session_over, self.names)


def _new_id(store: Store | None) -> str:
    """A table's id: 48 random bits, never one the database holds."""
    while True:
        ident = secrets.token_urlsafe(6)
        if store is None or not store.has(ident):
            return ident


def _seat_of(token: object, tokens: dict[str, int], spectators: str) -> int | bool | None:
    """The seat `token` names among the seats' token digests, None for the spectators', False
    for none."""
    if not isinstance(token, str) or not TOKEN_FORM.fullmatch(token):
        return False
    key = digest(token)
    if key in tokens:
        return tokens[key]
    if secrets.compare_digest(key, spectators):
        return None
    return False


def _download(ruleset: Ruleset, record: dict[str, Any], seat: int | None, full: bool, names: dict[int, str]) -> str:
    """A finished deal's record for `seat` (None: a spectator) as YAML: the whole record where
    `full`, else the deal as the requester saw it (downloads.record_for)."""
    if full:
        return dump_record(record)
    by = "a spectator" if seat is None else f"seat {seat} ({names[seat]})"
    return dump_record(record_for(ruleset, record, seat, f"{by} at a table of tarock web"))


def _log(game: Game, seat: int | None = None) -> list[str]:
    """What happened in the deal so far, line by line, from the public events as `seat` (None: a
    spectator) may read them again now (a trick it may not look at again, without its cards)."""
    lines = []
    for event in events_seen(game, seat):
        line = describe_event(event, game) if event["type"] != "settlement" else None
        if line:
            lines.append(line)
    return lines


def _short(value: object) -> str:
    text = ascii(value) if not isinstance(value, (dict, list)) else type(value).__name__
    return text if len(text) <= 20 else text[:20] + "…"
