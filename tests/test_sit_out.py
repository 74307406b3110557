"""`players.sit_out`: the seats that sit out a deal, by their position from the dealer in the order
of play (0 the dealer, 1 Vorhand …), more than the dealer where a ruleset says so.

The table of the tests is Königrufen at six with the dealer and the player opposite sitting out
(tests/rulesets/koenigrufen-six-two-sit-out.yaml, an assumed rule: no source we hold says who sits
out at six). Its records play a Dreier with both seats empty-handed; here: the compiler's refusals,
the seats by dealer, the settlement of both seats, and what a protocol client and the web table's
page receive."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.engine.deal import DealError
from interpreter.engine.records import game_from_record, read_record, replay_document
from interpreter.errors import RulesetError
from interpreter.frontends.server import Session
from interpreter.frontends.simulate import render, simulate
from interpreter.language.model import Ruleset

TESTS = Path(__file__).resolve().parent
SIX = str(TESTS / "rulesets" / "koenigrufen-six-two-sit-out.yaml")
SIX_PAYING = str(TESTS / "rulesets" / "koenigrufen-six-two-sit-out-pay.yaml")
RECORD = TESTS / "records" / "koenigrufen-six-two-sit-out-dreier.yaml"
TABLE_JS = TESTS.parent / "interpreter" / "frontends" / "web" / "static" / "table.js"


def _ruleset(tmp_path: Path, players: str) -> Ruleset:
    file = tmp_path / "table.yaml"
    file.write_text(f"title: A table\nextends: koenigrufen\nplayers:\n{players}", encoding="utf-8")
    return load_ruleset(str(file))


def _problems(tmp_path: Path, players: str) -> list[Any]:
    with pytest.raises(RulesetError) as caught:
        _ruleset(tmp_path, players)
    return caught.value.problems


# -- the word as compiled ------------------------------------------------------------------------


def test_dealer_sits_out_is_the_shorthand_of_sit_out(tmp_path: Path) -> None:
    short = load_ruleset("koenigrufen")
    written = _ruleset(tmp_path, '  dealer_sits_out: []\n  sit_out: {"5": [0]}\n')
    assert short.sit_out == written.sit_out == {5: (0,)}
    assert short.table_sizes == written.table_sizes == (4, 5)
    assert load_ruleset(SIX).sit_out == {5: (0,), 6: (0, 3)}  # five from Königrufen, six its own
    assert load_ruleset(SIX).table_sizes == (4, 5, 6)


@pytest.mark.parametrize(
    ("players", "path", "words"),
    [
        (
            '  dealer_sits_out: [5]\n  sit_out: {"5": [0]}\n',
            "players.sit_out.5",
            ["also in dealer_sits_out", "drop 5 from dealer_sits_out"],
        ),
        ('  sit_out: {"6": [0, 6]}\n', "players.sit_out.6[1]", ["position 6 is not at a table of 6", "up to 5"]),
        ('  sit_out: {"6": [3, 0, 3]}\n', "players.sit_out.6[2]", ["position 3 is given twice"]),
        (
            '  sit_out: {"6": [0]}\n',
            "players.sit_out.6",
            ["with 6 at the table and 1 sitting out, 5 play", "active allows only [4]", "add 5 to players.active"],
        ),
        (
            "  dealer_sits_out: [5, 6]\n",
            "players.dealer_sits_out[1]",
            ["with 6 at the table and the dealer out, 5 play", "active allows only [4]"],
        ),
        ('  sit_out: {"6": [-1]}\n', "players.sit_out.6[0]", []),  # the schema: a position from 0
    ],
)
def test_a_wrong_sit_out_is_refused_where_it_is_written(
    tmp_path: Path, players: str, path: str, words: list[str]
) -> None:
    found = _problems(tmp_path, players)
    problems = [p for p in found if p.path == path]
    assert problems and len(found) == len(problems), [str(p) for p in found]  # one mistake, said once
    assert problems[0].line is not None  # located in the file
    for word in words:
        assert any(word in p.message for p in problems), [p.message for p in problems]


# -- the engine ----------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(6))
def test_the_seats_out_are_counted_from_the_dealer(dealer: int) -> None:
    game = Game(load_ruleset(SIX), players=6, dealer=dealer, seed=dealer)
    out = (dealer, (dealer + 3) % 6)
    assert game.seats_out == out
    assert game.seats == [(dealer + k) % 6 for k in (1, 2, 4, 5)]  # from Vorhand, in order of play
    assert game.vorhand == (dealer + 1) % 6
    for seat in out:
        assert game.initial_hands[seat] == [] and game.hands[seat] == []
    assert all(len(game.initial_hands[s]) == 12 for s in game.seats)


def test_the_same_deal_where_only_the_dealer_sits_out_is_refused(tmp_path: Path) -> None:
    """The record's deal needs seat 3 out: the dealer alone out at six is no table Königrufen
    allows (five would play), and another seat out than the record's is refused by its hands."""
    problems = _problems(tmp_path, "  dealer_sits_out: [5, 6]\n")
    assert any("5 play, but active allows only [4]" in p.message for p in problems)
    record = yaml.safe_load(RECORD.read_text(encoding="utf-8"))
    other = tmp_path / "other.yaml"
    other.write_text('title: Other\nextends: koenigrufen\nplayers:\n  sit_out: {"6": [0, 2]}\n', encoding="utf-8")
    with pytest.raises(DealError) as caught:
        Game(load_ruleset(str(other)), players=6, deal=record["deal"])
    said = str(caught.value)
    assert "seat 2" in said and "seat 3" in said  # seat 2 should be empty, seat 3 is short of cards
    played = Game(load_ruleset(SIX), players=6, deal=record["deal"])
    assert played.seats_out == (0, 3) and played.to_act == 1


