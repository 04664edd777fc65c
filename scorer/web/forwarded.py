"""What a trusted proxy says of a request: the phone's address, and the address the
phone opened.

`ForwardedHeaders` takes the place of uvicorn's own proxy-headers middleware (which it
runs): from a connection whose peer is a trusted proxy (`--trusted-proxy`), and from
no one else, it believes

- `X-Forwarded-For` (the phone's address, read right to left past trusted hops) and
  `X-Forwarded-Proto` (http or https), as uvicorn does;
- `X-Forwarded-Host`: the host the phone opened, when the proxy sends one that is a
  plain `host[:port]` (its last value: the one our proxy set). It becomes the
  request's Host, so the page's own address (a Flet session's page URL, a request's
  `base_url`) is the one phones open. Caddy keeps the Host as it came and sets this
  header too; a proxy that rewrites Host sets it.

It marks such a request (`came_via_proxy`, and for page code the `via_proxy` of the
running connection): `scorer.sharing.Reach.bases` then takes its address as the one
to give out. From anyone else these headers change nothing.
"""

from __future__ import annotations

import contextvars
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from scorer.sharing import Reach, is_host
from scorer.web.connections import Network

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]

VIA_PROXY = "tarabish.via_proxy"
"""Scope key: True on a request whose peer is a trusted proxy."""

_VIA: contextvars.ContextVar[bool] = contextvars.ContextVar("tarabish_via_proxy",
                                                            default=False)


def via_proxy() -> bool:
    """Whether the running page's connection came through a trusted proxy (read it
    where the page starts: its code runs inside the connection's context)."""
    return _VIA.get()


def came_via_proxy(scope: Scope) -> bool:
    return bool(scope.get(VIA_PROXY))


def forwarded_host(headers: list[tuple[bytes, bytes]]) -> bytes | None:
    """The last X-Forwarded-Host value, if it is a plain host[:port]."""
    found = None
    for name, value in headers:
        if name == b"x-forwarded-host":
            found = value
    if found is None:
        return None
    last = found.split(b",")[-1].strip()
    try:
        text = last.decode("ascii")
    except UnicodeDecodeError:
        return None
    return last if is_host(text) else None


class ForwardedHeaders:
    """ASGI middleware: a trusted proxy's forwarded headers believed, no one else's."""

    def __init__(self, app: ASGIApp, trusted: tuple[Network, ...] = ()) -> None:
        self.app = app
        self.proxy = (ProxyHeadersMiddleware(app, trusted_hosts=[str(n) for n in trusted])  # type: ignore[arg-type]
                      if trusted else None)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if self.proxy is None or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        if not (client and client[0] in self.proxy.trusted_hosts):
            await self.app(scope, receive, send)
            return
        scope[VIA_PROXY] = True
        host = forwarded_host(scope["headers"])
        if host is not None:
            scope["headers"] = [(k, v) for k, v in scope["headers"] if k != b"host"]
            scope["headers"].append((b"host", host))
        token = _VIA.set(True)
        try:
            await self.proxy(scope, receive, send)  # type: ignore[arg-type]
        finally:
            _VIA.reset(token)


def request_bases(reach: Reach, scope: Scope, base_url: str) -> list[str]:
    """`Reach.bases` for an HTTP request (its `base_url`, after the proxy's headers)."""
    return reach.bases(base_url, came_via_proxy(scope))
