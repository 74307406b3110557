"""Actions as players send them (docs/design.md), parsed into small typed values.

Parsing catches what is malformed whatever the game state (`InvalidActionError`: not an action,
an unknown card id or call); whether the action is legal now is the game's business.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interpreter.errors import InvalidActionError, did_you_mean
from interpreter.language.model import Ruleset

KINDS = ("play", "discard", "keep", "announce", "choose", "call_card", "give", "kontra")
_KINDS = frozenset(KINDS)  # (a key of any type may be looked up: a frozenset of texts holds none but these)

# An action as players send it and the game hands it out: a call, or a mapping such as {play: T21}.
ActionJson = str | dict[str, Any]


class _Shared(dict[str, Any]):
    """A mapping the game hands out and shares (made once per ruleset, so that the play loop
    allocates nothing for it): it refuses to be changed, so that no caller can rewrite a
    history, an event or another game's legal actions through it."""

    __slots__ = ()
    _refusal = "a value handed out by the game is read-only; copy it with dict() to change it"

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(self._refusal)

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (dict(self),))

    def __copy__(self) -> _Shared:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class FrozenAction(_Shared):
    """An action the game hands out and keeps in its history, shared by every game of the
    ruleset (one per card)."""

    __slots__ = ()
    _refusal = "an action handed out by the game is read-only; copy it with dict(action) to change it"


class FrozenList(list[Any]):
    """A list inside a shared value (an announcement's `cards: []`, a finished trick's seats and
    cards as views show them): read-only as the value is."""

    __slots__ = ()
    _refusal = "an action handed out by the game is read-only; copy it with list() to change it"

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(self._refusal)

    __setitem__ = __delitem__ = __iadd__ = __imul__ = append = extend = insert = pop = remove = clear = sort = (
        reverse
    ) = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (list(self),))

    def __copy__(self) -> FrozenList:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenList:
        return self


class ShownTrick(_Shared):
    """A finished trick as every view shows it ({leader, seats, cards, winner}), made once and
    shared by the views of the deal (engine/views.py)."""

    __slots__ = ()
    _refusal = "a finished trick of a view is read-only (views share it); copy it with dict(trick) to change it"


class FrozenEvent(_Shared):
    """An event shared by every game of the ruleset: a card played ({type: play, seat, card}),
    one per seat and card."""

    __slots__ = ()
    _refusal = "an event of the game is read-only (games share it); copy it with dict(event) to change it"


def play_actions(ruleset: Ruleset) -> dict[str, FrozenAction]:
    """{play: CARD} for every card of the ruleset's pack, made once per ruleset."""
    actions = ruleset.derived.get("play_actions")
    if actions is None:
        actions = ruleset.derived["play_actions"] = {c: FrozenAction(play=c) for c in ruleset.deck.cards}
    return actions


def announce_actions(ruleset: Ruleset) -> dict[str, FrozenAction]:
    """{announce: NAME, cards: []} for every bonus of the ruleset, made once per ruleset."""
    actions: dict[str, FrozenAction] | None = ruleset.derived.get("announce_actions")
    if actions is None:
        actions = ruleset.derived["announce_actions"] = {
            name: FrozenAction(announce=name, cards=FrozenList()) for name in ruleset.bonuses
        }
    return actions


def choose_actions(ruleset: Ruleset) -> dict[str, FrozenAction]:
    """{choose: NAME} for every deal plan the dealer may choose (`deal.choice`), made once per
    ruleset (so that the ids of the learning interface know them by their identity)."""
    actions: dict[str, FrozenAction] | None = ruleset.derived.get("choose_actions")
    if actions is None:
        choice = ruleset.deal_choice
        names = [choice.usual, *choice.plans] if choice is not None else []
        actions = ruleset.derived["choose_actions"] = {name: FrozenAction(choose=name) for name in names}
    return actions


# What playing a card writes down: the history's entry (seat, action) and the event.
PlayStep = tuple[tuple[int, FrozenAction], FrozenEvent]


def play_steps(ruleset: Ruleset, players: int) -> list[dict[str, PlayStep]]:
    """For each seat of a table of `players`, for each card of the pack, what playing it writes
    down: made once per ruleset and table, shared and read-only like the actions."""
    key = ("play_steps", players)
    steps: list[dict[str, PlayStep]] | None = ruleset.derived.get(key)
    if steps is None:
        actions = play_actions(ruleset)
        steps = ruleset.derived[key] = [
            {card: ((seat, action), FrozenEvent(type="play", seat=seat, card=card)) for card, action in actions.items()}
            for seat in range(players)
        ]
    return steps


@dataclass(frozen=True)
class Call:
    name: str

    def describe(self) -> str:
        return f"the call '{self.name}'"

    def as_json(self) -> str:
        return self.name


@dataclass(frozen=True)
class PlayCard:
    card: str

    def describe(self) -> str:
        return f"playing {self.card}"

    def as_json(self) -> dict[str, Any]:
        return {"play": self.card}


