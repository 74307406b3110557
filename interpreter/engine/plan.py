"""The plan: a compiled ruleset as the engine runs it, worked out once and kept with the ruleset.

A ruleset is compiled per reading, option and table size (language/compiler.py, `for_players`);
its plan is made from it on first use and kept in `ruleset.derived`, so it lives exactly as long
as the ruleset. For trick play the plan of a contract (with the deal's trump suit) is its base
tables (following suit and trumping, who wins) and its rule objects (engine/playrules.py), in the
order they act; the rules bound to a deal (cards kept back for announced bonuses, the called card,
cards laid out) join them when play starts (`deal_rules`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from interpreter.engine.excuse import Excused
from interpreter.engine.playrules import (
    DeclarerLeadsAfter,
    EndsEarly,
    ExposedCards,
    Forfeit,
    KeepBack,
    LaidOut,
    LastOfSuit,
    LeadTrumps,
    MustBeat,
    OpenHands,
    OpeningLeads,
    PlayRule,
    RevealPartner,
    RuleBook,
    Schedule,
    TalonToTricks,
    TogetherDuty,
    TrickDuty,
    TrickExceptionRule,
    Withheld,
    WithholdCard,
)
from interpreter.engine.tricks import TrickRules
from interpreter.language.model import Contract, Keep, PlayRules, Ruleset
from interpreter.language.model import OpeningLeads as OpeningLeadsRule


@dataclass(frozen=True)
class PlayPlan:
    """Trick play of one contract with one trump suit: the base tables and the rules, in the
    order they act (see engine/playrules.py)."""

    tables: TrickRules
    play: PlayRules
    rules: tuple[PlayRule, ...]
    book: RuleBook  # the rules as trick play reads them, where none is bound to the deal
    # The books with rules bound to a deal, by what binds them (`deal_rules`): made once each, as
    # the rule objects are immutable and a book's turns are worked out from its rules alone.
    deal_books: dict[tuple[object, ...], RuleBook] = field(default_factory=dict, compare=False, repr=False)


def play_plan(ruleset: Ruleset, contract: Contract, trump_suit: str | None) -> PlayPlan:
    """The plan of trick play of `contract` when `trump_suit` is trumps (made once)."""
    key = ("play_plan", contract.name, trump_suit)
    plan: PlayPlan | None = ruleset.derived.get(key)
    if plan is None:
        play = contract.play or ruleset.play
        tables = TrickRules.of(ruleset, trump_suit, contract)
        rules = _play_rules(ruleset, contract, play)
        plan = ruleset.derived[key] = PlayPlan(tables, play, rules, RuleBook.of(rules))
    return plan


def first_leader(play: PlayRules, seats: list[int], declarer: int | None, dealer: int) -> int:
    """Who leads to the first trick: the seat `play.first_lead` names (the declarer; Vorhand,
    `seats[0]`, also where there is no declarer; the dealer), then `first_lead_offset` seats on
    in the order of play (`seats`, from Vorhand). A dealer who sits out is not among `seats`:
    counted from, it stands just before Vorhand, and leads through the seat after it."""
    offset, n = play.first_lead_offset, len(seats)
    if play.first_lead == "declarer" and declarer is not None:
        return seats[(seats.index(declarer) + offset) % n]
    if play.first_lead == "dealer":
        if dealer in seats:
            return seats[(seats.index(dealer) + offset) % n]
        return seats[max(offset - 1, 0) % n]
    return seats[offset % n]


def _play_rules(ruleset: Ruleset, contract: Contract, play: PlayRules) -> tuple[PlayRule, ...]:
    """The rules of play of `contract`, in the order they act within each step of a turn."""
    rules: list[PlayRule] = []
    if play.withhold is not None:
        rules.append(Withheld())
    if any(isinstance(step, Keep) and step.exposed for step in contract.exchange):
        rules.append(ExposedCards())
    opening = contract.opening_leads
    rules += _opening_rules(opening)
    schedule = play.schedule if contract.schedule is None else contract.schedule  # a contract's own replaces it
    rules += [Schedule(trick) for trick in schedule]
    if opening is not None and opening.together:
        rules.append(TogetherDuty())
    if play.must_beat:
        rules.append(MustBeat())
    if play.lead_trumps == "only_if_nothing_else":
        rules.append(LeadTrumps())
    if play.last_of_suit:
        rules.append(LastOfSuit(play.last_of_suit))
    if play.withhold is not None:
        rules.append(WithholdCard(play.withhold))
    if play.excuse is not None:
        rules.append(Excused(play.excuse))  # after the rules of following: it widens what they allowed
    rules += [TrickDuty(duty) for duty in play.duties]
    if play.keep_back:
        rules.append(
            KeepBack(
                {c: k.until for k in play.keep_back for c in k.cards},
                {c: "is kept for" for k in play.keep_back for c in k.cards},
            )
        )
    rules += [TrickExceptionRule(exception) for exception in play.exceptions]
    if contract.open_hand:
        rules.append(OpenHands(contract.open_hand_who, contract.open_hand_from))
    if contract.talon_to_tricks:
        rules.append(TalonToTricks(contract.talon_to_tricks))
    if play.ends_early is not None:
        rules.append(EndsEarly(play.ends_early))  # last: asked once the other rules are done with the trick
    return tuple(rules)


def _opening_rules(opening: OpeningLeadsRule | None) -> list[PlayRule]:
    """The exposed cards' opening leads, and the declarer's lead after them where the contract
    says so (none without opening leads)."""
    if opening is None:
        return []
    if opening.declarer_leads_after:
        return [OpeningLeads(opening.replace_same_suit), DeclarerLeadsAfter()]
    return [OpeningLeads(opening.replace_same_suit)]


# The books bound to deals kept per plan: 59 kinds in 1,000 Königrufen deals, so a few hundred
# cover the announcements, calls and laid cards a table sees.
DEAL_BOOKS_KEPT = 512


def deal_rules(
    plan: PlayPlan,
    kept: Mapping[str, int],
    forfeits: Mapping[str, tuple[str, int, str]],
    called: str | None,
    laid: frozenset[str],
) -> RuleBook:
    """The plan's rules with those bound to this deal: the cards `kept` back for announced
    bonuses (card -> its trick; judged together with the plan's own kept cards), those whose
    bonus `forfeits` when forced out early (card -> bonus, trick, side), the `called` card whose
    playing reveals the partner, and the cards `laid` out."""
    if not kept and not forfeits and called is None and not laid:
        return plan.book
    key = (tuple(kept.items()), tuple(forfeits.items()), called, laid)
    book = plan.deal_books.get(key)
    if book is None:
        book = _bound_book(plan, kept, forfeits, called, laid)
        if len(plan.deal_books) < DEAL_BOOKS_KEPT:  # (a server's years of deals: the cache stays bounded)
            plan.deal_books[key] = book
    return book


def _bound_book(
    plan: PlayPlan,
    kept: Mapping[str, int],
    forfeits: Mapping[str, tuple[str, int, str]],
    called: str | None,
    laid: frozenset[str],
) -> RuleBook:
    """The book of the plan's rules with those bound to a deal (see `deal_rules`)."""
    rules = list(plan.rules)
    if kept:
        announced = KeepBack(dict(kept), dict.fromkeys(kept, "was announced for"), "bonuses announced")
        at = next((i for i, r in enumerate(rules) if isinstance(r, KeepBack)), None)
        if at is None:
            rules.append(announced)
        else:
            own = rules[at]
            assert isinstance(own, KeepBack)
            rules[at] = own.joined(announced)
    if laid:
        rules.append(LaidOut(laid))
    rules += [Forfeit(card, bonus, trick, side) for card, (bonus, trick, side) in forfeits.items()]
    if called is not None:
        rules.append(RevealPartner(called))
    return RuleBook.of(tuple(rules))
