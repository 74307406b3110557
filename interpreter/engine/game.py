"""One deal of a ruleset, as a state machine driven by actions: a facade over the deal's stages.

`Game` is the mutable state (OpenSpiel's State); the immutable game description is the
`Ruleset`, and the plan the engine runs is made from it once (engine/plan.py). A deal goes
through stages, each an object of its own that knows whose turn it is, what may be done and what
an action does: the `Auction`, the `Exchange`, the announcements (`DeclarerAnnouncement`,
`AnnouncementRound`, `DoublingRound`) and the `TrickPlay`; the settlement ends it. The game
deals, moves from stage to stage, and settles.

There is one way for every action. `legal_actions` is what the stage offers the seat; `apply`
takes an action exactly when it is one of those (its canonical form, or one filling a template
the stage offers) and does its effect, or refuses it with the reason the stage's rules give. So
the two cannot disagree. `push` takes an action by its id (engine/ids.py) without the check,
for programs that know it is legal (a search, a learner), as python-chess's `push` beside
`push_uci`.

An action is applied whole or not at all. A refused action raises before the first change. A
failure while its consequences are worked out (a rule's formula failing at the last card, a deal
whose cards no longer add up) undoes it: the game is dealt again from the same cards and its
earlier actions replayed, since a deal is fully determined by them. That costs nothing on the
normal path.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from interpreter.engine import offences
from interpreter.engine.actions import (
    Action,
    ActionJson,
    Call,
    FrozenAction,
    PlayCard,
    PlayStep,
    ShownTrick,
    choose_actions,
    parse_action,
    play_actions,
    play_steps,
    shown,
)
from interpreter.engine.announcements import DeclarerAnnouncement, declarer_announces
from interpreter.engine.announcing import AnnouncementRound, DoublingRound, Round, kontra_actions
from interpreter.engine.auction import PASS, Auction, AuctionTables, Outcome, throw_in_payments
from interpreter.engine.deal import (
    DealerChooses,
    DealError,
    Dealing,
    Dealt,
    dealing,
    explicit_deal,
    redeal_of,
    seed_problem,
    shuffle_and_deal,
)
from interpreter.engine.exchange import Abandoned, Accused, Claimed, Conceded, Ending, Exchange, claims
from interpreter.engine.faults import BrokenDealError, TableError, as_rule_failure
from interpreter.engine.ids import ActionIds
from interpreter.engine.phase import Phase
from interpreter.engine.plan import PlayPlan, deal_rules, first_leader, play_plan
from interpreter.engine.play import Trick, TrickPlay
from interpreter.engine.playrules import RuleBook
from interpreter.engine.settlement import (
    Deal,
    Result,
    each_other_pays,
    piles,
    reads_hands,
    settle,
    settle_individual,
)
from interpreter.engine.stage import Stage
from interpreter.engine.table import Cards, Table
from interpreter.engine.views import trick_view, view_of
from interpreter.errors import IllegalActionError, InvalidActionError, either
from interpreter.language.model import CALLED, Contract, Ruleset

__all__ = ["DealError", "Game", "Phase"]

# The phases as plain names for the paths taken at every action: reading an Enum's member
# through its class goes through EnumType.__getattr__ in Python 3.11, ten times slower.
_AUCTION, _EXCHANGE, _ANNOUNCE, _PLAY, _OVER = Phase.AUCTION, Phase.EXCHANGE, Phase.ANNOUNCE, Phase.PLAY, Phase.OVER
_DEAL = Phase.DEAL
# The types of action `apply` compares with the stage's offer before parsing: the protocol's
# (any other value is parsed, and refused with the reason).
_PLAIN = frozenset({FrozenAction, dict, str})


class Game:
    """One deal. Seats are numbered in order of play; seat s+1 plays after seat s."""

    # The attributes read at every action have slots of their own: the rest (more than the 30
    # a Python 3.11 instance keeps in its fastest form) stay in the instance's __dict__.
    __slots__ = ("__dict__", "__weakref__", "_history", "_offer", "_stage", "events", "is_over", "phase", "to_act")
    ante = 0  # the dealer's ante into the pot (set where the table keeps a pot and the rules ask one)
    # The ids `legal_ids` listed last: (the offer they number, its ids ascending, the ruleset's
    # ids), kept with the offer, which the game keeps for the turn (none listed yet: the default).
    _listed: tuple[Sequence[ActionJson] | None, list[int], ActionIds | None] = (None, [], None)

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
        setup = _setup(ruleset, players, dealer)
        if seed is not None and (problem := seed_problem(seed)) is not None:
            raise TableError("seed", problem)
        if pot is not None and (type(pot) is not int or pot < 0):
            raise TableError("pot", f"the pot is a whole number from 0, not {shown(pot)}")
        self.dealer = dealer
        self.seats_out = setup.seats_out  # who sits out this deal (often nobody)
        self.seats = list(setup.seats)
        # Some rulesets have rules of their own for a number of players (Cego for three).
        self.ruleset = ruleset = setup.ruleset
        # Whose turn it is (None: nobody's) and whether the deal is over: read at every action
        # of a simulation, so kept up to date by every change rather than worked out when read.
        # Read them; do not set them.
        self.to_act: int | None = None
        self.is_over = False
        self.events: list[dict[str, Any]] = []
        self._history: list[tuple[int, ActionJson]] = []
        self._stage: Stage = OVER  # the stage whose turn it is (OVER: none yet, or the deal is over)
        # What the stage offers the seat to act, once asked, while nothing changed; only where
        # its actions are read-only or immutable (trick play, calls, the rounds), so that no
        # caller can change what `apply` compares with.
        self._offer: Sequence[ActionJson] | None = None
        self._calls: list[tuple[int, str]] = []  # the calls in the history up to _calls_seen
        self._calls_seen = 0
        # The finished tricks as every view shows them, read-only, each made once (views.py),
        # and the list of tricks they were made from.
        self.shown_tricks: tuple[list[Trick], list[ShownTrick]] = ([], [])

        self.contract: Contract | None = None
        self.declarer: int | None = None
        self.trump_suit: str | None = ruleset.play.trump_suit  # a suit that is trumps in this deal
        # The stages after the auction, once they begin (None before; the exchange stays None
        # for a contract with nothing to exchange).
        self.exchange: Exchange | None = None
        self.announcement: DeclarerAnnouncement | Round | None = None
        self.trickplay: TrickPlay | None = None
        # A partner by a called card: the card, whether it was named, and its holder when play
        # starts (None: the declarer plays alone). Known to the engine; views keep the secret.
        self.called_card: str | None = None
        self.called_named = True
        self.partner: int | None = None
        self.result: Result | None = None
        # A pot, where the table keeps one: the dealer's ante goes in first (an account of its own).
        self.pot_start = pot if pot is not None else (0 if ruleset.pot_ante is not None else None)
        # Where the dealer chooses how the cards are dealt (deal.choice), nothing is dealt before
        # the choice; a deal given card by card was dealt already, and offers none.
        plans = setup.plans if deal is None else ()
        self.deal_plan: str | None = None  # the plan the dealer chose, once chosen
        self._chose = False  # whether the dealer's choice is the first entry of the history
        if plans:
            self._lay(Dealt({s: [] for s in range(players)}, [], seed))
            self.phase = _DEAL
            self._stage = DealerChooses(dealer, plans, self.table, choose_actions(ruleset))
            self.events.append({"type": "phase", "phase": "deal"})
        else:
            self._begin(self._deal(setup, seed, deal), setup)
        self._sync()

    def _lay(self, dealt: Dealt) -> None:
        """The cards as dealt (none yet, while the dealer chooses how to deal them)."""
        self.seed = dealt.seed  # None unless shuffled from a seed the caller gave
        self.cards = cards = Cards(dealt.hands, dealt.talon)
        self.table = Table(cards, self.events, self._history)
        as_dealt = dealt.as_dealt
        if as_dealt is None:
            as_dealt = (*map(tuple, map(cards.hands.__getitem__, range(self.players))), tuple(cards.talon))
        # Kept as dealt, and copied only where asked (a record, an undo): most deals never are.
        self._as_dealt = as_dealt

    @property
    def initial_hands(self) -> list[list[str]]:
        """Each seat's hand as dealt, by seat (new lists: safe to keep and change)."""
        return [list(hand) for hand in self._as_dealt[:-1]]

    @property
    def initial_talon(self) -> list[str]:
        """The talon as dealt (a new list)."""
        return list(self._as_dealt[-1])

    @property
    def vorhand(self) -> int:
        """The first seat in the order of play, the dealer's left (of those who play)."""
        return self.seats[0]

    def _begin(self, dealt: Dealt, setup: _Setup) -> None:
        """The cards dealt: the auction begins (or the deal ends at once, thrown in or misdealt)."""
        self._lay(dealt)
        if dealt.plan is not None:
            self.deal_plan = dealt.plan  # (a deal given card by card, with the plan it was dealt by)
        ruleset, dealer = self.ruleset, self.dealer
        self.phase = _AUCTION
        self.auction = Auction(
            ruleset.phases,
            self.seats,
            self.cards.hands,
            len(self.seats),
            setup.enforce,
            ruleset.deck.suit,
            setup.auction,
            self.table,
            setup.penalize,
            dealer,
        )
        try:
            if ruleset.pot_ante is not None and self.pot_start is not None:
                self.ante = int(ruleset.pot_ante({"players": len(self.seats)}))
            self.events.append({"type": "phase", "phase": "auction", "name": ruleset.phases[0].name})
            redeal = redeal_of(ruleset.redeal, self.seats, self.cards.hands) if ruleset.redeal else None
            if dealt.misdeal is not None:
                self._finish(offences.misdeal_result(self, dealt.misdeal))
            elif redeal is not None:
                # A hand that throws the deal in as dealt: its holder shows it, and nobody bids.
                seat, rule = redeal
                self.events.append({"type": "thrown_in", "seat": seat, "reason": rule.reason})
                self._finish(Result("thrown_in", None, None, None, None, None, [0] * self.players, reason=rule.reason))
            else:
                self._stage = self.auction
                # An auction in which nobody can change the outcome (compulsory Räuber) is over at once.
                if self.auction.start():
                    self._next_stage()
        except Exception as exc:
            if (failure := _failure(exc, "setting up the deal")) is exc:
                raise
            raise failure from exc

    def _deal(
        self, setup: _Setup, seed: int | None, deal: Mapping[str, Any] | None, chosen: str | None = None
    ) -> Dealt:
        if deal is not None:
            if seed is not None:
                raise TableError("seed", "give a seed or a deal, not both")
            dealt = explicit_deal(self.ruleset, self.seats, self.players, self.seats_out, deal)
            plan = {"plan": dealt.plan} if dealt.plan is not None else {}
            self.events.append({"type": "deal", "dealer": self.dealer, "explicit": True, **plan})
            return dealt
        event: dict[str, Any] = {"type": "deal", "dealer": self.dealer}
        if seed is not None:  # (without one there is none to search for: as secret as the system's randomness)
            event["seed"] = seed
        if chosen is not None:
            event["plan"] = chosen
        self.events.append(event)
        packets = setup.dealing if chosen is None else dealing(self.ruleset, self.seats, self.players, chosen)
        return shuffle_and_deal(packets, self.players, seed)

    @property
    def ruleset_ref(self) -> str:
        """How a record names the ruleset: its name where that finds the same file (a ruleset
        under rulesets/), else the path of its file."""
        from interpreter.language.loader import find_ruleset_file, source_file

        rs = self.table_ruleset
        bundled = find_ruleset_file(rs.name)
        here = source_file(rs.file).resolve()  # a built-in file is named short outside the checkout
        return rs.name if bundled is not None and bundled.resolve() == here else str(here)

    # -- the cards and the public facts, as the stages share them -----------------------------------
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
    def partner_public(self) -> bool:
        """Whether everybody knows the sides (the called card was seen, or the partner spoke)."""
        return self.table.partner_public

    @property
    def talon_added(self) -> dict[int, list[str]]:
        """Trick number -> the talon cards turned up and added to it."""
        return self.table.talon_added

    @property
    def forfeit(self) -> tuple[str, int, str] | None:
        """A card kept back for an announced bonus forced out early: (the bonus, the trick, the
        side that forfeits that trick and every later one)."""
        return self.table.forfeit

    @property
    def tricks(self) -> list[Trick]:
        return self.trickplay.tricks if self.trickplay else []

    @property
    def current_trick(self) -> Trick | None:
        """The trick now being played (None outside trick play)."""
        return self.trickplay.trick if self.trickplay is not None and self.phase is _PLAY else None

    @property
    def trick_number(self) -> int | None:
        """The number of the trick now being played, 1 for the first (None outside trick play)."""
        return self.trickplay.number if self.trickplay is not None and self.phase is _PLAY else None

    @property
    def history(self) -> list[tuple[int, ActionJson]]:
        """Every action taken, as (seat, action), in order; a copy, safe to keep and change."""
        return [(seat, _copy(action)) for seat, action in self._history]

    @property
    def calls(self) -> list[tuple[int, str]]:
        """The calls of the auction (and passes after it), as (seat, call), in order."""
        history, calls = self._history, self._calls
        # (every view asks: the history is read from where the last look left it)
        for seat, action in history[self._calls_seen :]:
            if isinstance(action, str):
                calls.append((seat, action))
        self._calls_seen = len(history)
        return calls[:]

    # -- whose turn, what may be done ----------------------------------------------------------
    def _sync(self) -> None:
        """`to_act` and `is_over` after the stage changed."""
        self.to_act = self._stage.to_act
        self.is_over = self.phase is _OVER

    def legal_actions(self, seat: int | None = None) -> list[ActionJson]:
        """The actions `seat` may take now (default: the seat to act), in protocol form; a new
        list each time, of actions that are read-only or new. A choice too large to list (a
        12-card discard) comes as a template."""
        try:
            if seat is None or seat is self.to_act:
                offer = self._offer
                if offer is not None:
                    return [*offer]
                stage, seat = self._stage, self.to_act
                if seat is None:
                    return []
                offer = stage.offer(seat)
                if stage.read_only_offer:
                    self._offer = offer
                return [*offer]
            self._check_seat(seat)
            # Another seat than the one to act may have an interrupting call.
            return [*self._stage.offer(seat)]
        except Exception as exc:
            if (failure := _failure(exc, f"listing the legal actions of seat {seat}")) is exc:
                raise
            raise failure from exc

    def legal_cards(self, seat: int) -> list[str]:
        """The cards `seat` may play now (none outside its turn in trick play)."""
        return [action["play"] for action in self.legal_actions(seat) if isinstance(action, dict) and "play" in action]

    def _check_seat(self, seat: object) -> None:
        if type(seat) is not int or not 0 <= seat < self.players:
            raise InvalidActionError(f"no seat {shown(seat)}: seats are 0 to {self.players - 1}")

    # -- applying actions ----------------------------------------------------------------------
    def apply(self, seat: int, action: object) -> list[dict[str, Any]]:
        """Apply `action` by `seat`. Returns the events it caused. Raises InvalidActionError
        (malformed) or IllegalActionError (not allowed now), and the game is unchanged; or, if
        the rules fail on the action's consequences, RuleFailure or BrokenDealError, and the
        action is undone."""
        offer = self._offer
        if offer is None or seat is not self.to_act or type(action) not in _PLAIN or action not in offer:
            return self._judge(seat, action)
        # One of the actions the stage offered the seat to act (and legal_actions handed out):
        # the steps of `_take`, here rather than called (a call less at every card).
        stage, events = self._stage, self.events
        start, done = len(events), len(self._history)
        self._offer = None
        try:
            if stage.take(seat, action):  # type: ignore[arg-type]  # (an offered action)
                self._next_stage()
            else:
                self.to_act = stage.to_act
        except BaseException as exc:
            raise self._undo(exc, done, start, seat, action)  # noqa: B904 (it chains what it must)
        return events[start:]

    def push(self, *action_ids: int) -> None:
        """Apply, for the seat to act, the action these ids number (engine/ids.py: one id, or the
        ids of the cards of one discard or keep), trusted to be legal: nothing is checked, as
        python-chess's `push` beside `push_uci`. For programs that take their actions from
        `legal_ids` (a search, a learner); an illegal one leaves the game in no state the rules
        know. A rule failing on its consequences undoes it, as `apply` does."""
        stage, seat = self._stage, self.to_act
        if seat is None:
            raise IllegalActionError("the deal is over", 0)
        self._take(stage, seat, _ids_of(self).action(action_ids))

    def legal_ids(self) -> list[int]:
        """The ids (engine/ids.py) of the actions the seat to act may take now, ascending; a
        discard or keep as the ids of its cards, each card that can still complete one. Listed
        once for the offer the game keeps for the turn, and kept with it for `push_listed`."""
        offer, listed, ids = self._listed
        kept = self._offer
        if kept is None:
            stage, seat = self._stage, self.to_act
            if seat is None or not stage.read_only_offer:
                # Nobody's turn, or a stage whose actions are new each time (a discard): not kept.
                return _ids_of(self).legal(self.legal_actions())
            try:
                kept = self._offer = stage.offer(seat)
            except Exception as exc:
                if (failure := _failure(exc, f"listing the legal actions of seat {seat}")) is exc:
                    raise
                raise failure from exc
        if kept is offer:  # (a read-only offer handed out again: the same actions)
            return [*listed]
        if ids is None:
            ids = _ids_of(self)
        # The ids of the game's own actions by their identity (`ActionIds.offered`'s first way),
        # here rather than called: a call less at every action of a learner.
        identity, found = ids.identity, []
        try:
            for action in kept:
                found.append(identity[id(action)])
        except KeyError:
            offered = ids.offered(kept)  # (a call in words of its own)
            if offered is None:
                return ids.legal(kept)  # (an action made anew: no id is ready for it)
            found = offered
        else:
            found.sort()
        self._listed = (kept, found, ids)
        return [*found]

    def push_listed(self, action_id: int) -> bool:
        """Take `action_id` for the seat to act if it is one of the ids `legal_ids` listed for
        this turn: checked against them, then taken as `push` takes it (no other test: the id was
        worked out from the offer itself). Returns whether it was taken; False changes nothing
        (an id not listed, or none listed for this turn yet), and the caller judges the id the
        long way (`apply`)."""
        offer, listed, ids = self._listed
        if offer is not self._offer or type(action_id) is not int or action_id not in listed:
            return False
        assert ids is not None
        # The steps of `_take`, here rather than called (a call less at every action).
        stage, seat, events = self._stage, self.to_act, self.events
        start, done = len(events), len(self._history)
        self._offer = None
        action = ids.ready[action_id]
        try:
            if stage.take(seat, action):  # type: ignore[arg-type]  # (a seat acts, and a listed id's action is ready)
                self._next_stage()
            else:
                self.to_act = stage.to_act
        except BaseException as exc:
            raise self._undo(exc, done, start, seat, action)  # type: ignore[arg-type]  # noqa: B904
        return True

    def apply_departure(self, seat: int, card: str) -> list[dict[str, Any]]:
        """Play `card` of `seat`, the seat to act in trick play that holds it, though the rules
        of play do not allow it: a departure an observed table allowed (engine/observation.py).
        Every other step of the card is taken as for a legal one. Returns the events."""
        play = self.trickplay
        if self.phase is not _PLAY or play is None or seat != self.to_act or card not in self.hands[seat]:
            raise IllegalActionError(f"seat {seat} cannot play {card} now", seat)
        return self._take(play, seat, play.plays[card])

    def _take(self, stage: Stage, seat: int, action: ActionJson) -> list[dict[str, Any]]:
        """Do `action` of `seat`, offered by `stage`: its effect, and the stages it leads to."""
        events = self.events
        start, done = len(events), len(self._history)
        self._offer = None
        try:
            if stage.take(seat, action):
                self._next_stage()
            else:
                self.to_act = stage.to_act
        except BaseException as exc:
            raise self._undo(exc, done, start, seat, action)  # noqa: B904 (it chains what it must)
        return self.events[start:]

    def _judge(self, seat: int, action: object) -> list[dict[str, Any]]:
        """An action that is not, as sent, one the stage offers the seat to act: parsed (or
        refused as no action), then taken in its canonical form if the stage offers that, or
        accepted as a penalised offence, or refused with the reason the stage's rules give."""
        parsed = parse_action(action, self.ruleset)
        self._check_seat(seat)
        stage = self._stage
        if self.phase is _OVER:
            raise IllegalActionError("the deal is over", seat)
        canonical = stage.canonical(seat, parsed)
        if canonical is not None:
            return self._take(stage, seat, canonical)
        if seat != self.to_act:
            raise IllegalActionError(self._not_your_turn(seat, parsed), seat)
        if isinstance(parsed, PlayCard) and isinstance(stage, DeclarerAnnouncement) and stage.offer(seat) == [PASS]:
            return self._lead_for_pass(stage, seat, action)
        offence = offences.offence(self, seat, parsed)
        if offence is None:
            raise IllegalActionError(stage.refusal(seat, parsed), seat)
        start, done = len(self.events), len(self._history)
        self._offer = None
        try:
            self._finish(offences.offence_result(self, seat, parsed, offence))  # type: ignore[arg-type]
            self._sync()
        except BaseException as exc:
            raise self._undo(exc, done, start, seat, action)  # noqa: B904
        return self.events[start:]

    def _lead_for_pass(self, stage: DeclarerAnnouncement, seat: int, action: object) -> list[dict[str, Any]]:
        """Leading with nothing to announce announces nothing (records from before this turn was
        asked of every declarer): the pass is said for it, then the card is judged as played."""
        start, done = len(self.events), len(self._history)
        self._take(stage, seat, PASS)
        try:
            self.apply(seat, action)
        except BaseException as exc:
            raise self._undo(exc, done, start, seat, action)  # noqa: B904 (the pass is undone too)
        return self.events[start:]

    def _undo(self, exc: BaseException, done: int, events: int, seat: int, action: object) -> BaseException:
        """Undo an action that failed half-way: the game as it was after its first `done`
        actions, with its first `events` events. Returns the error to raise: the project's
        error naming the rule that failed, or `exc` itself when no rule did."""
        history, kept, seed = self._history[:done], self.events[:events], self.seed
        deal = {"hands": self.initial_hands, "talon": self.initial_talon}  # (new lists, to replay from)
        chosen = self.deal_plan if done and self._chose else None  # (the dealer's choice is the first action)
        if (self._chose and not done) or not any(self.initial_hands):
            # Nothing dealt yet, or the dealing by the plan chosen failed: the dealer chooses
            # (again), the cards shuffled from the same seed.
            Game.__init__(self, self.table_ruleset, self.players, self.dealer, seed=seed, pot=self.pot_start)
        else:
            Game.__init__(self, self.table_ruleset, self.players, self.dealer, deal=deal, pot=self.pot_start)
        if chosen is not None:  # dealt as given: the choice that dealt it stays in the history
            self.deal_plan, self._chose = chosen, True
            self._history.append(history.pop(0))
        for earlier_seat, earlier in history:
            self.apply(earlier_seat, earlier)
        # The events as they were (the deal's own, with its seed, among them), in the list the
        # stages write to.
        self.events[:] = kept
        self.seed = seed
        if not isinstance(exc, Exception):
            return exc  # an interrupt: the game is whole again, and the interrupt goes on
        return _failure(exc, f"applying seat {seat}'s {shown(action)}")

    def _not_your_turn(self, seat: int, parsed: object) -> str:
        if seat in self.seats_out:
            deals = "deals and sits" if seat == self.dealer else "sits"
            return f"seat {seat} {deals} out this deal"
        if self.phase is _DEAL:
            return self._stage.refusal(seat, parsed)  # type: ignore[arg-type]  # (a parsed action)
        if isinstance(parsed, Call) and self.phase is _AUCTION:
            return self.auction.why_not(seat, parsed.name)
        if isinstance(parsed, Call) and self.contract is not None:
            doing = {_EXCHANGE: "discard", _ANNOUNCE: "announce", _PLAY: "play"}.get(self.phase, "act")
            return (
                f"the bidding is over: seat {self.declarer} plays {self.contract.title}; "
                f"it is seat {self.to_act}'s turn to {doing}"
            )
        return f"it is seat {self.to_act}'s turn, not seat {seat}'s"

    # -- from stage to stage ---------------------------------------------------------------------
    def _next_stage(self) -> None:
        """The stage whose turn it was is over: on to what follows it."""
        stage = self._stage
        if self.phase is _DEAL:
            assert isinstance(stage, DealerChooses) and stage.chosen is not None
            self.deal_plan, self._chose = stage.chosen, True
            setup = _setup(self.table_ruleset, self.players, self.dealer)
            self._begin(self._deal(setup, self.seed, None, stage.chosen), setup)
        elif stage is self.auction:
            self._after_auction()
        elif stage is self.exchange:
            self._after_exchange()
        elif stage is self.trickplay:
            self._settle_played()
        else:
            self._start_play()  # after the announcements or the doubling
        self._sync()

    def _after_auction(self) -> None:
        auction = self.auction
        if auction.breached is not None:
            self._finish(offences.breach_result(self, auction.last_speaker or 0, auction.breached))
            return
        outcome = auction.outcome
        assert outcome is not None
        phase = auction.state.phase
        if outcome.seat is None and phase.pass_out == "play" and not outcome.throw_in:
            # Everybody passed: a game without a declarer (Räuber, Ramsch) is played.
            assert phase.pass_out_play is not None
            self.contract = self.ruleset.contracts[phase.pass_out_play]
            self.events.append({"type": "contract", "contract": self.contract.name, "declarer": None})
            self._start_exchange()
        elif outcome.seat is None or outcome.throw_in:
            thrower = outcome.seat if outcome.throw_in else None  # (nobody, when no card named a declarer)
            self.events.append({"type": "thrown_in", **({"seat": thrower} if thrower is not None else {})})
            payments, pot = [0] * self.players, 0
            if (rule := self.ruleset.thrown_in) is not None:
                held = None if self.pot_start is None else self.pot_start + self.ante
                payments, pot = throw_in_payments(rule, self.seats, self.players, self.dealer, thrower, held)
            self._finish(Result("thrown_in", None, None, None, None, None, payments, pot=pot))
        else:
            self._declarer_found(outcome)

    def _declarer_found(self, outcome: Outcome) -> None:
        assert outcome.contract is not None
        self.contract = contract = self.ruleset.contracts[outcome.contract]
        self.declarer = outcome.seat
        if contract.trump_suit is not None:
            self.trump_suit = contract.trump_suit
        if contract.no_trump_suit:
            self.trump_suit = None
        self.events.append({"type": "contract", "contract": contract.name, "declarer": self.declarer})
        self._start_exchange()

    def _start_exchange(self) -> None:
        contract = self.contract
        assert contract is not None
        stages = _stages(self.ruleset, contract)
        may_accuse = stages.accusation is not None and stages.accusation in self.auction.passed_out
        if not stages.exchange and not may_accuse:
            # Nothing to exchange (a game from the hand as dealt, most Solos): no Exchange is
            # built, and `exchange` stays None. Of its steps only the last applies, as
            # Exchange.advance takes it: the claim of a hand shown instead of played.
            if stages.claim and claims(self.ruleset, self.declarer, self.cards.hands):
                self._settle_claim()
            else:
                self._exchange_done(stages)
            return
        self.phase = _EXCHANGE
        self.exchange = self._stage = Exchange(
            self.ruleset,
            contract,
            self.declarer,
            self.seats,
            self.table,
            self.initial_hands,
            trump_suit=self.trump_suit,
            may_accuse=may_accuse,
        )
        if self.exchange.advance() is not None:
            self._after_exchange()

    def _after_exchange(self) -> None:
        exchange = self.exchange
        assert exchange is not None
        self.trump_suit = exchange.trump_suit
        ending: Ending | None = exchange.ending
        if isinstance(ending, Claimed):
            self._settle_claim()
        elif isinstance(ending, Accused):
            self._settle_accusation(ending)
        elif isinstance(ending, Conceded):
            self._settle_concession(ending)
        elif isinstance(ending, Abandoned):
            contract = self.contract.name if self.contract else None
            payments = [0] * self.players
            self._finish(Result("abandoned", contract, self.declarer, None, None, None, payments, reason=ending.reason))
        else:
            assert self.contract is not None
            self._exchange_done(_stages(self.ruleset, self.contract))

    def _exchange_done(self, stages: _Stages) -> None:
        """After the exchange (or with nothing to exchange): the doubling, the announcements, or
        play, as the contract's `stages` have them."""
        contract = self.contract
        assert contract is not None
        if stages.doubling:
            self._start_doubling()
            return
        if self.exchange is not None:
            self._find_partner()
        if stages.round and self.declarer is not None:
            self.phase = _ANNOUNCE
            self.announcement = self._stage = AnnouncementRound(
                self.ruleset,
                contract,
                self.declarer,
                self.partner,
                self.seats,
                self.table,
                self.vorhand,
                seat_facts=self.auction.seat_facts,
                card_called=self.called_card is not None,
            )
            self.events.append({"type": "phase", "phase": "announce", "seat": self.declarer})
        elif stages.declarer_announces and self.declarer is not None:
            # Asked whatever the hand holds: a turn only for a hand that may announce would tell
            # the table what the declarer holds (design.md: a pass with no alternative is said
            # all the same).
            self.phase = _ANNOUNCE
            self.announcement = self._stage = DeclarerAnnouncement(self.ruleset, contract, self.declarer, self.table)
            self.events.append({"type": "phase", "phase": "announce", "seat": self.declarer})
        else:
            self._start_play()

    def _start_doubling(self) -> None:
        """Everyone for themselves: each player in turn may double once (Räuber's knocking)."""
        assert self.contract is not None and self.contract.doubling is not None
        rule = self.contract.doubling
        first = self.auction.last_speaker if rule.start == "last_passer" else None
        if first is None:
            first = self.vorhand
        # Round the table in the order of play, the seats sitting out in their places when they take part.
        order = [(first + i) % self.players for i in range(self.players)]
        order = [s for s in order if s in self.seats or (rule.sitting_out and s in self.seats_out)]
        done = self.ruleset.announcing.done if self.ruleset.announcing is not None else "pass"
        self.phase = _ANNOUNCE
        kontra = kontra_actions(self.ruleset)["game"]
        self.announcement = self._stage = DoublingRound(rule, order, done, kontra, self.table)
        self.events.append({"type": "phase", "phase": "announce", "seat": order[0]})

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
        self.table.partner_public = exchange.talon_shown and card in self._as_dealt[-1]

    # -- trick play ----------------------------------------------------------------------------
    def _start_play(self) -> None:
        contract, declarer, seats, cards = self.contract, self.declarer, self.seats, self.cards
        assert contract is not None
        course = _play_course(self.ruleset, contract, self.trump_suit, self.players, len(seats))
        n_tricks = course.hand_size
        if contract.exchange or cards.aside or cards.exposed:
            # (else nothing has moved since the deal, which was checked card by card as it was dealt)
            self._check_cards(n_tricks, course.pack)
        self.phase = _PLAY
        plan, announcement = course.plan, self.announcement
        leader = course.leaders.get((self.dealer, declarer))
        if leader is None:  # (the seats in play follow from the table's size and the dealer)
            leader = course.leaders[self.dealer, declarer] = first_leader(plan.play, seats, declarer, self.dealer)
        called = self.called_card
        if called is not None and (self.table.partner_public or not any(called in cards.hands[s] for s in seats)):
            called = None  # (seen, or it lies out of play: nothing to reveal)
        book = plan.book  # (the plan's own rules, where none is bound to this deal: `deal_rules`)
        if announcement is not None or called is not None:
            book = self._deal_book(plan, announcement, called, n_tricks)
        # The declarer's side: the declarer, then the partner (none where everyone plays alone).
        partner = self.partner
        team = () if declarer is None else (declarer,) if partner is None else (declarer, partner)
        self.trickplay = self._stage = play = TrickPlay(
            plan.tables,
            book,
            self.ruleset.deck,
            self.table,
            seats,
            declarer,
            leader,
            n_tricks,
            course.actions,
            course.steps,
            contract.opening_leads,
            team,
        )
        self.events.append({"type": "phase", "phase": "play", "leader": leader})
        play.start()

    def _deal_book(
        self, plan: PlayPlan, announcement: DeclarerAnnouncement | Round | None, called: str | None, n_tricks: int
    ) -> RuleBook:
        """The plan's rules with those bound to this deal: cards kept back for announced bonuses,
        the called card, cards laid out (`deal_rules`)."""
        kept: dict[str, int] = {}
        forfeits: dict[str, tuple[str, int, str]] = {}
        if isinstance(announcement, AnnouncementRound):
            kept, forfeits = self._kept_cards(announcement, n_tricks)
        laid = frozenset(card for _, card in announcement.laid) if announcement is not None else frozenset()
        return deal_rules(plan, kept, forfeits, called, laid)

    def _kept_cards(
        self, round_: AnnouncementRound, n_tricks: int
    ) -> tuple[dict[str, int], dict[str, tuple[str, int, str]]]:
        """The cards of announced bonuses that their side holds, each kept back for its trick
        (card -> trick); and those of them whose bonus forfeits the rest of the play when forced
        out early (card -> the bonus, its trick, its side). A bonus keeps back its own card, or
        the card called for a partner."""
        kept: dict[str, int] = {}
        forfeiting: list[tuple[str, str, str]] = []  # (bonus, card, side), in the order announced
        bonuses, hands, called = self.ruleset.bonuses, self.hands, self.called_card
        for name, side in round_.announced.items():
            bonus = bonuses[name]
            card = called if bonus.card == CALLED else bonus.card
            if card is None:
                continue
            if bonus.forced_early == "forfeit":
                forfeiting.append((name, card, side))
            if bonus.trick is None:
                continue
            for seat in self.seats:  # (a loop, not a list of every holder: one is enough)
                if card in hands[seat] and round_.side_of(seat) == side:
                    kept[card] = bonus.trick if bonus.trick > 0 else n_tricks + 1 + bonus.trick
                    break
        return kept, {card: (name, kept[card], side) for name, card, side in forfeiting if card in kept}

    def _check_cards(self, size: int, pack: frozenset[str]) -> None:
        """Before the first lead, where cards moved since the deal (which was checked card by card
        as it was dealt): every card of the pack in exactly one place (a hand, the talon, the
        discards), and every active hand the size the deal plan gives (`size`), which is the
        number of tricks. Raises BrokenDealError rather than play and settle a broken deal."""
        cards = self.cards
        everywhere = cards.talon + cards.aside
        for hand in cards.hands.values():
            everywhere += hand
        wrong = [s for s in self.seats if len(cards.hands[s]) != size]
        if not wrong and len(everywhere) == len(pack) and pack.issuperset(everywhere):
            return  # as many cards as the pack has, each of the pack: each exactly once
        raise BrokenDealError(_broken(self, wrong, size, pack, Counter(everywhere)))

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
        announcement, ruleset, play, called = self.announcement, self.ruleset, self.trickplay, self.called_card
        withheld = play.withheld if play is not None else None
        # Only a combination held in a hand reads the hands and which seat announced it (the
        # hands None spares judging them; nobody else asks who announced).
        in_hands = reads_hands(ruleset)
        if isinstance(announcement, Round):
            kontra, announced = announcement.game_kontra, announcement.announced_pairs()
            bonus_kontra = announcement.bonus_kontra()
            announced_seats = announcement.announced_seats() if in_hands else frozenset()
        else:
            kontra, announced, bonus_kontra, announced_seats = 1, frozenset(), (), frozenset()
        # Every field given by its place, in the order `Deal` declares them: a class called with
        # keywords has them gathered into a mapping first, which costs three times as much.
        return Deal(
            ruleset,
            self.contract,
            self.declarer,
            self.seats,
            self.players,
            self.seats_out,
            frozenset(self.auction.bidders),
            dict(withheld) if withheld else {},
            tuple(announcement.laid) if announcement is not None and announcement.laid else (),
            announcement.declarations if announcement is not None else (),  # declared
            None if self.pot_start is None else self.pot_start + self.ante,  # pot
            self.partner,
            frozenset() if called is None else frozenset((called,)),  # called
            kontra,
            announced,
            bonus_kontra,
            announced_seats,
            self.play_hands() if in_hands else None,  # hands
            self.table.forfeit,
            self.trump_suit,
            called is not None and called in self._as_dealt[-1],  # called_in_talon (the talon as dealt)
        )

    def _settle_played(self) -> None:
        play, contract = self.trickplay, self.contract
        assert play is not None and contract is not None
        facts = self.deal_facts()
        if contract.individual is not None:
            self._finish(settle_individual(facts, play.tricks, self.vorhand, self.talon + self.aside, self.talon_added))
            return
        cards = self.cards
        out_of_play = cards.talon + cards.aside if contract.talon_counts else []
        routed = (list(cards.talon), list(cards.aside)) if contract.out_of_play is not None else None
        rest = None
        if play.ended is not None:  # once the contract was decided: the cards not played count as its rule says
            rest = play.ended.rest(self.hands, self.seats, facts.team, play.n_tricks - len(play.tricks))
        declarer_cards, defender_cards, declarer_tricks, defender_tricks = piles(
            facts, play.tricks, out_of_play, routed, rest
        )
        self._finish(
            settle(facts, declarer_cards, defender_cards, declarer_tricks, defender_tricks, "played", play.tricks)
        )

    def _settle_claim(self) -> None:
        claim = self.ruleset.claim
        assert claim is not None and self.declarer is not None
        hand = sorted(self.hands[self.declarer], key=self.ruleset.deck.sort_key)
        self.events.append({"type": "claim", "seat": self.declarer, "hand": hand})
        n_tricks = sum(p.count for p in self.ruleset.deal_plans[len(self.seats)] if p.to == "each")
        pack = list(self.ruleset.pack(len(self.seats)))
        facts = self.deal_facts()
        self._finish(settle(facts, pack, [], n_tricks, 0, "claimed", factor=claim.factor, liable=claim.liable))

    def _settle_concession(self, ending: Conceded) -> None:
        """The declarer gave up after seeing the talon and pays each opponent the stated amount."""
        assert self.contract is not None and self.contract.concede is not None
        amount = int(self.contract.concede.pays({"players": len(self.seats)}))
        payments = each_other_pays(ending.seat, self.seats, self.players, amount)
        self.events.append({"type": "concede", "seat": ending.seat})
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
        hands = self.initial_hands
        self.events.append({"type": "accusation", "seat": ending.accuser, "guilty": guilty, "hands": hands})
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
        self._stage = OVER
        self.events.append(result.written_into({"type": "settlement"}))

    # -- what a seat may see, and the record -----------------------------------------------------
    def view(self, seat: int | str, recall: bool = False) -> dict[str, Any]:
        """What `seat` may see; `"all"` is the umpire's full view. Never another seat's hidden cards.
        `recall`: every finished trick's cards, as a player who remembers them saw them played,
        where the rules let a seat look again at some tricks only (`play.tricks_seen`)."""
        return view_of(self, seat, recall)

    def trick_view(self, seat: int) -> dict[str, Any]:
        """Of `view(seat, recall=True)`, the entries a choice of a card to play reads (the hand,
        the tricks, the contract, the sides and the cards aside where `seat` may see them), made
        by the same code without the rest: for bots, which choose a card at most turns."""
        return trick_view(self, seat)

    def record(self) -> dict[str, Any]:
        """The game record so far (docs/design.md): enough to replay this deal exactly, with the
        explicit deal and, when the deal is over, its outcome as `expect`."""
        rs = self.ruleset
        record: dict[str, Any] = {"ruleset": self.ruleset_ref}
        changed = {k: v for k, v in rs.choices.items() if v != next(g.default for g in rs.groups if g.name == k)}
        if changed:
            record["options"] = changed
        history: Sequence[tuple[int, ActionJson]] = self._history
        deal: dict[str, Any] = {"hands": self.initial_hands, "talon": self.initial_talon}
        dealt: dict[str, Any] = {"deal": deal}
        if self.deal_plan is not None:
            # The cards as dealt say the plan the dealer chose: a deal given card by card was
            # dealt already, so the choice is no action of its replay.
            deal["plan"] = self.deal_plan
            history = history[1:] if self._chose else history
        elif self.phase is _DEAL:  # nothing dealt yet: the seed it will be dealt from, if any
            dealt = {"seed": self.seed} if self.seed is not None else {}
        record.update(
            players=self.players,
            dealer=self.dealer,
            **dealt,
            actions=[
                [seat, dict(action) if type(action) is FrozenAction else _copy(action)] for seat, action in history
            ],
        )
        if self.pot_start:
            record["pot"] = self.pot_start
        if self.result is not None:
            record["expect"] = _expect(self.result)
        return record


