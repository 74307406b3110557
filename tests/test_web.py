"""The web table over real sockets: seats are a security boundary.

Every message each seat's WebSocket receives over whole deals of several rulesets is read and
checked against the deal as it stood when the message was sent (rebuilt from the deal's record):
a message may name only cards that seat may know then (what `game.view(seat)` shows, the
public events, the cards it has held itself); a spectator only what every seat may know.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web table needs aiohttp: pip install '.[web]'")

from aiohttp import ClientSession, ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestServer

from interpreter.engine.game import Game
from interpreter.frontends.server import public_event
from interpreter.frontends.web.app import TABLES, make_app
from interpreter.frontends.web.table import Table

CARD_TOKEN = re.compile(r"\b[A-Z][A-Z0-9]{1,2}\b")


class Client:
    """One browser's socket: every message it receives is kept."""

    def __init__(self, ws: ClientWebSocketResponse, seat: int | None):
        self.ws = ws
        self.seat = seat
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type != WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            self.messages.append(data)
            if data["type"] == "state":
                self.state = data

    async def send(self, **message: Any) -> None:
        await self.ws.send_str(json.dumps(message))

    async def ask(self, message: dict[str, Any], answer: str) -> dict[str, Any]:
        """Send `message` and wait for the next message of type `answer` (or a refusal)."""
        seen = len(self.messages)
        await self.ws.send_str(json.dumps(message))
        for _ in range(2500):
            for got in self.messages[seen:]:
                if got["type"] in (answer, "refused"):
                    return got
            await asyncio.sleep(0.002)
        raise AssertionError(f"no answer to {message}")


async def _look_back(clients: list[Client], number: int) -> None:
    """Every socket asks for the score sheet and for finished deal `number`, as the page does."""
    for client in clients:
        rows = await client.ask({"type": "deals", "from": 1}, "deals")
        assert rows["type"] == "deals" and [d["number"] for d in rows["deals"]] == list(range(1, number + 1))
        deal = await client.ask({"type": "deal", "number": number}, "deal")
        assert deal["type"] == "deal" and deal["number"] == number, deal


async def _open(http: ClientSession, server: TestServer, body: dict[str, Any]) -> dict[str, Any]:
    async with http.post(server.make_url("/api/tables"), json=body) as response:
        answer: dict[str, Any] = await response.json()
        assert response.status == 200, answer
        return answer


async def _join(http: ClientSession, server: TestServer, link: str, seat: int | None) -> Client:
    table, token = link.removeprefix("/table/").split("#")
    ws = await http.ws_connect(server.make_url(f"/ws/{table}"))
    client = Client(ws, seat)
    await client.send(type="join", token=token)
    return client


SETTLE_SECONDS = 60.0  # the longest a socket may take to hear the newest state (a busy machine)


async def _settled(clients: list[Client], table: Table, after: int | None = None) -> None:
    """Wait until every socket holds the table's newest state and no bot is about to move (and,
    with `after`, the table has changed since that version: a message sent was handled). Search
    bots think for a while at each card, longer on a busy machine: the wait is bounded by the clock
    (`SETTLE_SECONDS`), not by a count of naps."""
    deadline = time.monotonic() + SETTLE_SECONDS
    while time.monotonic() < deadline:
        await asyncio.sleep(0.002)
        if after is not None and table.version <= after:
            continue
        if table.bot_to_act() is None and all(c.state and c.state["version"] == table.version for c in clients):
            return
    raise AssertionError("the sockets did not receive the newest state")


async def _next_deal(clients: list[Client], table: Table) -> None:
    """Every person at the table says they are ready for the next deal, which is then dealt."""
    dealt = len(table.session.deals)
    for client in clients:
        if client.seat is not None:
            await client.send(type="next")
    deadline = time.monotonic() + SETTLE_SECONDS
    while time.monotonic() < deadline:
        if len(table.session.deals) > dealt:
            break
        await asyncio.sleep(0.002)
    assert len(table.session.deals) > dealt, "the next deal was not dealt"
    await _settled(clients, table)


