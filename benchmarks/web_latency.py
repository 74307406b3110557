"""How quickly a table of people is answered while search bots think at other tables (issue 34).

    python benchmarks/web_latency.py                  # 20 search-bot tables, 60 s of measuring
    python benchmarks/web_latency.py --tables 5 --seconds 20
    python benchmarks/web_latency.py --server-root DIR   # another checkout's server (a before/after)

`tarock web --bot-delay 0` runs in a process of its own, and this one is its browsers, over
127.0.0.1: at each of `--tables` Cego tables one person, who plays the first legal action the
moment it is offered, and search bots in the three other seats (the lobby's default of 0.4 s a
card, no pause between bots: as much search as the tables can ask for); and one table of four
people, who each make a move 20 ms after the state that offers it. Once every search-bot table
is in its card play, each move of the people is timed for `--seconds`: from sending it to the
state that shows it, at the seat that made it. Printed: the median, the 99th percentile and the
worst of those times, the cards the search bots played meanwhile, and the load average of the
machine before and after (the bots' worker processes share it with whatever else runs there).
Exit status 1 when the median is 100 ms or more or the 99th percentile 300 ms or more (the
bound of issue 34), or the search bots played no card meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
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
MEDIAN_BOUND, P99_BOUND = 0.100, 0.300  # seconds


class Server:
    """`tarock web` in a process of its own."""

    def __init__(self, root: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        # Its tables go to a database file of its own (the default lies in the user's data
        # folder, where one server at a time may use it), removed when it stops.
        self.data = tempfile.TemporaryDirectory(prefix="tarock-bench-")
        env = {**os.environ, "PYTHONPATH": str(root), "XDG_DATA_HOME": self.data.name}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "interpreter", "web", "--port", str(self.port), "--bot-delay", "0"],
            cwd=root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.base = f"http://127.0.0.1:{self.port}"

    async def ready(self, http: ClientSession) -> None:
        for _ in range(400):
            try:
                async with http.get(self.base + "/api/rulesets") as response:
                    if response.status == 200:
                        return
            except OSError:
                await asyncio.sleep(0.05)
        raise RuntimeError("tarock web did not start")

    def stop(self) -> str:
        self.process.terminate()
        _, err = self.process.communicate(timeout=30)
        self.data.cleanup()
        return err


class Seat:
    """A person's browser: keeps the newest state, and plays when `auto` (at once) or when told."""

    def __init__(self, ws: ClientWebSocketResponse, seat: int, auto: bool):
        self.ws, self.seat, self.auto = ws, seat, auto
        self.state: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.bot_moves = self.bot_cards = 0  # the bots' moves seen at this table, and cards among them
        self.task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type != WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            if data["type"] == "error":
                raise RuntimeError(data["message"])
            if data["type"] != "state":
                continue
            before, self.state = self.state, data
            if (
                before is not None
                and data["version"] > before["version"]
                and before["view"]["to_act"]
                not in (
                    None,
                    self.seat,
                )
            ):
                self.bot_moves += 1
                self.bot_cards += before["view"]["phase"] == "play"
            self.changed.set()
            if self.auto:
                await self.play()

    async def play(self) -> bool:
        """The seat's move, if it has one now: the first legal action, or the next deal."""
        state = self.state
        if state is None or state["session_over"]:
            return False
        if state["view"]["phase"] == "over":
            if not state["seats"][self.seat]["ready"]:  # the next deal comes once everybody is ready
                await self.ws.send_str(json.dumps({"type": "next"}))
            return False
        if state["view"]["to_act"] != self.seat or not state["legal"]:
            return False
        option = state["legal"][0]
        if "choice" in option:
            # One of the listed sets, or the first cards allowed (those every choice holds come first).
            allowed = [c for c in option["from"] if c not in option["forbidden"]]
            action: Any = {option["choice"]: option["sets"][0] if option.get("sets") else allowed[: option["count"]]}
        else:
            action = option["action"]
        await self.ws.send_str(json.dumps({"type": "act", "action": action}))
        return True


async def open_table(http: ClientSession, server: Server, body: dict[str, Any]) -> dict[str, Any]:
    async with http.post(server.base + "/api/tables", json=body) as response:
        answer: dict[str, Any] = await response.json()
        if response.status != 200:
            raise RuntimeError(f"the lobby refused {body}: {answer}")
        return answer


async def join(http: ClientSession, server: Server, link: dict[str, Any], auto: bool) -> Seat:
    table, token = link["url"].removeprefix("/table/").split("#")
    ws = await http.ws_connect(f"{server.base}/ws/{table}", max_msg_size=0)
    await ws.send_str(json.dumps({"type": "join", "token": token}))
    return Seat(ws, link["seat"], auto)


