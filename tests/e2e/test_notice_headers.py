"""Notices from another phone leave the sheet as it was (issue 31, section 6).

Each notice ("Hand 1 was changed on another phone…") used to add an empty
"Hand | Ann & Cid | Bob & Dee" header under the sheet of the phone that got it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect
from table_steps import enter_seeded_code, seed_game
from test_sharing import hand_rows, phone

Shot = Callable[[Page, str], Path]
HAND_1 = {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 95}}
"""Ann calls hearts, Ann & Cid count 95."""


def edit_hand_1(page: Page, digits: str) -> None:
    """Open hand 1, Edit, type new tricks over the old, Save."""
    hand_rows(page, 1).click()
    page.get_by_role("button", name="Edit this hand").click()
    expect(page.get_by_text("Edit hand 1")).to_be_visible()
    for key in ("C", *digits):
        page.get_by_role("button", name=key, exact=True).click()
        page.wait_for_timeout(200)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("button", name="Undo last hand")).to_be_visible()


def test_three_notices_leave_one_column_header(
    new_context: Callable[..., BrowserContext], app_url: str, app_server: Any,
    open_app: Callable[..., float], screenshot: Shot,
) -> None:
    # Two phones that hold a game of one hand (Ann called hearts, 95): a seeded game
    # whose code each enters (New game and the Share panel are not what is tested here).
    game = seed_game(app_server.data_dir, [HAND_1])
    a, b = phone(new_context), phone(new_context)
    for holder in (a, b):
        open_app(holder, f"{app_url}game/{game}", first_text="Score sheet")
        enter_seeded_code(holder, game)
    expect(hand_rows(b, 1)).to_be_visible()
    heads = b.get_by_text("Hand", exact=True)
    expect(heads).to_have_count(1)

    for n, tricks in enumerate(("100", "110", "120"), start=1):
        edit_hand_1(a, tricks)
        expect(b.get_by_text(re.compile(rf"tricks: \d+ → {tricks}$"))).to_be_visible()
        expect(b.get_by_text(re.compile(r"^Hand 1 was changed on another phone"))
               ).to_have_count(n)
        b.wait_for_timeout(500)  # a stray header would be drawn with the notice
        expect(heads).to_have_count(1)
    screenshot(b, "three-notices-390x844-light")
    b.get_by_role("button", name="OK, read").click()
    expect(b.get_by_text(re.compile(r"^Hand 1 was changed"))).to_have_count(0)
    expect(heads).to_have_count(1)
