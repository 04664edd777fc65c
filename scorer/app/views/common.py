"""Pieces every screen uses: the app bar and the scrolling page body."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import cast

import flet as ft

from scorer.app.context import AppContext
from scorer.app.theme import GAP, PAD

IDENTIFY_WAITS = 300
"""Tenths of a second a form waits for the browser to say which phone this is (a busy
server or a slow phone can take seconds)."""


async def when_identified(ctx: AppContext, then: Callable[[], None]) -> None:
    """`then()` once the browser has said which phone this is, for a form that draws
    what this phone may do (its groups, its rights) in place, keeping what was typed."""
    for _ in range(IDENTIFY_WAITS):
        if ctx.actions.identified:
            then()
            return
        await asyncio.sleep(0.1)


def app_bar(
    ctx: AppContext, title: str, back_to: str | None = None,
    actions: Sequence[ft.Control] = (),
) -> ft.AppBar:
    """Title bar with a back arrow to `back_to` (no arrow on home)."""
    leading = None
    if back_to is not None:
        leading = ft.IconButton(ft.Icons.ARROW_BACK, tooltip="Back",
                                on_click=lambda _e: ctx.go(back_to))
    return ft.AppBar(
        leading=leading,
        title=ft.Text(title, size=20, weight=ft.FontWeight.BOLD, max_lines=1,
                      overflow=ft.TextOverflow.ELLIPSIS),
        actions=list(actions),
        automatically_imply_leading=False,
    )


def screen(
    route: str, bar: ft.AppBar, body: Sequence[ft.Control],
    bottom: ft.Control | None = None, column: ft.Column | None = None,
) -> ft.View:
    """A scrolling column of content, with an optional bar fixed at the bottom.

    Pass `column` to keep a handle on the scrolling column (to scroll it later).
    """
    content = column or ft.Column()
    content.controls = list(body)
    content.spacing = GAP + 4
    content.scroll = ft.ScrollMode.AUTO
    content.expand = True
    controls: list[ft.Control] = [content]
    if bottom is not None:
        controls.append(ft.Container(content=bottom, padding=ft.Padding.only(top=8)))
    return ft.View(
        route=route,
        appbar=bar,
        controls=[ft.SafeArea(content=ft.Column(controls, expand=True, spacing=0), expand=True)],
        padding=ft.Padding.symmetric(horizontal=PAD, vertical=8),
    )


def own_kind(view: ft.View) -> ft.View:
    """Start a screen from `screen` with a kind of control no other screen starts with.

    A switch between home and this screen refills the View on show (`router.ONE_VIEW`):
    the phone reuses the widgets of the screen before wherever the new one has the
    same kind of control in the same place, and a SafeArea over a scrolling column
    in both would keep home's scroll offset. A different kind at the top makes the
    phone build the new screen afresh, top to bottom."""
    view.controls = [ft.Container(content=cast(ft.Control, view.controls[0]), expand=True)]
    return view


def redraws_shown(ctx: AppContext, route: str | None) -> bool:
    """Whether a screen for `route` is a redraw of the one on show (`Router.put`):
    only then may it reuse controls of the one on show."""
    return len(ctx.page.views) == 1 and ctx.on_show == route


def keyed(view: ft.View) -> ft.View:
    """Let Flet compare this screen, when it is drawn again on show, with the one
    on show part by part, and send only what changed (a watching phone's sheet
    after a Save: the new hand and the totals, not the whole sheet again).

    Flet freezes what it compares so: no control of a keyed screen may be changed
    in place afterwards; a change draws the screen again (`ctx.router_refresh`)."""
    if view.appbar is not None:
        view.appbar.key = "bar"
    for n, part in enumerate(view.controls):
        part.key = f"part{n}"
    return view


def message_view(ctx: AppContext, route: str, title: str, text: str) -> ft.View:
    """A plain page for an address that leads nowhere."""
    from scorer.app.widgets import big_button

    return screen(route, app_bar(ctx, title, back_to="/"), [
        ft.Text(text, size=17),
        ft.Row([big_button("Home", lambda _e: ctx.go("/"), icon=ft.Icons.HOME)]),
    ])
