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

from collections.abc import Mapping
from itertools import filterfalse
from typing import Any

from interpreter.engine.actions import Action, ActionJson, Announce, Call, FrozenAction, Kontra, announce_actions
from interpreter.engine.table import Table
from interpreter.language.model import Contract, Declaration, Doubling, KontraRule, Ruleset

GAME = "game"


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


class AnnouncementRound(Round):
    # The attributes read at every action have slots of their own: the rest stay in the
    # instance's __dict__, below the 30 a Python 3.11 instance keeps in its fastest form.
    __slots__ = (
        "_at_once",
        "_by_side",
        "_doubler",
        "_duty",
        "_eligible",
        "_kontras",
        "_offer_announce",
        "_offer_kontra",
        "_offered",
        "_once_each",
        "_sides",
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
        seat_facts: Mapping[int, Mapping[str, bool]] | None = None,
        card_called: bool = False,
    ):
        rule = ruleset.announcing
        assert rule is not None
        self.ruleset, self.contract, self.rule = ruleset, contract, rule
        first = declarer if rule.start == "declarer" else vorhand
        at = seats.index(first)
        super().__init__(table, seats[at:] + seats[:at])
        self.declarer, self.partner, self.hands = declarer, partner, table.cards.hands
        self.quiet = 0  # turns in a row that said nothing
        self.said = False  # the seat to speak has said something this turn
        self._offered: list[ActionJson] | None = None  # the offer to the seat to act, until something changes
        self.seat_facts = seat_facts or {}  # what the auction says of each seat (who bid)
        self.card_called = card_called  # a card was called for a partner (named or not)
        # What the seat to act may announce and double, until something is said or its turn
        # ends (asked by the player, then again to check what was said); None: not worked out.
        self._offer_announce: list[str] | None = None
        self._offer_kontra: list[str] | None = None
        # (seat, its side known, it has spoken) -> the bonuses it may announce at all
        self._eligible: dict[tuple[int, bool, bool], list[str]] = {}
        # Whether a seat may double the game and the bonuses: read from _seat_env like the above.
        self._may: dict[tuple[int, bool, bool], tuple[bool, bool]] = {}
        # The items (the game, announced bonuses) that may still be doubled -> the side that
        # doubles each next: the owner's opponents first, then the owner, and so on (kept as
        # kontras are said, not worked out from the levels); and for each side its items in
        # that order (the game, then the bonuses as announced), remade when those change.
        self._doubler: dict[str, str] = {}
        # Answered at once: the item whose doubling is being answered (None: the round's turn).
        self._at_once = ruleset.kontra_answer == "at_once"
        self.answering: str | None = None
        # With no fixed limit (`max: none`) each seat doubles an item at most once: (item, seat)
        # for each double said, read only where some item has no fixed limit.
        self._once_each = any(
            rule is not None and rule.max is None for rule in (ruleset.kontra_game, ruleset.kontra_bonuses)
        )
        self._doubled: set[tuple[str, int]] = set()
        if _doubles(ruleset.kontra_game):
            self._doubler[GAME] = "defenders"
        self._by_side: dict[str, list[str]] = {}
        self._sort_doublers()
        self._sides = {s: self.side_of(s) for s in seats}  # each seat's side, looked up at every action
        # Nobody is barred from doubling (no rule says who may): no seat's facts to judge.
        self._anyone_doubles = all(
            rule is None or rule.eligible is None for rule in (ruleset.kontra_game, ruleset.kontra_bonuses)
        )
        self._kontras = kontra_actions(ruleset)
        self._announcements = announce_actions(ruleset)
        # The bonuses a seat may ever announce in this contract, each with its own condition
        # (None: none): the rest of what _eligible_now asks depends on the seat.
        allowed = contract.bonuses
        self._candidates = [
            (name, bonus.requires, bonus.whose)
            for name, bonus in ruleset.bonuses.items()
            if bonus.announced is not None and (allowed is None or name in allowed)
        ]
        # Without conditions of their own and for either side, what a seat may announce is these
        # or nothing.
        free = [name for name, requires, whose in self._candidates if requires is None and whose == "either"]
        self._unconditional = free if len(free) == len(self._candidates) else None
        # Most contracts oblige nobody to announce: no duty to look up at every action.
        self._duty = contract.must_announce is not None

    # -- sides ---------------------------------------------------------------------------------
    def side_of(self, seat: int) -> str:
        return "declarer" if seat == self.declarer or seat == self.partner else "defenders"

    def _seat_env(self, seat: int) -> dict[str, Any]:
        return {
            "hand": frozenset(self.hands[seat]),
            "is_declarer": seat == self.declarer,
            "is_partner": seat == self.partner,
            "revealed": seat in self.revealed or self.partner_revealed,
            "spoken": seat in self.spoken,
            "card_called": self.card_called,
        }

    def _may_double(self, seat: int, rule: KontraRule | None) -> bool:
        if rule is None or rule.eligible is None:
            return True
        facts = self.seat_facts.get(seat, {})
        env = {
            **self._seat_env(seat),
            "made_bid": facts.get("made_bid", False),
            "bid_before_turn": facts.get("bid_before_turn", False),
        }
        return bool(rule.eligible(env))

    # -- what may be said ------------------------------------------------------------------------
    def _announceable(self, seat: int) -> list[str]:
        if seat != self.to_act:
            return self._announceable_now(seat)
        offer = self._offer_announce
        if offer is None:
            offer = self._offer_announce = self._announceable_now(seat)
        return offer

    def _announceable_now(self, seat: int) -> list[str]:
        # Whether the seat may announce a bonus at all depends only on what _seat_env holds, which
        # in this round changes only when its side becomes known: worked out once for each.
        key = (seat, seat in self.revealed or self.partner_revealed, seat in self.spoken)
        eligible = self._eligible.get(key)
        if eligible is None:
            eligible = self._eligible[key] = self._eligible_now(seat)
        announced = self.announced
        # Read only (the offer is checked against, never changed): the eligible list itself while
        # nothing is announced.
        return list(filterfalse(announced.__contains__, eligible)) if announced else eligible

    def _eligible_now(self, seat: int) -> list[str]:
        env = self._seat_env(seat)
        if self.rule.may_announce is not None and not self.rule.may_announce(env):
            return []
        if self._unconditional is not None:
            return self._unconditional  # (read only, as every offer)
        side = self.side_of(seat)
        return [
            name
            for name, requires, whose in self._candidates
            if (whose == "either" or whose == side) and (requires is None or requires(env))
        ]

    def _doublable(self, seat: int) -> list[str]:
        if seat != self.to_act:
            return self._doublable_now(seat)
        offer = self._offer_kontra
        if offer is None:
            offer = self._offer_kontra = self._doublable_now(seat)
        return offer

    def _sort_doublers(self) -> None:
        """`_by_side` anew from `_doubler` (new lists: the offers made from the old stay as they were)."""
        by_side: dict[str, list[str]] = {"declarer": [], "defenders": []}
        for item, doubler in self._doubler.items():
            by_side[doubler].append(item)
        self._by_side = by_side

    def _doublable_now(self, seat: int) -> list[str]:
        # The game, then the announced bonuses in order, that may still be doubled and that
        # the seat's side doubles next, by a seat the rule lets double. (Read only.)
        items = self._by_side[self._sides[seat]]
        if self._once_each and self._doubled:
            doubled = self._doubled
            items = [item for item in items if (item, seat) not in doubled]
        if self._anyone_doubles:
            return items
        key = (seat, seat in self.revealed or self.partner_revealed, seat in self.spoken)
        may = self._may.get(key)
        if may is None:
            game, bonuses = self.ruleset.kontra_game, self.ruleset.kontra_bonuses
            # (the bonuses' answer is the same for each)
            may = self._may[key] = (self._may_double(seat, game), self._may_double(seat, bonuses))
        may_game, may_bonus = may
        if may_game and may_bonus:
            return items  # (read only: a kontra makes new lists)
        return [item for item in items if (may_game if item == GAME else may_bonus)]

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
        """The actions of the seat to act (none for another), while the round lasts: the same list
        until something is said or the turn moves on (an announcement and a kontra are the
        ruleset's read-only actions)."""
        if seat != self.to_act:
            return []
        offered = self._offered
        if offered is None:
            offered = self._offered = self._offer_now(seat)
        return offered

    def _offer_now(self, seat: int) -> list[ActionJson]:
        if self.answering is not None:
            return [self.rule.done, self._kontras[self.answering]]  # double again, or no
        announce = self._announcements
        must = self._must_announce(seat) if self._duty else ()
        if must:
            return [announce[name] for name in self._announceable(seat) if name in must]
        announceable = self._offer_announce = self._announceable_now(seat)
        doublable = self._offer_kontra = self._doublable_now(seat)
        kontras = self._kontras
        legal: list[ActionJson] = [self.rule.done]  # (loops, not comprehensions: no function made per offer)
        for name in announceable:
            legal.append(announce[name])
        for item in doublable:
            legal.append(kontras[item])
        return legal

    def canonical(self, seat: int, parsed: Action) -> ActionJson | None:
        """The offered action `parsed` is: the done call, {announce: NAME} (its cards none), {kontra: ITEM}."""
        offer = self.offer(seat)
        if isinstance(parsed, Call):
            found: ActionJson | None = parsed.name
        elif isinstance(parsed, Announce):
            found = None if parsed.cards else self._announcements.get(parsed.name)
        elif isinstance(parsed, Kontra):
            found = self._kontras[parsed.item]
        else:
            return None
        return found if found is not None and found in offer else None

    def take(self, seat: int, action: ActionJson) -> bool:
        """Do an offered announcement, kontra or done call: written down, reported, and the turn
        moves on after the done call. Returns whether the round is over."""
        history = self.table.history
        if self.answering is not None and type(action) is str:
            self._end_chain(seat)
            history.append((seat, action))
        elif type(action) is str:
            self._end_turn(seat)
            history.append((seat, action))
        elif "kontra" in action:
            item = action["kontra"]  # type: ignore[index]
            self._kontra(seat, item)
            history.append((seat, self._kontras[item]))
        else:
            name = action["announce"]  # type: ignore[index]
            self._announce(seat, name)
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
        must = self._must_announce(seat) if self._duty else ()
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
        if _doubles(self.ruleset.kontra_bonuses):
            self._doubler[name] = doubler = "defenders" if side == "declarer" else "declarer"
            self._by_side[doubler] = [*self._by_side[doubler], name]  # (a new list: offers are read only)
        self._said(seat)
        self.table.events.append({"type": "announce", "seat": seat, "announcement": name, "cards": []})

    def _kontra(self, seat: int, item: str) -> None:
        """An allowed doubling of `item` (the game or an announced bonus)."""
        level = self.levels[item] = self.levels.get(item, 0) + 1
        self._said(seat)
        rule = self.ruleset.kontra_game if item == GAME else self.ruleset.kontra_bonuses
        if self._once_each:
            self._doubled.add((item, seat))
        if rule is None or (rule.max is not None and level >= rule.max):
            del self._doubler[item]  # doubled as often as allowed
        else:
            self._doubler[item] = "defenders" if self._doubler[item] == "declarer" else "declarer"
        self._sort_doublers()
        title = rule.titles[level - 1] if rule is not None and len(rule.titles) >= level else f"kontra ×{2**level}"
        self.table.events.append({"type": "kontra", "seat": seat, "item": item, "level": level, "title": title})
        if self._at_once:
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
                if self._sides[seat] == side and item in self._doublable_now(seat):
                    answerer = seat
                    break
        self.answering = None if answerer is None else item
        self.to_act = self.order[self.turn] if answerer is None else answerer

    def _end_chain(self, seat: int) -> None:
        """The answer no: the chain ends, the item may not be doubled again, and the turn is back
        with the seat whose turn of the round it is."""
        item = self.answering
        assert item is not None
        self._offer_announce = self._offer_kontra = self._offered = None
        self.table.events.append({"type": "call", "seat": seat, "call": self.rule.done, "phase": "kontra"})
        del self._doubler[item]
        self._sort_doublers()
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
        if not self._may_double(seat, rule) and rule.eligible is not None:
            return f"you may not double ({rule.eligible.source}); you may double: {', '.join(items) or 'nothing'}"
        return f"the other side doubles {item} next; you may double: {', '.join(items) or 'nothing'}"

    def _said(self, seat: int) -> None:
        self._offer_announce = self._offer_kontra = self._offered = None
        self.said = True
        self.revealed.add(seat)
        if seat == self.partner:
            self.partner_revealed = True

    def _end_turn(self, seat: int) -> None:
        self._offer_announce = self._offer_kontra = self._offered = None
        self.table.events.append({"type": "call", "seat": seat, "call": self.rule.done, "phase": "announcing"})
        self.spoken.add(seat)
        self.quiet = 0 if self.said else self.quiet + 1
        self.said = False
        if len(self.spoken) == len(self.order) and self.quiet >= len(self.order) - 1:
            self.done = True
            self.to_act = None
            return
        self.turn = (self.turn + 1) % len(self.order)
        self.to_act = self.order[self.turn]


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
