"""A bot that searches: determinized Monte Carlo over the ruleset itself.

In the trick play, for each of its legal cards, the bot samples worlds (deals of the cards it
cannot see that agree with everything it saw), builds each world as a game of the engine (the
cards dealt, the calls, the exchange and the tricks so far replayed), plays the card and then
the rest of the deal out with the rule bot (or at random: `rollout="random"`, faster, weaker),
and picks the card with the best mean payment to its seat. The auction and the exchange it leaves to the rule bot (`RuleBot`).

What it reads is what its seat may read: `game.view(seat)`, `game.legal_actions(seat)`, the
ruleset, and what it remembers of its own earlier turns in this deal (its hand as dealt, the
talon it took up, its own exchange). Never another seat's hand, the history's hidden actions,
or the deal: tests/test_searchbot.py gives it a game that raises on any such access. A world
agrees with what the seat saw: the cards played, the cards face up, its own cards and discards,
the calls; a seat that did not follow suit or trump gets no card of that suit; a world in which
the replay is refused (a bid the sampled hand could not make, a card it could not play) is
thrown away and another drawn.

Budget: `worlds` samples per decision (the same worlds for every card, so that the cards are
compared on the same deals), or fewer when `seconds` runs out first.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.bots.randombot import expand
from interpreter.bots.rulebot import RuleBot
from interpreter.engine.actions import ActionJson
from interpreter.engine.encoding import clone_game
from interpreter.engine.game import Game
from interpreter.engine.tricks import TrickRules
from interpreter.errors import TarockError
from interpreter.language.model import TRUMP

View = dict[str, Any]


class Misdrawn(TarockError):
    """A world in which another declarer must discard cards it was drawn to keep: the cards the
    world put among its discards that it may not discard, and the cards it may."""

    def __init__(self, forbidden: list[str], allowed: list[str]):
        super().__init__(f"drawn among the discards but not to be discarded: {', '.join(forbidden)}")
        self.forbidden, self.allowed = forbidden, allowed


@dataclass
class Memory:
    """What the bot's seat saw on its own turns in one deal."""

    dealt: list[str] | None = None  # its hand at its first turn of the auction (as dealt)
    exchange: list[tuple[list[str], ActionJson]] = field(default_factory=list)  # (hand before, action)


