"""Cego mechanics at their edges: interrupts, exposed cards, keeping empty cards first."""

import pytest

from interpreter import Game, IllegalActionError, load_ruleset

A, B, C, D = 1, 2, 3, 0  # A is Vorhand; D deals (and plays, with four at the table)


def deal(hands: dict[int, list[str]], talon: list[str]) -> dict:
    rs = load_ruleset("cego")
    used = {c for h in hands.values() for c in h} | set(talon)
    rest = [c for c in rs.deck.cards if c not in used]
    full = []
    for seat in range(4):
        hand = list(hands.get(seat, []))
        while len(hand) < 11:
            hand.append(rest.pop())
        full.append(hand)
    assert not rest
    return {"hands": full, "talon": talon}


def test_an_interrupt_after_ones_own_turn_is_refused_with_the_reason() -> None:
    game = Game("cego", players=4, seed=3)
    for seat, call in [(A, "pass"), (B, "pass"), (C, "pass"), (D, "pass"), (A, "cego"), (B, "pass"), (C, "eine")]:
        game.apply(seat, call)
    assert "piccolo" not in game.legal_actions(B)
    with pytest.raises(IllegalActionError, match="only up to your own turn"):
        game.apply(B, "piccolo")
    assert "piccolo" in game.legal_actions(D)  # D has not spoken yet


def _zwei_leere(keep: list[str], talon: list[str], hand: list[str]) -> Game:
    game = Game("cego", players=4, deal=deal({C: hand}, talon))
    for seat, call in [
        (A, "pass"),
        (B, "pass"),
        (C, "pass"),
        (D, "pass"),
        (A, "cego"),
        (B, "pass"),
        (C, "eine"),
        (A, "pass"),
        (D, "pass"),
    ]:
        game.apply(seat, call)
    return game


def test_exposed_cards_may_not_be_discarded_when_the_cego_has_no_trock() -> None:
    hand = ["H4", "H3", "H2", "C10", "C9", "C8", "S10", "S9", "S8", "D4", "D3"]
    talon = ["CK", "SK", "HK", "DK", "CQ", "SQ", "HQ", "DQ", "C7", "S7"]
    # Vorhand holds Eine Leere and Zwei Leere, so it needs suit cards to keep (two clubs).
    vorhand = ["T22", "T21", "T20", "T19", "T18", "T17", "T16", "T15", "T14", "CJ", "CN"]
    game = Game("cego", players=4, deal=deal({C: hand, A: vorhand}, talon))
    for seat, call in [
        (A, "pass"),
        (B, "pass"),
        (C, "pass"),
        (D, "pass"),
        (A, "cego"),
        (B, "pass"),
        (C, "eine"),
        (A, "selbst"),
        (C, "eine_leere"),
        (A, "selbst"),
        (C, "zwei_leere"),
        (A, "pass"),
        (D, "pass"),
    ]:
        game.apply(seat, call)
    assert game.contract.name == "zwei_leere" and game.declarer == C
    game.apply(C, {"keep": ["H4", "H3"]})
    # No Trock in the Cego: the bidder discards one card of choice, never an exposed one.
    assert all("H4" not in a["discard"] and "H3" not in a["discard"] for a in game.legal_actions())
    before = game.view("all")
    with pytest.raises(IllegalActionError, match="laid face up"):
        game.apply(C, {"discard": ["H4"]})
    assert game.view("all") == before


def test_empty_cards_are_kept_before_picture_cards() -> None:
    # One empty card (H4) and no other: Zwei Verschiedene keeps H4 and one picture card.
    hand = ["H4", "CK", "CQ", "SK", "SQ", "DK", "T13", "T12", "T11", "T10", "T9"]
    game = Game("cego", players=4, deal=deal({C: hand}, ["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T14", "T15"]))
    for seat, call in [
        (A, "pass"),
        (B, "pass"),
        (C, "pass"),
        (D, "pass"),
        (A, "cego"),
        (B, "pass"),
        (C, "eine"),
        (A, "selbst"),
        (C, "eine_leere"),
        (A, "selbst"),
        (C, "zwei_leere"),
        (A, "selbst"),
        (C, "zwei_verschiedene"),
        (A, "pass"),
        (D, "pass"),
    ]:
        game.apply(seat, call)
    assert game.contract.name == "zwei_verschiedene"
    keeps = [sorted(a["keep"]) for a in game.legal_actions()]
    assert keeps and all("H4" in k for k in keeps)
    with pytest.raises(IllegalActionError):
        game.apply(C, {"keep": ["CK", "SK"]})


def test_a_revoke_is_refused_or_penalised_as_the_table_agrees() -> None:
    from interpreter import load_ruleset

    for options in ({}, {"rule_breaches": "penalize"}):
        game = Game(load_ruleset("cego", options), players=4, seed=11)
        for seat, call in [(A, "solo"), (B, "pass"), (C, "pass"), (D, "pass")]:
            game.apply(seat, call)
        game.apply(game.to_act, game.legal_actions()[0])
        seat = game.to_act
        revoke = next(c for c in game.hands[seat] if {"play": c} not in game.legal_actions())
        if not options:
            with pytest.raises(IllegalActionError, match="must"):
                game.apply(seat, {"play": revoke})
        else:
            game.apply(seat, {"play": revoke})
            assert game.result.outcome == "abandoned" and "70" in game.result.reason
            assert game.result.payments[seat] == -210 and sum(game.result.payments) == 0