@dataclass(frozen=True)
class DiscardAction:
    cards: tuple[str, ...]

    def describe(self) -> str:
        return "a discard"

    def as_json(self) -> dict[str, Any]:
        return {"discard": list(self.cards)}


@dataclass(frozen=True)
class KeepAction:
    cards: tuple[str, ...]

    def describe(self) -> str:
        return "keeping cards"

    def as_json(self) -> dict[str, Any]:
        return {"keep": list(self.cards)}


@dataclass(frozen=True)
class Announce:
    name: str
    cards: tuple[str, ...]

    def describe(self) -> str:
        return f"the announcement '{self.name}'"

    def as_json(self) -> dict[str, Any]:
        return {"announce": self.name, "cards": list(self.cards)}


@dataclass(frozen=True)
class Choose:
    name: str

    def describe(self) -> str:
        return f"the choice '{self.name}'"

    def as_json(self) -> dict[str, Any]:
        return {"choose": self.name}


@dataclass(frozen=True)
class CardAction:
    """{call_card: CARD} or {give: CARD}."""

    kind: str
    card: str

    def describe(self) -> str:
        return f"{self.kind} {self.card}"

    def as_json(self) -> dict[str, Any]:
        return {self.kind: self.card}


@dataclass(frozen=True)
class Kontra:
    """{kontra: ITEM}: doubles the game or an announced bonus (the engine knows which step of
    the chain it is)."""

    item: str

    def describe(self) -> str:
        return f"kontra on {self.item}"

    def as_json(self) -> dict[str, Any]:
        return {"kontra": self.item}


Action = Call | PlayCard | DiscardAction | KeepAction | Announce | Choose | CardAction | Kontra


def known_calls(ruleset: Ruleset) -> list[str]:
    """Every call the ruleset's auction knows, `pass` first (made once per ruleset)."""
    known = ruleset.derived.get("known_calls")
    if known is None:
        known = ruleset.derived["known_calls"] = _calls_of(ruleset)
    return known


def _calls_of(ruleset: Ruleset) -> list[str]:
    calls = ["pass"]
    for phase in ruleset.phases:
        calls += [lv.call for lv in phase.ladder] + [lv.call for lv in phase.interrupts]
        calls += [lv.call for lv, _ in phase.side_bids]
        calls += [lv.call for levels in phase.choose.values() for lv in levels]
        for lv in phase.ladder + phase.interrupts:  # the answers to a proposal (ja, nein)
            if lv.answered_by is not None:
                calls += [lv.answered_by.accept, lv.answered_by.refuse]
        if phase.hold:
            calls.append(phase.hold)
    if ruleset.announcing is not None:
        calls.append(ruleset.announcing.done)  # ends a turn of the round of announcements (fertig)
    return list(dict.fromkeys(calls))


def parse_action(action: object, ruleset: Ruleset) -> Action:
    """The action `action` is, or InvalidActionError saying why it is none: total over any value
    (any JSON value, and any Python value a caller may pass)."""
    if isinstance(action, str):
        return _call(action, ruleset)
    if not isinstance(action, dict):
        raise InvalidActionError(
            f"an action is a call (text) or a mapping such as {{play: T21}}, not {type(action).__name__}"
        )
    kind = _kind(action)
    return _PARSERS[kind](action, action[kind], ruleset)


def _call(action: str, ruleset: Ruleset) -> Call:
    # One Call per known call, made once per ruleset (a frozen dataclass is slow to make).
    parsed: dict[str, Call] | None = ruleset.derived.get("parsed_calls")
    if parsed is None:
        parsed = ruleset.derived["parsed_calls"] = {c: Call(c) for c in known_calls(ruleset)}
    call = parsed.get(action)
    if call is None:
        calls = known_calls(ruleset)
        hint = did_you_mean(action, calls, otherwise=f"; the calls of {ruleset.name} are: {', '.join(calls)}")
        raise InvalidActionError(f"unknown call {shown(action)}{hint}")
    return call


def _kind(action: dict[Any, Any]) -> str:
    """The one kind of action a mapping is (its key such as `play`), or InvalidActionError."""
    if len(action) == 1 and (kind := next(iter(action))) in _KINDS:
        return str(kind)  # the usual shape, {kind: value}, known without looking at the keys one by one
    kinds = [k for k in action if isinstance(k, str) and k in KINDS]
    if len(kinds) != 1:
        keys = ", ".join(_key(k) for k in list(action)[:10]) or "none"
        raise InvalidActionError(f"an action mapping needs exactly one of {', '.join(KINDS)}; got keys {keys}")
    kind = kinds[0]
    extra = [k for k in action if k != kind and not (kind == "announce" and k == "cards")]
    if extra:
        raise InvalidActionError(f"unexpected key(s) in a {kind} action: {', '.join(_key(k) for k in extra[:10])}")
    return kind