class _Over:
    """The stage of a deal before its auction begins and once it is over: nobody acts, nothing is offered."""

    read_only_offer = True
    to_act = None

    def offer(self, seat: int) -> list[ActionJson]:
        return []

    def canonical(self, seat: int, parsed: Action) -> ActionJson | None:
        return None

    def take(self, seat: int, action: ActionJson) -> bool:
        raise IllegalActionError("the deal is over", seat)

    def refusal(self, seat: int, parsed: Action) -> str:
        return "the deal is over"


OVER: Stage = _Over()


def _expect(result: Result) -> dict[str, Any]:
    """A finished deal's outcome as a record's `expect`."""
    expect: dict[str, Any] = {"outcome": result.outcome}
    if result.contract:
        expect["contract"] = result.contract
    if result.declarer is not None:
        expect["declarer"] = result.declarer
    as_dict = result.as_dict()  # new lists and mappings, not the result's own
    if result.points:
        expect["points"] = as_dict["points"]
    expect["payments"] = as_dict["payments"]
    if result.pot:
        expect["pot"] = result.pot
    return expect


class _Setup(NamedTuple):
    """What every deal at a table works out from the ruleset, the number at the table and the
    dealer alone: made once (`_setup`) and kept in the ruleset's `derived`, keyed by both."""

    seats_out: tuple[int, ...]  # who sits out (often nobody)
    seats: tuple[int, ...]  # who plays, from Vorhand (the dealer's left) in order of play
    ruleset: Ruleset  # as that many play it (some rulesets have rules of their own: Cego for three)
    plans: tuple[str, ...]  # the deal plans the dealer chooses from (`deal.choice`; none: no choice)
    auction: AuctionTables
    dealing: Dealing  # how the shuffled pack is dealt (by the usual plan, where the dealer chooses)
    enforce: bool  # a pass against a compulsion is refused
    penalize: bool  # ... or penalised (records of real games)


