"""The interpreter never names a variant: variant rules live in rulesets/ (docs/design.md)."""

import re
from pathlib import Path

VARIANTS = re.compile(
    r"furtwangen|breitnau|buchenbach|schollach|schwärzenbach|schwaerzenbach|carneval|"
    r"ministranten|oberwolfach|ichenheim|wuerttemberg|württemberg|schmidt",
    re.I,
)


def test_no_module_of_the_interpreter_names_a_variant() -> None:
    package = Path(__file__).parent.parent / "interpreter"
    hits = [
        f"{file.relative_to(package)}:{n}: {line.strip()}"
        for file in sorted(package.rglob("*"))
        if file.suffix in (".py", ".lark")
        for n, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1)
        if VARIANTS.search(line)
    ]
    assert hits == []
