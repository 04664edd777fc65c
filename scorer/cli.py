"""The `tarabish` command line: `tarabish` serves the table app; subcommands
check, import, export and list game files, and count statistics."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    """The whole command line; each subcommand lives in `scorer.commands`."""
    from scorer.commands import build_web, check, event_cmds, serve, stats_cmds, store_cmds

    parser = argparse.ArgumentParser(
        prog="tarabish",
        description="Score keeper and rules referee for Tarabish. "
        "With no command, starts the table server.",
    )
    serve.add_arguments(parser)
    parser.set_defaults(run=serve.run)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    check.register(sub)
    store_cmds.register(sub)
    stats_cmds.register(sub)
    build_web.register(sub)
    event_cmds.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments and run the chosen command; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
