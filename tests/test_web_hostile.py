"""The web server under hostile input and bad luck (issue 27, items 4 to 7 and 9): every request
or message is bounded before it is parsed and checked before it is used, answered with a reason,
and no table is corrupted or stopped by it; each browser is told things in order, and one that
does not read is dropped without holding up its table (issue 33 item 1, over a real TCP
connection too). The heavier run (floods of 10,000 messages, 200 tables of bots at once, memory
measured) is benchmarks/hostile_web.py.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web table needs aiohttp: pip install '.[web]'")

from aiohttp import ClientSession, WSMsgType
from aiohttp.test_utils import TestServer
from test_web import Client, _join, _next_deal, _open, _settled, pick_cards

from interpreter.frontends.web.app import MAX_BODY, MAX_DEPTH, MAX_FRAME, TABLES, make_app
from interpreter.frontends.web.table import Table


async def _server() -> TestServer:
    server = TestServer(make_app(bot_delay=0))
    await server.start_server()
    return server


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def run(test: Any) -> None:
    """Run an async test with a server and an HTTP client: test(server, http)."""

    async def main() -> None:
        server = await _server()
        try:
            async with ClientSession() as http:
                await test(server, http)
        finally:
            await server.close()

    asyncio.run(main())


async def _post(http: ClientSession, server: TestServer, path: str, data: bytes | str) -> tuple[int, dict[str, Any]]:
    started = time.monotonic()
    async with http.post(server.make_url(path), data=data, headers={"Content-Type": "application/json"}) as response:
        body = await response.json()
        assert time.monotonic() - started < 5, f"{path} took {time.monotonic() - started:.1f} s"
        return response.status, body


# -- item 4: static files -------------------------------------------------------------------------


def test_static_files_are_those_of_the_package_and_nothing_else() -> None:
    async def test(server: TestServer, http: ClientSession) -> None:
        async with http.get(server.make_url("/static/table.js")) as response:
            assert response.status == 200 and "WebSocket" in await response.text()
        for path in (
            "/static/" + "a" * 300 + ".js",  # longer than a file name may be: was a 500 (OSError)
            "/static/" + "a/" * 2000 + "x",  # longer than a path may be
            "/static/..%2fapp.py",
            "/static/%2e%2e%2f%2e%2e%2fpyproject.toml",
            "/static/..%5capp.py",
            "/static/table.js%00.png",
            "/static/",
            "/static/%ff%fe",
        ):
            async with http.get(server.make_url(path)) as response:
                assert response.status == 404, (path[:40], response.status)

    run(test)


# -- item 5: bodies and messages bounded before they are parsed ---------------------------------


@pytest.mark.parametrize("path", ["/api/tables", "/api/scribes"])
def test_bodies_too_deep_long_or_not_json_are_refused_with_a_reason(path: str) -> None:
    async def test(server: TestServer, http: ClientSession) -> None:
        for data, status, reason in (
            ('{"ruleset": "cego", "x": ' + nested(10_000) + "}", 400, "deep"),  # was a RecursionError, 500
            ('{"ruleset": ' + nested(30_000) + "}", 400, "deep"),
            ('{"ruleset": "cego", "x": ' + nested(MAX_DEPTH + 1) + "}", 400, "deep"),
            ('{"ruleset": "' + "[" * 50_000 + '"}', 400, "no ruleset"),  # brackets in text are text
            ("x" * (MAX_BODY + 1), 413, "at most"),
            (b"\xff\xfe{}", 400, "UTF-8"),
            (bytes(range(256)), 400, "UTF-8"),
            ('{"ruleset": NaN}', 400, "JSON"),
            ('{"ruleset": 1e400}', 400, "JSON"),
            ('{"ruleset": ' + "9" * 4301 + "}", 400, "JSON"),
            ("[1, 2]", 400, "object"),
            ("", 400, "JSON"),
        ):
            status_got, body = await _post(http, server, path, data)
            assert (status_got, reason in body["error"]) == (status, True), (str(data)[:40], status_got, body)

    run(test)


async def _joined(http: ClientSession, server: TestServer, body: dict[str, Any]) -> tuple[Table, list[Client]]:
    """A table and a socket at each of its people's seats and one for the spectators."""
    answer = await _open(http, server, body)
    table = server.app[TABLES][answer["table"]]
    clients = [await _join(http, server, link["url"], link["seat"]) for link in answer["links"]]
    clients.append(await _join(http, server, answer["spectators"], None))
    await _settled(clients, table)
    return table, clients