class SearchBot:
    """Chooses cards by determinized Monte Carlo search; bids and exchanges as the rule bot."""

    def __init__(
        self,
        worlds: int = 16,
        seconds: float | None = None,
        seed: int | None = 0,
        rollout: str = "rules",
        attempts: int = 20,
    ):
        if rollout not in ("random", "rules"):
            raise ValueError(f"rollout is 'random' or 'rules', not {rollout!r}")
        self.worlds, self.seconds, self.rollout, self.attempts = worlds, seconds, rollout, attempts
        self.repairs = 3  # swaps of cards another declarer may not discard, per world drawn
        self.rng = random.Random(seed)
        self.rules = RuleBot()
        self._game: Game | None = None
        self._memory: dict[int, Memory] = {}
        self.searched = self.fallbacks = 0  # decisions searched, and those no world could be built for

    # -- memory of the seat's own turns ---------------------------------------------------------------
    def _remember(self, game: Game, seat: int, view: View) -> Memory:
        if game is not self._game:
            self._game, self._memory = game, {}
        memory = self._memory.setdefault(seat, Memory())
        if memory.dealt is None and view["phase"] == "auction":
            memory.dealt = list(view["hand"])
        elif memory.dealt is None and view["phase"] == "play" and not memory.exchange and view["declarer"] != seat:
            # Its first turn is in the play (the auction ended before it spoke): a seat that took
            # no part in the exchange holds what it was dealt, less what it has played. (Where
            # another's exchange gave it cards, the replay says so and the world is drawn again.)
            mine = [c for t in view["tricks"] for s, c in zip(t["seats"], t["cards"], strict=False) if s == seat]
            memory.dealt = list(view["hand"]) + mine
        return memory

    def choose(self, game: Game, seat: int) -> ActionJson:
        view = game.view(seat, recall=True)  # it remembers every card it saw played
        memory = self._remember(game, seat, view)
        legal = game.legal_actions(seat)
        if view["phase"] != "play" or len(legal) == 1:
            action = self.rules.choose(game, seat)
            if view["phase"] == "exchange":
                memory.exchange.append((list(view["hand"]), _copy(action)))
            return action
        return self._search(game, seat, view, memory, legal)

    # -- the search ----------------------------------------------------------------------------------
    def _search(self, game: Game, seat: int, view: View, memory: Memory, legal: list[ActionJson]) -> ActionJson:
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        totals = [0.0] * len(legal)
        counted = 0
        failures = 0
        while counted < self.worlds and failures < self.attempts * self.worlds:
            if deadline is not None and counted and time.perf_counter() > deadline:
                break
            world = self._world(game, seat, view, memory)
            if world is None:
                failures += 1
                continue
            for i, action in enumerate(legal):
                trial = clone_game(world) if i < len(legal) - 1 else world
                trial.apply(seat, action)
                self._play_out(trial)
                assert trial.result is not None
                totals[i] += trial.result.payments[seat]
            counted += 1
        self.searched += 1
        if not counted:
            self.fallbacks += 1
            return self.rules.choose(game, seat)
        best = max(range(len(legal)), key=lambda i: totals[i])
        return legal[best]

    def _play_out(self, game: Game) -> None:
        if self.rollout == "rules":
            choose: Callable[[Game, int], Any] = self.rules.choose
        else:
            rng = self.rng

            def choose(g: Game, s: int) -> Any:
                return expand(rng.choice(g.legal_actions(s)), rng)

        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            game.apply(seat, choose(game, seat))

    # -- sampling a world ----------------------------------------------------------------------------
    def _world(self, game: Game, me: int, view: View, memory: Memory) -> Game | None:
        """A game of the engine at this very point of the deal, with the hidden cards drawn at
        random so as to agree with `view`; None when the draw turned out inconsistent."""
        rs = game.table_ruleset
        players = view["players"]
        declarer = view["declarer"]
        if memory.dealt is None:
            return None  # the bot did not see the deal start: it cannot rebuild its own hand
        plays = [(s, c) for t in view["tricks"] for s, c in zip(t["seats"], t["cards"], strict=False)]
        played: dict[int, list[str]] = {s: [] for s in range(players)}
        for s, c in plays:
            played[s].append(c)
        face_up = set(view.get("exposed", ())) | set(view.get("laid_out", ()))
        if "open_hand" in view:
            face_up |= set(view["open_hand"]["cards"])
        face_up -= {c for _, c in plays}
        known = set(view["hand"]) | {c for _, c in plays} | set(view.get("aside", ())) | set(view.get("talon", ()))
        # Its own cards as dealt and the hands it saw while exchanging: it knows where those are
        # even where its view no longer shows them (a Cego declarer's cards laid aside).
        known |= set(memory.dealt)
        for seen, _ in memory.exchange:
            known.update(seen)
        active = players - len(view["seats_out"])
        pack = list(game.ruleset.pack(active))
        unknown = [c for c in pack if c not in known and c not in face_up]
        self.rng.shuffle(unknown)
        voids = _voids(game, view)
        # Current hands of the others: the declarer's face-up cards are theirs; the rest drawn,
        # the seats with most voids first.
        hands: dict[int, list[str]] = {s: [] for s in range(players)}
        hands[me] = list(view["hand"])
        others = [s for s in range(players) if s != me and view["hand_sizes"][s] > 0]
        if declarer is not None and declarer != me:
            hands[declarer] += [c for c in face_up if c not in view["hand"]]
        others.sort(key=lambda s: -len(voids.get(s, ())))
        follow = TrickRules.of(game.ruleset).follow
        for s in others:
            need = view["hand_sizes"][s] - len(hands[s])
            fits = [c for c in unknown if follow[c] not in voids.get(s, ())]
            if len(fits) < need:
                return None
            chosen = fits[:need]
            hands[s] += chosen
            taken = set(chosen)
            unknown = [c for c in unknown if c not in taken]
        talon = unknown[: view["talon_size"]]  # the talon still lying there
        aside = unknown[view["talon_size"] :]  # another declarer's discards (or nothing)
        for _ in range(self.repairs + 1):
            deal = self._deal(game, view, memory, me, declarer, active, hands, played, talon, aside)
            if deal is None:
                return None
            try:
                world = Game(rs, players, view["dealer"], deal=deal)
                self._replay(world, me, view, memory, hands, played, plays)
            except Misdrawn as wrong:
                # Another declarer's discards were drawn with cards it may not discard: swap
                # them into a hand for cards it may, and deal the world again.
                if declarer is None or not _swap(wrong, declarer, me, hands, aside, face_up, voids, follow):
                    return None
                continue
            except TarockError:
                return None
            return world
        return None

    def _deal(
        self,
        game: Game,
        view: View,
        memory: Memory,
        me: int,
        declarer: int | None,
        active: int,
        hands: dict[int, list[str]],
        played: dict[int, list[str]],
        talon: list[str],
        aside: list[str],
    ) -> dict[str, Any] | None:
        """The deal of a world whose hands at this point of the play are `hands`: every seat's
        cards at the start of the play and the cards it has played; a declarer who took up the
        talon held some of them in the talon instead. None when the sizes do not add up."""
        players = view["players"]
        dealt = {s: hands[s] + played[s] for s in range(players)}
        dealt[me] = list(memory.dealt or ())
        talon_dealt = list(talon)
        if declarer == me:
            # What it took up: the cards it has had since, less those it was dealt.
            had = set(view["hand"]) | set(played[me]) | set(view.get("aside", ()))
            for seen, _ in memory.exchange:  # the hands it saw while exchanging, talon included
                had.update(seen)
            pack = game.ruleset.pack(active)
            talon_dealt = [c for c in pack if c in had and c not in dealt[me]] + talon
        elif declarer is not None and view["talon_size"] < _talon_size(game, active):
            # Another declarer took up the talon: its cards and discards, split at random into a
            # hand as dealt and the talon.
            pool = dealt[declarer] + aside
            self.rng.shuffle(pool)
            # Its discards in the hand as dealt first: an exchange that keeps cards of the hand
            # before taking up the talon (Cego) puts the rest aside.
            discards = set(aside)
            pool.sort(key=lambda c: c not in discards)
            size = len(dealt[me])
            dealt[declarer], talon_dealt = pool[:size], pool[size:] + talon
        if len(talon_dealt) != _talon_size(game, active):
            return None
        for seat in view["seats_out"]:
            dealt[seat] = []
        return {"hands": [dealt[s] for s in range(players)], "talon": talon_dealt}

    def _replay(
        self,
        world: Game,
        me: int,
        view: View,
        memory: Memory,
        hands: dict[int, list[str]],
        played: dict[int, list[str]],
        plays: list[tuple[int, str]],
    ) -> None:
        """Bring `world` to the point of the real game: the calls, the exchange, the plays."""
        calls = list(view["calls"])
        mine = [action for _, action in memory.exchange]
        plays = list(plays)
        while not world.is_over and (plays or calls or world.phase.value in ("exchange", "announce")):
            seat = world.to_act
            assert seat is not None
            phase = world.phase.value
            legal = world.legal_actions(seat)
            if phase == "play":
                if not plays:
                    break
                s, card = plays.pop(0)
                if s != seat:
                    raise TarockError("the replay went another way")
                world.apply(seat, {"play": card})
            elif phase == "auction" or (calls and calls[0][0] == seat and calls[0][1] in legal):
                if not calls:
                    raise TarockError("the replay went another way")
                caller, call = calls.pop(0)  # by its own seat: an interrupt need not wait its turn
                world.apply(caller, call)
            elif seat == me:
                if not mine:
                    raise TarockError("the bot's own exchange is not remembered")
                world.apply(seat, mine.pop(0))
            else:
                keep = set(hands[seat]) | set(played[seat])
                world.apply(seat, _towards(legal, keep, world.hands[seat], self.rng))
        if plays or world.is_over or world.to_act != view["to_act"]:
            raise TarockError("the replay did not reach the point of the game")


