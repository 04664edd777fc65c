"""Colours, sizes and the theme: one place for how the table app looks."""

from __future__ import annotations

import flet as ft
from pydantic import BaseModel, ConfigDict

from scorer.app import SUIT_FONT

TAP = 56
"""Height of the main tap targets (comfortably over the 48 px minimum)."""
SMALL_TAP = 48
GAP = 12
PAD = 16
RADIUS = 14
# The suits' red is a role of the scheme (tertiary, which no widget the app uses
# draws with), so the phone recolours it itself when it turns dark or light: no
# screen is drawn again and no form loses what was typed. RED_800 in light (RED_700
# was 4.05:1 on a toggle's grey), RED_300 in dark.
SUIT_RED = ft.Colors.TERTIARY
# White words sit on these: GREEN_700 gave them 4.1:1, under the 4.5 a phone at
# arm's length needs.
MADE = ft.Colors.GREEN_800
BAIT = ft.Colors.RED_700
FELT = ft.Colors.GREEN_800
SEED = ft.Colors.GREEN

# The roles of Material's colour scheme the app draws with, as Flutter's
# ColorScheme.fromSeed(GREEN) makes them (tonal spot, 2021 spec; checked against
# screenshot pixels). build_theme pins them, so these are what phones show and
# what tests/app/test_contrast.py measures.
LIGHT_ROLES: dict[str, str] = {
    "primary": "#3B6939", "on_primary": "#FFFFFF",
    "primary_container": "#BCF0B4", "on_primary_container": "#235024",
    "tertiary": "#C62828",
    "secondary_container": "#D5E8CF", "on_secondary_container": "#3B4B38",
    "tertiary_container": "#BCEBF0", "on_tertiary_container": "#1F4D52",
    "error": "#BA1A1A", "on_error": "#FFFFFF",
    "error_container": "#FFDAD6", "on_error_container": "#93000A",
    "surface": "#F7FBF1", "on_surface": "#191D17", "on_surface_variant": "#424940",
    "surface_container_low": "#F1F5EC", "surface_container": "#ECEFE6",
    "surface_container_high": "#E6E9E0", "surface_container_highest": "#E0E4DB",
    "outline": "#72796F", "inverse_surface": "#2D322C", "on_inverse_surface": "#EFF2E9",
}
DARK_ROLES: dict[str, str] = {
    "primary": "#A1D39A", "on_primary": "#0A390F",
    "primary_container": "#235024", "on_primary_container": "#BCF0B4",
    "tertiary": "#E57373",
    "secondary_container": "#3B4B38", "on_secondary_container": "#D5E8CF",
    "tertiary_container": "#1F4D52", "on_tertiary_container": "#BCEBF0",
    "error": "#FFB4AB", "on_error": "#690005",
    "error_container": "#93000A", "on_error_container": "#FFDAD6",
    "surface": "#10140F", "on_surface": "#E0E4DB", "on_surface_variant": "#C2C9BD",
    "surface_container_low": "#191D17", "surface_container": "#1D211B",
    "surface_container_high": "#272B25", "surface_container_highest": "#323630",
    "outline": "#8C9388", "inverse_surface": "#E0E4DB", "on_inverse_surface": "#2D322C",
}
# Fixed colours (Flutter's Colors palette): the same in light and dark. A colour
# that must differ between the two is a role of the scheme, never chosen in Python.
PALETTE: dict[str, str] = {
    ft.Colors.WHITE: "#FFFFFF", ft.Colors.RED_700: "#D32F2F", ft.Colors.RED_800: "#C62828",
    ft.Colors.RED_300: "#E57373",
    ft.Colors.GREEN_800: "#2E7D32", ft.Colors.DEEP_ORANGE_900: "#BF360C",
    ft.Colors.PURPLE_700: "#7B1FA2", ft.Colors.BROWN_600: "#6D4C41",
    ft.Colors.GREY_700: "#616161", ft.Colors.BLUE_GREY_700: "#455A64",
    ft.Colors.TEAL_700: "#00796B", ft.Colors.BLUE_700: "#1976D2",
    ft.Colors.ORANGE_900: "#E65100",
}


class Pair(BaseModel):
    """Words in `fg` on `bg` (a role of the scheme or a palette colour); `large`
    words (24 px and up, or 18.7 bold) need 3:1, the rest 4.5:1."""

    model_config = ConfigDict(frozen=True)
    fg: str
    bg: str
    large: bool = False


TEXT = ft.Colors.ON_SURFACE
"""What a Text with no colour of its own is drawn in."""
ERROR_BAR = Pair(fg=ft.Colors.ON_ERROR_CONTAINER, bg=ft.Colors.ERROR_CONTAINER)
INFO_BAR = Pair(fg=ft.Colors.ON_SECONDARY_CONTAINER, bg=ft.Colors.SECONDARY_CONTAINER)
CHOSEN = Pair(fg=ft.Colors.ON_PRIMARY, bg=ft.Colors.PRIMARY)
"""A chosen toggle, and everything on it (a suit too)."""
TOAST = Pair(fg=ft.Colors.ON_INVERSE_SURFACE, bg=ft.Colors.INVERSE_SURFACE)
TAG_INK = ft.Colors.WHITE
"""The words on a sheet tag and on a made / bait ruling."""
HALF_BAIT = ft.Colors.DEEP_ORANGE_900
TEAM_LINES = (ft.Colors.BLUE_700, ft.Colors.ORANGE_900)
"""The teams' lines on the race and rating charts, the same in light and dark."""