def test_socket_messages_too_deep_long_binary_or_not_utf8_are_refused_and_the_table_goes_on() -> None:
    async def test(server: TestServer, http: ClientSession) -> None:
        table, clients = await _joined(http, server, {"ruleset": "cego", "players": 4, "people": [0, 1], "deals": 1})
        seat0 = clients[0]
        version = table.version
        for frame in (nested(4000), '{"type": "act", "action": ' + nested(MAX_DEPTH) + "}", "NaN", "[1]", "x"):
            await seat0.ws.send_str(frame)
        await seat0.ws.send_bytes(b"\x00\xff binary")
        for _ in range(500):
            await asyncio.sleep(0.002)
            if sum(m["type"] == "refused" for m in seat0.messages) == 6:
                break
        refusals = [m["reason"] for m in seat0.messages if m["type"] == "refused"]
        assert len(refusals) == 6 and all(m["version"] == version for m in seat0.messages if m["type"] == "refused")
        assert "deep" in refusals[0] and "binary" in refusals[-1]
        assert table.version == version  # nothing changed
        # A message too long, and a text that is no UTF-8, close that socket (with a reason), no other.
        seat1 = clients[1]
        await seat1.ws.send_str("x" * (MAX_FRAME + 1))
        await seat1.task
        assert seat1.ws.close_code == 1009
        spectator = clients[-1]
        await spectator.ws._writer.send_frame(b'{"type": "next", "x": "\xff"}', WSMsgType.TEXT)  # not UTF-8
        await spectator.task
        assert spectator.ws.close_code == 1007
        # The table goes on: seat 0 is told the state after its move as before.
        legal = seat0.state["legal"] if seat0.state else []
        if table.game.to_act == 0 and legal:
            await seat0.send(type="act", action=legal[0]["action"])
            await _settled([seat0], table, after=version)
        again = await _join(http, server, f"/table/{table.id}#{table.spectator_token}", None)
        await _settled([seat0, again], table)
        for client in (seat0, again):
            await client.ws.close()

    run(test)


# -- item 6: numbers from outside -------------------------------------------------------------------

HUGE = int("9" * 4300)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("players", 10**100),
        ("players", -1),
        ("players", HUGE),
        ("players", True),
        ("players", 4.0),
        ("players", "4"),
        ("deals", 10**100),
        ("deals", -1),
        ("deals", 0),
        ("deals", HUGE),
        ("people", [10**100]),
        ("people", [-1]),
        ("people", list(range(1000))),
        ("people", [True]),
        ("names", {"9" * 4300: "x"}),
        ("names", {"²": "x"}),
        ("names", {"0": 5}),
        ("names", {"0": "x" * 30_000}),
        ("names", ["Anna"]),
        ("bots", 7),
        ("options", {"x": 1}),
    ],
)
def test_every_number_and_field_of_a_new_table_is_checked_before_use(field: str, value: Any) -> None:
    async def test(server: TestServer, http: ClientSession) -> None:
        body = {"ruleset": "cego", "players": 4, "people": [0], field: value}
        status, answer = await _post(http, server, "/api/tables", json.dumps(body))
        assert status == 400 and answer["error"] and len(answer["error"]) < 700, (status, answer)

    run(test)


@pytest.mark.parametrize(
    ("field", "value"),
    [("players", 10**100), ("players", -1), ("dealer", -1), ("dealer", HUGE), ("dealer", 4), ("by", ["x"])],
)
def test_every_number_of_a_new_scribe_is_checked_before_use(field: str, value: Any) -> None:
    async def test(server: TestServer, http: ClientSession) -> None:
        body = {"ruleset": "cego", "players": 4, field: value}
        status, answer = await _post(http, server, "/api/scribes", json.dumps(body))
        assert status == 400 and answer["error"], (status, answer)

    run(test)


