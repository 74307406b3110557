"""`tarock serve`: every op and error code, several games at once, a whole deal through the
protocol alone, and the information boundary of views and events.

The fuzz of hostile input is in test_fuzz_protocol.py. Most tests drive a `Session` directly (one request dict or line in, one response out), exactly as
the stdin/stdout loop does; a few run the real command in a subprocess.
"""

from __future__ import annotations

import errno
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset, ruleset_names
from interpreter.bots.rulebot import RuleBot
from interpreter.engine.records import dump_record
from interpreter.frontends.server import ERROR_CODES, Session, serve

ROOT = Path(__file__).resolve().parent.parent
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


# Every built-in ruleset: one that does not load must fail these tests, not drop out of them.
RULESETS = ruleset_names()
FIRST = "breitnau" if "breitnau" in RULESETS else RULESETS[0]


def ok(response: dict) -> dict:
    assert response["ok"] is True, response
    return response


def refused(response: dict, code: str) -> dict:
    assert response["ok"] is False, response
    assert response["error"]["code"] == code, response
    assert response["error"]["message"], response
    return response


def play_to_end(session: Session, gid: str, kind: str = "rules") -> dict:
    state = ok(session.handle({"op": "legal", "game": gid}))
    last = state
    while state["seat"] is not None:
        last = ok(session.handle({"op": "bot", "game": gid, "kind": kind, "apply": True}))
        state = ok(session.handle({"op": "legal", "game": gid}))
    return last


# -- every op --------------------------------------------------------------------------------


def test_rulesets_lists_every_playable_ruleset() -> None:
    response = ok(Session().handle({"id": "r", "op": "rulesets"}))
    assert response["id"] == "r"
    listed = {r["name"]: r for r in response["rulesets"]}
    for name in RULESETS:
        entry = listed[name]
        assert entry["loads"] and entry["title"] and entry["players"]
        assert all({"name", "kind", "question", "default", "choices"} <= set(c) for c in entry["choices"])


def test_new_view_legal_act_record_close() -> None:
    session = Session()
    new = ok(session.handle({"id": 1, "op": "new", "ruleset": FIRST, "seed": 3}))
    gid, seat = new["game"], new["to_act"]
    assert new["id"] == 1 and new["phase"] == "auction" and seat == new["seats"][0]
    view = ok(session.handle({"op": "view", "game": gid, "seat": seat}))["view"]
    assert view["seat"] == seat and view["phase"] == "auction" and len(view["hand"]) > 0 and "hands" not in view
    umpire = ok(session.handle({"op": "view", "game": gid, "seat": "all"}))["view"]
    assert umpire["hands"][seat] == view["hand"]
    legal = ok(session.handle({"op": "legal", "game": gid}))
    assert legal["seat"] == seat and "pass" in legal["actions"]
    other = (seat + 1) % new["players"]
    assert ok(session.handle({"op": "legal", "game": gid, "seat": other}))["actions"] == []
    act = ok(session.handle({"op": "act", "game": gid, "seat": seat, "action": "pass"}))
    assert act["events"][0] == {"type": "call", "seat": seat, "call": "pass", "phase": act["events"][0]["phase"]}
    assert act["to_act"] != seat and act["phase"] == "auction" and "result" not in act
    record = ok(session.handle({"op": "record", "game": gid}))["record"]
    assert record["actions"] == [[seat, "pass"]] and record["ruleset"] == FIRST
    assert ok(session.handle({"op": "games"}))["games"] == [
        {
            "game": gid,
            "ruleset": FIRST,
            "players": new["players"],
            "phase": "auction",
            "to_act": act["to_act"],
            "session": False,
        }
    ]
    assert ok(session.handle({"op": "close", "game": gid}))["closed"] is True
    refused(session.handle({"op": "view", "game": gid, "seat": 0}), "unknown_game")
    assert ok(session.handle({"op": "games"}))["games"] == []


