"""The interface for learning and search (interpreter/engine/encoding.py): stable action ids,
games driven by ids to the end, observations that read a seat's view only, cheap clones, and
discards chosen card by card."""

from __future__ import annotations

import random
import re
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, IllegalActionError, InvalidActionError, load_ruleset
from interpreter.bots.randombot import RandomBot, play_out
from interpreter.engine.encoding import SECTIONS, EncodedGame, Encoding, clone_game
from interpreter.engine.views import PUBLIC_ENTRIES, own_view, public_view, seat_entries
from interpreter.language.loader import ruleset_names

FIVE_POINTERS = {"T22", "T21", "T1", "CK", "SK", "HK", "DK"}
# The entries every view begins with (views._table_facts), and the seat's hand.
TABLE_FACTS = (
    *("ruleset", "players", "dealer", "seats_out", "seat", "phase", "to_act", "contract", "declarer"),
    *("talon_size", "deal_plan", "hand"),
)


def test_breitnau_ids_are_fixed() -> None:
    enc = Encoding.of(load_ruleset("breitnau"), 6)
    # Cards in the deck's order, then the calls (pass first), then one discard per card.
    assert enc.step_id(("play", "T1")) == 0 and enc.step_id(("play", "D4")) == 53
    assert [enc.step_id(("call", c)) for c in ("pass", "solo", "dappen", "strecken", "stupfen", "selber")] == list(
        range(54, 60)
    )
    assert enc.step_id(("discard", "T1")) == 60 and enc.num_actions == 114
    assert enc.step(60) == ("discard", "T1")
    assert [k for k in SECTIONS if len(enc.section[k])] == ["play", "call", "discard"]
    # A section the ruleset does not use is empty: later kinds keep their place after it.
    assert enc.section["keep"] == range(114, 114) and enc.section["announce"].start == 114


def test_ids_of_a_ruleset_with_every_section_in_use() -> None:
    enc = Encoding.of(load_ruleset("tapp-modern"), 4)
    assert [k for k in SECTIONS if len(enc.section[k])] == ["play", "call", "discard", "call_card", "give", "choose"]
    assert enc.steps[enc.section["choose"].start][0] == "choose"
    assert sorted(enc.ids.values()) == list(range(enc.num_actions))


@pytest.mark.parametrize(("name", "players"), [("breitnau", 6), ("cego", 4), ("cego", 3), ("tapp-modern", 4)])
def test_the_same_choices_by_id_give_the_same_deal(name: str, players: int) -> None:
    rs = load_ruleset(name)
    for seed in range(4):
        reference = play_out(Game(rs, players=players, seed=seed), seed=seed, pass_probability=0.7)
        state = EncodedGame(Game(rs, players=players, seed=seed))
        for seat, action in reference.history:
            assert state.current_player() == seat
            for action_id in state.encoding.action_ids(action):
                assert action_id in state.legal_actions()
                obs = state.observation(seat)
                assert len(obs) == state.encoding.observation_size
                state.apply_action(action_id)
        assert state.is_terminal() and state.returns() == list(reference.result.payments)
        assert state.legal_actions() == []


def test_an_observation_reads_only_the_seats_view() -> None:
    rs = load_ruleset("breitnau")
    game = play_out(Game(rs, players=6, seed=4), seed=4)
    hands, talon = [list(h) for h in game.initial_hands], list(game.initial_talon)
    # Seats 3 and 4 get each other's cards: seat 1 cannot tell, at the start or after the calls.
    swapped = [*hands[:3], hands[4], hands[3], hands[5]]
    one = EncodedGame(Game(rs, players=6, deal={"hands": hands, "talon": talon}))
    other = EncodedGame(Game(rs, players=6, deal={"hands": swapped, "talon": talon}))
    for _ in range(3):
        assert one.observation(1) == other.observation(1)
        assert one.observation(3) != other.observation(3)
        move = one.encoding.step_id(("call", "pass"))
        one.apply_action(move)
        other.apply_action(move)
    enc = one.encoding
    hand = one.observation(1)[enc.layout["hand"]]
    assert [enc.cards[i] for i, x in enumerate(hand) if x] == sorted(hands[1], key=enc.cards.index)


