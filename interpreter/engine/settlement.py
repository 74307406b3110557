"""Counting and settlement: from the tricks of a finished deal to the payments.

Separate from the state machine because it is pure arithmetic over what happened: which cards
each side took, who announced and bid what, and the ruleset's formulas.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from interpreter.language.model import (
    Bonus,
    Condition,
    Contract,
    Counting,
    Declaration,
    Individual,
    Route,
    Ruleset,
)

if TYPE_CHECKING:
    from interpreter.engine.play import Trick


_set_field = object.__setattr__  # past a frozen dataclass's own __setattr__


@dataclass(frozen=True, init=False)
class Result:
    outcome: str  # played | claimed | thrown_in | abandoned | accused | conceded
    contract: str | None
    declarer: int | None
    declarer_won: bool | None
    points: dict[str, Any] | None  # {"declarer": …, "defenders": …}, or {"seats": [...]}
    tricks: dict[str, Any] | None
    payments: list[int]
    reason: str = ""
    announcements: tuple[dict[str, Any], ...] = ()  # each laid card: {name, card, won, value}
    pot: int = 0  # what the pot gained in this deal (payments + pot = 0)
    partner: int | None = None  # the declarer's partner, where a card was called for one
    # each bonus scored: {name, side, announced, kontra, achieved, value, payments (by seat)}; a
    # combination in a hand also names its holder's `seat`
    bonuses: tuple[dict[str, Any], ...] = ()
    kontra: int = 1  # the game's multiplier from kontra, rekontra …

    def __init__(
        self,
        outcome: str,
        contract: str | None,
        declarer: int | None,
        declarer_won: bool | None,
        points: dict[str, Any] | None,
        tricks: dict[str, Any] | None,
        payments: list[int],
        reason: str = "",
        announcements: tuple[dict[str, Any], ...] = (),
        pot: int = 0,
        partner: int | None = None,
        bonuses: tuple[dict[str, Any], ...] = (),
        kontra: int = 1,
    ) -> None:
        # Made at the end of every deal: the instance's dict written at once, as a frozen
        # dataclass's own __init__ (one object.__setattr__ a field) costs three times as much,
        # and the fields at their defaults left to the class's (most are, in most deals).
        fields: dict[str, Any] = {
            "outcome": outcome,
            "contract": contract,
            "declarer": declarer,
            "declarer_won": declarer_won,
            "points": points,
            "tricks": tricks,
            "payments": payments,
        }
        if reason:
            fields["reason"] = reason
        if announcements:
            fields["announcements"] = announcements
        if pot:
            fields["pot"] = pot
        if partner is not None:
            fields["partner"] = partner
        if bonuses:
            fields["bonuses"] = bonuses
        if kontra != 1:
            fields["kontra"] = kontra
        _set_field(self, "__dict__", fields)

    def as_dict(self) -> dict[str, Any]:
        """The result as events and views show it: new lists and mappings, safe to change."""
        return self.written_into({})

    def written_into(self, result: dict[str, Any]) -> dict[str, Any]:
        """`result` with the result as `as_dict` gives it added (the settlement event: its type,
        then the result; made in one mapping)."""
        # The instance's dict holds the fields not at their defaults, in order (__init__ wrote
        # it so): the event names only what happened. Then the tables, lists and mappings in it
        # are written again as copies.
        fields = self.__dict__
        result.update(fields)
        points, tricks = fields["points"], fields["tricks"]
        if points is not None:
            result["points"] = points.copy() if "seats" not in points else _copy(points)
        if tricks is not None:
            result["tricks"] = tricks.copy() if "seats" not in tricks else _copy(tricks)
        result["payments"] = fields["payments"][:]
        if "announcements" in fields:
            result["announcements"] = [dict(a) for a in fields["announcements"]]
        if "bonuses" in fields:
            result["bonuses"] = list(map(_copy_bonus, fields["bonuses"]))
        return result


@dataclass(slots=True)  # made once per deal and only read: not frozen, which costs 4 µs a deal
class Deal:
    """What the settlement needs to know about a finished deal. (Slots, not a named tuple: its
    fields are read by a slot's quick attribute lookup, a named tuple's by the generic one.)"""

    ruleset: Ruleset
    contract: Contract
    declarer: int | None  # None where everyone plays for themselves
    seats: list[int]  # active seats
    players: int  # people at the table
    seats_out: tuple[int, ...]  # seats that sit out (empty: nobody)
    bidders: frozenset[int]  # seats that bid in the auction
    withheld: dict[int, str]  # seat -> the card it withheld
    laid: tuple[tuple[str, str], ...]  # (announcement, card) the declarer laid out
    declared: tuple[Declaration, ...] = ()  # declarations made (Tout): each changes the aim and the value
    pot: int | None = None  # the pot's size before the deal, when one is kept
    partner: int | None = None  # the declarer's partner (a called card's holder), None: alone
    called: frozenset[str] = frozenset()  # the cards called for a partner
    kontra: int = 1  # the game's multiplier from kontra, rekontra …
    announced: frozenset[tuple[str, str]] = frozenset()  # (bonus, "declarer" | "defenders") announced
    bonus_kontra: tuple[tuple[str, int], ...] = ()  # (bonus, times doubled)
    # (bonus, the seat that announced it), where a combination in a hand is judged (`hands`)
    announced_seats: frozenset[tuple[str, int]] = frozenset()
    hands: Mapping[int, frozenset[str]] | None = None  # each active hand when play started
    # A kept-back card forced out early: (the bonus lost, its trick's number, the side that
    # forfeits that trick and every later one).
    forfeit: tuple[str, int, str] | None = None
    trump_suit: str | None = None  # the suit that is trumps in this deal, if one is
    called_in_talon: bool = False  # the card called for a partner lay in the talon as dealt

    @property
    def team(self) -> tuple[int, ...]:
        """The declarer's side: the declarer first, then the partner."""
        if self.declarer is None:
            return ()
        return (self.declarer,) if self.partner is None else (self.declarer, self.partner)


def each_other_pays(
    payer: int,
    seats: Iterable[int],
    players: int,
    amount: int | Callable[[int], int],
    into: list[int] | None = None,
) -> list[int]:
    """Payments by seat when `payer` pays each other seat of `seats` `amount` (or `amount(seat)`;
    a negative amount is received), added to `into` when given. The one place where money moves
    between seats."""
    payments = into if into is not None else [0] * players
    if type(amount) is int:
        # The same sum each: every seat of `seats` receives it, the payer pays it for each.
        count = 0
        for seat in seats:
            payments[seat] += amount
            count += 1
        payments[payer] -= amount * count
        return payments
    for seat in seats:
        if seat != payer:
            pay = amount if isinstance(amount, int) else amount(seat)
            payments[seat] += pay
            payments[payer] -= pay
    return payments


def side_receives(
    team: Sequence[int],
    opponents: Collection[int],
    amount: int | Callable[[int], int],
    payments: list[int],
    split: tuple[int, int] = (1, 1),
) -> None:
    """Each opponent pays `amount` (or `amount(seat)`; negative: receives it) to the side `team`,
    which shares the total as `split` says (declarer, partner), equally by default: 2 v 2 each
    loser pays one winner, 1 v 3 the lone player takes it from each. A remainder that does not
    divide goes to the first of the team (the declarer), gained or lost."""
    if isinstance(amount, int):
        # The same sum each (most deals).
        for seat in opponents:
            payments[seat] -= amount
        total = amount * len(opponents)
    else:
        total = 0
        for seat in opponents:
            pay = amount(seat)
            payments[seat] -= pay
            total += pay
    if len(team) > 1:
        weights = split if len(team) == 2 else (1,) * len(team)
        whole = sum(weights)
        for seat, weight in zip(team[1:], weights[1:], strict=True):
            # Rounded toward zero, so that the declarer carries the remainder either way.
            share = abs(total) * weight // whole * (1 if total >= 0 else -1)
            payments[seat] += share
            total -= share
    payments[team[0]] += total


