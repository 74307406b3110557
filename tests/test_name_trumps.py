"""The trump suit named at a step of the exchange (`name_trumps`, issue 30 item 8): after the talon
is seen, where the step follows the talon's taking; first, before every other step, without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.records import replay
from interpreter.errors import IllegalActionError, RulesetError

HERE = Path(__file__).parent
AFTER = HERE / "rulesets" / "tapp-durch-trumps-after-the-tapp.yaml"
SUITS = [{"choose": "clubs"}, {"choose": "spades"}, {"choose": "diamonds"}]
DEAL = {
    "hands": [
        ["C7", "SQ", "SJ", "S9", "H10", "HK", "HQ", "DK", "DQ", "DJ", "D9"],
        ["CA", "C10", "CK", "CQ", "CJ", "SA", "S10", "DA", "D10", "HA", "H6"],
        ["C6", "S8", "S7", "S6", "HJ", "H9", "H8", "H7", "D8", "D7", "D6"],
    ],
    "talon": ["C9", "C8", "SK"],
}


def durch(ruleset: str) -> Game:
    game = Game(load_ruleset(ruleset, {"opener": "forehand"}), players=3, dealer=0, deal=DEAL)
    for seat, call in ((1, "spiele"), (2, "pass"), (0, "pass"), (1, "durch")):
        game.apply(seat, call)
    return game


def test_the_record_replays() -> None:
    result = replay(HERE / "records" / "tapp-durch-trumps-named-after-the-tapp.yaml")
    assert result.ok, result.problems


def test_trumps_are_named_after_the_talon_is_taken_and_the_discard_made() -> None:
    game = durch(str(AFTER))
    assert {"C9", "C8", "SK"} <= set(game.hands[1])  # the tapp is seen: it is in the hand
    assert not any("choose" in a for a in game.legal_actions(1))
    with pytest.raises(IllegalActionError, match="a discard"):
        game.apply(1, {"choose": "clubs"})
    game.apply(1, {"discard": ["H6", "SK", "C8"]})
    assert game.legal_actions(1) == SUITS
    game.apply(1, {"choose": "clubs"})
    assert game.trump_suit == "C"
    assert any(e == {"type": "trumps", "seat": 1, "suit": "clubs"} for e in game.events)


def test_without_the_step_they_are_named_first(tmp_path: Path) -> None:
    file = tmp_path / "first.yaml"
    file.write_text(AFTER.read_text(encoding="utf-8").replace("      - name_trumps: {}\n", ""), encoding="utf-8")
    game = durch(str(file))
    assert game.legal_actions(1) == SUITS
    with pytest.raises(IllegalActionError, match="name the trump suit first"):
        game.apply(1, {"discard": ["H6", "SK", "C8"]})


def write(tmp_path: Path, text: str) -> str:
    file = tmp_path / "bad.yaml"
    file.write_text(text, encoding="utf-8")
    return str(file)


def test_a_contract_with_no_suit_to_name_is_refused_with_the_place_and_the_fix(tmp_path: Path) -> None:
    text = AFTER.read_text(encoding="utf-8").replace(
        "  herzdurch:\n    exchange:\n      - take_talon: {}\n      - discard: {count: talon}\n", ""
    )
    with pytest.raises(RulesetError) as refused:
        load_ruleset(write(tmp_path, text))
    message = str(refused.value)
    assert "contracts.durch.exchange[2].name_trumps" in message  # herzdurch takes durch's exchange by `like`
    assert "herzdurch has no suit to name as trumps" in message and "trumps: {choose: [...]}" in message
    assert "writes its own" in message


def test_trumps_named_twice_are_refused(tmp_path: Path) -> None:
    text = AFTER.read_text(encoding="utf-8").replace(
        "      - name_trumps: {}\n", "      - name_trumps: {}\n      - name_trumps: {}\n", 1
    )
    with pytest.raises(RulesetError, match=r"exchange\[3\]\.name_trumps: the trump suit is named once"):
        load_ruleset(write(tmp_path, text))