@pytest.mark.parametrize(("name", "players"), [("breitnau", 6), ("cego", 4), ("koenigrufen", 4), ("tapp-modern", 4)])
def test_a_seat_cannot_tell_two_deals_apart_that_differ_in_cards_it_does_not_see(name: str, players: int) -> None:
    """From the receiving side, at every step: two deals whose only difference is that two other
    seats hold each other's cards give the observer the same numbers (kept up to date as the deals
    go, each its own way), for as long as the same actions can be taken in both."""
    rs = load_ruleset(name)
    steps = 0
    for seed in range(12):
        dealt = Game(rs, players=players, seed=seed)
        hands, talon = [list(h) for h in dealt.initial_hands], list(dealt.initial_talon)
        a, b = (seed % players + 1) % players, (seed % players + 2) % players
        swapped = list(hands)
        swapped[a], swapped[b] = hands[b], hands[a]
        one = EncodedGame(Game(rs, players=players, deal={"hands": hands, "talon": talon}))
        other = EncodedGame(Game(rs, players=players, deal={"hands": swapped, "talon": talon}))
        watching = [s for s in range(players) if s not in (a, b)]
        choice = random.Random(seed).choice
        size = one.encoding.observation_size
        mine, theirs = array("d", bytes(8 * size)), array("d", bytes(8 * size))
        while not one.is_terminal():
            for seat in watching:
                assert one.observation(seat) == other.observation(seat), (seed, seat, one.game.history[-1:])
                one.observe_into(seat, mine)  # (the way that keeps the public blocks once for the table)
                other.observe_into(seat, theirs)
                assert mine == theirs, (seed, seat, one.game.history[-1:])
            both = sorted(set(one.legal_actions()) & set(other.legal_actions()))
            if not both:
                break
            move = choice(both)
            one.apply_action(move)
            other.apply_action(move)
            steps += 1
    assert steps > 2 * 12  # not only the first action of each deal


# Every ruleset at each table size, and every reading and option other than the default at the
# first: deals by random ids (half of them passing two calls in three, so that lower contracts
# with their exchanges, partner calls and announcements are played too).
TABLES = [(name, None, size) for name in ruleset_names() for size in load_ruleset(name).table_sizes] + [
    (name, {group.name: choice}, load_ruleset(name).table_sizes[0])
    for name in ruleset_names()
    for group in load_ruleset(name).groups
    for choice in group.choices
    if choice != group.default
]


@pytest.mark.parametrize(("name", "options", "players"), TABLES, ids=lambda x: str(x) if x else "")
def test_the_observation_kept_up_to_date_is_the_views_at_every_step(
    name: str, options: dict[str, str] | None, players: int
) -> None:
    """`EncodedGame.observation` and `observe_into` follow the deal's events between readings of
    the view; each must hold exactly what `Encoding.observe` makes of the seat's view (engine/views.py, the one place
    that decides what a seat sees), for the seat to act at every step and for other seats looked
    at now and then (an observation left unread for several turns catches up)."""
    rs = load_ruleset(name, options)
    compared = 0
    for seed in range(3):
        game = Game(rs, players=players, seed=seed)
        state = EncodedGame(game)
        enc, rng = state.encoding, random.Random(seed)
        buffer = array("d", bytes(8 * enc.observation_size))  # observe_into's, kept apart from observation's
        passing = seed % 2 == 0 and ("call", "pass") in enc.ids
        while True:
            for seat in range(players):
                if seat == game.to_act or rng.random() < 0.3:
                    pending = state.pending
                    choosing = pending.chosen if pending is not None and seat == game.to_act else ()
                    expected = enc.observe(game.view(seat), choosing)
                    assert state.observation(seat) == expected, (seed, seat, game.history[-1:], game.events[-3:])
                    state.observe_into(seat, buffer)
                    assert buffer.tolist() == expected, (seed, seat, game.history[-1:], game.events[-3:])
                    compared += 1
            if game.is_over:
                break
            ids = state.legal_actions()
            if passing and enc.ids["call", "pass"] in ids and rng.random() < 0.67:
                state.apply_action(enc.ids["call", "pass"])
            else:
                state.apply_action(rng.choice(ids))
    assert compared


