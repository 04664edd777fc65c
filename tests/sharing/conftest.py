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

    def __init__(self, codes: Callable[[], Codes], rights: Callable[[], TableRights]) -> None:
        self.codes = codes
        self.rights = rights


@pytest.fixture(params=["folder", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "folder":
        yield Backend(lambda: TableCodes(tmp_path), lambda: TableRights(TableCodes(tmp_path)))
        return
    from scorer.store.database import Database

    url = request.getfixturevalue("pg_url")
    opened: list[Database] = []

    def db() -> Database:
        opened.append(Database(url, max_size=2))
        return opened[-1]

    yield Backend(lambda: PgTableCodes(db()), lambda: TableRights.on_database(db()))
    for each in opened:
        each.close()


def set_clock(rights: TableRights, clock: Callable[[], float]) -> None:
    """Every brake of `rights` on a test's clock."""
    for brake in (rights.backoff, rights.game_backoff, rights.host_backoff,
                  rights.host_game_backoff, rights.new_games):
        brake.clock = clock
