"""Print the sample session of docs/protocol.md: a whole deal played through `tarock serve`.

    python docs/sample_session.py > /tmp/session.txt

Lines starting with `> ` are request lines as sent, `< ` the server's responses. The session
drives a `Session` exactly as the stdin/stdout loop does (one line in, one line out); every
action is taken from the `legal` answer (the first legal card in play) or from the rule-based
bot, so the transcript needs nothing but the protocol. tests/test_server.py replays it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.frontends.server import Session, encode

SEED = 1


def main() -> None:
    session = Session()
    counter = iter(range(1, 10**6))

    def send(request: dict | str) -> dict:
        line = (
            request
            if isinstance(request, str)
            else json.dumps({"id": next(counter), **request}, ensure_ascii=False, separators=(", ", ": "))
        )
        response = session.handle_line(line)
        print(f"> {line}")
        print(f"< {encode(response)}")
        return response

    game = send({"op": "new", "ruleset": "breitnau", "players": 6, "seed": SEED})["game"]
    send({"op": "view", "game": game, "seat": 1})
    send({"op": "legal", "game": game})
    send({"op": "act", "game": game, "seat": 3, "action": "pass"})  # not_your_turn
    send({"op": "act", "game": game, "seat": 1, "action": "dappen"})  # illegal_action
    send({"op": "act", "game": game, "seat": 1, "action": {"play": "T99"}})  # invalid_action
    state = send({"op": "legal", "game": game})
    while True:
        seat = state["seat"]
        choice = send({"op": "bot", "game": game, "seat": seat, "kind": "rules"})["action"]
        state = send({"op": "act", "game": game, "seat": seat, "action": choice})
        if state["phase"] != "auction":
            break
        state = {"seat": state["to_act"]}
    declarer = state["to_act"]
    send({"op": "view", "game": game, "seat": declarer})
    template = send({"op": "legal", "game": game})["actions"][0]["discard"]
    discard = send({"op": "bot", "game": game, "kind": "rules"})["action"]
    send({"op": "act", "game": game, "seat": declarer, "action": {"discard": template["from"][:1] * template["count"]}})
    state = send({"op": "act", "game": game, "seat": declarer, "action": discard})
    send({"op": "view", "game": game, "seat": (declarer + 1) % 6})
    while state["phase"] != "over":
        legal = send({"op": "legal", "game": game})
        if len(legal["actions"]) > 1 and legal["seat"] % 2:
            state = send({"op": "bot", "game": game, "kind": "rules", "apply": True})
        else:
            state = send({"op": "act", "game": game, "seat": legal["seat"], "action": legal["actions"][0]})
    send({"op": "act", "game": game, "seat": 1, "action": "pass"})  # game_over
    send({"op": "view", "game": game, "seat": 2})
    record = send({"op": "record", "game": game})["record"]
    copy = send({"op": "load", "record": record})["game"]
    send({"op": "events", "game": copy, "since": 60})
    send({"op": "games"})
    send({"op": "close", "game": copy})
    send({"op": "view", "game": copy, "seat": 0})  # unknown_game
    send('{"id": 99, "op": "view", "game": ')  # bad_json
    send({"op": "shuffle"})  # unknown_op
    send({"op": "new", "ruleset": "breitnau", "players": 5})  # bad_request
    send({"op": "new", "ruleset": "breitnow"})  # unknown_ruleset


if __name__ == "__main__":
    main()