@pytest.mark.parametrize(("name", "options", "players"), TABLES, ids=lambda x: str(x) if x else "")
def test_a_seats_own_view_is_its_view_without_what_every_seat_sees_alike(
    name: str, options: dict[str, str] | None, players: int
) -> None:
    """`views.own_view`, which `observe_into` reads for a seat while the public blocks are kept
    for the table, is exactly the seat's view (recall=True) without `PUBLIC_ENTRIES`, for every
    seat at every step of a deal of every ruleset, table size, reading and option."""
    rs = load_ruleset(name, options)
    game = Game(rs, players=players, seed=0)
    state, rng = EncodedGame(game), random.Random(0)
    enc = state.encoding
    while True:
        assert public_view(game) == {k: v for k, v in game.view(0, recall=True).items() if k in PUBLIC_ENTRIES}
        for seat in range(players):
            view = game.view(seat, recall=True)
            own = own_view(game, seat)
            assert own == {k: v for k, v in view.items() if k not in PUBLIC_ENTRIES}, (seat, game.history[-1:])
            # The part the learner's observer reads besides the table's facts and the hand, and
            # what it writes of them: as the whole own part's.
            entries = seat_entries(game, seat)
            assert entries == {k: v for k, v in own.items() if k not in TABLE_FACTS}, (seat, game.history[-1:])
            written, expected = [0.0] * enc.observation_size, [0.0] * enc.observation_size
            enc.fill_seat(game, seat, entries, written)
            enc.fill_own(own, expected)
            assert written == expected, (seat, game.history[-1:])
        if game.is_over:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(InvalidActionError, match="no seat"):
        own_view(game, players)
    with pytest.raises(InvalidActionError, match="no seat"):
        seat_entries(game, -1)


def test_observe_into_fills_the_callers_buffer_of_any_kind_and_refuses_one_of_another_size() -> None:
    """The zero-copy observation writes into an array of doubles, a memoryview of one, or a list,
    the same numbers as `observation`; a buffer of the wrong length is refused, naming the size,
    and left as it was."""
    state = EncodedGame(Game(load_ruleset("cego"), players=4, seed=5))
    size = state.encoding.observation_size
    rng = random.Random(5)
    for _ in range(12):
        seat = state.current_player()
        assert seat is not None
        packed, view, plain = array("d", bytes(8 * size)), memoryview(array("d", bytes(8 * size))), [9.0] * size
        for buffer in (packed, view, plain):
            state.observe_into(seat, buffer)
        assert packed.tolist() == view.tolist() == plain == state.observation(seat)
        state.apply_action(rng.choice(state.legal_actions()))
    short = array("d", bytes(8 * (size - 1)))
    with pytest.raises(InvalidActionError, match=f"holds {size - 1} numbers; an observation has {size}"):
        state.observe_into(0, short)
    assert short.tolist() == [0.0] * (size - 1)


def test_a_discard_is_chosen_card_by_card() -> None:
    rs = load_ruleset("breitnau")
    state = EncodedGame(Game(rs, players=6, seed=2))
    enc = state.encoding
    for call in ["pass"] * 6 + ["dappen"] + ["pass"] * 5:
        state.apply_action(enc.step_id(("call", call)))
    declarer = state.game.declarer
    assert declarer == 1 and state.game.phase.value == "exchange"
    hand = state.game.hands[declarer]
    offered = [enc.step(i)[1] for i in state.legal_actions()]
    assert sorted(offered) == sorted(c for c in hand if c not in FIVE_POINTERS)
    first, *rest = offered[:12]
    state.apply_action(enc.step_id(("discard", first)))
    assert enc.step_id(("discard", first)) not in state.legal_actions()
    # The card chosen shows in the declarer's own observation only, and the game has not moved.
    choosing = enc.layout["choosing"]
    assert sum(state.observation(declarer)[choosing]) == 1 and sum(state.observation(2)[choosing]) == 0
    assert len(state.game.hands[declarer]) == 19
    copy = state.clone()
    for card in rest:
        state.apply_action(enc.step_id(("discard", card)))
    assert state.game.phase.value == "play" and sorted(state.game.aside) == sorted(offered[:12])
    assert copy.game.phase.value == "exchange" and copy.pending is not None and copy.pending.chosen == [first]
    with pytest.raises(IllegalActionError):
        state.apply_action(enc.step_id(("call", "solo")))


