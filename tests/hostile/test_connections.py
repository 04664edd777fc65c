"""Below HTTP: a connection must finish its headers in time, an address may hold
only so many, and X-Forwarded-For is believed only from a trusted proxy. Runs the
table server's own uvicorn settings (`scorer.server.server_config`) around a tiny
app that answers with the client address it was given."""

from __future__ import annotations

import json
import socket
import time

import pytest

from scorer.web.connections import ConnectionLimits
from tests.echo_server import serving


def connect(port: int, source: str) -> socket.socket:
    s = socket.socket()
    s.settimeout(5)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def ask(port: int, source: str, headers: str = "", path: str = "/",
        host: str = "t") -> dict[str, str]:
    with connect(port, source) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n"
                  f"{headers}\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return json.loads(data.split(b"\r\n\r\n", 1)[1])  # type: ignore[no-any-return]


def closed_by_server(s: socket.socket, within: float) -> bool:
    s.settimeout(within)
    try:
        return s.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_forwarded_addresses_are_believed_only_from_a_trusted_proxy() -> None:
    forged = "X-Forwarded-For: 203.0.113.9\r\nX-Forwarded-Proto: https\r\n"
    with serving(trusted=("127.0.0.3",)) as (port, _):
        assert ask(port, "127.0.0.2", forged) == {"client": "127.0.0.2", "scheme": "http"}
        assert ask(port, "127.0.0.3", forged) == {"client": "203.0.113.9", "scheme": "https"}
        # Right to left, past the trusted hops: what the outermost trusted proxy saw.
        chain = "X-Forwarded-For: 198.51.100.1, 203.0.113.9, 127.0.0.3\r\n"
        assert ask(port, "127.0.0.3", chain)["client"] == "203.0.113.9"
        assert ask(port, "127.0.0.3")["client"] == "127.0.0.3"  # no header: the proxy
    with serving() as (port, _):  # no trusted proxy: the header means nothing
        assert ask(port, "127.0.0.1", forged) == {"client": "127.0.0.1", "scheme": "http"}


def test_the_forwarded_host_is_believed_only_from_a_trusted_proxy() -> None:
    """The address phones opened comes from the proxy's X-Forwarded-Host: a stranger's
    forged one changes nothing, the proxy's becomes the request's Host."""
    forged = ("X-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: https\r\n"
              "X-Forwarded-For: 203.0.113.9\r\n")
    with serving(trusted=("127.0.0.3",)) as (port, _):
        assert ask(port, "127.0.0.2", forged, "/where", "127.0.0.1:8551") == {
            "client": "127.0.0.2", "scheme": "http", "host": "127.0.0.1:8551",
            "via_proxy": False}
        proxied = ("X-Forwarded-Host: bish.example.org\r\nX-Forwarded-Proto: https\r\n"
                   "X-Forwarded-For: 203.0.113.9\r\n")
        assert ask(port, "127.0.0.3", proxied, "/where", "127.0.0.1:8551") == {
            "client": "203.0.113.9", "scheme": "https", "host": "bish.example.org",
            "via_proxy": True}
        # The proxy's own value is the last; one that is no plain host is not used.
        chained = "X-Forwarded-Host: evil.example, bish.example.org\r\n"
        assert ask(port, "127.0.0.3", chained, "/where")["host"] == "bish.example.org"
        for bad in ("bish.example.org/x", "a@b", "x y", "<b>"):
            assert ask(port, "127.0.0.3", f"X-Forwarded-Host: {bad}\r\n", "/where",
                       "bish.example.org")["host"] == "bish.example.org", bad
    with serving() as (port, _):  # no trusted proxy: nothing forwarded is believed
        assert ask(port, "127.0.0.1", forged, "/where", "laptop:8550") == {
            "client": "127.0.0.1", "scheme": "http", "host": "laptop:8550",
            "via_proxy": False}


