"""The words of the settlement (issue 30, item 10), each on a deal computed by hand in its record
under tests/records/, played here once more without the word to show that the word decides the
outcome, and each refused in `tarock validate` with its place when written wrongly."""

from __future__ import annotations

import random
from pathlib import Path

import yaml

from interpreter import Game, load_ruleset, replay
from interpreter.bots.randombot import expand, play_out
from interpreter.language.loader import check_ruleset

RECORDS = Path(__file__).parent / "records"


def _replayed_as(tmp_path: Path, record: str, ruleset: str, payments: list[int], **expect: object) -> list[str]:
    """The failures of `record` replayed under another ruleset, expecting `payments` (and `expect`)."""
    data = yaml.safe_load((RECORDS / record).read_text(encoding="utf-8"))
    data["ruleset"] = ruleset
    data["expect"] = {"payments": payments, **expect}
    file = tmp_path / record
    file.write_text(yaml.safe_dump(data), encoding="utf-8")
    return replay(file).failures


def _problems(tmp_path: Path, text: str) -> list[str]:
    file = tmp_path / "variant.yaml"
    file.write_text(text, encoding="utf-8")
    return [f"{p.line}:{p.column}: {p.path}: {p.message}" for p in check_ruleset(str(file))]


# -- a bonus doubled with the game: `kontra` in a bonus's value ---------------------------------


def test_a_bonus_reading_kontra_is_doubled_with_the_game() -> None:
    assert replay(RECORDS / "koenigrufen-bonus-doubled-with-the-game.yaml").ok


def test_without_kontra_in_its_value_a_bonus_is_not_doubled_with_the_game(tmp_path: Path) -> None:
    # The same deal under koenigrufen itself: the Pagat 2 x its own kontra 2 = 4, the game -2: +2.
    assert _replayed_as(tmp_path, "koenigrufen-bonus-doubled-with-the-game.yaml", "koenigrufen", [-2, 2, -2, 2]) == []


def test_a_misspelt_kontra_in_a_bonus_value_is_refused_at_its_place_with_the_name_to_use(tmp_path: Path) -> None:
    text = 'title: t\nextends: koenigrufen\nbonuses:\n  trull: {value: "1 * kontr"}\n'
    [problem] = _problems(tmp_path, text)
    assert problem.startswith("4:") and "bonuses.trull.value: unknown name 'kontr'; did you mean 'kontra'?" in problem


# -- an individual penalty judged on the play: a bonus of scope seat reading `captured` ---------


def test_the_player_whose_mond_was_captured_pays_each_other_player_alone() -> None:
    assert replay(RECORDS / "koenigrufen-mond-lost-pays-alone.yaml").ok


def test_without_the_penalty_the_same_deal_is_settled_between_the_sides_alone(tmp_path: Path) -> None:
    # Game -1, Trull, Pagat ultimo and Mondfang +3: +2 for the declarer's side, nobody pays alone.
    assert _replayed_as(tmp_path, "koenigrufen-mond-lost-pays-alone.yaml", "koenigrufen", [-2, 2, -2, 2]) == []


def test_a_sides_bonus_reading_a_players_own_cards_is_refused_with_the_scope_to_use(tmp_path: Path) -> None:
    text = 'title: t\nextends: koenigrufen\nbonuses:\n  mond_lost: {achieved: "T21 in captured", value: "-1"}\n'
    [problem] = _problems(tmp_path, text)
    assert problem.startswith("4:") and "bonuses.mond_lost.achieved:" in problem and "scope: seat" in problem


def test_a_silent_attempt_of_a_combination_in_a_hand_is_refused_not_ignored(tmp_path: Path) -> None:
    """A seat's combination is settled on `achieved` alone: an `attempted` there is refused with
    its place, where before it was compiled and never read."""
    text = (
        "title: t\nextends: koenigrufen\nbonuses:\n"
        '  mond_lost: {scope: seat, achieved: "T21 in captured", attempted: "T21 in played", value: "-1"}\n'
    )
    [problem] = _problems(tmp_path, text)
    assert problem.startswith("4:") and "bonuses.mond_lost.attempted:" in problem and "scope: side" in problem


