"""The engine at its boundary: any action value is an action or a clear refusal; an action is
applied whole or not at all (a rule failing on its consequences undoes it); the engine checks
that the cards of a deal add up; what it hands out is safe to keep and to change; records name
a ruleset file so that they replay, refuse seeds out of range and overlong action lists fast;
a deal shuffled without a seed cannot be searched for."""

from __future__ import annotations

import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, IllegalActionError, InvalidActionError, load_ruleset
from interpreter.bots.randombot import RandomBot, expand, play_out
from interpreter.engine.faults import BrokenDealError, TableError
from interpreter.engine.phase import Phase
from interpreter.engine.records import (
    MAX_ACTIONS,
    MAX_RECORD_CHARS,
    dump_record,
    game_from_record,
    parse_record,
    read_record,
    replay,
)
from interpreter.engine.session import Session
from interpreter.errors import RecordError, RulesetError, TarockError


def snapshot(game: Game) -> tuple[Any, ...]:
    return (game.record(), game.view("all"), game.history, list(game.events), game.legal_actions(), game.to_act)


def variant(tmp_path: Path, name: str, text: str) -> Path:
    file = tmp_path / f"{name}.yaml"
    file.write_text(text, encoding="utf-8")
    return file


# -- any value is an action or a refusal -----------------------------------------------------------


def _in_play(name: str = "breitnau") -> Game:
    for seed in range(200):
        game = Game(name, seed=seed)
        bot = RandomBot(seed)
        while not game.is_over and game.phase is not Phase.PLAY:
            game.apply(game.to_act, bot.choose(game, game.to_act))
        if game.phase is Phase.PLAY:
            return game
    raise AssertionError("no deal reached the play")


@pytest.mark.parametrize("value", [{}, [], 5, None, {"x": 1}, ["ulti"]], ids=repr)
def test_announce_with_a_value_that_is_no_name_is_refused(value: object) -> None:
    game = Game("furtwangen", seed=1)
    before = snapshot(game)
    with pytest.raises(InvalidActionError, match="announce takes the name of an announcement"):
        game.apply(game.to_act, {"announce": value})
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "action, needle",
    [
        ({"announce": "ulti", "cards": "T1"}, "a list"),
        ({"announce": "ulti", "cards": [["T1"]]}, "a card is named by its id"),
        ({"play": ["T1"]}, "a card is named by its id"),
        ({"play": {"T1": 1}}, "a card is named by its id"),
        ({"discard": [1, 2]}, "a card is named by its id"),
        ({"give": None}, "a card is named by its id"),
        ({"choose": ["x"]}, "choose takes a name"),
        ({1: "pass"}, "exactly one of"),
        ({"play": "T1" * 10_000}, "unknown card"),
        ({"discard": ["T1"] * 1000}, "more than the pack has"),
    ],
)
def test_malformed_actions_in_play_are_refused_with_the_reason(action: object, needle: str) -> None:
    game = _in_play("furtwangen")
    before = snapshot(game)
    with pytest.raises(InvalidActionError, match=needle) as caught:
        game.apply(game.to_act, action)
    assert len(str(caught.value)) < 400, "a refusal quotes a long value shortly"
    assert snapshot(game) == before


def test_a_misspelt_announcement_gets_a_hint() -> None:
    with pytest.raises(InvalidActionError, match="did you mean 'ulti'"):
        Game("furtwangen", seed=1).apply(1, {"announce": "ultti"})


def _rufer_calling() -> Game:
    """tapp-modern: a Rufer whose declarer is to call a card."""
    for seed in range(400):
        game = Game("tapp-modern", seed=seed)
        bot = RandomBot(seed)
        while not game.is_over and game.phase is Phase.AUCTION:
            game.apply(game.to_act, bot.choose(game, game.to_act))
        legal = game.legal_actions() if game.phase is Phase.EXCHANGE else []
        if legal and all(isinstance(a, dict) and "call_card" in a for a in legal):
            return game
    raise AssertionError("no Rufer found")


