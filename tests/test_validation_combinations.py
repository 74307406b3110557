"""Validation that misses nothing (issue 28, items 7, 8 and 11): every combination of readings and
options at every table size with rules of its own (or a covering set, said so, where there are
too many), a base file as itself, and options that patch the rules for a number of players."""

from __future__ import annotations

import itertools
from pathlib import Path

from interpreter import Game, load_ruleset
from interpreter.language.loader import _pairwise, check_ruleset

# Dappen with a Blind game an option adds to the Dappen round, whose ladder the rules for seven
# players write out whole: the option alone validates, so do the rules for seven, but together
# the compulsory Blind is no bid of the seven players' ladder.
BLIND = """\
title: Dappen with a Blind game (a test)
extends: breitnau
calls:
  blind: {title: Blind}
contracts:
  blind: {like: solo, title: Blind}
by_players:
  "7":
    rules:
      auction:
        phases:
          dappen_round:
            ladder: [{call: dappen}, {call: strecken}]
options:
  going_blind:
    question: Is the Blind played?
    default: "no"
    choices:
      "no": {title: "No"}
      "yes":
        title: Yes, and the last to speak must say it when nobody bid
        rules:
          auction:
            phases:
              dappen_round:
                ladder: [{call: dappen}, {call: blind}, {call: strecken}, {call: stupfen}]
                compulsory:
                  last:
                    when: "position == speakers - 1 and not bid_made"
                    call: blind
                    reason: nobody bid, so you must play blind
"""
# The option's own rules for seven players, which mend it.
MENDED = """\
          by_players:
            "7":
              rules:
                auction:
                  phases:
                    dappen_round:
                      ladder: [{call: dappen}, {call: blind}, {call: strecken}]
"""


def _problems(tmp_path: Path, text: str, name: str = "blind") -> list[str]:
    file = tmp_path / f"{name}.yaml"
    file.write_text(text, encoding="utf-8")
    return [f"{p.line}:{p.column}: {p.path}: {p.message}" for p in check_ruleset(str(file))]


def test_an_option_and_the_rules_for_a_table_size_are_checked_together(tmp_path: Path) -> None:
    [problem] = _problems(tmp_path, BLIND)
    assert problem.startswith(
        "30:27: auction.phases.dappen_round.compulsory.last.call: 'blind' is not a bid of this phase"
    )
    assert "(with going_blind = yes and 7 players; each alone is fine" in problem
    assert "may patch `by_players`" in problem


def test_an_option_may_patch_the_rules_for_a_number_of_players(tmp_path: Path) -> None:
    assert _problems(tmp_path, BLIND + MENDED) == []
    rs = load_ruleset(str(tmp_path / "blind.yaml"), {"going_blind": "yes"})
    seven = Game(rs, players=7, seed=1).ruleset.phase("dappen_round")
    assert [lv.call for lv in seven.ladder] == ["dappen", "blind", "strecken"]  # the option's, after the table's
    six = Game(rs, players=6, seed=1).ruleset.phase("dappen_round")
    assert [lv.call for lv in six.ladder] == ["dappen", "blind", "strecken", "stupfen"]
    # Without the option, the seven players' own ladder.
    plain = Game(load_ruleset(str(tmp_path / "blind.yaml")), players=7, seed=1).ruleset.phase("dappen_round")
    assert [lv.call for lv in plain.ladder] == ["dappen", "strecken"]


# Two table agreements, each fine alone: a Bettel with an amount of its own, and doubling, which
# needs every game's amount to read `kontra`. Together the Bettel's amount cannot be doubled.
BETTEL_KONTRA = """\
title: Dappen with a Bettel and Kontra (a test)
extends: breitnau
calls:
  bettel: {title: Bettel}
contracts:
  bettel: {title: Bettel, allowed: false, declarer_wins: "declarer_tricks == 0", amount: "20", factor: 1}
auction:
  phases:
    solo_round:
      ladder: [{call: solo}, {call: bettel}]
options:
  bettel:
    question: Is Bettel played?
    default: "no"
    choices:
      "no": {title: "No"}
      "yes": {title: "Yes", rules: {contracts: {bettel: {allowed: true}}}}
  kontra:
    question: May the game be doubled?
    default: "no"
    choices:
      "no": {title: "No"}
      "yes":
        title: Yes, once
        rules:
          announcing: {start: declarer}
          kontra: {game: {max: 1}}
          settlement: {amount: "round_up((40 - loser_points) * factor, 10) * kontra"}
"""


def test_two_options_fine_alone_but_not_together_are_reported_with_both(tmp_path: Path) -> None:
    problems = _problems(tmp_path, BETTEL_KONTRA, "bettel-kontra")
    assert len(problems) == 1, problems
    assert "the amount of bettel never reads `kontra`" in problems[0]
    assert problems[0].startswith("6:")  # the Bettel's amount, where the fix goes
    assert "(with bettel = yes and kontra = yes; each alone is fine" in problems[0]


