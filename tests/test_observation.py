"""Games observed at a table: records with the hands unknown or known in part, replayed with
every check the known facts allow; `tarock observe` writing one as it is played; `tarock check`
counting which rules a folder of games broke."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from clirun import ROOT, tarock

from interpreter.engine.observation import ObservedGame
from interpreter.engine.records import parse_record, replay, replay_observed
from interpreter.frontends.observe import Scribe
from interpreter.language.loader import load_ruleset

RECORD = ROOT / "tests" / "records" / "furtwangen-observed-revoke.yaml"
REVOKE_AT = 14  # seat 2's CJ on T22 in trick 1, holding T12 (played in trick 2, action 20)


def _data() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(RECORD.read_text(encoding="utf-8"))
    return data


def _replay(data: dict[str, Any]) -> Any:
    return replay_observed(parse_record(yaml.safe_dump(data), "observed.yaml"))


def test_the_observed_furtwangen_game_replays_and_its_revoke_is_found() -> None:
    report = replay(RECORD)
    assert report.ok, report.failures
    found = report.observation
    assert found is not None
    [departure] = found.departures
    assert (departure.at, departure.seat, departure.rule, departure.certain, departure.noted) == (
        REVOKE_AT,
        2,
        "play.follow_suit",
        True,
        True,
    )
    assert "held T12, which it played later (action 20)" in departure.reason
    # The hands nobody saw are the cards each seat played; the Dapp the twelve nobody saw.
    assert sorted(found.deal["hands"][2]) == sorted(["CJ", "T11", "T12", "T13", "T14", "T15", "T16"])
    assert sorted(found.deal["talon"]) == sorted(
        ["T10", "C7", "T17", "T9", "T8", "T7", "T6", "T5", "T4", "T2", "S7", "H4"]
    )
    assert found.discards_filled_in == [1]


def test_a_revoke_not_noted_fails_the_replay_at_its_place() -> None:
    data = _data()
    del data["departures"]
    report = _replay(data)
    assert not report.ok
    assert report.failures[0].startswith("observed.yaml:")
    assert f"action {REVOKE_AT}" in report.failures[0] and "a revoke" in report.failures[0]


def test_a_departure_noted_that_the_facts_do_not_show_fails() -> None:
    data = _data()
    data["departures"].append({"at": 13, "rule": "play.follow_suit"})
    report = _replay(data)
    assert any("action 13 is noted as a departure, but the ruleset allows it" in f for f in report.failures)


def test_a_game_observed_in_part_proves_only_what_it_can() -> None:
    data = _data()
    # Cut after trick 1: seat 2's CJ is suspicious (trumps were led), but nothing shows it held one.
    data["actions"] = data["actions"][:19]
    del data["departures"], data["expect"]
    report = _replay(data)
    found = report.observation
    assert found is not None
    assert not [d for d in found.departures if d.certain]
    assert report.ok, report.failures
    # Cut after trick 2: T12 is seen, the revoke in trick 1 is proven.
    data["actions"] = _data()["actions"][:25]
    report = _replay(data)
    assert [(d.at, d.rule) for d in report.observation.departures if d.certain] == [(REVOKE_AT, "play.follow_suit")]


def test_a_call_the_hand_could_not_make_is_found_when_the_hand_is_known() -> None:
    ruleset = load_ruleset("furtwangen")
    actions: list[list[Any]] = [[s, "pass"] for s in (1, 2, 3, 4, 5, 0)] + [[1, "pass"], [2, "pass"]]
    stop = ["T20", "T15", "T10", "SJ", "S10", "DQ", "D4"]  # the 20 and two more trumps: a stop
    known = ObservedGame(ruleset, 6, 0, actions, hands=[[], [], stop, [], [], []]).replay()
    [departure] = known.departures
    assert (departure.at, departure.rule, departure.certain) == (7, "auction.phases.dappen_round.compulsory", True)
    assert "you hold a stop" in departure.reason
    # Only the 20 known: a hand without the other trumps may pass; nothing is claimed.
    partly = ObservedGame(ruleset, 6, 0, actions, hands=[[], [], ["T20"], [], [], []]).replay()
    assert not partly.departures and not partly.failures


def test_records_of_every_kind_still_replay_unchanged() -> None:
    for file in sorted((ROOT / "tests" / "records").glob("*.yaml"))[:40]:
        assert replay(file).ok, file


def test_check_counts_the_rules_a_folder_of_games_broke(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "noted.yaml").write_text(RECORD.read_text(encoding="utf-8"), encoding="utf-8")
    data = _data()
    del data["departures"]
    (games / "unnoted.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    out = tarock("check", "furtwangen", str(games))
    assert out.returncode == 1, out.stderr
    row = next(line for line in out.stdout.splitlines() if line.startswith("play.follow_suit "))
    assert row.split()[1:3] == ["2", "2"]  # twice, in two games
    assert "noted.yaml action 14 (noted)" in row
    assert "0 kept to the rules, 2 departed from them (2 departures, 1 noted as the table's rule)" in out.stdout
    assert tarock("check", "furtwangen", str(tmp_path / "nowhere")).returncode == 2


def test_observe_takes_the_game_as_it_is_played_and_asks_about_a_departure(tmp_path: Path) -> None:
    lines = []
    for seat, action in _data()["actions"]:
        if isinstance(action, str):
            lines.append(f"{seat} {action}")
        elif "play" in action:
            lines.append(action["play"].lower() if seat % 2 else action["play"])  # either case
        else:
            lines.append("announce ulti T3 T1")
        if action == {"play": "T12"}:
            lines += ["t", "the table lets it pass"]
    out_file = tmp_path / "observed.yaml"
    ran = tarock("observe", "furtwangen", "--players", "6", "-o", str(out_file), stdin="\n".join(lines) + "\nsave\n")
    assert ran.returncode == 0, ran.stderr
    assert "departure at action 14: seat 2 did not follow trumps" in ran.stdout
    written = yaml.safe_load(out_file.read_text(encoding="utf-8"))
    assert written["departures"][0]["at"] == REVOKE_AT and written["departures"][0]["note"] == "the table lets it pass"
    assert written["actions"] == _data()["actions"]
    assert replay(out_file).ok


def test_observe_drops_a_slip_of_entry() -> None:
    said: list[str] = []
    answers = iter(["s"])
    scribe = Scribe("furtwangen", load_ruleset("furtwangen"), 6, 0, {}, lambda _q: next(answers), said.append)
    for seat, action in _data()["actions"][:21]:
        scribe.enter(seat, action)
    # T12 proves the revoke in trick 1; the observer calls it a slip: the entry is not taken.
    assert len(scribe.actions) == 20 and not scribe.departures
    assert any("dropped" in s for s in said)
    scribe.enter(None, {"play": "T22"})  # seat 2 cannot play the card seat 1 played
    assert len(scribe.actions) == 20 and any(s.startswith("not taken") for s in said)


@pytest.mark.parametrize("bad", [{"observed": {"hands": "all"}}, {"observed": {}, "seed": 3}])
def test_the_record_schema_refuses_a_malformed_observation(bad: dict[str, Any]) -> None:
    data = {**_data(), **bad}
    with pytest.raises(Exception) as caught:
        parse_record(yaml.safe_dump(data), "bad.yaml")
    assert "bad.yaml" in str(caught.value)


def test_observe_refuses_an_entry_of_the_wrong_kind_and_facts_that_make_no_deal() -> None:
    said: list[str] = []
    scribe = Scribe("furtwangen", load_ruleset("furtwangen"), 6, 0, {}, lambda _q: "t", said.append)
    scribe.enter(None, "pass")
    scribe.enter(None, {"play": "T22"})  # a card during the auction: a slip, never the table's rule
    assert len(scribe.actions) == 1 and not scribe.departures
    assert said[-1].startswith("not taken:") and "it is time for a call" in said[-1]
    scribe.command("talon T1 T2")  # the Dapp has twelve cards
    assert (
        scribe.talon is None
        and said[-1] == "not taken: the facts do not make a deal: the talon must have 12 cards, got 2"
    )
    with pytest.raises(ValueError, match="no seat '9': the seats are 0 to 5"):
        scribe.command("hand 9 T1")
    scribe.command("hand 2 T22")
    assert scribe.hands[2] == ["T22"] and said[-1] == "taken"
    scribe.enter(2, {"play": "T22"})
    assert len(scribe.actions) == 1
