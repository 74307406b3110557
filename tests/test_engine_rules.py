"""Rules of the language played at their edges, with legal moves worked out by hand: the duty to
head the trick (`must_beat`), and every reason the exchange and the declarer's announcement give
for refusing an action."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, IllegalActionError, load_ruleset
from interpreter.bots.randombot import RandomBot
from interpreter.engine.phase import Phase
from interpreter.language.model import Ruleset


def variant(tmp_path: Path, name: str, text: str) -> Ruleset:
    file = tmp_path / f"{name}.yaml"
    file.write_text(text, encoding="utf-8")
    return load_ruleset(str(file))


def refuse(game: Game, seat: int, action: object, reason: str) -> None:
    before = (game.record(), game.view("all"), game.legal_actions())
    with pytest.raises(IllegalActionError) as caught:
        game.apply(seat, action)
    assert reason in str(caught.value), str(caught.value)
    assert (game.record(), game.view("all"), game.legal_actions()) == before


def reach(ruleset: Ruleset | str, wanted: Callable[[Game], bool], pass_probability: float | None = None) -> Game:
    """The first seeded deal that reaches a state `wanted` says, bots playing at random."""
    for seed in range(500):
        game = Game(ruleset, seed=seed)
        bot = RandomBot(seed, pass_probability)
        while not game.is_over:
            if wanted(game):
                return game
            game.apply(game.to_act, bot.choose(game, game.to_act))
    raise AssertionError("no deal reached the state wanted")


# -- must_beat: heading the trick ---------------------------------------------------------------

# Classic Tapp (three players, hearts trumps, A 10 K Q J 9 8 7 6) with Stichzwang added.
MUST_BEAT = "title: Tapp with Stichzwang (a test variant)\nextends: tapp\nplay:\n  must_beat: true\n"
HANDS = [
    ["C9", "C8", "C7", "S6", "HA", "H10", "HK", "HQ", "HJ", "H9", "H7"],  # seat 0, void in diamonds
    ["CK", "H8", "H6", "SA", "S10", "SK", "SQ", "SJ", "S9", "S8", "S7"],  # seat 1, Vorhand: the Herzsolo
    ["CA", "C10", "C6", "D6", "DA", "D10", "DK", "DQ", "DJ", "D9", "D8"],  # seat 2
]
TALON = ["D7", "CQ", "CJ"]


def herzsolo(ruleset: Ruleset) -> Game:
    game = Game(ruleset, deal={"hands": HANDS, "talon": TALON})
    game.apply(1, "herzsolo")
    while game.phase in (Phase.AUCTION, Phase.ANNOUNCE):
        game.apply(game.to_act, "pass")  # no Tout announced
    assert game.contract is not None and game.contract.name == "herzsolo" and game.declarer == 1
    assert game.phase is Phase.PLAY and game.to_act == 1
    return game


def cards(game: Game, seat: int) -> set[str]:
    return {a["play"] for a in game.legal_actions(seat)}  # type: ignore[index]


@pytest.mark.parametrize("must_beat", [True, False], ids=["must-beat", "follow-only"])
def test_must_beat_heads_the_trick_when_it_can(tmp_path: Path, must_beat: bool) -> None:
    game = herzsolo(variant(tmp_path, "tapp-stichzwang", MUST_BEAT) if must_beat else load_ruleset("tapp"))
    game.apply(1, {"play": "CK"})
    # Seat 2 follows clubs; with Stichzwang only a club above the King.
    assert cards(game, 2) == ({"CA", "C10"} if must_beat else {"CA", "C10", "C6"})
    if must_beat:
        refuse(game, 2, {"play": "C6"}, "must beat the trick: you can with CA, C10")
    game.apply(2, {"play": "C10"})
    # Seat 0 has no club above the 10: any club, as without the duty.
    assert cards(game, 0) == {"C9", "C8", "C7"}
    game.apply(0, {"play": "C9"})
    assert game.tricks[0].winner == 2
    game.apply(2, {"play": "D6"})
    # Seat 0 has no diamond: it must trump, and any trump beats a diamond.
    assert cards(game, 0) == {"HA", "H10", "HK", "HQ", "HJ", "H9", "H7"}
    game.apply(0, {"play": "H7"})
    # Seat 1 has no diamond: it must trump, over the 7 of hearts where it can.
    assert cards(game, 1) == ({"H8"} if must_beat else {"H8", "H6"})
    if must_beat:
        refuse(game, 1, {"play": "H6"}, "must beat the trick: you can with H8")
    game.apply(1, {"play": "H8"})
    assert game.tricks[1].winner == 1


def test_must_beat_lets_a_trump_that_cannot_overtrump_go_under(tmp_path: Path) -> None:
    game = herzsolo(variant(tmp_path, "tapp-stichzwang", MUST_BEAT))
    for seat, card in [(1, "CK"), (2, "C10"), (0, "C9"), (2, "D6"), (0, "HA")]:
        game.apply(seat, {"play": card})
    # Nobody beats the Ace of trumps: seat 1 must still trump, with either.
    assert cards(game, 1) == {"H8", "H6"}
    game.apply(1, {"play": "H6"})
    assert game.tricks[1].winner == 0


def test_must_beat_does_not_ask_a_follower_to_beat_a_trump_with_the_suit_led(tmp_path: Path) -> None:
    hands = [list(h) for h in HANDS]
    hands[0][hands[0].index("H7")], hands[2][hands[2].index("D8")] = "D8", "H7"  # seat 0 now holds a diamond
    game = Game(variant(tmp_path, "tapp-stichzwang", MUST_BEAT), deal={"hands": hands, "talon": TALON})
    game.apply(1, "herzsolo")
    while game.phase in (Phase.AUCTION, Phase.ANNOUNCE):
        game.apply(game.to_act, "pass")
    for seat, card in [(1, "CK"), (2, "C10"), (0, "C9")]:
        game.apply(seat, {"play": card})
    game.apply(2, {"play": "D6"})
    assert cards(game, 0) == {"D8"}  # following suit comes first; the 8 beats the 6
    game.apply(0, {"play": "D8"})
    assert cards(game, 1) == {"H8", "H6"}  # void: any trump heads a trick of diamonds


# -- the exchange's refusals ----------------------------------------------------------------------


def exchange_waiting(game: Game, kind: str) -> bool:
    legal = game.legal_actions() if game.phase is Phase.EXCHANGE else []
    return bool(legal) and all(isinstance(a, dict) and kind in a for a in legal)


def test_trumps_are_named_before_anything_else() -> None:
    game = reach("tapp", lambda g: exchange_waiting(g, "choose"))
    seat = game.to_act
    assert seat is not None and game.contract is not None and game.contract.name == "solo"
    refuse(game, seat, {"discard": [game.hands[seat][0]]}, "name the trump suit first: {choose: clubs}")


RUFER_FROM_ACES = """\
title: Modern Tapp whose Heart Rufer calls an ace (a test variant)
extends: tapp-modern
contracts:
  herzrufer:
    exchange:
      - call_card: {from: "{CA, SA, DA}"}
      - give: {}
