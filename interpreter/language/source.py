"""YAML read safely, with the line and column of every node kept.

A document is plain data (dicts, lists, scalars) plus a table from *paths* (tuples of keys and
indices) to `Mark`s. Keeping positions beside the data, instead of inside it, lets the rest of the
loader work on ordinary Python values, merge documents (`extends`, readings, options) and still
report `file:line:col` for any path that came from a file.

The text is read from the parser's events (libyaml's when PyYAML has it, several times faster;
PyYAML's own otherwise) by one builder, so both give the same values and the same marks. When
libyaml refuses the text, PyYAML's parser reads it again: its account of what is wrong and where
is the one users have always been shown. Whatever goes wrong is a `RulesetError` with a place:
no input makes the loader raise anything else, recurse without bound or build without end.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol, TypeAlias

import yaml
from yaml.constructor import SafeConstructor
from yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from interpreter.errors import Problem, RulesetError

Path = tuple[str | int, ...]

# What YAML gives: a mapping with text keys, a list, or a scalar (str, int, float, bool, None;
# bytes and dates from explicit tags). `Any`, because a document's readers narrow it where they
# check it (the schema checks a ruleset's shape before the compiler reads it).
YamlValue: TypeAlias = Any

MAX_NODES = 200_000  # YAML aliases can expand a few lines into billions of nodes ("billion laughs")
MAX_DEPTH = 100  # no ruleset or record nests a tenth as deep; deeper input would exhaust the stack
MAX_DIGITS = 4300  # Python refuses to read longer numbers from text (sys.get_int_max_str_digits)

# libyaml's parser, when this PyYAML was built with it; its events carry the same marks.
_FAST_LOADER: type[Any] | None = getattr(yaml, "CSafeLoader", None)


@dataclass(frozen=True)
class Mark:
    file: str
    line: int  # 1-based
    column: int  # 1-based
    quoted: bool = False  # a quoted scalar starts one column before its text
    block: tuple[int, ...] = ()  # a block scalar (| or >): the widths of its lines; line/column are its text's

    def shifted(self, columns: int) -> Mark:
        """The place `columns` characters into a scalar's text (for DSL error columns)."""
        if self.block:
            # Block lines are joined by one character (a space or a newline) in the text.
            for index, width in enumerate(self.block):
                if columns <= width:
                    return Mark(self.file, self.line + index, self.column + columns)
                columns -= width + 1
            return Mark(self.file, self.line + len(self.block) - 1, self.column + self.block[-1])
        return Mark(self.file, self.line, self.column + columns + (1 if self.quoted else 0))


@dataclass
class Document:
    data: YamlValue
    marks: dict[Path, Mark] = field(default_factory=dict)
    file: str = "<input>"
    key_marks: dict[Path, Mark] = field(default_factory=dict)  # where the key of a mapping entry stands
    parents: list[str] = field(default_factory=list)  # what it extends, for display only
    lineage: list[str] = field(default_factory=list)  # every file merged in, ancestors first
    # Inherited rules a later file removed (`solo: null`, or `solo:` with nothing after it), with
    # where the removal is written: a problem a base then has with the missing rule is the
    # removing file's doing, and is reported there.
    removed: dict[Path, Mark] = field(default_factory=dict)

    def mark(self, path: Path) -> Mark | None:
        """The mark of `path`, or of its nearest ancestor that has one."""
        while True:
            if path in self.marks:
                return self.marks[path]
            if not path:
                return None
            path = path[:-1]

    def problem(self, path: Path, message: str, *, at_key: bool = False) -> Problem:
        mark = (self.key_marks.get(path) if at_key else None) or self.mark(path)
        if mark is None:
            return Problem(self.file, None, None, format_path(path), message)
        return Problem(mark.file, mark.line, mark.column, format_path(path), message)


def format_path(path: Path) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def parse_path(text: str) -> Path:
    """The path `format_path` wrote (`auction.phases.solo_round.ladder[0].call`)."""
    path: list[str | int] = []
    for part in re.findall(r"\[(\d+)\]|([^.\[\]]+)", text):
        path.append(int(part[0]) if part[0] else part[1])
    return tuple(path)


