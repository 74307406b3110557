"""The language layer refuses hostile rulesets with a placed problem, and never with a traceback.

Each case here once came out as an "internal error", a hang, or a ruleset that passed `validate`
and then failed in play (issue 11); each now gives `file:line:col: path: message`. The YAML is
read by libyaml where PyYAML has it; the tests at the end check that it reads every document, and
places every mistake, exactly as PyYAML's own parser does.
"""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest
import yaml

from interpreter.errors import Problem, RuleError, RulesetError
from interpreter.language import source
from interpreter.language.compiler import AMOUNT_NAMES, Compiler, cited_sources
from interpreter.language.loader import check_ruleset, is_path_ref, load_ruleset
from interpreter.language.paths import rulesets_dir
from interpreter.language.source import load_yaml

ROOT = Path(__file__).resolve().parents[1]


def problems_of(tmp_path: Path, text: str, name: str = "variant.yaml") -> tuple[Path, list[Problem]]:
    file = tmp_path / name
    file.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return file, check_ruleset(str(file))


def one_problem(problems: list[Problem], needle: str) -> Problem:
    matching = [p for p in problems if needle in p.message]
    assert matching, f"no problem mentions {needle!r}; got:\n" + "\n".join(map(str, problems))
    return matching[0]


def placed(problem: Problem, file: Path, line: int, column: int, path: str) -> None:
    assert Path(problem.file).resolve() == file.resolve(), str(problem)
    assert (problem.line, problem.column, problem.path) == (line, column, path), str(problem)


# -- YAML values the safe constructors reject (issue 11, item 3) -----------------------------------


@pytest.mark.parametrize(
    "value, needle",
    [
        ("!!int abc", "cannot read 'abc' as !!int"),
        ("!!float abc", "cannot read 'abc' as !!float"),
        ("!!timestamp 2020-99-99", "cannot read '2020-99-99' as !!timestamp"),
        ("!!binary abc", "cannot read 'abc' as !!binary"),
        ("!!python/object:os.system x", "cannot read 'x' as !!python/object:os.system"),
        ("9" * 5000, "a number of 5,000 digits is too long to read"),
    ],
    ids=["int", "float", "timestamp", "binary", "python", "huge"],
)
def test_a_value_yaml_cannot_construct_is_a_placed_problem(tmp_path: Path, value: str, needle: str) -> None:
    file, problems = problems_of(tmp_path, f"extends: breitnau\ntitle: X\nnote: {value}\n")
    placed(one_problem(problems, needle), file, 3, 7, "note")


@pytest.mark.parametrize(
    "value, needle",
    [
        ("!!python/object:os.system {x: 1}", "the tag !!python/object:os.system on a mapping is not read here"),
        ("!!set {x}", "the tag !!set on a mapping is not read here"),
        ("!village [1, 2]", "the tag !village on a list is not read here"),
    ],
    ids=["python", "set", "local"],
)
def test_a_tag_on_a_list_or_mapping_is_a_placed_problem(tmp_path: Path, value: str, needle: str) -> None:
    """A list or mapping is read as one whatever its tag: a tag of its own would be dropped
    without a word (the mapping read as a plain one), so it is refused where it stands."""
    file, problems = problems_of(tmp_path, f"extends: breitnau\ntitle: X\nnote: {value}\n")
    placed(one_problem(problems, needle), file, 3, 7, "note")


def test_a_list_or_mapping_tagged_as_what_it_is_is_read() -> None:
    from interpreter.language.source import load_yaml

    assert load_yaml("a: !!map {x: 1}\nb: !!seq [1]\nc: ! [2]\n", "f").data == {"a": {"x": 1}, "b": [1], "c": [2]}


def test_a_tagged_key_is_a_placed_problem(tmp_path: Path) -> None:
    file, problems = problems_of(tmp_path, "extends: breitnau\nplay:\n  !!int abc: 1\n")
    placed(one_problem(problems, "cannot read 'abc' as !!int"), file, 3, 3, "play")


@pytest.mark.parametrize(
    "text",
    # Block style nests deeper by indenting, two thousand mappings so take 2 MB, more than a
    # ruleset file may have (paths.MAX_RULESET_BYTES): sequences nest on one line.
    ["a: " + "[" * 2000 + "]" * 2000, "a:\n  " + "- " * 2000 + "v\n"],
    ids=["flow", "block"],
)
def test_yaml_nested_two_thousand_deep_is_a_placed_problem(tmp_path: Path, text: str) -> None:
    file = tmp_path / "deep.yaml"
    file.write_text(text, encoding="utf-8")
    [problem] = check_ruleset(str(file))
    assert problem.message == "nested more than 100 levels deep; no ruleset or record needs that"
    assert problem.line is not None and problem.column is not None


