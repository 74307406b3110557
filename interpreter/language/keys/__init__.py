"""Every key of the ruleset language, declared once.

A key's declaration (`kinds.Key`) says what it takes, what it means, its default and how the
scholar's tools say it. What is derived from the declarations:
- the schema, `schema/ruleset.schema.json` (`ruleset_schema()`, written by schema/build_schema.py);
- the defaults the compiler applies (`default("play.when_void")`);
- the names the expressions at each place may read, as the schema lists them (`names`);
- the sentences of `tarock diff`, `doc` and `matrix` (interpreter.ethnography.diff.TEMPLATES).
The sections are declared in `pack`, `auction`, `contracts`, `play`, `scoring` and `session`, and put
together in `ruleset`. How to add a key: docs/contributing.md, "How a key flows".
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from interpreter.language.keys.kinds import (
    ENTRY,
    ITEM,
    NO_DEFAULT,
    Computed,
    Entries,
    Expression,
    Key,
    ListOf,
    Node,
    OneOf,
    Place,
    Rule,
    Said,
    parse_place,
    place_text,
    walk,
)
from interpreter.language.keys.ruleset import RULE_SECTIONS, ruleset, ruleset_schema

ROOT: Rule = ruleset

__all__ = [
    "ENTRY",
    "ITEM",
    "NO_DEFAULT",
    "ROOT",
    "RULE_SECTIONS",
    "Computed",
    "Key",
    "Place",
    "Said",
    "default",
    "key",
    "key_of_path",
    "parse_place",
    "place_text",
    "places",
    "ruleset_schema",
]


def places(root: Node = ROOT) -> Iterator[tuple[Place, Key]]:
    """Every key of the language with its place (a key in a shared rule at each of its places)."""
    return walk(root)


@cache
def _by_place() -> dict[Place, Key]:
    return dict(places())


_parsed = cache(parse_place)  # the compiler asks for the same few places at every compile


def key(place: str | Place) -> Key:
    """The declaration at a place (`play.when_void`, `auction.phases.*.ladder[].holdable`)."""
    wanted = _parsed(place) if isinstance(place, str) else place
    found = _by_place().get(wanted)
    if found is None:
        raise KeyError(f"no key of the language at {place_text(wanted)!r}")
    return found


def default(place: str) -> Any:
    """The value the compiler applies where the key at `place` is not written."""
    declared = key(place)
    if not declared.literal_default:
        raise KeyError(f"{place} declares no value as its default ({declared.default!r})")
    return declared.default


def key_of_path(path: tuple[str | int, ...]) -> tuple[Place, Key] | None:
    """The declaration a place of a ruleset document stands at (`contracts.solo.exchange[1].discard`
    is `contracts.*.exchange[].discard`), or None where the language has no such key."""
    node: Node = ROOT
    place: list[str] = []
    found: Key | None = None
    for part in path:
        found = _step(node, part)
        if found is None:
            return None
        place.append(ITEM if isinstance(part, int) else ENTRY if isinstance(node, Entries) else str(part))
        node = found.node
    return (tuple(place), found) if found is not None else None


def _step(node: Node, part: str | int) -> Key | None:
    if isinstance(node, OneOf):
        for form in node.forms:
            found = _step(form, part)
            if found is not None:
                return found
        return None
    if isinstance(node, ListOf) and isinstance(part, int):
        return node.item if isinstance(node.item, Key) else None
    if isinstance(node, Entries) and isinstance(part, str):
        return node.entry if isinstance(node.entry, Key) else None
    if isinstance(node, Rule) and isinstance(part, str) and part in node.keys:
        return node.key(part)
    return None


def expression_of(declared: Key) -> Expression | None:
    """The expression a key's value is written as: its node, or the one of its forms that is an
    expression (`deal.remove`: one set expression for every number of players, or a mapping of
    them); None for a key that is no expression."""
    if isinstance(declared.node, Expression):
        return declared.node
    if isinstance(declared.node, OneOf):
        forms = [form for form in declared.node.forms if isinstance(form, Expression)]
        return forms[0] if len(forms) == 1 else None
    return None
