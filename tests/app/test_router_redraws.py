"""The screen on show is drawn again only when what it was drawn for has changed."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import cast

import flet as ft

from scorer.app.context import AppContext
from scorer.app.router import Router
from scorer.store import GameStore
from tests.in_thread import run_async


class Drawn(Router):
    """A router that notes what it would send to the page instead of sending it."""

    sent: list[str]

    def put(self, view: ft.View) -> None:
        self.sent.append(str(view.route))
        self.ctx.page.views[:] = [view]


def router(tmp_path: Path) -> Drawn:
    page = SimpleNamespace(theme_mode=ft.ThemeMode.SYSTEM, platform_brightness=ft.Brightness.LIGHT,
                           width=390.0, route="/", views=[], pubsub=None,
                           run_task=lambda *_a: None, update=lambda: None)
    drawn = Drawn(AppContext(page=cast(ft.Page, page), store=GameStore(tmp_path)))
    drawn.sent = []
    return drawn


def test_turning_dark_draws_no_screen_again(tmp_path: Path) -> None:
    """Light or dark is the phone's to draw (every colour that differs is a role of the
    theme): the screen on show, and a form's typing in it, stay as they are."""
    shown = router(tmp_path)
    shown.show("/new")
    shown.show_theme(ft.ThemeMode.DARK)
    shown.ctx.page.platform_brightness = ft.Brightness.DARK  # the phone itself turned dark
    shown.show_theme(ft.ThemeMode.SYSTEM)
    assert shown.sent == ["/new"]
    assert shown.ctx.page.theme_mode == ft.ThemeMode.SYSTEM


def test_the_address_patterns_are_compiled_once_for_every_page(tmp_path: Path) -> None:
    """Compiled once per process (a phone alone: into its memory snapshot), not per page."""
    first, second = router(tmp_path), router(tmp_path)
    assert first.routes is second.routes
    assert any(pattern.match("/game/0123abcd/hand") for pattern, _build in first.routes)


def test_a_redraw_of_everything_redraws_the_game_on_show(tmp_path: Path) -> None:
    """The community's feed was cut off (scorer.app.live): the game on show is redrawn
    from the store; a screen with no game draws nothing."""

    from scorer.app import live

    shown = router(tmp_path)
    asked: list[str] = []
    shown.game_changed = asked.append  # type: ignore[method-assign]
    run_async(shown._on_redraw_all(live.REDRAW_ALL))
    assert asked == []
    shown.game_id = "0123abcd"
    run_async(shown._on_redraw_all("something else"))
    run_async(shown._on_redraw_all(live.REDRAW_ALL))
    assert asked == ["0123abcd"]


def test_news_of_a_game_while_its_redraw_waits_joins_it(tmp_path: Path) -> None:
    """A phone keeping the game hears a save's answer and the game's state at once: one
    redraw, which reads the game as it is then; later news draws again."""
    import asyncio

    shown = router(tmp_path)
    asked: list[str] = []
    shown.game_changed = asked.append  # type: ignore[method-assign]

    async def news() -> None:
        await asyncio.gather(shown._on_game_changed("", "0123abcd"),
                             shown._on_game_changed("", "0123abcd"),
                             shown._on_game_changed("", "89abcdef"))
        await shown._on_game_changed("", "0123abcd")

    run_async(news())
    assert asked == ["0123abcd", "89abcdef", "0123abcd"]


def test_new_club_night_is_not_drawn_again_when_the_phone_is_known(tmp_path: Path) -> None:
    """Its form draws the groups this phone keeps by itself once the phone is known; a
    whole new screen then (a busy server reads the phone late) emptied what was typed and
    the error just shown under it (seen in a full run: "the event needs a name" gone)."""
    shown = router(tmp_path)
    shown.show("/club/new")
    shown.phone_known()
    assert shown.sent == ["/club/new"]
    shown.show("/club/abc123")  # a night's screen depends on this phone's rights
    shown.phone_known()
    assert shown.sent == ["/club/new", "/club/abc123", "/club/abc123"]


def test_new_game_for_a_group_is_not_drawn_again_when_the_phone_is_known(
        tmp_path: Path) -> None:
    """Its form draws its group line again by itself (`NewGameForm.regroup`): a whole
    new screen emptied the names typed before the phone was known."""
    shown = router(tmp_path)
    shown.show("/new?group=0123abcd")
    shown.phone_known()
    assert shown.sent == ["/new"]


def test_the_sync_line_moving_with_the_game_draws_the_sheet_once(tmp_path: Path) -> None:
    """A save's answer on a phone keeping the game moves the game (the hand is in) and the
    sheet's line (nothing waits to be sent) at once: one redraw of the sheet, not one for
    each (the phone's CPU, on whatever tap comes next)."""
    import asyncio

    from scorer.app import live

    shown = router(tmp_path)
    shown.game_id = "0123abcd"
    asked: list[str] = []
    shown.game_changed = asked.append  # type: ignore[method-assign]

    async def answer() -> None:
        await asyncio.gather(shown._on_game_changed("", "0123abcd"),
                             shown._on_redraw_all(live.REDRAW_ALL))
        await asyncio.gather(shown._on_redraw_all(live.REDRAW_ALL),
                             shown._on_game_changed("", "0123abcd"))

    run_async(answer())
    assert asked == ["0123abcd", "0123abcd"]
