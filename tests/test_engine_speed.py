"""The engine's short ways for the common case give what its general steps give.

`Game.apply` plays a card `legal_actions()` handed out (a read-only FrozenAction) in plain trick
play by a shorter way (its own steps, where TrickPlay.plain_turn holds; legal_fast; `Game._fast` while every
turn is plain but for the holders of watched cards), and takes an announcement, kontra or pass
of the round of announcements as given (AnnouncementRound.take) without parsing it; the same card
sent as a plain mapping, and an announcement with `Game._round` unset, go the general way. Both must end
every deal with the same events, history, views and result. And a finished deal is no reference
cycle: it is freed when dropped, without Python's cycle collector."""

from __future__ import annotations

import dataclasses
import gc
from typing import Any

import pytest
from turns import random_turns

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import RandomBot
from interpreter.engine.exchange import Cards, Claimed, Exchange
from interpreter.engine.game import Phase
from interpreter.errors import IllegalActionError, InvalidActionError

# (ruleset, players): every family, and the mechanics the short ways must step aside for
# (Furtwangen's withheld Gstieß, Cego's exposed cards and tricks played together, Königrufen's
# called partner, announcements, kept-back birds and negative games, Dreierles's duties over the
# tricks played and its forfeits).
TABLES = [
    ("breitnau", 6),
    ("furtwangen", 6),
    ("cego", 4),
    ("cego", 3),
    ("tapp-modern", 4),
    ("tapp", 3),
    ("koenigrufen", 4),
    ("koenigrufen", 5),
    ("dreierles", 3),
]


