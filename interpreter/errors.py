"""Errors, split by cause as python-chess does.

A ruleset that does not load raises `RulesetError` carrying *all* the problems found, each a
`Problem` with a place (`file:line:col: path: message`), collected the way jsonschema reports
errors as values. An action is refused either because it is malformed (`InvalidActionError`:
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


class IllegalActionError(TarockError):
    """The action is well formed but not allowed now; the reason is meant for the player."""

    def __init__(self, reason: str, seat: int | None = None):
        self.reason = reason
        self.seat = seat
        super().__init__(reason)


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
