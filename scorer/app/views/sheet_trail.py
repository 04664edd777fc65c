"""The sheet's crossings-out: what an edited hand was, the hands undone, and the
notices of changes made on other phones (read from the game's trail)."""

from __future__ import annotations

import flet as ft

from rules.hand_diff import differences
from rules.history import Added, HandEntry, Redone, Undone, redoable, undone_hands
from scorer.app.context import AppContext
from scorer.app.game_view_model import GameModel
from scorer.app.theme import RADIUS
from scorer.store.errors import StoreError
from scorer.text.trail import hand_line, local_time, phone_time


def history_lines(model: GameModel, trail: tuple[HandEntry, ...]) -> list[str]:
    """One hand's story, oldest first: recorded, each edit (what it was, what it became,
    when, on which phone), undone and put back."""
    names = model.game.names
    lines = []
    for entry in trail:
        when = f"at {local_time(entry.at)[-5:]}"
        if made := phone_time(entry):  # kept on a phone offline, sent later
            when += f" ({made})"
        where = f"on {entry.by} " if entry.by else ""
        if isinstance(entry, Added):
            lines.append(f"Recorded {where}{when}.")
        elif isinstance(entry, Redone):
            lines.append(f"Put back {where}{when}.")
        elif isinstance(entry, Undone):
            lines.append(f"Undone {where}{when}.")
        else:
            changed = "; ".join(d.text for d in differences(entry.before, entry.after, names))
            lines.append(f"Edited {where}{when}: {changed or 'saved unchanged'}.")
    return lines


def notices_card(ctx: AppContext, game_id: str, texts: tuple[str, ...]) -> ft.Control:
    """Changes made on other phones, shown until this phone says it has read them."""

    def read(_e: object) -> None:
        ctx.read_notices(game_id)
        ctx.router_refresh()

    return ft.Container(
        content=ft.Column([
            *(ft.Row([ft.Icon(ft.Icons.INFO, color=ft.Colors.ON_TERTIARY_CONTAINER, size=20),
                      ft.Text(text, size=15, expand=True, weight=ft.FontWeight.W_600,
                              color=ft.Colors.ON_TERTIARY_CONTAINER)],
                     vertical_alignment=ft.CrossAxisAlignment.START) for text in texts),
            ft.Row([ft.FilledButton("OK, read", icon=ft.Icons.CHECK, on_click=read,
                                    height=48)], alignment=ft.MainAxisAlignment.END),
        ], spacing=8, tight=True),
        bgcolor=ft.Colors.TERTIARY_CONTAINER, border_radius=ft.BorderRadius.all(RADIUS),
        padding=12,
    )


def undone_panel(ctx: AppContext, model: GameModel, editable: bool) -> ft.Control | None:
    """The hands undone, struck through and folded away; the last one may be put back
    while no hand has been recorded after it."""
    undone = undone_hands(model.trail)
    if not undone:
        return None
    key = f"undone:{model.id}"
    shown = key in ctx.open_panels
    count = len(undone)

    def fold(_e: object) -> None:
        ctx.open_panels ^= {key}
        ctx.router_refresh()

    head = ft.TextButton(
        content=ft.Text(f"{count} undone hand{'' if count == 1 else 's'}", size=15),
        icon=ft.Icons.EXPAND_LESS if shown else ft.Icons.EXPAND_MORE, on_click=fold,
        tooltip="Hide the undone hands" if shown else "Show the undone hands")
    parts: list[ft.Control] = [head]
    if shown:
        names = model.game.names
        back = redoable(model.trail, len(model.game.hands)) if editable else None
        if model.replay.is_over:
            back = None
        for entry in reversed(undone):
            who = f" on {entry.by}" if entry.by else ""
            parts.append(ft.Column([
                ft.Text(f"{entry.hand}. {hand_line(entry.before, names)}", size=15,
                        style=ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH),
                        color=ft.Colors.ON_SURFACE_VARIANT),
                ft.Text(f"Undone{who} at {local_time(entry.at)[-5:]}", size=13,
                        color=ft.Colors.ON_SURFACE_VARIANT),
            ], spacing=0, tight=True))
            if entry is back:
                parts.append(ft.Row([ft.OutlinedButton(
                    f"Put hand {entry.hand} back", icon=ft.Icons.UNDO, height=48,
                    on_click=lambda _e: put_back(ctx, model))]))
    return ft.Container(content=ft.Column(parts, spacing=4, tight=True),
                        border_radius=ft.BorderRadius.all(RADIUS),
                        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW, padding=8)


def put_back(ctx: AppContext, model: GameModel) -> None:
    """Redo: the last hand undone goes back on the sheet, on the revision on show."""
    try:
        stored = ctx.actions.redo_hand(model)
    except StoreError as exc:  # StaleRevision: the sheet is drawn again as it is now
        ctx.toast(f"{exc} Nothing was put back.", error=True)
        ctx.router_refresh()
        return
    ctx.toast(f"Hand {len(stored.doc['hands'])} is back on the sheet.")