def load_yaml(text: str, file: str) -> Document:
    """Parse YAML text into a Document. Raises RulesetError with the place on any malformed input."""
    if _FAST_LOADER is not None:
        try:
            return _Builder(text, file, _FAST_LOADER).document()
        except RulesetError:
            raise  # found by the builder, which reads both parsers' events alike
        except Exception:
            pass  # PyYAML's parser, below, tells what is wrong and where
    try:
        return _Builder(text, file, yaml.SafeLoader, pure=True).document()
    except RulesetError:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        raise RulesetError([Problem(file, line, col, "", f"not valid YAML: {exc.problem or exc}")]) from None
    except yaml.reader.ReaderError as exc:
        line, col = _position(text, exc.position)
        reason = f"unacceptable character #x{exc.character:04x} ({exc.reason})"
        if isinstance(exc.character, bytes):
            reason = f"cannot decode the text ({exc.reason})"
        raise RulesetError([Problem(file, line, col, "", f"not valid YAML: {reason}")]) from None
    except yaml.YAMLError as exc:
        raise RulesetError([Problem(file, None, None, "", f"not valid YAML: {exc}")]) from None
    except Exception as exc:  # the boundary: no input may escape as anything but a RulesetError
        raise RulesetError(
            [Problem(file, None, None, "", f"cannot read the YAML ({type(exc).__name__}: {_shown(str(exc))})")]
        ) from None


def dump_yaml(data: YamlValue, **options: Any) -> str:
    """YAML text of `data`, written by libyaml where PyYAML has it (as `yaml.safe_dump` would)."""
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    text: str = yaml.dump(data, Dumper=dumper, **options)
    return text


