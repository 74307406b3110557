"""The `tarock` command. Exit status: 0 success, 1 a check failed (or a fault of ours), 2 bad usage or
an environment that does not allow the command (a file that cannot be written, a closed input)."""

from __future__ import annotations

import argparse
import errno
import importlib.metadata
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml

from interpreter.errors import RulesetError, TarockError, UsageError
from interpreter.frontends.options import parse_options
from interpreter.frontends.output import check_writable

EXAMPLES = [
    ("tarock list", "the rulesets and their player counts"),
    ("tarock validate", "check every built-in ruleset"),
    ("tarock validate my-variant.yaml", "check your own file (all errors at once)"),
    ("tarock show {name}", "the ruleset after inheritance"),
    ("tarock play {name} --seed 3", "one deal by bots, as a readable log"),
    ("tarock play {name} --human 1", "play seat 1 yourself (type help at any question)"),
    ("tarock play {name} --human 1 --deals 8", "a session of 8 deals with a running score"),
    ("tarock web", "a browser table for people and bots"),
    ("tarock play {name} --option NAME=CHOICE --record deal.yaml", ""),
    ("tarock replay tests/records/*.yaml", "check game records against their outcomes"),
]


def _epilog() -> str:
    # Examples name a real ruleset, found at run time: the code itself never names a variant.
    from interpreter.language.loader import ruleset_names

    names = ruleset_names()
    name = names[0] if names else "NAME"
    lines = [f"  {cmd.format(name=name):<44} {what}".rstrip() for cmd, what in EXAMPLES]
    return (
        "examples:\n"
        + "\n".join(lines)
        + "\n\nrulesets by name are looked up, first match wins, in ./rulesets/, then in each folder of\n"
        "TAROCK_PATH (separated like PATH), then among the built-in ones; `tarock list` says where each\n"
        "comes from. A name with / or ending in .yaml is a file's path.\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `tarock` command with `argv` (default: the process's arguments); returns the exit
    status. Every failure ends here as one line on stderr: 1 when a check failed, 2 for bad usage
    or an environment that does not allow the command (a file that cannot be written, a closed
    input), and a one-line "internal error" for a fault of ours."""
    try:
        # (building the parser reads the rulesets' names: a Ctrl-C can come while it does)
        parser = build_parser()
        args = parser.parse_args(argv)
    except KeyboardInterrupt:
        _say("", "tarock: interrupted")
        return 130
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        _say_skipped()
        status: int = args.run(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk or a closed pipe is reported here, not at exit
        return status
    except UsageError as exc:  # a name that does not exist: bad usage
        _say(*(str(p) for p in exc.problems))
        return 2
    except RulesetError as exc:
        _say(*(str(p) for p in exc.problems))
        return 1
    except TarockError as exc:
        _say(f"tarock: {exc}")
        return 2
    except KeyboardInterrupt:
        _say("", "tarock: interrupted")
        return 130
    except BrokenPipeError:  # the reader went away (`tarock list | head -1`): nothing to say
        _drop_stdout()
        return 0
    except OSError as exc:
        _say(f"tarock: {_os_problem(exc)}")
        return 2
    except Exception as exc:  # a bug of ours: one clear line, the traceback only on request
        if os.environ.get("TAROCK_DEBUG"):
            raise
        _say(
            f"tarock: internal error: {type(exc).__name__}: {exc} (please report it; "
            f"TAROCK_DEBUG=1 shows the traceback)"
        )
        return 1


def _say_skipped() -> None:
    """One line naming the files in ./rulesets and TAROCK_PATH that the lookup passes over (a
    FIFO, a device, a file too large to be a ruleset): every command looks names up there."""
    from interpreter.language.loader import display_path, skipped_rulesets
    from interpreter.language.paths import MAX_RULESET_BYTES

    skipped = skipped_rulesets()
    if skipped:
        # The folder shown as messages show it, the file by its own name (a link not followed).
        files = ", ".join(f"{Path(display_path(file.parent)) / file.name} ({why})" for file, why in skipped)
        _say(f"tarock: passed over {files}: a ruleset is a regular file of at most {MAX_RULESET_BYTES:,} bytes")


def _say(*lines: str) -> None:
    """Lines on stderr; when even stderr cannot be written, the exit status says it alone."""
    try:
        for line in lines:
            print(line, file=sys.stderr)
    except (OSError, AttributeError):  # AttributeError: stderr is closed (None)
        pass


# Failures that only writing can have: without a file named, what could not be written is the
# standard output (every file the commands open carries its name in the error).
WRITE_FAILURES = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def _os_problem(exc: OSError) -> str:
    """An environment error in words: the file and the reason."""
    reason = exc.strerror or str(exc)
    if exc.filename is not None:
        return f"{exc.filename}: {reason}"
    if exc.errno in WRITE_FAILURES:
        _drop_stdout()
        return f"cannot write the output: {reason}"
    return reason


def _drop_stdout() -> None:
    """Point standard output at /dev/null: Python flushes it again at exit, and the output that
    could not be written would otherwise fail a second time, with a traceback."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # closed, or not a file (captured in tests)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


class _Parser(argparse.ArgumentParser):
    """The top parser: its examples are written only when help is shown (finding a ruleset to name
    in them reads every ruleset file, too slow to do for every command)."""

    examples_wanted = False  # set on the top parser only (its subparsers are of this class too)

    def format_help(self) -> str:
        if self.examples_wanted and self.epilog is None:
            self.epilog = _epilog()
        return super().format_help()


def _version() -> str:
    # The installed distribution's version, which pyproject.toml takes from interpreter.__version__
    # (the facade, which no module of the package imports).
    try:
        version = importlib.metadata.version("tarock")
    except importlib.metadata.PackageNotFoundError:
        version = "(not installed)"
    package = Path(__file__).resolve().parent.parent
    return f"tarock {version} from {package} (Python {sys.version_info.major}.{sys.version_info.minor})"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tarock",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play, check and replay regional Tarock variants (Dappen, Cego, Tapp) written as YAML rulesets.",
    )
    parser.examples_wanted = True
    parser.add_argument(
        "--version", action="version", version=_version(), help="the version, and where it is installed"
    )
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")

    p = sub.add_parser("list", help="list the rulesets")
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("validate", help="check rulesets; every error at once, with file:line:col")
    p.add_argument(
        "files", nargs="*", metavar="FILE", help="ruleset names or files (default: every ruleset found by name)"
    )
    p.set_defaults(run=cmd_validate)

    p = sub.add_parser("show", help="print a ruleset after inheritance")
    p.add_argument("name", help="ruleset name or file")
    p.add_argument(
        "--own", action="store_true", help="only the rules the file itself states (what differs from its bases)"
    )
    p.set_defaults(run=cmd_show)

    p = sub.add_parser("play", help="play a deal (or --deals N) with bots and people, as a readable log")
    p.add_argument("name", help="ruleset name or file")
    p.add_argument("--players", type=int, help="people at the table (default: the game's usual table)")
    p.add_argument(
        "--deals",
        type=int,
        default=1,
        help="deals in the session at most (default 1); the ruleset's session says who deals each, with which "
        "rules, and may end it sooner",
    )
    p.add_argument(
        "--signal",
        action="append",
        default=[],
        metavar="NAME@DEAL",
        help="in a session: the signal for the ruleset's round NAME before deal DEAL (from 1)",
    )
    p.add_argument("--dealer", type=int, default=0, help="the dealer's seat (default 0)")
    p.add_argument("--seed", type=int, help="shuffle seed; the same seed gives the same deal and bot play")
    p.add_argument(
        "--human", type=int, action="append", default=[], metavar="SEAT", help="a seat you play yourself (repeatable)"
    )
    p.add_argument("--option", action="append", default=[], metavar="NAME=CHOICE", help="choose a reading or option")
    p.add_argument("--record", metavar="FILE", help="save the deal as a game record")
    p.add_argument(
        "--bot",
        choices=("random", "rules", "search"),
        default="rules",
        help="who plays the other seats: the rule-based bot (default), uniform random choices, or the "
        "searching bot (determinized Monte Carlo over the ruleset)",
    )
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("replay", help="replay game records and compare with their expected outcome")
    p.add_argument("records", nargs="+", metavar="RECORD")
    p.add_argument("--log", action="store_true", help="print each deal's log")
    p.set_defaults(run=cmd_replay)

    # Commands that live in their own modules, described by the module that does the work.
    for name, described_by, summary, add_arguments, run in _plugged():
        p = sub.add_parser(
            name,
            help=summary,
            formatter_class=argparse.RawDescriptionHelpFormatter,
            description=(described_by if isinstance(described_by, str) else described_by.__doc__ or summary).strip(),
        )
        add_arguments(p)
        p.set_defaults(run=run)
    return parser


