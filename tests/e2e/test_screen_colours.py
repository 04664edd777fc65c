"""Light, dark or like the phone: chosen in the app, kept by the phone (issue 25)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect
from table_steps import looks_dark, see, tap

Open = Callable[..., float]


def choose(page: Page, colours: str) -> None:
    """Home's title bar: Screen colours, then a choice."""
    page.get_by_label("Screen colours").click()
    see(page, "For this phone only.")
    tap(page, colours)
    expect(page.get_by_text("For this phone only.")).to_have_count(0)


def turns(page: Page, dark: bool) -> None:
    """Wait (bounded) for the screen to show the colours asked for."""
    for _look in range(20):
        if looks_dark(page) == dark:
            return
        page.wait_for_timeout(250)
    assert looks_dark(page) == dark


def test_dark_is_chosen_on_the_phone_and_kept_for_its_next_visit(
    new_context: Callable[..., Any], app_url: str, open_app: Open,
) -> None:
    browser = new_context(color_scheme="light")  # the phone itself is set to light
    page = browser.new_page()
    open_app(page, app_url)
    turns(page, dark=False)
    choose(page, "Dark")
    turns(page, dark=True)
    see(page, "Past games")  # still home: turning dark redraws nothing

    # The next visit is a new session: the browser kept the choice, the app applies it.
    later = browser.new_page()
    open_app(later, app_url)
    turns(later, dark=True)
    choose(later, "Like this phone")
    turns(later, dark=False)

    again = browser.new_page()
    open_app(again, app_url)
    again.wait_for_timeout(1_000)  # time for a kept choice to arrive, were there one
    turns(again, dark=False)
