"""The sync socket: where the phones that keep the game meet (docs/SYNC.md).

A websocket at `scorer.sync.messages.SYNC_PATH`; each text frame is one message of
`scorer.sync.messages`. One `SyncService` per process judges them (`SyncHub`, made
from the process's backends on the first connection); this module only carries:

- each connection's frames go to `SyncService.receive` one at a time, in order, on
  a small pool of worker threads (`Workers`): the store blocks, and a slow database
  must stall neither the event loop nor the drawn pages; the replies are sent in
  order, then every watcher of each changed game is told (`game_changed`), and the
  drawn pages and club boards hear of it (`tell_pages`);
- a change made elsewhere in this process (a drawn page, Play again, a delete) or
  heard from the community's feed (another process) reaches the phones through
  `SyncHub.changed`, from any thread;
- every bound is here or in the service: the frame's size (the protocol's 512 KB;
  uvicorn cuts frames over `scorer.server.WS_MAX_BYTES`), messages a connection may
  send (read later, never dropped), sockets per address and in all, a hello within
  `hello_within_s`, a word at least every `idle_s`, and what waits to be sent to one
  phone (`queue_messages`, `queue_bytes`, `stalled_send_s`): a phone that does not
  read is let go with a reason, never buffered without end.

Every close says why, with a code (`Close`) and words a player may read.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, TypeVar

from starlette.websockets import WebSocket, WebSocketDisconnect
from uvicorn.protocols.utils import ClientDisconnected

from scorer.sync.messages import Error, Update, encode
from scorer.sync.service import Connection, Outcome, SyncService
from scorer.web.connections import LET_GO

logger = logging.getLogger(__name__)

T = TypeVar("T")


class Close(IntEnum):
    """Why the server ended a sync connection (the websocket's close code)."""

    NORMAL = 1000
    """The phone left, or asked nothing more of a closing connection."""
    FATAL = 1008
    """A fatal `Error` was sent (hello first, too many unreadable messages...)."""
    TOO_BIG = 1009
    """A frame over the server's websocket bound (uvicorn's own close)."""
    RESTART = 1012
    """The server is stopping or restarting: connect again in a moment."""
    TRY_LATER = 1013
    """Too many sync connections from this address, or in all."""
    UPDATE = 4001
    """`Update` was sent: the phone reloads the app."""
    IDLE = 4002
    """Nothing heard from the phone for `idle_s` (it connects again when it needs)."""
    NO_HELLO = 4003
    """No `Hello` within `hello_within_s`."""
    NOT_READING = 4004
    """The phone did not read what was sent to it."""


WORDS = {
    Close.RESTART: "The server is restarting: this phone keeps recording and sends its "
                   "changes when it is back.",
    Close.TRY_LATER: "Too many phones are connected from this address: try again in a "
                     "minute.",
    Close.IDLE: "Nothing heard from this phone for a while: it connects again when it "
                "needs to.",
    Close.NO_HELLO: "The app did not say hello in time.",
    Close.NOT_READING: "This phone did not read what the server sent: it connects again.",
    Close.UPDATE: "This app is out of date: reload it.",
}
"""Close reasons (a websocket's reason is at most 123 bytes)."""


@dataclass(frozen=True)
class SocketLimits:
    """The sync socket's bounds (the service has its own: docs/SYNC.md)."""

    per_address: int = 32
    """Sync sockets open at once from one address (behind a trusted proxy: the phone's
    forwarded address; a phone keeps one). Below the connection guard's 64 sockets an
    address, so a refusal says why instead of a cut."""
    total: int = 30_000
    """Sync sockets open at once in this process (the connection guard bounds every
    socket by the open-file limit too)."""
    hello_within_s: float = 10.0
    idle_s: float = 600.0
    """A connection that says nothing this long is closed (the phone sends `Ping`
    now and then; uvicorn's own websocket pings find a dead peer sooner)."""
    queue_messages: int = 64
    """Messages waiting to be sent to one phone (a reconnect's Hello answers up to 32
    games at once)."""
    queue_bytes: int = 2 * 1024 * 1024
    stalled_send_s: float = 20.0
    """How long one frame may wait for a phone that does not read."""
    burst: float = 120.0
    per_second: float = 20.0
    """Messages one connection may send: `burst` at once, then `per_second`; more
    are read later (its frames wait in its socket), never refused."""
    workers: int = 8
    """Threads that run the store's calls (a community's pool has 8 connections)."""


LIMITS = SocketLimits()


class Workers:
    """A fixed pool of daemon threads for blocking calls (`await workers.run(fn, ...)`).

    Daemon threads, unlike `concurrent.futures`' (joined at exit): a call stuck on a
    database that went away must not hold a stopping server past its grace. One
    connection has at most one call here at a time, so the queue is bounded by the
    open connections."""

    def __init__(self, count: int, name: str = "sync") -> None:
        self._jobs: queue.SimpleQueue[tuple[Any, ...] | None] = queue.SimpleQueue()
        self._threads = [threading.Thread(target=self._work, name=f"{name}-{n}", daemon=True)
                         for n in range(count)]
        for thread in self._threads:
            thread.start()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((loop, future, fn, args))
        return await future

    def stop(self) -> None:
        for _ in self._threads:
            self._jobs.put(None)

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            loop, future, fn, args = job
            try:
                result, error = fn(*args), None
            except BaseException as exc:  # handed to the waiting coroutine
                result, error = None, exc
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(_settle, future, result, error)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class Peer:
    """One phone's socket: what waits to be sent to it, in order, and its sender."""

    def __init__(self, ws: WebSocket, conn: Connection, limits: SocketLimits) -> None:
        self.ws = ws
        self.conn = conn
        self.limits = limits
        self.waiting: deque[str] = deque()
        self.waiting_bytes = 0
        self.closing: tuple[int, str] | None = None
        self.let_go_as: tuple[int, str] | None = None
        self.wake = asyncio.Event()
        self.room = asyncio.Event()
        """Set while little waits: the phone's next message is read then."""
        self.room.set()

    def put(self, text: str, *, own: bool = False) -> None:
        """Send `text` after what waits. Another phone's change told to this one: past
        the bounds, this phone is let go. Its `own` answers are not judged (one message
        has a bounded answer, and its next message is read only once there is room)."""
        if self.closing is not None:
            return
        if not own and (len(self.waiting) >= self.limits.queue_messages
                        or self.waiting_bytes + len(text) > self.limits.queue_bytes):
            self.let_go(Close.NOT_READING)
            return
        self.waiting.append(text)
        self.waiting_bytes += len(text)
        if self.waiting_bytes > self.limits.queue_bytes // 2:
            self.room.clear()
        self.wake.set()

    def close(self, code: int, reason: str) -> None:
        """Send what waits, then close with `code` and `reason`."""
        if self.closing is None:
            self.closing = (code, _reason(reason))
            self.wake.set()

    def let_go(self, code: Close) -> None:
        """End a connection that does not read: what waits is dropped (the phone gets
        the whole game again when it reconnects)."""
        if self.let_go_as is not None:
            return
        reason = WORDS[code]
        logger.warning("sync: let go of a phone of %s: %s", self.conn.address, reason)
        self.let_go_as = (int(code), reason)
        self.closing = (int(code), reason)
        self.waiting.clear()
        self.waiting_bytes = 0
        cut = self.ws.scope.get("extensions", {}).get(LET_GO)
        if cut is not None:
            cut(int(code), reason)
        self.wake.set()
        self.room.set()

    async def send_loop(self) -> None:
        """Send what waits, in order, until closed; a frame not taken within
        `stalled_send_s` lets the phone go."""
        try:
            while True:
                await self.wake.wait()
                self.wake.clear()
                while self.waiting and self.let_go_as is None:
                    text = self.waiting.popleft()
                    self.waiting_bytes -= len(text)
                    if self.waiting_bytes <= self.limits.queue_bytes // 2:
                        self.room.set()
                    try:
                        async with asyncio.timeout(self.limits.stalled_send_s):
                            await self.ws.send_text(text)
                    except TimeoutError:
                        self.let_go(Close.NOT_READING)
                if self.let_go_as is not None:
                    return
                if self.closing is not None:
                    code, reason = self.closing
                    try:
                        async with asyncio.timeout(self.limits.stalled_send_s):
                            await self.ws.close(code, reason)
                    except TimeoutError:
                        self.let_go(Close.NOT_READING)
                    return
        except (ClientDisconnected, WebSocketDisconnect):
            return  # the phone went away
        except (RuntimeError, OSError):
            # Closed under us: uvicorn's own pings went unanswered (it closes, then
            # waits for the phone to read everything first): cut it.
            self.let_go(Close.NOT_READING)


class SyncHub:
    """The process's sync sockets around its one `SyncService`."""

    def __init__(self, open_service: Callable[[], SyncService],
                 tell_pages: Callable[[str], None] = lambda _game_id: None,
                 limits: SocketLimits | None = None) -> None:
        self._open_service = open_service
        self.tell_pages = tell_pages
        """Told of each game a phone changed here: the drawn pages and boards showing it."""
        self.limits = limits or LIMITS
        self._service: SyncService | None = None
        self._opening = threading.Lock()
        self._workers: Workers | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.peers: dict[Connection, Peer] = {}
        self._open: dict[str, int] = {}
        self._telling: set[str] = set()
        """Games whose change (made elsewhere) waits to be told to their watchers."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.stopping = False

    # -- the service, opened on the first connection -----------------------------------------

    @property
    def service(self) -> SyncService:
        with self._opening:
            if self._service is None:
                self._service = self._open_service()
            return self._service

    @property
    def workers(self) -> Workers:
        if self._workers is None:
            self._workers = Workers(self.limits.workers)
        return self._workers

    def open_count(self, address: str | None = None) -> int:
        return self._open.get(address, 0) if address else sum(self._open.values())

    # -- one connection ----------------------------------------------------------------------

    async def serve(self, ws: WebSocket) -> None:
        """The endpoint: one phone's connection, from accept to close."""
        self.loop = asyncio.get_running_loop()
        address = ws.client.host if ws.client is not None else "unknown"
        await ws.accept()
        if self.stopping or not self._admit(address):
            code = Close.RESTART if self.stopping else Close.TRY_LATER
            with contextlib.suppress(ClientDisconnected, WebSocketDisconnect, RuntimeError,
                                     OSError):
                await ws.close(int(code), WORDS[code])
            return
        try:
            service = await self.workers.run(lambda: self.service)
            conn = service.connect(address)
            peer = Peer(ws, conn, self.limits)
            self.peers[conn] = peer
            sender = asyncio.create_task(peer.send_loop())
            try:
                await self._read(peer, service)
            finally:
                self.peers.pop(conn, None)
                service.disconnect(conn)
                if peer.closing is None:
                    sender.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sender
        finally:
            self._release(address)

    async def _read(self, peer: Peer, service: SyncService) -> None:
        limits = self.limits
        conn = peer.conn
        tokens, refilled = limits.burst, time.monotonic()
        while peer.closing is None:
            # A phone whose answers wait unread sends nothing more that is read: the
            # sender lets it go if it does not read within `stalled_send_s`.
            await peer.room.wait()
            if peer.closing is not None:
                return
            wait = limits.idle_s if conn.greeted else limits.hello_within_s
            try:
                async with asyncio.timeout(wait):
                    event = await peer.ws.receive()
            except TimeoutError:
                peer.close(*_close(Close.IDLE if conn.greeted else Close.NO_HELLO))
                return
            except (ClientDisconnected, WebSocketDisconnect, RuntimeError, OSError):
                return
            if event["type"] == "websocket.disconnect":
                return
            raw = event.get("text")
            if raw is None:
                raw = event.get("bytes")
            if raw is None:
                continue
            now = time.monotonic()
            tokens = min(limits.burst, tokens + (now - refilled) * limits.per_second)
            refilled = now
            if tokens < 1:  # the brake: its next frames wait in its socket meanwhile
                await asyncio.sleep((1 - tokens) / limits.per_second)
                tokens = 1.0
            tokens -= 1
            outcome, replies, states = await self.workers.run(_handle, service, conn, raw)
            for text in replies:
                peer.put(text, own=True)
            for other, text in states:  # after the replies: the saving phone too
                target = self.peers.get(other)
                if target is not None:
                    target.put(text, own=target is peer)
            for game_id in outcome.changed:
                self._tell_pages(game_id)
            if outcome.close:
                peer.close(*_closing(outcome))
                return

    # -- telling watchers --------------------------------------------------------------------

    async def _tell(self, service: SyncService, game_id: str) -> None:
        """Every watcher of `game_id` gets its state (read and encoded on a worker)."""
        for conn, text in await self.workers.run(_states, service, game_id):
            peer = self.peers.get(conn)
            if peer is not None:
                peer.put(text)

    def _tell_pages(self, game_id: str) -> None:
        try:
            self.tell_pages(game_id)
        except Exception:  # the drawn pages' trouble is not this phone's
            logger.exception("sync: telling the pages of game %s failed", game_id)

    def changed(self, game_id: str) -> None:
        """A game changed elsewhere in this process (a drawn page, Play again, a delete)
        or in another (the community's feed): tell its watchers. Any thread."""
        service, loop = self._service, self.loop
        if service is None or loop is None or self.stopping or not service.watchers(game_id):
            return
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server stopped
            loop.call_soon_threadsafe(self._changed_here, game_id)

    def changed_all(self) -> None:
        """Changes may have been missed (the feed was cut off): tell every watched game."""
        if self._service is not None:
            for game_id in self._service.watched_games():
                self.changed(game_id)

    def _changed_here(self, game_id: str) -> None:
        if game_id in self._telling or self._service is None:
            return  # already on its way: that telling reads the game after this change
        self._telling.add(game_id)
        task = asyncio.get_running_loop().create_task(self._tell_later(self._service, game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tell_later(self, service: SyncService, game_id: str) -> None:
        self._telling.discard(game_id)
        try:
            await self._tell(service, game_id)
        except Exception:
            logger.exception("sync: telling the watchers of game %s failed", game_id)

    # -- bounds and stop ---------------------------------------------------------------------

    def _admit(self, address: str) -> bool:
        if (self._open.get(address, 0) >= self.limits.per_address
                or sum(self._open.values()) >= self.limits.total):
            logger.warning("sync: refused a connection from %s (too many open)", address)
            return False
        self._open[address] = self._open.get(address, 0) + 1
        return True

    def _release(self, address: str) -> None:
        left = self._open.get(address, 0) - 1
        if left > 0:
            self._open[address] = left
        else:
            self._open.pop(address, None)

    async def stop(self, grace_s: float = 1.0) -> None:
        """The server stops: every phone is told so (1012) and its socket closed; the
        workers end (daemon threads: one stuck on the store does not hold the exit)."""
        self.stopping = True
        for peer in list(self.peers.values()):
            peer.close(*_close(Close.RESTART))
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(grace_s):
                while self.peers:  # each leaves as its close is sent (or its phone goes)
                    await asyncio.sleep(0.02)
        for peer in list(self.peers.values()):
            peer.let_go(Close.RESTART)
        if self._workers is not None:
            self._workers.stop()


def _handle(service: SyncService, conn: Connection, raw: str | bytes,
            ) -> tuple[Outcome, list[str], list[tuple[Connection, str]]]:
    """One message, on a worker thread: its outcome, its replies encoded, and what each
    watcher of the games it changed is sent now (one hop off the event loop, not two)."""
    outcome = service.receive(conn, raw)
    states = [told for game_id in outcome.changed for told in _states(service, game_id)]
    return outcome, [encode(reply) for reply in outcome.replies], states


def _states(service: SyncService, game_id: str) -> list[tuple[Connection, str]]:
    """What each watcher of `game_id` is sent now, encoded (on a worker thread)."""
    return [(conn, encode(message)) for conn, message in service.game_changed(game_id)]


def _reason(words: str) -> str:
    """`words` cut to what a close frame may carry (123 bytes of UTF-8)."""
    data = words.encode("utf-8")
    return words if len(data) <= 123 else data[:123].decode("utf-8", "ignore")


def _close(code: Close) -> tuple[int, str]:
    return int(code), WORDS[code]


def _closing(outcome: Outcome) -> tuple[int, str]:
    """The close code and reason of an outcome that ends its connection."""
    for reply in outcome.replies:
        if isinstance(reply, Update):
            return _close(Close.UPDATE)
        if isinstance(reply, Error) and reply.fatal:
            return int(Close.FATAL), _reason(reply.words)
    return int(Close.NORMAL), ""
