"""A community's backup is a `pg_dump`, and it restores: what docs/HOSTING.md tells
an operator to do, done here with the same tools on a throwaway cluster."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import psycopg

from scorer.store.database import Database, ensure_schema, schema_state
from scorer.store.pg_games import PgGameStore
from tests.pg_cluster import Cluster

MADE = {"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 100}}


def _as_postgres(cluster: Cluster, *command: str) -> None:
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run([*prefix, *command], check=True, capture_output=True)


def test_a_dump_restores_every_game_and_its_trail(pg_cluster: Cluster, pg_url: str,
                                                   tmp_path: Path) -> None:
    db = Database(pg_url)
    try:
        store = PgGameStore(db, data_dir=tmp_path)
        games = [store.create_game({"format": "tarabish-game/1",
                                    "players": ["Ann", "Bob", "Cid", "Dee"],
                                    "first_dealer": i % 4, "rules": {}, "hands": []}) for i in range(3)]
        store.add_hand(games[0].id, MADE, games[0].revision, by="phone 1")
        store.undo_last_hand(games[0].id, games[0].revision + 1, by="phone 2")
        before = {g.id: store.get_game(g.id) for g in store.list_games()}
    finally:
        db.close()

    dump = pg_cluster.root / "tarabish.dump"  # a folder the postgres user may write
    _as_postgres(pg_cluster, str(pg_cluster.bindir / "pg_dump"), "-Fc", "-h", "127.0.0.1",
                 "-p", str(pg_cluster.port), "-U", "postgres", "-f", str(dump),
                 pg_url.rsplit("/", 1)[1])
    restored = pg_cluster.new_database()
    _as_postgres(pg_cluster, str(pg_cluster.bindir / "pg_restore"), "--no-owner",
                 "-h", "127.0.0.1", "-p", str(pg_cluster.port), "-U", "postgres",
                 "-d", restored.rsplit("/", 1)[1], str(dump))

    assert schema_state(restored).current
    ensure_schema(restored)  # a restored database starts as it is
    db = Database(restored)
    try:
        again = PgGameStore(db, data_dir=tmp_path)
        after = {g.id: again.get_game(g.id) for g in again.list_games()}
        assert after == before
        assert [e["change"] for e in after[games[0].id].history][-2:] == ["added", "undone"]
        # The restored database takes the next change where the old one stopped.
        saved = again.redo_hand(games[0].id, before[games[0].id].revision)
        assert saved.revision == before[games[0].id].revision + 1
    finally:
        db.close()
    with psycopg.connect(restored) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (3,)
