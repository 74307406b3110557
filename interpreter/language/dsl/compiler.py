"""Type checking and compilation of a Node tree into one flat Python function.

Each node becomes Python source text (and, as the reference the text is tested against and
falls back on, a function env -> value made of nested closures); the whole expression is
compiled once into a single function, so evaluating an Expression never walks the tree,
re-parses the text or calls a closure per node.  Sub-expressions built only from constants
are evaluated once, at compile time, so a formula that must fail (`x // 0`, `round_up(x, 0)`,
`lowest({})`) is refused before any game starts.

The work an expression may do is bounded twice: at compile time from the
largest sets its quantifiers can range over (so that nested `any`/`all` over
the whole pack are refused with their place), and at run time by a budget of
cards visited per evaluation. Any failure while evaluating becomes a
`RuleError` naming the formula and where it is written.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import CodeType, MappingProxyType
from typing import Any, Generic, Literal, TypeVar, overload

from interpreter.errors import Place, RuleError, did_you_mean

from .errors import DslError
from .functions import FUNCTIONS, Fault
from .nodes import Binary, Boolean, Call, Card, Conditional, Integer, Name, Node, Quantifier, SetLiteral, String, Unary
from .parser import parse
from .scope import Scope, Type, describe

Env = Mapping[str, object]
Fn = Callable[[Env], Any]
T = TypeVar("T", covariant=True)

_NO_ENV: Env = MappingProxyType({})

# Numbers a formula may write or give: what a JSON client (a JavaScript double) reads exactly.
MAX_NUMBER = 2**53 - 1
_MIN_NUMBER = -MAX_NUMBER
# Cards that the quantifiers (any/all) of one evaluation may visit. The compiler refuses an
# expression that could visit more (nested quantifiers over big sets); the run-time budget is
# the same number, so it only ever stops an expression compiled outside these checks.
MAX_VISITS = 100_000
MAX_LENGTH = 10_000  # characters of an expression; the longest rule written so far has a few hundred

_BUDGET = " visits"  # a key no expression can spell: the remaining budget, in a quantifier's env


@dataclass(frozen=True)
class Expression(Generic[T]):
    """A compiled expression; call it with an env mapping variable names to values.

    `T` is the Python type of its value (bool, int, str for a card or text, frozenset[str]
    for a set of cards), as `type` says at run time."""

    source: str
    type: Type
    names: frozenset[str]  # the variables it reads; constants and quantifier cards excluded
    _run: Callable[[Env], T] = field(repr=False, compare=False)
    place: Place | None = None  # where it is written, for run-time errors
    max_cards: int = 0  # a set's value: at most this many cards
    visits: int = 0  # at most this many cards visited by its quantifiers in one evaluation
    # The same expression as nested closures, one a node: what `_run` (compiled from generated
    # source) is tested against; `_run` is this very function where the source would not compile.
    reference: Callable[[Env], T] | None = field(default=None, repr=False, compare=False)

    def __call__(self, env: Env) -> T:
        try:
            result = self._run(env)
        except Exception as exc:
            raise self.failure(exc) from exc
        value: object = result
        # (Against constants made once: `-MAX_NUMBER` would make a new number at every call.)
        if type(value) is int and (value > MAX_NUMBER or value < _MIN_NUMBER):
            raise RuleError(_too_large(value), self.source, self.place)
        return result

    def failure(self, exc: Exception) -> RuleError:
        """The RuleError that says why this expression failed, and where."""
        if isinstance(exc, Fault):
            return RuleError(exc.reason, self.source, self.place, exc.column)
        if isinstance(exc, KeyError):
            reason = f"no value for {exc.args[0]!r} was given to the formula (a fault in the interpreter)"
        else:
            reason = f"{type(exc).__name__}: {exc}"
        return RuleError(reason, self.source, self.place)


def _too_large(value: int) -> str:
    size = f"{len(str(abs(value))):,} digits" if value.bit_length() < 10_000 else f"{value.bit_length():,} bits"
    return f"the result has {size}; a formula may give at most {MAX_NUMBER:,}"


@overload
def compile_expression(
    text: str, scope: Scope, expect: Literal[Type.BOOL], *, place: Place | None = None
) -> Expression[bool]: ...
@overload
def compile_expression(
    text: str, scope: Scope, expect: Literal[Type.INT], *, place: Place | None = None
) -> Expression[int]: ...
@overload
def compile_expression(
    text: str, scope: Scope, expect: Literal[Type.CARD, Type.STR], *, place: Place | None = None
) -> Expression[str]: ...
@overload
def compile_expression(
    text: str, scope: Scope, expect: Literal[Type.CARDS], *, place: Place | None = None
) -> Expression[frozenset[str]]: ...
@overload
def compile_expression(
    text: str, scope: Scope, expect: Type | None = None, *, place: Place | None = None
) -> Expression[object]: ...
def compile_expression(
    text: str, scope: Scope, expect: Type | None = None, *, place: Place | None = None
) -> Expression[Any]:
    """Parse, check every name/function/type against the scope, and compile. Raises DslError,
    and nothing else, for any text. `place`: where the text is written, for run-time errors."""
    if not isinstance(text, str):
        raise DslError(f"an expression must be text, got {type(text).__name__}", 1)
    if len(text) > MAX_LENGTH:
        raise DslError(f"an expression may have at most {MAX_LENGTH:,} characters; this one has {len(text):,}", 1)
    try:
        root = parse(text)
        compiler = _Compiler(scope)
        compiled = compiler.compile(root, frozenset())
    except DslError:
        raise
    except RecursionError:
        raise DslError("the expression is nested too deeply", 1) from None
    except Exception as exc:  # the boundary: whatever the text, the author gets a DslError
        raise DslError(f"cannot compile the expression ({type(exc).__name__}: {exc})", 1) from None
    if expect is not None and compiled.type is not expect:
        raise DslError(f"expected {describe(expect)}, got {describe(compiled.type)}", root.column)
    return Expression(
        text,
        compiled.type,
        frozenset(compiler.names),
        compiler.flat(compiled),
        place,
        compiled.max_cards,
        compiled.visits,
        compiled.fn,
    )


@functools.lru_cache(maxsize=4096)
def _code(source: str) -> CodeType | None:
    """The generated source compiled (None where Python will not compile it: nested deeper than
    its parser allows). Cached: the readings of a ruleset generate the same texts again."""
    try:
        return compile(source, "<expression>", "exec")
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return None


def _spend(budget: list[int], cards: frozenset[str], column: int) -> frozenset[str]:
    """A quantifier's cards, drawn from the evaluation's budget of cards to visit."""
    budget[0] -= len(cards)
    if budget[0] < 0:
        raise Fault(f"the expression visits more than {MAX_VISITS:,} cards in one evaluation", column)
    return cards


def _placed(impl: Callable[..., Any], column: int) -> Callable[..., Any]:
    """A function call in generated code: a failure inside the function is placed at the call."""

    def call(*args: Any) -> Any:
        try:
            return impl(*args)
        except Fault as exc:
            raise exc.at(column) from None

    return call


def _divide_at(divide: Callable[[int, int], int], by_zero: str, column: int) -> Callable[[int, int], int]:
    """A division by a number known only when evaluated, in generated code."""

    def run(a: int, b: int) -> int:
        if b == 0:
            raise Fault(by_zero, column)
        return divide(a, b)

    return run


@dataclass(frozen=True)
class _Compiled:
    type: Type
    fn: Fn
    code: str  # a Python expression that computes the value from `env` (the generated source's part)
    constant: bool = False  # fn ignores env, so parents may fold it
    max_cards: int = 0  # for a set of cards: the most it can hold
    visits: int = 0  # the most cards its quantifiers visit in one evaluation
    safe: bool = False  # its code cannot fail (a constant, a quantifier's card)


_COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
}
_DIVISIONS: dict[str, tuple[Callable[[int, int], int], str]] = {
    "//": (operator.floordiv, "division by zero"),
    "%": (operator.mod, "'%' by zero"),
}
_SET_OPERATIONS: dict[str, Callable[[frozenset[str], frozenset[str]], frozenset[str]]] = {
    "|": operator.or_,
    "&": operator.and_,
    "+": operator.or_,
    "-": operator.sub,
}
_BOOLEAN_SPELLING = {"|": "or", "&": "and"}


class _Compiler:
    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.names: set[str] = set()
        self.universe = len(scope.card_rank)  # no set of cards holds more
        # What the generated source refers to besides `env`: constants that have no literal
        # (sets of cards), the functions it calls; and the budget of the quantifier around.
        self.namespace: dict[str, Any] = {"_spend": _spend, "_contains": operator.contains}
        self.budget: str | None = None

    def flat(self, compiled: _Compiled) -> Fn:
        """The expression as one function compiled from generated source: the same values and
        the same errors as the closures in `compiled.fn`, which stand in if it will not compile."""
        code = _code(f"def _expression(env):\n    return {compiled.code}\n")
        if code is None:
            return compiled.fn
        namespace = dict(self.namespace)
        exec(code, namespace)
        run: Fn = namespace["_expression"]
        return run

    def _named(self, prefix: str, value: object) -> str:
        name = f"{prefix}{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def _literal(self, value: object) -> str:
        """Source text for a constant's value."""
        if type(value) is int or type(value) is bool or type(value) is str:
            return f"({value!r})"
        return self._named("_k", value)

    def _constant(self, type_: Type, value: object) -> _Compiled:
        size = len(value) if isinstance(value, frozenset) else 0
        return _Compiled(type_, lambda env: value, self._literal(value), constant=True, max_cards=size, safe=True)

    def compile(self, node: Node, bound: frozenset[str]) -> _Compiled:
        """bound: card names introduced by the enclosing any/all quantifiers."""
        match node:
            case Integer(value=value):
                if value > MAX_NUMBER:
                    raise DslError(f"this number is too large (at most {MAX_NUMBER:,})", node.column)
                return self._constant(Type.INT, value)
            case String(value=value):
                return self._constant(Type.STR, value)
            case Boolean(value=value):
                return self._constant(Type.BOOL, value)
            case Card():
                return self._card(node)
            case Name():
                return self._name(node, bound)
            case Call():
                return self._call(node, bound)
            case SetLiteral():
                return self._set_literal(node, bound)
            case Unary():
                return self._unary(node, bound)
            case Binary():
                return self._binary(node, bound)
            case Conditional():
                return self._conditional(node, bound)
            case Quantifier():
                return self._quantifier(node, bound)
        raise AssertionError(f"no compilation for {node!r}")

    def _combine(self, type_: Type, fn: Fn, code: str, node: Node, *parts: _Compiled, max_cards: int = 0) -> _Compiled:
        """Wrap fn (and its source text, `code`), evaluating it right away when every part it
        uses is constant: a constant that cannot be computed (1 // 0, lowest({})) is a mistake in
        the text, wherever it stands."""
        if all(part.constant for part in parts):
            try:
                value = fn(_NO_ENV)
            except Fault as exc:
                raise DslError(exc.reason, exc.column or node.column) from None
            if type(value) is int and not -MAX_NUMBER <= value <= MAX_NUMBER:
                raise DslError(_too_large(value), node.column)
            return self._constant(type_, value)
        return _Compiled(type_, fn, code, max_cards=max_cards, visits=sum(part.visits for part in parts))

    def _known_names(self, bound: frozenset[str]) -> list[str]:
        return [*self.scope.constants, *self.scope.variables, *bound]

    # -- names ---------------------------------------------------------------

    def _card(self, node: Card) -> _Compiled:
        entry = self.scope.constants.get(node.card)
        if entry is not None and entry[0] is Type.CARD:
            return self._constant(Type.CARD, entry[1])
        candidates = [*self._known_names(frozenset()), "true", "false"]
        raise DslError(f"unknown card {node.card!r}{did_you_mean(node.card, candidates)}", node.column)

    def _name(self, node: Name, bound: frozenset[str]) -> _Compiled:
        name = node.name
        if name in bound:
            # The quantifier's card is a local variable of the generated source (names are
            # lowercase ASCII: the prefix keeps them apart from the source's own names).
            return _Compiled(Type.CARD, operator.itemgetter(name), f"_q_{name}", safe=True)
        if name in self.scope.constants and name in self.scope.variables:
            # Either reading would silently hide the other.
            raise DslError(
                f"{name!r} names both cards of the pack and a value of the game here; give the cards another name",
                node.column,
            )
        if name in self.scope.constants:
            type_, value = self.scope.constants[name]
            if type_ is Type.CARDS and isinstance(value, Iterable):
                value = frozenset(value)
            return self._constant(type_, value)
        if name in self.scope.variables:
            return self._variable(name)
        if name in FUNCTIONS:
            raise DslError(f"{name!r} is a function; call it like {name}(...)", node.column)
        raise DslError(f"unknown name {name!r}{did_you_mean(name, self._known_names(bound))}", node.column)

    def _variable(self, name: str) -> _Compiled:
        self.names.add(name)
        type_ = self.scope.variables[name]
        # A missing variable raises KeyError, which the Expression reports with its place.
        return _Compiled(
            type_,
            operator.itemgetter(name),
            f"env[{name!r}]",
            max_cards=self.universe if type_ is Type.CARDS else 0,
        )

    # -- calls and set literals ----------------------------------------------

    def _call(self, node: Call, bound: frozenset[str]) -> _Compiled:
        function = FUNCTIONS.get(node.function)
        if function is None:
            raise DslError(f"unknown function {node.function!r}{did_you_mean(node.function, FUNCTIONS)}", node.column)
        name = function.name
        count = len(node.args)
        if function.variadic and count == 0:
            raise DslError(f"{name}() takes at least 1 argument, got none", node.column)
        if not function.variadic and count != len(function.params):
            wanted = len(function.params)
            raise DslError(f"{name}() takes {wanted} argument{'s' * (wanted != 1)}, got {count}", node.column)

        args = [self.compile(arg, bound) for arg in node.args]
        for position, (arg_node, arg) in enumerate(zip(node.args, args, strict=False)):
            accepted = function.params[0 if function.variadic else position]
            if arg.type not in accepted:
                raise DslError(f"{name}() takes {function.takes}, got {describe(arg.type)}", arg_node.column)
        if function.positive is not None:
            step, step_node = args[function.positive], node.args[function.positive]
            if step.constant and step.fn(_NO_ENV) <= 0:
                raise DslError(f"{name}() needs a positive step, got {step.fn(_NO_ENV)}", step_node.column)
        # Variables such as holds()'s hand come after the written arguments.
        for variable in function.reads:
            if variable not in self.scope.variables or variable in self.scope.constants:
                raise DslError(f"{name}() needs {variable!r}, which is not known here", node.column)
            if self.scope.variables[variable] is not function.read_type:
                raise DslError(f"{name}() needs {variable!r} to be {describe(function.read_type)}", node.column)
            args.append(self._variable(variable))

        impl = function.build(self.scope, tuple(arg.type for arg in args))
        codes = [arg.code for arg in args]
        constants = [arg.fn(_NO_ENV) if arg.constant else None for arg in args]
        code = function.inline(codes, constants) if function.inline is not None else None
        if code is None:
            # A function that may fail places its failure at the call: by itself, or else
            # through a wrapper.
            if function.placed is not None:
                called = self._named("_f", function.placed(self.scope, tuple(arg.type for arg in args), node.column))
            else:
                called = self._named("_f", _placed(impl, node.column) if function.may_fail else impl)
            code = f"{called}({', '.join(codes)})"
        return self._combine(function.result, _applied(impl, [arg.fn for arg in args], node.column), code, node, *args)

    def _set_literal(self, node: SetLiteral, bound: frozenset[str]) -> _Compiled:
        items = [self.compile(item, bound) for item in node.items]
        for item_node, item in zip(node.items, items, strict=False):
            if item.type is not Type.CARD:
                raise DslError(f"the items of {{...}} must be cards, got {describe(item.type)}", item_node.column)
        fns = [item.fn for item in items]

        def build(env: Env) -> frozenset[str]:
            return frozenset([f(env) for f in fns])

        code = f"frozenset([{', '.join(item.code for item in items)}])"
        return self._combine(Type.CARDS, build, code, node, *items, max_cards=min(len(items), self.universe))

    # -- operators -----------------------------------------------------------

    def _require(self, compiled: _Compiled, node: Node, wanted: Type, what: str) -> None:
        if compiled.type is not wanted:
            raise DslError(f"{what}, got {describe(compiled.type)}", node.column)

    def _unary(self, node: Unary, bound: frozenset[str]) -> _Compiled:
        operand = self.compile(node.operand, bound)
        f = operand.fn
        if node.op == "not":
            self._require(operand, node.operand, Type.BOOL, "'not' needs true/false")
            return self._combine(Type.BOOL, lambda env: not f(env), f"(not {operand.code})", node, operand)
        self._require(operand, node.operand, Type.INT, "'-' needs a number")
        return self._combine(Type.INT, lambda env: -f(env), f"(-{operand.code})", node, operand)

    def _binary(self, node: Binary, bound: frozenset[str]) -> _Compiled:
        left = self.compile(node.left, bound)
        right = self.compile(node.right, bound)
        op = node.op
        if op in ("and", "or"):
            return self._logical(node, left, right)
        if op in _COMPARISONS:
            return self._comparison(node, left, right)
        if op in ("in", "not in"):
            return self._membership(node, left, right)
        if op in ("|", "&") or (op in ("+", "-") and Type.CARDS in (left.type, right.type)):
            return self._set_operation(node, left, right)
        return self._arithmetic(node, left, right)

    def _logical(self, node: Binary, left: _Compiled, right: _Compiled) -> _Compiled:
        what = f"{node.op!r} needs true/false on both sides"
        self._require(left, node.left, Type.BOOL, what)
        self._require(right, node.right, Type.BOOL, what)
        lf, rf = left.fn, right.fn
        code = f"({left.code} {node.op} {right.code})"
        if node.op == "and":
            return self._combine(Type.BOOL, lambda env: lf(env) and rf(env), code, node, left, right)
        return self._combine(Type.BOOL, lambda env: lf(env) or rf(env), code, node, left, right)

    def _comparison(self, node: Binary, left: _Compiled, right: _Compiled) -> _Compiled:
        op = node.op
        if op in ("==", "!="):
            if left.type is not right.type:
                raise DslError(
                    f"{op!r} compares two values of the same kind, "
                    f"got {describe(left.type)} and {describe(right.type)}",
                    node.op_column,
                )
        else:
            for side, compiled in ((node.left, left), (node.right, right)):
                if compiled.type is not Type.INT:
                    hint = "; use rank() to compare cards" if compiled.type is Type.CARD else ""
                    raise DslError(f"{op!r} compares numbers, got {describe(compiled.type)}{hint}", side.column)
        compare = _COMPARISONS[op]
        lf, rf = left.fn, right.fn
        code = f"({left.code} {op} {right.code})"
        return self._combine(Type.BOOL, lambda env: compare(lf(env), rf(env)), code, node, left, right)

    def _membership(self, node: Binary, left: _Compiled, right: _Compiled) -> _Compiled:
        op = node.op
        self._require(right, node.right, Type.CARDS, f"{op!r} needs a set of cards on its right")
        if left.type not in (Type.CARD, Type.CARDS):
            raise DslError(
                f"{op!r} needs a card or a set of cards on its left, got {describe(left.type)}", node.left.column
            )
        # A set on the left asks whether all its cards are in the right-hand set.
        test: Callable[[Any, Any], bool] = operator.contains if left.type is Type.CARD else operator.ge
        lf, rf = left.fn, right.fn

        def within(env: Env) -> bool:
            return test(rf(env), lf(env))

        def outside(env: Env) -> bool:
            return not test(rf(env), lf(env))

        # The right side is read first (the closures call test(right, left)): a set on the left
        # is `right >= left`; a card, `left in right` when either side cannot fail, and else
        # operator.contains(right, left).
        if left.type is Type.CARDS:
            code = f"({right.code} >= {left.code})"
        elif left.safe or right.safe:
            code = f"({left.code} in {right.code})"
        else:
            code = f"_contains({right.code}, {left.code})"
        if op != "in":
            code = f"(not {code})"
        return self._combine(Type.BOOL, within if op == "in" else outside, code, node, left, right)

    def _set_operation(self, node: Binary, left: _Compiled, right: _Compiled) -> _Compiled:
        op = node.op
        for side, compiled in ((node.left, left), (node.right, right)):
            if compiled.type is Type.CARDS:
                continue
            if op in _BOOLEAN_SPELLING:
                what = f"{op!r} combines sets of cards"
            else:
                what = f"{op!r} needs two numbers or two sets of cards"
            hint = ""
            if compiled.type is Type.CARD:
                hint = "; put a single card in braces to make a set, like {T22}"
            elif compiled.type is Type.BOOL and op in _BOOLEAN_SPELLING:
                hint = f"; use {_BOOLEAN_SPELLING[op]!r} for true/false"
            raise DslError(f"{what}, got {describe(compiled.type)}{hint}", side.column)
        combine = _SET_OPERATIONS[op]
        if op == "&":
            size = min(left.max_cards, right.max_cards)
        elif op == "-":
            size = left.max_cards
        else:
            size = min(left.max_cards + right.max_cards, self.universe)
        lf, rf = left.fn, right.fn
        code = f"({left.code} {'|' if op == '+' else op} {right.code})"
        return self._combine(Type.CARDS, lambda env: combine(lf(env), rf(env)), code, node, left, right, max_cards=size)

    def _arithmetic(self, node: Binary, left: _Compiled, right: _Compiled) -> _Compiled:
        op = node.op
        what = f"{op!r} needs two numbers or two sets of cards" if op in ("+", "-") else f"{op!r} needs numbers"
        self._require(left, node.left, Type.INT, what)
        self._require(right, node.right, Type.INT, what)
        lf, rf = left.fn, right.fn
        if op in _DIVISIONS:
            divide, by_zero = _DIVISIONS[op]
            if right.constant and right.fn(_NO_ENV) == 0:
                raise DslError(by_zero, node.op_column)
            if right.constant:
                code = f"({left.code} {op} {right.code})"  # not zero: refused just above
            else:
                divided = self._named("_d", _divide_at(divide, by_zero, node.op_column))
                code = f"{divided}({left.code}, {right.code})"
            return self._combine(Type.INT, _divided(divide, by_zero, lf, rf, node.op_column), code, node, left, right)
        arithmetic = _ARITHMETIC[op]
        code = f"({left.code} {op} {right.code})"
        return self._combine(Type.INT, lambda env: arithmetic(lf(env), rf(env)), code, node, left, right)

    # -- if and quantifiers --------------------------------------------------

    def _conditional(self, node: Conditional, bound: frozenset[str]) -> _Compiled:
        condition = self.compile(node.condition, bound)
        self._require(condition, node.condition, Type.BOOL, "'if' needs a true/false condition")
        then = self.compile(node.then, bound)
        otherwise = self.compile(node.otherwise, bound)
        if then.type is not otherwise.type:
            raise DslError(
                f"'then' and 'else' must give the same kind of value, "
                f"got {describe(then.type)} and {describe(otherwise.type)}",
                node.otherwise.column,
            )
        cf, tf, of = condition.fn, then.fn, otherwise.fn
        compiled = self._combine(
            then.type,
            lambda env: tf(env) if cf(env) else of(env),
            f"({then.code} if {condition.code} else {otherwise.code})",
            node,
            condition,
            then,
            otherwise,
            max_cards=max(then.max_cards, otherwise.max_cards),
        )
        if compiled.constant:
            return compiled
        # One branch runs, not both.
        return _Compiled(
            compiled.type,
            compiled.fn,
            compiled.code,
            max_cards=compiled.max_cards,
            visits=condition.visits + max(then.visits, otherwise.visits),
        )

    def _quantifier(self, node: Quantifier, bound: frozenset[str]) -> _Compiled:
        variable, kind = node.variable, node.kind
        if variable in bound or variable in self.scope.constants or variable in self.scope.variables:
            raise DslError(
                f"{variable!r} is already a name here; choose another name for the card", node.variable_column
            )
        source = self.compile(node.source, bound)
        self._require(source, node.source, Type.CARDS, f"'{kind}' needs a set of cards after 'in'")
        # The outermost quantifier starts a budget of cards to visit for each of its
        # evaluations; those inside it draw on the same one.
        around = self.budget
        budget = self.budget = around or f"_b{len(self.namespace)}_{node.column}"
        try:
            body = self.compile(node.body, bound | {variable})
        finally:
            self.budget = around
        self._require(body, node.body, Type.BOOL, f"'{kind}' needs a true/false condition after ':'")
        visits = source.visits + source.max_cards * (1 + body.visits)
        if visits > MAX_VISITS:
            raise DslError(
                f"'{kind}' here may look at up to {visits:,} cards in one evaluation (at most {MAX_VISITS:,}): "
                f"it runs over up to {source.max_cards} cards, and for each of them {body.visits:,} more; "
                "nest fewer any/all over large sets, or use count() and set operations (&, |, -)",
                node.column,
            )
        run = _quantified(kind == "any", variable, source.fn, body.fn, node.column)
        cards = f"_spend({budget}, {source.code}, {node.column})"
        started = f" for {budget} in ([{MAX_VISITS}],)" if around is None else ""
        code = f"{kind}({body.code}{started} for _q_{variable} in {cards})"
        compiled = self._combine(Type.BOOL, run, code, node, source, body)
        return compiled if compiled.constant else _Compiled(Type.BOOL, run, code, visits=visits)


