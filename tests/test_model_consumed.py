"""Nothing compiled is ignored: every field of the compiled model is consumed, or said to be descriptive.

The compiled ruleset (interpreter/language/model.py, from `Ruleset` down through every dataclass
its fields hold) is what the engine runs. A field that the compiler fills and no part of the
engine reads is a rule written in vain: a ruleset using it would be silently played without it.
So every field is listed here once, in one table: either with the module that consumes it (a rule
of the plan, a stage of the engine, the model's own method the engine calls, the loader), or as
descriptive, with why (titles, provenance, what people are shown). A new field that is in neither
fails with its name. And each consumer named must read the attribute (an honest declaration, at
least as far as the module's text goes).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import typing
from pathlib import Path

import pytest

import interpreter.language.model as model

INTERPRETER = Path(__file__).resolve().parent.parent / "interpreter"

# field -> the module (under interpreter/) that consumes it.
CONSUMED: dict[str, str] = {
    # the ruleset
    "Ruleset.name": "engine/game.py",  # records name it; refusals quote it
    "Ruleset.file": "engine/game.py",  # how a record names the ruleset (Game.ruleset_ref)
    "Ruleset.deck": "engine/tricks.py",
    "Ruleset.active_players": "language/model.py",  # Ruleset.table_sizes, which Game checks
    "Ruleset.sit_out": "language/model.py",  # Ruleset.seats_out, which Game reads at every deal
    "Ruleset.deal_plans": "engine/deal.py",
    "Ruleset.deal_choice": "engine/game.py",
    "Ruleset.removed": "language/model.py",  # Ruleset.pack, which the deal and the engine read
    "Ruleset.phases": "engine/game.py",
    "Ruleset.contracts": "engine/game.py",
    "Ruleset.claim": "engine/exchange.py",
    "Ruleset.announcements": "engine/announcements.py",
    "Ruleset.breaches": "engine/game.py",
    "Ruleset.thrown_in": "engine/game.py",
    "Ruleset.redeal": "engine/game.py",
    "Ruleset.play": "engine/plan.py",
    "Ruleset.counting": "engine/settlement.py",
    "Ruleset.settlement": "engine/settlement.py",
    "Ruleset.groups": "engine/game.py",  # a record writes the choices that differ from the default
    "Ruleset.choices": "engine/game.py",
    "Ruleset.session": "engine/session.py",
    "Ruleset.accusation": "engine/game.py",
    "Ruleset.pot_ante": "engine/game.py",
    "Ruleset.penalties": "engine/offences.py",
    "Ruleset.by_players": "language/loader.py",  # compiled into player_rules
    "Ruleset.usual_players": "language/model.py",  # Ruleset.usual_table, the table the command line seats
    "Ruleset.bonuses": "engine/settlement.py",
    "Ruleset.announcing": "engine/game.py",
    "Ruleset.kontra_game": "engine/announcing.py",
    "Ruleset.kontra_bonuses": "engine/announcing.py",
    "Ruleset.kontra_answer": "engine/announcing.py",
    "Ruleset.player_rules": "language/model.py",  # Ruleset.for_players, which Game calls
    "Ruleset.derived": "engine/plan.py",  # the plan and the tables the engine keeps with the ruleset
    "Ruleset.rechoose": "language/model.py",  # Ruleset.with_choices, which Game calls
    # the deck
    "Deck.cards": "engine/tricks.py",
    "Deck.suit": "engine/tricks.py",
    "Deck.rank": "engine/tricks.py",
    "Deck.points": "engine/settlement.py",
    "Deck.sets": "language/compiler.py",  # the names of sets in expressions, resolved when compiled
    "Deck.suit_names": "engine/exchange.py",  # the trump suit named by the declarer
    "Deck.titles": "language/model.py",  # Deck.name_of, in refusals
    "Deck.aliases": "frontends/human.py",  # the terminal takes a card by its alias
    "Packet.to": "engine/deal.py",
    "Packet.count": "engine/deal.py",
    "DealChoice.usual": "engine/deal.py",
    "DealChoice.plans": "engine/deal.py",
    # the auction
    "ThrowInPayment.payer": "engine/auction.py",
    "ThrowInPayment.pays": "engine/auction.py",
    "ThrowInPayment.to": "engine/auction.py",
    "Redeal.when": "engine/deal.py",
    "Redeal.reason": "engine/game.py",
    "AuctionPhase.name": "engine/auction.py",
    "AuctionPhase.ladder": "engine/auction.py",
    "AuctionPhase.hold": "engine/auction.py",
    "AuctionPhase.raise_any": "engine/auction.py",
    "AuctionPhase.max_bidders": "engine/auction.py",
    "AuctionPhase.compulsory": "engine/auction.py",
    "AuctionPhase.pass_out": "engine/auction.py",
    "AuctionPhase.pass_out_holder": "engine/auction.py",
    "AuctionPhase.answer": "engine/auction.py",
    "AuctionPhase.choose_when": "engine/auction.py",
    "AuctionPhase.priority": "engine/auction.py",
    "AuctionPhase.after": "engine/auction.py",
    "AuctionPhase.interrupts": "engine/auction.py",
    "AuctionPhase.choose": "engine/auction.py",
    "AuctionPhase.pass_out_play": "engine/game.py",
    "AuctionPhase.carried_may_hold": "engine/auction.py",
    "AuctionPhase.style": "engine/auction.py",
    "AuctionPhase.speakers": "engine/auction.py",
    "AuctionPhase.start": "engine/auction.py",
    "AuctionPhase.side_bids": "engine/auction.py",
    "AuctionPhase.hold_by": "engine/auction.py",
    "AuctionPhase.interrupt_priority": "engine/auction.py",
    "AuctionPhase.hold_same": "engine/auction.py",
    "Level.call": "engine/auction.py",
    "Level.contract": "engine/auction.py",
    "Level.requires": "engine/auction.py",
    "Level.holdable": "engine/auction.py",
    "Level.ends": "engine/auction.py",
    "Level.jump": "engine/auction.py",
    "Level.needs": "engine/auction.py",
    "Level.answered_by": "engine/auction.py",
    "Proposal.by": "engine/auction.py",  # the dealer answers (Auction.dealer, whose_turn)
    "Proposal.accept": "engine/auction.py",
    "Proposal.refuse": "engine/auction.py",
    "Compulsion.when": "engine/auction.py",
    "Compulsion.call": "engine/auction.py",
    "Compulsion.reason": "engine/auction.py",
    "Compulsion.breach_pays_each": "engine/offences.py",
    "Compulsion.or_higher": "engine/auction.py",
    # contracts and their exchange
    "Contract.name": "engine/game.py",
    "Contract.exchange": "engine/exchange.py",
    "Contract.factor_won": "engine/settlement.py",
    "Contract.factor_lost": "engine/settlement.py",
    "Contract.declarer_wins": "engine/settlement.py",
    "Contract.amount": "engine/settlement.py",
    "Contract.opening_leads": "engine/plan.py",
    "Contract.individual": "engine/settlement.py",
    "Contract.talon_counts": "engine/game.py",
    "Contract.trump_suit": "engine/game.py",
    "Contract.no_trump_suit": "engine/game.py",
    "Contract.open_hand": "engine/plan.py",
    "Contract.talon_to_last_trick": "engine/settlement.py",
    "Contract.pot": "engine/settlement.py",
    "Contract.trump_choice": "engine/exchange.py",
    "Contract.schedule": "engine/plan.py",
    "Contract.play": "engine/plan.py",
    "Contract.out_of_play": "engine/settlement.py",
    "Contract.open_hand_who": "engine/plan.py",
    "Contract.open_hand_from": "engine/plan.py",
    "Contract.bonus_factor": "engine/settlement.py",
    "Contract.bonuses": "engine/settlement.py",
    "Contract.must_announce": "engine/announcing.py",
    "Contract.concede": "engine/exchange.py",
    "Contract.talon_to_tricks": "engine/plan.py",
    "Contract.doubling": "engine/game.py",
    "TakeTalon.parts": "engine/exchange.py",
    "TakeTalon.shown": "engine/exchange.py",
    "TakeTalon.count": "engine/exchange.py",
    "TakeTalon.end": "engine/exchange.py",
    "TakeTalon.rest_seen_by": "engine/exchange.py",
    "Discard.count": "language/model.py",  # Discard.how_many, which the exchange asks
    "Discard.forbid": "engine/exchange.py",
    "Discard.reason": "engine/exchange.py",
    "Discard.prefer": "engine/exchange.py",
    "Discard.all_or_none": "engine/exchange.py",
    "Discard.shown": "engine/exchange.py",
    "Preference.when": "engine/exchange.py",
    "Preference.reason": "engine/exchange.py",
    "Keep.count": "engine/exchange.py",
    "Keep.allowed": "engine/exchange.py",
    "Keep.prefer": "engine/exchange.py",
    "Keep.same_suit": "engine/exchange.py",
    "Keep.different_suits": "engine/exchange.py",
    "Keep.exposed": "engine/exchange.py",
    "Keep.reason": "engine/exchange.py",
    "ForcedDiscard.cards": "engine/exchange.py",
    "ForcedDiscard.shown": "engine/exchange.py",
    "CallCard.allowed": "engine/exchange.py",
    "CallCard.in_talon": "engine/exchange.py",
    "Give.other_than_called": "engine/exchange.py",
    "CallPartner.allowed": "engine/exchange.py",
    "CallPartner.unnamed": "engine/exchange.py",
    "CallPartner.unnamed_when": "engine/exchange.py",
    "CallPartner.own_only_when": "engine/exchange.py",
    "OpeningLeads.replace_same_suit": "engine/plan.py",
    "OpeningLeads.together": "engine/plan.py",
    "OpeningLeads.suit_order": "engine/play.py",
    "OpeningLeads.declarer_leads_after": "engine/plan.py",
    "Individual.loser": "engine/settlement.py",
    "Individual.ties": "engine/settlement.py",
    "Individual.pays_each": "engine/settlement.py",
    "Individual.payments": "engine/settlement.py",
    "IndividualPayment.payers": "engine/settlement.py",
    "IndividualPayment.receivers": "engine/settlement.py",
    "IndividualPayment.amount": "engine/settlement.py",
    "IndividualPayment.match": "engine/settlement.py",
    "OutOfPlay.talon": "engine/settlement.py",
    "OutOfPlay.discards": "engine/settlement.py",
    "Route.to": "engine/settlement.py",
    "Route.when": "engine/settlement.py",
    "MustAnnounce.one_of": "engine/announcing.py",
    "Concede.when": "engine/exchange.py",
    "Concede.pays": "engine/game.py",
    "Doubling.start": "engine/game.py",
    "Doubling.sitting_out": "engine/game.py",
    "Doubling.title": "engine/announcing.py",  # the kontra event's title
    # trick play: the plan's rules (engine/plan.py makes them, engine/playrules.py runs them)
    "PlayRules.first_lead": "engine/plan.py",
    "PlayRules.follow_suit": "engine/tricks.py",
    "PlayRules.must_trump": "engine/tricks.py",
    "PlayRules.must_beat": "engine/plan.py",
    "PlayRules.withhold": "engine/plan.py",
    "PlayRules.excuse": "engine/plan.py",
    "PlayRules.trump_suit": "engine/game.py",
    "PlayRules.schedule": "engine/plan.py",
    "PlayRules.discards_visible_until": "engine/views.py",
    "PlayRules.tricks_seen": "engine/views.py",
    "PlayRules.last_of_suit": "engine/plan.py",
    "PlayRules.trumps_win": "engine/tricks.py",
    "PlayRules.lead_trumps": "engine/plan.py",
    "PlayRules.exceptions": "engine/plan.py",
    "PlayRules.duties": "engine/plan.py",
    "PlayRules.keep_back": "engine/plan.py",
    "PlayRules.ends_early": "engine/plan.py",
    "PlayRules.first_lead_offset": "engine/plan.py",
    "PlayRules.suit_ranks": "engine/tricks.py",
    "Withhold.card": "engine/playrules.py",
    "Withhold.by": "engine/playrules.py",
    "Withhold.when": "engine/playrules.py",
    "Withhold.compensation": "engine/settlement.py",
    "Withhold.goes_to": "engine/settlement.py",
    "Excuse.card": "engine/excuse.py",
    "Excuse.goes_to": "engine/settlement.py",
    "Excuse.compensation": "engine/settlement.py",
    "Excuse.last_trick": "engine/settlement.py",
    "Excuse.slam": "engine/excuse.py",
    "ScheduledTrick.trick": "engine/playrules.py",
    "ScheduledTrick.play_from": "engine/playrules.py",
    "ScheduledTrick.reason": "engine/playrules.py",
    "TrickException.cards": "engine/playrules.py",
    "TrickException.wins": "engine/playrules.py",
    "TrickException.when": "engine/playrules.py",
    "Duty.cards": "engine/playrules.py",
    "Duty.must": "engine/playrules.py",
    "Duty.may_not": "engine/playrules.py",
    "Duty.reason": "engine/playrules.py",
    "KeepBackCards.cards": "engine/plan.py",
    "KeepBackCards.until": "engine/plan.py",
    "EarlyEnd.when": "engine/playrules.py",
    "EarlyEnd.rest": "engine/playrules.py",
    "EarlyEnd.reason": "engine/play.py",
    # the declarer's announcement, the round of announcements and kontra
    "Claim.when": "engine/exchange.py",
    "Claim.factor": "engine/game.py",
    "Claim.liable": "engine/game.py",
    "Announcement.name": "engine/announcements.py",
    "Announcement.cards": "engine/announcements.py",
    "Announcement.value": "engine/settlement.py",
    "Announcement.declares": "engine/announcements.py",
    "Announcement.contracts": "engine/announcements.py",
    "Declaration.wins": "engine/settlement.py",
    "Declaration.multiplier": "engine/settlement.py",
    "Declaration.amount": "engine/settlement.py",
    "Declaration.releases_exposed": "engine/announcements.py",
    "Declaration.priced": "engine/settlement.py",
    "Bonus.name": "engine/settlement.py",
    "Bonus.achieved": "engine/settlement.py",
    "Bonus.value": "engine/settlement.py",
    "Bonus.announced": "engine/settlement.py",
    "Bonus.attempted": "engine/settlement.py",
    "Bonus.card": "engine/game.py",  # kept back for its trick (a KeepBack rule with this origin)
    "Bonus.trick": "engine/game.py",
    "Bonus.replaces_game": "engine/settlement.py",
    "Bonus.requires": "engine/announcing.py",
    "Bonus.scope": "engine/settlement.py",
    "Bonus.forced_early": "engine/game.py",
    "Bonus.whose": "engine/announcing.py",
    "Announcing.start": "engine/announcing.py",
    "Announcing.done": "engine/announcing.py",
    "Announcing.may_announce": "engine/announcing.py",
    "KontraRule.max": "engine/announcing.py",
    "KontraRule.titles": "engine/announcing.py",
    "KontraRule.eligible": "engine/announcing.py",
    # counting and settling
    "Counting.packet": "language/model.py",  # Counting.points, which the settlement calls
    "Counting.packet_deduct": "language/model.py",
    "Counting.remainder_deduct": "language/model.py",
    "Counting.aside_counts_for": "engine/settlement.py",
    "Counting.aside_unless": "engine/settlement.py",
    "Counting.declarer_bonus": "engine/settlement.py",
    "Settlement.sitting_out": "engine/settlement.py",
    "Settlement.liable": "engine/settlement.py",
    "Settlement.drawn": "engine/settlement.py",
    "Settlement.stake": "engine/game.py",
    "Settlement.split": "engine/settlement.py",
    "Liability.when": "engine/settlement.py",
    "Liability.seats": "engine/settlement.py",
    "Liability.pays": "engine/settlement.py",
    "Liability.others_pay": "engine/settlement.py",
    "Accusation.phase": "engine/game.py",
    "Accusation.strong": "engine/exchange.py",
    "Penalties.mode": "engine/offences.py",
    "Penalties.offences": "engine/offences.py",
    "Penalties.pays_each": "engine/offences.py",
    "Penalties.paid_by": "engine/offences.py",
    "SessionRule.deals": "engine/session.py",
    "SessionRule.holder_of": "engine/session.py",
    # the session: who deals next, its end, its rounds of their own, its score sheet and pot
    "SessionRule.dealer": "engine/session.py",
    "SessionRule.dealer_when": "engine/session.py",
    "DealerWhen.when": "engine/session.py",
    "DealerWhen.dealer": "engine/session.py",
    "SessionRule.rounds": "engine/session.py",
    "SessionRule.until": "engine/session.py",
    "SessionRule.special_rounds": "engine/session.py",
    "SpecialRound.name": "engine/session.py",
    "SpecialRound.at": "engine/session.py",
    "SpecialRound.rounds": "engine/session.py",
    "SpecialRound.options": "engine/session.py",
    "SpecialRound.after": "engine/session.py",
    "SessionRule.sheet": "engine/session.py",
    "ScoreSheet.score": "engine/session.py",
    "ScoreSheet.start": "engine/session.py",
    "ScoreSheet.settle": "engine/session.py",
    "ScoreSheet.stake": "engine/session.py",
    "SessionRule.pot": "engine/session.py",
    "SessionPot.ante": "engine/session.py",
    "SessionPot.left": "engine/session.py",
    "SessionPot.each_deal": "engine/session.py",
    # the session's pots of their own (accounts)
    "SessionRule.pots": "engine/session.py",
    "Account.name": "engine/pots.py",
    "Account.ante": "engine/pots.py",
    "Account.each_deal": "engine/pots.py",
    "Account.dealer": "engine/pots.py",
    "Account.pays": "engine/pots.py",
    "Account.left": "engine/pots.py",
    "PotPayout.amount": "engine/pots.py",
    "PotPayout.to": "engine/pots.py",
    "PotPayout.contracts": "engine/pots.py",
    "PotPayout.when": "engine/pots.py",
    "PotPayout.seat": "engine/pots.py",
    "ChoiceGroup.name": "engine/game.py",
    "ChoiceGroup.default": "engine/game.py",
}

# field -> why nothing plays by it.
DESCRIPTIVE: dict[str, str] = {
    "Ruleset.title": "a title for people",
    "SpecialRound.title": "a round's title for people (the session's refusals name it)",
    "Account.title": "a pot's title for people (its refusals name it)",
    "Ruleset.family": "the family a ruleset belongs to, for `tarock list` and the matrix",
    "Ruleset.call_titles": "the titles of calls, for people",
    "Ruleset.document": "the merged YAML, for `tarock show`",
    "Ruleset.parents": "provenance: the rulesets it extends",
    "Ruleset.ref": "how it was loaded, for messages",
    "Ruleset.direction": "the direction of play at the table, shown to people (docs/design.md: Seats)",
    "Deck.title": "a title for people",
    "Deck.suit_symbols": "how suits are shown",
    "AuctionPhase.title": "a title for people",
    "Contract.title": "a title for people",
    "Announcement.title": "a title for people",
    "Bonus.title": "a title for people",
    "Claim.scores_as": "its only value, march (as won in every trick), is how a claim is settled",
    "Settlement.unit": "the name of the money, for people",
    "Settlement.payment": "its only value, each_defender, is how every settlement pays",
    "Settlement.declarer_wins": "the settlement's own formula as written, which every contract without its own takes "
    "when compiled (the engine reads each contract's); for diff and doc",
    "Settlement.amount": "as Settlement.declarer_wins",
    "ChoiceGroup.kind": "whether a question is a reading or an option, for people",
    "ChoiceGroup.question": "the question, for people",
    "ChoiceGroup.choices": "the choices, for `tarock options` (a choice is applied when compiled)",
}


def model_fields(root: type = model.Ruleset, names: dict[str, object] | None = None) -> list[str]:
    """Every field of the dataclasses reachable from `root` through its fields' types, as
    'Class.field', in the order they are found (`names`: what the annotations name besides the
    model's own)."""
    found: list[str] = []
    seen: set[type] = set()

    def walk(cls: type) -> None:
        if cls in seen:
            return
        seen.add(cls)
        hints = typing.get_type_hints(cls, {**vars(model), **(names or {})})
        for field in dataclasses.fields(cls):
            found.append(f"{cls.__name__}.{field.name}")
            for inner in _types(hints[field.name]):
                if dataclasses.is_dataclass(inner) and isinstance(inner, type):
                    walk(inner)

    walk(root)
    return found


def _types(hint: object) -> list[object]:
    """The types a hint is made of (the arguments of unions, tuples, mappings, ...)."""
    args = typing.get_args(hint)
    return [hint] if not args else [t for arg in args for t in _types(arg)]


@functools.cache
def _attributes_read(module: str) -> frozenset[str]:
    """The attribute names a module reads (`x.field`), and the texts it names (getattr, replace)."""
    tree = ast.parse((INTERPRETER / module).read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)
    return frozenset(names)


def test_every_field_of_the_compiled_model_is_consumed_or_descriptive() -> None:
    fields = model_fields()
    missing = [f for f in fields if f not in CONSUMED and f not in DESCRIPTIVE]
    assert not missing, (
        "fields of the compiled model that nothing consumes (give each a rule of the plan or a stage "
        f"that reads it, and name it in CONSUMED; or say why it is descriptive): {', '.join(missing)}"
    )
    assert not set(CONSUMED) & set(DESCRIPTIVE)


def test_the_table_names_only_fields_that_exist() -> None:
    fields = set(model_fields())
    stale = sorted((set(CONSUMED) | set(DESCRIPTIVE)) - fields)
    assert not stale, f"no such field of the compiled model: {', '.join(stale)}"


@pytest.mark.parametrize("field", sorted(CONSUMED))
def test_each_consumer_named_reads_its_field(field: str) -> None:
    module = CONSUMED[field]
    assert (INTERPRETER / module).is_file(), f"{field}: no module {module}"
    attribute = field.split(".")[1]
    assert attribute in _attributes_read(module), f"{field}: {module} does not read .{attribute}"


def test_a_new_field_nothing_consumes_is_named() -> None:
    """The walk finds a field added to a class of the model (here a stand-in class)."""

    @dataclasses.dataclass(frozen=True)
    class Extra:
        word: int

    @dataclasses.dataclass(frozen=True)
    class Root:
        play: model.PlayRules
        extra: tuple[Extra, ...] = ()

    fields = model_fields(Root, {"model": model, "Extra": Extra})
    assert "Extra.word" in fields and "PlayRules.keep_back" in fields
    assert [f for f in fields if f not in CONSUMED and f not in DESCRIPTIVE] == [
        "Root.play",
        "Root.extra",
        "Extra.word",
    ]
