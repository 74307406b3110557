"""The trick-play stage: the tricks, whose turn it is, and the cards a turn allows by the plan's rules.

A turn's cards are what following suit and trumping allow (the base tables), as the rules in
scope for that seat's turn change them (engine/playrules.py: the schedule of the first tricks,
must beat, cards kept back, the withheld Gstieß, ...). TrickPlay keeps the rules in scope for
each seat (`scoped`), worked out at the start of the tricks where a rule's scope may change (at
every trick's start for a rule that says no better, until it says it is spent), when a rule's own
step changes it, and again for a seat that plays a card a rule watches. A seat with none in scope takes the base tables' steps alone, and a trick with no
rule judging it is won by the strengths table: the quick way is what the rules give when none
applies, not a second path beside them.

The stage offers the legal plays of the seat to act (`offer`, the shared read-only actions, worked
out once a turn), takes one of them (`take`), and says why a card is refused (`refusal`: the rule
that removed it says why).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from interpreter.engine.actions import Action, ActionJson, FrozenAction, PlayCard, PlayStep
from interpreter.engine.playrules import EndsEarly, PlayRule, RuleBook, Turn
from interpreter.engine.table import Table
from interpreter.engine.tricks import TrickRules
from interpreter.language.model import TRUMP, Deck, OpeningLeads


@dataclass(eq=False, slots=True, init=False)  # compared by identity: `tricks.index(trick)` must not compare fields
class Trick:
    leader: int
    seats: list[int]
    cards: list[str]
    winner: int | None

    def __init__(self, leader: int, seats: list[int] | None = None, cards: list[str] | None = None):
        # (written out: made at every trick, and a dataclass's own __init__ tests its default factories)
        self.leader = leader
        self.seats = seats if seats is not None else []
        self.cards = cards if cards is not None else []
        self.winner = None

    @property
    def won_by(self) -> int:
        """The winner of a complete trick."""
        assert self.winner is not None, "the trick is not complete"
        return self.winner


class TrickPlay:
    read_only_offer = True  # the shared read-only actions
    # The card excused from following, which takes no part in its trick (`play.excuse`): set by
    # its rule when play starts (engine/excuse.py), so that a deal without it reads this default.
    excused: frozenset[str] = frozenset()
    # What a deal without exposed cards, or before they matter, reads (set where they differ).
    ended: EndsEarly | None = None  # the rule that ended play before the last trick
    exposed: frozenset[str] = frozenset()  # the cards exposed in the exchange (they never win)
    exposed_live = False  # an exposed card is yet to be played, or lies in an open trick
    exposed_out = False  # an exposed card lies in an open trick
    n_opening = 0  # the opening leads the exposed cards make
    suit_order: tuple[str, ...] = ()  # (OpeningLeads' order of suits)
    played_in_open = 0  # cards played to the tricks played together
    _env: tuple[tuple[int, int, int], dict[str, object]] | None = None  # (duty_env's, kept for the turn)

    # The attributes read at every card have slots of their own, so that however many others
    # trick play gains they stay quick (Python 3.11 keeps at most 30 in an instance's fastest form).
    __slots__ = (
        "__dict__",
        "duties",
        "events",
        "follow",
        "hands",
        "history",
        "judges",
        "n_seats",
        "number",
        "orders",
        "over",
        "plays",
        "rules",
        "scoped",
        "steps",
        "strengths",
        "to_act",
        "together",
        "trick",
        "tricks",
    )

    def __init__(
        self,
        tables: TrickRules,
        book: RuleBook,
        deck: Deck,
        table: Table,
        seats: list[int],
        declarer: int | None,
        leader: int,
        n_tricks: int,
        plays: Mapping[str, FrozenAction],
        steps: list[dict[str, PlayStep]],
        opening: OpeningLeads | None = None,
        team: tuple[int, ...] = (),
    ):
        self.tables, self.deck, self.table = tables, deck, table
        self.seats, self.declarer, self.n_tricks = seats, declarer, n_tricks
        self.team = team  # the declarer's side (the declarer, and the partner if any)
        cards = table.cards
        self.hands = cards.hands
        self.events, self.history = table.events, table.history
        self.plays, self.steps = plays, steps
        self.duties, self.strengths, self.follow = tables.duties, tables.strengths, tables.follow
        self.n_seats = len(seats)
        self.orders = tables.orders(seats)
        self.withheld: dict[int, str] = {}  # seat -> the card it withheld (now powerless)
        self.trick = trick = Trick(leader, [], [])
        self.tricks: list[Trick] = [trick]
        self.together = 1  # the tricks played at once (the opening leads of exposed cards may be)
        self.to_act: int | None = leader
        self.number = 1
        self.over = False
        # The rules, and the parts of them each step reads.
        self.book, self.rules = book, book.rules
        self.turn_rules, self.judging, self.ending = book.turns, book.judging, book.ending
        self.leading, self.watched = book.leading, book.watched
        rescoping = book.rescoping_of(n_tricks)
        self.rescoped_at = rescoping.at  # (None: every trick's, until `unsettled` are spent)
        self.unsettled = rescoping.unsettled
        self.rescoping = rescoping.at is None or bool(rescoping.at)  # whether a trick's start may rescope
        self.asked = book.asked  # the rules of `turn_rules` not spent, with their bits
        self.scoped: list[Turn | None] = [None] * len(cards.hands)  # by seat: the rules in scope for its turn
        self.judges: tuple[PlayRule, ...] = ()  # the rules judging the trick now being played
        self.pending_leads: list[str] = []
        if cards.exposed:
            self._expose(cards.exposed, opening, leader)
        if self.rules:
            self.rescope()

    def _expose(self, exposed: list[str], opening: OpeningLeads | None, leader: int) -> None:
        """The cards exposed in the exchange (they never win), and the opening leads they make."""
        self.exposed = frozenset(exposed)
        self.exposed_live = True  # an exposed card is yet to be played, or lies in an open trick
        if opening is None:
            return
        self.pending_leads = list(exposed)
        self.n_opening = len(exposed)
        self.suit_order = opening.suit_order
        if opening.together and self.n_opening > 1:
            self.together = self.n_opening
            self.tricks += [Trick(leader, [], []) for _ in range(self.together - 1)]
            self._recount()

    def start(self) -> None:
        """Play starts: the rules' first steps (the open hands shown from the first lead)."""
        for rule in self.book.starting:
            rule.start(self)

    # -- whose turns the rules concern -----------------------------------------------------------
    def rescope(self) -> None:
        """Work out the rules in scope for every seat's turn, and those judging the trick."""
        if self.exposed_live:  # (once all are played and their tricks complete, for good)
            self._exposed_now()
        self._scope(self.seats)
        judges = []  # (a loop, not a generator: no frame made per call)
        for rule in self.judging:
            if rule.judges(self):
                judges.append(rule)
        self.judges = tuple(judges)

    def rescope_seat(self, seat: int) -> None:
        """Work out the rules in scope for `seat`'s turn."""
        self._scope((seat,))

    def _scope(self, seats: Iterable[int]) -> None:
        """Work out the rules in scope for the turns of `seats`: of the rules that concern turns,
        those not spent (`asked`, each with its bit in the book's scopes), those whose `applies`
        says so."""
        book, scoped, asked = self.book, self.scoped, self.asked
        made = book.by_scope
        for seat in seats:
            scope = 0
            for rule, bit in asked:
                if rule.applies(self, seat):
                    scope |= bit
            scoped[seat] = made[scope] if scope in made else book.turn(scope)

    def trick_number(self, number: int) -> int:
        """A trick's number counted from the end where below 0 (-1: the last)."""
        return number if number > 0 else self.n_tricks + 1 + number

    # -- what may be played -----------------------------------------------------------------------
    def offer(self, seat: int) -> list[FrozenAction]:
        """The legal plays of `seat` (none unless it is to act), the shared read-only actions in
        the order of the hand (a new list: the game keeps it for the turn)."""
        if seat is not self.to_act:
            return []
        hand, plays = self.hands[seat], self.plays
        legal: list[FrozenAction] = []  # (loops, not comprehensions: no function made and called per turn)
        turn = self.scoped[seat]
        if turn is None:
            # No rule in scope: the cards following asks for (the suit led, then trumps), else any.
            cards = self.trick.cards
            if cards:
                for asked in self.duties[cards[0]]:
                    for card in hand:
                        if card in asked:
                            legal.append(plays[card])
                    if legal:
                        return legal
            for card in hand:
                legal.append(plays[card])
            return legal
        for card in self._allowed(seat, turn):
            legal.append(plays[card])
        return legal

    def legal(self, seat: int) -> list[str]:
        """The cards `seat` may play now (none unless it is to act)."""
        return [action["play"] for action in self.offer(seat)]

    def usable(self, seat: int) -> list[str]:
        """The cards of `seat`'s hand following may take (all but a withheld card)."""
        turn = self.scoped[seat]
        usable = self.hands[seat]
        for rule in turn.usable if turn is not None else ():
            usable = rule.usable(self, seat, usable)
        return usable

    def _ruled(self, seat: int, turn: Turn) -> list[str]:
        return self._allowed(seat, turn)

    def _allowed(self, seat: int, turn: Turn) -> list[str]:
        """The cards `seat` may play by the rules in scope for its turn (the steps of `_steps`,
        without writing each down)."""
        usable = self.hands[seat]
        for rule in turn.usable:
            usable = rule.usable(self, seat, usable)
        allowed = None
        for rule in turn.decide:
            allowed = rule.decide(self, seat, usable)
            if allowed is not None:
                break
        if allowed is None:
            led = self.trick.cards
            for rule in turn.led:
                led = rule.led(self, seat, led, usable)
            allowed = self.tables.legal(usable, led)
            for rule in turn.follow:
                allowed = rule.allow(self, seat, allowed, usable)
        for rule in turn.narrow:
            allowed = rule.allow(self, seat, allowed, usable)
        return allowed

    def _steps(self, seat: int, turn: Turn, stop: PlayRule | None = None) -> list[tuple[PlayRule | None, list[str]]]:
        """The steps of `seat`'s turn by the rules in scope: (the rule, the cards allowed after
        it), the base tables' step as None, up to `stop` (not taken) if given."""
        usable = self.hands[seat]
        for rule in turn.usable:
            usable = rule.usable(self, seat, usable)
        steps: list[tuple[PlayRule | None, list[str]]] = []
        for rule in turn.decide:
            decided = rule.decide(self, seat, usable)
            if decided is not None:
                steps.append((rule, decided))
                break
        else:
            led = self.trick.cards
            for rule in turn.led:
                led = rule.led(self, seat, led, usable)
            allowed = self.tables.legal(usable, led)
            steps.append((None, allowed))
            for rule in turn.follow:
                if rule is stop:
                    return steps
                allowed = rule.allow(self, seat, allowed, usable)
                steps.append((rule, allowed))
        if stop is not None:
            return steps
        allowed = steps[-1][1]
        for rule in turn.narrow:
            allowed = rule.allow(self, seat, allowed, usable)
            steps.append((rule, allowed))
        return steps

    def duty_before(self, seat: int, rule: PlayRule) -> list[str] | None:
        """The cards following allows `seat` as the rules before `rule` leave them; None when a
        rule decided the duty instead (then following and its rules do not apply)."""
        turn = self.scoped[seat]
        if turn is None:
            return None
        steps = self._steps(seat, turn, stop=rule)
        return None if steps[0][0] is not None else steps[-1][1]

    def canonical(self, seat: int, parsed: Action) -> ActionJson | None:
        """The offered play `parsed` is (the shared action), or None."""
        if not isinstance(parsed, PlayCard):
            return None
        action = self.plays[parsed.card]
        return action if action in self.offer(seat) else None

    def refusal(self, seat: int, parsed: Action) -> str:
        """Why `parsed` is not a card `seat` may play now."""
        if not isinstance(parsed, PlayCard):
            return f"it is time for a card to play (play), not {parsed.describe()}"
        return self.why_not(seat, parsed.card)

    def why_not(self, seat: int, card: str) -> str:
        """Why `seat` may not play `card` now, in the words of the rule that does not allow it."""
        hand = self.hands[seat]
        if card not in hand:
            return f"you do not hold {card} ({self.deck.name_of(card)})"
        turn = self.scoped[seat]
        if turn is None:
            return self.tables.refusal(hand, self.trick.cards, card)
        for base in turn.usable:
            if card not in base.usable(self, seat, hand):
                return base.why(self, seat, card, [], self._ruled(seat, turn))
        steps = self._steps(seat, turn)
        legal = steps[-1][1]
        for step, allowed in steps:
            if card in allowed:
                continue
            if step is not None:
                return step.why(self, seat, card, allowed, legal)
            usable = self.usable(seat)
            led = self.trick.cards
            for base in turn.led:
                led = base.led(self, seat, led, usable)
            return self.tables.refusal(usable, led, card)
        return f"{card} may be played now"  # (not refused: asked of a legal card)

    def strongest_first(self, cards: list[str]) -> str:
        power = self.tables.power
        return ", ".join(sorted(cards, key=lambda c: -power[c]))

    # -- what the rules read ------------------------------------------------------------------------
    def suitless(self, number: int) -> frozenset[str]:
        """Cards that do not fix the suit to follow in trick `number`: a withheld card, the Excuse."""
        return frozenset(self.withheld.values()) | self.excused if self.withheld else self.excused

    def powerless(self) -> frozenset[str]:
        """Cards that never win a trick: withheld, exposed in the exchange, the Excuse."""
        if not self.withheld:
            return self.exposed | self.excused if self.excused else self.exposed
        return frozenset(self.withheld.values()) | self.exposed | self.excused

    def _exposed_now(self) -> None:
        """Where the exposed cards are: whether one lies in a trick now being played
        (`exposed_out`), and whether one is still to be played or lies there (`exposed_live`)."""
        exposed, hands = self.exposed, self.hands
        out = False
        for trick in self.open_tricks():  # (loops, not any() over a generator: no frame made per call)
            if not exposed.isdisjoint(trick.cards):
                out = True
                break
        live = out
        if not out:
            for seat in self.seats:
                if not exposed.isdisjoint(hands[seat]):
                    live = True
                    break
        self.exposed_out, self.exposed_live = out, live

    def duty_env(self, seat: int) -> dict[str, object]:
        """What a duty over the trick history reads for `seat`'s turn (worked out once a turn)."""
        trick = self.trick
        key = (seat, len(self.tricks), len(trick.cards))
        found = self._env
        if found is not None and found[0] == key:
            return found[1]
        follow = self.follow
        env: dict[str, object] = {
            "hand": frozenset(self.hands[seat]),
            "trick_cards": frozenset(trick.cards),
            "trick_number": self.number,
            # Tricks led with a trump so far, this one included once a trump leads it.
            "trump_leads": sum(1 for t in self.tricks if t.cards and follow[t.cards[0]] == TRUMP),
            "led_trump": bool(trick.cards) and follow[trick.cards[0]] == TRUMP,
            "leading": not trick.cards,
            "players": self.n_seats,
        }
        self._env = (key, env)
        return env

    # -- playing a card ---------------------------------------------------------------------------
    def take(self, seat: int, action: ActionJson) -> bool:
        """Play the card of `action`, an offered play of the seat to act. Returns whether play is
        over (the last trick complete)."""
        card: str = action["play"]  # type: ignore[index]  # (a play: a mapping)
        if self.scoped[seat] is not None:
            return self._take_ruled(seat, card)
        # No rule in scope for this seat's turn: the card's steps, and nothing else to ask.
        trick = self.trick
        self.hands[seat].remove(card)
        trick.seats.append(seat)
        cards = trick.cards
        cards.append(card)
        entry, event = self.steps[seat][card]  # (seat, action) and the event, shared and read-only
        self.history.append(entry)
        self.events.append(event)
        count = len(cards)
        if count < self.n_seats:
            self.to_act = self.orders[trick.leader][count]
            return False
        return self._trick_done(trick)

    def _take_ruled(self, seat: int, card: str) -> bool:
        """Play `card` of `seat`, whose turn has rules in scope: they see it played."""
        turn = self.scoped[seat]
        assert turn is not None
        for rule in turn.before:
            rule.before_play(self, seat, card)
        trick = self.trick
        self.hands[seat].remove(card)
        trick.seats.append(seat)
        trick.cards.append(card)
        entry, event = self.steps[seat][card]
        self.history.append(entry)
        self.events.append(event)
        for rule in turn.after:
            rule.after_play(self, seat, card)
        if card in self.watched:
            self.rescope_seat(seat)
        if self.together == 1:
            if len(trick.cards) < self.n_seats:
                self.to_act = self.orders[trick.leader][len(trick.cards)]
                return False
            return self._trick_done(trick)
        self.played_in_open += 1
        open_tricks = self.open_tricks()
        for open_trick in open_tricks:  # (a loop, not any() over a generator: no frame made per card)
            if len(open_trick.cards) < self.n_seats:
                self._recount()
                return False
        return self._complete(open_tricks)

    def _trick_done(self, trick: Trick) -> bool:
        """The trick now being played is complete (one at a time): its winner and event, the
        rules' steps at its end, and the next trick (or the end of play, which it returns)."""
        cards = trick.cards
        winner = trick.winner = trick.seats[self._winning_index(trick)]
        tricks = self.tricks
        number = len(tricks)
        self.events.append(
            {"type": "trick", "number": number, "cards": cards[:], "seats": trick.seats[:], "winner": winner}
        )
        if self.ending:
            for rule in self.ending:
                rule.trick_done(self, trick, number)
            if self.ended is not None:
                return self._end_early(number)
        if number >= self.n_tricks:
            self.over = True
            self.to_act = None
            return True
        if self.leading:
            winner = self._leader_instead(winner)
        trick = self.trick = Trick(winner, [], [])
        tricks.append(trick)
        self.to_act, self.number = self.orders[winner][0], number + 1
        if self.rescoping:
            self._new_trick()
        return False

    def _end_early(self, number: int) -> bool:
        """A rule ended play after trick `number`, the contract being decided: the table is told
        why, and the cards left in the hands stay there for the settlement."""
        ended = self.ended
        assert ended is not None
        self.over = True
        self.to_act = None
        self.events.append({"type": "play_ends", "trick": number, "reason": ended.rule.reason, "rest": ended.rule.rest})
        return True

    def _winning_index(self, trick: Trick) -> int:
        """Where the card that wins the complete `trick` lies in it: as the rules judging tricks
        say, where there are any; else the first of the strongest by the strengths table."""
        if self.judges:
            return self._judged(trick)
        cards = trick.cards
        strength = self.strengths[self.follow[cards[0]]]
        best, index = -2, 0
        for at, card in enumerate(cards):  # (a loop: no call per card)
            if strength[card] > best:
                best, index = strength[card], at
        return index

    def _new_trick(self) -> None:
        """At a trick's start: the scopes, and the trick's judges, where the rules say they may
        change from the last trick's (RuleBook.rescoping_of); at every trick's start while a rule
        that says no better is not spent."""
        at = self.rescoped_at
        if at is None:
            self.rescope()
            spent = []
            for rule in self.unsettled:
                if rule.spent(self):
                    spent.append(rule)
            if spent:  # (asked no more: they concern no turn from now)
                self.unsettled = tuple([r for r in self.unsettled if r not in spent])
                self.asked = tuple([(r, bit) for r, bit in self.asked if r not in spent])
                if not self.unsettled:
                    at = self.rescoped_at = self.book.rescoping_of(self.n_tricks).settled
                    self.rescoping = bool(at)
        elif self.number in at:
            self.rescope()

    def _leader_instead(self, leader: int) -> int:
        """Who leads the next trick: `leader`, the last trick's winner, unless a rule says otherwise."""
        for rule in self.leading:
            instead = rule.next_leader(self)
            if instead is not None:
                leader = instead
        return leader

    def _complete(self, completed: list[Trick]) -> bool:
        """The tricks completed by the last card: their winners and events, the rules' steps at
        a trick's end, and the next trick (or the end of play, which it returns)."""
        tricks, events = self.tricks, self.events
        for trick in completed:
            trick.winner = trick.seats[self._winning_index(trick)]
        for trick in completed:
            # The last trick begun, but for tricks played together (or after one of them).
            number = len(tricks) if tricks[-1] is trick else tricks.index(trick) + 1
            events.append(
                {
                    "type": "trick",
                    "number": number,
                    "cards": list(trick.cards),
                    "seats": list(trick.seats),
                    "winner": trick.winner,
                }
            )
            for rule in self.ending:
                rule.trick_done(self, trick, number)
        if self.ended is not None:
            return self._end_early(len(tricks))
        if len(tricks) >= self.n_tricks:
            self.over = True
            self.to_act = None
            return True
        self._next_trick(completed)
        return False

    def _judged(self, trick: Trick) -> int:
        """The winner's index by the rules judging the trick, else the tables with its powerless
        and suitless cards."""
        for rule in self.judges:
            index = rule.winner(self, trick)
            if index is not None:
                return index
        number = self.tricks.index(trick) + 1
        return self.tables.winner_index(trick.cards, self.powerless(), self.suitless(number))

    def _next_trick(self, completed: list[Trick]) -> None:
        leader = self._leader_instead(completed[0].won_by if len(completed) == 1 else self._next_leader(completed))
        trick = Trick(leader, [], [])
        self.tricks.append(trick)
        self.together = 1
        self.played_in_open = 0
        self.to_act, self.trick, self.number = self.orders[leader][0], trick, len(self.tricks)
        if self.rescoping:
            self._new_trick()

    def _next_leader(self, completed: list[Trick]) -> int:
        # Tricks played together: the winner with the higher card leads; equal cards go by suit.
        order, power, suit_of = self.suit_order, self.tables.power, self.deck.suit

        def strength(t: Trick) -> tuple[int, int]:
            card = t.cards[t.seats.index(t.won_by)]
            suit = suit_of[card]
            rank_of_suit = len(order) - order.index(suit) if suit in order else 0
            return (power[card], rank_of_suit)

        return max(completed, key=strength).won_by

    # -- the tricks played together (Zwei Leere) ----------------------------------------------------
    def open_tricks(self) -> list[Trick]:
        """The tricks now being played: one, or several played together."""
        return self.tricks[-self.together :] if len(self.tricks) <= self.together else self.tricks[-1:]

    def _recount(self) -> None:
        """Whose turn it is in the tricks played together, after a card."""
        open_tricks = self.open_tricks()
        width = len(open_tricks)
        played = self.played_in_open
        order = self.orders[open_tricks[0].leader]
        self.to_act = order[played // width] if played // width < len(order) else None
        self.trick = open_tricks[played % width]
        self.number = len(self.tricks) - width + 1 + played % width

    def _grading(self, before: list[str], number: int) -> tuple[str, str | None]:
        """What grades a card added to trick `number`, which holds the cards `before` it: the
        suit that fixes the trick (following it grades 3; a trump, where trumping is a duty, 2),
        and after an exposed lead the suit of the card after it (following that grades 1)."""
        follow, suitless = self.follow, self.suitless(number)
        led = [c for c in before if c not in suitless] if suitless else before
        after_exposed = follow[led[1]] if len(led) > 1 and led[0] in self.exposed else None
        return follow[led[0]], after_exposed

    def together_duty(self, seat: int, usable: list[str]) -> list[str]:
        """The cards `seat` may add to the trick now being filled, of the tricks played together.

        A player puts one card in each, in the order of the tricks, so the order of the plays says
        which card goes to which trick. The duty is that of each trick, met together: the cards
        for the tricks must follow (or trump) in each as far as the hand allows, and no other
        choice of cards may do better in one trick without doing worse in another. A player with
        one card of the suit led to both may follow in either trick and trump in the other."""
        open_tricks = self.open_tricks()
        first = len(self.tricks) - len(open_tricks) + 1
        position = open_tricks.index(self.trick)
        width = len(open_tricks)
        # Only a card's grades in the tricks matter, so cards with the same grades (a profile)
        # are interchangeable: the choices are worked out over profiles and how many cards of
        # each the hand has (the cards placed in the earlier tricks among them), not over every
        # ordering of the cards themselves. (Loops, not comprehensions: no function made and
        # called for each.)
        gradings = []
        placed: list[str] = []  # the cards `seat` put in the tricks before this one
        for i, t in enumerate(open_tricks):
            if seat in t.seats:
                at = t.seats.index(seat)
                gradings.append(self._grading(t.cards[:at], first + i))
                if i < position:
                    placed.append(t.cards[at])
            else:
                gradings.append(self._grading(t.cards, first + i))
        of_suit, follow = self._profiles(gradings), self.follow
        of_usable: dict[str, tuple[int, ...]] = {}
        counts: dict[tuple[int, ...], int] = {}
        for card in usable:
            p = of_usable[card] = of_suit[follow[card]]
            counts[p] = counts.get(p, 0) + 1
        fixed = []
        for card in placed:
            p = of_suit[follow[card]]
            fixed.append(p)
            counts[p] = counts.get(p, 0) + 1
        graded = _choices(counts, width)
        best = _best(set(graded.values()))
        # A card may go to this trick if a best choice begins with the placed cards and it.
        begun = tuple(fixed)
        fits = set()
        for choice, grades in graded.items():
            if grades in best and choice[:position] == begun:
                fits.add(choice[position])
        allowed = []
        for card in usable:
            if of_usable[card] in fits:
                allowed.append(card)
        return allowed

    def _profiles(self, gradings: list[tuple[str, str | None]]) -> dict[str, tuple[int, ...]]:
        """For each suit for following, its cards' grades in each of the tricks played together,
        graded by `gradings` (`_grading`'s): 3 follows, 2 trumps where that is a duty, 1 follows
        the card after an exposed lead, 0 does not."""
        follows, trumps = self.tables.play.follow_suit, self.tables.play.must_trump
        of_suit = {}
        for suit in self.tables.members:
            grades = []
            for fixing, after_exposed in gradings:
                if follows and suit == fixing:
                    grades.append(3)
                elif trumps and suit == TRUMP:
                    grades.append(2)
                else:
                    grades.append(1 if suit == after_exposed else 0)
            of_suit[suit] = tuple(grades)
        return of_suit


def _choices(counts: dict[tuple[int, ...], int], width: int) -> dict[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Every choice of cards for the `width` tricks played together, from `counts` cards of each
    grade profile: the profiles in the order of the tricks -> the grade in each trick."""
    choices: list[tuple[tuple[int, ...], ...]] = [()]
    for _ in range(width):
        longer = []
        for choice in choices:
            for p, left in counts.items():
                if left > choice.count(p):
                    longer.append((*choice, p))
        choices = longer
    graded = {}
    for choice in choices:
        grades = []
        for at, p in enumerate(choice):
            grades.append(p[at])
        graded[choice] = tuple(grades)
    return graded


def _best(vectors: set[tuple[int, ...]]) -> set[tuple[int, ...]]:
    """The grade vectors of `vectors` that no other is as good as in every trick and better in one."""
    best = set()
    for v in vectors:  # (loops, not all() over a generator: no frame made per pair)
        for w in vectors:
            if w != v:
                for a, b in zip(w, v):  # noqa: B905 (one width)
                    if a < b:
                        break
                else:
                    break  # w is as good as v in every trick
        else:
            best.add(v)
    return best
