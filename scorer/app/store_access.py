"""One GameStore per server process, shared by every phone's session."""

from __future__ import annotations

import logging
import threading

from scorer.app import CONFIG
from scorer.machine.paths import resolve_data_dir
from scorer.store.game_store import GameStore

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_store: GameStore | None = None


def use_store(store: GameStore) -> None:
    """Serve every session from `store` (the browser opens its own, see
    `scorer.browser.storage`) instead of opening one in the data folder."""
    global _store
    with _lock:
        _store = store


def get_store() -> GameStore:
    """The process's store, opened on first use: the community's database when one is
    configured (`CONFIG.database`: a PgGameStore, the same interface), else the data
    folder."""
    global _store
    with _lock:
        if _store is None and CONFIG.database is not None:
            # Imported here: the phone-alone app has no PostgreSQL.
            from scorer.store.pg_games import PgGameStore

            # The data folder keeps only this machine's caches beside the database.
            # GameStore's interface (not its class): typed as one for every caller.
            _store = PgGameStore(  # type: ignore[assignment]
                CONFIG.database, data_dir=resolve_data_dir(CONFIG.data_dir),
                on_problem=_log_problem)
        if _store is None:
            # Problems name files by their full path: for the server's terminal
            # only (phones see the store's `notices`).
            _store = GameStore(resolve_data_dir(CONFIG.data_dir), on_problem=_log_problem)
        return _store


def _log_problem(problem: str) -> None:
    logger.warning("%s", problem)
