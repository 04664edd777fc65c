"""A community server has no all-games fair teams: `/group` typed by hand asks to pick a
group instead of listing every player of every table with their ratings."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from table_steps import see
from test_two_phones import shoot_every_way


def test_all_games_fair_teams_typed_on_a_community_asks_for_a_group(
    page: Page, start_server: Callable[..., Any], open_app: Callable[..., float],
    pg_url: str, tmp_path: Path, screenshot: Callable[[Page, str], Path],
) -> None:
    from scorer.store.database import Database
    from scorer.store.pg_games import PgGameStore

    hands = json.loads((Path(__file__).parents[1] / "data" / "won_game.json")
                       .read_text("utf-8"))["hands"]
    db = Database(pg_url)
    try:
        PgGameStore(db, data_dir=tmp_path / "cache").create_game(
            {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
             "first_dealer": 3, "rules": {"forced_at": 400}, "hands": hands})
    finally:
        db.close()
    server = start_server(env={"TARABISH_DATABASE": pg_url})
    open_app(page, f"{server.url}group", first_text="Group")
    see(page, "Pick a group for its fair teams.")
    expect(page.get_by_role("button", name="Ann")).to_have_count(0)
    expect(page.get_by_text("Fair teams", exact=True)).to_have_count(0)
    shoot_every_way(page, "community-group-pick", screenshot)
