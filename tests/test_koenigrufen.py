"""Königrufen's mechanics at their edges: kontra chains, announcing and its refusals, the
Besserrufer's compulsory bird and concession, Farben contracts, the Pagat as the last trump,
the Emperor trick, open hands from the second trick, calling an own King or one in the talon,
the partner's secret as each seat receives the game, and five at the table.

Expected payments are worked out by hand from the digest (../shared/digests/koenigrufen.md,
pagat.com) in the comments, never taken from the engine.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import expand
from interpreter.engine.actions import play_actions, play_steps
from interpreter.engine.plan import play_plan
from interpreter.engine.play import TrickPlay
from interpreter.engine.table import Cards
from interpreter.engine.table import Table as CardTable
from interpreter.engine.tricks import TrickRules
from interpreter.errors import IllegalActionError, InvalidActionError
from interpreter.frontends.server import Session

RS = load_ruleset("koenigrufen")


def play_onto(contract: str, hand: list[str], trick: list[str]) -> TrickPlay:
    """Trick play of `contract` at the moment seat 0, holding `hand`, is to play onto `trick`
    (led by the seats before it; an empty trick: seat 0 leads), by the contract's rules."""
    plan = play_plan(RS, RS.contracts[contract], None)
    seats = list(range(len(trick) + 1))
    order = seats[1:] + seats[:1]  # seat 1 leads, seat 0 plays last
    hands = {
        0: list(hand),
        **{s: [card, "D4" if card != "D4" else "D3"] for s, card in zip(order, trick, strict=False)},
    }
    table = CardTable(Cards(hands, []), [], [])
    leader = order[0] if trick else 0
    play = TrickPlay(plan.tables, plan.book, RS.deck, table, seats, 0, leader, 2, play_actions(RS), play_steps(RS, 4))
    for seat, card in zip(order, trick, strict=False):
        play.take(seat, play_actions(RS)[card])
    assert play.to_act == 0
    return play


# The deal of tests/records/koenigrufen-rufer-pagat-kontra.yaml. Seat 1 (Forehand) declares;
# CK is seat 3's, so a Rufer calling CK makes seats 1 and 3 a side against seats 0 and 2. The
# first half of the talon is C10 S10 DJ, the second T6 DQ DN.
DEAL: dict[str, Any] = {
    "hands": [
        ["T21", "T19", "T17", "T15", "T13", "C7", "SK", "HK", "DK", "CQ", "SQ", "HQ"],
        ["T1", "T2", "T3", "T4", "T5", "T7", "C8", "S8", "H4", "D4", "H3", "D3"],
        ["T22", "T20", "T18", "T16", "T14", "C9", "S9", "H2", "D2", "CJ", "SJ", "HN"],
        ["T8", "T9", "T10", "T11", "T12", "CK", "S7", "HA", "DA", "CN", "SN", "HJ"],
    ],
    "talon": ["C10", "S10", "DJ", "T6", "DQ", "DN"],
}
# Its cards as played in the record, trick by trick (seat, card): every trump but the Pagat in
# the first five tricks, CK wins the sixth for seat 3, the Pagat alone wins the last. The game is
# lost with 19 card points to 51 (the record's note counts them).
PLAYS = [
    (1, "T7"), (2, "T22"), (3, "T8"), (0, "T13"),
    (2, "T20"), (3, "T9"), (0, "T21"), (1, "T2"),
    (0, "T19"), (1, "T3"), (2, "T18"), (3, "T10"),
    (0, "T17"), (1, "T4"), (2, "T16"), (3, "T11"),
    (0, "T15"), (1, "T5"), (2, "T14"), (3, "T12"),
    (0, "C7"), (1, "C8"), (2, "C9"), (3, "CK"),
    (3, "S7"), (0, "SK"), (1, "S8"), (2, "S9"),
    (0, "HK"), (1, "H4"), (2, "H2"), (3, "HA"),
    (0, "DK"), (1, "D4"), (2, "D2"), (3, "DA"),
    (0, "CQ"), (1, "C10"), (2, "CJ"), (3, "CN"),
    (0, "SQ"), (1, "S10"), (2, "SJ"), (3, "SN"),
    (0, "HQ"), (1, "T1"), (2, "HN"), (3, "HJ"),
]  # fmt: skip


