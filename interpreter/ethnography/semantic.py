"""What a ruleset means, as plain data: the common ground of `tarock diff`, `matrix` and `doc`.

A ruleset is read after inheritance, with its default readings and options applied, and
normalised so that two rulesets that mean the same give equal trees:
- key order and YAML style are gone (the tree is built from parsed data);
- a contract's `like` is resolved and its factor is always `{won, lost}`;
- values a rule may leave out are filled in with the interpreter's defaults;
- lists of named items (auction phases, and any list whose items all carry a unique `name` or
  `id`) become mappings by name that remember their order;
- expressions compare by their syntax tree (`a and b` = `b  and a`, `x > 3` = `3 < x`);
- the pack is compared card by card (order within each suit, points, named sets), however it
  is written;
- titles, notes, sources, statuses, questions and reasons are not meaning: they stay in the
  document and are looked up beside a path (`Side.provenance`).
Sections the language gains later are normalised generically, so they still compare.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path as FilePath
from typing import Any

from interpreter.errors import RulesetError
from interpreter.language.source import Document, Path

TEXT_KEYS = frozenset({"source", "status", "note", "assumed", "title", "question", "reason"})
META_KEYS = frozenset({"title", "sources", "base", "extends"})
EXPRESSION_KEYS = frozenset(
    {
        "when",
        "requires",
        "unless",
        "declarer_wins",
        "amount",
        "pays",
        "others_pay",
        "wins",
        "pays_each",
        "value",
        "cards",
    }
)
STATUSES = ("attested", "reported", "reconstructed", "assumed")  # most certain first
SECTION_ORDER = (
    "family",
    "players",
    "direction",
    "deck",
    "deal",
    "calls",
    "auction",
    "contracts",
    "claim",
    "announcements",
    "play",
    "counting",
    "settlement",
)
CHOICE_SECTIONS = ("readings", "options")
EFFECT_SECTIONS = ("by_players", *CHOICE_SECTIONS)  # patches, described by what they change


class _Missing:
    """A rule one side does not have."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()


class Expr:
    """An expression of the rules language: shown as written, compared by its syntax tree."""

    __slots__ = ("key", "text")

    def __init__(self, text: str):
        self.text = " ".join(str(text).split())
        self.key = canonical_expression(str(text))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Expr) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Expr({self.text!r})"

    def __str__(self) -> str:
        return self.text


class Named(dict):
    """A list of named items turned into a mapping by name; equal only in the same order."""

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Named):
            return dict.__eq__(self, other) and list(self) == list(other)
        return dict.__eq__(self, other) if isinstance(other, dict) else NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = None  # type: ignore[assignment]


# -- expressions ----------------------------------------------------------------------------------

_FLATTEN = {"and", "or", "|", "&", "+", "*"}  # associative and commutative
_SYMMETRIC = {"==", "!="}
_MIRROR = {">": "<", ">=": "<="}


def canonical_expression(text: str) -> Any:
    """A hashable form of an expression that ignores spacing, parentheses and operand order."""
    from interpreter.language.dsl.errors import DslError
    from interpreter.language.dsl.parser import parse

    try:
        return _canon(parse(text))
    except (DslError, RecursionError):
        return ("text", " ".join(text.split()))


def _canon(node: Any) -> Any:
    from interpreter.language.dsl import nodes as n

    if isinstance(node, n.Integer):
        return ("int", node.value)
    if isinstance(node, n.String):
        return ("str", node.value)
    if isinstance(node, n.Boolean):
        return ("bool", node.value)
    if isinstance(node, n.Card):
        return ("card", node.card)
    if isinstance(node, n.Name):
        return ("name", node.name)
    if isinstance(node, n.Call):
        return ("call", node.function, tuple(_canon(a) for a in node.args))
    if isinstance(node, n.SetLiteral):
        return ("set", tuple(sorted({_canon(i) for i in node.items}, key=repr)))
    if isinstance(node, n.Unary):
        return ("unary", node.op, _canon(node.operand))
    if isinstance(node, n.Binary):
        if node.op in _FLATTEN:
            parts: list[Any] = []
            for side in (node.left, node.right):
                c = _canon(side)
                if c[0] == "flat" and c[1] == node.op:
                    parts.extend(c[2])
                else:
                    parts.append(c)
            return ("flat", node.op, tuple(sorted(parts, key=repr)))
        left, right = _canon(node.left), _canon(node.right)
        if node.op in _SYMMETRIC:
            return ("binary", node.op, *sorted((left, right), key=repr))
        if node.op in _MIRROR:
            return ("binary", _MIRROR[node.op], right, left)
        return ("binary", node.op, left, right)
    if isinstance(node, n.Conditional):
        return ("if", _canon(node.condition), _canon(node.then), _canon(node.otherwise))
    if isinstance(node, n.Quantifier):
        return ("quantifier", node.kind, node.variable, _canon(node.source), _canon(node.body))
    return ("node", repr(node))


