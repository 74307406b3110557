"""`tarock matrix`: one row per ruleset, one column per feature, in Markdown, CSV and HTML."""

import csv
import io
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from interpreter.ethnography.matrix import COLUMNS, build, csv_text, html_page, markdown
from interpreter.ethnography.semantic import STATUSES, read
from interpreter.language.loader import find_ruleset_file, ruleset_names

ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="module")
def everything():
    """The matrix of every playable ruleset, built once."""
    return build([read(n) for n in ruleset_names()])


FEATURES = [
    "players",
    "pack",
    "deal",
    "talon",
    "contracts",
    "holds and overcalls",
    "compulsory bids",
    "special cards and play constraints",
    "counting",
    "multipliers",
    "announcements",
]


def tarock(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "interpreter", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_the_issue_s_features_are_columns() -> None:
    names = [name for name, _ in COLUMNS]
    for feature in FEATURES:
        assert feature in names


def test_markdown_covers_every_ruleset(everything) -> None:
    lines = markdown(everything).splitlines()
    assert lines[0].startswith("| ruleset | Players | Pack |") and set(lines[1]) <= set("|- ")
    rows = lines[2:]
    assert len(rows) == len(ruleset_names())
    for name, row in zip(ruleset_names(), rows, strict=False):
        assert row.startswith(f"| **{name}** (")
        assert row.count(" | ") == lines[0].count(" | ")  # no unescaped | inside a cell


def test_the_command_prints_the_same_table(everything) -> None:
    out = tarock("matrix")
    assert out.returncode == 0, out.stderr
    assert out.stdout == markdown(everything)


def test_breitnau_row_says_what_the_ruleset_says() -> None:
    m = build([read("breitnau")])
    row = dict(zip(m.columns, (c.text for c in m.rows[0]), strict=False))
    assert row["players"] == "6 or 7 (at 8 the dealer sits out)"
    assert row["pack"] == "Cego pack: 54 cards, 22 trumps"
    assert row["deal"] == "6: 4-T6-3-T6; 7: 3-T6-3-T6"
    assert row["talon"] == "12"
    assert row["contracts"] == "Solo (no exchange), Dappen, Strecken, Stupfen"
    assert (
        "Dappen round: dappen < strecken < stupfen, held with selber, at most 2 bidders" in row["holds and overcalls"]
    )
    assert row["compulsory bids"] == "none"
    assert row["multipliers"] == "Solo won ×1, lost ×2, Dappen ×1, Strecken ×2, Stupfen ×3"
    assert row["counting"].startswith("in pairs, 1 off each, 1 off the odd cards")
    assert "must follow suit" in row["special cards and play constraints"]
    assert row["announcements"] == "none"
    statuses = dict(zip(m.columns, (c.status for c in m.rows[0]), strict=False))
    assert statuses["pack"] == "attested"
    assert statuses["holds and overcalls"] == "assumed"  # at most two bidders is assumed
    assert statuses["multipliers"] == "reported"


def test_a_variant_with_a_compulsory_bid_and_a_new_section(tmp_path: Path) -> None:
    # A section the language does not have yet gets a column of its own.
    file = tmp_path / "future.yaml"
    file.write_text(
        f"""title: Future
extends: {find_ruleset_file("breitnau")}
auction:
  phases:
    dappen_round:
      compulsory:
        last: {{when: "position == speakers - 1", call: dappen}}
house_rules:
  beer: {{pays_each: 10}}
""",
        encoding="utf-8",
    )
    m = build([read("breitnau"), read(str(file))])
    assert m.columns[-1] == "house rules"
    assert m.rows[0][-1].text == "—"
    assert "pays_each: 10" in m.rows[1][-1].text
    compulsory = m.rows[1][m.columns.index("compulsory bids")].text
    assert compulsory == "Dappen round: dappen when `position == speakers - 1`"


def test_csv(everything) -> None:
    rows = list(csv.reader(io.StringIO(csv_text(everything))))
    header = rows[0]
    assert header[:2] == ["ruleset", "title"] and "talon" in header and "talon status" in header
    assert [r[0] for r in rows[1:]] == ruleset_names()
    assert all(len(r) == len(header) for r in rows)
    for row in rows[1:]:
        for status in row[header.index("players status") :]:
            assert status in STATUSES or status == ""
    out = tarock("matrix", "breitnau", "--format", "csv")
    assert out.returncode == 0 and out.stdout.startswith("ruleset,title,players,")


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.classes: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "td":
            self.classes.append(attrs.get("class"))
        if tag in ("link", "script", "img"):
            self.links.append(tag)


def test_html_is_standalone_and_marks_provenance(everything, tmp_path: Path) -> None:
    text = html_page(everything)
    assert text.startswith("<!DOCTYPE html>") and "</html>" in text
    parser = _Cells()
    parser.feed(text)
    assert parser.links == []  # nothing to fetch: one file
    assert len(parser.classes) == len(ruleset_names()) * len(everything.columns)
    assert set(parser.classes) <= set(STATUSES) | {"unmarked"}
    for status in STATUSES:
        assert f'class="{status}"' in text  # the legend names every status
    assert 'class="assumed" title="assumed: ' in text  # Breitnau's bidder limit
    page = tmp_path / "matrix.html"
    out = tarock("matrix", "breitnau", "--format", "html", "-o", str(page))
    assert out.returncode == 0 and out.stdout == ""
    assert page.read_text(encoding="utf-8") == html_page(build([read("breitnau")]))


def test_matrix_of_named_rulesets_and_unknown_names() -> None:
    out = tarock("matrix", "breitnau")
    assert out.returncode == 0 and len(out.stdout.splitlines()) == 3
    bad = tarock("matrix", "breitnau", "atlantis")
    assert bad.returncode == 2 and "no ruleset named 'atlantis'" in bad.stderr


def test_formats_agree(everything) -> None:
    m = everything
    md, table, page = markdown(m), csv_text(m), html_page(m)
    for side in m.sides:
        assert f"**{side.name}**" in md and side.name in table and side.name in page
