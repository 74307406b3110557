"""One path for every action: `legal_actions` and `apply` cannot disagree, and the quick way is
what the rules give when none is in scope.

Every action `legal_actions` offers is taken, in the form it was offered and as a plain copy; every
card of the hand that is not offered, and every call not offered, is refused with a reason and
changes nothing. Where no rule of play is in scope for a turn, its cards are what following suit
and trumping give (worked out here independently of the engine). Whose turn it is and whether
the deal is over are kept up to date. And a finished deal is no reference cycle: it is freed
when dropped, without Python's cycle collector.
"""

from __future__ import annotations

import gc
from typing import Any

import pytest
from turns import random_turns

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import RandomBot
from interpreter.engine.exchange import Claimed, Exchange
from interpreter.engine.game import Phase
from interpreter.engine.table import Cards, Table
from interpreter.errors import IllegalActionError, InvalidActionError

# (ruleset, players): every family, and the mechanics with rules of their own (Furtwangen's
# withheld Gstieß and laid-out Ulti cards, Cego's exposed cards and tricks played together,
# Königrufen's called partner, announcements, kept-back birds and negative games, Dreierles's
# duties over the tricks played and its forfeits, Buchenbach's schedule).
TABLES = [
    ("breitnau", 6),
    ("furtwangen", 6),
    ("buchenbach", 6),
    ("cego", 4),
    ("cego", 3),
    ("tapp-modern", 4),
    ("tapp", 3),
    ("koenigrufen", 4),
    ("koenigrufen", 5),
    ("dreierles", 3),
]


def _play(name: str, players: int, seed: int) -> Game:
    game = Game(load_ruleset(name), players=players, seed=seed)
    bot = RandomBot(seed)
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, bot.choose(game, seat))
    return game


def _stage_turn(game: Game) -> int | None:
    """Whose turn it is, as the stage of the deal now being played says."""
    if game.phase is Phase.DEAL:
        return game.dealer  # the dealer's choice of how to deal (deal.choice): the dealer's alone
    if game.phase is Phase.AUCTION:
        return game.auction.whose_turn()
    stage: Any = {Phase.EXCHANGE: game.exchange, Phase.ANNOUNCE: game.announcement, Phase.PLAY: game.trickplay}.get(
        game.phase
    )
    return stage.to_act if stage is not None else None


def _following(game: Game, seat: int) -> list[str]:
    """The cards following suit and trumping allow `seat`, by the rules' words, worked out here:
    the suit led (trumps are one suit), else a trump where trumping is a duty, else any card."""
    trick = game.current_trick
    assert trick is not None
    hand, deck, play = game.hands[seat], game.ruleset.deck, game.ruleset.play
    contract = game.contract
    if contract is not None and contract.play is not None:
        play = contract.play
    trumps = {"T", game.trump_suit}

    def suit(card: str) -> str:
        return "T" if deck.suit[card] in trumps else deck.suit[card]

    if not trick.cards:
        return list(hand)
    led = suit(trick.cards[0])
    same = [c for c in hand if suit(c) == led]
    if play.follow_suit and same:
        return same
    trumping = [c for c in hand if suit(c) == "T"]
    if play.must_trump and trumping:
        return trumping
    return list(hand)


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_what_is_offered_is_taken_and_nothing_else(name: str, players: int) -> None:
    """At every turn: each offered card and call is taken (tried on a clone, as offered and as a
    plain copy); a card of the hand not offered, or a call not offered, is refused with a reason
    and changes nothing."""
    from interpreter.engine.encoding import clone_game

    refused = taken = 0
    for seed, game, seat in random_turns(name, players, range(12)):
        legal = game.legal_actions(seat)
        before = (len(game.events), game.history, game.view("all"))
        if game.phase is Phase.PLAY:
            offered = {a["play"] for a in legal if isinstance(a, dict)}
            for card in game.hands[seat]:
                if card in offered:
                    continue
                with pytest.raises(IllegalActionError) as refusal:
                    game.apply(seat, {"play": card})
                assert str(refusal.value), (seed, card)
                refused += 1
        elif game.phase is Phase.AUCTION:
            for call in game.ruleset.used_calls():
                if call not in legal:
                    with pytest.raises(IllegalActionError):
                        game.apply(seat, call)
                    refused += 1
        assert (len(game.events), game.history, game.view("all")) == before, seed
        for action in legal[:3]:
            if isinstance(action, dict) and any(isinstance(v, dict) for v in action.values()):
                continue  # a template
            for form in (action, dict(action) if isinstance(action, dict) else action):
                clone = clone_game(game)
                clone.apply(seat, form)
                taken += 1
    assert refused and taken


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_a_turn_with_no_rule_in_scope_follows_suit(name: str, players: int) -> None:
    """Where no rule of play is in scope for the seat to play (the quick way), its cards are
    exactly what following suit and trumping allow; in Breitnau that is every turn."""
    quick = ruled = 0
    for seed, game, seat in random_turns(name, players, range(30)):
        play = game.trickplay
        if game.phase is not Phase.PLAY or play is None:
            continue
        if play.scoped[seat] is None:
            assert game.legal_cards(seat) == _following(game, seat), (seed, seat)
            quick += 1
        else:
            ruled += 1
    assert quick or name == "dreierles"
    assert ruled or name in ("breitnau", "tapp", "tapp-modern"), "no turn had a rule in scope"
    assert ruled == 0 or name != "breitnau", "a rule in scope in Breitnau, which has none"


