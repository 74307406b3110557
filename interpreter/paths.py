"""Where the built-in rulesets and schemas are, in a source checkout and when installed."""
from __future__ import annotations

from importlib import resources
from pathlib import Path

_REPO = Path(__file__).resolve().parent.parent


def _data_dir(name: str) -> Path:
    # A source checkout (or an editable install) has them at the top of the repository; an
    # installed wheel carries them as the package `interpreter.data.<name>`.
    local = _REPO / name
    if local.is_dir():
        return local
    return Path(str(resources.files(f"interpreter.data.{name}")))


def rulesets_dir() -> Path:
    return _data_dir("rulesets")


def schema_file(name: str) -> Path:
    return _data_dir("schema") / name
