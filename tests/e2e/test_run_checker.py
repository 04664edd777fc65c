"""The run checker in a phone-sized browser: the verdict a player reads for a
trump tie-break, a cancel, a long run and a whole hand; impossible claims
pointed at card by card; "Use these runs" filling the hand being recorded."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from table_steps import enter_seeded_code, reads, seed_game

SUIT_WORDS = {"♠": "Spades", "♥": "Hearts", "♦": "Diamonds", "♣": "Clubs"}


class Table:
    """Taps on the run checker, the way a player makes them: the player, the suit,
    then each card, waiting to see the player's card count go up."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.counts: dict[str, int] = {}

    def player(self, name: str) -> None:
        self.page.get_by_label(f"{name}'s cards", exact=True).click()

    def cards(self, name: str, cards: str) -> None:
        self.player(name)
        suit = None
        for card in cards.split():
            if card[-1] != suit:
                suit = card[-1]
                self.page.get_by_label(SUIT_WORDS[suit], exact=True).click()
            self.page.get_by_label(card, exact=True).click()
            self.counts[name] = self.counts.get(name, 0) + 1
            n = self.counts[name]
            expect(self.page.get_by_role(
                "button", name=re.compile(rf"^{name} {n} cards?$"))).to_be_visible()

    def whole_hand(self, name: str, cards: str) -> None:
        self.player(name)
        self.page.get_by_role("button", name="Whole hand", exact=True).click()
        self.cards(name, cards)


def open_checker(page: Page, url: str, open_app: Callable[..., float]) -> Table:
    open_app(page, url, first_text="Whose cards?")
    return Table(page)


def clear_all(page: Page) -> Table:
    """Clear all cards: the checker as opened, for the next table of cards (the same
    page: a load costs the browser more than the whole table's taps)."""
    page.get_by_label("Clear all cards", exact=True).click()
    expect(page.get_by_text("Nothing tapped yet."), "every player's cards cleared"
           ).to_be_visible()
    return Table(page)


def test_the_run_checker_rules_ties_cancels_long_runs_impossible_claims_and_a_whole_hand(
    page: Page, app_url: str, open_app: Callable[..., float],
    screenshot: Callable[[Page, str], Path], color_scheme: Callable[[Page, str], None],
) -> None:
    """One checker, cleared between tables of cards: same length and top, the trump run
    wins; equal plain runs cancel; a long run is cut and a fifty beats a twenty;
    impossible claims are pointed at; a whole hand shows its runs and bella."""
    table = open_checker(page, app_url + "check", open_app)

    # Same length and top: the trump run wins.
    expect(page.get_by_text("No game open: the standard rules.")).to_be_visible()
    expect(page.get_by_text("deals", exact=False)).to_have_count(0)  # nobody asked
    page.get_by_label("Trump: Clubs").click()
    table.cards("Player 1", "J♠ Q♠ K♠")
    table.cards("Player 2", "J♣ Q♣ K♣")
    expect(page.get_by_text("Player 2's runs count: 20 to Players 2 & 4")).to_be_visible()
    expect(page.get_by_text("Player 2's twenty to the king of trumps beats Player 1's twenty "
                            "to the king (same length and top card: the trump run wins)")
           ).to_be_visible()
    # J♣ Q♣ K♣ of trumps hold the king and queen: bella too.
    expect(page.get_by_text("Player 2 holds bella (Q♣ K♣): 20 to Players 2 & 4 when called")
           ).to_be_visible()
    screenshot(page, "run-checker")
    color_scheme(page, "dark")
    page.wait_for_timeout(800)
    expect(page.get_by_text("Player 2's runs count: 20 to Players 2 & 4")).to_be_visible()
    screenshot(page, "run-checker-dark")
    color_scheme(page, "light")
    page.wait_for_timeout(800)

    # Equal plain runs cancel.
    table = clear_all(page)
    page.get_by_label("Trump: Hearts").click()
    table.cards("Player 1", "J♠ Q♠ K♠")
    table.cards("Player 2", "J♦ Q♦ K♦")
    table.cards("Player 3", "6♣ 7♣ 8♣")
    expect(page.get_by_text("Equal plain runs cancel: nobody scores runs")).to_be_visible()
    expect(page.get_by_text("Player 1's twenty to the king and Player 2's twenty to the king "
                            "are equal plain runs: they cancel, nobody scores runs")
           ).to_be_visible()

    # A long run is cut and a fifty beats a twenty.
    table = clear_all(page)
    page.get_by_label("Trump: Clubs").click()
    table.cards("Player 1", "6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥")
    table.cards("Player 2", "10♦ J♦ Q♦")
    expect(page.get_by_text("Player 1's runs count: 70 to Players 1 & 3")).to_be_visible()
    expect(page.get_by_text("Player 1's fifty to the queen beats Player 2's twenty to the "
                            "queen (a fifty beats a twenty)")).to_be_visible()
    expect(page.get_by_text("Runs: fifty to the queen + twenty to the eight")).to_be_visible()

    # Impossible claims are pointed at.
    table = clear_all(page)
    page.get_by_label("Trump: Hearts").click()
    table.cards("Player 1", "9♥ 10♥ J♥ Q♥")
    table.cards("Player 2", "Q♥ K♥ A♥ 6♠")
    expect(page.get_by_text("Something cannot be right: see the cards marked in red")
           ).to_be_visible()
    expect(page.get_by_text("Q♥ is in both Player 1's and Player 2's cards: there is only one "
                            "queen of hearts").first).to_be_visible()
    expect(page.get_by_text("Player 2: 6♠ is in no run (a run is three or more in a row of one "
                            "suit)").first).to_be_visible()
    # Taking the six back out leaves only the queen in two hands.
    page.get_by_label("6♠", exact=True).click()
    expect(page.get_by_text("Player 2: 6♠ is in no run", exact=False)).to_have_count(0)
    screenshot(page, "run-checker-problems")

    # A whole hand shows its runs and bella.
    table = clear_all(page)
    page.get_by_label("Trump: Clubs").click()
    table.whole_hand("Player 3", "A♠ 6♥ 7♥ 8♥ 9♥ 10♦ J♦ Q♣ K♣")
    expect(page.get_by_text("Player 3's runs count: 50 to Players 1 & 3")).to_be_visible()
    expect(page.get_by_text("Player 3 holds bella (Q♣ K♣): 20 to Players 1 & 3 when called")
           ).to_be_visible()
    expect(page.get_by_text("Runs: fifty to the nine")).to_be_visible()


