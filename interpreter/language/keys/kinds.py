"""What a declaration of a key says, and the schema it makes.

A ruleset is a tree of keys. Each key is declared once, as a `Key`: the kind of value it takes
(a `Node`: text, a number, a choice among words, a condition in the rules language, a mapping of
further keys …) with the schema's description, its default (what the compiler applies where it
is not written), and how `tarock diff` and `doc` say its value (`Said`), or why they do not.

A place in the tree is a tuple of parts: a key's name, `*` for an entry of a mapping of named
things (a contract, a phase), `[]` for an item of a list. Written as text: `play.when_void`,
`auction.phases.*.ladder[].holdable`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from interpreter.language.keys.names import NameTable

Schema = dict[str, Any]
Place = tuple[str, ...]

ENTRY = "*"  # an entry of a mapping of named things
ITEM = "[]"  # an item of a list

NAME_PATTERN = "^[a-z][a-z0-9_]*$"
CARD_PATTERN = "^[A-Z][A-Z0-9]*$"
NUMBER_PATTERN = "^[0-9]+$"

DSL_BOOL = 'A condition in the rules language (true/false), e.g. "count(hand & kings) >= 1".'
DSL_INT = 'A formula in the rules language giving a whole number, e.g. "round_up((40 - loser_points) * factor, 10)".'


class _NoDefault:
    """No default: where the key is not written, the rule it states does not apply."""

    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT: Any = _NoDefault()


@dataclass(frozen=True)
class Computed:
    """A default the compiler works out from the rest of the ruleset (a title defaults to the
    name, a level's contract to its call): said in words, not a value."""

    what: str


@dataclass(frozen=True)
class Said:
    """How `tarock diff`, `doc` and `matrix` say a rule: a label and the words for its value.

    `label` may name what the rule belongs to: `{phase}`, `{contract}`, `{call}`, `{bonus}`,
    `{announcement}` (its title), `{entry}` (the name of the entry of the last mapping on the
    way, such as a number of players), `{declarer}` / `{Declarer}` (the lone player, or the
    declarer's side where partners may be called).
    `words`: the words for each value (`{"trump": "must trump"}`), or a pattern with `{value}`
    or `{code}` (the value as code) in it; `text`: the name of a sentence the ethnography writes
    (diff.TEXTS) for a rule said in more than a word; neither: the value as it is.
    `missing`: how the rule reads where a ruleset does not have it. `rule`: the stable name of
    the kind of rule in `tarock diff --json` (default: the place, with its entries left out).
    `phrase`: the words of a value inside a sentence (a contract's own rules of play).
    `whole`: the sentence says everything below the key, and `diff` compares it as one rule."""

    label: str
    words: Mapping[Any, str] | str | None = None
    text: str | None = None
    missing: str = "none"
    rule: str | None = None
    phrase: Mapping[Any, str] | None = None
    whole: bool = False


@dataclass(frozen=True, eq=False)
class Key:
    """One key of the language: its node (the kind of value and its description), its default,
    and its sentence (`said`) or why it has none (`unsaid`)."""

    node: Node
    default: Any = NO_DEFAULT
    said: Said | None = None
    unsaid: str | None = None

    @property
    def literal_default(self) -> bool:
        """Whether the default is a value the compiler applies as it stands."""
        return self.default is not NO_DEFAULT and not isinstance(self.default, Computed)

    def schema(self, required: bool = False) -> Schema:
        out = self.node.schema()
        # A required key is always written: a default there would only mislead an editor.
        if self.literal_default and not required:
            out["default"] = self.default
        return out


def _key(value: Key | Node) -> Key:
    return value if isinstance(value, Key) else Key(value)


@dataclass(frozen=True, eq=False)
class Node:
    """The kind of value of a key, with its description in the schema."""

    description: str = ""

    def schema(self) -> Schema:
        raise NotImplementedError

    def below(self) -> Iterator[tuple[str, Key]]:
        """The keys below this one: (part, key)."""
        return iter(())

    def _described(self, schema: Schema) -> Schema:
        if self.description:
            schema["description"] = self.description
        return schema


@dataclass(frozen=True, eq=False)
class Text(Node):
    """Text; with a pattern, a name of a given form."""

    pattern: str | None = None

    def schema(self) -> Schema:
        out: Schema = {"type": "string"}
        if self.pattern is not None:
            out["pattern"] = self.pattern
        return self._described(out)


def name(description: str = "") -> Text:
    """A name as the language writes names: lower case, digits and _ (a call, a contract, a phase)."""
    return Text(description, NAME_PATTERN)


def card(description: str = "A card id such as T22, HK or C10.") -> Text:
    return Text(description, CARD_PATTERN)


@dataclass(frozen=True, eq=False)
class Choice(Node):
    """One of a few words."""

    values: tuple[Any, ...] = ()

    def schema(self) -> Schema:
        return self._described({"enum": list(self.values)})


@dataclass(frozen=True, eq=False)
class Const(Node):
    value: Any = None

    def schema(self) -> Schema:
        return self._described({"const": self.value})


@dataclass(frozen=True, eq=False)
class Integer(Node):
    minimum: int | None = None
    maximum: int | None = None

    def schema(self) -> Schema:
        out: Schema = {"type": "integer"}
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return self._described(out)


@dataclass(frozen=True, eq=False)
class Boolean(Node):
    def schema(self) -> Schema:
        return self._described({"type": "boolean"})


@dataclass(frozen=True, eq=False)
class Null(Node):
    def schema(self) -> Schema:
        return self._described({"type": "null"})


@dataclass(frozen=True, eq=False)
class Scalar(Node):
    """One of several plain types (a rank: a letter or a number)."""

    types: tuple[str, ...] = ()

    def schema(self) -> Schema:
        return self._described({"type": list(self.types)})


@dataclass(frozen=True, eq=False)
class Anything(Node):
    """Any value: the rules of a patch, checked once they are applied."""

    def schema(self) -> Schema:
        return self._described({})


@dataclass(frozen=True, eq=False)
class Expression(Node):
    """An expression of the rules language: a condition, a formula or a set of cards.
    `names`: what it may read, as one table or several (`(heading, table)`, for expressions
    read differently in different cases); the schema lists them after the description."""

    kind: str = "condition"  # condition | formula | cards
    names: NameTable | tuple[tuple[str, NameTable], ...] | None = None

    def tables(self) -> tuple[tuple[str, NameTable], ...]:
        if self.names is None:
            return ()
        return self.names if isinstance(self.names, tuple) else (("", self.names),)

    def known(self) -> str:
        """'Known: hand, position (0 = first to speak in the phase), …' from the name tables."""
        tables = [(heading, table) for heading, table in self.tables() if table]
        if not tables:
            return ""
        if len(tables) == 1 and not tables[0][0]:
            return f"Known: {tables[0][1].listed()}."
        return "Known, " + "; ".join(f"{heading}: {table.listed()}" for heading, table in tables) + "."

    def schema(self) -> Schema:
        parts = [self.description, self.known(), {"condition": DSL_BOOL, "formula": DSL_INT}.get(self.kind, "")]
        return {"type": "string", "description": " ".join(p for p in parts if p)}


def condition(description: str, names: NameTable | tuple[tuple[str, NameTable], ...] | None = None) -> Expression:
    return Expression(description, "condition", names)


def formula(description: str, names: NameTable | tuple[tuple[str, NameTable], ...] | None = None) -> Expression:
    return Expression(description, "formula", names)


def cards(description: str, names: NameTable | None = None) -> Expression:
    """A set expression (`{T22, T21, T1} | kings`), known when the ruleset loads unless it reads names."""
    return Expression(description, "cards", names)


@dataclass(frozen=True, eq=False)
class Rule(Node):
    """A mapping of keys, closed to any other; a rule carries its provenance (`source`,
    `status`, `note`, `assumed`) unless `provenance` is False."""

    keys: Mapping[str, Key | Node] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    provenance: bool = True
    exactly_one: tuple[str, ...] = ()  # exactly one of these keys is written (a packet: each or talon)

    def __post_init__(self) -> None:
        # Every key a Key, so that each place is one declaration wherever the rule is used.
        object.__setattr__(self, "keys", {k: _key(v) for k, v in self.keys.items()})
        unknown = [k for k in self.required if k not in self.keys]
        if unknown:
            raise ValueError(f"required keys that are not declared: {unknown}")

    def key(self, name: str) -> Key:
        value = self.keys[name]
        assert isinstance(value, Key)
        return value

    def below(self) -> Iterator[tuple[str, Key]]:
        for key_name in self.keys:
            yield key_name, self.key(key_name)

    def schema(self) -> Schema:
        properties = {k: self.key(k).schema(k in self.required) for k in self.keys}
        if self.provenance:
            properties.update(PROVENANCE)
        out: Schema = {"type": "object"}
        self._described(out)
        out["properties"] = properties
        out["additionalProperties"] = False
        if self.required:
            out["required"] = list(self.required)
        if self.exactly_one:
            out["oneOf"] = [{"required": [k]} for k in self.exactly_one]
        return out


@dataclass(frozen=True, eq=False)
class Entries(Node):
    """A mapping of named things (contracts by name, deal plans by number of players); `names`
    is the schema of the names (None: any)."""

    entry: Key | Node = field(default_factory=Anything)
    names: Schema | None = field(default_factory=lambda: {"type": "string", "pattern": NAME_PATTERN})

    def __post_init__(self) -> None:
        object.__setattr__(self, "entry", _key(self.entry))

    def below(self) -> Iterator[tuple[str, Key]]:
        assert isinstance(self.entry, Key)
        yield ENTRY, self.entry

    def schema(self) -> Schema:
        assert isinstance(self.entry, Key)
        out: Schema = {"type": "object"}
        self._described(out)
        if self.names is not None:
            out["propertyNames"] = self.names
        out["additionalProperties"] = self.entry.schema()
        return out


@dataclass(frozen=True, eq=False)
class ListOf(Node):
    item: Key | Node = field(default_factory=Anything)
    min_items: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "item", _key(self.item))

    def below(self) -> Iterator[tuple[str, Key]]:
        assert isinstance(self.item, Key)
        yield ITEM, self.item

    def schema(self) -> Schema:
        assert isinstance(self.item, Key)
        out: Schema = {"type": "array"}
        if self.min_items is not None:
            out["minItems"] = self.min_items
        out["items"] = self.item.schema()
        return self._described(out)


