"""A pot never falls below zero (issue 27, item 12): a pot formula that asks for more than the
pot holds takes the whole pot and no more, so the next deal starts with a pot of zero (it failed:
"the pot is a whole number from 0, not -18")."""

from __future__ import annotations

from pathlib import Path

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import play_out

# Württemberg Tarock with the table's pot, where every game won takes 20 out of it.
GREEDY = """\
title: Württemberg Tarock, a greedy pot (a test)
extends: tapp-wuerttemberg
options:
  pot:
    default: kept
    choices:
      kept:
        rules:
          pot_ante: "2"
          contracts:
            frage: {pot: "if declarer_won then 0 - 20 else amount"}
            solo: {pot: "if declarer_won then 0 - 20 else pot"}
"""


def test_a_pot_formula_takes_at_most_what_the_pot_holds(tmp_path: Path) -> None:
    file = tmp_path / "greedy-pot.yaml"
    file.write_text(GREEDY, encoding="utf-8")
    rs = load_ruleset(str(file))
    # Seed 7 with an empty pot: the dealer antes 2 and the declarer wins a Solo, which asks for
    # 20; the pot holds 2, so the declarer takes 2 and the pot is empty again.
    game = play_out(Game(rs, players=3, seed=7, pot=0), seed=7)
    assert game.result is not None and game.result.declarer_won and game.contract is not None
    assert game.contract.name == "solo" and game.ante == 2
    assert game.result.pot == 0  # the ante in, the whole pot out
    assert sum(game.result.payments) + game.result.pot == 0
    Game(rs, players=3, seed=8, pot=0 + game.result.pot)  # the next deal starts
    # Any run of deals keeps the pot at zero or more.
    pot = 0
    for seed in range(60):
        game = play_out(Game(rs, players=3, seed=seed, pot=pot), seed=seed)
        assert game.result is not None
        before = pot + game.ante
        pot += game.result.pot
        assert pot >= 0, seed
        if game.result.declarer_won and game.contract is not None and game.contract.pot is not None:
            assert game.result.pot == -min(20, before) + game.ante, seed