def test_a_nul_byte_is_reported_with_line_and_column(tmp_path: Path) -> None:
    file, problems = problems_of(tmp_path, "extends: breitnau\ntitle: ab\x00c\n")
    [problem] = problems
    assert problem.message == "not valid YAML: unacceptable character #x0000 (special characters are not allowed)"
    placed(problem, file, 2, 10, "")


def test_text_that_is_not_utf8_is_reported_with_line_and_column(tmp_path: Path) -> None:
    file = tmp_path / "latin1.yaml"
    file.write_bytes("extends: breitnau\ntitle: Dappen (Schwärzenbach)\n".encode("latin-1"))
    [problem] = check_ruleset(str(file))
    assert problem.message.startswith("not UTF-8 text: the byte 0xe4 cannot be read")
    placed(problem, file, 2, 20, "")


def test_a_lone_surrogate_is_a_placed_problem(tmp_path: Path) -> None:
    file, problems = problems_of(tmp_path, 'extends: breitnau\ntitle: "x\\ud800"\n')
    placed(one_problem(problems, "holds a lone surrogate"), file, 2, 8, "title")


def test_an_alias_inside_its_own_value_is_a_placed_problem() -> None:
    with pytest.raises(RulesetError) as caught:
        load_yaml("a: &a {b: [*a]}\n", "loop.yaml")
    [problem] = caught.value.problems
    assert str(problem) == "loop.yaml:1:12: an alias inside the value it names goes round"


# -- formulas (issue 11, items 4 and 5) ------------------------------------------------------------


@pytest.mark.parametrize(
    "formula, column, message",
    [
        ("declarer_points // 0", 17, "division by zero"),
        ("declarer_points % 0", 17, "'%' by zero"),
        ("round_up(declarer_points, 0)", 27, "round_up() needs a positive step, got 0"),
        ("round_nearest(declarer_points, -10)", 32, "round_nearest() needs a positive step, got -10"),
        ("rank(lowest({}))", 6, "lowest() of an empty set of cards"),
        ("rank(highest({}))", 6, "highest() of an empty set of cards"),
        ("declarer_points * 99999999999999999999", 19, "this number is too large"),
    ],
)
def test_validate_refuses_a_formula_that_must_fail(tmp_path: Path, formula: str, column: int, message: str) -> None:
    file, problems = problems_of(tmp_path, f'extends: breitnau\ncontracts:\n  solo:\n    amount: "{formula}"\n')
    # The column of the failing part: the value starts at column 13, its text one further.
    placed(one_problem(problems, message), file, 4, 13 + column, "contracts.solo.amount")


def test_a_formula_that_fails_in_play_raises_rule_error_naming_its_place(tmp_path: Path) -> None:
    file = tmp_path / "variant.yaml"
    file.write_text(
        'extends: breitnau\ncontracts:\n  solo:\n    amount: "declarer_points // (declarer_tricks - 3)"\n',
        encoding="utf-8",
    )
    amount = load_ruleset(str(file)).contracts["solo"].amount
    assert amount is not None
    env = {**dict.fromkeys(AMOUNT_NAMES, 1), "declarer_points": 40, "declarer_tricks": 4}
    assert amount(env) == 40
    with pytest.raises(RuleError) as caught:
        amount({**env, "declarer_tricks": 3})
    where = Path(caught.value.place.file if caught.value.place else "").resolve()
    assert where == file.resolve()
    assert str(caught.value).endswith(
        ':4:13: contracts.solo.amount: division by zero in "declarer_points // (declarer_tricks - 3)"'
    )
    assert caught.value.column == 17


def test_a_formula_result_too_large_is_a_rule_error(tmp_path: Path) -> None:
    file = tmp_path / "variant.yaml"
    file.write_text(
        'extends: breitnau\ncontracts:\n  solo:\n    amount: "declarer_points * 9007199254740991"\n',
        encoding="utf-8",
    )
    amount = load_ruleset(str(file)).contracts["solo"].amount
    assert amount is not None
    with pytest.raises(RuleError, match="the result has 18 digits; a formula may give at most"):
        amount({**dict.fromkeys(AMOUNT_NAMES, 1), "declarer_points": 40})


NESTED = "any a in cards: any b in cards: any c in cards: any d in cards: any e in cards: a == e"