@dataclass(frozen=True, eq=False)
class OneOf(Node):
    """One of several forms (a factor: a number, or won and lost). The keys of the forms that
    are rules are keys of this place."""

    forms: tuple[Node, ...] = ()

    def below(self) -> Iterator[tuple[str, Key]]:
        for form in self.forms:
            yield from form.below()

    def schema(self) -> Schema:
        return self._described({"oneOf": [form.schema() for form in self.forms]})


STATUS = ("attested", "reported", "reconstructed", "assumed")
PROVENANCE: Schema = {
    "source": {
        "type": "string",
        "description": 'Which text says so: a key of `sources`, a colon, and the section (e.g. "dappen-de §10").',
    },
    "status": {
        "enum": list(STATUS),
        "description": "How sure we are: attested (seen played or recorded in the field), reported (told from memory or read in one text), reconstructed (inferred by researchers), assumed (our own choice where the sources are silent).",
    },
    "note": {
        "type": "string",
        "description": "A remark for readers: what the rule means or why it is encoded this way.",
    },
    "assumed": {
        "type": "object",
        "description": "Fields of this rule that are assumptions, each with the reason.",
        "additionalProperties": {"type": "string", "description": "Why this field is assumed."},
    },
}
PROVENANCE_KEYS = frozenset(PROVENANCE)


