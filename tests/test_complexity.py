"""No function of the engine is too branched to read: cyclomatic complexity, counted as radon counts it.

One point for the function, and one for each `if`, `elif`, `for`, `while` (and their `else`),
`except` handler, `try`'s `else`, `with`, `assert`, conditional expression, comprehension `for`
and its `if`s; an `and`/`or` chain adds one less than its operands. A nested function is a
function of its own (radon's closures); a lambda's branches count in the function around it.
No dependency: the standard library's `ast` is enough.

    python tests/test_complexity.py          # the twenty most complex functions of the engine
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "interpreter" / "engine"
LIMIT = 25  # any function of the engine
DISPATCHERS = {"Game.apply": 15, "Game.legal_actions": 15}  # the facade's entry points stay short


def _branches(node: ast.AST) -> int:
    """The decision points of `node` itself (not of its children)."""
    if isinstance(node, (ast.If, ast.IfExp, ast.With, ast.AsyncWith, ast.Assert)):
        return 1
    if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
        return 1 + bool(node.orelse)
    if isinstance(node, ast.Try | ast.TryStar):
        return len(node.handlers) + bool(node.orelse)
    if isinstance(node, ast.BoolOp):
        return len(node.values) - 1
    if isinstance(node, ast.comprehension):
        return 1 + len(node.ifs)
    if isinstance(node, ast.match_case):
        return 1
    return 0


def complexity(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The cyclomatic complexity of `function`, its nested functions and classes left out."""
    total = 1
    stack: list[ast.AST] = [*function.body]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        total += _branches(node)
        stack.extend(ast.iter_child_nodes(node))
    return total


def functions(path: Path) -> Iterator[tuple[str, int, int]]:
    """(qualified name, line, complexity) of every function in the module at `path`."""

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, int, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                yield name, child.lineno, complexity(child)
                yield from walk(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")
            else:
                yield from walk(child, prefix)

    yield from walk(ast.parse(path.read_text(encoding="utf-8")), "")


def engine_functions() -> list[tuple[str, str, int, int]]:
    """(module, qualified name, line, complexity) of every function of the engine."""
    return [
        (path.name, name, line, score) for path in sorted(ENGINE.glob("*.py")) for name, line, score in functions(path)
    ]


def test_the_counting_is_radons() -> None:
    source = (
        "def f(a, b):\n"
        "    if a and b or a:\n"  # if +1, and/or: two chains of two +2
        "        return [x for x in a if x]\n"  # comprehension for and its if +2
        "    for x in b:\n"  # +1
        "        pass\n"
        "    else:\n"  # +1
        "        pass\n"
        "    try:\n"
        "        pass\n"
        "    except ValueError:\n"  # +1
        "        pass\n"
        "    with open(a):\n"  # +1
        "        assert b\n"  # +1
        "    def inner():\n"  # a function of its own
        "        if a: pass\n"
        "    return 1 if a else 2\n"  # +1
    )
    tree = ast.parse(source)
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    assert complexity(function) == 12


def test_no_function_of_the_engine_is_above_the_limit() -> None:
    over = [f"{module}:{line} {name}: {score}" for module, name, line, score in engine_functions() if score > LIMIT]
    assert not over, f"functions above complexity {LIMIT}: " + "; ".join(over)


def test_the_facades_entry_points_are_short_dispatchers() -> None:
    found = {name: score for module, name, _, score in engine_functions() if module == "game.py"}
    for name, limit in DISPATCHERS.items():
        assert name in found, name
        assert found[name] <= limit, f"{name} has complexity {found[name]}, above {limit}"


if __name__ == "__main__":
    worst = sorted(engine_functions(), key=lambda f: -f[3])[: int(sys.argv[1]) if len(sys.argv) > 1 else 20]
    for module, name, line, score in worst:
        print(f"{score:4}  {module}:{line}  {name}")