def _setup(ruleset: Ruleset, players: object, dealer: object) -> _Setup:
    """The set-up of a table of `players` dealt by `dealer` (a table the ruleset is not played at
    is refused, naming the argument at fault)."""
    key = ("setup", players, dealer)
    found: _Setup | None = ruleset.derived.get(key) if type(players) is int and type(dealer) is int else None
    if found is not None:
        return found
    if type(players) is not int or players not in ruleset.table_sizes:
        raise TableError(
            "players", f"{ruleset.name} is played by {either(ruleset.table_sizes)} at the table, not {shown(players)}"
        )
    if type(dealer) is not int or not 0 <= dealer < players:
        raise TableError("dealer", f"the dealer must be a seat from 0 to {players - 1}, not {shown(dealer)}")
    seats_out = ruleset.seats_out(players, dealer)
    first = dealer + 1
    seats = tuple(s % players for s in range(first, first + players) if s % players not in seats_out)
    active = ruleset.for_players(len(seats))
    choice = active.deal_choice
    found = ruleset.derived[key] = _Setup(
        seats_out,
        seats,
        active,
        choice.names(len(seats)) if choice is not None else (),
        _auction_tables(active),
        dealing(active, seats, players),
        active.breaches == "refuse",
        active.breaches == "penalize",
    )
    return found


