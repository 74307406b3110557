"""The rule bot's choices, held to the ones recorded from the bot before its speed work.

The rule bot was made fast (issue 29, item 5) without changing a choice: its sets of cards as
bits, its estimates kept, its talons drawn by random.sample's own steps. This test keeps it so.
tests/data/rulebot_decisions.jsonl holds the choices the bot before that work (rulebot.py of
main at bfe9d5e, the engine as it was there) made in seeded deals of every shipped ruleset at
every table size, one line a deal: the ruleset, the table size, the deal's number and
the bot's action at each turn where it had a choice (more than one legal action, or a template
to fill), in order. The test plays the same deals with one bot in every seat, as
`tarock simulate --bot rules` does, and compares choice by choice.

A difference is a changed decision. Where the change is meant (a rule of thumb made better, a
ruleset or the engine changed so the deals go otherwise), record the file again and say why in
the commit:

    python tests/test_rulebot_decisions.py --record                  # with this checkout's bot
    python tests/test_rulebot_decisions.py --record --bot FILE.py    # with another rulebot.py

(`git show REV:interpreter/bots/rulebot.py > FILE.py` gives a former bot.)
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # run as a script from any folder: this checkout's interpreter

from interpreter import Game, load_ruleset  # noqa: E402
from interpreter.bots.rulebot import RuleBot  # noqa: E402
from interpreter.engine.seeds import deal_seed  # noqa: E402
from interpreter.language.loader import ruleset_origins  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "rulebot_decisions.jsonl"
SEED = 29  # the deals' seed, as simulate's --seed
DEALS = 8  # deals of each ruleset at each table size
MORE = {"breitnau": 60}  # the speed benchmark's table: more of its deals (at its usual size)


def tables() -> Iterator[tuple[str, int, int]]:
    """(ruleset, table size, deals) for every shipped ruleset at every table size (not a user's
    own in ./rulesets or TAROCK_PATH, which the record knows nothing of)."""
    for name in [name for name, origin in ruleset_origins().items() if origin == "built in"]:
        ruleset = load_ruleset(name)
        for players in ruleset.table_sizes:
            yield name, players, MORE.get(name, DEALS) if players == ruleset.usual_table else DEALS


def has_choice(legal: list[Any]) -> bool:
    """More than one legal action, or one template to fill: the bot chooses."""
    first = legal[0]
    return len(legal) > 1 or (isinstance(first, dict) and any(isinstance(v, dict) for v in first.values()))


def as_json(action: Any) -> Any:
    """An action as the data file holds it (tuples as lists)."""
    return json.loads(json.dumps(action))


def record(bot: Any, path: Path) -> int:
    """Write the choices `bot` makes in the deals of `tables()` to `path`; the count of choices."""
    lines, count = [], 0
    for name, players, deals in tables():
        ruleset = load_ruleset(name)
        for index in range(deals):
            game = Game(ruleset, players=players, seed=deal_seed(SEED, index))
            choices = []
            while not game.is_over:
                seat = game.to_act
                action = bot.choose(game, seat)
                if has_choice(game.legal_actions(seat)):
                    choices.append(as_json(action))
                game.apply(seat, action)
            count += len(choices)
            entry = {"ruleset": name, "players": players, "deal": index, "choices": choices}
            lines.append(json.dumps(entry, separators=(",", ":")))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return count


def load_bot(file: Path) -> Any:
    """A RuleBot of the module `file` (a rulebot.py of another revision), its ruleset facts kept
    apart from this checkout's bot's."""
    spec = importlib.util.spec_from_file_location("former_rulebot", file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["former_rulebot"] = module
    spec.loader.exec_module(module)

    def facts_of(ruleset: Any) -> Any:
        facts = ruleset.derived.get("former_rulebot_facts")
        if facts is None:
            facts = ruleset.derived["former_rulebot_facts"] = module.RulesetFacts(ruleset)
        return facts

    module.facts_of = facts_of
    return module.RuleBot()


def recorded() -> list[dict[str, Any]]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]


def test_the_record_covers_every_ruleset_at_every_table_size() -> None:
    deals = {(entry["ruleset"], entry["players"]): 0 for entry in recorded()}
    for entry in recorded():
        deals[entry["ruleset"], entry["players"]] += 1
    assert deals == {(name, players): count for name, players, count in tables()}


def test_the_bot_makes_the_recorded_choices() -> None:
    bot = RuleBot()  # one bot for every deal, as simulate plays them: what it keeps must not matter
    rulesets: dict[str, Any] = {}
    compared = 0
    for entry in recorded():
        name, players, index = entry["ruleset"], entry["players"], entry["deal"]
        ruleset = rulesets.get(name) or rulesets.setdefault(name, load_ruleset(name))
        game = Game(ruleset, players=players, seed=deal_seed(SEED, index))
        choices = iter(entry["choices"])
        turn = 0
        while not game.is_over:
            seat = game.to_act
            action = bot.choose(game, seat)
            if has_choice(game.legal_actions(seat)):
                expected = next(choices, None)
                assert as_json(action) == expected, (
                    f"{name} at {players}, deal {index} (seed {SEED}), turn {turn} ({game.phase.value}, "
                    f"seat {seat}): the recorded bot chose {expected!r}, this one {action!r}"
                )
                compared += 1
            game.apply(seat, action)
            turn += 1
        assert next(choices, None) is None, f"{name} at {players}, deal {index}: the deal ended before its choices"
    assert compared > 10_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record the rule bot's choices for tests/test_rulebot_decisions.py")
    parser.add_argument("--record", action="store_true", help=f"write {DATA.relative_to(ROOT)}")
    parser.add_argument("--bot", type=Path, help="a rulebot.py to record with (default: this checkout's)")
    args = parser.parse_args(argv)
    if not args.record:
        parser.print_help()
        return 2
    bot = load_bot(args.bot) if args.bot else RuleBot()
    count = record(bot, DATA)
    print(f"{count:,} choices recorded in {DATA}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
