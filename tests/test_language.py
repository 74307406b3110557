"""The ruleset language: its schema, decks as data, and mechanics the later variants rely on."""

import json
import sys
from pathlib import Path

import pytest

from interpreter import Game, IllegalActionError, load_ruleset
from interpreter.bots.randombot import play_out
from interpreter.language.loader import check_ruleset

ROOT = Path(__file__).parent.parent
SCHEMA = json.loads((ROOT / "schema" / "ruleset.schema.json").read_text(encoding="utf-8"))


def test_schema_file_is_generated_from_build_script() -> None:
    sys.path.insert(0, str(ROOT / "schema"))
    try:
        import build_schema
    finally:
        sys.path.pop(0)
    assert build_schema.render() == (ROOT / "schema" / "ruleset.schema.json").read_text(encoding="utf-8"), (
        "run `python schema/build_schema.py`"
    )


def _objects(schema, path="$"):
    if isinstance(schema, dict):
        if schema.get("type") == "object" or "properties" in schema:
            yield path, schema
        for key, value in schema.items():
            if key != "if":  # a condition, not the definition of an object
                yield from _objects(value, f"{path}.{key}")
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            yield from _objects(value, f"{path}[{i}]")


def test_every_object_is_closed_and_every_property_described() -> None:
    for path, obj in _objects(SCHEMA):
        extra = obj.get("additionalProperties")
        assert extra is False or isinstance(extra, dict), f"{path} is open"
        if isinstance(extra, dict):
            assert "description" in extra or "oneOf" in extra, f"{path}.additionalProperties has no description"
        for name, prop in obj.get("properties", {}).items():
            assert "description" in prop, f"{path}.properties.{name} has no description"


def test_cego_pack_values_add_up_to_the_sources_totals() -> None:
    deck = load_ruleset("breitnau").deck
    assert len(deck.cards) == 54 and len(deck.sets["trumps"]) == 22
    assert deck.total_points == 106  # 79 when counted in pairs, 70 in threes
    assert deck.sets["five_pointers"] == {"T22", "T21", "T1", "CK", "SK", "HK", "DK"}
    assert [c for c in deck.cards if c.startswith("H")] == ["HK", "HQ", "HN", "HJ", "HA", "H2", "H3", "H4"]
    assert deck.rank["HA"] > deck.rank["H4"] and deck.rank["C10"] > deck.rank["C7"]


FRENCH_GAME = """
title: A plain trick game with the French pack (test)
extends: french-pack
players: {active: [3, 4]}
deal:
  remove: {"4": "sixes"}
  plans:
    "3": [{each: 4}, {talon: 3}, {each: 3}, {each: 4}]
    "4": [{each: 3}, {talon: 4}, {each: 4}]
auction:
  phases:
    bids: {ladder: [{call: frage}, {call: solo}], raise: any, hold: selber}
contracts:
  frage: {exchange: [{take_talon: {}}, {discard: {count: talon}}], factor: 1}
  solo: {factor: 2}
play: {first_lead: vorhand, when_void: any}
counting: {packet: 1}
settlement: {declarer_wins: "declarer_points >= 61", amount: "abs(declarer_points - 60) * factor"}
"""


def test_french_pack_deals_36_or_32_cards_and_plays(tmp_path: Path) -> None:
    file = tmp_path / "french.yaml"
    file.write_text(FRENCH_GAME, encoding="utf-8")
    assert check_ruleset(str(file)) == []
    rs = load_ruleset(str(file))
    assert rs.deck.total_points == 120 and len(rs.pack(3)) == 36 and len(rs.pack(4)) == 32
    assert [c for c in rs.deck.cards if c.startswith("S")] == ["SA", "S10", "SK", "SQ", "SJ", "S9", "S8", "S7", "S6"]
    for seed in range(50):
        game = play_out(Game(rs, players=4, seed=seed), seed=seed, pass_probability=0.3)
        dealt = [c for h in game.initial_hands for c in h] + game.initial_talon
        assert sorted(dealt) == sorted(rs.pack(4)) and not any(c.endswith("6") for c in dealt)
        if game.result.points:
            assert sum(game.result.points.values()) == 120


def test_an_exchange_that_leaves_the_declarer_short_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "short.yaml"
    file.write_text(FRENCH_GAME.replace("{discard: {count: talon}}", "{discard: {count: 3}}"), encoding="utf-8")
    messages = [str(p) for p in check_ruleset(str(file))]
    assert any(
        "contracts.frage.exchange" in m and "with 4 players the declarer takes 4 cards and discards 3" in m
        for m in messages
    ), messages


def test_a_plan_that_ignores_removed_cards_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "bad.yaml"
    file.write_text(
        FRENCH_GAME.replace('"4": [{each: 3}, {talon: 4}, {each: 4}]', '"4": [{each: 8}, {talon: 4}]'), encoding="utf-8"
    )
    messages = [str(p) for p in check_ruleset(str(file))]
    assert any("deal 36 cards" in m and "pack has 32 without the 4 removed" in m for m in messages), messages


STOP_RULE = """
title: Breitnau with the Furtwangen stop rule (test of compulsory bids)
extends: breitnau
auction:
  phases:
    dappen_round:                 # only what differs from Breitnau: maps merge
      compulsory:
        stop:
          when: "any t in hand & trumps: count(hand & trumps) - 1 >= 22 - rank(t)"
          call: dappen
          reason: "you hold a stop (a trump that cannot be captured), so you must dappen"
        second_to_last:
          when: "position == speakers - 2"
          call: dappen
          reason: "all before you passed, so the second-to-last player must dappen"
"""


