"""One deal of a ruleset, as a state machine driven by actions.

`Game` is the mutable state (OpenSpiel's State); the immutable game description is the
`Ruleset`. A deal goes through stages, each an object of its own that knows whose turn it is,
what they may do and what their action changes: the `Auction`, the `Exchange`, the declarer's
announcement and the `TrickPlay`. The game deals, moves from stage to stage, settles, and keeps
the history and the events. Every turn is one action; steps nobody decides (dealing, picking up
the talon, settling) are done by the engine and reported as events.

An action is applied whole or not at all. A refused action raises before the first change. A
failure while its consequences are worked out (a rule's formula failing at the last card, a deal
whose cards no longer add up) undoes it: the game is dealt again from the same cards and its
earlier actions replayed, since a deal is fully determined by them. That costs nothing on the
normal path.
"""

from __future__ import annotations

import dataclasses
import functools
import weakref
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from interpreter.engine.actions import (
    Action,
    ActionJson,
    Call,
    DiscardAction,
    FrozenAction,
    Kontra,
    PlayCard,
    parse_action,
    play_actions,
    play_steps,
    shown,
)
from interpreter.engine.announcements import DeclarerAnnouncement
from interpreter.engine.announcing import AnnouncementRound, DoublingRound, kontra_actions
from interpreter.engine.auction import PASS, Auction, AuctionTables, Outcome
from interpreter.engine.deal import DealError, Dealt, explicit_deal, seed_problem, shuffle_and_deal
from interpreter.engine.exchange import Abandoned, Accused, Cards, Claimed, Conceded, Ending, Exchange, claims
from interpreter.engine.faults import BrokenDealError, TableError, as_rule_failure
from interpreter.engine.phase import Phase
from interpreter.engine.play import Trick, TrickPlay
from interpreter.engine.settlement import (
    Deal,
    Result,
    each_other_pays,
    lost_every_trick,
    piles,
    reads_hands,
    settle,
    settle_individual,
)
from interpreter.engine.tricks import TrickRules
from interpreter.engine.views import view_of
from interpreter.errors import IllegalActionError, InvalidActionError
from interpreter.language.model import CALLED, Bonus, Compulsion, Contract, Ruleset

__all__ = ["DealError", "Game", "Phase"]

# The phases as plain names for the paths taken at every action: reading an Enum's member
# through its class goes through EnumType.__getattr__ in Python 3.11, ten times slower.
_AUCTION, _EXCHANGE, _ANNOUNCE, _PLAY, _OVER = Phase.AUCTION, Phase.EXCHANGE, Phase.ANNOUNCE, Phase.PLAY, Phase.OVER


