"""The dealer's choice of how to deal (`deal.choice`) at the default tables of Furtwangen and the
games that extend it, and in every program that plays them: the web table (a person dealing is
offered the choice, the others see it said; a restart and the bots rebuild the same deal), the
observer's scribe, and a game's clone. Furtwangen's source lets the dealer choose (dappen-en,
Furtwangen version, Variations), so its option deal_order defaults to dealer_chooses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.bots.rulebot import RuleBot
from interpreter.engine.encoding import EncodedGame, Encoding, clone_game
from interpreter.engine.phase import Phase
from interpreter.engine.records import replay
from interpreter.frontends.log import describe_event, render_log
from interpreter.frontends.observe import Scribe
from interpreter.frontends.web.table import Table
from interpreter.frontends.words import deal_plan_label
from tests.deal_choice_by_hand import furtwangen_deal

RECORDS = Path(__file__).parent / "records"
PLANS = [{"choose": "hands_first"}, {"choose": "dapp_first"}]
TABLES = [
    ("furtwangen", 6),
    ("furtwangen", 7),
    ("furtwangen", 8),  # the dealer sits out: seven are dealt
    ("schollach", 6),
    ("schollach", 7),  # the dealer sits out: six are dealt
    ("schwaerzenbach", 6),
    ("schwaerzenbach", 7),
]


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_default_table_offers_the_dealer_the_choice(name: str, players: int) -> None:
    ruleset = load_ruleset(name)
    assert ruleset.choices["deal_order"] == "dealer_chooses"
    game = Game(ruleset, players=players, dealer=2, seed=11)
    assert game.phase is Phase.DEAL and game.to_act == 2
    assert game.legal_actions(2) == PLANS
    assert all(game.legal_actions(s) == [] for s in range(players) if s != 2)
    assert all(hand == [] for hand in game.initial_hands)
    # A table that always deals one way (the option) starts dealt, as every table did before.
    fixed = Game(load_ruleset(name, {"deal_order": "hands_first"}), players=players, dealer=2, seed=11)
    assert fixed.phase is Phase.AUCTION and all(fixed.initial_hands[s] for s in fixed.seats)
    game.apply(2, {"choose": "hands_first"})
    assert game.initial_hands == fixed.initial_hands and game.initial_talon == fixed.initial_talon


def test_a_web_table_offers_a_person_dealing_the_choice_and_the_others_see_it_said() -> None:
    rs = load_ruleset("furtwangen")
    table = Table(rs, 6, [0, 1], 1, seed=5)
    dealer = table.state_for(0)
    assert dealer["view"]["phase"] == "deal" and dealer["view"]["to_act"] == 0
    assert dealer["legal"] == [
        {
            "action": {"choose": "hands_first"},
            "label": "deal hands first: 4 each, 6 to the talon, 3 each, 6 to the talon",
        },
        {
            "action": {"choose": "dapp_first"},
            "label": "deal dapp first: 6 to the talon, 4 each, 6 to the talon, 3 each",
        },
    ]
    other, spectator = table.state_for(1), table.state_for(None)
    assert other["legal"] == [] and other["view"]["hand"] == []
    assert other["sides"] == spectator["sides"] == "Seat 0, the dealer, chooses how to deal"
    assert table.bot_decision() is None  # the dealer is a person: no bot chooses for it
    assert "first chooses how the cards are dealt" in (table.act(1, "pass") or "")
    assert table.act(0, {"choose": "dapp_first"}) is None
    said = "Seat 0, the dealer, chooses to deal dapp first: 6 to the talon, 4 each, 6 to the talon, 3 each."
    for seat in (0, 1, None):
        state = table.state_for(seat)
        assert said in state["log"], seat
        assert state["view"]["deal_plan"] == "dapp_first"
        assert state["view"]["phase"] == "auction"
    assert spectator["view"].get("hand", []) == []
    # Seat 1 holds what the Dapp-first plan deals it, worked out without the engine.
    seed = table.game.seed
    assert seed is not None
    hands, talon = furtwangen_deal(seed, "dapp_first")
    assert sorted(table.state_for(1)["view"]["hand"]) == sorted(hands[1])
    assert sorted(table.game.initial_talon) == sorted(talon)
    record = table.game.record()
    assert record["deal"]["plan"] == "dapp_first" and table.actions == [[0, {"choose": "dapp_first"}]]


def test_an_unseeded_web_table_rebuilds_the_deal_its_dealer_chose_and_tells_nobody_its_seed() -> None:
    rs = load_ruleset("furtwangen")
    table = Table(rs, 6, [1], 1)  # no seed; a bot deals
    seed = table.start["seed"]
    assert table.game.phase is Phase.DEAL and table.game.seed == seed
    for seat in (1, None):
        assert str(seed) not in json.dumps(table.state_for(seat)), seat
    before = Table.restore(table.saved(), rs)  # brought back before the choice: still waiting for it
    assert before.game.phase is Phase.DEAL and before.start == table.start
    assert table.bot_step()  # the rule bot deals by the usual plan
    assert table.game.deal_plan == "hands_first" and table.game.phase is Phase.AUCTION
    after = Table.restore(table.saved(), rs)
    assert after.game.initial_hands == table.game.initial_hands
    assert after.game.initial_talon == table.game.initial_talon
    assert before.bot_step() and before.game.initial_hands == table.game.initial_hands
    for seat in (1, None):
        assert str(seed) not in json.dumps(table.state_for(seat)), seat


def test_the_scribe_asks_the_dealer_first_and_a_call_without_it_is_vorhands() -> None:
    rs = load_ruleset("furtwangen")
    said: list[str] = []
    scribe = Scribe("furtwangen", rs, 6, 0, {}, lambda _: "", said.append)
    assert scribe.prompt() == "deal: seat 0, the dealer, chooses (choose hands_first or choose dapp_first) > "
    scribe.enter(*scribe.parse("choose dapp_first"))
    scribe.enter(*scribe.parse("pass"))
    assert scribe.actions == [[0, {"choose": "dapp_first"}], [1, "pass"]]
    assert scribe.prompt() == "auction: seat 2 > "
    # Where the choice was not heard (or the deal was given), the first call is Vorhand's.
    unheard = Scribe("furtwangen", rs, 6, 0, {}, lambda _: "", said.append)
    unheard.enter(*unheard.parse("pass"))
    assert unheard.actions == [[1, "pass"]] and unheard.prompt() == "auction: seat 2 > "
    assert not [line for line in said if line.startswith("not taken")]


def test_a_clone_waits_for_the_choice_or_is_dealt_by_the_plan_chosen() -> None:
    game = Game(load_ruleset("furtwangen"), players=6, dealer=0, seed=103)
    waiting = clone_game(game)
    assert waiting.phase is Phase.DEAL and waiting.legal_actions(0) == PLANS
    game.apply(0, {"choose": "dapp_first"})
    game.apply(1, "pass")
    copy = clone_game(game)
    assert copy.view("all") == game.view("all") and copy.deal_plan == "dapp_first"
    hands, talon = furtwangen_deal(103, "dapp_first")
    assert [sorted(h) for h in copy.initial_hands] == [sorted(h) for h in hands]
    assert sorted(copy.initial_talon) == sorted(talon)


def test_a_seeded_record_without_the_choice_is_told_where_to_say_it(tmp_path: Path) -> None:
    """A record made at a table that dealt hands first, before the default let the dealer choose:
    refused at its first action, with the two ways to write it."""
    record = yaml.safe_load((RECORDS / "furtwangen-deal-order-dapp-first.yaml").read_text(encoding="utf-8"))
    del record["options"]
    file = tmp_path / "old.yaml"
    file.write_text(yaml.safe_dump(record), encoding="utf-8")
    report = replay(file)
    assert not report.ok
    assert (
        'action 0 [1, "pass"] was refused: nothing is dealt yet: the dealer, seat 0, first chooses how the cards '
        "are dealt ({choose: hands_first}, {choose: dapp_first}); a record of a deal dealt by one plan begins "
        "with the dealer's choice, [0, {choose: hands_first}], or sets the ruleset's option that always deals "
        "one way"
    ) in report.failures[0]


def test_the_seven_player_record_is_the_scripts_and_fails_dealt_the_other_way(tmp_path: Path) -> None:
    """furtwangen-seven-dealer-chooses-dapp-first.yaml is what tests/deal_choice_by_hand.py (no
    engine) writes; it replays, and with the dealer choosing hands_first its cards are not held."""
    from tests.deal_choice_by_hand import SEVEN_SEED, seven_record

    file = RECORDS / "furtwangen-seven-dealer-chooses-dapp-first.yaml"
    written = yaml.safe_load(file.read_text(encoding="utf-8"))
    assert written == seven_record(SEVEN_SEED)
    assert replay(file).ok
    written["actions"][0] = [3, {"choose": "hands_first"}]
    other = tmp_path / "other.yaml"
    other.write_text(yaml.safe_dump(written), encoding="utf-8")
    report = replay(other)
    assert not report.ok and report.refused_at is not None and report.refused_at > 0


def test_the_choice_is_said_with_the_packets_of_the_players_dealt_when_the_dealer_sits_out() -> None:
    """Eight at a Furtwangen table: the dealer sits out and seven are dealt, so the button and the
    log say the seven-player packets (6, 3, 6, 3), not the six-player ones (6, 4, 6, 3)."""
    rs = load_ruleset("furtwangen")
    game = Game(rs, players=8, seed=5)
    view = game.view(game.dealer)
    assert view["seats_out"] == [game.dealer]
    said = "deal dapp first: 6 to the talon, 3 each, 6 to the talon, 3 each"
    assert deal_plan_label("dapp_first", rs, view) == said
    game.apply(game.dealer, {"choose": "dapp_first"})
    chosen = next(e for e in game.events if e["type"] == "deal_chosen")
    assert said in describe_event(chosen, game)


def test_the_log_shows_the_hands_after_the_dealers_choice_of_how_to_deal_them() -> None:
    """The umpire's log reads in the order of the table: the dealer chooses, then the hands as
    that choice dealt them (they were listed before the choice that made them)."""
    game = Game(load_ruleset("furtwangen"), players=6, seed=3)
    game.apply(0, {"choose": "dapp_first"})
    bot = RuleBot()
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, bot.choose(game, seat))
    lines = render_log(game).splitlines()
    chose = next(i for i, line in enumerate(lines) if "chooses to deal dapp first" in line)
    assert lines[chose + 1] == "Hands:" and "Hands:" not in lines[:chose]


def test_a_learners_observation_says_the_plan_the_dealer_chose_aloud() -> None:
    """Every seat's view says the plan chosen (`deal_plan`), so every seat's observation does too:
    a block of one number per plan at the table, the usual one first, all 0 before the choice.
    A ruleset without the choice has the block empty, its vectors as they were."""
    rs = load_ruleset("furtwangen")
    encoding = Encoding.of(rs, 6)
    block = encoding.layout["deal_plan"]
    assert block.stop - block.start == 2
    state = EncodedGame(Game(rs, players=6, seed=3), encoding)
    assert all(state.observation(seat)[block] == [0.0, 0.0] for seat in range(6))
    state.game.apply(0, {"choose": "dapp_first"})
    assert all(state.observation(seat)[block] == [0.0, 1.0] for seat in range(6))
    assert all(encoding.observe(state.game.view(seat))[block] == [0.0, 1.0] for seat in range(6))
    breitnau = Encoding.of(load_ruleset("breitnau"), 6).layout["deal_plan"]
    assert breitnau.start == breitnau.stop == Encoding.of(load_ruleset("breitnau"), 6).observation_size
