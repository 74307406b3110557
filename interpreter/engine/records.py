"""Game records (docs/design.md): load, replay, compare with `expect`, and write.

A record holds one deal, or a whole session of deals (`session:`, each deal as a record of one
would hold it), so it is small: a file far larger than any evening's deals is refused before it
is parsed, and a deal with more actions than it could have before any is applied.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from interpreter.engine.actions import shown
from interpreter.engine.faults import TableError
from interpreter.engine.game import DealError, Game
from interpreter.engine.observation import Observation, is_observed, observed_game
from interpreter.errors import IllegalActionError, InvalidActionError, Problem, RecordError, RulesetError, TarockError
from interpreter.language.loader import display_path, find_ruleset_file, load_ruleset
from interpreter.language.model import Ruleset
from interpreter.language.paths import read_file
from interpreter.language.source import Document, load_yaml
from interpreter.language.validation import schema_problems

# The largest record of a real deal is a few kilobytes; these bounds are far above any.
MAX_RECORD_CHARS = 200_000
MAX_ACTIONS = 10_000  # whatever the ruleset; the deal's own bound (`actions_bound`) is tighter
ACTIONS_PER_CARD = 10  # a deal has about one action per card (calls, the exchange, the cards played)


@dataclass
class Replay:
    """What replaying a record found: `ok` when it matched `expect` (and was not refused unexpectedly)."""

    file: str
    game: Game | None = None
    failures: list[str] = field(default_factory=list)
    refused_at: int | None = None
    observation: Observation | None = None  # an observed record's departures and deal

    @property
    def ok(self) -> bool:
        return not self.failures


def read_record(file: str | Path) -> Document:
    path = Path(file)
    try:
        # Only a regular file, not a FIFO or a device; UTF-8 takes at most four bytes a character.
        text = read_file(path, 4 * MAX_RECORD_CHARS).decode("utf-8")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise RecordError([Problem(str(file), None, None, "", f"cannot read the record: {reason}")]) from None
    return parse_record(text, display_path(path))


def parse_record(text: str, file: str) -> Document:
    """A record from its text (YAML or JSON), checked against the record schema. Raises
    RecordError naming every problem."""
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(
            [
                Problem(
                    file,
                    None,
                    None,
                    "",
                    f"a record (of a deal, or of a session of deals) holds at most {MAX_RECORD_CHARS:,} characters; this one has {len(text):,}",
                )
            ]
        )
    try:
        doc = load_yaml(text, file)  # YAML is a superset of JSON
    except RulesetError as exc:
        raise RecordError(exc.problems) from None
    check_record(doc)
    return doc


def check_record(doc: Document) -> None:
    """Check a record's data against the record schema (seeds, seats, actions...). Raises
    RecordError naming every problem."""
    data = doc.data
    actions = data.get("actions") if isinstance(data, dict) else None
    if isinstance(actions, list) and len(actions) > MAX_ACTIONS:
        # Before the schema, which would check every one of them.
        raise RecordError([doc.problem(("actions",), _too_many(len(actions), MAX_ACTIONS))])
    if isinstance(data, dict) and data.get("session") == []:
        raise RecordError([doc.problem(("session",), "a record of a session holds at least one deal")])
    if isinstance(data, dict) and "session" in data:
        # A record of a whole session holds its deals' cards and actions under `session`.
        misplaced = [k for k in ("actions", "deal", "seed", "observed", "departures", "pot") if k in data]
        if misplaced:
            raise RecordError(
                [
                    doc.problem(
                        (key,),
                        f"a record of a whole session holds each deal's `{key}` in that deal, under `session`; "
                        f"move it there (or leave out `session` for a record of one deal)",
                        at_key=True,
                    )
                    for key in misplaced
                ]
            )
    problems = schema_problems(doc, "record.schema.json")
    if problems:
        raise RecordError(problems)


def _too_many(count: int, bound: int, why: str = "") -> str:
    return f"a deal holds at most {bound:,} actions{why}; this one has {count:,}"


def _keeps_a_deal_pot(ruleset: Ruleset) -> bool:
    """Whether a deal of `ruleset` keeps a pot of its own (the dealer's ante, a contract's `pot`)."""
    return ruleset.pot_ante is not None or any(c.pot is not None for c in ruleset.contracts.values())


def actions_bound(game: Game) -> int:
    """More actions than any deal of `game`'s size can have."""
    return ACTIONS_PER_CARD * len(game.ruleset.pack(len(game.seats)))


