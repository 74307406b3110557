"""A feature table across rulesets: one row per ruleset, one column per concept.

Players, pack, deal, talon, contracts, bidding, compulsory bids, discarding, special cards, play,
showing the hand, counting, multipliers, scoring, announcements, readings and options, and a
column for any other rule a ruleset has (the pot, accusations, penalties, sessions). Read from
each compiled ruleset with its default readings and options; each cell is short text, and its
sources are numbered notes under the table. With `--base NAME`, the cells that differ from that
ruleset's are marked. Markdown by default; `--format csv` for spreadsheets; `--format html` for
a standalone page whose cells are coloured by provenance (attested, reported, reconstructed,
assumed: the least certain of the rules in the cell).
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
    compulsory_text,
    excuse_text,
    factor_text,
    packet_text,
    schedule_text,
    sitting_out_phrase,
    step_text,
    value_text,
    withhold_text,
    words,
)
from interpreter.ethnography.docgen import phase_order, totals_text
from interpreter.ethnography.semantic import MISSING, STATUSES, Path, Side, get_path, least_certain


def plain(text: str) -> str:
    """A cell's text without Markdown's code marks: a table cell is read, not copied."""
    return text.replace("`", "")


@dataclass
class Cell:
    text: str
    paths: list[Path] = field(default_factory=list)  # the rules it is made of, for provenance
    status: str | None = None
    notes: list[int] = field(default_factory=list)  # numbers of the notes (sources) under the table
    differs: bool = False  # from the base ruleset's cell


NONE = "—"


def players_cell(side: Side) -> Cell:
    rs = side.ruleset
    text = words([str(n) for n in rs.active_players], "or")
    if rs.sit_out:
        text += f" ({sitting_out_phrase(rs.sit_out)})"
    return Cell(text, [("players",)])


def pack_cell(side: Side) -> Cell:
    deck = side.ruleset.deck
    trumps = len(deck.sets.get("trumps", ()))
    text = f"{len(deck.cards)} cards" + (f", {trumps} trumps" if trumps else ", no trumps")
    if deck.title:
        text = f"{deck.title}: {text}"
    return Cell(text, [("deck", "suits")])


def removed_cell(side: Side) -> Cell:
    removed = get_path(side.tree, ("deal", "remove"))
    if not isinstance(removed, dict) or not removed:
        return Cell(NONE)
    return Cell(
        "; ".join(f"{n} players: {' '.join(cards)}" for n, cards in removed.items()),
        [("deal", "remove", n) for n in removed],
    )


def deal_cell(side: Side) -> Cell:
    plans = get_path(side.tree, ("deal", "plans"))
    if not isinstance(plans, dict) or not plans:
        return Cell(NONE)
    parts = []
    for n, plan in plans.items():
        steps = [f"{p['each']}" if "each" in p else f"T{p['talon']}" for p in plan if isinstance(p, dict)]
        parts.append(f"{n}: {'-'.join(steps)}")
    return Cell("; ".join(parts), [("deal", "plans", n) for n in plans])


def talon_cell(side: Side) -> Cell:
    plans = get_path(side.tree, ("deal", "plans"))
    if not isinstance(plans, dict) or not plans:
        return Cell(NONE)
    talons = {n: sum(int(p.get("talon", 0)) for p in plan if isinstance(p, dict)) for n, plan in plans.items()}
    paths: list[Path] = [("deal", "plans", n) for n in plans]
    if len(set(talons.values())) == 1:
        return Cell(str(next(iter(talons.values()))), paths)
    return Cell("; ".join(f"{n}: {t}" for n, t in talons.items()), paths)


def contracts_cell(side: Side) -> Cell:
    contracts = get_path(side.tree, ("contracts",))
    if not isinstance(contracts, dict) or not contracts:
        return Cell(NONE)
    titles = Titles(side)
    return Cell(", ".join(titles.contract(n) for n in contracts), [("contracts", n) for n in contracts])


def bidding_cell(side: Side) -> Cell:
    phases = get_path(side.tree, ("auction", "phases"))
    if not isinstance(phases, dict) or not phases:
        return Cell(NONE)
    titles = Titles(side)
    parts: list[str] = []
    paths: list[Path] = []
    for name in phase_order(side):
        p = phases[name]
        ladder = p.get("ladder") or []
        calls = " < ".join(str(lv.get("call")) for lv in ladder if isinstance(lv, dict))
        bits = [calls or "no bids"]
        if p.get("hold") == "same":
            bits.append("a player with priority may name the same game")
        elif p.get("hold"):
            bits.append(f"held with {p['hold']}")
        if p.get("raise") == "any":
            bits.append("jumps allowed")
        if p.get("max_bidders"):
            bits.append(f"at most {p['max_bidders']} bidders")
        if p.get("interrupts"):
            bits.append("any time: " + ", ".join(str(lv.get("call")) for lv in p["interrupts"]))
        parts.append(f"{titles.phase(name)}: {', '.join(bits)}")
        paths += [("auction", "phases", name, key) for key in ("ladder", "hold", "max_bidders") if key in p]
    return Cell("; ".join(parts), paths)


def compulsory_cell(side: Side) -> Cell:
    phases = get_path(side.tree, ("auction", "phases"))
    if not isinstance(phases, dict):
        return Cell(NONE)
    titles = Titles(side)
    parts: list[str] = []
    paths: list[Path] = []
    for name in phase_order(side):
        rules = phases[name].get("compulsory")
        if rules:
            parts.append(f"{titles.phase(name)}: {compulsory_text(rules)}")
            paths.append(("auction", "phases", name, "compulsory"))
    breaches = get_path(side.tree, ("auction", "breaches"))
    if parts and breaches not in (MISSING, "refuse"):
        parts.append(f"a pass against them is {value_text(('auction', 'breaches'), breaches)}")
        paths.append(("auction", "breaches"))
    return Cell("; ".join(parts) or "none", paths)


def discard_cell(side: Side) -> Cell:
    """What the lone player may not discard, and what is laid aside for them."""
    rules: dict[str, list[str]] = {}
    paths: list[Path] = []
    titles = Titles(side)
    for name, c in (get_path(side.tree, ("contracts",)) or {}).items():
        for step in c.get("exchange") or []:
            if not isinstance(step, dict) or "take_talon" in step:
                continue
            discard = step.get("discard")
            if isinstance(discard, dict) and not {"forbid", "prefer", "all_or_none", "shown"} & discard.keys():
                continue  # a plain discard: nothing to say beyond the exchange itself
            rules.setdefault(step_text(step), []).append(titles.contract(name))
            paths.append(("contracts", name, "exchange"))
    if not rules:
        return Cell("none", paths)
    contracts = len(get_path(side.tree, ("contracts",)) or {})
    parts = [text if len(names) == contracts else f"{text} ({', '.join(names)})" for text, names in rules.items()]
    return Cell("; ".join(parts), list(dict.fromkeys(paths)))


def special_cell(side: Side) -> Cell:
    """Cards with names and powers of their own."""
    deck = side.ruleset.deck
    parts: list[str] = []
    paths: list[Path] = []
    named = [
        f"{card} {deck.titles[card]}"
        for card in deck.cards
        if deck.suit[card] == "T" and not deck.titles[card].isdigit()
    ]
    if named:
        parts.append(", ".join(named))
        paths.append(("deck", "suits", "T"))
    withhold = get_path(side.tree, ("play", "withhold"))
    if withhold is not MISSING:
        parts.append(f"withholding {withhold_text(withhold).removeprefix('allowed: ')}")
        paths.append(("play", "withhold"))
    excuse = get_path(side.tree, ("play", "excuse"))
    if excuse is not MISSING:
        parts.append(f"the Excuse: {excuse_text(excuse)}")
        paths.append(("play", "excuse"))
    trump_suit = get_path(side.tree, ("play", "trump_suit"))
    if trump_suit is not MISSING:
        parts.append(f"{trump_suit} always trumps")
        paths.append(("play", "trump_suit"))
    return Cell("; ".join(parts) or NONE, paths)


def play_cell(side: Side) -> Cell:
    play = get_path(side.tree, ("play",))
    if not isinstance(play, dict):
        return Cell(NONE)
    rules = ["must follow suit" if play.get("follow_suit") else "need not follow suit"]
    rules.append("must trump when void" if play.get("when_void") == "trump" else "may discard when void")
    if play.get("must_beat"):
        rules.append("must head the trick")
    who = {"declarer": "the lone player", "dealer": "the dealer"}.get(str(play.get("first_lead")), "Vorhand")
    on = play.get("first_lead_offset")
    rules.append(f"the player {on} seat(s) after {who} leads" if on else f"{who} leads")
    paths: list[Path] = [("play", k) for k in ("follow_suit", "when_void", "must_beat", "first_lead")]
    if on:
        paths.append(("play", "first_lead_offset"))
    if play.get("schedule"):
        rules.append(f"tricks by rule: {schedule_text(play['schedule'])}")
        paths.append(("play", "schedule"))
    return Cell(", ".join(rules), paths)


def claim_cell(side: Side) -> Cell:
    claim = get_path(side.tree, ("claim",))
    if claim is MISSING:
        return Cell("none")
    return Cell(value_text(("claim",), claim), [("claim",)])


def counting_cell(side: Side) -> Cell:
    c = get_path(side.tree, ("counting",))
    if not isinstance(c, dict):
        return Cell(NONE)
    text = packet_text(c.get("packet"))
    if c.get("packet_deduct"):
        text += f", {c['packet_deduct']} off each"
    if c.get("remainder_deduct"):
        text += f", {c['remainder_deduct']} off the odd cards"
    totals = totals_text(side.ruleset).removeprefix("Counted this way, the whole pack is worth ").split(". ")[0]
    if totals:
        text += f" ({totals.rstrip('.')})"
    if isinstance(c.get("aside"), dict):
        text += f"; talon for {aside_text(c['aside'])}"
    return Cell(text, [("counting", k) for k in c])


def multipliers_cell(side: Side) -> Cell:
    contracts = get_path(side.tree, ("contracts",))
    if not isinstance(contracts, dict):
        return Cell(NONE)
    titles = Titles(side)
    parts = [
        f"{titles.contract(n)} {factor_text(c['factor'])}"
        for n, c in contracts.items()
        if isinstance(c, dict) and c.get("factor") is not None
    ]
    paths: list[Path] = [("contracts", n, "factor") for n, c in contracts.items() if "factor" in c]
    claim = get_path(side.tree, ("claim",))
    if isinstance(claim, dict) and claim.get("factor") is not None:
        parts.append(f"shown hand ×{claim['factor']}")
    return Cell(", ".join(parts) or NONE, paths)


def settlement_cell(side: Side) -> Cell:
    s = get_path(side.tree, ("settlement",))
    if not isinstance(s, dict):
        return Cell(NONE)
    parts = []
    paths: list[Path] = []
    if s.get("declarer_wins") is not None:
        parts.append(f"won when {s['declarer_wins']}")
        paths.append(("settlement", "declarer_wins"))
    if s.get("amount") is not None:
        parts.append(f"each opponent {s['amount']} {s.get('unit', '')}".rstrip())
        paths.append(("settlement", "amount"))
    own = [
        n
        for n, c in (get_path(side.tree, ("contracts",)) or {}).items()
        if isinstance(c, dict) and ("amount" in c or "declarer_wins" in c or "individual" in c)
    ]
    if own:
        titles = Titles(side)
        parts.append("own scoring: " + ", ".join(titles.contract(n) for n in own))
    if s.get("liable"):
        parts.append("some opponents may pay for the team")
        paths.append(("settlement", "liable"))
    return Cell("; ".join(parts) or NONE, paths)


def announcements_cell(side: Side) -> Cell:
    a = get_path(side.tree, ("announcements",))
    if not isinstance(a, dict) or not a:
        return Cell("none")
    titles = Titles(side)
    return Cell(", ".join(titles.entry("announcements", n) for n in a), [("announcements", n) for n in a])


def bonuses_cell(side: Side) -> Cell:
    """Each bonus by name, with its value unannounced and announced."""
    bonuses = get_path(side.tree, ("bonuses",))
    if not isinstance(bonuses, dict) or not bonuses:
        return Cell("none")
    titles = Titles(side)
    parts = []
    for name, b in bonuses.items():
        silent = str(b["value"]) if isinstance(b, dict) and b.get("value") is not None else "only announced"
        announced = f", announced {b['announced']}" if isinstance(b, dict) and b.get("announced") is not None else ""
        parts.append(f"{titles.bonus(name)} ({silent}{announced})")
    return Cell(", ".join(parts), [("bonuses", n) for n in bonuses])


def choices_cell(section: str) -> Callable[[Side], Cell]:
    def cell(side: Side) -> Cell:
        groups = [g for g in side.ruleset.groups if g.kind == section]
        parts = [
            f"{g.name}: " + " / ".join(c + (" (default)" if c == g.default else "") for c in g.choices) for g in groups
        ]
        return Cell("; ".join(parts) or "none", [(section, g.name) for g in groups])

    return cell


COLUMNS: list[tuple[str, Callable[[Side], Cell]]] = [
    ("players", players_cell),
    ("pack", pack_cell),
    ("cards removed", removed_cell),
    ("deal", deal_cell),
    ("talon", talon_cell),
    ("contracts", contracts_cell),
    ("holds and overcalls", bidding_cell),
    ("compulsory bids", compulsory_cell),
    ("discarding", discard_cell),
    ("special cards", special_cell),
    ("play constraints", play_cell),
    ("showing the hand", claim_cell),
    ("counting", counting_cell),
    ("multipliers", multipliers_cell),
    ("settlement", settlement_cell),
    ("announcements", announcements_cell),
    ("readings", choices_cell("readings")),
    ("options", choices_cell("options")),
]
# Sections of the language shown in the columns above; any other gets a column of its own.
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
    "by_players",
}
COLUMN_TITLES = {"pot_ante": "pot", "accusation": "accusing a skinned solo"}


def other_sections(sides: list[Side]) -> list[str]:
    """Sections some ruleset has that no column shows: each gets a column of its own."""
    names: list[str] = []
    for side in sides:
        for key in side.tree:
            if key not in COVERED and key not in names:
                names.append(key)
    return names


# Sections that only some rulesets have, with a cell of their own words; any other section is
# shown rule by rule in its templates' words.
OTHER_CELLS: dict[str, Callable[[Side], Cell]] = {"bonuses": bonuses_cell}


def generic_cell(section: str) -> Callable[[Side], Cell]:
    if section in OTHER_CELLS:
        return OTHER_CELLS[section]

    def cell(side: Side) -> Cell:
        value = get_path(side.tree, (section,))
        if value is MISSING:
            return Cell(NONE)
        if isinstance(value, dict) and not _is_rule(section):
            titles = Titles(side)
            return Cell(
                "; ".join(value_text((section, k), v, titles) for k, v in value.items()),
                [(section, k) for k in value],
            )
        return Cell(value_text((section,), value), [(section,)])

    return cell


def _is_rule(section: str) -> bool:
    from interpreter.ethnography.diff import template_for

    return template_for((section,)) is not None


@dataclass
class Matrix:
    sides: list[Side]
    columns: list[str]
    rows: list[list[Cell]]
    notes: list[str] = field(default_factory=list)  # the sources, numbered from 1
    base: Side | None = None


def build(sides: list[Side], base: Side | None = None) -> Matrix:
    """The table of `sides`; with `base` (one of them, or another ruleset put first), each cell
    that says something else than the base's is marked."""
    if base is not None and all(s.ref != base.ref for s in sides):
        sides = [base, *sides]
    columns = list(COLUMNS) + [
        (COLUMN_TITLES.get(name, name.replace("_", " ")), generic_cell(name)) for name in other_sections(sides)
    ]
    notes: dict[str, int] = {}
    rows = []
    for side in sides:
        row = []
        for _, fn in columns:
            cell = fn(side)
            cell.text = plain(cell.text)
            provenances = [side.provenance(p) for p in cell.paths]
            cell.status = least_certain(p.status for p in provenances)
            for prov in provenances:
                text = prov.cites()
                if text:
                    number = notes.setdefault(text, len(notes) + 1)
                    if number not in cell.notes:
                        cell.notes.append(number)
            row.append(cell)
        rows.append(row)
    if base is not None:
        base_row = rows[[s.ref for s in sides].index(base.ref)]
        for row in rows:
            for cell, base_cell in zip(row, base_row, strict=True):
                cell.differs = cell.text != base_cell.text
    return Matrix(sides, [name for name, _ in columns], rows, list(notes), base)


