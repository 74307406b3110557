"""The rule-based bot: always legal, deterministic, sensible in the situations the issue names,
and blind to what its seat may not see."""

from __future__ import annotations

import random
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset, ruleset_names
from interpreter.bots.rulebot import RuleBot, _draws, facts_of
from interpreter.engine.seeds import deal_seed
from interpreter.engine.views import TRICK_VIEW
from interpreter.errors import InvalidActionError

# Every built-in ruleset: one that does not load must fail these tests, not drop out of them.
RULESETS = ruleset_names()
FIRST = "breitnau" if "breitnau" in RULESETS else RULESETS[0]


class SeatOnly:
    """A game as one seat sees it: its view, its legal actions and the ruleset, nothing else.
    A bot that reached for another hand or the talon would fail with AttributeError."""

    def __init__(self, game: Game, seat: int):
        self._game, self._seat = game, seat
        self.ruleset = game.ruleset

    def view(self, seat, recall=False):
        assert seat == self._seat, "the bot asked for another seat's view"
        return self._game.view(seat, recall)

    def trick_view(self, seat):
        assert seat == self._seat, "the bot asked for another seat's view"
        return self._game.trick_view(seat)

    def legal_actions(self, seat=None):
        assert seat == self._seat, "the bot asked for another seat's actions"
        return self._game.legal_actions(seat)


def play(game: Game, bot: RuleBot, blind: bool = True) -> Game:
    while not game.is_over:
        seat = game.to_act
        action = bot.choose(SeatOnly(game, seat) if blind else game, seat)
        game.apply(seat, action)  # raises if the bot chose an illegal action
    return game


@pytest.mark.parametrize("name", RULESETS)
def test_always_legal_at_every_table_size_seeing_only_its_seat(name: str) -> None:
    rs = load_ruleset(name)
    bot = RuleBot()
    contracts = set()
    for size in rs.table_sizes:
        for seed in range(5):
            game = play(Game(rs, players=size, dealer=seed % size, seed=seed), bot)
            assert sum(game.result.payments) == 0
            contracts.add(game.result.contract)
    assert contracts - {None}, "the bot never bid"


@pytest.mark.parametrize("name", RULESETS)
def test_the_trick_view_is_the_views_own_entries_at_every_turn(name: str) -> None:
    """`game.trick_view(seat)`, what the bot reads to choose a card, holds exactly the entries
    of `game.view(seat, recall=True)` it has (the same code makes them: views.py stays the one
    place that decides what a seat sees), and at least those the choice reads, for every seat
    at every turn of deals of every ruleset and table size."""
    rs = load_ruleset(name)
    bot = RuleBot()
    compared = 0
    for size in rs.table_sizes:
        for seed in range(3):
            game = Game(rs, players=size, dealer=seed % size, seed=seed)
            while True:
                for seat in range(size):
                    view, part = game.view(seat, recall=True), game.trick_view(seat)
                    assert set(TRICK_VIEW) <= part.keys() <= view.keys(), (seat, sorted(part.keys() - view.keys()))
                    assert part == {key: view[key] for key in part}, (seat, game.history[-1:])
                    compared += 1
                if game.is_over:
                    break
                game.apply(game.to_act, bot.choose(game, game.to_act))
    assert compared
    with pytest.raises(InvalidActionError, match="no seat 9"):
        Game(rs, seed=0).trick_view(9)


def test_deterministic() -> None:
    rs = load_ruleset(FIRST)
    warm = RuleBot()
    for seed in range(6):
        a = play(Game(rs, seed=seed), RuleBot())
        b = play(Game(rs, seed=seed), warm)  # a bot that has seen other deals
        assert a.history == b.history and a.result == b.result


def test_hidden_cards_do_not_change_its_choice() -> None:
    """The first call of a deal depends on the seat's hand only: shuffling the other hands and
    the talon never changes it."""
    rs = load_ruleset(FIRST)
    bot = RuleBot()
    rng = random.Random(3)
    for seed in range(30):
        game = Game(rs, seed=seed)
        seat = game.to_act
        choice = bot.choose(game, seat)
        others = [c for s in game.seats if s != seat for c in game.hands[s]] + game.talon
        for _ in range(3):
            rng.shuffle(others)
            hands, rest = [], list(others)
            for s in range(game.players):
                n = len(game.hands[s])
                hands.append(list(game.hands[s]) if s == seat else [rest.pop() for _ in range(n)])
            other = Game(rs, players=game.players, dealer=game.dealer, deal={"hands": hands, "talon": rest})
            assert RuleBot().choose(other, seat) == choice


