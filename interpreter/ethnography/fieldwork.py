"""A ruleset checked against games observed at a table (`tarock check NAME games/`).

Each record in the folder is replayed against the ruleset with every check the known facts
allow (engine/observation.py: hands unknown or known in part); what the table did that the
ruleset does not allow is counted by the rule it broke, with where it happened. A departure the
record notes as the table's own rule is counted too, and marked as noted: the question is which
rules the table plays otherwise, and how often.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from interpreter.engine.observation import Departure
from interpreter.engine.records import read_record, replay_observed
from interpreter.errors import RulesetError
from interpreter.language.loader import load_ruleset
from interpreter.language.model import Ruleset

RECORD_SUFFIXES = (".yaml", ".yml", ".json")


@dataclass
class GameChecked:
    file: str
    departures: list[Departure] = field(default_factory=list)
    stopped_at: int | None = None  # checked only up to this action
    problems: list[str] = field(default_factory=list)  # why it could not be checked (at all, or further)


@dataclass
class CheckReport:
    ruleset: str
    games: list[GameChecked] = field(default_factory=list)

    def by_rule(self) -> dict[str, list[tuple[str, Departure]]]:
        """Each rule broken, with every (game, departure), the most often broken first."""
        rules: dict[str, list[tuple[str, Departure]]] = {}
        for game in self.games:
            for departure in game.departures:
                rules.setdefault(departure.rule, []).append((game.file, departure))
        return dict(sorted(rules.items(), key=lambda item: (-len(item[1]), item[0])))

    @property
    def clean(self) -> bool:
        return all(not g.departures and not g.problems for g in self.games)


def record_files(folder: Path) -> list[Path]:
    """The records in `folder` (and its subfolders), in order; `folder` itself if it is no
    folder. Whatever is named like a record and is not a folder is taken: one that is no regular
    file (a FIFO, a device) is then reported as a game that could not be read, never waited on."""
    if not folder.is_dir():
        return [folder]
    return sorted(p for p in folder.rglob("*") if p.suffix in RECORD_SUFFIXES and not p.is_dir())


def check_games(name: str, folders: list[Path], options: Mapping[str, str] | None = None) -> CheckReport:
    """Check every record under `folders` against the ruleset `name`. Raises RulesetError when
    the ruleset does not load (a record that does not load is a problem of that game)."""
    ruleset = load_ruleset(name, options)
    report = CheckReport(ruleset.title)
    files = [f for folder in folders for f in record_files(folder)]
    for file in files:
        report.games.append(_check_one(file, name, ruleset, options))
    return report


def _check_one(file: Path, name: str, ruleset: Ruleset, options: Mapping[str, str] | None) -> GameChecked:
    try:
        doc = read_record(file)
        chosen = ruleset
        recorded = doc.data.get("options") or {}
        if recorded and not options and doc.data.get("ruleset") == name:
            chosen = load_ruleset(name, recorded)  # the game as that table agreed to play it
        replay = replay_observed(doc, file.parent, ruleset=chosen)
    except RulesetError as exc:
        return GameChecked(str(file), problems=[str(p) for p in exc.problems])
    found = replay.observation
    assert found is not None
    checked = GameChecked(doc.file, list(found.departures), found.stopped_at)
    # A departure fails a replay; what else failed is why the game could not be checked further.
    departed = {d.at for d in found.departures}
    checked.problems = [text for at, text in found.failures if at not in departed]
    return checked


def render(report: CheckReport, folders: list[Path]) -> str:
    games = report.games
    where = ", ".join(str(f) for f in folders)
    lines = [f"{report.ruleset} against {len(games)} observed game{'s' if len(games) != 1 else ''} in {where}", ""]
    rules = report.by_rule()
    if rules:
        lines.append(f"{'rule broken':<44} {'times':>5} {'games':>5}  where")
        for rule, found in rules.items():
            n_games = len({f for f, _ in found})
            places = ", ".join(f"{f} action {d.at}{' (noted)' if d.noted else ''}" for f, d in found[:4])
            more = f", … {len(found) - 4} more" if len(found) > 4 else ""
            lines.append(f"{rule:<44} {len(found):>5} {n_games:>5}  {places}{more}")
        lines.append("")
        for rule, found in rules.items():
            lines.append(f"{rule}: {found[0][1].reason}")
        lines.append("")
    else:
        lines += ["no game broke a rule of this ruleset, as far as the known facts show", ""]
    kept = sum(1 for g in games if not g.departures and not g.problems)
    departed = sum(1 for g in games if g.departures)
    noted = sum(1 for g in games for d in g.departures if d.noted)
    total = sum(len(g.departures) for g in games)
    lines.append(
        f"{kept} kept to the rules, {departed} departed from them ({total} departure{'s' if total != 1 else ''}, "
        f"{noted} noted as the table's rule)"
    )
    unchecked = [g for g in games if g.problems]
    for game in unchecked:
        upto = f" (checked up to action {game.stopped_at})" if game.stopped_at is not None else ""
        lines.append(f"{game.file}: could not be checked further{upto}: {game.problems[0]}")
    return "\n".join(lines) + "\n"
