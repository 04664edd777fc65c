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
        self._parts: dict[str, tuple[object, object]] = {}
        self._controls: list[ft.BaseControl] | None = None
        last = _last(ctx)
        self._old = last._parts if last is not None and Kept.on_show(ctx, route) else {}
        ctx.kept = None  # set again by `done`

    @staticmethod
    def on_show(ctx: AppContext, route: str) -> bool:
        """Whether the last drawing is the screen on show for `route`: only then are
        its parts reused."""
        last = _last(ctx)
        # Reuse only into the very drawing on show: its list of controls is the one
        # the last drawing made (a refill moves that list into the View on show).
        return (last is not None
                and redraws_shown(ctx, route)
                and ctx.page.views[-1].controls is last._controls)

    def part(self, name: str, drawn_from: object, build: Callable[[], T],
             keyed: bool = True) -> T:
        """The part drawn last time from equal values, else a new one from `build`,
        keyed by `name` unless it has a key of its own (or `keyed` is False: a part
        changed in place, which a key would freeze)."""
        old = self._old.get(name)
        if old is not None and old[0] == drawn_from:
            control = old[1]
        else:
            control = build()
            # Flet matches the unkeyed controls of a keyed screen by their place
            # among the unkeyed: a part that comes or goes above others (a notice
            # at the top of the sheet) shifted every place below it, and the
            # phone was left with a copy of a kept part at each one (an empty
            # "Hand | Ann & Cid | Bob & Dee" header under the sheet per notice).
            if keyed and isinstance(control, ft.Control) and control.key is None:
                control.key = name
        self._parts[name] = (drawn_from, control)
        return cast(T, control)

    def done(self, view: ft.View) -> ft.View:
        """The screen these parts were drawn into: the next drawing may reuse them
        if this one is on show then. Only this drawing's parts are kept (bounded)."""
        self._controls, self._old = view.controls, {}
        self._ctx.kept = self
        return view


def _last(ctx: AppContext) -> Kept | None:
    """The parts of the last keyed screen drawn in this session, if any."""
    return ctx.kept if isinstance(ctx.kept, Kept) else None
