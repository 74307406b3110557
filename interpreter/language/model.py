"""The compiled ruleset: immutable, typed, every expression parsed and checked.

The engine reads only these types, never the YAML: what the ruleset fixes (card order, trick
power, deal plans, DSL closures) is computed once here so the play loop stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from interpreter.errors import Problem, UsageError
from interpreter.language.dsl import Expression

TRUMP = "T"  # the suit id of permanent trumps
CALLED = "called"  # a bonus's `card`: the card called for a partner in the deal (King ultimo's King)

Condition = Expression[bool]  # a rule's condition: true or false
Formula = Expression[int]  # a rule's amount, value or count
CardsExpression = Expression[frozenset[str]]  # a set of cards


@dataclass(frozen=True)
class Deck:
    title: str
    cards: tuple[str, ...]  # trumps from T1 up, then each suit from high to low
    suit: dict[str, str]  # card -> suit id ("T" for trumps)
    rank: dict[str, int]  # trumps: their number; suit cards: 1 = lowest of the suit
    points: dict[str, int]
    sets: dict[str, frozenset[str]]  # named sets: trumps, clubs …, kings …, five_pointers …
    suit_names: dict[str, str]  # "C" -> "clubs"
    suit_symbols: dict[str, str]
    titles: dict[str, str]  # card -> display name ("Gstieß", "König ♣")
    aliases: dict[str, str]  # lower-case alias -> card id

    def name_of(self, card: str) -> str:
        return self.titles.get(card, card)

    def sort_key(self, card: str) -> tuple[int, int]:
        """The order a hand is shown in: trumps, then the suits as the pack lists them; high to low."""
        return (self._suit_order[self.suit[card]], -self.rank[card])

    @cached_property
    def shown_order(self) -> dict[str, int]:
        """Each card's place in the order of `sort_key`: a view sorts its hands by a lookup."""
        return {card: i for i, card in enumerate(sorted(self.suit, key=self.sort_key))}

    @cached_property
    def _suit_order(self) -> dict[str, int]:
        return {suit: index for index, suit in enumerate(self.suit_names)}

    @property
    def total_points(self) -> int:
        return sum(self.points.values())


@dataclass(frozen=True)
class Packet:
    to: Literal["each", "talon"]
    count: int


@dataclass(frozen=True)
class DealChoice:
    """The dealer chooses how the cards are dealt, before any is (`deal.choice`): `usual` names
    the plan of `deal.plans`; `plans` are the others, each for the numbers of active players it
    is written for."""

    usual: str
    plans: dict[str, dict[int, tuple[Packet, ...]]]

    def names(self, active: int) -> tuple[str, ...]:
        """The plans the dealer chooses among at a table of `active` players, the usual one
        first; none where no other plan is written for that number."""
        others = tuple(name for name, by_players in self.plans.items() if active in by_players)
        return (self.usual, *others) if others else ()


@dataclass(frozen=True)
class Proposal:
    """A call another player answers before it takes effect: `by` (the dealer) says `accept` or
    `refuse`."""

    by: Literal["dealer"]
    accept: str
    refuse: str


@dataclass(frozen=True)
class Level:
    call: str
    contract: str | None  # None: a call whose bidder, uncontested, chooses the game (Mein Spiel)
    requires: Condition | None
    holdable: bool
    ends: Literal["phase", "auction", "throw_in"] | None
    jump: bool = False  # may be bid over any lower level, not only the next
    # The contract's first step that depends on the dealt hand (a keep before the talon, a card
    # to call): a bid is refused when the hand could not take it, so that nobody can bid a game
    # they could not carry out (a Leere game without its cards, a Rufer holding every card to call).
    needs: Keep | CallCard | None = None
    answered_by: Proposal | None = None  # a proposal another player accepts or refuses first


@dataclass(frozen=True)
class Compulsion:
    when: Condition
    call: str
    reason: str
    breach_pays_each: Formula | None  # what a player who passed anyway pays each other player
    or_higher: bool = False  # the call or any higher bid of the ladder ("state a contract")


@dataclass(frozen=True)
class ThrowInPayment:
    """What is paid when the auction throws the deal in: `pays` by each payer (every player in
    the deal, the dealer, or the player whose call threw it in), into the pot or to each other
    player in the deal."""

    payer: Literal["each", "dealer", "caller"]
    pays: Formula
    to: Literal["pot", "others"]


@dataclass(frozen=True)
class Redeal:
    """A hand that, as dealt, throws the deal in before the bidding (the Petit alone)."""

    when: Condition
    reason: str


