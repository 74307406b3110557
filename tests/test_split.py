"""`settlement.split`: the declarer's side shares its payments in given proportions (French Tarot
for five: the declarer two parts, the called partner one), shown on a small ruleset of its own;
a total the shares cannot divide is refused when that is known at load time."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import expand
from interpreter.engine.settlement import side_receives
from interpreter.errors import RulesetError
from interpreter.language.model import Ruleset

# Five play, as in French Tarot for five: the declarer calls a King, its holder is her partner,
# the three others pay; the declarer takes two parts of what they pay, the partner one.
FIVE = """\
title: Called King for five, shared two to one
extends: koenigrufen
players: {active: [5], dealer_sits_out: []}
deal:
  plans:
    "4": null
    "5": [{each: 5}, {talon: 4}, {each: 5}]
settlement:
  split: {declarer: 2, partner: 1}
"""


def _ruleset(tmp_path: Path, text: str) -> Ruleset:
    file = tmp_path / "five.yaml"
    file.write_text(text, encoding="utf-8")
    return load_ruleset(str(file))


def test_the_side_shares_as_the_split_says() -> None:
    payments = [0] * 5
    side_receives((1, 3), (0, 2, 4), 4, payments, (2, 1))  # three opponents pay 4 each
    assert payments == [-4, 8, -4, 4, -4]
    payments = [0] * 5
    side_receives((1, 3), (0, 2, 4), -4, payments, (2, 1))  # the side loses: pays in the same parts
    assert payments == [4, -8, 4, -4, 4]


def test_a_remainder_goes_to_the_declarer_gained_or_lost() -> None:
    payments = [0] * 4
    side_receives((0, 2), (1, 3), 1, payments, (2, 1))  # 2 does not divide 2:1
    assert payments == [2, -1, 0, -1]  # the partner's third of 2, rounded toward nothing: 0
    payments = [0] * 4
    side_receives((0, 2), (1, 3), -1, payments, (2, 1))
    assert payments == [-2, 1, 0, 1]
    payments = [0] * 4
    side_receives((0, 2), (1, 3), 5, payments, (1, 1))  # equal shares, as before: 5 and 5
    assert payments == [5, -5, 5, -5]


def test_deals_for_five_pay_the_declarer_twice_the_partner_s_share(tmp_path: Path) -> None:
    rs = _ruleset(tmp_path, FIVE)
    assert rs.settlement.split == (2, 1)
    seen = 0
    for seed in range(200):
        rng = random.Random(seed)
        game = Game(rs, players=5, seed=seed)
        while not game.is_over:
            seat = game.to_act
            legal = game.legal_actions(seat)
            if game.phase.value == "auction" and "mein_spiel" in legal:
                action = "mein_spiel"
            elif game.phase.value == "auction" and game.calls and "pass" in legal:
                action = "pass"
            elif game.phase.value == "auction" and "rufer" in legal:
                action = "rufer"
            elif game.phase.value == "announce" and "pass" in legal:
                action = "pass"
            else:
                action = expand(rng.choice(legal), rng)
            game.apply(seat, action)
        result = game.result
        assert result is not None and sum(result.payments) == 0
        if result.partner is None or result.partner == result.declarer:
            continue
        seen += 1
        opponents = [s for s in range(5) if s not in (result.declarer, result.partner)]
        each = result.payments[opponents[0]]
        assert all(result.payments[s] == each for s in opponents), result.payments
        assert result.payments[result.declarer] == -2 * each
        assert result.payments[result.partner] == -each
    assert seen >= 20


def test_without_split_the_side_shares_equally() -> None:
    assert load_ruleset("koenigrufen").settlement.split == (1, 1)


def test_a_total_the_shares_cannot_divide_is_refused_at_load_time(tmp_path: Path) -> None:
    """With four, two opponents pay: a Rufer's game of 1 makes 2, which does not divide 2:1."""
    four = FIVE.replace("[5], dealer_sits_out: []", "[4]").replace(
        '    "4": null\n    "5": [{each: 5}, {talon: 4}, {each: 5}]\n', '    "4": [{each: 6}, {talon: 6}, {each: 6}]\n'
    )
    with pytest.raises(RulesetError) as caught:
        _ruleset(tmp_path, four)
    [problem] = [p for p in caught.value.problems if p.path == "settlement.split"]
    assert "cannot be shared 2:1" in problem.message and "from each of 2 opponents" in problem.message
    assert problem.line is not None  # at the split as written


def test_a_sides_payments_are_kept_worked_out_within_a_bound() -> None:
    """What a payment of each value moves is kept per side at a table (`_Sides.moves`, for as
    long as the ruleset lives): past `_MOST_MOVES` values it is worked out afresh, not kept, and
    is the same either way."""
    from interpreter.engine.settlement import _MOST_MOVES, _Sides

    sides = _Sides((1, 3), (0, 2, 4), (54, 70), 5, (2, 1), {})
    for value in range(-_MOST_MOVES, _MOST_MOVES + 40):
        expected = [0] * 5
        side_receives((1, 3), (0, 2, 4), value, expected, (2, 1))
        assert sides.moved(value) == expected
        assert sides.moved(value) == expected  # (the kept one, where kept)
    assert len(sides.moves) == _MOST_MOVES
