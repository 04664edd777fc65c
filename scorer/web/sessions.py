"""Who is on the other end of a page's websocket, and how many pages one guest may keep.

Flet gives every browser tab a server-side session (0.2 MB for a watcher of a
score sheet, benchmarks/bench_server_load.py) that outlives the tab by
`session_timeout_seconds`; nothing bounds how many there are. This module
does, in two places:

- `SessionGuard`, an ASGI middleware in front of Flet's `/ws` endpoint, reads
  the connection's address from the ASGI scope (uvicorn fills `scope["client"]`
  from the socket's peer; `scorer.server` turns proxy headers off, so nothing a
  client sends can change it) and makes it the `CONNECTION` of everything that
  connection runs: the session's `main()` and its event handlers are asyncio
  tasks created inside the endpoint, so they inherit the context variable.
  When the connection ends it marks its session abandoned, even when Flet
  did not (a page gone mid-send).
  It lets go of a page that stops reading (Flet would queue its updates
  without end), refuses a connection beyond `open_per_address` /
  `open_total` open ones, with a message the page shows, and ends a
  connection that registers a second page (Flet would otherwise start a new
  session for each).
  It reads each page's frames at the pace `scorer.web.floods` allows (a page
  and its address have a budget of frames, bytes and handler time a second).
- `SessionRegistry` counts the sessions themselves, connected or abandoned.
  When an address (or the server) has more than allowed, its oldest abandoned
  sessions are expired at once; open ones are never touched, and the guard
  keeps those fewer than the session limits.

`page.client_ip` is *not* used for any of this: a client can patch its own
page's fields over the websocket.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgpack
from starlette.websockets import WebSocketDisconnect
from uvicorn.protocols.utils import ClientDisconnected

from scorer.web.floods import PACE, Pace, Shares, meter_event_handlers, paced_receive

if TYPE_CHECKING:
    from scorer.web.open_pages import PgOpenPages

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Flet's protocol (flet.messaging.protocol): a frame is [0x00][msgpack [action, body]].
_FLET_FRAME = 0x00
_REGISTER_CLIENT = 1

UNKNOWN = "unknown"


class _Connection:
    """One page websocket: its address, and the sessions it served."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.served: list[tuple[weakref.ref[Any], weakref.ref[Any]]] = []


CONNECTION: contextvars.ContextVar[_Connection | None] = contextvars.ContextVar(
    "tarabish_connection", default=None)
"""The connection whose page code is running (set by SessionGuard)."""


def peer_address() -> str:
    """The running page's connection address, as the server's socket saw it."""
    connection = CONNECTION.get()
    return connection.address if connection is not None else UNKNOWN


def note_session(session: Any) -> None:
    """Remember that the running connection serves `session` (called when a page
    starts or reconnects), so the guard can release it if the connection dies."""
    connection = CONNECTION.get()
    if connection is not None and session.connection is not None:
        connection.served.append((weakref.ref(session), weakref.ref(session.connection)))
        del connection.served[:-4]  # one connection serves one session at a time


async def _release_sessions(connection: _Connection, timeout_s: int) -> None:
    """Mark abandoned the sessions a dead connection still holds.

    Flet 1.0.5 marks a session disconnected only when its websocket handler
    ends cleanly; a page that vanishes while the server is sending (a closed
    tab, a phone that loses Wi-Fi) leaves the session "connected" for ever,
    out of reach of the sweeper. `Session.disconnect` starts its clock.
    """
    for session_ref, conn_ref in connection.served:
        session, conn = session_ref(), conn_ref()
        if session is not None and conn is not None and session.connection is conn:
            try:
                await session.disconnect(timeout_s)
            except Exception:  # the page's own disconnect handler failed: still released
                logger.warning("error while releasing a page session", exc_info=True)


@dataclass(frozen=True)
class SessionLimits:
    """How many pages the server keeps. A table has 4 to 12 phones; these leave
    room for a hall of tables and a host laptop with a few tabs."""

    open_per_address: int = 12
    """Pages open at once from one address (tabs of one phone)."""
    open_total: int = 600
    sessions_per_address: int = 16
    """Sessions kept for one address, open or abandoned (oldest abandoned go first)."""
    sessions_total: int = 700
    abandoned_after_s: int = 600
    """How long a closed or sleeping tab's session is kept (Flet's default: 3600 s).
    A phone asleep longer gets a fresh session, rebuilt from the store."""
    register_wait_s: float = 10.0
    """How long a refused connection may take to say hello before it is closed."""
    refusal_shown_s: float = 60.0
    """How long a refused page is kept open so that its message stays on screen
    (the Flet client shows "Working..." again once the socket closes)."""
    refusals_shown: int = 32
    """Refused pages kept open at once, server-wide; beyond, closed at once."""
    stalled_send_s: float = 30.0
    """How long one frame may wait for a page that does not read: Flet queues
    every later update for it without limit, so such a page is let go."""


LIMITS = SessionLimits()