def test_a_misdeal_in_a_recorded_game_costs_the_dealer_70_each() -> None:
    from interpreter import load_ruleset
    from interpreter.errors import RecordError

    rs = load_ruleset("cego")
    cards = list(rs.deck.cards)
    # Seat 1 got 12 cards and seat 2 only 10: a misdeal.
    misdealt = {"hands": [cards[10:21], cards[21:33], cards[33:43], cards[43:54]], "talon": cards[:10]}
    with pytest.raises(RecordError, match="must be dealt 11 cards"):
        Game(rs, players=4, dealer=0, deal=misdealt)
    game = Game(load_ruleset("cego", {"rule_breaches": "penalize"}), players=4, dealer=0, deal=misdealt)
    assert game.is_over and game.result.outcome == "abandoned" and "misdeal" in game.result.reason
    assert game.result.payments == [-210, 70, 70, 70]


def _replay(name: str, upto: int) -> Game:
    """The game of a record in tests/records after its first `upto` actions."""
    from pathlib import Path

    import yaml

    data = yaml.safe_load((Path(__file__).parent / "records" / f"{name}.yaml").read_text(encoding="utf-8"))
    game = Game(load_ruleset(data["ruleset"], data.get("options") or {}), players=data["players"], deal=data["deal"])
    for seat, action in data["actions"][:upto]:
        game.apply(seat, action)
    return game


def test_the_bidder_sees_the_legage_until_the_end_of_the_first_trick_also_with_a_card_exposed() -> None:
    # cego-en, The Play: "the bidder is allowed to look at the discarded cards (the Legage) at
    # any time until the end of the first trick, but not thereafter".
    discards = ["T15", "T14", "T13", "T12", "T11", "T10", "T9", "CJ", "C9", "C7"]
    game = _replay("cego-eine-leere-other-card-led", 12)  # seat 2 has kept C8 face up
    assert game.exposed == ["C8"]
    bidder = game.view(2)
    assert sorted(bidder["aside"]) == sorted(discards) and bidder["exposed"] == ["C8"]
    assert all("aside" not in game.view(seat) for seat in (0, 1, 3))
    game = _replay("cego-eine-leere-other-card-led", 15)  # trick 1 not yet complete
    assert sorted(game.view(2)["aside"]) == sorted(discards)
    game = _replay("cego-eine-leere-other-card-led", 16)  # trick 1 complete
    assert "aside" not in game.view(2)


def test_with_the_ministranten_the_bidder_sees_the_legage_until_the_end_of_the_third_trick() -> None:
    # cego-en, Ministranten Version, The Play: "until the end of the third trick".
    talon = ["T22", "T21", "T20", "T19", "T18", "T17", "T16", "T15", "CK", "SK"]
    game = Game(
        load_ruleset("cego-ministranten"), players=4, deal=deal({C: ["H4", "H3", "C10", "C9"], D: ["D4"]}, talon)
    )
    calls = [(A, "pass"), (B, "pass"), (C, "pass"), (D, "pass"), (A, "cego"), (B, "pass"), (C, "eine")]
    calls += [(D, "eine_leere"), (A, "pass"), (C, "zwei_leere"), (D, "pass")]
    for seat, call in calls:
        game.apply(seat, call)
    assert game.contract.name == "zwei_leere" and game.declarer == C
    game.apply(C, {"keep": ["H4", "H3"]})
    finished = 0
    while finished < 4:
        visible = "aside" in game.view(C)
        assert visible == (finished < 3), finished
        seat = game.to_act
        game.apply(seat, game.legal_actions()[0])
        finished = sum(1 for t in game.tricks if t.winner is not None)


@pytest.mark.parametrize(
    "option, contracts",
    [
        ({"leere_substitutes": "substitutes"}, ["eine_leere", "zwei_leere", "zwei_verschiedene"]),
        ({"leere_lead": "lead_first"}, ["eine_leere", "zwei_leere", "zwei_verschiedene"]),
    ],
)
def test_the_schmidt_leaflets_variations_change_all_three_leere_games(option: dict, contracts: list) -> None:
    plain, varied = load_ruleset("cego-schmidt", {}, 4), load_ruleset("cego-schmidt", option, 4)
    for name in contracts:
        before, after = plain.contracts[name], varied.contracts[name]
        if "leere_substitutes" in option:
            keep = after.exchange[0]
            assert "CJ" in keep.allowed and "CJ" not in before.exchange[0].allowed, name
            assert keep.prefer is not None and "C7" in keep.prefer, name
            assert len(after.exchange) == len(before.exchange), name  # the forced discard stays
        else:
            assert before.opening_leads is None and after.opening_leads is not None, name
            assert not after.opening_leads.replace_same_suit, name
            assert after.opening_leads.together == (name != "eine_leere"), name


@pytest.mark.parametrize("name", ["cego", "cego-oberwolfach", "cego-ichenheim", "cego-ministranten", "cego-schmidt"])
def test_a_bid_is_open_exactly_when_its_keep_would_be(name: str) -> None:
    """The bid's derived requirement agrees with the exchange's own list of legal keeps."""
    import random

    from interpreter.engine.exchange import Exchange
    from interpreter.engine.table import Cards, Table
    from interpreter.language.model import Keep

    rs = load_ruleset(name, {}, 3)
    rng = random.Random(name)
    cards = list(rs.deck.cards)
    for contract in rs.contracts.values():
        if not contract.exchange or not isinstance(contract.exchange[0], Keep):
            continue
        step = contract.exchange[0]
        exchange = Exchange(
            rs, contract, 0, [0, 1, 2], Table(Cards({0: []}, []), [], []), [], may_accuse=False, trump_suit=None
        )
        trumps, suits = [c for c in cards if c[0] == "T"], [c for c in cards if c[0] != "T"]
        for _ in range(300):
            # Mostly Trocke, so that hands without the cards a game needs come up often.
            few = rng.randint(0, 4)
            hand = rng.sample(trumps, 13 - few) + rng.sample(suits, few)
            assert step.possible(hand, rs.deck.suit) == bool(exchange.keep_choices(step, hand)), (contract.name, hand)
