"""The live feed (scorer.store.database.feed): the database tells every process of a
change at commit; a dropped listening connection comes back and asks for a redraw."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import psycopg
import pytest

from scorer.store.database import Database
from scorer.store.database.feed import (
    Batch,
    FeedListener,
    Pending,
    parse,
    wait_listening,
    with_writer,
)

GAME = "0123abcd"


class Heard:
    """The batches a listener handed on."""

    def __init__(self) -> None:
        self.batches: list[Batch] = []

    def __call__(self, batch: Batch) -> None:
        self.batches.append(batch)

    def wait_for(self, check, timeout: float = 5.0) -> Batch:  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for batch in self.batches:
                if check(batch):
                    return batch
            time.sleep(0.02)
        raise AssertionError(f"not heard; heard {self.batches}")


@pytest.fixture
def listening(pg_url: str) -> Iterator[tuple[FeedListener, Heard]]:
    heard = Heard()
    db = Database(with_writer(pg_url, "tarabish-test-listener"), max_size=1)
    listener = FeedListener(db, "tarabish-test-listener", heard)
    listener.start()
    assert wait_listening(listener, 10)
    yield listener, heard
    listener.stop()
    db.close()


def _save(url: str, revision: int, writer: str = "someone-else") -> None:
    now = datetime.now(UTC)
    with psycopg.connect(url, application_name=writer) as conn:
        conn.execute(
            "INSERT INTO games (id, revision, record, created, updated) "
            "VALUES (%s, %s, '{}', %s, %s) ON CONFLICT (id) DO UPDATE "
            "SET revision = EXCLUDED.revision, updated = EXCLUDED.updated",
            (GAME, revision, now, now))


def test_a_save_is_heard_at_commit_and_not_before(pg_url: str,
                                                 listening: tuple[FeedListener, Heard]) -> None:
    _listener, heard = listening
    with psycopg.connect(pg_url) as conn:
        now = datetime.now(UTC)
        conn.execute("INSERT INTO games (id, revision, record, created, updated) "
                     "VALUES (%s, 1, '{}', %s, %s)", (GAME, now, now))
        time.sleep(0.3)
        assert heard.batches == []  # not committed yet
    heard.wait_for(lambda b: b.games.get(GAME) == 1)


def test_a_summary_change_tells_no_one_and_own_saves_are_skipped(
        pg_url: str, listening: tuple[FeedListener, Heard]) -> None:
    _listener, heard = listening
    _save(pg_url, 1)
    heard.wait_for(lambda b: GAME in b.games)
    heard.batches.clear()
    with psycopg.connect(pg_url) as conn:
        conn.execute("UPDATE games SET summary = '{}' WHERE id = %s", (GAME,))
    _save(pg_url, 2, writer="tarabish-test-listener")  # this process's own save
    _save(pg_url, 3)
    batch = heard.wait_for(lambda b: GAME in b.games)
    assert batch.games == {GAME: 3}
    assert all(b.games == {GAME: 3} for b in heard.batches)


def test_a_dropped_connection_listens_again_and_asks_for_a_redraw(
        pg_url: str, listening: tuple[FeedListener, Heard]) -> None:
    listener, heard = listening
    pid = listener.backend_pid()
    assert pid is not None
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
    heard.wait_for(lambda b: b.everything, timeout=10)
    assert listener.reconnects == 1
    assert wait_listening(listener, 10)
    assert listener.backend_pid() != pid
    _save(pg_url, 1)  # heard on the new connection
    heard.wait_for(lambda b: b.games.get(GAME) == 1)


def test_pending_is_bounded_and_keeps_the_newest_revision() -> None:
    from scorer.store.database.feed import Change

    pending = Pending(limit=3)
    pending.add(Change(game_id="a", revision=2))
    pending.add(Change(game_id="a", revision=1))
    batch = pending.take(0)
    assert batch is not None and batch.games == {"a": 2}
    for name in "abcd":
        pending.add(Change(game_id=name, revision=1))
    batch = pending.take(0)
    assert batch is not None and batch.everything and not batch.games
    assert pending.take(0) is None


def test_payloads_that_are_not_ours_are_ignored() -> None:
    assert parse("hello") is None
    assert parse("[1]") is None
    assert parse(json.dumps({"g": "x" * 65})) is None
    change = parse(json.dumps({"e": "0123abcd", "a": "w"}))
    assert change is not None and change.event_id == "0123abcd" and change.writer == "w"


def test_every_connection_of_a_writer_carries_its_name(pg_url: str) -> None:
    """What lets the listener skip this process's own saves: its pool's sessions are named."""
    db = Database(with_writer(pg_url, "tarabish-server-abc"), max_size=1)
    try:
        with db.connection() as conn:
            row = conn.execute("SHOW application_name").fetchone()
        assert row is not None and row[0] == "tarabish-server-abc"
        own = db.connect()
        try:
            row = own.execute("SHOW application_name").fetchone()
            assert row is not None and row[0] == "tarabish-server-abc"
        finally:
            own.close()
    finally:
        db.close()


def test_play_again_tells_the_finished_games_phones(
        pg_url: str, listening: tuple[FeedListener, Heard]) -> None:
    _listener, heard = listening
    _save(pg_url, 5)
    heard.wait_for(lambda b: GAME in b.games)
    heard.batches.clear()
    now = datetime.now(UTC)
    with psycopg.connect(pg_url) as conn:
        conn.execute("INSERT INTO games (id, revision, record, follows, created, updated) "
                     "VALUES ('89abcdef', 1, '{}', %s, %s, %s)", (GAME, now, now))
    heard.wait_for(lambda b: "89abcdef" in b.games)
    heard.wait_for(lambda b: GAME in b.games)  # the finished one, in the same commit
