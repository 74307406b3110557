"""Dealing: the pack shuffled and dealt by the ruleset's plan, or an explicit deal checked.

An explicit deal (from a record or a frontend) is checked card by card against the pack for the
number of players; each problem names its place in the deal. In a game recorded in the field a
deal of the wrong sizes may be a misdeal the table played with: when the ruleset penalises
misdeals, the deal stands as dealt and the misdeal is reported instead of refused.

A deal shuffled without a seed must be unguessable by a player who knows their own hand: it is
shuffled with the operating system's randomness, and there is no seed to search for. A seed
makes a deal reproducible (tests, simulations, records), and is as public as the deal it makes.
"""

from __future__ import annotations

import _random
import functools
import operator
import random
from collections.abc import Callable, Mapping, Sequence
from itertools import repeat
from typing import Any, NamedTuple

from interpreter.engine.actions import Action, ActionJson, Choose, FrozenAction, shown
from interpreter.engine.table import Table
from interpreter.errors import Problem, RecordError, did_you_mean
from interpreter.language.model import Packet, Redeal, Ruleset

DealPlace = tuple[str | int, ...]

SEEDS = range(2**64)  # the seeds a deal may be shuffled from; records and the protocol say the same


def seed_problem(seed: object) -> str | None:
    """Why `seed` is not a seed to shuffle from, or None when it is one."""
    if type(seed) is not int or seed not in SEEDS:
        return f"a seed is a whole number from 0 to 2**64 - 1, not {shown(seed)}"
    return None


class DealError(RecordError):
    """An explicit deal that is not a deal of this ruleset; `places` say where in it."""

    def __init__(self, places: list[tuple[DealPlace, str]]):
        self.places = places
        super().__init__(
            [
                Problem(
                    "deal",
                    None,
                    None,
                    "deal" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in place),
                    message,
                )
                for place, message in places
            ]
        )


class Dealt(NamedTuple):
    """The cards as dealt (a named tuple: made at every deal, where a dataclass costs more)."""

    hands: dict[int, list[str]]  # every seat at the table; [] for a dealer who sits out
    talon: list[str]
    seed: int | None  # the shuffle's seed, when shuffled from one
    misdeal: str | None = None  # what was wrong with a misdeal the table played
    plan: str | None = None  # the plan the dealer chose (deal.choice), where a deal given says it
    # Each seat's hand, then the talon, as dealt, never changed (the packets a shuffle is dealt
    # by, read-only): None where the game copies them from `hands` and `talon`.
    as_dealt: tuple[Sequence[str], ...] | None = None


def redeal_of(
    rules: Sequence[Redeal], seats: Sequence[int], hands: Mapping[int, list[str]]
) -> tuple[int, Redeal] | None:
    """The first hand, in order of play from Vorhand, that throws the deal in as dealt (the Petit
    alone), with the rule it meets; None when the deal stands."""
    for seat in seats:
        hand = {"hand": frozenset(hands[seat])}
        for rule in rules:
            if rule.when(hand):
                return seat, rule
    return None


_Take = Callable[[list[str]], Sequence[str]]
# How a shuffled pack is dealt: the pack, what each seat at the table takes of it, what the talon takes.
Dealing = tuple[tuple[str, ...], tuple[_Take, ...], _Take]


def dealing(ruleset: Ruleset, seats: Sequence[int], players: int, chosen: str | None = None) -> Dealing:
    """How the pack is dealt by the plan (`chosen`: the plan of `deal.choice` the dealer chose)
    to a table of `players` where `seats` play, in the order of play: made once per ruleset,
    table and plan, and kept in the ruleset's `derived`."""
    key = ("deal_order", tuple(seats), players, chosen)
    plan: Dealing | None = ruleset.derived.get(key)
    if plan is None:
        plan = ruleset.derived[key] = _deal_plan(ruleset, seats, players, chosen)
    return plan


def shuffle_and_deal(plan: Dealing, players: int, seed: int | None) -> Dealt:
    """The pack shuffled from `seed` (None: from the operating system's randomness) and dealt
    to a table of `players` as `plan` (`dealing`) says."""
    pack, takes, take_talon = plan
    cards = list(pack)
    if seed is None:
        random.SystemRandom().shuffle(cards)
    else:
        shuffle(cards, seed)
    # Every seat at the table in turn, as the packets give it its cards (one who sits out, none),
    # then the talon: kept as dealt, and copied into the hands and the talon that play changes.
    as_dealt = (*map(operator.call, takes, repeat(cards)), take_talon(cards))
    hands = {}
    # (a loop: a tenth of the dealing's instructions less than dict() over a zip of the lists)
    for seat, hand in enumerate(as_dealt[:players]):
        hands[seat] = list(hand)
    return Dealt(hands, list(as_dealt[-1]), seed, None, None, as_dealt)


