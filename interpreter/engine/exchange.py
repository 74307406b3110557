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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.engine.actions import Action, ActionJson, Call, CardAction, Choose, DiscardAction, KeepAction
from interpreter.engine.auction import PASS
from interpreter.errors import IllegalActionError
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
    Ruleset,
    TakeTalon,
)

LISTABLE = 64  # a choice with more combinations than this comes as a template


@dataclass
class Cards:
    """Where the cards of a deal are, shared by every stage of it."""

    hands: dict[int, list[str]]  # by seat; [] for a dealer who sits out
    talon: list[str]
    aside: list[str] = field(default_factory=list)  # discarded (by the declarer, or forced)
    exposed: list[str] = field(default_factory=list)  # kept face up by the declarer: they never win


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
Emit = Callable[..., None]


class Exchange:
    """The exchange of one deal: the declarer's steps, in the contract's order."""

    def __init__(
        self,
        ruleset: Ruleset,
        contract: Contract,
        declarer: int | None,
        seats: list[int],
        cards: Cards,
        dealt: list[list[str]],
        emit: Emit,
        *,
        may_accuse: bool,
        trump_suit: str | None,
    ):
        self.ruleset, self.contract, self.declarer, self.seats = ruleset, contract, declarer, seats
        self.cards = cards
        self.dealt = dealt  # the hands as dealt, by seat
        self.emit = emit
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

    # -- where it stands -----------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        return self.declarer if self.ending is None else None

    def choosing_trumps(self) -> bool:
        return bool(self.contract.trump_choice) and not self.trumps_named

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

    def discard_choice(self, step: Discard, hand: list[str]) -> tuple[list[str], list[str], int]:
        """The legal discards of `step`, judged as whole sets by its preferences: the cards every
        one of them holds (all of a preferred class that has fewer cards than are still wanted),
        the cards the rest is chosen from, and how many of them (each in the hand's order).
        Without preferences: none required, any `count` of the cards allowed."""
        pool = self.allowed(step, hand)
        need = step.how_many(self.talon_size)
        if not step.prefer:
            return [], pool, need
        required: list[str] = []
        env = {"hand": frozenset(hand), "players": len(self.seats)}
        for preference in step.prefer:
            preferred = [c for c in pool if preference.when({**env, "card": c})]
            if len(preferred) >= need:
                return required, preferred, need  # the rest of the discard comes from this class
            required += preferred
            need -= len(preferred)
            pool = [c for c in pool if c not in preferred]
        return required, pool, need

    def _preference_broken(self, step: Discard, hand: list[str], cards: list[str]) -> str | None:
        """Why `cards` (allowed, the right number) is not a discard the preferences allow: the
        reason of the first class it takes fewer cards of than it could, and what it could be."""
        required, pool, need = self.discard_choice(step, hand)
        chosen = set(cards)
        if chosen.issuperset(required) and all(c in pool for c in chosen.difference(required)):
            return None
        reason = self._preference_reason(step, hand, chosen)
        if required:
            could = f"discard {', '.join(required)}" + (f" and {need} of {', '.join(pool)}" if need else "")
        else:
            could = f"discard {need} of {', '.join(pool)}"
        return f"{reason}: {could}"

    def _preference_reason(self, step: Discard, hand: list[str], chosen: set[str]) -> str:
        """The reason of the first preferred class the discard `chosen` takes fewer cards of than
        it could."""
        env = {"hand": frozenset(hand), "players": len(self.seats)}
        left, wanted = self.allowed(step, hand), step.how_many(self.talon_size)
        for preference in step.prefer:
            preferred = [c for c in left if preference.when({**env, "card": c})]
            if len(chosen.intersection(preferred)) < min(len(preferred), wanted):
                return preference.reason
            wanted -= min(len(preferred), wanted)
            left = [c for c in left if c not in preferred]
        return step.prefer[0].reason

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
            choices = self.keep_choices(step, hand)
            if len(choices) <= LISTABLE:
                return [{"keep": list(c)} for c in choices]
            return [
                {"keep": {"count": step.count, "from": sorted({c for combo in choices for c in combo}, key=hand.index)}}
            ]
        assert isinstance(step, Discard)
        required, pool, need = self.discard_choice(step, hand)
        if math.comb(len(pool), need) <= LISTABLE:
            if not required:
                return [{"discard": list(combo)} for combo in itertools.combinations(pool, need)]
            return [
                {"discard": sorted([*required, *combo], key=hand.index)} for combo in itertools.combinations(pool, need)
            ]
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
        return [{"discard": template}]

    # -- applying the declarer's action --------------------------------------------------------
    def apply(self, seat: int, parsed: Action) -> None:
        """Apply the declarer's action; raises IllegalActionError, changing nothing, if it is not
        allowed now. The engine steps that follow are done by `advance`."""
        if self.accusing:
            self._accuse_or_pass(seat, parsed)
        elif self.conceding:
            self._concede_or_pass(seat, parsed)
        elif self.parts is not None:
            self._choose_part(seat, parsed)
        elif self.choosing_trumps():
            self._name_trumps(seat, parsed)
        elif self.step < len(self.contract.exchange) and isinstance(self.current_step(), CallPartner):
            self._call_partner(seat, parsed)
        elif isinstance(parsed, CardAction):
            self._call_or_give(seat, parsed)
        elif isinstance(parsed, KeepAction):
            self._keep(seat, parsed)
        elif isinstance(parsed, DiscardAction):
            self._discard(seat, parsed)
        else:
            raise IllegalActionError(f"it is time for {self._wanted()} (exchange), not {parsed.describe()}", seat)

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

    def _call_partner(self, seat: int, parsed: Action) -> None:
        step = self.current_step()
        assert isinstance(step, CallPartner)
        hand = self.cards.hands[seat]
        legal = self._partner_calls(step, hand)
        if isinstance(parsed, Choose) and step.unnamed is not None and parsed.name == step.unnamed:
            card = self._unnamed_card(step, hand)
            if card is None:
                raise IllegalActionError(
                    f"'{step.unnamed}' may not be called with this hand; call a card: "
                    + ", ".join(str(a["call_card"]) for a in legal if isinstance(a, dict) and "call_card" in a),
                    seat,
                )
            self.partner_card, self.partner_named = card, False
            self.emit(type="call_partner", seat=seat, choice=step.unnamed)
        elif isinstance(parsed, CardAction) and parsed.kind == "call_card":
            if {"call_card": parsed.card} not in legal:
                options = ", ".join(str(a.get("call_card", a.get("choose"))) for a in legal if isinstance(a, dict))
                raise IllegalActionError(
                    f"{parsed.card} may not be called for a partner; you may call: {options}", seat
                )
            self.partner_card, self.partner_named = parsed.card, True
            self.emit(type="call_partner", seat=seat, card=parsed.card)
        else:
            raise IllegalActionError(
                f"call a card for your partner ({{call_card: CARD}}), not {parsed.describe()}", seat
            )
        self.step += 1

    def _choose_part(self, seat: int, parsed: Action) -> None:
        assert self.parts is not None
        names = PART_NAMES[: len(self.parts)]
        if not isinstance(parsed, Choose) or parsed.name not in names:
            raise IllegalActionError(
                "choose a part of the talon: " + ", ".join("{choose: " + n + "}" for n in names), seat
            )
        part = self.parts[names.index(parsed.name)]
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
        if isinstance(parsed, Call) and parsed.name == PASS:
            self.conceding = False
            self.emit(type="call", seat=seat, call=PASS, phase="concede")
            return
        if not (isinstance(parsed, Choose) and parsed.name == "concede"):
            raise IllegalActionError("concede the game ({choose: concede}) or play on (pass)", seat)
        self.conceding = False
        self.ending = Conceded(seat)

    def _accuse_or_pass(self, seat: int, parsed: Action) -> None:
        if isinstance(parsed, Call) and parsed.name == PASS:
            self.accusing = False
            self.emit(type="call", seat=seat, call=PASS, phase="accusation")
            return
        if not (isinstance(parsed, Choose) and parsed.name == "accuse"):
            raise IllegalActionError("accuse the others of skinning a Solo ({choose: accuse}) or go on (pass)", seat)
        rule = self.ruleset.accusation
        assert rule is not None
        self.accusing = False
        # Judged on the hands as dealt: what the others passed with.
        self.ending = Accused(
            seat, tuple(s for s in self.seats if s != seat and rule.strong({"hand": frozenset(self.dealt[s])}))
        )

    def _name_trumps(self, seat: int, parsed: Action) -> None:
        names = {self.ruleset.deck.suit_names[s]: s for s in self.contract.trump_choice}
        if not isinstance(parsed, Choose):
            raise IllegalActionError(
                f"name the trump suit first: {', '.join('{choose: ' + n + '}' for n in names)}", seat
            )
        if parsed.name not in names:
            raise IllegalActionError(
                f"{parsed.name} cannot be trumps in {self.contract.title}; choose one of: {', '.join(names)}", seat
            )
        self.trump_suit = names[parsed.name]
        self.trumps_named = True
        self.emit(type="trumps", seat=seat, suit=parsed.name)

    def _call_or_give(self, seat: int, parsed: CardAction) -> None:
        step = self.current_step()
        hand = self.cards.hands[seat]
        if parsed.kind == "call_card":
            if not isinstance(step, CallCard):
                raise IllegalActionError(f"there is no card to call now; it is time for {self._wanted()}", seat)
            if parsed.card in hand:
                raise IllegalActionError(f"call a card you do not hold; you hold {parsed.card}", seat)
            if parsed.card not in step.allowed:
                raise IllegalActionError(f"{parsed.card} may not be called", seat)
            holder = next((s for s in self.seats if parsed.card in self.cards.hands[s]), None)
            (self.cards.hands[holder] if holder is not None else self.cards.talon).remove(parsed.card)
            hand.append(parsed.card)
            self.called = (parsed.card, holder)
            self.emit(type="call_card", seat=seat, card=parsed.card, holder=holder)
        else:
            if not isinstance(step, Give):
                raise IllegalActionError(f"there is no card to give now; it is time for {self._wanted()}", seat)
            if parsed.card not in hand:
                raise IllegalActionError(f"you do not hold {parsed.card}", seat)
            if self._called_back(step, parsed.card):
                raise IllegalActionError(
                    f"give a card in exchange for {parsed.card}, not {parsed.card} itself: any other card of your hand",
                    seat,
                )
            hand.remove(parsed.card)
            receiver = self.called[1] if self.called else None
            (self.cards.hands[receiver] if receiver is not None else self.cards.talon).append(parsed.card)
            # Only the receiver learns which card it is; the public event tells that a card was given.
            self.emit(type="give", seat=seat, to=receiver)
        self.step += 1

    def _called_back(self, step: Give, card: str) -> bool:
        """Whether giving `card` would hand back the card just called, where the step forbids it."""
        return step.other_than_called and self.called is not None and card == self.called[0]

    def _keep(self, seat: int, parsed: KeepAction) -> None:
        step = self.current_step()
        if not isinstance(step, Keep):
            raise IllegalActionError(f"it is time for {self._wanted()}, not to keep cards", seat)
        hand = self.cards.hands[seat]
        cards = list(parsed.cards)
        if len(cards) != step.count:
            raise IllegalActionError(
                f"keep exactly {step.count} card{'s' if step.count != 1 else ''}, not {len(cards)}", seat
            )
        missing = [c for c in cards if c not in hand]
        if missing:
            raise IllegalActionError(f"you do not hold {', '.join(missing)}", seat)
        if len(set(cards)) != len(cards):
            raise IllegalActionError("a card is named twice", seat)
        if tuple(sorted(cards, key=hand.index)) not in self.keep_choices(step, hand):
            raise IllegalActionError(f"{step.reason}: {', '.join(cards)}", seat)
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
        step = self.current_step()
        if not isinstance(step, Discard):
            raise IllegalActionError(f"it is time for {self._wanted()}, not to discard", seat)
        hand = self.cards.hands[seat]
        cards = list(parsed.cards)
        problem = self._discard_form(step, hand, cards) or self._discard_rule(step, hand, cards)
        if problem is not None:
            raise IllegalActionError(problem, seat)
        for card in cards:
            hand.remove(card)
        self.cards.aside.extend(cards)
        self.emit(type="discard", seat=seat, count=len(cards))
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
        if step.prefer:
            return self._preference_broken(step, hand, cards)
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
        return self._preference_reason(step, hand, set(cards))

    # -- the engine's steps ----------------------------------------------------------------------
    def advance(self) -> Ending | None:
        """Do the steps nobody decides, up to the declarer's next choice. Returns how the
        exchange ended, or None while the declarer has something to do."""
        if self.ending is not None:
            return self.ending
        if self.choosing_trumps() or self.accusing or self.conceding or self.parts is not None:
            return None
        steps = self.contract.exchange
        cards = self.cards
        while self.step < len(steps) and isinstance(steps[self.step], (TakeTalon, ForcedDiscard)):
            step = steps[self.step]
            if isinstance(step, ForcedDiscard):
                assert self.declarer is not None
                hand = cards.hands[self.declarer]
                forced = [c for c in step.cards({"taken": frozenset(self.taken), "hand": frozenset(hand)}) if c in hand]
                if not forced:
                    break  # nothing to force: the declarer discards a card of their choice
                for card in forced:
                    hand.remove(card)
                cards.aside.extend(forced)
                self.emit(
                    type="forced_discard",
                    seat=self.declarer,
                    count=len(forced),
                    **({"cards": forced} if step.shown else {}),
                )
                self.step += 1
                continue
            assert self.declarer is not None and isinstance(step, TakeTalon)
            self.step += 1
            if step.count is not None:
                self._draw(step)
            else:
                if step.shown:
                    self.talon_shown = True
                    self.shown_cards = list(cards.talon)
                    self.emit(type="talon_shown", seat=self.declarer, cards=list(cards.talon), parts=step.parts)
                if step.parts > 1:
                    size = len(cards.talon) // step.parts
                    self.parts = [cards.talon[i * size : (i + 1) * size] for i in range(step.parts)]
                    if self.may_concede():
                        self.conceding = True
                    return None  # the declarer chooses a part
                self._take(self.declarer, list(cards.talon), None)
            if self.may_concede():
                self.conceding = True
                return None
            if self.claimed():
                return self._end(Claimed())
            if self.may_accuse:
                self.may_accuse = False
                self.accusing = True  # the declarer has seen the talon: accuse, or go on
                return None
        if self.step < len(steps):
            step = self.current_step()
            assert self.declarer is not None
            hand = cards.hands[self.declarer]
            if isinstance(step, Keep):
                if not self.keep_choices(step, hand):
                    return self._end(
                        Abandoned(
                            f"the hand has no {step.count} cards that may be kept, "
                            "and the ruleset does not say what happens"
                        )
                    )
                return None
            if not isinstance(step, Discard):
                return None  # a card to call or to give: the declarer's turn
            allowed = self.allowed(step, hand)
            count = step.how_many(self.talon_size)
            if len(allowed) < count:
                return self._end(
                    Abandoned(f"no legal discard of {count} cards exists and the ruleset does not say what happens")
                )
            return None
        if self.claimed():
            return self._end(Claimed())
        return self._end(Finished())

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


def claims(ruleset: Ruleset, declarer: int | None, hands: dict[int, list[str]]) -> bool:
    """Whether the declarer's hand, as the exchange leaves it, is shown instead of played (the
    ruleset's `claim`)."""
    claim = ruleset.claim
    return claim is not None and declarer is not None and bool(claim.when({"hand": frozenset(hands[declarer])}))
