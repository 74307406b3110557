"""An interface for learning and search, as OpenSpiel offers one: actions as integers, a seat's
view as a fixed-length vector of numbers, and games cloned cheaply.

    encoding = Encoding(ruleset, players=6)
    state = EncodedGame(Game(ruleset, players=6, seed=1), encoding)
    while not state.is_terminal():
        seat = state.current_player()
        ids = state.legal_actions()              # integers, ascending
        features = state.observation(seat)       # encoding.observation_size floats
        state.apply_action(ids[0])
    state.returns()                              # the payments, by seat

A learner that fills a buffer of its own at every step (a row of a batch, as OpenSpiel's
ObservationTensor fills a span) calls `state.observe_into(seat, buffer)` instead: the same
numbers, written into an `array("d")`, a numpy array of float64 or a memoryview of doubles by
one copy of memory, no new list made.

**Action ids.** Every action a ruleset can produce has an id from 0 to `num_actions - 1`, derived
from the compiled ruleset alone (its pack, calls, announcements, bonuses and trump choices). The
ids come in sections in a fixed order: `SECTIONS` below. A kind of action the engine learns later
becomes a new section at the end, so the ids of the existing ones do not change; a ruleset that
does not use a kind has an empty section. Königrufen's kinds came so: kontra on the game or on a
bonus, a bonus announced in the round of announcements, a card called for a partner, the choices
of an unnamed partner call, of conceding and of a part of the talon, and the call that ends a
turn of the round (each in its section unless an earlier one already has it). Within a section
the order is the ruleset's: cards in the deck's order, calls as the auction knows them (`pass`
first), bonuses as the ruleset lists them. Ids change only when the ruleset itself changes (a
call added, a card removed). `action_of(ids)` turns ids back into the action.

A discard or keep of several cards (12 cards of 19, in Dappen) is too large a choice to number
as a whole: it is taken card by card, one id per card ("discard C7"), and the game applies the
whole discard when the last card is chosen. Each card offered is one that can still complete a
legal choice.

**Observations.** `observation(seat)` is what `Encoding.observe` makes of `game.view(seat)` (what
that seat may see) and the seat's own unfinished discard: never another seat's hidden cards. The
view is read when the seat is first observed and again only after something other than a call,
a kontra, a card played or a trick won (`Observer`: those are written in as every seat's view
shows them); tests/test_encoding.py holds the two equal at every step. `observe_into(seat, out)`
writes the same numbers into the caller's buffer; its observers (`BufferObserver`) keep theirs in
arrays of doubles and share what every seat sees alike (`Public`: the cards played, the trick,
the calls, hand sizes, tricks won and kontras, written in once per event for all seats and copied
into each seat's numbers by blocks of memory). Seats are relative to the
observer: block position 0 is the observer, 1 the next seat in order of play, and so on. The
vector's blocks (`Encoding.layout` gives each one's slice), for N cards in the deck, P seats at
the table, C calls and K contracts:

    hand          N    1 for each card in the observer's hand
    played        P·N  1 for each card each seat has played in this deal (the current trick too)
    trick         P·N  1 for the card each seat has put into the trick now being played
    face_up       N    cards lying face up: exposed (Cego), laid out (Ulti), an open hand (Ouvert)
    aside         N    the discards, where this seat may see them (its own, or at the count)
    talon         N    the talon, where this seat may see it (at the count)
    choosing      N    cards the observer has chosen so far of a discard or keep not yet complete
    calls         P·C  1 for each call each seat has made in the auction
    phase         5    auction, exchange, announce, play, over
    to_act        P    whose turn it is
    dealer        P    the dealer
    declarer      P    the declarer (all 0: none yet, or everyone for themselves)
    contract      K    the contract being played, in the ruleset's order
    tricks_won    P    tricks each seat has won, as a share of the tricks of a deal
    hand_sizes    P    cards in each seat's hand, as a share of the pack

and, added with Königrufen (blocks of size 0 in a ruleset that has no use for them, so that the
vectors of the others stay as they were), for B bonuses that may be announced and D items that
may be doubled (the game first, then those bonuses):

    called        N    the card called for a partner, where this seat may know it
    partner       P    the declarer's partner, where this seat may know it (all 0: alone, or unknown)
    announced     2·B  each bonus announced: by the declarer's side (first), by the defenders (second)
    kontra        D    how often each item was doubled, as a share of the most allowed
    talon_shown   N    a talon laid out face up before the declarer takes a part of it

and, added with the dealer's choice of how to deal (`deal.choice`; empty without it), for L plans
to choose among at the table (the usual one first):

    deal_plan     L    the plan the dealer chose, said aloud (all 0: not chosen yet)

**Cloning.** `EncodedGame.clone()` and `clone_game(game)` deal the same cards again and replay the
history (the engine's own way of restoring a game; about the cost of a deal's actions). A search
that samples hidden cards builds its games the same way from a sampled deal: see
`interpreter/bots/searchbot.py`.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, MutableSequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from interpreter.engine.actions import ActionJson, play_steps
from interpreter.engine.game import Game
from interpreter.engine.ids import KIND_OF, SECTIONS, ActionIds, Step
from interpreter.engine.phase import Phase
from interpreter.engine.views import own_entries, public_view
from interpreter.errors import IllegalActionError, InvalidActionError
from interpreter.language.model import CallPartner, Contract, Ruleset, TakeTalon

__all__ = ["KIND_OF", "PHASES", "SECTIONS", "EncodedGame", "Encoding", "Pending", "Step", "clone_game"]

if TYPE_CHECKING:
    # What the fills write into: a caller's list or buffer, or a seat's observation through a
    # memoryview (`BufferObserver.target`).
    Numbers = MutableSequence[float] | memoryview[float]

# memoryview's constructor, typed as what it makes of an array of doubles (typeshed says
# memoryview[int], whatever the format): numbers are written faster through it than into the
# array, and a call of `cast` at each view made is saved.
_doubles = cast("Callable[[array[float]], memoryview[float]]", memoryview)

# The blocks of an observation that a seat's own entries (views.own_entries) fill: those
# `Encoding._fill_seen` writes.
SEEN_BLOCKS = ("face_up", "aside", "talon", "called", "partner", "announced", "kontra", "talon_shown")


def _runs(layout: dict[str, slice], blocks: Iterable[str]) -> list[slice]:
    """The places of `blocks` in `layout`, as few slices as cover them (neighbours joined), those of
    no width left out."""
    runs: list[slice] = []
    for block in sorted((layout[name] for name in blocks), key=lambda block: block.start):
        if block.stop == block.start:
            continue
        if runs and runs[-1].stop == block.start:
            runs[-1] = slice(runs[-1].start, block.stop)
        else:
            runs.append(block)
    return runs


# The phases every ruleset has; the dealer's choice of a deal plan is a phase only of a ruleset
# that has one (deal.choice), so that the vectors of the others stay as they were.
PHASES = tuple(phase.value for phase in Phase if phase is not Phase.DEAL)


class Encoding:
    """Action ids and the observation layout of a ruleset at a table of `players`."""

    def __init__(self, ruleset: Ruleset, players: int):
        ids = self.action_table = ActionIds.of(ruleset, players)
        self.ruleset = ruleset = ids.ruleset
        self.players = players
        self.cards, self.calls, self.contracts = ids.cards, ids.calls, ids.contracts
        self.bonuses, self.kontra_items = ids.bonuses, ids.kontra_items
        self.steps, self.ids, self.section, self.num_actions = ids.steps, ids.ids, ids.section, ids.num_actions
        exchange_steps = [step for contract in ruleset.contracts.values() for step in contract.exchange]
        partner_calls = any(isinstance(step, CallPartner) for step in exchange_steps)
        talon_shown = any(isinstance(step, TakeTalon) and step.shown for step in exchange_steps)
        most = {"game": ruleset.kontra_game, **dict.fromkeys(self.bonuses, ruleset.kontra_bonuses)}
        # (no fixed limit: each seat doubles an item at most once, so at most `players` times)
        self.kontra_most = {
            item: max(1, (players if rule.max is None else rule.max) if rule is not None else 1)
            for item, rule in most.items()
        }
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.call_index = {c: i for i, c in enumerate(self.calls)}
        n, p, c = len(self.cards), players, len(self.calls)
        phases = PHASES + ((Phase.DEAL.value,) if ruleset.deal_choice is not None else ())
        choice = ruleset.deal_choice
        plans = choice.names(ruleset.active_at(players)) if choice is not None else ()
        sizes = (
            ("hand", n),
            ("played", p * n),
            ("trick", p * n),
            ("face_up", n),
            ("aside", n),
            ("talon", n),
            ("choosing", n),
            ("calls", p * c),
            ("phase", len(phases)),
            ("to_act", p),
            ("dealer", p),
            ("declarer", p),
            ("contract", len(self.contracts)),
            ("tricks_won", p),
            ("hand_sizes", p),
            # Added with Königrufen (empty in a ruleset without partner calls, announcements, kontra
            # or a talon laid out face up):
            ("called", n if partner_calls else 0),
            ("partner", p if partner_calls else 0),
            ("announced", 2 * len(self.bonuses)),
            ("kontra", len(self.kontra_items)),
            ("talon_shown", n if talon_shown else 0),
            # Added with the dealer's choice of how to deal (empty without deal.choice):
            ("deal_plan", len(plans)),
        )
        self.layout: dict[str, slice] = {}
        at = 0
        for name, size in sizes:
            self.layout[name] = slice(at, at + size)
            at += size
        self.observation_size = at
        self._start = {name: block.start for name, block in self.layout.items()}
        self._phase_index = {phase: i for i, phase in enumerate(phases)}
        self._contract_index = {name: i for i, name in enumerate(self.contracts)}
        self._phase_at, self._contract_at, self._cards_at = self._own_places()
        self._plan_index = {name: i for i, name in enumerate(plans)}
        # Where each bonus announced is marked (by the declarer's side; the defenders' is the
        # next place), and each item doubled with the most it may be doubled: read at every
        # reading of a view that has them.
        self._announced_at = self._announced_places()
        self._kontra_at = self._kontra_places(self._start["kontra"])
        self._partner_blocks = partner_calls
        self._talon_shown_block = talon_shown
        active = ruleset.active_at(players)
        plan = ruleset.deal_plans.get(active, ())
        self.tricks_per_deal = max(1, sum(packet.count for packet in plan if packet.to == "each"))
        self.pack, self.calls_width = n, c
        # The blocks every seat sees alike, kept once for all seats by `Public`: each block's
        # place in Public's numbers and its width per seat (twice over: p seats, then p again).
        self.public: list[tuple[str, int, int]] = []
        self.public_bases: dict[str, int] = {}  # (where each begins)
        at = 0
        for name, width in (("played", n), ("trick", n), ("calls", c), ("hand_sizes", 1), ("tricks_won", 1)):
            self.public.append((name, at, width))
            self.public_bases[name] = at
            at += 2 * p * width
        self.public_kontra = slice(at, at + len(self.kontra_items))
        self.public_kontra_at = self._kontra_places(at)
        self.public_plays = self._public_plays()
        # Zeros to copy, as arrays of doubles: an observation's, and Public's; and one zero, of
        # which Public's numbers are made by repetition (cheaper than copying as many zeros).
        self.zeros = array("d", bytes(8 * self.observation_size))
        self.public_zeros = array("d", bytes(8 * self.public_kontra.stop))
        self.zero = array("d", (0.0,))
        # The blocks `_fill_seen` writes from a seat's own entries (views.own_entries), as runs of
        # the layout, each with zeros to copy over it: for a seat whose own entries changed while
        # its hand and the table's facts did not (`BufferObserver.read_view`).
        self.seen_runs = self._seen_runs()
        self.no_trick = self.public_zeros[: 2 * p * n]  # (Public's trick block, both runs, when no trick is under way)
        # Numbers written and never read, shared by every game: `Public.hands`.
        self.unread = cast("memoryview[float]", memoryview(array("d", bytes(8 * self.observation_size))))
        # For each observer: where each seat's facts land in its observation.
        self.places = [Places(self, observer) for observer in range(players)]

    def _own_places(self) -> tuple[dict[str, int], dict[str, int], tuple[tuple[str, int], ...]]:
        """For `fill_own`, read at each seat's view: where each phase and each contract is
        marked, and each entry of cards lying face up or aside with where its block begins."""
        start = self._start
        phase_at = {phase: start["phase"] + i for phase, i in self._phase_index.items()}
        contract_at = {name: start["contract"] + i for name, i in self._contract_index.items()}
        cards_at = tuple(
            (key, start[block])
            for block, key in (("face_up", "exposed"), ("face_up", "laid_out"), ("aside", "aside"), ("talon", "talon"))
        )
        return phase_at, contract_at, cards_at

    def _announced_places(self) -> dict[str, int]:
        """Where each bonus announced by the declarer's side is marked (by its first place in
        `bonuses`): the defenders' is the next place."""
        return {name: self._start["announced"] + 2 * self.bonuses.index(name) for name in self.bonuses}

    def _seen_runs(self) -> list[tuple[slice, memoryview[float]]]:
        """`SEEN_BLOCKS` as runs of the layout, each with a view of as many zeros."""
        zeros = _doubles(self.zeros)
        return [(run, zeros[run]) for run in _runs(self.layout, SEEN_BLOCKS)]

    def _kontra_places(self, start: int) -> dict[str, tuple[int, int]]:
        """Each item that may be doubled: its place in a block of kontras beginning at `start`
        (by its first place in `kontra_items`), and the most it may be doubled."""
        return {item: (start + self.kontra_items.index(item), self.kontra_most[item]) for item in self.kontra_items}

    def _public_plays(self) -> tuple[list[dict[str, tuple[int, ...]]], dict[int, tuple[int, ...]], list[float]]:
        """What `Public` reads at every card played: for each seat and card, the seat, the card's
        four places in Public's numbers (among the cards played and in the trick, each in both
        runs), its place in an observation's hand and the seat's two places among the hand
        sizes; the same places by the identity of the event playing the card writes down (one
        event per seat and card, shared by every game of the ruleset at this table:
        `actions.play_steps`, kept here so that no other object can take its identity); and
        each hand size as a share of the pack."""
        p, n = self.players, self.pack
        played, trick, _, hand_sizes, _ = (base for _, base, _ in self.public)
        runs, hand = p * n, self.layout["hand"].start
        places = [
            {
                card: (
                    s,
                    *(at + shift for at in (played + s * n + i, trick + s * n + i) for shift in (0, runs)),
                    hand + i,
                    hand_sizes + s,
                    hand_sizes + p + s,
                )
                for card, i in self.card_index.items()
            }
            for s in range(p)
        ]
        self.play_steps = play_steps(self.ruleset, p)
        by_event = {
            id(event): places[s][card] for s, row in enumerate(self.play_steps) for card, (_, event) in row.items()
        }
        return places, by_event, [size / n for size in range(n + 1)]

    @classmethod
    def of(cls, ruleset: Ruleset, players: int) -> Encoding:
        """The encoding of `ruleset` for `players`, made once per ruleset and table size."""
        key = ("encoding", players)
        found = ruleset.derived.get(key)
        if found is None:
            found = ruleset.derived[key] = cls(ruleset, players)
        assert isinstance(found, Encoding)
        return found

    # -- actions (engine/ids.py) ------------------------------------------------------------------
    def step_id(self, step: Step) -> int:
        return self.action_table.step_id(step)

    def step(self, action_id: int) -> Step:
        return self.action_table.step(action_id)

    def steps_of(self, action: ActionJson) -> list[Step]:
        return self.action_table.steps_of(action)

    def action_ids(self, action: ActionJson) -> list[int]:
        """The ids of a concrete action, in the order they are applied."""
        return self.action_table.action_ids(action)

    def action_of(self, action_ids: list[int]) -> ActionJson:
        """The action these ids make, in protocol form: the inverse of `action_ids`."""
        return self.action_table.action_of(action_ids)

    # -- observations -----------------------------------------------------------------------------
    def observe(self, view: dict[str, Any], choosing: Iterable[str] = ()) -> list[float]:
        """The vector of `view` (a seat's view, `game.view(seat)`), with the cards the seat has
        chosen so far of an unfinished discard or keep."""
        if not isinstance(view["seat"], int):
            raise InvalidActionError("an observation is of a seat's view, not the umpire's (\"all\")")
        out = [0.0] * self.observation_size
        self.fill(view, out, choosing)
        return out

    def fill(self, view: dict[str, Any], out: MutableSequence[float], choosing: Iterable[str] = ()) -> None:
        """Write the ones and shares of `observe(view, choosing)` into `out`, all zeros before."""
        self.fill_public(view, out)
        self.fill_own(view, out, choosing)

    def fill_public(self, view: dict[str, Any], out: MutableSequence[float]) -> None:
        """`fill`'s blocks of the view's entries every seat sees alike (`views.PUBLIC_ENTRIES`:
        the tricks, the calls, the hand sizes): the cards played and in the trick, the calls, the
        tricks won and the hand sizes, as they land in the observation of `view["seat"]`."""
        places = self.places[view["seat"]]
        # (only what is not zero is written; loops over local names, not helper functions: a
        # learner reads views often)
        rows, shift = places.played, places.trick  # where each seat's card lands in "played"
        won = [0] * self.players
        for trick in view["tricks"]:
            winner = trick["winner"]
            if winner is not None:
                for s, card in zip(trick["seats"], trick["cards"], strict=False):
                    out[rows[s][card]] = 1.0
                won[winner] += 1
                continue
            for s, card in zip(trick["seats"], trick["cards"], strict=False):
                at = rows[s][card]
                out[at] = out[at + shift] = 1.0  # played, and in the trick now being played
        calls = places.calls
        for s, call in view["calls"]:
            out[calls[s][call]] = 1.0
        per_deal, n = self.tricks_per_deal, len(self.cards)
        for at, tricks in zip(places.won, won, strict=True):
            if tricks:
                out[at] = tricks / per_deal
        for at, size in zip(places.sizes, view["hand_sizes"], strict=True):
            if size:
                out[at] = size / n

    def fill_own(self, view: dict[str, Any], out: MutableSequence[float], choosing: Iterable[str] = ()) -> None:
        """`fill`'s other blocks, of the seat's own view (`views.own_view` has their entries): its
        hand, the cards face up, aside and in the talon where it sees them, those it is choosing,
        the phase, whose turn, the dealer, the declarer, the contract, those added with
        Königrufen, and the deal plan the dealer chose."""
        seat = view["seat"]
        self._fill_table(seat, view["hand"], view["phase"], view["to_act"], view["dealer"], view["declarer"], out)
        contract = view["contract"]
        if contract is not None:
            out[self._contract_at[contract]] = 1.0
        plan = self._plan_index.get(view["deal_plan"]) if "deal_plan" in view else None
        if plan is not None:
            out[self._start["deal_plan"] + plan] = 1.0
        self._fill_seen(view, seat, out, choosing)

    def fill_seat(self, game: Game, seat: int, entries: dict[str, Any], out: Numbers) -> None:
        """`fill_own(views.own_view(game, seat), out)` from the view's other entries made for the
        seat (`entries`: `views.seat_entries(game, seat)`, which says what it sees of the cards
        aside, the partnership and the announcements), with the table's facts and the seat's hand
        read from the game as the view reads them (`views._table_facts`: the phase, whose turn,
        the dealer, the declarer, the contract and the deal plan, which every seat sees alike)."""
        self._fill_table(seat, game.cards.hands[seat], game.phase._value_, game.to_act, game.dealer, game.declarer, out)
        contract = game.contract
        if contract is not None:
            out[self._contract_at[contract.name]] = 1.0
        plan = self._plan_index.get(game.deal_plan) if game.deal_plan is not None else None
        if plan is not None:
            out[self._start["deal_plan"] + plan] = 1.0
        if entries:  # (mostly none: no cards aside seen, no partner called, nothing announced)
            self._fill_seen(entries, seat, out)

    def _fill_table(
        self,
        seat: int,
        hand: Iterable[str],
        phase: str,
        to_act: int | None,
        dealer: int,
        declarer: int | None,
        out: Numbers,
    ) -> None:
        """The seat's hand, the phase, whose turn, the dealer and the declarer."""
        places = self.places[seat]
        at = places.hand
        for card in hand:
            out[at[card]] = 1.0
        out[self._phase_at[phase]] = 1.0
        if to_act is not None:
            out[places.to_act[to_act]] = 1.0
        out[places.dealer[dealer]] = 1.0
        if declarer is not None:
            out[places.declarer[declarer]] = 1.0

    def _fill_seen(self, entries: dict[str, Any], seat: int, out: Numbers, choosing: Iterable[str] = ()) -> None:
        """The cards face up, aside and in the talon where `seat` sees them, those it is choosing,
        and those added with Königrufen, from the entries of its view."""
        index, start = self.card_index, self._start
        for key, at in self._cards_at:
            if key in entries:
                for card in entries[key]:
                    out[at + index[card]] = 1.0
        if "open_hand" in entries:
            at = start["face_up"]
            for card in entries["open_hand"]["cards"]:
                out[at + index[card]] = 1.0
        if choosing:
            at = start["choosing"]
            for card in choosing:
                out[at + index[card]] = 1.0
        self._fill_partner_announced_and_kontra(entries, seat, out)

    def _fill_partner_announced_and_kontra(self, view: dict[str, Any], seat: int, out: Numbers) -> None:
        """The blocks of the mechanics of partners and announcements: the called card and the partner, the bonuses
        announced, the kontras and the talon laid out face up."""
        start, index = self._start, self.card_index
        if self._partner_blocks:
            if view.get("called"):
                out[start["called"] + index[view["called"]]] = 1.0
            if view.get("partner") is not None:
                out[start["partner"] + (view["partner"] - seat) % self.players] = 1.0
        if "announced" in view:
            announced_at = self._announced_at
            for name, side in view["announced"].items():
                out[announced_at[name] + (side != "declarer")] = 1.0
        if "kontra" in view:
            kontra_at = self._kontra_at
            for item, level in view["kontra"].items():
                at, most = kontra_at[item]
                out[at] = level / most
        if self._talon_shown_block and "talon_shown" in view:
            at = start["talon_shown"]
            for card in view["talon_shown"]:
                out[at + index[card]] = 1.0


