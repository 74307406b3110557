"""The Excuse: a card its holder may play to any trick instead of what following asks, and that
takes no part in the trick it lies in (`play.excuse`; the Excuse of French Tarot, the Fool or
Matto of the Italian games, the Sküs of Tarock l'Hombre).

It is one rule of trick play (engine/playrules.py), in scope for the turns of the card's holder
(following is worked out without it, and it is offered beside whatever following allowed) and, once the card has been led, for the turns
of the others in that trick (the card after it fixes the suit to follow). It judges the tricks it
may lie in: the trick goes as the base tables say with the card left out, by the same steps as a
withheld Gstieß shown in the last trick (`TrickPlay.suitless`, `TrickPlay.powerless`). Whose the
card is afterwards is the settlement's (engine/settlement.py, with withhold's compensation).
A deal whose ruleset has no Excuse never meets this rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from interpreter.engine.playrules import FOLLOW, PlayRule, fixing
from interpreter.language.model import Excuse

if TYPE_CHECKING:
    from interpreter.engine.play import Trick, TrickPlay


@dataclass(frozen=True)
class Excused(PlayRule):
    """The Excuse (`rule.card`): its holder may play it at any turn, whatever following allows;
    it never wins a trick, and led, the next card fixes the suit to follow. In scope for its
    holder's turns, and for every turn of a trick it leads."""

    rule: Excuse
    stage: ClassVar[int] = FOLLOW  # it widens what following allowed; a rule that decides the duty (a schedule) stands
    origin: str = "play.excuse"

    def start(self, play: TrickPlay) -> None:
        play.excused = frozenset({self.rule.card})

    def applies(self, play: TrickPlay, seat: int) -> bool:
        card = self.rule.card
        if card in play.hands[seat]:
            return True
        led = play.trick.cards
        return bool(led) and led[0] == card

    def usable(self, play: TrickPlay, seat: int, usable: list[str]) -> list[str]:
        # Following is worked out without it: it belongs to no suit a player must follow or
        # trump with (a holder whose only trump it is is void in trumps), and is offered beside.
        card = self.rule.card
        if card in usable and len(usable) > 1:
            return [c for c in usable if c != card]
        return usable

    def led(self, play: TrickPlay, seat: int, led: list[str], usable: list[str]) -> list[str]:
        return fixing(play, led)

    def allow(self, play: TrickPlay, seat: int, allowed: list[str], usable: list[str]) -> list[str]:
        card = self.rule.card
        hand = play.hands[seat]
        if card in hand and card not in allowed:
            return [c for c in hand if c == card or c in allowed]  # (in the hand's order)
        return allowed

    def why(self, play: TrickPlay, seat: int, card: str, allowed: list[str], legal: list[str]) -> str:
        # Asked only where a rule that decides the cards of this turn, or narrows them (a
        # schedule of the first tricks, a card kept back), left it out: it excuses from following alone.
        return (
            f"{play.deck.name_of(card)} is excused from following suit and trumping, not from the rule of "
            f"this turn: you may play {', '.join(legal)}"
        )

    def after_play(self, play: TrickPlay, seat: int, card: str) -> None:
        # Led, it concerns the turns of everyone else in this trick: their scopes are worked out again.
        if card == self.rule.card:
            play.rescope()

    def winner(self, play: TrickPlay, trick: Trick) -> int | None:
        rule = self.rule
        if not rule.slam or trick.cards[0] != rule.card or trick is not play.tricks[-1]:
            return None
        if len(play.tricks) < play.n_tricks:
            return None
        # The slam: led to the last trick by a side that took every trick before it, it wins it.
        # Otherwise the tables judge the trick without it (TrickPlay.powerless and suitless).
        team, leader = play.team, trick.leader
        side = {s for s in play.seats if (s in team) == (leader in team)} if team else {leader}
        return 0 if all(t.winner in side for t in play.tricks[:-1]) else None

    def judges(self, play: TrickPlay) -> bool:
        card = self.rule.card
        return card in play.trick.cards or any(card in play.hands[s] for s in play.seats)