def test_the_record_and_its_paying_twin_replay_as_computed_by_hand() -> None:
    for name, payments in (
        ("koenigrufen-six-two-sit-out-dreier.yaml", [0, -12, 4, 0, 4, 4]),
        ("koenigrufen-six-two-sit-out-dreier-paying.yaml", [4, -20, 4, 4, 4, 4]),
    ):
        file = TESTS / "records" / name
        doc = read_record(file)
        game = game_from_record(doc, file.parent)
        report = replay_document(doc, game)
        assert report.ok, report
        assert game.result is not None and list(game.result.payments) == payments
        assert doc.data["expect"]["payments"] == payments  # the record says what the hand says


def test_every_seat_that_sits_out_settles_as_the_rule_says() -> None:
    """With `settlement.sitting_out: defender` both seats out pay and receive like an opponent,
    at every dealer; with the default neither takes part."""
    for path, part in ((SIX, False), (SIX_PAYING, True)):
        ruleset = load_ruleset(path)
        for seed in range(12):
            game = Game(ruleset, players=6, dealer=seed % 6, seed=seed)
            while not game.is_over:
                seat = game.to_act
                assert seat is not None and seat not in game.seats_out
                game.apply(seat, game.legal_actions(seat)[seed % len(game.legal_actions(seat))])
            result = game.result
            assert result is not None and sum(result.payments) == 0
            if result.declarer is None or result.outcome != "played":
                continue
            team = {result.declarer, result.partner} - {None}
            opponent = next(s for s in game.seats if s not in team)
            for seat in game.seats_out:
                expected = result.payments[opponent] if part else 0
                assert result.payments[seat] == expected, (path, seed)


# -- what a client receives ----------------------------------------------------------------------


def _ok(response: dict[str, Any]) -> dict[str, Any]:
    assert response["ok"] is True, response
    return response


