"""Where each rule of a ruleset comes from: the file that states it, with its source and status.

The compiled `Ruleset` says what the rules are; `Origins` keeps beside it the documents it was
compiled from and answers, for a place in the ruleset (a path of keys as written in YAML):
- which file states it: for a value, the file whose value is played (the last in the `extends`
  chain that writes it); for a mapping of several rules (a contract that a variant changes in one
  field), the file that states most of them;
- its source and status: those of the chosen reading or option whose patch set it; or else the
  nearest `source:` and `status:` in *the file that states it*, from the rule up to the top of
  that file, so that a base's source never vouches for a variant's value, nor a variant's for
  what it inherits. A field listed under `assumed:` there is assumed; a later file's
  `inherited_status:` overrides the status of everything it inherits (as the loader does).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path as FilePath
from typing import Any

from interpreter.errors import RulesetError
from interpreter.language.loader import apply_choices, read_document, source_file
from interpreter.language.source import Document, Mark, Path

STATUSES = ("attested", "reported", "reconstructed", "assumed")  # most certain first
# Words about a rule, not the rule: they never make two rulesets differ.
TEXT_KEYS = frozenset({"source", "status", "note", "assumed", "title", "question", "reason"})
CHOICE_SECTIONS = ("readings", "options")


@dataclass(frozen=True)
class Provenance:
    source: str | None
    status: str | None
    via: str | None = None  # "reading solo_factor: leaflet" when a choice set the rule
    assumed: str | None = None  # the reason, when the field is marked assumed
    file: str | None = None  # the file that states the rule
    line: int | None = None

    def as_dict(self) -> dict[str, str | int | None]:
        return {
            "source": self.source,
            "status": self.status,
            "via": self.via,
            "assumed": self.assumed,
            "file": self.file,
            "line": self.line,
        }

    def cites(self) -> str:
        """Source, status and the choice that set it, for readers (no file positions: they differ
        between installations)."""
        parts = [p for p in (self.source, self.status, self.via) if p]
        text = "; ".join(parts)
        if self.assumed:
            text += f". Assumed: {self.assumed}"
        return text

    def describe(self) -> str:
        """Everything, for `tarock diff`: source, status, choice, assumption, file:line."""
        parts = [self.source or "no source given", self.status or "no status"]
        if self.via:
            parts.append(self.via)
        if self.assumed:
            parts.append(f"assumed: {self.assumed}")
        text = "; ".join(parts)
        if self.file:
            text += f" ({self.file}{f':{self.line}' if self.line else ''})"
        return text

    def same_words(self, other: Provenance) -> bool:
        """Whether a reader would see the same provenance (the place aside)."""
        return (self.source, self.status, self.via, self.assumed) == (
            other.source,
            other.status,
            other.via,
            other.assumed,
        )


NOWHERE = Provenance(None, None)


def least_certain(statuses: Iterable[str | None]) -> str | None:
    known = [s for s in statuses if s in STATUSES]
    return max(known, key=STATUSES.index) if known else None


def leaves(data: Any, path: Path = ()) -> Iterator[Path]:
    """The paths of every value under `data` (a list is one value: it is replaced whole)."""
    if isinstance(data, dict) and data:
        for key, value in data.items():
            yield from leaves(value, path + (key,))
    else:
        yield path


def get(data: Any, path: tuple[Any, ...]) -> Any:
    """The value at `path`, or None."""
    for part in path:
        found, data = _child(data, part)
        if not found:
            return None
    return data


def _child(node: Any, part: Any) -> tuple[bool, Any]:
    """The value under `part` of a mapping or a list, and whether it has one."""
    if isinstance(node, dict):
        return part in node, node.get(part)
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        return True, node[part]
    return False, None


# -- each file as written --------------------------------------------------------------------------


def file_data(file: str) -> Any:
    """The data of one ruleset file as written, before anything is merged into it (None if it
    cannot be read now). `file`: its path, or its name in messages (a Mark's, a lineage's)."""
    path = source_file(file)
    try:
        return _file_data(str(path.resolve()), path.stat().st_mtime_ns)
    except (OSError, RulesetError):
        return None


@lru_cache(maxsize=64)
def _file_data(path: str, stamp: int) -> Any:
    # Read as every ruleset file is, within the same limits (only the values are kept).
    return read_document(FilePath(path)).data


def file_marks(file: str) -> dict[Path, Mark]:
    """Where each value of one ruleset file stands (for the rare rule no merged document has)."""
    path = source_file(file)
    try:
        return _file_marks(str(path.resolve()), path.stat().st_mtime_ns, str(FilePath.cwd()))
    except (OSError, RulesetError):
        return {}


@lru_cache(maxsize=16)
def _file_marks(path: str, stamp: int, cwd: str) -> dict[Path, Mark]:
    # `cwd` is part of the key: marks name their file as messages show it, relative to the
    # working directory (or short, for a built-in file outside it).
    return read_document(FilePath(path)).marks


# -- a ruleset's origins -----------------------------------------------------------------------------


class Origins:
    """The documents a ruleset was compiled from: `raw` after inheritance, and `doc` with the
    readings and options of `choices` applied (what the compiler compiled)."""

    def __init__(self, raw: Document, choices: Mapping[str, str], doc: Document | None = None):
        self.raw = raw
        self.choices = dict(choices)
        self.doc = doc if doc is not None else apply_choices(raw, self.choices)[0]
        self.lineage = list(raw.lineage)
        self._files: dict[str, Any] = {}

    def file_data(self, file: str) -> Any:
        """One file of the lineage as written (read once per ruleset)."""
        if file not in self._files:
            self._files[file] = file_data(file)
        return self._files[file]

    @property
    def data(self) -> Any:
        return self.doc.data

    def node(self, path: Path) -> Any:
        """The rule at `path` as compiled (None where there is none)."""
        return get(self.doc.data, path)

    def existing(self, path: Path) -> Path:
        """The longest part of `path` that the document has."""
        node: Any = self.doc.data
        for index, part in enumerate(path):
            found, node = _child(node, part)
            if not found:
                return path[:index]
        return path

    def mark(self, path: Path) -> Mark | None:
        """Where `path` is written: as in the files (a reading's patch would otherwise claim the
        rules it touches), else as applied."""
        return self.raw.marks.get(path) or self.doc.marks.get(path)

    def stating_file(self, path: Path) -> str | None:
        """The file that states the rule at `path` (see the module's docstring)."""
        value = self.node(path)
        if isinstance(value, dict) and value:
            counts: dict[str, int] = {}
            for leaf in leaves(value, path):
                if set(leaf[len(path) :]) & TEXT_KEYS:
                    continue
                mark = self.mark(leaf)
                if mark is not None:
                    counts[mark.file] = counts.get(mark.file, 0) + 1
            if counts:
                order = {f: i for i, f in enumerate(self.lineage)}
                return max(counts, key=lambda f: (counts[f], -order.get(f, len(order))))
        mark = self.mark(path)
        while mark is None and path:
            path = path[:-1]
            mark = self.mark(path)
        return mark.file if mark is not None else None

    def provenance(self, path: Path) -> Provenance:
        """The source and status of the rule at `path`."""
        chosen = self._chosen_for(path)
        if chosen is not None:
            return chosen
        if self.existing(path) != path:
            removed = self._removal(path)
            if removed is not None:
                return removed
        path = self.existing(path)
        node = self.node(path)
        own = [k for k in ("source", "status") if isinstance(node, dict) and isinstance(node.get(k), str)]
        # A rule that carries its own source is vouched for by the file that writes it there;
        # any other by the file that states its value.
        file = next((m.file for k in own if (m := self.mark(path + (k,))) is not None), None)
        if file is None:
            file = self.stating_file(path)
        mark = self.mark(path)
        return self._in_file(file, path, mark.line if mark else None)

    def _in_file(self, file: str | None, path: Path, line: int | None) -> Provenance:
        """The nearest source and status in `file`, from `path` up."""
        data = self.file_data(file) if file is not None else None
        source = status = assumed = None
        for depth in range(len(path), -1, -1):
            node = get(data, path[:depth])
            if not isinstance(node, dict):
                continue
            below = path[depth] if depth < len(path) else None
            reasons = node.get("assumed")
            if status is None and below is not None and isinstance(reasons, dict) and below in reasons:
                status, assumed = "assumed", str(reasons[below])
            if status is None and isinstance(node.get("status"), str):
                status = node["status"]
            if source is None and isinstance(node.get("source"), str):
                source = node["source"]
            if source is not None and status is not None:
                break
        if status is not None and file in self.lineage:
            for later in self.lineage[self.lineage.index(file) + 1 :]:
                inherited = get(self.file_data(later), ("inherited_status",))
                if isinstance(inherited, str):
                    status = inherited
        return Provenance(source, status, None, assumed, file, line)

    def _removal(self, path: Path) -> Provenance | None:
        """A rule the ruleset does not have because a file removes it (`stupfen: null`): that
        file's word for it."""
        for file in reversed(self.lineage):
            data = self.file_data(file)
            for depth in range(len(path), 0, -1):
                parent = get(data, path[: depth - 1])
                if isinstance(parent, dict) and path[depth - 1] in parent and parent[path[depth - 1]] is None:
                    mark = file_marks(file).get(path[:depth])
                    return self._in_file(file, path[:depth], mark.line if mark else None)
        return None

    def combined(self, path: Path) -> Provenance:
        """The provenance of a rule made of parts that each carry their own source (compulsory
        bids, opponents liable for the team): the parts' sources, and the least certain status."""
        whole = self.provenance(path)
        if whole.via is not None:
            return whole
        node = self.node(self.existing(path))
        if isinstance(node, dict) and "source" not in node:
            keys: list[str | int] = list(node)
        elif isinstance(node, list):
            keys = list(range(len(node)))
        else:
            return whole
        parts = [
            self.provenance(path + (k,))
            for k in keys
            if isinstance(part := get(node, (k,)), dict) and isinstance(part.get("source"), str)
        ]
        if not parts:
            return whole
        return Provenance(
            "; ".join(dict.fromkeys(p.source for p in parts if p.source)),
            least_certain(p.status for p in parts),
            None,
            None,
            whole.file,
            whole.line,
        )

    def _chosen_for(self, path: Path) -> Provenance | None:
        """The chosen reading or option whose patch sets the rule at `path`, as a Provenance."""
        for section in CHOICE_SECTIONS:
            for group, definition in (get(self.raw.data, (section,)) or {}).items():
                if not isinstance(definition, dict):
                    continue
                choice = self.choices.get(group, definition.get("default"))
                body = get(definition, ("choices", choice))
                if not isinstance(body, dict) or not isinstance(body.get("rules"), dict):
                    continue
                patched = list(leaves(body["rules"]))
                if any(leaf and path[: len(leaf)] == leaf for leaf in patched) or _covers(
                    patched, path, self.node(path)
                ):
                    mark = self.raw.marks.get((section, group, "choices", str(choice)))
                    return Provenance(
                        body.get("source") or definition.get("source"),
                        body.get("status") or definition.get("status"),
                        f"{section[:-1]} {group}: {choice}",
                        None,
                        mark.file if mark else None,
                        mark.line if mark else None,
                    )
        return None


def _covers(patched: list[Path], path: Path, value: Any) -> bool:
    """Whether a choice's patch sets every rule of `value` (the data at `path`)."""
    if not path or not isinstance(value, dict) or set(value) & TEXT_KEYS:
        return False  # only a plain value (a factor's won/lost), not a rule with its own provenance
    own = [path + leaf for leaf in leaves(value) if not set(leaf) & TEXT_KEYS]
    return bool(own) and all(any(p[: len(leaf)] == leaf for leaf in patched) for p in own)
