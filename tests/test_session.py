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
    """Württemberg Tarock's pot is the session's account `stock`: each deal's dealer antes 2; a
    lost Frage pays it what the declarer pays each defender; a won Solo empties it, a lost one
    doubles it; a drawn game leaves it. Worked out deal by deal from each deal's own payments,
    over 40 deals: the pot never falls below zero and no money is made or lost."""
    from interpreter import load_ruleset

    session = Session(load_ruleset("tapp-wuerttemberg", {"pot": "kept"}), players=3, seed=5)
    pot, taken = 0, [0, 0, 0]
    kinds = set()
    for _ in range(40):
        game = session.next_deal()
        play_out(game, seed=len(session.deals), pass_probability=0.3)
        session.finish_deal()
        r = game.result
        assert r.pot == 0 and sum(r.payments) == 0  # the deal itself keeps no pot
        taken[game.dealer] -= 2
        pot += 2
        if r.declarer is not None:
            paid = r.payments[r.declarer]
            if r.contract == "frage" and paid < 0:
                taken[r.declarer] += paid // 2
                pot -= paid // 2
                kinds.add("frage lost")
            elif r.contract == "solo" and paid > 0:
                taken[r.declarer] += pot
                pot = 0
                kinds.add("solo won")
            elif r.contract == "solo" and paid < 0:
                taken[r.declarer] -= pot
                pot *= 2
                kinds.add("solo lost")
        else:
            kinds.add("thrown in")
        assert session.pots_left() == {"stock": pot} and pot >= 0
        assert session.totals() == [s + t for s, t in zip(session.scores, taken, strict=True)]
        assert sum(session.totals()) + pot == 0
    assert kinds >= {"frage lost", "solo won", "solo lost"}, kinds
