"""A condition on a trick exception (`play.exceptions[].when`, issue 30 item 9d): the Emperor
trick only where a trump leads the trick.

tests/rulesets/koenigrufen-emperor-trick-on-trump-lead.yaml is Königrufen whose Emperor trick
holds only on a trump lead. Its record (tests/records/koenigrufen-emperor-trick-on-trump-lead.yaml)
trumps Sküs, Pagat and Mond in on a club lead: the Sküs wins. Here the same deal with the
unconditioned Emperor trick gives the trick to the Pagat (the condition is obeyed, not ignored),
the trump-led Emperor trick of koenigrufen's own record still goes to the Pagat under the
condition, and a name the condition cannot read is refused at its place.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import yaml

from interpreter import Game, load_ruleset
from interpreter.engine.phase import Phase
from interpreter.language.loader import check_ruleset

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "rulesets" / "koenigrufen-emperor-trick-on-trump-lead.yaml"
RECORD = HERE / "records" / "koenigrufen-emperor-trick-on-trump-lead.yaml"
TRUMP_LED = HERE / "records" / "koenigrufen-variation-solodreier-emperor-trick.yaml"


def _first_trick(record: Path, ruleset_ref: str, options: dict[str, str] | None = None) -> dict[str, Any]:
    """The first trick of `record`'s deal, played with `ruleset_ref`."""
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    game = Game(load_ruleset(ruleset_ref, options), players=4, dealer=0, deal=data["deal"])
    for seat, action in data["actions"]:
        game.apply(seat, action)
        tricks = [e for e in game.events if e["type"] == "trick"]
        if tricks:
            assert game.phase is Phase.PLAY
            return tricks[0]
    raise AssertionError("no trick was played")


def test_on_a_club_lead_the_skues_wins_and_without_the_condition_the_pagat() -> None:
    conditioned = _first_trick(RECORD, str(FIXTURE))
    assert conditioned["cards"] == ["C7", "T22", "T1", "T21"] and conditioned["winner"] == 2
    always = _first_trick(RECORD, "koenigrufen", {"emperor_trick": "on"})
    assert always["winner"] == 3  # the Pagat's holder
    never = _first_trick(RECORD, "koenigrufen")
    assert never["winner"] == 2


def test_on_a_trump_lead_the_emperor_trick_still_holds() -> None:
    trick = _first_trick(TRUMP_LED, str(FIXTURE))
    assert trick["cards"] == ["T22", "T21", "T1", "T10"] and trick["winner"] == 3  # the Pagat


def test_a_name_the_condition_cannot_read_is_refused_at_its_place(tmp_path: Path) -> None:
    file = tmp_path / "variant.yaml"
    file.write_text(
        textwrap.dedent(
            """
            extends: koenigrufen
            options: {emperor_trick: null}
            play:
              exceptions:
                - {cards: "{T22, T21, T1}", wins: T1, when: "declarer_tricks > 0"}
            """
        ).lstrip("\n"),
        encoding="utf-8",
    )
    problems = [str(p) for p in check_ruleset(str(file))]
    assert any(
        ":5:" in p and "play.exceptions[0].when: unknown name 'declarer_tricks'; did you mean" in p for p in problems
    ), problems
