"""A compulsory bid is the call the player must make (issue 28, item 10): the pass and every other
bid are refused, with the reason; the special games any seat may say out of turn stay open (Cego's
Vorhand opens with Cego, Piccolo or Bettel)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.errors import IllegalActionError

# Königrufen where the last to speak must play Piccolo when nobody bid (bids may jump: `raise: any`).
LAST_PLAYS_PICCOLO = """\
title: Königrufen, the dealer's Piccolo (a test)
extends: koenigrufen
auction:
  phases:
    bidding:
      compulsory:
        last:
          when: "position == speakers - 1 and not bid_made"
          call: piccolo
          reason: nobody bid, so the last to speak plays Piccolo
"""


def test_only_the_compulsory_call_may_be_made(tmp_path: Path) -> None:
    file = tmp_path / "last-piccolo.yaml"
    file.write_text(LAST_PLAYS_PICCOLO, encoding="utf-8")
    game = Game(load_ruleset(str(file)), players=4, seed=5)
    for seat in (1, 2, 3):
        game.apply(seat, "pass")
    assert game.to_act == 0
    assert game.legal_actions(0) == ["piccolo"]  # not Solo, Bettel … (it accepted any bid before)
    with pytest.raises(
        IllegalActionError, match="you must say piccolo: nobody bid, so the last to speak plays Piccolo"
    ):
        game.apply(0, "solo")
    with pytest.raises(IllegalActionError, match="you may not pass: nobody bid"):
        game.apply(0, "pass")
    game.apply(0, "piccolo")
    assert game.contract is not None and game.contract.name == "piccolo" and game.declarer == 0


def test_the_special_games_said_out_of_turn_stay_open() -> None:
    game = Game(load_ruleset("cego"), players=4, seed=0)
    while game.auction.state.phase.name == "first_round":
        seat = game.to_act
        assert seat is not None
        game.apply(seat, "pass")
    assert game.legal_actions(1) == ["cego", "piccolo", "bettel"]
