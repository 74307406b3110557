"""What can go wrong in a deal besides a refused action, each an error of its own type.

A table set up wrongly (`TableError`, naming the argument at fault), a rule's formula failing
while the game applies an action (`RuleFailure`, naming the formula), and a deal whose cards no
longer add up (`BrokenDealError`). The last two are faults of the ruleset (or of the
interpreter), not of the player: the game undoes the action and raises them.
"""

from __future__ import annotations

from typing import Any

from interpreter.errors import InvalidActionError, TarockError
from interpreter.language.dsl import Expression


class TableError(InvalidActionError):
    """A game set up wrongly: a table size the ruleset does not allow, a dealer, seed or pot
    out of range. `key` names the argument at fault (players, dealer, seed, pot)."""

    def __init__(self, key: str, message: str):
        self.key = key
        super().__init__(message)


class RuleFailure(TarockError):
    """A rule's formula failed while the game applied it (a division by a value that is zero,
    say). `expression` is the formula's text; `doing` what the game was doing. When it was
    applying an action, the game is as it was before that action."""

    def __init__(self, reason: str, expression: str, doing: str):
        self.reason = reason
        self.expression = expression
        self.doing = doing
        shown = expression if len(expression) <= 80 else expression[:79] + "…"
        super().__init__(f'the rule "{shown}" failed while {doing}: {reason}')


class BrokenDealError(TarockError):
    """The cards of a deal no longer add up (a card lost or doubled, hands of unequal sizes):
    the rules, as the ruleset writes them, moved cards wrongly. The game stops rather than
    settle such a deal; the action that led to it is undone."""


def failing_expression(exc: BaseException) -> Expression[Any] | None:
    """The innermost formula being evaluated where `exc` was raised, if any."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        candidate = tb.tb_frame.f_locals.get("self")
        if isinstance(candidate, Expression):
            found = candidate
        tb = tb.tb_next
    return found


def as_rule_failure(exc: Exception, doing: str) -> TarockError | None:
    """The project's error for `exc`, raised while the game was `doing` something: the error
    itself when it is one already, a RuleFailure naming the formula that failed, or None when
    no formula failed (a fault of the interpreter, to be raised as it is)."""
    if isinstance(exc, TarockError):
        return exc
    expression = failing_expression(exc)
    if expression is None:
        return None
    failure = RuleFailure(str(exc) or type(exc).__name__, expression.source, doing)
    failure.__cause__ = exc
    return failure
