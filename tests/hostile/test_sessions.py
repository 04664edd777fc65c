"""Pages cannot pile up on the server (issue 9, item 4).

Observed from outside, through Flet's own protocol: a session still kept is
reattached when a page registers again with its id; a dropped one is not."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from scorer.web.sessions import LIMITS, TOO_MANY_HERE
from tests.hostile.conftest import StartServer
from tests.hostile.flet_client import REGISTER, FletClient, Refused

UA = "hostile-session-test"


def test_abandoned_pages_beyond_an_address_share_are_dropped(
    start_server: StartServer, tmp_path: Path,
) -> None:
    server = start_server(tmp_path / "data")
    ids = []
    for _ in range(LIMITS.sessions_per_address + 4):  # bounded: open, show, close
        with FletClient(server.port, source="127.0.0.3", user_agent=UA) as page:
            page.pump(0.5)
            ids.append(page.session_id)
    time.sleep(12)  # Flet's sweeper runs every 10 s
    with FletClient(server.port, source="127.0.0.3", user_agent=UA,
                    session_id=ids[0]) as again:
        assert again.session_id != ids[0], "the oldest abandoned page was still kept"
    with FletClient(server.port, source="127.0.0.3", user_agent=UA,
                    session_id=ids[-1]) as recent:
        assert recent.session_id == ids[-1], "a recent page should come back to its session"


def test_a_page_that_vanishes_mid_send_is_released(
    start_server: StartServer, tmp_path: Path,
) -> None:
    """Flet leaves such a session "connected" for ever (never swept, never
    reattached): it must be released like any closed tab."""
    server = start_server(tmp_path / "data")
    ids = []
    for _ in range(3):  # bounded
        page = FletClient(server.port, source="127.0.0.9", user_agent=UA)
        ids.append(page.session_id)
        page.abort()  # while the server is still sending the first screen
    time.sleep(1.0)
    for session_id in ids:
        with FletClient(server.port, source="127.0.0.9", user_agent=UA,
                        session_id=session_id) as back:
            assert back.session_id == session_id, "the vanished page's session was lost"


def test_one_address_cannot_keep_more_than_its_share_of_pages_open(
    start_server: StartServer, tmp_path: Path,
) -> None:
    server = start_server(tmp_path / "data")
    pages = []
    try:
        for _ in range(LIMITS.open_per_address):
            pages.append(FletClient(server.port, source="127.0.0.4"))
        with pytest.raises(Refused) as refused:
            pages.append(FletClient(server.port, source="127.0.0.4"))
        assert TOO_MANY_HERE in str(refused.value)
        # Another phone is still welcome.
        with FletClient(server.port, source="127.0.0.5") as other:
            assert other.session_id
        # Closing one makes room again.
        pages.pop(0).close()
        time.sleep(0.5)
        pages.append(FletClient(server.port, source="127.0.0.4"))
    finally:
        for page in pages:
            page.close()


def test_one_connection_registers_one_page(start_server: StartServer, tmp_path: Path) -> None:
    server = start_server(tmp_path / "data")
    with FletClient(server.port, source="127.0.0.6") as page:
        first = page.session_id
        page.send(REGISTER, {"session_id": "no-such-session", "page_name": "",
                             "page": {"route": "/", "width": 390, "height": 844}})
        deadline = time.monotonic() + 5
        while not page.closed and time.monotonic() < deadline:
            page.pump(0.2)
        assert page.closed, "a second registration on one connection was served"
        assert page.session_id == first
