"""The session's pots of their own (`session.pots`, issue 30 item 3): several named pots, antes
at the start and before each deal, pay-outs by formula to the declarer, each defender or one
seat, never below zero, each pot read by its name, what is left kept or shared. What a session
must come to is reckoned here from the rule's words and each deal's own payments; the records
(tests/records/session-tapp-wuerttemberg-two-pots.yaml and -pot.yaml) by tests/sessions_by_hand.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from interpreter import load_ruleset, replay
from interpreter.bots.randombot import play_out
from interpreter.engine.faults import TableError
from interpreter.engine.session import Session
from interpreter.errors import RecordError, RuleError, RulesetError
from interpreter.language.model import Ruleset

HERE = Path(__file__).parent
TWO_POTS = HERE / "rulesets" / "tapp-two-pots.yaml"


def _table(tmp_path: Path, text: str, extends: str = "tapp-wuerttemberg") -> str:
    file = tmp_path / "table.yaml"
    file.write_text(f"title: A table\nextends: {extends}\n{text}", encoding="utf-8")
    return str(file)


def _play(session: Session, pass_probability: float = 0.3) -> None:
    game = session.next_deal()
    play_out(game, seed=len(session.deals), pass_probability=pass_probability)
    session.finish_deal()


def _play_record(ruleset: Ruleset, record: dict[str, Any]) -> Session:
    """The deals of a session record, played as written, in a session of `ruleset`."""
    session = Session(ruleset, players=record["players"])
    for item in record["session"]:
        game = session.next_deal(deal=item["deal"])
        for seat, action in item["actions"]:
            game.apply(seat, action)
        session.finish_deal()
    return session


def test_the_kitty_ignored_gives_another_session(tmp_path: Path) -> None:
    """The record of two pots, played again with a kitty that pays nothing out: it keeps its 9,
    the session does not end after the three deals, and the totals differ by what it paid."""
    record = yaml.safe_load((HERE / "records" / "session-tapp-wuerttemberg-two-pots.yaml").read_text("utf-8"))
    options = record["options"]
    paid = _play_record(load_ruleset(str(TWO_POTS), options), record)
    assert paid.over and paid.pots_left() == {"stock": 1, "kitty": 0}
    unpaid_file = _table(
        tmp_path,
        'session:\n  until: "kitty == 0"\n  pots:\n    stock: {ante: "5", left: shared}\n    kitty: {ante: "3"}\n',
    )
    unpaid = _play_record(load_ruleset(unpaid_file, options), record)
    assert not unpaid.over and unpaid.pots_left() == {"stock": 55, "kitty": 9}
    assert unpaid.scores == paid.scores  # the same deals
    # The kitty paid seat 0 1 + 3 + 1, seat 1 3, seat 2 1; and the stock is shared only at the end.
    assert [p - u for p, u in zip(paid.totals(), unpaid.totals(), strict=True)] == [5 + 18, 3 + 18, 1 + 18]


def test_pots_never_fall_below_zero_and_no_money_is_made_or_lost() -> None:
    """Two hundred sessions of the two pots with random bots: after every deal each pot holds 0
    or more, the seats' totals and the pots add up to nothing, and the session is over exactly
    when the kitty is empty (`until: kitty == 0`, nothing else ends it)."""
    ruleset = load_ruleset(str(TWO_POTS), {"solo_trumps": "hearts", "pot": "kept"})
    ended = 0
    for seed in range(200):
        session = Session(ruleset, players=3, seed=seed)
        while not session.over and len(session.deals) < 12:
            _play(session, pass_probability=0.6)  # throw-ins too, after which the kitty pays the dealer
            held = session.pots.held
            assert min(held.values()) >= 0, (seed, held)
            assert sum(session.totals()) + sum(session.pots_left().values()) == 0, seed
            assert session.over == (held["kitty"] == 0), (seed, held)
        ended += session.over
    assert ended > 20  # a throw-in can leave the kitty even, then games lost empty it


def test_a_pot_pays_one_seat_and_each_deal_antes(tmp_path: Path) -> None:
    """Each player pays 1 before every deal; after each deal the pot pays the seat after the
    dealer 2 (seat by formula, whoever declared or not): with three seats it takes in 3 and pays
    out 2, so it grows by 1 a deal, and each seat's share of it is in its total."""
    file = _table(
        tmp_path,
        "session:\n  deals: 6\n  pots:\n    box:\n      each_deal: '1'\n"
        "      pays: [{seat: '(dealer + 1) % players', amount: '2'}]\n      left: kept\n",
    )
    session = Session(load_ruleset(file), players=3, seed=3)
    while not session.over:
        _play(session)
        assert session.pots_left() == {"box": len(session.deals)}
    # Each seat paid 1 six times and was the seat after the dealer twice (2 each time).
    assert session.pots.taken == [-6 + 4, -6 + 4, -6 + 4]
    assert session.totals() == [s - 2 for s in session.scores]


def test_a_pot_kept_from_the_last_session_starts_the_next(tmp_path: Path) -> None:
    ruleset = load_ruleset(str(TWO_POTS), {"pot": "kept"})
    session = Session(ruleset, players=3, pots={"stock": 7})
    assert session.pots.held == {"stock": 7 + 15, "kitty": 9}
    with pytest.raises(TableError, match="no pot named 'stok' in this session"):
        Session(ruleset, players=3, pots={"stok": 7})
    with pytest.raises(TableError, match="holds a whole number from 0, not -1"):
        Session(ruleset, players=3, pots={"stock": -1})