@dataclass(frozen=True)
class AuctionPhase:
    name: str
    title: str
    ladder: tuple[Level, ...]
    hold: str | None
    raise_any: bool
    max_bidders: int | None
    compulsory: tuple[Compulsion, ...]
    pass_out: str  # "throw_in", "play", or a phase name
    after: dict[str, str]  # winning call -> next phase
    interrupts: tuple[Level, ...] = ()  # calls any seat may make until its own turn; they end the auction
    choose: dict[str, tuple[Level, ...]] = field(
        default_factory=dict
    )  # uncontested winning call -> the games its bidder chooses from
    choose_when: Literal["uncontested", "won"] = "uncontested"  # won: the winner chooses, contested or not
    pass_out_play: str | None = None  # the contract played when everybody passed
    pass_out_holder: tuple[str, ...] = ()  # its declarer: the holder of the first of these cards held
    carried_may_hold: bool = True  # False: the bidder carried in drops out when outbid
    # duel: what the challenged holder may answer besides dropping out (hold, raise at once, either)
    answer: Literal["hold", "raise", "raise_or_hold"] = "hold"
    style: Literal["duel", "rounds", "declare"] = "duel"
    speakers: Literal["all", "previous_bidders"] = "all"
    start: Literal["vorhand", "after_vorhand", "after_holder"] = "vorhand"
    side_bids: tuple[tuple[Level, frozenset[str]], ...] = ()  # (bid, the calls it may be made over); ends the auction
    hold_by: Literal["earlier", "first"] = "earlier"  # rounds: who may hold (any earlier player, or the first only)
    # rounds: who ranks first to hold (the speaking order, from Vorhand, or the later speaker)
    priority: Literal["order", "vorhand", "later"] = "order"
    # An interrupt by a later player waits while earlier players who have not yet had their turn
    # may claim a special game first ("earlier_turn"), or stands at once ("first_call").
    interrupt_priority: Literal["first_call", "earlier_turn"] = "first_call"
    # rounds: a player before the bidder takes the bid over by naming the same game (priority)
    hold_same: bool = False

    def level_of(self, call: str) -> int | None:
        for index, level in enumerate(self.ladder):
            if level.call == call:
                return index
        return None


@dataclass(frozen=True)
class TakeTalon:
    """The declarer picks up the talon; or, with `parts` > 1, it is laid out in that many equal
    parts (face up when `shown`) and the declarer takes one ({choose: first|second|…}); the parts
    not taken stay in the talon, which `out_of_play` then sends to a side. With `count`, the
    declarer takes that many cards from the `end` (top or bottom) of the talon as dealt, shown
    alone when `shown`; the rest stays in the talon, seen by the defenders when `rest_seen_by`
    says so (Dreierles)."""

    parts: int = 1
    shown: bool = False
    count: int | None = None  # None: the whole talon (or a part of it)
    end: Literal["top", "bottom"] = "top"  # the talon's first card as dealt is its top
    rest_seen_by: Literal["nobody", "defenders"] = "nobody"


PART_NAMES = ("first", "second", "third", "fourth", "fifth", "sixth")


@dataclass(frozen=True)
class CallPartner:
    """The declarer calls a card ({call_card: CARD}) without receiving it: whoever holds it when
    play starts is the declarer's secret partner; calling an own card, or one that lies out of
    play, means playing alone. `unnamed`: a choice ({choose: NAME}) that calls the one card of
    `allowed` the declarer does not hold, allowed when `unnamed_when` holds (the fourth King)."""

    allowed: frozenset[str]
    unnamed: str | None = None
    unnamed_when: Condition | None = None
    own_only_when: Condition | None = None  # then only own cards may be called (all four Kings)


@dataclass(frozen=True)
class Preference:
    """A class of cards a discard is judged by as a whole (those for which `when` holds): taken
    first, as many as it can (`prefer`), or all or none (`all_or_none`); `reason` for a refusal."""

    when: Condition
    reason: str


MAX_ALL_OR_NONE = 6  # classes a discard judges all or none: it weighs 2 ** n ways they can go


@dataclass(frozen=True)
class Discard:
    count: int | None  # None: as many as the talon had
    forbid: Condition | None
    reason: str
    # Judged on the discard as a whole: it takes as many cards of the first class as it can,
    # then of the next ("other trumps only if there is no choice").
    prefer: tuple[Preference, ...] = ()
    # Judged on the discard as a whole too: it holds every card of such a class the hand may
    # discard, or none of them ("all four Kings or none"). A class with the reason it refuses.
    all_or_none: tuple[Preference, ...] = ()
    shown: Condition | None = None  # true for a discarded card laid face up for everyone

    def how_many(self, talon_size: int) -> int:
        return talon_size if self.count is None else self.count


