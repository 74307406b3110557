"""The round of announcements after the exchange, and kontra.

Like an auction: starting with the declarer (or Vorhand), each player in turn announces bonuses
for their side and doubles (kontra, rekontra, …) the game or an announced bonus, any number of
them, and ends the turn with the done call (`pass`); a turn with nothing said is a pass. The round
ends when every player has spoken and the last (players − 1) turns said nothing.

Where a doubling is answered at once (`kontra.answer: at_once`), a kontra hands the turn straight
to the first seat after the doubler, in the order of speaking, of the other side that may double
the item again; it doubles again (and the turn goes on in the same way) or says the done call,
which ends the chain and closes the item. Then the turn is back with the seat whose turn of the
round it was. The chain is finite: each answer is either the end or a kontra, which brings the
item one double nearer its `max`, or, with no fixed limit (`max: none`), uses up the answerer's
one double of the item.

Who is on which side is the engine's knowledge: a seat is offered only what its own side may say,
which it knows from its own hand (it holds the called card or not). Saying something makes the
speaker's side public (`revealed`); the partner's doing so reveals the partnership.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import compress
from operator import and_, itemgetter
from typing import Any, NamedTuple

from interpreter.engine.actions import (
    Action,
    ActionJson,
    Announce,
    Call,
    FrozenAction,
    FrozenEvent,
    FrozenList,
    Kontra,
    announce_actions,
)
from interpreter.engine.table import Table
from interpreter.language.keys import names
from interpreter.language.model import Condition, Contract, Declaration, Doubling, KontraRule, Ruleset

GAME = "game"
OTHER_SIDE = {"declarer": "defenders", "defenders": "declarer"}
# The facts of a seat that the round's conditions may read besides its hand, each a yes or a no:
# those the language declares for who may double (names.KONTRA, which holds names.SEAT's).
SEAT_FACTS = tuple(name for name in names.KONTRA if name != "hand")


class Round:
    """A round of speaking after the exchange: the sides' announcements and kontras
    (`AnnouncementRound`), or each player's knocking for themselves (`DoublingRound`). What it
    leaves for the settlement and the views: what was announced, by which side and seat, how often
    each item was doubled, and whose side became known."""

    read_only_offer = True  # the done call, and the ruleset's shared announcements and kontras

    # The attributes read at every action have slots of their own (with the subclasses'): the
    # rest stay in the instance's __dict__, below the 30 a Python 3.11 instance keeps in its
    # fastest form.
    __slots__ = (
        "__dict__",
        "announced",
        "done",
        "levels",
        "order",
        "partner_revealed",
        "revealed",
        "spoken",
        "table",
        "to_act",
        "turn",
    )

    def __init__(self, table: Table, order: list[int]):
        self.table = table
        self.order = order
        self.turn = 0  # index into order of the seat to speak
        # The seat to speak (None once the round is over): kept up to date as turns end, for the
        # game asks at every action.
        self.to_act: int | None = order[0] if order else None
        self.done = not order
        self.spoken: set[int] = set()
        self.announced: dict[str, str] = {}  # bonus -> the side that announced it
        self.announced_by: dict[str, int] = {}  # bonus -> the seat that announced it
        self.levels: dict[str, int] = {}  # item (game or a bonus) -> times doubled
        self.revealed: set[int] = set()  # seats whose side is public
        self.partner_revealed = False
        # The declarer's announcement's facts (Ulti, Tout), none in such a round.
        self.laid: list[tuple[str, str]] = []
        self.declared: list[str] = []
        self.declarations: tuple[Declaration, ...] = ()

    @property
    def game_kontra(self) -> int:
        return int(2 ** self.levels.get(GAME, 0))

    def announced_pairs(self) -> frozenset[tuple[str, str]]:
        return frozenset(self.announced.items())

    def announced_seats(self) -> frozenset[tuple[str, int]]:
        """(bonus, seat) for each bonus announced: a combination in a hand is its announcer's."""
        return frozenset(self.announced_by.items())

    def bonus_kontra(self) -> tuple[tuple[str, int], ...]:
        return tuple((item, level) for item, level in self.levels.items() if item != GAME)

    def emit(self, **event: Any) -> None:
        self.table.events.append(event)