def test_a_trusted_network_is_given_as_cidr() -> None:
    with serving(trusted=("127.0.4.0/24",)) as (port, _):
        assert ask(port, "127.0.4.77", "X-Forwarded-For: 192.0.2.4\r\n")["client"] == "192.0.2.4"
        assert ask(port, "127.0.5.77", "X-Forwarded-For: 192.0.2.4\r\n")["client"] == "127.0.5.77"


def test_half_a_request_is_cut_off_after_the_header_timeout() -> None:
    with serving(limits=ConnectionLimits(header_timeout_s=1.0)) as (port, guard):
        silent = connect(port, "127.0.0.5")
        half = connect(port, "127.0.0.5")
        half.sendall(b"GET / HTTP/1.1\r\nHost: t\r\nX-Slow: ")
        assert closed_by_server(silent, 4) and closed_by_server(half, 4)
        assert guard.timed_out == 2
        # A whole request in time is answered, and its kept-alive connection too.
        keep = connect(port, "127.0.0.5")
        keep.sendall(b"GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        data = b""
        while b"}" not in data:
            data += keep.recv(65536)
        assert b"127.0.0.5" in data
        keep.sendall(b"GET / HTTP/1.1\r\nHost: t\r\nX-Slow: ")  # a slow second request
        assert closed_by_server(keep, 4)
        silent.close(), half.close(), keep.close()


def test_an_address_holds_only_so_many_and_the_others_are_served() -> None:
    limits = ConnectionLimits(header_timeout_s=30, per_address=5, total=50)
    with serving(limits=limits) as (port, guard):
        held = [connect(port, "127.0.0.6") for _ in range(5)]
        time.sleep(0.2)
        extra = connect(port, "127.0.0.6")
        assert closed_by_server(extra, 2)
        assert ask(port, "127.0.0.7")["client"] == "127.0.0.7"
        # This machine itself (127.0.0.1: the laptop's own browser, a local proxy) is
        # not capped per address.
        mine = [connect(port, "127.0.0.1") for _ in range(8)]
        assert ask(port, "127.0.0.1")["client"] == "127.0.0.1"
        for s in [*held, extra, *mine]:
            s.close()
        time.sleep(0.3)
        assert ask(port, "127.0.0.6")["client"] == "127.0.0.6"  # let go when closed
        assert guard.by_address == {}


def test_the_process_holds_only_so_many_in_all() -> None:
    limits = ConnectionLimits(header_timeout_s=30, per_address=5, total=12)
    with serving(limits=limits) as (port, guard):
        held = [connect(port, f"127.0.8.{n}") for n in range(1, 13)]
        time.sleep(0.2)
        extra = connect(port, "127.0.8.200")
        assert closed_by_server(extra, 2)
        assert guard.refused >= 1
        for s in [*held, extra]:
            s.close()


@pytest.mark.slow
def test_a_flood_of_half_open_connections_from_rotating_addresses_is_let_go() -> None:
    """3,000 connections from 1,500 addresses send half a request and hang: each is
    cut off after the header timeout, and a phone is answered all the while."""
    limits = ConnectionLimits(header_timeout_s=3.0, per_address=2, total=4096)
    with serving(limits=limits) as (port, guard):
        flood: list[socket.socket] = []
        for n in range(3000):
            s = connect(port, f"127.1.{n // 2 // 250}.{n // 2 % 250 + 2}")
            s.sendall(b"GET / HTTP/1.1\r\nHost: t\r\n")
            flood.append(s)
        assert ask(port, "127.0.0.9")["client"] == "127.0.0.9"
        # Held, each until its header timeout (on a busy machine the first are let go
        # before the last are opened): none was refused.
        assert len(guard.open) + guard.timed_out >= 2900
        deadline = time.monotonic() + 15
        while guard.open and time.monotonic() < deadline:
            time.sleep(0.2)
        assert guard.open == {} and guard.timed_out >= 3000
        for s in flood:
            s.close()
