"""One deal of a ruleset, as a state machine driven by actions.

`Game` is the mutable state (OpenSpiel's State); the immutable game description is the
`Ruleset`. Every turn is one action; steps nobody decides (dealing, picking up the talon,
settling) are done here and reported as events. A refused action raises and changes nothing:
every check happens before the first mutation.
"""
from __future__ import annotations

import dataclasses
import itertools
import math
import random
from typing import Any, Mapping

from interpreter.engine.actions import Action, Announce, Call, CardAction, KeepAction, PlayCard, parse_action
from interpreter.engine.auction import PASS, Auction
from interpreter.errors import IllegalActionError, InvalidActionError, Problem, RecordError
from interpreter.language.model import CallCard, Contract, Give, Keep, Ruleset
from interpreter.engine.play import Trick, TrickPlay
from interpreter.engine.settlement import Deal, Result, piles, settle, settle_individual
from interpreter.engine.exchange import ExchangeSteps
from interpreter.engine.phase import Phase
from interpreter.engine.tricks import TrickRules

LISTABLE = 64   # a discard with more combinations than this comes as a template


class DealError(RecordError):
    """An explicit deal that is not a deal of this ruleset; `places` say where in it."""

    def __init__(self, places: list[tuple[tuple, str]]):
        self.places = places
        super().__init__([Problem("deal", None, None, "deal" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in place), message)
                          for place, message in places])