@pytest.mark.parametrize(
    "where, text",
    [
        ("deck.sets.odd", f'extends: breitnau\ndeck:\n  sets:\n    odd: "if {NESTED} then kings else queens"\n'),
        (
            "auction.phases.solo_round.ladder[0].requires",
            "extends: breitnau\nauction:\n  phases:\n    solo_round:\n"
            f'      ladder: [{{call: solo, requires: "{NESTED}"}}]\n',
        ),
    ],
    ids=["deck set", "bid"],
)
def test_expensive_expressions_are_refused_quickly_with_their_place(tmp_path: Path, where: str, text: str) -> None:
    started = time.perf_counter()
    file, problems = problems_of(tmp_path, text)
    assert time.perf_counter() - started < 10
    problem = one_problem(problems, "may look at up to 160,434 cards in one evaluation (at most 100,000)")
    assert Path(problem.file).resolve() == file.resolve()
    assert problem.path == where and problem.line is not None


def test_numbers_too_large_for_a_rule_are_refused(tmp_path: Path) -> None:
    started = time.perf_counter()
    file, problems = problems_of(
        tmp_path,
        """
        extends: breitnau
        deck:
          trumps: {count: 1000000000000}
        session: {deals: 100000000000000000000}
        """,
    )
    assert time.perf_counter() - started < 10
    placed(one_problem(problems, "a pack of 1,000,000,000,000 trumps? at most 1,000"), file, 3, 19, "deck.trumps.count")
    placed(one_problem(problems, "this number is too large for a rule"), file, 4, 18, "session.deals")


def test_non_finite_numbers_are_refused(tmp_path: Path) -> None:
    file, problems = problems_of(tmp_path, "extends: breitnau\ncounting:\n  packet: .inf\n  packet_deduct: .nan\n")
    placed(one_problem(problems, "got 'inf'"), file, 3, 11, "counting.packet")
    placed(one_problem(problems, "got 'nan'"), file, 4, 18, "counting.packet_deduct")


# -- the exchange's arithmetic (issue 11, item 8) --------------------------------------------------


def test_a_forced_discard_of_several_cards_is_refused(tmp_path: Path) -> None:
    # Counted as one card, this exchange adds up; with two trumps in the talon it would not.
    file, problems = problems_of(
        tmp_path,
        """
        extends: cego-ichenheim
        contracts:
          zwei_leere:
            exchange:
              - keep: {count: 2, from: "empty_cards", same_suit: true, exposed: true}
              - take_talon: {}
              - forced_discard: {cards: "taken & trumps", shown: true}
        """,
    )
    problem = one_problem(problems, "this set may hold up to 22 cards, but a forced discard lays away exactly one card")
    placed(problem, file, 7, 33, "contracts.zwei_leere.exchange[2].forced_discard.cards")


def test_a_forced_discard_of_at_most_one_card_passes() -> None:
    assert check_ruleset("cego-ichenheim") == []


def test_an_exchange_may_not_keep_more_cards_than_are_held(tmp_path: Path) -> None:
    file, problems = problems_of(
        tmp_path,
        """
        extends: cego-ichenheim
        contracts:
          zwei_leere:
            exchange:
              - keep: {count: 40, exposed: true}
              - discard: {count: 30}
        """,
    )
    problem = one_problem(problems, "with 3 players the declarer holds 13 cards at this step, so cannot keep 40")
    placed(problem, file, 5, 9, "contracts.zwei_leere.exchange[0]")


# -- names and citations (issue 11, item 12) --------------------------------------------------------


@pytest.mark.parametrize(
    "text, line, column, path, needle",
    [
        ('deck:\n  sets:\n    hand: "kings"\n', 4, 5, "deck.sets.hand", "'hand' is a value of the game"),
        ('deck:\n  sets:\n    taken: "kings"\n', 4, 5, "deck.sets.taken", "'taken' is a value of the game"),
        ('deck:\n  sets:\n    any: "kings"\n', 4, 5, "deck.sets.any", "'any' is a word of the rules' expressions"),
        ("deck:\n  rank_sets:\n    card: [K]\n", 4, 5, "deck.rank_sets.card", "'card' is a value of the game"),
    ],
)
def test_a_set_named_like_a_game_value_is_refused(
    tmp_path: Path, text: str, line: int, column: int, path: str, needle: str
) -> None:
    file, problems = problems_of(tmp_path, "extends: breitnau\n" + text)
    placed(one_problem(problems, needle), file, line, column, path)


