"""Colours, sizes and the theme: one place for how the table app looks."""

from __future__ import annotations

import flet as ft

from scorer.app import SUIT_FONT

TAP = 56
"""Height of the main tap targets (comfortably over the 48 px minimum)."""
SMALL_TAP = 48
GAP = 12
PAD = 16
RADIUS = 14
SUIT_RED = ft.Colors.RED_700
SUIT_RED_DARK = ft.Colors.RED_300
MADE = ft.Colors.GREEN_700
BAIT = ft.Colors.RED_700
FELT = ft.Colors.GREEN_800


def build_theme(mode: ft.Brightness) -> ft.Theme:
    """Material 3 with a card-table green, and a font that draws ♠ ♥ ♦ ♣."""
    # No page transitions: a screen that slides in while a thumb is already
    # tapping sends the tap to the wrong button.
    still = ft.PageTransitionTheme.NONE
    shape = ft.RoundedRectangleBorder(radius=RADIUS)
    # Button shapes (and the outlined toggles' tight padding) live in the theme:
    # a style on each of a screen's 30 buttons was a third of what a screen
    # switch sent, and each one is read again by the phone.
    return ft.Theme(
        outlined_button_theme=ft.OutlinedButtonTheme(style=ft.ButtonStyle(
            shape=shape, padding=ft.Padding.symmetric(horizontal=6, vertical=4))),
        filled_button_theme=ft.FilledButtonTheme(style=ft.ButtonStyle(shape=shape)),
        text_button_theme=ft.TextButtonTheme(style=ft.ButtonStyle(shape=shape)),
        color_scheme_seed=ft.Colors.GREEN,
        font_family=SUIT_FONT,
        visual_density=ft.VisualDensity.STANDARD,
        page_transitions=ft.PageTransitionsTheme(
            android=still, ios=still, linux=still, macos=still, windows=still),
    )


def apply_theme(page: ft.Page) -> None:
    page.theme = build_theme(ft.Brightness.LIGHT)
    # The phone rebuilds the theme whenever the page changes (every screen
    # switch), and a theme with button styles never equals its rebuilt copy:
    # an animated theme then redrew every control on screen for 200 ms after
    # each switch, which tripled what a switch cost the phone.
    page.theme_animation_style = ft.AnimationStyle.no_animation()
    page.dark_theme = build_theme(ft.Brightness.DARK)
    page.theme_mode = ft.ThemeMode.SYSTEM


def suit_color(suit: str, dark: bool = False) -> str | None:
    """Hearts and diamonds red; spades and clubs in the text colour."""
    if suit in ("H", "D"):
        return SUIT_RED_DARK if dark else SUIT_RED
    return None
