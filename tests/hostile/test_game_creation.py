"""Nobody can flood the server with games, and the list comes a page at a time
(issue 9, item 8)."""

from __future__ import annotations

import time
from pathlib import Path

from scorer.rights.service import GAMES_PER_HOUR
from scorer.store.game_store import GameStore
from tests.hostile.conftest import DOC, StartServer
from tests.hostile.flet_client import FletClient

REFUSED = f"has started {GAMES_PER_HOUR} games in the last hour"


def fill_new_game(client: FletClient, since: int = 0) -> None:
    client.click("Draw at random", since=since)
    for seat, name in enumerate(("Ann", "Bob", "Cid", "Dee")):
        client.type_into(f"Player {seat + 1}", name)
    client.pump(0.2)


def saved_games(data: Path) -> int:
    return sum(1 for _ in (data / "games").glob("*.json"))


def test_one_address_cannot_start_games_without_limit(
    start_server: StartServer, tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    server = start_server(data)
    refusal = ""
    with FletClient(server.port, route="/new", source="127.0.0.7") as guest:
        for n in range(GAMES_PER_HOUR + 1):  # bounded: one more than allowed
            shown = guest.mark()
            if n:
                guest.go("/new")
            fill_new_game(guest, since=shown if n else 0)
            before = saved_games(data)
            mark = guest.mark()
            guest.click("Start game")
            deadline = time.monotonic() + 5
            while saved_games(data) == before and time.monotonic() < deadline:
                guest.pump(0.1)
                if any(REFUSED in s for s in guest.said(mark)):
                    refusal = next(s for s in guest.said(mark) if REFUSED in s)
                    break
            if refusal:
                break
            guest.wait_for("push_route", since=mark)  # the phone is sent to the new game
            guest.pump(0.3)
    assert saved_games(data) == GAMES_PER_HOUR
    assert "wait" in refusal and "min" in refusal
    # Another phone may still start its game.
    with FletClient(server.port, route="/new", source="127.0.0.8") as other:
        fill_new_game(other)
        other.click("Start game")
        deadline = time.monotonic() + 5
        while saved_games(data) == GAMES_PER_HOUR and time.monotonic() < deadline:
            other.pump(0.1)
    assert saved_games(data) == GAMES_PER_HOUR + 1


def test_past_games_are_sent_a_page_at_a_time(
    start_server: StartServer, tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    with GameStore(data) as store:
        for _ in range(130):
            store.create_game(dict(DOC))
    server = start_server(data)
    with FletClient(server.port, route="/games") as phone:
        phone.wait_for("Past games", timeout=15)
        phone.pump(0.5)
        first_page = len(phone.buttons("Open", kind="TextButton"))
        assert 0 < first_page <= 25
        assert "Games 1–20 of 130" in phone.said()
        mark = phone.mark()
        phone.click("Older games")
        phone.wait_for("Games 21–40 of 130", since=mark)
    # The last page, asked for by address, and a page number out of range.
    with FletClient(server.port, route="/games?page=999") as phone:
        phone.wait_for("Games 121–130 of 130")
