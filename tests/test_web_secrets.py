"""What a spectator and a download may tell, read from the receiving side.

A spectator sees what the whole table sees: nothing one seat knows before the others (the called
King's holder, the lone player's discards). A record downloaded from a table names only cards the
requester may know by the deal's end; a seat's full record (every hand as dealt) comes only once
the session is over.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
import yaml
from test_server import card_ids  # every card id anywhere in a JSON value

from interpreter import Game, load_ruleset, ruleset_names
from interpreter.bots.rulebot import RuleBot
from interpreter.engine.records import parse_record, replay_observed
from interpreter.frontends.server import public_view

RULESETS = ruleset_names()


def _table_facts(view: dict[str, Any]) -> dict[str, Any]:
    """A view's facts about the table: all but whose view it is and the hand it holds."""
    return {k: v for k, v in view.items() if k not in ("seat", "hand")}


@pytest.mark.parametrize("name", RULESETS)
def test_a_spectator_is_told_only_what_every_seat_is_told(name: str) -> None:
    """At every step of bot-played deals: every fact of the spectator's view is in every seat's
    view, the same (an open hand: in every view but its holder's, who holds it)."""
    rs = load_ruleset(name)
    bot = RuleBot()
    for seed in range(3):
        players = rs.table_sizes[seed % len(rs.table_sizes)]
        game = Game(rs, players=players, seed=seed)
        while True:
            spectator = public_view(game, None)
            assert spectator["seat"] is None and spectator["hand"] == []
            for seat in range(players):
                seen = _table_facts(public_view(game, seat))
                for fact, value in _table_facts(spectator).items():
                    if fact == "open_hand" and value["seat"] == seat:
                        continue
                    assert seen.get(fact) == value, (
                        f"{name} seed {seed} step {len(game.history)}: the spectator is told {fact}={value!r}, "
                        f"seat {seat} {seen.get(fact)!r}"
                    )
            if game.is_over:
                break
            assert game.to_act is not None
            game.apply(game.to_act, bot.choose(game, game.to_act))


@pytest.mark.parametrize("players", [4, 5])
def test_a_spectator_at_a_koenigrufen_table_never_learns_the_partner_early(players: int) -> None:
    """The table's spectator state, deal after deal of bots calling Kings: the partner and an
    unnamed called King only once every seat knows them."""
    from interpreter.frontends.web.table import Table

    table = Table(load_ruleset("koenigrufen"), players, [], 6, seed=players)
    partners = 0
    while True:
        game = table.game
        view = table.state_for(None)["view"]
        for fact in ("partner", "called"):
            if fact in view:
                blind = [s for s in range(players) if fact not in game.view(s)]
                assert not blind, f"deal {len(table.finished) + 1}, step {len(game.history)}: before seats {blind}"
        partners += "partner" in view and not game.is_over
        if game.is_over:
            if table.session_over:
                break
            table.next_deal()
            continue
        table.bot_step()
    assert partners > 0  # the partner became public during play in some deal: the check had work to do


@pytest.mark.parametrize("players", [4, 5])
def test_only_the_holder_of_the_called_king_is_told_it_is_the_partner(players: int) -> None:
    """Deal after deal of bots calling Kings, every seat's and the spectators' state at every
    step: the header, the hints and the tricks taken by side name the partner only to a seat
    that knows it (test_web._sides_as_known), and "you are Anna's partner" reaches the holder alone."""
    from test_web import _sides_as_known

    from interpreter.frontends.web.table import Table

    names = dict(enumerate(["Anna", "Bert", "Cora", "Dora", "Emil"][:players]))
    table = Table(load_ruleset("koenigrufen"), players, [], 8, seed=players + 1, names=names)
    told = secret = 0
    while True:
        game = table.game
        for seat in [*range(players), None]:
            state = table.state_for(seat)
            _sides_as_known(state, game, seat)
            told += any("'s partner." in h and h.startswith("You ") for h in state["hints"])
            secret += "partner" not in game.view(seat if seat is not None else "all") and bool(state["hints"])
        if game.is_over:
            if table.session_over:
                break
            table.next_deal()
            continue
        table.bot_step()
    assert told > 0 and secret > 0  # the holder was told, while others did not know: the check had work to do


# -- downloads ---------------------------------------------------------------------------------


def _known_at_the_end(record: dict[str, Any], ruleset: Any) -> tuple[dict[int, set[str]], set[str]]:
    """What each seat may know by the end of a recorded deal (test_web's knowledge), and what
    every seat knows (the spectators' share)."""
    from test_web import _knowledge, _steps

    known, game = _knowledge(record, _steps(record))
    return known, set.intersection(*(known[s] for s in range(game.players)))