_NO_CARDS: frozenset[str] = frozenset()


def _copy_bonus(item: dict[str, Any]) -> dict[str, Any]:
    """A bonus scored, as a new mapping (its payments a new list)."""
    copied = item.copy()
    copied["payments"] = list(item["payments"])
    return copied


def _copy(table: dict[str, Any]) -> dict[str, Any]:
    """A table of points or tricks by seat as a new mapping (its list new)."""
    copied = table.copy()
    copied["seats"] = list(table["seats"])
    return copied


def piles(
    deal: Deal,
    tricks: Sequence[Trick],
    out_of_play: list[str],
    routed: tuple[list[str], list[str]] | None = None,
    rest: tuple[list[str], list[str], int, int] | None = None,
) -> tuple[list[str], list[str], int, int]:
    """The declarer's side's and the defenders' cards, and their trick counts. `routed`: the talon
    and the discards, sent where the contract's `out_of_play` says (instead of `out_of_play`).
    `rest`: where play ended early, the cards not played and the tricks not played, each side's
    (added before the cards out of play are sent, whose routes read the trick counts)."""
    declarer_cards: list[str] = []
    defender_cards: list[str] = []
    team = deal.team
    if not deal.withheld and deal.forfeit is None and deal.ruleset.play.excuse is None:
        # No rule of play contributes to the piles (a withheld card, a forfeit, the Excuse): each
        # trick goes whole to its winner's side.
        declarer_tricks = 0
        for trick in tricks:
            if trick.winner in team:
                declarer_cards += trick.cards
                declarer_tricks += 1
            else:
                defender_cards += trick.cards
    else:
        declarer_tricks = _ruled_piles(deal, tricks, declarer_cards, defender_cards, last=rest is None)
    defender_tricks = len(tricks) - declarer_tricks
    if rest is not None:
        declarer_cards += rest[0]
        defender_cards += rest[1]
        declarer_tricks += rest[2]
        defender_tricks += rest[3]
    if routed is not None and deal.contract.out_of_play is not None:
        return _routed(deal, declarer_cards, defender_cards, declarer_tricks, defender_tricks, routed)
    return _aside(deal, declarer_cards, defender_cards, declarer_tricks, defender_tricks, out_of_play)


def _ruled_piles(
    deal: Deal, tricks: Sequence[Trick], declarer_cards: list[str], defender_cards: list[str], last: bool = True
) -> int:
    """The piles (into the two lists) where a card was withheld, a side forfeited the rest of
    the play (Pfeife raus) or the Excuse was played; returns the declarer's side's tricks.
    `last`: whether the last of `tricks` is the deal's last trick (play did not end early)."""
    team = deal.team

    def side(seat: int | None) -> list[str]:
        return declarer_cards if seat in team else defender_cards

    withheld_by = _withheld_by(deal)
    excused = _excused(deal, tricks, last)
    kept_by = {**withheld_by, **excused[1]} if excused is not None else withheld_by
    for index, trick in enumerate(tricks):
        owner = trick.winner if deal.forfeit is None else _owner(deal, index, trick)
        if not kept_by:
            side(owner).extend(trick.cards)
            continue
        for card in trick.cards:
            # A withheld card, and the Excuse, go to the holder's side, whoever won the trick.
            side(kept_by.get(card, owner)).append(card)
    withhold = deal.ruleset.play.withhold

    def together(a: int, b: int) -> bool:
        return (a in team) == (b in team)

    if withheld_by and tricks and withhold is not None and withhold.compensation == "lowest_value":
        _compensate(deal, tricks[-1], withheld_by, side, together)
    if excused is not None and excused[2]:
        _compensate(deal, excused[0], excused[1], side, together)
    owners = [t.winner for t in tricks] if deal.forfeit is None else [_owner(deal, i, t) for i, t in enumerate(tricks)]
    return sum(map(team.__contains__, owners))


def _excused(deal: Deal, tricks: Sequence[Trick], last: bool) -> tuple[Trick, dict[str, int], bool] | None:
    """The trick the Excuse was played to, the Excuse and its holder (card -> holder), and
    whether its side makes that trick whole (`play.excuse.compensation`), where the Excuse goes
    to its holder rather than with that trick to its winner (`goes_to: holder`, and not played
    to the last trick where `last_trick: lost`). `last`: whether the last of `tricks` is the
    deal's last trick."""
    excuse = deal.ruleset.play.excuse
    if excuse is None or excuse.goes_to != "holder":
        return None
    for index, trick in enumerate(tricks):
        if excuse.card in trick.cards:
            if last and index == len(tricks) - 1 and excuse.last_trick == "lost":
                return None
            holder = trick.seats[trick.cards.index(excuse.card)]
            return trick, {excuse.card: holder}, excuse.compensation == "lowest_value"
    return None


def _withheld_by(deal: Deal) -> dict[str, int]:
    """The withheld cards that go to their holders (card -> holder), not with the last trick to
    its winner (the ruleset's `withhold.goes_to`)."""
    withhold = deal.ruleset.play.withhold
    if not deal.withheld or withhold is None or withhold.goes_to != "holder":
        return {}
    return {card: seat for seat, card in deal.withheld.items()}


def _compensate(
    deal: Deal,
    last: Trick,
    withheld_by: dict[str, int],
    side: Callable[[int], list[str]],
    together: Callable[[int, int], bool],
) -> None:
    """A withheld card in the last trick, won by the other side (another player, where everyone
    plays for themselves: `together` says): the winners are a card short, and the holder's side
    gives one of its cards, the least valuable (a 1-point card if it has one; the ruleset's
    `withhold.compensation`)."""
    winner = last.winner
    for card, holder in withheld_by.items():
        if card in last.cards and winner is not None and not together(holder, winner):
            giver, taker = side(holder), side(winner)
            values = deal.ruleset.deck.points
            order = deal.ruleset.deck.cards
            others = [c for c in giver if c != card]
            # With no other card (they took no trick), the withheld card itself goes over.
            card_given = min(others, key=lambda c: (values[c], order.index(c))) if others else card
            giver.remove(card_given)
            taker.append(card_given)


def _routed(
    deal: Deal,
    declarer_cards: list[str],
    defender_cards: list[str],
    declarer_tricks: int,
    defender_tricks: int,
    routed: tuple[list[str], list[str]],
) -> tuple[list[str], list[str], int, int]:
    """The piles with the talon and the discards added where the contract's `out_of_play` says."""
    rule = deal.contract.out_of_play
    assert rule is not None
    talon, discards = routed
    rs, name = deal.ruleset, deal.contract.name
    env: dict[str, Any] | None = None
    for cards, which, routes in ((talon, "talon", rule.talon), (discards, "discards", rule.discards)):
        # Routes that read the counts of tricks alone are followed once for each count.
        key = ("route", name, which, declarer_tricks, defender_tricks)
        to = rs.derived.get(key)
        if to is None:
            if env is None:
                env = {
                    "declarer_tricks": declarer_tricks,
                    "defender_tricks": defender_tricks,
                    "tricks": declarer_tricks + defender_tricks,
                    "called": deal.called,
                    "talon": frozenset(talon),
                    "discards": frozenset(discards),
                }
            to = _route(routes, env)
            if all(route.when is None or route.when.names <= _TRICK_COUNTS for route in routes):
                rs.derived[key] = to
        if to == "declarer":
            declarer_cards += cards
        elif to == "defenders":
            defender_cards += cards
    return declarer_cards, defender_cards, declarer_tricks, defender_tricks