def _heading(name: str) -> str:
    return name[:1].upper() + name[1:]


def markdown(m: Matrix) -> str:
    def esc(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ").replace("*", "\\*")

    def cell_text(cell: Cell) -> str:
        text = esc(cell.text)
        if cell.differs:
            text = f"**{text}**"
        return text + (f" [{','.join(map(str, cell.notes))}]" if cell.notes else "")

    lines = ["| ruleset | " + " | ".join(_heading(c) for c in m.columns) + " |", "| --- " * (len(m.columns) + 1) + "|"]
    for side, row in zip(m.sides, m.rows, strict=True):
        lines.append(f"| **{esc(side.name)}** ({esc(side.title())}) | " + " | ".join(cell_text(c) for c in row) + " |")
    lines.append("")
    if m.base is not None:
        lines += [f"Cells in bold say something else than {m.base.name}'s.", ""]
    if m.notes:
        lines += ["Sources (the numbers in brackets):", ""]
        lines += [f"{i}. {esc(note)}" for i, note in enumerate(m.notes, 1)]
    return "\n".join(lines).rstrip() + "\n"


def csv_text(m: Matrix) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["ruleset", "title"] + m.columns + [f"{c} status" for c in m.columns] + [f"{c} sources" for c in m.columns]
    if m.base is not None:
        header.append(f"differs from {m.base.name}")
    writer.writerow(header)
    for side, row in zip(m.sides, m.rows, strict=True):
        line = [side.name, side.title()] + [c.text for c in row] + [c.status or "" for c in row]
        line += ["; ".join(m.notes[n - 1] for n in c.notes) for c in row]
        if m.base is not None:
            line.append("; ".join(name for name, c in zip(m.columns, row, strict=True) if c.differs))
        writer.writerow(line)
    return out.getvalue()


COLOURS = {"attested": "#d9f2d9", "reported": "#e3ecfa", "reconstructed": "#fdf1cc", "assumed": "#f9d9d9"}


def html_page(m: Matrix) -> str:
    e = html.escape
    legend = " ".join(f'<span class="{s}">{s}</span>' for s in STATUSES) + ' <span class="unmarked">no status</span>'
    if m.base is not None:
        legend += f' <span class="unmarked differs">differs from {e(m.base.name)}</span>'
    head = "".join(f'<th scope="col">{e(_heading(c))}</th>' for c in m.columns)
    body = []
    for side, row in zip(m.sides, m.rows, strict=True):
        cells = []
        for cell in row:
            status = cell.status or "unmarked"
            refs = "".join(f'<a href="#note-{n}">{n}</a>' for n in cell.notes)
            marks = f"<sup>{refs}</sup>" if refs else ""
            tip = "; ".join(m.notes[n - 1] for n in cell.notes) or "no source given"
            classes = status + (" differs" if cell.differs else "")
            cells.append(f'<td class="{classes}" title="{e(status)}: {e(tip)}">{e(cell.text)}{marks}</td>')
        body.append(f'<tr><th scope="row">{e(side.name)}<br><small>{e(side.title())}</small></th>{"".join(cells)}</tr>')
    notes = "\n".join(f'<li id="note-{i}">{e(note)}</li>' for i, note in enumerate(m.notes, 1))
    styles = "\n".join(f".{s} {{ background: {c}; }}" for s, c in COLOURS.items())
    base_line = (
        f"<p>Cells with a thick border say something else than {e(m.base.name)}'s.</p>\n" if m.base is not None else ""
    )
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
sup a {{ margin-left: 0.2em; font-size: 0.8em; color: #333; }}
.legend span {{ padding: 0.1em 0.5em; margin-right: 0.3em; border: 1px solid #999; }}
{styles}
.unmarked {{ background: #fff; }}
.differs {{ outline: 3px solid #333; outline-offset: -3px; font-weight: bold; }}
ol.notes {{ font-size: 0.85em; }}
</style>
</head>
<body>
<h1>Tarock rulesets: feature matrix</h1>
<p>Each ruleset as the interpreter plays it, with its default readings and options. A cell's
colour is the least certain status of the rules it shows; its numbers are its sources, listed
under the table.</p>
{base_line}<p class="legend">{legend}</p>
<table>
<thead><tr><th scope="col">Ruleset</th>{head}</tr></thead>
<tbody>
{chr(10).join(body)}
</tbody>
</table>
<h2>Sources</h2>
<ol class="notes">
{notes}
</ol>
</body>
</html>
"""


FORMATS: dict[str, Callable[[Matrix], str]] = {"markdown": markdown, "csv": csv_text, "html": html_page}


__all__ = ["COLUMNS", "Cell", "Matrix", "build", "csv_text", "html_page", "markdown"]
