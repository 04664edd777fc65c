"""Addresses phones can use, and the QR codes of them."""

from __future__ import annotations

import pytest

from scorer.server import page_urls, print_qr
from scorer.sharing import game_url, is_local, origin, qr_png, qr_text, share_bases


def test_local_addresses() -> None:
    assert is_local("http://localhost:8550/")
    assert is_local("http://127.0.0.1:8550/game/x")
    assert not is_local("http://192.168.1.20:8550/")


def test_origin() -> None:
    assert origin("http://192.168.1.20:8550/game/0123abcd?x=1") == "http://192.168.1.20:8550/"
    assert origin(None) is None
    assert origin("about:blank") is None


@pytest.mark.parametrize(("server", "page", "expected"), [
    # LAN addresses first, whatever the phone used.
    (["http://localhost:8550/", "http://192.168.1.20:8550/", "http://10.0.0.2:8550/"],
     "http://localhost:8550/game/1",
     ["http://192.168.1.20:8550/", "http://10.0.0.2:8550/"]),
    # A name the phone used (router DNS) is offered too.
    (["http://localhost:8550/", "http://192.168.1.20:8550/"], "http://laptop.lan:8550/",
     ["http://192.168.1.20:8550/", "http://laptop.lan:8550/"]),
    # Server on loopback only: the page's own address is the last resort.
    (["http://localhost:8550/"], "http://127.0.0.1:8550/game/1",
     ["http://127.0.0.1:8550/", "http://localhost:8550/"]),
    # Served some other way (no server list).
    ([], "http://192.168.1.20:9000/", ["http://192.168.1.20:9000/"]),
])
def test_share_bases(server: list[str], page: str, expected: list[str]) -> None:
    assert share_bases(server, page) == expected


def test_game_url() -> None:
    assert game_url("http://192.168.1.20:8550/", "0123abcd") == (
        "http://192.168.1.20:8550/game/0123abcd")


def test_qr_png_is_a_png() -> None:
    data = qr_png("http://192.168.1.20:8550/game/0123abcd")
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) < 5_000


def test_qr_text_is_square_blocks() -> None:
    text = qr_text("http://192.168.1.20:8550/")
    lines = text.splitlines()
    assert len(lines) > 10
    assert len({len(line) for line in lines}) == 1
    assert set("".join(lines)) <= {"█", "▀", "▄", " "}


def test_page_urls_list_localhost_then_lan(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("scorer.server.lan_ipv4_addresses", lambda: ["192.168.1.20"])
    assert page_urls("0.0.0.0", 8550) == ["http://localhost:8550/", "http://192.168.1.20:8550/"]
    assert page_urls("127.0.0.1", 8550) == ["http://localhost:8550/"]


def test_terminal_prints_a_qr_code_of_the_lan_address(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    print_qr(["http://localhost:8550/", "http://192.168.1.20:8550/"])
    out = capsys.readouterr().out
    assert "http://192.168.1.20:8550/" in out
    assert "█" in out
    print_qr(["http://localhost:8550/"])
    assert capsys.readouterr().out == ""
