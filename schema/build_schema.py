"""Writes ruleset.schema.json. Run `python schema/build_schema.py` after changing the language.

The schema is derived from the declarations of the language's keys (interpreter/language/keys/):
each key's kind, description, default and, for an expression, the names it may read. Every rule
gets the same provenance fields and every object is closed (`additionalProperties: false`)
there, without repeating them by hand; a test checks that the committed JSON matches this script.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout, installed or not

from interpreter.language.keys import ruleset_schema


def render() -> str:
    return json.dumps(ruleset_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    Path(__file__).with_name("ruleset.schema.json").write_text(render(), encoding="utf-8")