# -- play: explicit situations -----------------------------------------------------------------


def solo_deal(rs, hands: dict[int, list[str]], players: int = 6) -> Game:
    """A deal where the given seats hold the given cards (the rest dealt in the deck's order),
    played as a Solo by Vorhand."""
    game = Game(rs, players=players, seed=0)
    size = len(game.hands[game.seats[0]])
    used = {c for cards in hands.values() for c in cards}
    pool = [c for c in rs.pack(len(game.seats)) if c not in used]
    full = []
    for seat in range(players):
        cards = list(hands.get(seat, []))
        while len(cards) < size:
            cards.append(pool.pop(0))
        full.append(cards)
    game = Game(rs, players=players, deal={"hands": full, "talon": pool})
    solo = next(
        level.call for phase in rs.phases for level in phase.ladder if not rs.contracts[level.contract].exchange
    )
    game.apply(game.to_act, solo)
    assert game.phase.value == "play" and game.declarer == 1
    return game


def breitnau_like():
    rs = load_ruleset(FIRST)
    if not any(not c.exchange for c in rs.contracts.values()) or rs.play.must_beat:
        pytest.skip("needs a contract without exchange and no duty to beat")
    return rs


def test_follows_with_its_lowest_card_when_it_cannot_win() -> None:
    rs = breitnau_like()
    game = solo_deal(
        rs, {1: ["CK", "T22", "T21", "T20", "T19", "T18", "T17"], 2: ["CQ", "C10", "C7", "T2", "T3", "HK", "SK"]}
    )
    game.apply(1, {"play": "CK"})
    assert RuleBot().choose(game, 2) == {"play": "C7"}


def test_wins_with_the_cheapest_winner() -> None:
    rs = breitnau_like()
    game = solo_deal(
        rs,
        {
            1: ["C9", "T22", "T21", "T20", "T19", "T18", "T17"],
            2: ["C7", "H2", "H3", "H4", "D2", "D3", "D4"],
            3: ["C8", "HA", "DA", "S7", "S8", "S9", "S10"],
            4: ["HJ", "DJ", "SJ", "SN", "HN", "DN", "T1"],
            5: ["HQ", "DQ", "SQ", "T2", "T3", "T4", "T5"],
            0: ["CK", "CN", "C10", "T6", "T7", "T8", "T9"],
        },
    )
    for seat, card in [(1, "C9"), (2, "C7"), (3, "C8"), (4, "T1"), (5, "T2")]:
        game.apply(seat, {"play": card})
    # Seat 0 is last and its partners 4 and 5 trumped the lone player's C9: the trick is theirs,
    # so seat 0 smears its most points onto it.
    assert RuleBot().choose(game, 0) == {"play": "CK"}

    game = solo_deal(
        rs,
        {
            1: ["CJ", "T22", "T21", "T20", "T19", "T18", "T17"],
            2: ["C10"],
            3: ["C9"],
            4: ["C8"],
            5: ["C7"],
            0: ["CK", "CQ", "CN"],
        },
    )
    for seat, card in [(1, "CJ"), (2, "C10"), (3, "C9"), (4, "C8"), (5, "C7")]:
        game.apply(seat, {"play": card})
    # The lone player's CJ wins so far; seat 0, last, beats it with its cheapest club.
    assert RuleBot().choose(game, 0) == {"play": "CN"}


def test_smears_points_on_a_partners_safe_trick() -> None:
    rs = breitnau_like()
    game = solo_deal(
        rs,
        {
            1: ["C7", "T22", "T21", "T20", "T19", "T18", "T17"],
            2: ["CK", "H2", "H3", "H4", "D2", "D3", "D4"],
            0: ["CQ", "C8", "C9", "T6", "T7", "T8", "T9"],
        },
    )
    game.apply(1, {"play": "C7"})
    game.apply(2, {"play": "CK"})
    for seat in (3, 4, 5):
        legal = game.legal_actions(seat)
        game.apply(seat, min(legal, key=lambda a: rs.deck.points[a["play"]]))
    assert game.tricks[-1].seats[-1] == 5 and RuleBot().choose(game, 0) == {"play": "CQ"}


