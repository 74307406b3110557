"""The web table's server: aiohttp serves the lobby and the table pages, a WebSocket per browser,
and the records of finished deals.

A browser joins a table over its WebSocket with its seat's secret token (from the join link's
`#` part, which never leaves the browser in a URL: no server log or Referer holds it). From then
on the socket acts and sees only for that seat; the spectators' token sees only public facts.
Every message a socket receives is `Table.welcome` once, then `Table.state_for` its seat after
each change, and a `refused` message with the reason when its own action was refused.

Nothing from outside is trusted: a request body or a WebSocket message is bounded in size and in
depth before it is parsed (LIMITS below), every field is checked for type and range before use,
and text is cleaned before it is shown to others. Each socket has its own queue of messages,
written by its own task: a change of the table is queued for every socket at once, in order, so
a socket always has the state a refusal speaks of before the refusal; a socket that does not
read its messages is closed when its queue is full, and the table goes on without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket as net  # (the name `socket` is the WebSocket handler's)
import sys
import time
import traceback
import weakref
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from interpreter.errors import RulesetError, TarockError, UsageError, either
from interpreter.frontends.server import NotJson, encode, parse_line
from interpreter.frontends.web.scribe import WebScribe
from interpreter.frontends.web.store import MAX_STORED, Saved, Store, default_path
from interpreter.frontends.web.table import (
    MAX_SECONDS,
    MAX_STAND_IN,
    MIN_SECONDS,
    MIN_STAND_IN,
    SEARCH_SECONDS,
    STAND_IN,
    ClosedTable,
    Table,
    clean_text,
)
from interpreter.frontends.web.thinking import Thinkers
from interpreter.language.model import Ruleset

STATIC = Path(__file__).with_name("static")
# The files the server hands out, by name, read from the package once: a request names one of
# them or gets 404, and no path from outside ever reaches the file system.
STATIC_FILES = {path.name: path for path in STATIC.iterdir() if path.is_file()}

# The limits (docs/protocol.md and the README's section on the browser table state them).
MAX_TABLES = 200  # tables open at once on one server
MAX_SCRIBES = 200  # observed games being written down at once
MAX_SOCKETS = 64  # sockets joined to one table at once (seats and spectators)
MAX_BODY = 64 * 1024  # bytes in a request body
MAX_FRAME = 8 * 1024  # bytes in one WebSocket message from a browser (a move is a few hundred)
MAX_FRAME_HARD = 64 * 1024  # beyond this aiohttp itself closes the socket (code 1009), unread
MAX_DEPTH = 16  # arrays and objects nested in a body or message (the deepest a browser sends is 3)
MAX_QUEUE = 64  # messages waiting for one socket to read them; beyond it the socket is closed
SEND_TIMEOUT = 30.0  # seconds a message may wait for a browser to take it; then the socket is closed
MAX_FIELD = 200  # characters of a text field of a form (an observer's name and place)
MAX_DEALS = 1000  # deals in one session


@dataclass(frozen=True)
class Lifetimes:
    """How long what nobody uses stays open, in seconds: then it is closed, and its place free
    for another (a table stays in the database: its links open it again, its finished deals stay
    downloadable)."""

    table: float = 3600.0  # a table nobody is at (no socket joined), its session not over
    finished: float = 600.0  # a table nobody is at, its session over
    scribe: float = 3600.0  # an observed game without a new entry

    @property
    def sweep(self) -> float:
        """How often the server looks for what to close."""
        return min(60.0, max(0.01, min(self.table, self.finished, self.scribe) / 4))


TABLES: web.AppKey[dict[str, Table]] = web.AppKey("tables", dict)
STORE: web.AppKey[Store] = web.AppKey("store", Store)
REOPENING: web.AppKey[dict[str, asyncio.Future[Table | str]]] = web.AppKey("reopening", dict)
QUIET: web.AppKey[dict[str, float]] = web.AppKey("quiet", dict)  # table → when its last socket left
SCRIBES: web.AppKey[dict[str, WebScribe]] = web.AppKey("scribes", dict)
WRITTEN: web.AppKey[dict[str, float]] = web.AppKey("written", dict)  # scribe → when it was last written to
LIFETIMES: web.AppKey[Lifetimes] = web.AppKey("lifetimes", Lifetimes)
THINKERS: web.AppKey[Thinkers] = web.AppKey("thinkers", Thinkers)
SOCKETS: web.AppKey[dict[str, weakref.WeakSet[Any]]] = web.AppKey("sockets", dict)
BOT_DELAY: web.AppKey[float] = web.AppKey("bot_delay", float)
STALL: web.AppKey[float] = web.AppKey("stall", float)
RUNNING: web.AppKey[set[str]] = web.AppKey("running", set)

BOT_TASKS: set[asyncio.Task[None]] = set()  # the bots' tasks running (the loop keeps only weak references)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")
_NUMBER = re.compile(r"[1-9][0-9]{0,5}")  # a deal's number in a URL
_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")  # a table's id (Table._new_id makes 8 characters)


class Seat:
    """One browser at a table: its socket, the seat its token names (None: a spectator), and the
    messages waiting to be written to it, in order, by its own writer task."""

    def __init__(self, ws: web.WebSocketResponse, seat: int | None, stall: float = SEND_TIMEOUT):
        self.ws = ws
        self.seat = seat
        self.stall = stall
        self.queue: deque[tuple[str, str]] = deque()  # (type, text) of each message not yet written
        self.ready = asyncio.Event()
        self.closing = False
        self.closed: asyncio.Task[None] | None = None  # the close with a reason, once begun
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def post(self, message: dict[str, Any]) -> None:
        """Queue `message`. A state waiting behind another state replaces it (each state is
        whole); a queue full of messages the browser has not read closes the socket."""
        if self.closing:
            return
        kind = str(message.get("type"))
        text = encode(message)
        if kind == "state" and self.queue and self.queue[-1][0] == "state":
            self.queue[-1] = (kind, text)
        elif len(self.queue) >= MAX_QUEUE:
            self.close(WSCloseCode.POLICY_VIOLATION, f"{MAX_QUEUE} messages were not read: too slow, join again")
            return
        else:
            self.queue.append((kind, text))
        self.ready.set()

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self.ready.wait()
            self.ready.clear()
            while self.queue:
                _, text = self.queue.popleft()
                if self.ws.closed:
                    return
                # A send waits while the connection's buffers are full: the browser does not read
                # (a tab in the background of a phone, or a client that never does). A timer, not
                # wait_for: a send that does not wait must not cost the loop a task of its own.
                stalled = loop.call_later(self.stall, self._stalled)
                try:
                    await self.ws.send_str(text)
                except (ConnectionError, RuntimeError):
                    return  # the browser went away: it gets the whole state again when it comes back
                finally:
                    stalled.cancel()

    def _stalled(self) -> None:
        self.close(WSCloseCode.POLICY_VIOLATION, f"nothing was read for {self.stall:g} s: join again")

    def close(self, code: int, reason: str) -> None:
        """Close the socket with `reason` (at most 123 bytes, as a close frame holds), without
        waiting for a browser that may never read again."""
        if self.closing:
            return
        self.closing = True
        self.queue.clear()
        self.writer.cancel()
        self.closed = asyncio.get_running_loop().create_task(_close(self.ws, code, reason))


async def _close(ws: web.WebSocketResponse, code: int, reason: str) -> None:
    # A browser that does not read keeps the close frame from being written: a second is enough.
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.close(code=code, message=reason.encode()[:123], drain=False), 1.0)


def make_app(
    bot_delay: float = 0.6,
    stall: float = SEND_TIMEOUT,
    lifetimes: Lifetimes | None = None,
    db: str | Path | Store = ":memory:",
) -> web.Application:
    """The application; `bot_delay` seconds pass between two bots' moves, so that people can
    follow the cards as they fall (0 in tests); a socket whose browser takes no message for
    `stall` seconds is closed; tables and scribes nobody uses are closed after `lifetimes`. The
    tables are kept in the database `db` (a file, or a Store; ":memory:" keeps them only while
    the server runs) and brought back from it on demand."""
    app = web.Application(client_max_size=MAX_BODY, middlewares=[_faults])
    app[TABLES] = {}
    app[STORE] = db if isinstance(db, Store) else Store(db)
    app[REOPENING] = {}
    app[QUIET] = {}
    app[SCRIBES] = {}
    app[WRITTEN] = {}
    app[LIFETIMES] = lifetimes or Lifetimes()
    app[THINKERS] = Thinkers()
    app.cleanup_ctx.append(_sweeping)
    app.on_cleanup.append(_stop_thinking)
    app[SOCKETS] = {}
    app[BOT_DELAY] = bot_delay
    app[STALL] = stall
    app[RUNNING] = set()
    app.router.add_get("/", _page("lobby.html"))
    app.router.add_get("/table/{table}", _page("table.html"))
    app.router.add_get("/api/rulesets", rulesets)
    app.router.add_post("/api/tables", create_table)
    app.router.add_get("/api/tables/{table}/records/{number}", record)
    app.router.add_get("/ws/{table}", socket)
    app.router.add_get("/scribe", _page("scribe.html"))
    app.router.add_post("/api/scribes", create_scribe)
    app.router.add_post("/api/scribes/{scribe}", scribe_entry)
    app.router.add_get("/static/{name}", static)
    return app


async def _stop_thinking(app: web.Application) -> None:
    app[THINKERS].close()
    app[STORE].close()


async def _sweeping(app: web.Application) -> AsyncIterator[None]:
    """Close, now and then, the tables and scribes nobody has used for their lifetime."""

    async def sweep() -> None:
        while True:
            await asyncio.sleep(app[LIFETIMES].sweep)
            try:
                close_unused(app, time.monotonic())
            except Exception:  # a fault of ours: said, and the server goes on (and sweeps again)
                traceback.print_exc(file=sys.stderr)

    task = asyncio.get_running_loop().create_task(sweep())
    yield
    task.cancel()


def close_unused(app: web.Application, now: float) -> None:
    """Close every table no socket has been at for its lifetime (shorter once its session is
    over) and every scribe not written to for its. A closed table stays in the database, where
    its links find it again (the MAX_STORED used last: older ones are forgotten); a scribe keeps
    nothing (the browser holds its record, sent with every entry)."""
    lifetimes = app[LIFETIMES]
    for table_id, table in list(app[TABLES].items()):
        if app[SOCKETS].get(table_id):
            continue
        lifetime = lifetimes.finished if table.session_over else lifetimes.table
        if now - app[QUIET].get(table_id, now) >= lifetime:
            _close_table(app, table_id)
    open_now = frozenset(app[TABLES].keys())
    app[STORE].forget_oldest(MAX_STORED, open_now)
    for scribe_id, written in list(app[WRITTEN].items()):
        if now - written >= lifetimes.scribe:
            app[SCRIBES].pop(scribe_id, None)
            del app[WRITTEN][scribe_id]


def _close_table(app: web.Application, table_id: str) -> None:
    """Take a table nobody is at out of memory (it stays in the database)."""
    del app[TABLES][table_id]
    app[SOCKETS].pop(table_id, None)
    app[QUIET].pop(table_id, None)
    app[THINKERS].forget(table_id)


def _make_room(app: web.Application) -> None:
    """Where MAX_TABLES are open, close the one nobody has been at for the longest (it stays in
    the database); Refused (503) when somebody is at every one."""
    tables = app[TABLES]
    if len(tables) < MAX_TABLES:
        return
    idle = [t for t in tables if not app[SOCKETS].get(t)]
    if not idle:
        raise Refused(f"{len(tables)} tables are open and in use, the most this server holds: try again later", 503)
    _close_table(app, min(idle, key=lambda t: app[QUIET].get(t, 0.0)))


def _register(app: web.Application, table: Table) -> None:
    app[TABLES][table.id] = table
    app[SOCKETS][table.id] = weakref.WeakSet()
    app[QUIET][table.id] = time.monotonic()  # nobody has joined yet


async def find_table(app: web.Application, table_id: str) -> Table | str:
    """The open table `table_id`, brought back from the database where it is not open (its deals
    replayed in a thread, away from the event loop); the reason when there is none."""
    table = app[TABLES].get(table_id)
    if table is not None:
        return table
    if table_id in app[REOPENING]:
        return await asyncio.shield(app[REOPENING][table_id])
    store = app[STORE]
    saved = store.load(table_id) if _ID.fullmatch(table_id) else None
    if saved is None:
        return "no such table: ask for a new link"
    future: asyncio.Future[Table | str] = asyncio.get_running_loop().create_future()
    app[REOPENING][table_id] = future
    try:
        try:
            _make_room(app)
            table = await asyncio.get_running_loop().run_in_executor(None, _restore, saved)
        except Refused as refused:
            future.set_result(refused.reason)
            return refused.reason
        except TarockError as exc:
            reason = f"this table cannot be brought back: {str(exc)[:300]}"
            future.set_result(reason)
            return reason
        table.store = store
        _register(app, table)
        for seat in table.people:  # nobody is at it yet: a bot stands in where the table says so
            _stand_in_later(app, table, seat)
        future.set_result(table)
        return table
    finally:
        del app[REOPENING][table_id]


def _restore(saved: Saved) -> Table:
    from interpreter.language.loader import load_ruleset

    return Table.restore(saved, load_ruleset(saved.ruleset, saved.options))


def closed_table(app: web.Application, table_id: str) -> ClosedTable | None:
    """A table of the database that is not open, for its downloads (None: no such table)."""
    saved = app[STORE].load(table_id, deals=False) if _ID.fullmatch(table_id) else None
    if saved is None:
        return None
    from interpreter.language.loader import load_ruleset

    ruleset = load_ruleset(saved.ruleset, saved.options)
    return ClosedTable(saved.id, ruleset, saved.names, saved.tokens, saved.spectators, saved.session_over, app[STORE])


@web.middleware
async def _faults(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """A fault of ours answers 500 with a reason (the traceback goes to stderr): the server goes on."""
    try:
        return await handler(request)
    except web.HTTPException:
        raise
    except Exception as exc:
        traceback.print_exc(file=sys.stderr)
        return _refuse(f"internal error ({type(exc).__name__}): please report it with what you sent", 500)


def _page(name: str) -> Any:
    async def handler(request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / name, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    return handler


async def static(request: web.Request) -> web.StreamResponse:
    path = STATIC_FILES.get(request.match_info["name"])
    if path is None:
        return _refuse("no such file", 404)
    return web.FileResponse(path)


_RULESETS: list[dict[str, Any]] | None = None


def ruleset_list() -> list[dict[str, Any]]:
    """The playable rulesets with what the lobby offers of each (read once: they are files of the package)."""
    global _RULESETS
    if _RULESETS is None:
        from interpreter.language.loader import load_ruleset, ruleset_names

        found = []
        for name in ruleset_names():
            try:
                rs = load_ruleset(name)
            except RulesetError:
                continue  # `tarock validate` tells what is wrong; the lobby offers what plays
            found.append(
                {
                    "name": name,
                    "title": rs.title,
                    "players": list(rs.table_sizes),
                    "usual": rs.usual_table,
                    "deals": rs.session.deals,
                    "choices": [
                        {
                            "name": g.name,
                            "kind": g.kind,
                            "question": g.question,
                            "default": g.default,
                            "choices": list(g.choices),
                        }
                        for g in rs.groups
                    ],
                }
            )
        _RULESETS = found
    return _RULESETS


async def rulesets(request: web.Request) -> web.Response:
    return web.json_response({"rulesets": ruleset_list()})


def _refuse(message: str, status: int = 400) -> web.Response:
    return web.json_response({"error": message}, status=status)


def _duration(seconds: float) -> str:
    """A lifetime in words: "an hour", "10 minutes", "0.5 s"."""
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = int(seconds // size)
            return f"an {unit}" if count == 1 and unit == "hour" else f"a {unit}" if count == 1 else f"{count} {unit}s"
    return f"{seconds:g} s"


def _short(value: object, limit: int = 40) -> str:
    """A value from outside, quoted in a message: short, and in ASCII (whatever it holds)."""
    text = ascii(value) if not isinstance(value, (dict, list)) else type(value).__name__
    return text if len(text) <= limit else text[:limit] + "…"


class Refused(Exception):
    """A request or message refused, with the reason to answer (and the HTTP status)."""

    def __init__(self, reason: str, status: int = 400):
        super().__init__(reason)
        self.reason = reason
        self.status = status


def parse_json(data: bytes | str) -> Any:
    """The JSON value of a body or a message, bounded before it is parsed: at most MAX_DEPTH
    arrays and objects deep; UTF-8; no NaN, no infinite number, no integer of more than 4300
    digits (server.parse_line). Raises Refused with the reason."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        raise Refused(f"not UTF-8 text (byte {exc.start + 1})") from None
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        depth = depth + 1 if bracket in "[{" else depth - 1
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            raise Refused(f"arrays and objects nest more than {MAX_DEPTH} deep")
    try:
        return parse_line(text)
    except NotJson as exc:
        raise Refused(f"not JSON: {str(exc)[:100]}") from None


