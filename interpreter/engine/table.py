"""What the stages of one deal share: the cards where they lie, what was done, and what became known.

Every stage of a deal (the auction, the exchange, the announcements, the trick play) reads and
changes the same `Table`: it holds no stage and no game, so that a finished deal is no reference
cycle and is freed, without Python's cycle collector, when it is dropped.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine.actions import ActionJson


class Cards:
    """Where the cards of a deal are, shared by every stage of it."""

    __slots__ = ("aside", "exposed", "hands", "talon")

    def __init__(
        self,
        hands: dict[int, list[str]],
        talon: list[str],
        aside: list[str] | None = None,
        exposed: list[str] | None = None,
    ):
        self.hands = hands  # by seat; [] for a dealer who sits out
        self.talon = talon
        self.aside = aside if aside is not None else []  # discarded (by the declarer, or forced)
        self.exposed = exposed if exposed is not None else []  # kept face up by the declarer: they never win

    def __repr__(self) -> str:
        return f"Cards(hands={self.hands!r}, talon={self.talon!r}, aside={self.aside!r}, exposed={self.exposed!r})"


class Table:
    """The cards, the history (every action as (seat, action), in order), the events, and the
    facts that became public as the deal went on: whether everybody knows the sides, the talon
    cards added to tricks (trick number -> cards) and a forfeit of the rest of the play
    (bonus, trick number, side)."""

    __slots__ = ("cards", "events", "forfeit", "history", "partner_public", "talon_added")

    def __init__(self, cards: Cards, events: list[dict[str, Any]], history: list[tuple[int, ActionJson]]):
        self.cards = cards
        self.events = events
        self.history = history
        self.partner_public = False
        self.talon_added: dict[int, list[str]] = {}
        self.forfeit: tuple[str, int, str] | None = None

    @property
    def talon(self) -> list[str]:
        return self.cards.talon