@dataclass(frozen=True)
class Keep:
    """The declarer keeps `count` cards of the dealt hand and discards the rest, before taking the
    talon (Cego's contracts)."""

    count: int
    allowed: frozenset[str]  # cards that may be kept
    prefer: frozenset[str] | None  # if a valid choice lies within these, it must
    same_suit: bool
    different_suits: bool
    exposed: bool  # laid face up: they never win a trick
    reason: str

    def possible(self, hand: frozenset[str] | list[str], suit_of: Mapping[str, str]) -> bool:
        """Whether `hand` holds cards this step could keep (before any preference among them)."""
        candidates = [c for c in hand if c in self.allowed]
        if self.same_suit:
            counts: dict[str, int] = {}
            for card in candidates:
                counts[suit_of[card]] = counts.get(suit_of[card], 0) + 1
            return any(n >= self.count for n in counts.values())
        if self.different_suits:
            return len({suit_of[c] for c in candidates}) >= self.count
        return len(candidates) >= self.count

    def why_not(self, hand: frozenset[str] | list[str], suit_of: Mapping[str, str]) -> str | None:
        """Why `hand` could not take this step, or None when it could."""
        return None if self.possible(hand, suit_of) else self.reason


@dataclass(frozen=True)
class ForcedDiscard:
    """A card the engine discards face up for the declarer (the lowest Trock of the Cego)."""

    cards: CardsExpression  # a set; reads `taken` (the talon picked up) and `hand`
    shown: bool


@dataclass(frozen=True)
class CallCard:
    """The declarer names a card they do not hold ({call_card: CARD}) and receives it from its
    holder (Rufer); a `give` step then hands a card of their choice back."""

    allowed: frozenset[str]
    # A called card lying in the talon: taken from it, or left there with nothing exchanged (the
    # `give` step after the call is left out).
    in_talon: Literal["take", "stays"] = "take"

    def why_not(self, hand: frozenset[str] | list[str], suit_of: Mapping[str, str]) -> str | None:
        """Why `hand` could not call a card, or None when it could: it holds every card allowed."""
        if not self.allowed.issubset(hand):
            return None
        return f"you hold every card you could call ({', '.join(sorted(self.allowed))})"


@dataclass(frozen=True)
class Give:
    """The declarer gives a card of their choice ({give: CARD}) to the holder of the called card;
    `other_than_called`: not the card just called (a Rufer gives one "in exchange")."""

    other_than_called: bool = False


@dataclass(frozen=True)
class NameTrumps:
    """The declarer names the trump suit here, from the contract's `trump_choice` (after seeing the
    talon, where it follows the talon's taking); without this step it is named before the others."""


ExchangeStep = TakeTalon | Discard | Keep | ForcedDiscard | CallCard | Give | CallPartner | NameTrumps


@dataclass(frozen=True)
class OpeningLeads:
    """The declarer leads the first tricks with the exposed cards (or, if allowed, other cards
    of their suits); `together`: those tricks are played at once, each player adding a card to
    each (Cego's Zwei Leere), and the winner with the higher card leads next."""

    replace_same_suit: bool
    together: bool
    suit_order: tuple[str, ...]  # breaks a tie between equal winning cards
    declarer_leads_after: bool = False  # the declarer also leads the trick after them


@dataclass(frozen=True)
class IndividualPayment:
    """One class of payments where everyone plays for themselves: the seats meeting `payers`
    pay those meeting `receivers` (`None`: every other seat) `amount` each; `match: pairs` pairs
    them one to one, the payer with most points with the receiver with least."""

    payers: Condition | None  # None: every seat other than the receiver
    receivers: Condition | None  # None: every seat other than the payer
    amount: Formula
    match: Literal["each", "pairs"] = "each"


@dataclass(frozen=True)
class Individual:
    """Everyone plays for themselves (Räuber, Dresch): one loser pays each other player; or
    several classes of `payments` (Trischaken)."""

    loser: Literal["most_points", "last_trick"] | None
    ties: Literal["vorhand_else_all", "all"]
    pays_each: Formula | None  # reads loser_points, loser_is_vorhand, without_tricks, losers
    payments: tuple[IndividualPayment, ...] = ()


@dataclass(frozen=True)
class Route:
    """Where cards out of play (the talon left over, the discards) count: the first route whose
    `when` holds (or that has none)."""

    to: Literal["declarer", "defenders", "nobody"]
    when: Condition | None = None


@dataclass(frozen=True)
class OutOfPlay:
    talon: tuple[Route, ...]
    discards: tuple[Route, ...]


@dataclass(frozen=True)
class Concede:
    """The declarer may give up after the talon is seen, when `when` holds, paying each
    opponent `pays` ({choose: concede})."""

    when: Condition
    pays: Formula


@dataclass(frozen=True)
class MustAnnounce:
    """The declarer must announce one of these bonuses in their first turn of announcing."""

    one_of: tuple[str, ...]


