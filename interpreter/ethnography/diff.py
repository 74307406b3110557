"""The rule-by-rule differences between two rulesets, in words.

Both rulesets are read after inheritance, with their default readings and options, and compared
by what they mean, not how they are written: reordering keys, changing YAML style or moving a
rule into a base file shows no difference; renaming a call does. Each difference is one
sentence, with the source and status of each side:

  Solo factor: won ×1, lost ×2 (old-village) vs ×2 (my-village)
      old-village: dappen-de §10: …; reported; reading solo_factor: leaflet (rulesets/old-village.yaml:131)
      my-village: my-notes: interview of 3 May; reported (my-village.yaml:12)

Exit status: 0 the same, 1 they differ, 2 bad usage or a ruleset that does not load.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interpreter.ethnography.semantic import MISSING, Expr, Path, Provenance, Side, differences, matches

# -- values in words -----------------------------------------------------------------------------


def code(value: Any) -> str:
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
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(generic_text(v) for v in value) + "]" if value else "none"
    if isinstance(value, dict):
        if not value:
            return "none"
        return "{" + "; ".join(f"{_key_text(k)}: {generic_text(v)}" for k, v in value.items()) + "}"
    return str(value)


def _key_text(key: Any) -> str:
    return ".".join(map(str, key)) if isinstance(key, tuple) else str(key)


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


def plan_text(plan: Any) -> str:
    if not isinstance(plan, list) or not all(isinstance(p, dict) for p in plan):
        return generic_text(plan)
    parts, each, talon = [], 0, 0
    for packet in plan:
        if "each" in packet:
            parts.append(f"{packet['each']} each")
            each += int(packet["each"])
        elif "talon" in packet:
            parts.append(f"{packet['talon']} to the talon")
            talon += int(packet["talon"])
        else:
            parts.append(generic_text(packet))
    total = f"{each} cards each" + (f", talon {talon}" if talon else ", no talon")
    return f"{', '.join(parts)} ({total})"


def cards_text(cards: Any) -> str:
    if isinstance(cards, list):
        return " ".join(map(str, cards)) if cards else "none"
    return generic_text(cards)


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


def exchange_text(steps: Any) -> str:
    if not steps:
        return "none (the talon stays aside)"
    if not isinstance(steps, list):
        return generic_text(steps)
    parts = []
    for step in steps:
        if isinstance(step, dict) and "take_talon" in step:
            parts.append("takes up the talon")
        elif isinstance(step, dict) and isinstance(step.get("discard"), dict):
            d = step["discard"]
            count = (
                "as many cards as the talon had"
                if d.get("count") == "talon"
                else f"{d.get('count')} card{'' if d.get('count') == 1 else 's'}"
            )
            text = f"discards {count}"
            forbid = d.get("forbid")
            if isinstance(forbid, dict) and forbid.get("when") is not None:
                text += f", not a card for which {code(forbid['when'])}"
            rest = {k: v for k, v in d.items() if k not in ("count", "forbid")}
            if rest:
                text += f" ({generic_text(rest)})"
            parts.append(text)
        elif isinstance(step, dict) and isinstance(step.get("keep"), dict):
            k = step["keep"]
            text = f"keeps {k.get('count')} card{'s' if k.get('count') != 1 else ''}"
            if k.get("from") is not None:
                text += f" of {code(k['from'])}"
            if k.get("prefer") is not None:
                text += f", {code(k['prefer'])} if possible"
            if k.get("same_suit"):
                text += ", of one suit"
            if k.get("different_suits"):
                text += ", of different suits"
            if k.get("exposed"):
                text += ", face up"
            rest = {
                key: v
                for key, v in k.items()
                if key not in ("count", "from", "prefer", "same_suit", "different_suits", "exposed")
            }
            parts.append(text + (f" ({generic_text(rest)})" if rest else ""))
        elif isinstance(step, dict) and isinstance(step.get("forced_discard"), dict):
            f = step["forced_discard"]
            text = f"discards {code(f.get('cards'))}" + (" face up" if f.get("shown") else "")
            rest = {key: v for key, v in f.items() if key not in ("cards", "shown")}
            parts.append(text + (f" ({generic_text(rest)})" if rest else ""))
        else:
            parts.append(generic_text(step))
    return "; ".join(parts)


def level_text(level: Any) -> str:
    if not isinstance(level, dict) or "call" not in level:
        return generic_text(level)
    text = str(level["call"])
    if level.get("contract") not in (None, level["call"]):
        text += f" (plays {level['contract']})"
    if level.get("requires") is not None:
        text += f" if {code(level['requires'])}"
    if level.get("holdable") is False:
        text += " (cannot be held)"
    if level.get("ends"):
        text += f" (ends the {level['ends']})"
    rest = {k: v for k, v in level.items() if k not in ("call", "contract", "requires", "holdable", "ends")}
    if rest:
        text += f" ({generic_text(rest)})"
    return text


def ladder_text(ladder: Any) -> str:
    if not isinstance(ladder, list):
        return generic_text(ladder)
    return " < ".join(level_text(lv) for lv in ladder) if ladder else "none"


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
        text = f"{rule.get('call')} when {code(rule.get('when'))}"
        breach = rule.get("breach")
        if isinstance(breach, dict) and breach.get("pays_each") is not None:
            text += f" (who passes anyway pays {code(breach['pays_each'])} to each player)"
        parts.append(text)
    return "; ".join(parts)


def after_text(after: Any, titles: Any = None) -> str:
    if not after:
        return "the auction ends"
    if isinstance(after, dict):
        name = titles.phase if titles is not None else str
        return "; ".join(f"after {call}, the {name(phase)} follows" for call, phase in after.items())
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
    rest = {k: v for k, v in claim.items() if k not in ("when", "scores_as", "factor", "liable")}
    if rest:
        text += f" ({generic_text(rest)})"
    return text


def announcement_text(a: Any) -> str:
    if not isinstance(a, dict):
        return generic_text(a)
    parts = []
    if a.get("cards") is not None:
        text = f"lay out cards of {code(a['cards'])}"
        if a.get("value") is not None:
            text += f", each worth {code(a['value'])} to or from each opponent"
        parts.append(text)
    declares = a.get("declares")
    if isinstance(declares, dict):
        text = "declare it"
        if declares.get("wins") is not None:
            text += f", won when {code(declares['wins'])}"
        if declares.get("multiplier") is not None:
            text += f", the game multiplied by {declares['multiplier']}"
        rest = {k: v for k, v in declares.items() if k not in ("wins", "multiplier")}
        parts.append(text + (f" ({generic_text(rest)})" if rest else ""))
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
    who = {"defenders": "the opponents", "anyone": "anyone"}.get(w.get("by"), str(w.get("by")))
    text = f"allowed: {w.get('card')} by {who}"
    if w.get("when") is not None:
        text += f" when {code(w['when'])}"
    return text


def schedule_text(schedule: Any) -> str:
    if not schedule:
        return "none"
    if not isinstance(schedule, list):
        return generic_text(schedule)
    parts = []
    for entry in schedule:
        if isinstance(entry, dict):
            sets = " else ".join(code(s) for s in entry.get("play_from") or [])
            parts.append(f"trick {entry.get('trick')}: from {sets}")
        else:
            parts.append(generic_text(entry))
    return "; ".join(parts)


def packet_text(n: Any) -> str:
    return {1: "card by card", 2: "in pairs", 3: "in threes", 4: "in fours"}.get(n, f"in packets of {n}")


def aside_text(aside: Any) -> str:
    if not isinstance(aside, dict):
        return generic_text(aside)
    side = {"declarer": "the lone player", "defenders": "the opponents", "nobody": "nobody"}.get(
        aside.get("counts_for"), str(aside.get("counts_for"))
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
            parts.append(
                f"when {code(rule.get('when'))}, the {words([str(s).replace('_', ' ') for s in rule.get('seats') or []], 'and')} "
                f"each pay {code(rule.get('pays'))}, the other opponents {code(rule.get('others_pay'))}"
            )
        else:
            parts.append(generic_text(rule))
    return "; ".join(parts)


def mapping(table: dict) -> Callable[[Any], str]:
    return lambda value: (
        table.get(value, generic_text(value)) if not isinstance(value, (dict, list)) else generic_text(value)
    )


# -- rules in words: the templates ----------------------------------------------------------------


class Titles:
    """Display names of contracts, phases and calls, from whichever ruleset has them."""

    def __init__(self, *sides: Side):
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
        title = self._first(lambda s: s.entry_title(section, name), "")
        return title or name

    def question(self, section: str, name: str) -> str:
        question = self._first(lambda s: s.question(section, name), "")
        return f"{name} ({question})" if question else name


@dataclass(frozen=True)
class Template:
    pattern: Path
    rule: str  # a stable name for the kind of rule, for programs
    label: Callable[[Path, Titles], str]
    text: Callable[..., str] = generic_text
    missing: str | None = None  # how a rule one side leaves out reads; None: "absent"
    titled: bool = False  # text takes (value, titles)


def _t(
    pattern: tuple,
    rule: str,
    label: str | Callable[[Path, Titles], str],
    text: Callable[..., str] = generic_text,
    missing: str | None = None,
    titled: bool = False,
) -> Template:
    if isinstance(label, str):
        fixed = label
        label = lambda path, titles: fixed  # noqa: E731
    return Template(pattern, rule, label, text, missing, titled)


def _phase(suffix: str) -> Callable[[Path, Titles], str]:
    return lambda path, t: f"{t.phase(path[2])}: {suffix}"


def _contract(suffix: str) -> Callable[[Path, Titles], str]:
    return lambda path, t: f"{t.contract(path[1])} {suffix}".rstrip()


def choice_text(effects: Any, titles: Titles | None = None) -> str:
    """What a choice of a reading or option makes the rules say."""
    if not isinstance(effects, dict):
        return generic_text(effects)
    if not effects:
        return "changes nothing"
    return "; ".join(f"{label}: {value}" for label, value in describe_effects(effects, titles))


TEMPLATES: list[Template] = [
    _t(("family",), "family", "Family"),
    _t(("players",), "players", "Players"),
    _t(("players", "active"), "players.active", "Active players", players_text),
    _t(("players", "dealer_sits_out"), "players.dealer_sits_out", "The dealer sits out", sits_out_text, "never"),
    _t(("direction",), "direction", "Direction of play", missing="not stated"),
    _t(("deck",), "deck", "Pack"),
    _t(
        ("deck", "suits", "*"),
        "deck.suit",
        lambda p, t: "Trumps, high to low" if p[2] == "T" else f"Suit {p[2]}, high to low",
        suit_text,
    ),
    _t(("deck", "suit_names", "*"), "deck.suit_name", lambda p, t: f"Name of suit {p[2]} in rules"),
    _t(("deck", "points"), "deck.points", "Card points"),
    _t(("deck", "sets", "*"), "deck.set", lambda p, t: f"Card set {p[2]}", cards_text),
    _t(("deal", "plans", "*"), "deal.plan", lambda p, t: f"Deal with {p[2]} players", plan_text),
    _t(("deal", "remove", "*"), "deal.remove", lambda p, t: f"Cards removed with {p[2]} players", cards_text, "none"),
    _t(("calls", "*"), "call", lambda p, t: f"Call {t.call(p[1])}"),
    _t(("auction", "first"), "auction.first", "The auction opens with", lambda v, t: f"the {t.phase(v)}", titled=True),
    _t(
        ("auction", "breaches"),
        "auction.breaches",
        "A pass where a bid is compulsory",
        mapping({"refuse": "is refused", "penalize": "is accepted and penalised"}),
    ),
    _t(("auction", "phases", "*"), "auction.phase", lambda p, t: f"Auction phase {t.phase(p[2])}"),
    _t(("auction", "phases", "*", "ladder"), "auction.ladder", _phase("bids, lowest first"), ladder_text, "none"),
    _t(
        ("auction", "phases", "*", "hold"),
        "auction.hold",
        _phase("holding a later, higher bid"),
        lambda v: f"allowed, with {v}",
        "not allowed",
    ),
    _t(
        ("auction", "phases", "*", "raise"),
        "auction.raise",
        _phase("raising"),
        mapping({"next": "to the next bid only", "any": "to any higher bid"}),
    ),
    _t(
        ("auction", "phases", "*", "max_bidders"),
        "auction.max_bidders",
        _phase("bidders"),
        lambda v: f"at most {v}",
        "no limit",
    ),
    _t(
        ("auction", "phases", "*", "compulsory"),
        "auction.compulsory",
        _phase("compulsory bids"),
        compulsory_text,
        "none",
    ),
    _t(
        ("auction", "phases", "*", "then", "pass_out"),
        "auction.pass_out",
        _phase("when everybody passes"),
        lambda v, t: "the deal is thrown in" if v == "throw_in" else f"the {t.phase(v)} follows",
        titled=True,
    ),
    _t(
        ("auction", "phases", "*", "then", "after"),
        "auction.after",
        _phase("after the winning bid"),
        after_text,
        "the auction ends",
        titled=True,
    ),
    _t(("contracts", "*"), "contract", lambda p, t: t.contract(p[1])),
    _t(("contracts", "*", "factor"), "contract.factor", _contract("factor"), factor_text, "none"),
    _t(
        ("contracts", "*", "exchange"),
        "contract.exchange",
        _contract("exchange"),
        exchange_text,
        "none (the talon stays aside)",
    ),
    _t(
        ("contracts", "*", "declarer_wins"),
        "contract.declarer_wins",
        _contract("is won when"),
        code,
        "as the settlement says",
    ),
    _t(
        ("contracts", "*", "amount"),
        "contract.amount",
        _contract("amount per opponent"),
        code,
        "as the settlement says",
    ),
    _t(("claim",), "claim", "Showing the hand instead of playing it", claim_text, "not allowed"),
    _t(
        ("announcements", "*"),
        "announcement",
        lambda p, t: f"Announcement {t.entry('announcements', p[1])}",
        announcement_text,
    ),
    _t(
        ("play", "first_lead"),
        "play.first_lead",
        "First lead",
        mapping({"declarer": "by the lone player", "vorhand": "by Vorhand"}),
    ),
    _t(
        ("play", "follow_suit"),
        "play.follow_suit",
        "Following suit",
        mapping({True: "compulsory", False: "not required"}),
    ),
    _t(
        ("play", "when_void"),
        "play.when_void",
        "A player void in the suit led",
        mapping({"trump": "must trump", "any": "may play any card"}),
    ),
    _t(("play", "must_beat"), "play.must_beat", "Duty to head the trick", mapping({True: "yes", False: "no"})),
    _t(
        ("play", "withhold"),
        "play.withhold",
        "Withholding the only trump one could play (Gstiesieren)",
        withhold_text,
        "not allowed",
    ),
    _t(("play", "schedule"), "play.schedule", "Rules for particular tricks", schedule_text, "none"),
    _t(("counting", "packet"), "counting.packet", "Counting", packet_text),
    _t(("counting", "packet_deduct"), "counting.packet_deduct", "Points taken off each packet"),
    _t(("counting", "remainder_deduct"), "counting.remainder_deduct", "Points taken off the cards left over"),
    _t(("counting", "aside"), "counting.aside", "The talon and discards count for", aside_text),
    _t(("settlement", "unit"), "settlement.unit", "Unit of payment"),
    _t(("settlement", "declarer_wins"), "settlement.declarer_wins", "The lone player wins when", code, "not stated"),
    _t(("settlement", "amount"), "settlement.amount", "Amount per opponent", code, "not stated"),
    _t(
        ("settlement", "payment"),
        "settlement.payment",
        "Payment",
        mapping({"each_defender": "each opponent pays the lone player, or is paid"}),
    ),
    _t(
        ("settlement", "sitting_out"),
        "settlement.sitting_out",
        "A dealer who sits out",
        mapping({"no_part": "takes no part in the settlement", "defender": "pays and receives like an opponent"}),
    ),
    _t(("settlement", "liable"), "settlement.liable", "Opponents who pay for the whole team", liable_text, "none"),
]
for _section in ("readings", "options"):
    _kind = _section[:-1].capitalize()
    TEMPLATES += [
        _t((_section, "*"), _section[:-1], lambda p, t, k=_kind: f"{k} {t.question(p[0], p[1])}"),
        _t((_section, "*", "default"), f"{_section[:-1]}.default", lambda p, t, k=_kind: f"{k} {p[1]}: default"),
        _t(
            (_section, "*", "choices", "*"),
            f"{_section[:-1]}.choice",
            lambda p, t, k=_kind: f"{k} {p[1]}, choice {p[3]}",
            choice_text,
            titled=True,
        ),
    ]


TEMPLATES += [
    _t(("by_players", "*"), "by_players", lambda p, t: f"Rules of their own with {p[1]} players"),
    _t(
        ("by_players", "*", "effects"),
        "by_players.effects",
        lambda p, t: f"With {p[1]} players",
        choice_text,
        "nothing changes",
        titled=True,
    ),
]


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
    template = template_for(path)
    if value is MISSING:
        return template.missing if template and template.missing else "absent"
    try:
        if template is not None and template.titled:
            return template.text(value, titles or Titles())
        return template.text(value) if template else generic_text(value)
    except Exception:  # a shape the template does not know (a newer language): say it plainly
        return generic_text(value)


def describe_effects(effects: dict, titles: Titles | None = None) -> list[tuple[str, str]]:
    """What a reading's or option's choice sets, as (label, value) pairs."""
    titles = titles or Titles()
    return [(label_of(path, titles), value_text(path, value, titles)) for path, value in effects.items()]


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
    message: str

    def as_json(self, a_name: str, b_name: str) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "rule": self.rule,
            "path": ".".join(map(str, self.path)),
            "message": self.message,
            "a": to_json(self.a),
            "b": to_json(self.b),
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
        return {_key_text(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def compare(a: Side, b: Side) -> list[Change]:
    """Every difference in meaning between two rulesets, in the order of the rules."""
    titles = Titles(a, b)
    changes = []
    for path, va, vb in differences(a.tree, b.tree):
        if (
            path == ("deck", "points")
            and isinstance(va, dict)
            and isinstance(vb, dict)
            and all(va[c] == vb[c] for c in va if c in vb)
        ):
            continue  # only cards one pack lacks, which its suits already say
        changes.append(_change(path, va, vb, a, b, titles))
    return changes


def _change(path: Path, va: Any, vb: Any, a: Side, b: Side, titles: Titles) -> Change:
    template = template_for(path)
    label = template.label(path, titles) if template else fallback_label(path, titles)
    if (va is MISSING or vb is MISSING) and not (template and template.missing):
        kind = ONLY_IN_A if vb is MISSING else ONLY_IN_B
        message = f"{label}: absent in {b.name if vb is MISSING else a.name}"
    else:
        kind = CHANGED
        ta, tb = _texts(path, va, vb, titles)
        message = f"{label}: {ta} ({a.name}) vs {tb} ({b.name})"
    return Change(
        kind, template.rule if template else "other", path, va, vb, a.provenance(path), b.provenance(path), message
    )


def _texts(path: Path, va: Any, vb: Any, titles: Titles) -> tuple[str, str]:
    if path == ("deck", "points") and isinstance(va, dict) and isinstance(vb, dict):
        cards = [c for c in va if c in vb and va[c] != vb[c]]  # cards in one pack only: see the suits
        return ", ".join(f"{c} {va[c]}" for c in cards), ", ".join(f"{c} {vb[c]}" for c in cards)
    ta, tb = value_text(path, va, titles), value_text(path, vb, titles)
    if ta == tb:  # the words hide the difference: show the values
        ta, tb = generic_text(va), generic_text(vb)
    return ta, tb


def report(changes: list[Change], a: Side, b: Side) -> str:
    lines = []
    for change in changes:
        lines.append(change.message)
        for side, prov in ((a, change.a_provenance), (b, change.b_provenance)):
            lines.append(f"    {side.name}: {prov.describe()}")
    return "\n".join(lines)


# -- the command ----------------------------------------------------------------------------------

__all__ = ["TEMPLATES", "Change", "Template", "compare", "describe_effects", "label_of", "value_text"]