def game_from_record(doc: Document, base_dir: Path | None = None) -> Game:
    """The game a checked record starts, before its actions. `base_dir`: where the record lies,
    where a ruleset path in it is looked for first. Raises RecordError naming the place."""
    data = doc.data
    ruleset = ruleset_of_record(doc, base_dir)
    accounts = ruleset.session.pots
    if data.get("pot") is not None and accounts and not _keeps_a_deal_pot(ruleset):
        # The deal keeps no pot of its own: its pot is an account of the session (session.pots).
        named = ", ".join(a.name for a in accounts)
        raise RecordError(
            [
                doc.problem(
                    ("pot",),
                    f"this ruleset's pot is an account of the session (session.pots: {named}), which a single "
                    f"deal does not keep: write the record as a session of this one deal, with what the pot "
                    f"holds as it starts (`pots: {{{accounts[0].name}: {data['pot']}}}`, then `session:` with "
                    "the deal under it, as docs/design.md says of a record of a whole session)",
                    at_key=True,
                )
            ]
        )
    try:
        game = Game(
            ruleset,
            players=data["players"],
            dealer=data.get("dealer", 0),
            seed=data.get("seed"),
            deal=data.get("deal"),
            pot=data.get("pot"),
        )
    except DealError as exc:
        raise RecordError([doc.problem(("deal", *place), message) for place, message in exc.places]) from None
    except TableError as exc:
        raise RecordError([doc.problem((exc.key,), str(exc))]) from None
    except TarockError as exc:  # a rule that fails as the deal is set up (the dealer's ante, say)
        raise RecordError([doc.problem(("ruleset",), str(exc))]) from None
    bound = actions_bound(game)
    if len(data["actions"]) > bound:
        why = f" (ten per card of this deal's {bound // ACTIONS_PER_CARD})"
        raise RecordError([doc.problem(("actions",), _too_many(len(data["actions"]), bound, why))])
    return game


def ruleset_of_record(doc: Document, base_dir: Path | None = None, ref: str | None = None) -> Ruleset:
    """The ruleset a checked record names (or `ref`), with its options. Raises RecordError."""
    data = doc.data
    ref = ref or data["ruleset"]
    if base_dir is not None and _is_path(ref):
        found = find_ruleset_file(ref, relative_to=base_dir)
        if found is not None:
            ref = str(found)
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
    return ruleset