def test_a_protocol_client_sees_both_seats_out() -> None:
    session = Session(allow_files=True)
    new = _ok(session.handle({"op": "new", "ruleset": SIX, "players": 6, "dealer": 2, "seed": 5}))
    gid = new["game"]
    assert new["seats_out"] == [2, 5] and new["seats"] == [3, 4, 0, 1]
    assert "sitting_out" not in new
    steps = 0
    while True:
        legal = _ok(session.handle({"op": "legal", "game": gid}))
        for seat in (2, 5):
            view = _ok(session.handle({"op": "view", "game": gid, "seat": seat}))["view"]
            assert view["seats_out"] == [2, 5] and view["hand"] == [] and view["hand_sizes"][seat] == 0
            assert "sitting_out" not in view
        if legal["seat"] is None:
            break
        assert legal["seat"] not in (2, 5)
        # A seat that sits out is refused, and the refusal says why.
        wrong = session.handle({"op": "act", "game": gid, "seat": 5, "action": "pass"})
        assert wrong["ok"] is False and wrong["error"]["code"] == "not_your_turn"
        assert "seat 5 sits out this deal" in wrong["error"]["message"]
        _ok(session.handle({"op": "bot", "game": gid, "kind": "rules", "apply": True}))
        steps += 1
    assert steps > 40
    record = _ok(session.handle({"op": "record", "game": gid}))["record"]
    assert record["deal"]["hands"][2] == [] and record["deal"]["hands"][5] == []
    loaded = _ok(session.handle({"op": "load", "record": record}))
    assert loaded["seats_out"] == [2, 5] and loaded["check"]["ok"] is True


# The page's drawSeats, run by node on a stand-in for the browser's document: the marks each seat's
# box shows for the state the page received.
_PAGE = r"""
const fs = require("fs"), vm = require("vm");
function node(tag) {
  const n = { tag, children: [], attrs: {}, textContent: "", style: {}, classList: { add() {}, remove() {}, toggle() {} },
    append(...c) { this.children.push(...c); }, prepend(...c) { this.children.unshift(...c); },
    replaceChildren(...c) { this.children = c; }, setAttribute(k, v) { this.attrs[k] = v; },
    addEventListener() {}, querySelector() { return node("x"); }, querySelectorAll() { return []; } };
  return n;
}
const ids = {};
const document = { getElementById: (id) => (ids[id] = ids[id] || node(id)), createElement: node,
  addEventListener() {}, body: node("body"), title: "" };
const context = { document, window: {}, location: { hash: "#t", pathname: "/table/x", protocol: "http:", host: "h" },
  localStorage: { getItem: () => null, setItem() {} }, WebSocket: class { send() {} close() {} },
  console, setTimeout() {}, clearTimeout() {}, navigator: {}, Audio: class {} };
context.window = context;
vm.createContext(context);
vm.runInContext(fs.readFileSync(process.argv[2], "utf8"), context);
const state = JSON.parse(fs.readFileSync(0, "utf8"));
vm.runInContext("tarock.welcome = { cards: {}, calls: {} }", context);
context.drawSeats(state, state.view, state.you);
const text = (n) => (typeof n === "string" ? n : n.textContent + n.children.map(text).join(""));
console.log(JSON.stringify(ids.seats.children.map((box) => [Number(box.attrs["data-seat"]), text(box)])));
"""


