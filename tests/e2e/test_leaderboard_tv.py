"""The leaderboard on a hall's TV (1280x720 and 1920x1080), nobody touching it: it fits
the screen (nothing cut, nothing to scroll), names are at least 20 px high at 1280x720,
and a long one pages through by itself until every player was on the screen. And the
club night board gives each team its chance before the first hand.
Screenshots: test-artifacts/screenshots/leaderboard-tv-*.png, club-board-chances-*.png."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from club_seats import seed_night
from playwright.sync_api import Page, expect
from table_steps import seed_won_games
from test_club_board import SIZES, fits

NAMES = [f"{first} {last}." for last in "MBDC" for first in (
    "Margaret", "Catherine", "Alexander", "Angus", "Flora", "Malcolm", "Christina",
    "Roderick", "Theresa", "Dougald")]
"""Forty players with long names: more than one screen holds."""
EVERY_S = 2

NAME_SIZE = """() => Math.min(...[...document.querySelectorAll("#board tbody td")]
  .filter((el) => el.getClientRects().length)
  .map((el) => parseFloat(getComputedStyle(el).fontSize)))"""
SHOWN = """() => [...document.querySelectorAll("#board tbody tr")]
  .filter((el) => el.getClientRects().length).map((el) => el.cells[1].firstChild.textContent)"""


def _seatings(games: int) -> list[list[str]]:
    chosen = random.Random(7)
    return [chosen.sample(NAMES, 4) for _ in range(games)]


def test_the_tv_leaderboard_fits_and_pages_through_everyone(
    tmp_path: Path, new_context: Callable[..., Any], start_server: Callable[..., Any],
    screenshot: Callable[[Page, str], Path],
) -> None:
    data = tmp_path / "data"
    seed_won_games(data, _seatings(60))
    server = start_server(data_dir=data)
    for scheme in ("light", "dark"):
        board = new_context(color_scheme=scheme).new_page()
        board.clock.install()  # each step below moves it on one page's time
        for size, viewport in SIZES.items():
            board.set_viewport_size(viewport)
            board.goto(f"{server.url}leaderboard?every={EVERY_S}")
            expect(board.locator("#season")).to_have_text("All · 60 games")
            expect(board.locator("#page")).to_have_text(re.compile(r"^page 1 of \d$"))
            seen: set[str] = set()
            for _ in range(6):  # pages, each turned by the board's own timer
                seen.update(board.evaluate(SHOWN))
                assert board.evaluate("document.getElementById('board').rows.length") > 1
                fits(board, "other")
                if size == "1280x720":
                    assert board.evaluate(NAME_SIZE) >= 20
                if len(seen) == len(NAMES):
                    break
                board.clock.fast_forward(EVERY_S * 1000)
            assert seen == set(NAMES)
            board.goto(f"{server.url}leaderboard?every=60")
            expect(board.locator("#page")).to_have_text(re.compile(r"^page 1 of \d$"))
            screenshot(board, f"leaderboard-tv-{size}-{scheme}")
        board.context.close()


def test_the_club_board_gives_each_team_its_chance_before_the_first_hand(
    tmp_path: Path, new_context: Callable[..., Any], start_server: Callable[..., Any],
    screenshot: Callable[[Page, str], Path],
) -> None:
    data = tmp_path / "data"
    event_id = seed_night(data, 4, "started")
    # Table 1 of the night: Margaret M. & Catherine M. against Alexander M. & Angus M.
    # (swiss, seed 7, may seat them otherwise: the test reads what the board shows).
    people = [f"{first} M." for first in ("Margaret", "Catherine", "Alexander", "Angus",
                                          "Flora", "Malcolm", "Christina", "Roderick")]
    seed_won_games(data, [[people[0], people[2], people[1], people[3]]] * 3
                   + [[people[4], people[6], people[5], people[7]]] * 3)
    server = start_server(data_dir=data)
    for scheme in ("light", "dark"):
        board = new_context(color_scheme=scheme).new_page()
        board.set_viewport_size(SIZES["1280x720"])
        board.goto(f"{server.url}board/{event_id}")
        expect(board.locator("#live")).to_have_text("live")
        odds = board.locator("[data-table] .chance")
        expect(odds.first).to_be_attached()  # on the page shown now, or the next
        shown = odds.all_inner_texts()
        assert shown and all(re.fullmatch(r"\d+\u00a0%", text) for text in shown), shown
        labels = board.locator("[data-table]").evaluate_all(
            "cards => cards.map((c) => c.getAttribute('aria-label'))")
        with_odds = [label for label in labels if "chance" in label]
        assert with_odds, labels
        for label in with_odds:
            found = [int(n) for n in re.findall(r"\(chance (\d+)%\)", label)]
            assert len(found) == 2 and sum(found) == 100, label
        fits(board, "1280x720")
        screenshot(board, f"club-board-chances-1280x720-{scheme}")
        board.context.close()
