"""A group's leaderboard and player pages (issue 33): a player taps from all games to
the group and reads only its players; the player page keeps the group."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from table_steps import (
    Phone,
    at_each_size,
    each_size_checked,
    reads,
    route_to,
    see,
    seed_won_games,
    shoot,
    tap,
)
from test_club_board import SIZES, fits
from test_two_phones import shoot_every_way

from scorer.groups.folder import FolderGroups
from scorer.store import GameStore

# Eight games of Ann, Bob, Cid and Dee; then Friday's three: Hal & Jo win them all,
# the last against Ann & Bob.
FRIDAY = [["Hal", "Ivy", "Jo", "Kit"], ["Hal", "Kit", "Jo", "Ivy"], ["Hal", "Ann", "Jo", "Bob"]]
SEATINGS = [["Ann", "Bob", "Cid", "Dee"]] * 8 + FRIDAY


def _with_group(start_server: Callable[..., Any], tmp_path: Path) -> tuple[Any, str]:
    """A server on the games above, and the id of the group "Friday bish" (Friday's)."""
    server = start_server(data_dir=tmp_path / "data")
    seed_won_games(server.data_dir, SEATINGS)
    with GameStore(server.data_dir, read_only=True) as store:
        friday = [(s.id, s.players) for s in store.list_games() if "Hal" in s.players]
    groups = FolderGroups(server.data_dir)  # the file the server reads at every visit
    group, _code = groups.create("Friday bish")
    groups.add_games(group.id, friday)
    return server, group.id


def test_the_leaderboard_switched_to_a_group_shows_only_its_players(
    page: Page, start_server: Callable[..., Any], open_app: Callable[..., float],
    tmp_path: Path,
) -> None:
    server, group_id = _with_group(start_server, tmp_path)
    open_app(page, server.url)
    tap(page, "Leaderboard")
    see(page, "This month")
    cid = page.get_by_role("button", name=re.compile(r"^\d+\. Cid, rating"))
    expect(cid).to_be_visible()  # all games: Cid is on the board
    tap(page, "Change group")
    tap(page, "Friday bish")
    see(page, re.compile(r"^Friday bish$"))
    see(page, "3 finished games in this group")
    expect(page.get_by_role("button", name=re.compile(r"^\d+\. Hal, rating"))).to_be_visible()
    expect(cid).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile(r"^\d+\. (Cid|Dee), rating"))
           ).to_have_count(0)
    expect(page).to_have_url(re.compile(f"group={group_id}"))
    # Ann played one of Friday's games and lost it; in all games she has nine.
    ann = page.get_by_role("button", name=re.compile(r"^\d+\. Ann, rating \S+, 1 game, 0 wins"))
    expect(ann).to_be_visible()
    ann.click()
    see(page, "1 game, 0 wins in all")
    reads(page, "Rating chart: Ann, 1 game")
    see(page, re.compile(r"Points \d[\d,]* for, \d[\d,]* against"))
    expect(page).to_have_url(re.compile(f"group={group_id}"))
    tap(page, "This year")
    expect(page).to_have_url(re.compile(rf"group={group_id}.*season=year|season=year.*group={group_id}"))
    see(page, "1 game, 0 wins in all")
    page.get_by_label("Back", exact=True).click()
    see(page, re.compile(r"^Friday bish$"))
    expect(page.get_by_role("button", name=re.compile(r"^\d+\. Hal, rating"))).to_be_visible()
    expect(page).to_have_url(re.compile(f"group={group_id}"))
    # The group's statistics: its players only.
    tap(page, "Statistics")
    see(page, "3 games counted")
    see(page, re.compile(r"^Friday bish$"))
    see(page, re.compile(r"^Hal & Jo$"))
    expect(page.get_by_text("Cid", exact=True)).to_have_count(0)
    expect(page).to_have_url(re.compile(f"group={group_id}"))
    page.get_by_label("Back", exact=True).click()
    see(page, re.compile(r"^Friday bish$"))
    # Back to every game, by two taps.
    tap(page, "Change group")
    tap(page, "All games")
    expect(cid).to_be_visible()


def test_a_bad_group_in_the_address_gets_a_plain_screen(
    page: Page, start_server: Callable[..., Any], open_app: Callable[..., float],
    tmp_path: Path,
) -> None:
    server, _group_id = _with_group(start_server, tmp_path)
    open_app(page, server.url, first_text="Past games")
    for route in ("ratings?group=deadbeef", "ratings?group=../x", "player/Ann?group=NOPE",
                  "player/Ann?group=12345678", "statistics?group=zz"):
        # Each address shown in the page already open, from home (one load in all).
        route_to(page, route, "No such group")
        see(page, re.compile(r"^There is no such group"))
        route_to(page, "", "Past games")


