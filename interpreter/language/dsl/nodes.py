"""Typed syntax tree of an expression, built from the lark parse tree.

Every node records the 1-based column where it starts so that the compiler can
point at the offending sub-expression.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from lark import Token, Transformer, v_args
from lark.tree import Meta

from .errors import DslError


@dataclass(frozen=True)
class Node:
    column: int


@dataclass(frozen=True)
class Integer(Node):
    value: int


@dataclass(frozen=True)
class String(Node):
    value: str


@dataclass(frozen=True)
class Boolean(Node):
    value: bool


@dataclass(frozen=True)
class Card(Node):
    """An uppercase identifier such as T22 or C10; must name a CARD constant."""

    card: str


@dataclass(frozen=True)
class Name(Node):
    """A lowercase identifier: a constant, a variable or a quantifier's card."""

    name: str


@dataclass(frozen=True)
class Call(Node):
    function: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class SetLiteral(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Unary(Node):
    op: str  # "not" or "-"
    operand: Node


@dataclass(frozen=True)
class Binary(Node):
    op: str  # "or", "and", "==", ..., "in", "not in", "|", "&", "+", "-", "*", "//", "%"
    left: Node
    right: Node
    op_column: int  # errors about the pairing of both sides point at the operator


@dataclass(frozen=True)
class Conditional(Node):
    condition: Node
    then: Node
    otherwise: Node


@dataclass(frozen=True)
class Quantifier(Node):
    kind: str  # "any" or "all"
    variable: str
    variable_column: int
    source: Node
    body: Node


# Digit strings this long would trip Python's int-conversion limit; no rule needs them.
_MAX_DIGITS = 100

_ESCAPES = {"n": "\n", "t": "\t"}


def _column(item: Token | Meta) -> int:
    # Every token and tree lark builds here has a position (propagate_positions=True).
    return (item.start_pos or 0) + 1


def _unescape(literal: str) -> str:
    """Strip the quotes; a backslash takes the next character literally (\\n, \\t aside)."""
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m[1], m[1]), literal[1:-1])


@v_args(meta=True)
class ToNodes(Transformer[Token, Node]):
    """Turns the parse tree of grammar.lark into Node objects."""

    def integer(self, meta: Meta, children: list[Token]) -> Integer:
        (token,) = children
        if len(token) > _MAX_DIGITS:
            raise DslError("this number is too long", _column(token))
        return Integer(_column(meta), int(token))

    def string(self, meta: Meta, children: list[Token]) -> String:
        return String(_column(meta), _unescape(children[0]))

    def boolean(self, meta: Meta, children: list[Token]) -> Boolean:
        return Boolean(_column(meta), children[0] == "true")

    def card(self, meta: Meta, children: list[Token]) -> Card:
        return Card(_column(meta), str(children[0]))

    def name(self, meta: Meta, children: list[Token]) -> Name:
        return Name(_column(meta), str(children[0]))

    def arguments(self, meta: Meta, children: list[Node]) -> tuple[Node, ...]:
        return tuple(children)

    def call(self, meta: Meta, children: list[Any]) -> Call:
        function, args = children
        return Call(_column(meta), str(function), args or ())

    def set_literal(self, meta: Meta, children: list[Any]) -> SetLiteral:
        (items,) = children
        return SetLiteral(_column(meta), items or ())

    def unary(self, meta: Meta, children: list[Any]) -> Unary:
        op, operand = children
        return Unary(_column(meta), str(op), operand)

    def binary(self, meta: Meta, children: list[Any]) -> Binary:
        left, op, right = children
        return Binary(_column(meta), str(op), left, right, _column(op))

    def not_in(self, meta: Meta, children: list[Any]) -> Binary:
        left, not_, _in, right = children
        return Binary(_column(meta), "not in", left, right, _column(not_))

    def conditional(self, meta: Meta, children: list[Node]) -> Conditional:
        condition, then, otherwise = children
        return Conditional(_column(meta), condition, then, otherwise)

    def quantifier(self, meta: Meta, children: list[Any]) -> Quantifier:
        kind, variable, source, body = children
        return Quantifier(_column(meta), str(kind), str(variable), _column(variable), source, body)
