"""Past games: who, when, the score and the winner; open, export or delete.

The list comes a page of PAGE_SIZE at a time (`/games?page=2`), so a server
with thousands of games never sends them all to every phone."""

from __future__ import annotations

from typing import Any

import flet as ft

from scorer.app import CONFIG
from scorer.app.context import AppContext
from scorer.app.game_files import export, import_button
from scorer.app.game_lines import players_line, score_line, status_line, when_line
from scorer.app.game_sight import games_private
from scorer.app.theme import RADIUS
from scorer.app.views.common import app_bar, screen
from scorer.app.widgets import big_button
from scorer.store.errors import StoreError
from scorer.store.models import GameSummary

PAGE_SIZE = 20
ONLY_HOLDERS = ("Only a phone that holds this game's table code can delete it. "
                "Open the game and enter its code first.")


def _refuse_delete(ctx: AppContext) -> None:
    ctx.page.show_dialog(ft.AlertDialog(
        title=ft.Text("This phone cannot delete this game"),
        content=ft.Text(ONLY_HOLDERS, size=16),
        actions=[ft.TextButton("OK", on_click=lambda _e: ctx.page.pop_dialog())],
    ))


def _confirm_delete(ctx: AppContext, game: GameSummary) -> None:
    if not ctx.actions.identified:  # the browser has not said which phone this is yet
        ctx.toast("One moment: checking this phone's rights. Tap Delete again.")
        return
    if not ctx.actions.can_edit(game.id):
        _refuse_delete(ctx)
        return

    def delete(_e: object) -> None:
        ctx.page.pop_dialog()
        try:
            ctx.actions.delete_game(game.id)  # checks the rights again
        except StoreError as exc:  # NotAllowed, GameNotFound, a failed write
            ctx.toast(str(exc), error=True)
        ctx.router_refresh()

    ctx.page.show_dialog(ft.AlertDialog(
        title=ft.Text("Delete this game?"),
        content=ft.Text(f"{score_line(game)}, {when_line(game)}. It cannot be brought back.",
                        size=16),
        actions=[ft.TextButton("Keep it", on_click=lambda _e: ctx.page.pop_dialog()),
                 ft.FilledButton("Delete", on_click=delete)],
    ))


CARD_BUTTON_PADDING = ft.Padding.symmetric(horizontal=8)
"""Open, Export and Delete side by side on a 360 px phone (Material's 12 put Delete
on a line of its own)."""


def _card_button(word: str, icon: ft.IconData, game: GameSummary, on_click: Any) -> ft.Control:
    """"Open", "Export", "Delete": spoken with the game's name, as every card has them."""
    return ft.TextButton(
        content=ft.Text(word, size=16,
                        semantics_label=f"{word} {game.teams[0]} vs {game.teams[1]}"),
        icon=icon, on_click=on_click, height=48,
        style=ft.ButtonStyle(padding=CARD_BUTTON_PADDING),
    )


def game_card(ctx: AppContext, game: GameSummary) -> ft.Control:
    """Who, when and the score: two games of the same four differ by their times."""
    lines: list[ft.Control] = [
        ft.Text(when_line(game), size=13, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(score_line(game), size=17, weight=ft.FontWeight.BOLD),
    ]
    players = players_line(game)
    if players is not None:
        lines.append(ft.Text(players, size=14, color=ft.Colors.ON_SURFACE_VARIANT))
    lines.append(ft.Text(status_line(game), size=14))
    return ft.Container(
        content=ft.Column([
            *lines,
            ft.Row([
                _card_button("Open", ft.Icons.OPEN_IN_NEW, game,
                             lambda _e: ctx.go(f"/game/{game.id}")),
                _card_button("Export", ft.Icons.DOWNLOAD, game, lambda _e: export(ctx, game)),
                _card_button("Delete", ft.Icons.DELETE_OUTLINE, game,
                             lambda _e: _confirm_delete(ctx, game)),
            ], spacing=0, wrap=True, alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
        ], spacing=4),
        padding=12, border_radius=ft.BorderRadius.all(RADIUS),
        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
    )


def page_number(text: str | None, pages: int) -> int:
    """The page asked for in the address (1 if it is not a number), within 1..pages."""
    number = int(text) if text and text.isdigit() and len(text) <= 6 else 1
    return min(max(1, number), max(1, pages))


OWN_GAMES = ("Only this phone's games are listed here: those it started, joined with a "
             "table code or opened by their address, and its groups' and club nights' "
             "games. A game started on another phone shows up once its address is opened "
             "here (Share on that phone).")
"""Where games are private (a community): why Past games lists so few."""


def past_games_view(ctx: AppContext, page_text: str | None = None) -> ft.View:
    games = ctx.actions.visible_games()  # on a community: this phone's games only
    pages = -(-len(games) // PAGE_SIZE)
    number = page_number(page_text, pages)
    shown = games[(number - 1) * PAGE_SIZE: number * PAGE_SIZE]
    body: list[ft.Control] = [game_card(ctx, game) for game in shown]
    if not games:
        body.append(ft.Text("No games yet.", size=16))
    if games_private(ctx.store) and not ctx.actions.sight().everything:
        body.append(ft.Text(OWN_GAMES, size=15, color=ft.Colors.ON_SURFACE_VARIANT))
    if pages > 1:
        first = (number - 1) * PAGE_SIZE + 1
        body.append(ft.Text(f"Games {first}–{first + len(shown) - 1} of {len(games)}", size=14,
                            color=ft.Colors.ON_SURFACE_VARIANT))
        turn: list[ft.Control] = []
        if number > 1:
            turn.append(big_button("Newer games", lambda _e: ctx.go(f"/games?page={number - 1}"),
                                   primary=False))
        if number < pages:
            turn.append(big_button("Older games", lambda _e: ctx.go(f"/games?page={number + 1}"),
                                   primary=False))
        body.append(ft.Row(turn, spacing=8))
    body.append(import_button(ctx))
    if not CONFIG.alone:
        # The same words whatever this phone is: the list is not drawn again once the
        # phone's rights are known (the Host screen says if this phone is the host).
        body.append(ft.Row([big_button("Host: the host code", lambda _e: ctx.go("/host"),
                                       icon=ft.Icons.ADMIN_PANEL_SETTINGS, primary=False,
                                       height=48)]))
    route = "/games" if number == 1 else f"/games?page={number}"
    return screen(route, app_bar(ctx, "Past games", back_to="/"), body)