@dataclass(frozen=True)
class Doubling:
    """Everyone for themselves: each player in turn from `start`, once, may double the game (knock),
    each doubling multiplying every payment by 2; `sitting_out`: a dealer who sits out has a turn
    too (Räuber's knocking)."""

    start: Literal["vorhand", "last_passer"]
    sitting_out: bool
    title: str


@dataclass(frozen=True)
class Contract:
    name: str
    title: str
    exchange: tuple[ExchangeStep, ...]
    factor_won: int | None
    factor_lost: int | None
    declarer_wins: Condition | None
    amount: Formula | None
    opening_leads: OpeningLeads | None = None
    individual: Individual | None = None
    talon_counts: bool = True  # False: the talon and discards count for nobody
    trump_suit: str | None = None  # a suit that is trumps in this contract (besides permanent trumps)
    no_trump_suit: bool = False  # no suit is trumps in this contract (a Bettel)
    open_hand: bool = False  # the declarer's hand is shown to all from the first lead (Ouvert)
    talon_to_last_trick: bool = False  # everyone for themselves: the talon goes to the last trick's winner
    pot: Formula | None = None  # what the declarer pays into the pot (negative: takes from it)
    trump_choice: tuple[str, ...] = ()  # suits the declarer may name as trumps
    schedule: tuple[ScheduledTrick, ...] | None = None  # this contract's own rules for the first tricks
    play: PlayRules | None = None  # this contract's own rules of play (None: the ruleset's)
    out_of_play: OutOfPlay | None = None  # where the talon and the discards count (None: `counting.aside`)
    open_hand_who: Literal["declarer", "all"] = "declarer"
    open_hand_from: int = 1  # open hands lie face up once a card is led to this trick
    bonus_factor: int = 1  # every bonus counts this many times in this contract
    bonuses: frozenset[str] | None = None  # the bonuses that count in this contract (None: all)
    must_announce: MustAnnounce | None = None
    concede: Concede | None = None
    talon_to_tricks: int = 0  # the talon's top card joins each of the first n tricks (face up)
    doubling: Doubling | None = None  # everyone for themselves: a round in which each may double once


@dataclass(frozen=True)
class Claim:
    when: Condition
    scores_as: Literal["march"]
    factor: int | None  # None: the contract's own factor
    liable: bool  # whether the settlement's liable payers apply


@dataclass(frozen=True)
class Declaration:
    """A declaration before the first trick (Tout): the aim becomes `wins`, the value × multiplier
    (or `amount`); `releases_exposed` takes cards laid face up back into the hand (Pfeif' frei)."""

    wins: Condition
    multiplier: int
    amount: Formula | None = None
    releases_exposed: bool = False
    # all_tricks: worth, won or lost, what the contract pays when the declarer takes every trick
    # and every card point (a slam's own value); played: the game's value as played.
    priced: Literal["played", "all_tricks"] = "played"


@dataclass(frozen=True)
class Announcement:
    """Cards the declarer lays out face up before the first lead, each a commitment to win one
    of the last tricks with it: the lowest laid card the last trick, the next the one before…
    Laid cards are held back (played only when nothing else is legal, highest first) and each is
    won or lost on its own, paid by or to every opponent."""

    name: str
    title: str
    cards: frozenset[str]
    value: Formula | None  # per laid card (reads `card`)
    declares: Declaration | None = None  # a declaration without cards instead
    contracts: frozenset[str] | None = None  # the contracts it may be made in (None: all)


@dataclass(frozen=True)
class Withhold:
    """A card that its holder may keep back when it is the only trump they could play: it then
    loses its power, stays in hand to the last trick and goes to its holder's side (the
    Gstiesieren of some Dappen villages; the old Excuse)."""

    card: str
    by: Literal["defenders", "anyone"]
    when: Condition | None  # on the holder's hand
    # When the other side wins the last trick it is a card short: lowest_value: the holder's side
    # hands over its least valuable card (the withheld card itself if it has no other); none: not.
    compensation: Literal["lowest_value", "none"] = "lowest_value"
    # Whose the card is once played to the last trick: its holder's (side's), or with the trick
    # to that trick's winner.
    goes_to: Literal["holder", "last_trick"] = "holder"


