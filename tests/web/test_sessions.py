"""scorer.web.sessions without a server: reading a frame's action, counting
sessions, refusing connections (the hostile tests drive the real thing)."""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack
from in_thread import run_async

from scorer.web.sessions import (
    TOO_MANY_HERE,
    SessionGuard,
    SessionLimits,
    SessionRegistry,
    _action_of,
    peer_address,
)


def frame(action: Any, body: Any = None) -> bytes:
    return b"\x00" + msgpack.packb([action, body or {}])


def test_the_action_is_read_from_the_first_bytes_however_it_is_spelled() -> None:
    assert _action_of(frame(1, {"page": {"route": "/" * 5000}})) == 1
    assert _action_of(frame(3)) == 3
    # msgpack may spell 1 as a uint8, uint16 or int64: all are the same action.
    for spelled in (b"\xcc\x01", b"\xcd\x00\x01", b"\xd3" + (1).to_bytes(8, "big")):
        assert _action_of(b"\x00\x92" + spelled + b"\x80") == 1
    assert _action_of(b"\x01\x00\x00\x00\x00") is None  # a data-channel frame
    assert _action_of(b"\x00\xff\xff\xff") is None
    assert _action_of(b"\x00\x90") is None
    assert _action_of(frame("x")) is None


class FakeSession:
    def __init__(self, connected: bool) -> None:
        self.connection: object | None = object() if connected else None
        self.expired_with: int | None = None

    async def disconnect(self, timeout: int) -> None:
        self.expired_with = timeout
        self.connection = None


def test_abandoned_sessions_beyond_an_address_share_are_expired_oldest_first() -> None:
    neighbour = FakeSession(False)  # the registry keeps weak references only

    async def run() -> tuple[list[FakeSession], list[FakeSession], SessionRegistry]:
        registry = SessionRegistry(SessionLimits(sessions_per_address=4, sessions_total=100))
        open_ones = [FakeSession(True) for _ in range(3)]
        closed = [FakeSession(False) for _ in range(5)]
        for session in [*open_ones, *closed]:
            registry.add(session, "10.0.0.1")
        registry.add(neighbour, "10.0.0.2")
        await asyncio.sleep(0)  # the expiries run as tasks
        return open_ones, closed, registry

    open_ones, closed, registry = run_async(run())
    assert all(s.expired_with is None for s in open_ones)  # open pages are never touched
    assert [s.expired_with for s in closed] == [0, 0, 0, 0, None]
    assert registry.count("10.0.0.1") == 4
    assert registry.count("10.0.0.2") == 1 and neighbour.expired_with is None


def test_the_server_total_is_kept_too() -> None:
    async def run() -> list[FakeSession]:
        registry = SessionRegistry(SessionLimits(sessions_per_address=100, sessions_total=5))
        sessions = [FakeSession(False) for _ in range(8)]
        for n, session in enumerate(sessions):
            registry.add(session, f"10.0.0.{n}")
        await asyncio.sleep(0)
        return sessions

    sessions = run_async(run())
    assert [s.expired_with for s in sessions] == [0, 0, 0, None, None, None, None, None]


def scope(host: str) -> dict[str, Any]:
    return {"type": "websocket", "path": "/ws", "client": (host, 5000), "headers": []}


def test_the_guard_gives_page_code_the_socket_address_and_refuses_extra_pages() -> None:
    seen: list[str] = []
    release = asyncio.Event()

    async def app(_scope: Any, _receive: Any, _send: Any) -> None:
        seen.append(peer_address())
        await release.wait()

    async def run() -> list[dict[str, Any]]:
        guard = SessionGuard(app, SessionLimits(open_per_address=2, open_total=10))
        held = [asyncio.create_task(guard(scope("10.0.0.7"), None, None))  # type: ignore[arg-type]
                for _ in range(2)]
        await asyncio.sleep(0)
        incoming = [{"type": "websocket.connect"},
                    {"type": "websocket.receive", "bytes": frame(1)}]
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return incoming.pop(0) if incoming else {"type": "websocket.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await guard(scope("10.0.0.7"), receive, send)
        assert guard.open_count("10.0.0.7") == 2
        release.set()
        await asyncio.gather(*held)
        assert guard.open_count() == 0
        return sent

    sent = run_async(run())
    assert seen == ["10.0.0.7", "10.0.0.7"]
    assert [m["type"] for m in sent] == ["websocket.accept", "websocket.send", "websocket.close"]
    answer = msgpack.unpackb(sent[1]["bytes"][1:])
    assert answer[0] == 1 and answer[1]["error"] == TOO_MANY_HERE


def test_a_page_that_stops_reading_is_let_go() -> None:
    sent: list[str] = []

    async def app(_scope: Any, _receive: Any, send: Any) -> None:
        await send({"type": "websocket.send", "bytes": b"first"})
        await send({"type": "websocket.send", "bytes": b"second"})  # never taken
        sent.append("not reached")

    async def send(message: dict[str, Any]) -> None:
        if message.get("bytes") == b"second":
            await asyncio.Event().wait()  # the page's buffers are full for ever
        sent.append(message["bytes"].decode())

    async def run() -> SessionGuard:
        guard = SessionGuard(app, SessionLimits(stalled_send_s=0.2))
        await asyncio.wait_for(guard(scope("10.0.0.9"), None, send), 5)  # type: ignore[arg-type]
        return guard

    guard = run_async(run())
    assert sent == ["first"]
    assert guard.open_count() == 0


def test_a_refused_page_is_kept_open_a_while_so_its_message_stays() -> None:
    async def never(_scope: Any, _receive: Any, _send: Any) -> None:
        raise AssertionError("a refused page reached the app")

    async def run() -> tuple[list[str], float]:
        guard = SessionGuard(never, SessionLimits(open_per_address=0, refusal_shown_s=0.3))
        incoming = [{"type": "websocket.connect"},
                    {"type": "websocket.receive", "bytes": frame(1)}]
        sent: list[str] = []

        async def receive() -> dict[str, Any]:
            if incoming:
                return incoming.pop(0)
            await asyncio.Event().wait()  # the page stays, showing the message
            raise AssertionError

        async def send(message: dict[str, Any]) -> None:
            sent.append(message["type"])

        loop = asyncio.get_running_loop()
        start = loop.time()
        await asyncio.wait_for(guard(scope("10.0.0.3"), receive, send), 5)
        return sent, loop.time() - start

    sent, took = run_async(run())
    assert sent == ["websocket.accept", "websocket.send", "websocket.close"]
    assert 0.3 <= took < 3
