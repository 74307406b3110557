"""Type checking and compilation of a Node tree into nested Python closures.

Each node becomes a function env -> value, so evaluating an Expression never
walks the tree or re-parses the text.  Sub-expressions built only from
constants are evaluated once, at compile time.
"""

from __future__ import annotations

import difflib
import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .errors import DslError
from .functions import FUNCTIONS
from .nodes import Binary, Boolean, Call, Card, Conditional, Integer, Name, Node, Quantifier, SetLiteral, String, Unary
from .parser import parse
from .scope import Scope, Type, describe

Env = Mapping[str, object]
Fn = Callable[[Env], object]

_NO_ENV: Env = MappingProxyType({})


@dataclass(frozen=True)
class Expression:
    """A compiled expression; call it with an env mapping variable names to values."""

    source: str
    type: Type
    names: frozenset[str]  # the variables it reads; constants and quantifier cards excluded
    _run: Fn = field(repr=False, compare=False)

    def __call__(self, env: Env) -> object:
        try:
            return self._run(env)
        except ValueError as exc:
            # The ruleset author needs to know which of many formulas failed.
            raise ValueError(f"{exc} (in {self.source!r})") from exc


def compile_expression(text: str, scope: Scope, expect: Type | None = None) -> Expression:
    """Parse, check every name/function/type against the scope, and compile. Raises DslError."""
    if not isinstance(text, str):
        raise DslError(f"an expression must be text, got {type(text).__name__}", 1)
    try:
        root = parse(text)
        compiler = _Compiler(scope)
        compiled = compiler.compile(root, frozenset())
    except RecursionError:
        raise DslError("the expression is nested too deeply", 1) from None
    if expect is not None and compiled.type is not expect:
        raise DslError(f"expected {describe(expect)}, got {describe(compiled.type)}", root.column)
    return Expression(text, compiled.type, frozenset(compiler.names), compiled.fn)


@dataclass(frozen=True)
class _Compiled:
    type: Type
    fn: Fn
    constant: bool = False  # fn ignores env, so parents may fold it


def _constant(type_: Type, value: object) -> _Compiled:
    return _Compiled(type_, lambda env: value, constant=True)


def _combine(type_: Type, fn: Fn, *parts: _Compiled) -> _Compiled:
    """Wrap fn, evaluating it right away when every part it uses is constant."""
    if all(part.constant for part in parts):
        try:
            return _constant(type_, fn(_NO_ENV))
        except Exception:
            # Leave a failure such as 1 // 0 to run time: that branch may never be taken.
            pass
    return _Compiled(type_, fn)


def _suggestion(word: str, candidates: Iterable[str]) -> str:
    matches = difflib.get_close_matches(word, list(candidates), n=1)
    return f"; did you mean {matches[0]!r}?" if matches else ""


def _floordiv(a: int, b: int) -> int:
    if b == 0:
        raise ValueError("division by zero")
    return a // b


def _mod(a: int, b: int) -> int:
    if b == 0:
        raise ValueError("'%' by zero")
    return a % b