def _deal_plan(ruleset: Ruleset, seats: Sequence[int], players: int, chosen: str | None) -> Dealing:
    """The pack, and for each seat at the table (`seats` play, in order of play) and for the
    talon, what it is dealt from the shuffled pack: the packets of the plan, made once per
    ruleset and table into one C-level itemgetter each."""
    active = len(seats)
    positions: list[list[int]] = [[] for _ in range(active)]
    talon: list[int] = []
    start = 0
    choice = ruleset.deal_choice
    packets = ruleset.deal_plans[active]
    if chosen is not None and choice is not None and chosen != choice.usual:
        packets = choice.plans[chosen][active]
    for packet in packets:
        for target in positions if packet.to == "each" else [talon]:
            target += range(start, start + packet.count)
            start += packet.count
    by_seat: list[list[int]] = [[] for _ in range(players)]
    for seat, indices in zip(seats, positions, strict=True):
        by_seat[seat] = indices
    return ruleset.pack(active), tuple(_taker(p) for p in by_seat), _taker(talon)


def _taker(indices: list[int]) -> _Take:
    if len(indices) > 1:
        return operator.itemgetter(*indices)
    return lambda cards: [cards[i] for i in indices]  # itemgetter of one index gives the card, not a tuple


class DealerChooses:
    """The stage before the deal where the dealer chooses how the cards are dealt (`deal.choice`):
    the dealer says `{choose: NAME}` of a plan, which every seat sees; the game then deals by it.
    Nothing is dealt yet, so there is nothing else to do or to hide."""

    read_only_offer = True

    def __init__(self, dealer: int, plans: Sequence[str], table: Table, shared: Mapping[str, FrozenAction]):
        self.to_act: int | None = dealer
        self.table = table
        self.actions = tuple(shared[name] for name in plans)  # (`actions.choose_actions`)
        self.chosen: str | None = None  # the plan chosen, once it is

    def offer(self, seat: int) -> Sequence[ActionJson]:
        return self.actions if seat == self.to_act else ()

    def canonical(self, seat: int, parsed: Action) -> ActionJson | None:
        if seat == self.to_act and isinstance(parsed, Choose):
            for action in self.actions:
                if action["choose"] == parsed.name:
                    return action
        return None

    def take(self, seat: int, action: ActionJson) -> bool:
        assert isinstance(action, dict)
        self.chosen = str(action["choose"])
        self.table.history.append((seat, action))
        self.table.events.append({"type": "deal_chosen", "seat": seat, "plan": self.chosen})
        self.to_act = None
        return True

    def refusal(self, seat: int, parsed: Action) -> str:
        plans = ", ".join(f"{{choose: {action['choose']}}}" for action in self.actions)
        if seat != self.to_act:
            return (
                f"nothing is dealt yet: the dealer, seat {self.to_act}, first chooses how the cards are dealt ({plans})"
            )
        return (
            f"{parsed.describe()} is no way of dealing here: as the dealer you choose how the cards are dealt: {plans}"
        )


def shuffle(cards: list[str], seed: int) -> None:
    """`random.Random(seed).shuffle(cards)`: the very same order (tests/test_deal_shuffle.py holds
    the two together), because every simulated deal starts here. Python's shuffle swaps
    `cards[i]` with `cards[j]` for i from the end down to 1, each j drawn below i + 1 as
    `getrandbits(k)` for the k bits of i + 1, drawn again while too large; the same draws here,
    without two Python calls per card. The generator is the C one under `random.Random`: for a
    whole number it is seeded alike, without `Random.seed`'s Python steps."""
    getrandbits = _random.Random(seed).getrandbits
    for i, bound, bits in _shuffle_steps(len(cards)):
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