def test_a_discard_during_a_rufers_call_is_refused_with_the_reason() -> None:
    game = _rufer_calling()
    seat = game.to_act
    assert seat is not None
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="it is time for calling a card, not to discard"):
        game.apply(seat, {"discard": [game.hands[seat][0]]})
    assert snapshot(game) == before
    # ... and during the give that follows the call.
    game.apply(seat, game.legal_actions()[0])
    assert all("give" in a for a in game.legal_actions())
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="it is time for giving a card, not to discard"):
        game.apply(seat, {"discard": [game.hands[seat][0]]})
    assert snapshot(game) == before


def test_legal_actions_of_a_seat_that_does_not_exist() -> None:
    game = Game("breitnau", seed=1)
    for seat in (99, -1, "1", [1], True):
        with pytest.raises(InvalidActionError, match="no seat"):
            game.legal_actions(seat)  # type: ignore[arg-type]
    play = _in_play()
    with pytest.raises(InvalidActionError, match="no seat"):
        play.legal_actions(99)
    other = next(s for s in play.seats if s != play.to_act)
    assert play.legal_actions(other) == []


def test_a_seat_number_beyond_the_int_limit_is_refused_shortly() -> None:
    game = Game("breitnau", seed=1)
    with pytest.raises(InvalidActionError, match="no seat <an integer of") as caught:
        game.apply(10**5000, "pass")
    assert len(str(caught.value)) < 200


# -- a table set up wrongly: errors told apart by their field ----------------------------------------


@pytest.mark.parametrize(
    "kwargs, key",
    [
        ({"players": 5}, "players"),
        ({"players": 6.0}, "players"),
        ({"dealer": 9}, "dealer"),
        ({"dealer": "0"}, "dealer"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"seed": True}, "seed"),
        ({"pot": -1}, "pot"),
        ({"pot": "3"}, "pot"),
        ({"seed": 1, "deal": {"hands": [], "talon": []}}, "seed"),
    ],
)
def test_a_table_set_up_wrongly_names_the_argument(kwargs: dict[str, Any], key: str) -> None:
    with pytest.raises(TableError) as caught:
        Game("breitnau", **kwargs)
    assert caught.value.key == key
    assert isinstance(caught.value, InvalidActionError)  # as before: not an action to start from


def test_seeds_at_the_ends_of_the_range_deal() -> None:
    assert Game("breitnau", seed=0).initial_hands != Game("breitnau", seed=2**64 - 1).initial_hands


