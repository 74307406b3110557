"""People come and go at a web table (issue 31 item 7), read from the sockets' side: who is at
the table, a seat's link open twice, a bot standing in for a person who left (and the person
taking the seat back), the next deal dealt once everybody at the table is ready, names given on
joining. What a socket learns of the others is public (who is there, who is ready); how many
browsers are at a seat is told to that seat alone."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web table needs aiohttp: pip install '.[web]'")

from aiohttp import ClientSession
from aiohttp.test_utils import TestServer
from test_web import Client, _join, _open, _settled
from test_web_hostile import _first

from interpreter.frontends.web.app import TABLES, make_app
from interpreter.frontends.web.table import Table


def run(test: Callable[[TestServer, ClientSession], Awaitable[None]]) -> None:
    async def main() -> None:
        server = TestServer(make_app(bot_delay=0))
        await server.start_server()
        try:
            async with ClientSession() as http:
                await test(server, http)
        finally:
            await server.close()

    asyncio.run(main())


async def _until(condition: Callable[[], Any], timeout: float = 10) -> None:
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < timeout, "it did not happen in time"
        await asyncio.sleep(0.01)


def _seats(client: Client) -> list[dict[str, Any]]:
    assert client.state is not None
    seats: list[dict[str, Any]] = client.state["seats"]
    return seats


def test_who_is_at_the_table_and_a_link_open_twice() -> None:
    async def test(server: TestServer, http: ClientSession) -> None:
        answer = await _open(http, server, {"ruleset": "cego", "players": 4, "people": [0, 1, 3], "deals": 1})
        table = server.app[TABLES][answer["table"]]
        links = {link["seat"]: link["url"] for link in answer["links"]}
        first = await _join(http, server, links[0], 0)
        again = await _join(http, server, links[0], 0)  # the same link in a second tab
        other = await _join(http, server, links[1], 1)
        spectator = await _join(http, server, answer["spectators"], None)
        clients = [first, again, other, spectator]
        await _settled(clients, table)
        assert first.state is not None and again.state is not None and other.state is not None
        assert first.state["windows"] == again.state["windows"] == 2  # told to that seat: play in one
        assert other.state["windows"] == 1
        assert spectator.state is not None and spectator.state["windows"] is None
        for client in clients:  # who is there is public
            present = [s["present"] for s in _seats(client)]
            assert present == [True, True, None, False]  # seat 2 is a bot's; nobody opened seat 3's link
        await again.ws.close()
        await _until(lambda: first.state is not None and first.state["windows"] == 1)
        await other.ws.close()
        await _until(lambda: _seats(spectator)[1]["present"] is False and _seats(first)[1]["present"] is False)
        for client in (first, spectator):
            await client.ws.close()

    run(test)


def test_a_bot_plays_for_a_person_who_left_until_the_person_comes_back() -> None:
    """Seat 0's person leaves; after the table's time (a fraction of a second here) a bot plays
    the seat and every socket is told so; the person comes back and plays it again."""

    async def play_seat_one_until(one: Client, table: Table, done: Callable[[], bool]) -> None:
        started = time.monotonic()
        while not table.game.is_over and not done():
            assert time.monotonic() - started < 20, "the table stopped"
            state = one.state
            if table.game.to_act == 1 and state is not None and state["version"] == table.version:
                await one.send(type="act", action=_first(state))
            await asyncio.sleep(0.01)

    async def test(server: TestServer, http: ClientSession) -> None:
        answer = await _open(http, server, {"ruleset": "cego", "players": 4, "people": [0, 1], "deals": 1})
        table: Table = server.app[TABLES][answer["table"]]
        table.stand_in_after = 0.2
        links = {link["seat"]: link["url"] for link in answer["links"]}
        zero = await _join(http, server, links[0], 0)
        one = await _join(http, server, links[1], 1)
        await _settled([zero, one], table)
        await zero.ws.close()
        left = len(table.actions)
        await _until(lambda: _seats(one)[0]["stand_in"])
        assert _seats(one)[0]["present"] is False
        await play_seat_one_until(one, table, lambda: any(seat == 0 for seat, _ in table.actions[left:]))
        assert any(seat == 0 for seat, _ in table.actions[left:]), "no bot played for the person who left"
        back = await _join(http, server, links[0], 0)  # the seat is the person's again
        await _until(lambda: back.state is not None and not _seats(back)[0]["stand_in"])
        assert _seats(back)[0]["present"] and _seats(one)[0]["present"]
        await play_seat_one_until(one, table, lambda: table.game.to_act == 0)
        if not table.game.is_over:
            step = table.step
            await asyncio.sleep(0.3)
            assert table.game.to_act == 0 and table.step == step, "a bot played for a person who is back"
        for client in (one, back):
            await client.ws.close()

    run(test)


def test_the_next_deal_waits_for_everybody_at_the_table() -> None:
    """A deal is over: the settlement stays on every screen until each person at the table has
    said they are ready; a person who is away is not waited for."""

    async def test(server: TestServer, http: ClientSession) -> None:
        answer = await _open(http, server, {"ruleset": "cego", "players": 4, "people": [0, 1, 2], "deals": 3})
        table: Table = server.app[TABLES][answer["table"]]
        links = {link["seat"]: link["url"] for link in answer["links"]}
        clients = [await _join(http, server, links[s], s) for s in (0, 1, 2)]
        await _settled(clients, table)
        while not table.game.is_over:
            seat, before = table.game.to_act, table.version
            mine = next(c for c in clients if c.seat == seat)
            assert mine.state is not None
            await mine.send(type="act", action=_first(mine.state))
            await _settled(clients, table, after=before)
        await clients[0].send(type="next")
        await _until(lambda: all(_seats(c)[0]["ready"] for c in clients))
        assert len(table.session.deals) == 1 and all(c.state and c.state["result"] for c in clients)
        await clients[2].ws.close()  # seat 2's person leaves: not waited for
        await _until(lambda: _seats(clients[0])[2]["present"] is False)
        assert len(table.session.deals) == 1
        before = table.version
        await clients[1].send(type="next")
        await _settled(clients[:2], table, after=before)
        assert len(table.session.deals) == 2 and not table.ready  # dealt; nobody is ready for the third yet
        assert all(c.state and c.state["deal"] == 2 and c.state["result"] is None for c in clients[:2])
        for client in clients[:2]:
            await client.ws.close()

    run(test)


def test_a_name_given_on_joining_is_shown_to_all() -> None:
    async def test(server: TestServer, http: ClientSession) -> None:
        answer = await _open(http, server, {"ruleset": "cego", "players": 4, "people": [0, 1], "deals": 1})
        table: Table = server.app[TABLES][answer["table"]]
        links = {link["seat"]: link["url"] for link in answer["links"]}
        zero = await _join(http, server, links[0], 0)
        one = await _join(http, server, links[1], 1)
        await _settled([zero, one], table)
        await zero.send(type="name", name="  Anna\u202e ")
        await _until(lambda: _seats(one)[0]["name"] == "Anna")  # cleaned: no bidi override, no spaces
        refused = await one.ask({"type": "name", "name": "\u200b"}, "refused")
        assert refused["type"] == "refused" and "name" in refused["reason"]
        refused = await one.ask({"type": "name", "name": "x" * 201}, "refused")
        assert refused["type"] == "refused" and "200" in refused["reason"]
        assert _seats(zero)[1]["name"] == "Seat 1"
        for client in (zero, one):
            await client.ws.close()

    run(test)


async def _lobby(http: ClientSession, server: TestServer, **body: Any) -> tuple[int, dict[str, Any]]:
    async with http.post(server.make_url("/api/tables"), json={"ruleset": "cego", **body}) as response:
        return response.status, await response.json()


def test_the_lobby_sets_when_a_bot_stands_in() -> None:
    async def test(server: TestServer, http: ClientSession) -> None:
        status, answer = await _lobby(http, server, stand_in=30)
        assert status == 200 and server.app[TABLES][answer["table"]].stand_in_after == 30
        status, answer = await _lobby(http, server, stand_in="never")
        assert status == 200 and server.app[TABLES][answer["table"]].stand_in_after is None
        status, answer = await _lobby(http, server)
        assert status == 200 and server.app[TABLES][answer["table"]].stand_in_after == 120
        for wrong in (1, 7200, "soon", True):
            status, answer = await _lobby(http, server, stand_in=wrong)
            assert status == 400 and "stand_in" in answer["error"], answer

    run(test)