def clone_game(game: Game) -> Game:
    """A game in the same state as `game`, independent of it: the same cards dealt again and the
    history replayed. Where the dealer chose how to deal (deal.choice), the cards are dealt again
    saying that plan and the choice is not replayed; before the choice nothing is dealt, and the
    copy waits for it too (from the same seed, if there is one)."""
    if game.phase is Phase.DEAL:
        return Game(game.table_ruleset, game.players, game.dealer, seed=game.seed, pot=game.pot_start)
    deal: dict[str, Any] = {"hands": [list(h) for h in game.initial_hands], "talon": list(game.initial_talon)}
    history = game.history
    if game.deal_plan is not None:
        deal["plan"] = game.deal_plan
        if history and history[0] == (game.dealer, {"choose": game.deal_plan}):
            history = history[1:]  # the dealer's choice: said by the plan of the deal given
    copy = Game(game.table_ruleset, game.players, game.dealer, deal=deal, pot=game.pot_start)
    for seat, action in history:
        copy.apply(seat, action)
    return copy


@dataclass
class Pending:
    """A discard or keep being chosen card by card."""

    kind: str  # "discard" or "keep"
    count: int
    chosen: list[str] = field(default_factory=list)
    # The seat's legal actions as the choice began, and how many events the game had then: the
    # game does not move while a choice is pending, so they are listed once, not at every card
    # (listed again should the game have moved meanwhile).
    offered: list[ActionJson] = field(default_factory=list)
    events: int = -1
    listed: list[int] | None = None  # the legal ids after the cards `chosen` (None: not listed yet)


