"""Generated rules pages (docs/rules/) are up to date, agree with the engine and say only what the
ruleset says; the guide's worked example validates, plays, diffs and replays as the guide says.

Each ruleset is rendered once for the whole module (`pages`); the command line runs in this
process."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

# The command module takes docgen's functions by name when first imported: imported here, before a
# test below replaces docgen.expected_files for a while, so that it never keeps the replacement (a
# later `doc --all` in this process would render the shipped rulesets only, and miss a user's own).
import interpreter.frontends.ethnography_commands  # noqa: F401
from interpreter import Game, load_ruleset
from interpreter.bots.randombot import RandomBot
from interpreter.engine.records import replay
from interpreter.ethnography.docgen import pack_totals, render, stale, totals_text
from interpreter.ethnography.semantic import read
from interpreter.frontends.cli import main
from interpreter.language.loader import check_ruleset, ruleset_names

ROOT = Path(__file__).parent.parent
RULES = ROOT / "docs" / "rules"
GUIDE = ROOT / "docs" / "encoding-a-variant.md"
EXAMPLES = ROOT / "docs" / "examples"
EXAMPLE = EXAMPLES / "example-village.yaml"
NAMES = ruleset_names()
YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    """Every playable ruleset's page, rendered once."""
    return {name: render(name) for name in NAMES}


