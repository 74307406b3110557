"""One deal of a ruleset, as a state machine driven by actions.

`Game` is the mutable state (OpenSpiel's State); the immutable game description is the
`Ruleset`. Every turn is one action; steps nobody decides (dealing, picking up the talon,
settling) are done here and reported as events. A refused action raises and changes nothing:
every check happens before the first mutation.
"""
from __future__ import annotations

import enum
import itertools
import math
import random
from dataclasses import dataclass, field
from typing import Any, Mapping

from interpreter.actions import Action, Call, DiscardAction, PlayCard, parse_action
from interpreter.auction import PASS, Auction
from interpreter.errors import IllegalActionError, InvalidActionError, RecordError
from interpreter.errors import Problem
from interpreter.model import Contract, Discard, Ruleset, TakeTalon
from interpreter.tricks import TrickRules

LISTABLE = 64   # a discard with more combinations than this comes as a template


class Phase(enum.Enum):
    AUCTION = "auction"
    EXCHANGE = "exchange"
    PLAY = "play"
    OVER = "over"


@dataclass
class Trick:
    leader: int
    seats: list[int] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    winner: int | None = None


@dataclass(frozen=True)
class Result:
    outcome: str                         # played | claimed | thrown_in | abandoned
    contract: str | None
    declarer: int | None
    declarer_won: bool | None
    points: dict[str, int] | None        # {"declarer": …, "defenders": …}
    tricks: dict[str, int] | None
    payments: list[int]
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "contract": self.contract, "declarer": self.declarer,
                "declarer_won": self.declarer_won, "points": self.points, "tricks": self.tricks,
                "payments": self.payments, **({"reason": self.reason} if self.reason else {})}


