"""What a ruleset means, as plain data: the common ground of `tarock diff`, `matrix`, `doc` and `tree`.

The meaning is the compiled `Ruleset` (interpreter.language.model), the very object the engine
plays: inheritance, `like`, readings and the defaults of the language are the compiler's alone,
so a ruleset and a copy of it that writes out its defaults read the same. The compiled ruleset is
laid out here as a tree in the words of the ruleset language (`contracts.dappen.factor`,
`play.when_void`), so that a place in the tree is also a place in the YAML: where it is written,
and its source and status, are looked up beside it (interpreter.language.provenance).
- expressions compare by their syntax tree (`a and b` = `b  and a`, `x > 3` = `3 < x`) and show
  as written;
- sets of cards compare card by card, and show by a name the pack gives them where it has one;
- the pack compares card by card (order within each suit, points, named sets), however written;
- titles, notes, sources, statuses, questions and reasons are not meaning: they stay in the
  documents and are looked up beside a path;
- readings, options and the rules for a number of players are described by what they change:
  for each choice, the rules where the choices differ.
A field the compiled model gains later shows under its own name until it is given a place here
(`tests/test_semantic.py` names any such field).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path as FilePath
from typing import Any, cast

from interpreter.errors import RulesetError
from interpreter.language.dsl import Expression
from interpreter.language.keys import default, places
from interpreter.language.loader import compile_document, find_ruleset_file, resolve
from interpreter.language.model import (
    TRUMP,
    Announcement,
    AuctionPhase,
    Bonus,
    CallCard,
    CallPartner,
    Claim,
    Contract,
    Counting,
    Deck,
    Discard,
    ForcedDiscard,
    Give,
    Keep,
    Level,
    PlayRules,
    Route,
    Ruleset,
    ScheduledTrick,
    SessionRule,
    Settlement,
    TakeTalon,
)
from interpreter.language.provenance import STATUSES, Origins, Provenance, least_certain
from interpreter.language.source import Document

# A place in the tree: keys as in the ruleset language; the effects of a choice are keyed by the
# place they change, so a place below them holds a place as one of its parts.
Path = tuple[Any, ...]

__all__ = [
    "MISSING",
    "STATUSES",
    "Cards",
    "Expr",
    "Path",
    "Provenance",
    "Side",
    "differences",
    "display_name",
    "get_path",
    "is_atomic",
    "least_certain",
    "read",
    "tree_of",
]

SECTION_ORDER = (
    "family",
    "players",
    "direction",
    "deck",
    "deal",
    "calls",
    "auction",
    "contracts",
    "claim",
    "announcements",
    "bonuses",
    "announcing",
    "kontra",
    "play",
    "counting",
    "settlement",
    "pot_ante",
    "accusation",
    "penalties",
    "session",
)
CHOICE_SECTIONS = ("readings", "options")
EFFECT_SECTIONS = ("by_players", *CHOICE_SECTIONS)  # patches, described by what they change


class _Missing:
    """A rule one side does not have."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()


# -- values ----------------------------------------------------------------------------------------


class Expr:
    """An expression of the rules language: shown as written, compared by its syntax tree."""

    __slots__ = ("key", "text")

    def __init__(self, text: str):
        self.text = " ".join(str(text).split())
        self.key = canonical_expression(str(text))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Expr) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Expr({self.text!r})"

    def __str__(self) -> str:
        return self.text


class Cards(tuple[str, ...]):
    """A set of cards in the pack's order; equal to the same cards however they were named.
    `name` is what the pack calls exactly these cards, if anything (for display only)."""

    name: str | None

    def __new__(cls, cards: Iterable[str], deck: Deck | None = None) -> Cards:
        chosen = frozenset(cards)
        order = {c: i for i, c in enumerate(deck.cards)} if deck is not None else {}
        result = super().__new__(cls, sorted(chosen, key=lambda c: (order.get(c, len(order)), c)))
        result.name = _set_name(chosen, deck) if deck is not None else None
        return result

    def __repr__(self) -> str:
        return f"Cards({' '.join(self)})"


def _set_name(cards: frozenset[str], deck: Deck) -> str | None:
    """What the pack calls exactly these cards: a named set (the ruleset's own first, then the
    trumps and suits), all but one, or two or three named sets together."""
    everything = frozenset(deck.cards)
    if not cards:
        return None
    if cards == everything:
        return "all cards"
    automatic = ["trumps", *(n for sid, n in deck.suit_names.items() if sid != TRUMP)]
    named = [(n, s) for n, s in deck.sets.items() if n != "cards" and n not in automatic and s]
    named += [(n, deck.sets[n]) for n in automatic if deck.sets.get(n)]
    for name, members in named:
        if members == cards:
            return name
    suits = [deck.sets[n] for n in automatic[1:] if deck.sets.get(n)]
    if suits and cards == frozenset().union(*suits):
        return "the suit cards"
    for name, members in named:
        if everything - members == cards:
            return f"all cards but {name}"
    for name, members in named:
        if cards < members and len(members - cards) <= 3:
            return f"{name} but {' '.join(c for c in deck.cards if c in members - cards)}"
    inside = [(n, s) for n, s in named if s <= cards]
    for index, (first, a) in enumerate(inside):
        for second, b in inside[index + 1 :]:
            if not a & b and a | b == cards:
                return f"{first} and {second}"
    return None


_FLATTEN = {"and", "or", "|", "&", "+", "*"}  # associative and commutative
_SYMMETRIC = {"==", "!="}
_MIRROR = {">": "<", ">=": "<="}


def canonical_expression(text: str) -> Any:
    """A hashable form of an expression that ignores spacing, parentheses and operand order."""
    from interpreter.language.dsl.errors import DslError
    from interpreter.language.dsl.parser import parse

    try:
        return _canon(parse(text))
    except (DslError, RecursionError):
        return ("text", " ".join(text.split()))


