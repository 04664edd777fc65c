"""POST /_tarabish/send: a game kept on a phone alone, sent to the table server
(scorer.web.send), and the phone-alone site served under /alone/ (scorer.web.phone_site)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import brotli
import pytest
from fastapi import FastAPI, Request, Response
from fastapi.testclient import TestClient

from scorer.rights import TableRights
from scorer.rights.codes import TableCodes
from scorer.rights.limiter import RateWindow
from scorer.store.game_store import GameStore
from scorer.store.records import new_origin
from scorer.web.phone_site import NoPhoneSite, PhoneSite, add_phone_site
from scorer.web.send import (
    DEVICE_HEADER,
    MAX_SEND_BYTES,
    ORIGIN_HEADER,
    SEND_PATH,
    TOO_BIG,
    handle_send,
)

DEVICE = "phone-token-0123456789abcdef"
MADE = {"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}}


def game_file(hands: int = 2) -> bytes:
    doc = {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
           "first_dealer": 0, "rules": {}, "hands": [MADE] * hands}
    return json.dumps(doc).encode()


class Server:
    def __init__(self, data: Path, per_hour: int = 20) -> None:
        self.store = GameStore(data)
        self.rights = TableRights(TableCodes(data), new_games=RateWindow(per_hour, 3600.0))
        app = FastAPI()

        @app.post(SEND_PATH)
        async def send(request: Request) -> Response:
            return await handle_send(request, lambda: self.store, lambda: self.rights)

        self.client = TestClient(app, base_url="http://table.test")

    def send(self, body: bytes, origin: str, device: str = DEVICE) -> tuple[int, dict[str, Any]]:
        r = self.client.post(SEND_PATH, content=body,
                             headers={ORIGIN_HEADER: origin, DEVICE_HEADER: device})
        return r.status_code, r.json()


@pytest.fixture
def server(tmp_path: Path) -> Server:
    return Server(tmp_path / "data")


def test_a_sent_game_gets_its_code_and_address_and_the_phone_holds_it(server: Server) -> None:
    status, answer = server.send(game_file(), new_origin())
    assert status == 200, answer
    [game] = server.store.list_games()
    assert answer == {"id": game.id, "code": server.rights.code(game.id),
                      "address": f"http://table.test/game/{game.id}"}
    assert game.hand_count == 2
    assert server.rights.may_edit(game.id, DEVICE)
    assert not server.rights.may_edit(game.id, "another-phone-0123456789")


def test_sending_twice_gives_one_game_and_the_same_answer(server: Server) -> None:
    key = new_origin()
    first = server.send(game_file(), key)
    again = server.send(game_file(3), key)  # a retry after another hand: still that game
    assert first == again and first[0] == 200
    assert len(server.store.list_games()) == 1


def test_two_sends_at_once_make_one_game(server: Server) -> None:
    key = new_origin()
    start = threading.Barrier(4)
    answers: list[tuple[int, dict[str, Any]]] = []

    def send() -> None:
        start.wait()
        answers.append(server.send(game_file(), key))

    threads = [threading.Thread(target=send) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == 4 and all(a == answers[0] for a in answers)
    assert len(server.store.list_games()) == 1


@pytest.mark.parametrize("body", [
    b"not json", b"[]", b'{"format": "tarabish-game/1"}',
    json.dumps({"format": "tarabish-game/1", "players": ["A", "B", "C", "D"],
                "first_dealer": 0, "hands": [{"caller": 9}]}).encode(),
    b"[" * 100_000,
])
def test_a_bad_game_gets_one_clear_line_and_changes_nothing(server: Server, body: bytes) -> None:
    status, answer = server.send(body, new_origin())
    assert status == 400
    assert answer["error"].endswith("Nothing was sent.") and "\n" not in answer["error"]
    assert "Traceback" not in answer["error"]
    assert server.store.list_games() == []


@pytest.mark.parametrize("origin,device", [("", DEVICE), ("x" * 32, DEVICE),
                                           (new_origin(), ""), (new_origin(), "bad token!")],
                         # named, not by their random keys: every worker collects the same ids
                         ids=["no-key", "short-key", "no-token", "bad-token"])
def test_a_request_without_a_good_key_or_token_is_refused(server: Server, origin: str,
                                                          device: str) -> None:
    status, answer = server.send(game_file(), origin, device)
    assert status == 400 and "reload" in answer["error"]
    assert server.store.list_games() == []


def test_too_big_is_refused_before_it_is_read(server: Server) -> None:
    status, answer = server.send(b" " * (MAX_SEND_BYTES + 1), new_origin())
    assert (status, answer) == (413, {"error": TOO_BIG})
    assert server.store.list_games() == []


def test_new_games_per_address_are_braked_but_a_retry_is_not_a_new_game(tmp_path: Path) -> None:
    server = Server(tmp_path, per_hour=2)
    key = new_origin()
    assert server.send(game_file(), key)[0] == 200
    assert server.send(game_file(), key)[0] == 200  # the same game: not counted again
    assert server.send(game_file(), new_origin())[0] == 200
    status, answer = server.send(game_file(), new_origin())
    assert status == 429 and "wait" in answer["error"]
    assert len(server.store.list_games()) == 2


def test_an_answer_never_names_another_phones_game(server: Server) -> None:
    mine = server.send(game_file(), new_origin())[1]
    theirs = server.send(game_file(), new_origin(), "another-phone-0123456789")[1]
    assert mine["id"] != theirs["id"] and mine["code"] != theirs["code"]


# -- the phone-alone site under /alone/ -----------------------------------------------------


def fake_site(root: Path) -> Path:
    root.mkdir()
    (root / "index.html").write_text(
        '<html><head><base href="/">\n<script>var flet = {webSocketEndpoint: "/ws"}\n'
        'flet.pyodideUrl="/pyodide/pyodide.mjs";\nflet.canvasKitBaseUrl="/canvaskit/";\n'
        'flet.fontFallbackBaseUrl="assets/fonts/";\nflet.entrypointBaseUrl="/";\n'
        'flet.assetBase="/";\n</script></head></html>')
    (root / "sw.js").write_text("// the service worker")
    (root / "main.dart.wasm").write_bytes(b"\0asm")
    (root / "main.dart.wasm.br").write_bytes(brotli.compress(b"\0asm"))
    (root / ".tarabish-site").write_text("v1\n")
    return root


@pytest.fixture
def site_client(tmp_path: Path) -> TestClient:
    app = FastAPI()
    add_phone_site(app, PhoneSite(fake_site(tmp_path / "site")))
    (tmp_path / "secret.txt").write_text("not the site's")
    return TestClient(app)


def test_the_page_is_rebased_under_alone(site_client: TestClient) -> None:
    page = site_client.get("/alone/")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-cache"
    assert '<base href="/alone/">' in page.text
    # Every address the page loads from is the site's: offline, only /alone/ is kept.
    for line in ('flet.pyodideUrl="/alone/pyodide/pyodide.mjs";',
                 'flet.canvasKitBaseUrl="/alone/canvaskit/";', 'flet.entrypointBaseUrl="/alone/";',
                 'flet.assetBase="/alone/";', 'flet.fontFallbackBaseUrl="assets/fonts/";'):
        assert line in page.text
    moved = site_client.get("/alone", follow_redirects=False)
    assert moved.status_code == 308 and moved.headers["location"] == "/alone/"


def test_files_come_with_their_types_and_compressed_copies(site_client: TestClient) -> None:
    plain = site_client.get("/alone/main.dart.wasm", headers={"Accept-Encoding": "identity"})
    assert plain.headers["content-type"] == "application/wasm" and plain.content == b"\0asm"
    br = site_client.get("/alone/main.dart.wasm", headers={"Accept-Encoding": "br"})
    assert br.headers["content-encoding"] == "br"
    assert br.headers["content-type"] == "application/wasm" and br.content == b"\0asm"


@pytest.mark.parametrize("path", ["/alone/../secret.txt", "/alone/..%2fsecret.txt",
                                  "/alone/.tarabish-site", "/alone/nothing.js",
                                  "/alone/%2e%2e/secret.txt"])
def test_nothing_outside_the_site_is_served(site_client: TestClient, path: str) -> None:
    r = site_client.get(path)
    assert "not the site's" not in r.text
    assert r.status_code == 404 or "<base" in r.text


def test_a_folder_with_no_site_is_refused_at_start(tmp_path: Path) -> None:
    with pytest.raises(NoPhoneSite, match="build-web"):
        PhoneSite(tmp_path)


def test_tarabish_with_no_site_in_the_folder_says_so_and_does_not_start(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scorer.server import serve

    assert serve("127.0.0.1", 0, tmp_path / "data", open_browser=False,
                 phone_site=tmp_path) == 1
    assert "build-web" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()
