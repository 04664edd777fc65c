"""A 360 px phone (issue 25): nothing cut short, nothing out of reach, nothing of one
screen left over on the next."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect
from table_steps import enter_seeded_code, see, seed_game

Open = Callable[..., float]
SMALL = {"width": 360, "height": 640}
HAND = {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 100}}


def top(page: Page, text: str, button: bool = False) -> float:
    """Where a text (or a button) sits from the top of the page, in CSS pixels."""
    found = page.get_by_role("button", name=text) if button else page.get_by_text(text)
    expect(found).to_be_visible()
    box = found.bounding_box()
    assert box is not None
    return box["y"]


def test_home_and_new_game_each_open_at_their_top(page: Page, app_url: str,
                                                   open_app: Open) -> None:
    """Home and New game share one View on the phone; neither may open scrolled where
    the other was left."""
    page.set_viewport_size({"width": 360, "height": 420})  # home scrolls too
    open_app(page, app_url)
    home_top = top(page, "New game", button=True)
    page.get_by_role("button", name="New game").click()
    new_top = top(page, "Who sits where")
    page.mouse.move(180, 300)
    page.mouse.wheel(0, 3000)
    expect(page.get_by_text("Who sits where")).not_to_be_in_viewport()
    page.get_by_label("Back").click()
    see(page, "Card counter")
    assert top(page, "New game", button=True) == home_top
    page.mouse.move(180, 300)  # off the Back arrow, over the screen
    page.mouse.wheel(0, 3000)
    page.wait_for_timeout(500)
    assert top(page, "New game", button=True) < home_top  # home scrolls: the test can fail
    page.go_back()  # the browser's Back: to New game again
    assert top(page, "Who sits where") == new_top


def test_dealer_chips_are_wide_enough_for_a_name(page: Page, app_url: str,
                                                 open_app: Open) -> None:
    """Four in a row read "Playe…" at 360 px: two by two, each has half the width."""
    page.set_viewport_size(SMALL)
    open_app(page, f"{app_url}new", first_text="Who sits where")
    boxes = [page.get_by_role("button", name=f"Player {n}", exact=True).bounding_box()
             for n in range(1, 5)]
    assert all(box and box["width"] >= 150 for box in boxes), boxes
    assert boxes[0] and boxes[1] and boxes[2] and boxes[0]["y"] == boxes[1]["y"] < boxes[2]["y"]


def test_past_games_keep_open_export_and_delete_on_one_line(
    page: Page, app_url: str, open_app: Open, app_server: Any,
) -> None:
    seed_game(app_server.data_dir, [HAND], teams=["Narrow", "Phone"])
    page.set_viewport_size(SMALL)
    open_app(page, f"{app_url}games", first_text="Past games")
    rows = {word: page.get_by_role("button", name=f"{word} Narrow vs Phone").bounding_box()
            for word in ("Open", "Export", "Delete")}
    tops = {word: round(box["y"]) for word, box in rows.items() if box}
    assert len(set(tops.values())) == 1 and len(tops) == 3, rows


def test_the_holder_sees_the_table_code_without_scrolling_the_share_panel(
    page: Page, app_url: str, open_app: Open, app_server: Any,
) -> None:
    game = seed_game(app_server.data_dir, [HAND])
    page.set_viewport_size(SMALL)
    open_app(page, f"{app_url}game/{game}", first_text="Score sheet")
    enter_seeded_code(page, game)
    page.get_by_role("button", name="Share this game").click()
    code = page.get_by_text(re.compile(r"^Table code \d{6}$"))
    expect(code).to_be_in_viewport()