def _position(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and column of character `index`, counting line breaks as YAML does."""
    before = text[:index]
    breaks = list(re.finditer(r"\r\n|[\n\r\x85\u2028\u2029]", before))
    start = breaks[-1].end() if breaks else 0
    return len(breaks) + 1, index - start + 1


def _shown(value: str, limit: int = 40) -> str:
    """A value quoted in a message: short, and printable on any terminal."""
    value = value.encode("utf-8", "backslashreplace").decode("utf-8")
    return value if len(value) <= limit else value[: limit - 1] + "…"


_SURROGATE = re.compile("[\ud800-\udfff]")
_RESOLVER = Resolver()


@lru_cache(maxsize=4096)
def _implicit_tag(text: str, implicit: tuple[bool, bool]) -> str:
    """The tag YAML gives an untagged scalar (int, bool, null, … or str); the same words recur."""
    return str(_RESOLVER.resolve(ScalarNode, text, implicit))  # type: ignore[no-untyped-call]


class _Place(Protocol):
    """A parser's mark (PyYAML's or libyaml's): 0-based line and column."""

    line: int
    column: int


def _start(event: Event) -> _Place:
    mark: _Place | None = event.start_mark
    assert mark is not None  # every event a parser emits has its place
    return mark


def _composer_error(context: str | None, context_event: Event | None, problem: str, event: Event) -> yaml.YAMLError:
    """The error PyYAML's composer raises for the same mistake, with the same marks."""
    context_mark: Any = context_event.start_mark if context_event is not None else None
    problem_mark: Any = event.start_mark
    return yaml.composer.ComposerError(context, context_mark, problem, problem_mark)


class _Builder:
    """Builds a Document from a parser's events: values, and a mark for each path.

    Recursive, but never deeper than MAX_DEPTH; every value built (aliases expanded) counts
    against MAX_NODES. Malformed values are collected as problems, each at its place."""

    def __init__(self, text: str, file: str, loader: type[Any], *, pure: bool = False) -> None:
        self.text = text
        self.doc = Document(data=None, file=file)
        self.loader = loader
        # PyYAML's parser lets `"\ud800"` through; text with a lone surrogate cannot be printed.
        self.check_surrogates = pure
        self.problems: list[Problem] = []
        self.constructor = SafeConstructor()
        self.lines: list[str] | None = None  # the text's lines, split when a block scalar needs them
        self.budget = MAX_NODES
        self.depth = 0
        self.events: Iterator[Event] = iter(())
        self.seen: list[Event] = []  # the stream's events, so that an alias can replay its anchor's
        self.anchors: dict[str, tuple[int, int | None]] = {}  # anchor -> (first, last) index in seen
        self.open_anchors: list[str | None] = []  # one per open collection of the stream
        self.replays: list[Iterator[Event]] = []

    # -- events ------------------------------------------------------------------------------

    def next_event(self) -> Event:
        while self.replays:
            event = next(self.replays[-1], None)
            if event is not None:
                return event
            self.replays.pop()
        event = next(self.events)
        index = len(self.seen)
        self.seen.append(event)
        anchor: str | None = getattr(event, "anchor", None)
        if isinstance(event, (ScalarEvent, CollectionStartEvent)) and anchor is not None:
            if anchor in self.anchors:
                first = self.seen[self.anchors[anchor][0]]
                raise _composer_error(
                    f"found duplicate anchor {anchor!r}; first occurrence", first, "second occurrence", event
                )
            self.anchors[anchor] = (index, index if isinstance(event, ScalarEvent) else None)
        if isinstance(event, CollectionStartEvent):
            self.open_anchors.append(event.anchor)
        elif isinstance(event, (SequenceEndEvent, MappingEndEvent)) and self.open_anchors:
            anchor = self.open_anchors.pop()
            if anchor is not None:
                self.anchors[anchor] = (self.anchors[anchor][0], index)
        return event

    def replay(self, alias: AliasEvent) -> Event:
        """The first event of the node an alias names; the rest follow from next_event."""
        name: str = alias.anchor or ""
        span = self.anchors.get(name)
        if span is None:
            raise _composer_error(None, None, f"found undefined alias {name!r}", alias)
        first, last = span
        if last is None:
            raise RulesetError([self.placed(_start(alias), (), "an alias inside the value it names goes round")])
        self.replays.append(iter(self.seen[first + 1 : last + 1]))
        return self.seen[first]

    # -- the document ------------------------------------------------------------------------

    def document(self) -> Document:
        self.events = iter(yaml.parse(self.text, Loader=self.loader))
        self.next_event()  # the stream's start
        event = self.next_event()
        if isinstance(event, StreamEndEvent):
            self.doc.data = {}
            return self.doc
        assert isinstance(event, DocumentStartEvent), event
        start = event
        self.doc.data = self.node(self.next_event(), ())
        event = self.next_event()
        assert isinstance(event, DocumentEndEvent), event
        event = self.next_event()
        if not isinstance(event, StreamEndEvent):
            raise _composer_error(
                "expected a single document in the stream", start, "but found another document", event
            )
        if self.problems:
            raise RulesetError(self.problems)
        return self.doc

    def placed(self, mark: _Place, path: Path, message: str) -> Problem:
        return Problem(self.doc.file, mark.line + 1, mark.column + 1, format_path(path), message)

    def node(self, event: Event, path: Path) -> YamlValue:
        if isinstance(event, AliasEvent):
            event = self.replay(event)
        self.budget -= 1
        if self.budget < 0:
            raise RulesetError(
                [
                    Problem(
                        self.doc.file,
                        None,
                        None,
                        "",
                        f"the document expands to more than {MAX_NODES:,} values (through YAML aliases?); it is refused",
                    )
                ]
            )
        start = _start(event)
        mark = Mark(
            self.doc.file,
            start.line + 1,
            start.column + 1,
            quoted=isinstance(event, ScalarEvent) and event.style in ("'", '"'),
        )
        if isinstance(event, ScalarEvent) and event.style in ("|", ">"):
            mark = self.block_mark(event) or mark
        self.doc.marks[path] = mark
        if isinstance(event, ScalarEvent):
            return self.scalar(event, path)
        if self.depth >= MAX_DEPTH:
            raise RulesetError(
                [
                    Problem(
                        self.doc.file,
                        start.line + 1,
                        start.column + 1,
                        format_path(path[:3]) + "…",
                        f"nested more than {MAX_DEPTH} levels deep; no ruleset or record needs that",
                    )
                ]
            )
        self.depth += 1
        assert isinstance(event, CollectionStartEvent), event  # a scalar returned above; aliases are replayed
        self.check_collection_tag(event, path)
        if isinstance(event, SequenceStartEvent):
            items: list[YamlValue] = []
            while not isinstance(event := self.next_event(), SequenceEndEvent):
                items.append(self.node(event, path + (len(items),)))
            self.depth -= 1
            return items
        assert isinstance(event, MappingStartEvent), event
        result = self.mapping(mark, path)
        self.depth -= 1
        return result

    def mapping(self, mark: Mark, path: Path) -> dict[str, YamlValue]:
        result: dict[str, YamlValue] = {}
        while not isinstance(event := self.next_event(), MappingEndEvent):
            if isinstance(event, AliasEvent):
                event = self.replay(event)
            key_mark = _start(event)
            if not isinstance(event, ScalarEvent):
                self.problems.append(
                    Problem(
                        self.doc.file,
                        mark.line,
                        mark.column,
                        format_path(path),
                        "a key must be a plain name, not a list or mapping",
                    )
                )
                self.skip(event)  # the key
                self.skip(self.next_event())  # and its value
                continue
            key: str | None = None
            if event.value == "<<":
                self.problems.append(
                    self.placed(key_mark, path, "YAML merge keys ('<<') are not supported; use 'extends' or 'like'")
                )
            else:
                constructed = self.construct(event, path)
                # Keys are names; a player count written `6:` is the name "6".
                key = None if constructed is _BAD else str(constructed)
                if key is not None and key in result:
                    self.problems.append(
                        self.placed(
                            key_mark,
                            path + (key,),
                            f"duplicate key '{_shown(key)}' (the later one would silently win)",
                        )
                    )
                    key = None
            if key is None:
                self.skip(self.next_event())
                continue
            self.doc.key_marks[path + (key,)] = Mark(self.doc.file, key_mark.line + 1, key_mark.column + 1)
            result[key] = self.node(self.next_event(), path + (key,))
        return result

    def check_collection_tag(self, event: CollectionStartEvent, path: Path) -> None:
        """A list or mapping is read as one whatever its tag says; a tag other than its own
        (`!!set`, `!!python/object:…`, `!village`) would be silently dropped, so it is refused."""
        own = "tag:yaml.org,2002:seq" if isinstance(event, SequenceStartEvent) else "tag:yaml.org,2002:map"
        tag: str | None = event.tag
        if tag is None or tag in ("!", own):
            return
        kind = "list" if isinstance(event, SequenceStartEvent) else "mapping"
        short = tag.replace("tag:yaml.org,2002:", "!!")
        self.problems.append(
            self.placed(_start(event), path, f"the tag {_shown(short, 60)} on a {kind} is not read here; remove it")
        )

    def skip(self, event: Event) -> None:
        """Read past the node that starts with `event` (an alias there is not expanded)."""
        depth = 1 if isinstance(event, CollectionStartEvent) else 0
        while depth:
            event = self.next_event()
            if isinstance(event, CollectionStartEvent):
                depth += 1
            elif isinstance(event, (SequenceEndEvent, MappingEndEvent)):
                depth -= 1

    def scalar(self, event: ScalarEvent, path: Path) -> YamlValue:
        value = self.construct(event, path)
        return None if value is _BAD else value

    def construct(self, event: ScalarEvent, path: Path) -> YamlValue:
        """The value of a scalar, or _BAD after reporting why it has none."""
        tag: str | None = event.tag
        text: str = event.value
        if tag is None or tag == "!":
            tag = _implicit_tag(text, event.implicit)
        if self.check_surrogates and _SURROGATE.search(text):
            self.problems.append(
                self.placed(_start(event), path, f"'{_shown(text)}' holds a lone surrogate, which is not text")
            )
            return _BAD
        if tag == "tag:yaml.org,2002:int" and len(text) > MAX_DIGITS:
            self.problems.append(
                self.placed(_start(event), path, f"a number of {len(text):,} digits is too long to read")
            )
            return _BAD
        # The marks are PyYAML's or libyaml's; a constructor only quotes them.
        start: Any = event.start_mark
        end: Any = event.end_mark
        node = ScalarNode(tag, text, start, end, style=event.style)
        constructor = self.constructor.yaml_constructors.get(tag) or self.constructor.yaml_constructors[None]
        try:
            return constructor(self.constructor, node)
        except yaml.constructor.ConstructorError as exc:
            reason = exc.problem or str(exc)
        except Exception as exc:  # int('abc') under !!int, a bad !!timestamp, !!binary that is not base64
            reason = f"{type(exc).__name__}: {exc}"
        short = tag.replace("tag:yaml.org,2002:", "!!")
        self.problems.append(
            self.placed(
                _start(event), path, f"bad value: cannot read '{_shown(text)}' as {short} ({_shown(reason, 80)})"
            )
        )
        return _BAD

    def block_mark(self, event: ScalarEvent) -> Mark | None:
        """Where the text of a block scalar stands: the lines after its `|` or `>` indicator."""
        if self.lines is None:
            self.lines = self.text.splitlines()
        end: _Place | None = event.end_mark
        assert end is not None
        first, last = _start(event).line + 1, end.line
        body = list(self.lines[first : last + 1])
        while body and not body[-1].strip():
            body.pop()
        content = [line for line in body if line.strip()]
        if not content:
            return None
        indent = min(len(line) - len(line.lstrip()) for line in content)
        start = next(i for i, line in enumerate(body) if line.strip())
        widths = tuple(len(line[indent:].rstrip()) for line in body[start:])
        return Mark(self.doc.file, first + start + 1, indent + 1, block=widths)


_BAD: Any = object()  # a scalar that could not be read (its problem is reported)
