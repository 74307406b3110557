"""Tests of the rule DSL (interpreter.language.dsl): values, names, and error messages with columns."""

from __future__ import annotations

import pickle
import time

import pytest

from interpreter.errors import Place, RuleError
from interpreter.language.dsl import DslError, Expression, Scope, Type, compile_expression
from interpreter.language.dsl.compiler import MAX_NUMBER

# -- a Scope for the 54-card Cego pack -----------------------------------------

SUITS = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
BLACK_FACES = ["7", "8", "9", "10", "J", "N", "Q", "K"]  # low to high
RED_FACES = ["4", "3", "2", "A", "J", "N", "Q", "K"]
FACE_POINTS = {"K": 5, "Q": 4, "N": 3, "J": 2}
FACE_SETS = {"K": "kings", "Q": "queens", "N": "knights", "J": "jacks"}


def cego_scope(variables: dict[str, Type] | None = None) -> Scope:
    rank: dict[str, int] = {}
    points: dict[str, int] = {}
    sets: dict[str, set[str]] = {name: set() for name in ["trumps", *FACE_SETS.values(), *SUITS.values()]}
    for number in range(1, 23):
        card = f"T{number}"
        rank[card] = number
        points[card] = 5 if number in (1, 21, 22) else 1
        sets["trumps"].add(card)
    for suit, suit_name in SUITS.items():
        faces = BLACK_FACES if suit in "CS" else RED_FACES
        for position, face in enumerate(faces, start=1):
            card = suit + face
            rank[card] = position
            points[card] = FACE_POINTS.get(face, 1)
            sets[suit_name].add(card)
            if face in FACE_SETS:
                sets[FACE_SETS[face]].add(card)
    sets["five_pointers"] = {"T1", "T21", "T22"} | sets["kings"]
    sets["cards"] = set(rank)
    constants: dict[str, tuple[Type, object]] = {card: (Type.CARD, card) for card in rank}
    constants.update({name: (Type.CARDS, frozenset(cards)) for name, cards in sets.items()})
    if variables is None:
        variables = {"hand": Type.CARDS, "position": Type.INT, "bid_made": Type.BOOL, "loser_points": Type.INT}
    return Scope(constants=constants, variables=variables, card_rank=rank, card_points=points)


SCOPE = cego_scope()


def hand(*cards: str) -> dict[str, object]:
    return {"hand": frozenset(cards), "position": 1, "bid_made": False, "loser_points": 0}


def value(text: str, env: dict[str, object] | None = None, scope: Scope = SCOPE) -> object:
    return compile_expression(text, scope)(env if env is not None else hand())


def error(text: str, scope: Scope = SCOPE, expect: Type | None = None) -> DslError:
    with pytest.raises(DslError) as info:
        compile_expression(text, scope, expect)
    return info.value


def test_cego_scope_is_the_54_card_pack() -> None:
    assert len(SCOPE.card_rank) == 54
    assert value("count(cards)") == 54
    assert value("count(five_pointers)") == 7
    assert value("count(clubs | spades | hearts | diamonds) + count(trumps)") == 54


# -- the Furtwangen stop rule --------------------------------------------------

STOP_RULE = "any t in hand & trumps: count(hand & trumps) - 1 >= 22 - rank(t)"


@pytest.mark.parametrize(
    "cards, must_bid",
    [
        (["T22"], True),
        (["T21", "T2"], True),
        (["T21"], False),
        (["T20", "T5", "T3"], True),
        (["T20", "T5"], False),
        (["T19", "T1", "T2", "T3"], True),
        (["T18", "T1", "T2", "T3"], False),
        (["CK", "HQ", "D4", "S7", "HA"], False),
        ([], False),
        (["T21", "CK", "HK"], False),  # suit cards are not "other trumps"
        (["T21", "CK", "T1"], True),
    ],
)
def test_furtwangen_stop_rule(cards: list[str], must_bid: bool) -> None:
    rule = compile_expression(STOP_RULE, SCOPE, expect=Type.BOOL)
    assert rule.type is Type.BOOL
    assert rule.names == frozenset({"hand"})
    assert rule(hand(*cards)) is must_bid


