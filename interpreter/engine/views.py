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

from interpreter.engine.announcing import AnnouncementRound
from interpreter.engine.phase import Phase
from interpreter.errors import InvalidActionError

if TYPE_CHECKING:
    from interpreter.engine.game import Game


def view_of(game: Game, seat: int | str | None) -> dict[str, Any]:
    """What `seat` may see; `"all"` is the umpire's full view, None a spectator's (the public
    facts alone). Never another seat's hidden cards."""
    umpire = seat == "all"
    spectator = seat is None
    if (
        not umpire
        and not spectator
        and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.players)
    ):
        raise InvalidActionError(f'no seat {seat!r}: seats are 0 to {game.players - 1}, or "all"')
    key = game.ruleset.deck.sort_key
    over = game.phase is Phase.OVER
    result = game.result
    view: dict[str, Any] = {
        "ruleset": game.ruleset.name,
        "players": game.players,
        "dealer": game.dealer,
        "sitting_out": game.sitting_out,
        "seat": seat,
        "phase": game.phase.value,
        "to_act": game.to_act,
        "hand_sizes": [len(game.hands[s]) for s in range(game.players)],
        "calls": [[s, call] for s, call in game.calls],
        "contract": game.contract.name if game.contract else None,
        "declarer": game.declarer,
        "talon_size": len(game.talon),
        "tricks": [
            {"leader": t.leader, "seats": list(t.seats), "cards": list(t.cards), "winner": t.winner}
            for t in game.tricks
        ],
    }
    if umpire:
        view["hands"] = [sorted(game.hands[s], key=key) for s in range(game.players)]
    else:
        view["hand"] = sorted(game.hands[seat], key=key) if isinstance(seat, int) else []
        contract = game.contract
        if (
            contract
            and contract.open_hand
            and contract.open_hand_who == "declarer"
            and contract.open_hand_from <= 1
            and game.trickplay is not None
            and game.declarer != seat
        ):
            # Ouvert: the declarer's hand lies face up for everyone.
            assert game.declarer is not None
            view["open_hand"] = {"seat": game.declarer, "cards": sorted(game.hands[game.declarer], key=key)}
    _open_hands(game, view, key)
    _partnership(game, seat, view)
    if umpire or (over and result is not None and result.points is not None):
        # The talon and discards are shown when the cards are counted (not in a deal thrown in);
        # to a seat sorted, as hands are: their order is the deal's (which discard came from the
        # talon taken up), which nobody saw.
        view["talon"] = list(game.talon) if umpire else sorted(game.talon, key=key)
        view["aside"] = list(game.aside) if umpire else sorted(game.aside, key=key)
    if game.laid:
        view["laid_out"] = [card for _, card in game.laid]  # Ulti cards lie face up
    if game.exposed:
        view["exposed"] = list(game.exposed)  # Cego's empty cards lie face up
    if (
        isinstance(seat, int)
        and game.exchange is not None
        and game.exchange.rest_seen_by_defenders
        and seat in game.seats
        and seat != game.declarer
        and seat != game.partner
    ):
        # The talon left over after a partial draw, looked at by the defenders (never the declarer),
        # as it lies.
        view["talon"] = list(game.talon)
    if isinstance(seat, int) and seat == game.declarer:
        # The bidder may look at their own discards (the Legage) until the rules say so, also
        # in a game with cards laid face up.
        until = game.ruleset.play.discards_visible_until
        finished = sum(1 for t in game.tricks if t.winner is not None)
        if game.contract and game.contract.exchange and (until is None or finished < until):
            view["aside"] = sorted(game.aside, key=key)
    if over and result is not None:
        view["result"] = result.as_dict()
    return view


def _open_hands(game: Game, view: dict[str, Any], key: Any) -> None:
    """Every hand, once the contract lays them all face up (from a given trick)."""
    contract, play = game.contract, game.trickplay
    if contract is None or play is None or not contract.open_hand or contract.open_hand_who != "all":
        return
    started = sum(1 for t in play.tricks if t.cards)
    if started >= contract.open_hand_from:
        view["open_hands"] = {s: sorted(game.hands[s], key=key) for s in game.seats}


def _partnership(game: Game, seat: int | str | None, view: dict[str, Any]) -> None:
    """The called card and the partner, each only where `seat` can know it for certain: the
    umpire; the holder of the called card; the declarer holding it (alone); everybody once the
    card was seen or the partner spoke. Also the talon laid out face up, the talon cards added to
    tricks, and what was announced and doubled (all public)."""
    exchange = game.exchange
    card = game.called_card or (exchange.partner_card if exchange is not None else None)
    if card is None:
        _public_facts(game, view)
        return
    named = (game.called_card is not None and game.called_named) or (exchange is not None and exchange.partner_named)
    holds = isinstance(seat, int) and card in game.hands[seat]
    declarer = isinstance(seat, int) and seat == game.declarer
    if seat == "all" or named or declarer or holds or game.partner_public:
        view["called"] = card
    settled = game.phase in (Phase.ANNOUNCE, Phase.PLAY, Phase.OVER) and game.called_card is not None
    if settled and (seat == "all" or game.partner_public or holds or game.phase is Phase.OVER):
        view["partner"] = game.partner
    _public_facts(game, view)


def _public_facts(game: Game, view: dict[str, Any]) -> None:
    exchange = game.exchange
    if exchange is not None and exchange.talon_shown:
        view["talon_shown"] = list(exchange.shown_cards)
    if game.talon_added:
        view["talon_cards"] = {n: list(cards) for n, cards in game.talon_added.items()}
    round_ = game.announcement
    if isinstance(round_, AnnouncementRound):
        if round_.announced:
            view["announced"] = dict(round_.announced)
        if round_.levels:
            view["kontra"] = dict(round_.levels)
