"""The trick-play phase: the tricks, and the duties that depend on what has happened in them.

On top of following suit (`TrickRules`) come the ruleset's special duties: scheduled cards in
the first tricks, a card withheld by its holder (Gstiesieren), cards the declarer laid out in an
announcement (Ulti), which are held back until nothing else may be played, and cards exposed in
the exchange (Cego's empty cards), which must lead the first tricks and can never win one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from interpreter.engine.tricks import TrickRules
from interpreter.language.model import TRUMP, Deck, OpeningLeads, PlayRules, ScheduledTrick

_Play = TypeVar("_Play")
_NOTHING: list[Trick] = []  # "no trick completed", shared so the hot loop does not allocate


@dataclass(eq=False, slots=True)  # compared by identity: `tricks.index(trick)` must not compare fields
class Trick:
    leader: int
    seats: list[int] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    winner: int | None = None

    @property
    def won_by(self) -> int:
        """The winner of a complete trick."""
        assert self.winner is not None, "the trick is not complete"
        return self.winner


class TrickPlay:
    # The attributes read at every card have slots of their own, so that however many others
    # trick play gains they stay quick (Python 3.11 keeps at most 30 in an instance's fastest form).
    __slots__ = (
        "__dict__",
        "_history_duties",
        "_legal_cache",
        "_plain",
        "_simple",
        "_unless_held",
        "duties",
        "fast",
        "hands",
        "kept",
        "laid",
        "n_seats",
        "number",
        "orders",
        "over",
        "plain_hands",
        "played_in_open",
        "rules",
        "to_act",
        "together",
        "trick",
        "tricks",
        "withheld",
    )

    def __init__(
        self,
        rules: TrickRules,
        play: PlayRules,
        deck: Deck,
        seats: list[int],
        hands: dict[int, list[str]],
        declarer: int | None,
        leader: int,
        n_tricks: int,
        exposed: list[str] | None = None,
        opening: OpeningLeads | None = None,
        schedule: tuple[ScheduledTrick, ...] | None = None,
    ):
        self.rules, self.play, self.deck = rules, play, deck
        self.seats, self.hands, self.declarer, self.n_tricks = seats, hands, declarer, n_tricks
        # A contract's own schedule (geregelter Räuber) replaces the ruleset's.
        scheduled = play.schedule if schedule is None else schedule
        self.schedule: dict[int, ScheduledTrick] = {t.trick: t for t in scheduled} if scheduled else {}
        self.laid: list[str] = []  # announced cards still in the declarer's hand
        # Cards kept back for their trick (an announced bird): card -> the trick's number (1 = first).
        self.kept: dict[str, int] = {}
        self.withheld: dict[int, str] = {}  # seat -> the card it withheld (now powerless)
        self.exposed = list(exposed or [])  # exposed in the exchange: they never win
        self.opening = opening if exposed else None
        self.pending_leads = list(self.exposed) if self.opening else []
        self.n_opening = len(self.pending_leads)
        together = self.opening is not None and self.opening.together and self.n_opening > 1
        self.together = self.n_opening if together else 1
        self.tricks: list[Trick] = (
            [Trick(leader, [], [])] if self.together == 1 else [Trick(leader) for _ in range(self.together)]
        )
        # Whose turn it is changes only when a card is played: kept, not recomputed (hot loop).
        # For each leader the order of play, the cards a trick takes, and the cards played to
        # the open tricks: read and advanced by `Game.apply`'s short way too (see complete_plain).
        self.orders = rules.orders(seats)
        self.n_seats = len(seats)
        self.played_in_open = 0
        self._exposed = frozenset(self.exposed)
        # Duties over the trick history (Räuber's Pfeife, the 21): where there are any, no turn is plain.
        self._history_duties = play.duties
        # Only following suit (and cards kept back, which bind their holders: see plain_hands).
        self._plain = not (self.schedule or play.withhold or self.exposed or play.duties)
        self._simple = rules.simple  # ... and of those, only following and trumping
        # Plain but for a card that may be withheld: plain for a seat without it, while nobody has
        # withheld it (a Gstieß that may be withheld: most cards are played by seats without it).
        self._unless_held = (
            play.withhold.card if play.withhold and not (self.schedule or self.exposed or play.duties) else None
        )
        # Each seat's hand while its turns are as plain as the rest (the same lists as `hands`);
        # None while it holds a watched card: one kept back for its trick, or one whose playing
        # the game watches for (the called King: see `watch`). Only its holder's turns then take
        # the general steps (read by Game.legal_actions at every turn).
        self.plain_hands: dict[int, list[str] | None] = dict(hands)
        self._watched: frozenset[str] = frozenset()
        self.duties = rules.duties  # the follow-suit tests by the card led (read by Game.legal_actions)
        # The legal cards of a turn: (seat, the trick, the cards in it, the legal cards).
        self._legal_cache: tuple[int, Trick, int, list[str]] | None = None
        # Whose turn it is, the trick their card goes to, and its number (1 = first); kept, not
        # recomputed, because the play loop asks for them at every card.
        self.to_act: int | None = None
        self.trick: Trick = self.tricks[0]
        self.number = 1
        # Whether the last trick is complete (tricks are completed in order, those played
        # together at once): set where a trick's winner is, read after every trick.
        self.over = False
        self._recount()
        self.fast = False
        self.refresh()

    def refresh(self) -> None:
        """Work out `fast`: whether every seat's turn is plain now (only following suit and
        trumping, no laid-out cards) but a watched card's holder's (`plain_hands`), so that a
        card takes the short way (`legal_fast`, `Game.apply`) without asking. Called whenever
        what it reads may have changed."""
        self.fast = self._plain and self._simple and not self.laid

    # -- the tricks being played --------------------------------------------------------------
    def _open(self) -> list[Trick]:
        """The tricks now being played: one, or several played together."""
        return self.tricks[-self.together :] if len(self.tricks) <= self.together else self.tricks[-1:]

    def _recount(self) -> None:
        """Work out whose turn it is, after a card or at a new trick."""
        if self.together == 1 or len(self.tricks) > self.together:
            trick, played = self.tricks[-1], self.played_in_open
            order = self.orders[trick.leader]
            self.to_act, self.trick, self.number = (
                (order[played] if played < len(order) else None),
                trick,
                len(self.tricks),
            )
            return
        open_tricks = self._open()
        width = len(open_tricks)
        played = self.played_in_open
        target = open_tricks[played % width]
        order = self.orders[open_tricks[0].leader]
        self.to_act = order[played // width] if played // width < len(order) else None
        self.trick, self.number = target, len(self.tricks) - width + 1 + played % width

    def _powerless(self) -> frozenset[str]:
        if not self.withheld:
            return self._exposed
        return frozenset(self.withheld.values()) | self._exposed

    def _suitless(self, number: int) -> frozenset[str]:
        """Cards that do not fix the suit to follow in trick `number`: a withheld card. An exposed
        card does, at any time: it cannot win, but it is still a card of its suit (cego-en, Eine
        Leere); only when nobody follows it nor trumps does the next card fix the suit."""
        if not self.withheld:
            return frozenset()
        return frozenset(self.withheld.values())

    @property
    def powerless(self) -> frozenset[str]:
        return self._powerless()

    # -- what may be played -----------------------------------------------------------------
    def _usable(self, seat: int) -> list[str]:
        """The hand less a withheld card, which waits for the last trick."""
        hand = self.hands[seat]
        usable = list(hand)
        withheld = self.withheld.get(seat)
        if withheld is not None and withheld in usable and len(usable) > 1:
            usable.remove(withheld)
        return usable

    def _may_withhold(self, seat: int, duty: list[str], usable: list[str]) -> bool:
        rule = self.play.withhold
        return (
            rule is not None
            and duty == [rule.card]
            and len(usable) > 1
            and seat not in self.withheld
            and len(self.tricks) < self.n_tricks
            and (rule.by == "anyone" or seat != self.declarer)
            and (rule.when is None or bool(rule.when({"hand": frozenset(self.hands[seat])})))
        )

    def _opening_leads(self, usable: list[str]) -> list[str]:
        opening = self.opening
        assert opening is not None  # leads are pending only in a contract with opening leads
        suits = {self.deck.suit[e] for e in self.pending_leads}
        return [
            c for c in usable if c in self.pending_leads or (opening.replace_same_suit and self.deck.suit[c] in suits)
        ]

    def _duty(self, seat: int) -> tuple[list[str], str | None]:
        """The cards following the trick's duties allow, before held-back cards; and why."""
        usable = self._usable(seat)
        trick, number = self.trick, self.number
        if self.pending_leads and not trick.cards and seat == self.declarer:
            leads = self._opening_leads(usable)
            if leads:
                return leads, "the exposed cards lead the first tricks"
        scheduled = self.schedule.get(number)
        if scheduled is not None:
            for cards in scheduled.play_from:
                allowed = [c for c in usable if c in cards]
                if allowed:
                    return allowed, scheduled.reason
            return usable, None
        if self._together_open():
            return self._together_duty(seat, usable), "together"
        led = self._led(trick.cards, usable, number)
        duty = self.rules.legal(usable, led)
        if self._may_withhold(seat, duty, usable):
            return list(usable), None
        return duty, "follow"

    def _led(self, cards: list[str], usable: list[str], number: int) -> list[str]:
        """The cards of the trick that set `usable`'s duty: from the first one that fixes the suit.
        An exposed card led fixes its suit; a player who can neither follow it nor trump follows
        the card after it, which "determines the suit to be followed" (cego-en, Eine Leere)."""
        suitless = self._suitless(number)
        led = [c for c in cards if c not in suitless] if suitless else list(cards)
        if len(led) > 1 and led[0] in self._exposed:
            follow, suit = self.rules.follow, self.rules.follow[led[0]]
            trumps = self.play.must_trump
            if not any(follow[c] == suit or (trumps and follow[c] == TRUMP) for c in usable):
                return led[1:]
        return led

    # -- the tricks played together (Zwei Leere) ------------------------------------------------
    def _together_open(self) -> bool:
        return self.together > 1 and len(self.tricks) <= self.together and bool(self.trick.cards)

    def _grading(self, before: list[str], number: int) -> tuple[str, str | None]:
        """What grades a card added to trick `number`, which holds the cards `before` it: the
        suit that fixes the trick (following it grades 3; a trump, where trumping is a duty, 2),
        and after an exposed lead the suit of the card after it (following that grades 1)."""
        follow, suitless = self.rules.follow, self._suitless(number)
        led = [c for c in before if c not in suitless] if suitless else before
        after_exposed = follow[led[1]] if len(led) > 1 and led[0] in self._exposed else None
        return follow[led[0]], after_exposed

    def _together_duty(self, seat: int, usable: list[str]) -> list[str]:
        """The cards `seat` may add to the trick now being filled, of the tricks played together.

        A player puts one card in each, in the order of the tricks, so the order of the plays says
        which card goes to which trick. The duty is that of each trick, met together: the cards
        for the tricks must follow (or trump) in each as far as the hand allows, and no other
        choice of cards may do better in one trick without doing worse in another. A player with
        one card of the suit led to both may follow in either trick and trump in the other."""
        open_tricks = self._open()
        first = len(self.tricks) - len(open_tricks) + 1
        position = open_tricks.index(self.trick)
        placed = [t.cards[t.seats.index(seat)] for t in open_tricks[:position]]
        before = [t.cards[: t.seats.index(seat)] if seat in t.seats else t.cards for t in open_tricks]
        width = len(open_tricks)

        # Only a card's grades in the tricks matter, so cards with the same grades (a profile)
        # are interchangeable: the choices are worked out over profiles and how many cards of
        # each the hand has, not over every ordering of the cards themselves.
        gradings = [self._grading(before[i], first + i) for i in range(width)]
        follow, follows, trumps = self.rules.follow, self.play.follow_suit, self.play.must_trump

        of_suit: dict[str, tuple[int, ...]] = {}  # a card's profile is its suit's

        def profile(card: str) -> tuple[int, ...]:
            suit = follow[card]
            found = of_suit.get(suit)
            if found is None:
                grades = []  # how well it meets each trick's duty: 3 follows, 2 trumps, 1 follows
                for fixed, after_exposed in gradings:  # the card after an exposed lead, 0 does not
                    if follows and suit == fixed:
                        grades.append(3)
                    elif trumps and suit == TRUMP:
                        grades.append(2)
                    else:
                        grades.append(1 if suit == after_exposed else 0)
                found = of_suit[suit] = tuple(grades)
            return found

        counts: dict[tuple[int, ...], int] = {}
        of_usable: dict[str, tuple[int, ...]] = {}
        for card in usable:
            p = of_usable[card] = profile(card)
            counts[p] = counts.get(p, 0) + 1
        fixed = [profile(card) for card in placed]  # the cards already put in the earlier tricks

        # The vectors of every choice, the placed cards among the hand's (any trick, any order).
        for p in fixed:
            counts[p] = counts.get(p, 0) + 1
        every = _vectors(counts, width, 0, (), set())
        best = set()  # the vectors no other is as good as in every trick (and better in one)
        for v in every:
            for w in every:
                if w != v and _at_least(w, v):
                    break
            else:
                best.add(v)
        for p in fixed:
            counts[p] -= 1
        # A card may go to this trick if, after the placed cards and it, the rest can still
        # make a best vector.
        start = tuple(p[i] for i, p in enumerate(fixed))
        fits: dict[tuple[int, ...], bool] = {}
        for p in set(of_usable.values()):
            counts[p] -= 1
            fits[p] = not best.isdisjoint(_vectors(counts, width, position + 1, (*start, p[position]), set()))
            counts[p] += 1
        return [c for c in usable if fits[of_usable[c]]]

    def legal(self, seat: int) -> list[str]:
        # Asked twice a card (by the player, then to check the card): computed once per turn.
        cache, trick = self._legal_cache, self.trick
        if cache is not None and cache[0] == seat and cache[1] is trick and cache[2] == len(trick.cards):
            return cache[3]
        result = self._legal(seat)
        if seat == self.to_act:
            self._legal_cache = (seat, trick, len(trick.cards), result)
        return result

    def legal_plays(self, seat: int, plays: Mapping[str, _Play]) -> list[_Play]:
        """`plays[card]` for each card `seat` may play now, in the order of the hand: what
        `legal()` gives, where only following suit and trumping apply made by one comprehension
        per duty (a set's `in` is quicker than a filter calling its `__contains__`)."""
        hand = self.hands[seat]
        if (
            seat != self.to_act
            or not self._simple
            or self.laid
            or self.plain_hands[seat] is None
            or not (self._plain or self._plain_for(hand))
        ):
            return [plays[c] for c in self.legal(seat)]
        return self.legal_fast(seat, plays)

    def legal_fast(self, seat: int, plays: Mapping[str, _Play]) -> list[_Play]:
        """`legal_plays` for the seat to act while `fast` holds, without asking again."""
        hand = self.hands[seat]
        cards = self.trick.cards
        legal: list[_Play] = []  # (loops, not comprehensions: no function made and called per turn)
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

    def _plain_for(self, hand: list[str]) -> bool:
        """Whether only the follow-suit duties apply to a seat with `hand` now, but for the cards
        watched (`plain_hands`)."""
        if self._plain:
            return True
        card = self._unless_held
        return card is not None and not self.withheld and card not in hand

    def keep_back(self, kept: dict[str, int]) -> None:
        """Cards announced for a trick of their own: held back until it, and played in it if legal."""
        self.kept = dict(kept)
        self.watch(kept)

    def watch(self, cards: Iterable[str]) -> None:
        """Cards whose play is watched for (kept back, or the called King): their holders' turns
        take the general steps until they have played them; the others' stay plain."""
        self._watched = self._watched.union(cards)
        for seat, hand in self.hands.items():
            if not self._watched.isdisjoint(hand):
                self.plain_hands[seat] = None

    def _kept_back(self, seat: int, allowed: list[str]) -> list[str]:
        """`allowed` less the cards kept back for a later trick: a card due in this trick must be
        played; one whose trick has passed (it could not be played there) is free again, for the
        duty is to keep it until its trick."""
        kept, number = self.kept, self.number
        due = []  # (loops, not comprehensions: see TrickRules.legal)
        free = []
        for c in allowed:
            trick = kept.get(c)
            if trick is None or trick < number:
                free.append(c)
            elif trick == number:
                due.append(c)
        if due:
            return due
        if free:
            return free
        # Forced out early: the highest of the kept cards first.
        return [max(allowed, key=lambda c: self.rules.power[c])]

    def _legal(self, seat: int) -> list[str]:
        if self._plain and not self.laid:
            # Following suit, then the cards kept back for their tricks (the steps below, less
            # those that cannot apply: nothing withheld, scheduled, exposed or over the history).
            hand = self.hands[seat]
            allowed = self.rules.legal(hand, self.trick.cards)
            return allowed if self.kept.keys().isdisjoint(hand) else self._kept_back(seat, allowed)
        allowed, _ = self._duty(seat)
        if self._history_duties:
            allowed = self._trick_duties(seat, allowed)[0]
        if self.kept and any(c in self.kept for c in self.hands[seat]):
            allowed = self._kept_back(seat, allowed)
        if seat == self.declarer and self.laid:
            free = [c for c in allowed if c not in self.laid]
            if free:
                return free
            held = [c for c in allowed if c in self.laid]
            return [max(held, key=lambda c: self.deck.rank[c])]
        return allowed

    def refusal(self, seat: int, card: str) -> str:
        hand = self.hands[seat]
        if card not in hand:
            return f"you do not hold {card} ({self.deck.name_of(card)})"
        if self.withheld.get(seat) == card:
            return f"you withheld {self.deck.name_of(card)}: it stays in your hand until the last trick"
        allowed, why = self._duty(seat)
        if self._history_duties and card in allowed:
            kept, reason = self._trick_duties(seat, allowed)
            if card not in kept and reason is not None:
                return f"{reason}: you may play {', '.join(kept)}"
        if card in allowed and card in self.kept and card not in self.legal(seat):
            legal = self.legal(seat)
            return (
                f"{self.deck.name_of(card)} was announced for trick {self.kept[card]}: keep it until then "
                f"(or play it when nothing else is allowed); you may play {', '.join(legal)}"
            )
        if card in allowed and card not in self.legal(seat) and any(self.kept.get(c) == self.number for c in allowed):
            due = [c for c in allowed if self.kept.get(c) == self.number]
            return f"{', '.join(due)} was announced for this trick and must be played in it"
        if card in allowed and seat == self.declarer and card in self.laid:
            legal = self.legal(seat)
            if legal[0] in self.laid:
                return f"laid-out cards are played highest first: play {legal[0]} before {card}"
            return f"{card} is laid out: it may be played only when nothing else is allowed; you may play {', '.join(legal)}"
        if why == "together":
            return (
                f"in the tricks played together you must follow suit or trump in each as far as your cards "
                f"allow; to trick {self.number} you may play {', '.join(allowed)}"
            )
        if why is not None and why != "follow":
            return f"{why}: you hold {', '.join(allowed)}"
        trick, number = self.trick, self.number
        usable = self._usable(seat)
        return self.rules.refusal(usable, self._led(trick.cards, usable, number), card)

    # -- duties over the trick history ------------------------------------------------------------
    def _trick_duties(self, seat: int, allowed: list[str]) -> tuple[list[str], str | None]:
        """`allowed` narrowed by the ruleset's duties in order, and the reason of the last that
        narrowed it. A duty never leaves nothing to play: a card that may not be played still
        may when nothing else is allowed, and one that must be played only when it is allowed."""
        env = self._duty_env(seat)
        reason = None
        for duty in self._history_duties:
            if duty.must is not None:
                due = [c for c in allowed if c in duty.cards]
                if due and len(due) < len(allowed) and duty.must(env):
                    allowed, reason = due, duty.reason
            elif duty.may_not is not None:
                rest = [c for c in allowed if c not in duty.cards]
                if rest and len(rest) < len(allowed) and duty.may_not(env):
                    allowed, reason = rest, duty.reason
        return allowed, reason

    def _duty_env(self, seat: int) -> dict[str, object]:
        follow, trick = self.rules.follow, self.trick
        led_trump = bool(trick.cards) and follow[trick.cards[0]] == TRUMP
        return {
            "hand": frozenset(self.hands[seat]),
            "trick_cards": frozenset(trick.cards),
            "trick_number": self.number,
            # Tricks led with a trump so far, this one included once a trump leads it.
            "trump_leads": sum(1 for t in self.tricks if t.cards and follow[t.cards[0]] == TRUMP),
            "led_trump": led_trump,
            "leading": not trick.cards,
            "players": self.n_seats,
        }

    # -- playing a card ---------------------------------------------------------------------
    def plain_turn(self, seat: int) -> bool:
        """Whether no duty beyond following suit applies to `seat`'s card now (the most common
        turn of all): then `Game.apply` plays it itself (see complete_plain)."""
        hand = self.plain_hands[seat]
        return hand is not None and (self._plain or self._plain_for(hand)) and not self.laid

    def complete_plain(self, trick: Trick) -> None:
        """The last card of a plain trick is in: its winner, and whether play is over. (While
        `fast` holds, `Game.apply` plays a card itself: it takes the card from `hands`, adds it
        to `trick`, counts it in `played_in_open` and gives the turn to the next seat of
        `orders`; a trick of `n_seats` cards is complete. It calls this, then `next_trick`.)"""
        trick.winner = trick.seats[self.rules.winner_index(trick.cards)]
        self.over = len(self.tricks) >= self.n_tricks

    def play_card(self, seat: int, card: str) -> tuple[list[Trick], bool]:
        """Play a legal card. Returns the tricks completed by it (none, one, or those played
        together) and whether `seat` withheld a card with it."""
        trick = self.trick
        withheld = False if self._plain else self._special_duties(seat, card)
        hand = self.hands[seat]
        hand.remove(card)
        if card in self._watched and self._watched.isdisjoint(hand):
            self.plain_hands[seat] = hand  # its last watched card: its turns are plain again
        if self.laid and card in self.laid:
            self.laid.remove(card)
            self.refresh()
        trick.seats.append(seat)
        trick.cards.append(card)
        self.played_in_open += 1
        played = len(trick.cards)
        if self.together == 1:
            if played < self.n_seats:
                self.to_act = self.orders[trick.leader][played]  # the plain case: the next seat plays
                return _NOTHING, withheld
            if not self.withheld and (not self._exposed or self._plain):
                # (plain with exposed cards: they were all played in earlier tricks)
                trick.winner = trick.seats[self.rules.winner_index(trick.cards)]
                self.over = len(self.tricks) >= self.n_tricks
                return [trick], withheld
        open_tricks = self._open()
        if any(len(t.cards) < len(self.seats) for t in open_tricks):
            self._recount()
            return [], withheld
        for t in open_tricks:
            n = self.tricks.index(t) + 1
            t.winner = t.seats[self.rules.winner_index(t.cards, self._powerless(), self._suitless(n))]
        self.over = len(self.tricks) >= self.n_tricks
        return open_tricks, withheld

    def _special_duties(self, seat: int, card: str) -> bool:
        """Before `card` is played: whether it withholds the withholdable card, and which
        opening lead it makes. Returns whether `seat` withheld a card with it."""
        trick, number = self.trick, self.number
        withheld = False
        rule = self.play.withhold
        if rule is not None and card != rule.card and number not in self.schedule:
            usable = self._usable(seat)
            if rule.card in usable:
                led = self._led(trick.cards, usable, number)
                if self._may_withhold(seat, self.rules.legal(usable, led), usable):
                    self.withheld[seat] = rule.card
                    withheld = True
        if self.pending_leads and not trick.cards and seat == self.declarer:
            if card in self.pending_leads:
                self.pending_leads.remove(card)
            else:
                self.pending_leads.remove(
                    next(e for e in self.pending_leads if self.deck.suit[e] == self.deck.suit[card])
                )
        return withheld

    def next_trick(self) -> None:
        if self.together == 1 and self.opening is None:
            # One trick at a time and no opening leads (most deals): its winner leads the next.
            leader = self.trick.winner
            assert leader is not None  # the trick is complete
            trick = Trick(leader, [], [])
            self.tricks.append(trick)
            self.played_in_open = 0
            self.to_act, self.trick, self.number = self.orders[leader][0], trick, len(self.tricks)
            if not self._plain:
                self._plain = self._plain_from_now()
                self.refresh()
            return
        completed = self._open()
        leader = self._next_leader(completed)
        if (
            self.opening
            and self.opening.declarer_leads_after
            and len(self.tricks) <= self.n_opening
            and self.declarer is not None
        ):
            leader = self.declarer
        self.tricks.append(Trick(leader))
        self.together = 1
        self.played_in_open = 0
        self._recount()
        if not self._plain:
            self._plain = self._plain_from_now()
            self.refresh()

    def _plain_from_now(self) -> bool:
        """At the start of a trick: whether from now on only the follow-suit duties apply, the
        schedule's tricks and the exposed cards (in earlier tricks, and led as the opening asked)
        behind, and no card to withhold or kept back."""
        if self.play.withhold or self.play.duties or self.together != 1 or self.pending_leads:
            return False
        if any(number >= self.number for number in self.schedule):
            return False
        return not any(card in hand for hand in self.hands.values() for card in self._exposed)

    def _next_leader(self, completed: list[Trick]) -> int:
        if len(completed) == 1:
            return completed[0].won_by
        # Tricks played together: the winner with the higher card leads; equal cards go by suit.
        order = self.opening.suit_order if self.opening else ()

        def strength(t: Trick) -> tuple[int, int]:
            card = t.cards[t.seats.index(t.won_by)]
            suit = self.deck.suit[card]
            rank_of_suit = len(order) - order.index(suit) if suit in order else 0
            return (self.rules.power[card], rank_of_suit)

        return max(completed, key=strength).won_by


def _at_least(w: tuple[int, ...], v: tuple[int, ...]) -> bool:
    """Whether grade vector `w` is as good as `v` in every trick."""
    for a, b in zip(w, v):  # noqa: B905, SIM110 (one width; a loop, not all() over a generator: no frame made per call)
        if a < b:
            return False
    return True


def _vectors(
    counts: dict[tuple[int, ...], int], width: int, at: int, sofar: tuple[int, ...], found: set[tuple[int, ...]]
) -> set[tuple[int, ...]]:
    """Into `found`, the grade vectors of every choice of cards for the tricks played together
    that goes on from `sofar` (the grades in the tricks before `at`), from `counts` cards of
    each grade profile (a module function: a closure calling itself would be a reference cycle)."""
    if at == width:
        found.add(sofar)
        return found
    for p, left in counts.items():
        if left > 0:
            counts[p] = left - 1
            _vectors(counts, width, at + 1, (*sofar, p[at]), found)
            counts[p] = left
    return found
