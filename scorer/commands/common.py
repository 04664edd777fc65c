"""What the commands that read or write the data folder share: exit codes, the
`--data-dir` and `--database` options and opening the store (a community's
database when one is named: the same interface, no folder lock)."""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rules.plain_text import shown
from scorer.backends import backends_of, install, open_backends
from scorer.machine.paths import resolve_data_dir
from scorer.store import folder_lock
from scorer.store.atomic_storage import atomic_write_bytes
from scorer.store.folder_lock import FolderBusy
from scorer.text.terminal import label, one_line

if TYPE_CHECKING:
    from scorer.events.service import EventService
    from scorer.groups.ports import GroupsPort
    from scorer.store.ports import GamesPort

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
    common.add_argument(
        "--database", metavar="URL", default=argparse.SUPPRESS,
        help="a community's PostgreSQL database instead of a data folder, e.g. "
        "postgresql://tarabish@localhost/tarabish (default: $TARABISH_DATABASE)",
    )
    return common


def database_of(args: argparse.Namespace) -> str | None:
    """The community database named by `--database` or TARABISH_DATABASE, else None;
    a bad one is said on stderr (NoStore)."""
    import os

    if getattr(args, "database", None) is None and not os.environ.get("TARABISH_DATABASE"):
        return None  # psycopg stays unloaded for a data folder
    from scorer.store.database.connect import database_url

    try:
        return database_url(getattr(args, "database", None))
    except ValueError as exc:
        print(f"tarabish: {exc}", file=sys.stderr)
        raise NoStore from exc


def _open_community(url: str, read_only: bool, args: argparse.Namespace) -> GamesPort:
    """The community's games once its schema is up to date; its backends become the
    process's (`scorer.backends.install`: its rights). Closing the games closes the
    database, and a process that runs commands in turn (tests) starts afresh."""
    from scorer.store.database import Database, ensure_schema
    from scorer.store.database.connect import operator_detail
    from scorer.store.database.feed import with_writer, writer_name
    from scorer.store.errors import StoreError

    try:
        ensure_schema(url)
    except StoreError as exc:  # unreachable, or a newer schema: one line
        print(f"tarabish: {one_line(str(exc) + operator_detail(exc))}", file=sys.stderr)
        raise NoStore from exc
    db = Database(with_writer(url, writer_name("command")), min_size=0, max_size=2)

    def closed() -> None:
        install(None)
        db.close()

    # The data folder keeps only this machine's caches (the statistics' facts).
    backends = open_backends(resolve_data_dir(getattr(args, "data_dir", None)), db,
                             read_only=read_only, on_close=closed)
    install(backends)
    return backends.games


class NoStore(Exception):
    """The data folder cannot be used (permissions, not a folder...); already reported."""


def open_store(args: argparse.Namespace, *, read_only: bool = True) -> GamesPort:
    """The store in the chosen data folder; start-up problems go to stderr.

    For writing (`read_only=False`) it may raise FolderBusy. With `--database`, the
    community's games instead (no folder, no lock).
    """
    url = database_of(args)
    if url is not None:
        return _open_community(url, read_only, args)
    where = resolve_data_dir(getattr(args, "data_dir", None))
    try:
        store = open_backends(where, read_only=read_only).games
    except OSError as e:
        print(f"tarabish: cannot use the data folder {where} ({e.strerror or e})",
              file=sys.stderr)
        raise NoStore from e
    for problem in store.problems:
        print(f"tarabish: {one_line(problem)}", file=sys.stderr)
    return store


def open_for_writing(args: argparse.Namespace, what: str = "tarabish import") -> GamesPort:
    """The store with the folder's lock; waits a little for another `import` to finish,
    never for a server (raises FolderBusy). A community's database has no lock: every
    save is a transaction."""
    if database_of(args) is not None:
        return open_store(args, read_only=False)
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


def events_of(store: GamesPort) -> EventService:
    """The club nights beside `store` (`scorer.backends`)."""
    return backends_of(store).events()


def groups_of(store: GamesPort) -> GroupsPort:
    """The groups beside `store` (`scorer.backends`)."""
    return backends_of(store).groups()


def table_codes(store: GamesPort, game_ids: list[str]) -> dict[str, str]:
    """Every game of `game_ids` gets its table code (no phone holds it until it is
    entered): the codes, by game."""
    from scorer.rights.codes import TableCodes

    backends = backends_of(store)
    # A folder's codes file is read afresh: another process may have written it since.
    codes = backends.rights if backends.community else TableCodes(store.data_dir)
    codes.give_codes(game_ids)
    return {game_id: code for game_id in game_ids if (code := codes.code(game_id))}


def reports_no_store(run: Callable[[argparse.Namespace], int]) -> Callable[..., int]:
    """`run`, exiting EXIT_FAILED when the data folder cannot be used (already said)."""
    @functools.wraps(run)
    def wrapped(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except NoStore:
            return EXIT_FAILED

    return wrapped


def find_game(store: GamesPort, prefix: str) -> str | None:
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