@functools.cache
def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """(i, i + 1, the bits of i + 1) for each swap of a shuffle of `size` cards, in order."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def explicit_deal(
    ruleset: Ruleset, seats: list[int], players: int, seats_out: tuple[int, ...], deal: Mapping[str, Any]
) -> Dealt:
    """An explicit deal, checked: every card of the pack exactly once, each hand and the talon
    the size the plan says. Raises DealError naming every place that is wrong."""
    plan: tuple[Packet, ...] = ruleset.deal_plans[len(seats)]
    hand_size = sum(p.count for p in plan if p.to == "each")
    talon_size = sum(p.count for p in plan if p.to == "talon")
    if not isinstance(deal, Mapping):
        raise DealError([((), f"a deal is a mapping of hands and talon, not {shown(deal)}")])
    hands_given, talon_given = deal.get("hands"), deal.get("talon", [])
    if not isinstance(hands_given, list) or len(hands_given) != players:
        got = len(hands_given) if isinstance(hands_given, list) else "none"
        raise DealError([(("hands",), f"needs one hand per seat ({players}), got {got}")])
    check = _DealCheck(ruleset, len(seats))
    hands: dict[int, list[str]] = {s: [] for s in range(players)}
    for seat, hand in enumerate(hands_given):
        out = seat in seats_out
        why = " (it sits out this deal)" if out else ""
        cards = check.cards(hand, 0 if out else hand_size, f"seat {seat}", ("hands", seat), why)
        if cards is not None:
            hands[seat] = cards
    talon = check.cards(talon_given, talon_size, "the talon", ("talon",), "") or []
    problems = check.problems
    chosen = deal.get("plan")
    if chosen is not None:
        plans = ruleset.deal_choice.names(len(seats)) if ruleset.deal_choice is not None else ()
        if chosen not in plans:
            known = f"the dealer chooses one of: {', '.join(plans)}" if plans else "the dealer chooses no plan here"
            problems.append((("plan",), f"no deal plan {shown(chosen)} to choose: {known}"))
    if not problems and len(check.seen) != len(check.known):
        missing = sorted(check.known - set(check.seen), key=list(ruleset.deck.cards).index)
        problems.append(((), f"cards not dealt: {', '.join(missing)}"))
    if not problems:
        return Dealt(hands, talon, None, plan=chosen)
    return _misdeal(ruleset, problems, hands, talon)


def _misdeal(
    ruleset: Ruleset, problems: list[tuple[DealPlace, str]], hands: dict[int, list[str]], talon: list[str]
) -> Dealt:
    """A deal with these problems: a misdeal the table played (hands or talon of the wrong size,
    where the ruleset penalises misdeals: the deal stands as dealt, the dealer pays), else refused."""
    rule = ruleset.penalties
    sizes_only = all(place and place[0] in ("hands", "talon") and len(place) <= 2 for place, _ in problems)
    if rule is not None and rule.mode == "penalize" and "misdeal" in rule.offences and sizes_only:
        return Dealt(hands, talon, None, misdeal="; ".join(message for _, message in problems))
    raise DealError(problems)


class _DealCheck:
    """The cards of an explicit deal checked one place after another: each of the pack for this
    table, each once; the problems found, each with its place."""

    def __init__(self, ruleset: Ruleset, active: int):
        self.active = active
        self.known = set(ruleset.pack(active))
        self.removed = set(ruleset.deck.cards) - self.known
        self.seen: dict[str, str] = {}
        self.problems: list[tuple[DealPlace, str]] = []

    def cards(self, given: object, want: int, where: str, place: DealPlace, why: str) -> list[str] | None:
        """The cards `given` to one place (a hand or the talon), which should be `want` cards;
        None when they are no list of cards to check."""
        if not isinstance(given, list) or len(given) != want:
            got = len(given) if isinstance(given, list) else shown(given)
            name = f"{where} must be dealt {want} cards" if place[0] == "hands" else f"the talon must have {want} cards"
            self.problems.append((place, f"{name}{why}, got {got}"))
        if not isinstance(given, list) or len(given) > len(self.known):
            return None
        # Cards of a hand of the wrong size are checked too: a misdeal the table played holds
        # cards of the pack, each once.
        for i, card in enumerate(given):
            self.card(card, where, (*place, i))
        return list(given)

    def card(self, card: object, where: str, place: DealPlace) -> None:
        if not isinstance(card, str):
            self.problems.append((place, f"{where}: a card is named by its id (text such as 'T21'), not {shown(card)}"))
        elif card in self.removed:
            self.problems.append((place, f"{where}: {card} is taken out of the pack with {self.active} players"))
        elif card not in self.known:
            hint = did_you_mean(card.upper(), sorted(self.known)) if len(card) <= 20 else ""
            self.problems.append((place, f"{where}: unknown card {shown(card)}{hint}"))
        elif card in self.seen:
            self.problems.append((place, f"{card} is dealt twice: to {self.seen[card]} and to {where}"))
        else:
            self.seen[card] = where
