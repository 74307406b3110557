"""The rules of trick play beyond following suit and trumping: small objects, each with its scope.

Following suit and trumping are the base tables (`TrickRules`): every turn has them. Every other
rule of trick play is a `PlayRule`. It declares its **scope** — whose turns it concerns (every
seat's, the declarer's, or the holders' of given cards), in which tricks, leading or following —
by `applies`, and **what it does**, by the methods it has, in the order a turn takes them:

- `usable` and `led` change what following means: the cards a hand may follow with (a withheld
  Gstieß waits for the last trick) and the cards that fix the suit (a withheld card does not; nor
  does an exposed card led that nobody can follow);
- `decide` decides the duty instead of following suit (the schedule of the first tricks, the
  exposed cards' opening leads, the tricks played together): the first rule to answer decides;
- `allow` at stage `FOLLOW` changes what following allowed (must beat, trumps not led, the Pagat
  only as the last trump, the Gstieß withheld instead of played), skipped when a rule decided;
- `allow` at stage `NARROW` narrows the duty whatever decided it (duties over the trick history,
  cards kept back for their trick, cards laid out).

It may also react when a seat of its scope plays a card (`before_play`, `after_play`: reveal the
partner, forfeit a kept card played early, show the open hands, withhold the Gstieß), decide a
trick's winner (`judges`, `winner`: the Emperor trick, powerless cards), act when a trick ends
(`trick_done`: the talon's card into the first tricks) and say who leads next (`next_leader`). A
refusal asks the rule that removed the card why (`why`).

`TrickPlay` keeps, for each seat, the rules in scope for its turn (worked out at the start of
the tricks where a rule's scope may change, `rescoped_at`, or at every trick's start until the
rule is `spent`; when a rule's own step changes it; and again for a seat when it plays a card a
rule watches); a turn with none takes the base
tables' quick steps, and a trick with no rule judging it is won by the strengths table. That quick
way is not a second path kept beside the rules: it is what the rules give when none is in scope.

Which rules a contract has is the plan's business (engine/plan.py); the rules bound to a deal (the
cards kept back for announced bonuses, the called card, the cards laid out) join them when play
starts.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import filterfalse
from typing import TYPE_CHECKING, ClassVar, Literal, NamedTuple

from interpreter.language.model import TRUMP, Duty, EarlyEnd, ScheduledTrick, TrickException, Withhold

if TYPE_CHECKING:
    from interpreter.engine.play import Trick, TrickPlay

FOLLOW, NARROW = 0, 1  # where a rule's `allow` acts: on what following allowed, or on the duty whatever decided it
Seats = Literal["all", "declarer", "holders"]
Position = Literal["any", "lead", "follow"]  # the trick's leader, a follower, or either


@dataclass(frozen=True)
class Scope:
    """Whose turns a rule concerns: `seats` (every seat's, the declarer's, or the holders' of
    `cards`), in tricks `first` to `last` (1 = the first; `last` 0: to the end, below 0: counted
    from the end, -1 the last), as the trick's leader, a follower or either (`turn`)."""

    seats: Seats = "all"
    cards: frozenset[str] = frozenset()
    first: int = 1
    last: int = 0
    turn: Position = "any"

    def covers(self, play: TrickPlay, seat: int) -> bool:
        number = play.number
        if number < self.first or (self.last and number > play.trick_number(self.last)):
            return False
        if self.seats == "declarer" and seat != play.declarer:
            return False
        if self.seats == "holders" and self.cards.isdisjoint(play.hands[seat]):
            return False
        return self.turn == "any" or (seat == play.trick.leader) == (self.turn == "lead")