def _plugged() -> list[
    tuple[str, Any, str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]
]:
    from interpreter.frontends import ethnography_commands as ethno
    from interpreter.frontends import server, simulate, web

    return [
        (
            "simulate",
            simulate,
            "play many seeded deals with bots and report statistics",
            simulate.add_arguments,
            simulate.run,
        ),
        *ethno.COMMANDS,  # diff, matrix, doc, options, tree
        (
            "serve",
            server,
            "the JSON-lines protocol on stdin/stdout, for frontends and bots",
            server.add_arguments,
            server.run,
        ),
        ("web", web, web.SUMMARY, web.add_arguments, web.run),
    ]


def cmd_list(args: argparse.Namespace) -> int:
    from interpreter.language.loader import load_ruleset, ruleset_origins

    # The last column says where each comes from: ./rulesets and TAROCK_PATH come before the
    # built-in ones, so a file of one's own with a built-in name is the one played.
    for name, origin in ruleset_origins().items():
        try:
            rs = load_ruleset(name)
            table = f"{'/'.join(map(str, rs.table_sizes))} at the table"
            print(f"{name:<20} {rs.title:<38} {table:<23} {origin}")
        except RulesetError as exc:
            trouble = f"(does not load: {len(exc.problems)} problem(s); run `tarock validate {name}`)"
            print(f"{name:<20} {trouble:<62} {origin}")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from interpreter.language.loader import check_ruleset, ruleset_names

    names = args.files or ruleset_names(include_bases=True)
    failed = 0
    for name in names:
        notes: list[str] = []
        problems = check_ruleset(name, notes)
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            failed += 1
        print(f"{name}: {'ok' if not problems else f'{len(problems)} problem(s)'}")
        for note in notes:
            print(f"  {note}")
    return 1 if failed else 0


