"""Rights on both stores: a folder's files (the laptop) and a community's database."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from scorer.rights import TableCodes, TableRights
from scorer.rights.pg_codes import PgTableCodes

Codes = TableCodes | PgTableCodes


class Backend:
    """Makes codes and rights on one store; each call is what a restart (or another
    process, for the database) would open."""

    def __init__(self, name: str, codes: Callable[[], Codes],
                 rights: Callable[[], TableRights]) -> None:
        self.name = name
        self.codes = codes
        self.rights = rights

    def processes(self, count: int) -> list[TableRights]:
        """The rights of `count` processes serving one community; a folder is served by
        one process only (its lock), so there it is the same rights each time."""
        if self.name == "folder":
            return [self.rights()] * count
        return [self.rights() for _ in range(count)]


@pytest.fixture(params=["folder", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "folder":
        yield Backend("folder", lambda: TableCodes(tmp_path),
                      lambda: TableRights(TableCodes(tmp_path)))
        return
    from scorer.store.database import Database

    url = request.getfixturevalue("pg_url")
    opened: list[Database] = []

    def db() -> Database:
        opened.append(Database(url, max_size=4))
        return opened[-1]

    yield Backend("postgresql", lambda: PgTableCodes(db()),
                  lambda: TableRights.on_database(db()))
    for each in opened:
        each.close()


def set_clock(rights: TableRights, clock: Callable[[], float]) -> None:
    """Every brake of `rights` on a test's clock."""
    for brake in (rights.backoff, rights.game_backoff, rights.host_backoff,
                  rights.host_game_backoff, rights.new_games):
        brake.clock = clock