class PlayRule:
    """A rule of trick play: its scope, and what it does (see the module's documentation)."""

    stage: ClassVar[int] = NARROW
    turns: ClassVar[bool] = True  # False: it concerns no turn's cards (it judges tricks, or acts at their end)
    scope: Scope = Scope()
    origin: str = ""  # where it comes from, for people: "play.must_beat", "bonus pagat"

    def applies(self, play: TrickPlay, seat: int) -> bool:
        """Whether the rule concerns `seat`'s turn in the trick now being played."""
        return self.scope.covers(play, seat)

    def watched(self) -> frozenset[str]:
        """The cards whose playing may change whose turns it concerns: a scope of their holders'."""
        return self.scope.cards if self.scope.seats == "holders" else frozenset()

    def rescoped_at(self, n_tricks: int) -> frozenset[int] | None:
        """The tricks (of a play of `n_tricks`) at whose start whose turns the rule concerns, or
        whether it judges the trick, may change; None: at any trick's start. A scope of some
        tricks changes where they begin and after they end; one of the leader or the followers,
        or worked out by `applies` or `judges` from the play, at any trick unless the rule says
        better. What a rule's own steps change (a card withheld, the Excuse led) they rescope at
        once, and a card the rule watches rescopes its holder's turns when played."""
        cls = type(self)
        if cls.applies is not PlayRule.applies or cls.judges is not PlayRule.judges:
            return None
        scope = self.scope
        if not self.turns:
            return frozenset()
        if scope.turn != "any":
            return None
        starts = {scope.first} if scope.first > 1 else set()
        if scope.last:
            starts.add((scope.last if scope.last > 0 else n_tricks + 1 + scope.last) + 1)
        return frozenset(starts)

    def spent(self, play: TrickPlay) -> bool:
        """Whether the rule will concern no turn and judge no trick for the rest of play (asked at
        a trick's start, its scope just worked out, of a rule rescoped at every trick's start):
        once every such rule is spent, the tricks' starts rescope only where the other rules say
        (`Rescoping.settled`). The opening leads once led, the exposed cards once played."""
        return False

    # -- a turn's cards, by the stage it belongs to ------------------------------------------------
    def usable(self, play: TrickPlay, seat: int, usable: list[str]) -> list[str]:
        return usable

    def led(self, play: TrickPlay, seat: int, led: list[str], usable: list[str]) -> list[str]:
        return led

    def decide(self, play: TrickPlay, seat: int, usable: list[str]) -> list[str] | None:
        return None

    def allow(self, play: TrickPlay, seat: int, allowed: list[str], usable: list[str]) -> list[str]:
        return allowed

    def why(self, play: TrickPlay, seat: int, card: str, allowed: list[str], legal: list[str]) -> str:
        """Why `card` is not among `allowed`, what this rule left (`legal`: what every rule left)."""
        return f"{self.origin} does not allow {card} now; you may play {', '.join(legal)}"

    # -- reactions ---------------------------------------------------------------------------------
    def before_play(self, play: TrickPlay, seat: int, card: str) -> None:
        """`seat`, in the rule's scope, is about to play `card` (still in its hand)."""

    def after_play(self, play: TrickPlay, seat: int, card: str) -> None:
        """`seat`, in the rule's scope, played `card` (in the trick, its event written)."""

    # -- the trick ---------------------------------------------------------------------------------
    def judges(self, play: TrickPlay) -> bool:
        """Whether it decides, or changes how the tables decide, the winner of the trick now
        being played (asked at its start)."""
        return False

    def winner(self, play: TrickPlay, trick: Trick) -> int | None:
        """The index in `trick` of the card that wins it, or None: the tables decide."""
        return None

    def trick_done(self, play: TrickPlay, trick: Trick, number: int) -> None:
        """Trick `number` is complete and reported (its winner known)."""

    def next_leader(self, play: TrickPlay) -> int | None:
        """Who leads the next trick instead of the last trick's winner, or None."""
        return None

    def start(self, play: TrickPlay) -> None:
        """Play starts (before the first lead)."""


def has(rule: PlayRule, method: str) -> bool:
    """Whether `rule` has a method of its own for that step (not PlayRule's, which does nothing)."""
    return getattr(type(rule), method) is not getattr(PlayRule, method)


@dataclass(frozen=True, slots=True, eq=False)
class Turn:
    """The rules in scope for a seat's turn, by the step each takes part in (in the book's order):
    only those with a method of their own for it, so that no step asks a rule that does nothing.
    (Slots, not a named tuple: a ruled turn reads its fields, and a slot is read quicker.)"""

    usable: tuple[PlayRule, ...]  # what following means: the cards it may take
    led: tuple[PlayRule, ...]  # and the cards that fix the suit
    decide: tuple[PlayRule, ...]
    follow: tuple[PlayRule, ...]  # allow, on what following allowed
    narrow: tuple[PlayRule, ...]  # allow, on the duty whatever decided it
    before: tuple[PlayRule, ...]  # before_play
    after: tuple[PlayRule, ...]  # after_play

    def __iter__(self) -> Iterator[tuple[PlayRule, ...]]:
        """The steps' rules, step by step."""
        return iter((self.usable, self.led, self.decide, self.follow, self.narrow, self.before, self.after))