def swapped(deal: dict[str, Any], *pairs: tuple[str, str]) -> dict[str, Any]:
    """`deal` with each pair of cards changing places."""
    deal = copy.deepcopy(deal)
    places = [*deal["hands"], deal["talon"]]
    for a, b in pairs:
        pa = next(p for p in places if a in p)
        pb = next(p for p in places if b in p)
        ia, ib = pa.index(a), pb.index(b)
        pa[ia], pb[ib] = b, a
    return deal


def new_game(deal: dict[str, Any] | None = None, ruleset: Any = RS, players: int = 4, **kw: Any) -> Game:
    return Game(ruleset, players=players, dealer=0, deal=deal if deal is not None else DEAL, **kw)


def bid(game: Game, contract: str, declarer: int = 1) -> None:
    """`declarer` wins the auction with `contract`: Forehand's Mein Spiel and her choice, or a
    bid the others pass."""
    seats = game.seats
    if declarer == game.vorhand and contract not in game.legal_actions(declarer):
        game.apply(declarer, "mein_spiel")
        for seat in seats[1:]:
            game.apply(seat, "pass")
        game.apply(declarer, contract)
        return
    for seat in seats[: seats.index(declarer)]:
        game.apply(seat, "pass")
    game.apply(declarer, contract)
    for seat in seats[seats.index(declarer) + 1 :]:
        game.apply(seat, "pass")
    assert game.contract is not None and game.contract.name == contract and game.declarer == declarer


def rufer_announcing(deal: dict[str, Any] | None = None, contract: str = "rufer", **kw: Any) -> Game:
    """The Rufer of DEAL up to the round of announcements: CK called, the first half taken,
    H3 D3 DJ discarded."""
    game = new_game(deal, **kw)
    bid(game, contract)
    game.apply(1, {"call_card": "CK"})
    game.apply(1, {"choose": "first"})
    game.apply(1, {"discard": ["H3", "D3", "DJ"]})
    assert game.phase.value == "announce" and game.to_act == 1
    return game


def passes_until_play(game: Game) -> None:
    while game.phase.value == "announce":
        game.apply(game.to_act, "pass")


def play_record_cards(game: Game) -> None:
    for seat, card in PLAYS:
        game.apply(seat, {"play": card})
    assert game.is_over


def play_out(game: Game, seed: int = 0) -> Game:
    """The rest of the deal by random legal actions, passing wherever a pass is allowed."""
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act
        legal = game.legal_actions(seat)
        game.apply(seat, "pass" if "pass" in legal else expand(rng.choice(legal), rng))
    return game


def kontra_events(events: list[dict[str, Any]]) -> list[tuple[int, str, int, str]]:
    return [(e["seat"], e["item"], e["level"], e["title"]) for e in events if e["type"] == "kontra"]


# -- kontra chains ------------------------------------------------------------------------------


def test_kontra_rekontra_subkontra_then_the_limit_and_the_game_counts_eight_fold() -> None:
    game = rufer_announcing()
    # The declarer's side may not double first: the game is its own.
    assert {"kontra": "game"} not in game.legal_actions(1)
    with pytest.raises(IllegalActionError):
        game.apply(1, {"kontra": "game"})
    game.apply(1, "pass")
    assert {"kontra": "game"} in game.legal_actions(2)
    events = game.apply(2, {"kontra": "game"})
    # Nobody doubles twice in a row: the other side answers.
    assert {"kontra": "game"} not in game.legal_actions(2)
    with pytest.raises(IllegalActionError):
        game.apply(2, {"kontra": "game"})
    events += game.apply(2, "pass")
    # The partner (seat 3) re-doubles; seat 0 (a defender) doubles again.
    events += game.apply(3, {"kontra": "game"})
    events += game.apply(3, "pass")
    events += game.apply(0, {"kontra": "game"})
    events += game.apply(0, "pass")
    assert kontra_events(events) == [
        (2, "game", 1, "Kontra"),
        (3, "game", 2, "Rekontra"),
        (0, "game", 3, "Subkontra"),
    ]
    # Three doublings are the most: the declarer may not double a fourth time.
    assert game.to_act == 1 and {"kontra": "game"} not in game.legal_actions(1)
    with pytest.raises(IllegalActionError, match="3 times"):
        game.apply(1, {"kontra": "game"})
    assert game.view(2)["kontra"] == {"game": 3}
    passes_until_play(game)
    play_record_cards(game)
    # The Rufer is lost (19 card points): -1 x 2 x 2 x 2 = -8 per payment; the Pagat wins the
    # last trick unannounced: +1 (a silent bonus is never doubled). -8 + 1 = -7 for seats 1
    # and 3, each defender +7.
    assert game.result is not None
    assert game.result.kontra == 8
    assert game.result.payments == [7, -7, 7, -7]


