"""The page function: one call per browser session, wiring theme, router and store."""

from __future__ import annotations

import logging

import flet as ft

from scorer.app import CONFIG
from scorer.app.context import AppContext
from scorer.app.flet_tuning import (
    forget_sent_changes,
    fresh_control_ids,
    keep_retained_controls,
    late_answers_dropped,
    short_message_repr,
)
from scorer.app.router import Router
from scorer.app.store_access import get_store
from scorer.app.theme import apply_theme

logger = logging.getLogger(__name__)
short_message_repr()
forget_sent_changes()
keep_retained_controls()
fresh_control_ids()
late_answers_dropped()


def main(page: ft.Page) -> None:
    """Start one session: the screen for the page's address, from the store."""
    page.title = "Tarabish"
    # No page.fonts: FONTS come in the FontManifest (scorer.server), ready before the
    # first frame; page.fonts would ask for the same file again after it.
    apply_theme(page)
    sessions = CONFIG.sessions
    address = sessions.opened(page.session)  # may expire this address's abandoned pages
    ctx = AppContext(page=page, store=get_store(), address=address,
                     via_proxy=CONFIG.via_proxy())
    router = Router(ctx)
    ctx.router_refresh = router.show
    ctx.game_changed = router.game_changed
    ctx.prepare = router.prepare
    ctx.put = router.put
    ctx.shown_route = lambda: router.route
    ctx.push_route = router.push
    ctx.phone_known = router.phone_known

    def route_changed(e: ft.RouteChangeEvent) -> None:
        if not router.announced(e.route):  # not an address the server has already shown
            router.show(e.route)

    def closed(_e: object) -> None:
        sessions.closed(page.session)
        router.close()

    def connected() -> None:
        sessions.reconnected(page.session)
        ctx.actions.reconnected()  # a read of the phone's settings that failed: again

    page.on_route_change = route_changed
    # A reload reattaches this session to a new connection: that one serves it now.
    page.on_connect = lambda _e: connected()
    page.on_close = closed
    page.on_resize = lambda e: router.resized(e.width)
    router.show(page.route)
