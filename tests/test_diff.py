"""`tarock diff`: differences in meaning, not in text, each one sentence with both sides' values
and sources. The meaning is the compiled ruleset's, so what the compiler would fill in (a
default, `like`) never shows as a difference."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from interpreter.ethnography.diff import compare, report
from interpreter.ethnography.semantic import Expr, read
from interpreter.frontends.cli import main
from interpreter.language.loader import check_ruleset, find_ruleset_file, resolve, ruleset_names

ROOT = Path(__file__).parent.parent


def tarock(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The command line, in this process: (exit status, stdout, stderr)."""
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


def variant(tmp_path: Path, text: str, name: str = "variant") -> str:
    file = tmp_path / f"{name}.yaml"
    file.write_text(text, encoding="utf-8")
    assert check_ruleset(str(file)) == [], "the test variant itself must be valid"
    return str(file)


def changes(a: str, b: str) -> list[Any]:
    return compare(read(a), read(b))


# -- nothing where nothing differs ---------------------------------------------------------------


def test_every_ruleset_against_itself_is_empty() -> None:
    for name in ruleset_names():
        assert changes(name, name) == [], name


def _shuffled(data: Any, rnd: random.Random, path: tuple[str, ...] = ()) -> Any:
    if isinstance(data, dict):
        items = list(data.items())
        # The first phase listed opens the auction, and a named set may use those before it: meaning.
        if path[-2:] not in (("auction", "phases"), ("deck", "sets")):
            rnd.shuffle(items)
        return {k: _shuffled(v, rnd, path + (k,)) for k, v in items}
    if isinstance(data, list):
        return [_shuffled(v, rnd, path) for v in data]
    return data


def _level_defaults(level: dict[str, Any], declare: bool, holdable: bool = True) -> None:
    if holdable:
        level.setdefault("holdable", True)
    if not declare and level.get("ends") != "throw_in":
        level.setdefault("contract", level["call"])


def spelled_out(data: dict[str, Any]) -> dict[str, Any]:
    """A ruleset's merged rules with every default the language fills in written out, as the
    schema's descriptions state them (an independent statement of the defaults: the compiler's
    must agree)."""
    data = copy.deepcopy(data)
    play = data.setdefault("play", {})
    for key, value in (("first_lead", "declarer"), ("follow_suit", True), ("when_void", "trump"), ("must_beat", False)):
        play.setdefault(key, value)
    if isinstance(play.get("withhold"), dict):
        play["withhold"].setdefault("by", "defenders")
    for i, entry in enumerate(play.get("schedule") or []):
        entry.setdefault("trick", i + 1)
    counting = data.setdefault("counting", {})
    for key, value in (("packet", 1), ("packet_deduct", 0), ("remainder_deduct", 0)):
        counting.setdefault(key, value)
    counting.setdefault("aside", {}).setdefault("counts_for", "declarer")
    settlement = data.setdefault("settlement", {})
    for key, value in (("unit", "point"), ("payment", "each_defender"), ("sitting_out", "no_part")):
        settlement.setdefault(key, value)
    auction = data.setdefault("auction", {})
    auction.setdefault("breaches", "refuse")
    phases = auction.get("phases") or {}
    if phases:
        auction.setdefault("first", next(iter(phases)))
    for phase in phases.values():
        declare = phase.get("style") == "declare"
        for key, value in (
            ("raise", "next"),
            ("carried_may_hold", True),
            ("style", "duel"),
            ("speakers", "all"),
            ("start", "vorhand"),
        ):
            phase.setdefault(key, value)
        phase.setdefault("then", {}).setdefault("pass_out", "throw_in")
        for level in phase.get("ladder") or []:
            _level_defaults(level, declare)
        for level in phase.get("interrupts") or []:
            _level_defaults(level, False)
        for level in phase.get("side_bids") or []:
            _level_defaults(level, False, holdable=False)
        for levels in (phase["then"].get("choose") or {}).values():
            for level in levels:
                _level_defaults(level, False)
    for contract in (data.get("contracts") or {}).values():
        if "like" in contract:
            continue  # what it does not state comes from the contract it is like
        for key, value in (("talon_counts", True), ("open_hand", False), ("talon_to_last_trick", False)):
            contract.setdefault(key, value)
        factor = contract.get("factor")
        if factor is not None and not isinstance(factor, dict):
            contract["factor"] = {"won": factor, "lost": factor}
        if isinstance(contract.get("individual"), dict):
            contract["individual"].setdefault("ties", "all")
        if isinstance(contract.get("opening_leads"), dict):
            for key in ("replace_same_suit", "together", "declarer_leads_after"):
                contract["opening_leads"].setdefault(key, False)
        for step in contract.get("exchange") or []:
            if isinstance(step.get("keep"), dict):
                for key in ("same_suit", "different_suits", "exposed"):
                    step["keep"].setdefault(key, False)
            if isinstance(step.get("forced_discard"), dict):
                step["forced_discard"].setdefault("shown", True)
    if isinstance(data.get("claim"), dict):
        data["claim"].setdefault("liable", True)
    for announcement in (data.get("announcements") or {}).values():
        if isinstance(announcement.get("declares"), dict):
            announcement["declares"].setdefault("multiplier", 1)
            announcement["declares"].setdefault("releases_exposed", False)
    if isinstance(data.get("penalties"), dict):
        data["penalties"].setdefault("mode", "refuse")
    data.setdefault("players", {}).setdefault("dealer_sits_out", [])
    data["players"].setdefault("sit_out", {})
    return data


