"""Small building blocks shared by the screens: big buttons, toggles, the table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import flet as ft

from scorer.app.theme import CHOSEN, ERROR_BAR, GAP, INFO_BAR, RADIUS, SMALL_TAP, TAP, suit_color

Handler = Callable[[Any], None] | Callable[[Any], Awaitable[None]]
"""A tap's handler: Flet awaits an async one (Save waits for the phone: `app.unsaved`)."""

SUIT_WORDS = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs", "NT": "No trump"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "NT"}


def big_button(
    label: str,
    on_click: Handler | None,
    *,
    icon: ft.IconData | None = None,
    primary: bool = True,
    disabled: bool = False,
    tooltip: str | None = None,
    height: int = TAP,
) -> ft.Control:
    """A full-width button a thumb cannot miss."""
    kind = ft.FilledButton if primary else ft.OutlinedButton
    return kind(
        content=ft.Text(label, size=18, weight=ft.FontWeight.W_600),
        icon=icon,
        on_click=on_click,
        disabled=disabled,
        tooltip=tooltip,
        height=height,
        expand=True,
    )


class Keep:
    """The tappable controls of one screen, reused from one redraw to the next.

    Flet forgets a control the moment a redraw replaces it, so a tap that was
    already on its way (a quick thumb, slow table Wi-Fi) would be lost. A kept
    control keeps its identity; a redraw only changes what it shows.
    """

    def __init__(self) -> None:
        self._made: dict[str, ft.Control] = {}

    def control(
        self, key: str, make: Callable[[], ft.Control], props: dict[str, Any]
    ) -> ft.Control:
        found = self._made.get(key)
        if found is None:
            found = self._made[key] = make()
        else:
            for name, value in props.items():
                setattr(found, name, value)
        return found

    def get(self, key: str) -> ft.Control | None:
        """The control kept under `key`, if one was made."""
        return self._made.get(key)


TOGGLE_PADDING = (6, 4)
"""A toggle's padding across and down: four names fit in a row on a phone."""


def toggle_style(selected: bool) -> ft.ButtonStyle:
    """Filled when chosen, outlined otherwise (one button class for both, so a
    kept toggle can change state in place). Each toggle carries its tight
    padding: in the page's theme it would make the phone rebuild every control
    on show at each screen switch (`scorer.app.theme.build_theme`)."""
    padding = ft.Padding.symmetric(horizontal=TOGGLE_PADDING[0], vertical=TOGGLE_PADDING[1])
    if not selected:
        return ft.ButtonStyle(padding=padding)
    return ft.ButtonStyle(
        bgcolor={ft.ControlState.DISABLED: ft.Colors.SURFACE_CONTAINER_HIGHEST,
                 ft.ControlState.DEFAULT: CHOSEN.bg},
        color={ft.ControlState.DISABLED: ft.Colors.ON_SURFACE_VARIANT,
               ft.ControlState.DEFAULT: CHOSEN.fg},
        elevation=0,
        padding=padding,
    )


def toggle(
    content: str | ft.Control,
    selected: bool,
    on_click: Handler | None,
    *,
    disabled: bool = False,
    tooltip: str | None = None,
    height: int = TAP,
    expand: bool | int = True,
    width: float | None = None,
    spoken: str | None = None,
    keep: Keep | None = None,
    key: str | None = None,
) -> ft.Control:
    """A choice button: filled when chosen, outlined otherwise.

    `spoken` names it for screen readers (and tests) where several buttons on a
    screen show the same word, e.g. "Ann called" and "Ann has bella". With
    `keep` and `key` the same button is reused by every redraw of the screen.
    """
    body = ft.Text(content, size=17, weight=ft.FontWeight.W_600, text_align=ft.TextAlign.CENTER,
                   max_lines=1, overflow=ft.TextOverflow.ELLIPSIS,
                   semantics_label=spoken) if isinstance(content, str) else content
    props: dict[str, Any] = {
        "content": body, "on_click": on_click, "disabled": disabled, "tooltip": tooltip,
        "height": height, "width": width, "expand": expand, "style": toggle_style(selected),
    }
    if keep is not None and key is not None:
        return keep.control(key, lambda: ft.OutlinedButton(**props), props)
    return ft.OutlinedButton(**props)


def suit_label(code: str, size: int = 26, word: bool = True,
               chosen: bool = False) -> ft.Control:
    """♥ with 'Hearts' under it (one text: a screen switch builds fewer
    controls); red for hearts and diamonds, except on a `chosen` toggle, whose
    green ground leaves a red suit unreadable (1.3:1): there in the toggle's ink."""
    symbol_size = size if code != "NT" else size * 0.7
    colour = CHOSEN.fg if chosen else suit_color(code)
    if not word:
        return ft.Text(SUIT_SYMBOLS[code], size=symbol_size, color=colour,
                       weight=ft.FontWeight.BOLD, semantics_label=SUIT_WORDS[code].lower())
    return ft.Text(spans=[
        ft.TextSpan(SUIT_SYMBOLS[code], style=ft.TextStyle(
            size=symbol_size, color=colour, weight=ft.FontWeight.BOLD)),
        ft.TextSpan(f"\n{SUIT_WORDS[code]}", style=ft.TextStyle(size=11)),
    ], text_align=ft.TextAlign.CENTER)


