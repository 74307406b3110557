"""`tarock simulate`: the statistics' shape and sums, the same numbers whatever --workers, JSON
for machines, a progress bar only on a terminal."""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import pty
import re
import select
import signal
import subprocess
import sys
import threading
import time

import pytest
from clirun import ROOT, tarock

from interpreter.engine.seeds import deal_seed
from interpreter.errors import TarockError
from interpreter.frontends.simulate import ProgressBar, render, simulate

NAME = "breitnau"


def numbers(stats: dict) -> dict:
    """The statistics without their speed, which differs from run to run."""
    return {k: v for k, v in stats.items() if k != "speed"}


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
    text = render(stats)
    assert "thrown in" in text and "Vorhand" in text and "spread" in text


def test_the_same_seed_gives_the_same_numbers_with_any_number_of_workers(stats: dict) -> None:
    assert numbers(simulate(NAME, 40, seed=5, workers=2)) == numbers(stats)
    random_one = numbers(simulate(NAME, 60, seed=9, bot="random", pass_probability=0.8))
    assert numbers(simulate(NAME, 60, seed=9, bot="random", pass_probability=0.8, workers=3)) == random_one
    assert numbers(simulate(NAME, 40, seed=6)) != numbers(stats)
    # Workers beyond the chunks and the machine are not started (not a million processes).
    many = simulate(NAME, 6, seed=5, workers=10**6)
    assert numbers(many) == numbers(simulate(NAME, 6, seed=5))
    assert many["speed"]["workers"] <= 6


def test_the_speed_is_reported(stats: dict) -> None:
    speed = stats["speed"]
    assert set(speed) == {"deals_per_second", "wall_seconds", "cpu_seconds", "deals_per_cpu_second", "workers"}
    assert speed["workers"] == 1 and speed["wall_seconds"] > 0 and speed["cpu_seconds"] > 0
    assert (
        speed["deals_per_second"] == round(40 / speed["wall_seconds"], 1)
        or abs(speed["deals_per_second"] - 40 / speed["wall_seconds"]) < 0.05 * speed["deals_per_second"]
    )
    # The deals' CPU time cannot exceed the wall time of a run on one core (beyond rounding).
    assert speed["cpu_seconds"] <= speed["wall_seconds"] + 0.01
    text = render(stats)
    assert f"{speed['deals_per_second']:,.0f} deals/s (40 deals in" in text and "CPU seconds over 1 worker" in text


def test_deal_seeds_depend_on_the_base_seed_and_the_index_only() -> None:
    assert deal_seed(1, 2) == deal_seed(1, 2)
    assert len({deal_seed(base, i) for base in range(5) for i in range(200)}) == 1000


