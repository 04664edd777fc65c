"""Bounds on connections, below HTTP: a header timeout and per-address caps.

uvicorn arms no timer until a request has been answered, so a connection that
opens and sends half a request (or nothing) is held forever: 12,000 of them
from rotating addresses were all kept. Here every connection:

- must finish its request headers within `header_timeout_s` (each request on a
  kept-alive connection too), or is closed;
- counts against its address (`per_address`) and the process (`total`): one
  past either is closed at once, before a byte is read.

The per-address cap is on the socket's address: behind a proxy every connection
comes from the proxy, so trusted proxies (`--trusted-proxy`) and this machine's
own loopback address are not capped per address (the proxy has its own bounds;
the page caps of `scorer.web.sessions` then count the forwarded address).

A connection upgraded to a websocket changes protocol objects; it is counted by
its transport, so it is let go once, when it really closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

logger = logging.getLogger(__name__)

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

LET_GO = "tarabish.let_go"
"""The websocket scope's extension (a callable `(code, reason)`) that ends a connection
whose peer does not read, without waiting for it to read (`scorer.web.sync_socket`)."""
LET_GO_GRACE_S = 2.0


@dataclass(frozen=True)
class ConnectionLimits:
    """The bounds; the defaults suit a laptop at a table (a dozen phones, each with
    six page requests at once and a websocket) and a community process (hundreds of
    phones behind a proxy)."""

    header_timeout_s: float = 10.0
    per_address: int = 64
    total: int = 4096


def limits_for_this_machine() -> ConnectionLimits:
    """The default limits, with `total` as high as the process's open-file limit
    allows (raised to its hard limit first; 512 files kept for everything else): a
    flood from many addresses then meets the header timeout long before the total,
    and phones are still let in meanwhile."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to read
        return ConnectionLimits()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 65_536 if hard == resource.RLIM_INFINITY else min(hard, 65_536)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    files = 65_536 if soft == resource.RLIM_INFINITY else soft
    return ConnectionLimits(total=max(256, min(files - 512, 32_768)))


def parse_networks(values: list[str] | tuple[str, ...]) -> tuple[Network, ...]:
    """IPs or CIDRs (`10.0.0.5`, `172.30.0.0/24`); ValueError naming a bad one."""
    found: list[Network] = []
    for value in values:
        for part in value.split(","):
            part = part.strip()
            if not part:
                continue
            try:
                found.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                raise ValueError(f"--trusted-proxy takes addresses such as 127.0.0.1 or "
                                 f"172.30.0.0/24, not {part!r}") from None
    return tuple(found)


