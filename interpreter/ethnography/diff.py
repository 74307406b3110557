"""The rule-by-rule differences between two rulesets, in words.

Both rulesets are compiled (after inheritance, with their default readings and options unless
others are chosen) and compared by what they mean, not how they are written: reordering keys,
changing YAML style, moving a rule into a base file or writing out a default shows no difference;
renaming a call does. Each difference is one sentence with both sides' values, grouped by section,
and followed by each side's source, status and place:

  Contracts
    Solo factor: won ×1, lost ×2 (old-village) vs ×2 (my-village)
        old-village: dappen-de §10: …; reported; reading solo_factor: leaflet (rulesets/old-village.yaml:131)
        my-village: my-notes: interview of 3 May; reported (my-village.yaml:12)

`--brief` prints one line per rule (the sentences alone); `--json` the same as data.
Exit status: 0 the same, 1 they differ, 2 bad usage or a ruleset that does not load.
"""

from __future__ import annotations

import inspect
import re
import string
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from interpreter.ethnography.semantic import MISSING, Cards, Expr, Path, Provenance, Side, differences, matches
from interpreter.language.keys import ENTRY, ITEM, Said, places
from interpreter.language.keys.session import DEALER_WORDS

# -- values in words -----------------------------------------------------------------------------


def code(value: Any) -> str:
    """An expression as written, marked as code (Markdown)."""
    if isinstance(value, Cards):
        return cards_text(value)
    return f"`{value}`"


