"""A bid that names no contract and whose bidder must choose one (`then.choose`), won in a
contested auction (issue 27, item 11): the engine offers the choice there too (it failed with an
AssertionError). A call that names a contract still lets its bidder choose only when nobody bid
against it (Vorhand's Cego: the Cego records hold it)."""

from __future__ import annotations

from pathlib import Path

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import play_out
from interpreter.language.loader import check_ruleset

# Königrufen with "Mein Spiel" open to anyone, above Piccolo: it can win over a bid.
VARIANT = """\
title: Königrufen, Mein Spiel above Piccolo (a test)
extends: koenigrufen
auction:
  phases:
    bidding:
      ladder:
        - {call: piccolo}
        - {call: mein_spiel, contract: null}
        - {call: solo}
"""


def test_a_level_without_a_contract_won_over_a_bid_lets_its_bidder_choose(tmp_path: Path) -> None:
    file = tmp_path / "mein-spiel-above.yaml"
    file.write_text(VARIANT, encoding="utf-8")
    assert check_ruleset(str(file)) == []
    game = Game(load_ruleset(str(file)), players=4, seed=3)
    game.apply(1, "piccolo")
    game.apply(2, "mein_spiel")  # over Piccolo: contested
    game.apply(3, "pass")
    game.apply(0, "pass")
    game.apply(1, "pass")
    assert game.to_act == 2
    offered = game.legal_actions(2)
    assert "rufer" in offered and "solo" in offered
    game.apply(2, "rufer")
    assert game.contract is not None and game.contract.name == "rufer" and game.declarer == 2
    # Random auctions over the variant all end in a game or a throw-in.
    for seed in range(40):
        finished = play_out(Game(load_ruleset(str(file)), players=4, seed=seed), seed=seed)
        assert finished.result is not None
