"""POST /_tarabish/send whose body trickles in and never ends: the connection's
header timeout is over once the headers are in, so only the send's own bound lets
it go. Without one, slow bodies from many addresses hold the process's connections."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.requests import Request

from scorer.rights import TableRights
from scorer.rights.codes import TableCodes
from scorer.store.game_store import GameStore
from scorer.store.records import new_origin
from scorer.web import send
from scorer.web.send import DEVICE_HEADER, ORIGIN_HEADER, SEND_PATH, handle_send
from tests.in_thread import run_async


def trickling(tmp_path: Path) -> Request:
    """A request whose body sends one byte, then nothing more, ever."""
    headers = [(b"content-length", b"1000"), (ORIGIN_HEADER.lower().encode(),
               new_origin().encode()), (DEVICE_HEADER.lower().encode(),
               b"phone-token-0123456789abcdef")]
    scope = {"type": "http", "method": "POST", "path": SEND_PATH, "headers": headers,
             "query_string": b"", "client": ("203.0.113.9", 5000), "server": ("t", 80),
             "scheme": "http", "root_path": ""}
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": b"{", "more_body": True}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    return Request(scope, receive)


def test_a_body_that_never_ends_is_let_go(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(send, "SEND_READ_S", 0.5)
    store = GameStore(tmp_path / "data")
    rights = TableRights(TableCodes(tmp_path / "data"))

    async def go() -> Any:
        return await asyncio.wait_for(
            handle_send(trickling(tmp_path), lambda: store, lambda: rights), 10)

    answer = run_async(go())
    assert answer.status_code == 408
    assert "send it again" in json.loads(answer.body)["error"]
    assert store.list_games() == []