class Rescoping(NamedTuple):
    """At which tricks' start the scopes are worked out again, in a play of some number of tricks."""

    at: frozenset[int] | None  # where any rule's scope may change (None: at every trick's start)
    unsettled: tuple[PlayRule, ...]  # the rules that make it every trick's (their `rescoped_at` is None)
    settled: frozenset[int]  # where the others' may change: `at` once every unsettled rule is spent


@dataclass(frozen=True)
class RuleBook:
    """A deal's rules of play, in the order they act, and the parts of them each step of trick
    play reads (made once per contract where no rule is bound to the deal: `PlayPlan.book`)."""

    rules: tuple[PlayRule, ...]
    turns: tuple[PlayRule, ...]  # those that concern turns (whose scope TrickPlay keeps per seat)
    judging: tuple[PlayRule, ...]  # those that may judge a trick
    ending: tuple[PlayRule, ...]  # those that act when a trick ends
    leading: tuple[PlayRule, ...]  # those that may say who leads next
    watched: frozenset[str]  # cards whose playing may change whose turns a rule concerns
    asked: tuple[tuple[PlayRule, int], ...]  # the rules of `turns`, each with its bit in a scope
    starting: tuple[PlayRule, ...]  # those with a step when play starts
    # Which rules of `turns` are in scope (a bit each) -> the Turn they make (None: none)
    by_scope: dict[int, Turn | None] = field(default_factory=lambda: {0: None})
    # A play's number of tricks -> at which tricks' start the rules are rescoped
    rescopings: dict[int, Rescoping] = field(default_factory=dict)

    @classmethod
    def of(cls, rules: tuple[PlayRule, ...]) -> RuleBook:
        turns = tuple(r for r in rules if r.turns)
        return cls(
            rules,
            turns,
            tuple(r for r in rules if has(r, "judges")),
            tuple(r for r in rules if has(r, "trick_done")),
            tuple(r for r in rules if has(r, "next_leader")),
            frozenset().union(*(r.watched() for r in rules)),
            tuple((rule, 1 << i) for i, rule in enumerate(turns)),
            tuple(r for r in rules if has(r, "start")),
        )

    def rescoping_of(self, n_tricks: int) -> Rescoping:
        """When whose turns the rules concern, and which judge the trick, are worked out again
        at a trick's start, in a play of `n_tricks` (made once per number of tricks)."""
        found = self.rescopings.get(n_tricks)
        if found is None:
            unsettled: list[PlayRule] = []
            starts: set[int] = set()
            for rule in self.rules:
                at = rule.rescoped_at(n_tricks)
                if at is None:
                    unsettled.append(rule)
                else:
                    starts |= at
            settled = frozenset(starts)
            found = self.rescopings[n_tricks] = Rescoping(None if unsettled else settled, tuple(unsettled), settled)
        return found

    def turn(self, scope: int) -> Turn | None:
        """The Turn of the rules of `turns` whose bits are set in `scope` (made once each)."""
        if scope in self.by_scope:
            return self.by_scope[scope]
        rules = [r for i, r in enumerate(self.turns) if scope >> i & 1]
        found = self.by_scope[scope] = Turn(
            tuple(r for r in rules if has(r, "usable")),
            tuple(r for r in rules if has(r, "led")),
            tuple(r for r in rules if has(r, "decide")),
            tuple(r for r in rules if has(r, "allow") and r.stage == FOLLOW),
            tuple(r for r in rules if has(r, "allow") and r.stage != FOLLOW),
            tuple(r for r in rules if has(r, "before_play")),
            tuple(r for r in rules if has(r, "after_play")),
        )
        return found