def _aside(
    deal: Deal,
    declarer_cards: list[str],
    defender_cards: list[str],
    declarer_tricks: int,
    defender_tricks: int,
    out_of_play: list[str],
) -> tuple[list[str], list[str], int, int]:
    """The piles with the cards out of play added to the side the counting gives them to."""
    rs = deal.ruleset
    to = rs.counting.aside_counts_for
    if rs.counting.aside_unless is not None:
        # The condition reads the tricks alone: judged once for each count of them.
        key = ("aside", declarer_tricks, defender_tricks)
        to = rs.derived.get(key) or rs.derived.setdefault(key, _aside_to(rs.counting, declarer_tricks, defender_tricks))
    if to == "declarer":
        declarer_cards += out_of_play
    elif to == "defenders":
        defender_cards += out_of_play
    return declarer_cards, defender_cards, declarer_tricks, defender_tricks


def _aside_to(counting: Counting, declarer_tricks: int, defender_tricks: int) -> str:
    """The side the cards out of play count for, where the declarer's side and the defenders
    took these many tricks."""
    to = counting.aside_counts_for
    assert counting.aside_unless is not None
    tricks = {
        "declarer_tricks": declarer_tricks,
        "defender_tricks": defender_tricks,
        "tricks": declarer_tricks + defender_tricks,
    }
    if counting.aside_unless(tricks):
        to = "defenders" if to == "declarer" else "declarer"
    return to


def _owner(deal: Deal, index: int, trick: Trick) -> int | None:
    """Whose trick `index` (0 = the first) is: its winner's; or, once a side forfeited it and
    every later one (a kept-back card forced out early), a seat of the other side (None: an
    opponent's)."""
    forfeit = deal.forfeit
    if forfeit is None or index < forfeit[1] - 1:
        return trick.winner
    return deal.team[0] if forfeit[2] == "defenders" and deal.team else None


_TRICK_COUNTS = frozenset({"declarer_tricks", "defender_tricks", "tricks"})


def _route(routes: tuple[Route, ...], env: dict[str, Any]) -> str:
    for route in routes:
        if route.when is None or route.when(env):
            return route.to
    return "nobody"


def settle(
    deal: Deal,
    declarer_cards: list[str],
    defender_cards: list[str],
    declarer_tricks: int,
    defender_tricks: int,
    outcome: str,
    tricks: Sequence[Trick] | None = None,
    *,
    factor: int | None = None,
    liable: bool = True,
) -> Result:
    """The payments of a deal played (or claimed) by a declarer's side: the game, then each
    contribution the ruleset has (bonuses, combinations in a hand, the pot, laid cards)."""
    declarer = deal.declarer
    assert declarer is not None
    bound = _bound(deal)
    env = _outcome_env(
        deal.ruleset,
        declarer_cards,
        defender_cards,
        declarer_tricks,
        defender_tricks,
        len(deal.seats),
        len(deal.bidders),
        bound.sides.pack,
        deal.kontra,
        deal.called_in_talon,
    )
    scoring = bound.scoring
    if scoring.reads is None or factor is not None or deal.declared:
        won, drawn, amount = _game(deal, env, tricks, factor, declarer_cards, defender_cards, scoring)
    else:
        # The game's formulas read only the outcome's names: judged once for each of their values.
        key = scoring.reads(env)
        judged = scoring.judged.get(key)
        if judged is None:
            judged = _game(deal, env, tricks, None, declarer_cards, defender_cards, scoring)
            if len(scoring.judged) < _MOST_MOVES:  # (kept for a server's lifetime: bounded)
                scoring.judged[key] = judged
        elif scoring.contributions or deal.pot is not None or deal.laid:
            _add_value_env(deal.contract, env, judged[0], None)  # what the contributions' formulas read
        won, drawn, amount = judged
    if scoring.contributions or deal.pot is not None or deal.laid:
        payments, pot_change, announced, bonuses = _contributions(
            deal, bound, env, won, drawn, amount, tricks, declarer_cards, defender_cards, outcome, liable
        )
    else:
        # Most deals have no contribution beyond the game: their steps are skipped, not run empty.
        sides, value = bound.sides, amount if won else -amount
        move = sides.moves.get(value)  # (as `moved` gives it, without the call once worked out)
        payments = list(move) if move is not None else sides.moved(value)
        pot_change, announced, bonuses = 0, (), ()
    return Result(
        outcome,
        deal.contract.name,
        declarer,
        won,
        {"declarer": env["declarer_points"], "defenders": env["defender_points"]},
        {"declarer": declarer_tricks, "defenders": defender_tricks},
        payments,
        "drawn: nobody scores" if drawn else "",
        announced,
        pot_change,
        deal.partner,
        bonuses,
        deal.kontra,
    )


def _contributions(
    deal: Deal,
    bound: _Bound,
    env: dict[str, Any],
    won: bool,
    drawn: bool,
    amount: int,
    tricks: Sequence[Trick] | None,
    declarer_cards: list[str],
    defender_cards: list[str],
    outcome: str,
    liable: bool,
) -> tuple[list[int], int, tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]:
    """The payments of the game (`amount` to the winners, `won`: the declarer's side) with each
    contribution the ruleset has: bonuses, combinations in a hand, those liable for a side, the
    pot, laid cards. Returns the payments, what went into the pot, the laid cards and the
    bonuses, as scored."""
    rs, scoring, sides = deal.ruleset, bound.scoring, bound.sides
    scored = _bonuses(deal, tricks, declarer_cards, defender_cards, env) if tricks and scoring.side_bonuses else []
    # A bonus such as the Valat stands alone: the game and the other bonuses do not count.
    replaced = bool(scored) and bool(scoring.alone) and _stand_alone(rs, scored, scoring.alone)
    if replaced:
        scored = [item for item in scored if _replaces_game(rs, item)]
        amount = 0
    settlement = rs.settlement
    shares = _shares(deal, env, amount, sides.defenders) if liable and settlement.liable else None
    sign = 1 if won else -1
    if shares:
        payments = [0] * deal.players
        side_receives(sides.team, sides.defenders, lambda s: sign * shares[s], payments, settlement.split)
    else:
        payments = sides.moved(sign * amount)
    held = _seat_bonuses(deal, env, tricks) if tricks and not replaced and deal.hands is not None else []
    if scored or held:
        _pay_bonuses(scored, held, sides, payments)
    pot_change = _pot_change(deal, env, amount) if deal.pot is not None and not drawn else 0
    payments[sides.team[0]] -= pot_change
    announced = _pay_laid(deal, tricks or [], outcome, sides, payments) if deal.laid else ()
    return payments, pot_change, announced, (*scored, *held)


def _pay_laid(
    deal: Deal, tricks: Sequence[Trick], outcome: str, sides: _Sides, payments: list[int]
) -> tuple[dict[str, Any], ...]:
    """Into `payments`: each card laid out for an announcement, won or lost, between the sides."""
    announced = tuple(_announcements(deal, tricks, outcome))
    for item in announced:
        value = item["value"] if item["won"] else -item["value"]
        side_receives(sides.team, sides.defenders, value, payments, sides.split)
    return announced


# How many payment values a side at a table keeps worked out (`_Sides.moves`, kept as long as
# the ruleset is): a game's values are few; past this many a value is worked out afresh.
_MOST_MOVES = 512


@dataclass(frozen=True, slots=True)
class _Sides:
    """A declarer's side at a table, its opponents and the pack in play there: the same for
    every deal of that side at a table of the same seats out, worked out once
    (`ruleset.derived`, keyed by them)."""

    team: tuple[int, ...]
    # The declarer's opponents, and the seats that sit out where the settlement counts them
    # among them (whatever the order of play from Vorhand, which nothing paid depends on).
    defenders: tuple[int, ...]
    pack: _Pack  # the pack in play at the table
    players: int
    split: tuple[int, int]  # the ruleset's `settlement.split`
    # What a payment of each value between the sides moves, seat by seat (worked out when
    # first paid: the values of bonuses are few).
    moves: dict[int, tuple[int, ...]]

    def moved(self, value: int) -> list[int]:
        """What each opponent paying `value` to the declarer's side (negative: receiving it)
        moves, seat by seat (a new list)."""
        move = self.moves.get(value)
        if move is None:
            payments = [0] * self.players
            side_receives(self.team, self.defenders, value, payments, self.split)
            move = tuple(payments)
            if len(self.moves) < _MOST_MOVES:  # (kept for a server's lifetime: bounded)
                self.moves[value] = move
        return list(move)


