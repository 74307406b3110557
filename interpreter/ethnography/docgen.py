"""A ruleset rendered as readable rules in Markdown.

Players and deal, the pack, the auction with its ladder and obligations, the contracts and their
exchange, play, counting, scoring with a payment table computed by the interpreter's own
formulas, the readings and options with their sources. Generated from the compiled ruleset (with
its default readings and options), so it cannot drift from what is played; every rule is credited
to the file that states it, and every number (the points in the pack, the payments) is computed
from the rules.

  tarock doc NAME                          the rules of one ruleset, to standard output
  tarock doc NAME --summary                the same on one page: what a player needs first
  tarock doc NAME -o FILE                  … to a file
  tarock doc --all --out docs/rules        every playable ruleset, one file each
  tarock doc --all --out docs/rules --check
                                           exit 1 if a file there is out of date (for CI)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import Any

from interpreter.ethnography.diff import (
    Titles,
    cards_text,
    describe_effects,
    factor_text,
    generic_label,
    label_of,
    ladder_text,
    packet_text,
    plan_text,
    sitting_out_phrase,
    template_for,
    the,
    value_text,
    words,
)
from interpreter.ethnography.semantic import MISSING, Path, Provenance, Side, get_path, is_atomic, read
from interpreter.language.keys import key_of_path
from interpreter.language.model import CallPartner, Contract, Ruleset

DEFAULT_OUT = "docs/rules"


class Writer:
    """Markdown lines, with every rule shown once and its provenance where it differs from the
    section's. Rules no paragraph of its own covers are listed at the end of their section, so
    rules the language gains later still appear."""

    def __init__(self, side: Side):
        self.side = side
        self.titles = Titles(side)
        self.lines: list[str] = []
        self.used: set[Path] = set()
        self.context: list[Provenance] = []

    def out(self, text: str = "") -> None:
        self.lines.append(text)

    def heading(self, level: int, text: str, path: Path | None = None) -> None:
        if self.lines and self.lines[-1] != "":
            self.out()
        self.out(f"{'#' * level} {text}")
        self.out()
        if path is not None:
            prov = self.side.provenance(path)
            note = self.side.note(path)
            if note:
                self.out(note)
                self.out()
            if prov.cites():
                self.out(f"*Source: {prov.cites()}.*")
                self.out()
            self.context.append(prov)

    def end(self) -> None:
        if self.context:
            self.context.pop()

    def rule(self, path: Path, text: str | None = None, label: str | None = None) -> None:
        """One rule as a bullet: its label, its value in words, and its provenance if it has its own."""
        self.used.add(path)
        value = get_path(self.side.tree, path)
        label = label or label_of(path, self.titles)
        text = text if text is not None else value_text(path, value, self.titles)
        line = f"- **{label}:** {text}"
        prov = self.side.provenance(path)
        if self.context and not prov.same_words(self.context[-1]) and prov.cites():
            line += f" *({prov.cites()})*"
        note = self.side.note(path) if len(path) > 1 else None
        if note and not isinstance(value, (list, tuple)):
            line += f" — {note}"
        self.out(line)

    def rest(self, root: Path, skip: Path | None = None) -> None:
        """Every rule under `root` not shown yet, generically."""
        for path in _rule_paths(get_path(self.side.tree, root), root):
            if skip is not None and path[: len(skip)] == skip:
                continue
            if not any(path[: len(u)] == u for u in self.used) and not any(u[: len(path)] == path for u in self.used):
                # a rule no template knows is named from where it stands under the heading
                self.rule(
                    path,
                    label=None if template_for(path) or len(path) <= len(root) else generic_label(path[len(root) :]),
                )

    def text(self) -> str:
        while self.lines and self.lines[-1] == "":
            self.lines.pop()
        return "\n".join(self.lines) + "\n"


def _rule_paths(value: Any, path: Path) -> list[Path]:
    if isinstance(value, dict) and value and not is_atomic(path):
        result = []
        for key, sub in value.items():
            result += _rule_paths(sub, path + (key,))
        return result
    return [path] if value is not MISSING else []


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- the document ------------------------------------------------------------------------------------


def render(name: str, summary: bool = False) -> str:
    """The rules of a playable ruleset as Markdown (with `summary`, on one page)."""
    side = read(name)
    if summary:
        return render_summary(side)
    ruleset = side.ruleset
    w = Writer(side)
    tree = side.tree
    w.out(f"# {side.title()}")
    w.out()
    w.out(_generated_by(name))
    parents = side.parents
    w.out(
        f"*The rules of `{name}` as the interpreter plays them, generated from the ruleset"
        + (f" (which extends {', '.join(f'`{p}`' for p in parents)})" if parents else "")
        + " with its default readings and options.*"
    )
    w.out()
    root = side.provenance(())
    facts = []
    if tree.get("family"):
        facts.append(f"Family: {tree['family']}.")
    if root.cites():
        facts.append(f"Source: {root.cites()}.")
    if facts:
        w.out(" ".join(facts))
        w.out()
    overview = side.written((), "note")
    if overview:
        w.out(overview)
        w.out()
    w.used.add(("family",))
    w.context.append(root)

    _players_and_deal(w, side)
    _pack(w, side)
    _calls(w, side)
    _auction(w, side)
    _contracts(w, side)
    _claim_and_announcements(w, side)
    _section(w, side, ("play",), "Play")
    _counting(w, side)
    _scoring(w, side, ruleset)
    for key in tree:
        if not any(u[:1] == (key,) for u in w.used) and key not in ("readings", "options", "by_players"):
            _section(w, side, (key,), SECTION_TITLES.get(key) or label_of((key,), w.titles))
    _by_players(w, side)
    _choices(w, side)
    _sources(w, side)
    return w.text()


SECTION_TITLES = {
    "pot_ante": "The pot",
    "accusation": "Accusing a skinned Solo",
    "penalties": "Penalties",
    "session": "Sessions",
}


def _generated_by(name: str, summary: bool = False) -> str:
    command = f"tarock doc {name}" + (" --summary" if summary else "")
    if "/" in name or name.endswith((".yaml", ".yml")):
        return f"<!-- Generated by `{command}` from that file. -->"
    return (
        f"<!-- Generated by `{command}`; do not edit: change rulesets/{name}.yaml and run "
        f"`tarock doc --all --out {DEFAULT_OUT}`. -->"
    )


def _section(w: Writer, side: Side, path: Path, title: str) -> None:
    if get_path(side.tree, path) is MISSING:
        return
    w.heading(2, title, path)
    w.rest(path)
    w.end()


def _players_and_deal(w: Writer, side: Side) -> None:
    w.heading(2, "Players and deal", ("players",))
    active = get_path(side.tree, ("players", "active"))
    if isinstance(active, list):
        text = f"{words([str(n) for n in active], 'or')} play"
        if side.ruleset.sit_out:
            text += f"; {sitting_out_phrase(side.ruleset.sit_out)}, dealt no cards"
        w.rule(("players", "active"), text, "Players")
        w.used.add(("players", "sit_out"))
    w.rest(("players",))
    if get_path(side.tree, ("direction",)) is not MISSING:
        w.rule(("direction",), f"{side.tree['direction']} (seats are numbered in the order of play)")
    for n, plan in (get_path(side.tree, ("deal", "plans")) or {}).items():
        w.rule(("deal", "plans", n), plan_text(plan))
    removed = get_path(side.tree, ("deal", "remove"))
    if (
        isinstance(removed, dict)
        and isinstance(active, list)
        and len(active) > 1
        and sorted(removed) == sorted(str(n) for n in active)
        and len({cards_text(c) for c in removed.values()}) == 1
    ):
        # The same cards out at every table size (`remove: "{C7, S7}"`): said once.
        cards = cards_text(next(iter(removed.values())))
        w.rule(("deal", "remove"), f"{cards}, with every number of players", "Cards taken out of the pack")
    w.rest(("deal",))
    w.end()


def _pack_worth(ruleset: Ruleset) -> str:
    """What the cards in play are worth, from the cards dealt at each number of players (some
    tables play without a few cards)."""
    deck = ruleset.deck
    worth: dict[tuple[int, int], list[int]] = {}
    for n in ruleset.active_players:
        pack = ruleset.for_players(n).pack(n)
        worth.setdefault((len(pack), sum(deck.points[c] for c in pack)), []).append(n)
    if len(worth) == 1 and next(iter(worth))[0] == len(deck.cards):
        return f"All cards together are worth {deck.total_points} points before counting."
    parts = [
        f"with {words([str(n) for n in counts], 'or')} players the {size} cards dealt are worth {raw} points"
        for (size, raw), counts in worth.items()
    ]
    text = "; ".join(parts)
    return f"{text[0].upper()}{text[1:]} before counting."


def _pack(w: Writer, side: Side) -> None:
    deck = side.ruleset.deck
    w.heading(2, "The pack", ("deck",))
    trumps = [c for c in deck.cards if deck.suit[c] == "T"]
    intro = f"{deck.title + ': ' if deck.title else ''}{len(deck.cards)} cards"
    if trumps:
        intro += f", {len(trumps)} of them trumps"
    w.out(intro + ".")
    w.out()
    w.out("| suit | cards, high to low |")
    w.out("| --- | --- |")
    for sid, name in deck.suit_names.items():
        cards = sorted((c for c in deck.cards if deck.suit[c] == sid), key=lambda c: -deck.rank[c])
        if not cards:
            continue
        shown = " ".join(f"{c} ({deck.titles[c]})" if sid == "T" and not deck.titles[c].isdigit() else c for c in cards)
        label = "trumps" if sid == "T" else f"{name} {deck.suit_symbols.get(sid, '')}".strip()
        w.out(f"| {label} | {shown} |")
    w.out()
    w.out("Card points:")
    w.out()
    w.out("| points | cards |")
    w.out("| --- | --- |")
    by_value: dict[int, list[str]] = {}
    for card in deck.cards:
        by_value.setdefault(deck.points[card], []).append(card)
    for value in sorted(by_value, reverse=True):
        w.out(f"| {value} | {' '.join(by_value[value])} |")
    w.out()
    w.out(_pack_worth(side.ruleset))
    sets = get_path(side.tree, ("deck", "sets")) or {}
    if sets:
        w.out()
        w.out("Named sets of cards, as the rules use them:")
        w.out()
        for name, cards in sets.items():
            w.rule(("deck", "sets", name), " ".join(cards), f"`{name}`")
    w.used |= {("deck", "suits"), ("deck", "suit_names"), ("deck", "points"), ("deck", "sets")}
    w.rest(("deck",))
    w.end()


def _calls(w: Writer, side: Side) -> None:
    calls = get_path(side.tree, ("calls",))
    if not isinstance(calls, dict) or not calls:
        return
    w.heading(2, "Calls", ("calls",))
    w.out("The calls the auction uses:")
    w.out()
    w.out("| call | said as |")
    w.out("| --- | --- |")
    for name in calls:
        w.out(f"| `{name}` | {side.call_title(name) or name} |")
    w.used.add(("calls",))
    w.end()


def phase_order(side: Side) -> list[str]:
    """The phases in the order the auction can reach them, from the opening one."""
    phases = get_path(side.tree, ("auction", "phases"))
    if not isinstance(phases, dict):
        return []
    first = get_path(side.tree, ("auction", "first"))
    order: list[str] = []
    todo = [first] if first in phases else []
    while todo:
        name = todo.pop(0)
        if name in order or name not in phases:
            continue
        order.append(name)
        then = phases[name].get("then") or {}
        todo += [then.get("pass_out")] + list((then.get("after") or {}).values())
    return order + [n for n in phases if n not in order]


def _auction(w: Writer, side: Side) -> None:
    phases = get_path(side.tree, ("auction", "phases"))
    if not isinstance(phases, dict):
        return
    w.heading(2, "The auction", ("auction",))
    first = get_path(side.tree, ("auction", "first"))
    if first is not MISSING:
        w.out(f"The auction opens with {the(w.titles.phase(first))}.")
        w.out()
        w.used.add(("auction", "first"))
    if not any(p.get("compulsory") for p in phases.values()):
        w.used.add(("auction", "breaches"))  # nothing is compulsory, so no pass can breach it
    w.rest(("auction",), skip=("auction", "phases"))
    if w.lines[-1] != "":
        w.out()
    for name in phase_order(side):
        base: Path = ("auction", "phases", name)
        w.heading(3, w.titles.phase(name), base)
        phase = phases[name]
        for key in ("ladder", "hold", "raise", "max_bidders", "compulsory"):
            w.rule(base + (key,), label=_capital(label_of(base + (key,), w.titles).split(": ", 1)[-1]))
        for key in ("pass_out", "after"):
            w.rule(base + ("then", key), label=_capital(label_of(base + ("then", key), w.titles).split(": ", 1)[-1]))
        for path in _rule_paths(phase, base):
            if path[3] in ("carried_may_hold", "style", "speakers", "start", "answer", "priority") and _is_default(
                path, side
            ):
                w.used.add(path)
            elif not any(path[: len(u)] == u for u in w.used) and template_for(path) is not None:
                w.rule(path, label=_capital(label_of(path, w.titles).split(": ", 1)[-1]))
        w.rest(base)
        w.end()
    w.end()


def _contracts(w: Writer, side: Side) -> None:
    contracts = get_path(side.tree, ("contracts",))
    if not isinstance(contracts, dict):
        return
    w.heading(2, "Contracts and the exchange", ("contracts",))
    bids = _bids(side)
    for name in contracts:
        base: Path = ("contracts", name)
        title = w.titles.contract(name)
        w.heading(3, title, base)
        if bids.get(name):
            w.out(f"Bid with {words([f'`{c}`' for c in bids[name]], 'or')}.")
            w.out()
        for key in ("factor", "exchange", "declarer_wins", "amount"):
            if (key in ("factor", "exchange") and "individual" not in contracts[name]) or key in contracts[name]:
                w.rule(base + (key,), label=_capital(label_of(base + (key,), w.titles)[len(title) + 1 :]))
        for path in _rule_paths(contracts[name], base):
            if path[2] in ("talon_counts", "open_hand", "talon_to_last_trick") and _is_default(path, side):
                w.used.add(path)  # what every contract does unless it says otherwise
            elif not any(path[: len(u)] == u for u in w.used) and template_for(path) is not None:
                w.rule(path, label=_capital(label_of(path, w.titles)[len(title) + 1 :]))
        w.rest(base)
        w.end()
    w.end()


def _is_default(path: Path, side: Side) -> bool:
    """Whether a rule is as the language has it unless a ruleset says otherwise (its declared
    default): such rules of every contract or phase are shown only where one differs."""
    found = key_of_path(path)
    return found is not None and found[1].literal_default and get_path(side.tree, path) == found[1].default


def _bids(side: Side) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    for phase in side.ruleset.phases:
        for level in phase.ladder + phase.interrupts + tuple(lv for lv, _ in phase.side_bids):
            if level.contract is not None and level.call not in result.get(level.contract, []):
                result.setdefault(level.contract, []).append(level.call)
        for levels in phase.choose.values():
            for level in levels:
                if level.contract is not None and level.call not in result.get(level.contract, []):
                    result.setdefault(level.contract, []).append(level.call)
    return result


def _claim_and_announcements(w: Writer, side: Side) -> None:
    ruleset = side.ruleset
    if get_path(side.tree, ("claim",)) is not MISSING:
        w.heading(2, "Showing the hand", ("claim",))
        w.rule(("claim",), label="The lone player may show the hand instead of playing it")
        w.end()
    announcements = get_path(side.tree, ("announcements",))
    if isinstance(announcements, dict) and announcements:
        w.heading(2, "Announcements", ("announcements",))
        for name in announcements:
            w.rule(("announcements", name))
            compiled = ruleset.announcements.get(name)
            if compiled is not None and compiled.cards and compiled.value is not None:
                order = {c: i for i, c in enumerate(ruleset.deck.cards)}
                value = compiled.value
                values = ", ".join(
                    f"{card} {_int(value({'card': card}))}"
                    for card in sorted(compiled.cards, key=lambda c: order.get(c, 0))
                )
                w.out(f"  - worth, per laid card: {values} {ruleset.settlement.unit}")
        w.end()


def _int(value: object) -> int:
    return int(value) if isinstance(value, (int, bool)) else 0


# -- counting: what the pack is worth, computed from the rules ----------------------------------------


def _counting(w: Writer, side: Side) -> None:
    if get_path(side.tree, ("counting",)) is MISSING:
        return
    w.heading(2, "Counting", ("counting",))
    w.rest(("counting",))
    text = totals_text(side.ruleset)
    if text:
        w.out()
        w.out(text)
    w.end()


@dataclass(frozen=True)
class Total:
    """What both sides' card points add up to, and the piles' cards left over after the packets
    that give it (an odd card each, with packets of two)."""

    points: int
    left_over: tuple[int, int]  # the two piles' cards left over, fewer first


def pack_totals(ruleset: Ruleset, active: int) -> list[Total]:
    """The totals both sides' points can add up to with `active` players, in a contract with a
    lone player where the talon and discards count for a side.

    Counting by packets takes points off each pile, so the total depends on how many cards each
    side ends with: every trick gives its winner `active` cards, and the talon and discards
    (however many the exchange leaves aside) go to the side counting says, evaluated for every
    number of tricks the lone player can take. (A card withheld to the last trick is made up for
    by a card from its holder's side, so the piles keep these sizes.)"""
    counting = ruleset.counting
    pack = ruleset.pack(active)
    each = sum(p.count for p in ruleset.deal_plans.get(active, ()) if p.to == "each")
    aside = len(pack) - each * active
    values = sum(ruleset.deck.points[c] for c in pack)
    found: dict[int, set[tuple[int, int]]] = {}
    for taken in range(each + 1):
        to = counting.aside_counts_for
        if counting.aside_unless is not None and counting.aside_unless(
            {"declarer_tricks": taken, "defender_tricks": each - taken, "tricks": each}
        ):
            to = "defenders" if to == "declarer" else "declarer"
        if to == "nobody":
            continue
        mine = taken * active + (aside if to == "declarer" else 0)
        theirs = len(pack) - mine
        total = values - _deducted(counting.packet, counting.packet_deduct, counting.remainder_deduct, mine, theirs)
        left = tuple(sorted((mine % counting.packet, theirs % counting.packet)))
        found.setdefault(total, set()).add((left[0], left[1]))
    return [Total(points, left) for points in sorted(found, reverse=True) for left in sorted(found[points])]


def _deducted(packet: int, per_packet: int, remainder: int, *piles: int) -> int:
    return sum((n // packet) * per_packet + (remainder if n % packet else 0) for n in piles)


def totals_text(ruleset: Ruleset) -> str:
    """What the whole pack is worth once counted, by number of players, with each case in which
    the total is smaller (the piles' sizes decide it)."""
    counting = ruleset.counting
    if counting.packet <= 1 and not counting.packet_deduct and not counting.remainder_deduct:
        return ""  # card by card, nothing taken off: the points before counting, said above
    by_count: dict[str, list[int]] = {}  # what the pack is worth -> the numbers of players
    for n in ruleset.active_players:
        totals = pack_totals(ruleset, n)
        points = sorted({t.points for t in totals}, reverse=True)
        if len(points) == 1:
            by_count.setdefault(f"{points[0]} points", []).append(n)
        elif points:
            cases = [
                f"{p} when {_left_over_text(counting.packet, [t.left_over for t in totals if t.points == p])}"
                for p in points
            ]
            by_count.setdefault(words(cases, "or"), []).append(n)
    if not by_count:
        return ""
    parts = []
    for worth, counts in by_count.items():
        players = f"with {words([str(n) for n in counts], 'or')} players"
        parts.append(f"{worth} {players}" if worth.endswith(" points") else f"{players}, {worth}")
    text = "Counted this way, the whole pack is worth " + "; ".join(parts) + "."
    nobody = [c.title for c in ruleset.contracts.values() if not c.talon_counts and c.individual is None]
    if nobody:
        text += f" In {words(nobody, 'and')} the talon and discards count for nobody, so their points are not in it."
    return text


def _left_over_text(packet: int, cases: Iterable[tuple[int, int]]) -> str:
    phrases = []
    for fewer, more in cases:
        if packet == 2:
            phrases.append(
                "both sides have an even number of cards"
                if more == 0
                else "both sides have an odd number of cards"
                if fewer == 1
                else "one side has an odd number of cards"
            )
        elif fewer == more == 0:
            phrases.append(f"both sides' cards make whole packets of {packet}")
        elif fewer == 0:
            phrases.append(f"one side's cards leave {more} over the packets of {packet}")
        else:
            phrases.append(f"the sides' cards leave {fewer} and {more} over the packets of {packet}")
    return words(phrases, "or")


# -- scoring ---------------------------------------------------------------------------------------------


def _scoring(w: Writer, side: Side, ruleset: Ruleset) -> None:
    if get_path(side.tree, ("settlement",)) is MISSING:
        return
    w.heading(2, "Scoring", ("settlement",))
    for key in ("declarer_wins", "amount", "unit", "payment", "sitting_out"):
        if get_path(side.tree, ("settlement", key)) is not MISSING:
            w.rule(("settlement", key))
    w.rest(("settlement",))
    w.out()
    for line in payment_tables(ruleset):
        w.out(line)
    w.end()


# -- the payment table, computed by the ruleset's own formulas ------------------------------------------

POINT_NAMES = frozenset({"declarer_points", "defender_points", "winner_points", "loser_points"})
TRICK_NAMES = frozenset({"declarer_tricks", "defender_tricks", "tricks"})
CARD_NAMES = frozenset({"declarer_cards", "defender_cards"})
# `kontra`: the tables show the game undoubled (kontra 1).
TABLE_NAMES = POINT_NAMES | TRICK_NAMES | CARD_NAMES | {"factor", "declarer_won", "players", "kontra"}
MAX_CONTRACT_COLUMNS = 6  # more contracts with one formula: a column per factor instead

Cell = set[int | None]


def _names(contract: Contract) -> frozenset[str]:
    assert contract.declarer_wins is not None and contract.amount is not None
    return contract.declarer_wins.names | contract.amount.names


def _cards_each(ruleset: Ruleset, active: int) -> int:
    return sum(p.count for p in ruleset.deal_plans.get(active, ()) if p.to == "each")


def _card_splits(ruleset: Ruleset, active: int, names: frozenset[str]) -> list[tuple[int, int]]:
    """What the table cannot know from points and tricks, where a formula reads it: whether the
    lone player holds more cards than the opponents, as many, or fewer."""
    if not names & CARD_NAMES:
        return [(0, 0)]
    pack = len(ruleset.pack(active))
    return [(d, pack - d) for d in (pack // 2 + 1, pack // 2, pack // 2 - 1)]


def _amount(contract: Contract, env: dict[str, Any], won: bool, factor: int | None) -> int | None:
    """The engine's settlement of one outcome: None if the contract's own winning condition
    says the outcome cannot be `won` (or not won) with these points and tricks."""
    assert contract.declarer_wins is not None and contract.amount is not None
    if bool(contract.declarer_wins(env)) != won:
        return None
    own = contract.factor_won if won else contract.factor_lost
    env = dict(env, declarer_won=won, factor=(own if factor is None else factor) or 0, kontra=1)
    return _int(contract.amount(env))


@dataclass(frozen=True)
class Column:
    label: str
    contract: Contract
    won: bool
    factor: int | None = None  # None: the contract's own


def payment_cells(
    ruleset: Ruleset,
    contract: Contract,
    active: int,
    total: int,
    loser: int,
    factor: tuple[int | None, int | None] = (None, None),
) -> tuple[Cell, Cell]:
    """What each opponent pays the lone player when the lone player wins with the opponents at
    `loser` points, and what the lone player pays each opponent when losing with `loser` points:
    the possible values over what points alone do not fix (None: cannot happen). Evaluated by the
    contract's own compiled `declarer_wins` and `amount`, with the variables the engine gives them
    when it settles a deal (compiler.AMOUNT_NAMES); both sides are taken to win a trick."""
    tricks = _cards_each(ruleset, active)
    base = {
        "declarer_tricks": max(1, tricks // 2),
        "defender_tricks": max(1, tricks - tricks // 2),
        "tricks": tricks,
        "players": active,
    }
    won: Cell = set()
    lost: Cell = set()
    for mine, theirs in _card_splits(ruleset, active, _names(contract)):
        env = dict(
            base,
            declarer_points=total - loser,
            defender_points=loser,
            winner_points=total - loser,
            loser_points=loser,
            declarer_cards=mine,
            defender_cards=theirs,
        )
        won.add(_amount(contract, env, True, factor[0]))
        env = dict(
            base,
            declarer_points=loser,
            defender_points=total - loser,
            winner_points=total - loser,
            loser_points=loser,
            declarer_cards=theirs,
            defender_cards=mine,
        )
        lost.add(_amount(contract, env, False, factor[1]))
    return won, lost


def trick_cells(ruleset: Ruleset, contract: Contract, active: int, taken: int) -> tuple[Cell, Cell]:
    """As payment_cells, for a contract scored by tricks: the lone player took `taken` tricks."""
    tricks = _cards_each(ruleset, active)
    won: Cell = set()
    lost: Cell = set()
    for mine, theirs in _card_splits(ruleset, active, _names(contract)):
        env = {
            "declarer_tricks": taken,
            "defender_tricks": tricks - taken,
            "tricks": tricks,
            "players": active,
            "declarer_cards": mine,
            "defender_cards": theirs,
        }
        won.add(_amount(contract, env, True, None))
        lost.add(_amount(contract, env, False, None))
    return won, lost


def _show(values: Cell) -> str:
    known = sorted(v for v in values if v is not None)
    if not known:
        return "—"
    text = " or ".join(map(str, known))
    return text + " or —" if None in values else text


def _columns(contracts: list[Contract]) -> tuple[list[Column], list[str]]:
    """Columns by contract, or, for many contracts sharing one formula, by factor (with a key)."""
    if len(contracts) <= MAX_CONTRACT_COLUMNS:
        return [Column(f"{c.title} {r}", c, r == "won") for c in contracts for r in ("won", "lost")], []
    groups: dict[tuple[str, str], list[Contract]] = {}
    for c in contracts:
        assert c.declarer_wins is not None and c.amount is not None
        groups.setdefault((c.declarer_wins.source, c.amount.source), []).append(c)
    columns: list[Column] = []
    key: list[str] = []
    for members in groups.values():
        if len(members) == 1:
            c = members[0]
            columns += [Column(f"{c.title} won", c, True), Column(f"{c.title} lost", c, False)]
            continue
        prefix = f"{members[0].title} … " if len(groups) > 1 else ""
        for f in sorted({c.factor_won or 0 for c in members}):
            columns.append(Column(f"{prefix}×{f} won", members[0], True, f))
        for f in sorted({c.factor_lost or 0 for c in members}):
            columns.append(Column(f"{prefix}×{f} lost", members[0], False, f))
        key.append(
            ", ".join(
                f"{c.title} {factor_text({'won': c.factor_won, 'lost': c.factor_lost})}".replace(" ×", " ×", 1)
                for c in members
            )
        )
    return columns, key


Row = tuple[int, int, tuple[str, ...]]


def _point_rows(ruleset: Ruleset, columns: list[Column], active: int, total: int) -> tuple[Row, ...]:
    """The rows of a points table: (lowest points, highest points, cells), equal neighbours merged."""
    rows: list[Row] = []
    for loser in range(total + 1):
        cells = []
        for col in columns:
            won, lost = payment_cells(ruleset, col.contract, active, total, loser, (col.factor, col.factor))
            cells.append(_show(won if col.won else lost))
        shown = tuple(cells)
        if all(v == "—" for v in shown):
            continue
        if rows and rows[-1][2] == shown and rows[-1][1] == loser - 1:
            rows[-1] = (rows[-1][0], loser, shown)
        else:
            rows.append((loser, loser, shown))
    return tuple(rows)


def _table(header: list[str], rows: Iterable[Row]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for low, high, cells in rows:
        span = str(low) if low == high else f"{low}–{high}"
        lines.append("| " + " | ".join([span, *cells]) + " |")
    return lines + [""]


def payment_tables(ruleset: Ruleset) -> list[str]:
    lines: list[str] = []
    unit = ruleset.settlement.unit
    scored = [c for c in ruleset.contracts.values() if c.declarer_wins is not None and c.amount is not None]
    by_points = [c for c in scored if _names(c) <= TABLE_NAMES and _names(c) & POINT_NAMES]
    by_tricks = [c for c in scored if c not in by_points and _names(c) <= TABLE_NAMES]
    others = [c for c in ruleset.contracts.values() if c not in by_points and c not in by_tricks]
    reads = frozenset().union(*(_names(c) for c in by_points + by_tricks))
    extra = []
    if ruleset.announcements:
        extra.append("announcements")
    if ruleset.settlement.liable:
        extra.append("the cases where some opponents pay for the whole team")
    if ruleset.bonuses:
        extra.append("bonuses")
    if any("kontra" in _names(c) for c in scored):
        extra.append("each kontra (which doubles the game)")
    on_top = f" It is the payment for the game alone; {words(extra, 'and')} come on top, as above." if extra else ""
    partners = any(isinstance(step, CallPartner) for c in ruleset.contracts.values() for step in c.exchange)
    who = "the declarer's side" if partners else "the lone player"
    if by_points:
        columns, key = _columns(by_points)
        tables: dict[tuple[int, tuple[Row, ...]], list[int]] = {}
        for n in ruleset.active_players:
            totals = pack_totals(ruleset, n)
            total = totals[0].points if totals else ruleset.counting.points(list(ruleset.pack(n)), ruleset.deck.points)
            tables.setdefault((total, _point_rows(ruleset, columns, n, total)), []).append(n)
        for (total, rows), counts in tables.items():
            lines.append(f"### Payments with {words([str(n) for n in counts], 'or')} players")
            lines.append("")
            text = (
                f"Computed by the interpreter from the ruleset's own formulas. A row is the card points of "
                f"the losing side (the opponents when {who} wins, {who} when losing), "
                f"out of {total}; *won* is what each opponent pays {who}, *lost* what {who} "
                f"pays each opponent, in {unit}. Rows with the same payments are merged; — means "
                f"that result cannot happen with those points."
            )
            if reads & TRICK_NAMES:
                text += " Each side is taken to win at least one trick."
            if reads & CARD_NAMES:
                text += " Where two values are given, it depends on which side holds more cards."
            lines += [text + on_top, ""]
            if key:
                lines += ["Factors: " + "; ".join(key) + ".", ""]
            lines += _table(["losing side's points"] + [c.label for c in columns], rows)
    if by_tricks:
        columns = [Column(f"{c.title} {r}", c, r == "won") for c in by_tricks for r in ("won", "lost")]
        trick_tables: dict[tuple[int, tuple[Row, ...]], list[int]] = {}
        for n in ruleset.active_players:
            tricks = _cards_each(ruleset, n)
            rows_by_tricks: list[Row] = []
            for k in range(tricks + 1):
                cells = tuple(_show(trick_cells(ruleset, col.contract, n, k)[0 if col.won else 1]) for col in columns)
                if rows_by_tricks and rows_by_tricks[-1][2] == cells and rows_by_tricks[-1][1] == k - 1:
                    rows_by_tricks[-1] = (rows_by_tricks[-1][0], k, cells)
                else:
                    rows_by_tricks.append((k, k, cells))
            trick_tables.setdefault((tricks, tuple(rows_by_tricks)), []).append(n)
        for (tricks, rows), counts in trick_tables.items():
            lines.append(f"### Payments by tricks with {words([str(n) for n in counts], 'or')} players")
            lines.append("")
            lines.append(
                f"Computed the same way for the contracts scored by tricks: a row is the number of tricks "
                f"{who} took, out of {tricks}; in {unit}.{on_top}"
            )
            lines.append("")
            lines += _table(
                ["declarer's tricks" if partners else "lone player's tricks"] + [c.label for c in columns], rows
            )
    for c in others:
        if c.declarer_wins is not None and c.amount is not None:
            lines.append(
                f"{c.title} is scored by its own formula: won when `{c.declarer_wins.source}`, "
                f"{c.amount.source} {unit} from or to each opponent."
            )
        else:
            lines.append(f"{c.title} is scored by its own rules (see the contract above).")
        lines.append("")
    return lines


# -- readings, options, sources -----------------------------------------------------------------------------


def _by_players(w: Writer, side: Side) -> None:
    counts = get_path(side.tree, ("by_players",))
    if not isinstance(counts, dict) or not counts:
        return
    w.heading(2, "Rules for a number of players", None)
    w.out("Where fewer or more players play, these rules replace the ones above.")
    for count, entry in counts.items():
        title = side.written(("by_players", count), "title")
        w.heading(3, f"With {count} players" + (f": {title}" if title else ""), ("by_players", count))
        effects = entry.get("effects") or {}
        for label, value in describe_effects(effects, w.titles):
            w.out(f"- **{label}:** {value}")
        if not effects:
            w.out("- The same rules as above.")
        w.end()
    w.used.add(("by_players",))


CHOICES_INTRO = {
    "readings": (
        "Readings",
        "Where the sources disagree, each reading is one of them; the rules above "
        "follow the default. Choose another with `--option NAME=CHOICE`.",
    ),
    "options": ("Options", "Table agreements, chosen when a game starts (`--option NAME=CHOICE`)."),
}


def _choices(w: Writer, side: Side) -> None:
    for section, (heading, intro) in CHOICES_INTRO.items():
        groups = get_path(side.tree, (section,))
        if not isinstance(groups, dict) or not groups:
            continue
        w.heading(2, heading, None)
        w.out(intro)
        for name, group in groups.items():
            question = side.question(section, name)
            w.heading(3, f"`{name}`" + (f": {question}" if question and question != name else ""), None)
            prov = side.origins.provenance((section, name))
            if side.written((section, name), "source"):
                w.out(f"*Source: {prov.cites()}.*")
                w.out()
            for choice, effects in (group.get("choices") or {}).items():
                w.out(choice_line(side, section, name, choice, effects, w.titles))
        w.used.add((section,))


def choice_line(side: Side, section: str, name: str, choice: str, effects: dict[Path, Any], titles: Titles) -> str:
    """One choice of a reading or option: its title, the rules it makes, its source."""
    where = (section, name, "choices", choice)
    default = side.tree.get(section, {}).get(name, {}).get("default")
    line = f"- **{choice}**" + (" (default)" if choice == default else "")
    said = "; ".join(f"{label}: {value}" for label, value in describe_effects(effects, titles))
    if not said and choice != default:
        said = "the same as the default"  # its patch changes nothing the interpreter plays
    title = side.written(where, "title")
    if title:
        line += f" — {title}." + (f" Rules: {said}." if said else "")
    else:
        line += f": {said}." if said else "."
    cite = [c for c in (side.written(where, "source"), side.written(where, "status")) if c]
    if cite:
        line += f" *({'; '.join(cite)})*"
    return line


def _sources(w: Writer, side: Side) -> None:
    sources = side.origins.node(("sources",))
    if not isinstance(sources, dict) or not sources:
        return
    w.heading(2, "Sources", None)
    for key, entry in sources.items():
        entry = entry if isinstance(entry, dict) else {}
        text = f"- `{key}`: {entry.get('title', key)}"
        if entry.get("url"):
            text += f" <{entry['url']}>"
        w.out(text)


# -- one page ----------------------------------------------------------------------------------------------


def render_summary(side: Side) -> str:
    """What a player needs first, on one page: players and deal, the pack, the bids from lowest to
    highest, the contracts with their factors, the duties in play, counting and scoring, and the
    readings and options by name. The whole rules: `tarock doc NAME`."""
    rs = side.ruleset
    titles = Titles(side)
    name = side.ref
    lines = [f"# {side.title()} — summary", "", _generated_by(name, summary=True), ""]
    root = side.provenance(())
    if root.cites():
        lines += [f"*Source: {root.cites()}. The whole rules: `tarock doc {name}`.*", ""]
    deck = rs.deck
    trumps = len(deck.sets.get("trumps", ()))
    facts = [
        f"**Players:** {words([str(n) for n in rs.active_players], 'or')}"
        + (f" ({sitting_out_phrase(rs.sit_out)})" if rs.sit_out else ""),
        f"**Pack:** {deck.title + ', ' if deck.title else ''}{len(deck.cards)} cards"
        + (f", {trumps} trumps" if trumps else ""),
    ]
    for n, plan in sorted(rs.deal_plans.items()):
        facts.append(f"**Deal with {n}:** {plan_text([{p.to: p.count} for p in plan])}")
    lines += [f"- {fact}" for fact in facts] + [""]
    lines += ["## Bidding", ""]
    for phase_name in phase_order(side):
        path: Path = ("auction", "phases", phase_name)
        ladder = get_path(side.tree, path + ("ladder",))
        text = ladder_text(ladder) if ladder is not MISSING else "no bids"
        hold = get_path(side.tree, path + ("hold",))
        if hold is not MISSING:
            text += f"; held with {hold}"
        lines.append(f"- **{titles.phase(phase_name)}:** {text.replace('`', '')}")
    lines += ["", "## Contracts", "", "| contract | factor | exchange |", "| --- | --- | --- |"]
    for cname in get_path(side.tree, ("contracts",)) or {}:
        c = side.tree["contracts"][cname]
        factor = factor_text(c["factor"]) if "factor" in c else "everyone for themselves"
        exchange = value_text(("contracts", cname, "exchange"), c.get("exchange", MISSING), titles).replace("`", "")
        lines.append(f"| {titles.contract(cname)} | {factor} | {exchange} |")
    lines += ["", "## Play, counting and scoring", ""]
    play = side.tree.get("play", {})
    lines.append(
        "- **Play:** "
        + "; ".join(
            f"{label_of(('play', key), titles).lower()}: {value_text(('play', key), play[key])}"
            for key in ("first_lead", "follow_suit", "when_void", "must_beat")
            if key in play
        )
    )
    counting = side.tree.get("counting", {})
    text = packet_text(counting.get("packet"))
    totals = totals_text(rs)
    if totals:
        text += ". " + totals
    lines.append(f"- **Counting:** {text}")
    for key in ("declarer_wins", "amount"):
        value = get_path(side.tree, ("settlement", key))
        if value is not MISSING:
            lines.append(f"- **{label_of(('settlement', key), titles)}:** {value_text(('settlement', key), value)}")
    lines.append(f"- **Unit:** {rs.settlement.unit}")
    groups = list(rs.groups)
    if groups:
        lines += ["", "## Readings and options", ""]
        for g in groups:
            choices = ", ".join(f"**{c}**" if c == rs.choices.get(g.name) else c for c in g.choices)
            lines.append(f"- {g.kind[:-1]} `{g.name}`: {g.question} ({choices})")
        lines += ["", "Chosen (bold) by default; choose another with `--option NAME=CHOICE` (`tarock options NAME`)."]
    return "\n".join(lines).rstrip() + "\n"


# -- the command -------------------------------------------------------------------------------------------


def expected_files(out: FilePath) -> dict[FilePath, str]:
    """Every file `tarock doc --all --out OUT` writes, with its text."""
    from interpreter.language.loader import ruleset_names

    return {out / f"{name}.md": render(name) for name in ruleset_names()}


def stale(out: FilePath, expected: dict[FilePath, str] | None = None) -> list[str]:
    """What is out of date under `out`: one line per file."""
    problems = []
    expected = expected if expected is not None else expected_files(out)
    for file, text in expected.items():
        if not file.is_file():
            problems.append(f"{file}: missing")
        elif file.read_text(encoding="utf-8") != text:
            problems.append(f"{file}: out of date")
    if out.is_dir():
        for file in sorted(out.glob("*.md")):
            if file not in expected:
                problems.append(f"{file}: no ruleset of that name any more (delete the file)")
    return problems


# -- the readings and options of a ruleset (`tarock options NAME`) ---------------------------------------


def choices_data(side: Side) -> list[dict[str, Any]]:
    """Every reading and option: its question, source, default, and each choice with its title,
    source and the rules it makes."""
    titles = Titles(side)
    groups = []
    for group in side.ruleset.groups:
        effects = get_path(side.tree, (group.kind, group.name, "choices"))
        choices = []
        for choice in group.choices:
            where = (group.kind, group.name, "choices", choice)
            changed = effects.get(choice, {}) if isinstance(effects, dict) else {}
            choices.append(
                {
                    "name": choice,
                    "default": choice == group.default,
                    "chosen": choice == side.ruleset.choices.get(group.name),
                    "title": side.written(where, "title"),
                    "source": side.written(where, "source"),
                    "status": side.written(where, "status"),
                    "rules": [
                        {"rule": label, "value": value.replace("`", "")}
                        for label, value in describe_effects(changed, titles)
                    ],
                }
            )
        groups.append(
            {
                "kind": group.kind[:-1],
                "name": group.name,
                "question": group.question,
                "source": side.written((group.kind, group.name), "source"),
                "default": group.default,
                "choices": choices,
            }
        )
    return groups


def choices_text(side: Side) -> str:
    """The readings and options of a ruleset with their choices, for a terminal."""
    groups = choices_data(side)
    if not groups:
        return f"{side.title()}: no readings or options; every rule is as `tarock doc {side.ref}` shows it.\n"
    lines = [f"{side.title()}: choose with --option NAME=CHOICE (play, simulate, replay records' options)"]
    for kind, heading in (
        ("reading", "Readings (where the sources disagree)"),
        ("option", "Options (table agreements)"),
    ):
        mine = [g for g in groups if g["kind"] == kind]
        if not mine:
            continue
        lines += ["", heading + ":"]
        for g in mine:
            lines.append(f"  {g['name']}: {g['question']}" + (f" [{g['source']}]" if g["source"] else ""))
            for c in g["choices"]:
                mark = " (default)" if c["default"] else ""
                title = f" — {c['title']}" if c["title"] else ""
                lines.append(f"    {c['name']}{mark}{title}")
                rules = "; ".join(f"{r['rule']}: {r['value']}" for r in c["rules"]) or "the same rules as the default"
                lines.append(f"        rules: {rules}")
                cite = "; ".join(x for x in (c["source"], c["status"]) if x)
                if cite:
                    lines.append(f"        source: {cite}")
    return "\n".join(lines) + "\n"
