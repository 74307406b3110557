"""The auction: phases of bidding ladders, played as duels between the holder and a challenger.

How one phase runs (Dappen, Cego and Tapp all fit it):
- players enter in order of play from Vorhand; one who passes is out of the phase for good;
- an entrant may bid the lowest level (or, with `raise: any`, any level) when nobody has bid,
  otherwise the next level above the current bid (or any higher one);
- the current holder answers a challenger at once: hold (take the same level, by the phase's
  hold call such as "selber") or pass, or where the phase's `answer` says, raise over the
  challenger at once; after a hold or a raise the challenger may go higher or pass;
- when the duel is decided the next entrant in order speaks;
- the phase ends as soon as nobody can change its outcome, or at once on a level that `ends` it.
Requirements (holds a king) and compulsions (must dappen) are DSL conditions on the hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from interpreter.engine.actions import Action, ActionJson, Call
from interpreter.engine.table import Table
from interpreter.language.model import AuctionPhase, Compulsion, Condition, Level, Proposal, ThrowInPayment

PASS = "pass"
_NONE: frozenset[Any] = frozenset()
_UNKNOWN = "?"  # (not yet worked out: no reason a hand misses a need is this)
Awaiting = Literal["entrant", "holder", "challenger", "choice", "priority", "answer"]


class PhaseState:
    """Where a phase of the auction stands (made at every phase's start: a class with a written
    __init__, which costs a third of a dataclass's with its default factories)."""

    __slots__ = (
        "asking",
        "awaiting",
        "bidders",
        "carried",
        "challenger",
        "choices",
        "held",
        "holder",
        "last",
        "level",
        "next_entrant",
        "order",
        "passed",
        "pending",
        "phase",
        "proposal",
        "ranks",
        "spoken",
    )

    def __init__(self, phase: AuctionPhase, order: list[int]):
        self.phase = phase
        self.order = order  # the seats that may enter, in order of speaking
        self.holder: int | None = None
        self.level = -1  # index in the ladder of the current bid
        self.challenger: int | None = None
        self.awaiting: Awaiting = "entrant"
        self.next_entrant = 0  # index into order
        self.passed: set[int] = set()
        self.bidders: set[int] = set()
        self.spoken: set[int] = set()  # seats that have had their turn to enter
        self.last = -1  # rounds: index in order of the last speaker
        self.carried: int | None = None  # the bidder who carried a bid into the phase
        self.choices: tuple[Level, ...] = ()  # the games the holder chooses from
        self.pending: Outcome | None = None  # an interrupt waiting while earlier players may claim priority
        self.asking: Sequence[int] = ()  # those earlier players, still to answer, in order
        # A call put to another player (`answered_by`): who said it, the call, and what the phase
        # awaited before; the answer takes it up again.
        self.proposal: tuple[int, str, Awaiting] | None = None
        # What each condition on a seat's hand said in this phase (`Auction._holds`), by
        # (condition, seat, whether a bid was made): the rest of what it reads stays all phase.
        # (None until a condition is asked: most phases ask none.)
        self.held: dict[tuple[int, int, bool], bool] | None = None
        # Each speaker's rank for taking over a bid (`Auction._priority`), once asked.
        self.ranks: dict[int, int] | None = None


class Outcome(NamedTuple):
    """How a phase ended: nobody bid, or `seat` won with `call` (and `ends` says whether at once).
    (A named tuple: made once or twice a deal, and a frozen dataclass costs five times as much.)"""

    seat: int | None
    call: str | None
    contract: str | None
    ends_auction: bool
    throw_in: bool = False


@dataclass(frozen=True)
class AuctionTables:
    """What the auction looks up in its phases, worked out once per ruleset (`tables_of`)."""

    phases: dict[str, AuctionPhase]  # by name
    rungs: dict[str, dict[str, int]]  # by phase: each call of its ladder -> its index
    proposals: dict[str, dict[str, Proposal]]  # by phase: the calls another player answers first
    # By phase, for each level bid so far (-1, none, to the top: at `level + 1`): the levels that
    # may be bid over it, before requirements (the next one, a jump, or with `raise: any` any
    # higher one); and their calls, read only and shared, where none of them has a requirement
    # or a need that a hand must meet (None where one has).
    above: dict[str, tuple[tuple[int, ...], ...]]
    free_above: dict[str, tuple[tuple[str, ...] | None, ...]]
    # By phase and level the same way: what a duel's entrant or challenger with room among the
    # bidders is offered, pass and the free calls above, where the phase has no calls out of
    # turn and no compulsion to change it (None where it has, or where a level asks of a hand).
    free_offers: dict[str, tuple[tuple[str, ...] | None, ...]]
    asks: dict[str, tuple[bool, ...]]  # by phase: for each level of its ladder, `_asks`
    opens: dict[str, bool]  # by phase: `_opens`


def _above(phase: AuctionPhase, level: int) -> tuple[int, ...]:
    """The levels of `phase` that may be bid over `level` (-1: nothing bid yet), before requirements."""
    if phase.raise_any:
        return tuple(range(level + 1, len(phase.ladder)))
    following = (level + 1,) if level + 1 < len(phase.ladder) else ()
    return following + tuple(i for i, lv in enumerate(phase.ladder) if lv.jump and i > level + 1)


def _asks(level: Level) -> bool:
    """Whether a hand must meet something to bid `level`: a requirement, or a need of its game."""
    return level.requires is not None or level.needs is not None


def _opens(phase: AuctionPhase) -> bool:
    """Whether the first speaker of `phase`, started with nobody holding a bid, may change its
    outcome by the phase's rules alone, whatever the hands: a duel with a level to bid that the
    number of bidders allows, or calls out of turn; any phase in rounds or of declarations. Then
    the phase is not over at its start, and `settle` has no turn to skip."""
    if phase.style != "duel" or phase.interrupts:
        return True
    return bool(phase.ladder) and (phase.max_bidders is None or phase.max_bidders > 0)


def _free_offer(phase: AuctionPhase, free: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """What `_legal_calls` offers a duel's entrant or challenger whose bids are `free` (the free
    calls of a level, `_free_calls`), where no feature of the phase changes it: pass, then the
    bids (None where the phase has calls out of turn or a compulsion, or a level asks of a hand)."""
    if free is None or phase.style != "duel" or phase.interrupts or phase.compulsory:
        return None
    return (PASS, *free)


def _free_calls(phase: AuctionPhase, levels: tuple[int, ...]) -> tuple[str, ...] | None:
    """The calls of `levels`, where no hand must meet anything to bid them (else None)."""
    ladder = phase.ladder
    if any(_asks(ladder[i]) for i in levels):
        return None
    return tuple(ladder[i].call for i in levels)


class Auction:
    read_only_offer = True  # calls: text
    # What a deal's auction starts from, until its calls change it (read here, rather than set
    # at every deal: each is read once or twice a deal).
    last_speaker: int | None = None  # the seat that made the last call
    outcome: Outcome | None = None  # how it ended (as a stage of a deal)
    breached: Compulsion | None = None  # the compulsion a pass broke, which ends the deal

    def __init__(
        self,
        phases: tuple[AuctionPhase, ...],
        seats: list[int],
        hands: dict[int, list[str]],
        players: int,
        enforce: bool = True,
        suit_of: Mapping[str, str] | None = None,
        tables: AuctionTables | None = None,
        table: Table | None = None,
        penalize: bool = False,
        dealer: int | None = None,
    ):
        # `tables`: tables_of(phases), which a caller may keep for the next deal.
        self.tables = tables = tables if tables is not None else self.tables_of(phases)
        self.phases = tables.phases
        self.suit_of = suit_of  # the deck's suits, to tell whether a hand could keep what a bid needs
        self.seats = seats  # active seats in order of play from Vorhand
        self.hands = hands
        self.players = players
        self.enforce = enforce  # False: a pass against a compulsion is allowed (and penalised)
        self.bidders: set[int] = set()  # every seat that bid in any phase
        # What most deals never fill is made only when filled: set here all the same (the
        # empty frozensets are shared), for an instance keeps its attributes in its fastest
        # form only where each was set when the first instances were made (CPython 3.11).
        self.passed_out: frozenset[str] = _NONE  # phases everybody passed
        self.refused: frozenset[tuple[int, str]] = _NONE  # proposals refused this deal: (seat, call)
        # Why each hand could not carry out a level's game (None: it could), once asked: by (the
        # level, seat); None until asked (only a level that needs something of the hand asks).
        self._missing: dict[tuple[int, int], str | None] | None = None
        # Per seat: whether somebody had bid when the seat first spoke (it could not open the bidding).
        self.bid_when_spoke: dict[int, bool] = {}
        self.dealer = dealer if dealer is not None else seats[-1]  # who answers a proposal
        self.state = self._start(phases[0], carried=None)
        self._legal: tuple[int, Sequence[str]] | None = None  # (seat, its calls) until the auction changes
        # As a stage of a deal: where its calls and events are written, and whether a pass
        # against a compulsion is penalised (records of real games).
        self.table = table
        self.penalize = penalize
        self.to_act: int | None = None  # (worked out by `start`, then by every call)

    @staticmethod
    def tables_of(phases: tuple[AuctionPhase, ...]) -> AuctionTables:
        above = {p.name: tuple(_above(p, level) for level in range(-1, len(p.ladder))) for p in phases}
        free = {p.name: tuple(_free_calls(p, levels) for levels in above[p.name]) for p in phases}
        return AuctionTables(
            {p.name: p for p in phases},
            {p.name: {lv.call: i for i, lv in reversed(list(enumerate(p.ladder)))} for p in phases},
            {p.name: {lv.call: lv.answered_by for lv in p.ladder + p.interrupts if lv.answered_by} for p in phases},
            above,
            free,
            {p.name: tuple(_free_offer(p, calls) for calls in free[p.name]) for p in phases},
            {p.name: tuple(_asks(lv) for lv in p.ladder) for p in phases},
            {p.name: _opens(p) for p in phases},
        )

    # -- phases ----------------------------------------------------------------------------
    def _start(
        self, phase: AuctionPhase, carried: tuple[int, str] | None, speakers: list[int] | None = None
    ) -> PhaseState:
        seats = speakers if speakers is not None else self.seats
        if phase.start == "after_vorhand" and seats:
            seats = seats[1:] + seats[:1]  # the player after Vorhand opens, Vorhand speaks last
        if carried is not None and phase.start == "after_holder":
            at = seats.index(carried[0])
            seats = seats[at + 1 :] + seats[:at]
        order = list(seats) if carried is None else [s for s in seats if s != carried[0]]
        state = PhaseState(phase, order)
        if carried is not None:
            state.holder, state.level = carried[0], phase.level_of(carried[1]) or 0
            state.bidders.add(carried[0])
            state.carried = carried[0]
        return state

    def next_phase(self, outcome: Outcome) -> str | None:
        """Move on after a phase ended; returns the new phase's name, or None if the auction is over."""
        self._legal = None
        phase = self.state.phase
        if outcome.ends_auction:
            return None
        if outcome.seat is None:
            self.passed_out = self.passed_out | {phase.name}
            if phase.pass_out in ("throw_in", "play"):
                return None
            self.state = self._start(self.phases[phase.pass_out], carried=None)
            return phase.pass_out
        assert outcome.call is not None  # somebody won the phase with a call
        target = phase.after.get(outcome.call)
        if target is None:
            return None
        if self.phases[target].speakers == "previous_bidders":
            # Only those who declared they want to play speak now; nobody holds a bid yet.
            bidders = [s for s in self.state.order if s in self.state.bidders]
            self.state = self._start(self.phases[target], carried=None, speakers=bidders)
            return target
        self.state = self._start(self.phases[target], carried=(outcome.seat, outcome.call))
        return target

    # -- whose turn ------------------------------------------------------------------------
    def whose_turn(self) -> int | None:
        st = self.state
        awaiting = st.awaiting
        style = st.phase.style
        if awaiting != "entrant" or style != "duel":  # (the common case, the next entrant of a duel, first)
            if awaiting == "holder" or awaiting == "choice":
                return st.holder
            if awaiting == "priority":
                return st.asking[0]
            if awaiting == "answer":
                return self._answerer()
            if style == "rounds":
                return self._rounds_next()
            if style == "declare":
                pending = [s for s in st.order if s not in st.spoken]
                return pending[0] if pending else None
            return st.challenger  # awaiting the challenger of a duel
        order, passed, holder, at = st.order, st.passed, st.holder, st.next_entrant
        while at < len(order):
            seat = order[at]
            if seat not in passed and seat != holder:
                st.next_entrant = at
                return seat
            at += 1
        st.next_entrant = at
        return None

    # -- legal calls -----------------------------------------------------------------------
    def _env(self, seat: int) -> dict[str, Any]:
        st = self.state
        position = st.order.index(seat) if seat in st.order else -1
        return {
            "hand": frozenset(self.hands[seat]),
            "position": position,
            "speakers": len(st.order),
            "bid_made": st.holder is not None,
            "players": self.players,
        }

    def _meets(self, level: Level, seat: int) -> bool:
        return not _asks(level) or self._unmet(level, seat) is None

    def _holds(self, condition: Condition, seat: int) -> bool:
        """Whether `condition` holds on `seat`'s env (`_env`). Of what it reads, in an auction
        only `bid_made` changes within a phase (the hands do not, nor the phase's speakers):
        each answer is worked out once per phase and kept, as the offer is asked at every call."""
        st = self.state
        key = (id(condition), seat, st.holder is not None)
        known = st.held
        if known is None:
            known = st.held = {}
        held = known.get(key)
        if held is None:
            held = known[key] = bool(condition(self._env(seat)))
        return held

    def _unmet(self, level: Level, seat: int) -> str | None:
        """Why `seat`'s hand may not bid `level`, or None: its stated requirement, or the first step
        of the game's exchange it could not take (a bid the bidder could not carry out)."""
        if level.requires is not None and not self._holds(level.requires, seat):
            return f"your hand does not meet its requirement ({level.requires.source})"
        if level.needs is not None and self.suit_of is not None:
            key = (id(level), seat)
            known = self._missing
            if known is None:
                known = self._missing = {}
            missing = known.get(key, _UNKNOWN)
            if missing is _UNKNOWN:  # (the hand alone decides: once a deal)
                missing = known[key] = level.needs.why_not(self.hands[seat], self.suit_of)
            if missing is not None:
                return f"you could not carry it out: {missing}"
        return None

    def _room_for(self, seat: int) -> bool:
        """Whether `seat` may still bid in this phase: it is a bidder already, or the phase's
        `max_bidders` leaves room for one more."""
        st = self.state
        limit = st.phase.max_bidders
        return limit is None or seat in st.bidders or len(st.bidders) < limit

    def _bids_open_to(self, seat: int, from_level: int) -> tuple[int, ...]:
        """Levels `seat` may bid now, before requirements: the next one, a jump, or any higher one."""
        if not self._room_for(seat):
            return ()
        return self.tables.above[self.state.phase.name][from_level + 1]

    def _bids(self, seat: int, from_level: int) -> Sequence[str]:
        """The bids `seat` may make now over `from_level`: the levels open to it that its hand
        meets; read only (the table's own calls where no level open asks anything of a hand)."""
        if not self._room_for(seat):
            return ()
        phase = self.state.phase
        free = self.tables.free_above[phase.name][from_level + 1]
        if free is not None:
            return free
        ladder, asks = phase.ladder, self.tables.asks[phase.name]
        bids = []  # (a loop, not a comprehension: no function made and called per call)
        for i in self.tables.above[phase.name][from_level + 1]:
            if not asks[i] or self._unmet(ladder[i], seat) is None:  # (`_meets`, with `_asks` from the table)
                bids.append(ladder[i].call)
        return bids

    def _may_bid(self, seat: int, from_level: int) -> bool:
        """Whether `_bids_open_to(seat, from_level)` has any level (asked for every seat that
        could still speak whenever a phase may have ended): a level above, and room for the seat
        among the bidders."""
        return self._room_for(seat) and from_level + 1 < len(self.state.phase.ladder)

    # -- the rounds style: the turn goes round the table ---------------------------------------
    def _rounds_next(self) -> int | None:
        st = self.state
        n = len(st.order)
        for step in range(1, n + 1):
            seat = st.order[(st.last + step) % n]
            if seat not in st.passed and seat != st.holder:
                return seat
        return None

    def _priority(self, seat: int) -> int:
        # Lower ranks first: earlier in the phase's order, or as the phase's `priority` says
        # (earlier from Vorhand; later in the order); a bidder carried in comes first.
        st = self.state
        if seat == st.carried:
            return -1 - len(self.seats)
        priority = st.phase.priority
        if priority == "order":
            return st.order.index(seat)
        return self.seats.index(seat) if priority == "vorhand" else -st.order.index(seat)

    def _may_hold_over(self, seat: int) -> bool:
        """Whether `seat` ranks before the holder as the phase's `hold_by` says (before the hand)."""
        st = self.state
        if st.holder is None or not (st.phase.hold or st.phase.hold_same):
            return False
        ranks = st.ranks
        if ranks is None:  # (asked for every seat still to speak at every call: worked out once a phase)
            speakers = st.order if st.carried is None else [*st.order, st.carried]
            ranks = st.ranks = {s: self._priority(s) for s in speakers}
        rank, over = ranks.get(seat), ranks.get(st.holder)  # (a seat of neither: worked out as asked)
        if (rank if rank is not None else self._priority(seat)) >= (
            over if over is not None else self._priority(st.holder)
        ):
            return False
        return st.phase.hold_by == "earlier" or seat == st.order[0]

    def _rounds_legal(self, seat: int) -> list[str]:
        st = self.state
        ladder = st.phase.ladder
        calls = [PASS, *self._bids(seat, st.level)]
        if st.phase.hold and self._may_hold_over(seat) and self._can_hold(seat) and self._meets(ladder[st.level], seat):
            calls.append(st.phase.hold)
        if (
            st.phase.hold_same
            and st.level >= 0
            and self._may_hold_over(seat)
            and ladder[st.level].holdable
            and self._meets(ladder[st.level], seat)
        ):
            calls.insert(1, ladder[st.level].call)  # the same game again, by a player of higher priority
        if st.phase.side_bids:
            calls += self._side_bids_open_to(seat)
        if st.phase.compulsory and (rule := self._compulsion(seat, calls[1:])) is not None:
            return self._as_compelled(rule, calls)
        return calls

    def _side_bids_open_to(self, seat: int) -> list[str]:
        st = self.state
        current = st.phase.ladder[st.level].call if st.level >= 0 else None
        return [lv.call for lv, over in st.phase.side_bids if current in over and self._meets(lv, seat)]

    def _rounds_apply(self, seat: int, call: str) -> Outcome | None:
        st = self.state
        st.last = st.order.index(seat)
        st.spoken.add(seat)
        side = next((lv for lv, _ in st.phase.side_bids if lv.call == call), None) if st.phase.side_bids else None
        if side is not None:
            self.bidders.add(seat)
            return Outcome(seat, call, side.contract, ends_auction=True)
        if call == PASS:
            st.passed.add(seat)
        elif call == st.phase.hold or (st.phase.hold_same and st.level >= 0 and call == st.phase.ladder[st.level].call):
            st.holder = seat
        else:
            st.level, st.holder = self._rung(call), seat
            st.bidders.add(seat)
            self.bidders.add(seat)
            if st.phase.ladder[st.level].ends is not None:
                return self._outcome(ends_auction=st.phase.ladder[st.level].ends == "auction")
        return self._rounds_settle()

    def _rounds_settle(self) -> Outcome | None:
        st = self.state
        for s in st.order:  # (a loop, not any() over a generator: see TrickRules.legal)
            if s in st.passed or s == st.holder:
                continue
            if st.holder is None or self._may_bid(s, st.level) or self._side_bids_open_to(s) or self._may_hold_over(s):
                return None  # somebody still to speak can change the outcome (or nobody has bid yet)
        return self._outcome(ends_auction=False)

    def _declare_settle(self) -> Outcome | None:
        """A declare phase ends when everybody has spoken once."""
        st = self.state
        for s in st.order:  # (a loop, not any() over a generator: see TrickRules.legal)
            if s not in st.spoken:
                return None
        return self._outcome(ends_auction=False)

    def _interrupts_open_to(self, seat: int) -> list[str]:
        """Interrupting calls `seat` may make now: up to and including its own turn to enter,
        once somebody has opened the phase (or on its own turn)."""
        st = self.state
        if (
            not st.phase.interrupts
            or st.awaiting in ("choice", "priority", "answer")
            or seat not in st.order
            or seat in st.spoken
        ):
            return []
        if st.holder is None and not (seat == self.whose_turn() and st.awaiting == "entrant"):
            return []
        return [lv.call for lv in st.phase.interrupts if self._meets(lv, seat)]

    def legal(self, seat: int) -> Sequence[str]:
        """The calls `seat` may make now; the same list until the auction changes (asked by the
        player, then again to check the call): not to be changed by the caller."""
        known = self._legal
        if known is not None and known[0] == seat:
            return known[1]
        calls = self._legal_calls(seat)
        if self.refused:  # a proposal refused is not made again this deal
            calls = [c for c in calls if (seat, c) not in self.refused]
        self._legal = (seat, calls)
        return calls

    def _legal_calls(self, seat: int) -> Sequence[str]:
        """The calls of `seat`: pass and the bids open to it, then each feature of the phase in
        scope (interrupts, a compulsion; jumps, free raising and max_bidders in `_bids_open_to`,
        requirements and needs in `_meets`). A phase with none of them offers the next entrant
        of a duel pass and the next level: no step of its own, what the features give when none
        applies (made once per ruleset: `AuctionTables.free_offers`)."""
        st = self.state
        phase = st.phase
        interrupts = self._interrupts_open_to(seat) if phase.interrupts else []
        if seat != self.to_act:  # (kept up to date by every change: see _moves_on)
            return interrupts
        if st.awaiting != "entrant" or phase.style != "duel":  # (the common case first, as in whose_turn)
            answer = self._answer(seat)
            if answer is not None:
                return answer
        free = self.tables.free_offers[phase.name][st.level + 1]
        if free is not None and self._room_for(seat):
            return free  # (what the steps below give where no feature of the phase applies)
        bids = self._bids(seat, st.level)
        calls = [PASS, *bids]
        if interrupts:
            calls += [c for c in interrupts if c not in bids]
        if st.awaiting == "entrant" and st.phase.compulsory and (rule := self._compulsion(seat, bids)) is not None:
            return self._as_compelled(rule, calls)
        return calls

    def _answer(self, seat: int) -> list[str] | None:
        """The calls of the seat to act when it is no entrant or challenger of a duel: a choice of
        game, a claim of priority, its turn in rounds or in a declare phase, or the holder's
        answer; None for a duel's challenger (who bids as an entrant does)."""
        st = self.state
        if st.awaiting == "choice":
            return [lv.call for lv in st.choices]
        if st.awaiting == "priority":
            return [PASS, *(lv.call for lv in st.phase.interrupts if self._meets(lv, seat))]
        if st.awaiting == "answer":
            assert st.proposal is not None
            proposal = self.tables.proposals[st.phase.name][st.proposal[1]]
            return [proposal.accept, proposal.refuse]
        if st.phase.style == "rounds":
            return self._rounds_legal(seat)
        if st.phase.style == "declare":
            return [PASS, *(lv.call for lv in st.phase.ladder if self._meets(lv, seat))]
        if st.awaiting == "holder":
            answer, ladder = st.phase.answer, st.phase.ladder
            can_hold = answer != "raise" and self._can_hold(seat) and self._meets(ladder[st.level], seat)
            calls = [PASS, st.phase.hold] if can_hold and st.phase.hold is not None else [PASS]
            if answer != "hold":  # a raise at once, over the challenger's bid
                calls += self._bids(seat, st.level)
            return calls
        return None

    def _may_answer(self, holder: int) -> bool:
        """Whether the challenged holder has an answer besides dropping out, by the phase's rules
        (not the hand): a hold, or a raise at once."""
        st = self.state
        answer = st.phase.answer
        return (answer != "raise" and self._can_hold(holder)) or (answer != "hold" and self._may_bid(holder, st.level))

    def breach(self, seat: int, call: str) -> Compulsion | None:
        """The compulsion a pass by `seat` now would break, if any (checked before applying it)."""
        st = self.state
        if call != PASS or st.awaiting != "entrant" or seat != self.whose_turn():
            return None
        bids = [c for c in self.legal(seat) if c != PASS]
        for rule in st.phase.compulsory:
            if rule.call in bids and rule.breach_pays_each is not None and self._holds(rule.when, seat):
                return rule
        return None

    def _compelled(self, seat: int, bids: Sequence[str]) -> str | None:
        """The reason a pass is refused, when a compulsion holds."""
        rule = self._compulsion(seat, bids)
        return rule.reason if rule is not None else None

    def _compulsion(self, seat: int, bids: Sequence[str]) -> Compulsion | None:
        """The compulsion that holds for `seat`, whose bids are `bids`: the first whose call is
        one of them and whose condition holds. One with a penalty for breaking it is not enforced
        when breaches are penalised (records of real games)."""
        for rule in self.state.phase.compulsory:
            if not self.enforce and rule.breach_pays_each is not None:
                continue
            if rule.call in bids and self._holds(rule.when, seat):
                return rule
        return None

    def _as_compelled(self, rule: Compulsion, calls: list[str]) -> list[str]:
        """`calls` as a compulsion leaves them: the call it names, and the special games the
        phase lets anyone say out of turn (Cego's Vorhand must open with Cego, Piccolo or Bettel)."""
        return [c for c in calls if self._compulsion_allows(rule, c)]

    def _compulsion_allows(self, rule: Compulsion, call: str) -> bool:
        """Whether `call` is one a compulsion leaves open: its own call (or a higher bid, where it
        says `or_higher`), or a special game anyone may say out of turn."""
        phase = self.state.phase
        if call == rule.call or (phase.interrupts and any(lv.call == call for lv in phase.interrupts)):
            return True
        rungs = self.tables.rungs[phase.name]  # (phase.level_of, from the table)
        lowest, index = rungs.get(rule.call), rungs.get(call)
        return rule.or_higher and lowest is not None and index is not None and index >= lowest

    def why_not(self, seat: int, call: str) -> str:
        """Why `call` is not legal for `seat` now, in words for the player."""
        st = self.state
        legal = self.legal(seat)
        options = ", ".join(legal) if legal else "nothing"
        out_of_turn = self._why_out_of_turn(seat, call, options)
        if out_of_turn is not None:
            return out_of_turn
        if call == PASS:
            bids = [c for c in legal if c != PASS]
            return f"you may not pass: {self._compelled(seat, bids)}"
        if (
            PASS not in legal
            and (rule := self._compulsion(seat, legal)) is not None
            and not self._compulsion_allows(rule, call)
        ):
            must = f"{rule.call} or a higher bid" if rule.or_higher else rule.call
            return f"you must say {must}: {rule.reason}; you may say: {options}"
        if call == st.phase.hold:
            return self._why_not_hold(seat, call, options)
        return self._why_not_bid(seat, call, options)

    def _why_out_of_turn(self, seat: int, call: str, options: str) -> str | None:
        """Why `call` is refused for what the state of the phase asks first: a choice of game, an
        earlier player's claim of priority, an interrupt out of its time, another seat's turn."""
        st = self.state
        if st.awaiting == "choice" and seat == st.holder:
            return f"choose the game to play: {options}"
        if st.awaiting == "answer" and st.proposal is not None:
            said = f"seat {st.proposal[0]} said {st.proposal[1]}"
            if seat != self._answerer():
                return f"{said}; the dealer, seat {self._answerer()}, answers it first"
            return f"{said}: grant it or refuse it; you may say: {options}"
        if (seat, call) in self.refused:
            return f"your {call} was refused: it is not said again this deal; you may say: {options}"
        if st.awaiting == "priority" and st.pending is not None:
            said = f"seat {st.pending.seat} said {st.pending.call}"
            if seat != self.whose_turn():
                return f"{said}; seat {self.whose_turn()}, whose turn comes earlier, may claim priority first"
            return f"{said}; your turn comes earlier, so you may claim a special game first or pass: {options}"
        if any(lv.call == call for lv in st.phase.interrupts):
            if seat in st.spoken:
                return f"{call} may be said only up to your own turn in the {st.phase.title}, which has passed"
            return f"{call} may be said once the {st.phase.title} has been opened; you may say: {options}"
        if seat != self.whose_turn():
            return f"it is seat {self.whose_turn()}'s turn, not seat {seat}'s"
        return None

    def _why_not_hold(self, seat: int, call: str, options: str) -> str:
        st = self.state
        if st.phase.style == "rounds" and st.holder is not None and not self._may_hold_over(seat):
            if st.phase.hold_by == "first" and seat != st.order[0]:
                return f"only seat {st.order[0]}, who spoke first, may take a bid with '{call}'; you may say: {options}"
            return f"only a player before the bidder may take the bid with '{call}'; you may say: {options}"
        if st.awaiting != "holder":
            return f"'{call}' answers a higher bid against yours, and there is none to answer; you may say: {options}"
        return f"you cannot hold {st.phase.ladder[st.level].call}: {self._hold_refusal(seat)}"

    def _why_not_bid(self, seat: int, call: str, options: str) -> str:
        st = self.state
        index = st.phase.level_of(call)
        if index is None:
            return f"'{call}' is not a bid in the {st.phase.title}; you may say: {options}"
        level = st.phase.ladder[index]
        if st.awaiting == "holder" and st.phase.answer == "hold":
            return f"answer the bid {st.phase.ladder[st.level].call} first; you may say: {options}"
        unmet = self._unmet(level, seat)
        if unmet is not None and index in self._bids_open_to(seat, st.level):
            return f"you may not bid {call}: {unmet}; you may say: {options}"
        if st.level >= 0 and index <= st.level:
            return f"{call} does not outbid {st.phase.ladder[st.level].call}; you may say: {options}"
        if not self._room_for(seat):
            return f"at most {st.phase.max_bidders} players may bid in the {st.phase.title}; you may say: {options}"
        return f"only the next bid is allowed, not a jump to {call}; you may say: {options}"

    def _can_hold(self, seat: int) -> bool:
        """Whether the holder may take over the bid against it, by the phase's rules (not the hand)."""
        st = self.state
        level = st.phase.ladder[st.level]
        return st.phase.hold is not None and level.holdable and (st.phase.carried_may_hold or seat != st.carried)

    def _hold_refusal(self, seat: int) -> str:
        level = self.state.phase.ladder[self.state.level]
        if seat == self.state.carried and not self.state.phase.carried_may_hold:
            return "you cannot bid against your own earlier bid"
        if not level.holdable:
            return f"{level.call} cannot be held"
        return self._unmet(level, seat) or "you may not hold it"

    # -- applying a call ---------------------------------------------------------------------
    # -- as a stage of the deal ----------------------------------------------------------------
    def start(self) -> bool:
        """The auction's first steps (a phase nobody can change is over at once, as a compulsory
        Räuber); returns whether the auction is over (its `outcome` set)."""
        if self._open():
            # Nobody has spoken: the first in the order speaks (what `whose_turn` finds in any style).
            self.to_act = self.state.order[0]
            return False
        return self._moves_on(self.settle())

    # The calls `seat` may make now (see `legal`): not to be changed.
    offer = legal

    def canonical(self, seat: int, parsed: Action) -> str | None:
        """The offered call `parsed` is, or None."""
        return parsed.name if isinstance(parsed, Call) and parsed.name in self.legal(seat) else None

    def refusal(self, seat: int, parsed: Action) -> str:
        """Why `parsed` is not an offered call of `seat` now."""
        if not isinstance(parsed, Call):
            return f"it is time for a call (auction), not {parsed.describe()}"
        return self.why_not(seat, parsed.name)

    def take(self, seat: int, action: ActionJson) -> bool:
        """Apply an offered call: written down and reported, and the phases move on. Returns
        whether the auction is over (`outcome` set; `breached` when a pass broke a compulsion the
        ruleset penalises, which ends the deal)."""
        call = str(action)
        table = self.table
        assert table is not None
        phase = self.state.phase.name
        breach = self.breach(seat, call) if self.penalize else None
        outcome = self.apply(seat, call)
        table.history.append((seat, call))
        table.events.append({"type": "call", "seat": seat, "call": call, "phase": phase})
        if breach is not None:
            self.breached = breach
            self.to_act = None
            return True
        return self._moves_on(outcome)

    def _moves_on(self, outcome: Outcome | None) -> bool:
        """Into the next phase, for as long as phases end without a word; whether the auction is over."""
        while outcome is not None:
            following = self.next_phase(outcome)
            if following is None:
                self.outcome = self._holder_declares(outcome)
                self.to_act = None
                return True
            if self.table is not None:
                self.table.events.append({"type": "phase", "phase": "auction", "name": following})
            outcome = None if self._open() else self.settle()
        self.to_act = self.whose_turn()
        return False

    def _open(self) -> bool:
        """Whether the phase just started goes on to its first speaker without a turn to skip:
        nobody carried a bid into it, it has speakers, and its rules let the first change its
        outcome (`AuctionTables.opens`), which is what `settle` would find."""
        st = self.state
        return st.carried is None and bool(st.order) and self.tables.opens[st.phase.name]

    def _holder_declares(self, outcome: Outcome) -> Outcome:
        """Everybody passed into a game that the holder of a card declares (`then.holder_of`):
        the holder of the first listed card a player holds is its declarer, without another word;
        none of them held, the deal is thrown in. Any other outcome stands."""
        phase = self.state.phase
        if outcome.seat is not None or not phase.pass_out_holder or phase.pass_out != "play":
            return outcome
        for card in phase.pass_out_holder:
            for seat in self.seats:
                if card in self.hands[seat]:
                    return Outcome(seat, None, phase.pass_out_play, ends_auction=True)
        return Outcome(None, None, None, ends_auction=True, throw_in=True)

    # -- applying a call ---------------------------------------------------------------------
    def apply(self, seat: int, call: str) -> Outcome | None:
        """Apply a legal call; returns the phase's outcome when it has ended."""
        self._legal = None
        st = self.state
        if st.awaiting == "answer":
            return self._answer_proposal(seat, call)
        proposals = self.tables.proposals[st.phase.name]
        if proposals and call in proposals:
            # Put to another player first: the call takes effect only when granted.
            st.proposal, st.awaiting = (seat, call, st.awaiting), "answer"
            return None
        return self._apply_call(seat, call)

    def _answerer(self) -> int:
        """Who answers the proposal made: its `by`, the dealer."""
        st = self.state
        assert st.proposal is not None
        proposal = self.tables.proposals[st.phase.name][st.proposal[1]]
        assert proposal.by == "dealer"  # (the one answerer the language has)
        return self.dealer

    def _answer_proposal(self, seat: int, call: str) -> Outcome | None:
        """The dealer's answer to a proposal: granted, the call takes effect as if said then;
        refused, it is void and the phase goes on where it stood."""
        st = self.state
        assert st.proposal is not None
        proposer, proposed, awaiting = st.proposal
        st.proposal, st.awaiting = None, awaiting
        self.last_speaker = seat
        if call == self.tables.proposals[st.phase.name][proposed].accept:
            return self._apply_call(proposer, proposed)
        self.refused = self.refused | {(proposer, proposed)}
        return None

    def _apply_call(self, seat: int, call: str) -> Outcome | None:
        """A call taking effect (a proposal once granted)."""
        self.bid_when_spoke.setdefault(seat, bool(self.bidders))
        self.last_speaker = seat
        st = self.state
        phase, awaiting = st.phase, st.awaiting
        interrupts = phase.interrupts
        if interrupts:  # (a phase without calls out of turn has no priority to claim either)
            interrupt = next((lv for lv in interrupts if lv.call == call), None)
            if awaiting == "priority":
                return self._answer_priority(seat, interrupt)
            if interrupt is not None and call in self._interrupts_open_to(seat):
                if interrupt.ends == "throw_in":
                    return Outcome(seat, call, None, ends_auction=True, throw_in=True)
                self.bidders.add(seat)
                outcome = Outcome(seat, call, interrupt.contract, ends_auction=True)
                earlier = self._earlier_unspoken(seat) if phase.interrupt_priority == "earlier_turn" else []
                if not earlier:
                    return outcome
                # The players whose turn comes earlier may still want a special game: they come first.
                st.pending, st.asking, st.awaiting = outcome, earlier, "priority"
                return None
        if awaiting == "choice":
            chosen = next(lv for lv in st.choices if lv.call == call)
            return Outcome(seat, call, chosen.contract, ends_auction=True)
        style = phase.style
        if style == "rounds":
            return self._rounds_apply(seat, call)
        if style == "declare":
            return self._declare_apply(seat, call)
        return self._duel_apply(seat, call)

    def _declare_apply(self, seat: int, call: str) -> Outcome | None:
        st = self.state
        st.next_entrant = st.order.index(seat) + 1
        st.spoken.add(seat)
        if call == PASS:
            st.passed.add(seat)
        else:
            st.bidders.add(seat)
            self.bidders.add(seat)
            if st.holder is None:
                st.holder, st.level = seat, self._rung(call)
        return self._declare_settle()

    def _duel_apply(self, seat: int, call: str) -> Outcome | None:
        st = self.state
        ladder = st.phase.ladder
        if st.awaiting == "holder":
            assert st.holder is not None
            if call == PASS:
                st.passed.add(st.holder)
                st.holder, st.challenger, st.awaiting = st.challenger, None, "entrant"
            else:
                if call != st.phase.hold:  # a raise at once: the challenger answers it
                    st.level = self._rung(call)
                st.awaiting = "challenger"
        elif st.awaiting == "challenger":
            if call == PASS:
                st.passed.add(seat)
                st.challenger, st.awaiting = None, "entrant"
            else:
                st.level = ladder.index(next(lv for lv in ladder if lv.call == call))
                st.awaiting = "holder"
        else:
            st.next_entrant = st.order.index(seat) + 1
            st.spoken.add(seat)
            if call == PASS:
                st.passed.add(seat)
            else:
                st.level = self._rung(call)
                st.bidders.add(seat)
                self.bidders.add(seat)
                if st.holder is None:
                    st.holder = seat
                else:
                    st.challenger, st.awaiting = seat, "holder"
        if call != PASS and ladder[st.level].ends is not None and st.awaiting != "holder":
            return self._outcome(ends_auction=ladder[st.level].ends == "auction")
        self._legal = None
        return self._duel_settle()  # (`settle`, for a duel awaiting no choice, priority or answer)

    def seat_facts(self, seat: int) -> dict[str, bool]:
        """What the auction says about `seat`, for rules read after it (who may double): whether
        it bid, and whether somebody had bid before its first turn (or before the auction ended
        without giving it one): then it could not have opened the bidding."""
        before = self.bid_when_spoke.get(seat, bool(self.bidders))
        return {"made_bid": seat in self.bidders, "bid_before_turn": before}

    def _earlier_unspoken(self, seat: int) -> list[int]:
        """The seats before `seat` in the order that have not had their turn, who may still interrupt."""
        st = self.state
        return [s for s in st.order[: st.order.index(seat)] if s not in st.spoken]

    def _answer_priority(self, seat: int, claim: Level | None) -> Outcome | None:
        """An earlier player answers a later player's interrupt: claims a special game, or passes."""
        st = self.state
        assert st.pending is not None
        if claim is not None:
            self.bidders.add(seat)
            return Outcome(seat, claim.call, claim.contract, ends_auction=True)
        st.asking = st.asking[1:]
        st.spoken.add(seat)
        return st.pending if not st.asking else None

    def settle(self) -> Outcome | None:
        """Skip turns that cannot change anything; report the outcome once nobody can."""
        self._legal = None
        st = self.state
        if st.awaiting == "priority" or st.awaiting == "answer":
            return None
        if st.phase.style == "rounds" and st.awaiting != "choice":
            return self._rounds_settle()
        if st.phase.style == "declare":
            return self._declare_settle()
        return self._duel_settle()

    def _duel_settle(self) -> Outcome | None:
        """`settle` for a duel."""
        st = self.state
        ladder = st.phase.ladder
        while True:
            if st.awaiting == "choice":
                return None
            if st.awaiting == "holder":
                assert st.holder is not None
                level = ladder[st.level]
                if self._may_answer(st.holder):
                    return None
                # A level that cannot be held passes to the challenger without a word.
                st.passed.add(st.holder)
                st.holder, st.challenger, st.awaiting = st.challenger, None, "entrant"
                if level.ends is not None:
                    return self._outcome(ends_auction=level.ends == "auction")
                continue
            if st.awaiting == "challenger":
                assert st.challenger is not None
                if self._may_bid(st.challenger, st.level):
                    return None
                st.passed.add(st.challenger)
                st.challenger, st.awaiting = None, "entrant"
                continue
            # The phase goes on while an entrant still to speak (the seat whose turn it is, or a
            # later one: `whose_turn` then finds the first) may bid, or may still interrupt on
            # its turn, even when the ladder is exhausted (Piccolo after der kleine Mann: the
            # turn is still theirs to say). With none, the phase is over.
            interrupts = st.phase.interrupts
            at = st.level
            if interrupts or at + 1 < len(ladder):  # else nobody can bid: the phase is over
                # With no cap on the bidders and a level left, `_may_bid` holds for every seat:
                # the first entrant still in decides.
                anyone = st.phase.max_bidders is None and at + 1 < len(ladder)
                passed, holder = st.passed, st.holder
                for s in st.order[st.next_entrant :]:
                    if (s not in passed and s != holder) and (
                        anyone or self._may_bid(s, at) or (interrupts and s not in st.spoken)
                    ):
                        return None
            return self._outcome(ends_auction=False)

    def _rung(self, call: str) -> int:
        """The index in the ladder of `call`, a bid of the ladder."""
        return self.tables.rungs[self.state.phase.name][call]

    def _outcome(self, ends_auction: bool) -> Outcome | None:
        st = self.state
        if st.holder is None:
            return Outcome(None, None, None, ends_auction)
        level = st.phase.ladder[st.level]
        phase = st.phase
        if level.call in phase.choose and (
            st.bidders == {st.holder} or level.contract is None or phase.choose_when == "won"
        ):
            # Nobody bid against it, it names no game to play (Mein Spiel), or the winner names
            # the game contested or not (`choose_when: won`): its bidder now chooses the game (a
            # call of the game's name).
            st.awaiting, st.choices = "choice", phase.choose[level.call]
            return None
        return Outcome(st.holder, level.call, level.contract, ends_auction)


def throw_in_payments(
    rule: ThrowInPayment, seats: Sequence[int], players: int, dealer: int, caller: int | None, pot: int | None
) -> tuple[list[int], int]:
    """What each seat pays (negative) or is paid when the auction throws the deal in, and what the
    pot gains: `rule.pays` from each payer (every seat in the deal, the dealer, or `caller`, the seat
    whose call threw the deal in: nobody when everybody passed), into the pot or to each other seat
    in the deal. Nobody takes more out of the pot than it holds (`pot`, its size before the deal)."""
    payments = [0] * players
    amount = int(rule.pays({"players": len(seats)}))
    if rule.payer == "each":
        payers = list(seats)
    elif rule.payer == "dealer":
        payers = [dealer]
    else:
        payers = [] if caller is None else [caller]
    gained = 0
    for payer in payers:
        if rule.to == "pot":
            paid = max(amount, -((pot or 0) + gained))
            payments[payer] -= paid
            gained += paid
        else:
            for other in seats:
                if other != payer:
                    payments[payer] -= amount
                    payments[other] += amount
    return payments, gained
