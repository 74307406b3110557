"""`tarock diff`: differences in meaning, not in text, each one sentence with its sources."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from interpreter.ethnography.diff import compare
from interpreter.ethnography.semantic import Expr, read
from interpreter.language.loader import check_ruleset, find_ruleset_file, ruleset_names

ROOT = Path(__file__).parent.parent


def tarock(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "interpreter", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def variant(tmp_path: Path, text: str, name: str = "variant") -> str:
    file = tmp_path / f"{name}.yaml"
    file.write_text(text, encoding="utf-8")
    assert check_ruleset(str(file)) == [], "the test variant itself must be valid"
    return str(file)


def changes(a: str, b: str):
    return compare(read(a), read(b))


# -- nothing where nothing differs ---------------------------------------------------------------


@pytest.mark.parametrize("name", ruleset_names())
def test_a_ruleset_against_itself_is_empty(name: str) -> None:
    assert changes(name, name) == []


def _shuffled(data, rnd: random.Random, path=()):
    if isinstance(data, dict):
        items = list(data.items())
        if path[-2:] != ("auction", "phases"):  # the first phase listed opens the auction: meaning
            rnd.shuffle(items)
        return {k: _shuffled(v, rnd, path + (k,)) for k, v in items}
    if isinstance(data, list):
        return [_shuffled(v, rnd, path) for v in data]
    return data


@pytest.mark.parametrize("name", ruleset_names())
@pytest.mark.parametrize("flow", [True, False])
def test_a_reformatted_copy_is_empty(name: str, flow: bool, tmp_path: Path) -> None:
    data = yaml.safe_load(find_ruleset_file(name).read_text(encoding="utf-8"))
    copy = tmp_path / f"copy-of-{name}.yaml"
    copy.write_text(
        yaml.safe_dump(
            _shuffled(data, random.Random(7)), sort_keys=False, allow_unicode=True, default_flow_style=flow, width=70
        ),
        encoding="utf-8",
    )
    assert changes(name, str(copy)) == []


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
    # `like` resolved, a factor 2 = {won: 2, lost: 2}, defaults filled in, expressions by syntax tree
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
      - discard: {count: 12, forbid: {when: "card in five_pointers", reason: "other words"}}
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


def test_a_removed_contract(tmp_path: Path) -> None:
    file = variant(
        tmp_path,
        """
title: No Stupfen
extends: breitnau
calls: {stupfen: null}
contracts: {stupfen: null}
auction:
  phases:
    dappen_round:
      ladder: [{call: dappen}, {call: strecken}]
