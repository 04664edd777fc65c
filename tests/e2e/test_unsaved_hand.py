"""No hand vanishes when a process dies at Save (issue 38, section 4).

The server is held at a step of the save (`scorer/app/hold_for_tests.py`: the
phone keeps the hand and the store has not seen it, or the store has it and the
phone has not been told) and killed there with SIGKILL. The phone then comes back
to a new session: on the laptop's table server restarted on the same folder, and
on a community through its proxy (a forwarder here), on the other process. A hand
not stored is on the phone's screen again, saying so, and saves once; a hand that
was stored is on the sheet once and is not offered again.

Screenshots: unsaved-hand-restored-* (the hand back on the phone), unsaved-hand-was-stored-*
(the sheet saying it was stored).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from table_steps import enter_seeded_code, seed_game_in
from tcp_forwarder import Forwarder
from test_community import kill_now, live_again
from test_sharing import fill_hand, hand_rows, phone
from test_two_phones import shoot_every_way

from scorer.app.hold_for_tests import HOLD_ENV
from scorer.app.unsaved import NOT_SAVED, saved_anyway
from tests.server_zygote import run_cli

LOST = "Lost the table server."
KEPT = "flutter.tarabish.unsaved"
"""Where Flutter's SharedPreferences keeps the hand in the browser's localStorage."""
PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


@dataclass
class Table:
    """A server held at one step of a save, and how the phone reaches the next one."""

    url: str
    held: Any
    """The process to kill (an `AppServer`)."""
    marker: Path
    then: Callable[[], None]
    """Once `held` is dead: start what the phone comes back to."""
    store: list[str]
    """The options of `tarabish` that name this store (--data-dir or --database)."""
    folder: Path
    """Where a seeded game's file is written."""
    closing: list[Callable[[], None]] = field(default_factory=list)

    def wait_held(self, timeout_s: float = 20.0) -> None:
        """Until the server has reached its step and stopped answering."""
        deadline = time.monotonic() + timeout_s
        while not self.marker.exists():
            assert time.monotonic() < deadline, (
                f"the save did not reach the held step in {timeout_s} s:\n{self.held.log()}")
            assert self.held.is_running(), self.held.log()
            time.sleep(0.02)

    def hands(self, game: str) -> list[dict[str, Any]]:
        """The game's hands as the store has them now (`tarabish export`, forked from the
        worker's zygote: no interpreter start)."""
        done = run_cli(["export", *self.store, game, "--no-history"], check=True)
        hands: list[dict[str, Any]] = json.loads(done.stdout)["hands"]
        return hands

    def open_game(self, page: Page, open_app: Callable[..., float]) -> str:
        """A new game of PLAYERS in this store (`tarabish import`: how it was started is
        not what these tests prove), opened on `page`, which enters its table code: the
        phone holds it, as the phone that started it would. Its id."""
        game = seed_game_in(self.store, self.folder, [], players=PLAYERS)
        open_app(page, f"{self.url}game/{game}", first_text="Score sheet")
        enter_seeded_code(page, game)
        expect(page.get_by_role("button", name="Record hand")).to_be_visible()
        return game


@pytest.fixture(params=["folder", "postgresql"])
def held_table(request: pytest.FixtureRequest, start_server: Callable[..., Any],
               tmp_path: Path) -> Iterator[Callable[[str], Table]]:
    """`held_table(step)`: the laptop's table server (restarted on its folder after the
    kill), or a community of two processes on PostgreSQL behind a forwarder (the phone
    moves to the other process); the first process is held at `step` of a save."""
    made: list[Table] = []

    def make(step: str) -> Table:
        marker = tmp_path / f"held-{step}"
        hold = {HOLD_ENV: f"{step}:{marker}"}
        if request.param == "folder":
            data = tmp_path / "data"
            server = start_server(data_dir=data, env=hold)

            def restart() -> None:  # the same folder and port, not held
                start_server(data_dir=data, port=server.port)

            table = Table(server.url, server, marker, restart, ["--data-dir", str(data)],
                          tmp_path)
        else:
            pg_url = request.getfixturevalue("pg_url")
            one = start_server(env={"TARABISH_DATABASE": pg_url, **hold})
            two = start_server(env={"TARABISH_DATABASE": pg_url})
            proxy = Forwarder([one.port, two.port])
            table = Table(proxy.url, one, marker, lambda: None, ["--database", pg_url],
                          tmp_path)
            table.closing.append(proxy.close)
        made.append(table)
        return table

    yield make
    for table in made:
        for close in table.closing:
            close()


