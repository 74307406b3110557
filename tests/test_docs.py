"""Generated rules pages (docs/rules/) are up to date and agree with the engine; the guide's
worked example validates, plays, diffs and replays as the guide says."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.bots.randombot import RandomBot
from interpreter.engine.records import replay
from interpreter.ethnography.docgen import render, stale
from interpreter.language.loader import check_ruleset, ruleset_names

ROOT = Path(__file__).parent.parent
RULES = ROOT / "docs" / "rules"
GUIDE = ROOT / "docs" / "encoding-a-variant.md"
EXAMPLES = ROOT / "docs" / "examples"
EXAMPLE = EXAMPLES / "example-village.yaml"


def tarock(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run(
        [sys.executable, "-m", "interpreter", *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=env
    )


# -- docs/rules ----------------------------------------------------------------------------------


def test_every_rules_page_is_up_to_date() -> None:
    """The CI check: a ruleset changed without regenerating its page fails here."""
    problems = stale(RULES)
    assert problems == [], "\n".join(problems) + "\nrun `tarock doc --all --out docs/rules` to regenerate"


def test_every_playable_ruleset_has_a_page() -> None:
    assert sorted(p.stem for p in RULES.glob("*.md")) == sorted(ruleset_names())


def test_check_names_the_stale_file_and_the_fix(tmp_path: Path) -> None:
    copy = tmp_path / "rules"
    shutil.copytree(RULES, copy)
    name = ruleset_names()[0]
    (copy / f"{name}.md").write_text("# edited by hand\n", encoding="utf-8")
    (copy / "atlantis.md").write_text("# gone\n", encoding="utf-8")
    out = tarock("doc", "--all", "--out", str(copy), "--check")
    assert out.returncode == 1
    assert f"{name}.md: out of date" in out.stderr and "atlantis.md: no ruleset of that name" in out.stderr
    assert f"run `tarock doc --all --out {copy}` to regenerate" in out.stderr
    (copy / f"{name}.md").unlink()
    assert f"{copy / name}.md: missing" in stale(copy)


def test_doc_command(tmp_path: Path) -> None:
    out = tarock("doc", "breitnau")
    assert out.returncode == 0 and out.stdout == render("breitnau")
    file = tmp_path / "b.md"
    assert tarock("doc", "breitnau", "-o", str(file)).returncode == 0
    assert file.read_text(encoding="utf-8") == render("breitnau")
    assert tarock("doc", "breitnau", "-o", str(file), "--check").returncode == 0
    file.write_text("stale\n", encoding="utf-8")
    assert tarock("doc", "breitnau", "-o", str(file), "--check").returncode == 1
    unknown = tarock("doc", "atlantis")
    assert unknown.returncode == 2 and "no ruleset named 'atlantis'" in unknown.stderr
    assert tarock("doc").returncode == 2
    assert tarock("doc", "cego-pack").returncode == 2  # a base is not a game


@pytest.mark.parametrize("name", ruleset_names())
def test_a_page_shows_every_contract_reading_and_option(name: str) -> None:
    text = render(name)
    rs = load_ruleset(name)
    assert text.startswith(f"# {rs.title}\n")
    for contract in rs.contracts.values():
        assert f"### {contract.title}\n" in text
    for group in rs.groups:
        assert f"### `{group.name}`" in text
        for choice in group.choices:
            assert f"- **{choice}**" in text
    assert "### Payments with" in text or "is scored by its own formula" in text


# -- the payment table is the engine's --------------------------------------------------------------


def payment_table(text: str, players: int | None = None) -> tuple[list[str], list[tuple[int, int, list[str]]]]:
    """The payment table of a rules page (the one for `players`, if there are several)."""
    lines = text.splitlines()
    start = 0
    if players is not None:
        start = next(
            i
            for i, line in enumerate(lines)
            if line.startswith("### Payments with ") and str(players) in re.findall(r"\d+", line)
        )
    start = next(i for i, line in enumerate(lines) if i >= start and line.startswith("| losing side's points |"))
    header = [c.strip() for c in lines[start].strip("|").split("|")]
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        low, _, high = cells[0].partition("–")
        rows.append((int(low), int(high or low), cells[1:]))
    return header[1:], rows


def cell(text: str, column: str, points: int, players: int | None = None) -> str:
    header, rows = payment_table(text, players)
    for low, high, cells in rows:
        if low <= points <= high:
            return cells[header.index(column)]
    raise KeyError(points)


def test_breitnau_payment_table_is_what_the_engine_pays() -> None:
    text = (RULES / "breitnau.md").read_text(encoding="utf-8")
    assert cell(text, "Dappen won", 34) == "10"  # (40 - 34) × 1 = 6, rounded up to 10
    assert cell(text, "Stupfen won", 34) == "20"  # (40 - 34) × 3 = 18 → 20
    assert cell(text, "Solo lost", 30) == "20"  # lost: (40 - 30) × 2 = 20
    assert cell(text, "Solo won", 30) == "10"  # won: × 1


def _records_of(name: str):
    for file in sorted((ROOT / "tests" / "records").glob("*.yaml")):
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
        expect = data.get("expect") or {}
        if (
            data.get("ruleset") == name
            and not data.get("options")
            and expect.get("points")
            and expect.get("contract")
            and expect.get("payments")
            and "illegal" not in expect
        ):
            yield file, data


@pytest.mark.parametrize("name", ruleset_names())
def test_payment_tables_agree_with_the_recorded_deals(name: str) -> None:
    """Every recorded deal of the ruleset (default choices, played to the end): its payment per
    opponent is the table's cell for its contract, result and losing side's points."""
    if not list(_records_of(name)):
        pytest.skip("no recorded deals")
    text = render(name)
    if "| losing side's points |" not in text:
        pytest.skip("no points table")
    rs = load_ruleset(name)
    if rs.settlement.liable or rs.announcements:
        pytest.skip("payments beyond the table's")
    checked = 0
    for file, _data in _records_of(name):
        report = replay(file)
        game = report.game
        result = game.result
        if not report.ok or result is None or result.outcome != "played":
            continue
        if not {"declarer", "defenders"} <= set(result.points or {}) or result.declarer is None:
            continue  # everyone for themselves (Räuber): no lone player to tabulate
        won = result.declarer_won
        loser = result.points["defenders"] if won else result.points["declarer"]
        defender = next(s for s in game.seats if s != result.declarer)
        paid = abs(result.payments[defender])
        if 0 in result.tricks.values() or len(game.seats) in getattr(rs, "by_players", ()):
            continue  # the table takes both sides to win a trick, and is for the rules above
        contract = rs.contracts[result.contract]
        outcome = "won" if won else "lost"
        header, _ = payment_table(text, len(game.seats))
        column = f"{contract.title} {outcome}"
        if column not in header:  # many contracts with one formula: a column per factor
            column = f"×{contract.factor_won if won else contract.factor_lost} {outcome}"
        if column not in header:
            continue
        shown = cell(text, column, loser, len(game.seats))
        assert str(paid) in shown.split(" or "), f"{file.name}: paid {paid}, the table says {shown}"
        checked += 1
    if name == "breitnau":
        assert checked >= 5


# -- the guide and its worked example ------------------------------------------------------------------

GUIDE_TEXT = GUIDE.read_text(encoding="utf-8")


def test_the_guide_shows_the_example_file_as_it_is() -> None:
    block = re.search(r"```yaml\n(# A made-up variant.*?)```", GUIDE_TEXT, re.S).group(1)
    assert block == EXAMPLE.read_text(encoding="utf-8")


def test_the_example_validates_and_plays() -> None:
    assert check_ruleset(str(EXAMPLE)) == []
    rs = load_ruleset(str(EXAMPLE))
    assert "stupfen" not in rs.contracts and (rs.contracts["solo"].factor_won, rs.contracts["solo"].factor_lost) == (
        2,
        2,
    )
    for seed in range(5):
        game = Game(rs, players=6, seed=seed)
        bot = RandomBot(seed)
        while not game.is_over:
            game.apply(game.to_act, bot.choose(game, game.to_act))
        assert sum(game.result.payments) == 0


def test_the_example_records_replay() -> None:
    for file in sorted(EXAMPLES.glob("example-village-*.yaml")):
        report = replay(file)
        assert report.ok, report.failures
    out = tarock("replay", "docs/examples/example-village-game.yaml", "--log")
    assert out.returncode == 0 and "Payments (cent): seat 0: +50" in out.stdout


def test_the_guide_s_diff_is_the_real_diff() -> None:
    block = re.search(
        r"\(`tarock diff breitnau docs/examples/example-village.yaml`\).*?```\n(.*?)```", GUIDE_TEXT, re.S
    ).group(1)
    out = tarock("diff", "breitnau", "docs/examples/example-village.yaml")
    assert out.returncode == 1
    messages = [line for line in out.stdout.splitlines() if not line.startswith(" ")]
    assert block.splitlines() == messages
    assert "    example-village: village-notes: p. 2; attested (docs/examples/example-village.yaml:20)" in out.stdout


def test_the_guide_s_validation_errors_are_the_real_ones(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    broken = (
        text.replace('source: "village-notes: p. 2"', 'source: "vilage-notes: p. 2"')
        .replace("{call: strecken}]", "{call: strecke}]")
        .replace('"position == speakers - 1 and not bid_made"', '"position = speakers - 1 and not bid_made"')
    )
    file = tmp_path / "my-village.yaml"
    file.write_text(broken, encoding="utf-8")
    out = tarock("validate", "my-village.yaml", cwd=tmp_path)
    assert out.returncode == 1
    shown = re.search(r"```\n(my-village.yaml: 3 problem\(s\)\n.*?)```", GUIDE_TEXT, re.S).group(1).splitlines()
    assert shown[0] in out.stdout
    assert sorted(shown[1:]) == sorted(out.stderr.splitlines())
    # … and the reading that would overwrite a value
    kept = text.replace("    factor: 2    ", "    factor: {won: 2, lost: 2}").replace(
        "  solo_factor: null", "  # solo_factor kept"
    )
    file.write_text(kept, encoding="utf-8")
    out = tarock("validate", "my-village.yaml", cwd=tmp_path)
    line = re.search(r"```\n(my-village.yaml:20:28: contracts.solo.factor.lost: .*?)\n```", GUIDE_TEXT, re.S).group(1)
    assert re.sub(r"\S*(?=rulesets/breitnau.yaml)", "", out.stderr.strip()) == line  # the path depends on the cwd


def test_readme_lists_the_commands_and_points_to_the_guide() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in ("| `tarock diff A B", "| `tarock matrix [NAME…]", "| `tarock doc NAME"):
        assert command in readme
    assert "(docs/encoding-a-variant.md)" in readme
