"""One group store per server process, beside its game store (`get_groups`): its
brakes on wrong keeper codes are then shared by every phone."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from scorer.backends import backends_of
from scorer.store.ports import GamesPort

if TYPE_CHECKING:  # a server's only: the phone-alone app has no groups
    from scorer.groups.ports import GroupsPort

_lock = threading.Lock()
_groups: tuple[GamesPort, GroupsPort] | None = None


def get_groups(store: GamesPort) -> GroupsPort:
    """The groups beside `store` (a new store of groups if the game store changed, as
    in tests)."""
    global _groups
    with _lock:
        if _groups is None or _groups[0] is not store:
            _groups = (store, backends_of(store).groups())
        return _groups[1]