class Places:
    """Where the facts of a deal land in one seat's observation (made once per encoding and seat):
    for each card, its place in the hand; for each seat (by its number, not its position from the
    observer), where its cards played, its calls, its turn, its hand size and its tricks won go,
    and where it is marked as the dealer or the declarer; for each item that may be doubled, where
    its kontra goes. For `BufferObserver`, each block that lists the seats (cards played, the
    trick, calls, hand sizes, tricks won) with the slice of `Public`'s numbers it is copied from."""

    __slots__ = (
        "blocks",
        "calls",
        "copied",
        "dealer",
        "declarer",
        "hand",
        "hand_start",
        "kontra",
        "pack",
        "per_deal",
        "played",
        "sizes",
        "talked",
        "to_act",
        "trick",
        "won",
    )

    def __init__(self, encoding: Encoding, observer: int):
        layout, p = encoding.layout, encoding.players
        n, c = len(encoding.cards), len(encoding.calls)

        def at(block: str, width: int = 1) -> list[int]:
            return [layout[block].start + (s - observer) % p * width for s in range(p)]

        self.hand_start = layout["hand"].start
        self.hand = {card: self.hand_start + i for card, i in encoding.card_index.items()}
        self.played = [{card: row + i for card, i in encoding.card_index.items()} for row in at("played", n)]
        self.trick = layout["trick"].start - layout["played"].start  # the trick's block: the played one shifted
        self.calls = [{call: row + i for call, i in encoding.call_index.items()} for row in at("calls", c)]
        self.to_act, self.sizes, self.won = at("to_act"), at("hand_sizes"), at("tricks_won")
        self.dealer, self.declarer = at("dealer"), at("declarer")
        self.pack, self.per_deal = n, encoding.tricks_per_deal  # hand sizes and tricks won as shares
        # Each item that may be doubled: its place, and the most it may be doubled.
        kontra = layout["kontra"].start
        self.kontra = {item: (kontra + i, encoding.kontra_most[item]) for i, item in enumerate(encoding.kontra_items)}
        # Public's blocks: this seat's run of each (Public holds them twice over, by seat number).
        self.blocks = [
            (layout[name], slice(base + observer * width, base + (observer + p) * width))
            for name, base, width in encoding.public
        ]
        self.blocks.append((layout["kontra"], encoding.public_kontra))
        # Those a step copies: a block of no width, such as the kontras of a ruleset without
        # them, is not (a copy costs about the same whatever its length). The calls and the
        # kontras (`talked`) are copied only where one was made since the seat's last step: in
        # trick play, never; the others change at every card or trick.
        copied = [(block, source) for block, source in self.blocks if block.stop > block.start]
        talked = {layout["calls"].start, layout["kontra"].start}
        self.copied = [(block, source) for block, source in copied if block.start not in talked]
        self.talked = [(block, source) for block, source in copied if block.start in talked]


