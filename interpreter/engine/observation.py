"""Games observed at a table: records whose hands nobody saw.

In the field one writes down the calls and the cards as they fall, perhaps the talon afterwards,
never the hands. An observed record (`observed:` instead of `deal:` or `seed:`) is replayed on a
deal *built from what is known*: each seat holds the cards it was seen to play or lay out (and any
cards written down as known in its hand); the talon is the one seen, or else the cards nobody
saw. Only a seat seen to take a talon nobody saw may have had some of the cards it plays from
that talon. What nobody sees is filled in: a discard or a keep face down (`{discard: unknown}`,
or none written at all) lays away the cards the seat then holds and never plays; the declarer
who lays nothing out before the first lead (Ulti) says so by the card led, or by a `pass`
written where the deal built gives it nothing to lay out.

The deal built is a guess where the facts leave it open, and it is built again, learning, when
the guess is to blame for a refusal: a card of a suit the seat showed later it did not hold is
given to another seat; a card a talon-taker plays but does not hold came from the talon; a call
or a discard that needed other unseen cards in the hand (three Kings for the fourth King's call,
cards it may lay away) draws deals at random until one allows it, and the cards it needed are
kept for it. A refusal that no deal tried explains is judged as below.

The engine's own checks then check the game as far as the known facts allow:
- a card refused because the seat held another card it had to play, and that card is one the seat
  played later, is proven: the seat did not follow suit and later played that suit (a revoke), did
  not trump, did not beat;
- a card refused only because of cards *filled in* for the unknown (a deal observed in part) proves
  nothing: the deal is built again with those cards elsewhere;
- a call refused is proven when the seat's hand is known as dealt (every card of it seen, and the
  seat never took a talon nobody saw); otherwise other deals agreeing with the facts are tried
  (which of the bidder's cards came from the talon), and only if none allows the call is it
  reported, as not certain.

A proven departure that the record notes (`departures:`, as `tarock observe` writes it when the
table's rule differs) is kept and the game goes on: the card is played as the table played it.
One that is not noted fails the replay, as an illegal action in any record does.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from interpreter.engine.announcements import DeclarerAnnouncement
from interpreter.engine.auction import PASS
from interpreter.engine.faults import TableError
from interpreter.engine.game import DealError, Game
from interpreter.engine.phase import Phase
from interpreter.errors import IllegalActionError, InvalidActionError, TarockError
from interpreter.language.model import TRUMP, Ruleset

UNKNOWN = "unknown"  # a discard nobody saw: `{discard: unknown}`
MAX_ATTEMPTS = 200  # deals built again before a refusal that unknown cards could explain is given up
# The choices of the exchange a hand may allow or not (an unnamed partner's call needs the
# hand to lack exactly one of the cards it could call).
_CHOICES = frozenset({"choose", "call_card", "give"})
MAX_FRUITLESS = 40  # deals drawn at random in a row, none teaching anything, before it is given up


@dataclass(frozen=True)
class Departure:
    """An action of the record the ruleset does not allow, proven by the known facts (or, with
    `certain` False, not allowed by any deal tried that agrees with them)."""

    at: int  # the action's index in the record
    seat: int
    action: Any
    rule: str  # the rule broken, as `tarock check` counts it (`play.follow_suit`, `auction.…`)
    reason: str  # what the engine says, and the proof
    certain: bool = True
    noted: bool = False  # the record keeps it as the table's own rule

    def as_record(self, note: str = "") -> dict[str, Any]:
        """The entry `departures:` keeps for it."""
        entry: dict[str, Any] = {"at": self.at, "seat": self.seat, "rule": self.rule, "reason": self.reason}
        if note:
            entry["note"] = note
        return entry


@dataclass
class Observation:
    """What replaying an observed record found."""

    game: Game | None = None
    deal: dict[str, Any] = field(default_factory=dict)  # the deal it was replayed on
    departures: list[Departure] = field(default_factory=list)
    failures: list[tuple[int | None, str]] = field(default_factory=list)  # (action index, what makes the replay fail)
    stopped_at: int | None = None  # the action the replay could not go past
    filled_in: list[int] = field(default_factory=list)  # seats holding cards nobody saw
    discards_filled_in: list[int] = field(default_factory=list)  # seats whose discard nobody saw


class _Retry(Exception):
    """The deal built for the unknown cards explains a refusal: build another."""

    def __init__(
        self,
        seat: int,
        away: set[str],
        talon: set[str] | None = None,
        seeking: int | None = None,
        shun: set[str] | None = None,
    ):
        super().__init__(seat)
        self.seat, self.away, self.talon, self.seeking = seat, away, talon or set(), seeking
        self.shun = shun or set()  # cards better not given to the seat (a guess, unlike `away`)


def is_observed(data: Mapping[str, Any]) -> bool:
    return "observed" in data


class ObservedGame:
    """An observed record's facts, and its replay. `actions`: [seat, action] as recorded;
    `noted`: the indices of departures the record keeps as the table's rule."""

    def __init__(
        self,
        ruleset: Ruleset,
        players: int,
        dealer: int = 0,
        actions: list[list[Any]] | None = None,
        *,
        hands: list[list[str]] | None = None,
        talon: list[str] | None = None,
        noted: set[int] | None = None,
        pot: int | None = None,
    ):
        self.ruleset, self.players, self.dealer, self.pot = ruleset, players, dealer, pot
        self.actions = [list(a) for a in actions or []]
        self.noted = set(noted or ())
        probe = Game(ruleset, players, dealer, seed=0, pot=pot)  # raises TableError for a bad table
        self.chooses = probe.phase is Phase.DEAL  # the dealer first chooses how to deal (deal.choice)
        if self.chooses:  # each plan deals hands of the same sizes
            probe.apply(dealer, probe.legal_actions()[0])
        self.seats = probe.seats
        self.seats_out = probe.seats_out
        self.sizes = {s: len(probe.initial_hands[s]) for s in range(players)}
        self.talon_size = len(probe.initial_talon)
        self.pack = list(probe.ruleset.pack(len(probe.seats)))
        self.suit = probe.ruleset.deck.suit
        self.known = {s: list(h) for s, h in enumerate(hands or [])}
        self.known_talon = list(talon) if talon is not None else None
        self.takers: set[int] = set()  # seats seen to take a talon in a deal built for the facts
        # Actions refused only for the cards nobody saw in the seat's hand (a call that needs
        # three Kings), and the cards of a hand drawn that allows them: given to it again.
        self.seeking: set[int] = set()
        self.wanted: dict[int, set[str]] = {}
        self._rng: random.Random | None = None  # the deal's own draws (None: the first deal, in order)
        self._avoid: Mapping[int, set[str]] = {}  # cards the deal built should not leave a seat

    def _with_plan(self, deal: dict[str, Any]) -> dict[str, Any]:
        """The deal built, with the plan the dealer chose where the record's first action is that
        choice (deal.choice): the deal built is given card by card, and says its plan."""
        first = self.actions[0] if self.actions else None
        if first and first[0] == self.dealer and isinstance(first[1], dict) and set(first[1]) == {"choose"}:
            choice = self.ruleset.deal_choice
            if choice is not None and first[1]["choose"] in (choice.usual, *choice.plans):
                return {**deal, "plan": first[1]["choose"]}
        return deal

    # -- the facts ------------------------------------------------------------------------------
    def played(self) -> dict[int, list[str]]:
        """Each seat's cards seen: played, laid out in an announcement, discarded before eyes."""
        seen: dict[int, list[str]] = {s: [] for s in range(self.players)}
        for seat, action in self.actions:
            if not isinstance(action, dict) or not isinstance(seat, int) or seat not in seen:
                continue
            cards: list[Any] = []
            if isinstance(action.get("play"), str):
                cards = [action["play"]]
            elif isinstance(action.get("cards"), list):
                cards = action["cards"]
            elif isinstance(action.get("discard"), list) or isinstance(action.get("keep"), list):
                cards = action.get("discard") or action.get("keep") or []
            for card in cards:
                if isinstance(card, str) and card not in seen[seat]:
                    seen[seat].append(card)
        return seen

    def later(self, seat: int, index: int) -> list[str]:
        """The cards `seat` is seen with after action `index` (played, or laid out), in order."""
        seen: list[str] = []
        for s, a in self.actions[index + 1 :]:
            if s != seat or not isinstance(a, dict):
                continue
            if isinstance(a.get("play"), str):
                seen.append(a["play"])
            elif isinstance(a.get("cards"), list):
                seen += [c for c in a["cards"] if isinstance(c, str)]
        return seen

    def takes_unseen_talon(self, seat: int) -> bool:
        """Whether `seat` may hold cards of a talon nobody saw: it was seen to take the talon (in
        a deal built before), or it discards."""
        if self.known_talon is not None:
            return False
        return seat in self.takers or any(
            s == seat and isinstance(a, dict) and ("discard" in a or "keep" in a) for s, a in self.actions
        )

    # -- a deal that agrees with them ------------------------------------------------------------
    def build_deal(
        self, rng: random.Random | None, away: Mapping[int, set[str]], talon_has: set[str] | None = None
    ) -> tuple[dict[str, Any], list[int]]:
        """A deal that agrees with the facts; `rng` None: the first, in the pack's order. `away`:
        cards a seat must not be given where the facts leave it open; `talon_has`: cards seen in
        the hand of a seat that took a talon nobody saw, which came from that talon. Returns the
        deal and the seats given cards nobody saw."""
        talon = list(self.known_talon or [])
        hands = self._seen_hands(set(talon))
        from_talon = self._from_talon(rng, hands, talon_has or set()) if self.known_talon is None else []
        hands = {s: [c for c in hand if c not in from_talon] for s, hand in hands.items()}
        taken = set(talon).union(from_talon, *hands.values())
        pool = [c for c in self.pack if c not in taken]
        if rng is not None:
            rng.shuffle(pool)
        pool, filled = self._fill(hands, pool, away)
        if self.known_talon is None:
            talon = from_talon + pool[: self.talon_size - len(from_talon)]
        return {"hands": [hands[s] for s in range(self.players)], "talon": talon}, filled

    def _from_talon(self, rng: random.Random | None, hands: dict[int, list[str]], talon_has: set[str]) -> list[str]:
        """The cards seen in the hands of the seats that took a talon nobody saw that are put in
        that talon: those learnt (`talon_has`), those a hand cannot hold, and some at random."""
        from_talon = list(talon_has)
        for seat in self.seats:
            if not self.takes_unseen_talon(seat) and len(hands[seat]) <= self.sizes[seat]:
                continue
            movable = [c for c in hands[seat] if c not in self.known.get(seat, []) and c not in from_talon]
            # More cards seen than a hand holds: some came from the talon, the last ones seen in
            # the first deal built, any of them in the deals drawn at random.
            surplus = min(
                len(hands[seat]) - len([c for c in hands[seat] if c in from_talon]) - self.sizes[seat], len(movable)
            )
            moved = [] if surplus <= 0 else movable[-surplus:] if rng is None else rng.sample(movable, surplus)
            room = self.talon_size - len(from_talon) - len(moved)
            if rng is not None and room > 0 and rng.random() < 0.7:
                # Which of the cards it plays came from the talon is unknown: some are tried.
                rest = [c for c in movable if c not in moved]
                moved += rng.sample(rest, rng.randint(0, min(len(rest), room)))
            from_talon += moved
        return from_talon

    def _fill(
        self, hands: dict[int, list[str]], pool: list[str], away: Mapping[int, set[str]]
    ) -> tuple[list[str], list[int]]:
        """Each hand filled up from the `pool` of cards nobody saw; returns what is left of the
        pool and the seats given cards. A seat that took the talon held its cards too: it is filled
        last, and what it may not hold (or what it is to be given again) goes to the others' hands
        first, not to the talon."""
        takers = [s for s in self.seats if self.known_talon is None and self.takes_unseen_talon(s)]
        order = sorted(self.seats, key=lambda s: s in takers)
        filled: list[int] = []
        for place, seat in enumerate(order):
            need = self.sizes[seat] - len(hands[seat])
            if need <= 0:
                continue
            avoid = away.get(seat, set())
            wanted = self.wanted.get(seat, set())
            if seat in takers:
                # What is left is its hand and the talon it takes. The cards it may not hold go
                # into the hand as dealt: a keep before the talon is taken (Cego) lays them away,
                # and where hand and talon merge it makes no difference.
                given = sorted(pool, key=lambda c: (c not in wanted, c not in avoid))[:need]
            else:
                later = order[place + 1 :]
                not_later = set().union(*(away.get(s, set()) for s in later))
                for_later = set().union(*(self.wanted.get(s, set()) for s in later))
                allowed = sorted(
                    (c for c in pool if c not in avoid),
                    key=lambda c: (c not in wanted, c in for_later, c not in not_later),
                )
                given = [*allowed, *(c for c in pool if c in avoid)][:need]
            hands[seat] += given
            pool = [c for c in pool if c not in given]
            filled.append(seat)
        return pool, sorted(filled)

    def _seen_hands(self, taken: set[str]) -> dict[int, list[str]]:
        """Each seat's cards known or seen (none for a seat that sits out), but those `taken`."""
        played = self.played()
        hands: dict[int, list[str]] = {}
        for seat in range(self.players):
            if seat in self.seats_out:
                hands[seat] = []
                continue
            own = [c for c in [*self.known.get(seat, []), *played[seat]] if c not in taken]
            hands[seat] = list(dict.fromkeys(own))
            taken.update(hands[seat])
        return hands

    # -- the replay ------------------------------------------------------------------------------
    def replay(self) -> Observation:
        away: dict[int, set[str]] = {}  # cards a seat cannot have held (it showed it had none of their suit)
        shun: dict[int, set[str]] = {}  # cards a seat may not discard and need not keep: given to others first
        talon_has: set[str] = set()
        rng: random.Random | None = None
        result = Observation()
        stuck = False
        fruitless = 0  # deals drawn at random in a row that taught nothing new
        for attempt in range(MAX_ATTEMPTS):
            avoid = {seat: away.get(seat, set()) | shun.get(seat, set()) for seat in self.seats}
            deal, filled = self.build_deal(rng, avoid, talon_has)
            self._rng, self._avoid = rng, avoid
            try:
                return self._run(deal, filled, last=stuck or attempt == MAX_ATTEMPTS - 1)
            except _Retry as retry:
                if retry.talon and not retry.talon <= talon_has:
                    if len(talon_has | retry.talon) > self.talon_size:
                        stuck = True  # (the cards cannot all have come from the talon)
                    talon_has |= retry.talon
                elif retry.away and not retry.away <= away.get(retry.seat, set()):
                    away.setdefault(retry.seat, set()).update(retry.away)
                elif retry.shun and not retry.shun <= shun.get(retry.seat, set()) and fruitless < MAX_FRUITLESS // 2:
                    shun.setdefault(retry.seat, set()).update(retry.shun)
                elif retry.seeking is not None and retry.seeking not in self.seeking:
                    self.seeking.add(retry.seeking)
                    self.wanted.pop(retry.seat, None)  # (a hand for both this and what it allowed before)
                    rng = rng or random.Random(attempt)
                elif rng is None:
                    rng = random.Random(attempt)  # other deals, drawn at random
                else:
                    fruitless += 1
                    if fruitless == MAX_FRUITLESS // 2:
                        shun.clear()  # (a guess that has not helped: the draws are free again)
                    # Nothing new learnt in so many deals: the facts leave no deal in which every
                    # action is legal (someone broke a rule, and what is known cannot show who yet).
                    stuck = fruitless >= (MAX_FRUITLESS * 4 if retry.seeking is not None else MAX_FRUITLESS)
            except DealError as exc:
                result.failures.append(
                    (None, "the facts do not make a deal: " + "; ".join(message for _, message in exc.places))
                )
                return result
        result.failures.append((None, "no deal agreeing with the facts could be found"))  # pragma: no cover
        return result

    def _run(self, deal: dict[str, Any], filled: list[int], *, last: bool) -> Observation:
        if self.chooses and not self.actions:
            # Nothing written down yet where the dealer first chooses how to deal (deal.choice):
            # the game waits for that choice, nothing dealt. A record whose first action is not
            # the choice (a deal given card by card, or the plan not written down) starts dealt.
            game = Game(self.ruleset, self.players, self.dealer, seed=0, pot=self.pot)
        else:
            game = Game(self.ruleset, self.players, self.dealer, deal=self._with_plan(deal), pot=self.pot)
        found = Observation(game, deal, filled_in=filled)
        try:
            return self._actions(game, found, filled, last=last)
        finally:
            # Who took a talon is the same in every deal built: the next deal is built knowing it.
            self.takers.update(e["seat"] for e in game.events if e["type"] == "talon_taken")

    def _actions(self, game: Game, found: Observation, filled: list[int], *, last: bool) -> Observation:
        index = 1 if game.deal_plan is not None else 0  # the dealer's choice dealt the deal built
        while index < len(self.actions):
            seat, action = self.actions[index]
            unseen = self._unseen_due(game, seat, action)
            if unseen is not None:
                if not self._filled(game, found, index, unseen, last=last):
                    return found
                continue
            if self._no_announcement(game, seat, action):
                index += 1  # the declarer had nothing to announce in the deal built: nothing to do
                continue
            if isinstance(action, dict) and action.get("discard") == UNKNOWN:
                if game.phase is not Phase.EXCHANGE or game.to_act != seat:
                    found.failures.append((index, f"action {index}: seat {seat} discards, but {_state(game)}"))
                    found.stopped_at = index
                    return found
                if not self._filled(game, found, index, "discard", last=last):
                    return found
                index += 1
                continue
            try:
                self._penalised(game, index, seat, action, last=last)
                game.apply(seat, action)
                if index in self.seeking:
                    # A hand that allows this seat's action, drawn at last: kept in later deals.
                    self.wanted[seat] = self._needed(found.deal, seat, index, plain=not found.discards_filled_in)
            except InvalidActionError as exc:
                found.failures.append((index, f"action {index} {_shown(seat, action)} is not an action: {exc}"))
                found.stopped_at = index
                return found
            except IllegalActionError as exc:
                if not self._refused(game, found, index, seat, action, exc, filled, last=last):
                    return found
            except TarockError as exc:
                found.failures.append((index, f"action {index} {_shown(seat, action)} failed: {exc}"))
                found.stopped_at = index
                return found
            index += 1
        if index == len(self.actions) and self.actions:
            unseen = self._unseen_due(game, -1, None)
            if unseen is not None and unseen != "announce":
                self._filled(game, found, index, unseen, last=last)
        return found

    def _needed(self, deal: dict[str, Any], seat: int, index: int, *, plain: bool) -> set[str]:
        """The cards nobody saw in `seat`'s hand as dealt that its action `index` needs: each is
        swapped in turn with a card nobody saw elsewhere, and kept if the actions up to `index`
        are then refused. (Where something nobody saw was filled in before it, the whole hand.)"""
        seen = set().union(*self.played().values(), *self.known.values())
        hands: list[list[str]] = [list(h) for h in deal["hands"]]
        own = [c for c in hands[seat] if c not in seen]
        if not plain:
            return set(own)
        elsewhere = [(s, c) for s, h in enumerate(hands) if s != seat for c in h if c not in seen]
        needed: set[str] = set()
        for card in own:
            swap = next(((s, c) for s, c in elsewhere if self.suit[c] != self.suit[card]), None)
            if swap is None:
                needed.add(card)
                continue
            other, into = swap
            variant = [list(h) for h in hands]
            variant[seat][variant[seat].index(card)] = into
            variant[other][variant[other].index(into)] = card
            try:
                game = Game(self.ruleset, self.players, self.dealer, deal={**deal, "hands": variant}, pot=self.pot)
                for s, a in self.actions[: index + 1]:
                    game.apply(s, a)
            except (TarockError, DealError):
                needed.add(card)
        return needed

    def _unseen_due(self, game: Game, seat: int, action: Any) -> str | None:
        """What the game waits for that the record does not give, because nobody sees it: a
        discard or a keep face down (`discard`, `keep`), or the declarer's choice to lay nothing
        out before the first lead (`announce`: the first card led says it); None if nothing."""
        if game.to_act is None:
            return None
        due: str | None = None
        if game.phase is Phase.EXCHANGE:
            kinds = {_kind(a) for a in game.legal_actions()}
            if len(kinds) == 1 and kinds <= {"discard", "keep"}:
                due = kinds.pop()
        elif (
            game.phase is Phase.ANNOUNCE
            and isinstance(game.announcement, DeclarerAnnouncement)
            and _kind(action) == "play"  # (a call, the announcement itself, is typed as seen)
        ):
            due = "announce"
        if due is None or (seat == game.to_act and _kind(action) == due):
            return None
        return due

    def _no_announcement(self, game: Game, seat: int, action: Any) -> bool:
        """Whether `action` is the declarer's word that it lays nothing out (`pass`) where the
        deal built gave it nothing to lay out: the engine then skipped the announcement."""
        trick = game.current_trick
        return (
            action == PASS
            and seat == game.declarer
            and game.phase is Phase.PLAY
            and game.announcement is None
            and bool(game.ruleset.announcements)
            and game.ruleset.announcing is None
            and game.trick_number == 1
            and trick is not None
            and not trick.cards
        )

    def _filled(self, game: Game, found: Observation, index: int, kind: str, *, last: bool) -> bool:
        """Fill in what nobody saw (False: no deal tried allows it; the replay stops there)."""
        seat = game.to_act
        assert seat is not None
        held = list(game.hands[seat])
        try:
            self._fill_unseen(game, found, index, kind)
            if index in self.seeking:
                # A hand drawn at last that lets the seat do what nobody saw: kept in later deals.
                seen = set().union(*self.played().values(), *self.known.values())
                self.wanted[seat] = {c for c in held if c not in seen}
        except _Retry:
            if not last:
                raise
            found.failures.append(
                (
                    index,
                    f"action {index}: seat {seat} must {kind} cards nobody saw first, but no deal tried "
                    f"lets it {kind} as the rules allow and still play the cards it was seen to play",
                )
            )
            found.stopped_at = index
            return False
        return True

    def _fill_unseen(self, game: Game, found: Observation, index: int, kind: str) -> None:
        """What nobody saw: a discard of cards the seat holds and never plays, a keep of those it
        plays, no announcement (raises _Retry if the deal built cannot give one the rules allow)."""
        seat = game.to_act
        assert seat is not None
        if kind == "announce":
            game.apply(seat, PASS)
            return
        keeps = set(self.later(seat, index - 1))
        legal: list[Any] = game.legal_actions()
        template = legal[0][kind]
        if kind == "keep":
            chosen = self._keep(keeps, legal)
        elif isinstance(template, dict):
            # Every discard holds the template's `including` (listed first in `from`).
            including = [str(c) for c in template.get("including", ())]
            count = int(template["count"]) - len(including)
            candidates = [str(c) for c in template["from"] if c not in keeps and c not in including]
            if keeps.intersection(including) or len(candidates) < count:
                raise _Retry(
                    seat, set(), shun=self._undiscardable(game, seat, keeps, set(template["from"])), seeking=index
                )
            if self._rng is not None:
                self._rng.shuffle(candidates)
            # First the cards the seat showed later it did not hold (a suit it could not follow).
            gone = self._avoid.get(seat, set())
            candidates.sort(key=lambda c: c not in gone)
            chosen = including + candidates[:count]
        else:
            # A legal discard of none of the cards the seat plays later (the rules may judge the
            # discard as a whole, so not any cards of the discards listed).
            fitting = [list(a["discard"]) for a in legal if not keeps.intersection(a["discard"])]
            if not fitting:
                discardable = {str(c) for a in legal for c in a["discard"]}
                raise _Retry(seat, set(), shun=self._undiscardable(game, seat, keeps, discardable), seeking=index)
            if self._rng is not None:
                self._rng.shuffle(fitting)
            gone = self._avoid.get(seat, set())
            chosen = max(fitting, key=lambda cards: sum(c in gone for c in cards))
        try:
            game.apply(seat, {kind: chosen})
        except IllegalActionError:
            raise _Retry(seat, set(), seeking=index) from None
        if kind == "discard":
            found.discards_filled_in.append(seat)

    def _undiscardable(self, game: Game, seat: int, keeps: set[str], discardable: set[str]) -> set[str]:
        """The cards nobody saw that the seat holds and may not discard: too many of them to
        keep. Kept away from it (and from the talon it takes) in the next deal built."""
        seen = set().union(*self.played().values(), *self.known.values())
        stuck = {c for c in game.hands[seat] if c not in discardable and c not in keeps and c not in seen}
        # Those of a hand found for an earlier action (three Kings for a call) last.
        return (stuck - self.wanted.get(seat, set())) or stuck

    @staticmethod
    def _keep(keeps: set[str], legal: list[Any]) -> list[str]:
        """The keep of most of the cards the seat plays later (of the keeps listed, or of the
        template's cards)."""
        listed = [list(a["keep"]) for a in legal if isinstance(a.get("keep"), list)]
        if listed:
            return max(listed, key=lambda cards: sum(c in keeps for c in cards))
        template = legal[0]["keep"]
        ordered = sorted(template["from"], key=lambda c: c not in keeps)
        return [str(c) for c in ordered[: int(template["count"])]]

    def _refused(
        self,
        game: Game,
        found: Observation,
        index: int,
        seat: int,
        action: Any,
        exc: IllegalActionError,
        filled: list[int],
        *,
        last: bool,
    ) -> bool:
        """Judge a refusal: a proven departure (True: the game goes on, when it can), or a deal to
        build again (raises _Retry), or the end of what can be checked (False)."""
        if game.is_over and not last and (filled or found.discards_filled_in or self.takers):
            # The deal built ended before the record does (a hand shown and claimed, say): the
            # cards nobody saw are to blame, not the table.
            raise _Retry(seat, set())
        card = action.get("play") if isinstance(action, dict) else None
        if game.phase is Phase.PLAY and isinstance(card, str) and seat == game.to_act:
            return self._refused_card(game, found, index, seat, card, exc, last=last)
        kinds = {_kind(a) for a in game.legal_actions()}
        if game.phase is Phase.EXCHANGE and kinds and not kinds.isdisjoint(_CHOICES):
            kinds |= _CHOICES  # (which of them a seat is offered may depend on its hand)
        if _kind(action) not in kinds:
            # Not an action of this moment (a card during the auction, a call during play): a slip
            # of entry or a record out of order, never a rule the table plays otherwise.
            found.failures.append((index, f"action {index} {_shown(seat, action)}: {exc}"))
            found.stopped_at = index
            return False
        if game.phase is not Phase.AUCTION and seat != game.to_act:
            found.failures.append((index, f"action {index} {_shown(seat, action)}: {exc}"))
            found.stopped_at = index
            return False
        certain = seat not in filled and not self.takes_unseen_talon(seat)
        if not certain and not last:
            raise _Retry(seat, set(), seeking=index)
        phase = game.auction.state.phase.name if game.phase is Phase.AUCTION else game.phase.value
        if game.phase is Phase.AUCTION:
            rule = f"auction.phases.{phase}." + ("compulsory" if action == "pass" else f"ladder: {action}")
        else:
            rule = f"{phase}: {action if isinstance(action, str) else _kind(action)}"
        why = str(exc) if certain else f"{exc} (not certain: the hand was not seen whole; no deal tried allows it)"
        departure = Departure(index, seat, action, rule, why, certain, index in self.noted)
        found.departures.append(departure)
        found.failures.append(
            (
                index,
                f"action {index} {_shown(seat, action)} departs from the ruleset: {why}; the replay cannot go past it",
            )
        )
        found.stopped_at = index
        return False

    def _refused_card(
        self, game: Game, found: Observation, index: int, seat: int, card: str, exc: IllegalActionError, *, last: bool
    ) -> bool:
        """Judge a card refused: a departure proven by a card of the suit asked for that the seat
        played later or is known to hold (played as the table played it), or a deal to build
        again (raises _Retry), or the end of what can be checked (False)."""
        if card not in game.hands[seat]:
            missing = {c for c in [card, *self.later(seat, index)] if c not in game.hands[seat]}
            self.takers.update(e["seat"] for e in game.events if e["type"] == "talon_taken")
            if not last and self.takes_unseen_talon(seat) and not self._played_already(game, card):
                # Cards it plays that it does not hold came from the talon it took.
                raise _Retry(seat, set(), talon={c for c in missing if not self._played_already(game, c)})
            found.failures.append(
                (index, f"action {index}: seat {seat} plays {card}, which {_whereabouts(game, card)}")
            )
            found.stopped_at = index
            return False
        legal = game.legal_cards(seat)
        proof = self._proof(index, seat, legal, last=last)
        departure = self._play_departure(game, index, seat, card, legal, proof[0] if proof else None, exc)
        found.departures.append(departure)
        if proof and not departure.noted:
            found.failures.append(
                (
                    index,
                    f"action {index} {_shown(seat, {'play': card})} departs from the ruleset: {departure.reason}; "
                    f"if the table plays so, note it under `departures:` (tarock observe asks)",
                )
            )
        # Played as the table played it: the engine's own step, without the duty it broke.
        game.apply_departure(seat, card)
        return True

    def _proof(self, index: int, seat: int, legal: list[str], *, last: bool) -> list[str]:
        """The cards that prove a card of `seat`'s at `index` broke a duty of play: ones it had to
        play (`legal`) that it played later or is known to hold. None: only cards filled in for
        the unknown made it illegal, and (unless it is the `last` deal tried) the seat showed it
        had none of their suits then, so none of those suits is given to it again (_Retry)."""
        later = self.later(seat, index)
        proof = [c for c in later if c in legal] + [c for c in self.known.get(seat, []) if c in legal]
        if not proof and not last:
            suits = {self.suit[c] for c in legal}
            raise _Retry(seat, {c for c in self.pack if self.suit[c] in suits and c not in later})
        return proof

    def _penalised(self, game: Game, index: int, seat: int, action: Any, *, last: bool) -> None:
        """Where the ruleset penalises a card against the duty of play instead of refusing it, the
        engine would take such a card and end the deal: only when the facts prove the offence
        (raises _Retry when the cards filled in for the unknown are to blame)."""
        rule = game.ruleset.penalties
        card = action.get("play") if isinstance(action, dict) else None
        if (
            rule is not None
            and rule.mode == "penalize"
            and game.phase is Phase.PLAY
            and seat == game.to_act
            and isinstance(card, str)
            and card in game.hands[seat]
        ):
            legal = game.legal_cards(seat)
            if card not in legal:
                self._proof(index, seat, legal, last=last)

    @staticmethod
    def _played_already(game: Game, card: str) -> bool:
        return any(card in trick.cards for trick in game.tricks)

    def _play_departure(
        self, game: Game, index: int, seat: int, card: str, legal: list[str], held: str | None, exc: IllegalActionError
    ) -> Departure:
        """The departure a refused card is; `held`: the card that proves it (None: not proven,
        no deal agreeing with the facts allows the card, but the facts cannot yet show who broke
        a rule)."""
        trick = game.current_trick
        assert trick is not None
        trumps = {TRUMP} | ({game.trump_suit} if game.trump_suit else set())

        def is_trump(c: str) -> bool:
            return self.suit[c] in trumps

        number = game.trick_number
        plays_held = next(
            (n for n, (s, a) in enumerate(self.actions) if n > index and s == seat and a == {"play": held}), None
        )
        when = f" (action {plays_held})" if plays_held is not None else " (known to be in the hand)"
        if trick.cards and self.suit[card] != self.suit[trick.cards[0]]:
            led = self.suit[trick.cards[0]]
            if any(self.suit[c] == led for c in legal):
                rule, what = "play.follow_suit", f"did not follow {self._suit_name(led)}"
            elif any(is_trump(c) for c in legal) and not is_trump(card):
                rule, what = "play.when_void", "did not trump"
            else:
                rule, what = "play", "broke a duty of play"
        elif trick.cards and self.suit[card] == self.suit[trick.cards[0]]:
            rule, what = "play.must_beat", "did not beat the trick"
        else:
            rule, what = "play.lead", "led a card it may not lead"
        if held is None:
            reason = (
                f"seat {seat} played {card} in trick {number}, which no deal agreeing with what is known allows: "
                f"someone broke a rule (perhaps this seat {what}), but the facts do not show who yet"
            )
            return Departure(index, seat, {"play": card}, rule, reason, False, index in self.noted)
        reason = (
            f"seat {seat} {what} in trick {number} (played {card}) but held {held}, which it played later{when}: "
            f"a revoke ({exc})"
            if plays_held is not None
            else f"seat {seat} {what} in trick {number} (played {card}) but held {held}{when} ({exc})"
        )
        return Departure(index, seat, {"play": card}, rule, reason, True, index in self.noted)

    def _suit_name(self, suit: str) -> str:
        return "trumps" if suit == TRUMP else self.ruleset.deck.suit_names.get(suit, suit)


