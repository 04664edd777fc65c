"""A phone alone sends a game to the table server (scorer.app.send_game), through the
server's real endpoint (scorer.web.send) in a test client."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from fastapi import FastAPI, Request, Response
from fastapi.testclient import TestClient

from scorer.app import CONFIG
from scorer.app.actions import DEVICE_KEY
from scorer.app.context import AppContext
from scorer.app.send_game import NO_SERVER, OFFLINE, NotSent, game_key, read_answer, send_game
from scorer.rights import TableRights
from scorer.rights.codes import TableCodes
from scorer.store.game_store import GameStore
from scorer.store.models import StoredGame
from scorer.store.records import new_origin
from scorer.web.send import SEND_PATH, handle_send
from tests.in_thread import run_async

MADE = {"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}}
DOC = {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
       "first_dealer": 0, "rules": {}, "hands": [MADE, MADE]}


class Prefs:
    def __init__(self) -> None:
        self.kept: dict[str, Any] = {}

    async def get(self, key: str) -> Any:
        return self.kept.get(key)

    async def set(self, key: str, value: str) -> bool:
        self.kept[key] = value
        return True


class Table:
    """The table server: its store, rights and endpoint."""

    def __init__(self, data: Path) -> None:
        self.store = GameStore(data)
        self.rights = TableRights(TableCodes(data))
        app = FastAPI()

        @app.post(SEND_PATH)
        async def send(request: Request) -> Response:
            return await handle_send(request, lambda: self.store, lambda: self.rights)

        self.client = TestClient(app, base_url="http://table.test")
        self.up = True

    async def post(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
        if not self.up:
            raise OSError("offline")
        r = await asyncio.to_thread(self.client.post, path, content=body, headers=headers)
        return r.status_code, r.text


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    t = Table(tmp_path / "server")
    monkeypatch.setattr(CONFIG, "send_to_server", t.post)
    return t


def phone(tmp_path: Path) -> AppContext:
    return cast(AppContext, SimpleNamespace(store=GameStore(tmp_path / "phone")))


def test_send_then_send_again_gives_the_same_code_and_one_game(tmp_path: Path,
                                                                 table: Table) -> None:
    ctx, prefs = phone(tmp_path), Prefs()
    game = ctx.store.create_game(DOC, origin=new_origin())
    first = run_async(send_game(ctx, game.id, prefs))
    again = run_async(send_game(ctx, game.id, prefs))
    assert first == again
    [stored] = table.store.list_games()
    assert first.id == stored.id and first.address == f"http://table.test/game/{stored.id}"
    assert first.code == table.rights.code(stored.id)
    # The token the phone made is kept where the table server's page reads it: that page
    # then holds the game.
    assert table.rights.may_edit(stored.id, prefs.kept[DEVICE_KEY])
    assert stored.hand_count == 2


def test_a_game_kept_before_keys_gets_the_same_key_at_every_send(tmp_path: Path,
                                                                  table: Table) -> None:
    ctx, prefs = phone(tmp_path), Prefs()
    old = ctx.store.create_game(DOC)  # no key: kept before phones gave one
    first = run_async(send_game(ctx, old.id, prefs))
    assert run_async(send_game(ctx, old.id, prefs)) == first
    assert len(table.store.list_games()) == 1


def test_offline_says_so_and_nothing_is_made(tmp_path: Path, table: Table) -> None:
    ctx = phone(tmp_path)
    game = ctx.store.create_game(DOC, origin=new_origin())
    table.up = False
    with pytest.raises(NotSent, match="did not answer"):
        run_async(send_game(ctx, game.id, Prefs()))
    assert str(OFFLINE).startswith("The table server did not answer")
    assert table.store.list_games() == []


def test_with_no_table_server_there_is_nowhere_to_send(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(CONFIG, "send_to_server", None)
    ctx = phone(tmp_path)
    game = ctx.store.create_game(DOC)
    with pytest.raises(NotSent, match=NO_SERVER):
        run_async(send_game(ctx, game.id, Prefs()))


@pytest.mark.parametrize("status,text,words", [
    (400, json.dumps({"error": "That game file cannot be used:\nhand 2. Nothing was sent."}),
     "That game file cannot be used: hand 2. Nothing was sent."),
    (404, "Not found", NO_SERVER),
    (502, "<html>bad gateway</html>", "error 502"),
    (200, json.dumps({"id": "../x", "code": "1", "address": "x"}), "does not understand"),
    (200, "not json", "does not understand"),
])
def test_answers_become_one_plain_line(status: int, text: str, words: str) -> None:
    with pytest.raises(NotSent) as e:
        read_answer(status, text)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_the_key_of_a_game_with_none_is_fixed_by_the_phone_and_the_game() -> None:
    game = StoredGame(id="0123abcd", revision=1, created=datetime(2026, 11, 1, tzinfo=UTC),
                      updated=datetime(2026, 11, 1, tzinfo=UTC), doc=DOC)
    key = game_key(game, "token-one-0123456789")
    assert key == game_key(game, "token-one-0123456789")
    assert key != game_key(game, "token-two-0123456789") and len(key) == 32
    kept = game.model_copy(update={"origin": new_origin()})
    assert game_key(kept, "token-one-0123456789") == kept.origin