@pytest.mark.parametrize(
    "citation, keys",
    [
        ("dappen-de §10; four players agree", ["dappen-de"]),
        ("dappen-en: Breitnau version; dappen-de §4 (reference)", ["dappen-en", "dappen-de"]),
        ("dappen-de §5; dappen-en: Furtwangen version", ["dappen-de", "dappen-en"]),
        ("cego-en: Players; Four player game", ["cego-en"]),
        ("dappen-de §10; the dealer, as usual, deals", ["dappen-de"]),
        ("dappen-de §10; dappen-en", ["dappen-de", "dappen-en"]),
        ("dappen-de §10; dappen-en, p. 3", ["dappen-de", "dappen-en"]),
        ("dappen-de §10; dapen-en: Breitnau", ["dappen-de", "dapen-en"]),
        ("dappen-de §10; dapen-en §3", ["dappen-de", "dapen-en"]),
        ("dapen-de §10", ["dapen-de"]),
        ("somewhere", ["somewhere"]),
        ("Somewhere", []),
    ],
)
def test_citations_are_told_from_prose(citation: str, keys: list[str]) -> None:
    assert cited_sources(citation, ["dappen-de", "dappen-en", "cego-en"]) == keys


def test_prose_after_a_semicolon_is_not_an_unknown_source(tmp_path: Path) -> None:
    file, problems = problems_of(
        tmp_path,
        """
        extends: breitnau
        play:
          source: "dappen-de §10; four players agree; dapen-en: Breitnau"
        """,
    )
    [problem] = problems
    assert problem.message.startswith("unknown source 'dapen-en'; did you mean 'dappen-en'?")
    placed(problem, file, 3, 11, "play.source")


# -- the class closed: whatever fails inside, the author gets a placed problem ------------------------


def test_a_fault_of_the_compiler_is_a_problem_at_the_part_it_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Compiler) -> object:
        raise ZeroDivisionError("a fault planted by the test")

    monkeypatch.setattr(Compiler, "compile_counting", broken)
    [problem] = check_ruleset("breitnau")
    assert problem.path == "counting" and problem.line is not None
    assert "ZeroDivisionError: a fault planted by the test" in problem.message
    assert "fault of the interpreter" in problem.message


def test_any_failure_reading_yaml_is_a_ruleset_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: object) -> object:
        raise MemoryError("planted")

    monkeypatch.setattr(source._Builder, "document", broken)
    with pytest.raises(RulesetError) as caught:
        load_yaml("a: 1\n", "x.yaml")
    assert str(caught.value) == "x.yaml: cannot read the YAML (MemoryError: planted)"


def test_is_path_ref() -> None:
    assert not is_path_ref("breitnau")
    assert all(is_path_ref(ref) for ref in ("my/variant", "variant.yaml", "variant.yml", "c:\\v", "./breitnau"))


# -- libyaml reads as PyYAML does ------------------------------------------------------------------


def _as_read(text: str, monkeypatch: pytest.MonkeyPatch, fast: bool) -> object:
    monkeypatch.setattr(source, "_FAST_LOADER", getattr(yaml, "CSafeLoader", None) if fast else None)
    try:
        doc = load_yaml(text, "f.yaml")
    except RulesetError as exc:
        return [str(p) for p in exc.problems]
    return repr(doc.data), doc.marks, doc.key_marks


needs_libyaml = pytest.mark.skipif(not getattr(yaml, "__with_libyaml__", False), reason="PyYAML without libyaml")


@needs_libyaml
def test_libyaml_and_pyyaml_read_every_shipped_document_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every ruleset, and every tenth record (PyYAML's own parser is the slow part of this test).
    files = sorted(rulesets_dir().glob("*.yaml")) + sorted((ROOT / "tests" / "records").glob("*.yaml"))[::10]
    assert len(files) > 20
    for file in files:
        text = file.read_text(encoding="utf-8")
        assert _as_read(text, monkeypatch, True) == _as_read(text, monkeypatch, False), file


@needs_libyaml
@pytest.mark.parametrize(
    "text",
    [
        "a: 1\n\tb: 2\n",
        "a: [1, 2\n",
        "a: 'x\n",
        "a: 1\na: 2\n",
        "- a\nb: 1\n",
        "a: *y\n",
        "a: &x 1\nb: &x 2\n",
        "---\na: 1\n---\nb: 2\n",
        "a: &x [1, 2]\nb: *x\n",
        "key: value\n  bad: indent\n",
        "a:\n  - b: |\n      text\n      more\n    c: >\n      folded\n",
        "a: 1\r\nb: [\r\n",
        "a: @x\n",
        "[a, b]: 1\n",
        "<<: {a: 1}\n",
        "a: \x00\n",
        'a: "\\ud800"\n',
        "\ufeffa: ü\n",
        "a: !!int abc\n",
    ],
    ids=repr,
)
def test_libyaml_and_pyyaml_place_every_mistake_alike(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _as_read(text, monkeypatch, True) == _as_read(text, monkeypatch, False)
