"""The benchmark's yardstick, a hand-coded Breitnau (benchmarks/breitnau_by_hand.py), plays the
same game as the interpreter: for the same seed both make the same random choices, so every deal
must end with the same contract, declarer, card points and payments. Passing often
(`pass_probability`) reaches the Dappen round, deals thrown in, claims and the listed discards."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import RandomBot, play_out

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import breitnau_by_hand
import breitnau_by_hand_api

# Found by search with pass_probability 0.9: claims (all seven five-pointers after the pick-up)
# and hands with six five-pointers (13 cards to discard 12 from: a listed choice, not a template).
CLAIMS = (16340, 21671, 31040)
THIRTEEN = (4, 1070, 1371, 1604)


def interpreted(seed: int, pass_probability: float | None) -> breitnau_by_hand.Outcome:
    game = play_out(Game(load_ruleset("breitnau"), players=6, seed=seed), seed=seed, pass_probability=pass_probability)
    r = game.result
    assert r is not None
    points = (r.points["declarer"], r.points["defenders"]) if r.points else None
    return r.outcome, r.contract, r.declarer, points, list(r.payments)


@pytest.mark.parametrize("pass_probability", [None, 0.9])
def test_same_seed_same_deal_same_payments(pass_probability: float | None) -> None:
    seen: Counter[tuple[str, str | None]] = Counter()
    for seed in range(400):
        expected = interpreted(seed, pass_probability)
        assert breitnau_by_hand.play_deal(seed, pass_probability=pass_probability) == expected, seed
        seen[expected[0], expected[1]] += 1
    if pass_probability is not None:
        assert {("thrown_in", None), ("played", "solo"), ("played", "dappen"), ("played", "strecken")} <= set(seen)


def test_claims_and_listed_discards_agree() -> None:
    for seed in CLAIMS + THIRTEEN:
        expected = interpreted(seed, 0.9)
        assert breitnau_by_hand.play_deal(seed, pass_probability=0.9) == expected, seed
    assert all(interpreted(seed, 0.9)[0] == "claimed" for seed in CLAIMS)


def test_the_pack_is_the_rulesets() -> None:
    rs = load_ruleset("breitnau")
    assert tuple(rs.pack(6)) == breitnau_by_hand.PACK
    assert dict(rs.deck.points) == breitnau_by_hand.POINTS
    assert sum(breitnau_by_hand.POINTS.values()) == 106


def test_the_benchmark_times_every_deal_once_a_round_and_keeps_each_slices_best(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """bench_random_deals.measure: the runners take turns slice by slice, every seed is played
    once in each round, and a runner's time is the sum of its slices' best times."""
    import bench_random_deals as bench

    played: list[tuple[str, int]] = []

    def runner(label: str) -> bench.Runner:
        def run(seeds: range) -> int:
            played.extend((label, seed) for seed in seeds)
            return 2 * len(seeds)

        return run

    # Slice i of round r takes 10 - r + i seconds: each slice's best is its last round's.
    times = iter([10 - r + i for r in range(3) for i in range(3) for _ in "ab"])
    monkeypatch.setattr(bench, "cpu_seconds", lambda run, seeds: (next(times), 0.0, run(seeds)))
    best = bench.measure({"a": runner("a"), "b": runner("b")}, deals=7, repeat=3, slice_=3)
    assert best == {"a": (8 + 9 + 10, 0.0, 14), "b": (8 + 9 + 10, 0.0, 14)}
    first_round = played[: 2 * 7]
    assert first_round == [
        (label, seed) for part in (range(0, 3), range(3, 6), range(6, 7)) for label in "ab" for seed in part
    ]
    assert Counter(played) == {(label, seed): 3 for label in "ab" for seed in range(7)}


def test_the_benchmark_runs_through_the_public_api(capsys: pytest.CaptureFixture[str]) -> None:
    import bench_random_deals as bench

    assert bench.main(["--ruleset", "breitnau", "--players", "6", "--deals", "6", "--repeat", "2", "--slice", "4"]) == 0
    out = capsys.readouterr().out
    assert "6 random deals each, in slices of 4" in out and "breitnau (6)" in out


def behind_the_api(seed: int, pass_probability: float | None) -> breitnau_by_hand.Outcome:
    """The deal of `seed` through breitnau_by_hand_api.HandGame, each seat choosing as the
    interpreter's RandomBot chooses (it reads only `legal_actions`)."""
    game = breitnau_by_hand_api.HandGame(seed)
    choose = RandomBot(seed, pass_probability).choose
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, choose(game, seat))  # type: ignore[arg-type]  # (a game with the same API)
    assert game.result is not None
    return game.result  # type: ignore[return-value]


@pytest.mark.parametrize("pass_probability", [None, 0.9])
def test_the_yardstick_behind_the_api_plays_the_same_deals(pass_probability: float | None) -> None:
    """The second yardstick (the same rules behind the API's contract) ends every deal as the
    bare one does, and so as the interpreter does (the test above)."""
    for seed in range(400):
        bare = breitnau_by_hand.play_deal(seed, pass_probability=pass_probability)
        assert behind_the_api(seed, pass_probability) == bare, seed
    for seed in CLAIMS + THIRTEEN:
        assert behind_the_api(seed, 0.9) == breitnau_by_hand.play_deal(seed, pass_probability=0.9), seed


def test_the_yardstick_behind_the_api_keeps_the_contract() -> None:
    """What the API promises at every action, kept by the second yardstick too: a new list of
    legal actions each time, none for a seat not to act, an action not offered refused with
    nothing changed, the history and the events written, the events caused returned."""
    game = breitnau_by_hand_api.HandGame(7)
    seat = game.to_act
    assert seat is not None
    legal = game.legal_actions(seat)
    assert legal == ["pass", "solo"] and legal is not game.legal_actions(seat)
    assert game.legal_actions((seat + 1) % 6) == []
    events = len(game.events)
    for wrong in ((seat + 1) % 6, "pass"), (seat, "dappen"), (seat, {"play": "T1"}):
        with pytest.raises(breitnau_by_hand_api.IllegalActionError):
            game.apply(*wrong)
    assert len(game.events) == events and game.history == [] and game.to_act == seat
    assert game.apply(seat, "pass") == [{"type": "call", "seat": seat, "call": "pass"}]
    assert game.history == [(seat, "pass")] and game.to_act == (seat + 1) % 6
    import bench_random_deals

    actions = bench_random_deals.api_deal(7)
    assert actions > 6 and breitnau_by_hand_api.HandGame(7).legal_actions() == ["pass", "solo"]


def test_the_phases_benchmark_files_the_same_steps_of_the_same_deals() -> None:
    """benchmarks/phases.py times both engines over the same deals: each step must be found as
    often in one as in the other, every deal made once, and every card of a played deal filed
    (42 at six: seven tricks), the last card of each deal apart."""
    import phases

    deals = 30
    best = phases.phase_times(deals, repeat=1)
    (_, by_hand), (_, interpreter) = best["by hand, API"], best["interpreter"]
    assert by_hand == interpreter
    assert interpreter["making the game"] == deals
    played = interpreter["the last card"]
    assert 0 < played <= deals and interpreter["a card"] == 41 * played
    assert interpreter["the auction's last call"] == deals  # (every deal's auction ends, thrown in or not)