class Game:
    """One deal. Seats are numbered in order of play; seat s+1 plays after seat s."""

    # The attributes read at every action have slots of their own: the rest (more than the 30
    # a Python 3.11 instance keeps in its fastest form) stay in the instance's __dict__.
    __slots__ = (
        "__dict__",
        "__weakref__",
        "_called",
        "_fast",
        "_history",
        "_legal_plays",
        "_open_from",
        "_plays",
        "_round",
        "_steps",
        "events",
        "is_over",
        "phase",
        "to_act",
        "trickplay",
    )

    _kontras: dict[str, FrozenAction]  # {kontra: ITEM} as read-only actions, set where a round of doubling starts

    def __init__(
        self,
        ruleset: Ruleset | str,
        players: int | None = None,
        dealer: int = 0,
        seed: int | None = None,
        deal: Mapping[str, Any] | None = None,
        options: Mapping[str, str] | None = None,
        pot: int | None = None,
    ):
        if isinstance(ruleset, str):
            from interpreter.language.loader import load_ruleset

            ruleset = load_ruleset(ruleset, options)
        elif options:
            # Readings and options given with a ruleset: chosen on it (an unknown name or choice
            # is refused, UsageError), never ignored.
            ruleset = ruleset.with_choices(options)
        self.table_ruleset = ruleset  # as loaded, before the rules for a number of players
        self.players = players = players if players is not None else ruleset.table_sizes[0]
        if type(players) is not int or players not in ruleset.table_sizes:
            raise TableError(
                "players",
                f"{ruleset.name} is played by {_counts(ruleset.table_sizes)} at the table, not {shown(players)}",
            )
        if type(dealer) is not int or not 0 <= dealer < players:
            raise TableError("dealer", f"the dealer must be a seat from 0 to {players - 1}, not {shown(dealer)}")
        if seed is not None and (problem := seed_problem(seed)) is not None:
            raise TableError("seed", problem)
        if pot is not None and (type(pot) is not int or pot < 0):
            raise TableError("pot", f"the pot is a whole number from 0, not {shown(pot)}")
        self.dealer = dealer
        self.sitting_out = dealer if players in ruleset.dealer_sits_out else None
        self.seats = list(_seats_from_vorhand(players, dealer, self.sitting_out))
        # Some rulesets have rules of their own for a number of players (Cego for three).
        self.ruleset = ruleset = ruleset.for_players(len(self.seats))
        self.vorhand = self.seats[0]
        # Whose turn it is (None: nobody's) and whether the deal is over: read at every action
        # of a simulation, so kept up to date by every change (_sync) rather than worked out
        # when read. Read them; do not set them.
        self.to_act: int | None = None
        self.is_over = False
        self.events: list[dict[str, Any]] = []
        self._history: list[tuple[int, ActionJson]] = []
        self._plays = play_actions(ruleset)
        self._steps = play_steps(ruleset, players)
        self._legal_plays: list[ActionJson] | None = None  # the legal plays of this turn, once asked
        # The trick play while every turn is plain (only following suit to mind) but for the
        # holders of watched cards (TrickPlay.plain_hands: the called card, cards kept back),
        # and no open hands are to be shown: a card then takes the short way through `apply`.
        # None otherwise (see _refresh_fast). A watched card's holder's legal plays are never
        # kept in `_legal_plays` while it is set, so that `apply` takes its card the general way.
        self._fast: TrickPlay | None = None
        # The round of announcements while it lasts (else None): its actions take a short way
        # through `legal_actions` and `apply` (AnnouncementRound.take).
        self._round: AnnouncementRound | None = None

        dealt = self._deal(seed, deal)
        self.seed = dealt.seed  # None unless shuffled from a seed the caller gave
        self.cards = Cards(dealt.hands, dealt.talon)
        self.initial_hands = list(map(list, map(self.cards.hands.__getitem__, range(players))))
        self.initial_talon = list(self.cards.talon)

        self.contract: Contract | None = None
        self.declarer: int | None = None
        self.trump_suit: str | None = ruleset.play.trump_suit  # a suit that is trumps in this deal
        # The exchange, once the contract has one (None before, and for a contract with nothing
        # to exchange: see _start_exchange).
        self.exchange: Exchange | None = None
        self.announcement: DeclarerAnnouncement | AnnouncementRound | None = None
        # A partner by a called card: the card, whether it was named, and its holder when play
        # starts (None: the declarer plays alone). Known to the engine; views keep the secret.
        self.called_card: str | None = None
        self.called_named = True
        self.partner: int | None = None
        self.partner_public = False  # everybody knows the sides (the card was seen, or the partner spoke)
        self._called: str | None = None  # the called card while its playing would reveal the partner
        self._open_from = 0  # open hands are shown once a card is led to this trick (0: none later)
        self.talon_added: dict[int, list[str]] = {}  # trick number -> talon cards added to it
        # Cards kept back for an announced bonus that forfeits when forced out early:
        # card -> (bonus, its trick, its side); and the forfeit, once it happened.
        self._forfeit_cards: dict[str, tuple[str, int, str]] = {}
        self.forfeit: tuple[str, int, str] | None = None
        self.trickplay: TrickPlay | None = None
        self.result: Result | None = None
        # A pot, where the table keeps one: the dealer's ante goes in first (an account of its own).
        self.pot_start = pot if pot is not None else (0 if ruleset.pot_ante is not None else None)
        self.phase = _AUCTION
        self.auction = Auction(
            ruleset.phases,
            self.seats,
            self.cards.hands,
            len(self.seats),
            enforce=ruleset.breaches == "refuse",
            suit_of=ruleset.deck.suit,
            tables=_auction_tables(ruleset),
        )
        try:
            self.ante = (
                int(ruleset.pot_ante({"players": len(self.seats)}))
                if ruleset.pot_ante is not None and self.pot_start is not None
                else 0
            )
            self._emit(type="phase", phase="auction", name=ruleset.phases[0].name)
            if dealt.misdeal is not None:
                self._penalize_misdeal(dealt.misdeal)
            else:
                # An auction in which nobody can change the outcome (compulsory Räuber) is over at once.
                self._auction_moves_on(self.auction.settle())
        except Exception as exc:
            if (failure := _failure(exc, "setting up the deal")) is exc:
                raise
            raise failure from exc
        self._sync()

    def _deal(self, seed: int | None, deal: Mapping[str, Any] | None) -> Dealt:
        if deal is not None:
            if seed is not None:
                raise TableError("seed", "give a seed or a deal, not both")
            dealt = explicit_deal(self.ruleset, self.seats, self.players, self.sitting_out, deal)
            self._emit(type="deal", dealer=self.dealer, explicit=True)
            return dealt
        if seed is None:
            # No seed to search for: the deal is as secret as the operating system's randomness.
            self._emit(type="deal", dealer=self.dealer)
        else:
            self._emit(type="deal", dealer=self.dealer, seed=seed)
        return shuffle_and_deal(self.ruleset, self.seats, self.players, seed)

    @property
    def ruleset_ref(self) -> str:
        """How a record names the ruleset: its name where that finds the same file (a ruleset
        under rulesets/), else the path of its file."""
        from interpreter.language.loader import find_ruleset_file, source_file

        rs = self.table_ruleset
        bundled = find_ruleset_file(rs.name)
        here = source_file(rs.file).resolve()  # a built-in file is named short outside the checkout
        return rs.name if bundled is not None and bundled.resolve() == here else str(here)

    # -- the cards, as the stages share them ---------------------------------------------------
    @property
    def hands(self) -> dict[int, list[str]]:
        return self.cards.hands

    @property
    def talon(self) -> list[str]:
        return self.cards.talon

    @property
    def aside(self) -> list[str]:
        return self.cards.aside

    @property
    def exposed(self) -> list[str]:
        return self.cards.exposed

    @property
    def laid(self) -> list[tuple[str, str]]:
        """(announcement, card) laid out face up by the declarer (Ulti)."""
        return self.announcement.laid if self.announcement else []

    @property
    def declared(self) -> list[str]:
        """Declarations the declarer made (Tout)."""
        return self.announcement.declared if self.announcement else []

    @property
    def tricks(self) -> list[Trick]:
        return self.trickplay.tricks if self.trickplay else []

    @property
    def history(self) -> list[tuple[int, ActionJson]]:
        """Every action taken, as (seat, action), in order; a copy, safe to keep and change."""
        return [(seat, _copy(action)) for seat, action in self._history]

    @property
    def calls(self) -> list[tuple[int, str]]:
        """The calls of the auction (and passes after it), as (seat, call), in order."""
        return [(seat, action) for seat, action in self._history if isinstance(action, str)]

    # -- whose turn, what may be done ----------------------------------------------------------
    def _sync(self) -> None:
        """`to_act` and `is_over` after a change."""
        self.to_act = self._turn()
        self.is_over = self.phase is _OVER

    def _turn(self) -> int | None:
        if (fast := self._fast) is not None:
            return fast.to_act
        phase = self.phase
        if phase is _PLAY and (play := self.trickplay) is not None:
            return play.to_act
        if phase is _AUCTION:
            return self.auction.to_act()
        if phase is _EXCHANGE and (exchange := self.exchange) is not None:
            return exchange.to_act
        if phase is _ANNOUNCE and (announcement := self.announcement) is not None:
            return announcement.to_act
        return None

    def legal_actions(self, seat: int | None = None) -> list[ActionJson]:
        """The actions `seat` may take now (default: the seat to act), in protocol form; a new
        list each time, of actions that are read-only or new. A choice too large to list (a
        12-card discard) comes as a template."""
        if (fast := self._fast) is not None and (seat is None or seat is fast.to_act):
            # Plain trick play (most turns of a deal): the legal cards, once a turn. The steps
            # of TrickPlay.legal_fast, taken here rather than called: a call less at every card
            # (tests/test_engine_speed.py holds the two to the rules of following).
            legal = self._legal_plays
            if legal is not None:
                return legal.copy()
            hand = fast.plain_hands[fast.to_act]  # type: ignore[index]  # (a seat: the play is not over)
            if hand is None:  # (it holds a watched card)
                return self._watched_plays(fast)
            plays = self._plays
            cards = fast.trick.cards
            legal = self._legal_plays = []  # (loops, not comprehensions: see legal_fast)
            if cards:
                for asked in fast.duties[cards[0]]:
                    for card in hand:
                        if card in asked:
                            legal.append(plays[card])
                    if legal:
                        return legal.copy()
            for card in hand:
                legal.append(plays[card])
            return legal.copy()
        try:
            if (round_ := self._round) is not None and (seat is None or seat is round_.to_act):
                # A round of announcements has many turns, each of several actions.
                return round_.offer()  # (it lasts while someone is to speak)
            if self.phase is _PLAY and (play := self.trickplay) is not None:
                # Trick play first: it is most of a deal's turns.
                if seat is None:
                    seat = play.to_act
                    if seat is None:
                        return []
                elif seat != play.to_act:
                    self._check_seat(seat)
                    return []
                legal = self._legal_plays
                if legal is None:
                    legal = play.legal_plays(seat, self._plays)
                    if self._fast is not None:
                        # A turn the short way does not take (its seat holds a watched card):
                        # the list is not kept, for `apply` would take it for a plain turn's.
                        return legal
                    self._legal_plays = legal
                return legal.copy()
            if seat is not None and seat is not self.to_act:  # (the seat to act is a seat)
                self._check_seat(seat)
            if self.phase is _AUCTION:
                if seat is None:
                    seat = self.auction.to_act()
                # Another seat than the one to act may have an interrupting call.
                return [*self.auction.legal(seat)] if seat is not None else []
            if seat is None:
                seat = self.to_act
            if seat is None:
                return []
            if self.phase is _EXCHANGE and (exchange := self.exchange) is not None:
                return exchange.legal(seat)
            if self.phase is _ANNOUNCE and (announcement := self.announcement) is not None:
                return announcement.legal(seat)
            return []
        except Exception as exc:
            if (failure := _failure(exc, f"listing the legal actions of seat {seat}")) is exc:
                raise
            raise failure from exc

    def _watched_plays(self, play: TrickPlay) -> list[ActionJson]:
        """The legal plays of the seat to act while `_fast` holds, which holds a watched card:
        worked out by trick play's general steps, and not kept in `_legal_plays` (`apply` would
        take the card for a plain turn's)."""
        seat = play.to_act
        assert seat is not None
        try:
            return [self._plays[card] for card in play.legal(seat)]
        except Exception as exc:
            if (failure := _failure(exc, f"listing the legal actions of seat {seat}")) is exc:
                raise
            raise failure from exc

    def _check_seat(self, seat: object) -> None:
        if type(seat) is not int or not 0 <= seat < self.players:
            raise InvalidActionError(f"no seat {shown(seat)}: seats are 0 to {self.players - 1}")

    # -- applying actions ----------------------------------------------------------------------
    def apply(self, seat: int, action: object) -> list[dict[str, Any]]:
        """Apply `action` by `seat`. Returns the events it caused. Raises InvalidActionError
        (malformed) or IllegalActionError (not allowed now), and the game is unchanged; or, if
        the rules fail on the action's consequences, RuleFailure or BrokenDealError, and the
        action is undone."""
        if (
            type(action) is FrozenAction
            and (legal := self._legal_plays) is not None
            and action in legal
            and (
                ((play := self._fast) is not None and seat is play.to_act)
                or (
                    self.phase is _PLAY
                    and (play := self.trickplay) is not None
                    and seat is play.to_act
                    and self._unwatched()
                    and play.plain_turn(seat)
                )
            )
        ):
            # The most common action of all: a card `legal_actions()` handed out, in trick play
            # with only following suit to mind and nothing watched for (every turn `legal_actions`
            # listed while `_fast` holds, else this seat's). The card's steps are taken here
            # rather than in a method of trick play: a call less at every card (see
            # TrickPlay.complete_plain).
            # `seat is play.to_act`: the very int, neither True for seat 1 nor a number of another type.
            card = action["play"]
            trick = play.trick
            play.hands[seat].remove(card)
            trick.seats.append(seat)
            cards = trick.cards
            cards.append(card)
            count = play.played_in_open = len(cards)
            self._legal_plays = None
            entry, event = self._steps[seat][card]  # (seat, action) and the event, shared and read-only
            self._history.append(entry)
            self.events.append(event)
            if count < play.n_seats:
                self.to_act = play.to_act = play.orders[trick.leader][count]
                return [event]
            start = len(self.events) - 1
            try:
                play.complete_plain(trick)
                self._tricks_done(play, [trick])
            except BaseException as exc:
                raise self._undo(exc, len(self._history) - 1, start, seat, action)  # noqa: B904
            if self.phase is _PLAY:
                self.to_act = play.to_act  # the next trick's leader (as _sync would say)
            else:
                self._sync()
            return self.events[start:]
        if self.phase is _PLAY and (play := self.trickplay) is not None and seat == play.to_act:
            # The common case in simulations, without the general checks below: a legal card by
            # the seat to play, most often the very action `legal_actions()` handed out.
            played: str | None = None
            if type(action) is FrozenAction:
                legal = self._legal_plays
                if (legal is not None and action in legal) or (
                    len(action) == 1 and action.get("play") in play.legal(seat)
                ):
                    played = action["play"]
            elif type(action) is dict and len(action) == 1 and action.get("play") in play.legal(seat):
                played = action["play"]
            if played is not None and type(seat) is int:
                start = len(self.events)
                try:
                    self._play_card(seat, played)
                except BaseException as exc:
                    # A card is played once in a deal: the history ends with this play if the
                    # failure came after it was written down.
                    history = self._history
                    done = len(history) - (bool(history) and history[-1] == (seat, self._plays[played]))
                    raise self._undo(exc, done, start, seat, action)  # noqa: B904 (it chains what it must)
                return self.events[start:]
        if (round_ := self._round) is not None and seat is round_.to_act:
            # An announcement, a kontra or the done call in the round of announcements, taken
            # as given when it is allowed (else the general steps below judge it).
            start, done = len(self.events), len(self._history)
            try:
                taken = round_.take(seat, action)
                if taken is not None:
                    self._history.append((seat, taken))
                    if round_.partner_revealed:
                        self.partner_public = True
                    if not round_.done:
                        self.to_act = round_.to_act
                        return self.events[start:]
                    self._round = None
                    self._start_play()
            except BaseException as exc:
                raise self._undo(exc, done, start, seat, action)  # noqa: B904
            if taken is not None:
                self._sync()
                return self.events[start:]
        if (
            type(action) is str
            and self.phase is _AUCTION
            and seat is self.to_act
            and action in self.auction.legal(seat)
        ):
            # A call the auction offers the seat to act (every call of a simulated auction): it
            # needs neither parsing nor the general checks below.
            start, done = len(self.events), len(self._history)
            try:
                self._call(seat, action)
            except BaseException as exc:
                raise self._undo(exc, done, start, seat, action)  # noqa: B904
            self._sync()
            return self.events[start:]
        parsed = parse_action(action, self.ruleset)
        self._check_seat(seat)
        if self.phase is _OVER:
            raise IllegalActionError("the deal is over", seat)
        if seat != self.to_act and not (
            self.phase is _AUCTION and isinstance(parsed, Call) and parsed.name in self.auction.legal(seat)
        ):
            raise IllegalActionError(self._not_your_turn(seat, parsed), seat)
        start, done = len(self.events), len(self._history)
        try:
            self._apply(seat, parsed)
        except (IllegalActionError, InvalidActionError) as refusal:
            if len(self.events) == start and len(self._history) == done:
                raise  # refused before the first change, as every refusal should be
            raise self._undo(refusal, done, start, seat, action)  # noqa: B904
        except BaseException as exc:
            raise self._undo(exc, done, start, seat, action)  # noqa: B904
        self._sync()
        return self.events[start:]

    def _apply(self, seat: int, parsed: Action) -> None:
        if isinstance(parsed, (PlayCard, DiscardAction)) and (offence := self._offence(seat, parsed)) is not None:
            self._penalize_offence(seat, parsed, offence)
        elif self.phase is _AUCTION:
            self._apply_call(seat, parsed)
        elif self.phase is _EXCHANGE and (exchange := self.exchange) is not None:
            exchange.apply(seat, parsed)  # raises before any change if illegal
            self._history.append((seat, parsed.as_json()))
            self._after_exchange(exchange.advance())
        elif self.phase is _ANNOUNCE and (announcement := self.announcement) is not None:
            if (
                isinstance(parsed, PlayCard)
                and isinstance(announcement, DeclarerAnnouncement)
                and announcement.legal(seat) == [PASS]
            ):
                # Leading with nothing to announce announces nothing (records from before this
                # turn was asked of every declarer lead at once): the pass is said for it.
                announcement.apply(seat, Call(PASS))
                self._start_play()
                self._apply_play(seat, parsed)
                return
            announcement.apply(seat, parsed)
            # A kontra goes into the history as the ruleset's read-only action for its item.
            done = self._kontras[parsed.item] if type(parsed) is Kontra else parsed.as_json()
            self._history.append((seat, done))
            if isinstance(announcement, AnnouncementRound) and announcement.partner_revealed:
                self.partner_public = True
            if announcement.to_act is None:
                self._round = None
                self._start_play()
        else:
            self._apply_play(seat, parsed)

    def _undo(self, exc: BaseException, done: int, events: int, seat: int, action: object) -> BaseException:
        """Undo an action that failed half-way: the game as it was after its first `done`
        actions, with its first `events` events. Returns the error to raise: the project's
        error naming the rule that failed, or `exc` itself when no rule did."""
        history, kept, seed = self._history[:done], self.events, self.seed
        deal = {"hands": [list(h) for h in self.initial_hands], "talon": list(self.initial_talon)}
        Game.__init__(self, self.table_ruleset, self.players, self.dealer, deal=deal, pot=self.pot_start)
        for earlier_seat, earlier in history:
            self.apply(earlier_seat, earlier)
        del kept[events:]
        self.events, self.seed = kept, seed
        if not isinstance(exc, Exception):
            return exc  # an interrupt: the game is whole again, and the interrupt goes on
        return _failure(exc, f"applying seat {seat}'s {shown(action)}")

    def _not_your_turn(self, seat: int, parsed: Action) -> str:
        if seat == self.sitting_out:
            return f"seat {seat} deals and sits out this deal"
        if isinstance(parsed, Call) and self.phase is Phase.AUCTION:
            return self.auction.refusal(seat, parsed.name)
        if isinstance(parsed, Call) and self.contract is not None:
            doing = {Phase.EXCHANGE: "discard", Phase.ANNOUNCE: "announce", Phase.PLAY: "play"}.get(self.phase, "act")
            return (
                f"the bidding is over: seat {self.declarer} plays {self.contract.title}; "
                f"it is seat {self.to_act}'s turn to {doing}"
            )
        return f"it is seat {self.to_act}'s turn, not seat {seat}'s"

    def _wrong_kind(self, seat: int, parsed: Action) -> IllegalActionError:
        wanted = {
            Phase.AUCTION: "a call",
            Phase.EXCHANGE: "a discard",
            Phase.PLAY: "a card to play",
            Phase.ANNOUNCE: "an announcement or pass",
        }[self.phase]
        return IllegalActionError(f"it is time for {wanted} ({self.phase.value}), not {parsed.describe()}", seat)

    # -- the auction ---------------------------------------------------------------------------
    def _apply_call(self, seat: int, parsed: Action) -> None:
        if not isinstance(parsed, Call):
            raise self._wrong_kind(seat, parsed)
        self._call(seat, parsed.name)

    def _call(self, seat: int, call: str) -> None:
        phase_name = self.auction.state.phase.name
        breach = self.auction.breach(seat, call) if self.ruleset.breaches == "penalize" else None
        outcome = self.auction.apply(seat, call)  # raises before any change if illegal
        self._history.append((seat, call))
        self._emit(type="call", seat=seat, call=call, phase=phase_name)
        if breach is not None:
            self._penalize_breach(seat, breach)
            return
        self._auction_moves_on(outcome)

    def _auction_moves_on(self, outcome: Outcome | None) -> None:
        """Into the next phase, or out of the auction, for as long as phases end without a word."""
        while outcome is not None:
            following = self.auction.next_phase(outcome)
            if following is None:
                self._end_auction(outcome)
                return
            self._emit(type="phase", phase="auction", name=following)
            outcome = self.auction.settle()

    def _end_auction(self, outcome: Outcome) -> None:
        phase = self.auction.state.phase
        if outcome.seat is None and phase.pass_out == "play":
            # Everybody passed: a game without a declarer (Räuber, Ramsch) is played.
            assert phase.pass_out_play is not None
            self.contract = self.ruleset.contracts[phase.pass_out_play]
            self._emit(type="contract", contract=self.contract.name, declarer=None)
            self._start_exchange()
            return
        if outcome.seat is None or outcome.throw_in:
            self._emit(type="thrown_in", **({"seat": outcome.seat} if outcome.throw_in else {}))
            self._finish(Result("thrown_in", None, None, None, None, None, [0] * self.players))
            return
        assert outcome.contract is not None
        self.contract = self.ruleset.contracts[outcome.contract]
        self.declarer = outcome.seat
        if self.contract.trump_suit is not None:
            self.trump_suit = self.contract.trump_suit
        if self.contract.no_trump_suit:
            self.trump_suit = None
        self._emit(type="contract", contract=self.contract.name, declarer=self.declarer)
        self._start_exchange()

    # -- the exchange and the declarer's announcement -------------------------------------------
    def _start_exchange(self) -> None:
        contract = self.contract
        assert contract is not None
        rule = self.ruleset.accusation
        may_accuse = rule is not None and rule.phase in self.auction.passed_out
        if not contract.exchange and not contract.trump_choice and not may_accuse:
            # Nothing to exchange (a game from the hand as dealt, most Solos): no Exchange is
            # built, and `exchange` stays None. Of its steps only the last applies, as
            # Exchange.advance takes it: the claim of a hand shown instead of played.
            if claims(self.ruleset, self.declarer, self.cards.hands):
                self._settle_claim()
            else:
                self._exchange_done()
            return
        self.phase = _EXCHANGE
        self.exchange = Exchange(
            self.ruleset,
            contract,
            self.declarer,
            self.seats,
            self.cards,
            self.initial_hands,
            self._stage_emit(),
            trump_suit=self.trump_suit,
            may_accuse=may_accuse,
        )
        self._after_exchange(self.exchange.advance())

    def _after_exchange(self, ending: Ending | None) -> None:
        assert self.exchange is not None
        self.trump_suit = self.exchange.trump_suit
        if ending is None:
            return  # the declarer has a choice to make
        if isinstance(ending, Claimed):
            self._settle_claim()
        elif isinstance(ending, Accused):
            self._settle_accusation(ending)
        elif isinstance(ending, Conceded):
            self._settle_concession(ending)
        elif isinstance(ending, Abandoned):
            self._finish(
                Result(
                    "abandoned",
                    self.contract.name if self.contract else None,
                    self.declarer,
                    None,
                    None,
                    None,
                    [0] * self.players,
                    reason=ending.reason,
                )
            )
        else:
            self._exchange_done()

    def _exchange_done(self) -> None:
        """After the exchange (or with nothing to exchange): the doubling, the announcements, or play."""
        assert self.contract is not None
        if self.contract.doubling is not None:
            self._start_doubling()
        else:
            self._find_partner()
            if self.ruleset.announcing is not None and self.declarer is not None and self.contract.individual is None:
                self.phase = _ANNOUNCE
                self._kontras = kontra_actions(self.ruleset)
                self.announcement = self._round = AnnouncementRound(
                    self.ruleset,
                    self.contract,
                    self.declarer,
                    self.partner,
                    self.seats,
                    self.hands,
                    self._stage_emit(),
                    self.vorhand,
                    seat_facts={s: self.auction.seat_facts(s) for s in self.seats},
                    card_called=self.called_card is not None,
                )
                self._emit(type="phase", phase="announce", seat=self.declarer)
            else:
                self._declarer_announces()

    def _start_doubling(self) -> None:
        """Everyone for themselves: each player in turn may double once (Räuber's knocking)."""
        assert self.contract is not None and self.contract.doubling is not None
        rule = self.contract.doubling
        first = self.auction.last_speaker if rule.start == "last_passer" else None
        if first is None:
            first = self.vorhand
        # Round the table in the order of play, the dealer in its place when it takes part.
        order = [(first + i) % self.players for i in range(self.players)]
        order = [s for s in order if s in self.seats or (rule.sitting_out and s == self.sitting_out)]
        done = self.ruleset.announcing.done if self.ruleset.announcing is not None else "pass"
        self.phase = _ANNOUNCE
        self._kontras = kontra_actions(self.ruleset)
        self.announcement = DoublingRound(rule, order, done, self._stage_emit())
        self._emit(type="phase", phase="announce", seat=order[0])

    def _find_partner(self) -> None:
        """The holder of the called card when play is about to start is the declarer's partner."""
        exchange = self.exchange
        if exchange is None or exchange.partner_card is None:
            return
        card = self.called_card = exchange.partner_card
        self.called_named = exchange.partner_named
        holder = next((s for s in self.seats if card in self.hands[s]), None)
        self.partner = holder if holder != self.declarer else None
        # A card that lies face up (a talon shown) tells everybody that the declarer plays alone.
        self.partner_public = exchange.talon_shown and card in self.initial_talon
        self._called = None if holder is None else card

    def _declarer_announces(self) -> None:
        # Asked whatever the hand holds: a turn only for a hand that may announce would tell the
        # table what the declarer holds (design.md: a pass with no alternative is said all the same).
        contract = self.contract
        if (
            self.declarer is not None
            and contract is not None
            and any(a.contracts is None or contract.name in a.contracts for a in self.ruleset.announcements.values())
        ):
            self.phase = _ANNOUNCE
            self.announcement = DeclarerAnnouncement(
                self.ruleset, contract, self.declarer, self.cards, self._stage_emit()
            )
            self._emit(type="phase", phase="announce", seat=self.declarer)
        else:
            self._start_play()

    # -- trick play ----------------------------------------------------------------------------
    def _start_play(self) -> None:
        assert self.contract is not None
        n_tricks = self._check_cards()
        self.phase = _PLAY
        contract = self.contract
        play_rules = contract.play or self.ruleset.play
        leader = self.declarer if play_rules.first_lead == "declarer" and self.declarer is not None else self.vorhand
        self.trickplay = TrickPlay(
            TrickRules.of(self.ruleset, self.trump_suit, contract),
            play_rules,
            self.ruleset.deck,
            self.seats,
            self.cards.hands,
            self.declarer,
            leader,
            n_tricks,
            exposed=self.cards.exposed,
            opening=contract.opening_leads,
            schedule=contract.schedule,
        )
        if self._called is not None:
            self.trickplay.watch((self._called,))  # its playing reveals the partner
        announcement = self.announcement
        if announcement is not None:
            if announcement.laid:
                self.trickplay.laid = [card for _, card in announcement.laid]
                self.trickplay.refresh()
            if isinstance(announcement, AnnouncementRound):
                kept = self._kept_cards(announcement, n_tricks)
                self.trickplay.keep_back(kept)
                self._forfeit_cards = self._forfeits(announcement, kept)
        self._emit(type="phase", phase="play", leader=leader)
        if contract.open_hand:
            if contract.open_hand_from <= 1:
                self._show_open_hands()
            else:
                self._open_from = contract.open_hand_from
        self._refresh_fast()

    def _refresh_fast(self) -> None:
        """Whether the next card may take the short way: see `_fast`."""
        play = self.trickplay
        self._fast = play if play is not None and play.fast and self.phase is _PLAY and self._unwatched() else None

    def _unwatched(self) -> bool:
        """Whether no card's play is watched for by every seat: none shows the open hands (a
        step of `_play_card` the short ways skip). The cards that reveal a partner or forfeit a
        kept-back bonus are watched in their holders' hands only (TrickPlay.plain_hands)."""
        return not self._open_from

    def _show_open_hands(self) -> None:
        assert self.contract is not None
        deck = self.ruleset.deck
        if self.contract.open_hand_who == "all":
            for seat in self.seats:
                self._emit(type="open_hand", seat=seat, hand=sorted(self.hands[seat], key=deck.sort_key))
        elif self.declarer is not None:
            self._emit(type="open_hand", seat=self.declarer, hand=sorted(self.hands[self.declarer], key=deck.sort_key))

    def _kept_cards(self, round_: AnnouncementRound, n_tricks: int) -> dict[str, int]:
        """The cards of announced bonuses that their side holds, each kept back for its trick."""
        kept = {}
        for name, side in round_.announced.items():
            bonus = self.ruleset.bonuses[name]
            card = self._bonus_card(bonus)
            if card is None or bonus.trick is None:
                continue
            holders = [s for s in self.seats if card in self.hands[s] and round_.side_of(s) == side]
            if holders:
                kept[card] = bonus.trick if bonus.trick > 0 else n_tricks + 1 + bonus.trick
        return kept

    def _bonus_card(self, bonus: Bonus) -> str | None:
        """The card an announced bonus keeps back: its own, or the card called for a partner."""
        return self.called_card if bonus.card == CALLED else bonus.card

    def _forfeits(self, round_: AnnouncementRound, kept: dict[str, int]) -> dict[str, tuple[str, int, str]]:
        """The kept-back cards whose bonus forfeits the rest of the play when forced out early."""
        found = {}
        for name, side in round_.announced.items():
            bonus = self.ruleset.bonuses[name]
            card = self._bonus_card(bonus)
            if bonus.forced_early == "forfeit" and card is not None and card in kept:
                found[card] = (name, kept[card], side)
        return found

    def _check_cards(self) -> int:
        """Before the first lead: every card of the pack in exactly one place (a hand, the
        talon, the discards), and every active hand the size the deal plan gives, which is the
        number of tricks. Raises BrokenDealError rather than play and settle a broken deal."""
        size, pack = _pack_of(self.ruleset, len(self.seats))
        cards = self.cards
        if self.contract is not None and not self.contract.exchange and not cards.aside and not cards.exposed:
            # Nothing has moved since the deal, which was checked card by card as it was dealt.
            return size
        everywhere = cards.talon + cards.aside
        for hand in cards.hands.values():
            everywhere += hand
        wrong = [s for s in self.seats if len(cards.hands[s]) != size]
        if not wrong and len(everywhere) == len(pack) and pack.issuperset(everywhere):
            return size  # as many cards as the pack has, each of the pack: each exactly once
        counted = Counter(everywhere)
        problems = [f"seat {s} holds {len(cards.hands[s])} cards" for s in wrong]
        if wrong:
            problems[-1] += f" where the deal plan gives each player {size}"
        found = (
            ("cards in two places", sorted(c for c, n in counted.items() if n > 1)),
            ("cards lost", sorted(pack - counted.keys())),
            ("cards not of the pack", sorted(counted.keys() - pack)),
        )
        problems += [f"{what}: {', '.join(cards)}" for what, cards in found if cards]
        contract = self.contract.name if self.contract else "?"
        raise BrokenDealError(
            f"the deal no longer adds up when play would start ({'; '.join(problems)}): the exchange of "
            f"{contract!r} moves cards wrongly; this is a fault of the ruleset (or of the interpreter), "
            "and the deal stops here rather than be settled"
        )

    def _apply_play(self, seat: int, parsed: Action) -> None:
        if not isinstance(parsed, PlayCard):
            raise self._wrong_kind(seat, parsed)
        play = self.trickplay
        assert play is not None
        if parsed.card not in play.legal(seat):
            raise IllegalActionError(play.refusal(seat, parsed.card), seat)
        self._play_card(seat, parsed.card)

    def _play_card(self, seat: int, card: str) -> None:
        # apply() does the steps here itself, up to _tricks_done, when trick play is plain and
        # nothing is watched for (TrickPlay.plain_turn): keep the two in step.
        play = self.trickplay
        assert play is not None
        if self._forfeit_cards and card in self._forfeit_cards:
            self._forced_early(seat, card, play.number)
        completed, _ = play.play_card(seat, card)
        self._legal_plays = None
        entry, event = self._steps[seat][card]  # (seat, action) and the event, shared and read-only
        self._history.append(entry)
        self.events.append(event)
        if card == self._called:
            self.partner_public = True  # the called card is seen: everybody knows the sides
            self._called = None
        if self._open_from and play.number == self._open_from and len(play.trick.cards) == 1:
            self._open_from = 0
            self._show_open_hands()
        # Withholding is not announced (dappen-de §11.3): no event tells it; the settlement knows.
        if completed:
            self._tricks_done(play, completed)
        self._refresh_fast()
        self._sync()

    def _tricks_done(self, play: TrickPlay, completed: list[Trick]) -> None:
        """After the card that completed these tricks: report them, then settle or play on."""
        tricks = play.tricks
        for trick in completed:
            # The last trick begun, but for tricks played together (or after one of them).
            number = len(tricks) if tricks[-1] is trick else tricks.index(trick) + 1
            self.events.append(
                {
                    "type": "trick",
                    "number": number,
                    "cards": list(trick.cards),
                    "seats": list(trick.seats),
                    "winner": trick.winner,
                }
            )
            if self.contract is not None and number <= self.contract.talon_to_tricks and self.talon:
                # The talon's top card turned up and added to the trick: its winner takes it.
                added = self.talon.pop(0)
                self.talon_added.setdefault(number, []).append(added)
                self._emit(type="talon_card", trick=number, card=added, winner=trick.winner)
        if play.over:
            self._settle_played()
        else:
            play.next_trick()
            if self._fast is None or not play.fast:
                self._refresh_fast()  # (a short way that holds still holds: nothing it watches changed)

    def _forced_early(self, seat: int, card: str, number: int) -> None:
        """A card kept back for its trick played before it: the bonus is lost, and its side
        forfeits this trick and every later one (Pfeife raus forced out)."""
        bonus, due, side = self._forfeit_cards.pop(card)
        if number < due and self.forfeit is None:
            self.forfeit = (bonus, number, side)
            self._emit(type="forfeit", seat=seat, card=card, bonus=bonus, trick=number)

    # -- settling --------------------------------------------------------------------------------
    def play_hands(self) -> dict[int, frozenset[str]]:
        """Each active hand as play started (empty before): what it holds and what it has
        played, worked out when asked rather than kept at every deal (only bonuses for
        combinations in a hand read it)."""
        play = self.trickplay
        if play is None:
            return {}
        held = {s: list(self.hands[s]) for s in self.seats}
        for trick in play.tricks:
            for seat, card in zip(trick.seats, trick.cards, strict=True):
                held[seat].append(card)
        return {s: frozenset(cards) for s, cards in held.items()}

    def deal_facts(self) -> Deal:
        """What the settlement needs to know about this deal."""
        assert self.contract is not None
        announcement, ruleset, play = self.announcement, self.ruleset, self.trickplay
        withheld = play.withheld if play is not None else None
        facts = Deal(
            ruleset,
            self.contract,
            self.declarer,
            self.seats,
            self.players,
            self.sitting_out,
            frozenset(self.auction.bidders),
            dict(withheld) if withheld else {},
            tuple(announcement.laid) if announcement is not None and announcement.laid else (),
            announcement.declarations if announcement is not None else (),
            None if self.pot_start is None else self.pot_start + self.ante,
            self.partner,
            frozenset({self.called_card} if self.called_card else ()),
            # Only a combination held in a hand reads the hands (and None spares judging them).
            hands=self.play_hands() if reads_hands(ruleset) else None,
            forfeit=self.forfeit,
        )
        if isinstance(announcement, AnnouncementRound):
            facts.kontra = announcement.game_kontra
            facts.announced = announcement.announced_pairs()
            facts.bonus_kontra = announcement.bonus_kontra()
            facts.announced_seats = announcement.announced_seats()
        return facts

    def _settle_played(self) -> None:
        play = self.trickplay
        assert play is not None and self.contract is not None
        facts = self.deal_facts()
        if self.contract.individual is not None:
            self._finish(settle_individual(facts, play.tricks, self.vorhand, self.talon + self.aside, self.talon_added))
            return
        cards = self.cards
        out_of_play = cards.talon + cards.aside if self.contract.talon_counts else []
        routed = (list(cards.talon), list(cards.aside)) if self.contract.out_of_play is not None else None
        declarer_cards, defender_cards, declarer_tricks, defender_tricks = piles(
            facts, play.tricks, out_of_play, routed
        )
        self._finish(
            settle(facts, declarer_cards, defender_cards, declarer_tricks, defender_tricks, "played", play.tricks)
        )

    def _settle_claim(self) -> None:
        claim = self.ruleset.claim
        assert claim is not None and self.declarer is not None
        self._emit(
            type="claim", seat=self.declarer, hand=sorted(self.hands[self.declarer], key=self.ruleset.deck.sort_key)
        )
        n_tricks = sum(p.count for p in self.ruleset.deal_plans[len(self.seats)] if p.to == "each")
        self._finish(
            settle(
                self.deal_facts(),
                list(self.ruleset.pack(len(self.seats))),
                [],
                n_tricks,
                0,
                "claimed",
                factor=claim.factor,
                liable=claim.liable,
            )
        )

    def _settle_concession(self, ending: Conceded) -> None:
        """The declarer gave up after seeing the talon and pays each opponent the stated amount."""
        assert self.contract is not None and self.contract.concede is not None
        amount = int(self.contract.concede.pays({"players": len(self.seats)}))
        payments = each_other_pays(ending.seat, self.seats, self.players, amount)
        self._emit(type="concede", seat=ending.seat)
        reason = f"seat {ending.seat} conceded {self.contract.title} and pays each opponent {amount}"
        self._finish(Result("conceded", self.contract.name, ending.seat, False, None, None, payments, reason=reason))

    def _settle_accusation(self, ending: Accused) -> None:
        """The guilty, or else the accuser, pay each other player as the loser of the final game
        with no trick would pay each opponent."""
        assert self.contract is not None and self.declarer is not None
        lost = settle(
            self.deal_facts(), [], list(self.ruleset.pack(len(self.seats))), 0, len(self.hands[self.seats[0]]), "played"
        )
        receivers = len([s for s in range(self.players) if lost.payments[s] > 0])
        amount = -lost.payments[self.declarer] // max(1, receivers)
        payments = [0] * self.players
        for loser in ending.guilty or (ending.accuser,):
            each_other_pays(loser, self.seats, self.players, amount, payments)
        guilty = list(ending.guilty)
        reason = f"seat {ending.accuser} accused the others of skinning a Solo: " + (
            f"seat(s) {', '.join(map(str, guilty))} passed with a Solo hand"
            if guilty
            else "nobody had, so the accuser pays"
        )
        self._emit(type="accusation", seat=ending.accuser, guilty=guilty, hands=[list(h) for h in self.initial_hands])
        self._finish(Result("accused", self.contract.name, self.declarer, None, None, None, payments, reason=reason))

    def _finish(self, result: Result) -> None:
        if self.ante:
            # The dealer's ante went into the pot at the start of the deal.
            payments = list(result.payments)
            payments[self.dealer] -= self.ante
            result = dataclasses.replace(result, payments=payments, pot=result.pot + self.ante)
        stake = self.ruleset.settlement.stake
        if stake != 1:
            # Played for a different stake: the same points, more money each.
            result = dataclasses.replace(result, payments=[p * stake for p in result.payments], pot=result.pot * stake)
        self.result = result
        self.phase = _OVER
        self._fast = None
        self.events.append(result.written_into({"type": "settlement"}))

    # -- games recorded in the field: offences and their penalties -------------------------------
    def _offence(self, seat: int, parsed: PlayCard | DiscardAction) -> str | None:
        """The offence `parsed` would be, when the ruleset penalises it instead of refusing it."""
        rule = self.ruleset.penalties
        if rule is None or rule.mode != "penalize":
            return None
        if isinstance(parsed, DiscardAction):
            # An incorrect discard (a King laid away in a Dreierles Zweier): a proper discard of
            # the declarer's, which the rules of what may go aside do not allow.
            exchange = self.exchange
            if self.phase is Phase.EXCHANGE and "discard" in rule.offences and exchange is not None:
                return "discard" if exchange.breach(seat, parsed) is not None else None
            return None
        if parsed.card not in self.hands[seat]:
            return None
        play = self.trickplay
        if (
            self.phase is Phase.PLAY
            and play is not None
            and "revoke" in rule.offences
            and parsed.card not in play.legal(seat)
        ):
            return "revoke"
        if self.phase is Phase.EXCHANGE and "discard" in rule.offences and seat == self.declarer:
            return "discard"
        return None

    def _penalty(self, misdeal: bool = False) -> int:
        rule = self.ruleset.penalties
        assert rule is not None
        contract, round_ = self.contract, self.announcement
        env = {
            "players": len(self.seats),
            "factor": (contract.factor_won if contract is not None else None) or 1,
            "kontra": round_.game_kontra if isinstance(round_, AnnouncementRound) else 1,
            "misdeal": misdeal,
        }
        return int(rule.pays_each(env))

    def _penalize_misdeal(self, misdeal: str) -> None:
        amount = self._penalty(misdeal=True)
        reason = (
            f"misdeal ({misdeal}); the deal is abandoned and the dealer, seat {self.dealer}, "
            f"pays each other player {amount}"
        )
        self._emit(type="offence", seat=self.dealer, offence="misdeal", reason=reason)
        self._finish(
            Result(
                "abandoned",
                None,
                None,
                None,
                None,
                None,
                each_other_pays(self.dealer, self.seats, self.players, amount),
                reason=reason,
            )
        )

    def _penalize_offence(self, offender: int, parsed: PlayCard | DiscardAction, offence: str) -> None:
        amount = self._penalty()
        if isinstance(parsed, DiscardAction):
            assert self.exchange is not None
            # The discard lies face down: the offence is told, not which cards it was.
            what = f"discarded against the rules ({self.exchange.breach(offender, parsed)})"
            cards: dict[str, str] = {}
        else:
            what = {
                "revoke": f"played {parsed.card} against the duty to follow suit or trump",
                "discard": f"led {parsed.card} before finishing the discard",
            }[offence]
            cards = {"card": parsed.card}
        reason = f"seat {offender} {what}; the deal is abandoned and seat {offender} pays each other player {amount}"
        self._history.append((offender, parsed.as_json()))
        self._emit(type="offence", seat=offender, offence=offence, **cards, reason=reason)
        self._finish(
            Result(
                "abandoned",
                self.contract.name if self.contract else None,
                self.declarer,
                None,
                None,
                None,
                each_other_pays(offender, self.seats, self.players, amount),
                reason=reason,
            )
        )

    def _penalize_breach(self, offender: int, rule: Compulsion) -> None:
        assert rule.breach_pays_each is not None
        # Paid "as though they had bid and lost every trick": the compelled bid's lost Marsch in the
        # game the table plays, to everybody who would have been paid for it.
        level = next(lv for lv in self.auction.state.phase.ladder if lv.call == rule.call)
        contract = self.ruleset.contracts.get(level.contract) if level.contract else None
        lost = lost_every_trick(self.ruleset, contract, len(self.seats)) if contract is not None else 0
        amount = int(rule.breach_pays_each({"players": len(self.seats), "lost_every_trick": lost}))
        receivers = list(self.seats)
        if self.sitting_out is not None and self.ruleset.settlement.sitting_out == "defender":
            receivers.append(self.sitting_out)
        reason = f'seat {offender} passed against the rule "{rule.reason}"; the deal is abandoned'
        self._emit(type="breach", seat=offender, reason=reason)
        self._finish(
            Result(
                "abandoned",
                None,
                None,
                None,
                None,
                None,
                each_other_pays(offender, receivers, self.players, amount),
                reason=reason,
            )
        )

    # -- what a seat may see, and the record -----------------------------------------------------
    def view(self, seat: int | str) -> dict[str, Any]:
        """What `seat` may see; `"all"` is the umpire's full view. Never another seat's hidden cards."""
        return view_of(self, seat)

    def _emit(self, **event: Any) -> None:
        self.events.append(event)

    def _stage_emit(self) -> Callable[..., None]:
        """`_emit` for a stage of the deal (the exchange, the announcements) to report its events
        by, which holds the game only weakly: a stage holding the game's own method would make
        every deal a reference cycle, kept until Python's cycle collector finds it (a tenth of
        the time of a simulated deal); without one, a deal is freed when it is dropped."""
        game = weakref.ref(self)

        def emit(**event: Any) -> None:
            if (alive := game()) is not None:
                alive.events.append(event)  # as _emit does

        return emit

    def record(self) -> dict[str, Any]:
        """The game record so far (docs/design.md): enough to replay this deal exactly, with the
        explicit deal and, when the deal is over, its outcome as `expect`."""
        rs = self.ruleset
        record: dict[str, Any] = {"ruleset": self.ruleset_ref}
        changed = {k: v for k, v in rs.choices.items() if v != next(g.default for g in rs.groups if g.name == k)}
        if changed:
            record["options"] = changed
        record.update(
            players=self.players,
            dealer=self.dealer,
            deal={"hands": [list(h) for h in self.initial_hands], "talon": list(self.initial_talon)},
            actions=[
                [seat, dict(action) if type(action) is FrozenAction else _copy(action)]
                for seat, action in self._history
            ],
        )
        if self.pot_start:
            record["pot"] = self.pot_start
        if self.result is not None:
            r = self.result
            expect: dict[str, Any] = {"outcome": r.outcome}
            if r.contract:
                expect["contract"] = r.contract
            if r.declarer is not None:
                expect["declarer"] = r.declarer
            as_dict = r.as_dict()  # new lists and mappings, not the result's own
            if r.points:
                expect["points"] = as_dict["points"]
            expect["payments"] = as_dict["payments"]
            if r.pot:
                expect["pot"] = r.pot
            record["expect"] = expect
        return record