def pick_cards(option: dict[str, Any], rng: random.Random | None = None) -> list[str]:
    """Cards for a choice of several (a discard or keep offered to tap), as a player picks them
    from the message: one of the listed sets where the rules list them, else the cards every
    choice must hold and the rest from those allowed (the first ones, or at random with `rng`)."""
    if option.get("sets"):
        return list(rng.choice(option["sets"]) if rng else option["sets"][0])
    must = list(option.get("including") or [])
    allowed = [c for c in option["from"] if c not in option["forbidden"] and c not in must]
    count = option["count"] - len(must)
    return must + (rng.sample(allowed, count) if rng else allowed[:count])


def _choose(state: dict[str, Any], rng: random.Random) -> Any:
    """What a player of this seat might do, knowing only its own message."""
    option = rng.choice(state["legal"])
    if "choice" in option:
        return {option["choice"]: pick_cards(option, rng)}
    return option["action"]


async def play_table(
    body: dict[str, Any],
    seed: int,
    refusals: bool = True,
    choose: Callable[[dict[str, Any], random.Random], Any] = _choose,
) -> tuple[list[Client], Table]:
    """Open a table by the lobby's API, join every person's seat and a spectator, and play the
    whole session from the sockets' own messages (now and then a card that is not legal);
    `choose` picks a seat's action from its state."""
    rng = random.Random(seed)
    server = TestServer(make_app(bot_delay=0))
    await server.start_server()
    try:
        async with ClientSession() as http:
            answer = await _open(http, server, body)
            table = server.app[TABLES][answer["table"]]
            clients = [await _join(http, server, link["url"], link["seat"]) for link in answer["links"]]
            clients.append(await _join(http, server, answer["spectators"], None))
            by_seat = {c.seat: c for c in clients if c.seat is not None}
            await _settled(clients, table)
            while True:
                state = clients[0].state
                assert state is not None
                if state["view"]["phase"] == "over":
                    await _look_back(clients, state["deal"])
                if state["session_over"]:
                    break
                if state["view"]["phase"] == "over":
                    await _next_deal(clients, table)
                    continue
                seat = state["view"]["to_act"]
                mine = by_seat[seat].state
                assert mine is not None and mine["legal"], "the seat to act was told no legal action"
                hand = mine["view"]["hand"]
                plays = {
                    o["action"]["play"]
                    for o in mine["legal"]
                    if isinstance(o.get("action"), dict) and "play" in o["action"]
                }
                wrong = [c for c in hand if c not in plays]
                before = table.version
                if refusals and plays and wrong and rng.random() < 0.1:
                    await by_seat[seat].send(type="act", action={"play": rng.choice(wrong)})
                    for _ in range(500):
                        await asyncio.sleep(0.002)
                        if by_seat[seat].messages[-1]["type"] == "refused":
                            break
                    assert by_seat[seat].messages[-1]["type"] == "refused"
                    assert table.version == before  # refused: nothing changed
                await by_seat[seat].send(type="act", action=choose(mine, rng))
                await _settled(clients, table, after=before)
                assert table.version > before
            for client in clients:
                await client.ws.close()
                await client.task
            return clients, table
    finally:
        await server.close()


def _cards_in(value: Any, pack: set[str]) -> set[str]:
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            found.update(t for t in CARD_TOKEN.findall(item) if t in pack)
    return found


def _steps(record: dict[str, Any]) -> int:
    """The table's steps in a finished deal: its actions, and the dealer's choice of how to
    deal (deal.choice) before them where the deal says its plan."""
    return len(record["actions"]) + ("plan" in record["deal"])


