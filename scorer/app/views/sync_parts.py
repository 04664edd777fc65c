"""What the sheet shows of a phone that keeps a server's game itself (`CONFIG.phone_sync`):
one calm line while it records alone, the small mark on a hand not sent yet, a hand
another phone also recorded (choose), and why a waiting change was refused."""

from __future__ import annotations

import flet as ft

from scorer.app import CONFIG
from scorer.app.context import AppContext
from scorer.app.phone_sync import NOT_SENT, alone_line
from scorer.app.theme import RADIUS
from scorer.app.views.kept import Kept
from scorer.app.widgets import big_button, notice

CHOOSE = "Choose"


def unsent_hands(game_id: str) -> frozenset[int]:
    """The game's hands the server does not have yet (none on a server's own page)."""
    sync = CONFIG.phone_sync
    return frozenset() if sync is None else sync.unsent(game_id)


def not_sent_mark() -> ft.Control:
    """The small mark on a hand not sent yet: quiet, never a dialog."""
    return ft.Container(
        content=ft.Text(NOT_SENT, size=12, color=ft.Colors.ON_SURFACE_VARIANT),
        border=ft.Border.all(1, ft.Colors.OUTLINE), border_radius=6,
        padding=ft.Padding.symmetric(horizontal=6, vertical=1),
        tooltip="Saved on this phone; the table server does not have it yet",
    )


def sync_parts(ctx: AppContext, game_id: str, kept: Kept) -> list[ft.Control]:
    """The parts above the totals, when there is something to say."""
    sync = CONFIG.phone_sync
    if sync is None or not sync.synced(game_id):
        return []
    parts: list[ft.Control] = []
    line = alone_line(sync.line())
    if line is not None:
        parts.append(kept.part("sync-line", line, lambda: calm_line(line)))
    clash = sync.clash(game_id)
    if clash is not None:
        n = clash.situation.number
        parts.append(kept.part("sync-clash", n, lambda: clash_banner(ctx, game_id, n)))
    words = tuple(n.words for n in sync.notices(game_id))
    if words:
        parts.append(kept.part("sync-notices", words,
                               lambda: sync_notices(ctx, game_id, words)))
    return parts


def calm_line(text: str) -> ft.Control:
    """One line, no alarm: the phone goes on recording."""
    return ft.Row([ft.Icon(ft.Icons.PHONE_ANDROID, size=18, color=ft.Colors.ON_SURFACE_VARIANT),
                   ft.Text(text, size=14, expand=True, color=ft.Colors.ON_SURFACE_VARIANT)],
                  spacing=8, vertical_alignment=ft.CrossAxisAlignment.START)


def clash_banner(ctx: AppContext, game_id: str, number: int) -> ft.Control:
    return ft.Column([
        notice(f"Another phone saved hand {number} too, differently. Choose which one "
               "the table played before recording more.", error=True,
               icon=ft.Icons.COMPARE_ARROWS),
        ft.Row([big_button(f"{CHOOSE} hand {number}",
                           lambda _e: ctx.go(f"/game/{game_id}/clash"),
                           icon=ft.Icons.COMPARE_ARROWS, height=48)]),
    ], spacing=8, tight=True)


def sync_notices(ctx: AppContext, game_id: str, words: tuple[str, ...]) -> ft.Control:
    """What became of changes this phone made (already recorded, refused and why)."""

    def read(_e: object) -> None:
        sync = CONFIG.phone_sync
        if sync is not None:
            sync.dismiss(game_id)
        ctx.router_refresh()

    return ft.Container(
        content=ft.Column([
            *(ft.Row([ft.Icon(ft.Icons.INFO, color=ft.Colors.ON_TERTIARY_CONTAINER, size=20),
                      ft.Text(text, size=15, expand=True, weight=ft.FontWeight.W_600,
                              color=ft.Colors.ON_TERTIARY_CONTAINER)],
                     vertical_alignment=ft.CrossAxisAlignment.START) for text in words),
            ft.Row([ft.FilledButton("OK, read", icon=ft.Icons.CHECK, on_click=read,
                                    height=48)], alignment=ft.MainAxisAlignment.END),
        ], spacing=8, tight=True),
        bgcolor=ft.Colors.TERTIARY_CONTAINER, border_radius=ft.BorderRadius.all(RADIUS),
        padding=12,
    )
