"""Damaged files are reported to every phone without the server's paths: the
home screen and a damaged game's page name the kept file only inside the data
folder; the full path goes to the server's log (and the CLI)."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import flet as ft
import pytest

from scorer.app import CONFIG, store_access
from scorer.app.context import AppContext
from scorer.app.views.home import SHOWN_NOTICES, home_view
from scorer.app.views.sheet import sheet_view
from scorer.store import GameStore
from scorer.store.schema import GAME_SCHEMA

GAME: dict[str, Any] = {
    "format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"], "first_dealer": 0,
    "rules": {}, "hands": [{"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}}],
}


def texts(control: object, depth: int = 0) -> list[str]:
    """Every string shown by a control tree (bounded depth)."""
    if depth > 40:
        return []
    if isinstance(control, str):
        return [control]
    if isinstance(control, (list, tuple)):
        return [t for c in control for t in texts(c, depth + 1)]
    if not isinstance(control, ft.BaseControl):
        return []
    found: list[str] = []
    for name in ("value", "text", "tooltip", "label", "title", "content", "controls",
                 "actions", "appbar"):
        value = getattr(control, name, None)
        if value is not None:
            found += texts(value, depth + 1)
    return found


def context(store: GameStore) -> AppContext:
    page = SimpleNamespace(theme_mode=ft.ThemeMode.LIGHT, platform_brightness=ft.Brightness.LIGHT,
                           width=400.0)
    return AppContext(page=cast(ft.Page, page), store=store)


def damage_games(data: Path, count: int) -> list[str]:
    store = GameStore(data)
    ids = [store.create_game(GAME).id for _ in range(count)]
    store.close()
    for game_id in ids:
        (data / "games" / f"{game_id}.json").write_text("{ torn")
    return ids


def test_home_shows_damaged_files_without_server_paths(tmp_path: Path) -> None:
    data = tmp_path / "srv-secret" / "data"
    [bad] = damage_games(data, 1)
    logged: list[str] = []
    store = GameStore(data, on_problem=logged.append)
    shown = " ".join(texts(home_view(context(store))))
    assert f"The saved game {bad} could not be read" in shown
    assert "damaged/" in shown and "data folder" in shown
    assert str(tmp_path) not in shown and "srv-secret" not in shown
    # The full path is for the server's terminal and the CLI.
    [moved] = (data / "damaged").iterdir()
    assert logged == store.problems and str(moved) in logged[0]


def test_a_damaged_game_page_shows_no_server_path(tmp_path: Path) -> None:
    data = tmp_path / "srv-secret" / "data"
    store = GameStore(data)
    game = store.create_game(GAME)
    (data / "games" / f"{game.id}.json").write_text("{ torn")
    shown = " ".join(texts(sheet_view(context(store), game.id)))
    assert "could not be read" in shown and "damaged/" in shown
    assert str(tmp_path) not in shown and "srv-secret" not in shown


def test_a_game_from_a_newer_version_shows_no_server_path(tmp_path: Path) -> None:
    data = tmp_path / "srv-secret" / "data"
    store = GameStore(data)
    game = store.create_game(GAME)
    path = data / "games" / f"{game.id}.json"
    schema = f'"schema":{GAME_SCHEMA},'
    path.write_text(path.read_text().replace(schema, '"schema":99,', 1))
    shown = " ".join(texts(sheet_view(context(store), game.id)))
    assert "newer version" in shown and f"games/{game.id}.json" in shown
    assert str(tmp_path) not in shown and "srv-secret" not in shown


def test_many_damaged_files_make_a_short_home_screen(tmp_path: Path) -> None:
    data = tmp_path / "data"
    damage_games(data, SHOWN_NOTICES + 4)
    store = GameStore(data)
    view = home_view(context(store))
    shown = texts(view)
    assert sum(t.startswith("The saved game") for t in shown) == SHOWN_NOTICES - 1
    assert any(t.startswith("5 more files could not be read") for t in shown)


def test_the_server_logs_the_full_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       caplog: pytest.LogCaptureFixture) -> None:
    data = tmp_path / "data"
    [bad] = damage_games(data, 1)
    monkeypatch.setattr(CONFIG, "data_dir", data)
    monkeypatch.setattr(store_access, "_backends", None)
    with caplog.at_level(logging.WARNING):
        store = store_access.get_store()
    [moved] = (data / "damaged").iterdir()
    assert bad in caplog.text and str(moved) in caplog.text
    assert store.notices and str(data) not in store.notices[0]
