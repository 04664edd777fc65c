"""The table server restarts during a club night: a table's phone and the board say
they lost it, in words, then carry on by themselves once a new server process
answers on the same port with the same games (the phone gets a new session).

How fast is measured by benchmarks/bench_restart.py, not here. Screenshots of the
message: test-artifacts/screenshots/reconnect-lost-*.png.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from table_steps import shoot
from test_club_night import save_hand, table_phone

from tests.server_zygote import run_cli

LOST = "Lost the table server."
TEAMS = [["Ann", "Bob"], ["Cid", "Dee"], ["Eve", "Fay"], ["Gus", "Hal"]]


def club_night(data_dir: Path) -> tuple[str, str, str]:
    """A night of four teams with round 1 started, made at the terminal, as an
    organiser may: (event id, table 1's game, its table code)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    settings = data_dir.parent / "night.json"
    settings.write_text(json.dumps({"name": "Legion Thursday", "format": "round_robin",
                                    "target": 500, "seed": 1, "teams": TEAMS}))
    made = run_cli(["event", "new", str(settings), "--data-dir", str(data_dir)], check=True)
    event_id = made.stdout.split()[-1]
    round_1 = run_cli(["event", "round", event_id, "--data-dir", str(data_dir)], check=True)
    table = re.search(r"Table 1: .*\(game ([0-9a-f]{8}), table code (\d{6})\)", round_1.stdout)
    assert table, round_1.stdout
    return event_id, table.group(1), table.group(2)


@pytest.mark.server_stops
def test_phone_and_board_say_the_server_is_lost_and_come_back(
    new_context: Callable[..., BrowserContext],
    start_server: Callable[..., Any],
    open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path],
    tmp_path: Path,
) -> None:
    event_id, game, code = club_night(tmp_path / "data")
    server = start_server(data_dir=tmp_path / "data")
    phone = table_phone(new_context(), server.url, game, code, open_app)
    board = new_context().new_page()
    board.set_viewport_size({"width": 1280, "height": 720})
    board.goto(f"{server.url}board/{event_id}")
    expect(board.locator("#live")).to_have_text("live")
    expect(phone.get_by_text(LOST)).to_have_count(0)

    assert server.stop() == 0
    expect(phone.get_by_text(LOST)).to_be_visible(timeout=10_000)
    expect(phone.get_by_text("Trying again… Your game is saved.")).to_be_visible()
    expect(board.locator("#live")).to_have_text("Lost the table server. Trying again…",
                                                timeout=10_000)
    for width, height in ((390, 844), (360, 640)):
        phone.set_viewport_size({"width": width, "height": height})
        for shot in shoot(phone, f"reconnect-lost-{width}x{height}", screenshot):
            assert shot.stat().st_size > 4_096
    phone.set_viewport_size({"width": 390, "height": 844})
    board.emulate_media(color_scheme="dark")
    screenshot(board, "reconnect-lost-board-dark")
    board.emulate_media(color_scheme="light")
    screenshot(board, "reconnect-lost-board")
    board.set_viewport_size({"width": 1920, "height": 1080})
    screenshot(board, "reconnect-lost-board-1080")

    # A new server process on the same port and games: the phone's old session is
    # gone, and it shows its game again, live: a hand saved by the table's other
    # phone (the scorer's phone just opened it) reaches it and the board.
    again = start_server(data_dir=server.data_dir, port=server.port)
    expect(phone.get_by_text(LOST)).to_have_count(0, timeout=20_000)
    expect(board.locator("#live")).to_have_text("live", timeout=20_000)
    expect(phone.get_by_text("Hand 1:", exact=False)).to_be_visible()
    # The phone held the game before the restart and holds it after (issue 31: a
    # restart once turned a holder into a watcher).
    expect(phone.get_by_role("button", name="Record hand")).to_be_visible(timeout=20_000)
    expect(phone.get_by_text("Watching", exact=False)).to_have_count(0)
    other = table_phone(new_context(), again.url, game, code, open_app)
    save_hand(other, "Ann")
    expect(phone.get_by_text("Hand 2:", exact=False)).to_be_visible(timeout=10_000)
    expect(board.locator('[data-table="1"] header')).to_contain_text("1 hand", timeout=10_000)
