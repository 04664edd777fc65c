"""The TV leaderboard's routes with a group (`?group=`): the group's games only, its
name as the title; a bad or unknown group is refused plainly; a community server
has no all-games board."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from scorer.app.group_access import get_groups
from scorer.store import GameStore
from scorer.store.ports import GamesPort
from scorer.web.leaderboard import add_leaderboard_routes

WON = json.loads((Path(__file__).parents[1] / "data" / "won_game.json").read_text("utf-8"))


def game_doc(players: tuple[str, str, str, str], _winner: int) -> dict[str, Any]:
    """A finished game that the first and third named win."""
    return {"format": "tarabish-game/1", "players": list(players), "first_dealer": 3,
            "rules": {"forced_at": 400}, "hands": WON["hands"]}


def _client(store: GamesPort) -> TestClient:
    app = FastAPI()
    add_leaderboard_routes(app, lambda: store)
    return TestClient(app)


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[GameStore]:
    with GameStore(tmp_path / "data") as store:
        yield store


def test_a_groups_tv_board(folder: GameStore) -> None:
    friday = folder.create_game(game_doc(("Ann", "Bob", "Cid", "Dee"), 0))
    folder.create_game(game_doc(("Eve", "Fay", "Gil", "Hal"), 0))
    groups = get_groups(folder)
    group, _ = groups.create("Friday bish")
    groups.add_games(group.id, [(friday.id, ("Ann", "Bob", "Cid", "Dee"))])
    client = _client(folder)
    state = client.get(f"/leaderboard/state?group={group.id}").json()
    assert state["group"] == "Friday bish" and state["games"] == 1
    assert {p["player"] for p in state["players"]} == {"Ann", "Bob", "Cid", "Dee"}
    everyone = client.get("/leaderboard/state").json()
    assert everyone["group"] is None and len(everyone["players"]) == 8
    assert client.get(f"/leaderboard?group={group.id}").status_code == 200


@pytest.mark.parametrize("bad", ["deadbeef", "ZZZZ", "%3Cscript%3E", "1234567890"])
def test_a_bad_group_is_refused_plainly(folder: GameStore, bad: str) -> None:
    client = _client(folder)
    page = client.get(f"/leaderboard?group={bad}")
    assert page.status_code == 404 and "There is no such group." in page.text
    state = client.get(f"/leaderboard/state?group={bad}")
    assert state.status_code == 404 and state.json() == {"error": "There is no such group."}


def test_a_community_tv_needs_a_group(pg_url: str, tmp_path: Path) -> None:
    from scorer.store.database import Database
    from scorer.store.pg_games import PgGameStore

    db = Database(pg_url)
    try:
        store = PgGameStore(db, data_dir=tmp_path / "cache")
        game = store.create_game(game_doc(("Ann", "Bob", "Cid", "Dee"), 0))
        groups = get_groups(store)
        group, _ = groups.create("Legion")
        groups.add_games(group.id, [(game.id, ("Ann", "Bob", "Cid", "Dee"))])
        client = _client(store)
        assert "error" in client.get("/leaderboard/state").json()
        state = client.get(f"/leaderboard/state?group={group.id}").json()
        assert state["group"] == "Legion" and len(state["players"]) == 4
    finally:
        db.close()


def test_guessed_group_addresses_are_braked_where_games_are_private(
        folder: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """A community (games private, issue 38): a group's board is public to whoever has
    its address, but addresses that name no group count against the connection's
    address, as a game's do; on a laptop nothing is counted."""
    from scorer.rights.service import GAME_ADDRESS_FREE_TRIES

    group, _ = get_groups(folder).create("Friday bish")
    client = _client(folder)
    for n in range(GAME_ADDRESS_FREE_TRIES + 2):  # a laptop: never braked
        assert client.get(f"/leaderboard/state?group={n:08x}").status_code == 404
    assert client.get(f"/leaderboard?group={group.id}").status_code == 200
    monkeypatch.setattr("scorer.app.CONFIG.private_games", True)
    for n in range(GAME_ADDRESS_FREE_TRIES):
        assert client.get(f"/leaderboard?group={n + 100:08x}").status_code == 404
    refused = client.get(f"/leaderboard/state?group={group.id}")
    assert refused.status_code == 429 and "Too many addresses" in refused.text
    assert int(refused.headers["Retry-After"]) > 0
    assert client.get(f"/leaderboard?group={group.id}").status_code == 429
