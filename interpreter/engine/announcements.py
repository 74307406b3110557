"""The declarer's announcement before the first lead: cards laid out for the last tricks (Ulti)
or a declaration that changes the aim of the game (Tout, Pfeif' frei). One action: an
announcement, or `pass`.
"""

from __future__ import annotations

import itertools

from interpreter.engine.actions import Action, ActionJson, Announce, Call
from interpreter.engine.auction import PASS
from interpreter.engine.table import Table
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


def declarer_announces(ruleset: Ruleset, contract: Contract) -> bool:
    """Whether the declarer of `contract` is asked for an announcement before the first lead:
    some announcement of the ruleset may be made in it (worked out once per contract)."""
    key = ("declarer_announces", contract.name)
    found: bool | None = ruleset.derived.get(key)
    if found is None:
        found = ruleset.derived[key] = any(
            a.contracts is None or contract.name in a.contracts for a in ruleset.announcements.values()
        )
    return found


class DeclarerAnnouncement:
    """The declarer's one chance to announce, between the exchange and the first lead."""

    read_only_offer = False  # its announcements are new each time (a list of cards)

    def __init__(self, ruleset: Ruleset, contract: Contract, declarer: int, table: Table):
        self.ruleset, self.contract, self.declarer, self.table = ruleset, contract, declarer, table
        self.cards = table.cards
        self.laid: list[tuple[str, str]] = []  # (announcement, card) laid out face up
        self.declared: list[str] = []  # declarations made (Tout)
        self.done = False
        self.to_act: int | None = declarer

    @property
    def declarations(self) -> tuple[Declaration, ...]:
        found = (self.ruleset.announcements[name].declares for name in self.declared)
        return tuple(d for d in found if d is not None)

    # -- as a stage of the deal ----------------------------------------------------------------
    def offer(self, seat: int) -> list[ActionJson]:
        if seat != self.to_act:
            return []
        return [PASS, *announcement_choices(self.ruleset, self.contract, self.cards.hands[seat])]

    def legal(self, seat: int) -> list[ActionJson]:
        return self.offer(seat)

    def canonical(self, seat: int, parsed: Action) -> ActionJson | None:
        """The offered action `parsed` is: pass, or an announcement of the same cards in any order."""
        if isinstance(parsed, Call):
            return PASS if parsed.name == PASS and seat == self.to_act else None
        if not isinstance(parsed, Announce):
            return None
        cards = set(parsed.cards)
        for action in self.offer(seat):
            if (
                isinstance(action, dict)
                and action["announce"] == parsed.name
                and set(action["cards"]) == cards
                and len(action["cards"]) == len(parsed.cards)
            ):
                return action
        return None

    def refusal(self, seat: int, parsed: Action) -> str:
        """Why the declarer may not announce `parsed` now."""
        if not isinstance(parsed, Announce):
            return f"it is time for an announcement or pass (announce), not {parsed.describe()}"
        announcement = self.ruleset.announcements[parsed.name]
        if announcement.declares is not None:
            return f"{parsed.name} cannot be declared in {self.contract.title}"
        allowed = announcement.cards
        wrong = [c for c in parsed.cards if c not in allowed]
        if wrong:
            rank = self.ruleset.deck.rank
            return (
                f"{', '.join(wrong)} cannot be laid out for {parsed.name}; only "
                f"{', '.join(sorted(allowed, key=lambda c: -rank[c]))}"
            )
        missing = [c for c in parsed.cards if c not in self.cards.hands[seat]]
        if missing:
            return f"you do not hold {', '.join(missing)}"
        if not parsed.cards or len(set(parsed.cards)) != len(parsed.cards):
            return "lay out one or more different cards, or pass"
        return f"{parsed.name} cannot be announced in {self.contract.title}"

    def take(self, seat: int, action: ActionJson) -> bool:
        """Do the declarer's offered announcement or pass; the round is then over."""
        self.done = True
        self.to_act = None
        if type(action) is str:
            self.table.history.append((seat, PASS))
            self.table.events.append({"type": "call", "seat": seat, "call": PASS, "phase": "announce"})
            return True
        assert isinstance(action, dict)
        name, cards = action["announce"], list(action.get("cards", ()))
        self.table.history.append((seat, {"announce": name, "cards": list(cards)}))
        announcement = self.ruleset.announcements[name]
        if announcement.declares is not None:
            self.declared.append(name)
            if announcement.declares.releases_exposed:
                self.cards.exposed.clear()  # taken back into the hand: no lead duty, full power
            cards = []
        else:
            self.laid = [(name, c) for c in cards]
        self.table.events.append({"type": "announce", "seat": seat, "announcement": name, "cards": cards})
        return True