@dataclass(frozen=True, slots=True)
class _Bound:
    """The settlement bound for a contract and a declarer's side at a table: what settling it
    needs that is the same at every such deal, worked out once (`ruleset.derived`, keyed by them)."""

    scoring: _Scoring  # the contract's steps
    sides: _Sides  # the sides at the table


def _bound(deal: Deal) -> _Bound:
    # (Keyed by the declarer and the partner, which make the side, rather than the side itself.)
    rs = deal.ruleset
    key = ("bound", deal.contract.name, deal.players, deal.seats_out, deal.declarer, deal.partner)
    bound: _Bound | None = rs.derived.get(key)
    if bound is None:
        bound = rs.derived[key] = _Bound(_scoring(rs, deal.contract), _sides(deal, deal.team))
    return bound


def _sides(deal: Deal, team: tuple[int, ...]) -> _Sides:
    key = ("sides", deal.players, deal.seats_out, team)
    rs = deal.ruleset
    sides: _Sides | None = rs.derived.get(key)
    if sides is None:
        found = [seat for seat in deal.seats if seat not in team]
        if rs.settlement.sitting_out == "defender":
            found.extend(deal.seats_out)
        pack = _pack_points(rs, len(deal.seats))
        sides = rs.derived[key] = _Sides(team, tuple(found), pack, deal.players, rs.settlement.split, {})
    return sides


def _pot_change(deal: Deal, env: dict[str, Any], amount: int) -> int:
    """What the declarer pays into the pot (negative: takes from it); nobody takes more out of
    the pot than it holds, so that it never falls below zero."""
    rule, pot = deal.contract.pot, deal.pot
    if rule is None or pot is None:
        return 0
    return max(int(rule({**env, "amount": amount, "pot": pot})), -pot)


def _game(
    deal: Deal,
    env: dict[str, Any],
    tricks: Sequence[Trick] | None,
    factor: int | None,
    declarer_cards: list[str],
    defender_cards: list[str],
    scoring: _Scoring,
) -> tuple[bool, bool, int]:
    """Whether the declarer won, whether the game is drawn, and its value (each opponent's
    payment), by the contract's formulas and any declaration (Tout). `env` gains what the value
    formulas read; both piles, for a declaration priced at all tricks."""
    contract = deal.contract
    assert contract.declarer_wins is not None and contract.amount is not None
    if scoring.of_tricks:
        _trick_names(deal, env, tricks, scoring.of_tricks)
    won = bool(contract.declarer_wins(env))
    declared = deal.declared
    for declaration in declared:
        won = bool(declaration.wins(env))
    # What the value formulas read besides (`_add_value_env`'s names, written here at once).
    env["declarer_won"] = won
    if won:
        env["winner_points"], env["loser_points"] = env["declarer_points"], env["defender_points"]
        env["factor"] = (contract.factor_won or 0) if factor is None else factor
    else:
        env["winner_points"], env["loser_points"] = env["defender_points"], env["declarer_points"]
        env["factor"] = (contract.factor_lost or 0) if factor is None else factor
    # A draw belongs to the contract's own aim; a declaration (Tout) replaces that aim.
    rule = None if declared else deal.ruleset.settlement.drawn
    if rule is None:
        amount = int(contract.amount(env))
    else:
        amount, drawn = _drawn(rule, contract, env)
        if drawn:
            return won, True, 0
    for declaration in declared:
        amount = _declared_amount(deal, declaration, env, factor, declarer_cards + defender_cards, amount)
    return won, False, amount


def _drawn(rule: Condition, contract: Contract, env: dict[str, Any]) -> tuple[int, bool]:
    """The game's value, and whether the game is drawn (`settlement.drawn`): a draw that reads
    the game's value is decided once the value is reckoned (a game worth nothing)."""
    assert contract.amount is not None
    if "amount" in rule.names:
        amount = int(contract.amount(env))
        return amount, bool(rule({**env, "amount": amount}))
    if rule(env):
        return 0, True
    return int(contract.amount(env)), False


def _declared_amount(
    deal: Deal,
    declaration: Declaration,
    env: dict[str, Any],
    factor: int | None,
    cards: list[str],
    amount: int,
) -> int:
    """The game's value under a declaration (Tout): priced as though every trick was taken (all
    `cards` of both piles), by its own formula, times its multiplier."""
    if declaration.priced == "all_tricks":
        everything = _outcome_env(deal.ruleset, cards, [], env["tricks"], 0, len(deal.seats), 0)
        amount = _value(deal.contract, _value_env(deal.contract, everything, True, factor))
    if declaration.amount is not None:
        amount = int(declaration.amount(env))
    return amount * declaration.multiplier


def _trick_names(deal: Deal, env: dict[str, Any], tricks: Sequence[Trick] | None, names: frozenset[str]) -> None:
    """Into `env`, the names of the tricks (and the suit of trumps) that the formulas read:
    each costs work, so only those read are made."""
    declarer = deal.declarer
    if "last_trick_won_with" in names:
        env["last_trick_won_with"] = _last_won_with(deal, tricks)
    if "tricks_won_with" in names:
        env["tricks_won_with"] = frozenset(
            [t.cards[t.seats.index(declarer)] for t in tricks or () if t.winner == declarer and declarer in t.seats]
        )
    if "trump_suit" in names and deal.trump_suit is not None:
        deck = deal.ruleset.deck
        env["trump_suit"] = frozenset(c for c in deck.cards if deck.suit[c] == deal.trump_suit)
    if "played_tricks" in names:
        env["played_tricks"] = _played_tricks(deal, tricks or ())


def _pay_bonuses(scored: list[dict[str, Any]], held: list[dict[str, Any]], sides: _Sides, payments: list[int]) -> None:
    """Into `payments`: each bonus scored, between the sides, and each combination in a hand,
    paid to its holder by each other player at the table; each item keeps what it moved."""
    moves = [payments]
    for item in scored:
        moved = sides.moved(item["value"] if item["side"] == "declarer" else -item["value"])
        item["payments"] = moved  # what this bonus moves, seat by seat (the log takes it apart)
        moves.append(moved)
    everyone = [*sides.team, *sides.defenders]
    for item in held:
        item["payments"] = moved = each_other_pays(item["seat"], everyone, sides.players, -item["value"])
        moves.append(moved)
    payments[:] = map(sum, zip(*moves, strict=True))


def _stand_alone(rs: Ruleset, scored: list[dict[str, Any]], alone: frozenset[str]) -> bool:
    """Whether a bonus scored (of those named `alone`, which may) stands alone."""
    return any(item["name"] in alone and _replaces_game(rs, item) for item in scored)


def _replaces_game(rs: Ruleset, item: dict[str, Any]) -> bool:
    """Whether a bonus scored stands alone: the game and the other bonuses do not count."""
    mode = rs.bonuses[item["name"]].replaces_game
    return mode != "never" and bool(item["value"]) and (mode == "scored" or bool(item["achieved"]))


def reads_hands(rs: Ruleset) -> bool:
    """Whether a bonus of `rs` is a combination in a hand, whose judging reads each hand as play
    started (worked out once per ruleset)."""
    found: bool | None = rs.derived.get("reads_hands")
    if found is None:
        found = rs.derived["reads_hands"] = any(b.scope == "seat" for b in rs.bonuses.values())
    return found


