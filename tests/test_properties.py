"""Invariants over thousands of seeded random deals (bots choose uniformly among legal actions).

Whatever is bid and played: every card is in exactly one place, each trick has one card from
each active player in order, card points add up to the pack's total, payments sum to zero,
and the record of a deal replays to the same outcome.
"""

from collections import Counter

import pytest

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import play_out
from interpreter.engine.records import dump_record, replay_document
from interpreter.language.source import load_yaml

DEALS = 1000


@pytest.fixture(scope="module")
def breitnau():
    return load_ruleset("breitnau")


def _check_deal(game: Game) -> None:
    rs = game.ruleset
    dealt = [c for h in game.initial_hands for c in h] + game.initial_talon
    assert Counter(dealt) == Counter(rs.deck.cards), "the deal holds every card exactly once"
    for seat in game.seats_out:
        assert game.initial_hands[seat] == []
    result = game.result
    assert result is not None and game.is_over
    assert sum(result.payments) == 0, "payments sum to zero"
    if result.outcome != "played":
        return
    played = [c for t in game.tricks for c in t.cards]
    assert Counter(played + game.aside + game.talon) == Counter(rs.deck.cards), "every card ends in one place"
    assert all(not game.hands[s] for s in game.seats)
    for trick in game.tricks:
        assert len(trick.cards) == len(game.seats), "one card per active player"
        start = game.seats.index(trick.leader)
        assert trick.seats == [game.seats[(start + i) % len(game.seats)] for i in range(len(game.seats))]
    total = result.points["declarer"] + result.points["defenders"]
    if len(game.seats) == 6:
        assert total == 79
    else:
        # Seven players: two odd piles each lose one more point (dappen-en: Card Values).
        declarer_pile = sum(len(t.cards) for t in game.tricks if t.winner == game.declarer)
        declarer_pile += len(game.aside) + len(game.talon) if result.tricks["declarer"] else 0
        assert total == (78 if declarer_pile % 2 else 79)
    defenders = [s for s in range(game.players) if s != game.declarer]
    receivers = [s for s in defenders if result.payments[s] != 0]
    assert all(result.payments[s] == result.payments[receivers[0]] for s in receivers), "each opponent pays the same"
    for seat in game.seats_out:
        assert result.payments[seat] == 0  # default option: takes no part


@pytest.mark.parametrize("players", [6, 7, 8])
def test_random_deals_keep_the_invariants(breitnau, players: int) -> None:
    outcomes = Counter()
    for seed in range(DEALS):
        game = play_out(
            Game(breitnau, players=players, dealer=seed % players, seed=seed), seed=seed, pass_probability=0.85
        )
        _check_deal(game)
        outcomes[game.result.outcome] += 1
        outcomes[game.contract.name if game.contract else "none"] += 1
    # The random bots reach every contract and a throw-in, so the invariants were tested on each.
    for name in ("solo", "dappen", "strecken", "stupfen", "thrown_in", "played"):
        assert outcomes[name] > 0, f"no {name} in {DEALS} deals: {outcomes}"


def test_records_of_random_deals_replay_exactly(breitnau) -> None:
    for seed in range(200):
        game = play_out(
            Game(breitnau, players=6 + seed % 3, dealer=seed % 6, seed=seed), seed=seed, pass_probability=0.85
        )
        doc = load_yaml(dump_record(game.record()), f"seed-{seed}.yaml")
        again = Game(breitnau, players=doc.data["players"], dealer=doc.data["dealer"], deal=doc.data["deal"])
        report = replay_document(doc, again)
        assert report.ok, report.failures
        assert again.result == game.result
        assert again.events[1:] == game.events[1:]  # the first event differs: seed vs explicit deal


def test_same_seed_same_deal(breitnau) -> None:
    a = play_out(Game(breitnau, players=7, seed=123), seed=5)
    b = play_out(Game(breitnau, players=7, seed=123), seed=5)
    assert a.initial_hands == b.initial_hands and a.events == b.events
    c = Game(breitnau, players=7, seed=124)
    assert c.initial_hands != a.initial_hands


def test_views_never_show_hidden_cards(breitnau) -> None:
    for seed in range(100):
        game = Game(breitnau, players=6, seed=seed)
        while True:
            for seat in range(game.players):
                view = game.view(seat)
                assert "hands" not in view
                assert view["hand"] == sorted(game.hands[seat], key=game.ruleset.deck.sort_key)
                if not game.is_over:
                    assert "talon" not in view
                    if seat != game.declarer:
                        assert "aside" not in view
            if game.is_over:
                break
            play_out_one(game, seed)


def play_out_one(game: Game, seed: int) -> None:
    import random

    from interpreter.bots.randombot import expand

    rng = random.Random(seed + len(game.events))
    game.apply(game.to_act, expand(rng.choice(game.legal_actions()), rng))


# -- every ruleset, every table size, every reading and option ---------------------------------


def _variants():
    from interpreter.language.loader import ruleset_names

    for name in ruleset_names():
        rs = load_ruleset(name)
        yield name, {}
        for group in rs.groups:
            for choice in group.choices:
                if choice != group.default:
                    yield name, {group.name: choice}


VARIANTS = list(_variants())


@pytest.mark.parametrize(
    "name, options",
    VARIANTS,
    ids=[f"{n}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'defaults'}" for n, o in VARIANTS],
)
def test_every_ruleset_keeps_the_invariants(name: str, options: dict) -> None:
    from interpreter.engine.settlement import piles

    rs = load_ruleset(name, options)
    deals = 60
    for seed in range(deals):
        players = rs.table_sizes[seed % len(rs.table_sizes)]
        game = play_out(Game(rs, players=players, dealer=seed % players, seed=seed), seed=seed, pass_probability=0.6)
        pack = rs.pack(len(game.seats))
        dealt = [c for h in game.initial_hands for c in h] + game.initial_talon
        assert Counter(dealt) == Counter(pack)
        result = game.result
        assert sum(result.payments) + result.pot == 0, (seed, result)  # the pot is an account too
        if result.outcome != "played":
            continue
        for trick in game.tricks:
            assert len(trick.cards) == len(game.seats) == len(set(trick.seats))
        if game.contract.individual is not None:
            assert sum(result.tricks["seats"]) == len(game.tricks)
            continue
        counts = game.contract.talon_counts
        routed = (list(game.talon), list(game.aside)) if game.contract.out_of_play is not None else None
        mine, theirs, mine_tricks, _ = piles(
            game.deal_facts(), game.tricks, game.talon + game.aside if counts else [], routed
        )
        played = [c for t in game.tricks for c in t.cards]
        if routed is not None:
            # Cards out of play count where the contract sends them, for a side or for nobody.
            assert Counter(played) <= Counter(mine + theirs) <= Counter(pack), "every card counts at most once"
        else:
            assert Counter(mine + theirs) == Counter(pack if counts else played), "every card counts for one side"
        counting = game.ruleset.counting  # the rules for this many players
        bonus = (
            counting.declarer_bonus({"declarer_tricks": mine_tricks, "defender_tricks": 0, "tricks": 0})
            if counting.declarer_bonus
            else 0
        )
        assert result.points["declarer"] == counting.points(mine, rs.deck.points) + bonus
