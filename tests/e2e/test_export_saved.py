"""An export says on screen that the file was saved (issue 31, section 6): a browser's
download shows nothing on many phones, and a guest's Export seemed to do nothing.

Every phone reads "Saved tarabish-….json to this phone's downloads.": a guest (a
phone that watches the game) and the phone that holds the game's code. (The sheet's
Share > Export this game, on the phone-alone site, saves through the same
`AppContext.download`.) Screenshots of the message at 390x844 and
360x640, light and dark."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from playwright.sync_api import Locator, Page, expect
from table_steps import enter_seeded_code, route_to, seed_game, tap

HANDS = [{"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}}]
SAVED = re.compile(r"^Saved tarabish-\d{4}-\d\d-\d\d-[a-z0-9-]+\.json to this phone's "
                   r"downloads\.$")
Shot = Callable[[Page, str], Path]
Scheme = Callable[[Page, Literal["dark", "light"]], None]


def saved(page: Page) -> Locator:
    """The message on screen (not its copy read out to a screen reader)."""
    return page.get_by_text(SAVED).and_(page.locator("span"))


def export_and_read(page: Page, button: str, name_ends: str) -> None:
    """Tap `button`, take the download, and read that it was saved, by its name."""
    with page.expect_download() as download:
        tap(page, button)
    name = download.value.suggested_filename
    assert name.endswith(name_ends), name
    message = saved(page)
    expect(message).to_be_visible()
    assert name in message.inner_text()


def test_a_guest_export_from_past_games_says_where_it_went(
    page: Page, app_url: str, open_app: Callable[..., float], app_server: Any,
    screenshot: Shot, color_scheme: Scheme,
) -> None:
    seed_game(app_server.data_dir, HANDS, teams=["Saved Ones", "Others"])
    open_app(page, f"{app_url}games", first_text="Past games")
    for width, height in ((390, 844), (360, 640)):
        for scheme in ("light", "dark"):
            page.set_viewport_size({"width": width, "height": height})
            color_scheme(page, scheme)
            page.wait_for_timeout(600)
            export_and_read(page, "Export Saved Ones vs Others", "-saved-ones-vs-others.json")
            screenshot(page, f"export-saved-{width}x{height}-{scheme}")
            expect(saved(page)).to_have_count(0, timeout=10_000)


def test_the_phone_holding_the_game_reads_it_too(
    page: Page, app_url: str, open_app: Callable[..., float], app_server: Any,
) -> None:
    game = seed_game(app_server.data_dir, HANDS, teams=["Code Team", "Rivals"])
    open_app(page, f"{app_url}game/{game}", first_text="Score sheet")
    enter_seeded_code(page, game)
    route_to(page, "games", "Past games")  # in the page already open
    export_and_read(page, "Export Code Team vs Rivals", "-code-team-vs-rivals.json")
