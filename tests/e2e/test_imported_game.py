"""An imported game shows when it was last played, not when it was imported (issue 31)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from playwright.sync_api import Page
from table_steps import see, seed_game

HAND = {"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}}
START = datetime(2026, 3, 14, 19, 2, tzinfo=UTC)
LAST = START + timedelta(minutes=47)


def test_past_games_and_continue_date_an_imported_game_by_its_last_hand(
    page: Page, app_url: str, open_app: Callable[..., float], app_server: Any,
) -> None:
    history = [
        {"revision": 1, "at": START.isoformat(), "change": "started"},
        {"revision": 2, "at": LAST.isoformat(), "change": "added", "hand": 1},
    ]
    seed_game(app_server.data_dir, [HAND], teams=["Old Timers", "Rivals"], history=history)
    start, last = START.astimezone(), LAST.astimezone()
    line = (f"{start:%a} {start.day} {start:%b} {start.year}, {start:%H:%M} · "
            f"last played {last:%H:%M}")
    open_app(page, f"{app_url}games", first_text="Past games")
    see(page, line)
