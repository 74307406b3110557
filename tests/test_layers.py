"""The package's layers: imports go one way only, and no module depends on itself through others.

    errors  <-  language  <-  engine  <-  bots       <-  frontends
                          <-  engine  <-  ethnography <-  frontends

Every import is counted, the ones inside functions too: a function-local import that runs
against the order is still a dependency, only a hidden one. Imports made only for type hints
(`if TYPE_CHECKING:`) must follow the layers too, but are not cycles: they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "interpreter"

# Which packages each package may import (besides itself).
ALLOWED = {
    "errors": set(),
    "language": {"errors"},
    "engine": {"errors", "language"},
    "bots": {"errors", "language", "engine"},
    "ethnography": {"errors", "language", "engine"},
    "frontends": {"errors", "language", "engine", "bots", "ethnography"},
}


def module_name(file: Path) -> str:
    parts = list(file.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(f): f for f in PACKAGE.rglob("*.py")}


def _type_only(tree: ast.Module) -> set[int]:
    """The ids of the import statements under `if TYPE_CHECKING:`."""
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            ids |= {id(inner) for stmt in node.body for inner in ast.walk(stmt)}
    return ids


def imports_of(file: Path, name: str, known: set[str], runtime_only: bool = False) -> set[str]:
    """The modules of this package that `file` imports, anywhere in it."""
    tree = ast.parse(file.read_text(encoding="utf-8"))
    package = name if file.name == "__init__.py" else name.rpartition(".")[0]
    skip = _type_only(tree) if runtime_only else set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            # The longest known module the target names (`from a.b import c` may import a.b.c).
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def layer(name: str) -> str | None:
    parts = name.split(".")
    # None: the package facade (`interpreter/__init__.py`) and `python -m interpreter`.
    return parts[1] if len(parts) > 1 and parts[1] != "__main__" else None


def graph(runtime_only: bool = False) -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports_of(file, name, known, runtime_only) for name, file in found.items()}


def test_imports_follow_the_layers() -> None:
    wrong = []
    for name, targets in graph().items():
        own = layer(name)
        if own is None:
            continue  # `interpreter/__init__.py` offers the public names of every layer
        for target in targets:
            other = layer(target)
            if other is None:
                wrong.append(f"{name} imports the package facade `interpreter`; import the module it needs")
            elif other != own and other not in ALLOWED[own]:
                wrong.append(f"{name} ({own}) imports {target} ({other}), against the layers")
    assert not wrong, "\n".join(sorted(wrong))


def test_no_import_cycles() -> None:
    edges = {
        name: {t for t in targets if layer(t) is not None}
        for name, targets in graph(runtime_only=True).items()
        if layer(name) is not None
    }
    # A package's __init__ re-exporting its own modules is not a cycle of dependencies.
    for name in edges:
        if (PACKAGE.parent / Path(*name.split("."))).is_dir():
            edges[name] = {t for t in edges[name] if not t.startswith(name + ".")}
    cycles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(stack[stack.index(nxt) :] + [nxt]))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_every_package_says_what_it_owns() -> None:
    for init in PACKAGE.rglob("__init__.py"):
        tree = ast.parse(init.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{init.relative_to(PACKAGE.parent)} needs a docstring saying what it owns"