def test_the_lone_player_draws_trumps_with_a_sure_winner() -> None:
    rs = breitnau_like()
    game = solo_deal(rs, {1: ["T22", "T21", "T20", "C7", "H2", "D2", "S7"]})
    assert RuleBot().choose(game, 1) == {"play": "T22"}


# -- bidding -------------------------------------------------------------------------------


def first_call(rs, hand: list[str]) -> str:
    game = Game(rs, seed=0)
    seat = game.to_act
    pool = [c for c in rs.pack(len(game.seats)) if c not in hand]
    hands = []
    for s in range(game.players):
        n = len(game.hands[s])
        hands.append(list(hand) if s == seat else [pool.pop() for _ in range(n)])
    game = Game(rs, players=game.players, deal={"hands": hands, "talon": pool})
    return RuleBot().choose(game, seat)


def test_bids_from_hand_strength() -> None:
    rs = breitnau_like()
    strong = first_call(rs, ["T22", "T21", "T20", "T19", "T18", "T17", "T16"])
    weak = first_call(rs, ["C7", "C8", "H2", "H3", "D2", "S7", "S8"])
    assert strong != "pass" and not rs.contracts[facts_of(rs).call_contract[strong]].exchange
    assert weak == "pass"


def test_bids_the_cheapest_when_it_may_not_pass() -> None:
    """A compulsion (a stop rule, the last seat's duty) leaves no pass: a weak hand then bids
    the cheapest contract open to it."""
    rs = load_ruleset(FIRST)
    game = Game(rs, seed=1)
    seat = game.to_act
    phase = next(p for p in rs.phases if len(p.ladder) > 1)
    ladder = [level.call for level in phase.ladder]
    weak = [c for c in rs.deck.cards if rs.deck.suit[c] != "T" and rs.deck.points[c] == 1][: len(game.hands[seat])]

    class Obliged(SeatOnly):
        def view(self, seat, recall=False):
            return dict(super().view(seat, recall), hand=weak)

        def legal_actions(self, seat=None):
            return list(reversed(ladder))  # every bid, and no pass

    assert RuleBot().choose(Obliged(game, seat), seat) == ladder[0]


def test_estimates_follow_hand_strength() -> None:
    rs = load_ruleset(FIRST)
    facts = facts_of(rs)
    bot = RuleBot()
    game = Game(rs, seed=0)
    seat = game.to_act
    view = game.view(seat)
    for name in rs.contracts:
        contract = facts.contract(name, len(game.seats))
        if contract.needs_points is None:
            continue
        strong = dict(view, hand=sorted(c for c in rs.deck.cards if rs.deck.suit[c] == "T")[-len(view["hand"]) :])
        weak = dict(
            view,
            hand=[c for c in rs.deck.cards if rs.deck.suit[c] != "T" and rs.deck.points[c] == 1][: len(view["hand"])],
        )
        assert bot.chance(strong, facts, contract) > bot.chance(weak, facts, contract)


# -- Königrufen: a called partner, announcing, kontra -------------------------------------------

KR = load_ruleset("koenigrufen")
# Seat 1 (Forehand) holds SK and a fistful of high trumps; seat 0 holds CK. The talon holds T1.
KR_DEAL = {
    "hands": [
        ["SQ", "S9", "CK", "T12", "T13", "T14", "T15", "T16", "HQ", "DQ", "CQ", "HK"],
        ["SK", "T22", "T21", "T20", "T19", "T18", "H2", "H3", "D2", "D3", "C8", "C9"],
        ["S8", "T2", "T3", "T4", "T5", "T6", "H4", "HA", "D4", "DA", "C7", "C10"],
        ["S10", "T7", "T8", "T9", "T10", "T11", "HJ", "HN", "DJ", "DN", "CJ", "CN"],
    ],
    "talon": ["S7", "SJ", "SN", "DK", "T17", "T1"],
}


def kr_deal(*swaps: tuple[str, str]) -> dict:
    deal = {"hands": [list(h) for h in KR_DEAL["hands"]], "talon": list(KR_DEAL["talon"])}
    places = [*deal["hands"], deal["talon"]]
    for a, b in swaps:
        pa, pb = next(p for p in places if a in p), next(p for p in places if b in p)
        ia, ib = pa.index(a), pb.index(b)
        pa[ia], pb[ib] = b, a
    return deal