@dataclass(frozen=True, slots=True)
class _Scoring:
    """What settling a contract needs, worked out once per contract (`ruleset.derived`, keyed by
    its name), as jsonschema binds once the keyword functions that apply: the names of the
    tricks its formulas read (each costs work, so only those are made for a deal), and whether
    a bonus of a side applies to it (most contracts of most rulesets: none)."""

    of_tricks: frozenset[str]
    side_bonuses: bool
    alone: frozenset[str]  # the side bonuses that may replace the game (`replaces_game`)
    # Whether anything but the game may be paid: a side's bonus, a combination in a hand, a
    # liability for the side (the pot and laid cards are the deal's own, asked of each deal).
    contributions: bool
    # The outcome's names that the game's formulas (its aim, its value, a draw) read, as a key
    # made of a deal's outcome; None where a formula of the contract reads a deal's own tricks,
    # or the game's formulas read nothing at all.
    reads: Callable[[Mapping[str, Any]], object] | None
    # The game judged (won, drawn, value) by the values of those names (few: a game's points
    # and tricks), as `_game` judges it with no declaration and the contract's own factor.
    judged: dict[object, tuple[bool, bool, int]]


_TRICK_NAMES = frozenset({"last_trick_won_with", "tricks_won_with", "trump_suit", "played_tricks"})
# What `_outcome_env` gives, less the names of the tricks, each the same for a deal of the same
# piles and bids; and what `_game` adds to it (`_add_value_env`), each worked out from those
# and the contract.
_OUTCOME_NAMES = frozenset(
    {
        "declarer_points",
        "defender_points",
        "declarer_tricks",
        "defender_tricks",
        "tricks",
        "players",
        "declarer_cards",
        "defender_cards",
        "called_in_talon",
        "bidders",
        "kontra",
    }
)
_VALUE_NAMES = {
    "declarer_won": frozenset(),
    "factor": frozenset(),
    "winner_points": frozenset({"declarer_points", "defender_points"}),
    "loser_points": frozenset({"declarer_points", "defender_points"}),
}


def _game_reads(contract: Contract, drawn: Condition | None) -> Callable[[Mapping[str, Any]], object] | None:
    """A key of the outcome's names the game's formulas read (`Scoring.reads`), or None."""
    names: set[str] = set()
    for formula in (contract.declarer_wins, contract.amount, drawn):
        if formula is not None:
            for name in formula.names - {"amount"}:  # (a draw may read the value: worked out)
                names |= _VALUE_NAMES.get(name, {name})
    if not names or not names <= _OUTCOME_NAMES:
        return None
    return operator.itemgetter(*sorted(names))


def _scoring(rs: Ruleset, contract: Contract) -> _Scoring:
    key = ("scoring", contract.name)
    scoring: _Scoring | None = rs.derived.get(key)
    if scoring is None:
        found: set[str] = set()
        formulas = [contract.declarer_wins, contract.amount, contract.pot, rs.settlement.drawn]
        for announcement in rs.announcements.values():
            if announcement.declares is not None:  # a declaration (Tout) replaces the aim and the value
                formulas += [announcement.declares.wins, announcement.declares.amount]
        for rule in rs.settlement.liable:
            formulas += [rule.when, rule.pays, rule.others_pay]
        for formula in formulas:
            if formula is not None:
                found |= formula.names
        plan = _bonus_plan(rs, contract)
        contributions = bool(plan.bonuses) or reads_hands(rs) or bool(rs.settlement.liable)
        of_tricks = frozenset(found) & _TRICK_NAMES
        scoring = rs.derived[key] = _Scoring(
            of_tricks,
            bool(plan.bonuses),
            plan.alone,
            contributions,
            # (Where any formula reads the tricks, judging the game writes them for the others.)
            None if of_tricks else _game_reads(contract, rs.settlement.drawn),
            {},
        )
    return scoring


def _outcome_env(
    rs: Ruleset,
    declarer_cards: list[str],
    defender_cards: list[str],
    declarer_tricks: int,
    defender_tricks: int,
    players: int,
    bidders: int,
    pack: _Pack | None = None,
    kontra: int = 1,
    called_in_talon: bool = False,
) -> dict[str, Any]:
    """What the conditions on a deal's outcome read (the cards' tricks themselves excepted).
    `pack`: the pack in play at the table, where the caller has it."""
    values = rs.deck.points
    size, total, less = pack or _pack_points(rs, players)
    declarer_count, defender_count = len(declarer_cards), len(defender_cards)
    if declarer_count + defender_count != size:
        declarer_raw = sum(map(values.__getitem__, declarer_cards))
        defender_raw = sum(map(values.__getitem__, defender_cards))
    elif declarer_count <= defender_count:
        # The two piles hold the whole pack, each card once (as the cards of every deal are
        # distinct): the larger pile is worth the rest, without counting its cards one by one.
        declarer_raw = sum(map(values.__getitem__, declarer_cards))
        defender_raw = total - declarer_raw
    else:
        defender_raw = sum(map(values.__getitem__, defender_cards))
        declarer_raw = total - defender_raw
    if declarer_count < len(less) and defender_count < len(less):
        declarer_points, defender_points = declarer_raw - less[declarer_count], defender_raw - less[defender_count]
    else:  # (more cards than the deck has: counted as the counting says, without its table)
        declarer_points = rs.counting.points(declarer_cards, values, declarer_raw)
        defender_points = rs.counting.points(defender_cards, values, defender_raw)
    tricks = declarer_tricks + defender_tricks
    if rs.counting.declarer_bonus is not None:
        declarer_points += int(
            rs.counting.declarer_bonus(
                {"declarer_tricks": declarer_tricks, "defender_tricks": defender_tricks, "tricks": tricks}
            )
        )
    return {
        "declarer_points": declarer_points,
        "defender_points": defender_points,
        "declarer_tricks": declarer_tricks,
        "defender_tricks": defender_tricks,
        "tricks": tricks,
        "players": players,
        "declarer_cards": declarer_count,
        "defender_cards": defender_count,
        "last_trick_won_with": _NO_CARDS,
        "tricks_won_with": _NO_CARDS,
        "trump_suit": _NO_CARDS,
        "played_tricks": (),
        "called_in_talon": called_in_talon,
        "bidders": bidders,
        "kontra": kontra,
    }


def _add_value_env(contract: Contract, env: dict[str, Any], won: bool, factor: int | None) -> None:
    """What `_value_env` adds, added to `env` itself (once the outcome's conditions are read)."""
    env["declarer_won"] = won
    if won:
        env["winner_points"], env["loser_points"] = env["declarer_points"], env["defender_points"]
        own_factor = contract.factor_won or 0
    else:
        env["winner_points"], env["loser_points"] = env["defender_points"], env["declarer_points"]
        own_factor = contract.factor_lost or 0
    env["factor"] = own_factor if factor is None else factor


class _Pack(NamedTuple):
    """The pack in play at a table, as counting a deal's piles reads it (worked out once)."""

    size: int  # how many cards are in play
    total: int  # their values' sum
    # What the counting takes off a pile of n cards (its packets, `counting.packet`), by n from
    # none to the whole deck: a pile's points are its values' sum less this.
    less: tuple[int, ...]


def _pack_points(rs: Ruleset, active: int) -> _Pack:
    """The pack in play with `active` players (once per size)."""
    key = ("pack_points", active)
    found: _Pack | None = rs.derived.get(key)
    if found is None:
        pack = rs.pack(active)
        less = tuple(map(rs.counting.deduction, range(len(rs.deck.cards) + 1)))
        found = rs.derived[key] = _Pack(len(pack), sum(map(rs.deck.points.__getitem__, pack)), less)
    return found


def _value_env(contract: Contract, env: dict[str, Any], won: bool, factor: int | None) -> dict[str, Any]:
    """`env` and what the value formulas read besides: who won, and the factor (a new mapping)."""
    valued = dict(env)
    _add_value_env(contract, valued, won, factor)
    return valued