@each_size_checked
def test_group_rating_pages_at_phone_size(
    phone: Phone, start_server: Callable[..., Any], open_app: Callable[..., float],
    tmp_path: Path, screenshot: Callable[[Page, str], Path],
) -> None:
    page = phone.page
    server, group_id = _with_group(start_server, tmp_path)
    for name in ("Family", "Legion Tuesday league, Glace Bay Branch"):  # the choice wraps
        FolderGroups(server.data_dir).create(name)
    for route, first, name in ((f"ratings?group={group_id}", "Friday bish", "group-board"),
                               (f"statistics?group={group_id}", "3 games counted",
                                "group-statistics"),
                               (f"player/Ann?group={group_id}&season=year", "With each partner",
                                "group-player"),
                               ("ratings?group=0000abcd", "No such group", "no-group")):
        if name == "group-board":
            open_app(page, f"{server.url}{route}", first_text=first)
        else:  # walked to in the app: each screen, not a load of each
            route_to(page, route, first)

        def fits(phone: Phone, name: str = name) -> None:
            assert page.evaluate("document.documentElement.scrollWidth") <= phone.width
            shoot(page, f"{name}-{phone.tag}", screenshot)

        at_each_size(phone, fits)


def test_the_tv_leaderboard_of_a_group(
    new_context: Callable[..., Any], start_server: Callable[..., Any], tmp_path: Path,
    screenshot: Callable[[Page, str], Path],
) -> None:
    server, group_id = _with_group(start_server, tmp_path)
    board = new_context(color_scheme="light").new_page()
    for scheme in ("light", "dark"):
        # Set before the loads below: each opens in it (one browser page for both).
        board.emulate_media(color_scheme=scheme)
        for size, viewport in SIZES.items():
            board.set_viewport_size(viewport)
            board.goto(f"{server.url}leaderboard?group={group_id}")
            expect(board.locator("#title")).to_have_text("Friday bish")
            expect(board.locator("#season")).to_have_text("All · 3 games")
            who = board.locator("#board tbody td.who")
            expect(who.first).to_contain_text("Hal")
            assert "Cid" not in board.locator("#board tbody").inner_text()
            expect(board.locator("#board thead")).to_contain_text("Points for")
            fits(board, "other")
            screenshot(board, f"leaderboard-tv-group-{size}-{scheme}")
    board.context.close()


def test_a_community_server_has_no_all_games_board(
    page: Page, start_server: Callable[..., Any], open_app: Callable[..., float],
    pg_url: str, tmp_path: Path, screenshot: Callable[[Page, str], Path],
) -> None:
    """Ann at one club's tables is not Ann at another's: per group only."""
    from scorer.groups.pg import PgGroups
    from scorer.store.database import Database
    from scorer.store.pg_games import PgGameStore

    hands = json.loads((Path(__file__).parents[1] / "data" / "won_game.json")
                       .read_text("utf-8"))["hands"]
    db = Database(pg_url)
    try:
        store = PgGameStore(db, data_dir=tmp_path / "cache")
        made = [store.create_game({"format": "tarabish-game/1", "players": players,
                                   "first_dealer": 3, "rules": {"forced_at": 400},
                                   "hands": hands}) for players in SEATINGS]
        groups = PgGroups(db)
        group, _code = groups.create("Friday bish")
        groups.add_games(group.id, [(g.id, g.doc["players"]) for g in made
                                    if "Hal" in g.doc["players"]])
    finally:
        db.close()
    server = start_server(env={"TARABISH_DATABASE": pg_url})
    open_app(page, f"{server.url}ratings", first_text="Leaderboard")
    # A stranger is offered no group of anyone's (issue 38 §3): it keeps none.
    see(page, re.compile(r"^This phone keeps no group\."))
    expect(page.get_by_role("button", name="All games")).to_have_count(0)
    expect(page.get_by_text("Friday bish", exact=False)).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile(r"^\d+\. \w+, rating"))).to_have_count(0)
    shoot_every_way(page, "community-leaderboard-pick", screenshot)
    # The group's address, as its keeper shares it, opens its leaderboard.
    open_app(page, f"{server.url}ratings?group={group.id}", first_text="Leaderboard")
    see(page, "3 finished games in this group")
    expect(page.get_by_role("button", name=re.compile(r"^\d+\. Hal, rating"))).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"^\d+\. Cid, rating"))).to_have_count(0)