SUIT_GROUNDS = (ft.Colors.SURFACE, ft.Colors.SURFACE_CONTAINER_LOW,
                ft.Colors.SURFACE_CONTAINER_HIGH)
"""Where a red suit is drawn: the screen, cards and unchosen toggles."""

# Every pair of words and ground the app draws: the contrast test enumerates these.
PAIRS: dict[str, Pair] = {
    "error bar": ERROR_BAR,
    "notice": INFO_BAR,
    "snack bar": TOAST,
    "screen text": Pair(fg=TEXT, bg=ft.Colors.SURFACE),
    "muted text": Pair(fg=ft.Colors.ON_SURFACE_VARIANT, bg=ft.Colors.SURFACE),
    "primary text": Pair(fg=ft.Colors.PRIMARY, bg=ft.Colors.SURFACE),
    "error text": Pair(fg=ft.Colors.ERROR, bg=ft.Colors.SURFACE),
    **{f"{fg_name} on {bg}": Pair(fg=fg, bg=bg)
       for bg in (ft.Colors.SURFACE_CONTAINER_LOW, ft.Colors.SURFACE_CONTAINER_HIGH,
                  ft.Colors.SURFACE_CONTAINER_HIGHEST)
       for fg_name, fg in (("text", TEXT), ("muted", ft.Colors.ON_SURFACE_VARIANT),
                           ("primary", ft.Colors.PRIMARY))},
    "error text on a low card": Pair(fg=ft.Colors.ERROR, bg=ft.Colors.SURFACE_CONTAINER_LOW),
    "problem row": Pair(fg=ft.Colors.ERROR, bg=ft.Colors.ERROR_CONTAINER),
    "problem row title": Pair(fg=TEXT, bg=ft.Colors.ERROR_CONTAINER),
    "highlighted card": Pair(fg=TEXT, bg=ft.Colors.PRIMARY_CONTAINER),
    "highlighted muted": Pair(fg=ft.Colors.ON_SURFACE_VARIANT, bg=ft.Colors.PRIMARY_CONTAINER),
    "continue card": Pair(fg=ft.Colors.ON_PRIMARY_CONTAINER, bg=ft.Colors.PRIMARY_CONTAINER),
    "summary": Pair(fg=TEXT, bg=ft.Colors.SECONDARY_CONTAINER),
    "summary muted": Pair(fg=ft.Colors.ON_SURFACE_VARIANT, bg=ft.Colors.SECONDARY_CONTAINER),
    "changed note": Pair(fg=ft.Colors.ON_TERTIARY_CONTAINER, bg=ft.Colors.TERTIARY_CONTAINER),
    "chosen toggle": CHOSEN,
    "disabled chosen toggle": Pair(fg=ft.Colors.ON_SURFACE_VARIANT,
                                   bg=ft.Colors.SURFACE_CONTAINER_HIGHEST),
    "run too high": Pair(fg=ft.Colors.ON_ERROR, bg=ft.Colors.ERROR),
    "made": Pair(fg=TAG_INK, bg=MADE),
    "bait": Pair(fg=TAG_INK, bg=BAIT),
    "felt": Pair(fg=ft.Colors.WHITE, bg=FELT),
    **{f"red suit on {bg}": Pair(fg=SUIT_RED, bg=bg) for bg in SUIT_GROUNDS},
    # A chart's line is a graphic: 3:1 on the screen and on a low card.
    **{f"team line {line} on {bg}": Pair(fg=line, bg=bg, large=True)
       for line in TEAM_LINES for bg in (ft.Colors.SURFACE, ft.Colors.SURFACE_CONTAINER_LOW)},
    "QR words": Pair(fg=ft.Colors.ON_PRIMARY_CONTAINER, bg=ft.Colors.PRIMARY_CONTAINER),
    **{f"{tag} tag": Pair(fg=TAG_INK, bg=bg) for tag, bg in (
        ("half-bait", HALF_BAIT), ("misplay", ft.Colors.PURPLE_700),
        ("thrown", ft.Colors.BROWN_600), ("passed", ft.Colors.GREY_700),
        ("edited", ft.Colors.BLUE_GREY_700), ("run", ft.Colors.TEAL_700))},
}


def hex_of(colour: str, dark: bool) -> str:
    """The #RRGGBB a phone draws for a role of the scheme or a palette colour."""
    if colour in PALETTE:
        return PALETTE[colour]
    roles = DARK_ROLES if dark else LIGHT_ROLES
    for role, value in roles.items():
        if role.replace("_", "") == colour:
            return value
    raise KeyError(f"no hex for colour {colour!r}: add it to theme.py")


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
    roles = DARK_ROLES if mode == ft.Brightness.DARK else LIGHT_ROLES
    return ft.Theme(
        color_scheme_seed=SEED,
        # The seed's own values, pinned: the contrast test measures these.
        color_scheme=ft.ColorScheme(**roles),
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


def suit_color(suit: str) -> str | None:
    """Hearts and diamonds red; spades and clubs in the text colour."""
    return SUIT_RED if suit in ("H", "D") else None
