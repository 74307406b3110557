"""Where rulesets and schemas are: the user's own rulesets (a `rulesets/` folder in the working
directory, then the folders of `TAROCK_PATH`), and the built-in ones, in a source checkout and
when installed; and how a file found there is read: only a regular file, only up to a size."""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

ENV_PATH = "TAROCK_PATH"  # folders of rulesets, separated as PATH is (":" or ";")
BUILT_IN = "built in"

# The largest ruleset written so far has 33 kB; a file of its own is read whole into memory.
MAX_RULESET_BYTES = 1_000_000

_PACKAGE = Path(__file__).resolve().parent.parent  # interpreter/
_REPO = _PACKAGE.parent


def _data_dir(name: str) -> Path:
    # Installed (`pip install .`, a wheel), the rulesets and schemas are package data inside the
    # package, interpreter/data/<name> ([tool.setuptools.package-dir] in pyproject.toml maps the
    # repository's top-level folders there). A source checkout, and an editable install of one,
    # has no such folder: they are at the top of the repository, beside the package. (An
    # editable install cannot even import `interpreter.data.rulesets`: setuptools' finder maps
    # that name to the top-level folder, but `interpreter.data` is nowhere to be found. So the
    # folders are found by their place, never imported.) The package's own data comes first, so
    # that an installed package never takes a stray `rulesets/` folder in site-packages for its own.
    installed = _PACKAGE / "data" / name
    if installed.is_dir():
        return installed
    return _REPO / name


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


# -- reading a file found there --------------------------------------------------------------------


class RefusedFile(OSError):
    """A file that is not read: not a regular file (a FIFO would make the reader wait for a
    writer forever, a device such as /dev/zero never ends), or larger than the limit."""


def file_problem(path: Path, limit: int = MAX_RULESET_BYTES) -> str | None:
    """Why `path` is not read as a ruleset or record, in words that follow "is" ("a FIFO, not a
    regular file"); None for a regular file (symbolic links followed) of at most `limit` bytes."""
    try:
        status = path.stat()
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    return _mode_problem(status, limit)


def _mode_problem(status: os.stat_result, limit: int) -> str | None:
    if not stat.S_ISREG(status.st_mode):
        return f"{_kind(status.st_mode)}, not a regular file"
    if status.st_size > limit:
        return f"{status.st_size:,} bytes, more than the {limit:,} allowed"
    return None


def _kind(mode: int) -> str:
    kinds = [
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ]
    return next((name for test, name in kinds if test(mode)), "something other than a file")


def read_file(path: Path, limit: int = MAX_RULESET_BYTES) -> bytes:
    """The bytes of `path`, a regular file of at most `limit` bytes. Raises RefusedFile (an
    OSError) saying why it is not read, without waiting on a FIFO or reading a device: the file
    is opened without blocking and checked again once open (it may have been replaced)."""
    problem = file_problem(path, limit)
    if problem is not None:
        raise RefusedFile(problem)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    with os.fdopen(fd, "rb") as handle:
        problem = _mode_problem(os.fstat(handle.fileno()), limit)
        if problem is not None:
            raise RefusedFile(problem)
        data = handle.read(limit + 1)  # a file that grew since it was looked at stops here
    if len(data) > limit:
        raise RefusedFile(f"more than the {limit:,} bytes allowed")
    return data
