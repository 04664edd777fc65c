"""Page function of the table app (placeholder until the real screens land)."""

from __future__ import annotations

import flet as ft

from scorer.app import FONTS, SUIT_FONT

SUITS: list[tuple[str, str, str | None]] = [
    # symbol, spoken name (semantics label), colour (None: theme's text colour)
    ("♠", "spades", None),
    ("♥", "hearts", ft.Colors.RED_700),
    ("♦", "diamonds", ft.Colors.RED_700),
    ("♣", "clubs", None),
]


def main(page: ft.Page) -> None:
    """Build the first screen for one browser session."""
    page.title = "Tarabish"
    page.fonts = FONTS
    page.theme_mode = ft.ThemeMode.SYSTEM

    def new_game(e: ft.Event[ft.Button]) -> None:
        status.value = "New game started"
        status.update()

    status = ft.Text("", key="status")
    page.add(
        ft.SafeArea(
            content=ft.Column(
                controls=[
                    ft.Text("Tarabish", size=32, weight=ft.FontWeight.BOLD),
                    ft.Row(
                        controls=[
                            ft.Text(
                                symbol,
                                size=40,
                                color=color,
                                font_family=SUIT_FONT,
                                semantics_label=name,
                            )
                            for symbol, name, color in SUITS
                        ],
                        spacing=16,
                    ),
                    ft.Button("New game", icon=ft.Icons.ADD, on_click=new_game),
                    status,
                ],
                spacing=16,
            ),
        )
    )
