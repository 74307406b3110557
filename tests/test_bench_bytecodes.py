"""benchmarks/bytecodes.py counts the bytecodes of the benchmark's deals by function. What makes the
count worth having beside callgrind's instructions is that it does not move: the same deals, after
the same warm-up, give the same count in every run and under every string hash seed. (The first
time a deal is counted it may fill a cache the warm-up did not, such as the payments of a
game's value not yet paid at that table: a count is of warm code, as the benchmark's clock is.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bytecodes  # noqa: E402


def test_the_same_deals_run_the_same_bytecodes_in_the_engine_and_by_hand() -> None:
    for name in ("breitnau", bytecodes.BY_HAND):
        play = bytecodes.player(name, 6)
        bytecodes.count(play, range(5))  # (what these deals add to the caches, added)
        first, again = bytecodes.count(play, range(5)), bytecodes.count(play, range(5))
        assert first == again
        assert sum(first.values()) > 0
    engine = bytecodes.count(bytecodes.player("breitnau", 6), range(3))
    # Keyed by file and function: the card path is the trick play's offer and take.
    assert engine["play.py:offer"] > 0 and engine["play.py:take"] > 0


def test_the_count_is_the_same_under_another_string_hash_seed() -> None:
    def run(hash_seed: str) -> str:
        done = subprocess.run(
            [sys.executable, str(BENCHMARKS / "bytecodes.py"), "--ruleset", "koenigrufen", "--deals", "4"],
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    first = run("1")
    assert first.startswith("koenigrufen (4): ") and "bytecodes a deal" in first
    assert run("2") == first


def test_a_ruleset_without_a_usual_table_asks_for_the_players() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bytecodes.py"), "--ruleset", "dreierles", "--deals", "1"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "--players is needed for 'dreierles'" in done.stderr
