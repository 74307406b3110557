"""docs/contributing.md, "How a key flows", kept true: the files it names exist, and a key added
to the declarations alone shows up in the schema, the compiler's defaults and diff's sentences."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import interpreter.language.keys as keys
from interpreter.ethnography.diff import Titles, key_templates
from interpreter.language.keys import Key, Said
from interpreter.language.keys.kinds import Choice
from interpreter.language.keys.play import play

ROOT = Path(__file__).parent.parent
GUIDE = ROOT / "docs" / "contributing.md"


def section(title: str) -> str:
    """The text of a `##` section of the guide, up to the next one."""
    text = GUIDE.read_text(encoding="utf-8")
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert found is not None, f"docs/contributing.md has no section '{title}'"
    return found.group(1)


def test_the_files_the_section_names_exist() -> None:
    named = set(re.findall(r"`((?:interpreter|schema|tests|docs)/[\w./-]*)`", section("How a key flows")))
    assert len(named) >= 10
    assert sorted(f for f in named if not (ROOT / f).exists()) == []


@pytest.fixture
def a_new_key(monkeypatch: pytest.MonkeyPatch) -> Iterator[Key]:
    """`play.lead_twice`, declared and nowhere else."""
    key = Key(
        Choice("Whether the winner of a trick may lead twice (a word for this test).", ("never", "always")),
        default="never",
        said=Said("Leading twice", {"never": "never", "always": "always"}),
    )
    keys._by_place.cache_clear()
    monkeypatch.setitem(play.keys, "lead_twice", key)  # type: ignore[index]
    yield key
    monkeypatch.undo()
    keys._by_place.cache_clear()


def test_a_key_declared_alone_shows_up_everywhere_it_flows(a_new_key: Key) -> None:
    sys.path.insert(0, str(ROOT / "schema"))
    try:
        import build_schema
    finally:
        sys.path.pop(0)
    # the schema
    schema = json.loads(build_schema.render())["properties"]["play"]["properties"]["lead_twice"]
    assert schema == {
        "enum": ["never", "always"],
        "description": "Whether the winner of a trick may lead twice (a word for this test).",
        "default": "never",
    }
    # the compiler's default
    assert keys.default("play.lead_twice") == "never"
    # diff's sentence, and so doc's and matrix's
    (template,) = [t for t in key_templates() if t.pattern == ("play", "lead_twice")]
    assert template.label(("play", "lead_twice"), Titles()) == "Leading twice"
    assert template.text("always") == "always" and template.rule == "play.lead_twice"
