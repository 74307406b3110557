"""Works anywhere, not only in the checkout (issue 31, item 1): run from a folder outside the
repository, a built-in ruleset is named short in messages (`breitnau.yaml (built in)`), and that
name is never taken for a file: records name the ruleset so that they replay, and the sources
of every rule are found (`rules`, `doc`, `diff`, the HTML matrix).

The first tests run in this process, from such a folder. The last ones run every command as a
user of an installed package does: in a process of its own, from a new folder, with a
non-editable install. CI installs one (`pip install ".[test]"`) and the tests use it; where this
environment has an editable install, or none, a non-editable one is built into a temporary
folder from a copy of the sources (pip, no dependencies: they are this environment's), because
an editable install reads the rulesets from the checkout, which is the very thing to avoid. When
no build can be made here (no build backend to be had), those tests are skipped and say why.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from clirun import ROOT, tarock

import interpreter
from interpreter import Game, RuleBot, dump_record, replay
from interpreter.language.loader import display_path, source_file
from interpreter.language.paths import ENV_PATH, rulesets_dir

# -- in this process, from a folder outside the checkout ------------------------------------------


def test_a_built_in_file_named_short_is_found_again(elsewhere: Path) -> None:
    breitnau = rulesets_dir() / "breitnau.yaml"
    assert display_path(breitnau) == "breitnau.yaml (built in)"
    assert source_file("breitnau.yaml (built in)") == breitnau
    assert source_file("rulesets/mine.yaml") == Path("rulesets/mine.yaml")  # any other name is a path


def test_records_written_outside_the_checkout_name_the_ruleset_and_replay(elsewhere: Path) -> None:
    game = Game("breitnau", players=6, seed=1)
    bot = RuleBot()
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, bot.choose(game, seat))
    assert game.record()["ruleset"] == "breitnau"
    (elsewhere / "api.yaml").write_text(dump_record(game.record()), encoding="utf-8")
    assert replay(elsewhere / "api.yaml").ok

    played = tarock("play", "furtwangen", "--seed", "2", "--record", "deal.yaml", cwd=elsewhere)
    assert played.returncode == 0, played.stderr
    assert (elsewhere / "deal.yaml").read_text(encoding="utf-8").startswith("ruleset: furtwangen\n")
    assert tarock("replay", "deal.yaml", cwd=elsewhere).stdout == "deal.yaml: ok\n"

    quit_early = tarock("play", "cego", "--human", "1", "--seed", "4", cwd=elsewhere, stdin="quit\n")
    assert quit_early.returncode == 0, quit_early.stderr
    assert (elsewhere / "cego-unfinished.yaml").read_text(encoding="utf-8").startswith("ruleset: cego\n")
    assert tarock("replay", "cego-unfinished.yaml", cwd=elsewhere).returncode == 0


def test_sources_are_found_outside_the_checkout(elsewhere: Path) -> None:
    rules = tarock("play", "furtwangen", "--human", "1", "--seed", "2", cwd=elsewhere, stdin="rules\nquit\n")
    assert "cannot be summarised" not in rules.stdout
    assert "Source: dappen-en: Furtwangen version" in rules.stdout
    doc = tarock("doc", "furtwangen", cwd=elsewhere).stdout
    assert "*Source: .*" not in doc and doc == tarock("doc", "furtwangen", cwd=ROOT).stdout
    diff = tarock("diff", "breitnau", "furtwangen", cwd=elsewhere).stdout
    assert "no source given; no status" not in diff and "(breitnau.yaml (built in):" in diff
    matrix = tarock("matrix", "--format", "html", cwd=elsewhere).stdout
    assert matrix == tarock("matrix", "--format", "html", cwd=ROOT).stdout
    shown = tarock("show", "schollach", cwd=elsewhere).stdout
    assert shown.startswith("# schollach <- furtwangen <- breitnau <- cego-pack\n")


# -- a non-editable install, from a new folder, every command ------------------------------------


@dataclass
class Installed:
    package: Path  # the installed package's folder (interpreter/)
    env: dict[str, str]
    work: Path  # a new folder outside the checkout, the working directory of every command

    def run(
        self, *args: str, stdin: str = "", python: str | None = None, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        """`tarock ARGS` (or the Python program `python`) as the installed package runs it."""
        command = [sys.executable, "-c", python] if python is not None else [sys.executable, "-m", "interpreter"]
        return subprocess.run(
            [*command, *args],
            cwd=cwd or self.work,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=300,
        )


def _package_seen_from(folder: Path, env: dict[str, str]) -> Path | None:
    found = subprocess.run(
        [sys.executable, "-c", "import interpreter; print(interpreter.__file__)"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return Path(found.stdout.strip()).resolve().parent if found.returncode == 0 else None


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    work = tmp_path_factory.mktemp("anywhere")
    env = {k: v for k, v in os.environ.items() if k not in (ENV_PATH, "PYTHONPATH", "TAROCK_DEBUG")}
    package = _package_seen_from(work, env)
    if package is not None and not package.is_relative_to(ROOT):
        return Installed(package, env, work)  # CI: `pip install ".[test]"`
    # An editable install (or none): a non-editable one, built from a copy of the sources, so
    # that the build leaves nothing in the checkout.
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for name in ("interpreter", "rulesets", "schema"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path_factory.mktemp("site-packages")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile", "--target", str(target)]
        + [str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if built.returncode != 0:
        why = (built.stderr.strip().splitlines() or ["no reason given"])[-1]
        pytest.skip(f"no non-editable install of tarock here, and none could be built into a temporary folder: {why}")
    env["PYTHONPATH"] = str(target)
    package = _package_seen_from(work, env)
    assert package == (target / "interpreter").resolve(), package
    return Installed(package, env, work)


def test_the_installed_package_is_the_one_run_and_carries_its_rulesets(installed: Installed) -> None:
    version = installed.run("--version")
    assert version.returncode == 0
    assert version.stdout.startswith(f"tarock {interpreter.__version__} from {installed.package} (Python ")
    # The console script that pip wrote runs the same package.
    script = next(
        (
            f
            for f in (installed.package.parent / "bin" / "tarock", Path(sys.executable).parent / "tarock")
            if f.is_file()
        ),
        None,
    )
    if script is not None:
        scripted = subprocess.run(
            [str(script), "--version"],
            cwd=installed.work,
            env=installed.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert scripted.stdout == version.stdout, scripted.stderr
    found = installed.run(python="from interpreter.language.paths import rulesets_dir; print(rulesets_dir())")
    assert found.stdout.strip() == str(installed.package / "data" / "rulesets")
    listed = installed.run("list")
    assert listed.returncode == 0 and listed.stderr == "", listed.stderr
    rows = {line.split()[0]: line for line in listed.stdout.splitlines()}
    assert rows["breitnau"].endswith("built in") and rows["koenigrufen"].endswith("built in")
    validated = installed.run("validate", "schollach", "cego").stdout.splitlines()
    # (a ruleset with many readings and options adds a line on the combinations it checked)
    assert [line for line in validated if not line.startswith(" ")] == ["schollach: ok", "cego: ok"]
    assert installed.run("show", "schollach").stdout.startswith("# schollach <- furtwangen <- breitnau <- cego-pack\n")
    assert "stupfen_factor" in installed.run("options", "breitnau").stdout
    assert "breitnau" in installed.run("tree", "--format", "text").stdout
    simulated = installed.run("simulate", "breitnau", "--deals", "3", "--json")
    assert simulated.returncode == 0 and json.loads(simulated.stdout)["deals"] == 3, simulated.stderr


def test_every_record_written_by_an_installed_package_replays(installed: Installed) -> None:
    work = installed.work / "records"
    work.mkdir()

    def run(*args: str, stdin: str = "", python: str | None = None) -> subprocess.CompletedProcess[str]:
        return installed.run(*args, stdin=stdin, python=python, cwd=work)

    assert run("play", "breitnau", "--seed", "3", "--record", "played.yaml").returncode == 0
    assert run("play", "cego", "--human", "1", "--seed", "4", stdin="quit\n").returncode == 0
    api = """
