"""Seeds handed on (interpreter/engine/seeds.py): a seeded session deals from 64-bit seeds hashed
from its own, a bot never draws the stream that shuffled the cards (the protocol's `bot` op,
`tarock play`, `tarock simulate`), and `Game(seed=N)` deals as it always has, so old records
with `seed:` replay as before."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from clirun import tarock

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import RandomBot, play_out
from interpreter.engine.records import parse_record, replay, replay_document
from interpreter.engine.seeds import bot_seed, deal_seed, derive_seed
from interpreter.engine.session import Session
from interpreter.frontends import server
from interpreter.frontends.simulate import simulate

RECORDS = Path(__file__).resolve().parent / "records"


def blake2b_64(*parts: object) -> int:
    """The derivation written out again from its description: BLAKE2b, 8 bytes, personalised."""
    text = json.dumps(list(parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8, person=b"tarock.seeds").digest(), "big")


def test_the_derivation_is_a_64_bit_hash_of_purpose_seed_and_index() -> None:
    assert deal_seed(7, 3) == blake2b_64("deal", 7, 3)
    assert bot_seed(7, 3, 1) == blake2b_64("bot", 7, 3, 1)
    assert bot_seed(None, 3) is None  # no seed: the operating system's randomness
    # Purposes and indices are told apart: ("bot", 1, 23) is not ("bot", 12, 3), a deal not a bot.
    assert bot_seed(1, 23) != bot_seed(12, 3) and deal_seed(5, 0) != bot_seed(5, 0)
    seeds = {deal_seed(base, i) for base in range(20) for i in range(500)}
    assert len(seeds) == 10_000 and all(0 <= s < 2**64 for s in seeds)
    assert max(seeds).bit_length() == 64 and min(s.bit_length() for s in seeds) > 40
    with pytest.raises(ValueError, match="not 'shuffle'"):
        derive_seed(1, "shuffle")


def play_session(session: Session, deals: int) -> list[Game]:
    for i in range(deals):
        play_out(session.next_deal(), seed=i, pass_probability=0.5)
        session.finish_deal()
    return session.deals


def test_a_seeded_session_deals_from_64_bit_seeds_hashed_from_its_own() -> None:
    games = play_session(Session("cego", players=4, seed=1), 6)
    assert [g.seed for g in games] == [deal_seed(1, i) for i in range(6)]
    # Not the 32-bit seeds of a generator seeded with the session's seed, which one seat's
    # cards gave away by trying them (2**32 deals: hours; 2**64: out of reach).
    assert all(g.seed is not None and g.seed.bit_length() > 32 for g in games)
    legacy = random.Random(1)
    assert [g.seed for g in games] != [legacy.randrange(2**32) for _ in games]
    # The same seed, the same deals; and a deal's cards are what its seed deals as a single game.
    again = play_session(Session("cego", players=4, seed=1), 6)
    assert [g.initial_hands for g in again] == [g.initial_hands for g in games]
    for g in games:
        assert Game("cego", players=4, dealer=g.dealer, seed=g.seed).initial_hands == g.initial_hands
    unseeded = play_session(Session("cego", players=4), 2)
    assert [g.seed for g in unseeded] == [None, None]


def test_a_session_deal_written_with_its_seed_replays_as_played() -> None:
    game = play_session(Session("breitnau", players=6, seed=2**64 - 1), 1)[0]
    record: dict[str, Any] = game.record()
    del record["deal"]
    record["seed"] = game.seed
    doc = parse_record(yaml.safe_dump(record), "deal.yaml")
    replayed = replay_document(doc, Game(load_ruleset("breitnau"), players=6, seed=game.seed))
    assert replayed.ok, replayed.failures


def test_old_records_with_a_seed_replay_as_before() -> None:
    seeded = [f for f in sorted(RECORDS.glob("*.yaml")) if "seed" in yaml.safe_load(f.read_text(encoding="utf-8"))]
    assert len(seeded) >= 10
    for file in seeded:
        report = replay(file)
        assert report.ok, (file.name, report.failures)


def random_bot_state(session: server.Session, gid: str) -> Any:
    bot = session.games[gid].bots["random"]
    assert isinstance(bot, RandomBot)
    return bot.rng.getstate()


def test_the_protocols_bot_draws_a_stream_of_its_own() -> None:
    session = server.Session()
    gid = session.handle({"op": "new", "ruleset": "breitnau", "players": 6, "seed": 12345})["game"]
    assert session.handle({"op": "bot", "game": gid, "kind": "random"})["ok"] is True
    state = random_bot_state(session, gid)
    # Before, the bot was seeded with the game's seed: its first numbers were the shuffle's.
    assert state != random.Random(12345).getstate()
    fresh = RandomBot(bot_seed(12345, "random"))
    fresh.choose(Game("breitnau", players=6, seed=12345), 1)  # the same choice, from its own stream
    assert state == fresh.rng.getstate()
    # An unseeded game's bot is seeded by the operating system, not by 0 for every game.
    other = server.Session()
    states = []
    for _ in range(2):
        gid = other.handle({"op": "new", "ruleset": "breitnau", "players": 6})["game"]
        assert other.handle({"op": "bot", "game": gid, "kind": "random"})["ok"] is True
        states.append(random_bot_state(other, gid))
    assert states[0] != states[1]


class SeedSpy:
    """Records the seeds RandomBots and Games are made with."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.bots: list[int | None] = []
        self.games: list[int | None] = []
        bot_init, game_init = RandomBot.__init__, Game.__init__

        def spy_bot(bot: RandomBot, seed: int | None = None, *args: Any, **kwargs: Any) -> None:
            self.bots.append(seed)
            bot_init(bot, seed, *args, **kwargs)

        def spy_game(game: Game, *args: Any, seed: int | None = None, **kwargs: Any) -> None:
            self.games.append(seed)
            game_init(game, *args, seed=seed, **kwargs)

        monkeypatch.setattr(RandomBot, "__init__", spy_bot)
        monkeypatch.setattr(Game, "__init__", spy_game)


def test_tarock_play_seeds_its_bot_apart_from_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = SeedSpy(monkeypatch)
    out = tarock("play", "breitnau", "--seed", "42", "--bot", "random")
    assert out.returncode == 0, out.stderr
    assert spy.games == [42] and spy.bots == [bot_seed(42, "random")]
    spy.games.clear()
    spy.bots.clear()
    out = tarock("play", "breitnau", "--seed", "42", "--bot", "random", "--deals", "3")
    assert out.returncode == 0, out.stderr
    assert spy.games == [deal_seed(42, i) for i in range(3)] and spy.bots == [bot_seed(42, "random")]


def test_simulate_seeds_each_seats_bot_apart_from_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = SeedSpy(monkeypatch)
    simulate("breitnau", 3, seed=9, bot="random")
    deals = [deal_seed(9, i) for i in range(3)]
    assert spy.games[-3:] == deals  # after the probe that checks the table
    assert spy.bots == [bot_seed(9, i, s) for i in range(3) for s in range(6)]
    assert not set(spy.bots) & set(deals)