def words(items: list[str], last: str = "and") -> str:
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def generic_text(value: Any) -> str:
    """Any value, briefly: for rules without a sentence of their own."""
    if value is MISSING or value is None:
        return "none"
    if isinstance(value, Expr):
        return code(value)
    if isinstance(value, Cards):
        return cards_text(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(generic_text(v) for v in value) + "]" if value else "none"
    if isinstance(value, dict):
        if not value:
            return "none"
        return "; ".join(f"{_key_text(k)}: {generic_text(v)}" for k, v in value.items())
    return str(value)


def _key_text(key: Any) -> str:
    text = ".".join(map(str, key)) if isinstance(key, tuple) else str(key)
    return text.replace("_", " ")


def cards_text(cards: Any) -> str:
    """A set of cards: the name the pack gives it, or the cards."""
    if isinstance(cards, Cards) and cards.name:
        return cards.name
    if isinstance(cards, (list, tuple)):
        return " ".join(map(str, cards)) if cards else "none"
    return generic_text(cards)


def factor_text(value: Any) -> str:
    if isinstance(value, dict) and set(value) == {"won", "lost"}:
        if value["won"] == value["lost"]:
            return f"×{value['won']}"
        return f"won ×{value['won']}, lost ×{value['lost']}"
    return generic_text(value)


def players_text(value: Any) -> str:
    return words([str(n) for n in value], "or") if isinstance(value, list) and value else generic_text(value)


def sits_out_text(value: Any) -> str:
    if not value:
        return "never"
    return "with " + words([str(n) for n in value], "or") + " at the table"


def _sitting(position: Any) -> str:
    return {0: "the dealer", 1: "Vorhand"}.get(position, f"the player {position} places after the dealer")


def sit_out_text(value: Any) -> str:
    """Who sits out by table size (`{"6": [0, 3]}`): positions from the dealer in the order of play."""
    if not value:
        return "never"
    if not isinstance(value, dict):
        return generic_text(value)
    parts = []
    for size, positions in sorted(value.items(), key=lambda item: str(item[0]).zfill(4)):
        seats = positions if isinstance(positions, list) else [positions]
        parts.append(f"with {size} at the table {words([_sitting(p) for p in seats], 'and')}")
    return "; ".join(parts)


def sitting_out_phrase(sit_out: Mapping[int, tuple[int, ...]]) -> str:
    """Who sits out of a compiled ruleset, in a phrase: "at 8 the dealer sits out"."""
    by_who: dict[tuple[int, ...], list[int]] = {}
    for size, out in sorted(sit_out.items()):
        by_who.setdefault(tuple(out), []).append(size)
    return "; ".join(
        f"at {words([str(n) for n in sizes], 'or')} {words([_sitting(p) for p in out], 'and')} "
        + ("sits out" if len(out) == 1 else "sit out")
        for out, sizes in by_who.items()
    )


def plan_text(plan: Any) -> str:
    """A deal plan, packet by packet, a run of the same packet said once with how many times
    (`{each: 1, times: 8}` and eight `{each: 1}` are the same deal, and read the same)."""
    if not isinstance(plan, list) or not all(isinstance(p, dict) for p in plan):
        return generic_text(plan)
    parts: list[str] = []
    each, talon, run = 0, 0, 0
    for i, packet in enumerate(plan):
        if "each" in packet:
            each += int(packet["each"])
        elif "talon" in packet:
            talon += int(packet["talon"])
        run += 1
        if i + 1 < len(plan) and plan[i + 1] == packet:
            continue
        if "each" in packet:
            said = f"{packet['each']} each"
        elif "talon" in packet:
            said = f"{packet['talon']} to the talon"
        else:
            said = generic_text(packet)
        parts.append(said if run == 1 else f"{said} twice" if run == 2 else f"{said} {run} times")
        run = 0
    total = f"{each} cards each" + (f", talon {talon}" if talon else ", no talon")
    return f"{', '.join(parts)} ({total})"


def deal_choice_text(choice: Any) -> str:
    """The dealer's choice between deal plans: the usual one by name, then each other with its
    packets for each number of players."""
    if not isinstance(choice, dict) or not isinstance(choice.get("plans"), dict):
        return generic_text(choice)
    others = [
        f"{name} (" + "; ".join(f"with {n}: {plan_text(plan)}" for n, plan in (by_players or {}).items()) + ")"
        for name, by_players in choice["plans"].items()
    ]
    return f"{choice.get('usual')} (the plan above) or " + " or ".join(others)


def suit_text(cards: Any) -> str:
    if (
        isinstance(cards, list)
        and cards
        and all(isinstance(c, str) and c[:1] == "T" and c[1:].isdigit() for c in cards)
    ):
        numbers = [int(c[1:]) for c in cards]
        if numbers == list(range(numbers[0], numbers[0] - len(numbers), -1)):
            return f"{cards[0]} down to {cards[-1]} ({len(cards)} trumps)"
    return cards_text(cards)


def _rest(value: dict[str, Any], known: tuple[str, ...]) -> str:
    rest = {k: v for k, v in value.items() if k not in known}
    return f" ({generic_text(rest)})" if rest else ""


def take_talon_text(take: Any) -> str:
    if not isinstance(take, dict) or "count" not in take:
        return "takes up the talon"
    count = take["count"]
    text = f"takes {count} card{'' if count == 1 else 's'} from the {take.get('from', 'top')} of the talon as dealt"
    if take.get("shown"):
        text += ", shown to all"
    if take.get("rest_seen_by") == "defenders":
        text += "; the opponents look at the rest"
    return text


def duties_text(duties: Any) -> str:
    """Duties over the trick history: each card set, when it must or may not be played."""
    if not isinstance(duties, list):
        return generic_text(duties)
    parts = []
    for duty in duties:
        if not isinstance(duty, dict):
            parts.append(generic_text(duty))
            continue
        cards = duty.get("cards")
        shown = " ".join(cards) if isinstance(cards, Cards) and len(cards) <= 3 else cards_text(cards)
        if duty.get("must") is not None:
            parts.append(f"{shown} must be played when {code(duty['must'])} (if allowed)")
        else:
            parts.append(f"{shown} may not be played when {code(duty.get('may_not'))}, unless nothing else is allowed")
    return "; ".join(parts) or "none"


def doubling_text(rule: Any) -> str:
    """Everyone for themselves: who may double, once each."""
    if not isinstance(rule, dict):
        return generic_text(rule)
    first = {"last_passer": "the last player to pass", "vorhand": "Vorhand"}.get(
        str(rule.get("start")), str(rule.get("start"))
    )
    dealer = ", the dealer who sits out too" if rule.get("sitting_out") else ""
    return f"each player once, in turn from {first}{dealer}, may double the game"


def step_text(step: Any) -> str:
    if not isinstance(step, dict):
        return generic_text(step)
    if "take_talon" in step:
        take = step["take_talon"] if isinstance(step["take_talon"], dict) else {}
        parts, shown = take.get("parts", 1), take.get("shown", False)
        if parts and parts > 1:
            return f"the talon is {'laid face up' if shown else 'laid aside'} in {parts} parts; takes one of them"
        return "takes up the talon" + (", shown to all" if shown else "")
    if isinstance(step.get("call_partner"), dict):
        return call_partner_text(step["call_partner"])
    if isinstance(step.get("discard"), dict):
        d = step["discard"]
        count = (
            "as many cards as were taken from the talon"
            if d.get("count") == "talon"
            else f"{d.get('count')} card{'' if d.get('count') == 1 else 's'}"
        )
        text = f"discards {count}"
        forbid = d.get("forbid")
        if isinstance(forbid, dict) and forbid.get("when") is not None:
            text += f", not a card for which {code(forbid['when'])}"
        prefer = d.get("prefer")
        if isinstance(prefer, list) and prefer:
            classes = [code(p.get("when")) if isinstance(p, dict) else generic_text(p) for p in prefer]
            text += ", as many cards for which " + ", then for which ".join(classes) + " as it can"
        together = d.get("all_or_none")
        if isinstance(together, list) and together:
            classes = [code(c.get("when")) if isinstance(c, dict) else generic_text(c) for c in together]
            text += ", all or none of the cards for which " + ", and all or none of those for which ".join(classes)
        if d.get("shown") is not None:
            text += f"; face up those for which {code(d['shown'])}"
        return text + _rest(d, ("count", "forbid", "prefer", "all_or_none", "shown"))
    if isinstance(step.get("keep"), dict):
        k = step["keep"]
        text = f"keeps {k.get('count')} card{'s' if k.get('count') != 1 else ''}"
        if k.get("from") is not None:
            text += f" from {cards_text(k['from'])}"
        if k.get("prefer") is not None:
            text += f", {cards_text(k['prefer'])} if possible"
        if k.get("same_suit"):
            text += ", of one suit"
        if k.get("different_suits"):
            text += ", of different suits"
        if k.get("exposed"):
            text += ", face up"
        return text + _rest(k, ("count", "from", "prefer", "same_suit", "different_suits", "exposed"))
    if isinstance(step.get("forced_discard"), dict):
        f = step["forced_discard"]
        text = f"discards {code(f.get('cards'))}" + (" face up" if f.get("shown") else "")
        return text + _rest(f, ("cards", "shown"))
    if isinstance(step.get("call_card"), dict):
        c = step["call_card"]
        text = "calls a card they do not hold" + (f" (of {cards_text(c['from'])})" if c.get("from") else "")
        if c.get("in_talon") == "stays":
            text += "; a called card lying in the talon stays there, and no card is exchanged"
        elif c.get("in_talon") == "take":
            text += " (from the talon if it lies there)"
        return text
    if "give" in step:
        return "gives a card to the holder of the called card"
    if "name_trumps" in step:
        return "names the trump suit"
    return generic_text(step)


def call_partner_text(c: dict[str, Any]) -> str:
    text = "calls a card; its holder is the secret partner"
    if c.get("from") is not None:
        named = cards_text(c["from"])
        text = f"calls one of {'the ' + named if named.isidentifier() else named}; its holder is the secret partner"
    unnamed = c.get("unnamed")
    if isinstance(unnamed, dict):
        said = str(unnamed.get("choice", "")).replace("_", " ")
        when = f" when {code(unnamed['when'])}" if unnamed.get("when") is not None else ""
        text += f"; or, without naming it, “the {said}”, the one not held{when}"
    if c.get("own_only_when") is not None:
        text += f"; only an own card when {code(c['own_only_when'])}"
    return text + " (an own card, or one in the talon: the declarer plays alone)"


def exchange_text(steps: Any) -> str:
    if not steps:
        return "none (the talon stays aside)"
    if not isinstance(steps, list):
        return generic_text(steps)
    return "; ".join(take_talon_text(s["take_talon"]) if _draws(s) else step_text(s) for s in steps)


def _draws(step: Any) -> bool:
    """A step that takes a number of cards from one end of the talon."""
    return isinstance(step, dict) and isinstance(step.get("take_talon"), dict) and "count" in step["take_talon"]


def level_text(level: Any) -> str:
    if not isinstance(level, dict) or "call" not in level:
        return generic_text(level)
    text = str(level["call"])
    if "contract" not in level and not level.get("ends"):
        text += " (names no game yet)"
    elif level.get("contract") not in (None, level["call"]):
        text += f" (plays {level['contract']})"
    if level.get("requires") is not None:
        text += f" if {code(level['requires'])}"
    if level.get("holdable") is False:
        text += " (cannot be held)"
    if level.get("ends"):
        text += f" (ends the {str(level['ends']).replace('_', ' ')})"
    if level.get("over"):
        text += f" (over {words([str(c) for c in level['over']], 'or')})"
    if level.get("jump"):
        text += " (may be bid over any lower bid)"
    answer = level.get("answered_by")
    if isinstance(answer, dict):
        text += f" (put to the {answer.get('by', 'dealer')}: {answer.get('accept')} grants it, {answer.get('refuse')} refuses)"
    return text + _rest(level, ("call", "contract", "requires", "holdable", "ends", "over", "jump", "answered_by"))


def ladder_text(ladder: Any) -> str:
    if not isinstance(ladder, list):
        return generic_text(ladder)
    return " < ".join(level_text(lv) for lv in ladder) if ladder else "none"


def calls_text(levels: Any) -> str:
    if not isinstance(levels, list):
        return generic_text(levels)
    return ", ".join(level_text(lv) for lv in levels) if levels else "none"


def choose_text(choose: Any) -> str:
    if not isinstance(choose, dict) or not choose:
        return generic_text(choose)
    return "; ".join(f"after {call}, the bidder chooses from {calls_text(levels)}" for call, levels in choose.items())


def compulsory_text(rules: Any) -> str:
    if not rules:
        return "none"
    if not isinstance(rules, list):
        return generic_text(rules)
    parts = []
    for rule in rules:
        if not isinstance(rule, dict):
            parts.append(generic_text(rule))
            continue
        text = f"{rule.get('call')}{' or higher' if rule.get('or_higher') else ''} when {code(rule.get('when'))}"
        breach = rule.get("breach")
        if isinstance(breach, dict) and breach.get("pays_each") is not None:
            text += f" (who passes anyway pays {code(breach['pays_each'])} to each player)"
        parts.append(text)
    return "; ".join(parts)


def the(title: str) -> str:
    """A title with its article, once: "the Dappen round", "the contracts" (from "The contracts")."""
    return f"t{title[1:]}" if title.startswith("The ") else f"the {title}"


def after_text(after: Any, titles: Titles | None = None) -> str:
    if not after:
        return "the auction ends"
    if isinstance(after, dict):
        name: Callable[[str], str] = titles.phase if titles is not None else str
        return "; ".join(f"after {call}, {the(name(phase))} follows" for call, phase in after.items())
    return generic_text(after)


def claim_text(claim: Any) -> str:
    if not isinstance(claim, dict):
        return generic_text(claim)
    text = f"when {code(claim.get('when'))}"
    if claim.get("scores_as") == "march":
        text += ", scored as though every trick was won"
    elif claim.get("scores_as") is not None:
        text += f", scored as {claim['scores_as']}"
    if claim.get("factor") is not None:
        text += f", factor ×{claim['factor']}"
    if claim.get("liable") is False:
        text += ", each opponent pays their own share"
    return text + _rest(claim, ("when", "scores_as", "factor", "liable"))


def announcement_text(a: Any) -> str:
    if not isinstance(a, dict):
        return generic_text(a)
    parts = []
    if a.get("cards") is not None:
        text = f"lay out cards of {cards_text(a['cards'])}"
        if a.get("value") is not None:
            text += f", each worth {code(a['value'])} to or from each opponent"
        parts.append(text)
    declares = a.get("declares")
    if isinstance(declares, dict):
        text = "declare it"
        if declares.get("wins") is not None:
            text += f", won when {code(declares['wins'])}"
        if declares.get("amount") is not None:
            text += f", worth {code(declares['amount'])}"
        elif declares.get("multiplier") is not None:
            text += f", the game multiplied by {declares['multiplier']}"
        if declares.get("releases_exposed"):
            text += ", taking back the cards laid face up"
        parts.append(text + _rest(declares, ("wins", "multiplier", "amount", "releases_exposed")))
    if a.get("contracts"):
        parts.append(f"in {words([str(c) for c in a['contracts']], 'or')}")
    rest = {k: v for k, v in a.items() if k not in ("cards", "value", "declares", "contracts")}
    if rest:
        parts.append(generic_text(rest))
    return "; ".join(parts) or generic_text(a)


def withhold_text(w: Any) -> str:
    if not w:
        return "not allowed"
    if not isinstance(w, dict):
        return generic_text(w)
    who = {"defenders": "the opponents", "anyone": "anyone"}.get(str(w.get("by")), str(w.get("by")))
    text = f"allowed: {w.get('card')} by {who}"
    if w.get("when") is not None:
        text += f" when {code(w['when'])}"
    if w.get("goes_to") == "last_trick":
        text += ", going with the last trick to its winner"
    return text


def excuse_text(e: Any) -> str:
    if not e:
        return "none"
    if not isinstance(e, dict):
        return generic_text(e)
    text = f"{e.get('card')}, played to any trick instead of following; it never wins, and led, the next card sets the suit"
    if e.get("goes_to") == "trick":
        text += "; it goes with its trick to the winner"
    else:
        gives = (e.get("compensation") or {}).get("gives") if isinstance(e.get("compensation"), dict) else None
        made_whole = ", who are given the holder's side's least valuable card" if gives == "lowest_value" else ""
        text += f"; its holder's side keeps it when the other side wins its trick{made_whole}"
        if e.get("last_trick", "lost") == "lost":
            text += "; played to the last trick it goes with that trick"
    if e.get("slam"):
        text += "; led to the last trick by a side that took every other trick, it wins it"
    return text


def schedule_text(schedule: Any) -> str:
    if not schedule:
        return "none"
    if not isinstance(schedule, list):
        return generic_text(schedule)
    parts = []
    for entry in schedule:
        if isinstance(entry, dict):
            sets = " else ".join(cards_text(s) for s in entry.get("play_from") or [])
            parts.append(f"trick {entry.get('trick')}: from {sets}")
        else:
            parts.append(generic_text(entry))
    return "; ".join(parts)


def trumps_text(trumps: Any) -> str:
    if not isinstance(trumps, dict) or not trumps:
        return "the permanent trumps only"
    if trumps.get("none"):
        return "no trumps at all"
    if trumps.get("suit"):
        return f"{trumps['suit']} as well as the permanent trumps"
    if trumps.get("choose"):
        return f"a suit the lone player names: {words([str(s) for s in trumps['choose']], 'or')}"
    return generic_text(trumps)


def leads_text(leads: Any) -> str:
    if not isinstance(leads, dict):
        return generic_text(leads)
    text = "the lone player leads the first tricks with the cards laid face up"
    if leads.get("replace_same_suit"):
        text += " (or other cards of their suits)"
    if leads.get("together"):
        text += ", those tricks played at once"
    if leads.get("suit_order"):
        text += f"; equal winners ranked {' > '.join(map(str, leads['suit_order']))}"
    if leads.get("declarer_leads_after"):
        text += "; the lone player also leads the trick after them"
    return text + _rest(leads, ("replace_same_suit", "together", "suit_order", "declarer_leads_after"))


def payment_class_text(p: Any) -> str:
    """One class of payments of everyone for themselves."""
    if not isinstance(p, dict):
        return generic_text(p)
    payers, receivers, amount = p.get("payers"), p.get("receivers"), code(p.get("amount"))
    if payers == "others":
        return f"each other player pays {amount} to a player for whom {code(receivers)}"
    if receivers == "others":
        return f"a player for whom {code(payers)} pays {amount} to each other player"
    how = (
        "one to one, the payer with most points to the receiver with least"
        if p.get("match") == "pairs"
        else "each to each"
    )
    return f"the players for whom {code(payers)} pay {amount} to those for whom {code(receivers)} ({how})"


def individual_text(ind: Any) -> str:
    if not isinstance(ind, dict):
        return generic_text(ind)
    if ind.get("payments"):
        classes = [payment_class_text(p) for p in ind["payments"]]
        return "everyone for themselves: " + "; and ".join(classes)
    loser = {"most_points": "most card points", "last_trick": "the last trick"}.get(
        str(ind.get("loser")), str(ind.get("loser"))
    )
    ties = {"vorhand_else_all": "Vorhand if among them, else all", "all": "all of them"}.get(
        str(ind.get("ties")), str(ind.get("ties"))
    )
    return (
        f"everyone for themselves: the player with {loser} loses (ties: {ties}) "
        f"and pays {code(ind.get('pays_each'))} to each other player"
    )


ROUTE_WORDS = {"declarer": "the declarer's side", "defenders": "the opponents", "nobody": "nobody"}


def routes_text(value: Any) -> str:
    """Where cards out of play count: one side, or the first route whose condition holds."""
    if isinstance(value, str):
        return ROUTE_WORDS.get(value, value)
    if not isinstance(value, list):
        return generic_text(value)
    parts: list[str] = []
    for route in value:
        if not isinstance(route, dict):
            parts.append(generic_text(route))
            continue
        to = ROUTE_WORDS.get(str(route.get("to")), str(route.get("to")))
        if route.get("when") is not None:
            parts.append(f"{to} when {code(route['when'])}")
        else:
            parts.append(f"otherwise {to}" if parts else to)
    return "; ".join(parts)


def trick_words(n: Any) -> str:
    ordinals = {1: "", 2: "second-", 3: "third-", 4: "fourth-", 5: "fifth-", 6: "sixth-"}
    if isinstance(n, int) and n < 0 and -n in ordinals:
        return f"the {ordinals[-n]}last trick"
    return f"trick {n}"


def cards_named(cards: Any, titles: Titles | None = None) -> str:
    """A few cards by id and name (T1 (Pagat)), more by the name of their set."""
    if isinstance(cards, (list, tuple)) and 0 < len(cards) <= 4:
        return words([titles.card(str(c)) if titles else str(c) for c in cards])
    return cards_text(cards)


def last_of_suit_text(cards: Any, titles: Titles | None = None) -> str:
    return f"{cards_named(cards, titles)} only as the holder's last card of its suit (a trump as the last trump)"


def keep_back_text(kept: Any) -> str:
    if not isinstance(kept, list):
        return generic_text(kept)
    parts = []
    for entry in kept:
        if not isinstance(entry, dict):
            return generic_text(kept)
        until = entry.get("until", -1)
        trick = "the last trick" if until == -1 else (f"trick {until}" if until > 0 else f"trick {-until} from the end")
        parts.append(
            f"{cards_named(entry.get('cards'))} kept for {trick}, played earlier only when nothing else is allowed"
        )
    return "; ".join(parts)


def suit_ranks_text(ranks: Any) -> str:
    if not isinstance(ranks, list):
        return generic_text(ranks)
    return "from the highest: " + ", ".join(map(str, ranks))


def ends_early_text(ends: Any) -> str:
    if not isinstance(ends, dict):
        return generic_text(ends)
    rest = {
        "holders": "the cards not played count for their holders' sides",
        "declarer": "the declarer's side takes the cards and tricks not played",
        "defenders": "the opponents take the cards and tricks not played",
        "nobody": "the cards not played count for nobody",
    }.get(str(ends.get("rest", "holders")), generic_text(ends.get("rest")))
    return f"once {code(ends.get('when'))} after a trick; {rest}"


def play_trumps_text(trumps: Any) -> str:
    if not isinstance(trumps, dict) or not trumps:
        return "as in any suit game: they win"
    parts = []
    if trumps.get("win") is False:
        parts.append("trumps win only a trick to which trumps were led (a player void must still trump)")
    if trumps.get("lead") == "only_if_nothing_else":
        parts.append("a trump may be led only by a player who holds nothing else")
    rest = {k: v for k, v in trumps.items() if k not in ("win", "lead")}
    if rest:
        parts.append(generic_text(rest))
    return "; ".join(parts) or "as in any suit game: they win"


def exceptions_text(exceptions: Any, titles: Titles | None = None) -> str:
    if not exceptions:
        return "none"
    if not isinstance(exceptions, list):
        return generic_text(exceptions)
    parts = []
    for e in exceptions:
        if isinstance(e, dict):
            wins = titles.card(str(e.get("wins"))) if titles else str(e.get("wins"))
            only = f" (only where {code(e['when'])})" if e.get("when") else ""
            parts.append(f"when {cards_named(e.get('cards'), titles)} fall in one trick, {wins} wins it{only}")
        else:
            parts.append(generic_text(e))
    return "; ".join(parts)


# The rules of following in a contract's own rules of play, each value in words inside a sentence.
PLAY_PHRASES: dict[str, dict[Any, str]] = {
    str(place[1]): dict(key.said.phrase)
    for place, key in places()
    if len(place) == 2 and place[0] == "play" and key.said is not None and key.said.phrase is not None
}


def play_rules_text(play: Any, titles: Titles | None = None) -> str:
    """A contract's own rules of play, as sentences."""
    if not isinstance(play, dict) or not play:
        return "as in play"
    parts = []
    for key, value in play.items():
        phrase = PLAY_PHRASES.get(key, {}).get(value) if not isinstance(value, (dict, list)) else None
        if phrase is not None:
            parts.append(phrase)
        elif key == "last_of_suit":
            parts.append(last_of_suit_text(value, titles))
        elif key == "trumps":
            parts.append(play_trumps_text(value))
        elif key == "exceptions":
            parts.append(exceptions_text(value, titles))
        else:
            path = ("play", key)
            parts.append(f"{label_of(path, titles or Titles()).lower()}: {value_text(path, value, titles)}")
    return "; ".join(parts)


def open_hand_text(value: Any) -> str:
    if value is True:
        return "the lone player's hand is laid face up from the first lead"
    if value is False or value is MISSING:
        return "hidden"
    if isinstance(value, dict):
        whose = "every hand is" if value.get("who") == "all" else "the lone player's hand is"
        start = value.get("from_trick", 1)
        when = "from the first lead" if start == 1 else f"once a card is led to trick {start}"
        return f"{whose} laid face up {when}"
    return generic_text(value)


def bonus_factor_text(n: Any) -> str:
    return {1: "once", 2: "double", 3: "three times"}.get(n, f"{n} times")


def contract_bonuses_text(names: Any, titles: Titles | None = None) -> str:
    if not isinstance(names, list):
        return generic_text(names)
    if not names:
        return "none"
    return "only " + words([titles.bonus(str(n)) if titles else str(n) for n in names])


def must_announce_text(rule: Any, titles: Titles | None = None) -> str:
    if not isinstance(rule, dict):
        return generic_text(rule)
    names = [titles.bonus(str(n)) if titles else str(n) for n in rule.get("one_of") or []]
    return f"the declarer must announce {'' if len(names) == 1 else 'one of '}{words(names, 'or')} in her first turn of the announcements"


def concede_text(rule: Any) -> str:
    if not isinstance(rule, dict):
        return generic_text(rule)
    return (
        f"when {code(rule.get('when'))}, the declarer may give up once the talon is seen, "
        f"paying {code(rule.get('pays'))} to each opponent"
    )


def talon_to_tricks_text(rule: Any) -> str:
    first = rule.get("first") if isinstance(rule, dict) else rule
    return f"the talon's top card is turned up and added to each of the first {first} tricks, for its winner"


def bonus_text(b: Any) -> str:
    """A bonus in words: when it is made, what it is worth silently and announced."""
    if not isinstance(b, dict):
        return generic_text(b)
    parts = [f"made when {code(b.get('achieved'))}"]
    whose = b.get("whose")
    if whose == "declarer":
        parts.insert(0, "the declarer's side's only")
    elif whose == "defenders":
        parts.insert(0, "the defenders' only")
    if b.get("value") is not None:
        parts.append(f"worth {code(b['value'])} unannounced")
    else:
        parts.append("scores only when announced")
    if b.get("announced") is not None:
        parts.append(f"{code(b['announced'])} announced (minus that if announced and not made)")
    else:
        parts.append("cannot be announced")
    if b.get("attempted") is not None:
        parts.append(f"minus its value when {code(b['attempted'])} and it was not made (a silent attempt)")
    if b.get("card") is not None:
        card = "the called card" if b["card"] == "called" else b["card"]
        parts.append(f"announced, {card} must be kept back for {trick_words(b.get('trick'))}")
    if b.get("replaces_game") == "made":
        parts.append("when made, the game and the other bonuses do not score (a lost announcement counts beside them)")
    elif b.get("replaces_game"):
        parts.append("when it scores, the game and the other bonuses do not")
    if b.get("requires") is not None:
        parts.append(f"only a player for whom {code(b['requires'])} may announce it")
    if b.get("scope") == "seat" and re.search(r"\b(played|captured)\b", str(b.get("achieved"))):
        parts.append(
            "judged for each player on the cards they played, paid to them by each other player at the table "
            "(a negative value: paid by them to each)"
        )
    elif b.get("scope") == "seat":
        parts.append(
            "a combination in one player's hand when play starts, paid to its holder by each other player "
            "at the table, unannounced ones claimed at the end"
        )
    if b.get("forced_early") == "forfeit":
        parts.append(
            "its card forced out before that trick: lost, and that trick and every later one go to the other side"
        )
    rest = {
        k: v
        for k, v in b.items()
        if k
        not in (
            "achieved",
            "value",
            "announced",
            "attempted",
            "card",
            "trick",
            "replaces_game",
            "requires",
            "scope",
            "forced_early",
            "whose",
        )
    }
    if rest:
        parts.append(generic_text(rest))
    return "; ".join(parts)


def kontra_text(rule: Any) -> str:
    if not isinstance(rule, dict):
        return generic_text(rule)
    times = rule.get("max", 1)
    said = rule.get("titles") or []
    if times == "none":
        top = "no fixed limit: each player doubles it at most once"
    else:
        top = f"at most ×{2**times}" if isinstance(times, int) else f"at most {times} times"
    who = f"; only a player for whom {code(rule['eligible'])} may double" if rule.get("eligible") is not None else ""
    if said:
        return f"{words([str(t) for t in said], 'then')}, each doubling by the other side ({top}){who}"
    if times == "none":
        return f"doubled again and again, each time by the other side ({top}){who}"
    return f"doubled up to {times} times, each by the other side ({top}){who}"


def out_of_play_text(rule: Any) -> str:
    if not isinstance(rule, dict):
        return generic_text(rule)
    parts = []
    if "talon" in rule:
        parts.append(f"the talon counts for {routes_text(rule['talon'])}")
    if "discards" in rule:
        parts.append(f"the discards count for {routes_text(rule['discards'])}")
    return "; ".join(parts) or "as counting says"


def announcing_text(rule: Any) -> str:
    if not isinstance(rule, dict):
        return generic_text(rule)
    start = {"declarer": "the declarer", "vorhand": "Vorhand"}.get(str(rule.get("start")), str(rule.get("start")))
    text = (
        f"a round after the exchange, beginning with {start}: each in turn announces bonuses and doubles, "
        f"then says “{rule.get('done', 'pass')}”; it ends once everybody has spoken and all but one have passed in a row"
    )
    if rule.get("may_announce") is not None:
        text += f"; a bonus may be announced by a player for whom {code(rule['may_announce'])}"
    return text


def kontra_section_text(rule: Any) -> str:
    if not isinstance(rule, dict):
        return generic_text(rule)
    parts = []
    if "game" in rule:
        parts.append(f"the game: {kontra_text(rule['game'])}")
    if "bonuses" in rule:
        parts.append(f"each announced bonus: {kontra_text(rule['bonuses'])}")
    if parts and rule.get("answer") == "at_once":
        parts.append(
            "a doubling is answered at once by the other side's first seat that may double again, the first no ending it"
        )
    return "; ".join(parts) or "none"


def session_text(session: Any) -> str:
    if not isinstance(session, dict):
        return generic_text(session)
    parts = []
    for key, value in session.items():
        if key == "dealer":
            parts.append(f"dealt by {value_text(('session', key), value)}")
        else:
            parts.append(value_text(("session", key), value))
    return "; ".join(parts) or "none"


def dealer_when_text(rules: Any) -> str:
    """Who deals next after a deal of which a condition holds."""
    if not isinstance(rules, list):
        return generic_text(rules)
    return "; ".join(
        f"{code(r.get('when'))}: {DEALER_WORDS.get(str(r.get('dealer')), r.get('dealer'))}"
        if isinstance(r, dict)
        else str(r)
        for r in rules
    )


def session_choices_text(chosen: Any) -> str:
    """A round's readings and options, as chosen."""
    if not isinstance(chosen, dict):
        return generic_text(chosen)
    return ", ".join(f"{group} = {choice}" for group, choice in chosen.items()) or "nothing chosen"


def special_round_text(entry: Any) -> str:
    """A round with rules of its own, in one sentence."""
    if not isinstance(entry, dict):
        return generic_text(entry)
    when = "the closing round" if entry.get("at", "end") == "end" else "at a signal"
    rounds = entry.get("rounds", 1)
    text = f"{when}, {rounds} round{'s' if rounds != 1 else ''} (one deal by each player in each)"
    text += f", its deals with {session_choices_text(entry.get('options') or {})}"
    if entry.get("after"):
        text += f"; every deal after it with {session_choices_text(entry['after'])}"
    return text


def special_rounds_text(rounds: Any) -> str:
    """Every round of its own, by name."""
    if not isinstance(rounds, dict):
        return generic_text(rounds)
    return "; ".join(f"{name}: {special_round_text(entry)}" for name, entry in rounds.items()) or "none"


def sheet_text(sheet: Any) -> str:
    """A score sheet: what each deal writes, where it starts, and how it is paid at the end."""
    if not isinstance(sheet, dict):
        return generic_text(sheet)
    settle = {"differences": "as differences between every two players", "per_point": "per point"}
    return (
        f"each deal writes {code(sheet.get('score'))} to each seat, from {sheet.get('start', 0)}; settled "
        f"{settle.get(sheet.get('settle', 'differences'), sheet.get('settle'))} at {sheet.get('stake', 1)} a point"
    )


def session_pot_text(pot: Any) -> str:
    """The pot over a session: the antes at its start, and what is left at its end."""
    if not isinstance(pot, dict):
        return generic_text(pot)
    left = {
        "kept": "what is left at the end stays in the pot",
        "shared": "what is left at the end is shared equally (what does not divide stays in the pot)",
    }
    ante = f"each player pays {code(pot['ante'])} in when the session starts; " if pot.get("ante") else ""
    each = f"each player pays {code(pot['each_deal'])} in before every deal; " if pot.get("each_deal") else ""
    return ante + each + left.get(str(pot.get("left", "kept")), str(pot.get("left")))


def payout_text(payout: Any) -> str:
    """A pay-out of a pot of its own, in one clause."""
    if not isinstance(payout, dict):
        return generic_text(payout)
    to = {"declarer": "the declarer", "defenders": "each defender"}.get(
        str(payout.get("to", "declarer")), f"seat {code(payout.get('seat'))}"
    )
    text = "after a deal"
    if payout.get("contracts"):
        text += f" of {words([str(c) for c in payout['contracts']], 'or')}"
    if payout.get("when"):
        text += f" when {code(payout['when'])}"
    return f"{text}, {to} takes {code(payout.get('amount'))} out of it (pays it in, below 0)"


def account_text(pot: Any) -> str:
    """A pot of its own: its antes, its pay-outs after each deal, and what is left at the end."""
    if not isinstance(pot, dict):
        return generic_text(pot)
    parts = []
    if pot.get("ante"):
        parts.append(f"each player pays {code(pot['ante'])} in when the session starts")
    if pot.get("each_deal"):
        parts.append(f"each player pays {code(pot['each_deal'])} in before every deal")
    if pot.get("dealer"):
        parts.append(f"the dealer pays {code(pot['dealer'])} in before every deal")
    for payout in pot.get("pays") or ():
        parts.append(payout_text(payout))
    left = {"kept": "what is left at the end stays in it", "shared": "what is left at the end is shared equally"}
    parts.append(left.get(str(pot.get("left", "kept")), str(pot.get("left"))))
    return "; ".join(parts) + " (it never pays out more than it holds)"


def accounts_text(pots: Any) -> str:
    """Every pot of its own, by name."""
    if not isinstance(pots, dict):
        return generic_text(pots)
    return "; ".join(f"{name}: {account_text(pot)}" for name, pot in pots.items()) or "none"


def split_text(split: Any) -> str:
    if not isinstance(split, dict):
        return generic_text(split)
    return f"{split.get('declarer')} parts to the declarer, {split.get('partner')} to the partner"


def hold_text(hold: Any) -> str:
    if hold == "same":
        return (
            "a player with priority over the last bidder (earlier from Vorhand) may name the same game; "
            "the others must bid higher"
        )
    return f"allowed, with {hold}"


def packet_text(n: Any) -> str:
    return {1: "card by card", 2: "in pairs", 3: "in threes", 4: "in fours"}.get(n, f"in packets of {n}")


def aside_text(aside: Any) -> str:
    if not isinstance(aside, dict):
        return generic_text(aside)
    side = {"declarer": "the lone player", "defenders": "the opponents", "nobody": "nobody"}.get(
        str(aside.get("counts_for")), str(aside.get("counts_for"))
    )
    text = side
    if aside.get("unless") is not None:
        text += f", but for the other side when {code(aside['unless'])}"
    return text


def liable_text(rules: Any) -> str:
    if not rules:
        return "none"
    if not isinstance(rules, list):
        return generic_text(rules)
    parts = []
    for rule in rules:
        if isinstance(rule, dict):
            seats = words([str(s).replace("_", " ") for s in rule.get("seats") or []], "and")
            parts.append(
                f"when {code(rule.get('when'))}, the {seats} each pay {code(rule.get('pays'))}, "
                f"the other opponents {code(rule.get('others_pay'))}"
            )
        else:
            parts.append(generic_text(rule))
    return "; ".join(parts)


def accusation_text(rule: Any) -> str:
    if not isinstance(rule, dict):
        return generic_text(rule)
    return (
        f"after everybody passed the {rule.get('phase')}, the lone player may accuse the others "
        f"of passing with a hand for which {code(rule.get('strong'))}"
    )


def penalties_text(rule: Any) -> str:
    if not isinstance(rule, dict):
        return generic_text(rule)
    mode = {"refuse": "refused", "penalize": "accepted and penalised"}.get(str(rule.get("mode")), str(rule.get("mode")))
    offences = words([str(o) for o in rule.get("offences") or []], "and")
    if rule.get("paid_by") == "side":
        return (
            f"{offences or 'offences'} {mode}; the offender's side pays {code(rule.get('pays_each'))} to each "
            "opponent as a lost game is paid (the offender alone before there are sides)"
        )
    return f"{offences or 'offences'} {mode}; the offender pays {code(rule.get('pays_each'))} to each other player"


def contract_text(c: Any) -> str:
    """A whole contract, briefly (where the other ruleset has no such contract)."""
    if not isinstance(c, dict):
        return generic_text(c)
    parts = []
    if c.get("individual"):
        parts.append("everyone for themselves")
    if c.get("factor") is not None:
        parts.append(f"factor {factor_text(c['factor'])}")
    parts.append(f"exchange: {exchange_text(c.get('exchange'))}")
    return "a contract: " + "; ".join(parts)


def phase_text(p: Any) -> str:
    if not isinstance(p, dict):
        return generic_text(p)
    if p.get("ladder"):
        return f"a phase with the bids {ladder_text(p['ladder'])}"
    then = p.get("then") or {}
    if then.get("pass_out") == "play" and then.get("play"):
        return f"a phase without bids: {then['play']} is played"
    return "a phase without bids"


def mapping(table: dict[Any, str]) -> Callable[[Any], str]:
    return lambda value: (
        table.get(value, generic_text(value)) if not isinstance(value, (dict, list)) else generic_text(value)
    )


# -- rules in words: the templates ----------------------------------------------------------------


class Titles:
    """Display names of contracts, phases and calls, from whichever ruleset has them."""

    def __init__(self, *sides: Side | None):
        self.sides = [s for s in sides if s is not None]

    def _first(self, fn: Callable[[Side], str | None], default: str) -> str:
        for side in self.sides:
            value = fn(side)
            if value and value != default:
                return value
        return default

    def contract(self, name: str) -> str:
        return self._first(lambda s: s.contract_title(name), name)

    def phase(self, name: str) -> str:
        return self._first(lambda s: s.phase_title(name), name)

    def call(self, name: str) -> str:
        title = self._first(lambda s: s.call_title(name), "")
        return f'{name} ("{title}")' if title and title != name else name

    def entry(self, section: str, name: str) -> str:
        return self._first(lambda s: s.entry_title(section, name), "") or name

    def card(self, card: str) -> str:
        """A card by id, and by name where the pack gives it one: T1 (Pagat)."""
        for side in self.sides:
            title = side.ruleset.deck.titles.get(card)
            if title and not title.isdigit() and title != card:
                return f"{card} ({title})"
        return card

    def bonus(self, name: str) -> str:
        return self._first(lambda s: s.bonus_title(name), name)

    def declarer(self) -> str:
        """Who wins or loses the game: the lone player, or a side where a partner may be called."""
        partners = any(
            "call_partner" in step
            for side in self.sides
            for contract in (side.tree.get("contracts") or {}).values()
            if isinstance(contract, dict)
            for step in contract.get("exchange") or []
            if isinstance(step, dict)
        )
        return "the declarer's side" if partners else "the lone player"

    def question(self, section: str, name: str) -> str:
        question = self._first(lambda s: s.question(section, name), "")
        return f"{name} ({question})" if question and question != name else name


Label = Callable[[Path, Titles], str]


@dataclass(frozen=True)
class Template:
    pattern: Path
    rule: str  # a stable name for the kind of rule, for programs
    label: Label
    text: Callable[..., str] = generic_text
    missing: str = "none"  # how a rule one side does not have reads
    titled: bool = False  # text takes (value, titles)


def _t(
    pattern: Path,
    rule: str,
    label: str | Label,
    text: Callable[..., str] = generic_text,
    missing: str = "none",
    titled: bool = False,
) -> Template:
    if isinstance(label, str):
        fixed = label
        return Template(pattern, rule, lambda path, titles: fixed, text, missing, titled)
    return Template(pattern, rule, label, text, missing, titled)


def choice_text(effects: Any, titles: Titles | None = None) -> str:
    """What a choice of a reading or option makes the rules say."""
    if not isinstance(effects, dict):
        return generic_text(effects)
    if not effects:
        return "changes nothing"
    return "; ".join(f"{label}: {value}" for label, value in describe_effects(effects, titles))


def removed_text(value: Any) -> str:
    """The cards taken out of the pack, by number of players; the same cards for several
    numbers (`remove: sixes`, for every number at once) said once for them all."""
    if not isinstance(value, dict):
        return generic_text(value)
    counts: dict[str, list[str]] = {}
    for n, c in value.items():
        counts.setdefault(cards_text(c), []).append(str(n))
    return "; ".join(f"with {words(ns, 'or')} players {text}" for text, ns in counts.items())


def phase_title_text(value: Any, titles: Titles) -> str:
    return the(titles.phase(value))


def contract_title_text(value: Any, titles: Titles) -> str:
    return titles.contract(value)


def pass_out_text(value: Any, titles: Titles) -> str:
    if value == "throw_in":
        return "the deal is thrown in"
    if value == "play":
        return "a contract is played without a lone player, unless the holder of a card named declares it"
    return f"{the(titles.phase(value))} follows"


def thrown_in_text(rule: Any) -> str:
    """What is paid on a deal the auction throws in: who pays how much, and where it goes."""
    if not isinstance(rule, dict):
        return generic_text(rule)
    payer = {
        "each": "each player",
        "dealer": "the dealer",
        "caller": "the player whose call threw it in",
    }.get(str(rule.get("payer", "each")), str(rule.get("payer")))
    to = "into the pot" if rule.get("to", "pot") == "pot" else "to each other player"
    return f"{payer} pays {code(rule.get('pays'))} {to}"


def redeal_text(rules: Any) -> str:
    """The hands that throw the deal in as dealt: each condition, with what the table is told."""
    if not isinstance(rules, list):
        return generic_text(rules)
    return "; or ".join(
        f"a hand as dealt meets {code(r.get('when'))}" + (f" ({r['reason']})" if r.get("reason") else "")
        for r in rules
        if isinstance(r, dict)
    )


def holder_of_text(cards: Any) -> str:
    """Whose game it is when everybody passed: the holder of the first of these cards held."""
    if not isinstance(cards, list):
        return generic_text(cards)
    return "the holder of " + ", else of ".join(str(c) for c in cards) + " (none held: the deal is thrown in)"


def payment_text(value: Any, titles: Titles) -> str:
    if value != "each_defender":
        return generic_text(value)
    declarer = titles.declarer()
    shared = " (declarer and partner share it)" if declarer != "the lone player" else ""
    return f"each opponent pays {declarer}, or is paid{shared}"


# The sentences a key's declaration names (`Said.text`): each takes the value, or the value and
# the titles of the rulesets compared.
TEXTS: dict[str, Callable[..., str]] = {
    "accusation": accusation_text,
    "after": after_text,
    "announcement": announcement_text,
    "announcing": announcing_text,
    "aside": aside_text,
    "bonus": bonus_text,
    "bonus_factor": bonus_factor_text,
    "calls": calls_text,
    "cards": cards_text,
    "choose": choose_text,
    "claim": claim_text,
    "code": code,
    "compulsory": compulsory_text,
    "concede": concede_text,
    "contract": contract_text,
    "contract_bonuses": contract_bonuses_text,
    "contract_title": contract_title_text,
    "doubling": doubling_text,
    "duties": duties_text,
    "ends_early": ends_early_text,
    "exceptions": exceptions_text,
    "exchange": exchange_text,
    "factor": factor_text,
    "hold": hold_text,
    "holder_of": holder_of_text,
    "individual": individual_text,
    "keep_back": keep_back_text,
    "kontra": kontra_text,
    "kontra_section": kontra_section_text,
    "ladder": ladder_text,
    "last_of_suit": last_of_suit_text,
    "leads": leads_text,
    "liable": liable_text,
    "must_announce": must_announce_text,
    "open_hand": open_hand_text,
    "out_of_play": out_of_play_text,
    "packet": packet_text,
    "pass_out": pass_out_text,
    "payment": payment_text,
    "penalties": penalties_text,
    "phase": phase_text,
    "phase_title": phase_title_text,
    "plan": plan_text,
    "deal_choice": deal_choice_text,
    "redeal": redeal_text,
    "play_rules": play_rules_text,
    "play_trumps": play_trumps_text,
    "players": players_text,
    "removed": removed_text,
    "routes": routes_text,
    "schedule": schedule_text,
    "session": session_text,
    "dealer_when": dealer_when_text,
    "sheet": sheet_text,
    "session_pot": session_pot_text,
    "account": account_text,
    "accounts": accounts_text,
    "special_round": special_round_text,
    "special_rounds": special_rounds_text,
    "sits_out": sits_out_text,
    "sit_out": sit_out_text,
    "split": split_text,
    "suit_ranks": suit_ranks_text,
    "talon_to_tricks": talon_to_tricks_text,
    "thrown_in": thrown_in_text,
    "trumps": trumps_text,
    "withhold": withhold_text,
    "excuse": excuse_text,
}

# Where the titles in a label come from: the entry of which mapping, read how.
_TITLED_ENTRIES: dict[str, tuple[str, Callable[[Titles, str], str]]] = {
    "phase": ("phases", lambda t, name: t.phase(name)),
    "contract": ("contracts", lambda t, name: t.contract(name)),
    "call": ("calls", lambda t, name: t.call(name)),
    "bonus": ("bonuses", lambda t, name: t.bonus(name)),
    "announcement": ("announcements", lambda t, name: t.entry("announcements", name)),
}


def _label(place: Path, label: str) -> Label:
    """A declared label, its fields filled in from the place and the titles."""
    fields = {name for _, name, _, _ in string.Formatter().parse(label) if name}

    def fill(path: Path, titles: Titles) -> str:
        values: dict[str, str] = {}
        for name in fields:
            if name in _TITLED_ENTRIES:
                mapping_name, title = _TITLED_ENTRIES[name]
                at = next(i for i in range(1, len(place)) if place[i] == ENTRY and place[i - 1] == mapping_name)
                values[name] = title(titles, str(path[at]))
            elif name == "entry":
                values[name] = str(path[max(i for i, part in enumerate(place) if part == ENTRY)])
            elif name in ("declarer", "Declarer"):
                who = titles.declarer()
                values[name] = who[:1].upper() + who[1:] if name == "Declarer" else who
        return label.format(**values)

    return fill


def _said_text(said: Said) -> tuple[Callable[..., str], bool]:
    """The words of a declared sentence, and whether they take the titles."""
    if said.text is not None:
        text = TEXTS[said.text]
        return text, len(inspect.signature(text).parameters) > 1
    pattern = said.words
    if isinstance(pattern, str):
        return (lambda value: pattern.format(value=value, code=code(value))), False
    if pattern is not None:
        return mapping(dict(pattern)), False
    return generic_text, False


def key_templates() -> list[Template]:
    """The template of every key whose declaration has a sentence."""
    templates = []
    for place, key in places():
        said = key.said
        if said is None:
            continue
        text, titled = _said_text(said)
        rule = said.rule or ".".join(part for part in place if part not in (ENTRY, ITEM))
        templates.append(Template(place, rule, _label(place, said.label), text, said.missing, titled))
    return templates


# Places of the compared tree that are no key of the language: the pack, compared card by card.
TREE_TEMPLATES: list[Template] = [
    _t(
        ("deck", "suits", "*"),
        "deck.suit",
        lambda p, t: "Trumps, high to low" if p[2] == "T" else f"Suit {p[2]}, high to low",
        suit_text,
        "no such suit",
    ),
    _t(("deck", "suit_names", "*"), "deck.suit_name", lambda p, t: f"Name of suit {p[2]} in rules", missing="none"),
    _t(("deck", "points"), "deck.points", "Card points"),
    _t(("deck", "sets", "*"), "deck.set", lambda p, t: f"Card set {p[2]}", cards_text, "no such set"),
]


def _choices_label(kind: str) -> Label:
    return lambda p, t: f"{kind} {t.question(str(p[0]), str(p[1]))}"


def _choices_text(value: Any) -> str:
    return "choices " + " / ".join(map(str, value.get("choices") or {})) if isinstance(value, dict) else ""


def _default_label(kind: str) -> Label:
    return lambda p, t: f"{kind} {p[1]}: default"


def _choice_label(kind: str) -> Label:
    return lambda p, t: f"{kind} {p[1]}, choice {p[3]}"


def _effect_label(kind: str) -> Label:
    return lambda p, t: f"{kind} {p[1]}, choice {p[3]}: {label_of(p[4], t)}"


# Readings, options and the rules for a number of players: described by the places they change.
for _section in ("readings", "options"):
    _kind = _section[:-1].capitalize()
    TREE_TEMPLATES += [
        _t((_section, "*"), _section[:-1], _choices_label(_kind), _choices_text, f"no such {_section[:-1]}"),
        _t((_section, "*", "default"), f"{_section[:-1]}.default", _default_label(_kind)),
        _t(
            (_section, "*", "choices", "*"),
            f"{_section[:-1]}.choice",
            _choice_label(_kind),
            choice_text,
            "no such choice",
            titled=True,
        ),
        _t((_section, "*", "choices", "*", "*"), f"{_section[:-1]}.effect", _effect_label(_kind)),
    ]


TREE_TEMPLATES += [
    _t(
        ("by_players", "*"),
        "by_players",
        lambda p, t: f"Rules of their own with {p[1]} players",
        lambda v, t: choice_text(v.get("effects"), t) if isinstance(v, dict) else generic_text(v),
        "none",
        titled=True,
    ),
    _t(
        ("by_players", "*", "effects"),
        "by_players.effects",
        lambda p, t: f"With {p[1]} players",
        choice_text,
        "nothing changes",
        titled=True,
    ),
    _t(
        ("by_players", "*", "effects", "*"),
        "by_players.effect",
        lambda p, t: f"With {p[1]} players: {label_of(p[3], t)}",
        missing="as with other numbers",
    ),
]
TEMPLATES: list[Template] = key_templates() + TREE_TEMPLATES

# A place inside a choice's effects: the rule it changes, in that rule's words.
EFFECTS = (
    ("readings", "*", "choices", "*", "*"),
    ("options", "*", "choices", "*", "*"),
    ("by_players", "*", "effects", "*"),
)


def template_for(path: Path) -> Template | None:
    for template in TEMPLATES:
        if matches(template.pattern, path):
            return template
    return None


def generic_label(path: Path) -> str:
    text = " ".join(str(p).replace("_", " ") for p in path)
    return text[:1].upper() + text[1:]


def fallback_label(path: Path, titles: Titles) -> str:
    """A label for a rule no template knows, named after the phase or contract it belongs to."""
    if path[:2] == ("auction", "phases") and len(path) > 3:
        return f"{titles.phase(str(path[2]))}: {generic_label(path[3:]).lower()}"
    if path[:1] == ("contracts",) and len(path) > 2:
        return f"{titles.contract(str(path[1]))} {generic_label(path[2:]).lower()}"
    return generic_label(path)


def label_of(path: Path, titles: Titles) -> str:
    template = template_for(path)
    return template.label(path, titles) if template else fallback_label(path, titles)


def value_text(path: Path, value: Any, titles: Titles | None = None) -> str:
    """A rule's value in words, as the templates phrase it (generic where none does)."""
    if any(matches(pattern, path) for pattern in EFFECTS) and isinstance(path[-1], tuple):
        # a rule as one choice makes it (MISSING: this side's choice does not touch it)
        return value_text(path[-1], value, titles) if value is not MISSING else "as with other numbers"
    template = template_for(path)
    if value is MISSING:
        return template.missing if template else "none"
    try:
        if template is not None and template.titled:
            return template.text(value, titles or Titles())
        return template.text(value) if template else generic_text(value)
    except (TypeError, ValueError, KeyError, AttributeError):  # a shape the template does not know
        return generic_text(value)


def describe_effects(effects: dict[Path, Any], titles: Titles | None = None) -> list[tuple[str, str]]:
    """What a reading's or option's choice sets, as (label, value) pairs."""
    titles = titles or Titles()
    return [(label_of(path, titles), value_text(path, value, titles)) for path, value in effects.items()]


# -- the sections ---------------------------------------------------------------------------------

SECTIONS: dict[str, str] = {
    "family": "The ruleset",
    "players": "Players and deal",
    "direction": "Players and deal",
    "deal": "Players and deal",
    "deck": "The pack",
    "calls": "Calls",
    "auction": "The auction",
    "contracts": "Contracts",
    "claim": "Showing the hand and announcements",
    "announcements": "Showing the hand and announcements",
    "bonuses": "Bonuses",
    "announcing": "Announcements and kontra",
    "kontra": "Announcements and kontra",
    "play": "Play",
    "counting": "Counting",
    "settlement": "Scoring",
    "pot_ante": "Scoring",
    "accusation": "Scoring",
    "penalties": "Games recorded in the field",
    "session": "Sessions",
    "by_players": "Rules for a number of players",
    "readings": "Readings",
    "options": "Options",
}


def section_of(path: Path) -> str:
    return SECTIONS.get(str(path[0]), generic_label(path[:1])) if path else "The ruleset"


# -- the changes ----------------------------------------------------------------------------------

ONLY_IN_A, ONLY_IN_B, CHANGED = "only_in_a", "only_in_b", "changed"


@dataclass(frozen=True)
class Change:
    """One difference between two rulesets."""

    kind: str  # only_in_a | only_in_b | changed
    rule: str  # the kind of rule (contract.factor, auction.ladder, …), or "other"
    path: Path  # where in the rulesets (after inheritance)
    a: Any  # the value in A (MISSING where A has none)
    b: Any
    a_provenance: Provenance
    b_provenance: Provenance
    message: str  # the rule and both sides' values, one line
    label: str = ""
    a_text: str = ""
    b_text: str = ""

    @property
    def section(self) -> str:
        return section_of(self.path)

    def as_json(self, a_name: str, b_name: str) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "rule": self.rule,
            "section": self.section,
            "path": ".".join(map(str, self.path)),
            "message": self.message,
            "a": to_json(self.a),
            "b": to_json(self.b),
            "a_text": self.a_text,
            "b_text": self.b_text,
            "a_source": self.a_provenance.source,
            "a_status": self.a_provenance.status,
            "b_source": self.b_provenance.source,
            "b_status": self.b_provenance.status,
            "a_via": self.a_provenance.via,
            "b_via": self.b_provenance.via,
            "a_file": self.a_provenance.file,
            "a_line": self.a_provenance.line,
            "b_file": self.b_provenance.file,
            "b_line": self.b_provenance.line,
        }


