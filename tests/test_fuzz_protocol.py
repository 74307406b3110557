"""The protocol under hostile input: no line, however made, ends the server, goes unanswered,
answers `internal_error`, or changes a game it was refused by.

Hostile means: bytes that are not UTF-8, lone surrogates (valid JSON: "\\ud800"), NaN, 1e400 and
integers of thousands of digits, nesting deeper than the limit, lines longer than the limit, and a
value of every wrong type in every field of every op; mixed with legal play, so that the games
being attacked are in every phase. Every answer must encode as one line of UTF-8 JSON, carry a
documented code, and leave the game it names exactly as it was when it is a refusal. The games
that accepted actions replay exactly from their records. Seeded: a failure reproduces.
"""

from __future__ import annotations

import io
import json
import random
import re
import time
from pathlib import Path
from typing import Any

from interpreter import Game, load_ruleset, ruleset_names
from interpreter.bots.randombot import RandomBot, expand
from interpreter.engine.records import dump_record, replay_document
from interpreter.frontends.server import ERROR_CODES, MAX_DEPTH, MAX_MESSAGE, Session, encode, serve
from interpreter.language.source import load_yaml

RULESETS = ruleset_names()
FIRST = "breitnau" if "breitnau" in RULESETS else RULESETS[0]
PROTOCOL = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text(encoding="utf-8")


def request_fields(op: str) -> list[str]:
    """The fields docs/protocol.md lists in the request table of `op`."""
    section = re.split(r"\n##", PROTOCOL.split(f"### {op}\n", 1)[1], maxsplit=1)[0]
    table = re.search(r"^\| request \| \|\n\| --- \| --- \|\n((?:\|.*\n)*)", section, re.M)
    assert table, f"protocol.md: {op} has no request table"
    return re.findall(r"^\| `(\w+)`", table.group(1), re.M)


OPS = list(Session().ops)
OP_FIELDS = {op: ["id", "x", *request_fields(op)] for op in OPS}  # "x": unknown fields are ignored
FIELDS = sorted({field for fields in OP_FIELDS.values() for field in fields})
SLOW = 5.0  # seconds any one request may take on a loaded machine: beyond it is a hang

SURROGATES = ["\ud800", "\udfff", "a\udc80b", "\ud83d"]  # lone halves: valid JSON, not UTF-8


def nested(depth: int) -> Any:
    """A list in a list … `depth` deep."""
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


NESTED = nested(MAX_DEPTH + 1)  # deeper than a request may be

# A value of every kind JSON has, each at an edge: what every field is fed.
JUNK: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    7,
    2**31,
    -(2**63),
    2**64,
    10**30,
    int("9" * 4300),  # the most digits a line may hold
    0.5,
    -1e308,
    1e-300,
    "",
    "pass",
    "all",
    "g1",
    "T22",
    "\x00",
    "🂡",
    "../../etc/passwd",
    "a" * 5000,
    "[" * 30_000,  # YAML scanners take time quadratic in this depth
    "- " * 30_000 + "x",
    "a: &a [x, x]\nb: [*a, *a]\n",  # an alias: a billion laughs starts so
    *SURROGATES,
    [],
    [None],
    ["T22", "T22"],
    {},
    {"play": "T22"},
    {"discard": {"count": 12}},
    {"\ud800": "\udfff"},
    NESTED,
]


def check(response: Any, request: Any) -> dict[str, Any]:
    """The promises every answer keeps."""
    assert isinstance(response, dict) and isinstance(response.get("ok"), bool), (request, response)
    line = encode(response)
    line.encode("utf-8")  # writable, whatever the request held
    assert "\n" not in line and json.loads(line)["ok"] is response["ok"]
    if not response["ok"]:
        code = response["error"]["code"]
        assert code in ERROR_CODES and code != "internal_error", (request, response)
        assert 0 < len(response["error"]["message"]) <= MAX_MESSAGE + 1
    return response


def fingerprint(game: Game) -> str:
    """Everything about a game that an accepted action changes."""
    return json.dumps([game.history, game.view("all"), len(game.events)], default=str)