readings: {stupfen_factor: null}
""",
    )
    assert [c.message for c in changes("breitnau", file)] == [
        'Call stupfen ("Ich stupfe"): absent in variant',
        "Dappen round: bids, lowest first: dappen < strecken < stupfen (breitnau) vs dappen < strecken (variant)",
        "Stupfen: absent in variant",
        "Reading stupfen_factor (Is Stupfen worth three times or twice the game?): absent in variant",
    ]
    kinds = {c.path: c.kind for c in changes("breitnau", file)}
    assert kinds[("contracts", "stupfen")] == "only_in_a"
    assert {c.kind for c in changes(file, "breitnau") if c.path == ("contracts", "stupfen")} == {"only_in_b"}


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
        'Call selber ("Selber"): absent in variant',
        'Call selbst ("Selber"): absent in breitnau',
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


def test_the_source_beside_a_change_is_the_reading_that_set_it() -> None:
    a, b = read("breitnau"), read("breitnau", {"solo_factor": "english"})
    b.name = "breitnau[english]"
    [change] = compare(a, b)
    assert change.message == "Solo factor: won ×1, lost ×2 (breitnau) vs ×2 (breitnau[english])"
    assert change.a_provenance.via == "reading solo_factor: leaflet"
    assert change.b_provenance.via == "reading solo_factor: english"
    assert change.b_provenance.source.startswith("dappen-en: Breitnau version, factor list")


def test_an_assumed_field_is_reported_as_assumed() -> None:
    prov = read("breitnau").provenance(("auction", "phases", "dappen_round", "max_bidders"))
    assert prov.status == "assumed" and "third player" in prov.assumed


def test_a_section_the_templates_do_not_know_still_differs(tmp_path: Path) -> None:
    # A section added to the language later: no template, a generic sentence.
    base = find_ruleset_file("breitnau")
    file = tmp_path / "future.yaml"
    file.write_text(f"title: Future\nextends: {base}\nhouse_rules:\n  beer: {{pays_each: 10}}\n", encoding="utf-8")
    [change] = changes("breitnau", str(file))
    assert change.message == "House rules: absent in breitnau" and change.rule == "other"
    file.write_text(f"title: Future\nextends: {base}\nhouse_rules:\n  beer: {{pays_each: 20}}\n", encoding="utf-8")
    other = tmp_path / "future2.yaml"
    other.write_text(f"title: Future\nextends: {base}\nhouse_rules:\n  beer: {{pays_each: 10}}\n", encoding="utf-8")
    [change] = changes(str(other), str(file))
    assert change.message == "House rules beer pays each: 10 (future2) vs 20 (future)"


# -- the command ---------------------------------------------------------------------------------


def test_exit_status_and_text(tmp_path: Path) -> None:
    file = variant(tmp_path, "title: T\nextends: breitnau\ncontracts:\n  dappen: {factor: 2}\n")
    same = tarock("diff", "breitnau", "breitnau")
    assert (same.returncode, same.stdout, same.stderr) == (0, "", "")
    data = yaml.safe_load(find_ruleset_file("breitnau").read_text(encoding="utf-8"))
    copy = tmp_path / "reformatted.yaml"
    copy.write_text(
        yaml.safe_dump(_shuffled(data, random.Random(1)), default_flow_style=True, sort_keys=False), encoding="utf-8"
    )
    same = tarock("diff", "breitnau", str(copy))
    assert (same.returncode, same.stdout, same.stderr) == (0, "", "")
    differ = tarock("diff", "breitnau", file)
    assert differ.returncode == 1
    lines = differ.stdout.splitlines()
    assert lines[0] == "Dappen factor: ×1 (breitnau) vs ×2 (variant)"
    assert lines[1].startswith(
        "    breitnau: dappen-en: Breitnau version; dappen-de §8; reported (rulesets/breitnau.yaml:"
    )
    assert lines[2].startswith("    variant: no source given; no status (")
    unknown = tarock("diff", "breitnau", "no-such-village")
    assert unknown.returncode == 2 and "no ruleset named 'no-such-village'" in unknown.stderr
    assert "Traceback" not in unknown.stderr
    assert tarock("diff", "breitnau").returncode == 2  # a missing argument is bad usage
    bad_option = tarock("diff", "breitnau", "breitnau", "--option-b", "solo_factor=nonsense")
    assert bad_option.returncode == 2 and "no choice 'nonsense'" in bad_option.stderr


def test_options_per_side() -> None:
    out = tarock("diff", "breitnau", "breitnau", "--option-b", "solo_factor=english")
    assert out.returncode == 1
    assert out.stdout.splitlines()[0] == "Solo factor: won ×1, lost ×2 (breitnau) vs ×2 (breitnau[solo_factor=english])"


def test_json_for_programs(tmp_path: Path) -> None:
    file = variant(
        tmp_path, "title: T\nextends: breitnau\ncontracts:\n  dappen: {factor: 2}\nplay: {must_beat: true}\n"
    )
    out = tarock("diff", "breitnau", file, "--json")
    assert out.returncode == 1
    data = json.loads(out.stdout)
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
        "path": "contracts.dappen.factor",
        "message": "Dappen factor: ×1 (breitnau) vs ×2 (variant)",
        "a": {"won": 1, "lost": 1},
        "b": {"won": 2, "lost": 2},
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
    same = json.loads(tarock("diff", "breitnau", "breitnau", "--json").stdout)
    assert same["same"] is True and same["changes"] == []