def test_a_covering_set_has_every_two_choices_together() -> None:
    groups = [("a", ["0", "1"]), ("b", ["0", "1", "2"]), ("c", ["0", "1"]), ("d", ["0", "1", "2"]), ("e", ["0", "1"])]
    runs = _pairwise(groups)
    full = [{name: run.get(name, choices[0]) for name, choices in groups} for run in runs]
    for (a, xs), (b, ys) in itertools.combinations(groups, 2):
        for x, y in itertools.product(xs, ys):
            assert any(run[a] == x and run[b] == y for run in full), (a, x, b, y)
    assert runs[0] == {} and len(runs) < 2 * 3 * 2 * 3 * 2
    assert _pairwise([("only", ["0", "1", "2"])]) == [{}, {"only": "1"}, {"only": "2"}]


def test_too_many_combinations_are_covered_in_pairs_and_the_note_says_so() -> None:
    notes: list[str] = []
    assert check_ruleset("koenigrufen", notes) == []
    [note] = notes
    assert note.startswith("checked ") and "every two choices of two questions together" in note


BASE = """\
title: A family core (a test)
base: true
extends: cego-pack
sources:
  notes: {title: Notes}
source: "notez: p. 1"
settlement:
  declarer_wins: "declarer_pointz >= 36"
  amount: "1"
"""


def test_a_base_is_validated_as_itself(tmp_path: Path) -> None:
    problems = _problems(tmp_path, BASE, "core")
    assert problems == [
        "6:9: source: unknown source 'notez'; did you mean 'notes'? (cite a key of `sources`, then ':' and the section)",
        "8:19: settlement.declarer_wins: unknown name 'declarer_pointz'; did you mean 'declarer_points'? "
        '(in "declarer_pointz >= 36", column 1)',
    ]
    assert check_ruleset("cego-pack") == [] and check_ruleset("french-pack") == []


def test_a_null_that_removes_nothing_is_reported_with_the_nearest_name(tmp_path: Path) -> None:
    text = (
        "title: Misspelt removals (a test)\nextends: breitnau\n"
        "contracts:\n  solo:\n    titel: null\n  stupfn: null\n"
        "readings:\n  solo_factr: null\n"
        "options:\n  dealer_sitting_out:\n    choices:\n      no_part:\n"
        "        rules: {settlement: {sitting_out: no_part, unitt: null}}\n"
    )
    problems = _problems(tmp_path, text, "misspelt")
    assert problems == [
        "5:5: contracts.solo.titel: `titel: null` removes nothing: there is no contracts.solo.titel to remove; "
        "did you mean 'title'? (a misspelt name leaves the rule in place)",
        "6:3: contracts.stupfn: `stupfn: null` removes nothing: there is no contracts.stupfn to remove; "
        "did you mean 'stupfen'? (a misspelt name leaves the rule in place)",
        "8:3: readings.solo_factr: `solo_factr: null` removes nothing: there is no readings.solo_factr to remove; "
        "did you mean 'solo_factor'? (a misspelt name leaves the rule in place)",
        "13:52: options.dealer_sitting_out.choices.no_part.rules.settlement.unitt: `unitt: null` removes nothing: "
        "there is no settlement.unitt to remove; did you mean 'unit'? (a misspelt name leaves the rule in place)",
    ]
    # Spelt right, each removes something: no problem (Stupfen's ladder rung goes with it).
    fixed = text.replace("titel", "title").replace("stupfn", "stupfen").replace("solo_factr", "solo_factor")
    fixed = fixed.replace("unitt: null", "unit: cent")
    fixed += "auction:\n  phases:\n    dappen_round:\n      ladder: [{call: dappen}, {call: strecken}]\ncalls:\n  stupfen: null\n"
    assert (
        _problems(
            tmp_path,
            fixed.replace(
                "readings:\n  solo_factor: null\n", "readings:\n  solo_factor: null\n  stupfen_factor: null\n"
            ),
            "misspelt",
        )
        == []
    )


def test_an_option_may_give_rules_to_a_number_of_players_that_had_none(tmp_path: Path) -> None:
    # The option's rules for six players, where the ruleset has rules of its own for seven only.
    six = BLIND + MENDED + MENDED.split("\n", 1)[1].replace('"7"', '"6"').replace(", {call: strecken}]", "]")
    file = tmp_path / "six.yaml"
    file.write_text(six, encoding="utf-8")
    rs = load_ruleset(str(file), {"going_blind": "yes"})
    assert 6 in rs.by_players
    ladder = Game(rs, players=6, seed=1).ruleset.phase("dappen_round").ladder
    assert [lv.call for lv in ladder] == ["dappen", "blind"]
    assert [
        lv.call for lv in Game(load_ruleset(str(file)), players=6, seed=1).ruleset.phase("dappen_round").ladder
    ] == [
        "dappen",
        "strecken",
        "stupfen",
    ]


def test_the_docs_tell_an_options_rules_for_a_number_of_players(tmp_path: Path) -> None:
    from interpreter.ethnography.docgen import render

    file = tmp_path / "blind.yaml"
    file.write_text(BLIND + MENDED, encoding="utf-8")
    text = render(str(file))
    assert "With 7 players: Dappen round: bids, lowest first: dappen < blind < strecken." in text