class RoundTables:
    """What a round of announcements looks up in the ruleset for one contract, bound once per
    contract (`round_tables`, kept in `ruleset.derived`) rather than at every deal."""

    __slots__ = (
        "announce_reads",
        "announcements",
        "anyone_doubles",
        "at_once",
        "bonuses_doubled",
        "candidate_actions",
        "candidate_at",
        "candidates",
        "done",
        "done_events",
        "eligible",
        "game_doubled",
        "kontra_reads",
        "kontra_rules",
        "kontra_steps",
        "kontras",
        "kontras_free",
        "may",
        "once_each",
        "reads_spoken",
        "said_events",
        "unconditional",
    )

    def __init__(self, ruleset: Ruleset, contract: Contract):
        rule = ruleset.announcing
        assert rule is not None
        game, bonuses = ruleset.kontra_game, ruleset.kontra_bonuses
        self.kontras = kontra_actions(ruleset)
        self.announcements = announce_actions(ruleset)
        # The bonuses a seat may ever announce in this contract, each with its own condition
        # (None: none) and whose it is: the rest of what a seat may announce depends on the seat.
        allowed = contract.bonuses
        self.candidates = tuple(
            (name, bonus.requires, bonus.whose)
            for name, bonus in ruleset.bonuses.items()
            if bonus.announced is not None and (allowed is None or name in allowed)
        )
        # Without conditions of their own and for either side, what a seat may announce is these
        # or nothing.
        free = [name for name, requires, whose in self.candidates if requires is None and whose == "either"]
        self.unconditional = free if len(free) == len(self.candidates) else None
        # Their actions, in that order, and where each is in it: an offer picks from these.
        self.candidate_actions = tuple(self.announcements[name] for name, _, _ in self.candidates)
        self.candidate_at = {name: i for i, (name, _, _) in enumerate(self.candidates)}
        # What a seat may announce, and whether it may double, are worked out from its side and
        # the facts of it that these conditions read (`_reads`). Where none reads the hand,
        # those are a handful of yes-or-no facts, and the answers are kept here for every deal
        # (keyed by `AnnouncementRound._key`): for each bonus of `candidates` whether the seat
        # may announce it, and whether it may double the game and the bonuses.
        conditions = [rule.may_announce, *(requires for _, requires, _ in self.candidates)]
        eligible = [r.eligible for r in (game, bonuses) if r is not None]
        self.announce_reads, self.kontra_reads = _reads(conditions), _reads(eligible)
        # Whether what a seat may announce depends on whether it has spoken: else each seat's
        # answer is not looked up again after its first turn.
        self.reads_spoken = any(c is not None and "spoken" in c.names for c in conditions)
        self.eligible: dict[tuple[object, ...], list[bool]] = {}
        self.may: dict[tuple[object, ...], tuple[bool, bool]] = {}
        self.game_doubled, self.bonuses_doubled = _doubles(game), _doubles(bonuses)
        # Answered at once: a kontra hands the turn to the other side (see the module's words).
        self.at_once = ruleset.kontra_answer == "at_once"
        # With no fixed limit (`max: none`) each seat doubles an item at most once.
        self.once_each = any(r is not None and r.max is None for r in (game, bonuses))
        # Nobody is barred from doubling (no rule says who may): no seat's facts to judge.
        self.anyone_doubles = not eligible or all(c is None for c in eligible)
        # And nobody is barred by having doubled an item once: a side's kontras are the seat's.
        self.kontras_free = self.anyone_doubles and not self.once_each
        # The events of what a seat says, shared and read-only like the actions (a round writes
        # one at every action), made once asked: (seat, item, level) of a kontra -> its event,
        # and whether the item is then doubled as often as allowed; (seat, name) of an
        # announcement -> its event; a seat -> the event of its done call, ending its turn of
        # the round (`done_events[0]`) or a chain of answers (`done_events[1]`).
        self.kontra_steps: dict[tuple[int, str, int], tuple[FrozenEvent, bool]] = {}
        self.said_events: dict[tuple[int, str], FrozenEvent] = {}
        self.done_events: tuple[dict[int, FrozenEvent], dict[int, FrozenEvent]] = ({}, {})
        self.done = rule.done
        self.kontra_rules = (bonuses, game)  # indexed by whether the item doubled is the game

    def kontra_step(self, seat: int, item: str, level: int) -> tuple[FrozenEvent, bool]:
        """The event of `seat`'s kontra bringing `item` to `level`, and whether the item is then
        doubled as often as allowed (made once)."""
        rule = self.kontra_rules[item == GAME]
        last = rule is None or (rule.max is not None and level >= rule.max)
        title = rule.titles[level - 1] if rule is not None and len(rule.titles) >= level else f"kontra ×{2**level}"
        event = FrozenEvent(type="kontra", seat=seat, item=item, level=level, title=title)
        found = self.kontra_steps[seat, item, level] = (event, last)
        return found

    def announce_event(self, seat: int, name: str) -> FrozenEvent:
        """The event of `seat`'s announcement of `name` (made once)."""
        event = FrozenEvent(type="announce", seat=seat, announcement=name, cards=FrozenList())
        self.said_events[seat, name] = event
        return event

    def done_event(self, seat: int, chain: bool) -> FrozenEvent:
        """The event of `seat`'s done call, ending its turn of the round or, where `chain`, a
        chain of answers to a kontra (made once)."""
        phase = "kontra" if chain else "announcing"
        event = self.done_events[chain][seat] = FrozenEvent(type="call", seat=seat, call=self.done, phase=phase)
        return event