def _play(name: str, players: int, seed: int, *, general: bool) -> Game:
    game = Game(load_ruleset(name), players=players, seed=seed)
    bot = RandomBot(seed)
    while not game.is_over:
        if general:
            game._fast = None  # no short way to the seat to act and its legal cards either
        seat = game.to_act
        assert seat is not None
        action: Any = bot.choose(game, seat)
        if general and isinstance(action, dict):
            action = dict(action)  # no longer the engine's own: the general way
        if general:
            game._round = (
                None  # nor an announcement taken as given (AnnouncementRound.take): parsed and checked in full
            )
        game.apply(seat, action)
    return game


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_short_way_and_the_general_way_agree(name: str, players: int) -> None:
    deals = 60 if name == "koenigrufen" else 120
    for seed in range(deals):
        short, general = _play(name, players, seed, general=False), _play(name, players, seed, general=True)
        assert short.events == general.events, seed
        assert short.history == general.history, seed
        assert short.record() == general.record(), seed
        assert short.view("all") == general.view("all"), seed
        for seat in range(players):
            assert short.view(seat) == general.view(seat), (seed, seat)


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_a_finished_deal_is_no_reference_cycle(name: str, players: int) -> None:
    _play(name, players, 0, general=False)  # caches of the ruleset filled
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for seed in range(20):
            _play(name, players, seed, general=False)
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_whose_turn_is_kept_up_to_date(name: str, players: int) -> None:
    """`to_act` and `is_over` are kept, not worked out when read: after every action, and after
    a refused one, they say what the stages of the deal say."""
    for seed in range(30):
        game = Game(load_ruleset(name), players=players, seed=seed)
        bot = RandomBot(seed)
        while True:
            assert game.to_act == game._turn(), (seed, len(game.history))
            assert game.is_over == (game.phase is Phase.OVER), (seed, len(game.history))
            if game.is_over:
                break
            seat = game.to_act
            assert seat is not None
            with pytest.raises((IllegalActionError, InvalidActionError)):
                game.apply((seat + 1) % players if players > 1 else seat, {"play": "no card"})
            game.apply(seat, bot.choose(game, seat))


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_short_ways_legal_cards_are_the_rules_legal_cards(name: str, players: int) -> None:
    """At every turn the short way takes (TrickPlay.legal_fast: the seat to act, only following
    and trumping, plain for its hand), its list is what the rules of following give; and so is
    Game.legal_actions' list where it takes the same steps itself (while `Game._fast` holds)."""
    checked = fast_turns = 0
    for seed, game, seat in random_turns(name, players, range(40)):
        play = game.trickplay
        if (
            play is not None
            and game.phase is Phase.PLAY
            and play._simple
            and not play.laid
            and play._plain_for(play.hands[seat])
            and play.plain_hands[seat] is not None  # (no watched card in the hand)
        ):
            expected = [game._plays[c] for c in play.rules.legal(play.hands[seat], play.trick.cards)]
            assert play.legal_fast(seat, game._plays) == expected, (seed, seat)
            checked += 1
            if game._fast is not None:  # Game.legal_actions takes legal_fast's steps itself
                assert game.legal_actions(seat) == expected, (seed, seat)
                fast_turns += 1
    assert checked, "no turn took the short way"
    # Furtwangen's Gstieß may be withheld, so its play is never plain for every seat at once.
    assert fast_turns or name == "furtwangen", "no turn took Game.legal_actions' short way"


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_short_answers_agree_with_the_general_steps(name: str, players: int) -> None:
    """Answers worked out the short way, checked against the general steps at every turn:
    whether a seat may still bid (Auction._may_bid against the levels _bids_open_to lists), the
    calls of every seat in a plain duel (Auction._legal_calls without its short way), and
    the legal cards of a turn plain but for cards kept back (TrickPlay._legal without its
    short way for plain play)."""
    bids = kept = plain = 0
    for seed, game, seat in random_turns(name, players, range(40)):
        if game.phase is Phase.AUCTION:
            auction = game.auction
            for s in auction.state.order:
                for level in range(-1, len(auction.state.phase.ladder)):
                    assert auction._may_bid(s, level) == bool(auction._bids_open_to(s, level)), (seed, s, level)
                    bids += 1
            if auction.state.phase.name in auction.tables.plain:
                # Auction._legal_calls' short way for the entrant of a plain duel, against its general steps.
                for s in game.seats:
                    short = auction._legal_calls(s)
                    tables = auction.tables
                    auction.tables = dataclasses.replace(tables, plain=frozenset())
                    try:
                        assert short == auction._legal_calls(s), (seed, s)
                    finally:
                        auction.tables = tables
                    plain += 1
        play = game.trickplay
        if game.phase is Phase.PLAY and play is not None and play._plain and play.kept:
            short = play._legal(seat)
            play._plain = False
            try:
                assert short == play._legal(seat), (seed, seat)
            finally:
                play._plain = True
            kept += 1
    assert bids
    assert kept or name != "koenigrufen", "no Königrufen turn had cards kept back"
    assert plain or name not in ("breitnau", "furtwangen"), "no turn of a plain duel"


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_a_contract_with_nothing_to_exchange_builds_no_exchange(name: str, players: int) -> None:
    """Game._start_exchange's short way: a contract with no step to exchange (and no trumps to
    name, no accusation open) goes on without an Exchange, which would have ended at once, by
    the claim exactly when the deal is claimed."""
    short = 0
    for seed in range(60):
        game = _play(name, players, seed, general=False)
        contract = game.contract
        if contract is None or contract.exchange or contract.trump_choice:
            continue
        rule = game.ruleset.accusation
        if rule is not None and rule.phase in game.auction.passed_out:
            continue
        assert game.exchange is None, seed
        hands = {s: list(h) for s, h in enumerate(game.initial_hands)}
        skipped = Exchange(
            game.ruleset,
            contract,
            game.declarer,
            game.seats,
            Cards(hands, list(game.initial_talon)),
            game.initial_hands,
            lambda **event: None,
            may_accuse=False,
            trump_suit=game.ruleset.play.trump_suit,
        )
        assert game.result is not None
        assert isinstance(skipped.advance(), Claimed) == (game.result.outcome == "claimed"), seed
        short += 1
    assert short or name in ("cego", "koenigrufen", "dreierles"), "no contract without an exchange was played"


def test_a_hand_claimed_without_an_exchange() -> None:
    """A Solo bid on a hand of all seven five-pointers is shown at once: no Exchange, no play."""
    rs = load_ruleset("breitnau")
    five = ["T22", "T21", "T1", "CK", "SK", "HK", "DK"]
    rest = [c for c in rs.pack(6) if c not in five]
    hands = [rest[0:7], five, rest[7:14], rest[14:21], rest[21:28], rest[28:35]]
    game = Game(rs, players=6, deal={"hands": hands, "talon": rest[35:]})
    game.apply(1, "solo")
    assert game.is_over and game.exchange is None and game.trickplay is None
    assert game.result is not None and (game.result.outcome, game.result.contract, game.result.declarer) == (
        "claimed",
        "solo",
        1,
    )
    assert [e["type"] for e in game.events][-3:] == ["contract", "claim", "settlement"]
    # Scored as won in every trick (breitnau.yaml's claim): the defenders took no card point, so
    # each pays round_up((40 - 0) × 1, 10) = 40 for a won Solo (factor 1 by the default reading).
    assert game.result.payments == [-40, 200, -40, -40, -40, -40]