class Game(ExchangeSteps):
    """One deal. Seats are numbered in order of play; seat s+1 plays after seat s."""

    def __init__(self, ruleset: Ruleset | str, players: int | None = None, dealer: int = 0,
                 seed: int | None = None, deal: Mapping[str, Any] | None = None,
                 options: Mapping[str, str] | None = None, pot: int | None = None):
        if isinstance(ruleset, str):
            from interpreter.language.loader import load_ruleset
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
        # Some rulesets have rules of their own for a number of players (Cego for three).
        self.ruleset = ruleset = ruleset.for_players(len(self.seats))
        self.vorhand = self.seats[0]
        self.seed = seed
        self.tricks_rules = TrickRules.build(ruleset.deck, ruleset.play)
        self.events: list[dict[str, Any]] = []
        self.history: list[tuple[int, Action]] = []
        self.hands: dict[int, list[str]] = {s: [] for s in range(self.players)}
        self.talon: list[str] = []
        self.aside: list[str] = []
        self.misdeal: str | None = None
        self._deal(seed, deal)
        self.initial_hands = [list(self.hands[s]) for s in range(self.players)]
        self.initial_talon = list(self.talon)
        self.talon_size = len(self.talon)
        self.contract: Contract | None = None
        self.declarer: int | None = None
        self.exchange_step = 0
        self.trickplay: TrickPlay | None = None
        self._plays = _play_actions(ruleset.deck)      # {play: CARD} for each card, made once
        # A pot, where the table keeps one: the dealer's ante goes in first (an account of its own).
        self.pot_start = pot if pot is not None else (0 if ruleset.pot_ante is not None else None)
        self.ante = int(ruleset.pot_ante({"players": len(self.seats)})) if ruleset.pot_ante is not None and self.pot_start is not None else 0
        self.exposed: list[str] = []                # cards the declarer kept face up
        self.trump_suit: str | None = ruleset.play.trump_suit   # a suit that is trumps in this deal
        self.declared: list[str] = []               # declarations made (Tout)
        self.trumps_named = False                   # the declarer has named the trump suit
        self.called: tuple[str, int | None] | None = None   # the called card and who gave it (None: the talon)
        self.accusation_open = False                # the declarer may accuse others of skinning a Solo
        self.taken: list[str] = []                  # the talon as the declarer picked it up
        self.laid: list[tuple[str, str]] = []       # (announcement, card) laid out by the declarer
        self.result: Result | None = None
        self.phase = Phase.AUCTION
        self.auction = Auction(ruleset.phases, self.seats, self.hands, len(self.seats),
                               enforce=ruleset.breaches == "refuse")
        self._emit(type="phase", phase="auction", name=ruleset.phases[0].name)
        if self.misdeal is not None:
            self._penalize_misdeal()

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
        problems: list[tuple[tuple, str]] = []      # (place in the deal, message)
        if not isinstance(hands, list) or len(hands) != self.players:
            raise DealError([(("hands",), f"needs one hand per seat ({self.players}), "
                                          f"got {len(hands) if isinstance(hands, list) else 'none'}")])
        known = set(self.ruleset.pack(len(self.seats)))
        removed = set(self.ruleset.deck.cards) - known
        seen: dict[str, str] = {}
        for seat, hand in enumerate(hands):
            want = 0 if seat == self.sitting_out else hand_size
            if not isinstance(hand, list) or len(hand) != want:
                why = " (the dealer sits out)" if seat == self.sitting_out else ""
                problems.append((("hands", seat), f"seat {seat} must be dealt {want} cards{why}, "
                                                  f"got {len(hand) if isinstance(hand, list) else hand!r}"))
                continue
            for i, card in enumerate(hand):
                self._check_dealt(card, f"seat {seat}", ("hands", seat, i), known, seen, problems, removed)
            self.hands[seat] = [str(c) for c in hand]
        if not isinstance(talon, list) or len(talon) != talon_size:
            problems.append((("talon",), f"the talon must have {talon_size} cards, got {len(talon) if isinstance(talon, list) else talon!r}"))
        else:
            for i, card in enumerate(talon):
                self._check_dealt(card, "the talon", ("talon", i), known, seen, problems, removed)
            self.talon = [str(c) for c in talon]
        if not problems and len(seen) != len(known):
            missing = sorted(known - set(seen), key=list(self.ruleset.deck.cards).index)
            problems.append(((), f"cards not dealt: {', '.join(missing)}"))
        if problems:
            rule = self.ruleset.penalties
            sizes_only = all(p[0] and p[0][0] in ("hands", "talon") and len(p[0]) <= 2 for p in problems)
            if rule is not None and rule.mode == "penalize" and "misdeal" in rule.offences and sizes_only:
                # A misdeal in a game recorded in the field: the deal stands as dealt, the dealer pays.
                self.hands.update({s: [str(c) for c in h] for s, h in enumerate(hands) if isinstance(h, list)})
                self.talon = [str(c) for c in talon] if isinstance(talon, list) else []
                self.misdeal = "; ".join(message for _, message in problems)
                return
            raise DealError(problems)

    def _check_dealt(self, card: Any, where: str, place: tuple, known: set[str], seen: dict[str, str],
                     problems: list[tuple[tuple, str]], removed: set[str]) -> None:
        card = str(card)
        if card in removed:
            problems.append((place, f"{where}: {card} is taken out of the pack with {len(self.seats)} players"))
        elif card not in known:
            problems.append((place, f"{where}: unknown card '{card}'{_did_you_mean(card, known)}"))
        elif card in seen:
            problems.append((place, f"{card} is dealt twice: to {seen[card]} and to {where}"))
        else:
            seen[card] = where

    # -- whose turn, what may be done --------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        if self.phase is Phase.PLAY:
            return self.trickplay._state[0]
        if self.phase is Phase.AUCTION:
            return self.auction.to_act()
        if self.phase in (Phase.EXCHANGE, Phase.ANNOUNCE):
            return self.declarer
        return None

    @property
    def tricks(self) -> list[Trick]:
        return self.trickplay.tricks if self.trickplay else []

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def legal_actions(self, seat: int | None = None) -> list[Action | dict]:
        """The actions `seat` may take now (default: the seat to act), in protocol form."""
        if self.phase is Phase.PLAY:
            # Trick play first: it is most of a deal's turns.
            play = self.trickplay
            to_act = play._state[0]
            if seat is None:
                seat = to_act
            elif seat != to_act:
                return []
            # Shared {play: CARD} mappings, made once per pack: callers read them, never change them.
            plays = self._plays
            return [plays[c] for c in play.legal(seat)]
        seat = self.to_act if seat is None else seat
        if self.phase is Phase.AUCTION and seat is not None:
            return self.auction.legal(seat)       # another seat may have an interrupting call
        if seat is None or seat != self.to_act:
            return []
        if self.phase is Phase.EXCHANGE and self.accusation_open:
            return ["pass", {"choose": "accuse"}]
        if self.phase is Phase.EXCHANGE and self._choosing_trumps():
            return [{"choose": self.ruleset.deck.suit_names[s]} for s in self.contract.trump_choice]
        if self.phase is Phase.EXCHANGE:
            step = self._current_step()
            hand = self.hands[seat]
            if isinstance(step, CallCard):
                return [{"call_card": c} for c in self.ruleset.pack(len(self.seats)) if c in step.allowed and c not in hand]
            if isinstance(step, Give):
                return [{"give": c} for c in hand]
            if isinstance(step, Keep):
                choices = self._keep_choices(step, hand)
                if len(choices) <= LISTABLE:
                    return [{"keep": list(c)} for c in choices]
                return [{"keep": {"count": step.count, "from": sorted({c for combo in choices for c in combo}, key=hand.index)}}]
            allowed = [c for c in hand if not self._forbidden(step, c, hand)]
            count = step.how_many(self.talon_size)
            if math.comb(len(allowed), count) <= LISTABLE:
                return [{"discard": list(combo)} for combo in itertools.combinations(allowed, count)]
            return [{"discard": {"count": count, "from": allowed,
                                 "forbidden": [c for c in hand if c not in allowed]}}]
        if self.phase is Phase.ANNOUNCE:
            return ["pass", *self._announcement_choices()]
        return []

    def _announcement_choices(self) -> list[dict]:
        hand = self.hands[self.declarer]
        choices = []
        for name, announcement in self.ruleset.announcements.items():
            if announcement.contracts is not None and self.contract.name not in announcement.contracts:
                continue
            if announcement.declares is not None:
                choices.append({"announce": name, "cards": []})
                continue
            held = sorted((c for c in hand if c in announcement.cards), key=lambda c: -self.ruleset.deck.rank[c])
            for size in range(1, len(held) + 1):
                choices += [{"announce": name, "cards": list(combo)} for combo in itertools.combinations(held, size)]
        return choices

    # -- applying actions --------------------------------------------------------------------
    def apply(self, seat: int, action: Any) -> list[dict[str, Any]]:
        """Apply `action` by `seat`. Returns the events it caused. Raises InvalidActionError
        (malformed) or IllegalActionError (not allowed now); the game is then unchanged."""
        if self.phase is Phase.PLAY and type(action) is dict and len(action) == 1 and type(seat) is int:
            card = action.get("play")
            if seat == self.trickplay._state[0] and card in self.trickplay.legal(seat):
                # The common case in simulations, without the general checks below: a legal card
                # by the seat to play.
                start = len(self.events)
                self._play_card(seat, card)
                return self.events[start:]
        parsed = parse_action(action, self.ruleset)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise InvalidActionError(f"no seat {seat!r}: seats are 0 to {self.players - 1}")
        if self.phase is Phase.OVER:
            raise IllegalActionError("the deal is over", seat)
        if seat != self.to_act and not (self.phase is Phase.AUCTION and isinstance(parsed, Call)
                                        and parsed.name in self.auction.legal(seat)):
            raise IllegalActionError(self._not_your_turn(seat, parsed), seat)
        start = len(self.events)
        offence = self._offence(seat, parsed)
        if offence is not None:
            self._penalize_offence(seat, parsed, offence)
            return self.events[start:]
        if self.phase is Phase.AUCTION:
            self._apply_call(seat, parsed)
        elif self.phase is Phase.EXCHANGE and self.accusation_open:
            self._apply_accusation(seat, parsed)
        elif self.phase is Phase.EXCHANGE and self._choosing_trumps():
            self._apply_trump_choice(seat, parsed)
        elif self.phase is Phase.EXCHANGE and isinstance(parsed, CardAction):
            self._apply_card_action(seat, parsed)
        elif self.phase is Phase.EXCHANGE and isinstance(parsed, KeepAction):
            self._apply_keep(seat, parsed)
        elif self.phase is Phase.EXCHANGE:
            self._apply_discard(seat, parsed)
        elif self.phase is Phase.ANNOUNCE:
            self._apply_announcement(seat, parsed)
        else:
            self._apply_play(seat, parsed)
        return self.events[start:]

    def _not_your_turn(self, seat: int, parsed: Action) -> str:
        if seat == self.sitting_out:
            return f"seat {seat} deals and sits out this deal"
        if isinstance(parsed, Call) and self.phase is Phase.AUCTION:
            return self.auction.refusal(seat, parsed.name)
        if isinstance(parsed, Call) and self.phase is not Phase.AUCTION:
            doing = {Phase.EXCHANGE: "discard", Phase.ANNOUNCE: "announce", Phase.PLAY: "play"}.get(self.phase, "act")
            if self.phase is Phase.OVER:
                return "the deal is over"
            return (f"the bidding is over: seat {self.declarer} plays {self.contract.title}; "
                    f"it is seat {self.to_act}'s turn to {doing}")
        return f"it is seat {self.to_act}'s turn, not seat {seat}'s"

    def _wrong_kind(self, seat: int, parsed: Action) -> IllegalActionError:
        wanted = {Phase.AUCTION: "a call", Phase.EXCHANGE: "a discard", Phase.PLAY: "a card to play",
                  Phase.ANNOUNCE: "an announcement or pass"}[self.phase]
        return IllegalActionError(f"it is time for {wanted} ({self.phase.value}), not {parsed.describe()}", seat)

    def _apply_call(self, seat: int, parsed: Action) -> None:
        if not isinstance(parsed, Call):
            raise self._wrong_kind(seat, parsed)
        phase_name = self.auction.state.phase.name
        breach = self.auction.breach(seat, parsed.name) if self.ruleset.breaches == "penalize" else None
        outcome = self.auction.apply(seat, parsed.name)   # raises before any change if illegal
        self.history.append((seat, parsed.name))
        self._emit(type="call", seat=seat, call=parsed.name, phase=phase_name)
        if breach is not None:
            self._penalize(seat, breach)
            return
        while outcome is not None:
            following = self.auction.next_phase(outcome)
            if following is None:
                self._end_auction(outcome)
                return
            self._emit(type="phase", phase="auction", name=following)
            outcome = self.auction._settle()

    def _offence(self, seat: int, parsed: Action) -> str | None:
        """The offence `parsed` would be, when the ruleset penalises it instead of refusing it."""
        rule = self.ruleset.penalties
        if rule is None or rule.mode != "penalize" or not isinstance(parsed, PlayCard):
            return None
        if parsed.card not in self.hands[seat]:
            return None
        if self.phase is Phase.PLAY and "revoke" in rule.offences and parsed.card not in self.trickplay.legal(seat):
            return "revoke"
        if self.phase is Phase.EXCHANGE and "discard" in rule.offences and seat == self.declarer:
            return "discard"
        return None

    def _penalize_misdeal(self) -> None:
        amount = int(self.ruleset.penalties.pays_each({"players": len(self.seats)}))
        payments = [0] * self.players
        for seat in self.seats:
            if seat != self.dealer:
                payments[seat] += amount
                payments[self.dealer] -= amount
        reason = f"misdeal ({self.misdeal}); the deal is abandoned and the dealer, seat {self.dealer}, pays each other player {amount}"
        self._emit(type="offence", seat=self.dealer, offence="misdeal", reason=reason)
        self._finish(Result("abandoned", None, None, None, None, None, payments, reason=reason))

    def _penalize_offence(self, offender: int, parsed: PlayCard, offence: str) -> None:
        amount = int(self.ruleset.penalties.pays_each({"players": len(self.seats)}))
        payments = [0] * self.players
        for seat in self.seats:
            if seat != offender:
                payments[seat] += amount
                payments[offender] -= amount
        what = {"revoke": f"played {parsed.card} against the duty to follow suit or trump",
                "discard": f"led {parsed.card} before finishing the discard"}[offence]
        reason = f"seat {offender} {what}; the deal is abandoned and seat {offender} pays each other player {amount}"
        self.history.append((offender, parsed.as_json()))
        self._emit(type="offence", seat=offender, offence=offence, card=parsed.card, reason=reason)
        self._finish(Result("abandoned", self.contract.name if self.contract else None, self.declarer, None, None, None,
                            payments, reason=reason))

    def _penalize(self, offender: int, rule) -> None:
        amount = int(rule.breach_pays_each({"players": len(self.seats)}))
        payments = [0] * self.players
        for seat in self.seats:
            if seat != offender:
                payments[seat] += amount
                payments[offender] -= amount
        reason = f"seat {offender} passed against the rule \"{rule.reason}\"; the deal is abandoned"
        self._emit(type="breach", seat=offender, reason=reason)
        self._finish(Result("abandoned", None, None, None, None, None, payments, reason=reason))

    def _end_auction(self, outcome) -> None:
        phase = self.auction.state.phase
        if outcome.seat is None and phase.pass_out == "play":
            # Everybody passed: a game without a declarer (Räuber, Ramsch) is played.
            self.contract = self.ruleset.contracts[phase.pass_out_play]
            self._emit(type="contract", contract=self.contract.name, declarer=None)
            self.phase = Phase.EXCHANGE
            self._run_engine_steps()
            return
        if outcome.seat is None or outcome.throw_in:
            self._emit(type="thrown_in", **({"seat": outcome.seat} if outcome.throw_in else {}))
            self._finish(Result("thrown_in", None, None, None, None, None, [0] * self.players))
            return
        self.contract = self.ruleset.contracts[outcome.contract]
        self.declarer = outcome.seat
        if self.contract.trump_suit is not None:
            self.trump_suit = self.contract.trump_suit
        if self.contract.no_trump_suit:
            self.trump_suit = None
        self._emit(type="contract", contract=self.contract.name, declarer=self.declarer)
        self.phase = Phase.EXCHANGE
        self._run_engine_steps()

    def _start_play(self) -> None:
        self.phase = Phase.PLAY
        leader = self.declarer if self.ruleset.play.first_lead == "declarer" and self.declarer is not None else self.vorhand
        n_tricks = len(self.hands[self.seats[0]])
        if self.trump_suit is not None:
            self.tricks_rules = TrickRules.build(self.ruleset.deck, self.ruleset.play, self.trump_suit)
        self.trickplay = TrickPlay(self.tricks_rules, self.ruleset.play, self.ruleset.deck, self.seats,
                                   self.hands, self.declarer, leader, n_tricks,
                                   exposed=self.exposed, opening=self.contract.opening_leads,
                                   schedule=self.contract.schedule)
        self.trickplay.laid = [card for _, card in self.laid]
        self._emit(type="phase", phase="play", leader=leader)
        if self.contract.open_hand and self.declarer is not None:
            self._emit(type="open_hand", seat=self.declarer, hand=sorted(self.hands[self.declarer], key=self._sort_key))

    def _apply_announcement(self, seat: int, parsed: Action) -> None:
        if isinstance(parsed, Call) and parsed.name == PASS:
            self.history.append((seat, PASS))
            self._emit(type="call", seat=seat, call=PASS, phase="announce")
            self._start_play()
            return
        if not isinstance(parsed, Announce):
            raise self._wrong_kind(seat, parsed)
        announcement = self.ruleset.announcements[parsed.name]
        if {"announce": parsed.name, "cards": list(parsed.cards)} not in self._announcement_choices() and announcement.declares:
            raise IllegalActionError(f"{parsed.name} cannot be declared in {self.contract.title}", seat)
        if announcement.declares is not None:
            self.declared.append(parsed.name)
            if announcement.declares.releases_exposed:
                self.exposed.clear()     # taken back into the hand: no lead duty, full power
            self.history.append((seat, parsed.as_json()))
            self._emit(type="announce", seat=seat, announcement=parsed.name, cards=[])
            self._start_play()
            return
        allowed = announcement.cards
        hand = self.hands[seat]
        wrong = [c for c in parsed.cards if c not in allowed]
        if wrong:
            raise IllegalActionError(f"{', '.join(wrong)} cannot be laid out for {parsed.name}; only "
                                     f"{', '.join(sorted(allowed, key=lambda c: -self.ruleset.deck.rank[c]))}", seat)
        missing = [c for c in parsed.cards if c not in hand]
        if missing:
            raise IllegalActionError(f"you do not hold {', '.join(missing)}", seat)
        if not parsed.cards or len(set(parsed.cards)) != len(parsed.cards):
            raise IllegalActionError("lay out one or more different cards, or pass", seat)
        self.laid = [(parsed.name, c) for c in parsed.cards]
        self.history.append((seat, parsed.as_json()))
        self._emit(type="announce", seat=seat, announcement=parsed.name, cards=list(parsed.cards))
        self._start_play()

    def _deal_facts(self) -> Deal:
        declared = tuple(self.ruleset.announcements[n].declares for n in self.declared)
        return Deal(self.ruleset, self.contract, self.declarer, self.seats, self.players, self.sitting_out,
                    frozenset(self.auction.bidders), dict(self.trickplay.withheld) if self.trickplay else {},
                    tuple(self.laid), declared,
                    None if self.pot_start is None else self.pot_start + self.ante)

    def _apply_play(self, seat: int, parsed: Action) -> None:
        if not isinstance(parsed, PlayCard):
            raise self._wrong_kind(seat, parsed)
        play = self.trickplay
        if parsed.card not in play.legal(seat):
            raise IllegalActionError(play.refusal(seat, parsed.card), seat)
        self._play_card(seat, parsed.card)

    def _play_card(self, seat: int, card: str) -> None:
        play = self.trickplay
        completed, _ = play.play_card(seat, card)
        self.history.append((seat, self._plays[card]))    # shared, never changed
        self.events.append({"type": "play", "seat": seat, "card": card})
        # Withholding is not announced (dappen-de §11.3): no event tells it; the settlement knows.
        if not completed:
            return
        for trick in completed:
            self._emit(type="trick", number=play.tricks.index(trick) + 1, cards=list(trick.cards),
                       seats=list(trick.seats), winner=trick.winner)
        if play.over:
            facts = self._deal_facts()
            if self.contract.individual is not None:
                self._finish(settle_individual(facts, play.tricks, self.vorhand, self.talon + self.aside))
                return
            out_of_play = self.talon + self.aside if self.contract.talon_counts else []
            declarer_cards, defender_cards, declarer_tricks, defender_tricks = piles(facts, play.tricks, out_of_play)
            self._finish(settle(facts, declarer_cards, defender_cards, declarer_tricks, defender_tricks, "played", play.tricks))
        else:
            play.next_trick()

    def _finish(self, result: Result) -> None:
        if self.ante:
            # The dealer's ante went into the pot at the start of the deal.
            payments = list(result.payments)
            payments[self.dealer] -= self.ante
            result = dataclasses.replace(result, payments=payments, pot=result.pot + self.ante)
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
            if self.contract and self.contract.open_hand and self.trickplay is not None and self.declarer != seat:
                # Ouvert: the declarer's hand lies face up for everyone.
                view["open_hand"] = {"seat": self.declarer, "cards": sorted(self.hands[self.declarer], key=self._sort_key)}
        if umpire or (over and self.result.points is not None):
            # The talon and discards are shown when the cards are counted (not in a deal thrown in).
            view["talon"] = list(self.talon)
            view["aside"] = list(self.aside)
        if self.laid:
            view["laid_out"] = [card for _, card in self.laid]       # Ulti cards lie face up
        if self.exposed:
            view["exposed"] = list(self.exposed)                      # Cego's empty cards lie face up
        elif seat == self.declarer:
            until = self.ruleset.play.discards_visible_until
            finished = sum(1 for t in self.tricks if t.winner is not None)
            if self.contract and self.contract.exchange and (until is None or finished < until):
                view["aside"] = list(self.aside)
        if over:
            view["result"] = self.result.as_dict()
        return view

    def _emit(self, **event: Any) -> None:
        self.events.append(event)

    # The hot loop appends its events directly: self.events.append({...}).

    # -- records -----------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The game record so far (DESIGN.md): enough to replay this deal exactly, with the
        explicit deal and, when the deal is over, its outcome as `expect`."""
        rs = self.ruleset
        record: dict[str, Any] = {"ruleset": rs.name}
        changed = {k: v for k, v in rs.choices.items() if v != next(g.default for g in rs.groups if g.name == k)}
        if changed:
            record["options"] = changed
        record.update(players=self.players, dealer=self.dealer,
                      deal={"hands": [list(h) for h in self.initial_hands], "talon": list(self.initial_talon)},
                      actions=[[seat, action] for seat, action in self.history])
        if self.pot_start:
            record["pot"] = self.pot_start
        if self.result is not None:
            r = self.result
            expect: dict[str, Any] = {"outcome": r.outcome}
            if r.contract:
                expect["contract"] = r.contract
            if r.declarer is not None:
                expect["declarer"] = r.declarer
            if r.points:
                expect.update(points=r.points)
            expect["payments"] = r.payments
            if r.pot:
                expect["pot"] = r.pot
            record["expect"] = expect
        return record


_PLAY_ACTIONS: dict[int, tuple[Any, dict[str, dict]]] = {}


def _play_actions(deck) -> dict[str, dict]:
    cached = _PLAY_ACTIONS.get(id(deck))
    if cached is None or cached[0] is not deck:
        cached = (deck, {c: {"play": c} for c in deck.cards})
        _PLAY_ACTIONS[id(deck)] = cached
    return cached[1]


def _counts(sizes: tuple[int, ...]) -> str:
    return " or ".join(str(n) for n in sizes)


def _did_you_mean(word: str, known: set[str]) -> str:
    import difflib
    close = difflib.get_close_matches(word.upper(), sorted(known), n=1)
    return f"; did you mean '{close[0]}'?" if close else ""
