"""Sides from a called card: the partner stays secret in every view until the card is seen or
the partner speaks; whole deals of Königrufen with 4 and 5 at the table keep the cards and the
money whole."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import expand


def _play(rs, players: int, seed: int, check) -> Game:
    rng = random.Random(seed)
    game = Game(rs, players=players, seed=seed)
    while not game.is_over:
        check(game)
        seat = game.to_act
        legal = game.legal_actions(seat)
        if game.phase.value == "auction" and game.calls and "pass" in legal and rng.random() < 0.8:
            action = "pass"
        elif game.phase.value == "auction" and "mein_spiel" in legal:
            action = "mein_spiel"
        elif game.phase.value == "announce" and "pass" in legal and rng.random() < 0.7:
            action = "pass"
        else:
            action = expand(rng.choice(legal), rng)
        game.apply(seat, action)
    check(game)
    return game


def _partner_secret(game: Game) -> None:
    """No seat but the umpire learns the partner before it may know it for certain."""
    card = game.called_card
    for seat in game.seats:
        view = game.view(seat)
        if "partner" not in view or game.is_over:
            continue
        knows = (
            game.partner_public
            or (card is not None and card in game.initial_hands[seat] and card in game.hands[seat])
            or seat == game.partner
        )
        assert knows, f"seat {seat} sees the partner {view['partner']} before it can know it"
    for event in game.events:
        if event["type"] == "call_partner":
            assert set(event) <= {"type", "seat", "card", "choice"}, event


@pytest.mark.parametrize("players", [4, 5])
def test_whole_deals_keep_the_partner_secret_and_the_money_whole(players: int) -> None:
    rs = load_ruleset("koenigrufen")
    contracts: Counter[str] = Counter()
    for seed in range(120):
        game = _play(rs, players, seed, _partner_secret)
        assert game.result is not None
        assert sum(game.result.payments) == 0
        dealt = [c for h in game.initial_hands for c in h] + game.initial_talon
        assert Counter(dealt) == Counter(rs.pack(4))
        for seat in game.seats_out:
            assert game.result.payments[seat] == 0
        contracts[game.result.contract or "thrown in"] += 1
    assert contracts["rufer"] + contracts["solo"] + contracts["besserrufer"] > 0


def test_a_partner_found_by_a_called_trump(tmp_path) -> None:
    """The same words, parametrised otherwise: the declarer calls the XX (a trump), as in
    Hungarian Tarokk; its holder is the partner and the side shares a 2 v 2 payment."""
    file = tmp_path / "xx.yaml"
    file.write_text(
        "title: Called XX\nextends: koenigrufen\n"
        "contracts:\n  rufer:\n    exchange:\n"
        '      - call_partner: {from: "{T20}"}\n'
        "      - take_talon: {parts: 2, shown: true}\n"
        "      - discard:\n          count: talon\n"
        '          forbid: {when: "card in kings or card in trull or card in trumps", reason: no trumps}\n'
        "readings:\n  discard: null\n",  # the reading of Königrufen's own discard does not arise
        encoding="utf-8",
    )
    rs = load_ruleset(str(file))
    for seed in range(200):
        game = Game(rs, players=4, dealer=0, seed=seed)
        if "T20" in game.hands[1]:
            continue
        game.apply(1, "mein_spiel")
        for seat in (2, 3, 0):
            game.apply(seat, "pass")
        game.apply(1, "rufer")
        assert game.legal_actions(1) == [{"call_card": "T20"}]
        game.apply(1, {"call_card": "T20"})
        holder = next(s for s in game.seats if "T20" in game.hands[s])
        game.apply(1, {"choose": "first"})
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act
            game.apply(seat, expand(rng.choice(game.legal_actions(seat)), rng))
        assert game.result is not None and game.result.partner == holder
        team = {1, holder}
        money = game.result.payments
        assert {money[s] for s in team} == {money[1]} and sum(money) == 0
        assert all(money[s] == -money[1] for s in game.seats if s not in team)
        return
    pytest.fail("no deal found")