async def people_play(seats: list[Seat], seconds: float) -> list[float]:
    """The people's moves for `seconds`, each 20 ms after the state that offers it: the time
    from each move to the state that shows it, at the seat that made it."""
    times: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = seats[0].state
        assert state is not None
        if state["session_over"]:
            break
        if state["view"]["phase"] == "over":
            # The next deal is dealt once everybody at the table is ready: each says so.
            deal = state["deal"]
            for seat in seats:
                await seat.play()
            while seats[0].state is not None and seats[0].state["deal"] == deal:
                seats[0].changed.clear()
                await asyncio.wait_for(seats[0].changed.wait(), 30)
            continue
        seat = seats[state["view"]["to_act"]]
        await asyncio.sleep(0.02)
        mine = seat.state
        assert mine is not None
        version = mine["version"]
        seat.changed.clear()
        started = time.monotonic()
        if not await seat.play():
            continue
        while seat.state is not None and seat.state["version"] == version:
            await asyncio.wait_for(seat.changed.wait(), 30)
            seat.changed.clear()
        times.append(time.monotonic() - started)
        # Every other seat has the same state before the next move is made.
        for other in seats:
            while other.state is None or other.state["version"] < seat.state["version"]:  # type: ignore[index]
                other.changed.clear()
                await asyncio.wait_for(other.changed.wait(), 30)
    return times


async def main(args: argparse.Namespace) -> int:
    server = Server(Path(args.server_root).resolve() if args.server_root else ROOT)
    load_before = os.getloadavg()
    try:
        async with ClientSession(connector=TCPConnector(limit=0)) as http:
            await server.ready(http)
            searchers = []
            for _ in range(args.tables):
                answer = await open_table(
                    http, server, {"ruleset": "cego", "players": 4, "people": [0], "deals": 1000, "bots": "search"}
                )
                searchers.append(await join(http, server, answer["links"][0], auto=True))
            people_table = await open_table(
                http, server, {"ruleset": "cego", "players": 4, "people": [0, 1, 2, 3], "deals": 1000}
            )
            people = [await join(http, server, link, auto=False) for link in people_table["links"]]
            started = time.monotonic()
            while not all(s.bot_cards for s in searchers):  # every search-bot table in its card play
                if time.monotonic() - started > 300:
                    raise RuntimeError("the search-bot tables did not reach their card play in 5 minutes")
                await asyncio.sleep(0.1)
            for seat in people:
                while seat.state is None:
                    await asyncio.sleep(0.01)
            cards = sum(s.bot_cards for s in searchers)
            print(
                f"{args.tables} search-bot tables in their card play after {time.monotonic() - started:.1f} s;"
                f" timing the people's moves for {args.seconds:g} s",
                flush=True,
            )
            measured = time.monotonic()
            times = await people_play(people, args.seconds)
            window = time.monotonic() - measured
            cards = sum(s.bot_cards for s in searchers) - cards
            for seat in [*searchers, *people]:
                await seat.ws.close()
    finally:
        err = server.stop()
    load_after = os.getloadavg()
    times.sort()
    median = statistics.median(times)
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    print(
        f"the people's moves answered: median {median * 1000:.0f} ms, 99th percentile {p99 * 1000:.0f} ms,"
        f" worst {times[-1] * 1000:.0f} ms ({len(times)} moves in {window:.0f} s)"
    )
    print(f"cards the search bots played meanwhile: {cards} ({cards / window:.1f} a second)")
    print(
        "load average before: {:.2f} {:.2f} {:.2f}; after: {:.2f} {:.2f} {:.2f}; {} cores".format(
            *load_before, *load_after, os.cpu_count()
        )
    )
    if "Traceback" in err:
        print(f"the server's stderr holds a traceback:\n{err[-3000:]}")
        return 1
    ok = median < MEDIAN_BOUND and p99 < P99_BOUND and cards > 0
    if not ok:
        print(
            f"FAILED: the bound is a median under {MEDIAN_BOUND * 1000:.0f} ms and a 99th percentile under "
            f"{P99_BOUND * 1000:.0f} ms, with the search bots playing"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20, help="tables of search bots (default 20)")
    parser.add_argument("--seconds", type=float, default=60, help="how long the people's moves are timed (default 60)")
    parser.add_argument("--server-root", help="run the server of this checkout (default: this one)")
    sys.exit(asyncio.run(main(parser.parse_args())))