def test_new_with_explicit_deal_options_and_dealer() -> None:
    session = Session()
    rs = load_ruleset(FIRST)
    players = rs.table_sizes[0]
    dealt = Game(rs, players=players, dealer=2, seed=9)
    deal = {"hands": dealt.initial_hands, "talon": dealt.initial_talon}
    group = rs.groups[0] if rs.groups else None
    options = {group.name: group.choices[-1]} if group else {}
    new = ok(
        session.handle(
            {"op": "new", "ruleset": FIRST, "players": players, "dealer": 2, "deal": deal, "options": options}
        )
    )
    assert new["dealer"] == 2 and new["to_act"] == dealt.to_act
    umpire = ok(session.handle({"op": "view", "game": new["game"], "seat": "all"}))["view"]
    assert [sorted(h) for h in umpire["hands"]] == [sorted(h) for h in dealt.initial_hands]
    if options:
        assert ok(session.handle({"op": "record", "game": new["game"]}))["record"]["options"] == options


def test_bot_op_chooses_and_applies_for_both_kinds() -> None:
    session = Session()
    gid = ok(session.handle({"op": "new", "ruleset": FIRST, "seed": 5}))["game"]
    for kind in ("rules", "random"):
        state = ok(session.handle({"op": "legal", "game": gid}))
        chosen = ok(session.handle({"op": "bot", "game": gid, "kind": kind}))
        assert chosen["seat"] == state["seat"] and chosen["action"] in state["actions"]
        assert "events" not in chosen  # not applied
        applied = ok(session.handle({"op": "bot", "game": gid, "kind": kind, "apply": True}))
        assert applied["events"] and applied["events"][0]["seat"] == state["seat"]
    last = play_to_end(session, gid)
    assert last["phase"] == "over" and sum(last["result"]["payments"]) == 0
    refused(session.handle({"op": "bot", "game": gid}), "game_over")


def test_events_op_pages_through_public_events() -> None:
    session = Session()
    gid = ok(session.handle({"op": "new", "ruleset": FIRST, "seed": 8}))["game"]
    first = ok(session.handle({"op": "events", "game": gid}))
    assert first["events"][0] == {"type": "deal", "dealer": 0}  # no seed: it would tell every hand
    play_to_end(session, gid)
    rest = ok(session.handle({"op": "events", "game": gid, "since": first["next"]}))
    assert rest["events"][-1]["type"] == "settlement"
    assert rest["next"] == first["next"] + len(rest["events"])
    assert ok(session.handle({"op": "events", "game": gid, "since": 10**6}))["events"] == []


def test_load_replays_a_record_and_checks_it() -> None:
    session = Session()
    gid = ok(session.handle({"op": "new", "ruleset": FIRST, "seed": 11}))["game"]
    play_to_end(session, gid)
    record = ok(session.handle({"op": "record", "game": gid}))["record"]
    loaded = ok(session.handle({"op": "load", "record": record}))
    assert loaded["phase"] == "over" and loaded["replayed"] == len(record["actions"])
    assert loaded["check"] == {"ok": True, "failures": [], "refused_at": None}
    again = ok(session.handle({"op": "record", "game": loaded["game"]}))["record"]
    assert again == record
    # YAML text works too, and a cut-off record resumes mid-deal.
    cut = dict(record, actions=record["actions"][:5])
    cut.pop("expect")
    resumed = ok(session.handle({"op": "load", "record": dump_record(cut)}))
    assert resumed["replayed"] == 5 and resumed["phase"] != "over"
    # A wrong expectation is reported, not refused.
    wrong = dict(record, expect={**record["expect"], "payments": [1] * record["players"]})
    checked = ok(session.handle({"op": "load", "record": wrong}))
    assert checked["check"]["ok"] is False and "payments" in checked["check"]["failures"][0]


# -- error codes -----------------------------------------------------------------------------