@dataclass(frozen=True)
class Excuse:
    """A card its holder may play to any trick instead of following, which takes no part in the
    trick: it never wins, and led, the next card fixes the suit (the Excuse of French Tarot, the
    Fool, the Sküs of Tarock l'Hombre)."""

    card: str
    # Whose it is once played: its holder's side's whoever wins the trick, or the trick's winner's.
    goes_to: Literal["holder", "trick"] = "holder"
    # When the other side wins its trick (a card short): lowest_value: the holder's side hands
    # over its least valuable card (the card itself if it has no other); none: not.
    compensation: Literal["lowest_value", "none"] = "none"
    # Played to the last trick: lost: it goes with that trick to its winner; kept: as in any other.
    last_trick: Literal["lost", "kept"] = "lost"
    # Led to the last trick by a side that took every trick before it, it wins that trick (the slam).
    slam: bool = False


@dataclass(frozen=True)
class ScheduledTrick:
    """In this trick every player plays from the first of these sets they hold a card of."""

    trick: int
    play_from: tuple[frozenset[str], ...]
    reason: str


@dataclass(frozen=True)
class Liability:
    """When `when` holds, `seats` pay for the whole opposing team."""

    when: Condition
    seats: tuple[Literal["other_bidders", "withholders"], ...]
    pays: Formula  # what each liable seat pays
    others_pay: Formula  # what each other opponent pays


@dataclass(frozen=True)
class TrickException:
    """When every card of `cards` falls in one trick, `wins` wins it (the Emperor trick), where
    `when` holds of that trick (None: always; the Emperor trick only on a trump lead)."""

    cards: frozenset[str]
    wins: str
    when: Condition | None = None


@dataclass(frozen=True)
class Duty:
    """A duty over the trick history for some cards: `must`: when it holds, one of `cards` must be
    played if the other rules allow one; `may_not`: when it holds, none of them may be played
    unless nothing else is allowed (Räuber's Pfeife to the third trick a trump is led to, the 21
    not onto the Stiess). Conditions read the player's hand and the tricks so far."""

    cards: frozenset[str]
    must: Condition | None
    may_not: Condition | None
    reason: str


@dataclass(frozen=True)
class KeepBackCards:
    """Cards their holder keeps for a trick of its own (`until`: its number, 1 = the first, -1 the
    last): played before it only when nothing else is allowed, the highest kept card first."""

    cards: frozenset[str]
    until: int


@dataclass(frozen=True)
class EarlyEnd:
    """Play stops after the trick once `when` holds (the contract is decided): the cards not
    played count as `rest` says (each for its holder's side, all for one side with the tricks
    not played, or for nobody)."""

    when: Condition
    rest: Literal["holders", "declarer", "defenders", "nobody"]
    reason: str


@dataclass(frozen=True)
class PlayRules:
    first_lead: Literal["declarer", "vorhand", "dealer"]
    follow_suit: bool
    must_trump: bool
    must_beat: bool
    withhold: Withhold | None = None
    excuse: Excuse | None = None  # a card excused from following, which never wins
    trump_suit: str | None = None  # a suit that is always trumps (Hearts in Tapp)
    schedule: tuple[ScheduledTrick, ...] = ()
    discards_visible_until: int | None = None
    # Which finished tricks a player may look at during play: every one, the last, or the last and
    # the player's own (Skat's and French Tarot's "only the last trick")
    tricks_seen: Literal["all", "last", "own"] = "all"
    # Cards that may be played only when the holder has no other card that follows as they do
    # (the Pagat only as the last trump).
    last_of_suit: frozenset[str] = frozenset()
    trumps_win: bool = True  # False: a trump wins only a trick in which trumps were led (Farben games)
    lead_trumps: Literal["any", "only_if_nothing_else"] = "any"
    exceptions: tuple[TrickException, ...] = ()
    duties: tuple[Duty, ...] = ()  # duties over the trick history, in order
    keep_back: tuple[KeepBackCards, ...] = ()  # cards kept for a trick of their own
    ends_early: EarlyEnd | None = None  # play stops once the contract is decided
    first_lead_offset: int = 0  # the first lead goes this many seats on from `first_lead`'s
    suit_ranks: tuple[str, ...] = ()  # every suit's ranks, highest first, instead of the pack's order

    @property
    def special(self) -> bool:
        """Whether trick play needs more than following suit, trumping and beating."""
        return bool(self.last_of_suit or not self.trumps_win or self.lead_trumps != "any" or self.exceptions)


