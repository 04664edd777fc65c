"""A crashed page session shows the phone a short notice, never the server's
traceback or file paths; the details go to the server's log.

Against a real server on 127.0.0.1, with a small client speaking Flet's
WebSocket protocol (a 0x00 byte, then a msgpack [action, body] array).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import flet as ft
import msgpack
import pytest
from in_thread import run_async
from websockets.sync.client import ClientConnection, connect

from scorer import server
from scorer.web.crash_notice import CRASH_FRAME_PREFIX, CrashNoticeMiddleware

REGISTER_CLIENT, CONTROL_EVENT, SESSION_CRASHED = 1, 3, 6
LiveServer = Callable[[Any], int]
"""The `live_server` fixture (tests/web/conftest.py): serve an app, get its port."""
SECRET_PATH = "/srv/tarabish-secret/games/1234abcd.json"


def disk_full() -> None:
    raise OSError(28, "No space left on device", SECRET_PATH)


def frame(action: int, body: dict[str, Any]) -> bytes:
    return b"\x00" + msgpack.packb([action, body])


def register(ws: ClientConnection) -> None:
    ws.send(frame(REGISTER_CLIENT, {
        "session_id": "", "page_name": "",
        "page": {"route": "/", "width": 400, "height": 800, "platform": "android"},
    }))


def crash_text(ws: ClientConnection, timeout_s: float = 20) -> str:
    """Read frames (a bounded number, for a bounded time) until the crash report."""
    deadline = time.monotonic() + timeout_s
    for _ in range(500):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        data = ws.recv(timeout=left)
        assert isinstance(data, bytes)
        if data[:1] == b"\x00":
            action, body = msgpack.unpackb(data[1:], strict_map_key=False)
            if action == SESSION_CRASHED:
                return str(body["message"])
    raise AssertionError("no crash report came")


@pytest.fixture
def serve_main(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, live_server: LiveServer
               ) -> Callable[[Callable[[ft.Page], None]], str]:
    """Start the table server on 127.0.0.1 with `main` as its page function;
    returns the WebSocket address."""

    def start(main: Callable[[ft.Page], None]) -> str:
        import scorer.app.main

        monkeypatch.setattr(scorer.app.main, "main", main)
        port = live_server(server.build_app(tmp_path / "data"))
        return f"ws://127.0.0.1:{port}/ws"

    return start


def test_a_crash_in_main_shows_no_server_path(serve_main: Callable[..., str],
                                              caplog: pytest.LogCaptureFixture) -> None:
    def main(_page: ft.Page) -> None:
        disk_full()

    url = serve_main(main)
    with caplog.at_level(logging.ERROR), connect(url, open_timeout=10) as ws:
        register(ws)
        text = crash_text(ws)
    assert "Something went wrong" in text and "Reload the page" in text
    assert SECRET_PATH not in text and "/" not in text and "Errno" not in text
    assert SECRET_PATH in caplog.text  # the host can still find out what happened


def test_a_crash_in_a_handler_shows_no_traceback(serve_main: Callable[..., str],
                                                 caplog: pytest.LogCaptureFixture) -> None:
    buttons: list[int] = []

    def main(page: ft.Page) -> None:
        button = ft.Button("Save", on_click=lambda _e: disk_full())
        page.add(button)
        buttons.append(button._i)

    url = serve_main(main)
    with caplog.at_level(logging.ERROR), connect(url, open_timeout=10) as ws:
        register(ws)
        deadline = time.monotonic() + 20
        while not buttons and time.monotonic() < deadline:
            time.sleep(0.05)
        assert buttons, "the page never started"
        ws.send(frame(CONTROL_EVENT, {"target": buttons[0], "name": "click", "data": None}))
        text = crash_text(ws)
    assert "Traceback" not in text and ".py" not in text and SECRET_PATH not in text
    assert "Reload the page" in text
    reference = text.split("reference ")[1].split(")")[0]
    assert f"reference {reference}" in caplog.text and "Traceback" in caplog.text


def test_other_frames_pass_unchanged() -> None:
    sent: list[dict[str, Any]] = []
    frames = [b"\x00" + msgpack.packb([2, {"id": 1}]), b"\x01\x00\x00\x00\x00" + b"\x06" * 9,
              b"\x00\x92\x05\x81"]

    async def inner(_scope: Any, _receive: Any, send: Any) -> None:
        for data in frames:
            await send({"type": "websocket.send", "bytes": data})
        await send({"type": "websocket.send", "bytes": frame(SESSION_CRASHED, {
            "message": f'Traceback (most recent call last):\n  File "{SECRET_PATH}"'})})

    async def collect(message: dict[str, Any]) -> None:
        sent.append(message)

    async def nothing() -> dict[str, Any]:
        return {"type": "websocket.disconnect"}

    run_async(CrashNoticeMiddleware(inner)({"type": "websocket"}, nothing, collect))
    assert [m["bytes"] for m in sent[:3]] == frames
    assert sent[3]["bytes"].startswith(CRASH_FRAME_PREFIX)
    assert SECRET_PATH.encode() not in sent[3]["bytes"]
