"""A club night in real browsers: the organiser sets up four teams and starts round 1
on a phone, two tables record whole games by taps on their own phones, and the
board (a 1280x720 screen nobody touches) shows each score as it is saved and the
standings once the round is over. The table cards are printed and looked at.
Screenshots of the board and the cards, light and dark, go to
test-artifacts/screenshots/club-*.png."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from table_steps import type_into
from test_sharing import enter_code, fill_hand

TEAMS = ["Ann & Bob", "Cid & Dee", "Eve & Fay", "Gus & Hal"]
BOARD = {"width": 1280, "height": 720}


def board_state(url: str, event_id: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}board/{event_id}/state", timeout=10) as answer:
        return dict(json.loads(answer.read()))


def set_up_night(page: Page, url: str, open_app: Callable[..., float]) -> str:
    """On the organiser's phone: a new club night of four teams, to 300; its id."""
    open_app(page, url)
    page.get_by_role("button", name="Club night").click()
    page.get_by_role("button", name="New club night").click()
    expect(page.get_by_text("Teams, round robin")).to_be_visible()
    type_into(page, "Name of the night", "Legion Thursday")
    # Each line typed scrolls the box's caret into view: type_into ends once the
    # screen is still (browser_setup.STILL_JS).
    type_into(page, "Entrants", "\n".join(TEAMS))
    expect(page.get_by_text("4 teams")).to_be_visible()
    page.get_by_role("button", name="Play to 300").click()
    page.get_by_role("button", name="Create club night").click()
    page.wait_for_url(re.compile(r"/club/[0-9a-f]{8}$"))
    expect(page.get_by_text("Organiser code", exact=False).first).to_be_visible()
    match = re.search(r"/club/([0-9a-f]{8})$", page.url)
    assert match
    return match.group(1)


def table_phone(context: BrowserContext, url: str, game: str, code: str,
                open_app: Callable[..., float]) -> Page:
    """A table's own phone: scans its card (the game's address) and enters its code."""
    page = context.new_page()
    open_app(page, f"{url}game/{game}", first_text="Score sheet")
    page.get_by_role("button", name="Enter table code").click()
    enter_code(page, code)
    expect(page.get_by_role("button", name="Record hand")).to_be_visible()
    return page


def save_hand(page: Page, caller: str) -> None:
    page.get_by_role("button", name="Record hand").click()
    fill_hand(page, caller, "162")
    page.get_by_role("button", name=re.compile("^Save hand")).click()
    expect(page.get_by_role("button", name=re.compile("^Save hand"))).to_have_count(0)


