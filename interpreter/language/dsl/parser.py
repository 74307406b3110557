"""Text -> Node tree, with lark's syntax errors turned into readable DslErrors."""

from __future__ import annotations

import functools
from importlib import resources

from lark import Lark, Token
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedToken, VisitError

from .errors import DslError
from .nodes import Node, ToNodes

# Terminals that close or continue a construct; worth naming when one is missing.
_CLOSERS = {
    "RPAR": "')'",
    "RBRACE": "'}'",
    "COMMA": "','",
    "COLON": "':'",
    "THEN": "'then'",
    "ELSE": "'else'",
}
_KEYWORDS = frozenset({"or", "and", "not", "in", "if", "then", "else", "any", "all", "true", "false"})
_CHARACTER_HINTS = {
    "=": "use '==' to compare",
    "/": "use '//' for whole-number division",
    "!": "use 'not' for negation, '!=' for 'not equal'",
    "'": "text goes in double quotes",
    '"': "this text has no closing quote",
}


@functools.cache
def _lark() -> Lark:
    # Built once per process, on first use: building the LALR tables is the slow part.
    grammar = resources.files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        # The basic lexer (not the contextual one) always tries NAME before keywords,
        # so `andy` can never be split into `and` + `y`.
        lexer="basic",
        propagate_positions=True,
        maybe_placeholders=True,
    )


@functools.lru_cache(maxsize=4096)
def parse(text: str) -> Node:
    """Parse expression text into a Node tree; any malformed text raises DslError.

    Remembered by text (nodes are immutable): a ruleset compiled with each of its readings, and
    its bases, repeat the same expressions."""
    if not text.strip():
        raise DslError("the expression is empty", 1)
    try:
        tree = _lark().parse(text)
        return ToNodes().transform(tree)
    except UnexpectedCharacters as exc:
        raise _character_error(exc) from None
    except UnexpectedToken as exc:
        raise _token_error(exc, text) from None
    except VisitError as exc:
        if isinstance(exc.orig_exc, (DslError, RecursionError)):
            raise exc.orig_exc from None
        raise DslError(f"cannot read the expression ({exc.orig_exc})", 1) from None
    except LarkError as exc:  # any other lark failure must still surface as a DslError
        raise DslError(f"cannot read the expression ({exc})", 1) from None


def _character_error(exc: UnexpectedCharacters) -> DslError:
    message = f"unexpected character {exc.char!r}"
    if exc.char in _CHARACTER_HINTS:
        message += f"; {_CHARACTER_HINTS[exc.char]}"
    return DslError(message, exc.pos_in_stream + 1)


def _token_error(exc: UnexpectedToken, text: str) -> DslError:
    token: Token = exc.token
    expected = set(exc.accepts or exc.expected)
    if token.type == "$END":
        # lark places the end marker on the last token; the reader wants the end itself.
        column = len(text.rstrip()) + 1
        return DslError(f"expression ends too early; expected {_expected_phrase(expected)}", column)
    column = token.start_pos + 1
    shown = token.value if len(token.value) <= 20 else token.value[:17] + "..."
    message = f"unexpected {shown!r}"
    if token.type in {"COMP_OP", "IN", "NOT"} and "AND" in expected and "COMP_OP" not in expected:
        message += "; comparisons cannot be chained, join them with 'and'"
    elif token.type == "NOT" and "INT" in expected:
        message += "; put 'not ...' in parentheses here"
    elif token.type == "CARD_ID" and token.value.lower() in _KEYWORDS:
        message += f"; keywords are lowercase: {token.value.lower()!r}"
    else:
        message += f"; expected {_expected_phrase(expected)}"
    return DslError(message, column)


def _expected_phrase(expected: set[str]) -> str:
    # Wherever an operand may start, a number may.  "-" and "not" prove nothing:
    # both may also follow a complete operand ("a - b", "a not in b").
    if "INT" in expected:
        return "a value"
    if expected == {"NAME"}:
        return "a name"
    if expected == {"IN"}:
        return "'in'"
    closers = sorted(_CLOSERS[t] for t in expected if t in _CLOSERS)
    if closers:
        return " or ".join(closers)
    return "an operator"
