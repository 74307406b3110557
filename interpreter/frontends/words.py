"""The game in its players' words: cards by their names, actions by the ruleset's titles, and a
finished deal's result taken apart into what each payment is for. The terminal game, the log and
the web table all speak through here, so that they say the same thing the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.language.model import TRUMP, Deck, Ruleset


def card_label(card: str, deck: Deck) -> str:
    """`T22 (Gstieß)`, `CK (König ♣)`, `T7`: the id to type, and the name players use."""
    title = deck.name_of(card)
    return card if title == card[1:] or title == card else f"{card} ({title})"


def cards_text(cards: list[str], deck: Deck) -> str:
    return ", ".join(card_label(c, deck) for c in cards) if cards else "none"


def suit_word(name: str, deck: Deck) -> str:
    """A suit's name with its symbol: `♣ clubs`."""
    for suit, suit_name in deck.suit_names.items():
        if suit_name == name:
            return f"{deck.suit_symbols.get(suit, '')} {name}".strip()
    return name


def action_label(action: Any, ruleset: Ruleset, *, legal: list[Any] | None = None) -> str:
    """An action in the game's words: `Ich dappe`, `play T21`, `announce Ulti with T1 laid out`,
    `♣ clubs are trumps`. `legal`, the other choices of the same turn, tells what a bare pass
    means where it is not a bid (declining to accuse)."""
    deck = ruleset.deck
    if isinstance(action, str):
        if action == "pass" and legal and {"choose": "accuse"} in legal:
            return "play on (no accusation)"
        return ruleset.call_title(action)
    if not isinstance(action, dict):
        return str(action)
    if "play" in action:
        return card_label(action["play"], deck)
    if "announce" in action:
        item = ruleset.announcements.get(action["announce"])
        title = item.title if item is not None else str(action["announce"])
        cards = action.get("cards") or []
        return f"announce {title}" + (f" with {cards_text(cards, deck)} laid out" if cards else "")
    if "choose" in action:
        name = str(action["choose"])
        if name == "accuse":
            return "accuse the others of skinning a Solo"
        if name in deck.suit_names.values():
            return f"{suit_word(name, deck)} are trumps"
        return name.replace("_", " ")
    if "call_card" in action:
        return f"call {card_label(action['call_card'], deck)}"
    if "give" in action:
        return f"give {card_label(action['give'], deck)}"
    for kind, verb in (("discard", "put aside"), ("keep", "keep")):
        if isinstance(action.get(kind), list):
            return f"{verb} {cards_text(action[kind], deck)}"
    return str(action)


def choice_task(kind: str, template: dict[str, Any], hand: list[str], deck: Deck) -> tuple[str, list[str]]:
    """What a choice too large to list asks (`put 12 cards aside`), and the cards of the hand it
    forbids."""
    count: int = template["count"]
    allowed = set(template["from"])
    forbidden = [str(c) for c in template.get("forbidden", [c for c in hand if c not in allowed])]
    cards_word = "card" if count == 1 else "cards"
    if kind == "keep":
        return f"keep {count} {cards_word} (the others go aside)", forbidden
    return f"put {count} {cards_word} aside", forbidden


POINT_NAMES = frozenset({"declarer_points", "defender_points", "winner_points", "loser_points"})


def points_decide(ruleset: Ruleset, contract_name: str | None) -> bool:
    """Whether card points decide who wins the contract, or what is paid: only then are they told."""
    contract = ruleset.contracts.get(contract_name) if contract_name else None
    if contract is None:
        return False
    formulas = [contract.declarer_wins, contract.amount]
    return any(f is not None and f.names & POINT_NAMES for f in formulas)


