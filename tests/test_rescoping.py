"""The rules in scope are worked out again only where the rules say they may change.

Trick play keeps, for each seat, the rules in scope for its turn, and the rules judging the trick
now being played; it works them out again at the start of the tricks where a rule says its scope
may change (`PlayRule.rescoped_at`: the withheld Gstieß at the last trick, a schedule where its
tricks begin and end, a rule of the leader or the followers at every trick), when a rule's own
step changes them (a card withheld, the Excuse led) and when a card a rule watches is played.
Here, at every turn of random deals of every family and of fixtures with the rules that have
scopes of their own, what trick play keeps is what working every rule out afresh gives: a rule
that changes its scope where it did not say it would fails this test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from turns import random_turns

from interpreter.engine.game import Phase
from interpreter.engine.play import TrickPlay

RULESETS = Path(__file__).parent / "rulesets"

# (ruleset, players): the families, and fixtures with the scoped rules the families lack.
TABLES = [
    ("breitnau", 6),
    ("furtwangen", 6),  # the withheld Gstieß, laid-out Ulti cards
    ("buchenbach", 6),  # a schedule of the first tricks
    ("cego", 4),  # exposed cards, tricks played together
    ("cego", 3),
    ("tapp-modern", 4),
    ("koenigrufen", 4),  # the called King, kept-back birds, negative games, open hands
    ("koenigrufen", 5),
    ("dreierles", 3),  # duties over the tricks played, forfeits
    (str(RULESETS / "koenigrufen-excuse.yaml"), 4),  # the Excuse
    (str(RULESETS / "koenigrufen-emperor-trick-on-trump-lead.yaml"), 4),  # a rule judging tricks
    (str(RULESETS / "breitnau-keep-back.yaml"), 6),  # a card kept for the last trick
    (str(RULESETS / "cego-raeuber-gstiess-withheld.yaml"), 4),
]


def _fresh(play: TrickPlay, seat: int) -> object:
    """The Turn of the rules in scope for `seat`, every rule asked afresh."""
    scope = 0
    for bit, rule in enumerate(play.turn_rules):
        if rule.applies(play, seat):
            scope |= 1 << bit
    return play.book.turn(scope)


@pytest.mark.parametrize(("name", "players"), TABLES, ids=[Path(t[0]).stem for t in TABLES])
def test_the_scopes_kept_are_the_scopes_worked_out_afresh(name: str, players: int) -> None:
    turns = 0
    for seed, game, seat in random_turns(name, players, range(40)):
        play = game.trickplay
        if game.phase is not Phase.PLAY or play is None or not play.rules:
            continue
        turns += 1
        # (the seat to act: another's scope may go stale within a trick it has played to, as the
        # opening leads' does once the declarer led, and is worked out again before its turn)
        assert play.scoped[seat] is _fresh(play, seat), (seed, len(play.tricks), seat)
        if len(play.trick.cards) == 0 or play.together > 1:
            # (a trick's judges are asked at its start: compared before its first card)
            assert play.judges == tuple(r for r in play.judging if r.judges(play)), (seed, len(play.tricks))
    assert turns or name in ("breitnau", "tapp-modern"), "no turn of play had rules"
