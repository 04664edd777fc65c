"""Club nights on disk: one crash-safe file per event, beside the games.

    DATA/events/<id>.json   {"event": {"1": {"schema": 1, "id": "...", "revision": 7,
                                             "created": "<ISO UTC>", "updated": "<ISO UTC>",
                                             "night": {<night.Event>}}}}

A TinyDB file written by the store's AtomicJSONStorage (temp file, fsync,
replace, fsync the folder), so a killed server leaves the event as it was before
or after a change, never half of one. Every change is one write of the whole
record, done before the call returns: a round's tables, each table's game as it is
linked, a result entered by hand. Tables link their games by id; a game's own
`tarabish-game/1` document never says it belongs to an event.

One writer per data folder, as for games: a store opened for writing shares the
folder's lock (`scorer.store.folder_lock`) with the game store; `read_only` takes
none and never writes (the command line reads beside a running server).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import threading
from collections.abc import Callable, MutableMapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError
from tinydb import TinyDB
from tinydb.table import Document

from scorer.events.night import Event
from scorer.store import folder_lock
from scorer.store.atomic_storage import AtomicJSONStorage, move_aside, remove_stale_temp_files
from scorer.store.errors import DamagedFile, NewerSchema, NotSaved, StoreError, not_saved

EVENT_SCHEMA = 1
TABLE = "event"
DOC_ID = 1
MAX_LISTED = 200
"""Events listed at most, newest first (a club runs one a week: years of them)."""
_ID_RE = re.compile(r"^[0-9a-f]{8}$")


class EventNotFound(StoreError):
    """No saved event has this id."""

    def __init__(self, event_id: str) -> None:
        super().__init__(f"There is no club night with id {event_id[:20]!r}.")
        self.event_id = event_id


class StaleEvent(StoreError):
    """The event changed (on another phone) since the caller read it."""

    def __init__(self) -> None:
        super().__init__("The club night changed on another phone: here it is as it is now.")


class StoredEvent(BaseModel):
    """One saved event; `revision` goes up by one with every change."""

    model_config = ConfigDict(frozen=True)

    id: str
    revision: int
    created: datetime
    updated: datetime
    night: Event


class EventStore:
    """Every club night in `data_dir`; thread-safe (one lock: events change rarely)."""

    def __init__(self, data_dir: Path, *, read_only: bool = False) -> None:
        self.data_dir = Path(data_dir)
        self.folder = self.data_dir / "events"
        self.read_only = read_only
        self._lock = threading.RLock()
        self._lease: folder_lock.FolderLease | None = None
        if not read_only:
            self._lease = folder_lock.acquire(self.data_dir)
            self.folder.mkdir(parents=True, exist_ok=True)
            remove_stale_temp_files(self.folder)

    # -- reading -----------------------------------------------------------------------------

    def get(self, event_id: str) -> StoredEvent:
        with self._lock:
            return self._read(self._path(event_id))

    def list_events(self) -> list[StoredEvent]:
        """The events, newest first (at most MAX_LISTED); unreadable ones are left out."""
        try:
            with os.scandir(self.folder) as listing:
                files = [(e.stat().st_mtime, e.path) for e in listing
                         if _ID_RE.match(e.name.removesuffix(".json")) and e.name.endswith(".json")]
        except FileNotFoundError:
            return []
        files.sort(reverse=True)
        found = []
        with self._lock:
            for _mtime, path in files[:MAX_LISTED]:
                with contextlib.suppress(StoreError, FileNotFoundError):
                    found.append(self._read(Path(path)))
        found.sort(key=lambda s: s.created, reverse=True)
        return found

    def find(self, prefix: str) -> list[str]:
        """Ids of the events whose id starts with `prefix`."""
        prefix = prefix.strip().lower()
        try:
            names = os.listdir(self.folder)
        except FileNotFoundError:
            return []
        return sorted(n.removesuffix(".json") for n in names
                      if n.endswith(".json") and n.startswith(prefix)
                      and _ID_RE.match(n.removesuffix(".json")))

    # -- changing ----------------------------------------------------------------------------

    def create(self, night: Event) -> StoredEvent:
        self._writer()
        with self._lock:
            event_id = secrets.token_hex(4)
            while self._path(event_id).exists():
                event_id = secrets.token_hex(4)
            now = datetime.now(UTC)
            stored = StoredEvent(id=event_id, revision=1, created=now, updated=now, night=night)
            self._write(stored, create=True)
            return stored

    def update(self, event_id: str, change: Callable[[Event], Event],
               expected_revision: int | None = None) -> StoredEvent:
        """Apply `change` to the event as saved now and save it (one atomic write);
        `expected_revision` refuses a change made from a stale screen (StaleEvent)."""
        self._writer()
        with self._lock:
            stored = self._read(self._path(event_id))
            if expected_revision is not None and stored.revision != expected_revision:
                raise StaleEvent()
            night = change(stored.night)
            if night == stored.night:
                return stored
            new = stored.model_copy(update={"revision": stored.revision + 1,
                                            "updated": datetime.now(UTC), "night": night})
            self._write(new, create=False)
            return new

    def delete(self, event_id: str) -> None:
        """Remove an event just created whose organiser code could not be saved."""
        self._writer()
        with self._lock, contextlib.suppress(FileNotFoundError):
            os.unlink(self._path(event_id))

    def close(self) -> None:
        with self._lock:
            if self._lease is not None:
                self._lease.release()
                self._lease = None

    # -- inside ------------------------------------------------------------------------------

    def _path(self, event_id: str) -> Path:
        if not isinstance(event_id, str) or not _ID_RE.match(event_id):
            raise EventNotFound(str(event_id))
        return self.folder / f"{event_id}.json"

    def _writer(self) -> None:
        if self.read_only:
            raise NotSaved("These club nights are open for reading only: nothing was saved.")
        with self._lock:
            if self._lease is None:
                self._lease = folder_lock.acquire(self.data_dir)

    def _read(self, path: Path) -> StoredEvent:
        event_id = path.stem
        if not path.exists():
            raise EventNotFound(event_id)
        try:
            raw = TinyDB(path, storage=AtomicJSONStorage).table(TABLE).get(doc_id=DOC_ID)
        except DamagedFile as exc:
            self._set_aside(path)
            raise DamagedFile(f"events/{path.name}", exc.reason) from None
        if not isinstance(raw, dict):
            raise EventNotFound(event_id) if not path.exists() else DamagedFile(
                f"events/{path.name}", "it holds no club night")
        return _upgraded(dict(raw), path)

    def _write(self, stored: StoredEvent, *, create: bool) -> None:
        record: dict[str, Any] = {"schema": EVENT_SCHEMA, **stored.model_dump(mode="json")}
        table = TinyDB(self._path(stored.id), storage=AtomicJSONStorage).table(TABLE)

        def replace(doc: MutableMapping[str, Any]) -> None:
            doc.clear()
            doc.update(record)

        try:
            if create:
                table.insert(Document(record, doc_id=DOC_ID))
            else:
                table.update(replace, doc_ids=[DOC_ID])
        except OSError as exc:
            raise not_saved(exc) from exc

    def _set_aside(self, path: Path) -> None:
        if not self.read_only:
            with contextlib.suppress(OSError):
                move_aside(path, self.data_dir / "damaged")


def _upgraded(record: dict[str, Any], path: Path) -> StoredEvent:
    return upgraded_record(record, path.stem, f"events/{path.name}")


def upgraded_record(record: dict[str, Any], event_id: str, shown: str) -> StoredEvent:
    """The record in the current schema: a newer one is left alone and reported
    (`shown` names where it was, in messages)."""
    record = dict(record)
    version = record.pop("schema", None)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise DamagedFile(shown, "it has no schema version")
    if version > EVENT_SCHEMA:
        raise NewerSchema(shown, version, EVENT_SCHEMA)
    try:
        stored = StoredEvent.model_validate({**record, "id": event_id})
    except ValidationError as exc:
        raise DamagedFile(shown, f"it is not a club night ({exc.error_count()} problems)") from None
    return stored