"""


def test_a_call_and_a_give_out_of_their_turn_and_of_the_wrong_card(tmp_path: Path) -> None:
    ruleset = variant(tmp_path, "tapp-rufer-aces", RUFER_FROM_ACES)

    def calling(game: Game) -> bool:
        return game.contract is not None and game.contract.name == "herzrufer" and exchange_waiting(game, "call_card")

    game = reach(ruleset, calling)
    seat = game.to_act
    assert seat is not None
    hand = game.hands[seat]
    called = [a["call_card"] for a in game.legal_actions()]  # type: ignore[index]
    assert set(called) == {"CA", "SA", "DA"} - set(hand)
    stranger = next(c for c in game.ruleset.pack(3) if c not in hand and c not in {"CA", "SA", "DA"})
    refuse(game, seat, {"call_card": stranger}, f"{stranger} may not be called")
    refuse(game, seat, {"give": hand[0]}, "there is no card to give now; it is time for calling a card")
    refuse(game, seat, {"keep": [hand[0]]}, "it is time for calling a card, not to keep cards")
    game.apply(seat, {"call_card": called[0]})
    assert called[0] in game.hands[seat] and exchange_waiting(game, "give")
    refuse(game, seat, {"call_card": called[-1]}, "there is no card to call now; it is time for giving a card")
    refuse(game, seat, {"give": stranger}, f"you do not hold {stranger}")


def test_a_rufer_is_refused_to_a_hand_holding_every_card_it_could_call(tmp_path: Path) -> None:
    # Seat 1 holds the three aces the test Rufer calls from: it could not carry the game out, so
    # the bid is refused when said (before, the deal stopped with nobody able to act).
    ruleset = variant(tmp_path, "tapp-rufer-aces", RUFER_FROM_ACES)
    aces = ["CA", "SA", "DA"]
    rest = [c for c in ruleset.pack(3) if c not in aces]
    game = Game(ruleset, deal={"hands": [rest[0:11], aces + rest[11:19], rest[19:30]], "talon": rest[30:33]})
    game.apply(2, "pass")
    game.apply(0, "pass")
    game.apply(1, "spiele")
    assert "herzrufer" not in game.legal_actions(1)
    refuse(game, 1, "herzrufer", "you could not carry it out: you hold every card you could call (CA, DA, SA)")
    # A hand with a card left to call may bid it.
    hands = [rest[0:11], aces[:2] + rest[11:20], [aces[2]] + rest[20:30]]
    game = Game(ruleset, deal={"hands": hands, "talon": rest[30:33]})
    for seat, call in [(2, "pass"), (0, "pass"), (1, "spiele"), (1, "herzrufer")]:
        game.apply(seat, call)
    assert game.contract is not None and game.contract.name == "herzrufer"
    assert game.legal_actions() == [{"call_card": "DA"}]


def test_a_call_of_a_card_held() -> None:
    game = reach("tapp-modern", lambda g: exchange_waiting(g, "call_card"))
    seat = game.to_act
    assert seat is not None
    refuse(
        game, seat, {"call_card": game.hands[seat][0]}, f"call a card you do not hold; you hold {game.hands[seat][0]}"
    )


def _cego_zwei_leere() -> Game:
    rs = load_ruleset("cego")
    hand = ["H4", "H3", "H2", "C10", "C9", "C8", "S10", "S9", "S8", "D4", "D3"]
    talon = ["CK", "SK", "HK", "DK", "CQ", "SQ", "HQ", "DQ", "C7", "S7"]
    holder = ["HA", "D2"]  # seat 1 holds Eine Leere, so it must have an empty card to keep
    rest = [c for c in rs.deck.cards if c not in hand and c not in talon and c not in holder]
    hands = [rest[0:11], holder + rest[11:20], rest[20:31], hand]
    game = Game(rs, players=4, deal={"hands": hands, "talon": talon})
    for seat, call in [
        (1, "pass"),
        (2, "pass"),
        (3, "pass"),
        (0, "pass"),
        (1, "cego"),
        (2, "pass"),
        (3, "eine"),
        (1, "selbst"),
        (3, "eine_leere"),
        (1, "selbst"),
        (3, "zwei_leere"),
        (1, "pass"),
        (0, "pass"),
    ]:
        game.apply(seat, call)
    assert game.contract is not None and game.contract.name == "zwei_leere" and game.to_act == 3
    return game


@pytest.mark.parametrize(
    "action, reason",
    [
        ({"keep": ["H4"]}, "keep exactly 2 cards, not 1"),
        ({"keep": ["H4", "HA"]}, "you do not hold HA"),
        ({"keep": ["H4", "H4"]}, "a card is named twice"),
        (
            {"keep": ["H4", "C10"]},
            "keep two empty cards of one suit (picture cards only without two empty ones): H4, C10",
        ),
        ({"discard": ["H4"]}, "it is time for keeping 2 cards, not to discard"),
        ({"call_card": "T1"}, "there is no card to call now; it is time for keeping 2 cards"),
        ({"choose": "accuse"}, "it is time for keeping 2 cards (exchange), not the choice 'accuse'"),
    ],
)
def test_the_keep_refuses_with_the_reason(action: dict[str, Any], reason: str) -> None:
    refuse(_cego_zwei_leere(), 3, action, reason)


def test_a_keep_during_a_discard() -> None:
    game = reach("breitnau", lambda g: exchange_waiting(g, "discard"), pass_probability=0.85)
    seat = game.to_act
    assert seat is not None
    refuse(game, seat, {"keep": game.hands[seat][:2]}, "it is time for a discard, not to keep cards")


def test_the_accusation_is_answered_by_accusing_or_passing() -> None:
    def accusing(game: Game) -> bool:
        return game.phase is Phase.EXCHANGE and {"choose": "accuse"} in game.legal_actions()

    game = reach("cego-oberwolfach", accusing, pass_probability=0.9)
    seat = game.to_act
    assert seat is not None and game.legal_actions() == ["pass", {"choose": "accuse"}]
    reason = "accuse the others of skinning a Solo ({choose: accuse}) or go on (pass)"
    refuse(game, seat, {"discard": [game.hands[seat][0]]}, reason)
    refuse(game, seat, {"choose": "forgive"}, reason)


# -- the declarer's announcement's refusals ----------------------------------------------------------

FURTWANGEN_HALF_ULTI = """\
title: Furtwangen with an announcement for the Solo only (a test variant)
extends: furtwangen
announcements:
  halbulti:
    title: Half Ulti (a test announcement)
    cards: "{T1}"
    value: "5"
    contracts: [solo]
