"""Value types of the DSL and the scope an expression is checked against."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass


class Type(enum.Enum):
    """Result type of an expression.  Run-time values: BOOL -> bool, INT -> int,
    CARD -> str card id, CARDS -> frozenset[str], STR -> str."""

    BOOL = "bool"
    INT = "int"
    CARD = "card"
    CARDS = "cards"
    STR = "str"
    TRICKS = "tricks"  # the tricks of a deal, read only through trick(), winning_card(), won_by_side()


# Error messages are read by ruleset authors, not programmers.
_DESCRIPTIONS = {
    Type.BOOL: "true/false",
    Type.INT: "a number",
    Type.CARD: "a card",
    Type.CARDS: "a set of cards",
    Type.STR: "text",
    Type.TRICKS: "the tricks of the deal",
}


def describe(type_: Type) -> str:
    """The type as a phrase for error messages, e.g. 'a set of cards'."""
    return _DESCRIPTIONS[type_]


@dataclass(frozen=True)
class Scope:
    """Everything an expression may refer to.

    constants: known at load time, e.g. card ids -> (CARD, "T22"),
        named sets -> (CARDS, frozenset({...})).
    variables: supplied at evaluation time in the env dict, name -> type.
    card_rank: card id -> rank number (T22 -> 22; suit cards 1 = lowest of suit).
    card_points: card id -> point value.
    """

    constants: Mapping[str, tuple[Type, object]]
    variables: Mapping[str, Type]
    card_rank: Mapping[str, int]
    card_points: Mapping[str, int]