def _talon_size(game: Game, active: int) -> int:
    """The cards the deal plan puts in the talon."""
    return sum(p.count for p in game.ruleset.deal_plans[active] if p.to == "talon")


def _towards(legal: list[ActionJson], keep: set[str], hand: list[str], rng: random.Random) -> ActionJson:
    """Another declarer's exchange action in a world: one that keeps the cards it was drawn to
    hold at the start of the play (`keep`), as far as the legal actions allow. Raises Misdrawn
    when a discard must give up a card to keep because cards drawn to be discarded may not be."""

    def cards(action: ActionJson) -> tuple[str, list[str]] | None:
        if isinstance(action, dict):
            for kind in ("discard", "keep"):
                value = action.get(kind)
                if isinstance(value, list):
                    return kind, value
        return None

    def score(action: ActionJson) -> int:
        found = cards(action)
        if found is None:
            return 0
        kind, chosen = found
        inside = sum(c in keep for c in chosen)
        return inside if kind == "keep" else -inside

    templates = [a for a in legal if isinstance(a, dict) and any(isinstance(v, dict) for v in a.values())]
    if templates:
        template = templates[0]
        kind = "discard" if "discard" in template else "keep"
        spec = template[kind]
        including = list(spec.get("including", ()))  # every choice holds these
        pool = [c for c in spec["from"] if c not in including]
        if kind == "discard" and sum(c not in keep for c in [*including, *pool]) < spec["count"]:
            raise Misdrawn([c for c in spec.get("forbidden", ()) if c not in keep], [*including, *pool])
        rng.shuffle(pool)
        # Discard the cards it is not to hold first; keep those it is to hold first.
        pool.sort(key=lambda c: (c in keep) == (kind == "discard"))
        return {kind: including + pool[: spec["count"] - len(including)]}
    best = max(score(a) for a in legal)
    discards = [found[1] for a in legal if (found := cards(a)) is not None and found[0] == "discard"]
    if discards and best < 0:
        allowed = {c for chosen in discards for c in chosen}
        raise Misdrawn([c for c in hand if c not in allowed and c not in keep], sorted(allowed))
    return rng.choice([a for a in legal if score(a) == best])