@pytest.mark.parametrize(
    ("pots", "said"),
    [
        (
            "    players: {ante: '1'}\n",
            "table.yaml:6:5: session.pots.players: a pot may not be named 'players'",
        ),
        (
            "    box: {pays: [{contracts: [frag], amount: '1'}]}\n",
            "table.yaml:6:30: session.pots.box.pays[0].contracts: no contract named 'frag' in this ruleset; "
            "did you mean 'frage'?",
        ),
        (
            "    box: {pays: [{to: defenders, seat: dealer, amount: '1'}]}\n",
            "session.pots.box.pays[0].to: a pay-out to one seat names it with `seat` alone",
        ),
        (
            "    box: {pays: [{amount: 'declarer_points'}]}\n",
            "session.pots.box.pays[0].amount: unknown name 'declarer_points'",
        ),
        (
            "    box: {pays: [{amount: 'box + kitty'}]}\n",
            "session.pots.box.pays[0].amount: unknown name 'kitty'",
        ),
        (
            "    box: {pays: [{to: everybody, amount: '1'}]}\n",
            "session.pots.box.pays[0].to",
        ),
    ],
)
def test_a_faulty_pot_is_told_where_and_why(tmp_path: Path, pots: str, said: str) -> None:
    file = _table(tmp_path, "session:\n  deals: 2\n  pots:\n" + pots)
    with pytest.raises(RulesetError) as caught:
        load_ruleset(file)
    text = "\n".join(map(str, caught.value.problems))
    assert said in text, text


def test_until_reads_a_pot_by_its_name(tmp_path: Path) -> None:
    file = _table(tmp_path, "session:\n  until: 'box >= 6'\n  pots:\n    box: {dealer: '2'}\n")
    session = Session(load_ruleset(file), players=3, seed=1)
    while not session.over:
        _play(session)
    assert len(session.deals) == 3 and session.pots_left() == {"box": 6}
    with pytest.raises(RulesetError, match=r"session\.until: unknown name 'bx'"):
        load_ruleset(_table(tmp_path, "session:\n  until: 'bx >= 6'\n  pots:\n    box: {dealer: '2'}\n"))


def test_a_round_of_its_own_may_not_choose_an_option_that_sets_the_session(tmp_path: Path) -> None:
    file = _table(tmp_path, "session:\n  special_rounds:\n    last: {options: {pot: kept}}\n")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(file)
    text = "\n".join(map(str, caught.value.problems))
    assert "session.special_rounds.last.options.pot: 'pot: kept' sets the session's rules" in text
    assert "choose it for the whole session (`--option`)" in text


@pytest.mark.parametrize(
    ("pot", "said"),
    [
        ("box: {ante: '0 - 1'}", "an ante into the pot 'box' comes to -1: an ante is 0 or more"),
        ("box: {ante: '1', pays: [{seat: 'players', amount: '1'}]}", "would pay seat 3, who is not at this table"),
    ],
)
def test_a_pot_formula_that_fails_at_the_table_names_itself(tmp_path: Path, pot: str, said: str) -> None:
    file = _table(tmp_path, f"session:\n  deals: 2\n  pots:\n    {pot}\n")
    with pytest.raises(RuleError) as caught:
        session = Session(load_ruleset(file), players=3, seed=1)
        _play(session)
    assert said in str(caught.value) and "table.yaml" in str(caught.value)


def test_a_single_deal_with_the_old_pot_is_pointed_to_the_account(tmp_path: Path) -> None:
    """The Tapp pot was the deal's own (pot_ante, a contract's pot); it is the session's account
    now: a record of one deal that says `pot:` is told how to write it."""
    record = tmp_path / "old.yaml"
    record.write_text(
        "ruleset: tapp-wuerttemberg\noptions: {pot: kept}\nplayers: 3\nseed: 1\nactions: []\npot: 10\n",
        encoding="utf-8",
    )
    with pytest.raises(RecordError) as caught:
        replay(record)
    text = "\n".join(map(str, caught.value.problems))
    assert "old.yaml:6:1: pot: this ruleset's pot is an account of the session (session.pots: stock)" in text
    assert "`pots: {stock: 10}`" in text


def test_simulate_sessions_tells_what_is_left_in_the_pots() -> None:
    """`simulate --sessions` with two pots: the seats' totals include what they paid into the pots
    and took out, so with what is left in the pots at the end they add up to nothing."""
    import json

    from clirun import tarock

    ran = tarock(
        "simulate", str(TWO_POTS), "--option", "pot=kept", "--sessions", "20", "--session-deals", "6", "--json"
    )
    assert ran.returncode == 0, ran.stderr
    stats = json.loads(ran.stdout)
    assert set(stats["pots"]) == {"stock", "kitty"}
    left = sum(p["mean"] for p in stats["pots"].values()) * stats["sessions"]
    assert sum(s["total"] for s in stats["seats"]) + round(left) == 0
    text = tarock("simulate", str(TWO_POTS), "--option", "pot=kept", "--sessions", "3", "--session-deals", "4")
    assert "left in the pots at the end: stock" in text.stdout and "with what the pots took and paid" in text.stdout