def _is_path(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


def replay(file: str | Path) -> Replay:
    """Replay a record file. Raises RecordError when it cannot even start (malformed, bad deal)."""
    doc = read_record(file)
    if "session" in doc.data:
        return replay_session(doc, Path(file).parent)
    if is_observed(doc.data):
        return replay_observed(doc, Path(file).parent)
    game = game_from_record(doc, Path(file).parent)
    return replay_document(doc, game)


def replay_observed(doc: Document, base_dir: Path | None = None, ruleset: Ruleset | None = None) -> Replay:
    """Replay a record observed at a table (hands unknown or known in part; any record, in fact):
    every check the known facts allow (engine/observation.py). `ruleset`: check the game against
    this one instead of the one the record names. Raises RecordError when it cannot start."""
    if ruleset is None:
        ruleset = ruleset_of_record(doc, base_dir)
    data = doc.data
    try:
        observed = observed_game(ruleset, data)
    except TableError as exc:
        raise RecordError([doc.problem((exc.key,), str(exc))]) from None
    except TarockError as exc:
        raise RecordError([doc.problem(("ruleset",), str(exc))]) from None
    if len(data["actions"]) > MAX_ACTIONS:
        raise RecordError([doc.problem(("actions",), _too_many(len(data["actions"]), MAX_ACTIONS))])
    found = observed.replay()
    report = Replay(doc.file, found.game, observation=found, refused_at=found.stopped_at)
    for at, failure in found.failures:
        where = _where(doc, at) if at is not None and at < len(data["actions"]) else doc.file
        report.failures.append(f"{where}: {failure}")
    proven = {d.at for d in found.departures}
    for index, entry in enumerate(data.get("departures") or []):
        if entry["at"] not in proven and (found.stopped_at is None or entry["at"] < found.stopped_at):
            place = doc.problem(("departures", index), "")
            report.failures.append(
                f"{place.file}:{place.line}:{place.column}: action {entry['at']} is noted as a departure, "
                f"but the ruleset allows it (or the known facts cannot show otherwise)"
            )
    if found.game is not None:
        _compare(data.get("expect") or {}, found.game, report, doc)
    return report


def _undealt(game: Game) -> str:
    """The fix for a seeded record that does not begin with the dealer's choice of how to deal
    (deal.choice), as records of a table that dealt one way do not: where to say it."""
    if game.phase.value != "deal" or game.history:
        return ""
    usual = game.legal_actions()[0]
    assert isinstance(usual, dict)
    return (
        f"; a record of a deal dealt by one plan begins with the dealer's choice, "
        f"[{game.dealer}, {{choose: {usual['choose']}}}], or sets the ruleset's option that always deals one way"
    )


def replay_document(doc: Document, game: Game, at: tuple[str | int, ...] = (), report: Replay | None = None) -> Replay:
    """Apply a record's actions and compare the outcome with its `expect`. `at`: where the deal
    stands in the record (a deal of a session: `("session", 3)`)."""
    report = report if report is not None else Replay(doc.file, game)
    report.game = game
    data = _at(doc.data, at)
    expect = data.get("expect") or {}
    illegal = expect.get("illegal")
    for index, (seat, action) in enumerate(data["actions"]):
        try:
            game.apply(seat, action)
        except (IllegalActionError, InvalidActionError) as exc:
            report.refused_at = index
            where = _where(doc, index, at)
            if illegal is None or illegal.get("at") != index:
                report.failures.append(
                    f"{where}: action {index} {_show(seat, action)} was refused: {exc}{_undealt(game)}"
                )
            elif illegal.get("reason") and illegal["reason"] not in str(exc):
                report.failures.append(
                    f"{where}: action {index} was refused as expected, but the reason was "
                    f'"{exc}", not containing "{illegal["reason"]}"'
                )
            _compare(expect, game, report, doc, at)  # the rest of `expect` still holds at that point
            return report
        except TarockError as exc:
            # The ruleset failed on it (a formula, a deal that no longer adds up): not the
            # record's fault, but the deal cannot go on.
            report.refused_at = index
            report.failures.append(f"{_where(doc, index, at)}: action {index} {_show(seat, action)} failed: {exc}")
            return report
    if illegal is not None:
        report.failures.append(
            f"{_place(doc, 'illegal', at)}: action {illegal.get('at')} should have been refused, but "
            f"{'it was accepted' if illegal.get('at', 0) < len(data['actions']) else 'the record has no such action'}"
        )
    _compare(expect, game, report, doc, at)
    return report


def _at(data: Any, at: tuple[str | int, ...]) -> Any:
    for part in at:
        data = data[part]
    return data


def replay_session(doc: Document, base_dir: Path | None = None) -> Replay:
    """Replay a record of a whole session: each deal in turn, dealt by whom the session says and
    played with the readings and options it chooses, each compared with its own `expect`; then
    the session's `expect` (who dealt, the rounds, the scores, the sheet, the totals, the end)."""
    from interpreter.engine.session import Session

    data = doc.data
    ruleset = ruleset_of_record(doc, base_dir)
    try:
        session = Session(ruleset, players=data["players"], dealer=data.get("dealer", 0), pots=data.get("pots"))
    except TableError as exc:  # the table (players, dealer) or what the pots hold as it starts
        raise RecordError([doc.problem((exc.key,), str(exc))]) from None
    except TarockError as exc:
        raise RecordError([doc.problem(("players",), str(exc))]) from None
    report = Replay(doc.file)
    for number, item in enumerate(data["session"]):
        at: tuple[str | int, ...] = ("session", number)
        where = doc.problem(at, "")
        place = f"{where.file}:{where.line}:{where.column}" if where.line else doc.file
        try:
            if item.get("request_end") is not None:
                session.request_end(item["request_end"])
            if item.get("signal") is not None:
                session.signal(item["signal"])
            game = session.next_deal(deal=item.get("deal"), seed=item.get("seed"))
        except DealError as exc:
            raise RecordError([doc.problem((*at, "deal", *p), message) for p, message in exc.places]) from None
        except TableError as exc:
            # The table (players, dealer) is the record's own; a seed or a deal is the deal's.
            table_at: tuple[str | int, ...] = (exc.key,) if exc.key in ("players", "dealer") else (*at, exc.key)
            raise RecordError([doc.problem(table_at, str(exc))]) from None
        except TarockError as exc:  # the session is over, a signal it has no round for, a rule failing
            report.failures.append(f"{place}: deal {number} cannot start: {exc}")
            return report
        bound = actions_bound(game)
        if len(item["actions"]) > bound:
            why = f" (ten per card of this deal's {bound // ACTIONS_PER_CARD})"
            raise RecordError([doc.problem((*at, "actions"), _too_many(len(item["actions"]), bound, why))])
        replay_document(doc, game, at, report)
        if report.refused_at is not None or report.failures:
            return report
        if not game.is_over:
            if number + 1 < len(data["session"]):
                report.failures.append(f"{place}: deal {number} is not over, so the next deal cannot start")
                return report
            break  # the record stops in its last deal: the session stands as it is there
        session.finish_deal()
    _compare_session(data.get("expect") or {}, session, report, doc)
    return report


def _compare_session(expect: dict[str, Any], session: Any, report: Replay, doc: Document) -> None:
    actual = {
        "dealers": [g.dealer for g in session.deals],
        "rounds": list(session.rounds_of_deals),
        "scores": list(session.scores),
        "sheet": list(session.sheet) if session.sheet is not None else None,
        "totals": session.totals(),
        "over": session.over,
        "pot": session.pot_left(),
        "pots": session.pots_left(),
    }
    for key, wanted in expect.items():
        got = actual.get(key)
        if key not in actual:
            got = f"nothing: `{key}` is said of a deal, under that deal's `expect`"
        if got != wanted:
            report.failures.append(f"{_place(doc, key)}: {key}: expected {wanted}, got {got}")


def _where(doc: Document, index: int, at: tuple[str | int, ...] = ()) -> str:
    place = doc.problem((*at, "actions", index), "")
    return f"{place.file}:{place.line}:{place.column}" if place.line else doc.file


def _show(seat: object, action: object) -> str:
    """[seat, action] as JSON for a message: short, and whatever the values."""
    try:
        text = json.dumps([seat, action], ensure_ascii=False)
        text.encode("utf-8")  # a lone surrogate cannot be written out
    except (ValueError, TypeError, RecursionError):
        return shown([seat, action])
    return text if len(text) <= 120 else text[:119] + "…"


def _compare(expect: dict[str, Any], game: Game, report: Replay, doc: Document, at: tuple[str | int, ...] = ()) -> None:
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
            # Where the replay stopped, and why: the refused action, or the record's end.
            stop = report.refused_at
            why = (
                f"the replay stopped at action {stop}, which was refused"
                if stop is not None
                else f"the record ends after its {len(_at(doc.data, at)['actions'])} actions"
            )
            report.failures.append(
                f"{_place(doc, key, at)}: expected {key} {wanted}, but the deal is not over: {why} "
                f"(phase: {game.phase.value}, to act: seat {game.to_act})"
            )
            continue
        if isinstance(wanted, dict) and isinstance(got, dict):
            diffs = {k: (v, got.get(k)) for k, v in wanted.items() if got.get(k) != v}
            if diffs:
                text = ", ".join(f"{k} {v} expected, got {g}" for k, (v, g) in diffs.items())
                report.failures.append(f"{_place(doc, key, at)}: {key}: {text}")
        elif got != wanted:
            report.failures.append(f"{_place(doc, key, at)}: {key}: expected {wanted}, got {got}")


def _place(doc: Document, key: str, at: tuple[str | int, ...] = ()) -> str:
    p = doc.problem((*at, "expect", key), "")
    return f"{p.file}:{p.line}:{p.column}" if p.line else p.file


def dump_record(record: dict[str, Any], to: str | Path | None = None) -> str:
    """The record as YAML. `to`: where it will be written; a ruleset file it names is then
    named by its path from there, so that the record replays wherever the two are moved together."""
    ref = record.get("ruleset")
    if to is not None and isinstance(ref, str) and _is_path(ref):
        here = Path(to).resolve().parent
        record = {**record, "ruleset": Path(os.path.relpath(Path(ref).resolve(), here)).as_posix()}
    return yaml.safe_dump(record, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)