class Attack:
    """A session with a few valid games, and the ledger of the actions each accepted."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.session = Session(max_games=60, allow_files=False)
        self.valid: dict[str, list[Any]] = {}  # game id -> the actions it accepted, as sent
        self.bots: dict[str, RandomBot] = {}
        self.codes: dict[str, int] = {}
        self.requests = 0
        for seed, name in enumerate(RULESETS[:3] + [FIRST, FIRST]):
            self.open(name, seed)

    def open(self, name: str, seed: int) -> str:
        size = self.rng.choice(load_ruleset(name).table_sizes)
        response = self.session.handle({"op": "new", "ruleset": name, "players": size, "seed": seed})
        gid = check(response, name)["game"]
        self.valid[gid] = []
        self.bots[gid] = RandomBot(seed)
        return str(gid)

    def send(self, request: Any) -> dict[str, Any]:
        gid = request.get("game") if isinstance(request, dict) else None
        game = self.session.games[gid].game if isinstance(gid, str) and gid in self.valid else None
        before = fingerprint(game) if game is not None else None
        start = time.perf_counter()
        response = check(self.session.handle(request), request)
        assert time.perf_counter() - start < SLOW, ("hangs", request)
        self.count(response)
        if game is not None and not response["ok"]:
            assert fingerprint(game) == before, ("a refusal changed the game", request, response)
        elif game is not None and request.get("op") == "act":  # a hostile request that happened to be legal
            self.valid[str(gid)].append([request["seat"], request["action"]])
        elif game is not None and request.get("op") == "bot" and "events" in response:
            self.valid[str(gid)].append([response["seat"], response["action"]])
        return response

    def send_line(self, line: str | bytes) -> dict[str, Any]:
        start = time.perf_counter()
        response = check(self.session.handle_line(line), line)
        assert time.perf_counter() - start < SLOW, ("hangs", line[:100])
        self.count(response)
        return response

    def count(self, response: dict[str, Any]) -> None:
        self.requests += 1
        if not response["ok"]:
            code = response["error"]["code"]
            self.codes[code] = self.codes.get(code, 0) + 1

    def some_game(self) -> str:
        active = [g for g in self.valid if not self.session.games[g].game.is_over]
        if not active:  # a fresh deal once all are over
            active = [self.open(self.rng.choice(RULESETS), len(self.valid))]
        return self.rng.choice(active if self.rng.random() < 0.9 else list(self.valid))

    def junk(self, depth: int = 0) -> Any:
        if depth < 3 and self.rng.random() < 0.25:
            if self.rng.random() < 0.5:
                return [self.junk(depth + 1) for _ in range(self.rng.randrange(4))]
            keys = [*FIELDS, "op", "play", "discard", "keep", "hands", "talon", *SURROGATES]
            return {self.rng.choice(keys): self.junk(depth + 1) for _ in range(self.rng.randrange(4))}
        return self.rng.choice(JUNK)


def test_every_field_of_every_op_refuses_every_wrong_value() -> None:
    """Each op, with each of its fields holding each kind of junk (the others valid)."""
    attack = Attack(random.Random(1))
    gid = next(iter(attack.valid))
    game = attack.session.games[gid].game
    valid = {
        "game": gid,
        "seat": game.to_act,
        "action": "pass",
        "ruleset": FIRST,
        "record": game.record(),
        "kind": "random",
        "apply": False,
        "since": 0,
    }
    for op in OPS:
        for field in OP_FIELDS[op]:
            for value in JUNK:
                request = {**valid, "op": op, field: value}
                if op == "close" and isinstance(request["game"], str) and request["game"] in attack.valid:
                    request["game"] = "g999999"  # keep the valid games open
                response = attack.send(request)
                if field == "id":
                    assert response["id"] == (value if value is not NESTED else None), request
                if op in ("new", "load") and response["ok"]:  # a game opened: keep room for more
                    attack.session.handle({"op": "close", "game": response["game"]})
    assert attack.requests == sum(map(len, OP_FIELDS.values())) * len(JUNK)
    assert OP_FIELDS["act"] == ["id", "x", "game", "seat", "action"], "the fields come from protocol.md"
    for code in ("bad_request", "unknown_game", "invalid_action", "unknown_ruleset", "bad_seat", "bad_record"):
        assert attack.codes.get(code, 0) > 5, (code, attack.codes)


def test_hostile_lines_are_answered_and_the_id_echoed_as_it_came() -> None:
    attack = Attack(random.Random(2))
    for surrogate in SURROGATES:
        for field in ("id", "op", "ruleset", "game", "action", "kind"):
            request = {"id": 1, "op": "new" if field == "ruleset" else "act", "game": "g1", "seat": 0, field: surrogate}
            line = json.dumps(request)  # ASCII: the surrogate travels as \ud800
            response = attack.send_line(line)
            assert response["id"] == request["id"]
            assert json.loads(encode(response))["id"] == request["id"]
    for number in ["1e400", "-1e400", "1E999", "NaN", "Infinity", "-Infinity", "9" * 4301, "-" + "9" * 4301]:
        for line in [f'{{"id": {number}, "op": "games"}}', f'{{"id": 1, "op": "new", "seed": {number}}}']:
            response = attack.send_line(line)
            assert response["id"] is None and response["error"]["code"] == "bad_json", line
            assert response["error"]["message"].startswith("not a JSON line: ")
    assert attack.send_line('{"id": 1e-400, "op": "games"}')["id"] == 0.0  # tiny is only zero
    deep = {"id": 5, "op": "view", "game": "g1", "seat": nested(MAX_DEPTH)}
    response = attack.send(deep)
    assert response["id"] == 5 and response["error"]["code"] == "bad_request"
    assert f"more than {MAX_DEPTH} deep" in response["error"]["message"]
    assert attack.send({"id": nested(MAX_DEPTH), "op": "games"})["id"] is None  # the id itself is too deep
    assert attack.send({"id": nested(MAX_DEPTH - 2), "op": "games"})["ok"]
    for depth in (10_000, 200_000):
        response = attack.send_line("[" * depth + "]" * depth)
        assert response["error"]["code"] in ("bad_json", "bad_request")
    assert attack.send_line(b'{"id": 1, "op": "\xed\xa0\x80"}')["error"]["code"] == "bad_json"  # a surrogate in bytes


def test_the_loop_answers_every_line_whatever_it_holds() -> None:
    """The stdin/stdout loop as the process runs it: strict UTF-8 out, one answer per line, the
    session going on after each."""
    lines = [
        b'{"id": "\\ud800", "op": "\\udfff"}',
        b'{"id": 1e400, "op": "games"}',
        b'{"id": [' + b"[" * 100 + b"]" * 100 + b'], "op": "games"}',
        b"\xff\xfe\xed\xa0\x80",
        b'{"id": 2, "op": "new", "ruleset": "\\ud800"}',
        b'{"id": 3, "op": "view", "game": "g1", "seat": "' + b"a" * 5000 + b'"}',  # too long
        b"[" * 50_000,
        b'{"id": 4, "op": "games"}',
    ]
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", errors="strict", newline="\n")
    serve(Session(), io.BytesIO(b"\n".join(lines) + b"\n"), out, max_line=4096)
    out.flush()
    answers = [json.loads(line) for line in raw.getvalue().decode("utf-8").splitlines()]
    assert len(answers) == len(lines)
    assert answers[0]["id"] == "\ud800" and answers[0]["error"]["code"] == "unknown_op"
    codes = [a["error"]["code"] if not a["ok"] else "ok" for a in answers]
    assert codes == [
        "unknown_op",
        "bad_json",
        "bad_request",
        "bad_json",
        "unknown_ruleset",
        "too_large",
        "too_large",
        "ok",
    ]
    assert answers[-1]["id"] == 4


def test_any_fault_in_an_op_is_an_answer_and_the_session_goes_on(monkeypatch: Any, capsys: Any) -> None:
    """The loop is one boundary: an op that raises anything answers internal_error, with the
    request's id, the traceback on stderr and nothing but JSON lines on stdout."""
    session = Session()

    def broken(req: dict[str, Any]) -> dict[str, Any]:
        raise ZeroDivisionError("a bug")

    session.ops["games"] = broken
    session.ops["rulesets"] = lambda req: {"value": float("nan")}  # a response JSON cannot hold
    out = io.StringIO()
    requests = [{"id": 7, "op": "games"}, {"id": "\ud800", "op": "rulesets"}, {"id": 9, "op": "close", "game": "g1"}]
    serve(session, io.BytesIO("".join(json.dumps(r) + "\n" for r in requests).encode()), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [7, "\ud800", 9]
    assert [a["error"]["code"] for a in answers] == ["internal_error", "internal_error", "unknown_game"]
    assert "ZeroDivisionError: a bug" in answers[0]["error"]["message"]
    assert "Traceback" in capsys.readouterr().err


def test_fuzz_never_kills_the_server_nor_changes_a_game_it_refused() -> None:
    rng = random.Random(20240601)
    attack = Attack(rng)
    sample = json.dumps({"id": 1, "op": "act", "game": "g1", "seat": 1, "action": {"play": "T22"}})
    for _ in range(3000):
        roll = rng.random()
        gid = attack.some_game()
        game = attack.session.games[gid].game
        if roll < 0.25 and not game.is_over:  # legal play keeps the games moving
            seat = game.to_act
            assert seat is not None
            action = expand(rng.choice(game.legal_actions(seat)), attack.bots[gid].rng)
            assert attack.send({"op": "act", "game": gid, "seat": seat, "action": action})["ok"]
        elif roll < 0.45:  # out of turn, or illegal, on a valid game
            seat = rng.randrange(game.players)
            action = rng.choice(
                [
                    {"play": rng.choice(game.ruleset.deck.cards)},
                    "pass",
                    rng.choice(["solo", "dappen", "selber", "cego"]),
                    {"discard": rng.sample(list(game.ruleset.deck.cards), rng.randrange(0, 14))},
                    {"keep": rng.sample(list(game.ruleset.deck.cards), rng.randrange(0, 3))},
                    {"announce": rng.choice(["ulti", "x", 5])},
                ]
            )
            if seat == game.to_act and action in game.legal_actions(seat):
                continue
            attack.send({"op": "act", "game": gid, "seat": seat, "action": action})
        elif roll < 0.6:
            attack.send_line(hostile_line(rng, sample))
        else:
            request: dict[str, Any] = {"op": rng.choice([*OPS, "nope", ""]), "id": attack.junk()}
            for field in rng.sample([f for f in FIELDS if f != "id"], rng.randrange(1, 6)):
                request[field] = gid if field == "game" and rng.random() < 0.7 else attack.junk()
            if request["op"] == "close" and isinstance(request.get("game"), str) and request["game"] in attack.valid:
                request["game"] = "g999999"  # keep the valid games open
            attack.send(request)
    assert attack.requests >= 2500
    for code in ("bad_json", "bad_request", "unknown_game", "invalid_action", "not_your_turn", "illegal_action"):
        assert attack.codes.get(code, 0) > 10, (code, attack.codes)

    # Every valid game holds exactly the actions it accepted, and its record replays exactly.
    session = attack.session
    for gid, accepted in attack.valid.items():
        while session.games[gid].game.to_act is not None:
            check(session.handle({"op": "bot", "game": gid, "kind": "random", "apply": True}), gid)
        game = session.games[gid].game
        record = check(session.handle({"op": "record", "game": gid}), gid)["record"]
        if "plan" in record["deal"] and accepted:
            # The dealer's choice of a plan (deal.choice), the only action before the cards are
            # dealt, is written with the cards it dealt, not among the actions of the replay.
            assert accepted[0] == [game.dealer, {"choose": record["deal"]["plan"]}]
            accepted = accepted[1:]
        assert json.loads(json.dumps(record["actions"][: len(accepted)])) == json.loads(json.dumps(accepted))
        doc = load_yaml(dump_record(record), f"{gid}.yaml")
        again = Game(
            load_ruleset(record["ruleset"], record.get("options")),
            players=record["players"],
            dealer=record["dealer"],
            deal=record["deal"],
        )
        report = replay_document(doc, again)
        assert report.ok, report.failures
        assert again.result == game.result and _after_deal(again.events) == _after_deal(game.events)


def _after_deal(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events after the deal's own (the dealer's choice of a plan, where there is one, comes before it)."""
    dealt = next(i for i, event in enumerate(events) if event["type"] == "deal")
    return events[dealt + 1 :]


def hostile_line(rng: random.Random, valid: str) -> str | bytes:
    kind = rng.randrange(11)
    if kind == 0:
        return valid[: rng.randrange(len(valid))]  # cut off
    if kind == 1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
    if kind == 2:
        depth = rng.choice([10, MAX_DEPTH + 1, 1000, 50_000])
        return "[" * depth + "]" * depth
    if kind == 3:
        return "9" * rng.choice([10, 4300, 4301, 5000])
    if kind == 4:
        return rng.choice(
            ["null", "[]", '"op"', "true", "{}", '{"op": null}', "NaN", "-Infinity", '{"op": "new", "seed": 1e999}']
        )
    if kind == 5:
        return valid.replace('"', "'")
    if kind == 6:
        return '{"op": "new", "ruleset": "' + FIRST + '", "players": ' + "9" * rng.choice([400, 4301]) + "}"
    if kind == 7:
        return '{"op": "view", "game": "g1", "seat": ' + "[" * 70 + "]" * 70 + "}"
    if kind == 8:
        return (
            '{"op": "act", "game": "g1", "seat": 1, "action": "' + rng.choice(["\\ud800", "\\udfff", "\\u0000"]) + '"}'
        )
    if kind == 9:
        return '{"id": "\\ud800", "op": "' + rng.choice(OPS + ["\\udc00"]) + '", "game": "\\ud800"}'
    return json.dumps({"op": rng.choice(OPS), "x": rng.choice(JUNK)})
