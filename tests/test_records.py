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