@dataclass(frozen=True)
class Bonus:
    """An item judged at the end of a deal for each side, scored apart from the game: `value`
    when achieved silently (no value: nothing unless announced), `announced` (if it may be announced) when announced; an announced
    bonus not achieved scores minus `announced`, a silent `attempted` one not achieved minus
    `value`. `card` and `trick`: an announced bonus keeps that card back for that trick (`called`:
    the card called for a partner, King ultimo's King)."""

    name: str
    title: str
    achieved: Condition
    value: Formula | None  # None: it scores only when announced (Sack)
    announced: Formula | None = None
    attempted: Condition | None = None
    card: str | None = None
    trick: int | None = None  # 1 = first, -1 = last
    # When the game and every other bonus are not scored beside it: never; whenever it scores
    # (made, or announced or attempted and lost: `replaces_game: true`); or only when made (a lost
    # announcement is scored beside the game like any other bonus).
    replaces_game: Literal["never", "scored", "made"] = "never"
    requires: Condition | None = None  # who may announce it (per seat); for a seat's own, who may have it
    # side: judged on a side's tricks, paid between the sides; seat: a combination in one player's
    # hand when play starts, or what became of the cards it played (its Mond captured), paid to its
    # holder by each other player at the table (Dreierles), or by it when negative (a penalty).
    scope: Literal["side", "seat"] = "side"
    # forfeit: the announced `card` forced out before its trick loses the bonus, and that trick
    # and every later one count for the other side (Pfeife raus).
    forced_early: Literal["lost", "forfeit"] = "lost"
    # Whose bonus it is: either side's (judged for both), or only the declarer's side's (King
    # ultimo, the Pfeife in the last trick) or the defenders' (the called King captured). Only
    # that side may announce it, and it is judged for that side alone.
    whose: Literal["either", "declarer", "defenders"] = "either"

    def belongs_to(self, side: str) -> bool:
        """Whether the bonus is judged for `side` ("declarer" or "defenders")."""
        return self.whose == "either" or self.whose == side


@dataclass(frozen=True)
class Announcing:
    """The round of announcements after the exchange: starting with `start`, each in turn says
    announcements and kontras for their side, then `done`; it ends when every seat has spoken and
    the last (seats - 1) turns said nothing."""

    start: Literal["declarer", "vorhand"]
    done: str
    may_announce: Condition | None  # per seat; None: anyone


@dataclass(frozen=True)
class KontraRule:
    """Doubling: the other side of the last to double may double again, up to `max` times
    (None: no fixed number, each seat doubling the item at most once)."""

    max: int | None
    titles: tuple[str, ...]
    eligible: Condition | None = None  # per seat: who may double (None: every seat of the side)


@dataclass(frozen=True)
class Counting:
    packet: int
    packet_deduct: int
    remainder_deduct: int
    aside_counts_for: Literal["declarer", "defenders", "nobody"]
    aside_unless: Condition | None
    declarer_bonus: Formula | None = None

    def points(self, cards: list[str] | tuple[str, ...], values: dict[str, int], raw: int | None = None) -> int:
        """Card points of one side's pile: packets of `packet` cards, each less `packet_deduct`,
        an incomplete packet less `remainder_deduct`. How the cards are grouped does not matter.
        `raw`: the sum of the cards' values, where the caller knows it already."""
        # No Python step per card: every deal counts.
        total = sum(map(values.__getitem__, cards)) if raw is None else raw
        return total - self.deduction(len(cards))

    def deduction(self, n: int) -> int:
        """What counting takes off a pile of `n` cards: its packets' and an incomplete packet's
        deductions (the settlement keeps these by `n` for a table's deals)."""
        full, rest = divmod(n, self.packet)
        return full * self.packet_deduct + (self.remainder_deduct if rest else 0)


@dataclass(frozen=True)
class Settlement:
    unit: str
    payment: Literal["each_defender"]
    sitting_out: Literal["no_part", "defender"]
    liable: tuple[Liability, ...] = ()
    drawn: Condition | None = None  # the game is drawn: nobody scores, the pot is untouched
    stake: int = 1  # every payment of a deal times this (the money per point: 10 Pfennig instead of 1)
    # The settlement's own formulas, which every contract without its own takes. The engine reads
    # each contract's; these describe the ruleset (`tarock diff`, `doc`) as it is written.
    declarer_wins: Condition | None = None
    amount: Formula | None = None
    # How a declarer and partner share their side's payments (declarer, partner): equal by default.
    split: tuple[int, int] = (1, 1)


@dataclass(frozen=True)
class Accusation:
    """After everybody passed `phase`, the declarer may, once the talon is picked up, accuse
    the others of having passed with a hand meeting `strong` (skinning a Solo): a guilty player,
    or else the accuser, pays each other player as the loser of the final game with no trick."""

    phase: str
    strong: Condition


@dataclass(frozen=True)
class Penalties:
    """For replaying games recorded in the field: an offence is accepted, the deal abandoned,
    and the offender pays each other player. Offences: revoke (a card against the duty to follow
    or trump), discard (a card led before the exchange was finished)."""

    mode: Literal["refuse", "penalize"]
    offences: frozenset[str]
    pays_each: Formula
    # offender: the offender pays each other player; side: the offender's side pays as a lost game
    # is paid, where there are sides (the exchange and the play of a declarer's game).
    paid_by: Literal["offender", "side"] = "offender"


