"""What every stage of a deal offers the game: whose turn it is, what may be done, doing it, and why not.

`Game` is a facade over its stages (the auction, the exchange, the announcements, the trick
play): `legal_actions` is the stage's `offer`, and `apply` takes an action exactly when its
canonical form is among the actions the stage offers the seat (or fills a template it offers),
so that the two cannot disagree. A refusal asks the stage why.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from interpreter.engine.actions import Action, ActionJson


class Stage(Protocol):
    # Whether the actions `offer` hands out are read-only or immutable (shared actions, calls), so
    # that the game may keep the offer for the turn; else they are new each time (the exchange's
    # discards, which a caller may change).
    read_only_offer: bool

    @property
    def to_act(self) -> int | None:
        """The seat to act (None: nobody; the stage is over)."""
        ...

    def offer(self, seat: int) -> Sequence[ActionJson]:
        """The actions `seat` may take now, in protocol form, read-only or new; the same list
        may be handed out again while nothing changes: a caller copies it."""
        ...

    def canonical(self, seat: int, parsed: Action) -> ActionJson | None:
        """The offered action `parsed` is (or a template it fills, in the form `take` takes), or
        None when it is none of them."""
        ...

    def take(self, seat: int, action: ActionJson) -> bool:
        """Do an offered action (or one the caller vouches for: `Game.push`): its effect, its
        entry in the history and its events. Returns whether the stage is over."""
        ...

    def refusal(self, seat: int, parsed: Action) -> str:
        """Why `parsed` is not an action `seat` may take now, in words for the player."""
        ...
