"""A table's games are the table's on a community (issue 38 §3): two phones on two
`tarabish --database` processes of one database. A stranger's Past games and
Statistics show nothing of the home's game (Past games and Groups say why their lists
are short); the
home's phone lists it; once the stranger opens the game's own address (Share), it
is listed there too. Screenshots: community-own-games-*, community-own-groups-*."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect
from table_steps import route_to
from test_community import community
from test_sharing import WATCHING, phone, start_game
from test_two_phones import shoot_every_way

PLAYERS = ["Ada", "Ben", "Cy", "Di"]
HOME_GAME = "Open Ada & Cy vs Ben & Di"
"""The home game's card, by its Open button (as a screen reader says it)."""
OWN_GAMES = re.compile(r"^Only this phone's games are listed here")


def test_a_strangers_past_games_show_no_other_homes_game(
    new_context: Callable[..., BrowserContext], start_server: Callable[..., Any],
    open_app: Callable[..., float], pg_url: str, screenshot: Callable[[Page, str], Path],
) -> None:
    one, two = community(start_server, pg_url), community(start_server, pg_url)
    home, stranger = phone(new_context), phone(new_context)
    game = start_game(home, one.url, open_app, PLAYERS)

    # The home's phone lists its game (drawn again once the phone is known).
    route_to(home, "games", "Past games")
    expect(home.get_by_role("button", name=HOME_GAME)).to_be_visible(timeout=15_000)

    # A stranger on the other process: nothing of it, and why.
    open_app(stranger, f"{two.url}games", first_text="Past games")
    expect(stranger.get_by_role("button", name=HOME_GAME)).to_have_count(0)
    expect(stranger.get_by_text("No games yet.")).to_be_visible()
    expect(stranger.get_by_text(OWN_GAMES)).to_be_visible()
    shoot_every_way(stranger, "community-own-games", screenshot)
    expect(stranger.get_by_role("button", name=HOME_GAME)).to_have_count(0)  # after every redraw too
    route_to(stranger, "stats", "Statistics")
    expect(stranger.get_by_text("No games in this period yet.")).to_be_visible()
    expect(stranger.get_by_text("Ada", exact=True)).to_have_count(0)

    route_to(stranger, "groups", "Groups")
    expect(stranger.get_by_text(re.compile(r"^This phone keeps no group yet"))).to_be_visible()
    shoot_every_way(stranger, "community-own-groups", screenshot)

    # Given the game's address (Share), the stranger watches it and then lists it.
    route_to(stranger, f"game/{game}", WATCHING)
    route_to(stranger, "games", "Past games")
    expect(stranger.get_by_role("button", name=HOME_GAME)).to_be_visible(timeout=15_000)
