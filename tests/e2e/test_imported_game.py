"""An imported game shows when it was last played, not when it was imported (issue 31)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from playwright.sync_api import Page
from table_steps import see, seed_game

HAND = {"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}}
START = datetime(2026, 3, 14, 19, 2, tzinfo=UTC)
LAST = START + timedelta(minutes=47)


def test_past_games_and_continue_date_an_imported_game_by_its_last_hand(
    page: Page, start_server: Callable[..., Any], open_app: Callable[..., float],
    tmp_path: Path,
) -> None:
    history = [
        {"revision": 1, "at": START.isoformat(), "change": "started"},
        {"revision": 2, "at": LAST.isoformat(), "change": "added", "hand": 1},
    ]
    # A server of its own: on the worker's shared one, the games other tests made today
    # list above this March game and can push it off the screen.
    data = tmp_path / "data"
    seed_game(data, [HAND], teams=["Old Timers", "Rivals"], history=history)
    server = start_server(data_dir=data)
    start, last = START.astimezone(), LAST.astimezone()
    line = (f"{start:%a} {start.day} {start:%b} {start.year}, {start:%H:%M} · "
            f"last played {last:%H:%M}")
    open_app(page, f"{server.url}games", first_text="Past games")
    see(page, line)
