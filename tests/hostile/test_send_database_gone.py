"""POST /_tarabish/send while the community's database cannot be reached: nothing is
stored, the phone is told to try again, and a stranger learns nothing of where the
database is (its host, port, name or user)."""

from __future__ import annotations

from pathlib import Path

from scorer.rights import TableRights
from scorer.store.database import Database
from scorer.store.pg_games import PgGameStore
from scorer.store.records import new_origin
from tests.web.test_send_game import Server, game_file


def test_a_send_with_the_database_gone_says_try_again_and_names_no_server(
        pg_cluster, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    server = Server(tmp_path / "data")
    db = Database(f"postgresql://postgres@127.0.0.1:{pg_cluster.port}/gone_away")
    try:
        server.store = PgGameStore(db, data_dir=tmp_path / "cache")
        server.rights = TableRights.on_database(db)  # its brakes are in the database too
        status, answer = server.send(game_file(), new_origin())
    finally:
        db.close()
    assert status == 503
    words = answer["error"]
    assert "try again" in words and "Nothing was sent" in words
    for secret in ("127.0.0.1", str(pg_cluster.port), "gone_away", "postgres"):
        assert secret not in words