from interpreter import Game, RuleBot, dump_record
game, bot = Game("koenigrufen", players=4, seed=5), RuleBot()
while not game.is_over:
    game.apply(game.to_act, bot.choose(game, game.to_act))
open("api.yaml", "w").write(dump_record(game.record()))
from interpreter import load_ruleset
from interpreter.frontends.web.table import Table
table = Table(load_ruleset("breitnau"), 6, [], 1, seed=6)
while table.bot_step():
    pass
open("web.yaml", "w").write(table.record_text(1))
"""
    made = run(python=api)
    assert made.returncode == 0, made.stderr
    served = run(
        "serve",
        stdin='{"op": "new", "ruleset": "furtwangen", "players": 6, "seed": 7}\n{"op": "record", "game": "g1"}\n',
    )
    record = json.loads(served.stdout.splitlines()[1])["record"]
    (work / "served.yaml").write_text(yaml.safe_dump(record), encoding="utf-8")
    files = ["played.yaml", "cego-unfinished.yaml", "api.yaml", "web.yaml", "served.yaml"]
    named = [yaml.safe_load((work / f).read_text(encoding="utf-8"))["ruleset"] for f in files]
    assert named == ["breitnau", "cego", "koenigrufen", "breitnau", "furtwangen"]
    replayed = run("replay", *files)
    assert replayed.returncode == 0 and replayed.stdout.endswith("5 passed, 0 failed\n"), replayed.stderr
    observed = run("observe", "breitnau", "-o", "observed.yaml", stdin="pass\npass\nsave\n")
    assert observed.returncode == 0, observed.stderr
    checked = run("check", "breitnau", "observed.yaml")
    assert checked.returncode == 0 and "against 1 observed game" in checked.stdout, checked.stderr


def test_an_installed_package_finds_every_source(installed: Installed) -> None:
    rules = installed.run("play", "furtwangen", "--human", "1", "--seed", "2", stdin="rules\nquit\n")
    assert "Source: dappen-en: Furtwangen version" in rules.stdout and "cannot be summarised" not in rules.stdout
    # The same pages as in the checkout, where the sources were always found.
    assert installed.run("doc", "furtwangen").stdout == tarock("doc", "furtwangen", cwd=ROOT).stdout
    assert installed.run("matrix", "--format", "html").stdout == tarock("matrix", "--format", "html", cwd=ROOT).stdout
    diff = installed.run("diff", "breitnau", "furtwangen")
    assert diff.returncode == 1 and "no source given; no status" not in diff.stdout
    assert "(breitnau.yaml (built in):" in diff.stdout and str(ROOT) not in diff.stdout