def _counts(sizes: tuple[int, ...]) -> str:
    return " or ".join(str(n) for n in sizes)


def _failure(exc: Exception, doing: str) -> Exception:
    """The error to raise for `exc`: the project's own, or `exc` itself for a fault of the
    interpreter (no rule failed), which is not to be disguised."""
    return as_rule_failure(exc, doing) or exc


def _pack_of(ruleset: Ruleset, active: int) -> tuple[int, frozenset[str]]:
    """The size of each hand by the deal plan, and the cards of the pack, for `active` players
    (worked out once per ruleset)."""
    key = ("pack_check", active)
    found: tuple[int, frozenset[str]] | None = ruleset.derived.get(key)
    if found is None:
        size = sum(p.count for p in ruleset.deal_plans[active] if p.to == "each")
        found = ruleset.derived[key] = (size, frozenset(ruleset.pack(active)))
    return found


@functools.cache
def _seats_from_vorhand(players: int, dealer: int, sitting_out: int | None) -> tuple[int, ...]:
    """The seats that play this deal, from Vorhand (the dealer's left) in order of play."""
    first = dealer + 1
    return tuple(s % players for s in range(first, first + players) if s % players != sitting_out)


def _auction_tables(ruleset: Ruleset) -> AuctionTables:
    tables: AuctionTables | None = ruleset.derived.get("auction_tables")
    if tables is None:
        tables = ruleset.derived["auction_tables"] = Auction.tables_of(ruleset.phases)
    return tables


def _copy(action: ActionJson) -> ActionJson:
    """An action of the history as a caller may keep and change it. A card played is shared and
    read-only already; the rest (a discard's list of cards) is copied."""
    if type(action) is dict:
        return {k: list(v) if isinstance(v, list) else v for k, v in action.items()}
    return action
