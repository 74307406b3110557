"""The protocol's seat tokens as a boundary: a walk over whole deals of every ruleset in which
every seat asks everything it may (`view`, `legal`, `events`, `act`, `bot`) and tries what it may
not (another seat's turn and view, a card it does not hold, the record), and every answer to
every token is read from the receiving side: it may name only cards that seat may know at that
moment, and the partnership only where that seat knows it. Where the deal turns, and now and
then, each seat's answers are compared with those of a twin deal it cannot tell apart (the
cards it has not seen dealt otherwise): no answer may depend on them. That found the leak of
issue 27: in Furtwangen the phase after the auction told every seat whether the declarer held
cards to announce Ulti with (the engine asked the declarer only then).

What a seat may know is worked out here, not by the server's own filters: the cards it holds or
has held, and the cards the whole table has seen (played, laid out, turned up by the rules, and,
once a deal is counted, the talon and the discards). Seeded: a failure reproduces.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from interpreter import ruleset_names
from interpreter.engine.game import Game
from interpreter.frontends.server import Session

RULESETS = ruleset_names()


def card_ids(value: Any, cards: frozenset[str]) -> set[str]:
    """Every card id anywhere in a JSON value (keys included, and in text: an error message)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.update(word for word in _words(item) if word in cards)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _words(text: str) -> list[str]:
    return "".join(c if c.isalnum() else " " for c in text).split()


def public_cards(game: Game) -> set[str]:
    """What the whole table has seen so far."""
    seen = {c for t in game.tricks for c in t.cards}
    for event in game.events:
        kind = event["type"]
        if kind in ("claim", "open_hand"):
            seen.update(event["hand"])
        elif kind == "announce":
            seen.update(event["cards"])
        elif kind == "keep":
            seen.update(event.get("exposed", ()))
        elif kind == "forced_discard":
            seen.update(event.get("cards", ()))
        elif kind in ("offence", "call_card", "talon_card", "forfeit", "play") and "card" in event:
            seen.add(event["card"])
        elif kind == "call_partner" and "card" in event:
            seen.add(event["card"])  # a King called by name is public; its holder is not
        elif kind == "talon_shown":
            seen.update(event["cards"])
        elif kind == "accusation":
            seen.update(c for hand in event["hands"] for c in hand)
    if game.is_over and game.result is not None and game.result.points is not None:
        seen.update(game.initial_talon)
        seen.update(game.aside)
    return seen


