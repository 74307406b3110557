"""A rule-based bot: bids from the strength of its hand and plays sensibly.

It sees what a player at the table sees and nothing more: `game.view(seat, recall=True)` (its own
hand and the public facts, with every card it saw played remembered; for a card to play, the
entries of it that the choice reads, `game.trick_view(seat)`), `game.legal_actions(seat)` and
the ruleset. Everything it knows about a variant comes from the ruleset's data (the trumps, the card points, the bid ladder, what each
contract exchanges, how the cards are counted and what wins), never from the variant's name.

Bidding. For every contract it may bid, the bot estimates the card points it would take as the
lone player: it plays out, in its head, the drawing of trumps against the unseen trumps, counts
its sure stops (a card above every unseen card of its suit) once the trumps are drawn, and adds
what the counting rules give the lone player (the untaken talon or the discards). Where the
contract takes up the talon, it averages over a few talons drawn from the unseen cards (with a
fixed seed: the bot is deterministic) after discarding as it would. The ruleset's own winning
condition tells how many points are needed; the bot bids, holds or raises when its estimated
chance of winning is worth the contract's factors (a Solo lost twice as dear needs more), always
the cheapest bid that does, and bids the cheapest one when the rules forbid it to pass.

Play. Following: when a partner's card already wins and nobody after can beat it, it smears the
most points it may; when it can win, it wins with the cheapest winner; otherwise it follows with
its lowest card (fewest points, then weakest). Leading: the lone player draws trumps with a
sure winner, then cashes its stops; otherwise the lowest card. Where taking tricks is bad (the
lone player of a contract won by taking nothing, or everybody when each plays for themselves) it
ducks with its highest card that stays under, and leads its weakest; the opponents of such a lone
player leave the trick to it.

Exchange: it puts aside what it least needs (not trumps, not sure stops; short suits first, to
trump them later; points where the discards count for the lone player) and keeps the strongest.
Of a talon laid out in parts it takes the part with most trumps and points.

Partners by a called card (a Rufer): it values such a contract as its own estimate plus a fair
share of the rest (the partner's), and says a reservation that lets it name the game (Mein
Spiel) when one of the games it could then name is worth it. It calls a card it does not hold:
the unnamed call where one is offered (the fourth King), else the King of the suit it holds most
cards of (then most points), so that the partner's King can take a trick it leads there; its
own card only when it must. It plays by sides only as far as its view knows them: the declarer
and the holder of the called card know each other once the view says so; a seat whose view does
not name the partner treats every other seat as a possible opponent (the declarer its partner
only when it is the partner).

Announcements: it passes unless the bonus is certain from its own cards alone (its condition
holds on its hand before any trick: the Trull or the four Kings in hand); where it must announce
(the Besserrufer's bird) it names a bonus whose card it holds, else the first offered, but it
never bids such a contract of its own accord. It never doubles (kontra): its estimates
are too rough to double on. Other choices: it passes when it may.

Speed (it plays most deals of a simulation, and a search bot's play-outs): it holds sets of
cards (a hand, the cards it has not seen, a drawn talon) as bits of an int, each suit a run of
bits from its weakest card up, with tables worked out once per ruleset (`RulesetFacts`), and
keeps the estimates of the hands it met and the cards played to the tricks before the last.
None of it changes a choice: tests/test_rulebot.py holds the tables to the rules of thumb worked
out card by card, and `benchmarks/bench_rulebot.py` times it.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from interpreter.engine.actions import ActionJson
from interpreter.engine.game import Game
from interpreter.engine.tricks import TrickRules
from interpreter.language.model import (
    PART_NAMES,
    TRUMP,
    CallPartner,
    Contract,
    Counting,
    Discard,
    Route,
    Ruleset,
    TakeTalon,
)

View = dict[str, Any]  # what a seat sees: `Game.view(seat)`

SAMPLES = 6  # talons drawn when a contract takes up the talon
SCALE = 6.5  # card points over which the chance of winning goes from 27% to 73%
CAUTION = 0.04  # asked over the break-even chance, for the risk of misjudging
TALON_DOUBT = 1.8  # how much wider the estimate's error is where the talon is taken up blind
RIVAL = 0.08  # less chance of winning for each rival bidder, who defends with a strong hand
FOLLOWERS = 0.7  # opponents follow to the lone player's winners with cheaper cards than the mean
PARTNER = 1.2  # of an even share of what the lone player leaves, a called partner takes this much


@dataclass(frozen=True)
class ContractFacts:
    name: str
    takes_talon: bool
    discard: Discard | None  # the (first) discard step after taking up the talon
    factor_won: int
    factor_lost: int
    needs_points: int | None  # the least card points that win; None: not a points contract
    misere: bool = False  # the lone player wins by taking nothing (a Bettel)
    partner: bool = False  # the declarer calls a card for a partner (a Rufer)
    parts: int = 1  # the talon is laid out in this many parts, of which the declarer takes one
    count: int | None = None  # the declarer takes this many talon cards (Dreierles); None: a part or all
    trumps_win: bool = True  # False: trumps win only tricks they were led to (Farben games)
    out_talon: tuple[Route, ...] | None = None  # where the untaken talon counts, by the contract's own routes
    out_discards: tuple[Route, ...] | None = None  # where the discards count, by the contract's own routes
    must_announce: bool = False  # the declarer must announce a bonus (the Besserrufer's bird)
    # Contracts of one ruleset whose hands the bot estimates alike share a number (-1: not yet
    # numbered, for facts made by hand): see `RulesetFacts.kind_of`.
    kind: int = -1


NO_CONTRACT = ContractFacts("", False, None, 1, 1, None)  # facts of no contract (yet)


@dataclass(frozen=True)
class Pack:
    """The cards in play at a table of some size, as a list and as a set of card bits."""

    cards: tuple[str, ...]
    bits: tuple[int, ...]  # each card's bit
    mask: int
    points: int  # their points as printed, each card at its value (not counted in packets)
    # Each card's bit with its points above every card's bit (at `RulesetFacts.points_at`): a
    # sum of different cards' numbers holds their set below and their points above.
    weighted: tuple[int, ...]


class Seating:
    """What the bot reads off a view's table once: the seats that play, the cards in play, the
    contract's facts, and for each seat that leads a trick the order the seats play it in."""

    __slots__ = ("contract", "orders", "pack", "seats")

    def __init__(self, seats: tuple[int, ...], pack: Pack, contract: ContractFacts):
        self.seats, self.pack, self.contract = seats, pack, contract
        self.orders = {seat: seats[i:] + seats[:i] for i, seat in enumerate(seats)}


