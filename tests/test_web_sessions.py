"""Whole sessions at the web table, every ruleset, people in every seat: every event the engine
emits is shown, and no session dies on one (a Dreierles session died at its sixth deal on the
Pfeife played early: the `forfeit` event's card was dropped as if secret, and the table's log
then asked for it). Heavier runs, every option and table size: benchmarks/hostile_web.py.
"""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web table needs aiohttp: pip install '.[web]'")

from test_web import _choose, check_messages, play_table

from interpreter import Game, load_ruleset, ruleset_names
from interpreter.bots.randombot import RandomBot
from interpreter.bots.rulebot import RuleBot
from interpreter.frontends.log import describe_event
from interpreter.frontends.server import PUBLIC_FIELDS, public_event
from interpreter.frontends.web.app import ruleset_list

ENGINE = Path(__file__).resolve().parent.parent / "interpreter" / "engine"
# Events a reader need not see as a line of their own: the deal itself, a card played (the trick
# shows it), the start of the announcements (the calls that follow show it).
SILENT = {("deal", None), ("play", None), ("phase", "announce")}


def emitted_types() -> set[str]:
    """Every event type the engine's source emits (`type="…"` or `"type": "…"`)."""
    found: set[str] = set()
    for path in ENGINE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        found.update(re.findall(r'\btype="(\w+)"', text))
        found.update(re.findall(r'"type": "(\w+)"', text))
    return found


def test_every_event_type_the_engine_emits_has_its_public_fields_listed() -> None:
    types = emitted_types()
    assert {"play", "trick", "settlement", "forfeit", "offence"} <= types  # the search finds them
    assert sorted(types - set(PUBLIC_FIELDS)) == []


# Events no bot brings about in a few deals, as the engine writes them (game.py, exchange.py).
RARE = [
    ("breitnau", {"type": "claim", "seat": 1, "hand": ["T22", "T21", "T20"]}),
    ("breitnau", {"type": "breach", "seat": 2, "reason": 'seat 2 passed against the rule "x"; the deal is abandoned'}),
    ("koenigrufen", {"type": "concede", "seat": 0}),
    ("furtwangen", {"type": "phase", "phase": "deal"}),  # where the dealer chooses how to deal (an option)
    ("furtwangen", {"type": "deal_chosen", "seat": 0, "plan": "dapp_first"}),
    ("koenigrufen", {"type": "talon_card", "trick": 2, "card": "HK", "winner": 1}),
    ("koenigrufen", {"type": "call_partner", "seat": 0, "choice": "fourth_king"}),
    ("koenigrufen", {"type": "play_ends", "trick": 2, "reason": "the declarer took a trick", "rest": "holders"}),
    ("dreierles", {"type": "forfeit", "seat": 0, "card": "T1", "bonus": "pfeife_raus", "trick": 5}),
    ("dreierles", {"type": "offence", "seat": 1, "offence": "revoke", "card": "CK", "reason": "seat 1 played CK …"}),
    ("dreierles", {"type": "offence", "seat": 0, "offence": "misdeal", "reason": "misdeal (…)"}),
    ("tapp-modern", {"type": "give", "seat": 0, "to": None}),
    ("tapp-modern", {"type": "call_card", "seat": 0, "card": "CA", "holder": None}),
    ("tapp-modern", {"type": "open_hand", "seat": 0, "hand": ["CA", "C10"]}),
    ("cego", {"type": "accusation", "seat": 0, "guilty": [], "hands": [[], [], [], []]}),
    ("tapp", {"type": "thrown_in", "seat": 1}),
]


def test_every_event_is_shown_in_its_public_form() -> None:
    """Each event of bot-played deals of every ruleset, and the rare ones, as a seat receives it
    (its public form): the table's log describes it, in a line unless it is one of SILENT."""
    events: list[tuple[Game, dict[str, Any]]] = []
    for name in ruleset_names():
        rs = load_ruleset(name)
        for seed, players in enumerate(rs.table_sizes * 2):
            bot = RuleBot() if seed % 2 else RandomBot(seed)
            game = Game(rs, players=players, seed=seed)
            while not game.is_over:
                assert game.to_act is not None
                game.apply(game.to_act, bot.choose(game, game.to_act))
            events += [(game, event) for event in game.events]
    for name, event in RARE:
        events.append((Game(load_ruleset(name), seed=0), event))
    described: set[str] = set()
    for game, event in events:
        public = public_event(event, game)
        assert "redacted" not in public, public
        line = describe_event(public, game)
        key = (public["type"], public.get("phase") if public["type"] == "phase" else None)
        if key in SILENT:
            continue
        assert line, f"no line for {public}"
        described.add(public["type"])
    assert emitted_types() - {t for t, _ in SILENT} <= described | {"phase"}