@pytest.mark.parametrize(("name", "players"), [("koenigrufen", 4), ("koenigrufen", 5), ("dreierles", 3)])
def test_rules_bound_to_cards_concern_their_holders_only(name: str, players: int) -> None:
    """In a Rufer or Solo (no rule for every seat), a seat has rules in scope only while it holds a
    card one watches (kept back for an announced bonus, the called card while unseen): the others'
    turns take the quick way."""
    watched_turns = plain_turns = 0
    for seed, game, seat in random_turns(name, players, range(60)):
        play = game.trickplay
        if game.phase is not Phase.PLAY or play is None or game.contract is None:
            continue
        if any(rule.scope.seats == "all" and rule.turns for rule in play.rules):
            continue  # a contract with a rule for every seat (negative games, Farben games)
        watched = set().union(*(rule.watched() for rule in play.rules))
        for s in game.seats:
            if play.scoped[s] is not None:
                assert watched & set(game.hands[s]), (seed, s)
        if play.scoped[seat] is None:
            plain_turns += 1
        else:
            watched_turns += 1
    assert watched_turns and plain_turns


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_a_finished_deal_is_no_reference_cycle(name: str, players: int) -> None:
    _play(name, players, 0)  # caches of the ruleset filled
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for seed in range(20):
            _play(name, players, seed)
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
            assert game.to_act == _stage_turn(game), (seed, len(game.history))
            assert game.is_over == (game.phase is Phase.OVER), (seed, len(game.history))
            if game.is_over:
                break
            seat = game.to_act
            assert seat is not None
            with pytest.raises((IllegalActionError, InvalidActionError)):
                game.apply((seat + 1) % players if players > 1 else seat, {"play": "no card"})
            game.apply(seat, bot.choose(game, seat))


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_a_contract_with_nothing_to_exchange_builds_no_exchange(name: str, players: int) -> None:
    """A contract with no step to exchange (and no trumps to name, no accusation open) goes on
    without an Exchange, which would have ended at once, by the claim exactly when the deal is
    claimed."""
    short = 0
    for seed in range(60):
        game = _play(name, players, seed)
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
            Table(Cards(hands, list(game.initial_talon)), [], []),
            game.initial_hands,
            may_accuse=False,
            trump_suit=game.ruleset.play.trump_suit,
        )
        assert game.result is not None
        assert isinstance(skipped.advance(), Claimed) == (game.result.outcome == "claimed"), seed
        short += 1
    assert short or name in ("cego", "koenigrufen", "dreierles", "buchenbach"), "no contract without an exchange"


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


def test_an_announcement_written_without_its_cards_is_taken() -> None:
    """{announce: NAME} as a player writes it is the offered {announce: NAME, cards: []}."""
    from test_koenigrufen import rufer_announcing

    game = rufer_announcing()
    assert game.to_act == 1
    offered = [a for a in game.legal_actions(1) if isinstance(a, dict) and "announce" in a]
    assert offered
    name = offered[0]["announce"]
    events = game.apply(1, {"announce": name})
    assert events[0]["type"] == "announce" and events[0]["announcement"] == name
    assert game.history[-1] == (1, {"announce": name, "cards": []})


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
def test_what_the_round_does_not_offer_is_refused_and_changes_nothing(
    action: Any, error: type[Exception], words: str
) -> None:
    """The round of announcements refuses what it does not offer, with its reason; nothing of
    the game changes."""
    from test_koenigrufen import rufer_announcing

    game = rufer_announcing()
    assert game.phase is Phase.ANNOUNCE and game.to_act == 1
    before = (list(game.events), list(game.history), game.legal_actions(1), game.view("all"))
    with pytest.raises(error, match=words):
        game.apply(1, action)
    assert (game.events, game.history, game.legal_actions(1), game.view("all")) == before


def test_the_called_kings_holder_has_a_rule_in_scope_until_it_is_played() -> None:
    """In the Rufer of test_koenigrufen's deal, seat 3 holds the called CK: a rule is in scope
    for its turns (its playing reveals the partner), for nobody else's."""
    from test_koenigrufen import PLAYS, passes_until_play, rufer_announcing

    game = rufer_announcing()
    passes_until_play(game)
    play = game.trickplay
    assert play is not None
    for seat, card in PLAYS:
        holds = "CK" in game.hands[3]
        assert [s for s in range(4) if play.scoped[s] is not None] == ([3] if holds else [])
        events = game.apply(seat, {"play": card})
        assert game.partner_public == (card == "CK" or "CK" not in game.hands[3])
        assert card != "CK" or events[0] == {"type": "play", "seat": 3, "card": "CK"}
    assert game.is_over


def test_a_declarer_leading_with_nothing_to_announce_says_the_pass_with_the_lead() -> None:
    """A record from before every declarer was asked for an announcement leads at once: the lead
    says the pass. A card the leader may not play is refused, and the pass is not said either."""
    # The deal of seed 0 dealt hands first, as the table dealt before the dealer chose (deal.choice):
    # its declarer has nothing to announce, which a RandomBot dealer choosing dapp_first would change.
    game = Game(load_ruleset("furtwangen", {"deal_order": "hands_first"}), players=6, seed=0)
    bot = RandomBot(0)
    while game.phase is not Phase.ANNOUNCE:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, bot.choose(game, seat))
    declarer = game.to_act
    assert declarer == game.declarer and game.legal_actions() == ["pass"]
    before = (game.record(), list(game.events))
    other = next(card for card in game.hands[(declarer + 1) % 6])
    with pytest.raises(IllegalActionError):
        game.apply(declarer, {"play": other})
    assert (game.record(), game.events) == before and game.phase is Phase.ANNOUNCE
    card = game.hands[declarer][0]
    events = game.apply(declarer, {"play": card})
    assert [e["type"] for e in events][:1] == ["call"] and events[0]["call"] == "pass"
    assert events[-1] == {"type": "play", "seat": declarer, "card": card}
    assert game.phase is Phase.PLAY and card not in game.hands[declarer]