def observed_game(ruleset: Ruleset, data: Mapping[str, Any]) -> ObservedGame:
    """The observed game of a checked record's data (raises TableError for a bad table)."""
    observed = data.get("observed") or {}
    noted = {int(d["at"]) for d in data.get("departures") or [] if isinstance(d, Mapping) and "at" in d}
    known = observed.get("hands") if isinstance(observed, Mapping) else None
    talon = observed.get("talon") if isinstance(observed, Mapping) else None
    deal = data.get("deal")
    if isinstance(deal, Mapping):  # a record with the hands seen: every fact known
        known, talon = deal.get("hands"), deal.get("talon")
    return ObservedGame(
        ruleset,
        data["players"],
        data.get("dealer", 0),
        data.get("actions") or [],
        hands=known,
        talon=talon,
        noted=noted,
        pot=data.get("pot"),
    )


def _state(game: Game) -> str:
    return f"the game is in the {game.phase.value} with seat {game.to_act} to act"


def _whereabouts(game: Game, card: str) -> str:
    for trick in game.tricks:
        if card in trick.cards:
            return "was played already"
    return "cannot be in its hand now"


def _kind(action: Any) -> str:
    """What sort of action it is: `call` for a word, else its first key (`play`, `discard`, …)."""
    if isinstance(action, dict) and action:
        return str(next(iter(action)))
    return "call" if isinstance(action, str) else repr(type(action))


def shown_action(seat: Any, action: Any) -> str:
    """An entry as the record writes it: `[seat, action]`."""
    return _shown(seat, action)


def _shown(seat: Any, action: Any) -> str:
    import json

    try:
        return json.dumps([seat, action], ensure_ascii=False)
    except (TypeError, ValueError):
        return repr([seat, action])


__all__ = [
    "UNKNOWN",
    "Departure",
    "Observation",
    "ObservedGame",
    "TableError",
    "is_observed",
    "observed_game",
    "shown_action",
]
