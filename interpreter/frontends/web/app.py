"""The web table's server: aiohttp serves the lobby and the table pages, a WebSocket per browser,
and the records of finished deals.

A browser joins a table over its WebSocket with its seat's secret token (from the join link's
`#` part, which never leaves the browser in a URL: no server log or Referer holds it). From then
on the socket acts and sees only for that seat; the spectators' token sees only public facts.
Every message a socket receives is `Table.welcome` once, then `Table.state_for` its seat after
each change, and a `refused` message with the reason when its own action was refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import weakref
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from interpreter.errors import RulesetError, TarockError, UsageError
from interpreter.frontends.web.scribe import WebScribe
from interpreter.frontends.web.table import Table
from interpreter.language.model import Ruleset

STATIC = Path(__file__).with_name("static")
MAX_TABLES = 200  # tables open at once on one server
MAX_SCRIBES = 200  # observed games being written down at once
MAX_MESSAGE = 64 * 1024  # bytes in one WebSocket message from a browser
MAX_BODY = 64 * 1024  # bytes in a request body

TABLES: web.AppKey[dict[str, Table]] = web.AppKey("tables", dict)
SCRIBES: web.AppKey[dict[str, WebScribe]] = web.AppKey("scribes", dict)
SOCKETS: web.AppKey[dict[str, weakref.WeakSet[Any]]] = web.AppKey("sockets", dict)
BOT_DELAY: web.AppKey[float] = web.AppKey("bot_delay", float)
RUNNING: web.AppKey[set[str]] = web.AppKey("running", set)


class Seat:
    """One browser at a table: its socket and the seat its token names (None: a spectator)."""

    def __init__(self, ws: web.WebSocketResponse, seat: int | None):
        self.ws = ws
        self.seat = seat


def make_app(bot_delay: float = 0.6) -> web.Application:
    """The application; `bot_delay` seconds pass between two bots' moves, so that people can
    follow the cards as they fall (0 in tests)."""
    app = web.Application(client_max_size=MAX_BODY)
    app[TABLES] = {}
    app[SCRIBES] = {}
    app[SOCKETS] = {}
    app[BOT_DELAY] = bot_delay
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
    app.router.add_static("/static/", STATIC, show_index=False)
    return app


def _page(name: str) -> Any:
    async def handler(request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / name, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    return handler


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


async def _ruleset_asked(
    request: web.Request,
) -> tuple[dict[str, Any], str, dict[str, str], Ruleset] | web.Response:
    """The JSON object of a request that opens a table or a scribe, the ruleset it names and its
    options, and the ruleset loaded with them; or the refusal to answer with."""
    from interpreter.language.loader import load_ruleset

    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        return _refuse("the request is not JSON")
    if not isinstance(body, dict):
        return _refuse("the request is a JSON object")
    name = body.get("ruleset")
    known = [r["name"] for r in ruleset_list()]
    if not isinstance(name, str) or name not in known:
        return _refuse(f"no ruleset {str(name)[:40]!r}; this server plays: {', '.join(known)}")
    options = body.get("options") or {}
    if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
        return _refuse("options map names to choices (text)")
    try:
        ruleset = load_ruleset(name, options)
    except UsageError as exc:
        return _refuse("; ".join(str(p.message) for p in exc.problems))
    return body, name, options, ruleset


async def create_table(request: web.Request) -> web.Response:
    """Open a table: {ruleset, players?, options?, people: [seats], deals?, names?, bots?: rules | search}
    → the join links."""
    tables = request.app[TABLES]
    if len(tables) >= MAX_TABLES:
        return _refuse(f"{len(tables)} tables are open, the most this server holds", 503)
    asked = await _ruleset_asked(request)
    if isinstance(asked, web.Response):
        return asked
    body, name, _options, ruleset = asked
    known = {r["name"]: r for r in ruleset_list()}
    players = body.get("players", ruleset.usual_table)
    people = body.get("people", [0])
    deals = body.get("deals") or known[name]["deals"] or players
    names = body.get("names") or {}
    if not _ints(players) or not isinstance(people, list) or not all(_ints(s) for s in people) or not _ints(deals):
        return _refuse("players and deals are whole numbers, people a list of seats")
    try:
        table = Table(
            ruleset,
            players,
            people,
            deals,
            names={int(k): v for k, v in names.items() if str(k).isdigit()} if isinstance(names, dict) else None,
            bots=str(body.get("bots", "rules")),
        )
    except TarockError as exc:
        return _refuse(str(exc))
    tables[table.id] = table
    request.app[SOCKETS][table.id] = weakref.WeakSet()
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


async def create_scribe(request: web.Request) -> web.Response:
    """Start writing down an observed game: {ruleset, players?, dealer?, options?, by?, where?}
    → the scribe's state, with its key (`scribe`) for the entries that follow."""
    scribes = request.app[SCRIBES]
    if len(scribes) >= MAX_SCRIBES:
        return _refuse(f"{len(scribes)} observed games are being written down, the most this server holds", 503)
    asked = await _ruleset_asked(request)
    if isinstance(asked, web.Response):
        return asked
    body, name, options, ruleset = asked
    players, dealer = body.get("players", ruleset.usual_table), body.get("dealer", 0)
    if not _ints(players) or not _ints(dealer):
        return _refuse("players and dealer are whole numbers")
    observed = {k: str(body[k])[:200] for k in ("by", "where") if body.get(k)}
    try:
        scribe = WebScribe(name, ruleset, players, dealer, dict(options), observed)
    except TarockError as exc:
        return _refuse(str(exc))
    scribes[scribe.id] = scribe
    return web.json_response(scribe.state())