def _applied(impl: Callable[..., Any], fns: list[Fn], column: int) -> Fn:
    """A function call; a failure inside the function is placed at the call."""
    # Unrolled for the common arities: this runs on every evaluation.
    if len(fns) == 1:
        (a,) = fns

        def call1(env: Env) -> Any:
            try:
                return impl(a(env))
            except Fault as exc:
                raise exc.at(column) from None

        return call1
    if len(fns) == 2:
        a, b = fns

        def call2(env: Env) -> Any:
            try:
                return impl(a(env), b(env))
            except Fault as exc:
                raise exc.at(column) from None

        return call2

    def call(env: Env) -> Any:
        try:
            return impl(*[f(env) for f in fns])
        except Fault as exc:
            raise exc.at(column) from None

    return call


def _divided(divide: Callable[[int, int], int], by_zero: str, lf: Fn, rf: Fn, column: int) -> Fn:
    def run(env: Env) -> int:
        a, b = lf(env), rf(env)
        if b == 0:
            raise Fault(by_zero, column)
        return divide(a, b)

    return run


def _quantified(stop_at: bool, variable: str, sf: Fn, bf: Fn, column: int) -> Fn:
    """any (stop_at True: stops at the first true body) or all (at the first false one).

    The body reads the card from its env like any name; one copy of env per evaluation (not
    per card) keeps this re-entrant without changing the caller's env. The copy also carries
    the evaluation's budget of cards to visit, which nested quantifiers draw on."""

    def run(env: Env) -> bool:
        cards = sf(env)
        local = dict(env)
        budget: Any = local.get(_BUDGET)
        if budget is None:  # the outermost quantifier: the budget of this evaluation starts here
            budget = [MAX_VISITS]
        budget[0] -= len(cards)
        if budget[0] < 0:
            raise Fault(f"the expression visits more than {MAX_VISITS:,} cards in one evaluation", column)
        local[_BUDGET] = budget
        for card in cards:
            local[variable] = card
            if bool(bf(local)) is stop_at:
                return stop_at
        return not stop_at

    return run