def test_every_error_code(tmp_path: Path) -> None:
    seen: set[str] = set()

    def expect(response: dict, code: str) -> None:
        refused(response, code)
        seen.add(code)

    session = Session(max_games=3)
    gid = ok(session.handle({"op": "new", "ruleset": FIRST, "seed": 2}))["game"]
    game = session.games[gid].game
    seat = game.to_act
    expect(session.handle_line("{not json"), "bad_json")
    expect(session.handle_line('{"op": "view", "seed": NaN}'), "bad_json")
    expect(session.handle_line("[" * 100_000 + "]" * 100_000), "bad_json")
    expect(session.handle_line(b'{"op": "\xff"}'), "bad_json")
    expect(session.handle([1, 2]), "bad_request")
    expect(session.handle({"op": 7}), "bad_request")
    expect(session.handle({"op": "new"}), "bad_request")
    expect(session.handle({"op": "new", "ruleset": FIRST, "seed": -1}), "bad_request")
    expect(session.handle({"op": "new", "ruleset": FIRST, "seed": 2**64}), "bad_request")
    expect(session.handle({"op": "new", "ruleset": FIRST, "seed": 1, "deal": {"hands": []}}), "bad_request")
    expect(session.handle({"op": "new", "ruleset": FIRST, "players": 2}), "bad_request")
    expect(session.handle({"op": "new", "ruleset": FIRST, "dealer": 99}), "bad_request")
    expect(session.handle({"op": "act", "game": gid, "seat": True, "action": "pass"}), "bad_request")
    expect(session.handle({"op": "act", "game": gid, "seat": seat}), "bad_request")
    expect(session.handle({"op": "bot", "game": gid, "kind": "genius"}), "bad_request")
    expect(session.handle({"op": "shuffle"}), "unknown_op")
    expect(session.handle({"op": "view", "game": "g999", "seat": 0}), "unknown_game")
    expect(session.handle({"op": "close", "game": "g999"}), "unknown_game")
    expect(session.handle({"op": "new", "ruleset": "no-such-village"}), "unknown_ruleset")
    expect(session.handle({"op": "new", "ruleset": "/etc/passwd"}), "unknown_ruleset")
    broken = tmp_path / "broken.yaml"
    broken.write_text(f"extends: {FIRST}\nplay: {{first_lead: nobody}}\n", encoding="utf-8")
    expect(Session(allow_files=True).handle({"op": "new", "ruleset": str(broken)}), "bad_ruleset")
    expect(session.handle({"op": "new", "ruleset": FIRST, "options": {"no_such_choice": "x"}}), "bad_option")
    expect(session.handle({"op": "new", "ruleset": FIRST, "deal": {"hands": [["T22"]], "talon": []}}), "bad_deal")
    expect(session.handle({"op": "load", "record": {"ruleset": FIRST}}), "bad_record")
    expect(session.handle({"op": "load", "record": "ruleset: [unclosed"}), "bad_record")
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(9)
    )
    expect(session.handle({"op": "load", "record": bomb}), "bad_record")  # a billion laughs
    expect(
        session.handle({"op": "new", "ruleset": FIRST, "deal": {"hands": [["X"] * 100_000], "talon": []}}), "bad_deal"
    )
    expect(session.handle({"op": "view", "game": gid, "seat": 99}), "bad_seat")
    expect(session.handle({"op": "act", "game": gid, "seat": -1, "action": "pass"}), "bad_seat")
    expect(session.handle({"op": "act", "game": gid, "seat": seat, "action": {"play": "XX"}}), "invalid_action")
    expect(session.handle({"op": "act", "game": gid, "seat": seat, "action": "bogus"}), "invalid_action")
    expect(session.handle({"op": "act", "game": gid, "seat": seat, "action": 12}), "invalid_action")
    other = game.seats[1]
    expect(session.handle({"op": "act", "game": gid, "seat": other, "action": "pass"}), "not_your_turn")
    expect(session.handle({"op": "bot", "game": gid, "seat": other}), "not_your_turn")
    expect(
        session.handle({"op": "act", "game": gid, "seat": seat, "action": {"play": game.hands[seat][0]}}),
        "illegal_action",
    )
    ok(session.handle({"op": "new", "ruleset": FIRST}))
    ok(session.handle({"op": "new", "ruleset": FIRST}))
    expect(session.handle({"op": "new", "ruleset": FIRST}), "too_many_games")
    play_to_end(session, gid)
    expect(session.handle({"op": "act", "game": gid, "seat": seat, "action": "pass"}), "game_over")
    ok(session.handle({"op": "close", "game": gid}))
    bound = ok(session.handle({"op": "new", "ruleset": FIRST, "seed": 2, "tokens": True}))
    expect(session.handle({"op": "view", "game": bound["game"], "seat": 0}), "forbidden")
    one_deal = tmp_path / "one-deal.yaml"  # a session of one deal: no deal follows it
    one_deal.write_text("title: One deal\nextends: tapp-wuerttemberg\nsession: {deals: 1}\n", encoding="utf-8")
    sessions = Session(allow_files=True)
    played = ok(sessions.handle({"op": "new", "ruleset": str(one_deal), "session": True, "seed": 1}))["game"]
    play_to_end(sessions, played)
    expect(sessions.handle({"op": "next_deal", "game": played}), "session_over")
    out = io.StringIO()
    serve(Session(), io.BytesIO(b"x" * 200 + b"\n"), out, max_line=100)
    expect(json.loads(out.getvalue()), "too_large")
    assert seen == set(ERROR_CODES) - {"internal_error"}
    assert all(re.fullmatch(r"[a-z_]+", code) for code in ERROR_CODES)