def lost_every_trick(rs: Ruleset, contract: Contract, active: int) -> int:
    """What the declarer of `contract` pays each opponent on losing every trick and every card
    point: the price of a pass against a duty to bid it ("as though they had bid and lost every
    trick"), in whatever game (full or half) the table plays."""
    if contract.amount is None:
        return 0
    tricks = sum(p.count for p in rs.deal_plans[active] if p.to == "each")
    env = _outcome_env(rs, [], list(rs.pack(active)), 0, tricks, active, 1)
    return _value(contract, _value_env(contract, env, False, None))


def _value(contract: Contract, env: dict[str, Any]) -> int:
    """The contract's amount formula for `env` (the compiler checked that it gives a number)."""
    assert contract.amount is not None
    value = contract.amount(env)
    assert isinstance(value, int)
    return value


@dataclass(frozen=True, slots=True)
class _BonusPlan:
    """What judging a contract's side bonuses needs, worked out once per contract: the bonuses
    (in the ruleset's order), those of each side (the declarer's: True), the names their
    conditions read (only these are made for a deal), the values that read nothing (worked out
    here, once), and the bonuses that may stand alone."""

    bonuses: tuple[tuple[str, Bonus], ...]
    sides: dict[bool, tuple[tuple[str, Bonus], ...]]
    reads: frozenset[str]
    constant: dict[tuple[str, bool], int]  # (bonus, announced) -> its value, where it reads no name
    alone: frozenset[str]  # the bonuses that may replace the game (`replaces_game`)


def _bonus_plan(rs: Ruleset, contract: Contract) -> _BonusPlan:
    key = ("bonus_plan", contract.name)
    plan: _BonusPlan | None = rs.derived.get(key)
    if plan is None:
        bonuses = tuple(
            (name, bonus)
            for name, bonus in rs.bonuses.items()
            if (contract.bonuses is None or name in contract.bonuses) and bonus.scope == "side"
        )
        reads: set[str] = set()
        constant: dict[tuple[str, bool], int] = {}
        for name, bonus in bonuses:
            for condition in (bonus.achieved, bonus.attempted):
                if condition is not None:
                    reads |= condition.names
            for announced, formula in ((False, bonus.value), (True, bonus.announced)):
                if formula is not None and not formula.names:
                    constant[name, announced] = int(formula({}))
        sides = {
            mine: tuple(b for b in bonuses if b[1].belongs_to("declarer" if mine else "defenders"))
            for mine in (True, False)
        }
        alone = frozenset(name for name, bonus in bonuses if bonus.replaces_game != "never")
        plan = rs.derived[key] = _BonusPlan(bonuses, sides, frozenset(reads), constant, alone)
    return plan


def _bonuses(
    deal: Deal, tricks: Sequence[Trick], declarer_cards: list[str], defender_cards: list[str], env: dict[str, Any]
) -> list[dict[str, Any]]:
    """Each bonus of the contract judged for each side: {name, side, announced, kontra, achieved,
    value (per payment, for that side)}; silent bonuses neither made nor attempted are left out."""
    rs, contract = deal.ruleset, deal.contract
    if not rs.bonuses or (contract.bonuses is not None and not contract.bonuses):
        return []
    plan = _bonus_plan(rs, contract)
    if not plan.bonuses:
        return []
    facts = _TrickFacts(deal, tricks, plan.reads)
    judge = _BonusJudge(deal, env, plan)
    announced_by: dict[bool, set[str]] = {True: set(), False: set()}
    for name, by in deal.announced:
        announced_by[by == "declarer"].add(name)
    result: list[dict[str, Any]] = []
    for side, mine in (("declarer", True), ("defenders", False)):
        scope = facts.scope(deal, mine, declarer_cards if mine else defender_cards, plan.reads)
        # (Each side's own bonuses only: King ultimo is the declarer's side's.)
        judge.side(side, plan.sides[mine], announced_by[mine], scope, result)
    return result


class _TrickFacts:
    """From the tricks, only what the bonuses' conditions read: the cards of each side's tricks,
    the cards the team played (each seat plays one card to every trick; the rest are the
    defenders'), and each trick's facts (its cards, the winning card, whether the declarer's side
    took it). Made by iterators over all the tricks at once, not by a step a trick."""

    def __init__(self, deal: Deal, tricks: Sequence[Trick], reads: frozenset[str]):
        team, forfeit = deal.team, deal.forfeit
        want_won = "side_won" in reads
        want_played = "side_played" in reads or "opponents_played" in reads
        want_known = "played_tricks" in reads
        team_tricks = 0
        won: dict[bool, list[str]] = {True: [], False: []}  # the cards of each side's tricks
        # each trick as the declarer's side reads it (the defenders' the same, `ours` negated)
        known: list[tuple[frozenset[str], str, bool]] = []
        # One loop over the tricks, not a comprehension per trick (no function made and called each).
        for index, trick in enumerate(tricks):
            cards, seats, winner = trick.cards, trick.seats, trick.winner
            ours = (winner if forfeit is None else _owner(deal, index, trick)) in team
            team_tricks += ours
            if want_won:
                won[ours] += cards
            if want_known and winner is not None:
                known.append((frozenset(cards), cards[seats.index(winner)], ours))
        self.tricks, self.team_tricks, self.won = len(tricks), team_tricks, won
        self.known = {True: tuple(known), False: tuple([(held, card, not ours) for held, card, ours in known])}
        self.played: dict[bool, frozenset[str]] = {}
        if want_played:
            # Every card played is in a trick: those the team did not play, the defenders played.
            by_team = [trick.cards[trick.seats.index(seat)] for seat in team for trick in tricks if seat in trick.seats]
            self.played[True] = frozenset(by_team)
            everything = won[True] + won[False] if want_won else _cards_of(tricks)
            self.played[False] = frozenset(everything).difference(by_team)

    def scope(self, deal: Deal, mine: bool, cards: list[str], reads: frozenset[str]) -> dict[str, Any]:
        """What the conditions of a bonus read for the declarer's side (`mine`) or the defenders."""
        rs = deal.ruleset
        side_tricks = self.team_tricks if mine else self.tricks - self.team_tricks
        scope: dict[str, Any] = {
            "side_tricks": side_tricks,
            "opponent_tricks": self.tricks - side_tricks,
            "tricks": self.tricks,
            "called": deal.called,
            "is_declarer_side": mine,
            "players": len(deal.seats),
            "announced": False,
        }
        if "side_cards" in reads:
            scope["side_cards"] = frozenset(cards)
        if "side_points" in reads:
            scope["side_points"] = rs.counting.points(cards, rs.deck.points) if cards else 0
        if "side_won" in reads:
            scope["side_won"] = frozenset(self.won[mine])
        if self.played:
            scope["side_played"] = self.played[mine]
            scope["opponents_played"] = self.played[not mine]
        if "played_tricks" in reads:
            scope["played_tricks"] = self.known[mine]
        return scope


def _cards_of(tricks: Sequence[Trick]) -> list[str]:
    """Every card played to `tricks`."""
    cards: list[str] = []
    for trick in tricks:
        cards += trick.cards
    return cards


