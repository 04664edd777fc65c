"""The race chart and the end-of-game card on the score sheet, as a player sees them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from table_steps import (
    Phone,
    at_each_size,
    each_size_checked,
    reads,
    see,
    seed_game,
    shoot,
    tap,
)

HANDS = json.loads((Path(__file__).parents[1] / "data" / "won_game.json")
                   .read_text(encoding="utf-8"))["hands"]


@each_size_checked
def test_race_chart_and_summary_card(
    phone: Phone, app_url: str, app_server: Any,
    open_app: Callable[..., float], screenshot: Callable[[Page, str], Path],
) -> None:
    page = phone.page
    game = seed_game(app_server.data_dir, HANDS, rules={"forced_at": 400})
    open_app(page, f"{app_url}game/{game}", first_text="Score sheet")

    # The game is won: the card says by whom, by how much, and how each side called.
    see(page, "Ann & Cid win, 508 to 423 (target 500)")
    see(page, "By 85 points, in 6 hands.")
    see(page, "3 calls: 2 made, 1 half-bait, 0 baits · 0 in runs · 1 bella")
    see(page, "3 calls: 2 made, 0 half-baits, 1 bait · 20 in runs · 0 bellas")
    see(page, "Best hand: hand 2, Ann & Cid scored 162")
    at_each_size(phone, lambda phone: shoot(page, f"sheet-won-{phone.tag}", screenshot))

    # The chart is closed until asked for, then shows all six hands and the marks.
    expect(page.get_by_label("Race chart", exact=False)).to_have_count(0)
    tap(page, "Show the race")
    reads(page, "Race chart: 6 hands, Ann & Cid 508, Bob & Dee 423, target 500, "
                "1 bait and 1 half-bait marked")
    see(page, "forced over 400")

    def chart(phone: Phone) -> None:
        assert page.evaluate("document.documentElement.scrollWidth") <= phone.width
        page.get_by_text("✕ bait", exact=False).scroll_into_view_if_needed()
        shoot(page, f"race-chart-{phone.tag}", screenshot)

    at_each_size(phone, chart)
    tap(page, "Hide the race")
    expect(page.get_by_label("Race chart", exact=False)).to_have_count(0)
