"""The ethnographers' commands: `tarock diff`, `matrix`, `doc`, `options`, `tree`, and for games
observed at a table `observe` and `check`.

The work is done in `interpreter.ethnography`; here are their arguments and what they print.
`COMMANDS` lists them for the command line (name, the module whose docstring describes it, a
one-line summary, its arguments, and what runs it).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path as FilePath
from types import ModuleType

from interpreter.errors import RulesetError, TarockError, UsageError
from interpreter.ethnography import diff, docgen, matrix, trees
from interpreter.ethnography.diff import compare, report
from interpreter.ethnography.docgen import DEFAULT_OUT, choices_data, choices_text, expected_files, render, stale
from interpreter.ethnography.matrix import FORMATS, build
from interpreter.ethnography.semantic import Side, display_name, read
from interpreter.frontends import observe
from interpreter.frontends.options import parse_options
from interpreter.language.loader import ruleset_names


def _problems(exc: RulesetError) -> int:
    """Print a ruleset's problems; the exit status: 2 for bad usage (an unknown name or choice),
    1 for a ruleset with problems."""
    for problem in exc.problems:
        print(problem, file=sys.stderr)
    return 2 if isinstance(exc, UsageError) else 1


def _write(text: str, output: str | None) -> int:
    """`text` to the file `output`, or to standard output; a file that cannot be written is a
    usage error, said in one line."""
    if output is None:
        sys.stdout.write(text)
        return 0
    try:
        FilePath(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"tarock: cannot write {output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


# -- tarock diff -------------------------------------------------------------------------------


def add_diff_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="A", help="a ruleset name or file")
    parser.add_argument("b", metavar="B", help="another ruleset name or file")
    parser.add_argument("--json", action="store_true", help="the changes as JSON, for programs")
    parser.add_argument(
        "--brief", action="store_true", help="one line per rule: the sentences alone, without sources or sections"
    )
    parser.add_argument(
        "--width", type=_width, metavar="N", help="wrap lines at N characters (default: the terminal's width)"
    )
    parser.add_argument(
        "--option-a",
        action="append",
        default=[],
        metavar="NAME=CHOICE",
        help="a reading or option of A (default: its default choices)",
    )
    parser.add_argument(
        "--option-b", action="append", default=[], metavar="NAME=CHOICE", help="a reading or option of B"
    )


def _width(text: str) -> int:
    try:
        width = int(text)
    except ValueError:
        width = 0
    if not 20 <= width <= 10_000:
        raise argparse.ArgumentTypeError(f"a width is a number of characters from 20 to 10000, not '{text}'")
    return width


def names_for(ref_a: str, ref_b: str) -> tuple[str, str]:
    na, nb = display_name(ref_a), display_name(ref_b)
    return (na, nb) if na != nb or ref_a == ref_b else (ref_a, ref_b)


def run_diff(args: argparse.Namespace) -> int:
    name_a, name_b = names_for(args.a, args.b)
    if name_a == name_b:  # one ruleset under two sets of choices
        if args.option_a:
            name_a += f"[{','.join(args.option_a)}]"
        if args.option_b:
            name_b += f"[{','.join(args.option_b)}]"
    try:
        a = read(args.a, parse_options(args.option_a), name=name_a)
        b = read(args.b, parse_options(args.option_b), name=name_b)
    except RulesetError as exc:
        _problems(exc)
        return 2
    changes = compare(a, b)
    if args.json:
        print(
            json.dumps(
                {
                    "a": {"name": a.name, "ref": a.ref, "title": a.title(), "choices": a.choices},
                    "b": {"name": b.name, "ref": b.ref, "title": b.title(), "choices": b.choices},
                    "same": not changes,
                    "changes": [c.as_json(a.name, b.name) for c in changes],
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    elif changes:
        print(report(changes, a, b, width=args.width or terminal_width(), brief=args.brief))
    return 1 if changes else 0


def terminal_width() -> int:
    # COLUMNS where it is set, else the terminal's width, else a page's.
    return max(40, shutil.get_terminal_size((100, 24)).columns)


# -- tarock matrix -----------------------------------------------------------------------------


def add_matrix_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "names", nargs="*", metavar="NAME", help="ruleset names or files (default: every playable ruleset)"
    )
    parser.add_argument("--format", choices=list(FORMATS), default="markdown", help="markdown (default), csv or html")
    parser.add_argument(
        "--base",
        metavar="NAME",
        help="mark the cells that differ from this ruleset's (added as the first row if not named)",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")


def _read_all(names: list[str]) -> tuple[list[Side], int]:
    """The rulesets named, for the table and trees (their rules with the default choices); every
    ruleset's problems are reported, not only the first's."""
    sides = []
    status = 0
    for name in names:
        try:
            sides.append(read(name, effects=False))
        except RulesetError as exc:
            status = max(status, _problems(exc))
    return sides, status


def run_matrix(args: argparse.Namespace) -> int:
    names = list(args.names or ruleset_names())
    if args.base and not any(display_name(n) == display_name(args.base) for n in names):
        names.insert(0, args.base)
    sides, status = _read_all(names)
    if status:
        return status
    base = next((s for s in sides if display_name(s.ref) == display_name(args.base)), None) if args.base else None
    return _write(FORMATS[args.format](build(sides, base)), args.output)


# -- tarock doc --------------------------------------------------------------------------------


def add_doc_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", metavar="NAME", help="a ruleset name or file")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    parser.add_argument(
        "--summary", action="store_true", help="one page: players, pack, bids, contracts, play, counting, scoring"
    )
    parser.add_argument("--all", action="store_true", help="every playable ruleset, one file each in --out")
    parser.add_argument(
        "--out", metavar="DIR", default=DEFAULT_OUT, help=f"the directory for --all (default {DEFAULT_OUT})"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if a file is missing or out of date (with --all, or NAME -o FILE)",
    )


def run_doc(args: argparse.Namespace) -> int:
    try:
        if args.all:
            return _doc_all(FilePath(args.out), args.check)
        if not args.name:
            print("tarock doc: give a ruleset NAME, or --all", file=sys.stderr)
            return 2
        text = render(args.name, summary=args.summary)
    except RulesetError as exc:
        return _problems(exc)
    if args.output and args.check:
        file = FilePath(args.output)
        if not file.is_file() or file.read_text(encoding="utf-8") != text:
            print(f"{file}: out of date; run `tarock doc {args.name} -o {args.output}`", file=sys.stderr)
            return 1
        return 0
    return _write(text, args.output)


def _doc_all(out: FilePath, check: bool) -> int:
    if check:
        problems = stale(out)
        for p in problems:
            print(p, file=sys.stderr)
        if problems:
            print(f"run `tarock doc --all --out {out}` to regenerate", file=sys.stderr)
            return 1
        return 0
    try:
        out.mkdir(parents=True, exist_ok=True)
        for file, text in expected_files(out).items():
            if not file.is_file() or file.read_text(encoding="utf-8") != text:
                file.write_text(text, encoding="utf-8")
                print(f"wrote {file}")
    except OSError as exc:
        print(f"tarock: cannot write to {out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


# -- tarock options ----------------------------------------------------------------------------


def add_options_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="a ruleset name or file")
    parser.add_argument("--json", action="store_true", help="the same as JSON, for programs")


def run_options(args: argparse.Namespace) -> int:
    try:
        side = read(args.name)
    except RulesetError as exc:
        return _problems(exc)
    if args.json:
        print(
            json.dumps(
                {"ruleset": side.name, "title": side.title(), "groups": choices_data(side)},
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        sys.stdout.write(choices_text(side))
    return 0


# -- tarock tree -------------------------------------------------------------------------------


def add_tree_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "names", nargs="*", metavar="NAME", help="ruleset names or files (default: every built-in ruleset)"
    )
    parser.add_argument(
        "--by",
        choices=("extends", "shared"),
        default="extends",
        help="extends: the family tree of `extends` (default); shared: by how many rules they share",
    )
    parser.add_argument("--format", choices=("svg", "text"), default="svg", help="svg (default) or an outline as text")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")


def run_tree(args: argparse.Namespace) -> int:
    names = list(args.names) or None
    if args.by == "shared":
        sides, status = _read_all(names or ruleset_names())
        if status:
            return status
        by_name = {s.ref: s for s in sides}
        reader: Callable[[str], Side] = by_name.__getitem__
        names = [s.ref for s in sides]
    else:
        reader = read
    try:
        text = trees.drawing(args.by, names, args.format, reader)
    except RulesetError as exc:
        return _problems(exc)
    except TarockError as exc:
        print(f"tarock tree: {exc}", file=sys.stderr)
        return 2
    return _write(text, args.output)


# -- the table for the command line ------------------------------------------------------------

OPTIONS_HELP = """A ruleset's readings (where its sources disagree) and options (table agreements): for each,
its question and source, and each choice with the rules it makes. Choose one with
`--option NAME=CHOICE` when playing, simulating or comparing (`tarock diff --option-a/--option-b`)."""

# -- tarock check ------------------------------------------------------------------------------


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="the ruleset to check the games against (a name or file)")
    parser.add_argument("folders", nargs="+", metavar="FOLDER", help="folders of game records (or record files)")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=CHOICE", help="a reading or option for every game"
    )


def run_check(args: argparse.Namespace) -> int:
    from interpreter.ethnography.fieldwork import check_games
    from interpreter.ethnography.fieldwork import render as render_check

    folders = [FilePath(f) for f in args.folders]
    missing = [str(f) for f in folders if not f.exists()]
    if missing:
        print(f"tarock check: no such folder or file: {', '.join(missing)}", file=sys.stderr)
        return 2
    try:
        report = check_games(args.name, folders, parse_options(args.option))
    except RulesetError as exc:
        return _problems(exc)
    if not report.games:
        print(f"tarock check: no game records (*.yaml, *.yml, *.json) in {', '.join(args.folders)}", file=sys.stderr)
        return 2
    sys.stdout.write(render_check(report, folders))
    return 0 if report.clean else 1


CHECK_HELP = """A ruleset checked against a folder of game records, observed at a table or not: which rules
the games broke, how often and where (records: README, "Games observed at a table").
Exit status 1 when a game broke a rule or could not be checked."""


Command = tuple[str, str, str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]


def _about(module: ModuleType) -> str:
    return (module.__doc__ or "").strip()


COMMANDS: list[Command] = [
    ("diff", _about(diff), "the rule-by-rule differences between two rulesets", add_diff_arguments, run_diff),
    (
        "matrix",
        _about(matrix),
        "a feature table across rulesets (Markdown, CSV or HTML)",
        add_matrix_arguments,
        run_matrix,
    ),
    ("doc", _about(docgen), "a ruleset rendered as readable rules in Markdown", add_doc_arguments, run_doc),
    (
        "options",
        OPTIONS_HELP,
        "a ruleset's readings and options, with their choices",
        add_options_arguments,
        run_options,
    ),
    (
        "tree",
        _about(trees),
        "the family tree of the rulesets, or a tree by shared rules (SVG)",
        add_tree_arguments,
        run_tree,
    ),
    ("observe", observe.__doc__ or observe.SUMMARY, observe.SUMMARY, observe.add_arguments, observe.run),
    (
        "check",
        CHECK_HELP,
        "check a ruleset against a folder of observed games: which rules they broke, how often",
        add_check_arguments,
        run_check,
    ),
]
