"""A readable log of a deal, written from its events: what `tarock play` prints."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.language.model import TRUMP, Deck

if TYPE_CHECKING:
    from interpreter.engine.game import Game


def show_cards(cards: list[str], deck: Deck) -> str:
    """Cards grouped by suit, high to low: `T 22 21 5 | ♣ K 9 | ♥ A 4`."""
    groups: dict[str, list[str]] = {}
    for card in sorted(cards, key=lambda c: (list(deck.suit_names).index(deck.suit[c]), -deck.rank[c])):
        groups.setdefault(deck.suit[card], []).append(card[1:])
    return " | ".join(f"{deck.suit_symbols[s] if s != TRUMP else 'T'} {' '.join(r)}" for s, r in groups.items()) or "—"


def card_name(card: str, deck: Deck) -> str:
    """A card by its id, with its name where a trump has one: `T22 (Gstieß)`."""
    title = deck.name_of(card)
    return f"{card} ({title})" if deck.suit[card] == TRUMP and not title.isdigit() else card


def describe_event(event: dict[str, Any], game: Game) -> str | None:
    """One line (or a few) for an event, or None for one a reader need not see."""
    rs, deck = game.ruleset, game.ruleset.deck
    kind = event["type"]
    if kind == "phase" and event["phase"] == "auction":
        return f"— {rs.phase(event['name']).title} —"
    if kind == "call":
        return f"  seat {event['seat']}: {rs.call_title(event['call'])}"
    if kind == "thrown_in":
        return "Everybody passed: the deal is thrown in, no payment."
    if kind == "contract":
        title = rs.contracts[event["contract"]].title
        if event["declarer"] is None:
            return f"Contract: {title}, everyone for themselves"
        return f"Contract: {title}, lone player seat {event['declarer']}"
    if kind == "keep":
        shown = f", face up: {', '.join(event['exposed'])}" if event.get("exposed") else ""
        return f"Seat {event['seat']} keeps {event['count']} and discards {event['discarded']}{shown}."
    if kind == "forced_discard":
        cards = f": {', '.join(event['cards'])}" if event.get("cards") else ""
        return f"Seat {event['seat']} must discard {event['count']} card(s) face up{cards}."
    if kind == "announce":
        title = rs.announcements[event["announcement"]].title
        if not event["cards"]:
            return f"Seat {event['seat']} declares {title}."
        return f"Seat {event['seat']} announces {title}: {', '.join(event['cards'])} laid out."
    if kind == "trumps":
        return f"Seat {event['seat']} names {event['suit']} as trumps."
    if kind == "breach":
        return str(event["reason"])
    if kind == "talon_taken":
        return f"Seat {event['seat']} picks up the {event['count']} talon cards."
    if kind == "discard":
        return f"Seat {event['seat']} discards {event['count']} cards face down."
    if kind == "claim":
        return f"Seat {event['seat']} shows the hand and claims every trick: {show_cards(event['hand'], deck)}"
    if kind == "phase" and event["phase"] == "play":
        return f"— Play — seat {event['leader']} leads"
    if kind == "trick":
        plays = ", ".join(f"{s}:{card_name(c, deck)}" for s, c in zip(event["seats"], event["cards"], strict=False))
        return f"  trick {event['number']:>2}: {plays}  → seat {event['winner']}"
    if kind == "settlement":
        return describe_result(event, game)
    return None


def describe_result(result: dict[str, Any], game: Game) -> str:
    unit = game.ruleset.settlement.unit
    if result["outcome"] == "thrown_in":
        return "Result: thrown in."
    if result["outcome"] == "abandoned":
        return f"Result: abandoned — {result.get('reason', '')}"
    lines = []
    if result.get("points") and "seats" in result["points"]:
        shown = ", ".join(f"seat {s}: {p}" for s, p in enumerate(result["points"]["seats"]))
        lines.append(f"Card points in own tricks: {shown}.")
    elif result.get("points"):
        p = result["points"]
        verdict = "wins" if result["declarer_won"] else "loses"
        lines.append(
            f"Card points: lone player {p['declarer']}, opponents {p['defenders']} — the lone player {verdict}."
        )
    pays = ", ".join(f"seat {s}: {v:+d}" for s, v in enumerate(result["payments"]))
    lines.append(f"Payments ({unit}): {pays}")
    return "\n".join(lines)


def render_log(game: Game, *, show_hands: bool = True) -> str:
    rs, deck = game.ruleset, game.ruleset.deck
    lines = [
        f"{rs.title} — {game.players} at the table, dealer seat {game.dealer}"
        + (" (sits out)" if game.sitting_out is not None else "")
        + (f", seed {game.seed}" if game.seed is not None else "")
    ]
    if show_hands:
        lines.append("Hands:")
        for seat in range(game.players):
            if seat == game.sitting_out:
                continue
            mark = " (Vorhand)" if seat == game.vorhand else ""
            lines.append(f"  seat {seat}{mark}: {show_cards(game.initial_hands[seat], deck)}")
        lines.append(f"  talon: {show_cards(game.initial_talon, deck)}")
    for event in game.events:
        text = describe_event(event, game)
        if text:
            lines.append(text)
        if event["type"] == "discard" and show_hands:
            # The umpire's log shows what went face down; the event itself tells only how many.
            lines.append(f"  discarded: {show_cards(game.aside, deck)}")
    return "\n".join(lines)