def test_kontra_on_an_announced_bonus_counts_apart_from_the_game() -> None:
    game = rufer_announcing()
    game.apply(1, {"announce": "pagat"})
    game.apply(1, "pass")
    game.apply(2, {"kontra": "game"})
    game.apply(2, {"kontra": "pagat"})
    game.apply(2, "pass")
    game.apply(3, {"kontra": "pagat"})  # rekontra on the Pagat only
    game.apply(3, "pass")
    assert game.view(0)["kontra"] == {"game": 1, "pagat": 2}
    assert game.view(0)["announced"] == {"pagat": "declarer"}
    passes_until_play(game)
    play_record_cards(game)
    # Game lost, kontra'd: -1 x 2 = -2. Pagat announced (2), won, kontra and rekontra: 2 x 4 = +8.
    # Per payment +6 for the declarer's side, 2 v 2.
    assert game.result is not None
    assert game.result.payments == [-6, 6, -6, 6]
    (pagat,) = game.result.bonuses
    assert pagat == {
        "name": "pagat",
        "side": "declarer",
        "announced": True,
        "kontra": 2,
        "achieved": True,
        "value": 8,
        "payments": [-8, 8, -8, 8],  # 2 v 2: each of the losing side pays one winner
    }


def test_only_an_announced_bonus_may_be_doubled() -> None:
    game = rufer_announcing()
    game.apply(1, "pass")
    with pytest.raises(IllegalActionError, match="not been announced"):
        game.apply(2, {"kontra": "trull"})
    with pytest.raises(IllegalActionError):
        game.apply(2, {"kontra": "mondfang"})  # a bonus that cannot even be announced
    with pytest.raises(InvalidActionError):
        game.apply(2, {"kontra": "everything"})  # not an item at all
    assert game.legal_actions(2) == ["pass", {"kontra": "game"}]
    assert "kontra" not in game.view(2)


def test_a_kontra_chain_of_five_where_the_option_allows_hirschkontra_and_mordkontra() -> None:
    rs = load_ruleset("koenigrufen", {"kontra_chain": "mordkontra"})
    game = rufer_announcing(ruleset=rs)
    game.apply(1, "pass")
    events = []
    doubler = {1: 2, 2: 3, 3: 0, 4: 1, 5: 2}  # defenders, declarer's side, defenders, …
    for level in range(1, 6):
        seat = doubler[level]
        while game.to_act != seat:
            game.apply(game.to_act, "pass")
        events += game.apply(seat, {"kontra": "game"})
    assert [title for *_, title in kontra_events(events)] == [
        "Kontra",
        "Rekontra",
        "Subkontra",
        "Hirschkontra",
        "Mordkontra",
    ]
    game.apply(2, "pass")
    with pytest.raises(IllegalActionError, match="5 times"):
        game.apply(3, {"kontra": "game"})


# -- announcing ---------------------------------------------------------------------------------


def test_a_defender_announces_only_once_its_side_is_known() -> None:
    game = rufer_announcing()
    game.apply(1, "pass")
    # Seat 2 knows it is a defender, but nobody else does: it may not announce yet.
    assert not [a for a in game.legal_actions(2) if isinstance(a, dict) and "announce" in a]
    with pytest.raises(IllegalActionError, match="side is not known"):
        game.apply(2, {"announce": "trull"})
    # A kontra shows its side; then it may announce ("kontra; trull", digest §9).
    game.apply(2, {"kontra": "game"})
    assert {"announce": "trull", "cards": []} in game.legal_actions(2)
    game.apply(2, {"announce": "trull"})
    assert game.view(1)["announced"] == {"trull": "defenders"}
    # Announced once: nobody announces it again.
    with pytest.raises(IllegalActionError, match="already"):
        game.apply(2, {"announce": "trull"})