def to_json(value: Any) -> Any:
    if value is MISSING:
        return None
    if isinstance(value, Expr):
        return value.text
    if isinstance(value, dict):
        return {_json_key(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def _json_key(key: Any) -> str:
    return ".".join(map(str, key)) if isinstance(key, tuple) else str(key)


def rule_differences(a: Side, b: Side) -> list[tuple[Path, Any, Any]]:
    """Where two rulesets' rules differ: (path, value in a, value in b)."""
    return [
        (path, va, vb)
        for path, va, vb in differences(a.tree, b.tree)
        # cards one pack lacks are said by its suits, not again by their points
        if not (
            path == ("deck", "points")
            and isinstance(va, dict)
            and isinstance(vb, dict)
            and all(va[c] == vb[c] for c in va if c in vb)
        )
    ]


def compare(a: Side, b: Side) -> list[Change]:
    """Every difference in meaning between two rulesets, in the order of the rules."""
    titles = Titles(a, b)
    changes = [_change(path, va, vb, a, b, titles) for path, va, vb in rule_differences(a, b)]
    order = {title: i for i, title in enumerate(dict.fromkeys(SECTIONS.values()))}
    return sorted(changes, key=lambda c: order.get(c.section, len(order)))  # stable: rules keep their order


def _change(path: Path, va: Any, vb: Any, a: Side, b: Side, titles: Titles) -> Change:
    template = template_for(path)
    label = template.label(path, titles) if template else fallback_label(path, titles)
    kind = ONLY_IN_A if vb is MISSING else ONLY_IN_B if va is MISSING else CHANGED
    ta, tb = _texts(path, va, vb, titles)
    message = f"{label}: {ta} ({a.name}) vs {tb} ({b.name})"
    return Change(
        kind,
        template.rule if template else "other",
        path,
        va,
        vb,
        a.provenance(path),
        b.provenance(path),
        message,
        label,
        ta,
        tb,
    )


def _texts(path: Path, va: Any, vb: Any, titles: Titles) -> tuple[str, str]:
    if path == ("deck", "points") and isinstance(va, dict) and isinstance(vb, dict):
        cards = [c for c in va if c in vb and va[c] != vb[c]]  # cards in one pack only: see the suits
        return ", ".join(f"{c} {va[c]}" for c in cards), ", ".join(f"{c} {vb[c]}" for c in cards)
    ta, tb = value_text(path, va, titles), value_text(path, vb, titles)
    if ta == tb and isinstance(va, dict) and isinstance(vb, dict):
        # A rule said briefly (a whole contract): the rules inside it that differ, in their words.
        rule = path[-1] if any(matches(p, path) for p in EFFECTS) and isinstance(path[-1], tuple) else path
        inner = differences(va, vb, rule)
        ta, tb = (
            "; ".join(f"{label_of(place, titles)}: {value_text(place, value, titles)}" for place, value in pairs)
            for pairs in ([(s, x) for s, x, _ in inner], [(s, y) for s, _, y in inner])
        )
    if ta == tb:  # the words hide the difference: show the values
        ta, tb = generic_text(va), generic_text(vb)
    return ta, tb


def report(changes: list[Change], a: Side, b: Side, width: int = 100, brief: bool = False) -> str:
    """The changes as text: with `brief`, one line per rule; else grouped by section, each rule
    wrapped to `width` and followed by both sides' sources."""
    if brief:
        return "\n".join(change.message for change in changes)
    lines: list[str] = []
    section = None
    for change in changes:
        if change.section != section:
            if lines:
                lines.append("")
            section = change.section
            lines.append(section)
        lines += textwrap.wrap(
            change.message, width, initial_indent="  ", subsequent_indent="      ", break_long_words=False
        )
        for side, prov in ((a, change.a_provenance), (b, change.b_provenance)):
            lines += textwrap.wrap(
                f"{side.name}: {prov.describe()}",
                width,
                initial_indent="      ",
                subsequent_indent="          ",
                break_long_words=False,
                break_on_hyphens=False,
            )
    return "\n".join(lines)


__all__ = ["TEMPLATES", "Change", "Template", "compare", "describe_effects", "label_of", "report", "value_text"]