# -- values --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("7 // 2", 3),
        ("-7 // 2", -4),
        ("7 % 3", 1),
        ("10 - 3 - 2", 5),
        ("- -3", 3),
        ("2 * -3", -6),
        ("round_up((40 - 36) * 2, 10)", 10),
        ("round_up(10, 10)", 10),
        ("round_up(-15, 10)", -10),
        ("round_up(0, 10)", 0),
        ("round_down(19, 10)", 10),
        ("round_down(-15, 10)", -20),
        ("round_nearest(25, 10)", 30),
        ("round_nearest(24, 10)", 20),
        ("round_nearest(2, 5)", 0),
        ("round_nearest(3, 5)", 5),
        ("round_nearest(-25, 10)", -20),
        ("round_nearest(-26, 10)", -30),
        ("min(3, 1, 2)", 1),
        ("max(3, 1, 2)", 3),
        ("min(4)", 4),
        ("abs(-4)", 4),
        ("rank(T22)", 22),
        ("rank(CK)", 8),
        ("rank(H4)", 1),
        ("rank(C7)", 1),
        ("points(T1)", 5),
        ("points(T2)", 1),
        ("points(HN)", 3),
        ("points(kings)", 20),
        ("points({})", 0),
        ("count({})", 0),
        ("count({T1, T1, T2})", 2),
        ("highest(trumps)", "T22"),
        ("lowest(trumps)", "T1"),
        ("highest({C10, CJ, C7})", "CJ"),
        ("lowest(clubs)", "C7"),
        ("highest(kings)", "CK"),  # equal ranks: the alphabetically first id
        ("lowest(kings)", "CK"),
        ('"text"', "text"),
        ('"say \\"hi\\""', 'say "hi"'),
        ("true", True),
        ("not true", False),
        ("true and false", False),
        ("false or true", True),
        ("not false and false", False),  # not binds tighter than and
        ("not 1 == 2", True),  # but looser than comparisons
        ("true or true and false", True),  # and binds tighter than or
        ("1 < 2", True),
        ("2 <= 2", True),
        ("3 > 4", False),
        ("3 >= 4", False),
        ("1 == 1", True),
        ("1 != 1", False),
        ('"a" == "a"', True),
        ("T22 == T22", True),
        ("T22 != T21", True),
        ("{T1, T2} == {T2, T1}", True),
        ("1 + 1 == 2", True),  # arithmetic binds tighter than comparison
        ("T22 in {T21, T22}", True),
        ("T20 in {T21, T22}", False),
        ("T20 not in {T21, T22}", True),
        ("{T21, T22} in trumps", True),  # subset
        ("{T21, CK} in trumps", False),
        ("{T21, CK} not in trumps", True),
        ("{} in trumps", True),
        ("count(trumps | kings)", 26),
        ("count(five_pointers & trumps)", 3),
        ("count(five_pointers - trumps)", 4),
        ("count(trumps + kings)", 26),
        ("count(trumps | kings & trumps)", 22),  # & binds tighter than |
        ("count(kings - {CK} | {CK})", 4),  # - binds tighter than |
        ("if true then 1 else 2", 1),
        ("if 1 > 2 then 1 else 2", 2),
        ("if false then 1 else if true then 2 else 3", 2),
        ("if true then T22 else T21", "T22"),
        ("all t in kings: points(t) == 5", True),
        ("all t in {}: false", True),
        ("any t in {}: true", False),
        ("any t in trumps: any u in kings: rank(t) == rank(u)", True),
        ("all t in kings: any u in queens: rank(u) == rank(t) - 1", True),
        ("not any t in kings: t in trumps", True),
        ("true and any t in kings: t == HK", True),
        ("false or all t in kings: t in {CK, SK} or t in {HK, DK}", True),
        ("(any t in kings: t == HK) and false", False),
    ],
)
def test_values(text: str, expected: object) -> None:
    assert value(text) == expected


def test_cego_points_total() -> None:
    # Trumps: 3 x 5 + 19 x 1; each suit: K Q N J = 14 plus four 1-pointers.
    assert value("points(cards)") == 15 + 19 + 4 * 18


def test_result_types_and_run_time_values() -> None:
    cases = {
        "1": (Type.INT, int),
        "true": (Type.BOOL, bool),
        "T22": (Type.CARD, str),
        "kings": (Type.CARDS, frozenset),
        "{T1}": (Type.CARDS, frozenset),
        "hand & trumps": (Type.CARDS, frozenset),
        '"x"': (Type.STR, str),
    }
    for text, (type_, python_type) in cases.items():
        expression = compile_expression(text, SCOPE)
        assert expression.type is type_, text
        assert type(expression(hand("T1"))) is python_type, text


