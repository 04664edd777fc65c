"""What only a community's store has: several processes on one database, and rows
that can be damaged or come from a newer Tarabish. (Everything the two stores share
is tested on both by the `store` fixture.)"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg.types.json import Jsonb
from store_docs import MADE, MADE_0, game_doc

from scorer.store import GameDamaged, NewerSchema, NextGameExists, StaleRevision
from scorer.store.database import Database, DatabaseUnavailable
from scorer.store.pg_games import PgGameStore


@pytest.fixture
def two(pg_url: str, tmp_path: Path) -> Iterator[tuple[PgGameStore, PgGameStore]]:
    """Two stores on two pools of one database: two processes' worth."""
    dbs = [Database(pg_url), Database(pg_url)]
    try:
        yield (PgGameStore(dbs[0], data_dir=tmp_path / "a"),
               PgGameStore(dbs[1], data_dir=tmp_path / "b"))
    finally:
        for db in dbs:
            db.close()


def at_once(*calls: object) -> list[object]:
    """Run each call on its own thread, released together; their results or errors."""
    start = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(i: int, call: object) -> None:
        start.wait()
        try:
            results[i] = call()  # type: ignore[operator]
        except Exception as exc:
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_two_processes_saving_on_one_revision_save_one_hand(
        two: tuple[PgGameStore, PgGameStore]) -> None:
    a, b = two
    game = a.create_game(game_doc(1))
    for _ in range(5):
        rev = a.get_game(game.id).revision
        results = at_once(lambda r=rev: a.add_hand(game.id, MADE, r),
                          lambda r=rev: b.add_hand(game.id, MADE_0, r))
        stale = [r for r in results if isinstance(r, StaleRevision)]
        saved = [r for r in results if not isinstance(r, Exception)]
        assert len(stale) == 1 and len(saved) == 1, results
        # The refused phone is shown the sheet as it is now, with what changed.
        assert stale[0].current.revision == rev + 1
    final = b.get_game(game.id)
    assert len(final.doc["hands"]) == 1 + 5
    assert final.revision == game.revision + 5
    assert [e["change"] for e in final.history].count("added") == 5


def test_many_phones_on_two_processes_lose_and_double_no_hand(
        two: tuple[PgGameStore, PgGameStore]) -> None:
    """20 threads, 10 on each process, each saving with the revision it read and
    reading again when refused."""
    a, b = two
    game = a.create_game(game_doc(0, target=5000))
    per_phone = 2

    def phone(store: PgGameStore) -> int:
        saved = 0
        while saved < per_phone:
            rev = store.get_game(game.id).revision
            try:
                store.add_hand(game.id, MADE, rev)
            except StaleRevision:
                continue
            saved += 1
        return saved

    results = at_once(*[(lambda s=s: phone(s)) for s in (a, b) * 10])
    assert results == [per_phone] * 20
    final = a.get_game(game.id)
    assert len(final.doc["hands"]) == 20 * per_phone
    assert final.revision == game.revision + 20 * per_phone
    assert [e["revision"] for e in final.history if e["change"] == "added"] == list(
        range(game.revision + 1, final.revision + 1))


def test_two_play_agains_on_two_processes_make_one_game(
        two: tuple[PgGameStore, PgGameStore]) -> None:
    a, b = two
    done = a.create_game(game_doc(2))
    results = at_once(lambda: a.create_next_game(done.id, game_doc(0), done.revision),
                      lambda: b.create_next_game(done.id, game_doc(0), done.revision))
    made = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, NextGameExists)]
    assert len(made) == 1 and len(refused) == 1, results
    assert a.next_game(done.id) == b.next_game(done.id) == made[0].id  # type: ignore[attr-defined]
    assert len(a.list_games()) == 2


def test_a_game_sent_twice_is_one_game(two: tuple[PgGameStore, PgGameStore]) -> None:
    a, b = two
    results = at_once(lambda: a.create_game(game_doc(2), origin="a" * 32),
                      lambda: b.create_game(game_doc(2), origin="a" * 32))
    assert not any(isinstance(r, Exception) for r in results), results
    ids = {r.id for r in results}  # type: ignore[attr-defined]
    assert len(ids) == 1
    again = a.create_game(game_doc(2), origin="a" * 32)
    assert again.id in ids and len(a.list_games()) == 1
    other = a.create_game(game_doc(2), origin="b" * 32)
    assert other.id not in ids and len(b.list_games()) == 2


