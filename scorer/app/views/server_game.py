"""A server's game opened in the app (`CONFIG.server_game`) that this phone does not
keep: one line saying where the game lives, and the server's own page of it."""

from __future__ import annotations

import flet as ft

from scorer.app.context import AppContext
from scorer.app.theme import TAP
from scorer.app.views.common import app_bar, screen

LIVES_ON_SERVER = "This game lives on the server: open it there to see it and record hands."
OPEN_ON_SERVER = "Open it on the server"


def drawn_page(game_id: str) -> str:
    """The server's own page of the game (documented: `/game/<id>?drawn=1`)."""
    return f"/game/{game_id}?drawn=1"


def server_game_view(ctx: AppContext, game_id: str) -> ft.View:
    """The game's place: a line and a button to the server's page of it (same tab)."""
    button = ft.FilledButton(
        content=ft.Text(OPEN_ON_SERVER, size=18, weight=ft.FontWeight.W_600),
        icon=ft.Icons.ARROW_FORWARD, url=ft.Url(drawn_page(game_id), ft.UrlTarget.SELF),
        height=TAP, expand=True)
    return screen(f"/game/{game_id}", app_bar(ctx, "Game", back_to="/"), [
        ft.Text(LIVES_ON_SERVER, size=17),
        ft.Row([button]),
    ])
