"""Bad input of every kind, and what the user is told about it.

The principle under test: every refusal names the place (`file:line:col: path: message`) or gives
a reason a player understands ("must follow suit (clubs): you hold CK, C9"), suggests a fix where
it can (did-you-mean), never shows a traceback, and a refused action leaves the game unchanged.

Every test asserts the *message* (and the place where one is expected), never only that something
was raised.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from interpreter import Game, IllegalActionError, InvalidActionError, Phase, RulesetError
from interpreter.engine.records import replay
from interpreter.errors import Problem, RecordError
from interpreter.language.loader import check_ruleset, load_ruleset

REPO = Path(__file__).resolve().parents[1]
PLACE = re.compile(r"^(?P<file>[^\n]+?):(?P<line>\d+):(?P<col>\d+): ")  # file:line:col: at a line's start


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    """The 1-based number of the line holding the `occurrence`-th `needle`."""
    found = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            found += 1
            if found == occurrence:
                return number
    raise AssertionError(f"{needle!r} not in the text")


def column_of(text: str, needle: str) -> int:
    """The 1-based column where `needle` starts on the first line holding it."""
    return text.splitlines()[line_of(text, needle) - 1].index(needle) + 1


# =================================================================================================
# Rulesets
# =================================================================================================


def ruleset_problems(tmp_path: Path, text: str, name: str = "variant.yaml") -> tuple[Path, list[Problem]]:
    """Write `text` (dedented) to tmp_path/name and check it."""
    file = tmp_path / name
    file.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return file, check_ruleset(str(file))


def the_problem(problems: list[Problem], needle: str) -> Problem:
    """The first problem whose message contains `needle` (fails showing every problem otherwise)."""
    matching = [p for p in problems if needle in p.message]
    assert matching, f"no problem mentions {needle!r}; got:\n" + "\n".join(map(str, problems))
    return matching[0]


def assert_placed(problem: Problem, file: Path, line: int, column: int | None, path: str) -> None:
    """`problem` stands at file:line(:column) with `path`, and prints as `file:line:col: path: ...`."""
    assert Path(problem.file).resolve() == file.resolve(), str(problem)
    assert problem.line == line, str(problem)
    if column is not None:
        assert problem.column == column, str(problem)
    assert problem.path == path, str(problem)
    assert str(problem).startswith(f"{problem.file}:{line}:{problem.column}: {path}: "), str(problem)


# A Dappen round as breitnau states it, for variants that restate `auction.phases` (lists replace).

# Three independent mistakes on lines 2, 4 and 6.
SEVERAL = """
    extends: breitnau
    contrats: {}
    play:
      first_lead: declarar
    counting:
      packet: two
    """

TRUMPZ = 'extends: breitnau\ndeck:\n  sets:\n    five_pointers: "{T22, T21, T1} | kings | trumpz"\n'


def with_phases(phase: str) -> str:
    """A variant changing one auction phase (phases are a map by name, so the rest is inherited)."""
    return (
        "extends: breitnau\nauction:\n  phases:\n" + textwrap.indent(textwrap.dedent(phase).strip("\n"), "    ") + "\n"
    )


class TestRulesets:
    """A ruleset with mistakes is refused with every problem at once, each as
    `file:line:col: path: message`, with the nearest known name where a name is misspelt.
    The small variants here `extends: breitnau` by name and state only the keys under test;
    `check_ruleset` returns the problems, `load_ruleset` raises them as one RulesetError."""

    def test_malformed_yaml_names_line_and_column(self, tmp_path):
        file, problems = ruleset_problems(tmp_path, "extends: breitnau\nplay:\n\tfirst_lead: declarer\n")
        [problem] = problems
        assert "not valid YAML" in problem.message and "'\\t'" in problem.message
        assert Path(problem.file).resolve() == file.resolve()
        assert (problem.line, problem.column) == (3, 1)
        with pytest.raises(RulesetError) as caught:  # not a yaml.YAMLError leaking out
            load_ruleset(str(file))
        assert "not valid YAML" in str(caught.value)

    def test_duplicate_key_is_refused_at_the_second_key(self, tmp_path):
        file, problems = ruleset_problems(tmp_path, "extends: breitnau\ntitle: One\ntitle: Two\n")
        problem = the_problem(problems, "duplicate key 'title'")
        assert "silently win" in problem.message
        assert_placed(problem, file, 3, 1, "title")

    def test_unknown_top_level_key_suggests_the_known_one(self, tmp_path):
        file, problems = ruleset_problems(tmp_path, "extends: breitnau\ncontrats: {}\n")
        problem = the_problem(problems, "unknown key 'contrats'")
        assert "did you mean 'contracts'?" in problem.message
        assert_placed(problem, file, 2, 1, "contrats")

    def test_unknown_key_deep_inside_names_its_path(self, tmp_path):
        file, problems = ruleset_problems(
            tmp_path,
            """
            extends: breitnau
            play:
              first_lead: declarer
              follow_siut: true
            """,
        )
        problem = the_problem(problems, "unknown key 'follow_siut'")
        assert "did you mean 'follow_suit'?" in problem.message
        assert_placed(problem, file, 4, 3, "play.follow_siut")

    def test_text_where_a_number_is_wanted(self, tmp_path):
        file, problems = ruleset_problems(tmp_path, "extends: breitnau\ncounting:\n  packet: two\n")
        problem = the_problem(problems, "expected a whole number")
        assert "got 'two'" in problem.message
        assert_placed(problem, file, 3, 11, "counting.packet")

    def test_bad_enum_value_lists_the_choices_and_suggests_one(self, tmp_path):
        file, problems = ruleset_problems(tmp_path, "extends: breitnau\nplay:\n  first_lead: declarar\n")
        problem = the_problem(problems, "'declarar'")
        assert "declarer, vorhand" in problem.message
        assert "did you mean 'declarer'?" in problem.message
        assert_placed(problem, file, 3, 15, "play.first_lead")

    def test_deal_plan_that_does_not_add_up_names_the_counts(self, tmp_path):
        file, problems = ruleset_problems(
            tmp_path,
            """
            extends: breitnau
            deal:
              plans:
                "6": [{each: 4}, {talon: 6}, {each: 3}, {talon: 5}]
            """,
        )
        problem = the_problem(problems, "packets deal")
        assert "53 cards" in problem.message
        assert "6 × 7 to the players + 11 to the talon" in problem.message
        assert "the pack has 54" in problem.message
        assert_placed(problem, file, 4, None, "deal.plans.6")

    def test_plan_for_a_player_count_not_allowed(self, tmp_path):
        file, problems = ruleset_problems(
            tmp_path,
            """
            extends: breitnau
            deal:
              plans:
                "5": [{each: 8}, {talon: 14}]
            """,
        )
        problem = the_problem(problems, "a plan for 5 players")
        assert "allows [6, 7]" in problem.message
        assert_placed(problem, file, 4, 5, "deal.plans.5")

    def test_missing_plan_for_an_allowed_player_count(self, tmp_path):
        _, problems = ruleset_problems(tmp_path, "extends: breitnau\nplayers:\n  active: [5, 6, 7]\n")
        problem = the_problem(problems, "no deal plan for 5 players")
        assert problem.path == "deal.plans"
        assert PLACE.match(str(problem)), str(problem)

    @pytest.mark.parametrize(
        "line",
        [
            '  declarer_wins: "defender_points < < 40"',
            "  declarer_wins: defender_points < < 40",
            'settlement: {declarer_wins: "defender_points < < 40"}',
        ],
        ids=["quoted", "plain", "flow"],
    )
    def test_dsl_syntax_error_column_points_into_the_expression(self, tmp_path, line):
        text = "extends: breitnau\n" + ("" if line.startswith("settlement") else "settlement:\n") + line + "\n"
        file, problems = ruleset_problems(tmp_path, text)
        problem = the_problem(problems, "unexpected '<'")
        # The message counts within the expression; the place counts within the file's line.
        assert 'in "defender_points < < 40", column 19' in problem.message
        assert_placed(problem, file, line_of(text, "< 40"), column_of(text, "< 40"), "settlement.declarer_wins")

    def test_dsl_syntax_error_in_a_folded_block_points_at_the_text(self, tmp_path):
        text = "extends: breitnau\nsettlement:\n  declarer_wins: >-\n    defender_points < < 40\n"
        file, problems = ruleset_problems(tmp_path, text)
        problem = the_problem(problems, "unexpected '<'")
        assert_placed(problem, file, 4, column_of(text, "< 40"), "settlement.declarer_wins")

    def test_dsl_unknown_name_suggests_the_nearest(self, tmp_path):
        file, problems = ruleset_problems(tmp_path, TRUMPZ)
        problem = the_problem(problems, "unknown name 'trumpz'")
        assert "did you mean 'trumps'?" in problem.message
        assert "column 26" in problem.message
        assert_placed(problem, file, 4, column_of(TRUMPZ, "trumpz"), "deck.sets.five_pointers")

    def test_dsl_mistake_in_a_set_is_reported_once_not_at_every_use(self, tmp_path):
        _, problems = ruleset_problems(tmp_path, TRUMPZ)
        assert len(problems) == len(set(problems)), "listed more than once:\n" + "\n".join(map(str, problems))
        assert [p.message.split(";")[0] for p in problems] == ["unknown name 'trumpz'"]

    def test_dsl_unknown_card_id(self, tmp_path):
        text = 'extends: breitnau\ndeck:\n  sets:\n    five_pointers: "{T23, T21, T1} | kings"\n'
        file, problems = ruleset_problems(tmp_path, text)
        problem = the_problem(problems, "unknown card 'T23'")
        assert "did you mean" in problem.message
        assert_placed(problem, file, 4, column_of(text, "T23"), "deck.sets.five_pointers")

    def test_dsl_unknown_function_suggests_the_nearest(self, tmp_path):
        text = 'extends: breitnau\nclaim:\n  when: "cnt(hand & five_pointers) == 7"\n'
        file, problems = ruleset_problems(tmp_path, text)
        problem = the_problem(problems, "unknown function 'cnt'")
        assert "did you mean 'count'?" in problem.message
        assert_placed(problem, file, 3, column_of(text, "cnt"), "claim.when")

    def test_ladder_naming_no_contract(self, tmp_path):
        text = with_phases("""
            solo_round:
              ladder: [{call: sollo}]
            """)
        file, problems = ruleset_problems(tmp_path, text)
        problem = the_problem(problems, "no contract named 'sollo'")
        assert "did you mean 'solo'?" in problem.message
        assert_placed(problem, file, line_of(text, "sollo"), None, "auction.phases.solo_round.ladder[0].call")

    def test_pass_out_naming_no_phase(self, tmp_path):
        text = with_phases("""
            solo_round:
              then: {pass_out: dapen_round}
            """)
        file, problems = ruleset_problems(tmp_path, text)
        problem = the_problem(problems, "no phase named 'dapen_round'")
        assert "did you mean 'dappen_round'?" in problem.message
        assert_placed(
            problem,
            file,
            line_of(text, "dapen_round"),
            column_of(text, "dapen_round"),
            "auction.phases.solo_round.then.pass_out",
        )

    def test_like_naming_no_contract(self, tmp_path):
        file, problems = ruleset_problems(tmp_path, "extends: breitnau\ncontracts:\n  strecken:\n    like: dapen\n")
        problem = the_problem(problems, "no contract named 'dapen'")
        assert "did you mean 'dappen'?" in problem.message
        assert_placed(problem, file, 4, 11, "contracts.strecken.like")

    def test_like_cycle_shows_the_circle(self, tmp_path):
        file, problems = ruleset_problems(
            tmp_path,
            """
            extends: breitnau
            contracts:
              aa: {like: bb, factor: 1}
              bb: {like: aa, factor: 1}
            """,
        )
        problem = the_problem(problems, "goes round in a circle")
        assert re.search(r"aa -> bb -> aa|bb -> aa -> bb", problem.message)
        assert Path(problem.file).resolve() == file.resolve() and problem.line in (3, 4)

    def test_like_cycle_closed_in_a_variant_is_reported_once_where_it_was_closed(self, tmp_path):
        file, problems = ruleset_problems(tmp_path, "extends: breitnau\ncontracts:\n  dappen:\n    like: stupfen\n")
        cycles = [p for p in problems if "circle" in p.message]
        assert len(cycles) == 1, "\n".join(map(str, cycles))
        assert_placed(cycles[0], file, 4, 11, "contracts.dappen.like")

    def test_extends_cycle_between_two_files_shows_the_chain(self, tmp_path):
        (tmp_path / "b.yaml").write_text("extends: a.yaml\ntitle: B\n", encoding="utf-8")
        _, problems = ruleset_problems(tmp_path, "extends: b\ntitle: A\n", name="a.yaml")
        problem = the_problem(problems, "extends cycle")
        assert "a -> b -> a" in problem.message
        assert_placed(problem, tmp_path / "b.yaml", 1, 10, "extends")

    def test_missing_base_suggests_the_nearest(self, tmp_path):
        file, problems = ruleset_problems(tmp_path, "extends: breitnua\ntitle: Typo\n")
        problem = the_problem(problems, "'breitnua'")
        assert "did you mean 'breitnau'?" in problem.message
        assert_placed(problem, file, 1, 10, "extends")

    def test_missing_base_says_that_no_such_ruleset_exists(self, tmp_path):
        _, problems = ruleset_problems(tmp_path, "extends: breitnua\ntitle: Typo\n")
        problem = the_problem(problems, "'breitnua'")
        assert re.search(r"no ruleset named 'breitnua'|'breitnua' (is not found|does not exist)", problem.message)

    def test_unknown_source_key_suggests_the_nearest(self, tmp_path):
        file, problems = ruleset_problems(
            tmp_path,
            """
            extends: breitnau
            play:
              first_lead: declarer
              source: "dapen-en: somewhere"
            """,
        )
        problem = the_problem(problems, "unknown source 'dapen-en'")
        assert "did you mean 'dappen-en'?" in problem.message
        assert_placed(problem, file, 4, 11, "play.source")

    def test_reading_default_not_among_its_choices(self, tmp_path):
        file, problems = ruleset_problems(
            tmp_path, "extends: breitnau\nreadings:\n  solo_factor:\n    default: leaflett\n"
        )
        problem = the_problem(problems, "the default 'leaflett' is not one of the choices")
        assert "did you mean 'leaflet'?" in problem.message
        assert_placed(problem, file, 4, 14, "readings.solo_factor.default")

    def test_several_errors_are_reported_all_at_once(self, tmp_path):
        file, problems = ruleset_problems(tmp_path, SEVERAL)
        assert len(problems) == 3, "\n".join(map(str, problems))
        for problem in problems:
            match = PLACE.match(str(problem))
            assert match and Path(match["file"]).resolve() == file.resolve(), str(problem)
        assert sorted(p.line for p in problems) == [2, 4, 6]
        with pytest.raises(RulesetError) as caught:  # loading refuses with the same three
            load_ruleset(str(file))
        assert sorted(map(str, caught.value.problems)) == sorted(map(str, problems))
        assert len(str(caught.value).splitlines()) == 3

    def test_several_errors_come_in_the_order_of_the_file(self, tmp_path):
        _, problems = ruleset_problems(tmp_path, SEVERAL)
        assert [p.line for p in problems] == [2, 4, 6]

    def test_unknown_reading_or_option_suggests_the_nearest(self):
        with pytest.raises(RulesetError) as caught:
            load_ruleset("breitnau", {"solo_factr": "english"})
        [problem] = caught.value.problems
        assert "no reading or option named 'solo_factr'" in problem.message
        assert "did you mean 'solo_factor'?" in problem.message

    def test_unknown_choice_of_a_reading_suggests_the_nearest(self):
        with pytest.raises(RulesetError) as caught:
            load_ruleset("breitnau", {"solo_factor": "englsh"})
        [problem] = caught.value.problems
        assert problem.path == "options.solo_factor"
        assert "no choice 'englsh'" in problem.message and "did you mean 'english'?" in problem.message


# =================================================================================================
# Game records
# =================================================================================================

# The deal of tests/records/breitnau-dappen-won.yaml: seat 3 dapps, discards and leads T20.
HANDS = [
    ["T21", "T16", "T14", "T12", "C10", "H2", "H3"],  # seat 0, dealer
    ["T9", "T8", "T3", "SJ", "S10", "DQ", "DJ"],  # seat 1, Vorhand
    ["T17", "T4", "CQ", "HN", "HJ", "DN", "DA"],
    ["T22", "T20", "T18", "T15", "T10", "S8", "DK"],
    ["T6", "T1", "CJ", "C8", "SK", "S9", "H4"],
    ["T11", "T7", "T5", "T2", "CN", "HK", "D2"],
]
TALON = ["T19", "T13", "CK", "C9", "C7", "SQ", "SN", "S7", "HQ", "HA", "D3", "D4"]
ALL_PASS = [[s, "pass"] for s in (1, 2, 3, 4, 5, 0)]  # one auction round, nobody bids
SEAT_3_DAPPS = ALL_PASS + [[1, "pass"], [2, "pass"], [3, "dappen"], [4, "pass"], [5, "pass"], [0, "pass"]]
SEAT_3_DISCARD = ["T10", "S8", "T13", "C9", "C7", "SQ", "SN", "S7", "HQ", "HA", "D3", "D4"]
SEAT_3_LEADS = SEAT_3_DAPPS + [[3, {"discard": SEAT_3_DISCARD}], [3, {"play": "T20"}]]


def write_record(
    tmp_path: Path,
    *,
    hands=HANDS,
    talon=TALON,
    actions=SEAT_3_LEADS,
    expect=None,
    ruleset="breitnau",
    players=6,
    top: str = "",
) -> tuple[Path, str]:
    """A record file with one hand, one action and one expectation per line; `top` adds a line."""
    lines = [f"ruleset: {ruleset}", f"players: {players}", "dealer: 0", *filter(None, [top]), "deal:", "  hands:"]
    lines += [f"    - {json.dumps(hand)}" for hand in hands]
    lines += [f"  talon: {json.dumps(talon)}"]
    if actions is not None:
        lines += ["actions:" if actions else "actions: []"] + [f"  - {json.dumps(action)}" for action in actions]
    if expect:
        lines += ["expect:"] + [f"  {key}: {json.dumps(value)}" for key, value in expect.items()]
    text = "\n".join(lines) + "\n"
    file = tmp_path / "record.yaml"
    file.write_text(text, encoding="utf-8")
    return file, text


def refused_record(file: Path) -> list[Problem]:
    """The problems of a record that cannot even start."""
    with pytest.raises(RecordError) as caught:
        replay(file)
    return caught.value.problems


def with_card(hands, seat: int, index: int, card: str) -> list[list[str]]:
    hands = [list(h) for h in hands]
    hands[seat][index] = card
    return hands


class TestRecords:
    """A record that cannot start raises RecordError with the place in the record file; one that
    starts but goes wrong replays to a report whose failures name the place, the action and the
    reason (`expect` mismatches show what was expected and what came)."""

    def test_card_dealt_twice_names_the_card_and_both_places(self, tmp_path):
        file, _ = write_record(tmp_path, hands=with_card(HANDS, 1, 0, "T21"))
        problem = the_problem(refused_record(file), "dealt twice")
        assert "T21 is dealt twice: to seat 0 and to seat 1" in problem.message
        assert problem.path.startswith("deal") and PLACE.match(str(problem)), str(problem)

    def test_unknown_card_in_a_deal_suggests_the_nearest(self, tmp_path):
        file, _ = write_record(tmp_path, hands=with_card(HANDS, 1, 0, "T23"))
        problem = the_problem(refused_record(file), "unknown card 'T23'")
        assert "seat 1" in problem.message and "did you mean" in problem.message
        assert PLACE.match(str(problem)), str(problem)

    def test_unknown_card_in_a_deal_is_placed_at_its_hand(self, tmp_path):
        file, text = write_record(tmp_path, hands=with_card(HANDS, 1, 0, "T23"))
        problem = the_problem(refused_record(file), "unknown card 'T23'")
        assert problem.line == line_of(text, "T23")
        assert problem.path.startswith("deal.hands[1]")

    def test_hand_of_the_wrong_size(self, tmp_path):
        hands = [list(h) for h in HANDS]
        hands[1].append(TALON[0])
        file, _ = write_record(tmp_path, hands=hands, talon=TALON[1:])
        problems = refused_record(file)
        assert "seat 1 must be dealt 7 cards, got 8" in the_problem(problems, "seat 1").message
        assert "the talon must have 12 cards, got 11" in the_problem(problems, "talon").message

    def test_record_without_actions(self, tmp_path):
        file, _ = write_record(tmp_path, actions=None)
        problem = the_problem(refused_record(file), "actions")
        assert problem.message == "missing 'actions'"
        assert PLACE.match(str(problem)), str(problem)

    def test_unknown_key_in_a_record_suggests_the_nearest(self, tmp_path):
        file, text = write_record(tmp_path, actions=[], top="expekt: {}")
        problem = the_problem(refused_record(file), "unknown key 'expekt'")
        assert "did you mean 'expect'?" in problem.message
        assert problem.line == line_of(text, "expekt")

    def test_unknown_ruleset_name_in_a_record(self, tmp_path):
        file, _ = write_record(tmp_path, ruleset="breitnua", actions=[])
        problem = the_problem(refused_record(file), "'breitnua'")
        assert "did you mean 'breitnau'?" in problem.message
        assert (problem.line, problem.path) == (1, "ruleset")

    def test_player_count_not_allowed_in_a_record(self, tmp_path):
        file, text = write_record(tmp_path, players=5, actions=[])
        problem = the_problem(refused_record(file), "not 5")
        assert "6, 7 or 8" in problem.message
        assert problem.line == line_of(text, "players:")

    def test_malformed_record_yaml(self, tmp_path):
        file = tmp_path / "broken.yaml"
        file.write_text("ruleset: breitnau\nplayers: 6\nseed: 1\nactions:\n  - [1, pass\n  - [2, pass]\n")
        [problem] = refused_record(file)
        assert "not valid YAML" in problem.message
        assert PLACE.match(str(problem)) and problem.line >= 5, str(problem)

    def test_record_with_both_deal_and_seed(self, tmp_path):
        file, _ = write_record(tmp_path, actions=[], top="seed: 1")
        [problem] = refused_record(file)
        assert re.search(r"either .*(deal|seed)|(deal|seed).* not both", problem.message), problem.message
        assert "{'ruleset'" not in problem.message

    def test_record_with_neither_deal_nor_seed(self, tmp_path):
        file = tmp_path / "record.yaml"
        file.write_text("ruleset: breitnau\nplayers: 6\nactions: []\n")
        [problem] = refused_record(file)
        assert "deal" in problem.message and "seed" in problem.message

    def test_unknown_option_in_a_record_is_placed_at_options(self, tmp_path):
        file, text = write_record(tmp_path, actions=[], top="options: {solo_factr: english}")
        problem = the_problem(refused_record(file), "solo_factr")
        assert "did you mean 'solo_factor'?" in problem.message
        assert problem.line == line_of(text, "options:")

    def test_action_out_of_turn_says_whose_turn_it_is(self, tmp_path):
        file, text = write_record(tmp_path, actions=[[2, "pass"]])
        report = replay(file)
        assert not report.ok and report.refused_at == 0
        [failure] = report.failures
        assert "it is seat 1's turn, not seat 2's" in failure
        match = PLACE.match(failure)
        assert match and int(match["line"]) == line_of(text, "[2, "), failure

    def test_revoke_in_a_record_says_must_follow_suit(self, tmp_path):
        # Trumps are led (T20); seat 4 holds T6 and T1 but plays a club.
        file, text = write_record(tmp_path, actions=SEAT_3_LEADS + [[4, {"play": "CJ"}]])
        report = replay(file)
        [failure] = report.failures
        assert report.refused_at == len(SEAT_3_LEADS)
        assert "must follow suit (trumps): you hold T6, T1" in failure
        assert int(PLACE.match(failure)["line"]) == line_of(text, "CJ", occurrence=2)

    def test_discarding_a_king_in_breitnau(self, tmp_path):
        discard = ["DK"] + SEAT_3_DISCARD[1:]
        file, _ = write_record(tmp_path, actions=SEAT_3_DAPPS + [[3, {"discard": discard}]])
        [failure] = replay(file).failures
        assert "may not be discarded: DK" in failure

    def test_expect_illegal_reason_is_checked(self, tmp_path):
        file, _ = write_record(
            tmp_path, actions=[[2, "pass"]], expect={"illegal": {"at": 0, "reason": "must follow suit"}}
        )
        [failure] = replay(file).failures
        assert "refused as expected" in failure
        assert "it is seat 1's turn" in failure and "must follow suit" in failure

    def test_expect_payments_mismatch_shows_expected_and_got(self, tmp_path):
        file, text = write_record(tmp_path, actions=ALL_PASS * 2, expect={"payments": [10, 0, 0, 0, 0, -10]})
        [failure] = replay(file).failures
        assert "expected [10, 0, 0, 0, 0, -10], got [0, 0, 0, 0, 0, 0]" in failure
        assert int(PLACE.match(failure)["line"]) == line_of(text, "payments")

    def test_expect_illegal_at_an_action_that_is_legal(self, tmp_path):
        file, _ = write_record(tmp_path, actions=ALL_PASS[:3], expect={"illegal": {"at": 1}})
        [failure] = replay(file).failures
        assert "action 1 should have been refused, but it was accepted" in failure

    def test_expect_illegal_at_a_legal_action_names_the_place(self, tmp_path):
        file, text = write_record(tmp_path, actions=ALL_PASS[:3], expect={"illegal": {"at": 1}})
        [failure] = replay(file).failures
        match = PLACE.match(failure)
        assert match and int(match["line"]) in (line_of(text, "illegal"), line_of(text, "[2, ")), failure


# =================================================================================================
# Actions on a live game
# =================================================================================================


def snapshot(game: Game):
    return game.view("all"), len(game.events), list(game.history), game.legal_actions()


def refuse(game: Game, seat, action, error: type[Exception], *needles: str) -> str:
    """Apply `action`, expect `error` with every needle in its message, and no change to the game."""
    before = snapshot(game)
    with pytest.raises(error) as caught:
        game.apply(seat, action)
    message = str(caught.value)
    for needle in needles:
        assert needle in message, message
    assert snapshot(game) == before, f"the game changed although {action!r} was refused"
    return message


def new_game(seed: int = 1) -> Game:
    return Game("breitnau", players=6, seed=seed)


def game_in_exchange(seed: int = 1) -> Game:
    """Nobody bids Solo; seat 1 dapps and the others pass: seat 1 is to discard 12."""
    game = new_game(seed)
    for seat, call in ALL_PASS:
        game.apply(seat, call)
    game.apply(1, "dappen")
    for seat in (2, 3, 4, 5, 0):
        if game.phase is not Phase.AUCTION:  # the auction ends when nobody can change it
            break
        game.apply(seat, "pass")
    assert game.phase is Phase.EXCHANGE and game.to_act == 1
    return game


def game_in_play(seed: int = 1) -> Game:
    """As game_in_exchange, then seat 1 discards 12 allowed cards and is to lead."""
    game = game_in_exchange(seed)
    [template] = game.legal_actions()
    game.apply(1, {"discard": template["discard"]["from"][:12]})
    assert game.phase is Phase.PLAY and game.to_act == 1
    return game


class TestActionsOnALiveGame:
    """A refused action raises InvalidActionError (not an action at all) or IllegalActionError
    (not allowed now) with a reason for the player, and changes nothing: the umpire's view, the
    events, the history and the legal actions are the same before and after."""

    def test_unknown_call_suggests_the_nearest(self):
        refuse(new_game(), 1, "dapen", InvalidActionError, "unknown call 'dapen'", "did you mean 'dappen'?")

    def test_call_of_another_phase_lists_what_may_be_said(self):
        refuse(
            new_game(),
            1,
            "strecken",
            IllegalActionError,
            "'strecken' is not a bid in the Solo round",
            "you may say: pass, solo",
        )

    def test_card_during_the_auction(self):
        refuse(new_game(), 1, {"play": "T21"}, IllegalActionError, "it is time for a call", "playing T21")

    @pytest.mark.parametrize(
        "action, needles",
        [
            (5, ["a call (text) or a mapping", "not int"]),
            (["pass"], ["a call (text) or a mapping", "not list"]),
            (None, ["a call (text) or a mapping", "not NoneType"]),
            ({"play": "T1", "discard": ["T2"]}, ["exactly one of", "got keys play, discard"]),
            ({}, ["exactly one of", "got keys none"]),
            ({"play": "T1", "with": "style"}, ["unexpected key(s) in a play action: with"]),
            ({"discard": "T1"}, ["discard takes a list of cards"]),
            ({"announce": "ulti"}, ["breitnau", "announce"]),  # breitnau has no announcements
        ],
        ids=["number", "list", "none", "two-kinds", "empty-mapping", "extra-key", "discard-not-list", "unused-kind"],
    )
    def test_malformed_action(self, action, needles):
        refuse(new_game(), 1, action, InvalidActionError, *needles)

    def test_unknown_card_id_suggests_the_nearest(self):
        refuse(new_game(), 1, {"play": "T99"}, InvalidActionError, "unknown card 'T99'", "did you mean 'T9'?")

    @pytest.mark.parametrize("seat", [6, -1, True, "1", None])
    def test_seat_out_of_range(self, seat):
        refuse(new_game(), seat, "pass", InvalidActionError, f"no seat {seat!r}", "seats are 0 to 5")

    def test_action_out_of_turn_says_whose_turn_it_is(self):
        refuse(new_game(), 2, "pass", IllegalActionError, "it is seat 1's turn, not seat 2's")

    def test_call_during_the_exchange(self):
        refuse(game_in_exchange(), 1, "pass", IllegalActionError, "it is time for a discard")

    def test_discard_of_the_wrong_count(self):
        game = game_in_exchange()
        refuse(game, 1, {"discard": game.hands[1][:11]}, IllegalActionError, "discard exactly 12 cards, not 11")

    def test_discard_naming_a_card_twice(self):
        game = game_in_exchange()
        card = game.hands[1][0]
        refuse(
            game,
            1,
            {"discard": [card, card] + game.hands[1][2:12]},
            IllegalActionError,
            f"a card is named twice: {card}",
        )

    def test_discard_of_a_card_not_held(self):
        game = game_in_exchange()
        stranger = game.hands[2][0]
        refuse(game, 1, {"discard": game.hands[1][:11] + [stranger]}, IllegalActionError, f"you do not hold {stranger}")

    def test_discard_of_a_five_pointer_is_refused_with_the_rule(self):
        game = game_in_exchange()
        [template] = game.legal_actions()
        forbidden = template["discard"]["forbidden"]
        assert forbidden, "this deal should give seat 1 a king or a five-point trump"
        discard = [forbidden[0]] + template["discard"]["from"][:11]
        refuse(game, 1, {"discard": discard}, IllegalActionError, "may not be discarded", forbidden[0])

    def test_call_during_play(self):
        refuse(game_in_play(), 1, "pass", IllegalActionError, "it is time for a card to play", "the call 'pass'")

    def test_card_not_held_during_play(self):
        game = game_in_play()
        stranger = game.hands[2][0]
        refuse(game, 1, {"play": stranger}, IllegalActionError, f"you do not hold {stranger}")

    def test_revoke_names_the_suit_and_the_cards_that_follow(self):
        # Seat 1 leads a suit that seat 2 holds besides other cards; seat 2 plays one of the others.
        game = game_in_play()
        deck = game.ruleset.deck
        follower = game.hands[2]
        lead = next(
            c
            for c in game.hands[1]
            if any(deck.suit[f] == deck.suit[c] for f in follower)
            and any(deck.suit[f] != deck.suit[c] for f in follower)
        )
        game.apply(1, {"play": lead})
        legal = [a["play"] for a in game.legal_actions()]
        revoke = next(c for c in follower if c not in legal)
        message = refuse(
            game,
            2,
            {"play": revoke},
            IllegalActionError,
            f"must follow suit ({deck.suit_names[deck.suit[lead]]}): you hold ",
        )
        assert set(message.split("you hold ")[1].split(", ")) == set(legal)

    def test_action_after_the_deal_is_over(self):
        game = new_game()
        for seat, call in ALL_PASS * 2:
            game.apply(seat, call)
        assert game.is_over and game.result.outcome == "thrown_in"
        refuse(game, 1, "pass", IllegalActionError, "the deal is over")

    def test_table_size_not_allowed(self):
        with pytest.raises(InvalidActionError) as caught:
            Game("breitnau", players=5)
        assert "breitnau is played by 6, 7 or 8 at the table, not 5" in str(caught.value)

    def test_view_of_a_seat_that_does_not_exist(self):
        with pytest.raises(InvalidActionError) as caught:
            new_game().view(9)
        assert "no seat 9" in str(caught.value) and '"all"' in str(caught.value)


# =================================================================================================
# The command line
# =================================================================================================


def tarock(*args: str) -> subprocess.CompletedProcess:
    """Run `python -m interpreter ARGS` in the repository; no traceback may ever be printed."""
    result = subprocess.run(
        [sys.executable, "-m", "interpreter", *args], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    return result


class TestCommandLine:
    """`python -m interpreter`: errors go to stderr as one clear line each, never a traceback;
    exit status 1 when a check fails and 2 on bad usage (docs/design.md)."""

    def test_validate_a_broken_file(self, tmp_path):
        file = tmp_path / "broken.yaml"
        file.write_text(textwrap.dedent(SEVERAL).lstrip("\n"), encoding="utf-8")
        result = tarock("validate", str(file))
        assert result.returncode == 1
        lines = result.stderr.splitlines()
        assert len(lines) == 3, result.stderr
        for line in lines:
            match = PLACE.match(line)
            assert match and Path(match["file"]).resolve() == file.resolve(), line
        assert "did you mean 'contracts'?" in result.stderr
        assert "3 problem(s)" in result.stdout

    def test_play_misspelt_ruleset_suggests_the_nearest(self):
        result = tarock("play", "breitnua")
        assert result.returncode != 0
        assert "no ruleset named 'breitnua'; did you mean 'breitnau'?" in result.stderr

    def test_play_unknown_ruleset_lists_the_known_ones(self):
        result = tarock("play", "nosuchgame")
        assert result.returncode != 0
        assert "no ruleset named 'nosuchgame'" in result.stderr and "breitnau" in result.stderr

    def test_play_unknown_ruleset_suggests_only_playable_ones(self):
        result = tarock("play", "nosuchgame")
        assert "breitnau" in result.stderr
        assert "cego-pack" not in result.stderr and "french-pack" not in result.stderr

    def test_play_with_a_table_size_not_allowed(self):
        result = tarock("play", "breitnau", "--players", "5")
        assert result.returncode == 2
        assert "breitnau is played by 6, 7 or 8 at the table, not 5" in result.stderr
        assert len(result.stderr.splitlines()) == 1, result.stderr

    def test_play_with_an_unknown_option(self):
        result = tarock("play", "breitnau", "--option", "solo_factr=english")
        assert result.returncode != 0
        assert "no reading or option named 'solo_factr'; did you mean 'solo_factor'?" in result.stderr
        assert result.stdout == ""

    def test_play_with_an_option_without_a_choice(self):
        result = tarock("play", "breitnau", "--option", "solo_factor")
        assert result.returncode == 2
        assert "--option takes NAME=CHOICE, not 'solo_factor'" in result.stderr

    @pytest.mark.parametrize(
        "args",
        [
            ["play", "nosuchgame"],
            ["play", "breitnua"],
            ["play", "breitnau", "--option", "solo_factr=english"],
            ["play", "breitnau", "--players", "5"],
            ["play", "breitnau", "--option", "solo_factor"],
            ["play", "breitnau", "--human", "9"],
        ],
        ids=["unknown-ruleset", "misspelt-ruleset", "unknown-option", "players", "option-shape", "human-seat"],
    )
    def test_bad_usage_exits_2(self, args):
        result = tarock(*args)
        assert result.returncode == 2, result.stderr
        assert result.stderr.strip(), "bad usage must say what is wrong"

    def test_replay_a_failing_record(self, tmp_path):
        file, _ = write_record(tmp_path, actions=[[2, "pass"]])
        result = tarock("replay", str(file))
        assert result.returncode == 1
        assert "it is seat 1's turn, not seat 2's" in result.stderr
        assert PLACE.match(result.stderr), result.stderr
        assert "FAILED" in result.stdout

    def test_replay_a_record_that_cannot_start(self, tmp_path):
        file, _ = write_record(tmp_path, hands=with_card(HANDS, 1, 0, "T21"))
        result = tarock("replay", str(file))
        assert result.returncode == 1
        assert "T21 is dealt twice" in result.stderr and PLACE.match(result.stderr), result.stderr

    def test_replay_a_missing_file(self, tmp_path):
        result = tarock("replay", str(tmp_path / "nowhere.yaml"))
        assert result.returncode == 1
        assert "cannot read the record" in result.stderr and "nowhere.yaml" in result.stderr

    def test_validate_a_missing_file(self, tmp_path):
        result = tarock("validate", str(tmp_path / "nowhere.yaml"))
        assert result.returncode == 1
        assert re.search(r"no such file|does not exist|cannot (read|find) the file", result.stderr, re.I), result.stderr
