"""Screen colours for this phone: light, dark, or like the phone's own setting.

One place to change them: the button in home's title bar. The choice is kept in
the phone's browser (`phone_prefs`) and applied at every start, the same on a
table server and on a phone alone."""

from __future__ import annotations

import flet as ft

from scorer.app.context import AppContext
from scorer.app.phone_prefs import THEMES
from scorer.app.widgets import toggle

COLOURS = "Screen colours"


def colours_button(ctx: AppContext) -> ft.Control:
    """The title-bar button that opens the choice."""
    return ft.IconButton(ft.Icons.BRIGHTNESS_6, tooltip=COLOURS,
                         on_click=lambda _e: show_colours(ctx))


def show_colours(ctx: AppContext) -> None:
    now = ctx.actions.phone.theme

    def choose(choice: str) -> None:
        ctx.page.pop_dialog()
        ctx.actions.choose_theme(choice)
        ctx.phone_known()  # shows the colours; the screen is drawn again if it must be

    choices: list[ft.Control] = [
        ft.Row([toggle(words, key == now, lambda _e, k=key: choose(k))])
        for key, (words, _mode) in THEMES.items()]
    ctx.page.show_dialog(ft.AlertDialog(
        title=ft.Text(COLOURS, size=20),
        content=ft.Column([ft.Text("For this phone only.", size=15), *choices],
                          spacing=10, tight=True, width=280),
        actions=[ft.TextButton("Close", on_click=lambda _e: ctx.page.pop_dialog())],
    ))