def _completing(enc: Encoding, offered: list[Any], kind: str, chosen: list[str]) -> list[int]:
    """The ids of the cards that can still complete a discard or keep of `offered` after the
    cards `chosen`, worked out here card by card (not by engine/ids.py)."""
    cards: set[str] = set()
    for action in offered:
        value = action.get(kind) if isinstance(action, dict) else None
        if isinstance(value, dict):  # a template: any of its cards
            cards |= set(value["from"])
        elif value is not None and all(card in value for card in chosen):
            cards |= set(value)
    return sorted(enc.ids[kind, card] for card in cards if card not in chosen)


def _learner_steps(enc: Encoding, seeds: int) -> Iterator[tuple[int, EncodedGame, list[int], random.Random]]:
    """Every step of random deals of the seeds below `seeds` played by ids: (the seed, the state,
    its legal ids, the deal's chooser). Once the caller has looked (and tried what it likes), a
    legal id chosen at random is taken and the deal goes on."""
    for seed in range(seeds):
        state = EncodedGame(Game(enc.ruleset, players=enc.players, seed=seed), enc)
        rng = random.Random(seed)
        while not state.is_terminal():
            ids = state.legal_actions()
            yield seed, state, ids, rng
            state.apply_action(rng.choice(ids))


@pytest.mark.parametrize(("name", "players"), [("breitnau", 6), ("cego", 4), ("tapp", 3), ("dreierles", 3)])
def test_a_choice_card_by_card_lists_the_ids_the_game_offers_after_each_card(name: str, players: int) -> None:
    """While a discard or keep is chosen card by card, the game does not move, so the state lists
    its legal actions once for the choice; the ids it lists after each card (and after a card it
    refused) must be those worked out afresh from the game's legal actions and the cards chosen."""
    enc = Encoding.of(load_ruleset(name), players)
    met = 0
    for seed, state, ids, rng in _learner_steps(enc, seeds=40):
        pending = state.pending
        if pending is not None:
            met += 1
            assert ids == _completing(enc, state.game.legal_actions(), pending.kind, pending.chosen), seed
            wrong = [i for i in range(enc.num_actions) if i not in ids and enc.step(i)[0] == pending.kind]
            if wrong:
                before = (list(pending.chosen), len(state.game.events))
                with pytest.raises(IllegalActionError):
                    state.apply_action(rng.choice(wrong))
                assert (pending.chosen, len(state.game.events)) == before and state.legal_actions() == ids
    assert met


@pytest.mark.parametrize(("name", "players"), [("breitnau", 6), ("cego", 4), ("tapp", 3), ("dreierles", 3)])
def test_the_first_card_of_a_choice_is_taken_exactly_where_its_id_is_listed(name: str, players: int) -> None:
    """The first card of a discard or keep is judged against the actions the game offers without
    listing every id again (`ActionIds.offers`): a card of the kind whose id the turn's listing
    has begins the choice; any other is refused, and nothing changes."""
    enc = Encoding.of(load_ruleset(name), players)
    met = 0
    for seed, state, ids, rng in _learner_steps(enc, seeds=40):
        kinds = {enc.step(i)[0] for i in ids} & {"discard", "keep"}
        if state.pending is None and kinds:
            met += 1
            (kind,) = kinds
            offered = state.game.legal_actions()
            for card in enc.cards:
                assert enc.action_table.offers(offered, kind, card) == (enc.ids[kind, card] in ids), (seed, card)
            wrong = [enc.ids[kind, card] for card in enc.cards if enc.ids[kind, card] not in ids]
            if wrong:
                before = len(state.game.events)
                with pytest.raises(IllegalActionError):
                    state.apply_action(rng.choice(wrong))
                assert state.pending is None and len(state.game.events) == before and state.legal_actions() == ids
    assert met


