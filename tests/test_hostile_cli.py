"""Hostile files and arguments at the command line (issue 32): what `observe`, `check`, `replay`
and the ruleset lookup make of input meant to break them. Nothing ends in `internal error`,
hangs or runs out of memory: every refusal is one line with its reason.

- YAML or JSON nested deeper than the loader allows (source.MAX_DEPTH), wherever it is read: an
  entry typed into `observe`, a record for `check` or `replay`, a file in ./rulesets.
- numbers from the command line out of range: exit 2 and one line on stderr.
- `observe -o` into a folder that does not exist: refused before the first entry.
- a FIFO, a link to /dev/zero and an oversized file named like rulesets in ./rulesets: passed
  over by the lookup (one line says so), the other rulesets still found; read by path, refused.

The FIFO tests run the command in a process of its own with a time limit: a lookup that waited on
the FIFO would otherwise hang the test run instead of failing it.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from clirun import tarock

from interpreter.language.paths import ENV_PATH, MAX_RULESET_BYTES
from interpreter.language.source import MAX_DEPTH

VILLAGE = "title: Dappen (my village)\nextends: breitnau\n"
DEEP_FLOW = "[" * 900 + "]" * 900  # a flow collection 900 deep (PyYAML's own reader recursed at about 500)
DEEP_BLOCK = "a:\n  " + "- " * 3000 + "x\n"  # block sequences 3,000 deep


def one_line(text: str) -> str:
    lines = text.splitlines()
    assert len(lines) == 1 and "Traceback" not in text and "internal error" not in text, text
    return lines[0]


def run(*args: str, cwd: Path, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`tarock ARGS` in a process of its own, from `cwd`; a hang fails the test (TimeoutExpired)."""
    env = {k: v for k, v in os.environ.items() if k not in (ENV_PATH, "TAROCK_DEBUG")}
    return subprocess.run(
        [sys.executable, "-m", "interpreter", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


# -- 1. the depth limit on every path that parses YAML or JSON -----------------------------------------


def test_an_observed_entry_nested_too_deep_is_not_taken_and_the_scribe_goes_on() -> None:
    for entry in ("{a: " + DEEP_FLOW + "}", '{"play": ' + "[" * 500 + "]" * 500 + "}", "{a: " * 300 + "1" + "}" * 300):
        out = tarock("observe", "cego", stdin=f"{entry}\npass\nsave\n")
        assert out.returncode == 0 and out.stderr == "", out
        refusal = next(line for line in out.stdout.splitlines() if "not taken" in line)
        assert f"nested more than {MAX_DEPTH} levels deep" in refusal and "column " in refusal, refusal
        assert "actions:\n- [1, pass]" in out.stdout  # the entry after it was taken


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        ("{play: !!python/name:os.system x}", "cannot read 'x' as !!python/name:os.system"),
        ("{[T1]: play}", "a key must be a plain name"),
        ("{play: T1", "not valid YAML"),
        ("{discard: [" + "T1, " * 600 + "]}", "an entry of 2,413 characters is too long (at most 2,000)"),
        ("² pass", "no seat '²': the seats are 0 to 3"),
        ("9999999999 pass", "no seat '9999999999'"),
        ("hand ² T1", "no seat '²'"),
    ],
)
def test_an_observed_entry_that_is_no_action_is_refused_with_the_reason(entry: str, reason: str) -> None:
    out = tarock("observe", "cego", stdin=f"{entry}\nsave\n")
    assert out.returncode == 0 and out.stderr == "", out
    assert "not taken: " in out.stdout and reason in out.stdout, out.stdout


def test_a_record_nested_too_deep_is_refused_at_its_place(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "deep.yaml").write_text(DEEP_BLOCK, encoding="utf-8")
    (games / "flow.json").write_text('{"ruleset": "cego", "actions": ' + DEEP_FLOW + "}", encoding="utf-8")
    checked = tarock("check", "cego", str(games))
    assert checked.returncode == 1 and "internal error" not in checked.stderr, checked
    assert f"deep.yaml:2:{2 * MAX_DEPTH + 1}: a[0][0]…: nested more than {MAX_DEPTH} levels" in checked.stdout
    assert f"flow.json:1:{31 + MAX_DEPTH}: actions[0][0]…: nested more than" in checked.stdout
    replayed = tarock("replay", str(games / "flow.json"))
    assert replayed.returncode == 1, replayed
    assert f"nested more than {MAX_DEPTH} levels deep" in one_line(replayed.stderr)


