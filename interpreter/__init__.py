"""tarock: a declarative rule-spec interpreter for the Black Forest and Swabian Tarock family.

The public API: load a ruleset by name or path, start a game, drive it action by action:
`Game(load_ruleset(name), players=6, seed=7)`, then `legal_actions()`, `apply(seat, action)`,
`view(seat)`, `events`, `result` and `record()`. See the README for a runnable example.
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
