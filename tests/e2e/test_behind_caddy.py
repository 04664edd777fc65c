"""A community on the internet (issue 32 §3): the app behind the shipped Caddy
configuration, over HTTPS (Caddy's internal CA here; a real domain's certificate in
production), websockets included. The proxy's X-Forwarded-For names the phone, and a
header the phone forges does not; page files are compressed once, not twice."""

from __future__ import annotations

import gzip
import json
import re
import socket
import ssl
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fits import assert_fits
from playwright.sync_api import BrowserContext, Page, expect
from table_steps import LARGE, SMALL, Phone, record_counted_hand, resize, totals
from test_sharing import PLAYERS, close_dialog, open_share, start_game

from tests.caddy_proxy import caddy_in_front
from tests.echo_server import serving


def https_get(port: int, path: str, source: str = "127.0.0.1",
              headers: str = "") -> tuple[dict[str, str], bytes]:
    """One request over TLS from `source`, trusting any certificate (Caddy's own CA)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    raw = socket.socket()
    raw.settimeout(10)
    raw.bind((source, 0))
    raw.connect(("127.0.0.1", port))
    with context.wrap_socket(raw, server_hostname="127.0.0.1") as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
                  f"{headers}\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    fields = {}
    for line in head.decode("latin1").split("\r\n")[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    if fields.get("transfer-encoding") == "chunked":
        body = _unchunk(body)
    return fields, body


def _unchunk(body: bytes) -> bytes:
    out = b""
    while body:
        size_line, _, rest = body.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, body = out + rest[:size], rest[size + 2:]
    return out


def test_the_app_believes_the_proxy_not_a_forged_header(tmp_path: Path) -> None:
    with serving(trusted=("127.0.0.1",)) as (app_port, _), \
            caddy_in_front([f"127.0.0.1:{app_port}"], tmp_path / "caddy") as proxy:
        _, body = https_get(proxy.https_port, "/", source="127.0.0.9",
                            headers="X-Forwarded-For: 203.0.113.9\r\n")
        assert json.loads(body) == {"client": "127.0.0.9", "scheme": "https"}
        # The host the phone opened, as Caddy forwards it; a forged one is replaced.
        _, body = https_get(proxy.https_port, "/where", source="127.0.0.9",
                            headers="X-Forwarded-Host: evil.example\r\n")
        assert json.loads(body) == {"client": "127.0.0.9", "scheme": "https",
                                    "host": f"127.0.0.1:{proxy.https_port}",
                                    "via_proxy": True}


def test_a_phone_plays_over_https_through_the_proxy_and_share_gives_the_address_it_opened(
    tmp_path: Path, start_server: Callable[..., Any],
    new_context: Callable[..., BrowserContext], open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path],
) -> None:
    """Page files are compressed once; a phone starts a game and records a hand through
    the proxy. Share gives the address the phone opened: it showed the process's own
    http://localhost:PORT, its QR code, and in red the laptop's advice to listen on every
    interface (which would bypass the proxy). (One walk: each was a test with a server,
    a proxy and a phone of its own.)"""
    app = start_server(args=("--host", "127.0.0.1", "--trusted-proxy", "127.0.0.1"))
    with caddy_in_front([f"127.0.0.1:{app.port}"], tmp_path / "caddy") as proxy:
        # Compressed once: by the app, which Caddy passes on as it is.
        fields, body = https_get(proxy.https_port, "/main.dart.js",
                                 headers="Accept-Encoding: gzip\r\n")
        assert fields.get("content-encoding") == "gzip"
        script = gzip.decompress(body)
        assert script[:2] != b"\x1f\x8b" and len(script) > 100_000

        page = new_context(ignore_https_errors=True).new_page()
        game = start_game(page, proxy.url, open_app)
        address = f"{proxy.url}game/{game}"
        shown = Phone(page)
        for width, height in (LARGE, SMALL):
            # The same phone (its code) turned to that size: the server draws Share for
            # the size it is opened at.
            resize(shown, (width, height))
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                open_share(page)
                expect(page.get_by_text(address, exact=True)).to_be_visible()
                expect(page.get_by_label(f"QR code of {address}")).to_be_attached()
                expect(page.get_by_text("Scan it with a phone to follow the score.")
                       ).to_be_visible()
                expect(page.get_by_text(re.compile("only listens on this machine")),
                       "no advice to listen on every interface behind the proxy"
                       ).to_have_count(0)
                screenshot(page, f"share-behind-proxy-{width}x{height}-{scheme}")
                assert_fits(page, [re.compile(r"^Table code \d{6}$"), address,
                                   "Scan it with a phone to follow the score."],
                            floating=["Close"])
                close_dialog(page)
        resize(shown, LARGE)
        page.emulate_media(color_scheme="light")

        record_counted_hand(page, PLAYERS[1], "Hearts", "92")
        assert totals(page) != ("0", "0")
        expect(page.get_by_text("Lost the table server.")).not_to_be_visible()
        screenshot(page, "behind-caddy-sheet")
        assert page.url.startswith(proxy.url)
