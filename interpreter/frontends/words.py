"""The game in its players' words: cards by their names, actions by the ruleset's titles, and a
finished deal's result taken apart into what each payment is for. The terminal game, the log and
the web table all speak through here, so that they say the same thing the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.language.model import PART_NAMES, TRUMP, CallPartner, Deck, Ruleset


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


def action_label(
    action: Any,
    ruleset: Ruleset,
    *,
    legal: list[Any] | None = None,
    view: dict[str, Any] | None = None,
    talon_parts: list[list[str]] | None = None,
) -> str:
    """An action in the game's words: `Ich dappe`, `play T21`, `announce Ulti with T1 laid out`,
    `♣ clubs are trumps`, `Kontra on Trull`. `legal`, the other choices of the same turn, tells
    what a bare pass means where it is not a bid (declining to accuse); the seat's `view` which
    step of a kontra chain a kontra is; `talon_parts` the cards of each part of a talon laid out
    in parts, for the choice of one."""
    deck = ruleset.deck
    if isinstance(action, str):
        if action == "pass" and legal and {"choose": "accuse"} in legal:
            return "play on (no accusation)"
        if action == "pass" and legal and {"choose": "concede"} in legal:
            return "play on (no concession)"
        return ruleset.call_title(action)
    if not isinstance(action, dict):
        return str(action)
    if "play" in action:
        return card_label(action["play"], deck)
    if "announce" in action:
        cards = action.get("cards") or []
        return f"announce {item_title(str(action['announce']), ruleset)}" + (
            f" with {cards_text(cards, deck)} laid out" if cards else ""
        )
    if "kontra" in action:
        return kontra_label(str(action["kontra"]), ruleset, view)
    if "choose" in action:
        name = str(action["choose"])
        if name == "accuse":
            return "accuse the others of skinning a Solo"
        if name == "concede":
            return "give the game up"
        if name == "fourth_king":
            return "call the fourth King (the one not in your hand)"
        if name in deck.suit_names.values():
            return f"{suit_word(name, deck)} are trumps"
        if name in PART_NAMES and talon_parts and PART_NAMES.index(name) < len(talon_parts):
            part = talon_parts[PART_NAMES.index(name)]
            return f"take the {name} {part_word(len(talon_parts))}: {cards_text(sort_cards(part, deck), deck)}"
        if view is not None and view.get("phase") == "deal":
            return deal_plan_label(name, ruleset, view)
        return name.replace("_", " ")
    if "call_card" in action:
        return f"call {card_label(action['call_card'], deck)}"
    if "give" in action:
        return f"give {card_label(action['give'], deck)}"
    for kind, verb in (("discard", "put aside"), ("keep", "keep")):
        if isinstance(action.get(kind), list):
            return f"{verb} {cards_text(action[kind], deck)}"
    return str(action)


def deal_plan_label(name: str, ruleset: Ruleset, view: dict[str, Any]) -> str:
    """The dealer's choice of a deal plan (deal.choice) with its packets at this table:
    `deal dapp first: 6 to the talon, 4 each, 6 to the talon, 3 each`."""
    active = view["players"] - len(view.get("seats_out", ()))
    choice = ruleset.deal_choice
    packets = ruleset.deal_plans.get(active) if choice is None or name == choice.usual else None
    if choice is not None and name in choice.plans:
        packets = choice.plans[name].get(active)
    said = name.replace("_", " ")
    if not packets:
        return f"deal {said}"
    return f"deal {said}: " + ", ".join(
        f"{p.count} each" if p.to == "each" else f"{p.count} to the talon" for p in packets
    )


def item_title(name: str, ruleset: Ruleset) -> str:
    """An announcement's or a bonus's title (`König ultimo`); `game` is the game."""
    if name == "game":
        return "the game"
    known = ruleset.announcements.get(name) or ruleset.bonuses.get(name)
    return known.title if known is not None else name.replace("_", " ")


def kontra_label(item: str, ruleset: Ruleset, view: dict[str, Any] | None) -> str:
    """A kontra as its table says it: the next step of the item's chain (`Rekontra on Trull`,
    `Klopfen`), from the levels the seat's view shows."""
    contract = ruleset.contracts.get(view["contract"]) if view and view.get("contract") else None
    if contract is not None and contract.doubling is not None:
        return contract.doubling.title
    level = int(((view or {}).get("kontra") or {}).get(item, 0))
    rule = ruleset.kontra_game if item == "game" else ruleset.kontra_bonuses
    title = rule.titles[level] if rule is not None and level < len(rule.titles) else f"Kontra ×{2 ** (level + 1)}"
    return title if item == "game" else f"{title} on {item_title(item, ruleset)}"


