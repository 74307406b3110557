"""A hostile run against `tarock web`: the server in its own process, attacked over 127.0.0.1 as a
mischievous player and bad luck would, its memory (RSS) measured before and after.

    python benchmarks/hostile_web.py                 # the whole run (about two minutes on 2 cores)
    python benchmarks/hostile_web.py --quick         # fewer of each, for a first look
    python benchmarks/hostile_web.py --sessions      # also whole sessions of every ruleset, every
                                                     # reading and option, every table size, with
                                                     # people in every seat (many minutes)

Two servers are started, since one server holds 200 tables open at once (a table nobody is at is
closed only after an hour, issue 33):
- the crowd: 199 tables of bots at once (a spectator joined to each sets them going; bots play a
  whole session each with no pause) and one table of people whose moves are timed meanwhile;
- the rest: malformed, huge, deep, binary and non-UTF-8 bodies, paths and socket messages; floods
  of 10,000 messages (one socket reading its answers, one not); browsers vanishing mid-deal; two
  sockets at one seat; and, with --sessions, the whole sessions.

Every answer is checked (no 500, a reason with every refusal, no socket of another table closed),
every table of people is played to its end afterwards (none was stopped or corrupted), and the
figures printed: RSS before and after each phase, and what each phase took. Exit status 1 if a
check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, ClientWebSocketResponse, TCPConnector, WSMsgType

ROOT = Path(__file__).resolve().parent.parent
FAILURES: list[str] = []


def check(ok: bool, what: str) -> None:
    if not ok:
        FAILURES.append(what)
        print(f"  FAILED: {what}", flush=True)


class Server:
    """`tarock web` in a process of its own."""

    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        # Its tables go to a database file of its own (the default lies in the user's data
        # folder, where one server at a time may use it), removed when it stops.
        self.data = tempfile.TemporaryDirectory(prefix="tarock-bench-")
        env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": self.data.name}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "interpreter", "web", "--port", str(self.port), "--bot-delay", "0"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.base = f"http://127.0.0.1:{self.port}"

    async def ready(self, http: ClientSession) -> None:
        for _ in range(200):
            try:
                async with http.get(self.base + "/api/rulesets") as response:
                    if response.status == 200:
                        return
            except OSError:
                await asyncio.sleep(0.05)
        raise RuntimeError("tarock web did not start")

    def rss(self) -> tuple[int, int]:
        """The server's resident memory now and at its peak, in kB."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        found = dict(re.findall(r"^(VmRSS|VmHWM):\s+(\d+) kB", status, re.M))
        return int(found["VmRSS"]), int(found["VmHWM"])

    def stop(self) -> str:
        self.process.terminate()
        _, err = self.process.communicate(timeout=10)
        self.data.cleanup()
        return err


def report(server: Server, phase: str, started: float) -> None:
    rss, peak = server.rss()
    print(
        f"  {phase}: {time.monotonic() - started:.1f} s; RSS {rss / 1024:.1f} MB (peak {peak / 1024:.1f} MB)",
        flush=True,
    )


async def post(http: ClientSession, server: Server, path: str, data: bytes | str) -> tuple[int, Any]:
    async with http.post(server.base + path, data=data, headers={"Content-Type": "application/json"}) as response:
        text = await response.text()
        try:
            return response.status, json.loads(text)
        except ValueError:
            return response.status, text


class Browser:
    """One socket at a table; every message it receives is kept (unless it does not read)."""

    def __init__(self, ws: ClientWebSocketResponse, seat: int | None, read: bool = True):
        self.ws, self.seat = ws, seat
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.task = asyncio.get_running_loop().create_task(self._read()) if read else None

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type != WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            self.messages.append(data)
            if data["type"] == "state":
                self.state = data

    async def send(self, message: Any) -> None:
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))