class _BonusJudge:
    """Judges a bonus for a side: achieved or not, and what it is worth (the values worked out
    when first needed, then kept for the other side)."""

    def __init__(self, deal: Deal, env: dict[str, Any], plan: _BonusPlan):
        contract = deal.contract
        # What the value formulas read, the same for both sides; the game's value (`game`) is
        # added when a formula reading it is first worked out (most deals score no such bonus).
        # `kontra`: the game's doublings, for a bonus doubled with the game (its own kontra apart).
        self.values: dict[str, Any] = {"players": len(deal.seats), "kontra": deal.kontra}
        self.contract, self.env = contract, env
        self.worth: dict[tuple[str, bool], int] = dict(plan.constant)
        self.kontra = dict(deal.bonus_kontra)
        self.forfeit = deal.forfeit
        self.factor = contract.bonus_factor

    def side(
        self,
        side: str,
        bonuses: tuple[tuple[str, Bonus], ...],
        said: set[str],
        scope: dict[str, Any],
        into: list[dict[str, Any]],
    ) -> None:
        """Into `into`, each of a side's bonuses (those it `said`) as scored: silent bonuses
        neither made nor attempted, and those that count only when announced, are left out."""
        forfeit, worth, values, kontra, factor = self.forfeit, self.worth, self.values, self.kontra, self.factor
        for name, bonus in bonuses:
            announced = scope["announced"] = name in said
            # A card kept back for the bonus and forced out early loses it (Pfeife raus).
            achieved = (forfeit is None or forfeit[0] != name) and bool(bonus.achieved(scope))
            if announced and bonus.announced is not None:
                key, formula = (name, True), bonus.announced
            elif bonus.value is None:
                continue  # it counts only when announced
            elif achieved or (bonus.attempted is not None and bonus.attempted(scope)):
                key, formula = (name, False), bonus.value
            else:
                continue
            value = worth.get(key)
            if value is None:  # worked out when first needed, then kept for the other side
                if "game" in formula.names and "game" not in values:
                    contract = self.contract
                    values["game"] = _value(contract, _value_env(contract, {**self.env, "kontra": 1}, True, None))
                value = worth[key] = int(formula(values))
            times = kontra.get(name, 0) if announced else 0
            into.append(
                {
                    "name": name,
                    "side": side,
                    "announced": announced,
                    "kontra": times,
                    "achieved": achieved,
                    "value": (value if achieved else -value) * factor * 2**times,
                }
            )


def _seat_bonuses(deal: Deal, env: dict[str, Any], tricks: Sequence[Trick]) -> list[dict[str, Any]]:
    """Each combination a player held when play started, or a thing of its own play (bonuses of
    scope seat), judged for every active seat: {name, seat, side, announced, kontra, achieved,
    value}; the holder is paid `value` by each other player at the table (a negative value, a
    penalty, it pays them)."""
    rs, contract = deal.ruleset, deal.contract
    if deal.hands is None:
        return []
    own_play = _own_play(deal, tricks) if _reads_own_play(rs) else None
    kontra = dict(deal.bonus_kontra)
    values = {
        "game": _value(contract, _value_env(contract, {**env, "kontra": 1}, True, None)),
        "players": len(deal.seats),
        "kontra": deal.kontra,
    }
    result = []
    for name, bonus in rs.bonuses.items():
        if bonus.scope != "seat" or (contract.bonuses is not None and name not in contract.bonuses):
            continue
        for seat in deal.seats:
            if not bonus.belongs_to("declarer" if seat in deal.team else "defenders"):
                continue
            hand = deal.hands.get(seat, frozenset())
            announced = (name, seat) in deal.announced_seats
            who = {"hand": hand, "is_declarer": seat == deal.declarer, "is_partner": seat == deal.partner}
            facts = {**who, "revealed": True, "spoken": True, "card_called": bool(deal.called)}
            if bonus.requires is not None and not bonus.requires(facts):
                continue
            judged = {**who, "players": len(deal.seats), "announced": announced}
            if own_play is not None:
                judged["played"], judged["captured"] = own_play[seat]
            achieved = bool(bonus.achieved(judged))
            if announced and bonus.announced is not None:
                value = int(bonus.announced(values)) * (1 if achieved else -1)
            elif achieved and bonus.value is not None:
                value = int(bonus.value(values))
            else:
                continue
            times = kontra.get(name, 0) if announced else 0
            result.append(
                {
                    "name": name,
                    "seat": seat,
                    "side": "declarer" if seat in deal.team else "defenders",
                    "announced": announced,
                    "kontra": times,
                    "achieved": achieved,
                    "value": value * contract.bonus_factor * 2**times,
                }
            )
    return result


def _reads_own_play(rs: Ruleset) -> bool:
    """Whether a bonus of scope seat is judged on its seat's own play (`played`, `captured`)
    rather than its hand alone (worked out once per ruleset)."""
    found: bool | None = rs.derived.get("reads_own_play")
    if found is None:
        found = rs.derived["reads_own_play"] = any(
            b.scope == "seat" and bool(b.achieved.names & {"played", "captured"}) for b in rs.bonuses.values()
        )
    return found


def _own_play(deal: Deal, tricks: Sequence[Trick]) -> dict[int, tuple[frozenset[str], frozenset[str]]]:
    """Each active seat's cards played to the tricks, and those of them the other side took (a
    seat's Mond captured)."""
    played: dict[int, list[str]] = {seat: [] for seat in deal.seats}
    captured: dict[int, list[str]] = {seat: [] for seat in deal.seats}
    team = deal.team
    for index, trick in enumerate(tricks):
        owner = trick.winner if deal.forfeit is None else _owner(deal, index, trick)
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            played[seat].append(card)
            if (owner in team) != (seat in team):
                captured[seat].append(card)
    return {seat: (frozenset(played[seat]), frozenset(captured[seat])) for seat in deal.seats}


def _played_tricks(deal: Deal, tricks: Sequence[Trick]) -> tuple[tuple[frozenset[str], str, bool], ...]:
    """Each trick as the trick functions read it from the declarer's side: its cards, the card
    that won it, and whether the declarer's side took it (a forfeited trick the other side's)."""
    team = deal.team
    facts = []
    for index, trick in enumerate(tricks):
        winner = trick.winner
        if winner is None:
            continue
        owner = winner if deal.forfeit is None else _owner(deal, index, trick)
        facts.append((frozenset(trick.cards), trick.cards[trick.seats.index(winner)], owner in team))
    return tuple(facts)


def _last_won_with(deal: Deal, tricks: Sequence[Trick] | None) -> frozenset[str]:
    """The declarer's card in the last trick, if the declarer won it (Ulti: won with the 1)."""
    if not tricks or deal.declarer is None or tricks[-1].winner != deal.declarer:
        return frozenset()
    last = tricks[-1]
    return frozenset({last.cards[last.seats.index(deal.declarer)]})


def settle_individual(
    deal: Deal,
    tricks: Sequence[Trick],
    vorhand: int,
    talon: list[str] | None = None,
    added: dict[int, list[str]] | None = None,
) -> Result:
    """Everyone for themselves: each player's own tricks are counted (and the talon, by whoever
    takes the last trick, where the contract says so; talon cards added to tricks, by their
    winners)."""
    rule = deal.contract.individual
    assert rule is not None
    rs = deal.ruleset
    own = {seat: [c for t in tricks if t.winner == seat for c in t.cards] for seat in deal.seats}
    for number, cards in (added or {}).items():
        winner = tricks[number - 1].winner
        if winner is not None:
            own[winner] += cards
    last = tricks[-1].winner
    assert last is not None
    withheld_by = _withheld_by(deal)
    if withheld_by:
        _withheld_to_holders(deal, tricks[-1], withheld_by, own)
    _excused_to_holder(deal, tricks, own)
    if deal.contract.talon_to_last_trick and talon:
        own[last] += talon
    points = {seat: rs.counting.points(cards, rs.deck.points) if cards else 0 for seat, cards in own.items()}
    payments = [0] * deal.players
    everyone = list(deal.seats)
    if rs.settlement.sitting_out == "defender":
        everyone.extend(deal.seats_out)
    tricks_of = {seat: sum(1 for t in tricks if t.winner == seat) for seat in everyone}
    if rule.payments:
        _pay_classes(deal, points, tricks_of, vorhand, payments)
    else:
        _pay_loser(deal, rule, points, own, tricks_of, everyone, vorhand, last, payments)
    seat_points = [points.get(seat, 0) for seat in range(deal.players)]
    return Result(
        "played",
        deal.contract.name,
        None,
        None,
        {"seats": seat_points},
        {"seats": [sum(1 for t in tricks if t.winner == s) for s in range(deal.players)]},
        payments,
        kontra=deal.kontra,
    )


