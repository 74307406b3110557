"""What a seat may see of a deal: the information boundary of the engine.

A seat sees its own hand and the public facts: calls, cards played and tricks, cards laid or
exposed face up, an open hand (Ouvert), the talon and the discards only where the rules turn
them over, and the settlement when the deal is over. The umpire's view ("all") sees everything;
a spectator's (None) only what every seat at the table sees: no hand, and no fact that one seat
knows before the others (the called King's holder, the declarer's discards). Every frontend and
bot reads a seat's view, so this is the one place that decides.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine.actions import FrozenList, ShownTrick
from interpreter.engine.announcing import Round
from interpreter.engine.phase import Phase
from interpreter.errors import InvalidActionError

if TYPE_CHECKING:
    from interpreter.engine.exchange import Exchange
    from interpreter.engine.game import Game
    from interpreter.engine.table import Cards
    from interpreter.language.model import Contract


def view_of(game: Game, seat: int | str | None, recall: bool = False) -> dict[str, Any]:
    """What `seat` may see; `"all"` is the umpire's full view, None a spectator's (the public
    facts alone). Never another seat's hidden cards. Of the finished tricks, the cards of those
    the rules let it look at (`play.tricks_seen`, `tricks_hidden`); with `recall`, every card
    played, as a player who remembers them all saw them fall (the bots)."""
    players = game.players
    # (A seat's view is what bots read at every choice: the common case is tested first.)
    own: int | None = None  # the seat's number; None for the umpire and a spectator
    if type(seat) is int and 0 <= seat < players:
        umpire, own = False, seat
    else:
        umpire = seat == "all"
        if (
            not umpire
            and seat is not None
            and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players)
        ):
            raise InvalidActionError(f'no seat {seat!r}: seats are 0 to {players - 1}, or "all"')
        own = seat if isinstance(seat, int) else None
    key = game.ruleset.deck.shown_order.__getitem__  # (sort_key's order, a lookup per card)
    cards, contract = game.cards, game.contract
    hands = cards.hands
    seats = range(players)
    view = _table_facts(game, seat)
    view |= public_view(game)
    if umpire:
        view["hands"] = [sorted(hands[s], key=key) for s in seats]
    else:
        view["hand"] = sorted(hands[own], key=key) if own is not None else []
        if contract is not None and contract.open_hand:
            _open_hand(game, contract, own, view, key)
    if contract is not None and contract.open_hand and contract.open_hand_who == "all":
        _open_hands(game, view, key)
    _partnership(game, own, umpire, view)
    _cards_aside(game, cards, own, umpire, view, key)
    if not umpire and not recall and game.ruleset.play.tricks_seen != "all":
        _turned_down(game, own, view)
    result = game.result
    if result is not None and game.phase is Phase.OVER:
        view["result"] = result.as_dict()
    return view


# The entries of a seat's view that every seat's view shows alike whoever looks (with every
# card played recalled): `public_view` gives them, `own_view` the others.
PUBLIC_ENTRIES = ("hand_sizes", "calls", "tricks")


def public_view(game: Game) -> dict[str, Any]:
    """`PUBLIC_ENTRIES` of a view, as every seat's view with every card played recalled shows
    them (and the umpire's): how many cards each seat holds, the calls, and the tricks. For an
    observer that keeps them once for the whole table (engine/encoding.py's `Public`)."""
    hands = game.cards.hands
    return {
        "hand_sizes": list(map(len, map(hands.__getitem__, range(game.players)))),
        "calls": list(map(list, game.calls)),
        "tricks": _tricks(game),
    }


def _table_facts(game: Game, seat: int | str | None) -> dict[str, Any]:
    """The entries every view begins with, the same for whoever looks: the table, whose turn,
    the contract and its declarer, how many cards lie in the talon, and the deal plan the dealer
    chose aloud (deal.choice)."""
    contract = game.contract
    facts: dict[str, Any] = {
        "ruleset": game.ruleset.name,
        "players": game.players,
        "dealer": game.dealer,
        "seats_out": list(game.seats_out),
        "seat": seat,
        "phase": game.phase._value_,  # (`.value`, without the enum's descriptor call)
        "to_act": game.to_act,
        "contract": contract.name if contract else None,
        "declarer": game.declarer,
        "talon_size": len(game.cards.talon),
    }
    if game.deal_plan is not None:
        facts["deal_plan"] = game.deal_plan
    return facts


def _seat_checked(game: Game, seat: object) -> int:
    """The number of players, once `seat` is found to be one of the seats (a part of a seat's
    view is a seat's alone: the umpire and a spectator have no own part)."""
    players = game.players
    if type(seat) is not int or not 0 <= seat < players:
        raise InvalidActionError(f"no seat {seat!r}: seats are 0 to {players - 1}")
    return players


def own_view(game: Game, seat: int) -> dict[str, Any]:
    """`view_of(game, seat, recall=True)` without `PUBLIC_ENTRIES`: what a seat sees that it
    does not see alike with every other seat, and the table's state (phase, turn, dealer,
    contract, declarer), each entry made by the same code as the view's. For an observer that
    keeps the public entries once for the whole table (engine/encoding.py's `Public`) and reads
    each seat's own; tests/test_encoding.py holds it equal to the view's entries."""
    entries = seat_entries(game, seat)
    view = _table_facts(game, seat)
    view["hand"] = sorted(game.cards.hands[seat], key=game.ruleset.deck.shown_order.__getitem__)
    view |= entries
    return view


def seat_entries(game: Game, seat: int) -> dict[str, Any]:
    """Of `own_view(game, seat)`, the entries after the table's facts (`_table_facts`) and the
    seat's hand: a hand lying open, the called card and the partner where the seat knows them,
    what was announced and doubled, the talon and discards where it sees them, the cards lying
    face up, and the result. For an observer that reads the table's facts and the hand itself
    (engine/encoding.py's `BufferObserver`, by `own_entries`)."""
    _seat_checked(game, seat)
    return own_entries(game, seat)


def own_entries(game: Game, seat: int) -> dict[str, Any]:
    """`seat_entries(game, seat)` for a seat known to be one of the table's (an observer made
    for it, which reads them at every change of phase): the same entries, the seat not checked
    again."""
    key = game.ruleset.deck.shown_order.__getitem__
    cards, contract = game.cards, game.contract
    view: dict[str, Any] = {}
    if contract is not None and contract.open_hand:
        _open_hand(game, contract, seat, view, key)
        if contract.open_hand_who == "all":
            _open_hands(game, view, key)
    _partnership(game, seat, False, view)
    _cards_aside(game, cards, seat, False, view, key)
    result = game.result
    if result is not None and game.phase is Phase.OVER:
        view["result"] = result.as_dict()
    return view


# The entries of a seat's view that `trick_view` gives (with those `_partnership` and
# `_cards_aside` add): what a choice of a card to play reads.
TRICK_VIEW = ("seat", "players", "seats_out", "contract", "declarer", "tricks", "hand")


def trick_view(game: Game, seat: int) -> dict[str, Any]:
    """Of what `seat` sees, with every card played recalled (`view_of(game, seat, recall=True)`),
    the entries a choice of a card to play reads: `TRICK_VIEW`, the called card and the partner
    where the seat knows them, and the talon and discards where it may see them (with the other
    public facts those helpers add). Each entry is the view's own, made by the same code: a bot
    that chooses a card at every turn (interpreter/bots/rulebot.py) need not build the calls, the
    hand sizes and the rest it does not read (`Game.trick_view`). tests/test_rulebot.py holds the
    two equal at every turn."""
    players = _seat_checked(game, seat)
    key = game.ruleset.deck.shown_order.__getitem__
    cards, contract = game.cards, game.contract
    view: dict[str, Any] = {
        "seat": seat,
        "players": players,
        "seats_out": list(game.seats_out),
        "contract": contract.name if contract else None,
        "declarer": game.declarer,
        "tricks": _tricks(game),
        "hand": sorted(cards.hands[seat], key=key),
    }
    _partnership(game, seat, False, view)
    _cards_aside(game, cards, seat, False, view, key)
    return view


def _tricks(game: Game) -> list[dict[str, Any]]:
    """The tricks of the deal: those finished before any under way read-only, each made once and
    shared by every view (a view is read at every choice of a bot); the rest as new dicts of new
    lists."""
    tricks = game.tricks
    made_from, shown = game.shown_tricks
    if made_from is not tricks:  # (a new deal's trick play, or none)
        shown = []
        game.shown_tricks = (tricks, shown)
    listed: list[dict[str, Any]] = list(shown)
    for t in tricks[len(shown) :]:
        if t.winner is not None and len(listed) == len(shown):  # finished, none under way before it
            finished = ShownTrick(
                leader=t.leader, seats=FrozenList(t.seats), cards=FrozenList(t.cards), winner=t.winner
            )
            shown.append(finished)
            listed.append(finished)
        else:
            listed.append({"leader": t.leader, "seats": t.seats[:], "cards": t.cards[:], "winner": t.winner})
    return listed


def tricks_hidden(game: Game, seat: int | None) -> frozenset[int]:
    """The finished tricks (by index, 0 = the first) whose cards `seat` (None: a spectator) may
    not look at now, by `play.tricks_seen`: under `last` all but the last trick taken, under `own`
    all but that and the seat's own; none under `all`, and none once the deal is over (the tricks
    are turned over to be counted). The trick under way is never hidden: its cards lie face up.
    Views, the protocol's events and the web table's log all ask here."""
    seen = game.ruleset.play.tricks_seen
    if seen == "all" or game.phase is Phase.OVER:
        return frozenset()
    finished = [i for i, t in enumerate(game.tricks) if t.winner is not None]
    last = finished[-1] if finished else None
    return frozenset(
        i for i in finished if i != last and not (seen == "own" and seat is not None and game.tricks[i].winner == seat)
    )


def _turned_down(game: Game, seat: int | None, view: dict[str, Any]) -> None:
    """The finished tricks `seat` may not look at again, with their cards (and a talon card
    added to them) left out: `cards` None."""
    hidden = tricks_hidden(game, seat)
    if hidden:
        view["tricks"] = [{**t, "cards": None} if i in hidden else t for i, t in enumerate(view["tricks"])]
        if "talon_cards" in view:
            view["talon_cards"] = {n: c for n, c in view["talon_cards"].items() if n - 1 not in hidden}


def _open_hand(game: Game, contract: Contract, seat: int | None, view: dict[str, Any], key: Any) -> None:
    """The declarer's hand where it lies face up for everyone (Ouvert)."""
    declarer = game.declarer
    if (
        contract.open_hand_who == "declarer"
        and contract.open_hand_from <= 1
        and game.trickplay is not None
        and declarer != seat
    ):
        assert declarer is not None
        view["open_hand"] = {"seat": declarer, "cards": sorted(game.hands[declarer], key=key)}


def _cards_aside(game: Game, cards: Cards, seat: int | None, umpire: bool, view: dict[str, Any], key: Any) -> None:
    """The talon and the discards where `seat` may see them, and the cards lying face up."""
    result = game.result
    if umpire or (result is not None and game.phase is Phase.OVER and result.points is not None):
        # The talon and discards are shown when the cards are counted (not in a deal thrown in);
        # to a seat sorted, as hands are: their order is the deal's (which discard came from the
        # talon taken up), which nobody saw.
        view["talon"] = list(cards.talon) if umpire else sorted(cards.talon, key=key)
        view["aside"] = list(cards.aside) if umpire else sorted(cards.aside, key=key)
    if game.laid:
        view["laid_out"] = [card for _, card in game.laid]  # Ulti cards lie face up
    if cards.exposed:
        view["exposed"] = list(cards.exposed)  # Cego's empty cards lie face up
    if seat is None:
        return  # the umpire saw them all above; a spectator sees no more
    declarer = game.declarer
    exchange = game.exchange
    if (
        exchange is not None
        and exchange.rest_seen_by_defenders
        and seat != declarer
        and seat != game.partner
        and seat in game.seats
    ):
        # The talon left over after a partial draw, looked at by the defenders (never the declarer),
        # as it lies.
        view["talon"] = list(cards.talon)
    if seat == declarer:
        # The bidder may look at their own discards (the Legage) until the rules say so, also
        # in a game with cards laid face up.
        contract = game.contract
        if contract and contract.exchange:
            until = game.ruleset.play.discards_visible_until
            if until is None or sum(1 for t in game.tricks if t.winner is not None) < until:
                view["aside"] = sorted(cards.aside, key=key)


def _open_hands(game: Game, view: dict[str, Any], key: Any) -> None:
    """Every hand, once the contract lays them all face up (from a given trick)."""
    contract, play = game.contract, game.trickplay
    if contract is None or play is None or not contract.open_hand or contract.open_hand_who != "all":
        return
    started = sum(1 for t in play.tricks if t.cards)
    if started >= contract.open_hand_from:
        view["open_hands"] = {s: sorted(game.hands[s], key=key) for s in game.seats}


def _partnership(game: Game, seat: int | None, umpire: bool, view: dict[str, Any]) -> None:
    """The called card and the partner, each only where `seat` can know it for certain: the
    umpire; the holder of the called card; the declarer holding it (alone); everybody once the
    card was seen or the partner spoke. Also the talon laid out face up, the talon cards added to
    tricks, and what was announced and doubled (all public)."""
    exchange, called = game.exchange, game.called_card
    card = called or (exchange.partner_card if exchange is not None else None)
    if card is None:
        _public_facts(game, exchange, view)
        return
    named = (called is not None and game.called_named) or (exchange is not None and exchange.partner_named)
    holds = seat is not None and card in game.hands[seat]
    declarer = seat is not None and seat == game.declarer
    public = game.partner_public
    if umpire or named or declarer or holds or public:
        view["called"] = card
    phase = game.phase
    settled = (phase is Phase.ANNOUNCE or phase is Phase.PLAY or phase is Phase.OVER) and called is not None
    if settled and (umpire or public or holds or phase is Phase.OVER):
        view["partner"] = game.partner
    _public_facts(game, exchange, view)


def _public_facts(game: Game, exchange: Exchange | None, view: dict[str, Any]) -> None:
    if exchange is not None and exchange.talon_shown:
        view["talon_shown"] = list(exchange.shown_cards)
    if game.talon_added:
        view["talon_cards"] = {n: list(cards) for n, cards in game.talon_added.items()}
    play = game.trickplay
    if play is not None and play.ended is not None:
        # Play ended once the contract was decided: after which trick, and why (no card is named).
        view["play_ended"] = {"after_trick": len(play.tricks), "reason": play.ended.rule.reason}
    round_ = game.announcement
    if isinstance(round_, Round):
        if round_.announced:
            view["announced"] = dict(round_.announced)
        if round_.levels:
            view["kontra"] = dict(round_.levels)
