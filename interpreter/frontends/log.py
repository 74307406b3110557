"""A readable log of a deal, written from its events: what `tarock play` prints."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.language.model import PART_NAMES, TRUMP, Deck

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
    if kind == "phase" and event["phase"] == "deal":
        return "— The dealer chooses how to deal —"
    if kind == "deal_chosen":
        from interpreter.frontends.words import deal_plan_label

        dealing = deal_plan_label(event["plan"], rs, {"players": game.players, "seats_out": game.seats_out})
        return f"Seat {event['seat']}, the dealer, chooses to {dealing}."
    if kind == "call":
        return f"  Call: seat {event['seat']}: {rs.call_title(event['call'])}"
    if kind == "thrown_in":
        if "reason" in event:
            return f"Seat {event['seat']}'s hand throws the deal in ({event['reason']}): the cards are dealt again."
        if "seat" in event:
            return f"Seat {event['seat']} throws the deal in."
        return "Everybody passed: the deal is thrown in."
    if kind == "contract":
        title = rs.contracts[event["contract"]].title
        if event["declarer"] is None:
            return f"Contract: {title}, everyone for themselves"
        return f"Contract: {title}, declared by seat {event['declarer']}"
    if kind == "keep":
        shown = f", face up: {', '.join(event['exposed'])}" if event.get("exposed") else ""
        return f"Exchange: seat {event['seat']} keeps {event['count']} and discards {event['discarded']}{shown}."
    if kind == "forced_discard":
        cards = f": {', '.join(event['cards'])}" if event.get("cards") else ""
        return f"Exchange: seat {event['seat']} must discard {event['count']} card(s) face up{cards}."
    if kind == "announce":
        known = rs.announcements.get(event["announcement"]) or rs.bonuses.get(event["announcement"])
        title = known.title if known is not None else event["announcement"]
        if not event["cards"]:
            return f"Announcement: seat {event['seat']} declares {title}."
        return f"Announcement: seat {event['seat']} announces {title}: {', '.join(event['cards'])} laid out."
    if kind == "kontra":
        return f"Kontra: seat {event['seat']}: {event['title']} (×{2 ** event['level']})"
    if kind == "talon_shown":
        parts = int(event.get("parts") or 1)
        if parts > 1:
            from interpreter.frontends.words import part_word, talon_parts

            word = part_word(parts)
            laid = "; ".join(
                f"{PART_NAMES[i]} {word}: {show_cards(part, deck)}"
                for i, part in enumerate(talon_parts(event["cards"], parts))
            )
            return f"Exchange: the talon turned up for all, in {parts} {part_word(parts, True)}: {laid}"
        return f"Exchange: the talon turned up for all: {show_cards(event['cards'], deck)}"
    if kind == "forfeit":
        return (
            f"Forfeit: seat {event['seat']} had to play {card_name(event['card'], deck)} in trick {event['trick']}, "
            f"before its trick: {event['bonus']} is lost, and that trick and every later one go to the other side."
        )
    if kind == "trumps":
        return f"Trumps: seat {event['seat']} names {event['suit']}."
    if kind == "breach":
        return f"Breach: {event['reason']}"
    if kind == "talon_taken":
        if event.get("part"):
            from interpreter.frontends.words import part_word

            laid_out = [e for e in game.events if e["type"] == "talon_shown"]
            word = part_word(int(laid_out[-1].get("parts") or 1)) if laid_out else "part"
            return f"Exchange: seat {event['seat']} takes the {event['part']} {word} of the talon ({event['count']} cards)."
        return f"Exchange: seat {event['seat']} picks up the {event['count']} talon cards."
    if kind == "discard":
        count, face_up = event["count"], list(event.get("shown") or ())
        text = f"Exchange: seat {event['seat']} discards {count} card{'s' if count != 1 else ''}"
        if face_up:
            rest = ", the rest face down." if len(face_up) < count else "."
            return f"{text}, face up: {', '.join(face_up)}{rest}"
        return f"{text} face down."
    if kind == "claim":
        return f"Claim: seat {event['seat']} shows the hand and claims every trick: {show_cards(event['hand'], deck)}"
    if kind == "phase" and event["phase"] == "play":
        return f"— Play — seat {event['leader']} leads"
    if kind == "trick" and event.get("cards") is None:  # a trick the reader may not look at again
        return f"  Trick {event['number']:>2}: turned face down  → seat {event['winner']}"
    if kind == "trick":
        plays = ", ".join(f"{s}:{card_name(c, deck)}" for s, c in zip(event["seats"], event["cards"], strict=False))
        return f"  Trick {event['number']:>2}: {plays}  → seat {event['winner']}"
    if kind == "play_ends":
        rest = {
            "holders": "the cards not played count for their holders' sides",
            "declarer": "the declarer's side takes the cards and tricks not played",
            "defenders": "the opponents take the cards and tricks not played",
            "nobody": "the cards not played count for nobody",
        }.get(str(event.get("rest")), "")
        return f"Play ends after trick {event['trick']}: {event['reason']}; {rest}."
    if kind == "talon_card" and "card" not in event:  # added to a trick the reader may not look at again
        return f"  Trick {event['trick']:>2}: the talon's top card goes with it, face down → seat {event['winner']}"
    if kind == "talon_card":
        return f"  Trick {event['trick']:>2}: the talon's top card {card_name(event['card'], deck)} goes with it → seat {event['winner']}"
    if kind == "call_card":
        if event.get("stays"):
            return (
                f"Exchange: seat {event['seat']} calls {card_name(event['card'], deck)}; "
                "it lies in the talon and stays there: no card is exchanged."
            )
        source = "the talon" if event.get("holder") is None else f"seat {event['holder']}"
        return f"Exchange: seat {event['seat']} calls {card_name(event['card'], deck)} from {source}."
    if kind == "call_partner":
        if event.get("card"):
            card = event["card"]
            called = f"{deck.name_of(card)} ({card})" if deck.name_of(card) != card[1:] else card
        else:
            called = "the " + str(event.get("choice", "a card")).replace("_", " ").replace("king", "King")
        return f"Partner: seat {event['seat']} calls {called}; its holder plays with seat {event['seat']}."
    if kind == "give":
        to = "the talon" if event.get("to") is None else f"seat {event['to']}"
        return f"Exchange: seat {event['seat']} gives a card face down to {to}."
    if kind == "open_hand":
        return f"Open hand: seat {event['seat']} lays the hand face up: {show_cards(event['hand'], deck)}"
    if kind == "concede":
        return f"Concession: seat {event['seat']} gives the game up."
    if kind == "offence":
        return f"Offence: {event['reason']}"
    if kind == "accusation":
        guilty = ", ".join(map(str, event["guilty"]))
        found = f"seat(s) {guilty} passed with a Solo hand" if guilty else "nobody had a Solo hand"
        return f"Accusation: seat {event['seat']} accuses the others of skinning a Solo: {found}."
    if kind == "settlement":
        return describe_result(event, game)
    return None


def describe_result(result: dict[str, Any], game: Game) -> str:
    """The result, part by part (words.explain_result): who won and why, each payment's reason."""
    from interpreter.frontends.words import explain_result

    return "\n".join(explain_result(result, game.ruleset, game.players, game.seats_out))


