"""The club nights' store port: what `service.EventService` (for the app, the board
and `tarabish event`) asks of the place its events are kept.

Its adapters: `store.EventStore` (one crash-safe file per event in a data folder) and
`pg_store.PgEventStore` (a community's database). Which one a process holds is chosen
once, at start (`scorer.backends`); the organiser codes beside them are
`organisers.OrganiserCodes` and its subclass `pg_organisers.PgOrganiserCodes`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from scorer.events.night import Event
from scorer.events.store import EventStore, StoredEvent


class EventsPort(Protocol):
    """Every club night of one data folder or one community. Errors: `EventNotFound`,
    `StaleEvent` (a change made from a stale screen), `StoreError`."""

    read_only: bool

    def get(self, event_id: str) -> StoredEvent: ...

    def list_events(self) -> list[StoredEvent]: ...

    def find(self, prefix: str) -> list[str]: ...

    def create(self, night: Event) -> StoredEvent: ...

    def update(self, event_id: str, change: Callable[[Event], Event],
               expected_revision: int | None = None) -> StoredEvent: ...

    def delete(self, event_id: str) -> None: ...

    def close(self) -> None: ...


_FOLDER_ADAPTER: type[EventsPort] = EventStore
"""Checked by mypy: the folder's store implements the port (it is below this module,
so it cannot subclass it; `PgEventStore` does)."""