"""


def _announcing(ruleset: Ruleset | str, holding: str = "T1") -> Game:
    def wanted(game: Game) -> bool:
        return (
            game.phase is Phase.ANNOUNCE
            and game.contract is not None
            and game.contract.name != "solo"
            and game.declarer is not None
            and holding in game.hands[game.declarer]
        )

    return reach(ruleset, wanted, pass_probability=0.5)


def test_the_announcement_refuses_with_the_reason(tmp_path: Path) -> None:
    game = _announcing(variant(tmp_path, "furtwangen-half-ulti", FURTWANGEN_HALF_ULTI))
    seat = game.declarer
    assert seat is not None and game.contract is not None
    stranger = next(c for c in ("T3", "T2") if c not in game.hands[seat])
    refuse(game, seat, {"announce": "ulti", "cards": ["T21"]}, "T21 cannot be laid out for ulti; only T3, T2, T1")
    refuse(game, seat, {"announce": "ulti", "cards": [stranger]}, f"you do not hold {stranger}")
    refuse(game, seat, {"announce": "ulti", "cards": []}, "lay out one or more different cards, or pass")
    refuse(game, seat, {"announce": "ulti", "cards": ["T1", "T1"]}, "lay out one or more different cards, or pass")
    refuse(
        game, seat, {"announce": "halbulti", "cards": ["T1"]}, f"halbulti cannot be announced in {game.contract.title}"
    )
    refuse(game, seat, {"discard": ["T1"]}, "it is time for an announcement or pass (announce), not a discard")


def test_a_declaration_with_cards_is_refused() -> None:
    def wanted(game: Game) -> bool:
        return game.phase is Phase.ANNOUNCE

    game = reach("tapp-wuerttemberg", wanted)
    seat = game.declarer
    assert seat is not None and game.contract is not None
    assert {"announce": "tout", "cards": []} in game.legal_actions()
    card = game.hands[seat][0]
    refuse(game, seat, {"announce": "tout", "cards": [card]}, f"tout cannot be declared in {game.contract.title}")
