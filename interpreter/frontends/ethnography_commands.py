"""The ethnographers' commands: `tarock diff`, `tarock matrix` and `tarock doc`.

The work is done in `interpreter.ethnography`; here are their arguments and what they print.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path as FilePath

from interpreter.errors import RulesetError, TarockError, UsageError
from interpreter.ethnography.diff import compare, report
from interpreter.ethnography.docgen import DEFAULT_OUT, expected_files, render, stale
from interpreter.ethnography.matrix import FORMATS, build
from interpreter.ethnography.semantic import display_name, read
from interpreter.frontends.options import parse_options
from interpreter.language.loader import ruleset_names

# -- tarock diff -------------------------------------------------------------------------------


def add_diff_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="A", help="a ruleset name or file")
    parser.add_argument("b", metavar="B", help="another ruleset name or file")
    parser.add_argument("--json", action="store_true", help="the changes as JSON, for programs")
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


def names_for(ref_a: str, ref_b: str) -> tuple[str, str]:
    na, nb = display_name(ref_a), display_name(ref_b)
    return (na, nb) if na != nb or ref_a == ref_b else (ref_a, ref_b)


def run_diff(args: argparse.Namespace) -> int:
    name_a, name_b = names_for(args.a, args.b)
    try:
        a = read(args.a, parse_options(args.option_a), name=name_a)
        b = read(args.b, parse_options(args.option_b), name=name_b)
    except RulesetError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 2
    except TarockError as exc:
        print(f"tarock: {exc}", file=sys.stderr)
        return 2
    if a.name == b.name:  # one ruleset under two sets of choices
        if args.option_a:
            a.name += f"[{','.join(args.option_a)}]"
        if args.option_b:
            b.name += f"[{','.join(args.option_b)}]"
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
        print(report(changes, a, b))
    return 1 if changes else 0


# -- tarock matrix -----------------------------------------------------------------------------


def add_matrix_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "names", nargs="*", metavar="NAME", help="ruleset names or files (default: every playable ruleset)"
    )
    parser.add_argument("--format", choices=list(FORMATS), default="markdown", help="markdown (default), csv or html")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")


def run_matrix(args: argparse.Namespace) -> int:
    names = args.names or ruleset_names()
    sides = []
    status = 0
    for name in names:
        try:
            sides.append(read(name))
        except RulesetError as exc:
            for problem in exc.problems:
                print(problem, file=sys.stderr)
            status = max(status, 2 if isinstance(exc, UsageError) else 1)
    if status:
        return status
    text = FORMATS[args.format](build(sides))
    if args.output:
        FilePath(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


# -- tarock doc --------------------------------------------------------------------------------


def add_doc_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", metavar="NAME", help="a ruleset name or file")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
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
            out = FilePath(args.out)
            if args.check:
                problems = stale(out)
                for p in problems:
                    print(p, file=sys.stderr)
                if problems:
                    print(f"run `tarock doc --all --out {args.out}` to regenerate", file=sys.stderr)
                    return 1
                return 0
            out.mkdir(parents=True, exist_ok=True)
            for file, text in expected_files(out).items():
                if not file.is_file() or file.read_text(encoding="utf-8") != text:
                    file.write_text(text, encoding="utf-8")
                    print(f"wrote {file}")
            return 0
        if not args.name:
            print("tarock doc: give a ruleset NAME, or --all", file=sys.stderr)
            return 2
        text = render(args.name)
    except RulesetError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 2 if isinstance(exc, UsageError) else 1  # an unknown name, or a ruleset with problems
    if args.output:
        file = FilePath(args.output)
        if args.check:
            if not file.is_file() or file.read_text(encoding="utf-8") != text:
                print(f"{file}: out of date; run `tarock doc {args.name} -o {args.output}`", file=sys.stderr)
                return 1
            return 0
        file.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