# -- provenance -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Provenance:
    source: str | None
    status: str | None
    via: str | None = None  # "reading solo_factor: leaflet" when a choice set the rule
    assumed: str | None = None  # the reason, when the field is marked assumed
    file: str | None = None  # where the rule is written
    line: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "status": self.status,
            "via": self.via,
            "assumed": self.assumed,
            "file": self.file,
            "line": self.line,
        }

    def describe(self) -> str:
        parts = [self.source or "no source given", self.status or "no status"]
        if self.via:
            parts.append(self.via)
        if self.assumed:
            parts.append(f"assumed: {self.assumed}")
        text = "; ".join(parts)
        if self.file:
            text += f" ({self.file}{f':{self.line}' if self.line else ''})"
        return text


def least_certain(statuses: Iterable[str | None]) -> str | None:
    known = [s for s in statuses if s in STATUSES]
    return max(known, key=STATUSES.index) if known else None


# -- one ruleset, read for comparison --------------------------------------------------------------


@dataclass
class Side:
    """One ruleset as `diff`, `matrix` and `doc` see it."""

    ref: str
    name: str
    doc: Document  # after inheritance, with the readings and options chosen
    choices: dict[str, str]
    tree: dict[str, Any]
    deck: Any = None  # the compiled Deck (None if the pack does not compile)
    removed: dict[str, list[str]] = field(default_factory=dict)
    raw: Document | None = None  # before readings and options were applied

    @property
    def data(self) -> dict[str, Any]:
        return self.doc.data

    def title(self) -> str:
        return str(self.data.get("title") or self.name)

    # titles of named things, for sentences
    def contract_title(self, name: str) -> str:
        entry = (self.data.get("contracts") or {}).get(name)
        seen: set[str] = set()
        while isinstance(entry, dict) and "title" not in entry and entry.get("like") and entry["like"] not in seen:
            seen.add(entry["like"])
            entry = (self.data.get("contracts") or {}).get(entry["like"])
        return str(entry.get("title")) if isinstance(entry, dict) and entry.get("title") else name

    def call_title(self, name: str) -> str | None:
        entry = (self.data.get("calls") or {}).get(name)
        return str(entry["title"]) if isinstance(entry, dict) and entry.get("title") else None

    def phase_title(self, name: str) -> str:
        phases = (self.data.get("auction") or {}).get("phases") or []
        if isinstance(phases, dict):
            phase = phases.get(name)
            return str(phase.get("title") or name) if isinstance(phase, dict) else name
        for phase in phases:
            if isinstance(phase, dict) and phase.get("name") == name:
                return str(phase.get("title") or name)
        return name

    def entry_title(self, section: str, name: str) -> str | None:
        entry = (self.data.get(section) or {}).get(name)
        return str(entry["title"]) if isinstance(entry, dict) and entry.get("title") else None

    def question(self, section: str, name: str) -> str | None:
        entry = (self.data.get(section) or {}).get(name)
        if isinstance(entry, dict):
            return entry.get("question") or entry.get("title")
        return None

    # where a rule stands in the document
    def doc_path(self, path: Path) -> Path:
        """The place in the merged document that a path of the tree comes from."""
        data = self.data
        if path[:1] == ("deck",):
            if path[1:2] == ("points",):
                return ("deck", "points")
            if path[1:2] == ("sets",) and len(path) > 2:
                for where in ("sets", "rank_sets"):
                    if path[2] in ((data.get("deck") or {}).get(where) or {}):
                        return ("deck", where, path[2])
            if path[1:2] == ("suits",) and len(path) > 2:
                for i, suit in enumerate((data.get("deck") or {}).get("suits") or []):
                    if isinstance(suit, dict) and suit.get("id") == path[2]:
                        return ("deck", "suits", i)
                if path[2] == "T":
                    return ("deck", "trumps")
            return ("deck",)
        if path[:1] == ("contracts",) and len(path) >= 3:
            contracts = data.get("contracts") or {}
            name, seen = path[1], {path[1]}
            while True:
                own = contracts.get(name)
                if not isinstance(own, dict) or path[2] in own or not own.get("like") or own["like"] in seen:
                    break
                name = own["like"]
                seen.add(name)
            return ("contracts", name) + tuple(path[2:])
        result: list[str | int] = []
        node: Any = data
        for part in path:
            if isinstance(node, list) and isinstance(part, str):
                index = _index_by_name(node, part)
                if index is None:
                    break
                result.append(index)
                node = node[index]
            elif isinstance(node, dict) and part in node:
                result.append(part)
                node = node[part]
            else:
                result.append(part)
                node = None
        return tuple(result)

    def provenance(self, path: Path) -> Provenance:
        """The source and status of a rule: those of the chosen reading or option that set it, or
        else the nearest enclosing `source:` and `status:` written in the same file as the rule
        (a field listed under `assumed:` is assumed). A rule a variant sets without a source of
        its own has none: its base's source does not vouch for the variant's value."""
        dpath = self.doc_path(path)
        via = self._chosen_for(dpath)
        if via is not None:
            return via
        chain: list[tuple[Path, Any, Any]] = []  # (path of the node, node, the key below it)
        node: Any = self.data
        here: Path = ()
        for part in dpath:
            if (isinstance(node, dict) and part in node) or (
                isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
            ):
                chain.append((here, node, part))
                node = node[part]
            else:
                break
            here = here + (part,)
        chain.append((here, node, None))
        # Positions as written (a reading's patch would otherwise claim the rules it touches).
        marks = lambda p: (self.raw.marks.get(p) if self.raw is not None else None) or self.doc.marks.get(p)  # noqa: E731
        mark = marks(here)
        file = mark.file if mark else None
        same_file = lambda p: file is None or (marks(p) is not None and marks(p).file == file)  # noqa: E731
        source = status = assumed = None
        for at, node, below in reversed(chain):
            if not isinstance(node, dict):
                continue
            reasons = node.get("assumed")
            if (
                status is None
                and below is not None
                and isinstance(reasons, dict)
                and below in reasons
                and same_file(at + ("assumed", below))
            ):
                status, assumed = "assumed", str(reasons[below])
            if status is None and isinstance(node.get("status"), str) and same_file(at + ("status",)):
                status = node["status"]
            if source is None and isinstance(node.get("source"), str) and same_file(at + ("source",)):
                source = node["source"]
            if source is not None and status is not None:
                break
        if is_atomic(tuple(path)):
            # A rule made of named parts (compulsory bids, liable payers) is vouched for by its parts.
            inner = self._parts_provenance(chain[-1][1], here, marks, file)
            if inner is not None:
                source, status = inner
        return Provenance(source, status, None, assumed, file, mark.line if mark else None)

    def _parts_provenance(self, node: Any, here: Path, marks: Any, file: str | None) -> tuple[str, str | None] | None:
        if isinstance(node, dict) and "source" not in node:
            parts = [(here + (k,), v) for k, v in node.items()]
        elif isinstance(node, list):
            parts = [(here + (i,), v) for i, v in enumerate(node)]
        else:
            return None
        sources, statuses = [], []
        for at, part in parts:
            if isinstance(part, dict) and isinstance(part.get("source"), str):
                mark = marks(at + ("source",))
                if file is None or (mark is not None and mark.file == file):
                    sources.append(part["source"])
                    statuses.append(part.get("status"))
        if not sources:
            return None
        return "; ".join(dict.fromkeys(sources)), least_certain(statuses)

    def _chosen_for(self, dpath: Path) -> Provenance | None:
        for section in CHOICE_SECTIONS:
            for group, definition in (self.data.get(section) or {}).items():
                if not isinstance(definition, dict):
                    continue
                choice = self.choices.get(group, definition.get("default"))
                body = (definition.get("choices") or {}).get(choice)
                if not isinstance(body, dict) or not isinstance(body.get("rules"), dict):
                    continue
                patched = list(leaves(body["rules"]))
                if any(leaf and tuple(dpath[: len(leaf)]) == leaf for leaf in patched) or _covers(
                    patched, dpath, get_path(self.data, dpath)
                ):
                    root = (section, group, "choices", choice)
                    mark = self.doc.marks.get(root)
                    return Provenance(
                        body.get("source") or definition.get("source"),
                        body.get("status") or definition.get("status"),
                        f"{section[:-1]} {group}: {choice}",
                        None,
                        mark.file if mark else None,
                        mark.line if mark else None,
                    )
        return None


