"""Organiser codes in a community's database: `OrganiserCodes`'s interface, with the
phones holding each code (SHA-256 of their token) and the brakes on guessing it
shared by every process (`scorer.rights.pg_limiter`)."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from scorer.events.organisers import CODE_DIGITS, MAX_DEVICES, OrganiserCodes, _key
from scorer.rights.pg_grants import hold, move_holders
from scorer.rights.pg_limiter import PgBackoff
from scorer.rights.service import ADDRESS_FREE_TRIES, GAME_FREE_TRIES, WAIT_CAP_S

if TYPE_CHECKING:
    from scorer.store.database import Database


class PgOrganiserCodes(OrganiserCodes):
    """Tables `event_codes` and `event_organisers` of 0003_events."""

    def __init__(self, db: Database) -> None:  # no file: nothing of the parent's to load
        self.db = db
        self.backoff = PgBackoff(db, "organiser-address", free=ADDRESS_FREE_TRIES,
                                 cap=WAIT_CAP_S, forget_after=3600.0)
        self.event_backoff = PgBackoff(db, "organiser-event", free=GAME_FREE_TRIES,
                                       cap=WAIT_CAP_S, forget_after=6 * 3600.0)

    def code(self, event_id: str) -> str | None:
        with self.db.connection() as conn:
            row = conn.execute("SELECT code FROM event_codes WHERE event_id = %s",
                               (event_id,)).fetchone()
        return None if row is None else str(row[0])

    def holds(self, event_id: str, token: str | None) -> bool:
        if not token:
            return False
        with self.db.connection() as conn:
            return conn.execute("SELECT 1 FROM event_organisers WHERE event_id = %s "
                                "AND device = %s", (event_id, _key(token))).fetchone() \
                is not None

    def held_by(self, token: str | None) -> set[str]:
        """The events whose organiser code this phone holds."""
        if not token:
            return set()
        with self.db.connection() as conn:
            rows = conn.execute("SELECT event_id FROM event_organisers WHERE device = %s",
                                (_key(token),)).fetchall()
        return {str(r[0]) for r in rows}

    def start(self, event_id: str, token: str | None) -> str:
        """Give the event a code (if it has none) and to `token` (None: to nobody yet)."""
        code = f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"
        with self.db.connection() as conn:
            conn.execute("INSERT INTO event_codes (event_id, code) VALUES (%s, %s) "
                         "ON CONFLICT (event_id) DO NOTHING", (event_id, code))
            if token:
                hold(conn, "event_organisers", event_id, _key(token), keep=MAX_DEVICES)
            row = conn.execute("SELECT code FROM event_codes WHERE event_id = %s",
                               (event_id,)).fetchone()
        assert row is not None
        return str(row[0])

    def move(self, old: str, new: str) -> int:
        old_key, new_key = _key(old), _key(new)
        if old_key == new_key:
            return 0
        with self.db.connection() as conn:
            return move_holders(conn, "event_organisers", old_key, new_key)

    def _grant(self, event_id: str, token: str) -> None:
        with self.db.connection() as conn:
            hold(conn, "event_organisers", event_id, _key(token), keep=MAX_DEVICES)