def test_in_500_deals_exactly_the_seat_whose_mond_the_other_side_took_pays_it() -> None:
    rs = load_ruleset(str(Path(__file__).parent / "rulesets" / "koenigrufen-mond-lost-pays.yaml"))
    assert all(bonus.replaces_game == "never" for bonus in rs.bonuses.values())  # a Valat counts beside it
    judged = 0
    for seed in range(500):
        game = play_out(Game(rs, players=4, seed=seed), seed=seed)
        result = game.result
        assert result is not None and sum(result.payments) == 0
        penalties = [b for b in result.bonuses if b["name"] == "mond_lost"]
        contract = rs.contracts.get(result.contract or "")
        mond = [t for t in game.tricks if "T21" in t.cards]
        scored = contract is not None and (contract.bonuses is None or "mond_lost" in contract.bonuses)
        if result.outcome != "played" or result.declarer is None or not mond or not scored:
            assert penalties == []  # no trick with the Mond, or a contract without bonuses
            continue
        team = {result.declarer} if result.partner is None else {result.declarer, result.partner}
        [trick] = mond
        holder = trick.seats[trick.cards.index("T21")]
        captured = (holder in team) != (trick.winner in team)
        each = contract.bonus_factor  # × the contract's bonus factor, as every bonus (a Solo's 2)
        expected = [] if not captured else [(holder, [each if s != holder else -3 * each for s in range(4)])]
        assert [(b["seat"], b["payments"]) for b in penalties] == expected, seed
        judged += captured
    assert judged >= 20


# -- a penalty paid by a side: penalties.paid_by -------------------------------------------------


def test_a_revoke_is_paid_by_the_offenders_side_as_a_lost_game() -> None:
    report = replay(RECORDS / "koenigrufen-revoke-paid-by-the-side.yaml")
    assert report.ok and report.game is not None and report.game.result is not None
    assert "the side of seat 3 (seats 1 and 3) pays 1" in report.game.result.reason


def test_paid_by_the_offender_the_same_revoke_costs_the_partner_alone(tmp_path: Path) -> None:
    fixture = (Path(__file__).parent / "rulesets" / "koenigrufen-revoke-paid-by-the-side.yaml").read_text("utf-8")
    (tmp_path / "alone.yaml").write_text(fixture.replace("paid_by: side", "paid_by: offender"), encoding="utf-8")
    record = "koenigrufen-revoke-paid-by-the-side.yaml"
    assert _replayed_as(tmp_path, record, str(tmp_path / "alone.yaml"), [1, 1, 1, -3]) == []


