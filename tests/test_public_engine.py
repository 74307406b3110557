"""The engine's state is offered publicly, and used only so; `push` plays as `apply` does.

No module outside the engine's stages (observation, bots, frontends) and no test reads or sets a
private member of `Game` or of a stage (`game._something`): what they need is public (the current
trick, its number, a seat's legal cards, `apply_departure` for a card an observed table allowed).
And `Game.push(*ids)`, the trusted way for programs, plays a deal exactly as `apply` does.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.encoding import Encoding, clone_game
from interpreter.errors import IllegalActionError

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "interpreter" / "engine"
# The modules whose classes are the game and its stages, and the classes.
STAGES = {
    "game.py": {"Game"},
    "play.py": {"TrickPlay"},
    "auction.py": {"Auction"},
    "exchange.py": {"Exchange"},
    "announcing.py": {"Round", "AnnouncementRound", "DoublingRound"},
    "announcements.py": {"DeclarerAnnouncement"},
    "table.py": {"Table"},
}


def _private_members() -> set[str]:
    """The private names the game and the stages define: `self._x = ...` and `def _x`."""
    names: set[str] = set()
    for module, classes in STAGES.items():
        tree = ast.parse((ENGINE / module).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name in classes:
                for inner in ast.walk(node):
                    if (
                        isinstance(inner, ast.FunctionDef)
                        and inner.name.startswith("_")
                        and not inner.name.endswith("__")
                    ):
                        names.add(inner.name)
                    if (
                        isinstance(inner, ast.Attribute)
                        and isinstance(inner.value, ast.Name)
                        and inner.value.id == "self"
                        and inner.attr.startswith("_")
                        and not inner.attr.endswith("__")
                    ):
                        names.add(inner.attr)
    return names


def _outsiders() -> list[Path]:
    """Observation, the bots, the frontends and the tests."""
    paths = [ENGINE / "observation.py", *(ROOT / "interpreter" / "bots").glob("*.py")]
    paths += (ROOT / "interpreter" / "frontends").rglob("*.py")
    paths += (ROOT / "tests").glob("*.py")
    return [p for p in paths if p.name != Path(__file__).name]


def test_nothing_outside_the_stages_reaches_into_their_private_members() -> None:
    private = _private_members()
    assert {"_stage", "_offer", "_judge", "_steps"} <= private
    found = []
    for path in _outsiders():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in private
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
    assert not found, "private members of the game or a stage used from outside: " + "; ".join(found)


@pytest.mark.parametrize(("name", "players"), [("breitnau", 6), ("cego", 4), ("koenigrufen", 4), ("dreierles", 3)])
def test_push_plays_a_deal_as_apply_does(name: str, players: int) -> None:
    encoding = Encoding.of(load_ruleset(name), players)
    for seed, pushed, applied, rng in _same_deal_two_ways(encoding, seeds=25):
        while not pushed.is_over:
            seat = pushed.to_act
            assert seat is not None and seat == applied.to_act
            ids = pushed.legal_ids()
            assert ids, (seed, seat)
            first = rng.choice(ids)
            steps = [first]
            kind = encoding.steps[first][0]
            if kind in ("discard", "keep"):
                # A discard or keep of several cards: its cards one by one, each one that can still
                # complete a legal choice (as the learning interface offers them).
                steps = _complete_choice(pushed, encoding, first, rng)
            action = encoding.action_of(steps)
            pushed.push(*steps)
            applied.apply(seat, action)


def _same_deal_two_ways(encoding: Encoding, seeds: int) -> Iterator[tuple[int, Game, Game, random.Random]]:
    """For each seed below `seeds`: (the seed, a game to play by ids, the same deal to play by
    `apply`, the deal's chooser). Once the caller has played both to the end, they must have gone
    alike: the same history, events and result."""
    for seed in range(seeds):
        game = Game(encoding.ruleset, players=encoding.players, seed=seed)
        other = Game(encoding.ruleset, players=encoding.players, seed=seed)
        yield seed, game, other, random.Random(seed)
        assert game.is_over and other.is_over, seed
        assert game.history == other.history, seed
        assert game.events == other.events, seed
        assert game.result == other.result, seed


def _complete_choice(game: Game, encoding: Encoding, first: int, rng: random.Random) -> list[int]:
    chosen = [first]
    kind = encoding.steps[first][0]
    while True:
        cards = [encoding.steps[i][1] for i in chosen]
        left = encoding.action_table.legal(game.legal_actions(), cards)
        action = encoding.action_of(chosen)
        if not left or _is_legal(game, action):
            return chosen
        chosen.append(rng.choice(left))
        assert encoding.steps[chosen[-1]][0] == kind


def _is_legal(game: Game, action: object) -> bool:
    try:
        clone_game(game).apply(game.to_act or 0, action)
    except IllegalActionError:
        return False
    return True


def test_push_without_a_seat_to_act_is_refused() -> None:
    game = Game(load_ruleset("breitnau"), players=6, seed=1)
    while not game.is_over:
        game.push(game.legal_ids()[0])
    with pytest.raises(IllegalActionError, match="over"):
        game.push(0)


@pytest.mark.parametrize(("name", "players"), [("breitnau", 6), ("cego", 4), ("koenigrufen", 4), ("tapp", 3)])
def test_push_listed_takes_only_an_id_listed_for_this_turn(name: str, players: int) -> None:
    encoding = Encoding.of(load_ruleset(name), players)
    for seed, listed, applied, rng in _same_deal_two_ways(encoding, seeds=15):
        while not listed.is_over:
            seat = listed.to_act
            assert seat is not None
            before = (listed.history, len(listed.events))
            # Nothing listed for this turn yet: not taken.
            assert not listed.push_listed(0)
            ids = listed.legal_ids()
            others = [i for i in range(encoding.num_actions) if i not in ids]
            for wrong in (rng.choice(others), float(ids[0]), True, -1, encoding.num_actions):
                assert not listed.push_listed(wrong)  # type: ignore[arg-type]
            assert (listed.history, len(listed.events)) == before
            first = rng.choice(ids)
            if encoding.steps[first][0] in ("discard", "keep"):
                steps = _complete_choice(listed, encoding, first, rng)
                action = encoding.action_of(steps)
                listed.push(*steps)
                applied.apply(seat, action)
                assert not listed.push_listed(first)  # (listed for a turn that is over)
                continue
            playing = listed.phase.value == "play"
            # Taken wherever the game keeps the offer for the turn (trick play always); where it
            # makes its actions anew each time (a discard, an announcement with cards), not.
            if not listed.push_listed(first):
                assert not playing, (seed, first)
                listed.push(first)
            applied.apply(seat, encoding.action_of([first]))
            assert not listed.push_listed(first)  # (listed for a turn that is over)
