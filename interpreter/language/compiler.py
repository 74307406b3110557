"""From a merged ruleset document to a `Ruleset`, with every semantic check.

Problems are collected, not raised one by one, so `tarock validate` shows them all at once.
Each check names the path in the ruleset and, through the document's marks, file:line:col.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Iterator
from typing import Any, Final, Literal, TypeVar, overload

from interpreter.errors import Place, Problem, RuleError, did_you_mean
from interpreter.language.dsl import DslError, Expression, Scope, Type, compile_expression
from interpreter.language.dsl.compiler import MAX_NUMBER
from interpreter.language.keys import default
from interpreter.language.keys import names as known
from interpreter.language.model import (
    CALLED,
    MAX_ALL_OR_NONE,
    TRUMP,
    Account,
    Accusation,
    Announcement,
    Announcing,
    AuctionPhase,
    Bonus,
    CallCard,
    CallPartner,
    CardsExpression,
    ChoiceGroup,
    Claim,
    Compulsion,
    Concede,
    Condition,
    Contract,
    Counting,
    DealChoice,
    DealerWhen,
    Deck,
    Declaration,
    Discard,
    Doubling,
    Duty,
    EarlyEnd,
    ExchangeStep,
    Excuse,
    ForcedDiscard,
    Formula,
    Give,
    Individual,
    IndividualPayment,
    Keep,
    KeepBackCards,
    KontraRule,
    Level,
    Liability,
    MustAnnounce,
    NameTrumps,
    OpeningLeads,
    OutOfPlay,
    Packet,
    Penalties,
    PlayRules,
    PotPayout,
    Preference,
    Proposal,
    Redeal,
    Route,
    Ruleset,
    ScheduledTrick,
    ScoreSheet,
    SessionPot,
    SessionRule,
    Settlement,
    SpecialRound,
    TakeTalon,
    ThrowInPayment,
    TrickException,
    Withhold,
)
from interpreter.language.source import Document, Path, format_path

INT: Final = Type.INT
BOOL: Final = Type.BOOL
CARD: Final = Type.CARD
CARDS: Final = Type.CARDS

# The names each kind of expression may read, besides the deck's cards and sets: declared once,
# with the keys (interpreter.language.keys.names); here by the names the compiler has always used.
AUCTION_NAMES = known.AUCTION.types
DISCARD_NAMES = known.DISCARD.types
CLAIM_NAMES = known.HAND_ONLY.types
ASIDE_NAMES = known.ASIDE.types
OUTCOME_NAMES = known.OUTCOME.types
AMOUNT_NAMES = known.AMOUNT.types
DRAWN_NAMES = known.DRAWN.types
LIABLE_WHEN_NAMES = known.LIABLE_WHEN.types
LIABLE_NAMES = known.LIABLE.types
POT_NAMES = known.POT.types
BREACH_NAMES = known.BREACH.types
PENALTY_NAMES = known.PENALTY.types
COMPULSION_BREACH_NAMES = known.COMPULSION_BREACH.types
CARD_NAMES = known.CARD_ONLY.types
FORCED_NAMES = known.FORCED.types
INDIVIDUAL_NAMES = known.INDIVIDUAL.types
PARTNER_NAMES = known.PARTNER.types
ROUTE_NAMES = known.ROUTE.types
CONCEDE_NAMES = known.CONCEDE.types
BONUS_NAMES = known.BONUS.types
BONUS_JUDGED_NAMES = known.BONUS_JUDGED.types
BONUS_VALUE_NAMES = known.BONUS_VALUE.types
SEAT_BONUS_NAMES = known.SEAT_BONUS.types
SEAT_NAMES = known.SEAT.types
KONTRA_NAMES = known.KONTRA.types
DUTY_NAMES = known.DUTY.types
PLAY_END_NAMES = known.PLAY_END.types
EXCEPTION_NAMES = known.EXCEPTION.types
PAYMENT_NAMES = known.PAYMENT.types
LAST_DEAL_NAMES = known.LAST_DEAL.types
SHEET_NAMES = known.SHEET.types
SESSION_END_NAMES = known.SESSION_END.types
POT_PAYOUT_NAMES = known.POT_PAYOUT.types

NOT_CONTRACT_CALLS = {"pass"}

# Every name some expression reads as a value of the game: a set of the deck named so would hide it.
GAME_NAMES = known.GAME_NAMES
# Words of the rules language: a set named so could never be written in an expression.
KEYWORDS = frozenset({"or", "and", "not", "in", "if", "then", "else", "any", "all", "true", "false"})
MAX_TRUMPS = 1_000  # a pack's trumps are numbered one by one; no pack has more than a few dozen

_T = TypeVar("_T")


class Compiler:
    """Compiles one merged document; every problem found lands in `problems`, each at its place."""

    def __init__(
        self,
        doc: Document,
        name: str,
        choices: dict[str, str],
        parents: tuple[str, ...] = (),
        source_ref: str | None = None,
    ):
        self.doc = doc
        # The schema has checked the shape of what the compiler reads (or reported what is wrong,
        # and then the compiler's own findings are secondary): it reads the data as written.
        self.data: dict[str, Any] = doc.data if isinstance(doc.data, dict) else {}
        self.name = name
        self.choices = choices
        self.parents = parents
        self.source_ref = source_ref or name
        self.problems: list[Problem] = []
        self.reported_cycles: set[frozenset[str]] = set()
        # Contracts a table may agree to play or not (`allowed: false`, turned on by an option):
        # left out with every bid that would play them, so that options compose.
        written = self.data.get("contracts")
        contracts: dict[str, Any] = written if isinstance(written, dict) else {}
        self.not_allowed = frozenset(name for name in contracts if not _allowed(contracts, name))
        self.plans_broken = False  # a deal plan the schema refused: the exchange arithmetic would mislead
        self.removal_broken: set[int] = set()  # numbers of players whose `deal.remove` did not compile
        self.deck_refused = False  # no pack could be built: every check that counts cards would mislead
        self.where: Path = ()  # the part being compiled, for a failure of the compiler itself
        self.constants: dict[str, tuple[Type, object]] = {}
        self.settlement_formulas: tuple[Condition | None, Formula | None] = (None, None)

    # -- helpers -------------------------------------------------------------------------
    def problem(self, path: Path, message: str, *, at_key: bool = False) -> None:
        self.problems.append(self.doc.problem(path, message, at_key=at_key))

    def get(self, path: Path, default: Any = None) -> Any:
        data: Any = self.data
        for part in path:
            if isinstance(data, dict):
                if part not in data:
                    return default
                data = data[part]
            elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
                data = data[part]
            else:
                return default
        return data

    @overload
    def expression(self, path: Path, names: dict[str, Type], expect: Literal[Type.BOOL]) -> Condition | None: ...
    @overload
    def expression(self, path: Path, names: dict[str, Type], expect: Literal[Type.INT]) -> Formula | None: ...
    @overload
    def expression(self, path: Path, names: dict[str, Type], expect: Literal[Type.CARDS]) -> CardsExpression | None: ...
    def expression(self, path: Path, names: dict[str, Type], expect: Type) -> Expression[Any] | None:
        """The expression written at `path`, compiled against `names`; None (and a problem at
        its place) if it does not compile, or None if nothing is written there."""
        text = self.get(path)
        if text is None:
            return None
        text = str(text)
        mark = self.doc.marks.get(path)
        place = (
            Place(mark.file, mark.line, mark.column, format_path(path))
            if mark is not None
            else Place(self.doc.file, None, None, format_path(path))
        )
        try:
            return compile_expression(text, self.scope(names), expect, place=place)
        except DslError as exc:
            message = f'{exc.message} (in "{_shown(text)}", column {exc.column})'
            if mark is not None and "\n" not in text:
                shifted = mark.shifted(exc.column - 1)
                self.problems.append(Problem(shifted.file, shifted.line, shifted.column, format_path(path), message))
            else:
                self.problem(path, message)
            return None

    def value_expression(self, path: Path, names: dict[str, Type]) -> Formula | None:
        """A value formula (an amount, a pot, a liable payment). Where the settlement defines
        `score`, that name stands for the score formula: it is written out in place, so the
        compiled formula reads only the settlement's own names."""
        score = self.get(("settlement", "score"))
        if score is None:
            return self.expression(path, names, INT)
        checked = self.expression(path, {**names, "score": INT}, INT)
        if checked is None or "score" not in checked.names:
            return checked
        written_out = re.sub(r"\bscore\b", f"({score})", checked.source)
        try:
            return compile_expression(written_out, self.scope(names), INT, place=checked.place)
        except DslError:
            return None  # the score formula's own problem is reported where it is written

    def scope(self, names: dict[str, Type]) -> Scope:
        return Scope(constants=self.constants, variables=names, card_rank=self.deck.rank, card_points=self.deck.points)

    def section(self, path: Path, build: Callable[[], _T]) -> _T:
        """`build()`, remembered as compiling `path` should it fail."""
        self.where = path
        return build()

    # -- the whole ruleset ---------------------------------------------------------------
    def compile(self, *, schema_checked: bool = True) -> Ruleset | None:
        """The compiled ruleset, or None when there are problems.

        `schema_checked`: the document passed the schema, so anything that goes wrong here is
        a fault of the compiler, reported as a problem at the part it was compiling rather than
        raised. Otherwise the schema's messages say what is wrong, and a failure on data the
        schema refused is expected and silent."""
        try:
            return self.compile_all()
        except Exception as exc:
            if schema_checked:
                self.problem(
                    self.where,
                    f"the interpreter failed to compile this ({type(exc).__name__}: {_shown(str(exc))}); "
                    "this is a fault of the interpreter, please report it with the ruleset",
                )
            return None

    def compile_all(self) -> Ruleset | None:
        self.section((), self.check_values)
        self.deck = self.section(("deck",), self.compile_deck)
        if self.deck_refused:
            return None
        self.constants = {c: (CARD, c) for c in self.deck.cards}
        self.constants.update({n: (CARDS, s) for n, s in self.deck.sets.items()})
        self.section(("deck", "sets"), self.compile_deck_sets)
        active, sit_out = self.section(("players",), self.compile_players)
        removed = self.section(("deal", "remove"), lambda: self.compile_removed(active))
        plans = self.section(("deal", "plans"), lambda: self.compile_deal(active, removed))
        deal_choice = self.section(("deal", "choice"), lambda: self.compile_deal_choice(plans or {}))
        self.bonuses = self.section(("bonuses",), self.compile_bonuses)
        contracts = self.section(("contracts",), self.compile_contracts)
        self.section(("contracts",), lambda: self.check_exchanges(contracts, plans))
        phases = self.section(("auction",), lambda: self.compile_auction(contracts or {}))
        thrown_in = self.section(("auction", "thrown_in"), self.compile_thrown_in)
        redeal = self.section(("auction", "redeal"), self.compile_redeal)
        claim = self.section(("claim",), self.compile_claim)
        announcements = self.section(("announcements",), self.compile_announcements)
        play = self.section(("play",), self.compile_play)
        contracts = self.section(("contracts",), lambda: self.contract_play(contracts, play))
        self.section(("play", "ends_early"), lambda: self.check_ends_early(contracts, play, announcements))
        announcing = self.section(("announcing",), self.compile_announcing)
        kontra_game, kontra_bonuses = self.section(("kontra",), lambda: self.compile_kontra(contracts))
        kontra_answer = self.section(
            ("kontra", "answer"), lambda: self.compile_kontra_answer(contracts, kontra_game, kontra_bonuses)
        )
        counting = self.section(("counting",), self.compile_counting)
        settlement = self.section(("settlement",), self.compile_settlement)
        self.section(("settlement", "split"), lambda: self.check_split(contracts, settlement, active, sit_out))
        groups = self.section(("readings",), self.compile_groups)
        session = self.section(("session",), self.compile_session)
        accusation = self.section(("accusation",), lambda: self.compile_accusation(phases))
        penalties = self.section(("penalties",), self.compile_penalties)
        pot_ante = self.section(("pot_ante",), lambda: self.expression(("pot_ante",), BREACH_NAMES, INT))
        if self.problems:
            return None
        by_players = self.data.get("by_players") or {}
        return Ruleset(
            name=self.name,
            file=self.doc.file,
            title=self.data.get("title", self.name),
            family=self.data.get("family"),
            deck=self.deck,
            active_players=active,
            sit_out=sit_out,
            deal_plans=plans,
            removed=removed,
            call_titles={c: d.get("title", c) for c, d in (self.data.get("calls") or {}).items()},
            phases=phases,
            contracts=contracts,
            claim=claim,
            announcements=announcements,
            breaches=self.get(("auction", "breaches"), default("auction.breaches")),
            thrown_in=thrown_in,
            redeal=redeal,
            deal_choice=deal_choice,
            play=play,
            counting=counting,
            settlement=settlement,
            groups=groups,
            choices=self.choices,
            document=self.data,
            parents=self.parents,
            ref=self.source_ref,
            session=session,
            accusation=accusation,
            penalties=penalties,
            pot_ante=pot_ante,
            by_players=tuple(sorted(int(k) for k in by_players if str(k).isdigit())),
            direction=self.data.get("direction"),
            usual_players=(self.data.get("players") or {}).get("usual"),
            bonuses=self.bonuses,
            announcing=announcing,
            kontra_game=kontra_game,
            kontra_bonuses=kontra_bonuses,
            kontra_answer=kontra_answer,
        )

    # -- provenance ----------------------------------------------------------------------
    def check_values(self) -> None:
        """Every `source:` cites keys of `sources`; every number is one a rule can use."""
        sources = self.data.get("sources")
        keys = [str(k) for k in sources] if isinstance(sources, dict) else []
        for path, value in _walk(self.data):
            if path[-1:] == ("source",) and path[:1] != ("sources",) and isinstance(value, str):
                for key in cited_sources(value, keys):
                    if key not in keys:
                        self.problem(
                            path,
                            f"unknown source '{key}'{_hint(key, keys)} "
                            f"(cite a key of `sources`, then ':' and the section)",
                        )
            elif type(value) is int and not -MAX_NUMBER <= value <= MAX_NUMBER:
                self.problem(path, f"this number is too large for a rule (at most {MAX_NUMBER:,})")
            elif isinstance(value, float) and not math.isfinite(value):
                self.problem(path, f"'{value}' is not a number a rule can use")

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
            count = int(trumps.get("count", 0))
            if count > MAX_TRUMPS:
                self.problem(("deck", "trumps", "count"), f"a pack of {count:,} trumps? at most {MAX_TRUMPS:,}")
                self.deck_refused = True
                count = 0
            for number in range(1, count + 1):
                card = f"{TRUMP}{number}"
                cards.append(card)
                suit[card], rank[card] = TRUMP, number
                titles[card] = f"{number}"
                sets["trumps"].add(card)
            for card, title in (trumps.get("names") or {}).items():
                if card not in suit and not self.deck_refused:
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
            members: set[str] = set()
            # A name refused for the suit's set leaves the set unnamed, so uses read what they meant.
            if self.check_set_name(("deck", "suits", i, "name"), sname):
                sets[sname] = members
            ranks = [str(r) for r in s.get("ranks", [])]
            for position, r in enumerate(ranks):
                card = f"{sid}{r}"
                cards.append(card)
                suit[card], rank[card] = sid, len(ranks) - position
                titles[card] = f"{rank_titles.get(r, r)} {s.get('symbol', sid)}"
                members.add(card)
        sets["cards"] = set(cards)
        for name, ranks in (d.get("rank_sets") or {}).items():
            wanted = {str(r) for r in ranks}
            if self.check_set_name(("deck", "rank_sets", name), name, at_key=True):
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
            if card not in points and not self.deck_refused:
                self.problem(
                    ("deck", "points", "cards", card),
                    f"no card {card} in this pack{_hint(card, cards)}",
                    at_key=True,
                )
            points[card] = value
        return Deck(
            title=d.get("title", default("deck.title")),
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

    def check_set_name(self, path: Path, name: object, *, at_key: bool = False) -> bool:
        """Whether a set of cards may take this name: not one the expressions read otherwise."""
        if name in GAME_NAMES:
            self.problem(
                path,
                f"'{name}' is a value of the game that the rules' expressions read (as in `count(hand & trumps)`); "
                "a set of cards named so would hide it: choose another name",
                at_key=at_key,
            )
        elif name in KEYWORDS:
            self.problem(
                path,
                f"'{name}' is a word of the rules' expressions; a set of cards named so could not be used: "
                "choose another name",
                at_key=at_key,
            )
        else:
            return True
        return False

    def compile_deck_sets(self) -> None:
        for name in self.get(("deck", "sets")) or {}:
            path = ("deck", "sets", name)
            if name in self.constants:
                self.problem(path, f"'{name}' is already a name for cards; choose another", at_key=True)
                continue
            if not self.check_set_name(path, name, at_key=True):
                continue  # its uses read what the name means in the expressions
            # A set that does not compile still gets its name (empty), so its uses do not
            # repeat the one mistake as "unknown name" everywhere.
            value = self.card_set(path)
            self.deck.sets[name] = value
            self.constants[name] = (CARDS, value)

    # -- players and deal ----------------------------------------------------------------
    def compile_players(self) -> tuple[tuple[int, ...], dict[int, tuple[int, ...]]]:
        """The numbers of active players, and who sits out by table size: `sit_out` as written,
        and `dealer_sits_out: [8]` as its shorthand `{8: [0]}` (the dealer is position 0)."""
        p = self.data.get("players") or {}
        active = tuple(sorted({n for n in p.get("active") or [] if isinstance(n, int)}))
        sit_out: dict[int, tuple[int, ...]] = {}
        for n in p.get("dealer_sits_out") or []:
            if isinstance(n, int):
                sit_out[n] = (0,)
        written = p.get("sit_out")
        keys: dict[int, Any] = {}  # each table size as written (its place)
        for key, positions in (written if isinstance(written, dict) else {}).items():
            path: Path = ("players", "sit_out", key)
            if not str(key).isdigit() or not isinstance(positions, list):
                continue  # the schema has said what is wrong
            size = int(key)
            keys[size] = key
            if size in sit_out:
                self.problem(
                    path,
                    f"the table of {size} is also in dealer_sits_out; say who sits out at {size} once: "
                    f'drop {size} from dealer_sits_out (the same as sit_out: {{"{size}": [0]}})',
                    at_key=True,
                )
                continue
            seen: set[int] = set()
            wrong = False
            for i, position in enumerate(positions):
                if not isinstance(position, int) or position < 0:
                    wrong = True  # the schema has said what is wrong
                    continue
                if position >= size:
                    wrong = True
                    self.problem(
                        (*path, i),
                        f"position {position} is not at a table of {size}: positions count from the dealer "
                        f"(0) in the order of play, up to {size - 1}",
                    )
                elif position in seen:
                    self.problem((*path, i), f"position {position} is given twice: give each seat that sits out once")
                seen.add(position)
            if not wrong:  # (a table with a wrong position has no number of players to check)
                sit_out[size] = tuple(sorted(seen))
        for size, out in sorted(sit_out.items()):
            playing = size - len(out)
            if playing not in active:
                if out == (0,) and size in (p.get("dealer_sits_out") or []):
                    place: Path = ("players", "dealer_sits_out", (p.get("dealer_sits_out") or []).index(size))
                    who = "the dealer out"
                else:
                    place = ("players", "sit_out", keys[size]) if size in keys else ("players",)
                    who = f"{len(out)} sitting out"
                self.problem(
                    place,
                    f"with {size} at the table and {who}, {playing} play, but active allows only {list(active)} "
                    f"(the deal plans are made for those): add {playing} to players.active with its deal plan, "
                    "or let another number sit out",
                )
        usual = p.get("usual")
        if isinstance(usual, int) and usual not in set(active) | set(sit_out):
            self.problem(("players", "usual"), f"the usual table of {usual} is not among the table sizes allowed")
        return active, dict(sorted(sit_out.items()))

    def compile_removed(self, active: tuple[int, ...]) -> dict[int, frozenset[str]]:
        """The cards out of the pack, by number of active players: one set expression for every
        number (`remove: sixes`), or one for each number that removes cards."""
        written = self.get(("deal", "remove"))
        if isinstance(written, str):
            expr = self.expression(("deal", "remove"), {}, CARDS)
            if expr is None:
                self.removal_broken.update(active)
                return {}
            return {n: frozenset(expr({})) for n in active}
        removed = {}
        for key in written or {}:
            if int(key) not in active:
                self.problem(
                    ("deal", "remove", key),
                    f"cards removed for {key} players, but the ruleset allows {list(active)}",
                    at_key=True,
                )
            expr = self.expression(("deal", "remove", key), {}, CARDS)
            if expr is None:
                self.removal_broken.add(int(key))
            else:
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
            plan = self.packets(path, packets)
            if plan is None:
                continue  # a packet the schema refused: its count would only mislead
            dealt = sum(pk.count * (n if pk.to == "each" else 1) for pk in plan)
            in_play = len(self.deck.cards) - len(removed.get(n, ()))
            if dealt != in_play and n not in self.removal_broken:
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

    def compile_deal_choice(self, plans: dict[int, tuple[Packet, ...]]) -> DealChoice | None:
        """The dealer's choice between `deal.plans` (named `usual`) and the other plans: each
        for numbers of players that have a plan, each giving the hands and the talon as many
        cards as that plan does (what the rest of the ruleset counts on)."""
        written = self.get(("deal", "choice"))
        if not isinstance(written, dict) or not isinstance(written.get("plans"), dict):
            return None  # none written, or the schema says what is wrong
        usual = written.get("usual")
        others: dict[str, dict[int, tuple[Packet, ...]]] = {}
        for name, by_players in written["plans"].items():
            path = ("deal", "choice", "plans", name)
            if name == usual:
                self.problem(
                    path,
                    f"'{name}' is the name of the usual plan (deal.plans); give this plan another name",
                    at_key=True,
                )
                continue
            others[name] = {}
            for key, packets in (by_players or {}).items():
                n = int(key)
                if n not in plans:
                    self.problem(
                        (*path, key),
                        f"a plan for {n} players, but deal.plans has none for {n}: "
                        f"write the usual plan for {n} players there first",
                        at_key=True,
                    )
                    continue
                if not isinstance(packets, list) or not all(isinstance(pk, dict) for pk in packets):
                    continue
                plan = self.packets((*path, key), packets)
                if plan is None:
                    continue
                sizes = [sum(pk.count for pk in p if pk.to == to) for p in (plan, plans[n]) for to in ("each", "talon")]
                if sizes[:2] != sizes[2:]:
                    self.problem(
                        (*path, key),
                        f"this plan deals {sizes[0]} cards to each player and {sizes[1]} to the talon, "
                        f"the usual plan {sizes[2]} and {sizes[3]}: a plan the dealer chooses deals the same "
                        "cards in another order, so give it the same packets' sums",
                    )
                    continue
                others[name][n] = plan
        return DealChoice(str(usual), others)

    def packets(self, path: Path, written: list[dict[str, Any]]) -> tuple[Packet, ...] | None:
        """The packets of a plan in the order they are dealt, a step written with `times`
        repeated that many times: `{each: 1, times: 8}` is eight packets of one card to each.
        None when a packet is not one the schema allows (it says what is wrong), or is wrong
        in a way said here."""
        plan: list[Packet] = []
        for i, pk in enumerate(written):
            times = pk.get("times", default("deal.plans.*[].times"))
            counts = [pk[k] for k in ("each", "talon") if k in pk]
            if len(counts) != 1 or not all(_positive(n) for n in (*counts, times)):
                return None
            if "talon" in pk:
                if times != 1:
                    self.problem(
                        (*path, i, "times"),
                        f"cards to the talon in a row are one packet: write {{talon: {pk['talon'] * times}}} "
                        f"instead of repeating {{talon: {pk['talon']}}} {times} times",
                    )
                    return None
                plan.append(Packet("talon", int(pk["talon"])))
            elif pk["each"] * times > len(self.deck.cards):
                # Said before the packets are made: a million of them would only fill the memory.
                self.problem(
                    (*path, i, "times"),
                    f"{times} times {pk['each']} cards to each player is more than the pack's {len(self.deck.cards)} cards",
                )
                return None
            else:
                plan += [Packet("each", int(pk["each"]))] * times
        return tuple(plan)

    # -- contracts -----------------------------------------------------------------------
    def contract_data(self, name: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
        """A contract's rules with `like` resolved (the other contract's rules, then its own)."""
        raw = (self.data.get("contracts") or {}).get(name) or {}
        parent = raw.get("like")
        if not parent:
            return raw
        known = list(self.data.get("contracts") or {})
        if parent not in known:
            self.problem(("contracts", name, "like"), f"no contract named '{parent}'{_hint(parent, known)}")
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

    def written_at(self, name: str, own: dict[str, Any], key: str) -> Path:
        """Where a contract's rule is written, to check it there: in the contract itself, or in
        the contract it is `like` (and so on: `like` a contract that is itself `like` another)."""
        contracts = self.data.get("contracts") or {}
        current, seen = name, set()
        rules: Any = own
        while isinstance(rules, dict) and current not in seen:
            if key in rules:
                return ("contracts", current, key)
            seen.add(current)
            parent = rules.get("like")
            if not isinstance(parent, str):
                break
            current, rules = parent, contracts.get(parent)
        return ("contracts", own.get("like", name), key)

    def compile_contracts(self) -> dict[str, Contract]:
        contracts: dict[str, Contract] = {}
        default_wins = self.expression(("settlement", "declarer_wins"), OUTCOME_NAMES, BOOL)
        default_amount = self.value_expression(("settlement", "amount"), AMOUNT_NAMES)
        self.settlement_formulas = (default_wins, default_amount)  # kept in the Settlement, to describe it
        for name in self.data.get("contracts") or {}:
            if name in self.not_allowed:
                continue  # not played at this table: its bids are left out too (see `levels`)
            data = self.contract_data(name)
            path = ("contracts", name)
            self.where = path
            own: dict[str, Any] = self.data["contracts"][name] or {}
            steps = self.compile_exchange(name, data.get("exchange") or [], own)
            leads = data.get("opening_leads")
            opening = (
                OpeningLeads(
                    leads.get("replace_same_suit", default("contracts.*.opening_leads.replace_same_suit")),
                    leads.get("together", default("contracts.*.opening_leads.together")),
                    tuple(leads.get("suit_order") or ()),
                    leads.get("declarer_leads_after", default("contracts.*.opening_leads.declarer_leads_after")),
                )
                if isinstance(leads, dict)  # `opening_leads: {}` is the rule with every default, not none
                else None
            )
            schedule = self.compile_schedule(self.written_at(name, own, "schedule")) if "schedule" in data else None
            trumps = data.get("trumps") or {}
            trump_suit = self.suit_id(self.written_at(name, own, "trumps") + ("suit",), trumps.get("suit"))
            trump_choice = tuple(
                filter(
                    None,
                    (
                        self.suit_id(self.written_at(name, own, "trumps") + ("choose",), n)
                        for n in trumps.get("choose") or []
                    ),
                )
            )
            self.check_trump_naming(name, own, steps, trump_choice)
            extras = self.contract_extras(name, data, own)
            individual = None
            if isinstance(data.get("individual"), dict):
                ind = data["individual"]
                where = self.written_at(name, own, "individual")
                pays = self.expression(where + ("pays_each",), INDIVIDUAL_NAMES, INT)
                payments = self.individual_payments(where, ind.get("payments") or [])
                if (pays is None) == (not payments):
                    # Nothing written at all; what is written but wrong is reported where it is.
                    if pays is None and not payments and "pays_each" not in ind and not ind.get("payments"):
                        self.problem(where, "say who pays: `pays_each` (with `loser`), or a list of `payments`")
                else:
                    individual = Individual(
                        ind.get("loser"), ind.get("ties", default("contracts.*.individual.ties")), pays, payments
                    )
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
                    talon_counts=data.get("talon_counts", default("contracts.*.talon_counts")),
                    schedule=schedule,
                    trump_suit=trump_suit,
                    trump_choice=trump_choice,
                    no_trump_suit=bool(trumps.get("none", default("contracts.*.trumps.none"))),
                    talon_to_last_trick=data.get("talon_to_last_trick", default("contracts.*.talon_to_last_trick")),
                    **extras,
                )
                continue
            if data.get("talon_to_last_trick", default("contracts.*.talon_to_last_trick")):
                self.problem(
                    self.written_at(name, own, "talon_to_last_trick"),
                    "the talon goes to the last trick's winner in a game where everyone plays for themselves "
                    "(`individual`); a lone player's talon and discards count as `counting.aside` or "
                    "`out_of_play` says",
                )
            wins = (
                self.expression(self.written_at(name, own, "declarer_wins"), OUTCOME_NAMES, BOOL)
                if "declarer_wins" in data
                else default_wins
            )
            amount = (
                self.value_expression(self.written_at(name, own, "amount"), AMOUNT_NAMES)
                if "amount" in data
                else default_amount
            )
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
            pot = self.value_expression(self.written_at(name, own, "pot"), POT_NAMES) if "pot" in data else None
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
                talon_counts=data.get("talon_counts", default("contracts.*.talon_counts")),
                schedule=schedule,
                trump_suit=trump_suit,
                trump_choice=trump_choice,
                no_trump_suit=bool(trumps.get("none", default("contracts.*.trumps.none"))),
                **extras,
            )
        return contracts

    def contract_extras(self, name: str, data: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
        """The contract's rules of sides, bonuses, talon and open hands (shared by every kind)."""
        out: dict[str, Any] = {}
        hand = data.get("open_hand", default("contracts.*.open_hand"))
        if isinstance(hand, dict):
            out.update(
                open_hand=True,
                open_hand_who=hand.get("who", default("contracts.*.open_hand.who")),
                open_hand_from=hand.get("from_trick", default("contracts.*.open_hand.from_trick")),
            )
        else:
            out["open_hand"] = bool(hand)
        if "out_of_play" in data:
            where = self.written_at(name, own, "out_of_play")
            rule = data["out_of_play"] or {}
            default_route = self.get(("counting", "aside", "counts_for"), default("counting.aside.counts_for"))
            out["out_of_play"] = OutOfPlay(
                self.routes(where + ("talon",), rule.get("talon", default_route)),
                self.routes(where + ("discards",), rule.get("discards", default_route)),
            )
        out["bonus_factor"] = int(data.get("bonus_factor", default("contracts.*.bonus_factor")))
        if "bonuses" in data:
            where = self.written_at(name, own, "bonuses")
            names = list(self.bonuses)
            for b in data["bonuses"] or []:
                if b not in self.bonuses:
                    self.problem(where, f"no bonus named '{b}'{_hint(b, names)}")
            out["bonuses"] = frozenset(data["bonuses"] or ())
        if data.get("must_announce"):
            where = self.written_at(name, own, "must_announce")
            one_of = tuple((data["must_announce"] or {}).get("one_of") or ())
            for b in one_of:
                if b not in self.bonuses or self.bonuses[b].announced is None:
                    announceable = [n for n, bonus in self.bonuses.items() if bonus.announced is not None]
                    self.problem(
                        where + ("one_of",), f"'{b}' is no bonus that may be announced{_hint(b, announceable)}"
                    )
            out["must_announce"] = MustAnnounce(one_of)
        if data.get("concede"):
            where = self.written_at(name, own, "concede")
            when = self.expression(where + ("when",), CONCEDE_NAMES, BOOL)
            pays = self.expression(where + ("pays",), BREACH_NAMES, INT)
            if when is not None and pays is not None:
                out["concede"] = Concede(when, pays)
        if data.get("talon_to_tricks"):
            out["talon_to_tricks"] = int((data["talon_to_tricks"] or {}).get("first", 0))
        if isinstance(data.get("doubling"), dict):
            d = data["doubling"]
            if data.get("individual") is None:
                self.problem(
                    self.written_at(name, own, "doubling"),
                    "a round in which each player may double once is for a game where everyone plays for "
                    "themselves (`individual`); a lone player's game is doubled with `kontra`",
                )
            out["doubling"] = Doubling(
                d.get("start", default("contracts.*.doubling.start")),
                bool(d.get("sitting_out", default("contracts.*.doubling.sitting_out"))),
                d.get("title", default("contracts.*.doubling.title")),
            )
        return out

    def routes(self, path: Path, value: Any) -> tuple[Route, ...]:
        """Where cards out of play count: one destination, or the first route whose `when` holds."""
        if isinstance(value, str):
            return (Route(value),)  # type: ignore[arg-type]  # the schema allows only the three
        routes = []
        for i, entry in enumerate(value or []):
            when = self.expression(path + (i, "when"), ROUTE_NAMES, BOOL) if entry.get("when") else None
            routes.append(Route(entry.get("to", "nobody"), when))
        if routes and routes[-1].when is not None:
            self.problem(path, "the last route needs no `when`: it says where the cards go when no other route applies")
        return tuple(routes)

    def individual_payments(self, where: Path, entries: list[Any]) -> tuple[IndividualPayment, ...]:
        result = []
        for i, entry in enumerate(entries):
            path = where + ("payments", i)
            payers = (
                None
                if entry.get("payers", default("contracts.*.individual.payments[].payers")) == "others"
                else self.expression(path + ("payers",), PAYMENT_NAMES, BOOL)
            )
            receivers = (
                None
                if entry.get("receivers", default("contracts.*.individual.payments[].receivers")) == "others"
                else self.expression(path + ("receivers",), PAYMENT_NAMES, BOOL)
            )
            if payers is None and receivers is None:
                payers_written = entry.get("payers", default("contracts.*.individual.payments[].payers"))
                receivers_written = entry.get("receivers", default("contracts.*.individual.payments[].receivers"))
                if payers_written == "others" and receivers_written == "others":
                    self.problem(path, "name the payers or the receivers (`others` stands for everybody else once)")
                continue  # else a condition that does not compile, reported where it is written
            amount = self.expression(path + ("amount",), PAYMENT_NAMES, INT)
            if amount is not None:
                match = entry.get("match", default("contracts.*.individual.payments[].match"))
                result.append(IndividualPayment(payers, receivers, amount, match))
        return tuple(result)

    def contract_play(self, contracts: dict[str, Contract], play: PlayRules) -> dict[str, Contract]:
        """Each contract with its own rules of play: the ruleset's, with the keys it states."""
        result = {}
        for name, contract in contracts.items():
            own = (self.data.get("contracts") or {}).get(name) or {}
            data = self.contract_data(name)
            if "play" not in data:
                result[name] = contract
                continue
            where = self.written_at(name, own, "play")
            fields = self.play_fields(data["play"] or {}, where)
            result[name] = dataclasses.replace(contract, play=dataclasses.replace(play, **fields))
        return result

    def compile_bonuses(self) -> dict[str, Bonus]:
        result = {}
        for name, b in (self.data.get("bonuses") or {}).items():
            path = ("bonuses", name)
            scope = b.get("scope", default("bonuses.*.scope"))
            judged = SEAT_BONUS_NAMES if scope == "seat" else BONUS_JUDGED_NAMES
            if scope != "seat" and re.search(r"\b(played|captured)\b", str(b.get("achieved", ""))):
                # A player's own cards, which a side's bonus does not read: say which scope does.
                self.problem(
                    path + ("achieved",),
                    "`played` and `captured` are one player's own cards: judge the bonus for each player "
                    "with `scope: seat` (a side reads `side_played`, `opponents_played` and `side_won`)",
                )
                continue
            achieved = self.expression(path + ("achieved",), judged, BOOL)
            value = self.expression(path + ("value",), BONUS_VALUE_NAMES, INT) if "value" in b else None
            announced = self.expression(path + ("announced",), BONUS_VALUE_NAMES, INT)
            attempted = self.expression(path + ("attempted",), judged, BOOL)
            forced_early = b.get("forced_early", default("bonuses.*.forced_early"))
            if forced_early != "lost" and (b.get("card") is None or b.get("announced") is None):
                self.problem(
                    path + ("forced_early",),
                    "only an announced bonus with a `card` kept back for its `trick` can be forced out early",
                )
            if scope == "seat" and b.get("card") is not None:
                self.problem(
                    path + ("card",),
                    "a card is kept back for a side's bonus; a combination in a hand (scope: seat) keeps none",
                )
            if scope == "seat" and b.get("attempted") is not None:
                # (the settlement of a seat's combination reads only `achieved`: refused, not ignored)
                self.problem(
                    path + ("attempted",),
                    "a silent attempt is scored for a side's bonus; a combination in a hand (scope: seat) "
                    "is made or not: remove `attempted`, or judge the bonus for the side (scope: side)",
                )
            requires = self.expression(path + ("requires",), SEAT_NAMES, BOOL)
            card = b.get("card")
            if card is not None and card != CALLED and card not in self.deck.suit:
                self.problem(
                    path + ("card",),
                    f"no card {card} in this pack{_hint(str(card), [*self.deck.cards, CALLED])} "
                    f"(or `{CALLED}`: the card called for a partner)",
                )
            if (card is None) != (b.get("trick") is None):
                self.problem(path, "a card kept back for its trick needs both `card` and `trick`")
            if "value" not in b and "announced" not in b:
                self.problem(path, "give the bonus a `value` (made silently), an `announced` value, or both")
            if "value" not in b and "attempted" in b:
                self.problem(path + ("attempted",), "a silent attempt scores minus `value`: give the bonus a `value`")
            if b.get("trick") == 0:
                self.problem(path + ("trick",), "tricks are numbered 1, 2 … from the first and -1, -2 … from the last")
            if achieved is None or (value is None and announced is None):
                continue
            result[name] = Bonus(
                name,
                b.get("title", name),
                achieved,
                value,
                announced,
                attempted,
                card,
                b.get("trick"),
                _replaces(b.get("replaces_game", default("bonuses.*.replaces_game"))),
                requires,
                scope,
                forced_early,
                b.get("whose", default("bonuses.*.whose")),
            )
        return result

    def compile_announcing(self) -> Announcing | None:
        a = self.data.get("announcing")
        if not isinstance(a, dict):
            return None
        if self.data.get("announcements"):
            self.problem(
                ("announcing",),
                "a round of announcements is for `bonuses`; the declarer's laid-out cards and declarations "
                "(`announcements`) are not part of it yet: use one or the other",
            )
        may = self.expression(("announcing", "may_announce"), SEAT_NAMES, BOOL)
        return Announcing(a.get("start", default("announcing.start")), a.get("done", default("announcing.done")), may)

    def compile_kontra(self, contracts: dict[str, Contract]) -> tuple[KontraRule | None, KontraRule | None]:
        k = self.data.get("kontra")
        if not k or set(k) <= {"answer"}:  # (when to answer, with nothing to double: compile_kontra_answer)
            return None, None
        if not isinstance(self.data.get("announcing"), dict):
            self.problem(("kontra",), "kontra is said in the round of announcements: add `announcing`")

        def rule(key: str) -> KontraRule | None:
            r = k.get(key)
            if not r:
                return None
            titles = tuple(r.get("titles") or ())
            most = None if r.get("max", 1) == "none" else int(r.get("max", 1))
            if titles and most is not None and len(titles) != most:
                self.problem(("kontra", key, "titles"), f"give one title for each of the {most} doublings")
            eligible = self.expression(("kontra", key, "eligible"), KONTRA_NAMES, BOOL)
            return KontraRule(most, titles, eligible)

        game = rule("game")
        if game is not None:
            for name, contract in contracts.items():
                if contract.amount is not None and "kontra" not in contract.amount.names:
                    own = (self.data.get("contracts") or {}).get(name) or {}
                    where = self.written_at(name, own, "amount") if "amount" in self.contract_data(name) else None
                    self.problem(
                        where or ("settlement", "amount"),
                        f"the game may be doubled (kontra), but the amount of {name} never reads `kontra`: "
                        'multiply it, e.g. "factor * kontra"',
                    )
        return game, rule("bonuses")

    def compile_kontra_answer(
        self, contracts: dict[str, Contract] | None, *rules: KontraRule | None
    ) -> Literal["round", "at_once"]:
        """When a doubling is answered. At once, the turn goes to the first seat of the other side
        that may double again, and the seats passed over say nothing: so everybody must know the
        sides, and who may double must not depend on a hand, or the turn would show them."""
        k = self.data.get("kontra")
        answer: Literal["round", "at_once"] = (k.get("answer") if isinstance(k, dict) else None) or default(
            "kontra.answer"
        )
        if answer != "at_once":
            return answer
        if not any(rule is not None and (rule.max is None or rule.max > 0) for rule in rules):
            self.problem(
                ("kontra", "answer"),
                "a doubling answered at once, but nothing may be doubled: add `kontra.game` (or `bonuses`), "
                "or leave `answer` out",
            )
        for name, contract in (contracts or {}).items():
            if any(isinstance(step, CallPartner) for step in contract.exchange):
                self.problem(
                    ("kontra", "answer"),
                    f"a doubling answered at once goes to the other side's first seat that may double, which "
                    f"would show who the partner is, but {name} calls a partner by a card: use `answer: round` "
                    "(everybody speaks in turn), or leave the called partner out",
                )
                break
        for key, rule in zip(("game", "bonuses"), rules, strict=True):
            if rule is not None and rule.eligible is not None and "hand" in rule.eligible.names:
                self.problem(
                    ("kontra", key, "eligible"),
                    f"a doubling answered at once skips the seats that may not double, which would show what "
                    f"`{rule.eligible.source}` reads of their hands: say who may double from what the table "
                    "knows (the auction: made_bid, bid_before_turn; is_declarer), or use `answer: round`",
                )
        return answer

    def check_exchanges(self, contracts: dict[str, Contract], plans: dict[int, tuple[Packet, ...]]) -> None:
        """An exchange must leave the declarer with as many cards as everybody else, and never
        ask for more cards than the declarer holds. A forced discard counts as one card: its set
        holds at most one (compile_exchange sees to that), and with none to force the declarer
        discards one of their choice."""
        if self.plans_broken:
            return
        for name, contract in contracts.items():
            for n, plan in plans.items():
                hand = sum(p.count for p in plan if p.to == "each")
                talon = sum(p.count for p in plan if p.to == "talon")
                held, taken, discarded = hand, 0, 0
                for index, step in enumerate(contract.exchange):
                    wanted = (
                        step.count
                        if isinstance(step, Keep)
                        else step.how_many(talon)
                        if isinstance(step, Discard)
                        else 1
                        if isinstance(step, (ForcedDiscard, Give))
                        else 0
                    )
                    if isinstance(step, Discard) and step.count is None:
                        wanted = taken  # as many as were taken
                    if wanted > held:
                        verb = "keep" if isinstance(step, Keep) else "give" if isinstance(step, Give) else "discard"
                        self.problem(
                            ("contracts", name, "exchange", index),
                            f"with {n} players the declarer holds {held} cards at this step, so cannot {verb} {wanted}",
                        )
                        break
                    if isinstance(step, Keep):
                        discarded += held - step.count
                        held = step.count
                    elif isinstance(step, TakeTalon) and step.count is not None:
                        if step.count > talon:
                            self.problem(
                                ("contracts", name, "exchange", index, "take_talon", "count"),
                                f"with {n} players the talon has {talon} cards, so {step.count} cannot be taken from it",
                            )
                        held += min(step.count, talon)
                        taken += min(step.count, talon)
                    elif isinstance(step, TakeTalon):
                        if talon % step.parts:
                            self.problem(
                                ("contracts", name, "exchange", index, "take_talon", "parts"),
                                f"with {n} players the talon of {talon} cards does not split into {step.parts} equal parts",
                            )
                        held += talon // step.parts
                        taken += talon // step.parts
                    elif isinstance(step, Discard):
                        held -= wanted
                        discarded += wanted
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

    def check_trump_naming(
        self, name: str, own: dict[str, Any], steps: tuple[ExchangeStep, ...], choice: tuple[str, ...]
    ) -> None:
        """A `name_trumps` step names one of the contract's suits to choose, once."""
        naming = [i for i, step in enumerate(steps) if isinstance(step, NameTrumps)]
        where = self.written_at(name, own, "exchange")
        if naming and not choice:
            self.problem(
                where + (naming[0], "name_trumps"),
                f"{name} has no suit to name as trumps (its `trumps.choose` lists none): give it "
                "`trumps: {choose: [...]}`, or leave this step out"
                + (" (a contract taking this exchange by `like` writes its own)" if "exchange" not in own else ""),
            )
        for later in naming[1:]:
            self.problem(
                where + (later, "name_trumps"), "the trump suit is named once: leave out this second `name_trumps`"
            )

    def compile_exchange(self, name: str, steps: list[Any], own: dict[str, Any]) -> tuple[ExchangeStep, ...]:
        where = self.written_at(name, own, "exchange")[1]
        result: list[ExchangeStep] = []
        for i, step in enumerate(steps):
            path = ("contracts", where, "exchange", i)
            if "take_talon" in step:
                t = step["take_talon"] or {}
                count = t.get("count")
                parts = int(t.get("parts", default("contracts.*.exchange[].take_talon.parts")))
                if count is not None and parts != 1:
                    self.problem(
                        path + ("take_talon",),
                        "take the talon in `parts` or take `count` cards from it, not both",
                    )
                result.append(
                    TakeTalon(
                        parts,
                        bool(t.get("shown", default("contracts.*.exchange[].take_talon.shown"))),
                        None if count is None else int(count),
                        t.get("from", default("contracts.*.exchange[].take_talon.from")),
                        t.get("rest_seen_by", default("contracts.*.exchange[].take_talon.rest_seen_by")),
                    )
                )
            elif "call_partner" in step:
                c = step["call_partner"] or {}
                allowed = (
                    self.card_set(path + ("call_partner", "from")) if c.get("from") else frozenset(self.deck.cards)
                )
                unnamed = c.get("unnamed") or {}
                result.append(
                    CallPartner(
                        allowed,
                        unnamed.get("choice"),
                        self.expression(path + ("call_partner", "unnamed", "when"), PARTNER_NAMES, BOOL),
                        self.expression(path + ("call_partner", "own_only_when"), PARTNER_NAMES, BOOL),
                    )
                )
            elif "keep" in step:
                k = step["keep"]
                allowed = self.card_set(path + ("keep", "from")) if k.get("from") else frozenset(self.deck.cards)
                prefer = self.card_set(path + ("keep", "prefer")) if k.get("prefer") else None
                result.append(
                    Keep(
                        int(k.get("count", 0)),
                        allowed,
                        prefer,
                        k.get("same_suit", default("contracts.*.exchange[].keep.same_suit")),
                        k.get("different_suits", default("contracts.*.exchange[].keep.different_suits")),
                        k.get("exposed", default("contracts.*.exchange[].keep.exposed")),
                        k.get("reason", default("contracts.*.exchange[].keep.reason")),
                    )
                )
            elif "call_card" in step:
                allowed = (
                    self.card_set(path + ("call_card", "from"))
                    if (step["call_card"] or {}).get("from")
                    else frozenset(self.deck.cards)
                )
                in_talon = (step["call_card"] or {}).get(
                    "in_talon", default("contracts.*.exchange[].call_card.in_talon")
                )
                result.append(CallCard(allowed, in_talon))
            elif "name_trumps" in step:
                result.append(NameTrumps())
            elif "give" in step:
                other = (step["give"] or {}).get(
                    "other_than_called", default("contracts.*.exchange[].give.other_than_called")
                )
                result.append(Give(bool(other)))
            elif "forced_discard" in step:
                cards = self.expression(path + ("forced_discard", "cards"), FORCED_NAMES, CARDS)
                if cards is not None and cards.max_cards > 1:
                    self.problem(
                        path + ("forced_discard", "cards"),
                        f"this set may hold up to {cards.max_cards} cards, but a forced discard lays away exactly "
                        "one card (with none to force, the declarer discards one of their choice), so the exchange "
                        "could not count the declarer's cards: write a set of at most one card, such as "
                        "`if count(taken & trumps) > 0 then {lowest(taken & trumps)} else {}`",
                    )
                if cards is not None:
                    shown = step["forced_discard"].get("shown", default("contracts.*.exchange[].forced_discard.shown"))
                    result.append(ForcedDiscard(cards, shown))
            elif "discard" in step:
                d = step["discard"]
                forbid = (
                    self.expression(path + ("discard", "forbid", "when"), DISCARD_NAMES, BOOL)
                    if d.get("forbid")
                    else None
                )
                count = None if d.get("count") == "talon" else int(d.get("count", 0))
                preferences: list[Preference] = []
                for j, entry in enumerate(d.get("prefer") or ()):
                    when = self.expression(path + ("discard", "prefer", j, "when"), DISCARD_NAMES, BOOL)
                    if when is not None:
                        preferences.append(Preference(when, entry.get("reason", "other cards first")))
                together: list[Preference] = []
                if len(d.get("all_or_none") or ()) > MAX_ALL_OR_NONE:
                    self.problem(
                        path + ("discard", "all_or_none"),
                        f"{len(d['all_or_none'])} classes go all or none here, but the exchange weighs every way "
                        f"they can go (in or out), so at most {MAX_ALL_OR_NONE} may be listed: leave a class out, "
                        "or make classes that always go aside together one class",
                    )
                for j, entry in enumerate(d.get("all_or_none") or ()):
                    when = self.expression(path + ("discard", "all_or_none", j, "when"), DISCARD_NAMES, BOOL)
                    if when is not None:
                        together.append(Preference(when, entry.get("reason", "these cards go aside all or none")))
                reason = (d.get("forbid") or {}).get("reason", "")
                shown = self.expression(path + ("discard", "shown"), DISCARD_NAMES, BOOL) if "shown" in d else None
                result.append(Discard(count, forbid, reason, tuple(preferences), tuple(together), shown))
        return tuple(result)

    # -- auction -------------------------------------------------------------------------
    def levels(
        self,
        phase: dict[str, Any],
        where: Path,
        entries: list[Any] | None,
        contracts: dict[str, Contract],
        intentions: bool = False,
    ) -> tuple[Level, ...]:
        """The calls of an auction phase written at `where` (its ladder, interrupts, side bids or
        the games a winning bidder chooses from). `intentions`: calls that only say "I want to
        play", naming no contract."""
        known_contracts = list(self.data.get("contracts") or {})
        result = []
        for j, lv in enumerate(entries or []):
            call = lv.get("call")
            contract = lv.get("contract", call)
            if contract in self.not_allowed and not intentions and lv.get("ends") != "throw_in":
                continue  # a contract this table does not play: nobody may bid it
            if intentions or lv.get("ends") == "throw_in":
                contract = None  # a call that only says "I want to play", or throws the deal in
            elif contract is None:
                if call not in ((phase.get("then") or {}).get("choose") or {}):
                    self.problem(
                        where + (j, "contract"),
                        f"'{call}' names no contract, so its bidder must choose one: add it to `then.choose`",
                    )
            elif contract not in known_contracts:
                at = where + (j, "contract" if "contract" in lv else "call")
                self.problem(at, f"no contract named '{contract}'{_hint(contract, known_contracts)}")
            if call in NOT_CONTRACT_CALLS or call == phase.get("hold"):
                self.problem(where + (j, "call"), f"'{call}' cannot be a bid: it is the pass or the hold call")
            result.append(
                Level(
                    call=call,
                    contract=contract,
                    requires=self.expression(where + (j, "requires"), AUCTION_NAMES, BOOL),
                    holdable=lv.get("holdable", default("auction.phases.*.ladder[].holdable")),
                    ends=lv.get("ends"),
                    jump=lv.get("jump", default("auction.phases.*.ladder[].jump")),
                    needs=_first_need(contracts.get(contract)) if contract else None,
                    answered_by=self.proposal(phase, where + (j, "answered_by"), lv.get("answered_by")),
                )
            )
        return tuple(result)

    def proposal(self, phase: dict[str, Any], where: Path, rule: dict[str, Any] | None) -> Proposal | None:
        """Who answers a call that is a proposal (a bid of the ladder or an interrupt), with which
        calls: two calls of their own."""
        if not rule:
            return None
        accept, refuse = rule["accept"], rule["refuse"]  # (both required by the schema)
        taken = {*NOT_CONTRACT_CALLS, phase.get("hold")} | {
            lv.get("call") for key in ("ladder", "interrupts") for lv in phase.get(key) or []
        }
        for key, call in (("accept", accept), ("refuse", refuse)):
            if call in taken:
                self.problem(
                    where + (key,),
                    f"'{call}' is already a call of the phase: the answer needs calls of its own (ja, nein)",
                )
        if accept == refuse:
            self.problem(where + ("refuse",), f"'{refuse}' would both accept and refuse: name two calls")
        return Proposal(rule.get("by", default("auction.phases.*.ladder[].answered_by.by")), accept, refuse)

    def compile_auction(self, contracts: dict[str, Contract]) -> tuple[AuctionPhase, ...]:
        raw_phases: dict[str, Any] = self.get(("auction", "phases")) or {}
        names = list(raw_phases)
        first = self.get(("auction", "first"), names[0] if names else None)
        if first not in names:
            self.problem(("auction", "first"), f"no phase named '{first}'{_hint(str(first), names)}")
        known_contracts = list(self.data.get("contracts") or {})
        phases = []
        for name, p in raw_phases.items():
            path = ("auction", "phases", name)
            self.where = path
            declare = p.get("style") == "declare"

            ladder = self.levels(p, path + ("ladder",), p.get("ladder"), contracts, intentions=declare)
            interrupts = self.levels(p, path + ("interrupts",), p.get("interrupts"), contracts)
            side = self.levels(p, path + ("side_bids",), p.get("side_bids"), contracts)
            side_bids = tuple(
                (lv, frozenset(entry.get("over") or ()))
                for lv, entry in zip(side, p.get("side_bids") or [], strict=False)
            )
            calls = [lv.call for lv in ladder]
            compulsory = []
            for key, c in (p.get("compulsory") or {}).items():
                where = path + ("compulsory", key)
                if c.get("call") not in calls:
                    self.problem(
                        where + ("call",),
                        f"'{c.get('call')}' is not a bid of this phase{_hint(str(c.get('call')), calls)}",
                    )
                when = self.expression(where + ("when",), AUCTION_NAMES, BOOL)
                breach = self.expression(where + ("breach", "pays_each"), COMPULSION_BREACH_NAMES, INT)
                if when is not None:
                    compulsory.append(
                        Compulsion(
                            when,
                            c.get("call"),
                            c.get("reason", f"you must bid {c.get('call')} here"),
                            breach,
                            bool(c.get("or_higher", default("auction.phases.*.compulsory.*.or_higher"))),
                        )
                    )
            then = p.get("then") or {}
            pass_out = then.get("pass_out", default("auction.phases.*.then.pass_out"))
            if pass_out not in ("throw_in", "play") and pass_out not in names:
                self.problem(
                    path + ("then", "pass_out"),
                    f"no phase named '{pass_out}'{_hint(pass_out, ['throw_in', 'play', *names])}",
                )
            pass_out_play = then.get("play")
            if pass_out == "play" and pass_out_play in self.not_allowed:
                self.problem(
                    path + ("then", "play"),
                    f"'{pass_out_play}' is played when everybody passes, but it is not allowed "
                    "(`allowed: false`): allow it, or name another contract",
                )
            elif pass_out == "play" and pass_out_play not in known_contracts:
                self.problem(
                    path + ("then", "play"),
                    f"no contract named '{pass_out_play}'{_hint(str(pass_out_play), known_contracts)}",
                )
            priority = p.get("priority", default("auction.phases.*.priority"))
            if priority != default("auction.phases.*.priority") and (
                p.get("style", default("auction.phases.*.style")) != "rounds" or p.get("hold") is None
            ):
                self.problem(
                    path + ("priority",),
                    "priority decides only who may hold a bid in rounds: write `style: rounds` with a `hold` "
                    "(a call, or `same`), or leave `priority` out",
                )
            answer = p.get("answer", default("auction.phases.*.answer"))
            self.check_answer(path, answer, p)
            holder_of = tuple(then.get("holder_of") or ())
            self.check_pass_out_holder(path + ("then", "holder_of"), holder_of, pass_out, pass_out_play, contracts)
            after = dict(then.get("after") or {})
            for call, target in after.items():
                if call not in calls:
                    self.problem(
                        path + ("then", "after", call),
                        f"'{call}' is not a bid of this phase{_hint(call, calls)}",
                        at_key=True,
                    )
                if target not in names:
                    self.problem(path + ("then", "after", call), f"no phase named '{target}'{_hint(target, names)}")
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
                        f"'{call}' is not a bid of this phase{_hint(call, calls)}",
                        at_key=True,
                    )
                choose[call] = self.levels(p, path + ("then", "choose", call), entries, contracts)
            choose_when = then.get("choose_when", default("auction.phases.*.then.choose_when"))
            if choose_when != default("auction.phases.*.then.choose_when") and not choose:
                self.problem(
                    path + ("then", "choose_when"),
                    "the winner has nothing to choose from: list the games by winning call in `then.choose`, "
                    "or leave `choose_when` out",
                )
            phases.append(
                AuctionPhase(
                    name=name,
                    title=p.get("title", name),
                    ladder=tuple(ladder),
                    hold=None if p.get("hold") == "same" else p.get("hold"),
                    hold_same=p.get("hold") == "same",
                    raise_any=p.get("raise", default("auction.phases.*.raise")) == "any",
                    max_bidders=p.get("max_bidders"),
                    compulsory=tuple(compulsory),
                    pass_out=pass_out,
                    after=after,
                    interrupts=interrupts,
                    choose=choose,
                    choose_when=choose_when,
                    pass_out_play=pass_out_play,
                    pass_out_holder=holder_of,
                    carried_may_hold=p.get("carried_may_hold", default("auction.phases.*.carried_may_hold")),
                    answer=answer,
                    style=p.get("style", default("auction.phases.*.style")),
                    start=p.get("start", default("auction.phases.*.start")),
                    side_bids=side_bids,
                    speakers=p.get("speakers", default("auction.phases.*.speakers")),
                    hold_by=p.get("hold_by", default("auction.phases.*.hold_by")),
                    priority=priority,
                    interrupt_priority=p.get("interrupt_priority", default("auction.phases.*.interrupt_priority")),
                )
            )
        # The opening phase first: the engine starts the auction with phases[0].
        phases.sort(key=lambda ph: ph.name != first)
        return tuple(phases)

    def check_answer(self, path: Path, answer: str, phase: dict[str, Any]) -> None:
        """The challenged holder's answers: a duel's, holding by the phase's hold call."""
        if answer == default("auction.phases.*.answer"):
            return
        if phase.get("style", default("auction.phases.*.style")) != "duel":
            self.problem(
                path + ("answer",),
                "a holder answers a challenger at once only in a duel (`style: duel`); in rounds a player "
                "raises on their own turn: leave `answer` out",
            )
            return
        hold = phase.get("hold")
        if answer == "raise_or_hold" and (hold is None or hold == "same"):
            self.problem(
                path + ("answer",),
                "holding needs the phase's hold call (`hold: selber`): add it, or write `answer: raise`",
            )
        if answer == "raise" and hold is not None:
            self.problem(
                path + ("hold",),
                f"'{hold}' would never be said: with `answer: raise` the challenged holder raises or drops out; "
                "leave `hold` out, or write `answer: raise_or_hold`",
            )

    def check_pass_out_holder(
        self, path: Path, cards: tuple[str, ...], pass_out: str, play: str | None, contracts: dict[str, Contract]
    ) -> None:
        """The cards whose holder declares the game played when everybody passed: cards of the
        pack, naming the declarer of a game `pass_out: play` plays, which has one."""
        if not cards:
            return
        if pass_out != "play":
            self.problem(
                path,
                "the holder of a card declares the game played when everybody passes: write `pass_out: play` "
                "and name that game with `play`",
            )
        elif play in contracts and contracts[play].individual is not None:
            self.problem(
                path,
                f"'{play}' is played everyone for themselves, with no declarer for the holder to be: "
                "name a game with a declarer in `play`, or leave `holder_of` out",
            )
        for i, card in enumerate(cards):
            if card not in self.deck.suit:
                self.problem((*path, i), f"no card {card} in this pack{_hint(str(card), list(self.deck.cards))}")

    def compile_thrown_in(self) -> ThrowInPayment | None:
        """What is paid on a deal the auction throws in: refused where nothing would change hands
        (each player paying each other) or where it goes into a pot the table does not keep."""
        rule = self.get(("auction", "thrown_in"))
        if not rule:
            return None
        path: Path = ("auction", "thrown_in")
        payer = rule.get("payer", default("auction.thrown_in.payer"))
        to = rule.get("to", default("auction.thrown_in.to"))
        if payer == "each" and to == "others":
            self.problem(
                path + ("to",),
                "each player paying each other player changes nothing: write `to: pot` (each pays into the "
                "pot), or name one payer (`payer: dealer` or `payer: caller`)",
            )
        if to == "pot" and self.data.get("pot_ante") is None and not (self.data.get("session") or {}).get("pot"):
            self.problem(
                path + ("to",),
                "the table keeps no pot to pay into: keep one (`pot_ante`, or `session.pot`), "
                "or pay each other player (`to: others`)",
            )
        pays = self.expression(path + ("pays",), BREACH_NAMES, INT)
        return ThrowInPayment(payer, pays, to) if pays is not None else None

    def compile_redeal(self) -> tuple[Redeal, ...]:
        """The hands that throw the deal in as dealt, each condition checked against one hand."""
        rules = []
        for i, entry in enumerate(self.get(("auction", "redeal")) or ()):
            when = self.expression(("auction", "redeal", i, "when"), CLAIM_NAMES, BOOL)
            if when is not None:
                rules.append(Redeal(when, entry.get("reason") or f"the hand meets {when.source}"))
        return tuple(rules)

    # -- play, counting, settlement ------------------------------------------------------
    def compile_claim(self) -> Claim | None:
        claim = self.data.get("claim")
        if not claim:
            return None
        when = self.expression(("claim", "when"), CLAIM_NAMES, BOOL)
        return (
            Claim(
                when, claim.get("scores_as", "march"), claim.get("factor"), claim.get("liable", default("claim.liable"))
            )
            if when
            else None
        )

    def card_set(self, path: Path) -> frozenset[str]:
        """The cards of a set written at `path` (no variables: known when the ruleset loads)."""
        expr = self.expression(path, {}, CARDS)
        if expr is None:
            return frozenset()
        try:
            return expr({})
        except RuleError as exc:
            self.problem(path, exc.reason)
            return frozenset()

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
                    self.value_expression(path + ("declares", "amount"), AMOUNT_NAMES) if d.get("amount") else None
                )
                declares = (
                    Declaration(
                        wins,
                        int(d.get("multiplier", default("announcements.*.declares.multiplier"))),
                        declared_amount,
                        bool(d.get("releases_exposed", default("announcements.*.declares.releases_exposed"))),
                        d.get("priced", default("announcements.*.declares.priced")),
                    )
                    if wins
                    else None
                )
            # What is written decides, not what compiled: a broken `value` is reported as such.
            if bool(a.get("value")) == bool(a.get("declares")):
                self.problem(
                    path,
                    "an announcement lays out cards with a `value`, or makes a declaration (`declares`): one of the two",
                )
                continue
            known = list(self.data.get("contracts") or {})
            for c in a.get("contracts") or []:
                if c not in known:
                    self.problem(path + ("contracts",), f"no contract named '{c}'{_hint(c, known)}")
            only = frozenset(a["contracts"]) if a.get("contracts") else None
            result[name] = Announcement(name, a.get("title", name), cards, value, declares, only)
        return result

    def suit_id(self, path: Path, name: str | None) -> str | None:
        """The id of a suit named in the ruleset (hearts -> H)."""
        if name is None:
            return None
        by_name = {n: sid for sid, n in self.deck.suit_names.items() if sid != TRUMP}
        if name not in by_name:
            self.problem(path, f"no suit named '{name}'{_hint(str(name), list(by_name))}")
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
                    f"no card {w.get('card')} in this pack{_hint(str(w.get('card')), list(self.deck.cards))}",
                )
            withhold = Withhold(
                w.get("card"),
                w.get("by", "defenders"),
                self.expression(("play", "withhold", "when"), CLAIM_NAMES, BOOL),
                (w.get("compensation") or {}).get("gives", "none"),
                w.get("goes_to", default("play.withhold.goes_to")),
            )
            if withhold.goes_to == "last_trick" and withhold.compensation != "none":
                self.problem(
                    ("play", "withhold", "compensation"),
                    "the withheld card goes to the last trick's winner (goes_to: last_trick), so that trick is"
                    " never a card short and there is nothing to make up: write `compensation: {gives: none}`,"
                    " or `goes_to: holder`",
                )
        excuse = self.compile_excuse(p, withhold)
        schedule = self.compile_schedule(("play", "schedule"))
        return PlayRules(
            first_lead=p.get("first_lead", default("play.first_lead")),
            follow_suit=p.get("follow_suit", default("play.follow_suit")),
            must_trump=p.get("when_void", default("play.when_void")) == "trump",
            must_beat=p.get("must_beat", default("play.must_beat")),
            withhold=withhold,
            excuse=excuse,
            schedule=schedule,
            trump_suit=self.suit_id(("play", "trump_suit"), p.get("trump_suit")),
            discards_visible_until=p.get("discards_visible_until"),
            tricks_seen=p.get("tricks_seen", default("play.tricks_seen")),
            **{
                k: v
                for k, v in self.play_fields(p, ("play",)).items()
                if k not in ("first_lead", "follow_suit", "must_trump", "must_beat")
            },
        )

    def compile_excuse(self, p: dict[str, Any], withhold: Withhold | None) -> Excuse | None:
        """The ruleset's `play.excuse`: the card excused from following, and whose it is."""
        e = p.get("excuse")
        if not e:
            return None
        path: Path = ("play", "excuse")
        card = e.get("card")
        if card not in self.deck.suit:
            self.problem(path + ("card",), f"no card {card} in this pack{_hint(str(card), list(self.deck.cards))}")
        elif withhold is not None and withhold.card == card:
            self.problem(
                path + ("card",),
                f"{card} is also the card of `play.withhold`: a card is either withheld when it is the only"
                " trump one could play, or excused from following at any turn, not both; write one of the two",
            )
        excuse = Excuse(
            card,
            e.get("goes_to", default("play.excuse.goes_to")),
            (e.get("compensation") or {}).get("gives", "none"),
            e.get("last_trick", default("play.excuse.last_trick")),
            e.get("slam", default("play.excuse.slam")),
        )
        if excuse.goes_to == "trick" and excuse.compensation != "none":
            self.problem(
                path + ("compensation",),
                "the excused card goes with its trick to that trick's winner (goes_to: trick), so no trick"
                " is ever a card short and there is nothing to make up: write `compensation: {gives: none}`,"
                " or `goes_to: holder`",
            )
        return excuse

    def play_fields(self, p: dict[str, Any], path: Path) -> dict[str, Any]:
        """The rules of play written in `p` (a ruleset's `play`, or a contract's own), as fields."""
        out: dict[str, Any] = {}
        if "first_lead" in p:
            out["first_lead"] = p["first_lead"]
        if "first_lead_offset" in p:
            out["first_lead_offset"] = p["first_lead_offset"]
        if "follow_suit" in p:
            out["follow_suit"] = p["follow_suit"]
        if "when_void" in p:
            out["must_trump"] = p["when_void"] == "trump"
        if "must_beat" in p:
            out["must_beat"] = p["must_beat"]
        if p.get("last_of_suit"):
            out["last_of_suit"] = self.card_set(path + ("last_of_suit",))
        trumps = p.get("trumps") or {}
        if "win" in trumps:
            out["trumps_win"] = bool(trumps["win"])
        if "lead" in trumps:
            out["lead_trumps"] = trumps["lead"]
        exceptions = []
        for i, e in enumerate(p.get("exceptions") or []):
            cards = self.card_set(path + ("exceptions", i, "cards"))
            if e.get("wins") not in cards:
                self.problem(path + ("exceptions", i, "wins"), f"{e.get('wins')} is not one of the exception's cards")
            when = self.expression(path + ("exceptions", i, "when"), EXCEPTION_NAMES, BOOL)
            exceptions.append(TrickException(cards, e.get("wins"), when))
        if exceptions:
            out["exceptions"] = tuple(exceptions)
        duties = []
        for i, d in enumerate(p.get("duties") or []):
            where = path + ("duties", i)
            cards = self.card_set(where + ("cards",))
            must = self.expression(where + ("must",), DUTY_NAMES, BOOL)
            may_not = self.expression(where + ("may_not",), DUTY_NAMES, BOOL)
            if (d.get("must") is None) == (d.get("may_not") is None):
                self.problem(
                    where, "a duty says when its cards `must` be played or when they `may_not`: one of the two"
                )
                continue
            reason = d.get("reason") or (
                "these cards must be played now" if d.get("must") is not None else "these cards may not be played now"
            )
            duties.append(Duty(cards, must, may_not, reason))
        if duties:
            out["duties"] = tuple(duties)
        kept = [
            KeepBackCards(
                self.card_set(path + ("keep_back", i, "cards")), k.get("until", default("play.keep_back[].until"))
            )
            for i, k in enumerate(p.get("keep_back") or [])
        ]
        if kept:
            out["keep_back"] = tuple(kept)
        ranks = p.get("suit_ranks")
        if ranks:
            out["suit_ranks"] = self.suit_ranks(path + ("suit_ranks",), [str(r) for r in ranks])
        ends = p.get("ends_early")
        if ends:
            when = self.expression(path + ("ends_early", "when"), PLAY_END_NAMES, BOOL)
            if when is not None:
                out["ends_early"] = EarlyEnd(
                    when,
                    ends.get("rest", default("play.ends_early.rest")),
                    ends.get("reason") or "the contract is decided",
                )
        return out

    def suit_ranks(self, path: Path, ranks: list[str]) -> tuple[str, ...]:
        """An order of the ranks for every suit: each suit of the pack has exactly these ranks."""
        deck = self.deck
        twice = sorted({r for r in ranks if ranks.count(r) > 1})
        if twice:
            self.problem(path, f"{', '.join(twice)} named more than once: name each rank once, highest first")
            return tuple(ranks)
        for suit_id, suit_name in deck.suit_names.items():
            if suit_id == TRUMP:
                continue  # trumps keep their own order
            own = [c[len(suit_id) :] for c in deck.cards if deck.suit[c] == suit_id]
            if set(own) != set(ranks):
                missing, unknown = [r for r in own if r not in ranks], [r for r in ranks if r not in own]
                said = "; ".join(
                    part
                    for part in (
                        f"it leaves out {', '.join(missing)}" if missing else "",
                        f"{suit_name} has no {', '.join(unknown)}" if unknown else "",
                    )
                    if part
                )
                self.problem(
                    path,
                    f"the order must name every rank of every suit once ({suit_name}: {', '.join(own)}): {said}",
                )
                break
        return tuple(ranks)

    def check_ends_early(
        self,
        contracts: dict[str, Contract] | None,
        play: PlayRules | None,
        announcements: dict[str, Announcement] | None,
    ) -> None:
        """Play that ends early is settled on the tricks played and the cards left: refused where
        everyone plays for themselves (no sides to count for) or where bonuses or announcements
        count (judged on the last tricks, which would not be played)."""
        alone: dict[Path, list[str]] = {}  # where it is written -> the contracts it cannot be in
        counted: dict[Path, list[str]] = {}
        for name, contract in (contracts or {}).items():
            rules = contract.play or play
            if rules is None or rules.ends_early is None:
                continue
            data = self.contract_data(name)
            own = (self.data.get("contracts") or {}).get(name) or {}
            where = (
                self.written_at(name, own, "play") + ("ends_early",)
                if "ends_early" in (data.get("play") or {})
                else ("play", "ends_early")
            )
            if contract.individual is not None:
                alone.setdefault(where, []).append(name)
            bonuses = [b for b in self.bonuses or {} if contract.bonuses is None or b in contract.bonuses]
            announced = [
                a for a, rule in (announcements or {}).items() if rule.contracts is None or name in rule.contracts
            ]
            if bonuses or announced:
                counted.setdefault(where, []).append(name)
        for where, names in alone.items():
            self.problem(
                where,
                f"play ends early in {', '.join(names)}, where everyone plays for themselves: the cards not "
                "played have no side to count for; leave ends_early out of "
                + ("this contract" if where[0] == "contracts" else "`play` and write it in the contracts it is for"),
            )
        for where, names in counted.items():
            self.problem(
                where,
                f"play ends early in {', '.join(names)}, where bonuses or announcements count: they are judged on "
                "tricks that would not be played; give "
                + ("the contract" if where[0] == "contracts" else "each of them")
                + " `bonuses: []` (and no announcements), or write ends_early only in contracts that "
                "count none (a Bettel, a Durch)",
            )

    def compile_counting(self) -> Counting:
        c = self.data.get("counting") or {}
        aside = c.get("aside") or {}
        return Counting(
            packet=c.get("packet", default("counting.packet")),
            packet_deduct=c.get("packet_deduct", default("counting.packet_deduct")),
            remainder_deduct=c.get("remainder_deduct", default("counting.remainder_deduct")),
            aside_counts_for=aside.get("counts_for", default("counting.aside.counts_for")),
            aside_unless=self.expression(("counting", "aside", "unless"), ASIDE_NAMES, BOOL),
            declarer_bonus=self.expression(("counting", "declarer_bonus"), ASIDE_NAMES, INT),
        )

    def compile_settlement(self) -> Settlement:
        s = self.data.get("settlement") or {}
        # Checked here, where it is written; value formulas read it written out (value_expression).
        self.expression(("settlement", "score"), AMOUNT_NAMES, INT)
        liable = []
        for i, rule in enumerate(s.get("liable") or []):
            path = ("settlement", "liable", i)
            when = self.expression(path + ("when",), LIABLE_WHEN_NAMES, BOOL)
            pays = self.value_expression(path + ("pays",), LIABLE_NAMES)
            others = self.value_expression(path + ("others_pay",), LIABLE_NAMES)
            if when and pays and others:
                liable.append(Liability(when, tuple(rule.get("seats") or ()), pays, others))
        return Settlement(
            unit=s.get("unit", default("settlement.unit")),
            payment=s.get("payment", default("settlement.payment")),
            sitting_out=s.get("sitting_out", default("settlement.sitting_out")),
            liable=tuple(liable),
            drawn=self.expression(("settlement", "drawn"), DRAWN_NAMES, BOOL),
            stake=s.get("stake", default("settlement.stake")),
            declarer_wins=self.settlement_formulas[0],
            amount=self.settlement_formulas[1],
            split=(int(s["split"]["declarer"]), int(s["split"]["partner"])) if s.get("split") else (1, 1),
        )

    def check_split(
        self,
        contracts: dict[str, Contract] | None,
        settlement: Settlement | None,
        active: tuple[int, ...],
        sit_out: dict[int, tuple[int, ...]],
    ) -> None:
        """A split of the declarer's side's money that a fixed payment cannot be divided by: the
        game's value where it reads only the factor (and kontra), a bonus of a fixed value."""
        if not contracts or settlement is None or "split" not in (self.data.get("settlement") or {}):
            return
        whole = sum(settlement.split)
        shares = ":".join(map(str, settlement.split))
        for contract in contracts.values():
            if not any(isinstance(step, CallPartner) for step in contract.exchange):
                continue  # never a partner: the declarer takes it all
            for players in active:
                # Seats that sit out pay with the opponents where the settlement counts them among
                # them: every number of them at a table where `players` play.
                out = {0} | {len(o) for n, o in sit_out.items() if n - len(o) == players}
                if settlement.sitting_out != "defender":
                    out = {0}
                for payers, (what, value) in (
                    (players - 2 + extra, fixed)
                    for extra in sorted(out)
                    for fixed in self.fixed_values(contract, players)
                ):
                    if (payers * value) % whole:
                        self.problem(
                            ("settlement", "split"),
                            f"{contract.title}'s {what} of {value} from each of {payers} opponents ({payers * value}) "
                            f"cannot be shared {shares} between declarer and partner with {players} playing; "
                            "choose shares whose sum divides it, or values that it divides",
                        )
                        return  # one is enough to act on

    def fixed_values(self, contract: Contract, players: int) -> list[tuple[str, int]]:
        """The payments of a contract known when the ruleset loads: (what, value per opponent)."""
        found: list[tuple[str, int]] = []
        games = []
        amount = contract.amount
        if amount is not None and amount.names <= {"factor", "kontra", "players", "declarer_won"}:
            for won, factor in ((True, contract.factor_won), (False, contract.factor_lost)):
                env = {"factor": factor or 0, "kontra": 1, "players": players, "declarer_won": won}
                try:
                    value = abs(int(amount(env)))
                except RuleError:
                    continue  # reported where the game is played
                found.append(("game", value))
                if won:
                    games.append(value)
        for bonus_name, bonus in self.bonuses.items():
            if contract.bonuses is not None and bonus_name not in contract.bonuses:
                continue
            for formula in (bonus.value, bonus.announced):
                if formula is None or not formula.names <= {"game", "players", "kontra"}:
                    continue
                for game in games if "game" in formula.names else [0]:
                    try:
                        # Undoubled (kontra 1): what the weights divide stays divisible when
                        # doubled, and what they do not is refused already.
                        env = {"game": game, "players": players, "kontra": 1}
                        value = abs(int(formula(env))) * contract.bonus_factor
                    except RuleError:
                        continue
                    found.append((f"bonus {bonus.title}", value))
        return [(what, value) for what, value in found if value]

    def compile_accusation(self, phases: tuple[AuctionPhase, ...]) -> Accusation | None:
        rule = self.data.get("accusation")
        if not rule:
            return None
        names = [p.name for p in phases]
        if rule.get("phase") not in names:
            self.problem(
                ("accusation", "phase"),
                f"no phase named '{rule.get('phase')}'{_hint(str(rule.get('phase')), names)}",
            )
        strong = self.expression(("accusation", "strong"), CLAIM_NAMES, BOOL)
        return Accusation(rule.get("phase"), strong) if strong else None

    def compile_penalties(self) -> Penalties | None:
        rule = self.data.get("penalties")
        if not rule:
            return None
        pays = self.expression(("penalties", "pays_each"), PENALTY_NAMES, INT)
        mode = rule.get("mode", default("penalties.mode"))
        paid_by = rule.get("paid_by", default("penalties.paid_by"))
        return Penalties(mode, frozenset(rule.get("offences") or ()), pays, paid_by) if pays else None

    def compile_session(self) -> SessionRule:
        rule = self.data.get("session") or {}
        card = rule.get("holder_of")
        if card is not None and card not in self.deck.suit:
            self.problem(
                ("session", "holder_of"), f"no card {card} in this pack{_hint(str(card), list(self.deck.cards))}"
            )
        dealer_when = []
        for i, entry in enumerate(rule.get("dealer_when") or ()):
            when = self.expression(("session", "dealer_when", i, "when"), LAST_DEAL_NAMES, BOOL)
            if when is not None:
                dealer_when.append(DealerWhen(when, entry["dealer"]))
        rounds = []
        for name, entry in (rule.get("special_rounds") or {}).items():
            path: Path = ("session", "special_rounds", name)
            rounds.append(
                SpecialRound(
                    name,
                    entry.get("title", name),
                    entry.get("at", default("session.special_rounds.*.at")),
                    entry.get("rounds", default("session.special_rounds.*.rounds")),
                    self.session_choices((*path, "options"), entry.get("options") or {}),
                    self.session_choices((*path, "after"), entry.get("after") or {}),
                )
            )
        sheet = None
        if rule.get("sheet"):
            score = self.expression(("session", "sheet", "score"), SHEET_NAMES, INT)
            written = rule["sheet"]
            if score is not None:
                sheet = ScoreSheet(
                    score,
                    written.get("start", default("session.sheet.start")),
                    written.get("settle", default("session.sheet.settle")),
                    written.get("stake", default("session.sheet.stake")),
                )
        pot = None
        if "pot" in rule and rule["pot"] is not None:
            pot = SessionPot(
                self.expression(("session", "pot", "ante"), BREACH_NAMES, INT),
                (rule["pot"] or {}).get("left", default("session.pot.left")),
                self.expression(("session", "pot", "each_deal"), BREACH_NAMES, INT),
            )
        accounts = self.compile_accounts(rule.get("pots") or {})
        # Each pot of its own reads, by its name, what it holds.
        held = {account.name: INT for account in accounts}
        return SessionRule(
            rule.get("deals"),
            card,
            dealer=rule.get("dealer", default("session.dealer")),
            dealer_when=tuple(dealer_when),
            rounds=rule.get("rounds"),
            until=self.expression(("session", "until"), {**SESSION_END_NAMES, **held}, BOOL),
            special_rounds=tuple(rounds),
            sheet=sheet,
            pot=pot,
            pots=accounts,
        )

    def compile_accounts(self, written: dict[str, Any]) -> tuple[Account, ...]:
        """The session's pots of their own, each pay-out checked against the ruleset's contracts
        and the names its formulas read (every pot's own name among them)."""
        taken = set(SESSION_END_NAMES) | set(POT_PAYOUT_NAMES)
        for pot_name in written:
            if pot_name in taken:
                self.problem(
                    ("session", "pots", pot_name),
                    f"a pot may not be named '{pot_name}': the session's formulas read that name already "
                    f"({', '.join(sorted(taken))}); give the pot another name (`stock`, `pagat_pot`)",
                    at_key=True,
                )
        held = {str(pot_name): INT for pot_name in written if pot_name not in taken}
        names = {**POT_PAYOUT_NAMES, **held}
        contracts = list(self.data.get("contracts") or {})
        accounts = []
        for pot_name, entry in written.items():
            path: Path = ("session", "pots", pot_name)
            pays = []
            for i, payout in enumerate(entry.get("pays") or ()):
                at: Path = (*path, "pays", i)
                for named in payout.get("contracts") or ():
                    if named not in contracts:
                        self.problem(
                            (*at, "contracts"),
                            f"no contract named '{named}' in this ruleset{_hint(str(named), contracts)}",
                        )
                to: Literal["declarer", "defenders", "seat"] = (
                    "seat" if "seat" in payout else payout.get("to", default("session.pots.*.pays[].to"))
                )
                if "seat" in payout and "to" in payout:
                    self.problem(
                        (*at, "to"),
                        "a pay-out to one seat names it with `seat` alone (a formula: `seat: dealer`): leave out "
                        "`to`, or `seat` for a pay-out to the declarer or the defenders",
                        at_key=True,
                    )
                amount = self.expression((*at, "amount"), names, INT)
                if amount is not None:
                    pays.append(
                        PotPayout(
                            amount,
                            to,
                            frozenset(str(c) for c in payout.get("contracts") or ()),
                            self.expression((*at, "when"), names, BOOL),
                            self.expression((*at, "seat"), names, INT),
                        )
                    )
            accounts.append(
                Account(
                    str(pot_name),
                    entry.get("title", pot_name),
                    self.expression((*path, "ante"), BREACH_NAMES, INT),
                    self.expression((*path, "each_deal"), BREACH_NAMES, INT),
                    self.expression((*path, "dealer"), BREACH_NAMES, INT),
                    tuple(pays),
                    entry.get("left", default("session.pots.*.left")),
                )
            )
        return tuple(accounts)

    def session_choices(self, path: Path, chosen: dict[str, Any]) -> dict[str, str]:
        """A round's readings and options: each a group of this ruleset, with one of its choices."""
        groups = {**(self.data.get("readings") or {}), **(self.data.get("options") or {})}
        out: dict[str, str] = {}
        for group, choice in chosen.items():
            found = groups.get(group)
            if not isinstance(found, dict):
                self.problem(
                    (*path, group),
                    f"no reading or option '{group}' in this ruleset, whose own a round chooses among "
                    f"(`tarock options NAME` lists them){_hint(str(group), list(groups))}",
                    at_key=True,
                )
                continue
            choices = list(found.get("choices") or {})
            if choice not in choices:
                self.problem(
                    (*path, group),
                    f"'{group}' has no choice '{choice}'{_hint(str(choice), choices)}",
                )
                continue
            if "session" in ((found["choices"][choice] or {}).get("rules") or {}):
                # The session's own rules hold for the whole session, not for some of its deals.
                self.problem(
                    (*path, group),
                    f"'{group}: {choice}' sets the session's rules (`session` in its rules), which a round of "
                    "its own cannot change for some deals: choose it for the whole session (`--option`), or "
                    "move what the round needs out of its `session`",
                )
                continue
            out[str(group)] = str(choice)
        return out

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
                        f"the default '{g.get('default')}' is not one of the choices{_hint(str(g.get('default')), list(choices))}",
                    )
                groups.append(
                    ChoiceGroup(name, kind, g.get("question", g.get("title", name)), g.get("default"), choices)
                )
        return tuple(groups)


