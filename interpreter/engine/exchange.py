"""The exchange: what the declarer does between the auction and the first lead.

Picking up the talon, keeping cards before it (Cego), discarding (with forbidden cards),
forced discards, calling and giving a card (Rufer), naming trumps, accusing a skinned Solo, and
a hand shown instead of played (claim). A mixin of `Game`: it works on the game's state.
"""
from __future__ import annotations

import itertools

from interpreter.engine.actions import Action, Call, CardAction, Choose, DiscardAction, KeepAction
from interpreter.engine.auction import PASS
from interpreter.errors import IllegalActionError
from interpreter.language.model import CallCard, Discard, ForcedDiscard, Give, Keep, TakeTalon
from interpreter.engine.phase import Phase
from interpreter.engine.settlement import Result, settle


class ExchangeSteps:
    """Exchange-phase methods of `Game`."""

    def _choosing_trumps(self) -> bool:
        return bool(self.contract and self.contract.trump_choice) and not self.trumps_named

    def _current_step(self):
        step = self.contract.exchange[self.exchange_step]
        # A forced discard whose set was empty (no Trock in the Cego): the declarer chooses one.
        return Discard(1, None, "") if isinstance(step, ForcedDiscard) else step

    def _keep_choices(self, step: Keep, hand: list[str]) -> list[tuple[str, ...]]:
        deck = self.ruleset.deck

        def fits(combo: tuple[str, ...]) -> bool:
            suits = [deck.suit[c] for c in combo]
            return ((not step.same_suit or len(set(suits)) <= 1)
                    and (not step.different_suits or len(set(suits)) == len(suits)))

        candidates = [c for c in hand if c in step.allowed]
        valid = [combo for combo in itertools.combinations(candidates, step.count) if fits(combo)]
        if step.prefer is not None and valid:
            # As many preferred cards as possible: picture cards stand in only for missing empty ones.
            most = max(sum(c in step.prefer for c in combo) for combo in valid)
            return [combo for combo in valid if sum(c in step.prefer for c in combo) == most]
        return valid

    def _forbidden(self, step: Discard, card: str, hand: list[str]) -> bool:
        if card in self.exposed:
            return True          # laid face up: it stays in the game
        return step.forbid is not None and bool(step.forbid({"card": card, "hand": frozenset(hand),
                                                             "players": len(self.seats)}))

    def _run_engine_steps(self) -> None:
        """Do the exchange steps nobody decides, check for a claim, and start play when due."""
        if self._choosing_trumps():
            return
        steps = self.contract.exchange
        while self.exchange_step < len(steps) and isinstance(steps[self.exchange_step], (TakeTalon, ForcedDiscard)):
            step = steps[self.exchange_step]
            if isinstance(step, ForcedDiscard):
                hand = self.hands[self.declarer]
                cards = [c for c in step.cards({"taken": frozenset(self.taken), "hand": frozenset(hand)}) if c in hand]
                if not cards:
                    break      # nothing to force: the declarer discards a card of their choice
                for card in cards:
                    hand.remove(card)
                self.aside.extend(cards)
                self._emit(type="forced_discard", seat=self.declarer, count=len(cards), **({"cards": cards} if step.shown else {}))
                self.exchange_step += 1
                continue
            self.taken = list(self.talon)
            self.hands[self.declarer].extend(self.talon)
            self._emit(type="talon_taken", seat=self.declarer, count=len(self.talon))
            self.talon = []
            self.exchange_step += 1
            if self._claimed():
                return
            rule = self.ruleset.accusation
            if rule is not None and rule.phase in self.auction.passed_out:
                self.accusation_open = True      # the declarer has seen the talon: accuse, or go on
                return
        if self.exchange_step < len(steps):
            step = self._current_step()
            if isinstance(step, Keep):
                if not self._keep_choices(step, self.hands[self.declarer]):
                    self._finish(Result("abandoned", self.contract.name, self.declarer, None, None, None, [0] * self.players,
                                        reason=f"the hand has no {step.count} cards that may be kept, and the ruleset does not say what happens"))
                return
            if not isinstance(step, Discard):
                return          # a card to call or to give: the declarer's turn
            allowed = [c for c in self.hands[self.declarer] if not self._forbidden(step, c, self.hands[self.declarer])]
            count = step.how_many(self.talon_size)
            if len(allowed) < count:
                self._finish(Result("abandoned", self.contract.name, self.declarer, None, None, None, [0] * self.players,
                                    reason=f"no legal discard of {count} cards exists and the ruleset does not say what happens"))
            return
        if self._claimed():
            return
        if self.declarer is not None and self._announcement_choices():
            self.phase = Phase.ANNOUNCE
            self._emit(type="phase", phase="announce", seat=self.declarer)
            return
        self._start_play()

    def _claimed(self) -> bool:
        claim = self.ruleset.claim
        if claim is None or self.declarer is None or not claim.when({"hand": frozenset(self.hands[self.declarer])}):
            return False
        self._emit(type="claim", seat=self.declarer, hand=sorted(self.hands[self.declarer], key=self._sort_key))
        n_tricks = sum(p.count for p in self.ruleset.deal_plans[len(self.seats)] if p.to == "each")
        self._finish(settle(self._deal_facts(), list(self.ruleset.pack(len(self.seats))), [], n_tricks, 0,
                            "claimed", factor=claim.factor, liable=claim.liable))
        return True

    def _apply_accusation(self, seat: int, parsed: Action) -> None:
        if isinstance(parsed, Call) and parsed.name == PASS:
            self.accusation_open = False
            self.history.append((seat, PASS))
            self._emit(type="call", seat=seat, call=PASS, phase="accusation")
            self._run_engine_steps()
            return
        if not (isinstance(parsed, Choose) and parsed.name == "accuse"):
            raise IllegalActionError("accuse the others of skinning a Solo ({choose: accuse}) or go on (pass)", seat)
        self.accusation_open = False
        self.history.append((seat, parsed.as_json()))
        rule = self.ruleset.accusation
        guilty = [s for s in self.seats if s != seat and rule.strong({"hand": frozenset(self.initial_hands[s])})]
        losers = guilty or [seat]
        # As the loser of the final game with no trick: what the declarer would pay each opponent.
        facts = self._deal_facts()
        lost = settle(facts, [], list(self.ruleset.pack(len(self.seats))), 0,
                      len(self.hands[self.seats[0]]), "played")
        amount = -lost.payments[self.declarer] // max(1, len([s for s in range(self.players) if lost.payments[s] > 0]))
        payments = [0] * self.players
        for loser in losers:
            for other in self.seats:
                if other != loser:
                    payments[other] += amount
                    payments[loser] -= amount
        reason = (f"seat {seat} accused the others of skinning a Solo: "
                  + (f"seat(s) {', '.join(map(str, guilty))} passed with a Solo hand" if guilty else "nobody had, so the accuser pays"))
        self._emit(type="accusation", seat=seat, guilty=guilty, hands=[list(h) for h in self.initial_hands])
        self._finish(Result("accused", self.contract.name, self.declarer, None, None, None, payments, reason=reason))

    def _apply_card_action(self, seat: int, parsed: CardAction) -> None:
        step = self._current_step()
        hand = self.hands[seat]
        if parsed.kind == "call_card":
            if not isinstance(step, CallCard):
                raise IllegalActionError("there is no card to call now", seat)
            if parsed.card in hand:
                raise IllegalActionError(f"call a card you do not hold; you hold {parsed.card}", seat)
            if parsed.card not in step.allowed:
                raise IllegalActionError(f"{parsed.card} may not be called", seat)
            holder = next((s for s in self.seats if parsed.card in self.hands[s]), None)
            (self.hands[holder] if holder is not None else self.talon).remove(parsed.card)
            hand.append(parsed.card)
            self.called = (parsed.card, holder)
            self.history.append((seat, parsed.as_json()))
            self._emit(type="call_card", seat=seat, card=parsed.card, holder=holder)
        else:
            if not isinstance(step, Give):
                raise IllegalActionError("there is no card to give now", seat)
            if parsed.card not in hand:
                raise IllegalActionError(f"you do not hold {parsed.card}", seat)
            hand.remove(parsed.card)
            receiver = self.called[1] if self.called else None
            (self.hands[receiver] if receiver is not None else self.talon).append(parsed.card)
            self.history.append((seat, parsed.as_json()))
            # Only the receiver learns which card it is; the public event tells that a card was given.
            self._emit(type="give", seat=seat, to=receiver)
        self.exchange_step += 1
        self._run_engine_steps()

    def _apply_trump_choice(self, seat: int, parsed: Action) -> None:
        names = {self.ruleset.deck.suit_names[s]: s for s in self.contract.trump_choice}
        if not isinstance(parsed, Choose):
            raise IllegalActionError(f"name the trump suit first: {', '.join('{choose: ' + n + '}' for n in names)}", seat)
        if parsed.name not in names:
            raise IllegalActionError(f"{parsed.name} cannot be trumps in {self.contract.title}; choose one of: {', '.join(names)}", seat)
        self.trump_suit = names[parsed.name]
        self.trumps_named = True
        self.history.append((seat, parsed.as_json()))
        self._emit(type="trumps", seat=seat, suit=parsed.name)
        self._run_engine_steps()

    def _apply_keep(self, seat: int, parsed: KeepAction) -> None:
        step = self._current_step()
        if not isinstance(step, Keep):
            raise IllegalActionError("it is time to discard, not to keep", seat)
        hand = self.hands[seat]
        cards = list(parsed.cards)
        if len(cards) != step.count:
            raise IllegalActionError(f"keep exactly {step.count} card{'s' if step.count != 1 else ''}, not {len(cards)}", seat)
        missing = [c for c in cards if c not in hand]
        if missing:
            raise IllegalActionError(f"you do not hold {', '.join(missing)}", seat)
        if len(set(cards)) != len(cards):
            raise IllegalActionError("a card is named twice", seat)
        if tuple(sorted(cards, key=hand.index)) not in {tuple(sorted(c, key=hand.index)) for c in self._keep_choices(step, hand)}:
            raise IllegalActionError(f"{step.reason}: {', '.join(cards)}", seat)
        discarded = [c for c in hand if c not in cards]
        self.hands[seat] = hand[:] = [c for c in hand if c in cards]
        self.aside.extend(discarded)
        if step.exposed:
            self.exposed.extend(cards)
        self.history.append((seat, parsed.as_json()))
        self._emit(type="keep", seat=seat, count=len(cards), discarded=len(discarded), **({"exposed": cards} if step.exposed else {}))
        self.exchange_step += 1
        self._run_engine_steps()

    def _apply_discard(self, seat: int, parsed: Action) -> None:
        if not isinstance(parsed, DiscardAction):
            raise self._wrong_kind(seat, parsed)
        step = self._current_step()
        if not isinstance(step, Discard):
            raise IllegalActionError(f"it is time to keep {step.count} card{'s' if step.count != 1 else ''} ({{keep: [...]}}), not to discard", seat)
        hand = self.hands[seat]
        cards = list(parsed.cards)
        count = step.how_many(self.talon_size)
        if len(cards) != count:
            raise IllegalActionError(f"discard exactly {count} cards, not {len(cards)}", seat)
        doubled = sorted({c for c in cards if cards.count(c) > 1})
        if doubled:
            raise IllegalActionError(f"a card is named twice: {', '.join(doubled)}", seat)
        missing = [c for c in cards if c not in hand]
        if missing:
            raise IllegalActionError(f"you do not hold {', '.join(missing)}", seat)
        exposed = [c for c in cards if c in self.exposed]
        if exposed:
            raise IllegalActionError(f"cards laid face up stay in the game and may not be discarded: {', '.join(exposed)}", seat)
        forbidden = [c for c in cards if self._forbidden(step, c, hand)]
        if forbidden:
            raise IllegalActionError(f"{step.reason}: {', '.join(forbidden)}", seat)
        for card in cards:
            hand.remove(card)
        self.aside.extend(cards)
        self.history.append((seat, parsed.as_json()))
        self._emit(type="discard", seat=seat, count=len(cards))
        self.exchange_step += 1
        self._run_engine_steps()
