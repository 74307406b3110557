"""What a spectator and a download may tell, read from the receiving side.

A spectator sees what the whole table sees: nothing one seat knows before the others (the called
King's holder, the lone player's discards). A record downloaded from a table names only cards the
requester may know by the deal's end; a seat's full record (every hand as dealt) comes only once
the session is over.
"""

from __future__ import annotations

from typing import Any

import pytest

from interpreter import Game, load_ruleset, ruleset_names
from interpreter.bots.rulebot import RuleBot
from interpreter.frontends.server import public_view

RULESETS = ruleset_names()


def _table_facts(view: dict[str, Any]) -> dict[str, Any]:
    """A view's facts about the table: all but whose view it is and the hand it holds."""
    return {k: v for k, v in view.items() if k not in ("seat", "hand")}


@pytest.mark.parametrize("name", RULESETS)
def test_a_spectator_is_told_only_what_every_seat_is_told(name: str) -> None:
    """At every step of bot-played deals: every fact of the spectator's view is in every seat's
    view, the same (an open hand: in every view but its holder's, who holds it)."""
    rs = load_ruleset(name)
    bot = RuleBot()
    for seed in range(3):
        players = rs.table_sizes[seed % len(rs.table_sizes)]
        game = Game(rs, players=players, seed=seed)
        while True:
            spectator = public_view(game, None)
            assert spectator["seat"] is None and spectator["hand"] == []
            for seat in range(players):
                seen = _table_facts(public_view(game, seat))
                for fact, value in _table_facts(spectator).items():
                    if fact == "open_hand" and value["seat"] == seat:
                        continue
                    assert seen.get(fact) == value, (
                        f"{name} seed {seed} step {len(game.history)}: the spectator is told {fact}={value!r}, "
                        f"seat {seat} {seen.get(fact)!r}"
                    )
            if game.is_over:
                break
            assert game.to_act is not None
            game.apply(game.to_act, bot.choose(game, game.to_act))


@pytest.mark.parametrize("players", [4, 5])
def test_a_spectator_at_a_koenigrufen_table_never_learns_the_partner_early(players: int) -> None:
    """The table's spectator state, deal after deal of bots calling Kings: the partner and an
    unnamed called King only once every seat knows them."""
    from interpreter.frontends.web.table import Table

    table = Table(load_ruleset("koenigrufen"), players, [], 6, seed=players)
    partners = 0
    while True:
        game = table.game
        view = table.state_for(None)["view"]
        for fact in ("partner", "called"):
            if fact in view:
                blind = [s for s in range(players) if fact not in game.view(s)]
                assert not blind, f"deal {len(table.finished) + 1}, step {len(game.history)}: before seats {blind}"
        partners += "partner" in view and not game.is_over
        if game.is_over:
            if table.session_over:
                break
            table.next_deal()
            continue
        table.bot_step()
    assert partners > 0  # the partner became public during play in some deal: the check had work to do