def test_a_clone_is_the_same_game_and_independent() -> None:
    rs = load_ruleset("cego")
    game = Game(rs, players=4, seed=8)
    bot = RandomBot(3)
    for _ in range(20):
        game.apply(game.to_act, bot.choose(game, game.to_act))
    copy = clone_game(game)
    assert copy.history == game.history and copy.legal_actions() == game.legal_actions()
    assert all(copy.view(s) == game.view(s) for s in range(4))
    copy.apply(copy.to_act, copy.legal_actions()[0])
    assert len(copy.history) == len(game.history) + 1
    play_out(copy, seed=1)
    assert not game.is_over and copy.is_over


def test_readme_example_runs() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    code = next(block for block in re.findall(r"```python\n(.*?)```", readme, re.S) if "EncodedGame" in block)
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert namespace["state"].is_terminal()


# -- Königrufen: kontra, the round of announcements, partner calls, concede ---------------------


def test_koenigrufen_ids_come_after_the_older_sections() -> None:
    enc = Encoding.of(load_ruleset("koenigrufen"), 4)
    # The ids the encoding had before Königrufen's kinds were added keep their places ...
    assert enc.step_id(("play", "T1")) == 0 and enc.step_id(("call", "pass")) == 54
    assert enc.section["discard"] == range(70, 124) and enc.section["announce"] == range(124, 124)
    # ... and the new sections follow: kontra (the game, then the bonuses that may be announced),
    # those bonuses announced, the Kings called for a partner, the choices.
    assert [k for k in SECTIONS if len(enc.section[k])] == [
        "play",
        "call",
        "discard",
        "kontra",
        "bonus",
        "partner",
        "choice",
    ]
    assert enc.step(124) == ("kontra", "game") and enc.step(125) == ("kontra", "trull")
    assert enc.step(133) == ("announce", ("trull", ()))
    assert [enc.step(i) for i in enc.section["partner"]] == [("call_card", k) for k in ("CK", "SK", "HK", "DK")]
    assert [what for _, what in (enc.step(i) for i in enc.section["choice"])] == [
        "fourth_king",
        "concede",
        "first",
        "second",
    ]
    assert enc.num_actions == 149 and sorted(enc.ids.values()) == list(range(149))
    # The round's done call is the auction's pass: no section of its own.
    assert len(enc.section["round"]) == 0


def test_the_rulesets_before_koenigrufen_keep_their_ids_and_vectors() -> None:
    for name, players, actions, size in (
        ("breitnau", 6, 114, 993),
        ("cego", 4, 176, 800),
        ("tapp-modern", 4, 158, 547),
    ):
        enc = Encoding.of(load_ruleset(name), players)
        assert (enc.num_actions, enc.observation_size) == (actions, size), name


def _legal_actions_met(players: int) -> list[tuple[int, object]]:
    """Every legal action of 300 seeded deals of Königrufen: half played by uniform choices, half
    by players who pass two times in three (so that the lower games, Rufer with its partner call
    and its talon in parts, are played too)."""
    rs = load_ruleset("koenigrufen")
    met: list[tuple[int, object]] = []
    for seed in range(300):
        game = Game(rs, players=players, seed=seed)
        bot = RandomBot(seed, pass_probability=None if seed % 2 else 0.67)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            met += [(seed, action) for action in game.legal_actions(seat)]
            game.apply(seat, bot.choose(game, seat))
    return met


@pytest.mark.parametrize("players", [4, 5])
def test_every_koenigrufen_action_met_has_an_id_that_decodes_back_to_it(players: int) -> None:
    enc = Encoding.of(load_ruleset("koenigrufen"), players)
    kinds: set[str] = set()
    for seed, action in _legal_actions_met(players):
        if isinstance(action, dict) and isinstance(action.get("discard"), dict):
            # A choice too large to list: each card it may take has an id.
            kinds.add("discard")
            assert all(("discard", card) in enc.ids for card in action["discard"]["from"]), seed
            continue
        ids = enc.action_ids(action)
        assert enc.action_of(ids) == action, (seed, action)
        kinds.add(action if isinstance(action, str) else next(iter(action)))
    assert {"pass", "play", "kontra", "announce", "call_card", "choose", "discard"} <= kinds


