"""Entry point of the app in the phone's browser (the site's `main.py` calls `run`).

Flet's Pyodide worker runs this module before the screen connects: the store
folder starts loading from IndexedDB at once, the first screen waits for it
(Flet's `before_main`), and every message to the screen goes through the
`DurableSender`, so none that follows a save leaves before the save is
committed.

Served by a table server, the phone also meets it (`scorer.browser.phone_sync`): the
server's games are kept here and synced; `Phone(server=origin, game=id)` opens on
the server's game `id` (the page's address names it).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import flet as ft

from scorer.app import CONFIG
from scorer.app.main import main
from scorer.app.router import VIEW_MODULES, compiled_routes
from scorer.app.store_access import use_backends
from scorer.backends import backends_of
from scorer.browser.durable import DurableSender
from scorer.browser.phone_sync import PhoneSyncing
from scorer.browser.send import post, served_by_table_server
from scorer.browser.server_game import server_game_of
from scorer.browser.storage import BrowserGameStore, IndexedDBFolder

logger = logging.getLogger(__name__)
compiled_routes()  # now, so that the memory snapshot (which imports this module) has them

SAVE_FAILED = ("This phone did not keep the last change ({why}). It is on the screen "
               "but may be gone after the page is closed. Free some space, then try again.")


class Phone:
    """The browser's store, its folder and the sender, opened once per page; with a
    server (its origin), the synced games too, following the server's `game`."""

    def __init__(self, server: str | None = None, game: str | None = None) -> None:
        self.server = server
        self.game = game
        self.folder = IndexedDBFolder()
        self.sender = DurableSender(self.folder.commit, self._failed)
        self.store: BrowserGameStore | None = None
        self.sync: PhoneSyncing | None = None
        self.page: ft.Page | None = None
        self.ready: asyncio.Future[None] = asyncio.ensure_future(self._open())

    async def _open(self) -> None:
        data_dir = await self.folder.open()
        CONFIG.data_dir = data_dir
        self.store = BrowserGameStore(data_dir, self.sender.changed)
        if self.folder.problem:
            self.store.problems.insert(0, self.folder.problem)
        if self.server is None:
            use_backends(backends_of(self.store))  # the phone's: a folder in IndexedDB
            return
        self.sync = PhoneSyncing.open(self.store, lambda hold: self.sender.changed(hold),
                                      game=self.game)
        CONFIG.phone_sync = self.sync
        CONFIG.phone_rights = self.sync.rights
        use_backends(backends_of(self.sync.games))

    async def before_main(self, page: ft.Page) -> None:
        self.page = page
        await self.ready
        if self.sync is not None and self.server is not None:
            page.run_task(self._meet, self.sync, self.server)

    async def _meet(self, sync: PhoneSyncing, server: str) -> None:
        """Read this browser's device token (the server's drawn page keeps the same),
        then connect and keep connecting."""
        from scorer.app.send_game import device_token
        from scorer.browser.websocket import on_network_hints, open_browser_socket, sync_url

        try:
            device = await asyncio.wait_for(device_token(ft.SharedPreferences()), 30)
        except Exception:  # the browser's storage refused: this page's own token
            logger.warning("no device token kept: this page uses its own", exc_info=True)
            import secrets

            device = secrets.token_urlsafe(24)
        carrier = sync.begin(device, sync_url(server), open_browser_socket)
        on_network_hints(carrier.online, carrier.offline)

    def _failed(self, why: str) -> None:
        if self.page is None:
            return
        try:
            self.page.show_dialog(ft.SnackBar(ft.Text(SAVE_FAILED.format(why=why), size=16),
                                              bgcolor=ft.Colors.ERROR_CONTAINER,
                                              duration=10_000))
        except Exception:  # the page is going away: the log has it
            logger.exception("could not show a storage failure")


async def import_views_later(delay_s: float = 1.0) -> None:
    """The other screens' modules, one at a time once the first screen is up, so the
    first tap on each does not wait for its import (the first screen did not)."""
    import importlib

    await asyncio.sleep(delay_s)
    for module in (*VIEW_MODULES, "reference_routes"):
        importlib.import_module(f"scorer.app.views.{module}")
        await asyncio.sleep(0.05)  # taps in between are served first


def phone_main(page: ft.Page) -> None:
    if CONFIG.server_game and (page.route or "/") == "/":
        page.route = f"/game/{CONFIG.server_game}"  # the game the address named
    main(page)
    page.run_task(import_views_later)


PHONE: Phone | None = None
"""This page's phone, once `run` has started it."""


async def flush() -> None:
    """Every change written to IndexedDB (the page asks before it takes a new version:
    boot.js)."""
    if PHONE is not None:
        await PHONE.sender.flush()


def run() -> Phone:
    """Start the app in this browser (one phone, no server)."""
    import flet_js  # Flet's bridge to the page

    global PHONE
    CONFIG.alone = True
    server = None
    if served_by_table_server():  # its games can be sent there once the phone is online
        CONFIG.send_to_server = post
        CONFIG.server_game = server_game_of(str(flet_js.documentUrl))
        from scorer.browser.websocket import page_origin

        server = page_origin()
    phone = PHONE = Phone(server=server, game=CONFIG.server_game)
    ft.run(phone_main, before_main=phone.before_main)
    connect = flet_js.start_connection

    async def start_connection(send_callback: Any) -> None:
        await connect(phone.sender.wrap(send_callback))

    flet_js.start_connection = start_connection
    return phone