# -- following ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MustBeat(PlayRule):
    """A player who must follow or trump must head the trick if able (Stichzwang)."""

    stage: ClassVar[int] = FOLLOW
    scope: Scope = Scope(turn="follow")
    origin: str = "play.must_beat"

    def allow(self, play: TrickPlay, seat: int, allowed: list[str], usable: list[str]) -> list[str]:
        cards = play.trick.cards
        excused = play.excused
        if excused and not excused.isdisjoint(cards):
            cards = [c for c in cards if c not in excused]  # the Excuse takes no part in the trick
        if cards and play.tables.forced(allowed, cards):
            return play.tables.beating(allowed, cards)
        return allowed

    def why(self, play: TrickPlay, seat: int, card: str, allowed: list[str], legal: list[str]) -> str:
        return f"must beat the trick: you can with {play.strongest_first(allowed)}"


@dataclass(frozen=True)
class LeadTrumps(PlayRule):
    """Trumps may not be led while the leader holds other cards (Farben games)."""

    stage: ClassVar[int] = FOLLOW
    scope: Scope = Scope(turn="lead")
    origin: str = "play.trumps.lead"

    def allow(self, play: TrickPlay, seat: int, allowed: list[str], usable: list[str]) -> list[str]:
        if play.trick.cards:
            return allowed
        follow = play.tables.follow
        return [c for c in allowed if follow[c] != TRUMP] or allowed

    def why(self, play: TrickPlay, seat: int, card: str, allowed: list[str], legal: list[str]) -> str:
        return f"trumps may not be led while you hold other cards: lead one of {play.strongest_first(legal)}"


@dataclass(frozen=True)
class LastOfSuit(PlayRule):
    """These cards may be played only when their holder has no other card that follows as they
    do (the Pagat only as the last trump in negative games)."""

    cards: frozenset[str]
    stage: ClassVar[int] = FOLLOW
    origin: str = "play.last_of_suit"
    scope: Scope = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scope", Scope("holders", self.cards))

    def allow(self, play: TrickPlay, seat: int, allowed: list[str], usable: list[str]) -> list[str]:
        follow, last = play.tables.follow, self.cards
        kept = [c for c in allowed if c not in last or not any(o != c and follow[o] == follow[c] for o in usable)]
        return kept or allowed

    def why(self, play: TrickPlay, seat: int, card: str, allowed: list[str], legal: list[str]) -> str:
        what = "trump" if play.tables.follow[card] == TRUMP else "card of its suit"
        return f"{play.deck.name_of(card)} may be played only as your last {what}: you may play {play.strongest_first(legal)}"


@dataclass(frozen=True)
class WithholdCard(PlayRule):
    """A card its holder may keep back when it is the only card following allows (Gstiesieren):
    the holder plays any other card instead, and the card waits for the last trick (`Withheld`).
    In scope for the card's holder (the declarer too where anyone may withhold it) before the
    last trick."""

    rule: Withhold
    stage: ClassVar[int] = FOLLOW
    origin: str = "play.withhold"
    scope: Scope = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scope", Scope("holders", frozenset({self.rule.card})))

    def applies(self, play: TrickPlay, seat: int) -> bool:
        rule = self.rule
        return (
            rule.card in play.hands[seat]
            and seat not in play.withheld
            and play.number < play.n_tricks
            and (rule.by == "anyone" or seat != play.declarer)
        )

    def may_withhold(self, play: TrickPlay, seat: int, duty: list[str], usable: list[str]) -> bool:
        rule = self.rule
        return (
            duty == [rule.card]
            and len(usable) > 1
            and (rule.when is None or bool(rule.when({"hand": frozenset(play.hands[seat])})))
        )

    def allow(self, play: TrickPlay, seat: int, allowed: list[str], usable: list[str]) -> list[str]:
        return list(usable) if self.may_withhold(play, seat, allowed, usable) else allowed

    def rescoped_at(self, n_tricks: int) -> frozenset[int] | None:
        # In scope for the card's holder until the last trick; playing the card (watched) or
        # withholding it (which rescopes) ends that sooner.
        return frozenset({n_tricks})

    def before_play(self, play: TrickPlay, seat: int, card: str) -> None:
        # Playing another card when the card was the only one following allowed withholds it.
        if card == self.rule.card:
            return
        duty = play.duty_before(seat, self)
        if duty is not None and self.may_withhold(play, seat, duty, play.usable(seat)):
            play.withheld[seat] = self.rule.card
            play.rescope()


def fixing(play: TrickPlay, led: list[str]) -> list[str]:
    """The cards of the trick so far (`led`) that fix the suit to follow: all but the suitless
    ones (a withheld card, the Excuse), so that the card after a suitless lead fixes it."""
    suitless = play.suitless(play.number)
    return [c for c in led if c not in suitless] if suitless else led