def round_tables(ruleset: Ruleset, contract: Contract) -> RoundTables:
    """The tables of a round of announcements in `contract`, made once per ruleset and contract."""
    key = ("round_tables", contract.name)
    tables: RoundTables | None = ruleset.derived.get(key)
    if tables is None:
        tables = ruleset.derived[key] = RoundTables(ruleset, contract)
    return tables


class AnnouncementRound(Round):
    # The attributes read at every action have slots of their own: the rest stay in the
    # instance's __dict__, below the 30 a Python 3.11 instance keeps in its fastest form.
    __slots__ = (
        "_doubler",
        "_eligible",
        "_kontras",
        "_kontras_of",
        "_may_announce",
        "_next",
        "_open",
        "_sides",
        "_tables",
        "_unannounced",
        "answering",
        "quiet",
        "rule",
        "said",
    )

    def __init__(
        self,
        ruleset: Ruleset,
        contract: Contract,
        declarer: int,
        partner: int | None,
        seats: list[int],
        table: Table,
        vorhand: int,
        seat_facts: Callable[[int], Mapping[str, bool]] | None = None,
        card_called: bool = False,
    ):
        rule = ruleset.announcing
        assert rule is not None
        self.ruleset, self.contract, self.rule = ruleset, contract, rule
        self._tables = tables = round_tables(ruleset, contract)
        first = declarer if rule.start == "declarer" else vorhand
        at = seats.index(first)
        super().__init__(table, seats[at:] + seats[:at])
        self.declarer, self.partner, self.hands = declarer, partner, table.cards.hands
        self.quiet = 0  # turns in a row that said nothing
        self.said = False  # the seat to speak has said something this turn
        # What the auction says of a seat (who bid), asked only where a rule of who may double reads it.
        self.seat_facts = seat_facts
        self.card_called = card_called  # a card was called for a partner (named or not)
        # Where a condition of announcing reads the hand, what `RoundTables.eligible` keeps for
        # every deal is kept for this one (by `_key`, which then names the seat).
        self._eligible: dict[tuple[object, ...], list[bool]] = {}
        # For each of those bonuses, whether it is still to be announced.
        self._unannounced = [True] * len(tables.candidates)
        # The announcements each seat may make now (of `_eligible_for` those not announced yet),
        # looked up at every offer: dropped when they may change (something is announced, the
        # seat's side becomes known, the seat has spoken where a condition reads that), and
        # found again when asked.
        self._may_announce: dict[int, list[FrozenAction]] = {}
        # Whether a seat may double the game and the bonuses: as `_eligible`, for who may double.
        self._may: dict[tuple[object, ...], tuple[bool, bool]] = {}
        # The items (the game, announced bonuses) that may still be doubled -> the side that
        # doubles each next: the owner's opponents first, then the owner, and so on (kept as
        # kontras are said, not worked out from the levels).
        self._doubler: dict[str, str] = {}
        # The kontras of the items that could be doubled, in the order the items came (the
        # game, then the bonuses as announced), which is the order they are offered in, and
        # for each side whether it doubles each next (an offer picks them with `compress`,
        # rather than a loop over the items at every action).
        self._open: list[FrozenAction] = []
        self._at: dict[str, int] = {}  # item -> where its kontra is in _open
        self._next: dict[str, list[bool]] = {"declarer": [], "defenders": []}
        # Those kontras of `_open` each side doubles next, looked up at every offer: dropped
        # when an item is doubled or announced, and picked again when asked.
        self._kontras_of: dict[str, list[FrozenAction]] = {}
        # Answered at once: the item whose doubling is being answered (None: the round's turn).
        self.answering: str | None = None
        # With no fixed limit (`max: none`) each seat doubles an item at most once: (item, seat)
        # for each double said, read only where some item has no fixed limit.
        self._doubled: set[tuple[str, int]] = set()
        self._kontras = tables.kontras
        self._sides = {s: self.side_of(s) for s in seats}  # each seat's side, looked up at every action
        if tables.game_doubled:
            self._doublable_by(GAME, "defenders")

    # -- sides ---------------------------------------------------------------------------------
    def side_of(self, seat: int) -> str:
        return "declarer" if seat == self.declarer or seat == self.partner else "defenders"

    def _seat_env(self, seat: int, hand: bool = True) -> dict[str, Any]:
        """What a condition of who may announce reads of `seat` (names.SEAT), its hand only
        where asked for."""
        env: dict[str, Any] = {
            "is_declarer": seat == self.declarer,
            "is_partner": seat == self.partner,
            "revealed": seat in self.revealed or self.partner_revealed,
            "spoken": seat in self.spoken,
            "card_called": self.card_called,
        }
        if hand:
            env["hand"] = frozenset(self.hands[seat])
        return env

    def _kontra_env(self, seat: int, hand: bool = True) -> dict[str, Any]:
        """What a condition of who may double reads of `seat` (names.KONTRA): with what the
        auction says of it."""
        env = self._seat_env(seat, hand)
        facts = self.seat_facts(seat) if self.seat_facts is not None else {}
        env["made_bid"] = facts.get("made_bid", False)
        env["bid_before_turn"] = facts.get("bid_before_turn", False)
        return env

    def _key(self, seat: int, env: dict[str, Any], reads: Reads) -> tuple[object, object]:
        """What the answer of conditions reading `reads` for `seat` depends on: its side and the
        facts read, or the seat itself and the facts where they read its hand (which is the
        seat's alone, in this deal alone)."""
        return (seat if reads.hand else self._sides[seat], reads.facts(env))

    @staticmethod
    def _may_double(env: dict[str, Any], rule: KontraRule | None) -> bool:
        return rule is None or rule.eligible is None or bool(rule.eligible(env))

    # -- what may be said ------------------------------------------------------------------------
    def _eligible_for(self, seat: int) -> list[bool]:
        """For each bonus of `RoundTables.candidates`, whether `seat` may announce it at all,
        announced or not (read only). That depends only on the seat's side and the facts of it
        that the conditions read (`RoundTables.announce_reads`, and its hand where one reads
        it): worked out once for each, and kept for every deal where the hand is not read."""
        tables = self._tables
        reads = tables.announce_reads
        env = self._seat_env(seat, False)
        known = self._eligible if reads.hand else tables.eligible
        key = self._key(seat, env, reads)
        eligible = known.get(key)
        if eligible is None:
            env["hand"] = frozenset(self.hands[seat])
            names = set(self._eligible_now(seat, env))
            eligible = known[key] = [name in names for name, _, _ in tables.candidates]
        return eligible

    def _open_to(self, seat: int) -> tuple[list[FrozenAction], list[FrozenAction]]:
        """The announcements `seat` may make now, in the order of the ruleset's bonuses, and the
        kontras it may say: of the game, then of the announced bonuses in order, those its side
        doubles next, where the rule lets the seat double them (read only). Both are kept from
        one offer to the next until something changes them: the round asks at every action."""
        tables = self._tables
        announce = self._may_announce.get(seat)
        if announce is None:
            eligible = self._eligible_for(seat)
            announce = self._may_announce[seat] = [
                *compress(tables.candidate_actions, map(and_, eligible, self._unannounced))
            ]
        side = self._sides[seat]
        kontras = self._kontras_of.get(side)
        if kontras is None:
            kontras = self._kontras_of[side] = [*compress(self._open, self._next[side])]
        if tables.kontras_free or (tables.anyone_doubles and not self._doubled):
            return announce, kontras
        doubled = self._doubled
        may_game, may_bonus = self._may_now(seat)
        return announce, [
            kontra
            for kontra in kontras
            if (may_game if kontra["kontra"] == GAME else may_bonus) and (kontra["kontra"], seat) not in doubled
        ]

    def _announceable(self, seat: int) -> list[str]:
        """The bonuses `seat` may announce now."""
        return [action["announce"] for action in self._open_to(seat)[0]]

    def _eligible_now(self, seat: int, env: dict[str, Any]) -> list[str]:
        if self.rule.may_announce is not None and not self.rule.may_announce(env):
            return []
        tables = self._tables
        if tables.unconditional is not None:
            return tables.unconditional
        side = self.side_of(seat)
        return [
            name
            for name, requires, whose in tables.candidates
            if (whose == "either" or whose == side) and (requires is None or requires(env))
        ]

    def _doublable_by(self, item: str, side: str | None) -> None:
        """`item` is doubled next by `side` (None: by neither; it has been doubled as often as
        allowed, or the chain of its doubling ended). An item new to the round comes last."""
        nxt = self._next
        self._kontras_of.clear()
        at = self._at.get(item)
        if at is None:
            at = self._at[item] = len(self._open)
            self._open.append(self._kontras[item])
            nxt["declarer"].append(False)
            nxt["defenders"].append(False)
        if side is None:
            del self._doubler[item]
        else:
            self._doubler[item] = side
        nxt["declarer"][at] = side == "declarer"
        nxt["defenders"][at] = side == "defenders"

    def _may_now(self, seat: int) -> tuple[bool, bool]:
        """Whether the rules let `seat` double the game, and the bonuses (the same for each)."""
        tables = self._tables
        if tables.anyone_doubles:
            return True, True
        reads = tables.kontra_reads
        env = self._kontra_env(seat, False)
        known = self._may if reads.hand else tables.may
        key = self._key(seat, env, reads)
        may = known.get(key)
        if may is None:
            env["hand"] = frozenset(self.hands[seat])
            game, bonuses = self.ruleset.kontra_game, self.ruleset.kontra_bonuses
            may = known[key] = (self._may_double(env, game), self._may_double(env, bonuses))
        return may

    def _doublable(self, seat: int) -> list[str]:
        """The items `seat` may double now."""
        return [kontra["kontra"] for kontra in self._open_to(seat)[1]]

    def _must_announce(self, seat: int) -> tuple[str, ...]:
        """The bonuses of which the declarer must announce one before ending the first turn."""
        rule = self.contract.must_announce
        if rule is None or seat != self.declarer or seat in self.spoken:
            return ()
        if any(self.announced.get(name) == "declarer" for name in rule.one_of):
            return ()
        return rule.one_of

    # -- as a stage of the deal ----------------------------------------------------------------
    def offer(self, seat: int) -> list[ActionJson]:
        """The actions of the seat to act (none for another), while the round lasts: a new list
        of the ruleset's read-only actions, which the game keeps for the turn (asked once a turn,
        it is not kept here as well)."""
        if seat != self.to_act:
            return []
        # (worked out here rather than in a method of its own: a call less at every action)
        if self.answering is not None:
            return [self.rule.done, self._kontras[self.answering]]  # double again, or no
        if self.contract.must_announce is not None and (must := self._must_announce(seat)):
            actions = self._tables.announcements
            return [actions[name] for name in self._announceable(seat) if name in must]
        announce, kontras = self._open_to(seat)
        return [self.rule.done, *announce, *kontras]

    def canonical(self, seat: int, parsed: Action) -> ActionJson | None:
        """The offered action `parsed` is: the done call, {announce: NAME} (its cards none), {kontra: ITEM}."""
        offer = self.offer(seat)
        if isinstance(parsed, Call):
            found: ActionJson | None = parsed.name
        elif isinstance(parsed, Announce):
            found = None if parsed.cards else self._tables.announcements.get(parsed.name)
        elif isinstance(parsed, Kontra):
            found = self._kontras[parsed.item]
        else:
            return None
        return found if found is not None and found in offer else None

    def take(self, seat: int, action: ActionJson) -> bool:
        """Do an offered announcement, kontra or done call: written down, reported, and the turn
        moves on after the done call. Returns whether the round is over."""
        history = self.table.history
        if type(action) is str:
            if self.answering is not None:
                self._end_chain(seat)
            else:
                self._end_turn(seat)
            history.append((seat, action))
        elif "kontra" in action:
            item = action["kontra"]  # type: ignore[index]
            self._kontra(seat, item)
            history.append((seat, self._kontras[item]))
        else:
            name = action["announce"]  # type: ignore[index]
            self._announce(seat, name)
            # (a new entry: a record's writer takes its cards for a plain list)
            history.append((seat, {"announce": name, "cards": []}))
        if self.partner_revealed:
            self.table.partner_public = True
        return self.done

    def refusal(self, seat: int, parsed: Action) -> str:
        """Why `parsed` is not an action of the seat to act now."""
        if self.answering is not None:
            item = self.answering
            return (
                f"answer the doubling of {item}: double it again ({{kontra: {item}}}) or say {self.rule.done}, "
                f"not {parsed.describe()}"
            )
        must = self._must_announce(seat)
        if isinstance(parsed, Call) and parsed.name == self.rule.done:
            return f"{self.contract.title}: first announce one of {', '.join(must)}"
        if isinstance(parsed, Announce):
            if parsed.cards:
                return f"{parsed.name} is announced without cards"
            return self._refuse_announce(seat, parsed.name, self._announceable(seat), must)
        if isinstance(parsed, Kontra):
            if must:
                return f"first announce one of {', '.join(must)}"
            return self._refuse_kontra(seat, parsed.item, self._doublable(seat))
        return f"it is time to announce, double ({{kontra: ITEM}}) or say {self.rule.done}, not {parsed.describe()}"

    def _announce(self, seat: int, name: str) -> None:
        """An allowed announcement of the bonus `name`."""
        side = self.announced[name] = self._sides[seat]
        self.announced_by[name] = seat
        self._unannounced[self._tables.candidate_at[name]] = False
        action = self._tables.announcements[name]
        for announce in self._may_announce.values():  # (which hold actions of their own)
            if action in announce:
                announce.remove(action)
        if self._tables.bonuses_doubled:
            self._doublable_by(name, OTHER_SIDE[side])
        self.said = True
        if seat not in self.revealed:
            self._reveal(seat)
        tables = self._tables
        event = tables.said_events.get((seat, name))
        self.table.events.append(event if event is not None else tables.announce_event(seat, name))

    def _kontra(self, seat: int, item: str) -> None:
        """An allowed doubling of `item` (the game or an announced bonus)."""
        levels, tables = self.levels, self._tables
        level = levels[item] = levels.get(item, 0) + 1
        self.said = True
        if seat not in self.revealed:
            self._reveal(seat)
        if tables.once_each:
            self._doubled.add((item, seat))
        known = tables.kontra_steps.get((seat, item, level))
        event, last = known if known is not None else tables.kontra_step(seat, item, level)
        # (None: doubled as often as allowed)
        self._doublable_by(item, None if last else OTHER_SIDE[self._doubler[item]])
        self.table.events.append(event)
        if tables.at_once:
            self._answer(seat, item)

    def _answer(self, doubler: int, item: str) -> None:
        """Answered at once: the turn goes to the first seat after `doubler` of the side that
        doubles `item` next and may do so; with none (or the item doubled as often as allowed),
        back to the seat whose turn of the round it is."""
        answerer = None
        side = self._doubler.get(item)
        if side is not None:
            order, at = self.order, self.order.index(doubler)
            for step in range(1, len(order)):
                seat = order[(at + step) % len(order)]
                if self._sides[seat] == side and item in self._doublable(seat):
                    answerer = seat
                    break
        self.answering = None if answerer is None else item
        self.to_act = self.order[self.turn] if answerer is None else answerer

    def _end_chain(self, seat: int) -> None:
        """The answer no: the chain ends, the item may not be doubled again, and the turn is back
        with the seat whose turn of the round it is."""
        item = self.answering
        assert item is not None
        event = self._tables.done_events[1].get(seat)
        self.table.events.append(event if event is not None else self._tables.done_event(seat, True))
        self._doublable_by(item, None)
        self.answering = None
        self.to_act = self.order[self.turn]

    def _refuse_announce(self, seat: int, name: str, legal: list[str], must: tuple[str, ...]) -> str:
        if name not in self.ruleset.bonuses or self.ruleset.bonuses[name].announced is None:
            return f"{name} cannot be announced; you may announce: {', '.join(legal) or 'nothing'}"
        if must:
            return f"{self.contract.title}: first announce one of {', '.join(must)}"
        if name in self.announced:
            return f"{name} has already been announced"
        if self.contract.bonuses is not None and name not in self.contract.bonuses:
            return f"{name} does not count in {self.contract.title}"
        whose = self.ruleset.bonuses[name].whose
        if whose != "either" and whose != self.side_of(seat):
            owner = "the declarer's side" if whose == "declarer" else "the declarer's opponents"
            return f"{name} is a bonus of {owner} only; you may announce: {', '.join(legal) or 'nothing'}"
        env = self._seat_env(seat)
        if self.rule.may_announce is not None and not self.rule.may_announce(env):
            return f"you may not announce yet ({self.rule.may_announce.source}): your side is not known"
        requires = self.ruleset.bonuses[name].requires
        if requires is not None and not requires(env):
            return (
                f"you may not announce {name} here (it needs `{requires.source}`); "
                f"you may announce: {', '.join(legal) or 'nothing'}"
            )
        return f"you may not announce {name}; you may announce: {', '.join(legal) or 'nothing'}"

    def _refuse_kontra(self, seat: int, item: str, items: list[str]) -> str:
        if item != GAME and item not in self.announced:
            return f"{item} has not been announced, so it cannot be doubled; you may double: {', '.join(items) or 'nothing'}"
        rule = self.ruleset.kontra_game if item == GAME else self.ruleset.kontra_bonuses
        if rule is None:
            return f"{item} cannot be doubled here"
        if rule.max is not None and self.levels.get(item, 0) >= rule.max:
            return f"{item} has been doubled {rule.max} times, the most allowed"
        if rule.max is None and (item, seat) in self._doubled:
            return f"you have doubled {item} once already, and each player doubles it at most once"
        if not self._may_double(self._kontra_env(seat), rule) and rule.eligible is not None:
            return f"you may not double ({rule.eligible.source}); you may double: {', '.join(items) or 'nothing'}"
        return f"the other side doubles {item} next; you may double: {', '.join(items) or 'nothing'}"

    def _reveal(self, seat: int) -> None:
        """`seat` has said something: its side is public."""
        self.revealed.add(seat)
        if seat == self.partner:
            self.partner_revealed = True
            self._may_announce.clear()  # every seat's side is known now
        else:
            self._may_announce.pop(seat, None)

    def _end_turn(self, seat: int) -> None:
        event = self._tables.done_events[0].get(seat)
        self.table.events.append(event if event is not None else self._tables.done_event(seat, False))
        spoken, order = self.spoken, self.order
        spoken.add(seat)
        if self._tables.reads_spoken:
            self._may_announce.pop(seat, None)
        quiet = self.quiet = 0 if self.said else self.quiet + 1
        self.said = False
        if quiet >= len(order) - 1 and len(spoken) == len(order):
            self.done = True
            self.to_act = None
            return
        turn = self.turn = (self.turn + 1) % len(order)
        self.to_act = order[turn]


