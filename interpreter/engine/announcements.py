"""The declarer's announcement before the first lead: cards laid out for the last tricks (Ulti)
or a declaration that changes the aim of the game (Tout, Pfeif' frei). One action: an
announcement, or `pass`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from interpreter.engine.actions import Action, ActionJson, Announce, Call
from interpreter.engine.auction import PASS
from interpreter.engine.exchange import Cards
from interpreter.errors import IllegalActionError
from interpreter.language.model import Contract, Declaration, Ruleset


def announcement_choices(ruleset: Ruleset, contract: Contract, hand: list[str]) -> list[ActionJson]:
    """Every announcement the declarer may make with this hand in this contract."""
    rank = ruleset.deck.rank
    choices: list[ActionJson] = []
    for name, announcement in ruleset.announcements.items():
        if announcement.contracts is not None and contract.name not in announcement.contracts:
            continue
        if announcement.declares is not None:
            choices.append({"announce": name, "cards": []})
            continue
        held = sorted((c for c in hand if c in announcement.cards), key=lambda c: -rank[c])
        for size in range(1, len(held) + 1):
            choices += [{"announce": name, "cards": list(combo)} for combo in itertools.combinations(held, size)]
    return choices


class DeclarerAnnouncement:
    """The declarer's one chance to announce, between the exchange and the first lead."""

    def __init__(self, ruleset: Ruleset, contract: Contract, declarer: int, cards: Cards, emit: Callable[..., None]):
        self.ruleset, self.contract, self.declarer, self.cards, self.emit = ruleset, contract, declarer, cards, emit
        self.laid: list[tuple[str, str]] = []  # (announcement, card) laid out face up
        self.declared: list[str] = []  # declarations made (Tout)
        self.done = False

    @property
    def to_act(self) -> int | None:
        return None if self.done else self.declarer

    @property
    def declarations(self) -> tuple[Declaration, ...]:
        found = (self.ruleset.announcements[name].declares for name in self.declared)
        return tuple(d for d in found if d is not None)

    def legal(self, seat: int) -> list[ActionJson]:
        if seat != self.to_act:
            return []
        return [PASS, *announcement_choices(self.ruleset, self.contract, self.cards.hands[seat])]

    def apply(self, seat: int, parsed: Action) -> None:
        """Apply the declarer's announcement or pass; raises IllegalActionError, changing
        nothing, if it is not allowed."""
        if isinstance(parsed, Call) and parsed.name == PASS:
            self.emit(type="call", seat=seat, call=PASS, phase="announce")
            self.done = True
            return
        if not isinstance(parsed, Announce):
            raise IllegalActionError(
                f"it is time for an announcement or pass (announce), not {parsed.describe()}", seat
            )
        announcement = self.ruleset.announcements[parsed.name]
        hand = self.cards.hands[seat]
        if announcement.declares is not None:
            if {"announce": parsed.name, "cards": list(parsed.cards)} not in announcement_choices(
                self.ruleset, self.contract, hand
            ):
                raise IllegalActionError(f"{parsed.name} cannot be declared in {self.contract.title}", seat)
            self.declared.append(parsed.name)
            if announcement.declares.releases_exposed:
                self.cards.exposed.clear()  # taken back into the hand: no lead duty, full power
            self.emit(type="announce", seat=seat, announcement=parsed.name, cards=[])
            self.done = True
            return
        allowed = announcement.cards
        wrong = [c for c in parsed.cards if c not in allowed]
        if wrong:
            rank = self.ruleset.deck.rank
            raise IllegalActionError(
                f"{', '.join(wrong)} cannot be laid out for {parsed.name}; only "
                f"{', '.join(sorted(allowed, key=lambda c: -rank[c]))}",
                seat,
            )
        missing = [c for c in parsed.cards if c not in hand]
        if missing:
            raise IllegalActionError(f"you do not hold {', '.join(missing)}", seat)
        if not parsed.cards or len(set(parsed.cards)) != len(parsed.cards):
            raise IllegalActionError("lay out one or more different cards, or pass", seat)
        if announcement.contracts is not None and self.contract.name not in announcement.contracts:
            raise IllegalActionError(f"{parsed.name} cannot be announced in {self.contract.title}", seat)
        self.laid = [(parsed.name, c) for c in parsed.cards]
        self.emit(type="announce", seat=seat, announcement=parsed.name, cards=list(parsed.cards))
        self.done = True
