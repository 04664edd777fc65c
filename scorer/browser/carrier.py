"""The link's actions done on a real socket, on the page's asyncio loop (Pyodide's in the
browser, a plain one in the tests): `Carrier` opens sockets through a factory (the
browser's WebSocket: `scorer.browser.websocket`), hands the link what happens, and wakes
it when its time comes. A socket it gave up is never heard again (its late events are
dropped), so an old connection cannot close a new one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Protocol

from scorer.browser.app_update import check_for_update
from scorer.browser.link import FIRST_DELAY_S, UPDATE, Action, Close, Connect, Link, Send

logger = logging.getLogger(__name__)


class Socket(Protocol):
    def send(self, text: str) -> None: ...

    def close(self) -> None: ...


class SocketEvents(Protocol):
    def opened(self) -> None: ...

    def received(self, text: str) -> None: ...

    def closed(self) -> None: ...


OpenSocket = Callable[[str, SocketEvents], Socket]
"""Open a socket to the address; its events go to the given object."""


class _Events:
    """One socket's events, for the carrier while the socket is its own."""

    def __init__(self, carrier: Carrier, generation: int) -> None:
        self.carrier = carrier
        self.generation = generation

    def _mine(self) -> bool:
        return self.generation == self.carrier.generation

    def opened(self) -> None:
        if self._mine():
            self.carrier.do(self.carrier.link.opened(self.carrier.clock()))

    def received(self, text: str) -> None:
        if self._mine():
            self.carrier.do(self.carrier.link.received(text, self.carrier.clock()))

    def closed(self) -> None:
        if self._mine():
            self.carrier.socket = None
            self.carrier.do(self.carrier.link.closed(self.carrier.clock()))


class Carrier:
    """Drives a `Link` over sockets to `url` (see the module docstring)."""

    def __init__(self, link: Link, url: str, open_socket: OpenSocket, *,
                 clock: Callable[[], float] = time.monotonic,
                 changed: Callable[[], None] = lambda: None) -> None:
        self.link = link
        self.url = url
        self.open_socket = open_socket
        self.clock = clock
        self.changed = changed
        """Told when the link's stage may have changed (the sheet's line)."""
        self.socket: Socket | None = None
        self.generation = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stage = link.stage

    def start(self) -> None:
        """Connect and keep the link going (on the running loop)."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._run())
        self.do(self.link.start(self.clock()))

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self._drop_socket()

    def poke(self) -> None:
        """Something waits to be sent."""
        self.do(self.link.poke(self.clock()))

    def online(self) -> None:
        self.do(self.link.online(self.clock()))

    def offline(self) -> None:
        self.do(self.link.offline(self.clock()))

    def do(self, actions: list[Action]) -> None:
        for action in actions:
            if isinstance(action, Connect):
                self._drop_socket()
                self.generation += 1
                try:
                    self.socket = self.open_socket(self.url, _Events(self, self.generation))
                except Exception:  # the browser refused to even try (a bad address)
                    logger.warning("could not open the sync socket", exc_info=True)
                    self.do(self.link.closed(self.clock()))
            elif isinstance(action, Send):
                if self.socket is not None:
                    try:
                        self.socket.send(action.text)
                    except Exception:  # closing under us: its close event follows
                        logger.info("a sync message was not sent", exc_info=True)
            elif isinstance(action, Close):
                logger.info("sync connection closed: %s", action.reason)
                self._drop_socket()
                if action.reason == UPDATE:
                    # The server judges with newer rules: the page takes the host's
                    # version at a calm moment (its service worker), not at a reload.
                    check_for_update()
        self._wake.set()
        if self.link.stage != self._stage or actions:
            self._stage = self.link.stage
            try:
                self.changed()
            except Exception:  # a screen that failed to redraw must not stop the link
                logger.exception("the sync line could not be redrawn")

    def _drop_socket(self) -> None:
        socket, self.socket = self.socket, None
        self.generation += 1  # its late events are not ours any more
        if socket is not None:
            try:
                socket.close()
            except Exception:
                logger.debug("closing a sync socket failed", exc_info=True)

    async def _run(self) -> None:
        # The link's clock: were this task to end, a phone whose connection dropped would
        # try again only on the page's next online event (a hint, which a flaky network
        # may never give), so a failed turn is logged and the next one comes after a pause.
        while True:
            try:
                await self._turn()
            except Exception:
                logger.exception("a turn of the sync link failed")
                await asyncio.sleep(FIRST_DELAY_S)

    async def _turn(self) -> None:
        while True:
            self._wake.clear()
            wake = self.link.next_wake()
            timeout = None if wake is None else max(0.0, wake - self.clock())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)
            wake = self.link.next_wake()
            if wake is not None and self.clock() >= wake:
                self.do(self.link.tick(self.clock()))
