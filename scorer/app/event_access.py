"""One club night service per server process, beside its game store (`get_events`)."""

from __future__ import annotations

import threading
from typing import Any

from scorer.app import CONFIG
from scorer.backends import backends_of
from scorer.events.service import EventService
from scorer.store.ports import GamesPort

_lock = threading.Lock()
_service: EventService | None = None
_pubsub: Any = None
"""A Flet PubSubClient of this server (any session's reaches every session)."""


def club_topic(event_id: str) -> str:
    return f"club:{event_id}"


def hear_club(pubsub: Any) -> None:
    """Let the club night screens hear of changes through this session's pubsub."""
    global _pubsub
    _pubsub = pubsub


def _tell(event_id: str) -> None:
    """An event or one of its games changed: the boards, and the phones showing it."""
    CONFIG.club_changed(event_id)
    if _pubsub is not None:
        _pubsub.send_all_on_topic(club_topic(event_id), event_id)


def club_changed_elsewhere(event_id: str) -> None:
    """Another process changed this club night (`scorer.store.database.feed`): the
    boards and the phones showing it here (the service learns its new tables first)."""
    with _lock:
        service = _service
    if service is None:
        _tell(event_id)
    else:
        service.heard(event_id)  # its listeners include _tell


def get_events(store: GamesPort) -> EventService:
    """The club nights beside `store` (`scorer.backends`). The first call also lets each
    event's organiser edit every game of the event (`RightsPort.also_allow`; `also_move`
    carries their rights to a phone's stored token) and tells the server of every change
    (`CONFIG.club_changed`: the standings board; the club night screens through pubsub,
    once one has been shown)."""
    global _service
    with _lock:
        if _service is None or _service.games is not store:
            backends = backends_of(store)
            _service = backends.events()
            rights = backends.rights
            rights.also_allow(_service.organises_game)
            rights.also_move(_service.codes.move)
            _service.listen(_tell)
        return _service