@pytest.mark.slow
@pytest.mark.server_stops
def test_a_club_night_from_set_up_to_standings(
    new_context: Callable[..., BrowserContext], start_server: Callable[..., Any],
    open_app: Callable[..., float], screenshot: Callable[[Page, str], Path],
) -> None:
    server = start_server()
    url = server.url
    organiser = new_context().new_page()
    event_id = set_up_night(organiser, url, open_app)

    board = new_context().new_page()
    board.set_viewport_size(BOARD)
    board.goto(f"{url}board/{event_id}")
    expect(board.locator("#name")).to_have_text("Legion Thursday")
    expect(board.locator("#live")).to_have_text("live")

    organiser.get_by_role("button", name="Start round 1").click()
    expect(organiser.get_by_text("Table 2", exact=True)).to_be_visible()
    tables = board_state(url, event_id)["tables"]
    assert [t["table"] for t in tables] == [1, 2]
    expect(board.locator("[data-table]")).to_have_count(2)  # nobody touched the board

    # The organiser prints the table cards: the codes are on them (a guest sees none).
    with organiser.context.expect_page() as opened:
        organiser.get_by_role("button", name="Table cards (print)").click()
    cards = opened.value
    expect(cards.locator(".card")).to_have_count(2)
    codes = [re.sub(r"\D", "", c) for c in cards.locator(".code b").all_inner_texts()]
    assert len(codes) == 2 and all(len(c) == 6 for c in codes)
    cards.set_viewport_size({"width": 900, "height": 900})
    screenshot(cards, "club-cards")
    cards.emulate_media(color_scheme="dark")
    screenshot(cards, "club-cards-dark")
    cards.emulate_media(media="print", color_scheme="light")
    screenshot(cards, "club-cards-print")
    guest = new_context().new_page()
    guest.goto(f"{url}event/{event_id}/cards")
    expect(guest.locator(".card")).to_have_count(2)
    assert not re.search(r"\b\d{6}\b", guest.locator("body").inner_text())
    # Pages read for the last time are closed: an open one keeps the browser busy (a
    # table's phone reconnects and draws itself again when the server comes back).
    cards.close()
    guest.context.close()

    # Two tables, each on its own phone, record whole games (two hands of 162).
    phones = [table_phone(new_context(), url, t["game"], code, open_app)
              for t, code in zip(tables, codes, strict=True)]
    for n, (page, table) in enumerate(zip(phones, tables, strict=True)):
        save_hand(page, table["sides"][0][0])
        cell = board.locator(f'[data-table="{table["table"]}"] .pts').first
        expect(cell).to_have_text("162", timeout=3_000)  # the board follows by itself
        if n == 0:
            screenshot(board, "club-board-live")
    expect(board.locator("#counted")).to_have_text("none counted yet · 2 of 2 tables still playing")
    for page, table in zip(phones, tables, strict=True):
        save_hand(page, table["sides"][0][0])
        page.context.close()  # the table's last hand: its phone is read no more
    expect(board.locator("#counted")).to_have_text("after round 1", timeout=5_000)
    winners = {" & ".join(t["sides"][0]) for t in tables}
    first_rows = [row.replace("\u00a0", " ")  # a team wraps only after its "&"
                  for row in board.locator("#standings tbody tr").all_inner_texts()]
    leaders = {row for row in first_rows[:2]}
    assert all(any(w in row for row in leaders) for w in winners)
    assert all("324" in row for row in first_rows[:2])
    expect(board.locator(".table.done")).to_have_count(2)
    redraws = board.evaluate("window.boardRedraws.map(r => r.changed)")
    # Each save redrew its own table (and, once a round counts, the standings): never all.
    assert all(len([c for c in changed if c.startswith("table")]) <= 1
               for changed in redraws[2:]), redraws
    screenshot(board, "club-board")
    board.emulate_media(color_scheme="dark")
    screenshot(board, "club-board-dark")
    board.set_viewport_size({"width": 1920, "height": 1080})
    screenshot(board, "club-board-1080")
    phone_board = new_context(color_scheme="dark").new_page()
    phone_board.goto(f"{url}board/{event_id}")
    expect(phone_board.locator("#standings tbody tr")).to_have_count(4)
    screenshot(phone_board, "club-board-phone-dark")
    phone_board.context.close()

    # Round 2 pairs the winners together; the organiser's phone shows the standings.
    organiser.get_by_role("button", name="Start round 2").click()
    expect(organiser.get_by_text("Standings after round 1")).to_be_visible()
    second = board_state(url, event_id)
    assert second["round"] == 2
    met = {frozenset((" & ".join(t["sides"][0]), " & ".join(t["sides"][1]))) for t in tables}
    assert not met & {frozenset((" & ".join(t["sides"][0]), " & ".join(t["sides"][1])))
                      for t in second["tables"]}
    screenshot(organiser, "club-organiser")

    # The server is stopped and started again: the board comes back by itself, with
    # round 2 as it was saved, and so does the organiser's phone.
    server.stop()
    expect(board.locator("#live")).to_have_text("Lost the table server. Trying again…",
                                                timeout=20_000)
    start_server(data_dir=server.data_dir, port=server.port)
    expect(board.locator("#live")).to_have_text("live", timeout=40_000)
    expect(board.locator("#round")).to_contain_text("round 2 of 3")
    expect(organiser.get_by_role("button", name="Start round 3")).to_be_visible(
        timeout=40_000)