class RulesetFacts:
    """What the bot derives once from a ruleset: trick power, points, the contracts' needs."""

    # (Slots: past 30 attributes a Python 3.11 instance keeps them in a dictionary.)
    __slots__ = (
        "_aside_mine",
        "_contracts",
        "_forbidden",
        "_kinds",
        "_packs",
        "_routed",
        "_seatings",
        "_seats",
        "_strengths",
        "_totals",
        "aside_to",
        "at_least",
        "bit",
        "call_contract",
        "call_rank",
        "card_at",
        "duck_rank",
        "follow",
        "leads_to",
        "low_rank",
        "order",
        "plain_key",
        "plain_masks",
        "plain_suits",
        "point_digits",
        "points",
        "points_at",
        "power",
        "ruleset",
        "stop_key",
        "suit_mask",
        "tricks",
        "trump_key",
        "trump_mask",
        "trumps_first",
    )

    def __init__(self, ruleset: Ruleset):
        deck = ruleset.deck
        self.ruleset = ruleset
        self.tricks = TrickRules.of(ruleset)
        self.power = self.tricks.power
        self.follow = self.tricks.follow
        self.points = deck.points
        self.order = {c: i for i, c in enumerate(deck.cards)}
        self.call_contract: dict[str, str] = {}
        self.call_rank: dict[str, int] = {}
        self.leads_to: dict[str, list[str]] = {}  # a call that opens a later round -> its contracts
        phases = {phase.name: phase for phase in ruleset.phases}
        for phase in ruleset.phases:
            for index, level in enumerate(phase.ladder):
                if level.contract is not None:
                    self.call_contract.setdefault(level.call, level.contract)
                self.call_rank.setdefault(level.call, index)
            for call, target in (getattr(phase, "after", None) or {}).items():
                if target in phases:
                    self.leads_to.setdefault(call, [lv.contract for lv in phases[target].ladder if lv.contract])
            for call, levels in phase.choose.items():
                at = phase.level_of(call)
                if at is None or phase.ladder[at].contract is not None:
                    continue
                # A reservation (Mein Spiel): its bidder, uncontested, names one of these games.
                self.leads_to.setdefault(call, [lv.contract for lv in levels if lv.contract])
                for index, lv in enumerate(levels):
                    if lv.contract is not None:
                        self.call_contract.setdefault(lv.call, lv.contract)
                    self.call_rank.setdefault(lv.call, index)
        self.aside_to = ruleset.counting.aside_counts_for
        self._cards()
        self._packs: dict[int, Pack] = {}
        self._totals: dict[int, int] = {}
        self._forbidden: dict[int, frozenset[str]] = {}
        self._contracts: dict[tuple[str, int], ContractFacts] = {}
        self._kinds: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self._seats: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
        self._seatings: dict[tuple[str | None, int, tuple[int, ...]], Seating] = {}  # see `seating`
        self._aside_mine: dict[tuple[int, int], bool] = {}
        self._strengths: dict[tuple[str, bool], dict[str, int]] = {}
        self._routed: dict[tuple[int, int, int], tuple[tuple[Route, ...], bool]] = {}

    def _cards(self) -> None:
        """Card tables for sets of cards held as bits of an int (a hand, the unseen cards).

        Each suit (as followed; trumps one of them) takes a run of bits, its weakest card lowest,
        so the strongest card of a suit in a set is the suit's highest bit there. A card's
        strength is distinct within its suit and positive (the deck ranks a suit's cards 1, 2, …
        by their place in the pack): a card beats every unseen card of its suit exactly when no
        unseen card is in its `at_least` mask."""
        deck, power, follow = self.ruleset.deck, self.power, self.follow
        suits = list(dict.fromkeys(follow[c] for c in deck.cards))
        layout = sorted(deck.cards, key=lambda c: (suits.index(follow[c]), power[c]))
        for suit in suits:
            strengths = [power[c] for c in layout if follow[c] == suit]
            if len(set(strengths)) < len(strengths) or min(strengths) < 0:
                raise ValueError(f"the rule bot needs distinct positive strengths within a suit ({suit})")
        self.card_at: list[str] = layout  # bit number -> card
        self.points_at = len(layout)  # where a weighted bit holds the card's points (`Pack.weighted`)
        self.bit = {c: 1 << i for i, c in enumerate(layout)}
        self.suit_mask = {suit: sum(self.bit[c] for c in deck.cards if follow[c] == suit) for suit in suits}
        self.trump_mask = self.suit_mask.get(TRUMP, 0)
        self.plain_suits = [(suit, mask) for suit, mask in self.suit_mask.items() if suit != TRUMP]
        self.plain_masks = [mask for _, mask in self.plain_suits]
        # For each binary digit of the cards' points (1, 2, 4, …), the cards whose points have it.
        digits = max(self.points.values(), default=0).bit_length()
        self.point_digits = [
            (digit, sum(self.bit[c] for c in deck.cards if self.points[c] >> digit & 1)) for digit in range(digits)
        ]
        # card -> the card and the cards of its suit that beat it
        self.at_least = {c: self.suit_mask[follow[c]] & -self.bit[c] for c in deck.cards}
        # The exchange's rule of thumb (see `keep_keys`) as one number per card, its value times
        # the number of cards plus its place in the pack: sorting the numbers sorts by value,
        # then by place. Points go aside when the aside counts for the lone player.
        n, order, points = len(deck.cards), self.order, self.points
        bank = 1 if self.aside_to == "declarer" else -1
        self.trump_key = {c: (1000 + power[c]) * n + order[c] for c in deck.cards}
        self.stop_key = {c: (500 + power[c]) * n + order[c] for c in deck.cards}
        self.plain_key = {c: (power[c] - 10 * bank * points[c]) * n + order[c] for c in deck.cards}
        # Whether every trump is worth more than any other card, however long its suit.
        longest = max((mask.bit_count() for _, mask in self.plain_suits), default=0)
        highest = max(
            (max(self.stop_key[c], self.plain_key[c]) + longest * n for c in deck.cards if follow[c] != TRUMP),
            default=-1,
        )
        self.trumps_first = all(self.trump_key[c] > highest for c in deck.cards if follow[c] == TRUMP)
        # The lowest card: fewest points, then weakest, then first in the pack; leading where
        # taking tricks is bad: weakest, then fewest points.
        self.low_rank = {c: i for i, c in enumerate(sorted(deck.cards, key=lambda c: (points[c], power[c], order[c])))}
        self.duck_rank = {c: i for i, c in enumerate(sorted(deck.cards, key=lambda c: (power[c], points[c], order[c])))}

    def table(self, active: int) -> Pack:
        """The cards in play with `active` players."""
        pack = self._packs.get(active)
        if pack is None:
            cards = self.ruleset.pack(active)
            bits = tuple(self.bit[c] for c in cards)
            points = [self.points[c] for c in cards]
            weighted = tuple(b | p << self.points_at for b, p in zip(bits, points, strict=True))
            pack = self._packs[active] = Pack(cards, bits, sum(bits), sum(points), weighted)
        return pack

    def pack(self, active: int) -> tuple[str, ...]:
        return self.table(active).cards

    def total(self, active: int) -> int:
        """The card points of the whole pack, as counted."""
        total = self._totals.get(active)
        if total is None:
            total = self._totals[active] = self.ruleset.counting.points(list(self.pack(active)), self.points)
        return total

    def seating(self, view: View) -> Seating:
        """The seats, cards and contract of the table `view` shows (`NO_CONTRACT` before there
        is a contract)."""
        key = (view.get("contract"), view["players"], tuple(view["seats_out"]))
        found = self._seatings.get(key)
        if found is None:
            seats = self.seats(view)
            name = key[0]
            contract = self.contract(name, len(seats)) if name and name in self.ruleset.contracts else NO_CONTRACT
            found = self._seatings[key] = Seating(seats, self.table(len(seats)), contract)
        return found

    def seats(self, view: View) -> tuple[int, ...]:
        """The seats that play (those sitting out left out)."""
        key = (view["players"], tuple(view["seats_out"]))
        seats = self._seats.get(key)
        if seats is None:
            seats = self._seats[key] = tuple(s for s in range(key[0]) if s not in key[1])
        return seats

    def mask(self, cards: Iterable[str]) -> int:
        """The bits of `cards` (different cards)."""
        return sum(map(self.bit.__getitem__, cards))

    def keep_keys(self, cards: Iterable[str], hand: int, unseen: int) -> list[int]:
        """For each of `cards` (of the hand whose bits are `hand`), how much it is worth keeping
        as a number to sort by (`value * number of cards + place in the pack`): trumps most, then
        stops (nothing unseen of the suit above them), then the rest; points are better put aside
        when the aside counts for the lone player (and kept otherwise); within each kind, cards of
        long suits are kept, so short suits go first (voids let trumps in)."""
        n = len(self.card_at)
        counts = {suit: (hand & mask).bit_count() * n for suit, mask in self.plain_suits}
        follow, at_least = self.follow, self.at_least
        trump_key, stop_key, plain_key = self.trump_key, self.stop_key, self.plain_key
        keys = []
        for card in cards:
            suit = follow[card]
            if suit == TRUMP:
                keys.append(trump_key[card])
            elif unseen & at_least[card]:
                keys.append(plain_key[card] + counts[suit])
            else:
                keys.append(stop_key[card] + counts[suit])
        return keys

    def most_worth_keeping(self, allowed: int, k: int, hand: int, unseen: int) -> int:
        """The bits of the `k` cards of `allowed` (bits) most worth keeping in `hand` (bits) while
        `unseen` are not seen (`keep_keys`)."""
        if k <= 0:
            return 0
        trumps = allowed & self.trump_mask
        weaker = trumps.bit_count() - k
        if weaker >= 0 and self.trumps_first:
            while weaker:  # the k strongest trumps: the weaker ones dropped, lowest bit first
                trumps &= trumps - 1
                weaker -= 1
            return trumps
        keys = self.keep_keys(self.cards_of(allowed), hand, unseen)
        keys.sort()
        cards, n, bit = self.ruleset.deck.cards, len(self.card_at), self.bit
        return sum(bit[cards[key % n]] for key in keys[-k:])  # a key's remainder is the card's place

    def cards_of(self, mask: int) -> list[str]:
        """The cards of the bits `mask`, the highest bit first."""
        cards = []
        while mask:
            top = mask.bit_length() - 1
            mask ^= 1 << top
            cards.append(self.card_at[top])
        return cards

    def points_of(self, mask: int) -> int:
        """The points of the cards of the bits `mask`, each at its value (digit by binary digit)."""
        points = 0
        for digit, cards in self.point_digits:
            points += (mask & cards).bit_count() << digit
        return points

    def strengths(self, led: str, trumps_win: bool) -> dict[str, int]:
        """Each card's strength in a trick led in the suit `led`: its power if it follows that
        suit, or is a trump where trumps win; else -1 (it cannot win)."""
        key = (led, trumps_win)
        table = self._strengths.get(key)
        if table is None:
            power, follow = self.power, self.follow
            table = self._strengths[key] = {
                c: power[c] if (follow[c] == TRUMP and trumps_win) or follow[c] == led else -1 for c in power
            }
        return table

    def aside_mine(self, tricks: int, n_tricks: int) -> bool:
        """Whether the counting rules give the cards out of play to a lone player who takes
        `tricks` of `n_tricks` tricks."""
        key = (tricks, n_tricks)
        mine = self._aside_mine.get(key)
        if mine is None:
            mine = self._aside_mine[key] = _out_of_play_mine(self.ruleset.counting, tricks, n_tricks)
        return mine

    def routed_mine(self, routes: tuple[Route, ...], tricks: int, n_tricks: int) -> bool:
        """Whether a contract's `routes` send the cards out of play to the lone player who takes
        `tricks` of `n_tricks` tricks."""
        key = (id(routes), tricks, n_tricks)
        known = self._routed.get(key)
        if known is None or known[0] is not routes:
            known = self._routed[key] = (routes, _routed_to_declarer(routes, tricks, n_tricks))
        return known[1]

    def forbidden(self, step: Discard) -> frozenset[str] | None:
        """The cards a discard step forbids whatever the hand, when its rule reads only the card."""
        if step.forbid is None or not step.forbid.names <= {"card"}:
            return None
        found = self._forbidden.get(id(step))
        if found is None:
            found = frozenset(c for c in self.ruleset.deck.cards if step.forbid({"card": c}))
            self._forbidden[id(step)] = found
        return found

    def contract(self, name: str, active: int) -> ContractFacts:
        key = (name, active)
        facts = self._contracts.get(key)
        if facts is None:
            facts = self._contracts[key] = self._contract_facts(name, active)
        return facts

    def _contract_facts(self, name: str, active: int) -> ContractFacts:
        rs = self.ruleset
        contract = rs.contracts[name]
        takes = any(isinstance(step, TakeTalon) for step in contract.exchange)
        discard = next((step for step in contract.exchange if isinstance(step, Discard)), None)
        won = contract.factor_won if contract.factor_won is not None else 1
        lost = contract.factor_lost if contract.factor_lost is not None else won
        take = next((step for step in contract.exchange if isinstance(step, TakeTalon)), None)
        facts = ContractFacts(
            name,
            takes,
            discard,
            max(won, 0),
            max(lost, 0),
            self._needs(contract, active),
            self._misere(contract, active),
            partner=any(isinstance(step, CallPartner) for step in contract.exchange),
            parts=take.parts if take is not None else 1,
            count=take.count if take is not None else None,
            trumps_win=(contract.play or rs.play).trumps_win,
            out_talon=contract.out_of_play.talon if contract.out_of_play is not None else None,
            out_discards=contract.out_of_play.discards if contract.out_of_play is not None else None,
            must_announce=contract.must_announce is not None,
        )
        return replace(facts, kind=self.kind_of(facts))

    def kind_of(self, contract: ContractFacts) -> int:
        """A number shared by the contracts whose hands are estimated alike: the same taking of
        the talon and discard, and no rules of their own (a talon in parts, routes for the cards
        out of play, trumps that win only when led)."""
        own_rules = contract.parts > 1 or contract.out_talon is not None or not contract.trumps_win
        key = (contract.takes_talon, contract.discard, contract.name if own_rules else None)
        # The number of the first such key kept: one for all, whichever thread meets it first.
        return id(self._kinds.setdefault(key, key))

    def _misere(self, contract: Contract, active: int) -> bool:
        """Whether the lone player wins with no trick and no point, and loses with them all."""
        declarer_wins = contract.declarer_wins
        if declarer_wins is None:
            return False
        pack = self.ruleset.pack(active)
        total = self.ruleset.counting.points(list(pack), self.points)
        n_tricks = sum(p.count for p in self.ruleset.deal_plans.get(active, ()) if p.to == "each") or 1

        def wins(share: float) -> bool:
            tricks, points = round(n_tricks * share), round(total * share)
            env = {
                "declarer_points": points,
                "defender_points": total - points,
                "declarer_tricks": tricks,
                "defender_tricks": n_tricks - tricks,
                "tricks": n_tricks,
                "players": active,
                "declarer_cards": tricks * active,
                "defender_cards": (n_tricks - tricks) * active,
            }
            return bool(declarer_wins(env))

        try:
            return wins(0) and not wins(1)
        except Exception:
            return False

    def _needs(self, contract: Contract, active: int) -> int | None:
        """The fewest card points that win, by the contract's own rule; None if winning does not
        grow with points (a contract to lose every trick, say)."""
        declarer_wins = contract.declarer_wins
        if declarer_wins is None:
            return None
        pack = self.ruleset.pack(active)
        counting = self.ruleset.counting
        total = counting.points(list(pack), self.points)
        n_tricks = sum(p.count for p in self.ruleset.deal_plans.get(active, ()) if p.to == "each") or 1

        def wins(points: int) -> bool:
            share = max(1, min(n_tricks - 1, round(n_tricks * points / max(total, 1))))
            env = {
                "declarer_points": points,
                "defender_points": total - points,
                "declarer_tricks": share,
                "defender_tricks": n_tricks - share,
                "tricks": n_tricks,
                "players": active,
                "declarer_cards": share * active,
                "defender_cards": (n_tricks - share) * active,
            }
            return bool(declarer_wins(env))

        try:
            if not wins(total) or wins(0):
                return None
            low, high = 0, total  # wins(high) and not wins(low)
            while high - low > 1:
                middle = (low + high) // 2
                low, high = (low, middle) if wins(middle) else (middle, high)
            return high
        except Exception:
            return None


