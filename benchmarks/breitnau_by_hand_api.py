"""The hand-coded Breitnau behind the public API's contract: a second yardstick, for what the
contract itself costs.

`breitnau_by_hand.py` plays a deal as one loop: a choice is a pick from a list the loop made, and
nothing is kept but the cards. A program that drives a game through an API asks more of it at
every action, and so does `bench_random_deals.public_deal` of the interpreter:
- `legal_actions(seat)`: a new list of the actions offered, each the protocol's action (a call
  as a string, a card as `{"play": card}`, a discard as a list of cards or a template);
- `apply(seat, action)`: the action checked against what was offered (refused, nothing changed,
  where it is not), written into the history, the events it causes written down (a call, a card
  played, a trick won, the contract, the settlement) and returned as a new list;
- `to_act`, `is_over` and `result` to read between actions.

`HandGame` does exactly that for the very same rules and draws, written by hand for this one game
(the deal's steps are a generator that stops at every choice; the counting and payments are
breitnau_by_hand.py's own), and `bench_random_deals.api_deal` drives it by the loop that drives the
interpreter. So for one seed the three engines make the same choices and
end with the same payments (tests/test_bench_breitnau.py). Beside the plain yardstick, it tells
how much of the interpreter's distance from `breitnau_by_hand.py` is the API's, which any engine
behind it pays, and how much is the interpreter's own generality.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Sequence
from itertools import combinations
from typing import Any

from breitnau_by_hand import DAPPEN_LADDER, FIVE_POINTERS, FOLLOW, PACK, PLAYERS, POWER, TRICKS, settle

# The protocol's actions and the events of a card played, made once and shared read-only, as the
# interpreter shares them: a card's action, and each seat's event for each card.
PLAYS = {card: {"play": card} for card in PACK}
PLAY_EVENTS = [{card: {"type": "play", "seat": seat, "card": card} for card in PACK} for seat in range(PLAYERS)]

Action = Any  # a call (a string), {"play": card}, {"discard": [cards]} or a discard's template
# What the deal's steps stop at: the seat to act and what it is offered.
Turn = tuple[int, Sequence[Action]]


class IllegalActionError(Exception):
    """An action that is not offered to the seat now; the game is unchanged."""


class HandGame:
    """One deal of Breitnau at six, played through `legal_actions` and `apply`."""

    def __init__(self, seed: int, dealer: int = 0):
        cards = list(PACK)
        random.Random(seed).shuffle(cards)
        self.seats = seats = [(dealer + 1 + i) % PLAYERS for i in range(PLAYERS)]  # from Vorhand
        self.hands = {s: cards[4 * i : 4 * i + 4] + cards[30 + 3 * i : 33 + 3 * i] for i, s in enumerate(seats)}
        self.talon = cards[24:30] + cards[48:54]
        self.events: list[dict[str, Any]] = [{"type": "deal", "dealer": dealer, "seed": seed}]
        self.history: list[tuple[int, Action]] = []
        self.result: tuple[Any, ...] | None = None
        self.is_over = False
        self._steps = self._deal()
        self.to_act: int | None
        self.to_act, self._offer = next(self._steps)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions `seat` (default: the seat to act) may take now, as a new list."""
        if seat is not None and seat != self.to_act:
            return []
        return [*self._offer]

    def apply(self, seat: int, action: Action) -> list[dict[str, Any]]:
        """Take `action` of `seat` if it is offered; returns the events it caused."""
        if seat != self.to_act or (action not in self._offer and not self._fills_template(action)):
            raise IllegalActionError(f"seat {seat} may not take {action!r} now")
        start = len(self.events)
        self.history.append((seat, action))
        try:
            self.to_act, self._offer = self._steps.send(action)
        except StopIteration:
            self.to_act, self._offer, self.is_over = None, (), True
        return self.events[start:]

    def _fills_template(self, action: Action) -> bool:
        """Whether `action` is a discard that the template offered allows: 12 distinct cards of
        those it may be made from (asked only of an action not offered as it is)."""
        offered = self._offer[0] if len(self._offer) == 1 else None
        if not isinstance(offered, dict) or not isinstance(offered.get("discard"), dict):
            return False
        cards = action.get("discard") if isinstance(action, dict) else None
        template = offered["discard"]
        return (
            isinstance(cards, list)
            and len(set(cards)) == len(cards) == template["count"]
            and set(cards) <= set(template["from"])
        )

    def _deal(self) -> Generator[Turn, Action, None]:
        """The deal's steps, stopping at every choice with the seat and what it is offered; the
        rules are breitnau_by_hand.py's, each step written down as an event."""
        hands, events = self.hands, self.events
        events.append({"type": "phase", "phase": "auction"})
        contract, declarer = yield from self._auction()
        if contract is None or declarer is None:
            events.append({"type": "thrown_in"})
            self.result = ("thrown_in", None, None, None, [0] * PLAYERS)
            events.append({"type": "settlement", "outcome": "thrown_in", "payments": [0] * PLAYERS})
            return
        events.append({"type": "contract", "contract": contract, "declarer": declarer})
        hand, talon, aside = hands[declarer], self.talon, []
        if contract != "solo":
            hand += talon
            talon = []
        if len(FIVE_POINTERS.intersection(hand)) == 7:
            self._settle(contract, declarer, list(PACK), [], "claimed")
            return
        if contract != "solo":
            allowed = [c for c in hand if c not in FIVE_POINTERS]
            # Same draws: a choice of 13 cards to discard 12 from is listed; a larger one is a template.
            if len(allowed) == 13:
                action = yield declarer, [{"discard": list(c)} for c in combinations(allowed, 12)]
            else:
                action = yield declarer, ({"discard": {"count": 12, "from": allowed}},)
            aside = action["discard"]
            for card in aside:
                hand.remove(card)
            events.append({"type": "discard", "seat": declarer, "count": 12})
        declarer_cards, defender_cards = yield from self._tricks(declarer)
        if declarer_cards:  # the Dapp (or the discards) goes to the opponents when the declarer takes no trick
            declarer_cards += talon + aside
        else:
            defender_cards += talon + aside
        self._settle(contract, declarer, declarer_cards, defender_cards, "played")

    def _auction(self) -> Generator[Turn, Action, tuple[str | None, int | None]]:
        """breitnau_by_hand.auction, each call asked of the seat and written down."""
        events = self.events

        def asked(seat: int, bid: str) -> Generator[Turn, Action, bool]:
            call: str = yield seat, ("pass", bid)
            events.append({"type": "call", "seat": seat, "call": call})
            return call != "pass"

        for seat in self.seats:
            if (yield from asked(seat, "solo")):
                return "solo", seat
        holder: int | None = None
        for seat in self.seats:
            if holder is None:
                if (yield from asked(seat, "dappen")):
                    holder = seat
            elif (yield from asked(seat, "strecken")):
                challenger, level = seat, 1
                while True:
                    if not (yield from asked(holder, "selber")):
                        return DAPPEN_LADDER[level], challenger
                    if level == 2 or not (yield from asked(challenger, "stupfen")):
                        return DAPPEN_LADDER[level], holder
                    level = 2
        return ("dappen", holder) if holder is not None else (None, None)

    def _tricks(self, declarer: int) -> Generator[Turn, Action, tuple[list[str], list[str]]]:
        """The seven tricks, the declarer leading: the cards each side won."""
        seats, hands, events = self.seats, self.hands, self.events
        events.append({"type": "phase", "phase": "play", "leader": declarer})
        declarer_cards: list[str] = []
        defender_cards: list[str] = []
        leader = declarer
        for number in range(1, TRICKS + 1):
            at = seats.index(leader)
            order = seats[at:] + seats[:at]
            trick: list[str] = []
            led = ""
            for seat in order:
                hand = hands[seat]
                if trick:  # follow suit, else trump, else any card
                    offer = (
                        [PLAYS[c] for c in hand if FOLLOW[c] == led]
                        or [PLAYS[c] for c in hand if FOLLOW[c] == "T"]
                        or [PLAYS[c] for c in hand]
                    )
                else:
                    offer = [PLAYS[c] for c in hand]
                card = (yield seat, offer)["play"]
                hand.remove(card)
                events.append(PLAY_EVENTS[seat][card])
                if not trick:
                    led = FOLLOW[card]
                trick.append(card)
            best = max(range(PLAYERS), key=lambda i: POWER[trick[i]] if FOLLOW[trick[i]] in (led, "T") else 0)
            leader = order[best]
            events.append({"type": "trick", "number": number, "cards": trick[:], "seats": order, "winner": leader})
            (declarer_cards if leader == declarer else defender_cards).extend(trick)
        return declarer_cards, defender_cards

    def _settle(
        self, contract: str, declarer: int, declarer_cards: list[str], defender_cards: list[str], outcome: str
    ) -> None:
        """breitnau_by_hand.settle, with the result kept and the settlement written down."""
        self.result = result = settle(contract, declarer, self.seats, declarer_cards, defender_cards, outcome)
        points, payments = result[3], result[4]
        assert points is not None
        self.events.append(
            {
                "type": "settlement",
                "outcome": outcome,
                "contract": contract,
                "declarer": declarer,
                "points": list(points),
                "payments": payments[:],
            }
        )
