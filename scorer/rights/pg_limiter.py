"""The brakes of `scorer.rights.limiter` kept in a community's database, so every
process counts the same wrong codes: a guesser gains nothing by reaching another
process. Each count is one statement (INSERT ... ON CONFLICT ... DO UPDATE ...
RETURNING), atomic under the row's lock, never read-then-write in Python.

Times are seconds since the epoch from the database's clock (one clock for every
process and machine), unless a test gives a `clock`. Quiet keys are deleted as
new ones are written, and a kind never keeps more than `max_keys` rows.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from scorer.rights.limiter import Busy

if TYPE_CHECKING:
    from scorer.store.database import Database

_NOW = "COALESCE(%(now)s::float8, extract(epoch FROM clock_timestamp())::float8)"

_FAILED = f"""
INSERT INTO brakes AS b (kind, key, failures, locked_until, last)
SELECT %(kind)s, %(key)s, 1,
       CASE WHEN 1 >= %(free)s THEN t.now + LEAST(%(cap)s, %(base)s) ELSE 0 END, t.now
FROM (SELECT {_NOW} AS now) t
ON CONFLICT (kind, key) DO UPDATE SET
    failures = {{newf}},
    locked_until = CASE
        WHEN {{newf}} >= %(free)s THEN EXCLUDED.last + LEAST(
            %(cap)s, %(base)s * power(2, LEAST({{newf}} - %(free)s, 60)))
        WHEN {{stale}} THEN 0
        ELSE b.locked_until END,
    last = EXCLUDED.last
RETURNING failures, locked_until, last
"""
# A key quiet for forget_after (and not waiting) starts afresh, as in `Backoff._get`.
_STALE = ("COALESCE(b.locked_until <= EXCLUDED.last "
          "AND EXCLUDED.last - b.last > %(forget)s, false)")
_NEWF = f"(CASE WHEN {_STALE} THEN 1 ELSE b.failures + 1 END)"
FAILED_SQL = _FAILED.format(newf=_NEWF, stale=_STALE)

# Deletes skip rows another transaction holds (SKIP LOCKED): two processes pruning at
# once never wait on each other nor deadlock; what one skips, a later prune takes.
_PRUNE = """
DELETE FROM {table} WHERE kind = %(kind)s AND key IN (
    SELECT key FROM {table} WHERE kind = %(kind)s AND last < %(now)s - %(horizon)s {waiting}
    FOR UPDATE SKIP LOCKED)
"""
_TRIM = """
DELETE FROM {table} WHERE kind = %(kind)s AND key IN (
    SELECT key FROM {table} WHERE kind = %(kind)s ORDER BY last DESC OFFSET %(keep)s
    FOR UPDATE SKIP LOCKED)
"""
#: Seconds a claim to compare a code lasts if its process dies before releasing it.
TURN_S = 5.0
_CLAIM = f"""
INSERT INTO brakes AS b (kind, key, failures, locked_until, last, busy_by, busy_until)
SELECT %(kind)s, %(key)s, 0, 0, t.now, %(me)s, t.now + %(turn)s
FROM (SELECT {_NOW} AS now) t
ON CONFLICT (kind, key) DO UPDATE SET
    busy_by = CASE WHEN b.busy_until <= EXCLUDED.last THEN EXCLUDED.busy_by ELSE b.busy_by END,
    busy_until = CASE WHEN b.busy_until <= EXCLUDED.last THEN EXCLUDED.busy_until
                      ELSE b.busy_until END