def test_cli_json_parses_and_text_has_no_progress_bar_off_a_terminal() -> None:
    out = tarock("simulate", NAME, "--deals", "12", "--seed", "3", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["deals"] == 12 and data["seed"] == 3 and set(data) >= {"contracts", "seats", "thrown_in", "outcomes"}
    assert numbers(data) == numbers(simulate(NAME, 12, seed=3)), "the command prints what the function returns"
    assert data["speed"]["deals_per_second"] > 0 and data["speed"]["cpu_seconds"] > 0
    assert out.stderr == ""
    text = tarock("simulate", NAME, "--deals", "12", "--bot", "random", "--workers", "2", "--players", "7")
    assert text.returncode == 0
    assert "12 deals" in text.stdout and "7 at the table" in text.stdout and text.stderr == ""
    assert "CPU seconds over 2 workers" in text.stdout


def test_cli_refuses_bad_usage() -> None:
    for args, said in (
        (["--deals", "0"], "--deals must be at least 1"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--players", "3"], "breitnau is played by 6, 7 or 8 at the table, not 3"),
        (["--pass-probability", "2", "--bot", "random"], "--pass-probability must be from 0 to 1"),
        (["--pass-probability", "0.5"], "--pass-probability is for --bot random"),
        (
            ["--workers", "2", "--cluster", "tcp://127.0.0.1:1"],
            "--workers is for this machine; on a --cluster the cluster's workers play",
        ),
    ):
        out = tarock("simulate", NAME, *args)
        assert out.returncode == 2, args
        assert out.stderr == f"tarock: {said}\n", args
    out = tarock("simulate", NAME, "--option", "no_such=thing")
    assert out.returncode == 2
    assert out.stderr.startswith("rulesets/breitnau.yaml: options.no_such: no reading or option named 'no_such'")


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


def test_the_readme_shows_what_the_command_prints() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = readme.split("$ tarock simulate breitnau --deals 1000\n", 1)[1].split("```", 1)[0]
    out = tarock("simulate", NAME, "--deals", "1000")
    assert out.returncode == 0, out.stderr
    printed = out.stdout.split("\n\nspeed:", 1)[0]  # the README leaves out the speed, which varies
    assert shown.rstrip("\n") == printed.rstrip("\n")


def kill_a_worker_process(spare: frozenset[int] = frozenset()) -> bool:
    """Kill one worker process of this process's pool, as an out-of-memory killer would; never
    one of `spare` (children that were there before the run: another test's processes, when the
    tests share a process)."""
    children = [child for child in multiprocessing.active_children() if child.pid not in spare]
    if not children or children[0].pid is None:
        return False
    try:
        os.kill(children[0].pid, signal.SIGKILL)
    except ProcessLookupError:  # it ended (or was killed) between the listing and the kill
        return False
    return True


def children_now() -> frozenset[int]:
    return frozenset(child.pid for child in multiprocessing.active_children() if child.pid is not None)


def test_a_killed_worker_process_costs_time_only() -> None:
    notes: list[str] = []
    killed: list[bool] = []

    spare = children_now()

    def progress(n: int) -> None:
        if not killed:
            killed.append(kill_a_worker_process(spare))

    stats = simulate(NAME, 120, seed=5, workers=2, progress=progress, notice=notes.append)
    assert killed == [True]
    assert numbers(stats) == numbers(simulate(NAME, 120, seed=5)), "the lost deals are played again, alike"
    assert stats["deals"] == 120 and stats["speed"]["workers"] == 2
    assert notes and all(n.startswith("a worker process died; its deals and those under way") for n in notes)


def test_worker_processes_killed_again_and_again_end_the_run_clearly() -> None:
    stop = threading.Event()
    spare = children_now()

    def killer() -> None:  # a machine that kills every worker process as soon as it starts
        while not stop.is_set():
            kill_a_worker_process(spare)
            time.sleep(0.005)

    thread = threading.Thread(target=killer)
    thread.start()
    try:
        with pytest.raises(TarockError, match=r"died 4 times in a row before finishing a chunk of deals"):
            simulate(NAME, 4000, seed=5, workers=2)
    finally:
        stop.set()
        thread.join()


STREAMED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # 2 GB: a list of 4e9 chunks fails at once
from interpreter.frontends.simulate import simulate

class Enough(Exception):
    pass

done = []
def progress(n):
    done.append(n)
    if sum(done) >= 500:
        raise Enough
try:
    simulate("breitnau", 10**12, workers=int(sys.argv[1]), progress=progress)
except Enough:
    print(sum(done))
"""


@pytest.mark.parametrize("workers", [1, 2])
def test_a_trillion_deals_are_streamed_not_listed(workers: int) -> None:
    out = subprocess.run(
        [sys.executable, "-c", STREAMED, str(workers)], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert int(out.stdout) >= 500  # chunks of 250 deals, counted as they came back


def test_the_bar_of_a_trillion_deals_fits_a_line(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)  # the default stream, as the command uses it
    bar = ProgressBar(10**12)
    bar.start -= 3600
    bar(123_456_789)
    bar.note("a worker process died")
    bar(250)
    bar.close()
    lines = screen.getvalue().replace("\n", "\r").split("\r")
    drawn = [line for line in lines if "deals" in line]
    assert len(drawn) == 2 and all(len(line) <= 79 for line in lines)
    assert "123,456,789/1,000,000,000,000 deals" in drawn[0] and "days left" in drawn[0]
    assert "tarock: a worker process died" in lines


def _read_until(terminal: int, wanted: re.Pattern[str] | None, seconds: float) -> str:
    """What a process wrote to the terminal `terminal`, read until `wanted` is among it (None:
    until the process closed it), within `seconds`."""
    seen, deadline = "", time.monotonic() + seconds
    while time.monotonic() < deadline:
        ready, _, _ = select.select([terminal], [], [], 0.1)
        if not ready:
            continue
        try:
            chunk = os.read(terminal, 4096)
        except OSError:  # (EIO: every writer has closed the terminal)
            return seen
        if not chunk:
            return seen
        seen += chunk.decode(errors="replace")
        if wanted is not None and wanted.search(seen):
            return seen
    if wanted is not None:
        raise AssertionError(f"the run did not show {wanted.pattern!r} within {seconds} s: {seen[-300:]!r}")
    return seen


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_gives_the_figures_of_the_deals_finished(workers: str) -> None:
    """Ctrl-C in a long run (SIGINT to the whole process group, as a terminal sends it) prints the
    figures of the chunks of deals finished, says so, and exits with 130; it said only
    'interrupted' and threw away minutes of deals."""
    command = [sys.executable, "-m", "interpreter", "simulate", NAME, "--bot", "random", "--json"]
    # stderr is a terminal, so that the run draws its progress bar: Ctrl-C comes once the bar
    # counts finished deals, however long a busy machine takes to start the run.
    terminal, stderr = pty.openpty()
    process = subprocess.Popen(
        [*command, "--deals", "100000000", "--workers", workers],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal's job
        # (should it not stop, SIGABRT below makes it write where each of its threads is)
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},
    )
    os.close(stderr)
    rest: list[str] = []
    try:
        screen = _read_until(terminal, re.compile(r"[1-9][\d,]*/100,000,000 deals"), seconds=120)
        os.killpg(process.pid, signal.SIGINT)
        # The terminal is read while the run ends, as a terminal is: a run that writes to a
        # terminal nobody reads waits once its buffer is full, and would seem not to stop.
        reader = threading.Thread(target=lambda: rest.append(_read_until(terminal, None, seconds=150)))
        reader.start()
        try:
            out, _ = process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGABRT)  # (its threads' places written to the terminal)
            time.sleep(2)
            os.killpg(process.pid, signal.SIGKILL)  # (the workers too, so that the terminal closes)
            reader.join()
            raise AssertionError(f"the run did not end within 120 s of Ctrl-C: {''.join(rest)[-4000:]}") from None
        reader.join()
        screen += "".join(rest)
    finally:  # a run that did not stop must not play its hundred million deals after the test
        os.close(terminal)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    err = screen.replace("\r\n", "\n").replace("\r", "\n")
    assert process.returncode == 130, err
    assert err.strip().splitlines()[-1] == "tarock: interrupted" and "Traceback" not in err
    stats = json.loads(out)
    played = stats["deals"]
    assert stats["interrupted"] == {"asked": 100_000_000, "played": played} and 0 < played < 100_000_000
    assert sum(stats["outcomes"].values()) == played  # every figure is of the deals finished
    assert sum(c["bid"] for c in stats["contracts"].values()) + stats["thrown_in"]["count"] <= played
    assert abs(sum(s["total"] for s in stats["seats"])) == 0  # the payments of those deals sum to zero