def test_a_damaged_row_is_reported_and_the_others_are_fine(pg_url: str, tmp_path: Path) -> None:
    db = Database(pg_url)
    try:
        store = PgGameStore(db, data_dir=tmp_path)
        bad = store.create_game(game_doc(1))
        good = store.create_game(game_doc(2))
        with psycopg.connect(pg_url) as conn:
            conn.execute("UPDATE games SET record = %s, summary = NULL WHERE id = %s",
                         (Jsonb({"schema": 2, "id": bad.id, "torn": True}), bad.id))
        with pytest.raises(GameDamaged):
            store.get_game(bad.id)
        assert [s.id for s in store.list_games()] == [good.id]
        assert store.get_game(good.id).doc == good.doc
        assert len(store.notices) == 1 and bad.id in store.notices[0]
        with pytest.raises(GameDamaged):
            store.add_hand(bad.id, MADE)
    finally:
        db.close()


def test_a_game_from_a_newer_tarabish_is_left_alone(pg_url: str, tmp_path: Path) -> None:
    db = Database(pg_url)
    try:
        store = PgGameStore(db, data_dir=tmp_path)
        game = store.create_game(game_doc(1))
        with psycopg.connect(pg_url) as conn:
            conn.execute("UPDATE games SET record = jsonb_set(record, '{schema}', '99'),"
                         " summary = NULL WHERE id = %s", (game.id,))
        with pytest.raises(NewerSchema):
            store.get_game(game.id)
        with pytest.raises(NewerSchema):
            store.add_hand(game.id, MADE)
        assert store.list_games() == []
        with psycopg.connect(pg_url) as conn:
            row = conn.execute("SELECT record->'schema' FROM games").fetchone()
        assert row == (99,)
    finally:
        db.close()


def test_list_rows_of_other_rules_are_scored_again(pg_url: str, tmp_path: Path) -> None:
    db = Database(pg_url)
    try:
        store = PgGameStore(db, data_dir=tmp_path)
        store.create_game(game_doc(2))
        true_totals = store.list_games()[0].totals
        with psycopg.connect(pg_url) as conn:
            conn.execute("UPDATE games SET summary = jsonb_set(summary, '{totals}',"
                         " '[999, 0]'), summary_rules = 'older rules'")
        assert store.list_games()[0].totals == true_totals
        with psycopg.connect(pg_url) as conn:
            rules = conn.execute("SELECT summary_rules FROM games").fetchone()
        assert rules is not None and rules[0] != "older rules"
    finally:
        db.close()


def test_a_list_row_that_does_not_read_is_made_again_from_its_game(
        pg_url: str, tmp_path: Path) -> None:
    db = Database(pg_url)
    try:
        store = PgGameStore(db, data_dir=tmp_path)
        game = store.create_game(game_doc(2))
        with psycopg.connect(pg_url) as conn:
            conn.execute("UPDATE games SET summary = '{\"torn\": 1}'")
        [row] = store.list_games()
        assert (row.id, row.hand_count, row.revision) == (game.id, 2, game.revision)
        assert store.problems == []
    finally:
        db.close()


def test_a_database_that_cannot_be_reached_saves_nothing(pg_cluster, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = Database(f"postgresql://postgres@127.0.0.1:{pg_cluster.port}/gone_away")
    try:
        store = PgGameStore(db, data_dir=tmp_path)
        with pytest.raises(DatabaseUnavailable, match="nothing was saved"):
            store.create_game(game_doc(1))
    finally:
        db.close()


def test_a_database_that_goes_away_keeps_the_game_as_it_was(
        pg_url: str, pg_cluster, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The server drops every connection (a restart, a network cut) between a
    phone's read and its save: the save is refused in a player's words, and once
    the database is back the game is as it was, and saves again."""
    name = pg_url.rsplit("/", 1)[1]
    db = Database(pg_url)
    try:
        store = PgGameStore(db, data_dir=tmp_path)
        game = store.create_game(game_doc(1))
        with psycopg.connect(pg_cluster.url("postgres"), autocommit=True) as admin:
            admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                          " WHERE datname = %s", (name,))
            with pytest.raises(DatabaseUnavailable, match="nothing was saved"):
                store.add_hand(game.id, MADE, game.revision)
            admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        for _ in range(50):  # the pool opens new connections in the background
            try:
                now = store.get_game(game.id)
                break
            except DatabaseUnavailable:
                time.sleep(0.1)
        assert (now.revision, now.doc, now.history) == (game.revision, game.doc, game.history)
        assert len(store.add_hand(game.id, MADE, game.revision).doc["hands"]) == 2
    finally:
        db.close()