def _knowledge(record: dict[str, Any], step: int) -> tuple[dict[int, set[str]], Game]:
    """What each seat may know of the deal after `step` actions: its view, the public events,
    and every card it has held. A deal that says its plan was chosen by its dealer at the
    table (deal.choice): that choice was the table's first step, before any card was dealt."""
    chose = "plan" in record["deal"]
    game = Game(
        record["ruleset"],
        players=record["players"],
        dealer=record["dealer"],
        deal=record["deal"] if step or not chose else None,
        options=record.get("options") or {},
    )
    if chose and step:
        step -= 1  # the record says the choice in deal.plan, not among its actions
    pack = set(game.ruleset.deck.cards)
    held = {s: set(game.hands[s]) for s in range(game.players)}
    for seat, action in record["actions"][:step]:
        game.apply(seat, action)
        for s in range(game.players):
            held[s] |= set(game.hands[s])
    public = set()
    for event in game.events:
        public |= _cards_in(public_event(event, game), pack)
    known = {s: held[s] | public | _cards_in(game.view(s), pack) for s in range(game.players)}
    return known, game


def _sides_as_known(message: dict[str, Any], game: Game, seat: int | None) -> None:
    """A state's words about the sides (the header, the seat's hints, the tricks taken by side)
    name the called card's holder only to a seat that knows it (a spectator: once every seat
    does), and tell only the holder that it holds it."""
    umpire = game.view("all")
    called, declarer = umpire.get("called"), umpire["declarer"]
    if called is None:
        return
    if "partner" in umpire:  # the holder when play began
        holder = umpire["partner"]
    else:
        holder = next((s for s in game.seats if called in umpire["hands"][s] and s != declarer), None)
    you_are = f"you are {message['seats'][declarer]['name']}'s partner"
    told = any(you_are in h for h in message["hints"])
    assert told == (seat is not None and seat == holder), (seat, message["hints"])
    views = [game.view(s) for s in game.seats] if seat is None else [game.view(seat)]
    if holder is None or seat == holder or all("partner" in v for v in views):
        return
    partner = message["seats"][holder]["name"]
    words = " ".join([message["sides"], *message["hints"]])
    assert partner not in words, f"seat {seat} was told the partner: {words!r} (step {message['step']})"
    assert not any("declarer's side" in line for line in message["tally"])  # (by seat: who won each trick)


def check_messages(clients: list[Client], table: Table) -> int:
    """Every message of every socket names only cards its seat may know; returns how many
    state messages were checked."""
    records = {d.number: d.record for d in table.finished}
    pack = set(table.ruleset.deck.cards)
    cache: dict[tuple[int, int], tuple[dict[int, set[str]], Game]] = {}
    checked = 0
    for client in clients:
        saw_own_hand = False
        for message in client.messages:
            if message["type"] == "welcome":
                assert message["you"] == client.seat
                continue  # the pack's names: every card, the same for every seat
            if message["type"] in ("deals", "deal"):
                # Finished deals, asked for: what the seat could know when that deal ended.
                for done in message["deals"] if message["type"] == "deals" else [message]:
                    record = records[done["number"]]
                    end = (done["number"], _steps(record))
                    if end not in cache:
                        cache[end] = _knowledge(record, end[1])
                    known_then, finished_game = cache[end]
                    allowed_then = (
                        set.intersection(*(known_then[s] for s in finished_game.seats))
                        if client.seat is None
                        else known_then[client.seat]
                    )
                    leaked_then = _cards_in(done, pack) - allowed_then
                    assert not leaked_then, (
                        f"seat {client.seat} was told {sorted(leaked_then)} of deal {done['number']}"
                    )
                if message["type"] == "deal":
                    # No more than its state showed when the deal was over.
                    last = [
                        m
                        for m in client.messages
                        if m["type"] == "state" and (m["deal"], m["step"]) == (message["number"], end[1])
                    ]
                    assert last and last[-1]["view"] == message["view"], (client.seat, message["number"])
                    assert message["you"] == client.seat
                continue
            if message["type"] != "state":
                continue  # a refusal names the seat's own cards, to the seat alone
            # A card to call may be any the caller does not hold: the offer says where no card is.
            offers = [entry["action"] for entry in message["legal"] if "action" in entry]  # not a template
            callable_cards = {a["call_card"] for a in offers if isinstance(a, dict) and "call_card" in a}
            named = _cards_in(message, pack) - callable_cards
            key = (message["deal"], message["step"])
            if key not in cache:
                cache[key] = _knowledge(records[message["deal"]], message["step"])
            known, game = cache[key]
            _sides_as_known(message, game, client.seat)
            if client.seat is None:
                allowed = set.intersection(*(known[s] for s in game.seats))
                # Nor does a spectator learn whom the called card makes a partner before every seat knows.
                for fact in ("partner", "called"):
                    if fact in message["view"]:
                        blind = [s for s in range(game.players) if fact not in game.view(s)]
                        assert not blind, (
                            f"the spectator was told the {fact} in deal {message['deal']} at step "
                            f"{message['step']}, before seats {blind}"
                        )
            else:
                allowed = known[client.seat]
                hand = set(game.hands[client.seat])
                assert set(message["view"]["hand"]) == hand
                saw_own_hand |= bool(hand)
            leaked = named - allowed
            assert not leaked, (
                f"seat {client.seat} was told {sorted(leaked)} in deal {message['deal']} at step {message['step']}"
            )
            checked += 1
        if client.seat is not None and client.seat not in table.game.seats_out:
            assert saw_own_hand
    return checked


