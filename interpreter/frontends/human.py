"""Playing a seat in the terminal: the hand sorted and named, legal choices numbered, the tricks as
they fall and the settlement.

The person sees what the seat may see (`game.view(seat)`) and the public events; the other seats
are played by a bot. A choice is made by its number, or by naming it: a call (`pass`), a card id
(`T22`) or a card's alias (`Gstiess`).
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from interpreter.errors import IllegalActionError, InvalidActionError, TarockError
from interpreter.frontends.log import describe_event
from interpreter.language.model import TRUMP, Deck


def named_hand(cards: list[str], deck: Deck) -> str:
    """A hand grouped by suit, high to low, named trumps by name:
    `T: Gstieß 19 6 Geiß | ♣: K 9 | ♥: A 4`."""
    suits = list(deck.suit_names)
    groups: dict[str, list[str]] = {}
    for card in sorted(cards, key=lambda c: (suits.index(deck.suit[c]), -deck.rank[c])):
        title = deck.name_of(card)
        shown = title if deck.suit[card] == TRUMP and not title.isdigit() else card[1:]
        groups.setdefault(deck.suit[card], []).append(shown)
    return " | ".join(f"{'T' if s == TRUMP else deck.suit_symbols[s]}: {' '.join(r)}" for s, r in groups.items()) or "—"


def label(card: str, deck: Deck) -> str:
    """`T22 (Gstieß)`, `CK (König ♣)`, `T7`."""
    title = deck.name_of(card)
    return card if title == card[1:] else f"{card} ({title})"


class HumanPlayer:
    def __init__(self, game, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout):
        self.game, self.stdin, self.stdout = game, stdin, stdout

    def say(self, text: str) -> None:
        print(text, file=self.stdout, flush=True)

    def run(self, seats: set[int], bot) -> None:
        game = self.game
        self.say(
            f"{game.ruleset.title}: {game.players} at the table, dealer seat {game.dealer}; you play seat(s) {sorted(seats)}"
        )
        shown = 0
        while not game.is_over:
            shown = self._tell(shown, seats)
            seat = game.to_act
            action = self.ask(seat) if seat in seats else bot.choose(game, seat)
            try:
                game.apply(seat, action)
            except (IllegalActionError, InvalidActionError) as exc:
                self.say(f"  refused: {exc}")
        self._tell(shown, seats)

    def _tell(self, shown: int, seats: set[int]) -> int:
        """Say what happened since event `shown`: calls, cards as they fall, tricks, settlement."""
        game = self.game
        deck = game.ruleset.deck
        for event in game.events[shown:]:
            if event["type"] == "play":
                # Each card as it falls (the whole trick follows when it is complete).
                who = "you" if event["seat"] in seats and len(seats) == 1 else f"seat {event['seat']}"
                self.say(f"    {who}: {label(event['card'], deck)}")
                continue
            text = describe_event(event, game)
            if text:
                self.say(text)
        return len(game.events)

    def ask(self, seat: int) -> Any:
        game = self.game
        deck = game.ruleset.deck
        view = game.view(seat)
        role = ""
        if view["declarer"] is not None:
            role = (
                " (you are the lone player)" if view["declarer"] == seat else f" (lone player: seat {view['declarer']})"
            )
        self.say(f"\nSeat {seat}, your hand{role}: {named_hand(view['hand'], deck)}")
        trick = view["tricks"][-1] if view["tricks"] else None
        if trick and trick["cards"] and trick["winner"] is None:
            self.say(
                "  on the table: "
                + ", ".join(f"seat {s} {label(c, deck)}" for s, c in zip(trick["seats"], trick["cards"], strict=False))
            )
        legal = game.legal_actions(seat)
        order = {card: i for i, card in enumerate(view["hand"])}
        if all(isinstance(a, dict) and "play" in a for a in legal):
            legal = sorted(legal, key=lambda a: order.get(a["play"], len(order)))  # as the hand is shown
        if len(legal) == 1 and isinstance(legal[0].get("discard") if isinstance(legal[0], dict) else None, dict):
            return {"discard": self._ask_discard(legal[0]["discard"])}
        for number, action in enumerate(legal, 1):
            self.say(f"  {number}. {self._label(action)}")
        while True:
            line = self._read()
            if line.isdigit() and 1 <= int(line) <= len(legal):
                return legal[int(line) - 1]
            card = self._card(line)
            for action in legal:
                if line == action or (isinstance(action, dict) and card is not None and action.get("play") == card):
                    return action
            self.say(f"  type a number from 1 to {len(legal)}")

    def _ask_discard(self, template: dict) -> list[str]:
        deck = self.game.ruleset.deck
        allowed = template["from"]
        count = template["count"]
        forbidden = ", ".join(label(c, deck) for c in template["forbidden"]) or "none"
        self.say(f"  put {count} cards aside (not: {forbidden}); type their numbers or ids:")
        for number, card in enumerate(allowed, 1):
            self.say(f"  {number}. {label(card, deck)}")
        while True:
            words = self._read().replace(",", " ").split()
            cards = []
            for word in words:
                if word.isdigit() and 1 <= int(word) <= len(allowed):
                    cards.append(allowed[int(word) - 1])
                else:
                    cards.append(self._card(word) or word)
            if len(cards) == count:
                return cards
            self.say(f"  that is {len(cards)} cards; {count} are needed")

    def _card(self, word: str) -> str | None:
        deck = self.game.ruleset.deck
        if word in deck.points:
            return word
        if word.upper() in deck.points:
            return word.upper()
        return deck.aliases.get(word.lower())

    def _label(self, action: Any) -> str:
        rs = self.game.ruleset
        deck = rs.deck
        if isinstance(action, str):
            return rs.call_title(action) + (f" ({action})" if rs.call_title(action) != action else "")
        if "play" in action:
            return label(action["play"], deck)
        if "announce" in action:
            cards = ", ".join(label(c, deck) for c in action.get("cards", []))
            return f"announce {action['announce']}" + (f" with {cards}" if cards else "")
        if "discard" in action and isinstance(action["discard"], list):
            return "put aside " + ", ".join(label(c, deck) for c in action["discard"])
        return str(action)

    def _read(self) -> str:
        self.stdout.write("> ")
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise TarockError("input ended before the deal was over")
        return line.strip()
