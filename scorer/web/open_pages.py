"""Pages open from one address, counted across a community's processes.

`SessionGuard` (scorer.web.sessions) caps the pages one address keeps open. Each
process counted its own, so two processes behind one proxy let an address keep
twice the cap open (24 where SECURITY.md promises 12). On a community the count
is the database's (`open_pages`, migration 0038): each process writes how many
pages it holds for an address, and a page is let in only while every process's
rows together stay within the cap. Per-address brakes on wrong codes and new
games already live there (scorer.rights.pg_limiter).

A killed process cannot take its rows away, so rows expire: every process
rewrites its own every `REFRESH_S` and counts only rows seen in the last
`EXPIRE_S`. After a kill, that address's pages are let in again within
`EXPIRE_S`. A process that stops cleanly deletes its rows at once.

When the database cannot be reached, a page is let in on this process's own
count (the cap then holds per process only): a page refused for a database that
is away would say something untrue.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scorer.store.database import Database

logger = logging.getLogger(__name__)

REFRESH_S = 5.0
"""How often a process says again which pages it holds."""
EXPIRE_S = 15.0
"""Rows not said again for this long are a dead process's: not counted, deleted."""
MAX_ADDRESS = 300
"""The column's bound (an IPv6 address is at most 45 characters)."""

_NOW = "COALESCE(%(now)s::float8, extract(epoch FROM clock_timestamp())::float8)"
_OTHERS = f"""
SELECT COALESCE(sum(pages), 0) FROM open_pages, (SELECT {_NOW} AS now) t
WHERE address = %(address)s AND process <> %(me)s AND seen > t.now - %(expire)s
"""
_WRITE = f"""
INSERT INTO open_pages (address, process, pages, seen)
SELECT %(address)s, %(me)s, %(pages)s, {_NOW}
ON CONFLICT (address, process) DO UPDATE SET pages = EXCLUDED.pages, seen = EXCLUDED.seen
"""
_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('open_pages:' || %(address)s, 0))"


class PgOpenPages:
    """One process's share of the community's count of open pages per address."""

    def __init__(self, db: Database, cap: int, clock: Callable[[], float] | None = None,
                 process: str | None = None) -> None:
        self.db = db
        self.cap = cap
        self.clock = clock
        """None: the database's clock."""
        self.process = process or secrets.token_hex(8)
        self._held: Callable[[], dict[str, int]] = dict
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._said_away = False

    def admit(self, address: str, here: Callable[[], int]) -> bool:
        """True if a page of `address` may open, counting `here()` pages of this process
        (the new one included, read under the address's lock): this process's row is
        then written with it. Blocking: call it from a thread."""
        address = address[:MAX_ADDRESS]
        try:
            with self.db.connection() as conn:
                conn.execute(_LOCK, {"address": address})
                row = conn.execute(_OTHERS, self._params(address)).fetchone()
                others = int(row[0]) if row else 0
                pages = here()
                if others + pages > self.cap:
                    return False
                conn.execute(_WRITE, {**self._params(address), "pages": pages})
        except Exception as exc:  # the database is away: this process's own cap only
            self._away(exc)
            return True
        self._said_away = False
        return True

    def release(self, address: str, here: Callable[[], int]) -> None:
        """A page of `address` closed: this process now holds `here()` (read under the
        address's lock). Blocking: call it from a thread."""
        address = address[:MAX_ADDRESS]
        try:
            with self.db.connection() as conn:
                conn.execute(_LOCK, {"address": address})
                pages = here()
                if pages > 0:
                    conn.execute(_WRITE, {**self._params(address), "pages": pages})
                else:
                    conn.execute("DELETE FROM open_pages WHERE address = %(address)s "
                                 "AND process = %(me)s", self._params(address))
        except Exception as exc:  # said again at the next refresh
            self._away(exc)

    def refresh(self, held: dict[str, int]) -> None:
        """Say again every page this process holds (`held`, by address), forget its
        other rows, and delete the rows of processes gone quiet."""
        rows = {address[:MAX_ADDRESS]: pages for address, pages in held.items() if pages > 0}
        # Rows of addresses whose pages all closed meanwhile go below; a page opening
        # at the same moment writes its row again under the address's lock.
        params = {"me": self.process, "now": self._clock(), "expire": EXPIRE_S,
                  "addresses": list(rows), "pages": list(rows.values())}
        with self.db.connection() as conn:
            conn.execute(f"""
                INSERT INTO open_pages (address, process, pages, seen)
                SELECT a, %(me)s, p, {_NOW} FROM unnest(%(addresses)s::text[], %(pages)s::int[])
                    AS x(a, p)
                ON CONFLICT (address, process) DO UPDATE
                    SET pages = EXCLUDED.pages, seen = EXCLUDED.seen""", params)
            conn.execute("DELETE FROM open_pages WHERE process = %(me)s "
                         "AND NOT address = ANY(%(addresses)s::text[])", params)
            conn.execute(f"DELETE FROM open_pages WHERE seen < {_NOW} - %(expire)s", params)

    def keep_fresh(self, held: Callable[[], dict[str, int]]) -> None:
        """Refresh every REFRESH_S from a daemon thread, reading `held()` each time."""
        self._held = held
        if self._thread is not None:
            return

        def run() -> None:
            while not self._stop.wait(REFRESH_S):
                try:
                    self.refresh(self._held())
                except Exception as exc:
                    self._away(exc)

        self._thread = threading.Thread(target=run, name="open-pages", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """This process stops: its pages are no longer counted anywhere."""
        self._stop.set()
        try:
            with self.db.connection() as conn:
                conn.execute("DELETE FROM open_pages WHERE process = %(me)s",
                             {"me": self.process})
        except Exception as exc:
            self._away(exc)

    def _params(self, address: str) -> dict[str, Any]:
        return {"address": address, "me": self.process, "now": self._clock(),
                "expire": EXPIRE_S}

    def _clock(self) -> float | None:
        return None if self.clock is None else float(self.clock())

    def _away(self, exc: Exception) -> None:
        if not self._said_away:
            logger.warning("open pages could not be counted in the database (%s): "
                           "counted in this process only", exc)
            self._said_away = True

