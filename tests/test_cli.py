"""The command line as a user runs it: exit codes, logs, records, human play."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def tarock(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "interpreter", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=120
    )


def test_list_names_every_playable_ruleset() -> None:
    out = tarock("list")
    assert out.returncode == 0
    assert "breitnau" in out.stdout and "6/7/8 at the table" in out.stdout
    assert "cego-pack" not in out.stdout  # a base, not a game


def test_validate_passes_on_every_ruleset() -> None:
    out = tarock("validate")
    assert out.returncode == 0, out.stderr
    assert "breitnau: ok" in out.stdout and out.stderr == ""


def test_show_prints_the_ruleset_after_inheritance() -> None:
    out = tarock("show", "breitnau")
    assert out.returncode == 0
    assert out.stdout.startswith("# breitnau <- cego-pack")
    assert "five_pointers" in out.stdout and "dappen_round" in out.stdout


def test_show_makes_a_short_variant_visibly_short() -> None:
    full, own = tarock("show", "schollach"), tarock("show", "schollach", "--own")
    assert full.stdout.startswith("# schollach <- furtwangen <- breitnau <- cego-pack")
    assert own.returncode == 0 and len(own.stdout.splitlines()) < len(full.stdout.splitlines()) / 5
    assert "no Ulti" in own.stdout or "ulti: null" in own.stdout


def test_play_prints_a_readable_log_for_every_table_size() -> None:
    for players in (6, 7, 8):
        for seed in (1, 2):
            out = tarock("play", "breitnau", "--players", str(players), "--seed", str(seed))
            assert out.returncode == 0, out.stderr
            assert ("Hands:" in out.stdout and "Payments (cent)" in out.stdout) or "thrown in" in out.stdout


def test_play_writes_a_record_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "deal.yaml"
    out = tarock("play", "breitnau", "--seed", "11", "--record", str(record))
    assert out.returncode == 0 and record.exists()
    again = tarock("replay", str(record))
    assert again.returncode == 0, again.stderr
    assert "ok" in again.stdout


def test_a_person_can_play_a_seat(tmp_path: Path) -> None:
    # Always the first choice: pass in the auction, then the first legal card.
    record = tmp_path / "human.yaml"
    out = tarock("play", "breitnau", "--seed", "4", "--human", "2", "--record", str(record), stdin="1\n" * 60)
    assert out.returncode == 0, out.stderr
    assert "Seat 2, your hand:" in out.stdout and "1. " in out.stdout
    assert tarock("replay", str(record)).returncode == 0


def test_human_input_ending_early_is_a_clear_error() -> None:
    out = tarock("play", "breitnau", "--seed", "4", "--human", "1", stdin="")
    assert out.returncode == 2
    assert "input ended" in out.stderr and "Traceback" not in out.stderr


def test_no_command_prints_help_and_exits_2() -> None:
    out = tarock()
    assert out.returncode == 2 and "examples:" in out.stdout
