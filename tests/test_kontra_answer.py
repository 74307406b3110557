"""A doubling answered at once (`kontra.answer: at_once`), held to its words: after a double the
turn goes straight to the other side's first seat that may double again, seats with nothing to
say are passed over, the chain ends at the first no and closes the item, and then the round goes
on where it was. Dreierles' reading `knock_answer: at_once` is the known ruleset that uses it; the
default (`round`) is the round in which everybody speaks in turn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from interpreter import Game
from interpreter.bots.randombot import RandomBot
from interpreter.errors import IllegalActionError

RECORDS = Path(__file__).parent / "records"
AT_ONCE = {"knocks": "four", "knock_answer": "at_once"}
ROUND = {"knocks": "four"}
KNOCK = {"kontra": "game"}


def _after_fertig(options: dict[str, str]) -> Game:
    """A weg (seat 1, Vorhand), B Dreier (seat 2), C Zweier (seat 0, the dealer): C declares and
    says fertig. B bid and may knock; A could have bid Dreier and passed, so A may not. The order
    of speaking from the declarer is C, A, B: A sits between the declarer and B."""
    game = Game("dreierles", players=3, dealer=0, seed=3, options=options)
    for seat, call in [(1, "pass"), (2, "dreier"), (0, "zweier")]:
        game.apply(seat, call)
    while game.phase.value == "auction":
        game.apply(game.to_act, "pass")
    assert game.declarer == 0
    while game.phase.value == "exchange":
        action = game.legal_actions()[0]
        assert isinstance(action, dict)
        if isinstance(action["discard"], dict):  # a template: too many choices to list
            action = {"discard": action["discard"]["from"][: action["discard"]["count"]]}
        game.apply(0, action)
    game.apply(0, "fertig")
    assert game.legal_actions(1) == ["fertig"]  # A may not knock
    game.apply(1, "fertig")
    return game


def test_a_knock_is_answered_at_once_and_a_seat_that_may_not_knock_is_passed_over() -> None:
    game = _after_fertig(AT_ONCE)
    game.apply(2, KNOCK)  # B knocks: the declarer answers at once
    assert game.to_act == 0
    assert game.legal_actions(0) == ["fertig", KNOCK]  # knock back, or no; nothing else
    with pytest.raises(IllegalActionError, match=r"answer the doubling of game: double it again \(\{kontra: game\}\)"):
        game.apply(0, {"announce": "pfeife_raus"})
    game.apply(0, KNOCK)
    # The opponents' first seat after the declarer is A, who may not knock: B answers.
    assert game.to_act == 2
    assert game.legal_actions(1) == []
    game.apply(2, KNOCK)
    assert game.to_act == 0
    game.apply(0, KNOCK)  # the fourth knock, the limit of the option: back to B's turn of the round
    assert game.to_act == 2
    assert game.legal_actions(2) == ["fertig"]
    titles = [e["title"] for e in game.events if e["type"] == "kontra"]
    assert titles == ["Klopfen", "Zurückklopfen", "Klopfen", "Zurückklopfen"]
    assert game.view(1)["kontra"] == {"game": 4}


def test_the_first_no_ends_the_chain_and_closes_the_game_to_knocking() -> None:
    game = _after_fertig(AT_ONCE)
    game.apply(2, KNOCK)
    game.apply(0, "fertig")  # the declarer does not knock back: the knocking is over
    assert game.to_act == 2  # B's turn of the round goes on
    assert game.legal_actions(2) == ["fertig"]
    game.apply(2, "fertig")
    for seat in (0, 1):  # the round ends as a round does: everybody spoke, the last two said nothing
        assert game.legal_actions(seat) == ["fertig"]
        game.apply(seat, "fertig")
    assert game.phase.value == "play"
    assert game.view(1)["kontra"] == {"game": 1}


def test_in_the_round_the_declarer_answers_when_the_round_comes_back() -> None:
    """The same knocks without the word: the declarer's knock back waits for B's fertig, and B's
    not answering it at once closes nothing: B knocks again in B's next turn."""
    game = _after_fertig(ROUND)
    game.apply(2, KNOCK)
    assert game.to_act == 2
    with pytest.raises(IllegalActionError):
        game.apply(0, KNOCK)
    game.apply(2, "fertig")
    game.apply(0, KNOCK)
    game.apply(0, "fertig")
    game.apply(1, "fertig")
    assert KNOCK in game.legal_actions(2)


