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
    # No button themes: the phone parses the theme again at every screen switch,
    # and one with a button style never equals its last copy (Flet's parsed
    # styles compare by identity), so every control on show was rebuilt for a
    # "new" theme: a third of what a switch cost the phone (docs/FLET_NOTES.md 7).
    # Buttons keep Material's own shape; the toggles carry their tight padding.
    return ft.Theme(
        color_scheme_seed=ft.Colors.GREEN,
        font_family=SUIT_FONT,
        visual_density=ft.VisualDensity.STANDARD,
        page_transitions=ft.PageTransitionsTheme(
            android=still, ios=still, linux=still, macos=still, windows=still),
    )


def apply_theme(page: ft.Page) -> None:
    page.theme = build_theme(ft.Brightness.LIGHT)
    # Should the rebuilt theme ever differ from its last copy again, an animated
    # theme would redraw every control on screen for 200 ms after each switch
    # (it tripled what a switch cost the phone).
    page.theme_animation_style = ft.AnimationStyle.no_animation()
    page.dark_theme = build_theme(ft.Brightness.DARK)
    page.theme_mode = ft.ThemeMode.SYSTEM


def suit_color(suit: str, dark: bool = False) -> str | None:
    """Hearts and diamonds red; spades and clubs in the text colour."""
    if suit in ("H", "D"):
        return SUIT_RED_DARK if dark else SUIT_RED
    return None
