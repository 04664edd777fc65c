"""Where a process keeps its games, rights, club nights and groups: a data folder, or a
community's PostgreSQL database. Chosen here, once, at start, from the configuration
(`--data-dir`, `--database`), as Django's `DATABASES` and SQLAlchemy's engine URL
choose a backend: the server (`scorer.app.store_access`), the commands
(`scorer.commands.common`) and the phone app (`scorer.browser.start`) open theirs
here; everything after types against the ports (`GamesPort`, `RightsPort`,
`EventsPort`, `GroupsPort`) and never asks which adapter it holds.

A phone alone has no PostgreSQL: the database's adapters are imported only when a
database is opened, and the groups only when asked for (the phone-alone site leaves
both out).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from scorer.rights import get_rights, use_rights
from scorer.rights.service import TableRights
from scorer.store.game_store import GameStore

if TYPE_CHECKING:  # a server's only: the phone-alone app has no database and no groups
    from scorer.events.service import EventService
    from scorer.groups.ports import GroupsPort
    from scorer.rights.ports import RightsPort
    from scorer.store.database import Database
    from scorer.store.ports import GamesPort


@dataclass(frozen=True, eq=False)
class Backends:
    """One process's adapters, beside its games."""

    games: GamesPort
    database: Database | None = None
    """The community's database its adapters share; None: the data folder's files."""

    @property
    def community(self) -> bool:
        return self.database is not None

    @property
    def rights(self) -> RightsPort:
        """The process's rights (`scorer.rights.get_rights`): the community's once
        `install`ed, else those of the games' data folder (one per folder)."""
        return get_rights(self.games.data_dir)

    def events(self) -> EventService:
        """A new club night service beside the games (the app keeps one per process:
        `scorer.app.event_access.get_events`)."""
        from scorer.events.service import EventService

        if self.database is None:
            return EventService(self.games)
        return EventService.on_database(self.games, self.database)

    def groups(self) -> GroupsPort:
        """A new store of groups beside the games (the app keeps one per process:
        `scorer.app.group_access.get_groups`)."""
        if self.database is None:
            from scorer.groups.folder import FolderGroups

            return FolderGroups(self.games.data_dir)
        from scorer.groups.pg import PgGroups

        return PgGroups(self.database)


def open_backends(data_dir: Path, database: Database | None = None, *, read_only: bool = False,
                  on_problem: Callable[[str], None] | None = None,
                  on_close: Callable[[], None] | None = None) -> Backends:
    """The games in `database` when one is given (a community: `data_dir` keeps only
    this machine's caches; `on_close` is called once the games are closed), else in
    the data folder `data_dir` (it may raise FolderBusy and OSError, as `GameStore`
    does). `on_problem` hears of each file moved aside or skipped."""
    games: GamesPort
    if database is None:
        games = GameStore(data_dir, read_only=read_only, on_problem=on_problem)
    else:
        from scorer.store.pg_games import PgGameStore

        games = PgGameStore(database, data_dir=data_dir, read_only=read_only,
                            on_problem=on_problem, on_close=on_close)
    return Backends(games, database)


def backends_of(games: GamesPort) -> Backends:
    """The backends that go with `games`, however they were opened (here, by the
    phone's `scorer.browser.storage`, by a test): a community's for its database's
    games, else the games' data folder's."""
    return Backends(games, _database_of(games))


def install(backends: Backends | None) -> None:
    """Make `backends` the process's: a community's rights become every caller's
    (`scorer.rights.get_rights`); None, or a folder's: each folder's own again."""
    database = None if backends is None else backends.database
    use_rights(None if database is None else TableRights.on_database(database))


def _database_of(games: GamesPort) -> Database | None:
    if "scorer.store.pg_games" not in sys.modules:
        return None  # no database's games were ever made here (a phone alone has none)
    from scorer.store.pg_games import PgGameStore

    return games.db if isinstance(games, PgGameStore) else None
