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


# -- Königrufen: kontra, the round of announcements, partner calls, concede ---------------------


def test_koenigrufen_ids_come_after_the_older_sections() -> None:
    enc = Encoding.of(load_ruleset("koenigrufen"), 4)
    # The ids the encoding had before Königrufen's kinds were added keep their places ...
    assert enc.step_id(("play", "T1")) == 0 and enc.step_id(("call", "pass")) == 54
    assert enc.section["discard"] == range(70, 124) and enc.section["announce"] == range(124, 124)
    # ... and the new sections follow: kontra (the game, then the bonuses that may be announced),
    # those bonuses announced, the Kings called for a partner, the choices.
    assert [k for k in SECTIONS if len(enc.section[k])] == [
        "play",
        "call",
        "discard",
        "kontra",
        "bonus",
        "partner",
        "choice",
    ]
    assert enc.step(124) == ("kontra", "game") and enc.step(125) == ("kontra", "trull")
    assert enc.step(133) == ("announce", ("trull", ()))
    assert [enc.step(i) for i in enc.section["partner"]] == [("call_card", k) for k in ("CK", "SK", "HK", "DK")]
    assert [what for _, what in (enc.step(i) for i in enc.section["choice"])] == [
        "fourth_king",
        "concede",
        "first",
        "second",
    ]
    assert enc.num_actions == 149 and sorted(enc.ids.values()) == list(range(149))
    # The round's done call is the auction's pass: no section of its own.
    assert len(enc.section["round"]) == 0


def test_the_rulesets_before_koenigrufen_keep_their_ids_and_vectors() -> None:
    for name, players, actions, size in (
        ("breitnau", 6, 114, 993),
        ("cego", 4, 176, 800),
        ("tapp-modern", 4, 158, 547),
    ):
        enc = Encoding.of(load_ruleset(name), players)
        assert (enc.num_actions, enc.observation_size) == (actions, size), name


def _legal_actions_met(players: int) -> list[tuple[int, object]]:
    """Every legal action of 300 seeded deals of Königrufen: half played by uniform choices, half
    by players who pass two times in three (so that the lower games, Rufer with its partner call
    and its talon in parts, are played too)."""
    rs = load_ruleset("koenigrufen")
    met: list[tuple[int, object]] = []
    for seed in range(300):
        game = Game(rs, players=players, seed=seed)
        bot = RandomBot(seed, pass_probability=None if seed % 2 else 0.67)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            met += [(seed, action) for action in game.legal_actions(seat)]
            game.apply(seat, bot.choose(game, seat))
    return met


@pytest.mark.parametrize("players", [4, 5])
def test_every_koenigrufen_action_met_has_an_id_that_decodes_back_to_it(players: int) -> None:
    enc = Encoding.of(load_ruleset("koenigrufen"), players)
    kinds: set[str] = set()
    for seed, action in _legal_actions_met(players):
        if isinstance(action, dict) and isinstance(action.get("discard"), dict):
            # A choice too large to list: each card it may take has an id.
            kinds.add("discard")
            assert all(("discard", card) in enc.ids for card in action["discard"]["from"]), seed
            continue
        ids = enc.action_ids(action)
        assert enc.action_of(ids) == action, (seed, action)
        kinds.add(action if isinstance(action, str) else next(iter(action)))
    assert {"pass", "play", "kontra", "announce", "call_card", "choose", "discard"} <= kinds


def test_koenigrufen_driven_by_ids_to_the_end_and_observed() -> None:
    rs = load_ruleset("koenigrufen")
    for seed in range(6):
        reference = play_out(Game(rs, players=4, seed=seed), seed=seed, pass_probability=0.67)
        state = EncodedGame(Game(rs, players=4, seed=seed))
        enc = state.encoding
        for seat, action in reference.history:
            for action_id in enc.action_ids(action):
                assert action_id in state.legal_actions()
                state.apply_action(action_id)
            obs = state.observation(seat)
            view = state.game.view(seat)
            announced = obs[enc.layout["announced"]]
            assert sum(announced) == len(view.get("announced", {}))
            for name, side in view.get("announced", {}).items():
                assert announced[2 * enc.bonuses.index(name) + (side != "declarer")] == 1.0
            kontra = obs[enc.layout["kontra"]]
            assert {enc.kontra_items[i] for i, x in enumerate(kontra) if x} == set(view.get("kontra", {}))
            called = obs[enc.layout["called"]]
            assert [enc.cards[i] for i, x in enumerate(called) if x] == ([view["called"]] if view.get("called") else [])
        assert state.is_terminal() and state.returns() == list(reference.result.payments)