class Observer:
    """One seat's observation kept up to date as the deal goes, for `EncodedGame.observation`.

    What the seat may see is decided by its view (engine/views.py) alone: the observation is
    `Encoding.observe(game.view(seat))`, made again from the view whenever the deal brought
    anything but a call, a kontra, a card played or a trick won since it was last read. Those are
    written in as the view shows them to every seat (the call, the item doubled, the card among
    the played and in the trick, the hand a card shorter, the trick won) and, for the seat's own
    card, off its hand; whose turn it is and the phase are the game's, as in the view. Where these
    can change more than that, the view is read again after each of them: while a hand lies open
    (Ouvert, open hands) or the holder of a called card is not yet known to all (`_quiet`), and
    after the trick that hides the declarer's discards from it (`play.discards_visible_until`).
    Cards laid or exposed face up stay listed as such when played. These conditions say when the
    view must be read, never what it shows; tests/test_encoding.py holds the observation equal to
    the view's at every step of deals of every ruleset, table size, reading and option.
    """

    __slots__ = (
        "encoding",
        "game",
        "numbers",
        "phase",
        "places",
        "quiet",
        "seat",
        "seen",
        "sizes",
        "to_act",
        "until",
        "won",
    )

    def __init__(self, encoding: Encoding, game: Game, seat: int):
        self.encoding, self.game, self.seat = encoding, game, seat
        self.places = encoding.places[seat]
        self.numbers: list[float] = []
        self.seen = -1  # the events read (-1: the view not read yet)
        self.to_act: int | None = None
        self.phase: Phase | None = None
        self.sizes: list[int] = []  # cards in each seat's hand, by seat
        self.won: list[int] = []  # tricks each seat won, by seat
        self.quiet = False  # whether the events are followed, or the view read again after any
        self.until: int | None = None  # the trick after which the declarer's discards are hidden

    def observe(self) -> list[float]:
        """The seat's observation now, as a new list."""
        game = self.game
        events, seen = game.events, self.seen
        if game.phase is not self.phase or not (seen == len(events) or self._follow(events, seen)):
            self._read_view()
        elif game.to_act is not self.to_act:
            numbers, places = self.numbers, self.places.to_act
            if self.to_act is not None:
                numbers[places[self.to_act]] = 0.0
            self.to_act = to_act = game.to_act
            if to_act is not None:
                numbers[places[to_act]] = 1.0
        return self.numbers[:]

    def _read_view(self) -> None:
        game = self.game
        view = game.view(self.seat, recall=True)  # (every card it saw played, as the events add them)
        self.numbers = self.encoding.observe(view)
        self.seen, self.to_act, self.phase = len(game.events), game.to_act, game.phase
        self.sizes = list(view["hand_sizes"])
        won = [0] * game.players
        for trick in view["tricks"]:
            if trick["winner"] is not None:
                won[trick["winner"]] += 1
        self.won = won
        self.quiet = _quiet(game)
        self.until = game.ruleset.play.discards_visible_until

    def _follow(self, events: list[dict[str, Any]], seen: int) -> bool:
        """Write in the events from `seen` on; False where one of them is not followed (the
        observation is then made from the view again)."""
        if seen < 0 or seen > len(events) or not self.quiet:
            return False
        numbers, places, seat, until = self.numbers, self.places, self.seat, self.until
        played, shift, hand, sizes, won = places.played, places.trick, places.hand, self.sizes, self.won
        # (one loop over local names: an observer reads the events of every turn)
        for event in events[seen:]:
            kind = event["type"]
            if kind == "play":
                s, card = event["seat"], event["card"]
                at = played[s][card]
                numbers[at] = numbers[at + shift] = 1.0
                if s == seat:
                    numbers[hand[card]] = 0.0
                size = sizes[s] = sizes[s] - 1
                numbers[places.sizes[s]] = size / places.pack
            elif kind == "trick" and (until is None or sum(won) + 1 != until):
                for s, card in zip(event["seats"], event["cards"], strict=True):
                    numbers[played[s][card] + shift] = 0.0
                s = event["winner"]
                tricks = won[s] = won[s] + 1
                numbers[places.won[s]] = tricks / places.per_deal
            elif kind == "call":
                numbers[places.calls[event["seat"]][event["call"]]] = 1.0
            elif kind == "kontra":
                at, most = places.kontra[event["item"]]
                numbers[at] = event["level"] / most
            else:
                return False
        self.seen = len(events)
        return True


