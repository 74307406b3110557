"""Words for the scholar's tools: every rule of every ruleset has a sentence of its own in
`tarock diff`, `doc` and `matrix` (diff.TEMPLATES), so that no rule shows as a raw mapping or
list; Königrufen, which brought most of the newer words, read in full."""

from __future__ import annotations

import re
from typing import Any

import pytest

from interpreter.ethnography.diff import compare, label_of, report, template_for, value_text
from interpreter.ethnography.docgen import _rule_paths, render
from interpreter.ethnography.matrix import build, markdown
from interpreter.ethnography.semantic import read
from interpreter.language.loader import ruleset_names

# Every key the language has has a sentence, or says why it has none, in its declaration:
# tests/test_keys.py checks that.


@pytest.mark.parametrize("name", ruleset_names())
def test_every_rule_of_every_ruleset_has_a_template(name: str) -> None:
    side = read(name)
    rules = {k: v for k, v in side.tree.items() if k not in ("readings", "options", "by_players", "deck")}
    unworded = [p for p in _rule_paths(rules, ()) if template_for(p) is None]
    assert unworded == [], f"{name}: no sentence for {unworded}"


def _outside_code(text: str) -> str:
    flat = re.sub(r"\n\s*", " ", text)  # a code span may be wrapped over lines
    return re.sub(r"`[^`]*`", "", flat)


def _raw(text: str) -> list[str]:
    """Brackets outside code spans (a mapping's or list's repr), with their surroundings."""
    outside = re.sub(r"\[\d+(,\d+)*\]", "", _outside_code(text))  # the matrix's note numbers
    return [outside[max(0, m.start() - 60) : m.end() + 30] for m in re.finditer(r"[\[\]{}]", outside)]


def test_the_rules_of_koenigrufen_read_without_raw_mappings_or_lists() -> None:
    text = render("koenigrufen")
    assert _raw(text) == []
    # The keys of the language are not what a player reads.
    for label in ("Call partner", "Out of play", "Talon to tricks", "Bonus factor", "Must announce", "May announce"):
        assert f"**{label}" not in text, label
    for raw in ("unnamed:", "own only when:", "to: declarer", "achieved:", "max:", "one of:"):
        assert raw not in text, raw
    assert "calls one of the kings; its holder is the secret partner" in text
    assert "**Bonuses count:** double" in text and "**Bonuses that count:** only Valat" in text
    assert "T1 (Pagat) only as the holder's last card of its suit" in text
    assert "when T1 (Pagat), T21 (Mond) and T22 (Sküs) fall in one trick, T1 (Pagat) wins it" in text
    assert "Kontra, Rekontra then Subkontra, each doubling by the other side (at most ×8)" in text
    assert "Driccolo: a contract" in text  # a contract of an option, by its title


@pytest.mark.parametrize("other", ["cego", "breitnau", "tapp-modern"])
def test_diff_with_koenigrufen_reads_without_raw_mappings_or_lists(other: str) -> None:
    a, b = read("koenigrufen"), read(other)
    changes = compare(a, b)
    assert _raw(report(changes, a, b)) == []
    assert [c.label for c in changes if c.rule == "other"] == []


def test_the_matrix_row_of_koenigrufen_reads_without_raw_mappings_or_lists() -> None:
    m = build([read("koenigrufen", effects=False)])
    row = markdown(m).splitlines()[2]
    assert _raw(row) == []
    bonuses = m.rows[0][m.columns.index("bonuses")].text
    assert bonuses.startswith("Trull (1, announced 2), Vier Könige (1, announced 2), Pagat ultimo (1, announced 2)")


def test_a_rule_of_an_option_reads_in_that_rule_s_words() -> None:
    side = read("koenigrufen")
    path = ("contracts", "trischaken", "play")
    assert label_of(path, _titles(side)) == "Trischaken rules of play"
    text = value_text(path, {"first_lead": "declarer", "must_beat": False})
    assert text == "the declarer leads to the first trick; no duty to beat the cards played"


def _titles(side: Any) -> Any:
    from interpreter.ethnography.diff import Titles

    return Titles(side)