def cmd_show(args: argparse.Namespace) -> int:
    from interpreter.language.loader import find_ruleset_file, read_document, resolve, source_file

    doc = resolve(args.name)
    file = find_ruleset_file(args.name)
    assert file is not None  # resolve found it
    own = read_document(file).data
    own.pop("extends", None)
    chain = " <- ".join(reversed([source_file(f).stem for f in doc.lineage]))
    if doc.parents:
        print(f"# {chain}")
        print(
            f"# {args.name} states {len(_leaves(own))} of the {len(_leaves(doc.data))} rules shown"
            + ("; the rest are inherited" if not args.own else "; only those are shown (--own)")
        )
    print(yaml.safe_dump(own if args.own else doc.data, sort_keys=False, allow_unicode=True, width=100), end="")
    return 0


def _leaves(data: object) -> list[object]:
    if isinstance(data, dict):
        return [leaf for value in data.values() for leaf in _leaves(value)]
    if isinstance(data, list):
        return [leaf for value in data for leaf in _leaves(value)]
    return [data]


MAX_DEALS = 1000  # deals in a session of `play`, as at the web table: an evening has a few dozen


def cmd_play(args: argparse.Namespace) -> int:
    from interpreter.bots.randombot import RandomBot
    from interpreter.bots.rulebot import RuleBot
    from interpreter.engine.game import Game
    from interpreter.engine.session import Session
    from interpreter.frontends.human import HumanPlayer, QuitGame
    from interpreter.frontends.log import render_log
    from interpreter.frontends.simulate_sessions import parse_signals
    from interpreter.language.loader import load_ruleset

    if args.record:
        check_writable(args.record, "--record")  # before the deal, not after it has been played
    if not 1 <= args.deals <= MAX_DEALS:
        raise TarockError(
            f"--deals must be from 1 to {MAX_DEALS:,}, not {args.deals} (a session keeps every deal; "
            "`tarock simulate` plays more)"
        )
    ruleset = load_ruleset(args.name, parse_options(args.option))
    players = args.players if args.players is not None else ruleset.usual_table
    session = Session(ruleset, players=players, dealer=args.dealer, seed=args.seed) if args.deals > 1 else None
    signals = parse_signals(args.signal)
    if signals and session is None:
        raise TarockError("--signal is for a session: give --deals N as well")
    names = {r.name for r in ruleset.session.special_rounds if r.at == "signal"}
    for deal_number, name in signals.items():
        if name not in names:
            known = f"; it has: {', '.join(sorted(names))}" if names else ""
            raise TarockError(f"--signal: {ruleset.title} has no round played at a signal named {name!r}{known}")
        if deal_number == 1 and session is not None:
            session.signal(name)
    game = session.next_deal() if session is not None else Game(ruleset, players, dealer=args.dealer, seed=args.seed)
    humans = set(args.human)
    for seat in humans:
        if not 0 <= seat < game.players or seat in game.seats_out:
            raise TarockError(f"--human {seat}: no such playing seat")
    if humans and sys.stdin is None:
        raise TarockError("--human needs standard input to read your choices, and it is closed")
    from interpreter.bots.searchbot import SearchBot
    from interpreter.engine.seeds import bot_seed

    # The bots' stream is derived from --seed, never the shuffle's own (engine/seeds.py).
    seed = bot_seed(args.seed, args.bot)
    bot: RandomBot | RuleBot | SearchBot = (
        RandomBot(seed) if args.bot == "random" else SearchBot(seed=seed) if args.bot == "search" else RuleBot()
    )

    def score() -> str:
        if session is None or not any(g.is_over for g in session.deals):
            return "  no deal of this session is finished yet"
        done = sum(1 for g in session.deals if g.is_over)
        scores = ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(session.scores))
        text = f"  Score after {done} of {args.deals} deals ({ruleset.settlement.unit}): {scores}"
        if session.sheet is not None:
            sheet = ", ".join(f"seat {s} {v}" for s, v in enumerate(session.sheet))
            totals = ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(session.totals()))
            text += f"\n  Score sheet: {sheet}; settled now: {totals}"
        if session.pots.held:
            held = ", ".join(f"{name} {held}" for name, held in session.pots.held.items())
            totals = ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(session.totals()))
            text += f"\n  Pots: {held}; with what each seat paid in and took out: {totals}"
        return text

    number = 1
    while True:
        if humans:
            if number > 1:
                print(f"\n=== Deal {number} of {args.deals}: seat {game.dealer} deals ===")
            try:
                HumanPlayer(game, score=score).run(humans, bot)
            except QuitGame:
                file = _record_file(args.record or f"{ruleset.name}-unfinished.yaml", number, args.deals)
                _write_record(game, file)
                print(f"You left the game; the record of the deal so far is in {file}.")
                return 0
        else:
            while not game.is_over:
                seat = game.to_act
                assert seat is not None  # somebody is to act until the deal is over
                game.apply(seat, bot.choose(game, seat))
            if number > 1:
                print()
            print(render_log(game))
        if args.record:
            file = _record_file(args.record, number, args.deals)
            _write_record(game, file)
            print(f"record written to {file}")
        if session is None:
            return 0
        session.finish_deal()
        print(score().strip())
        if session.over:
            totals = ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(session.totals()))
            print(f"The session is over after {len(session.deals)} deals, as its rule says: {totals}")
            return 0
        if number >= args.deals:
            return 0
        number += 1
        if number in signals:
            session.signal(signals[number])
            print(f"The signal: {signals[number]} from this deal on")
        game = session.next_deal()


def _record_file(file: str, number: int, deals: int) -> str:
    """The file of deal `number`: FILE itself for one deal; FILE-1.yaml, FILE-2.yaml … for a session."""
    if deals == 1:
        return file
    path = Path(file)
    return str(path.with_name(f"{path.stem}-{number}{path.suffix or '.yaml'}"))


def _write_record(game: Any, file: str) -> None:
    from interpreter.engine.records import dump_record

    Path(file).write_text(dump_record(game.record()), encoding="utf-8")


def cmd_replay(args: argparse.Namespace) -> int:
    from interpreter.engine.records import replay
    from interpreter.frontends.log import render_log

    failed = 0
    for file in args.records:
        try:
            report = replay(file)
        except RulesetError as exc:
            for problem in exc.problems:
                print(problem, file=sys.stderr)
            failed += 1
            continue
        if args.log and report.game is not None:
            print(render_log(report.game))
        for failure in report.failures:
            print(failure, file=sys.stderr)
        if not report.ok:
            failed += 1
        print(f"{file}: {'ok' if report.ok else 'FAILED'}")
    if len(args.records) > 1:
        print(f"{len(args.records) - failed} passed, {failed} failed")
    return 1 if failed else 0