def kr_solo(deal: dict, call: str = "CK") -> Game:
    """Seat 1 plays a Solo calling `call`; everybody passes in the announcements."""
    game = Game(KR, players=4, dealer=0, deal=deal)
    game.apply(1, "solo")
    for seat in (2, 3, 0):
        game.apply(seat, "pass")
    game.apply(1, {"call_card": call})
    while game.phase.value == "announce":
        game.apply(game.to_act, "pass")
    return game


def kr_call(deal: dict) -> object:
    """The rule bot's call for a partner, as seat 1 after Mein Spiel and the Rufer."""
    game = Game(KR, players=4, dealer=0, deal=deal)
    game.apply(1, "mein_spiel")
    for seat in (2, 3, 0):
        game.apply(seat, "pass")
    game.apply(1, "rufer")
    return RuleBot().choose(SeatOnly(game, 1), 1)


def test_calls_a_king_it_does_not_hold_the_fourth_king_with_three_its_own_only_with_four() -> None:
    call = kr_call(KR_DEAL)  # holds SK only
    assert isinstance(call, dict) and call["call_card"] in {"CK", "HK", "DK"}
    three = kr_deal(("CK", "C8"), ("HK", "H2"))  # SK, CK, HK: the fourth King is DK
    assert kr_call(three) == {"choose": "fourth_king"}
    four = kr_deal(("CK", "C8"), ("HK", "H2"), ("DK", "D2"))
    call = kr_call(four)
    assert isinstance(call, dict) and call["call_card"] in {"SK", "CK", "HK", "DK"}


def test_smears_on_its_known_partners_trick_but_not_on_a_seat_it_cannot_place() -> None:
    # Seat 1 leads SK; seats 2 and 3 follow low; seat 0, last, holds SQ and S9.
    for deal, partner in ((KR_DEAL, True), (kr_deal(("CK", "CN")), False)):
        game = kr_solo(deal)
        for seat, card in ((1, "SK"), (2, "S8"), (3, "S10")):
            game.apply(seat, {"play": card})
        # Holding the called CK, seat 0 is the declarer's partner and knows it: the trick is
        # its side's, so it smears the Queen. Otherwise it keeps its points.
        assert RuleBot().choose(SeatOnly(game, 0), 0) == {"play": "SQ" if partner else "S9"}
    # Seat 3 wins a spade with SK; seat 0 (a defender) cannot know whether seat 3 is the declarer's
    # partner (CK with seat 3) or its own (CK with seat 2): it plays low either way.
    for holder_swap in (("CK", "CN"), ("CK", "C10")):
        game = kr_solo(kr_deal(("SK", "S10"), holder_swap))
        for seat, card in ((1, "S10"), (2, "S8"), (3, "SK")):
            game.apply(seat, {"play": card})
        assert "partner" not in game.view(0)
        assert RuleBot().choose(SeatOnly(game, 0), 0) == {"play": "S9"}


def test_announces_only_what_its_own_cards_make_certain_and_never_doubles() -> None:
    bot = RuleBot()
    trull = kr_deal(("T1", "T18"))  # seat 1 holds Sküs, Mond and Pagat
    for deal, first in ((KR_DEAL, "pass"), (trull, {"announce": "trull", "cards": []})):
        game = Game(KR, players=4, dealer=0, deal=deal)
        game.apply(1, "solo")
        for seat in (2, 3, 0):
            game.apply(seat, "pass")
        game.apply(1, {"call_card": "CK"})
        assert bot.choose(SeatOnly(game, 1), 1) == first
        while game.phase.value == "announce":
            seat = game.to_act
            legal = game.legal_actions(seat)
            action = bot.choose(SeatOnly(game, seat), seat)
            # Whatever kontra it is offered, it passes (or announces a certain bonus first).
            assert action == "pass" or action == first, (seat, action, legal)
            game.apply(seat, action)
        assert "kontra" not in game.view(0)