def test_at_once_a_knock_back_left_unanswered_closes_the_game() -> None:
    game = _after_fertig(AT_ONCE)
    game.apply(2, KNOCK)
    game.apply(0, KNOCK)
    assert game.to_act == 2
    game.apply(2, "fertig")  # B does not knock again: the chain is over
    assert game.to_act == 2  # B's own turn of the round, with nothing left to knock
    assert game.legal_actions(2) == ["fertig"]
    assert game.view(1)["kontra"] == {"game": 2}


def test_the_record_is_refused_in_the_round() -> None:
    """dreierles-knock-answered-at-once: B's knock back straight after C's knock is no action of
    the round, where C's turn goes on."""
    record: dict[str, Any] = yaml.safe_load((RECORDS / "dreierles-knock-answered-at-once.yaml").read_text())
    assert record["options"] == AT_ONCE
    game = Game("dreierles", players=3, dealer=0, deal=record["deal"], options=ROUND)
    actions = [tuple(a) for a in record["actions"]]
    knock_back = actions.index((2, KNOCK))
    for seat, action in actions[:knock_back]:
        game.apply(seat, action)
    with pytest.raises(IllegalActionError, match="it is seat 0's turn, not seat 2's"):
        game.apply(2, KNOCK)


VARIANT = """\
title: A variant
extends: {base}
source: "{source}"
status: assumed
"""


@pytest.mark.parametrize(
    "base, source, rules, place, message",
    [
        (
            "dreierles",
            "pagat-dreierles: §8",
            "kontra: {answer: at_one}",
            "kontra.answer",
            "at_once",
        ),
        (
            "koenigrufen",
            "pagat-koenig: §9",
            "kontra: {answer: at_once}",
            "kontra.answer",
            "calls a partner by a card: use `answer: round`",
        ),
        (
            "dreierles",
            "pagat-dreierles: §8",
            'kontra: {answer: at_once, game: {eligible: "T21 in hand"}}',
            "kontra.game.eligible",
            "which would show what `T21 in hand` reads of their hands",
        ),
        (
            "dreierles",
            "pagat-dreierles: §8",
            "kontra: {game: {max: unlimited}}\noptions: {knocks: null, tournament: null}",
            "kontra.game.max",
            "`none`: no fixed number",
        ),
    ],
)
def test_a_doubling_answered_at_once_is_refused_where_it_cannot_work(
    tmp_path: Any, base: str, source: str, rules: str, place: str, message: str
) -> None:
    from interpreter.language.loader import check_ruleset

    file = tmp_path / "variant.yaml"
    file.write_text(VARIANT.format(base=base, source=source) + rules + "\n", encoding="utf-8")
    problems = check_ruleset(str(file))
    assert any(p.path.startswith(place) and message in p.message and p.line for p in problems), [
        str(p) for p in problems
    ]


# -- no fixed limit (`max: none`): each player doubles an item at most once ---------------------

UNLIMITED = str(Path(__file__).parent / "rulesets" / "dreierles-knocking-unlimited.yaml")


def test_without_a_limit_a_seat_that_has_knocked_is_passed_over_and_may_not_knock_again() -> None:
    game = Game(UNLIMITED, players=3, dealer=0, seed=3)
    for seat, call in [(1, "dreier"), (2, "zweier"), (0, "pass")]:  # both opponents may knock
        game.apply(seat, call)
    while game.phase.value == "auction":
        game.apply(game.to_act, "pass")
    assert game.declarer == 2
    while game.phase.value == "exchange":
        action = game.legal_actions()[0]
        assert isinstance(action, dict)
        if isinstance(action["discard"], dict):
            action = {"discard": action["discard"]["from"][: action["discard"]["count"]]}
        game.apply(2, action)
    game.apply(2, "fertig")
    game.apply(0, KNOCK)
    game.apply(2, KNOCK)  # answered at once
    assert game.to_act == 1  # C has knocked: the opponents' answer is A's
    game.apply(1, KNOCK)  # the third knock, beyond the shipped limit of two
    assert game.to_act == 0  # the declarer has knocked: nobody answers, C's turn goes on
    assert game.legal_actions(0) == ["fertig"]
    with pytest.raises(IllegalActionError, match="each player doubles it at most once"):
        game.apply(0, KNOCK)
    assert game.view(0)["kontra"] == {"game": 3}


