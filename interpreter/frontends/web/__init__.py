"""`tarock web`: a browser table for people and bots (the lobby, a table per session of deals,
a seat per secret link). Needs the optional dependency aiohttp: `pip install "tarock[web]"`.

Everything a browser sees of a deal passes through `table.Table.state_for(seat)`: the seat's own
view and the public events, nothing of another hand.
"""

from __future__ import annotations

import argparse

from interpreter.errors import TarockError

SUMMARY = "a browser table for people and bots (needs the web extra: aiohttp)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)"
    )
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument(
        "--bot-delay", type=float, default=0.6, metavar="SECONDS", help="pause before each bot's move (default 0.6)"
    )
    parser.add_argument(
        "--db",
        metavar="FILE",
        help="the SQLite file that keeps the tables, so that they survive a restart (default: web.sqlite3 in"
        " tarock's folder of your user data, ~/.local/share/tarock on Linux; ':memory:' keeps nothing)",
    )
    parser.add_argument(
        "--export",
        metavar="FOLDER",
        help="write every finished deal of the database as a YAML record (TABLE-deal-N.yaml) into FOLDER, and stop",
    )


def run(args: argparse.Namespace) -> int:
    if args.export is not None:
        from interpreter.frontends.web.store import export

        return export(args.db, args.export)
    try:
        from interpreter.frontends.web import app
    except ImportError as exc:
        raise TarockError(
            f'`tarock web` needs aiohttp ({exc.name} is missing): pip install "tarock[web]" (or ".[web]" in a checkout)'
        ) from None
    return app.run(args)