def test_the_web_table_shows_every_seat_that_sits_out(tmp_path: Path) -> None:
    """The state the web table sends a seat that sits out: no cards, never to act, and the page
    marks both seats that sit out (and no other)."""
    from interpreter.frontends.web.table import Table

    if shutil.which("node") is None:
        pytest.skip("node is needed to run the page's script")
    table = Table(load_ruleset(SIX), 6, people=list(range(6)), deals=1, seed=7)
    game = table.game
    assert game.seats_out == (0, 3)
    while not game.is_over:
        for seat in (0, 3):
            state = table.state_for(seat)
            assert state["view"]["seats_out"] == [0, 3] and state["view"]["hand"] == []
            assert not state["legal"] and state["view"]["to_act"] not in (0, 3)
        assert table.act(3, "pass") is not None  # refused: seat 3 sits out
        seat = game.to_act
        assert seat is not None
        assert table.act(seat, game.legal_actions(seat)[0]) is None
    state = table.state_for(3)
    page = tmp_path / "page.js"
    page.write_text(_PAGE, encoding="utf-8")
    out = subprocess.run(
        ["node", str(page), str(TABLE_JS)], input=json.dumps(state), capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    boxes = dict(json.loads(out.stdout))
    assert sorted(s for s, text in boxes.items() if "sits out" in text) == [0, 3]
    assert "dealer" in boxes[0] and "0 cards" in boxes[3]


def test_every_seat_out_knocks_and_is_paid_where_the_rules_name_the_seats_that_sit_out(tmp_path: Path) -> None:
    """Dreierles' Räuber with two seats out at five (a table of the tests): both knock in their
    places (`doubling.sitting_out`), both settle as defenders, and the formula name `sitting_out`
    is true for each of them (three tied pay each seat that sits out)."""
    file = tmp_path / "five.yaml"
    file.write_text(
        'title: Dreierles at five\nextends: dreierles\nplayers:\n  sit_out: {"5": [0, 2]}\n', encoding="utf-8"
    )
    ruleset = load_ruleset(str(file))
    knocked: set[int] = set()
    raeuber = 0
    for seed in range(40):
        game = Game(ruleset, players=5, dealer=seed % 5, seed=seed)
        out = game.seats_out
        assert out == (seed % 5, (seed % 5 + 2) % 5)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions(seat)
            if seat in out:
                assert game.phase.value == "announce"  # a seat out speaks only to knock
                knocked.add(out.index(seat))
            choice = "pass" if "pass" in legal and game.phase.value == "auction" else legal[seed % len(legal)]
            game.apply(seat, choice)
        result = game.result
        assert result is not None and sum(result.payments) == 0
        if result.contract != "raeuber":
            continue
        raeuber += 1
        points = result.points["seats"]
        playing = [points[s] for s in game.seats]
        if playing.count(max(playing)) == 3:  # three tied: each pays each seat out the kontra
            assert all(result.payments[s] > 0 for s in out)
        elif playing.count(max(playing)) == 1:  # the one with most pays every other seat, both out too
            loser = max(game.seats, key=lambda s: points[s])
            assert all(result.payments[s] == result.payments[out[0]] > 0 for s in out)
            assert result.payments[loser] < 0
    assert raeuber > 10 and knocked == {0, 1}


def test_the_formula_name_sitting_out_is_true_for_each_seat_out(tmp_path: Path) -> None:
    """What a payment class reads of each seat (settlement's places): both seats out are
    `sitting_out`, with no points and no trick, placed after every player, ranked from the dealer."""
    from interpreter.engine.settlement import Deal, _places

    file = tmp_path / "five.yaml"
    file.write_text(
        'title: Dreierles at five\nextends: dreierles\nplayers:\n  sit_out: {"5": [0, 2]}\n', encoding="utf-8"
    )
    ruleset = load_ruleset(str(file))
    deal = Deal(ruleset, ruleset.contracts["raeuber"], None, [1, 3, 4], 5, (0, 2), frozenset(), {}, ())
    env = _places(deal, {1: 30, 3: 30, 4: 10}, {1: 3, 3: 3, 4: 1}, 1)
    assert [env[s]["sitting_out"] for s in range(5)] == [True, False, True, False, False]
    assert [env[s]["place"] for s in range(5)] == [4, 1, 4, 1, 3]
    assert [env[s]["rank"] for s in (0, 2)] == [4, 5]
    assert env[0]["points"] == env[2]["points"] == 0 and env[0]["tricks"] == env[2]["tricks"] == 0


def test_simulate_names_every_seat_that_sits_out_and_pays_them_nothing() -> None:
    """`tarock simulate`'s table of seats: both seats out are marked, and their payments are 0."""
    stats = simulate(SIX, deals=40, players=6, dealer=1)
    positions = [seat["position"] for seat in stats["seats"]]
    assert positions == ["dealer+5", "dealer, sits out", "Vorhand", "dealer+2", "dealer+3, sits out", "dealer+4"]
    assert [seat["mean"] for seat in stats["seats"]][1::3] == [0, 0]
    assert "(dealer, sits out)" in render(stats) and "(dealer+3, sits out)" in render(stats)