TOO_MANY_HERE = ("Too many Tarabish pages are open on this device. "
                 "Close the tabs you no longer need, then reload this page.")
TOO_MANY_ALL = ("The table server has too many phones connected right now. "
                "Try again in a minute.")


class SessionGuard:
    """ASGI middleware: the real peer address for page code, and open-page limits."""

    def __init__(self, app: ASGIApp, limits: SessionLimits | None = None,
                 shares: Shares | None = None, community: PgOpenPages | None = None) -> None:
        self.app = app
        self.limits = limits or LIMITS
        self.shares = shares or Shares()
        """Each address's budget of frames, bytes and handler time (scorer.web.floods)."""
        self.community = community
        """On a community: the open pages of every process, counted in its database."""
        meter_event_handlers()
        self._open: dict[str, int] = {}
        self._showing = 0  # refused pages kept open to show their message
        self._lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else UNKNOWN
        refusal = self._admit(address)
        if not refusal and self.community is not None:
            refusal = await self._admit_in_community(address)
        if refusal:
            logger.warning("refused a page from %s: %s", address, refusal)
            await self._refuse(receive, send, refusal)
            return
        connection = _Connection(address)
        pace = self.shares.join(address)
        pace.unsent = lambda: _unsent(connection)

        async def close(reason: str) -> None:
            logger.warning("a page from %s sent too much too fast (%d frames held back): "
                           "closed", address, pace.held_back)
            with contextlib.suppress(OSError, RuntimeError, ClientDisconnected):
                await send({"type": "websocket.close", "code": 1008, "reason": reason[:120]})

        async def paced() -> Message:
            return await paced_receive(receive, pace, close)

        token, pace_token = CONNECTION.set(connection), PACE.set(pace)
        try:
            await self.app(scope, _one_registration(paced),
                           _bounded_send(send, self.limits.stalled_send_s, pace))
        except (WebSocketDisconnect, ClientDisconnected):
            pass  # the page went away mid-send: released below, nothing to report
        finally:
            CONNECTION.reset(token)
            PACE.reset(pace_token)
            self.shares.leave(pace)
            self._release(address)
            if self.community is not None:  # in the background: nothing waits on it
                asyncio.get_running_loop().run_in_executor(
                    None, self.community.release, address, lambda: self.open_count(address))
            await _release_sessions(connection, self.limits.abandoned_after_s)

    async def _admit_in_community(self, address: str) -> str:
        """The community's cap on the address's open pages, across its processes."""
        assert self.community is not None
        self.community.keep_fresh(self._held)
        try:
            admitted = await asyncio.to_thread(self.community.admit, address,
                                               lambda: self.open_count(address))
        except asyncio.CancelledError:  # the server stops
            self._release(address)
            raise
        if not admitted:
            self._release(address)
            return TOO_MANY_HERE
        return ""

    def _held(self) -> dict[str, int]:
        with self._lock:
            return dict(self._open)

    def open_count(self, address: str | None = None) -> int:
        with self._lock:
            return self._open.get(address, 0) if address else sum(self._open.values())

    def _admit(self, address: str) -> str:
        with self._lock:
            if self._open.get(address, 0) >= self.limits.open_per_address:
                return TOO_MANY_HERE
            if sum(self._open.values()) >= self.limits.open_total:
                return TOO_MANY_ALL
            self._open[address] = self._open.get(address, 0) + 1
            return ""

    def _release(self, address: str) -> None:
        with self._lock:
            left = self._open.get(address, 0) - 1
            if left > 0:
                self._open[address] = left
            else:
                self._open.pop(address, None)

    async def _refuse(self, receive: Receive, send: Send, message: str) -> None:
        """Answer the page's registration with an error it shows, then close.

        The Flet client shows the `error` of a registration answer in place of
        the page; a refusal at the handshake would only leave it spinning.
        """
        try:
            async with asyncio.timeout(self.limits.register_wait_s):
                if (await receive())["type"] != "websocket.connect":
                    return
                await send({"type": "websocket.accept"})
                while True:
                    event = await receive()
                    if event["type"] != "websocket.receive":
                        return
                    if event.get("bytes"):
                        break
                answer = [_REGISTER_CLIENT, {"session_id": "", "page_patch": {},
                                             "error": message}]
                await send({"type": "websocket.send",
                            "bytes": bytes([_FLET_FRAME]) + msgpack.packb(answer)})
        except (TimeoutError, OSError):
            return
        with self._lock:
            show = self._showing < self.limits.refusals_shown
            self._showing += show
        try:
            if show:  # until the page goes, or the time is up
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.limits.refusal_shown_s):
                        while (await receive())["type"] == "websocket.receive":
                            pass
            with contextlib.suppress(OSError, RuntimeError):
                await send({"type": "websocket.close", "code": 1008,
                            "reason": message[:120]})
        finally:
            with self._lock:
                self._showing -= show


