"""The words of the session (issue 30 A): who deals next, the end of a session, rounds of their
own and the score sheet. What each session must come to is reckoned here from the rule's words
(who deals which deal, which round a deal belongs to, how a sheet is settled), whatever the bots
bid; the records of whole sessions (tests/records/session-*.yaml) are put together by
tests/sessions_by_hand.py from deals worked out by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
import sessions_by_hand
import yaml

from interpreter import IllegalActionError, load_ruleset, replay
from interpreter.bots.randombot import play_out
from interpreter.engine.session import Session
from interpreter.errors import RecordError, RulesetError

HERE = Path(__file__).parent


def play_deal(session: Session, request_end: int | None = None, signal: str | None = None) -> None:
    if request_end is not None:
        session.request_end(request_end)
    if signal is not None:
        session.signal(signal)
    game = session.next_deal()
    play_out(game, seed=len(session.deals), pass_probability=0.3)
    session.finish_deal()


@pytest.mark.parametrize("name", list(sessions_by_hand.SESSIONS))
def test_the_session_records_are_as_the_script_reckons_them(name: str) -> None:
    record = HERE / "records" / f"{name}.yaml"
    assert yaml.safe_load(record.read_text(encoding="utf-8")) == sessions_by_hand.SESSIONS[name](), (
        "run python tests/sessions_by_hand.py"
    )
    assert replay(record).ok


def test_a_round_at_a_signal_then_the_choices_after_it() -> None:
    """Cego at the Löwen: at 23:00 a round of compulsory Räuber, one deal by each of the four;
    every deal after it at ten times the stake."""
    session = Session("cego", players=4, seed=11)
    play_deal(session)
    play_deal(session)
    play_deal(session, signal="pflicht_raeuber")  # deal 2 is the round's first
    for _ in range(5):
        play_deal(session)
    assert [g.dealer for g in session.deals] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert session.rounds_of_deals == [None, None, *["pflicht_raeuber"] * 4, None, None]
    contracts = [g.result.contract for g in session.deals if g.result is not None]
    assert contracts[2:6] == ["pflicht_raeuber"] * 4  # nobody bids: a Räuber every deal
    stakes = [g.ruleset.settlement.stake for g in session.deals]
    assert stakes == [1, 1, 1, 1, 1, 1, 10, 10]
    with pytest.raises(IllegalActionError, match="played in this session already"):
        session.signal("pflicht_raeuber")
    with pytest.raises(IllegalActionError, match="no round played at a signal named 'pflicht'"):
        session.signal("pflicht")


@pytest.mark.parametrize("asked_before", [1, 2])
def test_a_request_ends_the_round_under_way_then_the_closing_round(asked_before: int) -> None:
    """Dreierles for three: a player asks to stop; the round under way is finished (sessions end
    after complete rounds) and one more round is played, Räuber or Solo."""
    session = Session("dreierles", players=3, seed=5)
    for number in range(6):
        play_deal(session, request_end=0 if number == asked_before else None)
        assert session.over == (number == 5)
    assert [g.dealer for g in session.deals] == [0, 1, 2, 0, 1, 2]
    assert session.rounds_of_deals == [None, None, None, "last_round", "last_round", "last_round"]
    for game in session.deals[3:]:
        assert game.ruleset.choices["last_round"] == "raeuber_or_solo"
        assert game.result is not None and game.result.contract in ("solo", "raeuber")
    assert all(g.ruleset.choices["last_round"] == "ordinary" for g in session.deals[:3])
    with pytest.raises(IllegalActionError, match="session is over"):
        session.next_deal()


def test_a_request_in_the_last_deal_of_a_round_ends_it_there() -> None:
    session = Session("dreierles", players=3, seed=8)
    play_deal(session)
    play_deal(session)
    play_deal(session, request_end=1)  # the third deal completes the round
    assert session.end_reached and not session.over
    assert session.rounds_of_deals[-1] is None


def _ruleset(tmp_path: Path, session: str, extends: str = "tapp-wuerttemberg") -> Path:
    file = tmp_path / "table.yaml"
    file.write_text(f"title: A table\nextends: {extends}\nsession:\n{session}", encoding="utf-8")
    return file


def test_complete_rounds_count_turns_of_dealing(tmp_path: Path) -> None:
    """Two rounds at three: six turns of dealing, however often a dealer deals again."""
    file = _ruleset(tmp_path, "  rounds: 2\n  dealer_when: [{when: thrown_in, dealer: same}]\n")
    session = Session(load_ruleset(str(file)), players=3, seed=2)
    while not session.over:
        play_deal(session)
    dealers = [g.dealer for g in session.deals]
    turns = [d for i, d in enumerate(dealers) if i == 0 or dealers[i - 1] != d]
    assert turns == [0, 1, 2, 0, 1, 2]
    for before, after in zip(session.deals, session.deals[1:], strict=False):
        thrown_in = before.result is not None and before.result.outcome == "thrown_in"
        assert (after.dealer == before.dealer) == thrown_in


def test_the_seat_after_the_declarer_deals(tmp_path: Path) -> None:
    file = _ruleset(tmp_path, "  dealer: after_declarer\n  deals: 12\n")
    session = Session(load_ruleset(str(file)), players=3, seed=4)
    while not session.over:
        play_deal(session)
    assert len(session.deals) == 12
    for before, after in zip(session.deals, session.deals[1:], strict=False):
        assert before.result is not None
        declarer = before.result.declarer
        assert after.dealer == ((declarer if declarer is not None else before.dealer) + 1) % 3


@pytest.mark.parametrize("settle", ["differences", "per_point"])
def test_a_score_sheet_from_a_start_settled_at_a_stake(tmp_path: Path, settle: str) -> None:
    """Each player's own card points written, from 100; at 2 a point."""
    sheet = f"  deals: 5\n  sheet: {{score: points, start: 100, settle: {settle}, stake: 2}}\n"
    session = Session(load_ruleset(str(_ruleset(tmp_path, sheet))), players=3, seed=9)
    expected = [100, 100, 100]
    while not session.over:
        play_deal(session)
        game = session.deals[-1]
        r = game.result
        assert r is not None
        for seat in range(3):
            if r.points is not None:
                side = "declarer" if seat == r.declarer else "defenders"
                expected[seat] += r.points[side]
        assert session.sheet == expected
    total = sum(expected)
    if settle == "differences":
        assert session.totals() == [2 * (3 * s - total) for s in expected]
        assert sum(session.totals()) == 0
    else:
        assert session.totals() == [2 * (s - 100) for s in expected]


