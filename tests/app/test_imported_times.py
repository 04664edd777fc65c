"""An imported game is as old as its hands (issue 31): Past games and home's Continue
say when it was last played by its trail, not when the file was imported."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import flet as ft

from scorer.app.context import AppContext
from scorer.app.game_files import import_data
from scorer.app.game_lines import when_line
from scorer.store import GameStore

HAND = {"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}}
START = datetime(2026, 3, 14, 19, 2, tzinfo=UTC)
LAST = START + timedelta(hours=2, minutes=31)


def game_file(history: list[dict[str, Any]] | None) -> bytes:
    doc: dict[str, Any] = {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
                           "first_dealer": 0, "rules": {}, "hands": [HAND, HAND]}
    if history is not None:
        doc["history"] = history
    return json.dumps(doc).encode()


def trail() -> list[dict[str, Any]]:
    return [
        {"revision": 1, "at": START.isoformat(), "by": "phone 1", "change": "started"},
        {"revision": 2, "at": (START + timedelta(minutes=9)).isoformat(), "change": "added",
         "hand": 1},
        {"revision": 3, "at": LAST.isoformat(), "change": "added", "hand": 2},
        # A renamed player later on is not play at the table.
        {"revision": 4, "at": (LAST + timedelta(days=3)).isoformat(), "change": "details",
         "before": {"players": ["Ann", "Bob", "Cid", "Dee"]},
         "after": {"players": ["Ann", "Bob", "Cid", "Dee"]}},
    ]


def phone(store: GameStore) -> AppContext:
    page = SimpleNamespace(theme_mode=ft.ThemeMode.LIGHT, platform_brightness=ft.Brightness.LIGHT,
                           width=400.0, height=844.0, views=[])
    ctx = AppContext(page=cast(ft.Page, page), store=store)
    ctx.actions.device = "this-phone-token-0123456789"
    return ctx


def test_an_imported_game_was_last_played_at_its_last_hand(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    game_id = import_data(phone(store), game_file(trail()))
    [shown] = store.list_games()
    assert shown.id == game_id
    assert shown.created == START and shown.updated == LAST
    start, last = START.astimezone(), LAST.astimezone()
    line = when_line(shown)  # "Sat 14 Mar 2026, 19:02 · last played 21:33" (local time)
    assert line.startswith(f"{start:%a} {start.day} {start:%b} 2026, {start:%H:%M}"), line
    assert f"last played {last:%H:%M}" in line or f"{last:%H:%M}" in line.split("·")[1], line
    # The store's index says the same after a restart.
    [again] = GameStore(tmp_path).list_games()
    assert again.updated == LAST


def test_a_file_without_a_trail_or_with_a_time_to_come_is_read_as_now(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    before = datetime.now(UTC)
    import_data(phone(store), game_file(None))
    later = trail()
    later[-2]["at"] = (datetime.now(UTC) + timedelta(days=30)).isoformat()
    import_data(phone(store), game_file(later))
    after = datetime.now(UTC)
    for game in store.list_games():
        assert before <= game.updated <= after


def test_a_game_played_here_goes_on_from_its_last_hand(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    game_id = import_data(phone(store), game_file(trail()))
    store.add_hand(game_id, HAND)
    [shown] = store.list_games()
    assert shown.created == START and shown.updated > LAST + timedelta(days=30)
