"""The standings board on a hall's TV (1280x720 and 1920x1080), nobody touching it:
4, 8 and 30 tables, before, during and after a round. At every moment it fits the
screen (no text cut, nothing to scroll), names and scores are at least 20 px high at
1280x720, and a night too big for one screen pages through its tables and standings
by itself, saying which it shows, until every table and every standings row has been
on the screen. Screenshots: test-artifacts/screenshots/club-board-*.png."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from club_seats import paper_game, seed_night
from playwright.sync_api import Page, expect
from test_club_night import board_state

from tests.server_zygote import run_cli

REPO_ROOT = Path(__file__).resolve().parents[2]

SIZES = {"1280x720": {"width": 1280, "height": 720},
         "1920x1080": {"width": 1920, "height": 1080}}
EVERY_S = 2
"""Seconds a page (`?every=`): the hall's default is 8."""

CUT = """() => {
  const w = window.innerWidth, h = window.innerHeight, bad = [];
  const root = document.documentElement;
  if (root.scrollHeight > h || root.scrollWidth > w) bad.push(`page ${root.scrollWidth}x${root.scrollHeight}`);
  for (const el of document.body.querySelectorAll("*")) {
    if (!el.getClientRects().length) continue;  // not shown
    const r = el.getBoundingClientRect();
    const what = `${el.tagName}.${el.className} "${el.textContent.trim().slice(0, 30)}"`;
    if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5)
      bad.push(`${what} outside the screen (${Math.round(r.left)},${Math.round(r.top)},${Math.round(r.right)},${Math.round(r.bottom)})`);
    if (el.clientWidth && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1))
      bad.push(`${what} cut (${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight})`);
    if (el.matches(".who, .pts, th, h1, h2")) {  // more lines than words: broken inside one
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      if (lines > el.textContent.split(" ").filter(Boolean).length) bad.push(`${what} broken in a word`);
    }
  }
  return bad;
}"""
SMALLEST = """() => Math.min(...[...document.querySelectorAll(".who, .pts, #standings td")]
  .filter((el) => el.getClientRects().length)
  .map((el) => parseFloat(getComputedStyle(el).fontSize)))"""
SHOWN = """() => ({
  tables: [...document.querySelectorAll("[data-table]")].filter((el) => el.getClientRects().length)
    .map((el) => Number(el.dataset.table)),
  rows: [...document.querySelectorAll("#standings tbody tr")].filter((el) => el.getClientRects().length)
    .map((el) => el.cells[1].textContent),
  labels: [document.getElementById("tables-title").textContent,
           document.getElementById("standings-title").textContent],
})"""


def fits(board: Page, size: str) -> None:
    """Nothing cut, nothing off the screen; names and scores >= 20 px at 1280x720."""
    assert board.evaluate(CUT) == [], board.evaluate(CUT)
    if size == "1280x720":
        assert board.evaluate(SMALLEST) >= 20


def pages_through(board: Page, size: str, tables: int, teams: int) -> None:
    """Watch the board turn its pages until every table and standings row was shown.

    The page's clock is Playwright's (installed before it opened): each step moves it on
    to the next period, and the board's own timer turns the page, as it would after
    `EVERY_S` seconds on the wall (24 periods of waiting were most of this test's minute)."""
    seen_tables: set[int] = set()
    seen_rows: set[str] = set()
    most = 8
    for _ in range(most):
        shown = board.evaluate(SHOWN)
        for label, count, found in ((shown["labels"][0], tables, shown["tables"]),
                                    (shown["labels"][1], teams, list(range(len(shown["rows"]))))):
            part = re.fullmatch(r"(?:Tables|Standings)(?: (\d+)–(\d+) of (\d+))?", label)
            assert part, label
            if part.group(1):  # "Tables 9–16 of 30": says what it shows, and shows it
                first, last, of = (int(g) for g in part.groups())
                assert of == count and last - first + 1 == len(found), (label, found)
            else:
                assert len(found) == count, (label, found)
        assert sorted(shown["tables"]) == shown["tables"]
        if shown["tables"]:
            assert re.search(rf"\b{shown['tables'][0]}–{shown['tables'][-1]}\b",
                             shown["labels"][0]) or shown["labels"][0] == "Tables"
        seen_tables.update(shown["tables"])
        seen_rows.update(shown["rows"])
        fits(board, size)
        if len(seen_tables) == tables and len(seen_rows) == teams:
            return
        # To the middle of the next period: the board's timer (set for the period's
        # turn, a few ms after it) has fired, and exactly one page has turned. A jump of
        # one whole period from just after a turn falls short of the timer, and the next
        # jump would turn two pages at once.
        period = EVERY_S * 1000
        into = board.evaluate(f"Date.now() % {period}")
        board.clock.fast_forward(int(period * 1.5 - into))
    raise AssertionError(f"{len(seen_tables)} of {tables} tables and {len(seen_rows)} of "
                         f"{teams} standings rows shown in {most} periods")


