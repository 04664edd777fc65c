"""A real table server on 127.0.0.1, in this process (so tests can look inside)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import uvicorn

from scorer import server

LiveServer = Callable[[Any], int]


@pytest.fixture
def live_server() -> Iterator[LiveServer]:
    """`live_server(app) -> port`: serve an ASGI app on 127.0.0.1 as `tarabish`
    does (uvicorn, websockets-sansio); stopped after the test."""
    started: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(app: Any) -> int:
        srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                                            ws="websockets-sansio", lifespan="on"))
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        started.append((srv, thread))
        assert server.wait_until_started(srv, timeout_s=30)
        return int(srv.servers[0].sockets[0].getsockname()[1])

    yield start
    for srv, thread in started:
        srv.should_exit = True
        thread.join(15)
