"""The community's live feed: what changed, told to every process by PostgreSQL.

A save on one process must reach the phones and boards of every other. The
database says so itself: triggers (migrations `0032_feed_games`,
`0032_feed_events`) run `pg_notify('tarabish_feed', ...)` in the transaction
that changed a game's revision or an event, so the notice is delivered at
commit, never for a save that was rolled back, and whoever wrote it (a server
process, `tarabish import`, `tarabish event`) is heard. The payload is small:
`{"g": game id, "r": revision, "a": the writer's application_name}` (revision
-1: deleted) or `{"e": event id, "a": ...}`.

Each process keeps one `FeedListener`: one connection of its own (LISTEN needs
a session that stays), read by one thread. Notices it wrote itself (its
application_name) are skipped: its own phones heard of those in-process,
before the commit reached anyone. Notices go through a bounded, coalescing
`Pending` (one entry per game or event, the newest revision) to the thread that
hands them on; past its bound everything open is simply redrawn. A dropped
connection is opened again after a wait that doubles up to RECONNECT_MAX_S; then
every open game is redrawn, since notices sent meanwhile were lost.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scorer.store.database.connect import Database, DatabaseUnavailable

logger = logging.getLogger(__name__)

CHANNEL = "tarabish_feed"
#: Games and events waiting to be handed on at most; more means "redraw everything".
PENDING_MAX = 2_000
#: Waits between attempts to listen again: from the first, doubling, to the last.
RECONNECT_FIRST_S = 0.2
RECONNECT_MAX_S = 5.0
#: A silent connection is asked a `SELECT 1` this often (a dead peer raises no notice).
PING_AFTER_S = 15.0


@dataclass(frozen=True)
class Change:
    """One notice: a game (with its revision; -1 deleted) or an event changed."""

    game_id: str | None = None
    revision: int = 0
    event_id: str | None = None
    writer: str = ""


def parse(payload: str) -> Change | None:
    """A notice's payload; None for anything else (a stranger's NOTIFY on the channel)."""
    try:
        data = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    named = data.get("a")
    writer = named if isinstance(named, str) else ""
    game, event = data.get("g"), data.get("e")
    if isinstance(game, str) and len(game) <= 64:
        revision = data.get("r")
        return Change(game_id=game, revision=revision if isinstance(revision, int) else 0,
                      writer=writer)
    if isinstance(event, str) and len(event) <= 64:
        return Change(event_id=event, writer=writer)
    return None


@dataclass
class Batch:
    """What to hand on at once: games (newest revision) and events; or everything."""

    games: dict[str, int] = field(default_factory=dict)
    events: set[str] = field(default_factory=set)
    everything: bool = False


class Pending:
    """Changes heard and not yet handed on: bounded, one entry per game or event."""

    def __init__(self, limit: int = PENDING_MAX) -> None:
        self.limit = limit
        self._batch = Batch()
        self._cond = threading.Condition()

    def add(self, change: Change) -> None:
        with self._cond:
            batch = self._batch
            if not batch.everything:
                if change.game_id is not None:
                    batch.games[change.game_id] = max(change.revision,
                                                      batch.games.get(change.game_id, -1))
                elif change.event_id is not None:
                    batch.events.add(change.event_id)
                if len(batch.games) + len(batch.events) > self.limit:
                    self._batch = Batch(everything=True)
            self._cond.notify()

    def everything(self) -> None:
        with self._cond:
            self._batch = Batch(everything=True)
            self._cond.notify()

    def take(self, timeout: float) -> Batch | None:
        """The changes gathered so far (waiting up to `timeout` for one); None if none."""
        with self._cond:
            batch = self._batch
            if not (batch.games or batch.events or batch.everything):
                self._cond.wait(timeout)
                batch = self._batch
            if not (batch.games or batch.events or batch.everything):
                return None
            self._batch = Batch()
            return batch


class FeedListener:
    """One process's ear on the feed: a listening connection, its reader thread and the
    thread that calls `deliver` with each batch (never the reader: a slow hand-on must
    not leave notices unread in the socket)."""

    def __init__(self, db: Database, own_writer: str,
                 deliver: Callable[[Batch], None]) -> None:
        self.db = db
        self.own_writer = own_writer
        self.deliver = deliver
        self.pending = Pending()
        self.reconnects = 0
        """How many times the connection was opened again after a drop."""
        self.listening = threading.Event()
        self._stop = threading.Event()
        self._conn: Any = None
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        for name, run in (("feed-listen", self._listen_loop), ("feed-deliver", self._deliver_loop)):
            thread = threading.Thread(target=run, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        self.pending.everything()  # wakes the delivering thread
        for thread in self._threads:
            thread.join(timeout)

    def backend_pid(self) -> int | None:
        """The listening connection's server process (tests end it to drop the connection)."""
        conn = self._conn
        return None if conn is None else int(conn.info.backend_pid)

    # -- the reader ------------------------------------------------------------------------

    def _listen_loop(self) -> None:
        wait = RECONNECT_FIRST_S
        first = True
        while not self._stop.is_set():
            try:
                conn = self.db.connect()
            except DatabaseUnavailable as exc:
                logger.warning("live feed: the database cannot be reached (%s); "
                               "trying again in %.1f s", exc.detail, wait)
                self._stop.wait(wait)
                wait = min(wait * 2, RECONNECT_MAX_S)
                continue
            try:
                conn.execute(f"LISTEN {CHANNEL}")
                self._conn = conn
                self.listening.set()
                if not first:
                    # Notices sent while we were away are lost: redraw what is open.
                    self.reconnects += 1
                    logger.warning("live feed: listening again; open games are redrawn")
                    self.pending.everything()
                first = False
                wait = RECONNECT_FIRST_S
                self._read(conn)
            except Exception as exc:  # any drop: listen again
                if self._stop.is_set():
                    break
                logger.warning("live feed: the listening connection dropped (%s); "
                               "listening again in %.1f s", str(exc).split("\n")[0], wait)
                self._stop.wait(wait)
                wait = min(wait * 2, RECONNECT_MAX_S)
            finally:
                self.listening.clear()
                self._conn = None
                try:
                    conn.close()
                except Exception:  # it is gone already
                    logger.debug("feed: close failed", exc_info=True)

    def _read(self, conn: Any) -> None:
        """Read notices until the connection drops (raises) or the listener stops."""
        last = time.monotonic()
        while not self._stop.is_set():
            # Short waits, so a stop is heard within a second.
            for notice in conn.notifies(timeout=1.0):
                last = time.monotonic()
                change = parse(notice.payload)
                if change is not None and change.writer != self.own_writer:
                    self.pending.add(change)
                if self._stop.is_set():
                    return
            if time.monotonic() - last > PING_AFTER_S:
                conn.execute("SELECT 1")  # a dead connection raises here
                last = time.monotonic()

    # -- the hand-on -----------------------------------------------------------------------

    def _deliver_loop(self) -> None:
        while not self._stop.is_set():
            batch = self.pending.take(timeout=1.0)
            if batch is None or self._stop.is_set():
                continue
            try:
                self.deliver(batch)
            except Exception:  # one failed hand-on must not stop the feed
                logger.exception("live feed: handing on a change failed")


def writer_name(role: str) -> str:
    """A process's application_name: its role and a random tag (at most 63 bytes)."""
    import secrets

    return f"tarabish-{role}-{secrets.token_hex(6)}"[:63]


def with_writer(url: str, name: str) -> str:
    """`url` as a conninfo whose sessions carry `name` (what the feed's notices name),
    with TCP keepalives: a peer gone without a word (a machine off, a cut cable) is
    noticed in about half a minute, not at the system's two hours, so the listener
    opens its connection again (options the URL gives win)."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    given = conninfo_to_dict(url)
    alive = {key: value for key, value in (("keepalives", 1), ("keepalives_idle", 10),
                                           ("keepalives_interval", 5), ("keepalives_count", 3))
             if key not in given}
    return make_conninfo(url, application_name=name, **alive)


def wait_listening(listener: FeedListener, timeout_s: float) -> bool:
    """Whether the listener is listening within `timeout_s` (start-up, tests)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if listener.listening.wait(0.05):
            return True
    return False
