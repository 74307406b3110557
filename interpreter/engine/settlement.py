"""Counting and settlement: from the tricks of a finished deal to the payments.

Separate from the state machine because it is pure arithmetic over what happened: which cards
each side took, who announced and bid what, and the ruleset's formulas.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.language.model import Contract, Declaration, Ruleset

if TYPE_CHECKING:
    from interpreter.engine.play import Trick


@dataclass(frozen=True)
class Result:
    outcome: str  # played | claimed | thrown_in | abandoned
    contract: str | None
    declarer: int | None
    declarer_won: bool | None
    points: dict[str, Any] | None  # {"declarer": …, "defenders": …}, or {"seats": [...]}
    tricks: dict[str, Any] | None
    payments: list[int]
    reason: str = ""
    announcements: tuple[dict[str, Any], ...] = ()  # each laid card: {name, card, won, value}
    pot: int = 0  # what the pot gained in this deal (payments + pot = 0)

    def as_dict(self) -> dict[str, Any]:
        """The result as events and views show it: new lists and mappings, safe to change."""
        result: dict[str, Any] = {
            "outcome": self.outcome,
            "contract": self.contract,
            "declarer": self.declarer,
            "declarer_won": self.declarer_won,
            "points": _copy(self.points),
            "tricks": _copy(self.tricks),
            "payments": list(self.payments),
        }
        if self.reason:
            result["reason"] = self.reason
        if self.announcements:
            result["announcements"] = [dict(a) for a in self.announcements]
        if self.pot:
            result["pot"] = self.pot
        return result


@dataclass(frozen=True)
class Deal:
    """What the settlement needs to know about a finished deal."""

    ruleset: Ruleset
    contract: Contract
    declarer: int | None  # None where everyone plays for themselves
    seats: list[int]  # active seats
    players: int  # people at the table
    sitting_out: int | None
    bidders: frozenset[int]  # seats that bid in the auction
    withheld: dict[int, str]  # seat -> the card it withheld
    laid: tuple[tuple[str, str], ...]  # (announcement, card) the declarer laid out
    declared: tuple[Declaration, ...] = ()  # declarations made (Tout): each changes the aim and the value
    pot: int | None = None  # the pot's size before the deal, when one is kept


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
    for seat in seats:
        if seat != payer:
            pay = amount if isinstance(amount, int) else amount(seat)
            payments[seat] += pay
            payments[payer] -= pay
    return payments


def _copy(table: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if table is None else {k: list(v) if isinstance(v, list) else v for k, v in table.items()}


def piles(deal: Deal, tricks: Sequence[Trick], out_of_play: list[str]) -> tuple[list[str], list[str], int, int]:
    """The declarer's and the defenders' cards, and their trick counts."""
    declarer_cards: list[str] = []
    defender_cards: list[str] = []

    def side(seat: int | None) -> list[str]:
        return declarer_cards if seat == deal.declarer else defender_cards

    withheld_by = {card: seat for seat, card in deal.withheld.items()}
    withhold = deal.ruleset.play.withhold
    compensated = withhold is not None and withhold.compensation == "lowest_value"
    for trick in tricks:
        if not withheld_by:
            side(trick.winner).extend(trick.cards)
            continue
        for _seat, card in zip(trick.seats, trick.cards, strict=False):
            # A withheld card goes to its holder's side, whoever won the trick.
            side(withheld_by.get(card, trick.winner)).append(card)
    if withheld_by and tricks and compensated:
        last = tricks[-1]
        for card, holder in withheld_by.items():
            if card in last.cards and (holder == deal.declarer) != (last.winner == deal.declarer):
                # The winners of the last trick are a card short: the holder's side gives one of
                # its cards, the least valuable (a 1-point card if it has one; the ruleset's
                # `withhold.compensation`).
                giver, taker = side(holder), side(last.winner)
                values = deal.ruleset.deck.points
                order = deal.ruleset.deck.cards
                others = [c for c in giver if c != card]
                # With no other card (they took no trick), the withheld card itself goes over.
                card_given = min(others, key=lambda c: (values[c], order.index(c))) if others else card
                giver.remove(card_given)
                taker.append(card_given)
    declarer_tricks = sum(1 for t in tricks if t.winner == deal.declarer)
    defender_tricks = len(tricks) - declarer_tricks
    counting = deal.ruleset.counting
    to = counting.aside_counts_for
    if counting.aside_unless is not None and counting.aside_unless(
        {"declarer_tricks": declarer_tricks, "defender_tricks": defender_tricks, "tricks": len(tricks)}
    ):
        to = "defenders" if to == "declarer" else "declarer"
    if to == "declarer":
        declarer_cards += out_of_play
    elif to == "defenders":
        defender_cards += out_of_play
    return declarer_cards, defender_cards, declarer_tricks, defender_tricks


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
    rs, contract = deal.ruleset, deal.contract
    assert deal.declarer is not None and contract.declarer_wins is not None and contract.amount is not None
    env = _outcome_env(
        rs, declarer_cards, defender_cards, declarer_tricks, defender_tricks, len(deal.seats), len(deal.bidders)
    )
    env["last_trick_won_with"] = _last_won_with(deal, tricks)
    env["tricks_won_with"] = frozenset(
        t.cards[t.seats.index(deal.declarer)]
        for t in tricks or ()
        if t.winner == deal.declarer and deal.declarer in t.seats
    )
    won = bool(contract.declarer_wins(env))
    for declaration in deal.declared:
        won = bool(declaration.wins(env))
    # A draw belongs to the contract's own aim; a declaration (Tout) replaces that aim.
    drawn = not deal.declared and rs.settlement.drawn is not None and bool(rs.settlement.drawn(env))
    env = _value_env(contract, env, won, factor)
    amount = 0 if drawn else int(contract.amount(env))
    for declaration in deal.declared:
        if declaration.priced == "all_tricks":
            everything = _outcome_env(
                rs, declarer_cards + defender_cards, [], declarer_tricks + defender_tricks, 0, len(deal.seats), 0
            )
            amount = _value(contract, _value_env(contract, everything, True, factor))
        if declaration.amount is not None:
            amount = int(declaration.amount(env))
        amount *= declaration.multiplier
    payments = [0] * deal.players
    defenders = [s for s in deal.seats if s != deal.declarer]
    if deal.sitting_out is not None and rs.settlement.sitting_out == "defender":
        defenders.append(deal.sitting_out)
    sign = 1 if won else -1
    shares = _shares(deal, env, amount, defenders) if liable else None
    each_other_pays(
        deal.declarer, defenders, deal.players, lambda s: -sign * (shares[s] if shares else amount), payments
    )
    pot_change = 0
    if deal.pot is not None and contract.pot is not None and not drawn:
        pot_change = int(contract.pot({**env, "amount": amount, "pot": deal.pot}))
        payments[deal.declarer] -= pot_change
    announced = _announcements(deal, tricks or [], outcome)
    for item in announced:
        value = item["value"] if item["won"] else -item["value"]
        each_other_pays(deal.declarer, defenders, deal.players, -value, payments)
    return Result(
        outcome,
        contract.name,
        deal.declarer,
        won,
        {"declarer": env["declarer_points"], "defenders": env["defender_points"]},
        {"declarer": declarer_tricks, "defenders": defender_tricks},
        payments,
        reason="drawn: nobody scores" if drawn else "",
        announcements=tuple(announced),
        pot=pot_change,
    )


def _outcome_env(
    rs: Ruleset,
    declarer_cards: list[str],
    defender_cards: list[str],
    declarer_tricks: int,
    defender_tricks: int,
    players: int,
    bidders: int,
) -> dict[str, Any]:
    """What the conditions on a deal's outcome read (the cards' tricks themselves excepted)."""
    values = rs.deck.points
    declarer_points = rs.counting.points(declarer_cards, values)
    defender_points = rs.counting.points(defender_cards, values)
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
        "declarer_cards": len(declarer_cards),
        "defender_cards": len(defender_cards),
        "last_trick_won_with": frozenset(),
        "tricks_won_with": frozenset(),
        "bidders": bidders,
    }


def _value_env(contract: Contract, env: dict[str, Any], won: bool, factor: int | None) -> dict[str, Any]:
    """`env` and what the value formulas read besides: who won, and the factor."""
    own_factor = (contract.factor_won if won else contract.factor_lost) or 0
    return {
        **env,
        "declarer_won": won,
        "winner_points": env["declarer_points"] if won else env["defender_points"],
        "loser_points": env["defender_points"] if won else env["declarer_points"],
        "factor": own_factor if factor is None else factor,
    }


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


def _last_won_with(deal: Deal, tricks: Sequence[Trick] | None) -> frozenset[str]:
    """The declarer's card in the last trick, if the declarer won it (Ulti: won with the 1)."""
    if not tricks or deal.declarer is None or tricks[-1].winner != deal.declarer:
        return frozenset()
    last = tricks[-1]
    return frozenset({last.cards[last.seats.index(deal.declarer)]})