def test_a_compulsory_bird_is_one_whose_card_it_holds() -> None:
    for deal, bird in ((kr_deal(("T1", "T18")), "pagat"), (kr_deal(("T3", "T18")), "kakadu"), (KR_DEAL, "pagat")):
        game = Game(KR, players=4, dealer=0, deal=deal)
        game.apply(1, "besserrufer")
        for seat in (2, 3, 0):
            game.apply(seat, "pass")
        game.apply(1, {"call_card": "CK"})
        game.apply(1, {"choose": "first"})
        game.apply(1, RuleBot().choose(SeatOnly(game, 1), 1))  # its discard
        assert game.phase.value == "announce"
        assert RuleBot().choose(SeatOnly(game, 1), 1) == {"announce": bird, "cards": []}


@pytest.mark.parametrize("players", [4, 5])
def test_rule_bots_play_koenigrufen_whole_the_cards_and_the_money_kept(players: int) -> None:
    """500 seeded deals by rule bots, each seeing only its seat: every deal ends, every card of
    the pack is in exactly one place, the payments sum to zero (the dealer sitting out pays
    nothing). They bid no contract that obliges an announcement, announce only a Trull or the
    four Kings they hold, never double."""
    bot = RuleBot()
    pack = Counter(KR.pack(4))
    contracts: Counter[str] = Counter()
    for seed in range(500):
        game = Game(KR, players=players, dealer=seed % players, seed=seed)
        for _ in range(10 * len(pack)):
            if game.is_over:
                break
            seat = game.to_act
            action = bot.choose(SeatOnly(game, seat), seat)
            if isinstance(action, dict) and "announce" in action:
                wanted = {"trull": {"T22", "T21", "T1"}, "koenige": {"SK", "CK", "HK", "DK"}}[action["announce"]]
                assert wanted <= set(game.hands[seat])
            assert not (isinstance(action, dict) and "kontra" in action)
            game.apply(seat, action)
        assert game.is_over, f"seed {seed}: the deal did not end"
        places = [c for h in game.hands.values() for c in h] + game.talon + game.aside
        places += [c for t in game.tricks for c in t.cards] + [c for cs in game.talon_added.values() for c in cs]
        assert Counter(places) == pack, f"seed {seed}"
        result = game.result
        assert result is not None and sum(result.payments) == 0
        for seat in game.seats_out:
            assert result.payments[seat] == 0
        contracts[result.contract or result.outcome] += 1
    assert "besserrufer" not in contracts
    assert contracts["rufer"] > 50 and contracts["solo"] > 50, contracts


def test_its_chance_of_a_dreierles_dreier_is_the_chance_it_wins() -> None:
    """The Dreier takes three talon cards, not the whole talon: the chance the bot gives its hand
    matches how often it then wins, played out by rule bots (when it counted the whole talon,
    hands it gave 40% or more won 19 of 58 of these deals)."""
    rs = load_ruleset("dreierles")
    bot, facts = RuleBot(), facts_of(rs)
    assert facts.contract("dreier", 3).count == 3
    likely = won = 0
    for seed in range(250):
        game = Game(rs, players=3, seed=seed)
        seat = game.to_act
        assert seat is not None
        if "dreier" not in game.legal_actions(seat):
            continue
        chance = bot.chance(game.view(seat), facts, facts.contract("dreier", 3))
        game.apply(seat, "dreier")
        while not game.is_over:
            turn = game.to_act
            game.apply(turn, bot.choose(game, turn))
        assert game.result is not None
        if chance >= 0.4 and game.result.contract == "dreier" and game.result.declarer == seat:
            likely += 1
            won += bool(game.result.declarer_won)
    assert likely >= 10
    assert won / likely >= 0.45, f"hands given 40% or more won {won} of {likely}"


# -- the bot's tables: the rules of thumb, counted on bits ----------------------------------------


def test_its_talons_are_the_ones_random_sample_draws() -> None:
    """The talon draws take random.sample's own steps: the same cards in the same order, and the
    stream left where random.sample leaves it, for a list (a few cards of many) and a set (many)."""
    population = [f"c{i}" for i in range(80)]
    bits = {card: 1 << i for i, card in enumerate(population)}
    for seed in range(40):
        for n, k in [(47, 12), (42, 6), (38, 3), (80, 5), (22, 5), (21, 5), (30, 0), (9, 9), (1, 1)]:
            ours, theirs = random.Random(seed), random.Random(seed)
            drawn = _draws(ours, [bits[c] for c in population[:n]], k, 3)
            expected = [sum(bits[c] for c in theirs.sample(population[:n], k)) for _ in range(3)]
            assert drawn == expected, (seed, n, k)
            assert ours.random() == theirs.random()