@dataclass(frozen=True)
class Withheld(PlayRule):
    """A withheld card stays in its holder's hand until the last trick, where it has no power
    and fixes no suit (the next card does); the settlement gives it to its holder's side or the
    last trick's winner (`withhold.goes_to`). In scope for the withholder before the last
    trick, and for every seat in it."""

    origin: str = "play.withhold"

    def applies(self, play: TrickPlay, seat: int) -> bool:
        withheld = play.withheld
        return bool(withheld) and (seat in withheld or play.number >= play.n_tricks)

    def usable(self, play: TrickPlay, seat: int, usable: list[str]) -> list[str]:
        withheld = play.withheld.get(seat)
        if withheld is not None and withheld in usable and len(usable) > 1:
            return [c for c in usable if c != withheld]
        return usable

    def led(self, play: TrickPlay, seat: int, led: list[str], usable: list[str]) -> list[str]:
        return fixing(play, led)

    def why(self, play: TrickPlay, seat: int, card: str, allowed: list[str], legal: list[str]) -> str:
        return f"you withheld {play.deck.name_of(card)}: it stays in your hand until the last trick"

    def judges(self, play: TrickPlay) -> bool:
        return bool(play.withheld)

    def rescoped_at(self, n_tricks: int) -> frozenset[int] | None:
        # Its scope and its judging change when a card is withheld (which rescopes at once) and
        # when the last trick begins.
        return frozenset({n_tricks})


@dataclass(frozen=True)
class ExposedCards(PlayRule):
    """Cards laid face up in the exchange (Cego's empty cards) never win a trick; one led fixes
    its suit, but a player who can neither follow it nor trump follows the card after it, which
    "determines the suit to be followed" (cego-en, Eine Leere). In scope for the cards' holders
    (who play them: the turns and the trick they lie in change), and for every turn of a trick
    one lies in; it judges those tricks."""

    origin: str = "exchange.keep.exposed"

    def applies(self, play: TrickPlay, seat: int) -> bool:
        # (`exposed_out` is worked out with the scopes, before the seats': at a trick's start,
        # and when an exposed card is played)
        return play.exposed_out or not play.exposed.isdisjoint(play.hands[seat])

    def after_play(self, play: TrickPlay, seat: int, card: str) -> None:
        if card in play.exposed:
            play.rescope()  # (it lies in the trick now: every turn of it, and the trick, are the rule's)

    def led(self, play: TrickPlay, seat: int, led: list[str], usable: list[str]) -> list[str]:
        if len(led) > 1 and led[0] in play.exposed:
            follow, suit = play.tables.follow, play.tables.follow[led[0]]
            trumps = play.tables.play.must_trump
            if not any(follow[c] == suit or (trumps and follow[c] == TRUMP) for c in usable):
                return led[1:]
        return led

    def judges(self, play: TrickPlay) -> bool:
        return play.exposed_out

    def spent(self, play: TrickPlay) -> bool:
        return not play.exposed_live  # (played, and their tricks complete: they come back no more)


# -- deciding the duty ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Schedule(PlayRule):
    """In this trick every player plays from the first of these sets they hold a card of (the
    Gstieß, the 21 and the 1 in the first three tricks, in one Dappen village)."""

    trick: ScheduledTrick
    origin: str = "play.schedule"
    scope: Scope = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scope", Scope(first=self.trick.trick, last=self.trick.trick))

    def decide(self, play: TrickPlay, seat: int, usable: list[str]) -> list[str] | None:
        for cards in self.trick.play_from:
            allowed = [c for c in usable if c in cards]
            if allowed:
                return allowed
        return list(usable)

    def why(self, play: TrickPlay, seat: int, card: str, allowed: list[str], legal: list[str]) -> str:
        return f"{self.trick.reason}: you hold {', '.join(allowed)}"


