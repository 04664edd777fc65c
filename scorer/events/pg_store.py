"""Club nights in a community's database: `EventStore`'s interface, shared by every
process. A change locks the event's row (SELECT ... FOR UPDATE), checks the
revision the caller saw, and writes the whole record with revision + 1 in the
same transaction: two processes changing one event at once give one change and
one StaleEvent, never a lost one.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from psycopg.types.json import Jsonb

from scorer.events.night import Event
from scorer.events.ports import EventsPort
from scorer.events.store import (
    EVENT_SCHEMA,
    MAX_LISTED,
    EventNotFound,
    StaleEvent,
    StoredEvent,
    upgraded_record,
)
from scorer.store.errors import DamagedFile, NotSaved, StoreError

if TYPE_CHECKING:
    from scorer.store.database import Database

_ID_RE = re.compile(r"^[0-9a-f]{8}$")
_PREFIX_RE = re.compile(r"^[0-9a-f]{0,8}$")
#: Fresh ids tried before giving up (8 hex digits: a clash is 1 in 4 billion a try).
MAX_ID_TRIES = 20


class PgEventStore(EventsPort):
    """Every club night of a community (table `events` of 0003_events): the events
    port's PostgreSQL adapter."""

    def __init__(self, db: Database, *, read_only: bool = False) -> None:
        self.db = db
        self.read_only = read_only

    # -- reading -----------------------------------------------------------------------------

    def get(self, event_id: str) -> StoredEvent:
        _check_id(event_id)
        with self.db.connection() as conn:
            row = conn.execute("SELECT record FROM events WHERE id = %s", (event_id,)).fetchone()
        if row is None:
            raise EventNotFound(event_id)
        return _stored(event_id, row[0])

    def list_events(self) -> list[StoredEvent]:
        """The events, newest first (at most MAX_LISTED); unreadable ones are left out."""
        with self.db.connection() as conn:
            rows = conn.execute("SELECT id, record FROM events ORDER BY created DESC, id "
                                "LIMIT %s", (MAX_LISTED,)).fetchall()
        found = []
        for event_id, record in rows:
            try:
                found.append(_stored(event_id, record))
            except StoreError:  # damaged, or from a newer Tarabish: left out of the list
                continue
        return found

    def find(self, prefix: str) -> list[str]:
        """Ids of the events whose id starts with `prefix`."""
        prefix = prefix.strip().lower()
        if not _PREFIX_RE.match(prefix):
            return []
        with self.db.connection() as conn:
            rows = conn.execute("SELECT id FROM events WHERE id LIKE %s ORDER BY id LIMIT %s",
                                (prefix + "%", MAX_LISTED)).fetchall()
        return [str(r[0]) for r in rows]

    # -- changing ----------------------------------------------------------------------------

    def create(self, night: Event) -> StoredEvent:
        self._writer()
        now = datetime.now(UTC)
        with self.db.connection() as conn:
            for _ in range(MAX_ID_TRIES):
                stored = StoredEvent(id=secrets.token_hex(4), revision=1, created=now,
                                     updated=now, night=night)
                row = conn.execute(
                    "INSERT INTO events (id, revision, record, created, updated) "
                    "VALUES (%s, 1, %s, %s, %s) ON CONFLICT (id) DO NOTHING RETURNING id",
                    (stored.id, Jsonb(_record(stored)), now, now)).fetchone()
                if row is not None:
                    return stored
        raise NotSaved("No free id for a new club night: nothing was saved.")

    def update(self, event_id: str, change: Callable[[Event], Event],
               expected_revision: int | None = None) -> StoredEvent:
        """Apply `change` to the event as saved now and save it (one transaction, the
        row locked); `expected_revision` refuses a change made from a stale screen."""
        self._writer()
        _check_id(event_id)
        with self.db.connection() as conn:
            row = conn.execute("SELECT record FROM events WHERE id = %s FOR UPDATE",
                               (event_id,)).fetchone()
            if row is None:
                raise EventNotFound(event_id)
            stored = _stored(event_id, row[0])
            if expected_revision is not None and stored.revision != expected_revision:
                raise StaleEvent()
            night = change(stored.night)
            if night == stored.night:
                return stored
            new = stored.model_copy(update={"revision": stored.revision + 1,
                                            "updated": datetime.now(UTC), "night": night})
            conn.execute("UPDATE events SET revision = %s, record = %s, updated = %s "
                         "WHERE id = %s", (new.revision, Jsonb(_record(new)), new.updated,
                                           event_id))
        return new

    def delete(self, event_id: str) -> None:
        """Remove an event just created whose organiser code could not be saved."""
        self._writer()
        with self.db.connection() as conn:
            conn.execute("DELETE FROM events WHERE id = %s", (event_id,))

    def close(self) -> None:
        """Nothing to release: the database belongs to whoever opened it."""

    def _writer(self) -> None:
        if self.read_only:
            raise NotSaved("These club nights are open for reading only: nothing was saved.")


def _record(stored: StoredEvent) -> dict[str, Any]:
    return {"schema": EVENT_SCHEMA, **stored.model_dump(mode="json")}


def _stored(event_id: str, record: Any) -> StoredEvent:
    if not isinstance(record, dict):
        raise DamagedFile(f"club night {event_id}", "it holds no club night")
    return upgraded_record(record, event_id, f"club night {event_id}")


def _check_id(event_id: str) -> None:
    if not isinstance(event_id, str) or not _ID_RE.match(event_id):
        raise EventNotFound(str(event_id))
