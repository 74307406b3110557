"""docs/contributing.md stays true: every file it names exists, and every `path::Name` it names is
defined in that file (a class, a function, a method or an assignment), so that a recipe does not
send a contributor to a place that has moved."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "contributing.md"
# A path in backticks (a file of the checkout), with or without ::Name after it.
REFERENCE = re.compile(r"`((?:interpreter|schema|tests|docs|benchmarks|rulesets)/[\w./-]+)(?:::(\w+))?`")
HEADINGS = (
    "How an action flows",
    "How a key flows",
    "How to add a play rule",
    "How to add a bonus kind",
    "How to add an auction feature",
)


def _defined(path: Path) -> set[str]:
    """The names a Python file defines: classes, functions and methods, and assigned names."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_the_guide_has_its_sections() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    for heading in HEADINGS:
        assert f"## {heading}" in text, heading


def test_every_file_and_name_the_guide_gives_exists() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    references = REFERENCE.findall(text)
    assert len(references) > 30, "the guide names the files to touch"
    missing = []
    for path, name in references:
        file = ROOT / path
        if not file.exists():
            missing.append(path)
        elif name and name not in _defined(file):
            missing.append(f"{path}::{name}")
    assert not missing, f"docs/contributing.md names what does not exist: {', '.join(missing)}"


def test_the_play_rule_recipe_is_the_way_the_fixture_was_added() -> None:
    """The steps of "How to add a play rule" are those play.keep_back took: its declaration (and
    so the schema), a field of the model, the compiler reading it, one rule object, made by the
    plan, and its sentence."""
    from interpreter.ethnography.diff import TEXTS
    from interpreter.language.keys import default, key

    assert key("play.keep_back").said is not None and default("play.keep_back[].until") == -1
    schema = json.loads((ROOT / "schema" / "ruleset.schema.json").read_text(encoding="utf-8"))
    assert "keep_back" in schema["properties"]["play"]["properties"]
    assert "keep_back" in TEXTS
    assert "keep_back" in _defined_fields(ROOT / "interpreter" / "language" / "model.py", "PlayRules")
    assert "KeepBackCards(" in (ROOT / "interpreter" / "language" / "compiler.py").read_text(encoding="utf-8")
    assert "KeepBack(" in (ROOT / "interpreter" / "engine" / "plan.py").read_text(encoding="utf-8")


def _defined_fields(path: Path, cls: str) -> set[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            return {n.target.id for n in node.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    return set()
