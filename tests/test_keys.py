"""Every key of the language is declared once (interpreter/language/keys/), and what is made from
the declarations agrees with them: the schema has exactly the declared keys; the compiler applies
each declared default, reads every other value, and defaults nothing it does not declare; it
checks each expression against the names declared for its place; every key has a sentence in
`tarock diff` and `doc`, or says why it has none."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
import pkgutil
import string
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import interpreter.language.compiler as compiler_module
import interpreter.language.keys as keys_package
from interpreter.errors import RulesetError
from interpreter.ethnography.diff import TEXTS, key_templates
from interpreter.language.keys import ENTRY, ITEM, ROOT, Computed, Key, Place, place_text, places
from interpreter.language.keys.kinds import (
    PROVENANCE_KEYS,
    Boolean,
    Choice,
    Const,
    Entries,
    Node,
    OneOf,
    Rule,
)
from interpreter.language.loader import compile_document, load_ruleset, resolve, ruleset_names
from interpreter.language.model import Ruleset
from interpreter.language.source import Document, parse_path

SCHEMA = json.loads((Path(__file__).parent.parent / "schema" / "ruleset.schema.json").read_text(encoding="utf-8"))
DECLARED = dict(places())

# -- the schema ------------------------------------------------------------------------------------


def _schema_places(node: Any, place: Place = ()) -> Iterator[Place]:
    """Every key the schema allows, as a place (provenance aside: every rule has it)."""
    if not isinstance(node, dict):
        return
    for form in node.get("oneOf", ()):
        yield from _schema_places(form, place)
    if isinstance(node.get("items"), dict):
        yield place + (ITEM,)
        yield from _schema_places(node["items"], place + (ITEM,))
    for name, sub in (node.get("properties") or {}).items():
        if name not in PROVENANCE_KEYS:
            yield place + (name,)
            yield from _schema_places(sub, place + (name,))
    if isinstance(node.get("additionalProperties"), dict):
        yield place + (ENTRY,)
        yield from _schema_places(node["additionalProperties"], place + (ENTRY,))


def test_every_key_of_the_schema_is_declared_once_and_every_declaration_is_in_the_schema() -> None:
    declared = [place for place, _ in places()]
    assert len(declared) == len(set(declared)), "two declarations at one place"
    in_schema = set(_schema_places(SCHEMA))
    assert sorted(map(place_text, in_schema - set(declared))) == [], "keys of the schema that are not declared"
    assert sorted(map(place_text, set(declared) - in_schema)) == [], "declarations the schema does not have"


def _keys_in(value: Any, found: dict[int, Key], seen: set[int]) -> None:
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, Key):
        found[id(value)] = value
        _keys_in(value.node, found, seen)
    elif isinstance(value, Node):
        for _, key in value.below():
            _keys_in(key, found, seen)
        if isinstance(value, OneOf):
            for form in value.forms:
                _keys_in(form, found, seen)
    elif isinstance(value, dict):
        for item in value.values():
            _keys_in(item, found, seen)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _keys_in(item, found, seen)


def test_no_declaration_is_left_out_of_the_language() -> None:
    """A key declared in a module of interpreter/language/keys but put in no rule would be in no
    schema and read by no compiler: a word written and lost."""
    declared: dict[int, Key] = {}
    for module in pkgutil.iter_modules(keys_package.__path__):
        loaded = importlib.import_module(f"{keys_package.__name__}.{module.name}")
        for value in vars(loaded).values():
            _keys_in(value, declared, set())
    reachable = {id(key) for _, key in places()}
    lost = [key for key_id, key in declared.items() if key_id not in reachable]
    assert lost == [], f"declared but in no rule: {[key.node.description[:60] for key in lost]}"


# -- sentences ---------------------------------------------------------------------------------


def _a_mapping(node: Node) -> bool:
    """Whether the keys below a node are rules of their own in the compared tree (a list, a
    number, a word is one value: its sentence says it whole)."""
    if isinstance(node, OneOf):
        return any(_a_mapping(form) for form in node.forms)
    return isinstance(node, (Rule, Entries))


def _unsaid(node: Node, place: Place = ()) -> Iterator[Place]:
    """The keys below `node` that have no sentence, stand in no rule said whole, and do not say
    why they have none."""
    for part, key in node.below():
        here = place + (part,)
        if key.unsaid is not None:
            continue  # with everything below it
        if key.said is not None and (key.said.whole or not _a_mapping(key.node)):
            continue
        if key.said is None and not _a_mapping(key.node):
            yield here
            continue
        yield from _unsaid(key.node, here)


def test_every_key_has_a_sentence_or_says_why_not() -> None:
    missing = [place_text(p) for p in _unsaid(ROOT)]
    assert missing == [], f"declare a sentence (said=Said(...)) or why there is none (unsaid=...): {missing}"


def test_no_key_both_has_a_sentence_and_says_why_it_has_none() -> None:
    both = [place_text(p) for p, key in places() if key.said is not None and key.unsaid is not None]
    assert both == []


LABEL_FIELDS = {"phase", "contract", "call", "bonus", "announcement", "entry", "declarer", "Declarer"}


def test_the_sentences_the_declarations_name_are_written() -> None:
    named = {key.said.text for _, key in places() if key.said is not None and key.said.text is not None}
    assert sorted(named - set(TEXTS)) == [], "sentences the declarations name that diff.TEXTS does not have"
    assert sorted(set(TEXTS) - named) == [], "sentences in diff.TEXTS no declaration names"
    for place, key in places():
        if key.said is None:
            continue
        fields = {name for _, name, _, _ in string.Formatter().parse(key.said.label) if name}
        assert fields <= LABEL_FIELDS, f"{place_text(place)}: unknown fields in its label {fields - LABEL_FIELDS}"
        words = key.said.words
        if isinstance(words, str):
            words.format(value="x", code="`x`")  # only {value} and {code}
        assert not (words is not None and key.said.text is not None), f"{place_text(place)}: words or a text"


def test_every_sentence_is_a_template_of_diff() -> None:
    templates = {t.pattern: t for t in key_templates()}
    for place, key in places():
        if key.said is not None:
            assert place in templates, place_text(place)
            assert templates[place].missing == key.said.missing


# -- defaults: written out, a declared default changes nothing; any other value changes the rules ----


@cache
def _documents() -> dict[str, Document]:
    """Every shipped ruleset merged, without its readings, options and rules for a number of
    players (each patches the rules, and would hide a key changed beneath it)."""
    out = {}
    for name in ruleset_names():
        doc = resolve(name, playable=True)
        data = {k: v for k, v in doc.data.items() if k not in ("readings", "options", "by_players")}
        out[name] = dataclasses.replace(doc, data=data)
    # Places no shipped ruleset has a rule at: a combination in a hand that reads only what a
    # side's bonus reads too, so that it may be judged either way.
    breitnau = out["breitnau"]
    data = copy.deepcopy(breitnau.data)
    data["bonuses"] = {"fixture": {"achieved": "players > 2", "value": "1"}}
    out["fixture-bonus"] = dataclasses.replace(breitnau, data=data)
    # Cards kept back for a trick of their own, a word only a test fixture writes
    # (tests/rulesets/breitnau-keep-back.yaml): in the ruleset's play and in a contract's own.
    data = copy.deepcopy(breitnau.data)
    data["play"]["keep_back"] = [{"cards": "{T1}"}]
    contract = next(iter(data["contracts"].values()))
    contract["play"] = {**contract.get("play", {}), "keep_back": [{"cards": "{T1}"}]}
    out["fixture-keep-back"] = dataclasses.replace(breitnau, data=data)
    # What a throw-in costs (tests/rulesets/tapp-thrown-in-pot.yaml), into a pot the table keeps.
    data = copy.deepcopy(breitnau.data)
    data["pot_ante"] = "0"
    data["auction"]["thrown_in"] = {"payer": "dealer", "pays": "1", "to": "pot"}
    out["fixture-thrown-in"] = dataclasses.replace(breitnau, data=data)
    # A call put to the dealer (tests/rulesets/breitnau-redeal-asked.yaml).
    data = copy.deepcopy(breitnau.data)
    data["calls"] = {**data["calls"], "neu": {}, "ja": {}, "nein": {}}
    answer = {"by": "dealer", "accept": "ja", "refuse": "nein"}
    data["auction"]["phases"]["solo_round"]["interrupts"] = [{"call": "neu", "ends": "throw_in", "answered_by": answer}]
    data["auction"]["phases"]["solo_round"]["ladder"] = [{"call": "solo", "answered_by": answer}]
    out["fixture-proposal"] = dataclasses.replace(breitnau, data=data)
    # Play that ends early once the contract is decided, a word only a test fixture writes
    # (tests/rulesets/koenigrufen-bettel-ends-early.yaml): in the ruleset's play and in a contract's own.
    data = copy.deepcopy(breitnau.data)
    data["play"]["ends_early"] = {"when": "defender_tricks > 0"}
    contract = next(iter(data["contracts"].values()))
    contract["play"] = {**contract.get("play", {}), "ends_early": {"when": "declarer_tricks > 0"}}
    out["fixture-ends-early"] = dataclasses.replace(breitnau, data=data)
    # A withheld card going with the last trick, which no shipped ruleset says
    # (tests/rulesets/cego-raeuber-gstiess-withheld.yaml has the other value): with nothing to make up.
    furtwangen = out["furtwangen"]
    data = copy.deepcopy(furtwangen.data)
    data["play"]["withhold"]["compensation"] = {"gives": "none"}
    out["fixture-withhold"] = dataclasses.replace(furtwangen, data=data)
    # The Excuse, which no shipped ruleset plays (tests/rulesets/koenigrufen-excuse.yaml does):
    # with nothing to make up, so that `goes_to: trick` compiles too.
    data = copy.deepcopy(breitnau.data)
    data["play"]["excuse"] = {"card": "T22"}
    out["fixture-excuse"] = dataclasses.replace(breitnau, data=data)
    # A score sheet, which no shipped ruleset keeps.
    data = copy.deepcopy(breitnau.data)
    data["session"] = {"sheet": {"score": "payment"}}
    out["fixture-sheet"] = dataclasses.replace(breitnau, data=data)
    # Knocking answered at once: Dreierles, whose round of its own chooses among the options
    # taken away here (its reading knock_answer is the one to use the word).
    data = copy.deepcopy(out["dreierles"].data)
    del data["session"]
    out["fixture-knocking"] = dataclasses.replace(out["dreierles"], data=data)
    # A round of its own chooses among the ruleset's options, which the others here are without.
    cego = resolve("cego", playable=True)
    data = copy.deepcopy(cego.data)
    data["session"] = {"special_rounds": {"fixture": {"options": {"pflicht_raeuber": "compulsory"}}}}
    out["fixture-round"] = dataclasses.replace(cego, data=data)
    # Pots of their own: the shipped rulesets keep one only as an option.
    data = copy.deepcopy(breitnau.data)
    data["session"] = {
        "pots": {
            "fixture": {
                "ante": "1",
                "pays": [{"amount": "1"}, {"seat": "dealer", "amount": "1"}],
                "left": "kept",
            }
        }
    }
    out["fixture-pots"] = dataclasses.replace(breitnau, data=data)
    return out


def _node(place: Place) -> Node:
    return DECLARED[place].node if place else ROOT


def _parents(data: Any, place: Place) -> list[tuple[str | int, ...]]:
    """The places in `data` where the key at `place` may be written: its rule where the ruleset
    has it; or, where its rule has no required keys and the one above it is written, there."""
    found: list[tuple[tuple[str | int, ...], Any]] = [((), data)]
    for index, part in enumerate(place[:-1]):
        deeper: list[tuple[tuple[str | int, ...], Any]] = []
        for path, node in found:
            if part == ENTRY and isinstance(node, dict):
                deeper += [(path + (name,), value) for name, value in node.items()]
            elif part == ITEM and isinstance(node, list):
                deeper += [(path + (i,), value) for i, value in enumerate(node)]
            elif isinstance(node, dict) and part in node:
                deeper.append((path + (part,), node[part]))
            elif (
                index == len(place) - 2
                and isinstance(node, dict)
                and isinstance(_node(place[:index]), Rule)
                and isinstance(_node(place[: index + 1]), Rule)
                and not _node(place[: index + 1]).required  # type: ignore[attr-defined]
            ):
                deeper.append((path + (part,), None))  # written empty
        found = deeper
    return [path for path, node in found if isinstance(node, dict) or node is None]


LEFT_OUT = object()


def _compiled(name: str, path: tuple[str | int, ...], key: str, value: Any) -> Ruleset | None:
    """The ruleset with the key at `path` written as `value` (or left out), or None when that
    does not compile."""
    doc = _documents()[name]
    data = copy.deepcopy(doc.data)
    node = data
    for part in path:
        if isinstance(node, dict) and node.get(part) is None:
            node[part] = {}
        node = node[part]
    if value is LEFT_OUT:
        node.pop(key, None)
    else:
        node[key] = value
    try:
        return compile_document(dataclasses.replace(doc, data=data), name, check=False)
    except RulesetError:
        return None


def _contexts(place: Place) -> list[tuple[str, tuple[str | int, ...]]]:
    return [(name, path) for name, doc in _documents().items() for path in _parents(doc.data, place)]


def _values(node: Node) -> list[Any]:
    """Every value of a key that takes one of a few."""
    if isinstance(node, Choice):
        return list(node.values)
    if isinstance(node, Boolean):
        return [True, False]
    if isinstance(node, Const):
        return [node.value]
    if isinstance(node, OneOf):
        return [value for form in node.forms for value in _values(form)]
    return []


def _same(a: Any, b: Any) -> bool:
    return a == b and type(a) is type(b)


WITH_DEFAULTS = [p for p, key in places() if key.literal_default]


@pytest.mark.parametrize("place", WITH_DEFAULTS, ids=place_text)
def test_writing_out_a_declared_default_changes_nothing(place: Place) -> None:
    key = DECLARED[place]
    for name, path in _contexts(place):
        left_out = _compiled(name, path, place[-1], LEFT_OUT)
        written = _compiled(name, path, place[-1], key.default)
        if left_out is None and written is None:
            continue  # this ruleset cannot have it either way; another may
        assert left_out == written, (
            f"{name}: {'.'.join(map(str, path))}.{place[-1]} written as its declared default "
            f"{key.default!r} compiles otherwise than left out: declare the default the compiler applies"
        )
        return
    pytest.fail(f"no ruleset compiles with {place_text(place)} written: give the test a fixture")


# Keys read before a ruleset is compiled, and not by the compiler.
BEFORE_COMPILING = {("base",): "the loader refuses to play a base; it is never compiled as a game"}


@pytest.mark.parametrize("place", [p for p in WITH_DEFAULTS if p not in BEFORE_COMPILING], ids=place_text)
def test_every_other_value_changes_the_compiled_rules(place: Place) -> None:
    """A value the compiler does not read would be a key written and ignored."""
    key = DECLARED[place]
    for value in _values(key.node):
        if _same(value, key.default):
            continue
        for name, path in _contexts(place):
            left_out = _compiled(name, path, place[-1], LEFT_OUT)
            written = _compiled(name, path, place[-1], value)
            if left_out is None or written is None:
                continue  # not a rule this ruleset can have; another may
            assert left_out != written, f"{name}: {place_text(place)}: {value!r} compiles as the default does"
            break
        else:
            pytest.fail(f"{place_text(place)}: no ruleset compiles with {value!r}: give the test a fixture")


WITHOUT_DEFAULTS = [
    p
    for p, key in places()
    if not key.literal_default
    and not isinstance(key.default, Computed)
    and _values(key.node)
    and p[-1] not in getattr(_node(p[:-1]), "required", ())
]


@pytest.mark.parametrize("place", WITHOUT_DEFAULTS, ids=place_text)
def test_no_value_is_a_default_that_is_not_declared(place: Place) -> None:
    """A value that compiles as the key left out is the compiler's default: declare it."""
    for value in _values(DECLARED[place].node):
        for name, path in _contexts(place):
            left_out = _compiled(name, path, place[-1], LEFT_OUT)
            written = _compiled(name, path, place[-1], value)
            if left_out is None or written is None:
                continue
            assert left_out != written, f"{name}: {place_text(place)}: {value!r} is the default; declare it"
            break