def _canon(node: Any) -> Any:
    from interpreter.language.dsl import nodes as n

    if isinstance(node, n.Integer):
        return ("int", node.value)
    if isinstance(node, n.String):
        return ("str", node.value)
    if isinstance(node, n.Boolean):
        return ("bool", node.value)
    if isinstance(node, n.Card):
        return ("card", node.card)
    if isinstance(node, n.Name):
        return ("name", node.name)
    if isinstance(node, n.Call):
        return ("call", node.function, tuple(_canon(a) for a in node.args))
    if isinstance(node, n.SetLiteral):
        return ("set", tuple(sorted({_canon(i) for i in node.items}, key=repr)))
    if isinstance(node, n.Unary):
        return ("unary", node.op, _canon(node.operand))
    if isinstance(node, n.Binary):
        if node.op in _FLATTEN:
            parts: list[Any] = []
            for side in (node.left, node.right):
                c = _canon(side)
                if c[0] == "flat" and c[1] == node.op:
                    parts.extend(c[2])
                else:
                    parts.append(c)
            return ("flat", node.op, tuple(sorted(parts, key=repr)))
        left, right = _canon(node.left), _canon(node.right)
        if node.op in _SYMMETRIC:
            return ("binary", node.op, *sorted((left, right), key=repr))
        if node.op in _MIRROR:
            return ("binary", _MIRROR[node.op], right, left)
        return ("binary", node.op, left, right)
    if isinstance(node, n.Conditional):
        return ("if", _canon(node.condition), _canon(node.then), _canon(node.otherwise))
    if isinstance(node, n.Quantifier):
        return ("quantifier", node.kind, node.variable, _canon(node.source), _canon(node.body))
    return ("node", repr(node))


# -- the compiled ruleset as a tree ------------------------------------------------------------------


def _expr(value: Expression[Any] | None) -> Expr | None:
    return Expr(value.source) if value is not None else None


def _put(target: dict[str, Any], key: str, value: Any) -> None:
    """Set a rule, leaving out what is not there (None, and empty lists of rules)."""
    if value is None or (isinstance(value, (list, dict)) and not value):
        return
    target[key] = value


