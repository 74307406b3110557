"""The names an expression may read, as the engine gives them: deals of every shipped ruleset at
every table size, and every game record, are played with each expression of the rulesets reading
every name declared for its place (interpreter/language/keys/names.py), and every time the engine
evaluates one, it must have given it all of them.

The engine gives an expression only the names it reads where a name costs work (a bonus's cards
of the tricks), so the rulesets are played as if each expression read everything its place
allows: what the schema promises an ethnographer may write there. The engine may give more than
a place declares, where places share one mapping for speed (the outcome's names serve
`declarer_wins`, `amount` and `liable`), but only names the language knows.

What is checked is the engine at run time, not its source, so the test holds however the engine
builds its mappings."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

import interpreter.engine.records as records
from interpreter import Game, load_ruleset, replay
from interpreter.bots.randombot import play_out
from interpreter.language.dsl.compiler import Expression
from interpreter.language.keys import Place, expression_of, key_of_path, place_text, places
from interpreter.language.keys.names import GAME_NAMES
from interpreter.language.loader import ruleset_names
from interpreter.language.model import Ruleset
from interpreter.language.source import parse_path

RECORDS = sorted((Path(__file__).parent / "records").glob("*.yaml"))
DEALS = 6  # seeds at each table size of each ruleset


def _declared(path: str) -> tuple[Place | None, list[frozenset[str]]]:
    """The place of an expression written at `path`, and the names it may read there (one table,
    or several where the place reads differently in different cases)."""
    found = key_of_path(parse_path(path))
    expression = expression_of(found[1]) if found is not None else None
    if found is None or expression is None:
        return None, []
    return found[0], [frozenset(table) for _, table in expression.tables()]


def _reading_everything(value: Any, done: dict[int, Any]) -> Any:
    """A copy of a compiled ruleset in which every expression reads every name its place may
    read (as the engine sees it: `names`); what each evaluates to is unchanged."""
    if isinstance(value, Expression):
        if value.place is None:
            return value
        _, tables = _declared(value.place.path)
        fitting = [table for table in tables if value.names <= table]
        return dataclasses.replace(value, names=max(fitting, key=len)) if fitting else value
    if isinstance(value, Ruleset):
        if id(value) not in done:
            own = {
                f.name: _reading_everything(getattr(value, f.name), done)
                for f in dataclasses.fields(value)
                if f.compare
            }
            copy = done[id(value)] = dataclasses.replace(value, **own, derived={}, rechoose=None, player_rules={})
            rules = {n: _reading_everything(r, done) for n, r in value.player_rules.items()}
            object.__setattr__(copy, "player_rules", rules)
        return done[id(value)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(
            value,
            **{f.name: _reading_everything(getattr(value, f.name), done) for f in dataclasses.fields(value) if f.init},
        )
    if isinstance(value, tuple):
        return tuple(_reading_everything(item, done) for item in value)
    if isinstance(value, dict):
        return {k: _reading_everything(item, done) for k, item in value.items()}
    return value


def test_the_engine_gives_every_expression_the_names_declared_for_its_place(monkeypatch: pytest.MonkeyPatch) -> None:
    given: dict[str, set[frozenset[str]]] = {}
    evaluate = Expression.__call__

    def recorded(self: Expression[Any], env: Any) -> Any:
        if self.place is not None:
            given.setdefault(self.place.path, set()).add(frozenset(env))
        return evaluate(self, env)

    monkeypatch.setattr(Expression, "__call__", recorded)
    load = records.load_ruleset
    # The session's pots of their own are read by the names the ruleset gives them.
    pot_names: set[str] = set()

    def loaded(*a: Any, **k: Any) -> Ruleset:
        ruleset = load(*a, **k)
        pot_names.update(account.name for account in ruleset.session.pots)
        return _reading_everything(ruleset, {})

    monkeypatch.setattr(records, "load_ruleset", loaded)

    for name in ruleset_names():
        ruleset = _reading_everything(load_ruleset(name), {})
        for players in ruleset.table_sizes:
            for seed in range(DEALS):
                play_out(Game(ruleset, players=players, seed=seed), seed=seed)
    for record in RECORDS:
        assert not replay(record).failures, f"{record.name} replays as before"

    missing, unknown, exercised = [], [], set()
    for path, mappings in sorted(given.items()):
        place, tables = _declared(path)
        assert place is not None, f"an expression evaluated at {path}, where the language has no key"
        if not tables:
            continue  # a set of cards known when the ruleset loads
        exercised.add(place)
        for env in mappings:
            if not any(table <= env for table in tables):
                lacking = min((table - env for table in tables), key=len)
                missing.append(f"{place_text(place)} (at {path}): {sorted(lacking)}")
            if env - GAME_NAMES - pot_names:
                unknown.append(f"{place_text(place)}: {sorted(env - GAME_NAMES - pot_names)}")
    assert missing == [], "the engine does not give these names it is declared to give"
    assert unknown == [], "the engine gives these names, which the language does not know"
    # Evaluated through Expression.__call__, at most of the places written in the rulesets: a
    # way around it would leave this test nothing to compare.
    assert len(exercised) >= 40, sorted(map(place_text, exercised))
    declared = {p for p, key in places() if (e := expression_of(key)) is not None and e.tables()}
    assert exercised <= declared