def snapshot(session: Session, gid: str) -> str:
    """What a refused request must leave as it was: the record and the umpire's view."""
    record = session.handle({"op": "record", "game": gid})["record"]
    view = session.handle({"op": "view", "game": gid, "seat": "all"})["view"]
    return json.dumps([record, view, len(session.games[gid].game.events)])


def test_refusals_change_nothing() -> None:
    session = Session()
    gid = ok(session.handle({"op": "new", "ruleset": FIRST, "seed": 4}))["game"]
    for _ in range(12):
        ok(session.handle({"op": "bot", "game": gid, "apply": True}))
    game = session.games[gid].game
    refusals = 0
    for seat in range(game.players):
        for action in [*({"play": c} for c in game.ruleset.deck.cards), "pass", "solo", "selber", "dappen", {}]:
            before = snapshot(session, gid)
            response = session.handle({"op": "act", "game": gid, "seat": seat, "action": action})
            if not response["ok"]:
                refusals += 1
                assert snapshot(session, gid) == before, (seat, action, response)
    assert refusals > 100


def test_a_rule_that_fails_in_an_action_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """A payment formula that divides by zero at the end of the deal: the last card is refused
    with the rule's place, the game stays as it was before it, and the session answers on."""
    ruleset = tmp_path / "zero.yaml"
    ruleset.write_text(f'extends: {FIRST}\nsettlement:\n  amount: "100 // (defender_points // 1000)"\n')
    session = Session(allow_files=True)
    gid = ok(session.handle({"op": "new", "ruleset": str(ruleset), "seed": 3}))["game"]
    while True:
        before = snapshot(session, gid)
        legal = ok(session.handle({"op": "legal", "game": gid}))
        response = session.handle({"op": "bot", "game": gid, "apply": True})
        if not response["ok"]:
            break
    refused(response, "bad_ruleset")
    assert "division by zero" in response["error"]["message"] and "zero.yaml" in response["error"]["message"]
    assert snapshot(session, gid) == before
    assert ok(session.handle({"op": "legal", "game": gid})) == legal


def test_a_record_with_values_yaml_refuses_is_a_bad_record() -> None:
    session = Session()
    for text in [
        f"ruleset: {FIRST}\nplayers: !!int abc\n",
        f"ruleset: {FIRST}\nplayers: !!float abc\n",
        f"ruleset: {FIRST}\nplayers: {'9' * 5000}\n",
        "? !!python/name:os.system\n: x\n",
    ]:
        refused(session.handle({"op": "load", "record": text}), "bad_record")


def test_a_record_nested_too_deeply_is_a_bad_record() -> None:
    response = Session().handle({"op": "load", "record": "[" * 3000 + "]" * 3000})
    refused(response, "bad_record")


def test_refusals_are_told_apart_by_the_error_type(tmp_path: Path) -> None:
    """A wrong ruleset name, a wrong option and a broken ruleset each have their code, in `new`
    and in `load` alike; a base (no game to play) is no ruleset to start."""
    session = Session(allow_files=True)
    record = ok(session.handle({"op": "record", "game": ok(session.handle({"op": "new", "ruleset": FIRST}))["game"]}))
    record = record["record"]
    misspelt = FIRST[:-1] + "x"
    for request, code, said in [
        ({"op": "new", "ruleset": misspelt}, "unknown_ruleset", f"did you mean '{FIRST}'?"),
        ({"op": "load", "record": {**record, "ruleset": misspelt}}, "unknown_ruleset", f"did you mean '{FIRST}'?"),
        ({"op": "new", "ruleset": FIRST, "options": {"nope": "x"}}, "bad_option", "no reading or option named 'nope'"),
        ({"op": "load", "record": {**record, "options": {"nope": "x"}}}, "bad_option", "no reading or option"),
        ({"op": "new", "ruleset": "rulesets/cego-pack.yaml"}, "unknown_ruleset", "is a base for other rulesets"),
    ]:
        assert refused(session.handle(request), code)["error"]["message"].find(said) >= 0, (request, said)