@pytest.mark.parametrize(
    ("ruleset", "players", "people", "options"),
    [
        ("breitnau", 6, [0, 1, 2, 3, 4, 5], {}),
        ("furtwangen", 6, [0, 1, 2, 3, 4, 5], {}),
        ("cego", 4, [0, 1, 2, 3], {}),
        ("cego", 5, [0, 2, 4], {}),  # the dealer sits out at five; bots play the rest
        ("tapp-modern", 4, [0, 1, 2, 3], {}),  # a King called, a card given
        ("tapp", 3, [0, 1, 2], {}),
        ("koenigrufen", 4, [0, 1, 2, 3], {}),  # a King called: its holder is the secret partner
        ("koenigrufen", 5, [2], {}),  # the dealer sits out; bots play the rest
    ],
)
def test_no_seat_receives_another_seats_hidden_cards(
    ruleset: str, players: int, people: list[int], options: dict[str, str]
) -> None:
    body = {"ruleset": ruleset, "players": players, "people": people, "deals": 3, "options": options}
    clients, table = asyncio.run(play_table(body, seed=len(ruleset) + players))
    assert len(table.finished) == 3 and table.session_over
    checked = check_messages(clients, table)
    assert checked > 3 * len(clients)
    # the scores are the sums of the deals' payments
    assert clients[0].state is not None
    assert [s["score"] for s in clients[0].state["seats"]] == [
        sum(d.payments[s] for d in table.finished) for s in range(players)
    ]


def test_a_leak_would_be_caught() -> None:
    """The check itself: a message naming another seat's card fails it."""
    clients, table = asyncio.run(play_table({"ruleset": "cego", "players": 4, "people": [0, 1], "deals": 1}, 3))
    record = table.finished[0].record
    other = record["deal"]["hands"][1][0]
    bad = dict(next(m for m in clients[0].messages if m["type"] == "state" and m["step"] == 0))
    bad["log"] = [*bad["log"], f"seat 1 holds {other}"]
    clients[0].messages.append(bad)
    with pytest.raises(AssertionError, match="seat 0 was told"):
        check_messages(clients, table)


