"""How a server process hears that a game or a club night changed: one interface,
two ways.

- `InProcessFeed`, the table server's: every save is made in this process, and
  already tells the rest of it as it happens (`actions.changed`: the phones on
  the game's pubsub topic, `CONFIG.game_saved` and `CONFIG.club_changed` for the
  boards). Nothing more to hear.
- `DatabaseFeed`, a community's (`tarabish --database`): saves are made by any
  process. The database notifies each commit (`scorer.store.database.feed`);
  this process's listener hands each change to its own sessions and boards the
  way its own saves are: the phones showing the game redraw it from the
  database. Its own saves are skipped (its phones were told already); after a
  dropped listening connection every open game and board is redrawn.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from scorer.app import CONFIG, live
from scorer.app.event_access import club_changed_elsewhere

if TYPE_CHECKING:
    from scorer.store.database import Database
    from scorer.store.database.feed import Batch, FeedListener

logger = logging.getLogger(__name__)


class LiveFeed(Protocol):
    """Changes saved anywhere in the community, handed to this process's sessions."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


class InProcessFeed:
    """One process holds the data folder: its saves tell its sessions themselves."""

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass


class DatabaseFeed:
    """The community's feed: a listener on the database, handing changes on here.

    `writer` is this process's application_name (its pool's connections carry it),
    so the notices of its own saves are known and skipped. `redraw_boards` wakes
    every board this process serves (after a drop)."""

    def __init__(self, db: Database, writer: str,
                 redraw_boards: Callable[[], None] = lambda: None) -> None:
        self.db = db
        self.writer = writer
        self.redraw_boards = redraw_boards
        self.listener: FeedListener | None = None

    def start(self) -> None:
        from scorer.store.database.feed import FeedListener

        self.listener = FeedListener(self.db, self.writer, self.deliver)
        self.listener.start()

    def stop(self) -> None:
        if self.listener is not None:
            self.listener.stop()

    def deliver(self, batch: Batch) -> None:
        """Hand one batch to the sessions and boards (the listener's thread)."""
        if batch.everything:
            live.redraw_everything()
            self.redraw_boards()
            return
        for game_id in batch.games:
            live.game_changed(game_id)
            CONFIG.game_saved(game_id)  # its club night's board, if it is a table's
        for event_id in batch.events:
            club_changed_elsewhere(event_id)