async def open_table(http: ClientSession, server: Server, body: dict[str, Any]) -> dict[str, Any]:
    status, answer = await post(http, server, "/api/tables", json.dumps(body))
    if status != 200:
        raise RuntimeError(f"no table: {status} {answer}")
    opened: dict[str, Any] = answer
    return opened


async def join(http: ClientSession, server: Server, link: str, seat: int | None, read: bool = True) -> Browser:
    table, token = link.removeprefix("/table/").split("#")
    ws = await http.ws_connect(f"{server.base}/ws/{table}", max_msg_size=0)
    browser = Browser(ws, seat, read)
    await browser.send({"type": "join", "token": token})
    return browser


def choose(state: dict[str, Any], rng: random.Random) -> Any:
    option = rng.choice(state["legal"])
    if "choice" in option:
        if option.get("sets"):  # the rules list every set of cards that may be chosen
            return {option["choice"]: rng.choice(option["sets"])}
        must = list(option.get("including") or [])
        allowed = [c for c in option["from"] if c not in option["forbidden"] and c not in must]
        return {option["choice"]: must + rng.sample(allowed, option["count"] - len(must))}
    return option["action"]


async def play_out(browsers: list[Browser], rng: random.Random, limit: float = 120) -> list[float]:
    """Play the session of a table of people to its end from the sockets' own states; the time
    from each move to the state that shows it (ms)."""
    by_seat = {b.seat: b for b in browsers if b.seat is not None}
    waits: list[float] = []
    started = time.monotonic()
    while time.monotonic() - started < limit:
        await asyncio.sleep(0.005)
        state = next((b.state for b in by_seat.values() if b.state), None)
        if state is None:
            continue
        if state["session_over"]:
            return waits
        if state["view"]["phase"] == "over":
            first = by_seat[min(by_seat)]
            for browser in by_seat.values():  # the next deal comes once everybody is ready
                await browser.send({"type": "next"})
            await _newer(first, state["version"])
            continue
        seat = state["view"]["to_act"]
        mine = by_seat[seat].state if seat in by_seat else None
        if mine is None or mine["version"] != state["version"] or not mine["legal"]:
            continue  # a bot's turn, or a state not yet at every socket
        sent = time.monotonic()
        await by_seat[seat].send({"type": "act", "action": choose(mine, rng)})
        await _newer(by_seat[seat], mine["version"])
        waits.append((time.monotonic() - sent) * 1000)
    raise RuntimeError("the session did not end")


async def _newer(browser: Browser, version: int) -> None:
    for _ in range(20000):
        if browser.state and browser.state["version"] > version:
            return
        if browser.messages and browser.messages[-1]["type"] == "refused":
            return
        await asyncio.sleep(0.001)
    raise RuntimeError(f"seat {browser.seat} got no newer state")


# -- the crowd: 200 tables at once ------------------------------------------------------------------


async def crowd(quick: bool) -> None:
    server = Server()
    async with ClientSession(connector=TCPConnector(limit=0)) as http:  # a socket per table
        await server.ready(http)
        print("The crowd: 199 tables of bots and one of people at once", flush=True)
        started = time.monotonic()
        report(server, "started", started)
        rulesets = [r["name"] for r in (await (await http.get(server.base + "/api/rulesets")).json())["rulesets"]]
        people = await open_table(http, server, {"ruleset": "cego", "players": 4, "people": [0, 1, 2, 3], "deals": 4})
        count = 20 if quick else 199
        links = []
        for i in range(count):
            # Bots alone: a deal each (the next is dealt when a person asks for it).
            answer = await open_table(http, server, {"ruleset": rulesets[i % len(rulesets)], "people": [], "deals": 1})
            links.append(answer["spectators"])
        status, full = await post(http, server, "/api/tables", json.dumps({"ruleset": "cego"}))
        check(quick or status == 503, f"the 201st table is refused with 503 ({status} {full})")
        report(server, f"{count} tables of bots opened", started)
        seats = [await join(http, server, link["url"], link["seat"]) for link in people["links"]]
        # A spectator joins each table of bots (which sets its bots going) while the people play.
        joining = asyncio.gather(*(join(http, server, link, None) for link in links))
        waits = await play_out(seats, random.Random(1))
        spectators = await joining
        report(server, "the table of people played its session while the bots played theirs", started)
        median = statistics.median(waits)
        worst = max(waits)
        print(f"  the people's moves acknowledged in {median:.0f} ms (median), {worst:.0f} ms at worst", flush=True)
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            done = sum(1 for s in spectators if s.state and s.state["session_over"])
            if done == len(spectators):
                break
            await asyncio.sleep(0.2)
        check(all(s.state and s.state["session_over"] for s in spectators), "every bot table finished its session")
        report(server, "every bot table finished", started)
        for browser in [*spectators, *seats]:
            await browser.ws.close()
        await asyncio.sleep(0.5)
        report(server, "every socket closed", started)
    err = server.stop()
    check("Traceback" not in err, f"no traceback on the crowd server's stderr: {err[-2000:]}")


