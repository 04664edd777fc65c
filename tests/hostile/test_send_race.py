"""POST /_tarabish/send, many at once from one address: the games-per-hour brake
holds. The brake was checked before the game was stored and counted after, so
sends in flight together all passed the check."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from scorer.store.records import new_origin
from tests.web.test_send_game import Server, game_file


def test_sends_at_once_from_one_address_start_no_more_games_than_the_brake_allows(
        tmp_path: Path) -> None:
    server = Server(tmp_path / "data", per_hour=2)
    body = game_file(2)
    start = threading.Barrier(10)

    def send(_: int) -> int:
        start.wait()
        return server.send(body, new_origin())[0]

    with ThreadPoolExecutor(10) as pool:
        statuses = list(pool.map(send, range(10)))
    assert sorted(statuses) == [200, 200] + [429] * 8
    assert len(server.store.list_games()) == 2
