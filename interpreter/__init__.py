"""tarock: a declarative rule-spec interpreter for the Black Forest and Swabian Tarock family.

The public API: load a ruleset, start a game, drive it action by action.

    >>> from interpreter import load_ruleset, Game
    >>> game = Game(load_ruleset("breitnau"), players=6, seed=7)
    >>> game.to_act, game.legal_actions()[:2]
    (1, ['pass', 'solo'])
"""
from interpreter.errors import (
    IllegalActionError,
    InvalidActionError,
    Problem,
    RecordError,
    RulesetError,
    TarockError,
)
from interpreter.loader import load_ruleset, ruleset_names
from interpreter.game import Game, Phase

__all__ = [
    "Game", "Phase", "load_ruleset", "ruleset_names",
    "TarockError", "RulesetError", "Problem", "InvalidActionError", "IllegalActionError", "RecordError",
]
