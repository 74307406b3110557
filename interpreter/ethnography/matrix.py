"""A feature table across rulesets: one row per ruleset, one column per feature.

Players, pack, deal, talon, contracts, holds and overcalls, compulsory bids, special cards and
play constraints, counting, multipliers, settlement, announcements, readings and options, and a
column for any section of the language without one of its own. Read from each ruleset after
inheritance, with its default readings and options. Markdown by default; `--format csv` for
spreadsheets; `--format html` for a standalone page that marks each cell's provenance (attested,
reported, reconstructed, assumed: the least certain of the rules in the cell) and gives the
sources on hover.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Callable
from dataclasses import dataclass, field

from interpreter.ethnography.diff import (
    Titles,
    aside_text,
    code,
    compulsory_text,
    factor_text,
    label_of,
    packet_text,
    schedule_text,
    value_text,
    withhold_text,
    words,
)
from interpreter.ethnography.semantic import MISSING, STATUSES, Path, Side, get_path, least_certain


@dataclass
class Cell:
    text: str
    paths: list[Path] = field(default_factory=list)  # the rules it is made of, for provenance
    status: str | None = None
    sources: list[str] = field(default_factory=list)


def _talons(tree: dict) -> dict[str, int]:
    return {
        n: sum(int(p.get("talon", 0)) for p in plan if isinstance(p, dict))
        for n, plan in (get_path(tree, ("deal", "plans")) or {}).items()
        if isinstance(plan, list)
    }


def players_cell(side: Side) -> Cell:
    active = get_path(side.tree, ("players", "active"))
    sits = get_path(side.tree, ("players", "dealer_sits_out"))
    if active is MISSING:
        return Cell("—")
    text = words([str(n) for n in active], "or")
    if sits:
        text += f" (at {words([str(n) for n in sits], 'or')} the dealer sits out)"
    return Cell(text, [("players",)])


def pack_cell(side: Side) -> Cell:
    deck = side.deck
    if deck is None:
        return Cell("—", [("deck",)])
    trumps = len(deck.sets.get("trumps", ()))
    title = (side.data.get("deck") or {}).get("title")
    text = f"{len(deck.cards)} cards" + (f", {trumps} trumps" if trumps else ", no trumps")
    if title:
        text = f"{title}: {text}"
    if side.removed:
        text += "; " + ", ".join(f"{n} players: without {' '.join(cards)}" for n, cards in side.removed.items())
    return Cell(text, [("deck",)] + ([("deal", "remove")] if side.removed else []))


def deal_cell(side: Side) -> Cell:
    plans = get_path(side.tree, ("deal", "plans"))
    if not isinstance(plans, dict) or not plans:
        return Cell("—")
    parts = []
    for n, plan in plans.items():
        steps = [f"{p['each']}" if "each" in p else f"T{p['talon']}" for p in plan if isinstance(p, dict)]
        parts.append(f"{n}: {'-'.join(steps)}")
    return Cell("; ".join(parts), [("deal", "plans")])


def talon_cell(side: Side) -> Cell:
    talons = _talons(side.tree)
    if not talons:
        return Cell("—")
    if len(set(talons.values())) == 1:
        return Cell(str(next(iter(talons.values()))), [("deal", "plans")])
    return Cell("; ".join(f"{n}: {t}" for n, t in talons.items()), [("deal", "plans")])


def contracts_cell(side: Side) -> Cell:
    contracts = get_path(side.tree, ("contracts",))
    if not isinstance(contracts, dict) or not contracts:
        return Cell("—")
    titles = Titles(side)
    parts = []
    for name, c in contracts.items():
        exchange = c.get("exchange") if isinstance(c, dict) else None
        parts.append(f"{titles.contract(name)}" + ("" if exchange else " (no exchange)"))
    return Cell(", ".join(parts), [("contracts", n) for n in contracts])


def holds_cell(side: Side) -> Cell:
    phases = get_path(side.tree, ("auction", "phases"))
    if not isinstance(phases, dict) or not phases:
        return Cell("—")
    titles = Titles(side)
    order = _phase_order(side)
    parts, paths = [], []
    for name in order:
        p = phases[name]
        ladder = p.get("ladder") or []
        calls = " < ".join(str(lv.get("call")) for lv in ladder if isinstance(lv, dict))
        bits = [calls or "no bids"]
        bits.append(f"held with {p['hold']}" if p.get("hold") else "no holding")
        if p.get("raise") == "any":
            bits.append("jumps allowed")
        if p.get("max_bidders"):
            bits.append(f"at most {p['max_bidders']} bidders")
        parts.append(f"{titles.phase(name)}: {', '.join(bits)}")
        paths += [
            ("auction", "phases", name, "ladder"),
            ("auction", "phases", name, "hold"),
            ("auction", "phases", name, "max_bidders"),
        ]
    return Cell("; ".join(parts), paths)


def _phase_order(side: Side) -> list[str]:
    """The phases in the order the auction can reach them, from the opening one."""
    phases = get_path(side.tree, ("auction", "phases")) or {}
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


def compulsory_cell(side: Side) -> Cell:
    phases = get_path(side.tree, ("auction", "phases"))
    if not isinstance(phases, dict):
        return Cell("—")
    titles = Titles(side)
    parts, paths = [], []
    for name in _phase_order(side):
        rules = phases[name].get("compulsory")
        if rules:
            parts.append(f"{titles.phase(name)}: {compulsory_text(rules)}")
            paths.append(("auction", "phases", name, "compulsory"))
    breaches = get_path(side.tree, ("auction", "breaches"))
    if parts and breaches not in (MISSING, "refuse"):
        parts.append(f"a pass against them is {value_text(('auction', 'breaches'), breaches)}")
    return Cell("; ".join(parts) or "none", paths or [("auction",)])


def special_cell(side: Side) -> Cell:
    parts, paths = [], []
    names = ((side.data.get("deck") or {}).get("trumps") or {}).get("names") or {}
    if names:
        parts.append("named trumps " + ", ".join(f"{card} {title}" for card, title in names.items()))
        paths.append(("deck",))
    play = get_path(side.tree, ("play",))
    if isinstance(play, dict):
        rules = ["must follow suit" if play.get("follow_suit") else "need not follow suit"]
        rules.append("must trump when void" if play.get("when_void") == "trump" else "may discard when void")
        rules.append("must head the trick" if play.get("must_beat") else "need not head the trick")
        rules.append("the lone player leads" if play.get("first_lead") == "declarer" else "Vorhand leads")
        parts.append(", ".join(rules))
        paths.append(("play",))
        if play.get("withhold"):
            parts.append(f"withholding: {withhold_text(play['withhold'])}")
        if play.get("schedule"):
            parts.append(f"scheduled tricks: {schedule_text(play['schedule'])}")
        extra = {
            k: v
            for k, v in play.items()
            if k not in ("follow_suit", "when_void", "must_beat", "first_lead", "withhold", "schedule")
        }
        for key, value in extra.items():
            parts.append(f"{label_of(('play', key), Titles(side))}: {value_text(('play', key), value)}")
    forbids = {}
    for name, c in (get_path(side.tree, ("contracts",)) or {}).items():
        for step in (c.get("exchange") or []) if isinstance(c, dict) else []:
            forbid = (
                (step.get("discard") or {}).get("forbid")
                if isinstance(step, dict) and isinstance(step.get("discard"), dict)
                else None
            )
            if isinstance(forbid, dict) and forbid.get("when") is not None:
                forbids.setdefault(str(forbid["when"]), []).append(name)
    for when in forbids:
        parts.append(f"may not discard a card for which {code(when)}")
        paths.append(("contracts",))
    claim = get_path(side.tree, ("claim",))
    if claim is not MISSING:
        parts.append(f"claim {value_text(('claim',), claim)}")
        paths.append(("claim",))
    return Cell("; ".join(parts) or "—", paths)


def counting_cell(side: Side) -> Cell:
    c = get_path(side.tree, ("counting",))
    if not isinstance(c, dict):
        return Cell("—")
    text = packet_text(c.get("packet"))
    if c.get("packet_deduct"):
        text += f", {c['packet_deduct']} off each"
    if c.get("remainder_deduct"):
        text += f", {c['remainder_deduct']} off the odd cards"
    if isinstance(c.get("aside"), dict):
        text += f"; talon and discards for {aside_text(c['aside'])}"
    return Cell(text, [("counting",)])


def multipliers_cell(side: Side) -> Cell:
    contracts = get_path(side.tree, ("contracts",))
    if not isinstance(contracts, dict):
        return Cell("—")
    titles = Titles(side)
    parts = [
        f"{titles.contract(n)} {factor_text(c['factor'])}"
        for n, c in contracts.items()
        if isinstance(c, dict) and c.get("factor") is not None
    ]
    claim = get_path(side.tree, ("claim",))
    if isinstance(claim, dict) and claim.get("factor") is not None:
        parts.append(f"claim ×{claim['factor']}")
    return Cell(", ".join(parts) or "—", [("contracts", n, "factor") for n in contracts])


def settlement_cell(side: Side) -> Cell:
    s = get_path(side.tree, ("settlement",))
    if not isinstance(s, dict):
        return Cell("—")
    parts = []
    if s.get("declarer_wins") is not None:
        parts.append(f"won when {code(s['declarer_wins'])}")
    if s.get("amount") is not None:
        parts.append(f"each opponent {code(s['amount'])} {s.get('unit', '')}".rstrip())
    own = [
        n
        for n, c in (get_path(side.tree, ("contracts",)) or {}).items()
        if isinstance(c, dict) and ("amount" in c or "declarer_wins" in c)
    ]
    if own:
        titles = Titles(side)
        parts.append("own scoring: " + ", ".join(titles.contract(n) for n in own))
    if s.get("liable"):
        parts.append("liable payers")
    return Cell("; ".join(parts) or "—", [("settlement",)])


def announcements_cell(side: Side) -> Cell:
    a = get_path(side.tree, ("announcements",))
    if not isinstance(a, dict) or not a:
        return Cell("none")
    titles = Titles(side)
    return Cell(", ".join(titles.entry("announcements", n) for n in a), [("announcements", n) for n in a])


def choices_cell(side: Side) -> Cell:
    parts, paths = [], []
    for section in ("readings", "options"):
        for name, group in (get_path(side.tree, (section,)) or {}).items():
            choices = list((group or {}).get("choices") or {})
            parts.append(f"{name}: {' / '.join(choices)} (default {group.get('default')})")
            paths.append((section, name))
    return Cell("; ".join(parts) or "none", paths)


COLUMNS: list[tuple[str, Callable[[Side], Cell]]] = [
    ("players", players_cell),
    ("pack", pack_cell),
    ("deal", deal_cell),
    ("talon", talon_cell),
    ("contracts", contracts_cell),
    ("holds and overcalls", holds_cell),
    ("compulsory bids", compulsory_cell),
    ("special cards and play constraints", special_cell),
    ("counting", counting_cell),
    ("multipliers", multipliers_cell),
    ("settlement", settlement_cell),
    ("announcements", announcements_cell),
    ("readings and options", choices_cell),
]
COVERED = {
    "family",
    "players",
    "direction",
    "deck",
    "deal",
    "calls",
    "auction",
    "contracts",
    "claim",
    "announcements",
    "play",
    "counting",
    "settlement",
    "readings",
    "options",
}


def other_sections(sides: list[Side]) -> list[str]:
    """Sections some ruleset has that no column shows: each gets a column of its own."""
    names: list[str] = []
    for side in sides:
        for key in side.tree:
            if key not in COVERED and key not in names:
                names.append(key)
    return names


def generic_cell(section: str) -> Callable[[Side], Cell]:
    def cell(side: Side) -> Cell:
        value = get_path(side.tree, (section,))
        if value is MISSING:
            return Cell("—")
        return Cell(value_text((section,), value), [(section,)])

    return cell


@dataclass
class Matrix:
    sides: list[Side]
    columns: list[str]
    rows: list[list[Cell]]


def build(sides: list[Side]) -> Matrix:
    columns = list(COLUMNS) + [(name.replace("_", " "), generic_cell(name)) for name in other_sections(sides)]
    rows = []
    for side in sides:
        row = []
        for _, fn in columns:
            try:
                cell = fn(side)
            except Exception:  # a shape this column does not know: say so rather than fail the table
                cell = Cell("(not shown)")
            provenances = [side.provenance(p) for p in cell.paths]
            cell.status = least_certain(p.status for p in provenances)
            cell.sources = list(dict.fromkeys(p.source for p in provenances if p.source))
            row.append(cell)
        rows.append(row)
    return Matrix(sides, [name for name, _ in columns], rows)


def _heading(name: str) -> str:
    return name[:1].upper() + name[1:]


def markdown(m: Matrix) -> str:
    def esc(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    lines = ["| ruleset | " + " | ".join(_heading(c) for c in m.columns) + " |", "| --- " * (len(m.columns) + 1) + "|"]
    for side, row in zip(m.sides, m.rows, strict=False):
        lines.append(f"| **{esc(side.name)}** ({esc(side.title())}) | " + " | ".join(esc(c.text) for c in row) + " |")
    return "\n".join(lines) + "\n"


def csv_text(m: Matrix) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["ruleset", "title"] + m.columns + [f"{c} status" for c in m.columns])
    for side, row in zip(m.sides, m.rows, strict=False):
        writer.writerow([side.name, side.title()] + [c.text for c in row] + [c.status or "" for c in row])
    return out.getvalue()


COLOURS = {"attested": "#d9f2d9", "reported": "#e3ecfa", "reconstructed": "#fdf1cc", "assumed": "#f9d9d9"}


def html_page(m: Matrix) -> str:
    e = html.escape
    legend = " ".join(f'<span class="{s}">{s}</span>' for s in STATUSES)
    head = "".join(f"<th>{e(_heading(c))}</th>" for c in m.columns)
    body = []
    for side, row in zip(m.sides, m.rows, strict=False):
        cells = []
        for cell in row:
            tip = "; ".join(cell.sources) if cell.sources else "no source given"
            status = cell.status or "unmarked"
            cells.append(
                f'<td class="{status}" title="{e(status)}: {e(tip)}">{e(cell.text)}'
                f'<span class="status">{e(status)}</span></td>'
            )
        body.append(f'<tr><th scope="row">{e(side.name)}<br><small>{e(side.title())}</small></th>{"".join(cells)}</tr>')
    styles = "\n".join(f".{s} {{ background: {c}; }}" for s, c in COLOURS.items())
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Tarock rulesets: feature matrix</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5em; }}
table {{ border-collapse: collapse; font-size: 0.85em; }}
th, td {{ border: 1px solid #999; padding: 0.3em 0.5em; vertical-align: top; text-align: left; }}
thead th {{ background: #eee; position: sticky; top: 0; }}
.status {{ display: block; font-size: 0.75em; color: #555; font-style: italic; }}
.legend span {{ padding: 0.1em 0.5em; margin-right: 0.3em; border: 1px solid #999; }}
{styles}
.unmarked {{ background: #fff; }}
</style>
</head>
<body>
<h1>Tarock rulesets: feature matrix</h1>
<p>Each ruleset after inheritance, with its default readings and options. A cell's colour is the
least certain provenance of the rules it shows; hover over it for the sources.</p>
<p class="legend">{legend}</p>
<table>
<thead><tr><th>Ruleset</th>{head}</tr></thead>
<tbody>
{chr(10).join(body)}
</tbody>
</table>
</body>
</html>
"""


FORMATS = {"markdown": markdown, "csv": csv_text, "html": html_page}


__all__ = ["Cell", "Matrix", "build", "csv_text", "html_page", "markdown"]
