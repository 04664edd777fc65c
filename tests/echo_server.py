"""A tiny app behind the table server's own uvicorn settings
(`scorer.server.server_config`): it answers every request with the client address
and scheme it was given (at /where, also the Host it was given and whether it came
through the trusted proxy), so a test reads what the server believed."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from scorer.server import server_config
from scorer.web.connections import ConnectionGuard, ConnectionLimits


async def echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Answers every request with the client and scheme the app was given."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    said = {"client": scope["client"][0], "scheme": scope["scheme"]}
    if scope["path"] == "/where":  # and the address the request came to
        from scorer.web.forwarded import came_via_proxy

        said["host"] = dict(scope["headers"]).get(b"host", b"").decode("latin1")
        said["via_proxy"] = came_via_proxy(scope)
    body = json.dumps(said).encode()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


@contextmanager
def serving(trusted: tuple[str, ...] = (),
            limits: ConnectionLimits | None = None) -> Iterator[tuple[int, ConnectionGuard]]:
    config = server_config(echo, trusted, limits)  # type: ignore[arg-type]
    server = uvicorn.Server(config)
    sock = socket.socket()
    sock.bind(("0.0.0.0", 0))
    sock.listen(4096)
    port = sock.getsockname()[1]
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])),
                              daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield port, config.connection_guard  # type: ignore[attr-defined]
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
