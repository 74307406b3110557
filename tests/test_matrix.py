"""`tarock matrix`: one row per ruleset, one column per concept, in short words with numbered
sources, in Markdown, CSV and HTML; and `tarock tree`: the family pictures, as SVG and outlines."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from interpreter.ethnography import trees
from interpreter.ethnography.matrix import COLUMNS, Matrix, build, csv_text, html_page, markdown
from interpreter.ethnography.semantic import STATUSES, read
from interpreter.frontends.cli import main
from interpreter.language.loader import find_ruleset_file, ruleset_names

ROOT = Path(__file__).parent.parent
NAMES = ruleset_names()


@pytest.fixture(scope="module")
def everything() -> Matrix:
    """The matrix of every playable ruleset, built once."""
    return build([read(n, effects=False) for n in NAMES])


def tarock(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


CONCEPTS = [
    "players",
    "pack",
    "cards removed",
    "deal",
    "talon",
    "contracts",
    "holds and overcalls",
    "compulsory bids",
    "discarding",
    "special cards",
    "play constraints",
    "showing the hand",
    "counting",
    "multipliers",
    "settlement",
    "announcements",
    "readings",
    "options",
]


def test_one_column_per_concept() -> None:
    assert [name for name, _ in COLUMNS] == CONCEPTS


def test_cells_are_short_words(everything: Matrix) -> None:
    for side, row in zip(everything.sides, everything.rows, strict=True):
        for column, cell in zip(everything.columns, row, strict=True):
            assert "`" not in cell.text, (side.name, column)
            assert "{'" not in cell.text and "[{" not in cell.text and "': " not in cell.text, (side.name, column)


def test_markdown_covers_every_ruleset_with_numbered_sources(everything: Matrix) -> None:
    text = markdown(everything)
    lines = text.splitlines()
    assert lines[0].startswith("| ruleset | Players | Pack |") and set(lines[1]) <= set("|- ")
    rows = lines[2 : 2 + len(NAMES)]
    for name, row in zip(NAMES, rows, strict=True):
        assert row.startswith(f"| **{name}** (")
        assert row.count(" | ") == lines[0].count(" | ")  # no unescaped | inside a cell
    notes = lines[lines.index("Sources (the numbers in brackets):") + 2 :]
    assert len(notes) == len(everything.notes) and notes[0].startswith("1. ")
    assert "[1]" in rows[0]  # breitnau's players cite the first source


def test_breitnau_row_says_what_the_ruleset_says() -> None:
    m = build([read("breitnau", effects=False)])
    row = dict(zip(m.columns, (c.text for c in m.rows[0]), strict=True))
    assert row["players"] == "6 or 7 (at 8 the dealer sits out)"
    assert row["pack"] == "Cego pack: 54 cards, 22 trumps"
    assert row["deal"] == "6: 4-T6-3-T6; 7: 3-T6-3-T6"
    assert row["talon"] == "12"
    assert row["contracts"] == "Solo, Dappen, Strecken, Stupfen"
    assert row["holds and overcalls"] == (
        "Solo round: solo; Dappen round: dappen < strecken < stupfen, held with selber, at most 2 bidders"
    )
    assert row["compulsory bids"] == "none"
    assert (
        row["discarding"] == "discards 12 cards, not a card for which card in five_pointers (Dappen, Strecken, Stupfen)"
    )
    assert row["special cards"] == "T1 Geiß, T21 Mund, T22 Gstieß"
    assert row["play constraints"] == "must follow suit, must trump when void, the lone player leads"
    assert row["multipliers"] == "Solo won ×1, lost ×2, Dappen ×1, Strecken ×2, Stupfen ×3"
    assert row["counting"].startswith("in pairs, 1 off each, 1 off the odd cards (79 points with 6 players; with 7")
    assert row["announcements"] == "none"
    assert (
        row["readings"]
        == "solo_factor: leaflet (default) / english; stupfen_factor: factor_list (default) / worked_example"
    )
    statuses = dict(zip(m.columns, (c.status for c in m.rows[0]), strict=True))
    assert statuses["pack"] == "attested"
    assert statuses["holds and overcalls"] == "assumed"  # at most two bidders is assumed
    assert statuses["multipliers"] == "reported"


def test_cells_that_differ_from_a_base_are_marked() -> None:
    m = build(
        [read("breitnau", effects=False), read("furtwangen", effects=False)], base=read("breitnau", effects=False)
    )
    breitnau, furtwangen = (dict(zip(m.columns, row, strict=True)) for row in m.rows)
    assert not any(cell.differs for cell in breitnau.values())
    assert furtwangen["multipliers"].differs and furtwangen["announcements"].differs
    assert not furtwangen["pack"].differs and not furtwangen["talon"].differs
    assert f"**{furtwangen['multipliers'].text}**" in markdown(m)
    assert "Cells in bold say something else than breitnau's." in markdown(m)
    # A base not among the names comes first.
    m = build([read("furtwangen", effects=False)], base=read("breitnau", effects=False))
    assert [s.name for s in m.sides] == ["breitnau", "furtwangen"]


def test_a_variant_with_a_compulsory_bid(tmp_path: Path) -> None:
    file = tmp_path / "variant.yaml"
    file.write_text(
        f"""title: Variant
