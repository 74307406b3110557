"""Every action a ruleset can produce, numbered: the ids of `Game.push` and of the learning interface.

Every action has an id from 0 to `num_actions - 1`, derived from the compiled ruleset alone (its
pack, calls, announcements, bonuses and trump choices). The ids come in sections in a fixed order
(`SECTIONS`): a kind of action the engine learns later becomes a new section at the end, so the
ids of the existing ones do not change, and a ruleset that does not use a kind has an empty
section. Within a section the order is the ruleset's: cards in the deck's order, calls as the
auction knows them (`pass` first), bonuses as the ruleset lists them. A discard or keep of several
cards is taken card by card, one id per card ("discard C7"). engine/encoding.py documents the
sections and adds the observations.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from interpreter.engine.actions import ActionJson, announce_actions, choose_actions, known_calls, play_actions
from interpreter.engine.announcing import kontra_actions
from interpreter.errors import InvalidActionError
from interpreter.language.model import (
    PART_NAMES,
    CallCard,
    CallPartner,
    Discard,
    ForcedDiscard,
    Give,
    Keep,
    Ruleset,
    TakeTalon,
)

# The sections of ids, in order. Append new ones at the end: the ids of the others stay.
SECTIONS = (
    "play",
    "call",
    "discard",
    "keep",
    "call_card",
    "give",
    "choose",
    "announce",
    # Added with Königrufen's round of announcements, kontra and partner calls:
    "kontra",  # {kontra: game} and {kontra: BONUS}
    "bonus",  # {announce: BONUS, cards: []}: a bonus announced in the round of announcements
    "partner",  # {call_card: CARD} calling a partner (CallPartner), unless a call_card above has it
    "choice",  # {choose: NAME}: an unnamed partner call, concede, a part of the talon
    "round",  # the call that ends a turn of the round of announcements, unless a call above has it
)
# The kind of action of each section whose steps are not of the section's own name.
KIND_OF = {"bonus": "announce", "partner": "call_card", "choice": "choose", "round": "call"}

Step = tuple[
    str, Any
]  # (kind, what): ("play", "T21"), ("call", "pass"), ("discard", "C7"), ("announce", (name, cards))


class ActionIds:
    """The action ids of a ruleset at a table of `players` (made once: `of`)."""

    def __init__(self, ruleset: Ruleset, players: int):
        active = ruleset.active_at(players)
        # The rules for this number of players (Cego for three has games of its own).
        self.ruleset = ruleset = ruleset.for_players(active)
        self.players = players
        self.cards: tuple[str, ...] = tuple(ruleset.deck.cards)
        self.calls: tuple[str, ...] = tuple(known_calls(ruleset))
        self.contracts: tuple[str, ...] = tuple(ruleset.contracts)
        members = _members(ruleset, self.cards, self.calls)
        # What the round of announcements shows: who announced which bonus, and the items doubled.
        self.bonuses: tuple[str, ...] = tuple(name for name, _ in members["bonus"])
        self.kontra_items: tuple[str, ...] = tuple(members["kontra"])
        self.steps: list[Step] = []
        seen: set[Step] = set()
        self.section: dict[str, range] = {}
        for section in SECTIONS:
            kind = KIND_OF.get(section, section)
            # A later section holds only what no earlier one has (a card called both ways).
            own = [what for what in members[section] if (kind, what) not in seen]
            self.section[section] = range(len(self.steps), len(self.steps) + len(own))
            for what in own:
                self.steps.append((kind, what))
                seen.add((kind, what))
        self.ids: dict[Step, int] = {step: i for i, step in enumerate(self.steps)}
        self.num_actions = len(self.steps)
        self._shared = shared = _shared_actions(ruleset)
        # Each id's action where the game takes it as it is, shared (a call, a card played, a
        # kontra, a bonus announced); None where it is made anew (`action_of`) or is one card of
        # a discard or keep.
        self.ready: list[ActionJson | None] = [
            what if kind == "call" else shared.get((kind, what)) for kind, what in self.steps
        ]
        # The id of each action the game hands out as it is: a call by its words, a shared action
        # by its identity (they live as long as this table).
        self._plain: dict[object, int] = {
            (action if isinstance(action, str) else id(action)): i
            for i, action in enumerate(self.ready)
            if action is not None
        }
        # The same by the identity of each alone (`ready` keeps them alive, so that no other
        # object living meanwhile has the identity of one): an offer of the game's own actions
        # is mapped to its ids without a test of each action's type.
        self.identity: dict[int, int] = {id(action): i for i, action in enumerate(self.ready) if action is not None}
        self.ready_by_id: dict[int, ActionJson] = {
            i: action for i, action in enumerate(self.ready) if action is not None
        }

    @classmethod
    def of(cls, ruleset: Ruleset, players: int) -> ActionIds:
        """The ids of `ruleset` for `players`, made once per ruleset and table size."""
        key = ("action_ids", players)
        found = ruleset.derived.get(key)
        if found is None:
            found = ruleset.derived[key] = cls(ruleset, players)
        assert isinstance(found, ActionIds)
        return found

    def step_id(self, step: Step) -> int:
        try:
            return self.ids[step]
        except KeyError:
            raise InvalidActionError(f"{step[0]} {step[1]!r} is no action of {self.ruleset.name}") from None

    def step(self, action_id: int) -> Step:
        if type(action_id) is not int or not 0 <= action_id < self.num_actions:
            raise InvalidActionError(f"no action id {action_id!r}: ids are 0 to {self.num_actions - 1}")
        return self.steps[action_id]

    def steps_of(self, action: ActionJson) -> list[Step]:
        """A whole action as steps: one, or one per card of a discard or keep."""
        if isinstance(action, str):
            return [("call", action)]
        (kind,) = [k for k in action if k in SECTIONS]
        value = action[kind]
        if kind in ("discard", "keep"):
            return [(kind, card) for card in value]
        if kind == "announce":
            return [("announce", (value, tuple(action.get("cards", ()))))]
        return [(kind, value)]

    def action_ids(self, action: ActionJson) -> list[int]:
        """The ids of a concrete action, in the order they are applied."""
        return [self.step_id(step) for step in self.steps_of(action)]

    def action_of(self, action_ids: Sequence[int]) -> ActionJson:
        """The action these ids make, in protocol form: the inverse of `action_ids` (one id, or
        the ids of the cards of one discard or keep)."""
        steps = [self.step(action_id) for action_id in action_ids]
        kinds = {kind for kind, _ in steps}
        if len(kinds) != 1 or (len(steps) > 1 and not kinds <= {"discard", "keep"}):
            raise InvalidActionError(f"ids {list(action_ids)} are not the steps of one action")
        kind, what = steps[0]
        if kind in ("discard", "keep"):
            return {kind: [card for _, card in steps]}
        if kind == "call":
            return str(what)
        if kind == "announce":
            name, cards = what
            return {"announce": name, "cards": list(cards)}
        return {kind: what}

    def action(self, action_ids: Sequence[int]) -> ActionJson:
        """`action_of`, as the game hands it out where it has one shared action for it (a card
        played, a kontra, a bonus announced): what `Game.push` takes."""
        if len(action_ids) == 1:
            shared = self._shared.get(self.steps[action_ids[0]])
            if shared is not None:
                return shared
        return self.action_of(action_ids)

    def legal(self, actions: Iterable[ActionJson], chosen: Sequence[str] = ()) -> list[int]:
        """The ids of `actions` (a seat's legal actions), ascending; a discard or keep as the ids
        of each card that can still complete one of them after the cards `chosen` so far."""
        if not chosen:
            found = self.offered(actions)
            if found is not None:
                return found
        ids: set[int] = set()
        # The cards of the discards or keeps that can still be completed, by kind, gathered
        # first and numbered once (a keep of 2 cards of 11 comes as 55 lists of the same cards:
        # each kind's set made once, not one set made per list to be thrown away).
        cards: dict[str, set[str]] = {"discard": set(), "keep": set()}
        need = set(chosen)
        for action in actions:
            if isinstance(action, dict):
                kind = "discard" if "discard" in action else "keep" if "keep" in action else None
                if kind is not None:
                    value = action[kind]
                    if isinstance(value, dict):  # a template: any `count` of `from`
                        cards[kind].update(value["from"])
                    elif not need or need.issubset(value):
                        cards[kind].update(value)
                    continue
            if not chosen:
                ids.update(self.action_ids(action))
        for kind, members in cards.items():
            ids.update(self.ids[kind, c] for c in members - need)
        return sorted(ids)

    def offers(self, actions: Iterable[ActionJson], kind: str, card: str) -> bool:
        """Whether `legal(actions)` lists the id of `card` as the first card of a `kind`
        ("discard" or "keep"): whether one of the discards or keeps of that kind among
        `actions` has it; asked without listing them all (a keep of 2 cards of 11 comes as 55)."""
        for action in actions:
            if isinstance(action, dict) and kind in action:
                value = action[kind]
                if card in (value["from"] if isinstance(value, dict) else value):
                    return True
        return False

    def offered(self, actions: Iterable[ActionJson]) -> list[int] | None:
        """The ids of `actions`, ascending, where each is one step the game hands out as it is
        (a call, or a shared action of one key: a card played, a kontra), so that `ready` holds
        each id's action; None where one is not (a discard, an action made anew)."""
        identity, ready = self.identity, []
        try:
            for action in actions:
                ready.append(identity[id(action)])
        except KeyError:  # a call in words of its own, or an action made anew
            return self._plain_ids(actions)
        ready.sort()
        return ready

    def _plain_ids(self, actions: Iterable[ActionJson]) -> list[int] | None:
        """`offered`'s answer where an action is not one of the game's own objects (a call in
        words of its own, an action copied): each numbered by what it says."""
        plain, found = self._plain, []
        for action in actions:
            action_id = plain.get(action if type(action) is str else id(action))
            if action_id is None:
                return None
            found.append(action_id)
        found.sort()
        return found


def _members(ruleset: Ruleset, cards: tuple[str, ...], calls: tuple[str, ...]) -> dict[str, list[Any]]:
    """What each section may hold, before the sections take out what an earlier one has."""
    steps = {type(step) for contract in ruleset.contracts.values() for step in contract.exchange}
    trumps = {suit for contract in ruleset.contracts.values() for suit in contract.trump_choice}
    choices = [name for suit, name in ruleset.deck.suit_names.items() if suit in trumps]
    if ruleset.accusation is not None:
        choices.append("accuse")

    def cards_if(*kinds: type) -> list[str]:
        return list(cards) if steps.intersection(kinds) else []

    return {
        "play": list(cards),
        "call": list(calls),
        "discard": cards_if(Discard, ForcedDiscard),  # a forced discard with nothing to force is chosen
        "keep": cards_if(Keep),
        "call_card": cards_if(CallCard),
        "give": cards_if(Give),
        "choose": choices,
        "announce": list(_announcements(ruleset)),
        **_round_and_partner(ruleset),
    }


def _shared_actions(ruleset: Ruleset) -> dict[Step, ActionJson]:
    """The steps the game hands out as one shared read-only action."""
    shared: dict[Step, ActionJson] = {("play", card): action for card, action in play_actions(ruleset).items()}
    shared.update({("kontra", item): action for item, action in kontra_actions(ruleset).items()})
    shared.update({("announce", (name, ())): action for name, action in announce_actions(ruleset).items()})
    shared.update({("choose", name): action for name, action in choose_actions(ruleset).items()})
    return shared


def _round_and_partner(ruleset: Ruleset) -> dict[str, list[Any]]:
    """The members of the sections added with Königrufen: kontra, announced bonuses, partner
    calls, the choices of partner calls, concessions and talons in parts, and the done call."""
    kontra = ["game"] if ruleset.kontra_game is not None else []
    announceable = [name for name, bonus in ruleset.bonuses.items() if bonus.announced is not None]
    if ruleset.kontra_bonuses is not None:
        kontra += announceable
    steps = [step for contract in ruleset.contracts.values() for step in contract.exchange]
    partner = [step for step in steps if isinstance(step, CallPartner)]
    called = set().union(*(step.allowed for step in partner))
    choices = [step.unnamed for step in partner if step.unnamed is not None]
    if any(contract.concede is not None for contract in ruleset.contracts.values()):
        choices.append("concede")
    parts = max((step.parts for step in steps if isinstance(step, TakeTalon)), default=1)
    if parts > 1:
        choices += PART_NAMES[:parts]
    if ruleset.deal_choice is not None:  # the dealer's choice of a deal plan
        choices += [ruleset.deal_choice.usual, *ruleset.deal_choice.plans]
    return {
        "kontra": kontra,
        "bonus": [(name, ()) for name in announceable] if ruleset.announcing is not None else [],
        "partner": [card for card in ruleset.deck.cards if card in called],
        "choice": list(dict.fromkeys(choices)),
        "round": [ruleset.announcing.done] if ruleset.announcing is not None else [],
    }


def _announcements(ruleset: Ruleset) -> Iterable[tuple[str, tuple[str, ...]]]:
    """Every announcement the ruleset knows, with every set of cards it may lay out."""
    rank = ruleset.deck.rank
    order = {c: i for i, c in enumerate(ruleset.deck.cards)}
    for name, announcement in ruleset.announcements.items():
        if announcement.declares is not None:
            yield name, ()
            continue
        cards = sorted(announcement.cards, key=lambda c: (-rank[c], order[c]))
        for size in range(1, len(cards) + 1):
            yield from ((name, combo) for combo in itertools.combinations(cards, size))
