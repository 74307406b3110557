"""The web tables kept in a database, so that they survive a restart of the server and can be
reopened after they were closed for lack of players (issue 31 item 8).

One SQLite file (the standard library's `sqlite3`: embedded, nothing to install or run) holds
every table's session: its ruleset and options, its seats and who plays them, the names, the
seats' secret tokens (as SHA-256 digests: the file does not open a seat to whoever reads it),
each deal as dealt and every action taken since, and every finished deal's whole record. A deal
is fully determined by its cards and its actions, so a table is brought back by replaying them
(table.Table.restore): the seats find their hands and the table where it was.

Every change of a table is written when it happens, each in its own transaction, in WAL mode
with `synchronous=NORMAL`: a server killed mid-deal loses nothing written before (a power cut
may lose the last moments; the file stays whole). One server uses a file at a time: the file is
opened in exclusive locking mode, and a second server is refused with the reason.

The schema is versioned: `schema_version` holds the version the file has, and MIGRATIONS the
SQL that brings a file of each version to the next, applied in order when the file is opened
(each in one transaction). A file written by a newer tarock is refused, not changed.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.errors import TarockError

# How a file of version N - 1 becomes version N, for N from 1: append a step, never change one.
MIGRATIONS: tuple[tuple[int, str], ...] = (
    (
        1,
        """
        CREATE TABLE tables (
            id TEXT PRIMARY KEY,
            ruleset TEXT NOT NULL,          -- the ruleset's name, looked up as the lobby does
            options TEXT NOT NULL,          -- JSON: every reading and option, {name: choice}
            players INTEGER NOT NULL,
            people TEXT NOT NULL,           -- JSON: the seats people play, [seat, ...]
            deals_planned INTEGER NOT NULL,
            seed TEXT,                      -- the session's seed in decimal (up to 2^64 - 1), or NULL
            bots TEXT NOT NULL,             -- rules | search
            seconds REAL NOT NULL,          -- the search bot's time for a card
            stand_in REAL,                  -- seconds before a bot plays a seat left empty; NULL: never
            names TEXT NOT NULL,            -- JSON: {seat: name}
            tokens TEXT NOT NULL,           -- JSON: {SHA-256 of a seat's token: seat}
            spectators TEXT NOT NULL,       -- SHA-256 of the spectators' token
            version INTEGER NOT NULL,       -- the table's count of changes
            session_over INTEGER NOT NULL,  -- 0 or 1
            opened REAL NOT NULL,           -- when, in seconds since 1970
            used REAL NOT NULL              -- the last change or visit, in seconds since 1970
        );
        CREATE INDEX tables_used ON tables (used);
        CREATE TABLE deals (
            table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            number INTEGER NOT NULL,        -- from 1
            dealt TEXT NOT NULL,            -- JSON: the deal as dealt (a game record without actions)
            record TEXT,                    -- JSON: the whole record once the deal is over, else NULL
            PRIMARY KEY (table_id, number)
        );
        CREATE TABLE actions (              -- the actions of a deal not over yet
            table_id TEXT NOT NULL,
            deal INTEGER NOT NULL,
            step INTEGER NOT NULL,          -- from 0
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,           -- JSON, as the record writes it
            PRIMARY KEY (table_id, deal, step),
            FOREIGN KEY (table_id, deal) REFERENCES deals (table_id, number) ON DELETE CASCADE
        );
        """,
    ),
)
SCHEMA_VERSION = MIGRATIONS[-1][0]
MAX_STORED = 10_000  # tables kept in the file; beyond, the one used longest ago is forgotten


class StoreError(TarockError):
    """The database cannot be used: in use by another server, written by a newer tarock, no database."""


def digest(token: str) -> str:
    """What the file keeps of a secret token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


def default_path() -> Path:
    """Where `tarock web` keeps its tables unless told (--db): the user's data folder, the same
    wherever the server is started from (XDG_DATA_HOME or ~/.local/share on Linux and the like,
    ~/Library/Application Support on macOS, %LOCALAPPDATA% on Windows), in `tarock/web.sqlite3`."""
    import os
    import sys

    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "tarock" / "web.sqlite3"


@dataclass
class Saved:
    """A table as the file holds it: enough to bring it back (Table.restore)."""

    id: str
    ruleset: str
    options: dict[str, str]
    players: int
    people: list[int]
    deals_planned: int
    seed: int | None
    bots: str
    seconds: float
    stand_in: float | None
    names: dict[int, str]
    tokens: dict[str, int]  # digest → seat
    spectators: str  # digest
    version: int
    session_over: bool
    records: list[dict[str, Any]] = field(default_factory=list)  # the finished deals, in order
    dealt: dict[str, Any] | None = None  # the deal under way, as dealt (None: every deal is over)
    actions: list[list[Any]] = field(default_factory=list)  # its actions so far


class Store:
    """The tables' database: `path` a file (made with its folder where missing), or ":memory:"
    for a server that keeps nothing once it stops."""

    def __init__(self, path: str | Path = ":memory:"):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=0.5)
            self.db.execute("PRAGMA locking_mode = EXCLUSIVE")
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            self.db.execute("PRAGMA foreign_keys = ON")
            self._migrate()
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc):
                raise StoreError(
                    f"{self.path} is in use by another tarock web: one server per database file (--db FILE)"
                ) from None
            raise StoreError(f"{self.path}: {exc}") from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is no tarock web database ({exc})") from None

    def close(self) -> None:
        self.db.close()

    # -- the schema ------------------------------------------------------------------------------
    def version(self) -> int:
        """The schema version of the file (0: empty)."""
        found = self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
        if found.fetchone() is None:
            return 0
        row = self.db.execute("SELECT version FROM schema_version").fetchone()
        return int(row[0]) if row else 0

    def _migrate(self) -> None:
        have = self.version()
        if have == 0 and self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise StoreError(f"{self.path} holds other tables than tarock web's: give another file (--db FILE)")
        if have > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer tarock (schema {have}; this one knows up to {SCHEMA_VERSION}):"
                " upgrade tarock, or give another file (--db FILE)"
            )
        for number, sql in MIGRATIONS:
            if number <= have:
                continue
            with self._transaction():
                for statement in _statements(sql):
                    self.db.execute(statement)
                if number == 1:
                    self.db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                    self.db.execute("INSERT INTO schema_version VALUES (1)")
                else:
                    self.db.execute("UPDATE schema_version SET version = ?", (number,))

    def _transaction(self) -> Any:
        return _Transaction(self.db)

    # -- writing: each change of a table as it happens -------------------------------------------
    def opened(self, saved: Saved) -> None:
        """A new table, and its first deal as dealt."""
        now = time.time()
        with self._transaction():
            self.db.execute(
                "INSERT INTO tables (id, ruleset, options, players, people, deals_planned, seed, bots, seconds,"
                " stand_in, names, tokens, spectators, version, session_over, opened, used)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    saved.id,
                    saved.ruleset,
                    _json(saved.options),
                    saved.players,
                    _json(saved.people),
                    saved.deals_planned,
                    None if saved.seed is None else str(saved.seed),
                    saved.bots,
                    saved.seconds,
                    saved.stand_in,
                    _json({str(s): n for s, n in saved.names.items()}),
                    _json(saved.tokens),
                    saved.spectators,
                    saved.version,
                    int(saved.session_over),
                    now,
                    now,
                ),
            )
            if saved.dealt is not None:
                self.db.execute(
                    "INSERT INTO deals (table_id, number, dealt) VALUES (?, 1, ?)", (saved.id, _json(saved.dealt))
                )

    def acted(self, table: str, deal: int, step: int, seat: int, action: Any, version: int) -> None:
        with self._transaction():
            self.db.execute(
                "INSERT INTO actions (table_id, deal, step, seat, action) VALUES (?, ?, ?, ?, ?)",
                (table, deal, step, seat, _json(action)),
            )
            self._changed(table, version)

    def finished(self, table: str, deal: int, record: dict[str, Any], session_over: bool, version: int) -> None:
        """A deal is over: its whole record replaces its actions."""
        with self._transaction():
            self.db.execute(
                "UPDATE deals SET record = ? WHERE table_id = ? AND number = ?", (_json(record), table, deal)
            )
            self.db.execute("DELETE FROM actions WHERE table_id = ? AND deal = ?", (table, deal))
            self.db.execute("UPDATE tables SET session_over = ? WHERE id = ?", (int(session_over), table))
            self._changed(table, version)

    def dealt(self, table: str, deal: int, dealt: dict[str, Any], version: int) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO deals (table_id, number, dealt) VALUES (?, ?, ?)", (table, deal, _json(dealt)))
            self._changed(table, version)

    def renamed(self, table: str, names: dict[int, str], version: int) -> None:
        with self._transaction():
            self.db.execute(
                "UPDATE tables SET names = ? WHERE id = ?", (_json({str(s): n for s, n in names.items()}), table)
            )
            self._changed(table, version)

    def changed(self, table: str, version: int) -> None:
        """Anything else that changes the table's version (who is at it, who is ready)."""
        with self._transaction():
            self._changed(table, version)

    def _changed(self, table: str, version: int) -> None:
        self.db.execute("UPDATE tables SET version = ?, used = ? WHERE id = ?", (version, time.time(), table))

    def forget_oldest(self, keep: int = MAX_STORED, spare: frozenset[str] = frozenset()) -> int:
        """Forget the tables used longest ago beyond the `keep` most recent (never those in
        `spare`: open now); how many were forgotten."""
        count = int(self.db.execute("SELECT count(*) FROM tables").fetchone()[0])
        if count <= keep:
            return 0
        old = [
            row[0]
            for row in self.db.execute("SELECT id FROM tables ORDER BY used LIMIT ?", (count - keep + len(spare),))
            if row[0] not in spare
        ][: count - keep]
        with self._transaction():
            for table in old:
                self.db.execute("DELETE FROM tables WHERE id = ?", (table,))
        return len(old)

    # -- reading -------------------------------------------------------------------------------
    def has(self, table: str) -> bool:
        return self.db.execute("SELECT 1 FROM tables WHERE id = ?", (table,)).fetchone() is not None

    def count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM tables").fetchone()[0])

    def table_ids(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT id FROM tables ORDER BY opened")]

    def load(self, table: str, deals: bool = True) -> Saved | None:
        """The table as kept (with its deals' records, the deal under way and its actions, unless
        `deals` is false), or None."""
        row = self.db.execute(
            "SELECT id, ruleset, options, players, people, deals_planned, seed, bots, seconds, stand_in, names,"
            " tokens, spectators, version, session_over FROM tables WHERE id = ?",
            (table,),
        ).fetchone()
        if row is None:
            return None
        ident, ruleset, options, players, people, planned, seed, bots, seconds, stand_in, names, tokens = row[:12]
        spectators, version, over = row[12:]
        saved = Saved(
            ident,
            ruleset,
            json.loads(options),
            players,
            json.loads(people),
            planned,
            None if seed is None else int(seed),
            bots,
            seconds,
            stand_in,
            {int(s): n for s, n in json.loads(names).items()},
            json.loads(tokens),
            spectators,
            version,
            bool(over),
        )
        if not deals:
            return saved
        for _number, dealt, record in self.db.execute(
            "SELECT number, dealt, record FROM deals WHERE table_id = ? ORDER BY number", (table,)
        ):
            if record is not None:
                saved.records.append(json.loads(record))
            else:
                saved.dealt = json.loads(dealt)
        saved.actions = [
            [seat, json.loads(action)]
            for seat, action in self.db.execute(
                "SELECT seat, action FROM actions WHERE table_id = ? AND deal = ? ORDER BY step",
                (table, len(saved.records) + 1),
            )
        ]
        return saved

    def record(self, table: str, number: int) -> dict[str, Any] | None:
        """Finished deal `number` of `table`, its whole record, or None."""
        row = self.db.execute(
            "SELECT record FROM deals WHERE table_id = ? AND number = ? AND record IS NOT NULL", (table, number)
        ).fetchone()
        return json.loads(row[0]) if row else None

    def records(self) -> Iterator[tuple[str, int, dict[str, Any]]]:
        """Every finished deal of every table: (table, number, record)."""
        for table, number, record in self.db.execute(
            "SELECT table_id, number, record FROM deals WHERE record IS NOT NULL ORDER BY table_id, number"
        ):
            yield table, number, json.loads(record)


class _Transaction:
    """BEGIN … COMMIT (ROLLBACK on an error) on a connection in autocommit mode."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _statements(sql: str) -> list[str]:
    """The statements of a migration (no `;` inside a statement of ours)."""
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def export(db: str | Path | None, folder: str | Path) -> int:
    """`tarock web --export FOLDER`: every finished deal of the database `db` (default_path()
    when None) as its whole YAML record, TABLE-deal-N.yaml, as `tarock replay` reads it. The
    deals hold every hand: the file's keeper is the umpire of its tables."""
    from interpreter.engine.records import dump_record

    path = Path(db) if db is not None else default_path()
    if str(path) != ":memory:" and not path.is_file():
        raise StoreError(f"{path}: no such database (give it with --db FILE)")
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    store = Store(path)
    written = 0
    try:
        for table, number, record in store.records():
            (target / f"{table}-deal-{number}.yaml").write_text(dump_record(record), encoding="utf-8")
            written += 1
    finally:
        store.close()
    print(f"{written} deal record{'' if written == 1 else 's'} written to {target}")
    return 0