async def _refusals() -> None:
    server = TestServer(make_app(bot_delay=0))
    await server.start_server()
    try:
        async with ClientSession() as http:
            answer = await _open(http, server, {"ruleset": "cego", "players": 4, "people": [0, 2], "deals": 1})
            table_id = answer["table"]
            table = server.app[TABLES][table_id]
            # A made-up token gets no seat and no state.
            ws = await http.ws_connect(server.make_url(f"/ws/{table_id}"))
            await ws.send_str(json.dumps({"type": "join", "token": "guessed"}))
            message = json.loads((await ws.receive()).data)
            assert message["type"] == "error" and "token" in message["message"]
            assert (await ws.receive()).type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING)
            # A seat acts for itself only: naming another seat in the message changes nothing.
            seat0 = await _join(http, server, answer["links"][0]["url"], 0)
            spectator = await _join(http, server, answer["spectators"], None)
            await _settled([seat0, spectator], table)
            assert spectator.state is not None and spectator.state["view"]["hand"] == []
            assert spectator.state["legal"] == []
            to_act = table.game.to_act
            if to_act != 0:
                await seat0.send(type="act", seat=to_act, action="pass")
                await asyncio.sleep(0.05)
                assert seat0.messages[-1]["type"] == "refused"
                assert "turn" in seat0.messages[-1]["reason"]
            await spectator.send(type="act", action="pass")
            await asyncio.sleep(0.05)
            assert spectator.messages[-1] == {
                "type": "refused",
                "reason": "spectators watch; they do not play",
                "version": table.version,
            }
            # Records: only for the table's tokens, and only of finished deals.
            url = server.make_url(f"/api/tables/{table_id}/records/1")
            async with http.get(url) as response:
                assert response.status == 403
            async with http.get(url, headers={"X-Seat-Token": answer["links"][0]["url"].split("#")[1]}) as response:
                assert response.status == 404
                assert "not finished" in (await response.json())["error"]
            # The lobby refuses what it cannot open, with the reason.
            async with http.post(server.make_url("/api/tables"), json={"ruleset": "cego", "players": 9}) as response:
                assert response.status == 400
                assert "not 9" in (await response.json())["error"]
            async with http.post(
                server.make_url("/api/tables"), json={"ruleset": "cego", "options": {"nonsense": "x"}}
            ) as response:
                assert response.status == 400
            async with http.post(server.make_url("/api/tables"), json={"ruleset": "cgo"}) as response:
                assert "cego" in (await response.json())["error"]
            for client in (seat0, spectator):
                await client.ws.close()
    finally:
        await server.close()


def test_tokens_spectators_and_records_are_refused_where_they_must_be() -> None:
    asyncio.run(_refusals())


def test_the_lobby_offers_the_usual_table() -> None:
    from interpreter.frontends.web.app import ruleset_list

    usual = {r["name"]: r["usual"] for r in ruleset_list()}
    assert usual["cego"] == 4 and usual["breitnau"] == 6 and usual["furtwangen"] == 6


def test_a_finished_deal_is_explained_and_its_record_replays() -> None:
    from interpreter.engine.records import game_from_record, parse_record, replay_document

    clients, table = asyncio.run(play_table({"ruleset": "furtwangen", "people": [0, 3], "deals": 2}, 11))
    assert table.players == 6  # the usual table
    last = clients[0].state
    assert last is not None and last["result"][0].startswith("Result:") and last["result"][-1].startswith("Payments:")
    for deal in table.finished:
        doc = parse_record(table.record_text(deal.number) or "", "<web>")
        report = replay_document(doc, game_from_record(doc))
        assert report.ok and report.game is not None and report.game.result is not None
        assert report.game.result.payments == deal.payments


def test_a_table_whose_bots_search() -> None:
    _clients, table = asyncio.run(play_table({"ruleset": "cego", "people": [0], "deals": 1, "bots": "search"}, 5))
    assert table.searches > 0  # it searched some of its cards (in the server's worker processes)
    assert len(table.finished) == 1 and sum(table.finished[0].payments) == 0


def test_bots_of_no_known_kind_are_refused() -> None:
    from interpreter.errors import InvalidActionError
    from interpreter.language.loader import load_ruleset

    with pytest.raises(InvalidActionError, match="the bots play by rules or search, not 'clever'"):
        Table(load_ruleset("cego"), 4, [0], 1, bots="clever")