def _deal_with(hand1: list[str]) -> dict:
    deck = load_ruleset("breitnau").deck
    # The other seats get suit cards and low trumps; the high trumps go to the Dapp, so that
    # nobody but seat 1 can hold a stop.
    rest = sorted((c for c in deck.cards if c not in hand1), key=lambda c: (deck.suit[c] == "T", deck.rank[c]))
    hands = [[], hand1] + [rest[i * 7 : (i + 1) * 7] for i in range(4)]
    hands[0], talon = rest[28:35], rest[35:]
    return {"hands": hands, "talon": talon}


@pytest.mark.parametrize(
    "hand, must",
    [
        (["T22", "CK", "C10", "C9", "C8", "C7", "SJ"], True),  # the Gstieß alone is a stop
        (["T21", "T2", "C10", "C9", "C8", "C7", "SJ"], True),  # 21 and one other trump
        (["T21", "C10", "C9", "C8", "C7", "SJ", "S10"], False),  # 21 alone is not
        (["T19", "T3", "T2", "T4", "C9", "C8", "C7"], True),  # 19 and three others
        (["T19", "T3", "T2", "C10", "C9", "C8", "C7"], False),  # 19 and two others is not
    ],
)
def test_stop_rule_makes_dappen_compulsory(tmp_path: Path, hand, must) -> None:
    file = tmp_path / "stop.yaml"
    file.write_text(STOP_RULE, encoding="utf-8")
    game = Game(load_ruleset(str(file)), players=6, deal=_deal_with(hand))
    for seat in (1, 2, 3, 4, 5, 0):
        game.apply(seat, "pass")  # the Solo round
    assert game.to_act == 1
    assert ("pass" not in game.legal_actions()) is must
    if must:
        before = game.view("all")
        with pytest.raises(IllegalActionError, match="you hold a stop"):
            game.apply(1, "pass")
        assert game.view("all") == before


def test_second_to_last_player_must_dappen_when_all_before_passed(tmp_path: Path) -> None:
    file = tmp_path / "stop.yaml"
    file.write_text(STOP_RULE, encoding="utf-8")
    weak = ["T3", "C10", "C9", "C8", "C7", "SJ", "S10"]
    game = Game(load_ruleset(str(file)), players=6, deal=_deal_with(weak))
    for seat in (1, 2, 3, 4, 5, 0):
        game.apply(seat, "pass")
    passes = 0
    while "pass" in game.legal_actions():
        game.apply(game.to_act, "pass")
        passes += 1
    assert passes == 4 and game.to_act == 5  # seat 5 is second to last of seats 1..5, 0
    with pytest.raises(IllegalActionError, match="second-to-last"):
        game.apply(5, "pass")


def test_every_reading_and_option_with_rules_changes_what_is_played() -> None:
    # A patch that silently does nothing (its nulls eaten when the file was merged onto its
    # base) once made the children's stop rule of Furtwangen a no-op.
    from interpreter.language.loader import resolve, ruleset_names

    for name in ruleset_names():
        doc = resolve(name)
        base = load_ruleset(name)
        for group in base.groups:
            section = "readings" if group.kind == "readings" else "options"
            for choice in group.choices:
                body = ((doc.data[section][group.name]["choices"][choice]) or {}).get("rules")
                if choice == group.default or not body:
                    continue
                chosen = load_ruleset(name, {group.name: choice})
                assert chosen.document != base.document, f"{name}: {group.name}={choice} changes nothing"


def test_rules_for_a_number_of_players_are_applied() -> None:
    four, three = load_ruleset("cego"), load_ruleset("cego", {}, 3)
    assert [lv.call for lv in four.phase("after_fort").interrupts] == ["piccolo", "bettel"]
    assert three.phase("after_fort").interrupts == () and three.phase("after_fort").choose == {}
    assert three.counting.declarer_bonus is not None and four.counting.declarer_bonus is None


def test_yaml_aliases_cannot_blow_up_a_document(tmp_path: Path) -> None:
    rows = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(8):
        prev, name = chr(97 + i), chr(98 + i)
        rows.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    file = tmp_path / "bomb.yaml"
    file.write_text("\n".join(rows) + "\n", encoding="utf-8")
    [problem] = check_ruleset(str(file))
    assert "expands to more than" in problem.message


def test_a_thrown_in_deal_does_not_show_the_talon() -> None:
    game = Game("breitnau", players=6, seed=2)
    while not game.is_over:
        game.apply(game.to_act, "pass")
    assert game.result.outcome == "thrown_in"
    for seat in range(6):
        view = game.view(seat)
        assert "talon" not in view and "aside" not in view
    assert len(game.view("all")["talon"]) == 12


def test_a_scalar_where_a_base_reading_patches_deeper_is_flagged(tmp_path: Path) -> None:
    file = tmp_path / "scalar.yaml"
    file.write_text("title: X\nextends: breitnau\ncontracts:\n  solo: {factor: 2}\n", encoding="utf-8")
    [problem] = check_ruleset(str(file))
    assert "reading 'solo_factor'" in problem.message and (problem.line, problem.column) == (4, 18)