def _always_doubling(game: Game, seat: int, bot: RandomBot) -> Any:
    """A player who doubles whatever may be doubled, and else plays at random."""
    doubles = [a for a in game.legal_actions(seat) if isinstance(a, dict) and "kontra" in a]
    return doubles[0] if doubles else bot.choose(game, seat)


KOENIGRUFEN_UNLIMITED = """\
title: Königrufen, doubling without a fixed limit
extends: koenigrufen
source: "pagat-koenig: §9"
status: assumed
kontra: {game: {max: none, titles: [Kontra]}, bonuses: {max: none, titles: [Kontra]}}
options: {kontra_chain: null}
"""


@pytest.mark.parametrize("variant", ["dreierles", "koenigrufen"])
def test_without_a_limit_players_who_always_double_still_end_the_deal(tmp_path: Any, variant: str) -> None:
    """Answered at once (the Dreierles table) and in the round (Königrufen, whose partner is
    secret): players who double whenever they may end every deal, each item doubled at most once
    per player."""
    if variant == "dreierles":
        ref, players = UNLIMITED, 3
    else:
        file = tmp_path / "koenigrufen-unlimited.yaml"
        file.write_text(KOENIGRUFEN_UNLIMITED, encoding="utf-8")
        ref, players = str(file), 4
    bot = RandomBot(7)
    doubled = 0
    for seed in range(60):
        game = Game(ref, players=players, dealer=seed % players, seed=seed)
        for _ in range(2000):
            if game.is_over:
                break
            seat = game.to_act
            assert seat is not None
            game.apply(seat, _always_doubling(game, seat, bot))
        assert game.is_over, f"seed {seed}: the deal did not end"
        levels = [e["level"] for e in game.events if e["type"] == "kontra"]
        assert all(level <= players for level in levels)
        doubled += bool(levels)
    assert doubled > 0


def test_at_once_in_500_random_deals_each_knock_is_answered_by_the_other_side_and_a_no_ends_the_knocking() -> None:
    """Random players at the Dreierles table with the reading at_once and up to four knocks: after
    a knock below the limit the other side acts next and may only knock again or say fertig (an
    opponent's knock goes to the declarer, who bid and may always knock); once such an answer is
    fertig, nobody knocks again in that deal; the levels count 1, 2, … up to the limit."""
    bot = RandomBot(11, pass_probability=0.6)
    chains = ended_by_no = 0
    for seed in range(500):
        game = Game("dreierles", players=3, dealer=seed % 3, seed=seed, options=AT_ONCE)
        answering = False  # the seat to act answers a knock
        closed = False  # a knock was answered with fertig
        levels: list[int] = []
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            if game.phase.value != "auction" and game.declarer is None:
                break  # a Räuber: everyone knocks once for themselves, no chain
            legal = game.legal_actions(seat)
            if answering:
                assert legal == ["fertig", KNOCK], (seed, seat, legal)
            elif closed:
                assert KNOCK not in legal, (seed, seat)
            action = bot.choose(game, seat)
            game.apply(seat, action)
            if action == KNOCK:
                levels.append(len(levels) + 1)
                if len(levels) < 4:
                    chains += 1
                    answering = True
                    # the declarer's knock goes to an opponent, an opponent's to the declarer
                    assert (game.to_act == game.declarer) != (seat == game.declarer), (seed, seat, game.to_act)
                else:
                    answering = False
            elif answering:
                answering, closed = False, True
                ended_by_no += 1
        if game.declarer is not None:
            kontra = [e["level"] for e in game.events if e["type"] == "kontra" and e["item"] == "game"]
            assert kontra == levels and len(levels) <= 4
    assert chains > 200 and ended_by_no > 100, (chains, ended_by_no)  # the deals did exercise the chain
