"""Playing a seat in the terminal: the hand sorted and named, legal choices numbered."""
from __future__ import annotations

import sys
from typing import Any, TextIO

from interpreter.errors import IllegalActionError, InvalidActionError, TarockError
from interpreter.log import describe_event, show_cards


class HumanPlayer:
    def __init__(self, game, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout):
        self.game, self.stdin, self.stdout = game, stdin, stdout

    def say(self, text: str) -> None:
        print(text, file=self.stdout, flush=True)

    def run(self, seats: set[int], bot) -> None:
        game = self.game
        self.say(f"{game.ruleset.title}: {game.players} at the table, dealer seat {game.dealer}; you play seat(s) {sorted(seats)}")
        shown = 0
        while not game.is_over:
            for event in game.events[shown:]:
                text = describe_event(event, game)
                if text:
                    self.say(text)
            shown = len(game.events)
            seat = game.to_act
            action = self.ask(seat) if seat in seats else bot.choose(game, seat)
            try:
                game.apply(seat, action)
            except (IllegalActionError, InvalidActionError) as exc:
                self.say(f"  refused: {exc}")
        for event in game.events[shown:]:
            text = describe_event(event, game)
            if text:
                self.say(text)

    def ask(self, seat: int) -> Any:
        game = self.game
        deck = game.ruleset.deck
        self.say(f"\nSeat {seat}, your hand: {show_cards(game.hands[seat], deck)}")
        if game.tricks and game.tricks[-1].cards:
            self.say("  on the table: " + ", ".join(game.tricks[-1].cards))
        legal = game.legal_actions(seat)
        if len(legal) == 1 and isinstance(legal[0].get("discard") if isinstance(legal[0], dict) else None, dict):
            template = legal[0]["discard"]
            self.say(f"  discard {template['count']} cards (not: {' '.join(template['forbidden']) or 'none'}); type their ids")
            while True:
                line = self._read()
                cards = line.replace(",", " ").split()
                if len(cards) == template["count"]:
                    return {"discard": cards}
                self.say(f"  that is {len(cards)} cards; {template['count']} are needed")
        for number, action in enumerate(legal, 1):
            self.say(f"  {number}. {self._label(action)}")
        while True:
            line = self._read()
            if line.isdigit() and 1 <= int(line) <= len(legal):
                return legal[int(line) - 1]
            for action in legal:
                if line in (action, (action.get("play") if isinstance(action, dict) else None)):
                    return action
            self.say(f"  type a number from 1 to {len(legal)}")

    def _label(self, action: Any) -> str:
        rs = self.game.ruleset
        if isinstance(action, str):
            return rs.call_title(action) + (f" ({action})" if rs.call_title(action) != action else "")
        if "play" in action:
            return f"{action['play']} — {rs.deck.name_of(action['play'])}"
        return str(action)

    def _read(self) -> str:
        self.stdout.write("> ")
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise TarockError("input ended before the deal was over")
        return line.strip()
