"""Every record under tests/records/ is a test: replayed, it must match its `expect`."""

from pathlib import Path

import pytest

from interpreter.engine.records import replay

RECORDS = sorted((Path(__file__).parent / "records").glob("*.y*ml"))


@pytest.mark.parametrize("record", RECORDS, ids=[r.stem for r in RECORDS])
def test_record_replays_to_its_expected_outcome(record: Path) -> None:
    report = replay(record)
    assert report.ok, "\n".join(report.failures)


def test_there_are_records() -> None:
    assert len(RECORDS) >= 10


def test_a_replay_that_stops_says_where_and_why(tmp_path: Path) -> None:
    """Issue 28, item 12: an outcome expected of a deal that is not over names where the replay
    stopped: the refused action, or the end of the record (it said "not over after 38 actions"
    when the replay had stopped at action 3)."""
    source = (Path(__file__).parent / "records" / "koenigrufen-illegal-discard-trumps-with-a-choice.yaml").read_text(
        encoding="utf-8"
    )
    source = source[: source.index("expect:")] + "expect:\n  payments: [0, 0, 0, 0]\n"
    refused = tmp_path / "refused.yaml"
    refused.write_text(source, encoding="utf-8")
    first, second = replay(refused).failures
    assert 'action 7 [1, {"discard": ["T2", "T3", "T4"]}] was refused' in first
    assert (
        "expected payments [0, 0, 0, 0], but the deal is not over: the replay stopped at action 7, which was refused "
        "(phase: exchange, to act: seat 1)" in second
    )
    short = tmp_path / "short.yaml"
    short.write_text(source.replace("- [1, {discard: [T2, T3, T4]}]\n", ""), encoding="utf-8")
    [failure] = replay(short).failures
    assert "but the deal is not over: the record ends after its 7 actions (phase: exchange, to act: seat 1)" in failure
