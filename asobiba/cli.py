"""The ``asobiba`` command: ``serve`` the site, ``check`` its settings and services, run an
``arena`` between bot levels."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="asobiba", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="serve the site")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--database-url",
        default=None,
        help="SQLAlchemy URL; default: an SQLite file in the user's data directory",
    )

    check = commands.add_parser(
        "check", help="print the settings in force and whether the database and Redis answer"
    )
    check.add_argument("--database-url", default=None, help="as for serve")

    arena = commands.add_parser("arena", help="round robin between bot levels")
    arena.add_argument("game")
    arena.add_argument("--levels", required=True, help="comma-separated level ids")
    arena.add_argument(
        "--games",
        type=int,
        default=20,
        help="games per lineup of levels (with two players: a pair)",
    )
    arena.add_argument(
        "--players", type=int, default=None, help="seats at the table; default: the game's fewest"
    )
    arena.add_argument("--seed", type=int, default=0)
    arena.add_argument(
        "--jobs", type=int, default=1, help="worker processes; the table is the same for any"
    )
    arena.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="an option rule"
    )

    args = parser.parse_args(argv)
    if args.command == "serve":
        from asobiba.server.logs import Misconfigured, configure
        from asobiba.server.main import serve as run_server

        try:
            configure()
            run_server(host=args.host, port=args.port, database_url=args.database_url)
        except Misconfigured as problem:
            refuse(str(problem))
            return 2
        return 0
    if args.command == "check":
        from asobiba.server.check import run_check

        return run_check(args.database_url)
    from asobiba.core.arena import run_cli

    return run_cli(args)


def refuse(problem: str) -> None:
    """Say why the process will not start, in one line (a JSON line where logs are JSON)."""
    import logging

    from asobiba.server import logs

    if logs.configured_format() == "json":
        logging.getLogger("asobiba").error("asobiba: refusing to start: %s", problem)
    else:
        print(f"asobiba: refusing to start: {problem}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