@pytest.mark.parametrize("tables", [4, 8, 30])
def test_the_board_fits_a_hall_screen_at_every_moment(
    tables: int, tmp_path: Path, new_context: Callable[..., Any],
    start_server: Callable[..., Any], screenshot: Callable[[Page, str], Path],
) -> None:
    data = tmp_path / "data"
    nights = {moment: seed_night(data, tables, moment)
              for moment in ("before", "during", "after")}
    server = start_server(data_dir=data)
    board = new_context(color_scheme="light").new_page()
    board.clock.install()  # pages_through moves it on a period at a time
    for scheme in ("light", "dark"):
        # The device's scheme set before the loads below: each opens in it, as in a
        # context made in that scheme (one browser page for both: no second renderer).
        board.emulate_media(color_scheme=scheme)
        for size, viewport in SIZES.items():
            board.set_viewport_size(viewport)
            for moment, event_id in nights.items():
                board.goto(f"{server.url}board/{event_id}?every={EVERY_S}")
                expect(board.locator("#live")).to_have_text("live")
                count = 0 if moment == "before" else tables
                expect(board.locator("[data-table]")).to_have_count(count)
                pages_through(board, size, count, 2 * tables)
                counted = board.locator("#counted")
                if moment == "during":  # what the standings count, not a column of zeros
                    open_tables = tables - len(range(0, tables, 3))
                    expect(counted).to_have_text(
                        f"none counted yet · {open_tables} of {tables} tables still playing")
                else:
                    expect(counted).to_have_text(
                        "after round 1" if moment == "after" else "no round played yet")
                if scheme == "light" or moment == "during":
                    tag = "" if scheme == "light" else "-dark"
                    screenshot(board, f"club-board-{tables}-{moment}-{size}{tag}")
    board.context.close()


def test_the_board_fits_again_when_results_come_in(
    tmp_path: Path, new_context: Callable[..., Any], start_server: Callable[..., Any],
) -> None:
    """8 tables at 1280x720, round 1 just started (all 0): the results come in, the
    scores get wider, and the board fits itself again (it used to cut Table 4)."""
    data = tmp_path / "data"
    event_id = seed_night(data, 8, "started")
    server = start_server(data_dir=data)
    board = new_context().new_page()
    board.set_viewport_size(SIZES["1280x720"])
    board.goto(f"{server.url}board/{event_id}")
    expect(board.locator("[data-table]")).to_have_count(8)
    fits(board, "1280x720")
    for t in board_state(server.url, event_id)["tables"][:4]:
        game = tmp_path / f"table-{t['table']}.json"
        game.write_text(json.dumps(paper_game(t["sides"])))
        done = run_cli(["import", str(game), "--event", event_id, "--table", str(t["table"]),
                        "--data-dir", str(data)], cwd=REPO_ROOT)
        assert done.returncode == 0, done.stderr
        cell = board.locator(f'[data-table="{t["table"]}"] .pts').first
        expect(cell).to_have_text("1134", timeout=5_000)  # the board follows by itself
        board.wait_for_timeout(200)
        fits(board, "1280x720")
    board.set_viewport_size(SIZES["1920x1080"])  # the TV's own size, found after start
    board.wait_for_timeout(300)
    fits(board, "1920x1080")
    assert board.evaluate("window.boardFit.px") >= 30  # grown with the screen
    board.set_viewport_size(SIZES["1280x720"])
    board.wait_for_timeout(300)
    fits(board, "1280x720")
    took = board.evaluate("() => { const t = performance.now(); fit(); return performance.now() - t; }")
    print(f"fit() of 8 tables at 1280x720: {took:.1f} ms")


def test_two_screens_of_a_night_turn_their_pages_together(
    tmp_path: Path, new_context: Callable[..., Any], start_server: Callable[..., Any],
) -> None:
    """Pages follow the clock, not the moment a screen was opened or redrawn: two TVs
    in the hall, switched on a few seconds apart, show the same page (no drift)."""
    data = tmp_path / "data"
    event_id = seed_night(data, 30, "during")
    server = start_server(data_dir=data)
    screens = []
    for _ in range(2):
        board = new_context().new_page()
        board.set_viewport_size(SIZES["1280x720"])
        board.goto(f"{server.url}board/{event_id}?every={EVERY_S}")
        expect(board.locator("[data-table]")).to_have_count(30)
        screens.append(board)
        board.wait_for_timeout(1300)  # the second one opened mid-page
    seen = set()
    for _ in range(6):
        # Read both in the middle of a page, never at its turn.
        into = screens[0].evaluate(f"Date.now() % {EVERY_S * 1000}")
        screens[0].wait_for_timeout((EVERY_S * 1000 * 1.5 - into) % (EVERY_S * 1000))
        labels = [s.evaluate(SHOWN)["labels"] for s in screens]
        assert labels[0] == labels[1], labels
        seen.add(labels[0][0])
    assert len(seen) >= 3  # and they did turn