def test_record_numbers_and_tokens_of_any_form_are_refused_not_failed() -> None:
    async def test(server: TestServer, http: ClientSession) -> None:
        answer = await _open(http, server, {"ruleset": "cego", "players": 4, "people": [0], "deals": 1})
        table, token = answer["table"], answer["links"][0]["url"].split("#")[1]
        for number in ("²", "9" * 5000, "-1", "0", "1.0", "%00"):
            async with http.get(
                server.make_url(f"/api/tables/{table}/records/{number}"), headers={"X-Seat-Token": token}
            ) as response:
                assert response.status == 404, (number[:10], response.status)
        for bad in ("é" * 22, "x" * 22, "", "a" * 8000):
            async with http.get(
                server.make_url(f"/api/tables/{table}/records/1"),
                headers={"X-Seat-Token": bad.encode().decode("latin-1")},
            ) as response:
                assert response.status == 403
        ws = await http.ws_connect(server.make_url(f"/ws/{table}"))
        await ws.send_str(json.dumps({"type": "join", "token": "ü" * 22}))
        message = await ws.receive()
        assert message.type == WSMsgType.TEXT and "token" in json.loads(message.data)["message"]
        await ws.close()

    run(test)


# -- item 7: names with lone surrogates -----------------------------------------------------------


def test_names_with_lone_surrogates_and_control_characters_neither_corrupt_nor_stop_a_table() -> None:
    async def test(server: TestServer, http: ClientSession) -> None:
        body = '{"ruleset": "cego", "players": 4, "people": [0, 1], "deals": 1, "names": {"0": "An\\ud800na\\u202e", "2": "\\udfff"}}'
        status, answer = await _post(http, server, "/api/tables", body)
        assert status == 200, answer
        table = server.app[TABLES][answer["table"]]
        assert table.names[0] == "Anna" and table.names[2] == "Bot 2"
        seat0 = await _join(http, server, answer["links"][0]["url"], 0)
        seat1 = Client(await http.ws_connect(server.make_url(f"/ws/{table.id}")), 1)
        token = answer["links"][1]["url"].split("#")[1]
        await seat1.ws.send_str('{"type": "join", "token": "' + token + '", "name": "\\udc80B\\u0000ob\\u200f"}')
        await _settled([seat0, seat1], table)
        assert table.names[1] == "Bob"
        assert seat0.state is not None and [s["name"] for s in seat0.state["seats"]][:3] == ["Anna", "Bob", "Bot 2"]
        status, scribe = await _post(
            http, server, "/api/scribes", '{"ruleset": "cego", "by": "\\ud800", "where": "Br\\udfffäunlingen"}'
        )
        assert status == 200 and "Bräunlingen" in scribe["record"]
        status, entry = await _post(http, server, f"/api/scribes/{scribe['scribe']}", '{"line": "\\ud800pass"}')
        assert status == 200, entry
        for client in (seat0, seat1):
            await client.ws.close()

    run(test)


# -- item 9: a refusal never arrives before the state it speaks of; a slow reader holds up nobody -


def _never_read(server: TestServer, table: str, monkeypatch: pytest.MonkeyPatch, seat: int | None = None) -> None:
    """Make the server's sockets of `seat` (None: the spectators) those of browsers that never
    read: each send waits for ever, as a send to a full connection does."""
    from aiohttp import web

    from interpreter.frontends.web.app import SOCKETS

    send = web.WebSocketResponse.send_str

    async def send_str(self: web.WebSocketResponse, data: str, compress: int | None = None) -> None:
        if getattr(self, "never_read", False):
            await asyncio.Event().wait()
        await send(self, data, compress)

    monkeypatch.setattr(web.WebSocketResponse, "send_str", send_str)
    for joined in server.app[SOCKETS][table]:
        if joined.seat == seat:
            joined.ws.never_read = True