def _replaces(written: object) -> Literal["never", "scored", "made"]:
    """A bonus's `replaces_game` as written (true, false or `made`) as the model keeps it."""
    if written == "made":
        return "made"
    return "scored" if written is True else "never"


def _positive(n: object) -> bool:
    """A whole number of at least 1 (a count of a deal plan), not `true`."""
    return type(n) is int and n >= 1


def _allowed(contracts: dict[str, Any], name: str) -> bool:
    """A contract's `allowed`, taken over through `like` as any rule is (a broken or circular
    `like` is reported where the contract is compiled)."""
    seen: set[str] = set()
    while name not in seen:
        seen.add(name)
        rules = contracts.get(name)
        if not isinstance(rules, dict):
            break
        if isinstance(rules.get("allowed"), bool):
            return bool(rules["allowed"])
        parent = rules.get("like")
        if not isinstance(parent, str):
            break
        name = parent
    return bool(default("contracts.*.allowed"))


def _known(names: list[str]) -> str:
    """The end of a message about a name that is not near any known one."""
    return f"; known: {', '.join(names)}" if names else ""


def _first_need(contract: Contract | None) -> Keep | CallCard | None:
    """The contract's exchange step that depends on the dealt hand, if its exchange begins with
    one: the cards it keeps before the talon, or the card it calls."""
    if contract is None or not contract.exchange or not isinstance(contract.exchange[0], Keep | CallCard):
        return None
    return contract.exchange[0]