@dataclass(frozen=True)
class DealerWhen:
    """Who deals next (`dealer`: next, same, declarer, after_declarer) when `when` holds of the
    deal just played."""

    when: Condition
    dealer: str


@dataclass(frozen=True)
class SpecialRound:
    """A round with rules of its own: `rounds` rounds (every seat deals once in each) played with
    the readings and options `options` chosen, at the session's end (`at: end`, a closing round)
    or from the deal after a signal; `after`: choices that hold for every deal after it."""

    name: str
    title: str
    at: Literal["end", "signal"]
    rounds: int
    options: Mapping[str, str]
    after: Mapping[str, str]


@dataclass(frozen=True)
class ScoreSheet:
    """Each deal writes `score` to each seat (from `start`); at the end the sheet is settled as
    differences between every two players or per point, at `stake` a point."""

    score: Formula
    start: int
    settle: Literal["differences", "per_point"]
    stake: int


@dataclass(frozen=True)
class SessionPot:
    """The pot over a session: `ante` from each player when it starts, `each_deal` from each
    player before every deal; what is `left` at its end is kept or shared."""

    ante: Formula | None
    left: Literal["kept", "shared"]
    each_deal: Formula | None = None


@dataclass(frozen=True)
class PotPayout:
    """A pay-out of a pot after a deal played by a declarer in one of `contracts` (empty: any),
    where `when` holds: `amount` to each payee (`to`: the declarer, each defender, or the seat
    `seat` gives), out of the pot (at most what it holds) or, below 0, into it."""

    amount: Formula
    to: Literal["declarer", "defenders", "seat"] = "declarer"
    contracts: frozenset[str] = frozenset()
    when: Condition | None = None
    seat: Formula | None = None


@dataclass(frozen=True)
class Account:
    """A pot of its own over the session, by `name`: `ante` from each player at the start,
    `each_deal` from each player and `dealer` from the dealer before every deal, its `pays` after
    each deal; what is `left` at the end is kept or shared."""

    name: str
    title: str
    ante: Formula | None = None
    each_deal: Formula | None = None
    dealer: Formula | None = None
    pays: tuple[PotPayout, ...] = ()
    left: Literal["kept", "shared"] = "kept"


@dataclass(frozen=True)
class SessionRule:
    """The session: who deals next (`dealer`, unless one of `dealer_when` holds), its end (after
    `deals`, after `rounds` complete rounds, once `until` holds, or on request once the holder of
    `holder_of` in the next deal has dealt: der Gstieß gibt ab), its rounds with rules of their
    own, and its score sheet."""

    deals: int | None = None
    holder_of: str | None = None
    dealer: str = "next"
    dealer_when: tuple[DealerWhen, ...] = ()
    rounds: int | None = None
    until: Condition | None = None
    special_rounds: tuple[SpecialRound, ...] = ()
    sheet: ScoreSheet | None = None
    pot: SessionPot | None = None
    pots: tuple[Account, ...] = ()  # pots of their own, by name


@dataclass(frozen=True)
class ChoiceGroup:
    name: str
    kind: Literal["readings", "options"]
    question: str
    default: str
    choices: tuple[str, ...]