def test_a_session_rule_refused_with_its_place(tmp_path: Path) -> None:
    file = _ruleset(
        tmp_path,
        "  dealer_when: [{when: declarer_points > 3, dealer: same}]\n"
        "  special_rounds:\n    last: {options: {last_rond: raeuber_or_solo}}\n",
        extends="dreierles",
    )
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(file))
    text = "\n".join(map(str, caught.value.problems))
    assert "table.yaml:4:24: session.dealer_when[0].when: unknown name 'declarer_points'" in text
    assert "table.yaml:6:22: session.special_rounds.last.options.last_rond: no reading or option 'last_rond'" in text
    assert "did you mean 'last_round'?" in text


def test_a_session_record_with_a_deal_outside_its_session_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "s.yaml"
    record.write_text(
        "ruleset: tapp-wuerttemberg\nplayers: 3\nseed: 1\nactions: []\nsession:\n- {seed: 1, actions: []}\n",
        encoding="utf-8",
    )
    with pytest.raises(RecordError) as caught:
        replay(record)
    text = "\n".join(map(str, caught.value.problems))
    assert "s.yaml:3:1: seed: a record of a whole session holds each deal's `seed` in that deal" in text
    assert "s.yaml:4:1: actions:" in text


def test_a_signal_the_session_has_no_round_for_fails_at_its_deal(tmp_path: Path) -> None:
    record = tmp_path / "s.yaml"
    record.write_text(
        "ruleset: tapp-wuerttemberg\nplayers: 3\nsession:\n- {seed: 1, actions: [], signal: zehnfach}\n",
        encoding="utf-8",
    )
    report = replay(record)
    assert len(report.failures) == 1
    assert report.failures[0].endswith(
        "s.yaml:4:3: deal 0 cannot start: Württemberg Tarock has no round played at a signal named 'zehnfach'"
    )


# -- the command line follows the session ---------------------------------------------------------


def test_play_deals_follows_the_session_and_its_end() -> None:
    from clirun import tarock

    ran = tarock("play", "tests/rulesets/tapp-session.yaml", "--players", "3", "--deals", "20", "--seed", "3")
    assert ran.returncode == 0, ran.stderr
    scores = [line for line in ran.stdout.splitlines() if line.startswith("Score after")]
    over = [line for line in ran.stdout.splitlines() if line.startswith("The session is over")]
    # One round of three turns of dealing: at least three deals, and the session ends itself.
    assert len(over) == 1 and len(scores) >= 3
    assert over[0].startswith(f"The session is over after {len(scores)} deals")
    assert "Score sheet:" in ran.stdout


def test_play_gives_a_signal_and_refuses_one_the_ruleset_has_not() -> None:
    from clirun import tarock

    ran = tarock("play", "cego", "--deals", "6", "--seed", "2", "--signal", "pflicht_raeuber@2")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.count("Contract: Pflicht-Räuber") == 4  # deals 2 to 5: one by each of the four
    bad = tarock("play", "cego", "--deals", "3", "--signal", "pflicht@2")
    assert bad.returncode == 2
    assert "no round played at a signal named 'pflicht'; it has: pflicht_raeuber" in bad.stderr


