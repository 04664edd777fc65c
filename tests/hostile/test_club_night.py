"""Club night against a stranger on the Wi-Fi (the hostile client) and the command
line beside a running server.

A phone without the organiser code sees the event but cannot start a round,
change an entrant or enter a result; a table's code opens that table's game only;
the board and the cards are read-only and show no code to a guest; `tarabish
event` hands its changes to the server."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.hostile.conftest import REPO_ROOT, Server, StartServer
from tests.hostile.flet_client import FletClient

TEAMS = [["Ann", "Bob"], ["Cid", "Dee"], ["Eve", "Fay"], ["Gus", "Hal"]]
HAND = {"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 162}}


def tarabish(data: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorer.cli", *argv, "--data-dir", str(data)],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
                          check=False)


def night(server: Server, tmp_path: Path) -> tuple[str, str, dict[str, Any]]:
    """An event made and round 1 started on the command line, handed to the server:
    (event id, organiser code, round 1 as JSON)."""
    spec = tmp_path / "night.json"
    spec.write_text(json.dumps({"name": "Legion", "format": "swiss", "rounds": 3,
                                "target": 300, "house_rules": {}, "teams": TEAMS}))
    made = tarabish(server.data_dir, "event", "new", str(spec))
    assert made.returncode == 0, made.stderr
    assert "process" not in made.stderr  # the server did it: no "in use by" refusal
    code = re.search(r"organiser code (\d{4}) (\d{4})", made.stderr)
    assert code, made.stderr
    event_id = made.stdout.strip()
    started = tarabish(server.data_dir, "event", "round", event_id, "--json")
    assert started.returncode == 0, started.stderr
    return event_id, code.group(1) + code.group(2), json.loads(started.stdout)


def http(url: str, data: bytes | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, data=data, headers=headers or {},
                                     method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def pad_in(phone: FletClient, code: str) -> None:
    """Tap a code's digits on the number pad, as a thumb does."""
    for digit in code:
        phone.click(digit, kind="OutlinedButton")
        phone.pump(0.05)


def test_a_stranger_cannot_run_the_night(start_server: StartServer, tmp_path: Path) -> None:
    server = start_server()
    event_id, code, first = night(server, tmp_path)
    before = json.loads((server.data_dir / "events" / f"{event_id}.json").read_text())
    with FletClient(server.port, route=f"/club/{event_id}", source="127.0.0.7") as guest:
        guest.pump(1.5)
        guest.wait_for("Only the organiser changes this club night")
        for label in ("Start round 2", "Call time", "Withdraw", "Add", "Result",
                      "Table cards (print)", "Export all"):
            assert not guest.buttons(label), label
        assert not any(code in s for s in guest.said())
        # Guessing the organiser code is braked like a table code.
        wrong = "12345678" if code != "12345678" else "87654321"
        answers = []
        guest.click("Enter organiser code")
        for _ in range(4):
            mark = guest.mark()
            pad_in(guest, wrong)
            answers.append(guest.wait_for("organiser code (", "Too many", since=mark))
        assert "Too many wrong codes" in answers[-1]
    after = json.loads((server.data_dir / "events" / f"{event_id}.json").read_text())
    assert after == before  # nothing moved

    # A table's code opens its own game, never the other table's.
    one, two = first["tables"]
    table_code = json.loads((server.data_dir / "table_codes.json").read_text())[
        "games"][one["game"]]["code"]
    with FletClient(server.port, route=f"/game/{one['game']}") as table:
        table.pump(1.0)
        table.click("Enter table code")
        for digit in table_code:
            table.click(digit, kind="OutlinedButton")
            table.pump(0.05)
        table.wait_for("can now record")
        table.go(f"/game/{two['game']}/hand")
        table.pump(1.0)
        table.wait_for("its code is on the table card")  # a club table: no "ask the phone"
        assert not table.buttons("Save hand")
        table.go(f"/club/{event_id}")
        table.pump(1.0)
        assert not table.buttons("Start round 2") and not table.buttons("Result")

    # The board and the cards are read-only, and a guest reads no code off them.
    status, page = http(f"http://127.0.0.1:{server.port}/event/{event_id}/cards")
    assert status == 200 and table_code not in page and "ask the organiser" in page
    for ticket in ("1.abc", f"9999999999.{'0' * 32}", "x" * 5000):
        status, page = http(f"http://127.0.0.1:{server.port}/event/{event_id}/cards?ticket="
                            f"{ticket}")
        assert status == 200 and table_code not in page
    status, page = http(f"http://127.0.0.1:{server.port}/event/{event_id}/cards?ticket="
                        f"9999999999.{'0' * 32}")
    assert table_code not in page
    status, state = http(f"http://127.0.0.1:{server.port}/board/{event_id}/state")
    assert status == 200 and table_code not in state and code not in state
    assert http(f"http://127.0.0.1:{server.port}/board/{event_id}/state", b"{}")[0] == 405
    # The command door wants the key from the lock file.
    body = json.dumps({"action": "round", "event": event_id}).encode()
    assert http(f"http://127.0.0.1:{server.port}/_tarabish/event", body)[0] == 403
    assert http(f"http://127.0.0.1:{server.port}/_tarabish/event", body,
                {"X-Tarabish-Key": "guess"})[0] == 403


def test_the_organisers_phone_runs_the_round(start_server: StartServer,
                                            tmp_path: Path) -> None:
    server = start_server()
    event_id, code, first = night(server, tmp_path)
    with FletClient(server.port, route=f"/club/{event_id}") as organiser:
        organiser.pump(1.5)
        organiser.click("Enter organiser code")
        pad_in(organiser, code)
        organiser.wait_for("organises the club night now")
        mark = organiser.mark()
        # Greyed on the phone while round 1 plays on; a tap sent anyway is refused here.
        organiser.click("Start round 2")
        said = organiser.wait_for("still being played", since=mark)
        assert "tables 1 and 2" in said
        # The organiser holds every game of the event: a hand on table 2's game.
        organiser.go(f"/game/{first['tables'][1]['game']}")
        organiser.pump(1.0)
        assert organiser.buttons("Record hand")
    # The command line beside the server: a finished paper game for table 1, the
    # standings read while the server runs.
    seats = first["tables"][0]["seats"]
    paper = tmp_path / "paper.json"
    paper.write_text(json.dumps({"format": "tarabish-game/1", "players": seats,
                                 "first_dealer": 0, "rules": {"target": 300},
                                 "hands": [HAND, HAND]}))
    stored = tarabish(server.data_dir, "import", str(paper), "--event", event_id,
                      "--table", "1")
    assert stored.returncode == 0, stored.stderr
    table = json.loads(tarabish(server.data_dir, "event", "standings", event_id,
                                "--json").stdout)
    assert table["rounds_played"] == 0
    refused = tarabish(server.data_dir, "event", "round", event_id)
    assert refused.returncode == 2 and "still being played at table 2" in refused.stderr
    assert refused.stderr.count("\n") == 1
