"""One game, every phone at the table: several browsers on one server.

Each phone is its own browser context (own localStorage, so its own device
token). Phone A starts the game and holds its table code; the others watch
until they type it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect
from table_steps import SEEDED_CODES, enter_seeded_code, route_to, seed_game, tap, type_names

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
GAME_URL = re.compile(r"/game/([0-9a-f]{8})$")
WATCHING = "Watching: enter the table code to record hands"


def start_game(page: Page, url: str, open_app: Callable[..., float],
               players: list[str] = PLAYERS) -> str:
    """Start a game from the New game screen; returns its id."""
    open_app(page, f"{url}new", first_text="Who sits where")
    type_names(page, players)
    page.get_by_role("button", name=players[3], exact=True).click()
    expect(page.get_by_text(f"{players[3]} deals first")).to_be_visible()
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("No hands yet", exact=False)).to_be_visible()
    page.wait_for_url(GAME_URL)
    match = GAME_URL.search(page.url)
    assert match
    return match.group(1)


def press_digit(page: Page, digit: str, expected: str) -> None:
    """Tap a number-pad key until the typed figure reads `expected`."""
    shown = page.get_by_text(re.compile(rf"\b{expected}\s+typing"))
    for _attempt in range(4):
        page.get_by_role("button", name=digit, exact=True).click()
        try:
            expect(shown).to_have_count(1, timeout=1_500)
            page.wait_for_timeout(200)
            return
        except AssertionError:
            continue
    expect(shown).to_have_count(1)


def fill_hand(page: Page, caller: str, points: str) -> None:
    """On the Record hand screen: caller, hearts, the caller team's trick points,
    each tap checked on screen before the next (a tap during a redraw is lost).
    Points are typed on the top rows of the pad: the bottom row can sit under the
    ruling that grows above Save."""
    expect(page.get_by_text("Who called?")).to_be_visible()
    save = page.get_by_role("button", name=re.compile("^Save hand"))
    for _attempt in range(3):
        page.get_by_role("button", name=re.compile(rf"^{caller}\b")).first.click()
        page.wait_for_timeout(200)
        page.get_by_role("button", name=re.compile("Hearts")).first.click()
        page.wait_for_timeout(800)  # the screen scrolls to the number pad
        if _attempt:
            page.get_by_role("button", name="C", exact=True).click()
        for n, digit in enumerate(points, start=1):
            press_digit(page, digit, points[:n])
        try:
            expect(save).to_be_enabled(timeout=3_000)
            return
        except AssertionError:
            continue
    expect(save).to_be_enabled()


def record_hand(page: Page, caller: str = "Ann", points: str = "95") -> None:
    page.get_by_role("button", name="Record hand").click()
    fill_hand(page, caller, points)
    page.get_by_role("button", name=re.compile("^Save hand")).click()
    expect(page.get_by_text("No hands yet", exact=False)).to_have_count(0)


def hand_rows(page: Page, number: int) -> Any:
    """The sheet row of hand `number` (a button: tap it for the ruling)."""
    return page.get_by_role("button", name=re.compile(rf"\b{number}\. \w+ dealt"))


def tap_until_dialogs(page: Page, button: str, dialogs: int) -> None:
    """Tap `button` until `dialogs` panels are open: again if a redraw of the screen (the
    device's dark setting, or this phone's rights read late) replaced the button under
    the tap. Never a tap too many: once the panel opens (or closes) the button it was
    tapped through leaves the accessibility tree."""
    for _attempt in range(3):
        page.get_by_role("button", name=button).click()
        try:
            expect(page.get_by_role("alertdialog")).to_have_count(dialogs, timeout=3_000)
            return
        except AssertionError:
            continue
    expect(page.get_by_role("alertdialog")).to_have_count(dialogs)


def open_share(page: Page) -> None:
    tap_until_dialogs(page, "Share this game", 1)


def read_table_code(page: Page) -> str:
    """Open the Share panel and read the table code shown to a phone that holds it."""
    open_share(page)
    label = page.get_by_text(re.compile(r"^Table code \d{6}$"))
    expect(label).to_be_visible()
    code = re.sub(r"\D", "", label.inner_text())
    return code


def close_dialog(page: Page) -> None:
    tap_until_dialogs(page, "Close", 0)


def enter_code(page: Page, code: str) -> None:
    for digit in code:
        page.get_by_role("button", name=digit, exact=True).click()


def phone(new_context: Callable[..., BrowserContext], **kw: Any) -> Page:
    return new_context(**kw).new_page()


def test_phones_share_a_game_and_earn_edit_rights(
    new_context: Callable[..., BrowserContext], app_url: str,
    open_app: Callable[..., float], screenshot: Callable[[Page, str], Path],
    color_scheme: Callable[[Page, str], None],
) -> None:
    a, b, c = phone(new_context), phone(new_context), phone(new_context)
    game = start_game(a, app_url, open_app)

    # The starter holds the code and sees it in the Share panel, beside the QR code.
    code = read_table_code(a)
    expect(a.get_by_text(re.compile(rf"^http://[^ ]+/game/{game}$"))).to_be_visible()
    expect(a.get_by_label(re.compile(r"^QR code of http://"))).to_be_attached()
    screenshot(a, "share-panel")
    color_scheme(a, "dark")
    screenshot(a, "share-panel-dark")
    color_scheme(a, "light")
    close_dialog(a)

    # A watcher going straight to the Record hand address gets the code entry (C's
    # first load; Back shows it the sheet as a watcher).
    open_app(c, f"{app_url}game/{game}/hand", first_text="Enter the table code")
    expect(c.get_by_text("Who called?")).to_have_count(0)
    c.get_by_label("Back", exact=True).click()
    expect(c.get_by_text(WATCHING)).to_be_visible()

    # Watchers: the sheet, a banner, no Record hand.
    open_app(b, f"{app_url}game/{game}", first_text=WATCHING)
    for watcher in (b, c):
        expect(watcher.get_by_text(WATCHING)).to_be_visible()
        expect(watcher.get_by_role("button", name="Record hand")).to_have_count(0)
        expect(watcher.get_by_role("button", name="Undo last hand")).to_have_count(0)
    screenshot(b, "sheet-watcher")
    color_scheme(b, "dark")
    screenshot(b, "sheet-watcher-dark")
    color_scheme(b, "light")

    # A hand saved on A reaches both watchers without a reload.
    record_hand(a, "Ann", "95")
    for p in (a, b, c):
        expect(hand_rows(p, 1)).to_be_visible()

    # B asks for rights: a wrong code is refused, the right one grants them.
    b.get_by_role("button", name="Enter table code").click()
    expect(b.get_by_text("Ask the phone that started the game", exact=False)).to_be_visible()
    screenshot(b, "code-entry")
    color_scheme(b, "dark")
    screenshot(b, "code-entry-dark")
    color_scheme(b, "light")
    wrong = "111111" if code != "111111" else "222222"
    enter_code(b, wrong)
    expect(b.get_by_text("That is not this game's table code", exact=False)).to_be_visible()
    screenshot(b, "code-entry-wrong")
    enter_code(b, code)
    expect(b.get_by_role("button", name="Record hand")).to_be_visible()
    expect(b.get_by_text(WATCHING)).to_have_count(0)
    # and now sees the code too, to pass it on
    assert read_table_code(b) == code
    close_dialog(b)

    # B's rights outlive a reload and a new tab (same browser, device token kept).
    open_app(b, f"{app_url}game/{game}", first_text="Record hand")
    tab = b.context.new_page()
    open_app(tab, f"{app_url}game/{game}", first_text="Record hand")
    expect(tab.get_by_text(WATCHING)).to_have_count(0)

    # B records; A and the watcher see it. B undoes it; they see that too.
    record_hand(b, "Bob", "85")
    for p in (a, c, tab):
        expect(hand_rows(p, 2)).to_be_visible()
    b.get_by_role("button", name="Undo last hand").click()
    b.get_by_role("button", name="Remove hand").click()
    for p in (a, b, c, tab):
        expect(hand_rows(p, 2)).to_have_count(0)
        expect(hand_rows(p, 1)).to_be_visible()
    # The watcher C is still only watching.
    expect(c.get_by_text(WATCHING)).to_be_visible()


def test_repeated_wrong_codes_are_slowed_down(
    new_context: Callable[..., BrowserContext], app_server: Any,
    open_app: Callable[..., float],
) -> None:
    # The game is stored through `tarabish import`, which prints its code (the phone
    # that starts a game holds the code: test_phones_share_a_game_and_earn_edit_rights).
    app_url = app_server.url
    b = phone(new_context)
    game = seed_game(app_server.data_dir, [], players=["Eve", "Fay", "Gus", "Hal"])
    code = SEEDED_CODES[game]
    wrong = "000000" if code != "000000" else "999999"
    open_app(b, f"{app_url}game/{game}", first_text=WATCHING)
    b.get_by_role("button", name="Enter table code").click()
    for _ in range(3):
        enter_code(b, wrong)
    expect(b.get_by_text(re.compile(r"Too many wrong codes: try again in 30 s"))).to_be_visible()
    # Even the right code waits now.
    enter_code(b, code)
    expect(b.get_by_text(re.compile(r"Too many wrong codes: try again in \d+ s"))).to_be_visible()
    expect(b.get_by_role("button", name="Record hand")).to_have_count(0)


def test_two_games_at_once_stay_apart(
    new_context: Callable[..., BrowserContext], start_server: Callable[..., Any],
    open_app: Callable[..., float],
) -> None:
    server = start_server()
    a, b = phone(new_context), phone(new_context)
    first = start_game(a, server.url, open_app, ["Ann", "Bob", "Cid", "Dee"])
    second = start_game(b, server.url, open_app, ["Max", "Ned", "Oli", "Pat"])
    assert first != second
    # Each starter holds only their own game.
    route_to(b, f"game/{first}", WATCHING)
    route_to(b, f"game/{second}", "Record hand")

    record_hand(a, "Ann", "95")
    expect(hand_rows(a, 1)).to_be_visible()
    b.wait_for_timeout(1000)
    expect(b.get_by_text("No hands yet", exact=False)).to_be_visible()
    expect(hand_rows(b, 1)).to_have_count(0)

    # Each phone's home continues the game it was at last; a phone new to the table
    # has none to continue, and finds both under Past games.
    for at, players in ((a, "Ann & Cid"), (b, "Max & Oli")):
        route_to(at, "", "Past games")
        expect(at.get_by_role("button", name=re.compile(rf"^Continue\s+{players}"))).to_be_visible()
    home = phone(new_context)
    open_app(home, server.url)
    expect(home.get_by_role("button", name=re.compile("^Continue"))).to_have_count(0)
    home.get_by_role("button", name="Past games").click()
    # A card's score line keeps each team's name on one line (no-break spaces).
    expect(home.get_by_text(re.compile(r"^Ann\s&\sCid"))).to_be_visible()
    expect(home.get_by_text(re.compile(r"^Max\s&\sOli"))).to_be_visible()


def test_phone_back_after_session_timeout_sees_the_sheet_and_keeps_rights(
    page: Page, start_server: Callable[..., Any], open_app: Callable[..., float],
) -> None:
    """A phone away longer than the session timeout gets a new session: the sheet
    is rebuilt from the store and the device token still carries its rights."""
    server = start_server(env={"FLET_SESSION_TIMEOUT": "2"})
    # A game with one hand, stored through `tarabish import`; the phone enters its code.
    game = seed_game(server.data_dir, [{"caller": 0, "trump": "H",
                                        "points": {"team": 0, "tricks": 95}}])
    open_app(page, f"{server.url}game/{game}", first_text=WATCHING)
    enter_seeded_code(page, game)
    expect(page.get_by_role("button", name="Record hand")).to_be_visible()
    expect(hand_rows(page, 1)).to_be_visible()
    page.goto("about:blank")  # the phone sleeps: its WebSocket is gone
    page.wait_for_timeout(14_000)  # timeout 2 s; Flet sweeps sessions every 10 s
    open_app(page, f"{server.url}game/{game}", first_text="Record hand")
    expect(hand_rows(page, 1)).to_be_visible()
    expect(page.get_by_text(WATCHING)).to_have_count(0)


def test_unknown_game_address_gets_a_clear_page(
    page: Page, app_url: str, open_app: Callable[..., float],
) -> None:
    open_app(page, f"{app_url}game/deadbeef", first_text="Game not found")
    expect(page.get_by_role("button", name="Home")).to_be_visible()
    tap(page, "Home")
    route_to(page, "game/deadbeef/hand", "Game not found")

