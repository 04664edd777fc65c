"""Changes saved by another process, handed to this process's sessions.

In one process every save already tells the others through the sessions' Flet
pubsub (`actions.changed`). A community's processes hear each other's saves
from the database (`scorer.store.database.feed`); the server passes each one
here, from its own thread: any session's pubsub client reaches every session
of the process (Flet's hub is the app's, thread-safe, and schedules the
handlers on the server's loop), so a phone showing the game redraws it from
the database, as for a save made beside it.
"""

from __future__ import annotations

import threading
from typing import Any

from scorer.app.actions import game_topic

REDRAW_ALL = "redraw-all"
"""The message, on every session's global subscription, to redraw the game on show."""

_lock = threading.Lock()
_pubsub: Any = None


def hear(pubsub: Any) -> None:
    """A session started: its pubsub client carries changes to every session."""
    global _pubsub
    with _lock:
        _pubsub = pubsub


def game_changed(game_id: str) -> None:
    """Another process saved this game: every phone showing it redraws it."""
    with _lock:
        pubsub = _pubsub
    if pubsub is not None:
        pubsub.send_all_on_topic(game_topic(game_id), game_id)


def redraw_everything() -> None:
    """Changes may have been missed (the feed was cut off): every phone showing a game
    redraws it."""
    with _lock:
        pubsub = _pubsub
    if pubsub is not None:
        pubsub.send_all(REDRAW_ALL)
