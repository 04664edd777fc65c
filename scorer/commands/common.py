"""What the commands that read or write the data folder share: exit codes, the
`--data-dir` option and opening the store."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable

from scorer.paths import resolve_data_dir
from scorer.store import GameStore
from scorer.terminal_text import one_line

EXIT_OK = 0
EXIT_FAILED = 1  # nothing wrong with the input, but it could not be done
EXIT_BAD_INPUT = 2  # a bad file or argument; nothing was changed
EXIT_NOT_SAVED = 2  # the disk is full or read-only; nothing was changed


def data_dir_option() -> argparse.ArgumentParser:
    """A parent parser with `--data-dir`, for each command that uses the store."""
    common = argparse.ArgumentParser(add_help=False)
    # SUPPRESS: do not overwrite a --data-dir given before the command name.
    common.add_argument(
        "--data-dir", metavar="DIR", default=argparse.SUPPRESS,
        help="folder holding the saved games (default: $TARABISH_DATA, "
        "else the user data folder)",
    )
    return common


class NoStore(Exception):
    """The data folder cannot be used (permissions, not a folder...); already reported."""


def open_store(args: argparse.Namespace, *, read_only: bool = True) -> GameStore:
    """The store in the chosen data folder; start-up problems go to stderr.

    For writing (`read_only=False`) it may raise FolderBusy.
    """
    where = resolve_data_dir(getattr(args, "data_dir", None))
    try:
        store = GameStore(where, read_only=read_only)
    except OSError as e:
        print(f"tarabish: cannot use the data folder {where} ({e.strerror or e})",
              file=sys.stderr)
        raise NoStore from e
    for problem in store.problems:
        print(f"tarabish: {one_line(problem)}", file=sys.stderr)
    return store


def reports_no_store(run: Callable[[argparse.Namespace], int]) -> Callable[..., int]:
    """`run`, exiting EXIT_FAILED when the data folder cannot be used (already said)."""
    @functools.wraps(run)
    def wrapped(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except NoStore:
            return EXIT_FAILED

    return wrapped