@dataclass(frozen=True)
class OpeningLeads(PlayRule):
    """The declarer leads the first tricks with the exposed cards (or, where allowed, other
    cards of their suits); and the trick after them where the contract says so
    (`DeclarerLeadsAfter`)."""

    replace_same_suit: bool
    origin: str = "contracts.opening_leads"

    def applies(self, play: TrickPlay, seat: int) -> bool:
        return bool(play.pending_leads) and seat == play.declarer

    def spent(self, play: TrickPlay) -> bool:
        return not play.pending_leads

    def leads(self, play: TrickPlay, usable: list[str]) -> list[str]:
        pending, suit = play.pending_leads, play.deck.suit
        suits = {suit[e] for e in pending}
        return [c for c in usable if c in pending or (self.replace_same_suit and suit[c] in suits)]

    def decide(self, play: TrickPlay, seat: int, usable: list[str]) -> list[str] | None:
        if play.trick.cards:
            return None
        return self.leads(play, usable) or None

    def why(self, play: TrickPlay, seat: int, card: str, allowed: list[str], legal: list[str]) -> str:
        return f"the exposed cards lead the first tricks: you hold {', '.join(allowed)}"

    def before_play(self, play: TrickPlay, seat: int, card: str) -> None:
        pending = play.pending_leads
        if play.trick.cards or not pending:
            return
        if card in pending:
            pending.remove(card)
        else:
            suit = play.deck.suit
            pending.remove(next(e for e in pending if suit[e] == suit[card]))


@dataclass(frozen=True)
class DeclarerLeadsAfter(PlayRule):
    """The declarer leads the trick after the opening leads of the exposed cards (a rule of its
    own, so that a contract without it asks nobody who leads next)."""

    origin: str = "contracts.opening_leads.declarer_leads_after"
    turns: ClassVar[bool] = False

    def next_leader(self, play: TrickPlay) -> int | None:
        if len(play.tricks) <= play.n_opening:
            return play.declarer
        return None


@dataclass(frozen=True)
class TogetherDuty(PlayRule):
    """The tricks played together (Zwei Leere): the duty is that of each trick, met together
    (TrickPlay.together_duty)."""

    origin: str = "contracts.opening_leads.together"

    def applies(self, play: TrickPlay, seat: int) -> bool:
        return play.together > 1 and len(play.tricks) <= play.together

    def spent(self, play: TrickPlay) -> bool:
        return play.together == 1  # (the tricks played together are complete: one at a time from now)

    def decide(self, play: TrickPlay, seat: int, usable: list[str]) -> list[str] | None:
        return play.together_duty(seat, usable) if play.trick.cards else None

    def why(self, play: TrickPlay, seat: int, card: str, allowed: list[str], legal: list[str]) -> str:
        return (
            f"in the tricks played together you must follow suit or trump in each as far as your cards "
            f"allow; to trick {play.number} you may play {', '.join(allowed)}"
        )


# -- narrowing -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrickDuty(PlayRule):
    """A duty over the trick history for some cards (Räuber's Pfeife to the third trick a trump
    is led to; the 21 not onto the Stiess): applied after following, never leaving nothing."""

    duty: Duty
    origin: str = "play.duties"
    scope: Scope = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scope", Scope("holders", self.duty.cards))

    def allow(self, play: TrickPlay, seat: int, allowed: list[str], usable: list[str]) -> list[str]:
        duty = self.duty
        if duty.must is not None:
            due = [c for c in allowed if c in duty.cards]
            if due and len(due) < len(allowed) and duty.must(play.duty_env(seat)):
                return due
        elif duty.may_not is not None:
            rest = [c for c in allowed if c not in duty.cards]
            if rest and len(rest) < len(allowed) and duty.may_not(play.duty_env(seat)):
                return rest
        return allowed

    def why(self, play: TrickPlay, seat: int, card: str, allowed: list[str], legal: list[str]) -> str:
        return f"{self.duty.reason}: you may play {', '.join(allowed)}"