class Public:
    """The blocks of a deal's observations that every seat's view shows alike (cards played, the
    trick, calls, hand sizes, tricks won, kontra), by seat number, kept up to date from the
    deal's events once for all the seats observed (`EncodedGame.observe_into` writes in a card
    played, and `other` any other event): each seat's observation copies them in, turned to start
    at that seat (`Places.blocks`), beside what it read of its own view.

    They are read from the entries of the view every seat sees alike (`start`, from
    `views.public_view`) as the first seat reads, and follow the events while nothing but a call,
    a kontra, a card played, a trick won, a contract, a new phase or an announcement without cards
    happened. Each seat reads its own part of its view again (a new `round`) after a contract, a
    new phase or an announcement, after the trick that hides the declarer's discards from it
    (`play.discards_visible_until`), and after any event at all in a state where a card played or
    a call can change more of a seat's view than it shows to all (not `_quiet`: a hand lying
    open, a partner not yet known to all). Any other event ends the following (`following`
    false): each seat then reads its view again, and the first to do so reads the blocks anew (a
    new `round`). These conditions say when the views must be read, never what they show;
    tests/test_encoding.py holds every observation equal to the view's at every step of deals of
    every ruleset, table size, reading and option."""

    __slots__ = (
        "bases",
        "by_event",
        "encoding",
        "following",
        "game",
        "hands",
        "no_trick",
        "numbers",
        "plays",
        "quiet",
        "round",
        "seen",
        "shares",
        "sizes",
        "starts",
        "talk",
        "until",
        "view",
        "won",
    )

    def __init__(self, encoding: Encoding, game: Game):
        self.encoding, self.game = encoding, game
        # (every public block twice over, then the kontra block)
        self.numbers = numbers = encoding.zero * len(encoding.public_zeros)
        # (a number is written faster through a memoryview than into its array)
        self.view = _doubles(numbers)
        self.round = 0  # how often a seat's own part must be read again (the blocks started anew, or more)
        self.starts = 0  # how often the blocks were started anew from a view
        self.following = False  # whether the events since `seen` are written in
        self.quiet = False  # whether they change no more of a seat's own view than it reads (`_quiet`)
        self.seen = 0  # the events written in
        self.talk = 0  # how often the calls or kontras were written (an observer copies them then)
        # Each seat's observation (`BufferObserver.numbers`, as a memoryview), once the seat is
        # observed: a card the seat plays is taken off its hand there as it is played. Before,
        # its cards are taken off numbers nobody reads (`Encoding.unread`: the seat's first
        # reading writes its hand as its view shows it), so that a card needs no test of whether
        # its seat is observed.
        self.hands: list[memoryview[float]] = [encoding.unread] * encoding.players
        self.bases = encoding.public_bases  # where each block begins
        self.sizes: list[int] = []  # cards in each seat's hand, by seat
        self.won: list[int] = []  # tricks each seat won, by seat
        self.until = game.ruleset.play.discards_visible_until
        self.plays, by_event, self.shares = encoding.public_plays
        self.by_event = by_event.get  # (bound once: every event is looked up)
        self.no_trick = encoding.no_trick

    def start(self, entries: dict[str, Any], own: dict[str, Any]) -> None:
        """The blocks anew from `entries` (`views.public_view`: the tricks, calls and hand sizes
        every seat sees alike) and the kontras of `own` (a seat's `views.seat_entries`, which
        show them as every seat's do), read now: each number written in both runs of its block."""
        encoding, numbers, p = self.encoding, self.view, self.encoding.players
        if self.round:  # (zeros still, where the blocks were never read)
            numbers[:] = encoding.public_zeros
        plays, shares = self.plays, self.shares
        won = [0] * p
        for trick in entries["tricks"]:
            winner = trick["winner"]
            for s, card in zip(trick["seats"], trick["cards"], strict=False):
                _, played, played_, trick_at, trick_at_ = plays[s][card][:5]
                numbers[played] = numbers[played_] = 1.0
                if winner is None:  # (the trick under way)
                    numbers[trick_at] = numbers[trick_at_] = 1.0
            if winner is not None:
                won[winner] += 1
        width, index, calls = encoding.calls_width, encoding.call_index, self.bases["calls"]
        for s, call in entries["calls"]:
            at = calls + s * width + index[call]
            numbers[at] = numbers[at + p * width] = 1.0
        tricks_won, hand_sizes = self.bases["tricks_won"], self.bases["hand_sizes"]
        for s, tricks in enumerate(won):
            if tricks:
                numbers[tricks_won + s] = numbers[tricks_won + p + s] = tricks / encoding.tricks_per_deal
        sizes = self.sizes = list(entries["hand_sizes"])
        for s, size in enumerate(sizes):
            numbers[hand_sizes + s] = numbers[hand_sizes + p + s] = shares[size]
        kontra_at = encoding.public_kontra_at
        for item, level in own.get("kontra", {}).items():
            at, most = kontra_at[item]
            numbers[at] = level / most
        self.won = won
        self.seen, self.round, self.talk = len(self.game.events), self.round + 1, self.talk + 1
        self.starts += 1
        self.following, self.quiet = True, _quiet(self.game)

    def other(self, event: dict[str, Any]) -> bool:
        """Write in an event other than a card played; False where it is not followed."""
        # (each kind takes only the names it needs: an event of any kind but a card played comes here)
        kind, numbers = event["type"], self.view
        if kind == "trick":
            encoding, won, until, trick = self.encoding, self.won, self.until, self.bases["trick"]
            p = encoding.players
            numbers[trick : trick + 2 * p * encoding.pack] = self.no_trick  # the trick taken in: none being played
            s = event["winner"]
            tricks = won[s] = won[s] + 1
            at = self.bases["tricks_won"] + s
            numbers[at] = numbers[at + p] = tricks / encoding.tricks_per_deal
            if until is not None and sum(won) == until:
                self.round += 1  # the declarer's discards hidden from it from now on: it reads again
        elif kind == "call":
            encoding = self.encoding
            width = encoding.calls_width
            at = self.bases["calls"] + event["seat"] * width + encoding.call_index[event["call"]]
            numbers[at] = numbers[at + encoding.players * width] = 1.0
            self.talk += 1
        elif kind == "kontra":
            at, most = self.encoding.public_kontra_at[event["item"]]
            numbers[at] = event["level"] / most
            self.talk += 1
        elif kind in ("contract", "phase"):
            # A contract or a phase leaves the blocks kept here as they were, but not what each
            # seat sees of its own: each reads that again (a new round).
            self.round += 1
            self.quiet = _quiet(self.game)
        elif kind == "announce" and not event["cards"]:
            self.round += 1  # a bonus announced, no card laid out: each seat's own part shows it
        else:
            return False
        return True