@dataclass
class ConnectionGuard:
    """Open connections per address and in all; thread-safe enough for one event loop
    (every call comes from the server's loop)."""

    limits: ConnectionLimits = field(default_factory=ConnectionLimits)
    exempt: tuple[Network, ...] = ()
    by_address: dict[str, int] = field(default_factory=dict)
    open: dict[int, str] = field(default_factory=dict)
    refused: int = 0
    timed_out: int = 0
    _said: float = 0.0

    def opened(self, transport: Any) -> bool:
        """Count a new connection; False (the caller closes it) past a cap."""
        key = id(transport)
        if key in self.open:
            return True
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "unknown"
        capped = not self._exempt(address)
        if len(self.open) >= self.limits.total or (
                capped and self.by_address.get(address, 0) >= self.limits.per_address):
            self.refused += 1
            self._say(address)
            return False
        self.open[key] = address
        self.by_address[address] = self.by_address.get(address, 0) + 1
        return True

    def closed(self, transport: Any) -> None:
        address = self.open.pop(id(transport), None)
        if address is None:
            return
        left = self.by_address.get(address, 1) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)

    def _exempt(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        if ip in (ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1")):
            return True
        return any(ip in net for net in self.exempt)

    def _say(self, address: str) -> None:
        now = time.monotonic()
        if now - self._said > 60:  # once a minute at most: a flood must not fill the log
            self._said = now
            logger.warning("refusing connections past the caps (last from %s; %d so far)",
                           address, self.refused)


WS_READ_BYTES = 4096
"""Bytes read from a page's socket at a time (asyncio reads 256 KiB). uvicorn parses,
inflates and queues every frame of a read at once, and stops reading only then: one
read of a flooder's socket was 25,000 tiny frames and a second of the loop's time, for
each flooding page. A page's frames are a few hundred bytes; a game file picked on the
phone comes in many reads, each its own turn of the loop."""
POLICY_CLOSE = 1008
"""The close code of a page refused (too many pages) or closed for a flood."""
LINGER_S = 5.0
"""After a page's close for a flood (or a refusal), how long what it still sends is
read and dropped so that its close frame is not lost to a reset (see `_linger`)."""
LINGER_BYTES = 16 * 1024 * 1024
"""And how many of its bytes at most; past either bound the connection is cut."""
LINGER_READ_BYTES = 256 * 1024


def guarded_protocols(guard: ConnectionGuard, light: tuple[str, ...] = (),
                      ) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP and websocket protocols, bound to `guard` (for Config's
    `http=` and `ws=`). Websockets at the `light` paths compress each message on its
    own (no context takeover): many open at once, each mostly quiet."""

    class GuardedHttp(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not guard.opened(transport):
                transport.abort()
                return
            self._arm()

        def on_message_begin(self) -> None:
            self._arm()
            super().on_message_begin()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            guard.closed(self.transport)
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(guard.limits.header_timeout_s,
                                                          self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                guard.timed_out += 1
                self.transport.abort()

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if hasattr(transport, "max_size"):  # asyncio's socket transport (not uvloop's)
                transport.max_size = WS_READ_BYTES

        _lingering = False
        _discarded = 0

        async def send(self, message: Any) -> None:
            await super().send(message)
            if message["type"] == "websocket.close" and message.get("code") == POLICY_CLOSE:
                # A page refused or closed for its flood: nothing it sends after is
                # parsed (uvicorn would parse and drop frames for 10 s awaiting its
                # goodbye, a second of the loop's time for every MB the flooder had
                # queued), and the close frame reaches it (see `_linger`).
                self._linger()

        def _linger(self) -> None:
            """Send the close frame, then our end (FIN), and discard unread what the
            peer still sends until it ends too, for `LINGER_S` at most.

            Closing the socket at once would reset it: a socket closed with unread
            bytes (a flooder's, held back) sends a reset, not a FIN, and a peer whose
            send fails on that reset may drop the close frame it had not read yet
            (the websockets client does: it saw code 1006, not 1008 and the reason).
            The bytes are dropped as they come, never parsed into frames."""
            if self.transport.is_closing() or self._lingering:
                return
            self._lingering = True
            if hasattr(self.transport, "max_size"):  # dropped unread: big reads are cheap
                self.transport.max_size = LINGER_READ_BYTES
            self.read_paused = False
            self.transport.resume_reading()  # paused while its frames were held back
            if self.transport.can_write_eof():
                self.transport.write_eof()  # once the close frame is out
            self.loop.call_later(LINGER_S, self._cut)

        def data_received(self, data: bytes) -> None:
            if not self._lingering:
                super().data_received(data)
                return
            self._discarded += len(data)
            if self._discarded > LINGER_BYTES:
                self._cut()

        def eof_received(self) -> None:
            if self._lingering:  # the peer ended too: both ends are done
                self.transport.close()
                return
            super().eof_received()

        def connection_lost(self, exc: Exception | None) -> None:
            guard.closed(self.transport)
            super().connection_lost(exc)

        def handle_connect(self, event: Any) -> None:
            if self.config.ws_per_message_deflate and event.path.partition("?")[0] in light:
                # Compressed, but no compressor kept between messages: its ~40 KB a
                # socket is not held for each of thousands of quiet phones.
                self.conn.available_extensions = [ServerPerMessageDeflateFactory(
                    server_max_window_bits=12, client_max_window_bits=12,
                    server_no_context_takeover=True, client_no_context_takeover=True,
                    compress_settings={"memLevel": 5})]
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:  # the app may let go of a peer that does not read
                scope.setdefault("extensions", {})[LET_GO] = self.let_go

        def let_go(self, code: int, reason: str) -> None:
            """End a connection whose peer does not read: a close frame is queued
            behind what it did not read, and the socket is cut soon after (asyncio's
            `close` would wait for that peer to read everything first)."""
            if self.transport.is_closing():
                return
            if not self.close_sent:
                with contextlib.suppress(Exception):
                    self.conn.send_close(code, reason)
                    self.transport.write(b"".join(self.conn.data_to_send()))
                self.close_sent = True
            self.loop.call_later(LET_GO_GRACE_S, self._cut)

        def _cut(self) -> None:
            if not self.disconnected:  # gone meanwhile: nothing left to cut
                self.transport.abort()

    return GuardedHttp, GuardedWebSocket