def save_and_kill(page: Page, table: Table, caller: str, points: str) -> None:
    """Record hand, type it, tap Save; kill the server at its held step, then start
    what the phone comes back to, and wait until the page is live on it. (On a
    community it is back within the 0.6 s after which reconnect.js says "Lost".)"""
    page.get_by_role("button", name="Record hand").click()
    fill_hand(page, caller, points)
    page.get_by_role("button", name=re.compile("^Save hand")).click()
    table.wait_held()
    killed = kill_now(table.held.process)
    table.then()
    live_again(page, killed, timeout_s=30)  # the page's socket closed, then a new one spoke


def kept_in_browser(page: Page) -> Any:
    return page.evaluate(f"localStorage.getItem({KEPT!r})")


@pytest.mark.server_stops
def test_a_hand_the_server_never_stored_is_back_on_the_phone_and_saves_once(
    new_context: Callable[..., BrowserContext], open_app: Callable[..., float],
    held_table: Callable[[str], Table], screenshot: Callable[[Page, str], Path],
    request: pytest.FixtureRequest,
) -> None:
    table = held_table("before")
    page = phone(new_context)
    game = table.open_game(page, open_app)
    save_and_kill(page, table, "Ann", "95")

    # Back on a new session: the typed hand, said to be unsaved, Save ready.
    expect(page.get_by_text(NOT_SAVED)).to_be_visible(timeout=30_000)
    expect(page.get_by_text(LOST)).to_have_count(0)
    expect(page.get_by_text("Record hand 1")).to_be_visible()
    expect(page.get_by_text(re.compile(r"\b95\s+typing"))).to_have_count(1)
    save = page.get_by_role("button", name=re.compile("^Save hand"))
    expect(save).to_be_enabled()
    assert table.hands(game) == []
    store = request.node.callspec.params["held_table"]
    shoot_every_way(page, f"unsaved-hand-restored-{store}", screenshot)
    expect(page.get_by_text(NOT_SAVED)).to_be_visible()

    save.click()
    expect(hand_rows(page, 1)).to_have_count(1, timeout=10_000)
    expect(hand_rows(page, 2)).to_have_count(0)
    expect(page.get_by_text("1. Dee dealt · Ann called ♥")).to_be_visible()
    assert len(table.hands(game)) == 1
    # Confirmed: the phone keeps nothing, and a reload offers nothing again.
    deadline = time.monotonic() + 10
    while kept_in_browser(page) is not None:
        assert time.monotonic() < deadline, "the phone still keeps the saved hand"
        page.wait_for_timeout(50)
    open_app(page, f"{table.url}game/{game}", first_text="Score sheet")
    expect(hand_rows(page, 1)).to_have_count(1)
    expect(page.get_by_text(NOT_SAVED)).to_have_count(0)
    assert len(table.hands(game)) == 1


@pytest.mark.server_stops
def test_a_hand_stored_just_before_the_kill_is_not_offered_again(
    new_context: Callable[..., BrowserContext], open_app: Callable[..., float],
    held_table: Callable[[str], Table], screenshot: Callable[[Page, str], Path],
    request: pytest.FixtureRequest,
) -> None:
    table = held_table("after")
    page = phone(new_context)
    game = table.open_game(page, open_app)
    save_and_kill(page, table, "Ann", "95")
    assert len(table.hands(game)) == 1  # the store had it before the kill

    # Back on the sheet, told, with the hand once; nothing offered again as new.
    expect(page.get_by_text(saved_anyway(1))).to_be_visible(timeout=30_000)
    expect(page.get_by_text(LOST)).to_have_count(0)
    expect(hand_rows(page, 1)).to_have_count(1)
    expect(hand_rows(page, 2)).to_have_count(0)
    expect(page.get_by_text(NOT_SAVED)).to_have_count(0)
    expect(page).to_have_url(re.compile(rf"/game/{game}$"))
    deadline = time.monotonic() + 10
    while kept_in_browser(page) is not None:
        assert time.monotonic() < deadline, "the phone still keeps the stored hand"
        page.wait_for_timeout(50)
    store = request.node.callspec.params["held_table"]
    shoot_every_way(page, f"unsaved-hand-was-stored-{store}", screenshot)
    expect(page.get_by_text(saved_anyway(1))).to_be_visible()
    page.get_by_role("button", name="OK, read").click()
    page.get_by_role("button", name="Record hand").click()
    expect(page.get_by_text("Record hand 2")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("^Save hand"))).to_be_disabled()
    assert len(table.hands(game)) == 1
