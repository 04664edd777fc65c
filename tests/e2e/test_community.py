"""One community, two server processes (issue 32 §2), each `tarabish` with
TARABISH_DATABASE on one PostgreSQL database (`pg_url`):

- two phones, each on its own process, play hands together and each sees the
  other's within 0.5 s (the database's notices, `scorer.store.database.feed`);
- one process is killed (kill -9) and started again on its port, or, behind a
  forwarder standing in for the proxy, the phone reaches the other process: it
  comes back by itself (reconnect.js) within 5 s with every hand, none twice;
- a table code entered through one process holds on the other, wrong codes add up
  across them, the same hand saved through both is one hand and one choice;
- Play again and a club night's board follow changes made on the other process.
Screenshots: community-sheet-after-restart-*, community-board-*.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from table_steps import SEEDED_CODES, seed_game_in
from test_club_night import save_hand, table_phone
from test_sharing import (
    WATCHING,
    enter_code,
    fill_hand,
    hand_rows,
    phone,
)
from test_two_phones import both_record_hand_1, shoot_every_way

from tests.server_zygote import run_cli

LOST = "Lost the table server."
#: A phone whose process died is back within this once a process answers again.
BACK_WITHIN_S = 5.0


def community(start_server: Callable[..., Any], pg_url: str, port: int | None = None) -> Any:
    """A `tarabish --database` process (TARABISH_DATABASE) on 127.0.0.1."""
    return start_server(port=port, env={"TARABISH_DATABASE": pg_url})


def shown_after(page: Page, row: Any, since: float, timeout_s: float = 10.0) -> float:
    """Seconds from `since` (time.monotonic) until `row` is on `page`'s screen: asked
    as often as the browser answers (a few ms), not at expect's polling steps."""
    deadline = time.monotonic() + timeout_s
    while not row.is_visible():
        if time.monotonic() > deadline:
            expect(row).to_be_visible(timeout=1)  # fails, with Playwright's words
        page.wait_for_timeout(5)
    return time.monotonic() - since


def gone_after(page: Page, text: Any, since: float, timeout_s: float) -> float:
    """Seconds from `since` until `text` has left `page`'s screen (asked as often)."""
    deadline = time.monotonic() + timeout_s
    while text.count():
        if time.monotonic() > deadline:
            expect(text).to_have_count(0, timeout=1)
        page.wait_for_timeout(5)
    return time.monotonic() - since


def seeded_game(pg_url: str, folder: Path, players: list[str]) -> tuple[str, str]:
    """A new game of `players` in the community's database, stored through `tarabish
    import` (how a phone starts one is test_community_privacy's walk through New game on
    a community); its id and the table code the import printed."""
    game = seed_game_in(["--database", pg_url], folder, [], players=players)
    return game, SEEDED_CODES[game]


def join_table(page: Page, open_app: Callable[..., float], url: str, game: str,
               code: str) -> None:
    """`page` opens `game` at `url` (a process, or the proxy in front of them) and
    enters its table code: it may record hands there."""
    open_app(page, f"{url}game/{game}", first_text=WATCHING)
    page.get_by_role("button", name="Enter table code").click()
    enter_code(page, code)
    expect(page.get_by_role("button", name="Record hand")).to_be_visible()


def kill_now(process: Any) -> float:
    """kill -9 a server process and wait for it to be gone; when it was killed, in
    epoch ms (the clock of reconnect.js's log)."""
    killed = time.time() * 1000
    process.kill()
    process.wait(10)
    return killed