def test_the_round_of_announcements_takes_what_it_offers_without_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every action of the round that legal_actions() offered, and a plain {announce: NAME}, is
    taken as given (AnnouncementRound.take): nothing is parsed while the round lasts."""
    from interpreter.engine import game as game_module

    parsed_in_round = []
    parse = game_module.parse_action

    def watching(action: Any, ruleset: Any) -> Any:
        parsed_in_round.append(action)
        return parse(action, ruleset)

    taken = 0
    for seed in range(30):
        game = Game(load_ruleset("koenigrufen"), players=4, seed=seed)
        bot = RandomBot(seed)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            action: Any = bot.choose(game, seat)
            in_round = game._round is not None
            if in_round and isinstance(action, dict) and "announce" in action:
                action = {"announce": action["announce"]}  # as a player writes it
            monkeypatch.setattr(game_module, "parse_action", watching if in_round else parse)
            game.apply(seat, action)
            taken += in_round
    assert taken > 300 and parsed_in_round == []


@pytest.mark.parametrize(
    ("action", "error", "words"),
    [
        ({"announce": "pagat", "cards": ["T1"]}, IllegalActionError, "without cards"),
        ({"announce": "trull", "cards": [], "kontra": "game"}, InvalidActionError, "exactly one of"),
        ({"kontra": "pagat"}, IllegalActionError, "not been announced"),
        ({"kontra": "game"}, IllegalActionError, "other side"),  # the game is the declarer's own
        ({"kontra": "game", "cards": []}, InvalidActionError, "unexpected key"),
        ({"announce": 5}, InvalidActionError, "not 5"),
        ({"kontra": ["game"]}, InvalidActionError, "the name of a bonus"),
        ("Pass", InvalidActionError, "did you mean 'pass'"),
        ({"play": "T1"}, IllegalActionError, "time to announce"),
    ],
)
def test_what_the_round_does_not_offer_is_refused_the_general_way_and_changes_nothing(
    action: Any, error: type[Exception], words: str
) -> None:
    """AnnouncementRound.take leaves what it was not offered to the general steps, which refuse
    it with their reason; nothing of the game changes."""
    from test_koenigrufen import rufer_announcing

    game = rufer_announcing()
    assert game._round is not None and game.to_act == 1
    assert game._round.take(1, action) is None
    before = (list(game.events), list(game.history), game.legal_actions(1), game.view("all"))
    with pytest.raises(error, match=words):
        game.apply(1, action)
    assert (game.events, game.history, game.legal_actions(1), game.view("all")) == before


@pytest.mark.parametrize(("name", "players"), [("koenigrufen", 4), ("koenigrufen", 5), ("dreierles", 3)])
def test_only_the_holders_of_watched_cards_leave_the_short_way(name: str, players: int) -> None:
    """TrickPlay.plain_hands is None for exactly the seats holding a watched card (kept back for
    its trick, or the called card while unseen), at every turn of play; and while Game._fast
    holds, such a seat's legal plays are never kept for `apply`'s short way."""
    watched_turns = plain_turns = 0
    for seed, game, seat in random_turns(name, players, range(60)):
        play = game.trickplay
        if game.phase is not Phase.PLAY or play is None:
            continue
        watched = set(play.kept) | ({game.called_card} if game._called is not None else set())
        for s, hand in play.hands.items():
            assert (play.plain_hands[s] is None) == bool(watched & set(hand)), (seed, s)
            assert play.plain_hands[s] is None or play.plain_hands[s] is hand, (seed, s)
        if game._fast is not None and play.plain_hands[seat] is None:
            assert game._legal_plays is None, (seed, seat)
            watched_turns += 1
        elif game._fast is not None:
            plain_turns += 1
    assert watched_turns and plain_turns


def test_the_called_kings_holder_leaves_the_short_way_until_it_is_played() -> None:
    """In the Rufer of test_koenigrufen's deal, seat 3 holds the called CK: its turns take the
    general steps (which reveal the partner when CK falls), everybody else's the short way."""
    from test_koenigrufen import PLAYS, passes_until_play, rufer_announcing

    game = rufer_announcing()
    passes_until_play(game)
    play = game.trickplay
    assert play is not None and game._fast is play
    for seat, card in PLAYS:
        assert (play.plain_hands[3] is None) == ("CK" in play.hands[3])
        assert [s for s in range(4) if play.plain_hands[s] is None] == ([3] if "CK" in play.hands[3] else [])
        game.legal_actions(seat)
        assert (game._legal_plays is None) == (seat == 3 and "CK" in play.hands[3])
        events = game.apply(seat, {"play": card})
        assert game.partner_public == (card == "CK" or "CK" not in play.hands[3])
        assert card != "CK" or events[0] == {"type": "play", "seat": 3, "card": "CK"}
    assert game.is_over