def test_use_these_runs_fills_the_hand(
    page: Page, start_server: Callable[..., Any], tmp_path: Path,
    open_app: Callable[..., float],
) -> None:
    game_id = seed_game(tmp_path / "data", [])
    server = start_server(data_dir=tmp_path / "data")
    open_app(page, f"{server.url}game/{game_id}/hand", first_text="Enter the table code")
    enter_seeded_code(page, game_id)
    reads(page, "Who called?")
    page.get_by_role("button", name="Enter the cards of the runs").click()
    page.get_by_role("button", name="Open the run checker").click()

    table = Table(page)
    expect(page.get_by_text("Whose cards?")).to_be_visible()
    page.get_by_label("Trump: Hearts").click()
    table.whole_hand("Ann", "9♠ 10♠ J♠ Q♠ Q♥ K♥ 6♦ 8♦ A♣")
    table.player("Bob")
    page.get_by_role("button", name="Runs shown", exact=True).click()
    table.cards("Bob", "10♦ J♦ Q♦")
    expect(page.get_by_text("Ann's runs count: 50 to Ann & Cid")).to_be_visible()
    page.get_by_role("button", name="Use these runs").click()

    # Back on the hand: the runs are entered, ruled, and Ann's bella is on.
    expect(page.get_by_role("heading", name="Record hand 1")).to_be_visible()
    expect(page.get_by_text("Ann: 9♠ 10♠ J♠ Q♠")).to_be_visible()
    expect(page.get_by_text("Bob: 10♦ J♦ Q♦")).to_be_visible()
    expect(page.get_by_text("Ann's fifty to the queen beats Bob's twenty to the queen "
                            "(a fifty beats a twenty)", exact=False)).to_be_visible()
    page.get_by_role("button", name="Ann called").click()
    reads(page, "Enter the trick points")
    # Type 100 on the pad, reading the ruling after each key as a player would.
    for digit, ruling in (("1", "No team can take 1"),
                          ("0", "Ann & Cid called: 10 + 70 = 80 of 232, needed 117: short"),
                          ("0", "Ann & Cid called: 100 + 70")):
        page.get_by_role("button", name=digit, exact=True).click()
        reads(page, ruling)
    # 100 in tricks + 50 for the fifty + 20 for Ann's bella, of 162 + 50 + 20.
    reads(page, "Ann & Cid called: 100 + 70 = 170 of 232, needed 117: made")