def live_again(page: Page, since_ms: float, timeout_s: float = 20.0) -> tuple[float, float]:
    """From reconnect.js's log (`window.tarabishLink`): when the page's socket closed
    after `since_ms` (epoch ms), and when the server spoke on a new one ("live")."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        events = page.evaluate("window.tarabishLink || []")
        closed = [e["at"] for e in events if e["what"] == "socket closed" and e["at"] > since_ms]
        live = [e["at"] for e in events if e["what"] == "live" and closed and e["at"] > closed[0]]
        if live:
            return closed[0], live[0]
        page.wait_for_timeout(20)
    raise AssertionError(f"the page did not come back: {page.evaluate('window.tarabishLink')}")


def save_and_time(saver: Page, watcher: Page, number: int, caller: str,
                  points: str) -> tuple[float, float]:
    """`saver` records hand `number`: seconds from the Save tap until it is on the
    saver's sheet, and until it is on the watcher's (on the other process)."""
    saver.get_by_role("button", name="Record hand").click()
    fill_hand(saver, caller, points)
    tapped = time.monotonic()
    saver.get_by_role("button", name=re.compile("^Save hand")).click()
    own = shown_after(saver, hand_rows(saver, number), tapped)
    other = shown_after(watcher, hand_rows(watcher, number), tapped)
    return own, other


@pytest.mark.server_stops
def test_phones_on_two_processes_play_together_keep_one_of_two_saves_and_survive_a_kill(
    new_context: Callable[..., BrowserContext], start_server: Callable[..., Any],
    open_app: Callable[..., float], pg_url: str, screenshot: Callable[[Page, str], Path],
    tmp_path: Path,
) -> None:
    """Two phones, each on its own process: the same hand saved through both is one hand
    and one choice, as two phones on one laptop are; then they play hands together, and
    one's process is killed and started again: it comes back by itself."""
    one, two = community(start_server, pg_url), community(start_server, pg_url)
    assert "community's database" in one.log()
    game, code = seeded_game(pg_url, tmp_path, ["Ivy", "Jon", "Kit", "Lou"])
    a, b = phone(new_context), phone(new_context)
    # A holds the game on one process; B's code, entered on the other, holds there.
    join_table(a, open_app, one.url, game, code)
    join_table(b, open_app, two.url, game, code)

    # The same hand saved through both processes at once: one is stored, the other
    # phone is shown both versions.
    both_record_hand_1(a, b)
    expect(b.get_by_text("Hand 1: two versions"),
           "the same hand saved through two processes: one choice").to_be_visible()
    b.get_by_role("button", name="Keep theirs").click()
    expect(hand_rows(b, 1)).to_be_visible()
    for p in (a, b):
        expect(hand_rows(p, 2), "the same hand saved through two processes: one hand"
               ).to_have_count(0)
        expect(p.get_by_text("1. Lou dealt · Ivy called ♥")).to_be_visible()

    seen: list[float] = []
    for number, (saver, watcher, caller) in enumerate(((b, a, "Jon"), (a, b, "Kit")),
                                                      start=2):
        own, other = save_and_time(saver, watcher, number, caller, "95")
        print(f"hand {number}: on the saving phone {own * 1000:.0f} ms, "
              f"on the other process's phone {other * 1000:.0f} ms after Save")
        seen.append(other - own)
    # Measured from the saving phone's own sheet (the save done) to the other's: printed,
    # not judged here (a loaded machine moves it; benchmarks/bench_hosted.py measures it).
    print(f"the other process's phone, after the saving phone: {seen}")

    # kill -9 B's process; a new one on the same port: B comes back by itself.
    killed = time.monotonic()
    two.process.kill()
    two.process.wait(10)
    expect(b.get_by_text(LOST)).to_be_visible(timeout=15_000)
    again = community(start_server, pg_url, port=two.port)
    answering = time.monotonic()
    back = gone_after(b, b.get_by_text(LOST), answering, timeout_s=20)
    print(f"back {back * 1000:.0f} ms after the new process answered, "
          f"{(time.monotonic() - killed):.1f} s after the kill")
    assert back <= BACK_WITHIN_S
    expect(hand_rows(b, 3)).to_be_visible()
    assert "community's database" in again.log()

    # Nothing lost, nothing twice; and the sheet is live again both ways.
    expect(b.get_by_role("button", name="Record hand")).to_be_visible(timeout=10_000)
    own, other = save_and_time(b, a, 4, "Lou", "95")
    print(f"hand 4 after the restart: {own * 1000:.0f} ms, {other * 1000:.0f} ms")
    for p in (a, b):
        for number in (1, 2, 3, 4):
            expect(hand_rows(p, number)).to_have_count(1)
        p.wait_for_timeout(500)
        expect(hand_rows(p, 5)).to_have_count(0)
    shoot_every_way(b, "community-sheet-after-restart", screenshot)


def test_wrong_codes_add_up_across_processes(
    new_context: Callable[..., BrowserContext], start_server: Callable[..., Any],
    open_app: Callable[..., float], pg_url: str, tmp_path: Path,
) -> None:
    one, two = community(start_server, pg_url), community(start_server, pg_url)
    game, code = seeded_game(pg_url, tmp_path, ["Eve", "Fay", "Gus", "Hal"])
    wrong = "000000" if code != "000000" else "999999"
    # Two wrong codes through one process, the third through the other: braked. (One
    # phone for both: the brake counts the game's wrong codes, never the phone's.)
    b = phone(new_context)
    open_app(b, f"{one.url}game/{game}", first_text=WATCHING)
    b.get_by_role("button", name="Enter table code").click()
    for _ in range(2):
        enter_code(b, wrong)
    expect(b.get_by_text(re.compile(r"Too many wrong codes"))).to_have_count(0)
    open_app(b, f"{two.url}game/{game}", first_text=WATCHING)
    b.get_by_role("button", name="Enter table code").click()
    enter_code(b, wrong)
    expect(b.get_by_text(re.compile(r"Too many wrong codes: try again in \d+ s"))
           ).to_be_visible()
    enter_code(b, code)  # even the right code waits now
    expect(b.get_by_text(re.compile(r"Too many wrong codes: try again in \d+ s"))
           ).to_be_visible()
    expect(b.get_by_role("button", name="Record hand")).to_have_count(0)


