"""Tables and scribes nobody uses are closed (issue 33 item 2): a server held 200 tables and
200 scribes for ever and then answered 503 until it was restarted. A table no browser has been
at for its lifetime (an hour; ten minutes once its session is over) is closed: it stays in the
database, its finished deals downloadable as before and its links opening it again where it was
(issue 31 item 8); a scribe not written to for an hour is closed (its record is on the browser's
page). Here the lifetimes are a fraction of a second."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
import yaml

pytest.importorskip("aiohttp", reason="the web table needs aiohttp: pip install '.[web]'")

from aiohttp import ClientSession
from aiohttp.test_utils import TestServer
from test_web import Client, _join, _open, _settled
from test_web_hostile import _first

from interpreter.frontends.web import app as web_app
from interpreter.frontends.web.app import MAX_SCRIBES, SCRIBES, STORE, TABLES, Lifetimes, make_app
from interpreter.frontends.web.table import Table

SHORT = Lifetimes(table=0.5, finished=0.2, scribe=0.5)


def run(test: Any, lifetimes: Lifetimes = SHORT) -> None:
    async def main() -> None:
        server = TestServer(make_app(bot_delay=0, lifetimes=lifetimes))
        await server.start_server()
        try:
            async with ClientSession() as http:
                await test(server, http)
        finally:
            await server.close()

    asyncio.run(main())


async def _play_deal(clients: list[Client], table: Table) -> None:
    """The people at `table` play the deal under way to its end."""
    started = time.monotonic()
    while not table.game.is_over:
        assert time.monotonic() - started < 30
        seat, before = table.game.to_act, table.version
        assert seat is not None
        mine = next(c for c in clients if c.seat == seat).state
        assert mine is not None
        await next(c for c in clients if c.seat == seat).send(type="act", action=_first(mine))
        await _settled(clients, table, after=before)


async def _download(http: ClientSession, server: TestServer, table: str, number: int, token: str) -> tuple[int, Any]:
    url = server.make_url(f"/api/tables/{table}/records/{number}")
    async with http.get(url, headers={"X-Seat-Token": token}) as response:
        text = await response.text()
        return response.status, yaml.safe_load(text) if response.status == 200 else text


async def _until(condition: Any, timeout: float = 10) -> None:
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < timeout, "not closed in time"
        await asyncio.sleep(0.02)


def test_250_tables_and_scribes_opened_and_closed() -> None:
    """250 tables and 250 scribes, one after another: the abandoned and the finished are closed
    after their lifetime, so that the server never holds 200 and never answers 503. Some are
    played (a whole session; one deal of two, then left), and their records downloaded after
    they are closed, each as its requester may have it."""

    async def test(server: TestServer, http: ClientSession) -> None:
        played: list[tuple[str, dict[int | None, str], int]] = []  # (table, tokens, deals of its session)
        for i in range(250):
            deals = 2 if i % 50 == 25 else 1
            people = [0, 1, 2, 3] if i % 25 == 0 else [0]
            answer = await _open(http, server, {"ruleset": "cego", "players": 4, "people": people, "deals": deals})
            assert len(server.app[TABLES]) < web_app.MAX_TABLES
            async with http.post(server.make_url("/api/scribes"), json={"ruleset": "cego", "players": 4}) as response:
                assert response.status == 200, await response.text()
                scribe = (await response.json())["scribe"]
            async with http.post(server.make_url(f"/api/scribes/{scribe}"), json={"line": "pass"}) as response:
                assert response.status == 200
            assert len(server.app[SCRIBES]) < MAX_SCRIBES
            if i % 25 == 0:
                # Joined first: on a busy machine the table may have outlived its half second
                # already, and a link opens it again (a new Table, read after the joins).
                clients = [await _join(http, server, link["url"], link["seat"]) for link in answer["links"]]
                table = server.app[TABLES][answer["table"]]
                await _settled(clients, table)
                await _play_deal(clients, table)
                assert table.session_over == (deals == 1)
                for client in clients:
                    await client.ws.close()
                tokens: dict[int | None, str] = {link["seat"]: link["url"].split("#")[1] for link in answer["links"]}
                tokens[None] = answer["spectators"].split("#")[1]
                played.append((table.id, tokens, deals))
        await _until(lambda: not server.app[TABLES] and not server.app[SCRIBES])
        assert server.app[STORE].count() == 250  # each kept in the database
        for table_id, tokens, deals in played:
            whole = deals == 1  # the session was over: the seats may have every hand
            status, record = await _download(http, server, table_id, 1, tokens[0])
            assert status == 200 and ("deal" in record) == whole, (table_id, deals)
            status, record = await _download(http, server, table_id, 1, tokens[None])
            assert status == 200 and "deal" not in record and "observed" in record  # never the spectators'
            status, _ = await _download(http, server, table_id, 2, tokens[0])
            assert status == 404  # never played
            status, _ = await _download(http, server, table_id, 1, "x" * 22)
            assert status == 403
        # A link to a closed table opens it again, where it was.
        table_id, tokens, deals = played[-1]
        again = await _join(http, server, f"/table/{table_id}#{tokens[0]}", 0)
        await _until(lambda: again.state is not None)
        assert again.state is not None and again.state["deals_finished"] == 1 and again.state["deal"] == 1
        assert again.state["view"]["phase"] == "over" and again.state["session_over"] == (deals == 1)
        assert table_id in server.app[TABLES]
        await again.ws.close()
        ws = await http.ws_connect(server.make_url("/ws/nosuchtable"))
        message = await ws.receive_json()
        assert message["type"] == "error" and "no such table" in message["message"]
        await ws.close()
        # So does a closed scribe, and where its record is.
        async with http.post(server.make_url(f"/api/scribes/{scribe}"), json={"line": "pass"}) as response:
            assert response.status == 404 and "record on your page" in (await response.json())["error"]

    run(test)


def test_a_table_is_closed_only_once_nobody_is_at_it() -> None:
    """A spectator watching keeps a table open past its lifetime; once the spectator has left,
    the table is closed after its lifetime, not before."""

    async def test(server: TestServer, http: ClientSession) -> None:
        answer = await _open(http, server, {"ruleset": "cego", "players": 4, "people": [0], "deals": 3})
        table_id = answer["table"]
        spectator = await _join(http, server, answer["spectators"], None)
        await asyncio.sleep(4 * SHORT.table)
        assert table_id in server.app[TABLES]
        await spectator.ws.close()
        left = time.monotonic()
        await _until(lambda: table_id not in server.app[TABLES])
        assert time.monotonic() - left >= SHORT.table * 0.9

    run(test)


def test_the_tables_used_longest_ago_are_forgotten_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the database keeps is bounded: the MAX_STORED tables used last; a table forgotten
    is no table (404, and its link says so)."""
    monkeypatch.setattr(web_app, "MAX_STORED", 3)

    async def test(server: TestServer, http: ClientSession) -> None:
        opened = []
        for _ in range(5):
            opened.append((await _open(http, server, {"ruleset": "cego", "people": [0]}))["table"])
            await asyncio.sleep(0.01)  # each used a little later than the one before
        await _until(lambda: not server.app[TABLES])
        await _until(lambda: server.app[STORE].count() == 3)
        assert server.app[STORE].table_ids() == opened[2:]
        async with http.get(server.make_url(f"/api/tables/{opened[0]}/records/1")) as response:
            assert response.status == 404

    run(test)


