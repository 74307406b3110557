"""The terminal game as a card player meets it: choices in the game's words, cards by id or name,
refusals with the reason, help / rules / score / quit, sessions with a running score, and the
defaults a player expects."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import RandomBot
from interpreter.bots.rulebot import RuleBot
from interpreter.errors import IllegalActionError
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


# -- issue 31: partner games, several cards at once, speaking out of turn, the last trick --------


def _screen_of(seat: int, seed: int = 1) -> str:
    """What the person at `seat` of a Königrufen table (seed 1: seat 1 plays a Rufer and calls
    the King of clubs, which seat 2 holds) reads when always taking the first choice."""
    game = Game(load_ruleset("koenigrufen"), players=4, seed=seed)
    screen = io.StringIO()
    HumanPlayer(game, stdin=FirstChoice(screen), stdout=screen).run({seat}, RuleBot())
    return screen.getvalue()


def test_a_partner_game_in_the_game_s_words_and_each_seat_told_its_side() -> None:
    """Königrufen seed 1: seat 1 calls the King of clubs; the talon is laid out in two halves of
    three (the first three cards as dealt, then the next three: SJ T21 D3 | H3 S9 T11, from the
    deal's record); seat 2 holds the King. Each seat reads what its own hand tells it, and no
    other seat reads it."""
    game = Game(load_ruleset("koenigrufen"), players=4, seed=1)
    assert game.record()["deal"]["talon"] == ["SJ", "T21", "D3", "H3", "S9", "T11"]
    assert "CK" in game.hands[2]
    screens = {seat: _screen_of(seat) for seat in (0, 2, 3)}
    for seat, screen in screens.items():
        assert "Partner: seat 1 calls König ♣ (CK); its holder plays with seat 1." in screen
        assert "first half: T 21 | ♠ J | ♦ 3; second half: T 11 | ♠ 9 | ♥ 3" in screen
        assert "(declarer: seat 1 · partner: " in screen and "lone player" not in screen
        holder = "You hold König ♣, the card seat 1 called: you are seat 1's partner."
        assert (holder in screen) == (seat == 2), seat
        assert ("You do not hold König ♣: you play against seat 1 and its holder." in screen) == (seat != 2)
    assert "(declarer: seat 1 · partner: you)" in screens[2]
    # Once the King is played, everybody knows the sides.
    assert "seat 1 and seat 2 play together. You play against them." in screens[0]


def test_the_declarer_chooses_a_half_of_the_talon_by_its_cards() -> None:
    game = Game(load_ruleset("koenigrufen"), players=4, seed=1)
    bot = RuleBot()
    while not any(isinstance(a, dict) and "choose" in a for a in game.legal_actions()):
        seat = game.to_act
        assert seat is not None
        game.apply(seat, bot.choose(game, seat))
    screen = io.StringIO()
    action = HumanPlayer(game, stdin=io.StringIO("2\n"), stdout=screen).ask(1)
    assert action == {"choose": "second"}
    out = screen.getvalue()
    assert "1. take the first half: T21 (Mond), SJ (Bube ♠), D3 (3 ♦)" in out
    assert "2. take the second half: T11, S9 (9 ♠), H3 (3 ♥)" in out
    assert "(declarer: you · partner: the holder of König ♣)" in out


def test_bonuses_and_kontras_are_offered_by_their_titles() -> None:
    """Königrufen's announcements are its bonuses (`König ultimo`, not koenig_ultimo); a kontra
    says which step of the chain it is and on what (`Kontra`, `Rekontra on Trull`)."""
    rs = load_ruleset("koenigrufen")
    person = HumanPlayer(Game(rs, players=4, seed=1), stdin=io.StringIO(""), stdout=io.StringIO())
    assert person._label({"announce": "koenig_ultimo", "cards": []}) == "announce König ultimo"
    view = {"contract": "rufer", "kontra": {"trull": 1}}
    assert person._label({"kontra": "game"}, view=view) == "Kontra"
    assert person._label({"kontra": "trull"}, view=view) == "Rekontra on Trull"
    dreierles = HumanPlayer(Game(load_ruleset("dreierles"), players=4, seed=1), stdin=io.StringIO(""))
    assert dreierles._label({"kontra": "game"}, view={"contract": "dreier"}) == "Klopfen"


def _card_choices(name: str, seeds: int = 60, random: bool = False) -> list[tuple[Game, int, list[Any]]]:
    """Deals of `name` played by the rule bot (or a random one) up to a choice of several cards."""
    found = []
    rs = load_ruleset(name)
    for seed in range(seeds):
        bot = RandomBot(seed) if random else RuleBot()
        game = Game(rs, players=rs.usual_table, seed=seed)
        while (seat := game.to_act) is not None:
            legal = game.legal_actions(seat)
            if any(isinstance(a, dict) and ("discard" in a or "keep" in a) for a in legal):
                found.append((game, seat, legal))
                break
            game.apply(seat, bot.choose(game, seat))
    return found


@pytest.mark.parametrize(("name", "players"), [("cego", 4), ("koenigrufen", 4), ("breitnau", 6), ("tapp", 3)])
def test_several_cards_are_named_by_their_ids_however_many_the_combinations(name: str, players: int) -> None:
    """Cego keeps two (55 combinations listed), Königrufen puts three aside (20), Breitnau twelve
    (a template): the person names the cards (`T19 T22`, `SQ D4 CJ`, `H3`) and never reads a
    line per combination."""
    choices = _card_choices(name)
    assert choices, f"no choice of several cards in {name}"
    kinds = set()
    for game, seat, legal in choices[:12]:
        (kind,) = {k for a in legal for k in a}
        listed = [a[kind] for a in legal if isinstance(a[kind], list)]
        if listed:
            wanted = listed[-1]
        else:
            template = legal[0][kind]
            allowed = [c for c in template["from"] if c not in template.get("forbidden", [])]
            wanted = allowed[: template["count"]]
        screen = io.StringIO()
        person = HumanPlayer(game, stdin=io.StringIO(" ".join(wanted) + "\n"), stdout=screen)
        action = person.ask(seat)
        assert sorted(action[kind]) == sorted(wanted)
        game.apply(seat, action)  # the engine takes it
        out = screen.getvalue()
        assert "type their numbers or names" in out
        assert "put aside " + wanted[0] not in out and "keep " + wanted[0] not in out  # no line per combination
        numbered = [line for line in out.splitlines() if line[:6].strip().rstrip(".").isdigit()]
        assert len(numbered) <= len(game.view(seat)["hand"]) + len(wanted)  # a line per card at most
        kinds.add((kind, len(wanted), bool(listed)))
    assert kinds


def _random_deal_until(name: str, wanted: Any) -> tuple[Game, int, list[Any]]:
    """A deal of `name` among random bots up to a choice `wanted(legal)` says is the one."""
    rs = load_ruleset(name)
    for seed in range(200):
        game, bot = Game(rs, players=rs.usual_table, seed=seed), RandomBot(seed)
        while (seat := game.to_act) is not None:
            legal = game.legal_actions(seat)
            if wanted(legal):
                return game, seat, legal
            game.apply(seat, bot.choose(game, seat))
    raise AssertionError(f"no such choice in 200 deals of {name}")


def _listed(legal: list[Any], kind: str) -> list[list[str]]:
    return [a[kind] for a in legal if isinstance(a, dict) and isinstance(a.get(kind), list)]


def test_a_single_card_is_named_too_and_a_set_the_rules_do_not_allow_is_refused_with_the_reason() -> None:
    game, seat, legal = _random_deal_until("cego", lambda la: any(len(s) == 1 for s in _listed(la, "discard")))
    card = _listed(legal, "discard")[-1][0]  # `h3`, as typed
    screen = io.StringIO()
    assert HumanPlayer(game, stdin=io.StringIO(f"{card.lower()}\n"), stdout=screen).ask(seat) == {"discard": [card]}
    # Cego's Zwei Leere keeps two empty cards of one suit: fewer sets than pairs of the cards offered.
    game, seat, legal = _random_deal_until("cego", lambda la: 1 < len(_listed(la, "keep")) < 6)
    keep = {frozenset(s) for s in _listed(legal, "keep")}
    offered = sorted(set().union(*keep))
    wrong = next([a, b] for a in offered for b in offered if a < b and frozenset((a, b)) not in keep)
    screen = io.StringIO()
    person = HumanPlayer(game, stdin=io.StringIO(" ".join(wrong) + "\n"), stdout=screen)
    with pytest.raises(IllegalActionError):  # the engine says why not; `run` asks the person again
        game.apply(seat, person.ask(seat))


def test_a_seat_may_interrupt_the_auction_or_wait() -> None:
    """Cego seed 0: while seat 2 is to call, seat 0 may break in with a Piccolo or a Bettel. The
    person is told so, and an empty line (or `wait`) lets the bidding go on."""
    game = Game(load_ruleset("cego"), players=4, seed=0)
    bot = RuleBot()
    while game.to_act != 2 or not game.legal_actions(0):
        seat = game.to_act
        assert seat is not None and game.phase.value == "auction"
        game.apply(seat, bot.choose(game, seat))
    for typed, expected in (("\n", None), ("wait\n", None), ("2\n", (0, "bettel")), ("piccolo\n", (0, "piccolo"))):
        screen = io.StringIO()
        assert HumanPlayer(game, stdin=io.StringIO(typed), stdout=screen)._interrupt({0}, 2) == expected
        assert "it is seat 2's turn; you may interrupt now, or wait" in screen.getvalue()
        assert "0. wait (press Enter): let the bidding go on" in screen.getvalue()


def test_the_last_trick_and_the_tricks_taken_so_far() -> None:
    game = Game(load_ruleset("cego"), players=4, seed=3)
    bot = RuleBot()
    while sum(1 for t in game.view(0)["tricks"] if t["winner"] is not None) < 2:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, bot.choose(game, seat))
    seat = game.to_act
    assert seat is not None
    trick = [t for t in game.view(seat)["tricks"] if t["winner"] is not None][-1]
    screen = io.StringIO()
    HumanPlayer(game, stdin=io.StringIO("last\n1\n"), stdout=screen).ask(seat)
    out = screen.getvalue()
    assert f"last trick (2): seat {trick['seats'][0]} " in out and f"→ seat {trick['winner']}" in out
    assert "Taken so far: " in out


@pytest.mark.parametrize("typed", ["dapp_first", "dapp first", "Deal Dapp First", "choose dapp_first", "2"])
def test_the_dealer_names_the_deal_plan_in_the_words_shown(typed: str) -> None:
    """The dealer's choice of how to deal is offered as 'deal dapp first: 6 to the talon, …':
    the person may type its number, its name (with `_` or a space) or the label's words."""
    game = Game(load_ruleset("furtwangen"), players=6, seed=3)
    screen = io.StringIO()
    person = HumanPlayer(game, stdin=io.StringIO(f"{typed}\n" + "1\n" * 60), stdout=screen)
    person.run({0}, RuleBot())
    assert game.deal_plan == "dapp_first", screen.getvalue()[-400:]
    assert "is not among them" not in screen.getvalue().split("chooses to deal")[0]
