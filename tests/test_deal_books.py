"""The book of play rules bound to a deal (engine/plan.py `deal_rules`) is made once per plan and
what binds it: every deal bound alike shares one book, and no deal is given a book made for
other kept cards, forfeits, another called card or other laid cards."""

from __future__ import annotations

import random

from interpreter import Game, load_ruleset
from interpreter.engine.playrules import RevealPartner, RuleBook


def _played(ruleset_name: str, players: int, seed: int) -> Game:
    """A deal played by uniform random choices, as the benchmark plays it."""
    game = Game(load_ruleset(ruleset_name), players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        action = rng.choice(game.legal_actions(seat))
        if isinstance(action, dict):
            for kind in ("discard", "keep"):
                template = action.get(kind)
                if isinstance(template, dict):
                    action = {kind: rng.sample(template["from"], template["count"])}
        game.apply(seat, action)
    return game


def test_deals_bound_alike_share_a_book_and_others_do_not() -> None:
    books: dict[tuple[str, str | None, str], RuleBook] = {}  # (contract, trumps, its rules written out) -> the book
    deals = partnered = 0
    for seed in range(150):
        game = _played("koenigrufen", 4, seed)
        play = game.trickplay
        if play is None:
            continue
        deals += 1
        book = play.book
        # The book is the deal's own: it reveals the card this deal called, when its holder is
        # the declarer's partner (still to be seen) ...
        called = [r.card for r in book.rules if isinstance(r, RevealPartner)]
        if game.called_card is not None and game.partner is not None:
            assert called == [game.called_card], f"seed {seed}"
            partnered += 1
        # ... and every deal of the same plan (contract and trumps) whose rules are the same
        # shares one book (made once).
        assert game.contract is not None
        key = (game.contract.name, game.trump_suit, repr(book.rules))
        assert books.setdefault(key, book) is book, f"seed {seed}: deals bound alike, two books"
    assert 1 < len(books) < deals, "the deals should bind rules in several ways, some of them alike"
    assert partnered > 10, "deals with a partner by the called card should be among them"
