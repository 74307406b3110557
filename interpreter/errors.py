"""Errors, split by cause as python-chess does.

A ruleset that does not load raises `RulesetError` carrying *all* the problems found, each a
`Problem` with a place (`file:line:col: path: message`), collected the way jsonschema reports
errors as values. A formula that fails while a game applies it raises `RuleError`, naming the
formula's place. An action is refused either because it is malformed (`InvalidActionError`:
not an action at all) or because it is not legal now (`IllegalActionError`); in both cases the
game is unchanged.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass


class TarockError(Exception):
    """Base of every error this package raises on purpose."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a ruleset or record, and where it is."""

    file: str
    line: int | None
    column: int | None
    path: str
    message: str

    def __str__(self) -> str:
        place = self.file
        if self.line is not None:
            place += f":{self.line}:{self.column or 1}"
        return f"{place}: {self.path}: {self.message}" if self.path else f"{place}: {self.message}"


class RulesetError(TarockError):
    """A ruleset (or a record, or any YAML input) has one or more problems."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (p.file, p.line or 0, p.column or 0, p.path))
        super().__init__("\n".join(str(p) for p in self.problems))


class UsageError(RulesetError):
    """A name given on the command line or in a request does not exist (a ruleset, an option)."""


class RecordError(RulesetError):
    """A game record is malformed or does not fit its ruleset."""


class InvalidActionError(TarockError):
    """The action is not an action at all (wrong shape, unknown card id)."""


@dataclass(frozen=True)
class Place:
    """Where a rule is written: `file:line:col: path` (line and column when the rule came from a file)."""

    file: str
    line: int | None
    column: int | None
    path: str

    def __str__(self) -> str:
        place = self.file
        if self.line is not None:
            place += f":{self.line}:{self.column or 1}"
        return f"{place}: {self.path}" if self.path else place


class RuleError(TarockError):
    """A rule's formula failed while the game applied it: a division by a variable that is zero,
    a result too large, too much work. Says which formula, where it is written and why; the
    ruleset, not the action, is at fault."""

    def __init__(self, reason: str, expression: str, place: Place | None = None, column: int | None = None):
        self.reason = reason
        self.expression = expression  # the formula's text
        self.place = place  # where the formula is written (None: compiled outside a ruleset)
        self.column = column  # where in the formula's text the failing part starts, if known
        shown = expression if len(expression) <= 60 else expression[:59] + "…"
        text = f'{reason} in "{shown}"'
        super().__init__(f"{place}: {text}" if place is not None else text)


class IllegalActionError(TarockError):
    """The action is well formed but not allowed now; the reason is meant for the player."""

    def __init__(self, reason: str, seat: int | None = None):
        self.reason = reason
        self.seat = seat
        super().__init__(reason)


def either(choices: Iterable[object]) -> str:
    """Choices as a sentence names them: `3, 4 or 5`, `6 or 7`, `3`."""
    words = [str(c) for c in choices]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def did_you_mean(word: str, known: Iterable[str], *, otherwise: str = "") -> str:
    """The hint every message about a misspelt name ends with: `; did you mean 'X'?` naming the
    nearest known name, or `otherwise` (e.g. `; known: a, b`) when none is near."""
    close = difflib.get_close_matches(word, list(known), n=1)
    return f"; did you mean '{close[0]}'?" if close else otherwise


def unique_problems(problems: Iterable[Problem]) -> list[Problem]:
    """Problems without repeats, in their order: one place reported twice says nothing new
    (a problem without a line is told apart by its path)."""
    seen: set[tuple[object, ...]] = set()
    result = []
    for p in problems:
        key = (p.file, p.line, p.column, p.message) if p.line is not None else (p.file, p.path, p.message)
        if key not in seen:
            seen.add(key)
            result.append(p)
    return result