def _withheld_to_holders(deal: Deal, last: Trick, withheld_by: dict[str, int], own: dict[int, list[str]]) -> None:
    """Everyone for themselves, a withheld card going to its holder (`withhold.goes_to: holder`):
    it leaves the last trick's winner's tricks for its holder's own, and the holder makes that
    trick whole as `withhold.compensation` says."""
    _to_holders(last, withheld_by, own)
    withhold = deal.ruleset.play.withhold
    if withhold is not None and withhold.compensation == "lowest_value":
        _compensate(deal, last, withheld_by, own.__getitem__, lambda a, b: a == b)


def _excused_to_holder(deal: Deal, tricks: Sequence[Trick], own: dict[int, list[str]]) -> None:
    """Everyone for themselves, the Excuse going to its holder (`play.excuse.goes_to: holder`,
    not lost in the last trick): it leaves its trick's winner's tricks for its holder's own, and
    the holder makes that trick whole as `play.excuse.compensation` says."""
    excused = _excused(deal, tricks, True)
    if excused is None:
        return
    trick, by, made_whole = excused
    _to_holders(trick, by, own)
    if made_whole:
        _compensate(deal, trick, by, own.__getitem__, lambda a, b: a == b)


def _to_holders(trick: Trick, by: dict[str, int], own: dict[int, list[str]]) -> None:
    """Everyone for themselves: the cards of `by` (card -> holder) in `trick` leave its winner's
    tricks for their holders' own."""
    winner = trick.winner
    for card, holder in by.items():
        if card in trick.cards and winner is not None and winner != holder:
            own[winner].remove(card)
            own[holder].append(card)


def _pay_loser(
    deal: Deal,
    rule: Individual,
    points: dict[int, int],
    own: dict[int, list[str]],
    tricks_of: dict[int, int],
    everyone: list[int],
    vorhand: int,
    last: int,
    payments: list[int],
) -> None:
    """One loser (or several tied) pays each other player."""
    assert rule.pays_each is not None
    if rule.loser == "last_trick":
        losers = [last]
    else:
        most = max(points.values())
        losers = [seat for seat in deal.seats if points[seat] == most]
        if len(losers) > 1 and rule.ties == "vorhand_else_all" and vorhand in losers:
            losers = [vorhand]
    without = sum(1 for seat in deal.seats if not own[seat])
    pays_each = rule.pays_each
    for loser in losers:
        scope: dict[str, object] = {
            "loser_points": points[loser],
            "loser_is_vorhand": loser == vorhand,
            "without_tricks": without,
            "losers": len(losers),
            "players": len(deal.seats),
            "kontra": deal.kontra,
        }

        def pays(seat: int, scope: dict[str, object] = scope) -> int:
            return int(pays_each({**scope, "receiver_tricks": tricks_of[seat]}))

        each_other_pays(loser, everyone, deal.players, pays, payments)


def _pay_classes(
    deal: Deal, points: dict[int, int], tricks_of: dict[int, int], vorhand: int, payments: list[int]
) -> None:
    """Several classes of payments (Trischaken): each names its payers and receivers per seat."""
    rule = deal.contract.individual
    assert rule is not None
    env = _places(deal, points, tricks_of, vorhand)
    seats = list(env)  # the players from Vorhand, then a dealer who sits out and takes part
    for payment in rule.payments:
        payers = [s for s in seats if payment.payers is None or payment.payers(env[s])]
        receivers = [s for s in seats if payment.receivers is None or payment.receivers(env[s])]
        if payment.payers is None:
            # Everybody else pays each receiver, the amount as the receiver's case says.
            for receiver in receivers:
                amount = int(payment.amount(env[receiver]))
                each_other_pays(receiver, seats, deal.players, -amount, payments)
        elif payment.receivers is None:
            for payer in payers:
                each_other_pays(payer, seats, deal.players, int(payment.amount(env[payer])), payments)
        else:
            for payer, receiver in _pairs(payment.match, payers, receivers, env):
                amount = int(payment.amount(env[payer]))
                payments[payer] -= amount
                payments[receiver] += amount


def _places(deal: Deal, points: dict[int, int], tricks_of: dict[int, int], vorhand: int) -> dict[int, dict[str, Any]]:
    """What a class of payments reads for each seat that takes part: its points, tricks, place
    and rank; the seats that sit out and take part come last (no points, no trick), in order from the dealer."""
    players = list(deal.seats)  # in order from Vorhand
    # What every seat's conditions may read of the others (the Bürgermeister who pays alone).
    most = max(points[s] for s in players)
    without = sum(1 for s in players if tricks_of[s] == 0)
    env = {}
    for i, seat in enumerate(players):
        more = sum(1 for s in players if points[s] > points[seat])
        earlier_equal = sum(1 for s in players[:i] if points[s] == points[seat])
        env[seat] = {
            "points": points[seat],
            "tricks": tricks_of[seat],
            "place": 1 + more,
            "rank": 1 + more + earlier_equal,
            "is_vorhand": seat == vorhand,
            "players": len(players),
            "sharing": sum(1 for s in players if points[s] == points[seat]),
            "most_points": most,
            "without_tricks": without,
            "sitting_out": False,
            "kontra": deal.kontra,
        }
    out = deal.seats_out if deal.ruleset.settlement.sitting_out == "defender" else ()
    for i, seat in enumerate(out):
        last = len(players) + 1
        env[seat] = {
            "points": 0,
            "tricks": 0,
            "place": last,
            "rank": last + i,
            "is_vorhand": False,
            "players": len(players),
            "sharing": 0,
            "most_points": most,
            "without_tricks": without,
            "sitting_out": True,
            "kontra": deal.kontra,
        }
    return env


def _pairs(
    match: str, payers: list[int], receivers: list[int], env: dict[int, dict[str, Any]]
) -> list[tuple[int, int]]:
    """Who pays whom: each payer each receiver; or, matched in pairs, the payer with most points
    the receiver with least, and so on down."""
    if match == "pairs":
        ordered_payers = sorted(payers, key=lambda s: env[s]["rank"])
        ordered_receivers = sorted(receivers, key=lambda s: -env[s]["rank"])
        return [(p, r) for p, r in zip(ordered_payers, ordered_receivers, strict=False) if p != r]
    return [(p, r) for p in payers for r in receivers if p != r]


def _shares(deal: Deal, env: dict[str, Any], amount: int, defenders: Sequence[int]) -> dict[int, int] | None:
    """What each opponent pays when some pay for the whole team; None when each pays `amount`."""
    for rule in deal.ruleset.settlement.liable:
        if not rule.when(env):
            continue
        seats: set[int] = set()
        if "other_bidders" in rule.seats:
            seats |= set(deal.bidders) - {deal.declarer}
        if "withholders" in rule.seats:
            seats |= {s for s in deal.withheld if s != deal.declarer}
        seats &= set(defenders)
        if not seats:
            continue
        scope = {**env, "amount": amount, "defenders": len(defenders), "liable": len(seats)}
        pays, others = int(rule.pays(scope)), int(rule.others_pay(scope))
        return {s: pays if s in seats else others for s in defenders}
    return None


def _announcements(deal: Deal, tricks: Sequence[Trick], outcome: str) -> list[dict[str, Any]]:
    """Each laid card commits to one of the last tricks: the lowest the last, the next the one before."""
    if not deal.laid:
        return []
    rank = deal.ruleset.deck.rank
    ordered = sorted(deal.laid, key=lambda item: rank[item[1]])
    result = []
    for position, (name, card) in enumerate(ordered):
        target = len(tricks) - 1 - position
        if outcome == "claimed":
            won = True
        else:
            won = 0 <= target < len(tricks) and card in tricks[target].cards and tricks[target].winner == deal.declarer
        formula = deal.ruleset.announcements[name].value
        assert formula is not None  # cards are laid only for an announcement with a value
        value = int(formula({"card": card}))
        result.append({"name": name, "card": card, "trick": target + 1, "won": won, "value": value})
    return result