def test_variables_are_read_from_env() -> None:
    env = {"hand": frozenset({"T22", "CK"}), "position": 3, "bid_made": True, "loser_points": 37}
    assert value("position * 10 + loser_points", env) == 67
    assert value("bid_made and position == 3", env) is True
    assert value("count(hand & five_pointers)", env) == 2


def test_holds() -> None:
    expression = compile_expression("holds(T22)", SCOPE, expect=Type.BOOL)
    assert expression.names == frozenset({"hand"})
    assert expression(hand("T22", "CK")) is True
    assert expression(hand("T21", "CK")) is False
    assert value("holds(T21) and not holds(T22)", hand("T21")) is True


def test_holds_needs_hand() -> None:
    scope = cego_scope({"position": Type.INT})
    err = error("position > 1 and holds(T22)", scope)
    assert (err.column, err.message) == (18, "holds() needs 'hand', which is not known here")


def test_set_literal_membership() -> None:
    expression = compile_expression("highest(hand) in {T21, T22, highest(trumps)}", SCOPE)
    assert expression(hand("T22", "T3")) is True
    assert expression(hand("T20", "T3")) is False


def test_names_lists_only_variables() -> None:
    expression = compile_expression(
        "if bid_made then loser_points + count(hand & trumps) else position + count(kings)", SCOPE
    )
    assert expression.names == frozenset({"bid_made", "loser_points", "hand", "position"})
    assert compile_expression("any t in trumps: t in kings", SCOPE).names == frozenset()
    assert compile_expression("count(kings) + rank(T22)", SCOPE).names == frozenset()


def test_if_then_else() -> None:
    expression = compile_expression("if bid_made then loser_points * 2 else loser_points", SCOPE, Type.INT)
    assert expression({"bid_made": True, "loser_points": 10}) == 20
    assert expression({"bid_made": False, "loser_points": 10}) == 10
    # "else" extends to the right, like a lambda body.
    assert value("if false then 1 else 2 + 3") == 5


def test_quantifier_extends_right_and_parentheses_limit_it() -> None:
    env = hand("T22")
    # Without parentheses "and false" belongs to the body: any t: (t == T22 and false).
    assert value("any t in hand: t == T22 and false", env) is False
    assert value("(any t in hand: t == T22) or true", env) is True
    assert value("any t in hand: t == T22 or true", hand()) is False


def test_quantifier_does_not_touch_callers_env() -> None:
    env = hand("T22", "T21")
    assert value("all t in hand: t in trumps", env) is True
    assert "t" not in env


@pytest.mark.parametrize(
    "text, column, message",
    [
        ("position // 0", 10, "division by zero"),
        ("position % 0", 10, "'%' by zero"),
        ("position // (3 - 3)", 10, "division by zero"),
        ("round_up(position, 0)", 20, "round_up() needs a positive step, got 0"),
        ("round_down(position, -5)", 22, "round_down() needs a positive step, got -5"),
        ("round_nearest(position, 2 - 2)", 25, "round_nearest() needs a positive step, got 0"),
        ("rank(lowest({}))", 6, "lowest() of an empty set of cards"),
        ("rank(highest(kings & trumps))", 6, "highest() of an empty set of cards"),
        # A failure written down is a mistake even where a condition might skip it.
        ("if position > 5 then 1 // 0 else 2", 24, "division by zero"),
    ],
)
def test_formulas_that_must_fail_are_refused_when_compiled(text: str, column: int, message: str) -> None:
    err = error(text)
    assert (err.column, err.message) == (column, message)


def test_constant_subexpressions_are_folded() -> None:
    expression = compile_expression("if position > 5 then 7 // 2 else round_up(25, 10)", SCOPE)
    assert expression({"position": 1}) == 30
    assert expression({"position": 6}) == 3


@pytest.mark.parametrize(
    "text, column, message",
    [
        ("highest(hand)", 1, "highest() of an empty set of cards"),
        ("lowest(hand & trumps)", 1, "lowest() of an empty set of cards"),
        ("round_up(position, loser_points)", 1, "round_up() needs a positive step, got 0"),
        ("position % loser_points", 10, "'%' by zero"),
        ("1 + position // loser_points", 14, "division by zero"),
    ],
)
def test_run_time_failures_are_rule_errors_naming_the_formula(text: str, column: int, message: str) -> None:
    expression = compile_expression(text, SCOPE)
    with pytest.raises(RuleError) as info:
        expression(hand())
    assert (info.value.reason, info.value.column, info.value.expression) == (message, column, text)
    assert str(info.value) == f'{message} in "{text}"'
    assert info.value.place is None  # compiled outside a ruleset


