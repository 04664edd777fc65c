"""Phones running the app's synced store (`scorer.browser.phone_sync`) against a server
core, over fake sockets that move only when the test says so: the browser's carrier
and link as they run in the page, without a browser."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from scorer.browser.carrier import Carrier, SocketEvents
from scorer.browser.phone_sync import PhoneSyncing
from scorer.browser.storage import BrowserGameStore
from scorer.rights import TableCodes, TableRights
from scorer.store import GameStore
from scorer.sync.messages import decode_server, encode
from scorer.sync.service import Connection, SyncService


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@dataclass(eq=False)
class FakeSocket:
    wire: Wire
    events: SocketEvents
    conn: Connection | None = None
    up: deque[str] = field(default_factory=deque)
    down: deque[str] = field(default_factory=deque)
    open: bool = False
    closed: bool = False
    to_open: bool = True
    """Its open (or, with the network down, its failure) is still to be told."""

    def send(self, text: str) -> None:
        assert self.open and not self.closed, "sent on a socket that is not open"
        self.up.append(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            if self.conn is not None:
                self.wire.service.disconnect(self.conn)


class Wire:
    """A server core behind fake sockets; `settle` moves everything."""

    def __init__(self, folder: Path) -> None:
        self.store = GameStore(folder)
        self.rights = TableRights(TableCodes(folder))
        self.service = SyncService(self.store, self.rights)
        self.sockets: list[FakeSocket] = []
        self.up = True
        """The network works (else a socket fails to open)."""

    def open(self, url: str, events: SocketEvents) -> FakeSocket:
        socket = FakeSocket(self, events)
        self.sockets.append(socket)
        return socket

    def cut(self) -> None:
        """The network goes: every open socket is closed under the phones."""
        self.up = False
        for socket in self.sockets:
            if not socket.closed:
                socket.close()
                socket.events.closed()

    def settle(self, rounds: int = 1000) -> None:
        for _ in range(rounds):
            if not self._step():
                return
        raise AssertionError("the wire did not settle")

    def _step(self) -> bool:
        moved = False
        for socket in list(self.sockets):
            if socket.closed:
                continue
            if socket.to_open:
                socket.to_open = False
                moved = True
                if not self.up:
                    socket.closed = True
                    socket.events.closed()
                    continue
                socket.conn = self.service.connect("127.0.0.1")
                socket.open = True
                socket.events.opened()
            while socket.up and not socket.closed:
                moved = True
                outcome = self.service.receive(socket.conn, socket.up.popleft())  # type: ignore[arg-type]
                socket.down.extend(encode(r) for r in outcome.replies)
                for game in outcome.changed:
                    for conn, message in self.service.game_changed(game):
                        for other in self.sockets:
                            if other.conn is conn and not other.closed:
                                other.down.append(encode(message))
                if outcome.close:
                    socket.close()
            while socket.down and not socket.closed:
                moved = True
                text = socket.down.popleft()
                decode_server(text)  # a real message
                socket.events.received(text)
        return moved


class AppPhone:
    """One phone's app: its own store folder, its synced games and its link."""

    def __init__(self, wire: Wire, folder: Path, device: str, game: str | None = None
                 ) -> None:
        self.wire = wire
        self.folder = folder
        self.device = device
        self.clock = FakeClock()
        self.writes: list[bool] = []
        self.redrawn: list[str] = []
        self.redrawn_all = 0
        self.local = BrowserGameStore(folder, lambda hold=True: None)
        self.sync = PhoneSyncing.open(self.local, self.writes.append, game=game)
        self.sync.redraw_game = self.redrawn.append
        self.sync.redraw_all = self._all
        self.games = self.sync.games
        self.carrier: Carrier | None = None

    def _all(self) -> None:
        self.redrawn_all += 1

    def connect(self) -> None:
        self.carrier = self.sync.begin(self.device, "ws://table/_tarabish/sync",
                                       self.wire.open, clock=self.clock)

    def later(self, seconds: float) -> None:
        """Time passes on this phone: its link does what is due."""
        self.clock.t += seconds
        assert self.carrier is not None
        self.carrier.do(self.carrier.link.tick(self.clock()))

    def close(self) -> None:
        """The tab is closed: nothing of this phone's memory survives."""
        if self.carrier is not None:
            self.carrier.stop()
        self.local.close()
