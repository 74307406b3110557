"""What a round of announcements writes down is what was said, though it is made once and shared.

The round's events (an announcement, a kontra, the done call ending a turn or a chain of answers)
are made once per ruleset, contract and seat and shared by every deal, as a card's are
(engine/announcing.py, `RoundTables`). Here, at every action of the rounds of random deals of
each ruleset with a round of announcements, the event the action wrote is the one worked
out afresh from what was said and the ruleset's words (the kontra's level from the kontras said
before it, its title from the ruleset's titles), the history has what was said, and the event
cannot be changed by a caller, which would change every other deal's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import RandomBot
from interpreter.engine.announcing import AnnouncementRound
from interpreter.engine.game import Phase
from interpreter.language.model import Ruleset

RULESETS = Path(__file__).parent / "rulesets"

# (ruleset, players, options): the rulesets with a round of announcements, a doubling answered at
# once and one with no fixed limit.
TABLES: list[tuple[str, int, dict[str, str]]] = [
    ("koenigrufen", 4, {}),
    ("koenigrufen", 5, {}),
    ("dreierles", 3, {}),
    ("dreierles", 3, {"knocks": "four", "knock_answer": "at_once"}),
    (str(RULESETS / "dreierles-knocking-unlimited.yaml"), 3, {}),
    (str(RULESETS / "koenigrufen-bonuses-doubled-with-the-game.yaml"), 4, {}),
]

# The kontras' titles by level, as the sources word them (rulesets/koenigrufen.yaml and
# dreierles.yaml `kontra` and the option `knocks`), written out here rather than read from the
# ruleset; past the titles given, the factor is said.
KOENIGRUFEN_TITLES = {1: "Kontra", 2: "Rekontra", 3: "Subkontra"}  # pagat-koenig §9
KLOPFEN = {1: "Klopfen", 2: "Zurückklopfen"}  # pagat-dreierles §8
TITLES: dict[str, dict[int, str]] = {
    "koenigrufen-4": KOENIGRUFEN_TITLES,
    "koenigrufen-5": KOENIGRUFEN_TITLES,
    "dreierles-3": KLOPFEN,
    "dreierles-3-four": {**KLOPFEN, 3: "Klopfen", 4: "Zurückklopfen"},
    "dreierles-knocking-unlimited-3": {**KLOPFEN, 3: "kontra ×8"},
    "koenigrufen-bonuses-doubled-with-the-game-4": KOENIGRUFEN_TITLES,
}


def _table_id(table: tuple[str, int, dict[str, str]]) -> str:
    name, players, options = table
    return f"{Path(name).stem}-{players}" + "".join(f"-{v}" for k, v in options.items() if k == "knocks")


def _expected(ruleset: Ruleset, round_: AnnouncementRound, seat: int, action: Any) -> dict[str, Any]:
    """The event of `seat` saying `action` in `round_` as it stands before it is said, from the
    ruleset's words."""
    assert ruleset.announcing is not None
    if type(action) is str:
        phase = "kontra" if round_.answering is not None else "announcing"
        return {"type": "call", "seat": seat, "call": ruleset.announcing.done, "phase": phase}
    if "kontra" in action:
        item = action["kontra"]
        level = round_.levels.get(item, 0) + 1
        rule = ruleset.kontra_game if item == "game" else ruleset.kontra_bonuses
        assert rule is not None
        title = rule.titles[level - 1] if len(rule.titles) >= level else f"kontra ×{2**level}"
        return {"type": "kontra", "seat": seat, "item": item, "level": level, "title": title}
    return {"type": "announce", "seat": seat, "announcement": action["announce"], "cards": []}


@pytest.mark.parametrize(("name", "players", "options"), TABLES, ids=[_table_id(t) for t in TABLES])
def test_each_action_of_the_round_writes_the_event_worked_out_afresh(
    name: str, players: int, options: dict[str, str]
) -> None:
    said: dict[str, int] = {"call": 0, "kontra": 0, "announce": 0}
    titles: dict[int, str] = {}  # the kontras' titles said, by level
    for seed in range(60):
        game = Game(name, players=players, seed=seed, options=options)
        ruleset = game.ruleset
        bot = RandomBot(seed, pass_probability=0.5)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            action = bot.choose(game, seat)
            round_ = game.announcement
            if game.phase is not Phase.ANNOUNCE or not isinstance(round_, AnnouncementRound):
                game.apply(seat, action)
                continue
            expected = _expected(ruleset, round_, seat, action)
            events = game.apply(seat, action)
            assert events[0] == expected, f"seed {seed}"
            said[expected["type"]] += 1
            if expected["type"] == "kontra":
                titles[events[0]["level"]] = events[0]["title"]
            entry = game.history[-1]
            assert entry[0] == seat
            assert entry[1] == (
                action if type(action) is str else {**action, "cards": []} if "announce" in action else action
            )
            with pytest.raises(TypeError):
                events[0]["seat"] = (seat + 1) % players  # shared by every deal: read-only
    assert said["call"] and said["kontra"]
    if "dreierles" not in name:
        assert said["announce"]
    # Every title said is the one the sources give for its level, and some were said.
    expected_titles = TITLES[_table_id((name, players, options))]
    assert titles and all(expected_titles.get(level) == title for level, title in titles.items()), titles


def test_two_deals_share_the_events_of_the_same_words() -> None:
    """The same seat saying the same thing in two deals of the same contract writes the same
    event: made once."""
    ruleset = load_ruleset("koenigrufen")
    firsts: dict[str, Any] = {}
    shared = 0
    for seed in range(30):
        game = Game(ruleset, players=4, seed=seed)
        bot = RandomBot(seed)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            action = bot.choose(game, seat)
            in_round = game.phase is Phase.ANNOUNCE and isinstance(game.announcement, AnnouncementRound)
            events = game.apply(seat, action)
            if in_round:
                key = repr((game.contract.name if game.contract else None, sorted(events[0].items())))
                shared += key in firsts
                assert firsts.setdefault(key, events[0]) is events[0]
    assert shared
