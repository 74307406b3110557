"""Which finished tricks a seat may look at (`play.tricks_seen`, issue 30 item 9): all of them,
only the last, or the last and its own. Tested from the receiving side: what a seat's client gets
from the protocol (its view and the events it asks for again) and what the web table sends to a
seat's browser (its state: the view and the log).

tests/rulesets/koenigrufen-last-trick-only.yaml is Königrufen with `tricks_seen: last`; its record
(tests/records/koenigrufen-last-trick-only-dreier.yaml) is the deal of koenigrufen-dreier.yaml,
whose tricks by hand are: 1 T22 T2 T5 T3 to seat 1; 2 S8 S9 SK SN to seat 3; 3 CK C10 CQ T1 to
seat 2; 4 HK H3 HJ H2 to seat 2. The same requests at Königrufen as shipped (`all`, the default)
show every trick: the word is obeyed, not ignored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from interpreter import Game, load_ruleset, ruleset_names
from interpreter.bots.rulebot import RuleBot
from interpreter.bots.searchbot import SearchBot
from interpreter.engine.encoding import EncodedGame
from interpreter.frontends.server import Session
from interpreter.frontends.web.table import Table
from interpreter.language.loader import check_ruleset

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "rulesets" / "koenigrufen-last-trick-only.yaml"
RECORD = HERE / "records" / "koenigrufen-last-trick-only-dreier.yaml"
TRICKS = [["T22", "T2", "T5", "T3"], ["S8", "S9", "SK", "SN"], ["CK", "C10", "CQ", "T1"], ["HK", "H3", "HJ", "H2"]]
WINNERS = [1, 3, 2, 2]
# The record's actions up to the first two cards of trick 4 (HK, H3): tricks 1-3 are finished.
IN_TRICK_4 = 11 + 12 + 2


def _record() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(RECORD.read_text(encoding="utf-8"))
    return data


def _ok(response: dict[str, Any]) -> dict[str, Any]:
    assert response["ok"] is True, response
    return response


def _protocol_game(ruleset: str, upto: int) -> tuple[Session, str, list[str], str]:
    """A game of the record's deal opened with seat tokens, played by the seats' own tokens up to
    action `upto`."""
    data = _record()
    session = Session(allow_files=True)
    new = _ok(session.handle({"op": "new", "ruleset": ruleset, "players": 4, "deal": data["deal"], "tokens": True}))
    gid, tokens = new["game"], new["tokens"]
    for seat, action in data["actions"][:upto]:
        _ok(session.handle({"op": "act", "game": gid, "token": tokens[seat], "action": action}))
    return session, gid, tokens, new["umpire"]


def _played(events: list[dict[str, Any]]) -> list[str | None]:
    return [e.get("card") for e in events if e["type"] == "play"]


def test_a_seat_sees_only_the_last_trick_taken_and_the_trick_under_way() -> None:
    session, gid, tokens, umpire = _protocol_game(str(FIXTURE), IN_TRICK_4)
    for seat, token in enumerate(tokens):
        view = _ok(session.handle({"op": "view", "game": gid, "token": token}))["view"]
        tricks = view["tricks"]
        assert [t["cards"] for t in tricks] == [None, None, TRICKS[2], ["HK", "H3"]], seat
        assert [t["winner"] for t in tricks] == [*WINNERS[:3], None]  # who took them: the piles show it
        events = _ok(session.handle({"op": "events", "game": gid, "token": token}))["events"]
        assert _played(events) == [None] * 8 + TRICKS[2] + ["HK", "H3"], seat
        shown = [e.get("cards") for e in events if e["type"] == "trick"]
        assert shown == [None, None, TRICKS[2]], seat
        assert all(e["redacted"] == ["card"] for e in events if e["type"] == "play" and e.get("card") is None)
        # Nothing the seat receives names a card of tricks 1 and 2, but the talon turned up for
        # all (T22 lay in the half the declarer took) and the seat's own hand.
        text = json.dumps([view["tricks"], [e for e in events if e["type"] in ("play", "trick")]])
        assert not any(f'"{card}"' in text for card in TRICKS[0] + TRICKS[1]), seat
    # The umpire looks at every trick.
    everything = _ok(session.handle({"op": "events", "game": gid, "token": umpire}))["events"]
    assert _played(everything) == TRICKS[0] + TRICKS[1] + TRICKS[2] + ["HK", "H3"]
    umpires = _ok(session.handle({"op": "view", "game": gid, "token": umpire, "seat": "all"}))["view"]
    assert [t["cards"] for t in umpires["tricks"]] == [*TRICKS[:3], ["HK", "H3"]]


def test_without_the_word_every_trick_is_seen_as_today() -> None:
    session, gid, tokens, _ = _protocol_game("koenigrufen", IN_TRICK_4)
    view = _ok(session.handle({"op": "view", "game": gid, "token": tokens[0]}))["view"]
    assert [t["cards"] for t in view["tricks"]] == [*TRICKS[:3], ["HK", "H3"]]
    events = _ok(session.handle({"op": "events", "game": gid, "token": tokens[0]}))["events"]
    assert _played(events) == TRICKS[0] + TRICKS[1] + TRICKS[2] + ["HK", "H3"]


def test_the_last_trick_stays_in_sight_until_the_next_is_taken() -> None:
    session, gid, tokens, _ = _protocol_game(str(FIXTURE), IN_TRICK_4 + 2)  # trick 4 taken by seat 2
    view = _ok(session.handle({"op": "view", "game": gid, "token": tokens[3]}))["view"]
    assert [t["cards"] for t in view["tricks"]] == [None, None, None, TRICKS[3], []]
    events = _ok(session.handle({"op": "events", "game": gid, "token": tokens[3], "since": 0}))["events"]
    assert [e.get("cards") for e in events if e["type"] == "trick"] == [None, None, None, TRICKS[3]]


def test_once_the_deal_is_over_every_trick_is_turned_over() -> None:
    session, gid, tokens, _ = _protocol_game(str(FIXTURE), len(_record()["actions"]))
    view = _ok(session.handle({"op": "view", "game": gid, "token": tokens[0]}))["view"]
    assert view["result"]["payments"] == [4, -12, 4, 4]
    assert [t["cards"] for t in view["tricks"][:4]] == TRICKS
    assert None not in _played(_ok(session.handle({"op": "events", "game": gid, "token": tokens[0]}))["events"])


def test_own_lets_a_seat_look_at_the_tricks_it_took(tmp_path: Path) -> None:
    own = tmp_path / "own.yaml"
    own.write_text(f"title: Own tricks\nextends: {FIXTURE}\nplay: {{tricks_seen: own}}\n", encoding="utf-8")
    session, gid, tokens, _ = _protocol_game(str(own), IN_TRICK_4)
    seen = {}
    for seat, token in enumerate(tokens):
        view = _ok(session.handle({"op": "view", "game": gid, "token": token}))["view"]
        seen[seat] = [t["cards"] is not None for t in view["tricks"][:3]]
    # Trick 1 is seat 1's, trick 2 seat 3's; trick 3 (seat 2's) is the last taken: everybody's.
    assert seen == {0: [False, False, True], 1: [True, False, True], 2: [False, False, True], 3: [False, True, True]}


def test_the_web_table_sends_a_seat_only_the_tricks_it_may_look_at() -> None:
    data = _record()
    table = Table(load_ruleset(str(FIXTURE)), 4, [0, 1, 2, 3], 1, seed=1)
    game = table.game = Game(table.ruleset, players=4, dealer=0, deal=data["deal"])
    for seat, action in data["actions"][:IN_TRICK_4]:
        game.apply(seat, action)
    for seat in (0, 1, 2, 3, None):  # the four seats' browsers and a spectator's
        state = table.state_for(seat)
        assert [t["cards"] for t in state["view"]["tricks"]] == [None, None, TRICKS[2], ["HK", "H3"]]
        lines = [line for line in state["log"] if line.lstrip().startswith("Trick")]
        assert lines[0] == "  Trick  1: turned face down  → seat 1" and "face down" in lines[1], lines
        assert "CK" in lines[2] and "face down" not in lines[2], lines
        assert not any(card in " ".join(lines) for card in ("T5", "S9", "SK")), lines
        # The tally counts the tricks taken but not the points of tricks turned face down.
        assert not any("point" in line for line in state["tally"]), state["tally"]


def test_the_bots_remember_every_card_they_saw_played() -> None:
    """A bot may remember what it saw fall (the word forbids looking again, not memory): it
    plays deals of the test table to their end as it plays them at Königrufen."""
    ruleset = load_ruleset(str(FIXTURE))
    shipped = load_ruleset("koenigrufen")
    for seed in range(4):
        games = [Game(ruleset, players=4, seed=seed), Game(shipped, players=4, seed=seed)]
        for game in games:
            bot = RuleBot()
            while not game.is_over:
                seat = game.to_act
                assert seat is not None
                game.apply(seat, bot.choose(game, seat))
        assert games[0].record()["actions"] == games[1].record()["actions"]
    searched = [Game(ruleset, players=4, seed=9), Game(shipped, players=4, seed=9)]
    for game in searched:
        bots = {seat: SearchBot(worlds=2, seed=seat) for seat in range(4)}
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            game.apply(seat, bots[seat].choose(game, seat))
    assert searched[0].record()["actions"] == searched[1].record()["actions"]


def test_every_shipped_ruleset_keeps_every_trick_in_sight() -> None:
    """The default, `all`, is what the views showed before the word."""
    for name in ruleset_names():
        assert load_ruleset(name).play.tricks_seen == "all", name


def test_a_wrong_value_is_refused_at_its_place(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        f'title: Bad\nextends: {FIXTURE}\nsource: "pagat-koenig: x"\nplay:\n  tricks_seen: lats\n', encoding="utf-8"
    )
    problems = [str(p) for p in check_ruleset(str(bad))]
    assert any(
        "bad.yaml:5:16: play.tricks_seen: 'lats' is not one of: all, last, own; did you mean 'last'?" in p
        for p in problems
    ), problems


def test_the_learners_observation_remembers_every_card_played() -> None:
    """The learning interface's observation is a player's with perfect recall: at every step of
    the record's deal, read afresh from the seat's view, it is the same on the test table as at
    Königrufen as shipped."""
    data = _record()
    games = [Game(load_ruleset(ref), players=4, dealer=0, deal=data["deal"]) for ref in (str(FIXTURE), "koenigrufen")]
    for seat, action in data["actions"]:
        fresh = [EncodedGame(game) for game in games]
        assert fresh[0].observation(seat) == fresh[1].observation(seat)
        for game in games:
            game.apply(seat, action)


def test_the_learners_buffer_remembers_every_card_played() -> None:
    """`observe_into`, the learner's loop without a new list at each step, reads the seat's view
    with recall too: at every step, kept up to date from the start of the deal and read afresh,
    the numbers on the test table are those at Königrufen as shipped."""
    data = _record()
    games = [Game(load_ruleset(ref), players=4, dealer=0, deal=data["deal"]) for ref in (str(FIXTURE), "koenigrufen")]
    learners = [EncodedGame(game) for game in games]
    size = learners[0].encoding.observation_size
    for seat, action in data["actions"]:
        for following in (learners, [EncodedGame(game) for game in games]):
            buffers = [[0.0] * size, [0.0] * size]
            for learner, buffer in zip(following, buffers, strict=True):
                learner.observe_into(seat, buffer)
            assert buffers[0] == buffers[1]
        for game in games:
            game.apply(seat, action)