def test_rule_error_names_where_the_formula_is_written() -> None:
    place = Place("rulesets/x.yaml", 39, 23, "contracts.solo.amount")
    expression = compile_expression("loser_points // position", SCOPE, Type.INT, place=place)
    with pytest.raises(RuleError) as info:
        expression({**hand(), "position": 0})
    assert (
        str(info.value)
        == 'rulesets/x.yaml:39:23: contracts.solo.amount: division by zero in "loser_points // position"'
    )
    assert info.value.place == place


def test_missing_variable_is_a_rule_error() -> None:
    with pytest.raises(RuleError, match="no value for 'position'"):
        compile_expression("position + 1", SCOPE)({})


# -- bounds: numbers and work --------------------------------------------------


def test_numbers_are_bounded() -> None:
    assert value(f"{MAX_NUMBER} + 0") == MAX_NUMBER
    assert error(f"{MAX_NUMBER + 1}").message == "this number is too large (at most 9,007,199,254,740,991)"
    err = error(f"position + {MAX_NUMBER} * 2")
    assert (err.column, err.message[:28]) == (12, "the result has 17 digits; a ")
    expression = compile_expression(f"loser_points * {MAX_NUMBER}", SCOPE, Type.INT)
    assert expression({**hand(), "loser_points": -1}) == -MAX_NUMBER
    with pytest.raises(RuleError, match="the result has 17 digits; a formula may give at most 9,007,199,254,740,991"):
        expression({**hand(), "loser_points": 2})


def test_nested_quantifiers_over_the_pack_are_refused_with_their_place() -> None:
    text = "any a in cards: any b in cards: any c in cards: any d in cards: any e in cards: a == e"
    started = time.perf_counter()
    err = error(text)
    assert time.perf_counter() - started < 1
    assert err.column == text.index("any c") + 1
    assert err.message.startswith("'any' here may look at up to 160,434 cards in one evaluation (at most 100,000)")
    assert "use count() and set operations" in err.message
    # Two levels over the pack, or more over small sets, are fine.
    assert value("any a in cards: any b in cards: rank(a) + rank(b) > 43") is True
    assert value("all a in kings: all b in queens: all c in knights: rank(a) > rank(b) and rank(b) > rank(c)") is True


def test_run_time_budget_stops_what_the_compiler_could_not_foresee() -> None:
    # A scope that knows two cards, and a hand of 200 that the game should never have given.
    scope = Scope({}, {"hand": Type.CARDS}, {"A1": 1, "A2": 2}, {"A1": 0, "A2": 0})
    expression = compile_expression("any a in hand: any b in hand: any c in hand: a == b and b == c and false", scope)
    started = time.perf_counter()
    with pytest.raises(RuleError, match="visits more than 100,000 cards in one evaluation"):
        expression({"hand": frozenset(f"X{i}" for i in range(200))})
    assert time.perf_counter() - started < 1


@pytest.mark.parametrize(
    "text, most",
    [
        ("{T1}", 1),
        ("{}", 0),
        ("hand", 54),
        ("hand & trumps", 22),
        ("hand & {T1, T2}", 2),
        ("kings | queens", 8),
        ("hand - trumps", 54),
        ("if count(hand & trumps) > 0 then {lowest(hand & trumps)} else {}", 1),
        ("if bid_made then kings else {T1}", 4),
    ],
)
def test_the_most_cards_a_set_can_hold(text: str, most: int) -> None:
    assert compile_expression(text, SCOPE, Type.CARDS).max_cards == most


def test_a_name_that_is_both_cards_and_a_variable_is_refused() -> None:
    scope = Scope({"hand": (Type.CARDS, frozenset({"T1"}))}, {"hand": Type.CARDS}, {"T1": 1}, {"T1": 1})
    err = error("count(hand)", scope)
    assert (err.column, err.message) == (
        7,
        "'hand' names both cards of the pack and a value of the game here; give the cards another name",
    )


def test_overlong_text_is_refused_before_it_is_parsed() -> None:
    err = error(" or ".join(["bid_made"] * 1000))
    assert err.message == "an expression may have at most 10,000 characters; this one has 11,996"


def test_expression_is_reusable() -> None:
    rule = compile_expression(STOP_RULE, SCOPE)
    results = [rule(hand(*cards)) for cards in (["T22"], ["T21"], ["T22"])]
    assert results == [True, False, True]
    assert isinstance(rule, Expression)
    assert rule.source == STOP_RULE