class Reads(NamedTuple):
    """What some conditions read of a seat: `facts` gives the values of those of `SEAT_FACTS`
    they read from the seat's facts; `hand`, whether they read its hand too."""

    facts: Callable[[Mapping[str, Any]], object]
    hand: bool


def _reads(conditions: Iterable[Condition | None]) -> Reads:
    """What `conditions` read of a seat."""
    read = set().union(*(c.names for c in conditions if c is not None))
    facts = [name for name in SEAT_FACTS if name in read]
    return Reads(itemgetter(*facts) if facts else _no_facts, "hand" in read)


def _no_facts(env: Mapping[str, Any]) -> object:
    return None


def _doubles(rule: KontraRule | None) -> bool:
    """Whether the rule lets its items be doubled at all (`max: 0` does not)."""
    return rule is not None and (rule.max is None or rule.max > 0)


def kontra_actions(ruleset: Ruleset) -> dict[str, FrozenAction]:
    """{kontra: ITEM} for the game and every bonus of the ruleset, made once per ruleset."""
    actions: dict[str, FrozenAction] | None = ruleset.derived.get("kontra_actions")
    if actions is None:
        actions = ruleset.derived["kontra_actions"] = {
            item: FrozenAction(kontra=item) for item in (GAME, *ruleset.bonuses)
        }
    return actions