def _covers(patched: list[Path], dpath: Path, value: Any) -> bool:
    """Whether a choice's patch sets every rule of `value` (the data at dpath)."""
    if not dpath or not isinstance(value, dict) or set(value) & TEXT_KEYS:
        return False  # only a plain value (a factor's won/lost), not a rule with its own provenance
    own = [dpath + leaf for leaf in leaves(value) if not set(leaf) & TEXT_KEYS]
    return bool(own) and all(any(p[: len(leaf)] == leaf for p in patched) for leaf in own)


def _index_by_name(items: list, name: str) -> int | None:
    for i, item in enumerate(items):
        if isinstance(item, dict) and any(item.get(k) == name for k in ("name", "id", "call")):
            return i
    return None


def leaves(data: Any, path: Path = ()) -> Iterable[Path]:
    if isinstance(data, dict) and data:
        for key, value in data.items():
            yield from leaves(value, path + (key,))
    else:
        yield path


def display_name(ref: str) -> str:
    return FilePath(ref).stem if ref.endswith((".yaml", ".yml")) else ref


def read(ref: str, options: Mapping[str, str] | None = None, name: str | None = None) -> Side:
    """A ruleset by name or path, after inheritance, with readings and options applied
    (the defaults where `options` names none), and its normalised tree."""
    from interpreter.language.loader import apply_choices, resolve

    raw = resolve(ref)
    doc, full = apply_choices(raw, options or {})
    return side_of(doc, full, ref, name, raw)