def _broken(game: Game, wrong: list[int], size: int, pack: frozenset[str], counted: Counter[str]) -> str:
    """What is wrong with the cards of a deal that no longer adds up, for BrokenDealError."""
    hands = game.cards.hands
    problems = [f"seat {s} holds {len(hands[s])} cards" for s in wrong]
    if wrong:
        problems[-1] += f" where the deal plan gives each player {size}"
    found = (
        ("cards in two places", sorted(c for c, n in counted.items() if n > 1)),
        ("cards lost", sorted(pack - counted.keys())),
        ("cards not of the pack", sorted(counted.keys() - pack)),
    )
    problems += [f"{what}: {', '.join(cards)}" for what, cards in found if cards]
    contract = game.contract.name if game.contract else "?"
    return (
        f"the deal no longer adds up when play would start ({'; '.join(problems)}): the exchange of "
        f"{contract!r} moves cards wrongly; this is a fault of the ruleset (or of the interpreter), "
        "and the deal stops here rather than be settled"
    )


def _failure(exc: Exception, doing: str) -> Exception:
    """The error to raise for `exc`: the project's own, or `exc` itself for a fault of the
    interpreter (no rule failed), which is not to be disguised."""
    return as_rule_failure(exc, doing) or exc


class _Stages(NamedTuple):
    """The stages from the auction's last call to the first card that a contract has by the rules
    in scope for it: made once per ruleset and contract (`_stages`) and kept in the ruleset's
    `derived`, so that a contract with nothing to exchange, no doubling, no announcements and no
    partner to find goes to its first card without building or asking any of them."""

    exchange: bool  # cards to exchange or a trump suit to choose: an Exchange is built
    accusation: str | None  # the phase whose passing out lets the declarer accuse (an Exchange then too)
    claim: bool  # a hand may be shown instead of played: the declarer's is asked (`claims`)
    doubling: bool  # everyone for themselves doubles the game in turn (DoublingRound)
    round: bool  # a declarer's contract has a round of announcements (AnnouncementRound) ...
    declarer_announces: bool  # ... else the declarer alone may announce (DeclarerAnnouncement)


