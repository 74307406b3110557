"""Tables survive a restart (issue 31 item 8). A real `tarock web` process with a database file
is killed (SIGKILL, nothing said to it) in the middle of a deal; a new process on the same file
brings the table back when its links are opened again: every seat finds its hand, its choices,
the table, the score and the finished deals as they were, and the session plays on to its end.
The database holds no seat's token (only their digests), and a brought-back table serves each
token its own seat only."""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web table needs aiohttp: pip install '.[web]'")

from aiohttp import ClientSession
from test_web import Client, pick_cards

from interpreter.frontends.web.store import SCHEMA_VERSION, Store, StoreError

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """A `tarock web` process of our own, on `port`, keeping its tables in `db`."""

    def __init__(self, db: Path, port: int):
        self.db, self.port = db, port
        self.process = subprocess.Popen(
            [sys.executable, "-m", "interpreter", "web", "--db", str(db), "--port", str(port), "--bot-delay", "0"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    async def ready(self) -> None:
        deadline = time.monotonic() + 30
        while True:
            try:
                _reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.close()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the server did not start: {self.process.communicate()}") from None
                await asyncio.sleep(0.05)

    def kill(self) -> None:
        self.process.kill()  # SIGKILL: the server is told nothing
        self.process.wait(10)
        assert self.process.stdout is not None and self.process.stderr is not None
        self.process.stdout.close()
        self.process.stderr.close()


async def _join(http: ClientSession, server: Server, table: str, token: str) -> Client:
    ws = await http.ws_connect(server.url(f"/ws/{table}"))
    client = Client(ws, None)
    await client.send(type="join", token=token)
    return client


async def _quiet(clients: list[Client], bots: set[int]) -> None:
    """Until every socket holds the same newest state, no bot is to move, and nothing new comes."""
    started, last = time.monotonic(), None
    while time.monotonic() - started < 30:
        await asyncio.sleep(0.02)
        states = [c.state for c in clients]
        if any(s is None for s in states):
            continue
        versions = {s["version"] for s in states if s is not None}
        to_act = states[0]["view"]["to_act"] if states[0] is not None else None
        if len(versions) == 1 and to_act not in bots:
            counts = tuple(len(c.messages) for c in clients)
            if counts == last:
                return
            last = counts
        else:
            last = None
    raise AssertionError("the table did not settle")


async def _move(clients: dict[int, Client], everyone: list[Client], bots: set[int]) -> bool:
    """The person whose turn it is makes the first legal move; False when the deal is over."""
    state = everyone[0].state
    assert state is not None
    if state["view"]["phase"] == "over":
        return False
    seat = state["view"]["to_act"]
    mine = clients[seat].state
    assert mine is not None and mine["legal"], f"seat {seat} was offered nothing"
    option = next((o for o in mine["legal"] if o.get("action") != "pass"), mine["legal"][0])
    action = {option["choice"]: pick_cards(option)} if "choice" in option else option["action"]
    before = mine["version"]
    await clients[seat].send(type="act", action=action)
    for _ in range(1000):
        await asyncio.sleep(0.005)
        if clients[seat].state is not None and clients[seat].state["version"] > before:
            break
        if clients[seat].messages[-1]["type"] == "refused":
            raise AssertionError(f"seat {seat}'s {action} was refused: {clients[seat].messages[-1]}")
    await _quiet(everyone, bots)
    return True


async def _ready(clients: dict[int, Client], everyone: list[Client], bots: set[int]) -> None:
    deal = next(iter(clients.values())).state["deal"]  # type: ignore[index]
    for client in clients.values():
        await client.send(type="next")
    for _ in range(2000):
        await asyncio.sleep(0.005)
        if all(c.state and c.state["deal"] > deal for c in everyone):
            break
    await _quiet(everyone, bots)


def _table_as_seen(state: dict[str, Any]) -> dict[str, Any]:
    """A state but for what changes when the browsers come back (the version, who is present,
    the browsers at a seat)."""
    seen = {k: v for k, v in state.items() if k not in ("version", "windows")}
    seen["seats"] = [{k: v for k, v in s.items() if k != "present"} for s in state["seats"]]
    return seen


async def _download(http: ClientSession, server: Server, table: str, number: int, token: str) -> tuple[int, str]:
    async with http.get(server.url(f"/api/tables/{table}/records/{number}"), headers={"X-Seat-Token": token}) as got:
        return got.status, await got.text()


async def _restart(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    port = _free_port()
    server = Server(db, port)
    people, bots = [0, 1, 2], {3}
    try:
        await server.ready()
        async with ClientSession() as http:
            body = {"ruleset": "koenigrufen", "players": 4, "people": people, "deals": 3, "names": {"0": "Anna"}}
            async with http.post(server.url("/api/tables"), json=body) as response:
                answer = await response.json()
                assert response.status == 200, answer
            table = answer["table"]
            tokens: dict[int | None, str] = {link["seat"]: link["url"].split("#")[1] for link in answer["links"]}
            tokens[None] = answer["spectators"].split("#")[1]
            clients = {seat: await _join(http, server, table, tokens[seat]) for seat in people}
            spectator = await _join(http, server, table, tokens[None])
            everyone = [*clients.values(), spectator]
            await _quiet(everyone, bots)
            while await _move(clients, everyone, bots):  # the first deal, to its end
                pass
            await _ready(clients, everyone, bots)
            for _ in range(6):  # the second deal, some way into it
                await _move(clients, everyone, bots)
            before = {seat: _table_as_seen(c.state) for seat, c in zip([*people, None], everyone, strict=True)}  # type: ignore[arg-type]
            assert before[None]["deal"] == 2 and before[None]["step"] >= 6 and before[None]["deals_finished"] == 1
            downloads = {seat: await _download(http, server, table, 1, token) for seat, token in tokens.items()}
            assert all(status == 200 for status, _ in downloads.values())
            server.kill()
            for client in everyone:
                await client.task  # the sockets went with the server

            # The file keeps no seat's token, only their digests.
            raw = db.read_bytes() + (tmp_path / "tables.sqlite3-wal").read_bytes()
            assert not any(token.encode() in raw for token in tokens.values())

            server = Server(db, port)
            await server.ready()
            again = {seat: await _join(http, server, table, tokens[seat]) for seat in people}
            spectator = await _join(http, server, table, tokens[None])
            everyone = [*again.values(), spectator]
            await _quiet(everyone, bots)
            after = {seat: _table_as_seen(c.state) for seat, c in zip([*people, None], everyone, strict=True)}  # type: ignore[arg-type]
            for seat in [*people, None]:
                assert after[seat] == before[seat], f"seat {seat} found the table otherwise than it was"
                assert after[seat]["you"] == seat
            assert spectator.state is not None and spectator.state["view"]["hand"] == []
            assert all(s["present"] for s in spectator.state["seats"] if s["person"])
            for seat, token in tokens.items():  # each token its own seat's download, as before
                assert await _download(http, server, table, 1, token) == downloads[seat]
            ws = await http.ws_connect(server.url(f"/ws/{table}"))  # a made-up token: no seat
            await ws.send_str(json.dumps({"type": "join", "token": "A" * 22}))
            refused = json.loads((await ws.receive()).data)
            assert refused["type"] == "error" and "token" in refused["message"]
            await ws.close()
            # The session plays on to its end.
            for _ in range(3):
                while await _move(again, everyone, bots):
                    pass
                if spectator.state is not None and spectator.state["session_over"]:
                    break
                await _ready(again, everyone, bots)
            assert spectator.state is not None and spectator.state["session_over"]
            assert spectator.state["deals_finished"] == 3
            scores = [s["score"] for s in spectator.state["seats"]]
            assert sum(scores) == 0
            for client in everyone:
                await client.ws.close()
    finally:
        if server.process.poll() is None:
            server.kill()
    # The records, exported as YAML, replay.
    from interpreter.engine.records import replay

    out = subprocess.run(
        [sys.executable, "-m", "interpreter", "web", "--db", str(db), "--export", str(tmp_path / "records")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"3 deal records written to {tmp_path / 'records'}"
    files = sorted((tmp_path / "records").glob("*.yaml"))
    assert [f.name for f in files] == [f"{table}-deal-{n}.yaml" for n in (1, 2, 3)]
    for file in files:
        report = replay(file)
        assert report.ok and report.game is not None and report.game.is_over


def test_a_server_killed_mid_deal_brings_its_table_back(tmp_path: Path) -> None:
    asyncio.run(_restart(tmp_path))


# -- the database itself -----------------------------------------------------------------------


def test_the_database_is_versioned_and_one_server_uses_it(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    store = Store(db)
    assert store.version() == SCHEMA_VERSION
    with pytest.raises(StoreError, match="in use by another tarock web"):
        Store(db)
    store.close()
    assert Store(db).version() == SCHEMA_VERSION  # opened again: nothing to migrate
    future = tmp_path / "future.sqlite3"
    with sqlite3.connect(future) as raw:
        raw.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        raw.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION + 1,))
    raw.close()
    with pytest.raises(StoreError, match=f"newer tarock \\(schema {SCHEMA_VERSION + 1}"):
        Store(future)
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as raw:
        raw.execute("CREATE TABLE notes (text TEXT)")
    raw.close()
    with pytest.raises(StoreError, match="holds other tables"):
        Store(other)
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="no tarock web database"):
        Store(garbage)


def test_a_migration_brings_an_older_file_up_to_date_and_keeps_its_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file of today's schema is opened by a tarock with one more migration: the step runs
    once, in its transaction, and the tables in the file are still there (and still replay)."""
    from interpreter.frontends.web import store as stores
    from interpreter.frontends.web.table import Table
    from interpreter.language.loader import load_ruleset

    db = tmp_path / "t.sqlite3"
    store = Store(db)
    table = Table(load_ruleset("cego"), 4, [0], 2, seed=3, store=store)
    while not table.game.is_over:
        table.bot_step() if table.bot_to_act() is not None else table.act(0, table.game.legal_actions(0)[0])
    store.close()
    later = (*stores.MIGRATIONS, (SCHEMA_VERSION + 1, "ALTER TABLE tables ADD COLUMN note TEXT"))
    monkeypatch.setattr(stores, "MIGRATIONS", later)
    monkeypatch.setattr(stores, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    store = Store(db)
    assert store.version() == SCHEMA_VERSION + 1
    assert [row[1] for row in store.db.execute("PRAGMA table_info(tables)")][-1] == "note"
    saved = store.load(table.id)
    assert saved is not None
    back = Table.restore(saved, load_ruleset("cego"))
    assert back.finished[0].payments == table.finished[0].payments and back.version == table.version
    store.close()