class Walk:
    """One game opened with tokens, and what each seat has held so far."""

    def __init__(self, session: Session, name: str, players: int, seed: int):
        self.session = session
        answer = session.handle({"op": "new", "ruleset": name, "players": players, "seed": seed, "tokens": True})
        assert answer["ok"], answer
        self.gid, self.tokens = answer["game"], answer["tokens"]
        self.game: Game = session.games[self.gid].game
        self.cards = frozenset(self.game.ruleset.deck.cards)
        self.held = {s: set(self.game.hands[s]) for s in range(self.game.players)}
        self.answers = 0

    def ask(self, seat: int, request: dict[str, Any]) -> dict[str, Any]:
        """`request` with `seat`'s token; its answer, checked against what `seat` may know now."""
        answer = self.session.handle({"game": self.gid, "token": self.tokens[seat], **request})
        game = self.game
        known = self.known(seat)
        named = card_ids(answer, self.cards) - card_ids(request, self.cards)  # its own words echoed
        if request["op"] in ("legal", "bot"):
            # A card to call may be any the caller does not hold: the offer tells no holder.
            offered = [*answer.get("actions", ()), answer.get("action")]
            named -= {a["call_card"] for a in offered if isinstance(a, dict) and "call_card" in a}
        leaked = named - known
        assert not leaked, (
            f"{game.ruleset.name} seed {game.seed}: seat {seat} was told {sorted(leaked)} "
            f"in answer to {request}: {str(answer)[:400]}"
        )
        view = answer.get("view")
        if isinstance(view, dict):
            self._partnership(seat, view)
        self.answers += 1
        return answer

    def known(self, seat: int) -> set[str]:
        """The cards `seat` may know now: those it holds or held, and those the table has seen."""
        game = self.game
        for s in range(game.players):
            self.held[s] |= set(game.hands[s])
        exchange = game.exchange
        known = self.held[seat] | public_cards(game)
        defender = seat in game.seats and seat not in (game.declarer, game.partner)
        if exchange is not None and exchange.rest_seen_by_defenders and defender:
            known |= set(game.talon)  # the rest of a talon drawn from in part, seen by the defenders
        if seat == game.declarer and game.contract is not None and game.contract.exchange:
            known |= set(game.aside)  # the lone player's own discards
        return known

    def twin(self, seat: int, rng: random.Random) -> tuple[str, list[str], str] | None:
        """A game opened beside this one that `seat` cannot tell from it: the cards of the other
        hands it has not seen shuffled among them, the same actions taken. Its id, its tokens
        and the umpire's; None when the shuffle does not agree with the actions taken."""
        game, known = self.game, self.known(seat)
        record = game.record()
        new = {"op": "new", "ruleset": record["ruleset"], "players": game.players, "dealer": game.dealer}
        if "deal" not in record:
            # Nothing dealt yet (the dealer first chooses how to deal, deal.choice): the twin is
            # any other shuffle, still waiting for the dealer's choice.
            answer = self.session.handle({**new, "seed": rng.randrange(2**63), "tokens": True})
            assert answer["ok"], answer
            return answer["game"], answer["tokens"], answer["umpire"]
        hands = [list(h) for h in record["deal"]["hands"]]
        others = [s for s in range(game.players) if s != seat]
        pool = [c for s in others for c in hands[s] if c not in known]
        rng.shuffle(pool)
        for s in others:
            kept = [c for c in hands[s] if c in known]
            hands[s], pool = kept + pool[: len(hands[s]) - len(kept)], pool[len(hands[s]) - len(kept) :]
        # A deal the dealer chose how to deal says its plan (given card by card, the twin has
        # no choice to make: _comparable leaves out the choice's own events).
        plan = {"plan": record["deal"]["plan"]} if "plan" in record["deal"] else {}
        answer = self.session.handle(
            {**new, "deal": {"hands": hands, "talon": record["deal"]["talon"], **plan}, "tokens": True}
        )
        assert answer["ok"], answer
        gid, umpire = answer["game"], answer["umpire"]
        for acting, action in record["actions"]:
            done = self.session.handle({"op": "act", "game": gid, "token": umpire, "seat": acting, "action": action})
            if not done["ok"]:
                self.session.handle({"op": "close", "game": gid, "token": umpire})
                return None
        return gid, answer["tokens"], umpire

    def same_answers(self, seat: int, rng: random.Random) -> None:
        """`seat`'s answers here and in a twin it cannot tell apart are the same: none depends
        on a card the seat has not seen (the phase, whose turn, what it may do, a refusal)."""
        found = self.twin(seat, rng)
        if found is None:
            return
        gid, tokens, umpire = found
        hand = self.game.hands[seat]
        probes: list[dict[str, Any]] = [{"op": "view"}, {"op": "legal"}, {"op": "events"}]
        legal = self.session.handle({"op": "legal", "game": self.gid, "token": self.tokens[seat]})["actions"]
        for action in ("pass", {"play": hand[0]} if hand else None, {"kontra": "game"}):
            if action is not None and action not in legal:
                probes.append({"op": "act", "action": action})  # refused in both: the same reason
        for probe in probes:
            here = self.session.handle({**probe, "game": self.gid, "token": self.tokens[seat]})
            there = self.session.handle({**probe, "game": gid, "token": tokens[seat]})
            assert _comparable(here) == _comparable(there), (
                f"{self.game.ruleset.name} seed {self.game.seed} step {len(self.game.history)}: seat {seat}'s "
                f"answer to {probe} depends on cards it has not seen: {str(here)[:300]} / {str(there)[:300]}"
            )
        self.session.handle({"op": "close", "game": gid, "token": umpire})

    def _partnership(self, seat: int, view: dict[str, Any]) -> None:
        """Whom the called card makes the partner: only to a seat that knows it."""
        game = self.game
        card = game.called_card or (game.exchange.partner_card if game.exchange is not None else None)
        if card is None:
            assert "partner" not in view and "called" not in view
            return
        holds = card in self.held[seat] and seat != game.declarer  # the holder knows its side
        if "partner" in view:
            assert game.partner_public or game.is_over or holds or seat == game.partner, (
                f"{game.ruleset.name} seed {game.seed}: seat {seat} is told the partner before it is known"
            )


def _comparable(answer: dict[str, Any]) -> Any:
    """An answer less what differs between two games by construction (the id, an explicit deal,
    the dealer's choice that a twin given its cards with their plan did not make)."""
    answer = {k: v for k, v in answer.items() if k not in ("game", "id")}
    if "events" in answer:
        kept = [e for e in answer["events"] if e["type"] != "deal_chosen" and e.get("phase") != "deal"]
        if "next" in answer:
            answer["next"] -= len(answer["events"]) - len(kept)  # (the probe asks for every event)
        answer["events"] = [{k: v for k, v in e.items() if k != "explicit"} for e in kept]
    return answer


