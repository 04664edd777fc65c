"""A phone that meets a table server: its synced games, the link that carries them, and
what the screens read of both (`scorer.sync.phone.PhoneSync`).

`PhoneSyncing.open` makes it all over the phone's own store (`start.Phone` calls it when
the app was served by a table server); `begin` starts the link once the phone's device
token is read (the one the server's drawn page keeps in the same browser, so a phone
that holds a game there holds it here). A server's messages redraw the screens
showing what changed (`watch`: the page's router; Flet's pubsub has no loop in the
browser).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorer.browser.carrier import Carrier, OpenSocket
from scorer.browser.keeper import FolderKeeper
from scorer.browser.link import Link
from scorer.browser.synced_store import SyncedGames, SyncedRights, public_id
from scorer.store.errors import StoreError
from scorer.store.ports import GamesPort
from scorer.sync.client import Choice, Notice, ServerMessage, SyncClash, SyncClient
from scorer.sync.messages import AddHand, Redo, ReplaceHand, Welcome
from scorer.sync.phone import SyncLine

logger = logging.getLogger(__name__)

SYNC_FOLDER = "sync"
"""Beside the store's games: the client's kept state (one file per game)."""
MEETS_FILE = "sync-server.json"
"""Written once the server answered Hello: new games are started through sync from then
on (a server without sync keeps today's way: kept here, sent by Share)."""
PLACEHOLDER_DEVICE = "device-token-not-read-yet"
MAX_UNSEEN = 16
"""Games followed by their address that have not come (yet, or ever: no such game)."""


class PhoneSyncing:
    """The phone's synced games and their link (see the module docstring)."""

    def __init__(self, games: SyncedGames, link: Link, data_dir: Path,
                 on_write: Callable[[bool], None]) -> None:
        self.games = games
        self.client = games.client
        self.link = link
        self.carrier: Carrier | None = None
        self.data_dir = data_dir
        self.on_write = on_write
        self.redraw_game: Callable[[str], object] = lambda _game: None
        self.redraw_all: Callable[[], object] = lambda: None
        self.rights = SyncedRights(games, lambda: self.link.connected, self.poke)
        self._stamps: dict[str, tuple[Any, ...]] = {k: self._stamp(k) for k in self.client.games}
        self._line = self.line()
        self._meets = (data_dir / MEETS_FILE).exists()
        games.start_synced = self._meets
        link.heard = self.heard

    @classmethod
    def open(cls, local: GamesPort, on_write: Callable[[bool], None], *,
             game: str | None = None, label: str | None = None) -> PhoneSyncing:
        """Over the phone's own store (its folder holds the client's state too); `game`:
        the server's game the page was opened for, followed from now on."""
        keeper = FolderKeeper(local.data_dir / SYNC_FOLDER, on_write)
        client = SyncClient(PLACEHOLDER_DEVICE, keeper, label=label)
        games = SyncedGames(local, client, keeper, start_synced=False)
        made = cls(games, Link(client), local.data_dir, on_write)
        games.on_change = made.poke
        games.on_unknown = made.follow
        if game is not None:
            made.follow(game)
        return made

    def follow(self, game: str) -> None:
        """Keep and follow a server's game (opened by its address) unless this phone
        has it already (its own, or kept)."""
        if self.games.key(game) is not None:
            return
        try:
            self.games.local.get_game(game)
            return  # a game of this phone's own store with that id
        except StoreError:
            pass
        waiting = [g.key for g in self.client.games.values()
                   if g.confirmed is None and not g.pending]
        for stale in waiting[:max(0, len(waiting) - MAX_UNSEEN + 1)]:
            self.client.forget(stale)  # addresses opened that never came: the oldest go
            self._stamps.pop(stale, None)
        self.client.follow(game)
        self._stamps[game] = self._stamp(game)
        self.poke()

    def begin(self, device: str, url: str, open_socket: OpenSocket,
              clock: Callable[[], float] = time.monotonic) -> Carrier:
        """Connect with this phone's device token, and keep connecting."""
        self.client.device = device
        self.link.patient = not (self._meets or self.client.games)
        self.carrier = Carrier(self.link, url, open_socket, clock=clock,
                               changed=self.link_changed)
        self.carrier.start()
        return self.carrier

    def watch(self, game_changed: Callable[[str], object], everything: Callable[[], object]
              ) -> None:
        self.redraw_game, self.redraw_all = game_changed, everything

    # -- events -----------------------------------------------------------------------------

    def poke(self) -> None:
        self.link.patient = not (self._meets or self.client.games)
        if self.carrier is not None:
            self.carrier.poke()
        self._redraw_changed(own=True)

    def heard(self, message: ServerMessage) -> None:
        if isinstance(message, Welcome) and not self._meets:
            self._meets = self.games.start_synced = True
            try:
                (self.data_dir / MEETS_FILE).write_text('{"sync": 1}\n', encoding="utf-8")
                self.on_write(False)
            except OSError:
                logger.warning("could not note that the server speaks sync", exc_info=True)
        self._redraw_changed()

    def link_changed(self) -> None:
        self._redraw_changed()

    def _redraw_changed(self, own: bool = False) -> None:
        """Redraw what changed: each game whose state moved (not for the player's own
        change: its screen draws it), and every sheet's line."""
        for key in list(self.client.games):
            stamp = self._stamp(key)
            if self._stamps.get(key) != stamp:
                self._stamps[key] = stamp
                if not own:
                    self._redraw(key)
        line = self.line()
        if line != self._line:
            self._line = line
            self.redraw_all()

    def _redraw(self, key: str) -> None:
        sync = self.client.games[key]
        shown = {public_id(key)}
        if sync.origin is not None:
            shown.add(public_id(sync.origin))
        for game in shown:
            try:
                self.redraw_game(game)
            except Exception:  # no session yet
                logger.debug("no screen to redraw", exc_info=True)

    def _stamp(self, key: str) -> tuple[Any, ...]:
        sync = self.client.games.get(key)
        if sync is None:
            return ()
        confirmed = sync.confirmed
        return (None if confirmed is None else confirmed["revision"], sync.holds, sync.code,
                sync.next, sync.gone, sync.clash is not None,
                tuple((p.change.id, p.applied) for p in sync.pending),
                sum(1 for n in self.client.state.notices if self.client.key_of(n.game) == key))

    # -- what the screens read (scorer.sync.phone.PhoneSync) --------------------------------

    def meets_server(self) -> bool:
        return self._meets

    def synced(self, game_id: str) -> bool:
        return self.games.key(game_id) is not None

    def line(self) -> SyncLine:
        pending = [p for g in self.client.games.values() for p in g.pending
                   if p.applied is None]
        return SyncLine(alone=self.link.alone, waiting=len(pending),
                        hands_only=all(isinstance(p.change.kind, AddHand | ReplaceHand)
                                       for p in pending),
                        update=self.client.update_needed)

    def unsent(self, game_id: str) -> frozenset[int]:
        key = self.games.key(game_id)
        if key is None:
            return frozenset()
        sync = self.client.games[key]
        numbers = set()
        for p in sync.pending:
            if sync.clash is not None and p.change.id == sync.clash.change:
                break  # it and what follows wait for the player: not on the sheet
            if (p.applied is None and p.number is not None
                    and isinstance(p.change.kind, AddHand | ReplaceHand | Redo)):
                numbers.add(p.number)
        return frozenset(numbers)

    def clash(self, game_id: str) -> SyncClash | None:
        key = self.games.key(game_id)
        return None if key is None else self.client.clash(key)

    def choose(self, game_id: str, choice: Choice) -> None:
        key = self.games.key(game_id)
        if key is None:
            return
        self.games.keeper.hold = True
        try:
            self.client.choose(key, choice)
        finally:
            self.games.keeper.hold = False
        self.poke()

    def notices(self, game_id: str) -> list[Notice]:
        key = self.games.key(game_id)
        if key is None:
            return []
        return [n for n in self.client.notices() if self.client.key_of(n.game) == key]

    def dismiss(self, game_id: str) -> None:
        key = self.games.key(game_id)
        if key is not None:
            self.client.dismiss_game(key)
            self._stamps[key] = self._stamp(key)

    def shared_address(self, game_id: str) -> str | None:
        key = self.games.key(game_id)
        return key if key is not None and len(key) == 8 else None
