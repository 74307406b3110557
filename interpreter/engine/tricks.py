"""Trick play: which cards a player may play, and who wins a trick.

This is the hot loop of simulations, so it works on precomputed tables: for every card its
suit for following (trumps are one suit), and its power (trumps above every suit card).
"""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.language.model import TRUMP, Deck, PlayRules, Ruleset


@dataclass(frozen=True)
class TrickRules:
    follow: dict[str, str]  # card -> the suit it follows as ("T" for a trump)
    power: dict[str, int]  # card -> strength; trumps beat every suit card
    play: PlayRules
    deck: Deck

    @classmethod
    def of(cls, ruleset: Ruleset, trump_suit: str | None = None) -> TrickRules:
        """The tables for a deal; `trump_suit` makes a suit trumps besides any permanent ones
        (Hearts in Tapp, or the suit a Solo player names). Built once per ruleset and suit."""
        key = ("trick_rules", trump_suit)
        rules = ruleset.derived.get(key)
        if rules is None:
            rules = ruleset.derived[key] = cls._build(ruleset.deck, ruleset.play, trump_suit)
        return rules

    @classmethod
    def _build(cls, deck: Deck, play: PlayRules, trump_suit: str | None) -> TrickRules:
        def is_trump(card: str) -> bool:
            return deck.suit[card] in (TRUMP, trump_suit)

        follow = {c: TRUMP if is_trump(c) else deck.suit[c] for c in deck.cards}
        power = {c: deck.rank[c] + (1000 if is_trump(c) else 0) for c in deck.cards}
        return cls(follow, power, play, deck)

    def legal(self, hand: list[str], trick: list[str]) -> list[str]:
        if not trick:
            return list(hand)
        follow, play = self.follow, self.play  # local names: this runs for every card played
        led = follow[trick[0]]
        if play.follow_suit:
            same = [c for c in hand if follow[c] == led]
            if same:
                return self._beating(same, trick) if play.must_beat else same
        if play.must_trump:
            trumps = [c for c in hand if follow[c] == TRUMP]
            if trumps:
                return self._beating(trumps, trick) if play.must_beat else trumps
        return list(hand)

    def _beating(self, candidates: list[str], trick: list[str]) -> list[str]:
        if not self.play.must_beat:
            return candidates
        best = self.power[trick[self.winner_index(trick)]]
        led = self.follow[trick[0]]
        beating = [c for c in candidates if self._strength(c, led) > best]
        return beating or candidates

    def _strength(self, card: str, led: str) -> int:
        suit = self.follow[card]
        return self.power[card] if suit in (TRUMP, led) else -1

    def winner_index(
        self,
        trick: list[str],
        powerless: frozenset[str] | set[str] = frozenset(),
        suitless: frozenset[str] | set[str] = frozenset(),
    ) -> int:
        """Index in `trick` of the winning card: the highest trump, else the highest of the suit led.
        A powerless card (a withheld Gstieß, an exposed empty card) never wins; a suitless one does
        not fix the suit either, so the first card after it does."""
        if not powerless and not suitless:
            return self._best(trick, self.follow[trick[0]], frozenset())
        fixing = [c for c in trick if c not in suitless]
        led = self.follow[fixing[0]] if fixing else self.follow[trick[0]]
        index = self._best(trick, led, powerless)
        if trick[index] in powerless or self._strength(trick[index], led) < 0:
            # Nobody could follow the powerless card's suit or trump: the first card with power sets it.
            powered = [c for c in trick if c not in powerless]
            if powered:
                index = self._best(trick, self.follow[powered[0]], powerless)
        return index

    def _best(self, trick: list[str], led: str, powerless: frozenset[str] | set[str]) -> int:
        best, best_index = -2, 0
        for index, card in enumerate(trick):
            strength = self._strength(card, led) if card not in powerless else -3
            if strength > best:
                best, best_index = strength, index
        return best_index

    def refusal(self, hand: list[str], trick: list[str], card: str) -> str:
        """Why `card` may not be played, in the words of the rules."""
        if card not in hand:
            return f"you do not hold {card} ({self.deck.name_of(card)})"
        allowed = self.legal(hand, trick)
        led = self.follow[trick[0]]
        shown = ", ".join(sorted(allowed, key=lambda c: -self.power[c]))
        if self.follow[allowed[0]] == led and self.follow[card] != led:
            what = "trumps" if led == TRUMP else self.deck.suit_names[led]
            return f"must follow suit ({what}): you hold {shown}"
        if self.follow[allowed[0]] == TRUMP and self.follow[card] != TRUMP:
            return f"must play a trump: you hold {shown}"
        return f"must beat the trick: you can with {shown}"
