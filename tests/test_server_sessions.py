"""Sessions of deals over the JSON-lines protocol (docs/protocol.md, `session` and `next_deal`):
what a client is told of the session is checked against what it saw of each deal (the
settlements), and the Tapp pot against its rules applied to those settlements
(tests/sessions_by_hand.py, which does not import the engine)."""

from __future__ import annotations

from typing import Any

import sessions_by_hand

from interpreter.frontends.server import Session as Server


def _finish(server: Server, game: str) -> dict[str, Any]:
    """Play the deal under way to its end with the rule bot; the last response."""
    while True:
        answer = server.handle({"op": "bot", "game": game, "kind": "random", "apply": True})
        assert answer["ok"], answer
        if answer.get("result") is not None:
            return answer


def test_a_session_of_deals_with_the_tapp_pot_told_deal_by_deal() -> None:
    server = Server()
    new = server.handle(
        {"op": "new", "ruleset": "tapp-wuerttemberg", "options": {"pot": "kept"}, "session": True, "seed": 9}
    )
    assert new["ok"] and new["session"]["deal"] == 1 and new["session"]["pots"] == {"stock": 2}
    game = new["game"]
    scores, stock, taken = [0, 0, 0], 0, [0, 0, 0]
    dealer = 0
    for number in range(1, 7):
        last = _finish(server, game)
        result = last["result"]
        scores = [a + b for a, b in zip(scores, result["payments"], strict=True)]
        stock = sessions_by_hand.tapp_pot_deal(stock, taken, dealer, result)
        (told,) = last["session_events"]
        assert told == {
            "type": "session_score",
            "deal": number,
            "scores": scores,
            "sheet": None,
            "totals": [s + t for s, t in zip(scores, taken, strict=True)],
            "pot": None,
            "pots": {"stock": stock},
            "over": False,
        }
        assert last["session"]["totals"] == told["totals"]
        nxt = server.handle({"op": "next_deal", "game": game})
        dealer = (dealer + 1) % 3
        assert nxt["ok"] and nxt["game"] == game and nxt["dealer"] == dealer and nxt["phase"] == "auction"
        assert nxt["session_events"] == [{"type": "session_deal", "deal": number + 1, "dealer": dealer, "round": None}]
    state = server.handle({"op": "session", "game": game})
    assert state["session"]["dealers"] == [0, 1, 2, 0, 1, 2, 0] and state["session"]["rounds"] == 2
    assert state["events"][0] == {"type": "session_start", "players": 3, "dealer": 0, "pots": {"stock": 0}}
    assert server.handle({"op": "session", "game": game, "since": state["next"]})["events"] == []
    # The deal under way is not over: no next deal yet.
    refused = server.handle({"op": "next_deal", "game": game})
    assert refused["error"]["code"] == "illegal_action" and "not over" in refused["error"]["message"]


def test_a_request_to_end_then_the_closing_round_then_the_end() -> None:
    """Dreierles: a player asks to stop after the first deal; the round under way ends with deal
    3, the closing round (Räuber or Solo) adds three, and the session is over."""
    server = Server()
    game = server.handle({"op": "new", "ruleset": "dreierles", "session": True, "seed": 4})["game"]
    _finish(server, game)
    asked = server.handle({"op": "next_deal", "game": game, "request_end": 2})
    assert asked["session_events"][0] == {"type": "session_end_requested", "seat": 2}
    rounds = []
    while True:
        last = _finish(server, game)
        if last["session"]["over"]:
            break
        nxt = server.handle({"op": "next_deal", "game": game})
        rounds.append(nxt["session"]["round"])
    assert rounds == [None, "last_round", "last_round", "last_round"]
    kinds = [e["type"] for e in last["session_events"]]
    assert kinds == ["session_score", "session_round_over", "session_end"]
    assert last["session_events"][-1]["deals"] == 6
    over = server.handle({"op": "next_deal", "game": game})
    assert over["error"]["code"] == "session_over"


def test_a_seat_reads_the_session_but_only_the_umpire_deals_on() -> None:
    server = Server()
    new = server.handle({"op": "new", "ruleset": "tapp-wuerttemberg", "session": True, "seed": 2, "tokens": True})
    game, seat_token, umpire = new["game"], new["tokens"][1], new["umpire"]
    assert server.handle({"op": "session", "game": game, "token": seat_token})["session"]["deal"] == 1
    while True:
        answer = server.handle({"op": "bot", "game": game, "apply": True, "token": umpire})
        if answer.get("result") is not None:
            break
    refused = server.handle({"op": "next_deal", "game": game, "token": seat_token})
    assert refused["error"]["code"] == "forbidden"
    assert server.handle({"op": "next_deal", "game": game, "token": umpire})["ok"]


def test_session_requests_refused_with_their_reason() -> None:
    server = Server()
    single = server.handle({"op": "new", "ruleset": "tapp-wuerttemberg"})["game"]
    answer = server.handle({"op": "session", "game": single})
    assert answer["error"]["code"] == "bad_request" and '"session": true' in answer["error"]["message"]
    answer = server.handle({"op": "new", "ruleset": "tapp-wuerttemberg", "pots": {"stock": 1}})
    assert answer["error"]["code"] == "bad_request"
    answer = server.handle(
        {"op": "new", "ruleset": "tapp-wuerttemberg", "options": {"pot": "kept"}, "session": True, "pots": {"stok": 1}}
    )
    assert answer["error"]["code"] == "bad_request" and "no pot named 'stok'" in answer["error"]["message"]
    game = server.handle({"op": "new", "ruleset": "cego", "players": 4, "session": True, "seed": 1})["game"]
    _finish(server, game)
    answer = server.handle({"op": "next_deal", "game": game, "signal": "pflicht"})
    assert answer["error"]["code"] == "illegal_action" and "pflicht_raeuber" in answer["error"]["message"]
    assert server.handle({"op": "session", "game": game})["events"][-1]["type"] == "session_score"  # unchanged
    answer = server.handle({"op": "next_deal", "game": game, "signal": "pflicht_raeuber"})
    assert answer["session_events"][0] == {"type": "session_signal", "round": "pflicht_raeuber"}
    assert answer["session"]["round"] == "pflicht_raeuber"
