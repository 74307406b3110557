"""Dreierles (pagat-dreierles): the mechanics it brought to the language, held to the rules text.

The records under tests/records/dreierles-* play whole deals; these tests look inside them: the
blind's order, what each seat sees of it, who may knock, and the scoring table cell by cell.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dreierles_by_hand as by_hand
import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.errors import IllegalActionError

RECORDS = Path(__file__).parent / "records"

TALON = ["C7", "T13", "HN", "H2", "SJ", "T8"]  # from the top, as dealt


def _deal_with_talon(talon: list[str], players: int = 3) -> dict[str, Any]:
    """A deal of the pack with this blind, the other cards dealt in order."""
    pack = [c for c in load_ruleset("dreierles").pack(3) if c not in talon]
    hands = [pack[i * 16 : (i + 1) * 16] for i in range(3)]
    if players == 4:
        hands = [[], *hands]  # the dealer, seat 0, sits out
    return {"hands": hands, "talon": list(talon)}


def _bid(game: Game, bid: str) -> int:
    """Vorhand bids, the others pass; returns the declarer."""
    declarer = game.to_act
    assert declarer is not None
    game.apply(declarer, bid)
    while game.phase.value == "auction":
        seat = game.to_act
        assert seat is not None
        game.apply(seat, "pass")
    return declarer


@pytest.mark.parametrize("bid, count", [("dreier", 3), ("zweier", 2), ("einer", 1), ("solo", 0)])
@pytest.mark.parametrize("players", [3, 4])
def test_the_bid_draws_that_many_cards_from_the_top_of_the_blind(bid: str, count: int, players: int) -> None:
    game = Game("dreierles", players=players, dealer=0, deal=_deal_with_talon(TALON, players))
    assert game.talon == TALON  # the blind keeps the order it was dealt in
    declarer = _bid(game, bid)
    drawn, rest = TALON[:count], TALON[count:]
    assert set(drawn) <= set(game.hands[declarer])
    assert not set(rest) & set(game.hands[declarer])
    assert game.talon == rest
    shown = [e for e in game.events if e["type"] == "talon_shown"]
    assert shown == (
        [{"type": "talon_shown", "seat": declarer, "cards": drawn, "parts": 1, "end": "top"}] if count else []
    )
    for seat in range(players):
        view = game.view(seat)
        if count:
            assert view["talon_shown"] == drawn  # everybody sees the cards drawn, and only those
        if seat == declarer or seat in game.seats_out or not count:
            assert "talon" not in view  # the declarer never sees the rest of the blind
        else:
            assert view["talon"] == rest  # the opponents look at it


def _discard(game: Game) -> None:
    """The declarer discards the first cards allowed."""
    assert game.declarer is not None
    while game.phase.value == "exchange":
        action = game.legal_actions()[0]
        assert isinstance(action, dict)
        if isinstance(action["discard"], dict):  # a template: too many choices to list
            action = {"discard": action["discard"]["from"][: action["discard"]["count"]]}
        game.apply(game.declarer, action)


def _knockers(calls: list[tuple[int, str]], seed: int) -> set[int]:
    """Who may knock on their turn once the declarer has said fertig, nobody knocking, after the
    calls of a 3-player auction with the dealer at seat 0 (A = seat 1, B = seat 2, C = seat 0)."""
    game = Game("dreierles", players=3, dealer=0, seed=seed)
    for seat, call in calls:
        game.apply(seat, call)
    _discard(game)
    game.apply(game.declarer, "fertig")
    may = set()
    while game.phase.value == "announce":
        seat = game.to_act
        assert seat is not None
        if seat != game.declarer and {"kontra": "game"} in game.legal_actions(seat):
            may.add(seat)
        game.apply(seat, "fertig")
    return may


@pytest.mark.parametrize(
    "calls, may_knock",
    [
        # Source example 1: A weg, B Dreier, C weg: C may knock, A may not.
        ([(1, "pass"), (2, "dreier"), (0, "pass")], {0}),
        # Source example 2: A weg, B weg, C Dreier: neither opponent may knock.
        ([(1, "pass"), (2, "pass"), (0, "dreier")], set()),
        # Derived: A Dreier, B Zweier, C weg: A bid, C could no longer bid Dreier; both may.
        ([(1, "dreier"), (2, "zweier"), (0, "pass")], {0, 1}),
        # Derived: A weg, B Solo: nobody can outbid a Solo, so C has no turn; C could not have
        # bid Dreier and may knock, A may not.
        ([(1, "pass"), (2, "solo")], {0}),
    ],
)
def test_an_opponent_who_could_have_bid_dreier_and_passed_may_not_knock(
    calls: list[tuple[int, str]], may_knock: set[int]
) -> None:
    assert _knockers(calls, seed=5) == may_knock


def test_the_declarer_may_knock_back_up_to_the_limit() -> None:
    game = Game("dreierles", players=3, dealer=0, seed=1)
    for seat, call in [(1, "pass"), (2, "dreier"), (0, "pass")]:
        game.apply(seat, call)
    _discard(game)
    assert game.legal_actions(2) == ["fertig"]  # nothing to announce with this hand, no knock yet
    game.apply(2, "fertig")
    game.apply(0, {"kontra": "game"})
    game.apply(0, "fertig")
    game.apply(1, "fertig")
    assert {"kontra": "game"} in game.legal_actions(2)
    game.apply(2, {"kontra": "game"})
    game.apply(2, "fertig")
    assert {"kontra": "game"} not in game.legal_actions(0)  # two knocks: the default limit
    events = [e["title"] for e in game.events if e["type"] == "kontra"]
    assert events == ["Klopfen", "Zurückklopfen"]


def _declarer_after_exchange(seed: int, bid: str = "solo") -> Game:
    game = Game("dreierles", players=3, dealer=0, seed=seed)
    game.apply(1, bid)
    while game.phase.value == "auction":
        game.apply(game.to_act, "pass")
    _discard(game)
    return game


def test_only_the_declarer_announces_and_only_before_fertig() -> None:
    for seed in range(200):
        game = _declarer_after_exchange(seed)
        hand = game.hands[1]
        if "T1" in hand and sum(c.startswith("T") for c in hand) >= 10:
            break
    else:
        raise AssertionError("no deal with the Pfeife and ten trumps for Vorhand")
    assert game.legal_actions(1) == [
        "fertig",
        {"announce": "zehn_druck", "cards": []},
        {"announce": "pfeife_raus", "cards": []},
    ]
    game.apply(1, {"announce": "pfeife_raus", "cards": []})
    game.apply(1, "fertig")
    for seat in (2, 0):
        assert not any("announce" in a for a in game.legal_actions(seat) if isinstance(a, dict))
        game.apply(seat, "fertig")
    assert game.phase.value == "play"  # nobody knocked: the round is over, no second turn to announce


def test_without_the_pfeife_there_is_no_pfeife_raus() -> None:
    for seed in range(200):
        game = _declarer_after_exchange(seed)
        if "T1" not in game.hands[1]:
            break
    assert {"announce": "pfeife_raus", "cards": []} not in game.legal_actions(1)


def test_a_forfeit_is_told_to_the_table() -> None:
    from pathlib import Path

    from interpreter.engine.records import replay

    report = replay(Path(__file__).parent / "records" / "dreierles-pfeife-raus-forced-out.yaml")
    game = report.game
    forfeits = [e for e in game.events if e["type"] == "forfeit"]
    assert forfeits == [{"type": "forfeit", "seat": 1, "card": "T1", "bonus": "pfeife_raus", "trick": 11}]
    assert game.tricks[10].winner == 1  # the Pfeife won trick 11, which is forfeited all the same
    bonus = next(b for b in game.result.bonuses if b["name"] == "pfeife_raus")
    assert bonus["announced"] and not bonus["achieved"] and bonus["value"] == -2


# -- the scoring table ------------------------------------------------------------------------------


def _piles(points: int) -> tuple[list[str], list[str]]:
    """The pack split so that the first pile counts `points` (in threes, 70 in all)."""
    pack = list(load_ruleset("dreierles").pack(3))
    ones = [c for c in pack if by_hand.value(c) == 1]
    fives = [c for c in pack if by_hand.value(c) == 5]
    others = [c for c in pack if 1 < by_hand.value(c) < 5]
    for size in range(0, 55):
        for n_fives in range(0, min(size, len(fives)) + 1):
            for n_others in range(0, min(size - n_fives, len(others)) + 1):
                n_ones = size - n_fives - n_others
                if n_ones > len(ones):
                    continue
                pile = fives[:n_fives] + others[:n_others] + ones[:n_ones]
                if by_hand.count(pile) == points:
                    return pile, [c for c in pack if c not in pile]
    raise AssertionError(points)


@pytest.mark.parametrize("bid", list(by_hand.MULTIPLIER))
def test_the_scoring_table(bid: str) -> None:
    """Every row of the printed table (§9), at every number of card points, against the engine's
    settlement of a deal with those card points; and the formula agrees with the table."""
    from interpreter.engine.settlement import Deal, settle

    ruleset = load_ruleset("dreierles")
    contract = ruleset.contracts[bid]
    deal = Deal(ruleset, contract, 1, [1, 2, 0], 3, (), frozenset({1}), {}, ())
    for points in range(0, 71):
        expected = by_hand.table_score(points, bid) if points < 70 else 8 * by_hand.MULTIPLIER[bid]
        assert by_hand.formula_score(points, bid) == expected or expected is None
        if expected is None:
            continue  # impossible: three or two discards always count 1 for the declarer
        declarer, defenders = _piles(points)
        result = settle(deal, declarer, defenders, 8, 8, "played")
        assert result.points == {"declarer": points, "defenders": 70 - points}
        assert result.payments == [-expected, 2 * expected, -expected], (bid, points)


# -- Räuber -------------------------------------------------------------------------------------------


def _raeuber(players: int, seed: int) -> Game:
    game = Game("dreierles", players=players, dealer=0, seed=seed)
    while game.phase.value == "auction":
        game.apply(game.to_act, "pass")
    return game


@pytest.mark.parametrize("players, order", [(3, [0, 1, 2]), (4, [3, 0, 1, 2])])
def test_raeuber_knocking_goes_round_from_the_last_to_pass(players: int, order: list[int]) -> None:
    """At three the dealer passes last and knocks first; at four the player to the dealer's left
    does, then the dealer, who sits out but knocks in Steinmauern."""
    game = _raeuber(players, seed=3)
    assert game.contract is not None and game.contract.name == "raeuber"
    turns = []
    while game.phase.value == "announce":
        seat = game.to_act
        assert seat is not None
        assert game.legal_actions(seat) == ["fertig", {"kontra": "game"}]
        turns.append(seat)
        game.apply(seat, {"kontra": "game"})
    assert turns == order
    assert game.view(1)["kontra"] == {"game": players}  # every knock doubles: × 2**players


def test_the_pfeife_falls_early_when_it_is_its_holders_only_card_to_play() -> None:
    """The duties never leave a player without a card: a holder who must play a trump and has
    none but the Pfeife plays it, before the third trick led with a trump."""
    import random

    for seed in range(300):
        game = _raeuber(3, seed)
        while game.phase.value == "announce":
            game.apply(game.to_act, "fertig")
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            hand, trick = game.hands[seat], game.trickplay.trick.cards if game.trickplay else []
            leads = sum(1 for t in game.tricks if t.cards and t.cards[0].startswith("T"))
            trumps = [c for c in hand if c.startswith("T")]
            led_suit = trick[0][0] if trick and not trick[0].startswith("T") else None
            must_trump = trick and (
                led_suit is None or not any(c[0] == led_suit and not c.startswith("T") for c in hand)
            )
            if trumps == ["T1"] and must_trump and leads < 3:
                assert game.legal_actions(seat) == [{"play": "T1"}]
                return
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    raise AssertionError("no deal in which the Pfeife was its holder's only trump early")


def test_the_log_takes_the_worked_example_apart() -> None:
    """The game and each bonus on a line of their own, adding up to the payments (§9's example)."""
    from pathlib import Path

    from interpreter.engine.records import replay
    from interpreter.frontends.log import render_log

    game = replay(Path(__file__).parent / "records" / "dreierles-anne-and-bert-worked-example.yaml").game
    log = render_log(game)
    assert "Announcement: seat 1 declares Pfeife in the last trick." in log
    assert "Game: each opponent pays seat 1 8 (+24 in all)." in log
    assert "Bonus: Zehn Druck in seat 2's hand (made): seat 0 -1, seat 1 -1, seat 2 +3, seat 3 -1." in log
    assert game.result is not None
    parts = [b["payments"] for b in game.result.bonuses]
    game_part = [8 * 3 if s == 1 else -8 for s in range(4)]
    assert [sum(p[s] for p in parts) + game_part[s] for s in range(4)] == game.result.payments == [-8, 20, -4, -8]


# -- the new words, misused ----------------------------------------------------------------------------

VARIANT = """\
title: A Dreierles variant
extends: dreierles
source: "pagat-dreierles: §1"
status: assumed
"""


@pytest.mark.parametrize(
    "rules, place, message",
    [
        (
            "contracts: {dreier: {exchange: [{take_talon: {count: 7}}, {discard: {count: talon}}]}}",
            "contracts.dreier.exchange[0].take_talon.count",
            "with 3 players the talon has 6 cards, so 7 cannot be taken from it",
        ),
        (
            "contracts: {dreier: {exchange: [{take_talon: {count: 2, parts: 2}}, {discard: {count: talon}}]}}",
            "contracts.dreier.exchange[0].take_talon",
            "take the talon in `parts` or take `count` cards from it, not both",
        ),
        (
            'contracts: {raeuber: {play: {duties: [{cards: "{T1}", must: "leading", may_not: "leading"}]}}}',
            "contracts.raeuber.play.duties[0]",
            "a duty says when its cards `must` be played or when they `may_not`: one of the two",
        ),
        (
            "contracts: {solo: {doubling: {start: vorhand}}}",
            "contracts.solo.doubling",
            "a round in which each player may double once is for a game where everyone plays for themselves",
        ),
        (
            "bonuses: {drull: {forced_early: forfeit}}",
            "bonuses.drull.forced_early",
            "only an announced bonus with a `card` kept back for its `trick` can be forced out early",
        ),
        (
            'kontra: {game: {eligible: "made_bids or bid_before_turn"}}',
            "kontra.game.eligible",
            "did you mean 'made_bid'",
        ),
        (
            'contracts: {raeuber: {play: {duties: [{cards: "{T1}", must: "trick_count == 3"}]}}}',
            "contracts.raeuber.play.duties[0].must",
            "did you mean 'trick_cards'",
        ),
    ],
)
def test_a_misused_word_is_refused_with_its_place(tmp_path: Any, rules: str, place: str, message: str) -> None:
    from interpreter.language.loader import check_ruleset

    file = tmp_path / "variant.yaml"
    file.write_text(VARIANT + rules + "\n", encoding="utf-8")
    problems = check_ruleset(str(file))
    assert any(p.path.startswith(place) and message in p.message and p.line for p in problems), [
        str(p) for p in problems
    ]


def test_an_incorrect_discard_ends_the_play_and_the_declarer_pays_four_times_the_multiplier() -> None:
    """§11: an incorrect discard ends the play at once; the offender pays 4 × the bid multiplier
    (Zweier: 2), doubled per knock (none yet). Recorded under rule_breaches: penalize; by default
    it is refused. The offence is told without the cards, which lie face down."""
    record = yaml.safe_load((RECORDS / "dreierles-incorrect-discard-penalized.yaml").read_text(encoding="utf-8"))
    amount = 4 * by_hand.MULTIPLIER["zweier"]
    assert record["expect"]["payments"] == [amount, amount, -2 * amount]

    def at_discard(options: dict[str, str]) -> Game:
        game = Game(load_ruleset("dreierles", options), players=3, deal=record["deal"])
        for seat, action in record["actions"][:3]:
            game.apply(seat, action)
        return game

    game = at_discard({"rule_breaches": "penalize"})
    # A discard that is no discard at all (a card named twice, a card not held) is still refused;
    # three cards where two are due is the offence discard_size (its own record).
    for wrong in (["C7", "C7"], ["C7", "HK"]):
        with pytest.raises(IllegalActionError):
            game.apply(2, {"discard": wrong})
    events = game.apply(2, {"discard": ["C7", "CK"]})
    offence = next(e for e in events if e["type"] == "offence")
    assert offence["offence"] == "discard" and "CK" not in str(offence)
    assert game.result is not None and game.result.payments == [amount, amount, -2 * amount]
    refusing = at_discard({})
    with pytest.raises(IllegalActionError, match="Kings and trumps may not be discarded: CK"):
        refusing.apply(2, {"discard": ["C7", "CK"]})