def test_the_partner_may_announce_and_thereby_shows_himself_to_everybody() -> None:
    game = rufer_announcing()
    game.apply(1, "pass")
    game.apply(2, "pass")
    assert all("partner" not in game.view(seat) for seat in (0, 1, 2))
    assert game.view(3)["partner"] == 3  # it holds the called King
    assert {"announce": "koenige", "cards": []} in game.legal_actions(3)
    game.apply(3, {"announce": "koenige"})
    assert all(game.view(seat)["partner"] == 3 for seat in (0, 1, 2, 3))


def test_bonuses_that_cannot_be_announced_or_do_not_count_are_refused() -> None:
    game = rufer_announcing()
    with pytest.raises(InvalidActionError):
        game.apply(1, {"announce": "mondfang"})  # scored silently only
    # Farbensolo: only a Valat counts.
    farben = new_game()
    bid(farben, "farbensolo")
    assert farben.legal_actions(1) == ["pass", {"announce": "valat", "cards": []}]
    with pytest.raises(IllegalActionError, match="does not count"):
        farben.apply(1, {"announce": "trull"})


def test_the_besserrufer_must_announce_a_bird_first() -> None:
    game = rufer_announcing(contract="besserrufer")
    birds = [{"announce": b, "cards": []} for b in ("pagat", "uhu", "kakadu", "marabu")]
    assert game.legal_actions(1) == birds
    for refused in ("pass", {"announce": "trull"}, {"announce": "valat"}):
        with pytest.raises(IllegalActionError, match="first announce one of"):
            game.apply(1, refused)
    assert "announced" not in game.view(0)
    game.apply(1, {"announce": "uhu"})
    assert "pass" in game.legal_actions(1) and {"announce": "trull", "cards": []} in game.legal_actions(1)
    game.apply(1, "pass")
    assert game.to_act == 2


def test_the_besserrufer_with_the_called_king_in_the_talon_may_concede_for_three() -> None:
    deal = swapped(DEAL, ("CK", "DN"))  # CK lies last in the talon
    game = new_game(deal)
    bid(game, "besserrufer")
    game.apply(1, {"call_card": "CK"})
    assert game.legal_actions(1) == ["pass", {"choose": "concede"}]
    game.apply(1, {"choose": "concede"})
    # Digest §8: concedes for 3 (the game 1 and the pagat 2), alone: 3 to each of three.
    assert game.result is not None and game.result.outcome == "conceded"
    assert game.result.payments == [3, -9, 3, 3]


def test_no_concession_in_a_rufer_nor_with_the_called_king_out_of_the_talon() -> None:
    game = new_game()
    bid(game, "besserrufer")
    game.apply(1, {"call_card": "CK"})  # seat 3 holds it
    assert game.legal_actions(1) == [{"choose": "first"}, {"choose": "second"}]
    rufer = new_game(swapped(DEAL, ("CK", "DN")))
    bid(rufer, "rufer")
    rufer.apply(1, {"call_card": "CK"})
    assert rufer.legal_actions(1) == [{"choose": "first"}, {"choose": "second"}]
    with pytest.raises(IllegalActionError):
        rufer.apply(1, {"choose": "concede"})


# -- rules of play per contract -----------------------------------------------------------------


