"""A called card lying in the talon (`call_card.in_talon`, issue 30 item 8): taken from it, with the
card given in exchange going into the talon (modern Tapp's assumption), or left there with no card
exchanged. The outcomes of both are worked out by hand in their records."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.records import replay
from interpreter.errors import RulesetError
from interpreter.frontends.log import describe_event
from interpreter.frontends.server import public_event

HERE = Path(__file__).parent
STAYS = HERE / "rulesets" / "tapp-rufer-called-card-stays.yaml"
DEAL = {
    "hands": [
        ["CK", "CQ", "C9", "C8", "SK", "SQ", "SJ", "H8", "H7", "D9", "D8"],
        ["CA", "C10", "SA", "S10", "HA", "H10", "HK", "HQ", "HJ", "H9", "D6"],
        ["CJ", "C7", "S9", "S8", "S7", "H6", "D7", "D10", "DK", "DQ", "DJ"],
    ],
    "talon": ["C6", "S6", "DA"],
}


def called(ruleset: str, card: str) -> Game:
    game = Game(load_ruleset(ruleset, {"opener": "forehand"}), players=3, dealer=0, deal=DEAL)
    for seat, call in ((1, "spiele"), (2, "pass"), (0, "pass"), (1, "herzrufer")):
        game.apply(seat, call)
    game.apply(1, {"call_card": card})
    return game


def test_both_records_replay_and_differ_only_in_the_word() -> None:
    taken = replay(HERE / "records" / "tapp-modern-herzrufer-called-card-in-the-tapp-taken.yaml")
    stays = replay(HERE / "records" / "tapp-rufer-called-card-stays.yaml")
    assert taken.ok and stays.ok, (taken.problems, stays.problems)


def test_a_card_in_the_talon_stays_there_and_the_give_step_is_left_out() -> None:
    game = called(str(STAYS), "DA")
    assert "DA" in game.talon and "DA" not in game.hands[1] and len(game.hands[1]) == 11
    assert game.legal_actions(1) and all("play" in a for a in game.legal_actions(1))  # no give
    event = next(e for e in reversed(game.events) if e["type"] == "call_card")
    assert event == {"type": "call_card", "seat": 1, "card": "DA", "holder": None, "stays": True}
    seen = public_event(event, game)
    assert seen["stays"] is True
    assert "stays there: no card is exchanged" in (describe_event(seen, game) or "")


def test_a_held_card_is_received_whatever_the_word() -> None:
    game = called(str(STAYS), "DK")
    assert "DK" in game.hands[1] and "DK" not in game.hands[2]
    assert all("give" in a for a in game.legal_actions(1))


def test_taken_from_the_talon_by_default() -> None:
    game = called("tapp-modern", "DA")
    assert "DA" in game.hands[1] and "DA" not in game.talon
    assert all("give" in a for a in game.legal_actions(1))


def test_a_wrong_value_names_the_place_and_the_choices(tmp_path: Path) -> None:
    file = tmp_path / "keep.yaml"
    file.write_text(STAYS.read_text(encoding="utf-8").replace("in_talon: stays", "in_talon: keep"), encoding="utf-8")
    with pytest.raises(RulesetError) as refused:
        load_ruleset(str(file))
    message = str(refused.value)
    assert "contracts.rufer.exchange[0].call_card.in_talon" in message
    assert "take" in message and "stays" in message
