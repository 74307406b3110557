"""Königrufen as its digest says (issue 28): the records written for it take their `expect`
from an independent reckoning of the digest (tests/koenigrufen_by_hand.py, which does not import
the engine), and the engine's rules of play behind them hold on its short ways and its general
steps alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import koenigrufen_by_hand as by_hand
import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.engine.game import Phase
from interpreter.engine.records import replay
from interpreter.errors import IllegalActionError

RECORDS = Path(__file__).parent / "records"
# Records whose outcome tests/koenigrufen_by_hand.py reckons (positive contracts played out).
SCORED = [
    "koenigrufen-marabu-lost-then-free.yaml",
    "koenigrufen-called-king-captured-in-last-trick.yaml",
    "koenigrufen-reading-defenders-announce-koenig-ultimo.yaml",
    "koenigrufen-koenig-ultimo-announced-and-made.yaml",
    "koenigrufen-valat-counts-beside-the-game.yaml",
    "koenigrufen-reading-valat-replaces.yaml",
    "koenigrufen-valat-announced-and-lost.yaml",
    "koenigrufen-reading-valat-replaces-lost.yaml",
    "koenigrufen-defenders-valat-discards-stay-with-the-declarer.yaml",
    # the records written before the script, which it must agree with
    "koenigrufen-rufer-pagat-kontra.yaml",
    "koenigrufen-rufer-won.yaml",
    "koenigrufen-rufer-35-lost.yaml",
    "koenigrufen-solo-silent-trull.yaml",
    "koenigrufen-dreier.yaml",
    "koenigrufen-sechserdreier.yaml",
]


def _record(name: str) -> dict[str, Any]:
    with open(RECORDS / name, encoding="utf-8") as handle:
        data: dict[str, Any] = yaml.safe_load(handle)
    return data


@pytest.mark.parametrize("name", SCORED)
def test_the_records_expect_what_the_digest_reckons(name: str) -> None:
    record = _record(name)
    reckoned = by_hand.score(record)
    expect = record["expect"]
    for key in ("contract", "declarer", "declarer_won", "points", "tricks", "payments"):
        if key in expect:
            assert expect[key] == reckoned[key], key
    assert sum(reckoned["payments"]) == 0
    assert replay(RECORDS / name).ok


def _game_at(name: str, actions: int) -> Game:
    """The record's deal after its first `actions` actions."""
    record = _record(name)
    game = Game(
        load_ruleset(record["ruleset"], record.get("options")),
        players=record["players"],
        dealer=record.get("dealer", 0),
        deal=record["deal"],
    )
    for seat, action in record["actions"][:actions]:
        game.apply(seat, action)
    return game


def _legal_both_ways(game: Game) -> tuple[list[Any], list[Any]]:
    """The seat to act's legal cards as the short ways give them (Game._fast, TrickPlay's plain
    branch) and as the general steps do (no short way, TrickPlay._duty's branch)."""
    play = game.trickplay
    assert play is not None and game.phase is Phase.PLAY
    seat = game.to_act
    assert seat is not None
    short = list(game.legal_actions(seat))
    fast, plain = game._fast, play._plain
    game._fast, play._plain = None, False
    try:
        general = [{"play": card} for card in play.legal(seat)]
    finally:
        game._fast, play._plain = fast, plain
    return short, general


def test_an_announced_bird_is_free_once_its_trick_has_passed() -> None:
    # Trick 10 of the record: clubs led, seat 1 void in clubs, holding the IIII (announced for
    # trick 9, where it had to follow suit), the V and D3: either trump.
    game = _game_at("koenigrufen-marabu-lost-then-free.yaml", 51)
    assert game.to_act == 1 and game.trickplay is not None and game.trickplay.number == 10
    short, general = _legal_both_ways(game)
    assert short == general == [{"play": "T4"}, {"play": "T5"}]
    # Before its trick the IIII is kept back, both ways: seat 1 leads trick 1 with any card but it.
    early = _game_at("koenigrufen-marabu-lost-then-free.yaml", 13)
    assert early.trickplay is not None and early.trickplay.number == 1 and early.to_act == 1
    short, general = _legal_both_ways(early)
    assert short == general
    assert {"play": "T5"} in short and {"play": "T4"} not in short


def test_king_ultimo_is_offered_to_the_partners_only() -> None:
    # The record's round of announcements: seat 2, a defender, doubles the game (its side is now
    # known) and may announce the defenders' bonuses, not King ultimo; the declarer may.
    game = _game_at("koenigrufen-called-king-captured-in-last-trick.yaml", 8)
    assert game.to_act == 1
    assert {"announce": "koenig_ultimo", "cards": []} in game.legal_actions(1)
    game.apply(1, "pass")
    game.apply(2, {"kontra": "game"})
    offered = game.legal_actions(2)
    assert {"announce": "trull", "cards": []} in offered
    assert {"announce": "koenig_ultimo", "cards": []} not in offered
    with pytest.raises(IllegalActionError, match="koenig_ultimo is a bonus of the declarer's side only"):
        game.apply(2, {"announce": "koenig_ultimo"})
    # With the reading that lets the defenders announce it, it is offered.
    other = Game(
        load_ruleset("koenigrufen", {"koenig_ultimo_defenders": "announced"}), players=4, deal=game.record()["deal"]
    )
    for seat, action in game.history:
        other.apply(seat, action)
    assert {"announce": "koenig_ultimo", "cards": []} in other.legal_actions(2)


