"""The records a table hands out: each requester gets a deal as far as it may know it.

A finished deal's full record holds every hand as dealt: after a deal thrown in or abandoned,
hands that nobody saw. So a seat or a spectator downloads the deal *as it saw it*: an observed
record (`observed:` instead of `deal:`, docs/design.md) with its own hand as dealt, the talon where
it saw all of it, every action as it happened, and in place of a discard it did not see,
`{discard: unknown}`. It replays with `tarock replay` as any observed record does (the engine
builds a deal that agrees with the facts). Another seat's keep or give whose cards the requester
never saw cannot be written without them: the record stops before it, and its `note` says so.

Where the observed replay cannot rebuild the deal (it credits a card called or given from one
hand to another to the hand that played it), a requester who saw every card of the deal by its
end gets the full record: it names no card the requester did not see. The full record is also
the seats' once the session is over (table.py).
"""

from __future__ import annotations

from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.records import parse_record, replay_observed
from interpreter.engine.views import view_of
from interpreter.frontends.server import public_event
from interpreter.language.model import Ruleset


def known_cards(ruleset: Ruleset, record: dict[str, Any], seat: int | None) -> set[str]:
    """Every card `seat` (None: a spectator) may know of the recorded deal by its end: the cards
    it held at any time, those of the public events, and those its view shows at the end."""
    deal = record["deal"]
    game = Game(ruleset, players=record["players"], dealer=record.get("dealer", 0), deal=deal, pot=record.get("pot"))
    cards = frozenset(ruleset.deck.cards)
    known: set[str] = set()
    if seat is not None:
        known |= set(game.hands[seat])
    for acting, action in record["actions"]:
        game.apply(acting, action)
        if seat is not None:
            known |= set(game.hands[seat])
    for event in game.events:
        known |= _cards_in(public_event(event, game), cards)
    return known | _cards_in(view_of(game, seat), cards)


def record_for(ruleset: Ruleset, record: dict[str, Any], seat: int | None, by: str) -> dict[str, Any]:
    """The record of a finished deal as `seat` (None: a spectator) may know it (module docstring).
    `by`: who downloads it, for the record's `observed.by`."""
    known = known_cards(ruleset, record, seat)
    observed = observed_record(ruleset, record, seat, known, by)
    if replays(observed):
        return observed
    if "expect" in observed:
        # An outcome the facts seen cannot bring about again (a revoke penalised: the offender's
        # hand, which proves it, is not known): the record without it, the outcome in words.
        bare = {k: v for k, v in observed.items() if k != "expect"}
        bare["note"] = f"the deal ended {_outcome(record['expect'])}; the cards seen do not show it again"
        if replays(bare):
            return bare
    dealt = {card for hand in record["deal"]["hands"] for card in hand} | set(record["deal"]["talon"])
    return dict(record) if dealt <= known else observed


def replays(record: dict[str, Any]) -> bool:
    """Whether an observed record replays without a failure."""
    from interpreter.engine.records import dump_record
    from interpreter.errors import RecordError

    try:
        return replay_observed(parse_record(dump_record(record), "<download>")).ok
    except RecordError:
        return False


def observed_record(
    ruleset: Ruleset, record: dict[str, Any], seat: int | None, known: set[str], by: str
) -> dict[str, Any]:
    """The record as an observed game: what `known` names, and nothing else."""
    cards = frozenset(ruleset.deck.cards)
    hands = record["deal"]["hands"]
    observed: dict[str, Any] = {"by": by, "hands": [list(h) if s == seat else [] for s, h in enumerate(hands)]}
    talon = record["deal"]["talon"]
    if set(talon) <= known:
        observed["talon"] = list(talon)
    actions: list[list[Any]] = []
    cut = None
    for index, (acting, action) in enumerate(record["actions"]):
        if acting == seat or _cards_in(action, cards) <= known:
            actions.append([acting, action])
        elif isinstance(action, dict) and "discard" in action:
            actions.append([acting, {"discard": "unknown"}])
        else:
            cut = index
            break
    out: dict[str, Any] = {k: record[k] for k in ("ruleset", "options", "players", "dealer", "pot") if k in record}
    out["observed"] = observed
    out["actions"] = actions
    if cut is None:
        if "expect" in record:
            out["expect"] = record["expect"]
    else:
        out["note"] = (
            f"stops before action {cut}: seat {record['actions'][cut][0]} handled cards that "
            f"{'a spectator' if seat is None else f'seat {seat}'} did not see"
        )
    return out


def _outcome(expect: dict[str, Any]) -> str:
    words = [str(expect.get("outcome", "")).replace("_", " ")]
    if "payments" in expect:
        words.append(f"with payments {expect['payments']}")
    return " ".join(w for w in words if w)


def _cards_in(value: Any, cards: frozenset[str]) -> set[str]:
    """The card ids anywhere in `value` (keys and values of mappings, items of lists)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in cards:
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found
