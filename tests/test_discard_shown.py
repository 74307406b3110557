"""Discarded cards laid face up (`discard.shown`, issue 30 item 8): Königrufen's trumps discarded
for want of other cards are shown, and only they; Farbendreier's suit cards likewise. Checked from
the receiving side: what each seat's events say of the discard."""

from __future__ import annotations

from pathlib import Path

from interpreter import Game, load_ruleset
from interpreter.engine.records import game_from_record, read_record, replay
from interpreter.frontends.log import describe_event
from interpreter.frontends.server import public_event

RECORD = Path(__file__).parent / "records" / "koenigrufen-rufer-trump-discarded-face-up.yaml"


def discarded() -> Game:
    doc = read_record(RECORD)
    game = game_from_record(doc, RECORD.parent)
    for seat, action in doc.data["actions"]:
        game.apply(seat, action)
    return game


def test_the_record_replays() -> None:
    result = replay(RECORD)
    assert result.ok, result.problems


def test_every_seat_sees_the_trump_and_only_the_trump() -> None:
    game = discarded()
    event = next(e for e in game.events if e["type"] == "discard")
    assert event == {"type": "discard", "seat": 1, "count": 3, "shown": ["T2"]}
    for seat in range(4):
        seen = public_event(event, game)
        assert seen["shown"] == ["T2"] and "H4" not in str(seen) and "D4" not in str(seen), seat
    line = describe_event(public_event(event, game), game) or ""
    assert "face up: T2, the rest face down" in line


def test_a_discard_without_trumps_shows_nothing() -> None:
    found = 0
    for seed in range(40):
        game = Game(load_ruleset("koenigrufen"), players=4, dealer=0, seed=seed)
        for seat, call in ((1, "mein_spiel"), (2, "pass"), (3, "pass"), (0, "pass"), (1, "rufer")):
            game.apply(seat, call)
        game.apply(1, game.legal_actions(1)[0])  # a King to call
        game.apply(1, {"choose": "first"})
        hand = list(game.hands[1])
        others = [c for c in hand if not c.startswith("T") and not c.endswith("K")]
        if len(others) < 3:
            continue
        game.apply(1, {"discard": others[:3]})
        event = next(e for e in game.events if e["type"] == "discard")
        assert "shown" not in event, seed
        found += 1
    assert found >= 10


def test_the_farbendreier_shows_suit_cards_it_could_not_avoid() -> None:
    deal = read_record(RECORD).data["deal"]
    hands = list(deal["hands"])
    hands[1], hands[3] = hands[3], hands[1]  # seat 1 holds T20 and the Trull's 21 and Sküs
    game = Game(load_ruleset("koenigrufen"), players=4, dealer=0, deal={"hands": hands, "talon": deal["talon"]})
    for seat, call in ((1, "mein_spiel"), (2, "pass"), (3, "pass"), (0, "pass"), (1, "farbendreier")):
        game.apply(seat, call)
    game.apply(1, {"choose": "second"})  # DA, D2, D3
    # One one-point trump (T20) to discard: the other two cards are suit cards, shown.
    game.apply(1, {"discard": ["T20", "D2", "D3"]})
    event = next(e for e in game.events if e["type"] == "discard")
    assert event["shown"] == ["D2", "D3"]
