"""The semantic reading that `diff`, `matrix`, `doc` and `tree` share: the compiled ruleset laid out
in the words of the language, and where each rule is written."""

from __future__ import annotations

import dataclasses

import pytest

from interpreter.ethnography.semantic import HANDLED, Cards, read, tree_of
from interpreter.language.loader import load_ruleset
from interpreter.language.model import PlayRules


@pytest.mark.parametrize("cls", list(HANDLED), ids=lambda c: c.__name__)
def test_every_field_of_the_compiled_model_has_a_place(cls: type) -> None:
    """A field the model gains shows under its own name until it is given a place (and words in
    diff.TEMPLATES): this names it."""
    fields = {f.name for f in dataclasses.fields(cls)}
    assert fields - HANDLED[cls] == set(), f"give these fields of {cls.__name__} a place in semantic.py"
    assert HANDLED[cls] - fields == set(), f"{cls.__name__} has no such fields any more"


def test_a_field_without_a_place_still_shows() -> None:
    @dataclasses.dataclass(frozen=True)
    class NewerPlay(PlayRules):
        bells: int = 3

    rs = load_ruleset("breitnau")
    tree = tree_of(dataclasses.replace(rs, play=NewerPlay(**dataclasses.asdict(rs.play) | {"withhold": None})))
    assert tree["play"]["bells"] == 3


def test_the_tree_is_the_compiled_ruleset() -> None:
    side = read("breitnau")
    assert side.tree["contracts"]["strecken"]["factor"] == {"won": 2, "lost": 2}  # `like: dappen` resolved
    assert side.tree["play"]["must_beat"] is False  # the compiler's default
    assert side.tree["auction"]["phases"]["dappen_round"]["raise"] == "next"
    assert "declarer_wins" not in side.tree["contracts"]["dappen"]  # the settlement's, said there
    assert side.tree["calls"] == {"pass": {}, "solo": {}, "dappen": {}, "strecken": {}, "stupfen": {}, "selber": {}}


def test_sets_of_cards_compare_by_their_cards_and_show_by_name() -> None:
    deck = load_ruleset("cego").deck
    assert Cards(deck.sets["kings"], deck) == Cards(["CK", "SK", "HK", "DK"], deck)
    assert Cards(deck.sets["kings"], deck).name == "kings"
    assert Cards(deck.cards, deck).name == "all cards"
    suits = frozenset(c for c in deck.cards if deck.suit[c] != "T")
    assert Cards(suits, deck).name == "the suit cards"
    assert Cards(deck.sets["trumps"] - {"T1", "T21", "T22"}, deck).name == "trumps but T1 T21 T22"
    assert Cards({"T1", "CK"}, deck).name is None


def test_provenance_credits_the_file_that_states_the_rule() -> None:
    side = read("schollach")
    # Schollach sources the Solo as a contract it knows …
    solo = side.provenance(("contracts", "solo"))
    assert solo.source and "Solo, Dappen and Strecken" in solo.source and solo.status == "reported"
    # … but its factor is Furtwangen's, which Schollach takes as an assumption (inherited_status).
    factor = side.provenance(("contracts", "solo", "factor"))
    assert factor.source and factor.source.startswith("dappen-en: Furtwangen version, Scoring")
    assert factor.status == "assumed" and factor.file and factor.file.endswith("furtwangen.yaml")
