"""Nothing cut, nothing covered (issue 31, section 5): each screen state a small phone
got wrong, at 390x844 and 360x640, light and dark, read through `fits.assert_fits`.
Each state is also saved as a screenshot (test-artifacts/screenshots/fit-*). A test
walks at 360x640 and checks each state at both sizes (`at_each_size`). The Share
dialog's and Record hand's with the points typed are checked on test_screenshots.py's
walks, which open them at each size."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fits import assert_fits, box_of, raw_text
from playwright.sync_api import Browser, Page, expect
from table_steps import (
    Phone,
    at_each_size,
    each_size_checked,
    enter_seeded_code,
    see,
    seed_game,
    shoot,
    tap,
    type_points,
)

Shot = Callable[[Page, str], Path]
Open = Callable[..., float]
HAND = {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 100}}
NBSP = "\u00a0"
BAND = 80
"""Most empty space a dialog may leave above its buttons, in CSS pixels."""


def holder(phone: Phone, app_url: str, open_app: Open, game: str) -> Page:
    """The phone of the test, holding the table code of `game`, on its sheet."""
    page = phone.page
    open_app(page, f"{app_url}game/{game}", first_text="Score sheet")
    enter_seeded_code(page, game)
    return page


def second_phone(browser: Browser, phone: Phone, app_url: str, open_app: Open,
                 game: str) -> Page:
    """Another phone at the table (same size), holding the code too."""
    other = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    open_app(other, f"{app_url}game/{game}", first_text="Score sheet")
    enter_seeded_code(other, game)
    return other


@each_size_checked
def test_conflict_screen(phone: Phone, app_url: str, app_server: Any, open_app: Open,
                         screenshot: Shot, browser: Browser) -> None:
    """Two phones saved hand 2: what differs and the rarer choice are in view, clear
    of the bar, and a team name stays whole in its box."""
    game = seed_game(app_server.data_dir, [HAND])
    page = holder(phone, app_url, open_app, game)
    other = second_phone(browser, phone, app_url, open_app, game)
    tap(page, "Record hand")
    tap(page, "Bob called")
    tap(page, re.compile("Hearts"))
    type_points(page, "62")
    tap(other, "Record hand")
    tap(other, "Ann called")
    tap(other, re.compile("Hearts"))
    type_points(other, "100")
    tap(other, "Save hand")
    see(other, "Undo last hand")
    tap(page, "Save hand")
    see(page, "Hand 2: two versions")

    def fits(phone: Phone) -> None:
        shoot(page, f"fit-conflict-{phone.tag}", screenshot)
        assert_fits(page, [re.compile("^What differs"), "Record mine as hand 3"],
                    floating=["Keep theirs", "Use mine"])

    at_each_size(phone, fits)
    # A box wraps between the teams' figures, never inside a name ("Bob" / "& Dee 62").
    assert f"Ann{NBSP}&{NBSP}Cid 100, Bob{NBSP}&{NBSP}Dee 62" in raw_text(
        page.get_by_text(re.compile(r"^Ann\s&\sCid 100")).first)


@each_size_checked
def test_sheet_with_a_notice_from_another_phone(
    phone: Phone, app_url: str, app_server: Any, open_app: Open, screenshot: Shot,
    browser: Browser,
) -> None:
    """Undo last hand is in view, clear of Record hand, while the notice shows; the
    hands' titles keep their suit on their line."""
    game = seed_game(app_server.data_dir, [HAND, {**HAND, "caller": 1, "trump": "D"}])
    page = holder(phone, app_url, open_app, game)
    other = second_phone(browser, phone, app_url, open_app, game)
    other.get_by_role("button", name=re.compile(r"\b1\. \w+ dealt")).click()
    tap(other, "Edit this hand")
    for key in ("⌫", "⌫", "2", "0"):  # 100 made 120
        tap(other, key)
    tap(other, "Save hand 1")
    see(page, re.compile("^Hand 1 was changed on another phone"))

    def fits(phone: Phone) -> None:
        shoot(page, f"fit-sheet-notice-{phone.tag}", screenshot)
        assert_fits(page, ["Undo last hand",
                           re.compile("^Hand 1 was changed on another phone")],
                    floating=["Record hand"])

    at_each_size(phone, fits)
    # A row's title keeps its suit with the word before it.
    row = page.get_by_role("button", name=re.compile(r"^2\. Ann dealt"))
    assert f"Bob called{NBSP}♦" in raw_text(row)


