"""The browser's WebSocket for the sync carrier (`scorer.browser.carrier`), through
pyodide.ffi, and the page's online/offline events (hints only: `scorer.browser.link`).

Flet runs the app's Python in a web worker: WebSocket is there too (the worker's
global scope). Chromium fires online/offline at the page only: boot.js passes them on
and worker.js fires them again on the worker's scope, where these listeners hear them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from scorer.browser.carrier import SocketEvents

logger = logging.getLogger(__name__)

SYNC_PATH = "/_tarabish/sync"
"""Where a table server speaks the sync protocol (docs/SYNC.md)."""


def sync_url(origin: str) -> str:
    """The sync socket's address on the server at `origin` (http -> ws, https -> wss)."""
    origin = origin.rstrip("/")
    if origin.startswith("https://"):
        return "wss://" + origin[len("https://"):] + SYNC_PATH
    if origin.startswith("http://"):
        return "ws://" + origin[len("http://"):] + SYNC_PATH
    raise ValueError(f"not a web address: {origin!r}")


class BrowserSocket:
    """One WebSocket; its events go to `events` until it is closed."""

    def __init__(self, url: str, events: SocketEvents) -> None:
        import js
        from pyodide.ffi import create_proxy

        self._ws: Any = js.WebSocket.new(url)
        self._closed = False

        def on_close(_event: Any) -> None:
            if not self._closed:
                self._closed = True
                events.closed()
            # Not from inside the handler being released.
            asyncio.get_event_loop().call_soon(self._release)

        def on_message(event: Any) -> None:
            data = event.data
            if isinstance(data, str):
                events.received(data)

        self._proxies = {
            "open": create_proxy(lambda _e: events.opened()),
            "message": create_proxy(on_message),
            "close": create_proxy(on_close),
        }
        for name, proxy in self._proxies.items():
            self._ws.addEventListener(name, proxy)

    def send(self, text: str) -> None:
        if self._ws.readyState == 1:  # OPEN
            self._ws.send(text)

    def close(self) -> None:
        self._closed = True
        try:
            self._ws.close()
        finally:
            self._release()

    def _release(self) -> None:
        proxies, self._proxies = self._proxies, {}
        for name, proxy in proxies.items():
            try:
                self._ws.removeEventListener(name, proxy)
            finally:
                proxy.destroy()


def open_browser_socket(url: str, events: SocketEvents) -> BrowserSocket:
    return BrowserSocket(url, events)


def page_origin() -> str:
    """The origin this app was served from."""
    import js

    return str(js.location.origin)


def on_network_hints(online: Callable[[], None], offline: Callable[[], None]) -> None:
    """Call `online`/`offline` on the page's events of the same names (for good)."""
    import js
    from pyodide.ffi import create_proxy

    js.addEventListener("online", create_proxy(lambda _e: online()))
    js.addEventListener("offline", create_proxy(lambda _e: offline()))