def walk(name: str, players: int, seed: int) -> int:
    """Play one deal by every seat's token alone, with every seat asking and trying at every
    step; returns how many answers were checked."""
    rng = random.Random(seed)
    w = Walk(Session(), name, players, seed)
    game = w.game
    seats = range(game.players)
    phase = None
    while True:
        if game.phase.value != phase or rng.random() < 0.1:
            # Where the deal turns (and now and then): could a seat tell this deal from another?
            for seat in seats if game.phase.value != phase else [rng.choice(seats)]:
                w.same_answers(seat, rng)
            phase = game.phase.value
        for seat in seats:
            w.ask(seat, {"op": "view"})
            w.ask(seat, {"op": "legal"})
            w.ask(seat, {"op": "events", "since": rng.randrange(len(game.events) + 1)})
            w.ask(seat, {"op": "record"})  # forbidden
            w.ask(seat, {"op": "view", "seat": "all"})  # forbidden
            w.ask(seat, {"op": "view", "seat": (seat + 1) % game.players})  # forbidden
            w.ask(seat, {"op": "bot"})  # another seat's turn, or its own bot's advice
        if game.is_over:
            break
        to_act = game.to_act
        assert to_act is not None
        others = [s for s in seats if s != to_act]
        legal = w.ask(to_act, {"op": "legal"})["actions"]
        # Tries that must be refused: the seat to act plays a card it does not hold or may not
        # play; another seat acts with the seat to act's legal action, or names the seat to act.
        pack = sorted(w.cards)
        before = game.record()
        for action in ({"play": rng.choice(pack)}, "pass", {"discard": rng.sample(pack, 2)}, rng.choice(legal)):
            if action in legal:
                continue
            answer = w.ask(to_act, {"op": "act", "action": action})
            if answer["ok"]:  # a card the ruleset penalises rather than refuses
                break
        else:
            for seat in rng.sample(others, min(2, len(others))):
                w.ask(seat, {"op": "act", "action": rng.choice(legal)})
                w.ask(seat, {"op": "act", "seat": to_act, "action": rng.choice(legal)})
            assert game.record() == before
            if rng.random() < 0.3:
                assert w.ask(to_act, {"op": "bot", "apply": True, "kind": rng.choice(["rules", "random"])})["ok"]
            else:
                action = rng.choice(legal)
                if isinstance(action, dict) and isinstance(next(iter(action.values())), dict):
                    template = next(iter(action.values()))
                    allowed = [c for c in template["from"] if c not in template.get("forbidden", ())]
                    action = {next(iter(action)): rng.sample(allowed, template["count"])}
                assert w.ask(to_act, {"op": "act", "action": action})["ok"]
    return w.answers


@pytest.mark.parametrize("name", RULESETS)
def test_every_answer_to_every_token_tells_only_what_its_seat_may_know(name: str) -> None:
    from interpreter import load_ruleset

    sizes = load_ruleset(name).table_sizes
    checked = sum(walk(name, sizes[seed % len(sizes)], seed) for seed in range(4))
    assert checked > 200


def test_the_walk_would_catch_a_leak() -> None:
    """The check itself: an answer naming another seat's card fails it."""
    w = Walk(Session(), "cego", 4, 1)
    other = sorted(w.game.hands[1])[0]
    w.session.ops["games"] = lambda req: {"games": [other]}
    with pytest.raises(AssertionError, match="seat 0 was told"):
        w.ask(0, {"op": "games"})


def test_a_declarer_with_nothing_to_announce_is_asked_all_the_same() -> None:
    """Furtwangen: the declarer whose hand holds no Ulti is asked too, and may only pass (the
    phase no longer tells the table what it holds); a record from before, in which it leads at
    once, replays: its lead says the pass."""
    from interpreter import load_ruleset
    from interpreter.bots.rulebot import RuleBot
    from interpreter.engine.announcements import announcement_choices

    rs, bot = load_ruleset("furtwangen"), RuleBot()
    asked = {True: 0, False: 0}
    for seed in range(40):
        game = Game(rs, players=6, seed=seed)
        while not game.is_over and game.phase.value in ("deal", "auction", "exchange"):  # the dealer's choice too
            assert game.to_act is not None
            game.apply(game.to_act, bot.choose(game, game.to_act))
        if game.is_over or game.declarer is None:
            continue
        assert game.phase.value == "announce" and game.to_act == game.declarer
        may = bool(announcement_choices(rs, game.contract, game.hands[game.declarer]))
        asked[may] += 1
        if not may:
            assert game.legal_actions() == ["pass"]
            lead = {"play": sorted(game.hands[game.declarer])[0]}
            record = game.record()
            events = game.apply(game.declarer, lead)  # as an older record has it: the lead, no pass
            assert [e["type"] for e in events[:2]] == ["call", "phase"] and events[0]["phase"] == "announce"
            again = Game(rs, players=6, deal=record["deal"])
            for seat, action in [*record["actions"], [game.declarer, "pass"], [game.declarer, lead]]:
                again.apply(seat, action)
            assert again.view("all")["tricks"] == game.view("all")["tricks"]
    assert asked[True] and asked[False]