class DoublingRound(Round):
    """Everyone for themselves (Räuber): each seat of `order` in turn, once, doubles the game
    ({kontra: game}, which ends the turn) or says the done call. Nothing is announced; the
    outcome reads as a round of announcements' does (`game_kontra`)."""

    def __init__(self, rule: Doubling, order: list[int], done: str, kontra: FrozenAction, table: Table):
        super().__init__(table, order)
        self.doubling, self.done_call = rule, done
        self._offered: list[ActionJson] = [done, kontra]

    def offer(self, seat: int) -> list[ActionJson]:
        return self._offered if seat == self.to_act else []

    def canonical(self, seat: int, parsed: Action) -> ActionJson | None:
        if seat != self.to_act:
            return None
        if isinstance(parsed, Kontra) and parsed.item == GAME:
            return self._offered[1]
        if isinstance(parsed, Call) and parsed.name == self.done_call:
            return self.done_call
        return None

    def refusal(self, seat: int, parsed: Action) -> str:
        return f"double the game ({{kontra: game}}) or say {self.done_call}, not {parsed.describe()}"

    def take(self, seat: int, action: ActionJson) -> bool:
        if type(action) is str:
            self.emit(type="call", seat=seat, call=self.done_call, phase="doubling")
        else:
            level = self.levels[GAME] = self.levels.get(GAME, 0) + 1
            self.emit(type="kontra", seat=seat, item=GAME, level=level, title=self.doubling.title)
        self.table.history.append((seat, action))
        self.spoken.add(seat)
        self.turn += 1
        self.done = self.turn >= len(self.order)
        self.to_act = None if self.done else self.order[self.turn]
        return self.done