def side_of(
    doc: Document, choices: dict[str, str], ref: str, name: str | None = None, raw: Document | None = None
) -> Side:
    """A Side from a document with its choices applied; with `raw` (the document before them),
    each reading and option is described by what its choices change."""
    deck, removed = _deck_semantics(doc)
    side = Side(
        ref,
        name or display_name(ref),
        doc,
        dict(choices),
        {},
        deck,
        {k: sorted(v, key=_order(deck)) for k, v in removed.items()},
        raw,
    )
    side.tree = normalise(side)
    return side


def _order(deck: Any):
    index = {c: i for i, c in enumerate(deck.cards)} if deck is not None else {}
    return lambda card: (index.get(card, len(index)), card)


def _deck_semantics(doc: Document) -> tuple[Any, dict[str, frozenset[str]]]:
    """The pack as the interpreter builds it, and the cards removed per player count."""
    from interpreter.language.compiler import Compiler
    from interpreter.language.dsl import Type

    if not isinstance(doc.data.get("deck"), dict):
        return None, {}
    try:
        compiler = Compiler(doc, "", {})
        compiler.deck = compiler.compile_deck()
        compiler.constants = {c: (Type.CARD, c) for c in compiler.deck.cards}
        compiler.constants.update({n: (Type.CARDS, s) for n, s in compiler.deck.sets.items()})
        compiler.compile_deck_sets()
        removed = {}
        for key in (doc.data.get("deal") or {}).get("remove") or {}:
            expr = compiler.expression(("deal", "remove", key), {}, Type.CARDS)
            if expr is not None:
                removed[str(key)] = frozenset(expr({}))
        return compiler.deck, removed
    except Exception:  # a pack that does not compile is compared as written
        return None, {}


# -- normalisation ---------------------------------------------------------------------------------


