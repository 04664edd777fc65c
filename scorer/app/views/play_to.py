"""'Play to' on New game: the target as a tap (300, 500, 1000) or any number typed."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorer.app.widgets import section, small_toggle, update_shown

TARGETS = (300, 500, 1000)
LOWEST, HIGHEST = 100, 5000
OUT_OF_RANGE = (f"Play to a number from {LOWEST} to {HIGHEST}, "
                f"or tap {', '.join(map(str, TARGETS[:-1]))} or {TARGETS[-1]}.")
OTHER = "Other"
"""The label of the box for any other target."""


def typed_target(text: str) -> int | None:
    """The target in a typed text, or None if it is no whole number from LOWEST to HIGHEST."""
    text = text.strip()
    if not text.isdigit() or len(text) > len(str(HIGHEST)):
        return None
    number = int(text)
    return number if LOWEST <= number <= HIGHEST else None


class PlayTo:
    """The taps and the box. Only the taps and a note change as the player types: the
    box itself is never drawn again (a box drawn anew mid-typing drops letters)."""

    def __init__(self, target: int, chosen: Callable[[int | None], None]) -> None:
        self.chosen = chosen
        """Told the target after every change; None while the box holds no good number."""
        self.target: int | None = target
        self.last_tap = target if target in TARGETS else TARGETS[1]
        """What an emptied box goes back to."""
        self.taps = ft.Row(spacing=6, expand=True)
        self.box = ft.TextField(
            value="" if target in TARGETS else str(target), label=OTHER, width=92,
            keyboard_type=ft.KeyboardType.NUMBER, input_filter=ft.NumbersOnlyInputFilter(),
            text_size=16,
            text_align=ft.TextAlign.CENTER, tooltip=f"Any target from {LOWEST} to {HIGHEST}",
            on_change=lambda e: self.typed(e.control.value or ""),
            on_blur=lambda _e: self.left_box(), on_submit=lambda _e: self.left_box(),
        )
        self.note = ft.Text("", size=14, color=ft.Colors.ERROR, visible=False)
        self._draw_taps()
        self.control = section("Play to", ft.Row(
            [self.taps, self.box], spacing=8, vertical_alignment=ft.CrossAxisAlignment.START),
            self.note)

    @property
    def problem(self) -> str:
        """What is wrong with the target, in a player's words ("" when nothing is)."""
        return "" if self.target is not None else OUT_OF_RANGE

    def tapped(self, target: int) -> None:
        self.target = self.last_tap = target
        self.box.value = ""
        self.note.visible = False
        self._changed(self.box, self.note)

    def typed(self, text: str) -> None:
        """Each key typed: the taps follow (500 typed lights 500); no message mid-number."""
        self.target = typed_target(text) if text.strip() else self.last_tap
        if self.target is not None:
            self.note.visible = False
        self._changed(self.note)

    def left_box(self) -> None:
        """The player is done typing: say now if the number cannot be played to."""
        self.note.value = self.problem
        self.note.visible = bool(self.problem)
        update_shown(self.note)

    def _changed(self, *also: ft.Control) -> None:
        self._draw_taps()
        self.chosen(self.target)
        update_shown(self.taps, *also)

    def _draw_taps(self) -> None:
        self.taps.controls = [
            small_toggle(str(t), self.target == t, lambda _e, t=t: self.tapped(t),
                         spoken=f"Play to {t}")
            for t in TARGETS]