@each_size_checked
def test_a_watching_phone_sees_who_won(phone: Phone, app_url: str, app_server: Any,
                                       open_app: Open, screenshot: Shot) -> None:
    """The finished game's sheet on a phone that does not hold the game: the winning
    hand is in view."""
    made = {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 100}}
    game = seed_game(app_server.data_dir, [made] * 5)
    page = phone.page
    open_app(page, f"{app_url}game/{game}", first_text="Score sheet")
    see(page, re.compile("^Ann & Cid win"))

    def fits(phone: Phone) -> None:
        shoot(page, f"fit-watcher-won-{phone.tag}", screenshot)
        assert_fits(page, [re.compile("^Ann & Cid win"), re.compile(r"^5\. Dee dealt")],
                    floating=[re.compile("^(Play again|Enter table code)$")])

    at_each_size(phone, fits)


@each_size_checked
def test_new_game_below_start_game(phone: Phone, app_url: str, open_app: Open,
                                   screenshot: Shot) -> None:
    """Scrolled to the end, Play to and House rules (and, open, the last house rule)
    are clear of Start game. (This state fitted already on the code of 26 Nov.)"""
    page = phone.page
    open_app(page, f"{app_url}new", first_text="Who sits where")

    def fits(phone: Phone) -> None:
        # Scrolled to the end at each size: the end of a 390x844 screen is not where a
        # 360x640 one's was.
        page.mouse.move(phone.width / 2, 300)
        page.mouse.wheel(0, 3000)
        shoot(page, f"fit-new-game-{phone.tag}", screenshot)
        assert_fits(page, ["Play to", re.compile("House rules")], floating=["Start game"])

    at_each_size(phone, fits)
    # The house rules open: the last of them clear of Start game too.

    page.get_by_role("button", name=re.compile("House rules")).click()
    see(page, "Dealer may pass")

    def rules_fit(phone: Phone) -> None:
        page.mouse.move(phone.width / 2, 300)
        page.mouse.wheel(0, 3000)
        shoot(page, f"fit-new-game-rules-{phone.tag}", screenshot)
        assert_fits(page, ["Play on", "Caller wins"], floating=["Start game"])

    at_each_size(phone, rules_fit)


@each_size_checked
def test_hand_detail_dialog(phone: Phone, app_url: str, app_server: Any, open_app: Open,
                            screenshot: Shot) -> None:
    """The hand's ruling, then its buttons, with no empty band between."""
    game = seed_game(app_server.data_dir, [HAND])
    page = holder(phone, app_url, open_app, game)
    page.get_by_role("button", name=re.compile(r"\b1\. \w+ dealt")).click()
    tap_target = page.get_by_role("button", name="Edit this hand")
    expect(tap_target).to_be_visible()

    def fits(phone: Phone) -> None:
        shoot(page, f"fit-hand-detail-{phone.tag}", screenshot)
        assert_fits(page, ["Edit this hand", "Close", re.compile("^Ann & Cid called")])
        words = page.get_by_text(re.compile(r"\S")).all()
        above = max(b["y"] + b["height"] for b in (w.bounding_box() for w in words)
                    if b is not None and b["y"] < box_of(page, "Close")["y"])
        gap = box_of(page, "Close")["y"] - above
        assert gap < BAND, f"{gap:.0f} px empty above the buttons ({phone.tag})"

    at_each_size(phone, fits)
