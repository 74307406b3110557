"""Where the built-in rulesets and schemas are, in a source checkout and when installed."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # interpreter/
_REPO = _PACKAGE.parent


def _data_dir(name: str) -> Path:
    # A source checkout (or an editable install) has them at the top of the repository, beside
    # the package; an installed wheel carries them inside it, as interpreter/data/<name>
    # (see [tool.setuptools.package-dir] in pyproject.toml).
    local = _REPO / name
    if (local / ".." / "interpreter" / "__init__.py").is_file() and local.is_dir():
        return local
    return _PACKAGE / "data" / name


def rulesets_dir() -> Path:
    return _data_dir("rulesets")


def schema_file(name: str) -> Path:
    return _data_dir("schema") / name
