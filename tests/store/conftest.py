"""Fixtures of the store tests; the small games they store are in store_docs.

`store` is each store the app can have, a folder's and a community's
PostgreSQL: the tests that use it hold for both. Tests of what only a folder
has (files, fsync, its lock, the game list file) open a `GameStore` themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scorer.store import GameStore
from scorer.store.database import Database
from scorer.store.pg_games import PgGameStore


@pytest.fixture(params=["folder", "postgresql"])
def store_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def store(store_kind: str, tmp_path: Path,
          request: pytest.FixtureRequest) -> Iterator[GameStore | PgGameStore]:
    if store_kind == "folder":
        yield GameStore(tmp_path / "data")
        return
    url = request.getfixturevalue("pg_url")
    db = Database(url)
    try:
        yield PgGameStore(db, data_dir=tmp_path / "cache")
    finally:
        db.close()


@pytest.fixture
def folder_store(tmp_path: Path) -> GameStore:
    """A folder's store, for what only a folder has (its files)."""
    return GameStore(tmp_path / "data")


@pytest.fixture
def pg_store(pg_url: str, tmp_path: Path) -> Iterator[PgGameStore]:
    """A community's store, beside `folder_store` where both are compared."""
    db = Database(pg_url)
    try:
        yield PgGameStore(db, data_dir=tmp_path / "cache")
    finally:
        db.close()