def facts_of(ruleset: Ruleset) -> RulesetFacts:
    """The bot's facts about a ruleset, derived once and kept with the ruleset."""
    facts = ruleset.derived.get("rulebot_facts")
    if facts is None:
        facts = ruleset.derived["rulebot_facts"] = RulesetFacts(ruleset)
    return facts


class Estimate:
    """The card points a hand would take as the lone player of a kind of contract (one value per
    talon drawn), and the chances of winning worked out from them so far, by what a contract
    needs: (points needed, scale, table size where a partner takes a share)."""

    __slots__ = ("chances", "values")

    def __init__(self, values: tuple[float, ...]):
        self.values = values
        self.chances: dict[tuple[int, float, int], float] = {}


class RuleBot:
    """Chooses an action for `seat` from the seat's view, the legal actions and the ruleset."""

    def __init__(self, caution: float = CAUTION):
        self.caution = caution
        self._tricks: tuple[tuple[list[str], int], ...] = ()  # see `_played`
        # The estimates of the hands met, for each kind of contract (`_estimate`).
        self._estimates: dict[tuple[RulesetFacts, int, int, int], Estimate] = {}

    def choose(self, game: Game, seat: int) -> ActionJson:
        legal = game.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has nothing to do now")
        if len(legal) == 1 and not _is_template(legal[0]):
            return legal[0]
        facts = facts_of(game.ruleset)
        cards = _cards_to_play(legal)
        if cards is not None:  # trick play, the commonest choice: the entries of the view it reads
            return {"play": self._play(game.trick_view(seat), cards, facts)}
        view = game.view(seat, recall=True)  # it remembers every card it saw played
        phase = view["phase"]
        calls = [a for a in legal if isinstance(a, str)]
        if len(calls) == len(legal):
            if phase == "auction":
                return self._bid(view, calls, facts)
            return "pass" if "pass" in calls else calls[0]
        mappings = [a for a in legal if isinstance(a, dict)]
        if any("announce" in a or "kontra" in a for a in mappings):
            return self._announce(view, legal, facts)
        if len(mappings) < len(legal):
            return "pass" if "pass" in legal else _concrete(legal[0])  # a choice or pass
        if any("call_card" in a for a in mappings) and self._contract_facts(view, facts).partner:
            return self._call_partner(view, mappings, facts)
        if view.get("talon_shown") and all(a.get("choose") in PART_NAMES for a in mappings):
            return self._choose_part(view, mappings, facts)
        if all("play" in a for a in mappings):
            return {"play": self._play(view, [a["play"] for a in mappings], facts)}
        if all("discard" in a for a in mappings):
            return self._discard(view, mappings, facts)
        if all("keep" in a for a in mappings):
            return self._keep(view, mappings, facts)
        if all("give" in a for a in mappings):
            # Hand over the least useful card: fewest points, then weakest.
            return min(
                mappings, key=lambda a: (facts.points[a["give"]], facts.power[a["give"]], facts.order[a["give"]])
            )
        suits = {name: suit for suit, name in facts.ruleset.deck.suit_names.items()}
        if all(a.get("choose") in suits for a in mappings):
            # Name as trumps the suit this hand is longest and strongest in.
            hand = view["hand"]
            return max(
                mappings,
                key=lambda a: (
                    sum(1 for c in hand if facts.ruleset.deck.suit[c] == suits[a["choose"]]),
                    sum(facts.ruleset.deck.rank[c] for c in hand if facts.ruleset.deck.suit[c] == suits[a["choose"]]),
                ),
            )
        # Anything else (an announcement, an accusation, a called card): the cautious default.
        return "pass" if "pass" in legal else _concrete(legal[0])

    # -- announcing, calling a partner, a talon in parts -------------------------------------
    def _announce(self, view: View, legal: list[ActionJson], facts: RulesetFacts) -> ActionJson:
        """Pass unless a bonus is certain from its own cards; never double. Where it may not pass
        (a compulsory announcement), a bonus whose card it holds, else the first offered."""
        offered = [a for a in legal if isinstance(a, dict) and "announce" in a]
        if "pass" not in legal:
            hand = set(view["hand"])
            bonuses = facts.ruleset.bonuses
            held = [a for a in offered if (b := bonuses.get(str(a["announce"]))) is not None and b.card in hand]
            choice: ActionJson = _concrete((held or offered or legal)[0])
            return choice
        for action in offered:
            if self._certain(view, facts, str(action["announce"])):
                return action
        return "pass"

    def _certain(self, view: View, facts: RulesetFacts, name: str) -> bool:
        """Whether the bonus `name` holds on this seat's hand alone, before any trick is won."""
        bonus = facts.ruleset.bonuses.get(name)
        if bonus is None:
            return False
        hand = frozenset(view["hand"])
        tricks = len(view["hand"]) + sum(1 for t in view["tricks"] if view["seat"] in t["seats"])
        scope = {
            "side_cards": hand,
            "side_won": frozenset(),
            "side_played": frozenset(),
            "opponents_played": frozenset(),
            "side_tricks": 0,
            "opponent_tricks": tricks,
            "tricks": tricks,
            "called": frozenset({view["called"]} if view.get("called") else ()),
            "is_declarer_side": view["seat"] == view["declarer"],
            "played_tricks": (),
            "players": len(facts.seats(view)),
        }
        try:
            return bool(bonus.achieved(scope))
        except Exception:
            return False  # the condition reads the tricks: nothing is certain before they are played

    def _call_partner(self, view: View, legal: list[dict[str, Any]], facts: RulesetFacts) -> ActionJson:
        hand = set(view["hand"])
        unnamed = [a for a in legal if "choose" in a]
        if unnamed:
            return unnamed[0]  # calls the one card it lacks, without naming it
        others = [a for a in legal if "call_card" in a and a["call_card"] not in hand]
        if not others:
            return legal[0]  # it holds every card it may call: it must call its own

        def suit_strength(action: dict[str, Any]) -> tuple[int, int, int]:
            suit = facts.follow[action["call_card"]]
            mine = [c for c in hand if facts.follow[c] == suit]
            return (len(mine), sum(facts.points[c] for c in mine), -facts.order[action["call_card"]])

        return max(others, key=suit_strength)

    @staticmethod
    def _choose_part(view: View, legal: list[dict[str, Any]], facts: RulesetFacts) -> ActionJson:
        """Of a talon laid out in parts, the part with most trumps and points."""
        talon = view["talon_shown"]
        size = len(talon) // len(legal)

        def worth(action: dict[str, Any]) -> tuple[int, int]:
            at = PART_NAMES.index(action["choose"])
            part = talon[at * size : (at + 1) * size]
            return (sum(facts.points[c] + (3 if facts.follow[c] == TRUMP else 0) for c in part), -at)

        return max(legal, key=worth)

    @staticmethod
    def _contract_facts(view: View, facts: RulesetFacts) -> ContractFacts:
        """The facts of the contract being played (`NO_CONTRACT` before there is one)."""
        return facts.seating(view).contract

    @staticmethod
    def _sides(view: View, own: ContractFacts, active: tuple[int, ...]) -> set[int]:
        """The seats this seat knows to be on its side (itself included), in the contract `own`."""
        seat, declarer = view["seat"], view["declarer"]
        if declarer is None:
            return {seat}
        if not own.partner:
            return {seat} if seat == declarer else set(active) - {declarer}
        if "partner" not in view:
            return {seat}  # the partner is not known to it: every other seat may be an opponent
        team = {declarer} | ({view["partner"]} if view["partner"] is not None else set())
        return team if seat in team else set(active) - team

    # -- what the seat knows ---------------------------------------------------------------
    def _seen(self, view: View, facts: RulesetFacts) -> int:
        """The bits of the cards this seat has seen: its hand, the tricks, and the talon or
        discards it was shown."""
        bit = facts.bit
        seen = self._played(view["tricks"], bit) if view["tricks"] else 0
        for card in view["hand"]:
            seen |= bit[card]
        for card in view.get("aside") or ():
            seen |= bit[card]
        for card in view.get("talon") or ():
            seen |= bit[card]
        return seen

    def _played(self, tricks: list[dict[str, Any]], bit: dict[str, int]) -> int:
        """The bits of the cards played to `tricks` (at least one). The bot keeps the tricks before the last
        as it last met them, each with the bits of the cards played up to it: the tricks of a
        deal grow from turn to turn, so a turn mostly finds them kept (compared card by card).
        What is kept is replaced, never changed, so that threads sharing a bot agree."""
        kept = self._tricks
        done = len(tricks) - 1  # the tricks before the last, which may still be under way
        same = 0
        while same < done and same < len(kept) and kept[same][0] == tricks[same]["cards"]:
            same += 1
        played = kept[same - 1][1] if same else 0
        if same == done:
            for card in tricks[done]["cards"]:
                played |= bit[card]
            return played
        grown = list(kept[:same])
        for trick in tricks[same:]:
            for card in trick["cards"]:
                played |= bit[card]
            if len(grown) < done:
                grown.append((list(trick["cards"]), played))
        self._tricks = tuple(grown)
        return played

    def _unseen(self, view: View, facts: RulesetFacts, seating: Seating) -> int:
        """The bits of the cards this seat has not seen: in other hands, in the talon or face down."""
        return seating.pack.mask & ~self._seen(view, facts)

    # -- bidding ---------------------------------------------------------------------------
    def _bid(self, view: View, legal: list[str], facts: RulesetFacts) -> str:
        bids = [c for c in legal if c != "pass"]
        if not bids:
            return "pass"
        active = len(facts.seats(view))
        held = self._held_contract(view, facts)
        # Every other seat that bid has a hand it thought worth playing, and will defend with it.
        seat = view["seat"]
        rivals = len({s for s, call in view["calls"] if s != seat and call != "pass"})
        worth = []
        for call in bids:
            contract = facts.call_contract.get(call, held)
            if contract in facts.ruleset.contracts and call not in facts.leads_to:
                candidates = [contract]
            else:
                # A call that only opens a later round (an intent to play): worth it if a
                # contract of that round is.
                candidates = [c for c in facts.leads_to.get(call, ()) if c in facts.ruleset.contracts]
            for name in candidates:
                if self._worth_it(view, facts, facts.contract(name, active), rivals):
                    worth.append(call)
                    break
        if worth:
            return min(worth, key=lambda c: (facts.call_rank.get(c, 0), bids.index(c)))
        if "pass" in legal:
            return "pass"
        # The rules oblige this seat to bid: the cheapest bid.
        return min(bids, key=lambda c: (facts.call_rank.get(c, 0), bids.index(c)))

    @staticmethod
    def _held_contract(view: View, facts: RulesetFacts) -> str | None:
        """The contract of the last bid made: what a hold call (such as "selber") takes over."""
        for _, call in reversed(view["calls"]):
            if call in facts.call_contract:
                return facts.call_contract[call]
        return None

    def _worth_it(self, view: View, facts: RulesetFacts, contract: ContractFacts, rivals: int) -> bool:
        """Whether the chance of winning `contract`, less a little for each of the `rivals` that
        bid, is worth its factors (a game lost dear needs more)."""
        if contract.needs_points is None or contract.factor_won + contract.factor_lost == 0:
            return False
        if contract.must_announce:
            return False  # it would have to announce a bonus its view cannot make certain
        break_even = contract.factor_lost / (contract.factor_won + contract.factor_lost)
        caution = self.caution * max(contract.factor_won, contract.factor_lost, 1)
        return self.chance(view, facts, contract) - RIVAL * rivals > break_even + caution

    def chance(self, view: View, facts: RulesetFacts, contract: ContractFacts) -> float:
        """The estimated chance that this seat wins `contract` as the lone player."""
        needs = contract.needs_points
        if needs is None:
            return 0.0
        # An estimate after an unseen talon is less sure than one of the hand as dealt.
        scale = SCALE * (TALON_DOUBT if contract.takes_talon and view["talon_size"] else 1)
        estimate = self._estimate(view, facts, contract)
        active = len(facts.seats(view)) if contract.partner else 0
        key = (needs, scale, active)
        chance = estimate.chances.get(key)
        if chance is None:
            estimates = estimate.values
            if contract.partner:
                # A called partner takes its share of what the lone player would leave to the others.
                total = facts.total(active)
                estimates = tuple(p + PARTNER * (total - p) / max(active - 1, 1) for p in estimates)
            chance = estimate.chances[key] = _mean_logistic(estimates, needs, scale)
        return chance

    def estimate(self, view: View, facts: RulesetFacts, contract: ContractFacts) -> float:
        """The card points this seat would expect to take as the lone player of `contract`."""
        return sum(self.estimates(view, facts, contract)) / SAMPLES

    def estimates(self, view: View, facts: RulesetFacts, contract: ContractFacts) -> tuple[float, ...]:
        """`SAMPLES` estimates of the card points this seat would take as the lone player of
        `contract`: one per talon drawn from the unseen cards where the contract takes it up."""
        return self._estimate(view, facts, contract).values

    def _estimate(self, view: View, facts: RulesetFacts, contract: ContractFacts) -> Estimate:
        """The estimates of this hand for contracts estimated alike, made once while kept."""
        bit = facts.bit
        held = 0
        for card in view["hand"]:
            held |= bit[card]
        active = len(facts.seats(view))
        kind = contract.kind if contract.kind >= 0 else facts.kind_of(contract)
        key = (facts, held, kind, active)
        known = self._estimates.get(key)
        if known is not None:
            return known
        seen = self._seen(view, facts)
        pack = facts.table(active)
        unseen = pack.mask & ~seen
        n_unseen = unseen.bit_count()
        unseen_points = pack.points - facts.points_of(seen & pack.mask)
        talon = view["talon_size"]
        if not contract.takes_talon or talon == 0:
            # The talon stays out of play; its cards are unknown, so count them at the mean.
            mean = unseen_points / max(n_unseen, 1)
            points = _lone_points(
                facts,
                held,
                len(view["hand"]),
                unseen,
                n_unseen,
                unseen_points,
                active - 1,
                n_unseen - talon,
                talon,
                talon * mean,
                contract.out_talon,
                contract.trumps_win,
            )
            values = (points,) * SAMPLES
        else:
            hand = sorted(view["hand"], key=facts.order.__getitem__)
            unseen_weighted = [w for w in pack.weighted if not w & seen]  # in the pack's order
            values = self._talon_estimates(
                facts, hand, held, unseen_weighted, unseen, unseen_points, active, talon, contract
            )
        if len(self._estimates) > 4096:
            self._estimates.clear()
        known = self._estimates[key] = Estimate(values)
        return known

    def _talon_estimates(
        self,
        facts: RulesetFacts,
        hand: list[str],
        held: int,
        unseen_weighted: list[int],
        unseen: int,
        unseen_points: int,
        active: int,
        talon: int,
        contract: ContractFacts,
    ) -> tuple[float, ...]:
        """The estimates of a contract that takes up the talon: for each of `SAMPLES` talons
        drawn from the unseen cards (with a seed of the hand's own: the bot is deterministic),
        the hand with that talon, less the cards it would discard, played as the lone player.
        `hand` is in the pack's order, `held` its bits, `unseen_weighted` the weighted bits of the
        unseen cards in the pack's order (`Pack.weighted`), `unseen` the sum of their bits."""
        rng = random.Random(zlib.crc32(" ".join(hand).encode()))
        # A talon in parts: the declarer takes one; a count: that many cards.
        taken = min(contract.count, talon) if contract.count is not None else talon // max(contract.parts, 1)
        n_drawn = min(taken, len(unseen_weighted))
        n_rest, n_full = len(unseen_weighted) - n_drawn, len(hand) + n_drawn
        in_play = n_rest - (talon - taken)
        hand_points = facts.points_of(held)
        step = contract.discard
        count = step.how_many(taken) if step is not None else 0
        forbidden: int | None = 0  # None: the rule reads the hand too, and is asked card by card
        if step is not None and step.forbid is not None:
            never = facts.forbidden(step)
            forbidden = facts.mask(never) if never is not None else None
        # (The points of a set of cards are counted inline, digit by digit as `points_of` does,
        # and the common case of `most_worth_keeping` taken here: a call less for each, which
        # counts where the engine's work between two turns leaves the caches cold.)
        digits, trump_mask, trumps_first = facts.point_digits, facts.trump_mask, facts.trumps_first
        at, below = facts.points_at, (1 << facts.points_at) - 1
        found = []
        for weighted in _draws(rng, unseen_weighted, n_drawn, SAMPLES):
            drawn, drawn_points = weighted & below, weighted >> at  # the talon drawn, and its points
            rest = unseen ^ drawn
            full = held | drawn
            kept = full
            n_aside = aside_points = 0
            if step is not None:
                if forbidden is None:
                    allowed = facts.mask(self._allowed(hand + facts.cards_of(drawn), step, facts, active))
                else:
                    allowed = full & ~forbidden
                n_allowed = allowed.bit_count()
                n_aside = count if count < n_allowed else n_allowed
                keep = n_allowed - n_aside  # of the cards it may discard
                trumps = allowed & trump_mask
                weaker = trumps.bit_count() - keep
                if keep > 0 and weaker >= 0 and trumps_first:
                    while weaker:  # the strongest trumps: the weaker ones dropped, lowest bit first
                        trumps &= trumps - 1
                        weaker -= 1
                    kept = full & ~allowed | trumps
                else:
                    kept = full & ~allowed | facts.most_worth_keeping(allowed, keep, full, rest)
                aside_points = hand_points + drawn_points
                for digit, cards in digits:
                    aside_points -= (kept & cards).bit_count() << digit
            found.append(
                _lone_points(
                    facts,
                    kept,
                    n_full - n_aside,
                    rest,
                    n_rest,
                    unseen_points - drawn_points,
                    active - 1,
                    in_play,
                    n_aside,
                    aside_points,
                    contract.out_discards,
                    contract.trumps_win,
                )
            )
        return tuple(found)

    @staticmethod
    def _allowed(hand: list[str], step: Discard, facts: RulesetFacts, active: int) -> list[str]:
        if step.forbid is None:
            return list(hand)
        forbidden = facts.forbidden(step)
        if forbidden is not None:
            return [c for c in hand if c not in forbidden]
        frozen = frozenset(hand)
        return [c for c in hand if not step.forbid({"card": c, "hand": frozen, "players": active})]

    # -- the exchange ----------------------------------------------------------------------
    def _discard(self, view: View, legal: list[Any], facts: RulesetFacts) -> dict[str, Any]:
        hand = list(view["hand"])
        unseen = self._unseen(view, facts, facts.seating(view))
        if isinstance(legal[0]["discard"], dict):
            # One template, or one for each way classes that go all or none can go: the best
            # discard of each, then the one that keeps the most.
            choices = []
            for action in legal:
                template = action["discard"]
                including = list(template.get("including", ()))  # every discard holds these
                rest = [c for c in template["from"] if c not in including]
                choices.append(
                    including + self._choose_discard(hand, rest, template["count"] - len(including), unseen, facts)
                )
            if len(choices) == 1:
                return {"discard": choices[0]}
            keep_value = self._keep_values(hand, unseen, facts)
            return {"discard": min(choices, key=lambda o: sum(keep_value[c] for c in o))}
        options = [a["discard"] for a in legal]
        count = len(options[0])
        allowed = sorted({c for option in options for c in option}, key=facts.order.__getitem__)
        wanted = set(self._choose_discard(hand, allowed, count, unseen, facts))
        for option in options:
            if set(option) == wanted:
                return {"discard": list(option)}
        keep_value = self._keep_values(hand, unseen, facts)
        return {"discard": list(min(options, key=lambda o: sum(keep_value[c] for c in o)))}

    def _keep(self, view: View, legal: list[Any], facts: RulesetFacts) -> dict[str, Any]:
        """Keep the cards most worth keeping (the strongest)."""
        hand = list(view["hand"])
        value = self._keep_values(hand, self._unseen(view, facts, facts.seating(view)), facts)

        def worth(c: str) -> tuple[float, int]:
            return (value.get(c, 0), -facts.order[c])

        if len(legal) == 1 and isinstance(legal[0]["keep"], dict):
            template = legal[0]["keep"]
            return {"keep": sorted(template["from"], key=worth, reverse=True)[: template["count"]]}
        return {"keep": list(max((a["keep"] for a in legal), key=lambda combo: sum(value.get(c, 0) for c in combo)))}

    @staticmethod
    def _choose_discard(hand: list[str], allowed: list[str], count: int, unseen: int, facts: RulesetFacts) -> list[str]:
        """The `count` cards of `allowed` least worth keeping in `hand`, the least first."""
        keys = facts.keep_keys(allowed, facts.mask(hand), unseen)
        keys.sort()
        cards = facts.ruleset.deck.cards
        n = len(cards)
        return [cards[key % n] for key in keys[:count]]  # a key's remainder is the card's place

    @staticmethod
    def _keep_values(hand: list[str], unseen: int, facts: RulesetFacts) -> dict[str, int]:
        """How much each card of `hand` is worth keeping (`RulesetFacts.keep_keys`)."""
        n = len(facts.card_at)
        return {c: key // n for c, key in zip(hand, facts.keep_keys(hand, facts.mask(hand), unseen), strict=True)}

    # -- trick play ------------------------------------------------------------------------
    def _play(self, view: View, cards: list[str], facts: RulesetFacts) -> str:
        if len(cards) == 1:
            return cards[0]
        power, points = facts.power, facts.points
        seat, declarer = view["seat"], view["declarer"]
        tricks = view["tricks"]
        trick = tricks[-1] if tricks else {"cards": [], "seats": [], "leader": seat}
        played = trick["cards"]
        seating = facts.seating(view)
        own = seating.contract
        # Taking tricks is bad for the lone player of a misère, and for everyone when nobody
        # plays alone against the others (each for themselves, fewest points best).
        avoid = (declarer is None and bool(view.get("contract"))) or (own.misere and seat == declarer)
        if not played:
            if avoid:
                return min(cards, key=facts.duck_rank.__getitem__)
            lead = self._lead(cards, self._unseen(view, facts, seating), facts, seat == declarer)
            return lead or min(cards, key=facts.low_rank.__getitem__)
        led = facts.follow[played[0]]
        trumps_win = own.trumps_win or led == TRUMP
        strength = facts.strengths(led, trumps_win)  # card -> its strength in this trick (-1: none)
        best, best_index = strength[played[0]], 0
        for index in range(1, len(played)):
            if strength[played[index]] > best:
                best, best_index = strength[played[index]], index
        winner = trick["seats"][best_index]
        if avoid:
            # Duck with the highest card that stays under; if every card wins, the least points.
            under = [c for c in cards if strength[c] < best]
            if under:
                return max(under, key=lambda c: (points[c], strength[c], power[c]))
            return min(cards, key=lambda c: (points[c], -power[c]))
        if own.misere and winner == declarer:
            return min(cards, key=facts.low_rank.__getitem__)  # let the lone player keep the trick
        partners = self._sides(view, own, seating.seats)
        after = seating.orders[trick["leader"]][len(played) + 1 :]
        opponents_after = [s for s in after if s not in partners]
        if winner in partners:
            top_unseen = self._top_unseen(view, facts, seating, led, trumps_win)
            if opponents_after and best <= top_unseen:
                return min(cards, key=facts.low_rank.__getitem__)  # fewest points, then weakest
            # The trick is ours: smear the most points, keeping sure winners for later.
            follow = facts.follow

            def smear(c: str) -> tuple[int, int]:
                return (points[c] - (10 if strength[c] > top_unseen and follow[c] == TRUMP else 0), -power[c])

            return max(cards, key=smear)
        winners = [c for c in cards if strength[c] > best]
        if not winners:
            return min(cards, key=facts.low_rank.__getitem__)
        if not opponents_after:
            return min(winners, key=lambda c: (power[c], points[c]))
        top_unseen = self._top_unseen(view, facts, seating, led, trumps_win)
        safe = [c for c in winners if strength[c] > top_unseen]
        if safe:
            return min(safe, key=lambda c: (power[c], points[c]))
        return min(winners, key=lambda c: (points[c], power[c]))

    def _top_unseen(self, view: View, facts: RulesetFacts, seating: Seating, led: str, trumps_win: bool) -> int:
        """The strength of the strongest card this seat has not seen in a trick led in `led`: of
        that suit, or a trump where trumps win; -1 if none."""
        unseen = self._unseen(view, facts, seating)
        top = -1
        for suit in (led, TRUMP) if trumps_win else (led,):
            if within := unseen & facts.suit_mask.get(suit, 0):
                top = max(top, facts.power[facts.card_at[within.bit_length() - 1]])
        return top

    @staticmethod
    def _lead(cards: list[str], unseen: int, facts: RulesetFacts, lone: bool) -> str | None:
        power, follow, points, at_least = facts.power, facts.follow, facts.points, facts.at_least
        their_trumps = unseen & facts.trump_mask
        top_trump = power[facts.card_at[their_trumps.bit_length() - 1]] if their_trumps else -1
        sure = [c for c in cards if follow[c] == TRUMP and power[c] > top_trump]
        if lone and their_trumps and sure:
            return max(sure, key=power.__getitem__)
        # A stop: above every unseen card of its suit.
        stops = [c for c in cards if follow[c] != TRUMP and not unseen & at_least[c]]
        if stops and (not their_trumps or not lone):
            return max(stops, key=lambda c: (points[c], power[c]))
        if sure and not lone:
            return max(sure, key=power.__getitem__)
        return None


def _lone_points(
    facts: RulesetFacts,
    hand: int,
    n_hand: int,
    unseen: int,
    n_unseen: int,
    unseen_points: int,
    opponents: int,
    in_play: int,
    out_count: int,
    out_points: float,
    routes: tuple[Route, ...] | None,
    trumps_win: bool,
) -> float:
    """Card points a lone player with the cards `hand` (bits, `n_hand` cards) would count, against
    `opponents` holding `in_play` of the `n_unseen` cards `unseen` (worth `unseen_points`), with
    `out_count` cards worth `out_points` out of play (the talon nobody took, the discards), counted
    where `routes` (the contract's own) or else the counting rules send them.

    Its winners: the trumps drawn from the top, then the stops (above every unseen card of their
    suit) once trumps are out. Where trumps do not win (Farben games), only the stops, which no
    trump can take. The opponents follow to them with cheaper cards than the mean."""
    won = 0  # the bits of the winners
    their_left = 0.0
    trump_mask = facts.trump_mask
    if trumps_win:
        share = in_play / max(n_unseen, 1)  # chance an unseen card is in play
        theirs = unseen & trump_mask
        their_left = theirs.bit_count() * share
        beaten_by = 0.0  # their higher trumps already spent
        mine = hand & trump_mask
        while mine and their_left >= 0.5:  # from the highest trump down
            top = mine.bit_length() - 1
            card = 1 << top
            mine ^= card
            # Their trumps above this one: the trumps' bits run from the weakest up.
            if (theirs >> (top + 1)).bit_count() * share - beaten_by < 0.5:
                won |= card
            else:
                beaten_by += 1
            their_left -= opponents  # (below zero once they are out: as good as none left)
        won |= mine  # their trumps are out: the rest win
    if their_left < 0.5 and (plain := hand & ~trump_mask):
        for suit in facts.plain_masks:
            if plain & suit:
                # The suit's cards above its highest unseen card (all of them when none is unseen).
                won |= plain & suit & -(1 << (unseen & suit).bit_length())
    tricks = won.bit_count()
    won_points = 0
    for digit, cards in facts.point_digits:  # (`points_of`, a call less)
        won_points += (won & cards).bit_count() << digit
    mean = unseen_points / max(n_unseen, 1)
    raw = won_points + tricks * opponents * mean * FOLLOWERS
    n_cards = tricks * (opponents + 1)
    counting = facts.ruleset.counting
    if facts.routed_mine(routes, tricks, n_hand) if routes is not None else facts.aside_mine(tricks, n_hand):
        raw += out_points
        n_cards += out_count
    full, rest = divmod(n_cards, counting.packet)
    return raw - full * counting.packet_deduct - (counting.remainder_deduct if rest else 0)


def _out_of_play_mine(counting: Counting, tricks: int, n_tricks: int) -> bool:
    mine = counting.aside_counts_for == "declarer"
    if counting.aside_unless is not None:
        try:
            env = {"declarer_tricks": tricks, "defender_tricks": n_tricks - tricks, "tricks": n_tricks}
            if counting.aside_unless(env):
                mine = not mine
        except Exception:
            pass
    return mine


def _routed_to_declarer(routes: tuple[Route, ...], tricks: int, n_tricks: int) -> bool:
    """Whether the contract's routes send cards out of play to the declarer after `tricks` of
    `n_tricks` tricks (nothing called lies among them: the usual case)."""
    env = {
        "declarer_tricks": tricks,
        "defender_tricks": n_tricks - tricks,
        "tricks": n_tricks,
        "called": frozenset(),
        "talon": frozenset(),
        "discards": frozenset(),
    }
    for route in routes:
        try:
            if route.when is None or route.when(env):
                return route.to == "declarer"
        except Exception:
            continue
    return False


def _draws(rng: random.Random, population: list[int], k: int, times: int) -> list[int]:
    """`times` successive `rng.sample(population, k)`, each as the sum of its members (each
    member a card's bit, or its weighted bit): the same cards, by the same steps as CPython's
    random.sample (3.11; a test holds the two together), without a Python call for every card
    drawn. Owning the steps also keeps the bot's talons the same if another Python version
    samples otherwise."""
    n = len(population)
    getrandbits = rng.getrandbits
    found = []
    setsize = 21  # as random.sample: an n-length list against a k-length set
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        # (The last place of the pool of `left` members, and the bits to draw a place below `left`.)
        steps = [(left - 1, left.bit_length()) for left in range(n, n - k, -1)]
        whole, undrawn = sum(population), n - k
        for _ in range(times):
            pool = population[:]
            for last, bits in steps:
                j = getrandbits(bits)
                while j > last:
                    j = getrandbits(bits)
                pool[j] = pool[last]  # the last member of the pool moves into the place of the one drawn
            found.append(whole - sum(pool[:undrawn]))  # the pool's first places hold those not drawn
    else:
        bits = n.bit_length()
        for _ in range(times):
            chosen: set[int] = set()
            drawn = 0
            for _ in range(k):
                j = getrandbits(bits)
                while j >= n or j in chosen:
                    j = getrandbits(bits)
                chosen.add(j)
                drawn += population[j]
            found.append(drawn)
    return found


def _mean_logistic(estimates: tuple[float, ...], needs: int, scale: float) -> float:
    """The mean chance of winning over `estimates`, each `_logistic((p - needs) / scale)`."""
    total: float = 0
    last, value = None, 0.0
    for p in estimates:
        if p != last:  # the hand as dealt gives SAMPLES equal estimates
            last, value = p, _logistic((p - needs) / scale)
        total += value
    return total / SAMPLES


def _logistic(x: float) -> float:
    if x > 50.0:
        x = 50.0
    elif x < -50.0:
        x = -50.0
    return 1 / (1 + math.exp(-x))


def _cards_to_play(legal: list[ActionJson]) -> list[str] | None:
    """The cards of `legal` when every action is a card to play ({play: CARD}), else None."""
    cards = []
    for action in legal:
        if not isinstance(action, dict) or len(action) != 1 or "play" not in action:
            return None
        cards.append(action["play"])
    return cards


def _is_template(action: Any) -> bool:
    if isinstance(action, dict):
        for value in action.values():  # (a loop: a generator costs more than the one card it sees)
            if isinstance(value, dict):
                return True
    return False


def _concrete(action: Any) -> Any:
    """A template (`{kind: {count, from}}`) made an action: its first `count` cards."""
    if isinstance(action, dict):
        for kind, value in action.items():
            if isinstance(value, dict) and "count" in value and "from" in value:
                return {kind: list(value["from"][: value["count"]])}
    return action