def test_an_announced_king_ultimos_king_is_kept_back_both_ways() -> None:
    # Trick 1 of koenigrufen-illegal-koenig-ultimo-king-played-early: seat 3 follows clubs with
    # any club but the called King, on the short way and the general one alike.
    game = _game_at("koenigrufen-illegal-koenig-ultimo-king-played-early.yaml", 15)
    assert game.to_act == 3
    short, general = _legal_both_ways(game)
    assert short == general == [{"play": c} for c in ("C10", "CJ", "CN", "CQ")]
    # Without the announcement the King may fall at once.
    record = _record("koenigrufen-illegal-koenig-ultimo-king-played-early.yaml")
    silent = Game(load_ruleset("koenigrufen"), players=4, deal=record["deal"])
    for seat, action in record["actions"][:15]:
        if not (isinstance(action, dict) and "announce" in action):
            silent.apply(seat, action)
    assert {"play": "CK"} in silent.legal_actions(3)


def test_a_discard_holds_as_many_cards_other_than_trumps_as_it_can() -> None:
    # koenigrufen-illegal-discard-trumps-with-a-choice: fifteen cards, two of them neither
    # trumps nor Kings (H4, D4): every legal discard holds both and one of the eleven trumps.
    game = _game_at("koenigrufen-illegal-discard-trumps-with-a-choice.yaml", 7)
    hand = game.hands[1]
    trumps = [f"T{n}" for n in range(2, 13)]
    assert game.legal_actions(1) == [{"discard": sorted([t, "H4", "D4"], key=hand.index)} for t in trumps]
    with pytest.raises(IllegalActionError, match="other trumps only when there is no other choice"):
        game.apply(1, {"discard": ["T2", "H4", "T3"]})
    game.apply(1, {"discard": ["T12", "H4", "D4"]})
    assert game.phase is Phase.ANNOUNCE
    # Under the freer reading any three of the thirteen that are not Kings may go (too many to list).
    free = _game_at("koenigrufen-reading-discard-fewer-than-count.yaml", 7)
    assert free.legal_actions(1) == [
        {
            "discard": {
                "count": 3,
                "from": [c for c in free.hands[1] if c not in ("CK", "SK")],
                "forbidden": ["CK", "SK"],
            }
        }
    ]


# A Sechserdreier hand whose eighteen cards hold only two that are neither trumps nor Kings.
SECHSER = {
    "hands": [
        ["T1", "T16", "T17", "CQ", "CN", "CJ", "C10", "SQ", "SN", "SJ", "S10", "DA"],
        ["T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "CK", "SK", "H4", "D4"],
        ["T18", "T19", "C9", "C8", "C7", "S9", "S8", "S7", "HK", "HQ", "D2", "D3"],
        ["T20", "T21", "T22", "HN", "HJ", "HA", "H2", "H3", "DK", "DQ", "DN", "DJ"],
    ],
    "talon": ["T10", "T11", "T12", "T13", "T14", "T15"],
}


def test_too_many_discards_to_list_come_as_a_template_naming_the_cards_every_one_holds() -> None:
    game = Game(load_ruleset("koenigrufen"), players=4, deal=SECHSER)
    for seat, call in ((1, "mein_spiel"), (2, "pass"), (3, "pass"), (0, "pass"), (1, "sechserdreier")):
        game.apply(seat, call)
    [template] = game.legal_actions(1)
    trumps = [f"T{n}" for n in range(2, 16)]
    hand = game.hands[1]
    assert template == {
        "discard": {
            "count": 6,
            "from": ["H4", "D4", *(c for c in hand if c in trumps)],
            "forbidden": ["CK", "SK"],
            "including": ["H4", "D4"],
        }
    }
    with pytest.raises(IllegalActionError, match="discard H4, D4 and 4 of"):
        game.apply(1, {"discard": ["T2", "T3", "T4", "T5", "T6", "H4"]})
    import random

    from interpreter.bots.randombot import expand

    for seed in range(20):
        trial = Game(load_ruleset("koenigrufen"), players=4, deal=SECHSER)
        for seat, action in game.history:
            trial.apply(seat, action)
        chosen = expand(template, random.Random(seed))
        assert {"H4", "D4"} <= set(chosen["discard"])
        trial.apply(1, chosen)


def test_a_farbendreier_discards_one_point_trumps_as_far_as_it_can() -> None:
    # §8: in a Farbendreier trumps II-XX may be discarded freely, suit cards only if unavoidable.
    deal = {
        "hands": [
            ["T1", "T13", "T14", "T15", "CQ", "CN", "CJ", "C10", "SQ", "SN", "SJ", "S10"],
            ["T2", "T21", "T22", "C7", "CK", "SK", "H4", "D4", "H3", "D3", "S7", "S8"],
            ["T16", "T17", "T18", "T19", "C9", "C8", "T7", "S9", "T8", "T9", "HK", "HQ"],
            ["T20", "T4", "T5", "HN", "HJ", "HA", "H2", "T6", "DK", "DQ", "DN", "DJ"],
        ],
        "talon": ["T3", "DA", "D2", "T10", "T11", "T12"],
    }
    game = Game(load_ruleset("koenigrufen"), players=4, deal=deal)
    for seat, action in ((1, "farbendreier"), (2, "pass"), (3, "pass"), (0, "pass"), (1, {"choose": "first"})):
        game.apply(seat, action)
    # Two one-point trumps (II, III): both go, and one suit card that is not a King.
    legal = game.legal_actions(1)
    assert legal and all({"T2", "T3"} <= set(a["discard"]) for a in legal)
    assert {c for a in legal for c in a["discard"]} == {
        "T2",
        "T3",
        "C7",
        "H4",
        "D4",
        "H3",
        "D3",
        "S7",
        "S8",
        "DA",
        "D2",
    }
    with pytest.raises(IllegalActionError, match="as far as possible one-point trumps"):
        game.apply(1, {"discard": ["T2", "C7", "H4"]})
