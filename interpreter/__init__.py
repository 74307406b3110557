"""tarock: a declarative rule-spec interpreter for the Black Forest and Swabian Tarock family.

The public API: load a ruleset by name or path, start a game, drive it action by action:
`Game(load_ruleset(name), players=6, seed=7)`, then `legal_actions()`, `apply(seat, action)`,
`view(seat)`, `events`, `result` and `record()`. See the README for a runnable example.

The package is layered; each layer imports only those before it:
`language` (rulesets) <- `engine` (deals) <- `bots` <- `frontends` (command line, protocol);
`ethnography` (diff, matrix, rules pages) reads `language`.
"""

import importlib as _importlib
import sys as _sys

__version__ = "0.1.0"  # the distribution's version too (pyproject.toml reads it from here)

from interpreter.bots import RandomBot, RuleBot
from interpreter.engine.game import Game, Phase
from interpreter.engine.records import dump_record, replay
from interpreter.engine.session import Session
from interpreter.errors import (
    IllegalActionError,
    InvalidActionError,
    Problem,
    RecordError,
    RuleError,
    RulesetError,
    TarockError,
)
from interpreter.language.loader import load_ruleset, ruleset_names

__all__ = [
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "Phase",
    "Problem",
    "RandomBot",
    "RecordError",
    "RuleBot",
    "RuleError",
    "RulesetError",
    "Session",
    "TarockError",
    "dump_record",
    "load_ruleset",
    "replay",
    "ruleset_names",
]

# Where modules lived before the package was layered (0.1): still importable under those names,
# so that scripts and notebooks written against them keep working.
_MOVED = {
    "source": "language.source",
    "loader": "language.loader",
    "validation": "language.validation",
    "compiler": "language.compiler",
    "model": "language.model",
    "dsl": "language.dsl",
    "phase": "engine.phase",
    "actions": "engine.actions",
    "auction": "engine.auction",
    "exchange": "engine.exchange",
    "play": "engine.play",
    "tricks": "engine.tricks",
    "settlement": "engine.settlement",
    "game": "engine.game",
    "records": "engine.records",
    "session": "engine.session",
    "rulebot": "bots.rulebot",
}
for _old, _new in _MOVED.items():
    globals()[_old] = _sys.modules[f"{__name__}.{_old}"] = _importlib.import_module(f"{__name__}.{_new}")
