"""The expression language of the rulesets: conditions and formulas.

    expr = compile_expression("count(hand & trumps) >= 3", scope, expect=Type.BOOL)
    expr({"hand": frozenset({"T22", "T21", "T1"})})  # -> True

compile_expression checks every name, function and type against the Scope up
front and raises DslError (with a column) for anything wrong; the returned
Expression is one Python function compiled from source generated for it, cheap to
call many times.
"""

from .compiler import Expression, compile_expression
from .errors import DslError
from .scope import Scope, Type

__all__ = ["DslError", "Expression", "Scope", "Type", "compile_expression"]
