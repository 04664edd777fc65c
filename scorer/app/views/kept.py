"""Controls kept from the screen on show when that screen is drawn again."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

import flet as ft

from scorer.app.context import AppContext
from scorer.app.views.common import redraws_shown

T = TypeVar("T")


class Kept:
    """Parts of one drawing of a keyed screen, by name, each with what it was
    drawn from. Drawing the screen on show again (a watching phone after a Save)
    reuses every part drawn from the same values: Flet skips a control that is
    the very one under the same key, so each phone builds and compares only the
    parts that changed.

    A kept part's taps must depend only on what it was drawn from (a tap that
    needs the game as saved now reads it then, or the revision is drawn from)."""

    def __init__(self, ctx: AppContext, route: str) -> None:
        self._ctx = ctx
        basis = (route, ctx.dark)
        views = ctx.page.views
        # Reuse only into the very drawing on show: its list of controls is the one
        # the last drawing made (a refill moves that list into the View on show).
        same = (ctx.kept_basis == basis and redraws_shown(ctx.page, route)
                and views[-1].controls is ctx.kept_controls)
        self._old = ctx.kept if same else {}
        self._new: dict[str, tuple[object, object]] = {}
        ctx.kept, ctx.kept_basis = self._new, basis  # only this drawing's parts: bounded
        ctx.kept_controls = None

    def part(self, name: str, drawn_from: object, build: Callable[[], T]) -> T:
        """The part drawn last time from equal values, else a new one from `build`."""
        old = self._old.get(name)
        control = old[1] if old is not None and old[0] == drawn_from else build()
        self._new[name] = (drawn_from, control)
        return cast(T, control)

    def done(self, view: ft.View) -> ft.View:
        """The screen these parts were drawn into (what the next drawing checks)."""
        self._ctx.kept_controls = view.controls
        return view
