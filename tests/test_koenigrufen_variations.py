"""The variations pagat names for Königrufen (its "Variations" and the notes on bonuses), as options
and readings of rulesets/koenigrufen.yaml: each changes the outcome the source says. Whole deals
are records tests/records/koenigrufen-variation-*.yaml (their expected payments reckoned by hand from the rule text,
see each record's note); what a variation allows or forbids is checked on the legal actions here.
And the general words the variations needed: a contract `allowed` or not, a bonus scored only
when announced, `side_points`, `trick_of`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.records import replay
from interpreter.errors import IllegalActionError, InvalidActionError, RulesetError

RECORDS = sorted((Path(__file__).parent / "records").glob("koenigrufen-variation-*.yaml"))

# The deal of tests/records/koenigrufen-variation-sechserdreier-first-call.yaml: dealer 0, Vorhand seat 1.
DEAL = {
    "hands": [
        ["CQ", "H2", "HQ", "T22", "T13", "C10", "T17", "T5", "DN", "D2", "S8", "T9"],
        ["T3", "HK", "T12", "CJ", "T20", "T10", "S10", "HN", "T15", "T18", "H4", "T1"],
        ["T19", "DJ", "T16", "C7", "CK", "T6", "C9", "HA", "T2", "DK", "T7", "T14"],
        ["T4", "D4", "S7", "SN", "DQ", "DA", "CN", "HJ", "SK", "C8", "SQ", "T8"],
    ],
    "talon": ["SJ", "T21", "D3", "H3", "S9", "T11"],
}


def game(options: dict[str, str] | None = None, actions: Sequence[tuple[int, Any]] = ()) -> Game:
    g = Game(load_ruleset("koenigrufen", options or {}), players=4, dealer=0, deal=DEAL)
    for seat, action in actions:
        g.apply(seat, action)
    return g


@pytest.mark.parametrize("record", RECORDS, ids=[r.stem for r in RECORDS])
def test_variation_record_replays_to_its_expected_outcome(record: Path) -> None:
    report = replay(record)
    assert report.ok, "\n".join(report.failures)


# -- Sechserdreier --------------------------------------------------------------------------------


def test_sechserdreier_is_by_default_only_chosen_after_mein_spiel() -> None:
    g = game()
    assert "sechserdreier" not in g.legal_actions(1)
    g = game(actions=[(1, "mein_spiel"), (2, "pass"), (3, "pass"), (0, "pass")])
    assert "sechserdreier" in g.legal_actions(1)


@pytest.mark.parametrize("choice", ["first_call", "first_call_under_farbendreier"])
def test_sechserdreier_as_vorhand_s_first_call_and_never_after_mein_spiel(choice: str) -> None:
    options = {"sechserdreier": choice}
    assert "sechserdreier" in game(options).legal_actions(1)
    # Only Vorhand, and only before anyone has spoken.
    assert "sechserdreier" not in game(options, [(1, "pass")]).legal_actions(2)
    assert "sechserdreier" not in game(options, [(1, "piccolo")]).legal_actions(2)
    # After Mein Spiel and three passes, anything but Sechserdreier.
    chooser = game(options, [(1, "mein_spiel"), (2, "pass"), (3, "pass"), (0, "pass")])
    assert "sechserdreier" not in chooser.legal_actions(1)
    assert {"rufer", "trischaken", "dreier"} <= set(chooser.legal_actions(1))


def test_sechserdreier_first_call_is_overcalled_by_dreier_or_by_farbendreier_where_agreed() -> None:
    over = game({"sechserdreier": "first_call"}, [(1, "sechserdreier")]).legal_actions(2)
    assert "dreier" in over and "farbendreier" not in over and "besserrufer" not in over
    low = game({"sechserdreier": "first_call_under_farbendreier"}, [(1, "sechserdreier")]).legal_actions(2)
    assert "farbendreier" in low and "dreier" in low and "besserrufer" not in low
    with pytest.raises(IllegalActionError):
        game({"sechserdreier": "first_call"}, [(1, "sechserdreier"), (2, "farbendreier")])


# -- Trischaken --------------------------------------------------------------------------------------


def _trischaken(options: dict[str, str]) -> Game:
    return game(options, [(1, "mein_spiel"), (2, "pass"), (3, "pass"), (0, "pass"), (1, "trischaken")])


def test_trischaken_without_the_duty_to_overtake() -> None:
    """Seat 1 leads H4; seat 2 holds HA only in hearts: follows either way. Seat 3 then holds
    HJ only: follows either way. Seat 0 holds HQ and H2: must beat with HQ by default, may play
    H2 without the duty to overtake."""
    for options, expected in (({}, ["HQ"]), ({"trischaken_overtake": "follow_only"}, ["H2", "HQ"])):
        g = _trischaken(options)
        for seat, card in ((1, "H4"), (2, "HA"), (3, "HJ")):
            g.apply(seat, {"play": card})
        assert sorted(a["play"] for a in g.legal_actions(0)) == expected


def test_trischaken_the_pagat_stays_the_last_trump_without_the_duty_to_overtake() -> None:
    g = _trischaken({"trischaken_overtake": "follow_only"})
    g.apply(1, {"play": "T3"})
    # Seat 2 follows trumps with any trump; seat 1 still may not lead its Pagat while holding others.
    assert {a["play"] for a in g.legal_actions(2)} == {"T19", "T16", "T6", "T2", "T7", "T14"}
    assert "T1" not in {a["play"] for a in game().legal_actions(1) if isinstance(a, dict)}
    g = _trischaken({"trischaken_overtake": "follow_only"})
    assert "T1" not in {a["play"] for a in g.legal_actions(1)}


# -- Extra contracts -----------------------------------------------------------------------------


def test_the_bid_names_the_bird_instead_of_besserrufer() -> None:
    calls = game({"besserrufer": "named_bird"}).legal_actions(1)
    assert "besserrufer" not in calls
    ladder = [c for c in calls if c.endswith("rufer") or c in ("bettel", "farbendreier", "dreier", "solodreier")]
    assert ladder == [
        "bettel",
        "pagatrufer",
        "farbendreier",
        "dreier",
        "uhurufer",
        "kakadurufer",
        "solodreier",
        "quapilrufer",
    ]
    assert "pagatrufer" not in game().legal_actions(1)


def _announcing(options: dict[str, str], contract: str) -> Game:
    g = game(options, [(1, contract), (2, "pass"), (3, "pass"), (0, "pass"), (1, {"call_card": "CK"})])
    g.apply(1, {"choose": "first"})
    g.apply(1, {"discard": ["CJ", "S10", "HN"]})
    return g


def test_uhurufer_must_announce_the_uhu() -> None:
    g = _announcing({"besserrufer": "named_bird"}, "uhurufer")
    with pytest.raises(IllegalActionError):
        g.apply(1, "pass")
    with pytest.raises(IllegalActionError):
        g.apply(1, {"announce": "pagat"})  # the bid named the Uhu
    g.apply(1, {"announce": "uhu"})
    g.apply(1, "pass")


def test_besserdreier_is_a_dreier_with_a_compulsory_bird() -> None:
    assert "besserdreier" not in game().legal_actions(1)
    g = game({"besserdreier": "yes"}, [(1, "besserdreier"), (2, "pass"), (3, "pass"), (0, "pass")])
    g.apply(1, {"choose": "first"})
    g.apply(1, {"discard": ["CJ", "S10", "HN"]})
    with pytest.raises(IllegalActionError):
        g.apply(1, "pass")
    g.apply(1, {"announce": "pagat"})
    assert g.ruleset.contracts["besserdreier"].factor_won == 4


def test_zwiccolo_forbidden_and_its_ouvert_still_possible() -> None:
    options = {"zwiccolo": "forbidden", "zwiccolo_ouvert": "yes", "driccolo": "yes"}
    calls = game(options).legal_actions(1)
    assert "zwiccolo" not in calls and {"zwiccolo_ouvert", "driccolo"} <= set(calls)
    chooser = game(options, [(1, "mein_spiel"), (2, "pass"), (3, "pass"), (0, "pass")])
    assert "zwiccolo" not in chooser.legal_actions(1) and "driccolo" in chooser.legal_actions(1)


# -- Bonuses -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("choice", "gone"), [("no_quapil", {"marabu"}), ("no_kakadu_quapil", {"kakadu", "marabu"})])
def test_groups_that_do_not_score_the_higher_birds(choice: str, gone: set[str]) -> None:
    g = _announcing({"birds": choice}, "besserrufer")
    for bird in gone:
        with pytest.raises((IllegalActionError, InvalidActionError)):
            g.apply(1, {"announce": bird})
    assert set(g.ruleset.contracts["besserrufer"].must_announce.one_of) == {"pagat", "uhu", "kakadu", "marabu"} - gone  # type: ignore[union-attr]
    g.apply(1, {"announce": "uhu"})
    # With bids that name the bird, no Rufer names a bird that does not score.
    calls = game({"birds": choice, "besserrufer": "named_bird"}).legal_actions(1)
    assert "quapilrufer" not in calls and ("kakadurufer" in calls) == ("kakadu" not in gone)


def test_sack_may_be_announced_only_where_it_is_played() -> None:
    with pytest.raises(InvalidActionError):
        _announcing({}, "besserrufer").apply(1, {"announce": "sack"})
    g = _announcing({"sack": "sack_and_doppelsack"}, "besserrufer")
    g.apply(1, {"announce": "pagat"})
    g.apply(1, {"announce": "doppelsack"})
    g.apply(1, "pass")


# -- The general words -------------------------------------------------------------------------------


def test_an_option_adds_a_contract_and_its_bids_without_rewriting_the_ladder(tmp_path: Path) -> None:
    """The same word in another game: Breitnau's Strecken left out of the ladder by `allowed`,
    and brought back by an option; a contract `like` it is left out with it."""
    file = tmp_path / "no-strecken.yaml"
    file.write_text(
        "title: Dappen without Strecken\nextends: breitnau\n"
        "contracts:\n  strecken: {allowed: false}\n"
        "options:\n  strecken:\n    question: Is Strecken played?\n    default: 'no'\n"
        "    choices:\n      'no': {}\n      'yes': {rules: {contracts: {strecken: {allowed: true}}}}\n",
        encoding="utf-8",
    )
    without = load_ruleset(str(file))
    assert "strecken" not in without.contracts
    assert all(level.contract != "strecken" for phase in without.phases for level in phase.ladder)
    assert "strecken" in load_ruleset(str(file), {"strecken": "yes"}).contracts


def test_a_contract_played_when_everybody_passes_must_be_allowed(tmp_path: Path) -> None:
    file = tmp_path / "bad.yaml"
    file.write_text(
        "title: Bad\nextends: koenigrufen\ncontracts:\n  trischaken: {allowed: false}\n"
        "auction:\n  phases:\n    bidding:\n      then: {pass_out: play, play: trischaken}\n",
        encoding="utf-8",
    )
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(file))
    assert any("not allowed" in p.message and p.path.endswith("then.play") for p in caught.value.problems)


def test_a_bonus_needs_a_value_or_an_announced_value(tmp_path: Path) -> None:
    file = tmp_path / "bad.yaml"
    file.write_text(
        "title: Bad\nextends: koenigrufen\nbonuses:\n"
        "  nothing: {achieved: 'side_points >= 46'}\n"
        "  hopeful: {achieved: 'side_points >= 46', attempted: 'side_tricks > 6', announced: '2'}\n",
        encoding="utf-8",
    )
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(file))
    messages = {p.path: p.message for p in caught.value.problems}
    assert "`value`" in messages["bonuses.nothing"] and "announced" in messages["bonuses.nothing"]
    assert "give the bonus a `value`" in messages["bonuses.hopeful.attempted"]


def test_like_follows_a_chain_of_contracts() -> None:
    """Bettel Ouvert is like Bettel, which is like Piccolo: the Pagat rule written in Piccolo
    reaches it (it once stopped one step short)."""
    rs = load_ruleset("koenigrufen", {"besserrufer": "named_bird"})
    assert rs.contracts["bettel_ouvert"].play.last_of_suit == frozenset({"T1"})
    # Uhurufer is like Pagatrufer, like Besserrufer, like Rufer: it calls a King as the Rufer does.
    assert rs.contracts["uhurufer"].exchange == rs.contracts["rufer"].exchange
