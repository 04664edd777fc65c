"""Addresses of the table server and QR codes of them (segno, pure Python)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from urllib.parse import urlsplit

LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def is_local(url: str) -> bool:
    """Whether the address only works on this machine."""
    host = urlsplit(url).hostname or ""
    return host in LOCAL_NAMES or host.startswith("127.")


def origin(url: str | None) -> str | None:
    """`http://host:port/` of a page address, or None."""
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}/"


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