# -- compile-time errors -------------------------------------------------------


@pytest.mark.parametrize(
    "text, column, message",
    [
        # names, cards and functions
        ("count(trumpz)", 7, "unknown name 'trumpz'; did you mean 'trumps'?"),
        ("zzz + 1", 1, "unknown name 'zzz'"),
        ("T23 in hand", 1, "unknown card 'T23'; did you mean 'T3'?"),  # difflib's pick
        ("holds(X9)", 7, "unknown card 'X9'"),
        ("True", 1, "unknown card 'True'; did you mean 'true'?"),
        ("1 + cuont(hand)", 5, "unknown function 'cuont'; did you mean 'count'?"),
        ("hand(1)", 1, "unknown function 'hand'"),
        ("count + 1", 1, "'count' is a function; call it like count(...)"),
        ("any hand in trumps: true", 5, "'hand' is already a name here; choose another name for the card"),
        ("any kings in trumps: true", 5, "'kings' is already a name here; choose another name for the card"),
        ("any t in trumps: any t in kings: true", 22, "'t' is already a name here; choose another name for the card"),
        ("(any t in trumps: true) and t == T1", 29, "unknown name 't'"),
        # arity
        ("count(hand, kings)", 1, "count() takes 1 argument, got 2"),
        ("1 + round_up(5)", 5, "round_up() takes 2 arguments, got 1"),
        ("min()", 1, "min() takes at least 1 argument, got none"),
        # argument types
        ("count(3)", 7, "count() takes a set of cards, got a number"),
        ("rank(hand)", 6, "rank() takes a card, got a set of cards"),
        ("points(true)", 8, "points() takes a card or a set of cards, got true/false"),
        ("max(1, T22)", 8, "max() takes numbers, got a card"),
        ("round_nearest(position, kings)", 25, "round_nearest() takes two numbers, got a set of cards"),
        # operators
        ("bid_made and 1", 14, "'and' needs true/false on both sides, got a number"),
        ("hand or true", 1, "'or' needs true/false on both sides, got a set of cards"),
        ("not position", 5, "'not' needs true/false, got a number"),
        ("-T22", 2, "'-' needs a number, got a card"),
        ("position == T22", 10, "'==' compares two values of the same kind, got a number and a card"),
        ("T22 > T21", 1, "'>' compares numbers, got a card; use rank() to compare cards"),
        ("1 < hand", 5, "'<' compares numbers, got a set of cards"),
        ("T22 in T22", 8, "'in' needs a set of cards on its right, got a card"),
        ("1 not in hand", 1, "'not in' needs a card or a set of cards on its left, got a number"),
        ("hand & 1", 8, "'&' combines sets of cards, got a number"),
        ("bid_made | hand", 1, "'|' combines sets of cards, got true/false; use 'or' for true/false"),
        (
            "hand + T22",
            8,
            "'+' needs two numbers or two sets of cards, got a card; "
            "put a single card in braces to make a set, like {T22}",
        ),
        ("T22 - 1", 1, "'-' needs two numbers or two sets of cards, got a card"),
        ("hand * 2", 1, "'*' needs numbers, got a set of cards"),
        ("{T1, 2}", 6, "the items of {...} must be cards, got a number"),
        ("if position then 1 else 2", 4, "'if' needs a true/false condition, got a number"),
        (
            "if bid_made then 1 else T1",
            25,
            "'then' and 'else' must give the same kind of value, got a number and a card",
        ),
        ("any t in position: true", 10, "'any' needs a set of cards after 'in', got a number"),
        ("all t in hand: rank(t)", 16, "'all' needs a true/false condition after ':', got a number"),
    ],
)
def test_compile_errors(text: str, column: int, message: str) -> None:
    err = error(text)
    assert (err.column, err.message) == (column, message)
    assert str(err) == f"column {column}: {message}"


@pytest.mark.parametrize(
    "text, expect, column, message",
    [
        ("count(hand)", Type.BOOL, 1, "expected true/false, got a number"),
        ("  hand", Type.INT, 3, "expected a number, got a set of cards"),
        ("holds(T1)", Type.CARDS, 1, "expected a set of cards, got true/false"),
        ("(1)", Type.STR, 2, "expected text, got a number"),
    ],
)
def test_expected_type(text: str, expect: Type, column: int, message: str) -> None:
    err = error(text, expect=expect)
    assert (err.column, err.message) == (column, message)


