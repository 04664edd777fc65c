"""POST /_tarabish/send on the real server, on both stores, as a stranger would: a
valid game lands in the store with its table code (on a community too: the send
asked for a data folder there, so every send was a 500), and nothing a stranger
sends (bad JSON, wrong types, too much, twenty at once) ends in a 500."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from scorer.store.records import new_origin
from scorer.web.send import DEVICE_HEADER, MAX_SEND_BYTES, ORIGIN_HEADER, SEND_PATH
from tests.hostile.conftest import Server, StartServer
from tests.web.test_send_game import DEVICE, game_file


@pytest.fixture(params=["folder", "postgresql"])
def served(request: pytest.FixtureRequest, start_server: StartServer) -> tuple[Server, str]:
    """The table server on a data folder, or a community's on its database: (server,
    the database's URL or "")."""
    if request.param == "folder":
        return start_server(), ""
    url = request.getfixturevalue("pg_url")
    return start_server(args=("--database", url)), url


def post(port: int, body: bytes | Iterator[bytes], headers: dict[str, str] | None = None,
         method: str = "POST") -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        sent = {ORIGIN_HEADER: new_origin(), DEVICE_HEADER: DEVICE,
                "Content-Type": "application/json", **(headers or {})}
        conn.request(method, SEND_PATH, body=body, headers=sent,
                     encode_chunked=not isinstance(body, bytes))
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def hang_up_mid_body(port: int) -> None:
    """Announce a body, send a little of it, and hang up."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall((f"POST {SEND_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   f"{ORIGIN_HEADER}: {new_origin()}\r\n{DEVICE_HEADER}: {DEVICE}\r\n"
                   "Content-Length: 100000\r\n\r\n{\"format\": ").encode())


def stored(url: str, data_dir: Path, game_id: str) -> tuple[int, str | None]:
    """(hands, table code) of a stored game, read from the store it is in."""
    from scorer.rights import TableRights
    from scorer.rights.codes import TableCodes

    if not url:
        from scorer.store.game_store import GameStore

        with GameStore(data_dir, read_only=True) as store:
            hands = len(store.get_game(game_id).doc["hands"])
        return hands, TableRights(TableCodes(data_dir)).code(game_id)
    from scorer.store.database import Database
    from scorer.store.pg_games import PgGameStore

    db = Database(url)
    try:
        hands = len(PgGameStore(db, data_dir=data_dir / "cache").get_game(game_id).doc["hands"])
        return hands, TableRights.on_database(db).code(game_id)
    finally:
        db.close()


def test_a_sent_game_lands_in_the_store_with_its_table_code(served: tuple[Server, str],
                                                            tmp_path: Path) -> None:
    server, url = served
    origin = new_origin()
    status, body = post(server.port, game_file(3), {ORIGIN_HEADER: origin})
    assert status == 200, body
    answer = json.loads(body)
    assert answer["address"].endswith(f"/game/{answer['id']}")
    assert stored(url, server.data_dir if not url else tmp_path, answer["id"]) == (
        3, answer["code"])
    again = post(server.port, game_file(3), {ORIGIN_HEADER: origin})
    assert again == (200, body)  # a retry is the same game, the same answer


def chunks(total: int) -> Iterator[bytes]:
    block = b" " * 65536
    for _ in range(total // len(block) + 1):
        yield block


HOSTILE: list[tuple[str, bytes | None, dict[str, str], int]] = [
    ("not JSON", b"{not json", {}, 400),
    ("not UTF-8", b"\xff\xfe\x00{", {}, 400),
    ("an empty body", b"", {}, 400),
    ("a list", b"[]", {}, 400),
    ("a number", b"12", {}, 400),
    ("null", b"null", {}, 400),
    ("numbers for names", json.dumps({"format": "tarabish-game/1", "players": [1, 2, 3, 4],
                                      "first_dealer": 0, "rules": {}, "hands": []}).encode(),
     {}, 400),
    ("hands as an object", json.dumps({"format": "tarabish-game/1",
                                       "players": ["A", "B", "C", "D"], "first_dealer": "x",
                                       "rules": [], "hands": {"0": 1}}).encode(), {}, 400),
    ("deep nesting", b"[" * 100_000 + b"]" * 100_000, {}, 400),
    ("a long number", b'{"first_dealer": ' + b"9" * 50_000 + b"}", {}, 400),
    ("too big", b" " * (MAX_SEND_BYTES + 1), {}, 413),
    ("too big, unannounced", None, {}, 413),
    ("no key", game_file(), {ORIGIN_HEADER: ""}, 400),
    ("a bad device", game_file(), {DEVICE_HEADER: "<script>"}, 400),
]


def test_a_strangers_requests_get_their_answers_never_a_500(
        served: tuple[Server, str]) -> None:
    server, _url = served
    for what, body, headers, expected in HOSTILE:
        status, answer = post(server.port, chunks(MAX_SEND_BYTES) if body is None else body,
                              headers)
        assert status == expected, (what, answer[:300])
        assert json.loads(answer)["error"], what
    for method in ("GET", "PUT", "DELETE"):  # the page's own answer, or a refusal
        assert post(server.port, b"", method=method)[0] < 500, method
    hang_up_mid_body(server.port)
    assert post(server.port, b"{", {})[0] == 400  # the server still answers
    assert "Traceback" not in server.log()


def test_twenty_sends_at_once_each_get_an_answer(served: tuple[Server, str]) -> None:
    server, _url = served
    start = threading.Barrier(20)
    body = game_file(2)

    def send(_: int) -> int:
        start.wait(30)
        return post(server.port, body)[0]

    with ThreadPoolExecutor(20) as pool:
        statuses = list(pool.map(send, range(20)))
    assert set(statuses) <= {200, 429}, statuses
    assert statuses.count(200) >= 1
    assert post(server.port, b"{", {})[0] == 400  # and it still answers
    assert "Traceback" not in server.log()
