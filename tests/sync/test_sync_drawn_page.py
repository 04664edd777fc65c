"""A table of phones on the app (sync) and phones on the server-drawn page see each
other's changes live (issue 40 §1): a hand recorded on the drawn page reaches a sync
phone, a hand pushed through sync shows on the drawn page, a delete on the drawn page
tells the sync phone the game is gone. The drawn page is Flet's own protocol
(tests/hostile/flet_client.py), the same device token as the sync phone (the token
the browser keeps)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from scorer.sync.messages import Applied, GameState, Gone
from tests.hostile.conftest import delete_from_past_games, make_game
from tests.hostile.flet_client import FletClient
from tests.sync.wire import WirePhone, add, hand, serve

pytestmark = pytest.mark.slow  # a table server in a subprocess

HOLDER = "holder-token-0123456789"
SHOWN_WITHIN_S = 5.0


def test_drawn_page_and_sync_phone_see_each_others_changes(tmp_path: Path,
                                                           page_file_cache: Path) -> None:
    data = tmp_path / "data"
    game, _code = make_game(data, holder=HOLDER)
    server = serve(data, page_file_cache)
    try:
        app = WirePhone(server.port, HOLDER, source="127.0.20.1")
        app.hello([(game, 1)])
        with FletClient(server.port, route=f"/game/{game}", device=HOLDER,
                        source="127.0.20.2") as page:
            page.pump(1.5)
            page.wait_for("Record hand")
            # The drawn page records hand 1: the app hears it.
            mark = page.mark()
            page.click("Record hand")
            page.wait_for("Who called?", since=mark)
            for label in ("Bob", "♥", "9", "0"):
                page.click(label, since=mark)
                page.pump(0.2)
            page.click("Save hand", since=mark)
            page.wait_for("1. Ann dealt · Bob called\u00a0♥", since=mark)
            state = app.expect(GameState, timeout=SHOWN_WITHIN_S)
            assert state.game.revision == 2 and len(state.game.doc["hands"]) == 1
            assert state.holds  # the same phone holds it in both

            # The app records hand 2: the drawn page shows it.
            mark = page.mark()
            [applied] = app.push(add(game, 2, hand(caller=2, tricks=60)))
            assert isinstance(applied, Applied) and applied.revision == 3
            page.wait_for("2. Bob dealt · Cid called\u00a0♥", since=mark,
                          timeout=SHOWN_WITHIN_S)
        # Deleted on the drawn page's Past games: the app is told it is gone.
        with FletClient(server.port, route="/games", device=HOLDER,
                        source="127.0.20.3") as page:
            page.pump(1.0)
            delete_from_past_games(page, data / "games" / f"{game}.json")
        assert app.expect(Gone, timeout=SHOWN_WITHIN_S).game == game
        started = time.monotonic()
        app.close()
        assert time.monotonic() - started < 5
    finally:
        server.stop()
    assert "Traceback" not in server.log(), server.log()