@dataclass(frozen=True)
class Ruleset:
    name: str
    file: str
    title: str
    family: str | None
    deck: Deck
    active_players: tuple[int, ...]
    # Who sits out, by table size: positions counted from the dealer in the order of play (0 the
    # dealer, 1 Vorhand); a table size not here: everybody plays.
    sit_out: Mapping[int, tuple[int, ...]]
    deal_plans: dict[int, tuple[Packet, ...]]
    removed: dict[int, frozenset[str]]  # cards out of the pack, by number of active players
    call_titles: dict[str, str]
    phases: tuple[AuctionPhase, ...]
    contracts: dict[str, Contract]
    claim: Claim | None
    announcements: dict[str, Announcement]
    breaches: Literal["refuse", "penalize"]
    play: PlayRules
    counting: Counting
    settlement: Settlement
    groups: tuple[ChoiceGroup, ...]
    choices: dict[str, str]  # every reading and option, as chosen
    document: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)  # the merged YAML, for `show`
    parents: tuple[str, ...] = ()
    ref: str = ""  # how it was loaded: a name or a path
    session: SessionRule = SessionRule()
    accusation: Accusation | None = None
    pot_ante: Formula | None = None  # what the dealer pays into the pot at each deal
    thrown_in: ThrowInPayment | None = None  # what is paid when the auction throws the deal in
    redeal: tuple[Redeal, ...] = ()  # hands that throw the deal in as dealt, before the bidding
    deal_choice: DealChoice | None = None  # the dealer chooses between deal plans before dealing
    penalties: Penalties | None = None
    by_players: tuple[int, ...] = ()  # numbers of active players with rules of their own
    direction: str | None = None  # the direction of play at the table (display only)
    usual_players: int | None = None  # the table size a game starts with when none is asked for
    bonuses: dict[str, Bonus] = field(default_factory=dict)
    announcing: Announcing | None = None
    kontra_game: KontraRule | None = None
    kontra_bonuses: KontraRule | None = None
    # When a doubling is answered: in the round (round), or at once by the other side (at_once).
    kontra_answer: Literal["round", "at_once"] = "round"
    # The ruleset as played by each of those numbers, compiled with it (by the loader).
    player_rules: Mapping[int, Ruleset] = field(default_factory=dict, repr=False, compare=False)
    # Tables the engine derives from the ruleset once (trick power, shared actions), kept here
    # so that they live exactly as long as the ruleset.
    derived: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    # The same ruleset compiled with other readings and options (set by the loader, which keeps
    # the document as written; None for a ruleset made otherwise).
    rechoose: Callable[[Mapping[str, str]], Ruleset] | None = field(default=None, repr=False, compare=False)

    def with_choices(self, chosen: Mapping[str, str]) -> Ruleset:
        """This ruleset with these readings and options chosen, the others as they are chosen
        here: itself when that changes nothing. An unknown reading, option or choice raises
        UsageError naming the nearest one, as `load_ruleset` does."""
        wanted = {**self.choices, **{str(k): str(v) for k, v in chosen.items()}}
        if wanted == self.choices:
            return self
        key = ("with_choices", tuple(sorted(wanted.items())))
        found: Ruleset | None = self.derived.get(key)
        if found is None:
            if self.rechoose is None:
                message = (
                    f"{self.name} was not loaded from its file, so its readings and options cannot be "
                    "chosen again: load it with them (load_ruleset)"
                )
                raise UsageError([Problem(self.file, None, None, "options", message)])
            found = self.derived[key] = self.rechoose(wanted)
        return found

    def for_players(self, active: int) -> Ruleset:
        """The ruleset as played by `active` players (its `by_players` rules applied)."""
        return self.player_rules.get(active, self)

    @property
    def table_sizes(self) -> tuple[int, ...]:
        """The numbers of people the game is played by (read at every new deal: made once)."""
        sizes: tuple[int, ...] | None = self.derived.get("table_sizes")
        if sizes is None:
            sizes = self.derived["table_sizes"] = tuple(sorted(set(self.active_players) | set(self.sit_out)))
        return sizes

    def seats_out(self, players: int, dealer: int) -> tuple[int, ...]:
        """The seats that sit out a deal at a table of `players` dealt by `dealer`, in order of play
        from the dealer (empty: everybody plays)."""
        positions = self.sit_out.get(players)
        if not positions:
            return ()  # (asked at every deal: no generator made where nobody sits out)
        return tuple((dealer + position) % players for position in positions)

    def active_at(self, players: int) -> int:
        """How many play at a table of `players`."""
        return players - len(self.sit_out.get(players, ()))

    @property
    def usual_table(self) -> int:
        """People at the table when nobody says how many: the ruleset's usual size, else the smallest."""
        return self.usual_players if self.usual_players is not None else self.table_sizes[0]

    def pack(self, active: int) -> tuple[str, ...]:
        """The cards in play with `active` players, in the deck's order."""
        removed = self.removed.get(active, frozenset())
        return tuple(c for c in self.deck.cards if c not in removed)

    def phase(self, name: str) -> AuctionPhase:
        for phase in self.phases:
            if phase.name == name:
                return phase
        raise KeyError(name)

    def call_title(self, call: str) -> str:
        return self.call_titles.get(call, call)

    def used_calls(self) -> list[str]:
        """The calls the auction uses, in the order the ruleset defines them, then any it does not
        define (a call defined but used by no phase is not a rule)."""
        used: list[str] = ["pass"]

        def add(call: str | None) -> None:
            if call is not None and call not in used:
                used.append(call)

        for phase in self.phases:
            for level in phase.ladder + phase.interrupts + tuple(lv for lv, _ in phase.side_bids):
                add(level.call)
            for levels in phase.choose.values():
                for level in levels:
                    add(level.call)
            for level in phase.ladder + phase.interrupts:
                if level.answered_by is not None:
                    add(level.answered_by.accept)
                    add(level.answered_by.refuse)
            add(phase.hold)
            for rule in phase.compulsory:
                add(rule.call)
        if self.announcing is not None:
            add(self.announcing.done)  # said in the round of announcements (fertig)
        defined = [c for c in self.call_titles if c in used]
        return defined + [c for c in used if c not in defined]