# -- everything else ----------------------------------------------------------------------------------


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


JUNK_BODIES: list[bytes | str] = [
    nested(30_000),
    '{"ruleset": "cego", "players": ' + nested(10_000) + "}",
    "x" * (64 * 1024 + 1),
    bytes(range(256)) * 10,
    b"\xc3\x28\xa0\xa1",
    '{"ruleset": NaN}',
    '{"ruleset": "cego", "players": ' + "9" * 4300 + "}",
    '{"ruleset": "cego", "players": 1e400}',
    '{"ruleset": "cego", "players": -1}',
    '{"ruleset": "cego", "players": 100000000000000000000}',
    '{"ruleset": "cego", "deals": -1}',
    '{"ruleset": "cego", "people": [1e300]}',
    '{"ruleset": "cego", "names": {"0": "\\ud800\\udc00\\ud800"}}',
    '{"ruleset": "cego", "names": {"' + "9" * 4300 + '": "x"}}',
    '{"ruleset": "cego", "options": {"' + "a" * 1000 + '": "b"}}',
    '{"ruleset": "cego", "dealer": -1}',
    '{"ruleset": "cego", "by": "' + "\\ud800" * 50 + '"}',
    "[]",
    "null",
    "",
]


async def junk(http: ClientSession, server: Server, rounds: int) -> None:
    statuses: dict[int, int] = {}
    for _ in range(rounds):
        for path in ("/api/tables", "/api/scribes"):
            for body in JUNK_BODIES:
                status, answer = await post(http, server, path, body)
                statuses[status] = statuses.get(status, 0) + 1
                check(status < 500, f"{path} answered {status} to {str(body)[:40]!r}")
                told = isinstance(answer, dict) and any(answer.get(k) for k in ("error", "scribe", "table"))
                check(told, f"a reason, or the table or scribe opened: {answer!r:.80}")
    for path in (
        "/static/" + "a" * 300,
        "/static/" + "a/" * 2000,
        "/static/..%2f..%2fREADME.md",
        "/static/%00",
        "/table/x" * 500,
    ):
        async with http.get(server.base + path) as response:
            check(response.status in (404, 414, 400), f"{path[:30]} answered {response.status}")
            statuses[response.status] = statuses.get(response.status, 0) + 1
    print(f"  answers by status: {dict(sorted(statuses.items()))}", flush=True)