def test_koenigrufen_driven_by_ids_to_the_end_and_observed() -> None:
    rs = load_ruleset("koenigrufen")
    for seed in range(6):
        reference = play_out(Game(rs, players=4, seed=seed), seed=seed, pass_probability=0.67)
        state = EncodedGame(Game(rs, players=4, seed=seed))
        enc = state.encoding
        for seat, action in reference.history:
            for action_id in enc.action_ids(action):
                assert action_id in state.legal_actions()
                state.apply_action(action_id)
            obs = state.observation(seat)
            view = state.game.view(seat)
            announced = obs[enc.layout["announced"]]
            assert sum(announced) == len(view.get("announced", {}))
            for name, side in view.get("announced", {}).items():
                assert announced[2 * enc.bonuses.index(name) + (side != "declarer")] == 1.0
            kontra = obs[enc.layout["kontra"]]
            assert {enc.kontra_items[i] for i, x in enumerate(kontra) if x} == set(view.get("kontra", {}))
            called = obs[enc.layout["called"]]
            assert [enc.cards[i] for i, x in enumerate(called) if x] == ([view["called"]] if view.get("called") else [])
        assert state.is_terminal() and state.returns() == list(reference.result.payments)


def test_the_dealers_choice_is_offered_as_the_shared_actions_the_ids_know() -> None:
    """The dealer's choice of a deal plan is offered as actions made once per ruleset, the very
    objects the ids hold as ready (so that listing the ids of the offer is a lookup each, and an
    id is taken as the game's own action)."""
    rs = load_ruleset("furtwangen")
    enc = Encoding.of(rs, 6)
    for seed in range(3):
        game = Game(rs, players=6, seed=seed)
        assert game.phase.value == "deal"
        offered, ids = game.legal_actions(), game.legal_ids()
        assert len(offered) > 1 and len(ids) == len(offered)
        ready = {id(enc.action_table.ready_by_id[i]) for i in ids}
        assert ready == {id(action) for action in offered}
        state = EncodedGame(game, enc)
        state.apply_action(ids[-1])
        assert game.deal_plan == offered[-1]["choose"] and game.phase.value != "deal"


@pytest.mark.parametrize(("name", "players"), [("koenigrufen", 4), ("tapp-modern", 4), ("cego", 4)])
def test_a_seat_whose_own_entries_alone_changed_writes_only_those_and_sees_its_view(
    name: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where an event changes what a seat's own entries show (views.own_entries: a bonus
    announced, the partner made known) and neither its hand nor the table's facts, `observe_into`
    writes only the blocks of those entries again, not the whole observation. Every seat's
    observation is still exactly what `Encoding.observe` makes of its view, at every step of
    these deals; and the short reading is taken (here counted), or this test would prove nothing
    of it."""
    from interpreter.engine import encoding as encoding_module

    counted = {"reads": 0, "whole": 0}
    entries_of, fill_seat = encoding_module.own_entries, Encoding.fill_seat

    def reading(game: Game, seat: int) -> dict[str, Any]:
        counted["reads"] += 1
        return entries_of(game, seat)

    def whole(self: Encoding, *args: Any) -> None:
        counted["whole"] += 1
        fill_seat(self, *args)

    monkeypatch.setattr(encoding_module, "own_entries", reading)
    monkeypatch.setattr(Encoding, "fill_seat", whole)
    rs = load_ruleset(name)
    for seed in range(4):
        state, rng = EncodedGame(Game(rs, players=players, seed=seed)), random.Random(seed)
        enc, game = state.encoding, state.game
        buffer = array("d", bytes(8 * enc.observation_size))
        while not game.is_over:
            for seat in range(players):
                pending = state.pending
                choosing = pending.chosen if pending is not None and seat == game.to_act else ()
                state.observe_into(seat, buffer)
                assert buffer.tolist() == enc.observe(game.view(seat), choosing), (seed, seat, game.events[-3:])
            state.apply_action(rng.choice(state.legal_actions()))
    assert counted["whole"] < counted["reads"], counted
