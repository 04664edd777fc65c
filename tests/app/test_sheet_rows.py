"""The sheet's values are worked out once per revision of a game, whatever the number
of phones showing it (issue 26: the save fan-out must not grow with the hall)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import flet as ft
import pytest

from scorer.app import sheet_rows
from scorer.app.context import AppContext
from scorer.app.game_view_model import GameModel
from scorer.app.views.sheet import sheet_layer, sheet_view
from scorer.store import GameStore

GAME: dict[str, Any] = {
    "format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"], "first_dealer": 0,
    "rules": {}, "hands": [{"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}},
                           {"caller": 2, "trump": "S", "points": {"team": 0, "tricks": 90}}],
}
HAND = {"caller": 3, "trump": "C", "points": {"team": 1, "tricks": 100}}


def phone(store: GameStore) -> AppContext:
    page = SimpleNamespace(theme_mode=ft.ThemeMode.LIGHT, platform_brightness=ft.Brightness.LIGHT,
                           width=400.0, height=844.0, views=[])
    return AppContext(page=cast(ft.Page, page), store=store)


def draw(ctx: AppContext, game_id: str) -> ft.View:
    """Draw the sheet and put it on show, as the router does."""
    view = sheet_view(ctx, game_id)
    cast(Any, ctx.page).views = [view]
    ctx.on_show = view.route
    return view


def texts(view: ft.View) -> list[str]:
    """Every text on the sheet's layer, in order."""
    found: list[str] = []

    def walk(control: object) -> None:
        if isinstance(control, ft.Text):
            found.append(str(control.value))
            found.extend(str(span.text) for span in control.spans or ())
        for name in ("content", "controls"):
            child = getattr(control, name, None)
            for part in child if isinstance(child, list) else [child]:
                if isinstance(part, ft.Control):
                    walk(part)

    walk(sheet_layer(view))
    return found


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Each time the sheet's values are worked out: (game, revision)."""
    calls: list[tuple[str, int]] = []
    work_out = sheet_rows.work_out

    def counting(model: GameModel, last: sheet_rows.SheetValues | None = None
                 ) -> sheet_rows.SheetValues:
        calls.append((model.id, model.stored.revision))
        return work_out(model, last)

    monkeypatch.setattr(sheet_rows, "work_out", counting)
    return calls


def test_the_sheet_is_worked_out_once_per_revision_for_every_phone(
    tmp_path: Path, counted: list[tuple[str, int]],
) -> None:
    store = GameStore(tmp_path)
    game = store.create_game(GAME)
    phones = [phone(store) for _ in range(6)]
    first = [draw(ctx, game.id) for ctx in phones]
    assert counted == [(game.id, game.revision)]
    before = texts(first[0])
    assert all(texts(view) == before for view in first)

    saved = store.add_hand(game.id, HAND)
    after = [draw(ctx, game.id) for ctx in phones]  # every phone watching redraws
    assert counted == [(game.id, game.revision), (game.id, saved.revision)]
    shown = texts(after[0])
    assert all(texts(view) == shown for view in after)
    new_row = [text for text in shown if text.startswith("3. ")]
    assert new_row and new_row[0] not in before, (shown, before)


def test_the_values_are_those_of_the_sheet_drawn_alone(tmp_path: Path) -> None:
    """Shared or worked out afresh, a phone shows the same sheet."""
    store = GameStore(tmp_path)
    game = store.create_game(GAME)
    store.add_hand(game.id, HAND)
    model = GameModel.load(store.get_game(game.id))
    assert sheet_rows.sheet_values(model) == sheet_rows.work_out(model)


def test_a_row_unchanged_by_a_save_is_the_same_values(tmp_path: Path) -> None:
    """Each phone then finds its kept row by identity; an edit makes new ones."""
    store = GameStore(tmp_path)
    game = store.create_game(GAME)
    before = sheet_rows.sheet_values(GameModel.load(store.get_game(game.id)))
    saved = store.add_hand(game.id, HAND)
    after = sheet_rows.sheet_values(GameModel.load(store.get_game(game.id)))
    assert [r.number for r in after.rows] == [3, 2, 1]
    assert after.rows[1] is before.rows[0] and after.rows[2] is before.rows[1]
    edited = {**GAME["hands"][0], "points": {"team": 0, "tricks": 100}}
    store.replace_hand(game.id, 0, edited, expected_revision=saved.revision)
    again = sheet_rows.sheet_values(GameModel.load(store.get_game(game.id)))
    assert again.rows[2] is not after.rows[2] and "EDITED" in again.rows[2].tags


def test_the_values_kept_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sheet_rows, "SHEETS_KEPT", 3)
    store = GameStore(tmp_path)
    for _ in range(5):
        game = store.create_game(GAME)
        sheet_rows.sheet_values(GameModel.load(store.get_game(game.id)))
    assert len(sheet_rows._SHEETS) == 3
