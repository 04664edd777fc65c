"""Entering a game's table code on a phone that only watches it, or the server's host
code (the host holds every game)."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorer.app import CONFIG
from scorer.app.context import AppContext
from scorer.app.game_view_model import GameModel
from scorer.app.theme import RADIUS
from scorer.app.views.club import club
from scorer.app.views.common import app_bar, message_view, screen
from scorer.app.widgets import big_button, number_pad
from scorer.rights.codes import CODE_DIGITS
from scorer.rights.service import HOST_CODE_DIGITS
from scorer.store.errors import StoreError
from scorer.sync.phone import CodeSent

WATCHING = "Watching: enter the table code to record hands"
CHECKING = "Checking this phone's rights…"
HOST_INTRO = ("The host code is printed where the table server was started (the laptop's "
              "terminal). A phone that enters it holds every game on this server and can show "
              "any game's table code.")
COMMUNITY_HOST_INTRO = ("On this server the host code is the admin code, which only its "
                        "operator has. A phone that enters it holds every game and can show "
                        "any game's table code.")


GAME_INTRO = ("Ask the phone that started the game for its table code (it is in that "
              "phone's Share panel).")
CLUB_INTRO = ("This table plays in a club night: its code is on the table card. No card? "
              "Ask the organiser.")


def at_club(ctx: AppContext, game_id: str) -> bool:
    """The game is a club night table's (its code was printed on the table card)."""
    return not CONFIG.alone and club(ctx).night_of_game(game_id) is not None


