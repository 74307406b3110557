"""Play ends early once the contract is decided (`play.ends_early`, issue 30 item 9h).

tests/rulesets/koenigrufen-bettel-ends-early.yaml is Königrufen whose Bettel stops at the
declarer's first trick. The record tests/records/koenigrufen-bettel-ends-early.yaml plays one by
hand; here the same actions leave plain Königrufen in play (the word is obeyed, not ignored),
random Bettels stop exactly after the declarer's first trick (worked out from the trick events,
not from the rule), the end is told to every seat without naming a card, and a wrong
`ends_early` is refused at its place with the reason and the fix.
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.engine.phase import Phase
from interpreter.frontends.log import describe_event
from interpreter.frontends.server import public_event
from interpreter.language.loader import check_ruleset

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "rulesets" / "koenigrufen-bettel-ends-early.yaml"
RECORD = HERE / "records" / "koenigrufen-bettel-ends-early.yaml"


def _played(ruleset_ref: str) -> Game:
    record = yaml.safe_load(RECORD.read_text(encoding="utf-8"))
    game = Game(load_ruleset(ruleset_ref), players=4, dealer=0, deal=record["deal"])
    for seat, action in record["actions"]:
        game.apply(seat, action)
    return game


def test_the_record_ends_after_trick_2_and_without_the_word_play_goes_on() -> None:
    ended = _played(str(FIXTURE))
    assert ended.is_over and ended.result is not None
    assert ended.result.tricks == {"declarer": 1, "defenders": 1}
    assert ended.result.payments == [3, 3, -9, 3]
    # Ten cards left in every hand: nothing was played after trick 2.
    assert [len(ended.hands[s]) for s in range(4)] == [10, 10, 10, 10]
    plain = _played("koenigrufen")
    assert not plain.is_over and plain.phase is Phase.PLAY and plain.trick_number == 3


def test_the_end_is_told_to_every_seat_and_names_no_card() -> None:
    game = _played(str(FIXTURE))
    [event] = [e for e in game.events if e["type"] == "play_ends"]
    assert event == {
        "type": "play_ends",
        "trick": 2,
        "reason": "the declarer took a trick: the Bettel is lost",
        "rest": "holders",
    }
    public = public_event(event, game)
    assert public == event  # it names no card: every seat may know all of it
    assert describe_event(public, game) == (
        "Play ends after trick 2: the declarer took a trick: the Bettel is lost; "
        "the cards not played count for their holders' sides."
    )
    for seat in range(4):
        view = game.view(seat)
        assert view["play_ended"] == {"after_trick": 2, "reason": "the declarer took a trick: the Bettel is lost"}
        assert sorted(view["hand"]) == sorted(game.hands[seat])  # its own cards, and no other seat's
        assert not any(card in str(view) for s in range(4) if s != seat for card in game.hands[s])


def _bettel(ruleset_ref: str, seed: int) -> Game:
    """A deal in which Forehand bids Bettel, everyone else passes, then random legal cards."""
    game = Game(load_ruleset(ruleset_ref), players=4, dealer=0, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        if game.phase is Phase.PLAY:
            game.apply(seat, rng.choice(legal))
        elif "bettel" in legal and game.contract is None and seat == 1:
            game.apply(seat, "bettel")
        else:
            game.apply(seat, "pass" if "pass" in legal else legal[0])
    return game


def test_random_bettels_stop_exactly_after_the_declarers_first_trick() -> None:
    ended_early = played_out = 0
    for seed in range(300):
        game = _bettel(str(FIXTURE), seed)
        if game.contract is None or game.contract.name != "bettel":
            continue
        winners = [e["winner"] for e in game.events if e["type"] == "trick"]
        first = next((n for n, w in enumerate(winners, 1) if w == game.declarer), None)
        stops = [e for e in game.events if e["type"] == "play_ends"]
        assert game.result is not None
        if first is not None and first < 12:
            # The Bettel is lost with trick `first`: play stopped right after it.
            assert len(winners) == first and [e["trick"] for e in stops] == [first], seed
            assert game.result.declarer_won is False
            assert game.result.tricks == {"declarer": 1, "defenders": first - 1}
            ended_early += 1
        else:
            assert len(winners) == 12 and not stops, seed
            played_out += 1
    assert ended_early > 50 and played_out > 0, (ended_early, played_out)


def _problems(tmp_path: Path, text: str) -> list[str]:
    file = tmp_path / "variant.yaml"
    file.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    (tmp_path / "base.yaml").write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    return [str(p) for p in check_ruleset(str(file))]


def test_a_name_the_condition_cannot_read_is_refused_at_its_place(tmp_path: Path) -> None:
    problems = _problems(
        tmp_path,
        """
        extends: koenigrufen
        contracts:
          bettel:
            play:
              ends_early: {when: "declarer_points > 0"}
        """,
    )
    assert any(
        ":5:" in p and "contracts.bettel.play.ends_early.when" in p and "declarer_points" in p for p in problems
    ), problems


def test_ends_early_where_bonuses_count_or_everyone_plays_alone_is_refused(tmp_path: Path) -> None:
    problems = _problems(
        tmp_path,
        """
        extends: koenigrufen
        play:
          ends_early: {when: "defender_tricks > 0"}
        """,
    )
    # The ruleset's play holds in every contract without its own: the Rufer counts bonuses, and
    # in Trischaken everyone plays for themselves.
    [counted] = [p for p in problems if "play ends early in rufer, " in p and "(with " not in p]
    assert counted.startswith(str(tmp_path / "variant.yaml") + ":3:15: play.ends_early: "), counted
    assert "judged on tricks that would not be played" in counted and "`bonuses: []`" in counted
    assert "bettel" not in counted.split(", where")[0]  # (Bettel counts no bonus)
    [alone] = [p for p in problems if "play ends early in trischaken" in p and "(with " not in p]
    assert "everyone plays for themselves" in alone
    assert "leave ends_early out of `play` and write it in the contracts it is for" in alone


@pytest.mark.parametrize(
    "rest, tricks, points",
    [
        # Worked out by hand from the record's deal (its note has the cards' values): the
        # declarer's trick 2 is S7, S8, S9, SK (8 raw, 4 cards: 8 - 2 - 1 = 5), the defenders'
        # trick 1 is H4, HK, HQ, HJ (12 raw: 12 - 3 = 9); the forty cards left are worth 34 in the
        # declarer's hand and 35 in the defenders' (14 + 10 + 11). Each pile of n cards loses 2
        # for each three and 1 for a remainder.
        ("holders", {"declarer": 1, "defenders": 1}, {"declarer": 33, "defenders": 24}),
        # 8 + 34 + 35 = 77 raw in 44 cards (fourteen threes and two): 77 - 29 = 48.
        ("declarer", {"declarer": 11, "defenders": 1}, {"declarer": 48, "defenders": 9}),
        # 12 + 34 + 35 = 81 raw in 44 cards: 81 - 29 = 52.
        ("defenders", {"declarer": 1, "defenders": 11}, {"declarer": 5, "defenders": 52}),
        ("nobody", {"declarer": 1, "defenders": 1}, {"declarer": 5, "defenders": 9}),
    ],
)
def test_the_cards_not_played_count_as_rest_says(
    tmp_path: Path, rest: str, tricks: dict[str, int], points: dict[str, int]
) -> None:
    text = FIXTURE.read_text(encoding="utf-8").replace(
        '        when: "declarer_tricks > 0"\n', f'        when: "declarer_tricks > 0"\n        rest: {rest}\n'
    )
    assert f"rest: {rest}" in text
    fixture = tmp_path / "fixture.yaml"
    fixture.write_text(text, encoding="utf-8")
    game = _played(str(fixture))
    assert game.result is not None
    assert game.result.tricks == tricks
    assert game.result.points == points
    assert game.result.payments == [3, 3, -9, 3]  # a lost Bettel, whatever the cards left count for
    assert [e["rest"] for e in game.events if e["type"] == "play_ends"] == [rest]
