"""Playing a seat in the terminal: the hand sorted and named, legal choices numbered, the tricks as
they fall and the settlement.

The person sees what the seat may see (`game.view(seat)`) and the public events; the other seats
are played by a bot. A choice is made by its number, or by naming it: a call (`pass`), a card id
(`T22`) or a card's alias (`Gstiess`). Where a choice is too large to list (the cards to put aside
or to keep), the cards are numbered and chosen by their numbers or names, several at once.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from interpreter.errors import IllegalActionError, InvalidActionError, TarockError
from interpreter.frontends.log import describe_event
from interpreter.frontends.server import public_event, public_view
from interpreter.frontends.words import (
    action_label,
    card_choice,
    choice_task,
    explain_result,
    partner_call,
    seat_hints,
    shown_parts,
    sides_line,
    tally,
)
from interpreter.language.model import TRUMP, Deck

if TYPE_CHECKING:
    from interpreter.bots.randombot import RandomBot
    from interpreter.bots.rulebot import RuleBot
    from interpreter.bots.searchbot import SearchBot
    from interpreter.engine.game import Game


def named_hand(cards: list[str], deck: Deck) -> str:
    """A hand grouped by suit, high to low, named trumps by name:
    `T: Gstieß 19 6 Geiß | ♣: K 9 | ♥: A 4`."""
    suits = list(deck.suit_names)
    groups: dict[str, list[str]] = {}
    for card in sorted(cards, key=lambda c: (suits.index(deck.suit[c]), -deck.rank[c])):
        title = deck.name_of(card)
        shown = title if deck.suit[card] == TRUMP and not title.isdigit() else card[1:]
        groups.setdefault(deck.suit[card], []).append(shown)
    return " | ".join(f"{'T' if s == TRUMP else deck.suit_symbols[s]}: {' '.join(r)}" for s, r in groups.items()) or "—"


def label(card: str, deck: Deck) -> str:
    """`T22 (Gstieß)`, `CK (König ♣)`, `T7`."""
    title = deck.name_of(card)
    return card if title == card[1:] else f"{card} ({title})"


HELP = """  Type the number of a choice, or name it: a card by its id or name (T22, Gstiess, hk), a call by
  its word (pass, solo). For several cards at once list them: 1 4 7, or CK C9.
  Other words: help (this), hand (your cards again), last (the last trick, and the tricks taken so
  far), rules (the game in short), score (the session so far), quit (stop; the record of the deal so
  far is saved)."""


class QuitGame(Exception):
    """The person typed `quit`."""


class HumanPlayer:
    """People at the terminal playing some seats of `game`; a bot plays the others."""

    def __init__(
        self,
        game: Game,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        score: Callable[[], str] | None = None,
    ):
        # The streams are looked up now, not when the module is imported: a caller may have
        # replaced them (tests do).
        self.game = game
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self.score = score
        self._seat: int | None = None  # the seat being asked, for `hand`
        self._hinted: dict[int, list[str]] = {}  # what each person's seat was last told of its side

    def say(self, text: str) -> None:
        print(text, file=self.stdout, flush=True)

    def run(self, seats: set[int], bot: RandomBot | RuleBot | SearchBot) -> None:
        game = self.game
        self.say(
            f"{game.ruleset.title}: {game.players} at the table, dealer seat {game.dealer}; you play seat(s) {sorted(seats)}"
        )
        shown = 0
        while not game.is_over:
            shown = self._tell(shown, seats)
            seat = game.to_act
            assert seat is not None  # somebody is to act until the deal is over
            if seat in seats:
                action = self.ask(seat)
            else:
                interrupt = self._interrupt(seats, seat)
                if interrupt is not None:
                    seat, action = interrupt
                else:
                    action = bot.choose(game, seat)
            try:
                game.apply(seat, action)
            except (IllegalActionError, InvalidActionError) as exc:
                self.say(f"  refused: {exc}")
        self._tell(shown, seats)

    def _tell(self, shown: int, seats: set[int]) -> int:
        """Say what happened since event `shown`: calls, cards as they fall, tricks, settlement,
        and what a person's own cards tell it anew (whose side it is on)."""
        game = self.game
        deck = game.ruleset.deck
        for event in game.events[shown:]:
            if event["type"] == "play":
                # Each card as it falls (the whole trick follows when it is complete).
                who = "you" if event["seat"] in seats and len(seats) == 1 else f"seat {event['seat']}"
                self.say(f"    {who}: {label(event['card'], deck)}")
                continue
            if event["type"] == "settlement":
                for line in explain_result(event, game.ruleset, game.players, game.seats_out):
                    self.say(line)
                continue
            text = describe_event(public_event(event, game), game)
            if text:
                self.say(text)
        for seat in sorted(seats):
            hints = seat_hints(
                game.view(seat), game.ruleset, _seat_word(seat), self._partner_call(), public_view(game, None)
            )
            if hints != self._hinted.get(seat, []):
                self._hinted[seat] = hints
                for hint in hints:
                    self.say(f"  ({hint})" if len(seats) == 1 else f"  (seat {seat}: {hint})")
        return len(game.events)

    def _partner_call(self) -> dict[str, Any] | None:
        return partner_call([public_event(e, self.game) for e in self.game.events if e["type"] == "call_partner"])

    def _interrupt(self, seats: set[int], to_act: int) -> tuple[int, Any] | None:
        """A person's seat that may speak out of turn now (a Piccolo breaking into the auction):
        offer it, with waiting as the answer that lets the bidding go on; its choice, or None."""
        for seat in sorted(seats):
            legal = self.game.legal_actions(seat) if seat != to_act else []
            if not legal:
                continue
            self._seat = seat
            self.say(f"\nSeat {seat}, it is seat {to_act}'s turn; you may interrupt now, or wait.")
            self.say(f"  your hand: {named_hand(self.game.view(seat)['hand'], self.game.ruleset.deck)}")
            self.say("  0. wait (press Enter): let the bidding go on")
            for number, action in enumerate(legal, 1):
                self.say(f"  {number}. {self._label(action, legal)}")
            while True:
                line = self._read()
                if line in ("", "0") or line.lower() in ("wait", "w"):
                    break
                if line.isdigit() and 1 <= int(line) <= len(legal):
                    return seat, legal[int(line) - 1]
                chosen = next((a for a in legal if _same_word(line, a, self.game)), None)
                if chosen is not None:
                    return seat, chosen
                self.say(f"  '{line}' is not among them; type a number from 0 to {len(legal)}, or press Enter to wait")
        return None

    def ask(self, seat: int) -> Any:
        """The action the person at `seat` chooses: a legal action, or a list of cards for a choice
        of several cards."""
        game = self.game
        deck = game.ruleset.deck
        view = game.view(seat)
        self._seat = seat
        call = self._partner_call()
        sides = sides_line(view, game.ruleset, _seat_word(seat), call) if view["declarer"] is not None else ""
        role = f" ({sides.split(' · ', 1)[1]})" if " · " in sides else ""
        self.say(f"\nSeat {seat}, your hand{role}: {named_hand(view['hand'], deck)}")
        trick = view["tricks"][-1] if view["tricks"] else None
        if trick and trick["cards"] and trick["winner"] is None:
            self.say(
                "  on the table: "
                + ", ".join(f"seat {s} {label(c, deck)}" for s, c in zip(trick["seats"], trick["cards"], strict=False))
            )
        legal = game.legal_actions(seat)
        cards = card_choice(legal, view["hand"])
        if cards is not None:  # several cards at once: the person names them
            kind, template, sets = cards
            return {kind: self._ask_cards(kind, template, view["hand"], sets)}
        parts = shown_parts(view, [public_event(e, game) for e in game.events if e["type"] == "talon_shown"])
        order = {card: i for i, card in enumerate(view["hand"])}
        if all(isinstance(a, dict) and "play" in a for a in legal):
            legal = sorted(legal, key=lambda a: order.get(a["play"], len(order)) if isinstance(a, dict) else 0)
        for number, action in enumerate(legal, 1):
            self.say(f"  {number}. {self._label(action, legal, view, parts)}")
        while True:
            line = self._read()
            if line.isdigit() and 1 <= int(line) <= len(legal):
                return legal[int(line) - 1]
            card = self._card(line)
            for action in legal:
                if _same_word(line, action, game, view) or (
                    isinstance(action, dict) and card is not None and card in action.values()
                ):
                    return action
            if card is not None and card in view["hand"] and game.phase.value == "play":
                # A card the person holds but may not play: the engine says why not.
                return {"play": card}
            what = f"{label(card, deck)} is not among them" if card is not None else f"'{line}' is not among them"
            self.say(f"  {what}; type a number from 1 to {len(legal)}, or help")

    def _ask_cards(
        self, kind: str, template: dict[str, Any], hand: list[str], sets: set[frozenset[str]] | None = None
    ) -> list[str]:
        """The cards the person names for a discard or keep `template` ({count, from, forbidden,
        including}), checked for their number and that each may be chosen, with the reason when
        not. `sets`: where the rules list every choice, the sets of cards that may be chosen (a set
        named otherwise goes to the engine, which says why it may not be)."""
        deck = self.game.ruleset.deck
        allowed: list[str] = list(template["from"])
        count: int = template["count"]
        task, forbidden = choice_task(kind, template, hand, deck)
        verb = "keep" if kind == "keep" else "put aside"
        not_these = f" you may not {verb}: {', '.join(label(c, deck) for c in forbidden)};" if forbidden else ""
        including = [str(c) for c in template.get("including", ())]
        if including:  # every choice holds these (a class of cards to put aside first, whole)
            not_these += f" these must be among them: {', '.join(label(c, deck) for c in including)};"
        example = " ".join(allowed[:count]) if count > 1 else allowed[0]
        self.say(
            f"  {task};{not_these} type their numbers or names, e.g. {' '.join(map(str, range(1, count + 1)))} or {example}:"
        )
        for number, card in enumerate(allowed, 1):
            self.say(f"  {number}. {label(card, deck)}")
        while True:
            chosen, problem = self._cards_named(self._read(), allowed, hand, forbidden, verb)
            if problem is None and len(chosen) != count:
                problem = f"that is {len(chosen)} {'card' if len(chosen) == 1 else 'cards'}; {count} are needed"
            if problem is None and (left_out := [c for c in including if c not in chosen]):
                problem = f"{', '.join(label(c, deck) for c in left_out)} must be among them"
            if problem is None:
                return chosen
            self.say(f"  {problem}")

    def _cards_named(
        self, line: str, allowed: list[str], hand: list[str], forbidden: list[str], verb: str
    ) -> tuple[list[str], str | None]:
        """The cards a line names by number or id, and what is wrong with it (None: nothing)."""
        deck = self.game.ruleset.deck
        chosen: list[str] = []
        for word in line.replace(",", " ").split():
            if word.isdigit():
                if not 1 <= int(word) <= len(allowed):
                    return chosen, f"there is no number {word}: the numbers go from 1 to {len(allowed)}"
                card: str | None = allowed[int(word) - 1]
            else:
                card = self._card(word)
            if card is None:
                return chosen, f"'{word}' is neither a number nor a card"
            if card not in hand:
                return chosen, f"you do not hold {label(card, deck)}"
            if card in forbidden or card not in allowed:
                return chosen, f"you may not {verb} {label(card, deck)}"
            if card in chosen:
                return chosen, f"{label(card, deck)} is named twice"
            chosen.append(card)
        return chosen, None

    def _card(self, word: str) -> str | None:
        deck = self.game.ruleset.deck
        if word in deck.points:
            return word
        if word.upper() in deck.points:
            return word.upper()
        return deck.aliases.get(word.lower())

    def _label(
        self,
        action: Any,
        legal: list[Any] | None = None,
        view: dict[str, Any] | None = None,
        parts: list[list[str]] | None = None,
    ) -> str:
        rs = self.game.ruleset
        words = action_label(action, rs, legal=legal, view=view, talon_parts=parts)
        if isinstance(action, str) and words.lower() != action:
            return f"{words} ({action})"  # the word to type, where the title is not it
        return words

    def _read(self) -> str:
        """The next line the person types that is not a word about the game (help, rules …)."""
        while True:
            self.stdout.write("> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                raise TarockError("input ended before the deal was over")
            word = line.strip()
            if word.lower() in ("help", "?"):
                self.say(HELP)
            elif word.lower() == "hand" and self._seat is not None:
                self.say(f"  your hand: {named_hand(self.game.view(self._seat)['hand'], self.game.ruleset.deck)}")
            elif word.lower() in ("last", "tricks") and self._seat is not None:
                self.say(self._tricks_so_far(self._seat))
            elif word.lower() == "rules":
                self.say(rules_summary(self.game))
            elif word.lower() == "score":
                self.say(self.score() if self.score is not None else "  no deal of this session is finished yet")
            elif word.lower() in ("quit", "exit"):
                raise QuitGame
            else:
                return word

    def _tricks_so_far(self, seat: int) -> str:
        """The last trick taken and the tricks each side has taken (`last`): what the table shows."""
        view = self.game.view(seat)
        deck = self.game.ruleset.deck
        done = [t for t in view["tricks"] if t["winner"] is not None]
        if not done:
            return "  no trick has been taken yet"
        trick = done[-1]
        cards = ", ".join(f"seat {s} {label(c, deck)}" for s, c in zip(trick["seats"], trick["cards"], strict=False))
        lines = [f"  last trick ({len(done)}): {cards} → seat {trick['winner']}"]
        lines += [f"  {line}" for line in tally(view, self.game.ruleset, _seat_word(seat))]
        return "\n".join(lines)


def _seat_word(you: int) -> Callable[[int], str]:
    """How the terminal names a seat to the person at `you`."""
    return lambda seat: "you" if seat == you else f"seat {seat}"


def _same_word(line: str, action: Any, game: Game, view: dict[str, Any] | None = None) -> bool:
    """Whether `line` names the call `action` (by its id or its title), or the named choice
    `action` ({choose: dapp_first}: `dapp_first`, `dapp first`, `choose dapp first`, or its label's
    words before the colon, `deal dapp first`); in any case, `_` and a space alike."""
    word = " ".join(line.lower().replace("_", " ").split())
    if isinstance(action, str):
        return word in (action.lower().replace("_", " "), game.ruleset.call_title(action).lower())
    if isinstance(action, dict) and len(action) == 1:
        [(kind, value)] = action.items()
        if isinstance(value, str):
            name = value.lower().replace("_", " ")
            said = action_label(action, game.ruleset, view=view).split(":")[0].lower()
            return word in (name, f"{kind} {name}", said)
    return False


def rules_summary(game: Game) -> str:
    """The variant in short: `tarock doc NAME --summary` without its Markdown trimmings."""
    from interpreter.ethnography.docgen import render

    try:
        text = render(game.ruleset_ref, summary=True)
    except TarockError as exc:
        return f"  the rules cannot be summarised: {exc}"
    lines = [line for line in text.splitlines() if not line.startswith("<!--")]
    return "\n".join(lines).replace("**", "").strip()