def test_farben_contracts_trumps_not_led_while_other_cards_and_win_only_when_led() -> None:
    # Seat 2 declares Farbensolo; Forehand (seat 1) still leads (digest §10).
    deal = {
        "hands": [
            ["HQ", "HK", "T21", "T19", "T17", "T15", "T13", "C7", "SK", "DK", "CQ", "SQ"],
            ["H2", "T1", "T2", "T3", "T4", "T5", "T7", "C8", "S8", "D4", "C9", "D3"],
            ["T22", "T20", "T18", "T16", "T14", "T11", "S9", "D2", "CJ", "SJ", "DN", "DA"],
            ["H3", "T8", "T9", "T10", "T12", "CK", "S7", "H4", "CN", "SN", "HJ", "HA"],
        ],
        "talon": ["C10", "S10", "DJ", "T6", "DQ", "HN"],
    }
    game = new_game(deal)
    bid(game, "farbensolo", declarer=2)
    passes_until_play(game)
    assert game.to_act == 1
    leads = [a["play"] for a in game.legal_actions(1)]
    assert sorted(leads) == sorted(["H2", "C8", "S8", "D4", "C9", "D3"])  # no trump
    with pytest.raises(IllegalActionError, match="trumps may not be led"):
        game.apply(1, {"play": "T7"})
    game.apply(1, {"play": "H2"})
    # Seat 2 has no heart: it must still trump, with any trump.
    assert sorted(a["play"] for a in game.legal_actions(2)) == sorted(["T22", "T20", "T18", "T16", "T14", "T11"])
    game.apply(2, {"play": "T22"})
    game.apply(3, {"play": "H3"})
    game.apply(0, {"play": "HQ"})
    # The Sküs does not win a heart trick in a Farben contract: the Queen does.
    assert game.tricks[0].winner == 0 and game.to_act == 0
    rules = TrickRules.of(RS, None, RS.contracts["farbendreier"])
    assert play_onto("farbendreier", ["T5", "T9"], []).legal(0) == ["T5", "T9"]  # nothing but trumps: one is led
    assert play_onto("farbendreier", ["T5", "H2"], []).legal(0) == ["H2"]
    assert rules.winner_index(["T5", "T9", "H2", "T3"]) == 1  # trumps led: the highest trump wins
    assert rules.winner_index(["H2", "T22", "H3", "HQ"]) == 3


def test_the_pagat_only_as_the_last_trump_in_negative_contracts() -> None:
    for name in ("trischaken", "piccolo", "bettel", "piccolo_ouvert"):

        def legal(hand: list[str], trick: list[str], name: str = name) -> list[str]:
            return play_onto(name, hand, trick).legal(0)

        assert legal(["T1", "T5", "H2"], []) == ["T5", "H2"]  # not led while another trump is held
        assert legal(["T1", "H2"], []) == ["T1", "H2"]
        assert legal(["T1", "T5", "H2"], ["T10"]) == ["T5"]
        assert legal(["T1", "T5", "C7"], ["H2"]) == ["T5"]  # void: trumps, not the Pagat
        assert legal(["T1", "H2"], ["T10"]) == ["T1"]  # its last trump: it must
        assert legal(["T1", "H2"], ["C7"]) == ["T1"]
        assert legal(["T1"], ["HK"]) == ["T1"]  # the only card left
        assert legal(["T1"], []) == ["T1"]
        assert "only as your last trump" in play_onto(name, ["T1", "T5", "H2"], ["T10"]).why_not(0, "T1")
    assert play_onto("rufer", ["T1", "T5", "H2"], ["T10"]).legal(0) == ["T1", "T5"]


@pytest.mark.parametrize("contract", ["trischaken", "piccolo", "bettel"])
def test_whole_negative_games_play_the_pagat_only_as_the_last_trump(contract: str) -> None:
    played_last = 0
    for seed in range(40):
        game = Game(RS, players=4, dealer=0, seed=seed)
        bid(game, contract)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act
            legal = game.legal_actions(seat)
            action = "pass" if "pass" in legal else expand(rng.choice(legal), rng)
            if action == {"play": "T1"}:
                others = [c for c in game.hands[seat] if c.startswith("T") and c != "T1"]
                assert not others, f"seed {seed}: the Pagat played beside {others}"
                played_last += len(game.hands[seat]) == 1
            game.apply(seat, action)
        assert game.result is not None and sum(game.result.payments) == 0
    assert played_last > 0  # some Pagat was the very last card of its hand


