"""The community's database restarts (or drops idle connections) between two saves:
the next save lands, it is not refused as "cannot be reached" while the database is
up. Every connection the pool held is cut, as a restart cuts them."""

from __future__ import annotations

from pathlib import Path

import psycopg

from scorer.store.database import Database
from scorer.store.pg_games import PgGameStore

DOC = {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
       "first_dealer": 0, "rules": {}, "hands": []}


def cut_every_connection(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall()
    return len(rows)


def test_saves_after_the_database_cut_every_connection_land(pg_url: str,
                                                            tmp_path: Path) -> None:
    db = Database(pg_url, max_size=3, min_size=3)
    try:
        store = PgGameStore(db, data_dir=tmp_path / "cache")
        store.create_game(DOC)
        assert cut_every_connection(pg_url) >= 1
        for _ in range(4):  # more than the pool holds: each dead one would fail a save
            store.create_game(DOC)
        assert len(store.list_games()) == 5
    finally:
        db.close()
