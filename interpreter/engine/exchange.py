"""The exchange: what the declarer does between the auction and the first lead.

Naming trumps, picking up the talon, keeping cards before it (Cego), discarding (with forbidden
cards), forced discards, calling and giving a card (Rufer), and accusing the others of a skinned
Solo. The steps nobody decides are done here as engine steps and reported as events. How the
exchange ends is returned to the game as an `Ending`: the game settles a claim or an accusation,
because settling is its business, not the exchange's.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from interpreter.engine.actions import (
    Action,
    ActionJson,
    Call,
    CardAction,
    Choose,
    DiscardAction,
    KeepAction,
    parse_action,
)
from interpreter.engine.auction import PASS
from interpreter.engine.table import Cards, Table
from interpreter.language.model import (
    PART_NAMES,
    CallCard,
    CallPartner,
    Contract,
    Discard,
    ExchangeStep,
    ForcedDiscard,
    Give,
    Keep,
    NameTrumps,
    Ruleset,
    TakeTalon,
)

__all__ = ["Abandoned", "Accused", "Cards", "Claimed", "Conceded", "Ending", "Exchange", "Finished", "claims"]

LISTABLE = 64  # a choice with more combinations than this comes as a template


# -- how the exchange ends ---------------------------------------------------------------------


@dataclass(frozen=True)
class Finished:
    """The exchange is done: announcements or play follow."""


@dataclass(frozen=True)
class Claimed:
    """The declarer's hand meets the ruleset's claim: shown instead of played."""


@dataclass(frozen=True)
class Accused:
    """The declarer accused the others of having passed with a Solo hand."""

    accuser: int
    guilty: tuple[int, ...]


@dataclass(frozen=True)
class Conceded:
    """The declarer gave up after seeing the talon (Besserrufer with the called King in it)."""

    seat: int


@dataclass(frozen=True)
class Abandoned:
    """The rules leave the declarer no way on; the deal is abandoned without payment."""

    reason: str


Ending = Finished | Claimed | Accused | Abandoned | Conceded


class Exchange:
    """The exchange of one deal: the declarer's steps, in the contract's order."""

    read_only_offer = False  # its discards and keeps are new each time (lists of cards)

    def __init__(
        self,
        ruleset: Ruleset,
        contract: Contract,
        declarer: int | None,
        seats: list[int],
        table: Table,
        dealt: list[list[str]],
        *,
        may_accuse: bool,
        trump_suit: str | None,
    ):
        self.ruleset, self.contract, self.declarer, self.seats = ruleset, contract, declarer, seats
        self.table = table
        self.cards = cards = table.cards
        self.history = table.history
        self.dealt = dealt  # the hands as dealt, by seat
        self.may_accuse = may_accuse
        self.trump_suit = trump_suit  # a suit that is trumps in this deal
        self.talon_size = len(cards.talon)
        self.step = 0  # index of the current step of contract.exchange
        self.taken: list[str] = []  # the talon as the declarer picked it up
        self.called: tuple[str, int | None] | None = None  # the called card and who gave it (None: the talon)
        self.trumps_named = False
        self.accusing = False  # the declarer may accuse the others now
        self.partner_card: str | None = None  # the card called for a partner (CallPartner)
        self.partner_named = True  # False: called without naming it (the fourth King)
        self.parts: list[list[str]] | None = None  # a talon laid out in parts, awaiting the choice
        self.talon_shown = False  # the talon was laid out face up
        self.shown_cards: list[str] = []  # the talon cards laid face up for everybody
        self.rest_seen_by_defenders = False  # the talon left over was seen by the defenders
        self.conceding = False  # the declarer may concede now
        self.ending: Ending | None = None

    def emit(self, **event: Any) -> None:
        self.table.events.append(event)

    # -- where it stands -----------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        return self.declarer if self.ending is None else None

    def choosing_trumps(self) -> bool:
        """Whether the declarer names the trump suit now: first, unless a `name_trumps` step puts
        it later (then when that step comes)."""
        if not self.contract.trump_choice or self.trumps_named:
            return False
        steps = self.contract.exchange
        if not any(isinstance(step, NameTrumps) for step in steps):
            return True
        return self.step < len(steps) and isinstance(steps[self.step], NameTrumps)

    def current_step(self) -> ExchangeStep:
        step = self.contract.exchange[self.step]
        # A forced discard whose set was empty (no Trock in the Cego): the declarer chooses one.
        return Discard(1, None, "") if isinstance(step, ForcedDiscard) else step

    def allowed(self, step: Discard, hand: list[str]) -> list[str]:
        """The cards of `hand` that may be discarded, in the hand's order: not one laid face up (it
        stays in the game), nor one the step's `forbid` names (the hand's set made once)."""
        exposed = self.cards.exposed
        forbid = step.forbid
        if forbid is None:
            return [c for c in hand if c not in exposed]
        held = frozenset(hand)
        players = len(self.seats)
        return [c for c in hand if c not in exposed and not forbid({"card": c, "hand": held, "players": players})]

    def discard_choice(self, step: Discard, hand: list[str]) -> list[tuple[list[str], list[str], int]]:
        """The legal discards of `step`, judged as whole sets, as branches: in each, the cards
        every discard of it holds, the cards the rest is chosen from, and how many of them (each
        in the hand's order). One branch, unless `all_or_none` names classes: then one for each
        way they can go (all in or all out) that holds as many preferred cards as any other.
        Without preferences nor classes: none required, any `count` of the cards allowed. No
        branch: no legal discard."""
        pool = self.allowed(step, hand)
        need = step.how_many(self.talon_size)
        if not step.prefer and not step.all_or_none:
            return [([], pool, need)] if len(pool) >= need else []
        env = {"hand": frozenset(hand), "players": len(self.seats)}
        blocks = _merged([block for block in self._class_cards(step, env, pool) if block])
        blocked = {c for block in blocks for c in block}
        rest = [c for c in pool if c not in blocked]
        best: list[int] | None = None
        branches: list[tuple[list[str], list[str], int]] = []
        for ways in itertools.product((False, True), repeat=len(blocks)):
            goes_in = {c for block, goes in zip(blocks, ways, strict=True) if goes for c in block}
            inside = [c for c in pool if c in goes_in]
            if len(inside) > need or len(rest) < need - len(inside):
                continue
            branch, score = self._preferred(step, env, inside, rest, need - len(inside))
            if best is None or score > best:
                best, branches = score, [branch]
            elif score == best:
                branches.append(branch)
        return branches

    @staticmethod
    def _preferred(
        step: Discard, env: dict[str, Any], inside: list[str], pool: list[str], need: int
    ) -> tuple[tuple[list[str], list[str], int], list[int]]:
        """The discards holding `inside` and `need` cards of `pool` by the step's preferences (as
        many cards of the first class as it can, then of the next): the branch (the cards every
        such discard holds, the cards the rest comes from, how many), and how many cards of each
        class those discards hold (to compare branches: more of an earlier class is better)."""
        required, score, branch = list(inside), [], None
        left_inside = list(inside)
        for preference in step.prefer:
            mine = [c for c in left_inside if preference.when({**env, "card": c})]
            left_inside = [c for c in left_inside if c not in mine]
            if branch is not None:
                score.append(len(mine))
                continue
            preferred = [c for c in pool if preference.when({**env, "card": c})]
            if len(preferred) >= need:
                branch = (required, preferred, need)  # the rest of the discard comes from this class
                score.append(len(mine) + need)
                continue
            required = required + preferred
            need -= len(preferred)
            pool = [c for c in pool if c not in preferred]
            score.append(len(mine) + len(preferred))
        return branch or (required, pool, need), score

    def _whole_broken(self, step: Discard, hand: list[str], cards: list[str]) -> str | None:
        """Why `cards` (allowed, the right number) is not a discard the step's judgement of the
        whole allows (its preferences, its classes that go all or none): the reason of the first
        rule it breaks, and what the discard could be."""
        branches = self.discard_choice(step, hand)
        chosen = set(cards)
        for required, pool, _ in branches:
            if chosen.issuperset(required) and all(c in pool for c in chosen.difference(required)):
                return None
        coulds = []
        for required, pool, need in branches:
            if required:
                coulds.append(f"discard {', '.join(required)}" + (f" and {need} of {', '.join(pool)}" if need else ""))
            else:
                coulds.append(f"discard {need} of {', '.join(pool)}")
        return f"{self._whole_reason(step, hand, chosen)}: {'; or '.join(coulds)}"

    def _whole_reason(self, step: Discard, hand: list[str], chosen: set[str]) -> str:
        """The reason of the first rule of the whole discard that `chosen` breaks: a class it
        holds some but not all of, else the first preferred class it holds fewer cards of than
        the best discards do."""
        env = {"hand": frozenset(hand), "players": len(self.seats)}
        pool = self.allowed(step, hand)
        for together, block in zip(step.all_or_none, self._class_cards(step, env, pool), strict=True):
            if 0 < len(chosen.intersection(block)) < len(block):
                return together.reason
        branches = self.discard_choice(step, hand)
        if branches:
            required, rest, need = branches[0]
            best = self._preferred(step, env, [*required, *rest[:need]], [], 0)[1]
            mine = self._preferred(step, env, sorted(chosen, key=hand.index), [], 0)[1]
            for preference, have, could in zip(step.prefer, mine, best, strict=True):
                if have != could:
                    return preference.reason
        return (step.prefer or step.all_or_none)[0].reason

    @staticmethod
    def _class_cards(step: Discard, env: dict[str, Any], pool: list[str]) -> list[list[str]]:
        """The cards of each `all_or_none` class among `pool`, one list per class (empty ones too)."""
        return [[c for c in pool if together.when({**env, "card": c})] for together in step.all_or_none]

    def keep_choices(self, step: Keep, hand: list[str]) -> list[tuple[str, ...]]:
        """The choices of cards `step` lets the hand keep, each in the order of the hand."""
        suit = self.ruleset.deck.suit
        candidates = [c for c in hand if c in step.allowed]
        combos = itertools.combinations(candidates, step.count)
        if step.same_suit or step.different_suits:
            same, different = step.same_suit, step.different_suits
            valid = []
            for combo in combos:
                suits = len({suit[c] for c in combo})
                if (not same or suits <= 1) and (not different or suits == len(combo)):
                    valid.append(combo)
        else:
            valid = list(combos)
        if step.prefer is not None and valid:
            # As many preferred cards as possible: picture cards stand in only for missing empty ones.
            prefer = step.prefer
            most = max(sum(c in prefer for c in combo) for combo in valid)
            return [combo for combo in valid if sum(c in prefer for c in combo) == most]
        return valid

    # -- legal actions -------------------------------------------------------------------------
    def legal(self, seat: int) -> list[ActionJson]:
        if seat != self.to_act:
            return []
        if self.accusing:
            return [PASS, {"choose": "accuse"}]
        if self.conceding:
            return [PASS, {"choose": "concede"}]
        if self.parts is not None:
            return [{"choose": PART_NAMES[i]} for i in range(len(self.parts))]
        if self.choosing_trumps():
            return [{"choose": self.ruleset.deck.suit_names[s]} for s in self.contract.trump_choice]
        step = self.current_step()
        hand = self.cards.hands[seat]
        if isinstance(step, CallCard):
            return [{"call_card": c} for c in self.ruleset.pack(len(self.seats)) if c in step.allowed and c not in hand]
        if isinstance(step, CallPartner):
            return self._partner_calls(step, hand)
        if isinstance(step, Give):
            return [{"give": c} for c in hand if not self._called_back(step, c)]
        if isinstance(step, Keep):
            return self._keeps(step, hand)
        assert isinstance(step, Discard)
        return self._discards(step, hand)

    def _keeps(self, step: Keep, hand: list[str]) -> list[ActionJson]:
        """The keeps the step allows, listed, or as a template where they are too many."""
        choices = self.keep_choices(step, hand)
        if len(choices) <= LISTABLE:
            return [{"keep": list(c)} for c in choices]
        return [
            {"keep": {"count": step.count, "from": sorted({c for combo in choices for c in combo}, key=hand.index)}}
        ]

    def _discards(self, step: Discard, hand: list[str]) -> list[ActionJson]:
        """The discards the step allows, listed, or as a template where they are too many."""
        branches = self.discard_choice(step, hand)
        if sum(math.comb(len(pool), need) for _, pool, need in branches) <= LISTABLE:
            return [
                {"discard": sorted([*required, *combo], key=hand.index) if required else list(combo)}
                for required, pool, need in branches
                for combo in itertools.combinations(pool, need)
            ]
        return [{"discard": self._template(hand, *branch)} for branch in branches]

    @staticmethod
    def _template(hand: list[str], required: list[str], pool: list[str], need: int) -> dict[str, Any]:
        """One branch of the legal discards as a template."""
        chosen = set(required).union(pool)
        template: dict[str, Any] = {
            "count": need + len(required),
            # The cards every discard holds first: a client that takes the first `count` of
            # `from` sends a legal discard.
            "from": [*required, *pool],
            "forbidden": [c for c in hand if c not in chosen],
        }
        if required:
            template["including"] = required  # every discard holds these (a preferred class, whole)
        return template

    # -- applying the declarer's action --------------------------------------------------------
    # -- as a stage of the deal: offer, canonical form, refusal, effect ------------------------------
    def offer(self, seat: int) -> list[ActionJson]:
        return self.legal(seat)

    def canonical(self, seat: int, parsed: Action) -> ActionJson | None:
        """The offered action `parsed` is: one listed (a set of cards in any order), or one that
        fills a template by the rules the template stands for; None otherwise."""
        if seat != self.to_act:
            return None
        if isinstance(parsed, (DiscardAction, KeepAction)):
            return parsed.as_json() if self._problem(seat, parsed) is None else None
        action = parsed.as_json()
        return action if action in self.legal(seat) else None

    def refusal(self, seat: int, parsed: Action) -> str:
        """Why `parsed` is not an action the declarer may take now."""
        return self._problem(seat, parsed) or f"it is time for {self._wanted()} (exchange), not {parsed.describe()}"

    def take(self, seat: int, action: ActionJson) -> bool:
        """Do the declarer's offered action, then the steps nobody decides; returns whether the
        exchange is over (`ending` set)."""
        parsed = parse_action(action, self.ruleset)
        if self.accusing:
            self._accuse_or_pass(seat, parsed)
        elif self.conceding:
            self._concede_or_pass(seat, parsed)
        elif self.parts is not None:
            self._choose_part(seat, parsed)
        elif self.choosing_trumps():
            self._name_trumps(seat, parsed)
        elif isinstance(self.current_step(), CallPartner):
            self._call_partner(seat, parsed)
        elif isinstance(parsed, CardAction):
            self._call_or_give(seat, parsed)
        elif isinstance(parsed, KeepAction):
            self._keep(seat, parsed)
        elif isinstance(parsed, DiscardAction):
            self._discard(seat, parsed)
        self.history.append((seat, action))
        return self.advance() is not None

    def _problem(self, seat: int, parsed: Action) -> str | None:
        """What the rules say against `parsed` now (None: nothing; the rules of the step allow it)."""
        if self.accusing:
            return self._choice_problem(
                parsed, "accuse", "accuse the others of skinning a Solo ({choose: accuse}) or go on (pass)"
            )
        if self.conceding:
            return self._choice_problem(parsed, "concede", "concede the game ({choose: concede}) or play on (pass)")
        if self.parts is not None:
            names = PART_NAMES[: len(self.parts)]
            if isinstance(parsed, Choose) and parsed.name in names:
                return None
            return "choose a part of the talon: " + ", ".join("{choose: " + n + "}" for n in names)
        if self.choosing_trumps():
            return self._trumps_problem(parsed)
        step = self.current_step()
        if isinstance(step, CallPartner):
            return self._partner_problem(seat, step, parsed)
        if isinstance(parsed, CardAction):
            return self._card_problem(seat, step, parsed)
        if isinstance(parsed, KeepAction):
            return self._keep_problem(seat, step, parsed)
        if isinstance(parsed, DiscardAction):
            if not isinstance(step, Discard):
                return f"it is time for {self._wanted()}, not to discard"
            hand, cards = self.cards.hands[seat], list(parsed.cards)
            return self._discard_form(step, hand, cards) or self._discard_rule(step, hand, cards)
        return f"it is time for {self._wanted()} (exchange), not {parsed.describe()}"

    @staticmethod
    def _choice_problem(parsed: Action, choice: str, message: str) -> str | None:
        if (isinstance(parsed, Call) and parsed.name == PASS) or (isinstance(parsed, Choose) and parsed.name == choice):
            return None
        return message

    def _wanted(self) -> str:
        step = self.current_step()
        if isinstance(step, Keep):
            return f"keeping {step.count} card{'s' if step.count != 1 else ''}"
        if isinstance(step, CallCard):
            return "calling a card"
        if isinstance(step, Give):
            return "giving a card"
        if isinstance(step, CallPartner):
            return "calling a card for a partner"
        return "a discard"

    # -- a partner by a called card, a talon in parts, conceding ----------------------------------
    def _partner_calls(self, step: CallPartner, hand: list[str]) -> list[ActionJson]:
        env = {"hand": frozenset(hand)}
        own_only = step.own_only_when is not None and bool(step.own_only_when(env))
        calls: list[ActionJson] = [
            {"call_card": c}
            for c in self.ruleset.pack(len(self.seats))
            if c in step.allowed and (not own_only or c in hand)
        ]
        if step.unnamed is not None and not own_only and self._unnamed_card(step, hand) is not None:
            calls.append({"choose": step.unnamed})
        return calls

    def _unnamed_card(self, step: CallPartner, hand: list[str]) -> str | None:
        """The card an unnamed call calls: the one card allowed that the hand lacks, when allowed."""
        missing = [c for c in self.ruleset.pack(len(self.seats)) if c in step.allowed and c not in hand]
        if len(missing) != 1 or (step.unnamed_when is not None and not step.unnamed_when({"hand": frozenset(hand)})):
            return None
        return missing[0]

    def _partner_problem(self, seat: int, step: CallPartner, parsed: Action) -> str | None:
        hand = self.cards.hands[seat]
        legal = self._partner_calls(step, hand)
        if isinstance(parsed, Choose) and step.unnamed is not None and parsed.name == step.unnamed:
            if self._unnamed_card(step, hand) is not None:
                return None
            return f"'{step.unnamed}' may not be called with this hand; call a card: " + ", ".join(
                str(a["call_card"]) for a in legal if isinstance(a, dict) and "call_card" in a
            )
        if isinstance(parsed, CardAction) and parsed.kind == "call_card":
            if {"call_card": parsed.card} in legal:
                return None
            options = ", ".join(str(a.get("call_card", a.get("choose"))) for a in legal if isinstance(a, dict))
            return f"{parsed.card} may not be called for a partner; you may call: {options}"
        return f"call a card for your partner ({{call_card: CARD}}), not {parsed.describe()}"

    def _call_partner(self, seat: int, parsed: Action) -> None:
        step = self.current_step()
        assert isinstance(step, CallPartner)
        if isinstance(parsed, Choose):
            card = self._unnamed_card(step, self.cards.hands[seat])
            assert card is not None
            self.partner_card, self.partner_named = card, False
            self.emit(type="call_partner", seat=seat, choice=step.unnamed)
        else:
            assert isinstance(parsed, CardAction)
            self.partner_card, self.partner_named = parsed.card, True
            self.emit(type="call_partner", seat=seat, card=parsed.card)
        self.step += 1

    def _choose_part(self, seat: int, parsed: Action) -> None:
        assert self.parts is not None and isinstance(parsed, Choose)
        part = self.parts[PART_NAMES.index(parsed.name)]
        self.parts = None
        self._take(seat, part, parsed.name)

    def _take(self, seat: int, cards: list[str], part: str | None) -> None:
        self.taken = list(cards)
        self.talon_size = len(cards)
        self.cards.hands[seat].extend(cards)
        for card in cards:
            self.cards.talon.remove(card)
        self.emit(type="talon_taken", seat=seat, count=len(cards), **({"part": part} if part else {}))

    def may_concede(self) -> bool:
        rule = self.contract.concede
        if rule is None or self.declarer is None:
            return False
        env = {
            "hand": frozenset(self.cards.hands[self.declarer]),
            "called": frozenset({self.partner_card} if self.partner_card else ()),
            "talon": frozenset(self.cards.talon),
        }
        return bool(rule.when(env))

    def _concede_or_pass(self, seat: int, parsed: Action) -> None:
        self.conceding = False
        if isinstance(parsed, Call):
            self.emit(type="call", seat=seat, call=PASS, phase="concede")
        else:
            self.ending = Conceded(seat)

    def _accuse_or_pass(self, seat: int, parsed: Action) -> None:
        self.accusing = False
        if isinstance(parsed, Call):
            self.emit(type="call", seat=seat, call=PASS, phase="accusation")
            return
        rule = self.ruleset.accusation
        assert rule is not None
        # Judged on the hands as dealt: what the others passed with.
        self.ending = Accused(
            seat, tuple(s for s in self.seats if s != seat and rule.strong({"hand": frozenset(self.dealt[s])}))
        )

    def _trumps_problem(self, parsed: Action) -> str | None:
        names = {self.ruleset.deck.suit_names[s]: s for s in self.contract.trump_choice}
        if not isinstance(parsed, Choose):
            return f"name the trump suit first: {', '.join('{choose: ' + n + '}' for n in names)}"
        if parsed.name not in names:
            return f"{parsed.name} cannot be trumps in {self.contract.title}; choose one of: {', '.join(names)}"
        return None

    def _name_trumps(self, seat: int, parsed: Action) -> None:
        assert isinstance(parsed, Choose)
        names = {self.ruleset.deck.suit_names[s]: s for s in self.contract.trump_choice}
        self.trump_suit = names[parsed.name]
        self.trumps_named = True
        steps = self.contract.exchange
        if self.step < len(steps) and isinstance(steps[self.step], NameTrumps):
            self.step += 1
        self.emit(type="trumps", seat=seat, suit=parsed.name)

    def _card_problem(self, seat: int, step: ExchangeStep, parsed: CardAction) -> str | None:
        hand = self.cards.hands[seat]
        if parsed.kind == "call_card":
            if not isinstance(step, CallCard):
                return f"there is no card to call now; it is time for {self._wanted()}"
            if parsed.card in hand:
                return f"call a card you do not hold; you hold {parsed.card}"
            if parsed.card not in step.allowed:
                return f"{parsed.card} may not be called"
            return None
        if not isinstance(step, Give):
            return f"there is no card to give now; it is time for {self._wanted()}"
        if parsed.card not in hand:
            return f"you do not hold {parsed.card}"
        if self._called_back(step, parsed.card):
            return f"give a card in exchange for {parsed.card}, not {parsed.card} itself: any other card of your hand"
        return None

    def _call_or_give(self, seat: int, parsed: CardAction) -> None:
        hand = self.cards.hands[seat]
        if parsed.kind == "call_card":
            step = self.current_step()
            assert isinstance(step, CallCard)
            holder = next((s for s in self.seats if parsed.card in self.cards.hands[s]), None)
            self.called = (parsed.card, holder)
            if holder is None and step.in_talon == "stays":
                # Nobody holds it: it stays in the talon, and no card changes hands, so the
                # card given in exchange is not given either.
                self.emit(type="call_card", seat=seat, card=parsed.card, holder=None, stays=True)
                steps = self.contract.exchange
                self.step += 1
                if self.step < len(steps) and isinstance(steps[self.step], Give):
                    self.step += 1
                return
            (self.cards.hands[holder] if holder is not None else self.cards.talon).remove(parsed.card)
            hand.append(parsed.card)
            self.emit(type="call_card", seat=seat, card=parsed.card, holder=holder)
        else:
            hand.remove(parsed.card)
            receiver = self.called[1] if self.called else None
            (self.cards.hands[receiver] if receiver is not None else self.cards.talon).append(parsed.card)
            # Only the receiver learns which card it is; the public event tells that a card was given.
            self.emit(type="give", seat=seat, to=receiver)
        self.step += 1

    def _called_back(self, step: Give, card: str) -> bool:
        """Whether giving `card` would hand back the card just called, where the step forbids it."""
        return step.other_than_called and self.called is not None and card == self.called[0]

    def _keep_problem(self, seat: int, step: ExchangeStep, parsed: KeepAction) -> str | None:
        if not isinstance(step, Keep):
            return f"it is time for {self._wanted()}, not to keep cards"
        hand = self.cards.hands[seat]
        cards = list(parsed.cards)
        if len(cards) != step.count:
            return f"keep exactly {step.count} card{'s' if step.count != 1 else ''}, not {len(cards)}"
        missing = [c for c in cards if c not in hand]
        if missing:
            return f"you do not hold {', '.join(missing)}"
        if len(set(cards)) != len(cards):
            return "a card is named twice"
        if tuple(sorted(cards, key=hand.index)) not in self.keep_choices(step, hand):
            return f"{step.reason}: {', '.join(cards)}"
        return None

    def _keep(self, seat: int, parsed: KeepAction) -> None:
        step = self.current_step()
        assert isinstance(step, Keep)
        hand = self.cards.hands[seat]
        cards = list(parsed.cards)
        discarded = [c for c in hand if c not in cards]
        hand[:] = [c for c in hand if c in cards]
        self.cards.aside.extend(discarded)
        if step.exposed:
            self.cards.exposed.extend(cards)
        self.emit(
            type="keep",
            seat=seat,
            count=len(cards),
            discarded=len(discarded),
            **({"exposed": cards} if step.exposed else {}),
        )
        self.step += 1

    def _discard(self, seat: int, parsed: DiscardAction) -> None:
        hand = self.cards.hands[seat]
        step = self.current_step()
        assert isinstance(step, Discard)
        shown: list[str] = []
        if step.shown is not None:
            env = {"hand": frozenset(hand), "players": len(self.seats)}
            shown = [c for c in parsed.cards if step.shown({**env, "card": c})]
        for card in parsed.cards:
            hand.remove(card)
        self.cards.aside.extend(parsed.cards)
        # Face down but for the cards the rules lay face up (a trump discarded for want of others).
        self.emit(type="discard", seat=seat, count=len(parsed.cards), **({"shown": shown} if shown else {}))
        self.step += 1

    def _discard_form(self, step: Discard, hand: list[str], cards: list[str]) -> str | None:
        """What makes `cards` no discard at all: not the number the step asks for, a card named
        twice, one not held or one laid face up (None: a discard, if maybe not an allowed one)."""
        count = step.how_many(self.talon_size)
        if len(cards) != count:
            return f"discard exactly {count} cards, not {len(cards)}"
        doubled = sorted({c for c in cards if cards.count(c) > 1})
        if doubled:
            return f"a card is named twice: {', '.join(doubled)}"
        missing = [c for c in cards if c not in hand]
        if missing:
            return f"you do not hold {', '.join(missing)}"
        exposed = [c for c in cards if c in self.cards.exposed]
        if exposed:
            return f"cards laid face up stay in the game and may not be discarded: {', '.join(exposed)}"
        return None

    def _discard_rule(self, step: Discard, hand: list[str], cards: list[str]) -> str | None:
        """Why the discard `cards` breaks the step's rules of what may go aside (a card it forbids,
        fewer cards of a preferred class than it could hold); None when it does not."""
        may = set(self.allowed(step, hand))
        forbidden = [c for c in cards if c not in may]
        if forbidden:
            return f"{step.reason}: {', '.join(forbidden)}"
        if step.prefer or step.all_or_none:
            return self._whole_broken(step, hand, cards)
        return None

    def breach(self, seat: int, parsed: DiscardAction) -> str | None:
        """Which rule of what may go aside the declarer's discard, a proper one of the right
        number of held cards, breaks (an incorrect discard, which a table recording its games may
        penalise rather than refuse), in words that name no card (the discard lies face down);
        None when it is allowed, or not a discard the step could take."""
        if seat != self.to_act or self.accusing or self.conceding or self.parts is not None or self.choosing_trumps():
            return None
        if self.step >= len(self.contract.exchange):
            return None
        step = self.current_step()
        if not isinstance(step, Discard):
            return None
        hand = self.cards.hands[seat]
        cards = list(parsed.cards)
        if self._discard_form(step, hand, cards) is not None or self._discard_rule(step, hand, cards) is None:
            return None
        may = set(self.allowed(step, hand))
        if any(c not in may for c in cards):
            return step.reason
        return self._whole_reason(step, hand, set(cards))

    # -- the engine's steps ----------------------------------------------------------------------
    def advance(self) -> Ending | None:
        """Do the steps nobody decides, up to the declarer's next choice. Returns how the
        exchange ended, or None while the declarer has something to do."""
        if self.ending is not None:
            return self.ending
        if self.choosing_trumps() or self.accusing or self.conceding or self.parts is not None:
            return None
        steps = self.contract.exchange
        while self.step < len(steps) and isinstance(steps[self.step], (TakeTalon, ForcedDiscard)):
            step = steps[self.step]
            if isinstance(step, ForcedDiscard):
                if not self._force(step):
                    break  # nothing to force: the declarer discards a card of their choice
                continue
            assert isinstance(step, TakeTalon)
            self.step += 1
            ending = self._take_talon(step)
            if ending is not None or self.conceding or self.accusing or self.parts is not None:
                return ending  # (None: the declarer has a choice to make)
        if self.step < len(steps):
            return self._next_choice()
        if self.claimed():
            return self._end(Claimed())
        return self._end(Finished())

    def _force(self, step: ForcedDiscard) -> bool:
        """The cards a forced discard lays away for the declarer (face up where `shown`); False
        when there is none (the declarer chooses one)."""
        assert self.declarer is not None
        cards = self.cards
        hand = cards.hands[self.declarer]
        forced = [c for c in step.cards({"taken": frozenset(self.taken), "hand": frozenset(hand)}) if c in hand]
        if not forced:
            return False
        for card in forced:
            hand.remove(card)
        cards.aside.extend(forced)
        self.emit(
            type="forced_discard", seat=self.declarer, count=len(forced), **({"cards": forced} if step.shown else {})
        )
        self.step += 1
        return True

    def _take_talon(self, step: TakeTalon) -> Ending | None:
        """The declarer takes the talon (or some of it, or lays it out in parts to choose from);
        then a concession, a claim or an accusation may follow."""
        assert self.declarer is not None
        talon = self.cards.talon
        if step.count is not None:
            self._draw(step)
        else:
            if step.shown:
                self.talon_shown = True
                self.shown_cards = list(talon)
                self.emit(type="talon_shown", seat=self.declarer, cards=list(talon), parts=step.parts)
            if step.parts > 1:
                size = len(talon) // step.parts
                self.parts = [talon[i * size : (i + 1) * size] for i in range(step.parts)]
                self.conceding = self.may_concede()
                return None  # the declarer chooses a part
            self._take(self.declarer, list(talon), None)
        if self.may_concede():
            self.conceding = True
        elif self.claimed():
            return self._end(Claimed())
        elif self.may_accuse:
            self.may_accuse = False
            self.accusing = True  # the declarer has seen the talon: accuse, or go on
        return None

    def _next_choice(self) -> Ending | None:
        """The declarer's next step, a choice: None, or the end of the exchange where the rules
        leave the declarer no way on (no cards that may be kept, no legal discard)."""
        step = self.current_step()
        assert self.declarer is not None
        hand = self.cards.hands[self.declarer]
        if isinstance(step, Keep):
            if not self.keep_choices(step, hand):
                return self._end(
                    Abandoned(
                        f"the hand has no {step.count} cards that may be kept, and the ruleset does not say what happens"
                    )
                )
            return None
        if not isinstance(step, Discard):
            return None  # a card to call or to give: the declarer's turn
        count = step.how_many(self.talon_size)
        if not self.discard_choice(step, hand):
            return self._end(
                Abandoned(f"no legal discard of {count} cards exists and the ruleset does not say what happens")
            )
        return None

    def _draw(self, step: TakeTalon) -> None:
        """The declarer takes `step.count` cards from one end of the talon as dealt (Dreierles:
        an opponent turns them up for everybody); the rest stays in the talon."""
        assert self.declarer is not None and step.count is not None
        talon = self.cards.talon
        count = min(step.count, len(talon))
        drawn = talon[:count] if step.end == "top" else talon[len(talon) - count :]
        if step.shown:
            self.talon_shown = True
            self.shown_cards = list(drawn)
            self.emit(type="talon_shown", seat=self.declarer, cards=list(drawn), parts=1, end=step.end)
        self._take(self.declarer, drawn, None)
        self.rest_seen_by_defenders = step.rest_seen_by == "defenders"

    def _end(self, ending: Ending) -> Ending:
        self.ending = ending
        return ending

    def claimed(self) -> bool:
        return claims(self.ruleset, self.declarer, self.cards.hands)


def _merged(classes: list[list[str]]) -> list[list[str]]:
    """Classes that go all or none, those sharing a card made one (the King of Hearts ties "all
    Kings or none" to "all Hearts or none": either both go aside whole, or neither does)."""
    merged: list[list[str]] = []
    for cards in classes:
        tied = [block for block in merged if not set(block).isdisjoint(cards)]
        block = [c for b in tied for c in b]
        block += [c for c in cards if c not in block]
        merged = [b for b in merged if b not in tied] + [block]
    return merged


def claims(ruleset: Ruleset, declarer: int | None, hands: dict[int, list[str]]) -> bool:
    """Whether the declarer's hand, as the exchange leaves it, is shown instead of played (the
    ruleset's `claim`)."""
    claim = ruleset.claim
    return claim is not None and declarer is not None and bool(claim.when({"hand": frozenset(hands[declarer])}))
