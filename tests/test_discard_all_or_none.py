"""A discard judged as a whole by classes that go aside all or none (`discard.all_or_none`, issue 30
item 8): "all four Kings or none". The legal discards are worked out here without the engine, by
trying every set of cards the declarer could lay away, and held against what the engine offers
and accepts."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.records import replay
from interpreter.errors import IllegalActionError, RulesetError

RECORDS = Path(__file__).parent / "records"

# Carneval's lone player, with two classes that share a card (the King of Hearts ties the Kings
# to the Hearts) and a preference on top: suit cards before trumps.
ALL_OR_NONE = """\
title: Carneval, Kings and Hearts all or none (a test)
extends: carneval
readings: {honours: null}
contracts:
  dappen:
    exchange:
      - take_talon: {}
      - discard:
          count: talon
          forbid: {when: "card in {T22, T21, T1}", reason: the Trull stays}
          all_or_none:
            - {when: "card in kings", reason: all Kings or none}
            - {when: "card in hearts", reason: all Hearts or none}
          prefer:
            - {when: "card not in trumps", reason: suit cards before trumps}
"""

KINGS = {"CK", "SK", "HK", "DK"}


def _hearts(card: str) -> bool:
    return card.startswith("H")


def by_hand(hand: list[str], count: int) -> set[frozenset[str]]:
    """The legal discards from the rule's words: any `count` cards but the Trull, holding every
    King and every Heart the hand has or none of them (each class on its own), and of those the
    ones with the most suit cards."""
    allowed = [c for c in hand if c not in {"T22", "T21", "T1"}]
    kings = {c for c in allowed if c in KINGS}
    hearts = {c for c in allowed if _hearts(c)}
    whole = [
        frozenset(d)
        for d in itertools.combinations(allowed, count)
        if len(kings & set(d)) in (0, len(kings)) and len(hearts & set(d)) in (0, len(hearts))
    ]
    if not whole:
        return set()
    most = max(sum(not c.startswith("T") for c in d) for d in whole)
    return {d for d in whole if sum(not c.startswith("T") for c in d) == most}


def offered(legal: list[Any], hand: list[str]) -> set[frozenset[str]]:
    """The discards the engine's offer stands for: listed sets, or templates (every `count` cards
    of `from` holding all of `including`)."""
    sets: set[frozenset[str]] = set()
    for action in legal:
        value = action["discard"]
        if isinstance(value, list):
            sets.add(frozenset(value))
            continue
        including = set(value.get("including", ()))
        rest = [c for c in value["from"] if c not in including]
        for combo in itertools.combinations(rest, value["count"] - len(including)):
            sets.add(frozenset(including.union(combo)))
    return sets


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory: pytest.TempPathFactory) -> Any:
    file = tmp_path_factory.mktemp("all-or-none") / "all-or-none.yaml"
    file.write_text(ALL_OR_NONE, encoding="utf-8")
    return load_ruleset(str(file))


def test_the_offer_is_exactly_the_discards_the_words_allow_over_60_deals(ruleset: Any) -> None:
    checked = 0
    for seed in range(60):
        game = Game(ruleset, players=4, dealer=0, seed=seed)
        game.apply(1, "dappen")
        hand = list(game.hands[1])
        legal = game.legal_actions(1)
        want = by_hand(hand, 6)
        if not want:
            assert game.is_over, f"seed {seed}: no legal discard, so the exchange is abandoned"
            continue
        assert offered(legal, hand) == want, f"seed {seed}"
        # Each is accepted, and a discard breaking a class is refused with the class's reason.
        good = sorted(sorted(d) for d in want)[0]
        kings = [c for c in hand if c in KINGS]
        if len(kings) >= 2 and not set(kings) & set(good):
            broken = [kings[0], *[c for c in good if c not in KINGS][:5]]
            if frozenset(broken) not in want and len(broken) == 6:
                with pytest.raises(IllegalActionError, match="all Kings or none"):
                    game.apply(1, {"discard": broken})
        game.apply(1, {"discard": good})
        assert game.phase != "exchange" or game.to_act != 1
        checked += 1
    assert checked >= 50


def test_a_class_with_both_ways_open_gives_two_templates_and_each_is_legal() -> None:
    result = replay(RECORDS / "carneval-kings-all-four-together.yaml")
    assert result.ok, result.problems
    game = Game(
        load_ruleset("carneval", {"honours": "kings_all_four"}),
        players=6,
        dealer=0,
        deal={
            "hands": [
                ["T22", "T3", "CQ", "SQ", "SJ", "HA", "D4"],
                ["T21", "T19", "CK", "SK", "HK", "H2", "DK"],
                ["T20", "T14", "T10", "T6", "T1", "CJ", "DN"],
                ["T18", "T17", "T15", "T2", "C9", "S8", "DQ"],
                ["T13", "T12", "T9", "C7", "SN", "HQ", "H4"],
                ["T8", "T5", "S10", "HN", "DJ", "D2", "D3"],
            ],
            "talon": ["T16", "T11", "T7", "T4", "CN", "C10", "C8", "S9", "S7", "HJ", "H3", "DA"],
        },
    )
    game.apply(1, "dappen")
    templates = [a["discard"] for a in game.legal_actions(1)]
    assert [t.get("including", []) for t in templates] == [[], ["CK", "SK", "HK", "DK"]]
    assert templates[0]["forbidden"] == ["CK", "SK", "HK", "DK"]
    with pytest.raises(IllegalActionError, match="the kings go aside all four together or not at all") as refused:
        game.apply(1, {"discard": ["CK", "SK", "HK", "T21", "T19", "H2", "T16", "T11", "T7", "T4", "CN", "C10"]})
    assert "discard CK, SK, HK, DK and 8 of" in str(refused.value)


def test_without_the_word_one_king_may_go_and_with_it_not() -> None:
    """The same deal and discard: accepted under the reading `kings` (each King judged alone),
    refused under `kings_all_four`."""
    alone = replay(RECORDS / "carneval-honours-kings-four-kings.yaml")
    together = replay(RECORDS / "carneval-kings-all-four-not-one.yaml")
    assert alone.ok and together.ok, (alone.problems, together.problems)


def test_too_many_classes_are_refused_with_the_place_and_the_fix(tmp_path: Path) -> None:
    classes = "\n".join(f'            - {{when: "card in {s}", reason: all or none}}' for s in ("kings",) * 7)
    text = ALL_OR_NONE.split("          all_or_none:")[0] + "          all_or_none:\n" + classes + "\n"
    file = tmp_path / "seven.yaml"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as refused:
        load_ruleset(str(file))
    message = str(refused.value)
    assert "contracts.dappen.exchange[1].discard.all_or_none" in message
    assert "7 classes go all or none here" in message and "at most 6 may be listed" in message


def test_an_unknown_set_in_a_class_names_its_place(tmp_path: Path) -> None:
    file = tmp_path / "typo.yaml"
    file.write_text(ALL_OR_NONE.replace("card in kings", "card in kingz"), encoding="utf-8")
    with pytest.raises(RulesetError) as refused:
        load_ruleset(str(file))
    message = str(refused.value)
    assert "contracts.dappen.exchange[1].discard.all_or_none[0].when" in message and "kingz" in message
