"""Validation without gaps (issue 16, item 5): what a variant's file breaks through an inherited
option, calls nobody can say, and mistakes in text that every choice replaces."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.language.loader import check_ruleset


def _problems(tmp_path: Path, name: str, text: str) -> list[str]:
    file = tmp_path / f"{name}.yaml"
    file.write_text(text, encoding="utf-8")
    return [f"{p.line}:{p.column}: {p.path}: {p.message}" for p in check_ruleset(str(file))]


def test_an_announcement_removed_but_brought_back_in_part_by_an_inherited_option(tmp_path: Path) -> None:
    text = "title: No Ulti\nextends: furtwangen\nannouncements:\n  ulti: null\n"
    [problem] = _problems(tmp_path, "noulti", text)
    assert problem.startswith("4:3: announcements.ulti: removed here, but the option 'ulti_stake' of ")
    assert "furtwangen.yaml" in problem
    assert "sets announcements.ulti.value when 'half' is chosen" in problem
    assert "say `options: {ulti_stake: null}` here" in problem
    # Following the advice mends it.
    assert _problems(tmp_path, "noulti", text + "options:\n  ulti_stake: null\n") == []


def test_a_call_no_auction_phase_uses_is_reported_where_it_is_named(tmp_path: Path) -> None:
    text = "title: A call too many\nextends: furtwangen\ncalls:\n  bettel: {title: Bettel}\n"
    [problem] = _problems(tmp_path, "unused", text)
    assert problem.startswith("4:3: calls.bettel: the call 'bettel' is named here, but no auction phase uses it")


def test_calls_inherited_from_a_base_or_used_only_by_an_option_or_table_size_are_not_reported() -> None:
    # Furtwangen removes Breitnau's Stupfen and keeps its title (the base's, not Furtwangen's);
    # Oberwolfach's Einwerfen is a bid of the three-player table only.
    assert check_ruleset("furtwangen") == []
    assert check_ruleset("cego-oberwolfach") == []


@pytest.mark.parametrize("where", ["announcements", "options"])
def test_a_broken_expression_every_choice_replaces_is_reported_at_its_place(tmp_path: Path, where: str) -> None:
    good = "if card == T3 then {} else if card == T2 then {} else {}"
    broken = "if card == T3 then 10 else if card = T2 then 20 else 30"
    patches = [good.format(10, 20, 30), good.format(5, 10, 15)]
    if where == "options":  # the mistake in a choice's own patch, which the run with that choice compiles
        patches[1] = broken
    text = (
        "title: Broken\nextends: furtwangen\nannouncements:\n  ulti:\n"
        f'    value: "{broken if where == "announcements" else good.format(10, 20, 30)}"\n'
        "options:\n  ulti_stake:\n    question: Full or half?\n    default: full\n    choices:\n"
        f'      full: {{title: Full, rules: {{announcements: {{ulti: {{value: "{patches[0]}"}}}}}}}}\n'
        f'      half: {{title: Half, rules: {{announcements: {{ulti: {{value: "{patches[1]}"}}}}}}}}\n'
    )
    problems = _problems(tmp_path, "broken", text)
    assert len(problems) == 1, problems
    line = 5 if where == "announcements" else 12
    assert problems[0].startswith(f"{line}:") and "use '==' to compare" in problems[0]
