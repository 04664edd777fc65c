"""One group store per server process, beside its game store (`get_groups`): its
brakes on wrong keeper codes are then shared by every phone."""

from __future__ import annotations

import threading

from scorer.groups.service import Groups
from scorer.groups.stores import groups_for
from scorer.store.game_store import GameStore

_lock = threading.Lock()
_groups: tuple[GameStore, Groups] | None = None


def get_groups(store: GameStore) -> Groups:
    """The groups beside `store` (a new store of groups if the game store changed, as
    in tests)."""
    global _groups
    with _lock:
        if _groups is None or _groups[0] is not store:
            _groups = (store, groups_for(store))
        return _groups[1]
