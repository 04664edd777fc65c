"""New game on slow Wi-Fi: a tap on the dealer's buttons right after the last letter of a
name is not lost. Each letter typed redraws the dealer's buttons (they show the names);
a tap already on its way to a button that redraw replaced found no control on the server
(seen in a full run under load: the drawn dealer never showed)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect
from table_steps import DRAWN_DEALER, see, type_into
from tcp_forwarder import Forwarder

SLOW_WIFI_S = 0.3
"""Each way: the letter's redraw reaches the phone after the tap has left it."""


def test_draw_at_random_right_after_the_last_letter_on_slow_wifi(
    page: Page, start_server: Callable[..., Any], open_app: Callable[..., float],
) -> None:
    server = start_server()
    proxy = Forwarder([server.port])
    try:
        open_app(page, f"{proxy.url}new", first_text="New game")
        for seat, name in enumerate(["Ann", "Bob", "Cid"]):
            type_into(page, f"Player {seat + 1}", name)
        see(page, "Ann & Cid")
        box = page.get_by_role("textbox", name="Player 4")
        box.click()
        expect(box, "the box 'Player 4' to take the keyboard").to_be_focused()
        draw = page.get_by_role("button", name="Draw at random", exact=True)
        expect(draw).to_be_visible()
        proxy.delay_s = SLOW_WIFI_S
        page.keyboard.type("Dee", delay=30)
        draw.click()  # at once: the redraw for the last letter is still on its way
        expect(page.get_by_text(DRAWN_DEALER),
               "the dealer drawn by the tap made right after typing Dee").to_be_visible()
    finally:
        proxy.close()
