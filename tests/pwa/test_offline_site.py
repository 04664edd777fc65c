"""The phone-alone site asks nothing of another host and misses nothing on every
screen a player reaches (the `phone` fixture fails the test on either; Chromium
resolves no name but loopback here, so a foreign request would also hang), a game
file imported and exported among them."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pwa_phone import Phone
from table_steps import PLAYERS, see, tap, totals

from rules.game_file import check_game
from scorer.webbuild.static_server import SiteServer

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
SETTLE_MS = 1_000
"""Time for what a screen asks after its first frame (a fallback font) to be asked."""


def test_every_screen_stays_on_this_phone_and_a_game_file_imported_exports_the_same(
    phone: Phone, site_server: Callable[..., SiteServer], open_phone_site: Callable[..., float],
    tmp_path: Path,
) -> None:
    doc: dict[str, Any] = {
        "format": "tarabish-game/1", "players": PLAYERS, "first_dealer": 3, "rules": {},
        "hands": [
            {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 100}},
            {"caller": 1, "trump": "S", "points": {"team": 1, "tricks": 70}},
            {"caller": 2, "trump": "C", "points": {"team": 0, "tricks": 81}},
        ],
    }
    game_file = tmp_path / "game.json"
    game_file.write_text(json.dumps(doc), encoding="utf-8")
    expected = check_game(doc)  # what `tarabish check` rules
    server = site_server()
    page = phone.new_page()
    open_phone_site(page, server.url)

    # Import a game file: its sheet, with the totals `tarabish check` gives.
    tap(page, "Past games")
    with page.expect_file_chooser(timeout=30_000) as chooser:
        page.get_by_role("button", name="Import a game file").first.click()
    chooser.value.set_files(str(game_file))
    see(page, "Record hand", timeout=30_000)
    see(page, "3. Bob dealt · Cid called ♣")
    assert totals(page) == tuple(str(t) for t in expected.totals)
    sheet = page.url.split("#")[1]

    # Every screen: Record hand, its suits drawn (no boxes for a missing font), and
    # the screens of the menu.
    tap(page, "Record hand")
    tap(page, "Ann called")
    tap(page, re.compile("Hearts"))
    see(page, "Spades")
    page.wait_for_timeout(SETTLE_MS)
    page.mouse.move(195, 300)
    page.mouse.wheel(0, -2_000)  # back up to the trumps
    page.wait_for_timeout(500)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / "phone-alone-record-hand.png")  # the suits drawn, no boxes
    for route, words in [
        ("#/rules", "Players, partners and seats"),
        ("#/check", "Run checker"),
        ("#/count", "Card counter"),
        ("#/stats", "Statistics"),
        ("#/games", "Past games"),
        ("#/new", "Who sits where"),
        ("#/", "New game"),
        (f"#{sheet}", "3. Bob dealt · Cid called ♣"),
    ]:
        page.goto(server.url + route)
        see(page, words, timeout=60_000)
        page.wait_for_timeout(SETTLE_MS)

    # Export the game imported: the same hands and players come back. (Last: the first
    # tap after the download, a Close, was not always taken.)
    tap(page, "Share this game")
    with page.expect_download(timeout=30_000) as download:
        tap(page, "Export this game")
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert exported["hands"] == doc["hands"]
    assert exported["players"] == PLAYERS
    assert check_game(exported).totals == expected.totals
    assert not phone.foreign()
