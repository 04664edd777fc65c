"""Deleting a game needs its table code, checked on the server (issue 9, items 1 and 10)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.hostile.conftest import StartServer, delete_from_past_games, make_game
from tests.hostile.flet_client import FletClient

HOLDER = "holder-token-0123456789"


def test_a_phone_without_the_code_cannot_delete_a_game_and_is_told_why(
    start_server: StartServer, tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    game_id, _code = make_game(data, holder=HOLDER)
    server = start_server(data)
    with FletClient(server.port, route="/games") as guest:
        guest.pump(1.0)  # the device token is asked for and answered
        mark = guest.mark()
        guest.click("Delete", kind="TextButton")
        guest.pump(1.0)
        # Whatever comes up, press every Delete it offers (a confirm dialog on main).
        for button in guest.buttons("Delete", kind="FilledButton"):
            guest.event(button, "click")
        guest.pump(1.0)
        why = guest.wait_for("holds this game's table code", since=mark)
    assert "enter its code" in why
    assert (data / "games" / f"{game_id}.json").exists()
    assert game_id in json.loads((data / "table_codes.json").read_text())["games"]


def test_the_holder_deletes_the_game_and_its_code_goes_with_it(
    start_server: StartServer, tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    game_id, _code = make_game(data, holder=HOLDER)
    server = start_server(data)
    game_file = data / "games" / f"{game_id}.json"
    with FletClient(server.port, route="/games", device=HOLDER) as phone:
        phone.pump(1.0)
        delete_from_past_games(phone, game_file)
    assert not game_file.exists()
    assert game_id not in json.loads((data / "table_codes.json").read_text())["games"]
