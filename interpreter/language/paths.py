"""Where rulesets and schemas are: the user's own rulesets (a `rulesets/` folder in the working
directory, then the folders of `TAROCK_PATH`), and the built-in ones, in a source checkout and
when installed."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

ENV_PATH = "TAROCK_PATH"  # folders of rulesets, separated as PATH is (":" or ";")
BUILT_IN = "built in"

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


HERE = "./rulesets"


@dataclass(frozen=True)
class RulesetFolder:
    """A folder rulesets are looked up in, and where it comes from: HERE (the working
    directory's rulesets/), ENV_PATH (a folder of TAROCK_PATH), or BUILT_IN."""

    path: Path
    origin: str

    @property
    def label(self) -> str:
        """The folder as `tarock list` names it."""
        return f"{ENV_PATH}: {self.path}" if self.origin == ENV_PATH else self.origin


def ruleset_folders() -> list[RulesetFolder]:
    """The folders a ruleset's name is looked up in, first match wins: the working directory's
    `rulesets/`, each folder of TAROCK_PATH in order, then the built-in rulesets. A folder named
    twice (a source checkout's own rulesets/) counts once, as built in."""
    built_in = rulesets_dir()
    candidates: list[tuple[Path, str]] = []
    with contextlib.suppress(OSError):  # the working directory was removed: nothing to find there
        candidates.append((Path.cwd() / "rulesets", HERE))
    candidates += [(Path(p), ENV_PATH) for p in os.environ.get(ENV_PATH, "").split(os.pathsep) if p.strip()]
    candidates.append((built_in, BUILT_IN))
    try:
        built_in_key = built_in.resolve()
    except OSError:
        built_in_key = built_in
    folders: list[RulesetFolder] = []
    seen: set[Path] = set()
    for path, origin in candidates:
        try:
            if not path.is_dir():
                continue
            key = path.resolve()
        except OSError:
            continue
        if key in seen:
            continue
        seen.add(key)
        folders.append(RulesetFolder(path, BUILT_IN if key == built_in_key else origin))
    return folders


def working_directory() -> str:
    """The working directory, or "" when it no longer exists."""
    try:
        return str(Path.cwd())
    except OSError:
        return ""


def is_built_in(file: Path) -> bool:
    """Whether `file` is one of the rulesets shipped with the interpreter."""
    try:
        return file.resolve().parent == rulesets_dir().resolve()
    except OSError:
        return False