async def _body(request: web.Request) -> dict[str, Any]:
    """The JSON object a POST carries (Refused when it is too long, no JSON, or no object)."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise Refused(f"a request body holds at most {MAX_BODY} bytes", 413)
    try:
        data = await request.read()
    except web.HTTPRequestEntityTooLarge:
        raise Refused(f"a request body holds at most {MAX_BODY} bytes", 413) from None
    body = parse_json(data)
    if not isinstance(body, dict):
        raise Refused("the request is a JSON object")
    return body


def _whole(body: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    """Field `name` of `body`, a whole number from `low` to `high` (`default` when left out)."""
    value = body.get(name)
    if value is None:
        return default
    if type(value) is not int:
        raise Refused(f"{name} is a whole number, not {_short(value)}")
    if not low <= value <= high:
        raise Refused(f"{name} is from {low} to {high}, not {_short(value)}")
    return value


def _seconds(body: dict[str, Any], name: str, default: float, low: float, high: float) -> float:
    """Field `name` of `body`, a number of seconds from `low` to `high` (`default` when left out)."""
    value = body.get(name)
    if value is None:
        return default
    if type(value) not in (int, float):
        raise Refused(f"{name} is a number of seconds, not {_short(value)}")
    if not low <= value <= high:
        raise Refused(f"{name} is from {low:g} to {high:g} seconds, not {_short(value)}")
    return float(value)


def _ruleset_asked(body: dict[str, Any]) -> tuple[str, dict[str, str], Ruleset]:
    """The ruleset a request that opens a table or a scribe names, its options, and the ruleset
    loaded with them (Refused with the reason)."""
    from interpreter.language.loader import load_ruleset

    name = body.get("ruleset")
    known = [r["name"] for r in ruleset_list()]
    if not isinstance(name, str) or name not in known:
        raise Refused(f"no ruleset {_short(name)}; this server plays: {', '.join(known)}")
    options = body.get("options") or {}
    if (
        not isinstance(options, dict)
        or len(options) > 100
        or not all(isinstance(v, str) and len(k) <= 100 and len(v) <= 100 for k, v in options.items())
    ):
        raise Refused("options map names to choices (text), at most 100 of them")
    try:
        ruleset = load_ruleset(name, options)
    except UsageError as exc:
        raise Refused("; ".join(str(p.message) for p in exc.problems)[:600]) from None
    return name, options, ruleset


def _players(body: dict[str, Any], ruleset: Ruleset) -> int:
    players = body.get("players", ruleset.usual_table)
    if type(players) is not int or players not in ruleset.table_sizes:
        sizes = either(ruleset.table_sizes)
        raise Refused(f"{ruleset.title} is played by {sizes} at the table, not {_short(players)}")
    return players


async def create_table(request: web.Request) -> web.Response:
    """Open a table: {ruleset, players?, options?, people: [seats], deals?, names?, bots?: rules | search}
    → the join links."""
    try:
        _make_room(request.app)
        body = await _body(request)
        name, options, ruleset = _ruleset_asked(body)
        players = _players(body, ruleset)
        people = body.get("people", [0])
        if not isinstance(people, list) or len(people) > players or not all(type(s) is int for s in people):
            raise Refused(f"people is a list of the seats people play, at most {players}")
        if any(not 0 <= s < players for s in people):
            raise Refused(
                f"no seat {_short(next(s for s in people if not 0 <= s < players))}: the seats are 0 to {players - 1}"
            )
        usual = next(r["deals"] for r in ruleset_list() if r["name"] == name) or players
        deals = _whole(body, "deals", usual, 1, MAX_DEALS)
        names = _names(body.get("names"), players)
        bots = body.get("bots", "rules")
        if not isinstance(bots, str):
            raise Refused(f"bots is rules or search, not {_short(bots)}")
        seconds = _seconds(body, "bot_seconds", SEARCH_SECONDS, MIN_SECONDS, MAX_SECONDS)
        stand_in = (
            None
            if body.get("stand_in") == "never"
            else _seconds(body, "stand_in", STAND_IN, MIN_STAND_IN, MAX_STAND_IN)
        )
        table = Table(
            ruleset,
            players,
            people,
            deals,
            names=names,
            bots=bots,
            seconds=seconds,
            stand_in=stand_in,
            store=request.app[STORE],
        )
    except Refused as refused:
        return _refuse(refused.reason, refused.status)
    except TarockError as exc:
        return _refuse(str(exc)[:600])
    if bots == "search" and len(table.people) < players:
        request.app[THINKERS].warm(ruleset, options)
    _register(request.app, table)
    base = f"/table/{table.id}"
    return web.json_response(
        {
            "table": table.id,
            "links": [
                {"seat": s, "name": table.names[s], "url": f"{base}#{table.seat_tokens[s]}"} for s in table.people
            ],
            "spectators": f"{base}#{table.spectator_token}",
        }
    )


def _names(value: object, players: int) -> dict[int, str]:
    """The names the lobby gives seats: {"0": "Anna", …} (a seat's number as text, as JSON keys are)."""
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > players:
        raise Refused(f"names map seats (0 to {players - 1}) to names")
    names = {}
    for key, name in value.items():
        if not re.fullmatch(r"[0-9]{1,3}", key) or int(key) >= players:
            raise Refused(f"names: no seat {_short(key)}: the seats are 0 to {players - 1}")
        if name is not None and (not isinstance(name, str) or len(name) > MAX_FIELD):
            raise Refused(f"names: a name is text of at most {MAX_FIELD} characters")
        cleaned = clean_text(name, MAX_FIELD)
        if cleaned is not None:
            names[int(key)] = cleaned
    return names


async def create_scribe(request: web.Request) -> web.Response:
    """Start writing down an observed game: {ruleset, players?, dealer?, options?, by?, where?}
    → the scribe's state, with its key (`scribe`) for the entries that follow."""
    scribes = request.app[SCRIBES]
    if len(scribes) >= MAX_SCRIBES:
        return _refuse(f"{len(scribes)} observed games are being written down, the most this server holds", 503)
    try:
        body = await _body(request)
        name, options, ruleset = _ruleset_asked(body)
        players = _players(body, ruleset)
        dealer = _whole(body, "dealer", 0, 0, players - 1)
        observed = {}
        for key in ("by", "where"):
            value = body.get(key)
            if value is not None and (not isinstance(value, str) or len(value) > MAX_FIELD):
                raise Refused(f"{key} is text of at most {MAX_FIELD} characters")
            cleaned = clean_text(value, MAX_FIELD)
            if cleaned is not None:
                observed[key] = cleaned
        scribe = WebScribe(name, ruleset, players, dealer, dict(options), observed)
    except Refused as refused:
        return _refuse(refused.reason, refused.status)
    except TarockError as exc:
        return _refuse(str(exc)[:600])
    scribes[scribe.id] = scribe
    request.app[WRITTEN][scribe.id] = time.monotonic()
    return web.json_response(scribe.state())


async def scribe_entry(request: web.Request) -> web.Response:
    """One entry ({line}: a call, a card, a command as in `tarock observe`) or the answer to the
    scribe's question ({answer}) → the scribe's state: what it said, its question, the record."""
    scribe = request.app[SCRIBES].get(request.match_info["scribe"])
    if scribe is None:
        return _refuse(
            f"no such observed game: one is closed after {_duration(request.app[LIFETIMES].scribe)} without an"
            " entry, or when the server restarts; the record on your page holds every entry taken: save it,"
            " and start a new one",
            404,
        )
    request.app[WRITTEN][scribe.id] = time.monotonic()
    try:
        body = await _body(request)
    except Refused as refused:
        return _refuse(refused.reason, refused.status)
    for key, enter in (("line", scribe.enter), ("answer", scribe.answer)):
        if isinstance(body.get(key), str):
            return web.json_response(enter(clean_text(body[key], len(body[key])) or ""))
    return _refuse('an entry is {"line": TEXT} or {"answer": TEXT}')


async def record(request: web.Request) -> web.Response:
    """The record of a finished deal, for a seat or a spectator of the table (its token in
    X-Seat-Token), as that seat or spectator may have it (Table.download)."""
    table_id = request.match_info["table"]
    table: Table | ClosedTable | None = request.app[TABLES].get(table_id) or closed_table(request.app, table_id)
    if table is None:
        return _refuse("no such table (or forgotten: the server keeps the tables used last)", 404)
    who = table.seat_of(request.headers.get("X-Seat-Token"))
    if who is False:
        return _refuse("this table's records are for its players: the token is missing or wrong", 403)
    number = request.match_info["number"]
    text = table.download(int(number), who if isinstance(who, int) else None) if _NUMBER.fullmatch(number) else None
    if text is None:
        return _refuse(f"deal {_short(number, 10)} is not finished", 404)
    return web.Response(
        text=text,
        content_type="application/x-yaml",
        headers={"Content-Disposition": f'attachment; filename="{table.ruleset.name}-deal-{number}.yaml"'},
    )


async def socket(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse(max_msg_size=MAX_FRAME_HARD, heartbeat=30)
    await ws.prepare(request)
    found = await find_table(request.app, request.match_info["table"])
    if isinstance(found, str):
        await _refuse_socket(ws, found)
        return ws
    table = found
    sockets = request.app[SOCKETS][table.id]
    seat: Seat | None = None
    try:
        async for message in ws:
            if seat is not None and seat.closing:
                break
            await asyncio.sleep(0)  # the writers' turn: messages already received come without a pause
            try:
                data = _message(message)
            except Refused as refused:
                if seat is None:
                    await _refuse_socket(ws, refused.reason)
                    break
                if refused.status == 413:
                    seat.close(WSCloseCode.MESSAGE_TOO_BIG, refused.reason)
                    break
                seat.post({"type": "refused", "reason": refused.reason, "version": table.version})
                continue
            if seat is None:
                who = table.seat_of(data.get("token")) if data.get("type") == "join" else False
                if who is False:
                    await _refuse_socket(ws, "this link's seat token is not one of this table's")
                    break
                if request.app[TABLES].get(table.id) is not table:  # closed since the socket was opened
                    await _refuse_socket(ws, "this table was closed meanwhile: open its link again")
                    break
                if len(sockets) >= MAX_SOCKETS:
                    await _refuse_socket(ws, f"{MAX_SOCKETS} browsers are at this table, the most it takes")
                    break
                seat = Seat(ws, who if isinstance(who, int) and not isinstance(who, bool) else None, request.app[STALL])
                if seat.seat is not None:
                    table.rename(seat.seat, data.get("name"))  # (a name with nothing in it keeps the seat's)
                    table.joined(seat.seat)
                sockets.add(seat)
                seat.post(table.welcome(seat.seat))
                broadcast(request.app, table)
                _schedule_bots(request.app, table)
                continue
            handle(request.app, table, seat, data)
    finally:
        if seat is not None:
            sockets.discard(seat)
            request.app[QUIET][table.id] = time.monotonic()
            if seat.seat is not None:
                table.left(seat.seat)
                _stand_in_later(request.app, table, seat.seat)
                broadcast(request.app, table)
            if seat.closed is not None:
                await seat.closed  # the reason first: the socket is closed without one on return
            seat.closing = True
            seat.writer.cancel()
    return ws


def _message(message: Any) -> dict[str, Any]:
    """A browser's message as a JSON object (Refused, with status 413 when it is too long)."""
    if message.type == WSMsgType.BINARY:
        raise Refused("messages are JSON text, not binary")
    if message.type != WSMsgType.TEXT:
        raise Refused(f"no message of kind {message.type.name}")
    if len(message.data) > MAX_FRAME:
        raise Refused(f"a message holds at most {MAX_FRAME} bytes", 413)
    data = parse_json(message.data)
    if not isinstance(data, dict):
        raise Refused('a message is a JSON object: {"type": …}')
    return data


async def _refuse_socket(ws: web.WebSocketResponse, reason: str) -> None:
    """Tell a socket that never joined why, and close it."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.send_str(encode({"type": "error", "message": reason})), 1.0)
    await _close(ws, WSCloseCode.POLICY_VIOLATION, reason)


def handle(app: web.Application, table: Table, seat: Seat, data: dict[str, Any]) -> None:
    """One message of a joined socket: an action of its seat, the next deal, or a question
    about the finished deals (the score sheet's rows, one deal as this seat saw it)."""
    kind = data.get("type")
    if kind in ("deals", "deal"):
        try:
            answer = (
                table.deals_page(data.get("from"))
                if kind == "deals"
                else table.finished_deal(data.get("number"), seat.seat)
            )
        except Exception as exc:  # a fault of ours: said, and the table goes on
            traceback.print_exc(file=sys.stderr)
            answer = f"internal error ({type(exc).__name__}): please report it with what you sent"
        seat.post(
            answer if isinstance(answer, dict) else {"type": "refused", "reason": answer, "version": table.version}
        )
        return
    if seat.seat is None:
        seat.post({"type": "refused", "reason": "spectators watch; they do not play", "version": table.version})
        return
    try:
        if kind == "act":
            reason = table.act(seat.seat, data.get("action"))
        elif kind == "next":
            reason = table.get_ready(seat.seat)
        elif kind == "name":
            name = data.get("name")
            reason = (
                table.rename(seat.seat, name)
                if isinstance(name, str) and len(name) <= MAX_FIELD
                else f"a name is text of at most {MAX_FIELD} characters"
            )
        else:
            reason = f"no message type {_short(kind, 20)}: act, next, name, deals or deal"
    except Exception as exc:  # a fault of ours: the table goes on as it was
        traceback.print_exc(file=sys.stderr)
        reason = f"internal error ({type(exc).__name__}): please report it with what you sent"
    if reason is not None:
        seat.post({"type": "refused", "reason": reason, "version": table.version})
        return
    broadcast(app, table)
    _schedule_bots(app, table)


def broadcast(app: web.Application, table: Table) -> None:
    """Queue the table's state for every socket at it, each as its seat may see it."""
    for seat in list(app[SOCKETS].get(table.id, ())):
        try:
            state = table.state_for(seat.seat)
        except Exception:  # a fault of ours: said once, and the sockets keep their last state
            traceback.print_exc(file=sys.stderr)
            seat.post({"type": "error", "message": "internal error: the table cannot be shown; please report it"})
            continue
        seat.post(state)


def _stand_in_later(app: web.Application, table: Table, seat: int) -> None:
    """Once the table's time is up, let a bot play `seat` if its person has not come back."""
    after = table.stand_in_after
    if after is None or table.present(seat):
        return

    def stand_in() -> None:
        if table.id in app[TABLES] and table.stand_in(seat):
            broadcast(app, table)
            _schedule_bots(app, table)

    asyncio.get_running_loop().call_later(after, stand_in)


def _schedule_bots(app: web.Application, table: Table) -> None:
    """Let the bots play their turns, one after another, unless they are at it already."""
    if table.bot_to_act() is None or table.id in app[RUNNING]:
        return
    app[RUNNING].add(table.id)
    BOT_TASKS.add(task := asyncio.get_running_loop().create_task(_run_bots(app, table)))
    task.add_done_callback(BOT_TASKS.discard)


async def _run_bots(app: web.Application, table: Table) -> None:
    """The bots' turns, one after another: each thought out away from the event loop (thinking.py)
    while the pause between two bots' moves runs, and applied where the table still is."""
    delay = app[BOT_DELAY]
    try:
        while table.id in app[TABLES]:
            decision = table.bot_decision()
            if decision is None:
                return
            choice, _ = await asyncio.gather(app[THINKERS].choose(decision, table.ruleset), asyncio.sleep(delay))
            if table.id in app[TABLES] and table.bot_move(decision, choice):
                broadcast(app, table)
    except Exception:  # a fault of ours: the bots stop, the people are told
        traceback.print_exc(file=sys.stderr)
        for seat in list(app[SOCKETS].get(table.id, ())):
            seat.post({"type": "error", "message": "internal error: a bot could not move; please report it"})
    finally:
        # At once, not in a callback: a person's move handled in between would find the bots
        # still at it, and leave them waiting.
        app[RUNNING].discard(table.id)


def run(args: Any) -> int:
    if not 0 <= args.port < 65536:
        raise TarockError(f"--port must be from 0 to 65535, not {args.port}")
    if not 0 <= args.bot_delay <= 10:
        raise TarockError(f"--bot-delay must be from 0 to 10 seconds, not {args.bot_delay}")
    host = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
    path = args.db if args.db is not None else default_path()
    store = Store(path)  # refused with the reason before anything is served (in use, too new)
    listening = _listen(args.host, args.port)
    port = listening.getsockname()[1]  # the port given, or the one the system chose for port 0
    print(f"tarock web: open http://{host}:{port}/ (Ctrl-C stops the server)", flush=True)
    kept = "nowhere: the tables end with the server" if str(path) == ":memory:" else str(path)
    print(f"  tables are kept in {kept}", flush=True)
    if args.host not in ("127.0.0.1", "::1", "localhost"):
        print("  other machines can reach it: seat links are the only key to a seat; share each with its player only")
    web.run_app(make_app(args.bot_delay, db=store), sock=listening, print=None)
    return 0


def _listen(host: str, port: int) -> net.socket:
    """A socket listening on `host` and `port`, bound before the server starts, so that the address
    printed is the one served (with port 0, the port the system chose) and a port in use is
    refused with the reason."""
    try:
        family, kind, proto, _, address = net.getaddrinfo(host, port, type=net.SOCK_STREAM, flags=net.AI_PASSIVE)[0]
        listening = net.socket(family, kind, proto)
        try:
            listening.setsockopt(net.SOL_SOCKET, net.SO_REUSEADDR, 1)
            listening.bind(address)
            listening.listen(128)
        except OSError:
            listening.close()
            raise
    except OSError as error:
        reason = error.strerror or str(error)
        raise TarockError(f"cannot serve on {host}:{port}: {reason} (another --host or --port?)") from None
    return listening
