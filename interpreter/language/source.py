"""YAML read safely, with the line and column of every node kept.

A document is plain data (dicts, lists, scalars) plus a table from *paths* (tuples of keys and
indices) to `Mark`s. Keeping positions beside the data, instead of inside it, lets the rest of the
loader work on ordinary Python values, merge documents (`extends`, readings, options) and still
report `file:line:col` for any path that came from a file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from interpreter.errors import Problem, RulesetError

Path = tuple[str | int, ...]


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
    data: Any
    marks: dict[Path, Mark] = field(default_factory=dict)
    file: str = "<input>"
    key_marks: dict[Path, Mark] = field(default_factory=dict)  # where the key of a mapping entry stands
    parents: list[str] = field(default_factory=list)  # what it extends, for display only
    lineage: list[str] = field(default_factory=list)  # every file merged in, ancestors first

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


def load_yaml(text: str, file: str) -> Document:
    """Parse YAML text into a Document. Raises RulesetError with the place on malformed input."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        raise RulesetError([Problem(file, line, col, "", f"not valid YAML: {exc.problem or exc}")]) from None
    except yaml.YAMLError as exc:
        raise RulesetError([Problem(file, None, None, "", f"not valid YAML: {exc}")]) from None
    doc = Document(data=None, file=file)
    if root is None:
        doc.data = {}
        return doc
    problems: list[Problem] = []
    budget = [MAX_NODES]
    doc.data = _convert(root, (), doc, problems, _Constructor(), text.splitlines(), budget)
    if problems:
        raise RulesetError(problems)
    return doc


class _Constructor(SafeConstructor):
    pass


MAX_NODES = 200_000  # YAML aliases can expand a few lines into billions of nodes ("billion laughs")


def _convert(
    node: Node,
    path: Path,
    doc: Document,
    problems: list[Problem],
    ctor: _Constructor,
    lines: list[str],
    budget: list[int],
) -> Any:
    budget[0] -= 1
    if budget[0] < 0:
        raise RulesetError(
            [
                Problem(
                    doc.file,
                    None,
                    None,
                    "",
                    f"the document expands to more than {MAX_NODES:,} values (through YAML aliases?); it is refused",
                )
            ]
        )
    mark = Mark(
        doc.file,
        node.start_mark.line + 1,
        node.start_mark.column + 1,
        quoted=isinstance(node, ScalarNode) and node.style in ("'", '"'),
    )
    if isinstance(node, ScalarNode) and node.style in ("|", ">"):
        mark = _block_mark(node, doc.file, lines) or mark
    doc.marks[path] = mark
    if isinstance(node, MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                problems.append(
                    Problem(
                        doc.file,
                        mark.line,
                        mark.column,
                        format_path(path),
                        "a key must be a plain name, not a list or mapping",
                    )
                )
                continue
            if key_node.value == "<<":
                kmark = key_node.start_mark
                problems.append(
                    Problem(
                        doc.file,
                        kmark.line + 1,
                        kmark.column + 1,
                        format_path(path),
                        "YAML merge keys ('<<') are not supported; use 'extends' or 'like'",
                    )
                )
                continue
            # Keys are names; a player count written `6:` is the name "6".
            key = str(ctor.construct_object(key_node))
            if key in result:
                kmark = key_node.start_mark
                problems.append(
                    Problem(
                        doc.file,
                        kmark.line + 1,
                        kmark.column + 1,
                        format_path(path + (key,)),
                        f"duplicate key '{key}' (the later one would silently win)",
                    )
                )
                continue
            doc.key_marks[path + (key,)] = Mark(doc.file, key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            result[key] = _convert(value_node, path + (key,), doc, problems, ctor, lines, budget)
        return result
    if isinstance(node, SequenceNode):
        return [_convert(item, path + (i,), doc, problems, ctor, lines, budget) for i, item in enumerate(node.value)]
    try:
        return ctor.construct_object(node)
    except yaml.YAMLError as exc:
        problems.append(Problem(doc.file, mark.line, mark.column, format_path(path), f"bad value: {exc}"))
        return None


def _block_mark(node: ScalarNode, file: str, lines: list[str]) -> Mark | None:
    """Where the text of a block scalar stands: the lines after its `|` or `>` indicator."""
    first, last = node.start_mark.line + 1, node.end_mark.line
    body = list(lines[first : last + 1])
    while body and not body[-1].strip():
        body.pop()
    content = [line for line in body if line.strip()]
    if not content:
        return None
    indent = min(len(line) - len(line.lstrip()) for line in content)
    start = next(i for i, line in enumerate(body) if line.strip())
    widths = tuple(len(line[indent:].rstrip()) for line in body[start:])
    return Mark(file, first + start + 1, indent + 1, block=widths)
