"""Two phones at one table record the same hand (issue 23): one sheet, beyond doubt.

Two real browser pages hold the game. When both record hand 1, the second Save is
never stored as a hand 2 nobody played: the same hand is "already recorded", a
different one is shown beside the saved one for the player to choose. An edit
or an undo on one phone leaves a trace on the sheet and a notice on the other.
Screenshots of the conflict screen, the notice, an edited hand's detail and the
undone list, at 390x844 and 360x640, light and dark."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect
from table_steps import DRAWN, enter_seeded_code, seed_game, settled_shot, shoot
from test_sharing import (
    close_dialog,
    enter_code,
    fill_hand,
    hand_rows,
    phone,
    read_table_code,
    record_hand,
    start_game,
)

WATCHING = "Watching: enter the table code to record hands"
SIZES = ((390, 844), (360, 640))
Shot = Callable[[Page, str], Path]


def two_phones(new_context: Callable[..., BrowserContext], app_url: str,
               open_app: Callable[..., float], players: list[str]) -> tuple[Page, Page, str]:
    """Phone A starts the game, phone B enters its table code: both may record."""
    a, b = phone(new_context), phone(new_context)
    game = start_game(a, app_url, open_app, players)
    code = read_table_code(a)
    close_dialog(a)
    open_app(b, f"{app_url}game/{game}", first_text=WATCHING)
    b.get_by_role("button", name="Enter table code").click()
    enter_code(b, code)
    expect(b.get_by_role("button", name="Record hand")).to_be_visible()
    return a, b, game


def two_holders(new_context: Callable[..., BrowserContext], app_server: Any,
                open_app: Callable[..., float], players: list[str]) -> tuple[Page, Page, str]:
    """A new game of `players` (stored through `tarabish import`: how a phone starts one and
    holds its code is test_sharing's walk through New game), and two phones that each
    enter its table code: both may record."""
    game = seed_game(app_server.data_dir, [], players=players)
    a, b = phone(new_context), phone(new_context)
    for p in (a, b):
        open_app(p, f"{app_server.url}game/{game}", first_text=WATCHING)
        enter_seeded_code(p, game)
        expect(p.get_by_role("button", name="Record hand")).to_be_visible()
    return a, b, game


def shoot_every_way(page: Page, name: str, screenshot: Shot) -> None:
    """`name` at both phone sizes, light and dark (`table_steps.shoot`), back at 390x844
    light after."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(DRAWN)  # laid out for the width: `shoot` waits until it is still
        shoot(page, f"{name}-{width}x{height}", screenshot)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.set_viewport_size({"width": 390, "height": 844})
    # The screen is laid out again for the width: a tap during that redraw would land
    # on the screen being replaced.
    settled_shot(page)


def both_record_hand_1(a: Page, b: Page) -> None:
    """Both phones record hand 1 of Ivy, Jon, Kit and Lou, differently (Ivy calls, 95;
    Jon calls, 85); A saves first and its sheet shows the hand; then B saves."""
    for p, caller, points in ((a, "Ivy", "95"), (b, "Jon", "85")):
        p.get_by_role("button", name="Record hand").click()
        fill_hand(p, caller, points)
    a.get_by_role("button", name=re.compile("^Save hand")).click()
    expect(hand_rows(a, 1)).to_be_visible()
    b.get_by_role("button", name=re.compile("^Save hand")).click()


def test_a_second_save_of_a_hand_is_a_choice_or_recorded_once_never_a_new_hand(
    new_context: Callable[..., BrowserContext], app_server: Any,
    open_app: Callable[..., float], screenshot: Shot,
) -> None:
    """Both phones record hand 1, differently: the second Save is a choice, never a hand
    2. Then both record hand 2 the same: it is recorded once. (One table, one pair of
    phones for both: each was a test with phones of its own.)"""
    a, b, _game = two_holders(new_context, app_server, open_app, ["Ivy", "Jon", "Kit", "Lou"])
    # B saves second: nothing is saved; both versions side by side, with what differs.
    both_record_hand_1(a, b)
    expect(b.get_by_text("Hand 1: two versions")).to_be_visible()
    expect(b.get_by_text("Theirs · saved")).to_be_visible()
    expect(b.get_by_text("Yours · not saved")).to_be_visible()
    expect(b.get_by_text(re.compile(r"^What differs: Called: theirs Ivy, yours Jon"))
           ).to_be_visible()
    expect(b.get_by_text(re.compile(r"^Theirs was saved on phone \d+ at \d\d:\d\d"))
           ).to_be_visible()
    shoot_every_way(b, "conflict", screenshot)

    # Tapping Save again is not possible: the old form is gone. Keep theirs.
    expect(b.get_by_role("button", name=re.compile("^Save hand"))).to_have_count(0)
    b.get_by_role("button", name="Keep theirs").click()
    expect(hand_rows(b, 1)).to_be_visible()
    for p in (a, b):
        expect(hand_rows(p, 2), "a second save of hand 1 is never a hand 2").to_have_count(0)
        expect(p.get_by_text("1. Lou dealt · Ivy called ♥")).to_be_visible()

    # The same hand twice is recorded once: both record hand 2 alike, A saves first.
    for p in (a, b):
        p.get_by_role("button", name="Record hand").click()
        fill_hand(p, "Jon", "95")
    a.get_by_role("button", name=re.compile("^Save hand")).click()
    expect(hand_rows(a, 2)).to_be_visible()
    b.get_by_role("button", name=re.compile("^Save hand")).click()
    expect(b.get_by_text("Hand 2 was already recorded by another phone", exact=False),
           "the same hand saved twice: B told it was already recorded").to_be_visible()
    expect(hand_rows(b, 2)).to_be_visible()
    b.wait_for_timeout(500)
    expect(hand_rows(b, 3), "the same hand saved twice is recorded once").to_have_count(0)


def test_an_edit_and_an_undo_leave_their_trace_on_the_other_phone(
    new_context: Callable[..., BrowserContext], app_server: Any,
    open_app: Callable[..., float], screenshot: Shot,
) -> None:
    a, b, _game = two_holders(new_context, app_server, open_app, ["Quin", "Ray", "Sue", "Tom"])
    record_hand(a, "Quin", "95")
    expect(hand_rows(b, 1)).to_be_visible()

    # A changes hand 1 from 95 to 120: B is told, and the notice stays until read.
    hand_rows(a, 1).click()
    a.get_by_role("button", name="Edit this hand").click()
    expect(a.get_by_text("Edit hand 1")).to_be_visible()
    for key in ("⌫", "⌫", "1", "2", "0"):
        a.get_by_role("button", name=key, exact=True).click()
        a.wait_for_timeout(200)
    a.get_by_role("button", name="Save hand 1").click()
    notice = re.compile(r"Hand 1 was changed on another phone \(phone \d+\): "
                        r"Quin & Sue's tricks: 95 → 120")
    expect(b.get_by_text(notice)).to_be_visible()
    shoot_every_way(b, "edit-notice", screenshot)
    b.get_by_role("button", name="OK, read").click()
    expect(b.get_by_text(notice)).to_have_count(0)

    # The edited hand is marked; its detail says what it was and what it became.
    expect(b.get_by_text("EDITED")).to_be_visible()
    hand_rows(b, 1).click()
    expect(b.get_by_text(re.compile(r"^Edited on phone \d+ at \d\d:\d\d: "
                                    r"Quin & Sue's tricks: 95 → 120\.$"))).to_be_visible()
    shoot_every_way(b, "edited-hand", screenshot)
    close_dialog(b)

    # A undoes it: B is told, and the hand stays listed, struck through, folded.
    a.get_by_role("button", name="Undo last hand").click()
    a.get_by_role("button", name="Remove hand").click()
    expect(b.get_by_text(re.compile(r"^Hand 1 was undone on another phone"))).to_be_visible()
    b.get_by_role("button", name="OK, read").click()
    b.get_by_role("button", name=re.compile("undone hand")).click()
    expect(b.get_by_text("1. Quin called ♥")).to_be_visible()
    expect(b.get_by_role("button", name="Put hand 1 back")).to_be_visible()
    shoot_every_way(b, "undone-list", screenshot)
    b.get_by_role("button", name="Put hand 1 back").click()
    for p in (a, b):
        expect(hand_rows(p, 1)).to_be_visible(timeout=15_000)
