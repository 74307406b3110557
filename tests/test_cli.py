"""The command line as a user runs it: exit codes, logs, records, human play, and every failure as
one clear line (1: a check failed, 2: bad usage or an environment that does not allow the command).

The commands run inside the test process (`clirun.tarock`); the few tests whose point is the
process itself (the installed console script, a closed descriptor, a full disk) start one.
"""

from __future__ import annotations

import importlib
import io
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from clirun import ROOT, tarock

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import RandomBot
from interpreter.frontends.human import HumanPlayer


def one_line(text: str) -> str:
    lines = text.splitlines()
    assert len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


# -- what each command does ----------------------------------------------------------------------


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
            assert (
                "Hands:" in out.stdout and "Payments:" in out.stdout and "(cent)" in out.stdout
            ) or "thrown in" in out.stdout
            assert f"{players} at the table" in out.stdout and f"seed {seed}" in out.stdout


def test_play_writes_a_record_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "deal.yaml"
    out = tarock("play", "breitnau", "--seed", "11", "--bot", "rules", "--record", str(record))
    assert out.returncode == 0 and record.exists()
    assert out.stdout.rstrip().endswith(f"record written to {record}")
    again = tarock("replay", str(record), "--log")
    assert again.returncode == 0, again.stderr
    assert again.stdout.rstrip().endswith(f"{record}: ok")
    assert "Hands:" in again.stdout


def test_no_command_prints_help_and_exits_2() -> None:
    out = tarock()
    assert out.returncode == 2 and "examples:" in out.stdout


# -- a person at the terminal --------------------------------------------------------------------


def test_a_person_can_play_a_seat(tmp_path: Path) -> None:
    # Always the first choice: pass in the auction, then the first legal card.
    record = tmp_path / "human.yaml"
    out = tarock("play", "breitnau", "--seed", "4", "--human", "2", "--record", str(record), stdin="1\n" * 60)
    assert out.returncode == 0, out.stderr
    assert "Seat 2, your hand:" in out.stdout and "1. " in out.stdout
    assert ("Payments:" in out.stdout and "(cent)" in out.stdout) or "thrown in" in out.stdout
    assert tarock("replay", str(record)).returncode == 0


def test_human_input_ending_early_is_a_clear_error() -> None:
    out = tarock("play", "breitnau", "--seed", "4", "--human", "1", stdin="")
    assert out.returncode == 2
    assert one_line(out.stderr) == "tarock: input ended before the deal was over"


def cego_gegensolo() -> Game:
    """Three-player Cego where everybody passes: Vorhand (seat 1) must play the Cego, keeping 2
    of its 13 cards. 78 ways are too many to list: the legal action is a keep template."""
    game = Game(load_ruleset("cego"), players=3, seed=0)
    for seat, call in [(1, "pass"), (2, "pass"), (0, "pass"), (1, "cego"), (2, "pass"), (0, "pass")]:
        game.apply(seat, call)
    [template] = game.legal_actions(1)
    assert isinstance(template, dict) and template["keep"]["count"] == 2, template
    return game


def test_a_person_answers_a_keep_template_by_numbers_or_ids() -> None:
    game = cego_gegensolo()
    hand = list(game.hands[1])
    offered = game.legal_actions(1)[0]["keep"]["from"]  # type: ignore[index]
    not_held = next(c for c in game.ruleset.deck.cards if c not in hand)
    answers = ["", "99", "joker", not_held, f"1 {offered[0]}", "1", f"1, {offered[1].lower()}"]
    screen = io.StringIO()
    person = HumanPlayer(game, stdin=io.StringIO("\n".join(answers) + "\n"), stdout=screen)
    action = person.ask(1)
    assert action == {"keep": [offered[0], offered[1]]}
    said = screen.getvalue()
    assert "keep 2 cards (the others go aside)" in said and f"{len(offered)}. " in said
    assert "that is 0 cards; 2 are needed" in said
    assert f"there is no number 99: the numbers go from 1 to {len(offered)}" in said
    assert "'joker' is neither a number nor a card" in said
    assert f"you do not hold {not_held}" in said
    assert f"{offered[0]} is named twice" in said
    assert "that is 1 card; 2 are needed" in said
    game.apply(1, action)
    kept = next(e for e in game.events if e["type"] == "keep")
    assert (kept["seat"], kept["count"], kept["discarded"]) == (1, 2, 11)
    assert set(offered[:2]) <= set(game.hands[1]) and not set(hand) - set(offered[:2]) & set(game.hands[1])


def test_a_person_plays_a_whole_gegensolo_from_the_keep_on() -> None:
    game = cego_gegensolo()
    screen = io.StringIO()
    answers = "1 2\n" + "1\n" * 20
    HumanPlayer(game, stdin=io.StringIO(answers), stdout=screen).run({1}, RandomBot(0))
    assert game.is_over and game.result is not None and sum(game.result.payments) == 0
    assert any(e["type"] == "keep" and e["seat"] == 1 for e in game.events)
    assert "refused" not in screen.getvalue()


def test_a_refused_keep_is_told_with_the_reason_and_asked_again() -> None:
    """The person's choice goes to the engine; a refusal is shown with its reason."""
    game = cego_gegensolo()
    screen = io.StringIO()
    person = HumanPlayer(game, stdin=io.StringIO("1 2\n" * 2 + "1\n" * 20), stdout=screen)
    real_apply = game.apply
    refused_once = []

    def apply(seat: int, action: object) -> list[dict[str, object]]:
        if isinstance(action, dict) and "keep" in action and not refused_once:
            refused_once.append(action)
            return real_apply(seat, {"keep": [action["keep"][0]]})  # one card: the engine refuses
        return real_apply(seat, action)

    game.apply = apply  # type: ignore[method-assign]
    person.run({1}, RandomBot(0))
    assert "refused: keep exactly 2 cards, not 1" in screen.getvalue()
    assert game.is_over


