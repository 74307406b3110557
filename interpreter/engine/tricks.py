"""Trick play's base tables: following suit and trumping, and who wins a trick.

Every turn of trick play has these; every other rule of play is a rule object of the plan
(engine/playrules.py). They are precomputed once per ruleset, trump suit and contract with rules
of play of its own: for every card its suit for following (trumps are one suit) and its power
(trumps above every suit card); the cards of each suit for following, for legal moves without a
look at each card's suit; and for each suit that may be led, every card's strength in a trick it
leads (below 0: it cannot win, as a trump in a trick led by a suit where trumps win only when led),
so that a trick's winner is found in one pass over its cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.language.model import TRUMP, Contract, Deck, PlayRules, Ruleset


@dataclass(frozen=True)
class TrickRules:
    follow: dict[str, str]  # card -> the suit it follows as ("T" for a trump)
    power: dict[str, int]  # card -> strength; trumps beat every suit card
    play: PlayRules
    deck: Deck
    members: dict[str, frozenset[str]] = field(default_factory=dict)  # suit for following -> its cards
    # suit led -> card -> strength in that trick (below 0: it cannot win); filled by _build
    strengths: dict[str, dict[str, int]] = field(default_factory=dict)
    # card led -> the cards following asks for, in order: the first set that some cards of the
    # hand are in gives the cards to play (the suit led, then trumps); filled by _build
    duties: dict[str, tuple[frozenset[str], ...]] = field(default_factory=dict)
    # The seats in order of play -> for each leader, the order the seats play in (made once).
    _orders: dict[tuple[int, ...], dict[int, list[int]]] = field(default_factory=dict)

    def orders(self, seats: list[int]) -> dict[int, list[int]]:
        """For each seat of `seats` (in order of play), the seats in the order they play a trick
        it leads: shared, not to be changed."""
        key = tuple(seats)
        orders = self._orders.get(key)
        if orders is None:
            orders = self._orders[key] = {s: seats[i:] + seats[:i] for i, s in enumerate(seats)}
        return orders

    @classmethod
    def of(cls, ruleset: Ruleset, trump_suit: str | None = None, contract: Contract | None = None) -> TrickRules:
        """The tables for a deal; `trump_suit` makes a suit trumps besides any permanent ones
        (Hearts in Tapp, or the suit a Solo player names); a contract may have rules of play of
        its own. Built once per ruleset, suit and such contract."""
        own = contract is not None and contract.play is not None
        key = ("trick_rules", trump_suit, contract.name if own and contract is not None else None)
        rules = ruleset.derived.get(key)
        if rules is None:
            play = contract.play if own and contract is not None and contract.play is not None else ruleset.play
            rules = ruleset.derived[key] = cls._build(ruleset.deck, play, trump_suit)
        return rules

    @classmethod
    def _build(cls, deck: Deck, play: PlayRules, trump_suit: str | None) -> TrickRules:
        def is_trump(card: str) -> bool:
            return deck.suit[card] in (TRUMP, trump_suit)

        follow = {c: TRUMP if is_trump(c) else deck.suit[c] for c in deck.cards}
        rank = deck.rank
        if play.suit_ranks:
            # An order of the suits' ranks of this play's own (a Ten ranking low in a null game).
            order = {r: len(play.suit_ranks) - i for i, r in enumerate(play.suit_ranks)}
            rank = {c: rank[c] if deck.suit[c] == TRUMP else order[c[len(deck.suit[c]) :]] for c in deck.cards}
        power = {c: rank[c] + (1000 if is_trump(c) else 0) for c in deck.cards}
        members = {suit: frozenset(c for c in deck.cards if follow[c] == suit) for suit in set(follow.values())}
        rules = cls(follow, power, play, deck, members)
        for led in members:
            rules.strengths[led] = {c: rules.strength(c, led) for c in deck.cards}
        for card in deck.cards:
            tests = [members[follow[card]]] if play.follow_suit else []
            if play.must_trump and TRUMP in members and not (play.follow_suit and follow[card] == TRUMP):
                tests.append(members[TRUMP])
            rules.duties[card] = tuple(tests)
        return rules

    def legal(self, hand: list[str], trick: list[str]) -> list[str]:
        """The cards of `hand` following allows onto `trick`: of the suit led, else trumps (where
        trumping is a duty), else any."""
        if trick:
            # The duties of the card led, in order (as trick play's quick way reads them); loops,
            # not comprehensions (which Python 3.11 makes into a function called each time).
            for asked in self.duties[trick[0]]:
                cards = []
                for c in hand:
                    if c in asked:
                        cards.append(c)
                if cards:
                    return cards
        return list(hand)

    def forced(self, allowed: list[str], trick: list[str]) -> bool:
        """Whether `allowed`, what following allows onto `trick`, is a duty to follow or to trump
        (not a free choice of a hand that can do neither)."""
        if not trick:
            return False
        follow, play = self.follow, self.play
        suit = follow[allowed[0]]
        for card in allowed:  # (a loop, not all() over a generator: no frame made per call)
            if follow[card] != suit:
                return False
        return (play.follow_suit and suit == follow[trick[0]]) or (play.must_trump and suit == TRUMP)

    def beating(self, candidates: list[str], trick: list[str]) -> list[str]:
        """The cards of `candidates` that would head `trick`, or all of them when none would."""
        best = self.power[trick[self.winner_index(trick)]]
        strength = self.strengths[self.follow[trick[0]]]
        beating = []
        for card in candidates:
            if strength[card] > best:
                beating.append(card)
        return beating or candidates

    def strength(self, card: str, led: str) -> int:
        """The card's strength in a trick whose suit is `led` (below 0: it cannot win). A trump
        wins any trick unless trumps win only tricks they lead (Farben games)."""
        suit = self.follow[card]
        if suit == led or (suit == TRUMP and self.play.trumps_win):
            return self.power[card]
        return -1

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
            # The first of the strongest. A loop rather than trick.index(max(trick, key=...)):
            # twice as quick for a trick of four to six cards.
            strength = self.strengths[self.follow[trick[0]]]
            best, index = -2, 0
            for at, card in enumerate(trick):
                if strength[card] > best:
                    best, index = strength[card], at
            return index
        fixing = [c for c in trick if c not in suitless]
        led = self.follow[fixing[0]] if fixing else self.follow[trick[0]]
        index = self._best(trick, led, powerless)
        if trick[index] in powerless or self.strength(trick[index], led) < 0:
            # Nobody could follow the powerless card's suit or trump: the first card with power sets it.
            powered = [c for c in trick if c not in powerless]
            if powered:
                index = self._best(trick, self.follow[powered[0]], powerless)
        return index

    def _best(self, trick: list[str], led: str, powerless: frozenset[str] | set[str]) -> int:
        best, best_index = -2, 0
        for index, card in enumerate(trick):
            strength = self.strength(card, led) if card not in powerless else -3
            if strength > best:
                best, best_index = strength, index
        return best_index

    def refusal(self, hand: list[str], trick: list[str], card: str) -> str:
        """Why following does not allow `card` onto `trick`, in the words of the rules."""
        if card not in hand:
            return f"you do not hold {card} ({self.deck.name_of(card)})"
        allowed = self.legal(hand, trick)
        led = self.follow[trick[0]]
        shown = ", ".join(sorted(allowed, key=lambda c: -self.power[c]))
        if self.follow[allowed[0]] == led and self.follow[card] != led:
            what = "trumps" if led == TRUMP else self.deck.suit_names[led]
            return f"must follow suit ({what}): you hold {shown}"
        return f"must play a trump: you hold {shown}"
