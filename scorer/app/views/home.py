"""Home: resume the game in progress, start one, past games, rules, run checker."""

from __future__ import annotations

import flet as ft

from scorer.app import CONFIG
from scorer.app.context import AppContext
from scorer.app.views.common import app_bar, screen
from scorer.app.widgets import big_button, notice, suit_label
from scorer.store.models import GameSummary


def in_progress(ctx: AppContext) -> list[GameSummary]:
    return [game for game in ctx.store.list_games() if not game.finished]


SHOWN_NOTICES = 3
"""Store notices shown at most on the home screen (the server's terminal has them all)."""


def store_notices(ctx: AppContext) -> list[str]:
    """The store's problems in player words, without server paths, a few at most."""
    notices = list(ctx.store.notices)
    if len(notices) > SHOWN_NOTICES:
        more = len(notices) - SHOWN_NOTICES + 1
        notices = [*notices[:SHOWN_NOTICES - 1],
                   f"{more} more files could not be read: the server's window lists them."]
    return notices


def home_view(ctx: AppContext) -> ft.View:
    playing = in_progress(ctx)  # first: reading the game list may find a damaged file
    body: list[ft.Control] = [notice(text, error=True) for text in store_notices(ctx)]
    if playing:
        latest = playing[0]
        score = f"{latest.teams[0]} {latest.totals[0]} – {latest.totals[1]} {latest.teams[1]}"
        body.append(ft.Text("Game in progress", size=15, weight=ft.FontWeight.BOLD))
        body.append(ft.Row([big_button(
            f"Resume: {score}", lambda _e, gid=latest.id: ctx.go(f"/game/{gid}"),
            icon=ft.Icons.PLAY_ARROW, height=72,
        )]))
        for other in playing[1:4]:
            label = f"{other.teams[0]} {other.totals[0]} – {other.totals[1]} {other.teams[1]}"
            body.append(ft.Row([big_button(
                label, lambda _e, gid=other.id: ctx.go(f"/game/{gid}"), primary=False,
                icon=ft.Icons.TABLE_RESTAURANT,
            )]))
    body.extend([
        ft.Row([big_button("New game", lambda _e: ctx.go("/new"), icon=ft.Icons.ADD,
                           primary=not playing)]),
        ft.Row([big_button("Past games", lambda _e: ctx.go("/games"), icon=ft.Icons.HISTORY,
                           primary=False)]),
        ft.Row([big_button("Statistics", lambda _e: ctx.go("/stats"), icon=ft.Icons.INSIGHTS,
                           primary=False)]),
        ft.Row([big_button("Rules", lambda _e: ctx.go("/rules"), icon=ft.Icons.MENU_BOOK,
                           primary=False)]),
        ft.Row([big_button("Run checker", lambda _e: ctx.go("/check"), icon=ft.Icons.STYLE,
                           primary=False)]),
        ft.Row([big_button("Card counter", lambda _e: ctx.go("/count"),
                           icon=ft.Icons.CALCULATE, primary=False)]),
        ft.Text("Keeps the score and settles the arguments: every ruling comes with its reason.",
                size=14, color=ft.Colors.ON_SURFACE_VARIANT),
    ])
    if not CONFIG.alone:  # a hall's card night runs on the table server
        body.insert(len(body) - 1, ft.Row([big_button(
            "Club night", lambda _e: ctx.go("/club"), icon=ft.Icons.EMOJI_EVENTS,
            primary=False)]))
    bar = app_bar(ctx, "Tarabish", actions=[
        ft.Row([suit_label(code, ctx.dark, size=22, word=False) for code in "SHDC"], spacing=6),
        ft.Container(width=12),
    ])
    return screen("/", bar, body)
