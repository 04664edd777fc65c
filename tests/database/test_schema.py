"""The community database's schema: migrated at start, a newer one refused."""

from __future__ import annotations

import threading

import psycopg
import pytest

from scorer.store.database import Database, DatabaseUnavailable, SchemaTooNew, ensure_schema
from scorer.store.database.connect import database_url, shown_url
from scorer.store.database.schema import schema_state


def test_an_empty_database_gets_every_migration(pg_empty_url: str) -> None:
    before = schema_state(pg_empty_url)
    assert before.applied == frozenset() and not before.current
    after = ensure_schema(pg_empty_url)
    assert after.current and after.applied == after.heads
    with psycopg.connect(pg_empty_url) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (0,)


def test_processes_starting_together_migrate_once(pg_empty_url: str) -> None:
    errors: list[BaseException] = []

    def start() -> None:
        try:
            ensure_schema(pg_empty_url)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert schema_state(pg_empty_url).current


def test_a_newer_schema_is_refused_and_left_alone(pg_url: str) -> None:
    with psycopg.connect(pg_url) as conn:
        # The table holds the heads only: once migrations branch, 0001_games is none.
        conn.execute("UPDATE alembic_version SET version_num = '9999_from_the_future' "
                     "WHERE version_num = (SELECT min(version_num) FROM alembic_version)")
    with pytest.raises(SchemaTooNew, match="newer version of Tarabish") as err:
        ensure_schema(pg_url)
    assert "9999_from_the_future" in str(err.value)
    with psycopg.connect(pg_url) as conn:
        rows = {r[0] for r in conn.execute("SELECT version_num FROM alembic_version")}
    assert "9999_from_the_future" in rows


def test_a_database_that_cannot_be_reached_says_so(pg_cluster) -> None:  # type: ignore[no-untyped-def]
    url = f"postgresql://postgres@127.0.0.1:{pg_cluster.port}/no_such_database"
    with pytest.raises(DatabaseUnavailable, match="cannot be reached") as err:
        ensure_schema(url)
    # Phones see the message: where the database lives is the operator's business.
    assert "127.0.0.1" not in str(err.value) and str(pg_cluster.port) not in str(err.value)
    assert "no_such_database" in err.value.detail
    db = Database(url)
    try:
        with pytest.raises(DatabaseUnavailable), db.connection():
            pass
    finally:
        db.close()


def test_the_address_is_checked_and_its_password_never_shown(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("TARABISH_DATABASE", raising=False)
    assert database_url(None) is None
    monkeypatch.setenv("TARABISH_DATABASE", "postgresql://a@h/db")
    assert database_url(None) == "postgresql://a@h/db"
    assert database_url("postgres://b@h/x") == "postgres://b@h/x"
    with pytest.raises(ValueError, match="PostgreSQL address"):
        database_url("mysql://a@h/db")
    assert shown_url("postgresql://ann:s3cret@h:5432/db") == "postgresql://ann:***@h:5432/db"