class BufferObserver:
    """One seat's observation kept up to date as the deal goes, in an array of doubles, for
    `EncodedGame.observe_into`.

    As `Observer`'s, the observation is `Encoding.observe(game.view(seat))`, made again from the
    view when the seat is first observed, when the phase changed, and whenever the deal brought
    anything `Public` does not follow since the view was read. Between readings, the blocks every
    seat sees alike are copied in from `Public` (memory copied through memoryviews made once), the
    seat's own cards played are taken off its hand (by `Public`, as it writes the card in), and
    whose turn it is is the game's. A seat reads only its own part of its view (`views.own_view`:
    all but the tricks, calls and hand sizes) and takes those blocks from `Public`; the first seat
    to read after an event `Public` does not follow has `Public` read them anew
    (`views.public_view`). A seat that reads again where only its own entries may have changed
    (`views.own_entries`: a bonus announced, the partner made known; not the table's facts, and
    not its hand, which `Public` keeps while it follows) writes again only their blocks
    (`SEEN_BLOCKS`), and those only where the entries differ from those it last read.
    """

    __slots__ = (
        "contract",
        "declarer",
        "entries",
        "game",
        "numbers",
        "phase",
        "places",
        "public",
        "round",
        "seat",
        "starts",
        "talk",
        "talked",
        "target",
        "to_act",
        "views",
    )

    def __init__(self, public: Public, seat: int):
        encoding = public.encoding
        self.public, self.game, self.seat = public, public.game, seat
        self.places = encoding.places[seat]
        self.numbers = encoding.zeros[:]  # the observation, filled in place (and by Public)
        self.round = 0  # the round of `public` the observation is of (0: the view not read yet)
        self.to_act: int | None = None
        self.phase: Phase | None = None
        # What the seat's own part was read from, as it was last read: its own entries, the
        # contract, the declarer, and how often `public` had started anew from a view then.
        self.entries: dict[str, Any] = {}
        self.contract: Contract | None = None
        self.declarer: int | None = None
        self.starts = -1
        self.target = public.hands[seat] = _doubles(self.numbers)
        # (loops, not comprehensions: no frame of their own, as a learner makes a seat's observer
        # for every deal)
        shared, views, talked = public.view, [], []
        for block, source in self.places.copied:
            views.append((block, shared[source]))
        for block, source in self.places.talked:
            talked.append((block, shared[source]))
        self.views, self.talked = views, talked
        self.talk = 0  # Public's `talk` when the calls and kontras were last copied

    def turn(self, to_act: int | None) -> None:
        """Whose turn it is now `to_act`'s, where it was another's when the seat last looked."""
        places, target = self.places.to_act, self.target
        if self.to_act is not None:
            target[places[self.to_act]] = 0.0
        self.to_act = to_act
        if to_act is not None:
            target[places[to_act]] = 1.0

    def read_view(self) -> None:
        """The observation made again from the seat's view (as the seat is first observed, and
        whenever `Public` says the deal brought what it does not follow)."""
        game, public, numbers = self.game, self.public, self.numbers
        encoding = public.encoding
        # Of the view, the seat reads its own entries (views.own_view: the view, every card played
        # recalled, without the tricks, calls and hand sizes every seat sees alike; the table's
        # facts and its hand from the game, the rest as views.own_entries makes them), and takes
        # the blocks those make from Public, which reads them anew (views.public_view) where it
        # is not up to date.
        entries, target = own_entries(game, self.seat), self.target
        if not public.following or public.seen != len(game.events):
            public.start(public_view(game), entries)
        elif (
            self.starts == public.starts
            and game.phase is self.phase
            and game.contract is self.contract
            and game.declarer == self.declarer
        ):
            # The table's facts as the seat read them, and its hand as Public kept it (no event
            # since that Public does not follow): of its own part, only the blocks of its own
            # entries are written again, where those changed (a bonus announced, the partner
            # known); the blocks every seat sees alike are copied in, and whose turn it is.
            if entries != self.entries:
                for run, zeros in encoding.seen_runs:
                    target[run] = zeros
                encoding._fill_seen(entries, self.seat, target)  # (SEEN_BLOCKS, zeros now)
                self.entries = entries
            for block, shared in self.views:
                target[block] = shared
            for block, shared in self.talked:
                target[block] = shared
            if game.to_act is not self.to_act:
                self.turn(game.to_act)
            self.round, self.talk = public.round, public.talk
            return
        if self.round:  # (zeros still, where the seat was never observed)
            numbers[:] = encoding.zeros
        encoding.fill_seat(game, self.seat, entries, target)
        for block, shared in self.views:
            target[block] = shared
        for block, shared in self.talked:
            target[block] = shared
        self.round, self.talk, self.starts, self.entries = public.round, public.talk, public.starts, entries
        self.to_act, self.phase, self.contract, self.declarer = game.to_act, game.phase, game.contract, game.declarer


