"""A ruleset rendered as readable rules in Markdown.

Players and deal, the pack, the auction with its ladder and obligations, the contracts and their
exchange, play, counting, scoring with a payment table computed by the interpreter's own
formulas, the readings and options with their sources. Generated from the ruleset after
inheritance (with its default readings and options), so it cannot drift from what is played.

  tarock doc NAME                          the rules of one ruleset, to standard output
  tarock doc NAME -o FILE                  … to a file
  tarock doc --all --out docs/rules        every playable ruleset, one file each
  tarock doc --all --out docs/rules --check
                                           exit 1 if a file there is out of date (for CI)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import Any

from interpreter.ethnography.diff import (
    Titles,
    describe_effects,
    generic_label,
    label_of,
    plan_text,
    sits_out_text,
    template_for,
    value_text,
    words,
)
from interpreter.ethnography.semantic import MISSING, Path, Provenance, Side, get_path, is_atomic, read

DEFAULT_OUT = "docs/rules"


def _prov(p: Provenance) -> str:
    """Provenance for readers of the rules (no file positions: they differ between installs)."""
    parts = [p.source] if p.source else []
    if p.status:
        parts.append(p.status)
    if p.via:
        parts.append(p.via)
    text = "; ".join(parts)
    if p.assumed:
        text += f". Assumed: {p.assumed}"
    return text


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
            note = self._note(path)
            if note:
                self.out(note)
                self.out()
            if prov.source or prov.status:
                self.out(f"*Source: {_prov(prov)}.*")
                self.out()
            self.context.append(prov)

    def _note(self, path: Path) -> str | None:
        node = get_path(self.side.data, self.side.doc_path(path))
        return " ".join(str(node["note"]).split()) if isinstance(node, dict) and node.get("note") else None

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
        if self.context and (prov.source, prov.status, prov.via, prov.assumed) != (
            self.context[-1].source,
            self.context[-1].status,
            self.context[-1].via,
            self.context[-1].assumed,
        ):
            line += f" *({_prov(prov)})*" if _prov(prov) else ""
        note = self._note(path) if len(path) > 1 else None
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


# -- the document ------------------------------------------------------------------------------------


def render(name: str) -> str:
    """The rules of a playable ruleset as Markdown."""
    from interpreter.language.loader import load_ruleset

    side = read(name)
    ruleset = load_ruleset(name)
    w = Writer(side)
    tree = side.tree
    title = side.title()
    w.out(f"# {title}")
    w.out()
    if "/" in name or name.endswith((".yaml", ".yml")):
        w.out(f"<!-- Generated by `tarock doc {name}` from that file. -->")
    else:
        w.out(
            f"<!-- Generated by `tarock doc {name}`; do not edit: change rulesets/{name}.yaml and run "
            f"`tarock doc --all --out {DEFAULT_OUT}`. -->"
        )
    parents = side.doc.parents
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
    if root.source or root.status:
        facts.append(f"Source: {_prov(root)}.")
    if facts:
        w.out(" ".join(facts))
        w.out()
    w.used.add(("family",))
    w.context.append(root)

    _players_and_deal(w, side, ruleset)
    _pack(w, side, ruleset)
    _calls(w, side)
    _auction(w, side)
    _contracts(w, side)
    _claim_and_announcements(w, side, ruleset)
    _section(w, side, ("play",), "Play")
    _counting(w, side, ruleset)
    _scoring(w, side, ruleset)
    for key in tree:
        if not any(u[:1] == (key,) for u in w.used) and key not in ("readings", "options", "by_players"):
            _section(w, side, (key,), label_of((key,), w.titles))
    _by_players(w, side)
    _choices(w, side)
    _sources(w, side)
    return w.text()


def _section(w: Writer, side: Side, path: Path, title: str) -> None:
    if get_path(side.tree, path) is MISSING:
        return
    w.heading(2, title, path)
    w.rest(path)
    w.end()


def _players_and_deal(w: Writer, side: Side, ruleset) -> None:
    w.heading(2, "Players and deal", ("players",))
    active = get_path(side.tree, ("players", "active"))
    if isinstance(active, list):
        text = f"{words([str(n) for n in active], 'or')} play"
        sits = get_path(side.tree, ("players", "dealer_sits_out")) or []
        if sits:
            text += f"; {sits_out_text(sits)} the dealer sits out and is dealt no cards"
        w.rule(("players", "active"), text, "Players")
        w.used.add(("players", "dealer_sits_out"))
    w.rest(("players",))
    if get_path(side.tree, ("direction",)) is not MISSING:
        w.rule(("direction",), f"{side.tree['direction']} (seats are numbered in the order of play)")
    for n, plan in (get_path(side.tree, ("deal", "plans")) or {}).items():
        w.rule(("deal", "plans", n), plan_text(plan))
    w.rest(("deal",))
    w.end()


def _pack(w: Writer, side: Side, ruleset) -> None:
    deck = ruleset.deck
    w.heading(2, "The pack", ("deck",))
    title = (side.data.get("deck") or {}).get("title")
    trumps = [c for c in deck.cards if deck.suit[c] == "T"]
    intro = f"{title + ': ' if title else ''}{len(deck.cards)} cards"
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
    w.out(f"All cards together are worth {deck.total_points} points before counting.")
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
    calls = side.data.get("calls") or {}
    if not calls:
        return
    w.heading(2, "Calls", ("calls",))
    w.out("| call | said as |")
    w.out("| --- | --- |")
    for name, entry in calls.items():
        said = entry.get("title") if isinstance(entry, dict) else None
        w.out(f"| `{name}` | {said or name} |")
    w.used.add(("calls",))
    w.end()


def _auction(w: Writer, side: Side) -> None:
    from interpreter.ethnography.matrix import _phase_order

    phases = get_path(side.tree, ("auction", "phases"))
    if not isinstance(phases, dict):
        return
    w.heading(2, "The auction", ("auction",))
    first = get_path(side.tree, ("auction", "first"))
    if first is not MISSING:
        w.out(f"The auction opens with the {w.titles.phase(first)}.")
        w.out()
        w.used.add(("auction", "first"))
    if not any(p.get("compulsory") for p in phases.values()):
        w.used.add(("auction", "breaches"))  # nothing is compulsory, so no pass can breach it
    w.rest(("auction",), skip=("auction", "phases"))
    if w.lines[-1] != "":
        w.out()
    for name in _phase_order(side):
        base: Path = ("auction", "phases", name)
        w.heading(3, w.titles.phase(name), base)
        phase = phases[name]
        for key in ("ladder", "hold", "raise", "max_bidders", "compulsory"):
            if key in phase or key in ("hold", "max_bidders"):
                w.rule(base + (key,), label=_capital(label_of(base + (key,), w.titles).split(": ", 1)[-1]))
        for key in ("pass_out", "after"):
            w.rule(base + ("then", key), label=_capital(label_of(base + ("then", key), w.titles).split(": ", 1)[-1]))
        w.rest(base)
        w.end()
    w.end()


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _contracts(w: Writer, side: Side) -> None:
    contracts = get_path(side.tree, ("contracts",))
    if not isinstance(contracts, dict):
        return
    w.heading(2, "Contracts and the exchange", ("contracts",))
    bids = _bids(side)
    for name in contracts:
        base: Path = ("contracts", name)
        w.heading(3, w.titles.contract(name), base)
        if bids.get(name):
            w.out(f"Bid with {words([f'`{c}`' for c in bids[name]], 'or')}.")
            w.out()
        for key in ("factor", "exchange", "declarer_wins", "amount"):
            if key in ("factor", "exchange") or key in contracts[name]:
                w.rule(
                    base + (key,), label=_capital(label_of(base + (key,), w.titles)[len(w.titles.contract(name)) + 1 :])
                )
        w.rest(base)
        w.end()
    w.end()


def _bids(side: Side) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    for phase in (get_path(side.tree, ("auction", "phases")) or {}).values():
        for level in phase.get("ladder") or []:
            if isinstance(level, dict) and level.get("call") not in result.get(level.get("contract"), []):
                result.setdefault(level.get("contract"), []).append(level.get("call"))
    return result


def _claim_and_announcements(w: Writer, side: Side, ruleset) -> None:
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
                values = ", ".join(
                    f"{card} {int(compiled.value({'card': card}))}"
                    for card in sorted(compiled.cards, key=lambda c: order.get(c, 0))
                )
                w.out(f"  - worth, per laid card: {values} {ruleset.settlement.unit}")
        w.end()


def _counting(w: Writer, side: Side, ruleset) -> None:
    if get_path(side.tree, ("counting",)) is MISSING:
        return
    w.heading(2, "Counting", ("counting",))
    w.rest(("counting",))
    totals = _totals(ruleset)
    if totals:
        w.out()
        w.out(
            "Counted this way, the whole pack is worth "
            + "; ".join(f"{t} points with {words([str(n) for n in ns], 'or')} players" for t, ns in totals.items())
            + "."
        )
    w.end()


def _totals(ruleset) -> dict[int, list[int]]:
    totals: dict[int, list[int]] = {}
    for n in ruleset.active_players:
        total = ruleset.counting.points(list(ruleset.pack(n)), ruleset.deck.points)
        totals.setdefault(total, []).append(n)
    return totals


def _scoring(w: Writer, side: Side, ruleset) -> None:
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
TABLE_NAMES = POINT_NAMES | TRICK_NAMES | CARD_NAMES | {"factor", "declarer_won", "players"}
MAX_CONTRACT_COLUMNS = 6  # more contracts with one formula: a column per factor instead


def _names(contract) -> frozenset[str]:
    return contract.declarer_wins.names | contract.amount.names


def _cards_each(ruleset, active: int) -> int:
    return sum(p.count for p in ruleset.deal_plans.get(active, ()) if p.to == "each")


def _card_splits(ruleset, active: int, names: frozenset[str]) -> list[tuple[int, int]]:
    """What the table cannot know from points and tricks, where a formula reads it: whether the
    lone player holds more cards than the opponents, as many, or fewer."""
    if not names & CARD_NAMES:
        return [(0, 0)]
    pack = len(ruleset.pack(active))
    return [(d, pack - d) for d in (pack // 2 + 1, pack // 2, pack // 2 - 1)]


def _amount(contract, env: dict[str, Any], won: bool, factor: int | None) -> int | None:
    """The engine's settlement of one outcome: None if the contract's own winning condition
    says the outcome cannot be `won` (or not won) with these points and tricks."""
    if bool(contract.declarer_wins(env)) != won:
        return None
    own = contract.factor_won if won else contract.factor_lost
    env = dict(env, declarer_won=won, factor=(own if factor is None else factor) or 0)
    return int(contract.amount(env))


@dataclass(frozen=True)
class Column:
    label: str
    contract: Any
    won: bool
    factor: int | None = None  # None: the contract's own


def payment_cells(
    ruleset, contract, active: int, total: int, loser: int, factor: tuple[int | None, int | None] = (None, None)
) -> tuple[set, set]:
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
    won: set = set()
    lost: set = set()
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


def trick_cells(ruleset, contract, active: int, taken: int) -> tuple[set, set]:
    """As payment_cells, for a contract scored by tricks: the lone player took `taken` tricks."""
    tricks = _cards_each(ruleset, active)
    won: set = set()
    lost: set = set()
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


def _show(values: set) -> str:
    known = sorted(v for v in values if v is not None)
    if not known:
        return "—"
    text = " or ".join(map(str, known))
    return text + " or —" if None in values else text


def _columns(contracts: list) -> tuple[list[Column], list[str]]:
    """Columns by contract, or, for many contracts sharing one formula, by factor (with a key)."""
    if len(contracts) <= MAX_CONTRACT_COLUMNS:
        return [Column(f"{c.title} {r}", c, r == "won") for c in contracts for r in ("won", "lost")], []
    groups: dict[tuple, list] = {}
    for c in contracts:
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
                f"{c.title} ×{c.factor_won}"
                if c.factor_won == c.factor_lost
                else f"{c.title} won ×{c.factor_won}, lost ×{c.factor_lost}"
                for c in members
            )
        )
    return columns, key


def _point_rows(ruleset, columns: list[Column], active: int, total: int) -> tuple:
    """The rows of a points table: (lowest points, highest points, cells), equal neighbours merged."""
    rows: list[tuple[int, int, tuple]] = []
    for loser in range(total + 1):
        cells = []
        for col in columns:
            won, lost = payment_cells(ruleset, col.contract, active, total, loser, (col.factor, col.factor))
            cells.append(_show(won if col.won else lost))
        cells = tuple(cells)
        if all(v == "—" for v in cells):
            continue
        if rows and rows[-1][2] == cells and rows[-1][1] == loser - 1:
            rows[-1] = (rows[-1][0], loser, cells)
        else:
            rows.append((loser, loser, cells))
    return tuple(rows)


def _table(header: list[str], rows: tuple) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for low, high, cells in rows:
        span = str(low) if low == high else f"{low}–{high}"
        lines.append("| " + " | ".join([span, *cells]) + " |")
    return lines + [""]


def payment_tables(ruleset) -> list[str]:
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
    on_top = f" It is the payment for the game alone; {words(extra, 'and')} come on top, as above." if extra else ""
    if by_points:
        columns, key = _columns(by_points)
        tables: dict[tuple, list[int]] = {}
        for n in ruleset.active_players:
            total = ruleset.counting.points(list(ruleset.pack(n)), ruleset.deck.points)
            tables.setdefault((total, _point_rows(ruleset, columns, n, total)), []).append(n)
        for (total, rows), counts in tables.items():
            lines.append(f"### Payments with {words([str(n) for n in counts], 'or')} players")
            lines.append("")
            text = (
                f"Computed by the interpreter from the ruleset's own formulas. A row is the card points of "
                f"the losing side (the opponents when the lone player wins, the lone player when losing), "
                f"out of {total}; *won* is what each opponent pays the lone player, *lost* what the lone "
                f"player pays each opponent, in {unit}. Rows with the same payments are merged; — means "
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
        tables = {}
        for n in ruleset.active_players:
            tricks = _cards_each(ruleset, n)
            rows = []
            for k in range(tricks + 1):
                cells = tuple(_show(trick_cells(ruleset, col.contract, n, k)[0 if col.won else 1]) for col in columns)
                if rows and rows[-1][2] == cells and rows[-1][1] == k - 1:
                    rows[-1] = (rows[-1][0], k, cells)
                else:
                    rows.append((k, k, cells))
            tables.setdefault((tricks, tuple(rows)), []).append(n)
        for (tricks, rows), counts in tables.items():
            lines.append(f"### Payments by tricks with {words([str(n) for n in counts], 'or')} players")
            lines.append("")
            lines.append(
                f"Computed the same way for the contracts scored by tricks: a row is the number of tricks "
                f"the lone player took, out of {tricks}; in {unit}.{on_top}"
            )
            lines.append("")
            lines += _table(["lone player's tricks"] + [c.label for c in columns], rows)
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
        raw = (side.data.get("by_players") or {}).get(count) or {}
        w.heading(3, f"With {count} players" + (f": {raw['title']}" if raw.get("title") else ""), ("by_players", count))
        effects = entry.get("effects") or {}
        for label, value in describe_effects(effects, w.titles):
            w.out(f"- **{label}:** {value}")
        if not effects:
            w.out("- The same rules as above.")
        w.end()
    w.used.add(("by_players",))


def _choices(w: Writer, side: Side) -> None:
    for section, heading, intro in (
        (
            "readings",
            "Readings",
            "Where the sources disagree, each reading is one of them; the rules above "
            "follow the default. Choose another with `--option NAME=CHOICE`.",
        ),
        ("options", "Options", "Table agreements, chosen when a game starts (`--option NAME=CHOICE`)."),
    ):
        groups = get_path(side.tree, (section,))
        if not isinstance(groups, dict) or not groups:
            continue
        w.heading(2, heading, None)
        w.out(intro)
        for name, group in groups.items():
            raw = (side.data.get(section) or {}).get(name) or {}
            question = raw.get("question") or raw.get("title")
            w.heading(3, f"`{name}`" + (f": {question}" if question else ""), None)
            prov = side.provenance((section, name))
            if raw.get("source"):
                w.out(f"*Source: {_prov(prov)}.*")
                w.out()
            for choice, effects in (group.get("choices") or {}).items():
                body = (raw.get("choices") or {}).get(choice) or {}
                line = f"- **{choice}**" + (" (default)" if choice == group.get("default") else "")
                said = "; ".join(f"{label}: {value}" for label, value in describe_effects(effects, w.titles))
                if not said and choice != group.get("default"):
                    said = "the same as the default"  # its patch changes nothing the interpreter plays
                if body.get("title"):
                    line += f" — {body['title']}." + (f" Rules: {said}." if said else "")
                else:
                    line += f": {said}." if said else "."
                cite = [body.get("source"), body.get("status")]
                cite = [c for c in cite if c]
                if cite:
                    line += f" *({'; '.join(cite)})*"
                w.out(line)
        w.used.add((section,))


def _sources(w: Writer, side: Side) -> None:
    sources = side.data.get("sources") or {}
    if not sources:
        return
    w.heading(2, "Sources", None)
    for key, entry in sources.items():
        entry = entry if isinstance(entry, dict) else {}
        text = f"- `{key}`: {entry.get('title', key)}"
        if entry.get("url"):
            text += f" <{entry['url']}>"
        w.out(text)


# -- the command -------------------------------------------------------------------------------------------


def expected_files(out: FilePath) -> dict[FilePath, str]:
    """Every file `tarock doc --all --out OUT` writes, with its text."""
    from interpreter.language.loader import ruleset_names

    return {out / f"{name}.md": render(name) for name in ruleset_names()}


def stale(out: FilePath) -> list[str]:
    """What is out of date under `out`: one line per file."""
    problems = []
    expected = expected_files(out)
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
