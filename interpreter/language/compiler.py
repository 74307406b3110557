"""From a merged ruleset document to a `Ruleset`, with every semantic check.

Problems are collected, not raised one by one, so `tarock validate` shows them all at once.
Each check names the path in the ruleset and, through the document's marks, file:line:col.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from interpreter.errors import Problem
from interpreter.language.dsl import DslError, Expression, Scope, Type, compile_expression
from interpreter.language.model import (
    TRUMP,
    Accusation,
    Announcement,
    AuctionPhase,
    CallCard,
    ChoiceGroup,
    Claim,
    Compulsion,
    Contract,
    Counting,
    Deck,
    Declaration,
    Discard,
    ExchangeStep,
    ForcedDiscard,
    Give,
    Individual,
    Keep,
    Level,
    Liability,
    OpeningLeads,
    Packet,
    Penalties,
    PlayRules,
    Ruleset,
    ScheduledTrick,
    SessionRule,
    Settlement,
    TakeTalon,
    Withhold,
)
from interpreter.language.source import Document, Path

INT, BOOL, CARD, CARDS = Type.INT, Type.BOOL, Type.CARD, Type.CARDS

# The names each kind of expression may read, besides the deck's cards and sets.
AUCTION_NAMES = {"hand": CARDS, "position": INT, "speakers": INT, "bid_made": BOOL, "players": INT}
DISCARD_NAMES = {"card": CARD, "hand": CARDS, "players": INT}
CLAIM_NAMES = {"hand": CARDS}
ASIDE_NAMES = {"declarer_tricks": INT, "defender_tricks": INT, "tricks": INT}
OUTCOME_NAMES = {
    "declarer_points": INT,
    "defender_points": INT,
    "declarer_tricks": INT,
    "defender_tricks": INT,
    "tricks": INT,
    "players": INT,
    "declarer_cards": INT,
    "defender_cards": INT,
    "last_trick_won_with": CARDS,
    "tricks_won_with": CARDS,
}
AMOUNT_NAMES = {**OUTCOME_NAMES, "winner_points": INT, "loser_points": INT, "factor": INT, "declarer_won": BOOL}
LIABLE_WHEN_NAMES = {**OUTCOME_NAMES, "declarer_won": BOOL}
LIABLE_NAMES = {**AMOUNT_NAMES, "amount": INT, "defenders": INT, "liable": INT}
POT_NAMES = {**AMOUNT_NAMES, "amount": INT, "pot": INT}
BREACH_NAMES = {"players": INT}
CARD_NAMES = {"card": CARD}
FORCED_NAMES = {"taken": CARDS, "hand": CARDS}
INDIVIDUAL_NAMES = {
    "loser_points": INT,
    "loser_is_vorhand": BOOL,
    "without_tricks": INT,
    "losers": INT,
    "players": INT,
    "receiver_tricks": INT,
}

NOT_CONTRACT_CALLS = {"pass"}


class Compiler:
    def __init__(
        self,
        doc: Document,
        name: str,
        choices: dict[str, str],
        parents: tuple[str, ...] = (),
        source_ref: str | None = None,
    ):
        self.doc = doc
        self.data: dict = doc.data
        self.name = name
        self.choices = choices
        self.parents = parents
        self.source_ref = source_ref or name
        self.problems: list[Problem] = []
        self.reported_cycles: set[frozenset[str]] = set()
        self.settlement_formulas: tuple[Expression | None, Expression | None] = (None, None)

    # -- helpers -------------------------------------------------------------------------
    def problem(self, path: Path, message: str, *, at_key: bool = False) -> None:
        self.problems.append(self.doc.problem(path, message, at_key=at_key))

    def get(self, path: Path, default: Any = None) -> Any:
        data: Any = self.data
        for part in path:
            if (isinstance(data, dict) and part in data) or (isinstance(data, list) and isinstance(part, int) and part < len(data)):
                data = data[part]
            else:
                return default
        return data

    def expression(self, path: Path, names: dict[str, Type], expect: Type) -> Expression | None:
        text = self.get(path)
        if text is None:
            return None
        text = str(text)
        try:
            return compile_expression(text, self.scope(names), expect=expect)
        except DslError as exc:
            mark = self.doc.marks.get(path)
            message = f'{exc.message} (in "{text}", column {exc.column})'
            if mark is not None and "\n" not in text:
                shifted = mark.shifted(exc.column - 1)
                self.problems.append(Problem(shifted.file, shifted.line, shifted.column, _fmt(path), message))
            else:
                self.problem(path, message)
            return None

    def scope(self, names: dict[str, Type]) -> Scope:
        return Scope(constants=self.constants, variables=names, card_rank=self.deck.rank, card_points=self.deck.points)

    def suggest(self, word: str, known: list[str]) -> str:
        close = difflib.get_close_matches(word, known, n=1)
        if close:
            return f"; did you mean '{close[0]}'?"
        return f"; known: {', '.join(known)}" if known else ""

    # -- the whole ruleset ---------------------------------------------------------------
    def compile(self) -> Ruleset | None:
        self.check_sources()
        self.deck = self.compile_deck()
        self.constants: dict[str, tuple[Type, object]] = {c: (CARD, c) for c in self.deck.cards}
        self.constants.update({n: (CARDS, s) for n, s in self.deck.sets.items()})
        self.compile_deck_sets()
        active, sits_out = self.compile_players()
        removed = self.compile_removed(active)
        plans = self.compile_deal(active, removed)
        contracts = self.compile_contracts()
        self.check_exchanges(contracts, plans)
        phases = self.compile_auction(contracts)
        claim = self.compile_claim()
        announcements = self.compile_announcements()
        play = self.compile_play()
        counting = self.compile_counting()
        settlement = self.compile_settlement()
        groups = self.compile_groups()
        if self.problems:
            return None
        return Ruleset(
            name=self.name,
            file=self.doc.file,
            title=self.data.get("title", self.name),
            family=self.data.get("family"),
            deck=self.deck,
            active_players=active,
            dealer_sits_out=sits_out,
            deal_plans=plans,
            removed=removed,
            call_titles={c: d.get("title", c) for c, d in (self.data.get("calls") or {}).items()},
            phases=phases,
            contracts=contracts,
            claim=claim,
            announcements=announcements,
            breaches=self.get(("auction", "breaches"), "refuse"),
            play=play,
            counting=counting,
            settlement=settlement,
            groups=groups,
            choices=self.choices,
            document=self.data,
            parents=self.parents,
            ref=self.source_ref,
            session=self.compile_session(),
            accusation=self.compile_accusation(phases),
            penalties=self.compile_penalties(),
            pot_ante=self.expression(("pot_ante",), BREACH_NAMES, INT),
            by_players=tuple(sorted(int(k) for k in (self.data.get("by_players") or {}) if str(k).isdigit())),
            direction=self.data.get("direction"),
        )

    # -- provenance ----------------------------------------------------------------------
    def check_sources(self) -> None:
        keys = list((self.data.get("sources") or {}).keys())

        def walk(value: Any, path: Path) -> None:
            if isinstance(value, dict):
                for k, v in value.items():
                    if k == "source" and isinstance(v, str) and path[:1] != ("sources",):
                        for part in v.split(";"):
                            # A citation starts with the key of a source: "dappen-de §10: …".
                            found = re.match(r"\s*([a-z][a-z0-9_-]*)(?=[\s:§,]|$)", part)
                            key = found.group(1) if found else None
                            if key is not None and key not in keys:
                                self.problem(
                                    path + (k,),
                                    f"unknown source '{key}'{self.suggest(key, keys)} "
                                    f"(cite a key of `sources`, then ':' and the section)",
                                )
                    else:
                        walk(v, path + (k,))
            elif isinstance(value, list):
                for i, v in enumerate(value):
                    walk(v, path + (i,))

        walk(self.data, ())

    # -- deck ----------------------------------------------------------------------------
    def compile_deck(self) -> Deck:
        d = self.data.get("deck") or {}
        cards: list[str] = []
        suit: dict[str, str] = {}
        rank: dict[str, int] = {}
        titles: dict[str, str] = {}
        aliases: dict[str, str] = {}
        sets: dict[str, set[str]] = {"cards": set()}
        suit_names: dict[str, str] = {TRUMP: "trumps"}
        symbols: dict[str, str] = {TRUMP: "T"}
        trumps = d.get("trumps")
        if trumps:
            sets["trumps"] = set()
            for number in range(1, int(trumps.get("count", 0)) + 1):
                card = f"{TRUMP}{number}"
                cards.append(card)
                suit[card], rank[card] = TRUMP, number
                titles[card] = f"{number}"
                sets["trumps"].add(card)
            for card, title in (trumps.get("names") or {}).items():
                if card not in suit:
                    self.problem(("deck", "trumps", "names", card), f"no trump {card} in this pack", at_key=True)
                titles[card] = title
            for card, names in (trumps.get("aliases") or {}).items():
                for alias in names:
                    aliases[str(alias).lower()] = card
            for card in cards:
                aliases.setdefault(titles[card].lower(), card)
        rank_titles = {str(k): v for k, v in (d.get("rank_titles") or {}).items()}
        for i, s in enumerate(d.get("suits") or []):
            sid, sname = s.get("id"), s.get("name")
            if sid == TRUMP:
                self.problem(("deck", "suits", i, "id"), "T is the id of the trumps; give the suit another letter")
            if sid in suit_names:
                self.problem(("deck", "suits", i, "id"), f"two suits with the id {sid}")
            suit_names[sid], symbols[sid] = sname, s.get("symbol", sid)
            sets[sname] = set()
            ranks = [str(r) for r in s.get("ranks", [])]
            for position, r in enumerate(ranks):
                card = f"{sid}{r}"
                cards.append(card)
                suit[card], rank[card] = sid, len(ranks) - position
                titles[card] = f"{rank_titles.get(r, r)} {s.get('symbol', sid)}"
                sets[sname].add(card)
        sets["cards"] = set(cards)
        for name, ranks in (d.get("rank_sets") or {}).items():
            wanted = {str(r) for r in ranks}
            sets[name] = {c for c in cards if suit[c] != TRUMP and c[1:] in wanted}
            for r in wanted:
                if not any(suit[c] != TRUMP and c[1:] == r for c in cards):
                    self.problem(("deck", "rank_sets", name), f"no suit has the rank {r}")
        pts = d.get("points") or {}
        by_rank = {str(k): v for k, v in (pts.get("ranks") or {}).items()}
        points = {
            c: by_rank.get(c[1:], pts.get("default", 0)) if suit[c] != TRUMP else pts.get("default", 0) for c in cards
        }
        for card, value in (pts.get("cards") or {}).items():
            if card not in points:
                self.problem(
                    ("deck", "points", "cards", card),
                    f"no card {card} in this pack{self.suggest(card, cards)}",
                    at_key=True,
                )
            points[card] = value
        return Deck(
            title=d.get("title", ""),
            cards=tuple(cards),
            suit=suit,
            rank=rank,
            points=points,
            sets={k: frozenset(v) for k, v in sets.items()},
            suit_names=suit_names,
            suit_symbols=symbols,
            titles=titles,
            aliases=aliases,
        )

    def compile_deck_sets(self) -> None:
        for name, _text in (self.get(("deck", "sets")) or {}).items():
            if name in self.constants:
                self.problem(
                    ("deck", "sets", name), f"'{name}' is already a name for cards; choose another", at_key=True
                )
                continue
            expr = self.expression(("deck", "sets", name), {}, CARDS)
            # A set that does not compile still gets its name (empty), so its uses do not
            # repeat the one mistake as "unknown name" everywhere.
            value = frozenset(expr({})) if expr is not None else frozenset()
            self.deck.sets[name] = value
            self.constants[name] = (CARDS, value)

    # -- players and deal ----------------------------------------------------------------
    def compile_players(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        p = self.data.get("players") or {}
        active = tuple(sorted({n for n in p.get("active") or [] if isinstance(n, int)}))
        sits_out = tuple(sorted({n for n in p.get("dealer_sits_out") or [] if isinstance(n, int)}))
        for i, n in enumerate(p.get("dealer_sits_out") or []):
            if isinstance(n, int) and n - 1 not in active:
                self.problem(
                    ("players", "dealer_sits_out", i),
                    f"with {n} at the table and the dealer out, {n - 1} play, but active allows only {list(active)}",
                )
        return active, sits_out

    def compile_removed(self, active: tuple[int, ...]) -> dict[int, frozenset[str]]:
        removed = {}
        for key in self.get(("deal", "remove")) or {}:
            if int(key) not in active:
                self.problem(
                    ("deal", "remove", key),
                    f"cards removed for {key} players, but the ruleset allows {list(active)}",
                    at_key=True,
                )
            expr = self.expression(("deal", "remove", key), {}, CARDS)
            if expr is not None:
                removed[int(key)] = frozenset(expr({}))
        return removed

    def compile_deal(
        self, active: tuple[int, ...], removed: dict[int, frozenset[str]]
    ) -> dict[int, tuple[Packet, ...]]:
        plans: dict[int, tuple[Packet, ...]] = {}
        raw = self.get(("deal", "plans")) or {}
        for key, packets in raw.items():
            n = int(key)
            path = ("deal", "plans", key)
            if n not in active:
                self.problem(
                    path, f"a plan for {n} players, but the ruleset allows {list(active)} active players", at_key=True
                )
                continue
            if not isinstance(packets, list) or not all(isinstance(pk, dict) for pk in packets):
                continue  # the schema says what is wrong; a guessed plan would only mislead later checks
            plan = tuple(
                Packet("each" if "each" in pk else "talon", int(pk.get("each", pk.get("talon", 0)))) for pk in packets
            )
            dealt = sum(pk.count * (n if pk.to == "each" else 1) for pk in plan)
            in_play = len(self.deck.cards) - len(removed.get(n, ()))
            if dealt != in_play:
                each = sum(pk.count for pk in plan if pk.to == "each")
                talon = sum(pk.count for pk in plan if pk.to == "talon")
                without = f" without the {len(removed[n])} removed" if removed.get(n) else ""
                self.problem(
                    path,
                    f"the packets deal {dealt} cards ({n} × {each} to the players + {talon} to the talon) "
                    f"but the pack has {in_play}{without}",
                )
            plans[n] = plan
        for n in active:
            if str(n) not in raw:
                self.problem(("deal", "plans"), f"no deal plan for {n} players")
            elif n not in plans:
                self.plans_broken = True
        return plans

    # -- contracts -----------------------------------------------------------------------
    def contract_data(self, name: str, seen: tuple[str, ...] = ()) -> dict:
        """A contract's rules with `like` resolved (the other contract's rules, then its own)."""
        raw = (self.data.get("contracts") or {}).get(name) or {}
        parent = raw.get("like")
        if not parent:
            return raw
        known = list(self.data.get("contracts") or {})
        if parent not in known:
            self.problem(("contracts", name, "like"), f"no contract named '{parent}'{self.suggest(parent, known)}")
            return raw
        if parent in seen or parent == name:
            cycle = (*seen[seen.index(parent) :], name) if parent in seen else (name,)
            if frozenset(cycle) not in self.reported_cycles:
                self.reported_cycles.add(frozenset(cycle))
                # Report it at the link written last (in the variant rather than its base).
                lineage = self.doc.lineage

                def lateness(member: str) -> int:
                    mark = self.doc.marks.get(("contracts", member, "like"))
                    return lineage.index(mark.file) if mark and mark.file in lineage else -1

                at = max(cycle, key=lateness)
                self.problem(
                    ("contracts", at, "like"), f"'like' goes round in a circle: {' -> '.join((*cycle, cycle[0]))}"
                )
            return raw
        merged = dict(self.contract_data(parent, seen + (name,)))
        merged.update({k: v for k, v in raw.items() if k != "like"})
        return merged

    def compile_contracts(self) -> dict[str, Contract]:
        contracts: dict[str, Contract] = {}
        default_wins = self.expression(("settlement", "declarer_wins"), OUTCOME_NAMES, BOOL)
        default_amount = self.expression(("settlement", "amount"), AMOUNT_NAMES, INT)
        self.settlement_formulas = (default_wins, default_amount)  # kept in the Settlement, to describe it
        for name in self.data.get("contracts") or {}:
            data = self.contract_data(name)
            path = ("contracts", name)
            own = self.data["contracts"][name] or {}
            # An expression is checked where it is written: in this contract or the one it is like.
            source_path = lambda key: path + (key,) if key in own else ("contracts", own.get("like", name), key)  # noqa: E731
            steps = self.compile_exchange(name, data.get("exchange") or [], own)
            leads = data.get("opening_leads")
            opening = (
                OpeningLeads(
                    leads.get("replace_same_suit", False),
                    leads.get("together", False),
                    tuple(leads.get("suit_order") or ()),
                    leads.get("declarer_leads_after", False),
                )
                if leads
                else None
            )
            schedule = self.compile_schedule(source_path("schedule")) if "schedule" in data else None
            trumps = data.get("trumps") or {}
            trump_suit = self.suit_id(source_path("trumps") + ("suit",), trumps.get("suit"))
            trump_choice = tuple(
                filter(None, (self.suit_id(source_path("trumps") + ("choose",), n) for n in trumps.get("choose") or []))
            )
            individual = None
            if data.get("individual"):
                ind = data["individual"]
                pays = self.expression(source_path("individual") + ("pays_each",), INDIVIDUAL_NAMES, INT)
                if pays is not None:
                    individual = Individual(ind.get("loser"), ind.get("ties", "all"), pays)
                contracts[name] = Contract(
                    name=name,
                    title=data.get("title", name),
                    exchange=steps,
                    factor_won=None,
                    factor_lost=None,
                    declarer_wins=None,
                    amount=None,
                    opening_leads=opening,
                    individual=individual,
                    talon_counts=data.get("talon_counts", True),
                    schedule=schedule,
                    trump_suit=trump_suit,
                    trump_choice=trump_choice,
                    no_trump_suit=bool(trumps.get("none")),
                    talon_to_last_trick=data.get("talon_to_last_trick", False),
                )
                continue
            wins = (
                self.expression(source_path("declarer_wins"), OUTCOME_NAMES, BOOL)
                if "declarer_wins" in data
                else default_wins
            )
            amount = self.expression(source_path("amount"), AMOUNT_NAMES, INT) if "amount" in data else default_amount
            factor = data.get("factor")
            won, lost = (factor.get("won"), factor.get("lost")) if isinstance(factor, dict) else (factor, factor)
            if amount is not None and "factor" in amount.names and won is None:
                self.problem(path, "the settlement's amount uses 'factor', but this contract has no factor")
            if wins is None or amount is None:
                if "declarer_wins" not in data and self.get(("settlement", "declarer_wins")) is None:
                    self.problem(
                        path, "no settlement: neither this contract nor `settlement` says when the declarer wins"
                    )
                continue
            pot = self.expression(source_path("pot"), POT_NAMES, INT) if "pot" in data else None
            contracts[name] = Contract(
                name=name,
                title=data.get("title", name),
                exchange=steps,
                pot=pot,
                factor_won=won,
                factor_lost=lost,
                declarer_wins=wins,
                amount=amount,
                opening_leads=opening,
                talon_counts=data.get("talon_counts", True),
                schedule=schedule,
                trump_suit=trump_suit,
                trump_choice=trump_choice,
                no_trump_suit=bool(trumps.get("none")),
                open_hand=data.get("open_hand", False),
            )
        return contracts

    def check_exchanges(self, contracts: dict[str, Contract], plans: dict[int, tuple[Packet, ...]]) -> None:
        """An exchange must leave the declarer with as many cards as everybody else."""
        if getattr(self, "plans_broken", False):
            return
        for name, contract in contracts.items():
            for n, plan in plans.items():
                hand = sum(p.count for p in plan if p.to == "each")
                talon = sum(p.count for p in plan if p.to == "talon")
                held, taken, discarded = hand, 0, 0
                for step in contract.exchange:
                    if isinstance(step, Keep):
                        discarded += held - step.count
                        held = step.count
                    elif isinstance(step, TakeTalon):
                        held += talon
                        taken += talon
                    elif isinstance(step, Discard):
                        held -= step.how_many(talon)
                        discarded += step.how_many(talon)
                    elif isinstance(step, ForcedDiscard):
                        held -= 1
                        discarded += 1
                    elif isinstance(step, CallCard):
                        held += 1
                    elif isinstance(step, Give):
                        held -= 1
                if held != hand:
                    self.problem(
                        ("contracts", name, "exchange"),
                        f"with {n} players the declarer takes {taken} cards and discards {discarded}, "
                        f"so would play with {held - hand:+d} cards compared with the others",
                    )

    def compile_exchange(self, name: str, steps: list, own: dict) -> tuple[ExchangeStep, ...]:
        where = name if "exchange" in own else own.get("like", name)
        result: list[ExchangeStep] = []
        for i, step in enumerate(steps):
            path = ("contracts", where, "exchange", i)
            if "take_talon" in step:
                result.append(TakeTalon())
            elif "keep" in step:
                k = step["keep"]
                allowed = self.card_set(path + ("keep", "from")) if k.get("from") else frozenset(self.deck.cards)
                prefer = self.card_set(path + ("keep", "prefer")) if k.get("prefer") else None
                result.append(
                    Keep(
                        int(k.get("count", 0)),
                        allowed,
                        prefer,
                        k.get("same_suit", False),
                        k.get("different_suits", False),
                        k.get("exposed", False),
                        k.get("reason", "these cards may not be kept together"),
                    )
                )
            elif "call_card" in step:
                allowed = (
                    self.card_set(path + ("call_card", "from"))
                    if (step["call_card"] or {}).get("from")
                    else frozenset(self.deck.cards)
                )
                result.append(CallCard(allowed))
            elif "give" in step:
                result.append(Give())
            elif "forced_discard" in step:
                cards = self.expression(path + ("forced_discard", "cards"), FORCED_NAMES, CARDS)
                if cards is not None:
                    result.append(ForcedDiscard(cards, step["forced_discard"].get("shown", True)))
            elif "discard" in step:
                d = step["discard"]
                forbid = (
                    self.expression(path + ("discard", "forbid", "when"), DISCARD_NAMES, BOOL)
                    if d.get("forbid")
                    else None
                )
                count = None if d.get("count") == "talon" else int(d.get("count", 0))
                result.append(Discard(count, forbid, (d.get("forbid") or {}).get("reason", "")))
        return tuple(result)

    # -- auction -------------------------------------------------------------------------
    def compile_auction(self, contracts: dict[str, Contract]) -> tuple[AuctionPhase, ...]:
        raw_phases: dict = self.get(("auction", "phases")) or {}
        names = list(raw_phases)
        first = self.get(("auction", "first"), names[0] if names else None)
        if first not in names:
            self.problem(("auction", "first"), f"no phase named '{first}'{self.suggest(str(first), names)}")
        known_contracts = list(self.data.get("contracts") or {})
        phases = []
        for name, p in raw_phases.items():
            path = ("auction", "phases", name)
            declare = p.get("style") == "declare"

            def levels(where: Path, entries: list, intentions: bool = False) -> tuple[Level, ...]:
                result = []
                for j, lv in enumerate(entries or []):
                    call = lv.get("call")
                    contract = lv.get("contract", call)
                    if intentions or lv.get("ends") == "throw_in":
                        contract = None  # a call that only says "I want to play", or throws the deal in
                    elif contract not in known_contracts:
                        at = where + (j, "contract" if "contract" in lv else "call")
                        self.problem(at, f"no contract named '{contract}'{self.suggest(contract, known_contracts)}")
                    if call in NOT_CONTRACT_CALLS or call == p.get("hold"):
                        self.problem(where + (j, "call"), f"'{call}' cannot be a bid: it is the pass or the hold call")
                    result.append(
                        Level(
                            call=call,
                            contract=contract,
                            requires=self.expression(where + (j, "requires"), AUCTION_NAMES, BOOL),
                            holdable=lv.get("holdable", True),
                            ends=lv.get("ends"),
                        )
                    )
                return tuple(result)

            ladder = levels(path + ("ladder",), p.get("ladder"), intentions=declare)
            interrupts = levels(path + ("interrupts",), p.get("interrupts"))
            side = levels(path + ("side_bids",), p.get("side_bids"))
            side_bids = tuple(
                (lv, frozenset(entry.get("over") or ())) for lv, entry in zip(side, p.get("side_bids") or [], strict=False)
            )
            calls = [lv.call for lv in ladder]
            compulsory = []
            for key, c in (p.get("compulsory") or {}).items():
                where = path + ("compulsory", key)
                if c.get("call") not in calls:
                    self.problem(
                        where + ("call",),
                        f"'{c.get('call')}' is not a bid of this phase{self.suggest(str(c.get('call')), calls)}",
                    )
                when = self.expression(where + ("when",), AUCTION_NAMES, BOOL)
                breach = self.expression(where + ("breach", "pays_each"), BREACH_NAMES, INT)
                if when is not None:
                    compulsory.append(
                        Compulsion(when, c.get("call"), c.get("reason", f"you must bid {c.get('call')} here"), breach)
                    )
            then = p.get("then") or {}
            pass_out = then.get("pass_out", "throw_in")
            if pass_out not in ("throw_in", "play") and pass_out not in names:
                self.problem(
                    path + ("then", "pass_out"),
                    f"no phase named '{pass_out}'{self.suggest(pass_out, ['throw_in', 'play', *names])}",
                )
            pass_out_play = then.get("play")
            if pass_out == "play" and pass_out_play not in known_contracts:
                self.problem(
                    path + ("then", "play"),
                    f"no contract named '{pass_out_play}'{self.suggest(str(pass_out_play), known_contracts)}",
                )
            after = dict(then.get("after") or {})
            for call, target in after.items():
                if call not in calls:
                    self.problem(
                        path + ("then", "after", call),
                        f"'{call}' is not a bid of this phase{self.suggest(call, calls)}",
                        at_key=True,
                    )
                if target not in names:
                    self.problem(
                        path + ("then", "after", call), f"no phase named '{target}'{self.suggest(target, names)}"
                    )
                elif raw_phases[target].get("speakers") != "previous_bidders" and call not in [
                    lv.get("call") for lv in raw_phases[target].get("ladder") or []
                ]:
                    self.problem(
                        path + ("then", "after", call),
                        f"the phase '{target}' must have '{call}' in its ladder to carry the bid into it",
                    )
            choose = {}
            for call, entries in (then.get("choose") or {}).items():
                if call not in calls:
                    self.problem(
                        path + ("then", "choose", call),
                        f"'{call}' is not a bid of this phase{self.suggest(call, calls)}",
                        at_key=True,
                    )
                choose[call] = levels(path + ("then", "choose", call), entries)
            phases.append(
                AuctionPhase(
                    name=name,
                    title=p.get("title", name),
                    ladder=tuple(ladder),
                    hold=p.get("hold"),
                    raise_any=p.get("raise", "next") == "any",
                    max_bidders=p.get("max_bidders"),
                    compulsory=tuple(compulsory),
                    pass_out=pass_out,
                    after=after,
                    interrupts=interrupts,
                    choose=choose,
                    pass_out_play=pass_out_play,
                    carried_may_hold=p.get("carried_may_hold", True),
                    style=p.get("style", "duel"),
                    start=p.get("start", "vorhand"),
                    side_bids=side_bids,
                    speakers=p.get("speakers", "all"),
                )
            )
        # The opening phase first: the engine starts the auction with phases[0].
        phases.sort(key=lambda ph: ph.name != first)
        return tuple(phases)

    # -- play, counting, settlement ------------------------------------------------------
    def compile_claim(self) -> Claim | None:
        claim = self.data.get("claim")
        if not claim:
            return None
        when = self.expression(("claim", "when"), CLAIM_NAMES, BOOL)
        return (
            Claim(when, claim.get("scores_as", "march"), claim.get("factor"), claim.get("liable", True))
            if when
            else None
        )

    def card_set(self, path: Path) -> frozenset[str]:
        expr = self.expression(path, {}, CARDS)
        return frozenset(expr({})) if expr is not None else frozenset()

    def compile_announcements(self) -> dict[str, Announcement]:
        result = {}
        for name, a in (self.data.get("announcements") or {}).items():
            path = ("announcements", name)
            cards = self.card_set(path + ("cards",)) if a.get("cards") else frozenset()
            value = self.expression(path + ("value",), CARD_NAMES, INT) if a.get("value") else None
            declares = None
            if a.get("declares"):
                d = a["declares"]
                wins = self.expression(path + ("declares", "wins"), OUTCOME_NAMES, BOOL)
                declared_amount = (
                    self.expression(path + ("declares", "amount"), AMOUNT_NAMES, INT) if d.get("amount") else None
                )
                declares = (
                    Declaration(wins, int(d.get("multiplier", 1)), declared_amount, bool(d.get("releases_exposed")))
                    if wins
                    else None
                )
            if (value is None) == (declares is None):
                self.problem(
                    path,
                    "an announcement lays out cards with a `value`, or makes a declaration (`declares`): one of the two",
                )
                continue
            known = list(self.data.get("contracts") or {})
            for c in a.get("contracts") or []:
                if c not in known:
                    self.problem(path + ("contracts",), f"no contract named '{c}'{self.suggest(c, known)}")
            only = frozenset(a["contracts"]) if a.get("contracts") else None
            result[name] = Announcement(name, a.get("title", name), cards, value, declares, only)
        return result

    def suit_id(self, path: Path, name: str | None) -> str | None:
        """The id of a suit named in the ruleset (hearts -> H)."""
        if name is None:
            return None
        by_name = {n: sid for sid, n in self.deck.suit_names.items() if sid != TRUMP}
        if name not in by_name:
            self.problem(path, f"no suit named '{name}'{self.suggest(str(name), list(by_name))}")
            return None
        return by_name[name]

    def compile_schedule(self, path: Path) -> tuple[ScheduledTrick, ...]:
        schedule = []
        for i, entry in enumerate(self.get(path) or []):
            sets = tuple(self.card_set(path + (i, "play_from", j)) for j in range(len(entry.get("play_from") or [])))
            number = entry.get("trick", i + 1)
            schedule.append(
                ScheduledTrick(
                    number, sets, entry.get("reason", f"in trick {number} the cards must be played as scheduled")
                )
            )
        numbers = [t.trick for t in schedule]
        if len(set(numbers)) != len(numbers):
            self.problem(path, "two rules for the same trick")
        return tuple(schedule)

    def compile_play(self) -> PlayRules:
        p = self.data.get("play") or {}
        withhold = None
        if p.get("withhold"):
            w = p["withhold"]
            if w.get("card") not in self.deck.suit:
                self.problem(
                    ("play", "withhold", "card"),
                    f"no card {w.get('card')} in this pack{self.suggest(str(w.get('card')), list(self.deck.cards))}",
                )
            withhold = Withhold(
                w.get("card"),
                w.get("by", "defenders"),
                self.expression(("play", "withhold", "when"), CLAIM_NAMES, BOOL),
            )
        schedule = self.compile_schedule(("play", "schedule"))
        return PlayRules(
            first_lead=p.get("first_lead", "declarer"),
            follow_suit=p.get("follow_suit", True),
            must_trump=p.get("when_void", "trump") == "trump",
            must_beat=p.get("must_beat", False),
            withhold=withhold,
            schedule=schedule,
            trump_suit=self.suit_id(("play", "trump_suit"), p.get("trump_suit")),
            discards_visible_until=p.get("discards_visible_until"),
        )

    def compile_counting(self) -> Counting:
        c = self.data.get("counting") or {}
        aside = c.get("aside") or {}
        return Counting(
            packet=c.get("packet", 1),
            packet_deduct=c.get("packet_deduct", 0),
            remainder_deduct=c.get("remainder_deduct", 0),
            aside_counts_for=aside.get("counts_for", "declarer"),
            aside_unless=self.expression(("counting", "aside", "unless"), ASIDE_NAMES, BOOL),
            declarer_bonus=self.expression(("counting", "declarer_bonus"), ASIDE_NAMES, INT),
        )

    def compile_settlement(self) -> Settlement:
        s = self.data.get("settlement") or {}
        liable = []
        for i, rule in enumerate(s.get("liable") or []):
            path = ("settlement", "liable", i)
            when = self.expression(path + ("when",), LIABLE_WHEN_NAMES, BOOL)
            pays = self.expression(path + ("pays",), LIABLE_NAMES, INT)
            others = self.expression(path + ("others_pay",), LIABLE_NAMES, INT)
            if when and pays and others:
                liable.append(Liability(when, tuple(rule.get("seats") or ()), pays, others))
        return Settlement(
            unit=s.get("unit", "point"),
            payment=s.get("payment", "each_defender"),
            sitting_out=s.get("sitting_out", "no_part"),
            liable=tuple(liable),
            declarer_wins=self.settlement_formulas[0],
            amount=self.settlement_formulas[1],
        )

    def compile_accusation(self, phases) -> Accusation | None:
        rule = self.data.get("accusation")
        if not rule:
            return None
        names = [p.name for p in phases]
        if rule.get("phase") not in names:
            self.problem(
                ("accusation", "phase"),
                f"no phase named '{rule.get('phase')}'{self.suggest(str(rule.get('phase')), names)}",
            )
        strong = self.expression(("accusation", "strong"), CLAIM_NAMES, BOOL)
        return Accusation(rule.get("phase"), strong) if strong else None

    def compile_penalties(self) -> Penalties | None:
        rule = self.data.get("penalties")
        if not rule:
            return None
        pays = self.expression(("penalties", "pays_each"), BREACH_NAMES, INT)
        return Penalties(rule.get("mode", "refuse"), frozenset(rule.get("offences") or ()), pays) if pays else None

    def compile_session(self) -> SessionRule:
        rule = self.data.get("session") or {}
        card = rule.get("holder_of")
        if card is not None and card not in self.deck.suit:
            self.problem(
                ("session", "holder_of"), f"no card {card} in this pack{self.suggest(str(card), list(self.deck.cards))}"
            )
        return SessionRule(rule.get("deals"), card)

    def compile_groups(self) -> tuple[ChoiceGroup, ...]:
        groups = []
        seen: dict[str, str] = {}
        for kind in ("readings", "options"):
            for name, g in (self.data.get(kind) or {}).items():
                if name in seen:
                    self.problem(
                        (kind, name), f"'{name}' is both a reading and an option; names must be unique", at_key=True
                    )
                seen[name] = kind
                choices = tuple(g.get("choices") or {})
                if g.get("default") not in choices:
                    self.problem(
                        (kind, name, "default"),
                        f"the default '{g.get('default')}' is not one of the choices{self.suggest(str(g.get('default')), list(choices))}",
                    )
                groups.append(
                    ChoiceGroup(name, kind, g.get("question", g.get("title", name)), g.get("default"), choices)
                )
        return tuple(groups)


def _fmt(path: Path) -> str:
    from interpreter.language.source import format_path

    return format_path(path)
