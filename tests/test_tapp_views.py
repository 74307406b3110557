"""Tapp: what each seat sees, and what the trump suit named by the declarer does in play.

Bettel Ouvert (modern Tapp) lays the declarer's hand face up: from the first lead every other seat's
view shows it under `open_hand`, shrinking as its cards are played, and shows no other hidden card.
No other contract shows an `open_hand`. In a suit Solo the suit the declarer names is trumps (Hearts
become a plain suit): it decides who wins a trick and what a player void in the suit led must play.
"""

import random

import pytest

from interpreter import Game, IllegalActionError, load_ruleset
from interpreter.bots.randombot import expand

RANKS = ["A", "10", "K", "Q", "J", "9", "8", "7", "6"]
PACK = {s + r for s in "CSHD" for r in RANKS}


def _cards_in(value) -> set[str]:
    """Every card id anywhere in a view (hands, tricks, open hand, calls ...)."""
    if isinstance(value, str):
        return {value} if value in PACK else set()
    if isinstance(value, dict):
        return set().union(*(_cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(_cards_in(v) for v in value)) if value else set()
    return set()


def _played(game: Game) -> set[str]:
    return {card for trick in game.tricks for card in trick.cards}


# -- Bettel Ouvert: the declarer's hand lies open ----------------------------------------------------

# Three players, dealer 0: seat 0 alone says "spiele" and states Bettel Ouvert. The player after
# forehand (seat 2) opens the declaration round, forehand (seat 1) speaks last (the reading opener).
OUVERT_DEAL = {
    "hands": [
        ["C8", "S8", "S6", "HQ", "H8", "H7", "H6", "DQ", "D9", "D8", "D6"],  # seat 0, the declarer
        ["CJ", "C9", "C6", "SK", "SJ", "S7", "HK", "DA", "D10", "DK", "D7"],  # seat 1, forehand
        ["CA", "C10", "CK", "CQ", "SA", "S10", "SQ", "HA", "H10", "H9", "DJ"],  # seat 2
    ],
    "talon": ["C7", "S9", "HJ"],
}
OUVERT_CALLS = [(2, "pass"), (0, "spiele"), (1, "pass"), (0, "bettel_ouvert")]


def _ouvert_game() -> Game:
    return Game(load_ruleset("tapp-modern"), players=3, deal=OUVERT_DEAL)


def test_no_open_hand_during_the_auction() -> None:
    game = _ouvert_game()
    for seat, call in OUVERT_CALLS[:-1]:
        game.apply(seat, call)
        for viewer in range(3):
            assert "open_hand" not in game.view(viewer)


def test_bettel_ouvert_shows_the_declarers_hand_to_every_other_seat_as_it_shrinks() -> None:
    game = _ouvert_game()
    for seat, call in OUVERT_CALLS:
        game.apply(seat, call)
    assert game.contract.name == "bettel_ouvert" and game.declarer == 0
    assert game.phase.value == "play"
    rng = random.Random(5)
    seen_sizes = []
    while not game.is_over:
        declarer_hand = set(game.hands[0])
        for viewer in (1, 2):
            view = game.view(viewer)
            assert view["open_hand"]["seat"] == 0
            assert set(view["open_hand"]["cards"]) == declarer_hand
            assert len(view["open_hand"]["cards"]) == len(declarer_hand)
            # Nothing else hidden: only the viewer's own hand, the open hand and the cards played.
            assert "hands" not in view and "talon" not in view and "aside" not in view
            other = 3 - viewer
            assert _cards_in(view) <= set(game.hands[viewer]) | declarer_hand | _played(game)
            assert not _cards_in(view) & set(game.hands[other])
        own = game.view(0)
        assert "open_hand" not in own  # the declarer sees its hand as its hand
        assert set(own["hand"]) == declarer_hand
        assert _cards_in(own) <= declarer_hand | _played(game)
        seen_sizes.append(len(declarer_hand))
        seat = game.to_act
        game.apply(seat, rng.choice(game.legal_actions()))
    # The open hand shrank one card per trick, from 11 to 1 (to none at the end).
    assert seen_sizes[0] == 11 and seen_sizes[-1] in (0, 1)
    assert sorted(set(seen_sizes), reverse=True) == list(range(11, seen_sizes[-1] - 1, -1))
    assert game.view(1)["open_hand"]["cards"] == []


def test_a_card_the_declarer_plays_leaves_the_open_hand() -> None:
    game = _ouvert_game()
    for seat, call in OUVERT_CALLS:
        game.apply(seat, call)
    game.apply(1, {"play": "DK"})
    game.apply(2, {"play": "DJ"})
    assert "DQ" in game.view(1)["open_hand"]["cards"]
    game.apply(0, {"play": "DQ"})
    for viewer in (1, 2):
        cards = game.view(viewer)["open_hand"]["cards"]
        assert "DQ" not in cards and len(cards) == 10


# -- no open hand in any other contract ---------------------------------------------------------------


def _contract_calls(ruleset: str, players: int, contract: str) -> list:
    order = [1, 2, 0] if players == 3 else [1, 2, 3, 0]
    if ruleset == "tapp-modern":
        order = order[1:] + order[:1]  # the player after forehand opens the declaration round
        if contract == "ramsch":
            return [(s, "pass") for s in order]
        return [(s, "spiele" if s == 1 else "pass") for s in order] + [(1, contract)]
    return [(1, contract)]  # the others pass while the bidding lasts


OTHER_CONTRACTS = [
    ("tapp-modern", 3, "frage"),
    ("tapp-modern", 4, "solo"),
    ("tapp-modern", 3, "herzsolo"),
    ("tapp-modern", 4, "bettel"),
    ("tapp-modern", 3, "rufer"),
    ("tapp-modern", 4, "herzrufer"),
    ("tapp-modern", 3, "durch"),
    ("tapp-modern", 4, "herzdurch"),
    ("tapp-modern", 3, "ramsch"),
    ("tapp-modern", 4, "ramsch"),
    ("tapp-wuerttemberg", 3, "frage"),
    ("tapp-wuerttemberg", 3, "solo"),
    ("tapp", 3, "frage"),
    ("tapp", 3, "solo"),
    ("tapp", 3, "herzsolo"),
]


@pytest.mark.parametrize(
    "ruleset,players,contract", OTHER_CONTRACTS, ids=[f"{r}-{n}p-{c}" for r, n, c in OTHER_CONTRACTS]
)
def test_no_open_hand_in_other_contracts(ruleset: str, players: int, contract: str) -> None:
    for seed in range(3):
        game = Game(load_ruleset(ruleset), players=players, seed=seed)
        for seat, call in _contract_calls(ruleset, players, contract):
            game.apply(seat, call)
        while game.phase.value == "auction":
            game.apply(game.to_act, "pass")
        assert game.contract.name == contract
        rng = random.Random(seed)
        while not game.is_over:
            for viewer in range(players):
                view = game.view(viewer)
                assert "open_hand" not in view
                if game.phase.value == "play":
                    assert _cards_in(view) <= set(game.hands[viewer]) | _played(game) | set(view.get("aside", []))
            game.apply(game.to_act, expand(rng.choice(game.legal_actions()), rng))
        for viewer in range(players):
            assert "open_hand" not in game.view(viewer)


# -- the named trump suit in play -----------------------------------------------------------------------

# Seat 1 (forehand, the declarer) leads the ace of Hearts. Seat 2 has no hearts and holds spades and
# clubs but no diamonds; seat 0 has to follow with a heart.
TRUMP_DEAL = {
    "hands": [
        ["H10", "HK", "HQ", "HJ", "H9", "H8", "H7", "H6", "DA", "D10", "DK"],  # seat 0, dealer
        ["CA", "C10", "CK", "SA", "S10", "SK", "HA", "DQ", "DJ", "D9", "D8"],  # seat 1, forehand
        ["CQ", "CJ", "C9", "C8", "C7", "SQ", "SJ", "S9", "S8", "S7", "S6"],  # seat 2
    ],
    "talon": ["C6", "D7", "D6"],
}
SEAT2_SPADES = ["SQ", "SJ", "S9", "S8", "S7", "S6"]
SEAT2_CLUBS = ["CQ", "CJ", "C9", "C8", "C7"]


def _modern_solo(contract: str, suit: str | None) -> Game:
    game = Game(load_ruleset("tapp-modern"), players=3, deal=TRUMP_DEAL)
    for seat, call in [(2, "pass"), (0, "pass"), (1, "spiele"), (1, contract)]:
        game.apply(seat, call)
    if suit is not None:
        assert {"choose": "hearts"} not in game.legal_actions()  # a suit Solo never names Hearts
        game.apply(1, {"choose": suit})
    assert game.phase.value == "play" and game.to_act == 1
    game.apply(1, {"play": "HA"})
    return game


def _plays(game: Game) -> list[str]:
    return sorted(a["play"] for a in game.legal_actions())


@pytest.mark.parametrize("suit,trumps,low", [("spades", SEAT2_SPADES, "S6"), ("clubs", SEAT2_CLUBS, "C7")])
def test_the_named_suit_is_trumps_and_a_low_trump_beats_the_ace_of_hearts(suit, trumps, low) -> None:
    game = _modern_solo("solo", suit)
    # Void in Hearts, seat 2 must trump: only the cards of the named suit are legal.
    assert _plays(game) == sorted(trumps)
    other = SEAT2_CLUBS[0] if suit == "spades" else SEAT2_SPADES[0]
    with pytest.raises(IllegalActionError, match="must play a trump"):
        game.apply(2, {"play": other})
    game.apply(2, {"play": low})
    assert _plays(game) == sorted(c for c in TRUMP_DEAL["hands"][0] if c[0] == "H")  # seat 0 follows Hearts
    game.apply(0, {"play": "H6"})
    assert game.tricks[0].winner == 2  # the six or seven of the named suit beats the ace of Hearts


def test_a_named_suit_the_player_is_void_in_leaves_every_card_free() -> None:
    game = _modern_solo("solo", "diamonds")
    assert _plays(game) == sorted(TRUMP_DEAL["hands"][2])  # no hearts, no diamonds: any card
    game.apply(2, {"play": "S6"})
    game.apply(0, {"play": "H6"})
    assert game.tricks[0].winner == 1  # a spade is no trump now: the ace of Hearts wins


def test_in_heart_solo_hearts_are_trumps_again() -> None:
    game = _modern_solo("herzsolo", None)
    assert _plays(game) == sorted(TRUMP_DEAL["hands"][2])  # void in trumps (Hearts): any card
    game.apply(2, {"play": "S6"})
    game.apply(0, {"play": "H6"})
    assert game.tricks[0].winner == 1


def test_spades_named_make_hearts_a_plain_suit() -> None:
    # Seat 0 leads a heart later; seat 1 holds no heart after the ace: with spades named it must
    # trump with a spade, and its spade wins over seat 0's hearts.
    game = _modern_solo("solo", "spades")
    game.apply(2, {"play": "S6"})
    game.apply(0, {"play": "H6"})
    game.apply(2, {"play": "C7"})  # seat 2 won and leads a club
    game.apply(0, {"play": "H7"})  # void in clubs, no spades: seat 0 may discard a heart
    game.apply(1, {"play": "CA"})
    assert game.tricks[1].winner == 1  # a heart is no trump: the club ace wins
    game.apply(1, {"play": "DQ"})
    game.apply(2, {"play": "S7"})  # void in diamonds: seat 2 trumps with a spade
    game.apply(0, {"play": "DA"})
    assert game.tricks[2].winner == 2


WUE_DEAL = TRUMP_DEAL


@pytest.mark.parametrize(
    "reading,suit,legal,winner",
    [
        ("any_suit", "spades", SEAT2_SPADES, 2),
        ("any_suit", "clubs", SEAT2_CLUBS, 2),
        ("any_suit", "hearts", None, 1),
        ("hearts", None, None, 1),
    ],
)
def test_wuerttemberg_solo_trumps_by_reading(reading, suit, legal, winner) -> None:
    game = Game(load_ruleset("tapp-wuerttemberg", {"solo_trumps": reading}), players=3, deal=WUE_DEAL)
    game.apply(1, "solo")  # nothing ranks above Solo: the bidding ends
    if reading == "any_suit":
        assert sorted(a["choose"] for a in game.legal_actions()) == ["clubs", "diamonds", "hearts", "spades"]
        game.apply(1, {"choose": suit})
    else:
        assert all("choose" not in a for a in game.legal_actions() if isinstance(a, dict))
    game.apply(1, "pass")  # no Tout
    game.apply(1, {"play": "HA"})
    assert _plays(game) == sorted(legal or TRUMP_DEAL["hands"][2])
    game.apply(2, {"play": "S6"} if suit != "clubs" else {"play": "C7"})
    game.apply(0, {"play": "H6"})
    assert game.tricks[0].winner == winner


def test_classic_tapp_solo_names_clubs_spades_or_diamonds() -> None:
    game = Game(load_ruleset("tapp"), players=3, deal=TRUMP_DEAL)
    game.apply(1, "solo")
    game.apply(2, "pass")
    game.apply(0, "pass")
    assert sorted(a["choose"] for a in game.legal_actions()) == ["clubs", "diamonds", "spades"]
    game.apply(1, {"choose": "clubs"})
    game.apply(1, "pass")
    game.apply(1, {"play": "HA"})
    assert _plays(game) == sorted(SEAT2_CLUBS)
    game.apply(2, {"play": "C7"})
    game.apply(0, {"play": "H6"})
    assert game.tricks[0].winner == 2


# -- modern Tapp: who opens, and the Rufer's card given back ---------------------------------------------


@pytest.mark.parametrize("players,first", [(3, 2), (4, 2)])
def test_the_player_after_forehand_opens_the_declaration_round(players: int, first: int) -> None:
    game = Game(load_ruleset("tapp-modern"), players=players, seed=1)
    assert game.to_act == first
    with pytest.raises(IllegalActionError, match=f"seat {first}'s turn"):
        game.apply(1, "spiele")  # forehand speaks last
    forehand_first = Game(load_ruleset("tapp-modern", {"opener": "forehand"}), players=players, seed=1)
    assert forehand_first.to_act == 1


def test_a_rufer_may_not_give_back_the_card_it_called() -> None:
    game = Game(load_ruleset("tapp-modern"), players=3, deal=TRUMP_DEAL)
    for seat, call in [(2, "pass"), (0, "pass"), (1, "spiele"), (1, "rufer"), (1, {"choose": "clubs"})]:
        game.apply(seat, call)
    game.apply(1, {"call_card": "DA"})  # held by seat 0
    gives = [a["give"] for a in game.legal_actions()]
    assert "DA" not in gives and sorted(gives) == sorted(c for c in TRUMP_DEAL["hands"][1])
    with pytest.raises(IllegalActionError, match="not DA itself"):
        game.apply(1, {"give": "DA"})
    assert "DA" in game.hands[1] and "DA" not in game.hands[0]  # refused: nothing changed
    game.apply(1, {"give": "D8"})
    assert "D8" in game.hands[0] and game.phase.value == "play"