def generic(value: Any, key: str | None = None) -> Any:
    """Any rule without its text fields; named lists become `Named` mappings; expressions `Expr`."""
    if isinstance(value, dict):
        return {k: generic(v, k) for k, v in value.items() if k not in TEXT_KEYS}
    if isinstance(value, list):
        name_key = _name_key(value)
        if name_key is not None:
            return Named((item[name_key], generic({k: v for k, v in item.items() if k != name_key})) for item in value)
        return [generic(item, key) for item in value]
    if isinstance(value, str) and key in EXPRESSION_KEYS:
        return Expr(value)
    return value


def _name_key(items: list) -> str | None:
    if not items or not all(isinstance(i, dict) for i in items):
        return None
    for key in ("name", "id"):
        names = [i.get(key) for i in items]
        if all(isinstance(n, str) for n in names) and len(set(names)) == len(names):
            return key
    return None


def _fill(data: dict, defaults: dict) -> dict:
    for key, value in defaults.items():
        data.setdefault(key, value)
    return data


PLAY_DEFAULTS = {"first_lead": "declarer", "follow_suit": True, "when_void": "trump", "must_beat": False}
COUNTING_DEFAULTS = {"packet": 1, "packet_deduct": 0, "remainder_deduct": 0}
SETTLEMENT_DEFAULTS = {"unit": "point", "payment": "each_defender", "sitting_out": "no_part"}


def normalise(side: Side) -> dict[str, Any]:
    data = side.data
    tree: dict[str, Any] = {}
    keys = (
        [k for k in SECTION_ORDER if k in data]
        + sorted(
            k
            for k in data
            if k not in SECTION_ORDER and k not in META_KEYS and k not in TEXT_KEYS and k not in EFFECT_SECTIONS
        )
        + [k for k in EFFECT_SECTIONS if k in data]
    )
    for key in keys:
        value = data[key]
        if value is None or (key in EFFECT_SECTIONS and side.raw is None):
            continue
        handler = _SECTIONS.get(key)
        try:
            tree[key] = handler(value, side) if handler and isinstance(value, dict) else generic(value, key)
        except Exception:  # a shape the handler does not expect (an invalid file): compare it as written
            tree[key] = generic(value, key)
    return tree


def _players(value: dict, side: Side) -> dict:
    out = generic(value)
    out["active"] = sorted(set(value.get("active") or []))
    out["dealer_sits_out"] = sorted(set(value.get("dealer_sits_out") or []))
    return out


def _deck(value: dict, side: Side) -> dict:
    deck = side.deck
    if deck is None:
        return generic(value)
    known = {"title", "trumps", "suits", "rank_titles", "rank_sets", "points", "sets"}
    out: dict[str, Any] = {}
    suits: dict[str, list[str]] = {}
    for card in deck.cards:
        suits.setdefault(deck.suit[card], []).append(card)
    out["suits"] = {sid: sorted(cards, key=lambda c: -deck.rank[c]) for sid, cards in suits.items()}
    out["suit_names"] = {sid: name for sid, name in deck.suit_names.items() if sid in suits and sid != "T"}
    out["points"] = dict(deck.points)
    automatic = {"cards", "trumps", *deck.suit_names.values()}
    order = _order(deck)
    out["sets"] = {name: sorted(cards, key=order) for name, cards in deck.sets.items() if name not in automatic}
    out.update({k: generic(v, k) for k, v in value.items() if k not in known and k not in TEXT_KEYS})
    return out


def _deal(value: dict, side: Side) -> dict:
    out = generic(value)
    out["plans"] = {str(n): [generic(p) for p in plan] for n, plan in (value.get("plans") or {}).items()}
    if value.get("remove") is not None:
        out["remove"] = {str(n): side.removed.get(str(n), Expr(str(v))) for n, v in value["remove"].items()}
    return out