# -- failures: one line each, and the right exit status ------------------------------------------


def test_a_record_that_cannot_be_written_is_refused_before_the_deal(tmp_path: Path) -> None:
    for target, reason in [
        ("/nonexistent/x.yaml", "no such directory: /nonexistent"),
        (str(tmp_path), "is a directory"),
    ]:
        out = tarock("play", "breitnau", "--seed", "1", "--record", target)
        assert out.returncode == 2, out
        assert one_line(out.stderr) == f"tarock: --record {target}: {reason}"
        assert out.stdout == "", "refused before the deal is played"


def test_output_that_cannot_be_written_names_the_file_and_the_reason(tmp_path: Path) -> None:
    # `doc -o` lives in another module: the command line's boundary covers it all the same.
    for args, shown in [
        (
            ["doc", "breitnau", "-o", "/proc/no/such/file.md"],
            "cannot write /proc/no/such/file.md: No such file or directory",
        ),
        (["matrix", "breitnau", "-o", str(tmp_path)], f"cannot write {tmp_path}: Is a directory"),
    ]:
        out = tarock(*args)
        assert out.returncode == 2, out
        assert one_line(out.stderr) == f"tarock: {shown}"


def test_a_closed_input_is_bad_usage_not_a_fault() -> None:
    for args, said in [
        (["serve"], "tarock: standard input is closed: `tarock serve` reads its requests there"),
        (
            ["play", "breitnau", "--human", "1"],
            "tarock: --human needs standard input to read your choices, and it is closed",
        ),
    ]:
        out = tarock(*args, stdin=None)
        assert out.returncode == 2 and one_line(out.stderr) == said


def test_serve_refuses_limits_it_cannot_keep() -> None:
    for args, said in [
        (["--max-line", "9" * 23], f"--max-line must be from 64 to {2**30} bytes, not {'9' * 23}"),
        (["--max-line", "10"], f"--max-line must be from 64 to {2**30} bytes, not 10"),
        (["--max-games", "0"], "--max-games must be at least 1, not 0"),
    ]:
        out = tarock("serve", *args)
        assert out.returncode == 2 and one_line(out.stderr) == f"tarock: {said}"


def test_bad_usage_exits_2_with_one_line() -> None:
    for args, said in [
        (["play", "breitnau", "--human", "9"], "tarock: --human 9: no such playing seat"),
        (["play", "breitnau", "--option", "solo_factor"], "tarock: --option takes NAME=CHOICE, not 'solo_factor'"),
        (["play", "breitnua"], "breitnua: no ruleset named 'breitnua'; did you mean 'breitnau'?"),
    ]:
        out = tarock(*args)
        assert out.returncode == 2 and one_line(out.stderr) == said, out


def test_an_unexpected_fault_is_one_line_and_exit_1(monkeypatch: pytest.MonkeyPatch) -> None:
    import interpreter.frontends.cli as cli

    def broken(args: object) -> int:
        raise KeyError("oops")

    monkeypatch.setattr(cli, "cmd_list", broken)
    monkeypatch.delenv("TAROCK_DEBUG", raising=False)
    out = tarock("list")
    assert out.returncode == 1
    assert one_line(out.stderr).startswith("tarock: internal error: KeyError: 'oops' (please report it")


# -- the process itself ----------------------------------------------------------------------------


def test_the_console_script_is_the_command_line() -> None:
    """pyproject.toml's `tarock` names the function the tests run, and the installed script (where
    this environment has one) runs it: no command is bad usage, exit status 2."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    module, _, function = scripts["tarock"].partition(":")
    from interpreter.frontends.cli import main

    assert getattr(importlib.import_module(module), function) is main
    script = Path(sys.executable).parent / "tarock"
    if not script.exists():
        pytest.skip("the package is not installed in this environment")
    out = subprocess.run([str(script)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    if "No module named 'interpreter.cli'" in out.stderr:
        pytest.skip("installed from an older pyproject.toml: reinstall (pip install -e .)")
    assert out.returncode == 2 and "examples:" in out.stdout, out.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line_and_exit_2() -> None:
    with open("/dev/full", "w") as full:
        out = subprocess.run(
            [sys.executable, "-m", "interpreter", "list"], cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert out.returncode == 2
    assert one_line(out.stderr) == "tarock: cannot write the output: No space left on device"


@pytest.mark.skipif(os.name != "posix", reason="closes a file descriptor")
def test_a_closed_descriptor_is_seen_as_a_closed_input() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "interpreter", "serve"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        preexec_fn=lambda: os.close(0),
        timeout=120,
    )
    assert out.returncode == 2
    assert one_line(out.stderr) == "tarock: standard input is closed: `tarock serve` reads its requests there"


def test_version_names_the_version_and_where_the_package_is() -> None:
    import interpreter

    out = tarock("--version")
    package = Path(interpreter.__file__).resolve().parent
    assert out.returncode == 0 and out.stderr == ""
    assert out.stdout.startswith(f"tarock {interpreter.__version__} from {package} (Python 3.")
    # pyproject.toml takes the distribution's version from the package: one place to change it.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "interpreter.__version__"}


def test_ctrl_c_while_the_parser_is_built_is_said_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Building the parser reads the rulesets' names (a lookup of files): a Ctrl-C then is said as
    at any other moment, 'tarock: interrupted' and status 130, not a traceback."""
    from interpreter.frontends import cli

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["list"]) == 130
    assert capsys.readouterr().err.strip() == "tarock: interrupted"
