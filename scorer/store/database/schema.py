"""The schema's version: alembic migrations in `migrations/`, checked at every start.

Each process runs `ensure_schema` before it serves: under a PostgreSQL advisory
lock (so processes starting together migrate once), an empty or older database
is brought up to the migrations this code has; a database migrated by a newer
Tarabish (a revision this code does not know) is refused, never touched.
Migrations may branch (each part of the schema in its own line); every head is
applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scorer.store.errors import StoreError

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: pg_advisory_lock key held while the schema is checked and migrated ("tarabish").
SCHEMA_LOCK = 0x7461726162697368 & 0x7FFFFFFFFFFFFFFF


class SchemaTooNew(StoreError):
    """The database was migrated by a newer Tarabish than this one."""

    def __init__(self, unknown: list[str]) -> None:
        super().__init__(
            "This community's database was set up by a newer version of Tarabish "
            f"(schema {', '.join(sorted(unknown))}): update Tarabish on this machine "
            "before starting it. Nothing was changed.")
        self.unknown = unknown


@dataclass(frozen=True)
class SchemaState:
    """Where a database stands: the revisions applied, and those this code has."""

    applied: frozenset[str]
    heads: frozenset[str]
    known: frozenset[str]

    @property
    def unknown(self) -> list[str]:
        return sorted(self.applied - self.known)

    @property
    def current(self) -> bool:
        return self.applied == self.heads


def _alembic_url(url: str) -> str:
    # SQLAlchemy picks its driver from the scheme: psycopg 3 is "postgresql+psycopg".
    for scheme in ("postgresql://", "postgres://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url[len(scheme):]
    return url


def _config(url: str):  # type: ignore[no-untyped-def]
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", _alembic_url(url).replace("%", "%%"))
    return cfg


def _known(url: str) -> tuple[frozenset[str], frozenset[str]]:
    from alembic.script import ScriptDirectory

    scripts = ScriptDirectory.from_config(_config(url))
    known = frozenset(rev.revision for rev in scripts.walk_revisions())
    return frozenset(scripts.get_heads()), known


def schema_state(url: str) -> SchemaState:
    """The revisions applied to the database at `url` and those this code knows."""
    import sqlalchemy
    from alembic.runtime.migration import MigrationContext

    heads, known = _known(url)
    engine = sqlalchemy.create_engine(_alembic_url(url), poolclass=sqlalchemy.pool.NullPool)
    try:
        with engine.connect() as conn:
            applied = frozenset(MigrationContext.configure(conn).get_current_heads())
    finally:
        engine.dispose()
    return SchemaState(applied, heads, known)


def ensure_schema(url: str, *, migrate: bool = True) -> SchemaState:
    """Bring the database at `url` up to this code's schema (unless `migrate` is
    False: then only check). Raises SchemaTooNew for a newer database, and
    DatabaseUnavailable if it cannot be reached."""
    import sqlalchemy
    from alembic import command

    from scorer.store.database.connect import DatabaseUnavailable

    engine = sqlalchemy.create_engine(_alembic_url(url), poolclass=sqlalchemy.pool.NullPool)
    try:
        with engine.connect() as conn:
            conn.execute(sqlalchemy.text("SELECT pg_advisory_lock(:k)"), {"k": SCHEMA_LOCK})
            try:
                state = _state_on(conn, url)
                if state.unknown:
                    raise SchemaTooNew(state.unknown)
                if migrate and not state.current:
                    cfg = _config(url)
                    cfg.attributes["connection"] = conn
                    command.upgrade(cfg, "heads")
                    conn.commit()
                    state = _state_on(conn, url)
            finally:
                conn.execute(sqlalchemy.text("SELECT pg_advisory_unlock(:k)"),
                             {"k": SCHEMA_LOCK})
                conn.commit()
    except sqlalchemy.exc.OperationalError as exc:
        raise DatabaseUnavailable(str(exc.orig).splitlines()[0] if exc.orig else str(exc)) from exc
    finally:
        engine.dispose()
    return state


def _state_on(conn, url: str) -> SchemaState:  # type: ignore[no-untyped-def]
    from alembic.runtime.migration import MigrationContext

    heads, known = _known(url)
    applied = frozenset(MigrationContext.configure(conn).get_current_heads())
    return SchemaState(applied, heads, known)
