"""The settlement's tables made once and kept with the ruleset (`ruleset.derived`: a contract's
steps and bonuses, a table's pack and what its counting takes off a pile of each size, the side
the cards out of play count for at each count of tricks …) settle every deal as tables made
afresh for that deal settle it: none goes stale, none is keyed by too little.

Every shipped ruleset, at each of its table sizes, over seeded random deals: each deal played to
the end is settled again from its piles twice, once with the tables the earlier deals left (the
way every deal after the first is settled) and once with none kept, and both agree with the
game's own result."""

from __future__ import annotations

import pytest

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import play_out
from interpreter.engine.settlement import Result, _bound, _game, _outcome_env, piles, settle
from interpreter.language.loader import ruleset_names

DEALS = 40


def _settled_again(game: Game) -> Result:
    contract = game.contract
    assert contract is not None
    routed = (list(game.talon), list(game.aside)) if contract.out_of_play is not None else None
    out_of_play = game.talon + game.aside if contract.talon_counts else []
    facts = game.deal_facts()
    mine, theirs, mine_tricks, their_tricks = piles(facts, game.tricks, out_of_play, routed)
    return settle(facts, mine, theirs, mine_tricks, their_tricks, "played", game.tricks)


@pytest.mark.parametrize("name", ruleset_names())
def test_a_deal_settles_alike_with_the_kept_tables_and_with_none(name: str) -> None:
    rs = load_ruleset(name)
    settled = 0
    for seed in range(DEALS):
        players = rs.table_sizes[seed % len(rs.table_sizes)]
        game = play_out(Game(rs, players=players, dealer=seed % players, seed=seed), seed=seed, pass_probability=0.6)
        contract, play = game.contract, game.trickplay
        if game.result is None or game.result.outcome != "played" or contract is None or play is None:
            continue
        if contract.individual is not None or play.ended is not None:
            continue  # (everyone for themselves, or play ended early: settled by other steps)
        kept = _settled_again(game)
        game.ruleset.derived.clear()
        afresh = _settled_again(game)
        assert kept == afresh, (name, seed)
        if not game.ante and game.ruleset.settlement.stake == 1:
            assert kept == game.result, (name, seed)
        settled += 1
    assert settled, f"no deal of {name} was played to the end by a declarer's side"


def test_a_game_judged_once_for_the_names_its_formulas_read_is_judged_so_afresh() -> None:
    """The game's judgement (won, drawn, value) is kept per contract by the values of the
    outcome's names its formulas read: for every deal of every shipped ruleset where it is kept,
    the kept judgement is the one its formulas give that deal's outcome afresh, and the outcome's
    mapping gains the same names either way."""
    judged = 0
    for name in ruleset_names():
        rs = load_ruleset(name)
        for seed in range(DEALS):
            players = rs.table_sizes[seed % len(rs.table_sizes)]
            game = play_out(
                Game(rs, players=players, dealer=seed % players, seed=seed), seed=seed, pass_probability=0.6
            )
            contract, play = game.contract, game.trickplay
            if game.result is None or game.result.outcome != "played" or contract is None or play is None:
                continue
            if contract.individual is not None or play.ended is not None:
                continue
            facts = game.deal_facts()
            scoring = _bound(facts).scoring
            if scoring.reads is None or facts.declared:
                continue  # (judged afresh at every deal)
            routed = (list(game.talon), list(game.aside)) if contract.out_of_play is not None else None
            out_of_play = game.talon + game.aside if contract.talon_counts else []
            mine, theirs, mine_tricks, their_tricks = piles(facts, game.tricks, out_of_play, routed)
            env = _outcome_env(
                facts.ruleset,
                mine,
                theirs,
                mine_tricks,
                their_tricks,
                len(facts.seats),
                len(facts.bidders),
                None,
                facts.kontra,
                facts.called_in_talon,
            )
            kept = scoring.judged.get(scoring.reads(env))
            assert kept is not None, (name, seed)  # the deal's own settlement kept it
            afresh = _game(facts, env, game.tricks, None, mine, theirs, scoring)
            assert kept == afresh, (name, seed, contract.name)
            judged += 1
    assert judged > 200


@pytest.mark.parametrize(
    ("name", "taken_off"),
    [
        # Packets of two, each one point less, an odd card one less (dappen-de §3).
        ("breitnau", (0, 1, 1, 2, 2, 3, 3, 4)),
        # Threes, each two points less, a remainder one less (pagat-koenig §2).
        ("koenigrufen", (0, 1, 1, 2, 3, 3, 4, 5, 5, 6)),
    ],
)
def test_what_a_pile_loses_by_its_size_is_the_countings_own_rule(name: str, taken_off: tuple[int, ...]) -> None:
    """The settlement keeps, per table, what a pile of each size loses (`Counting.deduction`):
    the numbers the sources give, and a pile's points its values less that number."""
    counting = load_ruleset(name).counting
    assert tuple(map(counting.deduction, range(len(taken_off)))) == taken_off
    values = {"a": 5, "b": 4, "c": 1, "d": 1, "e": 3}
    for n in range(1, 6):
        cards = list(values)[:n]
        assert counting.points(cards, values) == sum(values[c] for c in cards) - taken_off[n]
