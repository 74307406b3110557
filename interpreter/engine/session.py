"""A session: deals one after another, the deal passing to the next seat, scores added up.

How a session ends is the ruleset's `session` rule: after a number of deals (a tournament's
2 × 24), or when a player asks to stop and the holder of a given card in the next deal has
dealt once more (Cego's "der Gstieß gibt ab").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.seeds import deal_seed
from interpreter.errors import IllegalActionError
from interpreter.language.model import Ruleset


class Session:
    def __init__(
        self,
        ruleset: Ruleset | str,
        players: int | None = None,
        dealer: int = 0,
        seed: int | None = None,
        options: Mapping[str, str] | None = None,
    ):
        if isinstance(ruleset, str):
            from interpreter.language.loader import load_ruleset

            ruleset = load_ruleset(ruleset, options)
        self.ruleset = ruleset
        self.players = players if players is not None else ruleset.table_sizes[0]
        self.dealer = dealer
        # A session given a seed deals reproducibly, deal i from a seed hashed from it and i
        # (engine/seeds.py); without one, every deal is shuffled from the operating system's
        # randomness.
        self.seed = seed
        self.scores = [0] * self.players
        self.deals: list[Game] = []
        self.ending_requested_by: int | None = None
        self.last_dealer: int | None = None  # who deals the last deal, once known
        self.game: Game | None = None
        self.pot: int | None = 0 if ruleset.pot_ante is not None else None  # carried from deal to deal

    @property
    def over(self) -> bool:
        rule = self.ruleset.session
        if rule.deals is not None and len(self.deals) >= rule.deals and (self.game is None or self.game.is_over):
            return True
        return (
            self.last_dealer is not None
            and bool(self.deals)
            and self.deals[-1].dealer == self.last_dealer
            and self.deals[-1].is_over
        )

    def next_deal(self, deal: Mapping[str, Any] | None = None) -> Game:
        """Start the next deal (the previous one must be over)."""
        if self.game is not None and not self.game.is_over:
            raise IllegalActionError("finish the current deal first")
        if self.over:
            raise IllegalActionError("the session is over")
        if self.deals:
            self.dealer = (self.dealer + 1) % self.players  # the deal passes on in the order of play
        self.game = Game(
            self.ruleset,
            players=self.players,
            dealer=self.dealer,
            seed=None if deal or self.seed is None else deal_seed(self.seed, len(self.deals)),
            deal=deal,
            pot=self.pot,
        )
        self.deals.append(self.game)
        card = self.ruleset.session.holder_of
        if self.ending_requested_by is not None and self.last_dealer is None and card is not None:
            # The first deal after the request: whoever holds the card deals the last one. If it
            # lies in the talon, nobody holds it: look again at the next deal.
            self.last_dealer = next((s for s in range(self.players) if card in self.game.initial_hands[s]), None)
        return self.game

    def finish_deal(self) -> None:
        """Add the deal's payments to the scores."""
        result = self.game.result if self.game is not None else None
        if result is None:
            raise IllegalActionError("the deal is not over: there is nothing to add up yet")
        self.scores = [a + b for a, b in zip(self.scores, result.payments, strict=False)]
        if self.pot is not None:
            self.pot += result.pot

    def request_end(self, seat: int) -> None:
        """A player asks to end the session ("der Gstieß gibt ab")."""
        if self.ruleset.session.holder_of is None:
            raise IllegalActionError(
                f"{self.ruleset.title} ends after {self.ruleset.session.deals} deals, not on request"
            )
        self.ending_requested_by = seat