# -- through the socket ------------------------------------------------------------------------


def _pfeife_early(state: dict[str, Any], rng: random.Random) -> Any:
    """A player who lays the Pfeife out for the last trick when it may, and then plays it early."""
    for option in state["legal"]:
        action = option.get("action")
        if action in ({"play": "T1"},) or (isinstance(action, dict) and action.get("announce") == "pfeife_raus"):
            return action
    return _choose(state, rng)


def test_a_dreierles_session_goes_on_past_the_pfeife_played_early(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sessions of six deals whose players lay the Pfeife out and play it early, until one of them
    forfeits (the deals are seeded: the first does)."""
    import functools

    from interpreter.frontends.web import app
    from interpreter.frontends.web.table import Table

    body = {"ruleset": "dreierles", "players": 3, "people": [0, 1, 2], "deals": 6}
    for seed in range(4):
        monkeypatch.setattr(app, "Table", functools.partial(Table, seed=seed))
        clients, table = asyncio.run(play_table(body, seed=seed, choose=_pfeife_early))
        assert len(table.finished) == 6 and table.session_over
        check_messages(clients, table)
        if any(e["type"] == "forfeit" for d in table.finished for e in events_of(d.record)):
            assert any(line.startswith("Forfeit") for line in _logs(clients[0]))
            return
    raise AssertionError("no Pfeife was played early in four sessions: the test did not meet its case")


def events_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The engine's events of a recorded deal."""
    game = Game(record["ruleset"], players=record["players"], dealer=record["dealer"], deal=record["deal"])
    for seat, action in record["actions"]:
        game.apply(seat, action)
    return game.events


def _logs(client: Any) -> list[str]:
    return [line for m in client.messages if m["type"] == "state" for line in m["log"]]


@pytest.mark.parametrize("name", [r["name"] for r in ruleset_list()])
def test_a_session_of_every_ruleset_with_people_in_every_seat(name: str) -> None:
    """Two deals of the usual table, every seat a person at a socket: every message received is
    checked (test_web.check_messages) and the scores add up."""
    usual = next(r["usual"] for r in ruleset_list() if r["name"] == name)
    body = {"ruleset": name, "players": usual, "people": list(range(usual)), "deals": 2}
    clients, table = asyncio.run(play_table(body, seed=len(name)))
    assert len(table.finished) == 2 and table.session_over
    assert check_messages(clients, table) > 2 * len(clients)
    assert clients[0].state is not None
    assert [s["score"] for s in clients[0].state["seats"]] == [
        sum(d.payments[s] for d in table.finished) for s in range(usual)
    ]


def _state_sizes(name: str, players: int, deals: int) -> list[int]:
    """The longest state message (in bytes, as sent) of any seat or the spectators at the end of
    each deal of a session of bots."""
    from interpreter.frontends.server import encode
    from interpreter.frontends.web.table import Table

    table = Table(load_ruleset(name), players, [], deals, seed=34)
    sizes = []
    while True:
        while table.bot_step():
            pass
        sizes.append(max(len(encode(table.state_for(s)).encode()) for s in [*range(players), None]))
        if table.session_over:
            return sizes
        assert table.next_deal() is None


@pytest.mark.parametrize(("name", "players"), [("cego", 4), ("breitnau", 6)])
def test_a_state_message_does_not_grow_with_the_session(name: str, players: int) -> None:
    """Issue 34 item 2: a state carries the current deal and the running score; the finished
    deals are asked for (the `deals` and `deal` messages). Over a session of 30 deals the last
    ten deals' states are no longer than the first ten's, give or take the deals themselves
    (they carried every finished deal's explained settlement: 3.0 kB at the first deal's end,
    10.9 kB at the thirtieth's in Cego, 3.3 and 12.2 kB in Breitnau; now 2.7 to 3.1 kB)."""
    sizes = _state_sizes(name, players, 30)
    assert len(sizes) == 30
    assert max(sizes[20:]) <= 1.15 * max(sizes[:10]), sizes


def _played_by_bots(table: Any) -> Any:
    """`table` (a web Table with bots in every seat) played by its bots to its session's end."""
    while True:
        while table.bot_step():
            pass
        if table.session_over:
            return table
        assert table.next_deal() is None


def test_the_running_score_follows_the_sessions_score_sheet() -> None:
    """A session that keeps a score sheet (tests/rulesets/tapp-session.yaml: only the declarer
    writes, the game's value per opponent; settled as differences, 1 a point) shows each seat
    its sheet and what the sheet settles to, worked out here from the finished deals' records:
    a seat's total is what it wins from every other player at the difference of their scores."""
    from interpreter.frontends.web.table import Table

    ruleset = load_ruleset(str(Path(__file__).resolve().parent / "rulesets" / "tapp-session.yaml"))
    players = 3
    table = _played_by_bots(Table(ruleset, players, [], 1000, seed=7))
    sheet = [0] * players
    for deal in table.finished:
        declarer = deal.record["expect"].get("declarer")
        if declarer is not None:
            sheet[declarer] += deal.payments[declarer] // (players - 1)
    totals = [sum(mine - theirs for theirs in sheet) for mine in sheet]
    assert any(sheet), "the session's deals were all thrown in: choose another seed"
    for seat in [*range(players), None]:
        state = table.state_for(seat)
        assert [s["sheet"] for s in state["seats"]] == sheet
        assert [s["total"] for s in state["seats"]] == totals
        assert [s["score"] for s in state["seats"]] == [
            sum(d.payments[s] for d in table.finished) for s in range(players)
        ]
        assert state["pot"] is None  # the session keeps no pot of its own: Tapp's is the deal's


def test_the_table_shows_the_sessions_pots() -> None:
    """A session with two pots of their own (tests/rulesets/tapp-two-pots.yaml): every seat and a
    spectator are shown what each pot holds and each seat's total with what it paid into the
    pots and took out, worked out here from the finished deals' records by the pots' rules
    (tests/sessions_by_hand.py, which does not import the engine)."""
    import sessions_by_hand

    from interpreter.frontends.web.table import Table

    ruleset = load_ruleset(str(Path(__file__).resolve().parent / "rulesets" / "tapp-two-pots.yaml"), {"pot": "kept"})
    players = 3
    table = _played_by_bots(Table(ruleset, players, [], 8, seed=5))
    stock, kitty, taken = 15, 9, [-8] * players
    for deal in table.finished:
        expect = deal.record["expect"]
        stock = sessions_by_hand.tapp_pot_deal(stock, taken, deal.record["dealer"], expect)
        kitty = sessions_by_hand.kitty_deal(kitty, taken, deal.record["dealer"], expect)
    share = stock // players if kitty == 0 else 0  # shared once the session is over
    assert any(taken[s] != -8 for s in range(players)), "nothing moved in the pots: choose another seed"
    for seat in [*range(players), None]:
        state = table.state_for(seat)
        assert state["pots"] == {"stock": stock - players * share, "kitty": kitty}
        assert [s["total"] for s in state["seats"]] == [
            sum(d.payments[s] for d in table.finished) + taken[s] + share for s in range(players)
        ]


def test_the_table_names_the_round_of_its_own_under_way() -> None:
    """docs/examples/example-session.yaml: four rounds of three deals, then the closing round of
    three, whose deals the state names by the round's title (every seat and a spectator)."""
    from interpreter.frontends.web.table import Table

    ruleset = load_ruleset(str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "example-session.yaml"))
    title = next(r.title for r in ruleset.session.special_rounds if r.name == "last_round")
    table = Table(ruleset, 3, [], 1000, seed=3)
    rounds = []
    while True:
        rounds.append({table.state_for(seat)["round"] for seat in (0, 1, 2, None)})
        while table.bot_step():
            pass
        if table.session_over:
            break
        assert table.next_deal() is None
    assert rounds == [{None}] * 12 + [{title}] * 3
