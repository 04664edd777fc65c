"""The rules reference in a phone-sized browser: search, opening at a section,
the game's house rules marked, and the "Why?" link from a hand's ruling."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from table_steps import enter_seeded_code, reads, route_to, seed_game, type_into


def search_for(page: Page, words: str) -> None:
    type_into(page, page.get_by_role("textbox").first, words)


def test_search_finds_the_sections(
    page: Page, app_url: str, open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path], color_scheme: Callable[[Page, str], None],
) -> None:
    open_app(page, app_url + "rules", first_text="Players, partners and seats")
    screenshot(page, "rules-reference")
    color_scheme(page, "dark")
    page.wait_for_timeout(800)
    expect(page.get_by_text("Players, partners and seats")).to_be_visible()
    screenshot(page, "rules-reference-dark")
    color_scheme(page, "light")
    page.wait_for_timeout(800)

    search_for(page, "bait")
    expect(page.get_by_text("5 sections match “bait”")).to_be_visible()
    expect(page.get_by_text("Bait and half-bait", exact=True)).to_be_visible()
    expect(page.get_by_text("Players, partners and seats")).to_have_count(0)

    search_for(page, "nerf")
    expect(page.get_by_text("2 sections match “nerf”")).to_be_visible()
    expect(page.get_by_text("The deck and what each card is worth", exact=True)).to_be_visible()
    # The card table, drawn from the engine's values: the nerf (nine of trumps) is 14.
    expect(page.get_by_text("Trumps", exact=True)).to_be_visible()
    screenshot(page, "rules-reference-search")

    search_for(page, "xylophone")
    expect(page.get_by_text("Nothing matches “xylophone”")).to_be_visible()


def test_a_section_link_opens_at_that_section(
    page: Page, app_url: str, open_app: Callable[..., float],
) -> None:
    # The last house rule, far down the book, opens first, above the rest of the rules.
    open_app(page, app_url + "rules?section=house-target-tie", first_text="Level at the target")
    wanted = page.get_by_text("Level at the target", exact=True)
    expect(wanted).to_be_in_viewport()
    expect(page.get_by_text("Standard: play on.", exact=False)).to_be_in_viewport()
    first = page.get_by_text("Players, partners and seats", exact=True)
    assert (wanted.bounding_box() or {"y": 1e9})["y"] < (first.bounding_box() or {"y": 0})["y"]


def test_the_games_house_rules_are_marked_and_why_comes_back(
    page: Page, start_server: Callable[..., Any], tmp_path: Path,
    open_app: Callable[..., float], screenshot: Callable[[Page, str], Path],
) -> None:
    game_id = seed_game(tmp_path / "data", [], rules={"half_bait_is_bait": True, "target": 1000})
    server = start_server(data_dir=tmp_path / "data")
    open_app(page, f"{server.url}rules?game={game_id}", first_text="Players, partners and seats")
    expect(page.get_by_text("This game's house rules: Target score, Half-bait is bait. "
                            "They are marked below.")).to_be_visible()
    search_for(page, "half bait")
    expect(page.get_by_text("In this game: on (house rule)")).to_be_visible()

    # A hand's ruling: Why? opens the rule, Back returns to the hand as it was. (The
    # hand's screen in the page already open.)
    route_to(page, f"game/{game_id}/hand", "Enter the table code")
    enter_seeded_code(page, game_id)
    reads(page, "Who called?")
    page.get_by_role("button", name="Ann called").click()
    reads(page, "Tap the trump suit")
    page.get_by_role("button", name="Hearts").click()
    reads(page, "Enter the trick points")
    for digit, ruling in (("8", "Ann & Cid called: 8 of 162"), ("1", "81 of 162")):
        page.get_by_role("button", name=digit, exact=True).click()
        reads(page, ruling)
    reads(page, "exactly half, which counts as bait by house rule")
    # Why? explains this very hand: its figures first, each with the rule behind it.
    page.get_by_role("button", name="Why?").click()
    reads(page, "Hand 1 as entered: Bait")
    reads(page, "Ann & Cid called: 81 of 162")
    page.get_by_label("Rule: Half-bait is bait").click()
    expect(page.get_by_text("Half-bait is bait", exact=True)).to_be_visible()
    expect(page.get_by_text("In this game: on (house rule)")).to_be_visible()
    screenshot(page, "rules-reference-why")
    page.get_by_label("Back").click()
    expect(page.get_by_role("heading", name="Record hand 1")).to_be_visible()
    reads(page, "exactly half, which counts as bait by house rule")
