"""The Statistics screen: figures across games, and two spellings of one player merged."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from table_steps import (
    Phone,
    at_each_size,
    become_host,
    each_size_checked,
    see,
    seed_game,
    shoot,
    tap,
)

WON = json.loads((Path(__file__).parents[1] / "data" / "won_game.json").read_text("utf-8"))
SECOND = [{"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 100}}]


def test_statistics_and_merging_two_names(
    page: Page, start_server: Callable[..., Any], open_app: Callable[..., float],
    tmp_path: Path,
) -> None:
    server = start_server(data_dir=tmp_path / "data")  # only these two games
    seed_game(server.data_dir, WON["hands"], rules={"forced_at": 400})
    # The same person typed differently in a second game.
    seed_game(server.data_dir, SECOND, players=["Ann", "Bob", "Cid", "Deanna"])
    # Renaming changes the games: the person at the laptop does it, as the host.
    open_app(page, f"{server.url}host", first_text="Host")
    become_host(page, server.log())
    open_app(page, f"{server.url}stats", first_text="Statistics")
    see(page, "2 games counted")
    see(page, "Deanna")
    page.get_by_label("Rename Deanna").click()
    see(page, "Same person as another name? Tap it to merge:")
    tap(page, "Dee")  # the merge choice: the only button of that name
    tap(page, "Rename")
    see(page, "Deanna is now Dee in 1 game.")
    expect(page.get_by_label("Rename Deanna")).to_have_count(0)
    # Ann, Bob, Cid and Dee each sat in both games now; the first is finished, won by
    # Ann & Cid: a win rate is over finished games. (Each player, and each partnership.)
    expect(page.get_by_text("2 games (1 finished), 1 win (100 %)")).to_have_count(3)
    expect(page.get_by_text("2 games (1 finished), 0 wins (0 %)")).to_have_count(3)
    # Both games were played today; the period filter keeps them.
    tap(page, "Today")
    see(page, "2 games counted")


@each_size_checked
def test_statistics_screen_at_phone_size(
    phone: Phone, app_url: str, app_server: Any,
    open_app: Callable[..., float], screenshot: Callable[[Page, str], Path],
) -> None:
    page = phone.page
    seed_game(app_server.data_dir, WON["hands"], rules={"forced_at": 400})
    open_app(page, f"{app_url}stats", first_text="Statistics")
    see(page, "Players")

    def fits(phone: Phone) -> None:
        assert page.evaluate("document.documentElement.scrollWidth") <= phone.width
        shoot(page, f"statistics-{phone.tag}", screenshot)

    at_each_size(phone, fits)
