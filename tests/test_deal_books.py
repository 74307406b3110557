"""The book of play rules bound to a deal (engine/plan.py `deal_rules`) is made once per plan and
what binds it: every deal bound alike shares one book, and no deal is given a book that keeps
back cards for bonuses it did not announce."""

from __future__ import annotations

import dataclasses
import random

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine import plan as plans
from interpreter.engine.announcing import AnnouncementRound
from interpreter.engine.plan import deal_rules, play_plan
from interpreter.engine.playrules import KeepBack, RuleBook
from interpreter.language.model import CALLED


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
    deals = kept = 0
    for seed in range(150):
        game = _played("koenigrufen", 4, seed)
        play = game.trickplay
        if play is None or game.contract is None:
            continue
        deals += 1
        book = play.book
        # The book is the deal's own: the cards it keeps back for bonuses are those of bonuses
        # announced in this deal ...
        announced = game.announcement.announced if isinstance(game.announcement, AnnouncementRound) else {}
        bonuses = [game.ruleset.bonuses[name] for name in announced]
        cards = {game.called_card if bonus.card == CALLED else bonus.card for bonus in bonuses}
        for rule in book.rules:
            if isinstance(rule, KeepBack):
                for card, said in rule.kept.items():
                    if said == "was announced for":
                        assert card in cards, f"seed {seed}: {card} kept back for no bonus announced"
                        kept += 1
        # ... and every deal of the same plan (contract and trumps) whose rules are the same
        # shares one book (made once).
        key = (game.contract.name, game.trump_suit, repr(book.rules))
        assert books.setdefault(key, book) is book, f"seed {seed}: deals bound alike, two books"
    assert 1 < len(books) < deals, "the deals should bind rules in several ways, some of them alike"
    assert kept > 10, "deals with cards kept back for announced bonuses should be among them"


def test_the_books_kept_stay_bounded_and_a_book_not_kept_is_made_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plan keeps at most `DEAL_BOOKS_KEPT` books bound to deals (a server playing for years);
    past that, a deal bound otherwise is given a book made for it, of the same rules."""
    rs = load_ruleset("koenigrufen")
    plan = dataclasses.replace(play_plan(rs, rs.contracts["rufer"], None), deal_books={})  # (none kept yet)
    bindings = [({}, {}, king, frozenset()) for king in ("CK", "SK", "HK", "DK")]
    monkeypatch.setattr(plans, "DEAL_BOOKS_KEPT", 2)
    books = [deal_rules(plan, *binding) for binding in bindings]
    assert len(plan.deal_books) == plans.DEAL_BOOKS_KEPT  # two more kept, then no more
    again = [deal_rules(plan, *binding) for binding in bindings]
    assert [a is b for a, b in zip(books, again, strict=True)] == [True, True, False, False]  # the kept ones shared
    assert [a.rules for a in again] == [b.rules for b in books]  # the others made alike