RETURNING busy_by
"""
#: Keys longer than this are kept as their SHA-256 (the column's bound is 300).
MAX_KEY = 200


class PgBackoff:
    """`scorer.rights.limiter.Backoff` with its counts in the `brakes` table, under
    `kind` (each brake of `TableRights` has its own)."""

    def __init__(self, db: Database, kind: str, free: int = 3, base: float = 30.0,
                 cap: float = 15 * 60.0, clock: Callable[[], float] | None = None,
                 max_keys: int = 10_000, forget_after: float | None = None) -> None:
        self.db = db
        self.kind = kind
        self.free = free
        self.base = base
        self.cap = cap
        self.clock = clock
        """None: the database's clock."""
        self.max_keys = max_keys
        self.forget_after = forget_after

    def wait_left(self, *keys: str) -> float:
        now, rows = self._read(keys)
        return max([0.0, *(locked - now for _f, locked, _l in rows)])

    def tries_left(self, *keys: str) -> int:
        _now, rows = self._read(keys)
        return max(0, self.free - max([0, *(failures for failures, _k, _l in rows)]))

    def failed(self, *keys: str) -> float:
        """Count a wrong code on every key (one transaction); the wait it brings."""
        wait = 0.0
        with self.db.connection() as conn:
            for key in keys:
                row = conn.execute(FAILED_SQL, self._params(key)).fetchone()
                assert row is not None
                failures, locked_until, last = row
                if failures >= self.free:
                    wait = max(wait, locked_until - last)
            self._prune(conn, last)
        return wait

    @contextmanager
    def turn(self, key: str) -> Iterator[None]:
        """Hold `key` while a code is compared, or raise Busy if another process or
        thread holds it: guesses at one game are compared one after another, each seeing
        the failures before it, so many connections at once buy no extra tries. A claim
        left by a process that died lapses after TURN_S. Holds no connection meanwhile."""
        me = secrets.token_hex(8)
        params = {"kind": self.kind, "key": _bounded(key), "now": self._clock(), "me": me,
                  "turn": TURN_S}
        with self.db.connection() as conn:
            row = conn.execute(_CLAIM, params).fetchone()
        if row is None or row[0] != me:
            raise Busy()
        try:
            yield
        finally:
            with self.db.connection() as conn:
                conn.execute("UPDATE brakes SET busy_by = NULL, busy_until = 0 "
                             "WHERE kind = %(kind)s AND key = %(key)s AND busy_by = %(me)s",
                             params)

    def succeeded(self, *keys: str) -> None:
        with self.db.connection() as conn:
            conn.execute("DELETE FROM brakes WHERE kind = %s AND key = ANY(%s)",
                         (self.kind, [_bounded(k) for k in keys]))

    # -- inside ----------------------------------------------------------------------------

    def _params(self, key: str) -> dict[str, Any]:
        return {"kind": self.kind, "key": _bounded(key), "free": self.free, "base": self.base,
                "cap": self.cap, "forget": self.forget_after, "now": self._clock()}

    def _clock(self) -> float | None:
        return None if self.clock is None else float(self.clock())

    def _read(self, keys: Sequence[str]) -> tuple[float, list[tuple[int, float, float]]]:
        """The database's now, and each live key's (failures, locked_until, last)."""
        with self.db.connection() as conn:
            rows = conn.execute(
                f"SELECT t.now, b.failures, b.locked_until, b.last "
                f"FROM (SELECT {_NOW} AS now) t LEFT JOIN brakes b "
                f"ON b.kind = %(kind)s AND b.key = ANY(%(keys)s)",
                {"now": self._clock(), "kind": self.kind,
                 "keys": [_bounded(k) for k in keys]}).fetchall()
        now = float(rows[0][0])
        live = [(int(f), float(locked), float(last)) for _n, f, locked, last in rows
                if f is not None and not self._stale(locked, last, now)]
        return now, live

    def _stale(self, locked_until: float, last: float, now: float) -> bool:
        return (self.forget_after is not None and locked_until <= now
                and now - last > self.forget_after)

    def _prune(self, conn: Any, now: float) -> None:
        """Forget keys quiet for long (forget_after, else 4 caps); keep at most max_keys."""
        horizon = self.forget_after if self.forget_after is not None else self.cap * 4
        conn.execute(_PRUNE.format(table="brakes", waiting="AND locked_until <= %(now)s "
                                                   "AND busy_until <= %(now)s"),
                     {"kind": self.kind, "now": now, "horizon": horizon})
        _trim(conn, "brakes", self.kind, self.max_keys)


class PgRateWindow:
    """`scorer.rights.limiter.RateWindow` with each key's last `limit` times in the
    `rate_windows` table."""

    def __init__(self, db: Database, kind: str, limit: int, window: float,
                 clock: Callable[[], float] | None = None, max_keys: int = 10_000) -> None:
        self.db = db
        self.kind = kind
        self.limit = limit
        self.window = window
        self.clock = clock
        self.max_keys = max_keys

    def wait_left(self, key: str) -> float:
        with self.db.connection() as conn:
            row = conn.execute(
                f"SELECT t.now, r.times FROM (SELECT {_NOW} AS now) t LEFT JOIN rate_windows r "
                f"ON r.kind = %(kind)s AND r.key = %(key)s",
                {"now": self._clock(), "kind": self.kind, "key": _bounded(key)}).fetchone()
        assert row is not None
        now, times = float(row[0]), sorted(row[1] or [])
        recent = [t for t in times if now - t < self.window]
        return 0.0 if len(recent) < self.limit else recent[-self.limit] + self.window - now

    def record(self, key: str) -> None:
        with self.db.connection() as conn:
            row = conn.execute(
                f"""
                INSERT INTO rate_windows AS r (kind, key, times, last)
                SELECT %(kind)s, %(key)s, ARRAY[t.now], t.now FROM (SELECT {_NOW} AS now) t
                ON CONFLICT (kind, key) DO UPDATE SET
                    times = (SELECT array_agg(x ORDER BY x) FROM (
                        SELECT x FROM unnest(r.times || EXCLUDED.last) AS x
                        WHERE x > EXCLUDED.last - %(window)s
                        ORDER BY x DESC LIMIT %(limit)s) AS s),
                    last = EXCLUDED.last
                RETURNING last""",
                {"now": self._clock(), "kind": self.kind, "key": _bounded(key),
                 "window": self.window, "limit": self.limit}).fetchone()
            assert row is not None
            conn.execute(_PRUNE.format(table="rate_windows", waiting=""),
                         {"kind": self.kind, "now": row[0], "horizon": self.window})
            _trim(conn, "rate_windows", self.kind, self.max_keys)

    def _clock(self) -> float | None:
        return None if self.clock is None else float(self.clock())


def _bounded(key: str) -> str:
    """`key`, or its SHA-256 if it is long (an address is short; a bound all the same)."""
    return key if len(key) <= MAX_KEY else "sha256:" + hashlib.sha256(key.encode()).hexdigest()


def _trim(conn: Any, table: str, kind: str, keep: int) -> None:
    """Keep the `keep` keys of `kind` written last (a bound whatever the guessers do)."""
    row = conn.execute(f"SELECT count(*) FROM {table} WHERE kind = %s", (kind,)).fetchone()
    if row is not None and row[0] > keep:
        conn.execute(_TRIM.format(table=table), {"kind": kind, "keep": keep})
