"""The interface for learning and search (interpreter/engine/encoding.py): stable action ids,
games driven by ids to the end, observations that read a seat's view only, cheap clones, and
discards chosen card by card."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter import Game, IllegalActionError, load_ruleset
from interpreter.bots.randombot import RandomBot, play_out
from interpreter.engine.encoding import SECTIONS, EncodedGame, Encoding, clone_game

FIVE_POINTERS = {"T22", "T21", "T1", "CK", "SK", "HK", "DK"}


def test_breitnau_ids_are_fixed() -> None:
    enc = Encoding.of(load_ruleset("breitnau"), 6)
    # Cards in the deck's order, then the calls (pass first), then one discard per card.
    assert enc.step_id(("play", "T1")) == 0 and enc.step_id(("play", "D4")) == 53
    assert [enc.step_id(("call", c)) for c in ("pass", "solo", "dappen", "strecken", "stupfen", "selber")] == list(
        range(54, 60)
    )
    assert enc.step_id(("discard", "T1")) == 60 and enc.num_actions == 114
    assert enc.step(60) == ("discard", "T1")
    assert [k for k in SECTIONS if len(enc.section[k])] == ["play", "call", "discard"]
    # A section the ruleset does not use is empty: later kinds keep their place after it.
    assert enc.section["keep"] == range(114, 114) and enc.section["announce"].start == 114


def test_ids_of_a_ruleset_with_every_section_in_use() -> None:
    enc = Encoding.of(load_ruleset("tapp-modern"), 4)
    assert [k for k in SECTIONS if len(enc.section[k])] == ["play", "call", "discard", "call_card", "give", "choose"]
    assert enc.steps[enc.section["choose"].start][0] == "choose"
    assert sorted(enc.ids.values()) == list(range(enc.num_actions))


@pytest.mark.parametrize(("name", "players"), [("breitnau", 6), ("cego", 4), ("cego", 3), ("tapp-modern", 4)])
def test_the_same_choices_by_id_give_the_same_deal(name: str, players: int) -> None:
    rs = load_ruleset(name)
    for seed in range(4):
        reference = play_out(Game(rs, players=players, seed=seed), seed=seed, pass_probability=0.7)
        state = EncodedGame(Game(rs, players=players, seed=seed))
        for seat, action in reference.history:
            assert state.current_player() == seat
            for action_id in state.encoding.action_ids(action):
                assert action_id in state.legal_actions()
                obs = state.observation(seat)
                assert len(obs) == state.encoding.observation_size
                state.apply_action(action_id)
        assert state.is_terminal() and state.returns() == list(reference.result.payments)
        assert state.legal_actions() == []


def test_an_observation_reads_only_the_seats_view() -> None:
    rs = load_ruleset("breitnau")
    game = play_out(Game(rs, players=6, seed=4), seed=4)
    hands, talon = [list(h) for h in game.initial_hands], list(game.initial_talon)
    # Seats 3 and 4 get each other's cards: seat 1 cannot tell, at the start or after the calls.
    swapped = [*hands[:3], hands[4], hands[3], hands[5]]
    one = EncodedGame(Game(rs, players=6, deal={"hands": hands, "talon": talon}))
    other = EncodedGame(Game(rs, players=6, deal={"hands": swapped, "talon": talon}))
    for _ in range(3):
        assert one.observation(1) == other.observation(1)
        assert one.observation(3) != other.observation(3)
        move = one.encoding.step_id(("call", "pass"))
        one.apply_action(move)
        other.apply_action(move)
    enc = one.encoding
    hand = one.observation(1)[enc.layout["hand"]]
    assert [enc.cards[i] for i, x in enumerate(hand) if x] == sorted(hands[1], key=enc.cards.index)


def test_a_discard_is_chosen_card_by_card() -> None:
    rs = load_ruleset("breitnau")
    state = EncodedGame(Game(rs, players=6, seed=2))
    enc = state.encoding
    for call in ["pass"] * 6 + ["dappen"] + ["pass"] * 5:
        state.apply_action(enc.step_id(("call", call)))
    declarer = state.game.declarer
    assert declarer == 1 and state.game.phase.value == "exchange"
    hand = state.game.hands[declarer]
    offered = [enc.step(i)[1] for i in state.legal_actions()]
    assert sorted(offered) == sorted(c for c in hand if c not in FIVE_POINTERS)
    first, *rest = offered[:12]
    state.apply_action(enc.step_id(("discard", first)))
    assert enc.step_id(("discard", first)) not in state.legal_actions()
    # The card chosen shows in the declarer's own observation only, and the game has not moved.
    choosing = enc.layout["choosing"]
    assert sum(state.observation(declarer)[choosing]) == 1 and sum(state.observation(2)[choosing]) == 0
    assert len(state.game.hands[declarer]) == 19
    copy = state.clone()
    for card in rest:
        state.apply_action(enc.step_id(("discard", card)))
    assert state.game.phase.value == "play" and sorted(state.game.aside) == sorted(offered[:12])
    assert copy.game.phase.value == "exchange" and copy.pending is not None and copy.pending.chosen == [first]
    with pytest.raises(IllegalActionError):
        state.apply_action(enc.step_id(("call", "solo")))


def test_a_clone_is_the_same_game_and_independent() -> None:
    rs = load_ruleset("cego")
    game = Game(rs, players=4, seed=8)
    bot = RandomBot(3)
    for _ in range(20):
        game.apply(game.to_act, bot.choose(game, game.to_act))
    copy = clone_game(game)
    assert copy.history == game.history and copy.legal_actions() == game.legal_actions()
    assert all(copy.view(s) == game.view(s) for s in range(4))
    copy.apply(copy.to_act, copy.legal_actions()[0])
    assert len(copy.history) == len(game.history) + 1
    play_out(copy, seed=1)
    assert not game.is_over and copy.is_over


def test_readme_example_runs() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    code = next(block for block in re.findall(r"```python\n(.*?)```", readme, re.S) if "EncodedGame" in block)
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert namespace["state"].is_terminal()