def generic(value: Any, deck: Deck | None = None) -> Any:
    """Any compiled value as a tree: for fields without a place of their own."""
    if isinstance(value, Expression):
        return Expr(value.source)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for f in dataclasses.fields(value):
            _put(out, f.name, generic(getattr(value, f.name), deck))
        return out
    if isinstance(value, frozenset):
        return Cards(value, deck) if all(isinstance(c, str) for c in value) and deck is not None else sorted(value)
    if isinstance(value, Mapping):
        return {str(k): generic(v, deck) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [generic(v, deck) for v in value]
    return value


def _extra(obj: object, deck: Deck) -> dict[str, Any]:
    """The fields of `obj` that have no place of their own here yet (a newer language)."""
    known = HANDLED.get(type(obj), frozenset())
    out: dict[str, Any] = {}
    for f in dataclasses.fields(cast(Any, obj)):
        if f.name not in known:
            _put(out, f.name, generic(getattr(obj, f.name), deck))
    return out


# The fields of each compiled type that a place in the tree stands for, or that are not rules
# (names, titles, the documents, caches). Any other field shows under its own name.
HANDLED: dict[type, frozenset[str]] = {
    Ruleset: frozenset(
        {
            "name",
            "file",
            "title",
            "family",
            "deck",
            "active_players",
            "sit_out",
            "deal_plans",
            "deal_choice",
            "removed",
            "call_titles",
            "phases",
            "contracts",
            "claim",
            "announcements",
            "breaches",
            "play",
            "counting",
            "settlement",
            "groups",
            "choices",
            "document",
            "parents",
            "ref",
            "session",
            "accusation",
            "pot_ante",
            "thrown_in",
            "redeal",
            "penalties",
            "by_players",
            "player_rules",
            "derived",
            "rechoose",
            "direction",
            "usual_players",
            "bonuses",
            "announcing",
            "kontra_game",
            "kontra_bonuses",
            "kontra_answer",
        }
    ),
    AuctionPhase: frozenset(
        {
            "name",
            "title",
            "ladder",
            "hold",
            "raise_any",
            "max_bidders",
            "compulsory",
            "pass_out",
            "after",
            "interrupts",
            "choose",
            "pass_out_play",
            "pass_out_holder",
            "choose_when",
            "carried_may_hold",
            "answer",
            "priority",
            "style",
            "speakers",
            "start",
            "hold_by",
            "interrupt_priority",
            "side_bids",
            "hold_same",
        }
    ),
    Contract: frozenset(
        {
            "name",
            "title",
            "exchange",
            "factor_won",
            "factor_lost",
            "declarer_wins",
            "amount",
            "opening_leads",
            "individual",
            "talon_counts",
            "trump_suit",
            "no_trump_suit",
            "open_hand",
            "talon_to_last_trick",
            "pot",
            "trump_choice",
            "schedule",
            "play",
            "out_of_play",
            "open_hand_who",
            "open_hand_from",
            "bonus_factor",
            "bonuses",
            "must_announce",
            "concede",
            "talon_to_tricks",
            "doubling",
        }
    ),
    PlayRules: frozenset(
        {
            "first_lead",
            "follow_suit",
            "must_trump",
            "must_beat",
            "withhold",
            "excuse",
            "trump_suit",
            "schedule",
            "discards_visible_until",
            "tricks_seen",
            "last_of_suit",
            "trumps_win",
            "lead_trumps",
            "exceptions",
            "duties",
            "keep_back",
            "ends_early",
            "first_lead_offset",
            "suit_ranks",
        }
    ),
    Counting: frozenset(
        {"packet", "packet_deduct", "remainder_deduct", "aside_counts_for", "aside_unless", "declarer_bonus"}
    ),
    Settlement: frozenset(
        {"unit", "payment", "sitting_out", "liable", "declarer_wins", "amount", "drawn", "stake", "split"}
    ),
    SessionRule: frozenset(
        {"deals", "holder_of", "dealer", "dealer_when", "rounds", "until", "special_rounds", "sheet", "pot", "pots"}
    ),
}


def tree_of(rs: Ruleset) -> dict[str, Any]:
    """The rules of a compiled ruleset (its readings, options and player counts aside)."""
    deck = rs.deck
    tree: dict[str, Any] = {}
    _put(tree, "family", rs.family)
    players: dict[str, Any] = {}
    _put(players, "active", list(rs.active_players))
    # `dealer_sits_out: [8]` and `sit_out: {"8": [0]}` are one rule: said in the general word.
    _put(players, "sit_out", {str(n): list(out) for n, out in rs.sit_out.items()})
    _put(players, "usual", rs.usual_players)
    _put(tree, "players", players)
    _put(tree, "direction", rs.direction)
    tree["deck"] = _deck(deck)
    deal: dict[str, Any] = {}
    _put(
        deal,
        "plans",
        {str(n): [{p.to: p.count} for p in plan] for n, plan in sorted(rs.deal_plans.items())},
    )
    _put(deal, "remove", {str(n): Cards(cards, deck) for n, cards in sorted(rs.removed.items()) if cards})
    if rs.deal_choice is not None:
        deal["choice"] = {
            "usual": rs.deal_choice.usual,
            "plans": {
                name: {str(n): [{p.to: p.count} for p in plan] for n, plan in sorted(by_players.items())}
                for name, by_players in rs.deal_choice.plans.items()
            },
        }
    _put(tree, "deal", deal)
    _put(tree, "calls", {call: {} for call in used_calls(rs)})
    _put(tree, "auction", _auction(rs))
    _put(tree, "contracts", {name: _contract(c, rs) for name, c in rs.contracts.items()})
    if rs.claim is not None:
        tree["claim"] = _claim(rs.claim)
    _put(tree, "announcements", {name: _announcement(a, deck) for name, a in rs.announcements.items()})
    _put(tree, "bonuses", {name: _bonus(b, deck) for name, b in rs.bonuses.items()})
    if rs.announcing is not None:
        announcing: dict[str, Any] = {"start": rs.announcing.start, "done": rs.announcing.done}
        _put(announcing, "may_announce", _expr(rs.announcing.may_announce))
        tree["announcing"] = announcing
    kontra: dict[str, Any] = {}
    for key, rule in (("game", rs.kontra_game), ("bonuses", rs.kontra_bonuses)):
        if rule is not None:
            most = "none" if rule.max is None else rule.max
            kontra[key] = {"max": most, **({"titles": list(rule.titles)} if rule.titles else {})}
            _put(kontra[key], "eligible", _expr(rule.eligible))
    if kontra:
        kontra["answer"] = rs.kontra_answer
    _put(tree, "kontra", kontra)
    tree["play"] = _play(rs.play, deck)
    tree["counting"] = _counting(rs.counting, deck)
    tree["settlement"] = _settlement(rs.settlement, deck)
    _put(tree, "pot_ante", _expr(rs.pot_ante))
    if rs.accusation is not None:
        tree["accusation"] = {"phase": rs.accusation.phase, "strong": Expr(rs.accusation.strong.source)}
    if rs.penalties is not None:
        tree["penalties"] = {
            "mode": rs.penalties.mode,
            "offences": sorted(rs.penalties.offences),
            "pays_each": Expr(rs.penalties.pays_each.source),
            "paid_by": rs.penalties.paid_by,
        }
    session: dict[str, Any] = {}
    srule = rs.session
    _put(session, "dealer", srule.dealer)
    _put(session, "dealer_when", [{"when": Expr(w.when.source), "dealer": w.dealer} for w in srule.dealer_when])
    _put(session, "deals", srule.deals)
    _put(session, "rounds", srule.rounds)
    _put(session, "until", Expr(srule.until.source) if srule.until is not None else None)
    _put(session, "holder_of", srule.holder_of)
    special: dict[str, Any] = {}
    for r in srule.special_rounds:
        entry: dict[str, Any] = {"at": r.at, "rounds": r.rounds, "options": dict(r.options)}
        _put(entry, "after", dict(r.after))
        special[r.name] = entry
    _put(session, "special_rounds", special)
    if srule.sheet is not None:
        sheet = srule.sheet
        session["sheet"] = {
            "score": Expr(sheet.score.source),
            "start": sheet.start,
            "settle": sheet.settle,
            "stake": sheet.stake,
        }
    if srule.pot is not None:
        session_pot: dict[str, Any] = {"left": srule.pot.left}
        _put(session_pot, "ante", Expr(srule.pot.ante.source) if srule.pot.ante is not None else None)
        _put(session_pot, "each_deal", Expr(srule.pot.each_deal.source) if srule.pot.each_deal is not None else None)
        session["pot"] = session_pot
    accounts: dict[str, Any] = {}
    for account in srule.pots:
        pot: dict[str, Any] = {"left": account.left}
        for key in ("ante", "each_deal", "dealer"):
            _put(pot, key, _expr(getattr(account, key)))
        pays = []
        for payout in account.pays:
            item: dict[str, Any] = {"to": payout.to, "amount": Expr(payout.amount.source)}
            _put(item, "contracts", sorted(payout.contracts))
            _put(item, "when", _expr(payout.when))
            _put(item, "seat", _expr(payout.seat))
            pays.append(item)
        _put(pot, "pays", pays)
        accounts[account.name] = pot
    _put(session, "pots", accounts)
    session.update(_extra(srule, deck))
    _put(tree, "session", session)
    for key, value in _extra(rs, deck).items():
        tree.setdefault(key, value)
    return tree


def used_calls(rs: Ruleset) -> list[str]:
    """The calls the auction uses (a call defined but used by no phase is not a rule)."""
    return rs.used_calls()


def _deck(deck: Deck) -> dict[str, Any]:
    suits: dict[str, list[str]] = {}
    for card in deck.cards:
        suits.setdefault(deck.suit[card], []).append(card)
    automatic = {"cards", "trumps", *deck.suit_names.values()}
    out: dict[str, Any] = {
        "suits": {sid: sorted(cards, key=lambda c: -deck.rank[c]) for sid, cards in suits.items()},
        "suit_names": {sid: name for sid, name in deck.suit_names.items() if sid in suits and sid != TRUMP},
        "points": dict(deck.points),
    }
    _put(out, "sets", {name: Cards(cards, deck) for name, cards in deck.sets.items() if name not in automatic})
    return out


def _level(level: Level) -> dict[str, Any]:
    out: dict[str, Any] = {"call": level.call}
    _put(out, "contract", level.contract)
    _put(out, "requires", _expr(level.requires))
    out["holdable"] = level.holdable
    _put(out, "ends", level.ends)
    if level.jump != default("auction.phases.*.ladder[].jump"):
        out["jump"] = level.jump
    if level.answered_by is not None:
        answer = level.answered_by
        out["answered_by"] = {"by": answer.by, "accept": answer.accept, "refuse": answer.refuse}
    return out


def _phase(phase: AuctionPhase, deck: Deck) -> dict[str, Any]:
    out: dict[str, Any] = {}
    _put(out, "ladder", [_level(lv) for lv in phase.ladder])
    _put(out, "hold", "same" if phase.hold_same else phase.hold)
    out["raise"] = "any" if phase.raise_any else "next"
    _put(out, "max_bidders", phase.max_bidders)
    # Compulsory bids are named only so that a variant can remove one: compared without names.
    rules = []
    for rule in phase.compulsory:
        entry: dict[str, Any] = {"call": rule.call, "when": Expr(rule.when.source)}
        if rule.or_higher != default("auction.phases.*.compulsory.*.or_higher"):
            entry["or_higher"] = rule.or_higher
        if rule.breach_pays_each is not None:
            entry["breach"] = {"pays_each": Expr(rule.breach_pays_each.source)}
        rules.append(entry)
    _put(out, "compulsory", sorted(rules, key=lambda r: (r["call"], repr(r["when"].key))))
    then: dict[str, Any] = {"pass_out": phase.pass_out}
    _put(then, "play", phase.pass_out_play)
    _put(then, "holder_of", list(phase.pass_out_holder))
    _put(then, "after", dict(phase.after))
    _put(then, "choose", {call: [_level(lv) for lv in levels] for call, levels in phase.choose.items()})
    if phase.choose_when != default("auction.phases.*.then.choose_when"):
        then["choose_when"] = phase.choose_when
    out["then"] = then
    _put(out, "interrupts", [_level(lv) for lv in phase.interrupts])
    _put(out, "side_bids", [{**_level(lv), "over": sorted(over)} for lv, over in phase.side_bids])
    out["carried_may_hold"] = phase.carried_may_hold
    out["answer"] = phase.answer
    out["style"] = phase.style
    out["speakers"] = phase.speakers
    out["start"] = phase.start
    out["hold_by"] = phase.hold_by
    out["priority"] = phase.priority
    out["interrupt_priority"] = phase.interrupt_priority
    out.update(_extra(phase, deck))
    return out


def _auction(rs: Ruleset) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if rs.phases:
        out["first"] = rs.phases[0].name  # the compiler puts the opening phase first
    out["breaches"] = rs.breaches
    if rs.thrown_in is not None:
        rule = rs.thrown_in
        out["thrown_in"] = {"payer": rule.payer, "pays": Expr(rule.pays.source), "to": rule.to}
    _put(out, "redeal", [{"when": Expr(r.when.source), "reason": r.reason} for r in rs.redeal])
    _put(out, "phases", {phase.name: _phase(phase, rs.deck) for phase in rs.phases})
    return out


def _step(step: object, deck: Deck) -> dict[str, Any]:
    # `object`: a kind of step the language gains later still shows, under its own name
    if isinstance(step, TakeTalon):
        take: dict[str, Any] = {}
        if step.parts != default("contracts.*.exchange[].take_talon.parts"):
            take["parts"] = step.parts
        if step.shown != default("contracts.*.exchange[].take_talon.shown"):
            take["shown"] = step.shown
        if step.count is not None:
            take.update(count=step.count, **{"from": step.end})
            if step.rest_seen_by != default("contracts.*.exchange[].take_talon.rest_seen_by"):
                take["rest_seen_by"] = step.rest_seen_by
        return {"take_talon": take}
    if isinstance(step, CallPartner):
        partner: dict[str, Any] = {}
        if step.allowed != frozenset(deck.cards):
            partner["from"] = Cards(step.allowed, deck)
        if step.unnamed is not None:
            unnamed: dict[str, Any] = {"choice": step.unnamed}
            _put(unnamed, "when", _expr(step.unnamed_when))
            partner["unnamed"] = unnamed
        _put(partner, "own_only_when", _expr(step.own_only_when))
        return {"call_partner": partner}
    if isinstance(step, Discard):
        discard: dict[str, Any] = {"count": "talon" if step.count is None else step.count}
        if step.forbid is not None:
            discard["forbid"] = {"when": Expr(step.forbid.source)}
        if step.prefer:
            discard["prefer"] = [{"when": Expr(p.when.source)} for p in step.prefer]
        if step.shown is not None:
            discard["shown"] = Expr(step.shown.source)
        if step.all_or_none:
            discard["all_or_none"] = [{"when": Expr(c.when.source)} for c in step.all_or_none]
        return {"discard": discard}
    if isinstance(step, Keep):
        keep: dict[str, Any] = {"count": step.count}
        if step.allowed != frozenset(deck.cards):
            keep["from"] = Cards(step.allowed, deck)
        if step.prefer is not None:
            keep["prefer"] = Cards(step.prefer, deck)
        keep.update(same_suit=step.same_suit, different_suits=step.different_suits, exposed=step.exposed)
        return {"keep": keep}
    if isinstance(step, ForcedDiscard):
        return {"forced_discard": {"cards": Expr(step.cards.source), "shown": step.shown}}
    if isinstance(step, CallCard):
        called: dict[str, Any] = {}
        if step.allowed != frozenset(deck.cards):
            called["from"] = Cards(step.allowed, deck)
        called["in_talon"] = step.in_talon
        return {"call_card": called}
    if isinstance(step, Give):
        return {"give": {}}
    name = "".join("_" + c.lower() if c.isupper() else c for c in type(step).__name__).lstrip("_")
    return {name: generic(step, deck)}


def _schedule(schedule: Iterable[ScheduledTrick], deck: Deck) -> list[dict[str, Any]]:
    return [{"trick": t.trick, "play_from": [Cards(s, deck) for s in t.play_from]} for t in schedule]


def _suit_name(deck: Deck, sid: str | None) -> str | None:
    return deck.suit_names.get(sid, sid) if sid is not None else None


def _contract(c: Contract, rs: Ruleset) -> dict[str, Any]:
    deck = rs.deck
    out: dict[str, Any] = {}
    if c.individual is not None:
        individual: dict[str, Any] = {}
        _put(individual, "loser", c.individual.loser)
        if c.individual.loser is not None:
            individual["ties"] = c.individual.ties
        _put(individual, "pays_each", _expr(c.individual.pays_each))
        _put(
            individual,
            "payments",
            [
                {
                    "payers": _expr(p.payers) or "others",
                    "receivers": _expr(p.receivers) or "others",
                    "amount": Expr(p.amount.source),
                    "match": p.match,
                }
                for p in c.individual.payments
            ],
        )
        out["individual"] = individual
    if c.factor_won is not None or c.factor_lost is not None:
        out["factor"] = {"won": c.factor_won, "lost": c.factor_lost}
    # The contract's own formula only where it is not the settlement's.
    for key, own, common in (
        ("declarer_wins", c.declarer_wins, rs.settlement.declarer_wins),
        ("amount", c.amount, rs.settlement.amount),
    ):
        if own is not None and (common is None or Expr(own.source) != Expr(common.source)):
            out[key] = Expr(own.source)
    _put(out, "exchange", [_step(s, deck) for s in c.exchange])
    if c.opening_leads is not None:
        leads = c.opening_leads
        out["opening_leads"] = {
            "replace_same_suit": leads.replace_same_suit,
            "together": leads.together,
            "suit_order": [_suit_name(deck, s) or s for s in leads.suit_order],
            "declarer_leads_after": leads.declarer_leads_after,
        }
    trumps: dict[str, Any] = {}
    _put(trumps, "suit", _suit_name(deck, c.trump_suit))
    _put(trumps, "choose", [_suit_name(deck, s) for s in c.trump_choice])
    if c.no_trump_suit:
        trumps["none"] = True
    _put(out, "trumps", trumps)
    _put(out, "pot", _expr(c.pot))
    if c.schedule is not None:
        out["schedule"] = _schedule(c.schedule, deck)  # empty: this contract has no such tricks
    out["talon_counts"] = c.talon_counts
    out["open_hand"] = c.open_hand
    out["talon_to_last_trick"] = c.talon_to_last_trick
    if c.open_hand and (c.open_hand_who, c.open_hand_from) != (
        default("contracts.*.open_hand.who"),
        default("contracts.*.open_hand.from_trick"),
    ):
        out["open_hand"] = {"who": c.open_hand_who, "from_trick": c.open_hand_from}
    if c.play is not None and c.play != rs.play:
        own_play, common_play = _play(c.play, deck), _play(rs.play, deck)
        _put(out, "play", {k: v for k, v in own_play.items() if common_play.get(k) != v})
    if c.out_of_play is not None:
        out["out_of_play"] = {
            "talon": _routes(c.out_of_play.talon),
            "discards": _routes(c.out_of_play.discards),
        }
    if c.bonus_factor != default("contracts.*.bonus_factor"):
        out["bonus_factor"] = c.bonus_factor
    if c.bonuses is not None:
        out["bonuses"] = sorted(c.bonuses)
    if c.must_announce is not None:
        out["must_announce"] = {"one_of": list(c.must_announce.one_of)}
    if c.concede is not None:
        out["concede"] = {"when": Expr(c.concede.when.source), "pays": Expr(c.concede.pays.source)}
    if c.talon_to_tricks:
        out["talon_to_tricks"] = {"first": c.talon_to_tricks}
    if c.doubling is not None:
        out["doubling"] = {"start": c.doubling.start, "sitting_out": c.doubling.sitting_out}
    out.update(_extra(c, deck))
    return out


def _routes(routes: Iterable[Route]) -> Any:
    """One destination as a word; several routes as a list."""
    listed = [{"to": r.to, **({"when": Expr(r.when.source)} if r.when is not None else {})} for r in routes]
    return listed[0]["to"] if len(listed) == 1 and "when" not in listed[0] else listed


def _bonus(b: Bonus, deck: Deck) -> dict[str, Any]:
    out: dict[str, Any] = {"achieved": Expr(b.achieved.source)}
    _put(out, "value", _expr(b.value))
    _put(out, "announced", _expr(b.announced))
    _put(out, "attempted", _expr(b.attempted))
    _put(out, "card", b.card)
    _put(out, "trick", b.trick)
    if b.replaces_game != "never":
        out["replaces_game"] = True if b.replaces_game == "scored" else "made"
    _put(out, "requires", _expr(b.requires))
    # What a bonus is unless it says otherwise is not shown (a base and its variant compare alike).
    for key in ("scope", "forced_early", "whose"):
        if getattr(b, key) != default(f"bonuses.*.{key}"):
            out[key] = getattr(b, key)
    return out


def _claim(claim: Claim) -> dict[str, Any]:
    out: dict[str, Any] = {"when": Expr(claim.when.source), "scores_as": claim.scores_as}
    _put(out, "factor", claim.factor)
    out["liable"] = claim.liable
    return out


def _announcement(a: Announcement, deck: Deck) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if a.cards:
        out["cards"] = Cards(a.cards, deck)
    _put(out, "value", _expr(a.value))
    if a.declares is not None:
        declares: dict[str, Any] = {"wins": Expr(a.declares.wins.source), "multiplier": a.declares.multiplier}
        _put(declares, "amount", _expr(a.declares.amount))
        declares["releases_exposed"] = a.declares.releases_exposed
        out["declares"] = declares
    if a.contracts is not None:
        out["contracts"] = sorted(a.contracts)
    return out


def _play(play: PlayRules, deck: Deck) -> dict[str, Any]:
    out: dict[str, Any] = {
        "first_lead": play.first_lead,
        **({"first_lead_offset": play.first_lead_offset} if play.first_lead_offset else {}),
        "follow_suit": play.follow_suit,
        "when_void": "trump" if play.must_trump else "any",
        "must_beat": play.must_beat,
    }
    if play.withhold is not None:
        withhold: dict[str, Any] = {"card": play.withhold.card, "by": play.withhold.by}
        _put(withhold, "when", _expr(play.withhold.when))
        if play.withhold.goes_to != default("play.withhold.goes_to"):
            withhold["goes_to"] = play.withhold.goes_to
        if play.withhold.compensation != "lowest_value":  # (the model's default: the card made up)
            withhold["compensation"] = {"gives": play.withhold.compensation}
        out["withhold"] = withhold
    if play.excuse is not None:
        excuse: dict[str, Any] = {"card": play.excuse.card}
        if play.excuse.goes_to != default("play.excuse.goes_to"):
            excuse["goes_to"] = play.excuse.goes_to
        if play.excuse.compensation != "none":
            excuse["compensation"] = {"gives": play.excuse.compensation}
        if play.excuse.last_trick != default("play.excuse.last_trick"):
            excuse["last_trick"] = play.excuse.last_trick
        if play.excuse.slam != default("play.excuse.slam"):
            excuse["slam"] = play.excuse.slam
        out["excuse"] = excuse
    _put(out, "trump_suit", _suit_name(deck, play.trump_suit))
    _put(out, "schedule", _schedule(play.schedule, deck))
    _put(out, "discards_visible_until", play.discards_visible_until)
    if play.tricks_seen != default("play.tricks_seen"):
        out["tricks_seen"] = play.tricks_seen
    if play.last_of_suit:
        out["last_of_suit"] = Cards(play.last_of_suit, deck)
    trumps: dict[str, Any] = {}
    if play.trumps_win != default("play.trumps.win"):
        trumps["win"] = play.trumps_win
    if play.lead_trumps != default("play.trumps.lead"):
        trumps["lead"] = play.lead_trumps
    _put(out, "trumps", trumps)
    _put(
        out,
        "exceptions",
        [
            {"cards": Cards(e.cards, deck), "wins": e.wins, **({"when": Expr(e.when.source)} if e.when else {})}
            for e in play.exceptions
        ],
    )
    _put(
        out,
        "duties",
        [
            {
                "cards": Cards(d.cards, deck),
                **({"must": Expr(d.must.source)} if d.must else {}),
                **({"may_not": Expr(d.may_not.source)} if d.may_not else {}),
            }
            for d in play.duties
        ],
    )
    _put(out, "keep_back", [{"cards": Cards(k.cards, deck), "until": k.until} for k in play.keep_back])
    _put(out, "suit_ranks", list(play.suit_ranks))
    if play.ends_early is not None:
        out["ends_early"] = {"when": Expr(play.ends_early.when.source), "rest": play.ends_early.rest}
    out.update(_extra(play, deck))
    return out


def _counting(counting: Counting, deck: Deck) -> dict[str, Any]:
    out: dict[str, Any] = {
        "packet": counting.packet,
        "packet_deduct": counting.packet_deduct,
        "remainder_deduct": counting.remainder_deduct,
    }
    aside: dict[str, Any] = {"counts_for": counting.aside_counts_for}
    _put(aside, "unless", _expr(counting.aside_unless))
    out["aside"] = aside
    _put(out, "declarer_bonus", _expr(counting.declarer_bonus))
    out.update(_extra(counting, deck))
    return out


def _settlement(s: Settlement, deck: Deck) -> dict[str, Any]:
    out: dict[str, Any] = {"unit": s.unit, "payment": s.payment, "sitting_out": s.sitting_out}
    _put(
        out,
        "liable",
        [
            {
                "when": Expr(rule.when.source),
                "seats": list(rule.seats),
                "pays": Expr(rule.pays.source),
                "others_pay": Expr(rule.others_pay.source),
            }
            for rule in s.liable
        ],
    )
    _put(out, "declarer_wins", _expr(s.declarer_wins))
    _put(out, "amount", _expr(s.amount))
    _put(out, "drawn", _expr(s.drawn))
    out["stake"] = s.stake
    if s.split != (1, 1):
        out["split"] = {"declarer": s.split[0], "partner": s.split[1]}
    out.update(_extra(s, deck))
    return out


# -- one ruleset, read for comparison ------------------------------------------------------------------


@dataclass
class Side:
    """One ruleset as `diff`, `matrix`, `doc` and `tree` see it: the compiled ruleset, the tree of
    its rules, and where each rule is written."""

    ref: str
    name: str
    ruleset: Ruleset
    origins: Origins
    tree: dict[str, Any]

    @property
    def choices(self) -> dict[str, str]:
        return dict(self.ruleset.choices)

    @property
    def parents(self) -> list[str]:
        return list(self.origins.raw.parents)

    def title(self) -> str:
        return self.ruleset.title or self.name

    # titles of named things, for sentences
    def contract_title(self, name: str) -> str | None:
        contract = self.ruleset.contracts.get(name)
        return contract.title if contract is not None else self.choice_title("contracts", name)

    def bonus_title(self, name: str) -> str | None:
        bonus = self.ruleset.bonuses.get(name)
        return bonus.title if bonus is not None else self.choice_title("bonuses", name)

    def choice_title(self, section: str, name: str) -> str | None:
        """The title of a contract or bonus that only another reading or option plays (one not
        allowed by default, a bonus a choice adds): as written, or in the choice's rules."""
        written = self.written((section, name), "title")
        if written:
            return written
        data = self.origins.raw.data if isinstance(self.origins.raw.data, dict) else {}
        for kind in ("readings", "options"):
            for group in (data.get(kind) or {}).values():
                choices = group.get("choices") if isinstance(group, dict) else None
                for body in (choices or {}).values() if isinstance(choices, dict) else ():
                    rules = body.get("rules") if isinstance(body, dict) else None
                    entry = ((rules or {}).get(section) or {}).get(name) if isinstance(rules, dict) else None
                    if isinstance(entry, dict) and isinstance(entry.get("title"), str):
                        return " ".join(entry["title"].split())
        return None

    def call_title(self, name: str) -> str | None:
        return self.ruleset.call_titles.get(name)

    def phase_title(self, name: str) -> str | None:
        for phase in self.ruleset.phases:
            if phase.name == name:
                return phase.title
        return None

    def entry_title(self, section: str, name: str) -> str | None:
        if section == "announcements" and name in self.ruleset.announcements:
            return self.ruleset.announcements[name].title
        return self.written(self.doc_path((section, name)), "title")

    def question(self, section: str, name: str) -> str | None:
        for group in self.ruleset.groups:
            if group.name == name and group.kind == section:
                return group.question
        return None

    # where a rule stands in the documents
    def doc_path(self, path: Path) -> Path:
        """The place in the ruleset's document that a path of the tree stands for."""
        data = self.origins.data
        head = path[:1]
        if head == ("deck",):
            return self._deck_path(path)
        if head == ("contracts",) and len(path) >= 3:
            return self._contract_path(path)
        if head in (("readings",), ("options",)) and len(path) > 4:
            return path[:4]  # a choice's effects: the choice
        if head == ("by_players",) and len(path) > 2:
            return path[:2]
        if path[:2] == ("auction", "phases") and len(path) > 4 and path[3] == "compulsory":
            return path[:4]  # compulsory bids are compared without their names
        result: list[str | int] = []
        node: Any = data
        for part in path:
            if isinstance(node, list) and isinstance(part, str):
                index = _index_by_name(node, part)
                if index is None:
                    break
                result.append(index)
                node = node[index]
            elif isinstance(node, dict) and part in node:
                result.append(part)
                node = node[part]
            else:
                result.append(part)
                node = None
        return tuple(result)

    def _deck_path(self, path: Path) -> Path:
        deck = self.origins.node(("deck",)) or {}
        if path[1:2] == ("points",):
            return ("deck", "points")
        if path[1:2] == ("sets",) and len(path) > 2:
            for where in ("sets", "rank_sets"):
                if path[2] in (deck.get(where) or {}):
                    return ("deck", where, path[2])
        if path[1:2] in (("suits",), ("suit_names",)) and len(path) > 2:
            if path[2] == TRUMP:
                return ("deck", "trumps")
            for i, suit in enumerate(deck.get("suits") or []):
                if isinstance(suit, dict) and suit.get("id") == path[2]:
                    return ("deck", "suits", i) + (("name",) if path[1] == "suit_names" else ())
        return ("deck",)

    def _contract_path(self, path: Path) -> Path:
        """A contract's rule is written in that contract, in the one it is `like`, or (its
        formulas) in the settlement."""
        contracts = self.origins.node(("contracts",)) or {}
        name, key, seen = str(path[1]), path[2], {str(path[1])}
        while True:
            own = contracts.get(name)
            if not isinstance(own, dict):
                break
            if key in own:
                return ("contracts", name) + tuple(path[2:])
            parent = own.get("like")
            if not isinstance(parent, str) or parent in seen:
                break
            name = parent
            seen.add(name)
        if key in ("declarer_wins", "amount") and self.origins.node(("settlement", key)) is not None:
            return ("settlement", str(key))
        return tuple(path)  # written nowhere: the language's default, credited to the contract

    def written(self, doc_path: Path, key: str) -> str | None:
        """A text written beside a rule (its note, title …), in one line."""
        node = self.origins.node(doc_path)
        value = node.get(key) if isinstance(node, dict) else None
        return " ".join(str(value).split()) if value is not None else None

    def note(self, path: Path) -> str | None:
        return self.written(self.doc_path(path), "note")

    def provenance(self, path: Path) -> Provenance:
        """Where a rule of the tree is written, its source and status."""
        doc_path = self.doc_path(path)
        if is_atomic(path):
            return self.origins.combined(doc_path)
        return self.origins.provenance(doc_path)


def _index_by_name(items: list[Any], name: str) -> int | None:
    for i, item in enumerate(items):
        if isinstance(item, dict) and any(item.get(k) == name for k in ("name", "id", "call")):
            return i
    return None


def display_name(ref: str) -> str:
    return FilePath(ref).stem if ref.endswith((".yaml", ".yml")) else ref


Stamp = tuple[str, int, str]  # the file a name finds, its modification time, the working directory


def _stamp(ref: str) -> Stamp:
    """What the caches below are keyed by besides the name: the same name may find another file
    from another working directory, and places name their files as seen from it."""
    file = find_ruleset_file(ref)
    try:
        changed = file.stat().st_mtime_ns if file is not None else 0
    except OSError:
        changed = 0
    return (str(file), changed, str(FilePath.cwd()))


@lru_cache(maxsize=32)
def _resolved(ref: str, stamp: Stamp) -> Document:
    return resolve(ref, playable=True)


@lru_cache(maxsize=256)
def _compiled(ref: str, stamp: Stamp, chosen: tuple[tuple[str, str], ...], checked: bool) -> Ruleset:
    doc = _resolved(ref, stamp)
    if checked:
        return compile_document(doc, ref, dict(chosen))
    try:
        return compile_document(doc, ref, dict(chosen), check=False)
    except Exception:
        return compile_document(doc, ref, dict(chosen))


def read(ref: str, options: Mapping[str, str] | None = None, name: str | None = None, *, effects: bool = True) -> Side:
    """A ruleset by name or path, compiled with its readings and options (the defaults where
    `options` names none), with the tree of its rules; with `effects`, each reading, option and
    number of players with rules of its own is described by what it changes.

    Raises RulesetError (UsageError for an unknown name or choice) as `load_ruleset` does.
    The tree is shared by every Side read alike: treat it as read-only."""
    stamp = _stamp(ref)
    chosen = tuple(sorted((str(k), str(v)) for k, v in (options or {}).items()))
    ruleset, tree = _read(ref, stamp, chosen, effects)
    raw = _resolved(ref, stamp)
    return Side(ref, name or display_name(ref), ruleset, Origins(raw, ruleset.choices), tree)


@lru_cache(maxsize=64)
def _read(ref: str, stamp: Stamp, chosen: tuple[tuple[str, str], ...], effects: bool) -> tuple[Ruleset, dict[str, Any]]:
    ruleset = _compiled(ref, stamp, chosen, True)
    tree = tree_of(ruleset)
    if not effects:
        return ruleset, tree
    # The rules alone with the rules of each number of players, before the effects of the
    # readings and options are added beside them.
    rules = _with_player_rules(ruleset, dict(tree))
    tree = dict(rules)
    for group in ruleset.groups:
        trees: dict[str, dict[str, Any]] = {}
        for choice in group.choices:
            if choice == ruleset.choices.get(group.name):
                trees[choice] = rules
                continue
            variant = dict(ruleset.choices, **{group.name: choice})
            try:
                other = _compiled(ref, stamp, tuple(sorted(variant.items())), False)
            except RulesetError:
                trees[choice] = {}  # `tarock validate` reports it
                continue
            # (a choice may patch the rules for a number of players too)
            trees[choice] = _with_player_rules(other, tree_of(other))
        tree.setdefault(group.kind, {})[group.name] = {"default": group.default, "choices": _effects(trees)}
    return ruleset, tree


def _with_player_rules(ruleset: Ruleset, rules: dict[str, Any]) -> dict[str, Any]:
    """`rules` (the tree of `ruleset`) with what its rules for each number of players change."""
    for count in ruleset.by_players:
        patched = tree_of(ruleset.for_players(count))
        changes = {path: get_path(patched, path) for path, _, _ in differences(rules, patched)}
        rules.setdefault("by_players", {})[str(count)] = {"effects": changes}
    return rules


def _effects(trees: dict[str, dict[str, Any]]) -> dict[str, dict[Path, Any]]:
    """For each choice, the rules at every place where the choices' rules differ."""
    paths: dict[Path, None] = {}
    first = next(iter(trees.values()), {})
    for other in trees.values():
        for path, _, _ in differences(first, other):
            paths.setdefault(path, None)
    return {choice: {path: get_path(t, path) for path in paths} for choice, t in trees.items()}


def get_path(tree: Any, path: Path) -> Any:
    for part in path:
        if isinstance(tree, dict) and part in tree:
            tree = tree[part]
        else:
            return MISSING
    return tree


# -- differences -------------------------------------------------------------------------------------

# Rules compared whole: a change anywhere inside is one change of the rule (a factor, a ladder):
# the keys whose sentence says all of them (`Said.whole`), and places of the tree that are no key.
ATOMIC: tuple[Path, ...] = (
    *(place for place, key in places() if key.said is not None and key.said.whole),
    ("deck", "points"),
    ("deck", "sets", "*"),
    # each place a choice or a number of players changes is one rule
    ("readings", "*", "choices", "*", "*"),
    ("options", "*", "choices", "*", "*"),
    ("by_players", "*", "effects", "*"),
)


def matches(pattern: Path, path: Path) -> bool:
    return len(pattern) == len(path) and all(p == "*" or p == q for p, q in zip(pattern, path, strict=True))


def is_atomic(path: Path) -> bool:
    return any(matches(pattern, path) for pattern in ATOMIC)


# Mappings of named things: where one ruleset has none at all, each thing the other has is
# reported on its own ("Announcement Ulti: … vs none"), not the section as a whole.
COLLECTIONS: tuple[Path, ...] = (
    ("calls",),
    ("contracts",),
    ("announcements",),
    ("bonuses",),
    ("readings",),
    ("options",),
    ("auction", "phases"),
    ("deck", "sets"),
    ("by_players",),
)


def differences(a: Any, b: Any, path: Path = ()) -> list[tuple[Path, Any, Any]]:
    """Where two trees differ: (path, value in a, value in b), MISSING where one has nothing.
    Mappings are compared key by key; anything else, and the rules in ATOMIC, whole."""
    out: list[tuple[Path, Any, Any]] = []
    _walk(path, a, b, out)
    return out


def _walk(path: Path, a: Any, b: Any, out: list[tuple[Path, Any, Any]]) -> None:
    if a == b:
        return
    if path in COLLECTIONS and (a is MISSING or b is MISSING) and isinstance(a if b is MISSING else b, dict):
        a, b = ({} if a is MISSING else a), ({} if b is MISSING else b)
    if is_atomic(path) or not (isinstance(a, dict) and isinstance(b, dict)):
        out.append((path, a, b))
        return
    for key in list(a) + [k for k in b if k not in a]:
        _walk(path + (key,), a.get(key, MISSING), b.get(key, MISSING), out)
