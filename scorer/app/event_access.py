"""One club night service per server process, beside its game store (`get_events`)."""

from __future__ import annotations

import threading

from scorer.app import CONFIG
from scorer.events.service import EventService
from scorer.rights import get_rights
from scorer.store.game_store import GameStore

_lock = threading.Lock()
_service: EventService | None = None


def get_events(store: GameStore) -> EventService:
    """The club nights beside `store`. The first call also lets each event's organiser
    edit every game of the event (`TableRights.also_allow`) and tells the server of
    every change (`CONFIG.club_changed`: the standings board)."""
    global _service
    with _lock:
        if _service is None or _service.games is not store:
            _service = EventService(store)
            get_rights(store.data_dir).also_allow(_service.organises_game)
            _service.listen(lambda event_id: CONFIG.club_changed(event_id))
        return _service