async def frames(http: ClientSession, server: Server) -> None:
    """Every kind of bad frame, each on a socket of its own, while seat 0 plays on."""
    answer = await open_table(http, server, {"ruleset": "cego", "players": 4, "people": [0], "deals": 1})
    seat0 = await join(http, server, answer["links"][0]["url"], 0)
    table = answer["table"]
    closes: dict[int | None, int] = {}
    for frame in (
        nested(4000),
        nested(100),
        "x" * (8 * 1024 + 1),
        "x" * (70 * 1024),
        b"\x00\x01binary",
        "NaN",
        '{"type": "join", "token": "' + "é" * 22 + '"}',
        '{"type": "join", "token": 5}',
        '{"type": "act"}',
    ):
        ws = await http.ws_connect(f"{server.base}/ws/{table}", max_msg_size=0)
        if isinstance(frame, bytes):
            await ws.send_bytes(frame)
        else:
            await ws.send_str(frame)
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                break
        closes[ws.close_code] = closes.get(ws.close_code, 0) + 1
    ws = await http.ws_connect(f"{server.base}/ws/{table}")
    await ws._writer.send_frame(b'{"type": "join", "token": "\xff"}', WSMsgType.TEXT)  # not UTF-8
    async for _ in ws:
        pass
    closes[ws.close_code] = closes.get(ws.close_code, 0) + 1
    print(f"  bad frames before joining: sockets closed with codes {closes}", flush=True)
    check(seat0.state is not None and not seat0.ws.closed, "seat 0's socket is untouched")
    await seat0.ws.close()


async def floods(http: ClientSession, server: Server, count: int) -> None:
    answer = await open_table(http, server, {"ruleset": "cego", "players": 4, "people": [0, 1, 2], "deals": 1})
    reader = await join(http, server, answer["links"][0]["url"], 0)
    silent = await join(http, server, answer["links"][1]["url"], 1, read=False)
    watcher = await join(http, server, answer["links"][2]["url"], 2)
    await asyncio.sleep(0.3)
    started = time.monotonic()
    messages = [
        {"type": "act", "action": {"play": "T99"}},
        {"type": "next"},
        "x",
        nested(20),
        {"type": "act", "action": "pass"},
    ]
    for i in range(count):
        await reader.send(messages[i % len(messages)])
    for i in range(count):
        try:
            await silent.send(messages[i % len(messages)])
        except ConnectionError:
            break
    answered = -1
    while answered != len(reader.messages):  # until the answers stop coming
        answered = len(reader.messages)
        await asyncio.sleep(0.5)
    refused = sum(m["type"] == "refused" for m in reader.messages)
    print(
        f"  {count} messages from a socket that reads: {refused} refused, {answered} messages in all, in "
        f"{time.monotonic() - started:.1f} s",
        flush=True,
    )
    # The one that does not read: what its connection's buffers do not take fills its queue at
    # the server (64 messages), and it is closed; or the buffers take it all.
    closed = "no: the connection's buffers took every answer"
    with contextlib.suppress(asyncio.TimeoutError):
        while True:
            message = await asyncio.wait_for(silent.ws.receive(), 2)
            if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.ERROR):
                closed = f"closed, {message.data} {message.extra!r}"
                break
    print(f"  {count} messages from a socket that does not read: {closed}", flush=True)
    check(not watcher.ws.closed and not reader.ws.closed, "the other sockets of the table are open")
    await silent.ws.close()
    again = await join(http, server, answer["links"][1]["url"], 1)
    await play_out([reader, again, watcher], random.Random(2))  # the table goes on to its end
    for browser in (reader, again, watcher):
        await browser.ws.close()


async def vanishing_and_twins(http: ClientSession, server: Server, tables: int) -> None:
    """Browsers that vanish mid-deal (the connection cut, no goodbye), and two sockets for one
    seat that both play; every table is then played to its end by sockets joined afresh."""
    rng = random.Random(3)
    for i in range(tables):
        answer = await open_table(
            http, server, {"ruleset": "koenigrufen", "players": 4, "people": [0, 1, 2, 3], "deals": 2}
        )
        seats = [await join(http, server, link["url"], link["seat"]) for link in answer["links"]]
        twin = await join(http, server, answer["links"][0]["url"], 0)
        for _ in range(10 + i):
            await asyncio.sleep(0.01)
            state = seats[0].state
            if state is None or state["view"]["phase"] == "over":
                continue
            seat = state["view"]["to_act"]
            mine = seats[seat].state if seat is not None else None
            if mine and mine["legal"]:
                sender = twin if seat == 0 and rng.random() < 0.5 else seats[seat]
                await sender.send({"type": "act", "action": choose(mine, rng)})
        for browser in seats[1:]:
            transport = browser.ws._response.connection.transport  # type: ignore[union-attr]
            if transport is not None:
                transport.abort()  # gone: no close frame
        await asyncio.sleep(0.05)
        check(twin.state is not None and seats[0].state is not None, "both sockets of seat 0 got states")
        if twin.state and seats[0].state:
            check(twin.state["version"] == seats[0].state["version"], "the two sockets of seat 0 agree")
        again = [seats[0], *[await join(http, server, link["url"], link["seat"]) for link in answer["links"][1:]]]
        await play_out([*again, twin], rng)
        for browser in [*again, twin]:
            await browser.ws.close()


