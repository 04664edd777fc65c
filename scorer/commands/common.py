"""What the commands that read or write the data folder share: exit codes, the
`--data-dir` option and opening the store."""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Callable
from pathlib import Path

from rules.plain_text import shown
from scorer.paths import resolve_data_dir
from scorer.store import GameStore, folder_lock
from scorer.store.atomic_storage import atomic_write_bytes
from scorer.store.folder_lock import FolderBusy
from scorer.terminal_text import label, one_line

EXIT_OK = 0
EXIT_FAILED = 1  # nothing wrong with the input, but it could not be done
EXIT_BAD_INPUT = 2  # a bad file or argument; nothing was changed
EXIT_NOT_SAVED = 2  # the disk is full or read-only; nothing was changed
BUSY_WAIT_S = 5.0  # how long a change waits for another command to finish


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


def open_for_writing(args: argparse.Namespace, what: str = "tarabish import") -> GameStore:
    """The store with the folder's lock; waits a little for another `import` to finish,
    never for a server (raises FolderBusy)."""
    where = resolve_data_dir(getattr(args, "data_dir", None))
    deadline = time.monotonic() + BUSY_WAIT_S
    while True:
        try:
            # Taken first so that the lock file names this command; the store shares it.
            lease = folder_lock.acquire(where, what)
        except FolderBusy as busy:
            server = busy.holder is not None and busy.holder.key is not None
            if server or time.monotonic() > deadline:
                raise
            time.sleep(0.1)
            continue
        except OSError as e:
            print(f"tarabish: cannot use the data folder {where} ({e.strerror or e})",
                  file=sys.stderr)
            raise NoStore from e
        try:
            return open_store(args, read_only=False)
        finally:
            lease.release()


def reports_no_store(run: Callable[[argparse.Namespace], int]) -> Callable[..., int]:
    """`run`, exiting EXIT_FAILED when the data folder cannot be used (already said)."""
    @functools.wraps(run)
    def wrapped(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except NoStore:
            return EXIT_FAILED

    return wrapped


def find_game(store: GameStore, prefix: str) -> str | None:
    """The id of the one saved game whose id starts with `prefix` (a whole id
    wins over longer ones); None, said on stderr, when there is none or several."""
    matches = store.find_games(prefix)
    if prefix in matches:
        return prefix
    if len(matches) == 1:
        return matches[0]
    what = "no saved game" if not matches else f"{len(matches)} games"
    print(f"tarabish: {what} with an id starting {shown(prefix)}.", file=sys.stderr)
    return None


def write_file(output: str, data: bytes, what: str) -> int:
    """Write `data` to the file `output` (whole or not at all) and say so:
    "Wrote `what` to FILE." Writing to a file prints nothing else, so the
    message is the only sign it worked."""
    try:
        atomic_write_bytes(Path(output), data)
    except OSError as e:
        print(f"tarabish: cannot write {label(output)} ({e.strerror or e})", file=sys.stderr)
        return EXIT_FAILED
    print(f"Wrote {what} to {label(output)}.")
    return EXIT_OK


def counted(count: int, noun: str) -> str:
    """`1 hand`, `6 hands`."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