# -- places -------------------------------------------------------------------------------------


def walk(node: Node, place: Place = ()) -> Iterator[tuple[Place, Key]]:
    """Every key below `node` with its place, depth first in the order declared."""
    for part, key in node.below():
        here = place + (part,)
        yield here, key
        yield from walk(key.node, here)


def place_text(place: Place) -> str:
    """`auction.phases.*.ladder[].holdable`"""
    text = ""
    for part in place:
        text += part if part == ITEM else (f".{part}" if text else part)
    return text


def parse_place(text: str) -> Place:
    """The place `place_text` wrote."""
    place: list[str] = []
    for word in text.split("."):
        items = 0
        while word.endswith(ITEM):
            word, items = word[: -len(ITEM)], items + 1
        place += ([word] if word else []) + [ITEM] * items
    return tuple(place)


# -- keys that are not rules ----------------------------------------------------------------------

DISPLAY = "a display name: looked up beside the rule, not compared"
WORDS = "the words a refusal tells the player: not compared"


def title(description: str = "A display name.", default: Any = NO_DEFAULT) -> Key:
    return Key(Text(description), default=default, unsaid=DISPLAY)


def reason(description: str = "What the refusal tells the player.", default: Any = NO_DEFAULT) -> Key:
    return Key(Text(description), default=default, unsaid=WORDS)