def _stages(ruleset: Ruleset, contract: Contract) -> _Stages:
    """The stages of `contract` between its auction and its first card."""
    key = ("stages", contract.name)
    found: _Stages | None = ruleset.derived.get(key)
    if found is None:
        accusation = ruleset.accusation
        found = ruleset.derived[key] = _Stages(
            bool(contract.exchange) or bool(contract.trump_choice),
            accusation.phase if accusation is not None else None,
            ruleset.claim is not None,
            contract.doubling is not None,
            ruleset.announcing is not None and contract.individual is None,
            declarer_announces(ruleset, contract),
        )
    return found


class _PlayCourse(NamedTuple):
    """What trick play of a contract, with a trump suit, at a table takes from the ruleset alone:
    made once (`_play_course`) and kept in the ruleset's `derived`, keyed by all three."""

    plan: PlayPlan
    actions: Mapping[str, FrozenAction]  # {play: CARD} for every card (shared, read-only)
    steps: list[dict[str, PlayStep]]  # by seat and card: what playing it writes down
    hand_size: int  # each active hand by the deal plan: the number of tricks
    pack: frozenset[str]  # the cards of the pack for the players who play
    leaders: dict[tuple[int, int | None], int]  # (dealer, declarer) -> who leads first, once worked out


def _play_course(
    ruleset: Ruleset, contract: Contract, trump_suit: str | None, players: int, active: int
) -> _PlayCourse:
    """The course of play of `contract` with `trump_suit` at a table of `players`, `active` of
    whom play."""
    key = ("play_course", contract.name, trump_suit, players, active)
    found: _PlayCourse | None = ruleset.derived.get(key)
    if found is None:
        size = sum(p.count for p in ruleset.deal_plans[active] if p.to == "each")
        found = ruleset.derived[key] = _PlayCourse(
            play_plan(ruleset, contract, trump_suit),
            play_actions(ruleset),
            play_steps(ruleset, players),
            size,
            frozenset(ruleset.pack(active)),
            {},
        )
    return found


def _auction_tables(ruleset: Ruleset) -> AuctionTables:
    tables: AuctionTables | None = ruleset.derived.get("auction_tables")
    if tables is None:
        tables = ruleset.derived["auction_tables"] = Auction.tables_of(ruleset.phases)
    return tables


def _ids_of(game: Game) -> ActionIds:
    return ActionIds.of(game.table_ruleset, game.players)


def _copy(action: ActionJson) -> ActionJson:
    """An action of the history as a caller may keep and change it. A card played or a kontra is
    shared and read-only already; the rest (a discard's list of cards) is copied."""
    if type(action) is dict:
        return {k: list(v) if isinstance(v, list) else v for k, v in action.items()}
    return action
