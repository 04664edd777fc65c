"""A club night's board and table cards are public to whoever has their address; on a
community (games private, issue 38 §3) addresses that name no club night count against
the connection's address, as a game's do, and past the brake are answered 429. On a
laptop nothing is counted."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from scorer.app import CONFIG
from scorer.events.model import EventSpec
from scorer.events.service import EventService
from scorer.rights.service import GAME_ADDRESS_FREE_TRIES
from scorer.store import GameStore
from scorer.web.club import BoardHub, add_club_routes


@pytest.fixture
def night(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    with GameStore(tmp_path / "data") as store:
        service = EventService(store)
        event, _code = service.create(EventSpec(name="Hall night", rounds=1,
                                                teams=(("Ann", "Bob"), ("Cid", "Dee"))))
        app = FastAPI()
        hub = BoardHub(lambda: service)
        add_club_routes(app, lambda: service, lambda: None, lambda: [], hub)
        yield TestClient(app), event.id
        hub.stop()


def test_guessed_club_night_addresses_are_braked_on_a_community(
        night: tuple[TestClient, str], monkeypatch: pytest.MonkeyPatch) -> None:
    client, event_id = night
    for n in range(GAME_ADDRESS_FREE_TRIES + 2):  # a laptop: never braked
        assert client.get(f"/board/{n:08x}").status_code == 404
    assert client.get(f"/board/{event_id}").status_code == 200
    monkeypatch.setattr(CONFIG, "private_games", True)
    for n in range(GAME_ADDRESS_FREE_TRIES):
        assert client.get(f"/board/{n + 100:08x}/state").status_code == 404
    for path in (f"/board/{event_id}", f"/board/{event_id}/state",
                 f"/event/{event_id}/cards"):
        refused = client.get(path)
        assert refused.status_code == 429, path
        assert "Too many addresses" in refused.text and int(refused.headers["Retry-After"]) > 0
