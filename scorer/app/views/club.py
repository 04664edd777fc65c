"""Club night: the events on this server, and a new one (table server only)."""

from __future__ import annotations

import flet as ft

from scorer.app import CONFIG
from scorer.app.club_actions import ClubActions
from scorer.app.context import AppContext
from scorer.app.views.common import app_bar, message_view, screen
from scorer.app.widgets import big_button
from scorer.events.model import FORMAT_LINES, rounds_line

SHOWN = 20
"""Events listed (newest first)."""
INTRO = ("Run a card night or a tournament from this laptop: the pairings, a card for each "
         "table, a standings board for the hall, and results nobody has to add up.")


def link_button(label: str, url: str, icon: ft.IconData, disabled: bool = False) -> ft.Control:
    """A full-width button that opens one of the server's own pages in a new tab (the
    board, the table cards): opened by the tap itself, so no pop-up blocker stops it."""
    return ft.OutlinedButton(content=ft.Text(label, size=18, weight=ft.FontWeight.W_600),
                             icon=icon, url=ft.Url(url, ft.UrlTarget.BLANK), height=48,
                             expand=True, disabled=disabled)


def club(ctx: AppContext) -> ClubActions:
    return ClubActions(ctx.actions, ctx.address)


def alone_view(ctx: AppContext, route: str) -> ft.View:
    """Club nights need the table server: one phone alone has no tables to run."""
    return message_view(ctx, route, "Club night",
                        "Club nights run on the table server (a laptop at the front of the "
                        "hall), where every table's phone can reach them.")


def club_view(ctx: AppContext) -> ft.View:
    route = "/club"
    if CONFIG.alone:
        return alone_view(ctx, route)
    body: list[ft.Control] = [
        ft.Text(INTRO, size=15),
        ft.Row([big_button("New club night", lambda _e: ctx.go("/club/new"), icon=ft.Icons.ADD)]),
    ]
    events = club(ctx).listed_events()[:SHOWN]  # on a community: this phone's own
    if events:
        body.append(ft.Text("Club nights on this server", size=15, weight=ft.FontWeight.BOLD))
    for stored in events:
        ev = stored.night
        label = (f"{ev.name} · {FORMAT_LINES[ev.format][0]} · "
                 f"{rounds_line(ev.rounds, len(ev.played), False)}")
        body.append(ft.Row([big_button(label, lambda _e, eid=stored.id: ctx.go(f"/club/{eid}"),
                                       primary=False, icon=ft.Icons.EMOJI_EVENTS, height=64)]))
    return screen(route, app_bar(ctx, "Club night", back_to="/"), body)
