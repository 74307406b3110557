"""Games recorded in the field: offences accepted and penalised rather than refused.

A ruleset that penalises (`penalties: {mode: penalize}`, `breaches: penalize`) replays games
as a real table played them: a card against the duty to follow, an incorrect discard or one of
the wrong size, a pass against a compulsion, a misdeal. The action stands, the deal is
abandoned, and the offender (or the offender's side, `paid_by: side`) pays. Each function here works out an offence or its penalty from the game's public
facts; the game applies the result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.engine.actions import DiscardAction, PlayCard
from interpreter.engine.announcing import Round
from interpreter.engine.phase import Phase
from interpreter.engine.settlement import Result, each_other_pays, lost_every_trick, side_receives
from interpreter.language.model import Compulsion, Discard

if TYPE_CHECKING:
    from interpreter.engine.game import Game


def offence(game: Game, seat: int, parsed: object) -> str | None:
    """The offence `parsed` (not allowed now) would be, when the ruleset penalises it instead of
    refusing it: revoke (a card against the duty to follow or trump), discard (an incorrect
    discard, or a card led before the discard was finished)."""
    rule = game.ruleset.penalties
    if rule is None or rule.mode != "penalize" or not isinstance(parsed, (PlayCard, DiscardAction)):
        return None
    if isinstance(parsed, DiscardAction):
        # An incorrect discard (a King laid away in a Dreierles Zweier): a proper discard of
        # the declarer's, which the rules of what may go aside do not allow.
        exchange = game.exchange
        if game.phase is not Phase.EXCHANGE or exchange is None:
            return None
        if "discard" in rule.offences and exchange.breach(seat, parsed) is not None:
            return "discard"
        if "discard_size" in rule.offences and wrong_size(game, seat, parsed) is not None:
            return "discard_size"
        return None
    if parsed.card not in game.hands[seat]:
        return None
    play = game.trickplay
    if (
        game.phase is Phase.PLAY
        and play is not None
        and "revoke" in rule.offences
        and parsed.card not in play.legal(seat)
    ):
        return "revoke"
    if game.phase is Phase.EXCHANGE and "discard" in rule.offences and seat == game.declarer:
        return "discard"
    return None


def wrong_size(game: Game, seat: int, parsed: DiscardAction) -> str | None:
    """How the declarer's discard, of different cards held and not laid face up, is the wrong
    size (three cards where two were due), which a table recording its games may penalise
    (`discard_size`); None when it is not, or is no such discard."""
    exchange = game.exchange
    if exchange is None or seat != exchange.to_act or exchange.accusing or exchange.conceding:
        return None
    if exchange.parts is not None or exchange.choosing_trumps() or exchange.step >= len(exchange.contract.exchange):
        return None
    step = exchange.current_step()
    if not isinstance(step, Discard):
        return None
    cards = list(parsed.cards)
    hand = game.hands[seat]
    if len(set(cards)) != len(cards) or any(c not in hand or c in exchange.cards.exposed for c in cards):
        return None
    due = step.how_many(exchange.talon_size)
    return None if len(cards) == due else f"{len(cards)} cards where {due} were due"


def penalty(game: Game, misdeal: bool = False) -> int:
    """What an offender pays each other player."""
    rule = game.ruleset.penalties
    assert rule is not None
    contract, round_ = game.contract, game.announcement
    env = {
        "players": len(game.seats),
        "factor": (contract.factor_won if contract is not None else None) or 1,
        "kontra": round_.game_kontra if isinstance(round_, Round) else 1,
        "misdeal": misdeal,
    }
    return int(rule.pays_each(env))


def misdeal_result(game: Game, misdeal: str) -> Result:
    """A misdeal the table played with: the deal is abandoned and the dealer pays (reported)."""
    amount = penalty(game, misdeal=True)
    reason = f"misdeal ({misdeal}); the deal is abandoned and the dealer, seat {game.dealer}, pays each other player {amount}"
    game.events.append({"type": "offence", "seat": game.dealer, "offence": "misdeal", "reason": reason})
    payments = each_other_pays(game.dealer, game.seats, game.players, amount)
    return Result("abandoned", None, None, None, None, None, payments, reason=reason)


def offence_result(game: Game, offender: int, parsed: PlayCard | DiscardAction, offence: str) -> Result:
    """The offence accepted: written down and reported, the deal abandoned, the offender paying."""
    amount = penalty(game)
    if isinstance(parsed, DiscardAction):
        assert game.exchange is not None
        # The discard lies face down: the offence is told, not which cards it was.
        wrong = game.exchange.breach(offender, parsed) if offence == "discard" else wrong_size(game, offender, parsed)
        what = f"discarded against the rules ({wrong})"
        cards: dict[str, str] = {}
    else:
        what = {
            "revoke": f"played {parsed.card} against the duty to follow suit or trump",
            "discard": f"led {parsed.card} before finishing the discard",
        }[offence]
        cards = {"card": parsed.card}
    sides = _sides(game)
    if sides is None:
        payments = each_other_pays(offender, game.seats, game.players, amount)
        who = f"seat {offender} pays each other player {amount}"
    else:
        team, opponents = sides
        payments = [0] * game.players
        # As a lost game is paid: the side of the offender loses `amount` per payment.
        side_receives(team, opponents, -amount if offender in team else amount, payments, game.ruleset.settlement.split)
        paying = team if offender in team else opponents
        who = f"the side of seat {offender} ({_seats(paying)}) pays {amount} to each opponent, as a lost game is paid"
    reason = f"seat {offender} {what}; the deal is abandoned and {who}"
    game.table.history.append((offender, parsed.as_json()))
    game.events.append({"type": "offence", "seat": offender, "offence": offence, **cards, "reason": reason})
    contract = game.contract.name if game.contract else None
    return Result("abandoned", contract, game.declarer, None, None, None, payments, reason=reason)


def _sides(game: Game) -> tuple[tuple[int, ...], list[int]] | None:
    """The declarer's side and its opponents, where the offender's side pays a penalty
    (`penalties.paid_by: side`) and there are sides: a declarer's game, in the exchange or the
    play. None: the offender pays alone."""
    rule = game.ruleset.penalties
    contract, declarer = game.contract, game.declarer
    if rule is None or rule.paid_by != "side" or contract is None or declarer is None or contract.individual:
        return None
    partner = game.partner
    exchange = game.exchange
    if partner is None and game.phase is Phase.EXCHANGE and exchange is not None and exchange.partner_card:
        # In the exchange the partner is not yet written down: the called card's holder.
        card = exchange.partner_card
        holder = next((s for s in game.seats if card in game.hands[s]), None)
        partner = holder if holder != declarer else None
    team = (declarer,) if partner is None else (declarer, partner)
    opponents = [s for s in game.seats if s not in team]
    if game.ruleset.settlement.sitting_out == "defender":
        opponents.extend(game.seats_out)
    return team, opponents


def _seats(seats: tuple[int, ...] | list[int]) -> str:
    return f"seat {seats[0]}" if len(seats) == 1 else "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"


def breach_result(game: Game, offender: int, rule: Compulsion) -> Result:
    """A pass against a compulsion the ruleset penalises: paid "as though they had bid and lost
    every trick" (the compelled bid's lost Marsch in the game the table plays), to everybody who
    would have been paid for it."""
    assert rule.breach_pays_each is not None
    ruleset = game.ruleset
    level = next(lv for lv in game.auction.state.phase.ladder if lv.call == rule.call)
    contract = ruleset.contracts.get(level.contract) if level.contract else None
    lost = lost_every_trick(ruleset, contract, len(game.seats)) if contract is not None else 0
    amount = int(rule.breach_pays_each({"players": len(game.seats), "lost_every_trick": lost}))
    receivers = list(game.seats)
    if ruleset.settlement.sitting_out == "defender":
        receivers.extend(game.seats_out)
    reason = f'seat {offender} passed against the rule "{rule.reason}"; the deal is abandoned'
    game.events.append({"type": "breach", "seat": offender, "reason": reason})
    payments = each_other_pays(offender, receivers, game.players, amount)
    return Result("abandoned", None, None, None, None, None, payments, reason=reason)