def part_word(parts: int, plural: bool = False) -> str:
    """What each part of a talon laid out in `parts` is called: `half`, `third`, `part`."""
    if plural:
        return {2: "halves", 3: "thirds"}.get(parts, "parts")
    return {2: "half", 3: "third"}.get(parts, "part")


def talon_parts(cards: list[str], parts: int) -> list[list[str]]:
    """The talon laid out in `parts` parts as the engine cuts it: equal runs of the cards as dealt."""
    size = len(cards) // parts if parts > 0 else 0
    return [list(cards[i * size : (i + 1) * size]) for i in range(parts)] if size else []


def sort_cards(cards: list[str], deck: Deck) -> list[str]:
    """Cards as a hand is sorted: trumps high to low, then each suit high to low."""
    return sorted(cards, key=deck.sort_key)


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


def card_choice(legal: list[Any], hand: list[str]) -> tuple[str, dict[str, Any], set[frozenset[str]] | None] | None:
    """A choice of several cards at once (a discard or a keep) as (kind, template, sets): the
    template itself where the rules send one, else one made from the listed choices (the cards
    any of them holds), with those choices as `sets`. None for any other choice."""
    kinds = {k for a in legal if isinstance(a, dict) for k in a if k in ("discard", "keep")}
    if len(kinds) != 1 or not all(isinstance(a, dict) and len(a) == 1 for a in legal):
        return None
    kind = kinds.pop()
    if len(legal) == 1 and isinstance(legal[0][kind], dict):
        return kind, legal[0][kind], None
    if all(isinstance(a.get(kind), dict) for a in legal):
        # One template for each way classes that go all or none can go: the cards any of them
        # may hold, and those all of them hold or forbid; the refusal explains the rest.
        templates = [a[kind] for a in legal]
        anywhere = {c for t in templates for c in t["from"]}
        merged: dict[str, Any] = {
            "count": templates[0]["count"],
            "from": [c for c in hand if c in anywhere],
            "forbidden": [c for c in hand if all(c in t.get("forbidden", ()) for t in templates)],
        }
        return kind, merged, None
    if not all(isinstance(a.get(kind), list) for a in legal):
        return None
    sets = {frozenset(a[kind]) for a in legal}
    anywhere = set().union(*sets)
    counts = {len(s) for s in sets}
    if len(counts) != 1:
        return None
    template = {"count": counts.pop(), "from": [c for c in hand if c in anywhere]}
    return kind, template, sets


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
    seats_out: tuple[int, ...] | list[int],
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
        if any(payments) or result.get("pot"):
            return ["Result: thrown in.", paid]
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
            shown = ", ".join(f"{say(s)} {p}" for s, p in enumerate(points["seats"]) if s not in seats_out)
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
    active = [s for s in range(players) if s not in seats_out]
    opponents = [s for s in active if s not in team]
    if ruleset.settlement.sitting_out == "defender":
        opponents.extend(seats_out)
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


# -- sides: who plays with whom, as far as a seat may know it ----------------------------------


def partner_game(ruleset: Ruleset, contract_name: str | None) -> bool:
    """Whether the contract's declarer calls a card whose holder becomes a secret partner."""
    contract = ruleset.contracts.get(contract_name) if contract_name else None
    return contract is not None and any(isinstance(step, CallPartner) for step in contract.exchange)


