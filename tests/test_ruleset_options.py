"""Readings and options given with a ruleset object (issue 27, item 10): `Game(load_ruleset(...),
options=...)` plays with them, as `Game(name, options=...)` does; a name or choice that does not
exist is refused with the nearest one, never ignored."""

from __future__ import annotations

import pytest

from interpreter import Game, load_ruleset
from interpreter.errors import UsageError


def test_options_given_with_a_ruleset_are_applied() -> None:
    rs = load_ruleset("cego-schmidt")
    assert rs.choices["leere_lead"] == "free"
    game = Game(rs, players=4, seed=1, options={"leere_lead": "lead_first"})
    assert game.table_ruleset.choices["leere_lead"] == "lead_first"
    assert game.table_ruleset.choices == load_ruleset("cego-schmidt", {"leere_lead": "lead_first"}).choices
    # The same rules as the ruleset loaded by name with the option: the same deal plays alike.
    by_name = Game("cego-schmidt", players=4, seed=1, options={"leere_lead": "lead_first"})
    assert game.table_ruleset.document == by_name.table_ruleset.document
    # Choosing again what is chosen already changes nothing; the ruleset is the same object.
    assert Game(rs, players=4, seed=1, options={"leere_lead": "free"}).table_ruleset is rs


def test_options_for_the_rules_of_a_table_size_apply_there_too() -> None:
    rs = load_ruleset("cego-schmidt")
    game = Game(rs, players=3, seed=2, options={"rule_breaches": "penalize"})
    assert game.ruleset.choices["rule_breaches"] == "penalize"
    assert game.ruleset.penalties is not None and game.ruleset.penalties.mode == "penalize"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"leere_lead": "bogus"}, "no choice 'bogus'; choose one of: free, lead_first"),
        ({"leere_leed": "free"}, "no reading or option named 'leere_leed'; did you mean 'leere_lead'?"),
    ],
)
def test_a_bogus_choice_with_a_ruleset_is_refused(options: dict[str, str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        Game(load_ruleset("cego-schmidt"), players=4, seed=1, options=options)