def test_a_full_server_closes_the_table_quiet_longest_to_open_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """With MAX_TABLES open, a new table (or one brought back) takes the place of the one nobody
    has been at for the longest: it is closed, and stays in the database. Where somebody is at
    every one, 503."""
    monkeypatch.setattr(web_app, "MAX_TABLES", 2)

    async def test(server: TestServer, http: ClientSession) -> None:
        first = await _open(http, server, {"ruleset": "cego", "people": [0]})
        second = await _open(http, server, {"ruleset": "cego", "people": [0]})
        third = await _open(http, server, {"ruleset": "cego", "people": [0]})
        assert set(server.app[TABLES]) == {second["table"], third["table"]}
        at_second = await _join(http, server, second["links"][0]["url"], 0)
        at_third = await _join(http, server, third["links"][0]["url"], 0)
        await _until(lambda: at_second.state is not None and at_third.state is not None)
        async with http.post(server.make_url("/api/tables"), json={"ruleset": "cego"}) as response:
            assert response.status == 503 and "in use" in (await response.json())["error"]
        ws = await http.ws_connect(server.make_url(f"/ws/{first['table']}"))
        await ws.send_json({"type": "join", "token": first["links"][0]["url"].split("#")[1]})
        message = await ws.receive_json()
        assert message["type"] == "error" and "in use" in message["message"]
        await ws.close()
        await at_third.ws.close()
        back = await _join(http, server, first["links"][0]["url"], 0)
        await _until(lambda: back.state is not None)
        assert set(server.app[TABLES]) == {first["table"], second["table"]}
        for client in (at_second, back):
            await client.ws.close()

    run(test, Lifetimes())