def _hint(word: object, known: list[str]) -> str:
    """The did-you-mean of a misspelt name, or the names known here."""
    return did_you_mean(str(word), known, otherwise=_known(known))


def _shown(text: str, limit: int = 80) -> str:
    """An expression or value quoted in a message: whole if short."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _walk(data: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every value of a document with its path, the containers included (no deeper than YAML allows)."""
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _walk(value, path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _walk(value, path + (index,))


# A citation: the key of a source, then ':' or '§' and the section ("dappen-de §10", "cego-en: Players").
_FIRST_CITATION = re.compile(r"\s*([a-z][a-z0-9_-]*)(?=[\s:§,]|$)")
_LATER_CITATION = re.compile(r"\s*([a-z][a-z0-9_-]*)\s*(?::|§|$)")
_LEADING_WORD = re.compile(r"\s*([a-z][a-z0-9_-]*)(?![a-z0-9_-])")


def cited_sources(text: str, known: list[str]) -> list[str]:
    """The keys a `source:` text cites. It starts with a citation; after a ';' another citation
    starts only with a known key, or with a word followed by ':' or '§' or nothing else. Prose
    after a ';' ("…; four players agree") is not read as a key."""
    parts = text.split(";")
    keys: list[str] = []
    for index, part in enumerate(parts):
        found = _FIRST_CITATION.match(part) if index == 0 else _LATER_CITATION.match(part)
        if found is None and index > 0:
            word = _LEADING_WORD.match(part)
            found = word if word is not None and word.group(1) in known else None
        if found is not None:
            keys.append(found.group(1))
    return keys
