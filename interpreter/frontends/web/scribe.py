"""The web table's scribe: `tarock observe` in the browser, for writing down a game watched at a
table. The same `Scribe` checks each entry; here its questions (a departure: a slip of entry, or
the table's rule? and the note) are answered in a later request instead of on stdin.

A scribe is a small state machine per browser: an entry that raises a question is kept pending,
and replayed with the answers given so far until it asks nothing more. Replaying is exact: the
observed game is rebuilt from the same facts each time, with the same seeded tries.
"""

from __future__ import annotations

import secrets
from typing import Any

from interpreter.engine.records import dump_record
from interpreter.frontends.observe import Scribe
from interpreter.language.model import Ruleset

MAX_LINE = 2000  # characters in one entry


class _Question(Exception):
    """The scribe asks something the browser has not answered yet."""

    def __init__(self, question: str):
        super().__init__(question)
        self.question = question


class WebScribe:
    """One observed game being written down in a browser; `id` is its secret key."""

    def __init__(
        self, ref: str, ruleset: Ruleset, players: int, dealer: int, options: dict[str, str], observed: dict[str, Any]
    ):
        self.id = secrets.token_urlsafe(16)
        self._said: list[str] = []
        self._answers: list[str] = []  # the answers given to the pending entry's questions so far
        self._pending: str | None = None
        self.question: str | None = None
        self._asked = 0
        self.scribe = Scribe(ref, ruleset, players, dealer, options, self._ask, self._said.append, observed)

    def _ask(self, question: str) -> str:
        asked = self._asked
        self._asked += 1
        if asked < len(self._answers):
            return self._answers[asked]
        raise _Question(question)

    def enter(self, line: str) -> dict[str, Any]:
        """An entry or a command (as typed in `tarock observe`); refused while a question waits."""
        if self.question is not None:
            self._said[:] = [f"not taken: answer first: {self.question}"]
            return self.state()
        line = line.strip()[:MAX_LINE]
        self._said.clear()
        if line:
            self._pending, self._answers = line, []
            self._run()
        return self.state()

    def answer(self, text: str) -> dict[str, Any]:
        """The answer to the waiting question."""
        self._said.clear()
        if self.question is None or self._pending is None:
            self._said[:] = ["no question is waiting"]
            return self.state()
        self._answers.append(text.strip()[:MAX_LINE])
        self._run()
        return self.state()

    def _run(self) -> None:
        line = self._pending
        assert line is not None
        self._asked = 0  # questions asked in this run: the first ones are answered already
        try:
            if self.scribe.command(line) is None:
                self.scribe.enter(*self.scribe.parse(line))
        except _Question as asking:
            # Said on the way to the question (the departure's reason): shown with it, each time.
            self.question = asking.question
            return
        except ValueError as exc:
            self._said.append(f"not taken: {exc}")
        self._pending, self.question = None, None

    def state(self) -> dict[str, Any]:
        game = self.scribe.found.game
        result = game.result if game is not None and game.is_over else None
        return {
            "scribe": self.id,
            "said": list(self._said),
            "question": self.question,
            "prompt": self.scribe.prompt().rstrip(" >"),
            "entries": len(self.scribe.actions),
            "departures": list(self.scribe.departures),
            "over": result is not None,
            "payments": list(result.payments) if result is not None else None,
            "record": dump_record(self.scribe.record()),
        }