# -- the stdin/stdout loop -------------------------------------------------------------------


def test_serve_loop_answers_every_line_and_skips_long_ones() -> None:
    lines = [
        b'{"id": 1, "op": "new", "ruleset": "' + FIRST.encode() + b'", "seed": 1}\n',
        b"\n",  # blank: no answer
        b"   \n",
        b'{"id": 2, "op": "view", "game": "g1", "seat": "' + b"a" * 5000 + b'"}\n',  # too long
        b"\xff\xfe\n",  # not UTF-8
        b'{"id": 3, "op": "legal", "game": "g1"}',  # the last line may lack its newline
    ]
    out = io.StringIO()
    serve(Session(), io.BytesIO(b"".join(lines)), out, max_line=1000)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a.get("id") for a in answers] == [1, None, None, 3]
    assert [a["ok"] for a in answers] == [True, False, False, True]
    assert answers[1]["error"]["code"] == "too_large" and answers[2]["error"]["code"] == "bad_json"


def test_serve_ends_quietly_when_its_reader_goes_away_and_raises_what_it_cannot_write() -> None:
    class Gone(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    class Full(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    requests = io.BytesIO(b'{"op": "games"}\n' * 3)
    serve(Session(), requests, Gone())  # returns: nobody is listening
    assert requests.read() == b'{"op": "games"}\n' * 2, "it stopped at the first answer it could not give"
    with pytest.raises(OSError, match="No space left"):  # the command line makes it one line, exit 2
        serve(Session(), io.BytesIO(b'{"op": "games"}\n'), Full())


def test_tarock_serve_command_plays_a_deal(monkeypatch, capsys) -> None:
    from interpreter.frontends.cli import main

    requests = [{"id": 1, "op": "new", "ruleset": FIRST, "seed": 21}]
    requests += [{"id": 2 + i, "op": "bot", "game": "g1", "kind": "rules", "apply": True} for i in range(200)]
    requests += [{"id": 999, "op": "record", "game": "g1"}]
    text = "\n".join(json.dumps(r) for r in requests) + "\n{broken\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["serve"]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(answers) == len(requests) + 1
    over = [a for a in answers if a.get("phase") == "over" and "result" in a]
    assert len(over) == 1 and sum(over[0]["result"]["payments"]) == 0
    assert answers[-2]["record"]["expect"]["payments"] == over[0]["result"]["payments"]
    assert answers[-1]["error"]["code"] == "bad_json"


def test_the_documented_client_plays_a_whole_deal() -> None:
    """A second program, written from docs/protocol.md alone, plays a whole deal."""
    code = re.search(r"## A minimal client.*?```python\n(.*?)```", PROTOCOL, re.S).group(1)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "payments:" in out.stdout and "trick 1" in out.stdout


def test_the_documented_sample_session_replays() -> None:
    """docs/protocol.md's session is what the server answers (regenerate it with
    `python docs/sample_session.py` when the engine changes)."""
    block = re.search(r"## Sample session.*?```text\n(.*?)```", PROTOCOL, re.S).group(1)
    pairs = re.findall(r"^> (.*)\n< (.*)$", block, re.M)
    assert len(pairs) > 100
    session = Session()
    codes = set()
    for request, documented in pairs:
        got = session.handle_line(request)
        want = json.loads(documented)
        assert got["ok"] == want["ok"], (request, got, want)
        assert set(got) == set(want), (request, got, want)
        if not got["ok"]:
            assert got["error"]["code"] == want["error"]["code"], (request, got)
            codes.add(got["error"]["code"])
        if "events" in got:
            assert [e["type"] for e in got["events"]] == [e["type"] for e in want["events"]], request
        if "view" in got:
            assert got["view"]["hand"] == want["view"]["hand"], request
    assert {"not_your_turn", "illegal_action", "invalid_action", "game_over", "bad_json"} <= codes
    assert any(json.loads(d).get("result") for _, d in pairs), "the session plays the deal to its end"


def test_the_protocol_document_names_every_op_event_and_code() -> None:
    session = Session()
    for op in session.ops:
        assert f"### {op}\n" in PROTOCOL, op
    for code in ERROR_CODES:
        assert f"`{code}`" in PROTOCOL, code
    from interpreter.frontends.server import PUBLIC_FIELDS

    for kind, fields in PUBLIC_FIELDS.items():
        rows = "\n".join(re.findall(rf"^\| `{kind}` \|(.*)$", PROTOCOL, re.M))
        assert rows, kind
        if kind != "settlement":  # its fields are those of the result, listed there
            assert all(f"`{f}" in rows for f in fields), kind


def test_the_protocol_document_states_the_limits() -> None:
    from interpreter.frontends import server

    limits = PROTOCOL[PROTOCOL.index("## Limits") : PROTOCOL.index("## Sample session")]
    assert server.MAX_LINE == 2**20 and "at most 1 MiB" in limits
    assert server.MAX_LINE_LIMIT == 2**30 and "1 GiB" in limits
    assert f"at most {server.MAX_GAMES} games" in limits
    assert f"nest at most {server.MAX_DEPTH} deep" in limits
    assert f"at most {server.MAX_DIGITS} digits" in limits and "`bad_json`" in limits
    assert f"at most {server.MAX_MESSAGE} characters" in limits
    assert server.MAX_SEED == 2**64 and "from 0 to 2⁶⁴−1" in limits


# -- several games at once -------------------------------------------------------------------


def test_several_games_at_once_play_as_if_alone() -> None:
    session = Session()
    specs = [
        (name, size, seed) for seed, name in enumerate(RULESETS[:3] * 2) for size in load_ruleset(name).table_sizes[:2]
    ][:6]
    games = [ok(session.handle({"op": "new", "ruleset": n, "players": p, "seed": s}))["game"] for n, p, s in specs]
    running = set(games)
    while running:  # one action in each game in turn
        for gid in sorted(running):
            state = ok(session.handle({"op": "legal", "game": gid}))
            if state["seat"] is None:
                running.discard(gid)
                continue
            ok(session.handle({"op": "bot", "game": gid, "kind": "rules", "apply": True}))
    bot = RuleBot()
    for gid, (name, size, seed) in zip(games, specs, strict=False):
        alone = Game(load_ruleset(name), players=size, seed=seed)
        while not alone.is_over:
            alone.apply(alone.to_act, bot.choose(alone, alone.to_act))
        assert session.games[gid].game.history == alone.history
        assert session.games[gid].game.result == alone.result


# -- the information boundary ----------------------------------------------------------------


def card_ids(value, cards: frozenset[str]) -> set[str]:
    """Every card id anywhere in a JSON value (keys included)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in cards:
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def public_cards(game) -> set[str]:
    """What the whole table has seen: played cards, cards the rules lay open, and once the deal
    is over and counted, the talon and the discards."""
    seen = {c for t in game.tricks for c in t.cards}
    for event in game.events:
        if event["type"] == "claim":
            seen.update(event["hand"])
        if event["type"] == "announce":
            seen.update(event["cards"])
        if event["type"] == "keep":
            seen.update(event.get("exposed", ()))
        if event["type"] == "forced_discard":
            seen.update(event.get("cards", ()))
        if event["type"] in ("open_hand", "claim"):
            seen.update(event["hand"])
        if event["type"] in ("offence", "call_card", "talon_card"):
            seen.add(event["card"])
        if event["type"] == "call_partner" and "card" in event:
            seen.add(event["card"])  # a King called by name is public; its holder is not
        if event["type"] == "talon_shown":
            seen.update(event["cards"])
        if event["type"] == "accusation":
            seen.update(c for hand in event["hands"] for c in hand)
    if game.is_over and game.result.points is not None:
        seen.update(game.initial_talon)
        seen.update(game.aside)
    return seen


def known_to(game, seat: int) -> set[str]:
    """What `seat` may know: the cards it holds or held, and the public ones."""
    held = set(game.initial_hands[seat]) | set(game.hands[seat])
    exchange = game.exchange
    if seat == game.declarer and any(e["type"] == "talon_taken" for e in game.events):
        held |= set(exchange.taken)  # the talon, or the cards of it the declarer took
    if exchange is not None and exchange.rest_seen_by_defenders and seat in game.seats and seat != game.declarer:
        held |= set(game.talon)  # the rest of a talon drawn from in part, which the opponents look at
    return held | public_cards(game)


@pytest.mark.parametrize("name", RULESETS)
def test_views_and_events_never_show_hidden_cards(name: str) -> None:
    """For every phase and every seat: every card id anywhere in the seat's view is one the seat
    holds or held, or one the table has seen; every card in an event is public."""
    rs = load_ruleset(name)
    cards = frozenset(rs.deck.cards)
    wanted = {"auction", "play", "over"}
    if any(c.exchange for c in rs.contracts.values()):
        wanted.add("exchange")
    if any(a.cards for a in rs.announcements.values()):
        wanted.add("announce")
    seen_phases: set[str] = set()
    session = Session()
    for seed in range(40):
        size = rs.table_sizes[seed % len(rs.table_sizes)]
        gid = ok(session.handle({"op": "new", "ruleset": name, "players": size, "dealer": seed % size, "seed": seed}))[
            "game"
        ]
        game = session.games[gid].game
        kind = "rules" if seed % 3 else "random"
        while True:
            seen_phases.add(game.phase.value)
            for seat in range(game.players):
                view = ok(session.handle({"op": "view", "game": gid, "seat": seat}))["view"]
                assert view["hand"] == sorted(game.hands[seat], key=game.ruleset.deck.sort_key)
                leaked = card_ids(view, cards) - known_to(game, seat)
                assert not leaked, f"{name} seed {seed}, phase {game.phase.value}: seat {seat} sees {sorted(leaked)}"
            if game.is_over:
                break
            applied = ok(session.handle({"op": "bot", "game": gid, "kind": kind, "apply": True}))
            leaked = card_ids(applied["events"], cards) - public_cards(game)
            assert not leaked, f"{name} seed {seed}: events tell {sorted(leaked)}: {applied['events']}"
        history = ok(session.handle({"op": "events", "game": gid}))["events"]
        assert not card_ids(history, cards) - public_cards(game)
        session.handle({"op": "close", "game": gid})
        if seen_phases >= wanted and seed >= 3:  # at least four deals
            break
    assert seen_phases >= wanted, f"{name}: phases never reached: {wanted - seen_phases}"


def test_a_thrown_in_deal_does_not_turn_the_talon_over() -> None:
    session = Session()
    for seed in range(200):
        gid = ok(session.handle({"op": "new", "ruleset": FIRST, "seed": seed}))["game"]
        game = session.games[gid].game
        while not game.is_over:
            legal = game.legal_actions()
            session.handle(
                {"op": "act", "game": gid, "seat": game.to_act, "action": "pass" if "pass" in legal else legal[0]}
            )
        if game.result.outcome == "thrown_in":
            for seat in range(game.players):
                view = ok(session.handle({"op": "view", "game": gid, "seat": seat}))["view"]
                assert not card_ids(view, frozenset(game.initial_talon))
            assert ok(session.handle({"op": "view", "game": gid, "seat": "all"}))["view"]["talon"]
            return
        session.handle({"op": "close", "game": gid})
    pytest.skip("no deal was thrown in")


# -- the README's section on driving the engine -------------------------------------------------

README = (ROOT / "README.md").read_text(encoding="utf-8")
DRIVING = README[README.index("## Driving the engine") :]
DRIVING = DRIVING[: DRIVING.index("\n## ", 5)]


def test_readme_protocol_example_is_what_the_server_answers() -> None:
    pairs = re.findall(r"^> (.*)\n< (.*)$", DRIVING, re.M)
    assert len(pairs) >= 4
    session = Session()
    for request, documented in pairs:
        got, want = session.handle_line(request), json.loads(documented)
        if not want["ok"]:  # the engine's wording of a refusal may improve
            got["error"].pop("message"), want["error"].pop("message")
        assert got == want, request


def test_readme_python_example_runs() -> None:
    code = re.search(r"```python\n(.*?)```", DRIVING, re.S).group(1)
    namespace: dict = {}
    exec(compile(code, "README.md (driving the engine)", "exec"), namespace)
    assert namespace["again"].is_over


# -- seats bound to tokens -------------------------------------------------------------------


def test_tokens_bind_each_request_to_its_seat() -> None:
    """`new` with tokens: a seat's token acts and sees for that seat only; the umpire's token
    keeps today's umpire mode; no token, or another game's, is refused."""
    session = Session()
    new = ok(session.handle({"op": "new", "ruleset": FIRST, "seed": 5, "tokens": True}))
    gid, tokens, umpire = new["game"], new["tokens"], new["umpire"]
    game = session.games[gid].game
    assert len(tokens) == game.players and len(set(tokens + [umpire])) == game.players + 1
    seat = game.to_act
    other = next(s for s in game.seats if s != seat)
    # Views: the token's own seat, whatever seat is named; never the umpire's.
    view = ok(session.handle({"op": "view", "game": gid, "token": tokens[other]}))["view"]
    assert view["seat"] == other and view["hand"] == sorted(game.hands[other], key=game.ruleset.deck.sort_key)
    for asked in (seat, "all"):
        refused(session.handle({"op": "view", "game": gid, "token": tokens[other], "seat": asked}), "forbidden")
    refused(session.handle({"op": "view", "game": gid, "seat": other}), "forbidden")  # no token
    refused(session.handle({"op": "view", "game": gid, "token": "guessed"}), "forbidden")
    # Legal actions and moves: for the token's seat only.
    mine = ok(session.handle({"op": "legal", "game": gid, "token": tokens[seat]}))
    assert mine["seat"] == seat and mine["actions"]
    assert ok(session.handle({"op": "legal", "game": gid, "token": tokens[other]}))["seat"] == other
    refused(
        session.handle({"op": "act", "game": gid, "token": tokens[other], "seat": seat, "action": "pass"}), "forbidden"
    )
    before = game.record()
    refused(session.handle({"op": "act", "game": gid, "token": tokens[other], "action": "pass"}), "not_your_turn")
    assert game.record() == before
    ok(session.handle({"op": "act", "game": gid, "token": tokens[seat], "action": mine["actions"][0]}))
    # The record shows every hand: the umpire's alone; the events are public.
    refused(session.handle({"op": "record", "game": gid, "token": tokens[seat]}), "forbidden")
    assert ok(session.handle({"op": "record", "game": gid, "token": umpire}))["record"]["actions"]
    assert ok(session.handle({"op": "events", "game": gid, "token": tokens[other]}))["events"]
    # The umpire's token is today's umpire: any seat, "all", the bots.
    assert "hands" in ok(session.handle({"op": "view", "game": gid, "token": umpire, "seat": "all"}))["view"]
    while not game.is_over:
        to_act = game.to_act
        ok(session.handle({"op": "bot", "game": gid, "token": tokens[to_act], "apply": True}))
    refused(session.handle({"op": "close", "game": gid, "token": tokens[0]}), "forbidden")
    ok(session.handle({"op": "close", "game": gid, "token": umpire}))
    # A game opened without tokens is the umpire's, as before.
    plain = ok(session.handle({"op": "new", "ruleset": FIRST, "seed": 5}))
    assert "tokens" not in plain
    assert "hands" in ok(session.handle({"op": "view", "game": plain["game"], "seat": "all"}))["view"]


def test_every_event_the_engine_emits_has_its_public_fields_listed() -> None:
    """An event type missing from PUBLIC_FIELDS is sent with its cards redacted: safe, but then a
    client cannot show what the whole table saw (the King called, the talon laid out)."""
    from interpreter.frontends.server import PUBLIC_FIELDS, public_event

    seen: dict[str, dict] = {}
    bot = RuleBot()
    for name in ruleset_names():
        rs = load_ruleset(name)
        for players in rs.table_sizes:
            for seed in range(6):
                game = Game(rs, players=players, seed=seed)
                while not game.is_over:
                    seat = game.to_act
                    assert seat is not None
                    game.apply(seat, bot.choose(game, seat))
                for event in game.events:
                    seen.setdefault(event["type"], public_event(event, game))
    assert sorted(set(seen) - set(PUBLIC_FIELDS)) == []
    assert "card" in seen["call_partner"] or "choice" in seen["call_partner"]
    assert seen["talon_shown"]["cards"]
    # Said by people more than by the rule bot (which never doubles nor concedes): listed all the same.
    assert {"kontra", "concede", "talon_card"} <= set(PUBLIC_FIELDS)
