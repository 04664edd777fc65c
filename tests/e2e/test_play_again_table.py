"""Play again keeps the table together (issue 31, section 7).

Phone A wins the game and taps Play again; phone B, which held the finished
game's code, is told on its finished sheet that the next game started, opens it
and records a hand without typing a code; a guest who only watched is offered
the next game to watch. Opened later, the finished sheet links to the next game.
Screenshots of the notice at 390x844 and 360x640, light and dark."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect
from table_steps import enter_seeded_code, record_counted_hand, see, seed_game, tap
from test_sharing import WATCHING, phone
from test_two_phones import shoot_every_way

MADE = {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 82}}
WIN = "Ann & Cid win, 510 to 462 (target 500)"


def test_play_again_offers_the_next_game_to_every_phone_at_the_table(
    new_context: Callable[..., BrowserContext], app_url: str, app_server: Any,
    open_app: Callable[..., float], screenshot: Callable[[Page, str], Path],
) -> None:
    game = seed_game(app_server.data_dir, [MADE] * 5)  # 410 to 400: one hand from 500
    a, b, guest = phone(new_context), phone(new_context), phone(new_context)
    for holder in (a, b):
        open_app(holder, f"{app_url}game/{game}", first_text="Score sheet")
        enter_seeded_code(holder, game)
    open_app(guest, f"{app_url}game/{game}", first_text=WATCHING)

    record_counted_hand(a, "Cid", "Clubs", "100")
    for p in (a, b, guest):
        see(p, WIN)
    tap(a, "Play again")
    see(a, "Who sits where")
    tap(a, "Start game")
    see(a, re.compile("^Hand 1: "))
    expect(a).to_have_url(re.compile(r"/game/[0-9a-f]{8}$"))
    next_url = a.url
    assert not next_url.endswith(game)

    # B stayed on the finished sheet: told, live, with a big button.
    see(b, "Next game started: open it")
    shoot_every_way(b, "next-game-started", screenshot)
    tap(b, "Open next game")
    see(b, re.compile("^Hand 1: "))
    record_counted_hand(b, "Ann", "Hearts", "95")  # no code typed: B held the last game
    see(a, "1. Bob dealt · Ann called ♥")

    # The guest only watched: offered the next game to watch, given no rights.
    see(guest, "Next game started: watch it")
    tap(guest, "Watch next game")
    see(guest, WATCHING)
    see(guest, "1. Bob dealt · Ann called ♥")
    expect(guest.get_by_role("button", name="Record hand")).to_have_count(0)
    # Home's Continue card offers the next game to the phone that watched the last.
    open_app(guest, app_url)
    tap(guest, re.compile("^Continue"))
    see(guest, WATCHING)
    expect(guest).to_have_url(next_url)

    # Opened again later: the finished sheet links to the next game.
    open_app(b, f"{app_url}game/{game}", first_text="Score sheet")
    see(b, WIN)
    see(b, "Next game: open it")
    expect(b.get_by_text("Next game started")).to_have_count(0)
    screenshot(b, "next-game-link-390x844-light")
    tap(b, "Next game: open it")
    expect(b.get_by_role("button", name="Record hand")).to_be_visible()

    # A second Play again on the finished game opens the game already made.
    open_app(a, f"{app_url}game/{game}", first_text="Score sheet")
    tap(a, "Play again")
    see(a, "The next game was already started on another phone: here it is.")
    see(a, "1. Bob dealt · Ann called ♥")
