"""The phone-alone site asks nothing of another host and misses nothing on every
screen a player reaches (the `phone` fixture fails the test on either; Chromium
resolves no name but loopback here, so a foreign request would also hang)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from pwa_phone import Phone
from table_steps import see, tap
from test_phone_alone import start_game

from scorer.webbuild.static_server import SiteServer

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
SETTLE_MS = 1_000
"""Time for what a screen asks after its first frame (a fallback font) to be asked."""


def test_every_screen_of_the_phone_alone_site_stays_on_this_phone(
    phone: Phone, site_server: Callable[..., SiteServer], open_phone_site: Callable[..., float],
) -> None:
    server = site_server()
    page = phone.new_page()
    open_phone_site(page, server.url)
    start_game(page)
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
    ]:
        page.goto(server.url + route)
        see(page, words, timeout=60_000)
        page.wait_for_timeout(SETTLE_MS)
    assert not phone.foreign()