@pytest.mark.parametrize(
    "text, column, message",
    [
        ("count(hand))", 12, "unexpected ')'; expected an operator"),
        ("count(hand", 11, "expression ends too early; expected ')' or ','"),
        ("1 +", 4, "expression ends too early; expected a value"),
        ("1 + ", 4, "expression ends too early; expected a value"),
        ("", 1, "the expression is empty"),
        ("   ", 1, "the expression is empty"),
        ("1 2", 3, "unexpected '2'; expected an operator"),
        ("(1 2)", 4, "unexpected '2'; expected ')'"),
        ("min(1 2)", 7, "unexpected '2'; expected ')' or ','"),
        ("{T1,}", 5, "unexpected '}'; expected a value"),
        ("1 < position < 3", 14, "unexpected '<'; comparisons cannot be chained, join them with 'and'"),
        ("T1 in hand in kings", 12, "unexpected 'in'; comparisons cannot be chained, join them with 'and'"),
        ("bid_made == not true", 13, "unexpected 'not'; put 'not ...' in parentheses here"),
        ("any 3 in hand: true", 5, "unexpected '3'; expected a name"),
        ("any t hand: true", 7, "unexpected 'hand'; expected 'in'"),
        ("any t in hand", 14, "expression ends too early; expected ':'"),
        ("if bid_made then 1", 19, "expression ends too early; expected 'else'"),
        ("if bid_made 1 else 2", 13, "unexpected '1'; expected 'then'"),
        ("position not 3", 14, "unexpected '3'; expected 'in'"),
        ("bid_made AND true", 10, "unexpected 'AND'; keywords are lowercase: 'and'"),
        ("position = 3", 10, "unexpected character '='; use '==' to compare"),
        ("position / 3", 10, "unexpected character '/'; use '//' for whole-number division"),
        ("'text'", 1, 'unexpected character "\'"; text goes in double quotes'),
        ('"text', 1, "unexpected character '\"'; this text has no closing quote"),
        ("position $ 3", 10, "unexpected character '$'"),
        ("and", 1, "unexpected 'and'; expected a value"),
        ("hAnd", 2, "unexpected 'And'; keywords are lowercase: 'and'"),
        ("hand Or bid_made", 6, "unexpected 'Or'; keywords are lowercase: 'or'"),
        ("1" * 101, 1, "this number is too long"),
    ],
)
def test_syntax_errors(text: str, column: int, message: str) -> None:
    err = error(text)
    assert (err.column, err.message) == (column, message)


def test_columns_count_characters_across_lines() -> None:
    err = error("bid_made and\n  trumpz")
    assert (err.column, err.message) == (16, "unknown name 'trumpz'; did you mean 'trumps'?")


def test_keywords_inside_names_are_names() -> None:
    scope = cego_scope({"index": Type.INT, "andy": Type.INT, "notin": Type.BOOL, "order": Type.INT})
    expression = compile_expression("index + andy + order > 0 and notin", scope)
    assert expression({"index": 1, "andy": 0, "order": 0, "notin": True}) is True


@pytest.mark.parametrize(
    "text",
    [
        "(" * 5000 + "1",
        "1" + ")" * 5000,
        "(" * 20000,
        "\x00",
        "ä",
        "1e5",
        "T22.",
        "[T1]",
        "hand[0]",
        "f(",
        "{",
        "any",
        "if",
    ],
    ids=repr,
)
def test_malformed_text_always_gives_dsl_error(text: str) -> None:
    error(text)


@pytest.mark.parametrize(
    "text",
    ["-" * 2000 + "1", " + ".join(["1"] * 2000), "not " * 2000 + "true", "count(" * 1200 + "hand" + ")" * 1200],
    ids=["minus", "sum", "not", "calls"],
)
def test_absurd_nesting_gives_dsl_error(text: str) -> None:
    assert error(text).message == "the expression is nested too deeply"


def test_deep_but_reasonable_nesting_works() -> None:
    assert value("(" * 4000 + "1" + ")" * 4000) == 1  # parentheses add no depth
    assert value(" + ".join(["1"] * 150)) == 150
    assert value("-" * 150 + "1") == 1


def test_non_text_gives_dsl_error() -> None:
    err = error(5)  # type: ignore[arg-type]
    assert err.message == "an expression must be text, got int"


def test_dsl_error_pickles() -> None:
    err = pickle.loads(pickle.dumps(error("trumpz")))
    assert (err.column, err.message) == (1, "unknown name 'trumpz'; did you mean 'trumps'?")