# -- the names an expression may read ---------------------------------------------------------------


def test_the_compiler_checks_every_expression_against_the_names_declared_for_its_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scopes: dict[str, set[frozenset[str]]] = {}
    compile_expression = compiler_module.compile_expression

    def recorded(text: str, scope: Any, expect: Any = None, *, place: Any = None) -> Any:
        if place is not None:
            scopes.setdefault(place.path, set()).add(frozenset(scope.variables))
        return compile_expression(text, scope, expect, place=place)

    monkeypatch.setattr(compiler_module, "compile_expression", recorded)
    pot_names: set[str] = set()  # the session's pots of their own, read by the names given them
    for name in ruleset_names():
        doc = resolve(name, playable=True)
        ruleset = compile_document(doc, name)
        for group in ruleset.groups:  # a choice may write expressions of its own
            for choice in group.choices:
                chosen = compile_document(doc, name, {group.name: choice})
                pot_names.update(account.name for account in chosen.session.pots)
    wrong = []
    for path, seen in sorted(scopes.items()):
        found = keys_package.key_of_path(parse_path(path))
        assert found is not None, f"an expression at {path}, where the language has no key"
        place, key = found
        expression = keys_package.expression_of(key)
        assert expression is not None, f"{place_text(place)} is compiled as an expression"
        tables = [frozenset(table) for _, table in expression.tables()] or [frozenset()]
        for names in seen:
            # (`score` stands for the settlement's formula where it has one: written out, not read)
            if names - {"score"} - pot_names not in tables:
                wrong.append(f"{place_text(place)}: {sorted(names)}")
    assert len(scopes) > 100  # the shipped rulesets write expressions at many places
    assert wrong == [], "the compiler checks these against other names than declared"