def test_a_ruleset_nested_too_deep_is_one_problem_and_the_others_are_listed(elsewhere: Path) -> None:
    (elsewhere / "rulesets").mkdir()
    (elsewhere / "rulesets" / "deep.yaml").write_text(DEEP_BLOCK, encoding="utf-8")
    (elsewhere / "rulesets" / "flow.yaml").write_text("base: " + DEEP_FLOW, encoding="utf-8")
    (elsewhere / "rulesets" / "my-village.yaml").write_text(VILLAGE, encoding="utf-8")
    listed = tarock("list", cwd=elsewhere)
    assert listed.returncode == 0 and listed.stderr == "", listed
    rows = {line.split()[0]: line for line in listed.stdout.splitlines()}
    assert "does not load" in rows["deep"] and "does not load" in rows["flow"]
    assert "Dappen (my village)" in rows["my-village"] and "breitnau" in rows
    validated = tarock("validate", "deep", cwd=elsewhere)
    assert validated.returncode == 1
    assert f"rulesets/deep.yaml:2:{2 * MAX_DEPTH + 1}: a[0][0]…: nested more than" in validated.stderr


# -- 2. every number from the command line, range-checked ---------------------------------------------


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["observe", "cego", "--players", "0"], "cego is played by 3, 4 or 5 at the table, not 0"),
        (["observe", "cego", "--players", "-4"], "cego is played by 3, 4 or 5 at the table, not -4"),
        (
            ["observe", "cego", "--players", "1000000000"],
            "cego is played by 3, 4 or 5 at the table, not 1000000000",
        ),
        (["observe", "cego", "--dealer", "99"], "the dealer must be a seat from 0 to 3, not 99"),
        (["observe", "cego", "--dealer", "-1"], "the dealer must be a seat from 0 to 3, not -1"),
        (["observe", "cego", "--players", "3", "--dealer", "3"], "the dealer must be a seat from 0 to 2, not 3"),
        (["play", "cego", "--players", "1000000000"], "cego is played by 3, 4 or 5 at the table, not 1000000000"),
        (["play", "cego", "--dealer", "-1"], "the dealer must be a seat from 0 to 3, not -1"),
        (["play", "cego", "--seed", "-1"], "a seed is a whole number from 0 to 2**64 - 1, not -1"),
        (["play", "cego", "--human", "4"], "--human 4: no such playing seat"),
        (
            ["play", "cego", "--deals", "0"],
            "--deals must be from 1 to 1,000, not 0 (a session keeps every deal; `tarock simulate` plays more)",
        ),
        (
            ["play", "cego", "--deals", "1000000000000"],
            "--deals must be from 1 to 1,000, not 1000000000000 (a session keeps every deal; "
            "`tarock simulate` plays more)",
        ),
    ],
)
def test_a_number_out_of_range_is_one_line_and_exit_2(args: list[str], said: str) -> None:
    out = tarock(*args, stdin="pass\nsave\n")
    assert out.returncode == 2, out
    assert one_line(out.stderr) == f"tarock: {said}"
    assert out.stdout == "", "refused before anything is done"


# -- 3. observe -o into a folder that does not exist ---------------------------------------------------


def test_observe_refuses_an_output_it_cannot_write_before_the_first_entry(tmp_path: Path) -> None:
    for target, reason in [
        (tmp_path / "missing" / "game.yaml", f"no such directory: {tmp_path / 'missing'}"),
        (tmp_path, "is a directory"),
    ]:
        out = tarock("observe", "cego", "-o", str(target), stdin="pass\npass\nsave\n")
        assert out.returncode == 2, out
        assert one_line(out.stderr) == f"tarock: -o {target}: {reason}"
        assert out.stdout == "", "nothing asked: no entry is typed in vain"