def _auction(value: dict, side: Side) -> dict:
    out = generic(value)
    raw = value.get("phases")
    items = (
        list(raw.items())
        if isinstance(raw, dict)
        else [(p.get("name") or f"#{i + 1}", p) for i, p in enumerate(raw or []) if isinstance(p, dict)]
    )
    phases: dict[str, Any] = {}
    for name, phase in items:
        if not isinstance(phase, dict):
            continue
        p = generic({k: v for k, v in phase.items() if k != "name"})
        ladder = []
        for level in phase.get("ladder") or []:
            lv = generic(level)
            if isinstance(lv, dict):
                lv.setdefault("contract", lv.get("call"))
                lv.setdefault("holdable", True)
            ladder.append(lv)
        p["ladder"] = ladder
        p.setdefault("raise", "next")
        # Compulsory bids are named only so that a variant can remove one: compared without names.
        compulsory = p.get("compulsory") or {}
        rules = list(compulsory.values()) if isinstance(compulsory, dict) else list(compulsory)
        p["compulsory"] = sorted(
            rules,
            key=lambda r: (
                repr(sorted((k, v.key if isinstance(v, Expr) else v) for k, v in r.items()))
                if isinstance(r, dict)
                else repr(r)
            ),
        )
        then = p.setdefault("then", {})
        if isinstance(then, dict):
            then.setdefault("pass_out", "throw_in")
            then.setdefault("after", {})
        phases[str(name)] = p
    # Which phase opens the auction is meaning; the order phases are written in is not.
    out["phases"] = phases
    if items:
        out["first"] = value.get("first") or str(items[0][0])
    out.setdefault("breaches", "refuse")
    return out


def contract_rules(contracts: dict, name: str, seen: tuple[str, ...] = ()) -> dict:
    """A contract's rules with `like` resolved (the other contract's rules, then its own)."""
    raw = contracts.get(name)
    if not isinstance(raw, dict):
        return {}
    parent = raw.get("like")
    if not parent or parent not in contracts or parent in seen or parent == name:
        return {k: v for k, v in raw.items() if k != "like"}
    merged = dict(contract_rules(contracts, parent, seen + (name,)))
    merged.update({k: v for k, v in raw.items() if k != "like"})
    return merged


def factor_of(value: Any) -> dict[str, Any] | None:
    if isinstance(value, dict):
        return {"won": value.get("won"), "lost": value.get("lost")}
    if value is None:
        return None
    return {"won": value, "lost": value}


def _contracts(value: dict, side: Side) -> dict:
    settlement = side.data.get("settlement") or {}
    out = {}
    for name in value:
        rules = contract_rules(value, name)
        c = generic(rules)
        factor = factor_of(rules.get("factor"))
        if factor is not None:
            c["factor"] = factor
        c["exchange"] = [generic(step) for step in rules.get("exchange") or []]
        for key in ("declarer_wins", "amount"):
            # the contract's own formula only where it differs from the settlement's
            if key in c and isinstance(settlement.get(key), str) and c[key] == Expr(settlement[key]):
                del c[key]
        out[name] = c
    return out


def _claim(value: dict, side: Side) -> dict:
    return _fill(generic(value), {"scores_as": "march", "liable": True})


def _play(value: dict, side: Side) -> dict:
    out = _fill(generic(value), PLAY_DEFAULTS)
    if isinstance(out.get("withhold"), dict):
        out["withhold"].setdefault("by", "defenders")
    return out


def _counting(value: dict, side: Side) -> dict:
    out = _fill(generic(value), COUNTING_DEFAULTS)
    aside = out.get("aside") if isinstance(out.get("aside"), dict) else {}
    out["aside"] = _fill(aside, {"counts_for": "declarer"})
    return out


def _settlement(value: dict, side: Side) -> dict:
    return _fill(generic(value), SETTLEMENT_DEFAULTS)


def _choices(value: dict, side: Side) -> dict:
    """Each reading or option: its default, and for each choice what it makes the rules say,
    at every place where its choices differ (the effect, not the patch as written)."""
    from interpreter.language.loader import apply_choices

    out = {}
    for name, group in value.items():
        if not isinstance(group, dict):
            continue
        g = generic({k: v for k, v in group.items() if k != "choices"})
        trees: dict[str, Any] = {}
        for choice in group.get("choices") or {}:
            try:
                doc, full = apply_choices(side.raw, {**side.choices, name: str(choice)})
                trees[str(choice)] = side_of(doc, full, side.ref, side.name).tree
            except RulesetError:
                trees[str(choice)] = {}
        paths: dict[Path, None] = {}
        first = next(iter(trees.values()), {})
        for tree in trees.values():
            for path, _, _ in differences(first, tree):
                paths.setdefault(path, None)
        g["choices"] = {choice: {path: get_path(tree, path) for path in paths} for choice, tree in trees.items()}
        out[name] = g
    return out