async def sessions() -> None:
    """Whole sessions of every ruleset, every reading and option, every table size, people in
    every seat (tests/test_web_sessions.py plays two deals of each ruleset); a server holds 200
    tables, so a new one is started every 190."""
    print("Whole sessions of every ruleset, reading, option and table size, people in every seat", flush=True)
    started = time.monotonic()
    played = 0
    server: Server | None = None
    async with ClientSession(connector=TCPConnector(limit=0)) as http:  # a socket per table
        rulesets: list[dict[str, Any]] = []
        while True:
            if server is None or played % 190 == 0:
                if server is not None:
                    report(server, f"{played} sessions", started)
                    err = server.stop()
                    check("Traceback" not in err, f"no traceback on the server's stderr: {err[-2000:]}")
                server = Server()
                await server.ready(http)
                if not rulesets:
                    rulesets = (await (await http.get(server.base + "/api/rulesets")).json())["rulesets"]
                    tables = [
                        (r["name"], options, players)
                        for r in rulesets
                        for options in [{}]
                        + [{c["name"]: ch} for c in r["choices"] for ch in c["choices"] if ch != c["default"]]
                        for players in r["players"]
                    ]
            if played == len(tables):
                break
            name, options, players = tables[played]
            body = {"ruleset": name, "players": players, "people": list(range(players)), "options": options}
            played += 1
            try:
                answer = await open_table(http, server, body)
                browsers = [await join(http, server, link["url"], link["seat"]) for link in answer["links"]]
                await play_out(browsers, random.Random(played), limit=300)
            except RuntimeError as exc:
                check(False, f"{name} {options} at {players}: {exc}")
                continue
            for browser in browsers:
                await browser.ws.close()
    assert server is not None
    report(server, f"{played} whole sessions", started)
    err = server.stop()
    check("Traceback" not in err, f"no traceback on the server's stderr: {err[-2000:]}")


async def the_rest(quick: bool) -> None:
    server = Server()
    async with ClientSession(connector=TCPConnector(limit=0)) as http:  # a socket per table
        await server.ready(http)
        print("Bad input, floods, browsers vanishing, two sockets at one seat", flush=True)
        started = time.monotonic()
        report(server, "started", started)
        await junk(http, server, 1 if quick else 10)
        report(server, "bad bodies and paths", started)
        await frames(http, server)
        report(server, "bad frames", started)
        await floods(http, server, 1000 if quick else 10_000)
        report(server, "floods", started)
        await vanishing_and_twins(http, server, 3 if quick else 20)
        report(server, "browsers vanishing, two sockets at one seat", started)
    err = server.stop()
    check("Traceback" not in err, f"no traceback on the server's stderr: {err[-2000:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer of each")
    parser.add_argument("--sessions", action="store_true", help="also whole sessions of every ruleset and option")
    args = parser.parse_args()
    asyncio.run(crowd(args.quick))
    asyncio.run(the_rest(args.quick))
    if args.sessions:
        asyncio.run(sessions())
    print("all checks passed" if not FAILURES else f"{len(FAILURES)} checks failed", flush=True)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