def explain_result(
    result: dict[str, Any],
    ruleset: Ruleset,
    players: int,
    sitting_out: int | None,
    name: Callable[[int], str] | None = None,
) -> list[str]:
    """A finished deal's result as labelled lines: the contract and who won it and why (card points
    where they decide), then each part of the payments (the game, each Ulti won or lost, a team's
    payer, the pot), then the payments themselves. The parts add up to the payments."""
    say = name or (lambda s: f"seat {s}")
    deck = ruleset.deck
    unit = ruleset.settlement.unit
    payments: list[int] = list(result["payments"])
    outcome = result["outcome"]
    paid = "Payments: " + ", ".join(f"{say(s)} {v:+d}" for s, v in enumerate(payments)) + f" ({unit})."
    if outcome == "thrown_in":
        return ["Result: thrown in, nobody pays."]
    if outcome == "abandoned":
        return [f"Result: the deal is abandoned: {result.get('reason', '')}", paid]
    contract = ruleset.contracts.get(result.get("contract") or "")
    title = contract.title if contract is not None else str(result.get("contract"))
    declarer = result.get("declarer")
    points = result.get("points") or {}
    tricks = result.get("tricks") or {}
    if declarer is None:
        lines = [f"Result: {title}, everyone for themselves."]
        if "seats" in points:
            shown = ", ".join(f"{say(s)} {p}" for s, p in enumerate(points["seats"]) if s != sitting_out)
            lines.append(f"Card points in own tricks: {shown}.")
        return [*lines, paid]
    won = bool(result.get("declarer_won"))
    # A partner by a called card: the declarer's side is two, and is paid as a side.
    partner = result.get("partner")
    team = [declarer] if partner is None else [declarer, partner]
    side = "lone player" if partner is None else "declarer's side"
    if result.get("reason"):
        lines = [f"Result: {title} by {say(declarer)}, {result['reason']}."]
    elif partner is None:
        lines = [f"Result: {say(declarer)}, the lone player, {'wins' if won else 'loses'} {title}."]
    else:
        lines = [
            f"Result: {say(declarer)} (the declarer) and {say(partner)} (the partner) "
            f"{'win' if won else 'lose'} {title}."
        ]
    why = []
    if outcome == "claimed":
        why.append(f"the {side} showed the hand and claimed every trick")
    elif "declarer" in points and points_decide(ruleset, result.get("contract")):
        why.append(f"card points: {side} {points['declarer']}, opponents {points['defenders']}")
    if tricks.get("defenders") == 0 and outcome != "claimed":
        why.append("the opponents took no trick")
    elif tricks.get("declarer") == 0:
        why.append(f"the {side} took no trick")
    elif "declarer" in tricks and not why:
        why.append(f"tricks: {side} {tricks['declarer']}, opponents {tricks['defenders']}")
    if why:
        lines.append("Why: " + "; ".join(why) + ".")
    # The payments taken apart as the settlement puts them together: each announcement is paid
    # between the lone player and every opponent, the pot is the lone player's alone, and the
    # game is what is left.
    active = [s for s in range(players) if s != sitting_out]
    opponents = [s for s in active if s not in team]
    if sitting_out is not None and ruleset.settlement.sitting_out == "defender":
        opponents.append(sitting_out)
    announced = result.get("announcements") or []
    each = sum(a["value"] if a["won"] else -a["value"] for a in announced)
    bonuses = [b for b in result.get("bonuses") or [] if b.get("payments")]
    game = {s: payments[s] + each - sum(b["payments"][s] for b in bonuses) for s in opponents}
    pot = int(result.get("pot") or 0)
    game_total = -sum(game.values())
    shares = sorted(set(game.values()))
    if game_total == 0:
        lines.append("Game: nothing to pay.")
    elif partner is not None:
        # Each side's part of the game, seat by seat (the sides need not share alike).
        ours = ", ".join(f"{say(s)} {payments[s] - sum(b['payments'][s] for b in bonuses):+d}" for s in team)
        theirs = ", ".join(f"{say(s)} {game[s]:+d}" for s in opponents)
        lines.append(f"Game: the declarer's side {ours}; the opponents {theirs}.")
    elif len(shares) == 1:
        amount = abs(shares[0])
        if game_total > 0:
            lines.append(f"Game: each opponent pays {say(declarer)} {amount} ({game_total:+d} in all).")
        else:
            lines.append(f"Game: {say(declarer)} pays each opponent {amount} ({game_total:+d} in all).")
    else:
        most = max(shares, key=abs)
        payers = [s for s in opponents if game[s] == most]
        others = ", ".join(f"{say(s)} {game[s]:+d}" for s in opponents if game[s] != most)
        lines.append(
            f"Game: {say(declarer)} {game_total:+d}; "
            + " and ".join(say(s) for s in payers)
            + f" {'pays' if len(payers) == 1 else 'pay'} for the whole team ({most:+d}"
            + (f"; {others})" if others else ")")
            + "."
        )
        seats = {seat for rule in ruleset.settlement.liable for seat in rule.seats}
        reasons = [w for key, w in (("other_bidders", "bid too"), ("withholders", "withheld a card")) if key in seats]
        if reasons:
            lines.append(f"Payer: an opponent who {' or '.join(reasons)} pays for the team when it takes no trick.")
    for item in announced:
        ann = ruleset.announcements.get(item["name"])
        what = f"{ann.title if ann is not None else item['name']} with {card_label(item['card'], deck)}"
        if item["won"]:
            lines.append(f"{what} won: each opponent pays {say(declarer)} {item['value']}.")
        else:
            lines.append(f"{what} lost: {say(declarer)} pays each opponent {item['value']}.")
    for bonus in bonuses:
        lines.append(_bonus_line(bonus, ruleset, say, side))
    if pot > 0:
        lines.append(f"Pot: {say(declarer)} pays {pot} into the pot.")
    elif pot < 0:
        lines.append(f"Pot: {say(declarer)} takes {-pot} out of the pot.")
    return [*lines, paid]


def _bonus_line(bonus: dict[str, Any], ruleset: Ruleset, say: Callable[[int], str], side: str) -> str:
    """One bonus's part of the payments: a combination in a hand, or a side's bonus."""
    known = ruleset.bonuses.get(bonus["name"])
    title = known.title if known is not None else bonus["name"]
    how = ("announced, " if bonus.get("announced") else "") + ("made" if bonus.get("achieved") else "lost")
    moved = ", ".join(f"{say(s)} {v:+d}" for s, v in enumerate(bonus["payments"]) if v)
    if "seat" in bonus:
        return f"Bonus: {title} in {say(bonus['seat'])}'s hand ({how}): {moved}."
    return f"Bonus: {title} for the {side if bonus['side'] == 'declarer' else 'opponents'} ({how}): {moved}."


def legend(deck: Deck) -> str:
    """The card notation, said once: how ids are made and what the named cards are."""
    suits = ", ".join(f"{s} {deck.suit_symbols.get(s, '')} {n}" for s, n in deck.suit_names.items() if s != TRUMP)
    named = [f"{c} {deck.name_of(c)}" for c in deck.cards if deck.suit[c] == TRUMP and not deck.name_of(c).isdigit()]
    has_trumps = any(deck.suit[c] == TRUMP for c in deck.cards)
    parts = [f"Cards: suit letter then rank ({suits})"]
    if has_trumps:
        parts.append("T + number for a trump" + (f" ({', '.join(named)})" if named else ""))
    return "; ".join(parts) + "."