def test_a_record_that_cannot_be_written_at_the_end_is_printed_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The folder is there when the scribe starts and gone when the game is saved: the evening's
    game is printed rather than lost."""
    from interpreter.frontends.cli import main

    folder = tmp_path / "games"
    folder.mkdir()
    lines = iter(["pass\n", "pass\n", "save\n"])

    class Input:
        def readline(self) -> str:
            line = next(lines)
            if line == "save\n":
                folder.rmdir()
            return line

    monkeypatch.setattr(sys, "stdin", Input())
    status = main(["observe", "cego", "-o", str(folder / "game.yaml")])
    out, err = capsys.readouterr()
    assert status == 2
    assert one_line(err).startswith(f"tarock: {folder / 'game.yaml'}: No such file or directory; the record is printed")
    assert "actions:\n- [1, pass]\n- [2, pass]" in out


# -- 4. the lookup reads only regular files, with a size limit ----------------------------------------

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")


def hostile_folder(where: Path) -> Path:
    """A working directory whose rulesets/ holds a FIFO, a link to /dev/zero and a file larger than
    any ruleset (sparse: it takes no disk), named like rulesets, beside a ruleset of one's own."""
    rulesets = where / "rulesets"
    rulesets.mkdir(parents=True)
    os.mkfifo(rulesets / "x.yaml")
    (rulesets / "z.yaml").symlink_to("/dev/zero")
    with open(rulesets / "big.yaml", "wb") as big:
        big.truncate(MAX_RULESET_BYTES + 1)
    (rulesets / "my-village.yaml").write_text(VILLAGE, encoding="utf-8")
    return where


SKIPPED = (
    "tarock: passed over rulesets/big.yaml (1,000,001 bytes, more than the 1,000,000 allowed), "
    "rulesets/x.yaml (a FIFO, not a regular file), rulesets/z.yaml (a character device, not a regular file): "
    "a ruleset is a regular file of at most 1,000,000 bytes"
)


@needs_fifo
def test_list_passes_over_a_fifo_a_device_and_a_huge_file_and_says_so_in_one_line(tmp_path: Path) -> None:
    work = hostile_folder(tmp_path)
    out = run("list", cwd=work)
    assert out.returncode == 0, out.stderr
    assert one_line(out.stderr) == SKIPPED
    names = [line.split()[0] for line in out.stdout.splitlines()]
    assert "my-village" in names and "breitnau" in names and "cego" in names
    assert not {"x", "z", "big"} & set(names)


@needs_fifo
def test_serve_opens_a_built_in_game_beside_a_fifo(tmp_path: Path) -> None:
    work = hostile_folder(tmp_path)
    requests = [{"id": 1, "op": "new", "ruleset": "cego", "players": 4, "seed": 1}, {"id": 2, "op": "rulesets"}]
    out = run("serve", cwd=work, stdin="".join(json.dumps(r) + "\n" for r in requests))
    assert out.returncode == 0 and one_line(out.stderr) == SKIPPED
    new, listed = (json.loads(line) for line in out.stdout.splitlines())
    assert new["ok"] and new["ruleset"] == "cego", new
    assert "my-village" in json.dumps(listed) and '"x"' not in json.dumps(listed)


