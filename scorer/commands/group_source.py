"""Where the command line's groups are kept: the one place that chooses the store.

Today the data folder (`FolderGroups`, under the folder's lock while it changes);
a `--database` option picks `PgGroups` here and nowhere else.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from scorer.commands.common import open_for_writing, open_store
from scorer.store import GameStore
from scorer.store.group_store import FolderGroups


class GroupsAndGames:
    """The groups and the saved games of one place, opened together."""

    def __init__(self, groups: FolderGroups, games: GameStore) -> None:
        self.groups = groups
        self.games = games


@contextmanager
def open_groups(args: argparse.Namespace, *, writing: bool) -> Iterator[GroupsAndGames]:
    """The groups and games chosen by `args`; for writing, under the folder's lock
    (raises FolderBusy while a server holds it, NoStore if the folder is unusable)."""
    store = (open_for_writing(args, "tarabish group") if writing
             else open_store(args, read_only=True))
    with store:
        yield GroupsAndGames(FolderGroups(store.data_dir), store)