extends: {find_ruleset_file("breitnau")}
auction:
  phases:
    dappen_round:
      compulsory:
        last: {{when: "position == speakers - 1", call: dappen}}
""",
        encoding="utf-8",
    )
    m = build([read("breitnau", effects=False), read(str(file), effects=False)])
    assert m.rows[1][m.columns.index("compulsory bids")].text == "Dappen round: dappen when position == speakers - 1"


def test_other_rules_get_columns_of_their_own(everything: Matrix) -> None:
    assert {"penalties", "session", "accusing a skinned solo"} <= set(everything.columns)
    row = dict(zip(everything.columns, everything.rows[NAMES.index("cego")], strict=True))
    assert row["session"].text == (
        "dealt by the next seat in the order of play; on request, once the holder of T22 in the next deal has "
        "dealt; pflicht_raeuber: at a signal, 1 round (one deal by each player in each), its deals with "
        "pflicht_raeuber = compulsory; every deal after it with pflicht_raeuber = after"
    )


def test_csv(everything: Matrix) -> None:
    rows = list(csv.reader(io.StringIO(csv_text(everything))))
    header = rows[0]
    assert header[:2] == ["ruleset", "title"] and "talon" in header and "talon status" in header
    assert "talon sources" in header
    assert [r[0] for r in rows[1:]] == NAMES
    assert all(len(r) == len(header) for r in rows)
    for row in rows[1:]:
        for status in row[header.index("players status") : header.index("players sources")]:
            assert status in STATUSES or status == ""


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.classes: list[str] = []
        self.links: list[str] = []
        self.refs: list[str] = []
        self.ids: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "td":
            self.classes.append(found.get("class") or "")
        if tag in ("link", "script", "img"):
            self.links.append(tag)
        if tag == "a" and found.get("href"):
            self.refs.append(str(found["href"]))
        if found.get("id"):
            self.ids.append(str(found["id"]))
        if tag not in ("meta", "br"):
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
        self.open.pop()


def test_html_is_standalone_and_marks_provenance(
    everything: Matrix, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = html_page(everything)
    assert text.startswith("<!DOCTYPE html>") and "</html>" in text
    page = _Page()
    page.feed(text)
    assert page.open == []  # every element closed, in order
    assert page.links == []  # nothing to fetch: one file
    assert len(page.classes) == len(NAMES) * len(everything.columns)
    assert {c.split()[0] for c in page.classes} <= set(STATUSES) | {"unmarked"}
    assert {ref.removeprefix("#") for ref in page.refs} <= set(page.ids)  # every note number leads to its note
    assert len([i for i in page.ids if i.startswith("note-")]) == len(everything.notes)
    for status in STATUSES:
        assert f'class="{status}"' in text  # the legend names every status
    assert 'title="assumed: ' in text  # Breitnau's bidder limit
    out = tmp_path / "matrix.html"
    assert tarock(capsys, "matrix", "breitnau", "--format", "html", "-o", str(out)) == (0, "", "")
    assert out.read_text(encoding="utf-8") == html_page(build([read("breitnau", effects=False)]))


@pytest.mark.skipif(not (shutil.which("chromium") or shutil.which("chromium-browser")), reason="no chromium here")
def test_html_renders_in_a_browser(everything: Matrix, tmp_path: Path) -> None:
    page = tmp_path / "matrix.html"
    page.write_text(html_page(everything), encoding="utf-8")
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    dom = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=60
    )
    assert dom.returncode == 0 and dom.stdout.count("<tr>") == len(NAMES) + 1


def test_matrix_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = tarock(capsys, "matrix", "breitnau")
    assert status == 0 and out.splitlines()[2].startswith("| **breitnau** (")
    status, out, _ = tarock(capsys, "matrix", "furtwangen", "--base", "breitnau", "--format", "csv")
    assert status == 0 and out.splitlines()[0].endswith(",differs from breitnau")
    assert [r[0] for r in csv.reader(io.StringIO(out))][1:] == ["breitnau", "furtwangen"]
    status, _, err = tarock(capsys, "matrix", "breitnau", "atlantis")
    assert status == 2 and "no ruleset named 'atlantis'" in err
    status, _, err = tarock(capsys, "matrix", "breitnau", "-o", str(tmp_path))  # a directory
    assert status == 2 and err.startswith("tarock: cannot write") and "Traceback" not in err


# -- tarock tree -----------------------------------------------------------------------------------


def test_the_family_tree_of_extends() -> None:
    fam = trees.family()
    assert fam.parents["schollach"] == ["furtwangen"] and fam.parents["cego-pack"] == []
    assert fam.bases == {"cego-pack", "french-pack"}
    outline = trees.family_outline(fam).splitlines()
    assert outline[0] == "cego-pack: Cego pack (54 cards) (base)"
    assert "      schollach: Dappen (Schollach)" in outline  # under furtwangen, under breitnau
    assert "  tapp-wuerttemberg: Württemberg Tarock" in outline


def test_the_tree_of_shared_rules_is_built_from_the_diff() -> None:
    sides = [read(n, effects=False) for n in ("breitnau", "furtwangen", "schollach", "tapp")]
    dist = trees.distances(sides)
    assert dist[("furtwangen", "schollach")] < dist[("breitnau", "furtwangen")] < dist[("breitnau", "tapp")]
    root = trees.cluster([s.name for s in sides], dist)
    assert ("tapp",) in [p.members for p in root.parts]  # Tapp joins last

    def joints(c: trees.Cluster) -> list[trees.Cluster]:
        return [c, *(j for p in c.parts for j in joints(p))] if c.parts else []

    first = min(joints(root), key=lambda c: c.height)
    assert set(first.members) == {"furtwangen", "schollach"} and first.height == dist[("furtwangen", "schollach")]
    assert root.height == (dist[("breitnau", "tapp")] + dist[("furtwangen", "tapp")] + dist[("schollach", "tapp")]) / 3


def _svg(text: str) -> ET.Element:
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def test_the_pictures_are_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "family.svg"
    assert tarock(capsys, "tree", "-o", str(out)) == (0, "", "")
    svg = _svg(out.read_text(encoding="utf-8"))
    words = " ".join(t.text or "" for t in svg.iter("{http://www.w3.org/2000/svg}text"))
    assert "schollach" in words and "Dappen (Schollach)" in words  # text stays text
    status, text, _ = tarock(capsys, "tree", "--by", "shared", "breitnau", "furtwangen", "tapp")
    words = " ".join(t.text or "" for t in _svg(text).iter("{http://www.w3.org/2000/svg}text"))
    assert status == 0 and "furtwangen" in words and "rules that differ" in words
    assert tarock(capsys, "tree", "--by", "shared", "breitnau", "furtwangen", "tapp")[1] == text  # the same every time


def test_without_matplotlib_the_tree_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # importing it fails
    status, out, err = tarock(capsys, "tree")
    assert status == 2 and out == ""
    assert 'pip install "tarock[pictures]"' in err and "--format text" in err
    status, out, _ = tarock(capsys, "tree", "--format", "text")
    assert status == 0 and out.startswith("cego-pack:")
    status, _, err = tarock(capsys, "tree", "atlantis", "--format", "text")
    assert status == 2 and "no ruleset named 'atlantis'" in err
