"""The card counter in a phone-sized browser: a known pile sums to the right
trick points, and "Use this count" fills the hand being recorded."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from table_steps import enter_seeded_code, reads, seed_game

# Hearts trumps: J♥ 20 + 9♥ 14 + A♠ 11 + 10♦ 10 + K♣ 4 + Q♣ 3 + J♣ 2 + five blanks = 64.
PILE = ["J♥", "9♥", "A♠", "10♦", "K♣", "Q♣", "J♣", "6♠", "7♠", "8♠", "6♦", "7♦"]


def tap_cards(page: Page, cards: list[str], already: int = 0) -> None:
    """Tap each card chip (its label is the card, e.g. "10♦"), waiting each time until
    the pile's count on screen has gone up, as a player would."""
    for number, card in enumerate(cards, start=already + 1):
        page.get_by_label(card, exact=True).click()
        expect(page.get_by_text(re.compile(rf"^{number} cards?(, \d+ tricks?)?: \d"))).to_be_visible()


def test_counter_sums_a_known_pile(
    page: Page, app_url: str, open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path], color_scheme: Callable[[Page, str], None],
) -> None:
    open_app(page, app_url + "count", first_text="Whose tricks?")
    expect(page.get_by_text("Tap the trump suit to count")).to_be_visible()
    page.get_by_label("Trump: Hearts").click()
    expect(page.get_by_text("Hearts (trumps)")).to_be_visible()
    tap_cards(page, PILE)
    page.get_by_role("button", name="They took the last trick (+10)").click()

    expect(page.get_by_text("12 cards, 3 tricks: 64 + 10 last = 74; "
                            "Players 2 & 4: 162 − 74 = 88")).to_be_visible()
    expect(page.get_by_text("74", exact=True)).to_be_visible()
    expect(page.get_by_text("88", exact=True)).to_be_visible()
    screenshot(page, "card-counter")
    color_scheme(page, "dark")
    page.wait_for_timeout(800)
    screenshot(page, "card-counter-dark")
    color_scheme(page, "light")
    page.wait_for_timeout(800)  # the screen is redrawn for the new brightness

    # Another trump: the same pile is worth less (the jack and nine of hearts are plain).
    page.get_by_label("Trump: Spades").click()
    expect(page.get_by_text("12 cards, 3 tricks: 32 + 10 last = 42; "
                            "Players 2 & 4: 162 − 42 = 120")).to_be_visible()
    # A card too few: the pile is not whole tricks.
    page.get_by_label("7♦", exact=True).click()
    expect(page.get_by_text("Not whole tricks: 11 cards, and every trick has 4. Is a card missing?")
           ).to_be_visible()


def test_use_this_count_fills_the_hand(
    page: Page, start_server: Callable[..., Any], tmp_path: Path,
    open_app: Callable[..., float],
) -> None:
    game_id = seed_game(tmp_path / "data", [])
    server = start_server(data_dir=tmp_path / "data")
    open_app(page, f"{server.url}game/{game_id}/hand", first_text="Enter the table code")
    enter_seeded_code(page, game_id)
    reads(page, "Who called?")
    page.get_by_role("button", name="Bob called").click()
    reads(page, "Tap the trump suit")
    page.get_by_role("button", name="Hearts").click()
    reads(page, "Enter the trick points")
    page.get_by_role("button", name="Count the cards").click()

    expect(page.get_by_text("Whose tricks?")).to_be_visible()
    # The hand's trump comes along; count Ann & Cid's pile.
    expect(page.get_by_text("Hearts (trumps)")).to_be_visible()
    page.get_by_role("button", name="Ann & Cid").click()
    tap_cards(page, PILE)
    page.get_by_role("button", name="They took the last trick (+10)").click()
    expect(page.get_by_text("Bob & Dee: 162 − 74 = 88", exact=False)).to_be_visible()
    page.get_by_role("button", name="Use this count").click()

    # Back on the hand: Ann & Cid's 74 is entered, Bob & Dee get the rest, and the
    # ruling under the hand follows from it.
    expect(page.get_by_role("heading", name="Record hand 1")).to_be_visible()
    reads(page, "Bob & Dee called: 88 of 162, needed 82: made. Ann & Cid keep their 74")