@needs_fifo
def test_web_lists_the_rulesets_beside_a_fifo(tmp_path: Path) -> None:
    pytest.importorskip("aiohttp")
    work = hostile_folder(tmp_path)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != ENV_PATH}
    # The server's default database lies in the user's data folder, one server to a file: a
    # folder of the test's own, so that runs at the same time (and the user's tables) are apart.
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    server = subprocess.Popen(
        [sys.executable, "-m", "interpreter", "web", "--port", str(port)],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rulesets", timeout=60) as answer:
                    names = [r["name"] for r in json.load(answer)["rulesets"]]
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        assert "my-village" in names and "cego" in names and "x" not in names
    finally:
        server.terminate()
        _, err = server.communicate(timeout=30)
    assert err.splitlines()[0] == SKIPPED


@needs_fifo
def test_a_name_that_finds_only_a_fifo_says_so(tmp_path: Path) -> None:
    work = hostile_folder(tmp_path)
    out = run("play", "x", cwd=work)
    assert out.returncode == 2
    assert out.stderr.splitlines() == [
        SKIPPED,
        "x: no ruleset named 'x' can be read: rulesets/x.yaml is a FIFO, not a regular file",
    ]
    assert run("play", "my-village", "--seed", "1", cwd=work).returncode == 0


@needs_fifo
def test_a_fifo_or_a_device_named_as_a_path_is_refused_with_the_reason(tmp_path: Path) -> None:
    work = hostile_folder(tmp_path)
    for name, kind in [("x", "a FIFO"), ("z", "a character device")]:
        validated = run("validate", f"rulesets/{name}.yaml", cwd=work)
        assert validated.returncode == 1, validated
        assert f"rulesets/{name}.yaml: cannot read the file: {kind}, not a regular file" in validated.stderr
        replayed = run("replay", f"rulesets/{name}.yaml", cwd=work)
        assert replayed.returncode == 1, replayed
        assert f"rulesets/{name}.yaml: cannot read the record: {kind}, not a regular file" in replayed.stderr
    big = run("validate", "rulesets/big.yaml", cwd=work)
    assert "cannot read the file: 1,000,001 bytes, more than the 1,000,000 allowed" in big.stderr


@needs_fifo
def test_check_reports_a_fifo_and_a_device_among_the_records_as_games_it_could_not_read(tmp_path: Path) -> None:
    work = tmp_path
    games = work / "games"
    games.mkdir()
    os.mkfifo(games / "waiting.yaml")
    (games / "endless.yaml").symlink_to("/dev/zero")
    observed = run("observe", "cego", "-o", "games/one.yaml", cwd=work, stdin="pass\npass\nsave\n")
    assert observed.returncode == 0, observed.stderr
    out = run("check", "cego", "games", cwd=work)
    assert out.returncode == 1 and "internal error" not in out.stderr, out
    assert "against 3 observed games" in out.stdout
    assert (
        "games/waiting.yaml: could not be checked further: games/waiting.yaml: cannot read the record: a FIFO"
        in out.stdout
    )
    assert (
        "games/endless.yaml: could not be checked further: games/endless.yaml: cannot read the record: a character device"
        in out.stdout
    )
    alone = run("check", "cego", "games/waiting.yaml", cwd=work)
    assert alone.returncode == 1 and "cannot read the record: a FIFO, not a regular file" in alone.stdout


# -- the limits, as docs/design.md states them ---------------------------------------------------------


def test_the_design_states_the_limits_the_code_keeps() -> None:
    from interpreter.engine.records import MAX_ACTIONS, MAX_RECORD_CHARS
    from interpreter.frontends.cli import MAX_DEALS
    from interpreter.frontends.observe import MAX_ENTRY
    from interpreter.language.dsl.compiler import MAX_LENGTH, MAX_VISITS
    from interpreter.language.source import MAX_DIGITS, MAX_NODES

    design = (Path(__file__).resolve().parents[1] / "docs" / "design.md").read_text(encoding="utf-8")
    limits = design.split("\n## Limits\n", 1)[1].split("\n## ", 1)[0]
    for stated in [
        f"nested at most {MAX_DEPTH} levels deep",
        f"at most {MAX_NODES:,} values",
        f"integers of at most {MAX_DIGITS:,} digits",
        f"a regular file (symbolic links followed) of at most {MAX_RULESET_BYTES:,} bytes",
        f"at most {MAX_LENGTH:,} characters",
        f"at most {MAX_VISITS:,} cards",
        f"a regular file of at most {MAX_RECORD_CHARS:,} characters; at most {MAX_ACTIONS:,} actions",
        f"at most {MAX_ENTRY:,} characters; a seat",
        f"1 to {MAX_DEALS:,}: a session keeps every deal",
    ]:
        assert stated in limits, stated


def test_web_on_port_0_says_the_port_it_serves_on(tmp_path: Path) -> None:
    """`tarock web --port 0` lets the system choose a free port, and prints that port (it printed
    `:0`, an address nothing answers on); a port already in use is refused with the reason."""
    pytest.importorskip("aiohttp")
    env = {k: v for k, v in os.environ.items() if k != ENV_PATH}
    server = subprocess.Popen(
        [sys.executable, "-m", "interpreter", "web", "--port", "0", "--db", ":memory:"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        found = re.search(r"open http://localhost:(\d+)/ ", first)
        assert found, first
        port = int(found.group(1))
        assert port != 0
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rulesets", timeout=60) as answer:
                    assert "breitnau" in [r["name"] for r in json.load(answer)["rulesets"]]
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        taken = run("web", "--port", str(port), "--db", ":memory:", cwd=tmp_path)
        assert taken.returncode != 0
        assert f"cannot serve on 127.0.0.1:{port}: " in taken.stderr and "Traceback" not in taken.stderr
    finally:
        server.terminate()
        server.communicate(timeout=30)
