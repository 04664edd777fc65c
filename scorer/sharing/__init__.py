"""Addresses of the table server and QR codes of them (segno, pure Python).

`Reach.bases` is the one rule for every address the server prints or draws (Share
and its QR code, the club night's table cards, Send's answer, the lines at start,
`tarabish import` on a community): the operator's `--public-url` if given; else, for
a request that came through a trusted proxy, the host and scheme the proxy forwarded;
else the laptop's own addresses on the local network.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})
_HOST = re.compile(r"^(?:[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.?"
                   r"|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$")
"""A host name or IP with an optional port, as a Host header or a forwarded host may
name it: nothing that could carry a path, a user or markup into an address."""
_SCHEMES = {"http": "http", "https": "https", "ws": "http", "wss": "https"}


def is_local(url: str) -> bool:
    """Whether the address only works on this machine."""
    host = urlsplit(url).hostname or ""
    return host in LOCAL_NAMES or host.startswith("127.")


def is_host(netloc: str) -> bool:
    """Whether `netloc` is a plain `host[:port]` (see `_HOST`), at most 260 characters."""
    return len(netloc) <= 260 and _HOST.match(netloc) is not None


def origin(url: str | None) -> str | None:
    """`http://host:port/` of a page address, or None. A page's websocket address
    (`ws://`, `wss://`: what a Flet session calls its page's URL) gives its page's."""
    if not url:
        return None
    parts = urlsplit(url)
    scheme = _SCHEMES.get(parts.scheme.lower())
    if scheme is None or not is_host(parts.netloc):
        return None
    return f"{scheme}://{parts.netloc.lower()}/"


def public_origin(text: str) -> str:
    """The operator's `--public-url` as an origin (`https://bish.example.org/`);
    ValueError in words for anything else."""
    parts = urlsplit(text.strip())
    found = origin(text.strip())
    if (found is None or parts.path not in ("", "/") or parts.query or parts.fragment
            or "@" in parts.netloc):
        raise ValueError(f"--public-url takes the address phones open, such as "
                         f"https://bish.example.org, not {text!r}")
    return found


def share_bases(server_urls: Sequence[str], page_url: str | None) -> list[str]:
    """Base addresses other phones can use, best first.

    The server's LAN addresses come first (a phone that opened the page as
    `localhost` on the host machine must not hand out `localhost`); the page's
    own address is next when it is not local (e.g. a name the router gave the
    host); a local-only address is the last resort (server on 127.0.0.1).
    """
    bases: list[str] = []

    def add(url: str | None) -> None:
        base = origin(url)
        if base and base not in bases:
            bases.append(base)

    for url in server_urls:
        if not is_local(url):
            add(url)
    if page_url and not is_local(page_url):
        add(page_url)
    if not bases:
        add(page_url)
        for url in server_urls:
            add(url)
    return bases


PUBLIC_URL_ENV = "TARABISH_PUBLIC_URL"


def public_url_of(given: str | None) -> str | None:
    """`--public-url`, else $TARABISH_PUBLIC_URL, as an origin; None if neither is set.
    ValueError in words for a bad one."""
    import os

    text = given if given is not None else os.environ.get(PUBLIC_URL_ENV, "")
    return public_origin(text) if text.strip() else None


@dataclass(frozen=True)
class Reach:
    """How phones reach this server, as known at its start (`CONFIG.reach`)."""

    public_url: str | None = None
    """The operator's `--public-url`, as an origin: every address is on it."""
    listening: tuple[str, ...] = ()
    """The addresses the server answers on (`scorer.server.page_urls`)."""
    behind_proxy: bool = False
    """`--trusted-proxy` was given: phones come through a proxy, and the address they
    opened is the forwarded one, known per request."""

    def bases(self, seen: str | None = None, via_proxy: bool = False) -> list[str]:
        """Base addresses other phones can use, best first: the rule.

        `seen`: the address a request or page came to (after a trusted proxy's
        forwarded host and scheme); `via_proxy`: it came through a trusted proxy,
        so that address is the one phones open. Anything else a client says of its
        own address (a Host header) only ever follows the server's own addresses.
        """
        if self.public_url is not None:
            return [self.public_url]
        forwarded = origin(seen) if via_proxy else None
        if forwarded is not None:
            return [forwarded]
        return share_bases(self.listening, seen)

    def only_here(self, url: str) -> bool:
        """Whether to tell the host that no phone can open `url` and how to fix it: a
        laptop listening on this machine only, never a server behind a proxy or with a
        public address (its advice, listen on every interface, would bypass the proxy)."""
        return is_local(url) and self.public_url is None and not self.behind_proxy

    @property
    def public(self) -> bool:
        """Phones reach this server from anywhere (not one Wi-Fi)."""
        return self.public_url is not None or self.behind_proxy


def game_url(base: str, game_id: str) -> str:
    return f"{base.rstrip('/')}/game/{game_id}"


def qr_png(text: str, scale: int = 8) -> bytes:
    """A QR code of `text` as PNG bytes: black on white with the standard quiet
    zone, so it scans on a dark screen too."""
    buf = io.BytesIO()
    import segno  # imported when a code is drawn: not on a phone alone's start path

    segno.make(text, error="m", micro=False).save(buf, kind="png", scale=scale, border=4,
                                                   dark="#000000", light="#ffffff")
    return buf.getvalue()


def qr_svg(text: str) -> str:
    """A QR code of `text` as an inline SVG element (sharp at any print size), black on
    white with the standard quiet zone."""
    import segno

    return str(segno.make(text, error="m", micro=False).svg_inline(
        scale=4, border=4, dark="#000000", light="#ffffff", omitsize=True))


def qr_text(text: str) -> str:
    """A QR code of `text` for a terminal (half blocks, two rows per line)."""
    buf = io.StringIO()
    import segno

    segno.make(text, error="m", micro=False).terminal(out=buf, compact=True, border=2)
    return buf.getvalue()