def _by_players(value: dict, side: Side) -> dict:
    """Rules of their own for a number of players: what they change, as for a choice."""
    from interpreter.language import loader

    apply_players = getattr(loader, "apply_players", None)
    out = {}
    for count, entry in value.items():
        if not isinstance(entry, dict):
            continue
        g = generic({k: v for k, v in entry.items() if k != "rules"})
        effects: dict[Path, Any] = {}
        if apply_players is not None and str(count).isdigit():
            patched = side_of(apply_players(side.doc, int(count)), side.choices, side.ref, side.name).tree
            plain = side_of(side.doc, side.choices, side.ref, side.name).tree
            effects = {path: get_path(patched, path) for path, _, _ in differences(plain, patched)}
        g["effects"] = effects
        out[str(count)] = g
    return out


def get_path(tree: Any, path: Path) -> Any:
    for part in path:
        if isinstance(tree, dict) and part in tree:
            tree = tree[part]
        else:
            return MISSING
    return tree


_SECTIONS = {
    "players": _players,
    "deck": _deck,
    "deal": _deal,
    "auction": _auction,
    "contracts": _contracts,
    "claim": _claim,
    "play": _play,
    "counting": _counting,
    "settlement": _settlement,
    "readings": _choices,
    "options": _choices,
    "by_players": _by_players,
}


# -- differences -------------------------------------------------------------------------------------

# Rules compared whole: a change anywhere inside is one change of the rule (a factor, a ladder).
ATOMIC: tuple[Path, ...] = (
    ("deck", "points"),
    ("auction", "phases", "*", "ladder"),
    ("auction", "phases", "*", "compulsory"),
    ("auction", "phases", "*", "then", "after"),
    ("contracts", "*", "factor"),
    ("contracts", "*", "exchange"),
    ("claim",),
    ("announcements", "*"),
    ("play", "withhold"),
    ("play", "schedule"),
    ("counting", "aside"),
    ("settlement", "liable"),
    ("readings", "*", "choices", "*"),
    ("options", "*", "choices", "*"),
    ("by_players", "*", "effects"),
)


def matches(pattern: Path, path: Path) -> bool:
    return len(pattern) == len(path) and all(p == "*" or p == q for p, q in zip(pattern, path, strict=False))


def is_atomic(path: Path) -> bool:
    return any(matches(pattern, path) for pattern in ATOMIC)


def differences(a: Any, b: Any, path: Path = ()) -> list[tuple[Path, Any, Any]]:
    """Where two trees differ: (path, value in a, value in b), MISSING where one has nothing.
    Mappings are compared key by key; anything else, and the rules in ATOMIC, whole."""
    out: list[tuple[Path, Any, Any]] = []
    _walk(path, a, b, out)
    return out


# Mappings of named things: where one ruleset has none at all, each thing the other has is
# reported on its own ("Announcement Ulti: absent in …"), not the section as a whole.
COLLECTIONS: tuple[Path, ...] = (
    ("calls",),
    ("contracts",),
    ("announcements",),
    ("readings",),
    ("options",),
    ("auction", "phases"),
    ("deck", "sets"),
    ("by_players",),
)


def _walk(path: Path, a: Any, b: Any, out: list) -> None:
    if a == b:
        return
    if path in COLLECTIONS and (a is MISSING or b is MISSING) and isinstance(a if b is MISSING else b, dict):
        a, b = ({} if a is MISSING else a), ({} if b is MISSING else b)
    if is_atomic(path) or not (isinstance(a, dict) and isinstance(b, dict)):
        out.append((path, a, b))
        return
    if isinstance(a, Named) and isinstance(b, Named):
        common_a, common_b = [k for k in a if k in b], [k for k in b if k in a]
        if common_a != common_b:
            out.append((path, list(a), list(b)))
    for key in list(a) + [k for k in b if k not in a]:
        _walk(path + (key,), a.get(key, MISSING), b.get(key, MISSING), out)
