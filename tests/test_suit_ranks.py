"""A rank order of a contract's own (`play.suit_ranks`, issue 30 item 9c): a Ten ranking low in a
null game.

tests/rulesets/tapp-modern-null-ranks.yaml is modern Tapp whose Bettel ranks every suit A, K, Q,
J, 10, 9, 8, 7, 6. Its record (tests/records/tapp-modern-null-ranks-bettel-lost.yaml) is the deal
of tapp-modern-bettel-won.yaml, where H10 beat HJ; here the same first tricks give that trick to
the Jack (the word is obeyed, not ignored), every trick of random Bettels is won as the null
order says (worked out here, not by the engine), the other contracts keep the ace-ten order, and
an order that is not one of the suits' ranks is refused at its place.
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import yaml

from interpreter import Game, load_ruleset
from interpreter.engine.phase import Phase
from interpreter.language.loader import check_ruleset

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "rulesets" / "tapp-modern-null-ranks.yaml"
RECORD = HERE / "records" / "tapp-modern-null-ranks-bettel-lost.yaml"
NULL = ["A", "K", "Q", "J", "10", "9", "8", "7", "6"]


def _winner_of_trick_2(ruleset_ref: str) -> int:
    data = yaml.safe_load(RECORD.read_text(encoding="utf-8"))
    game = Game(load_ruleset(ruleset_ref, data["options"]), players=3, dealer=0, deal=data["deal"])
    for seat, action in data["actions"][:10]:  # the auction and tricks 1 and 2
        game.apply(seat, action)
    tricks = [e for e in game.events if e["type"] == "trick"]
    assert [t["cards"] for t in tricks] == [["SJ", "S8", "SQ"], ["H8", "H10", "HJ"]]
    return int(tricks[1]["winner"])


def test_the_jack_beats_the_ten_in_the_fixtures_bettel_and_not_in_tapp() -> None:
    assert _winner_of_trick_2(str(FIXTURE)) == 2  # HJ
    assert _winner_of_trick_2("tapp-modern") == 1  # H10


def _by_hand(cards: list[str], order: list[str]) -> int:
    """The index of the winning card of a trick with no trumps: the highest of the suit led."""
    led = cards[0][0]
    return max((i for i, c in enumerate(cards) if c[0] == led), key=lambda i: -order.index(cards[i][1:]))


def test_every_trick_of_random_bettels_goes_by_the_null_order() -> None:
    ruleset = load_ruleset(str(FIXTURE), {"opener": "forehand"})
    tricks = 0
    for seed in range(150):
        game = Game(ruleset, players=3, dealer=0, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions(seat)
            if game.phase is Phase.PLAY:
                game.apply(seat, rng.choice(legal))
            elif "bettel" in legal:
                game.apply(seat, "bettel")
            elif "spiele" in legal:
                game.apply(seat, "spiele")
            else:
                game.apply(seat, "pass" if "pass" in legal else legal[0])
        if game.contract is None or game.contract.name != "bettel":
            continue
        for event in (e for e in game.events if e["type"] == "trick"):
            assert event["seats"][_by_hand(event["cards"], NULL)] == event["winner"], (seed, event)
            tricks += 1
    assert tricks > 500


def test_the_other_contracts_keep_the_ace_ten_order() -> None:
    from interpreter.engine.plan import play_plan

    ruleset = load_ruleset(str(FIXTURE))
    durch = play_plan(ruleset, ruleset.contracts["durch"], "C").tables.power
    assert sorted(("CA", "C10", "CK", "CQ", "CJ"), key=lambda c: -durch[c]) == ["CA", "C10", "CK", "CQ", "CJ"]
    bettel = play_plan(ruleset, ruleset.contracts["bettel"], None).tables.power
    assert sorted(("CA", "C10", "CK", "CQ", "CJ"), key=lambda c: -bettel[c]) == ["CA", "CK", "CQ", "CJ", "C10"]


def _problems(tmp_path: Path, ranks: str) -> list[str]:
    file = tmp_path / "variant.yaml"
    file.write_text(
        textwrap.dedent(
            f"""
            extends: tapp-modern
            contracts:
              bettel:
                play:
                  suit_ranks: {ranks}
            """
        ).lstrip("\n"),
        encoding="utf-8",
    )
    return [str(p) for p in check_ruleset(str(file))]


def test_an_order_that_is_not_the_suits_ranks_is_refused_at_its_place(tmp_path: Path) -> None:
    short = _problems(tmp_path, '[A, K, Q, J, "10", "9", "8", "7"]')
    assert any(
        ":5:19: contracts.bettel.play.suit_ranks: the order must name every rank of every suit once "
        "(clubs: A, 10, K, Q, J, 9, 8, 7, 6): it leaves out 6" in p
        for p in short
    ), short
    wrong = _problems(tmp_path, '[A, K, Q, B, "10", "9", "8", "7", "6"]')
    assert any("it leaves out J; clubs has no B" in p for p in wrong), wrong
    twice = _problems(tmp_path, '[A, K, K, J, "10", "9", "8", "7", "6"]')
    assert any("K named more than once: name each rank once, highest first" in p for p in twice), twice
