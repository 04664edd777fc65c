"""The `tarabish` command line: `tarabish` serves the table app; subcommands
check, import, export and list game files, and count statistics."""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Sequence


@functools.cache
def build_parser() -> argparse.ArgumentParser:
    """The whole command line; each subcommand lives in `scorer.commands`. Made once a
    process: building it is ~10 ms (a parser per command, a formatter per option), more
    than a `tarabish check` of a game, and a process that runs commands in turn (the
    tests: thousands of fuzzed `check`s) would build it each time. Parsing leaves it as
    it was, and every default that depends on the environment is read when a command
    runs, not here."""
    from scorer.commands import (
        admin_code,
        build_web,
        check,
        event_cmds,
        group_cmds,
        ratings_cmds,
        serve,
        stats_cmds,
        store_cmds,
    )

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
    ratings_cmds.register(sub)
    build_web.register(sub)
    event_cmds.register(sub)
    admin_code.register(sub)
    group_cmds.register(sub)
    return parser


EXIT_BROKEN_PIPE = 141
"""What a shell reports for a program stopped by SIGPIPE (128 + 13): the reader left."""


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments and run the chosen command; returns the exit code.

    Output piped into `head` or `less` whose reader leaves early ends quietly,
    for every command: no BrokenPipeError traceback."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        code: int = args.run(args)
        sys.stdout.flush()  # here, not at exit, where a broken pipe could not be caught
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_BROKEN_PIPE
    return code


def _quiet_stdout() -> None:
    """Point stdout at the null device: the interpreter's last flush of what is
    still buffered would otherwise raise (and print) the broken pipe again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is no real file (tests): nothing to flush
        pass


if __name__ == "__main__":
    sys.exit(main())