def test_a_defenders_revoke_against_a_lone_declarer_pays_the_declarer_from_each_defender() -> None:
    # A Dreier (1 v 3, factor 4 x kontra 1): the first seat that cannot follow suit and does
    # not trump, among seeded deals, revokes; each of the three defenders pays the declarer 4.
    rs = load_ruleset(str(Path(__file__).parent / "rulesets" / "koenigrufen-revoke-paid-by-the-side.yaml"))
    found = 0
    for seed in range(200):
        game = Game(rs, players=4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.phase.value != "play":
            seat = game.to_act
            legal = game.legal_actions(seat)
            wanted = [a for a in ("dreier", "pass") if a in legal]  # the first who may says Dreier
            game.apply(seat, wanted[0] if wanted else expand(rng.choice(legal), rng))
        if game.is_over or game.contract is None or game.contract.name != "dreier":
            continue
        while not game.is_over:
            seat = game.to_act
            if seat != game.declarer:
                illegal = sorted(set(game.hands[seat]) - {a["play"] for a in game.legal_actions(seat)})
                if illegal:
                    game.apply(seat, {"play": illegal[0]})
                    break
            game.apply(seat, expand(rng.choice(game.legal_actions(seat)), rng))
        result = game.result
        if result is None or result.outcome != "abandoned":
            continue
        found += 1
        assert result.payments == [12 if s == game.declarer else -4 for s in range(4)], seed
    assert found >= 5, found


def test_a_declarers_wrong_discard_is_paid_by_her_side_with_the_called_kings_holder(tmp_path: Path) -> None:
    # In the exchange the partner is the holder of the called King (seat 3): the Pagat laid away
    # against the rule costs seats 1 and 3 one each, 2 v 2.
    fixture = (Path(__file__).parent / "rulesets" / "koenigrufen-revoke-paid-by-the-side.yaml").read_text("utf-8")
    (tmp_path / "discard.yaml").write_text(fixture.replace("[revoke]", "[revoke, discard]"), encoding="utf-8")
    data = yaml.safe_load((RECORDS / "koenigrufen-revoke-paid-by-the-side.yaml").read_text(encoding="utf-8"))
    at = data["actions"].index([1, {"discard": ["H3", "D3", "DJ"]}])
    data["actions"] = [*data["actions"][:at], [1, {"discard": ["H3", "D3", "T1"]}]]
    data["ruleset"] = str(tmp_path / "discard.yaml")
    data["expect"] = {"outcome": "abandoned", "payments": [1, -1, 1, -1]}
    (tmp_path / "record.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    report = replay(tmp_path / "record.yaml")
    assert report.failures == []


# -- per-seat conditions about the other seats: most_points, without_tricks ---------------------


def test_a_buergermeister_pays_alone_where_the_other_classes_read_most_points() -> None:
    assert replay(RECORDS / "koenigrufen-trischaken-buergermeister-pays-alone.yaml").ok


def test_without_the_condition_on_the_others_the_buergermeister_pays_for_points_too(tmp_path: Path) -> None:
    record = "koenigrufen-trischaken-buergermeister-pays-alone.yaml"
    assert _replayed_as(tmp_path, record, "koenigrufen", [3, -7, 1, 3]) == []


def test_below_36_the_condition_on_the_others_changes_nothing(tmp_path: Path) -> None:
    # The records of koenigrufen's own Trischaken without a Bürgermeister pay the same under the fixture.
    fixture = str(Path(__file__).parent / "rulesets" / "koenigrufen-buergermeister-pays-alone.yaml")
    assert _replayed_as(tmp_path, "koenigrufen-trischaken-example.yaml", fixture, [-1, 1, -1, 1]) == []
    assert _replayed_as(tmp_path, "koenigrufen-trischaken-no-trick.yaml", fixture, [-3, 7, -3, -1]) == []


def test_a_misspelt_name_of_the_other_seats_is_refused_at_its_place(tmp_path: Path) -> None:
    text = (
        "title: t\nextends: koenigrufen\ncontracts:\n  trischaken:\n    individual:\n      payments:\n"
        '        - {payers: "points >= 36 and most_point < 36", receivers: others, amount: "2"}\n'
    )
    [problem] = _problems(tmp_path, text)
    assert problem.startswith("7:") and "unknown name 'most_point'; did you mean 'most_points'?" in problem
    assert "contracts.trischaken.individual.payments[0].payers" in problem


# -- a draw decided after the amount: settlement.drawn reading `amount` ---------------------------


def test_a_game_worth_nothing_is_drawn_and_leaves_the_pot_alone() -> None:
    assert replay(RECORDS / "tapp-solo-worth-nothing-drawn.yaml").ok


def test_drawn_on_the_card_points_alone_the_solo_worth_nothing_is_lost_and_doubles_the_pot(tmp_path: Path) -> None:
    fixture = (Path(__file__).parent / "rulesets" / "tapp-worthless-game-drawn.yaml").read_text("utf-8")
    (tmp_path / "points.yaml").write_text(
        fixture.replace('drawn: "amount == 0"', 'drawn: "declarer_points == 60"'), encoding="utf-8"
    )
    record = "tapp-solo-worth-nothing-drawn.yaml"
    assert _replayed_as(tmp_path, record, str(tmp_path / "points.yaml"), [-2, -12, 0], pot=14) == []


def test_a_misspelt_amount_in_the_draw_is_refused_at_its_place(tmp_path: Path) -> None:
    text = 'title: t\nextends: tapp\nsettlement:\n  drawn: "amont == 0"\n'
    [problem] = _problems(tmp_path, text)
    assert problem.startswith("4:") and "settlement.drawn: unknown name 'amont'; did you mean 'amount'?" in problem


# -- formulas reading the trump suit and the tricks: trump_suit, played_tricks -------------------


def test_a_game_with_hearts_trumps_counts_double_where_the_amount_reads_the_trump_suit() -> None:
    assert replay(RECORDS / "tapp-hearts-trumps-solo-counts-double.yaml").ok


def test_a_solo_with_spades_trumps_is_not_doubled(tmp_path: Path) -> None:
    fixture = str(Path(__file__).parent / "rulesets" / "tapp-hearts-trumps-count-double.yaml")
    assert _replayed_as(tmp_path, "tapp-wuerttemberg-solo-any-suit-spades.yaml", fixture, [-62, -62, 124]) == []


def test_the_amount_may_read_which_side_took_a_trick() -> None:
    assert replay(RECORDS / "tapp-last-trick-counts.yaml").ok


def test_the_amount_may_read_which_card_won_a_trick(tmp_path: Path) -> None:
    # The same Solo: the last trick won with DJ; with the Ace of diamonds instead, nothing more.
    fixture = (Path(__file__).parent / "rulesets" / "tapp-last-trick-counts.yaml").read_text("utf-8")
    for card, each in (("DJ", 63), ("DA", 62)):
        written = fixture.replace("won_by_side(-1) == declarer_won", f"winning_card(-1) == {card}")
        (tmp_path / "card.yaml").write_text(written, encoding="utf-8")
        assert (
            _replayed_as(tmp_path, "tapp-last-trick-counts.yaml", str(tmp_path / "card.yaml"), [-each, -each, 2 * each])
            == []
        )


def test_a_misspelt_trump_suit_is_refused_at_its_place(tmp_path: Path) -> None:
    text = 'title: t\nextends: tapp-wuerttemberg\nsettlement:\n  amount: "count(trump_suits & hearts) * factor"\n'
    [problem] = _problems(tmp_path, text)
    assert problem.startswith("4:") and "unknown name 'trump_suits'; did you mean 'trump_suit'?" in problem


def test_the_amount_may_read_that_the_called_king_lay_in_the_talon(tmp_path: Path) -> None:
    assert replay(RECORDS / "koenigrufen-called-king-in-the-talon-counts-double.yaml").ok
    record = "koenigrufen-called-king-in-the-talon-counts-double.yaml"
    assert _replayed_as(tmp_path, record, "koenigrufen", [1, -3, 1, 1]) == []


def test_a_called_king_held_by_a_partner_is_not_in_the_talon(tmp_path: Path) -> None:
    # The Rufer of the Mond record, CK held by seat 3: the fixture pays it as koenigrufen does.
    fixture = str(Path(__file__).parent / "rulesets" / "koenigrufen-king-in-the-talon-counts-double.yaml")
    assert _replayed_as(tmp_path, "koenigrufen-mond-lost-pays-alone.yaml", fixture, [-2, 2, -2, 2]) == []


# -- a wrong-sized discard as an offence: penalties.offences discard_size ------------------------


def test_a_discard_of_the_wrong_size_recorded_at_the_table_ends_the_deal_and_costs_the_declarer() -> None:
    report = replay(RECORDS / "dreierles-discard-of-the-wrong-size-penalized.yaml")
    assert report.ok and report.game is not None and report.game.result is not None
    assert "3 cards where 2 were due" in report.game.result.reason


def _zweier(tmp_path: Path, discard: list[str], options: dict[str, str]) -> list[str]:
    data = yaml.safe_load((RECORDS / "dreierles-discard-of-the-wrong-size-penalized.yaml").read_text(encoding="utf-8"))
    data["actions"][-1] = [2, {"discard": discard}]
    data["options"] = options
    data["expect"] = {"outcome": "abandoned", "payments": [8, 8, -16]}
    (tmp_path / "record.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    return replay(tmp_path / "record.yaml").failures


def test_one_card_where_two_were_due_is_the_same_offence(tmp_path: Path) -> None:
    assert _zweier(tmp_path, ["S7"], {"rule_breaches": "penalize"}) == []


def test_without_penalties_or_with_a_card_not_held_the_wrong_size_is_refused(tmp_path: Path) -> None:
    refused = _zweier(tmp_path, ["C7", "S7", "D3"], {})[0]
    assert "was refused: discard exactly 2 cards, not 3" in refused
    refused = _zweier(tmp_path, ["C7", "S7", "HA"], {"rule_breaches": "penalize"})[0]  # HA is seat 1's
    assert "was refused" in refused and "HA" in refused


def test_an_unknown_offence_is_refused_at_its_place_with_the_offences_there_are(tmp_path: Path) -> None:
    text = "title: t\nextends: koenigrufen\npenalties: {offences: [revoke, discard_count], pays_each: '4'}\n"
    [problem] = _problems(tmp_path, text)
    assert problem.startswith("3:") and "penalties.offences[1]" in problem and "discard_size" in problem