def test_the_emperor_trick_is_an_option() -> None:
    # Trick 1: seat 1 leads the Pagat, seat 2 the Sküs, seat 3 T8, seat 0 the Mond.
    for choice, winner in (("off", 2), ("on", 1)):
        rs = load_ruleset("koenigrufen", {"emperor_trick": choice})
        game = rufer_announcing(ruleset=rs)
        passes_until_play(game)
        for seat, card in ((1, "T1"), (2, "T22"), (3, "T8"), (0, "T21")):
            game.apply(seat, {"play": card})
        assert game.tricks[0].winner == winner and game.to_act == winner
        play_out(game)
        assert game.result is not None
        bonuses = {(b["name"], b["side"]) for b in game.result.bonuses}
        if choice == "on":
            # The declarer's side caught the defenders' Sküs and Mond in one trick.
            assert {("skuesfang", "declarer"), ("mondfang", "declarer")} <= bonuses
        else:
            assert ("mondfang", "defenders") not in bonuses  # seat 0's own side won its Mond
            assert not any(name == "skuesfang" for name, _ in bonuses)


def cards_in(value: Any) -> set[str]:
    """Every card id named anywhere in `value` (a view, an event)."""
    if isinstance(value, str):
        return {value} if value in RS.deck.points else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(k) | cards_in(v) for k, v in value.items())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


def test_open_hands_are_shown_to_every_seat_exactly_from_the_second_trick() -> None:
    game = new_game()
    bid(game, "piccolo_ouvert")
    passes_until_play(game)
    sent: list[dict[str, Any]] = []
    while len(game.tricks) < 2 or not game.tricks[1].cards:
        # Until a card is led to the second trick, no seat sees a card of another's hand.
        for seat in range(4):
            view = game.view(seat)
            assert "open_hands" not in view
            hidden = {c for s in range(4) if s != seat for c in game.hands[s]}
            assert not cards_in(view) & hidden
        assert not cards_in(sent) & {c for s in range(4) for c in game.hands[s]}
        seat = game.to_act
        events = game.apply(seat, game.legal_actions(seat)[0])
        sent += events
    # The card just led to trick 2 laid every hand open: the events say so, every view shows them.
    assert sorted(e["seat"] for e in events if e["type"] == "open_hand") == [0, 1, 2, 3]
    assert not [e for e in sent[: -len(events)] if e["type"] == "open_hand"]
    for seat in range(4):
        open_hands = game.view(seat)["open_hands"]
        assert {s: set(h) for s, h in open_hands.items()} == {s: set(game.hands[s]) for s in range(4)}
    play_out(game)
    assert game.result is not None and sum(game.result.payments) == 0


# -- calling a King -----------------------------------------------------------------------------


def assert_alone(game: Game, factor: int) -> None:
    """The declarer (seat 1) played alone, 1 v 3: the game (`factor`, won or lost) and each
    bonus per opponent, each of the three paying or receiving it, the declarer three times."""
    result = game.result
    assert result is not None and result.partner is None
    per = factor * (1 if result.declarer_won else -1)
    per += sum(b["value"] if b["side"] == "declarer" else -b["value"] for b in result.bonuses)
    assert result.payments == [-per, 3 * per, -per, -per]


def test_four_kings_must_call_an_own_king_and_play_alone() -> None:
    deal = swapped(DEAL, ("SK", "C8"), ("HK", "S8"), ("DK", "H4"), ("CK", "D4"))
    game = new_game(deal)
    bid(game, "rufer")
    assert sorted(a["call_card"] for a in game.legal_actions(1)) == ["CK", "DK", "HK", "SK"]
    with pytest.raises(IllegalActionError):
        game.apply(1, {"choose": "fourth_king"})
    game.apply(1, {"call_card": "SK"})
    game.apply(1, {"choose": "first"})
    game.apply(1, {"discard": ["H3", "D3", "DJ"]})
    # Nobody but the declarer knows she is alone.
    assert game.view(1)["partner"] is None
    assert all("partner" not in game.view(s) for s in (0, 2, 3))
    play_out(game)
    assert_alone(game, factor=1)


