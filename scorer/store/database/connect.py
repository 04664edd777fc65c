"""Connections to a community's database: one bounded pool per process."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from scorer.store.errors import StoreError

#: The environment variable naming the database when `--database` is not given.
DATABASE_ENV = "TARABISH_DATABASE"
#: Connections one process keeps at most: every save holds one for a few
#: milliseconds; a bound, so many processes stay inside the server's
#: max_connections (100 by default).
POOL_MAX = 8
#: How long a save waits for a free connection before it is refused.
POOL_TIMEOUT_S = 10.0

_SCHEMES = ("postgresql://", "postgres://")


class DatabaseUnavailable(StoreError):
    """The database cannot be reached or refused us; nothing was saved."""

    def __init__(self, detail: str) -> None:
        # Phones see the message: the database's host, port and user stay in `detail`
        # (the server's log, the operator's terminal).
        super().__init__("The community's database cannot be reached just now: nothing "
                         "was saved. Try again in a moment.")
        self.detail = detail


def operator_detail(exc: BaseException) -> str:
    """What the operator's terminal adds to a DatabaseUnavailable: the driver's own
    words (host, port, why); empty for any other error."""
    detail = getattr(exc, "detail", None) if isinstance(exc, DatabaseUnavailable) else None
    return f" ({detail})" if detail else ""


def database_url(given: str | None) -> str | None:
    """The database named on the command line, else by TARABISH_DATABASE, else None
    (the folder store). Raises ValueError for something that is no PostgreSQL URL."""
    url = given if given is not None else os.environ.get(DATABASE_ENV) or None
    if url is None:
        return None
    if not url.startswith(_SCHEMES):
        raise ValueError("--database takes a PostgreSQL address, such as "
                         "postgresql://tarabish@localhost/tarabish")
    return url


def shown_url(url: str) -> str:
    """`url` with its password hidden, for printing."""
    return re.sub(r"://([^:/@]+):[^@]*@", r"://\1:***@", url)


class Database:
    """One community database: a pool of connections (opened lazily, bounded)."""

    def __init__(self, url: str, *, max_size: int = POOL_MAX, min_size: int = 1) -> None:
        self.url = url
        self.pool = ConnectionPool(url, min_size=min_size, max_size=max_size,
                                   timeout=POOL_TIMEOUT_S, open=False,
                                   kwargs={"autocommit": False},
                                   # After a restart every idle connection is dead:
                                   # a round trip first, not a failed save.
                                   check=ConnectionPool.check_connection,
                                   name="tarabish")
        self._opened = False

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection]:
        """A connection for one transaction: committed when the block ends,
        rolled back if it raises. A database that cannot be reached raises
        DatabaseUnavailable."""
        if not self._opened:
            self.pool.open(wait=False)
            self._opened = True
        try:
            with self.pool.connection() as conn:
                yield conn
        except (psycopg.OperationalError, PoolTimeout) as exc:
            raise DatabaseUnavailable(str(exc).splitlines()[0] if str(exc) else
                                      type(exc).__name__) from exc

    def connect(self) -> psycopg.Connection:
        """A connection of its own, outside the pool (a listener keeps one open)."""
        try:
            return psycopg.connect(self.url, autocommit=True)
        except psycopg.OperationalError as exc:
            raise DatabaseUnavailable(str(exc).splitlines()[0]) from exc

    def close(self) -> None:
        if self._opened:
            self.pool.close()
            self._opened = False