_COMPARISONS: dict[str, Callable[[object, object], bool]] = {
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
    "//": _floordiv,
    "%": _mod,
}
_SET_OPERATIONS: dict[str, Callable[[frozenset, frozenset], frozenset]] = {
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

    def compile(self, node: Node, bound: frozenset[str]) -> _Compiled:
        """bound: card names introduced by the enclosing any/all quantifiers."""
        match node:
            case Integer(value=value):
                return _constant(Type.INT, value)
            case String(value=value):
                return _constant(Type.STR, value)
            case Boolean(value=value):
                return _constant(Type.BOOL, value)
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

    def _known_names(self, bound: frozenset[str]) -> list[str]:
        return [*self.scope.constants, *self.scope.variables, *bound]

    # -- names ---------------------------------------------------------------

    def _card(self, node: Card) -> _Compiled:
        entry = self.scope.constants.get(node.card)
        if entry is not None and entry[0] is Type.CARD:
            return _constant(Type.CARD, entry[1])
        candidates = [*self._known_names(frozenset()), "true", "false"]
        raise DslError(f"unknown card {node.card!r}{_suggestion(node.card, candidates)}", node.column)

    def _name(self, node: Name, bound: frozenset[str]) -> _Compiled:
        name = node.name
        if name in bound:
            return _Compiled(Type.CARD, operator.itemgetter(name))
        if name in self.scope.constants:
            type_, value = self.scope.constants[name]
            return _constant(type_, frozenset(value) if type_ is Type.CARDS else value)
        if name in self.scope.variables:
            return self._variable(name)
        if name in FUNCTIONS:
            raise DslError(f"{name!r} is a function; call it like {name}(...)", node.column)
        raise DslError(f"unknown name {name!r}{_suggestion(name, self._known_names(bound))}", node.column)

    def _variable(self, name: str) -> _Compiled:
        self.names.add(name)

        def read(env: Env) -> object:
            try:
                return env[name]
            except KeyError:
                raise KeyError(f"variable {name!r} is missing from the environment") from None

        return _Compiled(self.scope.variables[name], read)

    # -- calls and set literals ----------------------------------------------

    def _call(self, node: Call, bound: frozenset[str]) -> _Compiled:
        function = FUNCTIONS.get(node.function)
        if function is None:
            raise DslError(f"unknown function {node.function!r}{_suggestion(node.function, FUNCTIONS)}", node.column)
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
        # Variables such as holds()'s hand come after the written arguments.
        for variable in function.reads:
            if variable not in self.scope.variables or variable in self.scope.constants:
                raise DslError(f"{name}() needs {variable!r}, which is not known here", node.column)
            if self.scope.variables[variable] is not Type.CARDS:
                raise DslError(f"{name}() needs {variable!r} to be a set of cards", node.column)
            args.append(self._variable(variable))

        impl = function.build(self.scope, tuple(arg.type for arg in args))
        fns = [arg.fn for arg in args]
        fn: Fn
        # Unrolled for the common arities: this runs on every evaluation.
        if len(fns) == 1:
            (a,) = fns
            fn = lambda env: impl(a(env))
        elif len(fns) == 2:
            a, b = fns
            fn = lambda env: impl(a(env), b(env))
        else:
            fn = lambda env: impl(*[f(env) for f in fns])
        return _combine(function.result, fn, *args)

    def _set_literal(self, node: SetLiteral, bound: frozenset[str]) -> _Compiled:
        items = [self.compile(item, bound) for item in node.items]
        for item_node, item in zip(node.items, items, strict=False):
            if item.type is not Type.CARD:
                raise DslError(f"the items of {{...}} must be cards, got {describe(item.type)}", item_node.column)
        fns = [item.fn for item in items]
        return _combine(Type.CARDS, lambda env: frozenset([f(env) for f in fns]), *items)

    # -- operators -----------------------------------------------------------

    def _require(self, compiled: _Compiled, node: Node, wanted: Type, what: str) -> None:
        if compiled.type is not wanted:
            raise DslError(f"{what}, got {describe(compiled.type)}", node.column)

    def _unary(self, node: Unary, bound: frozenset[str]) -> _Compiled:
        operand = self.compile(node.operand, bound)
        f = operand.fn
        if node.op == "not":
            self._require(operand, node.operand, Type.BOOL, "'not' needs true/false")
            return _combine(Type.BOOL, lambda env: not f(env), operand)
        self._require(operand, node.operand, Type.INT, "'-' needs a number")
        return _combine(Type.INT, lambda env: -f(env), operand)

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
        if node.op == "and":
            return _combine(Type.BOOL, lambda env: lf(env) and rf(env), left, right)
        return _combine(Type.BOOL, lambda env: lf(env) or rf(env), left, right)

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
        return _combine(Type.BOOL, lambda env: compare(lf(env), rf(env)), left, right)

    def _membership(self, node: Binary, left: _Compiled, right: _Compiled) -> _Compiled:
        op = node.op
        self._require(right, node.right, Type.CARDS, f"{op!r} needs a set of cards on its right")
        if left.type not in (Type.CARD, Type.CARDS):
            raise DslError(
                f"{op!r} needs a card or a set of cards on its left, got {describe(left.type)}", node.left.column
            )
        # A set on the left asks whether all its cards are in the right-hand set.
        test = operator.contains if left.type is Type.CARD else lambda whole, part: part <= whole
        lf, rf = left.fn, right.fn
        fn: Fn
        fn = (lambda env: test(rf(env), lf(env))) if op == "in" else lambda env: not test(rf(env), lf(env))
        return _combine(Type.BOOL, fn, left, right)

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
        lf, rf = left.fn, right.fn
        return _combine(Type.CARDS, lambda env: combine(lf(env), rf(env)), left, right)

    def _arithmetic(self, node: Binary, left: _Compiled, right: _Compiled) -> _Compiled:
        op = node.op
        what = f"{op!r} needs two numbers or two sets of cards" if op in ("+", "-") else f"{op!r} needs numbers"
        self._require(left, node.left, Type.INT, what)
        self._require(right, node.right, Type.INT, what)
        arithmetic = _ARITHMETIC[op]
        lf, rf = left.fn, right.fn
        return _combine(Type.INT, lambda env: arithmetic(lf(env), rf(env)), left, right)

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
        return _combine(then.type, lambda env: tf(env) if cf(env) else of(env), condition, then, otherwise)

    def _quantifier(self, node: Quantifier, bound: frozenset[str]) -> _Compiled:
        variable, kind = node.variable, node.kind
        if variable in bound or variable in self.scope.constants or variable in self.scope.variables:
            raise DslError(
                f"{variable!r} is already a name here; choose another name for the card", node.variable_column
            )
        source = self.compile(node.source, bound)
        self._require(source, node.source, Type.CARDS, f"'{kind}' needs a set of cards after 'in'")
        body = self.compile(node.body, bound | {variable})
        self._require(body, node.body, Type.BOOL, f"'{kind}' needs a true/false condition after ':'")
        sf, bf = source.fn, body.fn
        # The body reads the card from its env like any name; one copy of env per
        # evaluation (not per card) keeps this re-entrant without mutating the caller's env.
        stop_at = kind == "any"  # any() stops at the first true body, all() at the first false

        def run(env: Env) -> bool:
            local = dict(env)
            for card in sf(env):
                local[variable] = card
                if bool(bf(local)) is stop_at:
                    return stop_at
            return not stop_at

        return _combine(Type.BOOL, run, source, body)
