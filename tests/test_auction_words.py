"""The auction's words of issue 30 (item 7), each played against a deal worked out by hand:
payments on a deal the auction throws in (`auction.thrown_in`), and a hand that throws the deal
in as dealt (`auction.redeal`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.engine.auction import throw_in_payments
from interpreter.errors import IllegalActionError
from interpreter.language.loader import check_ruleset

RECORDS = Path(__file__).parent / "records"

TAPP_HANDS = {
    "hands": [
        ["DJ", "S10", "DA", "HQ", "S7", "C7", "C10", "H7", "C8", "H10", "S8"],
        ["SJ", "D8", "HK", "D6", "HA", "CQ", "C9", "SA", "S6", "SQ", "CA"],
        ["H6", "D10", "S9", "D7", "C6", "SK", "D9", "DK", "CK", "CJ", "DQ"],
    ],
    "talon": ["H8", "H9", "HJ"],
}


def _problems(tmp_path: Path, text: str) -> list[str]:
    file = tmp_path / "variant.yaml"
    file.write_text(text, encoding="utf-8")
    return [f"{p.path}: {p.message}" for p in check_ruleset(str(file))]


def _all_pass(game: Game) -> Game:
    while not game.is_over:
        assert game.to_act is not None
        game.apply(game.to_act, "pass")
    return game


# -- payments on a throw-in ---------------------------------------------------------------------


def test_without_the_word_a_throw_in_costs_only_the_dealers_ante(tmp_path: Path) -> None:
    # The deal of tests/records/tapp-wuerttemberg-thrown-in-pays-the-pot.yaml at the same table
    # without `thrown_in`: only the dealer's ante of 2 goes into the pot.
    fixture = (Path(__file__).parent / "rulesets" / "tapp-thrown-in-pot.yaml").read_text("utf-8")
    assert "\nauction:\n" in fixture
    (tmp_path / "no-word.yaml").write_text(fixture.split("\nauction:\n")[0] + "\n", encoding="utf-8")
    ruleset = str(tmp_path / "no-word.yaml")
    game = _all_pass(Game(ruleset, 3, 0, deal=TAPP_HANDS, options={"solo_trumps": "hearts"}, pot=10))
    assert game.result is not None and game.result.outcome == "thrown_in"
    assert (game.result.payments, game.result.pot) == ([-2, 0, 0], 2)


def test_with_the_word_each_player_pays_into_the_pot() -> None:
    rs = load_ruleset(str(Path(__file__).parent / "rulesets" / "tapp-thrown-in-pot.yaml"))
    game = _all_pass(Game(rs, 3, 0, deal=TAPP_HANDS, pot=10))
    assert game.result is not None and game.result.outcome == "thrown_in"
    # 2 + 1 from the dealer, 1 from each other player: see the record.
    assert (game.result.payments, game.result.pot) == ([-3, -1, -1], 5)


def test_the_dealer_pays_each_other_player_when_everybody_passes(tmp_path: Path) -> None:
    file = tmp_path / "dealer-pays.yaml"
    file.write_text(
        "title: Breitnau, the dealer pays a throw-in (a test)\nextends: breitnau\nstatus: assumed\n"
        'auction:\n  thrown_in: {payer: dealer, pays: "players - 4", to: others}\n',
        encoding="utf-8",
    )
    game = _all_pass(Game(load_ruleset(str(file)), 6, 2, seed=11))
    assert game.result is not None and game.result.outcome == "thrown_in"
    # Six players: the dealer, seat 2, pays 6 - 4 = 2 to each of the five others.
    assert game.result.payments == [2, 2, -10, 2, 2, 2] and game.result.pot == 0


def test_the_caller_pays_and_nobody_does_when_everybody_passed(tmp_path: Path) -> None:
    file = tmp_path / "caller-pays.yaml"
    file.write_text(
        "title: Breitnau, a caller pays (a test)\nextends: breitnau\nstatus: assumed\n"
        'auction:\n  thrown_in: {payer: caller, pays: "3", to: others}\n',
        encoding="utf-8",
    )
    rule = load_ruleset(str(file)).thrown_in
    assert rule is not None
    # Four seats, seat 0 deals and sits out; seat 2's call threw the deal in: it pays 3 to 1 and 3.
    assert throw_in_payments(rule, [1, 2, 3], 4, 0, 2, None) == ([0, 3, -6, 3], 0)
    assert throw_in_payments(rule, [1, 2, 3], 4, 0, None, None) == ([0, 0, 0, 0], 0)


def test_a_pot_pays_out_no_more_than_it_holds(tmp_path: Path) -> None:
    file = tmp_path / "pot-pays.yaml"
    file.write_text(
        "title: A pot that pays on a throw-in (a test)\nextends: tapp-wuerttemberg\nstatus: assumed\n"
        'options: {pot: null}\npot_ante: "0"\nauction:\n  thrown_in: {payer: each, pays: "0 - 5", to: pot}\n',
        encoding="utf-8",
    )
    game = _all_pass(Game(load_ruleset(str(file)), 3, 0, deal=TAPP_HANDS, pot=1))
    assert game.result is not None
    # Each would take 5 out of a pot of 1: the seats in order of play from Vorhand (1, 2, 0) take
    # what is left, so seat 1 takes the 1 and the others nothing; the pot is empty.
    assert (game.result.payments, game.result.pot) == ([0, 1, 0], -1)


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (
            '{payer: each, pays: "1", to: others}',
            "auction.thrown_in.to: each player paying each other player changes nothing: write `to: pot`",
        ),
        (
            '{payer: dealer, pays: "1"}',
            "auction.thrown_in.to: the table keeps no pot to pay into: keep one (`pot_ante`, or `session.pot`), "
            "or pay each other player (`to: others`)",
        ),
        ('{payer: dealer, pays: "tricks", to: others}', "auction.thrown_in.pays: "),
    ],
)
def test_a_wrong_throw_in_payment_names_its_place_and_the_fix(tmp_path: Path, rule: str, message: str) -> None:
    text = f"title: A wrong payment\nextends: breitnau\nstatus: assumed\nauction:\n  thrown_in: {rule}\n"
    problems = _problems(tmp_path, text)
    assert len(problems) == 1 and problems[0].startswith(message), problems


# -- a redeal when a dealt hand meets a condition -------------------------------------------------

REDEAL_TABLE = Path(__file__).parent / "rulesets" / "breitnau-redeal-few-trumps.yaml"
BREITNAU_HANDS = [
    ["T9", "T1", "CN", "C10", "SJ", "HQ", "DQ"],
    ["T20", "T18", "T12", "T2", "S8", "DK", "D4"],
    ["T10", "C9", "HJ", "H2", "DN", "DJ", "DA"],
    ["T21", "T8", "T3", "SK", "S9", "HN", "D2"],
    ["T16", "T11", "T7", "T6", "CQ", "CJ", "H3"],
    ["T22", "T17", "T5", "C8", "SQ", "H4", "D3"],
]
BREITNAU_TALON = ["T19", "T15", "T14", "T13", "T4", "CK", "C7", "SN", "S10", "S7", "HK", "HA"]


def _breitnau(hands: list[list[str]], ruleset: object = None) -> Game:
    rs = load_ruleset(str(REDEAL_TABLE)) if ruleset is None else ruleset
    return Game(rs, 6, 0, deal={"hands": hands, "talon": BREITNAU_TALON})  # type: ignore[arg-type]


def test_a_hand_with_too_few_trumps_throws_the_deal_in_before_anybody_bids() -> None:
    game = _breitnau(BREITNAU_HANDS)
    assert game.is_over and game.result is not None and game.result.outcome == "thrown_in"
    assert game.result.payments == [0] * 6 and game.result.reason == "fewer than two trumps"
    assert [e for e in game.events if e["type"] == "thrown_in"] == [
        {"type": "thrown_in", "seat": 2, "reason": "fewer than two trumps"}
    ]
    assert game.calls == []
    # Without the word the same deal is bid: Vorhand, seat 1, speaks.
    shipped = _breitnau(BREITNAU_HANDS, load_ruleset("breitnau"))
    assert not shipped.is_over and shipped.to_act == 1


def test_the_first_hand_in_order_of_play_from_vorhand_throws_the_deal_in() -> None:
    hands = [list(h) for h in BREITNAU_HANDS]
    # Seat 2 takes T21 and T8 from seat 3 (which keeps T3 alone); the dealer, seat 0, gives T1 to
    # Vorhand for S8 (keeping T9 alone). Seats 3 and 0 have one trump each; in order of play from
    # Vorhand (1, 2, 3, 4, 5, 0) seat 3 comes first.
    hands[2][1:3], hands[3][0:2] = ["T21", "T8"], ["C9", "HJ"]
    hands[0][1], hands[1][4] = "S8", "T1"
    game = _breitnau(hands)
    assert [e.get("seat") for e in game.events if e["type"] == "thrown_in"] == [3]


def test_a_seeded_deal_is_thrown_in_exactly_when_a_hand_has_fewer_than_two_trumps() -> None:
    rs = load_ruleset(str(REDEAL_TABLE))
    redealt = 0
    for seed in range(600):
        game = Game(rs, 6, seed % 6, seed=seed)
        # Trumps are the cards T1 to T22, counted from the hands as dealt without the engine's help.
        few = [s for s in game.seats if sum(c.startswith("T") for c in game.initial_hands[s]) < 2]
        assert game.is_over == bool(few), seed
        if few:
            redealt += 1
            assert [e.get("seat") for e in game.events if e["type"] == "thrown_in"] == [few[0]], seed
    assert 0 < redealt < 600  # both sides of the rule were met


def test_a_redeal_condition_naming_what_a_hand_cannot_tell_is_refused_at_its_place(tmp_path: Path) -> None:
    text = (
        "title: A wrong redeal\nextends: breitnau\nstatus: assumed\nauction:\n"
        '  redeal:\n    - {when: "count(hand & trumps) < 2 and bid_made"}\n'
    )
    [problem] = _problems(tmp_path, text)
    assert problem.startswith("auction.redeal[0].when: "), problem
    assert "bid_made" in problem


# -- a declarer named by a card held when everybody passed ----------------------------------------

GSTIESS_TABLE = Path(__file__).parent / "rulesets" / "breitnau-gstiess-must-dappen.yaml"


def _passed_twice(hands: list[list[str]], talon: list[str], ruleset: object = None) -> Game:
    rs = load_ruleset(str(GSTIESS_TABLE)) if ruleset is None else ruleset
    game = Game(rs, 6, 0, deal={"hands": hands, "talon": talon})  # type: ignore[arg-type]
    for _ in range(12):  # the Solo round and the Dappen round, Vorhand (seat 1) first
        assert game.to_act is not None
        game.apply(game.to_act, "pass")
    return game


def test_the_holder_of_the_gstiess_declares_when_everybody_passed_without_another_word() -> None:
    game = _passed_twice(BREITNAU_HANDS, BREITNAU_TALON)
    assert game.contract is not None and game.contract.name == "dappen"
    assert game.declarer == 5 and not game.is_over
    assert len(game.calls) == 12 and game.to_act == 5  # seat 5 takes the Dapp: nobody else spoke
    assert {"type": "contract", "contract": "dappen", "declarer": 5} in game.events
    # Without the word the same twelve passes throw the deal in (tests/records/breitnau-thrown-in.yaml).
    shipped = _passed_twice(BREITNAU_HANDS, BREITNAU_TALON, load_ruleset("breitnau"))
    assert shipped.result is not None and shipped.result.outcome == "thrown_in"


def test_a_card_in_the_talon_passes_the_game_to_the_holder_of_the_next_card() -> None:
    hands = [list(h) for h in BREITNAU_HANDS]
    talon = list(BREITNAU_TALON)
    hands[5][0], talon[0] = talon[0], hands[5][0]  # the Gstieß lies in the Dapp; seat 5 has T19
    game = _passed_twice(hands, talon)
    assert game.declarer == 3  # the Mond's holder
    hands[3][0], talon[1] = talon[1], hands[3][0]  # the Mond too: nobody holds a card named
    game = _passed_twice(hands, talon)
    assert game.result is not None and game.result.outcome == "thrown_in" and game.declarer is None
    assert [e for e in game.events if e["type"] == "thrown_in"] == [{"type": "thrown_in"}]


@pytest.mark.parametrize(
    ("base", "then", "message"),
    [
        (
            "breitnau",
            "{pass_out: throw_in, holder_of: [T22]}",
            "auction.phases.dappen_round.then.holder_of: the holder of a card declares the game played when "
            "everybody passes: write `pass_out: play`",
        ),
        (
            "breitnau",
            "{pass_out: play, play: dappen, holder_of: [T22, T23]}",
            "auction.phases.dappen_round.then.holder_of[1]: no card T23 in this pack",
        ),
        (
            "dreierles",
            "{pass_out: play, play: raeuber, holder_of: [T22]}",
            "auction.phases.bidding.then.holder_of: 'raeuber' is played everyone for themselves, with no "
            "declarer for the holder to be",
        ),
    ],
)
def test_a_wrong_holder_of_names_its_place_and_the_fix(tmp_path: Path, base: str, then: str, message: str) -> None:
    phase = "dappen_round" if base == "breitnau" else "bidding"
    text = f"title: A wrong holder\nextends: {base}\nstatus: assumed\nauction:\n  phases:\n    {phase}:\n      then: {then}\n"
    problems = _problems(tmp_path, text)
    assert len(problems) == 1 and problems[0].startswith(message), problems


# -- the challenged holder raises at once ---------------------------------------------------------

RAISE_TABLE = Path(__file__).parent / "rulesets" / "breitnau-holder-raises.yaml"


def _dappen_round(ruleset: object, *calls: tuple[int, str]) -> Game:
    rs = load_ruleset(str(RAISE_TABLE)) if ruleset is None else ruleset
    game = Game(rs, 6, 0, deal={"hands": BREITNAU_HANDS, "talon": BREITNAU_TALON})  # type: ignore[arg-type]
    for seat in (1, 2, 3, 4, 5, 0):  # the Solo round
        game.apply(seat, "pass")
    for seat, call in calls:
        game.apply(seat, call)
    return game


def test_the_challenged_holder_may_raise_at_once_hold_or_drop() -> None:
    game = _dappen_round(None, (1, "dappen"), (2, "strecken"))
    assert game.legal_actions(1) == ["pass", "selber", "stupfen"]
    game.apply(1, "stupfen")
    # Nothing is higher than Stupfen: seat 2 drops out without a word, nobody else may bid.
    assert game.contract is not None and game.contract.name == "stupfen" and game.declarer == 1
    # Without the word the holder may only hold or drop: the raise is refused, and says why.
    shipped = _dappen_round(load_ruleset("breitnau"), (1, "dappen"), (2, "strecken"))
    assert shipped.legal_actions(1) == ["pass", "selber"]
    with pytest.raises(IllegalActionError, match="answer the bid strecken first; you may say: pass, selber"):
        shipped.apply(1, "stupfen")


def test_after_a_raise_the_challenger_answers_and_a_raising_holder_never_holds(tmp_path: Path) -> None:
    file = tmp_path / "raise.yaml"
    file.write_text(
        "title: Raise only (a test)\nextends: breitnau\nstatus: assumed\nauction:\n  phases:\n    dappen_round:\n"
        "      answer: raise\n      hold: null\n"
        "      ladder: [{call: dappen}, {call: strecken}, {call: stupfen}, {call: solo}]\n",
        encoding="utf-8",
    )
    rs = load_ruleset(str(file))
    game = _dappen_round(rs, (1, "dappen"), (2, "strecken"))
    assert game.legal_actions(1) == ["pass", "stupfen"]  # no hold: raise or drop
    game.apply(1, "stupfen")
    assert game.to_act == 2 and game.legal_actions(2) == ["pass", "solo"]  # the challenger answers the raise
    game.apply(2, "solo")
    # Solo is the top: the holder can neither hold (answer: raise) nor raise, so drops out unasked.
    assert game.contract is not None and game.contract.name == "solo" and game.declarer == 2


@pytest.mark.parametrize(
    ("base", "phase", "written", "message"),
    [
        (
            "koenigrufen",
            "bidding",
            "answer: raise",
            "auction.phases.bidding.answer: a holder answers a challenger at once only in a duel",
        ),
        (
            "breitnau",
            "solo_round",
            "answer: raise_or_hold",
            "auction.phases.solo_round.answer: holding needs the phase's hold call (`hold: selber`): add it, "
            "or write `answer: raise`",
        ),
        (
            "breitnau",
            "dappen_round",
            "answer: raise",
            "auction.phases.dappen_round.hold: 'selber' would never be said: with `answer: raise`",
        ),
    ],
)
def test_a_wrong_answer_names_its_place_and_the_fix(
    tmp_path: Path, base: str, phase: str, written: str, message: str
) -> None:
    text = (
        f"title: A wrong answer\nextends: {base}\nstatus: assumed\nauction:\n  phases:\n    {phase}:\n      {written}\n"
    )
    problems = _problems(tmp_path, text)
    assert len(problems) == 1 and problems[0].startswith(message), problems


# -- the winner of a contested auction names the game ---------------------------------------------

CHOOSE_TABLE = Path(__file__).parent / "rulesets" / "breitnau-winner-names-the-game.yaml"
CONTESTED = ((1, "dappen"), (2, "strecken"), (1, "selber"), (2, "pass"))


def test_the_winner_of_a_contested_phase_names_the_game() -> None:
    game = _dappen_round(load_ruleset(str(CHOOSE_TABLE)), *CONTESTED)
    assert game.contract is None and game.to_act == 1 and game.legal_actions(1) == ["strecken", "solo"]
    game.apply(1, "solo")
    assert game.contract is not None and game.contract.name == "solo" and game.declarer == 1
    # Without the word the contested Strecken is played as bid, with no choice.
    shipped = _dappen_round(load_ruleset("breitnau"), *CONTESTED)
    assert shipped.contract is not None and shipped.contract.name == "strecken" and shipped.declarer == 1


def test_choose_when_without_games_to_choose_names_its_place_and_the_fix(tmp_path: Path) -> None:
    text = (
        "title: Nothing to choose\nextends: breitnau\nstatus: assumed\nauction:\n  phases:\n"
        "    dappen_round:\n      then: {choose_when: won}\n"
    )
    assert _problems(tmp_path, text) == [
        "auction.phases.dappen_round.then.choose_when: the winner has nothing to choose from: list the games "
        "by winning call in `then.choose`, or leave `choose_when` out"
    ]


# -- a priority that is not the speaking order -----------------------------------------------------

PRIORITY_TABLE = Path(__file__).parent / "rulesets" / "koenigrufen-vorhand-speaks-last.yaml"
KOENIG_DEAL = {
    "hands": [
        ["DQ", "DK", "HJ", "T12", "T4", "T18", "SN", "T17", "T3", "C10", "DN", "CN"],
        ["C7", "T13", "HN", "H2", "SJ", "T8", "CQ", "S8", "H4", "T10", "S10", "DJ"],
        ["T6", "HK", "T2", "D2", "S9", "T1", "T7", "HQ", "T19", "T9", "D3", "T14"],
        ["T5", "HA", "T21", "T15", "D4", "H3", "S7", "CK", "SK", "T20", "CJ", "SQ"],
    ],
    "talon": ["T16", "T11", "T22", "C9", "C8", "DA"],
}


def test_forehand_speaks_last_but_holds_first(tmp_path: Path) -> None:
    game = Game(load_ruleset(str(PRIORITY_TABLE)), 4, 0, deal=KOENIG_DEAL)
    for seat, call in ((2, "solo"), (3, "pass"), (0, "pass")):
        game.apply(seat, call)
    assert game.to_act == 1 and "solo" in game.legal_actions(1)  # the same game, by priority
    game.apply(1, "solo")
    assert game.to_act == 2 and "solo" not in game.legal_actions(2)  # lower in priority: only higher
    # With the speaking order as the priority, Forehand, last to speak, must go higher.
    file = tmp_path / "order.yaml"
    text = PRIORITY_TABLE.read_text(encoding="utf-8").replace("priority: vorhand", "priority: order")
    file.write_text(text, encoding="utf-8")
    ordered = Game(load_ruleset(str(file)), 4, 0, deal=KOENIG_DEAL)
    for seat, call in ((2, "solo"), (3, "pass"), (0, "pass")):
        ordered.apply(seat, call)
    assert ordered.to_act == 1 and "solo" not in ordered.legal_actions(1)
    with pytest.raises(IllegalActionError, match="solo does not outbid solo"):
        ordered.apply(1, "solo")


@pytest.mark.parametrize(
    ("base", "phase", "message"),
    [
        ("breitnau", "dappen_round", "auction.phases.dappen_round.priority: priority decides only who may hold"),
        ("cego-ministranten", "after_fort", None),
    ],
)
def test_priority_outside_rounds_with_a_hold_names_its_place_and_the_fix(
    tmp_path: Path, base: str, phase: str, message: str | None
) -> None:
    text = f"title: Priority\nextends: {base}\nstatus: assumed\nauction:\n  phases:\n    {phase}:\n      priority: vorhand\n"
    problems = _problems(tmp_path, text)
    if message is None:
        assert problems == []  # rounds with a hold call: allowed
    else:
        assert len(problems) == 1 and problems[0].startswith(message), problems


def test_a_later_player_takes_a_game_over_by_naming_it_again() -> None:
    table = Path(__file__).parent / "rulesets" / "koenigrufen-later-takes-over.yaml"
    game = Game(load_ruleset(str(table)), 4, 0, deal=KOENIG_DEAL)
    game.apply(1, "solo")
    assert "solo" in game.legal_actions(2)  # later, so first in this priority
    game.apply(2, "solo")
    game.apply(3, "pass")
    game.apply(0, "pass")
    assert game.to_act == 1 and "solo" not in game.legal_actions(1)  # earlier: only higher
    # At Königrufen as shipped the later player must go higher.
    shipped = Game(load_ruleset("koenigrufen"), 4, 0, deal=KOENIG_DEAL)
    shipped.apply(1, "solo")
    assert "solo" not in shipped.legal_actions(2)
    with pytest.raises(IllegalActionError, match="solo does not outbid solo"):
        shipped.apply(2, "solo")


# -- a proposal answered by another seat ------------------------------------------------------------

ASKED_TABLE = Path(__file__).parent / "rulesets" / "breitnau-redeal-asked.yaml"


def test_a_redeal_asked_for_waits_for_the_dealer_who_may_refuse_it() -> None:
    game = _breitnau(BREITNAU_HANDS, load_ruleset(str(ASKED_TABLE)))
    assert game.legal_actions(1) == ["pass", "solo"]  # seat 1 holds four trumps: nothing to ask
    game.apply(1, "pass")
    assert game.legal_actions(2) == ["pass", "solo", "neu"]
    game.apply(2, "neu")
    assert game.to_act == 0 and game.legal_actions(0) == ["ja", "nein"] and game.legal_actions(3) == []
    with pytest.raises(IllegalActionError, match="seat 2 said neu; the dealer, seat 0, answers it first"):
        game.apply(3, "pass")
    game.apply(0, "nein")
    # Refused: void, seat 2's turn goes on, and it may not ask again this deal.
    assert not game.is_over and game.to_act == 2 and game.legal_actions(2) == ["pass", "solo"]
    with pytest.raises(IllegalActionError, match="your neu was refused: it is not said again this deal"):
        game.apply(2, "neu")
    game.apply(2, "pass")
    assert game.to_act == 3
    # Granted, the call takes effect: the deal is thrown in (tests/records/breitnau-redeal-asked-and-granted.yaml).
    granted = _breitnau(BREITNAU_HANDS, load_ruleset(str(ASKED_TABLE)))
    for seat, call in ((1, "pass"), (2, "neu"), (0, "ja")):
        granted.apply(seat, call)
    assert granted.result is not None and granted.result.outcome == "thrown_in"
    assert [e for e in granted.events if e["type"] == "thrown_in"] == [{"type": "thrown_in", "seat": 2}]


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (
            "{accept: solo, refuse: nein}",
            "auction.phases.solo_round.interrupts[0].answered_by.accept: 'solo' is already a call",
        ),
        (
            "{accept: ja, refuse: ja}",
            "auction.phases.solo_round.interrupts[0].answered_by.refuse: 'ja' would both accept",
        ),
    ],
)
def test_a_wrong_answer_to_a_proposal_names_its_place_and_the_fix(tmp_path: Path, answer: str, message: str) -> None:
    text = (
        "title: A wrong proposal\nextends: breitnau\nstatus: assumed\ncalls: {neu: {}, ja: {}, nein: {}}\n"
        "auction:\n  phases:\n    solo_round:\n      interrupts:\n"
        f'        - {{call: neu, requires: "count(hand & trumps) < 2", ends: throw_in, answered_by: {answer}}}\n'
    )
    problems = _problems(tmp_path, text)
    assert problems and problems[0].startswith(message), problems