def test_the_fourth_king_with_three_and_not_with_two() -> None:
    three = new_game(swapped(DEAL, ("SK", "C8"), ("HK", "S8"), ("DK", "H4")))
    bid(three, "rufer")
    legal = three.legal_actions(1)
    assert {"choose": "fourth_king"} in legal and {"call_card": "SK"} in legal  # an own King too
    events = three.apply(1, {"choose": "fourth_king"})
    (called,) = [e for e in events if e["type"] == "call_partner"]
    assert "card" not in called  # the unnamed call names no card
    assert three.view(1)["called"] == "CK" and three.view(3)["called"] == "CK"
    assert "called" not in three.view(0) and "called" not in three.view(2)
    two = new_game(swapped(DEAL, ("SK", "C8"), ("HK", "S8")))
    bid(two, "rufer")
    assert {"choose": "fourth_king"} not in two.legal_actions(1)
    with pytest.raises(IllegalActionError):
        two.apply(1, {"choose": "fourth_king"})


@pytest.mark.parametrize("part", ["first", "second"])
def test_a_called_king_in_the_talon_means_playing_alone_and_everybody_sees_it(part: str) -> None:
    game = new_game(swapped(DEAL, ("CK", "DN")))  # CK in the second half
    bid(game, "rufer")
    game.apply(1, {"call_card": "CK"})
    game.apply(1, {"choose": part})
    discard = game.legal_actions(1)[0]
    game.apply(1, expand(discard, random.Random(0)))
    # The talon was laid out: every seat knows the declarer plays alone.
    assert all(game.view(s)["partner"] is None for s in range(4))
    play_out(game)
    assert_alone(game, factor=1)


def test_a_solo_with_the_called_king_in_the_talon_alone_and_unseen() -> None:
    game = new_game(swapped(DEAL, ("CK", "DN")))
    bid(game, "solo")
    game.apply(1, {"call_card": "CK"})
    # The Solo's talon stays face down: nobody learns the declarer is alone, not even she.
    assert all("partner" not in game.view(s) for s in range(4))
    play_out(game)
    assert_alone(game, factor=2)


# -- the partner's secret, as each seat receives the game ------------------------------------


class Table:
    """A game played through the protocol with a token for each seat: what each seat is sent."""

    def __init__(self, deal: dict[str, Any], players: int):
        self.session = Session()
        opened = self.session.handle(
            {"op": "new", "ruleset": "koenigrufen", "players": players, "dealer": 0, "deal": deal, "tokens": True}
        )
        assert opened["ok"], opened
        self.id, self.tokens, self.umpire = opened["game"], opened["tokens"], opened["umpire"]

    def ask(self, op: str, token: str, **fields: Any) -> dict[str, Any]:
        answer = self.session.handle({"op": op, "game": self.id, "token": token, **fields})
        assert answer["ok"], answer
        return answer

    def act(self, seat: int, action: Any) -> None:
        self.ask("act", self.tokens[seat], action=action)

    def received(self, seat: int) -> tuple[Any, ...]:
        token = self.tokens[seat]
        return (
            self.ask("view", token)["view"],
            self.ask("legal", token)["actions"],
            self.ask("events", token)["events"],
        )

    def umpire_view(self) -> dict[str, Any]:
        return self.ask("view", self.umpire, seat="all")["view"]


def _next_action(legal: list[Any], avoid: set[str]) -> Any:
    """A fixed choice that keeps both deals alike: a pass where one may (no kontra, no
    announcement), else the first legal card other than those in `avoid`; None if there is none."""
    if "pass" in legal:
        return "pass"
    return next((a for a in legal if isinstance(a, dict) and a.get("play") not in avoid), None)


