"""One set of backends per server process (`scorer.backends`), shared by every
phone's session: its games, and beside them its rights, club nights and groups."""

from __future__ import annotations

import logging
import threading

from scorer.app import CONFIG
from scorer.backends import Backends, install, open_backends
from scorer.machine.paths import resolve_data_dir
from scorer.store.ports import GamesPort

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_backends: Backends | None = None


def use_backends(backends: Backends | None) -> None:
    """Serve every session from `backends` (the browser opens its own, see
    `scorer.browser.start`) instead of opening them from `CONFIG`; None: open them
    again at the next use."""
    global _backends
    with _lock:
        _backends = backends
        install(backends)


def get_backends() -> Backends:
    """The process's backends, opened on first use from `CONFIG`: the community's
    database when one is configured (`CONFIG.database`), else the data folder."""
    global _backends
    with _lock:
        if _backends is None:
            # Problems name files by their full path: for the server's terminal
            # only (phones see the store's `notices`). With a database the data
            # folder keeps only this machine's caches.
            _backends = open_backends(resolve_data_dir(CONFIG.data_dir), CONFIG.database,
                                      on_problem=_log_problem)
            install(_backends)
        return _backends


def get_store() -> GamesPort:
    """The process's games (`get_backends`)."""
    return get_backends().games


def _log_problem(problem: str) -> None:
    logger.warning("%s", problem)