def _action_of(frame: bytes) -> int | None:
    """The action number of a Flet frame, reading only its first few bytes."""
    if len(frame) < 3 or frame[0] != _FLET_FRAME:
        return None
    unpacker = msgpack.Unpacker(max_buffer_size=64)
    unpacker.feed(frame[1:17])
    try:
        if unpacker.read_array_header() < 1:
            return None
        action = unpacker.unpack()
    except Exception:  # not msgpack, or cut short: Flet itself will refuse it
        return None
    return action if isinstance(action, int) else None


def _bounded_send(send: Send, limit_s: float, pace: Pace) -> Send:
    """`send` that gives up on a page that has not read for `limit_s` seconds, and
    sends nothing more to a page closed for its flood."""

    async def bounded(message: Message) -> None:
        if pace.closed:
            return
        try:
            async with asyncio.timeout(limit_s):
                await send(message)
        except TimeoutError:
            logger.warning("a page stopped reading for %.0f s: let go", limit_s)
            raise ClientDisconnected() from None
        finally:
            pace.progressed()

    return bounded


def _unsent(connection: _Connection) -> int:
    """Frames Flet has queued for the connection's page and not yet sent (its
    `FletApp`'s send queue, which has no bound of its own)."""
    if not connection.served:
        return 0
    app = connection.served[-1][1]()
    queue = getattr(app, "_FletApp__send_queue", None)
    return queue.qsize() if isinstance(queue, asyncio.Queue) else 0


def _one_registration(receive: Receive) -> Receive:
    """`receive` that ends the connection at a second registration on it.

    Flet starts a new session for every registration naming an unknown
    session, and only the last one is ever released: one socket could
    otherwise pile up sessions without end.
    """
    registered = False

    async def guarded() -> Message:
        nonlocal registered
        event = await receive()
        data = event.get("bytes") if event["type"] == "websocket.receive" else None
        if data and _action_of(data) == _REGISTER_CLIENT:
            if registered:
                logger.warning("a connection registered a second page: closed")
                return {"type": "websocket.disconnect", "code": 1008}
            registered = True
        return event

    return guarded


@dataclass
class _Entry:
    key: int
    session: weakref.ref[Any]
    address: str
    started: float


class SessionRegistry:
    """Every page session of this server, by address, oldest first.

    Sessions are Flet `Session`s (kept by weak reference: Flet owns them). A
    session is abandoned when it has no connection (`session.connection is
    None`); expiring one (`session.disconnect(0)`) lets Flet's sweeper, which
    runs every 10 s, drop it.
    """

    def __init__(self, limits: SessionLimits | None = None) -> None:
        self.limits = limits or LIMITS
        self._entries: dict[int, _Entry] = {}
        self._lock = threading.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    def add(self, session: Any, address: str) -> None:
        """A new session: count it, and expire abandoned ones beyond the limits."""
        with self._lock:
            self._drop_dead()
            key = id(session)
            self._entries[key] = _Entry(key, weakref.ref(session), address, time.monotonic())
            mine = [e for e in self._entries.values() if e.address == address]
            doomed = _oldest_abandoned(mine, len(mine) - self.limits.sessions_per_address)
            rest = [e for e in self._entries.values() if e not in doomed]
            doomed += _oldest_abandoned(rest, len(rest) - self.limits.sessions_total)
            for entry in doomed:
                self._entries.pop(entry.key, None)
        for entry in doomed:
            self._expire(entry)

    def remove(self, session: Any) -> None:
        with self._lock:
            self._entries.pop(id(session), None)

    def count(self, address: str | None = None) -> int:
        with self._lock:
            self._drop_dead()
            return sum(1 for e in self._entries.values() if address in (None, e.address))

    def _drop_dead(self) -> None:
        for key in [k for k, e in self._entries.items() if e.session() is None]:
            del self._entries[key]

    def _expire(self, entry: _Entry) -> None:
        session = entry.session()
        if session is None:
            return
        logger.info("expiring an abandoned page session of %s", entry.address)
        try:
            task = asyncio.get_running_loop().create_task(session.disconnect(0))
        except RuntimeError:  # no loop (plain tests): nothing to expire on
            return
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _oldest_abandoned(entries: list[_Entry], how_many: int) -> list[_Entry]:
    if how_many <= 0:
        return []
    abandoned = []
    for entry in entries:
        session = entry.session()
        if session is not None and session.connection is None:
            abandoned.append(entry)
    abandoned.sort(key=lambda e: e.started)
    return abandoned[:how_many]


REGISTRY = SessionRegistry()
"""The server's sessions (one server per process)."""


class ServerSessions:
    """The table server's count of page sessions, as the app reports them
    (`scorer.app.AppConfig.sessions`)."""

    def __init__(self, registry: SessionRegistry = REGISTRY) -> None:
        self.registry = registry

    def opened(self, session: Any) -> str:
        """Count a new page under its connection's address (which may expire that
        address's abandoned pages); the address."""
        address = peer_address()
        self.registry.add(session, address)
        note_session(session)
        return address

    def reconnected(self, session: Any) -> None:
        note_session(session)  # the new connection serves it now

    def closed(self, session: Any) -> None:
        self.registry.remove(session)
