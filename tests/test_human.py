"""The terminal game as a card player meets it: choices in the game's words, cards by id or name,
refusals with the reason, help / rules / score / quit, sessions with a running score, and the
defaults a player expects."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import RandomBot
from interpreter.bots.rulebot import RuleBot
from interpreter.frontends.cli import main
from interpreter.frontends.human import HumanPlayer, QuitGame


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str, stdin: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(list(argv))
    return status, capsys.readouterr().out


class FirstChoice(io.StringIO):
    """A person who reads the screen and always takes the first choice: `1`, or for a question
    of several cards (put 12 aside, keep 2) the first as many as it asks for."""

    def __init__(self, screen: io.StringIO):
        super().__init__()
        self.screen = screen
        self.lines = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        asked = self.screen.getvalue()
        self.lines += 1
        assert self.lines < 500, "the deal did not end"
        task = re.findall(r"(?:put|keep) (\d+) cards?", asked[asked.rfind("Seat ") :])
        if task and asked.rstrip().endswith(">") and "type their numbers" in asked[asked.rfind("Seat ") :]:
            return " ".join(str(n) for n in range(1, int(task[-1]) + 1)) + "\n"
        return "1\n"


@pytest.mark.parametrize("name", ["cego", "furtwangen", "tapp-modern"])
@pytest.mark.parametrize("seed", range(4))
def test_a_person_plays_to_the_end_by_always_taking_the_first_choice(name: str, seed: int) -> None:
    ruleset = load_ruleset(name)
    game = Game(ruleset, players=ruleset.usual_table, seed=seed)
    screen = io.StringIO()
    HumanPlayer(game, stdin=FirstChoice(screen), stdout=screen).run({1}, RuleBot())
    out = screen.getvalue()
    assert game.is_over
    assert "Result:" in out and "Payments:" in out
    assert "{'" not in out and '{"' not in out  # no protocol internals on the screen


def test_defaults_are_the_usual_table_and_the_rule_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "cego", "--seed", "1"]) == 0
    assert "4 at the table" in capsys.readouterr().out
    assert main(["play", "breitnau", "--seed", "1"]) == 0
    assert "6 at the table" in capsys.readouterr().out
    assert main(["play", "cego", "--seed", "1", "--bot", "random", "--players", "3"]) == 0
    assert "3 at the table" in capsys.readouterr().out


def test_the_log_has_a_legend_and_labelled_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "furtwangen", "--seed", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("Cards: suit letter then rank") and "T22 Gstieß" in out[1]
    assert sum("Cards: suit letter" in line for line in out) == 1
    assert any(line.startswith("Result:") for line in out) and out[-1].startswith("Payments:")


def test_an_illegal_card_is_refused_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(load_ruleset("cego"), players=4, seed=5)
    bot = RuleBot()
    while game.phase.value != "play" or len(game.legal_actions()) == len(game.hands[game.to_act or 0]):
        seat = game.to_act
        assert seat is not None
        game.apply(seat, bot.choose(game, seat))
    seat = game.to_act
    assert seat is not None
    legal = {a["play"] for a in game.legal_actions(seat)}  # type: ignore[index]
    wrong = next(c for c in game.hands[seat] if c not in legal)
    screen = io.StringIO()
    person = HumanPlayer(game, stdin=io.StringIO(f"{wrong}\n" + "1\n" * 40), stdout=screen)
    person.run({seat}, bot)
    said = screen.getvalue()
    assert "refused: " in said
    refusal = next(line for line in said.splitlines() if "refused:" in line)
    assert len(refusal) > len("  refused: ") + 10  # a reason, not just "no"


def test_help_rules_score_and_quit(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "left.yaml"
    status, out = run(
        capsys,
        monkeypatch,
        "play", "cego", "--seed", "2", "--human", "1", "--record", str(record),
        stdin="help\nrules\nscore\nhand\nquit\n",
    )  # fmt: skip
    assert status == 0
    assert "help (this)" in out
    assert "Players:" in out and "Bidding" in out  # the summary of the variant
    assert "no deal of this session is finished yet" in out
    assert "your hand:" in out
    assert f"the record of the deal so far is in {record}" in out
    assert main(["replay", str(record)]) == 0


def test_a_session_keeps_a_running_score(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "cego", "--seed", "4", "--deals", "3"]) == 0
    out = capsys.readouterr().out
    assert "Score after 1 of 3 deals" in out and "Score after 3 of 3 deals" in out
    assert "dealer seat 0" in out and "dealer seat 1" in out and "dealer seat 2" in out


def test_choices_are_named_in_the_game_s_words() -> None:
    """Tapp's trump choice reads "♣ clubs are trumps", not {'choose': 'clubs'}."""
    for seed in range(300):
        game = Game(load_ruleset("tapp"), players=3, seed=seed)
        bot = RandomBot(seed)
        person = HumanPlayer(game, stdin=io.StringIO(""), stdout=io.StringIO())
        while (seat := game.to_act) is not None:
            legal = game.legal_actions(seat)
            if any(isinstance(a, dict) and "choose" in a for a in legal):
                labels = [person._label(a, legal) for a in legal]
                assert "♣ clubs are trumps" in labels or "♠ spades are trumps" in labels, labels
                assert not any("{" in label for label in labels)
                return
            game.apply(seat, bot.choose(game, seat))
    raise AssertionError("no trump choice in 300 deals")


def test_quit_is_an_exception_the_command_catches() -> None:
    game = Game(load_ruleset("cego"), players=4, seed=1)
    person = HumanPlayer(game, stdin=io.StringIO("quit\n"), stdout=io.StringIO())
    with pytest.raises(QuitGame):
        person.ask(game.to_act or 0)