def test_a_board_on_one_process_follows_a_table_on_the_other(
    new_context: Callable[..., BrowserContext], start_server: Callable[..., Any],
    open_app: Callable[..., float], pg_url: str, tmp_path: Path,
    screenshot: Callable[[Page, str], Path],
) -> None:
    settings = tmp_path / "night.json"
    settings.write_text(json.dumps({
        "name": "Legion Thursday", "format": "round_robin", "target": 500, "seed": 1,
        "teams": [["Ann", "Bob"], ["Cid", "Dee"], ["Eve", "Fay"], ["Gus", "Hal"]]}))
    made = run_cli(["event", "new", str(settings), "--database", pg_url], check=True)
    event_id = made.stdout.split()[-1]
    one, two = community(start_server, pg_url), community(start_server, pg_url)
    board = new_context().new_page()
    board.set_viewport_size({"width": 1280, "height": 720})
    board.goto(f"{one.url}board/{event_id}")
    expect(board.locator("#live")).to_have_text("live")

    # Round 1 is drawn at the terminal, on the database: the board shows its tables.
    round_1 = run_cli(["event", "round", event_id, "--database", pg_url], check=True)
    table = re.search(r"Table 1: .*\(game ([0-9a-f]{8}), table code (\d{6})\)",
                      round_1.stdout)
    assert table, round_1.stdout
    expect(board.locator('[data-table="1"] header')).to_be_visible(timeout=10_000)

    # Table 1's phone is on the other process: its hand reaches the board.
    phone_page = table_phone(new_context(), two.url, table.group(1), table.group(2), open_app)
    save_hand(phone_page, "Ann")
    expect(board.locator('[data-table="1"] header')).to_contain_text("1 hand", timeout=5_000)
    screenshot(board, "community-board-1280x720")
    board.set_viewport_size({"width": 1920, "height": 1080})
    board.emulate_media(color_scheme="dark")
    screenshot(board, "community-board-1920x1080-dark")


@pytest.mark.server_stops
def test_a_phone_whose_process_dies_comes_back_on_another(
    new_context: Callable[..., BrowserContext], start_server: Callable[..., Any],
    open_app: Callable[..., float], pg_url: str, tmp_path: Path,
) -> None:
    """Behind the proxy (a forwarder here), B's process is killed: B's page reconnects
    to the same address, which now reaches the other process, and carries on there."""
    from tcp_forwarder import Forwarder

    one, two = community(start_server, pg_url), community(start_server, pg_url)
    game, code = seeded_game(pg_url, tmp_path, ["Ada", "Ben", "Cy", "Di"])
    proxy = Forwarder([one.port, two.port])
    try:
        a, b = phone(new_context), phone(new_context)
        join_table(a, open_app, two.url, game, code)
        join_table(b, open_app, proxy.url, game, code)
        save_and_time(b, a, 1, "Ada", "95")

        killed = kill_now(one.process)
        closed, live = live_again(b, killed)
        print(f"\nsocket closed {closed - killed:.0f} ms after the kill, live on the other "
              f"process {live - killed:.0f} ms after it")
        assert (live - killed) / 1000 <= BACK_WITHIN_S
        # The same phone, now on process two: its rights held, its sheet whole.
        expect(b.get_by_role("button", name="Record hand")).to_be_visible(timeout=10_000)
        save_and_time(a, b, 2, "Ben", "95")
        save_and_time(b, a, 3, "Cy", "95")
        for p in (a, b):
            for number in (1, 2, 3):
                expect(hand_rows(p, number)).to_have_count(1)
            expect(hand_rows(p, 4)).to_have_count(0)
    finally:
        proxy.close()


def test_play_again_reaches_the_phone_on_the_other_process(
    new_context: Callable[..., BrowserContext], start_server: Callable[..., Any],
    open_app: Callable[..., float], pg_url: str, tmp_path: Path,
) -> None:
    """A wins on process one and taps Play again: B, on the finished sheet on process
    two, is told live and opens the next game holding it (no code typed)."""
    from table_steps import PLAYERS, record_counted_hand, see, tap, type_points

    made = {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 82}}
    seed = tmp_path / "seed.json"
    seed.write_text(json.dumps({"format": "tarabish-game/1", "players": PLAYERS,
                                "first_dealer": 3, "rules": {}, "hands": [made] * 5}))
    done = run_cli(["import", str(seed), "--database", pg_url], check=True)
    game = done.stdout.split()[0]
    found = re.search(r"table code (\d{6})", done.stderr)
    assert found, done.stderr
    one, two = community(start_server, pg_url), community(start_server, pg_url)
    a, b = phone(new_context), phone(new_context)
    for holder, server in ((a, one), (b, two)):
        open_app(holder, f"{server.url}game/{game}", first_text="Score sheet")
        tap(holder, "Enter table code")
        see(holder, "Ask the phone that started the game")
        type_points(holder, found.group(1))
        expect(holder.get_by_role("button", name="Record hand")).to_be_visible()

    record_counted_hand(a, "Cid", "Clubs", "100")
    for p in (a, b):
        see(p, "Ann & Cid win, 510 to 462 (target 500)")
    tap(a, "Play again")
    see(a, "Who sits where")
    tap(a, "Start game")
    see(a, re.compile("^Hand 1: "))
    see(b, "Next game started: open it")
    tap(b, "Open next game")
    see(b, re.compile("^Hand 1: "))
    record_counted_hand(b, "Ann", "Hearts", "95")  # B held the last game: no code
    see(a, "1. Bob dealt · Ann called ♥")
