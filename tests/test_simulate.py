"""`tarock simulate`: the statistics' shape and sums, the same numbers whatever --workers, JSON
for machines, a progress bar only on a terminal."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.frontends.cli import main
from interpreter.frontends.simulate import ProgressBar, deal_seed, render, simulate

ROOT = Path(__file__).resolve().parent.parent
NAME = "breitnau"


def tarock(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "interpreter", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def stats() -> dict:
    return simulate(NAME, 40, seed=5)


def test_statistics_shape_and_sums(stats: dict) -> None:
    assert stats["ruleset"] == NAME and stats["deals"] == 40 and stats["bot"] == "rules"
    assert sum(stats["outcomes"].values()) == 40
    bid = sum(c["bid"] for c in stats["contracts"].values())
    assert bid + stats["thrown_in"]["count"] + stats["outcomes"].get("abandoned", 0) >= 40
    assert bid <= 40
    for c in stats["contracts"].values():
        assert 0 <= c["declarer_won"] <= c["bid"]
        assert c["win_rate"] is None or c["win_rate"] == round(c["declarer_won"] / c["bid"], 4)
        assert c["title"]
    seats = stats["seats"]
    assert len(seats) == stats["players"]
    assert sum(s["total"] for s in seats) == 0, "payments sum to zero over all deals"
    assert all(s["stdev"] >= 0 for s in seats)
    assert sum(s["declarer"] for s in seats) == bid
    assert [s["position"] for s in seats][:2] == ["dealer", "Vorhand"]
    text = render(stats, elapsed=1.0)
    assert "thrown in" in text and "Vorhand" in text and "spread" in text


def test_the_same_seed_gives_the_same_numbers_with_any_number_of_workers(stats: dict) -> None:
    assert simulate(NAME, 40, seed=5, workers=2) == stats
    random_one = simulate(NAME, 60, seed=9, bot="random", pass_probability=0.8)
    assert simulate(NAME, 60, seed=9, bot="random", pass_probability=0.8, workers=3) == random_one
    assert simulate(NAME, 40, seed=6) != stats


def test_deal_seeds_depend_on_the_base_seed_and_the_index_only() -> None:
    assert deal_seed(1, 2) == deal_seed(1, 2)
    assert len({deal_seed(base, i) for base in range(5) for i in range(200)}) == 1000


def test_cli_json_parses_and_text_has_no_progress_bar_off_a_terminal(capsys) -> None:
    out = tarock("simulate", NAME, "--deals", "12", "--seed", "3", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["deals"] == 12 and data["seed"] == 3 and set(data) >= {"contracts", "seats", "thrown_in", "outcomes"}
    assert out.stderr == ""
    assert main(["simulate", NAME, "--deals", "12", "--bot", "random", "--workers", "2", "--players", "7"]) == 0
    text = capsys.readouterr()
    assert "12 deals" in text.out and "7 at the table" in text.out and text.err == ""


def test_cli_refuses_bad_usage(capsys) -> None:
    for args in (
        ["--deals", "0"],
        ["--workers", "0"],
        ["--players", "3"],
        ["--pass-probability", "2", "--bot", "random"],
        ["--option", "no_such=thing"],
    ):
        assert main(["simulate", NAME, *args]) == 2, args
        err = capsys.readouterr().err
        assert err.strip() and "Traceback" not in err, args


def test_progress_bar_draws_only_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    bar = ProgressBar(10, screen)
    for _ in range(10):
        bar(1)
    bar.close()
    assert "10/10 deals" in screen.getvalue()
    quiet = io.StringIO()
    bar = ProgressBar(10, quiet)
    bar(10)
    bar.close()
    assert quiet.getvalue() == ""