SECTION_SPACING = 8


def section_controls(title: str, *controls: ft.Control, note: str | None = None
                     ) -> list[ft.Control]:
    """A section's title (and note) over its controls, for a column of one's own
    with `SECTION_SPACING`."""
    head: list[ft.Control] = [ft.Text(title, size=15, weight=ft.FontWeight.BOLD,
                                      color=ft.Colors.PRIMARY)]
    if note:
        head.append(ft.Text(note, size=13, color=ft.Colors.ON_SURFACE_VARIANT))
    return [*head, *controls]


def section(title: str, *controls: ft.Control, note: str | None = None) -> ft.Control:
    """A titled group of controls on a screen."""
    return ft.Column(section_controls(title, *controls, note=note), spacing=SECTION_SPACING)


END_SEAT_WIDTH = 140
"""Width of the top and bottom seats; the side seats share what the table leaves."""


def table_layout(seats: Mapping[int, ft.Control], center: ft.Control) -> ft.Control:
    """Seats drawn around a table: seat 0 at the bottom, then clockwise
    left (1), top (2), right (3), so partners sit opposite each other.

    The side seats stretch (give them `expand=True` and no width), so the
    picture fits any phone from 360 px up without measuring the screen."""
    return ft.Column(
        [
            ft.Row([seats[2]], alignment=ft.MainAxisAlignment.CENTER),
            ft.Row(
                [seats[1], center, seats[3]],
                spacing=8,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            ft.Row([seats[0]], alignment=ft.MainAxisAlignment.CENTER),
        ],
        spacing=GAP,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
    )


def felt(*lines: str, width: int = 110, height: int = 96) -> ft.Control:
    """The green table in the middle of a seating picture."""
    return ft.Container(
        content=ft.Text("\n".join(lines), size=12, color=ft.Colors.WHITE,
                        text_align=ft.TextAlign.CENTER, max_lines=2 * len(lines),
                        overflow=ft.TextOverflow.ELLIPSIS),
        width=width,
        height=height,
        bgcolor=ft.Colors.GREEN_800,
        border_radius=ft.BorderRadius.all(RADIUS),
        alignment=ft.Alignment.CENTER,
        padding=6,
    )


def number_pad(
    on_digit: Callable[[str], None], on_back: Handler, on_clear: Handler,
    keep: Keep | None = None, key_height: int = TAP,
) -> ft.Control:
    """Digits 0-9, clear and backspace, in big keys (kept across redraws with `keep`)."""

    def key(label: str, handler: Handler, tooltip: str | None = None) -> ft.Control:
        props: dict[str, Any] = {"on_click": handler, "tooltip": tooltip}

        def make() -> ft.Control:
            return ft.OutlinedButton(
                content=ft.Text(label, size=24, weight=ft.FontWeight.W_600),
                height=key_height, expand=True, **props,
            )

        return keep.control(f"pad-{label}", make, props) if keep is not None else make()

    def digit(d: str) -> ft.Control:
        return key(d, lambda _e: on_digit(d))

    rows = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"]]
    grid: list[ft.Control] = [ft.Row([digit(d) for d in row], spacing=8) for row in rows]
    grid.append(ft.Row([key("C", on_clear, "Clear"), digit("0"), key("⌫", on_back, "Backspace")],
                       spacing=8))
    return ft.Column(grid, spacing=8)


def own_layer(control: ft.Control) -> ft.Control:
    """`control` painted on a layer of its own on the phone.

    A button's ripple or a new figure repaints the nearest layer around it; without
    one, that is the whole scrolling screen, every frame of the ripple (at a phone's
    speed, a pad tap on Record hand spent twice the paint time of a bare page). Flet
    has no repaint-boundary control, but its Screenshot control is one: the package
    behind it wraps its child in a RepaintBoundary and draws nothing of its own
    (docs/FLET_NOTES.md, section 14)."""
    return ft.Screenshot(content=control)


def update_shown(*controls: ft.Control) -> None:
    """Send what changed in controls a screen shows (a form built by a test shows nothing:
    Flet raises for a control on no page)."""
    for control in controls:
        try:
            control.page  # noqa: B018 (raises RuntimeError off a page)
        except RuntimeError:
            continue
        control.update()


def notice(text: str, *, error: bool = False, icon: ft.IconData | None = None) -> ft.Control:
    """A coloured band with a message (forced teams, problems, the winner)."""
    colours = ERROR_BAR if error else INFO_BAR
    return ft.Container(
        content=ft.Row(
            [ft.Icon(icon or (ft.Icons.WARNING_AMBER if error else ft.Icons.INFO_OUTLINE),
                     color=colours.fg),
             ft.Text(text, size=15, expand=True, color=colours.fg)],
            spacing=10,
        ),
        bgcolor=colours.bg,
        border_radius=ft.BorderRadius.all(RADIUS),
        padding=12,
    )


def small_toggle(
    label: str | ft.Control, selected: bool, on_click: Handler, **kw: Any
) -> ft.Control:
    return toggle(label, selected, on_click, height=SMALL_TAP, **kw)
