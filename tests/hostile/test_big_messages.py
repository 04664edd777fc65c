"""Websocket messages a stranger crafts: over the size limit, or small but nested
deep. The connection that sent it is closed; the server serves the next page."""

from __future__ import annotations

from pathlib import Path

from scorer.server import WS_MAX_BYTES
from tests.hostile.conftest import StartServer
from tests.hostile.flet_client import FletClient


def nested(depth: int) -> bytes:
    """A msgpack array holding an array ... `depth` deep (one byte per level)."""
    return b"\x00" + b"\x91" * depth + b"\xc0"


def test_a_message_over_the_limit_closes_its_connection_and_the_server_goes_on(
        start_server: StartServer, tmp_path: Path) -> None:
    server = start_server(tmp_path / "data")
    page = FletClient(server.port, source="127.0.0.5")
    page.ws.send(b"\x00" + b"\x90" * (WS_MAX_BYTES + 1))
    page.pump(3.0)
    assert page.closed and page.ws.close_code == 1009  # too big, refused unread
    for body in (nested(100_000), nested(WS_MAX_BYTES - 16)):
        deep = FletClient(server.port, source="127.0.0.6")
        deep.ws.send(body)
        deep.pump(3.0)
        deep.close()
    with FletClient(server.port, source="127.0.0.7") as fresh:
        fresh.pump(1.0)
        assert fresh.session_id
    assert server.process.poll() is None
    assert "RecursionError" not in server.log()  # msgpack stops at its own depth bound
