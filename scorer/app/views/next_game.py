"""The finished sheet's way to the table's next game (started with Play again)."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorer.app import CONFIG
from scorer.app.context import AppContext
from scorer.app.theme import RADIUS
from scorer.app.widgets import big_button
from scorer.store.errors import StoreError

STARTED = "Next game started"
LINK = "Next game: open it"


def next_game_part(ctx: AppContext, game_id: str, next_id: str, live: bool,
                   holds: bool) -> ft.Control:
    """On the sheet of finished `game_id`. `live`: the next game was started while
    this phone showed it, so it is announced with a big button until opened; else
    (opened since, Past games, a new session) a plain link. A phone that holds the
    next game opens it to play; a watcher, to watch."""

    def open_next(_e: object) -> None:
        ctx.next_started.discard(game_id)  # read: back here, a link is enough
        ctx.go(f"/game/{next_id}")

    if not live:
        return ft.Row([ft.TextButton(LINK, icon=ft.Icons.ARROW_FORWARD, on_click=open_next,
                                     height=48, style=ft.ButtonStyle(
                                         text_style=ft.TextStyle(size=16,
                                                                 weight=ft.FontWeight.W_600)))])
    on = ft.Colors.ON_TERTIARY_CONTAINER
    what = "open it" if holds else "watch it"
    return ft.Container(
        content=ft.Column([
            ft.Row([ft.Icon(ft.Icons.REPLAY, color=on, size=22),
                    ft.Text(f"{STARTED}: {what}", size=17, expand=True,
                            weight=ft.FontWeight.BOLD, color=on)]),
            ft.Row([big_button("Open next game" if holds else "Watch next game", open_next,
                               icon=ft.Icons.ARROW_FORWARD)]),
        ], spacing=10, tight=True),
        bgcolor=ft.Colors.TERTIARY_CONTAINER, border_radius=ft.BorderRadius.all(RADIUS),
        padding=12,
    )


def night_to_come(ctx: AppContext, game_id: str) -> tuple[str, str] | None:
    """(id, name) of the club night whose table played `game_id`, while the night has a
    round to come: the table's next game is that round's, on the night's page, not a
    game of its own. None for a game of no night, a night played out, a phone alone."""
    if CONFIG.alone:
        return None
    from scorer.app.views.club import club  # a phone alone has no club nights

    actions = club(ctx)
    try:
        event_id = actions.night_of_game(game_id)
        if event_id is None:
            return None
        night = actions.service.get(event_id).night
    except (StoreError, ValueError):
        return None
    return (event_id, night.name) if len(night.played) < night.rounds else None


def night_buttons(ctx: AppContext, event_id: str, name: str,
                  play_again: Callable[[], None]) -> list[ft.Control]:
    """Under a finished club night game: the night's next round first; a game outside
    the night is still a tap away."""
    return [
        ft.Row([big_button("Next round: club night", lambda _e: ctx.go(f"/club/{event_id}"),
                           icon=ft.Icons.ARROW_FORWARD, tooltip=f"The next round of {name}")]),
        ft.Row([ft.TextButton("Play again outside the night", icon=ft.Icons.REPLAY,
                              height=44, on_click=lambda _e: play_again())],
               alignment=ft.MainAxisAlignment.CENTER),
    ]
