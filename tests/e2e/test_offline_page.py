"""Nothing a page does leaves this machine or misses: every screen a player reaches,
the club board and the table cards, with no request to another host and no answer
>= 400 (the `new_context` fixture fails the test on either; see page_requests).
Flet's client asked cdn.jsdelivr.net for its animation runtime and Flutter asked for
Noto fallback fonts (404) until the page and our font subset saw to it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect
from table_steps import enter_seeded_code, see, seed_game, tap
from test_club_night import set_up_night

SETTLE_MS = 1_000
"""Time for what a screen asks after its first frame (a fallback font) to be asked.
Not networkidle: a page's connection to the server never leaves it idle."""
HANDS: list[dict[str, Any]] = [
    {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 92}, "bella": 2},
    {"caller": 1, "trump": "S", "points": {"team": 1, "tricks": 60},
     "runs": [{"seat": 1, "cards": ["9S", "10S", "JS", "QS"]}]},
]


def test_every_screen_asks_nothing_of_another_host(
    new_context: Callable[..., BrowserContext], start_server: Callable[..., Any],
    open_app: Callable[..., float], screenshot: Callable[[Page, str], Path],
) -> None:
    server = start_server()
    url = server.url
    game = seed_game(server.data_dir, HANDS, rules={"forced_at": 400})
    page = new_context().new_page()
    open_app(page, f"{url}game/{game}", first_text="Score sheet")
    enter_seeded_code(page, game)
    for path, words in [
        ("", "Past games"),
        ("new", "Who sits where"),
        (f"game/{game}", "Undo last hand"),
        (f"game/{game}/hand", "Who called?"),
        ("rules", "Rules"),
        ("check", "Run checker"),
        ("count", "Card counter"),
        ("stats", "Statistics"),
        ("games", "Past games"),
        ("club", "Club night"),
    ]:
        open_app(page, f"{url}{path}", first_text=words)
        page.wait_for_timeout(SETTLE_MS)
    open_app(page, f"{url}game/{game}/hand", first_text="Who called?")
    tap(page, "Bob called")
    see(page, "Hearts")
    page.wait_for_timeout(SETTLE_MS)
    screenshot(page, "offline-record-hand")

    event = set_up_night(page, url, open_app)  # New club night, then the night's screen
    page.wait_for_timeout(SETTLE_MS)
    board = new_context().new_page()
    board.set_viewport_size({"width": 1280, "height": 720})
    board.goto(f"{url}board/{event}")
    expect(board.locator("#live")).to_have_text("live")
    cards = new_context().new_page()
    cards.goto(f"{url}event/{event}/cards")
    expect(cards.locator("body")).not_to_be_empty()
    for shown in (board, cards):
        shown.wait_for_timeout(SETTLE_MS)