def _quiet(game: Game) -> bool:
    """Whether the events an `Observer` follows (a call, a kontra, a card played, a trick won), in
    the state `game` is in, change no more of any seat's view than what they show to all and the
    player's own hand."""
    contract, exchange = game.contract, game.exchange
    if contract is not None and contract.open_hand:
        return False  # a hand lying open shows each card leaving it
    called = game.called_card or (exchange.partner_card if exchange is not None else None)
    # The called card played, or its holder speaking in the round, tells who the partner is.
    return called is None or game.partner_public


class EncodedGame:
    """A game driven by action ids (OpenSpiel's State): legal ids, apply an id, observe, clone."""

    def __init__(self, game: Game, encoding: Encoding | None = None):
        self.game = game
        self.encoding = encoding or Encoding.of(game.table_ruleset, game.players)
        if self.encoding.players != game.players or self.encoding.ruleset is not game.ruleset:
            raise InvalidActionError("the encoding is of another ruleset or table size than the game")
        self.pending: Pending | None = None
        # Each seat's observer, made as the seat is first observed: `observation`'s, and
        # `observe_into`'s with the `Public` they share.
        self._observers: dict[int, Observer] = {}
        self._buffers: dict[int, BufferObserver] = {}
        self._size = self.encoding.observation_size
        self._public: Public | None = None
        # The game's own shared action of each id that has one (a call, a card, a kontra).
        self._ready = self.encoding.action_table.ready_by_id.get
        self._legal = self.encoding.action_table.legal

    def current_player(self) -> int | None:
        return self.game.to_act

    def is_terminal(self) -> bool:
        return self.game.is_over

    def returns(self) -> list[int]:
        """The payments by seat once the deal is over (zeros before)."""
        result = self.game.result
        return list(result.payments) if result is not None else [0] * self.game.players

    def legal_actions(self) -> list[int]:
        """The ids the seat to act may take now, ascending."""
        pending = self.pending
        if pending is None:
            return self.game.legal_ids()  # (none once the deal is over)
        return [*self._listed(pending)]

    def _listed(self, pending: Pending) -> list[int]:
        """The legal ids after the cards `pending` has chosen so far (listed once for them)."""
        if pending.listed is None or pending.events != len(self.game.events):
            pending.listed = self._legal(self._offered(pending), pending.chosen)
        return pending.listed

    def _offered(self, pending: Pending) -> list[ActionJson]:
        """The legal actions of the seat choosing `pending` card by card."""
        game = self.game
        if pending.events != len(game.events):
            pending.offered, pending.events = game.legal_actions(), len(game.events)
        return pending.offered

    def apply_action(self, action_id: int) -> None:
        """Apply the action `action_id` by the seat to act (a card of a discard is kept until
        the discard is complete). Raises IllegalActionError, changing nothing, if not legal now."""
        if self.pending is None and self.game.push_listed(action_id):
            return  # one of the ids `legal_actions` listed for this turn
        game = self.game
        seat = game.to_act
        if seat is None:
            raise IllegalActionError("the deal is over", 0)
        if self.pending is None and type(action_id) is int:
            action = self._ready(action_id)
            if action is not None:
                # The game's own shared action (a call, a card, a kontra): the game judges it.
                game.apply(seat, action)
                return
        kind, what = self.encoding.step(action_id)  # (InvalidActionError for no id at all)
        if self.pending is None and kind not in ("discard", "keep"):
            # A whole action in one id: the game judges it (refused with its reason, and nothing
            # changed, where it is not legal now).
            self.game.apply(seat, self.encoding.action_table.action((action_id,)))
            return
        pending = self.pending
        if pending is None:
            # The first card: legal where one of the discards or keeps offered has it (the ids
            # `legal_actions` listed for the turn, asked of the offer without listing it again).
            offered = game.legal_actions()
            if not self.encoding.action_table.offers(offered, kind, what):
                raise IllegalActionError(f"{kind} {what!r} (id {action_id}) is not legal now", seat)
            pending = self.pending = Pending(kind, self._count(seat, kind, offered), [], offered, len(game.events))
        elif action_id not in self._listed(pending):  # (a discard's card: only the discard is legal meanwhile)
            raise IllegalActionError(f"{kind} {what!r} (id {action_id}) is not legal now", seat)
        pending.chosen.append(what)
        pending.listed = None
        if len(pending.chosen) < pending.count:
            return
        self.pending = None
        try:
            self.game.apply(seat, {kind: list(pending.chosen)})
        except (IllegalActionError, InvalidActionError):
            pending.chosen.pop()  # refused (a combination a template could not tell): nothing changed
            pending.listed = None
            self.pending = pending if pending.chosen else None
            raise

    @staticmethod
    def _count(seat: int, kind: str, offered: list[ActionJson]) -> int:
        """How many cards the `kind` among the actions `offered` to `seat` takes."""
        for action in offered:
            if isinstance(action, dict) and kind in action:
                value = action[kind]
                return int(value["count"]) if isinstance(value, dict) else len(value)
        raise IllegalActionError(f"no {kind} is legal now", seat)

    def observation(self, seat: int) -> list[float]:
        """What `seat` may see, as `encoding.observation_size` numbers (see the module's doc): a
        new list, equal to `encoding.observe(game.view(seat), choosing)`, kept up to date from the
        deal's public events since the seat's view was last read (`Observer`)."""
        observer = self._observers.get(seat) if type(seat) is int else None
        if observer is None:
            if type(seat) is not int or not 0 <= seat < self.game.players:
                # The view's refusal, naming the seats there are; the umpire's and a spectator's
                # views are no seat's.
                return self.encoding.observe(self.game.view(seat))
            observer = self._observers[seat] = Observer(self.encoding, self.game, seat)
        out = observer.observe()
        if self.pending is not None:
            self._choosing(seat, out)
        return out

    def observe_into(self, seat: int, out: MutableSequence[float]) -> None:
        """Write what `seat` may see into `out`, the caller's buffer of `encoding.observation_size`
        numbers: the same numbers as `observation(seat)`, without a new list at each step, as
        OpenSpiel's ObservationTensor fills a span. They are kept as an array of doubles, so that
        an `array("d")`, a numpy array of float64 or a memoryview of doubles is filled in one
        copy of memory (a list is filled number by number). The blocks every seat sees alike are
        kept once for all seats (`Public`), so that a step costs about the same at any table."""
        observer = self._buffers.get(seat) if type(seat) is int else None
        if observer is None or len(out) != self._size:
            observer = self._buffer_observer(seat, out)
        # The step, here rather than called (a learner observes at every step): Public follows
        # the events since its last step, each number written in both runs of its block (a card
        # played is known by its event alone, and taken off its seat's observed hand); then the
        # seat's observation is brought up to date and copied: any buffer of doubles in one copy
        # of memory, or a list.
        public, game = observer.public, self.game
        events = game.events
        seen, count = public.seen, len(events)
        if seen < count and public.following:
            numbers, by_event = public.view, public.by_event
            while seen < count:
                event = events[seen]
                seen += 1
                places = by_event(id(event))
                if places is not None:
                    s, played, played_, trick, trick_, in_hand, size_at, size_at_ = places
                    numbers[played] = numbers[played_] = numbers[trick] = numbers[trick_] = 1.0
                    public.hands[s][in_hand] = 0.0
                    sizes = public.sizes
                    size = sizes[s] = sizes[s] - 1
                    numbers[size_at] = numbers[size_at_] = public.shares[size]
                elif not public.other(event):
                    public.following = False
                    break
            public.seen = count
            if not public.quiet:
                # A card played or a call may have shown more to a seat than to all (the called
                # card's holder, a card leaving a hand lying open): each reads its own part again.
                public.round += 1
                public.quiet = _quiet(game)
        elif seen > count:
            public.following = False  # (events taken back: the blocks are read anew)
        if observer.round != public.round or not public.following or game.phase is not observer.phase:
            observer.read_view()
        else:
            target = observer.target
            for block, view in observer.views:
                target[block] = view
            if observer.talk != public.talk:
                observer.talk = public.talk
                for block, view in observer.talked:
                    target[block] = view
            if game.to_act is not observer.to_act:
                observer.turn(game.to_act)
        out[:] = observer.numbers
        if self.pending is not None:
            self._choosing(seat, out)

    def _buffer_observer(self, seat: int, out: MutableSequence[float]) -> BufferObserver:
        """`seat`'s observer for `observe_into`, made as the seat is first observed, once `out` is
        found to be of the observation's size and `seat` one of the seats."""
        if len(out) != self._size:
            raise InvalidActionError(
                f"the buffer holds {len(out)} numbers; an observation has {self._size} (encoding.observation_size)"
            )
        observer = self._buffers.get(seat) if type(seat) is int else None
        if observer is None:
            if type(seat) is not int or not 0 <= seat < self.game.players:
                self.encoding.observe(self.game.view(seat))  # (the view's refusal, as `observation`'s)
            if self._public is None:
                self._public = Public(self.encoding, self.game)
            observer = self._buffers[seat] = BufferObserver(self._public, seat)
        return observer

    def _choosing(self, seat: int, out: MutableSequence[float]) -> None:
        """The cards `seat` has chosen so far of its unfinished discard or keep, marked in `out`."""
        pending = self.pending
        if pending is not None and seat == self.game.to_act:
            at, index = self.encoding.layout["choosing"].start, self.encoding.card_index
            for card in pending.chosen:
                out[at + index[card]] = 1.0

    def clone(self) -> EncodedGame:
        copy = EncodedGame(clone_game(self.game), self.encoding)
        if self.pending is not None:
            # (its legal actions listed anew, from the copy)
            copy.pending = Pending(self.pending.kind, self.pending.count, list(self.pending.chosen))
        return copy