async def scribe_entry(request: web.Request) -> web.Response:
    """One entry ({line}: a call, a card, a command as in `tarock observe`) or the answer to the
    scribe's question ({answer}) → the scribe's state: what it said, its question, the record."""
    scribe = request.app[SCRIBES].get(request.match_info["scribe"])
    if scribe is None:
        return _refuse("no such observed game: start a new one", 404)
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        return _refuse("the request is not JSON")
    if isinstance(body, dict) and isinstance(body.get("line"), str):
        return web.json_response(scribe.enter(body["line"]))
    if isinstance(body, dict) and isinstance(body.get("answer"), str):
        return web.json_response(scribe.answer(body["answer"]))
    return _refuse('an entry is {"line": TEXT} or {"answer": TEXT}')


def _ints(value: object) -> bool:
    return type(value) is int


async def record(request: web.Request) -> web.Response:
    """The record of a finished deal, for a seat or a spectator of the table (its token in
    X-Seat-Token), as that seat or spectator may have it (Table.download)."""
    table = request.app[TABLES].get(request.match_info["table"])
    if table is None:
        return _refuse("no such table", 404)
    who = table.seat_of(request.headers.get("X-Seat-Token"))
    if who is False:
        return _refuse("this table's records are for its players: the token is missing or wrong", 403)
    number = request.match_info["number"]
    text = table.download(int(number), who if isinstance(who, int) else None) if number.isdigit() else None
    if text is None:
        return _refuse(f"deal {number[:10]} is not finished", 404)
    return web.Response(
        text=text,
        content_type="application/x-yaml",
        headers={"Content-Disposition": f'attachment; filename="{table.ruleset.name}-deal-{number}.yaml"'},
    )


async def socket(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30)
    await ws.prepare(request)
    table = request.app[TABLES].get(request.match_info["table"])
    if table is None:
        await _send(ws, {"type": "error", "message": "no such table: ask for a new link"})
        await ws.close()
        return ws
    seat: Seat | None = None
    async for message in ws:
        if message.type != WSMsgType.TEXT:
            continue
        try:
            data = json.loads(message.data)
        except ValueError:
            await _send(ws, {"type": "error", "message": "not a JSON message"})
            continue
        if not isinstance(data, dict):
            continue
        if seat is None:
            who = table.seat_of(data.get("token")) if data.get("type") == "join" else False
            if who is False:
                await _send(ws, {"type": "error", "message": "this link's seat token is not one of this table's"})
                break
            seat = Seat(ws, who if isinstance(who, int) and not isinstance(who, bool) else None)
            if seat.seat is not None:
                table.rename(seat.seat, data.get("name"))
            request.app[SOCKETS][table.id].add(seat)
            await _send(ws, table.welcome(seat.seat))
            await broadcast(request.app, table)
            _schedule_bots(request.app, table)
            continue
        await handle(request.app, table, seat, data)
    return ws


async def handle(app: web.Application, table: Table, seat: Seat, data: dict[str, Any]) -> None:
    kind = data.get("type")
    if seat.seat is None:
        await _send(seat.ws, {"type": "refused", "reason": "spectators watch; they do not play"})
        return
    if kind == "act":
        reason = table.act(seat.seat, data.get("action"))
    elif kind == "next":
        reason = table.next_deal()
    else:
        reason = f"no message type {str(kind)[:20]!r}: act or next"
    if reason is not None:
        await _send(seat.ws, {"type": "refused", "reason": reason, "version": table.version})
        return
    await broadcast(app, table)
    _schedule_bots(app, table)


async def broadcast(app: web.Application, table: Table) -> None:
    for seat in list(app[SOCKETS].get(table.id, ())):
        await _send(seat.ws, table.state_for(seat.seat))


def _schedule_bots(app: web.Application, table: Table) -> None:
    """Let the bots play their turns, one after another, unless they are at it already."""
    if table.bot_to_act() is None or table.id in app[RUNNING]:
        return
    app[RUNNING].add(table.id)
    task = asyncio.get_running_loop().create_task(_run_bots(app, table))
    task.add_done_callback(lambda _: app[RUNNING].discard(table.id))


async def _run_bots(app: web.Application, table: Table) -> None:
    delay = app[BOT_DELAY]
    while table.bot_to_act() is not None:
        if delay:
            await asyncio.sleep(delay)
        if not table.bot_step():
            break
        await broadcast(app, table)
        if not delay:
            await asyncio.sleep(0)  # let the people's messages in between


async def _send(ws: web.WebSocketResponse, message: dict[str, Any]) -> None:
    if ws.closed:
        return
    # A browser that went away gets the whole state again when it comes back.
    with contextlib.suppress(ConnectionError, RuntimeError):
        await ws.send_str(json.dumps(message, ensure_ascii=False, separators=(",", ":")))


def run(args: Any) -> int:
    if not 0 <= args.port < 65536:
        raise TarockError(f"--port must be from 0 to 65535, not {args.port}")
    if not 0 <= args.bot_delay <= 10:
        raise TarockError(f"--bot-delay must be from 0 to 10 seconds, not {args.bot_delay}")
    host = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
    print(f"tarock web: open http://{host}:{args.port}/ (Ctrl-C stops the server)", flush=True)
    if args.host not in ("127.0.0.1", "::1", "localhost"):
        print("  other machines can reach it: seat links are the only key to a seat; share each with its player only")
    web.run_app(make_app(args.bot_delay), host=args.host, port=args.port, print=None)
    return 0