def tarock(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


# -- docs/rules ----------------------------------------------------------------------------------


def test_every_rules_page_is_up_to_date(pages: dict[str, str]) -> None:
    """The CI check: a ruleset changed without regenerating its page fails here."""
    problems = stale(RULES, {RULES / f"{name}.md": text for name, text in pages.items()})
    assert problems == [], "\n".join(problems) + "\nrun `tarock doc --all --out docs/rules` to regenerate"


def test_every_playable_ruleset_has_a_page() -> None:
    assert sorted(p.stem for p in RULES.glob("*.md")) == sorted(NAMES)


def test_check_names_the_stale_file_and_the_fix(
    tmp_path: Path, pages: dict[str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "rules"
    shutil.copytree(RULES, copy)
    name = NAMES[0]
    (copy / f"{name}.md").write_text("# edited by hand\n", encoding="utf-8")
    (copy / "atlantis.md").write_text("# gone\n", encoding="utf-8")
    # the pages rendered once stand in for the command's own rendering
    monkeypatch.setattr(
        "interpreter.ethnography.docgen.expected_files", lambda out: {out / f"{n}.md": t for n, t in pages.items()}
    )
    status, _, err = tarock(capsys, "doc", "--all", "--out", str(copy), "--check")
    assert status == 1
    assert f"{name}.md: out of date" in err and "atlantis.md: no ruleset of that name" in err
    assert f"run `tarock doc --all --out {copy}` to regenerate" in err
    (copy / f"{name}.md").unlink()
    assert f"{copy / name}.md: missing" in stale(copy, {copy / f"{n}.md": t for n, t in pages.items()})


def test_doc_command(tmp_path: Path, pages: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert tarock(capsys, "doc", "breitnau") == (0, pages["breitnau"], "")
    file = tmp_path / "b.md"
    assert tarock(capsys, "doc", "breitnau", "-o", str(file))[0] == 0
    assert file.read_text(encoding="utf-8") == pages["breitnau"]
    assert tarock(capsys, "doc", "breitnau", "-o", str(file), "--check")[0] == 0
    file.write_text("stale\n", encoding="utf-8")
    assert tarock(capsys, "doc", "breitnau", "-o", str(file), "--check")[0] == 1
    status, _, err = tarock(capsys, "doc", "atlantis")
    assert status == 2 and "no ruleset named 'atlantis'" in err
    assert tarock(capsys, "doc")[0] == 2
    assert tarock(capsys, "doc", "cego-pack")[0] == 2  # a base is not a game
    status, _, err = tarock(capsys, "doc", "breitnau", "-o", str(tmp_path / "no-such-dir" / "x.md"))
    assert status == 2 and err.startswith("tarock: cannot write ") and "Traceback" not in err


def test_a_page_shows_every_contract_reading_and_option(pages: dict[str, str]) -> None:
    for name, text in pages.items():
        rs = read(name).ruleset
        assert text.startswith(f"# {rs.title}\n")
        for contract in rs.contracts.values():
            assert f"### {contract.title}\n" in text, (name, contract.name)
        for group in rs.groups:
            assert f"### `{group.name}`" in text, (name, group.name)
            for choice in group.choices:
                assert f"- **{choice}**" in text, (name, group.name, choice)
        assert "### Payments with" in text or "is scored by its own formula" in text, name


# -- the text says only what the ruleset says ---------------------------------------------------------


def test_the_pack_s_worth_is_computed_from_the_piles() -> None:
    """Counting in pairs takes a point off an odd card: with seven players a side can end with
    an odd number of cards (tricks of seven), and then both do, so the pack counts 78."""
    rs = read("breitnau").ruleset
    assert {t.points for t in pack_totals(rs, 6)} == {79}  # tricks of six, the talon of twelve
    assert {(t.points, t.left_over) for t in pack_totals(rs, 7)} == {(79, (0, 0)), (78, (1, 1))}
    assert totals_text(rs) == (
        "Counted this way, the whole pack is worth 79 points with 6 players; with 7 players, "
        "79 when both sides have an even number of cards or 78 when both sides have an odd number of cards."
    )


def test_the_pack_s_worth_for_each_family() -> None:
    assert (
        totals_text(read("schollach").ruleset) == "Counted this way, the whole pack is worth 79 points with 6 players."
    )
    cego = totals_text(read("cego").ruleset)
    assert cego.startswith(
        "Counted this way, the whole pack is worth 69 points with 3 players; 70 points with 4 players."
    )
    assert "count for nobody" in cego  # Piccolo and Bettel: the talon counts for nobody
    assert totals_text(read("tapp").ruleset) == ""  # card by card, nothing off: the points before counting


@pytest.mark.parametrize("name", ["schollach", "schwaerzenbach", "furtwangen", "buchenbach"])
def test_no_stupfen_call_where_there_is_no_stupfen(name: str, pages: dict[str, str]) -> None:
    """These rulesets inherit Breitnau's `stupfen` call but no ladder uses it: not a call here."""
    rs = read(name).ruleset
    assert "stupfen" not in rs.contracts
    calls = pages[name].split("## Calls", 1)[1].split("\n## ", 1)[0]
    assert "stupfen" not in calls and "| `dappen` |" in calls


def test_each_rule_is_credited_to_the_file_that_states_it(tmp_path: Path) -> None:
    file = tmp_path / "one-field.yaml"
    file.write_text(
        "title: One field\nextends: breitnau\nsources: {notes: {title: Notes}}\n"
        'source: "notes: p. 1"\nstatus: attested\n'
        'contracts:\n  dappen: {factor: 3, source: "notes: p. 2", status: reported}\n',
        encoding="utf-8",
    )
    assert check_ruleset(str(file)) == []
    text = render(str(file))
    dappen = text.split("### Dappen\n", 1)[1].split("\n### ", 1)[0]
    assert "*Source: notes: p. 2; reported.*" in dappen
    assert "- **Factor:** ×3\n" in dappen  # the variant's own value: its own source, said above
    # … but the exchange is Breitnau's, and says so
    assert (
        "- **Exchange:** takes up the talon; discards 12 cards, not a card for which `card in five_pointers` *(dappen-en: Breitnau version; dappen-de §8; reported)*"
        in dappen
    )
    # A variant that changes one field and says nothing about the contract: the contract is still
    # its base's, the one field the variant's.
    file.write_text(
        "title: One field\nextends: breitnau\nsources: {notes: {title: Notes}}\n"
        'source: "notes: p. 1"\nstatus: attested\ncontracts:\n  dappen: {factor: 3}\n',
        encoding="utf-8",
    )
    dappen = render(str(file)).split("### Dappen\n", 1)[1].split("\n### ", 1)[0]
    assert "*Source: dappen-en: Breitnau version; dappen-de §8; reported.*" in dappen
    assert "- **Factor:** ×3 *(notes: p. 1; attested)*" in dappen
    assert (
        "- **Exchange:** takes up the talon; discards 12 cards, not a card for which `card in five_pointers`\n"
        in dappen
    )
    # A variant that inherits without restating: its base's source, the status it gives inherited rules.
    schollach = render("schollach")
    assert (
        "- **Direction of play:** anticlockwise (seats are numbered in the order of play) *(dappen-en: Breitnau version; dappen-de §4 (Breitnau is the reference variant); assumed)*"
        in schollach
    )


def test_summary_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, summary, _ = tarock(capsys, "doc", "breitnau", "--summary")
    assert status == 0 and summary.startswith("# Dappen (Breitnau) — summary\n")
    assert len(summary.splitlines()) < 60  # one page
    assert (
        "| Stupfen | ×3 | takes up the talon; discards 12 cards, not a card for which card in five_pointers |"
        in summary
    )
    assert "78 when both sides have an odd number of cards" in summary
    assert (
        "- reading `solo_factor`: Is a Solo worth double when won, when lost, or both? (**leaflet**, english)"
        in summary
    )
    status, options, _ = tarock(capsys, "options", "breitnau")
    assert status == 0
    lines = options.splitlines()
    at = lines.index("  solo_factor: Is a Solo worth double when won, when lost, or both?")
    assert lines[at + 1 : at + 4] == [
        "    leaflet (default)",
        "        rules: Solo factor: won ×1, lost ×2",
        "        source: dappen-de §10: Solo won 1, lost 2 (the reverse of Furtwangen, §11.4); reported",
    ]
    assert "    english" in lines and "        rules: Solo factor: ×2" in lines
    status, data, _ = tarock(capsys, "options", "breitnau", "--json")
    groups = yaml.safe_load(data)["groups"]
    assert [g["name"] for g in groups] == ["solo_factor", "stupfen_factor", "dealer_sitting_out"]
    assert groups[2]["kind"] == "option" and groups[2]["choices"][1]["rules"] == [
        {"rule": "Whoever sits out", "value": "pays and receives like an opponent"}
    ]
    assert tarock(capsys, "options", "atlantis")[0] == 2


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


def test_breitnau_payment_table_is_what_the_engine_pays(pages: dict[str, str]) -> None:
    text = pages["breitnau"]
    assert cell(text, "Dappen won", 34) == "10"  # (40 - 34) × 1 = 6, rounded up to 10
    assert cell(text, "Stupfen won", 34) == "20"  # (40 - 34) × 3 = 18 → 20
    assert cell(text, "Solo lost", 30) == "20"  # lost: (40 - 30) × 2 = 20
    assert cell(text, "Solo won", 30) == "10"  # won: × 1


RECORDS = [
    (file, yaml.load(file.read_text(encoding="utf-8"), Loader=YAML_LOADER))
    for file in sorted((ROOT / "tests" / "records").glob("*.yaml"))
]


def test_payment_tables_agree_with_the_recorded_deals(pages: dict[str, str]) -> None:
    """Every recorded deal with the default choices, played to the end by a lone player: the
    payment per opponent it expects (computed by hand from the source; tests/test_records.py
    checks the engine pays it) is the table's cell for its contract, result and losing side's
    points. Where bonuses pay beyond the game (Dreierles, Königrufen), the table shows the game alone: the
    bonuses' parts, as the replayed deal itemises them, are taken off the expected payments
    first (their sum with the game is what the record's hand count checks)."""
    checked: dict[str, int] = {}
    for file, data in RECORDS:
        name, expect = data.get("ruleset"), data.get("expect") or {}
        if (
            name not in pages
            or data.get("options")
            or "illegal" in expect
            or expect.get("outcome", "played") != "played"
        ):
            continue
        if not {"contract", "declarer", "declarer_won", "points", "payments"} <= set(expect):
            continue
        text = pages[name]
        rs = read(name).ruleset
        players = data.get("players") or len(expect["payments"])
        active = rs.active_at(players)
        if (
            rs.settlement.liable
            or rs.announcements
            or active in rs.by_players
            or "| losing side's points |" not in text
        ):
            continue  # payments beyond the table's, or rules of their own for that number
        payments = list(expect["payments"])
        if rs.bonuses:
            result = replay(file).game.result
            assert result is not None and result.payments == payments, file.name
            if result.kontra != 1:
                continue  # a doubled game: the table shows it undoubled
            for bonus in result.bonuses:
                payments = [p - b for p, b in zip(payments, bonus["payments"], strict=True)]
        if not {"declarer", "defenders"} <= set(expect["points"]) or 0 in (expect.get("tricks") or {}).values():
            continue  # everyone for themselves, or a side without a trick: the table takes both to win one
        contract = rs.contracts[expect["contract"]]
        won = expect["declarer_won"]
        loser = expect["points"]["defenders" if won else "declarer"]
        outcome = "won" if won else "lost"
        header, _ = payment_table(text, active)
        column = f"{contract.title} {outcome}"
        if column not in header:  # many contracts with one formula: a column per factor
            column = f"×{contract.factor_won if won else contract.factor_lost} {outcome}"
        if column not in header:
            continue
        declarer = expect["declarer"]
        paid = {abs(p) for seat, p in enumerate(payments) if seat != declarer and p}
        shown = cell(text, column, loser, active).split(" or ")
        assert paid & {int(v) for v in shown if v.isdigit()}, f"{file.name}: paid {paid}, the table says {shown}"
        checked[name] = checked.get(name, 0) + 1
    assert checked.get("breitnau", 0) >= 5 and checked.get("dreierles", 0) >= 5 and len(checked) >= 6, checked


# -- the guide and its worked example ------------------------------------------------------------------

GUIDE_TEXT = GUIDE.read_text(encoding="utf-8")


def test_the_guide_shows_the_example_file_as_it_is() -> None:
    found = re.search(r"```yaml\n(# A made-up variant.*?)```", GUIDE_TEXT, re.S)
    assert found is not None and found.group(1) == EXAMPLE.read_text(encoding="utf-8")


def test_the_example_validates_and_plays() -> None:
    assert check_ruleset(str(EXAMPLE)) == []
    rs = load_ruleset(str(EXAMPLE))
    solo = rs.contracts["solo"]
    assert "stupfen" not in rs.contracts and (solo.factor_won, solo.factor_lost) == (2, 2)
    for seed in range(3):
        game = Game(rs, players=6, seed=seed)
        bot = RandomBot(seed)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            game.apply(seat, bot.choose(game, seat))
        assert game.result is not None and sum(game.result.payments) == 0


def test_the_example_records_replay(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for file in sorted(EXAMPLES.glob("example-village-*.yaml")):
        report = replay(file)
        assert report.ok, report.failures
    monkeypatch.chdir(ROOT)
    status, out, _ = tarock(capsys, "replay", "docs/examples/example-village-game.yaml", "--log")
    assert status == 0 and "Payments: seat 0 +50" in out


def test_the_guide_s_diff_is_the_real_diff(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    found = re.search(
        r"\(`tarock diff breitnau docs/examples/example-village.yaml --brief`\).*?```\n(.*?)```", GUIDE_TEXT, re.S
    )
    assert found is not None
    monkeypatch.chdir(ROOT)
    status, out, _ = tarock(capsys, "diff", "breitnau", "docs/examples/example-village.yaml", "--brief")
    assert status == 1 and found.group(1) == out
    status, out, _ = tarock(capsys, "diff", "breitnau", "docs/examples/example-village.yaml", "--width", "200")
    assert "      example-village: village-notes: p. 2; attested (docs/examples/example-village.yaml:20)" in out


def test_the_guide_s_validation_errors_are_the_real_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    broken = (
        text.replace('source: "village-notes: p. 2"', 'source: "vilage-notes: p. 2"')
        .replace("{call: strecken}]", "{call: strecke}]")
        .replace('"position == speakers - 1 and not bid_made"', '"position = speakers - 1 and not bid_made"')
    )
    file = tmp_path / "my-village.yaml"
    file.write_text(broken, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status, out, err = tarock(capsys, "validate", "my-village.yaml")
    assert status == 1
    found = re.search(r"```\n(my-village.yaml: 3 problem\(s\)\n.*?)```", GUIDE_TEXT, re.S)
    assert found is not None
    shown = found.group(1).splitlines()
    assert shown[0] in out
    assert sorted(shown[1:]) == sorted(err.splitlines())
    # … and the reading that would overwrite a value
    kept = text.replace("    factor: 2    ", "    factor: {won: 2, lost: 2}").replace(
        "  solo_factor: null", "  # solo_factor kept"
    )
    file.write_text(kept, encoding="utf-8")
    status, out, err = tarock(capsys, "validate", "my-village.yaml")
    line = re.search(r"```\n(my-village.yaml:20:28: contracts.solo.factor.lost: .*?)\n```", GUIDE_TEXT, re.S)
    assert line is not None
    assert err.strip() == line.group(1)  # a built-in file named short, wherever it is installed


def test_readme_lists_the_commands_and_points_to_the_guide() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in (
        "| `tarock diff A B",
        "| `tarock matrix [NAME…]",
        "| `tarock doc NAME",
        "| `tarock options NAME",
        "| `tarock tree ",
    ):
        assert command in readme
    assert "(docs/encoding-a-variant.md)" in readme


# -- links and the design contract ----------------------------------------------------------------

DESIGN = ROOT / "docs" / "design.md"
DESIGN_TEXT = DESIGN.read_text(encoding="utf-8")
# Every page a reader of a clone follows links from: the README, the guides and the rules pages.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)  # https:, mailto:, ...


def prose_lines(text: str) -> list[str]:
    """The lines of a Markdown page outside fenced code blocks."""
    lines: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def links(text: str) -> list[str]:
    """The targets of a page's links and images; code (fenced or inline) holds none."""
    return [m.group(1) for line in prose_lines(text) for m in LINK.finditer(re.sub(r"`[^`]*`", "", line))]


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a page's headings: the text without its Markdown, lower case,
    punctuation dropped, spaces as hyphens; a repeated one numbered -1, -2, ..."""
    seen: dict[str, int] = {}
    for line in prose_lines(text):
        heading = HEADING.match(line)
        if heading is None:
            continue
        words = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(2)).replace("`", "")
        slug = re.sub(r"[^\w\- ]", "", words.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        if count:
            seen[f"{slug}-{count}"] = 1
    return set(seen)


def test_link_checking_finds_what_a_clone_lacks() -> None:
    text = (
        "# A page\n## Same\n## Same\n"
        "See [it](../shared/DESIGN.md), [`x`](b.md#same-1) and `[no](link)`.\n"
        "```\n[no](link)\n# not a heading\n```\n"
        '![pic](p.png "title") <https://x.org> [web](https://example.org)\n'
    )
    assert links(text) == ["../shared/DESIGN.md", "b.md#same-1", "p.png", "https://example.org"]
    assert anchors(text) == {"a-page", "same", "same-1"}
    assert {"playing-in-the-terminal-and-in-the-browser", "where-rulesets-are-found"} <= anchors(
        (ROOT / "README.md").read_text(encoding="utf-8")
    )
    assert "events-1" in anchors((ROOT / "docs" / "protocol.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_in_the_repository(page: Path) -> None:
    """A link works in a clone: its file lies in the repository (not beside it, as ../shared/
    did), and an anchor names a heading of the page it points to."""
    problems = []
    for target in links(page.read_text(encoding="utf-8")):
        if EXTERNAL.match(target):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.is_relative_to(ROOT.resolve()) or not file.exists():
            problems.append(f"{target}: no such file in the repository")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file.read_text(encoding="utf-8")):
            problems.append(f"{target}: {file.name} has no heading with the anchor #{anchor}")
    assert problems == [], f"{page.relative_to(ROOT)}: " + "; ".join(problems)


def test_the_readme_and_the_protocol_link_the_design_contract() -> None:
    assert "(docs/design.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(design.md)" in (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


def test_the_design_s_record_replays_as_it_says(tmp_path: Path) -> None:
    found = re.search(r"## Game records\n.*?```yaml\n(.*?)```", DESIGN_TEXT, re.S)
    assert found is not None
    file = tmp_path / "design-example.yaml"
    file.write_text(found.group(1), encoding="utf-8")
    report = replay(file)
    assert report.ok, report.failures
    assert report.refused_at == 12 and report.game is not None
    assert (report.game.contract.name if report.game.contract else None, report.game.declarer) == ("strecken", 2)


def table(heading: str) -> list[list[str]]:
    """The rows of the first table under `heading` in the design page, header and rule left out."""
    lines = DESIGN_TEXT.split(f"\n{heading}\n", 1)[1].splitlines()
    end = next((i for i, line in enumerate(lines) if line.startswith("#")), len(lines))
    rows = [line for line in lines[:end] if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def names(cell: str) -> list[str]:
    return re.findall(r"`([\w-]+)`", cell)


def listed_calls(cell: str, rows: dict[str, set[str]]) -> set[str]:
    """A cell of the calls table: the calls, or "as `cego` without `a`, and `b`, `c`"."""
    like = re.match(r"as `([\w-]+)`(.*)$", cell)
    if like is None:
        return set(names(cell))
    rest = like.group(2)
    without = re.search(r"without ((?:`\w+`(?:,\s*)?)+)", rest)
    added = re.search(r"\band (.*)$", rest)
    return rows[like.group(1)] - set(names(without.group(1) if without else "")) | set(
        names(added.group(1) if added else "")
    )


def test_the_design_names_every_ruleset_and_its_calls() -> None:
    """The canonical names are the rulesets' own: a ruleset, call, announcement, bonus or
    contract added or renamed without docs/design.md fails here."""
    listed = {name for _, cell in table("### Rulesets") for name in names(cell)}
    bases = {"cego-pack", "french-pack"}
    assert listed == set(NAMES) | bases, "docs/design.md#rulesets: add or remove " + ", ".join(
        sorted(listed ^ (set(NAMES) | bases))
    )
    calls: dict[str, set[str]] = {}
    for who, cell in table("### Calls"):
        for name in names(who):
            calls[name] = listed_calls(cell, calls)
    assert set(calls) == set(NAMES)
    for name in NAMES:
        rs = load_ruleset(name)
        assert calls[name] == set(rs.used_calls()) - {"pass"}, f"docs/design.md#calls, {name}"
        for contract in set(rs.contracts) - set(rs.used_calls()):
            assert f"`{contract}`" in DESIGN_TEXT, f"docs/design.md: contract {contract} of {name}"
        for bonus in rs.bonuses:
            assert f"`{bonus}`" in DESIGN_TEXT, f"docs/design.md: bonus {bonus} of {name}"
    announced: dict[str, set[str]] = {}
    for who, cell in table("### Announcements, bonuses and kontra"):
        for name in names(who):
            announced[name] = set(names(cell))
    for name in NAMES:
        rs = load_ruleset(name)
        own = set(rs.announcements) | {b for b, bonus in rs.bonuses.items() if bonus.announced is not None}
        assert own <= announced.get(name, set()), f"docs/design.md#announcements-bonuses-and-kontra, {name}"
        assert bool(own) == (name in announced), name


def test_the_pack_s_worth_is_that_of_the_cards_dealt() -> None:
    """Issue 28, item 12: a table that plays without some cards is told what the cards dealt are
    worth, not the whole pack: three-player Cego plays without C7, S7 and D4, 51 cards worth 103
    before counting (the 54 of the pack are worth 106)."""
    from interpreter.ethnography.docgen import _pack_worth

    rs = load_ruleset("cego")
    assert sum(rs.deck.points.values()) == 106 and len(rs.pack(3)) == 51
    assert _pack_worth(rs) == (
        "With 3 players the 51 cards dealt are worth 103 points; with 4 players the 54 cards dealt are worth 106 "
        "points before counting."
    )
    assert _pack_worth(load_ruleset("breitnau")) == "All cards together are worth 106 points before counting."