# -- what the tests above found: rules written and ignored -------------------------------------------


def _ruleset_with(tmp_path: Path, rules: str) -> Ruleset:
    """breitnau with these rules (YAML) merged over it."""
    file = tmp_path / "variant.yaml"
    file.write_text("title: A variant (test)\nextends: breitnau\n" + rules, encoding="utf-8")
    return load_ruleset(str(file))


def test_a_rule_written_with_every_default_is_the_rule(tmp_path: Path) -> None:
    """`opening_leads: {}` and `announcing: {}` are the rules with all their defaults (they were
    taken for no rule at all), as `take_talon: {}` always was."""
    rs = _ruleset_with(tmp_path, "contracts: {solo: {opening_leads: {}}}\nannouncing: {}\n")
    assert rs.contracts["solo"].opening_leads is not None
    assert rs.announcing is not None and (rs.announcing.start, rs.announcing.done) == ("declarer", "pass")


def test_an_empty_rule_that_needs_more_says_so(tmp_path: Path) -> None:
    """`individual: {}` and `doubling: {}` on a lone player's game were ignored; now each says
    what is missing."""
    with pytest.raises(RulesetError) as found:
        _ruleset_with(tmp_path, "contracts: {solo: {individual: {}}, dappen: {doubling: {}}}\n")
    messages = [p.message for p in found.value.problems]
    assert any("say who pays" in m for m in messages), messages
    assert any("a round in which each player may double once" in m for m in messages), messages


def test_the_talon_to_the_last_trick_is_for_everyone_for_themselves(tmp_path: Path) -> None:
    """On a lone player's game `talon_to_last_trick` was read by nothing."""
    with pytest.raises(RulesetError) as found:
        _ruleset_with(tmp_path, "contracts: {solo: {talon_to_last_trick: true}}\n")
    (problem,) = found.value.problems
    assert problem.path == "contracts.solo.talon_to_last_trick" and "everyone plays for themselves" in problem.message