@dataclass(frozen=True)
class KeepBack(PlayRule):
    """Cards their holders keep for a trick of their own (`due`: card -> the trick's number, below
    0 counted from the end): such a card may be played before its trick only when nothing else
    is allowed (then the highest of them first), and must be played in its trick if allowed;
    once its trick has passed it is free. `kept` says for each card how a refusal names it
    (announced for a bonus, or kept by the ruleset's rule of play)."""

    due: Mapping[str, int]
    kept: Mapping[str, str] = field(default_factory=dict)  # card -> "was announced for", "is kept for"
    origin: str = "play.keep_back"
    scope: Scope = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scope", Scope("holders", frozenset(self.due)))

    def joined(self, other: KeepBack) -> KeepBack:
        """One rule for the cards of both (judged together: the highest kept card first)."""
        return KeepBack({**self.due, **other.due}, {**self.kept, **other.kept}, f"{self.origin}, {other.origin}")

    def allow(self, play: TrickPlay, seat: int, allowed: list[str], usable: list[str]) -> list[str]:
        due_of = self.due
        if due_of.keys().isdisjoint(allowed):
            return allowed  # (most turns of a holder: its kept card is not among what it may play)
        # The kept cards among those allowed (a few: a loop over them, not over the hand) that
        # are due in this trick, and those whose trick is still to come.
        number = play.number
        due: list[str] = []
        waiting: set[str] = set()
        for card, trick in due_of.items():
            if card in allowed:
                if trick <= 0:
                    trick += play.n_tricks + 1  # (counted from the end)
                if trick == number:
                    due.append(card)
                elif trick > number:
                    waiting.add(card)
        if due:
            return due if len(due) == 1 else [c for c in allowed if c in due]
        if not waiting:
            return allowed  # (their tricks have passed: they are free)
        free = [*filterfalse(waiting.__contains__, allowed)]
        if free:
            return free
        # Forced out early: the highest of the kept cards first.
        power = play.tables.power
        return [max(allowed, key=lambda c: power[c])]

    def why(self, play: TrickPlay, seat: int, card: str, allowed: list[str], legal: list[str]) -> str:
        trick = self.due.get(card)
        if trick is not None:
            return (
                f"{play.deck.name_of(card)} {self.kept.get(card, 'is kept for')} trick {play.trick_number(trick)}: "
                f"keep it until then (or play it when nothing else is allowed); you may play {', '.join(legal)}"
            )
        said = self.kept.get(allowed[0], "is kept for")
        return f"{', '.join(allowed)} {said} this trick and must be played in it"


@dataclass(frozen=True)
class LaidOut(PlayRule):
    """Cards the declarer laid out face up (Ulti) are held back: played only when nothing else is
    allowed, the highest first."""

    cards: frozenset[str]
    origin: str = "announcements"
    scope: Scope = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scope", Scope("holders", self.cards))

    def allow(self, play: TrickPlay, seat: int, allowed: list[str], usable: list[str]) -> list[str]:
        laid = self.cards
        free = [c for c in allowed if c not in laid]
        if free:
            return free
        rank = play.deck.rank
        return [max(allowed, key=lambda c: rank[c])]

    def why(self, play: TrickPlay, seat: int, card: str, allowed: list[str], legal: list[str]) -> str:
        if legal[0] in self.cards:
            return f"laid-out cards are played highest first: play {legal[0]} before {card}"
        return (
            f"{card} is laid out: it may be played only when nothing else is allowed; you may play {', '.join(legal)}"
        )


# -- reactions ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RevealPartner(PlayRule):
    """The called card is seen when it is played: everybody knows the sides."""

    card: str
    origin: str = "exchange.call_partner"
    scope: Scope = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scope", Scope("holders", frozenset({self.card})))

    def after_play(self, play: TrickPlay, seat: int, card: str) -> None:
        if card == self.card:
            play.table.partner_public = True


@dataclass(frozen=True)
class Forfeit(PlayRule):
    """A card kept back for an announced bonus that forfeits when forced out early (Pfeife raus):
    played before its trick, the bonus is lost, and its side forfeits that trick and every later
    one."""

    card: str
    bonus: str
    trick: int  # its trick's number (1 = the first)
    side: str
    origin: str = "bonuses.forced_early"
    scope: Scope = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scope", Scope("holders", frozenset({self.card})))

    def before_play(self, play: TrickPlay, seat: int, card: str) -> None:
        table = play.table
        if card == self.card and play.number < self.trick and table.forfeit is None:
            table.forfeit = (self.bonus, play.number, self.side)
            table.events.append(
                {"type": "forfeit", "seat": seat, "card": card, "bonus": self.bonus, "trick": play.number}
            )


