"""The session's pots of their own (`session.pots`): accounts kept across the deals.

Each pot is filled by antes (every player's when the session starts and before each deal, the
dealer's before each deal) and pays out after each deal by its rules, in order: to the declarer,
to each of the declarer's opponents, or to one seat, an amount by formula over the deal just
played and what the pots hold. A pot never holds less than zero: a pay-out takes at most what it
holds, shared equally where several are paid (what does not divide stays in it); a negative
amount is paid into the pot by each payee. At the session's end what is left is kept or shared.

What the seats pay in and take out is kept apart from the deals' own payments (`taken`), so a
deal's record is the same with or without the pots, and the session's totals add it up.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interpreter.engine.faults import TableError
from interpreter.engine.game import Game
from interpreter.errors import RuleError
from interpreter.language.model import Account, Formula, PotPayout


class Pots:
    """What each pot holds, and what each seat has taken out of them (below 0: paid in)."""

    def __init__(self, accounts: tuple[Account, ...], players: int, held: Mapping[str, int] | None = None) -> None:
        self.accounts = accounts
        self.players = players
        self.held = {account.name: 0 for account in accounts}
        for name, amount in (held or {}).items():
            if name not in self.held:
                known = ", ".join(self.held) or "none"
                raise TableError("pots", f"no pot named {name!r} in this session (its pots: {known})")
            if type(amount) is not int or amount < 0:
                raise TableError("pots", f"the pot {name!r} holds a whole number from 0, not {amount!r}")
            self.held[name] = amount
        self.taken = [0] * players
        for account in accounts:
            if account.ante is not None:
                self._pay_in(account, range(players), account.ante, {"players": players})

    def copy(self) -> Pots:
        twin = object.__new__(Pots)
        twin.accounts, twin.players = self.accounts, self.players
        twin.held, twin.taken = dict(self.held), list(self.taken)
        return twin

    def before_deal(self, dealer: int) -> None:
        """Every player's ante before the deal, and the dealer's."""
        env = {"players": self.players}
        for account in self.accounts:
            if account.each_deal is not None:
                self._pay_in(account, range(self.players), account.each_deal, env)
            if account.dealer is not None:
                self._pay_in(account, (dealer,), account.dealer, env)

    def after_deal(self, game: Game, last: Mapping[str, Any]) -> None:
        """Each pot's pay-outs over the deal just played, in order."""
        result = game.result
        assert result is not None
        declarer = result.declarer
        team = {declarer, result.partner} - {None}
        opponents = [s for s in game.seats if s not in team] if declarer is not None else []
        facts = {
            **last,
            "declarer_payment": result.payments[declarer] if declarer is not None else 0,
            "opponents": len(opponents),
            "declarer": declarer if declarer is not None else -1,
            "dealer": game.dealer,
        }
        for account in self.accounts:
            for payout in account.pays:
                env = {**facts, **self.held}
                payees = self._payees(account, payout, env, result.contract, declarer, opponents)
                if payees:
                    self._pay_out(account, payees, int(payout.amount(env)))

    def shares(self, over: bool) -> dict[str, int]:
        """What each seat takes out of each pot at the end: an equal share, once the session is
        over, of a pot whose rest is shared; else nothing."""
        return {
            a.name: self.held[a.name] // self.players if over and a.left == "shared" and self.held[a.name] > 0 else 0
            for a in self.accounts
        }

    def left(self, over: bool) -> dict[str, int]:
        """What each pot holds: at the end, what stays after the shares are taken out."""
        shares = self.shares(over)
        return {name: held - shares[name] * self.players for name, held in self.held.items()}

    # -- the steps ------------------------------------------------------------------------------

    def _payees(
        self,
        account: Account,
        payout: PotPayout,
        env: Mapping[str, Any],
        contract: str | None,
        declarer: int | None,
        opponents: list[int],
    ) -> list[int]:
        if payout.to != "seat" and declarer is None:
            return []  # nobody declared: no declarer, no defenders to pay
        if payout.contracts and contract not in payout.contracts:
            return []
        if payout.when is not None and not payout.when(env):
            return []
        if payout.to == "declarer":
            assert declarer is not None
            return [declarer]
        if payout.to == "defenders":
            return opponents
        assert payout.seat is not None
        seat = int(payout.seat(env))
        if not 0 <= seat < self.players:
            raise RuleError(
                f"the pot {account.title!r} would pay seat {seat}, who is not at this table (the seats are 0 to "
                f"{self.players - 1}): write the seat modulo `players`",
                payout.seat.source,
                payout.seat.place,
            )
        return [seat]

    def _pay_in(self, account: Account, seats: Any, ante: Formula, env: Mapping[str, Any]) -> None:
        each = int(ante(env))
        if each < 0:
            raise RuleError(
                f"an ante into the pot {account.title!r} comes to {each}: an ante is 0 or more (what a pot pays "
                "out is written under `pays`)",
                ante.source,
                ante.place,
            )
        for seat in seats:
            self.taken[seat] -= each
            self.held[account.name] += each

    def _pay_out(self, account: Account, payees: list[int], each: int) -> None:
        if each > 0:
            # Never more than the pot holds: what it holds, shared equally, at most.
            each = min(each, self.held[account.name] // len(payees))
        for seat in payees:
            self.taken[seat] += each
            self.held[account.name] -= each