@pytest.mark.parametrize("players", [4, 5])
@pytest.mark.parametrize("pair", [(2, 3), (0, 3), (0, 2)])
def test_every_seat_receives_the_same_game_whoever_of_two_others_is_the_partner(
    players: int, pair: tuple[int, int]
) -> None:
    """Seat 1 calls CK. In one deal seat pair[0] holds CQ and pair[1] CK; in the other they
    hold them the other way round. Until one of the two cards is played, every other seat (the
    declarer among them, and the dealer sitting out) is sent exactly the same views, legal
    actions and events in both: nothing it receives tells it who the partner is."""
    hands = DEAL["hands"]
    # In DEAL seat 0 holds CQ and seat 3 CK; give CQ to pair[0] and CK to pair[1].
    base = swapped(DEAL, ("CQ", hands[pair[0]][-1]))
    base = swapped(base, ("CK", base["hands"][pair[1]][-1]))
    other = swapped(base, ("CQ", "CK"))
    last = 0
    if players == 5:
        # The dealer (seat 0) sits out; seat 4 plays the hand seat 0 had at four.
        base, other = ({"hands": [[], *d["hands"][1:], d["hands"][0]], "talon": d["talon"]} for d in (base, other))
        pair = (4 if pair[0] == 0 else pair[0], pair[1])
        last = 4
    tables = [Table(base, players), Table(other, players)]
    script: list[tuple[int, Any]] = [(1, "mein_spiel"), (2, "pass"), (3, "pass"), (last, "pass"), (1, "rufer")]
    script += [(1, {"call_card": "CK"}), (1, {"choose": "first"}), (1, {"discard": ["H3", "D3", "DJ"]})]
    observers = [s for s in range(players) if s not in pair]
    played = 0
    while True:
        for seat in observers:
            seen = [table.received(seat) for table in tables]
            assert seen[0] == seen[1], f"seat {seat} can tell the deals apart after {played} actions"
            assert "partner" not in seen[0][0]
        if script:
            seat, action = script.pop(0)
        else:
            seat = tables[0].umpire_view()["to_act"]
            action = _next_action(tables[0].received(seat)[1], {"CK", "CQ"})
            if action is None:
                break  # CK or CQ must be played now: the secret ends here
        for table in tables:
            table.act(seat, action)
        played += 1
    assert played > 30, played  # well into the play


# -- five at the table --------------------------------------------------------------------------


def test_five_at_the_table_the_dealer_sits_out() -> None:
    for seed in range(10):
        dealer = seed % 5
        game = Game(RS, players=5, dealer=dealer, seed=seed)
        assert game.seats_out == (dealer,)
        assert game.hands[dealer] == [] and dealer not in game.seats
        assert game.vorhand == (dealer + 1) % 5
        rng = random.Random(seed)
        while not game.is_over:
            assert game.to_act != dealer
            assert game.legal_actions(dealer) == []
            with pytest.raises(IllegalActionError, match="sits out"):
                game.apply(dealer, "pass")
            seat = game.to_act
            legal = game.legal_actions(seat)
            game.apply(seat, "pass" if "pass" in legal and game.calls else expand(rng.choice(legal), rng))
        assert game.result is not None
        assert game.result.payments[dealer] == 0 and sum(game.result.payments) == 0
        assert "hand" in game.view(dealer) and game.view(dealer)["hand"] == []


def test_the_log_names_the_declarers_side_when_a_partner_plays() -> None:
    """With a called partner the log speaks of two sides: no "lone player", the partner on the
    declarer's side in the game's line, and the game and the bonus add up to the payments."""
    from interpreter.engine.records import replay
    from interpreter.frontends.log import render_log

    game = replay(Path(__file__).parent / "records" / "koenigrufen-rufer-pagat-kontra.yaml").game
    log = render_log(game)
    assert "lone player" not in log
    assert "Result: seat 1 (the declarer) and seat 3 (the partner) lose Rufer." in log
    assert "card points: declarer's side 19, opponents 51" in log
    assert "Game: the declarer's side seat 1 -1, seat 3 -1; the opponents seat 0 +1, seat 2 +1." in log
    assert "Bonus: Pagat ultimo for the declarer's side (announced, made): seat 0 -4, seat 1 +4" in log
    # The record's payments, counted by hand: the lost game 1 each way, the Pagat 4 each way.
    assert game.result is not None and game.result.payments == [-3, 3, -3, 3]


def test_the_log_of_a_lone_declarer_is_unchanged_by_partnerships() -> None:
    from interpreter.engine.records import replay
    from interpreter.frontends.log import render_log

    log = render_log(replay(Path(__file__).parent / "records" / "koenigrufen-dreier.yaml").game)
    assert "Result: seat 1, the lone player, loses Dreier." in log
    assert "Game: seat 1 pays each opponent 4 (-12 in all)." in log