def partner_call(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The public `call_partner` event of a deal's events (its card, or the unnamed choice), if any."""
    return next((e for e in events if e.get("type") == "call_partner"), None)


def called_words(view: dict[str, Any], call: dict[str, Any] | None, deck: Deck) -> str | None:
    """The card called for a partner as this view may name it (`König ♣`), or how it was called
    (`the fourth King`) where the view does not name it; None before the call."""
    card = view.get("called") or (call or {}).get("card")
    if card:
        return deck.name_of(card) if deck.name_of(card) != card[1:] else card
    if call is not None and call.get("choice"):
        return "the " + str(call["choice"]).replace("_", " ").replace("king", "King")
    return None


def sides_line(view: dict[str, Any], ruleset: Ruleset, name: Callable[[int], str], call: dict[str, Any] | None) -> str:
    """The contract and its sides as `view` may know them: `Rufer · declarer: Anna · partner:
    the holder of König ♣`, `Solo · lone player: Bert`, `Räuber · everyone for themselves`."""
    contract = ruleset.contracts.get(view["contract"]) if view.get("contract") else None
    if contract is None:
        if view.get("phase") == "deal":  # nothing dealt yet (deal.choice)
            return f"{name(view['dealer'])}, the dealer, chooses how to deal"
        return "Bidding" if view.get("phase") == "auction" else ""
    declarer = view.get("declarer")
    if declarer is None:
        return f"{contract.title} · everyone for themselves"
    if not partner_game(ruleset, contract.name):
        return f"{contract.title} · lone player: {name(declarer)}"
    line = f"{contract.title} · declarer: {name(declarer)}"
    if "partner" in view:
        partner = view["partner"]
        return line + (" · plays alone" if partner is None else f" · partner: {name(partner)}")
    called = called_words(view, call, ruleset.deck)
    return line + (f" · partner: the holder of {called}" if called else "")


def seat_hints(
    view: dict[str, Any],
    ruleset: Ruleset,
    name: Callable[[int], str],
    call: dict[str, Any] | None,
    public: dict[str, Any] | None = None,
) -> list[str]:
    """What `view`'s seat may conclude from its own cards and the public facts, in sentences: in
    a game with a called partner, whose side it is on. Made from the view alone and `public`, the
    spectators' view (what every seat knows), so that it never tells a seat more than it may know."""
    if not partner_game(ruleset, view.get("contract")) or view.get("declarer") is None or call is None:
        return []
    seat, deck = view.get("seat"), ruleset.deck
    declarer: int = view["declarer"]
    card = view.get("called")
    called = called_words(view, call, deck) or "the called card"
    held = card is not None and card in (view.get("hand") or [])
    known = "partner" in view
    partner: int | None = view.get("partner")
    everybody = public is not None and "partner" in public
    if seat is None or not isinstance(seat, int):
        if known:
            return [_together(declarer, partner, name)]
        return [f"{name(declarer)} called {called}: its holder is {name(declarer)}'s partner, known once it is played."]
    if seat == declarer:
        if known:
            return [
                f"Your partner is {name(partner)}."
                if partner is not None
                else f"You play alone: no other seat holds {called}."
            ]
        return [f"Your partner holds {called}; you learn who when it is played."]
    if held or (known and partner == seat):
        had = "hold" if held else "held"
        return [
            f"You {had} {called}, the card {name(declarer)} called: you are {name(declarer)}'s partner."
            + ("" if everybody else " The others do not know it yet.")
        ]
    if known:
        return [_together(declarer, partner, name) + " You play against them."]
    return [f"You do not hold {called}: you play against {name(declarer)} and its holder."]


def _together(declarer: int, partner: int | None, name: Callable[[int], str]) -> str:
    if partner is None:
        return f"{name(declarer)} plays alone, against all the others."
    return f"{name(declarer)} and {name(partner)} play together."


# -- what the tricks so far hold ----------------------------------------------------------------


def tally(view: dict[str, Any], ruleset: Ruleset, name: Callable[[int], str]) -> list[str]:
    """The tricks taken so far (and their card points, where points decide the contract), by side
    where `view` knows the sides, else seat by seat: only what the tricks on the table show. The
    points are counted as at the end (in packets), without the talon and the cards put aside."""
    done = [t for t in view.get("tricks") or [] if t.get("winner") is not None]
    if not done:
        return []
    players = int(view["players"])
    declarer: int | None = view.get("declarer")
    show_points = points_decide(ruleset, view.get("contract"))
    team: list[int] | None = None
    if declarer is not None and not partner_game(ruleset, view.get("contract")):
        team = [declarer]
    elif declarer is not None and "partner" in view:
        team = [declarer] + ([view["partner"]] if view["partner"] is not None else [])
    if team is not None:
        groups = [
            ("declarer's side" if len(team) > 1 else name(team[0]), team),
            ("opponents", [s for s in range(players) if s not in team]),
        ]
    else:
        groups = [(name(s), [s]) for s in range(players) if any(t["winner"] == s for t in done)]
    parts = []
    for label, seats in groups:
        won = [t for t in done if t["winner"] in seats]
        # (a trick the rules turned face down, `cards` None, is counted but its points are not)
        cards = [c for t in won for c in t["cards"] or ()]
        text = f"{label}: {len(won)} trick{'' if len(won) == 1 else 's'}"
        if show_points and won and all(t["cards"] is not None for t in won):
            points = ruleset.counting.points(cards, ruleset.deck.points)
            text += f", {points} point{'' if points == 1 else 's'}"
        parts.append(text)
    return [f"Taken so far: {'; '.join(parts)}."]


def shown_parts(view: dict[str, Any], events: list[dict[str, Any]]) -> list[list[str]] | None:
    """The talon laid face up in parts to choose from (Königrufen's halves), as `view` shows it
    and the public `talon_shown` event cuts it; None where it is not laid out in parts."""
    shown = view.get("talon_shown")
    event = next((e for e in reversed(events) if e.get("type") == "talon_shown"), None)
    if not shown or event is None or int(event.get("parts") or 1) < 2:
        return None
    return talon_parts(list(shown), int(event["parts"])) or None