def test_a_record_with_a_bad_dealer_is_placed_at_the_dealer(tmp_path: Path) -> None:
    record = play_out(Game("breitnau", seed=3), seed=3).record()
    record["dealer"] = 8
    file = tmp_path / "r.yaml"
    file.write_text(dump_record(record), encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        replay(file)
    [problem] = caught.value.problems
    assert problem.path == "dealer" and problem.line is not None and "from 0 to 5" in problem.message


# -- apply is atomic: a rule failing on an action's consequences undoes it ---------------------------


TAPP_FAILING_AMOUNT = """\
title: Tapp whose amount divides by zero (a test variant)
extends: tapp
readings: {frage_points: null}
settlement:
  amount: "declarer_points // (tricks - declarer_tricks - defender_tricks)"
"""


def _before_the_last_card(ruleset: Any) -> Game:
    for seed in range(300):
        game = Game(ruleset, seed=seed)
        bot = RandomBot(seed)
        while not game.is_over:
            if game.phase is Phase.PLAY and sum(len(game.hands[s]) for s in game.seats) == 1:
                return game
            game.apply(game.to_act, bot.choose(game, game.to_act))
    raise AssertionError("no deal reached its last card")


@pytest.mark.parametrize("copied", [False, True], ids=["as-handed-out", "a-copy"])
def test_a_formula_failing_at_the_last_card_leaves_the_game_as_it_was(tmp_path: Path, copied: bool) -> None:
    ruleset = load_ruleset(str(variant(tmp_path, "tapp-failing", TAPP_FAILING_AMOUNT)))
    game = _before_the_last_card(ruleset)
    [last] = game.legal_actions()
    before = snapshot(game)
    with pytest.raises(TarockError) as caught:
        game.apply(game.to_act, dict(last) if copied else last)
    assert not isinstance(caught.value, (IllegalActionError, InvalidActionError))
    assert 'settlement.amount: division by zero in "declarer_points // (tricks - ' in str(caught.value)
    assert snapshot(game) == before
    assert game.phase is Phase.PLAY and not game.is_over and game.result is None
    # It fails again the same way: nothing was left half done.
    with pytest.raises(TarockError):
        game.apply(game.to_act, last)
    assert snapshot(game) == before


def test_a_record_that_runs_into_a_failing_formula_reports_it(tmp_path: Path) -> None:
    ruleset_file = variant(tmp_path, "tapp-failing", TAPP_FAILING_AMOUNT)
    game = _before_the_last_card(load_ruleset(str(ruleset_file)))
    record = game.record()
    record["actions"].append([game.to_act, dict(game.legal_actions()[0])])
    file = tmp_path / "r.yaml"
    file.write_text(dump_record(record, to=file), encoding="utf-8")
    report = replay(file)
    assert report.refused_at == len(record["actions"]) - 1
    [failure] = report.failures
    assert "failed" in failure and "declarer_points //" in failure


def test_a_failing_pot_formula_at_the_last_card(tmp_path: Path) -> None:
    text = (
        "title: Tapp with a pot that fails (a test variant)\nextends: tapp\noptions: {pot: null}\npot_ante: '2'\n"
        "contracts:\n  frage: {pot: 'amount // (players - 3)'}\n  solo: {pot: 'amount // (players - 3)'}\n"
        "  herzsolo: {pot: 'amount // (players - 3)'}\n"
    )
    game = _before_the_last_card(load_ruleset(str(variant(tmp_path, "tapp-pot", text))))
    before = snapshot(game)
    with pytest.raises(TarockError, match=r"amount // \(players - 3\)"):
        game.apply(game.to_act, game.legal_actions()[0])
    assert snapshot(game) == before


def test_a_failing_ante_stops_the_deal_before_it_starts(tmp_path: Path) -> None:
    file = variant(
        tmp_path,
        "tapp-ante",
        "title: Ante fails\nextends: tapp\noptions: {pot: null}\npot_ante: '2 // (players - 3)'\n",
    )
    with pytest.raises(TarockError, match=r"2 // \(players - 3\)") as caught:
        Game(str(file), seed=1)
    assert "setting up the deal" in str(caught.value) or "players - 3" in str(caught.value)


def test_a_failing_claim_condition_undoes_the_call_that_ended_the_auction(tmp_path: Path) -> None:
    file = variant(
        tmp_path,
        "breitnau-claim",
        "title: Breitnau with a failing claim\nextends: breitnau\nclaim:\n  when: 'count(hand) // (count(hand) - count(hand)) > 0'\n",
    )
    ruleset = load_ruleset(str(file))
    for seed in range(100):
        game = Game(ruleset, seed=seed)
        bot = RandomBot(seed, pass_probability=0.9)
        while game.phase is Phase.AUCTION:
            before = snapshot(game)
            seat = game.to_act
            action = bot.choose(game, seat)
            try:
                game.apply(seat, action)
            except TarockError as exc:
                assert not isinstance(exc, (IllegalActionError, InvalidActionError))
                assert "count(hand) // (count(hand) - count(hand))" in str(exc)
                assert snapshot(game) == before and game.phase is Phase.AUCTION
                return
    raise AssertionError("no deal reached the exchange")


def _cego_deal(hands: dict[int, list[str]], talon: list[str]) -> dict[str, Any]:
    rs = load_ruleset("cego")
    used = {c for h in hands.values() for c in h} | set(talon)
    rest = [c for c in rs.deck.cards if c not in used]
    full = []
    for seat in range(4):
        hand = list(hands.get(seat, []))
        while len(hand) < 11:
            hand.append(rest.pop())
        full.append(hand)
    assert not rest
    return {"hands": full, "talon": talon}


ZWEI_LEERE_CALLS = [
    (1, "pass"),
    (2, "pass"),
    (3, "pass"),
    (0, "pass"),
    (1, "cego"),
    (2, "pass"),
    (3, "eine"),
    (1, "selbst"),
    (3, "eine_leere"),
    (1, "selbst"),
    (3, "zwei_leere"),
    (1, "pass"),
    (0, "pass"),
]
C = 3  # seat 3 bids Zwei Leere in these deals
ZWEI_LEERE_HAND = ["H4", "H3", "H2", "C10", "C9", "C8", "S10", "S9", "S8", "D4", "D3"]


def _zwei_leere(tmp_path: Path, forced: str, talon: list[str]) -> Game:
    file = variant(
        tmp_path,
        "cego-forced",
        f"""\
title: Cego whose Zwei Leere forces a discard by a test rule
extends: cego
contracts:
  zwei_leere:
    exchange:
      - keep: {{count: 2, from: "cards - trumps", prefer: "empty_cards", same_suit: true, exposed: true,
               reason: "keep two empty cards of one suit"}}
      - take_talon: {{}}
      - forced_discard: {{cards: "{forced}", shown: true}}
""",
    )
    # Seat 1 holds Eine Leere: it must have an empty card to keep.
    game = Game(str(file), players=4, deal=_cego_deal({C: ZWEI_LEERE_HAND, 1: ["HA", "D2"]}, talon))
    for seat, call in ZWEI_LEERE_CALLS:
        game.apply(seat, call)
    assert game.contract is not None and game.contract.name == "zwei_leere" and game.to_act == C
    return game


def test_a_failing_forced_discard_undoes_the_keep(tmp_path: Path) -> None:
    talon = ["CK", "SK", "HK", "DK", "CQ", "SQ", "HQ", "DQ", "C7", "S7"]  # no Trock: lowest({}) fails
    game = _zwei_leere(tmp_path, "{lowest(taken & trumps)}", talon)
    before = snapshot(game)
    with pytest.raises(TarockError, match=r"lowest\(taken & trumps\)") as caught:
        game.apply(C, {"keep": ["H4", "H3"]})
    assert not isinstance(caught.value, (IllegalActionError, InvalidActionError))
    assert snapshot(game) == before


def test_a_forced_discard_of_several_cards_is_refused_when_the_ruleset_loads(tmp_path: Path) -> None:
    # A forced discard of three Trocks would leave the hand two cards short; the compiler sees
    # that the set may hold more than one card and refuses the rule before any deal is played.
    with pytest.raises(RulesetError, match="a forced discard lays away exactly one card"):
        _zwei_leere(tmp_path, "taken & trumps", ["T1", "T2", "T3", "DK", "CQ", "SQ", "HQ", "DQ", "C7", "S7"])


def test_an_interpreter_fault_is_raised_as_it_is_and_undone(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _before_the_last_card("tapp")
    before = snapshot(game)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a fault of the interpreter")

    monkeypatch.setattr("interpreter.engine.game.settle", broken)
    with pytest.raises(RuntimeError, match="a fault of the interpreter"):
        game.apply(game.to_act, game.legal_actions()[0])
    assert snapshot(game) == before


def test_an_undone_action_keeps_the_games_own_events_list() -> None:
    game = _before_the_last_card("tapp")
    events = game.events
    game.apply(game.to_act, game.legal_actions()[0])
    assert game.events is events and game.is_over


def test_the_play_after_an_undone_action_goes_on_normally(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _before_the_last_card("tapp")
    reference = Game("tapp", deal=game.record()["deal"])
    for seat, action in game.history:
        reference.apply(seat, action)
    import interpreter.engine.game as game_module

    real = game_module.settle

    def once(*args: object, **kwargs: object) -> None:
        monkeypatch.setattr(game_module, "settle", real)
        raise RuntimeError("once")

    monkeypatch.setattr(game_module, "settle", once)
    last = game.legal_actions()[0]
    with pytest.raises(RuntimeError):
        game.apply(game.to_act, last)
    game.apply(game.to_act, last)
    reference.apply(reference.to_act, last)
    assert game.result == reference.result and game.record()["actions"] == reference.record()["actions"]


# -- the engine checks its own invariants -------------------------------------------------------------


def test_a_hand_changed_from_outside_stops_the_deal_before_play() -> None:
    for seed in range(100):
        game = Game("breitnau", seed=seed)
        bot = RandomBot(seed, pass_probability=0.9)
        while game.phase is Phase.AUCTION:
            game.apply(game.to_act, bot.choose(game, game.to_act))
        if game.phase is not Phase.EXCHANGE:
            continue
        seat = game.to_act
        assert seat is not None
        [template] = game.legal_actions()
        other = next(s for s in game.seats if s != seat)
        game.hands[other].append(game.hands[other][0])  # a card doubled by a careless caller
        with pytest.raises(BrokenDealError, match=f"seat {other} holds"):
            game.apply(seat, expand(template, random.Random(seed)))
        assert game.phase is Phase.EXCHANGE
        return
    raise AssertionError("no deal reached the exchange")


# -- what the game hands out is safe to keep and to change ------------------------------------------


def test_changing_what_the_game_handed_out_changes_nothing() -> None:
    ruleset = load_ruleset("breitnau")
    game, other = Game(ruleset, seed=5), Game(ruleset, seed=5)
    play_out(game, seed=5, pass_probability=0.85)
    play_out(other, seed=5, pass_probability=0.85)
    assert game.result is not None and game.result.outcome == "played"
    record = game.record()
    history = game.history
    for _, action in history:
        if isinstance(action, dict):
            for value in action.values():
                if isinstance(value, list):
                    value.append("T21")
            with contextlib.suppress(TypeError):  # read-only: a card played, shared by every game
                action["play"] = "T21"
    history.clear()
    view = game.view("all")
    view["result"]["payments"][0] += 100
    view["result"]["points"]["declarer"] = 0
    record["actions"][0][1] = "solo"
    record["expect"]["payments"][0] += 100
    for changed in (game.record()["actions"][-1][1], game.record()["expect"]["payments"]):
        changed.clear() if isinstance(changed, (dict, list)) else None
    assert game.record() == other.record()
    assert game.view("all") == other.view("all")
    assert game.history == other.history
    assert game.result == other.result


def test_a_views_finished_tricks_are_shared_and_read_only_the_trick_under_way_is_the_callers() -> None:
    """A view's finished tricks are made once and shared by the deal's views (a bot reads one at
    every choice): changing one raises TypeError and no view changes; the trick under way is a new
    dict of new lists, the caller's to change."""
    game = _in_play()
    bot = RandomBot(3)
    while not game.is_over and sum(1 for t in game.tricks if t.winner is not None) < 2:
        game.apply(game.to_act, bot.choose(game, game.to_act))
    view, other = game.view(1), game.view(2)
    done = [t for t in view["tricks"] if t["winner"] is not None]
    assert len(done) >= 2 and done[0] is other["tricks"][0]
    before = [dict(t) for t in done]
    for change in (
        lambda t: t.update(winner=0),
        lambda t: t.__setitem__("leader", 5),
        lambda t: t["cards"].append("T21"),
        lambda t: t["seats"].reverse(),
    ):
        with pytest.raises(TypeError, match="read-only"):
            change(done[0])
    assert [dict(t) for t in game.view(1)["tricks"] if t["winner"] is not None] == before
    under_way = view["tricks"][-1]
    assert under_way["winner"] is None
    under_way["cards"].append("T21")
    under_way["winner"] = 4
    assert game.view(1)["tricks"][-1] == {**under_way, "cards": under_way["cards"][:-1], "winner": None}
    assert json.loads(json.dumps(view)) == view


def test_legal_actions_changed_by_a_caller_change_no_game() -> None:
    ruleset = load_ruleset("breitnau")
    game, other = _in_play(), Game(ruleset, seed=1)
    legal = game.legal_actions()
    with pytest.raises(TypeError, match="read-only"):
        legal[0]["play"] = "T1"
    legal.clear()
    assert game.legal_actions() and game.legal_actions() == game.legal_actions()
    calls = other.legal_actions()
    calls.append("solo")
    assert other.legal_actions() != calls
    exchange = Game(ruleset, players=6, seed=1)
    for seat, call in [(1, "pass"), (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"), (0, "pass"), (1, "dappen")]:
        exchange.apply(seat, call)
    while exchange.phase is Phase.AUCTION:
        exchange.apply(exchange.to_act, "pass")
    [template] = exchange.legal_actions()
    template["discard"]["from"].clear()
    assert exchange.legal_actions()[0]["discard"]["from"]


def test_events_changed_by_a_caller_change_no_game() -> None:
    """A card's event is shared by every game of the ruleset (the play loop allocates none):
    it refuses to be changed, whichever way the card was played."""
    ruleset = load_ruleset("breitnau")
    game, other = Game(ruleset, seed=5), Game(ruleset, seed=5)
    returned = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        action = game.legal_actions(seat)[-1]
        if isinstance(action, dict) and "discard" in action:
            template = action["discard"]
            action = {"discard": template["from"][: template["count"]]}
        elif isinstance(action, dict) and "play" in action and len(game.history) % 2:
            action = {"play": action["play"]}  # a card sent as a new mapping: the general way
        returned += [e for e in game.apply(seat, action) if e["type"] == "play"]
        other.apply(seat, action)
    plays = [e for e in game.events if e["type"] == "play"]
    assert len(plays) == sum(len(t.cards) for t in game.tricks) > 0
    assert returned == plays
    for event in plays:
        with pytest.raises(TypeError, match="read-only"):
            event["card"] = "T21"
        with pytest.raises(TypeError, match="read-only"):
            event.update(seat=0)
        assert dict(event) == {"type": "play", "seat": event["seat"], "card": event["card"]}
    assert game.events == other.events
    assert game.record() == other.record()


# -- records: the ruleset's file, seeds, bounds -------------------------------------------------------


def test_a_deal_of_a_ruleset_file_replays_from_its_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    ruleset_file = variant(rules, "my-tapp", "title: My Tapp\nextends: tapp\n")
    game = play_out(Game(str(ruleset_file), seed=2), seed=2)
    assert game.record()["ruleset"] == str(ruleset_file.resolve())
    records = tmp_path / "records"
    records.mkdir()
    file = records / "deal.yaml"
    file.write_text(dump_record(game.record(), to=file), encoding="utf-8")
    assert read_record(file).data["ruleset"] == "../rules/my-tapp.yaml"
    monkeypatch.chdir(tmp_path / "records")
    report = replay("deal.yaml")
    assert report.ok, report.failures
    assert report.game is not None and report.game.result == game.result
    monkeypatch.chdir(Path("/"))
    assert replay(file).ok


def test_a_bundled_ruleset_is_named_by_its_name() -> None:
    assert Game("breitnau", seed=1).record()["ruleset"] == "breitnau"
    assert Game(load_ruleset("cego"), seed=1).record()["ruleset"] == "cego"


def test_a_copy_of_a_bundled_ruleset_elsewhere_is_named_by_its_path(tmp_path: Path) -> None:
    copy = tmp_path / "breitnau.yaml"
    copy.write_text((Path(__file__).parent.parent / "rulesets" / "breitnau.yaml").read_text(encoding="utf-8"))
    assert Game(str(copy), seed=1).record()["ruleset"] == str(copy.resolve())


def _record_text(**changes: Any) -> str:
    record = play_out(Game("breitnau", seed=3), seed=3).record()
    record.update(changes)
    return dump_record(record)


@pytest.mark.parametrize("seed", [-1, 2**64, 10**100])
def test_a_record_with_a_seed_out_of_range_is_refused(seed: int) -> None:
    record = play_out(Game("breitnau", seed=3), seed=3).record()
    del record["deal"]
    record["seed"] = seed
    with pytest.raises(RecordError) as caught:
        parse_record(dump_record(record), "r.yaml")
    assert any(p.path == "seed" for p in caught.value.problems), caught.value


def test_a_record_with_the_largest_seed_replays() -> None:
    record = play_out(Game("breitnau", seed=2**64 - 1), seed=1).record()
    del record["deal"]
    record["seed"] = 2**64 - 1
    doc = parse_record(dump_record(record), "r.yaml")
    assert game_from_record(doc).initial_hands == Game("breitnau", seed=2**64 - 1).initial_hands


def test_a_record_of_a_million_actions_is_refused_fast_and_says_why() -> None:
    text = _record_text(actions=[[1, "pass"]] * 1_000_000)
    start = time.perf_counter()
    with pytest.raises(
        RecordError,
        match=f"a record .of a deal, or of a session of deals. holds at most {MAX_RECORD_CHARS:,} characters",
    ):
        parse_record(text, "huge.yaml")
    assert time.perf_counter() - start < 1


def test_a_record_of_too_many_actions_for_any_deal_is_refused_before_its_schema() -> None:
    text = '{"ruleset": "breitnau", "players": 6, "seed": 1, "actions": [' + ",".join(["[1,1]"] * 12_000) + "]}"
    assert len(text) < MAX_RECORD_CHARS
    with pytest.raises(RecordError, match=f"at most {MAX_ACTIONS:,} actions; this one has 12,000"):
        parse_record(text, "long.json")


def test_a_record_of_more_actions_than_its_deal_can_have_is_refused_before_replaying() -> None:
    text = _record_text(actions=[[1, "pass"]] * 600)
    doc = parse_record(text, "long.yaml")
    with pytest.raises(RecordError, match=r"at most 540 actions .ten per card of this deal.s 54.; this one has 600"):
        game_from_record(doc)


# -- the security of the deal -------------------------------------------------------------------------


def test_a_deal_without_a_seed_is_shuffled_by_the_operating_system(monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[str] = []
    shuffle = random.SystemRandom.shuffle

    def recorded(self: random.SystemRandom, cards: list[str]) -> None:
        used.append("system")
        shuffle(self, cards)

    monkeypatch.setattr(random.SystemRandom, "shuffle", recorded)
    game = Game("breitnau")
    assert used == ["system"]
    assert game.seed is None and "seed" not in game.events[0]
    record = game.record()
    assert "seed" not in record and record["deal"]["hands"] == game.initial_hands
    hands = {tuple(Game("breitnau").initial_hands[1]) for _ in range(5)}
    assert len(hands) == 5


def test_seeded_deals_are_reproducible() -> None:
    a, b = Game("cego", seed=12345), Game("cego", seed=12345)
    assert a.initial_hands == b.initial_hands and a.events[0]["seed"] == 12345


def test_a_session_without_a_seed_deals_without_seeds() -> None:
    session = Session("breitnau")
    game = session.next_deal()
    assert game.seed is None
    seeded = Session("breitnau", seed=4)
    assert seeded.next_deal().seed is not None
    assert Session("breitnau", seed=4).next_deal().initial_hands == seeded.deals[0].initial_hands
