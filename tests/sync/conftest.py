"""Fixtures of the sync tests: a server core on each store the app can have (a
folder's, a community's PostgreSQL), with the rights that go with it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scorer.rights import TableCodes, TableRights
from scorer.store import GameStore
from scorer.store.database import Database
from scorer.store.pg_games import PgGameStore
from scorer.sync.service import SyncService


@pytest.fixture(params=["folder", "postgresql"])
def service(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SyncService]:
    if request.param == "folder":
        store = GameStore(tmp_path / "data")
        yield SyncService(store, TableRights(TableCodes(tmp_path / "data")))
        store.close()
        return
    db = Database(request.getfixturevalue("pg_url"))
    try:
        yield SyncService(PgGameStore(db, data_dir=tmp_path / "cache"),
                          TableRights.on_database(db))
    finally:
        db.close()
