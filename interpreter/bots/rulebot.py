"""A rule-based bot: bids from the strength of its hand and plays sensibly.

It sees what a player at the table sees and nothing more: `game.view(seat)` (its own hand and
the public facts), `game.legal_actions(seat)` and the ruleset. Everything it knows about a
variant comes from the ruleset's data (the trumps, the card points, the bid ladder, what each
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
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from interpreter.engine.actions import ActionJson
from interpreter.engine.game import Game
from interpreter.engine.tricks import TrickRules
from interpreter.language.model import PART_NAMES, TRUMP, CallPartner, Contract, Discard, Route, Ruleset, TakeTalon

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


class RulesetFacts:
    """What the bot derives once from a ruleset: trick power, points, the contracts' needs."""

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
        self._totals: dict[int, int] = {}
        self._packs: dict[int, tuple[str, ...]] = {}
        self._forbidden: dict[int, frozenset[str]] = {}
        self._contracts: dict[tuple[str, int], ContractFacts] = {}

    def pack(self, active: int) -> tuple[str, ...]:
        pack = self._packs.get(active)
        if pack is None:
            pack = self._packs[active] = self.ruleset.pack(active)
        return pack

    def total(self, active: int) -> int:
        """The card points of the whole pack, as counted."""
        total = self._totals.get(active)
        if total is None:
            total = self._totals[active] = self.ruleset.counting.points(list(self.pack(active)), self.points)
        return total

    def top_by_suit(self, cards: Iterable[str]) -> dict[str, int]:
        """The highest power among `cards` in each suit (trumps included)."""
        top: dict[str, int] = {}
        power, follow = self.power, self.follow
        for c in cards:
            suit = follow[c]
            if power[c] > top.get(suit, -1):
                top[suit] = power[c]
        return top

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
        return ContractFacts(
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


class RuleBot:
    """Chooses an action for `seat` from the seat's view, the legal actions and the ruleset."""

    def __init__(self, caution: float = CAUTION):
        self.caution = caution
        self._estimates: dict[tuple[Any, ...], tuple[float, ...]] = {}

    def choose(self, game: Game, seat: int) -> ActionJson:
        legal = game.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has nothing to do now")
        if len(legal) == 1 and not _is_template(legal[0]):
            return legal[0]
        view = game.view(seat)
        facts = facts_of(game.ruleset)
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
            "players": len(self._active(view)),
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

    def _contract_facts(self, view: View, facts: RulesetFacts) -> ContractFacts:
        contract = view.get("contract")
        if not contract or contract not in facts.ruleset.contracts:
            return ContractFacts("", False, None, 1, 1, None)
        return facts.contract(contract, len(self._active(view)))

    def _sides(self, view: View, facts: RulesetFacts) -> set[int]:
        """The seats this seat knows to be on its side (itself included)."""
        seat, declarer = view["seat"], view["declarer"]
        active = self._active(view)
        if declarer is None:
            return {seat}
        if not self._contract_facts(view, facts).partner:
            return {seat} if seat == declarer else set(active) - {declarer}
        if "partner" not in view:
            return {seat}  # the partner is not known to it: every other seat may be an opponent
        team = {declarer} | ({view["partner"]} if view["partner"] is not None else set())
        return team if seat in team else set(active) - team

    # -- what the seat knows ---------------------------------------------------------------
    @staticmethod
    def _active(view: View) -> list[int]:
        return [s for s in range(view["players"]) if s != view["sitting_out"]]

    def _unseen(self, view: View, facts: RulesetFacts) -> list[str]:
        """Cards this seat has not seen: in other hands, in the talon or face down."""
        seen = set(view["hand"])
        for trick in view["tricks"]:
            seen.update(trick["cards"])
        seen.update(view.get("aside") or ())
        seen.update(view.get("talon") or ())
        return [c for c in facts.pack(len(self._active(view))) if c not in seen]

    # -- bidding ---------------------------------------------------------------------------
    def _bid(self, view: View, legal: list[str], facts: RulesetFacts) -> str:
        bids = [c for c in legal if c != "pass"]
        if not bids:
            return "pass"
        active = len(self._active(view))
        held = self._held_contract(view, facts)
        worth = []
        for call in bids:
            contract = facts.call_contract.get(call, held)
            if contract in facts.ruleset.contracts and call not in facts.leads_to:
                candidates = [contract]
            else:
                # A call that only opens a later round (an intent to play): worth it if a
                # contract of that round is.
                candidates = [c for c in facts.leads_to.get(call, ()) if c in facts.ruleset.contracts]
            if any(self._worth_it(view, facts, facts.contract(c, active)) for c in candidates):
                worth.append(call)
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

    def _worth_it(self, view: View, facts: RulesetFacts, contract: ContractFacts) -> bool:
        if contract.needs_points is None or contract.factor_won + contract.factor_lost == 0:
            return False
        if contract.must_announce:
            return False  # it would have to announce a bonus its view cannot make certain
        break_even = contract.factor_lost / (contract.factor_won + contract.factor_lost)
        caution = self.caution * max(contract.factor_won, contract.factor_lost, 1)
        # Every other seat that bid has a hand it thought worth playing, and will defend with it.
        rivals = {s for s, call in view["calls"] if s != view["seat"] and call != "pass"}
        return self.chance(view, facts, contract) - RIVAL * len(rivals) > break_even + caution

    def chance(self, view: View, facts: RulesetFacts, contract: ContractFacts) -> float:
        """The estimated chance that this seat wins `contract` as the lone player."""
        if contract.needs_points is None:
            return 0.0
        # An estimate after an unseen talon is less sure than one of the hand as dealt.
        scale = SCALE * (TALON_DOUBT if contract.takes_talon and view["talon_size"] else 1)
        estimates = self.estimates(view, facts, contract)
        if contract.partner:
            # A called partner takes its share of what the lone player would leave to the others.
            active = len(self._active(view))
            total = facts.total(active)
            estimates = tuple(p + PARTNER * (total - p) / max(active - 1, 1) for p in estimates)
        return sum(_logistic((p - contract.needs_points) / scale) for p in estimates) / SAMPLES

    def estimate(self, view: View, facts: RulesetFacts, contract: ContractFacts) -> float:
        """The card points this seat would expect to take as the lone player of `contract`."""
        return sum(self.estimates(view, facts, contract)) / SAMPLES

    def estimates(self, view: View, facts: RulesetFacts, contract: ContractFacts) -> tuple[float, ...]:
        """`SAMPLES` estimates of the card points this seat would take as the lone player of
        `contract`: one per talon drawn from the unseen cards where the contract takes it up."""
        hand = sorted(view["hand"], key=facts.order.__getitem__)
        own_rules = contract.parts > 1 or contract.out_talon is not None or not contract.trumps_win
        key = (
            id(facts.ruleset),
            tuple(hand),
            contract.takes_talon,
            contract.discard,
            len(self._active(view)),
            contract.name if own_rules else None,
        )
        cached = self._estimates.get(key)
        if cached is not None:
            return cached
        unseen = self._unseen(view, facts)
        opponents = len(self._active(view)) - 1
        talon = view["talon_size"]
        if not contract.takes_talon or talon == 0:
            # The talon stays out of play; its cards are unknown, so count them at the mean.
            mean = sum(facts.points[c] for c in unseen) / max(len(unseen), 1)
            result = (
                self._points(
                    hand,
                    unseen,
                    opponents,
                    facts,
                    len(unseen) - talon,
                    talon,
                    talon * mean,
                    contract.out_talon,
                    contract.trumps_win,
                ),
            ) * SAMPLES
        else:
            rng = random.Random(zlib.crc32(" ".join(hand).encode()))
            # A talon in parts: the declarer takes one; a count: that many cards.
            taken = min(contract.count, talon) if contract.count is not None else talon // max(contract.parts, 1)
            found = []
            for _ in range(SAMPLES):
                drawn = rng.sample(unseen, min(taken, len(unseen)))
                rest = [c for c in unseen if c not in drawn]
                full = hand + drawn
                aside: list[str] = []
                kept = full
                if contract.discard is not None:
                    count = contract.discard.how_many(taken)
                    aside = self._choose_discard(
                        full, self._allowed(full, contract.discard, facts, opponents + 1), count, rest, facts
                    )
                    kept = [c for c in full if c not in aside]
                found.append(
                    self._points(
                        kept,
                        rest,
                        opponents,
                        facts,
                        len(rest) - (talon - taken),
                        len(aside),
                        sum(facts.points[c] for c in aside),
                        contract.out_discards,
                        contract.trumps_win,
                    )
                )
            result = tuple(found)
        if len(self._estimates) > 4096:
            self._estimates.clear()
        self._estimates[key] = result
        return result

    @staticmethod
    def _aside_mine(facts: RulesetFacts) -> bool:
        return facts.aside_to == "declarer"

    @staticmethod
    def _allowed(hand: list[str], step: Discard, facts: RulesetFacts, active: int) -> list[str]:
        if step.forbid is None:
            return list(hand)
        forbidden = facts.forbidden(step)
        if forbidden is not None:
            return [c for c in hand if c not in forbidden]
        frozen = frozenset(hand)
        return [c for c in hand if not step.forbid({"card": c, "hand": frozen, "players": active})]

    def _points(
        self,
        hand: list[str],
        unseen: list[str],
        opponents: int,
        facts: RulesetFacts,
        in_play: int,
        out_count: int,
        out_points: float,
        routes: tuple[Route, ...] | None = None,
        trumps_win: bool = True,
    ) -> float:
        """Card points a lone player with `hand` would count, with `out_count` cards worth
        `out_points` out of play (the talon nobody took, the discards), counted where `routes`
        (the contract's own) or else the counting rules send them."""
        won_cards, tricks = self._winners(hand, unseen, opponents, facts, in_play, trumps_win)
        mean = sum(facts.points[c] for c in unseen) / max(len(unseen), 1)
        raw = sum(facts.points[c] for c in won_cards) + tricks * opponents * mean * FOLLOWERS
        n_cards = tricks * (opponents + 1)
        counting = facts.ruleset.counting
        if (
            _routed_to_declarer(routes, tricks, len(hand))
            if routes is not None
            else self._out_of_play_mine(facts, tricks, len(hand))
        ):
            raw += out_points
            n_cards += out_count
        full, rest = divmod(n_cards, counting.packet)
        return raw - full * counting.packet_deduct - (counting.remainder_deduct if rest else 0)

    @staticmethod
    def _out_of_play_mine(facts: RulesetFacts, tricks: int, n_tricks: int) -> bool:
        counting = facts.ruleset.counting
        mine = counting.aside_counts_for == "declarer"
        if counting.aside_unless is not None:
            try:
                env = {"declarer_tricks": tricks, "defender_tricks": n_tricks - tricks, "tricks": n_tricks}
                if counting.aside_unless(env):
                    mine = not mine
            except Exception:
                pass
        return mine

    @staticmethod
    def _winners(
        hand: list[str], unseen: list[str], opponents: int, facts: RulesetFacts, in_play: int, trumps_win: bool = True
    ) -> tuple[list[str], int]:
        """The cards of `hand` expected to win a trick against `opponents` holding `in_play` of
        the `unseen` cards: the trumps drawn from the top, then the stops once trumps are out.
        Where trumps do not win (Farben games), only the stops, which no trump can take."""
        power, follow = facts.power, facts.follow
        if not trumps_win:
            top = facts.top_by_suit(unseen)
            stops = [c for c in hand if follow[c] != TRUMP and power[c] > top.get(follow[c], -1)]
            return stops, len(stops)
        share = in_play / max(len(unseen), 1)  # chance an unseen card is in play
        mine = sorted((c for c in hand if follow[c] == TRUMP), key=power.__getitem__, reverse=True)
        theirs = sorted((power[c] for c in unseen if follow[c] == TRUMP), reverse=True)
        their_left = len(theirs) * share
        beaten_by = 0.0  # their higher trumps already spent
        won: list[str] = []
        for card in mine:
            if their_left < 0.5:
                won.append(card)
                continue
            higher = sum(1 for p in theirs if p > power[card]) * share - beaten_by
            if higher < 0.5:
                won.append(card)
            else:
                beaten_by += 1
            their_left -= min(opponents, their_left)
        if their_left < 0.5:
            top = facts.top_by_suit(unseen)
            for card in hand:
                if follow[card] != TRUMP and power[card] > top.get(follow[card], -1):
                    won.append(card)
        return won, len(won)

    # -- the exchange ----------------------------------------------------------------------
    def _discard(self, view: View, legal: list[Any], facts: RulesetFacts) -> dict[str, Any]:
        hand = list(view["hand"])
        unseen = self._unseen(view, facts)
        if len(legal) == 1 and isinstance(legal[0]["discard"], dict):
            template = legal[0]["discard"]
            including = list(template.get("including", ()))  # every discard holds these
            rest = [c for c in template["from"] if c not in including]
            chosen = self._choose_discard(hand, rest, template["count"] - len(including), unseen, facts)
            return {"discard": including + chosen}
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
        value = self._keep_values(hand, self._unseen(view, facts), facts)

        def worth(c: str) -> tuple[float, int]:
            return (value.get(c, 0), -facts.order[c])

        if len(legal) == 1 and isinstance(legal[0]["keep"], dict):
            template = legal[0]["keep"]
            return {"keep": sorted(template["from"], key=worth, reverse=True)[: template["count"]]}
        return {"keep": list(max((a["keep"] for a in legal), key=lambda combo: sum(value.get(c, 0) for c in combo)))}

    def _choose_discard(
        self, hand: list[str], allowed: list[str], count: int, unseen: list[str], facts: RulesetFacts
    ) -> list[str]:
        value = self._keep_values(hand, unseen, facts)
        ranked = sorted(allowed, key=lambda c: (value[c], facts.order[c]))
        return ranked[:count]

    def _keep_values(self, hand: list[str], unseen: list[str], facts: RulesetFacts) -> dict[str, float]:
        """How much each card is worth keeping: trumps most, then stops, then the rest; points
        are better put aside when the aside counts for the lone player (and kept otherwise)."""
        power, follow, points = facts.power, facts.follow, facts.points
        bank = 1 if self._aside_mine(facts) else -1
        suit_count: dict[str, int] = {}
        for c in hand:
            suit_count[follow[c]] = suit_count.get(follow[c], 0) + 1
        values: dict[str, float] = {}
        top = facts.top_by_suit(unseen)
        for card in hand:
            if follow[card] == TRUMP:
                values[card] = 1000 + power[card]
                continue
            suit = follow[card]
            stop = power[card] > top.get(suit, -1)
            value = 500 + power[card] if stop else power[card] - 10 * bank * points[card]
            values[card] = value + suit_count[suit]  # short suits go first: voids let trumps in
        return values

    # -- trick play ------------------------------------------------------------------------
    def _play(self, view: View, cards: list[str], facts: RulesetFacts) -> str:
        power, follow, points = facts.power, facts.follow, facts.points
        if len(cards) == 1:
            return cards[0]
        seat = view["seat"]
        trick = view["tricks"][-1] if view["tricks"] else {"cards": [], "seats": [], "leader": seat}
        unseen = self._unseen(view, facts)
        declarer = view["declarer"]
        partners = self._sides(view, facts)
        lowest = min(cards, key=lambda c: (points[c], power[c], facts.order[c]))
        contract = view.get("contract")
        own = self._contract_facts(view, facts)
        misere = own.misere
        # Taking tricks is bad for the lone player of a misère, and for everyone when nobody
        # plays alone against the others (each for themselves, fewest points best).
        avoid = (declarer is None and bool(contract)) or (misere and seat == declarer)
        if not trick["cards"]:
            if avoid:
                return min(cards, key=lambda c: (power[c], points[c], facts.order[c]))
            return self._lead(view, cards, unseen, facts, seat == declarer) or lowest
        led = follow[trick["cards"][0]]

        trumps_win = own.trumps_win or led == TRUMP

        def strength(c: str) -> int:
            return power[c] if (follow[c] == TRUMP and trumps_win) or follow[c] == led else -1

        best_index = max(range(len(trick["cards"])), key=lambda i: strength(trick["cards"][i]))
        best = strength(trick["cards"][best_index])
        winner = trick["seats"][best_index]
        if avoid:
            # Duck with the highest card that stays under; if every card wins, the least points.
            under = [c for c in cards if strength(c) < best]
            if under:
                return max(under, key=lambda c: (points[c], strength(c), power[c]))
            return min(cards, key=lambda c: (points[c], -power[c]))
        if misere and winner == declarer:
            return lowest  # let the lone player keep the trick
        active = self._active(view)
        start = active.index(trick["leader"])
        order = [active[(start + i) % len(active)] for i in range(len(active))]
        after = order[len(trick["cards"]) + 1 :]
        opponents_after = [s for s in after if s not in partners]
        top_unseen = max((strength(c) for c in unseen), default=-1)
        if winner in partners and (not opponents_after or best > top_unseen):
            # The trick is ours: smear the most points, keeping sure winners for later.
            def smear(c: str) -> tuple[int, int]:
                return (points[c] - (10 if strength(c) > top_unseen and follow[c] == TRUMP else 0), -power[c])

            return max(cards, key=smear)
        if winner in partners:
            return lowest
        winners = [c for c in cards if strength(c) > best]
        if winners:
            if not opponents_after:
                return min(winners, key=lambda c: (power[c], points[c]))
            safe = [c for c in winners if strength(c) > top_unseen]
            if safe:
                return min(safe, key=lambda c: (power[c], points[c]))
            return min(winners, key=lambda c: (points[c], power[c]))
        return lowest

    def _lead(self, view: View, cards: list[str], unseen: list[str], facts: RulesetFacts, lone: bool) -> str | None:
        power, follow, points = facts.power, facts.follow, facts.points
        their_trumps = [c for c in unseen if follow[c] == TRUMP]
        top_trump = max((power[c] for c in their_trumps), default=-1)
        my_trumps = [c for c in cards if follow[c] == TRUMP]
        sure = [c for c in my_trumps if power[c] > top_trump]
        if lone and their_trumps and sure:
            return max(sure, key=power.__getitem__)
        top = facts.top_by_suit(unseen)
        stops = [c for c in cards if follow[c] != TRUMP and power[c] > top.get(follow[c], -1)]
        if stops and (not their_trumps or not lone):
            return max(stops, key=lambda c: (points[c], power[c]))
        if sure and not lone:
            return max(sure, key=power.__getitem__)
        return None


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


def _logistic(x: float) -> float:
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, x))))


def _is_template(action: Any) -> bool:
    return isinstance(action, dict) and any(isinstance(v, dict) for v in action.values())


def _concrete(action: Any) -> Any:
    """A template (`{kind: {count, from}}`) made an action: its first `count` cards."""
    if isinstance(action, dict):
        for kind, value in action.items():
            if isinstance(value, dict) and "count" in value and "from" in value:
                return {kind: list(value["from"][: value["count"]])}
    return action
