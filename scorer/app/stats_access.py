"""One StatsService per store, so every phone's Statistics screen shares one cache."""

from __future__ import annotations

import threading

from scorer.stats import StatsService
from scorer.store.ports import GamesPort

_lock = threading.Lock()
_service: StatsService | None = None


def get_stats_service(store: GamesPort) -> StatsService:
    """The service for `store` (a new one if the store changed, as in tests)."""
    global _service
    with _lock:
        if _service is None or _service.store is not store:
            _service = StatsService(store)
        return _service
