"""Drawing the sheet on show again keeps every part drawn from unchanged values
(the same control objects, which Flet skips when it compares the two drawings),
and draws anew every part whose values changed: the totals, the next hand, the
new row, Undo (it removes the hand of the revision it was drawn for)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import flet as ft

from scorer.app.context import AppContext
from scorer.app.theme import TEAM_LINES
from scorer.app.views.record_hand import record_hand_view
from scorer.app.views.sheet import sheet_layer, sheet_view
from scorer.store import GameStore

GAME: dict[str, Any] = {
    "format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"], "first_dealer": 0,
    "rules": {}, "hands": [{"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}},
                           {"caller": 2, "trump": "S", "points": {"team": 0, "tricks": 90}}],
}
HAND = {"caller": 3, "trump": "C", "points": {"team": 1, "tricks": 100}}


def context(store: GameStore) -> AppContext:
    page = SimpleNamespace(theme_mode=ft.ThemeMode.LIGHT, platform_brightness=ft.Brightness.LIGHT,
                           width=400.0, height=844.0, views=[])
    return AppContext(page=cast(ft.Page, page), store=store)


def hold(ctx: AppContext, game_id: str) -> None:
    """This phone started the game: it holds its table code and may record."""
    ctx.actions.device = "this-phone-token-0123456789"
    ctx.actions.game_created(game_id)


def show(ctx: AppContext, view: ft.View) -> None:
    """What the router does as it sends a screen: it is the one on show."""
    cast(Any, ctx.page).views = [view]
    ctx.on_show = view.route


def parts(view: ft.View) -> dict[str, ft.Control]:
    """The sheet's parts by a name: its rows by key, the rest by what they show."""
    safe = cast(ft.SafeArea, sheet_layer(view))
    body = cast(ft.Column, cast(ft.Column, safe.content).controls[0])
    named: dict[str, ft.Control] = {"bar": cast(ft.Control, view.appbar)}
    for n, control in enumerate(body.controls):
        named[str(control.key) if control.key else f"#{n}"] = control
    return named


def draw(ctx: AppContext, game_id: str, on_show: bool) -> dict[str, ft.Control]:
    view = sheet_view(ctx, game_id)
    if on_show:
        show(ctx, view)
    return parts(view)


