"""The trick-play phase: the tricks, and the duties that depend on what has happened in them.

On top of following suit (`TrickRules`) come the ruleset's special duties: scheduled cards in
the first tricks, a card withheld by its holder (Gstiesieren), and cards the declarer laid out
in an announcement (Ulti), which are held back until nothing else may be played.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.model import Deck, PlayRules, ScheduledTrick
from interpreter.tricks import TrickRules


@dataclass
class Trick:
    leader: int
    seats: list[int] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    winner: int | None = None


class TrickPlay:
    def __init__(self, rules: TrickRules, play: PlayRules, deck: Deck, seats: list[int],
                 hands: dict[int, list[str]], declarer: int | None, leader: int, n_tricks: int):
        self.rules, self.play, self.deck = rules, play, deck
        self.seats, self.hands, self.declarer, self.n_tricks = seats, hands, declarer, n_tricks
        self.tricks: list[Trick] = [Trick(leader)]
        self.schedule: dict[int, ScheduledTrick] = {t.trick: t for t in play.schedule}
        self.laid: list[str] = []                 # announced cards still in the declarer's hand
        self.laid_all: list[str] = []             # every announced card, for scoring
        self.withheld: dict[int, str] = {}        # seat -> the card it withheld (now powerless)

    # -- whose turn -------------------------------------------------------------------------
    def to_act(self) -> int:
        trick = self.tricks[-1]
        if not trick.seats:
            return trick.leader
        return self.seats[(self.seats.index(trick.seats[-1]) + 1) % len(self.seats)]

    @property
    def powerless(self) -> frozenset[str]:
        return frozenset(self.withheld.values())

    # -- what may be played -----------------------------------------------------------------
    def _usable(self, seat: int) -> list[str]:
        """The hand less a withheld card, which waits for the last trick."""
        hand = self.hands[seat]
        withheld = self.withheld.get(seat)
        usable = [c for c in hand if c != withheld]
        return usable or list(hand)

    def _may_withhold(self, seat: int, duty: list[str], usable: list[str]) -> bool:
        rule = self.play.withhold
        return (rule is not None and duty == [rule.card] and len(usable) > 1
                and seat not in self.withheld and len(self.tricks) < self.n_tricks
                and (rule.by == "anyone" or seat != self.declarer)
                and (rule.when is None or bool(rule.when({"hand": frozenset(self.hands[seat])}))))

    def _duty(self, seat: int) -> tuple[list[str], str | None]:
        """The cards following the trick's duties allow, before held-back cards; and why."""
        usable = self._usable(seat)
        scheduled = self.schedule.get(len(self.tricks))
        if scheduled is not None:
            for cards in scheduled.play_from:
                allowed = [c for c in usable if c in cards]
                if allowed:
                    return allowed, scheduled.reason
            return usable, None
        led = [c for c in self.tricks[-1].cards if c not in self.powerless]
        duty = self.rules.legal(usable, led)
        if self._may_withhold(seat, duty, usable):
            return list(usable), None
        return duty, "follow"

    def legal(self, seat: int) -> list[str]:
        allowed, _ = self._duty(seat)
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
        if card in allowed and seat == self.declarer and card in self.laid:
            legal = self.legal(seat)
            if legal[0] in self.laid:
                return f"laid-out cards are played highest first: play {legal[0]} before {card}"
            return f"{card} is laid out: it may be played only when nothing else is allowed; you may play {', '.join(legal)}"
        if why is not None and why != "follow":
            return f"{why}: you hold {', '.join(allowed)}"
        led = [c for c in self.tricks[-1].cards if c not in self.powerless]
        return self.rules.refusal(self._usable(seat), led, card)

    # -- playing a card ---------------------------------------------------------------------
    def play_card(self, seat: int, card: str) -> tuple[Trick, bool]:
        """Play a legal card. Returns the current trick and whether `seat` withheld with it."""
        usable = self._usable(seat)
        withheld = False
        if self.play.withhold and card != self.play.withhold.card and self.play.withhold.card in usable:
            led = [c for c in self.tricks[-1].cards if c not in self.powerless]
            if self.schedule.get(len(self.tricks)) is None:
                duty = self.rules.legal(usable, led)
                if self._may_withhold(seat, duty, usable):
                    self.withheld[seat] = self.play.withhold.card
                    withheld = True
        self.hands[seat].remove(card)
        if card in self.laid:
            self.laid.remove(card)
        trick = self.tricks[-1]
        trick.seats.append(seat)
        trick.cards.append(card)
        if len(trick.cards) == len(self.seats):
            trick.winner = trick.seats[self.rules.winner_index(trick.cards, self.powerless)]
        return trick, withheld

    def next_trick(self) -> None:
        self.tricks.append(Trick(self.tricks[-1].winner))

    @property
    def over(self) -> bool:
        return len(self.tricks) == self.n_tricks and self.tricks[-1].winner is not None