def test_refusals_follow_their_state_and_a_browser_that_never_reads_holds_up_nobody(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three deals of a Königrufen table of people, the seats not to act trying a card at every
    move, while three spectators never read. The table plays on; every socket that reads gets
    every state in order, and each refusal after the state whose version it names."""

    async def test(server: TestServer, http: ClientSession) -> None:
        answer = await _open(http, server, {"ruleset": "koenigrufen", "players": 4, "people": [0, 1, 2, 3], "deals": 3})
        table = server.app[TABLES][answer["table"]]
        slow = [await _join(http, server, answer["spectators"], None) for _ in range(3)]
        clients = [await _join(http, server, link["url"], link["seat"]) for link in answer["links"]]
        await _settled([*clients, *slow], table)
        _never_read(server, table.id, monkeypatch)
        started = time.monotonic()
        while not table.session_over and time.monotonic() - started < 60:
            if table.game.is_over:
                await _next_deal(clients, table)
                continue
            seat = table.game.to_act
            assert seat is not None
            mine = clients[seat].state
            assert mine is not None and mine["version"] == table.version
            before = table.version
            await clients[seat].send(type="act", action=_first(mine))
            for other in clients:  # at once: they may arrive before or after the move
                if other.seat != seat:
                    await other.send(type="act", action={"play": "T22"})
            await _settled(clients, table, after=before)
        assert table.session_over, "the table stopped: a browser that never reads held it up"
        await asyncio.sleep(0.1)
        for client in clients:
            versions = [m["version"] for m in client.messages if m["type"] == "state"]
            assert versions == sorted(versions) and versions[-1] == table.version
            seen = -1
            for message in client.messages:
                if message["type"] == "state":
                    seen = message["version"]
                elif message["type"] == "refused":
                    assert message["version"] == seen, (
                        f"seat {client.seat}: refused at {message['version']}, after {seen}"
                    )
        for client in [*clients, *slow]:
            await client.ws.close()

    run(test)


def test_a_browser_that_sends_without_reading_is_closed_with_a_reason_and_the_table_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seat 1 floods wrong moves and reads none of the refusals: once its queue is full it is
    closed (1008, with the reason); seat 0 and the spectators play and watch on."""
    from interpreter.frontends.web.app import MAX_QUEUE, SOCKETS

    async def test(server: TestServer, http: ClientSession) -> None:
        table, clients = await _joined(http, server, {"ruleset": "cego", "players": 4, "people": [0, 1], "deals": 1})
        seat0, seat1, spectator = clients
        _never_read(server, table.id, monkeypatch, seat=1)
        for _ in range(MAX_QUEUE + 10):
            await seat1.send(type="act", action={"play": "T99"})
        await asyncio.wait_for(seat1.task, 5)
        assert seat1.ws.close_code == 1008
        assert not [s for s in server.app[SOCKETS][table.id] if s.seat == 1]
        while table.game.to_act == 0:
            before = table.version
            assert seat0.state is not None
            await seat0.send(type="act", action=_first(seat0.state))
            await _settled([seat0, spectator], table, after=before)
        assert spectator.state is not None and spectator.state["version"] == table.version
        for client in (seat0, spectator):
            await client.ws.close()

    run(test)


def _frame(text: str) -> bytes:
    """A browser's WebSocket text frame (masked, as a client's must be)."""
    data = text.encode()
    mask = os.urandom(4)
    size = bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + len(data).to_bytes(2, "big")
    return bytes([0x81]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


async def _deaf(server: TestServer, table: str, token: str) -> socket.socket:
    """A browser over TCP that joins `table` and then reads nothing, its receive buffer small."""
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await loop.sock_connect(sock, (server.host, server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    await loop.sock_sendall(
        sock,
        f"GET /ws/{table} HTTP/1.1\r\nHost: {server.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode(),
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += await loop.sock_recv(sock, 1)  # the answer's head only: the first message stays unread
    assert answer.startswith(b"HTTP/1.1 101"), answer
    await loop.sock_sendall(sock, _frame(json.dumps({"type": "join", "token": token})))
    return sock


def test_a_socket_that_stops_reading_is_closed_and_its_table_plays_on() -> None:
    """Issue 33 item 1 over a real connection: a spectator's browser joins over TCP and never
    reads again. The server's writes to it wait once the connection's buffers are full (the
    server's send buffer is set to 4 KiB, as a crowded connection's would be, so that a few
    states fill it instead of the megabytes a loopback connection buffers); after the send
    timeout (half a second here, 30 s by default) it is closed, while the people play their
    deals and every state reaches them in order."""
    from interpreter.frontends.web.app import SOCKETS

    async def main() -> None:
        server = TestServer(make_app(bot_delay=0, stall=0.5))
        await server.start_server()
        try:
            async with ClientSession() as http:
                body = {"ruleset": "koenigrufen", "players": 4, "people": [0, 1, 2, 3], "deals": 3}
                answer = await _open(http, server, body)
                table = server.app[TABLES][answer["table"]]
                deaf = await _deaf(server, table.id, answer["spectators"].split("#")[1])
                clients = [await _join(http, server, link["url"], link["seat"]) for link in answer["links"]]
                await _settled(clients, table)
                (joined,) = [s for s in server.app[SOCKETS][table.id] if s.seat is None]
                joined.ws.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
                dropped_at = None
                started = time.monotonic()
                while not table.session_over and time.monotonic() - started < 60:
                    if table.game.is_over:
                        await _next_deal(clients, table)
                    else:
                        seat, before = table.game.to_act, table.version
                        assert seat is not None and clients[seat].state is not None
                        await clients[seat].send(type="act", action=_first(clients[seat].state))
                        await _settled(clients, table, after=before)
                    if dropped_at is None and joined not in server.app[SOCKETS][table.id]:
                        dropped_at = table.version
                assert table.session_over, "the table stopped: a browser that does not read held it up"
                for _ in range(100):
                    if joined not in server.app[SOCKETS][table.id]:
                        break
                    await asyncio.sleep(0.05)
                assert joined not in server.app[SOCKETS][table.id], "the socket that reads nothing is still open"
                assert joined.closing and not joined.queue
                assert dropped_at is not None, "it was closed only once the session was over"
                final = table.version  # (a person leaving changes the table: who is at it)
                for client in clients:
                    versions = [m["version"] for m in client.messages if m["type"] == "state"]
                    assert versions == sorted(versions) and versions[-1] == final
                for client in clients:
                    await client.ws.close()
                deaf.close()
        finally:
            await server.close()

    asyncio.run(main())


def _first(state: dict[str, Any]) -> Any:
    """The first action offered that is not a pass (so that deals are bid and played out)."""
    option = next((o for o in state["legal"] if o.get("action") != "pass"), state["legal"][0])
    if "choice" in option:
        return {option["choice"]: pick_cards(option)}
    return option["action"]


def _sockets(server: TestServer, table: str) -> list[Any]:
    from interpreter.frontends.web.app import SOCKETS

    return list(server.app[SOCKETS][table])


@pytest.mark.parametrize("players", [4, 5])
def test_a_refused_action_changes_nothing_at_a_koenigrufen_table(players: int) -> None:
    """Every seat tries, at every step of two deals of people, the cards of its hand it may not
    play, the moves of the seat to act and the calls and kontras of other phases: each refusal
    leaves the table's version and every seat's and the spectators' state as they were."""
    import random

    from interpreter import load_ruleset

    table = Table(load_ruleset("koenigrufen"), players, list(range(players)), 2, seed=players)
    rng = random.Random(players)
    tries = 0
    while not table.session_over:
        if table.game.is_over:
            assert table.next_deal() is None
            continue
        states = [table.state_for(s) for s in [*range(players), None]]
        version = table.version
        to_act = table.game.to_act
        offered = [o["action"] for o in states[to_act]["legal"] if "action" in o]
        for seat in range(players):
            mine = [o.get("action") for o in states[seat]["legal"]]
            hand = [{"play": c} for c in states[seat]["view"]["hand"]]
            others = ["pass", "rufer", {"kontra": "game"}, {"kontra": "trull"}, {"announce": "pagat", "cards": []}]
            for action in rng.sample([*hand, *offered, *others], 4):
                if action in mine:
                    continue
                assert table.act(seat, action) is not None, (seat, action)
                tries += 1
                assert table.version == version
        assert [table.state_for(s) for s in [*range(players), None]] == states
        option = rng.choice(states[to_act]["legal"])
        action = {option["choice"]: pick_cards(option, rng)} if "choice" in option else option["action"]
        assert table.act(to_act, action) is None
    assert tries > 500


def test_finished_deals_are_asked_for_by_number_and_nothing_else() -> None:
    """The `deals` and `deal` messages take a finished deal's number: anything else is refused
    with the reason, and a number is never taken for a place in a list (0 or -1)."""
    from interpreter import load_ruleset

    table = Table(load_ruleset("cego"), 4, [], 2, seed=5)
    while table.bot_step():
        pass
    assert len(table.finished) == 1
    for bad in ("1", 1.0, True, None, 0, -1, 2, 10**100, [1], {"n": 1}):
        assert isinstance(table.finished_deal(bad, 0), str), bad
        assert isinstance(table.finished_deal(bad, None), str), bad
    for bad in ("1", 1.0, True, None, 0, -1, 3, 10**100, [1]):
        assert isinstance(table.deals_page(bad), str), bad
    page = table.deals_page(2)
    assert isinstance(page, dict) and page["deals"] == [] and page["next"] is None
    deal = table.finished_deal(1, None)
    assert isinstance(deal, dict) and deal["number"] == 1 and deal["view"]["hand"] == []


def test_the_limits_stated_in_the_docs_are_the_servers() -> None:
    """docs/protocol.md and the README state the web server's limits: the numbers they give are
    the constants the server uses."""
    from pathlib import Path

    from interpreter.frontends.web import app, store, table, thinking

    root = Path(__file__).resolve().parent.parent
    protocol = " ".join((root / "docs" / "protocol.md").read_text(encoding="utf-8").split())
    readme = " ".join((root / "README.md").read_text(encoding="utf-8").split())
    lifetimes = app.Lifetimes()
    assert (lifetimes.table, lifetimes.finished, lifetimes.scribe) == (3600, 600, 3600)  # "an hour", "ten minutes"
    for stated in (
        f"holds at most {app.MAX_BODY // 1024} KiB",
        f"at most {app.MAX_DEPTH} deep",
        f"a socket message holds at most {app.MAX_FRAME // 1024} KiB",
        f"at most {app.MAX_QUEUE} messages waiting",
        f"waits at most {app.SEND_TIMEOUT:g} s",
        f"at most {app.MAX_SOCKETS} sockets at one table, {app.MAX_TABLES} tables and {app.MAX_SCRIBES} scribes",
        "for an hour (ten minutes once its session is over), and a scribe without an entry for an hour",
        f"the database keeps the {store.MAX_STORED:,} tables used last",
        f"seconds from {table.MIN_STAND_IN:g} to {table.MAX_STAND_IN:g} before a bot plays a seat its person left,"
        f" {table.STAND_IN:g} when left out",
        f"at most {table.DEALS_PAGE} rows",
        f"a number from {table.MIN_SECONDS:g} to {table.MAX_SECONDS:g}, {table.SEARCH_SECONDS:g} when left out",
        f"silent for {thinking.WAIT:g} s",
        f"cut to {table.MAX_NAME} characters",
        f"at most {app.MAX_FIELD} characters",
    ):
        assert stated in protocol, stated
    for stated in (
        f"{app.MAX_QUEUE} messages unread, or whose browser takes no message for {app.SEND_TIMEOUT:g} s",
        f"the {store.MAX_STORED:,} tables used last",
        f"{table.MIN_SECONDS:g} to {table.MAX_SECONDS:g} seconds, {table.SEARCH_SECONDS:g} by default",
        f"{app.MAX_TABLES} tables and {app.MAX_SCRIBES} scribes open on a server",
    ):
        assert stated in readme, stated


def test_a_browser_that_reads_is_answered_every_message_of_a_flood() -> None:
    """A thousand wrong messages in a row from a socket that reads its answers: each is refused
    and the socket stays open (its writer keeps up with its queue: a send that does not wait
    costs the loop nothing more; with a task for each send, the queue filled after 32 and the
    socket was closed as a reader too slow)."""

    async def test(server: TestServer, http: ClientSession) -> None:
        _table, clients = await _joined(http, server, {"ruleset": "cego", "players": 4, "people": [0, 1], "deals": 1})
        seat0 = clients[0]
        for i in range(1000):
            await seat0.ws.send_str(json.dumps({"type": "act", "action": {"play": "T99"}}) if i % 2 else "x")
        for _ in range(2500):
            if sum(m["type"] == "refused" for m in seat0.messages) == 1000:
                break
            await asyncio.sleep(0.002)
        assert sum(m["type"] == "refused" for m in seat0.messages) == 1000
        assert not seat0.ws.closed
        for client in clients:
            await client.ws.close()

    run(test)