def settle_individual(deal: Deal, tricks: Sequence[Trick], vorhand: int, talon: list[str] | None = None) -> Result:
    """Everyone for themselves: each player's own tricks are counted (and the talon, by whoever
    takes the last trick, where the contract says so)."""
    rule = deal.contract.individual
    assert rule is not None
    rs = deal.ruleset
    own = {seat: [c for t in tricks if t.winner == seat for c in t.cards] for seat in deal.seats}
    last = tricks[-1].winner
    assert last is not None
    if deal.contract.talon_to_last_trick and talon:
        own[last] += talon
    points = {seat: rs.counting.points(cards, rs.deck.points) if cards else 0 for seat, cards in own.items()}
    if rule.loser == "last_trick":
        losers = [last]
    else:
        most = max(points.values())
        losers = [seat for seat in deal.seats if points[seat] == most]
        if len(losers) > 1 and rule.ties == "vorhand_else_all" and vorhand in losers:
            losers = [vorhand]
    without = sum(1 for seat in deal.seats if not own[seat])
    payments = [0] * deal.players
    everyone = list(deal.seats)
    if deal.sitting_out is not None and rs.settlement.sitting_out == "defender":
        everyone.append(deal.sitting_out)
    tricks_of = {seat: sum(1 for t in tricks if t.winner == seat) for seat in everyone}
    for loser in losers:
        scope: dict[str, object] = {
            "loser_points": points[loser],
            "loser_is_vorhand": loser == vorhand,
            "without_tricks": without,
            "losers": len(losers),
            "players": len(deal.seats),
        }

        def pays(seat: int, scope: dict[str, object] = scope) -> int:
            return int(rule.pays_each({**scope, "receiver_tricks": tricks_of[seat]}))

        each_other_pays(loser, everyone, deal.players, pays, payments)
    seat_points = [points.get(seat, 0) for seat in range(deal.players)]
    return Result(
        "played",
        deal.contract.name,
        None,
        None,
        {"seats": seat_points},
        {"seats": [sum(1 for t in tricks if t.winner == s) for s in range(deal.players)]},
        payments,
    )


def _shares(deal: Deal, env: dict[str, Any], amount: int, defenders: list[int]) -> dict[int, int] | None:
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