def _play(action: dict[str, Any], value: object, ruleset: Ruleset) -> Action:
    return PlayCard(_card(value, ruleset))


def _set_of_cards(action: dict[str, Any], value: object, ruleset: Ruleset) -> Action:
    kind = "discard" if "discard" in action else "keep"
    if not isinstance(value, list):
        raise InvalidActionError(f"{kind} takes a list of cards, not {shown(value)}")
    cards = _cards(value, ruleset)
    return DiscardAction(cards) if kind == "discard" else KeepAction(cards)


def _kontra(action: dict[str, Any], value: object, ruleset: Ruleset) -> Action:
    items = ruleset.derived.get("kontra_items") or _named(ruleset, "kontra_items", ["game", *ruleset.bonuses])
    if not isinstance(value, str) or value not in items:
        hint = did_you_mean(value, items) if isinstance(value, str) and len(value) <= 40 else ""
        raise InvalidActionError(
            f"kontra takes `game` or the name of a bonus, not {shown(value)}{hint}"
            + ("" if hint else f"; {ruleset.name} has: {', '.join(items)}")
        )
    return Kontra(value)


def _announce(action: dict[str, Any], value: object, ruleset: Ruleset) -> Action:
    known = ruleset.derived.get("announcement_names") or _named(
        ruleset,
        "announcement_names",
        [*ruleset.announcements, *(n for n, b in ruleset.bonuses.items() if b.announced is not None)],
    )
    if not isinstance(value, str):
        raise InvalidActionError(
            f"announce takes the name of an announcement, not {shown(value)}"
            + (f"; {ruleset.name} has: {', '.join(known)}" if known else f"; {ruleset.name} has none")
        )
    if value not in known:
        hint = did_you_mean(value, known, otherwise=f"; it has: {', '.join(known)}" if known else "; it has none")
        raise InvalidActionError(f"{ruleset.name} has no announcement {shown(value)}{hint}")
    cards = action.get("cards", [])
    if not isinstance(cards, list):
        raise InvalidActionError(f"announce takes `cards: [...]`, a list, not {shown(cards)}")
    return Announce(value, _cards(cards, ruleset))


def _card_action(action: dict[str, Any], value: object, ruleset: Ruleset) -> Action:
    return CardAction("call_card" if "call_card" in action else "give", _card(value, ruleset))


def _choose(action: dict[str, Any], value: object, ruleset: Ruleset) -> Action:
    if not isinstance(value, str):
        raise InvalidActionError(f"choose takes a name, not {shown(value)}")
    return Choose(value)


_PARSERS: dict[str, Callable[[dict[str, Any], object, Ruleset], Action]] = {
    "play": _play,
    "discard": _set_of_cards,
    "keep": _set_of_cards,
    "announce": _announce,
    "choose": _choose,
    "call_card": _card_action,
    "give": _card_action,
    "kontra": _kontra,
}


def _named(ruleset: Ruleset, key: str, names: list[str]) -> list[str]:
    """`names`, kept for the ruleset: every action of its kind is checked against it."""
    ruleset.derived[key] = names
    return names


def _cards(values: list[Any], ruleset: Ruleset) -> tuple[str, ...]:
    if len(values) > len(ruleset.deck.cards):
        raise InvalidActionError(f"{len(values):,} cards named, more than the pack has ({len(ruleset.deck.cards)})")
    return tuple(_card(c, ruleset) for c in values)


def _card(value: object, ruleset: Ruleset) -> str:
    if not isinstance(value, str):
        raise InvalidActionError(f"a card is named by its id (text such as 'T21'), not {shown(value)}")
    if value not in ruleset.deck.points:
        # Card ids are short: a long text is no misspelling, and comparing it would be slow.
        hint = did_you_mean(value.upper(), ruleset.deck.cards) if len(value) <= 20 else ""
        raise InvalidActionError(f"unknown card {shown(value)}{hint}")
    return value


def _key(key: object) -> str:
    return key if isinstance(key, str) and len(key) <= 40 and key.isprintable() else shown(key)


class _Shown(reprlib.Repr):
    """repr() bounded in length and depth, safe for any value a client may send: a text with
    lone surrogates, a number of thousands of digits, lists nested thousands deep."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = 60
        self.maxlist = self.maxdict = self.maxtuple = self.maxset = 6

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() <= 64:
            return repr(x)
        if x.bit_length() < 10_000:  # str() of a longer one is refused (or slow)
            return f"<an integer of {len(str(abs(x))):,} digits>"
        return f"<an integer of {x.bit_length():,} bits>"

    def repr_str(self, x: str, level: int) -> str:
        text = repr(x[: self.maxstring])
        return text if len(x) <= self.maxstring else f"{text[:-1]}…{text[-1]} ({len(x):,} characters)"


_SHOWN = _Shown()


def shown(value: object) -> str:
    """A value as a message may quote it: short, printable and never failing."""
    try:
        return _SHOWN.repr(value)
    except Exception:
        return f"<a {type(value).__name__}>"
