"""Game records (DESIGN.md): load, replay, compare with `expect`, and write."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from interpreter.engine.game import DealError, Game
from interpreter.errors import IllegalActionError, InvalidActionError, Problem, RecordError, RulesetError
from interpreter.language.loader import display_path, find_ruleset_file, load_ruleset
from interpreter.language.source import Document, load_yaml
from interpreter.language.validation import schema_problems


@dataclass
class Replay:
    """What replaying a record found: `ok` when it matched `expect` (and was not refused unexpectedly)."""

    file: str
    game: Any = None
    failures: list[str] = field(default_factory=list)
    refused_at: int | None = None

    @property
    def ok(self) -> bool:
        return not self.failures


def read_record(file: str | Path) -> Document:
    path = Path(file)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError([Problem(str(file), None, None, "", f"cannot read the record: {exc}")]) from None
    try:
        doc = load_yaml(text, display_path(path))  # YAML is a superset of JSON
    except RulesetError as exc:
        raise RecordError(exc.problems) from None
    problems = schema_problems(doc, "record.schema.json")
    if problems:
        raise RecordError(problems)
    return doc


def game_from_record(doc: Document, base_dir: Path | None = None):
    data = doc.data
    ref = data["ruleset"]
    if base_dir is not None and ("/" in ref or ref.endswith((".yaml", ".yml"))) and find_ruleset_file(ref) is None:
        ref = str(base_dir / ref)
    try:
        ruleset = load_ruleset(ref, data.get("options") or {})
    except RulesetError as exc:

        def place(p: Problem) -> Problem:
            if p.line is not None:
                return p
            if p.path.startswith("options."):
                return doc.problem(("options", p.path.split(".", 1)[1].split(".")[0]), p.message, at_key=True)
            return doc.problem(("ruleset",), p.message)

        raise RecordError([place(p) for p in exc.problems]) from None
    try:
        return Game(
            ruleset,
            players=data["players"],
            dealer=data.get("dealer", 0),
            seed=data.get("seed"),
            deal=data.get("deal"),
            pot=data.get("pot"),
        )
    except DealError as exc:
        raise RecordError([doc.problem(("deal", *place), message) for place, message in exc.places]) from None
    except InvalidActionError as exc:
        key = "dealer" if "dealer" in str(exc) else "players"
        raise RecordError([doc.problem((key,), str(exc))]) from None


def replay(file: str | Path) -> Replay:
    """Replay a record file. Raises RecordError when it cannot even start (malformed, bad deal)."""
    doc = read_record(file)
    game = game_from_record(doc, Path(file).parent)
    return replay_document(doc, game)


def replay_document(doc: Document, game) -> Replay:
    report = Replay(doc.file, game)
    data = doc.data
    expect = data.get("expect") or {}
    illegal = expect.get("illegal")
    for index, (seat, action) in enumerate(data["actions"]):
        try:
            game.apply(seat, action)
        except (IllegalActionError, InvalidActionError) as exc:
            report.refused_at = index
            place = doc.problem(("actions", index), "")
            where = f"{place.file}:{place.line}:{place.column}" if place.line else doc.file
            if illegal is None or illegal.get("at") != index:
                report.failures.append(f"{where}: action {index} {_show(seat, action)} was refused: {exc}")
            elif illegal.get("reason") and illegal["reason"] not in str(exc):
                report.failures.append(
                    f"{where}: action {index} was refused as expected, but the reason was "
                    f'"{exc}", not containing "{illegal["reason"]}"'
                )
            _compare(expect, game, report, doc)  # the rest of `expect` still holds at that point
            return report
    if illegal is not None:
        report.failures.append(
            f"{_place(doc, 'illegal')}: action {illegal.get('at')} should have been refused, but "
            f"{'it was accepted' if illegal.get('at', 0) < len(data['actions']) else 'the record has no such action'}"
        )
    _compare(expect, game, report, doc)
    return report


def _show(seat: Any, action: Any) -> str:
    return json.dumps([seat, action], ensure_ascii=False)


def _compare(expect: dict, game, report: Replay, doc: Document) -> None:
    result = game.result
    actual: dict[str, Any] = {
        "contract": game.contract.name if game.contract else None,
        "declarer": game.declarer,
        "outcome": result.outcome if result else None,
        "thrown_in": bool(result and result.outcome == "thrown_in"),
        "declarer_won": result.declarer_won if result else None,
        "points": result.points if result else None,
        "tricks": result.tricks if result else None,
        "payments": result.payments if result else None,
        "pot": result.pot if result else None,
    }
    for key, wanted in expect.items():
        if key == "illegal":
            continue
        got = actual.get(key)
        if got is None and key in ("points", "tricks", "payments", "outcome", "declarer_won", "pot"):
            report.failures.append(
                f"{_place(doc, key)}: expected {key} {wanted}, but the deal is not over "
                f"after {len(doc.data['actions'])} actions (phase: {game.phase.value}, to act: seat {game.to_act})"
            )
            continue
        if isinstance(wanted, dict) and isinstance(got, dict):
            diffs = {k: (v, got.get(k)) for k, v in wanted.items() if got.get(k) != v}
            if diffs:
                text = ", ".join(f"{k} {v} expected, got {g}" for k, (v, g) in diffs.items())
                report.failures.append(f"{_place(doc, key)}: {key}: {text}")
        elif got != wanted:
            report.failures.append(f"{_place(doc, key)}: {key}: expected {wanted}, got {got}")


def _place(doc: Document, key: str) -> str:
    p = doc.problem(("expect", key), "")
    return f"{p.file}:{p.line}:{p.column}" if p.line else p.file


def dump_record(record: dict[str, Any]) -> str:
    return yaml.safe_dump(record, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)