def render_log(game: Game, *, show_hands: bool = True) -> str:
    rs, deck = game.ruleset, game.ruleset.deck
    from interpreter.frontends.words import legend

    lines = [
        f"{rs.title} — {game.players} at the table, dealer seat {game.dealer}"
        + (" (sits out)" if game.dealer in game.seats_out else "")
        + "".join(f", seat {s} sits out" for s in game.seats_out if s != game.dealer)
        + (f", seed {game.seed}" if game.seed is not None else ""),
        legend(deck),
    ]
    hands: list[str] = []
    if show_hands:
        hands.append("Hands:")
        for seat in range(game.players):
            if seat in game.seats_out:
                continue
            mark = " (Vorhand)" if seat == game.vorhand else ""
            hands.append(f"  seat {seat}{mark}: {show_cards(game.initial_hands[seat], deck)}")
        hands.append(f"  talon: {show_cards(game.initial_talon, deck)}")
    # The hands as dealt: after the dealer's choice of how to deal them, where there was one.
    chosen = any(event["type"] == "deal_chosen" for event in game.events)
    if not chosen:
        lines += hands
    for event in game.events:
        text = describe_event(event, game)
        if text:
            lines.append(text)
        if event["type"] == "deal_chosen":
            lines += hands
        if event["type"] == "discard" and show_hands:
            # The umpire's log shows what went face down; the event itself tells only how many.
            lines.append(f"  discarded: {show_cards(game.aside, deck)}")
    return "\n".join(lines)