@dataclass(frozen=True)
class OpenHands(PlayRule):
    """The contract's hands lie face up (Ouvert; all of them in Königrufen's ouvert games) once a
    card is led to trick `first` (shown when play starts for the first trick)."""

    who: Literal["declarer", "all"]
    first: int
    origin: str = "contracts.open_hand"

    def applies(self, play: TrickPlay, seat: int) -> bool:
        return self.first > 1 and play.number == self.first and seat == play.trick.leader

    def rescoped_at(self, n_tricks: int) -> frozenset[int] | None:
        return frozenset({self.first, self.first + 1})  # the leader's turn in trick `first`

    def start(self, play: TrickPlay) -> None:
        if self.first <= 1:
            self.show(play)

    def after_play(self, play: TrickPlay, seat: int, card: str) -> None:
        if play.number == self.first and len(play.trick.cards) == 1:
            self.show(play)

    def show(self, play: TrickPlay) -> None:
        key, hands, events = play.deck.sort_key, play.hands, play.table.events
        seats = play.seats if self.who == "all" else ([play.declarer] if play.declarer is not None else [])
        for seat in seats:
            events.append({"type": "open_hand", "seat": seat, "hand": sorted(hands[seat], key=key)})


@dataclass(frozen=True)
class TalonToTricks(PlayRule):
    """The talon's top card is turned up and added to each of the first `tricks` tricks: their
    winners take it."""

    tricks: int
    origin: str = "contracts.talon_to_tricks"
    turns: ClassVar[bool] = False

    def trick_done(self, play: TrickPlay, trick: Trick, number: int) -> None:
        talon = play.table.talon
        if number <= self.tricks and talon:
            added = talon.pop(0)
            play.table.talon_added.setdefault(number, []).append(added)
            play.table.events.append({"type": "talon_card", "trick": number, "card": added, "winner": trick.winner})


# -- the end of play ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class EndsEarly(PlayRule):
    """Play stops after the trick that decides the contract (`play.ends_early`: a Bettel lost
    with the declarer's first trick): asked after every trick but the last, and once its
    condition holds trick play is over. The cards still in the hands are settled by `rest`."""

    rule: EarlyEnd
    origin: str = "play.ends_early"
    turns: ClassVar[bool] = False

    def trick_done(self, play: TrickPlay, trick: Trick, number: int) -> None:
        done = [t for t in play.tricks if t.winner is not None]
        if play.ended is not None or len(done) >= play.n_tricks:
            return
        team = play.team
        declarer_tricks = sum(1 for t in done if t.winner in team)
        env = {
            "declarer_tricks": declarer_tricks,
            "defender_tricks": len(done) - declarer_tricks,
            "tricks": len(done),
            "tricks_left": play.n_tricks - len(done),
            "players": play.n_seats,
        }
        if self.rule.when(env):
            play.ended = self

    def rest(
        self, hands: Mapping[int, list[str]], seats: list[int], team: tuple[int, ...], left: int
    ) -> tuple[list[str], list[str], int, int]:
        """The cards not played (`hands`), as the declarer's side's and the defenders' cards, and
        the `left` tricks not played as the declarer's side's and the defenders' tricks."""
        unplayed = [c for s in seats for c in hands[s]]
        rest = self.rule.rest
        if rest == "holders":
            ours = [c for s in seats if s in team for c in hands[s]]
            theirs = [c for s in seats if s not in team for c in hands[s]]
            return ours, theirs, 0, 0
        if rest == "declarer":
            return unplayed, [], left, 0
        if rest == "defenders":
            return [], unplayed, 0, left
        return [], [], 0, 0


# -- who wins ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrickExceptionRule(PlayRule):
    """When every card of the exception falls in one trick, its card wins it (the Emperor trick)."""

    exception: TrickException
    origin: str = "play.exceptions"
    turns: ClassVar[bool] = False

    def judges(self, play: TrickPlay) -> bool:
        return True

    def rescoped_at(self, n_tricks: int) -> frozenset[int] | None:
        return frozenset()  # it judges every trick alike

    def winner(self, play: TrickPlay, trick: Trick) -> int | None:
        exception = self.exception
        if not exception.cards.issubset(trick.cards):
            return None
        when = exception.when
        if when is not None:
            number = play.tricks.index(trick) + 1
            env = {
                "led_trump": play.follow[trick.cards[0]] == TRUMP,
                "trick_number": number,
                "last_trick": number == play.n_tricks,
                "trick_cards": frozenset(trick.cards),
                "players": play.n_seats,
            }
            if not when(env):
                return None
        return trick.cards.index(exception.wins)