def test_a_redraw_of_the_sheet_on_show_keeps_every_unchanged_part(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    game = store.create_game(GAME)
    ctx = context(store)
    first = draw(ctx, game.id, on_show=True)
    again = draw(ctx, game.id, on_show=True)
    assert first.keys() == again.keys() and "hand1" in first and "hand2" in first
    assert all(again[name] is first[name] for name in first), [
        name for name in first if again[name] is not first[name]]

    store.add_hand(game.id, HAND)
    after = draw(ctx, game.id, on_show=True)
    assert after["hand1"] is first["hand1"] and after["hand2"] is first["hand2"]
    assert after["bar"] is first["bar"]
    assert "hand3" in after and "hand3" not in first
    changed = [name for name in first if after.get(name) is not first[name]]
    # The totals and the next hand's line change (this phone may not record: no Undo).
    assert changed == ["header", "next"], changed


def test_nothing_is_kept_from_a_sheet_not_on_show(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    game = store.create_game(GAME)
    ctx = context(store)
    first = draw(ctx, game.id, on_show=False)  # e.g. Record hand is on show
    show(ctx, ft.View(route=f"/game/{game.id}/hand"))
    again = draw(ctx, game.id, on_show=True)
    assert not any(again[name] is first[name] for name in first)


def test_a_sheet_drawn_in_dark_is_the_one_drawn_in_light(tmp_path: Path) -> None:
    """Every colour that differs in dark is a role of the theme, which the phone
    resolves: a drawing never depends on the brightness, so nothing is redrawn for it."""
    store = GameStore(tmp_path)
    game = store.create_game(GAME)
    store.add_hand(game.id, HAND)
    ctx = context(store)
    ctx.open_panels |= {f"race/{game.id}"}  # the race's chart: its lines too
    light = draw(ctx, game.id, on_show=False)
    cast(Any, ctx.page).theme_mode = ft.ThemeMode.DARK
    dark = draw(ctx, game.id, on_show=False)
    assert light.keys() == dark.keys()
    assert [colours(light[name]) for name in light] == [colours(dark[name]) for name in dark]
    assert TEAM_LINES[0] in [c for name in light for c in colours(light[name])]  # the chart's


def colours(part: object, seen: set[int] | None = None) -> list[str]:
    """Every colour a part and what it holds are drawn in, in order."""
    seen = set() if seen is None else seen
    if id(part) in seen or not dataclasses.is_dataclass(part):
        return []
    seen.add(id(part))
    found: list[str] = []
    for field in dataclasses.fields(part):
        if field.name.startswith("_"):
            continue
        value = getattr(part, field.name)
        if "color" in field.name and isinstance(value, str):
            found.append(value)
        for item in value if isinstance(value, list | tuple) else [value]:
            found += colours(item, seen)
    return found


def test_an_edit_draws_again_every_row_whose_totals_moved(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    game = store.create_game(GAME)
    ctx = context(store)
    first = draw(ctx, game.id, on_show=True)
    edited = {**GAME["hands"][0], "points": {"team": 0, "tricks": 100}}
    store.replace_hand(game.id, 0, edited, expected_revision=game.revision)
    after = draw(ctx, game.id, on_show=True)
    assert after["hand1"] is not first["hand1"] and after["hand2"] is not first["hand2"]


def test_parts_of_a_drawing_that_never_went_on_show_are_not_reused(tmp_path: Path) -> None:
    """A drawing built but overtaken before it was sent (another redraw in between)
    holds controls that are not on the phone: the next drawing starts afresh."""
    store = GameStore(tmp_path)
    game = store.create_game(GAME)
    ctx = context(store)
    draw(ctx, game.id, on_show=True)
    store.add_hand(game.id, HAND)
    unsent = draw(ctx, game.id, on_show=False)
    after = draw(ctx, game.id, on_show=True)
    assert after["hand3"] is not unsent["hand3"] and after["header"] is not unsent["header"]


def test_record_hand_from_the_sheet_lies_over_it_and_the_way_back_keeps_every_row(
    tmp_path: Path,
) -> None:
    """Record hand opened from the sheet on show is laid over it in the same View
    (same address, same Stack): the phone keeps the sheet built, hidden, and a Save
    brings it back with only the new row and what changed drawn anew."""
    store = GameStore(tmp_path)
    game = store.create_game(GAME)
    ctx = context(store)
    hold(ctx, game.id)
    sheet = sheet_view(ctx, game.id)
    show(ctx, sheet)
    first = parts(sheet)
    stack = cast(ft.Stack, sheet.controls[0])
    assert [c.opacity for c in stack.controls] == [1.0]

    over = record_hand_view(ctx, game.id)
    assert over.route == sheet.route and over.controls[0] is stack
    assert len(stack.controls) == 2 and stack.controls[0].opacity == 0
    assert cast(ft.Text, cast(ft.AppBar, over.appbar).title).value == "Record hand 3"
    below = parts(over)  # its bar is Record hand's
    assert all(below[name] is first[name] for name in first if name != "bar"), [
        name for name in first if below[name] is not first[name]]

    show(ctx, over)  # the router refills the View on show
    store.add_hand(game.id, HAND)
    back = sheet_view(ctx, game.id)
    assert back.controls[0] is stack and [c.opacity for c in stack.controls] == [1.0]
    after = parts(back)
    assert after["hand1"] is first["hand1"] and after["hand2"] is first["hand2"]
    assert "hand3" in after and "hand3" not in first


def test_record_hand_opened_from_elsewhere_stands_alone(tmp_path: Path) -> None:
    """A reload on Record hand (or a way in from any other screen) draws it alone:
    no sheet is built under it for nothing."""
    store = GameStore(tmp_path)
    game = store.create_game(GAME)
    ctx = context(store)
    hold(ctx, game.id)
    alone = record_hand_view(ctx, game.id)
    assert alone.route == f"/game/{game.id}/hand"
    assert isinstance(alone.controls[0], ft.SafeArea)


def test_a_tap_on_the_hidden_sheet_does_nothing(tmp_path: Path) -> None:
    """Under Record hand the sheet is hidden but built: a keyboard can still reach its
    buttons. Undo and a row's ruling then do nothing; on the sheet they open."""
    store = GameStore(tmp_path)
    game = store.create_game(GAME)
    ctx = context(store)
    hold(ctx, game.id)
    opened: list[ft.AlertDialog] = []
    cast(Any, ctx.page).show_dialog = opened.append
    sheet = sheet_view(ctx, game.id)
    undo = next(c for c in parts(sheet).values() if "Undo last hand" in repr(c))
    row = parts(sheet)["hand2"]
    for route, dialogs in ((f"/game/{game.id}/hand", 0), (f"/game/{game.id}", 2)):
        ctx.shown_route = lambda route=route: route
        opened.clear()
        for control in (undo, row):
            button = control if isinstance(control, ft.Container) else next(
                c for c in cast(ft.Row, control).controls)
            assert button.on_click is not None
            button.on_click(cast(Any, None))
        assert len(opened) == dialogs, (route, opened)


def test_every_part_of_the_sheet_is_matched_by_its_name(tmp_path: Path) -> None:
    """A notice at the top of the sheet shifts every part below it: Flet matches a
    keyed screen's unkeyed parts by place, and a phone kept a copy of the column
    header under the sheet for every notice. Each part carries its own key."""
    store = GameStore(tmp_path)
    game = store.create_game(GAME)
    ctx = context(store)
    hold(ctx, game.id)
    first = draw(ctx, game.id, on_show=True)
    ctx.notices[game.id] = ["Hand 1 was changed on another phone: 70 → 80"]
    after = draw(ctx, game.id, on_show=True)
    assert not [name for name in after if name.startswith("#")], list(after)
    assert "news" in after and "news" not in first
    assert after["columns"] is first["columns"] and after["hand1"] is first["hand1"]
    keys = [name for name in after if name != "bar"]
    assert len(keys) == len(set(keys))