class CodeEntry:
    """One box per digit and a number pad; the code is tried when the last digit is in.
    The same pad for every code a phone enters (table, host, organiser, keeper): no
    keyboard, no space to get wrong, and the server reads the code as its digits anyway.

    Only the boxes and the message are redrawn on a key press: the pad stays
    the same control, so quick taps are never lost on a half-redrawn pad.
    """

    def __init__(self, ctx: AppContext, length: int, intro: str,
                 attempt: Callable[[str], None], on_granted: Callable[[], None]) -> None:
        self.ctx = ctx
        self.length = length
        self.attempt = attempt
        """Tries the code on the server; raises a StoreError (WrongCode, TooManyTries...)."""
        self.on_granted = on_granted
        self.digits = ""
        self.error = ""
        # Two rows of boxes (a long code) are a little lower: the pad stays on a
        # 360x640 screen.
        box_height = 56 if length <= CODE_DIGITS else 48
        self.boxes = [
            ft.Container(
                content=ft.Text("", size=26, weight=ft.FontWeight.BOLD),
                width=40, height=box_height, alignment=ft.Alignment.CENTER,
                border_radius=ft.BorderRadius.all(RADIUS),
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
            )
            for _ in range(self.length)
        ]
        # At most six boxes a row: ten (or eight) in one would not fit a phone; the
        # halves are the code as it is shown ("7301 4914").
        per_row = self.length if self.length <= CODE_DIGITS else -(-self.length // 2)
        self.typed = ft.Semantics(content=ft.Column([
            ft.Row(list[ft.Control](self.boxes[start:start + per_row]), spacing=6,
                   alignment=ft.MainAxisAlignment.CENTER)
            for start in range(0, self.length, per_row)], spacing=6, tight=True))
        self.message = ft.Text("", size=15, color=ft.Colors.ERROR, weight=ft.FontWeight.W_600,
                               visible=False)
        self._draw()
        self.column = ft.Column([
            ft.Text(intro, size=15),
            self.typed,
            self.message,
            number_pad(self.press, lambda _e: self.back(), lambda _e: self.clear()),
        ], spacing=12, tight=True)

    def press(self, digit: str) -> None:
        if len(self.digits) < self.length:
            self.digits += digit
            self.error = ""
        if len(self.digits) == self.length:
            self.submit()
            return
        self.render()

    def back(self) -> None:
        self.digits = self.digits[:-1]
        self.render()

    def clear(self) -> None:
        self.digits = ""
        self.render()

    def submit(self) -> None:
        code, self.digits = self.digits, ""
        try:
            self.attempt(code)
        except CodeSent as exc:  # a phone keeping the game: the server's answer redraws it
            self.ctx.page.pop_dialog()
            self.ctx.toast(str(exc))
            return
        except StoreError as exc:  # WrongCode, TooManyTries, NotAllowed, NotKeeper, NeedsNetwork...
            self.error = str(exc)
            self.render()
            return
        self.on_granted()

    def _draw(self) -> None:
        for i, box in enumerate(self.boxes):
            assert isinstance(box.content, ft.Text)
            box.content.value = self.digits[i] if i < len(self.digits) else ""
            box.border = ft.Border.all(2, ft.Colors.PRIMARY if i == len(self.digits)
                                       else ft.Colors.OUTLINE)
        self.typed.label = f"Digits typed: {' '.join(self.digits) or 'none'}"
        self.message.value = self.error
        self.message.visible = bool(self.error)

    def render(self) -> None:
        self._draw()
        if self.column.page is not None:
            self.typed.update()
            self.message.update()


def table_code_entry(ctx: AppContext, game_id: str, on_granted: Callable[[], None], *,
                     host: bool = False) -> CodeEntry:
    """The pad for a game's table code, or (`host`) the server's host code."""
    if host:
        return CodeEntry(ctx, HOST_CODE_DIGITS, host_intro(ctx), ctx.actions.enter_host_code,
                         on_granted)
    intro = CLUB_INTRO if at_club(ctx, game_id) else GAME_INTRO
    return CodeEntry(ctx, CODE_DIGITS, intro,
                     lambda code: ctx.actions.enter_code(game_id, code), on_granted)


def code_dialog(ctx: AppContext, title: str, entry: CodeEntry,
                more: list[ft.Control] | None = None) -> None:
    """A code's pad as a dialog over the screen (`more`: buttons before Cancel)."""
    ctx.page.show_dialog(ft.AlertDialog(
        title=ft.Text(title, size=20),
        content=ft.Container(content=entry.column, width=320),
        content_padding=ft.Padding.only(left=16, right=16, top=12, bottom=0),
        scrollable=True,
        actions=[*(more or []),
                 ft.TextButton("Cancel", on_click=lambda _e: ctx.page.pop_dialog())],
    ))


def show_code_entry(ctx: AppContext, game_id: str) -> None:
    """The table code's entry as a dialog over the sheet."""

    def granted() -> None:
        ctx.page.pop_dialog()
        ctx.toast("This phone can now record hands.")
        ctx.router_refresh()

    code_dialog(ctx, "Enter the table code", table_code_entry(ctx, game_id, granted),
                [ft.TextButton("I am the host", on_click=lambda _e: _to_host(ctx))])


def _to_host(ctx: AppContext) -> None:
    ctx.page.pop_dialog()
    ctx.go("/host")


def host_intro(ctx: AppContext) -> str:
    """Where the host code comes from: a laptop's terminal, or a community's operator."""
    return COMMUNITY_HOST_INTRO if ctx.actions.rights.community else HOST_INTRO


def host_view(ctx: AppContext) -> ft.View:
    """The host code: the person who started the server holds every game from here."""
    route = "/host"
    bar = app_bar(ctx, "Host", back_to="/games")
    if not ctx.actions.identified:
        return message_view(ctx, route, "One moment", CHECKING)
    if ctx.actions.is_host:
        return screen(route, bar, [
            ft.Text("This phone is the host.", size=18, weight=ft.FontWeight.W_600),
            ft.Text("It may record, edit, undo and delete in every game on this server, and "
                    "each game's Share panel shows its table code, to hand a table its code or "
                    "to take over a game whose phone died.", size=15),
            ft.Row([big_button("Past games", lambda _e: ctx.go("/games"),
                               icon=ft.Icons.HISTORY)]),
        ])

    def granted() -> None:
        ctx.toast("This phone is now the host: it holds every game.")
        ctx.router_refresh()

    entry = table_code_entry(ctx, "", granted, host=True)
    return screen(route, bar, [
        ft.Text("Enter the host code", size=18, weight=ft.FontWeight.W_600),
        entry.column,
    ])


def watcher_banner(ctx: AppContext, model: GameModel) -> ft.Control:
    """Pinned where Record hand would be: what this phone can do, and the way in."""
    text = WATCHING
    button = big_button("Enter table code", lambda _e: show_code_entry(ctx, model.id),
                        icon=ft.Icons.DIALPAD, height=52)
    return ft.Container(
        content=ft.Column([
            ft.Row([ft.Icon(ft.Icons.VISIBILITY, color=ft.Colors.ON_SECONDARY_CONTAINER),
                    ft.Text(text, size=15, expand=True, weight=ft.FontWeight.W_600,
                            color=ft.Colors.ON_SECONDARY_CONTAINER)], spacing=10),
            ft.Row([button]),
        ], spacing=8, tight=True),
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        border_radius=ft.BorderRadius.all(RADIUS),
        padding=12,
    )


def locked_view(ctx: AppContext, route: str, game_id: str) -> ft.View:
    """A screen that needs edit rights, opened on a phone without them."""
    if not ctx.actions.identified:
        return message_view(ctx, route, "One moment", CHECKING)
    entry = table_code_entry(ctx, game_id, ctx.router_refresh)
    bar = app_bar(ctx, "Enter the table code", back_to=f"/game/{game_id}")
    return screen(route, bar, [
        ft.Text(WATCHING + ".", size=17, weight=ft.FontWeight.W_600),
        entry.column,
    ])