@pytest.mark.parametrize("name", RULESETS)
def test_a_download_names_only_cards_its_requester_may_know_and_replays(name: str) -> None:
    """Deals played to every end (played, thrown in, abandoned, accused): each seat's and the
    spectators' download names only cards they may know, and replays as an observed game."""
    from interpreter.frontends.web.downloads import record_for, replays

    rs = load_ruleset(name)
    pack = frozenset(rs.deck.cards)
    for seed in range(3):
        rng = random.Random(seed)
        players = rs.table_sizes[seed % len(rs.table_sizes)]
        game = Game(rs, players=players, seed=seed)
        while not game.is_over:
            legal = game.legal_actions()
            # Now and then everybody passes: a deal thrown in keeps every hand secret.
            action = "pass" if seed == 1 and "pass" in legal else rng.choice(legal)
            if isinstance(action, dict) and isinstance(next(iter(action.values())), dict):
                kind, template = next(iter(action.items()))
                allowed = [c for c in template["from"] if c not in template.get("forbidden", ())]
                action = {kind: rng.sample(allowed, template["count"])}
            assert game.to_act is not None
            game.apply(game.to_act, action)
        record = game.record()
        known, everybody = _known_at_the_end(record, rs)
        for seat in [*range(players), None]:
            download = record_for(rs, record, seat, "a test")
            allowed = everybody if seat is None else known[seat]
            told = card_ids(download, pack)
            assert told <= allowed, f"{name} seed {seed}: {seat} may download {sorted(told - allowed)}"
            if "deal" not in download:
                assert replays(download) or (game.result is not None and game.result.outcome == "abandoned"), (
                    f"{name} seed {seed}: the download of {seat} does not replay"
                )


def test_a_thrown_in_deal_downloads_with_no_hand_but_ones_own() -> None:
    from interpreter.frontends.web.downloads import record_for

    rs = load_ruleset("breitnau")
    game = Game(rs, players=6, seed=1)
    while not game.is_over:
        assert game.to_act is not None
        game.apply(game.to_act, "pass")
    assert game.result is not None and game.result.outcome == "thrown_in"
    record = game.record()
    spectators = record_for(rs, record, None, "a spectator")
    assert "deal" not in spectators and "seed" not in spectators
    assert spectators["observed"]["hands"] == [[]] * 6 and "talon" not in spectators["observed"]
    assert not card_ids(spectators, frozenset(rs.deck.cards))
    seat2 = record_for(rs, record, 2, "seat 2")
    assert seat2["observed"]["hands"][2] == record["deal"]["hands"][2]
    assert card_ids(seat2, frozenset(rs.deck.cards)) == set(record["deal"]["hands"][2])
    report = replay_observed(parse_record(yaml.safe_dump(seat2), "<download>"))
    assert report.ok and report.game is not None and report.game.result is not None
    assert report.game.result.outcome == "thrown_in"


async def _downloads() -> None:
    """Over the server: a session of two Breitnau deals everybody passes; the records as each
    token may have them, before and after the session's end."""
    from aiohttp import ClientSession
    from aiohttp.test_utils import TestServer
    from test_web import _join, _next_deal, _open, _settled

    from interpreter.frontends.web.app import TABLES, make_app

    server = TestServer(make_app(bot_delay=0))
    await server.start_server()
    try:
        async with ClientSession() as http:
            answer = await _open(http, server, {"ruleset": "breitnau", "people": list(range(6)), "deals": 2})
            table = server.app[TABLES][answer["table"]]
            tokens = {link["seat"]: link["url"].split("#")[1] for link in answer["links"]}
            tokens[None] = answer["spectators"].split("#")[1]
            clients = [await _join(http, server, link["url"], link["seat"]) for link in answer["links"]]
            await _settled(clients, table)

            async def download(who: int | None) -> dict[str, Any]:
                url = server.make_url(f"/api/tables/{table.id}/records/1")
                async with http.get(url, headers={"X-Seat-Token": tokens[who]}) as response:
                    assert response.status == 200, await response.text()
                    data: dict[str, Any] = yaml.safe_load(await response.text())
                    return data

            for deal in (1, 2):
                while not table.game.is_over:
                    seat = table.game.to_act
                    legal = table.game.legal_actions(seat)
                    before = table.version
                    await clients[seat].send(type="act", action="pass" if "pass" in legal else legal[0])
                    await _settled(clients, table, after=before)
                outcome = table.finished[-1].record["expect"]["outcome"]
                assert outcome in ("thrown_in", "abandoned"), outcome  # nobody played: every hand secret
                if deal == 1:
                    pack = frozenset(table.ruleset.deck.cards)
                    hands = table.finished[0].record["deal"]["hands"]
                    assert not card_ids(await download(None), pack)
                    for seat in range(6):
                        assert card_ids(await download(seat), pack) == set(hands[seat])
                    await _next_deal(clients, table)
            assert table.session_over
            assert "deal" in await download(3)  # the session is over: the seats' full record
            assert "deal" not in await download(None)  # never the spectators'
            for client in clients:
                await client.ws.close()
    finally:
        await server.close()


def test_downloads_over_the_server_before_and_after_the_session() -> None:
    pytest.importorskip("aiohttp")
    asyncio.run(_downloads())
