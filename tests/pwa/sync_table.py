"""The table server (`python -m scorer.cli ...`, same arguments) with the sync core on a
websocket at /_tarabish/sync, for the browser tests of the phones that keep the game.

A stand-in until the server's own sync socket is on main: it carries the protocol as
docs/SYNC.md's "For the carrier" says (the service's `receive` in a worker thread, one
message of a connection at a time, replies in order, then every watcher told), and
nothing more (no bounds of its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from typing import Any

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

import scorer.server
from scorer.sync.messages import encode
from scorer.sync.service import Connection, SyncService

SYNC_PATH = "/_tarabish/sync"


class Hub:
    def __init__(self) -> None:
        self.service: SyncService | None = None
        self.sockets: dict[Connection, WebSocket] = {}
        self.lock = asyncio.Lock()

    def core(self) -> SyncService:
        if self.service is None:
            from scorer.app.store_access import get_backends

            backends = get_backends()
            self.service = SyncService(backends.games, backends.rights)
        return self.service

    async def serve(self, ws: WebSocket) -> None:
        await ws.accept()
        service = self.core()
        address = ws.client.host if ws.client else "unknown"
        conn = service.connect(address)
        self.sockets[conn] = ws
        print(f"sync: a phone connected from {address}", flush=True)
        try:
            while True:
                raw = await ws.receive_text()
                async with self.lock:  # one message at a time: replies stay in order
                    out = await asyncio.to_thread(service.receive, conn, raw)
                    for reply in out.replies:
                        await ws.send_text(encode(reply))
                    for game in out.changed:
                        for other, message in service.game_changed(game):
                            target = self.sockets.get(other)
                            if target is not None:
                                with contextlib.suppress(Exception):  # that phone went away
                                    await target.send_text(encode(message))
                if out.close:
                    await ws.close()
                    return
        except (WebSocketDisconnect, RuntimeError):
            return
        finally:
            self.sockets.pop(conn, None)
            service.disconnect(conn)
            print(f"sync: a phone from {address} left", flush=True)


HUB = Hub()
_build = scorer.server.build_app


def build_app(*args: Any, **kwargs: Any) -> Any:
    app = _build(*args, **kwargs)
    app.router.routes.insert(0, WebSocketRoute(SYNC_PATH, HUB.serve))
    return app


scorer.server.build_app = build_app

if __name__ == "__main__":
    from scorer.cli import main

    sys.exit(main(sys.argv[1:]))
