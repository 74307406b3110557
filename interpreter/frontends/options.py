"""Command-line values shared by several commands."""

from __future__ import annotations

from interpreter.errors import TarockError


def parse_options(pairs: list[str]) -> dict[str, str]:
    """`--option NAME=CHOICE` arguments as a mapping (every command that takes options uses it)."""
    options = {}
    for pair in pairs:
        if "=" not in pair:
            raise TarockError(f"--option takes NAME=CHOICE, not '{pair}'")
        name, choice = pair.split("=", 1)
        options[name.strip()] = choice.strip()
    return options