def test_simulate_sessions_reports_each_seats_totals() -> None:
    import json

    from clirun import tarock

    # Dreierles for three, a player asking to stop after deal 4: the round under way ends with
    # deal 6, and the closing round adds three: nine deals, three of them Räuber or Solo.
    ran = tarock("simulate", "dreierles", "--sessions", "4", "--session-deals", "4", "--json")
    assert ran.returncode == 0, ran.stderr
    stats = json.loads(ran.stdout)
    assert stats["deals"] == {"total": 36, "min": 9, "max": 9, "mean": 9.0}
    assert stats["rounds_of_their_own"] == {"last_round": 12}
    assert stats["cut_short"] == 0
    assert sum(s["total"] for s in stats["seats"]) == 0  # what the deals paid, between the players
    ran = tarock(
        "simulate",
        "cego",
        "--players",
        "4",
        "--sessions",
        "3",
        "--session-deals",
        "8",
        "--json",
        "--signal",
        "pflicht_raeuber@3",
    )
    stats = json.loads(ran.stdout)
    assert stats["rounds_of_their_own"] == {"pflicht_raeuber": 12}
    refused = tarock("simulate", "dreierles", "--sessions", "2")
    assert refused.returncode == 2 and "give --session-deals N" in refused.stderr


def test_the_guide_shows_the_session_example_as_it_is_and_it_plays() -> None:
    import json
    import re

    from clirun import tarock

    guide = (HERE.parent / "docs" / "encoding-a-variant.md").read_text(encoding="utf-8")
    example = HERE.parent / "docs" / "examples" / "example-session.yaml"
    found = re.search(r"```yaml\n(# A made-up table.*?)```", guide, re.S)
    assert found is not None and found.group(1) == example.read_text(encoding="utf-8")
    ran = tarock("simulate", "docs/examples/example-session.yaml", "--sessions", "2", "--json")
    stats = json.loads(ran.stdout)
    # Four rounds of three deals and the closing round of three, as the guide says.
    assert stats["deals"]["min"] == stats["deals"]["max"] == 15
    assert stats["rounds_of_their_own"] == {"last_round": 6}
    assert stats["sheet"] and sum(s["total"] for s in stats["seats"]) == 0
    assert all(s["total"] % 10 == 0 for s in stats["seats"])  # 10 a point


def test_antes_at_the_start_and_before_each_deal_and_the_pot_shared(tmp_path: Path) -> None:
    """Three players pay 5 each as the session starts and 1 each before each of four deals; the
    deals themselves keep no pot (Württemberg without the option), so the pot holds 15 + 4 × 3 =
    27 at the end, shared 9 each: the totals are the deals' payments."""
    file = _ruleset(tmp_path, '  deals: 4\n  pot: {ante: "5", each_deal: "1", left: shared}\n')
    session = Session(load_ruleset(str(file)), players=3, seed=6)
    while not session.over:
        play_deal(session)
        assert session.pot == 15 + 3 * len(session.deals)
    assert session.pot_share() == 9 and session.pot_left() == 0
    assert session.totals() == session.scores
    # Kept instead: the 27 stay, and each seat is 9 short of its payments.
    kept = Session(load_ruleset(str(_ruleset(tmp_path, '  deals: 4\n  pot: {ante: "5", each_deal: "1"}\n'))), players=3)
    while not kept.over:
        play_deal(kept)
    assert kept.pot_left() == 27 and kept.totals() == [s - 9 for s in kept.scores]


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("session: []", "3:10: session: a record of a session holds at least one deal"),
        (
            "players: 7\nsession: [{seed: 1, actions: []}]",
            "players: tapp-wuerttemberg is played by 3 at the table, not 7",
        ),
        ("session: [{seed: 1, actions: [], request_end: 7}]", "deal 0 cannot start: seat 7 is not at this table"),
        ("session: [{seed: 1, actions: []}]\nexpect: {contract: solo}", "`contract` is said of a deal"),
        ("session: [{seed: 1, actions: [[1, pass]]}, {seed: 2, actions: []}]", "deal 0 is not over"),
    ],
)
def test_a_faulty_session_record_is_told_where(tmp_path: Path, body: str, said: str) -> None:
    record = tmp_path / "s.yaml"
    players = "" if body.startswith("players") else "players: 3\n"
    record.write_text(f"ruleset: tapp-wuerttemberg\n{players}{body}\n", encoding="utf-8")
    try:
        failures = replay(record).failures
    except RecordError as exc:
        failures = [str(p) for p in exc.problems]
    assert any(said in f for f in failures), failures