SPELLED = ["breitnau", "furtwangen", "cego", "cego-ministranten", "tapp-modern", "carneval"]


@pytest.mark.parametrize("name", SPELLED)
def test_a_copy_that_writes_out_its_defaults_is_empty(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The merged rules in one file, keys shuffled, flow or block style, every default written
    out: the same ruleset."""
    data = resolve(name).data
    copy_file = tmp_path / f"spelled-{name}.yaml"
    copy_file.write_text(
        yaml.safe_dump(
            _shuffled(spelled_out(data), random.Random(7)),
            sort_keys=False,
            allow_unicode=True,
            default_flow_style=SPELLED.index(name) % 2 == 0,
            width=70,
        ),
        encoding="utf-8",
    )
    assert changes(name, str(copy_file)) == []
    assert tarock(capsys, "diff", name, str(copy_file)) == (0, "", "")


def test_the_copies_really_write_the_defaults_out() -> None:
    before = resolve("breitnau").data
    after = spelled_out(before)
    assert "raise" not in before["auction"]["phases"]["dappen_round"]
    assert after["auction"]["phases"]["dappen_round"]["raise"] == "next"
    assert "talon_counts" not in before["contracts"]["dappen"] and after["contracts"]["dappen"]["talon_counts"] is True


def test_a_rule_moved_into_a_base_file_is_empty(tmp_path: Path) -> None:
    data = yaml.safe_load(find_ruleset_file("breitnau").read_text(encoding="utf-8"))
    moved = ("contracts", "play", "counting", "claim")
    base = {
        "base": True,
        "title": "Dappen rules shared by the test",
        "extends": data["extends"],
        **{k: data[k] for k in moved},
    }
    rest = {k: v for k, v in data.items() if k not in moved}
    rest["extends"] = "shared-core"
    (tmp_path / "shared-core.yaml").write_text(
        yaml.safe_dump(base, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    file = variant(tmp_path, yaml.safe_dump(rest, allow_unicode=True, sort_keys=False), "moved")
    assert changes("breitnau", file) == []


def test_the_same_meaning_written_differently_is_empty(tmp_path: Path) -> None:
    # `like` resolved, a factor 2 = {won: 2, lost: 2}, the settlement's formula written into a
    # contract, expressions by syntax tree
    file = variant(
        tmp_path,
        """
title: The same, written out
extends: breitnau
contracts:
  strecken:
    like: null
    title: Strecken
    factor: {won: 2, lost: 2}
    exchange:
      - take_talon: {}
      - discard: {count: 12, forbid: {when: "(card  in five_pointers)", reason: "other words"}}
  dappen:
    amount: "round_up((40 - loser_points) * factor, 10)"
    declarer_wins: "40 > defender_points"
play: {first_lead: declarer, follow_suit: true, when_void: trump, must_beat: false}
settlement:
  declarer_wins: "40 >  defender_points"
""",
    )
    assert changes("breitnau", file) == []


def test_expressions_compare_by_meaning_of_their_syntax() -> None:
    assert Expr("a and (b or c)") == Expr("(c or b) and a")
    assert Expr("x > 3") == Expr("3 < x")
    assert Expr("{T1, T2} | kings") == Expr("kings | {T2,T1}")
    assert Expr("a - b") != Expr("b - a")
    assert Expr("x >= 3") != Expr("x > 3")


# -- real differences ----------------------------------------------------------------------------


def test_a_changed_factor_is_one_change(tmp_path: Path) -> None:
    file = variant(tmp_path, "title: T\nextends: breitnau\ncontracts:\n  dappen: {factor: 2}\n")
    [change] = changes("breitnau", file)
    assert change.kind == "changed" and change.rule == "contract.factor"
    assert change.path == ("contracts", "dappen", "factor")
    assert (change.a, change.b) == ({"won": 1, "lost": 1}, {"won": 2, "lost": 2})
    assert change.message == "Dappen factor: ×1 (breitnau) vs ×2 (variant)"
    assert change.a_provenance.source == "dappen-en: Breitnau version; dappen-de §8"
    assert change.a_provenance.status == "reported"
    assert change.b_provenance.source is None  # the variant gave none for its own value


def test_a_changed_default_is_a_change(tmp_path: Path) -> None:
    # Writing a default out is nothing; changing it is something.
    file = variant(tmp_path, "title: T\nextends: breitnau\ncontracts:\n  solo: {open_hand: true}\n")
    [change] = changes("breitnau", file)
    assert change.message == (
        "Solo hands: hidden (breitnau) vs the lone player's hand is laid face up from the first lead (variant)"
    )


def test_a_removed_contract_shows_both_sides(tmp_path: Path) -> None:
    file = variant(
        tmp_path,
        """
title: No Stupfen
extends: breitnau
source: "dappen-en: somewhere"
calls: {stupfen: null}
contracts: {stupfen: null}
auction:
  phases:
    dappen_round:
      ladder: [{call: dappen}, {call: strecken}]
readings: {stupfen_factor: null}
""",
    )
    found = changes("breitnau", file)
    assert [c.message for c in found] == [
        'Call stupfen ("Ich stupfe"): a call (breitnau) vs no such call (variant)',
        "Dappen round: bids, lowest first: dappen < strecken < stupfen (breitnau) vs dappen < strecken (variant)",
        "Stupfen: a contract: factor ×3; exchange: takes up the talon; discards 12 cards, not a card for which "
        "`card in five_pointers` (breitnau) vs no such contract (variant)",
        "Reading stupfen_factor (Is Stupfen worth three times or twice the game?): choices factor_list / "
        "worked_example (breitnau) vs no such reading (variant)",
    ]
    kinds = {c.path: c.kind for c in found}
    assert kinds[("contracts", "stupfen")] == "only_in_a"
    assert {c.kind for c in changes(file, "breitnau") if c.path == ("contracts", "stupfen")} == {"only_in_b"}
    # The side without the contract cites the file that removes it, at the line that does.
    removed = next(c for c in found if c.path == ("contracts", "stupfen"))
    assert removed.b_provenance.source == "dappen-en: somewhere"
    assert removed.b_provenance.file.endswith("variant.yaml") and removed.b_provenance.line == 6


def test_an_added_compulsory_bid(tmp_path: Path) -> None:
    file = variant(
        tmp_path,
        """
title: The last player must dapp
extends: breitnau
auction:
  phases:
    dappen_round:
      compulsory:
        last: {when: "position == speakers - 1 and not bid_made", call: dappen, source: "dappen-de §7", status: assumed}
""",
    )
    [change] = changes("breitnau", file)
    assert change.rule == "auction.compulsory"
    assert change.message == (
        "Dappen round: compulsory bids: none (breitnau) vs "
        "dappen when `position == speakers - 1 and not bid_made` (variant)"
    )
    assert (change.b_provenance.source, change.b_provenance.status) == ("dappen-de §7", "assumed")


def test_a_renamed_call_shows_even_if_it_means_the_same(tmp_path: Path) -> None:
    file = variant(
        tmp_path,
        """
title: Selbst instead of selber
extends: breitnau
calls:
  selber: null
  selbst: {title: Selber}
auction:
  phases:
    dappen_round: {hold: selbst}
""",
    )
    assert [c.message for c in changes("breitnau", file)] == [
        'Call selber ("Selber"): a call (breitnau) vs no such call (variant)',
        'Call selbst ("Selber"): no such call (breitnau) vs a call (variant)',
        "Dappen round: holding a later, higher bid: allowed, with selber (breitnau) vs allowed, with selbst (variant)",
    ]


def test_titles_notes_and_sources_are_not_differences(tmp_path: Path) -> None:
    file = variant(
        tmp_path,
        """
title: Other words
extends: breitnau
sources: {mine: {title: My notes}}
source: "mine: p. 1"
status: attested
calls: {pass: {title: Weg}}
contracts:
  solo: {title: Solospiel, note: Another note., source: "mine: p. 2", status: reconstructed}
""",
    )
    assert changes("breitnau", file) == []


def test_readings_and_options_are_compared_by_what_they_choose(tmp_path: Path) -> None:
    file = variant(
        tmp_path,
        """
title: Stupfen reading with other defaults and words
extends: breitnau
readings:
  stupfen_factor:
    question: Three or two?
    default: worked_example
""",
    )
    found = changes("breitnau", file)
    messages = [c.message for c in found]
    assert "Stupfen factor: ×3 (breitnau) vs ×2 (variant)" in messages
    assert "Reading stupfen_factor: default: factor_list (breitnau) vs worked_example (variant)" in messages
    assert len(found) == 2
    # A reading's choices compare by their effect: 3 is the same as {won: 3, lost: 3}.
    same = variant(
        tmp_path,
        """
title: Same effect
extends: breitnau
readings:
  stupfen_factor:
    choices:
      factor_list: {rules: {contracts: {stupfen: {factor: {won: 3, lost: 3}}}}}
""",
        "same",
    )
    assert changes("breitnau", same) == []
    # A choice that makes other rules is one change per rule, in that rule's words.
    other = variant(
        tmp_path,
        """
title: Other effect
extends: breitnau
readings:
  stupfen_factor:
    choices:
      worked_example: {rules: {contracts: {stupfen: {factor: 4}}}}
""",
        "other",
    )
    [change] = changes("breitnau", other)
    assert (
        change.message == "Reading stupfen_factor, choice worked_example: Stupfen factor: ×2 (breitnau) vs ×4 (other)"
    )


def test_the_source_beside_a_change_is_the_reading_that_set_it() -> None:
    a, b = read("breitnau"), read("breitnau", {"solo_factor": "english"}, name="breitnau[english]")
    [change] = compare(a, b)
    assert change.message == "Solo factor: won ×1, lost ×2 (breitnau) vs ×2 (breitnau[english])"
    assert change.a_provenance.via == "reading solo_factor: leaflet"
    assert change.b_provenance.via == "reading solo_factor: english"
    assert change.b_provenance.source.startswith("dappen-en: Breitnau version, factor list")


def test_an_assumed_field_is_reported_as_assumed() -> None:
    prov = read("breitnau").provenance(("auction", "phases", "dappen_round", "max_bidders"))
    assert prov.status == "assumed" and "third player" in prov.assumed


def test_rules_for_a_number_of_players_compare_rule_by_rule() -> None:
    found = changes("cego", "cego-oberwolfach")
    three = [c.message for c in found if c.path[:1] == ("by_players",)]
    assert (
        'With 3 players: Call einwerfen ("Einwerfen (seven empty cards)"): as with other numbers (cego) vs a call (cego-oberwolfach)'
        in three
    )


# -- the report -----------------------------------------------------------------------------------


def test_the_report_groups_by_section_and_wraps(tmp_path: Path) -> None:
    file = variant(
        tmp_path, "title: T\nextends: breitnau\ncontracts:\n  dappen: {factor: 2}\nplay: {must_beat: true}\n"
    )
    a, b = read("breitnau"), read(file)
    text = report(compare(a, b), a, b, width=60)
    lines = text.splitlines()
    assert lines[0] == "Contracts" and lines[1] == "  Dappen factor: ×1 (breitnau) vs ×2 (variant)"
    assert lines[2].startswith("      breitnau: dappen-en: Breitnau version; dappen-de")
    assert "Play" in lines and "  Duty to head the trick: no (breitnau) vs yes (variant)" in lines
    assert all(len(line) <= 60 for line in lines if " " in line.strip())  # a path alone may run on
    assert report(compare(a, b), a, b, brief=True).splitlines() == [
        "Dappen factor: ×1 (breitnau) vs ×2 (variant)",
        "Duty to head the trick: no (breitnau) vs yes (variant)",
    ]


# -- the command ---------------------------------------------------------------------------------


def test_exit_status_and_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = variant(tmp_path, "title: T\nextends: breitnau\ncontracts:\n  dappen: {factor: 2}\n")
    assert tarock(capsys, "diff", "breitnau", "breitnau") == (0, "", "")
    status, out, err = tarock(capsys, "diff", "breitnau", file, "--width", "200")
    assert status == 1 and err == ""
    lines = out.splitlines()
    assert lines[:2] == ["Contracts", "  Dappen factor: ×1 (breitnau) vs ×2 (variant)"]
    assert lines[2].startswith(
        "      breitnau: dappen-en: Breitnau version; dappen-de §8; reported (rulesets/breitnau.yaml:"
    )
    assert lines[3].startswith("      variant: no source given; no status (")
    assert tarock(capsys, "diff", "breitnau", file, "--brief")[1] == "Dappen factor: ×1 (breitnau) vs ×2 (variant)\n"
    status, _, err = tarock(capsys, "diff", "breitnau", "no-such-village")
    assert status == 2 and "no ruleset named 'no-such-village'" in err
    status, _, err = tarock(capsys, "diff", "breitnau", "breitnau", "--option-b", "solo_factor=nonsense")
    assert status == 2 and "no choice 'nonsense'" in err
    with pytest.raises(SystemExit) as usage:  # a missing argument is bad usage
        main(["diff", "breitnau"])
    assert usage.value.code == 2


def test_options_per_side(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = tarock(capsys, "diff", "breitnau", "breitnau", "--option-b", "solo_factor=english", "--brief")
    assert status == 1
    assert out.splitlines() == ["Solo factor: won ×1, lost ×2 (breitnau) vs ×2 (breitnau[solo_factor=english])"]


def test_json_for_programs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = variant(
        tmp_path, "title: T\nextends: breitnau\ncontracts:\n  dappen: {factor: 2}\nplay: {must_beat: true}\n"
    )
    status, out, _ = tarock(capsys, "diff", "breitnau", file, "--json")
    assert status == 1
    data = json.loads(out)
    assert set(data) == {"a", "b", "same", "changes"} and data["same"] is False
    assert data["a"]["name"] == "breitnau" and data["b"]["title"] == "T"
    assert data["a"]["choices"] == {
        "solo_factor": "leaflet",
        "stupfen_factor": "factor_list",
        "dealer_sitting_out": "no_part",
    }
    factor, beat = data["changes"]
    assert factor == {
        "kind": "changed",
        "rule": "contract.factor",
        "section": "Contracts",
        "path": "contracts.dappen.factor",
        "message": "Dappen factor: ×1 (breitnau) vs ×2 (variant)",
        "a": {"won": 1, "lost": 1},
        "b": {"won": 2, "lost": 2},
        "a_text": "×1",
        "b_text": "×2",
        "a_source": "dappen-en: Breitnau version; dappen-de §8",
        "a_status": "reported",
        "b_source": None,
        "b_status": None,
        "a_via": None,
        "b_via": None,
        "a_file": factor["a_file"],
        "a_line": factor["a_line"],
        "b_file": factor["b_file"],
        "b_line": factor["b_line"],
    }
    assert factor["a_file"].endswith("breitnau.yaml") and factor["b_file"].endswith("variant.yaml")
    assert beat["message"] == "Duty to head the trick: no (breitnau) vs yes (variant)" and beat["b"] is True
    same = json.loads(tarock(capsys, "diff", "breitnau", "breitnau", "--json")[1])
    assert same["same"] is True and same["changes"] == []


def test_a_withheld_card_made_up_or_not_is_a_difference(tmp_path: Path) -> None:
    """Whether the winners of the last trick get a card for the withheld one (`compensation`)
    changes what the sides count: diff says it (it said nothing before)."""
    text = (
        "title: No compensation\nextends: furtwangen\nplay:\n  withhold:\n    card: T22\n    by: defenders\n"
        '    when: "count(hand & trumps) == 1"\n    compensation: {gives: none}\n'
        '    source: "dappen-en: Furtwangen version, Play"\n    status: assumed\n'
    )
    [change] = changes("furtwangen", variant(tmp_path, text))
    assert change.path == ("play", "withhold") and "compensation: gives: none" in change.message
