"""Home: continue the game in progress, start one, past games, rules, run checker."""

from __future__ import annotations

import flet as ft

from scorer.app import CONFIG
from scorer.app.context import AppContext
from scorer.app.game_lines import score_line, status_line, when_line
from scorer.app.theme import RADIUS, TAP
from scorer.app.views.common import app_bar, screen
from scorer.app.views.screen_colours import colours_button
from scorer.app.widgets import big_button, notice, suit_label
from scorer.store.models import GameSummary

SHOWN_NOTICES = 3
"""Store notices shown at most on the home screen (the server's terminal has them all)."""
CONTINUE = "Continue"


def store_notices(ctx: AppContext) -> list[str]:
    """The store's problems in player words, without server paths, a few at most."""
    notices = list(ctx.store.notices)
    if len(notices) > SHOWN_NOTICES:
        more = len(notices) - SHOWN_NOTICES + 1
        notices = [*notices[:SHOWN_NOTICES - 1],
                   f"{more} more files could not be read: the server's window lists them."]
    return notices


def continue_card(ctx: AppContext, game: GameSummary) -> ft.Control:
    """The way back to the game this phone was at: the whole card is one big tap."""
    on = ft.Colors.ON_PRIMARY_CONTAINER
    return ft.Container(
        content=ft.Row([
            ft.Icon(ft.Icons.PLAY_ARROW, size=40, color=on),
            ft.Column([
                ft.Text(CONTINUE, size=20, weight=ft.FontWeight.BOLD, color=on),
                ft.Text(score_line(game), size=17, weight=ft.FontWeight.W_600, color=on),
                ft.Text(f"{status_line(game)}\n{when_line(game)}", size=13, color=on),
            ], spacing=2, expand=True),
        ], spacing=12),
        on_click=lambda _e: ctx.go(f"/game/{game.id}"), ink=True,
        bgcolor=ft.Colors.PRIMARY_CONTAINER, border_radius=ft.BorderRadius.all(RADIUS),
        padding=ft.Padding.symmetric(horizontal=12, vertical=14),
    )


PHONE_SITE_LABEL = "Keep games on this phone"
"""The link to the phone-alone site (works offline; games are sent here later)."""


def home_view(ctx: AppContext) -> ft.View:
    game = ctx.actions.game_to_continue()  # first: reading the games may find a damaged file
    ctx.continued = game.id if game else None
    body: list[ft.Control] = [notice(text, error=True) for text in store_notices(ctx)]
    if game is not None:
        body.append(continue_card(ctx, game))
    body.extend([
        ft.Row([big_button("New game", lambda _e: ctx.go("/new"), icon=ft.Icons.ADD,
                           primary=game is None)]),
        ft.Row([big_button("Past games", lambda _e: ctx.go("/games"), icon=ft.Icons.HISTORY,
                           primary=False)]),
        ft.Row([big_button("Statistics", lambda _e: ctx.go("/stats"), icon=ft.Icons.INSIGHTS,
                           primary=False)]),
        leaderboard := ft.Row([big_button("Leaderboard", lambda _e: ctx.go("/ratings"),
                                          icon=ft.Icons.LEADERBOARD, primary=False)]),
        ft.Row([big_button("Rules", lambda _e: ctx.go("/rules"), icon=ft.Icons.MENU_BOOK,
                           primary=False)]),
        ft.Row([big_button("Run checker", lambda _e: ctx.go("/check"), icon=ft.Icons.STYLE,
                           primary=False)]),
        ft.Row([big_button("Card counter", lambda _e: ctx.go("/count"),
                           icon=ft.Icons.CALCULATE, primary=False)]),
        ft.Text("Keeps the score and settles the arguments: every ruling comes with its reason.",
                size=14, color=ft.Colors.ON_SURFACE_VARIANT),
    ])
    if not CONFIG.alone:  # a hall's card night and the groups live on the table server
        body.insert(len(body) - 1, ft.Row([big_button(
            "Club night", lambda _e: ctx.go("/club"), icon=ft.Icons.EMOJI_EVENTS,
            primary=False)]))
        body.insert(body.index(leaderboard) + 1, ft.Row([big_button(
            "Groups", lambda _e: ctx.go("/groups"), icon=ft.Icons.GROUPS, primary=False)]))
    if CONFIG.phone_site and not CONFIG.alone:  # this server also serves the phone-alone site
        body.insert(len(body) - 1, ft.Row([ft.OutlinedButton(
            content=ft.Text(PHONE_SITE_LABEL, size=18, weight=ft.FontWeight.W_600),
            icon=ft.Icons.PHONE_ANDROID, url=ft.Url(CONFIG.phone_site, ft.UrlTarget.SELF),
            height=TAP, expand=True)]))
    bar = app_bar(ctx, "Tarabish", actions=[
        ft.Row([suit_label(code, size=22, word=False) for code in "SHDC"], spacing=6),
        colours_button(ctx),
        ft.Container(width=4),
    ])
    return screen("/", bar, body)