class Game:
    """One deal. Seats are numbered in order of play; seat s+1 plays after seat s."""

    def __init__(self, ruleset: Ruleset | str, players: int | None = None, dealer: int = 0,
                 seed: int | None = None, deal: Mapping[str, Any] | None = None,
                 options: Mapping[str, str] | None = None):
        if isinstance(ruleset, str):
            from interpreter.loader import load_ruleset
            ruleset = load_ruleset(ruleset, options)
        self.ruleset = ruleset
        self.players = players if players is not None else ruleset.table_sizes[0]
        if self.players not in ruleset.table_sizes:
            raise InvalidActionError(f"{ruleset.name} is played by {_counts(ruleset.table_sizes)} at the table, not {self.players}")
        if not isinstance(dealer, int) or not 0 <= dealer < self.players:
            raise InvalidActionError(f"the dealer must be a seat from 0 to {self.players - 1}, not {dealer!r}")
        self.dealer = dealer
        self.sitting_out = dealer if self.players in ruleset.dealer_sits_out else None
        first = (dealer + 1) % self.players
        self.seats = [s % self.players for s in range(first, first + self.players) if s % self.players != self.sitting_out]
        self.vorhand = self.seats[0]
        self.seed = seed
        self.tricks_rules = TrickRules.build(ruleset.deck, ruleset.play)
        self.events: list[dict[str, Any]] = []
        self.history: list[tuple[int, Action]] = []
        self.hands: dict[int, list[str]] = {s: [] for s in range(self.players)}
        self.talon: list[str] = []
        self.aside: list[str] = []
        self._deal(seed, deal)
        self.initial_hands = [list(self.hands[s]) for s in range(self.players)]
        self.initial_talon = list(self.talon)
        self.talon_size = len(self.talon)
        self.contract: Contract | None = None
        self.declarer: int | None = None
        self.exchange_step = 0
        self.tricks: list[Trick] = []
        self.result: Result | None = None
        self.phase = Phase.AUCTION
        self.auction = Auction(ruleset.phases, self.seats, self.hands, len(self.seats))
        self._emit(type="phase", phase="auction", name=ruleset.phases[0].name)

    # -- dealing ----------------------------------------------------------------------------
    def _deal(self, seed: int | None, deal: Mapping[str, Any] | None) -> None:
        plan = self.ruleset.deal_plans[len(self.seats)]
        if deal is not None:
            self._take_explicit_deal(deal, plan)
            self._emit(type="deal", dealer=self.dealer, explicit=True)
            return
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
            self.seed = seed
        cards = list(self.ruleset.pack(len(self.seats)))
        random.Random(seed).shuffle(cards)
        position = 0
        for packet in plan:
            targets = self.seats if packet.to == "each" else [None]
            for seat in targets:
                batch = cards[position:position + packet.count]
                position += packet.count
                (self.talon if seat is None else self.hands[seat]).extend(batch)
        self._emit(type="deal", dealer=self.dealer, seed=seed)

    def _take_explicit_deal(self, deal: Mapping[str, Any], plan) -> None:
        hand_size = sum(p.count for p in plan if p.to == "each")
        talon_size = sum(p.count for p in plan if p.to == "talon")
        hands, talon = deal.get("hands"), deal.get("talon", [])
        problems: list[str] = []
        if not isinstance(hands, list) or len(hands) != self.players:
            raise RecordError([Problem("deal", None, None, "deal.hands", f"needs one hand per seat ({self.players}), "
                                       f"got {len(hands) if isinstance(hands, list) else 'none'}")])
        known = set(self.ruleset.pack(len(self.seats)))
        removed = set(self.ruleset.deck.cards) - known
        seen: dict[str, str] = {}
        for seat, hand in enumerate(hands):
            want = 0 if seat == self.sitting_out else hand_size
            if not isinstance(hand, list) or len(hand) != want:
                why = " (the dealer sits out)" if seat == self.sitting_out else ""
                problems.append(f"seat {seat} must be dealt {want} cards{why}, got {len(hand) if isinstance(hand, list) else hand!r}")
                continue
            for card in hand:
                self._check_dealt(card, f"seat {seat}", known, seen, problems, removed)
            self.hands[seat] = [str(c) for c in hand]
        if not isinstance(talon, list) or len(talon) != talon_size:
            problems.append(f"the talon must have {talon_size} cards, got {len(talon) if isinstance(talon, list) else talon!r}")
        else:
            for card in talon:
                self._check_dealt(card, "the talon", known, seen, problems, removed)
            self.talon = [str(c) for c in talon]
        if not problems and len(seen) != len(known):
            missing = sorted(known - set(seen), key=list(self.ruleset.deck.cards).index)
            problems.append(f"cards not dealt: {', '.join(missing)}")
        if problems:
            raise RecordError([Problem("deal", None, None, "deal", p) for p in problems])

    def _check_dealt(self, card: Any, where: str, known: set[str], seen: dict[str, str], problems: list[str],
                     removed: set[str]) -> None:
        card = str(card)
        if card in removed:
            problems.append(f"{where}: {card} is taken out of the pack with {len(self.seats)} players")
        elif card not in known:
            problems.append(f"{where}: unknown card '{card}'{_did_you_mean(card, known)}")
        elif card in seen:
            problems.append(f"{card} is dealt twice: to {seen[card]} and to {where}")
        else:
            seen[card] = where

    # -- whose turn, what may be done --------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        if self.phase is Phase.AUCTION:
            return self.auction.to_act()
        if self.phase is Phase.EXCHANGE:
            return self.declarer
        if self.phase is Phase.PLAY:
            trick = self.tricks[-1]
            return self._next_seat(trick.seats[-1]) if trick.seats else trick.leader
        return None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def legal_actions(self, seat: int | None = None) -> list[Action | dict]:
        """The actions `seat` may take now (default: the seat to act), in protocol form."""
        seat = self.to_act if seat is None else seat
        if seat is None or seat != self.to_act:
            return []
        if self.phase is Phase.AUCTION:
            return self.auction.legal(seat)
        if self.phase is Phase.EXCHANGE:
            step = self.contract.exchange[self.exchange_step]
            assert isinstance(step, Discard)
            hand = self.hands[seat]
            allowed = [c for c in hand if not self._forbidden(step, c, hand)]
            count = step.how_many(self.talon_size)
            if math.comb(len(allowed), count) <= LISTABLE:
                return [{"discard": list(combo)} for combo in itertools.combinations(allowed, count)]
            return [{"discard": {"count": count, "from": allowed,
                                 "forbidden": [c for c in hand if c not in allowed]}}]
        if self.phase is Phase.PLAY:
            return [{"play": c} for c in self.tricks_rules.legal(self.hands[seat], self.tricks[-1].cards)]
        return []

    def _forbidden(self, step: Discard, card: str, hand: list[str]) -> bool:
        return step.forbid is not None and bool(step.forbid({"card": card, "hand": frozenset(hand)}))

    # -- applying actions --------------------------------------------------------------------
    def apply(self, seat: int, action: Any) -> list[dict[str, Any]]:
        """Apply `action` by `seat`. Returns the events it caused. Raises InvalidActionError
        (malformed) or IllegalActionError (not allowed now); the game is then unchanged."""
        parsed = parse_action(action, self.ruleset)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise InvalidActionError(f"no seat {seat!r}: seats are 0 to {self.players - 1}")
        if self.phase is Phase.OVER:
            raise IllegalActionError("the deal is over", seat)
        if seat != self.to_act:
            raise IllegalActionError(self._not_your_turn(seat, parsed), seat)
        start = len(self.events)
        if self.phase is Phase.AUCTION:
            self._apply_call(seat, parsed)
        elif self.phase is Phase.EXCHANGE:
            self._apply_discard(seat, parsed)
        else:
            self._apply_play(seat, parsed)
        return self.events[start:]

    def _not_your_turn(self, seat: int, parsed: Action) -> str:
        if seat == self.sitting_out:
            return f"seat {seat} deals and sits out this deal"
        if isinstance(parsed, Call) and self.phase is not Phase.AUCTION:
            return (f"the bidding is over: seat {self.declarer} plays {self.contract.title}; "
                    f"it is seat {self.to_act}'s turn to {'discard' if self.phase is Phase.EXCHANGE else 'play'}")
        return f"it is seat {self.to_act}'s turn, not seat {seat}'s"

    def _wrong_kind(self, seat: int, parsed: Action) -> IllegalActionError:
        wanted = {Phase.AUCTION: "a call", Phase.EXCHANGE: "a discard", Phase.PLAY: "a card to play"}[self.phase]
        return IllegalActionError(f"it is time for {wanted} ({self.phase.value}), not {parsed.describe()}", seat)

    def _apply_call(self, seat: int, parsed: Action) -> None:
        if not isinstance(parsed, Call):
            raise self._wrong_kind(seat, parsed)
        phase_name = self.auction.state.phase.name
        outcome = self.auction.apply(seat, parsed.name)   # raises before any change if illegal
        self.history.append((seat, parsed.name))
        self._emit(type="call", seat=seat, call=parsed.name, phase=phase_name)
        while outcome is not None:
            following = self.auction.next_phase(outcome)
            if following is None:
                self._end_auction(outcome)
                return
            self._emit(type="phase", phase="auction", name=following)
            outcome = self.auction._settle()

    def _end_auction(self, outcome) -> None:
        if outcome.seat is None:
            self._emit(type="thrown_in")
            self._finish(Result("thrown_in", None, None, None, None, None, [0] * self.players))
            return
        self.contract = self.ruleset.contracts[outcome.contract]
        self.declarer = outcome.seat
        self._emit(type="contract", contract=self.contract.name, declarer=self.declarer)
        self.phase = Phase.EXCHANGE
        self._run_engine_steps()

    def _run_engine_steps(self) -> None:
        """Do the exchange steps nobody decides, check for a claim, and start play when due."""
        steps = self.contract.exchange
        while self.exchange_step < len(steps) and isinstance(steps[self.exchange_step], TakeTalon):
            self.hands[self.declarer].extend(self.talon)
            self._emit(type="talon_taken", seat=self.declarer, count=len(self.talon))
            self.talon = []
            self.exchange_step += 1
            if self._claimed():
                return
        if self.exchange_step < len(steps):
            step = steps[self.exchange_step]
            allowed = [c for c in self.hands[self.declarer] if not self._forbidden(step, c, self.hands[self.declarer])]
            count = step.how_many(self.talon_size)
            if len(allowed) < count:
                self._finish(Result("abandoned", self.contract.name, self.declarer, None, None, None, [0] * self.players,
                                    reason=f"no legal discard of {count} cards exists and the ruleset does not say what happens"))
            return
        if self._claimed():
            return
        self.phase = Phase.PLAY
        leader = self.declarer if self.ruleset.play.first_lead == "declarer" else self.vorhand
        self.tricks.append(Trick(leader))
        self._emit(type="phase", phase="play", leader=leader)

    def _claimed(self) -> bool:
        claim = self.ruleset.claim
        if claim is None or not claim.when({"hand": frozenset(self.hands[self.declarer])}):
            return False
        self._emit(type="claim", seat=self.declarer, hand=sorted(self.hands[self.declarer], key=self._sort_key))
        n_tricks = sum(p.count for p in self.ruleset.deal_plans[len(self.seats)] if p.to == "each")
        self._settle(declarer_cards=list(self.ruleset.pack(len(self.seats))), defender_cards=[],
                     declarer_tricks=n_tricks, defender_tricks=0, outcome="claimed")
        return True

    def _apply_discard(self, seat: int, parsed: Action) -> None:
        if not isinstance(parsed, DiscardAction):
            raise self._wrong_kind(seat, parsed)
        step = self.contract.exchange[self.exchange_step]
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

    def _apply_play(self, seat: int, parsed: Action) -> None:
        if not isinstance(parsed, PlayCard):
            raise self._wrong_kind(seat, parsed)
        trick = self.tricks[-1]
        hand = self.hands[seat]
        if parsed.card not in self.tricks_rules.legal(hand, trick.cards):
            raise IllegalActionError(self.tricks_rules.refusal(hand, trick.cards, parsed.card), seat)
        hand.remove(parsed.card)
        trick.seats.append(seat)
        trick.cards.append(parsed.card)
        self.history.append((seat, parsed.as_json()))
        self._emit(type="play", seat=seat, card=parsed.card)
        if len(trick.cards) < len(self.seats):
            return
        trick.winner = trick.seats[self.tricks_rules.winner_index(trick.cards)]
        self._emit(type="trick", number=len(self.tricks), cards=list(trick.cards), seats=list(trick.seats), winner=trick.winner)
        if self.hands[trick.winner]:
            self.tricks.append(Trick(trick.winner))
        else:
            self._count_and_settle()

    def _next_seat(self, seat: int) -> int:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    # -- counting and settlement -------------------------------------------------------------
    def _count_and_settle(self) -> None:
        declarer_cards = [c for t in self.tricks if t.winner == self.declarer for c in t.cards]
        defender_cards = [c for t in self.tricks if t.winner != self.declarer for c in t.cards]
        declarer_tricks = sum(1 for t in self.tricks if t.winner == self.declarer)
        defender_tricks = len(self.tricks) - declarer_tricks
        counting = self.ruleset.counting
        env = {"declarer_tricks": declarer_tricks, "defender_tricks": defender_tricks, "tricks": len(self.tricks)}
        aside_to = counting.aside_counts_for
        if counting.aside_unless is not None and counting.aside_unless(env):
            aside_to = "defenders" if aside_to == "declarer" else "declarer"
        # Out of play: the talon nobody took (a Solo) and the discards.
        out_of_play = self.talon + self.aside
        if aside_to == "declarer":
            declarer_cards += out_of_play
        elif aside_to == "defenders":
            defender_cards += out_of_play
        self._settle(declarer_cards, defender_cards, declarer_tricks, defender_tricks, outcome="played")

    def _settle(self, declarer_cards: list[str], defender_cards: list[str], declarer_tricks: int,
                defender_tricks: int, outcome: str) -> None:
        counting, values = self.ruleset.counting, self.ruleset.deck.points
        declarer_points = counting.points(declarer_cards, values)
        defender_points = counting.points(defender_cards, values)
        env = {"declarer_points": declarer_points, "defender_points": defender_points,
               "declarer_tricks": declarer_tricks, "defender_tricks": defender_tricks,
               "tricks": declarer_tricks + defender_tricks, "players": len(self.seats)}
        contract = self.contract
        won = bool(contract.declarer_wins(env))
        env.update(declarer_won=won,
                   winner_points=declarer_points if won else defender_points,
                   loser_points=defender_points if won else declarer_points,
                   factor=(contract.factor_won if won else contract.factor_lost) or 0)
        amount = int(contract.amount(env))
        payments = [0] * self.players
        defenders = [s for s in self.seats if s != self.declarer]
        if self.sitting_out is not None and self.ruleset.settlement.sitting_out == "defender":
            defenders.append(self.sitting_out)
        sign = 1 if won else -1
        for seat in defenders:
            payments[seat] -= sign * amount
            payments[self.declarer] += sign * amount
        self._finish(Result(outcome, contract.name, self.declarer, won,
                            {"declarer": declarer_points, "defenders": defender_points},
                            {"declarer": declarer_tricks, "defenders": defender_tricks}, payments))

    def _finish(self, result: Result) -> None:
        self.result = result
        self.phase = Phase.OVER
        self._emit(type="settlement", **result.as_dict())

    # -- views -------------------------------------------------------------------------------
    def _sort_key(self, card: str) -> tuple[int, int]:
        deck = self.ruleset.deck
        suit_order = list(deck.suit_names)
        return (suit_order.index(deck.suit[card]), -deck.rank[card])

    def view(self, seat: int | str) -> dict[str, Any]:
        """What `seat` may see; `"all"` is the umpire's full view. Never another seat's hidden cards."""
        umpire = seat == "all"
        if not umpire and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players):
            raise InvalidActionError(f"no seat {seat!r}: seats are 0 to {self.players - 1}, or \"all\"")
        over = self.phase is Phase.OVER
        view: dict[str, Any] = {
            "ruleset": self.ruleset.name, "players": self.players, "dealer": self.dealer,
            "sitting_out": self.sitting_out, "seat": seat, "phase": self.phase.value, "to_act": self.to_act,
            "hand_sizes": [len(self.hands[s]) for s in range(self.players)],
            "calls": [[s, a] for s, a in self.history if isinstance(a, str)],
            "contract": self.contract.name if self.contract else None, "declarer": self.declarer,
            "talon_size": len(self.talon),
            "tricks": [{"leader": t.leader, "seats": list(t.seats), "cards": list(t.cards), "winner": t.winner} for t in self.tricks],
        }
        if umpire:
            view["hands"] = [sorted(self.hands[s], key=self._sort_key) for s in range(self.players)]
        else:
            view["hand"] = sorted(self.hands[seat], key=self._sort_key)
        if umpire or over:
            # The talon and discards are shown when the cards are counted, not before.
            view["talon"] = list(self.talon)
            view["aside"] = list(self.aside)
        elif seat == self.declarer:
            view["aside"] = list(self.aside) if self.contract and self.contract.exchange else []
        if over:
            view["result"] = self.result.as_dict()
        return view

    def _emit(self, **event: Any) -> None:
        self.events.append(event)

    # -- records -----------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The game record so far (DESIGN.md): enough to replay this deal exactly."""
        from interpreter.records import make_record
        return make_record(self)


def _counts(sizes: tuple[int, ...]) -> str:
    return " or ".join(str(n) for n in sizes)


def _did_you_mean(word: str, known: set[str]) -> str:
    import difflib
    close = difflib.get_close_matches(word.upper(), sorted(known), n=1)
    return f"; did you mean '{close[0]}'?" if close else ""
