"""Run the `tarock` command inside the test process: `tarock("play", "breitnau")` returns what a
subprocess would (`returncode`, `stdout`, `stderr`), in milliseconds instead of a second per run.

The command's streams are swapped for the run only, and the working directory is the repository's,
as it is for a user following the README. Tests whose point is the process itself (the installed
console script, a closed file descriptor, a full disk) still start a real process.
"""

from __future__ import annotations

import io
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from interpreter.frontends.cli import main

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Ran:
    """What a run of the command did: the fields of subprocess.CompletedProcess that tests read."""

    returncode: int
    stdout: str
    stderr: str


def tarock(*args: str, stdin: str | None = "", cwd: Path = ROOT) -> Ran:
    """`tarock ARGS` with `stdin` as its input (None: standard input is closed)."""
    out, err = io.StringIO(), io.StringIO()
    source = None if stdin is None else io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    saved = sys.stdin, sys.stdout, sys.stderr, Path.cwd()
    sys.stdin, sys.stdout, sys.stderr = source, out, err  # type: ignore[assignment]
    os.chdir(cwd)
    try:
        try:
            status = main(list(args))
        except SystemExit as exc:  # argparse refuses bad usage by exiting
            status = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved[:3]
        os.chdir(saved[3])
    return Ran(status, out.getvalue(), err.getvalue())
