"""Nothing a page does leaves this machine or misses: every screen a player reaches,
the club board and the table cards, with no request to another host and no answer
>= 400 (the `new_context` fixture fails the test on either; see page_requests).
Flet's client asked cdn.jsdelivr.net for its animation runtime and Flutter asked for
Noto fallback fonts (404) until the page and our font subset saw to it.

One load of the app, then a walk through its screens in that page: every address
answers the same page (tests/web/test_page_script.py), whose `<base href="/">` makes a
load anywhere ask for the same files, so a load per screen would ask nothing a screen
shown in the app does not. The one load is of a score sheet, whose first frame shows
suits: the frame that fell back to a Noto font before our font was in the manifest."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from club_seats import seed_night
from playwright.sync_api import BrowserContext, Page, expect
from table_steps import DRAWN, enter_seeded_code, route_to, see, seed_game, tap

HANDS: list[dict[str, Any]] = [
    {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 92}, "bella": 2},
    {"caller": 1, "trump": "S", "points": {"team": 1, "tricks": 60},
     "runs": [{"seat": 1, "cards": ["9S", "10S", "JS", "QS"]}]},
]
NIGHT = "Legion 2 tables before"
"""The seeded club night (club_seats.seed_night: four teams, round 1 not started)."""


def asked_all(page: Page) -> None:
    """Wait until the screen on show has asked what it asks after its first frame: a
    font for a glyph no loaded font has. Flutter checks the words a frame laid out in a
    zero-delay timer after that frame and starts the download in the timer after it
    (its FontFallbackManager), so two frames after the words show, the request has been
    made (and the page's request event came before the answer to this evaluate). A
    plain HTML page (the board, the cards) asks for its fonts once laid out:
    `document.fonts.ready` waits for them."""
    page.evaluate("() => document.fonts.ready.then(() => null)")
    page.evaluate(DRAWN)


def test_every_screen_asks_nothing_of_another_host(
    new_context: Callable[..., BrowserContext], start_server: Callable[..., Any],
    open_app: Callable[..., float], screenshot: Callable[[Page, str], Path], tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    event = seed_night(data, 2, "before")  # a night on the club screens and the board
    server = start_server(data_dir=data)
    url = server.url
    game = seed_game(server.data_dir, HANDS, rules={"forced_at": 400})
    page = new_context().new_page()
    open_app(page, f"{url}game/{game}", first_text="Score sheet")
    asked_all(page)
    enter_seeded_code(page, game)  # this phone records: Undo and Record hand show
    for path, words in [
        ("", "Past games"),
        ("new", "Who sits where"),
        (f"game/{game}", "Undo last hand"),
        ("games", "Past games"),
        ("rules", "Rules"),
        ("check", "Run checker"),
        ("count", "Card counter"),
        ("stats", "Statistics"),
        ("club", "Club night"),
        (f"club/{event}", NIGHT),
        ("club/new", "New club night"),
        (f"game/{game}/hand", "Who called?"),
    ]:
        route_to(page, path, words)
        asked_all(page)
    tap(page, "Bob called")
    see(page, "Hearts")  # the suits of the trump's buttons
    asked_all(page)
    screenshot(page, "offline-record-hand")

    board = new_context().new_page()
    board.set_viewport_size({"width": 1280, "height": 720})
    board.goto(f"{url}board/{event}")
    expect(board.locator("#name")).to_have_text(NIGHT)
    expect(board.locator("#live")).to_have_text("live")
    cards = new_context().new_page()
    cards.goto(f"{url}event/{event}/cards")
    expect(cards.locator("body")).not_to_be_empty()
    for shown in (board, cards):
        asked_all(shown)
