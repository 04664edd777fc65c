"""Addresses phones can use, and the QR codes of them."""

from __future__ import annotations

import pytest

from scorer.server import page_urls, print_qr
from scorer.sharing import (
    Reach,
    game_url,
    is_local,
    origin,
    public_origin,
    qr_png,
    qr_text,
    share_bases,
)


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


LAPTOP = ("http://localhost:8550/", "http://192.168.1.20:8550/")
SERVER = ("http://localhost:8551/",)
PUBLIC = "https://bish.example.org/"


@pytest.mark.parametrize(("reach", "seen", "via_proxy", "expected"), [
    # A laptop: its own addresses on the Wi-Fi, whatever the page was opened as.
    (Reach(listening=LAPTOP), "ws://localhost:8550/", False, ["http://192.168.1.20:8550/"]),
    # A client's own Host comes after them, never first.
    (Reach(listening=LAPTOP), "http://evil.example/", False,
     ["http://192.168.1.20:8550/", "http://evil.example/"]),
    # Behind a trusted proxy: the forwarded host and scheme.
    (Reach(listening=SERVER, behind_proxy=True), "wss://bish.example.org/", True, [PUBLIC]),
    (Reach(listening=SERVER, behind_proxy=True), "https://bish.example.org:8443/x", True,
     ["https://bish.example.org:8443/"]),
    # The same server, asked directly (not through its proxy): no forwarded address.
    (Reach(listening=SERVER, behind_proxy=True), "http://localhost:8551/", False,
     ["http://localhost:8551/"]),
    # The operator's public address wins over everything a request says.
    (Reach(PUBLIC, SERVER, behind_proxy=True), "wss://evil.example/", True, [PUBLIC]),
    (Reach(PUBLIC, LAPTOP), "http://localhost:8550/", False, [PUBLIC]),
    (Reach(PUBLIC, SERVER), None, False, [PUBLIC]),
])
def test_one_rule_for_every_address(reach: Reach, seen: str | None, via_proxy: bool,
                                    expected: list[str]) -> None:
    assert reach.bases(seen, via_proxy) == expected


def test_the_laptop_advice_is_for_a_laptop_only() -> None:
    local = "http://localhost:8551/game/0123abcd"
    assert Reach(listening=SERVER).only_here(local)
    assert not Reach(listening=SERVER, behind_proxy=True).only_here(local)
    assert not Reach(PUBLIC, SERVER).only_here(local)
    assert not Reach(listening=LAPTOP).only_here("http://192.168.1.20:8550/game/x")


@pytest.mark.parametrize("given", ["https://bish.example.org", "https://bish.example.org/",
                                   "HTTPS://Bish.Example.org/", " https://bish.example.org "])
def test_a_public_url_is_kept_as_its_origin(given: str) -> None:
    assert public_origin(given) == PUBLIC


@pytest.mark.parametrize("given", ["bish.example.org", "ftp://bish.example.org",
                                   "https://bish.example.org/bish", "https://a@bish.example.org",
                                   "https://bish.example.org/?x=1", "https://bish example.org",
                                   "https://<b>/", ""])
def test_a_bad_public_url_is_refused_in_words(given: str) -> None:
    with pytest.raises(ValueError, match="--public-url takes the address phones open"):
        public_origin(given)


@pytest.mark.parametrize("page", ["http://a b/", "http://x'><script>/", "http://u@evil/",
                                  "http://" + "a" * 300 + "/", "about:blank"])
def test_an_address_that_is_no_plain_host_is_never_given_out(page: str) -> None:
    assert origin(page) is None
    assert Reach(listening=SERVER, behind_proxy=True).bases(page, True) == list(SERVER)


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
