"""Sessions: the deal passes on, scores add up, and the session ends by the ruleset's rule."""

import pytest

from interpreter import IllegalActionError
from interpreter.bots.randombot import play_out
from interpreter.engine.session import Session


def play_deal(session: Session) -> None:
    game = session.next_deal()
    play_out(game, seed=len(session.deals), pass_probability=0.5)
    session.finish_deal()


def test_the_deal_passes_on_and_scores_add_up() -> None:
    session = Session("cego", players=4, seed=1)
    for _ in range(6):
        play_deal(session)
    assert [g.dealer for g in session.deals] == [0, 1, 2, 3, 0, 1]
    assert session.scores == [sum(g.result.payments[s] for g in session.deals) for s in range(4)]
    assert sum(session.scores) == 0 and not session.over


def test_der_gstiess_gibt_ab() -> None:
    session = Session("cego", players=4, seed=7)
    play_deal(session)
    session.request_end(seat=2)
    play_deal(session)  # the deal after the request
    while session.last_dealer is None:  # the Gstieß lay in the Cego: look again
        assert all("T22" not in h for h in session.deals[-1].initial_hands)
        play_deal(session)
    holder = next(s for s in range(4) if "T22" in session.deals[-1].initial_hands[s])
    assert session.last_dealer == holder
    while not session.over:
        play_deal(session)
    assert session.deals[-1].dealer == holder
    with pytest.raises(IllegalActionError, match="session is over"):
        session.next_deal()


def test_a_tournament_session_ends_after_24_deals() -> None:
    session = Session("cego-turnier", players=4, seed=3)
    while not session.over:
        play_deal(session)
    assert len(session.deals) == 24
    with pytest.raises(IllegalActionError, match="not on request"):
        session.request_end(0)


def test_the_pot_is_carried_from_deal_to_deal() -> None:
    from interpreter import load_ruleset

    session = Session(load_ruleset("tapp-wuerttemberg", {"pot": "kept"}), players=3, seed=5)
    pots = []
    for _ in range(12):
        game = session.next_deal()
        play_out(game, seed=len(session.deals), pass_probability=0.3)
        session.finish_deal()
        assert sum(game.result.payments) + game.result.pot == 0
        pots.append(session.pot)
    assert session.pot == sum(g.result.pot for g in session.deals) and session.pot >= 0
    assert sum(session.scores) + session.pot == 0
    # Each deal's dealer antes 2; a won Solo empties the pot.
    for game, before in zip(session.deals, [0] + pots[:-1], strict=False):
        r = game.result
        if r.contract == "solo" and r.declarer_won:
            assert r.pot == 2 - (before + 2)
        if r.outcome == "thrown_in":
            assert r.pot == 2 and r.payments[game.dealer] == -2