def _swap(
    wrong: Misdrawn,
    declarer: int,
    me: int,
    hands: dict[int, list[str]],
    aside: list[str],
    face_up: set[str],
    voids: dict[int, set[str]],
    follow: dict[str, str],
) -> bool:
    """Mend a world in which another declarer's discards (`aside`) hold cards it may not
    discard: each goes into a hand where the table's play allows it (the declarer's first), for
    a drawn card there that may be discarded. False when no hand can take it."""
    allowed, forbidden = set(wrong.allowed), set(wrong.forbidden)
    seats = [declarer, *(s for s in hands if s not in (declarer, me))]
    for card in wrong.forbidden:
        if card not in aside:
            return False
        for seat in seats:
            # The declarer's card is one it may discard; another's, one not known to be
            # forbidden (if it is, the next replay says so and it is swapped again).
            swappable = [
                c
                for c in hands[seat]
                if (c in allowed if seat == declarer else c not in forbidden) and c not in face_up
            ]
            if swappable and follow[card] not in voids.get(seat, ()):
                hand = hands[seat]
                hand[hand.index(swappable[0])], aside[aside.index(card)] = card, swappable[0]
                break
        else:
            return False
    return bool(wrong.forbidden)


def _voids(game: Game, view: View) -> dict[int, set[str]]:
    """The suits (trumps as one) each seat has shown it holds none of, by not following or trumping."""
    rs = game.ruleset
    follow = TrickRules.of(rs).follow
    must_trump = rs.play.must_trump
    voids: dict[int, set[str]] = {}
    for trick in view["tricks"]:
        cards, seats = trick["cards"], trick["seats"]
        if not cards:
            continue
        led = follow[cards[0]]
        for s, c in zip(seats[1:], cards[1:], strict=False):
            suit = follow[c]
            if suit != led:
                voids.setdefault(s, set()).add(led)
                if must_trump and suit != TRUMP:
                    voids[s].add(TRUMP)
    return voids


def _copy(action: ActionJson) -> ActionJson:
    if isinstance(action, dict):
        return {k: list(v) if isinstance(v, list) else v for k, v in action.items()}
    return action