@pytest.mark.parametrize("name", RULESETS)
def test_its_card_tables_say_what_the_cards_say(name: str) -> None:
    """Points, stops, the strongest unseen card of a suit and the cards kept from a talon, read
    off the bits, against the same rules of thumb worked out card by card."""
    rs = load_ruleset(name)
    facts = facts_of(rs)
    power, follow, points, order = facts.power, facts.follow, facts.points, facts.order
    cards = list(rs.deck.cards)
    bank = 1 if rs.counting.aside_counts_for == "declarer" else -1
    rng = random.Random(name)
    for _ in range(300):
        hand = rng.sample(cards, rng.randint(1, 20))
        unseen = rng.sample([c for c in cards if c not in hand], rng.randint(0, len(cards) - len(hand)))
        held, hidden = facts.mask(hand), facts.mask(unseen)
        assert facts.points_of(held) == sum(points[c] for c in hand)
        assert sorted(facts.cards_of(held), key=order.__getitem__) == sorted(hand, key=order.__getitem__)
        top = {}
        for c in unseen:
            top[follow[c]] = max(top.get(follow[c], -1), power[c])
        for c in hand:
            stop = power[c] > top.get(follow[c], -1)
            assert (not hidden & facts.at_least[c]) == stop, c
        # How much each card is worth keeping: trumps most, then stops, then the rest, points put
        # aside where the aside counts for the lone player; longer suits kept.
        length = Counter(follow[c] for c in hand)
        value = {}
        for c in hand:
            if follow[c] == "T":
                value[c] = 1000 + power[c]
            elif power[c] > top.get(follow[c], -1):
                value[c] = 500 + power[c] + length[follow[c]]
            else:
                value[c] = power[c] - 10 * bank * points[c] + length[follow[c]]
        assert RuleBot._keep_values(hand, hidden, facts) == value
        keep = rng.randint(0, len(hand))
        allowed = rng.sample(hand, rng.randint(keep, len(hand)))
        best = sorted(allowed, key=lambda c: (value[c], order[c]))[len(allowed) - keep :]
        assert facts.most_worth_keeping(facts.mask(allowed), keep, held, hidden) == facts.mask(best)


def test_a_bot_shared_by_games_in_turn_or_by_threads_plays_as_a_bot_each() -> None:
    """The bot keeps the tricks it last met and the estimates of the hands it met: a bot playing
    three deals turn by turn, or four threads sharing one bot, play as a new bot for each deal."""
    rs = load_ruleset(FIRST)

    def alone(seed: int) -> list:
        return play(Game(rs, seed=seed), RuleBot(), blind=False).history

    expected = {seed: alone(seed) for seed in range(12)}
    shared = RuleBot()
    games = [Game(rs, seed=seed) for seed in range(3)]
    while not all(game.is_over for game in games):
        for game in games:
            if not game.is_over:
                seat = game.to_act
                game.apply(seat, shared.choose(game, seat))
    assert [game.history for game in games] == [expected[seed] for seed in range(3)]

    found: dict[int, list] = {}

    def worker(seeds: range) -> None:
        for seed in seeds:
            found[seed] = play(Game(rs, seed=seed), shared, blind=False).history

    threads = [threading.Thread(target=worker, args=(range(start, 12, 4),)) for start in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == expected


def test_the_speed_benchmark_plays_the_deals_of_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/bench_rulebot.py plays the deals `tarock simulate --bot rules` plays, and replays
    them with and without what the bot reads."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import bench_rulebot

    rs = load_ruleset(FIRST)
    actions = bench_rulebot.bot_deal(rs, 6, 0, 3, RuleBot())
    game = Game(rs, players=6, seed=deal_seed(0, 3))
    assert play(game, RuleBot(), blind=False).history == [(seat, action) for seat, action in actions]
    assert bench_rulebot.main(["--deals", "4", "--repeat", "1", "--slice", "2"]) == 0
    out = capsys.readouterr().out
    assert f"4 deals of breitnau ({rs.usual_table}) by rule bots" in out
    assert "of a deal by rule bots: the bot" in out
