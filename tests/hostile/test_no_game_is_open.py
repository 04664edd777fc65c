"""No game is open to the first comer (issue 23, item 3).

An imported game, one saved before table codes, or one whose codes file was
lost used to go to the first phone that changed it: any guest on the Wi-Fi
could claim it, edit it, rename its players or delete it. Now every game has a
code from the moment it arrives, and only its holders, or the host (who read
the host code in the server's terminal), may change it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

from scorer.rights.service import HOST_CODE_DIGITS
from tests.hostile.conftest import (
    DOC,
    REPO_ROOT,
    Server,
    StartServer,
    delete_from_past_games,
)
from tests.hostile.flet_client import FletClient

HAND = {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 120}}
WRONG = "not the host code"
WAIT = "Too many wrong codes"


def import_game(data: Path, tmp_path: Path) -> tuple[str, str]:
    """`tarabish import` of a finished paper game: its id and the table code it printed."""
    path = tmp_path / "paper.json"
    path.write_text(json.dumps({**DOC, "hands": [HAND]}), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "scorer.cli", "import", str(path),
                           "--data-dir", str(data)], cwd=REPO_ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    [game_id] = done.stdout.split()
    found = re.search(r"table code (\d{6})", done.stderr)
    assert found, done.stderr
    return game_id, found.group(1)


def host_code(server: Server) -> str:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = re.search(r"Host code: (\d{5}) (\d{5})", server.log())
        if found:
            return found.group(1) + found.group(2)
        time.sleep(0.1)
    raise AssertionError(f"no host code in the server's output:\n{server.log()}")


def saved(data: Path, game_id: str) -> dict[str, object]:
    record = json.loads((data / "games" / f"{game_id}.json").read_text())["game"]["1"]
    return dict(record["doc"])


def type_code(client: FletClient, code: str, *answers: str) -> str:
    mark = client.mark()
    for digit in code:
        client.click(digit, kind="OutlinedButton")
        client.pump(0.05)
    return client.wait_for(*answers, since=mark)


def test_a_guest_can_claim_edit_rename_or_delete_no_imported_game(
    start_server: StartServer, tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    server = start_server(data)
    game_id, code = import_game(data, tmp_path)  # handed to the running server
    codes = json.loads((data / "table_codes.json").read_text())["games"]
    assert codes[game_id] == {"code": code, "devices": {}}
    before = saved(data, game_id)

    with FletClient(server.port, route=f"/game/{game_id}/hand") as guest:
        guest.pump(1.0)
        # Record hand: the code entry, not the form (nothing to claim).
        guest.wait_for("Ask the phone that started the game")
        assert not guest.buttons("Save hand")
        # Edit hand 1: the same.
        guest.go(f"/game/{game_id}/hand/1")
        guest.pump(1.0)
        assert not guest.buttons("Save hand 1")
        # Delete from Past games: refused, with the reason.
        guest.go("/games")
        guest.pump(1.0)
        mark = guest.mark()
        guest.click("Delete", kind="TextButton")
        guest.pump(1.0)
        for button in guest.buttons("Delete", kind="FilledButton"):
            guest.event(button, "click")
        guest.wait_for("holds this game's table code", since=mark)
        # Rename a player from Statistics: the game is left as it was.
        guest.go("/stats")
        guest.pump(1.0)
        mark = guest.mark()
        guest.click("Rename Ann")
        guest.pump(0.5)
        guest.type_into("New name", "Mallory")
        guest.click("Rename", kind="FilledButton")
        guest.wait_for("left as they were", since=mark)

    assert saved(data, game_id) == before
    codes = json.loads((data / "table_codes.json").read_text())["games"]
    assert codes[game_id]["devices"] == {}  # nobody took it

    # Its printed code opens it, as any table code does.
    with FletClient(server.port, route=f"/game/{game_id}") as player:
        player.pump(1.0)
        player.click("Enter table code")
        assert "can now record" in type_code(player, code, "can now record", "not this game")


def test_the_host_code_is_long_and_braked_and_opens_every_game(
    start_server: StartServer, tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    _game_id, _code = import_game(data, tmp_path)  # before the server: no holder yet
    (data / "table_codes.json").unlink()  # and its codes file lost
    server = start_server(data)
    right = host_code(server)
    assert len(right) == HOST_CODE_DIGITS == 10
    assert "1 game had no table code" in server.log()
    wrong = "0" * 10 if right != "0" * 10 else "1" * 10
    answers = []
    for n in range(4):  # four "phones" on real, distinct addresses; three guesses each
        with FletClient(server.port, route="/host", source=f"127.0.0.{n + 2}") as guest:
            guest.pump(1.0)
            guest.wait_for("Enter the host code")
            answers += [type_code(guest, wrong, WRONG, WAIT) for _ in range(3)]
    assert all(WRONG in a for a in answers[:2]), answers
    assert WAIT in answers[2]  # the third from one address waits
    first_wait = min(i for i, a in enumerate(answers) if WAIT in a and i % 3 != 2)
    assert first_wait <= 10, answers  # ten in all from everyone, then everyone waits
    with FletClient(server.port, route="/host", source="127.0.0.30") as late:
        late.pump(1.0)
        assert WAIT in type_code(late, right, WRONG, WAIT, "now the host")
    assert json.loads((data / "table_codes.json").read_text()).get("hosts", {}) == {}


def test_the_host_holds_every_game_and_is_not_told_by_a_loopback_address(
    start_server: StartServer, tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    game_id, _code = import_game(data, tmp_path)
    server = start_server(data)
    # A guest on this very machine (or behind a local proxy) is no host.
    with FletClient(server.port, route=f"/game/{game_id}/hand") as local:
        local.pump(1.0)
        local.wait_for("Ask the phone that started the game")
    with FletClient(server.port, route="/host") as host:
        host.pump(1.0)
        assert "now the host" in type_code(host, host_code(server), "now the host", WRONG)
        host.go("/games")
        host.pump(1.0)
        delete_from_past_games(host, data / "games" / f"{game_id}.json")
    assert not (data / "games" / f"{game_id}.json").exists()
