"""A session: deals one after another, as the ruleset's `session` rule says.

Who deals next is `dealer` (the next seat unless said otherwise), or the first of `dealer_when`
whose condition holds of the deal just played (the same dealer again after a throw-in). A *turn of
dealing* lasts while the same seat deals again; a *round* is as many turns as there are seats.

The session's main part ends after `deals` deals, after `rounds` complete rounds, after the deal
at which `until` holds, or on request: once the holder of `holder_of` in the next deal has dealt
(Cego's "der Gstieß gibt ab"), or, without such a card, once the round under way is complete.
Then the closing rounds are played (`special_rounds` at the end), each deal of them with the
readings and options they choose. A round at a signal (`signal`) is played from the next deal
on, and the choices it names `after` hold for every deal after it (the stake ten times higher).

Each deal's payments add up in `scores`. With a score sheet, each deal also writes each seat's
score (`sheet`), and `totals()` settles the sheet at the end instead. The pots of their own
(`pots`, engine/pots.py) take their antes and pay out after each deal; what the seats paid in and
took out is added in `totals()`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.pots import Pots
from interpreter.engine.seeds import deal_seed
from interpreter.errors import IllegalActionError
from interpreter.language.model import Ruleset, SpecialRound


class Session:
    def __init__(
        self,
        ruleset: Ruleset | str,
        players: int | None = None,
        dealer: int = 0,
        seed: int | None = None,
        options: Mapping[str, str] | None = None,
        pots: Mapping[str, int] | None = None,
    ):
        if isinstance(ruleset, str):
            from interpreter.language.loader import load_ruleset

            ruleset = load_ruleset(ruleset, options)
        self.ruleset = ruleset
        self.rule = ruleset.session
        self.players = players if players is not None else ruleset.table_sizes[0]
        self.dealer = dealer
        # A session given a seed deals reproducibly, deal i from a seed hashed from it and i
        # (engine/seeds.py); without one, every deal is shuffled from the operating system's
        # randomness.
        self.seed = seed
        self.scores = [0] * self.players  # each deal's payments added up
        sheet = self.rule.sheet
        self.sheet: list[int] | None = [sheet.start] * self.players if sheet is not None else None
        self.deals: list[Game] = []
        self.rounds_of_deals: list[str | None] = []  # the round of its own each deal was played in
        self.ending_requested_by: int | None = None
        self.last_dealer: int | None = None  # who deals the last deal, once known
        self.game: Game | None = None
        self.pot: int | None = 0 if ruleset.pot_ante is not None or self.rule.pot is not None else None
        # What each seat paid into the pot as the session's own antes (at its start, before each deal).
        self.paid_in = [0] * self.players
        if self.rule.pot is not None and self.rule.pot.ante is not None:
            ante = int(self.rule.pot.ante({"players": self.players}))
            self.paid_in = [ante] * self.players
            self.pot = (self.pot or 0) + ante * self.players
        # The pots of their own (`pots`: what each holds as the session starts, a pot kept from
        # the last session), their antes at the start paid in.
        self.pots = Pots(self.rule.pots, self.players, pots)
        self.turns = 0  # complete turns of dealing, the closing rounds' left out
        self.finished = 0  # deals added up by finish_deal
        self.next_dealer: int = dealer
        self.end_reached = False  # the main part is over: the closing rounds follow, if any
        self.ended = False
        self.after: dict[str, str] = {}  # choices that hold from a round at a signal on
        self.signalled: list[str] = []  # rounds at a signal given, in order
        self.current: SpecialRound | None = None  # the round of its own being played
        self.turns_left = 0  # of that round, the turn under way included
        self.pending: SpecialRound | None = None  # a round at a signal, from the next deal on
        self.closing = [r for r in self.rule.special_rounds if r.at == "end"]

    # -- where the session stands ------------------------------------------------------------

    @property
    def over(self) -> bool:
        if self.game is not None and self.game.is_over and self.finished < len(self.deals):
            # The last deal is over but not yet added up: whether it ends the session.
            return self._copy_finished().ended
        return self.ended

    @property
    def rounds(self) -> int:
        """Complete rounds of the session's main part (and of rounds at a signal)."""
        return self.turns // self.players

    def totals(self) -> list[int]:
        """What each seat wins (or pays) over the session so far: the score sheet settled, if the
        session keeps one, else the deals' payments added up; less what it paid into the pot when
        the session started, and with its share of what is left there once the session is over,
        where the pot is shared."""
        sheet, rule = self.sheet, self.rule.sheet
        if sheet is None or rule is None:
            money = list(self.scores)
        elif rule.settle == "differences":
            # Every two players settle the difference of their scores.
            total = sum(sheet)
            money = [rule.stake * (self.players * s - total) for s in sheet]
        else:
            money = [rule.stake * (s - rule.start) for s in sheet]
        share = self.pot_share() + sum(self.pots.shares(self.over).values())
        return [m - paid + taken + share for m, paid, taken in zip(money, self.paid_in, self.pots.taken, strict=True)]

    def pots_left(self) -> dict[str, int]:
        """What each pot of its own holds: at the end, what stays after the shares are taken out."""
        return self.pots.left(self.over)

    def pot_left(self) -> int | None:
        """What the pot holds: at the end, what stays after the shares are taken out."""
        if self.pot is None:
            return None
        return self.pot - self.pot_share() * self.players

    def pot_share(self) -> int:
        """What each seat takes out of the pot at the end: its equal share once the session is
        over, where what is left is shared; else nothing."""
        pot = self.rule.pot
        if pot is None or pot.left != "shared" or not self.over or not self.pot:
            return 0
        return self.pot // self.players

    def choices(self) -> dict[str, str]:
        """The readings and options the next deal is played with, beyond the ruleset's own."""
        chosen = dict(self.after)
        round_ = self.pending if self.pending is not None else self.current
        if round_ is not None:
            chosen.update(round_.options)
        elif self.end_reached and self.closing:
            chosen.update(self.closing[0].options)
        return chosen

    # -- the deals -----------------------------------------------------------------------------

    def next_deal(self, deal: Mapping[str, Any] | None = None, seed: int | None = None) -> Game:
        """Start the next deal (the previous one must be over): with the cards `deal`, shuffled
        from `seed`, or from the session's own seed."""
        if self.game is not None and not self.game.is_over:
            raise IllegalActionError("finish the current deal first")
        if self.game is not None and self.finished < len(self.deals):
            self.finish_deal()  # added up on the way, for a caller that did not
        if self.ended:
            raise IllegalActionError("the session is over")
        if self.end_reached and self.current is None and self.closing:
            self.current, self.turns_left = self.closing[0], self.closing[0].rounds * self.players
        if self.pending is not None:
            self.current, self.turns_left, self.pending = self.pending, self.pending.rounds * self.players, None
        self.dealer = self.next_dealer
        pot_rule = self.rule.pot
        if pot_rule is not None and pot_rule.each_deal is not None:
            # Every player antes before the deal; the deal starts with the pot so filled.
            ante = int(pot_rule.each_deal({"players": self.players}))
            self.paid_in = [paid + ante for paid in self.paid_in]
            self.pot = (self.pot or 0) + ante * self.players
        self.pots.before_deal(self.dealer)
        ruleset = self.ruleset.with_choices(self.choices()) if self.choices() else self.ruleset
        self.game = Game(
            ruleset,
            players=self.players,
            dealer=self.dealer,
            seed=seed if seed is not None or deal or self.seed is None else deal_seed(self.seed, len(self.deals)),
            deal=deal,
            pot=self.pot,
        )
        self.deals.append(self.game)
        self.rounds_of_deals.append(self.current.name if self.current is not None else None)
        card = self.rule.holder_of
        if self.ending_requested_by is not None and self.last_dealer is None and card is not None:
            # The first deal after the request: whoever holds the card deals the last one. If it
            # lies in the talon, nobody holds it: look again at the next deal.
            self.last_dealer = next((s for s in range(self.players) if card in self.game.initial_hands[s]), None)
        return self.game

    def finish_deal(self) -> None:
        """Add the deal's payments to the scores (and its rows to the score sheet), and work out
        who deals next and whether the session goes on."""
        game = self.game
        result = game.result if game is not None else None
        if game is None or result is None:
            raise IllegalActionError("the deal is not over: there is nothing to add up yet")
        if self.finished == len(self.deals):
            return  # added up already
        self.finished = len(self.deals)
        last = self._last_deal(game)
        if self.sheet is not None and self.rule.sheet is not None:
            score = self.rule.sheet.score
            self.sheet = [self.sheet[s] + int(score(self._row(game, s, last))) for s in range(self.players)]
        self.scores = [a + b for a, b in zip(self.scores, result.payments, strict=False)]
        if self.pot is not None:
            self.pot += result.pot
        self.pots.after_deal(game, last)
        self.next_dealer = self._dealer_after(game, last)
        new_turn = self.next_dealer != game.dealer
        if self.current is not None and new_turn:
            self.turns_left -= 1
        if not (self.current is not None and self.current.at == "end") and new_turn:
            self.turns += 1
        if self.current is not None and self.turns_left == 0:
            self._round_over(self.current)
        if not self.end_reached and self.current is None and self._ends(game, new_turn):
            self.end_reached = True
            self.ended = not self.closing

    def request_end(self, seat: int) -> None:
        """A player asks to end the session: with `holder_of`, the holder of that card in the
        next deal deals the last one ("der Gstieß gibt ab"); otherwise the session ends once the
        round under way is complete."""
        rule = self.rule
        if not (isinstance(seat, int) and 0 <= seat < self.players):
            raise IllegalActionError(f"seat {seat} is not at this table: the seats are 0 to {self.players - 1}")
        if rule.holder_of is None and not self.closing and (rule.deals or rule.rounds or rule.until):
            ends = (
                f"after {rule.deals} deals"
                if rule.deals
                else f"after {rule.rounds} rounds"
                if rule.rounds
                else f"once {rule.until.source if rule.until else ''}"
            )
            raise IllegalActionError(f"{self.ruleset.title} ends {ends}, not on request")
        if self.ended or self.end_reached:
            raise IllegalActionError("the session is already coming to its end")
        self.ending_requested_by = seat

    def signal(self, name: str) -> None:
        """The signal for the round of its own `name` (a round of compulsory games at 23:00): it
        is played from the next deal on."""
        found = {r.name: r for r in self.rule.special_rounds}
        round_ = found.get(name)
        if round_ is None or round_.at != "signal":
            at_signal = [r.name for r in self.rule.special_rounds if r.at == "signal"]
            raise IllegalActionError(
                f"{self.ruleset.title} has no round played at a signal named {name!r}"
                + (f"; it has: {', '.join(at_signal)}" if at_signal else "")
            )
        if name in self.signalled:
            raise IllegalActionError(f"the round {round_.title} has been played in this session already")
        if self.current is not None or self.pending is not None or self.end_reached or self.ended:
            raise IllegalActionError(f"the round {round_.title} can start only between two rounds of ordinary deals")
        self.signalled.append(name)
        self.pending = round_

    # -- the rules ----------------------------------------------------------------------------

    def _last_deal(self, game: Game) -> dict[str, Any]:
        result = game.result
        assert result is not None
        return {
            "thrown_in": result.outcome == "thrown_in",
            "abandoned": result.outcome == "abandoned",
            "misdeal": any(e.get("type") == "offence" and e.get("offence") == "misdeal" for e in game.events),
            "has_declarer": result.declarer is not None,
            "declarer_won": bool(result.declarer_won),
            "players": self.players,
        }

    def _row(self, game: Game, seat: int, last: dict[str, Any]) -> dict[str, Any]:
        """The names a seat's score on the sheet reads."""
        result = game.result
        assert result is not None and self.sheet is not None
        points = 0
        if result.points and seat not in game.seats_out:
            if "seats" in result.points:
                points = int(result.points["seats"][seat] or 0)
            else:
                side = "declarer" if seat in (result.declarer, result.partner) else "defenders"
                points = int(result.points.get(side) or 0)
        return {
            **last,
            "payment": result.payments[seat],
            "is_declarer": seat == result.declarer,
            "is_partner": result.partner is not None and seat == result.partner,
            "points": points,
            "score": self.sheet[seat],
        }

    def _dealer_after(self, game: Game, last: dict[str, Any]) -> int:
        choice = self.rule.dealer
        for rule in self.rule.dealer_when:
            if rule.when(last):
                choice = rule.dealer
                break
        declarer = game.result.declarer if game.result is not None else None
        if choice == "same":
            return game.dealer
        if choice == "declarer" and declarer is not None:
            return declarer
        if choice == "after_declarer" and declarer is not None:
            return (declarer + 1) % self.players
        return (game.dealer + 1) % self.players  # the deal passes on in the order of play

    def _ends(self, game: Game, new_turn: bool) -> bool:
        """Whether the session's main part ends with this deal."""
        rule = self.rule
        if rule.deals is not None and len(self.deals) >= rule.deals:
            return True
        if rule.rounds is not None and new_turn and self.turns >= rule.rounds * self.players:
            return True
        if rule.until is not None and rule.until(self._standing()):
            return True
        if self.ending_requested_by is not None:
            if rule.holder_of is not None:
                return self.last_dealer is not None and game.dealer == self.last_dealer and new_turn
            return new_turn and self.turns % self.players == 0
        return False

    def _standing(self) -> dict[str, Any]:
        scores = self.sheet if self.sheet is not None else self.scores
        return {
            "deals": len(self.deals),
            "rounds": self.rounds,
            "highest_score": max(scores),
            "lowest_score": min(scores),
            "pot": self.pot or 0,
            "players": self.players,
            **self.pots.held,
        }

    def _round_over(self, round_: SpecialRound) -> None:
        self.current = None
        if round_.at == "end":
            self.closing.pop(0)
            self.ended = not self.closing
        else:
            self.after.update(round_.after)

    def _copy_finished(self) -> Session:
        """A copy of this session with its last deal added up (to ask whether it ends there)."""
        copy = object.__new__(Session)
        copy.__dict__.update(self.__dict__)
        copy.closing, copy.after, copy.signalled = list(self.closing), dict(self.after), list(self.signalled)
        copy.pots = self.pots.copy()
        copy.finish_deal()
        return copy
