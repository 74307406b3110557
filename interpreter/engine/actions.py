"""Actions as players send them (DESIGN.md), parsed into small typed values.

Parsing catches what is malformed whatever the game state (`InvalidActionError`: not an action,
an unknown card id or call); whether the action is legal now is the game's business.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from interpreter.errors import InvalidActionError
from interpreter.language.model import Ruleset

KINDS = ("play", "discard", "keep", "announce", "choose", "call_card", "give")

# An action as players send it and the game hands it out: a call, or a mapping such as {play: T21}.
ActionJson = str | dict[str, Any]


class FrozenAction(dict[str, Any]):
    """An action the game hands out and keeps in its history, shared by every game of the
    ruleset (one per card, so the play loop allocates nothing): it refuses to be changed, so
    that no caller can rewrite a history or another game's legal actions through it."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("an action handed out by the game is read-only; copy it with dict(action) to change it")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenAction, (dict(self),))

    def __copy__(self) -> FrozenAction:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenAction:
        return self


def play_actions(ruleset: Ruleset) -> dict[str, FrozenAction]:
    """{play: CARD} for every card of the ruleset's pack, made once per ruleset."""
    actions = ruleset.derived.get("play_actions")
    if actions is None:
        actions = ruleset.derived["play_actions"] = {c: FrozenAction(play=c) for c in ruleset.deck.cards}
    return actions


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

    def as_json(self) -> dict:
        return {"play": self.card}


@dataclass(frozen=True)
class DiscardAction:
    cards: tuple[str, ...]

    def describe(self) -> str:
        return "a discard"

    def as_json(self) -> dict:
        return {"discard": list(self.cards)}


@dataclass(frozen=True)
class KeepAction:
    cards: tuple[str, ...]

    def describe(self) -> str:
        return "keeping cards"

    def as_json(self) -> dict:
        return {"keep": list(self.cards)}


@dataclass(frozen=True)
class Announce:
    name: str
    cards: tuple[str, ...]

    def describe(self) -> str:
        return f"the announcement '{self.name}'"

    def as_json(self) -> dict:
        return {"announce": self.name, "cards": list(self.cards)}


@dataclass(frozen=True)
class Choose:
    name: str

    def describe(self) -> str:
        return f"the choice '{self.name}'"

    def as_json(self) -> dict:
        return {"choose": self.name}


@dataclass(frozen=True)
class CardAction:
    """{call_card: CARD} or {give: CARD}."""

    kind: str
    card: str

    def describe(self) -> str:
        return f"{self.kind} {self.card}"

    def as_json(self) -> dict:
        return {self.kind: self.card}


Action = Call | PlayCard | DiscardAction | KeepAction | Announce | Choose | CardAction


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
        if phase.hold:
            calls.append(phase.hold)
    return list(dict.fromkeys(calls))


def parse_action(action: Any, ruleset: Ruleset) -> Action:
    if isinstance(action, str):
        calls = known_calls(ruleset)
        if action not in calls:
            calls = list(calls)
            close = difflib.get_close_matches(action, calls, n=1)
            hint = (
                f"; did you mean '{close[0]}'?" if close else f"; the calls of {ruleset.name} are: {', '.join(calls)}"
            )
            raise InvalidActionError(f"unknown call '{action}'{hint}")
        return Call(action)
    if not isinstance(action, dict):
        raise InvalidActionError(
            f"an action is a call (text) or a mapping such as {{play: T21}}, not {type(action).__name__}"
        )
    kinds = [k for k in action if k in KINDS]
    if len(kinds) != 1:
        raise InvalidActionError(
            f"an action mapping needs exactly one of {', '.join(KINDS)}; got keys {', '.join(map(str, action)) or 'none'}"
        )
    kind = kinds[0]
    extra = [k for k in action if k != kind and not (kind == "announce" and k == "cards")]
    if extra:
        raise InvalidActionError(f"unexpected key(s) in a {kind} action: {', '.join(map(str, extra))}")
    value = action[kind]
    if kind == "play":
        return PlayCard(_card(value, ruleset))
    if kind in ("discard", "keep"):
        if not isinstance(value, list):
            raise InvalidActionError(f"{kind} takes a list of cards, not {value!r}")
        cards = tuple(_card(c, ruleset) for c in value)
        return DiscardAction(cards) if kind == "discard" else KeepAction(cards)
    if kind == "announce":
        if value not in ruleset.announcements:
            known = list(ruleset.announcements)
            close = difflib.get_close_matches(str(value), known, n=1)
            hint = (
                f"; did you mean '{close[0]}'?"
                if close
                else (f"; it has: {', '.join(known)}" if known else "; it has none")
            )
            raise InvalidActionError(f"{ruleset.name} has no announcement {value!r}{hint}")
        cards = action.get("cards", [])
        if not isinstance(cards, list):
            raise InvalidActionError(f"announce takes `cards: [...]`, a list, not {cards!r}")
        return Announce(value, tuple(_card(c, ruleset) for c in cards))
    if kind in ("call_card", "give"):
        return CardAction(kind, _card(value, ruleset))
    if kind == "choose":
        if not isinstance(value, str):
            raise InvalidActionError(f"choose takes a name, not {value!r}")
        return Choose(value)
    raise InvalidActionError(f"'{kind}' actions are not used by {ruleset.name}")


def _card(value: Any, ruleset: Ruleset) -> str:
    if not isinstance(value, str) or value not in ruleset.deck.points:
        close = difflib.get_close_matches(str(value).upper(), ruleset.deck.cards, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise InvalidActionError(f"unknown card {value!r}{hint}")
    return value
